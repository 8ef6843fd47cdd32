/* nv: the MAXWELL_B 3D pipeline behind a draw (pipeline.h,
 * docs/nv-pipeline.md).
 *
 * Stages: SET_PROGRAM_REGION_A/B + SET_PIPELINE_SHADER(i) /
 * SET_PIPELINE_PROGRAM(i) select the programs (slot 1 VERTEX = vertex B,
 * slot 5 PIXEL; slot 0 VERTEX_CULL_BEFORE_FETCH = vertex A, 2-4
 * tessellation and geometry fault "not supported yet"); constant buffers
 * come from the CB_BIND snapshots (nv3d_state.cb), copied to the host at
 * draw time; vertices from draw.c's fetch go to a[0x80 + 16 i] and run in
 * warps of 32; primitives are assembled for every topology but PATCH,
 * clipped in clip space (w, near, far and a guard band of 64 viewports),
 * divided, transformed by viewport 0, culled, scissored and rasterised
 * (raster.c); fragment warps run the pixel program and the ROP writes the
 * results (rop.c). With the viewport transform off
 * (SET_VIEWPORT_SCALE_OFFSET 0), the position is already in window
 * coordinates: no clipping, no division, no transform, and attributes
 * interpolate linearly on the screen. Mesa's nvc0 blits that way
 * (nvc0_surface.c nvc0_blit_3d: VIEWPORT_TRANSFORM_EN 0, a triangle
 * (0,0) (32768,0) (0,32768) whose vertex program writes x and y only, so
 * w is 0: dividing by it, or clipping at w > 0, would lose the blit).
 *
 * Sources: NVIDIA open-gpu-doc classes/3d/clb197.h (methods and fields),
 * Mesa nvc0 (nvc0_program.c / nvc0_state_validate.c: which methods a driver
 * sends, program offsets from the code segment), the OpenGL 4.6 core
 * specification (primitive assembly and provoking vertices 10.1 and 13.4,
 * clipping 13.7, facing 14.6.1, lines 14.5, blending 17.3.6). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "core/bits.h"
#include "core/mem_internal.h"
#include "nv/tables/fields.h"
#include "pipeline.h"
#include "sass_lanes.h"

#define REG(o, m) ((o)->regs[(m) >> 2])

#define PL_MAXU 136            /* interpolated words: generics a[0x80..0x27c], colours */
#define PL_GUARD 64.0f         /* guard band, in viewports */
#define PL_W_EPS 1e-6f         /* clip plane w >= eps */
#define PL_MAX_POLY 16
#define PL_WARP_BUDGET (1u << 20) /* instructions per warp */

enum { W_POS_X = 0x70 / 4, W_POS_Y, W_POS_Z, W_POS_W, W_GENERIC = 0x80 / 4 };

#define VOUT(c, i) ((c)->vout + (size_t)(i) * (c)->vstride)

typedef struct cvert {
    float p[4];            /* clip position */
    float a[PL_MAXU];      /* interpolated words (ctx->used order) */
} cvert;

typedef struct pl_ctx {
    cg_nv_channel *ch;
    nv_obj *o;
    const cg_agent *ag;
    cg_device *dev;
    nv_sass_prog *vs, *ps;
    nv_sass_env venv, fenv;
    uint32_t (*vin)[NV_ATTR_WORDS];    /* [32][256] */
    uint32_t (*vscratch)[NV_ATTR_WORDS]; /* [32][256]: a warp's outputs */
    uint32_t *vout;                    /* [n][vstride]: position, then the used words */
    unsigned vstride;
    uint32_t n;
    nv_sass_warp *warp;
    nv_sass_tex_cache *tcache;         /* decoded TIC/TSC pairs of the draw */
    /* fragment inputs */
    unsigned nused;
    uint16_t used[PL_MAXU];            /* attribute words interpolated */
    uint8_t itype[PL_MAXU];            /* 1 constant, 2 perspective, 3 screen linear */
    nv_sass_plane *planes;             /* [NV_ATTR_WORDS] */
    uint32_t regcount;
    /* outputs */
    unsigned nout;                     /* pixel shader outputs (SET_CT_SELECT count) */
    nv_surface rt[CG_NV_MAX_TARGETS];  /* by output */
    nv_blend blend[CG_NV_MAX_TARGETS];
    unsigned mask[CG_NV_MAX_TARGETS];
    unsigned out_reg[CG_NV_MAX_TARGETS][4]; /* register of output component, or 255 */
    bool rgba8[CG_NV_MAX_TARGETS];     /* four 8-bit UNORM channels at bits 0, 8, 16, 24, all
                                          written, no blending: packed per warp (frag_warp) */
    uint32_t packed[CG_NV_MAX_TARGETS][NV_WARP];
    bool rop_rgba8;                    /* no depth test, every written target rgba8 */
    int one_pitch;                     /* rop_rgba8 with one written target, pitch: it */
    uint64_t wpg_va;                   /* the target page last written in place, and where */
    uint8_t *wpg_ptr;
    unsigned depth_reg;                /* 255: depth from the rasteriser */
    nv_surface zt;
    bool ztest, zwrite;
    int zfunc;
    nv_rect clip;
    /* transform */
    bool vp_enable, z_zero_to_w;
    float vsx, vsy, vsz, vox, voy, voz;
    float wox, woy;
    bool cull, front_ccw;
    unsigned cull_face;
    bool last_provoking;
    float point_size;
    bool front;
    uint64_t work, work_limit, pixels;
} pl_ctx;

static float regf(const nv_obj *o, uint32_t m)
{
    float f;
    uint32_t u = REG(o, m);
    memcpy(&f, &u, 4);
    return f;
}

static uint32_t fbits(float f) { return cg__fbits(f); }

static float bitsf(uint32_t u) { return cg__bitsf(u); }

static int sass_fault(pl_ctx *c, const nv_sass_fault *f)
{
    return nv_fault(c->ch, c->ag, f->kind, f->va, "%s", f->msg);
}

/* ---- setup ---------------------------------------------------------------- */

/* What the pipeline keeps across draws: the host copies of the constant
 * buffers, one per stage and slot, grown as needed and never cleared (a
 * draw's copy overwrites all it reads). A real driver binds 64 KiB buffers
 * to every stage (Mesa's nvc0: c15, the texture handles), and allocating and
 * clearing them per draw was a quarter of a small draw's time. */
struct nv_pl_keep {
    uint32_t *cb[2][NV_SASS_CB_SLOTS];
    uint32_t cap[2][NV_SASS_CB_SLOTS];
};

void nv_pipeline_release(cg_nv_gpu *gpu)
{
    struct nv_pl_keep *k = gpu->pl_keep;
    if (!k)
        return;
    for (unsigned i = 0; i < 2; i++)
        for (unsigned s = 0; s < NV_SASS_CB_SLOTS; s++)
            if (k->cb[i][s])
                cg__free(gpu->dev, k->cb[i][s], k->cap[i][s]);
    cg__free(gpu->dev, k, sizeof(*k));
    gpu->pl_keep = NULL;
}

/* The kept host buffer of stage k's slot, at least size bytes; NULL when out
 * of memory. */
static uint32_t *kept_cb(cg_nv_gpu *gpu, unsigned k, unsigned slot, uint32_t size)
{
    if (!gpu->pl_keep && !(gpu->pl_keep = cg__alloc(gpu->dev, sizeof(struct nv_pl_keep))))
        return NULL;
    struct nv_pl_keep *kp = gpu->pl_keep;
    if (kp->cap[k][slot] < size) {
        uint32_t *b = cg__realloc(gpu->dev, kp->cb[k][slot], kp->cap[k][slot], size);
        if (!b)
            return NULL;
        kp->cb[k][slot] = b;
        kp->cap[k][slot] = size;
    }
    return kp->cb[k][slot];
}

/* Copy the stage's bound constant buffers to the host. A buffer whose
 * memory an engine read would fault is left unbound: a shader read of it
 * then faults in the interpreter (docs/nv-pipeline.md). */
static int setup_cbs(pl_ctx *c, nv3d_state *s, unsigned st, unsigned k, nv_sass_env *env)
{
    for (unsigned slot = 0; slot < NV_SASS_CB_SLOTS && slot < NV3D_CB_SLOTS; slot++) {
        const nv3d_cb *cb = &s->cb[st][slot];
        if (!cb->valid || cb->size == 0)
            continue;
        uint32_t size = cb->size > 0x10000 ? 0x10000 : cb->size;
        size &= ~3u;
        if (!size || cg_vas_check(c->ch->vas, cb->addr, size, false, NULL) != CG_FAULT_NONE)
            continue;
        uint32_t *buf = kept_cb(c->ch->gpu, k, slot, size);
        if (!buf)
            return nv_fault(c->ch, c->ag, CG_FAULT_OUT_OF_MEMORY, 0,
                            "draw: no host memory for a constant buffer");
        if (nv_mem_rw(c->ch->vas, cb->addr, buf, size, false, c->ag) != 0) {
            c->ch->state = CG_NV_CH_FAULTED;
            return CG_ERR_FAULT;
        }
        env->cb[slot] = buf;
        env->cb_size[slot] = size;
    }
    return 0;
}

