/* Shared set-up for the nv tests: a GPU, an address space with a pushbuffer
 * and a data buffer mapped, channels, and helpers to submit words. */
#ifndef CMDGPU_TEST_NV_ENV_H
#define CMDGPU_TEST_NV_ENV_H
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "cmdgpu/cmdgpu.h"
#include "cmdgpu/nv.h"
#include "nv/tables/methods.h"

typedef struct nv_env {
    cg_device *dev;
    cg_nv_gpu *gpu;
    cg_nv_as *as;
    cg_vas *vas;
    cg_nv_channel *ch[2];
    uint64_t pb_va, pb_used, data_va;
    uint32_t pb_handle, data_handle;
} nv_env;

#define ENV_PB_SIZE (1u << 20)
#define ENV_DATA_SIZE (4u << 20)

static inline void env_init(nv_env *e)
{
    memset(e, 0, sizeof(*e));
    CHECK_EQ(cg_device_create(&e->dev), 0);
    CHECK_EQ(cg_nv_gpu_create(e->dev, &e->gpu), 0);
    CHECK_EQ(cg_nv_as_create(e->gpu, 0, &e->as), 0);
    e->vas = cg_nv_as_vas(e->as);
    CHECK_EQ(cg_nv_nvmap_create(e->gpu, ENV_PB_SIZE, &e->pb_handle), 0);
    CHECK_EQ(cg_nv_nvmap_alloc(e->gpu, e->pb_handle, CG_NV_NVMAP_HEAP_IOVMM, 0, 0x1000, 0), 0);
    CHECK_EQ(cg_nv_nvmap_create(e->gpu, ENV_DATA_SIZE, &e->data_handle), 0);
    CHECK_EQ(cg_nv_nvmap_alloc(e->gpu, e->data_handle, CG_NV_NVMAP_HEAP_IOVMM, 0, 0x1000, 0), 0);
    CHECK_EQ(cg_nv_as_map_buffer_ex(e->as, 0, -1, e->pb_handle, 0, 0, 0, &e->pb_va), 0);
    CHECK_EQ(cg_nv_as_map_buffer_ex(e->as, 0, -1, e->data_handle, 0, 0, 0, &e->data_va), 0);
    CHECK_EQ(cg_nv_channel_open(e->gpu, e->as, 0, &e->ch[0]), 0);
    CHECK_EQ(cg_nv_channel_open(e->gpu, e->as, 16, &e->ch[1]), 0);
}

static inline void env_fini(nv_env *e)
{
    cg_nv_gpu_destroy(e->gpu);
    cg_device_destroy(e->dev);
}

/* Copy words into the pushbuffer; returns their GPU address. */
static inline uint64_t env_put(nv_env *e, const uint32_t *w, size_t n)
{
    uint64_t va = e->pb_va + e->pb_used;
    CHECK_EQ(cg_vas_cpu_write(e->vas, va, w, n * 4), 0);
    e->pb_used += (n * 4 + 255) & ~(uint64_t)255;
    return va;
}

/* One GPFIFO entry for the words, submitted on channel c. */
static inline uint64_t env_submit(nv_env *e, int c, const uint32_t *w, size_t n)
{
    uint64_t va = env_put(e, w, n);
    uint64_t ent = cg_nv_gp_entry(va, (uint32_t)n, 0);
    CHECK_EQ(cg_nv_channel_submit_gpfifo(e->ch[c], &ent, 1, 0, NULL), 0);
    return va;
}

static inline uint32_t env_rd32(nv_env *e, uint64_t va)
{
    uint32_t v = 0xDEADBEEF;
    CHECK_EQ(cg_vas_cpu_read(e->vas, va, &v, 4), 0);
    return v;
}

static inline const cg_fault *env_last_fault(nv_env *e)
{
    size_t n = cg_fault_count(e->dev);
    return n ? cg_fault_get(e->dev, n - 1) : NULL;
}

static inline cg_nv_chstate env_state(nv_env *e, int c)
{
    cg_nv_channel_info info;
    cg_nv_channel_info_get(e->ch[c], &info);
    return info.state;
}

#define H_INC(s, m, n) cg_nv_hdr(1, s, m, n)
#define H_NONINC(s, m, n) cg_nv_hdr(3, s, m, n)
#define H_IMMD(s, m, v) cg_nv_hdr(4, s, m, v)
#define H_ONE(s, m, n) cg_nv_hdr(5, s, m, n)

#endif
