/* Internal to qpu_run.c (included once per vector level): the QPU's ALUs on
 * 16-lane register rows, pack and unpack, the write conditions. */
#ifndef CMDGPU_VC4_QPU_ALU_H
#define CMDGPU_VC4_QPU_ALU_H

#if defined(__SSE2__)
#include <immintrin.h>
#endif
#include "core/bits.h"
#include "qpu_int.h"

static inline float u2f(uint32_t u) { return cg__bitsf(u); }
static inline uint32_t f2u(float f) { return cg__fbits(f); }

/* Denormals are flushed to zero, keeping the sign (addendum: "no support
 * for denormal numbers. They are just truncated to 0"). NaN results come
 * out as the default quiet NaN 0x7fc00000 (model choice). */
static inline uint32_t ftz(uint32_t u)
{
    if ((u & 0x7f800000u) == 0)
        return u & 0x80000000u;
    return u;
}
static inline uint32_t fres(float f)
{
    if (f != f)
        return 0x7fc00000u;
    return ftz(f2u(f));
}
/* A float operand: denormals flushed; a NaN acts as the infinity of its
 * sign (addendum: hardware "uses the binary representation of +-Inf";
 * doe300/VC4C src/asm/OpCodes.h measured fmul(NaN, x) = +-Inf,
 * NaN + 1.0-style sums = +Inf). */
static inline float fin(uint32_t u)
{
    u = ftz(u);
    if ((u & 0x7f800000u) == 0x7f800000u)
        u &= 0xff800000u;
    return u2f(u);
}

/* ---- the ALUs: 16 lanes as vectors ----
 *
 * A 16 x 32-bit register row (`row`) is NV native vectors (`vn`): four SSE2
 * registers in the baseline build, two AVX2 or one AVX-512 register in the
 * wider builds (src/core/simd.h builds this file once per level). Each op is
 * written once on `vn` with GCC/Clang vector extensions and applied to the
 * NV parts. The same source gives the same bits at every level: integer
 * ops are exact, each float op is one IEEE operation (no contraction), and
 * the float rules of ftz/fres/fin above are selects on the bit patterns
 * (docs/vc4-qpu.md, "Interpreter"). Loads and stores go through memcpy (the
 * state need not be aligned). */
#if defined(__GNUC__) && !defined(__clang__)
/* the vector helpers are static: no ABI to keep */
#pragma GCC diagnostic ignored "-Wpsabi"
#endif
#if defined(__AVX512F__) && defined(__AVX512BW__) && defined(__AVX512DQ__)
#define VBYTES 64
#elif defined(__AVX2__)
#define VBYTES 32
#else
#define VBYTES 16
#endif
#define NV (64 / VBYTES)    /* native vectors per row */
#define NL (LANES / NV)     /* lanes per native vector */
typedef uint32_t vn __attribute__((vector_size(VBYTES)));
typedef int32_t vni __attribute__((vector_size(VBYTES)));
typedef float vnf __attribute__((vector_size(VBYTES)));
typedef uint8_t vn8 __attribute__((vector_size(VBYTES)));
typedef struct row {
    vn c[NV];
} row;

/* a native vector at a 4-byte boundary; vector types alias their element
 * type, so a row store does not make the compiler reload unrelated state */
typedef vn vn_ua __attribute__((aligned(4)));
static inline __attribute__((always_inline)) row vload(const uint32_t *p)
{
    row v;
    for (int k = 0; k < NV; k++)
        v.c[k] = *(const vn_ua *)(p + k * NL);
    return v;
}
static inline __attribute__((always_inline)) void vstore(uint32_t *p, row v)
{
    for (int k = 0; k < NV; k++)
        *(vn_ua *)(p + k * NL) = v.c[k];
}
static inline vn nsplat(uint32_t x)
{
    vn v = {0};
    return v + x;
}
static inline row vsplat(uint32_t x)
{
    row r;
    for (int k = 0; k < NV; k++)
        r.c[k] = nsplat(x);
    return r;
}
/* lanes of a where m is all ones, else of b */
static inline vn nsel(vn m, vn a, vn b)
{
    return (a & m) | (b & ~m);
}
/* a vector compare as lane masks (all ones or 0) */
#define VM(x) ((vn)(x))

