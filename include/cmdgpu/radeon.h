/* cmdgpu: the radeon family, an ATI/AMD R600-class command processor (CP) in
 * pull mode, and a driver side shaped like the Linux radeon driver.
 *
 * GPU side (cg_radeon): a 40-bit GPU address space with VRAM at
 * CG_RADEON_VRAM_BASE and the GTT (GART) at CG_RADEON_GTT_BASE; a register
 * file reached through an MMIO-style API; a CP that fetches PM4 packets from
 * the ring at CP_RB_BASE while rptr != wptr, follows INDIRECT_BUFFER packets
 * two levels deep (ring -> IB1 -> IB2), writes rptr and scratch registers back
 * to memory, and posts interrupts to the IH ring. Register offsets and packet
 * layouts follow the Linux r600d.h / evergreend.h headers (see
 * docs/radeon.md and the .def tables in src/radeon/).
 *
 * Deterministic mode (the default): the CP runs, in the caller's thread, when
 * the driver publishes wptr (an MMIO write of CP_RB_WPTR), when a CPU write
 * through cg_radeon_cpu_write* may wake a blocked wait, or on
 * cg_radeon_run(); it runs until the ring is empty, a wait blocks it, a fault
 * stops it, or the per-call dword budget is used up.
 *
 * Threaded mode (cg_radeon_config.threaded): the CP runs in its own thread,
 * consuming the ring while the CPU side writes it; the same events wake it
 * instead of running it, and cg_radeon_run() only wakes it. A device lock
 * (a mutex: its release/acquire orders every rptr/wptr/writeback publish
 * with its consumer) guards the GPU state and the memory model; in this
 * mode touch GPU memory only through cg_radeon_cpu_* (not cg_vas_* on
 * cg_radeon_vas()). The driver adds an interrupt-handler thread, and fence
 * waiters sleep on a condition variable until the handler signals them.
 *
 * Driver side (cg_radeon_drv): ring init/lock/write/commit/undo, indirect
 * buffers, fences with interrupts, ring_test and ib_test as in r600.c. */
#ifndef CMDGPU_RADEON_H
#define CMDGPU_RADEON_H

#include "capture.h"
#include "common.h"
#include <stdio.h>
#include "fault.h"
#include "asm.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cg_radeon cg_radeon;
typedef struct cg_radeon_drv cg_radeon_drv;

/* Generations: they differ in type-3 opcodes and SET_* windows (r600d.h vs
 * evergreend.h); R500 (R1xx-R5xx packet formats) decodes 13-bit type-0
 * indices with ONE_REG_WR and type-1 packets. */
typedef enum cg_radeon_gen {
    CG_RADEON_R600 = 0,
    CG_RADEON_R700,
    CG_RADEON_EVERGREEN,
    CG_RADEON_R500,
    CG_RADEON_GEN_COUNT
} cg_radeon_gen;

CG_API const char *cg_radeon_gen_name(cg_radeon_gen g); /* "r600", ...; "?" */
CG_API int cg_radeon_gen_from_name(const char *name, cg_radeon_gen *out);

#define CG_RADEON_VRAM_BASE 0x0000000000ull
#define CG_RADEON_GTT_BASE 0x0100000000ull /* above 4 GiB: exercises addr hi bits */
#define CG_RADEON_REG_SPACE 0x40000u      /* register byte offsets [0, 0x40000) */

typedef struct cg_radeon_config {
    cg_radeon_gen gen;
    uint64_t vram_size;   /* bytes, page multiple; 0: 16 MiB */
    uint64_t gtt_size;    /* bytes, page multiple; 0: 16 MiB */
    bool lenient;         /* unknown opcodes: skip with a warning (gem5) instead of faulting */
    bool manual;          /* deterministic mode: the CP runs only in cg_radeon_run() */
    uint32_t wait_budget; /* polls of one unsatisfied wait before a HANG fault; 0: 1000 */
    uint64_t run_budget;  /* dwords one cg_radeon_run() may fetch; 0: 1 << 26
                             (threaded: per slice between lock releases; 0: 4096) */
    bool threaded;        /* the CP runs in its own thread (see below) */
} cg_radeon_config;

