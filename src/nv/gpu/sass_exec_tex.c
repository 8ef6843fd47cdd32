/* Maxwell warp interpreter: texture instructions (TEXS, TEX, TLDS, TLD,
 * TLD4, TXQ), one handler each (src/nv/tables/sass.def's handler column).
 * The handle comes from the constant buffer the env names, the TIC/TSC
 * entries from the pools through the address space, texels one by one
 * from GPU memory (pitch or block-linear, src/nv/gpu/blocklinear.c) in the
 * packed formats of src/nv/tables/tex_formats.def. Semantics:
 * docs/nv-sass-exec.md. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "core/bits.h"
#include "core/half.h"
#include "cmdgpu/nv3d.h"
#include "nv/nv_internal.h"
#include "nv/tables/tex_names.h"
#include "sass_exec_internal.h"
#include "sass_lanes.h"

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
#include "nv/tables/tex_formats.def"
#undef FMT
};


/* Level geometry: address and size of mip level `lv`. */
typedef struct tlevel {
    uint64_t base;
    uint32_t w, h;
    nv_bl bl;
    uint64_t row_bytes;       /* block-linear: a row of blocks; pitch: the pitch */
    unsigned bshift;          /* block-linear: log2 bytes of a block */
    uint32_t wmask, hmask;    /* w - 1 / h - 1 when a power of two, else 0 */
    bool lanes4;              /* 4-byte texels, base 4-aligned, under 2^31 bytes: g */
    nv_lanes_geom g;          /* (sass_lanes.h) */
    uint32_t d;               /* 3D: the level's slices (else 1) */
    unsigned bd;              /* block-linear 3D: log2 GOBs per block in z */
    uint64_t zplane;          /* 3D: bytes of a plane of blocks (pitch: of a slice) */
} tlevel;

typedef struct tsampler {
    cg_nv_tic tic;
    cg_nv_tsc tsc;
    const tfmt *f;
    uint32_t off[4];          /* component bit offsets */
    float scale[4];           /* UNORM/SNORM: 1 / max */
    bool bl;                  /* block linear */
    uint32_t w, h;            /* level 0 of the resource */
    unsigned first;           /* the view's first level: its LOD 0 (RES_VIEW_MIN_MIP) */
    unsigned levels;          /* the view's levels, first to RES_VIEW_MAX_MIP */
    float border[4];
    bool bytes8;              /* four 8-bit UNORM components at bytes 0..3 */
    bool ident;               /* swizzle R G B A */
    tlevel lv0;               /* the view's level 0 geometry */
    uint32_t d;               /* 3D: level 0 slices (else 1) */
    uint32_t layers;          /* arrays: layers; cube: 6; cube array: 6 x cubes */
    uint64_t layer_stride;    /* arrays and cubes: bytes from a layer to the next */
    uint32_t slice;           /* the layer or 3D slice being sampled (0: the first) */
    uint64_t pg_va;           /* the last 4 KiB page read in place, and where */
    const uint8_t *pg_ptr;
} tsampler;

#define NV_TCACHE_N 4
struct nv_sass_tex_cache {
    struct {
        bool valid;
        uint64_t va[2]; /* TIC and TSC entry addresses */
        tsampler s;     /* decoded (its tic.raw / tsc.raw are the words) */
    } e[NV_TCACHE_N];
    unsigned next;
};

static inline float fl(uint32_t u) { return cg__bitsf(u); }

static inline uint32_t uf(float f) { return cg__fbits(f); }

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
            out[k] = uf((float)p[k] * s->scale[0]);
        return;
    }
    /* swizzle sources: 0 ZERO, 2..5 R..A, 6 ONE_INT, 7 ONE_FLOAT */
    uint32_t ext[8] = {0, 0, 0, 0, 0, 0x3f800000u, 1, 0x3f800000u};
    uint32_t *c = ext + 2;
    if (s->bytes8) {
        for (unsigned k = 0; k < 4; k++)
            c[k] = uf((float)p[k] * s->scale[0]);
    }
    for (unsigned k = 0; k < 4 && !s->bytes8; k++) {
        unsigned w = s->f->bits[k];
        if (!w)
            continue;
        uint32_t v = get_bits(p, s->off[k], w);
        switch (s->tic.type[k]) {
        case NV_TIC_UNORM: case NV_TIC_UNORM_FORCE_FP16:
            c[k] = uf((float)v * s->scale[k]);
            break;
        case NV_TIC_SNORM: case NV_TIC_SNORM_FORCE_FP16: {
            int32_t sv = w >= 32 ? (int32_t)v : (int32_t)((v ^ (1u << (w - 1))) - (1u << (w - 1)));
            float f = (float)sv * s->scale[k];
            c[k] = uf(f < -1.0f ? -1.0f : f);
            break;
        }
        case NV_TIC_SINT:
            c[k] = w >= 32 ? v : (uint32_t)((v ^ (1u << (w - 1))) - (1u << (w - 1)));
            break;
        case NV_TIC_UINT:
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

static void level_of(const struct tsampler *s, unsigned lv, tlevel *out);
static uint64_t layer_stride_of(const struct tsampler *s);

/* The texture handle c[handle_bank][index * 4]: TIC index bits 19:0, TSC
 * index 31:20 (or the TIC index when linked_tsc), each checked against its
 * pool. */
static int handle_of(xctx *c, unsigned index, uint32_t *tic, uint32_t *tsc)
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
    *tic = handle & 0xfffff;
    *tsc = t->linked_tsc ? *tic : handle >> 20;
    if (*tic > t->tic_max || *tsc > t->tsc_max)
        return nv_xfault(c, CG_FAULT_BAD_STATE, 0,
                         "texture handle 0x%08x: TIC %u / TSC %u past the pools (%u / %u) at 0x%llx",
                         handle, *tic, *tsc, t->tic_max, t->tsc_max,
                         (unsigned long long)nv_xpc_bytes(c->pc));
    return 0;
}

/* A cached decoding of the entries at va[0] (TIC) and va[1] (TSC), when
 * both are plain readable memory holding the same words. */
static bool cache_find(const nv_sass_tex_cache *tc, cg_vas *vas, const uint64_t va[2],
                       tsampler *s)
{
    uint8_t *pw[2];
    if (!(tc && cg__vas_span(vas, va[0], 32, false, &pw[0]) == 32 &&
          cg__vas_span(vas, va[1], 32, false, &pw[1]) == 32))
        return false;
    for (unsigned i = 0; i < NV_TCACHE_N; i++) {
        const tsampler *h = &tc->e[i].s;
        if (tc->e[i].valid && tc->e[i].va[0] == va[0] && tc->e[i].va[1] == va[1] &&
            !memcmp(h->tic.raw, pw[0], 32) && !memcmp(h->tsc.raw, pw[1], 32)) {
            *s = *h;
            return true;
        }
    }
    return false;
}

/* Read and decode the TIC and TSC entries through the address space (an
 * unreadable entry faults with its address). */
static int pool_read(xctx *c, const uint64_t va[2], tsampler *s)
{
    const nv_sass_env *e = c->env;
    uint32_t w[8];
    uint64_t bad;
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
    return 0;
}

/* What the texel decoder needs of the format: its row of the packed
 * formats (pitch or block-linear headers of 1D, 2D, 3D, CUBE, 2D_ARRAY,
 * 2D_NO_MIPMAP and CUBE_ARRAY textures), each component's bit offset and normalisation scale (UNORM 1 /
 * (2^b - 1), SNORM 1 / (2^(b-1) - 1)), a supported swizzle. */
static int sampler_format(xctx *c, tsampler *s)
{
    s->f = NULL;
    for (size_t i = 0; i < sizeof tfmts / sizeof tfmts[0]; i++)
        if (tfmts[i].code == s->tic.format)
            s->f = &tfmts[i];
    unsigned hv = s->tic.header_version;
    if (!s->f || !s->f->packed || (hv != CG_NV_TIC_PITCH && hv != CG_NV_TIC_BLOCKLINEAR) ||
        s->tic.msaa_mode || !(s->tic.texture_type <= 3 || s->tic.texture_type == 5 ||
                              s->tic.texture_type == 7 || s->tic.texture_type == 8))
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
        if (b && (ty == 0 || (ty == NV_TIC_FLOAT && b != 16 && b != 32)))
            return nv_xfault(c, CG_FAULT_UNSUPPORTED, 0,
                             "not supported yet: texture component type %u of %u bits at 0x%llx",
                             ty, b, (unsigned long long)nv_xpc_bytes(c->pc));
        s->scale[k] = 0;
        if (b && (ty == NV_TIC_UNORM || ty == NV_TIC_UNORM_FORCE_FP16))
            s->scale[k] = (float)(1.0 / ((double)(1ull << b) - 1));
        else if (b > 1 && (ty == NV_TIC_SNORM || ty == NV_TIC_SNORM_FORCE_FP16))
            s->scale[k] = (float)(1.0 / ((double)(1ull << (b - 1)) - 1));
    }
    for (unsigned i = 0; i < 4; i++)
        if (s->tic.swizzle[i] == 1 || s->tic.swizzle[i] > 7)
            return nv_xfault(c, CG_FAULT_UNSUPPORTED, 0,
                             "not supported yet: texture swizzle %u at 0x%llx", s->tic.swizzle[i],
                             (unsigned long long)nv_xpc_bytes(c->pc));
    return 0;
}

