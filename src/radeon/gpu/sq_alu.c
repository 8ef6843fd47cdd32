/* radeon family: the R600/R700 shader core's ALU clauses (docs/radeon-sq.md).
 *
 * A clause is groups of up to five instructions (slots x y z w t) ending
 * with LAST, each group followed by its literal dwords. A group executes as
 * one VLIW bundle: every slot reads its sources (GPRs, kcache, the constant
 * file, PV/PS of the previous group, literals) before any slot writes, then
 * the results land: GPRs, PV (the vector slots' results) and PS (the t
 * slot's), AR (MOVA*), the predicate and the active mask (PRED_SET* with
 * UPDATE_PRED / UPDATE_EXECUTE_MASK), killed lanes (KILL*). The operation of
 * a slot is its row's KIND (one handler each) and the row's id and flags.
 *
 * Semantics: [R6ISA]/[R7ISA] chapter 4 (ALU clauses: slots, PV/PS, constants,
 * relative addressing, predication) and the ALU instruction descriptions;
 * [MESA] r600_shader.c for how the compiler relies on them (SIN/COS operand
 * scaling per chip, FLT_TO_INT's rounding). */
#include <float.h>
#include <math.h>
#include <inttypes.h>
#include <stddef.h>
#include <string.h>
#include "core/bits.h"
#include "radeon/gpu/sq.h"


typedef struct slot {
    const r6_op *op;
    unsigned id;      /* r6_opid */
    size_t dw;        /* the instruction's dword */
    const uint32_t *w;
    unsigned chan;    /* x y z w = 0..3, t = 4 */
    bool op3;
    uint32_t src[3][RD_SQ_LANES];
    uint32_t res[RD_SQ_LANES];
    rd_sq_mask exec;  /* lanes that execute it (active and predicated) */
    rd_sq_mask pred_true, kill;
    bool has_res;
} slot;

typedef struct group {
    slot sl[5];
    unsigned n;
    const uint32_t *lit;
    unsigned nlit;
    size_t dw; /* first dword */
} group;

#define G(f) r6_get(c, x->w, R6F_##f)

/* ---- sources ---- */

static int rel_index(rd_sq *s, const slot *x, unsigned im, unsigned l, int32_t *off)
{
    if (im < 4) {
        *off = s->ar[im][l];
        return 0;
    }
    if (im == 4) {
        *off = s->loop_index;
        return 0;
    }
    return rd_sq_fault(s, CG_FAULT_INVALID_OPCODE, x->dw, 2,
                       "%s at dword %zu: INDEX_MODE %u is not an R600/R700 index", x->op->name,
                       x->dw, im);
}

static int gpr_index(rd_sq *s, const slot *x, uint32_t sel, bool rel, unsigned l, unsigned *reg,
                     const char *what)
{
    r6_chip c = s->env->chip;
    int32_t off = 0;
    if (rel) {
        int rc = rel_index(s, x, G(ALU_W0_INDEX_MODE), l, &off);
        if (rc)
            return rc;
    }
    int64_t r = (int64_t)sel + off;
    bool ok = (r >= 0 && r < s->ngpr) || (!rel && r >= 124 && r < 128);
    if (!ok) {
        if (rel)
            return rd_sq_fault(s, CG_FAULT_BAD_STATE, x->dw, 2,
                               "%s at dword %zu: %s R%u%+d (relative, lane %u) is outside the %u "
                               "GPRs allocated",
                               x->op->name, x->dw, what, sel, (int)off, l, s->ngpr);
        return rd_sq_fault(s, CG_FAULT_BAD_STATE, x->dw, 2,
                           "%s at dword %zu: %s R%u is past the %u GPRs allocated", x->op->name,
                           x->dw, what, sel, s->ngpr);
    }
    *reg = (unsigned)r;
    return 0;
}