static void setup_env(pl_ctx *c, nv_sass_env *env)
{
    const nv_obj *o = c->o;
    memset(env, 0, sizeof(*env));
    env->dev = c->dev;
    env->vas = c->ch->vas;
    env->agent = *c->ag;
    env->tex.tic_va = nv_addr40(REG(o, NVB197_SET_TEX_HEADER_POOL_A),
                                REG(o, NVB197_SET_TEX_HEADER_POOL_B));
    env->tex.tsc_va = nv_addr40(REG(o, NVB197_SET_TEX_SAMPLER_POOL_A),
                                REG(o, NVB197_SET_TEX_SAMPLER_POOL_B));
    env->tex.tic_max = NV_VAL(NVB197, SET_TEX_HEADER_POOL_C, MAXIMUM_INDEX,
                              REG(o, NVB197_SET_TEX_HEADER_POOL_C));
    env->tex.tsc_max = NV_VAL(NVB197, SET_TEX_SAMPLER_POOL_C, MAXIMUM_INDEX,
                              REG(o, NVB197_SET_TEX_SAMPLER_POOL_C));
    env->tex.linked_tsc = NV_VAL(NVB197, SET_SAMPLER_BINDING, V,
                                 REG(o, NVB197_SET_SAMPLER_BINDING));
    env->tex.handle_bank = NV_VAL(NVB197, SET_BINDLESS_TEXTURE, CONSTANT_BUFFER_SLOT_SELECT,
                                  REG(o, NVB197_SET_BINDLESS_TEXTURE));
    env->budget = PL_WARP_BUDGET;
}

/* A colour or zeta surface from its registers (threed.c's view). */
static int setup_surface(pl_ctx *c, const cg_nv_rt_state *rt, unsigned bpp, bool pitch,
                         const char *what, nv_surface *s)
{
    s->base = rt->addr;
    s->bpp = bpp;
    s->pitch = pitch;
    s->width = pitch ? rt->width / bpp : rt->width;
    s->height = rt->height;
    s->pitch_bytes = rt->width;
    if (!pitch) {
        if (rt->block_w != 0)
            return nv_fault(c->ch, c->ag, CG_FAULT_UNSUPPORTED, rt->addr,
                            "draw: %s block width %u GOBs not supported yet", what,
                            1u << (rt->block_w & 15));
        if (rt->block_h > 5)
            return nv_fault(c->ch, c->ag, CG_FAULT_BAD_STATE, rt->addr,
                            "draw: %s block height %u: at most 5 (32 GOBs)", what, rt->block_h);
        s->bl.width = s->width * bpp;
        s->bl.height = s->height;
        s->bl.bh = rt->block_h;
        s->bl.bd = 0;
        s->bl.depth = 1;
    }
    s->valid = s->width && s->height;
    return 0;
}

static void clip_rect(nv_rect *r, int64_t x0, int64_t y0, int64_t x1, int64_t y1)
{
    if (x0 > r->x0) r->x0 = (int32_t)x0;
    if (y0 > r->y0) r->y0 = (int32_t)y0;
    if (x1 < r->x1) r->x1 = (int32_t)x1;
    if (y1 < r->y1) r->y1 = (int32_t)y1;
}

static int blend_decode(pl_ctx *c, unsigned t, nv_blend *b)
{
    const nv_obj *o = c->o;
    b->enable = NV_VAL(NVB197, SET_BLEND, ENABLE, REG(o, NVB197_SET_BLEND + 4 * t));
    if (!b->enable)
        return 0;
    uint32_t v[6];
    bool sep;
    if (NV_VAL(NVB197, SET_BLEND_STATE_PER_TARGET, ENABLE,
               REG(o, NVB197_SET_BLEND_STATE_PER_TARGET))) {
        uint32_t k = 32 * t;
        sep = REG(o, NVB197_SET_BLEND_PER_TARGET_SEPARATE_FOR_ALPHA + k) & 1;
        v[0] = REG(o, NVB197_SET_BLEND_PER_TARGET_COLOR_OP + k);
        v[1] = REG(o, NVB197_SET_BLEND_PER_TARGET_COLOR_SOURCE_COEFF + k);
        v[2] = REG(o, NVB197_SET_BLEND_PER_TARGET_COLOR_DEST_COEFF + k);
        v[3] = REG(o, NVB197_SET_BLEND_PER_TARGET_ALPHA_OP + k);
        v[4] = REG(o, NVB197_SET_BLEND_PER_TARGET_ALPHA_SOURCE_COEFF + k);
        v[5] = REG(o, NVB197_SET_BLEND_PER_TARGET_ALPHA_DEST_COEFF + k);
    } else {
        sep = REG(o, NVB197_SET_BLEND_SEPARATE_FOR_ALPHA) & 1;
        v[0] = REG(o, NVB197_SET_BLEND_COLOR_OP);
        v[1] = REG(o, NVB197_SET_BLEND_COLOR_SOURCE_COEFF);
        v[2] = REG(o, NVB197_SET_BLEND_COLOR_DEST_COEFF);
        v[3] = REG(o, NVB197_SET_BLEND_ALPHA_OP);
        v[4] = REG(o, NVB197_SET_BLEND_ALPHA_SOURCE_COEFF);
        v[5] = REG(o, NVB197_SET_BLEND_ALPHA_DEST_COEFF);
    }
    if (!sep)
        v[3] = v[0], v[4] = v[1], v[5] = v[2];
    int op[2] = {nv_blend_op(v[0]), nv_blend_op(v[3])};
    int f[4] = {nv_blend_factor(v[1]), nv_blend_factor(v[2]), nv_blend_factor(v[4]),
                nv_blend_factor(v[5])};
    for (unsigned i = 0; i < 2; i++)
        if (op[i] < 0)
            return nv_fault(c->ch, c->ag, CG_FAULT_BAD_STATE, 0,
                            "draw: target %u blend %s op 0x%x is not an OGL or D3D equation", t,
                            i ? "alpha" : "colour", v[3 * i]);
    static const unsigned fi[4] = {1, 2, 4, 5};
    for (unsigned i = 0; i < 4; i++)
        if (f[i] < 0)
            return nv_fault(c->ch, c->ag, CG_FAULT_UNSUPPORTED, 0,
                            "draw: target %u blend factor 0x%x not supported yet (dual source "
                            "or not an OGL/D3D factor)", t, v[fi[i]]);
    b->op_rgb = (uint8_t)op[0], b->op_a = (uint8_t)op[1];
    b->src_rgb = (uint8_t)f[0], b->dst_rgb = (uint8_t)f[1];
    b->src_a = (uint8_t)f[2], b->dst_a = (uint8_t)f[3];
    b->constant[0] = regf(o, NVB197_SET_BLEND_CONST_RED);
    b->constant[1] = regf(o, NVB197_SET_BLEND_CONST_GREEN);
    b->constant[2] = regf(o, NVB197_SET_BLEND_CONST_BLUE);
    b->constant[3] = regf(o, NVB197_SET_BLEND_CONST_ALPHA);
    return 0;
}

/* The registers the pixel shader leaves its outputs in (its SPH's output
 * map, PS_OMAP_*): the enabled components of render target 0 first, in
 * R G B A order, then target 1 and on, then depth; 255 = not written. */
static void map_outputs(pl_ctx *c, const nv_sph *ps)
{
    unsigned reg = 0;
    for (unsigned t = 0; t < CG_NV_MAX_TARGETS; t++) {
        for (unsigned k = 0; k < 4; k++) {
            const uint32_t *om = k == 0   ? ps ? ps->PS_OMAP_RED : NULL
                                 : k == 1 ? ps ? ps->PS_OMAP_GREEN : NULL
                                 : k == 2 ? ps ? ps->PS_OMAP_BLUE : NULL
                                          : ps ? ps->PS_OMAP_ALPHA : NULL;
            c->out_reg[t][k] = om && om[t] ? reg++ : 255;
        }
    }
    c->depth_reg = ps && ps->PS_OMAP_DEPTH[0] ? reg : 255;
}

/* Output t: the colour target SET_CT_SELECT names for it (format 0: none),
 * its surface, write mask (SET_CT_WRITE, or the first one under
 * SET_SINGLE_CT_WRITE_CONTROL) and blend state. */
