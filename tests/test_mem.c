/* Memory objects: ids, sizes, references, lazy backing, direct and CPU-view
 * access, host-memory accounting, device teardown with live objects. */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#include <stdlib.h>
#include <sys/mman.h>
#include <string.h>
#include "check.h"
#include "cmdgpu/cmdgpu.h"
#include "core/mem_internal.h"

#define KiB 1024ull
#define MiB (1024ull * KiB)

static void test_create_and_ids(void)
{
    cg_device *dev;
    CHECK_EQ(cg_device_create(&dev), 0);
    cg_mem *m = (cg_mem *)1;
    CHECK_EQ(cg_mem_create(dev, 0, 0, &m), CG_ERR_INVAL);
    CHECK(m == NULL);
    CHECK_EQ(cg_mem_create(dev, (1ull << 48) + 1, 0, &m), CG_ERR_INVAL);
    CHECK_EQ(cg_mem_create(dev, 4096, 1u << 4, &m), CG_ERR_INVAL);
    CHECK_EQ(cg_mem_create(NULL, 4096, 0, &m), CG_ERR_INVAL);
    CHECK_EQ(cg_mem_create(dev, 4096, 0, NULL), CG_ERR_INVAL);

    cg_mem *a, *b, *c;
    CHECK_EQ(cg_mem_create(dev, 1, 0, &a), 0);
    CHECK_EQ(cg_mem_create(dev, 4097, CG_MEM_CPU_CACHED, &b), 0);
    CHECK_EQ(cg_mem_create(dev, 8192, 0, &c), 0);
    CHECK_EQ(cg_mem_size(a), 4096);
    CHECK_EQ(cg_mem_size(b), 8192);
    CHECK_EQ(cg_mem_size(c), 8192);
    CHECK_EQ(cg_mem_id(a), 1);
    CHECK_EQ(cg_mem_id(b), 2);
    CHECK_EQ(cg_mem_id(c), 3);
    CHECK(cg_mem_lookup(dev, 2) == b);
    CHECK(cg_mem_lookup(dev, 0) == NULL);
    CHECK(cg_mem_lookup(dev, 4) == NULL);
    CHECK(cg_mem_lookup(dev, 0xffffffffu) == NULL);
    CHECK(cg_mem_device(b) == dev);

    /* References: the object lives until the last one goes; ids are never
     * reused. */
    cg_mem_ref(b);
    cg_mem_unref(b);
    CHECK(cg_mem_lookup(dev, 2) == b);
    cg_mem_unref(b);
    CHECK(cg_mem_lookup(dev, 2) == NULL);
    cg_mem *d;
    CHECK_EQ(cg_mem_create(dev, 4096, 0, &d), 0);
    CHECK_EQ(cg_mem_id(d), 4);
    cg_mem_unref(NULL);
    cg_mem_ref(NULL);
    CHECK_EQ(cg_mem_size(NULL), 0);

    /* Many objects: the id table grows. */
    cg_mem *many[100];
    for (int i = 0; i < 100; i++) {
        CHECK_EQ(cg_mem_create(dev, 4096, 0, &many[i]), 0);
        CHECK_EQ(cg_mem_id(many[i]), 5 + i);
    }
    for (int i = 0; i < 100; i++)
        CHECK(cg_mem_lookup(dev, 5 + i) == many[i]);
    for (int i = 0; i < 100; i += 2)
        cg_mem_unref(many[i]);
    CHECK(cg_mem_lookup(dev, 5) == NULL);
    CHECK(cg_mem_lookup(dev, 6) == many[1]);

    /* The rest (a, c, d and 50 of many) are freed by the device. */
    cg_device_destroy(dev);
}