static int read_src(rd_sq *s, group *g, slot *x, unsigned k)
{
    r6_chip c = s->env->chip;
    static const r6_fid self[3] = {R6F_ALU_W0_SRC0_SEL, R6F_ALU_W0_SRC1_SEL, R6F_ALU_OP3_SRC2_SEL};
    static const r6_fid relf[3] = {R6F_ALU_W0_SRC0_REL, R6F_ALU_W0_SRC1_REL, R6F_ALU_OP3_SRC2_REL};
    static const r6_fid chf[3] = {R6F_ALU_W0_SRC0_CHAN, R6F_ALU_W0_SRC1_CHAN, R6F_ALU_OP3_SRC2_CHAN};
    static const r6_fid negf[3] = {R6F_ALU_W0_SRC0_NEG, R6F_ALU_W0_SRC1_NEG, R6F_ALU_OP3_SRC2_NEG};
    uint32_t sel = r6_get(c, x->w, self[k]), ch = r6_get(c, x->w, chf[k]);
    bool rel = r6_get(c, x->w, relf[k]) != 0;
    uint32_t neg = r6_get(c, x->w, negf[k]) ? 0x80000000u : 0;
    bool abs = !x->op3 && k < 2 && r6_get(c, x->w, k ? R6F_ALU_OP2_SRC1_ABS : R6F_ALU_OP2_SRC0_ABS);
    for (unsigned l = 0; l < RD_SQ_LANES; l++) {
        if (!((x->exec >> l) & 1))
            continue;
        uint32_t v;
        int rc = 0;
        if (sel < 128) {
            unsigned r;
            if ((rc = gpr_index(s, x, sel, rel, l, &r, "source")))
                return rc;
            v = s->w->gpr[r][ch][l];
        } else if (sel < 192) {
            unsigned set = sel >= 160, i = sel - (set ? 160 : 128);
            int32_t off = 0;
            if (rel && (rc = rel_index(s, x, G(ALU_W0_INDEX_MODE), l, &off)))
                return rc;
            int64_t idx = (int64_t)i + off;
            if (idx < 0 || idx >= s->kc_n[set])
                return rd_sq_fault(s, CG_FAULT_BAD_STATE, x->dw, 2,
                                   "%s at dword %zu: KC%u[%" PRId64 "] is outside the %u "
                                   "constants the clause locked",
                                   x->op->name, x->dw, set, idx, s->kc_n[set]);
            const rd_sq_cbuf *cb = &s->env->cb[s->kc_bank[set]];
            uint64_t at = s->kc_first[set] + (uint64_t)idx;
            if (at >= cb->n || !cb->c)
                return rd_sq_fault(s, CG_FAULT_BAD_LENGTH, x->dw, 2,
                                   "%s at dword %zu: KC%u[%" PRId64 "] reads constant %" PRIu64
                                   " of buffer %u, which has %u",
                                   x->op->name, x->dw, set, idx, at, s->kc_bank[set], cb->n);
            v = cb->c[at][ch];
        } else if (sel >= 256) {
            int32_t off = 0;
            if (rel && (rc = rel_index(s, x, G(ALU_W0_INDEX_MODE), l, &off)))
                return rc;
            int64_t idx = (int64_t)(sel - 256) + off;
            if (idx < 0 || idx > 255)
                return rd_sq_fault(s, CG_FAULT_BAD_STATE, x->dw, 2,
                                   "%s at dword %zu: C%" PRId64 " (relative, lane %u) is outside "
                                   "the constant file C0..C255",
                                   x->op->name, x->dw, idx, l);
            v = s->env->cfile ? s->env->cfile[idx][ch] : 0;
        } else {
            switch (sel) {
            case R6_SRC_0: v = 0; break;
            case R6_SRC_1: v = 0x3F800000u; break;
            case R6_SRC_1_INT: v = 1; break;
            case R6_SRC_M_1_INT: v = 0xFFFFFFFFu; break;
            case R6_SRC_0_5: v = 0x3F000000u; break;
            case R6_SRC_LITERAL: v = g->lit[ch]; break;
            case R6_SRC_PV: v = s->pv[ch][l]; break;
            case R6_SRC_PS: v = s->ps[l]; break;
            default:
                return rd_sq_fault(s, CG_FAULT_INVALID_OPCODE, x->dw, 2,
                                   "%s at dword %zu: source select %u is not an R600/R700 operand",
                                   x->op->name, x->dw, sel);
            }
        }
        /* modifiers on the sign bit: |x| then -x ([R6ISA] ALU_WORD0 NEG, ALU_WORD1_OP2 ABS) */
        if (abs)
            v &= 0x7FFFFFFFu;
        x->src[k][l] = v ^ neg;
    }
    return 0;
}