static int setup_target(pl_ctx *c, unsigned t, uint32_t ct)
{
    const nv_obj *o = c->o;
    unsigned idx = NV_VAL(NVB197, SET_CT_SELECT, TARGET0, ct >> (3 * t));
    cg_nv_rt_state rt;
    nv3d_rt_state(o, idx, &rt);
    if (rt.format == 0)
        return 0;
    const nv3d_ct_format *f = nv3d_ct_format_find(rt.format);
    char what[32];
    snprintf(what, sizeof(what), "colour target %u", idx);
    if (!f)
        return nv_fault(c->ch, c->ag, CG_FAULT_UNSUPPORTED, rt.addr,
                        "draw: %s format 0x%02x not supported yet", what, rt.format);
    c->rt[t].cf = f;
    if (setup_surface(c, &rt, f->bytes, rt.pitch, what, &c->rt[t]) != 0)
        return CG_ERR_FAULT;
    if (!c->rt[t].valid)
        return 0;
    clip_rect(&c->clip, 0, 0, c->rt[t].width, c->rt[t].height);
    uint32_t wm = REG(o, NVB197_SET_CT_WRITE +
                             4 * (NV_VAL(NVB197, SET_SINGLE_CT_WRITE_CONTROL, ENABLE,
                                         REG(o, NVB197_SET_SINGLE_CT_WRITE_CONTROL))
                                      ? 0
                                      : t));
    c->mask[t] = NV_VAL(NVB197, SET_CT_WRITE, R_ENABLE, wm) |
                 NV_VAL(NVB197, SET_CT_WRITE, G_ENABLE, wm) << 1 |
                 NV_VAL(NVB197, SET_CT_WRITE, B_ENABLE, wm) << 2 |
                 NV_VAL(NVB197, SET_CT_WRITE, A_ENABLE, wm) << 3;
    if (blend_decode(c, t, &c->blend[t]) != 0)
        return CG_ERR_FAULT;
    c->rgba8[t] = f->type == NV3D_CH_UNORM && f->bytes == 4 && c->mask[t] == 15 &&
                  !c->blend[t].enable;
    for (unsigned k = 0; k < 4; k++)
        if (f->bits[k] != 8 || f->off[k] != 8 * k)
            c->rgba8[t] = false;
    return 0;
}

/* The depth test: on with SET_DEPTH_TEST and a zeta buffer (SET_ZT_SELECT),
 * its format, surface, function and write enable. */
static int setup_zeta(pl_ctx *c)
{
    const nv_obj *o = c->o;
    cg_nv_rt_state zt;
    bool zen;
    nv3d_zeta_state(o, &zt, &zen);
    c->ztest = NV_VAL(NVB197, SET_DEPTH_TEST, ENABLE, REG(o, NVB197_SET_DEPTH_TEST)) && zen;
    if (!c->ztest)
        return 0;
    const nv3d_zt_format *f = nv3d_zt_format_find(zt.format);
    if (!f || !f->zbits)
        return nv_fault(c->ch, c->ag, CG_FAULT_UNSUPPORTED, zt.addr,
                        "draw: zeta format 0x%02x not supported yet", zt.format);
    c->zt.zf = f;
    if (setup_surface(c, &zt, f->bytes, false, "zeta", &c->zt) != 0)
        return CG_ERR_FAULT;
    c->zfunc = nv_depth_func(REG(o, NVB197_SET_DEPTH_FUNC));
    if (c->zfunc < 0)
        return nv_fault(c->ch, c->ag, CG_FAULT_BAD_STATE, 0,
                        "draw: SET_DEPTH_FUNC 0x%x is not an OGL or D3D function",
                        REG(o, NVB197_SET_DEPTH_FUNC));
    c->zwrite = NV_VAL(NVB197, SET_DEPTH_WRITE, ENABLE, REG(o, NVB197_SET_DEPTH_WRITE));
    if (c->zt.valid)
        clip_rect(&c->clip, 0, 0, c->zt.width, c->zt.height);
    else
        c->ztest = false;
    return 0;
}

/* The clip rectangle's last terms: the surface clip, as clears use it,
 * and scissor 0 when enabled. */
static void setup_clip(pl_ctx *c)
{
    const nv_obj *o = c->o;
    uint32_t sh = REG(o, NVB197_SET_SURFACE_CLIP_HORIZONTAL);
    uint32_t sv = REG(o, NVB197_SET_SURFACE_CLIP_VERTICAL);
    int64_t sx = NV_VAL(NVB197, SET_SURFACE_CLIP_HORIZONTAL, X, sh);
    int64_t sy = NV_VAL(NVB197, SET_SURFACE_CLIP_VERTICAL, Y, sv);
    clip_rect(&c->clip, sx, sy, sx + NV_VAL(NVB197, SET_SURFACE_CLIP_HORIZONTAL, WIDTH, sh),
              sy + NV_VAL(NVB197, SET_SURFACE_CLIP_VERTICAL, HEIGHT, sv));
    if (NV_VAL(NVB197, SET_SCISSOR_ENABLE, V, REG(o, NVB197_SET_SCISSOR_ENABLE))) {
        uint32_t hz = REG(o, NVB197_SET_SCISSOR_HORIZONTAL);
        uint32_t vt = REG(o, NVB197_SET_SCISSOR_VERTICAL);
        clip_rect(&c->clip, NV_VAL(NVB197, SET_SCISSOR_HORIZONTAL, XMIN, hz),
                  NV_VAL(NVB197, SET_SCISSOR_VERTICAL, YMIN, vt),
                  NV_VAL(NVB197, SET_SCISSOR_HORIZONTAL, XMAX, hz),
                  NV_VAL(NVB197, SET_SCISSOR_VERTICAL, YMAX, vt));
    }
}

/* Targets, zeta, blend, masks, clip rectangle; then which fast ROP paths
 * apply: RGBA8 writes with no depth test (rop_rgba8), and one written
 * pitch target (one_pitch). */
static int setup_rop(pl_ctx *c)
{
    const nv_obj *o = c->o;
    const nv_sph *ps = c->ps ? nv_sass_prog_sph(c->ps) : NULL;
    uint32_t ct = REG(o, NVB197_SET_CT_SELECT);
    c->nout = NV_VAL(NVB197, SET_CT_SELECT, TARGET_COUNT, ct);
    if (c->nout > CG_NV_MAX_TARGETS)
        c->nout = CG_NV_MAX_TARGETS;
    if (!ps)
        c->nout = 0;
    c->clip = (nv_rect){0, 0, INT32_MAX, INT32_MAX};
    map_outputs(c, ps);
    for (unsigned t = 0; t < c->nout; t++)
        if (setup_target(c, t, ct) != 0)
            return CG_ERR_FAULT;
    if (setup_zeta(c) != 0)
        return CG_ERR_FAULT;
    c->rop_rgba8 = !c->ztest;
    c->one_pitch = -1;
    unsigned written = 0;
    for (unsigned t = 0; t < c->nout; t++)
        if (c->rt[t].valid && c->mask[t]) {
            written++;
            if (!c->rgba8[t])
                c->rop_rgba8 = false;
            else if (c->rt[t].pitch)
                c->one_pitch = (int)t;
        }
    if (written != 1)
        c->one_pitch = -1;
    setup_clip(c);
    return 0;
}

/* Interpolated words: what the pixel SPH's input map enables. */
static void setup_inputs(pl_ctx *c)
{
    c->nused = 0;
    if (!c->ps)
        return;
    const nv_sph *ps = nv_sass_prog_sph(c->ps);
    for (unsigned g = 0; g < 32; g++) {
        const uint32_t t[4] = {ps->PS_GENERIC_IMAP_X[g], ps->PS_GENERIC_IMAP_Y[g],
                               ps->PS_GENERIC_IMAP_Z[g], ps->PS_GENERIC_IMAP_W[g]};
        for (unsigned k = 0; k < 4; k++)
            if (t[k]) {
                c->used[c->nused] = (uint16_t)(W_GENERIC + 4 * g + k);
                c->itype[c->nused++] = (uint8_t)t[k];
            }
    }
    const uint32_t col[8] = {ps->PS_IMAP_COLOR_DIFFUSE_RED[0],   ps->PS_IMAP_COLOR_DIFFUSE_GREEN[0],
                             ps->PS_IMAP_COLOR_DIFFUSE_BLUE[0],  ps->PS_IMAP_COLOR_DIFFUSE_ALPHA[0],
                             ps->PS_IMAP_COLOR_SPECULAR_RED[0],  ps->PS_IMAP_COLOR_SPECULAR_GREEN[0],
                             ps->PS_IMAP_COLOR_SPECULAR_BLUE[0], ps->PS_IMAP_COLOR_SPECULAR_ALPHA[0]};
    for (unsigned k = 0; k < 8; k++)
        if (col[k]) {
            c->used[c->nused] = (uint16_t)(0x280 / 4 + k);
            c->itype[c->nused++] = (uint8_t)col[k];
        }
}

/* ---- fragments ------------------------------------------------------------ */

