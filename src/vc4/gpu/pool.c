/* vc4 family: the render thread's tile pool (docs/vc4.md "Tiles on a pool
 * of threads").
 *
 * The render thread interprets its list record by record (cl.c step). When
 * it starts stepping, a pre-pass here follows the list from CA without
 * touching anything (the record fetches, branches and sub-lists the thread
 * would take, the state records latched into a copy of the renderer's
 * state, compressed primitive lists skipped item by item) and cuts it into
 * tile segments: from a Tile_Coordinates record up to the record that ends
 * the tile (a store, the next Tile_Coordinates, a semaphore or Halt: cl.c
 * seg_end). For each segment it keeps where it starts (CA, the sub-list
 * stack), the renderer's latched state there and the tile buffer's
 * contents (known when the last store cleared it), and it collects the
 * memory every store of the frame may write.
 *
 * Worker threads (and the render thread while it waits) render segments
 * that draw something, in list order, each on a private copy of the device
 * (cl.c runs the records; render.c draws them) with a private tile buffer,
 * batch, decoded-shader cache and GL cache, its own budget counter and
 * statistics, through a private bus that maps SDRAM without the pages the
 * frame's stores may write, read-only. Workers write no memory while they
 * render (a store they stage is written once taken: "early stores" below;
 * anything else that would write, such as a GL vertex shader's VDW, faults
 * on that bus, so its segment has no result and runs on the render thread
 * in list order), and the
 * faults they raise are only counted (cg__fault_capture): a worker that
 * faulted, read a page a store writes (that is a fault on its bus), ran out
 * of budget or ended anywhere else than at its segment's end has no
 * result.
 *
 * The render thread goes on stepping as before. At a segment's start it
 * takes the worker's result only when its state is exactly the one the
 * worker started from (CA, the sub-list stack, every latched field as bytes,
 * every tile-buffer word) and its budget covers what the worker spent: CA
 * moves to the segment's end, the budget, statistics and list counter are
 * spent as the records would have, and the tile buffer and state become the
 * worker's. Everything else runs on the render thread as before: stores
 * not staged (with the faults and interrupts they raise), segments without
 * a result, faults. Since a
 * segment's outcome depends only on that state, the memory it reads (none
 * of it written by this frame's stores) and its budget, the results are
 * those of one thread, bit for bit. A store outside the pages the pre-pass
 * set aside (the list rewritten under the pre-pass) first stops the
 * workers. */
#define _GNU_SOURCE /* PTHREAD_MUTEX_ADAPTIVE_NP */
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include "gl.h"
#include "vc4/qpu.h"

#define POOL_MAX_THREADS 8      /* the default's cap: the host's CPUs, at most this */
#define POOL_MAX_SEGS 8192      /* segments one pre-pass may cut (64 x 64 tiles x 2) */
#define POOL_MAX_HOLES 32       /* page ranges set aside for stores; more are merged */
#define PRE_MAX_WORK (1u << 22)   /* records and items one pre-pass follows */
#define ES_MAX_GROUPS 4         /* surfaces early stores may write in one run */
#define ES_TOUCH_BITS 13
#define ES_MAX_TOUCH 4096       /* list pages one pre-pass remembers (half the set) */
#define TRACE_MAX_RECS 1024     /* records a traced segment may run and still give a result */
#define TILE_BUF_BYTES (VC4_TILE * VC4_TILE * 4u) /* a tile buffer's colour or Z/S words */
#define ES_STAGE_BYTES TILE_BUF_BYTES /* what one store writes, at most (they trade places) */
#define ES_MAX_RUNS (VC4_TILE * VC4_TILE)       /* its runs (a pixel each at worst) */
/* How long a worker with nothing to do spins on the pool's tick before it
 * sleeps (work may come: the run being prepared, segments the window holds
 * back, stores to write, the run's end): waking a sleeping thread
 * took 70-125 us on the 2-vCPU host of docs/performance.md, 7-12
 * segments' worth. */
#define POOL_SPIN_NS 200000
/* How long after a run a worker spins for the next one before it sleeps:
 * a render kick usually follows a short binning kick, and waking a
 * sleeping worker cost the render thread 11-39 us there (the futex wake
 * is a hypercall on that host). An idle worker so burns at most this
 * much CPU per run (OpenMP runtimes spin 200 ms by default). */
#define POOL_LINGER_NS 1000000

/* A surface the frame's stores write (early stores): the stores with the
 * same key write the bytes of their own tile, disjoint from every other
 * tile's (pix_off is one to one inside the surface). */
typedef struct es_group {
    uint32_t base;
    uint16_t width;
    uint8_t tiling, bpp, raw; /* raw: a full-resolution dump at base */
    uint64_t lo, hi;          /* its bus range */
    uint8_t tiles[VC4_TILE * VC4_TILE / 8]; /* the tiles stored to it */
    uint8_t **host;           /* the host page of each bus page from lo >> 12 */
    size_t npages, cap;
    bool ok;                  /* every page plain memory, backed and writable */
    /* host[] as es_prepare last found it: all ok for npages from bus page
     * first in the bus state epoch (kept from run to run; group_of keeps
     * what follows tiles) */
    bool res_ok;
    uint64_t res_epoch, res_first;
    size_t res_n;
} es_group;

/* One result's early store, staged: its bytes (in `bytes`) and where each
 * run of them goes, written to memory only once the render thread has
 * taken the result (es_commit). A slot borrows one from the thread that
 * renders into it (es_get) and gives it back to that thread once written
 * or dropped (es_put): its buffers, which vc4_es_take_rows swaps with the
 * thread's tile buffers, and its runs then stay in one core's cache
 * instead of moving to whichever thread uses the slot next. */
struct vc4_es_seg {
    struct vc4_pool *p;
    unsigned k;     /* its segment */
    unsigned owner; /* the thread it belongs to (index in the pool's wk) */
    bool began;     /* it may stage (vc4_pool_es_begin) */
    uint32_t nruns, used;
    uint8_t *bytes; /* ES_STAGE_BYTES (or a tile buffer: vc4_es_take_rows) */
    struct es_run {
        uint8_t *dst;
        const uint8_t *src; /* in bytes */
        uint32_t len;
    } *runs; /* ES_MAX_RUNS */
    struct vc4_es_seg *next_free; /* in its owner's free list */
    struct vc4_es_seg *next_all;  /* in the pool's list of them all */
};

/* A segment's early store: none; staged (the render thread has not
 * reached it); taken, to be written to memory; being written; written;
 * dropped (nothing of it reached memory). */
enum { ES_NONE = 0, ES_STAGED, ES_COMMITTED, ES_FLUSHING, ES_DONE, ES_DROPPED };

typedef struct pool_seg {
    uint32_t addr;   /* its Tile_Coordinates record */
    uint32_t ret[2]; /* the sub-list stack there */
    unsigned depth;
    uint32_t color, zs; /* every tile-buffer word before it */
    bool spec;       /* handed to the workers */
    uint8_t status;  /* SEG_*; under the pool's lock */
    /* early stores: the store that ends it may be written by the worker
     * (es_ok), the tile buffer's words after it (end_c, end_z when
     * end_fill), es_state (ES_*, under the lock), who wrote it */
    bool es_ok, end_fill, abandoned;
    uint8_t es_state;
    int8_t es_group; /* the surface it writes, -1: none */
    uint32_t end_c, end_z;
    struct pool_slot *es_by; /* the result whose store is staged (ES_STAGED) */
    uint8_t state[VC4_RSTATE_LEN]; /* the renderer's latched state before it */
} pool_seg;

enum { SEG_FREE = 0, SEG_BUSY, SEG_DONE };

/* While the device is traced, the records a segment ran (vc4_pool_log),
 * for the render thread to emit when it takes the result: the same
 * CG_TRACE_PACKET events, in the same order, as one thread's. */
typedef struct trace_rec {
    uint32_t addr;
    uint8_t bytes[16]; /* its size is its opcode's (vc4_record_get) */
} trace_rec;

struct vc4_trace_log {
    trace_rec *rec; /* TRACE_MAX_RECS of them, from the first traced vc4_pool_begin */
    unsigned n;
    bool over; /* more records than that (or no memory): no result */
};

/* A worker's result, for segment k in slot k % window. */
struct pool_slot {
    vc4_render *r;     /* latched state and tile buffer after the segment */
    vc4_thread th;     /* the thread after it */
    uint64_t units;    /* budget spent */
    cg_vc4_stats stats;
    int64_t records;
    bool ok;
    bool busy; /* a thread renders into it (under the lock) */
    struct vc4_es_seg *es; /* its early store, NULL: none (under the lock) */
    /* es is taken and not yet in memory (ES_COMMITTED, ES_FLUSHING): the
     * slot waits for it before it serves another segment; owner: the
     * thread that rendered it, which writes it (under the lock) */
    bool pending;
    unsigned owner;
    /* rendered in its thread's own tile buffer (priv in render_seg): the
     * result has no buffer of its own */
    bool priv;
    bool stored;          /* the segment's store ran (staged) */
    unsigned eofs;        /* end-of-frame stores in it */
    /* r's tile buffer holds buf_c / buf_z in every word (no fill needed) */
    bool buf_known;
    uint32_t buf_c, buf_z;
    /* the latched state after it is the next segment's (the pre-pass's
     * copy): the take copies that instead of r's, which the worker's
     * core holds */
    bool end_next;
    struct vc4_trace_log log; /* the records it ran, when the run is traced */
};
typedef struct pool_slot pool_slot;

/* What one thread renders with (index 0: the render thread). */
typedef struct pool_worker {
    struct vc4_pool *p;
    cg_vc4 dev; /* the device copy a segment runs on */
    struct vc4_frag_batch *batch;
    struct vc4_qpu_cache *qc;
    struct vc4_gl_cache *glc;
    /* its own tile buffer, for segments whose staged store clears it
     * (render_seg); it holds buf_c / buf_z in every word when buf_known */
    uint32_t *color, *zs;
    bool buf_known;
    uint32_t buf_c, buf_z;
    struct vc4_es_seg *es_free; /* its staging, free (under the lock) */
    pthread_t tid;
} pool_worker;

