/* vc4 binner and renderer benchmark: builds control lists with the library
 * (no assembler), then measures
 *   - triangles binned per second: a scene of many small flat-shaded
 *     triangles, the binning thread alone (CT0CA/CT0EA), kicked again and
 *     again;
 *   - pixels shaded per second: the same scene's render list, and one
 *     full-screen pair of triangles at 1280x720, every covered pixel going
 *     through the QPU fragment shader (the seed's `ldi tlbc` shader).
 * Targets (issue 5): 25 M triangles/s binned, 250 M pixels/s.
 * Times are this thread's CPU time, with the render thread alone
 * (render_threads 1). Then the tile pool (issue 17 part 2): the wall-clock
 * speed-up of rendering each scene with 2 threads over 1 (same run,
 * frames interleaved, medians; and against 1 thread pinned to the faster
 * of two CPUs, with the cap two threads can reach on them: from each CPU
 * alone, and from the frame split in halves by hand and rendered on both
 * at once), what share of the frame's work ran on the pool, and a cache
 * line's round trip between the two CPUs. Prints figures only; no
 * thresholds. */
#ifdef __linux__
#define _GNU_SOURCE /* sched_setaffinity */
#include <pthread.h>
#include <sched.h>
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "cmdgpu/cmdgpu.h"
#include "summary.h"
#include "vc4/vc4_internal.h"

#define SECONDS 0.5

/* CPU time of this thread: the model runs in the caller's thread, and on a
 * loaded machine wall time would measure the other processes. */
static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

#include "cl_buf.h"

/* REND_HALF: two more render lists, each with the first list's set-up and
 * one half of its tiles (the first, then the second), REND_HALF_STEP apart
 * (together_frames) */
enum { REND_HALF = 0x240000, REND_HALF_STEP = 0x40000 };
enum { BIN_LIST = 0x100000, REND_LIST = 0x200000, NV_REC = 0x300000, FS = 0x300100,
       VERTS = 0x310000, TILES = 0x1000000, TSTATE = 0x1800000, FB = 0x2000000 };

static uint32_t half_end[2]; /* where the REND_HALF lists end (build) */

static uint32_t half_list(int i)
{
    return REND_HALF + (uint32_t)i * REND_HALF_STEP;
}

/* Build and load a scene of `ntri` triangles from `xy` (12.4 coordinates). */
static void build(cg_vc4 *v, int w, int h, const int16_t *xy, uint32_t nvert, uint32_t *bin_end,
                  uint32_t *rend_end)
{
    int tw = (w + 63) / 64, th = (h + 63) / 64;
    cl b = {0}, r = {0}, vd = {0};
    u8(&b, 112); u32(&b, TILES); u32(&b, 0x800000); u32(&b, TSTATE);
    u8(&b, (uint8_t)tw); u8(&b, (uint8_t)th); u8(&b, 0x04 | 0x60); /* auto-init, 256 B blocks */
    u8(&b, 6); u8(&b, 7);
    u8(&b, 102); u16(&b, 0); u16(&b, 0); u16(&b, (uint16_t)w); u16(&b, (uint16_t)h);
    u8(&b, 96); u8(&b, 3); u16(&b, 0);
    u8(&b, 103); u16(&b, 0); u16(&b, 0);
    u8(&b, 65); u32(&b, NV_REC);
    u8(&b, 33); u8(&b, 4); u32(&b, nvert); u32(&b, 0);
    u8(&b, 4);
    u8(&r, 8);
    u8(&r, 114); u32(&r, 0xFF202020); u32(&r, 0xFF202020); u32(&r, 0); u8(&r, 0);
    u8(&r, 113); u32(&r, FB); u16(&r, (uint16_t)w); u16(&r, (uint16_t)h); u16(&r, 4);
    u8(&r, 115); u8(&r, 0); u8(&r, 0);
    u8(&r, 28); u16(&r, 0); u32(&r, 0);
    size_t setup = r.n, mid = 0;
    for (int y = 0; y < th; y++)
        for (int x = 0; x < tw; x++) {
            if (y * tw + x == tw * th / 2)
                mid = r.n;
            u8(&r, 115); u8(&r, (uint8_t)x); u8(&r, (uint8_t)y);
            u8(&r, 17); u32(&r, TILES + (uint32_t)(y * tw + x) * 32);
            u8(&r, (x == tw - 1 && y == th - 1) ? 25 : 24);
        }
    /* the halves: the set-up, then [setup, mid) or [mid, end) */
    for (int i = 0; i < 2; i++) {
        size_t from = i ? mid : setup, to = i ? r.n : mid;
        uint32_t at = half_list(i);
        cg_vc4_cpu_write(v, at, r.b, setup);
        cg_vc4_cpu_write(v, at + (uint32_t)setup, r.b + from, to - from);
        half_end[i] = at + (uint32_t)(setup + to - from);
    }
    for (uint32_t i = 0; i < nvert; i++) {
        u16(&vd, (uint16_t)xy[2 * i]); u16(&vd, (uint16_t)xy[2 * i + 1]);
        u32(&vd, 0x3f000000); u32(&vd, 0x3f800000);
    }
    static const uint32_t shader[] = {0x00FF8000, 0xE0020BA7, 0x009E7000, 0x300009E7,
                                      0x009E7000, 0x100009E7, 0x009E7000, 0x100009E7};
    uint8_t nv[16] = {0, 12, 0, 0};
    uint32_t a = FS, d = VERTS;
    memcpy(nv + 4, &a, 4);
    memcpy(nv + 12, &d, 4);
    cg_vc4_cpu_write(v, BIN_LIST, b.b, b.n);
    cg_vc4_cpu_write(v, REND_LIST, r.b, r.n);
    cg_vc4_cpu_write(v, NV_REC, nv, 16);
    cg_vc4_cpu_write(v, FS, shader, sizeof shader);
    cg_vc4_cpu_write(v, VERTS, vd.b, vd.n);
    *bin_end = BIN_LIST + (uint32_t)b.n;
    *rend_end = REND_LIST + (uint32_t)r.n;
    free(b.b);
    free(r.b);
    free(vd.b);
}

