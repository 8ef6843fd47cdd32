/* VideoCore IV QPU: instruction tables, disassembler, assembler and
 * interpreter (internal interface, not installed).
 *
 * Sources: research/vc4.md section 3 (encodings, registers, restrictions),
 * maazl/vc4asm doc/VideoCoreIV-addendum.html (hardware behaviour the
 * Reference Guide gets wrong). docs/vc4-qpu.md describes the text syntax and
 * every modelling choice. */
#ifndef CMDGPU_VC4_QPU_H
#define CMDGPU_VC4_QPU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "cmdgpu/asm.h"
#include "cmdgpu/device.h"
#include "cmdgpu/fault.h"
#include "cmdgpu/mem.h"
#include "cmdgpu/vc4_qpu.h"
#include "core/def.h"

/* ---- encodings (qpu.def) ---- */

#define VC4_QPU_BITS(ins, hi, lo) \
    ((uint32_t)(((ins) >> (lo)) & ((((uint64_t)1) << ((hi) - (lo) + 1)) - 1)))

/* Field positions from qpu.def's QPU_FIELD rows: VC4_QPU_F_<cls>_<name>_HI
 * and _LO, and the accessor VC4_QPU_GET(ins, ALU, raddr_a) (in the manner of
 * Mesa's QPU_GET_FIELD): the one place an instruction's bits are named. */