/* Read the handle, the TIC and TSC entries (or their cached decoding);
 * check what the sampler can do; note its geometry and fast paths. */
static int sampler_load(xctx *c, unsigned index, tsampler *s)
{
    const nv_sass_env *e = c->env;
    const nv_sass_tex_env *t = &e->tex;
    uint32_t tic = 0, tsc = 0;
    if (handle_of(c, index, &tic, &tsc))
        return CG_ERR_FAULT;
    uint64_t va[2] = {t->tic_va + (uint64_t)tic * 32, t->tsc_va + (uint64_t)tsc * 32};
    nv_sass_tex_cache *tc = e->tcache;
    if (cache_find(tc, e->vas, va, s))
        return 0;
    if (pool_read(c, va, s) || sampler_format(c, s))
        return CG_ERR_FAULT;
    unsigned hv = s->tic.header_version;
    s->bytes8 = true;
    for (unsigned k = 0; k < 4; k++)
        if (s->f->bits[k] != 8 || s->off[k] != 8 * k || s->tic.type[k] != NV_TIC_UNORM)
            s->bytes8 = false;
    s->ident = s->tic.swizzle[0] == 2 && s->tic.swizzle[1] == 3 && s->tic.swizzle[2] == 4 &&
               s->tic.swizzle[3] == 5;
    s->pg_va = UINT64_MAX;
    s->pg_ptr = NULL;
    s->bl = hv == CG_NV_TIC_BLOCKLINEAR;
    s->w = s->tic.width ? s->tic.width : 1;
    s->h = s->tic.texture_type == 0 ? 1 : (s->tic.height ? s->tic.height : 1);
    /* 3D: W5 depth-1 is the slices; arrays: the layers; cubes: the cubes
     * (Mesa nvc0_tex.c gm107_create_texture_view: depth /= 6 for CUBE and
     * CUBE_ARRAY), each six faces in layers +X -X +Y -Y +Z -Z */
    unsigned ty = s->tic.texture_type;
    s->d = ty == 2 ? s->tic.depth : 1;
    s->layers = ty == 5 ? s->tic.depth : ty == 3 ? 6 : ty == 8 ? 6 * s->tic.depth : 1;
    s->slice = 0;
    /* The view's levels (Mesa's nvc0 writes them: nvc0_tex.c tic[7] =
     * last_level << 4 | first_level; yuzu makes the view from the same
     * fields): LOD 0 is level RES_VIEW_MIN_MIP of the resource, the last is
     * RES_VIEW_MAX_MIP, within the resource's MAX_MIP_LEVEL. Pitch
     * textures have one level. */
    s->first = 0;
    s->levels = 1;
    if (s->bl) {
        unsigned last = s->tic.res_view_max_mip < s->tic.max_mip_level ? s->tic.res_view_max_mip
                                                                       : s->tic.max_mip_level;
        s->first = s->tic.res_view_min_mip <= last ? s->tic.res_view_min_mip : last;
        s->levels = last - s->first + 1;
    }
    for (unsigned k = 0; k < 4; k++)
        s->border[k] = s->tsc.border_color[k];
    if (s->tsc.wrap_u > 4 || s->tsc.wrap_v > 4 || (ty == 2 && s->tsc.wrap_p > 4))
        return nv_xfault(c, CG_FAULT_UNSUPPORTED, 0,
                             "not supported yet: texture wrap mode %u/%u/%u at 0x%llx",
                             s->tsc.wrap_u, s->tsc.wrap_v, s->tsc.wrap_p,
                             (unsigned long long)nv_xpc_bytes(c->pc));
    s->layer_stride = s->layers > 1 ? layer_stride_of(s) : 0;
    s->lv0.w = 0;
    level_of(s, 0, &s->lv0);
    if (tc) {
        tc->e[tc->next].valid = true;
        tc->e[tc->next].va[0] = va[0];
        tc->e[tc->next].va[1] = va[1];
        tc->e[tc->next].s = *s;
        tc->next = (tc->next + 1) % NV_TCACHE_N;
    }
    return 0;
}

/* Decoded TIC/TSC pairs kept across warps (sampler_load revalidates them
 * against the pool words on every use). */
nv_sass_tex_cache *nv_sass_tex_cache_new(void)
{
    return calloc(1, sizeof(nv_sass_tex_cache));
}

void nv_sass_tex_cache_free(nv_sass_tex_cache *tc)
{
    free(tc);
}

/* Level lv of the view (level first + lv of the resource). */
static void level_of(const tsampler *s, unsigned lv, tlevel *out)
{
    if (lv == 0 && s->lv0.w) {
        *out = s->lv0;
        return;
    }
    lv += s->first;
    uint64_t base = s->tic.address;
    uint32_t w = s->w, h = s->h, d = s->d;
    unsigned bh = s->tic.block_h, bd = s->tic.texture_type == 2 ? s->tic.block_d : 0;
    for (unsigned i = 0;; i++) {
        /* the block height and depth shrink with small levels (yuzu
         * texture_cache AdjustMipBlockSize; Mesa nvc0_miptree.c picks each
         * level's tile size by the same thresholds) */
        while (i > 0 && bh > 0 && h <= (4u << bh))
            bh--;
        while (i > 0 && bd > 0 && d <= (1u << bd) / 2)
            bd--;
        nv_bl b = {.width = w * s->f->bytes, .height = h, .depth = d, .bh = bh, .bd = bd};
        if (i == lv || !s->bl) {
            out->base = base;
            out->w = w;
            out->h = h;
            out->d = d;
            out->bd = bd;
            out->bl = b;
            /* nv_bl_offset split into a column, a row and a slice part:
             * block ((z >> bd) * blocks_y + y / rows) * blocks_x + x / 64 of
             * 512 << (bh + bd) bytes, GOB (z & (2^bd - 1)) << bh + the row's
             * in it; the slice part is added to base by level_at */
            out->bshift = 9 + bh + bd;
            out->row_bytes = s->bl ? (((uint64_t)b.width + 63) / 64) << out->bshift
                                   : s->tic.pitch;
            out->zplane = s->bl ? out->row_bytes * (((uint64_t)h + (8u << bh) - 1) >> (3 + bh))
                                : (uint64_t)s->tic.pitch * h;
            out->wmask = (w & (w - 1)) == 0 ? w - 1 : 0;
            out->hmask = (h & (h - 1)) == 0 ? h - 1 : 0;
            /* the bytes texel offsets reach: below 2^31 for the lane
             * kernels' 32-bit offsets */
            uint64_t rows = s->bl ? ((uint64_t)h + (8u << bh) - 1) >> (3 + bh) : h - 1;
            uint64_t extent = rows * out->row_bytes + (s->bl ? 0 : (uint64_t)w * 4);
            out->lanes4 = s->f->bytes == 4 && (base & 3) == 0 && out->row_bytes < (1ull << 31) &&
                          extent < (1ull << 31);
            out->g = (nv_lanes_geom){.bl = s->bl, .row_bytes = (uint32_t)out->row_bytes,
                                     .bshift = out->bshift, .bh = bh,
                                     .base_lo = (uint32_t)(base & 0xfff)};
            return;
        }
        base += nv_bl_size(&b);
        w = w > 1 ? w / 2 : 1;
        h = h > 1 ? h / 2 : 1;
        d = d > 1 ? d / 2 : 1;
    }
}

