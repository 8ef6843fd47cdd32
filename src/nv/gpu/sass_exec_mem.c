/* Maxwell warp interpreter: the instructions that read and write outside
 * the register file, one handler per group (src/nv/tables/sass.def's
 * handler column): constant-buffer loads (LDC), global and local memory
 * (LD/ST, LDG/STG, LDL/STL), vertex attributes (ALD/AST), fragment input
 * interpolation (IPA) and special registers (S2R). Faults carry the
 * address they concern. Semantics and sources: docs/nv-sass-exec.md. */
#include "nv/nv_internal.h"
#include "sass_exec_internal.h"
#include "sass_lanes.h"

#define fl nv_xf
#define uf nv_xu
#define fout nv_xfout

/* ---- memory ------------------------------------------------------------------ */

/* Access sizes (MSIZE [ef58sz]): bytes of each, 0 for the reserved one. */
static unsigned msize_bytes(unsigned sz)
{
    static const uint8_t b[8] = {
        [NV_SASS_MSIZE_U8] = 1, [NV_SASS_MSIZE_S8] = 1, [NV_SASS_MSIZE_U16] = 2,
        [NV_SASS_MSIZE_S16] = 2, [NV_SASS_MSIZE_32] = 4, [NV_SASS_MSIZE_64] = 8,
        [NV_SASS_MSIZE_128] = 16, [7] = 0};
    return b[sz & 7];
}

/* A loaded 8- or 16-bit value, zero- or sign-extended to the register. */
static uint32_t mextend(uint32_t v, unsigned sz)
{
    switch (sz) {
    case NV_SASS_MSIZE_U8: return v & 0xff;
    case NV_SASS_MSIZE_S8: return (uint32_t)(int32_t)(int8_t)v;
    case NV_SASS_MSIZE_U16: return v & 0xffff;
    case NV_SASS_MSIZE_S16: return (uint32_t)(int32_t)(int16_t)v;
    default: return v;
    }
}

/* LD/ST (generic), LDG/STG (global) and LDL/STL (local): per lane, the
 * address Ra + offset (.E: a 64-bit address in Ra, Ra+1; otherwise 32
 * bits; local addresses are offsets in the lane's local memory), aligned to
 * the size, 1 to 4 registers from Rd. Global accesses go through the
 * address space with the env's agent, so an unmapped or read-only address
 * faults with its address; local ones through w->local. The LD/ST
 * predicate output is not modelled. */
static inline int mem_access(xctx *c, bool store, bool local)
{
    const xins *in = c->in;
    unsigned sz = XMOD(in, MSIZE), nb = msize_bytes(sz);
    /* operand order: LD d, [mem]; ST [mem], s */
    const xopnd *mo = &in->o[store ? 0 : 1];
    unsigned data = in->o[store ? 1 : 0].reg;
    bool wide = XMOD(in, E) != 0;
    if (nb == 0 || (in->nop > 2 && in->o[2].kind == XO_PRED && in->o[2].reg != 7))
        return nv_xunsupported(c);
    nv_sass_warp *w = c->w;
    const nv_sass_env *e = c->env;
    unsigned nw = nb < 4 ? 1 : nb / 4;
    for (unsigned l = 0; l < NV_WARP; l++) {
        if (!(c->m >> l & 1))
            continue;
        uint64_t a = mo->reg == 255 ? 0 : w->r[mo->reg][l];
        if (wide && !local)
            a |= (uint64_t)(mo->reg >= 254 ? 0 : w->r[mo->reg + 1][l]) << 32;
        a += (uint64_t)(int64_t)mo->off;
        if (!wide && !local)
            a &= 0xffffffffu;
        if (a % nb)
            return nv_xfault(c, CG_FAULT_BAD_ALIGN, a, "%s of %u bytes at misaligned 0x%llx",
                             store ? "store" : "load", nb, (unsigned long long)a);
        uint32_t v[4] = {0, 0, 0, 0};
        if (store)
            for (unsigned k = 0; k < nw; k++)
                v[k] = data + k >= 255 ? 0 : w->r[data + k][l];
        if (local) {
            if (!w->local || a + nb > w->local_bytes)
                return nv_xfault(c, CG_FAULT_ADDR_RANGE, a,
                                 "local memory access at 0x%llx past the lane's 0x%x bytes",
                                 (unsigned long long)a, w->local_bytes);
            uint8_t *base = (uint8_t *)(w->local + (size_t)l * (w->local_bytes / 4));
            if (store)
                memcpy(base + a, v, nb);
            else
                memcpy(v, base + a, nb);
        } else {
            uint64_t bad;
            cg_fault_kind k = cg_vas_check(e->vas, a, nb, store, &bad);
            if (k != CG_FAULT_NONE)
                return nv_xfault(c, k, bad, "%s of %u bytes at 0x%llx faults (%s)",
                                 store ? "store" : "load", nb, (unsigned long long)a,
                                 cg_fault_kind_name(k));
            if (nv_mem_rw(e->vas, a, v, nb, store, &e->agent))
                return nv_xfault(c, CG_FAULT_UNMAPPED, a, "%s at 0x%llx failed",
                                 store ? "store" : "load", (unsigned long long)a);
        }
        if (!store) {
            if (nb < 4)
                v[0] = mextend(v[0], sz);
            for (unsigned k = 0; k < nw; k++)
                if (data + k < 255)
                    w->r[data + k][l] = v[k];
        }
    }
    return 0;
}