/* ---- operations ---- */

/* MUL, MULADD, DOT4 without IEEE: 0 times anything (inf, NaN) is 0
 * ([R6ISA] MUL: "0 * anything = 0", the DX9 rule; MUL_IEEE is IEEE). */
static float mul_legacy(bool ieee, float a, float b)
{
    if (!ieee && (a == 0.0f || b == 0.0f))
        return 0.0f;
    return a * b;
}

static bool compare(uint32_t flags, uint32_t a, uint32_t b)
{
    int cc = (int)(flags & R6_F_CC_MASK);
    if (flags & R6_F_INT_CMP) {
        int32_t x = (int32_t)a, y = (int32_t)b;
        return cc == R6_F_CC_E ? x == y : cc == R6_F_CC_GT ? x > y : cc == R6_F_CC_GE ? x >= y
               : cc == R6_F_CC_NE ? x != y : cc == R6_F_CC_LT ? x < y : x <= y;
    }
    if (flags & R6_F_UINT_CMP)
        return cc == R6_F_CC_E ? a == b : cc == R6_F_CC_GT ? a > b : cc == R6_F_CC_GE ? a >= b
               : cc == R6_F_CC_NE ? a != b : cc == R6_F_CC_LT ? a < b : a <= b;
    float x = cg__bitsf(a), y = cg__bitsf(b);
    return cc == R6_F_CC_E ? x == y : cc == R6_F_CC_GT ? x > y : cc == R6_F_CC_GE ? x >= y
           : cc == R6_F_CC_NE ? x != y : cc == R6_F_CC_LT ? x < y : x <= y;
}

/* Clamp an infinite result to +-FLT_MAX (the _CLAMPED ops) or +-0 (_FF). */
static float inf_to(float r, bool ff)
{
    if (isinf(r))
        return ff ? copysignf(0.0f, r) : copysignf(FLT_MAX, r);
    return r;
}

/* float to int in the round-to-nearest-even mode, NaN 0, saturating. */
static uint32_t f2i(float f, bool uns)
{
    if (isnan(f))
        return 0;
    float r = nearbyintf(f);
    if (uns)
        return r <= 0.0f ? 0 : r >= 4294967296.0f ? 0xFFFFFFFFu : (uint32_t)r;
    return r <= -2147483648.0f ? 0x80000000u : r >= 2147483648.0f ? 0x7FFFFFFFu : (uint32_t)(int32_t)r;
}