/* Bytes from one array layer (or cube face) to the next: the resource's
 * levels 0..MAX_MIP_LEVEL, rounded up to a level-0 block (Mesa
 * nvc0_miptree.c: layer_stride = align(total_size, NVC0_TILE_SIZE(level 0
 * tile mode)); yuzu CalculateLayerSize aligns the same way); pitch
 * textures: pitch x height. */
static uint64_t layer_stride_of(const tsampler *s)
{
    if (!s->bl)
        return (uint64_t)s->tic.pitch * s->h;
    uint32_t w = s->w, h = s->h;
    unsigned bh = s->tic.block_h;
    uint64_t sum = 0;
    for (unsigned i = 0; i <= s->tic.max_mip_level; i++) {
        while (i > 0 && bh > 0 && h <= (4u << bh))
            bh--;
        nv_bl b = {.width = w * s->f->bytes, .height = h, .depth = 1, .bh = bh, .bd = 0};
        sum += nv_bl_size(&b);
        w = w > 1 ? w / 2 : 1;
        h = h > 1 ? h / 2 : 1;
    }
    uint64_t al = 512ull << s->tic.block_h;
    return (sum + al - 1) / al * al;
}

/* Level lvn of the layer or 3D slice s->slice: level_of with the base
 * moved to it (a 3D slice past the level's depth is its last). */
static void level_at(const tsampler *s, unsigned lvn, tlevel *out)
{
    level_of(s, lvn, out);
    if (!s->slice)
        return;
    uint64_t off;
    if (s->tic.texture_type == 2) {
        uint32_t z = s->slice < out->d ? s->slice : out->d - 1;
        off = s->bl ? (uint64_t)(z >> out->bd) * out->zplane +
                          ((uint64_t)(z & ((1u << out->bd) - 1)) << (9 + out->bl.bh))
                    : (uint64_t)z * out->zplane;
    } else {
        off = (uint64_t)s->slice * s->layer_stride;
    }
    out->base += off;
    out->g.base_lo = (uint32_t)(out->base & 0xfff);
}

/* Byte offset of texel (x, y) (in range) in its level: nv_bl_offset of
 * byte x * bytes, row y, slice 0 for block-linear levels. */
static inline uint64_t texel_off(const tsampler *s, const tlevel *lv, uint32_t x, uint32_t y)
{
    if (!s->bl)
        return (uint64_t)y * lv->row_bytes + (uint64_t)x * s->f->bytes;
    uint32_t xb = x * s->f->bytes;
    unsigned bh = lv->bl.bh;
    return ((uint64_t)(xb / 64) << lv->bshift) + (uint64_t)(y >> (3 + bh)) * lv->row_bytes +
           ((uint64_t)((y >> 3) & ((1u << bh) - 1)) << 9) + ((xb % 64) / 32) * 256 +
           ((y % 8) / 2) * 64 + ((xb % 32) / 16) * 32 + (y % 2) * 16 + xb % 16;
}

/* The bytes of texel (x, y) of a level (in range): in place, through a
 * per-instruction cache of one page (nothing writes memory while one
 * instruction samples), or read into buf. NULL on a fault (raised), or
 * with `in_place_only` when the texel is not plain memory (nothing done). */
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
static inline const uint8_t *texel_ptr(xctx *c, tsampler *s, const tlevel *lv, uint32_t x,
                                       uint32_t y, uint8_t buf[16], bool in_place_only)
{
    uint64_t va = lv->base + texel_off(s, lv, x, y), pg = va & ~(uint64_t)0xfff;
    unsigned nb = s->f->bytes;
    uint8_t *sp;
    cg_vas *vas = c->env->vas;
    if ((va & 0xfff) + nb <= 0x1000) {
        if (pg == s->pg_va)
            return s->pg_ptr + (va - pg);
        if (cg__vas_span(vas, pg, 0x1000, false, &sp) == 0x1000) {
            s->pg_va = pg;
            s->pg_ptr = sp;
            return sp + (va - pg);
        }
    }
    if (cg__vas_span(vas, va, nb, false, &sp) == nb)
        return sp;
    if (in_place_only)
        return NULL;
    uint64_t bad;
    cg_fault_kind k = cg_vas_check(vas, va, nb, false, &bad);
    if (k != CG_FAULT_NONE) {
        tex_fault(c, k, bad, "memory unreadable");
        return NULL;
    }
    if (cg_vas_read(vas, va, buf, nb, &c->env->agent)) {
        tex_fault(c, CG_FAULT_UNMAPPED, va, "read failed");
        return NULL;
    }
    return buf;
}

/* Fetch texel (x, y) of a level (in range), decoded. 0 or a fault. */
static int fetch(xctx *c, tsampler *s, const tlevel *lv, uint32_t x, uint32_t y,
                 uint32_t out[4])
{
    uint8_t buf[16];
    const uint8_t *p = texel_ptr(c, s, lv, x, y, buf, false);
    if (!p)
        return CG_ERR_FAULT;
    texel_decode(s, p, out);
    return 0;
}

/* The texels of the lanes of `mask` at (xs[l], ys[l]) (-1: the border)
 * into t[k][l]: decoded words, or (four 8-bit UNORM components in order)
 * gathered as raw words and converted in one lane loop. 0, or the first
 * fault in lane order; with `in_place_only`, 1 (nothing raised) as soon as
 * a texel is not plain memory. */
static int gather(xctx *c, tsampler *s, const tlevel *lv, uint32_t mask, const int32_t *xs,
                  const int32_t *ys, uint32_t t[4][NV_WARP], bool in_place_only)
{
    uint32_t bw[4];
    for (int k = 0; k < 4; k++)
        bw[k] = uf(s->border[k]);
    uint8_t buf[16];
    if (!(s->bytes8 && s->ident)) {
        for (uint32_t m = mask; m; m &= m - 1) {
            unsigned l = (unsigned)__builtin_ctz(m);
            uint32_t tx[4];
            if (xs[l] < 0 || ys[l] < 0) {
                memcpy(tx, bw, sizeof bw);
            } else {
                const uint8_t *p =
                    texel_ptr(c, s, lv, (uint32_t)xs[l], (uint32_t)ys[l], buf, in_place_only);
                if (!p)
                    return in_place_only ? 1 : CG_ERR_FAULT;
                texel_decode(s, p, tx);
            }
            for (int k = 0; k < 4; k++)
                t[k][l] = tx[k];
        }
        return 0;
    }
    const nv_lanes_ops *L = nv_lanes();
    uint32_t raw[NV_WARP];
    memset(raw, 0, sizeof raw);
    if (lv->lanes4) {
        /* every texel's page and place in it, lanes together; when they lie
         * in at most 16 pages of plain memory, the words are read from
         * there (reads in place have no effects: any order is the lane
         * order) */
        uint32_t pg[NV_WARP], at[NV_WARP], lo, hi;
        L->pages(&lv->g, mask, xs, ys, pg, at, &lo, &hi);
        bool ok = lo > hi || hi - lo < 16;
        const uint8_t *pp[16];
        uint32_t n = lo > hi ? 0 : hi - lo + 1;
        uint64_t pg0 = (lv->base & ~(uint64_t)0xfff) + ((uint64_t)lo << 12);
        for (uint32_t i = 0; ok && i < n; i++) {
            uint64_t va = pg0 + ((uint64_t)i << 12);
            uint8_t *sp;
            if (va == s->pg_va) {
                pp[i] = s->pg_ptr;
            } else if (cg__vas_span(c->env->vas, va, 0x1000, false, &sp) == 0x1000) {
                pp[i] = s->pg_ptr = sp;
                s->pg_va = va;
            } else {
                ok = false;
            }
        }
        if (ok) {
            L->load(pp, lo, n, pg, at, raw);
            L->unorm8(mask, xs, ys, raw, s->scale[0], bw, t);
            return 0;
        }
    }
    /* lane by lane: each texel through texel_ptr (in place, or read with
     * its effects and faults, in lane order); the previous lane's texel,
     * when read in place (no effects), reused */
    int32_t px = -1, py = -1;
    uint32_t praw = 0;
    for (uint32_t m = mask; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctz(m);
        if (xs[l] < 0 || ys[l] < 0)
            continue;
        if (xs[l] == px && ys[l] == py) {
            raw[l] = praw;
            continue;
        }
        const uint8_t *p =
            texel_ptr(c, s, lv, (uint32_t)xs[l], (uint32_t)ys[l], buf, in_place_only);
        if (!p)
            return in_place_only ? 1 : CG_ERR_FAULT;
        raw[l] = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
                 (uint32_t)p[3] << 24;
        if (p != buf) {
            px = xs[l];
            py = ys[l];
            praw = raw[l];
        } else {
            px = py = -1;
        }
    }
    L->unorm8(mask, xs, ys, raw, s->scale[0], bw, t);
    return 0;
}

