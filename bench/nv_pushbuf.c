/* nv pushbuffer benchmark: methods per second for a mixed, realistic stream
 * on MAXWELL_B (short headers, IMMD, INC runs of 1-8, NONINC constant-buffer
 * runs), and GB/s for bulk LOAD_INLINE_DATA (inline-to-memory, pitch) with
 * the ratio to memcpy measured in the same run. Figures only; targets from
 * the issue: >= 1.0 G methods/s mixed, >= 0.5x memcpy bulk. The mixed
 * stream is also decoded by a naive reference decoder (nv_pushbuf_naive.h)
 * in the same run, which must end in the same register and constant-buffer
 * state; the ratio of the two rates has the target >= 1.5x (issue 17).
 * Times are thread CPU time, best of 5. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "cmdgpu/cmdgpu.h"
#include "summary.h"
#include "cmdgpu/nv.h"
#include "nv/nv_internal.h"
#include "nv_pushbuf_naive.h"

#define PB_VA 0x100000000ull
#define DATA_VA 0x200000000ull
#define PB_BYTES (64u << 20)
#define BULK_BYTES (16u << 20)

/* CPU time of this thread: the figures stay meaningful on a loaded machine
 * (the model is single-threaded; memcpy is timed the same way). */
static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void die(const char *what, int rc)
{
    fprintf(stderr, "bench_nv_pushbuf: %s: %s\n", what, cg_strerror(rc));
    exit(1);
}

static uint64_t rng = 0x2545F4914F6CDD1Dull;
static uint32_t rnd(void)
{
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return (uint32_t)rng;
}

typedef struct bench {
    cg_device *dev;
    cg_nv_gpu *gpu;
    cg_nv_as *as;
    cg_nv_channel *ch;
} bench;

static void map(bench *b, uint64_t va, uint32_t size)
{
    uint32_t h;
    int rc;
    uint64_t at = va;
    if ((rc = cg_nv_nvmap_create(b->gpu, size, &h)) || (rc = cg_nv_nvmap_alloc(b->gpu, h, 1, 0, 0, 0)) ||
        (rc = cg_nv_as_alloc_space(b->as, size >> 12, 4096, CG_NV_AS_FIXED, &at)) ||
        (rc = cg_nv_as_map_buffer_ex(b->as, CG_NV_AS_FIXED, 0, h, 0, 0, 0, &at)))
        die("map", rc);
}

/* Submit [va, va + 4n) in entries of at most 1 M words, run, return seconds. */
static double submit_run(bench *b, uint64_t va, size_t n, int64_t *methods)
{
    uint64_t ents[256];
    size_t ne = 0;
    for (size_t i = 0; i < n; i += 1u << 20) {
        size_t k = n - i < (1u << 20) ? n - i : (1u << 20);
        ents[ne++] = cg_nv_gp_entry(va + 4 * i, (uint32_t)k, 0);
    }
    int rc = cg_nv_channel_submit_gpfifo(b->ch, ents, (uint32_t)ne, 0, NULL);
    if (rc)
        die("submit", rc);
    double t0 = now();
    *methods = cg_nv_gpu_run(b->gpu);
    double t = now() - t0;
    if (cg_fault_count(b->dev)) {
        char line[512];
        cg_fault_format(cg_fault_get(b->dev, 0), line, sizeof(line));
        fprintf(stderr, "bench_nv_pushbuf: fault: %s\n", line);
        exit(1);
    }
    return t;
}

