/* nv pipeline: the rasteriser (raster.c) and the ROP helpers (rop.c) on
 * their own, against references written here: coverage of random
 * triangles against an independent tie rule (the sample nudged by
 * (+e, +e^2), which is what the top-left rule means for a triangle of
 * positive area with y down), shared edges covered exactly once, the quad
 * lane order, plane equations, blend equations and factors in both enum
 * spellings, depth functions, and the bytes of every colour and zeta
 * format the pipeline writes. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "nv/gpu/pipeline.h"

#define W 48
#define H 40

typedef struct cov {
    unsigned hits[H][W];
    unsigned warps, lanes_ok;
    int32_t lane_x[NV_WARP], lane_y[NV_WARP];
    bool record_lanes;
} cov;

static int count_fn(void *user, const nv_frags *f)
{
    cov *c = user;
    c->warps++;
    CHECK(f->nquads >= 1 && f->nquads <= 8);
    for (unsigned l = 0; l < 4 * f->nquads; l++) {
        int32_t x = f->qx[l / 4] + (int32_t)(l & 1), y = f->qy[l / 4] + (int32_t)((l >> 1) & 1);
        if (f->x[l] == (float)x + 0.5f && f->y[l] == (float)y + 0.5f)
            c->lanes_ok++;
        if (c->record_lanes) {
            c->lane_x[l] = x;
            c->lane_y[l] = y;
        }
        if ((f->cover >> l) & 1) {
            CHECK(x >= 0 && x < W && y >= 0 && y < H);
            if (x >= 0 && x < W && y >= 0 && y < H)
                c->hits[y][x]++;
        }
    }
    /* no lane past the last quad is covered */
    CHECK(f->nquads == 8 || (f->cover >> (4 * f->nquads)) == 0);
    return 0;
}

/* The reference: vertices on the 1/256 grid as integers. */
static bool ref_inside(const int64_t X[3], const int64_t Y[3], int64_t px, int64_t py)
{
    int64_t area = (X[1] - X[0]) * (Y[2] - Y[0]) - (Y[1] - Y[0]) * (X[2] - X[0]);
    int a = 0, b = 1, c = 2;
    if (area == 0)
        return false;
    if (area < 0)
        b = 2, c = 1;
    const int e[3][2] = {{b, c}, {c, a}, {a, b}};
    for (int k = 0; k < 3; k++) {
        int64_t ax = X[e[k][0]], ay = Y[e[k][0]], bx = X[e[k][1]], by = Y[e[k][1]];
        int64_t E = (bx - ax) * (py - ay) - (by - ay) * (px - ax);
        if (E == 0)
            E = -(by - ay); /* nudge +e in x */
        if (E == 0)
            E = bx - ax;    /* then +e^2 in y */
        if (E < 0)
            return false;
    }
    return true;
}

static uint32_t rng = 12345;
static uint32_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 17;
    rng ^= rng << 5;
    return rng;
}

static void test_random_coverage(void)
{
    nv_rect clip = {0, 0, W, H};
    unsigned bad = 0, total = 0;
    for (int t = 0; t < 400; t++) {
        int64_t X[3], Y[3];
        nv_rv v[3];
        for (int i = 0; i < 3; i++) {
            /* some on whole and half pixels, to hit the ties */
            unsigned q = (t % 3 == 0) ? 128 : (t % 3 == 1) ? 256 : 1;
            X[i] = (int64_t)(rnd() % ((W + 8) * 256 / q)) * q - 4 * 256;
            Y[i] = (int64_t)(rnd() % ((H + 8) * 256 / q)) * q - 4 * 256;
            v[i] = (nv_rv){(float)X[i] / 256, (float)Y[i] / 256, 0.5f, 1};
        }
        cov c;
        memset(&c, 0, sizeof(c));
        uint64_t px = 0;
        CHECK_EQ(nv_raster_tri(v, &clip, count_fn, &c, &px), 0);
        uint64_t want = 0;
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) {
                bool in = ref_inside(X, Y, (int64_t)x * 256 + 128, (int64_t)y * 256 + 128);
                want += in;
                total++;
                if ((unsigned)in != c.hits[y][x])
                    bad++;
            }
        CHECK_EQ(px, want);
    }
    CHECK_EQ(bad, 0);
    CHECK(total == 400u * W * H);
}

/* A mesh of triangles sharing edges through pixel centres: every pixel of
 * the covered area exactly once. */
