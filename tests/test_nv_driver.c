/* nv: the driver API (nvmap, nvhost-as-gpu, channels) fails like the real
 * ioctls, with a message; SPARSE regions read zero; trace events for
 * interrupts; YIELD lets the other channel run. */
#include "nv_testenv.h"

static void test_nvmap_as(void)
{
    cg_device *dev;
    cg_nv_gpu *gpu;
    cg_nv_as *as;
    CHECK_EQ(cg_device_create(&dev), 0);
    CHECK_EQ(cg_nv_gpu_create(dev, &gpu), 0);
    CHECK_EQ(cg_nv_as_create(gpu, 12345, &as), CG_ERR_INVAL);
    CHECK_STR(cg_nv_gpu_last_error(gpu), "ALLOC_AS_EX: big page size 0x3039 is not 64 KiB or 128 KiB");
    CHECK_EQ(cg_nv_as_create(gpu, 0x10000, &as), 0);
    uint32_t h, h2;
    CHECK_EQ(cg_nv_nvmap_create(gpu, 0, &h), CG_ERR_INVAL);
    CHECK_EQ(cg_nv_nvmap_create(gpu, 0x3000, &h), 0);
    CHECK_EQ(cg_nv_nvmap_alloc(gpu, h + 100, 1, 0, 0, 0), CG_ERR_NOENT);
    CHECK_EQ(cg_nv_nvmap_alloc(gpu, h, 1, 0, 0x3000, 0), CG_ERR_INVAL);
    CHECK_STR(cg_nv_gpu_last_error(gpu), "NVMAP_IOC_ALLOC: alignment 0x3000 is not a power of two");
    uint64_t va = 0;
    CHECK_EQ(cg_nv_as_map_buffer_ex(as, 0, -1, h, 0, 0, 0, &va), CG_ERR_INVAL); /* not allocated */
    CHECK_STR(cg_nv_gpu_last_error(gpu), "MAP_BUFFER_EX: handle 1 has no memory (NVMAP_IOC_ALLOC first)");
    CHECK_EQ(cg_nv_nvmap_alloc(gpu, h, CG_NV_NVMAP_HEAP_IOVMM, 0, 0x1000, 0xFE), 0);
    CHECK_EQ(cg_nv_nvmap_alloc(gpu, h, CG_NV_NVMAP_HEAP_IOVMM, 0, 0x1000, 0), CG_ERR_BUSY);
    /* FIXED without ALLOC_SPACE */
    va = 0x200000000ull;
    CHECK_EQ(cg_nv_as_map_buffer_ex(as, CG_NV_AS_FIXED, -1, h, 0, 0, 0, &va), CG_ERR_NOENT);
    CHECK_STR(cg_nv_gpu_last_error(gpu), "MAP_BUFFER_EX: [0x200000000, +0x3000): FIXED needs a "
                                         "prior ALLOC_SPACE covering the range");
    /* ALLOC_SPACE: bad page size, fixed, overlap, sparse */
    uint64_t off = 0x200000000ull;
    CHECK_EQ(cg_nv_as_alloc_space(as, 4, 0x2000, CG_NV_AS_FIXED, &off), CG_ERR_INVAL);
    CHECK_EQ(cg_nv_as_alloc_space(as, 4, 0x1000, CG_NV_AS_FIXED | CG_NV_AS_SPARSE, &off), 0);
    CHECK_EQ(off, 0x200000000ull);
    uint64_t off2 = 0x200001000ull;
    CHECK_EQ(cg_nv_as_alloc_space(as, 1, 0x1000, CG_NV_AS_FIXED, &off2), CG_ERR_OVERLAP);
    CHECK_STR(cg_nv_gpu_last_error(gpu), "ALLOC_SPACE: [0x200001000, +0x1000): overlaps an existing "
                                         "region or mapping");
    /* the map fits in the region; the big-page kind makes it block linear */
    va = 0x200000000ull;
    CHECK_EQ(cg_nv_as_map_buffer_ex(as, CG_NV_AS_FIXED, -1, h, 0, 0, 0x2000, &va), 0);
    cg_mapping_info mi;
    CHECK_EQ(cg_vas_lookup(cg_nv_as_vas(as), va, &mi), 0);
    CHECK_EQ(mi.kind, 0xFE);
    CHECK_EQ(mi.layout, CG_LAYOUT_BLOCK_LINEAR);
    CHECK_EQ(mi.size, 0x2000);
    /* mapping too big for the handle */
    uint64_t va2 = 0;
    CHECK_EQ(cg_nv_as_map_buffer_ex(as, 0, 0, h, 0, 0x1000, 0x3000, &va2), CG_ERR_RANGE);
    /* placed map, pitch kind */
    CHECK_EQ(cg_nv_nvmap_create(gpu, 0x1000, &h2), 0);
    CHECK_EQ(cg_nv_nvmap_alloc(gpu, h2, 1, CG_NV_NVMAP_CACHEABLE, 0, 0), 0);
    CHECK_EQ(cg_nv_as_map_buffer_ex(as, 0, 0, h2, 0, 0, 0, &va2), 0);
    CHECK(va2 >= (0x10000ull << 10)); /* allocations start at big_page << 10 */
    CHECK_EQ(cg_vas_lookup(cg_nv_as_vas(as), va2, &mi), 0);
    CHECK_EQ(mi.layout, CG_LAYOUT_PITCH);
    /* sparse: the unmapped part of the region reads zero for the GPU */
    uint32_t v = 0xFFFFFFFF;
    CHECK_EQ(cg_vas_read32(cg_nv_as_vas(as), 0x200003000ull, &v, NULL), 0);
    CHECK_EQ(v, 0);
    /* unmap / free_space */
    CHECK_EQ(cg_nv_as_unmap(as, 0x200001000ull), CG_ERR_NOENT);
    CHECK_STR(cg_nv_gpu_last_error(gpu), "UNMAP: no mapping starts at 0x200001000");
    CHECK_EQ(cg_nv_as_free_space(as, 0x200000000ull, 3, 0x1000), CG_ERR_INVAL);
    CHECK_STR(cg_nv_gpu_last_error(gpu), "FREE_SPACE: 3 pages of 0x1000 do not match the region's "
                                         "size 0x4000");
    CHECK_EQ(cg_nv_as_free_space(as, 0x200000000ull, 4, 0x1000), 0);
    CHECK_EQ(cg_vas_lookup(cg_nv_as_vas(as), 0x200000000ull, &mi), CG_ERR_NOENT); /* unmapped too */
    CHECK_EQ(cg_nv_as_free_space(as, 0x200000000ull, 4, 0x1000), CG_ERR_NOENT);
    CHECK_EQ(cg_nv_as_map_buffer_ex(as, CG_NV_AS_REMAP, 0, h, 0, 0, 0, &va2), CG_ERR_UNSUPPORTED);
    CHECK_EQ(cg_nv_nvmap_free(gpu, h), 0);
    CHECK_EQ(cg_nv_nvmap_free(gpu, h), CG_ERR_NOENT);
    /* channels */
    cg_nv_channel *ch;
    CHECK_EQ(cg_nv_channel_open(gpu, as, 3, &ch), CG_ERR_INVAL);
    CHECK_EQ(cg_nv_channel_open(gpu, as, 4, &ch), 0);
    cg_nv_fence f = {500, 1};
    uint64_t e = 0;
    CHECK_EQ(cg_nv_channel_submit_gpfifo(ch, &e, 1, CG_NV_SUBMIT_FENCE_WAIT, &f), CG_ERR_INVAL);
    CHECK_EQ(cg_nv_channel_submit_gpfifo(ch, &e, 1, CG_NV_SUBMIT_FENCE_INCREMENT, NULL), CG_ERR_INVAL);
    cg_nv_channel_close(ch);
    cg_nv_gpu_destroy(gpu);
    cg_device_destroy(dev);
}