/* Sample level `lvn` at (u[l], v[l]) (normalized unless the TIC says not)
 * for the lanes of `mask`: POINT gives the texel's words, LINEAR the bits of
 * the filtered floats. Texels are read lane by lane in footprint order, so
 * the fault is the first in that order. The coordinate, wrap and filter
 * stages are loops over all 32 lanes. */
static int sample_lv(xctx *c, tsampler *s, unsigned lvn, bool linear, uint32_t mask,
                     const float *u, const float *v, uint32_t out[4][NV_WARP])
{
    tlevel lv;
    level_at(s, lvn, &lv);
    unsigned wu = s->tsc.wrap_u, wv = s->tsc.wrap_v;
    bool norm = s->tic.normalized_coords;
    const nv_lanes_ops *L = nv_lanes();
    /* CLAMP_OGL: the coordinate clamped to [0, 1] (or the level's size) */
    nv_lanes_coord kc = {.sw = norm ? (double)lv.w : 1.0, .sh = norm ? (double)lv.h : 1.0,
                         .ow = linear ? 0.5 : 0.0, .cu = norm ? 1.0f : (float)lv.w,
                         .cv = norm ? 1.0f : (float)lv.h, .clamp_u = wu == 4,
                         .clamp_v = wv == 4, .linear = linear};
    int32_t fxs[NV_WARP], fys[NV_WARP];
    float ax[NV_WARP], ay[NV_WARP];
    L->coords(&kc, u, v, fxs, fys, ax, ay);
    int32_t x0[NV_WARP], y0[NV_WARP];
    L->wrap(fxs, 0, lv.w, lv.wmask, wu, x0);
    L->wrap(fys, 0, lv.h, lv.hmask, wv, y0);
    if (!linear)
        return gather(c, s, &lv, mask, x0, y0, out, false) ? CG_ERR_FAULT : 0;
    int32_t x1[NV_WARP], y1[NV_WARP];
    L->wrap(fxs, 1, lv.w, lv.wmask, wu, x1);
    L->wrap(fys, 1, lv.h, lv.hmask, wv, y1);
    /* the footprint (x0,y0) (x1,y0) (x0,y1) (x1,y1), each lane's four in
     * that order */
    uint32_t t[4][4][NV_WARP]; /* [texel][component][lane] */
    if (mask != 0xffffffffu)
        memset(t, 0, sizeof t);
    const int32_t *xs[4] = {x0, x1, x0, x1}, *ys[4] = {y0, y0, y1, y1};
    /* Texel by texel over the lanes when every texel is plain memory (reads
     * in place have no effects, so their order does not matter); otherwise
     * (sparse, coherency-checked or faulting memory) lane by lane, texel by
     * texel, the order reads and faults always had. */
    int rc = 1;
    if (mask & (mask - 1))
        for (int i = 0; i < 4 && (rc = gather(c, s, &lv, mask, xs[i], ys[i], t[i], true)) == 0;
             i++)
            ;
    if (rc)
        for (uint32_t m = mask; m; m &= m - 1) {
            uint32_t one = m & -m;
            for (int i = 0; i < 4; i++)
                if (gather(c, s, &lv, one, xs[i], ys[i], t[i], false))
                    return CG_ERR_FAULT;
        }
    for (int k = 0; k < 4; k++) {
        /* lanes outside the mask filter what the array holds; not stored */
        float r[NV_WARP];
        LANES {
            float a0 = fl(t[0][k][l]), a1 = fl(t[1][k][l]);
            float b0 = fl(t[2][k][l]), b1 = fl(t[3][k][l]);
            float top = a0 + (a1 - a0) * ax[l];
            float bot = b0 + (b1 - b0) * ax[l];
            r[l] = top + (bot - top) * ay[l];
        }
        for (uint32_t m = mask; m; m &= m - 1) {
            unsigned l = (unsigned)__builtin_ctz(m);
            out[k][l] = uf(r[l]);
        }
    }
    return 0;
}

/* Level, filter and blend factor of one LOD value. */
typedef struct tsel {
    uint8_t lv, linear;
    float t;
} tsel;

static tsel select_lod(const tsampler *s, float lod, bool is_int, float minl, float maxl)
{
    bool mag = !(lod > 0);
    if (lod < minl)
        lod = minl;
    if (lod > maxl)
        lod = maxl;
    if (!(lod >= 0))
        lod = 0;
    tsel r = {0, !is_int && (mag ? s->tsc.mag_filter == 2 : s->tsc.min_filter == 2), 0};
    unsigned mip = s->tsc.mip_filter, lv0 = 0;
    if (mip == 2 && !mag) {
        lv0 = (unsigned)floorf(lod + 0.5f);
    } else if (mip == 3 && !mag) {
        lv0 = (unsigned)floorf(lod);
        r.t = lod - (float)lv0;
    }
    if (lv0 >= s->levels)
        lv0 = s->levels - 1;
    r.lv = (uint8_t)lv0;
    return r;
}

/* How sample() picks the level (in TEX's LOD field order): from the quad's
 * derivatives, level 0, derivatives + the bias operand, the level operand. */
enum { LOD_IMPLICIT, LOD_LZ, LOD_LB, LOD_LL };

/* What LOD selection needs of a sampler: integer formats (never filtered
 * or blended), the TSC bias and LOD clamps (max at most the last level),
 * and the scales from normalized coordinates to texels. */
typedef struct lodctx {
    bool is_int;
    float bias, minl, maxl;
    float sx, sy;
} lodctx;

static void lod_ctx(const tsampler *s, lodctx *L)
{
    L->is_int = false;
    for (int k = 0; k < 4; k++)
        if (s->f->bits[k] && (s->tic.type[k] == NV_TIC_SINT || s->tic.type[k] == NV_TIC_UINT))
            L->is_int = true;
    L->bias = s->tsc.mip_lod_bias;
    L->minl = s->tsc.min_lod_clamp, L->maxl = s->tsc.max_lod_clamp;
    float top = (float)(s->levels - 1);
    if (L->maxl > top)
        L->maxl = top;
    L->sx = s->tic.normalized_coords ? (float)s->w : 1.0f;
    L->sy = s->tic.normalized_coords ? (float)s->h : 1.0f;
}

/* Implicit LOD when every active quad has the first one's derivatives
 * (bits): the selection from the first quad, in *one. false when the
 * quads differ (the per-quad loop below then selects). */
static bool uniform_lod(const xctx *c, const tsampler *s, const float *u, const float *v,
                        const lodctx *L, tsel *one)
{
    unsigned q0 = (unsigned)__builtin_ctz(c->m) & ~3u;
    float sx = L->sx, sy = L->sy;
    float d0[4] = {(u[q0 + 1] - u[q0]) * sx, (v[q0 + 1] - v[q0]) * sy,
                   (u[q0 + 2] - u[q0]) * sx, (v[q0 + 2] - v[q0]) * sy};
    bool same = true;
    for (unsigned q = q0 + 4; q < NV_WARP && same; q += 4) {
        if (!(c->m >> q & 15))
            continue;
        float d[4] = {(u[q + 1] - u[q]) * sx, (v[q + 1] - v[q]) * sy,
                      (u[q + 2] - u[q]) * sx, (v[q + 2] - v[q]) * sy};
        same = !memcmp(d, d0, sizeof d);
    }
    if (!same)
        return false;
    float rx = sqrtf(d0[0] * d0[0] + d0[1] * d0[1]);
    float ry = sqrtf(d0[2] * d0[2] + d0[3] * d0[3]);
    float rho = rx > ry ? rx : ry, lod = rho > 0 ? log2f(rho) : -INFINITY;
    if (lod != lod)
        lod = 0;
    *one = select_lod(s, lod + L->bias, L->is_int, L->minl, L->maxl);
    return true;
}