static void kick(cg_vc4 *v, int t, uint32_t s, uint32_t e)
{
    cg_vc4_reg_write(v, t ? CG_VC4_CT1CA : CG_VC4_CT0CA, s);
    cg_vc4_reg_write(v, t ? CG_VC4_CT1EA : CG_VC4_CT0EA, e);
}

/* phases: 1 binning alone, 2 bin + render, 3 both */
static void run(const char *name, int w, int h, const int16_t *xy, uint32_t nvert, int phases)
{
    cg_device *dev;
    cg_vc4 *v;
    cg_vc4_config cfg = {.sdram_size = 64u << 20, .render_threads = 1};
    if (cg_device_create(&dev) || cg_vc4_create(dev, &cfg, &v)) {
        fprintf(stderr, "setup failed\n");
        exit(1);
    }
    uint32_t be, re;
    build(v, w, h, xy, nvert, &be, &re);
    /* binning alone */
    double t0 = now(), t1 = t0 + 1;
    uint64_t frames = 0;
    while (phases & 1) {
        kick(v, 0, BIN_LIST, be);
        frames++;
        t1 = now();
        if (t1 - t0 >= SECONDS)
            break;
    }
    cg_vc4_stats s;
    cg_vc4_get_stats(v, &s);
    double tris = (double)s.prims_binned / (t1 - t0);
    /* bin + render, timing the render thread */
    double rt = 0;
    uint64_t frag0 = 0, rframes = 0;
    cg_vc4_get_stats(v, &s);
    frag0 = s.fragments;
    while (phases & 2) {
        kick(v, 0, BIN_LIST, be);
        double a = now();
        kick(v, 1, REND_LIST, re);
        rt += now() - a;
        rframes++;
        if (rt >= SECONDS)
            break;
    }
    if (rt == 0)
        rt = 1;
    cg_vc4_get_stats(v, &s);
    double pix = (double)(s.fragments - frag0) / rt;
    printf("vc4_render %-24s %ux%u: binned %.2f M triangles/s (%.0f frames/s), shaded %.1f M "
           "pixels/s (%llu frames, %llu px/frame), faults %zu\n",
           name, w, h, tris / 1e6, (double)frames / (t1 - t0), pix / 1e6,
           (unsigned long long)rframes,
           (unsigned long long)((s.fragments - frag0) / (rframes ? rframes : 1)),
           cg_fault_count(dev));
    /* issue 17 targets: small triangles 150 M px/s and 35 M triangles/s
     * binned, the full-screen pair 250 M px/s (per core: one render thread) */
    bool small = nvert > 6;
    char measure[80];
    snprintf(measure, sizeof measure, "vc4 shaded, %s", name);
    if (phases == 3)
        bench_summary(measure, pix / 1e6, "M px/s", "-", 0, small ? ">= 150" : ">= 250",
                      pix / 1e6 >= (small ? 150 : 250));
    if (phases == 3 && small)
        bench_summary("vc4 binned, small triangles", tris / 1e6, "M tri/s", "-", 0, ">= 35",
                      tris / 1e6 >= 35);
    cg_vc4_destroy(v);
    cg_device_destroy(dev);
}

