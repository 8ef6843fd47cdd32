/* Maxwell warp interpreter: the ALU instructions, one handler per
 * instruction group (the handler column of src/nv/tables/sass.def names
 * them): moves and selects, float arithmetic, float compares, MUFU,
 * conversions, integer arithmetic, compares, shifts, logic, bit fields and
 * the predicate instructions. Each handler runs the 32 lanes of one
 * instruction as lane loops over the [reg][lane] register file and writes
 * the lanes the guard selected. Modifiers are read as field values
 * (XMOD(in, FIELD), NV_SASS_<LIST>_<VALUE>), never by their spelling.
 *
 * Sources (facts only, no code taken): the field layouts of sass.def
 * (envytools envydis/gm107.c, Mesa nv50_ir_emit_gm107.cpp, yuzu
 * frontend/maxwell); yuzu's XMAD and P2R/R2P decoders; PTX ISA prmt, bfe,
 * bfi. Where the model chooses (rounding without fesetround, MUFU
 * precision, ...) docs/nv-sass-exec.md "Semantics chosen" says so. */
#include <float.h>
#include <math.h>
#include "core/half.h"
#include "sass_exec_internal.h"
#include "sass_lanes.h"

/* short names for the lane loops below */
#define fl nv_xf
#define uf nv_xu
#define ftz nv_xftz
#define fout nv_xfout
#define zeros nv_xzeros

/* ---- float helpers ----------------------------------------------------------- */

/* An operand's .NEG and .ABS modifiers act on the sign bit alone (so a NaN
 * keeps its payload). */
static inline uint32_t fmod_na(uint32_t u, bool neg, bool abs)
{
    if (abs)
        u &= 0x7fffffffu;
    if (neg)
        u ^= 0x80000000u;
    return u;
}

/* Directed rounding: r is the round-to-nearest result, err the sign of
 * (exact - r) (any value of that sign, 0 if exact). rnd: RM, RP or RZ. */
static float round_dir(float r, double err, unsigned rnd, bool finite_in)
{
    if (rnd == NV_SASS_RND_RN || r != r)
        return r;
    if (isinf(r)) {
        if (!finite_in)
            return r;
        if ((rnd == NV_SASS_RND_RZ) || (rnd == NV_SASS_RND_RM && r > 0) ||
            (rnd == NV_SASS_RND_RP && r < 0))
            return r > 0 ? FLT_MAX : -FLT_MAX;
        return r;
    }
    if (err == 0 || err != err)
        return r;
    if (rnd == NV_SASS_RND_RM && err < 0)
        return nextafterf(r, -INFINITY);
    if (rnd == NV_SASS_RND_RP && err > 0)
        return nextafterf(r, INFINITY);
    if (rnd == NV_SASS_RND_RZ && ((r > 0 && err < 0) || (r < 0 && err > 0)))
        return nextafterf(r, 0.0f);
    return r;
}

/* a + b rounded as rnd: TwoSum gives the exact error of the nearest sum. */
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

/* The comparison codes are masks of the outcomes they accept ([5bb0_0],
 * [5b60_0]): LT, EQ, GT and, for floats, unordered (NAN). */
static bool fcmp(unsigned code, float a, float b)
{
    unsigned bits = (a < b ? NV_SASS_FCMP_LT : 0) | (a == b ? NV_SASS_FCMP_EQ : 0) |
                    (a > b ? NV_SASS_FCMP_GT : 0) | ((a != a || b != b) ? NV_SASS_FCMP_NAN : 0);
    return (code & bits) != 0;
}

static bool icmp(unsigned code, uint32_t a, uint32_t b, bool is_signed)
{
    bool lt = is_signed ? (int32_t)a < (int32_t)b : a < b;
    unsigned bits = lt ? NV_SASS_ICMP_LT : a == b ? NV_SASS_ICMP_EQ : NV_SASS_ICMP_GT;
    return (code & bits) != 0;
}

/* The boolean operation joining a result with a predicate ([5bb0_1]). */
static uint32_t bop(unsigned op, uint32_t a, uint32_t b)
{
    return op == NV_SASS_BOP_AND ? a & b : op == NV_SASS_BOP_OR ? a | b : a ^ b;
}

/* ---- moves and selects --------------------------------------------------------- */

/* MOV/MOV32I copy the source to Rd. The last operand is a lane mask
 * (envydis 42:39, 15:12 in MOV32I): only the default 0xf, all lanes, is
 * modelled. */
int nv_x_MOV(xctx *c)
{
    const xins *in = c->in;
    uint32_t ta[NV_WARP];
    if (in->o[2].val != 0xf)
        return nv_xunsupported(c);
    SRC(a, 1);
    nv_xwrite(c->w, in->o[0].reg, c->m, a);
    return 0;
}

