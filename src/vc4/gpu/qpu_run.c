/* VideoCore IV QPU interpreter: 16 lanes, register files A and B,
 * accumulators r0-r5, flags, pack/unpack, signals, load immediate,
 * semaphores, branches, SFU, TLB and fragment I/O.
 *
 * Facts: research/vc4.md section 3 (encodings, registers, restrictions);
 * maazl/vc4asm doc/VideoCoreIV-addendum.html ("addendum": flags only where
 * the condition holds and from the mul ALU only when the add op is nop,
 * denormals flushed to zero, r5quad/r5rep, branch register from element 15,
 * branch link and flags only when taken, rotation within quads unless both
 * mul inputs are r0-r3); anholt/mesa vc4_program.c (C flag = carry of add,
 * borrow of sub: nir_op_uadd_carry / nir_op_usub_borrow); doe300/VC4C
 * src/asm/OpCodes.h (C flag per op, float edge cases, ftoi range, and the
 * Guide on semaphores: stall below 0 and above 15, otherwise "behaves like
 * a 32-bit load immediate"). Every other modelling choice is listed in
 * docs/vc4-qpu.md. */
#include <math.h>
#include <stdlib.h>
#include <stdarg.h>
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "core/mem_internal.h"
#include "core/simd.h"
#include "qpu_io.h"
#if defined(__SSE2__)
#include <immintrin.h>
#endif

#ifndef CG_SIMD_HAVE_VARIANTS
#define CG_SIMD_HAVE_VARIANTS 0
#endif

/* This file is built once per vector level (src/core/simd.h,
 * cmdgpu_simd_variants in CMakeLists.txt): the executor (the ALUs, register
 * reads and writes, one step, vc4__qpu_slice_<level>) in every build; the
 * rest (faults, decoding, the program cache, the public entry points) only
 * in the baseline build (SHARED below). */
#define SHARED (CG_SIMD_VARIANT == CG_SIMD_BASE)
#define SLICE_FN CG_SIMD_FN(vc4__qpu_slice)
#define FRAG_FN CG_SIMD_FN(vc4__qpu_frag)

#define LANES 16
#define ALL_LANES 0xffffu
#if defined(__GNUC__)
#define LIKELY(x) __builtin_expect(!!(x), 1)
#define UNLIKELY(x) __builtin_expect(!!(x), 0)
#else
#define LIKELY(x) (x)
#define UNLIKELY(x) (x)
#endif

static inline float u2f(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}
static inline uint32_t f2u(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

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

/* ---- decoded instructions ----
 *
 * Everything a step needs from the 64-bit word, taken out once (decode):
 * the fields, the small immediate's value, which register reads are plain
 * rows (and their bits for the back-to-back read rule), the physical
 * registers each ALU writes, and what the instruction may do beyond its
 * lanes (block, touch a unit the QPUs share, fall under the end rules). */

enum { K_SIGNAL, K_ALU, K_LDI, K_BRANCH };

enum {
    D_SIMM = 1 << 0,    /* raddr_b is a small immediate (imm: its value) */
    D_END = 1 << 1,     /* program end signal */
    D_SIGFX = 1 << 2,   /* a signal that does something (stop, sbwait, r4 loads, end) */
    D_BLOCK = 1 << 3,   /* may wait on another QPU: semaphore acquire, mutex read */
    D_SHARED = 1 << 4,  /* touches a shared unit: semaphore, mutex, VPM/VDR/VDW, host int */
    D_UVREAD = 1 << 5,  /* uniform or varying read (a rule of the last three instructions) */
    D_VPMRULE = 1 << 6, /* VPM/VDR/VDW access (likewise) */
    D_R4 = 1 << 7,      /* an active mux reads r4 */
    D_SLOW = 1 << 8,    /* unpack or mul rotation: operands prepared lane by lane */
    D_BAD = 1 << 9,     /* a reserved code the executor faults on */
    D_PACK = 1 << 10,   /* a pack applies to some write */
    D_MUTEXRD = 1 << 11,/* an ALU read of MUTEX_ACQUIRE */
    D_SEM = 1 << 12,    /* a semaphore instruction */
    D_ZA = 1 << 13,     /* raddr_a reads nothing (NOP): zeros */
    D_ZB = 1 << 14,     /* raddr_b likewise */
    D_PLAINW = 1 << 15, /* both writes go to plain rows (ra/rb 0-31, r0-r3) or
                         * nowhere, not to the same row, no pack: written
                         * straight to the rows of wrow[] */
    D_FASTBR = 1 << 17, /* a branch with no link write, register or flags:
                         * run in the slice loop */
    D_FAST = 1 << 16,   /* an ALU instruction of the common shape (alu_fast):
                         * D_PLAINW, operands from plain rows, zeros or the
                         * small immediate (src[]), no unpack, rotation,
                         * pack, signal effect, I/O or reserved code; or
                         * such writes to the TLB (D_TLBW); or a load
                         * immediate of that kind (SH_LDI) */
    D_TLBW = 1 << 18,   /* D_FAST writing the TLB (tlb[]): fast only in a
                         * fragment shader (elsewhere the write is a
                         * diagnostic) */
    D_ENDX = 1 << 19,   /* D_END other than a D_FAST one that writes nothing
                         * (SH_NOP): not in the slice's straight runs */
};

typedef struct vc4_qpu_dins {
    uint64_t ins;
    uint32_t imm;             /* LDI / branch immediate; small-immediate value */
    uint32_t rd_a, rd_b;      /* bit n: the instruction reads ra n / rb n */
    uint64_t rd;              /* the same as prev_phys: rd_b << 32 | rd_a */
    uint64_t pw[2];           /* pb << 32 | pa of each write */
    uint32_t pa[2], pb[2];    /* regfile A / B bits the add [0] and mul [1] writes hit */
    uint32_t flags;
    uint8_t acc[2];           /* accumulator bits (bit n = rn) of the two writes */
    uint8_t src[4];           /* D_FAST: operand of add a, add b, mul a, mul b: a
                               * row (ra 0-31, rb 32-63, r0-r5 64-69, SRC_ZERO,
                               * SRC_IMM) */
    uint8_t kind, sig;
    uint8_t op_add, op_mul, cond_add, cond_mul, waddr_add, waddr_mul, raddr_a, raddr_b;
    uint8_t mux[4];
    uint8_t unpack, pack, pm, sf, ws, ldi_mode;
    uint8_t add_fl;           /* the add op takes float inputs */
    uint8_t add_rfl;          /* the add result is a float (pack, flags) */
    uint8_t mul_fl;           /* fmul */
    uint8_t bcond, brel, breg, braddr; /* branch fields */
    uint8_t wrow[2];          /* D_PLAINW: row of each write (ra 0-31, rb 32-63,
                               * r0-r3 64-67; 0xff none) */
    uint8_t tlb[2];           /* D_FAST: TLB write of each ALU (enum tlbw) */
    uint8_t shape;            /* D_FAST: the handler (enum shape) */
    uint8_t shape_acc;        /* a plain shape: the accumulators it writes */
    uint64_t shape_phys;      /* a plain shape: the physical registers it writes */
    uint32_t immv[LANES];     /* D_SIMM: the small immediate in every lane;
                               * D_FAST load immediate: the value per lane */
} vc4_qpu_dins;

enum tlbw { TLBW_NONE, TLBW_COLOUR, TLBW_Z, TLBW_AMASK };

enum { SRC_ZERO = 70, SRC_IMM = 71 }; /* vc4_qpu_state.xrow */

/* The handlers of D_FAST instructions, picked at decode (a dense id the
 * slice loop switches on). A "plain" shape runs one add op, one mul op or
 * one pair of them whose writes go to rows under the condition "always",
 * without setf: no condition masks, flags or blends at run time; the
 * registers it writes are known (shape_phys, shape_acc). SH_NOP writes
 * nothing (both ops idle, or results that go nowhere); SH_GEN is alu_fast,
 * for the D_FAST instructions of other shapes (conditions, setf, pairs not
 * listed). */
#define SHAPE_ADD(X)                                                                      \
    X(FADD) X(FSUB) X(FMIN) X(FMAX) X(FMINABS) X(FMAXABS) X(FTOI) X(ITOF) X(ADD) X(SUB) \
    X(SHR) X(ASR) X(ROR) X(SHL) X(MIN) X(MAX) X(AND) X(OR) X(XOR) X(NOT) X(CLZ)         \
    X(V8ADDS) X(V8SUBS)
#define SHAPE_MUL(X) X(FMUL) X(MUL24) X(V8MULD) X(V8MIN) X(V8MAX) X(V8ADDS) X(V8SUBS)
/* pairs: the float and integer arithmetic with fmul, mul24 and the mul
 * ALU's move (v8min a, a) */
#define SHAPE_PAIR(X)                                                                     \
    X(FADD, FMUL) X(FSUB, FMUL) X(FMIN, FMUL) X(FMAX, FMUL) X(FTOI, FMUL) X(ITOF, FMUL)  \
    X(ADD, FMUL) X(SUB, FMUL) X(AND, FMUL) X(OR, FMUL) X(SHL, FMUL) X(SHR, FMUL)        \
    X(FADD, V8MIN) X(FSUB, V8MIN) X(FMIN, V8MIN) X(FMAX, V8MIN) X(FTOI, V8MIN)          \
    X(ITOF, V8MIN) X(ADD, V8MIN) X(SUB, V8MIN) X(AND, V8MIN) X(OR, V8MIN)               \
    X(SHL, V8MIN) X(SHR, V8MIN) X(ASR, V8MIN) X(XOR, V8MIN)                             \
    X(ADD, MUL24) X(SUB, MUL24) X(AND, MUL24) X(OR, MUL24) X(SHL, MUL24) X(SHR, MUL24)  \
    X(FADD, MUL24) X(ITOF, MUL24) X(FTOI, MUL24)
/* A single op comes in three operand forms: _R both operands rows, _I the
 * first a row and the second the small immediate, _G any (the immediate
 * picked lane-free at run time). */
enum shape {
    SH_GEN,
    SH_NOP,
    SH_LDI, /* a load immediate (no pack, setf or semaphore) */
    SH_LDI_TLB, /* such a load immediate whose one write is to the TLB, under
                 * "always" (the seed's `ldi tlbc`) */
#define X(a) SH_A_##a##_R, SH_A_##a##_I, SH_A_##a##_G,
    SHAPE_ADD(X)
#undef X
#define X(m) SH_M_##m##_R, SH_M_##m##_I, SH_M_##m##_G,
    SHAPE_MUL(X)
#undef X
#define X(a, m) SH_AM_##a##_##m,
    SHAPE_PAIR(X)
#undef X
    SH_COUNT
};

/* ---- decoded programs ---- */

#define PROG_MAX_INS 4096 /* instructions one cached program holds */
#define CACHE_PROGS 16    /* programs (start addresses) a cache holds (12 QPUs
                           * may run 12 different user programs) */

/* The instructions fetched from [start, start + 8n), in fetch order from the
 * start address: the code bytes as they were read and their decoding. */
typedef struct vc4_qpu_prog {
    uint32_t start, n, cap;
    uint64_t wdirty[2];       /* rows (vc4_qpu_state.dirty) the D_FAST instructions write */
    uint8_t *bytes;
    vc4_qpu_dins *d;
    uint64_t last_use;
    /* vc4_qpu_cache_payload_use's answer for the first use_n instructions */
    uint32_t use_n;
    bool use_w, use_z;
    /* a decoded instruction accesses the VPM, VDR or VDW (D_VPMRULE): the
     * program may write memory (VDW), so a hold never spares its
     * comparison with memory */
    bool vpm;
    /* the hold (vc4_qpu_cache.hold) under which the program was last
     * compared with memory; 0: none */
    uint64_t held;
    /* vc4__qpu_straight's answer for the first st_n instructions: a run
     * from the start is one straight run of `straight` instructions (0:
     * not) */
    uint32_t st_n, straight;
    uint32_t work; /* its instructions up to the last one that is not SH_NOP */
    bool pay15;    /* one of them reads ra15 or rb15 (the fragment payload) */
} vc4_qpu_prog;

struct vc4_qpu_cache {
    vc4_qpu_prog prog[CACHE_PROGS];
    uint64_t tick;
    vc4_qpu_prog *mru; /* the program prog_for gave last */
    bool st_ready;
    /* vc4_qpu_cache_hold: the current hold's number (0: not held; each hold
     * takes a new one, never reused) and the last one given */
    uint64_t hold, holds;
    /* the slice function of this host's vector level (slice_impl), taken
     * once when the cache is created */
    int (*slice)(vc4_qpu_state *s, uint64_t max, uint64_t *insns);
    bool (*frag)(vc4_qpu_state *s, vc4_frag_batch *b, uint64_t budget); /* likewise (FRAG_FN) */
    /* on a 64-byte boundary: the register rows are whole cache lines for
     * the executor's row loads and stores (the cache is allocated so) */
    _Alignas(64) vc4_qpu_state st;
};

/* ---- shared between the builds (defined in the baseline build) ---- */

/* a fault at the current instruction; a restriction diagnostic (qpu_io.h) */
#define fault(s, kind, ...) vc4__qpu_fault((s), (kind), 0, __VA_ARGS__)
#define diag(s, ...) vc4__qpu_diag((s), __VA_ARGS__)
const vc4_qpu_dins *vc4__qpu_fetch(vc4_qpu_state *s, uint32_t addr, vc4_qpu_dins *tmp);
int vc4__qpu_slice_base(vc4_qpu_state *s, uint64_t max, uint64_t *insns);
int vc4__qpu_slice_avx2(vc4_qpu_state *s, uint64_t max, uint64_t *insns);
int vc4__qpu_slice_avx512(vc4_qpu_state *s, uint64_t max, uint64_t *insns);
bool vc4__qpu_frag_base(vc4_qpu_state *s, vc4_frag_batch *b, uint64_t budget);
bool vc4__qpu_frag_avx2(vc4_qpu_state *s, vc4_frag_batch *b, uint64_t budget);
bool vc4__qpu_frag_avx512(vc4_qpu_state *s, vc4_frag_batch *b, uint64_t budget);
uint32_t vc4__qpu_straight(vc4_qpu_prog *pg);

