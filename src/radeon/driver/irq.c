/* radeon family, driver side: the interrupt handler, shaped like linux
 * r600_irq_process (r600.c): the IH ring drained from rptr to the written-back
 * wptr, fences signalled on CP interrupts; and the driver's delay helper. */
#include <time.h>
#include "radeon/radeon_internal.h"

uint64_t cg_radeon_irq_count(cg_radeon_drv *drv, unsigned src_id)
{
    rd_flock(drv);
    uint64_t v = src_id < 256 ? drv->irq_counts[src_id] : 0;
    rd_funlock(drv);
    return v;
}

/* r600_irq_process: read wptr (writeback copy), handle entries from rptr to
 * wptr, write IH_RB_RPTR, re-read wptr and repeat until drained. On overflow
 * (RB_OVERFLOW) skip to the oldest entry not overwritten and clear it via
 * IH_WPTR_OVERFLOW_CLEAR (r600_get_ih_wptr). Called with fence_lock held. */
int rd_irq_process_locked(cg_radeon_drv *drv)
{
    cg_radeon *rd = drv->gpu;
    uint32_t mask = drv->ih_dw * 4 - 1;
    int handled = 0;
    for (int round = 0; round < 4; round++) {
        uint32_t wptr;
        if (cg_radeon_cpu_read32(rd, drv->wb_gpu + WB_IH_WPTR, &wptr) != 0)
            return CG_ERR_FAULT;
        if (RGET(wptr, IH_RB_WPTR, RB_OVERFLOW)) {
            wptr &= ~RPUT(IH_RB_WPTR, RB_OVERFLOW, 1);
            drv->ih_rptr = (wptr + 16) & mask;
            uint32_t cntl;
            cg_radeon_reg_read(rd, REG_IH_RB_CNTL, &cntl);
            cg_radeon_reg_write(rd, REG_IH_RB_CNTL,
                                cntl | RPUT(IH_RB_CNTL, IH_WPTR_OVERFLOW_CLEAR, 1));
        }
        wptr &= mask;
        if (wptr == drv->ih_rptr)
            break;
        bool fence = false;
        while (drv->ih_rptr != wptr) {
            uint32_t src_id;
            if (cg_radeon_cpu_read32(rd, drv->ih_gpu + drv->ih_rptr, &src_id) != 0)
                return CG_ERR_FAULT;
            src_id &= 0xff;
            drv->irq_counts[src_id]++;
            if (src_id == CG_RADEON_IH_CP_RB || src_id == CG_RADEON_IH_CP_EOP)
                fence = true;
            drv->ih_rptr = (drv->ih_rptr + 16) & mask;
            handled++;
        }
        cg_radeon_reg_write(rd, REG_IH_RB_RPTR, drv->ih_rptr);
        if (fence)
            rd_fence_process(drv);
    }
    return handled;
}

int cg_radeon_irq_process(cg_radeon_drv *drv)
{
    if (!drv)
        return CG_ERR_INVAL;
    rd_flock(drv);
    int n = rd_irq_process_locked(drv);
    rd_funlock(drv);
    return n;
}

/* The interrupt handler thread (threaded mode): sleeps until the CP posts an
 * interrupt, then drains the IH ring like r600_irq_process, signalling
 * fences and waking their waiters. */
void *rd_ih_thread(void *arg)
{
    cg_radeon_drv *drv = arg;
    uint64_t seen = 0;
    while (!rd_irq_wait(drv->gpu, &seen, &drv->ih_stop))
        cg_radeon_irq_process(drv);
    return NULL;
}

void rd_udelay(cg_radeon_drv *drv)
{
    if (drv->threaded) {
        struct timespec ts = {0, 1000};
        nanosleep(&ts, NULL);
    }
}

