/* IEEE 754 binary16 <-> float: the conversions the texture and surface
 * readers and writers share (nv texture/2D/ROP/shader textures, vc4 TMU).
 * binary16 -> float is exact (denormals kept, Inf and NaN preserved);
 * float -> binary16 rounds to nearest even, overflow gives infinity, NaN a
 * quiet NaN. The QPU's own pack and unpack flush denormals and keep their
 * own (src/vc4/gpu/qpu_run.c). Not installed. */
#ifndef CMDGPU_CORE_HALF_H
#define CMDGPU_CORE_HALF_H

#include <math.h>
#include <stdint.h>
#include <string.h>

static inline float cg__half_to_float(uint32_t h)
{
    unsigned e = (h >> 10) & 31, m = h & 1023;
    float v;
    if (e == 0)
        v = ldexpf((float)m, -24);
    else if (e == 31)
        v = m ? NAN : INFINITY;
    else
        v = ldexpf((float)(m | 1024), (int)e - 25);
    return (h & 0x8000) ? -v : v;
}

/* binary32 bits -> binary16, round to nearest even. */
static inline uint16_t cg__float_bits_to_half(uint32_t x)
{
    uint32_t sign = (x >> 16) & 0x8000, e = (x >> 23) & 0xFF, m = x & 0x7FFFFF;
    if (e == 0xFF)
        return (uint16_t)(sign | (m ? 0x7E00 : 0x7C00));
    int32_t he = (int32_t)e - 112; /* rebias 127 -> 15 */
    if (he >= 31)
        return (uint16_t)(sign | 0x7C00);
    uint32_t h, rem, halfway;
    if (he <= 0) { /* a subnormal half: h = (1.m) * 2^(he - 1) / 2^-24 */
        if (he < -10)
            return (uint16_t)sign;
        unsigned shift = (unsigned)(14 - he);
        m |= 0x800000;
        h = m >> shift;
        rem = m & ((1u << shift) - 1);
        halfway = 1u << (shift - 1);
    } else {
        h = (uint32_t)he << 10 | m >> 13;
        rem = m & 0x1FFF;
        halfway = 0x1000;
    }
    if (rem > halfway || (rem == halfway && (h & 1)))
        h++; /* a carry into the exponent is still the right value */
    return (uint16_t)(sign | h);
}

static inline uint16_t cg__float_to_half(float f)
{
    uint32_t x;
    memcpy(&x, &f, 4);
    return cg__float_bits_to_half(x);
}

#endif