/* The LOD of each 2x2 quad (lanes 4k..4k+3: +x, +y neighbours; OpenGL 4.6
 * section 8.14: rho = the larger scaled derivative length, log2(rho)),
 * computed again only when a quad's derivatives differ from the previous
 * one's. Implicit LOD: one selection per quad (qsel), and whether they
 * all pick the first one's level and filter (*uniform, f0) or any blends
 * two levels (*blend). LB adds the lane's bias operand, LL takes it as the
 * level: a selection per lane (sel). */
static void quad_lods(const xctx *c, const tsampler *s, const float *u, const float *v,
                      unsigned lod_mode, const float *lodv, const lodctx *L, tsel *sel,
                      tsel *qsel, bool *uniform, bool *blend, tsel *f0)
{
    uint32_t pd[4] = {0, 0, 0, 0}; /* the previous quad's derivatives */
    bool have = false, fresh = false, first = true;
    float plod = 0, sx = L->sx, sy = L->sy;
    tsel pone = {0, 0, 0};
    for (unsigned q = 0; q < NV_WARP; q += 4) {
        unsigned qm = c->m >> q & 15;
        if (!qm)
            continue;
        float lod = 0;
        if (lod_mode != LOD_LL) {
            float dux = (u[q + 1] - u[q]) * sx, dvx = (v[q + 1] - v[q]) * sy;
            float duy = (u[q + 2] - u[q]) * sx, dvy = (v[q + 2] - v[q]) * sy;
            uint32_t d[4] = {uf(dux), uf(dvx), uf(duy), uf(dvy)};
            if (!have || memcmp(d, pd, sizeof d)) {
                /* not the previous quad's derivatives (bits): its LOD */
                float rx = sqrtf(dux * dux + dvx * dvx), ry = sqrtf(duy * duy + dvy * dvy);
                float rho = rx > ry ? rx : ry;
                plod = rho > 0 ? log2f(rho) : -INFINITY;
                if (plod != plod)
                    plod = 0;
                memcpy(pd, d, sizeof d);
                have = fresh = true;
            }
            lod = plod;
        }
        if (lod_mode == LOD_IMPLICIT) {
            /* the same selection for the quad's lanes (and for the next
             * quad with the same derivatives) */
            if (fresh)
                pone = select_lod(s, lod + L->bias, L->is_int, L->minl, L->maxl);
            fresh = false;
            qsel[q / 4] = pone;
            if (first)
                *f0 = pone, first = false;
            else if (pone.lv != f0->lv || pone.linear != f0->linear)
                *uniform = false;
            if (pone.t > 0 && pone.lv + 1u < s->levels)
                *blend = true;
            continue;
        }
        for (unsigned l = q; l < q + 4; l++)
            if (qm >> (l - q) & 1)
                sel[l] = select_lod(s, (lod_mode == LOD_LB ? lod + lodv[l] : lodv[l]) + L->bias,
                                    L->is_int, L->minl, L->maxl);
    }
}

/* Lane by lane, in lane order: each lane's level (and, blending, the next
 * one, mixed by t; integer formats keep the first level's texel). */
static int sample_lanes(xctx *c, tsampler *s, const float *u, const float *v, const tsel *sel,
                        bool is_int, uint32_t res[4][NV_WARP])
{
    for (uint32_t m = c->m; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctz(m);
        uint32_t r0[4][NV_WARP], r1[4][NV_WARP];
        memset(r0, 0, sizeof r0);
        memset(r1, 0, sizeof r1);
        if (sample_lv(c, s, sel[l].lv, sel[l].linear, 1u << l, u, v, r0))
            return CG_ERR_FAULT;
        float t = sel[l].t;
        if (t > 0 && sel[l].lv + 1u < s->levels) {
            if (sample_lv(c, s, sel[l].lv + 1u, sel[l].linear, 1u << l, u, v, r1))
                return CG_ERR_FAULT;
            for (int k = 0; k < 4; k++) {
                float o0 = fl(r0[k][l]), o1 = fl(r1[k][l]);
                /* integer formats sample the second level, keep the first */
                res[k][l] = is_int ? r0[k][l] : uf(o0 + (o1 - o0) * t);
            }
        } else {
            for (int k = 0; k < 4; k++)
                res[k][l] = r0[k][l];
        }
    }
    return 0;
}

/* Sample with LOD selection: lod_mode LOD_* (LB and LL read lodv). The
 * implicit LOD is computed once per 2x2 quad (every lane of a quad has the
 * same), LZ once. When every lane samples one level with one filter (the
 * usual case) they go through sample_lv together; otherwise lane by lane,
 * in the order the texels were always read. */
static int sample(xctx *c, tsampler *s, const float *u, const float *v, unsigned lod_mode,
                  const float *lodv, uint32_t res[4][NV_WARP])
{
    if (!c->m)
        return 0;
    lodctx L;
    lod_ctx(s, &L);
    tsel sel[NV_WARP], qsel[NV_WARP / 4]; /* per lane; implicit LOD: per quad */
    if (lod_mode == LOD_LZ) {
        tsel one = select_lod(s, 0, L.is_int, L.minl, L.maxl);
        if (!(one.t > 0 && one.lv + 1u < s->levels)) /* one level for every lane */
            return sample_lv(c, s, one.lv, one.linear, c->m, u, v, res);
        LANES sel[l] = one;
    }
    bool uniform = true, blend = false;
    tsel f0 = {0, 0, 0};
    if (lod_mode == LOD_IMPLICIT) {
        /* when every active quad has the first one's derivatives, the loop
         * below would select one level for all from the first: done here
         * without the per-quad records */
        tsel one;
        if (uniform_lod(c, s, u, v, &L, &one) && !(one.t > 0 && one.lv + 1u < s->levels))
            return sample_lv(c, s, one.lv, one.linear, c->m, u, v, res);
    }
    if (lod_mode != LOD_LZ)
        quad_lods(c, s, u, v, lod_mode, lodv, &L, sel, qsel, &uniform, &blend, &f0);
    unsigned f = (unsigned)__builtin_ctz(c->m);
    if (lod_mode != LOD_IMPLICIT) /* LZ with a blend, bias and explicit LOD: lane by lane */
        for (uint32_t m = c->m; m; m &= m - 1) {
            unsigned l = (unsigned)__builtin_ctz(m);
            if (sel[l].lv != sel[f].lv || sel[l].linear != sel[f].linear)
                uniform = false;
            if (sel[l].t > 0 && sel[l].lv + 1u < s->levels)
                blend = true;
        }
    if (lod_mode == LOD_IMPLICIT) {
        /* the quads' selections: the first active quad's is lane f's */
        if (uniform && !blend)
            return sample_lv(c, s, f0.lv, f0.linear, c->m, u, v, res);
        for (uint32_t m = c->m; m; m &= m - 1)
            sel[__builtin_ctz(m)] = qsel[__builtin_ctz(m) / 4];
    }
    if (uniform && !blend)
        return sample_lv(c, s, sel[f].lv, sel[f].linear, c->m, u, v, res);
    return sample_lanes(c, s, u, v, sel, L.is_int, res);
}

/* TLD/TLDS: integer texel coordinates, level `lod`, no filtering; out of
 * range texels read as zero. */