CG_API int cg_radeon_create(cg_device *dev, const cg_radeon_config *cfg, cg_radeon **out);
CG_API void cg_radeon_destroy(cg_radeon *rd); /* NULL is a no-op */
CG_API cg_device *cg_radeon_device(const cg_radeon *rd);
CG_API cg_vas *cg_radeon_vas(const cg_radeon *rd);
CG_API cg_radeon_gen cg_radeon_generation(const cg_radeon *rd);

/* ---- memory --------------------------------------------------------------- */

typedef enum cg_radeon_domain { CG_RADEON_VRAM = 0, CG_RADEON_GTT = 1 } cg_radeon_domain;

/* Allocate `size` bytes (rounded up to 256) aligned to `align` (power of two,
 * 0 means 256) in a domain; a bump allocator (nothing is ever freed).
 * CG_ERR_NOSPACE when the domain is full. */
CG_API int cg_radeon_alloc(cg_radeon *rd, cg_radeon_domain d, uint64_t size, uint64_t align,
                           uint64_t *gpu_addr);

/* CPU access through the GPU address (cg_vas_cpu_*), then, in deterministic
 * mode, a poll of a blocked CP (a CPU write may satisfy WAIT_REG_MEM). */
CG_API int cg_radeon_cpu_write(cg_radeon *rd, uint64_t addr, const void *src, size_t n);
CG_API int cg_radeon_cpu_read(cg_radeon *rd, uint64_t addr, void *dst, size_t n);
CG_API int cg_radeon_cpu_write32(cg_radeon *rd, uint64_t addr, uint32_t v);
CG_API int cg_radeon_cpu_read32(cg_radeon *rd, uint64_t addr, uint32_t *v);

/* ---- registers (MMIO) ------------------------------------------------------ */

/* Byte offset, 4-aligned, below CG_RADEON_REG_SPACE (CG_ERR_ALIGN/RANGE).
 * Writes have the hardware side effects: CP_RB_WPTR runs the CP, SCRATCH_REGn
 * are mirrored to memory under SCRATCH_UMSK, GRBM_SOFT_RESET.SOFT_RESET_CP
 * resets the CP, a CPU write to CP_INT_STATUS acknowledges (clears) the bits
 * it sets. Reads: CP_RB_RPTR, CP_RB_WPTR, GRBM_STATUS (CP_BUSY, GUI_ACTIVE),
 * IH_RB_WPTR reflect the model's state. */
CG_API int cg_radeon_reg_read(cg_radeon *rd, uint32_t reg, uint32_t *val);
CG_API int cg_radeon_reg_write(cg_radeon *rd, uint32_t reg, uint32_t val);

/* Register lookup in the generation's table (R600/R700 and Evergreen tables
 * generated from the Linux and Mesa headers, docs/radeon-tables.md; R500 has
 * none): name -> offset and back. cg_radeon_reg_by_name also takes array
 * element names ("CB_COLOR5_BASE", "SQ_TEX_RESOURCE_WORD4_7"). cg_radeon_reg_name
 * returns NULL for registers the table does not name and for array elements
 * other than element 0 (whose names it does not store). */
CG_API const char *cg_radeon_reg_name(cg_radeon_gen gen, uint32_t reg);
CG_API int cg_radeon_reg_by_name(cg_radeon_gen gen, const char *name, uint32_t *reg);
/* Type-3 opcode name for a generation, NULL if the opcode is not in its table. */
CG_API const char *cg_radeon_opcode_name(cg_radeon_gen gen, unsigned opcode);
CG_API int cg_radeon_opcode_by_name(cg_radeon_gen gen, const char *name, unsigned *opcode);

/* ---- the command processor --------------------------------------------- */