/* Store a packed 4-byte pixel (frag_warp) at va: in place through a
 * one-page cache when the page is plain memory, else through nv_mem_rw. */
static inline void put4(uint8_t *p, uint32_t v) /* channel k in byte k, any host order */
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    memcpy(p, &v, 4);
    return;
#endif
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

static inline int rop_store4(pl_ctx *c, uint64_t va, uint32_t packed)
{
    uint64_t pg = va & ~(uint64_t)0xfff;
    if ((va & 0xfff) <= 0x1000 - 4) {
        uint8_t *p;
        if (pg != c->wpg_va && cg__vas_span(c->ch->vas, pg, 0x1000, true, &p) == 0x1000) {
            c->wpg_va = pg;
            c->wpg_ptr = p;
        }
        if (pg == c->wpg_va) {
            put4(c->wpg_ptr + (va - pg), packed);
            return 0;
        }
    }
    uint8_t px[4];
    put4(px, packed);
    return nv_mem_rw(c->ch->vas, va, px, 4, true, c->ag);
}

static int rop_pixel(pl_ctx *c, const nv_sass_warp *w, unsigned lane, uint32_t x, uint32_t y,
                     float z)
{
    if (c->depth_reg != 255)
        z = bitsf(w->r[c->depth_reg][lane]);
    if (c->ztest) {
        uint8_t px[8];
        uint64_t va = nv_surface_addr(&c->zt, x, y);
        unsigned nb = c->zt.bpp;
        if (nv_mem_rw(c->ch->vas, va, px, nb, false, c->ag) != 0)
            return CG_ERR_FAULT;
        float zc = z != z ? 0 : z < 0 ? 0 : z > 1 ? 1 : z;
        double q = nv_zeta_quantize(c->zt.zf, zc);
        if (!nv_depth_pass(c->zfunc, q, nv_zeta_read(c->zt.zf, px)))
            return 0;
        if (c->zwrite) {
            nv_zeta_write(c->zt.zf, q, px);
            if (nv_mem_rw(c->ch->vas, va, px, nb, true, c->ag) != 0)
                return CG_ERR_FAULT;
        }
    }
    for (unsigned t = 0; t < c->nout; t++) {
        const nv_surface *s = &c->rt[t];
        if (!s->valid || !c->mask[t])
            continue;
        if (c->rgba8[t]) {
            if (rop_store4(c, nv_surface_addr(s, x, y), c->packed[t][lane]) != 0)
                return CG_ERR_FAULT;
            continue;
        }
        float src[4] = {0, 0, 0, 1};
        for (unsigned k = 0; k < 4; k++)
            if (c->out_reg[t][k] != 255)
                src[k] = bitsf(w->r[c->out_reg[t][k]][lane]);
        uint8_t px[16];
        uint64_t va = nv_surface_addr(s, x, y);
        bool need_read = c->blend[t].enable || c->mask[t] != 15 || s->cf->bits[3] == 0;
        if (need_read && nv_mem_rw(c->ch->vas, va, px, s->bpp, false, c->ag) != 0)
            return CG_ERR_FAULT;
        if (c->blend[t].enable) {
            float dst[4], out[4], k4[4];
            nv_color_unpack(s->cf, px, dst);
            nv_blend b = c->blend[t];
            if (s->cf->type == NV3D_CH_UNORM) {
                for (unsigned k = 0; k < 4; k++) {
                    src[k] = src[k] != src[k] ? 0 : fminf(fmaxf(src[k], 0), 1);
                    k4[k] = fminf(fmaxf(b.constant[k], 0), 1);
                }
                memcpy(b.constant, k4, sizeof(k4));
            }
            nv_blend_apply(&b, src, dst, out);
            memcpy(src, out, sizeof(out));
        }
        nv_color_pack(s->cf, src, c->mask[t], px);
        if (nv_mem_rw(c->ch->vas, va, px, s->bpp, true, c->ag) != 0)
            return CG_ERR_FAULT;
    }
    return 0;
}

/* The ROP lane by lane (rop_pixel) for the lanes of `mask`: a fault stops
 * the channel. */
static int rop_lanes(pl_ctx *c, const nv_sass_warp *w, const nv_frags *f, uint32_t mask)
{
    for (unsigned l = 0; l < 4 * f->nquads; l++)
        if ((mask >> l) & 1) {
            if (rop_pixel(c, w, l, (uint32_t)f->qx[l / 4] + (l & 1),
                          (uint32_t)f->qy[l / 4] + ((l >> 1) & 1), f->z[l]) != 0) {
                c->ch->state = CG_NV_CH_FAULTED;
                return CG_ERR_FAULT;
            }
        }
    return 0;
}

/* Run the pixel program over the warp's lanes (registers and predicates
 * start at zero, the sample positions and the face in the env). */
static int frag_shade(pl_ctx *c, nv_sass_warp *w, const nv_frags *f)
{
    memset(w->r, 0, c->regcount * sizeof(w->r[0]));
    memset(w->p, 0, sizeof(w->p));
    w->p[7] = 0xFFFFFFFFu;
    w->active = f->nquads >= 8 ? 0xFFFFFFFFu : (1u << (4 * f->nquads)) - 1;
    w->killed = w->exited = 0;
    w->executed = 0;
    memcpy(c->fenv.frag_x, f->x, sizeof(f->x));
    memcpy(c->fenv.frag_y, f->y, sizeof(f->y));
    c->fenv.front_facing = c->front;
    nv_sass_fault fault;
    if (nv_sass_run(c->ps, &c->fenv, w, &fault) != 0)
        return sass_fault(c, &fault);
    return 0;
}

/* A8B8G8R8-like targets: every lane's pixel packed in one loop (the UNORM
 * rule of nv_color_pack: NaN and <= 0 -> 0, >= 1 -> 255, else f * 255 +
 * 0.5 truncated, in double); a component the shader does not write is 0,
 * alpha 255. */
static void pack_rgba8(pl_ctx *c, const nv_sass_warp *w)
{
    const nv_lanes_ops *L = nv_lanes();
    for (unsigned t = 0; t < c->nout; t++) {
        if (!c->rgba8[t] || !c->rt[t].valid)
            continue;
        uint32_t *pk = c->packed[t];
        memset(pk, 0, sizeof c->packed[t]);
        for (unsigned k = 0; k < 4; k++) {
            unsigned r = c->out_reg[t][k];
            if (r == 255) {
                uint32_t one = k == 3 ? 255u << 24 : 0;
                for (unsigned l = 0; l < NV_WARP; l++)
                    pk[l] |= one;
                continue;
            }
            /* the UNORM rule lane by lane (sass_lanes.c) */
            L->pack8(w->r[r], 8 * k, pk);
        }
    }
}

/* Eight quads side by side on one row, every pixel written (the
 * rasteriser's quads of a row are in x order: the first and last tell):
 * two rows of 16 pixels, each one 64-byte store when it lies in one plain
 * page. false when that does not hold (nothing stored). */
static bool store_quad_rows(pl_ctx *c, const nv_surface *s, const uint32_t *pk,
                            const nv_frags *f)
{
    uint32_t row[2][16];
    for (unsigned k = 0; k < 8; k++) {
        row[0][2 * k] = pk[4 * k];
        row[0][2 * k + 1] = pk[4 * k + 1];
        row[1][2 * k] = pk[4 * k + 2];
        row[1][2 * k + 1] = pk[4 * k + 3];
    }
    uint64_t va0 = s->base + (uint64_t)(uint32_t)f->qy[0] * s->pitch_bytes +
                   (uint64_t)(uint32_t)f->qx[0] * 4;
    uint8_t *rp[2] = {NULL, NULL};
    for (unsigned r = 0; r < 2; r++) {
        uint64_t va = va0 + (r ? s->pitch_bytes : 0), pg = va & ~(uint64_t)0xfff;
        uint8_t *p;
        if ((va & 0xfff) > 0x1000 - 64)
            break;
        if (pg != c->wpg_va && cg__vas_span(c->ch->vas, pg, 0x1000, true, &p) == 0x1000) {
            c->wpg_va = pg;
            c->wpg_ptr = p;
        }
        if (pg != c->wpg_va)
            break;
        rp[r] = c->wpg_ptr + (va - pg);
    }
    if (!(rp[0] && rp[1]))
        return false;
    for (unsigned r = 0; r < 2; r++) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
        memcpy(rp[r], row[r], sizeof row[r]);
#else
        for (unsigned i = 0; i < 16; i++)
            put4(rp[r] + 4 * i, row[r][i]);
#endif
    }
    return true;
}

/* One pitch target, packed pixels, no depth test: both pixels of a quad
 * row in one 8-byte store when they are written and in one plain page (no
 * effects, so the same as two stores); otherwise pixel by pixel in lane
 * order. */