enum vc4_qpu_fieldpos {
#define QPU_FIELD(cls, name, hi, lo) \
    VC4_QPU_F_##cls##_##name##_HI = hi, VC4_QPU_F_##cls##_##name##_LO = lo,
#include "vc4/tables/qpu.def"
};
#define VC4_QPU_GET(ins, cls, name) \
    VC4_QPU_BITS(ins, VC4_QPU_F_##cls##_##name##_HI, VC4_QPU_F_##cls##_##name##_LO)

enum vc4_qpu_sig {
#define QPU_SIG(code, name, as) VC4_QPU_SIG_##name = code,
#include "vc4/tables/qpu.def"
};
enum vc4_qpu_add_op {
#define QPU_ADD(code, name, as, n, t) VC4_QPU_A_##name = code,
#include "vc4/tables/qpu.def"
};
enum vc4_qpu_mul_op {
#define QPU_MUL(code, name, as, t) VC4_QPU_M_##name = code,
#include "vc4/tables/qpu.def"
};
enum vc4_qpu_cond {
#define QPU_COND(code, name, as) VC4_QPU_COND_##name = code,
#include "vc4/tables/qpu.def"
};
enum vc4_qpu_bcond {
#define QPU_BCOND(code, name, as) VC4_QPU_BCOND_##name = code,
#include "vc4/tables/qpu.def"
};
enum vc4_qpu_ldi_mode {
#define QPU_LDI(code, name, as) VC4_QPU_LDI_##name = code,
#include "vc4/tables/qpu.def"
};
enum vc4_qpu_waddr {
#define QPU_WADDR(code, na, aa, nb, ab, ka, kb) VC4_QPU_W_##na = code,
#include "vc4/tables/qpu.def"
};
enum vc4_qpu_raddr {
#define QPU_RADDR(code, na, aa, nb, ab, ka, kb) VC4_QPU_R_##na = code,
#include "vc4/tables/qpu.def"
};
/* Kind of an I/O register access (the K columns of QPU_RADDR / QPU_WADDR). */
enum vc4_qpu_io {
    VC4_QPU_IO_RESERVED = 0,
    VC4_QPU_IO_NOP, VC4_QPU_IO_UNIF, VC4_QPU_IO_VARY, VC4_QPU_IO_ELEM, VC4_QPU_IO_QPUNUM,
    VC4_QPU_IO_XCOORD, VC4_QPU_IO_YCOORD, VC4_QPU_IO_MSFLAGS, VC4_QPU_IO_REVFLAG,
    VC4_QPU_IO_VPM, VC4_QPU_IO_MUTEX, VC4_QPU_IO_ACC, VC4_QPU_IO_TMU, VC4_QPU_IO_R5QUAD,
    VC4_QPU_IO_R5REP, VC4_QPU_IO_HOSTINT, VC4_QPU_IO_UNIFADDR, VC4_QPU_IO_QUAD,
    VC4_QPU_IO_TLBS, VC4_QPU_IO_TLBZ, VC4_QPU_IO_TLBM, VC4_QPU_IO_TLBC, VC4_QPU_IO_TLBAM,
    VC4_QPU_IO_SFU,
};
/* Operand types of an op (the T column). */
enum vc4_qpu_optype { VC4_QPU_T_I, VC4_QPU_T_F, VC4_QPU_T_FI, VC4_QPU_T_IF };

typedef struct vc4_qpu_opinfo {
    const char *name; /* guide name, NULL = reserved */
    const char *as;   /* assembler spelling */
    uint8_t nsrc, type;
} vc4_qpu_opinfo;
typedef struct vc4_qpu_reginfo {
    const char *name[2]; /* guide names for file A, B; NULL = reserved */
    const char *as[2];   /* vc4asm spellings (the disassembler's); NULL = reserved */
    uint8_t kind[2];     /* enum vc4_qpu_io */
} vc4_qpu_reginfo;
typedef struct vc4_qpu_codeinfo {
    const char *name, *as; /* NULL name = reserved */
} vc4_qpu_codeinfo;

extern const vc4_qpu_codeinfo vc4_qpu_sigs[16], vc4_qpu_conds[8], vc4_qpu_bconds[16],
    vc4_qpu_packa[16], vc4_qpu_packm[16], vc4_qpu_unpacks[8], vc4_qpu_ldis[8];
extern const vc4_qpu_opinfo vc4_qpu_add_ops[32], vc4_qpu_mul_ops[8];
extern const vc4_qpu_reginfo vc4_qpu_raddrs[64], vc4_qpu_waddrs[64]; /* 32..63 used */
extern const uint32_t vc4_qpu_smallimm_bits[64];
extern const char *const vc4_qpu_smallimm_as[64];

/* The code `name` spells in `set` (enum cg_vc4_qpu_set, the QPU_ALIAS SET
 * column): the table's own spelling (the one the disassembler prints;
 * reserved codes have none) or a QPU_ALIAS row; -1 if none. Register sets
 * cover the I/O addresses 32..63 only. */
int vc4_qpu_lookup(int set, const char *name);
/* The spelling the disassembler prints for `code` of `set`, NULL if the
 * code is reserved or out of range ("" for a default: always, no pack). */
const char *vc4_qpu_spelling(int set, uint32_t code);

/* cg_def tables over the .def lists, for the table test: index i of
 * `which` (0 fields, 1 signals, 2 add, 3 mul, 4 cond, 5 bcond, 6 pack A,
 * 7 pack mul, 8 unpack, 9 ldi, 10 raddr A, 11 raddr B, 12 waddr A,
 * 13 waddr B, 14 small immediates). Fields are one entry per class with
 * fields of the high word (bits - 32) and, for 31:0 fields, the low word. */
#define VC4_QPU_NTABLES 15
const cg_def_entry *vc4_qpu_def_table(int which, size_t *n, const char **name);

/* ---- disassembler ---- */

/* Text of one instruction (the syntax of docs/vc4-qpu.md; no address, no
 * raw words). `addr` is the instruction's address (absolute branch targets
 * of relative branches). Notes on reserved or unexplained bits go to
 * `notes` ("" if none), "; "-separated. Both snprintf style; returns the
 * length of the text. */
int vc4_qpu_disasm(uint64_t ins, uint32_t addr, char *buf, size_t cap, char *notes,
                   size_t ncap);
/* vc4_qpu_disasm and the confidence (enum cg_vc4_qpu_confidence; NULL: not
 * wanted). */
int vc4_qpu_disasm_conf(uint64_t ins, uint32_t addr, char *buf, size_t cap, char *notes,
                        size_t ncap, int *confidence);

/* ---- assembler ---- */

/* The cg_asm family plug-in: mnemonics of docs/vc4-qpu.md; each instruction
 * emits two little-endian words (low word first). */
const cg_asm_family *vc4_qpu_asm_family(void);

/* ---- interpreter ---- */

#define VC4_QPU_MAX_VARYINGS 32

/* The contract with the renderer (src/vc4/gpu/render.c). */
typedef struct vc4_qpu_sems vc4_qpu_sems;
typedef struct vc4_frag_batch {
    uint16_t mask;                     /* lanes holding a covered pixel (lane i = bit i) */
    uint32_t x[16], y[16];             /* pixel coordinates (X/Y_PIXEL_COORD reads) */
    uint32_t nvary;                    /* varyings available */
    float vary[VC4_QPU_MAX_VARYINGS][16];   /* value of the i-th VARYING read, per lane */
    float vary_c[VC4_QPU_MAX_VARYINGS][16]; /* value r5 receives with that read */
    uint32_t tlb_color_in[16];         /* what a colour-load signal returns */
    uint32_t frag_z[16], frag_w[16];   /* interpolated Z and W the fragment shader may read */
    /* outputs */
    uint32_t color[16]; uint16_t color_mask; /* TLB colour writes (last write wins) */
    uint32_t z_out[16]; uint16_t z_mask;     /* TLB Z writes */
    uint16_t ms_mask_written; /* lanes whose multisample mask was written, if you model it */
    /* ---- additions (zero-initialise the batch and they are harmless) ---- */
    uint32_t coverage_in[16];  /* what a coverage-load signal returns */
    uint32_t rev_flag;         /* REV_FLAG read: 1 for a reverse-facing primitive */
    uint32_t ms_flags[16];     /* MS_FLAGS written (lanes of ms_mask_written) */
    uint32_t stencil_setup;    /* last TLB_STENCIL_SETUP value (element 0) */
    uint32_t stencil_writes;   /* number of TLB_STENCIL_SETUP writes */
    uint32_t alpha_mask[16];   /* TLB_ALPHA_MASK writes */
    uint16_t alpha_mask_written;
    uint32_t host_int;         /* last non-zero HOST_INT write (element 0), 0 if none */
    vc4_qpu_sems *sems;        /* the device's 16 semaphores; NULL: a private zeroed set */
} vc4_frag_batch;

/* Run a fragment shader for one 16-lane batch: code and uniforms are bus
 * addresses in `bus`. Returns 0, or CG_ERR_FAULT after raising a fault
 * (unit "qpu", stream_addr = the instruction's address, words = its two
 * words). budget = max instructions before a HANG fault. */
int vc4_qpu_run_fragment(cg_device *dev, cg_vas *bus, const cg_agent *who,
                         uint32_t code_addr, uint32_t unif_addr,
                         vc4_frag_batch *b, uint64_t budget, bool strict);

/* A decoded-instruction cache with a reusable QPU state, for callers that
 * run the same shaders batch after batch (the renderer). Code is decoded once
 * per address and revalidated against memory at every run: the cached bytes
 * are compared with the bus's bytes, and a difference drops the cached
 * instructions from the first changed one on; memory the model must watch
 * (CPU-cached lines, unmapped or read-only pages) is never cached and is
 * fetched instruction by instruction as without a cache.
 *
 * Threads: a cache (its decoded programs and its QPU state) belongs to one
 * thread at a time; different caches may be used by different threads at
 * once (vc4_qpu_run_fragment_cached, vc4_qpu_cache_payload_use,
 * vc4_qpu_cache_revalidate, vc4_qpu_use_cache on distinct caches), as may
 * vc4_qpu_run_fragment and the vc4_qpu_step / run functions on distinct
 * states: the interpreter has no mutable static data (its tables are const;
 * the vector level, cg__simd_level, is decided once, thread-safely). The
 * bus, device and fault log they share are thread-safe for these reads and
 * fault reports; the semaphores a vc4_frag_batch may point to (sems) and
 * the vc4_v3d_units of vc4_qpu_set_units are not locked: states that share
 * them must run on one thread. */
typedef struct vc4_qpu_cache vc4_qpu_cache;
vc4_qpu_cache *vc4_qpu_cache_create(void);
void vc4_qpu_cache_destroy(vc4_qpu_cache *c);
/* vc4_qpu_run_fragment through a cache (NULL: none); same results. */
int vc4_qpu_run_fragment_cached(vc4_qpu_cache *c, cg_device *dev, cg_vas *bus,
                                const cg_agent *who, uint32_t code_addr, uint32_t unif_addr,
                                vc4_frag_batch *b, uint64_t budget, bool strict);

/* Run s through the cache's decoded code (user programs, tests): s->pc's
 * program is looked up (decoded once, revalidated against memory as above);
 * NULL: fetch from memory. Call after vc4_qpu_init. The cache's QPU state
 * is not used; one cache may serve many states of one thread. */
typedef struct vc4_qpu_state vc4_qpu_state;
void vc4_qpu_use_cache(vc4_qpu_state *s, vc4_qpu_cache *c);
/* Compare every cached program with memory again (as at the start of a
 * run): after memory the code may sit in was written (a VDW DMA, the
 * CPU). */
void vc4_qpu_cache_revalidate(vc4_qpu_cache *c, cg_vas *bus);
/* Hold the cache's comparison with memory (on), or end a hold (off). While
 * a hold lasts, a program that was compared with memory once during it is
 * not compared again at each run: the caller guarantees that nothing writes
 * memory while the hold lasts (the renderer: one compressed primitive list
 * of NV-mode shading, see render.c compressed_list). A program that
 * accesses the VPM (and so may write memory with VDW) is compared at every
 * run as without a hold. Holding again (on while on) starts a new hold:
 * every program is compared once more (after memory may have changed).
 * NULL: nothing. */
void vc4_qpu_cache_hold(vc4_qpu_cache *c, bool on);

/* What the fragment shader at code_addr can see of its payload: *w (ra15,
 * the W the renderer passes in frag_w) and *z (rb15, frag_z). Both are true
 * unless the cache holds the whole program as it is now in memory: straight
 * code from code_addr (no branch) up to a program end and its two delay
 * slots, none of which reads, writes or packs into that register. The
 * answer holds while the code bytes stay as they are (for the renderer: the
 * batches of one primitive). */
void vc4_qpu_cache_payload_use(vc4_qpu_cache *c, cg_vas *bus, uint32_t code_addr, bool *w,
                               bool *z);

/* The 16 hardware semaphores (4-bit counters), one set per V3D. */
struct vc4_qpu_sems {
    uint8_t count[16];
};

/* ---- the I/O units one V3D shares between its QPUs ----
 *
 * Sources (docs/vc4-gpgpu.md cites each field): VideoCore IV 3D
 * Architecture Reference Guide (VPM and VCD, TMU, SFU, semaphores; IDENT1's
 * VPMSZ field "0 => 16K"); maazl/vc4asm share/vc4inc/vc4.qinc (setup word
 * layouts: vpm_setup, h32/v32/..., vdr_setup_0/1, vdw_setup_0/1, dma_*) and
 * doc/VideoCoreIV-addendum.html (VDW stride 16 bits; VPM read setups not
 * queued; TMU FIFO: 8 slots, more than 4 unreliable; tmu_noswap element 0,
 * any non-zero value). */

#define VC4_VPM_ROWS 256                   /* 16 KiB: IDENT1 VPMSZ = 0 => 16K */
#define VC4_VPM_WORDS (VC4_VPM_ROWS * 16)  /* a row is 16 32-bit words */
#define VC4_TMU_FIFO_SLOTS 8               /* requests a QPU may have per TMU */
#define VC4_TMU_FIFO_SAFE 4                /* more outstanding: a restriction warning */

/* One V3D's shared units. A vc4_qpu_state points at one (vc4_qpu_set_units);
 * NULL (the default after vc4_qpu_init, and the renderer's fragment
 * shading) means private units: the state's own semaphores and mutex flag,
 * and no VPM or VCD DMA (any VPM access faults "unsupported"). Timing model:
 * a VDR/VDW transfer completes when its address is written, so the busy
 * registers read 0 and vr_wait/vw_wait never wait; a TMU lookup reads memory
 * when its request is written (S) and ldtmu pops the oldest result. */
typedef struct vc4_v3d_units {
    uint32_t vpm[VC4_VPM_WORDS];  /* word (row * 16 + column), little-endian bytes */
    vc4_qpu_sems sems;            /* the 16 counting semaphores (0..15) */
    int mutex_owner;              /* QPU number holding the mutex, -1: free */
    uint64_t vdr_count, vdw_count; /* DMA transfers done */
    uint64_t vdr_bytes, vdw_bytes; /* bytes they moved */
    uint32_t vpm_dirty;           /* words [0, vpm_dirty) may be non-zero */
} vc4_v3d_units;

/* Zero the VPM and semaphores, free the mutex. */
void vc4_v3d_units_init(vc4_v3d_units *u);
/* The same for units already initialised: only the VPM words written since
 * (vpm_dirty) are cleared; the GL path runs it per vertex batch. */
void vc4_v3d_units_reset(vc4_v3d_units *u);

/* What a blocked QPU waits on (vc4_qpu_state.wait). */
enum vc4_qpu_wait_kind {
    VC4_QPU_WAIT_NONE = 0,
    VC4_QPU_WAIT_SEM_ACQUIRE, /* detail: semaphore number; its count is 0 */
    VC4_QPU_WAIT_MUTEX,       /* detail: the QPU number holding the mutex */
};
typedef struct vc4_qpu_wait {
    uint8_t kind;    /* enum vc4_qpu_wait_kind */
    uint32_t detail;
} vc4_qpu_wait;

/* vc4_qpu_step's result when the instruction cannot issue now: nothing of
 * it happened (no uniform read, no write); the same instruction is tried
 * again at the next step. s->wait says why. */
#define VC4_QPU_BLOCKED 1

/* General QPU state, for tests and other shader types. The interpreter
 * reads and writes the register rows ra, rb, acc, xrow as one array of 64-byte
 * rows (in this order); a state on a 64-byte boundary (as the renderer's
 * cache and the user-program scheduler keep theirs) has each row in one cache
 * line, which is faster, but any alignment works. */
struct vc4_qpu_state {
    uint32_t ra[32][16], rb[32][16]; /* register files A and B */
    uint32_t acc[6][16];             /* r0-r5 */
    uint32_t xrow[2][16];            /* interpreter scratch after r5: zeros, the
                                      * instruction's small immediate */
    /* TMU result FIFOs (ring of VC4_TMU_FIFO_SLOTS per TMU; valid entries
     * are counted by tmu_n below) and coordinates (valid per tmu_has bit),
     * so reinit need not clear them */
    uint32_t tmu_res[2][VC4_TMU_FIFO_SLOTS][16];
    uint32_t tmu_coord[2][3][16];    /* T, R, B written for the next request (valid: tmu_has) */
    union {                          /* Z, N, C flags, bit i = lane i; fl[0] is */
        struct {                     /* always 0 (fl[cond >> 1] is a condition's */
            uint16_t fl_never, zf, nf, cf; /* mask before the inversion of odd codes) */
        };
        uint16_t fl[4];
    };
    uint32_t pc;                     /* bus address of the next instruction */
    uint32_t unif;                   /* bus address of the next uniform */
    uint32_t nvary_read;             /* varyings read so far */
    uint64_t executed;               /* instructions (and stall cycles) so far */
    bool ended;                      /* the program ended (thrend + 2 delay slots) */
    uint32_t host_int;               /* last non-zero HOST_INT write */
    bool mutex_held;
    /* pipeline */
    int sfu_wait;                    /* instructions until the SFU result lands in r4 */
    uint32_t sfu_result[16];
    int branch_wait;                 /* delay slots left before the branch */
    uint32_t branch_target;
    int end_wait;                    /* delay slots left after thrend, -1 none */
    int since_branch;                /* instructions since the last branch */
    uint64_t prev_phys;              /* physical registers the last instruction wrote
                                      * (ra n = bit n, rb n = bit 32 + n) */
    uint8_t prev_acc;                /* accumulators (bit n = rn) it wrote */
    bool sbwait_done;
    /* shared units and identity */
    vc4_v3d_units *units;            /* NULL: private units (see vc4_v3d_units) */
    uint32_t qpu_num;                /* QPU_NUMBER reads (0..11 on the Pi) */
    vc4_qpu_wait wait;               /* set when vc4_qpu_step returns VC4_QPU_BLOCKED */
    uint64_t stalls;                 /* steps that returned VC4_QPU_BLOCKED (also
                                      * counted in executed, as stall cycles) */
    /* VPM general access (VPMVCD_RD_SETUP / VPMVCD_WR_SETUP, this QPU's) */
    uint32_t vpm_rd_setup, vpm_wr_setup; /* last setup words (for messages) */
    uint32_t vpm_rd_addr, vpm_wr_addr;   /* the ADDR counters (stride added after each vector) */
    uint32_t vpm_rd_left;                /* vectors the read setup still delivers */
    /* VCD DMA setups (this QPU's) */
    uint32_t vdr_setup, vdr_stride;      /* VDR basic setup (ID 1), extended pitch */
    uint32_t vdw_setup, vdw_stride;      /* VDW basic setup (ID 2), stride setup (ID 3) */
    /* TMU request side: coordinates written for the next request */
    uint8_t tmu_has[2];                  /* bit 0 T, 1 R, 2 B written since the last S */
    uint8_t tmu_head[2], tmu_n[2];       /* result FIFO ring: oldest slot, entries */
    bool tmu_noswap;                     /* a non-zero TMU_NOSWAP write (element 0) */
    uint64_t tmu_noswap_at;              /* `executed` at the last TMU_NOSWAP write, 0 none */
    uint64_t tmu_lookups;                /* requests served (direct + texture) */
    /* environment */
    cg_device *dev;
    cg_vas *bus;
    cg_agent agent;
    /* called before a VDW writes memory (NULL: nothing): the renderer stops
     * the tile pool's workers, which may be reading it (pool.c
     * vc4_pool_fence); set after vc4_qpu_init */
    void (*before_write)(void *ctx);
    void *before_write_ctx;
    bool strict;                     /* restriction breaks are faults, not warnings */
    vc4_frag_batch *frag;            /* fragment I/O, or NULL */
    vc4_qpu_sems *sems;
    vc4_qpu_sems own_sems;
    struct vc4_qpu_prog *prog;       /* decoded code in use (vc4_qpu_cache), or NULL */
    /* rows written since the last reset (ra0-31 = bits 0-31 of dirty[0],
     * rb0-31 = bits 32-63, r0-r5 = bits 0-5 of dirty[1]) */
    uint64_t dirty[2];
    /* an instruction went through the general step since the last reset
     * (the interpreter's slow path, which may change any field): the
     * renderer's next run then clears the whole state, else only the few
     * fields the fast path changes */
    bool slow;
};

/* Reset *s to start at code_addr with uniforms at unif_addr. `who` (may be
 * NULL) gives the agent's family and channel; the unit is always "qpu". */
void vc4_qpu_init(vc4_qpu_state *s, cg_device *dev, cg_vas *bus, const cg_agent *who,
                  uint32_t code_addr, uint32_t unif_addr, bool strict);
/* Attach shared units (NULL: private) and set the QPU number. Call after
 * vc4_qpu_init. States sharing units need distinct QPU numbers (the mutex
 * owner is recorded by number). */
void vc4_qpu_set_units(vc4_qpu_state *s, vc4_v3d_units *units, uint32_t qpu_num);
/* Execute one instruction (or one stall cycle): 0; VC4_QPU_BLOCKED (the
 * instruction waits on another QPU: s->wait); or CG_ERR_FAULT. */
int vc4_qpu_step(vc4_qpu_state *s);
/* Run up to `max` instructions (stall cycles not counted), stopping after
 * the first instruction that touches a unit the QPUs share (semaphore,
 * mutex, VPM/VDR/VDW, host interrupt), at a stall (VC4_QPU_BLOCKED: the
 * blocked instruction did not issue), at the program end or a fault. The
 * scheduler's slice (docs/vc4-gpgpu.md). *insns: instructions executed. */
int vc4_qpu_run_slice(vc4_qpu_state *s, uint64_t max, uint64_t *insns);
/* Run until the program ends or `budget` instructions ran (HANG fault).
 * Blocked steps count as stall cycles against the budget (nothing else runs
 * to end the wait); the HANG message then names the wait
 * (vc4_qpu_wait_text). */
int vc4_qpu_run(vc4_qpu_state *s, uint64_t budget);
/* "semaphore 3 acquire (count 0)", "mutex (held by QPU 2)", or "nothing";
 * snprintf style. For hang reports. */
int vc4_qpu_wait_text(const vc4_qpu_state *s, char *buf, size_t cap);

#endif
