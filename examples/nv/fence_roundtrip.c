/* The nv driver API end to end, as a Switch homebrew would use it (seed 000):
 * nvmap handles, an address space, FIXED and placed MAP_BUFFER_EX, a
 * pushbuffer built from the method tables, SUBMIT_GPFIFO with a fence, a
 * fence wait, and the CPU reading the semaphore the GPU released. */
#include <stdio.h>
#include "cmdgpu/cmdgpu.h"

#define TRY(x)                                                                 \
    do {                                                                       \
        int rc_ = (x);                                                         \
        if (rc_ != 0) {                                                        \
            fprintf(stderr, "%s: %s (%s)\n", #x, cg_strerror(rc_),             \
                    cg_nv_gpu_last_error(gpu));                                \
            return 1;                                                          \
        }                                                                      \
    } while (0)

int main(void)
{
    cg_device *dev;
    cg_nv_gpu *gpu = NULL;
    cg_nv_as *as;
    cg_nv_channel *ch;
    if (cg_device_create(&dev) != 0)
        return 1;
    TRY(cg_nv_gpu_create(dev, &gpu));
    TRY(cg_nv_as_create(gpu, 0x20000, &as));

    /* NVMAP_IOC_CREATE + NVMAP_IOC_ALLOC, uncached (the seeds'
     * svcSetMemoryAttribute step) */
    uint32_t pb_h, sem_h;
    TRY(cg_nv_nvmap_create(gpu, 0x10000, &pb_h));
    TRY(cg_nv_nvmap_alloc(gpu, pb_h, CG_NV_NVMAP_HEAP_IOVMM, CG_NV_NVMAP_UNCACHEABLE, 0x1000, 0));
    TRY(cg_nv_nvmap_create(gpu, 0x1000, &sem_h));
    TRY(cg_nv_nvmap_alloc(gpu, sem_h, CG_NV_NVMAP_HEAP_IOVMM, CG_NV_NVMAP_UNCACHEABLE, 0x1000, 0));

    /* a FIXED map needs ALLOC_SPACE first; without it the call fails */
    uint64_t pb_va = 0x400000000ull;
    int rc = cg_nv_as_map_buffer_ex(as, CG_NV_AS_FIXED, -1, pb_h, 0, 0, 0, &pb_va);
    printf("FIXED map without ALLOC_SPACE: %s: %s\n", cg_strerror(rc), cg_nv_gpu_last_error(gpu));
    TRY(cg_nv_as_alloc_space(as, 16, 0x1000, CG_NV_AS_FIXED, &pb_va));
    TRY(cg_nv_as_map_buffer_ex(as, CG_NV_AS_FIXED, -1, pb_h, 0, 0, 0, &pb_va));
    uint64_t sem_va = 0;
    TRY(cg_nv_as_map_buffer_ex(as, 0, -1, sem_h, 0, 0, 0, &sem_va));
    printf("pushbuffer at 0x%010llx, semaphore at 0x%010llx\n", (unsigned long long)pb_va,
           (unsigned long long)sem_va);

    /* the pushbuffer: host semaphore release of 0x1234 (4-byte form) */
    uint32_t words[16];
    cg_nv_pb pb;
    cg_nv_pb_init(&pb, words, 16);
    cg_nv_pb_named(&pb, 0, CG_NV_CLASS_HOST, "SEMAPHOREA", (uint32_t)(sem_va >> 32));
    cg_nv_pb_named(&pb, 0, CG_NV_CLASS_HOST, "SEMAPHOREB", (uint32_t)sem_va);
    cg_nv_pb_named(&pb, 0, CG_NV_CLASS_HOST, "SEMAPHOREC", 0x1234);
    cg_nv_pb_named(&pb, 0, CG_NV_CLASS_HOST, "SEMAPHORED", 0x01000002);
    TRY(pb.err);
    TRY(cg_vas_cpu_write(cg_nv_as_vas(as), pb_va, words, pb.len * 4));

    TRY(cg_nv_channel_open(gpu, as, 0, &ch));
    uint64_t entry = cg_nv_gp_entry(pb_va, (uint32_t)pb.len, 0);
    cg_nv_fence fence;
    TRY(cg_nv_channel_submit_gpfifo(ch, &entry, 1, CG_NV_SUBMIT_FENCE_INCREMENT, &fence));
    printf("submitted %zu words; fence: syncpoint %u value %u\n", pb.len, fence.id, fence.value);
    TRY(cg_nv_fence_wait(gpu, fence, 100));
    uint32_t v = 0;
    TRY(cg_vas_cpu_read(cg_nv_as_vas(as), sem_va, &v, 4));
    printf("fence reached, syncpoint %u = %u; semaphore = 0x%x\n", fence.id,
           cg_nv_syncpt_read(gpu, fence.id), v);
    int ok = v == 0x1234 && cg_fault_count(dev) == 0 && rc == CG_ERR_NOENT;
    cg_nv_gpu_destroy(gpu);
    cg_device_destroy(dev);
    printf("%s\n", ok ? "ok" : "FAILED");
    return ok ? 0 : 1;
}