static int rop_one_pitch(pl_ctx *c, const nv_frags *f, uint32_t write)
{
    unsigned t = (unsigned)c->one_pitch;
    const nv_surface *s = &c->rt[t];
    const uint32_t *pk = c->packed[t];
    if (write == 0xffffffffu && f->nquads == 8 && f->qx[7] == f->qx[0] + 14 &&
        f->qy[7] == f->qy[0] && store_quad_rows(c, s, pk, f))
        return 0;
    for (unsigned k = 0; k < f->nquads; k++) {
        uint64_t va0 = s->base + (uint64_t)(uint32_t)f->qy[k] * s->pitch_bytes +
                       (uint64_t)(uint32_t)f->qx[k] * 4;
        for (unsigned r = 0; r < 2; r++) {
            unsigned l0 = 4 * k + 2 * r, b = write >> l0 & 3;
            if (!b)
                continue;
            uint64_t va = va0 + (r ? s->pitch_bytes : 0);
            if (b == 3 && (va & ~(uint64_t)0xfff) == c->wpg_va && (va & 0xfff) <= 0x1000 - 8) {
                uint8_t *p = c->wpg_ptr + (va - c->wpg_va);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
                uint64_t two = pk[l0] | (uint64_t)pk[l0 + 1] << 32;
                memcpy(p, &two, 8);
#else
                put4(p, pk[l0]);
                put4(p + 4, pk[l0 + 1]);
#endif
                continue;
            }
            if (((b & 1) && rop_store4(c, va, pk[l0]) != 0) ||
                ((b & 2) && rop_store4(c, va + 4, pk[l0 + 1]) != 0)) {
                c->ch->state = CG_NV_CH_FAULTED;
                return CG_ERR_FAULT;
            }
        }
    }
    return 0;
}

/* No depth test and only packed targets: what rop_pixel does for them,
 * without the per-pixel call. */
static int rop_packed(pl_ctx *c, const nv_frags *f, uint32_t write)
{
    for (uint32_t m = write; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctz(m);
        uint32_t x = (uint32_t)f->qx[l / 4] + (l & 1);
        uint32_t y = (uint32_t)f->qy[l / 4] + (l >> 1 & 1);
        for (unsigned t = 0; t < c->nout; t++) {
            const nv_surface *s = &c->rt[t];
            if (!s->valid || !c->mask[t])
                continue;
            uint64_t va = s->pitch ? s->base + (uint64_t)y * s->pitch_bytes + (uint64_t)x * 4
                                   : nv_surface_addr(s, x, y);
            if (rop_store4(c, va, c->packed[t][l]) != 0) {
                c->ch->state = CG_NV_CH_FAULTED;
                return CG_ERR_FAULT;
            }
        }
    }
    return 0;
}

/* A warp of fragments (up to eight 2x2 quads) from the rasteriser: the
 * pixel program, then the ROP for the lanes it did not kill, by the
 * fastest path the targets allow (setup_rop chose them). */
static int frag_warp(void *user, const nv_frags *f)
{
    pl_ctx *c = user;
    nv_sass_warp *w = c->warp;
    uint32_t pc = f->cover - (f->cover >> 1 & 0x55555555u); /* population count */
    pc = (pc & 0x33333333u) + (pc >> 2 & 0x33333333u);
    c->pixels += (((pc + (pc >> 4)) & 0x0f0f0f0fu) * 0x01010101u) >> 24;
    if (!c->ps) /* no pixel program: depth only */
        return rop_lanes(c, w, f, f->cover);
    int rc = frag_shade(c, w, f);
    if (rc)
        return rc;
    uint32_t write = f->cover & ~w->killed;
    pack_rgba8(c, w);
    c->wpg_va = UINT64_MAX;
    if (c->rop_rgba8 && c->one_pitch >= 0)
        return rop_one_pitch(c, f, write);
    if (c->rop_rgba8)
        return rop_packed(c, f, write);
    return rop_lanes(c, w, f, write);
}

/* ---- primitives ----------------------------------------------------------- */

static void make_cvert(const pl_ctx *c, uint32_t i, cvert *v)
{
    const uint32_t *o = VOUT(c, i);
    for (unsigned k = 0; k < 4; k++)
        v->p[k] = bitsf(o[k]);
    for (unsigned k = 0; k < c->nused; k++)
        v->a[k] = bitsf(o[4 + k]);
}

static float plane_dist(const pl_ctx *c, unsigned pl, const float *p)
{
    float g = PL_GUARD * p[3];
    switch (pl) {
    case 0: return p[3] - PL_W_EPS;
    case 1: return c->z_zero_to_w ? p[2] : p[2] + p[3];
    case 2: return p[3] - p[2];
    case 3: return g - p[0];
    case 4: return g + p[0];
    case 5: return g - p[1];
    default: return g + p[1];
    }
}
#define PL_PLANES 7

static void lerp_cvert(const pl_ctx *c, const cvert *a, const cvert *b, float t, cvert *out)
{
    for (unsigned k = 0; k < 4; k++)
        out->p[k] = a->p[k] + t * (b->p[k] - a->p[k]);
    for (unsigned k = 0; k < c->nused; k++)
        out->a[k] = a->a[k] + t * (b->a[k] - a->a[k]);
}

/* Sutherland-Hodgman against every plane; returns the vertex count.
 * Window-space positions (the viewport transform off) are not clipped. */
static unsigned clip_poly(const pl_ctx *c, cvert *buf, cvert *tmp, unsigned n)
{
    if (!c->vp_enable)
        return n;
    for (unsigned pl = 0; pl < PL_PLANES && n; pl++) {
        bool all_in = true;
        for (unsigned i = 0; i < n; i++)
            if (!(plane_dist(c, pl, buf[i].p) >= 0))
                all_in = false;
        if (all_in)
            continue;
        unsigned m = 0;
        for (unsigned i = 0; i < n; i++) {
            const cvert *a = &buf[i], *b = &buf[(i + 1) % n];
            float da = plane_dist(c, pl, a->p), db = plane_dist(c, pl, b->p);
            bool ina = da >= 0, inb = db >= 0;
            if (ina && m < PL_MAX_POLY)
                tmp[m++] = *a;
            if (ina != inb && m < PL_MAX_POLY && n > 1)
                lerp_cvert(c, a, b, da / (da - db), &tmp[m++]);
        }
        if (n == 2 && m > 2) /* a line stays a segment */
            m = 2;
        n = m;
        memcpy(buf, tmp, n * sizeof(*buf));
    }
    return n;
}

static void to_window(const pl_ctx *c, const cvert *v, nv_rv *r)
{
    float iw = 1.0f, x = v->p[0], y = v->p[1], z = v->p[2];
    if (c->vp_enable) {
        iw = 1.0f / v->p[3];
        x *= iw, y *= iw, z *= iw;
        x = c->vsx * x + c->vox;
        y = c->vsy * y + c->voy;
        z = c->vsz * z + c->voz;
    }
    r->x = x + c->wox;
    r->y = y + c->woy;
    r->z = z;
    r->invw = iw;
}

/* Planes of one window-space triangle and its rasterisation. */
static int draw_tri(pl_ctx *c, const nv_rv r[3], const cvert *v[3], const uint32_t *prov)
{
    uint64_t bw = 0;
    {
        float minx = fminf(fminf(r[0].x, r[1].x), r[2].x), maxx = fmaxf(fmaxf(r[0].x, r[1].x), r[2].x);
        float miny = fminf(fminf(r[0].y, r[1].y), r[2].y), maxy = fmaxf(fmaxf(r[0].y, r[1].y), r[2].y);
        double x0 = fmax(minx, c->clip.x0), x1 = fmin(maxx + 1, c->clip.x1);
        double y0 = fmax(miny, c->clip.y0), y1 = fmin(maxy + 1, c->clip.y1);
        if (!(x0 < x1 && y0 < y1))
            return 0;
        bw = (uint64_t)(x1 - x0 + 1) * (uint64_t)(y1 - y0 + 1);
    }
    c->work += bw;
    if (c->work > c->work_limit)
        return nv_fault(c->ch, c->ag, CG_FAULT_HANG, 0,
                        "budget %s: draw: more than %llu pixels to rasterise",
                        cg_budget_name(CG_BUDGET_NV_OP_BYTES),
                        (unsigned long long)c->work_limit);
    if (c->ps) {
        nv_sass_plane *P = c->planes;
        double xy[6];
        nv_raster_snap_tri(r, xy);
        for (unsigned k = 0; k < c->nused; k++) {
            unsigned wd = c->used[k];
            float val[3];
            for (unsigned i = 0; i < 3; i++)
                val[i] = c->itype[k] == 2 ? v[i]->a[k] * r[i].invw : v[i]->a[k];
            if (c->itype[k] == 1) {
                P[wd].a = P[wd].b = 0;
                P[wd].c = bitsf(prov[4 + k]);
            } else {
                nv_raster_plane_at(xy, val, &P[wd]);
            }
            P[wd].flat = prov[4 + k];
        }
        float iw[3] = {r[0].invw, r[1].invw, r[2].invw};
        nv_raster_plane_at(xy, iw, &P[W_POS_W]);
        float zz[3] = {r[0].z, r[1].z, r[2].z};
        nv_raster_plane_at(xy, zz, &P[W_POS_Z]);
        P[W_POS_X] = (nv_sass_plane){1, 0, 0, 0};
        P[W_POS_Y] = (nv_sass_plane){0, 1, 0, 0};
    }
    return nv_raster_tri(r, &c->clip, frag_warp, c, NULL);
}

