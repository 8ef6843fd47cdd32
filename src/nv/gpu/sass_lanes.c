/* nv: 32-lane kernels of the texture path and the RGBA8 pack (sass_lanes.h),
 * compiled once per vector level (CMakeLists.txt cmdgpu_simd_variants;
 * src/core/simd.h). Each kernel is plain lane loops GCC and clang
 * vectorise; a level differs from the baseline only in how the compiler
 * may write them (wider registers, gathers, a rounding instruction for
 * floor), never in the value of a lane. */
#include <math.h>
#include <stdatomic.h>
#include <string.h>
#include "core/bits.h"
#include "core/simd.h"
#include "sass_lanes.h"

#if CG_SIMD_VARIANT == CG_SIMD_AVX512
#define LV_AVX512 1
#elif CG_SIMD_VARIANT == CG_SIMD_AVX2
#define LV_AVX2 1
#else
#define LV_BASE 1
#endif
#define LV_OPS CG_SIMD_FN(nv_lanes_ops)
#if !defined(LV_BASE)
#include <immintrin.h>
#endif

#define LANES for (unsigned l = 0; l < NV_WARP; l++)

static inline uint32_t uf(float f) { return cg__fbits(f); }

/* bit l: lane l (a shift by the lane index does not vectorise) */
static const uint32_t lane_bit[NV_WARP] = {
    1u << 0, 1u << 1, 1u << 2, 1u << 3, 1u << 4, 1u << 5, 1u << 6, 1u << 7,
    1u << 8, 1u << 9, 1u << 10, 1u << 11, 1u << 12, 1u << 13, 1u << 14, 1u << 15,
    1u << 16, 1u << 17, 1u << 18, 1u << 19, 1u << 20, 1u << 21, 1u << 22, 1u << 23,
    1u << 24, 1u << 25, 1u << 26, 1u << 27, 1u << 28, 1u << 29, 1u << 30, 1u << 31};

/* out[l] = floor(x[l]) for x in [-1e9, 1e9]: the rounding instruction
 * where the level has one (GCC does not vectorise floor() itself while
 * floating-point exceptions are modelled), else by truncation (the same
 * value) */
static void floor_lanes(const double *restrict x, int32_t *restrict out)
{
#if defined(LV_AVX512)
    for (unsigned l = 0; l < NV_WARP; l += 8) {
        __m512d d = _mm512_roundscale_pd(_mm512_loadu_pd(x + l),
                                         _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC);
        _mm256_storeu_si256((__m256i *)(void *)(out + l), _mm512_cvttpd_epi32(d));
    }
#elif defined(LV_AVX2)
    for (unsigned l = 0; l < NV_WARP; l += 4) {
        __m256d d = _mm256_floor_pd(_mm256_loadu_pd(x + l));
        _mm_storeu_si128((__m128i *)(void *)(out + l), _mm256_cvttpd_epi32(d));
    }
#else
    LANES {
        int32_t i = (int32_t)x[l];
        out[l] = i - ((double)i > x[l]);
    }
#endif
}