static void test_direct_access(void)
{
    cg_device *dev;
    CHECK_EQ(cg_device_create(&dev), 0);
    cg_mem *m;
    CHECK_EQ(cg_mem_create(dev, 64 * KiB, 0, &m), 0);
    uint8_t buf[0x3000], got[0x3000];
    for (int i = 0; i < 0x3000; i++)
        buf[i] = (uint8_t)(i ^ (i >> 8));

    /* Zero-filled, lazily backed. */
    memset(got, 0xcd, sizeof(got));
    CHECK_EQ(cg_mem_read(m, 0x1000, got, 0x3000), 0);
    CHECK_EQ(got[0], 0);
    CHECK_EQ(got[0x2fff], 0);
    CHECK_EQ(cg_mem_resident_bytes(m), 0);

    /* A write across two page boundaries backs exactly three pages. */
    CHECK_EQ(cg_mem_write(m, 0x1800, buf, 0x2000), 0);
    CHECK_EQ(cg_mem_resident_bytes(m), 3 * 4096);
    CHECK_EQ(cg_mem_read(m, 0x1800, got, 0x2000), 0);
    CHECK_MEM(got, buf, 0x2000);
    CHECK_EQ(cg_mem_read(m, 0x17ff, got, 1), 0);
    CHECK_EQ(got[0], 0);

    /* Fill: zero into absent pages keeps them absent. */
    CHECK_EQ(cg_mem_fill(m, 0x8000, 0, 0x4000), 0);
    CHECK_EQ(cg_mem_resident_bytes(m), 3 * 4096);
    CHECK_EQ(cg_mem_fill(m, 0x8001, 0x3c, 2), 0);
    CHECK_EQ(cg_mem_resident_bytes(m), 4 * 4096);
    CHECK_EQ(cg_mem_read(m, 0x8000, got, 4), 0);
    const uint8_t fill_want[4] = {0, 0x3c, 0x3c, 0};
    CHECK_MEM(got, fill_want, 4);
    CHECK_EQ(cg_mem_fill(m, 0x1800, 0, 0x10), 0); /* zero into present: written */
    CHECK_EQ(cg_mem_read(m, 0x1800, got, 0x11), 0);
    CHECK_EQ(got[0], 0);
    CHECK_EQ(got[0xf], 0);
    CHECK_EQ(got[0x10], buf[0x10]);

    /* Range checks: nothing done. */
    CHECK_EQ(cg_mem_write(m, 64 * KiB - 4, buf, 5), CG_ERR_RANGE);
    CHECK_EQ(cg_mem_read(m, 64 * KiB + 1, got, 0), CG_ERR_RANGE);
    CHECK_EQ(cg_mem_read(m, 64 * KiB, got, 0), 0);
    CHECK_EQ(cg_mem_fill(m, UINT64_MAX, 1, 2), CG_ERR_RANGE);
    CHECK_EQ(cg_mem_write(m, 16, NULL, 4), CG_ERR_INVAL);
    CHECK_EQ(cg_mem_read(NULL, 0, got, 4), CG_ERR_INVAL);
    CHECK_EQ(cg_mem_write(m, 64 * KiB - 4, buf, 4), 0);
    CHECK_EQ(cg_mem_resident_bytes(m), 5 * 4096);

    cg_mem_unref(m);
    cg_device_destroy(dev);
}