static double wall(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The median wall time of the render kick of frames of v (1 render
 * thread) with this thread pinned to each of the first two CPUs it may
 * run on, in out[0..1]: a host's vCPUs need not be equally fast (on the
 * 2-vCPU host of docs/performance.md one renders 1.45-1.7x slower than
 * the other, while plain integer loops run at the same speed on both),
 * and then 2 threads reach at most 1 + fast / slow times the faster one.
 * False where this cannot be measured (the affinity is left as it was). */
enum { PIN_FRAMES = 31 };
static bool per_cpu_frames(cg_vc4 *v, uint32_t be, uint32_t re, double out[2], int cpu[2]);

/* How long a cache line takes to go from one CPU to the other and back,
 * in ns: two threads pinned to cpu[0] and cpu[1] take turns writing it;
 * 0 where this cannot be measured. A pool's threads hand tiles, results
 * and stores to each other through such lines. On the 2-vCPU host of
 * docs/performance.md it was 95-160 ns in some minutes (the two vCPUs
 * share a cache) and 410-630 ns in others (they do not: the hypervisor
 * moved one), and the pool's speed-up followed it. */
static double line_round_trip(const int cpu[2]);
static bool two_cpus(int cpu[2]);
static bool together_frames(cg_vc4 *a, cg_vc4 *b, uint32_t be, const int cpu[2], double out[2],
                            double work[2]);

/* The tile pool: the same scene on two devices, 1 and 2 render threads,
 * frames interleaved; the median wall time of the render kick of each. */
/* profiling: the frames of one device alone (1 or 2 threads), 0: both */
static int pool_only;