typedef enum cg_radeon_cp_state {
    CG_RADEON_CP_IDLE = 0, /* rptr == wptr and no IB active */
    CG_RADEON_CP_BUSY,     /* work left (the run budget ran out) */
    CG_RADEON_CP_WAITING,  /* blocked: WAIT_REG_MEM, semaphore wait, or a packet
                              whose end the driver has not committed yet */
    CG_RADEON_CP_HALTED,   /* CP_ME_CNTL.ME_HALT set */
    CG_RADEON_CP_STOPPED,  /* stopped by a fault until a CP reset */
} cg_radeon_cp_state;

CG_API const char *cg_radeon_cp_state_name(cg_radeon_cp_state s);

typedef struct cg_radeon_cp_status {
    cg_radeon_cp_state state;
    uint32_t rptr, wptr;        /* ring dword pointers */
    uint32_t ring_dw;           /* ring size in dwords (from CP_RB_CNTL.RB_BUFSZ) */
    unsigned ib_depth;          /* 0 ring, 1 in IB1, 2 in IB2 */
    uint64_t ib_addr[2];        /* IB1/IB2 base addresses */
    uint32_t ib_pos[2], ib_size[2]; /* dword position and size */
    uint64_t packets;           /* packets executed since creation */
    uint64_t dwords;            /* dwords fetched since creation */
    uint64_t clock;             /* the model's GPU clock (EVENT_WRITE_EOP DATA_SEL 3) */
    bool trace_valid;           /* a trace point was reached */
    uint32_t last_trace;        /* id of the last trace point (NOP 0xCAFE0000|id) */
    uint32_t wait_polls;        /* polls of the current wait */
    uint64_t warnings;          /* lenient-mode skipped packets */
} cg_radeon_cp_status;

CG_API int cg_radeon_cp_get_status(const cg_radeon *rd, cg_radeon_cp_status *st);

/* Run the CP. Returns 0 when idle, waiting or halted, CG_ERR_FAULT if a fault
 * stopped it (now or before), CG_ERR_BUSY if the run budget ran out with work
 * left (call again). */
CG_API int cg_radeon_run(cg_radeon *rd);

/* Soft-reset the CP (GRBM_SOFT_RESET.SOFT_RESET_CP): drop IB state, waits and
 * the stop; rptr = wptr = 0. Memory and other registers are kept. */
CG_API int cg_radeon_cp_reset(cg_radeon *rd);

/* Draw and dispatch packets are decoded and recorded, not executed (R600
 * shader execution is outside the model). The log keeps the first
 * CG_RADEON_DRAW_LOG_MAX. */
#define CG_RADEON_DRAW_LOG_MAX 1024
typedef struct cg_radeon_draw {
    unsigned opcode;
    const char *name;
    uint64_t stream_addr;
    uint32_t count;  /* header count field */
    uint32_t dw[6];  /* first payload dwords */
} cg_radeon_draw;
CG_API size_t cg_radeon_draw_count(const cg_radeon *rd);
CG_API const cg_radeon_draw *cg_radeon_draw_get(const cg_radeon *rd, size_t i);

/* Events seen (EVENT_WRITE and EVENT_WRITE_EOP), SURFACE_SYNCs, interrupts
 * posted to the IH ring and interrupts dropped (source disabled or IH full). */
typedef struct cg_radeon_counters {
    uint64_t events, eops, surface_syncs, irqs_posted, irqs_dropped, ih_overflows;
} cg_radeon_counters;
CG_API void cg_radeon_counters_get(const cg_radeon *rd, cg_radeon_counters *c);

/* IH source ids (linux: r600.c r600_irq_process). */
enum {
    CG_RADEON_IH_CP_RB = 176,  /* CP_INT in ring buffer */
    CG_RADEON_IH_CP_IB1 = 177, /* CP_INT in IB1 */
    CG_RADEON_IH_CP_IB2 = 178, /* CP_INT in IB2 */
    CG_RADEON_IH_CP_EOP = 181, /* CP EOP event */
};

/* ---- PM4 encoding helpers (as the Linux PACKET0/2/3 macros) ------------- */
#define CG_RADEON_PACKET0(reg, n) ((uint32_t)(((reg) >> 2) & 0xFFFF) | ((uint32_t)((n) & 0x3FFF) << 16))
#define CG_RADEON_PACKET2(v) (0x80000000u | ((uint32_t)(v) & 0x3FFFFFFFu))
#define CG_RADEON_PACKET3(op, n) (0xC0000000u | ((uint32_t)((op) & 0xFF) << 8) | ((uint32_t)((n) & 0x3FFF) << 16))

