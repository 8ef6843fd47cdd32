/* Memory-model benchmark: GPU read and copy throughput through an address
 * space against plain memcpy, translation rate, and host memory for huge
 * reservations. Prints figures only; no thresholds. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "cmdgpu/cmdgpu.h"
#include "summary.h"

#define KiB 1024ull
#define MiB (1024ull * KiB)
#define GiB (1024ull * MiB)
#define TiB (1024ull * GiB)

#define SECONDS_PER_FIGURE 0.3
#define SRC_VA (1ull << 32)            /* throughput source mapping */
#define DST_VA (SRC_VA + 256 * MiB)    /* throughput destination mapping */
#define RAND_VA (SRC_VA + 1 * GiB)     /* 256 MiB translation-test mapping */

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

_Noreturn static void die(const char *what, int rc)
{
    fprintf(stderr, "bench_mem: %s: %s\n", what, cg_strerror(rc));
    exit(1);
}

/* Keeps results observable so the compiler cannot drop the copies. */
static volatile uint8_t sink;

enum { HOST_MEMCPY, VAS_READ, VAS_COPY };

/* Bytes per second for one kind of transfer of `size` bytes, cycling through
 * a window of the source so every variant sees the same addresses. */
static double throughput(int kind, cg_vas *vas, uint8_t *host_src, uint8_t *host_dst,
                         size_t size, size_t window)
{
    size_t slots = window / size, slot = 0;
    uint64_t bytes = 0;
    unsigned batch = size >= MiB ? 1 : (unsigned)(4 * MiB / size);
    double start = now(), t;
    do {
        for (unsigned i = 0; i < batch; i++) {
            size_t off = slot * size;
            slot = slot + 1 == slots ? 0 : slot + 1;
            int rc = 0;
            switch (kind) {
            case HOST_MEMCPY:
                memcpy(host_dst, host_src + off, size);
                break;
            case VAS_READ:
                rc = cg_vas_read(vas, SRC_VA + off, host_dst, size, NULL);
                break;
            default:
                rc = cg_vas_copy(vas, DST_VA, SRC_VA + off, size, NULL);
                break;
            }
            if (rc)
                die("transfer", rc);
            sink ^= host_dst[size - 1];
        }
        bytes += (uint64_t)batch * size;
        t = now() - start;
    } while (t < SECONDS_PER_FIGURE);
    return (double)bytes / t;
}