static void pool_speedup(const char *name, int w, int h, const int16_t *xy, uint32_t nvert)
{
    enum { FRAMES = 61 };
    cg_device *dev[3];
    cg_vc4 *v[3]; /* 1 thread, 2 threads, and 1 thread again (together_frames) */
    uint32_t be = 0, re = 0;
    for (int i = 0; i < 3; i++) {
        cg_vc4_config cfg = {.sdram_size = 64u << 20, .render_threads = i == 1 ? 2u : 1u,
                             .pool_at_once = true};
        if (cg_device_create(&dev[i]) || cg_vc4_create(dev[i], &cfg, &v[i])) {
            fprintf(stderr, "setup failed\n");
            exit(1);
        }
        build(v[i], w, h, xy, nvert, &be, &re);
    }
    /* a first frame each (memory backed as in every later frame), then
     * the wall clock of FRAMES frames each, interleaved, without timing
     * the segments; then the 1-thread device pinned to each CPU
     * (per_cpu_frames); then FRAMES frames of the 2-thread device with its
     * segments timed (pool_timing: wall clock) and the render thread's CPU
     * time */
    double t[2][FRAMES] = {{0}}, cpu_main = 0, trip[2] = {0, 0};
    int tcpu[2];
    bool tripped = !pool_only && two_cpus(tcpu);
    if (tripped)
        trip[0] = line_round_trip(tcpu);
    for (int i = pool_only == 2 ? 1 : 0; i < (pool_only == 1 ? 1 : 2); i++) {
        kick(v[i], 0, BIN_LIST, be);
        kick(v[i], 1, REND_LIST, re);
    }
    for (int f = 0; f < FRAMES; f++)
        for (int i = pool_only == 2 ? 1 : 0; i < (pool_only == 1 ? 1 : 2); i++) {
            kick(v[i], 0, BIN_LIST, be);
            double a = wall();
            kick(v[i], 1, REND_LIST, re);
            t[i][f] = wall() - a;
        }
    if (tripped)
        trip[1] = line_round_trip(tcpu);
    cg_vc4_stats s[2];
    cg_vc4_get_stats(v[0], &s[0]);
    cg_vc4_get_stats(v[1], &s[1]); /* (the same frames) */
    double pin[2];
    int pcpu[2];
    bool pinned = !pool_only && per_cpu_frames(v[0], be, re, pin, pcpu);
    double both[2] = {0, 0}, work[2] = {0.5, 0.5};
    bool together = pinned && together_frames(v[0], v[2], be, pcpu, both, work);
    vc4_pool_counts pc0;
    vc4_pool_get_counts(v[1], &pc0);
    v[1]->pool_timing = true;
    for (int f = 0; f < (pool_only ? 0 : FRAMES); f++) {
        kick(v[1], 0, BIN_LIST, be);
        double c = bench_thread_cpu();
        kick(v[1], 1, REND_LIST, re);
        cpu_main += bench_thread_cpu() - c;
    }
    qsort(t[0], FRAMES, sizeof(double), cmp_d);
    qsort(t[1], FRAMES, sizeof(double), cmp_d);
    double m1 = t[0][FRAMES / 2], m2 = t[1][FRAMES / 2], ratio = m1 / m2;
    vc4_pool_counts pc;
    vc4_pool_get_counts(v[1], &pc);
    /* CPU-independent: the share of the frame's fragment batches whose
     * segments ran on the pool; and the share of the frame's CPU time
     * (all threads) spent in pool segments, and what Amdahl's law makes
     * of it for 2 threads */
    cg_vc4_stats s2;
    cg_vc4_get_stats(v[1], &s2);
    double bshare = s2.batches ? (double)pc.batches_taken / (double)s2.batches : 0;
    double par = (double)pc.seg_ns * 1e-9, ser = cpu_main - (double)pc.seg_ns_main * 1e-9;
    double pshare = par + ser > 0 ? par / (par + ser) : 0;
    printf("vc4_render pool %-19s %ux%u: 1 thread %.2f ms, 2 threads %.2f ms (median of %d "
           "frames, wall clock): %.2fx; segments (%d frames) %llu cut, %llu rendered, %llu taken; "
           "batches on the pool %.1f%%, time in pool segments %.1f%% (Amdahl for 2 "
           "threads %.2fx); identical stats %s, faults %zu/%zu\n",
           name, w, h, m1 * 1e3, m2 * 1e3, FRAMES, ratio, 2 * FRAMES + 1, (unsigned long long)pc.segs,
           (unsigned long long)pc.rendered, (unsigned long long)pc.taken, bshare * 100,
           pshare * 100, 1 / ((1 - pshare) + pshare / 2),
           memcmp(&s[0], &s[1], sizeof s[0]) == 0 ? "yes" : "NO", cg_fault_count(dev[0]),
           cg_fault_count(dev[1]));
    printf("  per frame: render thread CPU %.2f ms (%.2f ms of it in segments), segments on "
           "all threads %.2f ms; stores staged by the workers (%d frames) %llu\n",
           cpu_main * 1e3 / FRAMES, (double)pc.seg_ns_main * 1e-6 / FRAMES,
           (double)pc.seg_ns * 1e-6 / FRAMES, 2 * FRAMES + 1, (unsigned long long)pc.es_taken);
    /* the segments timed are those of the last FRAMES frames (pool_timing) */
    uint64_t on_main = pc.rendered_main - pc0.rendered_main, all = pc.rendered - pc0.rendered;
    if (on_main && all > on_main)
        printf("  a segment takes %.2f us on the render thread, %.2f us on a worker (wall clock; "
               "%.0f%% of them on the render thread)\n",
               (double)pc.seg_ns_main * 1e-3 / (double)on_main,
               (double)(pc.seg_ns - pc.seg_ns_main) * 1e-3 / (double)(all - on_main),
               100.0 * (double)on_main / (double)all);
    char measure[80], cmp[80];
    snprintf(measure, sizeof measure, "vc4 pool 2 threads, %s", name);
    if (pinned) {
        /* against one thread on the faster CPU: the honest comparison
         * when the two differ (the unpinned 1-thread frames run on
         * whichever the scheduler chose) */
        int f = pin[1] < pin[0];
        double fast = pin[f], slow = pin[!f], ceil = 1 + fast / slow, got = fast / m2;
        printf("  1 thread pinned: %.2f ms on CPU %d, %.2f ms on CPU %d (median of %d frames "
               "each); 2 threads on these CPUs reach at most %.2fx the faster one; the pool "
               "reached %.2fx, %.0f%% of that\n",
               pin[0] * 1e3, pcpu[0], pin[1] * 1e3, pcpu[1], PIN_FRAMES, ceil, got,
               100 * got / ceil);
        if (together) {
            /* the two CPUs' rates at once added (a half's share of the
             * work over its time): the frame time of a split that keeps
             * both busy to the end, against both halves one after the
             * other on one CPU (all measured within a few frames' time:
             * this host's speeds drift from minute to minute) */
            double sum = work[0] + work[1], w0 = work[0] / sum, w1 = work[1] / sum;
            double cap2 = sum * (w0 / both[0] + w1 / both[1]);
            printf("  the frame split in halves by hand: alone on CPU %d %.2f and %.2f ms (%.0f%% "
                   "and %.0f%% of the work); both at once: %.2f ms on CPU %d, %.2f ms on CPU %d "
                   "(medians of %d); so 2 threads reach at most %.2fx one; the pool reached "
                   "%.0f%% of that\n",
                   pcpu[0], work[0] * 1e3, work[1] * 1e3, 100 * w0, 100 * w1, both[0] * 1e3,
                   pcpu[0], both[1] * 1e3, pcpu[1], PIN_FRAMES, cap2, 100 * got / cap2);
            ceil = cap2 < ceil ? cap2 : ceil;
        }
        if (trip[0] > 0 && trip[1] > 0) {
            printf("  a cache line from CPU %d to CPU %d and back: %.0f ns before the frames, %.0f "
                   "ns after them\n",
                   tcpu[0], tcpu[1], trip[0], trip[1]);
            snprintf(cmp, sizeof cmp, "1 thread, faster CPU (cap %.2fx; line trip %.0f ns)", ceil,
                     trip[0] > trip[1] ? trip[0] : trip[1]);
        } else {
            snprintf(cmp, sizeof cmp, "1 thread, faster CPU (this host's cap %.2fx)", ceil);
        }
        bench_summary(measure, got, "x wall", cmp, got, ">= 1.8", got >= 1.8);
    } else {
        bench_summary(measure, ratio, "x wall", "1 thread", ratio, ">= 1.8", ratio >= 1.8);
    }
    for (int i = 0; i < 3; i++) {
        cg_vc4_destroy(v[i]);
        cg_device_destroy(dev[i]);
    }
}