static void test_shared_edges(void)
{
    nv_rect clip = {0, 0, W, H};
    cov c;
    memset(&c, 0, sizeof(c));
    /* a 4 x 4 grid of 8-pixel cells, each split along a diagonal through
     * pixel centres (cells start at .5) and the other diagonal alternately */
    for (int j = 0; j < 4; j++)
        for (int i = 0; i < 4; i++) {
            float x0 = 2.5f + 8 * i, y0 = 1.5f + 8 * j, x1 = x0 + 8, y1 = y0 + 8;
            nv_rv a = {x0, y0, 0, 1}, b = {x1, y0, 0, 1}, cc = {x1, y1, 0, 1}, d = {x0, y1, 0, 1};
            if ((i + j) & 1) {
                nv_rv t1[3] = {a, b, cc}, t2[3] = {a, cc, d};
                nv_raster_tri(t1, &clip, count_fn, &c, NULL);
                nv_raster_tri(t2, &clip, count_fn, &c, NULL);
            } else {
                nv_rv t1[3] = {a, b, d}, t2[3] = {b, d, cc}; /* other winding too */
                nv_raster_tri(t1, &clip, count_fn, &c, NULL);
                nv_raster_tri(t2, &clip, count_fn, &c, NULL);
            }
        }
    unsigned once = 0, more = 0, inside_zero = 0;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            /* centres x + .5 in (2.5, 34.5]: pixels 3..34 (right/bottom edges
             * at .5 are excluded, left/top included) */
            bool in = x >= 2 && x < 34 && y >= 1 && y < 33;
            if (c.hits[y][x] == 1)
                once++;
            if (c.hits[y][x] > 1)
                more++;
            if (in && c.hits[y][x] == 0)
                inside_zero++;
        }
    CHECK_EQ(more, 0);
    CHECK_EQ(inside_zero, 0);
    CHECK_EQ(once, 32 * 32);
}

static void test_quads_and_clip(void)
{
    /* a triangle covering exactly the 2x2 block at (4, 6) .. (5, 7) */
    nv_rv v[3] = {{4, 6, 0, 1}, {6.5f, 6, 0, 1}, {4, 8.5f, 0, 1}};
    nv_rect clip = {0, 0, W, H};
    cov c;
    memset(&c, 0, sizeof(c));
    c.record_lanes = true;
    uint64_t px = 0;
    nv_raster_tri(v, &clip, count_fn, &c, &px);
    CHECK_EQ(c.warps, 1);
    CHECK_EQ(c.lane_x[0], 4); CHECK_EQ(c.lane_y[0], 6);
    CHECK_EQ(c.lane_x[1], 5); CHECK_EQ(c.lane_y[1], 6);
    CHECK_EQ(c.lane_x[2], 4); CHECK_EQ(c.lane_y[2], 7);
    CHECK_EQ(c.lane_x[3], 5); CHECK_EQ(c.lane_y[3], 7);
    /* (4.5,6.5) (5.5,6.5) (4.5,7.5) in; (5.5,7.5): 5.5+7.5 = 13 > 4+6+2.5 = 12.5: out */
    CHECK_EQ(c.hits[6][4] + c.hits[6][5] + c.hits[7][4], 3);
    CHECK_EQ(c.hits[7][5], 0);
    CHECK_EQ(px, 3);
    /* a big triangle: 8 quads per warp, clipped to a rectangle */
    nv_rv big[3] = {{-100, -100, 0, 1}, {400, -100, 0, 1}, {-100, 400, 0, 1}};
    nv_rect r = {3, 5, 19, 13};
    memset(&c, 0, sizeof(c));
    px = 0;
    nv_raster_tri(big, &r, count_fn, &c, &px);
    CHECK_EQ(px, 16 * 8);
    CHECK_EQ(c.hits[5][3], 1);
    CHECK_EQ(c.hits[12][18], 1);
    CHECK_EQ(c.hits[4][3] + c.hits[13][18] + c.hits[5][19], 0);
    /* quads start on even pixels: x 2..19 = 9 quads, y 4..13 = 5 rows: 45 quads = 6 warps */
    CHECK_EQ(c.warps, 6);
    CHECK_EQ(c.lanes_ok, 45 * 4);
    /* degenerate and non-finite triangles draw nothing */
    nv_rv deg[3] = {{1, 1, 0, 1}, {5, 5, 0, 1}, {9, 9, 0, 1}};
    nv_rv nan3[3] = {{NAN, 1, 0, 1}, {5, 5, 0, 1}, {9, 1, 0, 1}};
    nv_rv huge[3] = {{-1e30f, -1e30f, 0, 1}, {1e30f, -1e30f, 0, 1}, {0, 1e30f, 0, 1}};
    memset(&c, 0, sizeof(c));
    px = 0;
    nv_raster_tri(deg, &clip, count_fn, &c, &px);
    nv_raster_tri(nan3, &clip, count_fn, &c, &px);
    CHECK_EQ(px, 0);
    nv_raster_tri(huge, &clip, count_fn, &c, &px); /* clamped: covers the whole clip */
    CHECK_EQ(px, W * H);
    CHECK_EQ(nv_raster_snap(1.0f), 256);
    CHECK_EQ(nv_raster_snap(-0.5f), (uint64_t)-128);
    CHECK_EQ(nv_raster_snap(1e30f), (int64_t)(NV_RASTER_MAX_COORD * 256));
    CHECK_EQ(nv_raster_snap(NAN), 0);
}