typedef struct tlog {
    int interrupts, fences, methods;
    uint32_t last_intr_reg;
    int order[8], norder;
} tlog;

static void sink(void *user, const cg_trace_event *ev)
{
    tlog *t = user;
    if (ev->kind == CG_TRACE_INTERRUPT) {
        t->interrupts++;
        t->last_intr_reg = ev->reg;
    } else if (ev->kind == CG_TRACE_FENCE) {
        t->fences++;
    } else if (ev->kind == CG_TRACE_METHOD) {
        t->methods++;
        if (ev->reg == NVB06F_SET_REFERENCE && t->norder < 8)
            t->order[t->norder++] = ev->channel * 100 + (int)ev->value;
    }
}

static void test_trace_and_yield(void)
{
    nv_env e;
    env_init(&e);
    tlog t = {0};
    CHECK(cg_trace_add(e.dev, sink, &t) >= 0);
    uint32_t w[16];
    size_t n = 0;
    w[n++] = H_IMMD(0, NVB06F_NON_STALL_INTERRUPT, 0);
    w[n++] = H_IMMD(0, NVB06F_SET_REFERENCE, 1);
    w[n++] = H_IMMD(0, NVB06F_YIELD, 0);
    w[n++] = H_IMMD(0, NVB06F_SET_REFERENCE, 2);
    env_submit(&e, 0, w, n);
    uint32_t w1[1] = {H_IMMD(0, NVB06F_SET_REFERENCE, 7)};
    env_submit(&e, 1, w1, 1);
    cg_nv_gpu_run(e.gpu);
    CHECK_EQ(t.interrupts, 1);
    CHECK_EQ(t.last_intr_reg, NVB06F_NON_STALL_INTERRUPT);
    CHECK_EQ(t.methods, 5);
    /* YIELD: channel 1 runs between channel 0's two SET_REFERENCEs */
    CHECK_EQ(t.norder, 3);
    CHECK_EQ(t.order[0], 1);
    CHECK_EQ(t.order[1], 107);
    CHECK_EQ(t.order[2], 2);
    env_fini(&e);
}

int main(void)
{
    test_nvmap_as();
    test_trace_and_yield();
    return check_report("test_nv_driver");
}