/* ---- driver side (Linux radeon shaped) --------------------------------- */

typedef struct cg_radeon_drv_config {
    uint32_t ring_bytes;      /* ring size; rounded up to a power of two >= 64 dwords; 0: 64 KiB */
    uint32_t ib_dw;           /* dwords per IB in the pool; 0: 256 (as r600_ib_test) */
    uint32_t nib;             /* IBs in the pool; 0: 16 */
    uint32_t usec_timeout;    /* polling budget of ring/ib tests and waits; 0: 100000 */
    bool use_scratch_fence;   /* fences via scratch + PACKET0(CP_INT_STATUS) (no events) */
    bool no_writeback;        /* RB_NO_UPDATE: rptr read by MMIO, scratch not mirrored */
    uint32_t lockup_polls;    /* lockup timeout in fence-wait polls; 0: 10000 (radeon: 10 s) */
} cg_radeon_drv_config;

/* Bring-up as r600_cp_resume + r600_cp_start + IH init: allocates the ring,
 * writeback page, IH ring and IB pool in the GTT, programs the CP and IH
 * registers, emits ME_INITIALIZE. */
CG_API int cg_radeon_drv_create(cg_radeon *rd, const cg_radeon_drv_config *cfg,
                                cg_radeon_drv **out);
CG_API void cg_radeon_drv_destroy(cg_radeon_drv *drv);

/* Ring: lock reserves ndw (rounded up to the 16-dword fetch size) and fails
 * with CG_ERR_INVAL if that exceeds the ring; while the ring is too full it
 * waits on fences, CG_ERR_TIMEOUT if the CP never frees space. write
 * stores one dword (CG_ERR_RANGE past the locked amount); commit pads with
 * type-2 NOPs to a 16-dword boundary and publishes wptr; undo drops the
 * writes since lock. */
CG_API int cg_radeon_ring_lock(cg_radeon_drv *drv, unsigned ndw);
CG_API int cg_radeon_ring_write(cg_radeon_drv *drv, uint32_t v);
CG_API int cg_radeon_ring_unlock_commit(cg_radeon_drv *drv);
CG_API int cg_radeon_ring_unlock_undo(cg_radeon_drv *drv);
/* Ring figures: size in dwords, driver wptr, last known rptr, free dwords. */
CG_API void cg_radeon_ring_info(cg_radeon_drv *drv, uint32_t *size_dw, uint32_t *wptr,
                                uint32_t *rptr, uint32_t *free_dw);
CG_API uint64_t cg_radeon_ring_addr(const cg_radeon_drv *drv);
CG_API uint64_t cg_radeon_wb_addr(const cg_radeon_drv *drv); /* writeback page */

/* Scratch registers (radeon_scratch_get/free); one is kept for the IB
 * next-rptr record. */
CG_API int cg_radeon_scratch_get(cg_radeon_drv *drv, uint32_t *reg);
CG_API void cg_radeon_scratch_free(cg_radeon_drv *drv, uint32_t reg);

/* Fences. emit writes SURFACE_SYNC + EVENT_WRITE_EOP (or the scratch form)
 * into a locked ring and returns the 64-bit sequence number. */
CG_API int cg_radeon_fence_emit(cg_radeon_drv *drv, uint64_t *seq);
CG_API bool cg_radeon_fence_signaled(cg_radeon_drv *drv, uint64_t seq);
/* Wait until signalled. Deterministic: runs the CP and processes interrupts,
 * timeout in polls. Threaded: sleeps until the interrupt handler signals it,
 * timeout in microseconds. CG_ERR_TIMEOUT if it does not signal in time,
 * CG_ERR_BUSY on a lockup (see cg_radeon_gpu_reset). */
