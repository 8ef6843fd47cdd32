/* Maxwell warp interpreter: program predecoding (nv_sass_prog_build) and
 * the warp loop (nv_sass_run) with the ALU, memory, attribute and control
 * flow instructions; texture instructions are in sass_exec_tex.c.
 * Semantics and sources: docs/nv-sass-exec.md. */
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "nv/nv_internal.h"
#include "sass_exec_internal.h"
#include "sass_lanes.h"

#define LANES for (unsigned l = 0; l < NV_WARP; l++)

/* ---- faults ---------------------------------------------------------------- */

int nv_xfault(xctx *c, cg_fault_kind kind, uint64_t va, const char *fmt, ...)
{
    nv_sass_fault *f = c->fault;
    if (f) {
        f->kind = kind;
        f->pc = nv_xpc_bytes(c->pc);
        f->va = va ? va : c->p->start_va + f->pc;
        f->word = c->in ? c->in->word : 0;
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(f->msg, sizeof f->msg, fmt, ap);
        va_end(ap);
    }
    return CG_ERR_FAULT;
}

int nv_xunsupported(xctx *c)
{
    char t[128];
    if (nv_sass_format(c->in->word, nv_xpc_bytes(c->pc), t, sizeof t) < 0)
        snprintf(t, sizeof t, "0x%016llx", (unsigned long long)c->in->word);
    size_t n = strlen(t);
    if (n && t[n - 1] == ';')
        t[n - 1] = 0;
    return nv_xfault(c, CG_FAULT_UNSUPPORTED, 0, "not supported yet: %s at 0x%llx", t,
                     (unsigned long long)nv_xpc_bytes(c->pc));
}

/* ---- predecoding --------------------------------------------------------- */

static const char *const flag_names[XFB_COUNT] = {
#define XF_NAME(n) #n,
    NV_XFLAGS(XF_NAME)
#undef XF_NAME
};

static bool nm(const nv_sass_field *f, int i, const char *s)
{
    return i < f->nnames && strcmp(f->names[i], s) == 0;
}

/* The slot of an enumerated field, from its suffix names (sass.def). */
static int enum_slot(const nv_sass_field *f, int *ntype, int *nbop)
{
    if (nm(f, 1, "RM") || nm(f, 1, "FLOOR"))
        return M_RND;
    if (nm(f, 0, "CC_F"))
        return M_CC;
    if (nm(f, 0, "F") && nm(f, 1, "LT"))
        return f->nnames > 16 ? M_IGNORE : M_CMP; /* NOP's condition: ignored */
    if (nm(f, 0, "AND") && nm(f, 3, "PASS_B"))
        return M_LOP;
    if (nm(f, 0, "AND"))
        return (*nbop)++ ? M_BOP2 : M_BOP;
    if (nm(f, 1, "FTZ"))
        return M_FTZ;
    if (nm(f, 1, "D2"))
        return M_SCALE;
    if (nm(f, 0, "COS"))
        return M_MUFU;
    if (nm(f, 0, "U32") && f->nnames == 2)
        return M_SIGNED;
    if (nm(f, 1, "S16_U16"))
        return M_XSIGN;
    if (nm(f, 1, "CLO"))
        return M_XMODE;
    if (nm(f, 1, "XLO"))
        return M_XSEL;
    if (nm(f, 1, "F16") || (nm(f, 0, "U8") && nm(f, 2, "U32")))
        return (*ntype)++ ? M_STYPE : M_DTYPE;
    if (nm(f, 1, "B1"))
        return M_BSEL;
    if (nm(f, 1, "F4E"))
        return M_PRMT;
    if (nm(f, 0, "PASS"))
        return M_IPA;
    if (nm(f, 1, "CENTROID"))
        return M_SAMPLE;
    if (nm(f, 1, "64") && nm(f, 2, "96"))
        return M_ASIZE;
    if (nm(f, 0, "U8") && nm(f, 1, "S8"))
        return M_MSIZE;
    if (nm(f, 0, "1D_LZ"))
        return M_TEXS;
    if (nm(f, 0, "1D") && nm(f, 1, "2D"))
        return M_TEXDIM;
    if ((nm(f, 1, "LZ") && nm(f, 2, "LB")) || (nm(f, 0, "LZ") && nm(f, 1, "LL")))
        return M_LOD;
    if (nm(f, 1, "T") && nm(f, 2, "Z"))
        return M_PMODE;
    if (nm(f, 1, "RS"))
        return M_SHIFT3;
    if (nm(f, 1, "A_H0"))
        return M_AH;
    if (nm(f, 1, "B_H0"))
        return M_BH;
    if (nm(f, 1, "C_H0"))
        return M_CH;
    if (nm(f, 0, "R") && nm(f, 1, "G"))
        return M_COMP;
    if (nm(f, 1, "AOFFI"))
        return M_TOFF;
    if (nm(f, 0, "PR"))
        return M_PRCC;
    if (nm(f, 1, "IL"))
        return M_LDCMODE;
    if (nm(f, 1, "CG") || nm(f, 1, "LU") || nm(f, 0, "SINCOS"))
        return M_IGNORE; /* cache hints; RRO's function (RRO is the identity here) */
    return -1;
}

static const struct {
    const char *mn;
    uint8_t h;
} mn_handlers[] = {
    {"MOV", H_MOV}, {"MOV32I", H_MOV}, {"SEL", H_SEL}, {"PRMT", H_PRMT}, {"FADD", H_FADD},
    {"FADD32I", H_FADD}, {"FMUL", H_FMUL}, {"FMUL32I", H_FMUL}, {"FFMA", H_FFMA},
    {"FFMA32I", H_FFMA}, {"FMNMX", H_FMNMX}, {"FSET", H_FSET}, {"FSETP", H_FSETP},
    {"FCMP", H_FCMP}, {"MUFU", H_MUFU}, {"RRO", H_RRO}, {"F2F", H_F2F}, {"F2I", H_F2I},
    {"I2F", H_I2F}, {"I2I", H_I2I}, {"IADD", H_IADD}, {"IADD32I", H_IADD}, {"IADD3", H_IADD3},
    {"ISCADD", H_ISCADD}, {"ISCADD32I", H_ISCADD}, {"XMAD", H_XMAD}, {"IMNMX", H_IMNMX},
    {"ISETP", H_ISETP}, {"ISET", H_ISET}, {"SHL", H_SHL}, {"SHR", H_SHR}, {"LOP", H_LOP},
    {"LOP32I", H_LOP}, {"LOP3", H_LOP3}, {"BFE", H_BFE}, {"BFI", H_BFI}, {"FLO", H_FLO},
    {"POPC", H_POPC}, {"PSETP", H_PSETP}, {"PSET", H_PSET}, {"P2R", H_P2R}, {"R2P", H_R2P},
    {"LDC", H_LDC}, {"LD", H_LD}, {"ST", H_ST}, {"LDG", H_LD}, {"STG", H_ST}, {"LDL", H_LDL},
    {"STL", H_STL}, {"ALD", H_ALD}, {"AST", H_AST}, {"IPA", H_IPA}, {"S2R", H_S2R},
    {"TEX", H_TEX}, {"TEXS", H_TEXS}, {"TLD", H_TLD}, {"TLDS", H_TLDS}, {"TLD4", H_TLD4},
    {"TXQ", H_TXQ}, {"SSY", H_SSY}, {"PBK", H_PBK}, {"BRA", H_BRA}, {"SYNC", H_SYNC},
    {"BRK", H_BRK}, {"EXIT", H_EXIT}, {"KIL", H_KIL}, {"NOP", H_NOP},
};

