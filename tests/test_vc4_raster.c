/* vc4 rasteriser and tile buffer transfers, against plain references kept
 * here:
 *   - random triangles (tiny to larger than the frame, on and off the pixel
 *     centres, both windings) over a 3x2-tile frame with a clip window: every
 *     pixel's coverage (top-left rule) and the exact bits of its perspective-
 *     correct varying (the per-pixel arithmetic of docs/vc4.md), so the
 *     row-span walk, the wholly-covered quads and the whole batches give
 *     what evaluating each pixel gives; again with a shader that sees
 *     neither Z, W nor varyings (the payload-free quads and whole batches of
 *     the walk), with the number of batches each triangle makes (the quad
 *     packing the QPU sees);
 *   - the same checks on a fixed list of shapes the walk treats apart
 *     (special_triangles), pinned to the per-quad walk's results;
 *   - T and LT stores and loads (RGBA8888 and BGR565) of a 100x72 frame with
 *     partial tiles, byte for byte against a per-pixel reference of the
 *     layouts (Mesa vc4_tiling.c);
 *   - a T-format store running off the end of SDRAM: the pixels before the
 *     first unmapped one (in row order) are written, the fault names it. */
#include <stdlib.h>
#include "check.h"
#include "vc4_testenv.h"
#include "cmdgpu/cmdgpu.h"

enum { W = 192, H = 128, TW = 3, TH = 2, FB = 0x100000, VD = 0x380000 };
enum { CLIP_X = 3, CLIP_Y = 5, CLIP_W = 185, CLIP_H = 118 };

/* The scene: a binning list for TW x TH tiles, a render list storing each
 * tile (raster RGBA8888), one triangle from VD; fadd tlbc, vary, r5 (flat:
 * no varying, ldi tlbc, FLAT_COLOR: a shader that sees neither Z nor W). */
enum { FLAT_COLOR = 0x00FF8000 };
static cg_asm *scene(cg_vc4 *v, bool flat)
{
    char src[8192], *p = src;
    size_t left = sizeof src;
    int n = snprintf(p, left,
                     ".section t, 0x10000\n"
                     "BIN: Tile_Binning_Mode_Configuration 0x400000, 0x10000, 0x500000, %d, %d, "
                     "Auto_Init_Tile_State_Data\n"
                     "Start_Tile_Binning\nIncrement_Semaphore\nClip_Window %d, %d, %d, %d\n"
                     "Viewport_Offset 0, 0\nConfiguration_Bits 3, 0\nNV_Shader_State NV\n"
                     "Vertex_Array_Primitives 4, 3, 0\nFlush\nBIN_END:\n"
                     "REND: Wait_On_Semaphore\nClear_Colors 0xFF000000, 0xFFFFFF, 0, 0\n"
                     "Tile_Rendering_Mode_Configuration 0x%x, %d, %d, "
                     "Frame_Buffer_Color_Format_RGBA8888\n"
                     "Tile_Coordinates 0, 0\nStore_Tile_Buffer_General 0, 0, 0\n",
                     TW, TH, CLIP_X, CLIP_Y, CLIP_W, CLIP_H, FB, W, H);
    p += n, left -= (size_t)n;
    for (int y = 0; y < TH; y++)
        for (int x = 0; x < TW; x++) {
            bool last = x == TW - 1 && y == TH - 1;
            n = snprintf(p, left, "Tile_Coordinates %d, %d\nBranch_To_Sub_List 0x%x\n%s\n", x, y,
                         0x400000 + (y * TW + x) * 32,
                         last ? "Store_Multi_Sample_End" : "Store_Multi_Sample");
            p += n, left -= (size_t)n;
        }
    snprintf(p, left, "REND_END:\n"
                      ".align 16\nNV: .byte 0, 16, 0, %d\n.word FS, 0, 0x%x\n"
                      ".align 16\nFS: .word 0x%08X, 0x%08X, 0x009E7000, 0x300009E7, "
                      "0x009E7000, 0x100009E7, 0x009E7000, 0x100009E7\n",
             flat ? 0 : 1, VD, flat ? FLAT_COLOR : 0x018C7D40u, flat ? 0xE0020BA7u : 0x10020BA7u);
    return load(v, src);
}

typedef struct tvert {
    int32_t x, y;   /* 12.4 */
    float iw, vary; /* 1/Wc, the varying */
} tvert;