/* bit i = the sign bit of lane i (a lane mask's lanes are all ones or 0) */
static inline unsigned vbits(row m)
{
#if VBYTES == 64
    __m512i x;
    memcpy(&x, &m, sizeof x);
    return _mm512_movepi32_mask(x);
#elif VBYTES == 32
    __m256 x[2];
    memcpy(&x[0], &m.c[0], sizeof x[0]);
    memcpy(&x[1], &m.c[1], sizeof x[1]);
    return (unsigned)_mm256_movemask_ps(x[0]) | (unsigned)_mm256_movemask_ps(x[1]) << 8;
#elif defined(__SSE2__)
    __m128 x[4];
    for (int k = 0; k < 4; k++)
        memcpy(&x[k], &m.c[k], sizeof x[k]);
    return (unsigned)_mm_movemask_ps(x[0]) | (unsigned)_mm_movemask_ps(x[1]) << 4 |
           (unsigned)_mm_movemask_ps(x[2]) << 8 | (unsigned)_mm_movemask_ps(x[3]) << 12;
#else
    uint32_t l[LANES];
    unsigned r = 0;
    memcpy(l, &m, sizeof l);
    for (int i = 0; i < LANES; i++)
        r |= (l[i] >> 31) << i;
    return r;
#endif
}

/* ftz: a zero exponent keeps only the sign */
static inline vn n_ftz(vn u)
{
#if VBYTES == 64
    __m512i x = (__m512i)u;
    __mmask16 k = _mm512_testn_epi32_mask(x, _mm512_set1_epi32(0x7f800000));
    return (vn)_mm512_mask_and_epi32(x, k, x, _mm512_set1_epi32((int)0x80000000u));
#else
    return u & ~(VM((u & 0x7f800000u) == 0) & 0x7fffffffu);
#endif
}
/* fin as bits: denormals flushed (sign kept), NaN -> the infinity of its
 * sign: exponent 0 or 255 <=> bits 30:24 of u + (1 << 23) are 0; then
 * clearing the mantissa is both rules */
static inline vn n_fin(vn u)
{
#if VBYTES == 64 /* the same with AVX-512 masks: test, masked and */
    __m512i x = (__m512i)u;
    __mmask16 k = _mm512_testn_epi32_mask(_mm512_add_epi32(x, _mm512_set1_epi32(0x00800000)),
                                          _mm512_set1_epi32(0x7f000000));
    return (vn)_mm512_mask_and_epi32(x, k, x, _mm512_set1_epi32((int)0xff800000u));
#else
    return u & ~(VM(((u + 0x00800000u) & 0x7f000000u) == 0) & 0x007fffffu);
#endif
}
/* a result's NaN lanes -> nan, the others flushed (ftz) */
static inline vn n_fix(vn u, uint32_t nan)
{
#if VBYTES == 64
    __m512i x = (__m512i)u;
    __mmask16 k = _mm512_cmpgt_epi32_mask(_mm512_and_epi32(x, _mm512_set1_epi32(0x7fffffff)),
                                          _mm512_set1_epi32(0x7f800000));
    return (vn)_mm512_mask_mov_epi32((__m512i)n_ftz(u), k, _mm512_set1_epi32((int)nan));
#else
    return nsel(VM((vni)(u & 0x7fffffffu) > 0x7f800000), nsplat(nan), n_ftz(u));
#endif
}
/* fgreater's sign-magnitude order as a signed key: -mag - 1 for a set sign
 * bit, the value itself otherwise */
static inline vni n_key(vn u)
{
    return (vni)(u ^ ((vn)((vni)u >> 31) & 0x7fffffffu));
}

