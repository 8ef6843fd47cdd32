/* Fuzzes the render node behind libcmdgpu-drm with the nv family's kernel
 * interface (src/drm/node.c, src/nv/driver/kernel.c): the input is a
 * program's life on the node, a list of ioctls with their arguments (and
 * writes into mapped buffers), run through the same entry points the
 * preload library calls. Pointers inside arguments are the harness's own
 * arrays, or deliberately unmapped addresses; handles, indices, sizes and
 * classes are the input's. Any input must give the kernel's errnos and
 * GPU faults: never a crash, a leak, a hang or a sanitizer report.
 *
 * Record format (little endian), repeated until the input ends:
 *   op u8, then the op's fields (see the switch below). */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include "drm/drm.h"

#include "nv/driver/nouveau_abi.h"

typedef struct {
    int major, minor, patch;
    size_t name_len;
    char *name;
    size_t date_len;
    char *date;
    size_t desc_len;
    char *desc;
} version;

#define IOWR NOUVEAU_IOWR
#define IOW NOUVEAU_IOW
#define BAD_POINTER ((uint64_t)0x10) /* never mapped */

typedef struct {
    const uint8_t *p;
    size_t n;
} input;

static uint32_t take(input *in, int bytes)
{
    uint32_t v = 0;
    for (int i = 0; i < bytes; i++) {
        uint8_t b = 0;
        if (in->n) {
            b = *in->p++;
            in->n--;
        }
        v |= (uint32_t)b << (8 * i);
    }
    return v;
}

/* Write words into a buffer through its mmap, as a program does. */
static void write_words(drm_file *f, uint32_t handle, input *in)
{
    k_gem_info info = {.handle = handle};
    uint32_t off = take(in, 2) * 4;
    uint32_t count = take(in, 1);
    uint32_t words[255];
    for (uint32_t i = 0; i < count; i++)
        words[i] = take(in, 4);
    if (drm_file_ioctl(f, IOWR(0x44, k_gem_info), &info) != 0)
        return;
    int fd;
    uint64_t fd_off;
    if (drm_file_mmap(f, info.map_handle, info.size, &fd, &fd_off) != 0)
        return;
    uint8_t *map = mmap(NULL, info.size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, (off_t)fd_off);
    if (map == MAP_FAILED)
        return;
    for (uint32_t i = 0; i < count && off + 4 * (i + 1) <= info.size; i++)
        memcpy(map + off + 4 * i, &words[i], 4);
    munmap(map, info.size);
}

static void do_pushbuf(drm_file *f, input *in)
{
    k_pushbuf_bo bos[16];
    k_pushbuf_push push[16];
    k_pushbuf r = {.channel = take(in, 1)};
    r.nr_buffers = take(in, 1) % 17;
    for (uint32_t i = 0; i < r.nr_buffers; i++)
        bos[i] = (k_pushbuf_bo){.handle = take(in, 1), .presumed_valid = 1};
    r.nr_push = take(in, 1) % 17;
    for (uint32_t i = 0; i < r.nr_push; i++) {
        push[i].bo_index = take(in, 1);
        push[i].offset = take(in, 2) * 4ull;
        push[i].length = take(in, 2) * 4ull | (take(in, 1) & 1ull) << 23;
    }
    uint32_t flags = take(in, 1);
    r.buffers = (uint64_t)(uintptr_t)bos;
    r.push = (uint64_t)(uintptr_t)push;
    if (flags & 1)
        r.nr_push = 600; /* past the kernel's limit */
    if (flags & 2)
        r.push = BAD_POINTER;
    if (flags & 4)
        r.buffers = BAD_POINTER;
    if (flags & 8)
        r.nr_relocs = 1, r.relocs = BAD_POINTER;
    drm_file_ioctl(f, IOWR(0x41, k_pushbuf), &r);
}