int main(void)
{
    bench b;
    int rc;
    if ((rc = cg_device_create(&b.dev)) || (rc = cg_nv_gpu_create(b.dev, &b.gpu)) ||
        (rc = cg_nv_as_create(b.gpu, 0, &b.as)) || (rc = cg_nv_channel_open(b.gpu, b.as, 0, &b.ch)))
        die("setup", rc);
    map(&b, PB_VA, PB_BYTES);
    map(&b, DATA_VA, 64u << 20);
    uint32_t *pb = malloc(PB_BYTES);
    if (!pb)
        die("malloc", CG_ERR_NOMEM);

    /* ---- mixed stream ---- */
    cg_nv_pb p;
    cg_nv_pb_init(&p, pb, PB_BYTES / 4);
    cg_nv_pb_mthd(&p, 0, 0, 0xB197);
    uint32_t cb[4] = {0x10000, (uint32_t)(DATA_VA >> 32), (uint32_t)DATA_VA, 0};
    cg_nv_pb_inc(&p, 0, 0x2380, cb, 4);
    uint32_t data[16];
    for (int i = 0; i < 16; i++)
        data[i] = rnd();
    size_t start_methods = 5;
    while (p.len + 64 < p.cap) {
        uint32_t r = rnd() % 100;
        if (r < 35) { /* IMMD to a viewport/scissor-ish register */
            cg_nv_pb_immd(&p, 0, 0x0A00 + 4 * (rnd() % 96), rnd() & 0x1FFF);
        } else if (r < 85) { /* INC run of 1-8 */
            uint32_t k = 1 + rnd() % 8;
            cg_nv_pb_inc(&p, 0, 0x1C00 + 16 * (rnd() % 16), data, k);
        } else { /* constant buffer update: CB_POS then a NONINC run of 4-16 */
            uint32_t k = 4 + rnd() % 13;
            cg_nv_pb_immd(&p, 0, 0x238C, 4 * (rnd() % 256));
            cg_nv_pb_noninc(&p, 0, 0x2390, data, k);
        }
    }
    if (p.err)
        die("build", p.err);
    size_t mixed_words = p.len;
    cg_vas_cpu_write(cg_nv_as_vas(b.as), PB_VA, pb, mixed_words * 4);
    double best = 1e9;
    int64_t methods = 0;
    for (int rep = 0; rep < 5; rep++) {
        double t = submit_run(&b, PB_VA, mixed_words, &methods);
        if (t < best)
            best = t;
    }
    (void)start_methods;
    printf("nv mixed stream: %zu words, %lld methods, %.3f ms: %.1f M methods/s (%.2f GB/s of "
           "pushbuffer)\n", mixed_words, (long long)methods, best * 1e3, methods / best / 1e6,
           mixed_words * 4.0 / best / 1e9);

    /* the naive reference decoder on the same bytes, then the same state */
    naive_nv nd = {.subdev_mask = 0xFFF, .stored_mask = 0xFFF};
    for (int s = 0; s < 8; s++)
        nd.regs[s] = calloc(NAIVE_NREGS, 4);
    nd.cb = calloc(NAIVE_CB_WORDS, 4);
    double nbest = 1e9;
    for (int rep = 0; rep < 5; rep++) {
        nd.methods = 0;
        double t0 = now();
        size_t used = naive_decode(&nd, pb, mixed_words);
        double t = now() - t0;
        if (used != mixed_words)
            die("naive decode", CG_ERR_IO);
        if (t < nbest)
            nbest = t;
    }
    const uint32_t *mregs = b.ch->objs[NV_OBJ_3D].regs;
    uint32_t *mcb = malloc(4 * NAIVE_CB_WORDS);
    cg_vas_cpu_read(cg_nv_as_vas(b.as), DATA_VA, mcb, 4 * NAIVE_CB_WORDS);
    /* host methods (below 0x100) are not in the engine's register file */
    if (nd.methods != (uint64_t)methods || !mregs ||
        memcmp(nd.regs[0] + 0x40, mregs + 0x40, 4 * (NAIVE_NREGS - 0x40)) ||
        memcmp(nd.cb, mcb, 4 * NAIVE_CB_WORDS)) {
        fprintf(stderr, "bench_nv_pushbuf: the naive decoder's state differs from the model's "
                        "(%llu methods against %lld)\n", (unsigned long long)nd.methods,
                (long long)methods);
        exit(1);
    }
    free(mcb);
    double mrate = methods / best / 1e6, nrate = (double)nd.methods / nbest / 1e6;
    printf("nv mixed stream, naive switch decoder: %.3f ms: %.1f M methods/s; model/naive %.2fx "
           "(same final registers and constant buffer)\n", nbest * 1e3, nrate, mrate / nrate);
    char ncmp[64];
    snprintf(ncmp, sizeof ncmp, "naive %.1f M methods/s", nrate);
    bench_summary("nv pushbuf mixed stream", mrate, "M methods/s", ncmp, mrate / nrate,
                  ">= 1.5x naive decoder", mrate / nrate >= 1.5);
    for (int s = 0; s < 8; s++)
        free(nd.regs[s]);
    free(nd.cb);

    /* ---- bulk LOAD_INLINE_DATA ---- */
    cg_nv_pb_init(&p, pb, PB_BYTES / 4);
    cg_nv_pb_mthd(&p, 2, 0, 0xA140);
    uint32_t setup[5] = {BULK_BYTES, 1, (uint32_t)(DATA_VA >> 32), (uint32_t)DATA_VA, 0};
    cg_nv_pb_inc(&p, 2, 0x180, setup, 5);
    cg_nv_pb_mthd(&p, 2, 0x1B0, 1); /* pitch, flush disabled */
    uint32_t *payload = malloc(BULK_BYTES);
    for (size_t i = 0; i < BULK_BYTES / 4; i++)
        payload[i] = rnd();
    cg_nv_pb_noninc(&p, 2, 0x1B4, payload, BULK_BYTES / 4);
    if (p.err)
        die("build bulk", p.err);
    cg_vas_cpu_write(cg_nv_as_vas(b.as), PB_VA, pb, p.len * 4);
    best = 1e9;
    for (int rep = 0; rep < 5; rep++) {
        double t = submit_run(&b, PB_VA, p.len, &methods);
        if (t < best)
            best = t;
    }
    uint32_t check[4];
    cg_vas_cpu_read(cg_nv_as_vas(b.as), DATA_VA + BULK_BYTES - 16, check, 16);
    if (memcmp(check, payload + BULK_BYTES / 4 - 4, 16))
        die("bulk data check", CG_ERR_IO);
    uint8_t *dst = malloc(BULK_BYTES);
    double mbest = 1e9;
    for (int rep = 0; rep < 5; rep++) {
        double t0 = now();
        memcpy(dst, payload, BULK_BYTES);
        double t = now() - t0;
        if (t < mbest)
            mbest = t;
    }
    volatile uint8_t sink = dst[rnd() % BULK_BYTES];
    (void)sink;
    double gbs = BULK_BYTES / best / 1e9, mgbs = BULK_BYTES / mbest / 1e9;
    printf("nv bulk LOAD_INLINE_DATA: %u MiB in %.3f ms: %.2f GB/s; memcpy %.2f GB/s; ratio %.2fx\n",
           BULK_BYTES >> 20, best * 1e3, gbs, mgbs, gbs / mgbs);
    char cmp[64];
    snprintf(cmp, sizeof cmp, "memcpy %.2f GB/s", mgbs);
    bench_summary("nv bulk LOAD_INLINE_DATA", gbs, "GB/s", cmp, gbs / mgbs, ">= 0.5x memcpy",
                  gbs / mgbs >= 0.5);
    free(dst);
    free(payload);
    free(pb);
    cg_nv_gpu_destroy(b.gpu);
    cg_device_destroy(b.dev);
    return 0;
}