static int fetch_int(xctx *c, tsampler *s, const uint32_t *x, const uint32_t *y,
                     const uint32_t *z, const uint32_t *lod, uint32_t res[4][NV_WARP])
{
    bool is3d = s->tic.texture_type == 2;
    for (unsigned l = 0; l < NV_WARP; l++) {
        if (!(c->m >> l & 1))
            continue;
        uint32_t lv = lod ? lod[l] : 0, t[4] = {0, 0, 0, 0};
        /* z: the 3D slice, or the array layer in bits 15:0 */
        uint32_t zz = z ? (is3d ? z[l] : z[l] & 0xffff) : 0;
        if (lv < s->levels && (is3d || zz < s->layers)) {
            tlevel L;
            s->slice = zz;
            level_at(s, lv, &L);
            s->slice = 0;
            if (x[l] < L.w && y[l] < L.h && (!is3d || zz < L.d) &&
                fetch(c, s, &L, x[l], y[l], t))
                return CG_ERR_FAULT;
        }
        for (int k = 0; k < 4; k++)
            res[k][l] = t[k];
    }
    return 0;
}

static const uint32_t zero_lanes[NV_WARP];

/* Sample lanes grouped by layer: layer[l] is lane l's array layer, cube
 * face layer or 3D slice (-1: the border colour). The lanes of one layer
 * go through sample() together (their quads' derivatives as before), the
 * layers in the order of their first lane. */
static int sample_layers(xctx *c, tsampler *s, const float *u, const float *v,
                         const int32_t *layer, unsigned lod_mode, const float *lodv,
                         uint32_t res[4][NV_WARP])
{
    uint32_t all = c->m, left = all;
    while (left) {
        int32_t ly = layer[__builtin_ctz(left)];
        uint32_t grp = 0;
        for (uint32_t m = left; m; m &= m - 1)
            if (layer[__builtin_ctz(m)] == ly)
                grp |= m & -m;
        left &= ~grp;
        uint32_t tmp[4][NV_WARP];
        if (ly < 0) {
            for (uint32_t m = grp; m; m &= m - 1)
                for (int k = 0; k < 4; k++)
                    res[k][__builtin_ctz(m)] = uf(s->border[k]);
            continue;
        }
        memset(tmp, 0, sizeof tmp);
        c->m = grp;
        s->slice = (uint32_t)ly;
        int rc = sample(c, s, u, v, lod_mode, lodv, tmp);
        c->m = all;
        s->slice = 0;
        if (rc)
            return rc;
        for (uint32_t m = grp; m; m &= m - 1)
            for (int k = 0; k < 4; k++)
                res[k][__builtin_ctz(m)] = tmp[k][__builtin_ctz(m)];
    }
    return 0;
}

/* Cube face selection and face coordinates: OpenGL ES 3.2 section 8.13
 * "Cube Map Texture Selection" (its table of major axis directions): the
 * largest magnitude of (x, y, z) picks the face (+X -X +Y -Y +Z -Z, layers
 * 0..5), s = (sc / |ma| + 1) / 2, t = (tc / |ma| + 1) / 2 with
 *   +X: sc -z, tc -y   -X: sc +z, tc -y   +Y: sc +x, tc +z
 *   -Y: sc +x, tc -z   +Z: sc +x, tc -y   -Z: sc -x, tc -y.
 * Ties (which the specification leaves open) go to Z, then Y; a zero or
 * NaN direction samples the centre of +X. */
static unsigned cube_face(float x, float y, float z, float *s, float *t)
{
    float ax = fabsf(x), ay = fabsf(y), az = fabsf(z), ma, sc, tc;
    unsigned face;
    if (az >= ax && az >= ay) {
        face = z < 0 ? 5 : 4, ma = az, sc = z < 0 ? -x : x, tc = -y;
    } else if (ay >= ax) {
        face = y < 0 ? 3 : 2, ma = ay, sc = x, tc = y < 0 ? -z : z;
    } else {
        face = x < 0 ? 1 : 0, ma = ax, sc = x < 0 ? z : -z, tc = -y;
    }
    if (!(ma > 0) || ma != ma || sc != sc || tc != tc) {
        *s = *t = 0.5f;
        return ma > 0 ? face : 0;
    }
    *s = (sc / ma + 1.0f) * 0.5f;
    *t = (tc / ma + 1.0f) * 0.5f;
    return face;
}

/* What an instruction's target form says the coordinates are. */
enum { K_2D, K_A2D, K_3D, K_CUBE, K_ACUBE };

static bool int_format(const tsampler *s)
{
    for (int k = 0; k < 4; k++)
        if (s->f->bits[k] && (s->tic.type[k] == NV_TIC_SINT || s->tic.type[k] == NV_TIC_UINT))
            return true;
    return false;
}

/* A filtered sample of a target form: x, y (1D/2D), the array index
 * register ai (bits 15:0, the integer layer or cube: Mesa converts the
 * float to U16 before TEX, nv50_ir_lowering_nvc0.cpp handleTEX), z (3D and
 * cubes). The layer is clamped to [0, layers - 1] (cubes: to the last
 * cube). 3D: the slice coordinate z * depth (normalized) wraps with the
 * TSC's P mode; LINEAR (the TSC mag filter) blends slices floor(z - 0.5)
 * and the next by the 8-bit fraction, as x and y are blended. Cubes: face
 * and face coordinates by cube_face, clamped to the face's edge. Lanes are
 * grouped by layer (sample_layers). */
static int sample_target(xctx *c, tsampler *s, unsigned kind, const float *x, const float *y,
                         const float *z, const uint32_t *ai, unsigned lod_mode,
                         const float *lodv, uint32_t res[4][NV_WARP])
{
    int32_t layer[NV_WARP];
    if (kind == K_2D)
        return sample(c, s, x, y, lod_mode, lodv, res);
    if (kind == K_A2D) {
        LANES {
            uint32_t ly = ai[l] & 0xffff;
            layer[l] = (int32_t)(ly < s->layers ? ly : s->layers - 1);
        }
        return sample_layers(c, s, x, y, layer, lod_mode, lodv, res);
    }
    if (kind == K_CUBE || kind == K_ACUBE) {
        float u[NV_WARP], v[NV_WARP];
        uint32_t cubes = s->layers >= 6 ? s->layers / 6 : 1;
        LANES {
            unsigned face = cube_face(x[l], y[l], z[l], &u[l], &v[l]);
            uint32_t ci = kind == K_ACUBE ? ai[l] & 0xffff : 0;
            if (ci >= cubes)
                ci = cubes - 1;
            layer[l] = (int32_t)(ci * 6 + face);
        }
        s->tsc.wrap_u = s->tsc.wrap_v = 2; /* CLAMP_TO_EDGE within the face */
        return sample_layers(c, s, u, v, layer, lod_mode, lodv, res);
    }
    /* K_3D */
    bool linear = s->tsc.mag_filter == 2 && !int_format(s);
    uint32_t d = s->d, dmask = (d & (d - 1)) == 0 ? d - 1 : 0;
    bool norm = s->tic.normalized_coords;
    int32_t z1[NV_WARP];
    float fz[NV_WARP];
    LANES {
        double zc = z[l];
        if (s->tsc.wrap_p == 4) /* CLAMP_OGL: the coordinate clamped first */
            zc = zc < 0 ? 0 : zc > (norm ? 1.0 : (double)d) ? (norm ? 1.0 : (double)d) : zc;
        double t = (norm ? zc * d : zc) - (linear ? 0.5 : 0.0);
        double f = floor(t);
        if (!(f >= -1e9))
            f = -1e9;
        if (f > 1e9)
            f = 1e9;
        float fr = (float)(t - f);
        fz[l] = linear && fr == fr ? floorf(fr * 256.0f) / 256.0f : 0.0f;
        layer[l] = nv_lanes_wrap1((int64_t)f, d, dmask, s->tsc.wrap_p);
        z1[l] = nv_lanes_wrap1((int64_t)f + 1, d, dmask, s->tsc.wrap_p);
    }
    if (sample_layers(c, s, x, y, layer, lod_mode, lodv, res))
        return CG_ERR_FAULT;
    if (!linear)
        return 0;
    uint32_t r1[4][NV_WARP];
    memset(r1, 0, sizeof r1);
    if (sample_layers(c, s, x, y, z1, lod_mode, lodv, r1))
        return CG_ERR_FAULT;
    for (uint32_t m = c->m; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctz(m);
        for (int k = 0; k < 4; k++) {
            float a = fl(res[k][l]), b = fl(r1[k][l]);
            res[k][l] = uf(a + (b - a) * fz[l]);
        }
    }
    return 0;
}

static const uint32_t *reg(const nv_sass_warp *w, unsigned r)
{
    return r >= 255 ? zero_lanes : w->r[r];
}