static uint32_t op_float(rd_sq *s, const slot *x, uint32_t ua, uint32_t ub, uint32_t uc)
{
    float a = cg__bitsf(ua), b = cg__bitsf(ub), cc = cg__bitsf(uc);
    bool ieee = (x->op->flags & R6_F_IEEE) != 0;
    bool r600 = s->env->chip == R6_R600;
    switch (x->id) {
    case R6OP_ADD: return cg__fbits(a + b);
    case R6OP_MUL: case R6OP_MUL_IEEE: return cg__fbits(mul_legacy(ieee, a, b));
    /* MAX/MIN: a >= b ? a : b (NaN: the second); _DX10: IEEE maxNum/minNum */
    case R6OP_MAX: return cg__fbits(a >= b ? a : b);
    case R6OP_MIN: return cg__fbits(a < b ? a : b);
    case R6OP_MAX_DX10: return cg__fbits(fmaxf(a, b));
    case R6OP_MIN_DX10: return cg__fbits(fminf(a, b));
    case R6OP_FRACT: return cg__fbits(a - floorf(a));
    case R6OP_TRUNC: return cg__fbits(truncf(a));
    case R6OP_CEIL: return cg__fbits(ceilf(a));
    case R6OP_RNDNE: return cg__fbits(nearbyintf(a));
    case R6OP_FLOOR: return cg__fbits(floorf(a));
    case R6OP_MOV: return ua;
    case R6OP_EXP_IEEE: return cg__fbits(exp2f(a));
    case R6OP_LOG_IEEE: return cg__fbits(log2f(a));
    case R6OP_LOG_CLAMPED: return cg__fbits(inf_to(log2f(a), false));
    case R6OP_RECIP_IEEE: return cg__fbits(1.0f / a);
    case R6OP_RECIP_CLAMPED: return cg__fbits(inf_to(1.0f / a, false));
    case R6OP_RECIP_FF: return cg__fbits(inf_to(1.0f / a, true));
    case R6OP_RECIPSQRT_IEEE: return cg__fbits(1.0f / sqrtf(a));
    case R6OP_RECIPSQRT_CLAMPED: return cg__fbits(inf_to(1.0f / sqrtf(a), false));
    case R6OP_RECIPSQRT_FF: return cg__fbits(inf_to(1.0f / sqrtf(a), true));
    case R6OP_SQRT_IEEE: return cg__fbits(sqrtf(a));
    /* SIN/COS: radians on the R600, revolutions (x 2 pi) on the R700
     * ([MESA] r600_shader.c tgsi_setup_trig scales the operand to [-pi, pi]
     * for R600 and to [-0.5, 0.5] for later chips) */
    case R6OP_SIN: return cg__fbits(sinf(r600 ? a : a * 6.28318530717958647692f));
    case R6OP_COS: return cg__fbits(cosf(r600 ? a : a * 6.28318530717958647692f));
    case R6OP_MULADD: return cg__fbits(mul_legacy(false, a, b) + cc);
    case R6OP_MULADD_M2: return cg__fbits((mul_legacy(false, a, b) + cc) * 2.0f);
    case R6OP_MULADD_M4: return cg__fbits((mul_legacy(false, a, b) + cc) * 4.0f);
    case R6OP_MULADD_D2: return cg__fbits((mul_legacy(false, a, b) + cc) * 0.5f);
    case R6OP_MULADD_IEEE: return cg__fbits(a * b + cc);
    case R6OP_MULADD_IEEE_M2: return cg__fbits((a * b + cc) * 2.0f);
    case R6OP_MULADD_IEEE_M4: return cg__fbits((a * b + cc) * 4.0f);
    case R6OP_MULADD_IEEE_D2: return cg__fbits((a * b + cc) * 0.5f);
    default: return 0; /* the MUL_LIT rows: refused before (slot_supported) */
    }
}