static uint32_t rnd(uint32_t *s)
{
    *s = *s * 1103515245u + 12345u;
    return *s >> 8;
}

/* A coordinate in [lo, hi] pixels: on a pixel centre, on a pixel edge, or
 * anywhere (12.4). */
static int32_t coord(uint32_t *s, int lo, int hi)
{
    int32_t px = lo + (int32_t)(rnd(s) % (uint32_t)(hi - lo + 1));
    switch (rnd(s) % 3) {
    case 0: return px * 16 + 8;
    case 1: return px * 16;
    default: return px * 16 + (int32_t)(rnd(s) % 16);
    }
}

/* What the model must give at pixel (x, y): covered or not, and the
 * varying's bits (docs/vc4.md "Rasterisation"). */
static bool reference(const tvert in[3], int x, int y, uint32_t *bits)
{
    int64_t area2 = (int64_t)(in[1].x - in[0].x) * (in[2].y - in[0].y) -
                    (int64_t)(in[2].x - in[0].x) * (in[1].y - in[0].y);
    if (area2 == 0)
        return false;
    if (x < CLIP_X || y < CLIP_Y || x >= CLIP_X + CLIP_W || y >= CLIP_Y + CLIP_H)
        return false;
    const tvert *o[3] = {&in[0], area2 > 0 ? &in[1] : &in[2], area2 > 0 ? &in[2] : &in[1]};
    int64_t px = x * 16 + 8, py = y * 16 + 8, e[3];
    for (int k = 0; k < 3; k++) {
        const tvert *a = o[(k + 1) % 3], *c = o[(k + 2) % 3];
        int64_t dx = c->x - a->x, dy = c->y - a->y;
        e[k] = dx * (py - a->y) - dy * (px - a->x);
        bool incl = dy < 0 || (dy == 0 && dx > 0);
        if (e[k] < 0 || (e[k] == 0 && !incl))
            return false;
    }
    double ia = 1.0 / (double)(area2 > 0 ? area2 : -area2);
    double w[3], q = 0, s = 0;
    for (int k = 0; k < 3; k++) {
        w[k] = (double)e[k] * ia;
        q += w[k] * (double)o[k]->iw;
    }
    double Wd = q != 0 ? 1.0 / q : 0;
    for (int k = 0; k < 3; k++)
        s += w[k] * (double)(float)(o[k]->vary - in[0].vary) * (double)o[k]->iw;
    float p = (float)(Wd * s);
    memcpy(bits, &p, 4);
    return true;
}

/* One triangle drawn and checked: every pixel against the reference
 * (flat: the payload-free shader's colour), the fragments, and the batches
 * (per tile, the quads (2x2, on even pixels) holding a covered pixel, four
 * to a batch); adds its covered pixels and batches to *covered, *batches,
 * the frame's words to an FNV-1a hash *h; false: a mismatch (the first
 * pixels are printed). */
typedef struct raster_run {
    cg_vc4 *v;
    cg_asm *as;
    uint32_t *fb;
    uint64_t covered, batches, frags0, batches0, h;
    int mismatches;
} raster_run;