static uint8_t handler_of(int form)
{
    if (form < 0 || form >= NV_SASS_COUNT)
        return H_UNSUPPORTED;
    for (size_t i = 0; i < sizeof mn_handlers / sizeof mn_handlers[0]; i++)
        if (strcmp(nv_sass_forms[form].mnemonic, mn_handlers[i].mn) == 0)
            return mn_handlers[i].h;
    return H_UNSUPPORTED;
}

static int32_t sext(uint64_t v, unsigned w)
{
    if (w == 0 || w >= 32)
        return (int32_t)(uint32_t)v;
    uint32_t m = 1u << (w - 1);
    return (int32_t)(((uint32_t)v ^ m) - m);
}

static void predecode(uint64_t word, xins *x)
{
    nv_sass_insn in;
    nv_sass_layout l;
    memset(x, 0, sizeof *x);
    x->word = word;
    x->form = (int16_t)nv_sass_decode(word, &in, &l);
    x->handler = handler_of(x->form);
    if (x->form < 0)
        return;
    x->guard = in.guard_pred;
    x->gnot = in.guard_not;
    int ntype = 0, nbop = 0;
    for (int i = 0; i < l.nfields; i++) {
        const nv_sass_field *f = &l.f[i];
        uint64_t v = in.fval[i];
        if (f->kind == NV_SASS_K_FLAG) {
            if (!v)
                continue;
            if (strcmp(f->names[1], "FTZ") == 0) {
                x->mod[M_FTZ] = 1;
                continue;
            }
            int k = 0;
            while (k < XFB_COUNT && strcmp(flag_names[k], f->names[1]) != 0)
                k++;
            if (k == XFB_COUNT)
                x->bad = true;
            else
                x->flags |= 1u << k;
            continue;
        }
        if (f->kind == NV_SASS_K_FIXED) {
            int k = 0;
            while (k < XFB_COUNT && strcmp(flag_names[k], f->names[0]) != 0)
                k++;
            if (k < XFB_COUNT)
                x->flags |= 1u << k;
            continue;
        }
        if (f->kind == NV_SASS_K_ENUM) {
            int s = enum_slot(f, &ntype, &nbop);
            if (s < 0) {
                if (v)
                    x->bad = true;
            } else {
                x->mod[s] = (uint8_t)v;
            }
            continue;
        }
        if (!f->operand || x->nop >= 6)
            continue;
        xopnd *o = &x->o[x->nop++];
        unsigned w = nv_sass_width(&f->bits);
        o->neg = in.fneg[i];
        o->abs = in.fabs[i];
        o->inv = in.finv[i];
        o->pnot = in.fpnot[i];
        switch (f->kind) {
        case NV_SASS_K_R: case NV_SASS_K_D:
            o->kind = XO_REG;
            o->reg = (uint8_t)v;
            break;
        case NV_SASS_K_P:
            o->kind = XO_PRED;
            o->reg = (uint8_t)v;
            break;
        case NV_SASS_K_I:
            o->kind = XO_IMM;
            o->val = (uint32_t)v;
            break;
        case NV_SASS_K_S:
            o->kind = XO_IMM;
            o->val = (uint32_t)sext(v, w);
            break;
        case NV_SASS_K_F:
            o->kind = XO_IMM;
            o->val = (uint32_t)(w == 20 ? v << 12 : v);
            break;
        case NV_SASS_K_G:
            o->kind = XO_IMM;
            o->val = (uint32_t)v;
            break;
        case NV_SASS_K_T:
            o->kind = XO_TARGET;
            o->off = sext(v, w);
            break;
        case NV_SASS_K_C:
            o->kind = XO_CB;
            o->bank = (uint8_t)in.fbank[i];
            o->val = (uint32_t)v * 4;
            break;
        case NV_SASS_K_X:
            o->kind = XO_CBX;
            o->bank = (uint8_t)in.fbank[i];
            o->reg = (uint8_t)(word >> 8);
            o->off = sext(v, w);
            break;
        case NV_SASS_K_M:
            o->kind = XO_MEM;
            o->reg = (uint8_t)(word >> 8);
            o->off = sext(v, w);
            break;
        case NV_SASS_K_A:
            o->kind = XO_ATTR;
            o->reg = (uint8_t)(word >> 8);
            o->val = f->bits.nseg ? (uint32_t)v : 0;
            break;
        case NV_SASS_K_Y:
            o->kind = XO_ATTR;
            o->reg = 255;
            o->val = (uint32_t)v;
            break;
        case NV_SASS_K_Q:
            o->kind = XO_SR;
            o->val = (uint32_t)v;
            break;
        default:
            break;
        }
    }
}

static int build_fault(nv_sass_fault *fault, cg_fault_kind kind, uint64_t start, uint64_t va,
                       const char *what)
{
    if (fault) {
        memset(fault, 0, sizeof *fault);
        fault->kind = kind;
        fault->va = va;
        fault->pc = va - start;
        snprintf(fault->msg, sizeof fault->msg, "shader program %s at 0x%llx", what,
                 (unsigned long long)va);
    }
    return CG_ERR_FAULT;
}

/* Read n bytes of program memory: 0, or the fault kind with the bad address. */
static cg_fault_kind prog_read(cg_vas *vas, const cg_agent *who, uint64_t va, void *dst,
                               size_t n, uint64_t *bad)
{
    cg_fault_kind k = cg_vas_check(vas, va, n, false, bad);
    if (k != CG_FAULT_NONE)
        return k;
    if (nv_mem_rw(vas, va, dst, n, false, who)) {
        *bad = va;
        return CG_FAULT_UNMAPPED;
    }
    return CG_FAULT_NONE;
}

