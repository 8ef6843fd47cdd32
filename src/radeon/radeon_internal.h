/* radeon family: definitions shared inside src/radeon (not installed).
 *
 * defs.c   the tables (pm4_*.def, regs.def, pm4_fields.def) and lookups
 * cp.c     the GPU side: memory, registers, the command processor
 * ring.c   driver ring (radeon_ring.c), scratch registers
 * fence.c  fences (radeon_fence.c)
 * irq.c    the interrupt handler (r600_irq_process)
 * reset.c  lockup detection and GPU reset (radeon_ring.c, radeon_device.c)
 * ib.c     indirect buffers and the ring/IB tests (r600.c)
 * disasm.c the PM4 disassembler
 * asm.c    the assembler plug-in and scenes */
#ifndef CMDGPU_RADEON_INTERNAL_H
#define CMDGPU_RADEON_INTERNAL_H

#include <stdatomic.h>
#include <stdio.h>
#include "cmdgpu/core.h"
#include "cmdgpu/radeon.h"
#include "cmdgpu/radeon_check.h"
#include "core/def.h"
#include "core/internal.h"

/* ---- tables ---- */

#define CNT_ANY 0x3FFF

/* What the executor does with a packet: the kind column of pm4_*.def. Each
 * kind K has a handler rd_exec_K (cp_*.c); the opcode-indexed handler
 * tables are built from the .def (cp_exec.c). */
#define RD_P3_KINDS(X)                                                             \
    X(NOP)                                                                         \
    X(UNSUPP)    /* known packet the model does not execute: UNSUPPORTED fault */ \
    X(ACCEPT)    /* no effect on the model's state (no state shadowing, sync) */  \
    X(DRAW)      /* decoded and recorded */                                        \
    X(SET)                                                                         \
    X(IB)                                                                          \
    X(MEM_WRITE)                                                                   \
    X(EVENT)                                                                       \
    X(EOP)                                                                         \
    X(WAIT)                                                                        \
    X(SURF_SYNC)                                                                   \
    X(CP_DMA)                                                                      \
    X(SEMAPHORE)                                                                   \
    X(COPY_DW)                                                                     \
    X(SET_PRED)                                                                    \
    X(COND_EXEC)                                                                   \
    X(ME_INIT)
typedef enum p3_kind {
    P3K_NONE = 0, /* not in the table */
#define RD_P3_KIND_ENUM(k) P3K_##k,
    RD_P3_KINDS(RD_P3_KIND_ENUM)
#undef RD_P3_KIND_ENUM
} p3_kind;

typedef struct p3_desc {
    const char *name; /* NULL: opcode not in this generation's table */
    uint8_t kind;
    uint16_t min_count, max_count;
} p3_desc;

/* The 256-entry opcode table of a generation. */
const p3_desc *rd_p3_table(cg_radeon_gen gen);
/* The SET_* register window [start, end) of a SET packet; false if none. */
bool rd_window(cg_radeon_gen gen, unsigned opcode, uint32_t *start, uint32_t *end);

/* Register fields: enum RF_<REG>__<FIELD>_HI/_LO from regs.def, and
 * PF_<ENTRY>__<FIELD>_HI/_LO from pm4_fields.def. */
enum {
#define R(name, off, cnt, stride, flags) REG_##name = off,
#define RF(reg, f, hi, lo) RF_##reg##__##f##_HI = hi, RF_##reg##__##f##_LO = lo,
#include "radeon/tables/regs.def"
#undef R
#undef RF
#define PD(name, id)
#define PF(e, f, hi, lo) PF_##e##__##f##_HI = hi, PF_##e##__##f##_LO = lo,
#include "radeon/tables/pm4_fields.def"
#undef PD
#undef PF
};
/* Payload-dword id spaces of pm4_fields.def, and RD_PD_<ENTRY> = its id. */
enum { RD_PAY_R600 = 0, RD_PAY_EG = 0x2000, RD_PAY_R500 = 0x3000 };
enum {
#define PD(name, id) RD_PD_##name = id,
#define PF(e, f, hi, lo)
#include "radeon/tables/pm4_fields.def"
#undef PD
#undef PF
};

