/* The CPU-cache coherency model: missing flush, missing invalidate, GPU write
 * over a dirty line, under the OFF, WARN and FAULT policies, through object
 * views and through GPU mappings. Every fault field is checked. */
#include <stdlib.h>
#include "check.h"
#include "cmdgpu/cmdgpu.h"
#include "core/mem_internal.h"

#define VA 0x100000ull /* where the cached object is mapped */

static const cg_agent ce = {
    .family = CG_FAMILY_NV, .unit = "ce", .channel = 2, .stream_addr = 0x4000,
    .words = {0x20018000, 0x00000005}, .nwords = 2,
};

static bool contains(const char *hay, const char *needle)
{
    return hay && strstr(hay, needle) != NULL;
}

static bool all_bytes(const uint8_t *p, size_t n, uint8_t v)
{
    for (size_t i = 0; i < n; i++)
        if (p[i] != v)
            return false;
    return true;
}

typedef struct fixture {
    cg_device *dev;
    cg_vas *vas;
    cg_mem *mem; /* 16 KiB, CG_MEM_CPU_CACHED, mapped cached at VA */
} fixture;

static void setup(fixture *fx, cg_coherency policy)
{
    CHECK_EQ(cg_device_create(&fx->dev), 0);
    cg_device_set_coherency(fx->dev, policy);
    CHECK_EQ(cg_device_coherency(fx->dev), policy);
    cg_vas_config c = {.va_bits = 32};
    CHECK_EQ(cg_vas_create(fx->dev, &c, &fx->vas), 0);
    CHECK_EQ(cg_mem_create(fx->dev, 16 * 1024, CG_MEM_CPU_CACHED, &fx->mem), 0);
    cg_map_params p = {.mem = fx->mem, .va = VA, .flags = CG_MAP_FIXED | CG_MAP_CPU_CACHED};
    CHECK_EQ(cg_vas_map(fx->vas, &p, NULL), 0);
}

static void teardown(fixture *fx)
{
    cg_mem_unref(fx->mem);
    cg_device_destroy(fx->dev);
}

static void lines(const fixture *fx, size_t want_dirty, size_t want_clean)
{
    size_t d = 99, c = 99;
    cg_mem_cache_lines(fx->mem, &d, &c);
    CHECK_EQ(d, want_dirty);
    CHECK_EQ(c, want_clean);
}