int nv_x_LD(xctx *c)
{
    return mem_access(c, false, false);
}

int nv_x_ST(xctx *c)
{
    return mem_access(c, true, false);
}

int nv_x_LDL(xctx *c)
{
    return mem_access(c, false, true);
}

int nv_x_STL(xctx *c)
{
    return mem_access(c, true, true);
}

/* LDC: c[bank][Ra + offset] per lane (Ra signed), 8 to 64 bits; bytes and
 * halves must be aligned. The IL/IS/ISL addressing modes are not
 * modelled. */
int nv_x_LDC(xctx *c)
{
    const xins *in = c->in;
    const xopnd *o = in->o;
    nv_sass_warp *w = c->w;
    uint32_t m = c->m;
    if (XMOD(in, LDCMODE))
        return nv_xunsupported(c);
    unsigned sz = XMOD(in, MSIZE), nb = msize_bytes(sz);
    const xopnd *x = &o[1];
    unsigned d = o[0].reg;
    for (unsigned l = 0; l < NV_WARP; l++) {
        if (!(m >> l & 1))
            continue;
        int64_t off = (int64_t)(x->reg == 255 ? 0 : (int32_t)w->r[x->reg][l]) + x->off;
        if (nb >= 4) {
            for (unsigned k = 0; k < nb / 4; k++) {
                uint32_t v;
                if (nv_xcb_word(c, x->bank, off + 4 * k, &v))
                    return CG_ERR_FAULT;
                if (d + k < 255)
                    w->r[d + k][l] = v;
            }
        } else {
            uint32_t v;
            if (off % nb)
                return nv_xfault(c, CG_FAULT_BAD_ALIGN, 0, "LDC at misaligned 0x%llx",
                                 (unsigned long long)off);
            if (nv_xcb_word(c, x->bank, off & ~(int64_t)3, &v))
                return CG_ERR_FAULT;
            v >>= 8 * (off & 3);
            if (d < 255)
                w->r[d][l] = mextend(v, sz);
        }
    }
    return 0;
}

/* ---- attributes ---------------------------------------------------------------- */

static int attr_index(xctx *c, const xopnd *o, unsigned l, unsigned k, unsigned *word)
{
    uint32_t a = o->val + (o->reg == 255 ? 0 : c->w->r[o->reg][l]) + 4 * k;
    if ((a & 3) || a >= NV_ATTR_WORDS * 4)
        return nv_xfault(c, CG_FAULT_ADDR_RANGE, 0, "attribute a[0x%x] out of range at 0x%llx",
                         a, (unsigned long long)nv_xpc_bytes(c->pc));
    *word = a / 4;
    return 0;
}