/* the ops on one native vector */
static inline vn n_fadd(vn a, vn b)
{
    /* Inf - Inf gives -Inf, not NaN (VC4C OpCodes.h measurements) */
    return n_fix((vn)((vnf)n_fin(a) + (vnf)n_fin(b)), 0xff800000u);
}
static inline vn n_fsub(vn a, vn b)
{
    return n_fix((vn)((vnf)n_fin(a) - (vnf)n_fin(b)), 0xff800000u);
}
static inline vn n_fgt(vn a, vn b, uint32_t am) /* a > b (of the |values| for am) */
{
    return VM(n_key(n_ftz(a) & am) > n_key(n_ftz(b) & am));
}
static inline vn n_fmin(vn a, vn b)
{
    return nsel(n_fgt(a, b, ~0u), n_ftz(b), n_ftz(a));
}
static inline vn n_fmax(vn a, vn b)
{
    return nsel(n_fgt(a, b, ~0u), n_ftz(a), n_ftz(b));
}
static inline vn n_fminabs(vn a, vn b)
{
    return nsel(n_fgt(a, b, 0x7fffffffu), n_ftz(b), n_ftz(a)) & 0x7fffffffu;
}
static inline vn n_fmaxabs(vn a, vn b)
{
    return nsel(n_fgt(a, b, 0x7fffffffu), n_ftz(a), n_ftz(b)) & 0x7fffffffu;
}
/* truncation toward zero; NaN, infinities and values outside the int32
 * range give 0 (VC4C OpCodes.h: "any out-of-bounds value is flushed to
 * zero") */
static inline vn n_ftoi(vn a, vn b)
{
    (void)b;
    vnf x = (vnf)n_fin(a);
    vn ok = VM(x >= -2147483648.0f) & VM(x < 2147483648.0f); /* 0 for NaN */
    return (vn)__builtin_convertvector((vnf)((vn)x & ok), vni);
}
static inline vn n_itof(vn a, vn b) /* never NaN; never a denormal */
{
    (void)b;
    return n_ftz((vn)__builtin_convertvector((vni)a, vnf));
}
static inline vn n_add(vn a, vn b) { return a + b; }
static inline vn n_sub(vn a, vn b) { return a - b; }
/* shifts use b[4:0] (VC4C OpCodes.h) */
static inline vn n_shr(vn a, vn b) { return a >> (b & 31); }
static inline vn n_asr(vn a, vn b) { return (vn)((vni)a >> (vni)(b & 31)); }
static inline vn n_ror(vn a, vn b)
{
    vn sh = b & 31;
    return (a >> sh) | (a << ((32 - sh) & 31));
}
static inline vn n_shl(vn a, vn b) { return a << (b & 31); }
static inline vn n_min(vn a, vn b) { return nsel(VM((vni)a > (vni)b), b, a); }
static inline vn n_max(vn a, vn b) { return nsel(VM((vni)a > (vni)b), a, b); }
static inline vn n_and(vn a, vn b) { return a & b; }
static inline vn n_or(vn a, vn b) { return a | b; }
static inline vn n_xor(vn a, vn b) { return a ^ b; }
static inline vn n_not(vn a, vn b) { (void)b; return ~a; }
static inline vn n_clz(vn a, vn b)
{
    (void)b;
    vn r;
    for (int i = 0; i < NL; i++)
        r[i] = a[i] ? (uint32_t)__builtin_clz(a[i]) : 32;
    return r;
}
/* per byte: saturating add / subtract, min, max; rounded x*y/255 */
static inline vn n_v8adds(vn a, vn b)
{
    vn8 x = (vn8)a, t = x + (vn8)b;
    return (vn)(t | (vn8)(t < x));
}
static inline vn n_v8subs(vn a, vn b)
{
    vn8 x = (vn8)a, y = (vn8)b;
    return (vn)((x - y) & (vn8)(x >= y));
}
static inline vn n_v8min(vn a, vn b)
{
    vn8 x = (vn8)a, y = (vn8)b, m = (vn8)(x < y);
    return (vn)((x & m) | (y & ~m));
}
static inline vn n_v8max(vn a, vn b)
{
    vn8 x = (vn8)a, y = (vn8)b, m = (vn8)(x < y);
    return (vn)((y & m) | (x & ~m));
}
static inline vn n_v8muld(vn a, vn b)
{
    vn r;
    for (int i = 0; i < NL; i++) {
        uint32_t x = a[i], y = b[i], t = 0;
        for (int k = 0; k < 32; k += 8)
            t |= ((((x >> k) & 255) * ((y >> k) & 255) + 127) / 255) << k;
        r[i] = t;
    }
    return r;
}
static inline vn n_fmul(vn a, vn b)
{
    /* fres: NaN -> 0x7fc00000, else ftz */
    return n_fix((vn)((vnf)n_fin(a) * (vnf)n_fin(b)), 0x7fc00000u);
}
static inline vn n_mul24(vn a, vn b) { return (a & 0xffffffu) * (b & 0xffffffu); }

