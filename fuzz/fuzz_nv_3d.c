/* Fuzzes the MAXWELL_B 3D engine (draws, vertex and index fetch, draw
 * records, texture lookups, and whatever else B197 methods reach): the input
 * is a list of 6-byte records (method byte offset u16, value u32, little
 * endian), sent one method each on subchannel 0 after B197 is bound there.
 * Memory: a 64 KiB pushbuffer at 0x100000000 and a 64 KiB data buffer at
 * 0x100010000 (the only memory there is); the operation limit is small, so
 * a draw has at most a few vertices. A draw callback prints every record as
 * JSON to /dev/null and decodes small textures. Any input must give draws or
 * faults: never a crash, a leak, a hang or a sanitizer report. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmdgpu/cmdgpu.h"
#include "cmdgpu/nv.h"
#include "cmdgpu/nv3d.h"

#define PB_VA 0x100000000ull
#define DATA_VA 0x100010000ull
#define MAX_RECORDS 8000 /* 2 words each, plus the bind: fits the pushbuffer */

static void on_draw(void *user, const cg_nv_draw *d)
{
    FILE *f = user;
    cg_nv_draw_print_json(f, d);
    for (size_t i = 0; i < d->ntextures; i++) {
        const cg_nv_tic *t = &d->textures[i].tic;
        uint8_t *rgba;
        uint32_t w, h;
        /* small textures only: a fuzzer looks for bugs, not work */
        if (d->textures[i].tic_ok && (uint64_t)t->width * t->height <= 4096 &&
            cg_nv_tex_read_rgba8(d->vas, t, &rgba, &w, &h) == 0)
            free(rgba);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t nrec = size / 6;
    if (nrec > MAX_RECORDS)
        return 0;
    uint32_t *w = malloc(4 * (2 * nrec + 2));
    if (!w)
        return 0;
    size_t n = 0;
    w[n++] = cg_nv_hdr(1, 0, 0, 1);
    w[n++] = 0xB197;
    for (size_t i = 0; i < nrec; i++) {
        const uint8_t *r = data + 6 * i;
        uint32_t m = ((uint32_t)r[0] | (uint32_t)r[1] << 8) & 0x3FFC;
        w[n++] = cg_nv_hdr(1, 0, m, 1);
        w[n++] = (uint32_t)r[2] | (uint32_t)r[3] << 8 | (uint32_t)r[4] << 16 |
                 (uint32_t)r[5] << 24;
    }
    FILE *devnull = fopen("/dev/null", "w");
    cg_device *dev;
    if (!devnull || cg_device_create(&dev) != 0) {
        if (devnull)
            fclose(devnull);
        free(w);
        return 0;
    }
    cg_nv_gpu *gpu = NULL;
    cg_nv_as *as;
    cg_nv_channel *ch;
    uint32_t hp, hd;
    uint64_t va;
    if (cg_nv_gpu_create(dev, &gpu))
        goto out0;
    cg_nv_gpu_set_op_limit(gpu, 16u << 10);
    cg_nv_gpu_set_draw_callback(gpu, on_draw, devnull);
    if (cg_nv_as_create(gpu, 0, &as) || cg_nv_nvmap_create(gpu, 0x10000, &hp) ||
        cg_nv_nvmap_alloc(gpu, hp, 1, 0, 0, 0) || cg_nv_nvmap_create(gpu, 0x10000, &hd) ||
        cg_nv_nvmap_alloc(gpu, hd, 1, 0, 0, 0))
        goto out;
    va = PB_VA;
    if (cg_nv_as_alloc_space(as, 32, 0x1000, CG_NV_AS_FIXED, &va) ||
        cg_nv_as_map_buffer_ex(as, CG_NV_AS_FIXED, 0, hp, 0, 0, 0, &va))
        goto out;
    va = DATA_VA;
    if (cg_nv_as_map_buffer_ex(as, CG_NV_AS_FIXED, 0, hd, 0, 0, 0, &va))
        goto out;
    cg_vas_cpu_write(cg_nv_as_vas(as), PB_VA, w, n * 4);
    /* the data buffer holds the input too: vertices, indices, handles, TICs */
    cg_vas_cpu_write(cg_nv_as_vas(as), DATA_VA, data, size < 0x10000 ? size : 0x10000);
    if (cg_nv_channel_open(gpu, as, 8, &ch))
        goto out;
    uint64_t ent = cg_nv_gp_entry(PB_VA, (uint32_t)n, 0);
    cg_nv_channel_submit_gpfifo(ch, &ent, 1, 0, NULL);
    cg_nv_gpu_finish(gpu);
out:
    cg_nv_gpu_destroy(gpu);
out0:
    cg_device_destroy(dev);
    fclose(devnull);
    free(w);
    return 0;
}