static void test_planes(void)
{
    nv_rv v[3] = {{1, 2, 0, 1}, {17, 4, 0, 1}, {5, 30, 0, 1}};
    float val[3] = {0.25f, 1.5f, -3.0f};
    nv_sass_plane p;
    nv_raster_plane(v, val, &p);
    for (int i = 0; i < 3; i++)
        CHECK(fabs((double)p.a * v[i].x + (double)p.b * v[i].y + p.c - val[i]) < 1e-5);
    /* u = x / 16 exactly */
    float u[3] = {1.0f / 16, 17.0f / 16, 5.0f / 16};
    nv_raster_plane(v, u, &p);
    CHECK(fabsf(p.a - 1.0f / 16) < 1e-7f && fabsf(p.b) < 1e-7f && fabsf(p.c) < 1e-6f);
    /* zero area: a constant plane of the first value */
    nv_rv d[3] = {{1, 1, 0, 1}, {2, 2, 0, 1}, {3, 3, 0, 1}};
    nv_raster_plane(d, val, &p);
    CHECK(p.a == 0 && p.b == 0 && p.c == 0.25f);
    /* perspective correctness: u/w and 1/w planes give u at the midpoint
     * of an edge in clip space, not in screen space. Vertex 0 at w = 1,
     * vertex 1 at w = 3: the screen midpoint sees u = w0 / (w0 + w1)
     * weighting: u = (0/1 + 1/3) / 2 / ((1/1 + 1/3) / 2) = 0.25. */
    nv_rv q[3] = {{0, 0, 0, 1.0f}, {10, 0, 0, 1.0f / 3}, {0, 10, 0, 1.0f}};
    float uw[3] = {0 * 1.0f, 1 * (1.0f / 3), 0}, iw[3] = {1, 1.0f / 3, 1};
    nv_sass_plane pu, pw;
    nv_raster_plane(q, uw, &pu);
    nv_raster_plane(q, iw, &pw);
    double um = (pu.a * 5.0 + pu.c) / (pw.a * 5.0 + pw.c);
    CHECK(fabs(um - 0.25) < 1e-6);
}