static void coords(const nv_lanes_coord *k, const float *u, const float *v, int32_t *fx,
                   int32_t *fy, float *ax, float *ay)
{
    float uu[NV_WARP], vv[NV_WARP];
    double xcl[NV_WARP], ycl[NV_WARP];
    LANES {
        uu[l] = u[l] != u[l] ? 0.0f : u[l];
        vv[l] = v[l] != v[l] ? 0.0f : v[l];
    }
    /* CLAMP_OGL (only the sign of a zero may differ from fminf/fmaxf's,
     * which no later step sees: -0 and +0 floor and weigh alike) */
    if (k->clamp_u) {
        float cu = k->cu;
        LANES {
            float a = uu[l] > 0.0f ? uu[l] : 0.0f;
            uu[l] = a < cu ? a : cu;
        }
    }
    if (k->clamp_v) {
        float cv = k->cv;
        LANES {
            float a = vv[l] > 0.0f ? vv[l] : 0.0f;
            vv[l] = a < cv ? a : cv;
        }
    }
    double sw = k->sw, sh = k->sh, ow = k->ow;
    /* x * 1.0 is x: one expression for both coordinate kinds; the floor
     * of the coordinate clamped to +-1e9 (floor and the clamp commute);
     * never NaN. Separate loops, as GCC vectorises each but not the
     * whole in one. */
    LANES {
        double xl = (double)uu[l] * sw - ow;
        double xc = xl > 1e9 ? 1e9 : xl;
        xcl[l] = xc < -1e9 ? -1e9 : xc;
    }
    LANES {
        double yl = (double)vv[l] * sh - ow;
        double yc = yl > 1e9 ? 1e9 : yl;
        ycl[l] = yc < -1e9 ? -1e9 : yc;
    }
    floor_lanes(xcl, fx);
    floor_lanes(ycl, fy);
    if (!k->linear)
        return;
    /* 8-bit filter weights, as the texture unit's: floor((x - floor(x)) *
     * 256) / 256 (the product is in [0, 256): truncation) */
    LANES {
        ax[l] = (float)(int32_t)((xcl[l] - (double)fx[l]) * 256.0) / 256.0f;
        ay[l] = (float)(int32_t)((ycl[l] - (double)fy[l]) * 256.0) / 256.0f;
    }
    /* a coordinate clamped at +-1e9 (past it, or infinite; or exactly
     * there): its weights from its own floor */
    int wide = 0;
    LANES wide |= (fx[l] == 1000000000) | (fx[l] == -1000000000) | (fy[l] == 1000000000) |
                  (fy[l] == -1000000000);
    if (wide)
        LANES {
            double x = (double)uu[l] * sw - ow, y = (double)vv[l] * sh - ow;
            if (!(fabs(x) <= 1e9) || !(fabs(y) <= 1e9)) {
                double ffx = floor(x), ffy = floor(y);
                ax[l] = (float)floor((x - ffx) * 256.0) / 256.0f;
                ay[l] = (float)floor((y - ffy) * 256.0) / 256.0f;
            }
        }
}

static void wrap(const int32_t *restrict f, int32_t add, uint32_t n, uint32_t pmask,
                 unsigned mode, int32_t *restrict out)
{
    if (mode == 0 && (pmask || n == 1)) {
        LANES out[l] = (f[l] + add) & (int32_t)pmask;
    } else if (mode == 2 && n <= INT32_MAX) {
        int32_t top = (int32_t)n - 1;
        LANES {
            int32_t i = f[l] + add;
            i = i < 0 ? 0 : i;
            out[l] = i > top ? top : i;
        }
    } else {
        LANES out[l] = nv_lanes_wrap1((int64_t)f[l] + add, n, pmask, mode);
    }
}

static void pages(const nv_lanes_geom *g, uint32_t mask, const int32_t *xs, const int32_t *ys,
                  uint32_t *restrict pg, uint32_t *restrict at, uint32_t *lo, uint32_t *hi)
{
    uint32_t off[NV_WARP];
    uint32_t rb = g->row_bytes, base = g->base_lo;
    if (g->bl) {
        /* nv_bl_offset of byte 4x, row y, slice 0 (blocklinear.c) */
        uint32_t bs = g->bshift, bh = g->bh, bm = (1u << bh) - 1;
        LANES {
            uint32_t xb = (uint32_t)xs[l] * 4, y = (uint32_t)ys[l];
            off[l] = ((xb >> 6) << bs) + (y >> (3 + bh)) * rb + (((y >> 3) & bm) << 9) +
                     ((xb & 63) >> 5) * 256 + ((y & 7) >> 1) * 64 + ((xb & 31) >> 4) * 32 +
                     (y & 1) * 16 + (xb & 15);
        }
    } else {
        LANES off[l] = (uint32_t)ys[l] * rb + (uint32_t)xs[l] * 4;
    }
    uint32_t a = UINT32_MAX, b = 0, p0[NV_WARP], p1[NV_WARP];
    LANES {
        uint32_t o = base + off[l];
        pg[l] = o >> 12;
        at[l] = o & 0xfff;
    }
    /* lanes of the mask that read a texel: their pages' range */
    LANES {
        uint32_t in = (mask & lane_bit[l]) && xs[l] >= 0 && ys[l] >= 0;
        p0[l] = in ? pg[l] : UINT32_MAX;
        p1[l] = in ? pg[l] : 0;
    }
    LANES a = p0[l] < a ? p0[l] : a;
    LANES b = p1[l] > b ? p1[l] : b;
    *lo = a;
    *hi = b;
}

