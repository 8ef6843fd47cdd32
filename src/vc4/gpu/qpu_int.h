/* Internal: the QPU interpreter's decoded instructions and programs, shared
 * by its per-vector-level kernels (qpu_run.c, built once per level) and its
 * shared part (qpu_core.c entry points, qpu_prog.c decoding and program
 * cache, qpu_fault.c faults), all compiled with -O3 (CMakeLists.txt). Not
 * installed. */
#ifndef CMDGPU_VC4_QPU_INT_H
#define CMDGPU_VC4_QPU_INT_H

#include <math.h>
#include <stdlib.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "core/mem_internal.h"
#include "core/simd.h"
#include "qpu_io.h"

#ifndef CG_SIMD_HAVE_VARIANTS
#define CG_SIMD_HAVE_VARIANTS 0
#endif

#define LANES 16
#define ALL_LANES 0xffffu
#if defined(__GNUC__)
#define LIKELY(x) __builtin_expect(!!(x), 1)
#define UNLIKELY(x) __builtin_expect(!!(x), 0)
#else
#define LIKELY(x) (x)
#define UNLIKELY(x) (x)
#endif

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

/* ---- shared between the builds (qpu_core.c, qpu_prog.c, qpu_fault.c:
 * compiled once) ---- */

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
/* qpu_prog.c: the program of the cache for start (decoding it when new),
 * NULL: run without one; prog_for below first tries the last one given */
vc4_qpu_prog *vc4__qpu_prog_find(vc4_qpu_cache *c, cg_vas *bus, uint32_t start);

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

static inline int read_uniform(vc4_qpu_state *s, uint32_t *out)
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


/* The program entry for code at `start`, validated; NULL: run uncached.
 * Under a hold (vc4_qpu_cache_hold) a program already compared with memory
 * during this hold is not compared again: the holder guarantees that
 * nothing has written memory since, and the program itself cannot (no VPM
 * access: prog.vpm). */
static inline vc4_qpu_prog *prog_for(vc4_qpu_cache *c, cg_vas *bus, uint32_t start)
{
    vc4_qpu_prog *pg = c->mru;
    if (c->hold && pg && pg->held == c->hold && pg->start == start) {
        pg->last_use = ++c->tick; /* (held: pg->cap is not 0) */
        return pg;
    }
    return vc4__qpu_prog_find(c, bus, start);
}

#endif