/* What ALD reads from attribute word wd of lane l: the instance and vertex
 * ids at 0x2f8/0x2fc of the input space, else the array (none: 0). */
static inline uint32_t ald_word(const nv_sass_env *e, uint32_t (*arr)[NV_ATTR_WORDS], bool out,
                                unsigned wd, unsigned l)
{
    if (!out && wd == 0x2f8 / 4)
        return e->instance_id;
    if (!out && wd == 0x2fc / 4)
        return e->vertex_id[l];
    return arr ? arr[l][wd] : 0;
}

/* ALD/AST: 1-4 attribute words (ASIZE) at a[Ra + offset] per lane, read
 * from the vertex inputs or (.O, and every AST) the outputs. Faults
 * ADDR_RANGE outside a[0..0x3fc]. The patch form (.P) is not modelled. */
static inline int do_ald(xctx *c, bool store)
{
    const xins *in = c->in;
    const nv_sass_env *e = c->env;
    nv_sass_warp *w = c->w;
    unsigned n = XMOD(in, ASIZE) + 1u;
    const xopnd *ao = &in->o[store ? 0 : 1];
    unsigned data = in->o[store ? 1 : 0].reg;
    if (XMOD(in, P))
        return nv_xunsupported(c);
    bool out = store || XMOD(in, O);
    uint32_t(*arr)[NV_ATTR_WORDS] = out ? e->attr_out : e->attr_in;
    uint32_t a0 = ao->val;
    if (ao->reg == 255 && !(a0 & 3) && a0 + 4 * (n - 1) < NV_ATTR_WORDS * 4) {
        /* no index register and every word in range: the same words for
         * every lane, word by word (registers and attributes do not
         * overlap, so the order is free) */
        for (unsigned k = 0; k < n; k++) {
            unsigned wd = a0 / 4 + k, d = data + k;
            if (store) {
                if (arr)
                    for (uint32_t m = c->m; m; m &= m - 1) {
                        unsigned l = (unsigned)__builtin_ctz(m);
                        arr[l][wd] = d >= 255 ? 0 : w->r[d][l];
                    }
                continue;
            }
            if (d >= 255)
                continue;
            for (uint32_t m = c->m; m; m &= m - 1) {
                unsigned l = (unsigned)__builtin_ctz(m);
                w->r[d][l] = ald_word(e, arr, out, wd, l);
            }
        }
        return 0;
    }
    for (unsigned l = 0; l < NV_WARP; l++) {
        if (!(c->m >> l & 1))
            continue;
        for (unsigned k = 0; k < n; k++) {
            unsigned wd = 0;
            if (attr_index(c, ao, l, k, &wd))
                return CG_ERR_FAULT;
            if (store) {
                if (arr)
                    arr[l][wd] = data + k >= 255 ? 0 : w->r[data + k][l];
                continue;
            }
            if (data + k < 255)
                w->r[data + k][l] = ald_word(e, arr, out, wd, l);
        }
    }
    return 0;
}

int nv_x_ALD(xctx *c)
{
    return do_ald(c, false);
}

int nv_x_AST(xctx *c)
{
    return do_ald(c, true);
}

/* IPA: an attribute interpolated at the lane's sample position (the pixel
 * centre: CENTROID is the centre too), from the planes the pipeline set up
 * (env->planes): PASS and SC as is, MULTIPLY (the default) times the
 * multiplier register (planes of perspective inputs hold attr / w),
 * CONSTANT the provoking vertex's flat word. a[0x70]/a[0x74] are the
 * sample position, a[0x3fc] the face (0xffffffff front). OFFSET, IPA.IDX
 * and the predicate output are not modelled. */
