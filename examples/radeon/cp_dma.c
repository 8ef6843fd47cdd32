/* radeon example: a CP_DMA copy of 4 KiB from VRAM to the GTT, then a data
 * fill, fenced; the CPU checks the bytes. */
#include <stdio.h>
#include <string.h>
#include "cmdgpu/cmdgpu.h"

int main(void)
{
    cg_device *dev;
    cg_radeon *rd;
    cg_radeon_drv *drv;
    uint64_t src, dst;
    if (cg_device_create(&dev) || cg_radeon_create(dev, NULL, &rd) ||
        cg_radeon_drv_create(rd, NULL, &drv) || cg_radeon_alloc(rd, CG_RADEON_VRAM, 4096, 0, &src) ||
        cg_radeon_alloc(rd, CG_RADEON_GTT, 8192, 0, &dst)) {
        fprintf(stderr, "set-up failed\n");
        return 1;
    }
    uint8_t pattern[4096];
    for (int i = 0; i < 4096; i++)
        pattern[i] = (uint8_t)(i * 7 + 3);
    cg_radeon_cpu_write(rd, src, pattern, sizeof pattern);
    cg_radeon_ring_lock(drv, 32);
    /* CP_DMA: src lo, SRC_SEL 0 | src hi, dst lo, dst hi, BYTE_COUNT */
    uint32_t copy[] = {CG_RADEON_PACKET3(0x41, 4), (uint32_t)src, (uint32_t)(src >> 32),
                       (uint32_t)dst, (uint32_t)(dst >> 32), 4096};
    /* CP_DMA with SRC_SEL 2 (data): fill 64 bytes with 0xA5A5A5A5 */
    uint32_t fill[] = {CG_RADEON_PACKET3(0x41, 4), 0xA5A5A5A5, 2u << 29, (uint32_t)(dst + 4096),
                       (uint32_t)(dst >> 32), 64};
    for (int i = 0; i < 6; i++)
        cg_radeon_ring_write(drv, copy[i]);
    for (int i = 0; i < 6; i++)
        cg_radeon_ring_write(drv, fill[i]);
    uint64_t seq;
    cg_radeon_fence_emit(drv, &seq);
    cg_radeon_ring_unlock_commit(drv);
    int rc = cg_radeon_fence_wait(drv, seq, 1000);
    uint8_t back[4096 + 64];
    cg_radeon_cpu_read(rd, dst, back, sizeof back);
    int bad = rc != 0 || memcmp(back, pattern, 4096) != 0;
    for (int i = 0; i < 64; i++)
        bad += back[4096 + i] != 0xA5;
    printf("CP_DMA: copied 4096 bytes 0x%llx -> 0x%llx and filled 64: %s (fence %llu %s)\n",
           (unsigned long long)src, (unsigned long long)dst, bad ? "MISMATCH" : "bytes match",
           (unsigned long long)seq, rc ? cg_strerror(rc) : "signalled");
    cg_radeon_drv_destroy(drv);
    cg_radeon_destroy(rd);
    cg_device_destroy(dev);
    return bad ? 1 : 0;
}
