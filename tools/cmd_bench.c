/* cmdgpu bench: quick figures for this machine. The bench/ programs measure
 * more (translation rate, host memory, family front ends). */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "cli.h"
#include "cmdgpu/core.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Bytes per second of fn over `bytes`, best of a few rounds. */
typedef int (*xfer_fn)(void *ctx, uint8_t *dst, size_t n);

static double best_rate(xfer_fn fn, void *ctx, uint8_t *dst, size_t n, int reps)
{
    double best = 0;
    for (int round = 0; round < 5; round++) {
        double t0 = now_s();
        for (int r = 0; r < reps; r++)
            if (fn(ctx, dst, n) != 0)
                return 0;
        double dt = now_s() - t0;
        double rate = dt > 0 ? (double)n * reps / dt : 0;
        if (rate > best)
            best = rate;
    }
    return best;
}

typedef struct bench_mem {
    cg_vas *vas;
    uint64_t va;
    const uint8_t *host;
} bench_mem;

static int via_vas(void *ctx, uint8_t *dst, size_t n)
{
    bench_mem *b = ctx;
    return cg_vas_read(b->vas, b->va, dst, n, NULL);
}

static int via_memcpy(void *ctx, uint8_t *dst, size_t n)
{
    bench_mem *b = ctx;
    memcpy(dst, b->host, n);
    /* Keep the copy from being optimised away. */
    __asm__ volatile("" : : "r"(dst) : "memory");
    return 0;
}

int cmd_bench(const cli_opts *o)
{
    if (o->nargs > 1 || (o->nargs == 1 && strcmp(o->args[0], "mem") != 0))
        return cli_error(EXIT_USAGE, "bench: the only benchmark is 'mem'");
    enum { SIZE = 16 << 20 };
    cg_device *dev = NULL;
    cg_vas *vas = NULL;
    cg_mem *mem = NULL;
    uint8_t *host = malloc(SIZE), *dst = malloc(SIZE);
    int rc = EXIT_INPUT;
    if (!host || !dst || cg_device_create(&dev) != 0)
        goto out;
    cg_vas_config cfg = {.va_bits = 40};
    cg_map_params mp = {0};
    bench_mem b = {0};
    if (cg_vas_create(dev, &cfg, &vas) != 0 || cg_mem_create(dev, SIZE, 0, &mem) != 0)
        goto out;
    mp.mem = mem;
    if (cg_vas_map(vas, &mp, &b.va) != 0)
        goto out;
    memset(host, 0x5a, SIZE);
    cg_mem_write(mem, 0, host, SIZE); /* make every page resident */
    b.vas = vas;
    b.host = host;
    double r_vas = best_rate(via_vas, &b, dst, SIZE, 4);
    double r_cpy = best_rate(via_memcpy, &b, dst, SIZE, 4);
    double ratio = r_cpy > 0 ? r_vas / r_cpy : 0;
    if (o->json)
        printf("{\"bench\":\"mem\",\"bytes\":%d,\"vas_read_gbps\":%.3f,"
               "\"memcpy_gbps\":%.3f,\"ratio\":%.3f}\n",
               SIZE, r_vas / 1e9, r_cpy / 1e9, ratio);
    else
        printf("mem: GPU read of %d MiB through the address space %.2f GB/s, "
               "memcpy %.2f GB/s, ratio %.2f\n",
               SIZE >> 20, r_vas / 1e9, r_cpy / 1e9, ratio);
    rc = EXIT_OK;
out:
    if (rc != EXIT_OK)
        cli_error(rc, "bench: set-up failed");
    cg_mem_unref(mem);
    cg_device_destroy(dev);
    free(host);
    free(dst);
    return rc;
}
