/* The memory model used from several threads at once, as mem.h "Threads"
 * allows: GPU accesses through shared and private address spaces, first
 * writes racing to allocate the same pages, object creation and release,
 * the CPU-cache model of one object used by a CPU thread while GPU threads
 * read other lines of it, and faults raised from every thread. Each thread
 * writes bytes no other thread writes, so the final contents are exact.
 * Meant to run under ThreadSanitizer too (make tsan): a data race in the
 * model fails that build. */
#include <pthread.h>
#include <stdlib.h>
#include "check.h"
#include "cmdgpu/cmdgpu.h"

#define NTHREADS 4
#define OBJ_PAGES 256 /* 1 MiB: every page absent at the start */
#define ROUNDS 3

static cg_device *dev;
static cg_mem *shared_obj;
static cg_vas *shared_vas;
static uint64_t shared_va;

typedef struct worker {
    int id;
    cg_vas *own;
    uint64_t own_va;
    int errors;
    uint64_t created;
} worker;

/* The word thread t writes at page p, round r. */
static uint32_t value_of(int t, uint64_t p, int r)
{
    return 0x10000000u * (uint32_t)(t + 1) + (uint32_t)(p << 8) + (uint32_t)r;
}

static void *gpu_worker(void *arg)
{
    worker *w = arg;
    const cg_agent who = {.family = CG_FAMILY_NONE, .unit = "thread", .channel = w->id};
    for (int r = 0; r < ROUNDS; r++) {
        /* Every thread writes every page (its own 16-byte slot), so first
         * writes race to allocate the same directory nodes and pages. Even
         * rounds go through the shared address space, odd ones through the
         * thread's own mapping of the same object. */
        for (uint64_t p = 0; p < OBJ_PAGES; p++) {
            uint64_t off = p * 4096 + (uint64_t)w->id * 16;
            cg_vas *vas = r % 2 ? w->own : shared_vas;
            uint64_t base = r % 2 ? w->own_va : shared_va;
            if (cg_vas_write32(vas, base + off, value_of(w->id, p, r), &who) != 0)
                w->errors++;
            uint32_t v = 0;
            if (cg_vas_read32(shared_vas, shared_va + off, &v, &who) != 0 ||
                v != value_of(w->id, p, r))
                w->errors++;
        }
        /* Objects made, mapped, used and dropped while the others work. */
        cg_mem *m;
        if (cg_mem_create(dev, 3 * 4096, 0, &m) != 0) {
            w->errors++;
            continue;
        }
        cg_map_params mp = {.mem = m};
        uint64_t va;
        if (cg_vas_map(w->own, &mp, &va) != 0) {
            w->errors++;
        } else {
            uint8_t buf[64];
            memset(buf, 0xa0 + w->id, sizeof buf);
            if (cg_vas_write(w->own, va + 4096 + 8, buf, sizeof buf, &who) != 0)
                w->errors++;
            uint8_t back[64] = {0};
            if (cg_vas_read(w->own, va + 4096 + 8, back, sizeof back, &who) != 0 ||
                memcmp(back, buf, sizeof buf) != 0)
                w->errors++;
            if (cg_mem_lookup(dev, cg_mem_id(m)) != m)
                w->errors++;
            cg_vas_unmap(w->own, va);
            w->created++;
        }
        cg_mem_unref(m);
        /* One fault per round from each thread: an unmapped read. */
        uint32_t v;
        if (cg_vas_read32(w->own, 0x7fff0000ull + (uint64_t)w->id * 4096, &v, &who) !=
            CG_ERR_FAULT)
            w->errors++;
    }
    return NULL;
}

/* CPU-cache model under contention: a CPU thread writes lines 0..63 of a
 * cached object through a cached mapping and flushes them, while GPU
 * threads read lines 64..127 of the same object (which then takes the
 * checked path: the object has lines). No fault can arise: the GPU never
 * reads a line the CPU holds dirty. */
static cg_mem *cached_obj;
static cg_vas *cpu_vas;
static uint64_t cpu_va, gpu_va_cached;

static void *cpu_worker(void *arg)
{
    int *errors = arg;
    for (int r = 0; r < 50; r++)
        for (uint64_t line = 0; line < 64; line++) {
            uint8_t b[64];
            memset(b, (int)(line + (uint64_t)r), sizeof b);
            if (cg_vas_cpu_write(cpu_vas, cpu_va + line * 64, b, sizeof b) != 0)
                (*errors)++;
            if (cg_vas_cpu_flush(cpu_vas, cpu_va + line * 64, 64) != 0)
                (*errors)++;
        }
    return NULL;
}

static void *gpu_reader(void *arg)
{
    int *errors = arg;
    for (int r = 0; r < 50; r++)
        for (uint64_t line = 64; line < 128; line++) {
            uint8_t b[64];
            if (cg_vas_read(shared_vas, gpu_va_cached + line * 64, b, sizeof b, NULL) != 0)
                (*errors)++;
            for (int i = 0; i < 64; i++)
                if (b[i] != (uint8_t)(0x55 + line))
                    (*errors)++;
        }
    return NULL;
}

