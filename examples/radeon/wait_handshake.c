/* radeon example: a WAIT_REG_MEM handshake between the CPU and the CP. The
 * CP waits for a flag in VRAM; the CPU's write of the flag wakes it, and the
 * MEM_WRITE behind the wait lands only then. (Also as a scene:
 * cmdgpu run -f radeon examples/radeon/wait_handshake.s) */
#include <stdio.h>
#include "cmdgpu/cmdgpu.h"

#define FLAG 0x1000
#define RESULT 0x1008

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
    cg_radeon_ring_lock(drv, 16);
    /* WAIT_REG_MEM: memory space, function 3 (equal), mask 0xff, ref 0x42 */
    static const uint32_t pkt[] = {CG_RADEON_PACKET3(0x3C, 5), 3 | (1u << 4), FLAG, 0, 0x42, 0xff, 10,
                                   CG_RADEON_PACKET3(0x3D, 3), RESULT, 1u << 18, 0x600D, 0};
    for (unsigned i = 0; i < sizeof pkt / sizeof pkt[0]; i++)
        cg_radeon_ring_write(drv, pkt[i]);
    cg_radeon_ring_unlock_commit(drv);
    cg_radeon_cp_status st;
    uint32_t result;
    cg_radeon_cp_get_status(rd, &st);
    cg_radeon_cpu_read32(rd, RESULT, &result);
    printf("after commit: cp %s, result 0x%x\n", cg_radeon_cp_state_name(st.state), result);
    int bad = st.state != CG_RADEON_CP_WAITING || result != 0;
    cg_radeon_cpu_write32(rd, FLAG, 0x42);
    cg_radeon_cp_get_status(rd, &st);
    cg_radeon_cpu_read32(rd, RESULT, &result);
    printf("after the CPU wrote the flag: cp %s, result 0x%x\n", cg_radeon_cp_state_name(st.state),
           result);
    bad += st.state != CG_RADEON_CP_IDLE || result != 0x600D;
    cg_radeon_drv_destroy(drv);
    cg_radeon_destroy(rd);
    cg_device_destroy(dev);
    return bad ? 1 : 0;
}