static inline uint32_t rd_bits(uint32_t v, unsigned hi, unsigned lo)
{
    uint32_t mask = (uint32_t)((2ull << (hi - lo)) - 1u);
    return (v >> lo) & mask;
}
static inline uint32_t rd_put(uint32_t x, unsigned hi, unsigned lo)
{
    uint32_t mask = (uint32_t)((2ull << (hi - lo)) - 1u);
    return (x & mask) << lo;
}
#define RGET(v, reg, f) rd_bits((v), RF_##reg##__##f##_HI, RF_##reg##__##f##_LO)
#define RPUT(reg, f, x) rd_put((x), RF_##reg##__##f##_HI, RF_##reg##__##f##_LO)
#define PGET(v, e, f) rd_bits((v), PF_##e##__##f##_HI, PF_##e##__##f##_LO)
#define PPUT(e, f, x) rd_put((x), PF_##e##__##f##_HI, PF_##e##__##f##_LO)
/* PPUT as a constant expression (for _Static_assert and initializers). */
#define RD_PUTC(x, hi, lo) ((uint32_t)(((uint64_t)(x) & ((2ull << ((hi) - (lo))) - 1u)) << (lo)))
#define PPUTC(e, f, x) RD_PUTC((x), PF_##e##__##f##_HI, PF_##e##__##f##_LO)
#define PMASK(e, f) rd_put(~0u, PF_##e##__##f##_HI, PF_##e##__##f##_LO)
/* PM4 header fields (pm4_fields.def PM4_*): type and count are at the same
 * bits in every packet type. */
#define RD_PKT_TYPE(h) PGET((h), PM4_TYPE3, TYPE)
#define RD_PKT_COUNT(h) PGET((h), PM4_TYPE3, COUNT)
#define RD_PKT3_OPCODE(h) PGET((h), PM4_TYPE3, IT_OPCODE)

/* A packet's length in dwords, from its header alone: type 2 is a
 * one-dword filler, type 1 (R1xx-R5xx) a header and two data dwords, types
 * 0 and 3 the header and COUNT + 1 data dwords (the one place this is
 * computed: ring, IB, disassembler, checker, ring dumps and scenes). */
static inline uint32_t rd_packet_dwords(uint32_t h)
{
    switch (RD_PKT_TYPE(h)) {
    case 2: return 1;
    case 1: return 3;
    default: return RD_PKT_COUNT(h) + 2;
    }
}

/* Opcode numbers from the tables: RD_OP_<NAME> (pm4_r600.def, R600/R700)
 * and RD_EGOP_<NAME> (pm4_evergreen.def). */
enum {
#define P3(name, op, kind, mn, mx) RD_OP_##name = op,
#define W(name, start, end)
#include "radeon/tables/pm4_r600.def"
#undef P3
#define P3(name, op, kind, mn, mx) RD_EGOP_##name = op,
#include "radeon/tables/pm4_evergreen.def"
#undef P3
#undef W
};
/* SET_* windows: RD_WIN_<PACKET>_START/_END (pm4_r600.def) and
 * RD_EGWIN_<PACKET>_START/_END (pm4_evergreen.def). */
enum {
#define P3(name, op, kind, mn, mx)
#define W(name, start, end) RD_WIN_##name##_START = start, RD_WIN_##name##_END = end,
#include "radeon/tables/pm4_r600.def"
#undef W
#define W(name, start, end) RD_EGWIN_##name##_START = start, RD_EGWIN_##name##_END = end,
#include "radeon/tables/pm4_evergreen.def"
#undef W
#undef P3
};
_Static_assert(RD_WIN_SET_CONFIG_REG_START == RD_EGWIN_SET_CONFIG_REG_START,
               "the driver's SET_CONFIG_REG index assumes one config window start");
#define RMASK(reg, f) rd_put(~0u, RF_##reg##__##f##_HI, RF_##reg##__##f##_LO)

/* The driver side emits these on every generation it drives with one
 * number; the tables must agree. */