static int emit_tri(pl_ctx *c, uint32_t i0, uint32_t i1, uint32_t i2, uint32_t prov)
{
    cvert buf[PL_MAX_POLY], tmp[PL_MAX_POLY];
    make_cvert(c, i0, &buf[0]);
    make_cvert(c, i1, &buf[1]);
    make_cvert(c, i2, &buf[2]);
    unsigned n = clip_poly(c, buf, tmp, 3);
    if (n < 3)
        return 0;
    nv_rv r[PL_MAX_POLY];
    for (unsigned i = 0; i < n; i++)
        to_window(c, &buf[i], &r[i]);
    /* facing: OpenGL 4.6 equation 14.8 on the window coordinates */
    double area = 0;
    for (unsigned i = 0; i < n; i++) {
        const nv_rv *a = &r[i], *b = &r[(i + 1) % n];
        area += (double)a->x * b->y - (double)b->x * a->y;
    }
    if (!(area == area) || area == 0)
        return 0;
    c->front = (area > 0) == c->front_ccw;
    if (c->cull && (c->cull_face == NVB197_OGL_SET_CULL_FACE_V_FRONT_AND_BACK ||
                    (c->cull_face == NVB197_OGL_SET_CULL_FACE_V_FRONT) == c->front))
        return 0;
    for (unsigned i = 1; i + 1 < n; i++) {
        nv_rv t[3] = {r[0], r[i], r[i + 1]};
        const cvert *tv[3] = {&buf[0], &buf[i], &buf[i + 1]};
        int rc = draw_tri(c, t, tv, VOUT(c, prov));
        if (rc)
            return rc;
    }
    return 0;
}

/* A line as a 1-pixel-wide parallelogram (OpenGL 4.6 section 14.5.2.1,
 * non-antialiased wide lines, with width 1): offset by 1/2 in y when the
 * line is x-major, else in x. */
static int emit_line(pl_ctx *c, uint32_t i0, uint32_t i1, uint32_t prov)
{
    cvert buf[PL_MAX_POLY], tmp[PL_MAX_POLY];
    make_cvert(c, i0, &buf[0]);
    make_cvert(c, i1, &buf[1]);
    if (clip_poly(c, buf, tmp, 2) != 2)
        return 0;
    nv_rv a, b;
    to_window(c, &buf[0], &a);
    to_window(c, &buf[1], &b);
    float dx = b.x - a.x, dy = b.y - a.y;
    float ox = 0, oy = 0;
    if (fabsf(dx) >= fabsf(dy))
        oy = 0.5f;
    else
        ox = 0.5f;
    nv_rv am = a, ap = a, bm = b, bp = b;
    am.x -= ox, am.y -= oy, ap.x += ox, ap.y += oy;
    bm.x -= ox, bm.y -= oy, bp.x += ox, bp.y += oy;
    c->front = true;
    nv_rv t1[3] = {am, bm, bp}, t2[3] = {am, bp, ap};
    const cvert *v1[3] = {&buf[0], &buf[1], &buf[1]}, *v2[3] = {&buf[0], &buf[1], &buf[0]};
    int rc = draw_tri(c, t1, v1, VOUT(c, prov));
    return rc ? rc : draw_tri(c, t2, v2, VOUT(c, prov));
}

/* A point as a square of SET_POINT_SIZE pixels (at least 1) centred on it. */
static int emit_point(pl_ctx *c, uint32_t i0)
{
    cvert v;
    make_cvert(c, i0, &v);
    for (unsigned pl = 0; pl < 3 && c->vp_enable; pl++)
        if (!(plane_dist(c, pl, v.p) >= 0))
            return 0;
    nv_rv r;
    to_window(c, &v, &r);
    float h = c->point_size / 2;
    nv_rv q[4] = {r, r, r, r};
    q[0].x -= h, q[0].y -= h;
    q[1].x += h, q[1].y -= h;
    q[2].x += h, q[2].y += h;
    q[3].x -= h, q[3].y += h;
    c->front = true;
    nv_rv t1[3] = {q[0], q[1], q[2]}, t2[3] = {q[0], q[2], q[3]};
    const cvert *vv[3] = {&v, &v, &v};
    int rc = draw_tri(c, t1, vv, VOUT(c, i0));
    return rc ? rc : draw_tri(c, t2, vv, VOUT(c, i0));
}

/* Primitive assembly (OpenGL 4.6 section 10.1; provoking vertices table
 * 13.2: FIRST / LAST by SET_PROVOKING_VERTEX). */
static int assemble(pl_ctx *c, unsigned topo)
{
    uint32_t n = c->n;
    bool L = c->last_provoking;
    int rc = 0;
    switch (topo) {
    case NVB197_BEGIN_OP_POINTS:
        for (uint32_t i = 0; i < n && !rc; i++)
            rc = emit_point(c, i);
        break;
    case NVB197_BEGIN_OP_LINES:
        for (uint32_t i = 0; i + 1 < n && !rc; i += 2)
            rc = emit_line(c, i, i + 1, L ? i + 1 : i);
        break;
    case NVB197_BEGIN_OP_LINE_STRIP:
    case NVB197_BEGIN_OP_LINE_LOOP:
        for (uint32_t i = 0; i + 1 < n && !rc; i++)
            rc = emit_line(c, i, i + 1, L ? i + 1 : i);
        if (topo == NVB197_BEGIN_OP_LINE_LOOP && n > 1 && !rc)
            rc = emit_line(c, n - 1, 0, L ? 0 : n - 1);
        break;
    case NVB197_BEGIN_OP_TRIANGLES:
        for (uint32_t i = 0; i + 2 < n && !rc; i += 3)
            rc = emit_tri(c, i, i + 1, i + 2, L ? i + 2 : i);
        break;
    case NVB197_BEGIN_OP_TRIANGLE_STRIP:
        for (uint32_t i = 0; i + 2 < n && !rc; i++)
            rc = (i & 1) ? emit_tri(c, i + 1, i, i + 2, L ? i + 2 : i)
                         : emit_tri(c, i, i + 1, i + 2, L ? i + 2 : i);
        break;
    case NVB197_BEGIN_OP_TRIANGLE_FAN:
        for (uint32_t i = 1; i + 1 < n && !rc; i++)
            rc = emit_tri(c, 0, i, i + 1, L ? i + 1 : i);
        break;
    case NVB197_BEGIN_OP_QUADS:
        for (uint32_t i = 0; i + 3 < n && !rc; i += 4) {
            uint32_t p = L ? i + 3 : i;
            rc = emit_tri(c, i, i + 1, i + 2, p);
            if (!rc)
                rc = emit_tri(c, i, i + 2, i + 3, p);
        }
        break;
    case NVB197_BEGIN_OP_QUAD_STRIP:
        for (uint32_t i = 0; i + 3 < n && !rc; i += 2) {
            uint32_t p = L ? i + 3 : i;
            rc = emit_tri(c, i, i + 1, i + 3, p);
            if (!rc)
                rc = emit_tri(c, i, i + 3, i + 2, p);
        }
        break;
    case NVB197_BEGIN_OP_POLYGON:
        for (uint32_t i = 1; i + 1 < n && !rc; i++)
            rc = emit_tri(c, 0, i, i + 1, 0);
        break;
    case NVB197_BEGIN_OP_LINELIST_ADJCY:
        for (uint32_t i = 0; i + 3 < n && !rc; i += 4)
            rc = emit_line(c, i + 1, i + 2, L ? i + 2 : i + 1);
        break;
    case NVB197_BEGIN_OP_LINESTRIP_ADJCY:
        for (uint32_t i = 1; i + 2 < n && !rc; i++)
            rc = emit_line(c, i, i + 1, L ? i + 1 : i);
        break;
    case NVB197_BEGIN_OP_TRIANGLELIST_ADJCY:
        for (uint32_t i = 0; i + 5 < n && !rc; i += 6)
            rc = emit_tri(c, i, i + 2, i + 4, L ? i + 4 : i);
        break;
    case NVB197_BEGIN_OP_TRIANGLESTRIP_ADJCY:
        for (uint32_t i = 0; 2 * i + 5 < n && !rc; i++)
            rc = (i & 1) ? emit_tri(c, 2 * i + 2, 2 * i, 2 * i + 4, L ? 2 * i + 4 : 2 * i)
                         : emit_tri(c, 2 * i, 2 * i + 2, 2 * i + 4, L ? 2 * i + 4 : 2 * i);
        break;
    default:
        rc = nv_fault(c->ch, c->ag, CG_FAULT_UNSUPPORTED, 0,
                      "draw: topology PATCH (tessellation) not supported yet");
        break;
    }
    return rc;
}