static void check_one(raster_run *rr, const tvert t[3], int it, bool flat)
{
    cg_vc4 *v = rr->v;
    uint32_t *fb = rr->fb;
    uint8_t vd[3 * 16];
    for (int k = 0; k < 3; k++) {
        uint16_t xy[2] = {(uint16_t)(int16_t)t[k].x, (uint16_t)(int16_t)t[k].y};
        float f[3] = {0.5f, t[k].iw, t[k].vary};
        memcpy(vd + 16 * k, xy, 4);
        memcpy(vd + 16 * k + 4, f, 12);
    }
    CHECK_EQ(cg_vc4_cpu_write(v, VD, vd, sizeof vd), 0);
    kick(v, 0, sym(rr->as, "BIN"), sym(rr->as, "BIN_END"));
    kick(v, 1, sym(rr->as, "REND"), sym(rr->as, "REND_END"));
    CHECK_EQ(cg_vc4_wait_idle(v), 0);
    CHECK_EQ(cg_vc4_cpu_read(v, FB, fb, W * H * 4), 0);
    uint64_t want_frags = 0;
    static uint8_t quad[H / 2][W / 2];
    memset(quad, 0, sizeof quad);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            uint32_t bits = 0xFF000000;
            if (reference(t, x, y, &bits)) {
                want_frags++;
                quad[y / 2][x / 2] = 1;
                if (flat)
                    bits = FLAT_COLOR;
            }
            if (fb[y * W + x] != bits && rr->mismatches++ < 5)
                fprintf(stderr, "triangle %d (%d,%d) (%d,%d) (%d,%d): pixel %d,%d "
                                "0x%08x, want 0x%08x\n",
                        it, t[0].x, t[0].y, t[1].x, t[1].y, t[2].x, t[2].y, x, y,
                        fb[y * W + x], bits);
            rr->h = (rr->h ^ fb[y * W + x]) * 0x100000001B3ull;
        }
    uint64_t want_batches = 0;
    for (int ty = 0; ty < TH; ty++)
        for (int tx = 0; tx < TW; tx++) {
            unsigned nq = 0;
            for (int qy = 0; qy < 32; qy++)
                for (int qx = 0; qx < 32; qx++)
                    nq += quad[ty * 32 + qy][tx * 32 + qx];
            want_batches += (nq + 3) / 4;
        }
    cg_vc4_stats st;
    cg_vc4_get_stats(v, &st);
    CHECK_EQ(st.fragments - rr->frags0, want_frags);
    CHECK_EQ(st.batches - rr->batches0, want_batches);
    rr->frags0 = st.fragments;
    rr->batches0 = st.batches;
    rr->covered += want_frags;
    rr->batches += want_batches;
}

/* flat: the payload-free shader; besides every pixel, the number of
 * batches is checked: per triangle and tile, the quads (2x2, on even
 * pixels) holding a covered pixel, four to a batch. */
static void random_triangles(bool flat)
{
    cg_device *dev;
    cg_vc4 *v;
    CHECK_EQ(cg_device_create(&dev), 0);
    CHECK_EQ(cg_vc4_create(dev, NULL, &v), 0);
    cg_asm *as = scene(v, flat);
    uint32_t s = 2024;
    raster_run rr = {v, as, malloc(W * H * 4), 0, 0, 0, 0, 0xcbf29ce484222325ull, 0};
    for (int it = 0; it < 300 && rr.mismatches == 0; it++) {
        tvert t[3];
        /* sizes: a few pixels, tens of pixels, beyond the frame */
        int kind = it % 3, cx = (int)(rnd(&s) % W), cy = (int)(rnd(&s) % H);
        int r = kind == 0 ? 6 : kind == 1 ? 60 : 300;
        for (int k = 0; k < 3; k++) {
            t[k].x = coord(&s, cx - r, cx + r);
            t[k].y = coord(&s, cy - r, cy + r);
            t[k].iw = 0.25f + (float)(rnd(&s) % 1000) / 500.0f;
            /* vertex 0's varying is 0: the shader's r5 adds +0 */
            t[k].vary = k == 0 ? 0.0f : (float)(rnd(&s) % 1000) / 100.0f;
        }
        if (it % 7 == 0) /* an axis-aligned edge through pixel centres */
            t[1].y = t[0].y = (cy * 16 + 8);
        if (it % 11 == 0)
            t[2].x = t[0].x = (cx * 16 + 8);
        check_one(&rr, t, it, flat);
    }
    CHECK_EQ(rr.mismatches, 0);
    CHECK_EQ(vc4_hard_faults(dev, 0, true), 0);
    /* the mix covered something of every kind: pinned so that a change of
     * the generator shows */
    CHECK_EQ(rr.covered, 570849);
    CHECK_EQ(rr.batches, 37624);
    free(rr.fb);
    cg_asm_destroy(as);
    cg_vc4_destroy(v);
    cg_device_destroy(dev);
}

/* The shapes the row-span walk (render.c, "the quad walk") treats apart,
 * each in both windings, against the reference and the batch count as
 * above, and pinned (covered pixels, batches, the hash of the frames) to
 * what the per-quad walk it replaced gave: a triangle inside one quad, one
 * pixel, one row of quads, slivers near horizontal and near vertical and
 * nearly degenerate, triangles over the corners where four tiles meet,
 * axis-aligned edges through pixel centres (the top-left rule on every
 * side: the walk folds them into a row or column bound), the clip window's
 * odd left and bottom borders, vertices far outside the frame (row steps
 * with large quotients), a right triangle like the bench's. */