static void test_host_accounting(void)
{
    cg_device *dev;
    CHECK_EQ(cg_device_create(&dev), 0);
    CHECK_EQ(cg_device_host_bytes(dev), 0);

    /* The largest object costs its directory root, not its size. */
    cg_mem *huge;
    CHECK_EQ(cg_mem_create(dev, 1ull << 48, 0, &huge), 0);
    size_t empty = cg_device_host_bytes(dev);
    CHECK(empty < 8 * KiB);
    uint8_t last = 0x7e;
    CHECK_EQ(cg_mem_write(huge, (1ull << 48) - 1, &last, 1), 0);
    CHECK_EQ(cg_mem_write(huge, 0, &last, 1), 0);
    CHECK_EQ(cg_mem_resident_bytes(huge), 2 * 4096);
    /* Two pages plus three directory nodes on each of two paths. */
    CHECK(cg_device_host_bytes(dev) - empty <= 2 * 4096 + 6 * 4096);
    uint8_t got = 0;
    CHECK_EQ(cg_mem_read(huge, (1ull << 48) - 1, &got, 1), 0);
    CHECK_EQ(got, 0x7e);
    CHECK_EQ(cg_mem_read(huge, 1ull << 40, &got, 1), 0);
    CHECK_EQ(got, 0);

    /* 1 MiB object: each written page costs exactly 4 KiB more. */
    cg_mem *m;
    CHECK_EQ(cg_mem_create(dev, 1 * MiB, 0, &m), 0);
    size_t before = cg_device_host_bytes(dev);
    for (int i = 0; i < 10; i++)
        CHECK_EQ(cg_mem_fill(m, (uint64_t)i * 8192 + 5, 0xff, 1), 0);
    CHECK_EQ(cg_device_host_bytes(dev) - before, 10 * 4096);
    CHECK_EQ(cg_mem_resident_bytes(m), 10 * 4096);
    size_t peak = cg_device_host_peak(dev);
    CHECK(peak >= cg_device_host_bytes(dev));

    cg_mem_unref(m);
    cg_mem_unref(huge);
    CHECK_EQ(cg_device_host_bytes(dev), (size_t)(dev->mems_cap * sizeof(cg_mem *)));
    CHECK_EQ(cg_device_host_peak(dev), peak);
    cg_device_destroy(dev);
}

