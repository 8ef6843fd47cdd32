/* VideoCore IV TMU texture sampler (src/vc4/gpu/tmu_tex.c): textures built in
 * memory by this test's own address functions (written from the guide's
 * prose, not from the library), then sampled; exact r4 words for every type,
 * nearest and bilinear, wrap modes, mip selection, cube faces, flip Y, the
 * ETC1 block decode against hand-worked blocks, and the faults. */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "qpu_text.h"
#include "cmdgpu/cmdgpu.h"
#include "vc4/qpu.h"
#include "vc4/gpu/tmu.h"

#define MEM_VA 0x100000u
#define MEM_SIZE 0x100000u

typedef struct env {
    cg_device *dev;
    cg_vas *bus;
    cg_mem *mem;
} env;

static env E;

static void env_init(void)
{
    memset(&E, 0, sizeof E);
    CHECK_EQ(cg_device_create(&E.dev), 0);
    cg_vas_config cfg = {.va_bits = 32};
    CHECK_EQ(cg_vas_create(E.dev, &cfg, &E.bus), 0);
    CHECK_EQ(cg_mem_create(E.dev, MEM_SIZE, 0, &E.mem), 0);
    cg_map_params p = {.mem = E.mem, .va = MEM_VA, .flags = CG_MAP_FIXED};
    uint64_t va;
    CHECK_EQ(cg_vas_map(E.bus, &p, &va), 0);
}

static void env_fini(void)
{
    cg_vas_destroy(E.bus);
    cg_mem_unref(E.mem);
    cg_device_destroy(E.dev);
}