_Static_assert(RD_OP_NOP == RD_EGOP_NOP && RD_OP_INDIRECT_BUFFER == RD_EGOP_INDIRECT_BUFFER &&
                   RD_OP_MEM_WRITE == RD_EGOP_MEM_WRITE && RD_OP_WAIT_REG_MEM == RD_EGOP_WAIT_REG_MEM &&
                   RD_OP_SURFACE_SYNC == RD_EGOP_SURFACE_SYNC &&
                   RD_OP_ME_INITIALIZE == RD_EGOP_ME_INITIALIZE && RD_OP_EVENT_WRITE == RD_EGOP_EVENT_WRITE &&
                   RD_OP_EVENT_WRITE_EOP == RD_EGOP_EVENT_WRITE_EOP &&
                   RD_OP_SET_CONFIG_REG == RD_EGOP_SET_CONFIG_REG,
               "driver opcodes differ between pm4_r600.def and pm4_evergreen.def");
/* Event types (linux r600d.h). */
enum { EV_CACHE_FLUSH_AND_INV_EVENT_TS = 0x14, EV_CACHE_FLUSH_AND_INV_EVENT = 0x16 };

/* A register found in a table: the entry and the element of an array. */
typedef struct rd_reg_info {
    const cg_def_entry *e;
    unsigned index; /* element of an array register */
} rd_reg_info;
/* The model's own registers (regs.def: the overlay the generator merges):
 * the executor's and the validator's view. */
const cg_def_entry *rd_reg_table(size_t *n);
const cg_def_entry *rd_pf_table(size_t *n); /* payload fields */
bool rd_reg_lookup(uint32_t reg, rd_reg_info *out);

/* The vendor register tables, one per generation (regs_r600.def for R600
 * and R700, regs_evergreen.def; generated by scripts/radeon_reg_tables.py
 * from the Linux and Mesa headers). Entry flags: CG_DEF_ALIAS, and bits
 * 16..23 the position of the index digit in an array's name. */
#define RD_IPOS_SHIFT 16
typedef struct rd_enum_val {
    uint32_t field; /* field number: rd_regtab.first_field[entry] + j */
    uint32_t value;
    const char *name;
} rd_enum_val;
typedef struct rd_regtab {
    const cg_def_entry *e; /* sorted by offset; primaries before aliases */
    size_t n;
    const uint16_t *first_field;
    const rd_enum_val *vals; /* sorted by field number */
    size_t nvals;
} rd_regtab;
/* NULL for R500 (no table). */
const rd_regtab *rd_regs_of(cg_radeon_gen gen);
/* The register at `reg`: a primary entry if one claims it, else an alias. */
bool rd_reg_find(cg_radeon_gen gen, uint32_t reg, rd_reg_info *out);
/* Element `index` of an entry's name ("CB_COLOR5_BASE") into buf. */
const char *rd_elem_name(const cg_def_entry *e, unsigned index, char *buf, size_t cap);
/* A register name of the generation (an element name too) -> offset. */
/* The same lookup as rd_reg_by_name by a scan of the table (the reference
 * the hashed lookup is tested against). */
bool rd_reg_by_name_scan(cg_radeon_gen gen, const char *name, size_t len, uint32_t *reg);
bool rd_reg_by_name(cg_radeon_gen gen, const char *name, size_t len, uint32_t *reg);
/* The enum name of value v of field j of entry e, NULL if none. */
const char *rd_enum_name(cg_radeon_gen gen, const cg_def_entry *e, size_t j, uint32_t v);
/* A payload dword that is the value of a register (PR lines of
 * pm4_fields.def: SURFACE_SYNC's CP_COHER_*, draws' VGT_DRAW_INITIATOR). */
bool rd_payload_reg(cg_radeon_gen gen, unsigned opcode, unsigned dw, uint32_t *reg);
/* Payload fields of dword `dw` (1-based) of an opcode of `gen`, NULL if
 * none (per generation: Evergreen's own entries, else the R600 entries of
 * a packet of the same name; R500's own). */