/* ---- vertex shading ------------------------------------------------------- */

static int shade_vertices(pl_ctx *c, const nv_vtx_in *in)
{
    nv_sass_warp *w = c->warp;
    nv_sass_prog_info vi;
    nv_sass_prog_get_info(c->vs, &vi);
    for (uint32_t base = 0; base < c->n; base += NV_WARP) {
        uint32_t cnt = c->n - base < NV_WARP ? c->n - base : NV_WARP;
        /* c->vin starts zeroed (cg__alloc) and the program never writes it
         * (sass_exec.c: ALD reads, AST writes attr_out) nor reads inactive
         * lanes: each warp rewrites only the words below, no 32 KB clear.
         * The generic attributes not fetched read (0, 0, 0, 1.0f) */
        for (uint32_t l = 0; l < cnt; l++) {
            const uint32_t *v = in->words + (size_t)(base + l) * in->stride;
            if (base == 0)
                for (unsigned a = 0; a < CG_NV_MAX_ATTRIBS; a++)
                    c->vin[l][W_GENERIC + 4 * a + 3] = fbits(1.0f);
            for (unsigned j = 0; j < in->nattr; j++)
                memcpy(&c->vin[l][W_GENERIC + 4 * in->attr[j]], v + NV_VTX_ATTR0 + 4 * j,
                       4 * sizeof(uint32_t));
            c->vin[l][0x2f8 / 4] = v[NV_VTX_INSTANCE]; /* instance id, vertex id (Mesa nv50_ir) */
            c->vin[l][0x2fc / 4] = v[NV_VTX_INDEX];
            c->venv.vertex_id[l] = v[NV_VTX_INDEX];
        }
        c->venv.instance_id =
            cnt ? in->words[(size_t)base * in->stride + NV_VTX_INSTANCE] : 0;
        c->venv.attr_in = c->vin;
        /* outputs start at zero: all 32 KB when the program reads them
         * back (ALD.O), else only the words read below (nothing else sees
         * the others) */
        if (vi.reads_outputs) {
            memset(c->vscratch, 0, sizeof(uint32_t) * NV_ATTR_WORDS * NV_WARP);
        } else {
            for (uint32_t l = 0; l < cnt; l++) {
                memset(&c->vscratch[l][W_POS_X], 0, 4 * sizeof(uint32_t));
                for (unsigned k = 0; k < c->nused; k++)
                    c->vscratch[l][c->used[k]] = 0;
            }
        }
        c->venv.attr_out = c->vscratch;
        /* a fresh warp: registers at zero, the ones the program names
         * cleared (the others stay zero from the allocation: no vertex
         * warp writes them), no 32 KB clear per warp */
        memset(w->r, 0, vi.reg_limit * sizeof(w->r[0]));
        memset(w->p, 0, sizeof(w->p));
        w->killed = w->exited = 0;
        w->executed = 0;
        w->carry = 0;
        w->local = NULL;
        w->local_bytes = 0;
        w->p[7] = 0xFFFFFFFFu;
        w->active = cnt == 32 ? 0xFFFFFFFFu : (1u << cnt) - 1;
        nv_sass_fault fault;
        if (nv_sass_run(c->vs, &c->venv, w, &fault) != 0)
            return sass_fault(c, &fault);
        for (uint32_t l = 0; l < cnt; l++) {
            uint32_t *o = VOUT(c, base + l);
            for (unsigned k = 0; k < 4; k++)
                o[k] = c->vscratch[l][W_POS_X + k];
            for (unsigned k = 0; k < c->nused; k++)
                o[4 + k] = c->vscratch[l][c->used[k]];
        }
    }
    return 0;
}

/* ---- the draw ------------------------------------------------------------- */

static void ctx_free(pl_ctx *c)
{
    if (c->vs)
        nv_sass_prog_free(c->vs);
    if (c->ps)
        nv_sass_prog_free(c->ps);
    if (c->vin)
        cg__free(c->dev, c->vin, sizeof(uint32_t) * NV_ATTR_WORDS * NV_WARP);
    if (c->vscratch)
        cg__free(c->dev, c->vscratch, sizeof(uint32_t) * NV_ATTR_WORDS * NV_WARP);
    if (c->vout)
        cg__free(c->dev, c->vout, sizeof(uint32_t) * c->vstride * (size_t)c->n);
    if (c->warp)
        cg__free(c->dev, c->warp, sizeof(*c->warp));
    if (c->planes)
        cg__free(c->dev, c->planes, sizeof(nv_sass_plane) * NV_ATTR_WORDS);
    nv_sass_tex_cache_free(c->tcache);
}

/* Build the program of pipeline slot i (SET_PIPELINE_PROGRAM(i) from the
 * program region). */
static int build_prog(pl_ctx *c, unsigned slot, int stage, nv_sass_prog **out)
{
    const nv_obj *o = c->o;
    uint64_t region = nv_addr40(REG(o, NVB197_SET_PROGRAM_REGION_A),
                                REG(o, NVB197_SET_PROGRAM_REGION_B));
    uint64_t start = region + REG(o, NVB197_SET_PIPELINE_PROGRAM + 64 * slot);
    nv_sass_fault f;
    memset(&f, 0, sizeof(f));
    if (nv_sass_prog_build(c->ch->vas, c->ag, region, 1ull << 32, start, stage, out, &f) != 0)
        return sass_fault(c, &f);
    /* the header must be well formed and of the slot's kind: VTG with
     * SHADER_TYPE VERTEX (1) for slot 1, PS with PIXEL (5) for slot 5 */
    const nv_sph *h = nv_sass_prog_sph(*out);
    unsigned want_type = stage == NV_STAGE_FRAGMENT ? 2 : 1;
    unsigned want_shader = stage == NV_STAGE_FRAGMENT ? 5 : 1;
    if (h->problem[0])
        return nv_fault(c->ch, c->ag, CG_FAULT_BAD_STATE, start,
                        "draw: pipeline slot %u: malformed SPH at 0x%llx: %s", slot,
                        (unsigned long long)start, h->problem);
    if (h->ALL_SPH_TYPE[0] != want_type || h->ALL_SHADER_TYPE[0] != want_shader)
        return nv_fault(c->ch, c->ag, CG_FAULT_BAD_STATE, start,
                        "draw: pipeline slot %u: SPH at 0x%llx is SPH_TYPE %u SHADER_TYPE %u, "
                        "the slot runs SPH_TYPE %u SHADER_TYPE %u", slot,
                        (unsigned long long)start, h->ALL_SPH_TYPE[0], h->ALL_SHADER_TYPE[0],
                        want_type, want_shader);
    return 0;
}

bool nv_pipeline_active(const nv_obj *o)
{
    for (unsigned i = 0; i < 6; i++)
        if (NV_VAL(NVB197, SET_PIPELINE_SHADER, ENABLE,
                   REG(o, NVB197_SET_PIPELINE_SHADER + 64 * i)) && i != 5)
            return true;
    return false;
}

/* The pipeline slots a draw uses: slot 1 (vertex B) must be enabled for
 * anything to render; slot 0 (vertex A), tessellation, geometry and user
 * clip planes are not modelled yet. 1 to render, 0 for nothing to do, or
 * the fault. */
static int check_slots(cg_nv_channel *ch, const nv_obj *o, bool en[6], const cg_agent *ag)
{
    for (unsigned i = 0; i < 6; i++) {
        uint32_t v = REG(o, NVB197_SET_PIPELINE_SHADER + 64 * i);
        en[i] = NV_VAL(NVB197, SET_PIPELINE_SHADER, ENABLE, v);
    }
    if (!en[1] && !en[0])
        return 0; /* no vertex program: nothing renders (docs/nv-pipeline.md) */
    if (en[0])
        return nv_fault(ch, ag, CG_FAULT_UNSUPPORTED, 0,
                        "draw: pipeline slot 0 (VERTEX_CULL_BEFORE_FETCH, vertex A) not "
                        "supported yet");
    for (unsigned i = 2; i <= 4; i++)
        if (en[i])
            return nv_fault(ch, ag, CG_FAULT_UNSUPPORTED, 0,
                            "draw: pipeline slot %u (%s) not supported yet", i,
                            i == 4 ? "geometry" : "tessellation");
    uint32_t ucp = REG(o, NVB197_SET_USER_CLIP_ENABLE) & 0xFF; /* PLANE0..7 */
    if (ucp)
        return nv_fault(ch, ag, CG_FAULT_UNSUPPORTED, 0,
                        "draw: user clip planes (SET_USER_CLIP_ENABLE 0x%02x) not supported yet",
                        ucp);
    return 1;
}