/* the C flag per lane (lane masks) */
static inline vn n_c_fpos(vn a, vn b, vn r) /* the result is positive (VC4C CARRY_POSITIVE) */
{
    (void)a, (void)b;
    return VM((vni)r > 0);
}
/* first operand greater (of the absolute values for *abs) (VC4C
 * CARRY_FIRST_GREATER_SECOND) */
static inline vn n_c_fgt(vn a, vn b, vn r) { (void)r; return n_fgt(a, b, ~0u); }
static inline vn n_c_fgtabs(vn a, vn b, vn r) { (void)r; return n_fgt(a, b, 0x7fffffffu); }
static inline vn n_c_add(vn a, vn b, vn r) { (void)b; return VM(r < a); }
static inline vn n_c_sub(vn a, vn b, vn r) { (void)r; return VM(a < b); }
/* non-zero bits shifted out of the bottom (shr, asr) or the top (shl),
 * our reading of VC4C's CARRY_WORD_UNDERFLOW / CARRY_WORD_OVERFLOW */
static inline vn n_c_shr(vn a, vn b, vn r)
{
    (void)r;
    return VM((a & ((nsplat(1) << (b & 31)) - 1)) != 0);
}
static inline vn n_c_shl(vn a, vn b, vn r)
{
    (void)r;
    return VM(((a >> 1) >> (31 - (b & 31))) != 0);
}
static inline vn n_c_gt(vn a, vn b, vn r) { (void)r; return VM((vni)a > (vni)b); }
/* mul24: the product needs more than 32 bits (VC4C) */
static inline vn n_c_mul24(vn a, vn b, vn r)
{
    (void)r;
    vn c;
    for (int i = 0; i < NL; i++)
        c[i] = (((uint64_t)(a[i] & 0xffffffu) * (b[i] & 0xffffffu)) >> 32) ? ~0u : 0;
    return c;
}

/* Float add, subtract and multiply with the operand and result rules off
 * the critical path: fin changes only denormal and NaN operands, n_fix only
 * denormal and NaN results, so when no lane of the operands and of the
 * plain IEEE result is one (the usual case) the plain result is the answer.
 * The test feeds a branch only, so the next instruction need not wait for
 * it; otherwise the full rules run (the same bits either way). */
/* A key per lane that is below 0x7fffff (unsigned) exactly for a denormal
 * or NaN: u + 2^23 carries exponent 255 out of bits 30:23 and makes 0 into
 * 1; dropping bits 31 and 23 leaves 1..0x7fffff exactly for exponent 0 or
 * 255 with a non-zero mantissa; minus 1 sends 0 (zeros, infinities) to the
 * top. The minimum over the lanes of a, b and r decides. */