int nv_x_IPA(xctx *c)
{
    const xins *in = c->in;
    const nv_sass_env *e = c->env;
    nv_sass_warp *w = c->w;
    if (in->form != NV_SASS_IPA || XMOD(in, SAMPLE) == NV_SASS_SAMPLE_OFFSET ||
        (in->o[4].kind == XO_PRED && in->o[4].reg != 7))
        return nv_xunsupported(c);
    unsigned mode = XMOD(in, IPA), word = in->o[1].val / 4;
    if ((in->o[1].val & 3) || word >= NV_ATTR_WORDS)
        return nv_xfault(c, CG_FAULT_ADDR_RANGE, 0, "IPA a[0x%x] out of range at 0x%llx",
                         in->o[1].val, (unsigned long long)nv_xpc_bytes(c->pc));
    const uint32_t *mul = in->o[2].reg == 255 ? nv_xzeros : w->r[in->o[2].reg];
    uint32_t v[NV_WARP];
    bool sat = XMOD(in, SAT) != 0, multiplied = false;
    if (word == 0x70 / 4 || word == 0x74 / 4) {
        const float *pos = word == 0x70 / 4 ? e->frag_x : e->frag_y;
        LANES v[l] = uf(pos[l]);
    } else if (word == 0x3fc / 4) {
        LANES v[l] = e->front_facing ? 0xffffffffu : 0;
        sat = false;
        mode = NV_SASS_IPA_CONSTANT;
    } else if (!e->planes) {
        LANES v[l] = 0;
    } else {
        const nv_sass_plane *pl = &e->planes[word];
        if (mode == NV_SASS_IPA_CONSTANT) {
            LANES v[l] = pl->flat;
        } else {
            /* the plane, and for MULTIPLY the product, lane by lane
             * (sass_lanes.c) */
            nv_lanes()->plane(pl->a, pl->b, pl->c, e->frag_x, e->frag_y, mode == NV_SASS_IPA_MULTIPLY ? mul : NULL,
                              v);
            multiplied = true;
        }
    }
    if (mode == NV_SASS_IPA_MULTIPLY && !multiplied && word != 0x70 / 4 && word != 0x74 / 4) {
        /* as float arrays: the lane loop vectorises */
        float fv[NV_WARP], fm[NV_WARP];
        memcpy(fv, v, sizeof fv);
        memcpy(fm, mul, sizeof fm);
        LANES fv[l] *= fm[l];
        memcpy(v, fv, sizeof v);
    }
    if (mode != NV_SASS_IPA_CONSTANT && sat)
        LANES v[l] = fout(fl(v[l]), false, true);
    nv_xwrite(w, in->o[0].reg, c->m, v);
    return 0;
}

/* S2R: a special register (envydis sys_sr numbering) per lane. The lane's
 * ids within a warp of one CTA, SHADER_TYPE 0, Y_DIRECTION 1.0, the lane
 * masks, THREAD_KILL, and CLOCK as the instructions executed; the others
 * are not modelled. */
int nv_x_S2R(xctx *c)
{
    uint32_t v[NV_WARP];
    unsigned sr = c->in->o[1].val;
    const nv_sass_warp *w = c->w;
    LANES {
        uint32_t x;
        switch (sr) {
        case 0x00: case 0x20: case 0x21: x = l; break;            /* LANEID, TID, TID.X */
        case 0x01: x = (uint32_t)w->executed; break;              /* CLOCK */
        case 0x11: case 0x22: case 0x23: case 0x25: case 0x26: case 0x27: x = 0; break;
        case 0x12: x = 0x3f800000u; break;                        /* Y_DIRECTION = 1.0 */
        case 0x13: x = w->killed >> l & 1; break;                 /* THREAD_KILL */
        case 0x14: x = 0; break;                                  /* SHADER_TYPE */
        case 0x38: x = 1u << l; break;                            /* EQMASK */
        case 0x39: x = (1u << l) - 1; break;                      /* LTMASK */
        case 0x3a: x = (uint32_t)((2ull << l) - 1); break;        /* LEMASK */
        case 0x3b: x = ~(uint32_t)((2ull << l) - 1); break;       /* GTMASK */
        case 0x3c: x = ~((1u << l) - 1); break;                   /* GEMASK */
        default: return nv_xunsupported(c);
        }
        v[l] = x;
    }
    nv_xwrite(c->w, c->in->o[0].reg, c->m, v);
    return 0;
}
