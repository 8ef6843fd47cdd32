/* nv family: nouveau's kernel ABI (Linux include/uapi/drm/nouveau_drm.h
 * and drm.h), written from the ABI for the kernel interface in user space
 * (driver/kernel.c) and for the programs that test it (tests/gl/drm_hostile.c,
 * fuzz/fuzz_drm_nv.c): ioctl numbers, GETPARAM parameters, the argument
 * structs with their sizes asserted. */
#ifndef CMDGPU_NV_NOUVEAU_ABI_H
#define CMDGPU_NV_NOUVEAU_ABI_H

#include <stdint.h>
#include <sys/ioctl.h>

enum { /* the driver's ioctl numbers, DRM_COMMAND_BASE + nr */
    NR_GETPARAM = 0x00, NR_SETPARAM = 0x01, NR_CHANNEL_ALLOC = 0x02, NR_CHANNEL_FREE = 0x03,
    NR_GROBJ_ALLOC = 0x04, NR_NOTIFIEROBJ_ALLOC = 0x05, NR_GPUOBJ_FREE = 0x06, NR_NVIF = 0x07,
    NR_SVM_INIT = 0x08, NR_SVM_BIND = 0x09, NR_GEM_NEW = 0x40, NR_GEM_PUSHBUF = 0x41,
    NR_GEM_CPU_PREP = 0x42, NR_GEM_CPU_FINI = 0x43, NR_GEM_INFO = 0x44,
};

enum { /* NOUVEAU_GETPARAM_* */
    P_PCI_VENDOR = 3, P_PCI_DEVICE = 4, P_BUS_TYPE = 5, P_FB_SIZE = 8, P_AGP_SIZE = 9,
    P_CHIPSET_ID = 11, P_VM_VRAM_BASE = 12, P_GRAPH_UNITS = 13, P_PTIMER_TIME = 14,
    P_HAS_BO_USAGE = 15, P_HAS_PAGEFLIP = 16,
};

enum { DOMAIN_VRAM = 1u << 1, DOMAIN_GART = 1u << 2 };
enum { MAX_PUSH = 512, MAX_BUFFERS = 1024, MAX_RELOCS = 1024 };
enum { CPU_PREP_NOWAIT = 1 };
#define PUSH_NO_PREFETCH (1ull << 23) /* NOUVEAU_GEM_PUSHBUF_NO_PREFETCH */

typedef struct { uint64_t param, value; } k_getparam;
typedef struct {
    uint32_t fb_ctxdma_handle, tt_ctxdma_handle;
    int32_t channel;
    uint32_t pushbuf_domains, notifier_handle;
    struct { uint32_t handle, grclass; } subchan[8];
    uint32_t nr_subchan;
} k_channel_alloc;
typedef struct { int32_t channel; } k_channel_free;
typedef struct { int32_t channel; uint32_t handle; int32_t oclass; } k_grobj_alloc;
typedef struct { int32_t channel; uint32_t handle; } k_gpuobj_free;
typedef struct {
    uint32_t handle, domain;
    uint64_t size, offset, map_handle;
    uint32_t tile_mode, tile_flags;
} k_gem_info;
typedef struct { k_gem_info info; uint32_t channel_hint, align; } k_gem_new;
typedef struct {
    uint64_t user_priv;
    uint32_t handle, read_domains, write_domains, valid_domains;
    uint32_t presumed_valid, presumed_domain;
    uint64_t presumed_offset;
} k_pushbuf_bo;
typedef struct { uint32_t bo_index, pad; uint64_t offset, length; } k_pushbuf_push;
typedef struct {
    uint32_t channel, nr_buffers;
    uint64_t buffers;
    uint32_t nr_relocs, nr_push;
    uint64_t relocs, push;
    uint32_t suffix0, suffix1;
    uint64_t vram_available, gart_available;
} k_pushbuf;
typedef struct { uint32_t handle, flags; } k_cpu_prep;
typedef struct { uint32_t handle; } k_cpu_fini;

_Static_assert(sizeof(k_channel_alloc) == 88, "drm_nouveau_channel_alloc");
_Static_assert(sizeof(k_gem_info) == 40, "drm_nouveau_gem_info");
_Static_assert(sizeof(k_gem_new) == 48, "drm_nouveau_gem_new");
_Static_assert(sizeof(k_pushbuf_bo) == 40, "drm_nouveau_gem_pushbuf_bo");
_Static_assert(sizeof(k_pushbuf_push) == 24, "drm_nouveau_gem_pushbuf_push");
_Static_assert(sizeof(k_pushbuf) == 64, "drm_nouveau_gem_pushbuf");

/* The request codes a program passes to ioctl (DRM_IOWR('d', 0x40 + nr, T)
 * and friends, as drmCommandWriteRead builds them). */
#define NOUVEAU_IOWR(nr, T) _IOWR('d', 0x40 + (nr), T)
#define NOUVEAU_IOW(nr, T) _IOW('d', 0x40 + (nr), T)
#define DRM_IOCTL_GEM_CLOSE_ _IOC(_IOC_WRITE, 'd', 0x09, 8) /* struct drm_gem_close */

#endif