/* The transform and rasteriser state: viewport, window offset, depth
 * range, culling, provoking vertex, point size (clamped to [1, 2048]). */
static void setup_transform(pl_ctx *c)
{
    const nv_obj *o = c->o;
    c->vp_enable = NV_VAL(NVB197, SET_VIEWPORT_SCALE_OFFSET, ENABLE,
                          REG(o, NVB197_SET_VIEWPORT_SCALE_OFFSET));
    c->vsx = regf(o, NVB197_SET_VIEWPORT_SCALE_X), c->vsy = regf(o, NVB197_SET_VIEWPORT_SCALE_Y);
    c->vsz = regf(o, NVB197_SET_VIEWPORT_SCALE_Z), c->vox = regf(o, NVB197_SET_VIEWPORT_OFFSET_X);
    c->voy = regf(o, NVB197_SET_VIEWPORT_OFFSET_Y), c->voz = regf(o, NVB197_SET_VIEWPORT_OFFSET_Z);
    c->wox = (float)(int32_t)REG(o, NVB197_SET_WINDOW_OFFSET_X);
    c->woy = (float)(int32_t)REG(o, NVB197_SET_WINDOW_OFFSET_Y);
    c->z_zero_to_w = NV_VAL(NVB197, SET_VIEWPORT_Z_CLIP, RANGE, REG(o, NVB197_SET_VIEWPORT_Z_CLIP));
    c->cull = NV_VAL(NVB197, OGL_SET_CULL, ENABLE, REG(o, NVB197_OGL_SET_CULL));
    c->cull_face = REG(o, NVB197_OGL_SET_CULL_FACE);
    if (c->cull_face != NVB197_OGL_SET_CULL_FACE_V_FRONT &&
        c->cull_face != NVB197_OGL_SET_CULL_FACE_V_FRONT_AND_BACK)
        c->cull_face = NVB197_OGL_SET_CULL_FACE_V_BACK;
    c->front_ccw = REG(o, NVB197_OGL_SET_FRONT_FACE) != NVB197_OGL_SET_FRONT_FACE_V_CW;
    c->last_provoking = NV_VAL(NVB197, SET_PROVOKING_VERTEX, V, REG(o, NVB197_SET_PROVOKING_VERTEX));
    c->point_size = regf(o, NVB197_SET_POINT_SIZE);
    if (!(c->point_size >= 1))
        c->point_size = 1;
    if (c->point_size > 2048)
        c->point_size = 2048;
}

/* The shader stages' setup: buffers, the vertex and (slot 5 enabled)
 * pixel programs, their environments and constant buffers, the register
 * count, the interpolated inputs and the vertex output array. 0 or the
 * fault (posted). */
static int setup_stages(pl_ctx *c, nv3d_state *s, const bool en[6])
{
    c->vin = cg__alloc(c->dev, sizeof(uint32_t) * NV_ATTR_WORDS * NV_WARP);
    c->vscratch = cg__alloc(c->dev, sizeof(uint32_t) * NV_ATTR_WORDS * NV_WARP);
    c->warp = cg__alloc(c->dev, sizeof(*c->warp));
    c->planes = cg__alloc(c->dev, sizeof(nv_sass_plane) * NV_ATTR_WORDS);
    c->tcache = nv_sass_tex_cache_new();
    if (!c->vin || !c->vscratch || !c->warp || !c->planes || !c->tcache)
        return nv_fault(c->ch, c->ag, CG_FAULT_OUT_OF_MEMORY, 0,
                        "draw: no host memory for the pipeline");
    memset(c->planes, 0, sizeof(nv_sass_plane) * NV_ATTR_WORDS);
    if (build_prog(c, 1, NV_STAGE_VERTEX, &c->vs) != 0)
        return CG_ERR_FAULT;
    if (en[5] && build_prog(c, 5, NV_STAGE_FRAGMENT, &c->ps) != 0)
        return CG_ERR_FAULT;
    setup_env(c, &c->venv);
    setup_env(c, &c->fenv);
    c->venv.tcache = c->fenv.tcache = c->tcache;
    if (setup_cbs(c, s, 0, 0, &c->venv) != 0 || setup_cbs(c, s, 4, 1, &c->fenv) != 0)
        return CG_ERR_FAULT;
    c->fenv.planes = c->planes;
    c->regcount = NV_VAL(NVB197, SET_PIPELINE_REGISTER_COUNT, V,
                         REG(c->o, NVB197_SET_PIPELINE_REGISTER_COUNT + 64 * 5));
    if (c->regcount == 0 || c->regcount > 255)
        c->regcount = 255;
    setup_inputs(c);
    c->vstride = 4 + c->nused;
    c->vout = cg__alloc(c->dev, sizeof(uint32_t) * c->vstride * (size_t)c->n);
    if (!c->vout)
        return nv_fault(c->ch, c->ag, CG_FAULT_OUT_OF_MEMORY, 0,
                        "draw: no host memory for the pipeline");
    return 0;
}

int nv_pipeline_draw(cg_nv_channel *ch, nv_obj *o, nv3d_state *s, unsigned topology,
                     const nv_vtx_in *in, uint32_t n, const cg_agent *ag)
{
    bool en[6];
    int rc = check_slots(ch, o, en, ag);
    if (rc <= 0)
        return rc;
    if (n == 0)
        return 0;
    pl_ctx ctx, *c = &ctx;
    memset(c, 0, sizeof(*c));
    c->ch = ch, c->o = o, c->ag = ag, c->dev = ch->gpu->dev;
    c->n = n;
    c->work_limit = ch->gpu->op_limit / 4;
    rc = CG_ERR_FAULT;
    if (setup_stages(c, s, en) != 0 || setup_rop(c) != 0)
        goto out;
    setup_transform(c);
    if (shade_vertices(c, in) != 0)
        goto out;
    if (assemble(c, topology) != 0)
        goto out;
    if (ch->tracing) {
        char text[96];
        snprintf(text, sizeof(text), "pipeline: %u vertices shaded, %llu pixels covered", n,
                 (unsigned long long)c->pixels);
        nv_trace_event(ch, CG_TRACE_NOTE, "3d", 0, n, 0, 0, text);
    }
    rc = 0;
out:
    ctx_free(c);
    return rc;
}

/* ---- render target readback (-o) ------------------------------------------ */

int nv_pipeline_rt_rgba8(cg_nv_channel *ch, unsigned i, uint8_t **rgba, uint32_t *w,
                         uint32_t *h)
{
    *rgba = NULL;
    const nv_obj *o = &ch->objs[NV_OBJ_3D];
    cg_agent ag = nv_agent(ch, "3d", 0, 0, 0);
    if (!o->regs)
        return CG_ERR_INVAL;
    cg_nv_rt_state rt;
    nv3d_rt_state(o, i, &rt);
    const nv3d_ct_format *f = nv3d_ct_format_find(rt.format);
    if (!f)
        return CG_ERR_INVAL;
    nv_surface s;
    memset(&s, 0, sizeof(s));
    s.base = rt.addr, s.bpp = f->bytes, s.pitch = rt.pitch;
    s.width = rt.pitch ? rt.width / f->bytes : rt.width;
    s.height = rt.height;
    s.pitch_bytes = rt.width;
    s.bl = (nv_bl){.width = s.width * f->bytes, .height = s.height, .bh = rt.block_h, .bd = 0,
                   .depth = 1};
    if (!s.width || !s.height || s.width > 16384 || s.height > 16384 ||
        (!rt.pitch && (rt.block_w != 0 || rt.block_h > 5)))
        return CG_ERR_INVAL;
    uint8_t *out = malloc((size_t)s.width * s.height * 4);
    if (!out)
        return CG_ERR_NOMEM;
    for (uint32_t y = 0; y < s.height; y++)
        for (uint32_t x = 0; x < s.width; x++) {
            uint8_t px[16] = {0};
            uint64_t va = nv_surface_addr(&s, x, y);
            if (cg_vas_check(ch->vas, va, f->bytes, false, NULL) == CG_FAULT_NONE)
                nv_mem_rw(ch->vas, va, px, f->bytes, false, &ag);
            float c[4];
            nv_color_unpack(f, px, c);
            for (unsigned k = 0; k < 4; k++) {
                float v = c[k] != c[k] ? 0 : c[k] < 0 ? 0 : c[k] > 1 ? 1 : c[k];
                out[((size_t)y * s.width + x) * 4 + k] = (uint8_t)lrintf(v * 255.0f);
            }
        }
    *rgba = out;
    *w = s.width;
    *h = s.height;
    return 0;
}