static uint32_t op_int(const slot *x, uint32_t a, uint32_t b)
{
    int32_t sa = (int32_t)a, sb = (int32_t)b;
    switch (x->id) {
    case R6OP_AND_INT: return a & b;
    case R6OP_OR_INT: return a | b;
    case R6OP_XOR_INT: return a ^ b;
    case R6OP_NOT_INT: return ~a;
    case R6OP_ADD_INT: return a + b;
    case R6OP_SUB_INT: return a - b;
    case R6OP_MAX_INT: return (uint32_t)(sa > sb ? sa : sb);
    case R6OP_MIN_INT: return (uint32_t)(sa < sb ? sa : sb);
    case R6OP_MAX_UINT: return a > b ? a : b;
    case R6OP_MIN_UINT: return a < b ? a : b;
    case R6OP_ASHR_INT: return (uint32_t)(sa >> (b & 31));
    case R6OP_LSHR_INT: return a >> (b & 31);
    case R6OP_LSHL_INT: return a << (b & 31);
    case R6OP_MULLO_INT: case R6OP_MULLO_UINT: return a * b;
    case R6OP_MULHI_INT: return (uint32_t)(((int64_t)sa * sb) >> 32);
    case R6OP_MULHI_UINT: return (uint32_t)(((uint64_t)a * b) >> 32);
    /* RECIP_UINT: 2^32 / a, all ones for 0 */
    case R6OP_RECIP_UINT: return a ? (uint32_t)(0x100000000ull / a > 0xFFFFFFFFu ? 0xFFFFFFFFu : 0x100000000ull / a) : 0xFFFFFFFFu;
    default: return 0; /* RECIP_INT: refused before */
    }
}

/* Per-lane operation of one slot; the kinds REDUCE and MOVA are done by
 * the group. pred/kill: the lane's predicate or kill outcome. */
static uint32_t eval(rd_sq *s, const slot *x, unsigned l, bool *pred, bool *kill)
{
    uint32_t a = x->src[0][l], b = x->src[1][l], c = x->src[2][l];
    uint32_t fl = x->op->flags;
    switch (x->op->kind) {
    case R6K_FLOAT: return op_float(s, x, a, b, c);
    case R6K_INT: return op_int(x, a, b);
    case R6K_CVT:
        if (x->id == R6OP_INT_TO_FLT)
            return cg__fbits((float)(int32_t)a);
        if (x->id == R6OP_UINT_TO_FLT)
            return cg__fbits((float)a);
        return f2i(cg__bitsf(a), x->id == R6OP_FLT_TO_UINT);
    case R6K_SET:
        return compare(fl, a, b) ? (fl & (R6_F_INT_DST | R6_F_UINT_DST) ? 0xFFFFFFFFu : 0x3F800000u)
                                 : 0;
    case R6K_CMOV: {
        return compare(fl, a, 0) ? b : c; /* src0 against 0 (float or, _INT, integer) */
    }
    case R6K_KILL:
        *kill = compare(fl, a, b);
        return *kill ? 0x3F800000u : 0;
    case R6K_PRED:
        /* [R6ISA] PRED_SET*: the predicate is the comparison; the result is
         * 0.0 where it holds and 1.0 where not (a skip count). */
        switch (x->id) {
        case R6OP_PRED_SET_INV:
            *pred = cg__bitsf(a) == 1.0f;
            return *pred ? 0 : a;
        case R6OP_PRED_SET_POP:
            *pred = cg__bitsf(a) <= 0.0f;
            return *pred ? 0 : cg__fbits(cg__bitsf(a) - 1.0f);
        case R6OP_PRED_SET_CLR:
            *pred = false;
            return cg__fbits(FLT_MAX);
        case R6OP_PRED_SET_RESTORE:
            *pred = cg__bitsf(a) == 0.0f;
            return *pred ? 0 : a;
        default:
            *pred = compare(fl, a, b);
            return *pred ? 0 : 0x3F800000u;
        }
    default: return a; /* MOVA: the destination gets the source */
    }
}

/* Refuse what is not modelled, before any slot writes. */
static int slot_supported(rd_sq *s, const slot *x)
{
    unsigned k = x->op->kind;
    if (k == R6K_F64 || k == R6K_PRED_PUSH || x->id == R6OP_CUBE || x->id == R6OP_RECIP_INT ||
        x->id == R6OP_MUL_LIT || x->id == R6OP_MUL_LIT_M2 || x->id == R6OP_MUL_LIT_M4 ||
        x->id == R6OP_MUL_LIT_D2 || x->id == R6OP_MOVA_GPR_INT)
        return rd_sq_fault(s, CG_FAULT_UNSUPPORTED, x->dw, 2,
                           "%s at dword %zu is not supported yet", x->op->name, x->dw);
    return 0;
}