static uint64_t xorshift(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* 4-byte GPU reads per second at random or sequential addresses. */
static double read32_rate(cg_vas *vas, bool random)
{
    uint64_t state = 0x9e3779b97f4a7c15ull, reads = 0, addr = 0;
    uint32_t acc = 0, v;
    double start = now(), t;
    do {
        for (int i = 0; i < 65536; i++) {
            if (random)
                addr = xorshift(&state) & (256 * MiB - 4) & ~3ull;
            else
                addr = (addr + 4) & (256 * MiB - 1);
            if (cg_vas_read32(vas, RAND_VA + addr, &v, NULL))
                die("read32", CG_ERR_FAULT);
            acc += v;
        }
        reads += 65536;
        t = now() - start;
    } while (t < SECONDS_PER_FIGURE);
    sink ^= (uint8_t)acc;
    return (double)reads / t;
}

/* The same random 4-byte reads from a plain host buffer, for scale. */
static double host_read32_rate(size_t size)
{
    uint8_t *buf = malloc(size);
    if (!buf)
        die("malloc", CG_ERR_NOMEM);
    memset(buf, 0x5a, size);
    uint64_t state = 0x9e3779b97f4a7c15ull, reads = 0;
    uint32_t acc = 0, v;
    double start = now(), t;
    do {
        for (int i = 0; i < 65536; i++) {
            uint64_t addr = xorshift(&state) & (size - 4) & ~3ull;
            memcpy(&v, buf + addr, 4);
            acc += v;
        }
        reads += 65536;
        t = now() - start;
    } while (t < SECONDS_PER_FIGURE);
    sink ^= (uint8_t)acc;
    free(buf);
    return (double)reads / t;
}

static void map_at(cg_vas *vas, cg_mem *m, uint64_t va, uint32_t flags)
{
    cg_map_params p = {.mem = m, .va = va, .flags = CG_MAP_FIXED | flags};
    int rc = cg_vas_map(vas, &p, NULL);
    if (rc)
        die("map", rc);
}

static void bench_throughput(void)
{
    cg_device *dev = NULL;
    cg_vas *vas = NULL;
    cg_mem *src = NULL, *dst = NULL, *rnd = NULL;
    if (cg_device_create(&dev) || cg_vas_create(dev, NULL, &vas))
        die("setup", CG_ERR_NOMEM);
    const size_t window = 64 * MiB;
    int rc = cg_mem_create(dev, window, 0, &src);
    if (!rc)
        rc = cg_mem_create(dev, 16 * MiB, 0, &dst);
    if (!rc)
        rc = cg_mem_create(dev, 256 * MiB, 0, &rnd);
    if (rc)
        die("create", rc);
    map_at(vas, src, SRC_VA, 0);
    map_at(vas, dst, DST_VA, 0);
    map_at(vas, rnd, RAND_VA, 0);

    /* Real data everywhere: every page has host backing. */
    uint8_t *host_src = malloc(window), *host_dst = malloc(16 * MiB);
    if (!host_src || !host_dst)
        die("malloc", CG_ERR_NOMEM);
    for (size_t i = 0; i < window; i++)
        host_src[i] = (uint8_t)(i * 131 + (i >> 12));
    memset(host_dst, 0, 16 * MiB);
    if ((rc = cg_mem_write(src, 0, host_src, window)) != 0 ||
        (rc = cg_mem_fill(dst, 0, 1, 16 * MiB)) != 0 ||
        (rc = cg_mem_fill(rnd, 0, 0x5a, 256 * MiB)) != 0)
        die("fill", rc);

    printf("GPU access through an address space (all pages backed), vs memcpy:\n");
    printf("  %-8s %10s %10s %7s %10s %7s\n", "size", "memcpy", "read", "ratio", "copy",
           "ratio");
    static const size_t sizes[] = {4 * KiB, 64 * KiB, 16 * MiB};
    static const char *const names[] = {"4 KiB", "64 KiB", "16 MiB"};
    for (int i = 0; i < 3; i++) {
        size_t w = sizes[i] >= MiB ? window : 4 * MiB;
        double base = throughput(HOST_MEMCPY, vas, host_src, host_dst, sizes[i], w);
        double rd = throughput(VAS_READ, vas, host_src, host_dst, sizes[i], w);
        double cp = throughput(VAS_COPY, vas, host_src, host_dst, sizes[i], w);
        printf("  %-8s %7.2f GB/s %5.2f GB/s %6.2fx %5.2f GB/s %6.2fx\n", names[i], base / 1e9,
               rd / 1e9, rd / base, cp / 1e9, cp / base);
    }

    printf("\nTranslation: 4-byte GPU reads (cg_vas_read32) over a 256 MiB mapping:\n");
    double rnd_rate = read32_rate(vas, true), host_rate = host_read32_rate(256 * MiB);
    printf("  random      %8.1f M reads/s\n", rnd_rate / 1e6);
    printf("  sequential  %8.1f M reads/s (one-entry TLB hits)\n", read32_rate(vas, false) / 1e6);
    printf("  host array  %8.1f M reads/s (random reads of a plain 256 MiB buffer; %.2fx)\n",
           host_rate / 1e6, rnd_rate / host_rate);
    printf("  host memory %8.1f MiB for %.0f MiB of backed objects\n",
           (double)cg_device_host_bytes(dev) / (double)MiB,
           (double)(window + 16 * MiB + 256 * MiB) / (double)MiB);

    free(host_src);
    free(host_dst);
    cg_mem_unref(src);
    cg_mem_unref(dst);
    cg_mem_unref(rnd);
    cg_device_destroy(dev);
}

static void print_host(const char *what, const cg_device *dev)
{
    printf("  %-44s %9zu bytes now, %9zu peak\n", what, cg_device_host_bytes(dev),
           cg_device_host_peak(dev));
}

static void bench_host_memory(void)
{
    cg_device *dev = NULL;
    cg_vas *vas = NULL;
    cg_vas_config c = {.va_bits = 48};
    if (cg_device_create(&dev) || cg_vas_create(dev, &c, &vas))
        die("setup", CG_ERR_NOMEM);
    printf("\nHost memory (cg_device_host_bytes / peak), 48-bit address space:\n");
    print_host("empty address space", dev);
    uint64_t va = 0;
    int rc = cg_vas_reserve(vas, &va, 1 * TiB, 0, 4096, CG_RESV_SPARSE);
    if (rc)
        die("reserve", rc);
    print_host("+ 1 TiB sparse reservation", dev);
    bench_summary("1 TiB sparse reservation, host memory", (double)cg_device_host_bytes(dev),
                  "bytes", "-", 0, "-", -1);
    cg_mem *m;
    if ((rc = cg_mem_create(dev, 1 * MiB, 0, &m)) != 0)
        die("create", rc);
    map_at(vas, m, va + 512 * GiB + 0x123000, CG_MAP_IN_RESV);
    print_host("+ 1 MiB object mapped inside it", dev);
    if ((rc = cg_vas_fill(vas, va + 512 * GiB + 0x123000, 0xff, 1 * MiB, NULL)) != 0)
        die("fill", rc);
    print_host("+ every page of the 1 MiB written by the GPU", dev);
    uint8_t buf[4096];
    double t = now();
    for (int i = 0; i < 1000; i++)
        if ((rc = cg_vas_read(vas, va + (uint64_t)i * GiB, buf, sizeof(buf), NULL)) != 0)
            die("read", rc);
    t = now() - t;
    print_host("+ 1000 4 KiB reads of sparse zeros", dev);
    printf("  (sparse reads: %.2f GB/s)\n", 1000.0 * sizeof(buf) / t / 1e9);
    cg_mem_unref(m);
    cg_device_destroy(dev);
}

int main(void)
{
    printf("cmdgpu %s memory-model benchmark\n\n", cg_version());
    bench_throughput();
    bench_host_memory();
    return 0;
}