/* TEXS/TLDS component selection (yuzu TEXS decoding): with Rd2 = RZ one
 * or two components into Rd, Rd+1; otherwise three or four, the first two
 * into Rd, Rd+1 and the rest into Rd2, Rd2+1. With .F16 the selected
 * components are binary16, packed two to a register as the half-float
 * instructions pack them (the first in bits 15:0): the first pair into Rd,
 * the second into Rd2 (yuzu WriteTexsInstructionHalfFloat); a missing
 * second half is 0. */
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
    uint32_t *sel[4];
    unsigned n = 0;
    for (unsigned k = 0; k < 4; k++)
        if (mask >> k & 1)
            sel[n++] = res[k];
    if (XMOD(c->in, PREC) != NV_SASS_PREC_F16) {
        for (unsigned i = 0; i < n; i++)
            nv_xwrite(c->w, i < 2 ? (rd == 255 ? 255 : rd + i) : (rd2 == 255 ? 255 : rd2 + i - 2),
                      c->m, sel[i]);
        return 0;
    }
    uint32_t packed[2][NV_WARP];
    for (unsigned p = 0; p < 2; p++)
        LANES {
            uint32_t lo = 2 * p < n ? cg__float_bits_to_half(sel[2 * p][l]) : 0;
            uint32_t hi = 2 * p + 1 < n ? cg__float_bits_to_half(sel[2 * p + 1][l]) : 0;
            packed[p][l] = lo | hi << 16;
        }
    nv_xwrite(c->w, rd, c->m, packed[0]);
    if (n > 2)
        nv_xwrite(c->w, rd2, c->m, packed[1]);
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

/* Register r + i (RZ stays RZ), lanes as floats. */
static void fregs(xctx *c, unsigned r, unsigned i, float *out)
{
    const uint32_t *p = reg(c->w, r == 255 ? 255 : r + i);
    LANES out[l] = fl(p[l]);
}

static const uint32_t *regi(xctx *c, unsigned r, unsigned i)
{
    return reg(c->w, r == 255 ? 255 : r + i);
}

/* TEXS: a filtered sample. Operands (Mesa nv50_ir_ra.cpp
 * handleScalarTexGM107: with more than two sources the first two go to Ra,
 * Ra+1 and the rest to Rb, Rb+1; two sources: Ra and Rb; the array index
 * comes first, nv50_ir_lowering_nvc0.cpp handleTEX):
 *   1D_LZ: Ra x;  2D, 2D_LZ: Ra x, Rb y;  2D_LL: Ra x, Ra+1 y, Rb level;
 *   A2D, A2D_LZ: Ra layer, Ra+1 x, Rb y;  3D, 3D_LZ: Ra x, Ra+1 y, Rb z;
 *   CUBE: Ra x, Ra+1 y, Rb z;  CUBE_LL: the same and Rb+1 the level.
 * The depth-compare (DC) forms are not modelled. */
int nv_x_TEXS(xctx *c)
{
    const xopnd *o = c->in->o;
    uint32_t res[4][NV_WARP];
    float x[NV_WARP], y[NV_WARP], z[NV_WARP], lodv[NV_WARP];
    tsampler s;
    memset(res, 0, sizeof res);
    memset(z, 0, sizeof z);
    memset(lodv, 0, sizeof lodv);
    unsigned ra = o[2].reg, rb = o[3].reg, tg = XMOD(c->in, TEXS);
    unsigned kind = K_2D, lm = LOD_IMPLICIT;
    const uint32_t *ai = NULL;
    switch (tg) {
    case NV_SASS_TEXS_1D_LZ:
        fregs(c, ra, 0, x), memset(y, 0, sizeof y), lm = LOD_LZ;
        break;
    case NV_SASS_TEXS_2D:
    case NV_SASS_TEXS_2D_LZ:
        fregs(c, ra, 0, x), fregs(c, rb, 0, y);
        lm = tg == NV_SASS_TEXS_2D ? LOD_IMPLICIT : LOD_LZ;
        break;
    case NV_SASS_TEXS_2D_LL:
        fregs(c, ra, 0, x), fregs(c, ra, 1, y), fregs(c, rb, 0, lodv), lm = LOD_LL;
        break;
    case NV_SASS_TEXS_A2D:
    case NV_SASS_TEXS_A2D_LZ:
        ai = regi(c, ra, 0), fregs(c, ra, 1, x), fregs(c, rb, 0, y), kind = K_A2D;
        lm = tg == NV_SASS_TEXS_A2D ? LOD_IMPLICIT : LOD_LZ;
        break;
    case NV_SASS_TEXS_3D:
    case NV_SASS_TEXS_3D_LZ:
    case NV_SASS_TEXS_CUBE:
    case NV_SASS_TEXS_CUBE_LL:
        fregs(c, ra, 0, x), fregs(c, ra, 1, y), fregs(c, rb, 0, z);
        kind = tg <= NV_SASS_TEXS_3D_LZ ? K_3D : K_CUBE;
        lm = tg == NV_SASS_TEXS_3D_LZ ? LOD_LZ : LOD_IMPLICIT;
        if (tg == NV_SASS_TEXS_CUBE_LL)
            fregs(c, rb, 1, lodv), lm = LOD_LL;
        break;
    default:
        return nv_xunsupported(c);
    }
    if (sampler_load(c, o[4].val, &s))
        return CG_ERR_FAULT;
    if (sample_target(c, &s, kind, x, y, z, ai, lm, lodv, res))
        return CG_ERR_FAULT;
    return write_texs(c, o[1].reg, o[0].reg, o[5].val, res);
}

/* TLDS: an unfiltered fetch at integer coordinates. Operands (as TEXS;
 * Mesa's special case for TXF.A2D condenses sources 1 and 2, so the
 * layer is alone in Ra):
 *   1D_LZ: Ra x;  2D_LZ: Ra x, Rb y;  2D_LL: Ra x, Ra+1 y, Rb level;
 *   A2D_LZ: Ra layer, Rb x, Rb+1 y;  3D_LZ: Ra x, Ra+1 y, Rb z.
 * An array layer past the last, like a texel out of range, reads zero. */
int nv_x_TLDS(xctx *c)
{
    const xopnd *o = c->in->o;
    uint32_t res[4][NV_WARP];
    tsampler s;
    memset(res, 0, sizeof res);
    unsigned ra = o[2].reg, rb = o[3].reg, tg = XMOD(c->in, TEXS);
    const uint32_t *X, *Y, *Z = NULL, *LV = NULL;
    switch (tg) {
    case NV_SASS_TLDS_1D_LZ:
        X = regi(c, ra, 0), Y = zero_lanes;
        break;
    case NV_SASS_TLDS_2D_LZ:
        X = regi(c, ra, 0), Y = regi(c, rb, 0);
        break;
    case NV_SASS_TLDS_2D_LL:
        X = regi(c, ra, 0), Y = regi(c, ra, 1), LV = regi(c, rb, 0);
        break;
    case NV_SASS_TLDS_A2D_LZ:
        Z = regi(c, ra, 0), X = regi(c, rb, 0), Y = regi(c, rb, 1);
        break;
    case NV_SASS_TLDS_3D_LZ:
        X = regi(c, ra, 0), Y = regi(c, ra, 1), Z = regi(c, rb, 0);
        break;
    default:
        return nv_xunsupported(c);
    }
    if (sampler_load(c, o[4].val, &s))
        return CG_ERR_FAULT;
    if (fetch_int(c, &s, X, Y, Z, LV, res))
        return CG_ERR_FAULT;
    return write_texs(c, o[1].reg, o[0].reg, o[5].val, res);
}

/* TEX, TLD and TLD4 (operands Rd, Ra, Rb, index, component mask). Mesa
 * (nv50_ir_ra.cpp texConstraintGM107) puts the target's arguments (array
 * index first, then the coordinates) in Ra, Ra+1, ... and the rest (LOD,
 * bias) from Rb: 1D Ra x; 2D Ra x, Ra+1 y; 2D ARRAY Ra layer, Ra+1 x, Ra+2
 * y; 3D and CUBE Ra x, Ra+1 y, Ra+2 z; CUBE ARRAY Ra layer, Ra+1.. x y z.
 * 1D arrays, AOFFI, DC (depth compare), MS, CL and the PTP offsets are not
 * modelled; TLD4 takes 1D and 2D only, TLD no cubes. */
