/* radeon family, GPU side: interrupts the CP posts to the IH ring
 * (linux r600.c r600_irq_process is the reader). */
#include <stdlib.h>
#include <string.h>
#include "cp_internal.h"

/* interrupts (IH ring)                                                    */

/* Post one IH entry: 16 bytes, dw0 = source id, dw1 = source data (linux
 * r600.c r600_irq_process reads `ring[i] & 0xff` and `ring[i+1] &
 * 0xfffffff`). The ring is IH_RB_BASE << 8, 4 << IH_IB_SIZE bytes (IH_IB_SIZE
 * is log2 of the size in dwords, r600_ih_ring_init); pointers are bytes.
 * When full the entry is dropped and RB_OVERFLOW set in IH_RB_WPTR (with
 * IH_WPTR_OVERFLOW_ENABLE), which the driver clears via
 * IH_RB_CNTL.IH_WPTR_OVERFLOW_CLEAR (r600_get_ih_wptr). */
int rd_post_irq(cg_radeon *rd, unsigned src_id, uint32_t src_data)
{
    uint32_t cntl = rd->regs[REG_IH_RB_CNTL / 4];
    if (cg_trace_enabled(rd->dev)) {
        cg_trace_event ev = {.kind = CG_TRACE_INTERRUPT, .family = CG_FAMILY_RADEON,
                             .unit = "ih", .channel = 0, .reg = src_id, .value = src_data,
                             .stream_addr = rd->agent.stream_addr};
        cg_trace_emit(rd->dev, &ev);
    }
    if (!RGET(cntl, IH_RB_CNTL, IH_RB_ENABLE)) {
        rd->counters.irqs_dropped++;
        return 0;
    }
    uint32_t size = 4u << RGET(cntl, IH_RB_CNTL, IH_IB_SIZE);
    if (size < 16 || size > (1u << 18)) /* WPTR_OFFSET_MASK is 0x3fffc */
        size = size < 16 ? 16 : (1u << 18);
    uint32_t mask = size - 1;
    uint32_t wreg = rd->regs[REG_IH_RB_WPTR / 4];
    uint32_t wptr = wreg & 0x3fffc & mask;
    uint32_t rptr = rd->regs[REG_IH_RB_RPTR / 4] & 0x3fffc & mask;
    if (((wptr + 16) & mask) == rptr) {
        rd->counters.irqs_dropped++;
        rd->counters.ih_overflows++;
        if (RGET(cntl, IH_RB_CNTL, IH_WPTR_OVERFLOW_ENABLE))
            rd->regs[REG_IH_RB_WPTR / 4] = wreg | RPUT(IH_RB_WPTR, RB_OVERFLOW, 1);
        return 0;
    }
    uint64_t base = (uint64_t)rd->regs[REG_IH_RB_BASE / 4] << 8;
    uint32_t e[4] = {src_id & 0xff, src_data & 0xfffffff, 0, 0};
    uint8_t b[16];
    for (int i = 0; i < 16; i++)
        b[i] = (uint8_t)(e[i / 4] >> (8 * (i % 4)));
    cg_agent save = rd->agent;
    rd->agent.unit = "ih";
    int rc = rd_gpu_write(rd, base + wptr, b, 16);
    rd->agent = save;
    if (rc != 0)
        return rc;
    wptr = (wptr + 16) & mask;
    rd->regs[REG_IH_RB_WPTR / 4] = (wreg & 1u) | wptr;
    rd->counters.irqs_posted++;
    rd->irq_seq++;
    if (rd->threaded)
        pthread_cond_broadcast(&rd->irq);
    if (RGET(cntl, IH_RB_CNTL, IH_WPTR_WRITEBACK_ENABLE)) {
        uint64_t wb = ((uint64_t)(rd->regs[REG_IH_RB_WPTR_ADDR_HI / 4] & 0xff) << 32) |
                      (rd->regs[REG_IH_RB_WPTR_ADDR_LO / 4] & ~3u);
        rd->agent.unit = "ih";
        rc = rd_gpu_write32(rd, wb, rd->regs[REG_IH_RB_WPTR / 4]);
        rd->agent = save;
    }
    return rc;
}

/* A CP interrupt: set the status bit; post to the IH if enabled. */
int rd_cp_interrupt(cg_radeon *rd, uint32_t stat_bit, uint32_t enable_bit, unsigned src)
{
    rd->regs[REG_CP_INT_STATUS / 4] |= stat_bit;
    int rc = 0;
    if (!(rd->regs[REG_CP_INT_CNTL / 4] & enable_bit))
        rd->counters.irqs_dropped++;
    else
        rc = rd_post_irq(rd, src, 0);
    /* after the fence (or other) write this interrupt follows and the IH
     * entry: a threaded fence waiter's acquire load of irq_raised sees both */
    atomic_fetch_add_explicit(&rd->irq_raised, 1, memory_order_release);
    return rc;
}
