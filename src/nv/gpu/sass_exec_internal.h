/* Maxwell warp interpreter internals, shared by its files:
 *   sass_exec.c       predecoding, the warp loop, the control instructions
 *                     and the dispatch table (the handler column of
 *                     src/nv/tables/sass.def)
 *   sass_exec_alu.c   ALU instructions (moves, float, conversions, integer,
 *                     logic, predicates)
 *   sass_exec_mem.c   constant-buffer, global/local memory and attribute
 *                     instructions, IPA, S2R
 *   sass_exec_tex.c   texture instructions
 *   sass_exec_ops.c   what every handler uses: operand reads, register
 *                     writes, fault posting (a leaf: it calls no handler)
 * Semantics and sources: docs/nv-sass-exec.md. */
#ifndef CMDGPU_NV_SASS_EXEC_INTERNAL_H
#define CMDGPU_NV_SASS_EXEC_INTERNAL_H

#include <string.h>
#include "core/bits.h"
#include "nv/tables/sass.h"
#include "sass_exec.h"

#define NV_SASS_MAX_INSNS 65536u /* decoded instructions per program */
#define NV_SASS_STACK 64u        /* reconvergence stack entries */

#define LANES for (unsigned l = 0; l < NV_WARP; l++)

/* Operand kinds after predecoding. */
enum { XO_NONE, XO_REG, XO_IMM, XO_CB, XO_PRED, XO_MEM, XO_CBX, XO_ATTR, XO_SR, XO_TARGET };

typedef struct xopnd {
    uint8_t kind;
    uint8_t neg, abs, inv, pnot; /* attribute bits of the operand */
    uint8_t reg;                 /* XO_REG/XO_PRED number; Ra of MEM/CBX/ATTR */
    uint8_t bank;                /* XO_CB/XO_CBX */
    uint32_t val;                /* immediate (expanded), cb byte offset, SR, attr offset */
    int32_t off;                 /* MEM/CBX signed offset, TARGET byte offset */
} xopnd;

typedef struct xctx xctx;
/* A handler runs one instruction: 0, or CG_ERR_FAULT with the fault set. */
typedef int nv_xhandler(xctx *c);

typedef struct xins {
    nv_xhandler *fn;  /* the form's handler (sass.def's handler column) */
    bool ctrl;        /* CTRL(...): runs even when no lane is selected */
    uint8_t guard, gnot, nop;
    int16_t form;     /* enum nv_sass_op, NV_SASS_RAW */
    /* every modifier field, by NV_SASS_M_* (0 when the form has none) */
    uint8_t mod[NV_SASS_M_COUNT];
    xopnd o[6];       /* operands in the form's order */
    uint64_t word;
} xins;

/* A modifier field's value: XMOD(in, RND) is in->mod[NV_SASS_M_RND]. */
#define XMOD(in, name) ((in)->mod[NV_SASS_M_##name])

struct nv_sass_prog {
    nv_sph sph;
    uint64_t start_va, code_va, region_va, region_size;
    uint32_t n;            /* decoded instructions */
    xins *ins;
    uint64_t end_fault_va; /* first unreadable code byte, 0 = none */
    nv_sass_prog_info info;
};

/* The reconvergence stack and the warp's position (the control
 * instructions' state). */
enum { XS_DIVERGE, XS_SSY, XS_PBK };
typedef struct xstack {
    uint8_t type; /* XS_* */
    uint32_t pc;
    uint32_t mask;
} xstack;

typedef struct xflow {
    xstack st[NV_SASS_STACK];
    unsigned sp;
    uint32_t amask; /* lanes on the current path */
    uint32_t pc;    /* the next instruction */
} xflow;

struct xctx {
    const nv_sass_prog *p;
    const nv_sass_env *env;
    nv_sass_warp *w;
    nv_sass_fault *fault;
    xflow *f;
    const xins *in;
    uint32_t pc;   /* current instruction index */
    uint32_t m;    /* lanes running this instruction (active and guard true) */
};

/* Every handler the table names: nv_x_<H> for LANE(H) and CTRL(H). */
#define LANE(h) nv_xhandler nv_x_##h;
#define CTRL(h) nv_xhandler nv_x_##h;
#define NV_SASS(id, mn, handler, value, mask, spec) handler
#include "nv/tables/sass.def"
#undef LANE
#undef CTRL

/* Instruction index <-> byte offset from the program start (SPH). */
static inline uint64_t nv_xpc_bytes(uint32_t i)
{
    return 0x50 + ((uint64_t)(i / 3) * 4 + i % 3 + 1) * 8;
}

/* ---- sass_exec_ops.c ---- */

int nv_xfault(xctx *c, cg_fault_kind kind, uint64_t va, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
/* CG_FAULT_UNSUPPORTED "not supported yet: <text> at <pc>". */
int nv_xunsupported(xctx *c);
/* Operand i's 32 lane values (registers by pointer, others in tmp). NULL on
 * fault (constant-buffer bounds). */
const uint32_t *nv_xsrc(xctx *c, int i, uint32_t tmp[NV_WARP]);
/* Constant buffer word c[bank][off]: 0, or a fault (unbound, out of range). */
int nv_xcb_word(xctx *c, unsigned bank, int64_t off, uint32_t *v);
void nv_xwrite(nv_sass_warp *w, unsigned reg, uint32_t m, const uint32_t *v);
extern const uint32_t nv_xzeros[NV_WARP];

/* Fetch operand i into `var` (tvar its lane buffer), or return the fault. */
#define SRC(var, i)                              \
    const uint32_t *var = nv_xsrc(c, i, t##var); \
    if (!var)                                    \
        return CG_ERR_FAULT

/* A predicate operand's 32 lanes (bit l = lane l), with its ! applied. */
static inline uint32_t nv_xpred(const nv_sass_warp *w, const xopnd *o)
{
    uint32_t v = w->p[o->reg & 7];
    return o->pnot ? ~v : v;
}

/* Write predicate p for the lanes of m; PT (7) ignores writes. */
static inline void nv_xpred_write(nv_sass_warp *w, unsigned p, uint32_t m, uint32_t v)
{
    if (p < 7)
        w->p[p] = (w->p[p] & ~m) | (v & m);
}

/* A register word as a float and back. */
static inline float nv_xf(uint32_t u) { return cg__bitsf(u); }

static inline uint32_t nv_xu(float f) { return cg__fbits(f); }

/* FTZ: a denormal becomes a zero of its sign. Result formatting of the
 * float unit: a NaN becomes the canonical 0x7fffffff, FTZ flushes a
 * denormal result, SAT clamps to [0, 1] (a NaN saturates to 0). */
static inline uint32_t nv_xftz(uint32_t u)
{
    return (u & 0x7f800000u) ? u : u & 0x80000000u;
}

static inline uint32_t nv_xfout(float r, bool flush, bool sat)
{
    uint32_t u = nv_xu(r);
    if (r != r)
        return sat ? 0 : 0x7fffffffu;
    if (flush)
        u = nv_xftz(u);
    if (sat) {
        if (!(r > 0.0f))
            return 0;
        if (r >= 1.0f)
            return 0x3f800000u;
    }
    return u;
}

#endif