const cg_def_entry *rd_payload_fields(cg_radeon_gen gen, unsigned opcode, unsigned dw);
/* Line i of the PA / PR+PRE lists (for the table test); false past the end. */
bool rd_payload_alias(size_t i, uint32_t *id, uint32_t *entry);
bool rd_payload_reg_at(size_t i, uint32_t *id, uint32_t *reg);
/* Opcode tables and windows as cg_def_entry arrays, for the table test. */
const cg_def_entry *rd_p3_defs(cg_radeon_gen gen, size_t *n);
const cg_def_entry *rd_win_defs(cg_radeon_gen gen, size_t *n);

/* Format "NAME" or "CB_COLOR1_BASE" (array element) or "0x1234" into buf. */
const char *rd_reg_str(cg_radeon_gen gen, uint32_t reg, char *buf, size_t cap);

/* ---- GPU side ---- */

#define RD_FBUF_DW 4096

typedef struct rd_ib {
    uint64_t base;
    uint32_t size, pos;
} rd_ib;

struct cg_radeon {
    cg_device *dev;
    cg_vas *vas;
    cg_mem *vram, *gtt;
    cg_radeon_config cfg;
    uint64_t vram_next, gtt_next;
    const p3_desc *p3;
    uint32_t win_start[256], win_end[256];
    uint32_t *regs;    /* CG_RADEON_REG_SPACE / 4 dwords */
    uint8_t *special;  /* one bit per register dword: a write has side effects */
    cg_agent agent;

    /* CP state */
    uint32_t rptr, wptr;  /* ring dword pointers */
    unsigned depth;       /* 0 ring, 1 IB1, 2 IB2 */
    rd_ib ib[2];
    bool stopped, waiting;
    uint32_t wait_polls;
    uint64_t wait_addr;   /* stream address of the waiting packet */
    bool in_run, budget_hit;
    uint32_t pending_skip; /* COND_EXEC: dwords still to skip */
    uint64_t packets, dwords, clock, warnings;
    bool trace_valid;
    uint32_t last_trace;
    bool me_initialized;

    /* fetch buffer: dwords at [fbuf_va, fbuf_va + 4 * fbuf_n) */
    uint64_t fbuf_va;
    uint32_t fbuf_n;
    uint32_t fbuf[RD_FBUF_DW];

    cg_radeon_draw *draws;
    size_t ndraws;
    cg_radeon_counters counters;

    /* Threaded mode: `lock` guards everything above and the memory model;
     * the CP thread sleeps on `kick` (wptr writes, CPU writes that may end a
     * wait, unhalt); interrupt posts bump irq_seq and broadcast `irq`. */
    bool threaded, thread_started, quit;
    pthread_mutex_t lock;
    pthread_cond_t kick, irq;
    pthread_t thread;
    uint64_t kicks, irq_seq;
    /* CP interrupts raised (posted or not), stored with release after
     * what the interrupt reports was written: a fence waiter polls it
     * without the lock and reads the fence only when it moved (fence.c). */
    _Atomic uint64_t irq_raised;
};

/* Lock helpers: no-ops in deterministic mode. */
static inline void rd_lock(cg_radeon *rd)
{
    if (rd->threaded)
        pthread_mutex_lock(&rd->lock);
}
static inline void rd_unlock(cg_radeon *rd)
{
    if (rd->threaded)
        pthread_mutex_unlock(&rd->lock);
}
/* A CPU write that does not poll the CP (the driver's ring and IB copies). */
int rd_cpu_write_quiet(cg_radeon *rd, uint64_t va, const void *src, size_t n);
/* Driver IH thread: sleep until an interrupt was posted after *seen, or
 * *stop is set (read under the GPU lock); updates *seen. */
bool rd_irq_wait(cg_radeon *rd, uint64_t *seen, const bool *stop); /* true: stop */
void rd_irq_wake(cg_radeon *rd, bool *stop); /* set *stop under the lock, wake */

/* Writes from the CP's own memory engine (invalidate the fetch buffer on
 * overlap). */
int rd_gpu_write(cg_radeon *rd, uint64_t va, const void *src, size_t n);

/* ---- driver side ---- */