static void put(uint32_t va, const void *src, size_t n)
{
    CHECK_EQ(cg_vas_write(E.bus, va, src, n, NULL), 0);
}
static void put32(uint32_t va, uint32_t v)
{
    uint8_t b[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
    put(va, b, 4);
}
static void clear(uint32_t va, size_t n)
{
    CHECK_EQ(cg_vas_fill(E.bus, va, 0, n, NULL), 0);
}

static uint32_t P0(uint32_t base, unsigned type, unsigned miplvls, bool cube, bool flipy)
{
    return base | (cube ? 1u << 9 : 0) | (flipy ? 1u << 8 : 0) | (type & 15) << 4 | miplvls;
}
/* P1: type bit 4 at 31, height 30:20, etcflip 19, width 18:8, mag 7,
 * min 6:4, wrap t 3:2, wrap s 1:0 (guide; Mesa vc4_packet.h) */
static uint32_t P1(unsigned type, unsigned w, unsigned h, unsigned mag, unsigned min,
                   unsigned wt, unsigned ws)
{
    return (type >> 4) << 31 | (h & 2047) << 20 | (w & 2047) << 8 | mag << 7 | min << 4 |
           wt << 2 | ws;
}
enum { LIN = 0, NEAR = 1 };
enum { REPEAT = 0, CLAMP = 1, MIRROR = 2, BORDER = 3 };

static vc4_tmu_req req_new(uint32_t p0, uint32_t p1)
{
    vc4_tmu_req r;
    memset(&r, 0, sizeof r);
    r.dev = E.dev;
    r.bus = E.bus;
    r.params[0] = p0;
    r.params[1] = p1;
    r.nparams = 2;
    r.lanes = 0xffff;
    r.has_t = true;
    return r;
}

static int run(const vc4_tmu_req *r, uint32_t out[16])
{
    vc4_tmu_fault f;
    memset(&f, 0, sizeof f);
    int rc = vc4_tmu_texture(r, out, &f);
    if (rc)
        fprintf(stderr, "  fault %d at 0x%08x: %s\n", (int)f.kind, f.addr, f.msg);
    return rc;
}

/* ---- independent address functions ------------------------------------ */

/* Micro-tile (64-byte block) sizes for 32 bpp: 4x4 texels, stored row by
 * row. A 1 KiB sub-tile is 4x4 micro-tiles in raster order (16x16 texels);
 * a 4 KiB tile is 2x2 sub-tiles (32x32 texels). Guide, T-format: in tile
 * rows 0, 2, ... the tiles go left to right and the sub-tiles in the order
 * bottom-left, top-left, top-right, bottom-right; in rows 1, 3, ... the
 * tiles go right to left and the sub-tiles top-right, bottom-right,
 * bottom-left, top-left ("bottom" = lower y, the first rows in memory). */
static uint32_t t_addr32(uint32_t x, uint32_t y, uint32_t width_tiles)
{
    static const int even_order[4][2] = {{0, 0}, {0, 1}, {1, 1}, {1, 0}}; /* (sx, sy) */
    static const int odd_order[4][2] = {{1, 1}, {1, 0}, {0, 0}, {0, 1}};
    uint32_t row = y / 32, col = x / 32;
    uint32_t tile_index = row * width_tiles + ((row % 2) ? width_tiles - 1 - col : col);
    int sx = (int)(x % 32) / 16, sy = (int)(y % 32) / 16;
    const int (*order)[2] = (row % 2) ? odd_order : even_order;
    int sub = -1;
    for (int k = 0; k < 4; k++)
        if (order[k][0] == sx && order[k][1] == sy)
            sub = k;
    uint32_t ux = (x % 16) / 4, uy = (y % 16) / 4;
    return tile_index * 4096 + (uint32_t)sub * 1024 + (uy * 4 + ux) * 64 + ((y % 4) * 4 + x % 4) * 4;
}

/* LT: micro-tiles in raster order over the padded width. utile w x h units
 * of `bytes` each. */
static uint32_t lt_addr(uint32_t x, uint32_t y, uint32_t padded_w, uint32_t uw, uint32_t uh,
                        uint32_t bytes)
{
    return ((y / uh) * (padded_w / uw) + x / uw) * 64 + ((y % uh) * uw + x % uw) * bytes;
}

static uint32_t rgba(unsigned r, unsigned g, unsigned b, unsigned a)
{
    return r | g << 8 | b << 16 | (uint32_t)a << 24;
}

/* ---- tests ------------------------------------------------------------- */

static void test_t_format_64(void)
{
    const uint32_t base = 0x140000;
    clear(base, 64 * 64 * 4);
    for (uint32_t y = 0; y < 64; y++)
        for (uint32_t x = 0; x < 64; x++)
            put32(base + t_addr32(x, y, 2), rgba(x, y, x ^ y, 0x80 | (x + y) % 64));
    /* the library's address function agrees texel by texel */
    vc4_tmu_level lv[16];
    CHECK_EQ(vc4_tmu_layout_levels(VC4_TMU_TYPE_RGBA8888, 64, 64, 0, lv), 0);
    CHECK_EQ(lv[0].layout, VC4_TMU_T);
    CHECK_EQ(lv[0].size, 16384);
    unsigned bad = 0;
    for (uint32_t y = 0; y < 64; y++)
        for (uint32_t x = 0; x < 64; x++)
            if (vc4_tmu_unit_offset(&lv[0], 32, x, y, NULL) != t_addr32(x, y, 2))
                bad++;
    CHECK_EQ(bad, 0);
    /* every texel through the sampler, nearest */
    vc4_tmu_req r = req_new(P0(base, 0, 0, false, false), P1(0, 64, 64, NEAR, NEAR, 0, 0));
    bad = 0;
    for (uint32_t i = 0; i < 64 * 64; i += 16) {
        for (int l = 0; l < 16; l++) {
            uint32_t x = (i + (uint32_t)l) % 64, y = (i + (uint32_t)l) / 64;
            r.s[l] = ((float)x + 0.5f) / 64;
            r.t[l] = ((float)y + 0.5f) / 64;
        }
        uint32_t out[16];
        CHECK_EQ(run(&r, out), 0);
        for (int l = 0; l < 16; l++) {
            uint32_t x = (i + (uint32_t)l) % 64, y = (i + (uint32_t)l) / 64;
            if (out[l] != rgba(x, y, x ^ y, 0x80 | (x + y) % 64))
                bad++;
        }
    }
    CHECK_EQ(bad, 0);
}

static void test_lt_and_raster(void)
{
    /* 16x16 RGBA8888 is LT (16 <= 4 micro-tiles of 4) */
    const uint32_t base = 0x150000;
    for (uint32_t y = 0; y < 16; y++)
        for (uint32_t x = 0; x < 16; x++)
            put32(base + lt_addr(x, y, 16, 4, 4, 4), rgba(x * 3, y * 5, 7, 9));
    vc4_tmu_req r = req_new(P0(base, 0, 0, false, false), P1(0, 16, 16, NEAR, NEAR, 0, 0));
    unsigned bad = 0;
    for (uint32_t i = 0; i < 256; i += 16) {
        for (int l = 0; l < 16; l++) {
            r.s[l] = ((float)((i + (uint32_t)l) % 16) + 0.5f) / 16;
            r.t[l] = ((float)((i + (uint32_t)l) / 16) + 0.5f) / 16;
        }
        uint32_t out[16];
        CHECK_EQ(run(&r, out), 0);
        for (int l = 0; l < 16; l++)
            if (out[l] != rgba(((i + (uint32_t)l) % 16) * 3, ((i + (uint32_t)l) / 16) * 5, 7, 9))
                bad++;
    }
    CHECK_EQ(bad, 0);

    /* RGBA32R 5x3 raster: row stride = 5 rounded up to 4 texels = 32 bytes */
    const uint32_t rb = 0x151000;
    for (uint32_t y = 0; y < 3; y++)
        for (uint32_t x = 0; x < 5; x++)
            put32(rb + y * 32 + x * 4, rgba(x, y, 0x11, 0x22));
    r = req_new(P0(rb, 0, 0, false, false), P1(16, 5, 3, NEAR, NEAR, 0, 0));
    r.lanes = 0x7fff;
    for (int l = 0; l < 16; l++) {
        r.s[l] = ((float)(l % 5) + 0.5f) / 5;
        r.t[l] = ((float)(l / 5) + 0.5f) / 3;
    }
    uint32_t out[16];
    CHECK_EQ(run(&r, out), 0);
    for (int l = 0; l < 15; l++)
        CHECK_EQ(out[l], rgba((unsigned)l % 5, (unsigned)l / 5, 0x11, 0x22));
    CHECK_EQ(out[15], 0); /* lane outside the mask */
}

/* One texel at (0,0) or (1,0) of a small LT texture of `type`, nearest. */
static uint32_t one(unsigned type, unsigned w, unsigned h, uint32_t x, const uint8_t *bytes,
                    size_t n, uint32_t *hi)
{
    const uint32_t base = 0x160000;
    clear(base, 4096);
    put(base, bytes, n);
    vc4_tmu_req r = req_new(P0(base, type, 0, false, false), P1(type, w, h, NEAR, NEAR, 0, 0));
    r.lanes = 1;
    r.s[0] = ((float)x + 0.5f) / (float)w;
    r.t[0] = 0.5f / (float)h;
    uint32_t out[16], oh[16];
    vc4_tmu_fault f;
    CHECK_EQ(vc4_tmu_texture2(&r, out, oh, &f), 0);
    if (hi)
        *hi = oh[0];
    return out[0];
}

static void test_types(void)
{
    const uint8_t rgbx[] = {0x11, 0x22, 0x33, 0x00};
    CHECK_EQ(one(1, 4, 4, 0, rgbx, 4, NULL), 0xff332211);
    const uint8_t c4444[] = {0x34, 0x12}; /* R=1 G=2 B=3 A=4, R in 15:12 */
    CHECK_EQ(one(2, 8, 4, 0, c4444, 2, NULL), 0x44332211);
    const uint8_t c5551[] = {0x01, 0xf8, 0x3e, 0x00}; /* (31,0,0,1), (0,0,31,0) */
    CHECK_EQ(one(3, 8, 4, 0, c5551, 4, NULL), 0xff0000ff);
    CHECK_EQ(one(3, 8, 4, 1, c5551, 4, NULL), 0x00ff0000);
    const uint8_t c565[] = {0xe0, 0x07, 0x10, 0x84}; /* G=63; R=16 G=32 B=16 */
    CHECK_EQ(one(4, 8, 4, 0, c565, 4, NULL), 0xff00ff00);
    CHECK_EQ(one(4, 8, 4, 1, c565, 4, NULL), rgba(0x84, 0x82, 0x84, 0xff));
    const uint8_t l8[] = {0x5a, 0x07};
    CHECK_EQ(one(5, 8, 8, 0, l8, 2, NULL), 0xff5a5a5a);
    CHECK_EQ(one(6, 8, 8, 1, l8, 2, NULL), 0x07000000);
    const uint8_t la[] = {0x10, 0x80};
    CHECK_EQ(one(7, 8, 4, 0, la, 2, NULL), 0x80101010);
    const uint8_t h16[] = {0x00, 0x3c};
    CHECK_EQ(one(9, 8, 4, 0, h16, 2, NULL), 0x3c003c00);
    CHECK_EQ(one(10, 8, 8, 0, l8, 2, NULL), 0x5a5a5a5a);
    const uint8_t s16[] = {0xef, 0xbe};
    CHECK_EQ(one(11, 8, 4, 0, s16, 2, NULL), 0xbeefbeef);
    /* 1-bit types: a micro-tile is 32x16, texel x at bit x%8 (LSB first) */
    const uint8_t bits[] = {0x02};
    CHECK_EQ(one(12, 32, 16, 0, bits, 1, NULL), 0xff000000);
    CHECK_EQ(one(12, 32, 16, 1, bits, 1, NULL), 0xffffffff);
    CHECK_EQ(one(14, 32, 16, 1, bits, 1, NULL), 0xff000000);
    CHECK_EQ(one(14, 32, 16, 0, bits, 1, NULL), 0x00000000);
    const uint8_t nib[] = {0xa5};
    CHECK_EQ(one(13, 16, 8, 0, nib, 1, NULL), 0x55000000);
    CHECK_EQ(one(13, 16, 8, 1, nib, 1, NULL), 0xaa000000);
    const uint8_t c64[] = {0x00, 0x3c, 0x00, 0x40, 0x00, 0x38, 0x00, 0xbc};
    uint32_t hi = 0;
    CHECK_EQ(one(15, 2, 4, 0, c64, 8, &hi), 0x40003c00);
    CHECK_EQ(hi, 0xbc003800);
    const uint8_t yuyv[] = {0x10, 0x20, 0x30, 0x40};
    CHECK_EQ(one(17, 2, 1, 0, yuyv, 4, NULL), 0xff402010);
    CHECK_EQ(one(17, 2, 1, 1, yuyv, 4, NULL), 0xff402030);
    /* the table */
    CHECK_STR(vc4_tmu_type_get(8)->name, "etc1");
    CHECK_EQ(vc4_tmu_type_get(17)->bpp, 16);
    CHECK(vc4_tmu_type_get(16)->raster);
    CHECK(vc4_tmu_type_get(18) == NULL);
}

static void test_etc1(void)
{
    /* Block A, individual mode, no flip: R 0xA/0x5, G 0x0/0xF, B 0x3/0xC,
     * tables 0 (2, 8) and 7 (47, 183); pixel (1,0) index 1, (2,1) index 2,
     * (3,2) index 3, the rest 0. Hand-worked:
     *   (0,0) = (0xAA+2, 0x00+2, 0x33+2)          = (0xAC, 0x02, 0x35)
     *   (1,0) = (0xAA+8, 0x00+8, 0x33+8)          = (0xB2, 0x08, 0x3B)
     *   (2,1) = (0x55-47, 0xFF-47, 0xCC-47)       = (0x26, 0xD0, 0x9D)
     *   (3,2) = (0x55-183 -> 0, 0xFF-183, 0xCC-183) = (0x00, 0x48, 0x15)
     * Block B, differential, flip: R 16 (-1), G 0 (+3), B 31 (+0), tables
     * 1 (5, 17) and 2 (9, 29); pixel (1,3) index 1:
     *   (0,0) = (0x84+5, 0x00+5, 0xFF+5 -> 0xFF)  = (0x89, 0x05, 0xFF)
     *   (1,3) = (0x7B+29, 0x18+29, 0xFF)          = (0x98, 0x35, 0xFF) */
    const uint8_t a[8] = {0xA5, 0x0F, 0x3C, 0x1C, 0x42, 0x00, 0x40, 0x10};
    const uint8_t b[8] = {0x87, 0x03, 0xF8, 0x2B, 0x00, 0x00, 0x00, 0x80};
    const uint32_t base = 0x161000;
    for (int flip = 0; flip < 2; flip++) {
        /* 8x4 texels = 2x1 blocks, LT of 64-bit units: block (1,0) at 8 */
        uint8_t blk[16];
        for (int k = 0; k < 8; k++) {
            blk[k] = flip ? a[k] : a[7 - k];
            blk[8 + k] = flip ? b[k] : b[7 - k];
        }
        clear(base, 4096);
        put(base, blk, 16);
        vc4_tmu_req r = req_new(P0(base, 8, 0, false, false),
                                P1(8, 8, 4, NEAR, NEAR, 0, 0) | (uint32_t)flip << 19);
        static const int px[6][2] = {{0, 0}, {1, 0}, {2, 1}, {3, 2}, {4, 0}, {5, 3}};
        r.lanes = 0x3f;
        for (int l = 0; l < 6; l++) {
            r.s[l] = ((float)px[l][0] + 0.5f) / 8;
            r.t[l] = ((float)px[l][1] + 0.5f) / 4;
        }
        uint32_t out[16];
        CHECK_EQ(run(&r, out), 0);
        CHECK_EQ(out[0], rgba(0xAC, 0x02, 0x35, 0xff));
        CHECK_EQ(out[1], rgba(0xB2, 0x08, 0x3B, 0xff));
        CHECK_EQ(out[2], rgba(0x26, 0xD0, 0x9D, 0xff));
        CHECK_EQ(out[3], rgba(0x00, 0x48, 0x15, 0xff));
        CHECK_EQ(out[4], rgba(0x89, 0x05, 0xFF, 0xff));
        CHECK_EQ(out[5], rgba(0x98, 0x35, 0xFF, 0xff));
    }
}

static const uint32_t small_tex[16] = {
    0x00000000, 0x10204080, 0x20406080, 0xff00ff00, 0x01020304, 0x40404040, 0x80808080,
    0xc0c0c0c0, 0x11223344, 0x55667788, 0x99aabbcc, 0xddeeff00, 0x0f0f0f0f, 0xf0f0f0f0,
    0x12345678, 0x9abcdef0};

/* 4x4 RGBA8888 LT: texel (x,y) = small_tex[y*4+x] */
static uint32_t make_small(uint32_t base)
{
    for (uint32_t i = 0; i < 16; i++)
        put32(base + lt_addr(i % 4, i / 4, 4, 4, 4, 4), small_tex[i]);
    return base;
}

static uint32_t lerp_ref(const uint32_t c[4], double fx, double fy)
{
    uint32_t r = 0;
    for (int k = 0; k < 4; k++) {
        double v[4];
        for (int i = 0; i < 4; i++)
            v[i] = (double)((c[i] >> (8 * k)) & 255);
        double top = v[0] + (v[1] - v[0]) * fx, bot = v[2] + (v[3] - v[2]) * fx;
        double m = top + (bot - top) * fy;
        r |= (uint32_t)floor(m + 0.5) << (8 * k);
    }
    return r;
}

static void test_bilinear_and_wrap(void)
{
    const uint32_t base = make_small(0x162000);
    vc4_tmu_req r = req_new(P0(base, 0, 0, false, false), P1(0, 4, 4, LIN, LIN, 0, 0));
    /* u = 4s - 0.5 = 1.25, v = 4t - 0.5 = 2.5: texels (1,2) (2,2) (1,3) (2,3) */
    r.lanes = 0xf;
    for (int l = 0; l < 4; l++) {
        r.s[l] = 0.4375f;
        r.t[l] = 0.75f;
    }
    r.s[1] = 0.125f; /* u = 0: exactly texel column 0 */
    r.t[1] = 0.125f;
    r.s[2] = 0.0f;   /* u = -0.5 under repeat: columns 3 and 0, half each */
    r.t[2] = 0.375f; /* v = 1 */
    uint32_t out[16];
    CHECK_EQ(run(&r, out), 0);
    uint32_t c0[4] = {small_tex[9], small_tex[10], small_tex[13], small_tex[14]};
    CHECK_EQ(out[0], lerp_ref(c0, 0.25, 0.5));
    CHECK_EQ(out[1], small_tex[0]);
    uint32_t c2[4] = {small_tex[7], small_tex[4], small_tex[11], small_tex[8]};
    CHECK_EQ(out[2], lerp_ref(c2, 0.5, 0.0));

    /* wrap modes, nearest: x = floor(4s) */
    static const float ss[4] = {-0.125f, 1.125f, -0.375f, 0.625f};
    /* texel column for x = -1, 4, -2, 2 under repeat, clamp, mirror, border
     * (-1: the border colour) */
    static const int want[4][4] = {{3, 0, 2, 2}, {0, 3, 0, 2}, {0, 3, 1, 2}, {-1, -1, -1, 2}};
    for (unsigned mode = 0; mode < 4; mode++) {
        r = req_new(P0(base, 0, 0, false, false), P1(0, 4, 4, NEAR, NEAR, mode, mode));
        r.lanes = 0xf;
        r.has_r = true;
        uint32_t border = 0xdeadbeef;
        for (int l = 0; l < 4; l++) {
            r.s[l] = ss[l];
            r.t[l] = 0.125f; /* row 0 */
            memcpy(&r.r[l], &border, 4);
        }
        CHECK_EQ(run(&r, out), 0);
        for (int l = 0; l < 4; l++) {
            int x = want[mode][l];
            CHECK_EQ(out[l], x < 0 ? border : small_tex[x]);
        }
    }
    /* border with bilinear at the edge: half border, half texel 0 (u = -0.5) */
    r = req_new(P0(base, 0, 0, false, false), P1(0, 4, 4, LIN, LIN, BORDER, BORDER));
    r.lanes = 1;
    r.has_r = true;
    uint32_t border = 0xff000000;
    memcpy(&r.r[0], &border, 4);
    r.s[0] = 0.0f;
    r.t[0] = 0.125f;
    CHECK_EQ(run(&r, out), 0);
    uint32_t c3[4] = {border, small_tex[0], border, small_tex[0]};
    CHECK_EQ(out[0], lerp_ref(c3, 0.5, 0.0));
    /* flip Y: row y reads row 3 - y */
    r = req_new(P0(base, 0, 0, false, true), P1(0, 4, 4, NEAR, NEAR, 0, 0));
    r.lanes = 1;
    r.s[0] = 0.375f;
    r.t[0] = 0.125f;
    CHECK_EQ(run(&r, out), 0);
    CHECK_EQ(out[0], small_tex[12 + 1]);
}

/* 64x64 RGBA8888 with levels 0..6; each level one colour rgba(L*40, 0, 0, 255).
 * Sizes: 64x64 T 16384, 32x32 T 4096, 16x16 LT 1024, 8x8 LT 256, 4x4 64,
 * 2x2 (padded 4x4) 64, 1x1 (padded 4x4) 64; level i lies just below i-1. */
static void test_mipmaps(void)
{
    const uint32_t base = 0x170000;
    static const uint32_t size[7] = {16384, 4096, 1024, 256, 64, 64, 64};
    uint32_t start = base;
    for (int L = 0; L < 7; L++) {
        if (L > 0)
            start -= size[L];
        for (uint32_t o = 0; o < size[L]; o += 4)
            put32(start + o, rgba((unsigned)L * 40, 0, 0, 255));
    }
    vc4_tmu_level lv[16];
    CHECK_EQ(vc4_tmu_layout_levels(0, 64, 64, 6, lv), 16384 - 16384 + 4096 + 1024 + 256 + 192);
    CHECK_EQ(lv[2].layout, VC4_TMU_LT);
    CHECK_EQ(lv[1].layout, VC4_TMU_T);
    CHECK_EQ(lv[6].size, 64);
    /* quads: lanes 4q..4q+3 = (x,y) (x+1,y) (x,y+1) (x+1,y+1); ds per pixel d */
    static const double d[4] = {1.0 / 64, 2.0 / 64, 4.0 / 64, 128.0 / 64};
    for (unsigned minf = 2; minf <= 5; minf++) {
        vc4_tmu_req r = req_new(P0(base, 0, 6, false, false), P1(0, 64, 64, NEAR, minf, 0, 0));
        for (int q = 0; q < 4; q++)
            for (int k = 0; k < 4; k++) {
                r.s[4 * q + k] = (float)(0.25 + (k & 1) * d[q]);
                r.t[4 * q + k] = (float)(0.25 + (k >> 1) * d[q]);
            }
        uint32_t out[16];
        CHECK_EQ(run(&r, out), 0);
        /* lambda = 0 (mag), 1, 2, 7 (clamped to level 6) */
        static const unsigned lvl[4] = {0, 1, 2, 6};
        for (int q = 0; q < 4; q++)
            CHECK_EQ(out[4 * q], rgba(lvl[q] * 40, 0, 0, 255));
        /* LOD bias +1 from b */
        r.has_b = true;
        for (int l = 0; l < 16; l++)
            r.b[l] = 1.0f;
        CHECK_EQ(run(&r, out), 0);
        static const unsigned lvlb[4] = {1, 2, 3, 6};
        for (int q = 0; q < 4; q++)
            CHECK_EQ(out[4 * q + 3], rgba(lvlb[q] * 40, 0, 0, 255));
    }
    /* explicit LOD (P2 type 1 with BSLOD): b = 1.5 blends levels 1 and 2
     * half each under LIN_MIP_LIN; NEAR_MIP_NEAR picks level
     * ceil(1.5 + 0.5) - 1 = 1 (OpenGL ES 2.0 eq. 3.19) */
    vc4_tmu_req r = req_new(P0(base, 0, 6, false, false), P1(0, 64, 64, NEAR, 5, 0, 0));
    r.params[2] = 1u << 30 | 1u;
    r.nparams = 3;
    r.has_b = true;
    r.lanes = 0x3;
    r.s[0] = r.s[1] = 0.5f;
    r.t[0] = r.t[1] = 0.5f;
    r.b[0] = 1.5f;
    r.b[1] = 2.75f;
    uint32_t out[16];
    CHECK_EQ(run(&r, out), 0);
    CHECK_EQ(out[0], rgba(60, 0, 0, 255));      /* (40 + 80) / 2 */
    CHECK_EQ(out[1], rgba(110, 0, 0, 255));     /* 80 + 0.75 * 40 */
    r.params[1] = P1(0, 64, 64, NEAR, 2, 0, 0);
    CHECK_EQ(run(&r, out), 0);
    CHECK_EQ(out[0], rgba(40, 0, 0, 255));
    CHECK_EQ(out[1], rgba(120, 0, 0, 255));     /* ceil(3.25) - 1 = 3 */
}

static void test_cube(void)
{
    /* 6 faces of 4x4 RGBA8888 LT, 4 KiB apart; face f texel i = rgba(f, i, 0, 255) */
    const uint32_t base = 0x180000;
    for (uint32_t f = 0; f < 6; f++)
        for (uint32_t i = 0; i < 16; i++)
            put32(base + f * 4096 + lt_addr(i % 4, i / 4, 4, 4, 4, 4), rgba(f, i, 0, 255));
    vc4_tmu_req r = req_new(P0(base, 0, 0, true, false), P1(0, 4, 4, NEAR, NEAR, 0, 0));
    r.params[2] = 1u << 30 | 4096; /* cube map stride 4 KiB */
    r.nparams = 3;
    r.has_r = true;
    static const float dir[7][3] = {{1, 0.1f, 0.2f},  {-1, 0.1f, 0.2f}, {0.1f, 1, 0.2f},
                                    {0.1f, -1, 0.2f}, {0.1f, 0.2f, 1},  {0.1f, 0.2f, -1},
                                    {0.5f, -0.5f, 1}};
    r.lanes = 0x7f;
    for (int l = 0; l < 7; l++) {
        r.s[l] = dir[l][0];
        r.t[l] = dir[l][1];
        r.r[l] = dir[l][2];
    }
    uint32_t out[16];
    CHECK_EQ(run(&r, out), 0);
    for (unsigned l = 0; l < 6; l++)
        CHECK_EQ(out[l] & 0xff, l);
    /* +Z: sc = x = 0.5, tc = -y = 0.5 -> s = t = 0.75 -> texel (3,3) */
    CHECK_EQ(out[6], rgba(4, 15, 0, 255));
    /* +X face at (1, 0.1, 0.2): sc = -z = -0.2, tc = -y = -0.1 -> s 0.4, t 0.45 -> (1,1) */
    CHECK_EQ(out[0], rgba(0, 5, 0, 255));
}

static void test_faults(void)
{
    vc4_tmu_fault f;
    uint32_t out[16];
    const uint32_t base = make_small(0x162000);
    /* unmapped texture */
    vc4_tmu_req r = req_new(P0(0x400000, 0, 0, false, false), P1(0, 4, 4, NEAR, NEAR, 0, 0));
    CHECK_EQ(vc4_tmu_texture(&r, out, &f), -1);
    CHECK_EQ(f.kind, CG_FAULT_UNMAPPED);
    CHECK_EQ(f.addr, 0x400000);
    /* base + size runs off the end of memory: 64x64 T at the last page */
    r = req_new(P0(MEM_VA + MEM_SIZE - 4096, 0, 0, false, false), P1(0, 64, 64, NEAR, NEAR, 0, 0));
    CHECK_EQ(vc4_tmu_texture(&r, out, &f), -1);
    CHECK_EQ(f.kind, CG_FAULT_UNMAPPED);
    CHECK_EQ(f.addr, MEM_VA + MEM_SIZE);
    /* mip levels below the mapping: 64x64 with 6 levels at the first page */
    r = req_new(P0(MEM_VA, 0, 6, false, false), P1(0, 64, 64, NEAR, 2, 0, 0));
    CHECK_EQ(vc4_tmu_texture(&r, out, &f), -1);
    CHECK_EQ(f.kind, CG_FAULT_UNMAPPED);
    CHECK_EQ(f.addr, MEM_VA - 5568);
    /* below address 0 */
    r = req_new(P0(0x1000, 0, 6, false, false), P1(0, 64, 64, NEAR, 2, 0, 0));
    CHECK_EQ(vc4_tmu_texture(&r, out, &f), -1);
    CHECK_EQ(f.kind, CG_FAULT_ADDR_RANGE);
    CHECK_EQ(f.addr, 0x1000);
    /* type 18 (type bits 2 + bit 4) */
    r = req_new(P0(base, 2, 0, false, false), P1(16, 4, 4, NEAR, NEAR, 0, 0));
    CHECK_EQ(vc4_tmu_texture(&r, out, &f), -1);
    CHECK_EQ(f.kind, CG_FAULT_BAD_STATE);
    CHECK_STR(f.msg, "bad texture type 18 (parameter 0 = 0x00162020, parameter 1 = 0x80400490)");
    /* reserved min filter 6 */
    r = req_new(P0(base, 0, 0, false, false), P1(0, 4, 4, NEAR, 6, 0, 0));
    CHECK_EQ(vc4_tmu_texture(&r, out, &f), -1);
    CHECK_EQ(f.kind, CG_FAULT_BAD_STATE);
    /* cube map without a stride */
    r = req_new(P0(base, 0, 0, true, false), P1(0, 4, 4, NEAR, NEAR, 0, 0));
    CHECK_EQ(vc4_tmu_texture(&r, out, &f), -1);
    CHECK_EQ(f.kind, CG_FAULT_BAD_STATE);
    CHECK_STR(f.msg, "cube map without a cube map stride (parameter 2 type 1)");
    /* too few parameters */
    r.nparams = 1;
    CHECK_EQ(vc4_tmu_texture(&r, out, &f), -1);
    CHECK_EQ(f.kind, CG_FAULT_BAD_STATE);
    /* a texture whose last byte is the last byte of the 32-bit space */
    {
        cg_mem *top;
        CHECK_EQ(cg_mem_create(E.dev, 4096, 0, &top), 0);
        cg_map_params mp = {.mem = top, .va = 0xfffff000u, .flags = CG_MAP_FIXED};
        uint64_t va;
        CHECK_EQ(cg_vas_map(E.bus, &mp, &va), 0);
        put32(0xfffff000u + t_addr32(31, 31, 1), 0xa1b2c3d4); /* 32x32: one T tile */
        r = req_new(P0(0xfffff000u, 0, 0, false, false), P1(0, 32, 32, NEAR, NEAR, 0, 0));
        r.lanes = 1;
        r.s[0] = r.t[0] = 31.5f / 32;
        CHECK_EQ(run(&r, out), 0);
        CHECK_EQ(out[0], 0xa1b2c3d4);
        r.params[1] = P1(0, 64, 32, NEAR, NEAR, 0, 0); /* 8 KiB: past 4 GiB */
        CHECK_EQ(vc4_tmu_texture(&r, out, &f), -1);
        CHECK_EQ(f.kind, CG_FAULT_ADDR_RANGE);
        CHECK_EQ(f.addr, 0xfffff000u);
        cg_mem_unref(top);
    }
    /* hostile coordinates are fine */
    r = req_new(P0(base, 0, 0, false, false), P1(0, 4, 4, LIN, 5, 2, 2));
    r.has_b = true;
    for (int l = 0; l < 16; l++) {
        r.s[l] = l & 1 ? NAN : INFINITY;
        r.t[l] = -INFINITY;
        r.b[l] = l & 2 ? NAN : 1e30f;
    }
    CHECK_EQ(vc4_tmu_texture(&r, out, &f), 0);
}

static void test_params_text(void)
{
    uint32_t p[4] = {P0(0x162000, 0, 3, true, false), P1(0, 64, 32, NEAR, 5, MIRROR, BORDER),
                     1u << 30 | 0x5000 | 1, 2u << 30 | 7u << 12 | 9};
    char buf[512];
    int n = vc4_tmu_format_params(p, 4, buf, sizeof buf);
    CHECK_STR(buf, "p0: base=0x00162000 cswiz=0 cube=1 flipy=0 type=0 miplvls=3; "
                   "p1: type4=0 (rgba8888) height=32 etcflip=0 width=64 magfilt=nearest "
                   "minfilt=lin_mip_lin wrapt=mirror wraps=border; "
                   "p2: ptype=cube_stride cmst=0x00005000 bslod=1; "
                   "p3: ptype=child_dims cheight=7 cwidth=9");
    CHECK_EQ((size_t)n, strlen(buf));
    char small[8];
    CHECK_EQ(vc4_tmu_format_params(p, 4, small, sizeof small), n);
    CHECK_STR(small, "p0: bas");
    CHECK_EQ(vc4_tmu_params_needed(p[0], p[1], false, false), 2);
    CHECK_EQ(vc4_tmu_params_needed(p[0], p[1], true, false), 3);
    CHECK_EQ(vc4_tmu_params_needed(p[0], p[1], true, true), 4);
}

/* The table (tmu_formats.def): type codes dense and unique, fields of one
 * parameter (and parameter type) never overlapping, and every type and field
 * name documented in docs/vc4-tmu.md. */
static void test_table(void)
{
    static const struct { unsigned code; const char *name; } tt[] = {
#define VC4_TMU_TYPE(code, NAME, name, bpp, layout, decode) {code, name},
#include "vc4/tables/tmu_formats.def"
    };
    static const struct { int param, ptype; const char *name; unsigned hi, lo; } ff[] = {
#define VC4_TMU_FIELD(param, ptype, NAME, name, hi, lo) {param, ptype, name, hi, lo},
#include "vc4/tables/tmu_formats.def"
    };
    unsigned nt = sizeof tt / sizeof tt[0], nf = sizeof ff / sizeof ff[0];
    CHECK_EQ(nt, VC4_TMU_TYPE_COUNT);
    for (unsigned i = 0; i < nt; i++) {
        CHECK_EQ(tt[i].code, i);
        CHECK_STR(vc4_tmu_type_get(i)->name, tt[i].name);
    }
    for (unsigned i = 0; i < nf; i++) {
        CHECK(ff[i].hi >= ff[i].lo && ff[i].hi < 32);
        for (unsigned j = i + 1; j < nf; j++) {
            if (ff[i].param != ff[j].param)
                continue;
            if (ff[i].ptype >= 0 && ff[j].ptype >= 0 && ff[i].ptype != ff[j].ptype)
                continue;
            bool overlap = ff[i].lo <= ff[j].hi && ff[j].lo <= ff[i].hi;
            if (overlap)
                fprintf(stderr, "fields %s and %s overlap\n", ff[i].name, ff[j].name);
            CHECK(!overlap);
        }
    }
    FILE *f = fopen(CMDGPU_SOURCE_DIR "/docs/vc4-tmu.md", "rb");
    CHECK(f != NULL);
    if (!f)
        return;
    static char doc[65536];
    size_t n = fread(doc, 1, sizeof doc - 1, f);
    doc[n] = 0;
    fclose(f);
    for (unsigned i = 0; i < nt; i++) {
        char up[32];
        size_t k = 0;
        for (; tt[i].name[k] && k < sizeof up - 1; k++)
            up[k] = (char)(tt[i].name[k] >= 'a' && tt[i].name[k] <= 'z' ? tt[i].name[k] - 32
                                                                          : tt[i].name[k]);
        up[k] = 0;
        if (!strstr(doc, up))
            fprintf(stderr, "type %s not in docs/vc4-tmu.md\n", up);
        CHECK(strstr(doc, up) != NULL);
    }
    for (unsigned i = 0; i < nf; i++) {
        char q[40];
        snprintf(q, sizeof q, "`%s`", ff[i].name);
        if (!strstr(doc, q))
            fprintf(stderr, "field %s not in docs/vc4-tmu.md\n", q);
        CHECK(strstr(doc, q) != NULL);
    }
}

/* ---- RGBA64 through the QPU: two words, two ldtmu ---- */

static int bus_put(void *ctx, uint32_t at, const void *p, size_t n)
{
    (void)ctx;
    return cg_vas_cpu_write(E.bus, at, p, n);
}

/* A 64-bit texel comes back as two words: the first ldtmu0 puts R | G << 16
 * in r4, the second B | A << 16 (docs/vc4-tmu.md); each takes a FIFO entry,
 * so four outstanding RGBA64 lookups fill the 8 entries and a fifth is an
 * overflow. The texture is 2x4 RGBA64 (LT: one 64-byte micro-tile of 2x4
 * texels, texel x at byte 8x of row 0): texel 0 = (1, 2, 0.5, -1), texel 1 =
 * (0.25, 3, -2, 1) as IEEE halves; even lanes sample texel 0 (s = 0.25),
 * odd lanes texel 1 (s = 0.75), nearest. */
static void test_rgba64_qpu(void)
{
    const uint32_t base = 0x170000, code = 0x1f0000, unif = 0x1f8000;
    clear(base, 4096);
    const uint8_t tex[16] = {0x00, 0x3c, 0x00, 0x40, 0x00, 0x38, 0x00, 0xbc,
                             0x00, 0x34, 0x00, 0x42, 0x00, 0xc0, 0x00, 0x3c};
    put(base, tex, sizeof tex);
    /* uniforms: P0, P1 per lookup (the t write takes P0, the s write P1) */
    for (int k = 0; k < 5; k++) {
        put32(unif + 8 * (uint32_t)k, P0(base, 15, 0, false, false));
        put32(unif + 8 * (uint32_t)k + 4, P1(15, 2, 4, NEAR, NEAR, 0, 0));
    }
    static const char prog[] =
        "and r1, elem_num, 1\n"
        "itof r1, r1\n"
        "ldi r2, 0x3f000000\n"
        "fmul r1, r1, r2\n"
        "ldi r2, 0x3e800000\n"
        "fadd r1, r1, r2\n"   /* s = 0.25 + 0.5 x (lane & 1) */
        "ldi r3, 0x3e000000\n" /* t = 0.125: row 0 */
        "mov t0t, r3\n"
        "mov t0s, r1\n"
        "nop ; nop ; ldtmu0\n"
        "mov ra1, r4 ; nop ; ldtmu0\n"
        "mov ra2, r4\n"
        "nop ; nop ; thrend\nnop\nnop\n";
    qpu_text_load(code, prog, NULL, bus_put, NULL);
    vc4_v3d_units *u = calloc(1, sizeof *u);
    vc4_v3d_units_init(u);
    vc4_qpu_state *q = calloc(1, sizeof *q);
    vc4_qpu_init(q, E.dev, E.bus, NULL, code, unif, true);
    vc4_qpu_set_units(q, u, 0);
    size_t f0 = cg_fault_count(E.dev);
    CHECK_EQ(vc4_qpu_run(q, 1000), 0);
    CHECK_EQ(cg_fault_count(E.dev), f0);
    for (int l = 0; l < 16; l++) {
        CHECK_EQ(q->ra[1][l], l & 1 ? 0x42003400u : 0x40003c00u);
        CHECK_EQ(q->ra[2][l], l & 1 ? 0x3c00c000u : 0xbc003800u);
    }
    CHECK_EQ(q->tmu_lookups, 1);
    CHECK_EQ(q->tmu_n[0], 0);
    /* five lookups without a load: an RGBA8888 one (1 entry), three RGBA64
     * (6), and the fifth, RGBA64, finds 7 of the 8 entries taken */
    put32(unif, P0(base, 0, 0, false, false));
    put32(unif + 4, P1(0, 2, 4, NEAR, NEAR, 0, 0));
    qpu_text_load(code,
                  "ldi r3, 0x3e000000\nldi r1, 0x3e800000\n"
                  "mov t0t, r3\nmov t0s, r1\nmov t0t, r3\nmov t0s, r1\n"
                  "mov t0t, r3\nmov t0s, r1\nmov t0t, r3\nmov t0s, r1\n"
                  "mov t0t, r3\nmov t0s, r1\n"
                  "nop ; nop ; thrend\nnop\nnop\n",
                  NULL, bus_put, NULL);
    vc4_qpu_init(q, E.dev, E.bus, NULL, code, unif, false);
    vc4_qpu_set_units(q, u, 0);
    f0 = cg_fault_count(E.dev);
    CHECK_EQ(vc4_qpu_run(q, 1000), CG_ERR_FAULT);
    CHECK_EQ(q->tmu_n[0], 7);
    const cg_fault *f = cg_fault_get(E.dev, cg_fault_count(E.dev) - 1);
    CHECK(cg_fault_count(E.dev) > f0);
    CHECK_EQ(f->kind, CG_FAULT_BAD_STATE);
    CHECK(strstr(f->message, "TMU0 result FIFO overflow: a 64-bit texture lookup needs 2 "
                             "entries and 7 of 8 are taken (ldtmu0)") != NULL);
    free(q);
    free(u);
}

int main(void)
{
    test_table();
    env_init();
    test_t_format_64();
    test_lt_and_raster();
    test_types();
    test_etc1();
    test_bilinear_and_wrap();
    test_mipmaps();
    test_cube();
    test_faults();
    test_rgba64_qpu();
    test_params_text();
    env_fini();
    return check_report("test_vc4_tmu");
}