CG_API int cg_radeon_fence_wait(cg_radeon_drv *drv, uint64_t seq, uint32_t timeout_us);
/* Called once for every fence as it signals, in order (from the thread that
 * processes the interrupt: the IH thread in threaded mode), with the fence
 * lock held: it must not call back into the driver. */
CG_API void cg_radeon_fence_set_callback(cg_radeon_drv *drv, void (*fn)(void *user, uint64_t seq),
                                         void *user);
CG_API uint64_t cg_radeon_fence_last(cg_radeon_drv *drv);    /* last signalled seq */
CG_API uint64_t cg_radeon_fence_emitted(cg_radeon_drv *drv); /* last emitted seq */
/* Lockup handling (radeon_ring_test_lockup, radeon_gpu_reset). A fence wait
 * that sees rptr stuck for lockup_polls polls while fences are pending
 * declares a lockup and returns CG_ERR_BUSY (radeon: -EDEADLK); the caller
 * then calls cg_radeon_gpu_reset, which saves the ring dwords from the last
 * next-rptr record to wptr (radeon_ring_backup), soft-resets and restarts
 * the CP, replays the saved dwords and runs the ring test; if that fails
 * (the replay hung again) it resets once more without them and forces the
 * pending fences complete (radeon_fence_driver_force_completion). The messages
 * ("ring 0 stalled for more than N polls", "GPU lockup (...)", "Saved N
 * dwords of commands on ring 0.") go to cg_radeon_lockup_log. */
CG_API bool cg_radeon_lockup_detected(const cg_radeon_drv *drv);
CG_API int cg_radeon_gpu_reset(cg_radeon_drv *drv, uint32_t *saved_dw);
CG_API const char *cg_radeon_lockup_log(const cg_radeon_drv *drv);
CG_API unsigned cg_radeon_reset_count(const cg_radeon_drv *drv);

/* Drain the IH ring (r600_irq_process): returns the number of entries seen,
 * updates fences on 176/181. */
CG_API int cg_radeon_irq_process(cg_radeon_drv *drv);
CG_API uint64_t cg_radeon_irq_count(cg_radeon_drv *drv, unsigned src_id);

/* Indirect buffers. get returns a free IB from the pool (waiting on its
 * fence); the caller fills ptr[0..length_dw); schedule emits the next-rptr
 * record and INDIRECT_BUFFER (r600_ring_ib_execute), then a fence. */
typedef struct cg_radeon_ib {
    uint32_t *ptr;      /* CPU copy, written to memory by schedule */
    uint32_t length_dw;
    uint32_t max_dw;
    uint64_t gpu_addr;
    uint64_t fence;     /* seq after schedule */
    int slot;
} cg_radeon_ib;
CG_API int cg_radeon_ib_get(cg_radeon_drv *drv, cg_radeon_ib **ib);
CG_API int cg_radeon_ib_schedule(cg_radeon_drv *drv, cg_radeon_ib *ib);
CG_API void cg_radeon_ib_free(cg_radeon_drv *drv, cg_radeon_ib *ib);

/* r600_ring_test / r600_ib_test. The message ("ring test succeeded in N
 * usecs", or "ring test failed (scratch(0x8504)=0xCAFEDEAD)") goes to msg. */
CG_API int cg_radeon_ring_test(cg_radeon_drv *drv, char *msg, size_t cap);
CG_API int cg_radeon_ib_test(cg_radeon_drv *drv, char *msg, size_t cap);

CG_API cg_radeon *cg_radeon_drv_gpu(const cg_radeon_drv *drv);

/* ---- disassembler ------------------------------------------------------ */

typedef struct cg_radeon_disasm_opts {
    cg_radeon_gen gen;
    uint64_t base;  /* address of the first byte, shown in comments (0: offsets) */
    bool json;      /* one JSON object instead of text */
    /* Optional memory image at image_base: INDIRECT_BUFFERs pointing into it
     * are followed (IB1 and IB2) and shown as comment lines. */
    const uint8_t *image;
    size_t image_size;
    uint64_t image_base;
    /* Colour escapes (NULL: none): names, numbers, addresses, errors, comments, reset. */
    const char *c_name, *c_num, *c_addr, *c_err, *c_comment, *c_reset;
} cg_radeon_disasm_opts;