/* Note a register row the run writes (reinit clears it for the next run):
 * rows ra0-31 = 0-31, rb0-31 = 32-63, r0-r5 = 64-69, the layout of the
 * state (ra, rb and acc follow each other). */
static inline void dirty_row(vc4_qpu_state *s, unsigned row)
{
    s->dirty[row >> 6] |= 1ull << (row & 63);
}
static inline void dirty_ab(vc4_qpu_state *s, int file, uint32_t n)
{
    dirty_row(s, (unsigned)file * 32 + n);
}
static inline void dirty_acc(vc4_qpu_state *s, unsigned n)
{
    dirty_row(s, 64 + n);
}
/* Rows are counted from ra[0] across ra, rb, acc and xrow (asserted below);
 * the address is taken from the whole state object, since indexing ra[0]
 * past its own 16 words is out of bounds of that array (clang's
 * -fsanitize=bounds stops every vc4 fuzzer on it), however the rows lie. */
static inline uint32_t *row_ptr(vc4_qpu_state *s, unsigned row)
{
    return (uint32_t *)((char *)s + offsetof(vc4_qpu_state, ra) + 64 * (size_t)row);
}
_Static_assert(offsetof(vc4_qpu_state, rb) == offsetof(vc4_qpu_state, ra) + 32 * 64 &&
                   offsetof(vc4_qpu_state, acc) == offsetof(vc4_qpu_state, rb) + 32 * 64 &&
                   offsetof(vc4_qpu_state, xrow) == offsetof(vc4_qpu_state, acc) + 6 * 64,
               "register rows ra, rb, acc, xrow follow each other");

static int read_uniform(vc4_qpu_state *s, uint32_t *out)
{
    uint32_t v;
    if (cg_vas_read(s->bus, s->unif, &v, 4, &s->agent) != 0) {
        s->ended = true;
        return CG_ERR_FAULT;
    }
    s->unif += 4;
    for (int i = 0; i < LANES; i++)
        out[i] = v;
    return 0;
}

static const uint32_t zero_lanes[LANES];

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

/* the TLB write (enum tlbw) of an I/O kind, TLBW_NONE for others */
static inline uint32_t tlbw_of(uint32_t kind)
{
    switch (kind) {
    case VC4_QPU_IO_TLBC:
    case VC4_QPU_IO_TLBM: return TLBW_COLOUR;
    case VC4_QPU_IO_TLBZ: return TLBW_Z;
    case VC4_QPU_IO_TLBAM: return TLBW_AMASK;
    default: return TLBW_NONE;
    }
}

/* the lanes whose write condition holds: never, always, Z, !Z, N, !N, C, !C */
static inline uint16_t cond_mask(const vc4_qpu_state *s, uint32_t cond)
{
    return (uint16_t)(s->fl[cond >> 1] ^ (0u - (cond & 1)));
}

/* ---- register reads ---- */

typedef struct rd {
    uint32_t v[LANES];
    bool r5_pending;
    uint32_t r5[LANES];
} rd;

/* Read regfile `file` address n into out (I/O side effects included). */
static int read_reg(vc4_qpu_state *s, int file, uint32_t n, rd *r, uint32_t *out)
{
    int rc;
    if (n < 32) {
        if ((s->prev_phys >> (32 * file + n)) & 1) {
            rc = diag(s, "reads r%c%u, written by the previous instruction", file ? 'b' : 'a', n);
            if (rc)
                return rc;
        }
        memcpy(out, file ? s->rb[n] : s->ra[n], sizeof(uint32_t) * LANES);
        return 0;
    }
    const vc4_qpu_reginfo *ri = &vc4_qpu_raddrs[n];
    vc4_frag_batch *fb = s->frag;
    switch (ri->kind[file]) {
    case VC4_QPU_IO_NOP:
        memset(out, 0, sizeof(uint32_t) * LANES);
        return 0;
    case VC4_QPU_IO_UNIF:
        return read_uniform(s, out);
    case VC4_QPU_IO_VARY: {
        uint32_t k = s->nvary_read++;
        if (!fb || k >= fb->nvary || k >= VC4_QPU_MAX_VARYINGS) {
            memset(out, 0, sizeof(uint32_t) * LANES);
            memset(r->r5, 0, sizeof r->r5);
            r->r5_pending = true;
            return diag(s, "varying read %u but only %u varyings are available", k,
                        fb ? fb->nvary : 0);
        }
        for (int i = 0; i < LANES; i++) {
            out[i] = ftz(f2u(fb->vary[k][i]));
            r->r5[i] = ftz(f2u(fb->vary_c[k][i]));
        }
        r->r5_pending = true;
        return 0;
    }
    case VC4_QPU_IO_ELEM:
        for (int i = 0; i < LANES; i++)
            out[i] = (uint32_t)i;
        return 0;
    case VC4_QPU_IO_QPUNUM:
        for (int i = 0; i < LANES; i++)
            out[i] = s->qpu_num; /* 0 unless vc4_qpu_set_units named another */
        return 0;
    case VC4_QPU_IO_XCOORD:
    case VC4_QPU_IO_YCOORD:
        for (int i = 0; i < LANES; i++)
            out[i] = fb ? (ri->kind[file] == VC4_QPU_IO_XCOORD ? fb->x[i] : fb->y[i]) : 0;
        return 0;
    case VC4_QPU_IO_MSFLAGS:
        for (int i = 0; i < LANES; i++)
            out[i] = fb ? fb->ms_flags[i] : 0;
        return 0;
    case VC4_QPU_IO_REVFLAG:
        for (int i = 0; i < LANES; i++)
            out[i] = fb ? (fb->rev_flag & 1) : 0;
        return 0;
    case VC4_QPU_IO_MUTEX:
        if (s->mutex_held) /* nothing else can release it: the QPU stalls for good */
            return fault(s, CG_FAULT_HANG, "mutex acquire while this QPU holds the mutex");
        /* another holder was caught before the instruction issued (blocked) */
        s->mutex_held = true;
        if (s->units)
            s->units->mutex_owner = (int)s->qpu_num;
        memset(out, 0, sizeof(uint32_t) * LANES);
        return 0;
    case VC4_QPU_IO_VPM:
        if (n == VC4_QPU_R_VPM_READ)
            return vc4__vpm_read(s, out);
        /* VPM_LD_BUSY / VPM_ST_BUSY, VPM_LD_WAIT / VPM_ST_WAIT: a DMA
         * completes when it starts, so never busy and nothing to wait for */
        memset(out, 0, sizeof(uint32_t) * LANES);
        return 0;
    default:
        memset(out, 0, sizeof(uint32_t) * LANES);
        return diag(s, "read of reserved register r%c%u", file ? 'b' : 'a', n);
    }
}

/* ---- register writes ---- */

/* dst[i] = v[i] for the lanes of m: one select per lane (vectorised) */
typedef struct wr {
    bool add;       /* add side (else mul) */
    uint32_t waddr;
    int file;       /* 0 A, 1 B */
    uint16_t mask;  /* lanes written */
    const uint32_t *v;
} wr;

/* A TLB colour, Z or alpha-mask write (enum tlbw) of the lanes of m: the
 * lanes of a covered pixel are written (last write wins). */
static inline __attribute__((always_inline)) void tlb_write(vc4_frag_batch *fb, uint32_t t,
                                                            row v, uint16_t m)
{
    uint16_t lanes = m & fb->mask;
    uint32_t *dst;
    uint16_t *written;
    switch (t) {
    case TLBW_Z: dst = fb->z_out, written = &fb->z_mask; break;
    case TLBW_AMASK: dst = fb->alpha_mask, written = &fb->alpha_mask_written; break;
    default: dst = fb->color, written = &fb->color_mask; break;
    }
    if (lanes)
        blend(dst, v, lanes);
    *written |= lanes;
}

static int write_reg(vc4_qpu_state *s, const wr *w, bool *sfu_started)
{
    uint32_t n = w->waddr;
    uint16_t m = w->mask;
    if (n < 32) {
        dirty_ab(s, w->file, n);
        blend(w->file ? s->rb[n] : s->ra[n], vload(w->v), m);
        return 0;
    }
    const vc4_qpu_reginfo *ri = &vc4_qpu_waddrs[n];
    vc4_frag_batch *fb = s->frag;
    uint32_t addr = (uint32_t)s->agent.stream_addr;
    switch (ri->kind[w->file]) {
    case VC4_QPU_IO_NOP:
        return 0;
    case VC4_QPU_IO_ACC:
        dirty_acc(s, n - 32);
        blend(s->acc[n - 32], vload(w->v), m);
        return 0;
    case VC4_QPU_IO_R5QUAD: /* element 0/4/8/12 to its quad (addendum) */
        dirty_acc(s, 5);
        for (int i = 0; i < LANES; i++)
            if ((m >> i) & 1)
                s->acc[5][i] = w->v[i & ~3];
        return 0;
    case VC4_QPU_IO_R5REP: /* element 0 to every element (addendum) */
        dirty_acc(s, 5);
        for (int i = 0; i < LANES; i++)
            if ((m >> i) & 1)
                s->acc[5][i] = w->v[0];
        return 0;
    case VC4_QPU_IO_HOSTINT:
        if ((m & 1) && w->v[0]) /* a non-zero value interrupts (addendum) */
            s->host_int = w->v[0];
        return 0;
    case VC4_QPU_IO_UNIFADDR:
        if (m & 1)
            s->unif = w->v[0];
        return 0;
    case VC4_QPU_IO_MSFLAGS:
        if (fb)
            for (int i = 0; i < LANES; i++)
                if ((m >> i) & 1 & (fb->mask >> i)) {
                    fb->ms_flags[i] = w->v[i] & 15;
                    fb->ms_mask_written |= (uint16_t)(1u << i);
                }
        return 0;
    case VC4_QPU_IO_TLBS:
        if (fb && (m & 1)) {
            fb->stencil_setup = w->v[0];
            fb->stencil_writes++;
        }
        return 0;
    case VC4_QPU_IO_TLBZ:
    case VC4_QPU_IO_TLBC:
    case VC4_QPU_IO_TLBM:
    case VC4_QPU_IO_TLBAM:
        if (!fb)
            return diag(s, "TLB write (%s) outside a fragment shader", ri->name[w->file]);
        tlb_write(fb, tlbw_of(ri->kind[w->file]), vload(w->v), m);
        return 0;
    case VC4_QPU_IO_MUTEX:
        if (!s->mutex_held)
            return diag(s, "mutex release while the mutex is not held");
        s->mutex_held = false;
        if (s->units && s->units->mutex_owner == (int)s->qpu_num)
            s->units->mutex_owner = -1;
        return 0;
    case VC4_QPU_IO_SFU: {
        if (*sfu_started) {
            int rc = diag(s, "both ALUs write the SFU in one instruction");
            if (rc)
                return rc;
        }
        *sfu_started = true;
        for (int i = 0; i < LANES; i++) {
            float x = fin(w->v[i]);
            float r;
            switch (n) {
            case VC4_QPU_W_SFU_RECIP: r = 1.0f / x; break;
            case VC4_QPU_W_SFU_RECIPSQRT: r = 1.0f / sqrtf(x); break;
            case VC4_QPU_W_SFU_EXP: r = exp2f(x); break;
            default: r = log2f(x); break;
            }
            s->sfu_result[i] = fres(r);
        }
        s->sfu_wait = 3; /* lands in r4 after the next two instructions */
        return 0;
    }
    case VC4_QPU_IO_QUAD:
    case VC4_QPU_IO_REVFLAG:
        return fault(s, CG_FAULT_UNSUPPORTED, "not supported yet: write to %s at 0x%08x",
                     ri->name[w->file], addr);
    case VC4_QPU_IO_TMU:
        return vc4__tmu_write(s, n, w->v, m);
    case VC4_QPU_IO_VPM:
        if (n == VC4_QPU_W_VPM_WRITE)
            return vc4__vpm_write(s, w->v, m);
        /* setups and DMA addresses take element 0 */
        if (!(m & 1))
            return 0;
        if (n == VC4_QPU_W_VPMVCD_RD_SETUP)
            return vc4__vpm_setup(s, w->file, w->v[0]);
        return vc4__vpm_dma(s, w->file, w->v[0]);
    default:
        return fault(s, CG_FAULT_UNSUPPORTED, "not supported yet: write to %s at 0x%08x",
                     ri->name[w->file], addr);
    }
}

/* Two writes of one instruction to the same place? */
static bool same_target(const wr *a, const wr *b)
{
    if (a->waddr == VC4_QPU_W_NOP || b->waddr == VC4_QPU_W_NOP)
        return false;
    if (a->waddr < 32 || b->waddr < 32)
        return a->waddr == b->waddr && a->file == b->file;
    return a->waddr == b->waddr;
}

/* Z, N, C of the lanes of `lanes` from 16 results and carries (0/1): the
 * three masks are built from the lane values, then merged. */