static inline vn n_special_key(vn u)
{
    return ((u + 0x00800000u) & 0x7f7fffffu) - 1u;
}
static inline bool row_special(row a, row b, row r)
{
#if VBYTES == 64
    __m512i m = _mm512_min_epu32(_mm512_min_epu32((__m512i)n_special_key(a.c[0]),
                                                  (__m512i)n_special_key(b.c[0])),
                                 (__m512i)n_special_key(r.c[0]));
    return _mm512_cmplt_epu32_mask(m, _mm512_set1_epi32(0x007fffff)) != 0;
#elif VBYTES == 32
    __m256i m = _mm256_set1_epi32(-1);
    for (int k = 0; k < NV; k++) {
        m = _mm256_min_epu32(m, (__m256i)n_special_key(a.c[k]));
        m = _mm256_min_epu32(m, (__m256i)n_special_key(b.c[k]));
        m = _mm256_min_epu32(m, (__m256i)n_special_key(r.c[k]));
    }
    /* some lane <= 0x7ffffe */
    __m256i t = _mm256_cmpeq_epi32(_mm256_min_epu32(m, _mm256_set1_epi32(0x007ffffe)), m);
    return !_mm256_testz_si256(t, t);
#else
    vn acc = nsplat(0);
    for (int k = 0; k < NV; k++) /* signed compares on keys biased by 2^31 */
        acc |= VM((vni)(n_special_key(a.c[k]) ^ 0x80000000u) < INT32_MIN + 0x7fffff) |
               VM((vni)(n_special_key(b.c[k]) ^ 0x80000000u) < INT32_MIN + 0x7fffff) |
               VM((vni)(n_special_key(r.c[k]) ^ 0x80000000u) < INT32_MIN + 0x7fffff);
    for (int i = 0; i < NL; i++)
        if (acc[i])
            return true;
    return false;
#endif
}
#define ROW_FLOAT(name, expr, slow)                                                       \
    static inline __attribute__((always_inline)) row name(row a, row b)                  \
    {                                                                                     \
        row r;                                                                            \
        for (int k = 0; k < NV; k++) {                                                    \
            vnf x = (vnf)a.c[k], y = (vnf)b.c[k];                                         \
            r.c[k] = (vn)(expr);                                                          \
        }                                                                                 \
        if (UNLIKELY(row_special(a, b, r)))                                               \
            for (int k = 0; k < NV; k++)                                                  \
                r.c[k] = slow(a.c[k], b.c[k]);                                            \
        return r;                                                                         \
    }
ROW_FLOAT(row_fadd, x + y, n_fadd)
ROW_FLOAT(row_fsub, x - y, n_fsub)
ROW_FLOAT(row_fmul, x * y, n_fmul)

#define EACH2(fn) \
    for (int k = 0; k < NV; k++) \
        r.c[k] = fn(a.c[k], b.c[k]); \
    return r
#define EACH3(fn) \
    for (int k = 0; k < NV; k++) \
        r.c[k] = fn(a.c[k], b.c[k], res.c[k]); \
    return r

/* The add ALU: a op b. */
static inline __attribute__((always_inline)) row add_op(uint32_t op, row a, row b)
{
    row r;
    switch (op) {
    case VC4_QPU_A_FADD: return row_fadd(a, b);
    case VC4_QPU_A_FSUB: return row_fsub(a, b);
    case VC4_QPU_A_FMIN: EACH2(n_fmin);
    case VC4_QPU_A_FMAX: EACH2(n_fmax);
    case VC4_QPU_A_FMINABS: EACH2(n_fminabs);
    case VC4_QPU_A_FMAXABS: EACH2(n_fmaxabs);
    case VC4_QPU_A_FTOI: EACH2(n_ftoi);
    case VC4_QPU_A_ITOF: EACH2(n_itof);
    case VC4_QPU_A_ADD: EACH2(n_add);
    case VC4_QPU_A_SUB: EACH2(n_sub);
    case VC4_QPU_A_SHR: EACH2(n_shr);
    case VC4_QPU_A_ASR: EACH2(n_asr);
    case VC4_QPU_A_ROR: EACH2(n_ror);
    case VC4_QPU_A_SHL: EACH2(n_shl);
    case VC4_QPU_A_MIN: EACH2(n_min);
    case VC4_QPU_A_MAX: EACH2(n_max);
    case VC4_QPU_A_AND: EACH2(n_and);
    case VC4_QPU_A_OR: EACH2(n_or);
    case VC4_QPU_A_XOR: EACH2(n_xor);
    case VC4_QPU_A_NOT: EACH2(n_not);
    case VC4_QPU_A_CLZ: EACH2(n_clz);
    case VC4_QPU_A_V8ADDS: EACH2(n_v8adds);
    case VC4_QPU_A_V8SUBS: EACH2(n_v8subs);
    default: return a; /* not reached: nop and reserved ops do not get here */
    }
}

/* The add ALU's C flag (lane masks) for res = a op b; 0 for the ops
 * without one. */