static void load(const uint8_t *const *page, uint32_t lo, uint32_t n, const uint32_t *pg,
                 const uint32_t *at, uint32_t *raw)
{
    for (uint32_t i = 0; i < n; i++) {
        /* every lane reads in this page (at[l] < 4096), takes it if its own */
        const uint32_t *p = (const uint32_t *)(const void *)page[i];
        uint32_t want = lo + i;
#if defined(LV_AVX512)
        __m512i vw = _mm512_set1_epi32((int)want);
        for (unsigned l = 0; l < NV_WARP; l += 16) {
            __m512i ix = _mm512_srli_epi32(_mm512_loadu_si512(at + l), 2);
            __mmask16 k = _mm512_cmpeq_epi32_mask(_mm512_loadu_si512(pg + l), vw);
            __m512i r = _mm512_mask_i32gather_epi32(_mm512_loadu_si512(raw + l), k, ix, p, 4);
            _mm512_storeu_si512(raw + l, r);
        }
#elif defined(LV_AVX2)
        __m256i vw = _mm256_set1_epi32((int)want);
        for (unsigned l = 0; l < NV_WARP; l += 8) {
            __m256i ix = _mm256_srli_epi32(_mm256_loadu_si256((const __m256i *)(const void *)(at + l)), 2);
            __m256i k = _mm256_cmpeq_epi32(_mm256_loadu_si256((const __m256i *)(const void *)(pg + l)), vw);
            __m256i old = _mm256_loadu_si256((const __m256i *)(const void *)(raw + l));
            __m256i r = _mm256_mask_i32gather_epi32(old, (const int *)(const void *)p, ix, k, 4);
            _mm256_storeu_si256((__m256i *)(void *)(raw + l), r);
        }
#else
        LANES {
            uint32_t w;
            memcpy(&w, p + (at[l] >> 2), 4);
            raw[l] = pg[l] == want ? w : raw[l];
        }
#endif
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
        LANES raw[l] = pg[l] == want ? __builtin_bswap32(raw[l]) : raw[l];
#endif
    }
}

static void unorm8(uint32_t mask, const int32_t *xs, const int32_t *ys, const uint32_t *raw,
                   float sc, const uint32_t bw[4], uint32_t t[4][NV_WARP])
{
    uint32_t keep[NV_WARP], bsel[NV_WARP];
    LANES {
        keep[l] = (mask & lane_bit[l]) ? 0u : ~0u;
        bsel[l] = ((xs[l] < 0) | (ys[l] < 0)) ? ~0u : 0u;
    }
    for (int k = 0; k < 4; k++) {
        uint32_t *tk = t[k], b = bw[k];
        unsigned sh = 8 * (unsigned)k;
        LANES {
            uint32_t v = uf((float)(int32_t)(raw[l] >> sh & 0xff) * sc);
            v = (bsel[l] & b) | (~bsel[l] & v);
            tk[l] = (keep[l] & tk[l]) | (~keep[l] & v);
        }
    }
}

static void pack8(const uint32_t *src, unsigned sh, uint32_t *pk)
{
    /* clamped to [0, 1] first on the bits (NaN, -0 and negatives -> +0):
     * 0 -> 0.5 -> 0 and 1 -> 255.5 -> 255 as the rule gives */
    uint32_t cb[NV_WARP];
    float cf[NV_WARP];
    LANES {
        int32_t si = (int32_t)src[l];
        uint32_t v = ((si <= 0) | (si > 0x7f800000)) ? 0 : src[l];
        cb[l] = (int32_t)v >= 0x3f800000 ? 0x3f800000u : v;
    }
    /* two loops, as GCC vectorises each but not the two in one */
    memcpy(cf, cb, sizeof cf);
    LANES pk[l] |= (uint32_t)(int32_t)((double)cf[l] * 255 + 0.5) << sh;
}

/* per lane: its pixel's offset from the first quad of a row of eight */
static const int32_t row_dx[NV_WARP] = {0, 1, 0, 1, 2, 3, 2, 3, 4, 5, 4, 5, 6, 7, 6, 7,
                                        8, 9, 8, 9, 10, 11, 10, 11, 12, 13, 12, 13, 14, 15, 14, 15};