/* SEL: Rd = P ? a : b per lane. */
int nv_x_SEL(xctx *c)
{
    const xopnd *o = c->in->o;
    uint32_t r[NV_WARP], ta[NV_WARP], tb[NV_WARP];
    SRC(a, 1);
    SRC(b, 2);
    uint32_t p = nv_xpred(c->w, &o[3]);
    LANES r[l] = (p >> l & 1) ? a[l] : b[l];
    nv_xwrite(c->w, o[0].reg, c->m, r);
    return 0;
}

/* PRMT in its default mode, as PTX prmt: the selector (the middle operand)
 * picks each result byte from the eight bytes of {Rc, Ra} by a nibble;
 * bit 3 of the nibble replicates the byte's sign. The F4E..RC16 modes are
 * not modelled. */
int nv_x_PRMT(xctx *c)
{
    const xins *in = c->in;
    uint32_t r[NV_WARP], ta[NV_WARP], tb[NV_WARP], tcc[NV_WARP];
    if (XMOD(in, PRMT))
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
    nv_xwrite(c->w, in->o[0].reg, c->m, r);
    return 0;
}

/* ---- float arithmetic ------------------------------------------------------- */

enum { F_ADD, F_MUL, F_FMA };

/* FADD, FMUL (with its result scale .D2../.M8) and the fused FFMA, IEEE
 * binary32 with the operands' .NEG/.ABS. FTZ flushes denormal inputs and
 * the result; FMZ (FMUL/FFMA) also flushes, and makes 0 times anything 0
 * (FFMA: the addend). The rounding field picks RN/RM/RP/RZ. .CC (condition
 * codes) is not modelled. Inline, so each handler gets its own loop. */