/* ---- one group ---- */

static int decode_group(rd_sq *s, group *g, size_t at, size_t end, size_t *next)
{
    r6_chip c = s->env->chip;
    unsigned used = 0;
    bool last = false, t_used = false;
    g->n = 0;
    g->dw = 2 * at;
    while (!last) {
        if (at >= end)
            return rd_sq_fault(s, CG_FAULT_BAD_LENGTH, 2 * at, 0,
                               "the ALU group at dword %zu has no LAST before its clause ends",
                               g->dw);
        if (g->n == 5)
            return rd_sq_fault(s, CG_FAULT_INVALID_OPCODE, g->dw, 2,
                               "the ALU group at dword %zu has no LAST in 5 slots", g->dw);
        slot *x = &g->sl[g->n];
        memset(x, 0, sizeof *x); /* sources of lanes that do not run read as 0 */
        x->dw = 2 * at;
        x->w = s->env->code + x->dw;
        x->op3 = (x->w[1] & (7u << 15)) != 0;
        unsigned e = x->op3 ? s->t.op3[G(ALU_OP3_ALU_INST) & 31]
                            : G(ALU_OP2_ALU_INST) < 256 ? s->t.op2[G(ALU_OP2_ALU_INST)] : 0;
        x->op = e ? &r6_ops[e - 1] : NULL;
        if (!x->op || !r6_op_clean(x->op, c, x->w))
            return rd_sq_fault(s, CG_FAULT_INVALID_OPCODE, x->dw, 2,
                               "%s ALU instruction at dword %zu",
                               x->op ? "reserved bits set in the" : "undefined", x->dw);
        x->id = e - 1;
        last = G(ALU_W0_LAST) != 0;
        unsigned ch = G(ALU_W1_DST_CHAN);
        /* the slot: a channel used twice in the group, or a trans-only op,
         * goes to t ([R6ISA] "ALU instruction slots"; as isa_text.c) */
        bool t = (used & (1u << ch)) || x->op->slots[c] == R6_SLOT_S;
        used |= 1u << ch;
        if (t && t_used)
            return rd_sq_fault(s, CG_FAULT_INVALID_OPCODE, x->dw, 2,
                               "the ALU group at dword %zu has a second instruction for the t "
                               "slot (dword %zu)",
                               g->dw, x->dw);
        if (t && !(x->op->slots[c] & R6_SLOT_S))
            return rd_sq_fault(s, CG_FAULT_INVALID_OPCODE, x->dw, 2,
                               "%s cannot run in the t slot (dword %zu)", x->op->name, x->dw);
        t_used |= t;
        x->chan = t ? 4 : ch;
        g->n++;
        at++;
    }
    /* literals: the highest literal channel read + 1, in whole 64-bit units */
    unsigned need = 0;
    for (unsigned i = 0; i < g->n; i++) {
        const slot *x = &g->sl[i];
        static const r6_fid self[3] = {R6F_ALU_W0_SRC0_SEL, R6F_ALU_W0_SRC1_SEL, R6F_ALU_OP3_SRC2_SEL};
        static const r6_fid chf[3] = {R6F_ALU_W0_SRC0_CHAN, R6F_ALU_W0_SRC1_CHAN, R6F_ALU_OP3_SRC2_CHAN};
        for (unsigned k = 0; k < x->op->nsrc && k < 3; k++)
            if (r6_get(c, x->w, self[k]) == R6_SRC_LITERAL && r6_get(c, x->w, chf[k]) + 1 > need)
                need = r6_get(c, x->w, chf[k]) + 1;
    }
    size_t units = (need + 1) / 2;
    if (at + units > end)
        return rd_sq_fault(s, CG_FAULT_BAD_LENGTH, g->dw, 2,
                           "the literals of the ALU group at dword %zu run past the clause's count",
                           g->dw);
    g->lit = s->env->code + 2 * at;
    g->nlit = need;
    *next = at + units;
    return 0;
}