static void do_raw(drm_file *f, input *in)
{
    uint8_t arg[256];
    unsigned long req = take(in, 4);
    for (size_t i = 0; i < 64; i++)
        arg[i] = (uint8_t)take(in, 1);
    memset(arg + 64, 0, sizeof arg - 64);
    if (_IOC_SIZE(req) > sizeof arg)
        req = (req & ~((unsigned long)_IOC_SIZEMASK << _IOC_SIZESHIFT)) |
              (unsigned long)sizeof arg << _IOC_SIZESHIFT;
    unsigned nr = _IOC_NR(req);
    if (nr == 0x00 || nr == 0x41) /* pointers the kernel writes or reads: see VERSION, PUSHBUF */
        memset(arg, 0, sizeof arg);
    drm_file_ioctl(f, req, (req & 1) ? (void *)(uintptr_t)BAD_POINTER : arg);
}

static void do_version(drm_file *f, input *in)
{
    char name[8], date[8], desc[8];
    version v = {.name_len = take(in, 1) % 9, .date_len = take(in, 1) % 9,
                 .desc_len = take(in, 1) % 9};
    v.name = name, v.date = date, v.desc = desc;
    if (take(in, 1) & 1)
        v.name = (char *)(uintptr_t)BAD_POINTER;
    drm_file_ioctl(f, _IOWR('d', 0x00, version), &v);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 4096)
        return 0;
    setenv("CMDGPU_DRM_LOG", "/dev/null", 0);
    drm_file *files[4] = {0};
    if (drm_file_open(&files[0]) != 0)
        return 0;
    drm_file *f = files[0];
    input in = {data, size};
    for (int ops = 0; in.n && ops < 256; ops++) {
        switch (take(&in, 1) % 14) {
        case 0: {
            k_getparam r = {.param = take(&in, 1)};
            drm_file_ioctl(f, IOWR(0x00, k_getparam), &r);
            break;
        }
        case 1: {
            k_channel_alloc r = {.fb_ctxdma_handle = take(&in, 4),
                                 .tt_ctxdma_handle = take(&in, 4)};
            drm_file_ioctl(f, IOWR(0x02, k_channel_alloc), &r);
            break;
        }
        case 2: {
            int32_t ch = (int32_t)take(&in, 1);
            drm_file_ioctl(f, IOW(0x03, int32_t), &ch);
            break;
        }
        case 3: {
            k_grobj_alloc r = {(int32_t)take(&in, 1), take(&in, 4), (int32_t)take(&in, 2)};
            drm_file_ioctl(f, IOW(0x04, k_grobj_alloc), &r);
            break;
        }
        case 4: {
            k_gpuobj_free r = {(int32_t)take(&in, 1), take(&in, 4)};
            drm_file_ioctl(f, IOW(0x06, k_gpuobj_free), &r);
            break;
        }
        case 5: {
            k_gem_new r = {0};
            r.info.size = take(&in, 3); /* up to 16 MiB */
            r.align = take(&in, 4);
            r.info.domain = take(&in, 1);
            r.info.tile_flags = take(&in, 4);
            drm_file_ioctl(f, IOWR(0x40, k_gem_new), &r);
            break;
        }
        case 6: {
            k_gem_info r = {.handle = take(&in, 1)};
            drm_file_ioctl(f, IOWR(0x44, k_gem_info), &r);
            break;
        }
        case 7: write_words(f, take(&in, 1), &in); break;
        case 8: do_pushbuf(f, &in); break;
        case 9: {
            k_cpu_prep r = {take(&in, 1), take(&in, 1)};
            drm_file_ioctl(f, IOW(0x42, k_cpu_prep), &r);
            break;
        }
        case 10: {
            uint32_t c[2] = {take(&in, 1), 0};
            drm_file_ioctl(f, DRM_IOCTL_GEM_CLOSE_, c);
            break;
        }
        case 11: do_raw(f, &in); break;
        case 12: do_version(f, &in); break;
        case 13: { /* another client, or back to one */
            unsigned i = take(&in, 1) % 4;
            if (!files[i] && drm_file_open(&files[i]) != 0)
                break;
            f = files[i];
            break;
        }
        }
    }
    for (int i = 0; i < 4; i++)
        drm_file_unref(files[i]);
    return 0;
}