static void special_triangles(bool flat, uint64_t want_covered, uint64_t want_batches,
                              uint64_t want_hash)
{
    cg_device *dev;
    cg_vc4 *v;
    CHECK_EQ(cg_device_create(&dev), 0);
    CHECK_EQ(cg_vc4_create(dev, NULL, &v), 0);
    cg_asm *as = scene(v, flat);
    raster_run rr = {v, as, malloc(W * H * 4), 0, 0, 0, 0, 0xcbf29ce484222325ull, 0};
#define P(px) ((px) * 16)      /* pixel edge */
#define C(px) ((px) * 16 + 8)  /* pixel centre */
    static const int32_t tris[][6] = {
        {P(20) + 2, P(20) + 2, P(21) + 14, P(20) + 4, P(20) + 6, P(21) + 14}, /* one quad */
        {C(41) - 3, C(33) - 3, C(41) + 4, C(33) - 2, C(41), C(33) + 5},       /* one pixel */
        {C(41), C(33), C(42), C(33), C(41), C(34)},  /* a pixel centre on each edge */
        {P(10), P(40), P(150), P(40) + 20, P(10), P(41) + 30}, /* one quad row */
        {P(4), P(60), P(189), P(61) + 3, P(4), P(60) + 5},     /* sliver, near horizontal */
        {P(90), P(2), P(91) + 3, P(127), P(90) + 5, P(2)},     /* sliver, near vertical */
        {P(3), P(3), P(180) + 1, P(120), P(90), P(61) + 9},    /* nearly degenerate */
        {P(60), P(58), P(70) + 5, P(62), P(62), P(71)},        /* over a tile corner */
        {C(63), C(63), C(64), C(63), C(63), C(64)},            /* at the corner, centres */
        {P(120), P(50), P(140), P(60) + 7, P(125) + 3, P(80)}, /* the other corner */
        {C(30), C(30), C(50), C(30), C(30), C(50)},  /* top and left edges on centres */
        {C(50), C(30), C(50), C(50), C(30), C(50)},  /* bottom and right edges on centres */
        {C(70), C(10), C(110), C(10), C(90), C(40)}, /* flat top */
        {C(90), C(70), C(110), C(100), C(70), C(100)}, /* flat bottom */
        {P(0), P(0), P(3) + 1, P(0), P(0), P(5) + 1},  /* the clip window's corner */
        {P(186), P(100), P(191), P(100), P(186), P(127)}, /* its right, bottom borders */
        {-P(2000), -P(1500), P(2000), P(10), P(100), P(2000)}, /* far outside */
        {P(-1900), P(64), P(2040), P(63) + 1, P(2040), P(66)}, /* a long thin one */
        {P(100), P(20), P(112), P(20), P(100), P(32)},          /* the bench's shape */
        {P(127), P(58), P(139), P(58), P(127), P(70)},          /* ... over a tile edge */
    };
#undef P
#undef C
    int n = (int)(sizeof tris / sizeof tris[0]);
    for (int it = 0; it < 2 * n && rr.mismatches == 0; it++) {
        const int32_t *c = tris[it / 2];
        tvert t[3];
        for (int k = 0; k < 3; k++) {
            /* odd it: the other winding */
            int j = (it & 1) && k ? 3 - k : k;
            t[k].x = c[2 * j];
            t[k].y = c[2 * j + 1];
            t[k].iw = 0.5f + 0.25f * (float)j;
            t[k].vary = k == 0 ? 0.0f : 1.5f * (float)(j + 1) + (float)it;
        }
        check_one(&rr, t, it, flat);
    }
    CHECK_EQ(rr.mismatches, 0);
    CHECK_EQ(vc4_hard_faults(dev, 0, true), 0);
    CHECK_EQ(rr.covered, want_covered);
    CHECK_EQ(rr.batches, want_batches);
    CHECK_EQ(rr.h, want_hash);
    free(rr.fb);
    cg_asm_destroy(as);
    cg_vc4_destroy(v);
    cg_device_destroy(dev);
}

/* Byte offset of pixel (x, y) (Mesa vc4_tiling.c; docs/vc4.md), written
 * out again here. */
