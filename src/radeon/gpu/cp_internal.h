/* radeon family: the command processor's internals, shared by its files
 * (not installed).
 *
 * cp.c       the device, memory, faults, fetch, the run loop and its thread
 * cp_ih.c    interrupts the CP posts to the IH ring
 * cp_regs.c  the register file (MMIO side effects) and SET_* / type-0 writes
 * cp_exec.c  type-3 dispatch (opcode-indexed handler tables from pm4_*.def),
 *            NOP, draws, INDIRECT_BUFFER
 * cp_mem.c   memory packets: MEM_WRITE, COPY_DW, CP_DMA
 * cp_sync.c  waits, semaphores, events and syncs: WAIT_REG_MEM,
 *            MEM_SEMAPHORE, EVENT_WRITE(_EOP), SURFACE_SYNC, SET_PREDICATION,
 *            COND_EXEC */
#ifndef CMDGPU_RADEON_CP_INTERNAL_H
#define CMDGPU_RADEON_CP_INTERNAL_H

#include "radeon/radeon_internal.h"

#define MAX_RING_BUFSZ 22 /* 8 << 22 bytes = 32 MiB: far above any radeon ring */

/* The current stream: the ring (masked dword index) or an IB. */
typedef struct cpstream {
    uint64_t base;
    uint32_t size, mask, pos;
    bool ring;
} cpstream;

static inline uint64_t rd_s_va(const cpstream *s, uint32_t k)
{
    return s->base + 4ull * (s->ring ? ((s->pos + k) & s->mask) : (uint64_t)s->pos + k);
}

/* Contiguous dwords k.. of the stream that the fetch buffer holds
 * (refilling it): *p points at them, the return value is how many (>= 1),
 * or a negative error with the CP stopped. */
long rd_fetch_span(cg_radeon *rd, const cpstream *s, uint32_t k, const uint32_t **p);

static inline int rd_fetch(cg_radeon *rd, const cpstream *s, uint32_t k, uint32_t *v)
{
    const uint32_t *p = NULL; /* set whenever rd_fetch_span returns >= 0 */
    long n = rd_fetch_span(rd, s, k, &p);
    if (n < 0)
        return (int)n;
    *v = *p;
    return 0;
}

static inline uint64_t addr40(uint32_t lo, uint32_t hi) { return ((uint64_t)(hi & 0xff) << 32) | lo; }

/* Handler results: done, blocked (a wait), push the IB set up in rd->ib. */
enum { EXEC_OK = 0, EXEC_BLOCK = 1, EXEC_PUSH = 2 };

/* cp.c */
void rd_kick(cg_radeon *rd); /* the CP may progress: run it or wake its thread */
/* One bit per register dword: a write has side effects. Inline: the
 * register-write path asks for every register of a SET packet (out of line
 * after the cp.c split it cost 8% of the CP-only bench's instructions). */
static inline bool rd_is_special(const cg_radeon *rd, uint32_t reg)
{
    return (rd->special[reg >> 5] >> ((reg >> 2) & 7)) & 1;
}
static inline void rd_mark_special(cg_radeon *rd, uint32_t reg)
{
    rd->special[reg >> 5] |= (uint8_t)(1u << ((reg >> 2) & 7));
}
int rd_gpu_write32(cg_radeon *rd, uint64_t va, uint32_t v);
int rd_gpu_write64(cg_radeon *rd, uint64_t va, uint64_t v);
/* Post a fault from the CP with the current agent and stop the CP unless it
 * is a warning. */
int rd_cp_fault(cg_radeon *rd, cg_fault_kind kind, uint64_t addr, bool warning, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;
/* cp_ih.c */
int rd_post_irq(cg_radeon *rd, unsigned src_id, uint32_t src_data);
int rd_cp_interrupt(cg_radeon *rd, uint32_t stat_bit, uint32_t enable_bit, unsigned src);
/* cp_regs.c */
int rd_cp_reg_write(cg_radeon *rd, uint32_t reg, uint32_t v);
uint32_t rd_ring_dw(const cg_radeon *rd);
uint64_t rd_ring_base(const cg_radeon *rd);
bool rd_cp_busy(const cg_radeon *rd);
int rd_rptr_writeback(cg_radeon *rd);
void rd_cp_reset_nl(cg_radeon *rd);
int rd_reg_read_nl(cg_radeon *rd, uint32_t reg, uint32_t *val);
int rd_reg_write_nl(cg_radeon *rd, uint32_t reg, uint32_t v);
int rd_set_regs(cg_radeon *rd, const cpstream *s, uint32_t k, uint32_t reg, uint32_t n, bool inc);
/* cp_exec.c */
int rd_mem_read32(cg_radeon *rd, uint64_t va, uint32_t *v);
/* Execute a type-3 packet whose count+2 dwords are available. p[] holds the
 * header and up to 7 payload dwords (the fixed-size packets). */
int rd_exec_type3(cg_radeon *rd, const cpstream *s, uint32_t hdr, const uint32_t *p, uint32_t count);
/* cp_sync.c */
int rd_wait_more(cg_radeon *rd, const char *what, uint64_t addr);

/* The packet a handler executes: its stream, header, count field, and p[]
 * = the header and up to 7 payload dwords (the fixed-size packets). */
typedef struct rd_pkt {
    const cpstream *s;
    uint32_t hdr, count;
    const uint32_t *p;
} rd_pkt;

/* One handler per kind (rd_exec_NOP, rd_exec_SET, ...). */
typedef int (*rd_exec_fn)(cg_radeon *rd, const rd_pkt *x);
#define RD_EXEC_PROTO(k) int rd_exec_##k(cg_radeon *rd, const rd_pkt *x);
RD_P3_KINDS(RD_EXEC_PROTO)
#undef RD_EXEC_PROTO

#endif