/* The first two CPUs this thread may run on, in cpu[0..1]; false when
 * there are fewer (or this is not Linux). */
static bool two_cpus(int cpu[2])
{
#ifdef __linux__
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) != 0 || CPU_COUNT(&set) < 2)
        return false;
    int n = 0;
    for (int c = 0; c < CPU_SETSIZE && n < 2; c++)
        if (CPU_ISSET(c, &set))
            cpu[n++] = c;
    return n == 2;
#else
    (void)cpu;
    return false;
#endif
}

#ifdef __linux__
enum { TRIP_ROUNDS = 20000, TRIP_BATCHES = 5 };
static struct {
    _Alignas(64) int turn; /* 1: the other thread's */
    int cpu;
    bool ok;
} trip_line;

static bool pin_to(int c)
{
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(c, &one);
    return sched_setaffinity(0, sizeof one, &one) == 0;
}

static void *trip_other(void *arg)
{
    (void)arg;
    bool ok = pin_to(trip_line.cpu);
    __atomic_store_n(&trip_line.ok, ok, __ATOMIC_RELEASE);
    for (int i = 0; i < TRIP_ROUNDS; i++) {
        while (__atomic_load_n(&trip_line.turn, __ATOMIC_ACQUIRE) != 1)
            ;
        __atomic_store_n(&trip_line.turn, 0, __ATOMIC_RELEASE);
    }
    return NULL;
}
#endif