int nv_sass_prog_build(cg_vas *vas, const cg_agent *who, uint64_t region_va,
                       uint64_t region_size, uint64_t start_va, int stage,
                       nv_sass_prog **out, nv_sass_fault *fault)
{
    (void)stage;
    *out = NULL;
    uint64_t region_end = region_va + region_size;
    if (region_end < region_va)
        region_end = UINT64_MAX;
    if (start_va < region_va || start_va > region_end || region_end - start_va < 0x58)
        return build_fault(fault, CG_FAULT_ADDR_RANGE, start_va, start_va,
                           "does not fit in its region");
    uint8_t sph[0x50];
    uint64_t bad;
    cg_fault_kind k = prog_read(vas, who, start_va, sph, sizeof sph, &bad);
    if (k != CG_FAULT_NONE)
        return build_fault(fault, k, start_va, bad, "header unreadable");
    nv_sass_prog *p = calloc(1, sizeof *p);
    if (!p)
        return CG_ERR_NOMEM;
    nv_sph_decode(sph, sizeof sph, &p->sph);
    p->start_va = start_va;
    p->code_va = start_va + 0x50;
    p->region_va = region_va;
    p->region_size = region_size;
    uint64_t words = (region_end - p->code_va) / 8;
    uint64_t cap_words = (uint64_t)NV_SASS_MAX_INSNS / 3 * 4;
    if (words > cap_words)
        words = cap_words;
    uint32_t cap = 256;
    p->ins = malloc(cap * sizeof *p->ins);
    if (!p->ins) {
        free(p);
        return CG_ERR_NOMEM;
    }
    /* Decode until the region (or cap) ends, code becomes unreadable, or an
     * unconditional EXIT lies beyond every branch target seen so far. */
    uint64_t max_target = 0, chunk[64];
    uint64_t s = 0;
    while (s < words) {
        size_t n = words - s < 64 ? (size_t)(words - s) : 64;
        k = prog_read(vas, who, p->code_va + s * 8, chunk, n * 8, &bad);
        if (k != CG_FAULT_NONE) {
            /* read word by word up to the bad one */
            size_t j = 0;
            for (; j < n; j++)
                if (prog_read(vas, who, p->code_va + (s + j) * 8, &chunk[j], 8, &bad) !=
                    CG_FAULT_NONE)
                    break;
            n = j;
            p->end_fault_va = bad;
            if (s + n <= 1) { /* not even the first instruction */
                nv_sass_prog_free(p);
                return build_fault(fault, k, start_va, bad, "code unreadable");
            }
        }
        bool stop = false;
        for (size_t j = 0; j < n && !stop; j++, s++) {
            uint64_t w = chunk[j];
            if (s % 4 == 0) {
                nv_sass_sched sc[3];
                nv_sass_sched_decode(w, sc, NULL);
                p->info.sched_words++;
                for (int g = 0; g < 3; g++)
                    p->info.stall_cycles += sc[g].stall;
                continue;
            }
            if (p->n == cap) {
                cap *= 2;
                xins *ni = realloc(p->ins, cap * sizeof *ni);
                if (!ni) {
                    nv_sass_prog_free(p);
                    return CG_ERR_NOMEM;
                }
                p->ins = ni;
            }
            xins *x = &p->ins[p->n++];
            predecode(w, x);
            if (x->handler == H_UNSUPPORTED || x->bad)
                p->info.unsupported++;
            /* every register an instruction names lies in Rn..Rn+3 of its
             * operands' (.128 accesses, four texture components) */
            for (int o = 0; o < x->nop; o++) {
                const xopnd *xo = &x->o[o];
                bool named = xo->kind == XO_REG || xo->kind == XO_MEM || xo->kind == XO_CBX ||
                             xo->kind == XO_ATTR;
                if (named && xo->reg != 255 && xo->reg + 4u > p->info.reg_limit)
                    p->info.reg_limit = xo->reg + 4u > 255 ? 255 : xo->reg + 4u;
            }
            if (x->handler == H_ALD && (x->flags & XF(O)))
                p->info.reads_outputs = true;
            for (int o = 0; o < x->nop; o++)
                if (x->o[o].kind == XO_TARGET) {
                    int64_t t = (int64_t)(s + 1) * 8 + x->o[o].off;
                    if (t > 0 && (uint64_t)t > max_target)
                        max_target = (uint64_t)t;
                }
            if (x->handler == H_EXIT && x->guard == 7 && !x->gnot && x->mod[M_CC] == 15 &&
                max_target <= s * 8)
                stop = true;
        }
        if (stop || p->end_fault_va)
            break;
    }
    p->info.insns = p->n;
    *out = p;
    return 0;
}

void nv_sass_prog_free(nv_sass_prog *p)
{
    if (!p)
        return;
    free(p->ins);
    free(p);
}

const nv_sph *nv_sass_prog_sph(const nv_sass_prog *p)
{
    return &p->sph;
}

void nv_sass_prog_get_info(const nv_sass_prog *p, nv_sass_prog_info *out)
{
    *out = p->info;
}

/* ---- operands -------------------------------------------------------------- */

static const uint32_t zeros[NV_WARP];

static int cb_word(xctx *c, unsigned bank, int64_t off, uint32_t *v)
{
    const nv_sass_env *e = c->env;
    if (bank >= NV_SASS_CB_SLOTS || !e->cb[bank])
        return nv_xfault(c, CG_FAULT_BAD_STATE, 0,
                         "c[0x%x][0x%llx]: constant buffer not bound at 0x%llx", bank,
                         (unsigned long long)off, (unsigned long long)nv_xpc_bytes(c->pc));
    if (off < 0 || (off & 3) || (uint64_t)off + 4 > e->cb_size[bank])
        return nv_xfault(c, CG_FAULT_BAD_LENGTH, 0,
                         "c[0x%x][0x%llx] read past the constant buffer's 0x%x bytes at 0x%llx",
                         bank, (unsigned long long)off, e->cb_size[bank],
                         (unsigned long long)nv_xpc_bytes(c->pc));
    *v = e->cb[bank][off / 4];
    return 0;
}

const uint32_t *nv_xsrc(xctx *c, int i, uint32_t tmp[NV_WARP])
{
    const xopnd *o = &c->in->o[i];
    uint32_t v;
    switch (o->kind) {
    case XO_REG:
        return o->reg == 255 ? zeros : c->w->r[o->reg];
    case XO_IMM:
        v = o->val;
        break;
    case XO_CB:
        if (cb_word(c, o->bank, o->val, &v))
            return NULL;
        break;
    default:
        return zeros;
    }
    LANES tmp[l] = v;
    return tmp;
}

void nv_xwrite(nv_sass_warp *w, unsigned reg, uint32_t m, const uint32_t *v)
{
    if (reg >= 255)
        return;
    uint32_t *r = w->r[reg];
    if (m == 0xffffffffu) {
        memcpy(r, v, sizeof w->r[0]);
        return;
    }
    nv_lanes()->select(m, v, r); /* r[l] = v[l] for the lanes of m */
}

static uint32_t pred_of(const nv_sass_warp *w, const xopnd *o)
{
    uint32_t v = w->p[o->reg & 7];
    return o->pnot ? ~v : v;
}

static void pred_write(nv_sass_warp *w, unsigned p, uint32_t m, uint32_t v)
{
    if (p < 7)
        w->p[p] = (w->p[p] & ~m) | (v & m);
}

/* ---- float helpers ----------------------------------------------------------- */

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

static inline uint32_t ftz(uint32_t u)
{
    return (u & 0x7f800000u) ? u : u & 0x80000000u;
}

static inline uint32_t fmod_na(uint32_t u, bool neg, bool abs)
{
    if (abs)
        u &= 0x7fffffffu;
    if (neg)
        u ^= 0x80000000u;
    return u;
}

/* Result formatting: canonical NaN, FTZ, SAT. */
static inline uint32_t fout(float r, bool flush, bool sat)
{
    uint32_t u = uf(r);
    if (r != r)
        return sat ? 0 : 0x7fffffffu;
    if (flush)
        u = ftz(u);
    if (sat) {
        if (!(r > 0.0f))
            return 0;
        if (r >= 1.0f)
            return 0x3f800000u;
    }
    return u;
}

/* Directed rounding: r is the round-to-nearest result, err the sign of
 * (exact - r) (any value of that sign, 0 if exact). rnd: 1 RM, 2 RP, 3 RZ. */
static float round_dir(float r, double err, unsigned rnd, bool finite_in)
{
    if (rnd == 0 || r != r)
        return r;
    if (isinf(r)) {
        if (!finite_in)
            return r;
        if ((rnd == 3) || (rnd == 1 && r > 0) || (rnd == 2 && r < 0))
            return r > 0 ? FLT_MAX : -FLT_MAX;
        return r;
    }
    if (err == 0 || err != err)
        return r;
    if (rnd == 1 && err < 0)
        return nextafterf(r, -INFINITY);
    if (rnd == 2 && err > 0)
        return nextafterf(r, INFINITY);
    if (rnd == 3 && ((r > 0 && err < 0) || (r < 0 && err > 0)))
        return nextafterf(r, 0.0f);
    return r;
}

static float add_r(float a, float b, unsigned rnd)
{
    float s = a + b;
    if (!rnd)
        return s;
    float bb = s - a;
    double err = (double)(a - (s - bb)) + (double)(b - bb);
    return round_dir(s, err, rnd, isfinite(a) && isfinite(b));
}