static void test_cpu_views(void)
{
    cg_device *dev;
    CHECK_EQ(cg_device_create(&dev), 0);
    CHECK_EQ(cg_device_coherency(dev), CG_COHERENCY_WARN);
    cg_mem *cached, *plain;
    CHECK_EQ(cg_mem_create(dev, 8 * KiB, CG_MEM_CPU_CACHED, &cached), 0);
    CHECK_EQ(cg_mem_create(dev, 8 * KiB, 0, &plain), 0);
    size_t dirty = 9, clean = 9;

    /* Uncached: straight to memory, no lines. */
    const char text[] = "plain write";
    CHECK_EQ(cg_mem_cpu_write(plain, 0x10, text, sizeof(text)), 0);
    char got[64] = {0};
    CHECK_EQ(cg_mem_read(plain, 0x10, got, sizeof(text)), 0);
    CHECK_STR(got, text);
    CHECK_EQ(cg_mem_cpu_read(plain, 0x10, got, sizeof(text)), 0);
    CHECK_STR(got, text);
    cg_mem_cache_lines(plain, &dirty, &clean);
    CHECK_EQ(dirty, 0);
    CHECK_EQ(clean, 0);

    /* Cached: the write stays in dirty lines (a write spanning two lines). */
    const char msg[] = "cached bytes across a line";
    CHECK_EQ(cg_mem_cpu_write(cached, 0x30, msg, sizeof(msg)), 0);
    cg_mem_cache_lines(cached, &dirty, &clean);
    CHECK_EQ(dirty, 2);
    CHECK_EQ(clean, 0);
    memset(got, 0x55, sizeof(got));
    CHECK_EQ(cg_mem_read(cached, 0x30, got, sizeof(msg)), 0); /* memory: still zero */
    CHECK_EQ(got[0], 0);
    CHECK_EQ(got[sizeof(msg) - 2], 0);
    CHECK_EQ(cg_mem_resident_bytes(cached), 0);
    memset(got, 0, sizeof(got));
    CHECK_EQ(cg_mem_cpu_read(cached, 0x30, got, sizeof(msg)), 0); /* the CPU sees it */
    CHECK_STR(got, msg);
    /* A read of a new line keeps it clean in the model. */
    CHECK_EQ(cg_mem_cpu_read(cached, 0x1000, got, 4), 0);
    cg_mem_cache_lines(cached, &dirty, &clean);
    CHECK_EQ(dirty, 2);
    CHECK_EQ(clean, 1);

    /* Flush: memory gets the bytes, lines stay clean. Only lines in range. */
    CHECK_EQ(cg_mem_cpu_flush(cached, 0x40, 1), 0);
    cg_mem_cache_lines(cached, &dirty, &clean);
    CHECK_EQ(dirty, 1);
    CHECK_EQ(clean, 2);
    CHECK_EQ(cg_mem_read(cached, 0x30, got, sizeof(msg)), 0);
    CHECK_EQ(got[0], 0); /* line 0 not flushed yet */
    CHECK_EQ(got[0x10], msg[0x10]);
    CHECK_EQ(cg_mem_cpu_flush(cached, 0, 8 * KiB), 0);
    CHECK_EQ(cg_mem_read(cached, 0x30, got, sizeof(msg)), 0);
    CHECK_STR(got, msg);
    CHECK_EQ(cg_mem_resident_bytes(cached), 4096);
    /* Invalidate drops them. */
    CHECK_EQ(cg_mem_cpu_invalidate(cached, 0, 8 * KiB), 0);
    cg_mem_cache_lines(cached, &dirty, &clean);
    CHECK_EQ(dirty, 0);
    CHECK_EQ(clean, 0);
    CHECK(cached->lines == NULL); /* an empty table is freed */

    /* Invalidate writes dirty bytes back first, byte-exact (the mask). */
    CHECK_EQ(cg_mem_write(cached, 0x100, "0123456789", 10), 0);
    CHECK_EQ(cg_mem_cpu_write(cached, 0x103, "ab", 2), 0);
    CHECK_EQ(cg_mem_write(cached, 0x108, "XY", 2), 0); /* behind the cache's back */
    CHECK_EQ(cg_mem_cpu_invalidate(cached, 0x100, 1), 0);
    CHECK_EQ(cg_mem_read(cached, 0x100, got, 10), 0);
    CHECK_MEM(got, "012ab567XY", 10);

    /* Range checks. */
    CHECK_EQ(cg_mem_cpu_write(cached, 8 * KiB - 1, "ab", 2), CG_ERR_RANGE);
    CHECK_EQ(cg_mem_cpu_read(cached, 8 * KiB, got, 1), CG_ERR_RANGE);
    CHECK_EQ(cg_mem_cpu_flush(cached, 8 * KiB + 1, 0), CG_ERR_RANGE);
    CHECK_EQ(cg_mem_cpu_invalidate(NULL, 0, 1), CG_ERR_INVAL);

    /* Switching the attribute: uncached access goes to memory. */
    cg_mem_set_cpu_cached(cached, false);
    CHECK_EQ(cg_mem_cpu_write(cached, 0x200, "u", 1), 0);
    cg_mem_cache_lines(cached, &dirty, &clean);
    CHECK_EQ(dirty + clean, 0);
    cg_mem_set_cpu_cached(plain, true);
    CHECK_EQ(cg_mem_cpu_write(plain, 0x200, "c", 1), 0);
    cg_mem_cache_lines(plain, &dirty, &clean);
    CHECK_EQ(dirty, 1);
    CHECK_EQ(cg_fault_count(dev), 0);
    CHECK_EQ(dev->cpu_write_seq, 5); /* every CPU write is numbered */

    /* The device frees objects with lines still held. */
    cg_device_destroy(dev);
}