static int exec_writes(vc4_qpu_state *s, wr *w, uint32_t *phys_a, uint32_t *phys_b,
                       uint8_t *accw)
{
    bool sfu = false;
    if ((w[0].mask & w[1].mask) && same_target(&w[0], &w[1])) {
        int rc = diag(s, "both ALUs write %s in one instruction",
                      w[0].waddr < 32 ? (w[0].file ? "the same rb register" : "the same ra register")
                                      : vc4_qpu_waddrs[w[0].waddr].name[w[0].file]);
        if (rc)
            return rc;
    }
    for (int k = 0; k < 2; k++) {
        if (w[k].waddr == VC4_QPU_W_NOP || !w[k].mask)
            continue;
        if (w[k].waddr < 32) {
            if (w[k].file)
                *phys_b |= 1u << w[k].waddr;
            else
                *phys_a |= 1u << w[k].waddr;
        } else if (w[k].waddr <= 35) {
            *accw |= (uint8_t)(1u << (w[k].waddr - 32));
        } else if (w[k].waddr == 37) {
            *accw |= 1u << 5;
        }
        if (w[k].waddr < 32) { /* a plain row: no I/O */
            dirty_ab(s, w[k].file, w[k].waddr);
            blend(w[k].file ? s->rb[w[k].waddr] : s->ra[w[k].waddr], vload(w[k].v), w[k].mask);
            continue;
        }
        if (w[k].waddr <= 35) { /* r0-r3 (both files) */
            dirty_acc(s, w[k].waddr - 32);
            blend(s->acc[w[k].waddr - 32], vload(w[k].v), w[k].mask);
            continue;
        }
        int rc = write_reg(s, &w[k], &sfu);
        if (rc)
            return rc;
    }
    return 0;
}

/* Pack the writes of w (pm=0: regfile A writes; pm=1: the mul result) into
 * buf; ovf: the add op is add/sub (32-bit saturate needs its overflow). */
static void pack_writes(vc4_qpu_state *s, const vc4_qpu_dins *d, wr *w, uint32_t buf[2][LANES],
                        const uint32_t *in0, const uint32_t *in1, bool ovf, bool from_alu)
{
    for (int k = 0; k < 2; k++) {
        uint32_t n = w[k].waddr;
        bool pa = !d->pm && d->pack && w[k].file == 0, pmul = d->pm && d->pack && k == 1;
        if (!w[k].mask || n == VC4_QPU_W_NOP || (!pa && !pmul))
            continue;
        bool fl = from_alu && (k == 0 ? d->add_rfl : d->mul_fl);
        for (int i = 0; i < LANES; i++) {
            uint32_t x = w[k].v[i], old;
            if (from_alu)
                old = n < 32 ? (w[k].file ? s->rb[n][i] : s->ra[n][i])
                             : (n <= 35 ? s->acc[n - 32][i] : 0);
            else if (pa)
                old = n < 32 ? s->ra[n][i] : 0;
            else
                old = n < 32 ? (w[k].file ? s->rb[n][i] : s->ra[n][i]) : 0;
            bool ovp = false, ovn = false;
            if (k == 0 && ovf) {
                int64_t a = (int32_t)in0[i], b = (int32_t)in1[i];
                int64_t t = d->op_add == VC4_QPU_A_ADD ? a + b : a - b;
                ovp = t > INT32_MAX;
                ovn = t < INT32_MIN;
            }
            buf[k][i] = pa ? pack_a(d->pack, x, old, fl, ovp, ovn) : pack_m(d->pack, x, old);
        }
        w[k].v = buf[k];
    }
}

static int exec_alu(vc4_qpu_state *s, const vc4_qpu_dins *d, uint32_t *phys_a,
                    uint32_t *phys_b, uint8_t *accw, rd *r)
{
    uint32_t op_add = d->op_add, op_mul = d->op_mul;
    int rc;

    if (d->flags & D_BAD) {
        if (op_add && !vc4_qpu_add_ops[op_add].name)
            return fault(s, CG_FAULT_INVALID_OPCODE, "reserved add op %u", op_add);
        if (d->pm && d->pack && !vc4_qpu_packm[d->pack].name)
            return fault(s, CG_FAULT_INVALID_OPCODE, "reserved mul pack %u", d->pack);
    }

    /* The register-file ports read whenever raddr names something, used by
     * a mux or not (the kernel validator counts uniforms this way). Plain
     * rows are used in place. */
    uint32_t bufa[LANES], bufb[LANES];
    const uint32_t *va = bufa, *vb = bufb;
    if (d->raddr_a < 32) {
        if ((s->prev_phys & d->rd_a) &&
            (rc = diag(s, "reads r%c%u, written by the previous instruction", 'a', d->raddr_a)))
            return rc;
        va = s->ra[d->raddr_a];
    } else if (d->flags & D_ZA) {
        va = zero_lanes;
    } else if ((rc = read_reg(s, 0, d->raddr_a, r, bufa))) {
        return rc;
    }
    if (d->flags & D_SIMM) {
        vstore(s->xrow[1], vsplat(d->imm));
        vb = s->xrow[1];
    } else if (d->raddr_b < 32) {
        if (((s->prev_phys >> 32) & d->rd_b) &&
            (rc = diag(s, "reads r%c%u, written by the previous instruction", 'b', d->raddr_b)))
            return rc;
        vb = s->rb[d->raddr_b];
    } else if (d->flags & D_ZB) {
        vb = zero_lanes;
    } else if ((rc = read_reg(s, 1, d->raddr_b, r, bufb))) {
        return rc;
    }
    if ((d->flags & D_R4) && s->sfu_wait > 0 &&
        (rc = diag(s, "reads r4 within two instructions of an SFU write")))
        return rc;

    /* Operands per consumer; inactive sides (nop) compute nothing. */
    const uint32_t *in[4];
    for (int k = 0; k < 4; k++) {
        uint32_t m = d->mux[k];
        in[k] = !(k < 2 ? op_add : op_mul) ? zero_lanes
              : m < 6 ? s->acc[m] : m == 6 ? va : vb;
    }
    uint32_t slow[4][LANES];
    if (d->flags & D_SLOW) {
        /* unpack (float or int by the consumer) */
        for (int k = 0; k < 4; k++) {
            if (!(k < 2 ? op_add : op_mul))
                continue;
            bool fl = k < 2 ? d->add_fl : d->mul_fl;
            uint32_t m = d->mux[k];
            if ((m == 4 && d->unpack && d->pm) || (m == 6 && d->unpack && !d->pm)) {
                for (int i = 0; i < LANES; i++)
                    slow[k][i] = unpack(d->unpack, in[k][i], fl);
                in[k] = slow[k];
            }
        }
        /* vector rotation of the mul inputs (small immediates 48-63) */
        if ((d->flags & D_SIMM) && d->raddr_b >= 48 && op_mul) {
            uint32_t n = d->raddr_b == 48 ? (s->acc[5][0] & 15) : d->raddr_b - 48u;
            if (d->raddr_b == 48 && (s->prev_acc & (1u << 5)))
                if ((rc = diag(s, "rotates by r5 right after an instruction that writes r5")))
                    return rc;
            for (int k = 2; k < 4; k++)
                if (d->mux[k] < 4 && (s->prev_acc & (1u << d->mux[k])))
                    if ((rc = diag(s, "rotates r%u right after an instruction that writes it",
                                   d->mux[k])))
                        return rc;
            bool full = d->mux[2] < 4 && d->mux[3] < 4;
            for (int k = 2; k < 4; k++) {
                uint32_t t[LANES];
                for (int i = 0; i < LANES; i++) {
                    int from = full ? (int)((i - (int)n) & 15) : ((i & ~3) | ((i - (int)n) & 3));
                    t[i] = in[k][from];
                }
                memcpy(slow[k], t, sizeof t);
                in[k] = slow[k];
            }
        }
    }

    row a0 = vsplat(0), a1 = a0, m0 = a0, m1 = a0, res_a = a0, res_m = a0;
    if (op_add) {
        a0 = vload(in[0]), a1 = vload(in[1]);
        res_a = add_op(op_add, a0, a1);
    }
    if (op_mul) {
        m0 = vload(in[2]), m1 = vload(in[3]);
        res_m = mul_op(op_mul, m0, m1);
    }

    uint16_t madd = op_add ? cond_mask(s, d->cond_add) : 0;
    uint16_t mmul = op_mul ? cond_mask(s, d->cond_mul) : 0;

    if (d->flags & D_PLAINW) {
        /* what exec_writes does for plain rows, with the rows decoded */
        if (madd && d->wrow[0] != 0xff) {
            blend(row_ptr(s, d->wrow[0]), res_a, madd);
            dirty_row(s, d->wrow[0]);
            *phys_a |= d->pa[0], *phys_b |= d->pb[0], *accw |= d->acc[0];
        }
        if (mmul && d->wrow[1] != 0xff) {
            blend(row_ptr(s, d->wrow[1]), res_m, mmul);
            dirty_row(s, d->wrow[1]);
            *phys_a |= d->pa[1], *phys_b |= d->pb[1], *accw |= d->acc[1];
        }
        goto flags;
    }
    uint32_t ra_res[LANES], rm_res[LANES];
    vstore(ra_res, res_a);
    vstore(rm_res, res_m);
    wr w[2];
    w[0].add = true;
    w[0].waddr = d->waddr_add;
    w[0].file = d->ws ? 1 : 0;
    w[0].mask = madd;
    w[0].v = ra_res;
    w[1].add = false;
    w[1].waddr = d->waddr_mul;
    w[1].file = d->ws ? 0 : 1;
    w[1].mask = mmul;
    w[1].v = rm_res;
    uint32_t pbuf[2][LANES];
    if (d->flags & D_PACK) {
        pack_writes(s, d, w, pbuf, in[0], in[1],
                    op_add == VC4_QPU_A_ADD || op_add == VC4_QPU_A_SUB, true);
        if (d->pm && d->pack >= 4 && mmul && d->waddr_mul >= 36 &&
            d->waddr_mul != VC4_QPU_W_NOP && d->waddr_mul != VC4_QPU_W_ACC5_QUAD)
            if ((rc = diag(s, "byte pack of the mul result into I/O register %s",
                           vc4_qpu_waddrs[d->waddr_mul].name[w[1].file])))
                return rc;
    }

    if ((rc = exec_writes(s, w, phys_a, phys_b, accw)))
        return rc;

flags:
    if (d->sf) {
        /* flags from the add ALU unless it is a nop, then from the mul ALU;
         * only lanes whose condition holds (addendum) */
        if (op_add)
            set_flags(s, res_a, add_carry(op_add, a0, a1, res_a), madd, d->add_rfl);
        else if (op_mul)
            set_flags(s, res_m, mul_carry(op_mul, m0, m1, res_m), mmul, d->mul_fl);
    }
    return 0;
}

static int exec_ldi(vc4_qpu_state *s, const vc4_qpu_dins *d, uint32_t *phys_a,
                    uint32_t *phys_b, uint8_t *accw, bool *stalled)
{
    uint32_t imm = d->imm, mode = d->ldi_mode;
    uint32_t v[LANES];
    switch (mode) {
    case VC4_QPU_LDI_LOAD_32:
    case VC4_QPU_LDI_PER_ELEMENT_SIGNED:
    case VC4_QPU_LDI_PER_ELEMENT_UNSIGNED:
        memcpy(v, d->immv, sizeof v); /* decoded */
        break;
    case VC4_QPU_LDI_SEMAPHORE: {
        int rc;
        uint32_t n = imm & 15;
        uint8_t *cnt = &s->sems->count[n];
        if (imm & 16) { /* acquire: waits while the count is 0 */
            if (*cnt == 0) {
                *stalled = true;
                return 0;
            }
            (*cnt)--;
        } else { /* release: a 4-bit counter; past 15 is a fault (the Guide
                  * stalls; nothing in the model could then release it) */
            if (*cnt == 15)
                return fault(s, CG_FAULT_BAD_STATE, "semaphore %u release past 15", n);
            (*cnt)++;
        }
        if ((imm & ~0x1fu) && (rc = diag(s, "semaphore instruction immediate 0x%08x: bits 31:5 "
                                            "are not 0", imm)))
            return rc;
        /* "otherwise behaves like a 32-bit load immediate" (Guide, quoted
         * in VC4C OpCodes.h) */
        for (int i = 0; i < LANES; i++)
            v[i] = imm;
        break;
    }
    default:
        return fault(s, CG_FAULT_INVALID_OPCODE, "reserved load-immediate mode %u", mode);
    }
    if (d->pm && d->pack && !vc4_qpu_packm[d->pack].name)
        return fault(s, CG_FAULT_INVALID_OPCODE, "reserved mul pack %u", d->pack);
    wr w[2];
    w[0].add = true;
    w[1].add = false;
    w[0].waddr = d->waddr_add;
    w[0].file = d->ws ? 1 : 0;
    w[0].mask = cond_mask(s, d->cond_add);
    w[0].v = v;
    w[1].waddr = d->waddr_mul;
    w[1].file = d->ws ? 0 : 1;
    w[1].mask = cond_mask(s, d->cond_mul);
    w[1].v = v;
    uint32_t pbuf[2][LANES];
    if (d->flags & D_PACK)
        pack_writes(s, d, w, pbuf, v, v, false, false);
    int rc = exec_writes(s, w, phys_a, phys_b, accw);
    if (rc)
        return rc;
    if (d->sf)
        set_flags(s, vload(v), vsplat(0), w[0].mask, false);
    return 0;
}