struct vc4_pool {
    unsigned nthreads; /* worker threads running (render_threads - 1) */
    pool_worker *wk;   /* nwk: the render thread's and one per worker */
    unsigned nwk;
    pthread_mutex_t mu;
    pthread_cond_t work, done;
    bool quit;
    /* bumped (atomically, under the lock) whenever a thread waiting for
     * work may find some: what spinning workers watch (pool_wake) */
    unsigned tick;
    /* a run is being prepared (the pre-pass): workers spin meanwhile */
    bool warm;
    /* more threads than the host's CPUs: a spinning thread yields its CPU
     * (the thread it waits for may need it) instead of pausing */
    bool yield;
    uint64_t ended_ns; /* when the last run ended (vc4_pool_clock) */
    /* the current run (one step of the render thread); trace: the
     * device was traced when it began (workers log their records) */
    bool active, stopping, trace;
    cg_vc4 base;     /* the device copy segments start from */
    bool ran;        /* this step's run began (vc4_pool_begin handed out segments) */
    /* SDRAM without the holes; kept from run to run while the holes are
     * the same (bus_*: what it was made for) */
    cg_vas *bus;
    uint64_t bus_holes[POOL_MAX_HOLES][2];
    unsigned bus_nholes;
    const cg_mem *bus_mem;
    uint64_t bus_size;
    uint64_t budget; /* the render thread's budget when the run began */
    pool_seg *segs;
    unsigned nsegs, cap;
    unsigned next;   /* the segment the render thread meets next */
    unsigned claim;  /* the next segment a thread may take */
    unsigned busy;   /* segments being rendered */
    unsigned window;
    pool_slot *slots;
    pool_slot own; /* the render thread's, for a segment a worker is late with */
    struct vc4_es_seg *es_all; /* every staging made (es_get), es_count of them */
    unsigned es_count;
    uint64_t seg_wall_ns; /* how long the render thread takes for a segment (average) */
    uint64_t holes[POOL_MAX_HOLES][2]; /* SDRAM offsets, page-aligned [lo, hi) */
    unsigned nholes;
    /* the pre-pass's copy of the device and renderer */
    cg_vc4 pre;
    vc4_render *pre_r;
    vc4_pool_counts counts; /* under the lock */
    /* the render thread's latched state is segs[state_seg].state (a take
     * copied it there; any record it runs ends that), ~0u: not known */
    unsigned state_seg;
    /* the render thread's tile buffer holds fill_c / fill_z in every word
     * (set after a store that cleared it, until anything else may touch it) */
    bool fill_ok;
    uint32_t fill_c, fill_z;
    /* early stores: the surfaces; whether this run stages them (es_on:
     * written by the render thread only, read by the workers under the
     * lock; off from the first retract on, when every taken store is in
     * memory), and whether it did when it began (es_begun, not changed
     * during the run); the list pages the pre-pass read (bus page
     * numbers) */
    es_group groups[ES_MAX_GROUPS];
    unsigned ngroups;
    bool frame_es, es_on, es_begun;
    uint32_t touch[ES_MAX_TOUCH];
    unsigned ntouch, touch_gen;
    uint64_t touch_set[1u << ES_TOUCH_BITS];
    const uint8_t *pre_page; /* pre_read's page (pre_pg), NULL: none */
    /* the last four pages pre_read found, any four (a list and its
     * sub-lists alternate between a few pages, and the render list's and
     * the tile lists' pages are often equal in their low bits); pg ~0:
     * none; pre_victim: the next to replace (round robin) */
    struct {
        uint64_t pg;
        const uint8_t *p;
    } pre_cache[4];
    unsigned pre_victim;
    /* the pre-pass's last latched state record of each opcode group (when
     * latch_gen is this pre-pass's touch_gen) */
    uint32_t latch_gen[256];
    uint8_t latch_op[256];
    uint8_t latch_rec[256][16];
    uint64_t pre_pg;
    /* the buffers' region (pool_buf): region_bytes mapped, region_used
     * handed out; NULL: every buffer from the heap */
    uint8_t *region;
    size_t region_bytes, region_used;
};