/* Disassemble PM4 words. Text output is valid input to the radeon assembler
 * (`cmdgpu asm -f radeon`), which rebuilds the same bytes: packets whose
 * header the mnemonics cannot express, and truncated packets, come out as
 * `.word`s with a comment saying why. Unknown opcodes are marked UNKNOWN.
 * Returns the number of packets marked bad (unknown, truncated, invalid for
 * the generation), or a negative cg_err. */
CG_API int cg_radeon_disasm(const cg_radeon_disasm_opts *o, const uint8_t *data, size_t size,
                            FILE *out);

/* ---- assembler plug-in and scenes ------------------------------------- */

/* Mnemonics (one statement per packet; the header's count comes from the
 * number of operands):
 *   NAME v1, v2, ...           a type-3 packet of the generation's table
 *   SET_xxx REG, v1, v2, ...   SET_* packets take the register address
 *   packet3 OPCODE, v1, ...    any opcode (unknown ones included)
 *   packet0 REG, v1, ...       type 0 (R500: packet0.one for ONE_REG_WR)
 *   packet1 REG0, REG1, v0, v1 type 1 (R500)
 *   packet2 [PAD]              type-2 filler
 * Register names (SCRATCH_REG0, CP_RB_CNTL, ...) are predefined symbols.
 * Directives: .gen r600|r700|evergreen|r500, and the scene directives
 * (recorded into a scene, cmdgpu/scene.h; see docs/radeon.md):
 *   .ring BYTES   .lenient   .submit SECTION   .ib SECTION   .fence   .wait
 *   .run   .write32 ADDR, V   .reg REG, V   .expect32 ADDR, V
 *   .expect_reg REG, V   .dump ADDR, NDW   .ring_test   .ib_test   .status
 *   .recover (wait for the last fence, expect a lockup, cg_radeon_gpu_reset)
 *   .map ADDR, BYTES   .map_ro ADDR, BYTES (new, read-only for the GPU)
 *   .fence_seq N (start the fence driver at N)
 * .map regions exist before the sections are loaded; every section is
 * loaded at its base address (a GPU address) first. A scene with no
 * directive submits its "text" section (or its first) through the ring. */
typedef struct cg_radeon_asm cg_radeon_asm;
CG_API int cg_radeon_asm_create(cg_radeon_gen gen, cg_radeon_asm **out);
CG_API void cg_radeon_asm_destroy(cg_radeon_asm *st);
CG_API const cg_asm_family *cg_radeon_asm_family(void); /* user = the cg_radeon_asm */
CG_API cg_radeon_gen cg_radeon_asm_gen(const cg_radeon_asm *st);
CG_API size_t cg_radeon_asm_action_count(const cg_radeon_asm *st);

/* The configuration a radeon scene carries (its CONFIG records). */
#define CG_CAPCFG_RADEON_GEN 1        /* cg_radeon_gen of the scene (.gen) */
#define CG_CAPCFG_RADEON_LENIENT 2    /* 1: .lenient */
#define CG_CAPCFG_RADEON_RING_BYTES 3 /* ring size (.ring), 0: default */

/* ---- radeon debugfs ring dump (src/radeon/text/ringdump.c) ------------------ */

enum {
    CG_RINGDUMP_MARK_RPTR = 1u << 0,      /* ' *' after the line: rptr */
    CG_RINGDUMP_MARK_RPTR_NEXT = 1u << 1, /* ' #' after the line: rptr next (saved) */
};

typedef struct cg_radeon_ringdump_entry {
    uint32_t index; /* ring dword index as printed */
    uint32_t value;
    uint32_t marks; /* CG_RINGDUMP_MARK_* */
    size_t file_offset; /* of its line */
} cg_radeon_ringdump_entry;