static int exec_branch(vc4_qpu_state *s, const vc4_qpu_dins *d, uint32_t addr,
                       uint32_t *phys_a, uint32_t *phys_b, uint8_t *accw)
{
    uint32_t c = d->bcond, raddr = d->braddr;
    int rc;
    if (d->flags & D_BAD)
        return fault(s, CG_FAULT_INVALID_OPCODE, "reserved branch condition %u", c);
    if (s->since_branch < 3)
        if ((rc = diag(s, "branch within two instructions of another branch")))
            return rc;
    if (s->end_wait >= 0)
        if ((rc = diag(s, "branch in the delay slots of a program end")))
            return rc;
    uint16_t f = 0;
    bool any = false, all = false;
    switch (c >> 2) {
    case 0: f = s->zf; break;
    case 1: f = s->nf; break;
    default: f = s->cf; break;
    }
    if (c != 15) {
        if (c & 1)
            f = (uint16_t)~f;
        any = f != 0;
        all = f == ALL_LANES;
    }
    bool taken = c == 15 || ((c & 2) ? any : all);
    s->since_branch = 0;
    if (!taken)
        return 0;
    uint32_t target = d->brel ? addr + 32 + d->imm : d->imm;
    if (d->breg) {
        if ((s->prev_phys >> raddr) & 1)
            if ((rc = diag(s, "branch reads ra%u, written by the previous instruction", raddr)))
                return rc;
        target += s->ra[raddr][15]; /* element 15 (addendum) */
    }
    /* link: the return address, after the three delay slots */
    uint32_t link[LANES];
    for (int i = 0; i < LANES; i++)
        link[i] = addr + 32;
    wr w[2];
    memset(w, 0, sizeof w);
    w[0].waddr = d->waddr_add;
    w[0].file = d->ws ? 1 : 0;
    w[1].waddr = d->waddr_mul;
    w[1].file = d->ws ? 0 : 1;
    for (int k = 0; k < 2; k++) {
        w[k].mask = ALL_LANES;
        w[k].v = link;
    }
    if ((rc = exec_writes(s, w, phys_a, phys_b, accw)))
        return rc;
    if (raddr & 1) /* an odd raddr_a sets the flags from the link value (addendum) */
        set_flags(s, vload(link), vsplat(0), ALL_LANES, false);
    s->branch_wait = 4; /* counts this instruction and its three delay slots */
    s->branch_target = target;
    return 0;
}


/* Would the instruction wait on another QPU? Checked before it issues, so a
 * blocked instruction has no effect (no uniform read, no write). */
#if defined(__GNUC__)
__attribute__((noinline, cold))
#endif
static bool blocks(vc4_qpu_state *s, const vc4_qpu_dins *d)
{
    if (d->kind == K_LDI) {
        if ((d->flags & D_SEM) && (d->imm & 16) && s->sems->count[d->imm & 15] == 0) {
            s->wait.kind = VC4_QPU_WAIT_SEM_ACQUIRE;
            s->wait.detail = d->imm & 15;
            return true;
        }
        return false;
    }
    if (d->kind != K_ALU || !s->units || s->units->mutex_owner < 0 ||
        s->units->mutex_owner == (int)s->qpu_num)
        return false;
    if (d->flags & D_MUTEXRD) {
        s->wait.kind = VC4_QPU_WAIT_MUTEX;
        s->wait.detail = (uint32_t)s->units->mutex_owner;
        return true;
    }
    return false;
}

#if defined(__GNUC__)
__attribute__((noinline, cold))
#endif
static int sig_effects(vc4_qpu_state *s, const vc4_qpu_dins *d)
{
    int rc = 0;
    uint32_t sig = d->sig;
    vc4_frag_batch *fb = s->frag;
    if (sig == VC4_QPU_SIG_COLOUR_LOAD || sig == VC4_QPU_SIG_COLOUR_LOAD_AND_PROGRAM_END) {
        dirty_acc(s, 4);
        for (int i = 0; i < LANES; i++)
            s->acc[4][i] = fb ? fb->tlb_color_in[i] : 0;
        if (!fb && (rc = diag(s, "colour load outside a fragment shader")))
            return rc;
    } else if (sig == VC4_QPU_SIG_COVERAGE_LOAD) {
        dirty_acc(s, 4);
        for (int i = 0; i < LANES; i++)
            s->acc[4][i] = fb ? fb->coverage_in[i] : 0;
        if (!fb && (rc = diag(s, "coverage load outside a fragment shader")))
            return rc;
    }
    if (sig == VC4_QPU_SIG_LOAD_TMU0 || sig == VC4_QPU_SIG_LOAD_TMU1) {
        /* "Any other instruction that results in r4 being written (that is,
         * TMU read, TLB read, SFU lookup) cannot occur in the two
         * instructions following an SFU lookup" (Guide, quoted in Mesa
         * vc4_qpu_validate.c); sfu_wait is 2 or 1 in those two */
        if (s->sfu_wait > 0 && s->sfu_wait < 3 &&
            (rc = diag(s, "%s writes r4 within two instructions of an SFU write",
                       vc4_qpu_sigs[sig].as)))
            return rc;
        /* the oldest result of that TMU lands in r4 for the next instruction */
        if ((rc = vc4__tmu_pop(s, (int)(sig - VC4_QPU_SIG_LOAD_TMU0), s->acc[4])))
            return rc;
        dirty_acc(s, 4);
    }
    return 0;
}

/* The rules of the last three instructions (thrend and its delay slots). */
#if defined(__GNUC__)
__attribute__((noinline, cold))
#endif
static int end_rules(vc4_qpu_state *s, const vc4_qpu_dins *d, bool is_end, uint32_t phys)
{
    int rc;
    if ((d->flags & D_UVREAD) &&
        (rc = diag(s, "uniform or varying read in the last three instructions")))
        return rc;
    /* ... nor "any kind of VPM, VDR, or VDW read or write" (Guide, quoted
     * in Mesa vc4_qpu_validate.c) */
    if ((d->flags & D_VPMRULE) &&
        (rc = diag(s, "VPM, VDR or VDW access in the last three instructions")))
        return rc;
    if (is_end && phys)
        if ((rc = diag(s, "program end instruction writes a register-file register")))
            return rc;
    return 0;
}

/* Execute the decoded instruction d at addr (one step). */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static int step_d(vc4_qpu_state *s, const vc4_qpu_dins *d, uint32_t addr)
{
    /* only a semaphore acquire, or an ALU read of the mutex while some QPU
     * holds it, can block */
    if ((d->flags & D_BLOCK) && blocks(s, d)) {
        s->stalls++;
        s->executed++; /* a stall cycle */
        return VC4_QPU_BLOCKED;
    }
    if (s->wait.kind) {
        s->wait.kind = VC4_QPU_WAIT_NONE;
        s->wait.detail = 0;
    }
    uint32_t sig = d->sig;
    uint32_t phys_a = 0, phys_b = 0;
    uint8_t accw = 0;
    bool stalled = false;
    rd r;
    r.r5_pending = false;
    int rc = 0;
    s->executed++;

    bool is_end = false;
    if (d->flags & D_SIGFX) {
        /* signals that stop here */
        switch (sig) {
        case VC4_QPU_SIG_SOFTWARE_BREAKPOINT:
            return fault(s, CG_FAULT_TRAP, "software breakpoint at 0x%08x", addr);
        case VC4_QPU_SIG_ALPHA_MASK_LOAD:
            return fault(s, CG_FAULT_UNSUPPORTED,
                         "not supported yet: loadam (alpha-mask load) at 0x%08x", addr);
        case VC4_QPU_SIG_WAIT_FOR_SCOREBOARD:
            if (s->executed <= 2 &&
                (rc = diag(s, "scoreboard wait in the first two instructions")))
                return rc;
            s->sbwait_done = true;
            break;
        default:
            break;
        }
        is_end = d->flags & D_END;
        if (is_end && s->end_wait >= 0 &&
            (rc = diag(s, "program end in the delay slots of a program end")))
            return rc;
        if (is_end && s->branch_wait > 0 &&
            (rc = diag(s, "program end in the delay slots of a branch")))
            return rc;
    }

    if (d->kind == K_ALU)
        rc = exec_alu(s, d, &phys_a, &phys_b, &accw, &r);
    else if (d->kind == K_LDI)
        rc = exec_ldi(s, d, &phys_a, &phys_b, &accw, &stalled);
    else if (d->kind == K_BRANCH)
        rc = exec_branch(s, d, addr, &phys_a, &phys_b, &accw);
    if (rc)
        return rc;
    if (stalled) /* semaphore: the same instruction again next cycle */
        return 0;

    if ((is_end || s->end_wait >= 0) && (rc = end_rules(s, d, is_end, phys_a | phys_b)))
        return rc;

    /* results that land at the end of this instruction */
    if (r.r5_pending) {
        memcpy(s->acc[5], r.r5, sizeof r.r5);
        dirty_acc(s, 5);
    }
    if ((d->flags & D_SIGFX) && (rc = sig_effects(s, d)))
        return rc;
    if (s->sfu_wait > 0 && --s->sfu_wait == 0) {
        memcpy(s->acc[4], s->sfu_result, sizeof s->sfu_result);
        dirty_acc(s, 4);
    }

    s->prev_phys = (uint64_t)phys_b << 32 | phys_a;
    s->prev_acc = accw;
    if (s->since_branch < 100)
        s->since_branch++;

    /* control flow: end after two delay slots, branch after three */
    if (s->end_wait >= 0) {
        if (s->end_wait == 0 || --s->end_wait == 0) {
            s->ended = true;
            return 0;
        }
    }
    if (is_end && s->end_wait < 0)
        s->end_wait = 2;
    if (s->branch_wait > 0 && --s->branch_wait == 0) {
        s->pc = s->branch_target;
        return 0;
    }
    s->pc = addr + 8;
    return 0;
}


/* Write k (add 0, mul 1) of a D_FAST instruction: v to the lanes of m of
 * its row or the TLB; the registers written go to *phys and *acc. */
static inline __attribute__((always_inline)) void fast_write(vc4_qpu_state *s,
                                                            const vc4_qpu_dins *d, int k,
                                                            row v, uint16_t m, uint64_t *phys,
                                                            uint8_t *acc)
{
    if (!m)
        return;
    if (d->wrow[k] != 0xff) {
        blend(row_ptr(s, d->wrow[k]), v, m);
        *phys |= d->pw[k];
        *acc |= d->acc[k];
    } else if (d->tlb[k]) {
        tlb_write(s->frag, d->tlb[k], v, m);
    }
}

/* Operand k (add a, add b, mul a, mul b) of a D_FAST instruction: a row of
 * the state, or the decoded small immediate. */
static inline __attribute__((always_inline)) row opnd(const uint32_t *rows,
                                                      const vc4_qpu_dins *d, int k)
{
    return vload(d->src[k] == SRC_IMM ? d->immv : rows + 16 * d->src[k]);
}

/* An instruction of the common shape (D_FAST): operands straight from the
 * rows, both ALUs, writes to plain rows, flags: what exec_alu does for it,
 * without the cases it cannot have. Returns the physical registers written
 * (prev_phys's layout) and the accumulators in *accw. The rows it may write
 * are already in s->dirty (vc4_qpu_prog.wdirty). */
static inline __attribute__((always_inline)) uint64_t alu_fast(vc4_qpu_state *s,
                                                               const vc4_qpu_dins *d,
                                                               uint8_t *accw)
{
    uint32_t op_add = d->op_add, op_mul = d->op_mul;
    uint32_t *rows = row_ptr(s, 0); /* rows 0-69, then zeros (70) */
    /* conditions from the flags before this instruction's */
    uint16_t madd = op_add ? cond_mask(s, d->cond_add) : 0;
    uint16_t mmul = op_mul ? cond_mask(s, d->cond_mul) : 0;
    row res_a, res_m;
    if (op_add) {
        row a = opnd(rows, d, 0), b = opnd(rows, d, 1);
        res_a = add_op(op_add, a, b);
        if (d->sf) /* flags from the add ALU unless it is nop (addendum) */
            set_flags(s, res_a, add_carry(op_add, a, b, res_a), madd, d->add_rfl);
    } else {
        res_a = vsplat(0);
    }
    if (op_mul) {
        row a = opnd(rows, d, 2), b = opnd(rows, d, 3);
        res_m = mul_op(op_mul, a, b);
        if (d->sf && !op_add)
            set_flags(s, res_m, mul_carry(op_mul, a, b, res_m), mmul, d->mul_fl);
    } else {
        res_m = vsplat(0);
    }
    uint64_t phys = 0;
    uint8_t acc = 0;
    fast_write(s, d, 0, res_a, madd, &phys, &acc);
    fast_write(s, d, 1, res_m, mmul, &phys, &acc);
    *accw = acc;
    return phys;
}

/* A D_FAST instruction by its shape (decoded): what alu_fast does, with
 * the ops, conditions and written registers of the plain shapes fixed at
 * decode. Returns the physical registers written, *accw the accumulators.
 * Both ALUs read their operands before either writes. */