/* Writeback page layout in bytes (linux radeon.h, research/radeon.md 4). */
enum {
    WB_SCRATCH = 0,
    WB_NEXT_RPTR = 256,
    WB_CP_RPTR = 1024,
    WB_IH_WPTR = 2048,
    WB_EVENTS = 3072,
};

#define RD_NSCRATCH 7 /* r600: 7 scratch registers for the driver (r600_scratch_init) */
#define RD_IH_BYTES 16384

struct cg_radeon_drv {
    cg_radeon *gpu;
    cg_radeon_drv_config cfg;
    uint64_t ring_gpu, wb_gpu, ih_gpu, ib_gpu;
    uint32_t ring_dw, ptr_mask, align_mask;
    uint32_t *ring;       /* CPU copy of the ring (the kmapped ring BO) */
    uint32_t wptr, wptr_old, rptr, count_dw, ring_free_dw;
    bool locked;
    uint32_t ih_rptr, ih_dw;
    bool scratch_free[RD_NSCRATCH];
    uint32_t rptr_save_reg, fence_scratch;
    uint64_t fence_seq, last_seq;  /* emitted, signalled */
    uint64_t irq_counts[256];
    /* lockup detection (radeon_ring_lockup_update / radeon_ring_test_lockup) */
    uint32_t last_rptr;
    uint64_t polls, last_activity;
    bool lockup;
    unsigned resets;
    char lockup_log[512];
    /* Threaded mode: fence_lock guards fence_seq, last_seq, the IH read side
     * and irq_counts; waiters sleep on fence_cond, which the IH thread
     * broadcasts after signalling fences. Lock order: fence_lock, then the
     * GPU lock. */
    bool threaded, ih_started, ih_stop;
    pthread_mutex_t fence_lock;
    pthread_cond_t fence_cond;
    pthread_t ih_thread;
    void (*fence_fn)(void *user, uint64_t seq);
    void *fence_user;
    /* IB pool */
    cg_radeon_ib *ibs;
    bool *ib_used;
};

int rd_ring_free_update(cg_radeon_drv *drv);
int rd_cp_start(cg_radeon_drv *drv); /* r600_cp_resume + r600_cp_start */
void rd_ih_init(cg_radeon_drv *drv);  /* r600_irq_init */
void rd_fence_process(cg_radeon_drv *drv); /* fence_lock held */
static inline void rd_flock(cg_radeon_drv *drv)
{
    if (drv->threaded)
        pthread_mutex_lock(&drv->fence_lock);
}
static inline void rd_funlock(cg_radeon_drv *drv)
{
    if (drv->threaded)
        pthread_mutex_unlock(&drv->fence_lock);
}
int rd_irq_process_locked(cg_radeon_drv *drv); /* irq.c */
void rd_fence_force_completion(cg_radeon_drv *drv); /* fence.c: signal every emitted fence */
bool rd_test_lockup(cg_radeon_drv *drv); /* reset.c: radeon_ring_test_lockup */
void *rd_ih_thread(void *arg);
void rd_udelay(cg_radeon_drv *drv); /* DRM_UDELAY(1) in threaded mode, else nothing */
/* r600_ring_ib_execute into a locked ring (room for 9 dwords): [MODE_CONTROL
 * on Evergreen,] the next-rptr record in rptr_save_reg, INDIRECT_BUFFER. */
void rd_ring_ib_execute(cg_radeon_drv *drv, uint64_t gpu_addr, uint32_t length_dw);
/* radeon_fence_driver_start_ring with a chosen sequence: no fence may be
 * pending; emitted = signalled = seq, whose low 32 bits go to the fence
 * location. CG_ERR_BUSY with fences pending. */
int rd_fence_driver_start(cg_radeon_drv *drv, uint64_t seq);

/* text/ringdump.c: the live region of a ring dump, entries [rptr_entry,
 * this); RINGDUMP_MAX_DW, the largest ring it takes (MAX_RING_BUFSZ in
 * cp.c: RB_BUFSZ 22, 2 << 22 dwords, 32 MiB). */
#define RINGDUMP_MAX_DW (2u << 22)
struct cg_radeon_ringdump;
size_t rd_ringdump_live_end(const struct cg_radeon_ringdump *d);

#endif