static float mul_r(float a, float b, unsigned rnd)
{
    float p = a * b;
    if (!rnd)
        return p;
    double err = (double)a * (double)b - (double)p; /* exact: a * b fits a double */
    return round_dir(p, err, rnd, isfinite(a) && isfinite(b));
}

static float fma_r(float a, float b, float cc, unsigned rnd)
{
    float r = fmaf(a, b, cc);
    if (!rnd)
        return r;
    double err = fma((double)a, (double)b, -(double)r) + (double)cc;
    return round_dir(r, err, rnd, isfinite(a) && isfinite(b) && isfinite(cc));
}

static bool fcmp(unsigned code, float a, float b)
{
    unsigned bits = (a < b ? 1u : 0) | (a == b ? 2u : 0) | (a > b ? 4u : 0) |
                    ((a != a || b != b) ? 8u : 0);
    return (code & bits) != 0;
}

static bool icmp(unsigned code, uint32_t a, uint32_t b, bool is_signed)
{
    bool lt = is_signed ? (int32_t)a < (int32_t)b : a < b;
    unsigned bits = lt ? 1u : a == b ? 2u : 4u;
    return (code & bits) != 0;
}

static uint32_t bop(unsigned op, uint32_t a, uint32_t b)
{
    return op == 0 ? a & b : op == 1 ? a | b : a ^ b;
}

/* ---- memory ------------------------------------------------------------------ */

static unsigned msize_bytes(unsigned sz)
{
    static const uint8_t b[8] = {1, 1, 2, 2, 4, 8, 16, 0};
    return b[sz & 7];
}

static uint32_t mextend(uint32_t v, unsigned sz)
{
    switch (sz) {
    case 0: return v & 0xff;
    case 1: return (uint32_t)(int32_t)(int8_t)v;
    case 2: return v & 0xffff;
    case 3: return (uint32_t)(int32_t)(int16_t)v;
    default: return v;
    }
}