static inline __attribute__((always_inline)) uint64_t run_shape(vc4_qpu_state *s,
                                                                const vc4_qpu_dins *d,
                                                                uint8_t *accw)
{
    uint32_t *rows = row_ptr(s, 0);
    switch (d->shape) {
    case SH_GEN:
        return alu_fast(s, d, accw);
    case SH_LDI: { /* both writes take the value, each under its condition */
        row v = vload(d->immv);
        uint64_t phys = 0;
        uint8_t acc = 0;
        fast_write(s, d, 0, v, cond_mask(s, d->cond_add), &phys, &acc);
        fast_write(s, d, 1, v, cond_mask(s, d->cond_mul), &phys, &acc);
        *accw = acc;
        return phys;
    }
    case SH_LDI_TLB: /* SH_LDI with the one write fixed at decode */
        tlb_write(s->frag, d->tlb[0], vload(d->immv), ALL_LANES);
        *accw = 0;
        return 0;
#define ONE(sh, fn, op, w, k)                                                             \
    case sh##_R:                                                                          \
        vstore(rows + 16 * d->wrow[w], fn(op, vload(rows + 16 * d->src[k]),               \
                                          vload(rows + 16 * d->src[k + 1])));             \
        break;                                                                            \
    case sh##_I:                                                                          \
        vstore(rows + 16 * d->wrow[w], fn(op, vload(rows + 16 * d->src[k]),               \
                                          vsplat(d->imm)));                               \
        break;                                                                            \
    case sh##_G:                                                                          \
        vstore(rows + 16 * d->wrow[w], fn(op, opnd(rows, d, k), opnd(rows, d, k + 1)));   \
        break;
#define X(a) ONE(SH_A_##a, add_op, VC4_QPU_A_##a, 0, 0)
        SHAPE_ADD(X)
#undef X
#define X(m) ONE(SH_M_##m, mul_op, VC4_QPU_M_##m, 1, 2)
        SHAPE_MUL(X)
#undef X
#undef ONE
#define X(a, m)                                                                           \
    case SH_AM_##a##_##m: {                                                               \
        row ra_ = add_op(VC4_QPU_A_##a, opnd(rows, d, 0), opnd(rows, d, 1));              \
        row rm_ = mul_op(VC4_QPU_M_##m, opnd(rows, d, 2), opnd(rows, d, 3));              \
        vstore(rows + 16 * d->wrow[0], ra_);                                              \
        vstore(rows + 16 * d->wrow[1], rm_);                                              \
        break;                                                                            \
    }
        SHAPE_PAIR(X)
#undef X
    default: /* SH_NOP */
        break;
    }
    *accw = d->shape_acc;
    return d->shape_phys;
}

#if defined(__GNUC__)
__attribute__((noinline))
#endif
static uint64_t run_shape_call(vc4_qpu_state *s, const vc4_qpu_dins *d, uint8_t *accw)
{
    return run_shape(s, d, accw);
}

/* The back-to-back read rule for a D_FAST instruction (the diagnostics
 * exec_alu gives, in its order). */
#if defined(__GNUC__)
__attribute__((noinline, cold))
#endif
static int fast_rules(vc4_qpu_state *s, const vc4_qpu_dins *d)
{
    int rc;
    if ((s->prev_phys & d->rd_a) &&
        (rc = diag(s, "reads r%c%u, written by the previous instruction", 'a', d->raddr_a)))
        return rc;
    if (((s->prev_phys >> 32) & d->rd_b) &&
        (rc = diag(s, "reads r%c%u, written by the previous instruction", 'b', d->raddr_b)))
        return rc;
    return 0;
}

/* Run up to max instructions (vc4_qpu_run_slice), this level's build. */
int SLICE_FN(vc4_qpu_state *s, uint64_t max, uint64_t *insns)
{
    uint64_t n = 0;
    int rc = 0;
    vc4_qpu_dins tmp;
    /* the decoded program in use (none: start 0, n 0); a fetch from memory
     * may append to it. The fast path writes only rows its instructions
     * name: they are marked dirty once here (and after an append). */
    vc4_qpu_prog *pg = s->prog;
    const vc4_qpu_dins *pd = pg ? pg->d : NULL;
    uint32_t pstart = pg ? pg->start : 0, pn = pg ? pg->n : 0;
    if (pg) { /* (one word at a time: see FRAG_FN) */
        s->dirty[0] |= pg->wdirty[0];
        if (pg->wdirty[1])
            s->dirty[1] |= pg->wdirty[1];
    }
    if (s->ended)
        goto out;
    /* What the fast path changes besides the rows and flags, kept in locals
     * between the slow steps (step_d sees and changes the state). Counts
     * are kept as instruction numbers of this slice (n) so a straight run
     * does not update them: executed = e0 + n; since_branch = n - sb_n
     * (saturated at 100); a pending branch lands when n reaches `land`
     * (NOLAND: none; branch_wait = land - n). */
#define NOLAND UINT64_MAX
    uint32_t pc = s->pc;
    uint64_t e0 = s->executed, prev_phys = s->prev_phys;
    int64_t sb_n = -(int64_t)s->since_branch;
    uint64_t land = s->branch_wait > 0 ? (uint64_t)s->branch_wait : NOLAND;
    int end_wait = s->end_wait;
    uint8_t prev_acc = s->prev_acc;
#define SYNC_OUT()                                                                      \
    (s->pc = pc, s->executed = e0 + n, s->prev_phys = prev_phys,                        \
     s->since_branch = (int)((int64_t)n - sb_n < 100 ? (int64_t)n - sb_n : 100),        \
     s->branch_wait = land == NOLAND ? 0 : (int)(land - n), s->prev_acc = prev_acc,     \
     s->end_wait = end_wait)
#define SYNC_IN()                                                                       \
    (pc = s->pc, e0 = s->executed - n, prev_phys = s->prev_phys,                        \
     sb_n = (int64_t)n - s->since_branch,                                               \
     land = s->branch_wait > 0 ? n + (uint64_t)s->branch_wait : NOLAND,                 \
     prev_acc = s->prev_acc, end_wait = s->end_wait)
    /* nothing pending that the fast path does not handle: no SFU result or
     * program end on the way, no wait (these change only in step_d and
     * around a program end) */
    bool quiet = !(s->sfu_wait | s->wait.kind) && end_wait < 0;
    /* TLB writes are fast in a fragment shader only */
    uint32_t tlbx = s->frag ? 0 : D_TLBW;
    /* The agent (fault records: address and words of the instruction) is
     * set before anything that may raise a fault or read memory; after the
     * fast path it is set at the end (`last`, the last instruction it ran),
     * so it reads as if set at every fetch. */
    const vc4_qpu_dins *last = NULL;
    uint32_t last_addr = 0;
#define AGENT(d_, addr_)                                                                \
    (s->agent.stream_addr = (addr_), memcpy(s->agent.words, &(d_)->ins, 8),          \
     s->agent.nwords = 2, last = NULL) /* little-endian: low word first */
    while (n < max) {
        uint32_t addr = pc, off = addr - pstart;
        const vc4_qpu_dins *d, *dend;
        /* (off rotated: an unaligned offset is out of range) */
        if ((off >> 3 | off << 29) < pn) {
            d = &pd[off >> 3];
            dend = pd + pn;
        } else {
            s->agent.stream_addr = addr;
            s->agent.nwords = 0;
            last = NULL;
            d = vc4__qpu_fetch(s, addr, &tmp); /* sets the words */
            if (!d) {
                rc = CG_ERR_FAULT;
                break;
            }
            dend = d + 1; /* this one only */
            if (pg && pg->n != pn) {
                pd = pg->d, pn = pg->n;
                s->dirty[0] |= pg->wdirty[0], s->dirty[1] |= pg->wdirty[1];
            }
            if (d->flags & D_FAST) /* perhaps not in the program: its rows */
                for (int k = 0; k < 2; k++)
                    if (d->wrow[k] != 0xff)
                        dirty_row(s, d->wrow[k]);
        }
        uint32_t fl = d->flags;
        /* the common case: a straight run of ALU instructions of the common
         * shape while nothing is pending, up to the end of the decoded
         * code, a pending branch's landing or the slice's end; a program
         * end that writes nothing (not in a branch's delay slots) and its
         * two delay slots too */
        uint32_t im = D_FAST | D_ENDX | tlbx | (land == NOLAND ? 0 : D_END);
        if ((fl & im) == D_FAST && quiet) {
            const vc4_qpu_dins *d0 = d;
            uint64_t lim = land < max ? land : max, end_n = NOLAND;
            for (;;) {
                if (UNLIKELY(prev_phys & d->rd)) {
                    pc = addr + 8 * (uint32_t)(d - d0);
                    e0++; /* this instruction counts (executed) */
                    SYNC_OUT();
                    e0--;
                    AGENT(d, pc);
                    if ((rc = fast_rules(s, d))) {
                        e0++;
                        goto done;
                    }
                }
                prev_phys = run_shape(s, d, &prev_acc);
                n++, d++;
                if (UNLIKELY(fl & D_END)) { /* ends after two delay slots */
                    end_n = n + 2;
                    lim = end_n < lim ? end_n : lim;
                    im |= D_END; /* no end in them */
                }
                if (n >= lim || d >= dend || ((fl = d->flags) & im) != D_FAST)
                    break;
            }
            pc = addr + 8 * (uint32_t)(d - d0);
            last = d - 1, last_addr = pc - 8;
            if (end_n != NOLAND) {
                if (n == end_n) { /* pc stays at the last instruction */
                    pc -= 8;
                    s->ended = true;
                    break;
                }
                end_wait = (int)(end_n - n);
                quiet = false;
            }
            if (n == land) {
                pc = s->branch_target;
                land = NOLAND;
            }
            continue;
        }
        /* the same around a program end: the end itself (not in the delay
         * slots of a branch or of another end: step_d's diagnostics) and
         * its delay slots */
        if ((fl & (D_FAST | tlbx)) == D_FAST && !(s->sfu_wait | s->wait.kind) &&
            (!(fl & D_END) || (end_wait < 0 && land == NOLAND))) {
            AGENT(d, addr);
            if (prev_phys & d->rd) {
                e0++;
                SYNC_OUT();
                e0--;
                if ((rc = fast_rules(s, d))) {
                    e0++;
                    break;
                }
            }
            uint8_t accw;
            uint64_t phys = run_shape_call(s, d, &accw);
            if ((fl & D_END) && phys) { /* end_rules' one case here */
                e0++;
                SYNC_OUT();
                e0--;
                if ((rc = diag(s, "program end instruction writes a register-file register"))) {
                    e0++;
                    break;
                }
            }
            prev_phys = phys;
            prev_acc = accw;
            n++;
            /* control flow: end after two delay slots, branch after three */
            if (end_wait >= 0 && (end_wait == 0 || --end_wait == 0)) {
                s->ended = true;
                break;
            }
            if (fl & D_END)
                end_wait = 2;
            quiet = !(s->sfu_wait | s->wait.kind) && end_wait < 0;
            if (n == land) {
                pc = s->branch_target;
                land = NOLAND;
            } else {
                pc = addr + 8;
            }
            continue;
        }
        /* a branch without link, register or flags, away from other
         * branches (exec_branch's work) */
        if ((fl & D_FASTBR) && quiet && (int64_t)n - sb_n >= 3 && end_wait < 0) {
            last = d, last_addr = addr;
            uint32_t c = d->bcond;
            uint16_t f = c < 4 ? s->zf : c < 8 ? s->nf : s->cf;
            f = (uint16_t)(f ^ (0u - (c & 1)));
            bool taken = c == 15 || ((c & 2) ? f != 0 : f == ALL_LANES);
            prev_phys = 0;
            prev_acc = 0;
            sb_n = (int64_t)n; /* since_branch 1 after this one */
            n++;
            pc = addr + 8;
            if (taken) {
                s->branch_target = d->brel ? addr + 32 + d->imm : d->imm;
                land = n + 3; /* after the three delay slots */
            } else if (n == land) { /* in the last delay slot of another branch */
                pc = s->branch_target;
                land = NOLAND;
            }
            continue;
        }
        SYNC_OUT();
        AGENT(d, addr);
        s->slow = true; /* any field may change: reinit clears them all */
        rc = step_d(s, d, addr);
        SYNC_IN();
        if (rc)
            break;
        /* step_d counted this instruction in s->executed and since_branch */
        n++;
        e0--;
        sb_n++;
        if (land != NOLAND)
            land++;
        if ((d->flags & D_SHARED) || s->ended)
            break;
        quiet = !(s->sfu_wait | s->wait.kind) && end_wait < 0;
    }
done:
    SYNC_OUT();
    if (last)
        AGENT(last, last_addr);
#undef SYNC_OUT
#undef SYNC_IN
#undef AGENT
#undef NOLAND
out:
    *insns = n;
    return rc;
}

/* A fragment batch's start: the payload and outputs of b (for a state
 * just reset: reinit or vc4_qpu_init), then, when the program in use
 * (s->prog) is one that vc4__qpu_straight finds to be one straight run
 * (every instruction from the start D_FAST, the program end (SH_NOP) and
 * its two delay slots among them, no instruction reading a register the one
 * before it may write), the run itself. SLICE_FN would run such a program
 * from such a state (nothing pending, no branch, end or SFU result on the
 * way, prev_phys 0, pc at the program's start, s->frag set) as one
 * straight run of its inner loop and leave the state as below; this is
 * that run without the slice's set-up and exit (its locals, the outer loop,
 * SYNC_OUT's arithmetic) and without the back-to-back read test, which the
 * analysis did once. The instructions run through run_shape, the one
 * handler of each shape; the SH_NOP ones after the last that is not (the
 * end and its delay slots, usually) do nothing there but count. False: the
 * payload is set, the program is not run (no such program, or the budget
 * ends before the program does: the slices then run it and report the
 * hang). */
bool FRAG_FN(vc4_qpu_state *s, vc4_frag_batch *b, uint64_t budget)
{
    vc4_qpu_prog *pg = s->prog;
    uint32_t n = 0;
    if (pg) {
        n = pg->st_n == pg->n ? pg->straight : vc4__qpu_straight(pg);
        if (budget < n)
            n = 0;
    }
    s->frag = b;
    if (b->sems)
        s->sems = b->sems;
    /* the fragment payload: ra15 = W, rb15 = Z (research/vc4.md section 3);
     * not for a straight program that reads neither (nothing else can see
     * them: the state is the cache's, and any run that may read them gets
     * them here; reinit leaves them alone) */
    if (n == 0 || pg->pay15) {
        vstore(s->ra[15], vload(b->frag_w));
        vstore(s->rb[15], vload(b->frag_z));
    }
    /* the dirty rows: ra15, rb15 and the program's (below), in scalar
     * stores one word at a time (a 16-byte load of dirty[] right after an
     * 8-byte store to it cannot be forwarded: it stalled here) */
    uint64_t dirty0 = s->dirty[0] | 1ull << 15 | 1ull << (32 + 15);
    vstore(b->ms_flags, vsplat(0));
    blend(b->ms_flags, vsplat(15), b->mask);
    /* outputs start empty for each batch */
    b->color_mask = b->z_mask = b->ms_mask_written = b->alpha_mask_written = 0;
    b->stencil_writes = 0;
    if (n == 0) {
        s->dirty[0] = dirty0;
        return false;
    }
    s->dirty[0] = dirty0 | pg->wdirty[0];
    if (pg->wdirty[1])
        s->dirty[1] |= pg->wdirty[1];
    const vc4_qpu_dins *d = pg->d, *work = d + pg->work, *end = d + n;
    uint64_t phys = end[-1].shape_phys; /* an SH_NOP's (run_shape) */
    uint8_t acc = end[-1].shape_acc;
    for (; d < work; d++)
        phys = run_shape(s, d, &acc);
    /* SLICE_FN's state after the run: pc at the last delay slot, counts */
    s->pc = pg->start + 8 * (n - 1);
    s->executed += n;
    s->prev_phys = phys;
    s->prev_acc = acc;
    s->since_branch = s->since_branch + (int)n < 100 ? s->since_branch + (int)n : 100;
    s->ended = true;
    s->agent.stream_addr = s->pc;
    s->agent.words[0] = (uint32_t)end[-1].ins; /* the low word first, as fetched */
    s->agent.words[1] = (uint32_t)(end[-1].ins >> 32);
    s->agent.nwords = 2;
    return true;
}

#if SHARED

/* What FRAG_FN may run (see there), for the first pg->n instructions: the
 * number of instructions of a run from the start, 0 if it is not one
 * straight run. */
uint32_t vc4__qpu_straight(vc4_qpu_prog *pg)
{
    pg->st_n = pg->n;
    pg->straight = 0;
    uint64_t prevw = 0; /* the registers the instruction before may write */
    for (uint32_t i = 0; i < pg->n; i++) {
        const vc4_qpu_dins *d = &pg->d[i];
        if ((d->flags & (D_FAST | D_ENDX)) != D_FAST || (d->rd & prevw))
            return 0;
        prevw = d->pw[0] | d->pw[1];
        if (d->flags & D_END) { /* two delay slots, without another end */
            for (uint32_t k = i + 1; k <= i + 2; k++) {
                if (k >= pg->n)
                    return 0;
                d = &pg->d[k];
                if ((d->flags & (D_FAST | D_ENDX | D_END)) != D_FAST || (d->rd & prevw))
                    return 0;
                prevw = d->pw[0] | d->pw[1];
            }
            pg->work = i + 3;
            while (pg->work > 0 && pg->d[pg->work - 1].shape == SH_NOP)
                pg->work--;
            pg->pay15 = false;
            for (uint32_t k = 0; k < i + 3; k++) /* (reads as the ports do) */
                pg->pay15 |= (pg->d[k].rd & (1ull << 15 | 1ull << (32 + 15))) != 0;
            return pg->straight = i + 3;
        }
    }
    return 0;
}

/* ---- faults ---- */

static int post(vc4_qpu_state *s, cg_fault_kind kind, bool warning, uint64_t gpu_addr,
                const char *fmt, va_list ap)
{
    char msg[CG_FAULT_MSG_LEN];
    vsnprintf(msg, sizeof msg, fmt, ap);
    cg_fault f;
    cg_fault_init(&f, &s->agent, kind, gpu_addr, "%s", msg);
    if (warning)
        f.flags |= CG_FAULT_F_WARNING;
    return cg_fault_raise(s->dev, &f);
}

int vc4__qpu_fault(vc4_qpu_state *s, cg_fault_kind kind, uint64_t gpu_addr, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    post(s, kind, false, gpu_addr, fmt, ap);
    va_end(ap);
    s->ended = true;
    return CG_ERR_FAULT;
}

/* A documented restriction broken: a warning, or in strict mode a fault. */
int vc4__qpu_diag(vc4_qpu_state *s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = post(s, CG_FAULT_BAD_STATE, !s->strict, 0, fmt, ap);
    va_end(ap);
    if (s->strict) {
        s->ended = true;
        return CG_ERR_FAULT;
    }
    return rc < 0 ? rc : 0;
}

/* Everything vc4_qpu_init sets besides zeroing the state. */
static void set_env(vc4_qpu_state *s, cg_device *dev, cg_vas *bus, const cg_agent *who,
                    uint32_t code_addr, uint32_t unif_addr, bool strict)
{
    s->dev = dev;
    s->bus = bus;
    s->agent.family = CG_FAMILY_VC4;
    s->agent.unit = "qpu";
    s->agent.channel = -1;
    if (who) {
        s->agent.family = who->family;
        s->agent.channel = who->channel;
    }
    s->pc = code_addr;
    s->unif = unif_addr;
    s->strict = strict;
    s->end_wait = -1;
    s->since_branch = 100;
    s->sems = &s->own_sems;
}

void vc4_qpu_init(vc4_qpu_state *s, cg_device *dev, cg_vas *bus, const cg_agent *who,
                  uint32_t code_addr, uint32_t unif_addr, bool strict)
{
    memset(s, 0, sizeof *s);
    set_env(s, dev, bus, who, code_addr, unif_addr, strict);
}

void vc4_qpu_set_units(vc4_qpu_state *s, vc4_v3d_units *units, uint32_t qpu_num)
{
    s->units = units;
    s->qpu_num = qpu_num;
    s->sems = units ? &units->sems : &s->own_sems;
}

int vc4_qpu_wait_text(const vc4_qpu_state *s, char *buf, size_t cap)
{
    switch (s->wait.kind) {
    case VC4_QPU_WAIT_SEM_ACQUIRE:
        return snprintf(buf, cap, "semaphore %u acquire (count 0)", s->wait.detail & 15);
    case VC4_QPU_WAIT_MUTEX:
        return snprintf(buf, cap, "mutex (held by QPU %u)", s->wait.detail);
    default:
        return snprintf(buf, cap, "nothing");
    }
}

/* vc4_qpu_init for a state that ran before: the same zeroed state, but only
 * the register rows the last run wrote are cleared (the register files and
 * accumulators are 4.4 KiB of the state's 4.6; they come first in it). A
 * run that never left the slice loop's fast path (s->slow clear) changed
 * only the fields below of the state's tail (SLICE_FN's locals written back
 * by SYNC_OUT, the flags of alu_fast, the agent, what set_env and
 * vc4_qpu_run_fragment_cached set, `ended` from a fault or the end):
 * those are cleared one by one instead of the whole tail. */
static void reinit(vc4_qpu_state *s, cg_device *dev, cg_vas *bus, const cg_agent *who,
                   uint32_t code_addr, uint32_t unif_addr, bool strict)
{
    /* (not ra15 and rb15: the fragment payload rows, written by FRAG_FN
     * for every run that may read them; a straight program that does
     * not read them leaves them unseen) */
    s->dirty[0] &= ~(1ull << 15 | 1ull << (32 + 15));
    for (int w = 0; w < 2; w++)
        for (uint64_t m = s->dirty[w]; m; m &= m - 1)
            memset(row_ptr(s, 64 * (unsigned)w + (unsigned)__builtin_ctzll(m)), 0,
                   sizeof s->ra[0]);
    if (s->slow) {
        memset(&s->zf, 0, sizeof *s - offsetof(vc4_qpu_state, zf));
    } else {
        s->zf = s->nf = s->cf = 0;
        s->executed = 0;
        s->ended = false;
        s->branch_wait = 0;
        s->branch_target = 0;
        s->prev_phys = 0;
        s->prev_acc = 0;
        memset(&s->agent, 0, sizeof s->agent);
        s->frag = NULL;
        s->prog = NULL;
        s->dirty[0] = s->dirty[1] = 0;
    }
    set_env(s, dev, bus, who, code_addr, unif_addr, strict);
}

int vc4__qpu_uniform(vc4_qpu_state *s, uint32_t *v)
{
    uint32_t t[LANES];
    int rc = read_uniform(s, t);
    *v = t[0];
    return rc;
}

static uint8_t classify(uint64_t ins)
{
    uint32_t sig = VC4_QPU_GET(ins, ALU, sig);
    if (sig == VC4_QPU_SIG_LOAD_IMMEDIATE)
        return K_LDI;
    if (sig == VC4_QPU_SIG_BRANCH)
        return K_BRANCH;
    /* both ops nop and nothing read: only the signal matters */
    if (VC4_QPU_GET(ins, ALU, op_mul) || VC4_QPU_GET(ins, ALU, op_add) ||
        VC4_QPU_GET(ins, ALU, pm) ||
        VC4_QPU_GET(ins, ALU, raddr_a) != VC4_QPU_R_NOP ||
        (sig != VC4_QPU_SIG_SMALL_IMMEDIATE && VC4_QPU_GET(ins, ALU, raddr_b) != VC4_QPU_R_NOP))
        return K_ALU;
    return K_SIGNAL;
}

static bool is_float_add(uint32_t op)
{
    return op >= VC4_QPU_A_FADD && op <= VC4_QPU_A_FTOI; /* float inputs */
}

static bool io_kind_is(uint32_t kind, bool write)
{
    return kind == VC4_QPU_IO_MUTEX || kind == VC4_QPU_IO_VPM ||
           (write && kind == VC4_QPU_IO_HOSTINT);
}

/* the bits a write to waddr of `file` sets in the physical-write sets */
static void write_bits(uint32_t waddr, int file, uint32_t *pa, uint32_t *pb, uint8_t *acc)
{
    if (waddr == VC4_QPU_W_NOP)
        return;
    if (waddr < 32)
        *(file ? pb : pa) |= 1u << waddr;
    else if (waddr <= 35)
        *acc |= (uint8_t)(1u << (waddr - 32));
    else if (waddr == 37)
        *acc |= 1u << 5;
}

/* The handler of a D_FAST ALU instruction (enum shape). A side (add, mul)
 * with an op is idle when its result goes nowhere: condition never or no
 * write, and no setf. */
static void decode_shape(vc4_qpu_dins *d)
{
    d->shape = SH_GEN;
    if (d->sf)
        return;
    uint32_t op[2] = {d->op_add, d->op_mul}, cond[2] = {d->cond_add, d->cond_mul};
    bool on[2];
    for (int k = 0; k < 2; k++) {
        on[k] = op[k] && cond[k] != VC4_QPU_COND_NEVER && (d->wrow[k] != 0xff || d->tlb[k]);
        if (on[k] && (cond[k] != VC4_QPU_COND_ALWAYS || d->tlb[k]))
            return; /* a condition on the flags, a TLB write: alu_fast */
        if (on[k]) {
            d->shape_phys |= d->pw[k];
            d->shape_acc |= d->acc[k];
        }
    }
    uint32_t a = on[0] ? op[0] : 0, m = on[1] ? op[1] : 0;
    uint8_t sh = SH_GEN;
    /* the operand form of a single op (its operands k, k + 1): 0 _R, 1 _I,
     * 2 _G (the enum's order) */
    int k = a ? 0 : 2;
    int form = d->src[k] == SRC_IMM ? 2 : d->src[k + 1] == SRC_IMM ? 1 : 0;
    if (!a && !m)
        sh = SH_NOP;
    else if (!m)
        switch (a) {
#define X(o) case VC4_QPU_A_##o: sh = (uint8_t)(SH_A_##o##_R + form); break;
            SHAPE_ADD(X)
#undef X
        default: break;
        }
    else if (!a)
        switch (m) {
#define X(o) case VC4_QPU_M_##o: sh = (uint8_t)(SH_M_##o##_R + form); break;
            SHAPE_MUL(X)
#undef X
        default: break;
        }
    else {
#define X(oa, om) \
        if (a == VC4_QPU_A_##oa && m == VC4_QPU_M_##om) \
            sh = SH_AM_##oa##_##om;
        SHAPE_PAIR(X)
#undef X
    }
    d->shape = sh;
    if (sh == SH_GEN)
        d->shape_phys = 0, d->shape_acc = 0;
}

/* The rows (wrow) and TLB writes (tlb) of an ALU or load-immediate
 * instruction's two writes; *plain false unless both go to plain rows or
 * nowhere, not to one row. True if the writes suit D_FAST: plain, or TLB
 * colour, Z or alpha-mask writes (not both to one of them). */
static bool fast_writes(vc4_qpu_dins *d, int fa, int fm, bool *plain)
{
    bool fastw = *plain;
    for (int k = 0; k < 2; k++) {
        uint32_t wa = k ? d->waddr_mul : d->waddr_add;
        int file = k ? fm : fa;
        d->wrow[k] = 0xff;
        if (wa < 32) {
            d->wrow[k] = (uint8_t)(file * 32 + wa);
        } else if (wa <= 35) {
            d->wrow[k] = (uint8_t)(64 + wa - 32);
        } else if (wa != VC4_QPU_W_NOP) {
            *plain = false;
            d->tlb[k] = (uint8_t)tlbw_of(vc4_qpu_waddrs[wa].kind[file]);
            if (!d->tlb[k])
                fastw = false;
        }
    }
    if (d->wrow[0] != 0xff && d->wrow[0] == d->wrow[1])
        *plain = false, fastw = false; /* both write one row: the diagnostic path */
    if (d->tlb[0] && d->tlb[1] && d->waddr_add == d->waddr_mul)
        fastw = false; /* likewise */
    return fastw;
}

static void decode(uint64_t ins, vc4_qpu_dins *d)
{
    memset(d, 0, sizeof *d);
    d->ins = ins;
    d->kind = classify(ins);
    uint32_t sig = VC4_QPU_GET(ins, ALU, sig);
    d->sig = (uint8_t)sig;
    d->cond_add = (uint8_t)VC4_QPU_GET(ins, ALU, cond_add);
    d->cond_mul = (uint8_t)VC4_QPU_GET(ins, ALU, cond_mul);
    d->waddr_add = (uint8_t)VC4_QPU_GET(ins, ALU, waddr_add);
    d->waddr_mul = (uint8_t)VC4_QPU_GET(ins, ALU, waddr_mul);
    d->ws = (uint8_t)VC4_QPU_GET(ins, ALU, ws);
    d->sf = (uint8_t)VC4_QPU_GET(ins, ALU, sf);
    d->pm = (uint8_t)VC4_QPU_GET(ins, ALU, pm);
    d->pack = (uint8_t)VC4_QPU_GET(ins, ALU, pack);
    d->unpack = (uint8_t)VC4_QPU_GET(ins, ALU, unpack);
    d->op_add = (uint8_t)VC4_QPU_GET(ins, ALU, op_add);
    d->op_mul = (uint8_t)VC4_QPU_GET(ins, ALU, op_mul);
    d->raddr_a = (uint8_t)VC4_QPU_GET(ins, ALU, raddr_a);
    d->raddr_b = (uint8_t)VC4_QPU_GET(ins, ALU, raddr_b);
    d->mux[0] = (uint8_t)VC4_QPU_GET(ins, ALU, add_a);
    d->mux[1] = (uint8_t)VC4_QPU_GET(ins, ALU, add_b);
    d->mux[2] = (uint8_t)VC4_QPU_GET(ins, ALU, mul_a);
    d->mux[3] = (uint8_t)VC4_QPU_GET(ins, ALU, mul_b);
    int fa = d->ws ? 1 : 0, fm = d->ws ? 0 : 1; /* files of the add and mul writes */
    uint32_t f = 0;
    bool simm = sig == VC4_QPU_SIG_SMALL_IMMEDIATE;
    bool ldi = d->kind == K_LDI, br = d->kind == K_BRANCH;

    switch (sig) {
    case VC4_QPU_SIG_SOFTWARE_BREAKPOINT:
    case VC4_QPU_SIG_ALPHA_MASK_LOAD:
    case VC4_QPU_SIG_WAIT_FOR_SCOREBOARD:
    case VC4_QPU_SIG_COVERAGE_LOAD:
    case VC4_QPU_SIG_COLOUR_LOAD:
    case VC4_QPU_SIG_LOAD_TMU0:
    case VC4_QPU_SIG_LOAD_TMU1:
        f |= D_SIGFX;
        break;
    case VC4_QPU_SIG_PROGRAM_END:
    case VC4_QPU_SIG_COLOUR_LOAD_AND_PROGRAM_END:
        f |= D_SIGFX | D_END;
        break;
    default:
        break;
    }
    /* the rules of the last three instructions (see the step) */
    if (!ldi && !br) {
        uint32_t ra = d->raddr_a, rb = d->raddr_b;
        if (ra == VC4_QPU_R_UNIFORM_READ || ra == VC4_QPU_R_VARYING_READ ||
            (!simm && (rb == VC4_QPU_R_UNIFORM_READ || rb == VC4_QPU_R_VARYING_READ)))
            f |= D_UVREAD;
    }
    if (!br) {
        uint32_t wa = d->waddr_add, wm = d->waddr_mul;
        bool vpm = (wa >= VC4_QPU_W_VPM_WRITE && wa <= VC4_QPU_W_VPM_LD_ADDR) ||
                   (wm >= VC4_QPU_W_VPM_WRITE && wm <= VC4_QPU_W_VPM_LD_ADDR);
        if (!ldi) {
            uint32_t ra = d->raddr_a, rb = d->raddr_b;
            vpm |= ra >= VC4_QPU_R_VPM_READ && ra <= VC4_QPU_R_VPM_LD_WAIT;
            vpm |= !simm && rb >= VC4_QPU_R_VPM_READ && rb <= VC4_QPU_R_VPM_LD_WAIT;
        }
        if (vpm)
            f |= D_VPMRULE;
    }
    /* writes: physical registers, shared units */
    write_bits(d->waddr_add, fa, &d->pa[0], &d->pb[0], &d->acc[0]);
    write_bits(d->waddr_mul, fm, &d->pa[1], &d->pb[1], &d->acc[1]);
    for (int k = 0; k < 2; k++)
        d->pw[k] = (uint64_t)d->pb[k] << 32 | d->pa[k];
    if ((d->waddr_add >= 32 && io_kind_is(vc4_qpu_waddrs[d->waddr_add].kind[fa], true)) ||
        (d->waddr_mul >= 32 && io_kind_is(vc4_qpu_waddrs[d->waddr_mul].kind[fm], true)))
        f |= D_SHARED;

    if (ldi) {
        d->imm = VC4_QPU_GET(ins, LDI, imm);
        d->ldi_mode = (uint8_t)VC4_QPU_GET(ins, LDI, unpack);
        if (d->ldi_mode == VC4_QPU_LDI_SEMAPHORE) {
            f |= D_SEM | D_SHARED;
            if (d->imm & 16)
                f |= D_BLOCK;
        }
        if (d->pack)
            f |= D_PACK;
        if (d->ldi_mode != VC4_QPU_LDI_SEMAPHORE && vc4_qpu_ldis[d->ldi_mode].name) {
            /* the value per element (exec_ldi's and SH_LDI's) */
            for (int i = 0; i < LANES; i++) {
                uint32_t x = d->imm;
                if (d->ldi_mode != VC4_QPU_LDI_LOAD_32) {
                    /* element i: LSB from bit i, MSB from bit 16+i (vc4asm
                     * Disassembler.cpp) */
                    x = ((d->imm >> i) & 1) | (((d->imm >> (16 + i)) & 1) << 1);
                    if (d->ldi_mode == VC4_QPU_LDI_PER_ELEMENT_SIGNED && (x & 2))
                        x |= 0xfffffffcu;
                }
                d->immv[i] = x;
            }
            bool plain = !d->pack;
            if (fast_writes(d, fa, fm, &plain) && !d->pack && !d->sf) {
                f |= D_FAST | (d->tlb[0] | d->tlb[1] ? D_TLBW : 0);
                d->shape = SH_LDI;
                if (d->cond_add == VC4_QPU_COND_ALWAYS && d->wrow[0] == 0xff && d->tlb[0] &&
                    ((d->wrow[1] == 0xff && !d->tlb[1]) || d->cond_mul == VC4_QPU_COND_NEVER))
                    d->shape = SH_LDI_TLB;
            }
        }
    } else if (br) {
        d->imm = VC4_QPU_GET(ins, BRANCH, imm);
        d->bcond = (uint8_t)VC4_QPU_GET(ins, BRANCH, cond_br);
        d->brel = (uint8_t)VC4_QPU_GET(ins, BRANCH, rel);
        d->breg = (uint8_t)VC4_QPU_GET(ins, BRANCH, reg);
        d->braddr = (uint8_t)VC4_QPU_GET(ins, BRANCH, raddr_a);
        d->ws = (uint8_t)VC4_QPU_GET(ins, BRANCH, ws);
        if (!vc4_qpu_bconds[d->bcond].name)
            f |= D_BAD;
        else if (d->waddr_add == VC4_QPU_W_NOP && d->waddr_mul == VC4_QPU_W_NOP &&
                 !d->breg && !(d->braddr & 1) && !(f & (D_SIGFX | D_SHARED)))
            f |= D_FASTBR;
    } else if (d->kind == K_ALU) {
        uint32_t op_add = d->op_add, op_mul = d->op_mul;
        if (simm) {
            f |= D_SIMM;
            d->imm = vc4_qpu_smallimm_bits[d->raddr_b];
        }
        if (d->raddr_a < 32)
            d->rd_a = 1u << d->raddr_a;
        else if (vc4_qpu_raddrs[d->raddr_a].kind[0] == VC4_QPU_IO_NOP)
            f |= D_ZA;
        else if (io_kind_is(vc4_qpu_raddrs[d->raddr_a].kind[0], false))
            f |= D_SHARED;
        if (!simm && d->raddr_b < 32)
            d->rd_b = 1u << d->raddr_b;
        else if (!simm && vc4_qpu_raddrs[d->raddr_b].kind[1] == VC4_QPU_IO_NOP)
            f |= D_ZB;
        else if (!simm && io_kind_is(vc4_qpu_raddrs[d->raddr_b].kind[1], false))
            f |= D_SHARED;
        if (d->raddr_a == VC4_QPU_R_MUTEX_ACQUIRE ||
            (!simm && d->raddr_b == VC4_QPU_R_MUTEX_ACQUIRE))
            f |= D_MUTEXRD | D_BLOCK;
        d->add_fl = is_float_add(op_add);
        d->add_rfl = (d->add_fl && op_add != VC4_QPU_A_FTOI) || op_add == VC4_QPU_A_ITOF;
        d->mul_fl = op_mul == VC4_QPU_M_FMUL;
        for (int k = 0; k < 4; k++) {
            bool used = k < 2 ? op_add != 0 : op_mul != 0;
            if (used && d->mux[k] == 4)
                f |= D_R4;
            if (used && d->unpack &&
                ((d->mux[k] == 4 && d->pm) || (d->mux[k] == 6 && !d->pm)))
                f |= D_SLOW;
        }
        if (simm && d->raddr_b >= 48 && op_mul)
            f |= D_SLOW;
        if ((op_add && !vc4_qpu_add_ops[op_add].name) ||
            (d->pm && d->pack && !vc4_qpu_packm[d->pack].name))
            f |= D_BAD;
        if (d->pack)
            f |= D_PACK;
        bool plain = !(f & D_PACK);
        bool fastw = fast_writes(d, fa, fm, &plain);
        if (plain)
            f |= D_PLAINW;
        d->rd = (uint64_t)d->rd_b << 32 | d->rd_a;
        bool rows = (d->raddr_a < 32 || (f & D_ZA)) &&
                    (simm || d->raddr_b < 32 || (f & D_ZB));
        /* program end (thrend) has nothing of its own at the end of the
         * instruction; the slice loop keeps the end's count */
        bool sigok = !(f & D_SIGFX) || sig == VC4_QPU_SIG_PROGRAM_END;
        if (fastw && rows && sigok &&
            !(f & (D_BAD | D_SLOW | D_PACK | D_BLOCK | D_SHARED | D_UVREAD | D_VPMRULE |
                   D_MUTEXRD))) {
            f |= D_FAST | (d->tlb[0] | d->tlb[1] ? D_TLBW : 0);
            for (int k = 0; k < 4; k++) {
                uint32_t m = d->mux[k];
                if (m < 6)
                    d->src[k] = (uint8_t)(64 + m);
                else if (m == 6)
                    d->src[k] = d->raddr_a < 32 ? d->raddr_a : SRC_ZERO;
                else
                    d->src[k] = simm ? SRC_IMM : d->raddr_b < 32 ? (uint8_t)(32 + d->raddr_b)
                                                                 : SRC_ZERO;
            }
            if (simm)
                for (int i = 0; i < LANES; i++)
                    d->immv[i] = d->imm;
            decode_shape(d);
        }
    }
    if (d->kind == K_SIGNAL && !(f & (D_BLOCK | D_SHARED)) &&
        (!(f & D_SIGFX) || sig == VC4_QPU_SIG_PROGRAM_END))
        f |= D_FAST; /* nothing but the step itself (both ops nop: no write):
                      * SH_NOP (0 after the memset is SH_GEN: set below) */
    if (d->kind == K_SIGNAL) {
        d->shape = SH_NOP;
        d->wrow[0] = d->wrow[1] = 0xff; /* (no row: none is marked dirty) */
    }
    if ((f & D_END) && !((f & D_FAST) && d->shape == SH_NOP))
        f |= D_ENDX;
    d->flags = f;
}

typedef int (*slice_fn)(vc4_qpu_state *s, uint64_t max, uint64_t *insns);
typedef bool (*frag_fn)(vc4_qpu_state *s, vc4_frag_batch *b, uint64_t budget);
static slice_fn slice_impl(void);
static frag_fn frag_impl(void);

vc4_qpu_cache *vc4_qpu_cache_create(void)
{
    vc4_qpu_cache *c = aligned_alloc(_Alignof(vc4_qpu_cache), sizeof *c);
    if (c) {
        memset(c, 0, sizeof *c);
        c->slice = slice_impl(); /* the level is decided once per process */
        c->frag = frag_impl();
    }
    return c;
}

void vc4_qpu_cache_destroy(vc4_qpu_cache *c)
{
    if (!c)
        return;
    for (int i = 0; i < CACHE_PROGS; i++) {
        free(c->prog[i].bytes);
        free(c->prog[i].d);
    }
    free(c);
}

/* Compare the cached code with memory: the program keeps the instructions
 * before the first changed byte. False (and nothing kept) when some page
 * cannot be read directly (unmapped, or with CPU-cached lines the coherency
 * model must check at every fetch): then this run must not use the cache. */
static bool prog_validate(vc4_qpu_prog *pg, cg_vas *bus)
{
    uint64_t len = 8ull * pg->n, off = 0;
    while (off < len) {
        uint8_t *p;
        size_t got = cg__vas_span(bus, (uint64_t)pg->start + off, (size_t)(len - off), false, &p);
        if (got == 0) {
            pg->n = 0;
            pg->vpm = false;
            pg->use_n = pg->st_n = UINT32_MAX;
            return false;
        }
        if (memcmp(p, pg->bytes + off, got) != 0) {
            size_t i = 0;
            while (p[i] == pg->bytes[off + i])
                i++;
            pg->n = (uint32_t)((off + i) / 8);
            pg->use_n = pg->st_n = UINT32_MAX;
            return true;
        }
        off += got;
    }
    return true;
}

/* The program entry for code at `start`, validated; NULL: run uncached.
 * Under a hold (vc4_qpu_cache_hold) a program already compared with memory
 * during this hold is not compared again: the holder guarantees that
 * nothing has written memory since, and the program itself cannot (no VPM
 * access: prog.vpm). */
static vc4_qpu_prog *prog_find(vc4_qpu_cache *c, cg_vas *bus, uint32_t start);
static inline vc4_qpu_prog *prog_for(vc4_qpu_cache *c, cg_vas *bus, uint32_t start)
{
    vc4_qpu_prog *pg = c->mru;
    if (c->hold && pg && pg->held == c->hold && pg->start == start) {
        pg->last_use = ++c->tick; /* (held: pg->cap is not 0) */
        return pg;
    }
    return prog_find(c, bus, start);
}

static vc4_qpu_prog *prog_find(vc4_qpu_cache *c, cg_vas *bus, uint32_t start)
{
    vc4_qpu_prog *pg = c->mru, *lru = &c->prog[0];
    if (!(pg && pg->cap && pg->start == start)) { /* the renderer: batch after batch */
        pg = NULL;
        for (int i = 0; i < CACHE_PROGS; i++) {
            vc4_qpu_prog *q = &c->prog[i];
            if (q->cap && q->start == start) {
                pg = q;
                break;
            }
            if (q->last_use < lru->last_use)
                lru = q;
        }
        if (!pg) {
            pg = lru;
            pg->start = start;
            pg->n = 0;
            pg->wdirty[0] = pg->wdirty[1] = 0;
            pg->use_n = pg->st_n = UINT32_MAX;
            pg->vpm = false;
            pg->held = 0;
        }
        c->mru = pg;
        if (!pg->cap) {
            pg->cap = 64;
            pg->bytes = malloc(8 * pg->cap);
            pg->d = malloc(sizeof *pg->d * pg->cap);
            if (!pg->bytes || !pg->d) {
                free(pg->bytes), free(pg->d);
                pg->bytes = NULL, pg->d = NULL;
                pg->cap = 0;
                pg->last_use = ++c->tick;
                return NULL;
            }
        }
    }
    pg->last_use = ++c->tick;
    if (c->hold && pg->held == c->hold)
        return pg;
    if (!prog_validate(pg, bus))
        return NULL;
    if (c->hold && !pg->vpm)
        pg->held = c->hold;
    return pg;
}

void vc4_qpu_cache_hold(vc4_qpu_cache *c, bool on)
{
    if (c)
        c->hold = on ? ++c->holds : 0;
}

/* Does the instruction name ra15 (file 0) or rb15 (file 1) as a read, a
 * write or a pack destination? */
static bool names_15(uint64_t ins, uint8_t kind, int file)
{
    uint32_t sig = VC4_QPU_GET(ins, ALU, sig);
    bool ws = VC4_QPU_GET(ins, ALU, ws);
    uint32_t wa = VC4_QPU_GET(ins, ALU, waddr_add), wm = VC4_QPU_GET(ins, ALU, waddr_mul);
    /* the add result goes to file A unless ws, the mul result the other way */
    if ((wa == 15 && (int)ws == file) || (wm == 15 && (int)!ws == file))
        return true;
    if (kind != K_ALU) /* ldi reads nothing; a branch ends the analysis */
        return false;
    if (file == 0)
        return VC4_QPU_GET(ins, ALU, raddr_a) == 15;
    return sig != VC4_QPU_SIG_SMALL_IMMEDIATE && VC4_QPU_GET(ins, ALU, raddr_b) == 15;
}

void vc4_qpu_cache_payload_use(vc4_qpu_cache *c, cg_vas *bus, uint32_t code_addr, bool *w,
                               bool *z)
{
    *w = *z = true;
    vc4_qpu_prog *pg = c ? prog_for(c, bus, code_addr) : NULL;
    if (!pg || pg->n == 0)
        return;
    if (pg->use_n != pg->n) {
        pg->use_w = pg->use_z = true;
        pg->use_n = pg->n;
        bool w15 = false, z15 = false;
        for (uint32_t i = 0; i < pg->n; i++) {
            if (pg->d[i].kind == K_BRANCH)
                break; /* control flow: not followed */
            w15 |= names_15(pg->d[i].ins, pg->d[i].kind, 0);
            z15 |= names_15(pg->d[i].ins, pg->d[i].kind, 1);
            uint32_t sig = pg->d[i].sig;
            if (sig == VC4_QPU_SIG_PROGRAM_END || sig == VC4_QPU_SIG_COLOUR_LOAD_AND_PROGRAM_END) {
                /* the program ends after two delay slots */
                if (i + 2 >= pg->n)
                    break;
                bool br = false;
                for (uint32_t k = i + 1; k <= i + 2; k++) {
                    br |= pg->d[k].kind == K_BRANCH;
                    w15 |= names_15(pg->d[k].ins, pg->d[k].kind, 0);
                    z15 |= names_15(pg->d[k].ins, pg->d[k].kind, 1);
                }
                if (!br) {
                    pg->use_w = w15;
                    pg->use_z = z15;
                }
                break;
            }
        }
    }
    *w = pg->use_w;
    *z = pg->use_z;
}

/* Append the instruction fetched at start + 8n (if there is room and the
 * model need not watch its memory: a word the coherency model checks is
 * fetched through the bus every time, as without a cache). */
static void prog_append(vc4_qpu_prog *pg, cg_vas *bus, uint32_t addr, const uint32_t wv[2],
                        const vc4_qpu_dins *d)
{
    uint8_t *p;
    if (pg->n >= PROG_MAX_INS || (uint64_t)pg->start + 8ull * (pg->n + 1) > 0x100000000ull ||
        cg__vas_span(bus, addr, 8, false, &p) != 8)
        return;
    if (pg->n == pg->cap) {
        uint32_t cap = pg->cap * 2;
        uint8_t *b = realloc(pg->bytes, 8 * (size_t)cap);
        if (b)
            pg->bytes = b;
        vc4_qpu_dins *nd = realloc(pg->d, sizeof *nd * cap);
        if (nd)
            pg->d = nd;
        if (!b || !nd)
            return;
        pg->cap = cap;
    }
    for (int k = 0; k < 8; k++)
        pg->bytes[8 * pg->n + k] = (uint8_t)(wv[k >> 2] >> (8 * (k & 3)));
    pg->d[pg->n] = *d;
    pg->n++;
    if (d->flags & D_VPMRULE) { /* from now on compared at every run */
        pg->vpm = true;
        pg->held = 0;
    }
    if (d->flags & D_FAST)
        for (int k = 0; k < 2; k++)
            if (d->wrow[k] != 0xff)
                pg->wdirty[d->wrow[k] >> 6] |= 1ull << (d->wrow[k] & 63);
}

/* The decoded instruction at addr: from the program cache, or fetched from
 * memory (faults as the bus decides) and decoded into *tmp. NULL: fault. */
/* The instruction at addr fetched from memory (faults as the bus decides)
 * and decoded into *tmp (appended to the program in use when it continues
 * it); sets the agent's words. NULL: fault. */
const vc4_qpu_dins *vc4__qpu_fetch(vc4_qpu_state *s, uint32_t addr, vc4_qpu_dins *tmp)
{
    vc4_qpu_prog *pg = s->prog;
    uint32_t off = addr - (pg ? pg->start : 0);
    uint32_t wv[2];
    if (cg_vas_read(s->bus, addr, wv, 8, &s->agent) != 0) {
        s->ended = true;
        return NULL;
    }
    /* bus memory is little-endian */
    uint8_t *b = (uint8_t *)wv;
    uint32_t lo = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 |
                  (uint32_t)b[3] << 24;
    uint32_t hi = (uint32_t)b[4] | (uint32_t)b[5] << 8 | (uint32_t)b[6] << 16 |
                  (uint32_t)b[7] << 24;
    wv[0] = lo, wv[1] = hi;
    decode((uint64_t)hi << 32 | lo, tmp);
    if (pg && off == 8 * pg->n && addr >= pg->start)
        prog_append(pg, s->bus, addr, wv, tmp);
    s->agent.words[0] = lo;
    s->agent.words[1] = hi;
    s->agent.nwords = 2;
    return tmp;
}

void vc4_qpu_use_cache(vc4_qpu_state *s, vc4_qpu_cache *c)
{
    s->prog = c ? prog_for(c, s->bus, s->pc) : NULL;
}

void vc4_qpu_cache_revalidate(vc4_qpu_cache *c, cg_vas *bus)
{
    if (!c)
        return;
    for (int i = 0; i < CACHE_PROGS; i++)
        if (c->prog[i].cap && c->prog[i].n)
            prog_validate(&c->prog[i], bus);
}

/* ---- the entry points: one build per vector level (src/core/simd.h) ---- */

static slice_fn slice_impl(void)
{
#if CG_SIMD_HAVE_VARIANTS
    switch (cg__simd_level()) {
    case CG_SIMD_AVX512: return vc4__qpu_slice_avx512;
    case CG_SIMD_AVX2: return vc4__qpu_slice_avx2;
    default: break;
    }
#endif
    return vc4__qpu_slice_base;
}

static frag_fn frag_impl(void)
{
#if CG_SIMD_HAVE_VARIANTS
    switch (cg__simd_level()) {
    case CG_SIMD_AVX512: return vc4__qpu_frag_avx512;
    case CG_SIMD_AVX2: return vc4__qpu_frag_avx2;
    default: break;
    }
#endif
    return vc4__qpu_frag_base;
}

int vc4_qpu_step(vc4_qpu_state *s)
{
    uint64_t n;
    return vc4_qpu_run_slice(s, 1, &n); /* one instruction (or stall) */
}

int vc4_qpu_run_slice(vc4_qpu_state *s, uint64_t max, uint64_t *insns)
{
    return slice_impl()(s, max, insns);
}

/* vc4_qpu_run with the slice function of this level (fn) */
static int run_with(vc4_qpu_state *s, uint64_t budget, slice_fn fn)
{
    uint64_t start = s->executed;
    while (!s->ended) {
        if (s->executed - start >= budget) {
            cg_fault f;
            char what[96] = "";
            if (s->wait.kind != VC4_QPU_WAIT_NONE) {
                memcpy(what, "; waits on ", 11);
                vc4_qpu_wait_text(s, what + 11, sizeof what - 11);
            }
            cg_fault_init(&f, &s->agent, CG_FAULT_HANG, 0,
                          "budget %s: QPU program did not end within %llu instructions "
                          "(pc 0x%08x%s)", cg_budget_name(CG_BUDGET_VC4_QPU_INSNS),
                          (unsigned long long)budget, s->pc, what);
            f.stream_addr = s->pc;
            f.nwords = 0;
            cg_fault_raise(s->dev, &f);
            s->ended = true;
            return CG_ERR_FAULT;
        }
        uint64_t n;
        int rc = fn(s, budget - (s->executed - start), &n);
        if (rc == VC4_QPU_BLOCKED)
            continue; /* alone, nothing ends the wait: the budget will */
        if (rc)
            return rc;
    }
    return 0;
}

int vc4_qpu_run(vc4_qpu_state *s, uint64_t budget)
{
    return run_with(s, budget, slice_impl());
}

/* A fragment batch on s (set up for the batch's program): its start and
 * perhaps its whole run through the level's FRAG_FN (ffn), else the slices
 * (fn). */
static int frag_run(vc4_qpu_state *s, vc4_frag_batch *b, uint64_t budget, slice_fn fn,
                    frag_fn ffn)
{
    int rc = ffn(s, b, budget) ? 0 : run_with(s, budget, fn);
    b->host_int = s->host_int;
    return rc;
}

/* Without a cache: a state on the stack (kept out of the cached path, whose
 * frame it would make 5 KiB). */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static int run_fragment_stack(cg_device *dev, cg_vas *bus, const cg_agent *who,
                              uint32_t code_addr, uint32_t unif_addr, vc4_frag_batch *b,
                              uint64_t budget, bool strict)
{
    _Alignas(64) vc4_qpu_state st; /* rows on cache lines, as in a cache */
    vc4_qpu_init(&st, dev, bus, who, code_addr, unif_addr, strict);
    return frag_run(&st, b, budget, slice_impl(), frag_impl());
}

int vc4_qpu_run_fragment(cg_device *dev, cg_vas *bus, const cg_agent *who,
                         uint32_t code_addr, uint32_t unif_addr,
                         vc4_frag_batch *b, uint64_t budget, bool strict)
{
    return vc4_qpu_run_fragment_cached(NULL, dev, bus, who, code_addr, unif_addr, b, budget,
                                       strict);
}

int vc4_qpu_run_fragment_cached(vc4_qpu_cache *c, cg_device *dev, cg_vas *bus,
                                const cg_agent *who, uint32_t code_addr, uint32_t unif_addr,
                                vc4_frag_batch *b, uint64_t budget, bool strict)
{
    if (!dev || !bus || !b)
        return CG_ERR_INVAL;
    if (!c)
        return run_fragment_stack(dev, bus, who, code_addr, unif_addr, b, budget, strict);
    vc4_qpu_state *s = &c->st;
    if (c->st_ready)
        reinit(s, dev, bus, who, code_addr, unif_addr, strict);
    else
        vc4_qpu_init(s, dev, bus, who, code_addr, unif_addr, strict);
    c->st_ready = true;
    s->prog = prog_for(c, bus, code_addr);
    return frag_run(s, b, budget, c->slice, c->frag);
}

#endif /* SHARED */