static uint32_t ref_off(int tiling, uint32_t width, unsigned bpp, uint32_t x, uint32_t y)
{
    if (tiling == 0)
        return y * width * bpp + x * bpp;
    uint32_t uw = bpp == 4 ? 4 : 8;
    uint32_t in_utile = ((y % 4) * uw + x % uw) * bpp;
    uint32_t ux = x / uw, uy = y / 4, wut = (width + uw - 1) / uw;
    if (tiling == 2)
        return (uy * wut + ux) * 64 + in_utile;
    uint32_t tstride = (wut + 7) / 8, tx = ux / 8, ty = uy / 8;
    if (ty & 1)
        tx = tstride - tx - 1;
    static const uint8_t even_map[4] = {0, 3, 1, 2}, odd_map[4] = {2, 1, 3, 0};
    unsigned idx = ((uy >> 2) & 1) << 1 | ((ux >> 2) & 1);
    return 4096 * (ty * tstride + tx) + 1024u * ((ty & 1) ? odd_map[idx] : even_map[idx]) +
           ((uy & 3) * 4 + (ux & 3)) * 64 + in_utile;
}

/* A 100x72 frame (2x2 tiles, the right and bottom ones partial) of known
 * colours: loaded from a raster image, stored as T, LT (RGBA8888, BGR565),
 * loaded back from T and stored raster again. */
static void test_tiled_transfers(void)
{
    enum { FW = 100, FH = 72, SRC = 0x200000, T32 = 0x240000, LT32 = 0x260000,
           LT16 = 0x280000, T16 = 0x290000, BACK = 0x2A0000 };
    cg_device *dev;
    cg_vc4 *v;
    CHECK_EQ(cg_device_create(&dev), 0);
    CHECK_EQ(cg_vc4_create(dev, NULL, &v), 0);
    uint32_t *img = malloc(FW * FH * 4);
    for (uint32_t i = 0; i < FW * FH; i++)
        img[i] = 0xFF000000u | (i * 2654435761u >> 8);
    CHECK_EQ(cg_vc4_cpu_write(v, SRC, img, FW * FH * 4), 0);
    char src[16384], *p = src;
    size_t left = sizeof src;
    int n = snprintf(p, left,
                     ".section t, 0x10000\nREND: Clear_Colors 0xFF000000, 0xFFFFFF, 0, 0\n"
                     "Tile_Rendering_Mode_Configuration 0x%x, %d, %d, "
                     "Frame_Buffer_Color_Format_RGBA8888\n",
                     BACK, FW, FH);
    p += n, left -= (size_t)n;
    for (int ty = 0; ty < 2; ty++)
        for (int tx = 0; tx < 2; tx++) {
            n = snprintf(
                p, left,
                "Load_Tile_Buffer_General Load_Color, 0, 0x%x\nTile_Coordinates %d, %d\n"
                "Store_Tile_Buffer_General Store_Color + Format_T + Disable_Color_Buffer_Clear, "
                "0, 0x%x\n"
                "Store_Tile_Buffer_General Store_Color + Format_LT + Disable_Color_Buffer_Clear, "
                "0, 0x%x\n"
                "Store_Tile_Buffer_General Store_Color + Format_LT + "
                "Color_Format_BGR565_No_Dither + Disable_Color_Buffer_Clear, 0, 0x%x\n"
                "Store_Tile_Buffer_General Store_Color + Format_T + "
                "Color_Format_BGR565_No_Dither, 0, 0x%x\n"
                "Load_Tile_Buffer_General Load_Color + Format_T, 0, 0x%x\nTile_Coordinates %d, %d\n"
                "Store_Tile_Buffer_General Store_Color, 0, 0x%x\n",
                SRC, tx, ty, T32, LT32, LT16, T16, T32, tx, ty, BACK);
            p += n, left -= (size_t)n;
        }
    snprintf(p, left, "REND_END:\n");
    cg_asm *as = load(v, src);
    kick(v, 1, sym(as, "REND"), sym(as, "REND_END"));
    CHECK_EQ(cg_vc4_wait_idle(v), 0);
    CHECK_EQ(vc4_hard_faults(dev, 0, true), 0);
    int bad = 0;
    for (uint32_t y = 0; y < FH; y++)
        for (uint32_t x = 0; x < FW; x++) {
            uint32_t c = img[y * FW + x], got;
            uint16_t h;
            uint16_t want565 = (uint16_t)(((c >> 19) & 31) << 11 | ((c >> 10) & 63) << 5 |
                                          ((c >> 3) & 31));
            cg_vc4_cpu_read32(v, T32 + ref_off(1, FW, 4, x, y), &got);
            bad += got != c;
            cg_vc4_cpu_read32(v, LT32 + ref_off(2, FW, 4, x, y), &got);
            bad += got != c;
            cg_vc4_cpu_read(v, LT16 + ref_off(2, FW, 2, x, y), &h, 2);
            bad += h != want565;
            cg_vc4_cpu_read(v, T16 + ref_off(1, FW, 2, x, y), &h, 2);
            bad += h != want565;
            cg_vc4_cpu_read32(v, BACK + (y * FW + x) * 4, &got);
            bad += got != c;
        }
    CHECK_EQ(bad, 0);
    free(img);
    cg_asm_destroy(as);
    cg_vc4_destroy(v);
    cg_device_destroy(dev);
}