/* A big cached write makes many lines: the table grows and rehashes. */
static void test_many_lines(void)
{
    cg_device *dev;
    CHECK_EQ(cg_device_create(&dev), 0);
    cg_mem *m;
    CHECK_EQ(cg_mem_create(dev, 64 * KiB, CG_MEM_CPU_CACHED, &m), 0);
    uint8_t *buf = malloc(64 * KiB), *got = malloc(64 * KiB);
    for (size_t i = 0; i < 64 * KiB; i++)
        buf[i] = (uint8_t)(i * 13 + 1);
    CHECK_EQ(cg_mem_cpu_write(m, 0, buf, 64 * KiB), 0);
    size_t dirty, clean;
    cg_mem_cache_lines(m, &dirty, &clean);
    CHECK_EQ(dirty, 1024);
    CHECK_EQ(clean, 0);
    CHECK_EQ(cg_mem_cpu_read(m, 0, got, 64 * KiB), 0);
    CHECK_MEM(got, buf, 64 * KiB);
    /* Invalidate every other line by small ranges, then flush the rest. */
    for (uint64_t off = 0; off < 64 * KiB; off += 128)
        CHECK_EQ(cg_mem_cpu_invalidate(m, off, 64), 0);
    cg_mem_cache_lines(m, &dirty, &clean);
    CHECK_EQ(dirty, 512);
    CHECK_EQ(cg_mem_cpu_flush(m, 0, 64 * KiB), 0);
    cg_mem_cache_lines(m, &dirty, &clean);
    CHECK_EQ(dirty, 0);
    CHECK_EQ(clean, 512);
    CHECK_EQ(cg_mem_read(m, 0, got, 64 * KiB), 0);
    CHECK_MEM(got, buf, 64 * KiB);
    /* Re-reading refills the invalidated lines (tombstones reused). */
    CHECK_EQ(cg_mem_cpu_read(m, 0, got, 64 * KiB), 0);
    CHECK_MEM(got, buf, 64 * KiB);
    cg_mem_cache_lines(m, &dirty, &clean);
    CHECK_EQ(clean, 1024);
    CHECK_EQ(cg_mem_cpu_invalidate(m, 0, 64 * KiB), 0);
    cg_mem_cache_lines(m, &dirty, &clean);
    CHECK_EQ(dirty + clean, 0);
    cg_mem_unref(m);
    CHECK_EQ(cg_device_host_bytes(dev), (size_t)(dev->mems_cap * sizeof(cg_mem *)));
    free(buf);
    free(got);
    cg_device_destroy(dev);
}

/* Destroying a device with everything still alive: LSan must see no leak. */
static void test_destroy_live(void)
{
    cg_device *dev;
    CHECK_EQ(cg_device_create(&dev), 0);
    cg_vas *vas;
    CHECK_EQ(cg_vas_create(dev, NULL, &vas), 0);
    cg_mem *m, *n;
    CHECK_EQ(cg_mem_create(dev, 1 * MiB, CG_MEM_CPU_CACHED, &m), 0);
    CHECK_EQ(cg_mem_create(dev, 1 * MiB, 0, &n), 0);
    cg_map_params p = {.mem = m, .flags = CG_MAP_CPU_CACHED};
    uint64_t va;
    CHECK_EQ(cg_vas_map(vas, &p, &va), 0);
    uint64_t rva;
    CHECK_EQ(cg_vas_reserve(vas, &rva, 1ull << 30, 0, 4096, CG_RESV_SPARSE), 0);
    CHECK_EQ(cg_vas_write(vas, va + 0x10, "gpu", 3, NULL), 0);
    CHECK_EQ(cg_vas_cpu_write(vas, va + 0x1000, "cpu", 3), 0);
    CHECK_EQ(cg_mem_write(n, 0x5000, "n", 1), 0);
    cg_mem_ref(n); /* an extra reference never dropped */
    CHECK(cg_device_host_bytes(dev) > 2 * 4096);
    cg_device_destroy(dev);
}

/* Page backing from the device's pool (a small first region, then 2 MiB
 * ones) and cg__mem_span: every page distinct and zeroed, exact
 * accounting, spans in place, on the zero page, or copied across pages.
 * Run twice: with mmap'd chunks and with the heap fallback. */
