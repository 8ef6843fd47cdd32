/* nv: 32-lane kernels of the texture path (sass_exec_tex.c) and the
 * pipeline's RGBA8 pack (pipeline.c), built once per vector level
 * (src/core/simd.h: baseline, AVX2, AVX-512) from src/nv/gpu/sass_lanes.c.
 * nv_lanes() gives the table of the level this process runs; every level
 * gives the same bits (no contraction, the same operations in the same
 * order per lane). */
#ifndef CMDGPU_NV_SASS_LANES_H
#define CMDGPU_NV_SASS_LANES_H

#include <stdbool.h>
#include <stdint.h>
#include "sass_exec.h"

/* Texel coordinates of a sample: u, v scaled to the level (sw, sh: its
 * size for normalized coordinates, else 1), less ow (0.5 for LINEAR, else
 * 0); NaN reads as 0; CLAMP_OGL (clamp_u / clamp_v) clamps u / v to
 * [0, cu] / [0, cv] first. */
typedef struct nv_lanes_coord {
    double sw, sh, ow;
    float cu, cv;
    bool clamp_u, clamp_v, linear;
} nv_lanes_coord;

/* Where the 4-byte texels of a level lie: byte offset of texel (x, y) from
 * the level's base, for levels whose bytes fit below 2^31 (the caller
 * checks). Block-linear: GOBs of 64 x 8 bytes, blocks of 2^bh GOBs in y
 * (bshift = 9 + bh), row_bytes a row of blocks; pitch: y * row_bytes +
 * 4 x. */
typedef struct nv_lanes_geom {
    bool bl;
    uint32_t row_bytes, bshift, bh;
    uint32_t base_lo;          /* the level's base address & 0xfff */
} nv_lanes_geom;

typedef struct nv_lanes_ops {
    /* floor of the scaled coordinates clamped to +-1e9 into fx / fy;
     * LINEAR: the 8-bit weights floor((x - floor x) * 256) / 256 into
     * ax / ay (of the unclamped coordinate when it is past +-1e9) */
    void (*coords)(const nv_lanes_coord *k, const float *u, const float *v, int32_t *fx,
                   int32_t *fy, float *ax, float *ay);
    /* out[l] = wrap(f[l] + add) (nv_lanes_wrap1) */
    void (*wrap)(const int32_t *f, int32_t add, uint32_t n, uint32_t pmask, unsigned mode,
                 int32_t *out);
    /* The page of each lane's texel (xs, ys >= 0; border lanes -1) as
     * pg[l] (pages from the one of the level's base) and its byte in the
     * page as at[l]; over the lanes of `mask` that are not border: the
     * lowest and highest page (*lo > *hi: none). */
    void (*pages)(const nv_lanes_geom *g, uint32_t mask, const int32_t *xs, const int32_t *ys,
                  uint32_t *pg, uint32_t *at, uint32_t *lo, uint32_t *hi);
    /* raw[l] = the little-endian word at page[pg[l] - lo] + at[l] for
     * pg[l] in [lo, lo + n) (other lanes keep raw[l]); at[l] is a multiple
     * of 4 below 4096, and every page pointer has 4096 bytes */
    void (*load)(const uint8_t *const *page, uint32_t lo, uint32_t n, const uint32_t *pg,
                 const uint32_t *at, uint32_t *raw);
    /* t[k][l] = byte k of raw[l] * sc as a float's bits, border lanes
     * (xs or ys < 0) the border word bw[k], lanes outside mask unchanged */
    void (*unorm8)(uint32_t mask, const int32_t *xs, const int32_t *ys, const uint32_t *raw,
                   float sc, const uint32_t bw[4], uint32_t t[4][NV_WARP]);
    /* pk[l] |= the UNORM8 value of float bits src[l] << sh (nv_color_pack's
     * rule: NaN and <= 0 -> 0, >= 1 -> 255, else (double)f * 255 + 0.5
     * truncated) */
    void (*pack8)(const uint32_t *src, unsigned sh, uint32_t *pk);
    /* sample positions of the 8 quads at (qx[k], qy[k]) (lane 4k + i:
     * pixel + (i & 1, i >> 1), + 0.5) and the plane a x + b y + c there;
     * `row`: the caller knows qx[k] = qx[0] + 2k and qy[k] = qy[0] */
    void (*quad_pos)(const int32_t *qx, const int32_t *qy, bool row, float a, float b, float c,
                     float *x, float *y, float *z);
    /* IPA: out[l] = the bits of a x[l] + b y[l] + c, times the float
     * mul[l] when mul is not NULL */
    void (*plane)(float a, float b, float c, const float *x, const float *y, const uint32_t *mul,
                  uint32_t *out);
    /* r[l] = v[l] for the lanes of m (a register write under a mask) */
    void (*select)(uint32_t m, const uint32_t *v, uint32_t *r);
    /* MUFU.RCP without SAT: r[l] = 1 / a[l] (operand negate / absolute
     * value, denormals flushed in and out, NaN as 0x7fffffff) */
    void (*rcp)(const uint32_t *a, bool neg, bool abs, uint32_t *r);
} nv_lanes_ops;

const nv_lanes_ops *nv_lanes(void);

/* Wrap an integer texel coordinate; -1 = border. `pmask` is n - 1 when n
 * is a power of two (WRAP is then a mask), else 0. */
static inline int32_t nv_lanes_wrap1(int64_t i, uint32_t n, uint32_t pmask, unsigned mode)
{
    switch (mode) {
    case 0: { /* WRAP */
        if (pmask || n == 1)
            return (int32_t)(i & pmask);
        int64_t r = i % (int64_t)n;
        return (int32_t)(r < 0 ? r + n : r);
    }
    case 1: { /* MIRROR */
        int64_t p = 2 * (int64_t)n, r = i % p;
        if (r < 0)
            r += p;
        return (int32_t)(r < n ? r : p - 1 - r);
    }
    case 2: /* CLAMP_TO_EDGE */
        return (int32_t)(i < 0 ? 0 : i >= n ? n - 1 : i);
    default: /* BORDER, CLAMP_OGL (coordinate clamped before) */
        return (i < 0 || i >= n) ? -1 : (int32_t)i;
    }
}

#endif