static const int32_t row_dy[NV_WARP] = {0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1,
                                        0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1};

static void quad_pos(const int32_t *qx, const int32_t *qy, bool row, float a, float b, float c,
                     float *restrict x, float *restrict y, float *restrict z)
{
    if (row) {
        /* from the first quad alone: the rasteriser has just stored the
         * quads one by one, and a vector load of them would wait for those
         * stores (qx[0] + 2k + i is qx[k] + i: the same floats) */
        int32_t x0 = qx[0], y0 = qy[0];
        LANES {
            x[l] = (float)(x0 + row_dx[l]) + 0.5f;
            y[l] = (float)(y0 + row_dy[l]) + 0.5f;
        }
    } else {
        for (unsigned k = 0; k < NV_WARP / 4; k++) {
            float x0 = (float)qx[k] + 0.5f, x1 = (float)(qx[k] + 1) + 0.5f;
            float y0 = (float)qy[k] + 0.5f, y1 = (float)(qy[k] + 1) + 0.5f;
            float *xk = x + 4 * k, *yk = y + 4 * k;
            xk[0] = x0, xk[1] = x1, xk[2] = x0, xk[3] = x1;
            yk[0] = y0, yk[1] = y0, yk[2] = y1, yk[3] = y1;
        }
    }
    LANES z[l] = a * x[l] + b * y[l] + c;
}

static void plane(float a, float b, float c, const float *x, const float *y, const uint32_t *mul,
                  uint32_t *out)
{
    float pv[NV_WARP];
    LANES pv[l] = a * x[l] + b * y[l] + c;
    if (mul) {
        float fm[NV_WARP];
        memcpy(fm, mul, sizeof fm);
        LANES pv[l] *= fm[l];
    }
    memcpy(out, pv, sizeof pv);
}

static void select_lanes(uint32_t m, const uint32_t *restrict v, uint32_t *restrict r)
{
    LANES r[l] = (m & lane_bit[l]) ? v[l] : r[l];
}

static void rcp(const uint32_t *a, bool neg, bool abs, uint32_t *r)
{
    uint32_t xb[NV_WARP], yb[NV_WARP];
    float x[NV_WARP], y[NV_WARP];
    uint32_t am = abs ? 0x7fffffffu : 0xffffffffu, nx = neg ? 0x80000000u : 0;
    LANES {
        uint32_t u = (a[l] & am) ^ nx;
        xb[l] = (u & 0x7f800000u) ? u : u & 0x80000000u;
    }
    memcpy(x, xb, sizeof x);
    LANES y[l] = 1.0f / x[l];
    memcpy(yb, y, sizeof yb);
    LANES {
        uint32_t u = (yb[l] & 0x7f800000u) ? yb[l] : yb[l] & 0x80000000u;
        r[l] = (yb[l] & 0x7fffffffu) > 0x7f800000u ? 0x7fffffffu : u;
    }
}

extern const nv_lanes_ops LV_OPS;
const nv_lanes_ops LV_OPS = {coords, wrap, pages, load, unorm8, pack8, quad_pos, plane,
                              select_lanes, rcp};

#if defined(LV_BASE)
#if CG_SIMD_HAVE_VARIANTS
extern const nv_lanes_ops nv_lanes_ops_avx2, nv_lanes_ops_avx512;
#endif

static const nv_lanes_ops *pick(void)
{
#if CG_SIMD_HAVE_VARIANTS
    switch (cg__simd_level()) {
    case CG_SIMD_AVX512: return &nv_lanes_ops_avx512;
    case CG_SIMD_AVX2: return &nv_lanes_ops_avx2;
    default: break;
    }
#endif
    return &nv_lanes_ops_base;
}

const nv_lanes_ops *nv_lanes(void)
{
    /* decided once (racing first calls store the same pointer) */
    static _Atomic(const nv_lanes_ops *) cached;
    const nv_lanes_ops *p = atomic_load_explicit(&cached, memory_order_relaxed);
    if (!p) {
        p = pick();
        atomic_store_explicit(&cached, p, memory_order_relaxed);
    }
    return p;
}
#endif