static inline int farith(xctx *c, int op)
{
    const xins *in = c->in;
    const xopnd *o = in->o;
    uint32_t r[NV_WARP], ta[NV_WARP], tb[NV_WARP], tcc[NV_WARP];
    bool flush = XMOD(in, FTZ) == NV_SASS_FTZ_FTZ, sat = XMOD(in, SAT);
    unsigned rnd = XMOD(in, RND);
    if (XMOD(in, CC) || XMOD(in, FTZ) > NV_SASS_FTZ_FMZ)
        return nv_xunsupported(c);
    SRC(a, 1);
    SRC(b, 2);
    const uint32_t *cv = zeros;
    if (op == F_FMA) {
        cv = nv_xsrc(c, 3, tcc);
        if (!cv)
            return CG_ERR_FAULT;
    }
    bool fmz = XMOD(in, FTZ) == NV_SASS_FTZ_FMZ;
    bool fl_in = flush || fmz;
    static const float scale[8] = {
        [NV_SASS_SCALE_1] = 1.0f, [NV_SASS_SCALE_D2] = 0.5f, [NV_SASS_SCALE_D4] = 0.25f,
        [NV_SASS_SCALE_D8] = 0.125f, [NV_SASS_SCALE_M8] = 8.0f, [NV_SASS_SCALE_M4] = 4.0f,
        [NV_SASS_SCALE_M2] = 2.0f, [7] = 1.0f};
    float sc = scale[XMOD(in, SCALE) & 7];
    LANES {
        uint32_t ua = fmod_na(a[l], o[1].neg, o[1].abs), ub = fmod_na(b[l], o[2].neg, o[2].abs);
        if (fl_in) {
            ua = ftz(ua);
            ub = ftz(ub);
        }
        float x;
        if (op == F_ADD) {
            x = add_r(fl(ua), fl(ub), rnd);
        } else if (op == F_MUL) {
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
    nv_xwrite(c->w, o[0].reg, c->m, r);
    return 0;
}

int nv_x_FADD(xctx *c)
{
    return farith(c, F_ADD);
}

int nv_x_FMUL(xctx *c)
{
    return farith(c, F_MUL);
}

int nv_x_FFMA(xctx *c)
{
    return farith(c, F_FMA);
}

/* FMNMX: the predicate operand true selects the minimum, false the
 * maximum; a NaN operand gives the other one, and -0 < +0. */
int nv_x_FMNMX(xctx *c)
{
    const xins *in = c->in;
    const xopnd *o = in->o;
    uint32_t r[NV_WARP], ta[NV_WARP], tb[NV_WARP];
    bool flush = XMOD(in, FTZ) == NV_SASS_FTZ_FTZ;
    SRC(a, 1);
    SRC(b, 2);
    uint32_t p = nv_xpred(c->w, &o[3]);
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
    nv_xwrite(c->w, o[0].reg, c->m, r);
    return 0;
}

/* ---- compares ------------------------------------------------------------------ */

/* The compare instructions' outputs. SETP forms write (cond BOP P) to
 * their first predicate and (!cond BOP P) to the second; SET forms write
 * (cond BOP P) to Rd as 1.0 (.BF) or 0xffffffff. */
static int set_result(xctx *c, bool setp, uint32_t t, uint32_t p)
{
    const xins *in = c->in;
    const xopnd *o = in->o;
    uint32_t r[NV_WARP];
    if (setp) {
        nv_xpred_write(c->w, o[0].reg, c->m, bop(XMOD(in, BOP), t, p));
        nv_xpred_write(c->w, o[1].reg, c->m, bop(XMOD(in, BOP), ~t, p));
        return 0;
    }
    uint32_t res = bop(XMOD(in, BOP), t, p);
    uint32_t one = XMOD(in, BF) ? 0x3f800000u : 0xffffffffu;
    LANES r[l] = (res >> l & 1) ? one : 0;
    nv_xwrite(c->w, o[0].reg, c->m, r);
    return 0;
}

/* FSETP/FSET: the float condition on (a, b) with the operands' .NEG/.ABS
 * (FTZ flushes them first). The SETP forms lead with their two predicate
 * outputs, so their sources start at operand 2. */
static inline int fset(xctx *c, bool setp)
{
    const xins *in = c->in;
    const xopnd *o = in->o;
    uint32_t ta[NV_WARP], tb[NV_WARP];
    bool flush = XMOD(in, FTZ) == NV_SASS_FTZ_FTZ;
    if (XMOD(in, BOP) > NV_SASS_BOP_XOR)
        return nv_xunsupported(c);
    int ia = setp ? 2 : 1;
    SRC(a, ia);
    SRC(b, ia + 1);
    uint32_t p = nv_xpred(c->w, &o[ia + 2]), t = 0;
    LANES {
        uint32_t ua = fmod_na(a[l], o[ia].neg, o[ia].abs);
        uint32_t ub = fmod_na(b[l], o[ia + 1].neg, o[ia + 1].abs);
        if (flush) {
            ua = ftz(ua);
            ub = ftz(ub);
        }
        t |= (uint32_t)fcmp(XMOD(in, CMP), fl(ua), fl(ub)) << l;
    }
    return set_result(c, setp, t, p);
}

int nv_x_FSETP(xctx *c)
{
    return fset(c, true);
}

int nv_x_FSET(xctx *c)
{
    return fset(c, false);
}

/* FCMP: Rd = (c compared with 0.0) ? a : b. */
int nv_x_FCMP(xctx *c)
{
    const xins *in = c->in;
    uint32_t r[NV_WARP], ta[NV_WARP], tb[NV_WARP], tcc[NV_WARP];
    bool flush = XMOD(in, FTZ) == NV_SASS_FTZ_FTZ;
    SRC(a, 1);
    SRC(b, 2);
    SRC(cc, 3);
    LANES {
        uint32_t uc = flush ? ftz(cc[l]) : cc[l];
        r[l] = fcmp(XMOD(in, CMP), fl(uc), 0.0f) ? a[l] : b[l];
    }
    nv_xwrite(c->w, in->o[0].reg, c->m, r);
    return 0;
}

/* ISETP/ISET: the integer condition on (a, b), signed or not. .X (compare
 * with the carry, for wide integers) is not modelled. */
static inline int iset(xctx *c, bool setp)
{
    const xins *in = c->in;
    const xopnd *o = in->o;
    uint32_t ta[NV_WARP], tb[NV_WARP];
    if (XMOD(in, BOP) > NV_SASS_BOP_XOR || XMOD(in, X))
        return nv_xunsupported(c);
    int ia = setp ? 2 : 1;
    SRC(a, ia);
    SRC(b, ia + 1);
    uint32_t p = nv_xpred(c->w, &o[ia + 2]), t = 0;
    bool sg = XMOD(in, SIGNED) == NV_SASS_SIGNED_S32;
    LANES t |= (uint32_t)icmp(XMOD(in, CMP), a[l], b[l], sg) << l;
    return set_result(c, setp, t, p);
}

int nv_x_ISETP(xctx *c)
{
    return iset(c, true);
}

/* IMUL/IMUL32I: bits 31:0 (or with .HI 63:32) of a * b, each signed or
 * not. The exact product lies in [-2^63, 2^64), so its bits 63:0 are those
 * of the product of the operands widened to 64 bits, modulo 2^64. .CC (the
 * flags) is not modelled. */
int nv_x_IMUL(xctx *c)
{
    const xins *in = c->in;
    uint32_t r[NV_WARP], ta[NV_WARP], tb[NV_WARP];
    if (XMOD(in, CC))
        return nv_xunsupported(c);
    unsigned sg = XMOD(in, ISIGN);
    bool asg = sg & NV_SASS_ISIGN_S32_U32, bsg = sg & NV_SASS_ISIGN_U32_S32, hi = XMOD(in, HI);
    SRC(a, 1);
    SRC(b, 2);
    LANES {
        uint64_t x = asg ? (uint64_t)(int64_t)(int32_t)a[l] : a[l];
        uint64_t y = bsg ? (uint64_t)(int64_t)(int32_t)b[l] : b[l];
        uint64_t p = x * y;
        r[l] = hi ? (uint32_t)(p >> 32) : (uint32_t)p;
    }
    nv_xwrite(c->w, in->o[0].reg, c->m, r);
    return 0;
}

/* ICMP: Rd = (c compared with 0, signed or not) ? a : b. */
int nv_x_ICMP(xctx *c)
{
    const xins *in = c->in;
    uint32_t r[NV_WARP], ta[NV_WARP], tb[NV_WARP], tcc[NV_WARP];
    bool sg = XMOD(in, SIGNED) == NV_SASS_SIGNED_S32;
    SRC(a, 1);
    SRC(b, 2);
    SRC(cc, 3);
    LANES r[l] = icmp(XMOD(in, CMP), cc[l], 0, sg) ? a[l] : b[l];
    nv_xwrite(c->w, in->o[0].reg, c->m, r);
    return 0;
}

int nv_x_ISET(xctx *c)
{
    return iset(c, false);
}

/* ---- multi-function unit ----------------------------------------------------- */

/* MUFU: the transcendental unit. Results are libm's correctly rounded ones,
 * not the hardware's approximations (docs/nv-sass-exec.md); inputs are
 * flushed as the unit does. RCP64H/RSQ64H (double halves) are not
 * modelled. */
int nv_x_MUFU(xctx *c)
{
    const xins *in = c->in;
    const xopnd *o = in->o;
    uint32_t r[NV_WARP], ta[NV_WARP];
    bool sat = XMOD(in, SAT);
    unsigned op = XMOD(in, MUFU);
    if (op == NV_SASS_MUFU_RCP64H || op == NV_SASS_MUFU_RSQ64H)
        return nv_xunsupported(c);
    SRC(a, 1);
    float x[NV_WARP], y[NV_WARP];
    bool neg = o[1].neg, abs_ = o[1].abs;
    if (op == NV_SASS_MUFU_RCP && !sat) {
        nv_lanes()->rcp(a, neg, abs_, r); /* sass_lanes.c: the same steps */
        nv_xwrite(c->w, o[0].reg, c->m, r);
        return 0;
    }
    LANES x[l] = fl(ftz(fmod_na(a[l], neg, abs_)));
    /* one lane loop per function (RCP, RSQ and SQRT vectorise) */
    switch (op) {
    case NV_SASS_MUFU_COS: LANES y[l] = cosf(x[l]); break;
    case NV_SASS_MUFU_SIN: LANES y[l] = sinf(x[l]); break;
    case NV_SASS_MUFU_EX2: LANES y[l] = exp2f(x[l]); break;
    case NV_SASS_MUFU_LG2: LANES y[l] = log2f(x[l]); break;
    case NV_SASS_MUFU_RCP: LANES y[l] = 1.0f / x[l]; break;
    case NV_SASS_MUFU_RSQ: LANES y[l] = (float)(1.0 / sqrt((double)x[l])); break;
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
    nv_xwrite(c->w, o[0].reg, c->m, r);
    return 0;
}

/* RRO, the range reduction before MUFU.SIN/COS/EX2, is the identity here
 * (MUFU takes radians): the operand with its .NEG/.ABS. */
int nv_x_RRO(xctx *c)
{
    const xopnd *o = c->in->o;
    uint32_t r[NV_WARP], ta[NV_WARP];
    SRC(a, 1);
    LANES r[l] = fmod_na(a[l], o[1].neg, o[1].abs);
    nv_xwrite(c->w, o[0].reg, c->m, r);
    return 0;
}

/* ---- conversions ----------------------------------------------------------------- */

/* Integer types (DTYPE/STYPE of F2I, I2F, I2I): size in bits 1:0 (8 << it
 * bits), signed when bit 2 is set ([5cb8_1]). */
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

/* F2F F32 -> F32 (the only pair modelled): ROUND/FLOOR/CEIL/TRUNC round to
 * an integral value; FTZ and SAT as for the arithmetic. */
int nv_x_F2F(xctx *c)
{
    const xins *in = c->in;
    const xopnd *o = in->o;
    uint32_t r[NV_WARP], ta[NV_WARP];
    bool flush = XMOD(in, FTZ) == NV_SASS_FTZ_FTZ, sat = XMOD(in, SAT);
    unsigned dt = XMOD(in, DTYPE), st = XMOD(in, STYPE), rm = XMOD(in, RND);
    bool f32 = dt == NV_SASS_FTYPE_F32 && st == NV_SASS_FTYPE_F32;
    /* F16 <-> F32 (GLSL packHalf2x16 / unpackHalf2x16): the half is the low
     * 16 bits of the register (the high with .H1); a half result rounds to
     * nearest even and clears the high bits */
    bool to_half = dt == NV_SASS_FTYPE_F16 && st == NV_SASS_FTYPE_F32 && rm == NV_SASS_F2FRND_RN;
    bool from_half = dt == NV_SASS_FTYPE_F32 && st == NV_SASS_FTYPE_F16;
    if ((!f32 && !to_half && !from_half) || XMOD(in, CC))
        return nv_xunsupported(c);
    SRC(a, 1);
    LANES {
        uint32_t u = a[l];
        if (from_half)
            u = nv_xu(cg__half_to_float(XMOD(in, H1) ? u >> 16 : u & 0xFFFF));
        u = fmod_na(u, o[1].neg, o[1].abs);
        if (flush)
            u = ftz(u);
        if (to_half) {
            float h = fl(u);
            if (sat)
                h = h > 1.0f ? 1.0f : !(h > 0.0f) ? 0.0f : h;
            r[l] = cg__float_bits_to_half(nv_xu(h));
            continue;
        }
        float x = fl(u);
        switch (rm) {
        case NV_SASS_F2FRND_ROUND: x = rintf(x); break;
        case NV_SASS_F2FRND_FLOOR: x = floorf(x); break;
        case NV_SASS_F2FRND_CEIL: x = ceilf(x); break;
        case NV_SASS_F2FRND_TRUNC: x = truncf(x); break;
        default: break;
        }
        r[l] = fout(x, flush, sat);
    }
    nv_xwrite(c->w, o[0].reg, c->m, r);
    return 0;
}

/* F2I F32 -> 8/16/32-bit integers: round (RN to even, FLOOR, CEIL, TRUNC),
 * saturate to the type's range, NaN -> 0. */
int nv_x_F2I(xctx *c)
{
    const xins *in = c->in;
    const xopnd *o = in->o;
    uint32_t r[NV_WARP], ta[NV_WARP];
    bool flush = XMOD(in, FTZ) == NV_SASS_FTZ_FTZ;
    unsigned rnd = XMOD(in, RND), dt = XMOD(in, DTYPE);
    if (XMOD(in, STYPE) != NV_SASS_FTYPE_F32 || (dt & 3) == NV_SASS_ITYPE_U64 || XMOD(in, CC))
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
        case NV_SASS_F2IRND_RN: x = nearbyint(x); break;
        case NV_SASS_F2IRND_FLOOR: x = floor(x); break;
        case NV_SASS_F2IRND_CEIL: x = ceil(x); break;
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
    nv_xwrite(c->w, o[0].reg, c->m, r);
    return 0;
}

/* I2F 8/16/32-bit integers (the byte selected by BSEL) -> F32, exactly
 * rounded in each direction. */
int nv_x_I2F(xctx *c)
{
    const xins *in = c->in;
    const xopnd *o = in->o;
    uint32_t r[NV_WARP], ta[NV_WARP];
    unsigned rnd = XMOD(in, RND), st = XMOD(in, STYPE);
    if (XMOD(in, DTYPE) != NV_SASS_FTYPE_F32 || (st & 3) == NV_SASS_ITYPE_U64 || XMOD(in, CC))
        return nv_xunsupported(c);
    SRC(a, 1);
    unsigned sh = 8 * XMOD(in, BSEL);
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
    nv_xwrite(c->w, o[0].reg, c->m, r);
    return 0;
}

/* I2I between 8/16/32-bit integers: .SAT clamps to the destination's
 * range, otherwise the value is truncated and extended to 32 bits. */
int nv_x_I2I(xctx *c)
{
    const xins *in = c->in;
    const xopnd *o = in->o;
    uint32_t r[NV_WARP], ta[NV_WARP];
    bool sat = XMOD(in, SAT);
    unsigned st = XMOD(in, STYPE), dt = XMOD(in, DTYPE);
    if (XMOD(in, CC))
        return nv_xunsupported(c);
    SRC(a, 1);
    unsigned sh = 8 * XMOD(in, BSEL);
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
    nv_xwrite(c->w, o[0].reg, c->m, r);
    return 0;
}

/* ---- integer arithmetic --------------------------------------------------------- */

/* IADD, IADD3 (three operands) and ISCADD (a shifted left by the
 * immediate, then added): two's complement with the operands' negation.
 * .CC writes the carry out (w->carry, the only condition-code bit
 * modelled), .X adds the carry in; under .X a negated operand is its one's
 * complement, the carry supplying the +1 of a multi-word subtraction.
 * IADD .SAT saturates the signed sum. IADD3's shift and half selects are
 * not modelled. */
static inline int iadd(xctx *c, bool three, bool scaled)
{
    const xins *in = c->in;
    const xopnd *o = in->o;
    nv_sass_warp *w = c->w;
    uint32_t m = c->m, r[NV_WARP], ta[NV_WARP], tb[NV_WARP], tcc[NV_WARP];
    bool sat = XMOD(in, SAT);
    if (XMOD(in, SHIFT3) || XMOD(in, AH) || XMOD(in, BH) || XMOD(in, CH))
        return nv_xunsupported(c);
    SRC(a, 1);
    SRC(b, 2);
    const uint32_t *cv = zeros;
    if (three) {
        cv = nv_xsrc(c, 3, tcc);
        if (!cv)
            return CG_ERR_FAULT;
    }
    unsigned shift = scaled ? o[3].val & 31 : 0;
    bool x = XMOD(in, X) != 0, cc = XMOD(in, CC) != 0;
    uint32_t carry = 0;
    LANES {
        uint64_t ua = (uint32_t)(a[l] << shift), ub = b[l], uc = cv[l];
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
    nv_xwrite(w, o[0].reg, m, r);
    return 0;
}

int nv_x_IADD(xctx *c)
{
    return iadd(c, false, false);
}

int nv_x_IADD3(xctx *c)
{
    return iadd(c, true, false);
}

int nv_x_ISCADD(xctx *c)
{
    return iadd(c, false, true);
}

/* XMAD, the 16x16-bit multiply-add (yuzu's decoding): the halves of a and
 * b chosen by .A_H1/.B_H1 (signed per XSIGN; an immediate b has no high
 * half) are multiplied, .PSL shifts the product left 16, the addend is c
 * or by the mode c & 0xffff (CLO), c >> 16 (CHI), c + (b << 16) (CBCC);
 * .MRG puts b's low half in the result's high half. .CC writes the carry.
 * .X and the CSFU mode are not modelled. */
static uint32_t xmad_half(uint32_t v, bool hi, bool is_signed)
{
    uint32_t h = hi ? v >> 16 : v & 0xffff;
    return is_signed ? (uint32_t)(int32_t)(int16_t)h : h;
}

int nv_x_XMAD(xctx *c)
{
    const xins *in = c->in;
    const xopnd *o = in->o;
    nv_sass_warp *w = c->w;
    uint32_t m = c->m, r[NV_WARP], ta[NV_WARP], tb[NV_WARP], tcc[NV_WARP];
    unsigned mode = XMOD(in, XMODE);
    if (mode == NV_SASS_XMODE_CSFU || XMOD(in, X))
        return nv_xunsupported(c);
    SRC(a, 1);
    SRC(b, 2);
    SRC(cc, 3);
    /* XSIGN is a pair of bits: S16_U16 (1) makes a signed, U16_S16 (2) b */
    bool asg = XMOD(in, XSIGN) & NV_SASS_XSIGN_S16_U16;
    bool bsg = XMOD(in, XSIGN) & NV_SASS_XSIGN_U16_S16;
    bool ah = XMOD(in, A_H1) != 0, bh = XMOD(in, B_H1) != 0;
    bool imm = o[2].kind == XO_IMM;
    uint32_t carry = 0;
    LANES {
        uint32_t p = xmad_half(a[l], ah, asg) * xmad_half(b[l], bh && !imm, bsg);
        if (XMOD(in, PSL))
            p <<= 16;
        uint32_t cval = cc[l];
        if (mode == NV_SASS_XMODE_CLO)
            cval &= 0xffff;
        else if (mode == NV_SASS_XMODE_CHI)
            cval >>= 16;
        else if (mode == NV_SASS_XMODE_CBCC)
            cval += b[l] << 16;
        uint64_t s = (uint64_t)p + cval;
        carry |= (uint32_t)(s >> 32 & 1) << l;
        uint32_t res = (uint32_t)s;
        if (XMOD(in, MRG))
            res = (res & 0xffff) | (b[l] << 16);
        r[l] = res;
    }
    if (XMOD(in, CC))
        w->carry = (w->carry & ~m) | (carry & m);
    nv_xwrite(w, o[0].reg, m, r);
    return 0;
}

/* IMNMX: the predicate operand true selects the minimum, false the
 * maximum, signed or not. The XLO/XMED/XHI wide forms are not modelled. */
int nv_x_IMNMX(xctx *c)
{
    const xins *in = c->in;
    const xopnd *o = in->o;
    uint32_t r[NV_WARP], ta[NV_WARP], tb[NV_WARP];
    if (XMOD(in, XSEL) || XMOD(in, CC))
        return nv_xunsupported(c);
    SRC(a, 1);
    SRC(b, 2);
    uint32_t p = nv_xpred(c->w, &o[3]);
    bool sg = XMOD(in, SIGNED) == NV_SASS_SIGNED_S32;
    LANES {
        bool lt = sg ? (int32_t)a[l] < (int32_t)b[l] : a[l] < b[l];
        r[l] = (p >> l & 1) ? (lt ? a[l] : b[l]) : (lt ? b[l] : a[l]);
    }
    nv_xwrite(c->w, o[0].reg, c->m, r);
    return 0;
}

/* ---- shifts ---------------------------------------------------------------------- */

/* SHL/SHR: a shift of 32 or more gives 0 (SHR signed: the sign) unless .W
 * wraps the amount to 5 bits. .X and .BREV are not modelled. */
static inline int shift(xctx *c, bool left)
{
    const xins *in = c->in;
    uint32_t r[NV_WARP], ta[NV_WARP], tb[NV_WARP];
    if (XMOD(in, X) || XMOD(in, BREV))
        return nv_xunsupported(c);
    SRC(a, 1);
    SRC(b, 2);
    bool wrap = XMOD(in, W) != 0, sg = XMOD(in, SIGNED) == NV_SASS_SIGNED_S32;
    LANES {
        uint32_t s = wrap ? b[l] & 31 : b[l];
        if (left)
            r[l] = s >= 32 ? 0 : a[l] << s;
        else if (sg)
            r[l] = (uint32_t)((int32_t)a[l] >> (s >= 32 ? 31 : s));
        else
            r[l] = s >= 32 ? 0 : a[l] >> s;
    }
    nv_xwrite(c->w, in->o[0].reg, c->m, r);
    return 0;
}

int nv_x_SHL(xctx *c)
{
    return shift(c, true);
}

int nv_x_SHR(xctx *c)
{
    return shift(c, false);
}

/* ---- logic ------------------------------------------------------------------------ */

/* LOP/LOP3's predicate output (the register forms lead with it): PMODE T
 * sets it, Z when the result is zero, NZ when not; then Rd. */
static void lop_write(xctx *c, int b0, const uint32_t *r)
{
    const xins *in = c->in;
    unsigned pm = XMOD(in, PMODE);
    if (b0 && pm) {
        uint32_t t = 0;
        LANES t |= (uint32_t)(pm == NV_SASS_PMODE_T ? 1 : pm == NV_SASS_PMODE_Z ? r[l] == 0
                                                                                : r[l] != 0)
                   << l;
        nv_xpred_write(c->w, in->o[0].reg, c->m, t);
    }
    nv_xwrite(c->w, in->o[b0].reg, c->m, r);
}

/* LOP/LOP32I: AND, OR, XOR or PASS_B of the operands with their .INV. .X
 * is not modelled. */
int nv_x_LOP(xctx *c)
{
    const xins *in = c->in;
    const xopnd *o = in->o;
    uint32_t r[NV_WARP], ta[NV_WARP], tb[NV_WARP];
    if (XMOD(in, X))
        return nv_xunsupported(c);
    int b0 = o[0].kind == XO_PRED ? 1 : 0;
    const uint32_t *a = nv_xsrc(c, b0 + 1, ta), *b = nv_xsrc(c, b0 + 2, tb);
    if (!a || !b)
        return CG_ERR_FAULT;
    unsigned op = XMOD(in, LOP);
    bool ia = o[b0 + 1].inv, ib = o[b0 + 2].inv;
    LANES {
        uint32_t x = ia ? ~a[l] : a[l], y = ib ? ~b[l] : b[l];
        r[l] = op == NV_SASS_LOP_AND ? x & y : op == NV_SASS_LOP_OR ? x | y
             : op == NV_SASS_LOP_XOR ? x ^ y : y;
    }
    lop_write(c, b0, r);
    return 0;
}

/* LOP3.LUT: result bit = bit (a << 2 | b << 1 | c) of the 8-bit table. */
int nv_x_LOP3(xctx *c)
{
    const xins *in = c->in;
    const xopnd *o = in->o;
    uint32_t r[NV_WARP], ta[NV_WARP], tb[NV_WARP], tcc[NV_WARP];
    if (XMOD(in, X))
        return nv_xunsupported(c);
    int b0 = o[0].kind == XO_PRED ? 1 : 0;
    const uint32_t *a = nv_xsrc(c, b0 + 1, ta), *b = nv_xsrc(c, b0 + 2, tb);
    if (!a || !b)
        return CG_ERR_FAULT;
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
    lop_write(c, b0, r);
    return 0;
}

/* ---- bit fields --------------------------------------------------------------------- */

/* BFE as PTX bfe: the field at position b[7:0] of length b[15:8], sign
 * extended when signed (bits past 31 read as the field's top bit). .BREV
 * is not modelled. */
int nv_x_BFE(xctx *c)
{
    const xins *in = c->in;
    uint32_t r[NV_WARP], ta[NV_WARP], tb[NV_WARP];
    if (XMOD(in, BREV))
        return nv_xunsupported(c);
    SRC(a, 1);
    SRC(b, 2);
    bool sg = XMOD(in, SIGNED) == NV_SASS_SIGNED_S32;
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
    nv_xwrite(c->w, in->o[0].reg, c->m, r);
    return 0;
}

/* BFI as PTX bfi: a's low len bits inserted into c at pos (b as for BFE). */
int nv_x_BFI(xctx *c)
{
    const xins *in = c->in;
    uint32_t r[NV_WARP], ta[NV_WARP], tb[NV_WARP], tcc[NV_WARP];
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
    nv_xwrite(c->w, in->o[0].reg, c->m, r);
    return 0;
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

/* FLO: the index of the highest one bit (signed: of the highest bit unlike
 * the sign), 0xffffffff for none; .SH gives 31 - index, the shift that
 * normalises it. */
int nv_x_FLO(xctx *c)
{
    const xins *in = c->in;
    const xopnd *o = in->o;
    uint32_t r[NV_WARP], ta[NV_WARP];
    SRC(a, 1);
    bool sg = XMOD(in, SIGNED) == NV_SASS_SIGNED_S32, sh = XMOD(in, SH) != 0;
    LANES {
        uint32_t v = o[1].inv ? ~a[l] : a[l];
        if (sg && (v >> 31))
            v = ~v;
        uint32_t i = flo32(v);
        r[l] = (sh && i != 0xffffffffu) ? 31 - i : i;
    }
    nv_xwrite(c->w, o[0].reg, c->m, r);
    return 0;
}

/* POPC: the number of one bits (of ~a with .INV). */
int nv_x_POPC(xctx *c)
{
    const xopnd *o = c->in->o;
    uint32_t r[NV_WARP], ta[NV_WARP];
    SRC(a, 1);
    LANES r[l] = (uint32_t)__builtin_popcount(o[1].inv ? ~a[l] : a[l]);
    nv_xwrite(c->w, o[0].reg, c->m, r);
    return 0;
}

/* ---- predicates ----------------------------------------------------------------- */

/* PSETP/PSET: (Pa BOP Pb) BOP2 Pc, written like the other SET forms (the
 * second BOP joins the result with the third predicate). */
static inline int pset(xctx *c, bool setp)
{
    const xins *in = c->in;
    const xopnd *o = in->o;
    nv_sass_warp *w = c->w;
    uint32_t r[NV_WARP];
    if (XMOD(in, BOP) > NV_SASS_BOP_XOR || XMOD(in, BOP2) > NV_SASS_BOP_XOR)
        return nv_xunsupported(c);
    int ia = setp ? 2 : 1;
    uint32_t pa = nv_xpred(w, &o[ia]), pb = nv_xpred(w, &o[ia + 1]), pc = nv_xpred(w, &o[ia + 2]);
    uint32_t ab = bop(XMOD(in, BOP), pa, pb);
    if (setp) {
        nv_xpred_write(w, o[0].reg, c->m, bop(XMOD(in, BOP2), ab, pc));
        nv_xpred_write(w, o[1].reg, c->m, bop(XMOD(in, BOP2), ~ab, pc));
        return 0;
    }
    uint32_t res = bop(XMOD(in, BOP2), ab, pc);
    uint32_t one = XMOD(in, BF) ? 0x3f800000u : 0xffffffffu;
    LANES r[l] = (res >> l & 1) ? one : 0;
    nv_xwrite(w, o[0].reg, c->m, r);
    return 0;
}

int nv_x_PSETP(xctx *c)
{
    return pset(c, true);
}

int nv_x_PSET(xctx *c)
{
    return pset(c, false);
}

/* P2R (yuzu's decoding, .PR): P0..P6 packed into the byte BSEL selects,
 * under the mask b shifted there; the other bits of a are kept. The .CC
 * form (condition codes) is not modelled. */
int nv_x_P2R(xctx *c)
{
    const xins *in = c->in;
    const xopnd *o = in->o;
    nv_sass_warp *w = c->w;
    uint32_t r[NV_WARP], ta[NV_WARP], tb[NV_WARP];
    if (XMOD(in, PRCC))
        return nv_xunsupported(c);
    SRC(a, 1);
    SRC(b, 2);
    unsigned sh = 8 * XMOD(in, BSEL);
    LANES {
        uint32_t bits = 0;
        for (unsigned i = 0; i < 7; i++)
            bits |= (w->p[i] >> l & 1) << i;
        uint32_t mk = b[l] << sh;
        r[l] = (a[l] & ~mk) | ((bits << sh) & mk);
    }
    nv_xwrite(w, o[0].reg, c->m, r);
    return 0;
}

/* R2P: the reverse, P0..P6 from the selected byte of a where b's bit is
 * set. */
int nv_x_R2P(xctx *c)
{
    const xins *in = c->in;
    uint32_t ta[NV_WARP], tb[NV_WARP];
    if (XMOD(in, PRCC))
        return nv_xunsupported(c);
    SRC(a, 0);
    SRC(b, 1);
    unsigned sh = 8 * XMOD(in, BSEL);
    for (unsigned i = 0; i < 7; i++) {
        uint32_t sel = 0, val = 0;
        LANES {
            sel |= (b[l] >> i & 1) << l;
            val |= (a[l] >> (sh + i) & 1) << l;
        }
        nv_xpred_write(c->w, i, c->m & sel, val);
    }
    return 0;
}