static int write_dst(rd_sq *s, slot *x)
{
    r6_chip c = s->env->chip;
    bool write = x->op3 || G(ALU_OP2_WRITE_MASK);
    uint32_t omod = x->op3 ? 0 : G(ALU_OP2_OMOD);
    bool clamp = G(ALU_W1_CLAMP) != 0;
    /* OMOD and CLAMP act on float results only (not the F_INT_DST/F_UINT_DST rows) */
    bool is_float = !(x->op->flags & (R6_F_INT_DST | R6_F_UINT_DST)) && x->op->kind != R6K_INT;
    static const float om[4] = {1.0f, 2.0f, 4.0f, 0.5f};
    unsigned ch = G(ALU_W1_DST_CHAN), gpr = G(ALU_W1_DST_GPR);
    bool rel = G(ALU_W1_DST_REL) != 0;
    for (unsigned l = 0; l < RD_SQ_LANES; l++) {
        if (!((x->exec >> l) & 1))
            continue;
        uint32_t v = x->res[l];
        if (is_float && (omod || clamp)) {
            float f = cg__bitsf(v) * om[omod];
            /* CLAMP: to [0, 1] (NaN: 0) */
            if (clamp)
                f = f >= 1.0f ? 1.0f : f > 0.0f ? f : 0.0f;
            v = cg__fbits(f);
        }
        x->res[l] = v;
        if (!write)
            continue;
        unsigned r;
        int rc = gpr_index(s, x, gpr, rel, l, &r, "destination");
        if (rc)
            return rc;
        s->w->gpr[r][ch][l] = v;
    }
    return 0;
}

/* DOT4, DOT4_IEEE, MAX4 over the four vector slots (CUBE refused). */
static int reduce(rd_sq *s, group *g)
{
    slot *v[4] = {NULL, NULL, NULL, NULL};
    const r6_op *op = NULL;
    for (unsigned i = 0; i < g->n; i++)
        if (g->sl[i].op->kind == R6K_REDUCE) {
            op = g->sl[i].op;
            if (g->sl[i].chan < 4)
                v[g->sl[i].chan] = &g->sl[i];
        }
    if (!op)
        return 0;
    for (int k = 0; k < 4; k++)
        if (!v[k] || v[k]->op != op)
            return rd_sq_fault(s, CG_FAULT_INVALID_OPCODE, g->dw, 2,
                               "the ALU group at dword %zu runs %s without it in all four vector "
                               "slots",
                               g->dw, op->name);
    bool ieee = (op->flags & R6_F_IEEE) != 0;
    for (unsigned l = 0; l < RD_SQ_LANES; l++) {
        float r = 0.0f;
        for (int k = 0; k < 4; k++) {
            float a = cg__bitsf(v[k]->src[0][l]), b = cg__bitsf(v[k]->src[1][l]);
            if (op == &r6_ops[R6OP_MAX4])
                r = k == 0 || a > r ? a : r;
            else
                r += mul_legacy(ieee, a, b);
        }
        for (int k = 0; k < 4; k++)
            v[k]->res[l] = cg__fbits(r);
    }
    return 0;
}