/* A T-format store of a 64x64 tile 3.5 KiB below the end of the 64 MiB of
 * SDRAM: 0x4000000 and up is not mapped on the bus. Pixels are stored in
 * row order, so every pixel of rows before the first one beyond the end
 * (and of its row, left of it) is written, and the fault names that pixel's
 * address (pixel 32, 0: tile 1 of the row, 4 KiB on). */
static void test_tiled_store_fault(void)
{
    enum { BASE = 0x4000000 - 3584 };
    cg_device *dev;
    cg_vc4 *v;
    CHECK_EQ(cg_device_create(&dev), 0);
    CHECK_EQ(cg_vc4_create(dev, NULL, &v), 0);
    cg_asm *as = load(v, ".section t, 0x10000\n"
                         "REND: Clear_Colors 0xFF123456, 0xFFFFFF, 0, 0\n"
                         "Tile_Rendering_Mode_Configuration 0x100000, 64, 64, "
                         "Frame_Buffer_Color_Format_RGBA8888\n"
                         "Tile_Coordinates 0, 0\nStore_Tile_Buffer_General 0, 0, 0\n"
                         "Tile_Coordinates 0, 0\n"
                         "Store_Tile_Buffer_General Store_Color + Format_T, 0, 0x3FFF200\n"
                         "REND_END:\n");
    kick(v, 1, sym(as, "REND"), sym(as, "REND_END"));
    CHECK_EQ(cg_vc4_wait_idle(v), CG_ERR_FAULT);
    /* the first pixel in row order past 2048 bytes */
    uint32_t fx = 0, fy = 0;
    bool found = false;
    for (uint32_t y = 0; y < 64 && !found; y++)
        for (uint32_t x = 0; x < 64 && !found; x++)
            if (ref_off(1, 64, 4, x, y) >= 3584)
                fx = x, fy = y, found = true;
    CHECK(found);
    size_t hard = 0;
    const cg_fault *f = NULL;
    for (size_t i = 0; i < cg_fault_count(dev); i++)
        if (!(cg_fault_get(dev, i)->flags & CG_FAULT_F_WARNING))
            hard++, f = cg_fault_get(dev, i);
    CHECK_EQ(hard, 1);
    CHECK(f != NULL);
    CHECK_EQ(f->gpu_addr, (uint64_t)BASE + ref_off(1, 64, 4, fx, fy));
    int written = 0, wrong = 0;
    for (uint32_t y = 0; y < 64; y++)
        for (uint32_t x = 0; x < 64; x++) {
            uint32_t o = ref_off(1, 64, 4, x, y), got = 0;
            if (o >= 3584)
                continue;
            cg_vc4_cpu_read32(v, BASE + o, &got);
            bool before = y < fy || (y == fy && x < fx);
            if (got != (before ? 0xFF123456u : 0u) && wrong++ < 4)
                fprintf(stderr, "pixel %u,%u (offset %u): 0x%08x\n", x, y, o, got);
            written += before;
        }
    CHECK_EQ(wrong, 0);
    CHECK_EQ(fy * 64 + fx, 32);
    CHECK_EQ(written, 32);
    cg_asm_destroy(as);
    cg_vc4_destroy(v);
    cg_device_destroy(dev);
}

int main(void)
{
    random_triangles(false);
    random_triangles(true);
    /* the values the per-quad walk gave (the commit before the row spans) */
    special_triangles(false, 48984, 3252, 0xafd2eaa5c7494695ull);
    special_triangles(true, 48984, 3252, 0x4926285a0cba2325ull);
    test_tiled_transfers();
    test_tiled_store_fault();
    return check_report("test_vc4_raster");
}