static void test_blend(void)
{
    /* both spellings of every equation and factor */
    CHECK_EQ(nv_blend_op(0x8006), NV_BOP_ADD);
    CHECK_EQ(nv_blend_op(1), NV_BOP_ADD);
    CHECK_EQ(nv_blend_op(0x800A), NV_BOP_SUB);
    CHECK_EQ(nv_blend_op(2), NV_BOP_SUB);
    CHECK_EQ(nv_blend_op(0x800B), NV_BOP_REVSUB);
    CHECK_EQ(nv_blend_op(3), NV_BOP_REVSUB);
    CHECK_EQ(nv_blend_op(0x8007), NV_BOP_MIN);
    CHECK_EQ(nv_blend_op(4), NV_BOP_MIN);
    CHECK_EQ(nv_blend_op(0x8008), NV_BOP_MAX);
    CHECK_EQ(nv_blend_op(5), NV_BOP_MAX);
    CHECK_EQ(nv_blend_op(0), (unsigned long long)-1);
    CHECK_EQ(nv_blend_op(6), (unsigned long long)-1);
    static const uint32_t ogl[] = {0x4000, 0x4001, 0x4300, 0x4301, 0x4302, 0x4303, 0x4304,
                                   0x4305, 0x4306, 0x4307, 0x4308, 0xC001, 0xC002, 0xC003,
                                   0xC004};
    static const int want[] = {NV_BF_ZERO, NV_BF_ONE, NV_BF_SRC_COLOR, NV_BF_INV_SRC_COLOR,
                               NV_BF_SRC_ALPHA, NV_BF_INV_SRC_ALPHA, NV_BF_DST_ALPHA,
                               NV_BF_INV_DST_ALPHA, NV_BF_DST_COLOR, NV_BF_INV_DST_COLOR,
                               NV_BF_SRC_ALPHA_SAT, NV_BF_CONST_COLOR, NV_BF_INV_CONST_COLOR,
                               NV_BF_CONST_ALPHA, NV_BF_INV_CONST_ALPHA};
    for (unsigned i = 0; i < 15; i++)
        CHECK_EQ(nv_blend_factor(ogl[i]), want[i]);
    for (unsigned d = 1; d <= 0xB; d++) /* D3D_ZERO .. D3D_SRCALPHASAT */
        CHECK_EQ(nv_blend_factor(d), want[d - 1]);
    CHECK_EQ(nv_blend_factor(0xE), NV_BF_CONST_COLOR);
    CHECK_EQ(nv_blend_factor(0xF), NV_BF_INV_CONST_COLOR);
    CHECK_EQ(nv_blend_factor(0xC900), (unsigned long long)-1); /* SRC1COLOR */
    CHECK_EQ(nv_blend_factor(0), (unsigned long long)-1);

    nv_blend b = {true, NV_BOP_ADD, NV_BOP_ADD, NV_BF_SRC_ALPHA, NV_BF_INV_SRC_ALPHA,
                  NV_BF_ONE, NV_BF_ZERO, {0.5f, 0.25f, 1, 0.75f}};
    float s[4] = {1, 0.5f, 0, 0.25f}, d[4] = {0, 1, 1, 1}, o[4];
    nv_blend_apply(&b, s, d, o);
    CHECK(o[0] == 0.25f && o[1] == 0.875f && o[2] == 0.75f && o[3] == 0.25f);
    b.op_rgb = NV_BOP_REVSUB, b.src_rgb = NV_BF_CONST_COLOR, b.dst_rgb = NV_BF_ONE;
    nv_blend_apply(&b, s, d, o); /* d - s * k */
    CHECK(o[0] == -0.5f && o[1] == 0.875f && o[2] == 1.0f);
    b.op_rgb = NV_BOP_SUB, b.src_rgb = NV_BF_SRC_ALPHA_SAT, b.dst_rgb = NV_BF_DST_COLOR;
    b.op_a = NV_BOP_MAX;
    nv_blend_apply(&b, s, d, o); /* s * min(As, 1 - Ad) - d * d; MAX ignores factors */
    CHECK(o[0] == 0.0f && o[1] == -1.0f && o[2] == -1.0f && o[3] == 1.0f);
    b.op_rgb = NV_BOP_MIN;
    nv_blend_apply(&b, s, d, o);
    CHECK(o[0] == 0 && o[1] == 0.5f && o[2] == 0);

    /* depth functions, OGL and D3D */
    for (uint32_t f = 0; f < 8; f++) {
        CHECK_EQ(nv_depth_func(0x200 + f), f);
        CHECK_EQ(nv_depth_func(1 + f), f);
    }
    CHECK_EQ(nv_depth_func(0), (unsigned long long)-1);
    CHECK_EQ(nv_depth_func(0x208), (unsigned long long)-1);
    CHECK(!nv_depth_pass(0, 0, 1) && nv_depth_pass(1, 0.25, 0.5) && !nv_depth_pass(1, 0.5, 0.5));
    CHECK(nv_depth_pass(2, 0.5, 0.5) && nv_depth_pass(3, 0.5, 0.5) && !nv_depth_pass(4, 0.5, 0.5));
    CHECK(nv_depth_pass(5, 0.4, 0.5) && nv_depth_pass(6, 0.5, 0.5) && nv_depth_pass(7, 1, 0));
}