static double line_round_trip(const int cpu[2])
{
#ifdef __linux__
    cpu_set_t old;
    if (sched_getaffinity(0, sizeof old, &old) != 0 || !pin_to(cpu[0]))
        return 0;
    /* the pool's workers spin up to 1 ms after a frame (pool.c
     * POOL_LINGER_NS) and would share the CPUs: let them go to sleep */
    struct timespec nap = {0, 5000000};
    nanosleep(&nap, NULL);
    trip_line.turn = 0;
    trip_line.cpu = cpu[1];
    trip_line.ok = false;
    pthread_t tid;
    double ns = 0;
    if (pthread_create(&tid, NULL, trip_other, NULL) == 0) {
        /* the median of TRIP_BATCHES batches: one preemption spoils one */
        double b[TRIP_BATCHES];
        for (int k = 0; k < TRIP_BATCHES; k++) {
            double a = wall();
            for (int i = 0; i < TRIP_ROUNDS / TRIP_BATCHES; i++) {
                __atomic_store_n(&trip_line.turn, 1, __ATOMIC_RELEASE);
                while (__atomic_load_n(&trip_line.turn, __ATOMIC_ACQUIRE) != 0)
                    ;
            }
            b[k] = (wall() - a) * 1e9 / (TRIP_ROUNDS / TRIP_BATCHES);
        }
        qsort(b, TRIP_BATCHES, sizeof(double), cmp_d);
        ns = b[TRIP_BATCHES / 2];
        pthread_join(tid, NULL);
        if (!trip_line.ok)
            ns = 0; /* both threads may have shared one CPU */
    }
    sched_setaffinity(0, sizeof old, &old);
    return ns;
#else
    (void)cpu;
    return 0;
#endif
}

#ifdef __linux__
/* PIN_FRAMES render kicks of [list, end) on v, pinned to cpu (after one
 * untimed kick there, and after start when set: a barrier both threads of
 * together_frames wait at); their median wall time in median. */
typedef struct pinned_run {
    cg_vc4 *v;
    uint32_t be, list, end;
    int cpu;
    pthread_barrier_t *start;
    bool ok; /* pinned: the frames ran */
    double median;
} pinned_run;

static void *pinned_frames(void *arg)
{
    pinned_run *a = arg;
    a->ok = pin_to(a->cpu);
    if (a->ok) {
        kick(a->v, 0, BIN_LIST, a->be);
        kick(a->v, 1, a->list, a->end); /* (caches warm on this CPU) */
    }
    if (a->start)
        pthread_barrier_wait(a->start);
    if (!a->ok)
        return NULL;
    double t[PIN_FRAMES];
    for (int f = 0; f < PIN_FRAMES; f++) {
        kick(a->v, 0, BIN_LIST, a->be);
        double t0 = wall();
        kick(a->v, 1, a->list, a->end);
        t[f] = wall() - t0;
    }
    qsort(t, PIN_FRAMES, sizeof(double), cmp_d);
    a->median = t[PIN_FRAMES / 2];
    return NULL;
}
#endif

/* A frame split in two by hand: two 1-thread devices (a, b: the same
 * scene) at the same time, a rendering the first half of the tiles on
 * cpu[0] and b the second half on cpu[1]: the median time of each half in
 * out[0..1], and of each alone on cpu[0] (timed first) in work[0..1].
 * What two threads can reach at best on these CPUs: two CPUs of a virtual
 * machine need not keep their speed when both are busy (on the host of
 * docs/performance.md, in some minutes, one of them rendered its half of
 * the full-screen pair 16-28% slower than alone). False where this cannot
 * be measured. */
