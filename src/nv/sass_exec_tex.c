/* Maxwell warp interpreter: texture instructions (TEXS, TEX, TLDS, TLD,
 * TLD4, TXQ). The handle comes from the constant buffer the env names, the
 * TIC/TSC entries from the pools through the address space, texels one by
 * one from GPU memory (pitch or block-linear, src/nv/blocklinear.c) in the
 * packed formats of src/nv/tex_formats.def. Semantics:
 * docs/nv-sass-exec.md. */
#include <math.h>
#include <string.h>
#include "core/half.h"
#include "cmdgpu/nv3d.h"
#include "nv_internal.h"
#include "sass_exec_internal.h"

#define LANES for (unsigned l = 0; l < NV_WARP; l++)

/* ---- formats: the packed rows of the one format table ----------------------- */

typedef struct tfmt {
    uint8_t code, bytes, packed;
    uint8_t bits[4];
} tfmt;

static const tfmt tfmts[] = {
#define FMT(name, code, bytes, comp, dec, r, g, b, a) \
    {code, bytes, (comp) == 0 && DEC_##dec == 1, {r, g, b, a}},
#define DEC_PACKED 1
#define DEC_NONE 0
#define DEC_BC1 0
#define DEC_BC2 0
#define DEC_BC3 0
#define DEC_BC4 0
#define DEC_BC5 0
#include "tex_formats.def"
#undef FMT
};

/* TIC component types */
enum { TY_SNORM = 1, TY_UNORM, TY_SINT, TY_UINT, TY_SNORM_FP16, TY_UNORM_FP16, TY_FLOAT };

/* Level geometry: address and size of mip level `lv`. */
typedef struct tlevel {
    uint64_t base;
    uint32_t w, h;
    nv_bl bl;
} tlevel;

typedef struct tsampler {
    cg_nv_tic tic;
    cg_nv_tsc tsc;
    const tfmt *f;
    uint32_t off[4];          /* component bit offsets */
    float scale[4];           /* UNORM/SNORM: 1 / max */
    bool bl;                  /* block linear */
    uint32_t w, h;            /* level 0 */
    unsigned levels;          /* mip levels present */
    float border[4];
    bool bytes8;              /* four 8-bit UNORM components at bytes 0..3 */
    uint32_t unorm8[256];     /* bytes8: the float bits of i / 255 */
    bool ident;               /* swizzle R G B A */
    tlevel lv0;               /* level 0 geometry */
    uint64_t pg_va;           /* the last 4 KiB page read in place, and where */
    const uint8_t *pg_ptr;
} tsampler;

static inline float fl(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static inline uint32_t uf(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

static uint32_t get_bits(const uint8_t *p, unsigned off, unsigned w)
{
    uint64_t v = 0;
    unsigned first = off / 8, n = (off % 8 + w + 7) / 8;
    for (unsigned i = 0; i < n; i++)
        v |= (uint64_t)p[first + i] << (8 * i);
    return (uint32_t)((v >> (off % 8)) & ((1ull << w) - 1));
}

/* One texel's components, after the TIC swizzle, as register words (floats
 * for normalized and float types, integers for SINT/UINT). */
static void texel_decode(const tsampler *s, const uint8_t *p, uint32_t out[4])
{
    if (s->bytes8 && s->ident) {
        for (unsigned k = 0; k < 4; k++)
            out[k] = s->unorm8[p[k]];
        return;
    }
    /* swizzle sources: 0 ZERO, 2..5 R..A, 6 ONE_INT, 7 ONE_FLOAT */
    uint32_t ext[8] = {0, 0, 0, 0, 0, 0x3f800000u, 1, 0x3f800000u};
    uint32_t *c = ext + 2;
    if (s->bytes8) {
        for (unsigned k = 0; k < 4; k++)
            c[k] = s->unorm8[p[k]];
    }
    for (unsigned k = 0; k < 4 && !s->bytes8; k++) {
        unsigned w = s->f->bits[k];
        if (!w)
            continue;
        uint32_t v = get_bits(p, s->off[k], w);
        switch (s->tic.type[k]) {
        case TY_UNORM: case TY_UNORM_FP16:
            c[k] = uf((float)v * s->scale[k]);
            break;
        case TY_SNORM: case TY_SNORM_FP16: {
            int32_t sv = w >= 32 ? (int32_t)v : (int32_t)((v ^ (1u << (w - 1))) - (1u << (w - 1)));
            float f = (float)sv * s->scale[k];
            c[k] = uf(f < -1.0f ? -1.0f : f);
            break;
        }
        case TY_SINT:
            c[k] = w >= 32 ? v : (uint32_t)((v ^ (1u << (w - 1))) - (1u << (w - 1)));
            break;
        case TY_UINT:
            c[k] = v;
            break;
        default: /* float */
            c[k] = w == 32 ? v : uf(cg__half_to_float(v));
            break;
        }
    }
    for (unsigned i = 0; i < 4; i++)
        out[i] = ext[s->tic.swizzle[i] & 7];
}

static int tex_fault(xctx *c, cg_fault_kind k, uint64_t va, const char *what)
{
    return nv_xfault(c, k, va, "texture %s at 0x%llx (instruction at 0x%llx)", what,
                     (unsigned long long)va, (unsigned long long)nv_xpc_bytes(c->pc));
}

/* Read the handle, the TIC and TSC entries; check what the sampler can do. */
static void level_of(const struct tsampler *s, unsigned lv, tlevel *out);

static int sampler_load(xctx *c, unsigned index, tsampler *s)
{
    const nv_sass_env *e = c->env;
    const nv_sass_tex_env *t = &e->tex;
    unsigned bank = t->handle_bank;
    uint64_t off = (uint64_t)index * 4;
    if (bank >= NV_SASS_CB_SLOTS || !e->cb[bank] || off + 4 > e->cb_size[bank])
        return nv_xfault(c, CG_FAULT_BAD_STATE, 0,
                         "texture handle c[0x%x][0x%llx] not in a bound constant buffer at 0x%llx",
                         bank, (unsigned long long)off, (unsigned long long)nv_xpc_bytes(c->pc));
    uint32_t handle = e->cb[bank][off / 4];
    uint32_t tic = handle & 0xfffff, tsc = t->linked_tsc ? tic : handle >> 20;
    if (tic > t->tic_max || tsc > t->tsc_max)
        return nv_xfault(c, CG_FAULT_BAD_STATE, 0,
                         "texture handle 0x%08x: TIC %u / TSC %u past the pools (%u / %u) at 0x%llx",
                         handle, tic, tsc, t->tic_max, t->tsc_max,
                         (unsigned long long)nv_xpc_bytes(c->pc));
    uint32_t w[8];
    uint64_t bad;
    uint64_t va[2] = {t->tic_va + (uint64_t)tic * 32, t->tsc_va + (uint64_t)tsc * 32};
    for (int i = 0; i < 2; i++) {
        cg_fault_kind k = cg_vas_check(e->vas, va[i], 32, false, &bad);
        if (k != CG_FAULT_NONE)
            return tex_fault(c, k, bad, i ? "sampler entry unreadable" : "header entry unreadable");
        if (nv_mem_rw(e->vas, va[i], w, 32, false, &e->agent))
            return tex_fault(c, CG_FAULT_UNMAPPED, va[i], "pool read failed");
        if (i == 0)
            cg_nv_tic_decode(w, &s->tic);
        else
            cg_nv_tsc_decode(w, &s->tsc);
    }
    s->f = NULL;
    for (size_t i = 0; i < sizeof tfmts / sizeof tfmts[0]; i++)
        if (tfmts[i].code == s->tic.format)
            s->f = &tfmts[i];
    unsigned hv = s->tic.header_version;
    if (!s->f || !s->f->packed || (hv != CG_NV_TIC_PITCH && hv != CG_NV_TIC_BLOCKLINEAR) ||
        s->tic.msaa_mode || s->tic.texture_type > 7 ||
        (s->tic.texture_type != 1 && s->tic.texture_type != 0 && s->tic.texture_type != 7))
        return nv_xfault(c, CG_FAULT_UNSUPPORTED, 0,
                         "not supported yet: texture format 0x%02x, header version %u, type %u "
                         "at 0x%llx",
                         s->tic.format, hv, s->tic.texture_type,
                         (unsigned long long)nv_xpc_bytes(c->pc));
    unsigned o = 0;
    for (unsigned k = 0; k < 4; k++) {
        unsigned b = s->f->bits[k], ty = s->tic.type[k];
        s->off[k] = o;
        o += b;
        if (b && (ty == 0 || (ty == TY_FLOAT && b != 16 && b != 32)))
            return nv_xfault(c, CG_FAULT_UNSUPPORTED, 0,
                             "not supported yet: texture component type %u of %u bits at 0x%llx",
                             ty, b, (unsigned long long)nv_xpc_bytes(c->pc));
        s->scale[k] = 0;
        if (b && (ty == TY_UNORM || ty == TY_UNORM_FP16))
            s->scale[k] = (float)(1.0 / ((double)(1ull << b) - 1));
        else if (b > 1 && (ty == TY_SNORM || ty == TY_SNORM_FP16))
            s->scale[k] = (float)(1.0 / ((double)(1ull << (b - 1)) - 1));
    }
    for (unsigned i = 0; i < 4; i++)
        if (s->tic.swizzle[i] == 1 || s->tic.swizzle[i] > 7)
            return nv_xfault(c, CG_FAULT_UNSUPPORTED, 0,
                             "not supported yet: texture swizzle %u at 0x%llx", s->tic.swizzle[i],
                             (unsigned long long)nv_xpc_bytes(c->pc));
    s->bytes8 = true;
    for (unsigned k = 0; k < 4; k++)
        if (s->f->bits[k] != 8 || s->off[k] != 8 * k || s->tic.type[k] != TY_UNORM)
            s->bytes8 = false;
    s->ident = s->tic.swizzle[0] == 2 && s->tic.swizzle[1] == 3 && s->tic.swizzle[2] == 4 &&
               s->tic.swizzle[3] == 5;
    if (s->bytes8)
        for (unsigned i = 0; i < 256; i++)
            s->unorm8[i] = uf((float)i * s->scale[0]);
    s->pg_va = UINT64_MAX;
    s->pg_ptr = NULL;
    s->bl = hv == CG_NV_TIC_BLOCKLINEAR;
    s->w = s->tic.width ? s->tic.width : 1;
    s->h = s->tic.texture_type == 0 ? 1 : (s->tic.height ? s->tic.height : 1);
    s->levels = s->bl ? s->tic.max_mip_level + 1 : 1;
    for (unsigned k = 0; k < 4; k++)
        s->border[k] = s->tsc.border_color[k];
    if (s->tsc.wrap_u > 4 || s->tsc.wrap_v > 4)
        return nv_xfault(c, CG_FAULT_UNSUPPORTED, 0,
                             "not supported yet: texture wrap mode %u/%u at 0x%llx",
                             s->tsc.wrap_u, s->tsc.wrap_v,
                             (unsigned long long)nv_xpc_bytes(c->pc));
    s->lv0.w = 0;
    level_of(s, 0, &s->lv0);
    return 0;
}

static void level_of(const tsampler *s, unsigned lv, tlevel *out)
{
    if (lv == 0 && s->lv0.w) {
        *out = s->lv0;
        return;
    }
    uint64_t base = s->tic.address;
    uint32_t w = s->w, h = s->h;
    unsigned bh = s->tic.block_h;
    for (unsigned i = 0;; i++) {
        /* the block height shrinks with small levels (yuzu texture_cache
         * mip-level layout) */
        while (i > 0 && bh > 0 && h <= (4u << bh))
            bh--;
        nv_bl b = {.width = w * s->f->bytes, .height = h, .depth = 1, .bh = bh, .bd = 0};
        if (i == lv || !s->bl) {
            out->base = base;
            out->w = w;
            out->h = h;
            out->bl = b;
            return;
        }
        base += nv_bl_size(&b);
        w = w > 1 ? w / 2 : 1;
        h = h > 1 ? h / 2 : 1;
    }
}

/* Fetch texel (x, y) of a level (in range). 0 or a fault. */
static int fetch(xctx *c, tsampler *s, const tlevel *lv, uint32_t x, uint32_t y,
                 uint32_t out[4])
{
    uint64_t off = s->bl ? nv_bl_offset(&lv->bl, x * s->f->bytes, y, 0)
                         : (uint64_t)y * s->tic.pitch + (uint64_t)x * s->f->bytes;
    uint64_t va = lv->base + off, pg = va & ~(uint64_t)0xfff;
    uint8_t *p, buf[16];
    cg_vas *vas = c->env->vas;
    /* Texels read in place through a per-instruction cache of one page
     * (nothing writes memory while one instruction samples). */
    if (pg == s->pg_va && (va & 0xfff) + s->f->bytes <= 0x1000) {
        texel_decode(s, s->pg_ptr + (va - pg), out);
        return 0;
    }
    if ((va & 0xfff) + s->f->bytes <= 0x1000 && cg__vas_span(vas, pg, 0x1000, false, &p) == 0x1000) {
        s->pg_va = pg;
        s->pg_ptr = p;
        texel_decode(s, p + (va - pg), out);
        return 0;
    }
    if (cg__vas_span(vas, va, s->f->bytes, false, &p) != s->f->bytes) {
        uint64_t bad;
        cg_fault_kind k = cg_vas_check(vas, va, s->f->bytes, false, &bad);
        if (k != CG_FAULT_NONE)
            return tex_fault(c, k, bad, "memory unreadable");
        if (cg_vas_read(vas, va, buf, s->f->bytes, &c->env->agent))
            return tex_fault(c, CG_FAULT_UNMAPPED, va, "read failed");
        p = buf;
    }
    texel_decode(s, p, out);
    return 0;
}

/* Wrap an integer texel coordinate; -1 = border. */
static int32_t wrap(int64_t i, uint32_t n, unsigned mode)
{
    switch (mode) {
    case 0: { /* WRAP */
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

/* Sample one level at (u, v) (normalized unless the TIC says not). */
static int sample_level(xctx *c, tsampler *s, unsigned lvn, float u, float v, bool linear,
                        float out[4], uint32_t raw[4])
{
    tlevel lv;
    level_of(s, lvn, &lv);
    unsigned wu = s->tsc.wrap_u, wv = s->tsc.wrap_v;
    if (u != u)
        u = 0;
    if (v != v)
        v = 0;
    if (wu == 4)
        u = s->tic.normalized_coords ? fminf(fmaxf(u, 0.0f), 1.0f) : fminf(fmaxf(u, 0.0f), (float)lv.w);
    if (wv == 4)
        v = s->tic.normalized_coords ? fminf(fmaxf(v, 0.0f), 1.0f) : fminf(fmaxf(v, 0.0f), (float)lv.h);
    double x = s->tic.normalized_coords ? (double)u * lv.w : u;
    double y = s->tic.normalized_coords ? (double)v * lv.h : v;
    uint32_t bw[4];
    for (int k = 0; k < 4; k++)
        bw[k] = uf(s->border[k]);
    if (!linear) {
        double fx = floor(x), fy = floor(y);
        fx = fx < -1e9 ? -1e9 : fx > 1e9 ? 1e9 : fx;
        fy = fy < -1e9 ? -1e9 : fy > 1e9 ? 1e9 : fy;
        int32_t ix = wrap((int64_t)fx, lv.w, wu), iy = wrap((int64_t)fy, lv.h, wv);
        if (ix < 0 || iy < 0) {
            memcpy(raw, bw, sizeof bw);
        } else if (fetch(c, s, &lv, (uint32_t)ix, (uint32_t)iy, raw)) {
            return CG_ERR_FAULT;
        }
        for (int k = 0; k < 4; k++)
            out[k] = fl(raw[k]);
        return 0;
    }
    x -= 0.5;
    y -= 0.5;
    double fx = floor(x), fy = floor(y);
    /* 8-bit filter weights, as the texture unit's */
    float ax = (float)floor((x - fx) * 256.0) / 256.0f, ay = (float)floor((y - fy) * 256.0) / 256.0f;
    fx = fx < -1e9 ? -1e9 : fx > 1e9 ? 1e9 : fx;
    fy = fy < -1e9 ? -1e9 : fy > 1e9 ? 1e9 : fy;
    int32_t x0 = wrap((int64_t)fx, lv.w, wu), x1 = wrap((int64_t)fx + 1, lv.w, wu);
    int32_t y0 = wrap((int64_t)fy, lv.h, wv), y1 = wrap((int64_t)fy + 1, lv.h, wv);
    uint32_t t[4][4];
    const int32_t xs[4] = {x0, x1, x0, x1}, ys[4] = {y0, y0, y1, y1};
    for (int i = 0; i < 4; i++) {
        if (xs[i] < 0 || ys[i] < 0)
            memcpy(t[i], bw, sizeof bw);
        else if (fetch(c, s, &lv, (uint32_t)xs[i], (uint32_t)ys[i], t[i]))
            return CG_ERR_FAULT;
    }
    for (int k = 0; k < 4; k++) {
        float top = fl(t[0][k]) + (fl(t[1][k]) - fl(t[0][k])) * ax;
        float bot = fl(t[2][k]) + (fl(t[3][k]) - fl(t[2][k])) * ax;
        out[k] = top + (bot - top) * ay;
        raw[k] = t[0][k];
    }
    return 0;
}

/* Sample with LOD selection. lod_mode: 0 implicit (quad derivatives), 1 LZ,
 * 2 bias (lodv), 3 explicit level (lodv). */
static int sample(xctx *c, tsampler *s, const float *u, const float *v, unsigned lod_mode,
                  const float *lodv, uint32_t res[4][NV_WARP])
{
    bool is_int = false;
    for (int k = 0; k < 4; k++)
        if (s->f->bits[k] && (s->tic.type[k] == TY_SINT || s->tic.type[k] == TY_UINT))
            is_int = true;
    float bias = s->tsc.mip_lod_bias;
    float minl = s->tsc.min_lod_clamp, maxl = s->tsc.max_lod_clamp;
    float top = (float)(s->levels - 1);
    if (maxl > top)
        maxl = top;
    for (unsigned l = 0; l < NV_WARP; l++) {
        if (!(c->m >> l & 1))
            continue;
        float lod = 0;
        if (lod_mode == 0 || lod_mode == 2) {
            unsigned q = l & ~3u;
            float sx = s->tic.normalized_coords ? (float)s->w : 1.0f;
            float sy = s->tic.normalized_coords ? (float)s->h : 1.0f;
            float dux = (u[q + 1] - u[q]) * sx, dvx = (v[q + 1] - v[q]) * sy;
            float duy = (u[q + 2] - u[q]) * sx, dvy = (v[q + 2] - v[q]) * sy;
            float rx = sqrtf(dux * dux + dvx * dvx), ry = sqrtf(duy * duy + dvy * dvy);
            float rho = rx > ry ? rx : ry;
            lod = rho > 0 ? log2f(rho) : -INFINITY;
            if (lod != lod)
                lod = 0;
            if (lod_mode == 2)
                lod += lodv[l];
        } else if (lod_mode == 3) {
            lod = lodv[l];
        }
        lod += lod_mode == 1 ? 0 : bias;
        bool mag = !(lod > 0);
        if (lod < minl)
            lod = minl;
        if (lod > maxl)
            lod = maxl;
        if (!(lod >= 0))
            lod = 0;
        bool linear = !is_int && (mag ? s->tsc.mag_filter == 2 : s->tsc.min_filter == 2);
        unsigned mip = s->tsc.mip_filter;
        float o0[4], o1[4];
        uint32_t r0[4], r1[4];
        unsigned lv0 = 0;
        float t = 0;
        if (mip == 2 && !mag) {
            lv0 = (unsigned)floorf(lod + 0.5f);
        } else if (mip == 3 && !mag) {
            lv0 = (unsigned)floorf(lod);
            t = lod - (float)lv0;
        }
        if (lv0 >= s->levels)
            lv0 = s->levels - 1;
        if (sample_level(c, s, lv0, u[l], v[l], linear, o0, r0))
            return CG_ERR_FAULT;
        if (t > 0 && lv0 + 1 < s->levels) {
            if (sample_level(c, s, lv0 + 1, u[l], v[l], linear, o1, r1))
                return CG_ERR_FAULT;
            for (int k = 0; k < 4; k++)
                o0[k] += (o1[k] - o0[k]) * t;
        }
        for (int k = 0; k < 4; k++)
            res[k][l] = (is_int || (!linear && !(t > 0))) ? r0[k] : uf(o0[k]);
    }
    return 0;
}

/* TLD/TLDS: integer texel coordinates, level `lod`, no filtering; out of
 * range texels read as zero. */
static int fetch_int(xctx *c, tsampler *s, const uint32_t *x, const uint32_t *y,
                     const uint32_t *lod, uint32_t res[4][NV_WARP])
{
    for (unsigned l = 0; l < NV_WARP; l++) {
        if (!(c->m >> l & 1))
            continue;
        uint32_t lv = lod ? lod[l] : 0, t[4] = {0, 0, 0, 0};
        if (lv < s->levels) {
            tlevel L;
            level_of(s, lv, &L);
            if (x[l] < L.w && y[l] < L.h && fetch(c, s, &L, x[l], y[l], t))
                return CG_ERR_FAULT;
        }
        for (int k = 0; k < 4; k++)
            res[k][l] = t[k];
    }
    return 0;
}

static const uint32_t zero_lanes[NV_WARP];

static const uint32_t *reg(const nv_sass_warp *w, unsigned r)
{
    return r >= 255 ? zero_lanes : w->r[r];
}

/* TEXS/TLDS component selection (yuzu TEXS decoding): with Rd2 = RZ one
 * or two components into Rd, Rd+1; otherwise three or four, the first two
 * into Rd, Rd+1 and the rest into Rd2, Rd2+1. */
static const uint8_t texs_one[8] = {0x1, 0x2, 0x4, 0x8, 0x3, 0x9, 0xa, 0xc};
static const uint8_t texs_two[5] = {0x7, 0xb, 0xd, 0xe, 0xf};

static int write_texs(xctx *c, unsigned rd, unsigned rd2, unsigned code, uint32_t res[4][NV_WARP])
{
    unsigned mask;
    if (rd2 == 255)
        mask = texs_one[code & 7];
    else if (code < 5)
        mask = texs_two[code];
    else
        return nv_xunsupported(c);
    unsigned n = 0;
    for (unsigned k = 0; k < 4; k++) {
        if (!(mask >> k & 1))
            continue;
        unsigned r = n < 2 ? (rd == 255 ? 255 : rd + n) : (rd2 == 255 ? 255 : rd2 + n - 2);
        nv_xwrite(c->w, r, c->m, res[k]);
        n++;
    }
    return 0;
}

/* TEX/TLD/TLD4/TXQ: components of the 4-bit mask into Rd, Rd+1, ... */
static void write_mask(xctx *c, unsigned rd, unsigned mask, uint32_t res[4][NV_WARP])
{
    unsigned n = 0;
    for (unsigned k = 0; k < 4; k++)
        if (mask >> k & 1) {
            nv_xwrite(c->w, rd == 255 ? 255 : rd + n, c->m, res[k]);
            n++;
        }
}

int nv_xtex(xctx *c)
{
    const xins *in = c->in;
    const xopnd *o = in->o;
    nv_sass_warp *w = c->w;
    uint32_t res[4][NV_WARP];
    float u[NV_WARP], v[NV_WARP], lodv[NV_WARP];
    tsampler s;
    memset(res, 0, sizeof res);
    switch (in->handler) {
    case H_TEXS: case H_TLDS: {
        /* operands: Rd2, Rd, Ra, Rb, index, component code */
        if (in->flags & XF(F16))
            return nv_xunsupported(c);
        unsigned tg = in->mod[M_TEXS], ra = o[2].reg, rb = o[3].reg;
        const uint32_t *A = reg(w, ra), *A1 = reg(w, ra == 255 ? 255 : ra + 1), *B = reg(w, rb);
        if (in->handler == H_TEXS) {
            /* 0 1D_LZ, 1 2D, 2 2D_LZ, 3 2D_LL */
            if (tg > 3)
                return nv_xunsupported(c);
            if (sampler_load(c, o[4].val, &s))
                return CG_ERR_FAULT;
            LANES {
                u[l] = fl(A[l]);
                v[l] = tg == 0 ? 0.0f : tg == 3 ? fl(A1[l]) : fl(B[l]);
                lodv[l] = tg == 3 ? fl(B[l]) : 0;
            }
            unsigned lm = tg == 1 ? 0 : tg == 3 ? 3 : 1;
            if (sample(c, &s, u, v, lm, lodv, res))
                return CG_ERR_FAULT;
        } else {
            /* 0 1D_LZ, 2 2D_LZ, 5 2D_LL */
            if (tg != 0 && tg != 2 && tg != 5)
                return nv_xunsupported(c);
            if (sampler_load(c, o[4].val, &s))
                return CG_ERR_FAULT;
            const uint32_t *X = A, *Y = tg == 0 ? zero_lanes : tg == 5 ? A1 : B;
            if (fetch_int(c, &s, X, Y, tg == 5 ? B : NULL, res))
                return CG_ERR_FAULT;
        }
        return write_texs(c, o[1].reg, o[0].reg, o[5].val, res);
    }
    case H_TEX: case H_TLD: case H_TLD4: {
        /* operands: Rd, Ra, Rb, index, mask */
        unsigned dim = in->mod[M_TEXDIM], lm = in->mod[M_LOD];
        if ((dim != 0 && dim != 1) ||
            (in->flags & (XF(ARRAY) | XF(AOFFI) | XF(DC) | XF(MS) | XF(CL))) ||
            in->mod[M_TOFF])
            return nv_xunsupported(c);
        unsigned ra = o[1].reg, rb = o[2].reg;
        const uint32_t *A = reg(w, ra), *A1 = reg(w, ra == 255 ? 255 : ra + 1), *B = reg(w, rb);
        if (in->handler == H_TLD) {
            /* .LZ/.LL at 55: 0 LZ, 1 LL (level in Rb) */
            if (sampler_load(c, o[3].val, &s))
                return CG_ERR_FAULT;
            if (fetch_int(c, &s, A, dim == 0 ? zero_lanes : A1, lm ? B : NULL, res))
                return CG_ERR_FAULT;
        } else {
            if (in->handler == H_TEX && lm != 0 && lm != 1 && lm != 2 && lm != 3)
                return nv_xunsupported(c);
            if (sampler_load(c, o[3].val, &s))
                return CG_ERR_FAULT;
            LANES {
                u[l] = fl(A[l]);
                v[l] = dim == 0 ? 0.0f : fl(A1[l]);
                lodv[l] = fl(B[l]);
            }
            if (in->handler == H_TLD4) {
                /* the four texels of the bilinear footprint, one component */
                unsigned comp = in->mod[M_COMP];
                tlevel L;
                level_of(&s, 0, &L);
                for (unsigned l = 0; l < NV_WARP; l++) {
                    if (!(c->m >> l & 1))
                        continue;
                    double x = (s.tic.normalized_coords ? (double)u[l] * L.w : u[l]) - 0.5;
                    double y = (s.tic.normalized_coords ? (double)v[l] * L.h : v[l]) - 0.5;
                    double fx = floor(x), fy = floor(y);
                    fx = fx < -1e9 ? -1e9 : fx > 1e9 ? 1e9 : fx;
                    fy = fy < -1e9 ? -1e9 : fy > 1e9 ? 1e9 : fy;
                    /* gather order (GL textureGather): (0,1) (1,1) (1,0) (0,0) */
                    const int dx[4] = {0, 1, 1, 0}, dy[4] = {1, 1, 0, 0};
                    for (int k = 0; k < 4; k++) {
                        int32_t ix = wrap((int64_t)fx + dx[k], L.w, s.tsc.wrap_u);
                        int32_t iy = wrap((int64_t)fy + dy[k], L.h, s.tsc.wrap_v);
                        uint32_t t[4];
                        if (ix < 0 || iy < 0) {
                            t[comp] = uf(s.border[comp]);
                        } else if (fetch(c, &s, &L, (uint32_t)ix, (uint32_t)iy, t)) {
                            return CG_ERR_FAULT;
                        }
                        res[k][l] = t[comp];
                    }
                }
            } else {
                unsigned mode = lm == 0 ? 0 : lm == 1 ? 1 : lm == 2 ? 2 : 3;
                if (sample(c, &s, u, v, mode, lodv, res))
                    return CG_ERR_FAULT;
            }
        }
        write_mask(c, o[0].reg, o[4].val, res);
        return 0;
    }
    case H_TXQ: {
        /* operands: Rd, Ra, query, index, mask; query 1 = dimensions */
        if (o[2].val != 1)
            return nv_xunsupported(c);
        if (sampler_load(c, o[3].val, &s))
            return CG_ERR_FAULT;
        const uint32_t *A = reg(w, o[1].reg);
        for (unsigned l = 0; l < NV_WARP; l++) {
            uint32_t lv = A[l];
            uint32_t ww = lv < 32 ? s.w >> lv : 0, hh = lv < 32 ? s.h >> lv : 0;
            res[0][l] = ww ? ww : 1;
            res[1][l] = s.tic.texture_type == 0 ? 1 : (hh ? hh : 1);
            res[2][l] = 1;
            res[3][l] = s.levels;
        }
        write_mask(c, o[0].reg, o[4].val, res);
        return 0;
    }
    default:
        return nv_xunsupported(c);
    }
}