static void test_chunks_and_spans(void)
{
    cg_device *dev;
    CHECK_EQ(cg_device_create(&dev), 0);
    cg_mem *m;
    CHECK_EQ(cg_mem_create(dev, 1100 * 4096ull, 0, &m), 0);
    size_t before = cg_device_host_bytes(dev);
    /* 1030 pages (and 3 directory nodes), written backwards: more than two
     * 2 MiB regions */
    for (uint64_t p = 1030; p-- > 0;) {
        uint8_t *page = cg__mem_page_alloc(m, p);
        CHECK(page != NULL);
        CHECK_EQ(page[0], 0);
        CHECK_EQ(page[4095], 0);
        uint32_t v = (uint32_t)(p * 2654435761u);
        CHECK_EQ(cg_mem_write(m, p * 4096 + 4092, &v, 4), 0);
        CHECK_EQ(cg_mem_write(m, p * 4096, &v, 4), 0);
    }
    CHECK_EQ(cg_mem_resident_bytes(m), 1030 * 4096);
    CHECK_EQ(cg_device_host_bytes(dev) - before, 1030 * 4096 + 3 * 4096); /* + 3 directory nodes */
    for (uint64_t p = 0; p < 1030; p++) {
        uint32_t v = (uint32_t)(p * 2654435761u), got = 0;
        CHECK_EQ(cg_mem_read(m, p * 4096 + 4092, &got, 4), 0);
        CHECK_EQ(got, v);
        CHECK_EQ(cg_mem_read(m, p * 4096, &got, 4), 0);
        CHECK_EQ(got, v);
    }
    uint8_t scratch[16] = {0};
    /* in one page: where it lies */
    const uint8_t *s = cg__mem_span(m, 7 * 4096 + 8, 8, scratch);
    CHECK(s == cg__mem_page(m, 7) + 8);
    /* never written: the zero page */
    s = cg__mem_span(m, 1040 * 4096 + 100, 16, scratch);
    CHECK(s == cg__zero_page + 100);
    /* across pages 6 and 7: copied */
    s = cg__mem_span(m, 7 * 4096 - 4, 8, scratch);
    CHECK(s == scratch);
    uint32_t v6 = (uint32_t)(6 * 2654435761u), v7 = (uint32_t)(7 * 2654435761u);
    CHECK_EQ(memcmp(scratch, &v6, 4), 0);
    CHECK_EQ(memcmp(scratch + 4, &v7, 4), 0);
    cg_mem_unref(m);
    CHECK_EQ(cg_device_host_bytes(dev), (size_t)(dev->mems_cap * sizeof(cg_mem *)));
    cg_device_destroy(dev);
}

/* Pages of a destroyed object are reused by the next (zeroed again), and the
 * accounting gives them back. */
static void test_pool_reuse(void)
{
    cg_device *dev;
    CHECK_EQ(cg_device_create(&dev), 0);
    cg_mem *a, *b;
    CHECK_EQ(cg_mem_create(dev, 64 * 4096, 0, &a), 0);
    size_t with_a = cg_device_host_bytes(dev);
    uint8_t ones[4096];
    memset(ones, 0xA5, sizeof ones);
    for (uint64_t p = 0; p < 64; p++)
        CHECK_EQ(cg_mem_write(a, p * 4096, ones, sizeof ones), 0);
    CHECK_EQ(cg_device_host_bytes(dev) - with_a, 64 * 4096);
    uint8_t *first = cg__mem_page(a, 0);
    cg_mem_unref(a);
    CHECK_EQ(cg_device_host_bytes(dev), (size_t)(dev->mems_cap * sizeof(cg_mem *)));
    CHECK_EQ(cg_mem_create(dev, 64 * 4096, 0, &b), 0);
    uint8_t z[4096];
    for (uint64_t p = 0; p < 64; p++) {
        uint8_t *pg = cg__mem_page_alloc(b, p);
        CHECK(pg != NULL);
        CHECK_EQ(cg_mem_read(b, p * 4096, z, sizeof z), 0);
        bool zero = true;
        for (size_t i = 0; i < sizeof z; i++)
            zero = zero && z[i] == 0;
        CHECK(zero);
    }
    /* b's pages are a's (one level of directory: pages only) */
    CHECK(cg__mem_page(b, 63) == first); /* a's page 0 went back first, comes out last */
    CHECK_EQ(dev->pool.nfree, 0);
    cg_mem_unref(b);
    CHECK_EQ(dev->pool.nfree, 64);
    cg_device_destroy(dev);
}

