/* vc4: the compressed primitive list's triangle codings (16-bit indices,
 * research/vc4.md 1.3), encoder side. One implementation, inline so the
 * binner's per-tile write gets it without a call; the public
 * cg_vc4_prim_encode (cl_defs.c) is this function. Internal, not
 * installed. */
#ifndef CMDGPU_VC4_PRIM_ENCODE_H
#define CMDGPU_VC4_PRIM_ENCODE_H

#include <stdbool.h>
#include <stdint.h>

/* Encode triangle tri after prev (prev unused when first) in the smallest
 * coding into out (exactly the returned number of bytes are written, 1, 2,
 * 4 or 7); 0 (nothing written) when an index exceeds 16 bits. */
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
static inline unsigned vc4_prim_encode(const uint32_t prev[3], const uint32_t tri[3], bool first,
                                       uint8_t *out)
{
    if ((tri[0] | tri[1] | tri[2]) > 0xFFFF)
        return 0;
    int32_t i0 = (int32_t)tri[0], i1 = (int32_t)tri[1], i2 = (int32_t)tri[2];
    if (!first) {
        int32_t p0 = (int32_t)prev[0], p1 = (int32_t)prev[1], p2 = (int32_t)prev[2];
        /* coding 0: d in -31..31 (-32 would make 0x80..0x82) */
        int32_t d = i2 - p2;
        if (d >= -31 && d <= 31) {
            int flag = -1;
            if (i0 == p2 && i1 == p1)
                flag = 0;
            else if (i0 == p0 && i1 == p2)
                flag = 1;
            else if (i0 == p1 && i1 == p0)
                flag = 2;
            if (flag >= 0) {
                out[0] = (uint8_t)(flag | (((uint32_t)d & 0x3F) << 2));
                return 1;
            }
        }
        /* coding 1: deltas -8..7, but not a first byte of 0x83 (-8 in [7:4]),
         * kept clear of the 0x80..0x82 codes */
        int32_t d0 = i0 - p0, d1 = i1 - p1, d2 = i2 - p2;
        if (d0 >= -7 && d0 <= 7 && d1 >= -8 && d1 <= 7 && d2 >= -8 && d2 <= 7) {
            uint32_t w = 3u | ((uint32_t)d0 & 0xF) << 4 | ((uint32_t)d1 & 0xF) << 8 |
                         ((uint32_t)d2 & 0xF) << 12;
            out[0] = (uint8_t)w;
            out[1] = (uint8_t)(w >> 8);
            return 2;
        }
    }
    int32_t e1 = i1 - i0, e2 = i2 - i0;
    if (e1 >= -32 && e1 <= 31 && e2 >= -32 && e2 <= 31) {
        uint32_t w = 0xFu | ((uint32_t)e1 & 0x3F) << 4 | ((uint32_t)e2 & 0x3F) << 10 |
                     (uint32_t)i0 << 16;
        out[0] = (uint8_t)w;
        out[1] = (uint8_t)(w >> 8);
        out[2] = (uint8_t)(w >> 16);
        out[3] = (uint8_t)(w >> 24);
        return 4;
    }
    out[0] = 0x81;
    for (int k = 0; k < 3; k++) {
        out[1 + 2 * k] = (uint8_t)tri[k];
        out[2 + 2 * k] = (uint8_t)(tri[k] >> 8);
    }
    return 7;
}

#endif