/* A monotonic clock, nanoseconds. */
static inline uint64_t vc4_pool_clock(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* ---- the pool's buffers ----
 *
 * Tile buffers (the slots', own's and each thread's), stagings and trace
 * logs come from one region mapped for the pool, in 2 MiB huge pages
 * (cg__map_huge): a 2-thread pool has 17 tile-buffer pairs and up to 34
 * stagings, about a megabyte, and on the virtual machines measured each
 * fresh 4 KiB page costs 10-20 us on first touch (src/core/mem.c), which
 * made a fresh process's first pooled frame 2-3 ms slower than one
 * thread's. Tile buffers and stagings circulate (a take swaps the render
 * thread's tile buffer with a result's, vc4_es_take_rows a tile buffer
 * with a staging), so a buffer is freed by where it lies (pool_buf_free),
 * and the render thread's own pair, which outlives the pool, is traded
 * back for heap buffers when the pool goes (pool_reclaim). Under
 * AddressSanitizer every buffer comes from the heap, so overruns are
 * still reported. */

/* n bytes (a multiple of 64) of the region, else of the heap; NULL: out
 * of memory. Under the pool's lock once workers run. */
static void *pool_buf(struct vc4_pool *p, size_t n)
{
    if (p->region && p->region_bytes - p->region_used >= n) {
        void *b = p->region + p->region_used;
        p->region_used += n;
        return b;
    }
    return malloc(n);
}

static bool in_region(const struct vc4_pool *p, const void *b)
{
    return p->region && (uintptr_t)b - (uintptr_t)p->region < p->region_bytes;
}

static void pool_buf_free(const struct vc4_pool *p, void *b)
{
    if (!in_region(p, b))
        free(b);
}

/* The region for a pool of nwk threads and nslots results (slots and
 * own): their tile buffers, nstage stagings and the trace logs, rounded up
 * to whole huge pages. */
static void region_map(struct vc4_pool *p, unsigned nwk, unsigned nslots, unsigned nstage)
{
#ifndef CG_MEM_ASAN
    size_t n = ((size_t)2 * (nslots + nwk) + nstage) * TILE_BUF_BYTES +
               (size_t)nslots * TRACE_MAX_RECS * sizeof(trace_rec);
    n = (n + (2u << 20) - 1) & ~(size_t)((2u << 20) - 1);
    p->region = cg__map_huge(n);
    p->region_bytes = p->region ? n : 0;
#else
    (void)p, (void)nwk, (void)nslots, (void)nstage;
#endif
}

/* ---- the pages stores may write ---- */

/* The bus ranges a store record may write with the renderer in state r:
 * up to two [addr, addr + len). A raw dump's range counts even when it
 * writes neither buffer. */
static unsigned store_ranges(const vc4_render *r, const uint8_t *rec, uint64_t out[2][2])
{
    if (!r->configured || r->tile_x < 0)
        return 0; /* it faults before writing */
    vc4_store s;
    vc4_store_decode(r, rec, &s);
    out[0][0] = s.addr;
    if (s.raw)
        out[0][1] = VC4_TILE * VC4_TILE * 4;
    else if (s.color)
        out[0][1] = vc4_surface_bytes(s.tiling, r->width, r->height, s.fmt == 2 ? 2 : 4);
    else if (s.zs)
        out[0][1] = vc4_surface_bytes(s.tiling, r->width, r->height, 4);
    else
        return 0;
    return 1;
}

/* What a store record writes with the renderer in state r, as render.c
 * store_tile would: -1 it may fault before writing (need_tile, the
 * decoder's bad cases), 0 nothing, 1 the bytes of r's tile in the surface
 * key (base, width, tiling, bpp or raw, and its bus range lo, hi) when
 * every access is mapped and writable. */
static int store_target(const vc4_render *r, const uint8_t *rec, es_group *key)
{
    if (!r->configured || r->tile_x < 0)
        return -1;
    memset(key, 0, offsetof(es_group, tiles));
    vc4_store s;
    vc4_store_decode(r, rec, &s);
    if (s.bad)
        return -1;
    if (!s.color && !s.zs)
        return 0;
    key->base = s.addr;
    key->lo = key->base;
    if (s.raw) {
        key->raw = 1;
        key->hi = key->lo + VC4_TILE * VC4_TILE * 4;
        return 1;
    }
    unsigned bpp = s.color && s.fmt == 2 ? 2 : 4;
    key->width = r->width;
    key->tiling = s.tiling;
    key->bpp = (uint8_t)bpp;
    key->hi = key->lo + vc4_surface_bytes(s.tiling, r->width, r->height, bpp);
    return 1;
}

/* Do g and key name the same surface (base, width, layout)? */
static bool same_surface(const es_group *g, const es_group *key)
{
    return g->base == key->base && g->width == key->width && g->tiling == key->tiling &&
           g->bpp == key->bpp && g->raw == key->raw;
}

/* The group of the surface key (added if new; its range grown to cover
 * key's), or -1 when there are too many. */
static int group_of(struct vc4_pool *p, const es_group *key)
{
    for (unsigned i = 0; i < p->ngroups; i++) {
        es_group *g = &p->groups[i];
        if (same_surface(g, key)) {
            if (key->hi > g->hi)
                g->hi = key->hi;
            return (int)i;
        }
    }
    if (p->ngroups == ES_MAX_GROUPS)
        return -1;
    es_group *g = &p->groups[p->ngroups];
    memcpy(g, key, offsetof(es_group, tiles));
    memset(g->tiles, 0, sizeof g->tiles);
    g->ok = false;
    return (int)p->ngroups++;
}

/* Call fn(p, lo, hi) for the SDRAM offsets (page-aligned) of the bus range
 * [a, a + len): each 1 GiB alias maps SDRAM from its start; bytes past
 * SDRAM or 4 GiB are unmapped (a store faults there). */
static bool for_sdram(struct vc4_pool *p, uint32_t sdram, uint64_t a, uint64_t len,
                      bool (*fn)(struct vc4_pool *, uint64_t, uint64_t))
{
    uint64_t end = a + len;
    if (end > 0x100000000ull)
        end = 0x100000000ull;
    while (a < end) {
        uint64_t base = a & ~0x3FFFFFFFull, stop = base + 0x40000000ull;
        if (stop > end)
            stop = end;
        uint64_t lo = a - base, hi = stop - base;
        if (lo < sdram) {
            if (hi > sdram)
                hi = sdram;
            if (!fn(p, lo & ~4095ull, (hi + 4095) & ~4095ull))
                return false;
        }
        a = stop;
    }
    return true;
}

static bool hole_add(struct vc4_pool *p, uint64_t lo, uint64_t hi)
{
    /* merge with every hole it touches */
    for (unsigned i = 0; i < p->nholes;) {
        if (p->holes[i][0] <= hi && lo <= p->holes[i][1]) {
            if (p->holes[i][0] < lo)
                lo = p->holes[i][0];
            if (p->holes[i][1] > hi)
                hi = p->holes[i][1];
            p->holes[i][0] = p->holes[--p->nholes][0];
            p->holes[i][1] = p->holes[p->nholes][1];
            continue;
        }
        i++;
    }
    if (p->nholes == POOL_MAX_HOLES) {
        /* too many: one hole over all of them */
        for (unsigned i = 0; i < p->nholes; i++) {
            if (p->holes[i][0] < lo)
                lo = p->holes[i][0];
            if (p->holes[i][1] > hi)
                hi = p->holes[i][1];
        }
        p->nholes = 0;
    }
    p->holes[p->nholes][0] = lo;
    p->holes[p->nholes++][1] = hi;
    return true;
}

static bool hole_has(struct vc4_pool *p, uint64_t lo, uint64_t hi)
{
    for (unsigned i = 0; i < p->nholes; i++)
        if (p->holes[i][0] <= lo && hi <= p->holes[i][1])
            return true;
    return false;
}

static int hole_cmp(const void *a, const void *b)
{
    uint64_t x = ((const uint64_t *)a)[0], y = ((const uint64_t *)b)[0];
    return x < y ? -1 : x > y;
}

/* The workers' bus: the four aliases of SDRAM without the holes (the last
 * run's, when its holes were the same). */
static int make_bus(cg_vc4 *v, struct vc4_pool *p)
{
    qsort(p->holes, p->nholes, sizeof p->holes[0], hole_cmp);
    if (p->bus && p->bus_mem == v->sdram && p->bus_size == v->cfg.sdram_size &&
        p->bus_nholes == p->nholes &&
        memcmp(p->bus_holes, p->holes, p->nholes * sizeof p->holes[0]) == 0)
        return 0;
    if (p->bus)
        cg_vas_destroy(p->bus);
    p->bus = NULL;
    cg_vas_config vc = {.va_bits = 32};
    int rc = cg_vas_create(v->dev, &vc, &p->bus);
    if (rc) {
        p->bus = NULL;
        return rc;
    }
    for (uint64_t a = 0; a < 4 && rc == 0; a++) {
        uint64_t at = 0;
        for (unsigned i = 0; i <= p->nholes && rc == 0; i++) {
            uint64_t lo = i < p->nholes ? p->holes[i][0] : v->cfg.sdram_size;
            if (lo > at) {
                cg_map_params mp = {.mem = v->sdram, .offset = at, .size = lo - at,
                                    .va = (a << 30) + at,
                                    .flags = CG_MAP_FIXED | CG_MAP_READ_ONLY};
                uint64_t va;
                rc = cg_vas_map(p->bus, &mp, &va);
            }
            if (i < p->nholes)
                at = p->holes[i][1];
        }
    }
    if (rc) {
        cg_vas_destroy(p->bus);
        p->bus = NULL;
        return rc;
    }
    memcpy(p->bus_holes, p->holes, p->nholes * sizeof p->holes[0]);
    p->bus_nholes = p->nholes;
    p->bus_mem = v->sdram;
    p->bus_size = v->cfg.sdram_size;
    return 0;
}

/* ---- the pre-pass ---- */

/* A list page the render thread reads (early stores must not change it):
 * remembered once (a hash set of bus page numbers, tagged with the
 * pre-pass's generation so it needs no clearing). */
static void pre_touch(struct vc4_pool *pl, uint64_t pg)
{
    uint64_t tag = (uint64_t)pl->touch_gen << 32;
    unsigned h = (unsigned)(((uint32_t)pg * 0x9E3779B1u) >> (32 - ES_TOUCH_BITS));
    for (;; h = (h + 1) & ((1u << ES_TOUCH_BITS) - 1)) {
        uint64_t e = pl->touch_set[h];
        if (e == (tag | pg))
            return;
        if ((e >> 32) != pl->touch_gen)
            break;
    }
    if (pl->ntouch == ES_MAX_TOUCH) {
        pl->frame_es = false;
        return;
    }
    pl->touch_set[h] = tag | pg;
    pl->touch[pl->ntouch++] = (uint32_t)pg;
}

/* Bytes through the bus's plain-memory path only (no fault, no trace):
 * false where the render thread itself would have to look closer. The
 * pages last read are kept (nothing writes memory during the pre-pass). */
static bool pre_read(struct vc4_pool *pl, cg_vas *bus, uint64_t a, uint8_t *dst, size_t n)
{
    if (a + n > 0x100000000ull)
        return false;
    while (n) {
        uint64_t pg = a >> 12;
        if (!pl->pre_page || pg != pl->pre_pg) {
            unsigned c = 0;
            while (c < 4 && pl->pre_cache[c].pg != pg)
                c++;
            if (c == 4) {
                uint8_t *p;
                if (cg__vas_span(bus, pg << 12, 4096, false, &p) != 4096)
                    return false;
                if (pl->frame_es)
                    pre_touch(pl, pg);
                c = pl->pre_victim;
                pl->pre_victim = (c + 1) & 3;
                pl->pre_cache[c].pg = pg, pl->pre_cache[c].p = p;
            }
            pl->pre_page = pl->pre_cache[c].p, pl->pre_pg = pg;
        }
        size_t in = (size_t)(a & 4095), got = 4096 - in < n ? 4096 - in : n;
        memcpy(dst, pl->pre_page + in, got);
        dst += got, a += got, n -= got;
    }
    return true;
}

/* Compressed primitive list items (pre_skip_list): their size by first
 * byte, for formats 0x10, 0x11, 0x12 and any other; 0: faults. Filled
 * with rec_sizes. */
enum { ITEM_END = 0xFE, ITEM_BRANCH = 0xFF };
static uint8_t item_size[4][256];

/* The n bytes at a (n <= 16): where they lie in pre_read's page, a pointer
 * into it (no copy: most records do), else copied to buf; NULL where
 * pre_read fails. */
static inline const uint8_t *pre_ptr(struct vc4_pool *pl, cg_vas *bus, uint64_t a, size_t n,
                                     uint8_t *buf)
{
    if (pl->pre_page && (a >> 12) == pl->pre_pg && (a & 4095) + n <= 4096)
        return pl->pre_page + (a & 4095);
    return pre_read(pl, bus, a, buf, n) ? buf : NULL;
}

/* Skip a compressed primitive list from p (after its record) as render.c
 * compressed_list walks it; *next: the address after its escape. False where
 * that walk would fault or the pre-pass gives up. */
static bool pre_skip_list(struct vc4_pool *pool, cg_vas *bus, uint8_t fmt, uint32_t p,
                          uint32_t *next, uint64_t *work, uint64_t limit)
{
    const uint8_t *tab = item_size[fmt == 0x10 ? 0 : fmt == 0x11 ? 1 : fmt == 0x12 ? 2 : 3];
    uint64_t w = *work;
    bool ok = false;
    while (++w < limit) { /* one unit per item, as before */
        if (!pool->pre_page || (p >> 12) != pool->pre_pg) {
            uint8_t b;
            if (!pre_read(pool, bus, p, &b, 1))
                break;
        }
        /* the items that follow in pre_read's page, without leaving it */
        const uint8_t *page = pool->pre_page;
        uint32_t in = p & 4095;
        uint8_t s = tab[page[in]];
        while (s != 0 && s < ITEM_END) {
            in += s;
            if (in >= 4096 || ++w >= limit)
                break;
            s = tab[page[in]];
        }
        p = (p & ~4095u) + in; /* (wraps as p += size did) */
        if (in >= 4096)
            continue; /* the next item is on another page */
        if (w >= limit || s == 0)
            break; /* the render thread faults (or the pre-pass gives up) */
        if (s == ITEM_END) {
            *next = p + 1;
            ok = true;
            break;
        }
        uint8_t it[2]; /* ITEM_BRANCH: its 16-bit offset in 32-byte units */
        if (!pre_read(pool, bus, (uint64_t)p + 1, it, 2))
            break;
        p = (p & ~31u) + 32 + (uint32_t)((int32_t)(int16_t)vc4_le16(it) * 32);
    }
    *work = w;
    return ok;
}

static bool buf_all(const uint32_t *b, uint32_t val)
{
    /* 64 words at a time without a branch (the compiler vectorises it) */
    for (size_t i = 0; i < VC4_TILE * VC4_TILE; i += 64) {
        uint32_t diff = 0;
        for (size_t j = 0; j < 64; j++)
            diff |= b[i + j] ^ val;
        if (diff)
            return false;
    }
    return true;
}

static pool_seg *seg_new(struct vc4_pool *p)
{
    if (p->nsegs == POOL_MAX_SEGS)
        return NULL;
    if (p->nsegs == p->cap) {
        unsigned c = p->cap ? p->cap * 2 : 64;
        pool_seg *s = realloc(p->segs, c * sizeof *s);
        if (!s)
            return NULL;
        p->segs = s, p->cap = c;
    }
    pool_seg *s = &p->segs[p->nsegs++];
    memset(s, 0, offsetof(pool_seg, state));
    s->es_group = -1;
    return s;
}

/* Each opcode's record size (cl.def), 0: unknown, and its list (where);
 * filled once. */
static uint8_t rec_sizes[256], rec_where[256];
static pthread_once_t rec_sizes_once = PTHREAD_ONCE_INIT;

static void rec_sizes_init(void)
{
    for (unsigned op = 0; op < 256; op++) {
        vc4_record rr;
        rec_sizes[op] = vc4_record_get((uint8_t)op, &rr) ? (uint8_t)rr.size : 0;
        rec_where[op] = rec_sizes[op] ? rr.where : VC4_ANY;
    }
    /* compressed primitive list items by their first byte (render.c
     * compressed_list): escapes 0x80 (end) and 0x82 (branch) in every
     * format; format 0x10/0x11 (points, lines) items 0x81 of 3/5 bytes;
     * format 0x12 (triangles) items of 1, 2, 4 or 7 bytes; anything
     * else (other formats too) faults there */
    for (unsigned b = 0; b < 256; b++) {
        uint8_t tri = b == 0x81 ? 7 : (b & 0xF) == 0xF ? 4 : (b & 3) == 3 ? 2 : 1;
        item_size[0][b] = b == 0x81 ? 3 : 0;
        item_size[1][b] = b == 0x81 ? 5 : 0;
        item_size[2][b] = tri;
        item_size[3][b] = 0;
        for (unsigned f = 0; f < 4; f++)
            if (b == 0x80 || b == 0x82)
                item_size[f][b] = b == 0x80 ? ITEM_END : ITEM_BRANCH;
    }
}

/* Follow the render list from CA (see the top of the file); fills segs and
 * holes. */
static void pre_pass(cg_vc4 *v, struct vc4_pool *p)
{
    cg_vc4 *d = &p->pre;
    *d = *v;
    d->rend = p->pre_r;
    d->seg = true;
    d->pool = NULL;
    memcpy((uint8_t *)p->pre_r + VC4_RSTATE_OFF, (const uint8_t *)v->rend + VC4_RSTATE_OFF,
           VC4_RSTATE_LEN);
    vc4_render *r = p->pre_r;
    vc4_thread *th = &d->th[1];
    /* the tile buffer: each buffer's one value, when it holds one */
    bool ck = buf_all(v->rend->color, v->rend->color[0]);
    bool zk = buf_all(v->rend->zs, v->rend->zs[0]);
    uint32_t cval = v->rend->color[0], zval = v->rend->zs[0];
    pool_seg *cur = NULL;
    bool draws = false;
    /* records and items followed: no more than the thread could run (each
     * costs it a unit of its budget), so hostile loops end here as soon */
    uint64_t work = 0, limit = v->budget[1] < PRE_MAX_WORK ? v->budget[1] : PRE_MAX_WORK;
    cg__fault_capture cap = {0};
    cg__fault_capture_set(&cap); /* a state record that would fault ends the pre-pass */
    pthread_once(&rec_sizes_once, rec_sizes_init);
    while (++work < limit) {
        if (th->ca == th->ea)
            break;
        uint32_t addr = th->ca;
        uint8_t buf[16];
        const uint8_t *rec = pre_ptr(p, v->bus, addr, 1, buf);
        if (!rec)
            break;
        unsigned size = rec_sizes[rec[0]];
        if (size == 0 || size > sizeof buf || !(rec = pre_ptr(p, v->bus, addr, size, buf)))
            break;
        uint8_t op = rec[0];
        uint32_t next = addr + size;
        uint8_t role = vc4_cl_role[op];
        bool ends = role == VC4_RL_TILE || role == VC4_RL_STORE;
        pool_seg *ended = NULL; /* the segment this record ends */
        if (ends && cur) {
            cur->spec = draws && cur->spec;
            ended = cur;
            cur = NULL;
        }
        switch (role) {
        case VC4_RL_HALT:
            goto out;
        case VC4_RL_SEM_INC:
            break; /* counts for the binning thread, which does not run meanwhile */
        case VC4_RL_SEM_WAIT:
            if (th->sem == 0)
                goto out; /* the render thread blocks here */
            th->sem--;
            break;
        case VC4_RL_NOP:
            break;
        case VC4_RL_BRANCH:
            next = VC4_ADDR(rec + 1, Branch, Address);
            break;
        case VC4_RL_CALL:
            if (th->depth >= 2)
                goto out;
            th->ret[th->depth++] = next;
            next = VC4_ADDR(rec + 1, Branch_to_sub_list, Address);
            break;
        case VC4_RL_RETURN:
            if (th->depth)
                next = th->ret[--th->depth];
            break;
        case VC4_RL_TILE: {
            unsigned x = (unsigned)VC4_GET(rec + 1, Tile_Coordinates, Tile_Column_Number);
            unsigned y = (unsigned)VC4_GET(rec + 1, Tile_Coordinates, Tile_Row_Number);
            if (!r->configured || x * VC4_TILE >= r->width || y * VC4_TILE >= r->height)
                goto out; /* it faults */
            if (!(cur = seg_new(p)))
                goto out;
            cur->addr = addr;
            cur->depth = th->depth;
            memcpy(cur->ret, th->ret, sizeof cur->ret);
            cur->color = cval, cur->zs = zval;
            cur->spec = ck && zk;
            memcpy(cur->state, (const uint8_t *)r + VC4_RSTATE_OFF, VC4_RSTATE_LEN);
            draws = false;
            r->tile_x = (int)x, r->tile_y = (int)y;
            if (r->load_pending) {
                r->load_pending = false;
                ck = zk = false; /* what a load leaves is not known here */
            }
            break;
        }
        case VC4_RL_STORE: {
            if (!r->configured || r->tile_x < 0)
                goto out; /* it faults */
            uint64_t rg[2][2];
            unsigned nr = store_ranges(r, rec, rg);
            for (unsigned i = 0; i < nr; i++)
                for_sdram(p, v->cfg.sdram_size, rg[i][0], rg[i][1], hole_add);
            /* early stores: what it writes (every store of the frame
             * writes bytes no other store writes, or none is early) */
            es_group key;
            int tg = p->frame_es ? store_target(r, rec, &key) : -1, gi = -1;
            if (tg == 1) {
                gi = group_of(p, &key);
                unsigned bit = (unsigned)r->tile_y * 64 + (unsigned)r->tile_x;
                if (key.raw)
                    bit = 0; /* one dump per address */
                if (gi < 0 || (p->groups[gi].tiles[bit >> 3] >> (bit & 7) & 1))
                    p->frame_es = false;
                else
                    p->groups[gi].tiles[bit >> 3] |= (uint8_t)(1u << (bit & 7));
            }
            if (ended) {
                ended->es_ok = (tg == 0 || (tg == 1 && !key.raw)) && ended->spec;
                ended->es_group = (int8_t)gi;
            }
            vc4_store st;
            vc4_store_decode(r, rec, &st);
            bool keep_c = st.keep_color, keep_z = st.keep_zs;
            if (!keep_c)
                ck = true, cval = r->clear_color[0];
            if (!keep_z)
                zk = true, zval = vc4_clear_zs_word(r);
            if (ended) {
                ended->end_fill = !keep_c && !keep_z;
                ended->end_c = cval, ended->end_z = zval;
            }
            break;
        }
        case VC4_RL_DRAW:
            if (!r->configured || r->tile_x < 0)
                goto out; /* it faults */
            draws = true;
            if (!pre_skip_list(p, v->bus, r->st.prim_format,
                               addr + (op == VC4_OP_Compressed_Primitive_List ? 1 : 5), &next,
                               &work, limit))
                goto out;
            break;
        case VC4_RL_LATCH: {
            /* render.c h_latch: vc4_latch_state sets fields of the bin
             * state from the record's bytes alone, and no other record
             * sets them (NV and GL shader state share theirs): the same
             * bytes as the last such record latched change nothing (each
             * tile list repeats its state records) */
            unsigned g = op == VC4_OP_GL_Shader_State ? VC4_OP_NV_Shader_State : op;
            if (p->latch_gen[g] == p->touch_gen && p->latch_op[g] == op &&
                memcmp(p->latch_rec[g], rec + 1, size - 1) == 0)
                break;
            if (vc4_render_record(d, th, addr, rec, &next) != 0 || cap.count || th->faulted)
                goto out;
            p->latch_gen[g] = p->touch_gen;
            p->latch_op[g] = op;
            memcpy(p->latch_rec[g], rec + 1, size - 1);
            break;
        }
        case VC4_RL_STATE:
        case VC4_RL_LOAD:
            /* state only: the renderer's own handler on the copy (not
             * the binner's state records: they fault there) */
            if (rec_where[op] == VC4_BIN)
                goto out;
            if (vc4_render_record(d, th, addr, rec, &next) != 0 || cap.count || th->faulted)
                goto out;
            break;
        default:
            goto out; /* it faults */
        }
        th->ca = next;
    }
out:
    if (cur)
        cur->spec = draws && cur->spec;
    cg__fault_capture_set(NULL);
}

/* ---- early stores ----
 *
 * A worker may also run the store that ends its segment, into a staging
 * buffer its slot borrows from it, when the pre-pass proved it harmless:
 * every store of the run writes bytes no other store writes (a surface's
 * tiles each at most once, surfaces' ranges disjoint; raw dumps stay on
 * the render thread),
 * the store cannot fault (its surface's pages are all backed, writable
 * plain memory, resolved here to host pages), and no list page the render
 * thread reads lies in the pages the stores write. Workers read none of
 * those pages either (their bus). A staged store reaches memory only after
 * the render thread took its result (ES_COMMITTED), written by the thread
 * that rendered it or by the render thread; one not taken is dropped.
 * Before the render thread does anything that could see those pages (a
 * record that may read memory or fault: vc4_pool_self; the budget running
 * out; an end of frame; the end of the run) every taken store is written
 * (es_flush), and after a retract no store is staged for the rest of the
 * run. */

static bool hole_hit(const struct vc4_pool *p, uint64_t lo, uint64_t hi)
{
    for (unsigned i = 0; i < p->nholes; i++)
        if (p->holes[i][0] < hi && lo < p->holes[i][1])
            return true;
    return false;
}

/* After the pre-pass: may this run write stores early, and which surfaces. */
static void es_prepare(cg_vc4 *v, struct vc4_pool *p)
{
    p->es_on = p->es_begun = false;
    if (!p->frame_es)
        return;
    for (unsigned i = 0; i < p->ngroups; i++)
        for (unsigned j = i + 1; j < p->ngroups; j++)
            if (p->groups[i].lo < p->groups[j].hi && p->groups[j].lo < p->groups[i].hi)
                return; /* two surfaces overlap: store order matters */
    for (unsigned i = 0; i < p->ntouch; i++) {
        uint64_t a = (uint64_t)p->touch[i] << 12, off = a & 0x3FFFFFFFull;
        if (off < v->cfg.sdram_size && hole_hit(p, off, off + 4096))
            return; /* a list page a store may write */
    }
    bool any = false;
    uint64_t epoch = cg__vas_epoch(v->bus);
    for (unsigned i = 0; i < p->ngroups; i++) {
        es_group *g = &p->groups[i];
        g->ok = false;
        if (g->hi > 0x100000000ull)
            continue;
        size_t n = (size_t)(((g->hi + 4095) >> 12) - (g->lo >> 12));
        if (g->res_ok && g->res_epoch == epoch && g->res_first == g->lo >> 12 && g->res_n == n) {
            g->npages = n; /* the pages of the last run, and the bus unchanged */
            g->ok = true;
            continue;
        }
        g->res_ok = false;
        if (n > g->cap) {
            uint8_t **h = realloc(g->host, n * sizeof *h);
            if (!h)
                continue;
            g->host = h, g->cap = n;
        }
        g->npages = n;
        bool ok = true;
        for (size_t k = 0; k < n && ok; k++) {
            uint64_t a = ((g->lo >> 12) + k) << 12;
            uint8_t *r = NULL, *w = NULL;
            /* backed (a write would not allocate it) and writable */
            ok = cg__vas_span(v->bus, a, 4096, false, &r) == 4096 && r != cg__zero_page &&
                 cg__vas_span(v->bus, a, 4096, true, &w) == 4096 && w == r;
            g->host[k] = w;
        }
        g->ok = ok;
        g->res_ok = ok;
        g->res_epoch = epoch, g->res_first = g->lo >> 12, g->res_n = n;
    }
    for (unsigned i = 0; i < p->nsegs; i++) {
        pool_seg *s = &p->segs[i];
        s->es_ok = s->es_ok && (s->es_group < 0 || p->groups[s->es_group].ok);
        any |= s->es_ok;
    }
    p->es_on = p->es_begun = any;
}

static void pool_wake(struct vc4_pool *p, bool sleepers);

/* Stagings made at most: a slot (or own) holds one at a time, and the
 * threads' free lists hold the rest (es_get takes another thread's past
 * this). */
static unsigned es_max(const struct vc4_pool *p)
{
    return 2 * (p->window + 1);
}

/* Under the lock: a new staging (in the pool's list of them all), NULL
 * when out of memory. */
static struct vc4_es_seg *es_new(struct vc4_pool *p)
{
    struct vc4_es_seg *es = calloc(1, sizeof *es);
    if (!es)
        return NULL;
    es->bytes = pool_buf(p, ES_STAGE_BYTES);
    es->runs = malloc(ES_MAX_RUNS * sizeof *es->runs);
    if (!es->bytes || !es->runs) {
        pool_buf_free(p, es->bytes);
        free(es->runs);
        free(es);
        return NULL;
    }
    es->p = p;
    es->next_all = p->es_all;
    p->es_all = es;
    p->es_count++;
    return es;
}

/* Under the lock: a staging for thread w's next segment, empty: one w used
 * before, a new one, or (past es_max) another thread's free one; NULL
 * when there is none (the store then stays with the render thread). */
static struct vc4_es_seg *es_get(struct vc4_pool *p, pool_worker *w)
{
    struct vc4_es_seg *es = w->es_free;
    if (es)
        w->es_free = es->next_free;
    else if (p->es_count < es_max(p))
        es = es_new(p);
    for (unsigned i = 0; !es && i < p->nwk; i++)
        if ((es = p->wk[i].es_free) != NULL)
            p->wk[i].es_free = es->next_free;
    if (!es)
        return NULL;
    es->owner = (unsigned)(w - p->wk);
    es->began = false; /* (the one place a staging is emptied) */
    es->nruns = es->used = 0;
    return es;
}

/* Under the lock: the staging of result sl is written or dropped (none
 * of a dropped one reached memory): back to its thread's free list. */
static void es_put(struct vc4_pool *p, pool_slot *sl)
{
    struct vc4_es_seg *es = sl->es;
    if (!es)
        return;
    es->next_free = p->wk[es->owner].es_free;
    p->wk[es->owner].es_free = es;
    sl->es = NULL;
}

/* Write a staged store to memory (its runs are disjoint). */
static void es_commit(struct vc4_es_seg *es)
{
    for (uint32_t i = 0; i < es->nruns; i++)
        memcpy(es->runs[i].dst, es->runs[i].src, es->runs[i].len);
}

/* Under the lock: write the taken store of slot sl (segment s) here, the
 * lock released meanwhile. */
static void es_write_out(struct vc4_pool *p, pool_slot *sl, pool_seg *s)
{
    s->es_state = ES_FLUSHING;
    pthread_mutex_unlock(&p->mu);
    es_commit(sl->es);
    pthread_mutex_lock(&p->mu);
    s->es_state = ES_DONE;
    es_put(p, sl);
    sl->pending = false;
    pool_wake(p, false); /* (its slot may serve the next segment) */
    pthread_cond_broadcast(&p->done);
}

/* Under the lock: every taken store in memory (written here, or waited
 * for where its worker is writing it). */
static void es_flush(struct vc4_pool *p)
{
    for (unsigned i = 0; i < p->window; i++) {
        pool_slot *sl = &p->slots[i];
        while (sl->pending) {
            pool_seg *s = &p->segs[sl->es->k];
            if (s->es_state == ES_COMMITTED)
                es_write_out(p, sl, s);
            else
                pthread_cond_wait(&p->done, &p->mu);
        }
    }
}

uint8_t *vc4_es_dst(struct vc4_es_seg *es, uint64_t a, uint32_t n)
{
    const struct vc4_pool *p = es->p;
    int gi = p->segs[es->k].es_group;
    if (gi < 0 || (a & 4095) + n > 4096)
        return NULL;
    const es_group *g = &p->groups[gi];
    if (a < g->lo || a + n > g->hi || es->nruns == ES_MAX_RUNS ||
        es->used + n > ES_STAGE_BYTES)
        return NULL;
    uint8_t *stage = es->bytes + es->used;
    es->runs[es->nruns].dst = g->host[(a >> 12) - (g->lo >> 12)] + (a & 4095);
    es->runs[es->nruns].src = stage;
    es->runs[es->nruns++].len = n;
    es->used += n;
    return stage;
}

bool vc4_es_take_rows(struct vc4_es_seg *es, uint32_t **buf, uint64_t a, uint32_t stride,
                      uint32_t tw, uint32_t th)
{
    const struct vc4_pool *p = es->p;
    const pool_seg *s = &p->segs[es->k];
    uint32_t len = tw * 4;
    if (s->es_group < 0 || !s->end_fill || es->nruns != 0 || th == 0 || len == 0)
        return false;
    const es_group *g = &p->groups[s->es_group];
    if (a < g->lo || a + (uint64_t)(th - 1) * stride + len > g->hi)
        return false;
    const uint8_t *rows = (const uint8_t *)*buf;
    for (uint32_t y = 0; y < th; y++) {
        uint64_t at = a + (uint64_t)y * stride;
        const uint8_t *src = rows + (size_t)y * VC4_TILE * 4;
        for (uint32_t left = len; left;) {
            uint32_t n = 4096 - (uint32_t)(at & 4095);
            if (n > left)
                n = left;
            es->runs[es->nruns].dst = g->host[(at >> 12) - (g->lo >> 12)] + (at & 4095);
            es->runs[es->nruns].src = src;
            es->runs[es->nruns++].len = n;
            at += n, src += n, left -= n;
        }
    }
    /* the rows stay where they are: the staging buffer becomes the tile
     * buffer, and the buffer the staging (the store clears it next) */
    uint8_t *stage = es->bytes;
    es->bytes = (uint8_t *)*buf;
    *buf = (uint32_t *)(void *)stage;
    return true;
}

/* Under the lock, after render_seg: a write it began is over. */
static void es_end(struct vc4_pool *p, pool_slot *sl)
{
    if (!sl->es)
        return;
    unsigned k = sl->es->k;
    pool_seg *s = &p->segs[k];
    /* kept while early stores are on, the render thread has not passed
     * the segment and nobody else staged it (a late worker's, after the
     * render thread rendered it itself, is not) */
    if (sl->stored && p->es_on && k >= p->next && s->es_state == ES_NONE &&
        (!s->abandoned || sl == &p->own)) {
        s->es_state = ES_STAGED;
        s->es_by = sl;
        return;
    }
    es_put(p, sl);
    if (sl->stored)
        sl->stored = sl->ok = false; /* its copy ran the store: no result without it */
}

static void vc4_pool_retract(cg_vc4 *v)
{
    struct vc4_pool *p = v->pool;
    if (!p || !p->es_on)
        return;
    pthread_mutex_lock(&p->mu);
    p->es_on = false;
    for (unsigned i = 0; i < p->nsegs; i++)
        if (p->segs[i].es_state == ES_STAGED) {
            es_put(p, p->segs[i].es_by);
            p->segs[i].es_state = ES_DROPPED;
        }
    es_flush(p);
    pthread_mutex_unlock(&p->mu);
}

static void vc4_pool_self(cg_vc4 *v, const uint8_t *rec)
{
    struct vc4_pool *p = v->pool;
    if (!p)
        return;
    p->state_seg = ~0u; /* the record may change the latched state */
    if (!p->es_on)
        return;
    es_group key;
    int tg;
    switch (vc4_cl_role[rec[0]]) {
    case VC4_RL_TILE:
        if (v->rend->load_pending)
            break; /* a load reads memory */
        return;
    case VC4_RL_DRAW:
        break; /* draws read memory */
    case VC4_RL_STORE:
        /* a store the pre-pass saw writes bytes no early store writes; it
         * must not fault (a fault callback could look at memory) */
        tg = store_target(v->rend, rec, &key);
        if (tg == 0)
            return;
        if (tg == 1) {
            int gi = -1;
            for (unsigned i = 0; i < p->ngroups; i++) {
                const es_group *g = &p->groups[i];
                if (same_surface(g, &key) && key.hi <= g->hi)
                    gi = (int)i;
            }
            if (gi >= 0 && p->groups[gi].ok)
                return;
        }
        break;
    default:
        return; /* the pre-pass ran it: no fault, reads only its bytes */
    }
    vc4_pool_retract(v);
}

/* ---- a worker's copy of the render thread: the pool's watch on its step ----
 *
 * A worker runs one tile segment through the interpreter (cl.c) on its copy
 * of the device. It stops before the record that ends the segment (the
 * render thread runs that one itself), or right after the segment's store
 * when it stages it (early stores), and keeps the records it ran for the
 * trace instead of emitting events. */

/* The records that end a tile segment: the next tile, stores, and anything
 * that involves the other thread or stops this one (roles, cl.def). */
#define SEG_END (VC4_RM(TILE) | VC4_RM(STORE) | VC4_RM(HALT) | VC4_RM(SEM_INC) | VC4_RM(SEM_WAIT))

static int64_t worker_turn(cg_vc4 *d, uint64_t *budget, int64_t n)
{
    (void)budget, (void)n;
    if (d->es) {
        d->seg_stopped = true; /* its early store ran: the segment is over */
        return VC4_CL_STOP;
    }
    return 0;
}

/* The worker's copy d is at the store that ends its segment, which it may
 * stage: from here until the segment is over (es_end, under the lock)
 * the store writes its staging only (vc4_es_dst). */
static bool es_begin(cg_vc4 *d)
{
    struct vc4_es_seg *es = d->seg_es;
    es->began = true; /* (empty: es_get) */
    d->es = es;
    return true;
}

/* While the device is traced: the record a segment runs, for the render
 * thread to emit as vc4_trace_record would have when it takes the result. */
static void seg_log(cg_vc4 *d, uint32_t addr, const uint8_t *rec, unsigned size)
{
    struct vc4_trace_log *l = d->tlog;
    if (l->over || l->n == TRACE_MAX_RECS || size > sizeof l->rec[0].bytes) {
        l->over = true;
        return;
    }
    trace_rec *e = &l->rec[l->n++];
    e->addr = addr;
    memcpy(e->bytes, rec, size);
}

static int worker_record(cg_vc4 *d, uint32_t addr, const uint8_t *rec, unsigned size, int64_t n)
{
    uint8_t role = vc4_cl_role[rec[0]];
    if (n > 0 && ((1u << role) & SEG_END) && !(d->seg_es && role == VC4_RL_STORE && es_begin(d))) {
        d->seg_stopped = true; /* the render thread runs this record */
        return VC4_CL_STOP;
    }
    if (d->tlog)
        seg_log(d, addr, rec, size); /* emitted when taken */
    return VC4_CL_TRACED;
}

static const vc4_cl_watch worker_watch = {worker_turn, worker_record};

/* ---- rendering a segment ---- */

static void render_seg(struct vc4_pool *p, pool_worker *w, unsigned k, pool_slot *sl)
{
    const pool_seg *s = &p->segs[k];
    cg_vc4 *d = &w->dev;
    *d = p->base;
    vc4_render *r = sl->r;
    memcpy((uint8_t *)r + VC4_RSTATE_OFF, s->state, VC4_RSTATE_LEN);
    /* A segment whose store is staged and clears the tile buffer renders
     * in the thread's own buffer, which stays in this core's cache: its
     * result needs no buffer (the render thread's then holds the clear
     * values). Any other renders in the slot's, which the render thread
     * takes over (its lines move to that core). */
    bool priv = s->es_ok && s->end_fill && p->es_begun;
    uint32_t *slot_c = r->color, *slot_z = r->zs;
    bool known = priv ? w->buf_known : sl->buf_known;
    uint32_t kc = priv ? w->buf_c : sl->buf_c, kz = priv ? w->buf_z : sl->buf_z;
    if (priv)
        r->color = w->color, r->zs = w->zs;
    if (!known || kc != s->color)
        vc4_fill32(r->color, s->color, VC4_TILE * VC4_TILE);
    if (!known || kz != s->zs)
        vc4_fill32(r->zs, s->zs, VC4_TILE * VC4_TILE);
    r->batch = w->batch, r->qcache = w->qc, r->glc = w->glc;
    d->rend = r;
    vc4_thread *th = &d->th[1];
    th->ca = s->addr;
    th->depth = s->depth;
    memcpy(th->ret, s->ret, sizeof th->ret);
    th->running = true;
    th->waiting_sem = th->faulted = false;
    th->lc = 0;
    d->budget[1] = p->budget;
    if (sl->es)
        sl->es->k = k;
    d->seg_es = sl->es; /* (es_get: only where s->es_ok) */
    d->es = NULL;
    d->tlog = NULL;
    if (p->trace) {
        sl->log.n = 0; /* (log.rec: vc4_pool_begin) */
        sl->log.over = !sl->log.rec;
        d->tlog = &sl->log;
    }
    cg__fault_capture cap = {0};
    cg__fault_capture_set(&cap);
    int64_t n = vc4_cl_step(d, 1, &d->budget[1], &worker_watch);
    cg__fault_capture_set(NULL);
    d->seg_es = d->es = NULL;
    bool logged = !d->tlog || !d->tlog->over;
    d->tlog = NULL;
    w->batch = r->batch, w->qc = r->qcache, w->glc = r->glc;
    r->batch = NULL, r->qcache = NULL, r->glc = NULL;
    sl->ok = n > 0 && cap.count == 0 && !th->faulted && !th->waiting_sem &&
             (d->seg_stopped || !th->running) && logged;
    /* a staged store stays only with a result */
    sl->stored = sl->es && sl->es->began && sl->ok;
    /* a store that cleared the tile buffer leaves the pre-pass's values */
    sl->priv = priv;
    if (priv) {
        sl->ok = sl->stored; /* (else the result would need the buffer) */
        w->color = r->color, w->zs = r->zs; /* (vc4_es_take_rows may swap them) */
        r->color = slot_c, r->zs = slot_z;
        w->buf_known = sl->stored;
        w->buf_c = s->end_c, w->buf_z = s->end_z;
    } else {
        sl->buf_known = sl->stored && s->end_fill;
        sl->buf_c = s->end_c, sl->buf_z = s->end_z;
    }
    sl->eofs = (d->rfc - p->base.rfc) & 0xFF;
    sl->th = *th;
    sl->units = p->budget - d->budget[1];
    sl->stats = d->stats;
    sl->records = n;
    sl->end_next = sl->ok && k + 1 < p->nsegs &&
                   memcmp((const uint8_t *)r + VC4_RSTATE_OFF, p->segs[k + 1].state,
                          VC4_RSTATE_LEN) == 0;
}

/* Under the lock: the next segment a thread may render (skipping those
 * not handed out), or NONE. */
#define NONE (~0u)
static unsigned claimable(struct vc4_pool *p)
{
    if (!p->active || p->stopping)
        return NONE;
    while (p->claim < p->nsegs && !p->segs[p->claim].spec)
        p->claim++;
    if (p->claim >= p->nsegs || p->claim >= p->next + p->window ||
        p->slots[p->claim % p->window].busy || p->slots[p->claim % p->window].pending)
        return NONE; /* (busy: a segment the render thread rendered itself;
                      * pending: its last store is not in memory yet) */
    return p->claim;
}

/* Under the lock: there may be work for the workers; wake the sleeping
 * ones too when sleepers (broadcast). */
static void pool_wake(struct vc4_pool *p, bool sleepers)
{
    __atomic_add_fetch(&p->tick, 1, __ATOMIC_RELEASE);
    if (sleepers)
        pthread_cond_broadcast(&p->work);
}


static void run_claimed(struct vc4_pool *p, pool_worker *w, unsigned k)
{
    pool_slot *sl = &p->slots[k % p->window];
    p->segs[k].status = SEG_BUSY;
    sl->busy = true;
    sl->owner = (unsigned)(w - p->wk);
    sl->es = p->segs[k].es_ok && p->es_begun ? es_get(p, w) : NULL;
    p->busy++;
    pthread_mutex_unlock(&p->mu);
    bool timing = p->base.pool_timing, on_main = w == &p->wk[0];
    uint64_t w0 = timing || on_main ? vc4_pool_clock() : 0;
    render_seg(p, w, k, sl);
    uint64_t ns = timing || on_main ? vc4_pool_clock() - w0 : 0;
    if (on_main)
        p->seg_wall_ns = (p->seg_wall_ns + ns) / 2;
    if (!timing)
        ns = 0;
    pthread_mutex_lock(&p->mu);
    es_end(p, sl);
    sl->busy = false;
    p->counts.rendered++;
    p->counts.seg_ns += ns;
    if (on_main) {
        p->counts.seg_ns_main += ns;
        p->counts.rendered_main++;
    }
    p->segs[k].status = SEG_DONE;
    p->busy--;
    pthread_cond_broadcast(&p->done);
    pool_wake(p, false); /* (the render thread may be spinning for it) */
}

/* The render thread renders segment k itself, into its own result (the
 * segment's slot may still serve a late worker); called and returns with
 * the pool's lock held. True: the result is p->own. */
static bool render_own(struct vc4_pool *p, unsigned k)
{
    p->segs[k].abandoned = true; /* a late worker may not write its store */
    p->own.es = p->segs[k].es_ok && p->es_begun ? es_get(p, &p->wk[0]) : NULL;
    pthread_mutex_unlock(&p->mu);
    render_seg(p, &p->wk[0], k, &p->own);
    pthread_mutex_lock(&p->mu);
    es_end(p, &p->own);
    p->counts.rendered++;
    return true;
}

/* Under the lock: a taken store w rendered that waits to be written. */
static pool_slot *my_commit(struct vc4_pool *p, const pool_worker *w)
{
    unsigned me = (unsigned)(w - p->wk);
    for (unsigned i = 0; i < p->window; i++) {
        pool_slot *sl = &p->slots[i];
        if (sl->pending && sl->owner == me && p->segs[sl->es->k].es_state == ES_COMMITTED)
            return sl;
    }
    return NULL;
}

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

/* Unlocked: spin until the pool's tick moves from seen, or until the
 * wall clock reaches until. */
static void spin_tick(const struct vc4_pool *p, unsigned seen, uint64_t until)
{
    for (unsigned i = 1; __atomic_load_n(&p->tick, __ATOMIC_ACQUIRE) == seen; i++) {
        if (p->yield)
            sched_yield();
        else
            cpu_relax();
        if ((i & 63) == 0 && vc4_pool_clock() >= until)
            return;
    }
}

static void *worker_main(void *arg)
{
    pool_worker *w = arg;
    struct vc4_pool *p = w->p;
    pthread_mutex_lock(&p->mu);
    for (;;) {
        unsigned k = NONE;
        pool_slot *c;
        /* nothing to do: spin a while (work may come: the run being
         * prepared, segments the window holds back, the run's end), and
         * after a run until POOL_LINGER_NS past its end (the next may
         * follow), then sleep */
        uint64_t until = 0;
        while (!p->quit && (c = my_commit(p, w)) == NULL && (k = claimable(p)) == NONE) {
            uint64_t now = vc4_pool_clock();
            if (until == 0)
                until = now + POOL_SPIN_NS;
            if (!p->active && !p->warm && p->ended_ns && p->ended_ns + POOL_LINGER_NS > until)
                until = p->ended_ns + POOL_LINGER_NS;
            if (now < until) {
                unsigned seen = __atomic_load_n(&p->tick, __ATOMIC_RELAXED);
                pthread_mutex_unlock(&p->mu);
                spin_tick(p, seen, until);
                pthread_mutex_lock(&p->mu);
                continue;
            }
            pthread_cond_wait(&p->work, &p->mu);
            until = 0;
        }
        if (p->quit)
            break;
        if (c) {
            es_write_out(p, c, &p->segs[c->es->k]);
            continue;
        }
        p->claim = k + 1;
        run_claimed(p, w, k);
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

/* ---- the render thread's side ---- */

static void worker_free(struct vc4_pool *p, pool_worker *w)
{
    pool_buf_free(p, w->color);
    pool_buf_free(p, w->zs);
    free(w->batch);
    vc4_qpu_cache_destroy(w->qc);
    vc4_gl_cache_free(w->glc);
}

/* If b is a heap buffer: it takes *mine's contents and becomes *mine; the
 * old *mine is returned for the caller to put where b was. Else NULL. */
static void *trade(const struct vc4_pool *p, uint32_t **mine, void *b)
{
    if (!b || in_region(p, b))
        return NULL;
    memcpy(b, *mine, TILE_BUF_BYTES);
    void *old = *mine;
    *mine = b;
    return old;
}

/* Before the pool goes: the render thread's tile buffers, which outlive
 * it, must not lie in its region; trade each such one, contents and all,
 * for a heap buffer of the pool's (the pair cg_vc4_create made is among
 * them then). */
static void pool_reclaim(cg_vc4 *v, struct vc4_pool *p)
{
    uint32_t **mine[2] = {&v->rend->color, &v->rend->zs};
    for (unsigned m = 0; m < 2; m++) {
        if (!in_region(p, *mine[m]))
            continue;
        void *old = NULL;
        for (unsigned i = 0; !old && p->slots && i <= p->window; i++) {
            vc4_render *r = i < p->window ? p->slots[i].r : p->own.r;
            if (r && (old = trade(p, mine[m], r->color)) != NULL)
                r->color = old;
            else if (r && (old = trade(p, mine[m], r->zs)) != NULL)
                r->zs = old;
        }
        for (unsigned i = 0; !old && p->wk && i < p->nwk; i++) {
            if ((old = trade(p, mine[m], p->wk[i].color)) != NULL)
                p->wk[i].color = old;
            else if ((old = trade(p, mine[m], p->wk[i].zs)) != NULL)
                p->wk[i].zs = old;
        }
        for (struct vc4_es_seg *es = p->es_all; !old && es; es = es->next_all)
            if ((old = trade(p, mine[m], es->bytes)) != NULL)
                es->bytes = old;
    }
}

void vc4_pool_destroy(cg_vc4 *v)
{
    struct vc4_pool *p = v->pool;
    if (!p)
        return;
    pthread_mutex_lock(&p->mu);
    p->quit = true;
    pool_wake(p, true);
    pthread_mutex_unlock(&p->mu);
    for (unsigned i = 1; i <= p->nthreads; i++)
        pthread_join(p->wk[i].tid, NULL);
    pool_reclaim(v, p);
    for (unsigned i = 0; p->wk && i < p->nwk; i++)
        worker_free(p, &p->wk[i]);
    for (unsigned i = 0; p->slots && i <= p->window; i++) {
        pool_slot *sl = i < p->window ? &p->slots[i] : &p->own;
        if (sl->r) {
            pool_buf_free(p, sl->r->color);
            pool_buf_free(p, sl->r->zs);
            sl->r->color = sl->r->zs = NULL;
            vc4_render_free(sl->r);
        }
        pool_buf_free(p, sl->log.rec);
    }
    while (p->es_all) {
        struct vc4_es_seg *es = p->es_all;
        p->es_all = es->next_all;
        pool_buf_free(p, es->bytes);
        free(es->runs);
        free(es);
    }
    for (unsigned i = 0; i < ES_MAX_GROUPS; i++)
        free(p->groups[i].host);
    free(p->slots);
    free(p->wk);
    free(p->segs);
    vc4_render_free(p->pre_r);
    cg__unmap_huge(p->region, p->region_bytes);
    if (p->bus)
        cg_vas_destroy(p->bus);
    pthread_cond_destroy(&p->work);
    pthread_cond_destroy(&p->done);
    pthread_mutex_destroy(&p->mu);
    free(p);
    v->pool = NULL;
}

static void vc4_pool_fence(void *dev);

static struct vc4_pool *pool_create(cg_vc4 *v)
{
    struct vc4_pool *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    unsigned nt = v->render_threads - 1;
    p->window = 8 * (nt + 1);
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    p->yield = cpus >= 1 && nt + 1 > (unsigned long)cpus;
    p->wk = calloc(nt + 1, sizeof *p->wk);
    p->nwk = p->wk ? nt + 1 : 0;
    p->slots = calloc(p->window, sizeof *p->slots);
    p->pre_r = vc4_render_new();
    bool ok = p->wk && p->slots && p->pre_r;
    if (ok)
        region_map(p, nt + 1, p->window + 1, es_max(p));
    for (unsigned i = 0; ok && i <= p->window; i++) {
        pool_slot *sl = i < p->window ? &p->slots[i] : &p->own;
        uint32_t *c = pool_buf(p, TILE_BUF_BYTES), *z = pool_buf(p, TILE_BUF_BYTES);
        ok = c && z && (sl->r = vc4_render_new_with(c, z)) != NULL;
        if (!ok) {
            pool_buf_free(p, c);
            pool_buf_free(p, z);
        }
    }
    pthread_mutexattr_t ma;
    pthread_mutexattr_init(&ma);
#ifdef PTHREAD_ADAPTIVE_MUTEX_INITIALIZER_NP
    pthread_mutexattr_settype(&ma, PTHREAD_MUTEX_ADAPTIVE_NP);
#endif
    pthread_mutex_init(&p->mu, &ma);
    pthread_mutexattr_destroy(&ma);
    pthread_cond_init(&p->work, NULL);
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&p->done, &ca);
    pthread_condattr_destroy(&ca);
    v->pool = p;
    v->pool_fence = vc4_pool_fence;
    if (!ok) {
        vc4_pool_destroy(v);
        return NULL;
    }
    for (unsigned i = 0; ok && i <= nt; i++) {
        p->wk[i].p = p;
        p->wk[i].color = pool_buf(p, TILE_BUF_BYTES);
        p->wk[i].zs = pool_buf(p, TILE_BUF_BYTES);
        ok = p->wk[i].color && p->wk[i].zs;
    }
    if (!ok) {
        vc4_pool_destroy(v);
        return NULL;
    }
    for (unsigned i = 1; i <= nt; i++) {
        if (pthread_create(&p->wk[i].tid, NULL, worker_main, &p->wk[i]) != 0)
            break;
        p->nthreads = i;
    }
    return p;
}

static void vc4_pool_begin(cg_vc4 *v)
{
    /* Not with CPU-cached lines in SDRAM (reads may raise coherency
     * warnings): that runs on the render thread alone. */
    if (cg__mem_coherency_on(v->sdram))
        return;
    struct vc4_pool *p = v->pool ? v->pool : pool_create(v);
    if (!p || p->nthreads == 0)
        return;
    /* a trace sees the records workers ran when their results are taken */
    p->trace = cg_trace_enabled(v->dev);
    if (p->trace) {
        pthread_mutex_lock(&p->mu); /* (pool_buf: es_new may run) */
        for (unsigned i = 0; i <= p->window; i++) {
            pool_slot *sl = i < p->window ? &p->slots[i] : &p->own;
            if (!sl->log.rec) /* (NULL: out of memory, the slot gives no result) */
                sl->log.rec = pool_buf(p, TRACE_MAX_RECS * sizeof *sl->log.rec);
        }
        pthread_mutex_unlock(&p->mu);
    }
    p->nsegs = p->next = p->claim = 0;
    p->nholes = 0;
    p->ngroups = p->ntouch = 0;
    if (++p->touch_gen == 0) {
        memset(p->touch_set, 0, sizeof p->touch_set);
        memset(p->latch_gen, 0, sizeof p->latch_gen);
        p->touch_gen = 1;
    }
    p->pre_page = NULL;
    for (unsigned i = 0; i < 4; i++)
        p->pre_cache[i].pg = ~0ull;
    /* early stores can be turned off (cg_vc4_config.no_early_stores):
     * then the pre-pass keeps none of their bookkeeping */
    p->frame_es = !v->cfg.no_early_stores;
    p->es_on = false;
    /* wake the workers now: they spin through the pre-pass instead of
     * waking once it is over */
    pthread_mutex_lock(&p->mu);
    p->warm = true;
    pool_wake(p, true);
    pthread_mutex_unlock(&p->mu);
    pre_pass(v, p);
    unsigned nspec = 0;
    for (unsigned i = 0; i < p->nsegs; i++)
        nspec += p->segs[i].spec;
    bool go = nspec >= 2 && make_bus(v, p) == 0;
    pthread_mutex_lock(&p->mu);
    p->counts.segs += p->nsegs;
    if (!go) {
        p->warm = false;
        pool_wake(p, false);
    }
    pthread_mutex_unlock(&p->mu);
    if (!go)
        return;
    es_prepare(v, p);
    p->ran = true;
    p->base = *v;
    p->base.bus = p->bus;
    p->base.seg = true;
    p->base.seg_stopped = false;
    p->base.pool = NULL;
    p->base.render_threads = 1;
    memset(&p->base.stats, 0, sizeof p->base.stats);
    p->budget = v->budget[1];
    p->fill_ok = false;
    p->state_seg = ~0u;
    pthread_mutex_lock(&p->mu);
    p->active = true;
    p->stopping = false;
    p->warm = false;
    p->counts.spec += nspec;
    pool_wake(p, true);
    pthread_mutex_unlock(&p->mu);
}

/* Under the lock: no segment runs and none will start. */
static void pool_stop(struct vc4_pool *p)
{
    p->stopping = true;
    while (p->busy)
        pthread_cond_wait(&p->done, &p->mu);
    p->active = false;
}

static void vc4_pool_end(cg_vc4 *v)
{
    struct vc4_pool *p = v->pool;
    vc4_tile_settle(v->rend);
    if (!p || !p->ran)
        return;
    p->ran = false;
    pthread_mutex_lock(&p->mu);
    pool_stop(p);
    p->ended_ns = vc4_pool_clock();
    pthread_mutex_unlock(&p->mu);
    vc4_pool_retract(v); /* what was written early and not taken */
}

/* The render thread is about to write memory the workers may read: stop
 * them first, for the rest of the run (what they rendered read memory as
 * it was), with every taken store in memory. */
static void pool_halt(cg_vc4 *v)
{
    struct vc4_pool *p = v->pool;
    pthread_mutex_lock(&p->mu);
    pool_stop(p);
    pthread_mutex_unlock(&p->mu);
    vc4_pool_retract(v);
}

static void vc4_pool_store(cg_vc4 *v, const uint8_t *rec)
{
    struct vc4_pool *p = v->pool;
    if (!p || !p->active)
        return;
    uint64_t rg[2][2];
    unsigned nr = store_ranges(v->rend, rec, rg);
    for (unsigned i = 0; i < nr; i++)
        if (!for_sdram(p, v->cfg.sdram_size, rg[i][0], rg[i][1], hole_has)) {
            pool_halt(v); /* memory the workers may read */
            return;
        }
}

static void vc4_pool_fence(void *dev)
{
    cg_vc4 *v = dev;
    if (v->pool && v->pool->active)
        pool_halt(v);
}

static uint64_t taken_total;

uint64_t vc4_pool_taken_total(void)
{
    return __atomic_load_n(&taken_total, __ATOMIC_RELAXED);
}

static void vc4_pool_after(cg_vc4 *v, const uint8_t *rec)
{
    struct vc4_pool *p = v->pool;
    if (!p || !p->active)
        return;
    const vc4_render *r = v->rend;
    switch (vc4_cl_role[rec[0]]) {
    case VC4_RL_STORE: {
        vc4_store s;
        vc4_store_decode(r, rec, &s);
        if (s.keep_color || s.keep_zs) {
            p->fill_ok = false;
            return;
        }
        break;
    }
    case VC4_RL_TILE: /* a load */
    case VC4_RL_DRAW:
        p->fill_ok = false;
        return;
    default:
        return; /* records that do not touch the tile buffer */
    }
    /* render.c clear_color, clear_zs */
    p->fill_ok = true;
    p->fill_c = r->clear_color[0];
    p->fill_z = vc4_clear_zs_word(r);
}

/* Does the render thread's state match the start of segment k (CA aside):
 * the sub-list stack, the latched state, the tile buffer's words? */
static bool seg_match(const cg_vc4 *v, const struct vc4_pool *p, unsigned k)
{
    const pool_seg *s = &p->segs[k];
    const vc4_thread *th = &v->th[1];
    const vc4_render *r = v->rend;
    return s->spec && th->depth == s->depth &&
           memcmp(th->ret, s->ret, th->depth * sizeof th->ret[0]) == 0 &&
           (p->state_seg == k ||
            memcmp((const uint8_t *)r + VC4_RSTATE_OFF, s->state, VC4_RSTATE_LEN) == 0) &&
           (p->fill_ok ? p->fill_c == s->color && p->fill_z == s->zs
                       : buf_all(r->color, s->color) && buf_all(r->zs, s->zs));
}

/* Under the lock: the render thread meets segment k, whose result is in sl
 * (own: rendered here into p->own), match: its state matched. Takes the
 * result where it can (else drops its staged store: the render thread runs
 * the segment itself) and moves next past k. Returns the records taken (0:
 * none) and in *eofs the ends of frame its store raised. */
static int64_t take_result(cg_vc4 *v, struct vc4_pool *p, unsigned k, pool_slot *sl, bool own,
                           bool match, uint64_t *budget, unsigned *eofs)
{
    pool_seg *s = &p->segs[k];
    vc4_thread *th = &v->th[1];
    vc4_render *r = v->rend;
    /* a store written early: only while it is not undone (match: the
     * result is there, own or done) */
    bool stored_ok = match && (!sl->stored || s->es_state == ES_STAGED);
    /* the slot is reused once next moves past k: take it first (under the
     * lock: a few hundred bytes, and one lock round trip fewer) */
    int64_t got = 0;
    *eofs = 0;
    if (match && sl->ok && stored_ok && sl->units <= *budget) {
        *budget -= sl->units;
        v->stats.records[1] += sl->stats.records[1];
        v->stats.batches += sl->stats.batches;
        v->stats.fragments += sl->stats.fragments;
        v->stats.tiles_rendered += sl->stats.tiles_rendered;
        th->ca = sl->th.ca;
        th->depth = sl->th.depth;
        memcpy(th->ret, sl->th.ret, sizeof th->ret);
        th->running = sl->th.running;
        th->lc += sl->th.lc;
        th->agent = sl->th.agent;
        if (sl->end_next) {
            memcpy((uint8_t *)r + VC4_RSTATE_OFF, p->segs[k + 1].state, VC4_RSTATE_LEN);
            p->state_seg = k + 1;
        } else {
            memcpy((uint8_t *)r + VC4_RSTATE_OFF, (const uint8_t *)sl->r + VC4_RSTATE_OFF,
                   VC4_RSTATE_LEN);
            p->state_seg = ~0u;
        }
        if (sl->priv) {
            /* the tile buffer: the store's clear values, written when a
             * record the render thread runs reads them (cl.c); until then
             * fill_ok holds them (set below), so the next take compares
             * values, not words */
            r->fill_pending = 3;
            r->pend_c = s->end_c, r->pend_z = s->end_z;
        } else {
            /* the tile buffer: the worker's, and the slot gets the old one */
            uint32_t *c = r->color, *z = r->zs;
            r->color = sl->r->color, r->zs = sl->r->zs;
            sl->r->color = c, sl->r->zs = z;
            sl->buf_known = p->fill_ok && !r->fill_pending;
            sl->buf_c = p->fill_c, sl->buf_z = p->fill_z;
            r->fill_pending = 0;
        }
        p->fill_ok = false;
        if (sl->stored) {
            /* what the store left in the tile buffer (its end of frame
             * below, once it is in memory) */
            *eofs = sl->eofs;
            p->fill_ok = s->end_fill;
            p->fill_c = s->end_c, p->fill_z = s->end_z;
        }
        got = sl->records;
        if (p->trace) {
            /* the records' events, as the thread would have emitted them
             * (its ends of frame follow, vc4_pool_take) */
            for (unsigned i = 0; i < sl->log.n; i++) {
                const trace_rec *e = &sl->log.rec[i];
                vc4_record rd;
                vc4_record_get(e->bytes[0], &rd); /* (known: the worker ran it) */
                vc4_trace_record(v, th, e->addr, e->bytes, rd.size, rd.name);
            }
        }
    }
    if (!got) {
        p->state_seg = ~0u; /* the render thread runs the segment itself */
        /* A store staged for a result not taken (its budget, a state
         * that does not match) is dropped now: once next moves past k a
         * worker may reuse the slot, and the next render_own reuses
         * p->own. (A worker still staging it drops it: es_end.) */
        if (s->es_state == ES_STAGED) {
            es_put(p, s->es_by);
            s->es_state = ES_DROPPED;
        }
    }
    if (got && sl->stored) {
        /* taken: its bytes go to memory, written by the worker that
         * rendered it (its cache holds them) between its segments, or
         * here when that is this thread; all of them before an end of
         * frame (an interrupt handler may read them) */
        s->es_state = ES_COMMITTED;
        p->counts.es_taken++;
        if (own || sl->owner == 0) {
            es_write_out(p, sl, s);
        } else {
            sl->pending = true;
            pool_wake(p, true);
        }
        if (*eofs)
            es_flush(p);
    }
    if (got) {
        __atomic_add_fetch(&taken_total, 1, __ATOMIC_RELAXED);
        p->counts.taken++;
        p->counts.batches_taken += sl->stats.batches;
    }
    p->next = k + 1;
    return got;
}

static int64_t vc4_pool_take(cg_vc4 *v, uint64_t *budget)
{
    struct vc4_pool *p = v->pool;
    vc4_thread *th = &v->th[1];
    if (!p || !p->active)
        return 0;
    if (p->next >= p->nsegs) {
        /* past the pre-pass's last segment the render thread may read
         * pages it did not check: every taken store in memory first */
        vc4_pool_retract(v); /* (nothing to do unless early stores are on) */
        return 0;
    }
    if (th->ca != p->segs[p->next].addr)
        return 0;
    unsigned k = p->next;
    pool_seg *s = &p->segs[k];
    bool match = seg_match(v, p, k);
    pthread_mutex_lock(&p->mu);
    pool_slot *sl = &p->slots[k % p->window];
    bool own = false; /* rendered here into p->own */
    if (s->spec && s->status == SEG_FREE && k >= p->claim) {
        /* nobody took it yet: render it here (unless it is of no use) */
        p->claim = k + 1;
        if (!match) {
            s->spec = false;
        } else if (!sl->busy && !sl->pending) {
            run_claimed(p, &p->wk[0], k);
        } else {
            /* its slot still serves a late worker's segment, or holds a
             * store not yet in memory */
            own = render_own(p, k);
        }
    }
    /* wait for it, rendering others meanwhile; with nothing else to do,
     * the worker that has it is a whole window behind (descheduled on a
     * busy host): render it here instead of waiting (its slot stays busy
     * until that worker is done, and its result is not used) */
    uint64_t until = 0;
    while (!own && match && s->status != SEG_DONE) {
        unsigned j = claimable(p);
        uint64_t now = j == NONE ? vc4_pool_clock() : 0;
        if (j != NONE) {
            p->claim = j + 1;
            run_claimed(p, &p->wk[0], j);
        } else if (until == 0 || now < until) {
            /* first spin as long as two segments take here (the worker
             * may be nearly done, and waking from a sleep takes longer
             * than a segment on a virtual machine), on the tick a
             * segment's end moves */
            if (until == 0) {
                uint64_t ns = 2 * p->seg_wall_ns;
                until = now + (ns < 50000 ? 50000 : ns > 20000000 ? 20000000 : ns);
            }
            unsigned seen = __atomic_load_n(&p->tick, __ATOMIC_RELAXED);
            pthread_mutex_unlock(&p->mu);
            spin_tick(p, seen, until);
            pthread_mutex_lock(&p->mu);
        } else {
            own = render_own(p, k);
        }
    }
    unsigned eofs;
    int64_t got = take_result(v, p, k, own ? &p->own : sl, own, match, budget, &eofs);
    /* the segments after it whose results are there already, in the same
     * lock hold (the next one was done at 52-56% of the takes in the
     * bench's scenes), where nothing can go otherwise than in a take of
     * its own: the thread goes on at its start, no end of frame, the tile
     * buffer's values known without reading it, a result that is taken */
    int64_t all = got;
    while (got && !eofs && th->running && p->next < p->nsegs && p->fill_ok) {
        k = p->next;
        s = &p->segs[k];
        sl = &p->slots[k % p->window];
        if (s->status != SEG_DONE || th->ca != s->addr || th->ca == th->ea ||
            !seg_match(v, p, k) || !sl->ok || (sl->stored && s->es_state != ES_STAGED) ||
            sl->units > *budget)
            break;
        got = take_result(v, p, k, sl, false, true, budget, &eofs);
        all += got;
    }
    /* wake sleeping workers when half the window is free again, not at
     * every segment (a wake-up is a system call); spinning ones see it */
    pool_wake(p, p->claim <= p->next + p->window / 2);
    pthread_mutex_unlock(&p->mu);
    for (unsigned e = 0; e < eofs; e++)
        vc4_end_of_frame(v);
    return all;
}

void vc4_pool_get_counts(const cg_vc4 *v, vc4_pool_counts *out)
{
    memset(out, 0, sizeof *out);
    struct vc4_pool *p = v->pool;
    if (!p)
        return;
    pthread_mutex_lock(&p->mu);
    *out = p->counts;
    pthread_mutex_unlock(&p->mu);
}

/* ---- the render thread: the pool's watch on its step ---- */

/* Before the record at CA: the pool begins once the thread has worked alone
 * long enough (checked every 256 records, as at a step's start), and takes
 * the result of the segment that starts at CA where it can. */
static int64_t render_turn(cg_vc4 *v, uint64_t *budget, int64_t n)
{
    if (v->alone_since && (n & 255) == 255) {
        uint64_t now = vc4_pool_clock();
        v->alone_ns += now - v->alone_since;
        v->alone_since = now;
        if (v->alone_ns >= v->pool_after_ns) {
            v->alone_since = 0;
            vc4_pool_begin(v);
        }
    }
    if (v->th[1].ca == v->th[1].ea)
        return 0; /* the thread ends here */
    int64_t k = vc4_pool_take(v, budget);
    if (k > 0)
        return k;
    if (*budget == 0)
        vc4_pool_retract(v); /* memory as one thread left it before the budget fault */
    return 0;
}

/* The render thread runs rec itself: what the pool left in the tile buffer
 * is written first; a record that may read memory or fault takes the
 * early stores back (vc4_pool_self), a store outside the pages set aside
 * stops the workers (vc4_pool_store), and what the record leaves in the
 * tile buffer is noted (vc4_pool_after: if the record faults instead, the
 * thread stops and nothing reads it before the next run). */
static int render_record(cg_vc4 *v, uint32_t addr, const uint8_t *rec, unsigned size, int64_t n)
{
    (void)addr, (void)size, (void)n;
    if (v->rend->fill_pending)
        vc4_tile_settle(v->rend);
    vc4_pool_self(v, rec);
    if (vc4_cl_role[rec[0]] == VC4_RL_STORE)
        vc4_pool_store(v, rec);
    vc4_pool_after(v, rec);
    return VC4_CL_RUN;
}

static const vc4_cl_watch render_watch = {render_turn, render_record};

const vc4_cl_watch *vc4_pool_enter(cg_vc4 *v)
{
    if (v->seg || v->render_threads <= 1)
        return NULL;
    if (v->pool || v->alone_ns >= v->pool_after_ns)
        vc4_pool_begin(v);
    else
        v->alone_since = vc4_pool_clock();
    return &render_watch;
}

void vc4_pool_rest(cg_vc4 *v)
{
    if (v->alone_since) {
        v->alone_ns += vc4_pool_clock() - v->alone_since;
        v->alone_since = 0;
    }
    vc4_pool_end(v);
}