static int released;
static void on_release(void *user) { released += *(int *)user; }

/* An object over the caller's pages: the model's accesses and the host's
 * see each other with no copy, nothing is allocated for the pages, and the
 * release callback runs once when the last reference goes. */
static void test_external(void)
{
    cg_device *dev = NULL;
    CHECK_EQ(cg_device_create(&dev), 0);
    size_t size = 3 * CG_PAGE_SIZE;
    uint8_t *host = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    CHECK(host != MAP_FAILED);
    int one = 1;
    cg_mem *m = NULL;
    CHECK_EQ(cg_mem_create_external(dev, host + 1, size, 0, NULL, NULL, &m), CG_ERR_INVAL);
    CHECK_EQ(cg_mem_create_external(dev, host, size - 1, 0, NULL, NULL, &m), CG_ERR_INVAL);
    uint64_t before = cg_device_host_bytes(dev);
    CHECK_EQ(cg_mem_create_external(dev, host, size, 0, on_release, &one, &m), 0);
    CHECK_EQ(cg_mem_resident_bytes(m), size);
    /* the directory is all that is allocated: one root of three pointers */
    CHECK(cg_device_host_bytes(dev) - before < CG_PAGE_SIZE);
    host[CG_PAGE_SIZE + 5] = 0xab;
    uint8_t b = 0;
    CHECK_EQ(cg_mem_read(m, CG_PAGE_SIZE + 5, &b, 1), 0);
    CHECK_EQ(b, 0xab);
    cg_vas *vas = NULL;
    CHECK_EQ(cg_vas_create(dev, NULL, &vas), 0);
    uint64_t va = 0;
    cg_map_params mp = {.mem = m, .size = size};
    CHECK_EQ(cg_vas_map(vas, &mp, &va), 0);
    cg_agent gpu = {.family = CG_FAMILY_NONE, .unit = "test", .channel = -1};
    CHECK_EQ(cg_vas_write32(vas, va + 2 * CG_PAGE_SIZE - 2, 0x11223344, &gpu), 0); /* straddles */
    CHECK_EQ(host[2 * CG_PAGE_SIZE - 2], 0x44);
    CHECK_EQ(host[2 * CG_PAGE_SIZE + 1], 0x11);
    CHECK_EQ(cg_mem_fill(m, 0, 0x5a, 2), 0);
    CHECK_EQ(host[1], 0x5a);
    cg_mem_ref(m);
    cg_mem_unref(m);
    CHECK_EQ(released, 0);
    cg_vas_destroy(vas); /* the mapping's reference */
    cg_mem_unref(m);
    CHECK_EQ(released, 1);
    CHECK_EQ(host[CG_PAGE_SIZE + 5], 0xab); /* the caller's pages stay */
    munmap(host, size);
    cg_device_destroy(dev);
}

int main(void)
{
    test_create_and_ids();
    test_external();
    test_direct_access();
    test_host_accounting();
    test_cpu_views();
    test_many_lines();
    test_destroy_live();
    test_chunks_and_spans();
    test_pool_reuse();
    cg__mem_no_mmap = true; /* the heap fallback (mmap failed): the same results */
    test_chunks_and_spans();
    test_pool_reuse();
    cg__mem_no_mmap = false;
    return check_report("test_mem");
}