static bool together_frames(cg_vc4 *a, cg_vc4 *b, uint32_t be, const int cpu[2], double out[2],
                            double work[2])
{
#ifdef __linux__
    cpu_set_t old;
    if (sched_getaffinity(0, sizeof old, &old) != 0)
        return false;
    pthread_barrier_t start;
    if (pthread_barrier_init(&start, NULL, 2) != 0)
        return false;
    pinned_run args[2];
    pthread_t tid;
    bool ok = true;
    /* each half alone on cpu[0] first: the share of the frame's work in it */
    for (int i = 0; i < 2 && ok; i++) {
        args[i] = (pinned_run){.v = a, .be = be, .list = half_list(i), .end = half_end[i],
                               .cpu = cpu[0]};
        pinned_frames(&args[i]);
        ok = args[i].ok;
        work[i] = args[i].median;
    }
    for (int i = 0; i < 2; i++)
        args[i] = (pinned_run){.v = i ? b : a, .be = be, .list = half_list(i),
                               .end = half_end[i], .cpu = cpu[i], .start = &start};
    if (ok && pthread_create(&tid, NULL, pinned_frames, &args[1]) == 0) {
        pinned_frames(&args[0]);
        pthread_join(tid, NULL);
        ok = args[0].ok && args[1].ok;
        out[0] = args[0].median;
        out[1] = args[1].median;
    } else {
        ok = false;
    }
    pthread_barrier_destroy(&start);
    sched_setaffinity(0, sizeof old, &old);
    return ok;
#else
    (void)a, (void)b, (void)be, (void)cpu, (void)out, (void)work;
    return false;
#endif
}

static bool per_cpu_frames(cg_vc4 *v, uint32_t be, uint32_t re, double out[2], int cpu[2])
{
#ifdef __linux__
    cpu_set_t old;
    if (sched_getaffinity(0, sizeof old, &old) != 0 || !two_cpus(cpu))
        return false;
    bool ok = true;
    for (int i = 0; i < 2 && ok; i++) {
        pinned_run r = {.v = v, .be = be, .list = REND_LIST, .end = re, .cpu = cpu[i]};
        pinned_frames(&r);
        ok = r.ok;
        out[i] = r.median;
    }
    sched_setaffinity(0, sizeof old, &old);
    return ok;
#else
    (void)v, (void)be, (void)re, (void)out, (void)cpu;
    return false;
#endif
}

/* argv[1]: "small" or "pair" runs one scene only (anything else: both),
 * argv[2]: "bin" or "render" one phase only (for profiling), "pool" the
 * pool's speed-up alone, "pool1" or "pool2" the frames of its 1- or 2-thread
 * device alone (profiling). */
int main(int argc, char **argv)
{
    const char *only = argc > 1 ? argv[1] : "";
    const char *phase = argc > 2 ? argv[2] : "";
    int phases = strcmp(phase, "bin") == 0      ? 1
                 : strcmp(phase, "render") == 0 ? 2
                 : strcmp(phase, "pool") == 0   ? 0
                 : strcmp(phase, "pool1") == 0  ? 0
                 : strcmp(phase, "pool2") == 0  ? 0
                                                : 3;
    pool_only = strcmp(phase, "pool1") == 0 ? 1 : strcmp(phase, "pool2") == 0 ? 2 : 0;
    /* 20000 small triangles (about 8x8 pixels each) over 640x480 */
    enum { N = 20000 };
    int16_t *xy = malloc(sizeof(int16_t) * 2 * 3 * N);
    uint32_t seed = 12345;
    for (int i = 0; i < N; i++) {
        seed = seed * 1103515245u + 12345u;
        int x = (int)((seed >> 8) % 620), y = (int)((seed >> 4) % 460);
        int16_t t[6] = {(int16_t)(x * 16), (int16_t)(y * 16), (int16_t)((x + 12) * 16),
                        (int16_t)(y * 16), (int16_t)(x * 16), (int16_t)((y + 12) * 16)};
        memcpy(xy + 6 * i, t, sizeof t);
    }
    if (phases && strcmp(only, "pair") != 0)
        run("20000 small triangles", 640, 480, xy, 3 * N, phases);
    /* one full-screen pair */
    int16_t pair[12] = {0, 0, 1280 * 16, 0, 0, 720 * 16,
                        1280 * 16, 0, 1280 * 16, 720 * 16, 0, 720 * 16};
    if (phases && strcmp(only, "small") != 0)
        run("full-screen pair", 1280, 720, pair, 6, phases);
    if (phases == 0 || phases == 3) {
        if (strcmp(only, "pair") != 0)
            pool_speedup("20000 small triangles", 640, 480, xy, 3 * N);
        if (strcmp(only, "small") != 0)
            pool_speedup("full-screen pair", 1280, 720, pair, 6);
    }
    free(xy);
    return 0;
}