/* CPU writes, flushes, GPU reads: the GPU sees the data, nothing raised. */
static void test_flush(void)
{
    fixture fx;
    setup(&fx, CG_COHERENCY_WARN);
    const uint8_t data[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    CHECK_EQ(cg_vas_cpu_write(fx.vas, VA + 0x40, data, 8), 0);
    lines(&fx, 1, 0);
    CHECK_EQ(cg_vas_cpu_flush(fx.vas, VA + 0x40, 8), 0);
    lines(&fx, 0, 1);
    uint8_t got[8] = {0};
    CHECK_EQ(cg_vas_read(fx.vas, VA + 0x40, got, 8, &ce), 0);
    CHECK_MEM(got, data, 8);
    CHECK_EQ(cg_fault_count(fx.dev), 0);
    /* The object view of the same lines agrees. */
    CHECK_EQ(cg_mem_cpu_read(fx.mem, 0x40, got, 8), 0);
    CHECK_MEM(got, data, 8);
    teardown(&fx);
}

/* CPU writes, no flush, GPU reads: old memory and one STALE_GPU_READ warning
 * naming the first dirty byte's GPU address, the line and the CPU write. */
static void test_missing_flush(void)
{
    fixture fx;
    setup(&fx, CG_COHERENCY_WARN);
    const uint8_t one = 0x11;
    CHECK_EQ(cg_vas_cpu_write(fx.vas, VA + 0x3000, &one, 1), 0); /* write #1 */
    const uint8_t data[8] = {0xa0, 0xa1, 0xa2, 0xa3, 0xa4, 0xa5, 0xa6, 0xa7};
    CHECK_EQ(cg_vas_cpu_write(fx.vas, VA + 0x104, data, 8), 0); /* write #2 */
    uint8_t got[32];
    memset(got, 0xee, sizeof(got));
    CHECK_EQ(cg_vas_read(fx.vas, VA + 0xf0, got, 32, &ce), 0);
    CHECK(all_bytes(got, 32, 0)); /* memory never got the CPU's bytes */
    CHECK_EQ(cg_fault_count(fx.dev), 1);
    const cg_fault *f = cg_fault_get(fx.dev, 0);
    CHECK_EQ(f->kind, CG_FAULT_STALE_GPU_READ);
    CHECK_EQ(f->flags, CG_FAULT_F_WARNING);
    CHECK_EQ(f->family, CG_FAMILY_NV);
    CHECK_STR(f->unit, "ce");
    CHECK_EQ(f->channel, 2);
    CHECK_EQ(f->gpu_addr, VA + 0x104);
    CHECK_EQ(f->stream_addr, 0x4000);
    CHECK_EQ(f->nwords, 2);
    CHECK_EQ(f->words[0], 0x20018000);
    CHECK_EQ(f->words[1], 5);
    CHECK(contains(f->message, "read of 0x20 bytes at 0x1000f0"));
    CHECK(contains(f->message, "0x100104 (mem 1 +0x104, line 0x100)"));
    CHECK(contains(f->message, "CPU write #2"));
    CHECK(contains(f->message, "missing flush"));
    /* The record also formats as a warning. */
    char text[400];
    cg_fault_format(f, text, sizeof(text));
    CHECK(contains(text, "warning #0 stale-gpu-read nv/ce ch 2 addr 0x100104"));

    /* Clean bytes of the same line read correctly and raise nothing (a
     * pushbuffer the CPU keeps appending to is read like this). */
    CHECK_EQ(cg_vas_read(fx.vas, VA + 0x100, got, 4, &ce), 0);
    CHECK_EQ(cg_vas_read(fx.vas, VA + 0x10c, got, 4, &ce), 0);
    CHECK_EQ(cg_fault_count(fx.dev), 1);
    /* Read through the 32-bit accessor: the fast path must not skip the check. */
    uint32_t v = 1;
    CHECK_EQ(cg_vas_read32(fx.vas, VA + 0x104, &v, NULL), 0);
    CHECK_EQ(v, 0);
    CHECK_EQ(cg_fault_count(fx.dev), 2);
    f = cg_fault_get(fx.dev, 1);
    CHECK_EQ(f->kind, CG_FAULT_STALE_GPU_READ);
    CHECK_STR(f->unit, "gpu");
    CHECK_EQ(f->channel, -1);
    uint8_t *p;
    CHECK_EQ(cg__vas_span(fx.vas, VA + 0x2000, 4, false, &p), 0); /* has lines */
    /* A copy from the dirty bytes is a stale read too. */
    CHECK_EQ(cg_vas_copy(fx.vas, VA + 0x2000, VA + 0x100, 0x40, &ce), 0);
    CHECK_EQ(cg_fault_count(fx.dev), 3);
    f = cg_fault_get(fx.dev, 2);
    CHECK_EQ(f->kind, CG_FAULT_STALE_GPU_READ);
    CHECK_EQ(f->gpu_addr, VA + 0x104);
    CHECK(contains(f->message, "(source)"));
    teardown(&fx);
}

/* FAULT policy: the stale access fails and touches nothing. */
static void test_fault_policy(void)
{
    fixture fx;
    setup(&fx, CG_COHERENCY_FAULT);
    CHECK_EQ(cg_mem_write(fx.mem, 0x200, "memory!!", 8), 0);
    CHECK_EQ(cg_vas_cpu_write(fx.vas, VA + 0x200, "cpu", 3), 0);
    uint8_t got[16];
    memset(got, 0xee, sizeof(got));
    CHECK_EQ(cg_vas_read(fx.vas, VA + 0x1f8, got, 16, &ce), CG_ERR_FAULT);
    CHECK(all_bytes(got, 16, 0xee));
    CHECK_EQ(cg_fault_count(fx.dev), 1);
    const cg_fault *f = cg_fault_get(fx.dev, 0);
    CHECK_EQ(f->kind, CG_FAULT_STALE_GPU_READ);
    CHECK_EQ(f->flags, 0);
    CHECK_EQ(f->gpu_addr, VA + 0x200);
    CHECK_STR(f->unit, "ce");
    CHECK(contains(f->message, "CPU write #1"));

    /* A GPU write over the dirty bytes fails and leaves memory alone. */
    CHECK_EQ(cg_vas_write(fx.vas, VA + 0x202, "GPU", 3, &ce), CG_ERR_FAULT);
    f = cg_fault_get(fx.dev, 1);
    CHECK_EQ(f->kind, CG_FAULT_STALE_GPU_WRITE);
    CHECK_EQ(f->flags, 0);
    CHECK_EQ(f->gpu_addr, VA + 0x202);
    CHECK(contains(f->message, "write of 0x3 bytes at 0x100202"));
    char mem[8];
    CHECK_EQ(cg_mem_read(fx.mem, 0x200, mem, 8), 0);
    CHECK_MEM(mem, "memory!!", 8);

    /* A stale CPU read fails too, leaving the buffer alone. */
    CHECK_EQ(cg_vas_cpu_read(fx.vas, VA + 0x400, got, 4), 0); /* line now clean */
    CHECK_EQ(cg_vas_write32(fx.vas, VA + 0x404, 0x01020304, &ce), 0); /* no fault */
    CHECK_EQ(cg_fault_count(fx.dev), 2);
    memset(got, 0xee, sizeof(got));
    CHECK_EQ(cg_vas_cpu_read(fx.vas, VA + 0x400, got, 16), CG_ERR_FAULT);
    CHECK(all_bytes(got, 16, 0xee));
    CHECK_EQ(cg_mem_cpu_read(fx.mem, 0x404, got, 1), CG_ERR_FAULT);
    CHECK_EQ(cg_fault_count(fx.dev), 4);
    f = cg_fault_get(fx.dev, 3);
    CHECK_EQ(f->kind, CG_FAULT_STALE_CPU_READ);
    CHECK_EQ(f->flags, 0);
    CHECK_STR(f->unit, "cpu");
    /* After invalidate the CPU reads the GPU's value. */
    CHECK_EQ(cg_mem_cpu_invalidate(fx.mem, 0x400, 64), 0);
    uint32_t v = 0;
    CHECK_EQ(cg_mem_cpu_read(fx.mem, 0x404, &v, 4), 0);
    CHECK_EQ(v, 0x01020304);
    CHECK_EQ(cg_fault_count(fx.dev), 4);
    teardown(&fx);
}

/* OFF: no model. Cached views go straight to memory and make no lines. */
static void test_off_policy(void)
{
    fixture fx;
    setup(&fx, CG_COHERENCY_OFF);
    CHECK_EQ(cg_vas_cpu_write(fx.vas, VA + 0x10, "abc", 3), 0);
    CHECK_EQ(cg_mem_cpu_write(fx.mem, 0x20, "xyz", 3), 0);
    lines(&fx, 0, 0);
    char got[4] = {0};
    CHECK_EQ(cg_vas_read(fx.vas, VA + 0x10, got, 3, &ce), 0);
    CHECK_STR(got, "abc");
    CHECK_EQ(cg_vas_read(fx.vas, VA + 0x20, got, 3, &ce), 0);
    CHECK_STR(got, "xyz");
    CHECK_EQ(cg_vas_write(fx.vas, VA + 0x10, "GPU", 3, &ce), 0);
    CHECK_EQ(cg_vas_cpu_read(fx.vas, VA + 0x10, got, 3), 0);
    CHECK_STR(got, "GPU");
    CHECK_EQ(cg_mem_cpu_read(fx.mem, 0x10, got, 3), 0);
    CHECK_STR(got, "GPU");
    lines(&fx, 0, 0);
    CHECK_EQ(cg_fault_count(fx.dev), 0);
    uint8_t *p;
    CHECK_EQ(cg__vas_span(fx.vas, VA + 0x10, 3, true, &p), 3);
    teardown(&fx);
}

/* CPU reads (line clean), GPU writes, CPU invalidates and reads: new data. */
static void test_invalidate(void)
{
    fixture fx;
    setup(&fx, CG_COHERENCY_WARN);
    uint32_t v = 7;
    CHECK_EQ(cg_vas_cpu_read(fx.vas, VA + 0x800, &v, 4), 0);
    CHECK_EQ(v, 0);
    lines(&fx, 0, 1);
    CHECK_EQ(cg_vas_write32(fx.vas, VA + 0x800, 0xfeedface, &ce), 0);
    CHECK_EQ(cg_fault_count(fx.dev), 0); /* a GPU write over a clean line is legal */
    CHECK_EQ(cg_vas_cpu_invalidate(fx.vas, VA + 0x800, 4), 0);
    lines(&fx, 0, 0);
    CHECK_EQ(cg_vas_cpu_read(fx.vas, VA + 0x800, &v, 4), 0);
    CHECK_EQ(v, 0xfeedface);
    CHECK_EQ(cg_fault_count(fx.dev), 0);
    teardown(&fx);
}

/* No invalidate: the CPU reads its old copy and STALE_CPU_READ is raised,
 * naming the GPU write's address. */
static void test_missing_invalidate(void)
{
    fixture fx;
    setup(&fx, CG_COHERENCY_WARN);
    uint8_t got[64];
    CHECK_EQ(cg_vas_cpu_read(fx.vas, VA + 0xc00, got, 64), 0); /* caches line 0xc00 */
    CHECK_EQ(cg_vas_fill(fx.vas, VA + 0xc10, 0x99, 8, &ce), 0);
    CHECK_EQ(cg_fault_count(fx.dev), 0);
    /* Bytes the GPU did not write: correct, nothing raised. */
    memset(got, 0xee, sizeof(got));
    CHECK_EQ(cg_vas_cpu_read(fx.vas, VA + 0xc00, got, 16), 0);
    CHECK(all_bytes(got, 16, 0));
    CHECK_EQ(cg_fault_count(fx.dev), 0);
    /* Bytes it did write: the old copy, and a warning. */
    CHECK_EQ(cg_vas_cpu_read(fx.vas, VA + 0xc08, got, 16), 0);
    CHECK(all_bytes(got, 16, 0));
    CHECK_EQ(cg_fault_count(fx.dev), 1);
    const cg_fault *f = cg_fault_get(fx.dev, 0);
    CHECK_EQ(f->kind, CG_FAULT_STALE_CPU_READ);
    CHECK_EQ(f->flags, CG_FAULT_F_WARNING);
    CHECK_EQ(f->family, CG_FAMILY_NONE);
    CHECK_STR(f->unit, "cpu");
    CHECK_EQ(f->channel, -1);
    CHECK_EQ(f->gpu_addr, VA + 0xc10);
    CHECK_EQ(f->stream_addr, 0);
    CHECK_EQ(f->nwords, 0);
    CHECK(contains(f->message, "CPU read of mem 1 +0xc08 (0x10 bytes)"));
    CHECK(contains(f->message, "line 0xc00 (byte 0xc10)"));
    CHECK(contains(f->message, "GPU wrote 0x100c10"));
    CHECK(contains(f->message, "invalidate"));
    /* Memory has the GPU's bytes all along. */
    CHECK_EQ(cg_mem_read(fx.mem, 0xc10, got, 8), 0);
    CHECK(all_bytes(got, 8, 0x99));
    /* A CPU write over the stale bytes makes them the CPU's again. */
    CHECK_EQ(cg_vas_cpu_write(fx.vas, VA + 0xc10, "12345678", 8), 0);
    CHECK_EQ(cg_vas_cpu_read(fx.vas, VA + 0xc10, got, 8), 0);
    CHECK_MEM(got, "12345678", 8);
    CHECK_EQ(cg_fault_count(fx.dev), 1);
    teardown(&fx);
}

/* GPU write over a dirty line: a STALE_GPU_WRITE warning; memory takes the
 * GPU's bytes, then the flush puts the CPU's dirty bytes over them. */
static void test_gpu_write_over_dirty(void)
{
    fixture fx;
    setup(&fx, CG_COHERENCY_WARN);
    CHECK_EQ(cg_vas_cpu_write(fx.vas, VA + 0x1000, "cpu!", 4), 0);
    CHECK_EQ(cg_vas_cpu_write(fx.vas, VA + 0x1001, "PU", 2), 0); /* "cPU!" */
    CHECK_EQ(cg_vas_write(fx.vas, VA + 0x1000, "GPUGPUGP", 8, &ce), 0);
    CHECK_EQ(cg_fault_count(fx.dev), 1);
    const cg_fault *f = cg_fault_get(fx.dev, 0);
    CHECK_EQ(f->kind, CG_FAULT_STALE_GPU_WRITE);
    CHECK_EQ(f->flags, CG_FAULT_F_WARNING);
    CHECK_STR(f->unit, "ce");
    CHECK_EQ(f->channel, 2);
    CHECK_EQ(f->gpu_addr, VA + 0x1000);
    CHECK_EQ(f->stream_addr, 0x4000);
    CHECK(contains(f->message, "write of 0x8 bytes at 0x101000"));
    CHECK(contains(f->message, "CPU write #2")); /* the line's latest CPU write */
    CHECK(contains(f->message, "flush will undo"));
    char got[9] = {0};
    CHECK_EQ(cg_mem_read(fx.mem, 0x1000, got, 8), 0);
    CHECK_STR(got, "GPUGPUGP");
    CHECK_EQ(cg_vas_cpu_flush(fx.vas, VA + 0x1000, 64), 0);
    CHECK_EQ(cg_mem_read(fx.mem, 0x1000, got, 8), 0);
    CHECK_STR(got, "cPU!PUGP");
    /* The GPU's last four bytes were not dirty: the CPU's copy is stale there. */
    CHECK_EQ(cg_vas_cpu_read(fx.vas, VA + 0x1000, got, 8), 0);
    CHECK_EQ(cg_fault_count(fx.dev), 2);
    CHECK_EQ(cg_fault_get(fx.dev, 1)->kind, CG_FAULT_STALE_CPU_READ);
    CHECK_EQ(cg_fault_get(fx.dev, 1)->gpu_addr, VA + 0x1004);
    CHECK_MEM(got, "cPU!\0\0\0\0", 8);
    /* A copy onto dirty bytes is a stale write. */
    CHECK_EQ(cg_vas_cpu_write(fx.vas, VA + 0x1100, "d", 1), 0);
    CHECK_EQ(cg_vas_copy(fx.vas, VA + 0x10f0, VA + 0x3000, 0x20, NULL), 0);
    CHECK_EQ(cg_fault_count(fx.dev), 3);
    f = cg_fault_get(fx.dev, 2);
    CHECK_EQ(f->kind, CG_FAULT_STALE_GPU_WRITE);
    CHECK_EQ(f->gpu_addr, VA + 0x1100);
    CHECK(contains(f->message, "(destination)"));
    teardown(&fx);
}

/* Object views, uncached mappings, CPU access to unmapped addresses. */
static void test_views(void)
{
    fixture fx;
    setup(&fx, CG_COHERENCY_WARN);
    /* The object's own cached view and the cached mapping share lines. */
    CHECK_EQ(cg_mem_cpu_write(fx.mem, 0x2000, "obj", 3), 0);
    char got[4] = {0};
    CHECK_EQ(cg_vas_cpu_read(fx.vas, VA + 0x2000, got, 3), 0);
    CHECK_STR(got, "obj");
    lines(&fx, 1, 0);
    /* An uncached mapping of the same object goes to memory. */
    cg_map_params p = {.mem = fx.mem, .va = 0x800000, .flags = CG_MAP_FIXED};
    CHECK_EQ(cg_vas_map(fx.vas, &p, NULL), 0);
    CHECK_EQ(cg_vas_cpu_read(fx.vas, 0x800000 + 0x2000, got, 3), 0);
    CHECK(all_bytes((uint8_t *)got, 3, 0));
    CHECK_EQ(cg_vas_cpu_write(fx.vas, 0x800000 + 0x2800, "unc", 3), 0);
    lines(&fx, 1, 0);
    CHECK_EQ(cg_mem_read(fx.mem, 0x2800, got, 3), 0);
    CHECK_STR(got, "unc");
    /* A GPU read through the uncached alias still sees the dirty line. */
    CHECK_EQ(cg_vas_read(fx.vas, 0x802000, got, 3, NULL), 0);
    CHECK_EQ(cg_fault_count(fx.dev), 1);
    CHECK_EQ(cg_fault_get(fx.dev, 0)->gpu_addr, 0x802000);
    /* Flush through the alias's address works on the same lines. */
    CHECK_EQ(cg_vas_cpu_flush(fx.vas, 0x802000, 3), 0);
    lines(&fx, 0, 1);
    CHECK_EQ(cg_vas_read(fx.vas, 0x802000, got, 3, NULL), 0);
    CHECK_STR(got, "obj");
    CHECK_EQ(cg_fault_count(fx.dev), 1);

    /* CPU accesses to unmapped VA: NOENT, no fault. Sparse holes too. */
    uint64_t sva = 0x10000000;
    CHECK_EQ(cg_vas_reserve(fx.vas, &sva, 0x10000, 0, 4096, CG_RESV_FIXED | CG_RESV_SPARSE), 0);
    CHECK_EQ(cg_vas_cpu_read(fx.vas, sva, got, 1), CG_ERR_NOENT);
    CHECK_EQ(cg_vas_cpu_write(fx.vas, 0x700000, "x", 1), CG_ERR_NOENT);
    CHECK_EQ(cg_vas_cpu_read(fx.vas, VA + 0x3fff, got, 2), CG_ERR_NOENT); /* runs off */
    CHECK_EQ(cg_vas_cpu_flush(fx.vas, 0x700000, 1), CG_ERR_NOENT);
    CHECK_EQ(cg_vas_cpu_invalidate(fx.vas, 1ull << 32, 1), CG_ERR_NOENT);
    CHECK_EQ(cg_vas_cpu_read(fx.vas, 0x700000, got, 0), 0);
    CHECK_EQ(cg_fault_count(fx.dev), 1);
    teardown(&fx);
}

/* A CPU access spanning two mappings (cached and uncached, two objects), and
 * a GPU read over many objects where only one has lines. */
static void test_multi(void)
{
    fixture fx;
    setup(&fx, CG_COHERENCY_WARN);
    cg_mem *plain;
    CHECK_EQ(cg_mem_create(fx.dev, 4096, 0, &plain), 0);
    cg_map_params p = {.mem = plain, .va = VA + 0x4000, .flags = CG_MAP_FIXED};
    CHECK_EQ(cg_vas_map(fx.vas, &p, NULL), 0);
    CHECK_EQ(cg_vas_cpu_write(fx.vas, VA + 0x3ffe, "ABCD", 4), 0);
    lines(&fx, 1, 0);
    char got[5] = {0};
    CHECK_EQ(cg_mem_read(plain, 0, got, 2), 0);
    CHECK_STR(got, "CD");
    CHECK_EQ(cg_vas_cpu_read(fx.vas, VA + 0x3ffe, got, 4), 0);
    CHECK_STR(got, "ABCD");
    memset(got, 0, sizeof(got));
    CHECK_EQ(cg_vas_read(fx.vas, VA + 0x3ffe, got, 4, NULL), 0); /* GPU: old "AB" */
    CHECK_MEM(got, "\0\0CD", 4);
    CHECK_EQ(cg_fault_count(fx.dev), 1);
    CHECK_EQ(cg_fault_get(fx.dev, 0)->gpu_addr, VA + 0x3ffe);
    CHECK_EQ(cg_vas_cpu_invalidate(fx.vas, VA + 0x3ff0, 0x20), 0);
    lines(&fx, 0, 0);
    CHECK(fx.mem->lines == NULL);
    CHECK_EQ(cg_vas_read(fx.vas, VA + 0x3ffe, got, 4, NULL), 0);
    CHECK_STR(got, "ABCD");
    CHECK_EQ(cg_fault_count(fx.dev), 1);
    cg_mem_unref(plain);
    teardown(&fx);
}

int main(void)
{
    test_flush();
    test_missing_flush();
    test_fault_policy();
    test_off_policy();
    test_invalidate();
    test_missing_invalidate();
    test_gpu_write_over_dirty();
    test_views();
    test_multi();
    return check_report("test_coherency");
}