static void test_formats(void)
{
    const float c[4] = {1.0f, 0.5f, 0.0f, 0.25f};
    uint8_t px[16];
    const nv3d_ct_format *f;
    /* A8R8G8B8 (0xCF): B G R A bytes; 0.5 -> 128 (127.5 rounds up) */
    f = nv3d_ct_format_find(0xCF);
    memset(px, 0, sizeof(px));
    nv_color_pack(f, c, 15, px);
    CHECK(px[0] == 0x00 && px[1] == 0x80 && px[2] == 0xFF && px[3] == 0x40);
    /* A8B8G8R8 (0xD5): R G B A, mask R and A only */
    f = nv3d_ct_format_find(0xD5);
    memset(px, 0x11, sizeof(px));
    nv_color_pack(f, c, 9, px);
    CHECK(px[0] == 0xFF && px[1] == 0x11 && px[2] == 0x11 && px[3] == 0x40);
    float back[4];
    nv_color_unpack(f, px, back);
    CHECK(back[0] == 1.0f && back[3] == (float)(64.0 / 255));
    /* R5G6B5 (0xE8): R 15:11, G 10:5, B 4:0; 0.5 * 63 = 31.5 -> 32 */
    f = nv3d_ct_format_find(0xE8);
    memset(px, 0, sizeof(px));
    nv_color_pack(f, c, 15, px);
    CHECK_EQ(px[0] | px[1] << 8, 31u << 11 | 32u << 5 | 0);
    /* RF32 (0xE5) */
    f = nv3d_ct_format_find(0xE5);
    nv_color_pack(f, c, 15, px);
    CHECK_EQ(px[0] | px[1] << 8 | px[2] << 16 | (uint32_t)px[3] << 24, 0x3f800000);
    /* RF16_GF16_BF16_AF16 (0xCA) */
    f = nv3d_ct_format_find(0xCA);
    nv_color_pack(f, c, 15, px);
    CHECK_EQ(px[0] | px[1] << 8, 0x3C00);
    CHECK_EQ(px[2] | px[3] << 8, 0x3800);
    CHECK_EQ(px[4] | px[5] << 8, 0x0000);
    CHECK_EQ(px[6] | px[7] << 8, 0x3400);
    nv_color_unpack(f, px, back);
    CHECK(back[0] == 1 && back[1] == 0.5f && back[2] == 0 && back[3] == 0.25f);
    /* RF32_GF32_BF32_AF32 (0xC0) */
    f = nv3d_ct_format_find(0xC0);
    nv_color_pack(f, c, 15, px);
    float q[4];
    memcpy(q, px, 16);
    CHECK(q[0] == 1 && q[1] == 0.5f && q[2] == 0 && q[3] == 0.25f);

    /* zeta */
    const nv3d_zt_format *z;
    z = nv3d_zt_format_find(0x0A); /* ZF32 */
    nv_zeta_write(z, 0.375, px);
    CHECK_EQ(px[0] | px[1] << 8 | px[2] << 16 | (uint32_t)px[3] << 24, 0x3ec00000);
    CHECK(nv_zeta_read(z, px) == 0.375);
    z = nv3d_zt_format_find(0x13); /* Z16: 0.5 * 65535 = 32767.5 -> 32768 */
    nv_zeta_write(z, 0.5, px);
    CHECK_EQ(px[0] | px[1] << 8, 32768);
    CHECK(nv_zeta_quantize(z, 0.5f) == 32768.0 / 65535);
    z = nv3d_zt_format_find(0x14); /* Z24S8: Z in 31:8, S kept */
    memset(px, 0x5A, 4);
    nv_zeta_write(z, 1.0, px);
    CHECK(px[0] == 0x5A && px[1] == 0xFF && px[2] == 0xFF && px[3] == 0xFF);
    CHECK(nv_zeta_read(z, px) == 1.0);
    z = nv3d_zt_format_find(0x16); /* S8Z24: Z in 23:0 */
    memset(px, 0x5A, 4);
    nv_zeta_write(z, 0.0, px);
    CHECK(px[0] == 0 && px[1] == 0 && px[2] == 0 && px[3] == 0x5A);
}

static void test_surface_addr(void)
{
    nv_surface s;
    memset(&s, 0, sizeof(s));
    s.base = 0x1000, s.pitch = true, s.pitch_bytes = 256, s.bpp = 4;
    CHECK_EQ(nv_surface_addr(&s, 3, 2), 0x1000 + 2 * 256 + 12);
    s.pitch = false;
    s.bl = (nv_bl){.width = 256, .height = 64, .bh = 3, .bd = 0, .depth = 1};
    /* (17, 9): byte x 68: GOB column 1 ((68 % 64) / 32 = 0...) worked out:
     * x byte 68 -> block 1 (64-byte wide blocks), y 9 -> GOB 1 of the
     * block, in-GOB ((68%64)/32)*256 + ((9%8)/2)*64 + ((68%32)/16)*32 +
     * (9%2)*16 + 68%16 = 0 + 0 + 0 + 16 + 4 = 20; block 1 = 4096 bytes */
    CHECK_EQ(nv_surface_addr(&s, 17, 9), 0x1000 + 4096 + 512 + 20);
}

int main(void)
{
    test_random_coverage();
    test_shared_edges();
    test_quads_and_clip();
    test_planes();
    test_blend();
    test_formats();
    test_surface_addr();
    return check_report("test_nv_raster");
}
