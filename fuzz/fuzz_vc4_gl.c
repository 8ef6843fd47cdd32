/* Fuzzer for vc4 GL shader mode (src/vc4/gpu/gl.c, clip.c and their hooks in
 * the binner and renderer): hostile GL shader records, attribute records,
 * vertex data and shader code, drawn through one 64x64 tile.
 *
 * Input: byte 0 = the GL_Shader_State payload's low bits (number of
 * attribute arrays [2:0], extended [3]) and flags (bit 7: relocate the
 * record's code and attribute addresses into the data window, so runs get
 * past the first unmapped read; bit 6: indexed primitives); byte 1 = the
 * primitive mode (low 3 bits) and state records before the primitives
 * (bit 3: depth offset enabled in Configuration_Bits, with LEQUAL and Z
 * writes, and a Depth_Offset record whose factor and units are the first 4
 * of the data window's last 20 bytes; bit 4: Z_min_and_max_clipping_planes
 * from the next 8; bit 5: Clipper_XY_Scaling for the 64x64 tile and a
 * Clipper_Z_Scale_and_Offset from the last 8; zeros for a window shorter
 * than 20 bytes); byte 2 = the count (at most 48); byte 3 = the
 * first vertex / maximum index; bytes 4..135 = the GL shader record
 * (132 bytes, the extended form's largest); the rest = the data window at
 * DATA (at most 32 KiB): vertex data, QPU code, uniforms, indices.
 *
 * Invariants (abort() otherwise): the frame ends (the watchdog at most);
 * after resetting both threads the device draws a known NV frame whose
 * pixel has the shader's colour, so a hostile frame never breaks the next. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmdgpu/cmdgpu.h"

#define REC 0x00010000u
#define DATA 0x00020000u
#define DATA_MAX 0x8000u
#define BIN 0x00030000u
#define REND 0x00031000u
#define GOOD 0x00032000u
#define FB 0x00100000u
#define HEADER (4 + 132)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static size_t put(uint8_t *b, size_t n, const void *p, size_t k)
{
    memcpy(b + n, p, k);
    return n + k;
}
static size_t u8(uint8_t *b, size_t n, uint8_t v) { return put(b, n, &v, 1); }
static size_t u16(uint8_t *b, size_t n, uint16_t v)
{
    uint8_t x[2] = {(uint8_t)v, (uint8_t)(v >> 8)};
    return put(b, n, x, 2);
}
static size_t u32(uint8_t *b, size_t n, uint32_t v)
{
    n = u16(b, n, (uint16_t)v);
    return u16(b, n, (uint16_t)(v >> 16));
}

/* A binning list for one 64x64 tile around `state` bytes, and its render
 * list; cfg1 = Configuration_Bits' second byte, cfg0's bit 3 = depth offset. */
static void lists(cg_vc4 *v, uint32_t bin, const uint8_t *state, size_t sn, uint32_t *bin_end,
                  uint32_t rend, uint32_t *rend_end, uint8_t cfg0, uint8_t cfg1)
{
    uint8_t b[192], r[64];
    size_t n = 0, m = 0;
    n = u8(b, n, 112), n = u32(b, n, 0x40000), n = u32(b, n, 0x1000), n = u32(b, n, 0x50000);
    n = u8(b, n, 1), n = u8(b, n, 1), n = u8(b, n, 0x04);
    n = u8(b, n, 6), n = u8(b, n, 7);
    n = u8(b, n, 102), n = u16(b, n, 0), n = u16(b, n, 0), n = u16(b, n, 64), n = u16(b, n, 64);
    n = u8(b, n, 96), n = u8(b, n, (uint8_t)(3 | cfg0)), n = u8(b, n, cfg1), n = u8(b, n, 0);
    n = u8(b, n, 103), n = u16(b, n, 0), n = u16(b, n, 0);
    n = put(b, n, state, sn);
    n = u8(b, n, 4);
    m = u8(r, m, 8);
    m = u8(r, m, 114), m = u32(r, m, 0xFF000000), m = u32(r, m, 0), m = u32(r, m, 0xFFFFFF),
    m = u8(r, m, 0);
    m = u8(r, m, 113), m = u32(r, m, FB), m = u16(r, m, 64), m = u16(r, m, 64), m = u16(r, m, 4);
    m = u8(r, m, 115), m = u8(r, m, 0), m = u8(r, m, 0);
    m = u8(r, m, 17), m = u32(r, m, 0x40000);
    m = u8(r, m, 25);
    cg_vc4_cpu_write(v, bin, b, n);
    cg_vc4_cpu_write(v, rend, r, m);
    *bin_end = bin + (uint32_t)n;
    *rend_end = rend + (uint32_t)m;
}