static int mem_access(xctx *c, bool store, bool local)
{
    const xins *in = c->in;
    unsigned sz = in->mod[M_MSIZE], nb = msize_bytes(sz);
    /* operand order: LD d, [mem]; ST [mem], s */
    const xopnd *mo = &in->o[store ? 0 : 1];
    unsigned data = in->o[store ? 1 : 0].reg;
    bool wide = (in->flags & XF(E)) != 0;
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

static int do_ald(xctx *c, bool store)
{
    const xins *in = c->in;
    const nv_sass_env *e = c->env;
    nv_sass_warp *w = c->w;
    unsigned n = in->mod[M_ASIZE] + 1u;
    const xopnd *ao = &in->o[store ? 0 : 1];
    unsigned data = in->o[store ? 1 : 0].reg;
    if (in->flags & XF(P))
        return nv_xunsupported(c);
    bool out = store || (in->flags & XF(O));
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

static int do_ipa(xctx *c)
{
    const xins *in = c->in;
    const nv_sass_env *e = c->env;
    nv_sass_warp *w = c->w;
    if (in->form != NV_SASS_IPA || in->mod[M_SAMPLE] == 2 ||
        (in->o[4].kind == XO_PRED && in->o[4].reg != 7))
        return nv_xunsupported(c);
    unsigned mode = in->mod[M_IPA], word = in->o[1].val / 4;
    if ((in->o[1].val & 3) || word >= NV_ATTR_WORDS)
        return nv_xfault(c, CG_FAULT_ADDR_RANGE, 0, "IPA a[0x%x] out of range at 0x%llx",
                         in->o[1].val, (unsigned long long)nv_xpc_bytes(c->pc));
    const uint32_t *mul = in->o[2].reg == 255 ? zeros : w->r[in->o[2].reg];
    uint32_t v[NV_WARP];
    bool sat = (in->flags & XF(SAT)) != 0, multiplied = false;
    if (word == 0x70 / 4 || word == 0x74 / 4) {
        const float *pos = word == 0x70 / 4 ? e->frag_x : e->frag_y;
        LANES v[l] = uf(pos[l]);
    } else if (word == 0x3fc / 4) {
        LANES v[l] = e->front_facing ? 0xffffffffu : 0;
        sat = false;
        mode = 2;
    } else if (!e->planes) {
        LANES v[l] = 0;
    } else {
        const nv_sass_plane *pl = &e->planes[word];
        if (mode == 2) {
            LANES v[l] = pl->flat;
        } else {
            /* the plane, and for MULTIPLY the product, lane by lane
             * (sass_lanes.c) */
            nv_lanes()->plane(pl->a, pl->b, pl->c, e->frag_x, e->frag_y, mode == 1 ? mul : NULL,
                              v);
            multiplied = true;
        }
    }
    if (mode == 1 && !multiplied && word != 0x70 / 4 && word != 0x74 / 4) {
        /* as float arrays: the lane loop vectorises */
        float fv[NV_WARP], fm[NV_WARP];
        memcpy(fv, v, sizeof fv);
        memcpy(fm, mul, sizeof fm);
        LANES fv[l] *= fm[l];
        memcpy(v, fv, sizeof v);
    }
    if (mode != 2 && sat)
        LANES v[l] = fout(fl(v[l]), false, true);
    nv_xwrite(w, in->o[0].reg, c->m, v);
    return 0;
}

static int do_s2r(xctx *c)
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

/* ---- integer helpers ------------------------------------------------------------ */

static uint32_t xmad_half(uint32_t v, bool hi, bool is_signed)
{
    uint32_t h = hi ? v >> 16 : v & 0xffff;
    return is_signed ? (uint32_t)(int32_t)(int16_t)h : h;
}

static int itype_bits(unsigned t)
{
    return 8 << (t & 3);
}

static int64_t iext(uint32_t v, unsigned t)
{
    int b = itype_bits(t);
    if (b >= 32)
        return (t & 4) ? (int64_t)(int32_t)v : (int64_t)v;
    uint32_t m = (1u << b) - 1;
    v &= m;
    if ((t & 4) && (v >> (b - 1)))
        return (int64_t)v - ((int64_t)1 << b);
    return v;
}

static uint32_t flo32(uint32_t v)
{
    if (!v)
        return 0xffffffffu;
    unsigned i = 31;
    while (!(v >> i & 1))
        i--;
    return i;
}

/* ---- the ALU ------------------------------------------------------------------- */

#define SRC(var, i)                          \
    const uint32_t *var = nv_xsrc(c, i, t##var); \
    if (!var)                                \
        return CG_ERR_FAULT

static int alu(xctx *c)
{
    const xins *in = c->in;
    nv_sass_warp *w = c->w;
    const xopnd *o = in->o;
    uint32_t m = c->m, r[NV_WARP];
    uint32_t ta[NV_WARP], tb[NV_WARP], tcc[NV_WARP];
    bool flush = in->mod[M_FTZ] == 1, sat = (in->flags & XF(SAT)) != 0;
    unsigned rnd = in->mod[M_RND];
    if (in->bad)
        return nv_xunsupported(c);
    switch (in->handler) {
    case H_MOV: {
        if (o[2].val != 0xf)
            return nv_xunsupported(c);
        SRC(a, 1);
        nv_xwrite(w, o[0].reg, m, a);
        return 0;
    }
    case H_SEL: {
        SRC(a, 1);
        SRC(b, 2);
        uint32_t p = pred_of(w, &o[3]);
        LANES r[l] = (p >> l & 1) ? a[l] : b[l];
        break;
    }
    case H_PRMT: {
        if (in->mod[M_PRMT])
            return nv_xunsupported(c);
        SRC(a, 1);
        SRC(b, 2);
        SRC(cc, 3);
        LANES {
            uint64_t src = (uint64_t)cc[l] << 32 | a[l];
            uint32_t x = 0;
            for (unsigned k = 0; k < 4; k++) {
                unsigned s = b[l] >> (4 * k) & 15;
                uint32_t byte = (uint32_t)(src >> (8 * (s & 7))) & 0xff;
                if (s & 8)
                    byte = (byte & 0x80) ? 0xff : 0;
                x |= byte << (8 * k);
            }
            r[l] = x;
        }
        break;
    }
    case H_FADD: case H_FMUL: case H_FFMA: {
        if ((in->flags & XF(CC)) || in->mod[M_FTZ] == 3)
            return nv_xunsupported(c);
        SRC(a, 1);
        SRC(b, 2);
        const uint32_t *cv = zeros;
        if (in->handler == H_FFMA) {
            cv = nv_xsrc(c, 3, tcc);
            if (!cv)
                return CG_ERR_FAULT;
        }
        bool fmz = in->mod[M_FTZ] == 2;
        bool fl_in = flush || fmz;
        static const float scale[8] = {1.0f, 0.5f, 0.25f, 0.125f, 8.0f, 4.0f, 2.0f, 1.0f};
        float sc = scale[in->mod[M_SCALE] & 7];
        LANES {
            uint32_t ua = fmod_na(a[l], o[1].neg, o[1].abs), ub = fmod_na(b[l], o[2].neg, o[2].abs);
            if (fl_in) {
                ua = ftz(ua);
                ub = ftz(ub);
            }
            float x;
            if (in->handler == H_FADD) {
                x = add_r(fl(ua), fl(ub), rnd);
            } else if (in->handler == H_FMUL) {
                if (fmz && ((ua & 0x7fffffffu) == 0 || (ub & 0x7fffffffu) == 0))
                    x = 0.0f;
                else
                    x = mul_r(fl(ua), fl(ub), rnd) * sc;
            } else {
                uint32_t uc = fmod_na(cv[l], o[3].neg, false);
                if (fl_in)
                    uc = ftz(uc);
                if (fmz && ((ua & 0x7fffffffu) == 0 || (ub & 0x7fffffffu) == 0))
                    x = fl(uc) + 0.0f;
                else
                    x = fma_r(fl(ua), fl(ub), fl(uc), rnd);
            }
            r[l] = fout(x, fl_in, sat);
        }
        break;
    }
    case H_FMNMX: {
        SRC(a, 1);
        SRC(b, 2);
        uint32_t p = pred_of(w, &o[3]);
        LANES {
            uint32_t ua = fmod_na(a[l], o[1].neg, o[1].abs), ub = fmod_na(b[l], o[2].neg, o[2].abs);
            if (flush) {
                ua = ftz(ua);
                ub = ftz(ub);
            }
            float x = fl(ua), y = fl(ub), z;
            if (x != x)
                z = y;
            else if (y != y)
                z = x;
            else if (p >> l & 1)
                z = (x < y || (x == y && (ua >> 31))) ? x : y;
            else
                z = (x > y || (x == y && !(ua >> 31))) ? x : y;
            r[l] = fout(z, false, false);
        }
        break;
    }
    case H_FSET: case H_FSETP: {
        if (in->mod[M_BOP] > 2)
            return nv_xunsupported(c);
        int ia = in->handler == H_FSETP ? 2 : 1;
        SRC(a, ia);
        SRC(b, ia + 1);
        uint32_t p = pred_of(w, &o[ia + 2]), t = 0;
        LANES {
            uint32_t ua = fmod_na(a[l], o[ia].neg, o[ia].abs);
            uint32_t ub = fmod_na(b[l], o[ia + 1].neg, o[ia + 1].abs);
            if (flush) {
                ua = ftz(ua);
                ub = ftz(ub);
            }
            t |= (uint32_t)fcmp(in->mod[M_CMP], fl(ua), fl(ub)) << l;
        }
        if (in->handler == H_FSETP) {
            pred_write(w, o[0].reg, m, bop(in->mod[M_BOP], t, p));
            pred_write(w, o[1].reg, m, bop(in->mod[M_BOP], ~t, p));
            return 0;
        }
        uint32_t res = bop(in->mod[M_BOP], t, p);
        uint32_t one = (in->flags & XF(BF)) ? 0x3f800000u : 0xffffffffu;
        LANES r[l] = (res >> l & 1) ? one : 0;
        break;
    }
    case H_FCMP: {
        SRC(a, 1);
        SRC(b, 2);
        SRC(cc, 3);
        LANES {
            uint32_t uc = flush ? ftz(cc[l]) : cc[l];
            r[l] = fcmp(in->mod[M_CMP], fl(uc), 0.0f) ? a[l] : b[l];
        }
        break;
    }
    case H_MUFU: {
        unsigned op = in->mod[M_MUFU];
        if (op == 6 || op == 7)
            return nv_xunsupported(c);
        SRC(a, 1);
        float x[NV_WARP], y[NV_WARP];
        bool neg = o[1].neg, abs_ = o[1].abs;
        if (op == 4 && !sat) {
            nv_lanes()->rcp(a, neg, abs_, r); /* sass_lanes.c: the same steps */
            break;
        }
        LANES x[l] = fl(ftz(fmod_na(a[l], neg, abs_)));
        /* one lane loop per function (RCP, RSQ and SQRT vectorise) */
        switch (op) {
        case 0: LANES y[l] = cosf(x[l]); break;
        case 1: LANES y[l] = sinf(x[l]); break;
        case 2: LANES y[l] = exp2f(x[l]); break;
        case 3: LANES y[l] = log2f(x[l]); break;
        case 4: LANES y[l] = 1.0f / x[l]; break;
        case 5: LANES y[l] = (float)(1.0 / sqrt((double)x[l])); break;
        default: LANES y[l] = sqrtf(x[l]); break;
        }
        if (sat) {
            LANES r[l] = fout(y[l], true, true);
        } else {
            /* fout(y, true, false) on the bits: NaN -> canonical, FTZ */
            uint32_t yb[NV_WARP];
            memcpy(yb, y, sizeof yb);
            LANES {
                uint32_t u = (yb[l] & 0x7f800000u) ? yb[l] : yb[l] & 0x80000000u;
                r[l] = (yb[l] & 0x7fffffffu) > 0x7f800000u ? 0x7fffffffu : u;
            }
        }
        break;
    }
    case H_RRO: {
        SRC(a, 1);
        LANES r[l] = fmod_na(a[l], o[1].neg, o[1].abs);
        break;
    }
    case H_F2F: {
        if (in->mod[M_DTYPE] != 2 || in->mod[M_STYPE] != 2 || (in->flags & XF(CC)))
            return nv_xunsupported(c);
        SRC(a, 1);
        unsigned rm = in->mod[M_RND];
        LANES {
            uint32_t u = fmod_na(a[l], o[1].neg, o[1].abs);
            if (flush)
                u = ftz(u);
            float x = fl(u);
            switch (rm) {
            case 4: x = rintf(x); break;
            case 5: x = floorf(x); break;
            case 6: x = ceilf(x); break;
            case 7: x = truncf(x); break;
            default: break;
            }
            r[l] = fout(x, flush, sat);
        }
        break;
    }
    case H_F2I: {
        unsigned dt = in->mod[M_DTYPE];
        if (in->mod[M_STYPE] != 2 || (dt & 3) == 3 || (in->flags & XF(CC)))
            return nv_xunsupported(c);
        SRC(a, 1);
        int bits = itype_bits(dt);
        double lo = (dt & 4) ? -ldexp(1, bits - 1) : 0;
        double hi = (dt & 4) ? ldexp(1, bits - 1) - 1 : ldexp(1, bits) - 1;
        LANES {
            uint32_t u = fmod_na(a[l], o[1].neg, o[1].abs);
            if (flush)
                u = ftz(u);
            double x = fl(u);
            switch (rnd) {
            case 0: x = nearbyint(x); break;
            case 1: x = floor(x); break;
            case 2: x = ceil(x); break;
            default: x = trunc(x); break;
            }
            int64_t v;
            if (x != x)
                v = 0;
            else if (x < lo)
                v = (int64_t)lo;
            else if (x > hi)
                v = (int64_t)hi;
            else
                v = (int64_t)x;
            r[l] = (uint32_t)v;
        }
        break;
    }
    case H_I2F: {
        unsigned st = in->mod[M_STYPE];
        if (in->mod[M_DTYPE] != 2 || (st & 3) == 3 || (in->flags & XF(CC)))
            return nv_xunsupported(c);
        SRC(a, 1);
        unsigned sh = 8 * in->mod[M_BSEL];
        LANES {
            int64_t v = iext(a[l] >> sh, st);
            if (o[1].abs && v < 0)
                v = -v;
            if (o[1].neg)
                v = -v;
            float f = (float)v;
            double err = (double)v - (double)f; /* v and f are exact doubles */
            r[l] = uf(round_dir(f, err, rnd, true));
        }
        break;
    }
    case H_I2I: {
        unsigned st = in->mod[M_STYPE], dt = in->mod[M_DTYPE];
        if (in->flags & XF(CC))
            return nv_xunsupported(c);
        SRC(a, 1);
        unsigned sh = 8 * in->mod[M_BSEL];
        int bits = itype_bits(dt);
        int64_t lo = (dt & 4) ? -((int64_t)1 << (bits - 1)) : 0;
        int64_t hi = (dt & 4) ? ((int64_t)1 << (bits - 1)) - 1 : ((int64_t)1 << bits) - 1;
        LANES {
            int64_t v = iext(a[l] >> sh, st);
            if (o[1].abs && v < 0)
                v = -v;
            if (o[1].neg)
                v = -v;
            if (sat)
                v = v < lo ? lo : v > hi ? hi : v;
            r[l] = (uint32_t)iext((uint32_t)v, dt);
        }
        break;
    }
    case H_IADD: case H_IADD3: case H_ISCADD: {
        if (in->mod[M_SHIFT3] || in->mod[M_AH] || in->mod[M_BH] || in->mod[M_CH])
            return nv_xunsupported(c);
        SRC(a, 1);
        SRC(b, 2);
        const uint32_t *cv = zeros;
        bool three = in->handler == H_IADD3;
        if (three) {
            cv = nv_xsrc(c, 3, tcc);
            if (!cv)
                return CG_ERR_FAULT;
        }
        unsigned shift = in->handler == H_ISCADD ? o[3].val & 31 : 0;
        bool x = (in->flags & XF(X)) != 0, cc = (in->flags & XF(CC)) != 0;
        uint32_t carry = 0;
        LANES {
            uint64_t ua = (uint32_t)(a[l] << shift), ub = b[l], uc = cv[l];
            /* with .X a negated operand is its one's complement: the carry
             * in supplies the +1 of a multi-word subtraction */
            uint64_t one = x ? 0 : 1;
            uint64_t s = (o[1].neg ? (uint64_t)(uint32_t)~ua + one : ua) +
                         (o[2].neg ? (uint64_t)(uint32_t)~ub + one : ub);
            if (three)
                s += o[3].neg ? (uint64_t)(uint32_t)~uc + one : uc;
            if (x)
                s += w->carry >> l & 1;
            if (sat && !three) {
                int64_t sv = (int64_t)(int32_t)(uint32_t)ua * (o[1].neg ? -1 : 1) +
                             (int64_t)(int32_t)(uint32_t)ub * (o[2].neg ? -1 : 1);
                s = (uint32_t)(sv > INT32_MAX ? INT32_MAX : sv < INT32_MIN ? INT32_MIN : sv);
            }
            carry |= (uint32_t)((s >> 32) != 0) << l;
            r[l] = (uint32_t)s;
        }
        if (cc)
            w->carry = (w->carry & ~m) | (carry & m);
        break;
    }
    case H_XMAD: {
        unsigned mode = in->mod[M_XMODE];
        if (mode == 3 || (in->flags & XF(X)))
            return nv_xunsupported(c);
        SRC(a, 1);
        SRC(b, 2);
        SRC(cc, 3);
        bool asg = in->mod[M_XSIGN] & 1, bsg = in->mod[M_XSIGN] >> 1 & 1;
        bool ah = (in->flags & XF(A_H1)) != 0, bh = (in->flags & XF(B_H1)) != 0;
        bool imm = o[2].kind == XO_IMM;
        uint32_t carry = 0;
        LANES {
            uint32_t p = xmad_half(a[l], ah, asg) * xmad_half(b[l], bh && !imm, bsg);
            if (in->flags & XF(PSL))
                p <<= 16;
            uint32_t cval = cc[l];
            if (mode == 1)
                cval &= 0xffff;
            else if (mode == 2)
                cval >>= 16;
            else if (mode == 4)
                cval += b[l] << 16;
            uint64_t s = (uint64_t)p + cval;
            carry |= (uint32_t)(s >> 32 & 1) << l;
            uint32_t res = (uint32_t)s;
            if (in->flags & XF(MRG))
                res = (res & 0xffff) | (b[l] << 16);
            r[l] = res;
        }
        if (in->flags & XF(CC))
            w->carry = (w->carry & ~m) | (carry & m);
        break;
    }
    case H_IMNMX: {
        if (in->mod[M_XSEL] || (in->flags & XF(CC)))
            return nv_xunsupported(c);
        SRC(a, 1);
        SRC(b, 2);
        uint32_t p = pred_of(w, &o[3]);
        bool sg = in->mod[M_SIGNED] == 1;
        LANES {
            bool lt = sg ? (int32_t)a[l] < (int32_t)b[l] : a[l] < b[l];
            r[l] = (p >> l & 1) ? (lt ? a[l] : b[l]) : (lt ? b[l] : a[l]);
        }
        break;
    }
    case H_ISETP: case H_ISET: {
        if (in->mod[M_BOP] > 2 || (in->flags & XF(X)))
            return nv_xunsupported(c);
        int ia = in->handler == H_ISETP ? 2 : 1;
        SRC(a, ia);
        SRC(b, ia + 1);
        uint32_t p = pred_of(w, &o[ia + 2]), t = 0;
        bool sg = in->mod[M_SIGNED] == 1;
        LANES t |= (uint32_t)icmp(in->mod[M_CMP], a[l], b[l], sg) << l;
        if (in->handler == H_ISETP) {
            pred_write(w, o[0].reg, m, bop(in->mod[M_BOP], t, p));
            pred_write(w, o[1].reg, m, bop(in->mod[M_BOP], ~t, p));
            return 0;
        }
        uint32_t res = bop(in->mod[M_BOP], t, p);
        uint32_t one = (in->flags & XF(BF)) ? 0x3f800000u : 0xffffffffu;
        LANES r[l] = (res >> l & 1) ? one : 0;
        break;
    }
    case H_SHL: case H_SHR: {
        if (in->flags & (XF(X) | XF(BREV)))
            return nv_xunsupported(c);
        SRC(a, 1);
        SRC(b, 2);
        bool wrap = (in->flags & XF(W)) != 0, sg = in->mod[M_SIGNED] == 1;
        LANES {
            uint32_t s = wrap ? b[l] & 31 : b[l];
            if (in->handler == H_SHL)
                r[l] = s >= 32 ? 0 : a[l] << s;
            else if (sg)
                r[l] = (uint32_t)((int32_t)a[l] >> (s >= 32 ? 31 : s));
            else
                r[l] = s >= 32 ? 0 : a[l] >> s;
        }
        break;
    }
    case H_LOP: case H_LOP3: {
        if (in->flags & XF(X))
            return nv_xunsupported(c);
        /* LOP/LOP3 register forms lead with the predicate output */
        int b0 = o[0].kind == XO_PRED ? 1 : 0;
        const uint32_t *a = nv_xsrc(c, b0 + 1, ta), *b = nv_xsrc(c, b0 + 2, tb);
        if (!a || !b)
            return CG_ERR_FAULT;
        if (in->handler == H_LOP) {
            unsigned op = in->mod[M_LOP];
            bool ia = o[b0 + 1].inv, ib = o[b0 + 2].inv;
            LANES {
                uint32_t x = ia ? ~a[l] : a[l], y = ib ? ~b[l] : b[l];
                r[l] = op == 0 ? x & y : op == 1 ? x | y : op == 2 ? x ^ y : y;
            }
        } else {
            const uint32_t *cc = nv_xsrc(c, b0 + 3, tcc);
            if (!cc)
                return CG_ERR_FAULT;
            unsigned lut = o[b0 + 4].val & 0xff;
            LANES {
                uint32_t x = 0;
                for (unsigned i = 0; i < 8; i++)
                    if (lut >> i & 1)
                        x |= ((i & 4) ? a[l] : ~a[l]) & ((i & 2) ? b[l] : ~b[l]) &
                             ((i & 1) ? cc[l] : ~cc[l]);
                r[l] = x;
            }
        }
        unsigned pm = in->mod[M_PMODE];
        if (b0 && pm) {
            uint32_t t = 0;
            LANES t |= (uint32_t)(pm == 1 ? 1 : pm == 2 ? r[l] == 0 : r[l] != 0) << l;
            pred_write(w, o[0].reg, m, t);
        }
        nv_xwrite(w, o[b0].reg, m, r);
        return 0;
    }
    case H_BFE: {
        if (in->flags & XF(BREV))
            return nv_xunsupported(c);
        SRC(a, 1);
        SRC(b, 2);
        bool sg = in->mod[M_SIGNED] == 1;
        LANES {
            unsigned pos = b[l] & 0xff, len = b[l] >> 8 & 0xff;
            uint32_t x = 0;
            unsigned msb = pos + len - 1 > 31 ? 31 : pos + len - 1;
            uint32_t sbit = (sg && len) ? a[l] >> (msb < 32 ? msb : 31) & 1 : 0;
            for (unsigned i = 0; i < 32; i++) {
                uint32_t bit = i < len ? (pos + i <= 31 ? a[l] >> (pos + i) & 1 : sbit) : sbit;
                x |= bit << i;
            }
            r[l] = x;
        }
        break;
    }
    case H_BFI: {
        SRC(a, 1);
        SRC(b, 2);
        SRC(cc, 3);
        LANES {
            unsigned pos = b[l] & 0xff, len = b[l] >> 8 & 0xff;
            uint32_t x = cc[l];
            for (unsigned i = 0; i < len && pos + i < 32; i++)
                x = (x & ~(1u << (pos + i))) | ((a[l] >> i & 1) << (pos + i));
            r[l] = x;
        }
        break;
    }
    case H_FLO: {
        SRC(a, 1);
        bool sg = in->mod[M_SIGNED] == 1, sh = (in->flags & XF(SH)) != 0;
        LANES {
            uint32_t v = o[1].inv ? ~a[l] : a[l];
            if (sg && (v >> 31))
                v = ~v;
            uint32_t i = flo32(v);
            r[l] = (sh && i != 0xffffffffu) ? 31 - i : i;
        }
        break;
    }
    case H_POPC: {
        SRC(a, 1);
        LANES r[l] = (uint32_t)__builtin_popcount(o[1].inv ? ~a[l] : a[l]);
        break;
    }
    case H_PSETP: case H_PSET: {
        if (in->mod[M_BOP] > 2 || in->mod[M_BOP2] > 2)
            return nv_xunsupported(c);
        int ia = in->handler == H_PSETP ? 2 : 1;
        uint32_t pa = pred_of(w, &o[ia]), pb = pred_of(w, &o[ia + 1]), pc = pred_of(w, &o[ia + 2]);
        uint32_t ab = bop(in->mod[M_BOP], pa, pb);
        if (in->handler == H_PSETP) {
            pred_write(w, o[0].reg, m, bop(in->mod[M_BOP2], ab, pc));
            pred_write(w, o[1].reg, m, bop(in->mod[M_BOP2], ~ab, pc));
            return 0;
        }
        uint32_t res = bop(in->mod[M_BOP2], ab, pc);
        uint32_t one = (in->flags & XF(BF)) ? 0x3f800000u : 0xffffffffu;
        LANES r[l] = (res >> l & 1) ? one : 0;
        break;
    }
    case H_P2R: case H_R2P: {
        if (in->mod[M_PRCC])
            return nv_xunsupported(c);
        int ia = in->handler == H_P2R ? 1 : 0;
        SRC(a, ia);
        SRC(b, ia + 1);
        unsigned sh = 8 * in->mod[M_BSEL];
        if (in->handler == H_R2P) {
            for (unsigned i = 0; i < 7; i++) {
                uint32_t sel = 0, val = 0;
                LANES {
                    sel |= (b[l] >> i & 1) << l;
                    val |= (a[l] >> (sh + i) & 1) << l;
                }
                pred_write(w, i, m & sel, val);
            }
            return 0;
        }
        LANES {
            uint32_t bits = 0;
            for (unsigned i = 0; i < 7; i++)
                bits |= (w->p[i] >> l & 1) << i;
            uint32_t mk = b[l] << sh;
            r[l] = (a[l] & ~mk) | ((bits << sh) & mk);
        }
        break;
    }
    case H_LDC: {
        if (in->mod[M_LDCMODE])
            return nv_xunsupported(c);
        unsigned sz = in->mod[M_MSIZE], nb = msize_bytes(sz);
        const xopnd *x = &o[1];
        unsigned d = o[0].reg;
        for (unsigned l = 0; l < NV_WARP; l++) {
            if (!(m >> l & 1))
                continue;
            int64_t off = (int64_t)(x->reg == 255 ? 0 : (int32_t)w->r[x->reg][l]) + x->off;
            if (nb >= 4) {
                for (unsigned k = 0; k < nb / 4; k++) {
                    uint32_t v;
                    if (cb_word(c, x->bank, off + 4 * k, &v))
                        return CG_ERR_FAULT;
                    if (d + k < 255)
                        w->r[d + k][l] = v;
                }
            } else {
                uint32_t v;
                if (off % nb)
                    return nv_xfault(c, CG_FAULT_BAD_ALIGN, 0, "LDC at misaligned 0x%llx",
                                     (unsigned long long)off);
                if (cb_word(c, x->bank, off & ~(int64_t)3, &v))
                    return CG_ERR_FAULT;
                v >>= 8 * (off & 3);
                if (d < 255)
                    w->r[d][l] = mextend(v, sz);
            }
        }
        return 0;
    }
    default:
        return nv_xunsupported(c);
    }
    nv_xwrite(w, o[0].reg, m, r);
    return 0;
}

/* ---- control flow and the warp loop ---------------------------------------------- */

typedef struct xflow {
    xstack st[NV_SASS_STACK];
    unsigned sp;
    uint32_t amask;
    uint32_t pc;
} xflow;

static int push(xctx *c, xflow *f, uint8_t type, uint32_t pc, uint32_t mask)
{
    if (f->sp == NV_SASS_STACK)
        return nv_xfault(c, CG_FAULT_DEPTH, 0,
                         "reconvergence stack overflow (%u entries) at 0x%llx", NV_SASS_STACK,
                         (unsigned long long)nv_xpc_bytes(c->pc));
    f->st[f->sp++] = (xstack){type, pc, mask};
    return 0;
}

/* Resolve a branch target to an instruction index. */
static int target_of(xctx *c, const xopnd *o, uint32_t *out)
{
    const nv_sass_prog *p = c->p;
    int64_t slot_next = (int64_t)(nv_xpc_bytes(c->pc) - 0x50) / 8 + 1;
    int64_t t = slot_next * 8 + o->off; /* byte offset from code start */
    uint64_t va = p->code_va + (uint64_t)t;
    if (t < 0 || va < p->region_va || va - p->region_va >= p->region_size || (t & 7))
        return nv_xfault(c, CG_FAULT_ADDR_RANGE, va,
                         "branch target 0x%llx outside the program region at 0x%llx",
                         (unsigned long long)va, (unsigned long long)nv_xpc_bytes(c->pc));
    int64_t slot = t / 8;
    if (slot % 4 == 0)
        slot++; /* a control word: the bundle's first instruction */
    int64_t idx = slot / 4 * 3 + slot % 4 - 1;
    if (idx >= (int64_t)p->n)
        return nv_xfault(c, CG_FAULT_ADDR_RANGE, va,
                         "branch target 0x%llx past the decoded program at 0x%llx",
                         (unsigned long long)va, (unsigned long long)nv_xpc_bytes(c->pc));
    *out = (uint32_t)idx;
    return 0;
}

static int budget_check(xctx *c)
{
    uint64_t b = c->env->budget ? c->env->budget : NV_SASS_DEFAULT_BUDGET;
    if (c->w->executed > b)
        return nv_xfault(c, CG_FAULT_HANG, 0,
                         "instruction budget of %llu ran out at pc 0x%llx",
                         (unsigned long long)b, (unsigned long long)nv_xpc_bytes(c->pc));
    return 0;
}

int nv_sass_run(const nv_sass_prog *p, const nv_sass_env *env, nv_sass_warp *w,
                nv_sass_fault *fault)
{
    xctx c = {.p = p, .env = env, .w = w, .fault = fault};
    xflow f;
    f.sp = 0;
    f.pc = 0;
    memset(w->r[255], 0, sizeof w->r[255]);
    w->p[7] = 0xffffffffu;
    f.amask = w->active & ~w->exited & ~w->killed;
    for (;;) {
        uint32_t live = w->active & ~w->exited & ~w->killed;
        while (f.amask == 0) {
            if (f.sp == 0)
                return 0;
            xstack *e = &f.st[--f.sp];
            f.amask = e->mask & live;
            f.pc = e->pc;
        }
        c.pc = f.pc;
        c.in = NULL;
        if (f.pc >= p->n) {
            uint64_t va = p->code_va + (nv_xpc_bytes(f.pc) - 0x50);
            if (p->end_fault_va)
                return nv_xfault(&c, CG_FAULT_UNMAPPED, p->end_fault_va,
                                 "shader code unreadable at 0x%llx",
                                 (unsigned long long)p->end_fault_va);
            return nv_xfault(&c, CG_FAULT_ADDR_RANGE, va,
                             "ran past the end of the program region at 0x%llx",
                             (unsigned long long)nv_xpc_bytes(f.pc));
        }
        const xins *in = &p->ins[f.pc];
        c.in = in;
        w->executed++;
        uint32_t g = w->p[in->guard];
        if (in->gnot)
            g = ~g;
        c.m = f.amask & g;
        f.pc++;
        int r = 0;
        switch (in->handler) {
        case H_NOP:
            break;
        case H_SSY: case H_PBK: {
            uint32_t t;
            if ((r = target_of(&c, &in->o[0], &t)) == 0)
                r = push(&c, &f, in->handler == H_SSY ? 1 : 2, t, f.amask);
            break;
        }
        case H_BRA: {
            if (in->mod[M_CC] != 15 || in->bad)
                return nv_xunsupported(&c);
            if ((r = budget_check(&c)) != 0)
                break;
            if (c.m == 0)
                break;
            uint32_t t;
            if ((r = target_of(&c, &in->o[0], &t)) != 0)
                break;
            if (c.m != f.amask && (r = push(&c, &f, 0, f.pc, f.amask & ~c.m)) != 0)
                break;
            f.amask = c.m;
            f.pc = t;
            break;
        }
        case H_SYNC: case H_BRK: {
            if (in->mod[M_CC] != 15)
                return nv_xunsupported(&c);
            if ((r = budget_check(&c)) != 0)
                break;
            if (c.m == 0)
                break;
            uint8_t want = in->handler == H_SYNC ? 1 : 2;
            int k = (int)f.sp - 1;
            while (k >= 0 && f.st[k].type != want)
                k--;
            if (k < 0)
                return nv_xfault(&c, CG_FAULT_BAD_STATE, 0,
                                 "%s with no %s on the reconvergence stack at 0x%llx",
                                 want == 1 ? "SYNC" : "BRK", want == 1 ? "SSY" : "PBK",
                                 (unsigned long long)nv_xpc_bytes(c.pc));
            if (want == 2)
                for (unsigned j = (unsigned)k + 1; j < f.sp; j++)
                    f.st[j].mask &= ~c.m;
            f.amask &= ~c.m;
            break;
        }
        case H_EXIT: case H_KIL:
            if (in->mod[M_CC] != 15)
                return nv_xunsupported(&c);
            if (in->handler == H_EXIT)
                w->exited |= c.m;
            else
                w->killed |= c.m;
            f.amask &= ~c.m;
            break;
        case H_ALD: case H_AST:
            if (c.m)
                r = in->bad ? nv_xunsupported(&c) : do_ald(&c, in->handler == H_AST);
            break;
        case H_IPA:
            if (c.m)
                r = in->bad ? nv_xunsupported(&c) : do_ipa(&c);
            break;
        case H_S2R:
            if (c.m)
                r = do_s2r(&c);
            break;
        case H_LD: case H_ST: case H_LDL: case H_STL:
            if (c.m)
                r = in->bad ? nv_xunsupported(&c)
                            : mem_access(&c, in->handler == H_ST || in->handler == H_STL,
                                         in->handler == H_LDL || in->handler == H_STL);
            break;
        case H_TEX: case H_TEXS: case H_TLD: case H_TLDS: case H_TLD4: case H_TXQ:
            if (c.m)
                r = in->bad ? nv_xunsupported(&c) : nv_xtex(&c);
            break;
        case H_UNSUPPORTED:
            return nv_xunsupported(&c);
        default:
            if (c.m)
                r = alu(&c);
            break;
        }
        if (r)
            return r;
    }
}