static row add_carry(uint32_t op, row a, row b, row res)
{
    row r = {{{0}}};
    switch (op) {
    case VC4_QPU_A_FADD:
    case VC4_QPU_A_FSUB: EACH3(n_c_fpos);
    case VC4_QPU_A_FMIN:
    case VC4_QPU_A_FMAX: EACH3(n_c_fgt);
    case VC4_QPU_A_FMINABS:
    case VC4_QPU_A_FMAXABS: EACH3(n_c_fgtabs);
    case VC4_QPU_A_ADD: EACH3(n_c_add);
    case VC4_QPU_A_SUB: EACH3(n_c_sub);
    case VC4_QPU_A_SHR:
    case VC4_QPU_A_ASR: EACH3(n_c_shr);
    case VC4_QPU_A_SHL: EACH3(n_c_shl);
    case VC4_QPU_A_MIN:
    case VC4_QPU_A_MAX: EACH3(n_c_gt);
    default: return r;
    }
}

/* The mul ALU: a op b. */
static inline __attribute__((always_inline)) row mul_op(uint32_t op, row a, row b)
{
    row r;
    switch (op) {
    case VC4_QPU_M_FMUL: return row_fmul(a, b);
    case VC4_QPU_M_MUL24: EACH2(n_mul24);
    case VC4_QPU_M_V8MULD: EACH2(n_v8muld);
    case VC4_QPU_M_V8MIN: EACH2(n_v8min);
    case VC4_QPU_M_V8MAX: EACH2(n_v8max);
    case VC4_QPU_M_V8ADDS: EACH2(n_v8adds);
    case VC4_QPU_M_V8SUBS: EACH2(n_v8subs);
    default: return a; /* not reached: nop does not get here */
    }
}

/* The mul ALU's C flag: mul24 only. */
static row mul_carry(uint32_t op, row a, row b, row res)
{
    row r = {{{0}}};
    if (op != VC4_QPU_M_MUL24)
        return r;
    EACH3(n_c_mul24);
}

/* Z, N, C of the lanes of `lanes` from 16 results and carries (lane
 * masks); fl: a float result (Z ignores the sign). */
static inline void set_flags(vc4_qpu_state *s, row v, row carry, unsigned lanes, bool fl)
{
    row zm;
    for (int k = 0; k < NV; k++)
        zm.c[k] = VM((v.c[k] & (fl ? 0x7fffffffu : 0xffffffffu)) == 0);
    unsigned z = vbits(zm), n = vbits(v), c = vbits(carry);
    s->zf = (uint16_t)((s->zf & ~lanes) | (z & lanes));
    s->nf = (uint16_t)((s->nf & ~lanes) | (n & lanes));
    s->cf = (uint16_t)((s->cf & ~lanes) | (c & lanes));
}

/* dst's lanes of m = v's */
static inline __attribute__((always_inline)) void blend(uint32_t *dst, row v, uint16_t m)
{
    if (m == ALL_LANES) {
        vstore(dst, v);
        return;
    }
#if VBYTES == 64
    __m512i x;
    memcpy(&x, &v, sizeof x);
    _mm512_mask_storeu_epi32(dst, m, x);
#else
    vn bit;
    for (int i = 0; i < NL; i++)
        bit[i] = 1u << i;
    row old = vload(dst);
    for (int k = 0; k < NV; k++)
        old.c[k] = nsel(VM((nsplat((unsigned)m >> (k * NL)) & bit) != 0), v.c[k], old.c[k]);
    vstore(dst, old);
#endif
}

static uint32_t sat8(int32_t v) { return v < 0 ? 0 : v > 255 ? 255 : (uint32_t)v; }

/* ---- half floats (16a/16b pack and unpack) ---- */

static float half_to_float(uint32_t h)
{
    uint32_t s = (h >> 15) & 1, e = (h >> 10) & 31, m = h & 1023;
    if (e == 0)
        return s ? -0.0f : 0.0f; /* denormals flush to zero */
    if (e == 31)
        return u2f((s << 31) | 0x7f800000u | (m << 13));
    return u2f((s << 31) | ((e - 15 + 127) << 23) | (m << 13));
}