static void kick(cg_vc4 *v, uint32_t bs, uint32_t be, uint32_t rs, uint32_t re)
{
    cg_vc4_reg_write(v, CG_VC4_CT0CA, bs);
    cg_vc4_reg_write(v, CG_VC4_CT0EA, be);
    cg_vc4_reg_write(v, CG_VC4_CT1CA, rs);
    cg_vc4_reg_write(v, CG_VC4_CT1EA, re);
    cg_vc4_wait_idle(v);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < HEADER)
        return 0;
    cg_device *dev = NULL;
    cg_vc4 *v = NULL;
    /* the tile pool from the first frame, as fuzz_vc4_cl */
    cg_vc4_config cfg = {.sdram_size = 2u << 20, .qpu_budget = 4096, .pool_at_once = true};
    if (cg_device_create(&dev) != 0)
        return 0;
    cg_device_set_budget(dev, CG_BUDGET_VC4_THREAD_UNITS, 1u << 16);
    if (cg_vc4_create(dev, &cfg, &v) != 0)
        goto out;
    uint8_t rec[132];
    memcpy(rec, data + 4, sizeof rec);
    if (data[0] & 0x80) {
        /* code at DATA + offset (8-aligned), uniforms and attributes in the window */
        for (int k = 0; k < 3; k++) {
            static const int code_off[3] = {4, 16, 28};
            for (int j = 0; j < 2; j++) {
                uint8_t *p = rec + code_off[k] + 4 * j;
                uint32_t a = DATA + ((p[0] | (uint32_t)p[1] << 8) & (DATA_MAX - 8));
                p[0] = (uint8_t)a, p[1] = (uint8_t)(a >> 8), p[2] = (uint8_t)(a >> 16), p[3] = 0;
            }
        }
        for (int i = 0; i < 8; i++) {
            uint8_t *p = rec + 36 + 8 * i;
            uint32_t a = DATA + ((p[0] | (uint32_t)p[1] << 8) & (DATA_MAX - 1));
            p[0] = (uint8_t)a, p[1] = (uint8_t)(a >> 8), p[2] = (uint8_t)(a >> 16), p[3] = 0;
        }
    }
    cg_vc4_cpu_write(v, REC, rec, sizeof rec);
    size_t dn = size - HEADER > DATA_MAX ? DATA_MAX : size - HEADER;
    if (dn)
        cg_vc4_cpu_write(v, DATA, data + HEADER, dn);

    /* state records, GL_Shader_State, then the primitives */
    uint8_t st[96], w[20] = {0};
    if (dn >= sizeof w)
        memcpy(w, data + HEADER + dn - sizeof w, sizeof w);
    size_t n = 0;
    uint8_t cfg0 = 0, cfg1 = 0;
    if (data[1] & 0x08) {
        cfg0 = 0x08, cfg1 = 0x30 | 0x80; /* depth offset; LEQUAL, Z updates */
        n = u8(st, n, 101), n = put(st, n, w, 4);
    }
    if (data[1] & 0x10)
        n = u8(st, n, 104), n = put(st, n, w + 4, 8);
    if (data[1] & 0x20) {
        /* half the tile in 1/16 pixel: 512.0f */
        n = u8(st, n, 105), n = u32(st, n, 0x44000000), n = u32(st, n, 0x44000000);
        n = u8(st, n, 106), n = put(st, n, w + 12, 8);
    }
    n = u8(st, n, 64), n = u32(st, n, REC | (data[0] & 15u));
    unsigned mode = data[1] & 7, count = data[2] % 49;
    if (data[0] & 0x40) {
        n = u8(st, n, 32), n = u8(st, n, (uint8_t)(mode | 0x10)), n = u32(st, n, count);
        n = u32(st, n, DATA), n = u32(st, n, data[3]);
    } else {
        n = u8(st, n, 33), n = u8(st, n, (uint8_t)mode), n = u32(st, n, count);
        n = u32(st, n, data[3]);
    }
    uint32_t be, re;
    lists(v, BIN, st, n, &be, REND, &re, cfg0, cfg1);
    kick(v, BIN, be, REND, re);

    /* the next frame: reset both threads, one NV triangle covering the tile
     * with a constant-colour shader (ldi tlbc, 0xFF336699; thrend; 2 nops) */
    cg_vc4_reg_write(v, CG_VC4_CT0CS, 0x8000);
    cg_vc4_reg_write(v, CG_VC4_CT1CS, 0x8000);
    static const uint32_t fs[8] = {0xFF336699, 0xE0020BA7, 0x009E7000, 0x300009E7,
                                   0x009E7000, 0x100009E7, 0x009E7000, 0x100009E7};
    static const int16_t vx[3][2] = {{0, 0}, {256 * 16, 0}, {0, 256 * 16}};
    uint8_t nv[16 + 36];
    size_t k = 0;
    k = u8(nv, k, 0), k = u8(nv, k, 12), k = u8(nv, k, 0), k = u8(nv, k, 0);
    k = u32(nv, k, GOOD + 0x100), k = u32(nv, k, 0), k = u32(nv, k, GOOD + 0x40);
    cg_vc4_cpu_write(v, GOOD, nv, k);
    k = 0;
    for (int i = 0; i < 3; i++) {
        k = u16(nv, k, (uint16_t)vx[i][0]), k = u16(nv, k, (uint16_t)vx[i][1]);
        k = u32(nv, k, 0x3F000000), k = u32(nv, k, 0x3F800000);
    }
    cg_vc4_cpu_write(v, GOOD + 0x40, nv, k);
    cg_vc4_cpu_write(v, GOOD + 0x100, fs, sizeof fs);
    n = 0;
    n = u8(st, n, 65), n = u32(st, n, GOOD);
    n = u8(st, n, 33), n = u8(st, n, 4), n = u32(st, n, 3), n = u32(st, n, 0);
    lists(v, GOOD + 0x200, st, n, &be, GOOD + 0x300, &re, 0, 0);
    kick(v, GOOD + 0x200, be, GOOD + 0x300, re);
    uint32_t px = 0;
    cg_vc4_cpu_read32(v, FB + (10 * 64 + 10) * 4, &px);
    if (px != 0xFF336699) {
        fprintf(stderr, "fuzz_vc4_gl: the frame after the input drew 0x%08x\n", px);
        abort();
    }
out:
    cg_vc4_destroy(v);
    cg_device_destroy(dev);
    return 0;
}
