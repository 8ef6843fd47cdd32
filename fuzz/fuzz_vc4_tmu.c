/* Fuzzer for the VideoCore IV TMU texture sampler (src/vc4/gpu/tmu_tex.c).
 *
 * Input: byte 0 = flags, byte 1 = nparams (low 3 bits) and has_t/r/b
 * (bits 3..5), bytes 2..3 = the lane mask, then 4 parameter words and 64
 * coordinate words (s, t, r, b for 16 lanes, raw float bits), all little
 * endian; the rest is memory, mapped at MAP_VA (at most 64 KiB, padded to
 * whole pages). To keep runs fast and reach the sampler, flags bit 0 moves
 * the base into the mapped window (keeping P0's low 12 bits and the page
 * within 64 KiB) and bit 1 caps width and height at 64 texels; without them
 * the parameters go through unchanged (faults, 2048x2048 textures).
 *
 * Invariants (abort() otherwise): a lookup returns 0 or -1; -1 comes with a
 * fault kind other than none and a message; the same request gives the same
 * words twice; vc4_tmu_format_params is consistent with snprintf's contract
 * and never writes past its buffer. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmdgpu/cmdgpu.h"
#include "vc4/gpu/tmu.h"

#define MAP_VA 0x00400000u
#define MAP_MAX 0x10000u
#define HEADER (4 + 16 + 256)

static uint32_t le32(const uint8_t *p)
{
    return p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < HEADER)
        return 0;
    cg_device *dev = NULL;
    cg_vas *bus = NULL;
    cg_mem *mem = NULL;
    if (cg_device_create(&dev) != 0)
        return 0;
    cg_vas_config cfg = {.va_bits = 32};
    size_t mem_n = size - HEADER > MAP_MAX ? MAP_MAX : size - HEADER;
    size_t map_n = (mem_n + 4095) & ~(size_t)4095;
    if (cg_vas_create(dev, &cfg, &bus) != 0)
        goto out;
    if (map_n) {
        if (cg_mem_create(dev, map_n, 0, &mem) != 0)
            goto out;
        cg_map_params mp = {.mem = mem, .va = MAP_VA, .flags = CG_MAP_FIXED};
        uint64_t va;
        if (cg_vas_map(bus, &mp, &va) != 0 ||
            cg_vas_write(bus, MAP_VA, data + HEADER, mem_n, NULL) != 0)
            goto out;
    }

    uint8_t flags = data[0];
    vc4_tmu_req r;
    memset(&r, 0, sizeof r);
    r.dev = dev;
    r.bus = bus;
    r.nparams = data[1] & 7;
    r.has_t = data[1] >> 3 & 1;
    r.has_r = data[1] >> 4 & 1;
    r.has_b = data[1] >> 5 & 1;
    r.lanes = (uint16_t)(data[2] | data[3] << 8);
    for (int i = 0; i < 4; i++)
        r.params[i] = le32(data + 4 + 4 * i);
    if (flags & 1)
        r.params[0] = MAP_VA + (r.params[0] & 0xf000u) + (r.params[0] & 0xfffu);
    if (flags & 2)
        r.params[1] = (r.params[1] & ~(0x7ffu << 20 | 0x7ffu << 8)) |
                      (((r.params[1] >> 20) & 63) + 1) << 20 | (((r.params[1] >> 8) & 63) + 1) << 8;
    for (int l = 0; l < 16; l++) {
        uint32_t w[4];
        for (int k = 0; k < 4; k++)
            w[k] = le32(data + 20 + 64 * k + 4 * l);
        memcpy(&r.s[l], &w[0], 4);
        memcpy(&r.t[l], &w[1], 4);
        memcpy(&r.r[l], &w[2], 4);
        memcpy(&r.b[l], &w[3], 4);
    }

    uint32_t out[16], hi[16], out2[16], hi2[16];
    vc4_tmu_fault f, f2;
    memset(&f, 0, sizeof f);
    memset(&f2, 0, sizeof f2);
    int rc = vc4_tmu_texture2(&r, out, hi, &f);
    int rc2 = vc4_tmu_texture2(&r, out2, hi2, &f2);
    if (rc != rc2 || (rc != 0 && rc != -1))
        abort();
    if (rc == 0 && (memcmp(out, out2, sizeof out) || memcmp(hi, hi2, sizeof hi)))
        abort();
    if (rc == -1 && (f.kind == CG_FAULT_NONE || f.msg[0] == 0 || f.kind != f2.kind ||
                     f.addr != f2.addr || strcmp(f.msg, f2.msg)))
        abort();

    if (getenv("FUZZ_VC4_TMU_VERBOSE"))
        fprintf(stderr, "rc %d out[0] 0x%08x %s\n", rc, out[0], rc ? f.msg : "");
    char buf[600], small[17];
    memset(small, 0x5a, sizeof small);
    int n = vc4_tmu_format_params(r.params, r.nparams, buf, sizeof buf);
    int m = vc4_tmu_format_params(r.params, r.nparams, small, 16);
    if (n < 0 || n != m || (size_t)n >= sizeof buf || strlen(buf) != (size_t)n ||
        small[16] != 0x5a || strlen(small) != (n < 16 ? (size_t)n : 15u))
        abort();
    (void)vc4_tmu_params_needed(r.params[0], r.params[1], r.has_r, r.has_b);
out:
    cg_vas_destroy(bus);
    cg_mem_unref(mem);
    cg_device_destroy(dev);
    return 0;
}