static uint32_t float_to_half(uint32_t u)
{
    uint32_t s = (u >> 16) & 0x8000u;
    int32_t e = (int32_t)((u >> 23) & 255);
    uint32_t m = u & 0x7fffffu;
    if (e == 255)
        return s | 0x7c00u | (m ? 0x200u : 0);
    e = e - 127 + 15;
    if (e >= 31)
        return s | 0x7c00u; /* overflow: infinity */
    if (e <= 0)
        return s; /* too small for a normal half: zero (no denormals) */
    uint32_t h = s | ((uint32_t)e << 10) | (m >> 13);
    uint32_t rest = m & 0x1fffu; /* round to nearest even */
    if (rest > 0x1000u || (rest == 0x1000u && (h & 1)))
        h++;
    return h;
}

/* Unpack a regfile-A (or r4) value for a consumer of type float or int
 * (Table 4). */
static uint32_t unpack(uint32_t mode, uint32_t v, bool fl)
{
    switch (mode) {
    case 1: return fl ? f2u(half_to_float(v & 0xffff)) : (uint32_t)(int32_t)(int16_t)(v & 0xffff);
    case 2: return fl ? f2u(half_to_float(v >> 16)) : (uint32_t)(int32_t)(int16_t)(v >> 16);
    case 3: /* 8d replicated */
        if (fl)
            return f2u((float)(v >> 24) / 255.0f);
        return (v >> 24) * 0x01010101u;
    case 4: case 5: case 6: case 7: {
        uint32_t byte = (v >> (8 * (mode - 4))) & 255;
        return fl ? f2u((float)byte / 255.0f) : byte;
    }
    default: return v;
    }
}

static uint32_t sat16(int32_t v) { return (uint32_t)(v < -32768 ? -32768 : v > 32767 ? 32767 : v) & 0xffff; }

/* Regfile-A pack (pm=0, Table 3): the new value of the register given its
 * old value; 16- and 8-bit packs leave the other bits alone. */
static uint32_t pack_a(uint32_t mode, uint32_t v, uint32_t old, bool fl, bool ovf_pos, bool ovf_neg)
{
    uint32_t lo16, b8;
    switch (mode) {
    case 0: return v;
    case 8: /* 32-bit saturate: an add/sub that overflowed clamps */
        if (ovf_pos)
            return 0x7fffffffu;
        if (ovf_neg)
            return 0x80000000u;
        return v;
    case 1: case 2: case 9: case 10:
        if (fl)
            lo16 = float_to_half(v);
        else
            lo16 = mode >= 9 ? sat16((int32_t)v) : (v & 0xffff);
        return (mode == 1 || mode == 9) ? (old & 0xffff0000u) | lo16 : (old & 0xffffu) | (lo16 << 16);
    case 3: case 11:
        b8 = mode == 11 ? sat8((int32_t)v) : (v & 255);
        return b8 * 0x01010101u;
    default: { /* 4-7 8a-8d, 12-15 saturated */
        int sh = 8 * (int)((mode & 3));
        b8 = mode >= 12 ? sat8((int32_t)v) : (v & 255);
        return (old & ~(0xffu << sh)) | (b8 << sh);
    }
    }
}

/* Mul colour pack (pm=1): float [0,1] to 8 bits, rounded. */
static uint32_t color8(uint32_t v)
{
    float f = fin(v);
    if (!(f > 0.0f))
        return 0;
    if (f >= 1.0f)
        return 255;
    return (uint32_t)(f * 255.0f + 0.5f);
}
static uint32_t pack_m(uint32_t mode, uint32_t v, uint32_t old)
{
    uint32_t c = color8(v);
    if (mode == 3)
        return c * 0x01010101u;
    int sh = 8 * (int)(mode - 4);
    return (old & ~(0xffu << sh)) | (c << sh);
}

/* the lanes whose write condition holds: never, always, Z, !Z, N, !N, C, !C */
static inline uint16_t cond_mask(const vc4_qpu_state *s, uint32_t cond)
{
    return (uint16_t)(s->fl[cond >> 1] ^ (0u - (cond & 1)));
}


#endif