typedef struct cg_radeon_ringdump {
    bool old_form;            /* "wptr(0xREG): ..." header (kernels before 3.16 or so) */
    bool has_wptr, has_rptr, has_rptr_next, has_driver_wptr, has_driver_rptr;
    bool has_sem, has_free, has_count;
    uint32_t wptr, rptr;      /* the hardware pointers as printed */
    uint32_t wptr_reg, rptr_reg; /* old form only */
    uint32_t rptr_next, rptr_next_reg;
    uint32_t driver_wptr, driver_rptr;
    uint64_t sem_signal_addr, sem_wait_addr;
    uint32_t free_dw, count_dw; /* "N free dwords in ring", "N dwords in ring" */
    uint32_t ring_dw;         /* ring size in dwords: free + count, or from the indices */
    size_t nentries;
    cg_radeon_ringdump_entry *entries; /* in file order */
    size_t rptr_entry;        /* entries[] index where rptr is, nentries if not dumped */
    size_t wptr_entry;        /* first entry at wptr after rptr_entry, nentries if none */
} cg_radeon_ringdump;

CG_API int cg_radeon_ringdump_parse(const uint8_t *data, size_t size, cg_radeon_ringdump **out,
                                    cg_capture_error *err);
CG_API void cg_radeon_ringdump_free(cg_radeon_ringdump *d);
/* The listing: a header, the history before rptr as .word lines, the live
 * region rptr..wptr decoded packet by packet from rptr (the packet at rptr
 * and the saved rptr marked), and the dwords after wptr as .word lines. The
 * text reassembles (cmdgpu asm -f radeon) to the dumped dwords in file
 * order. o->base is ignored (comments show ring byte offsets). Returns the
 * number of bad packets in the live region, or a negative cg_err. */
CG_API int cg_radeon_ringdump_disasm(const cg_radeon_ringdump *d, const cg_radeon_disasm_opts *o,
                                     FILE *out);

typedef struct cg_radeon_ringdump_result {
    cg_radeon_cp_status status; /* after the run */
    uint32_t scratch[8];        /* SCRATCH_REG0..7 */
    size_t faults;              /* faults raised by the run */
    uint64_t ring_addr;         /* where the ring was placed */
} cg_radeon_ringdump_result;

/* Replay the live region (rptr to wptr) on a new radeon model of `dev`: the
 * ring is placed at the start of the GTT, the dumped dwords written at their
 * indices, the CP started at rptr and run until wptr (idle), a wait, a fault
 * or the budgets. Nothing else the ring refers to is in the dump: IBs,
 * fences and semaphores outside the model's VRAM/GTT windows fault as
 * unmapped. On success *rd (if not NULL) is the model, for inspection;
 * destroy it with cg_radeon_destroy. Returns 0 or a negative cg_err (set-up
 * failures only: GPU faults are in the device's log and res->faults). */
CG_API int cg_radeon_ringdump_replay(const cg_radeon_ringdump *d, cg_device *dev, cg_radeon_gen gen,
                                     cg_radeon_ringdump_result *res, cg_radeon **rd);

/* ---- radeon hang report (src/radeon/hangreport.c) ---------------------- */

/* A recorder attached to a device (a trace sink) keeps the last packets the
 * CP executed and the GPU's last memory writes; after a failed run
 * cg_radeon_hang_report prints where the CP stood when the first radeon CP
 * fault (or hang) since the recorder was made ended the run: that packet,
 * the packets before it, and what it waited on (the memory, register or
 * semaphore of WAIT_REG_MEM / MEM_SEMAPHORE, with the last value the GPU
 * wrote there). Use one recorder per device, on the device's thread. */
#define CG_RADEON_HANG_HISTORY 8
typedef struct cg_radeon_hang_recorder cg_radeon_hang_recorder;
CG_API int cg_radeon_hang_recorder_create(cg_device *dev, cg_radeon_hang_recorder **out);
CG_API void cg_radeon_hang_recorder_destroy(cg_radeon_hang_recorder *r); /* detaches; NULL ok */
/* Text (or one JSON object `{"hang":{...}}` with json) to out. Returns 1
 * when a report was written, 0 when no radeon CP fault was raised. */
CG_API int cg_radeon_hang_report(const cg_radeon_hang_recorder *r, bool json, FILE *out);

#ifdef __cplusplus
}
#endif
#endif