static int tex_kind(xctx *c, unsigned *kind)
{
    const xins *in = c->in;
    unsigned dim = XMOD(in, TEXDIM);
    bool arr = XMOD(in, ARRAY);
    if (XMOD(in, AOFFI) || XMOD(in, DC) || XMOD(in, MS) || XMOD(in, CL) || XMOD(in, TOFF))
        return nv_xunsupported(c);
    switch (dim) {
    case NV_SASS_TEXDIM_1D:
        if (arr)
            return nv_xunsupported(c);
        *kind = K_2D;
        return 0;
    case NV_SASS_TEXDIM_2D:
        *kind = arr ? K_A2D : K_2D;
        return 0;
    case NV_SASS_TEXDIM_3D:
        if (arr)
            return nv_xunsupported(c);
        *kind = K_3D;
        return 0;
    default:
        *kind = arr ? K_ACUBE : K_CUBE;
        return 0;
    }
}

/* The Ra operands of a TEX-form target: the array index, x, y, z. */
static void tex_coords(xctx *c, unsigned kind, const uint32_t **ai, float *x, float *y,
                       float *z)
{
    unsigned ra = c->in->o[1].reg, i = 0;
    bool one_d = XMOD(c->in, TEXDIM) == NV_SASS_TEXDIM_1D;
    *ai = NULL;
    if (kind == K_A2D || kind == K_ACUBE)
        *ai = regi(c, ra, i++);
    fregs(c, ra, i++, x);
    if (one_d)
        memset(y, 0, sizeof(float) * NV_WARP);
    else
        fregs(c, ra, i++, y);
    if (kind == K_3D || kind == K_CUBE || kind == K_ACUBE)
        fregs(c, ra, i++, z);
    else
        memset(z, 0, sizeof(float) * NV_WARP);
}

/* TEX: a filtered sample with the LOD mode: none (implicit, from the quad),
 * LZ (level 0), LB (implicit + bias), LL (the level given), the LOD or bias
 * in Rb. */
int nv_x_TEX(xctx *c)
{
    const xopnd *o = c->in->o;
    uint32_t res[4][NV_WARP];
    float x[NV_WARP], y[NV_WARP], z[NV_WARP], lodv[NV_WARP];
    const uint32_t *ai;
    tsampler s;
    unsigned kind;
    memset(res, 0, sizeof res);
    if (tex_kind(c, &kind))
        return CG_ERR_FAULT;
    unsigned lm = XMOD(c->in, LOD);
    if (lm != NV_SASS_TEXLOD_NONE && lm != NV_SASS_TEXLOD_LZ && lm != NV_SASS_TEXLOD_LB &&
        lm != NV_SASS_TEXLOD_LL)
        return nv_xunsupported(c);
    if (sampler_load(c, o[3].val, &s))
        return CG_ERR_FAULT;
    tex_coords(c, kind, &ai, x, y, z);
    fregs(c, o[2].reg, 0, lodv);
    unsigned mode = lm == NV_SASS_TEXLOD_NONE ? LOD_IMPLICIT : lm == NV_SASS_TEXLOD_LZ ? LOD_LZ
                    : lm == NV_SASS_TEXLOD_LB ? LOD_LB : LOD_LL;
    if (sample_target(c, &s, kind, x, y, z, ai, mode, lodv, res))
        return CG_ERR_FAULT;
    write_mask(c, o[0].reg, o[4].val, res);
    return 0;
}

/* TLD: an unfiltered fetch at integer coordinates (Ra: [layer,] x, y[, z]),
 * level 0 (LZ) or the level in Rb (LL); texels and layers out of range
 * read as zero. */
int nv_x_TLD(xctx *c)
{
    const xopnd *o = c->in->o;
    uint32_t res[4][NV_WARP];
    tsampler s;
    unsigned kind;
    memset(res, 0, sizeof res);
    if (tex_kind(c, &kind))
        return CG_ERR_FAULT;
    if (kind == K_CUBE || kind == K_ACUBE)
        return nv_xunsupported(c);
    unsigned ra = o[1].reg, i = 0;
    const uint32_t *Z = kind == K_A2D ? regi(c, ra, i++) : NULL;
    const uint32_t *X = regi(c, ra, i++);
    const uint32_t *Y = XMOD(c->in, TEXDIM) == NV_SASS_TEXDIM_1D ? zero_lanes : regi(c, ra, i++);
    if (kind == K_3D)
        Z = regi(c, ra, i++);
    const uint32_t *B = reg(c->w, o[2].reg);
    if (sampler_load(c, o[3].val, &s))
        return CG_ERR_FAULT;
    if (fetch_int(c, &s, X, Y, Z, XMOD(c->in, LOD) == NV_SASS_TLDLOD_LL ? B : NULL, res))
        return CG_ERR_FAULT;
    write_mask(c, o[0].reg, o[4].val, res);
    return 0;
}

/* TLD4: one component (COMP) of the four texels of the bilinear footprint
 * of level 0, in textureGather order (0,1) (1,1) (1,0) (0,0); border texels
 * give the border colour. */
int nv_x_TLD4(xctx *c)
{
    const xopnd *o = c->in->o;
    uint32_t res[4][NV_WARP];
    float u[NV_WARP], v[NV_WARP], lodv[NV_WARP];
    tsampler s;
    memset(res, 0, sizeof res);
    unsigned kind;
    const uint32_t *ai;
    if (tex_kind(c, &kind))
        return CG_ERR_FAULT;
    if (kind != K_2D)
        return nv_xunsupported(c);
    if (sampler_load(c, o[3].val, &s))
        return CG_ERR_FAULT;
    tex_coords(c, kind, &ai, u, v, lodv);
    unsigned comp = XMOD(c->in, COMP);
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
        const int dx[4] = {0, 1, 1, 0}, dy[4] = {1, 1, 0, 0};
        for (int k = 0; k < 4; k++) {
            int32_t ix = nv_lanes_wrap1((int64_t)fx + dx[k], L.w, L.wmask, s.tsc.wrap_u);
            int32_t iy = nv_lanes_wrap1((int64_t)fy + dy[k], L.h, L.hmask, s.tsc.wrap_v);
            uint32_t t[4];
            if (ix < 0 || iy < 0) {
                t[comp] = uf(s.border[comp]);
            } else if (fetch(c, &s, &L, (uint32_t)ix, (uint32_t)iy, t)) {
                return CG_ERR_FAULT;
            }
            res[k][l] = t[comp];
        }
    }
    write_mask(c, o[0].reg, o[4].val, res);
    return 0;
}

/* TXQ: query 1 (dimensions) gives width and height of the view's level in
 * Ra (level 0 is the view's first), depth 1 and the view's number of
 * levels; the other queries are not modelled. */
int nv_x_TXQ(xctx *c)
{
    const xopnd *o = c->in->o;
    uint32_t res[4][NV_WARP];
    tsampler s;
    memset(res, 0, sizeof res);
    if (o[2].val != 1)
        return nv_xunsupported(c);
    if (sampler_load(c, o[3].val, &s))
        return CG_ERR_FAULT;
    const uint32_t *A = reg(c->w, o[1].reg);
    for (unsigned l = 0; l < NV_WARP; l++) {
        uint32_t lv = A[l] < 32 ? A[l] + s.first : 32; /* the view's level */
        uint32_t ww = lv < 32 ? s.w >> lv : 0, hh = lv < 32 ? s.h >> lv : 0;
        res[0][l] = ww ? ww : 1;
        res[1][l] = s.tic.texture_type == 0 ? 1 : (hh ? hh : 1);
        /* 3D: the level's slices; arrays and cubes: the TIC depth (layers,
         * cubes) */
        uint32_t dd = lv < 32 ? s.d >> lv : 0;
        res[2][l] = s.tic.texture_type == 2 ? (dd ? dd : 1)
                    : (s.tic.texture_type == 5 || s.tic.texture_type == 8) ? s.tic.depth : 1;
        res[3][l] = s.levels;
    }
    write_mask(c, o[0].reg, o[4].val, res);
    return 0;
}
