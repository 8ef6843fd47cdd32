/* radeon example: r600_ib_test from seed 004. The scratch write goes in a
 * 16-dword indirect buffer (padded with PACKET2), scheduled on the ring with
 * the next-rptr record and INDIRECT_BUFFER, fenced, then the scratch register
 * is polled. The ring contents are disassembled afterwards. */
#include <stdio.h>
#include <stdlib.h>
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
    char msg[128];
    int rc = cg_radeon_ib_test(drv, msg, sizeof msg);
    printf("%s\n", msg);
    /* The ring as the CP saw it: ME_INITIALIZE, then the IB call and fence. */
    uint32_t wptr;
    cg_radeon_ring_info(drv, NULL, &wptr, NULL, NULL);
    uint8_t ring[256 * 4];
    size_t bytes = 4u * (wptr < 256 ? wptr : 256);
    cg_radeon_cpu_read(rd, cg_radeon_ring_addr(drv), ring, bytes);
    cg_radeon_disasm_opts o = {.gen = CG_RADEON_R600, .base = cg_radeon_ring_addr(drv)};
    cg_radeon_disasm(&o, ring, bytes, stdout);
    cg_radeon_irq_process(drv);
    printf("fence: last signalled %llu, EOP interrupts %llu\n",
           (unsigned long long)cg_radeon_fence_last(drv),
           (unsigned long long)cg_radeon_irq_count(drv, CG_RADEON_IH_CP_EOP));
    cg_radeon_drv_destroy(drv);
    cg_radeon_destroy(rd);
    cg_device_destroy(dev);
    return rc ? 1 : 0;
}