int main(void)
{
    CHECK_EQ(cg_device_create(&dev), 0);
    cg_device_set_coherency(dev, CG_COHERENCY_WARN);
    CHECK_EQ(cg_mem_create(dev, OBJ_PAGES * 4096ull, 0, &shared_obj), 0);
    CHECK_EQ(cg_vas_create(dev, NULL, &shared_vas), 0);
    cg_map_params mp = {.mem = shared_obj};
    CHECK_EQ(cg_vas_map(shared_vas, &mp, &shared_va), 0);
    CHECK_EQ(cg_mem_resident_bytes(shared_obj), 0);

    worker w[NTHREADS];
    pthread_t th[NTHREADS];
    for (int t = 0; t < NTHREADS; t++) {
        w[t] = (worker){.id = t};
        CHECK_EQ(cg_vas_create(dev, NULL, &w[t].own), 0);
        cg_map_params own = {.mem = shared_obj};
        CHECK_EQ(cg_vas_map(w[t].own, &own, &w[t].own_va), 0);
    }
    for (int t = 0; t < NTHREADS; t++)
        CHECK_EQ(pthread_create(&th[t], NULL, gpu_worker, &w[t]), 0);
    for (int t = 0; t < NTHREADS; t++)
        pthread_join(th[t], NULL);

    for (int t = 0; t < NTHREADS; t++) {
        CHECK_EQ(w[t].errors, 0);
        CHECK_EQ(w[t].created, ROUNDS);
    }
    /* Exactly one host page per object page, however the first writes raced. */
    CHECK_EQ(cg_mem_resident_bytes(shared_obj), OBJ_PAGES * 4096ull);
    int bad = 0;
    for (uint64_t p = 0; p < OBJ_PAGES; p++)
        for (int t = 0; t < NTHREADS; t++) {
            uint32_t v = 0;
            cg_mem_read(shared_obj, p * 4096 + (uint64_t)t * 16, &v, 4);
            if (v != value_of(t, p, ROUNDS - 1))
                bad++;
        }
    CHECK_EQ(bad, 0);
    /* One unmapped-read fault per thread and round, each in the log. */
    CHECK_EQ(cg_fault_count(dev), NTHREADS * ROUNDS);
    for (size_t i = 0; i < cg_fault_count(dev); i++)
        CHECK_EQ(cg_fault_get(dev, i)->kind, CG_FAULT_UNMAPPED);

    /* The cached object: lines 64..127 hold 0x55 + line (written raw, no
     * CPU line), the CPU thread owns lines 0..63 through a cached view. */
    CHECK_EQ(cg_mem_create(dev, 8192, 0, &cached_obj), 0);
    for (uint64_t line = 64; line < 128; line++) {
        uint8_t b[64];
        memset(b, (int)(0x55 + line), sizeof b);
        cg_mem_write(cached_obj, line * 64, b, sizeof b);
    }
    CHECK_EQ(cg_vas_create(dev, NULL, &cpu_vas), 0);
    cg_map_params cm = {.mem = cached_obj, .flags = CG_MAP_CPU_CACHED};
    CHECK_EQ(cg_vas_map(cpu_vas, &cm, &cpu_va), 0);
    cg_map_params gm = {.mem = cached_obj};
    CHECK_EQ(cg_vas_map(shared_vas, &gm, &gpu_va_cached), 0);
    size_t faults_before = cg_fault_count(dev);
    int cpu_err = 0, gpu_err[2] = {0, 0};
    pthread_t cpu_t, gpu_t[2];
    CHECK_EQ(pthread_create(&cpu_t, NULL, cpu_worker, &cpu_err), 0);
    for (int i = 0; i < 2; i++)
        CHECK_EQ(pthread_create(&gpu_t[i], NULL, gpu_reader, &gpu_err[i]), 0);
    pthread_join(cpu_t, NULL);
    for (int i = 0; i < 2; i++)
        pthread_join(gpu_t[i], NULL);
    CHECK_EQ(cpu_err, 0);
    CHECK_EQ(gpu_err[0], 0);
    CHECK_EQ(gpu_err[1], 0);
    CHECK_EQ(cg_fault_count(dev), faults_before);
    /* Every CPU line was flushed with its last round's bytes. */
    bad = 0;
    for (uint64_t line = 0; line < 64; line++) {
        uint8_t b[64];
        cg_mem_read(cached_obj, line * 64, b, sizeof b);
        for (int i = 0; i < 64; i++)
            if (b[i] != (uint8_t)(line + 49))
                bad++;
    }
    CHECK_EQ(bad, 0);
    size_t dirty = 1, clean = 0;
    cg_mem_cache_lines(cached_obj, &dirty, &clean);
    CHECK_EQ(dirty, 0);
    CHECK_EQ(clean, 64);

    cg_mem_unref(cached_obj);
    cg_mem_unref(shared_obj);
    cg_device_destroy(dev);
    return check_report("test_mem_threads");
}
