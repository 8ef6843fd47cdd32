/* radeon example: bring the CP up as r600_cp_resume / r600_cp_start do, then
 * run r600_ring_test from seed 004: scratch := 0xCAFEDEAD by MMIO, three
 * dwords through the ring write 0xDEADBEEF, poll the scratch register. */
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
    char msg[128];
    int rc = cg_radeon_ring_test(drv, msg, sizeof msg);
    printf("%s\n", msg);
    uint32_t size, wptr, rptr, free_dw;
    cg_radeon_ring_info(drv, &size, &wptr, &rptr, &free_dw);
    printf("ring: %u dwords at 0x%llx, wptr %u, rptr %u, free %u\n", size,
           (unsigned long long)cg_radeon_ring_addr(drv), wptr, rptr, free_dw);
    cg_radeon_drv_destroy(drv);
    cg_radeon_destroy(rd);
    cg_device_destroy(dev);
    return rc ? 1 : 0;
}
