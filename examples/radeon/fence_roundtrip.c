/* radeon example: a fence round trip with an interrupt. The driver emits
 * SURFACE_SYNC + EVENT_WRITE_EOP (DATA_SEL 1, INT_SEL 2) with sequence
 * numbers; the CP writes each to the writeback page and posts IH source 181;
 * the interrupt handler (run at commit in deterministic mode) drains the IH
 * ring and signals the fences. */
#include <stdio.h>
#include "cmdgpu/cmdgpu.h"

int main(void)
{
    cg_device *dev;
    cg_radeon *rd;
    cg_radeon_drv *drv;
    if (cg_device_create(&dev) || cg_radeon_create(dev, NULL, &rd) ||
        cg_radeon_drv_create(rd, NULL, &drv)) {
        fprintf(stderr, "set-up failed\n");
        return 1;
    }
    int bad = 0;
    for (int i = 0; i < 3; i++) {
        uint64_t seq;
        cg_radeon_ring_lock(drv, 16);
        cg_radeon_fence_emit(drv, &seq);
        cg_radeon_ring_unlock_commit(drv);
        uint32_t wb;
        cg_radeon_cpu_read32(rd, cg_radeon_wb_addr(drv) + 3072, &wb);
        uint64_t irqs = cg_radeon_irq_count(drv, CG_RADEON_IH_CP_EOP);
        bool sig = cg_radeon_fence_last(drv) >= seq; /* set by the interrupt handler */
        printf("fence %llu: writeback 0x%08x, EOP interrupts so far %llu, %s\n",
               (unsigned long long)seq, wb, (unsigned long long)irqs,
               sig ? "signalled" : "NOT signalled");
        bad += !sig || wb != (uint32_t)seq || irqs != (uint64_t)i + 1;
    }
    printf("IH source 181 (CP EOP) seen %llu times\n",
           (unsigned long long)cg_radeon_irq_count(drv, CG_RADEON_IH_CP_EOP));
    cg_radeon_drv_destroy(drv);
    cg_radeon_destroy(rd);
    cg_device_destroy(dev);
    return bad ? 1 : 0;
}