static int run_group(rd_sq *s, group *g)
{
    r6_chip c = s->env->chip;
    int rc;
    /* 1. which lanes run each slot: active, and PRED_SEL (2: predicate
     * clear, 3: set) */
    for (unsigned i = 0; i < g->n; i++) {
        slot *x = &g->sl[i];
        if ((rc = slot_supported(s, x)))
            return rc;
        uint32_t ps = G(ALU_W0_PRED_SEL);
        if (ps == 1)
            return rd_sq_fault(s, CG_FAULT_INVALID_OPCODE, x->dw, 2,
                               "%s at dword %zu: PRED_SEL 1 is reserved", x->op->name, x->dw);
        x->exec = s->active & (ps == 2 ? ~s->pred : ps == 3 ? s->pred : ~(rd_sq_mask)0);
    }
    /* 2. every slot reads its sources */
    for (unsigned i = 0; i < g->n; i++)
        for (unsigned k = 0; k < g->sl[i].op->nsrc && k < 3; k++)
            if ((rc = read_src(s, g, &g->sl[i], k)))
                return rc;
    /* 3. compute */
    if ((rc = reduce(s, g)))
        return rc;
    for (unsigned i = 0; i < g->n; i++) {
        slot *x = &g->sl[i];
        x->has_res = x->op->kind != R6K_NOP;
        if (x->op->kind == R6K_REDUCE || x->op->kind == R6K_NOP)
            continue;
        for (unsigned l = 0; l < RD_SQ_LANES; l++) {
            if (!((x->exec >> l) & 1))
                continue;
            bool pred = false, kill = false;
            x->res[l] = eval(s, x, l, &pred, &kill);
            x->pred_true |= (rd_sq_mask)pred << l;
            x->kill |= (rd_sq_mask)kill << l;
        }
    }
    /* 4. write: GPRs, PV/PS, AR, predicate, execute mask, kills */
    rd_sq_mask new_active = s->active, new_pred = s->pred, kill = 0;
    for (unsigned i = 0; i < g->n; i++) {
        slot *x = &g->sl[i];
        if (!x->has_res)
            continue;
        if ((rc = write_dst(s, x)))
            return rc;
        for (unsigned l = 0; l < RD_SQ_LANES; l++) {
            if (!((x->exec >> l) & 1))
                continue;
            if (x->chan < 4)
                s->pv[x->chan][l] = x->res[l];
            else
                s->ps[l] = x->res[l];
            if (x->op->kind == R6K_MOVA) {
                /* MOVA: round to nearest; MOVA_FLOOR: floor; MOVA_INT: the
                 * integer; AR is clamped to [-256, 255] ([R6ISA] MOVA*) */
                float f = cg__bitsf(x->src[0][l]);
                int64_t a = x->id == R6OP_MOVA_INT   ? (int32_t)x->src[0][l]
                            : isnan(f)               ? 0
                            : x->id == R6OP_MOVA_FLOOR ? (int64_t)fmaxf(fminf(floorf(f), 1e6f), -1e6f)
                                                     : (int64_t)fmaxf(fminf(nearbyintf(f), 1e6f), -1e6f);
                s->ar[x->chan & 3][l] = (int32_t)(a < -256 ? -256 : a > 255 ? 255 : a);
            }
        }
        if (x->op->kind == R6K_PRED && !x->op3) {
            if (G(ALU_OP2_UPDATE_PRED))
                new_pred = (new_pred & ~x->exec) | x->pred_true;
            if (G(ALU_OP2_UPDATE_EXECUTE_MASK))
                new_active = (new_active & ~x->exec) | x->pred_true;
        }
        kill |= x->kill;
    }
    s->pred = new_pred;
    s->killed |= kill;
    s->active = new_active & ~s->killed;
    return 0;
}

int rd_sq_alu_clause(rd_sq *s, size_t cf_dw, uint32_t addr, uint32_t count)
{
    size_t units = s->env->ndw / 2;
    if ((uint64_t)addr + count > units)
        return rd_sq_fault(s, CG_FAULT_BAD_LENGTH, cf_dw, 2,
                           "the ALU clause at dword %zu (@%u, %u slots) runs past the end of the "
                           "program (%zu dwords)",
                           cf_dw, addr, count, s->env->ndw);
    size_t at = addr, end = (size_t)addr + count;
    group g;
    while (at < end) {
        int rc = rd_sq_tick(s, 2 * at, 2, "an ALU group");
        if (rc)
            return rc;
        size_t next = end;
        if ((rc = decode_group(s, &g, at, end, &next)) || (rc = run_group(s, &g)))
            return rc;
        at = next;
    }
    return 0;
}
