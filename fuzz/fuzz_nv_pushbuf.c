/* Fuzzes the nv pushbuffer decoder and executor, and the disassembler: the
 * input is a pushbuffer, placed in a 64 KiB mapped buffer next to a 64 KiB
 * data buffer (the only memory there is), split into up to four GPFIFO
 * entries by its first byte, and executed on two channels (the second after
 * the first, with every engine bound) until nothing more can happen. Any
 * input must give a result or faults: never a crash, a leak, a hang or a
 * sanitizer report. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmdgpu/cmdgpu.h"
#include "cmdgpu/nv.h"

#define PB_VA 0x100000000ull
#define DATA_VA 0x100010000ull

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 || size > 0x10000 + 1)
        return 0;
    uint8_t split = data[0];
    data++, size--;
    size_t nwords = size / 4;

    /* the disassembler must take any words */
    uint32_t *w = malloc(nwords * 4 + 4);
    if (!w)
        return 0;
    memcpy(w, data, nwords * 4);
    FILE *devnull = fopen("/dev/null", "w");
    if (devnull) {
        cg_nv_disasm_opts o = {0};
        o.json = split & 1;
        cg_nv_disasm(w, nwords, &o, devnull);
        fclose(devnull);
    }

    cg_device *dev;
    if (cg_device_create(&dev) != 0) {
        free(w);
        return 0;
    }
    cg_nv_gpu *gpu = NULL;
    cg_nv_as *as;
    uint32_t hp, hd;
    cg_nv_channel *ch0, *ch1;
    uint64_t va;
    if (cg_nv_gpu_create(dev, &gpu))
        goto out0;
    /* engine operations stay small: the fuzzer looks for bugs, not work */
    cg_nv_gpu_set_op_limit(gpu, 16u << 10);
    if (cg_nv_as_create(gpu, 0, &as) ||
        cg_nv_nvmap_create(gpu, 0x10000, &hp) || cg_nv_nvmap_alloc(gpu, hp, 1, 0, 0, 0) ||
        cg_nv_nvmap_create(gpu, 0x10000, &hd) || cg_nv_nvmap_alloc(gpu, hd, 1, 0, 0, 0))
        goto out;
    va = PB_VA;
    if (cg_nv_as_alloc_space(as, 32, 0x1000, CG_NV_AS_FIXED, &va) ||
        cg_nv_as_map_buffer_ex(as, CG_NV_AS_FIXED, 0, hp, 0, 0, 0, &va))
        goto out;
    va = DATA_VA;
    if (cg_nv_as_map_buffer_ex(as, CG_NV_AS_FIXED, 0, hd, 0, 0, 0, &va))
        goto out;
    cg_vas_cpu_write(cg_nv_as_vas(as), PB_VA, w, nwords * 4);
    if (cg_nv_channel_open(gpu, as, 8, &ch0) || cg_nv_channel_open(gpu, as, 8, &ch1))
        goto out;
    /* entries: split the words at points picked by the split byte */
    uint64_t ents[4];
    size_t ne = 0, start = 0;
    size_t parts = 1 + (split >> 6);
    for (size_t p = 0; p < parts; p++) {
        size_t end = p + 1 == parts ? nwords : start + (nwords - start) * ((split & 0x3F) + 1) / 65;
        ents[ne++] = cg_nv_gp_entry(PB_VA + 4 * start, (uint32_t)(end - start),
                                    (split & 0x20) ? CG_NV_GP_SYNC_WAIT : 0);
        start = end;
    }
    cg_nv_fence f;
    cg_nv_channel_submit_gpfifo(ch0, ents, (uint32_t)ne, CG_NV_SUBMIT_FENCE_INCREMENT, &f);
    cg_nv_gpu_run(gpu);
    /* channel 1: bind every engine, then the same stream */
    static const uint32_t bind[10] = {0x20010000, 0xB197, 0x20012000, 0xB1C0, 0x20014000, 0xA140,
                                      0x20016000, 0x902D, 0x20018000, 0xB0B5};
    cg_vas_cpu_write(cg_nv_as_vas(as), DATA_VA + 0xFF00, bind, sizeof(bind));
    uint64_t b = cg_nv_gp_entry(DATA_VA + 0xFF00, 10, 0);
    cg_nv_channel_submit_gpfifo(ch1, &b, 1, 0, NULL);
    cg_nv_channel_submit_gpfifo(ch1, ents, (uint32_t)ne, 0, NULL);
    cg_nv_gpu_finish(gpu);
    cg_nv_fence_wait(gpu, f, 1);
out:
    cg_nv_gpu_destroy(gpu);
out0:
    cg_device_destroy(dev);
    free(w);
    return 0;
}
