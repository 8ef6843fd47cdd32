/* vc4 family: the render thread's tile pool, the types its files share.
 *
 * (The pool's design and its interface: pool.c's header comment and
 * docs/vc4.md "Tiles on a pool of threads".) The pool's files call one
 * another in layers, no file calling back into one that calls it:
 *   pool.c        the pool's life, its run (begin, end), the render
 *                 thread's watch (take results, early stores' retract);
 *   pool_pre.c    the pre-pass that cuts the list into tile segments;
 *   pool_worker.c the workers and the watch on a worker's copy;
 *   pool_pages.c  the pages the frame's stores may write (holes, the
 *                 workers' bus, early stores' surfaces);
 *   pool_es.c     early stores' stagings (render.c writes into them);
 *   pool_buf.c    the pool's buffers.
 * Not installed. */
#ifndef CMDGPU_VC4_POOL_H
#define CMDGPU_VC4_POOL_H

#include <pthread.h>
#include <stdlib.h>
#include <time.h>
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

/* Under the lock: there may be work for the workers; wake the sleeping
 * ones too when sleepers (broadcast). */
static inline void pool_wake(struct vc4_pool *p, bool sleepers)
{
    __atomic_add_fetch(&p->tick, 1, __ATOMIC_RELEASE);
    if (sleepers)
        pthread_cond_broadcast(&p->work);
}

static inline bool buf_all(const uint32_t *b, uint32_t val)
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
/* Under the pool's lock: no segment. */
#define NONE (~0u)

/* pool_buf.c: n bytes (a multiple of 64) of the pool's region, else of the
 * heap (NULL: out of memory), under the pool's lock once workers run;
 * whether b lies in the region; free b where it lies; map the region */
void *pool_buf(struct vc4_pool *p, size_t n);
bool pool_in_region(const struct vc4_pool *p, const void *b);
void pool_buf_free(const struct vc4_pool *p, void *b);
void pool_region_map(struct vc4_pool *p, unsigned nwk, unsigned nslots, unsigned nstage);

/* pool_pages.c: what stores write (store_ranges, store_target), the holes
 * of SDRAM set aside for them, the workers' bus, early stores' surfaces */
unsigned store_ranges(const vc4_render *r, const uint8_t *rec, uint64_t out[2][2]);
int store_target(const vc4_render *r, const uint8_t *rec, es_group *key);
bool same_surface(const es_group *g, const es_group *key);
int group_of(struct vc4_pool *p, const es_group *key);
bool for_sdram(struct vc4_pool *p, uint32_t sdram, uint64_t a, uint64_t len,
               bool (*fn)(struct vc4_pool *, uint64_t, uint64_t));
bool hole_add(struct vc4_pool *p, uint64_t lo, uint64_t hi);
bool hole_has(struct vc4_pool *p, uint64_t lo, uint64_t hi);
int make_bus(cg_vc4 *v, struct vc4_pool *p);
void es_prepare(cg_vc4 *v, struct vc4_pool *p);

/* pool_pre.c: follow the render list from CA; fills segs and holes */
void pre_pass(cg_vc4 *v, struct vc4_pool *p);

/* pool_es.c: early stores' stagings (under the lock) */
unsigned es_max(const struct vc4_pool *p);
struct vc4_es_seg *es_get(struct vc4_pool *p, pool_worker *w);
void es_put(struct vc4_pool *p, pool_slot *sl);
void es_write_out(struct vc4_pool *p, pool_slot *sl, pool_seg *s);
void es_flush(struct vc4_pool *p);
void es_end(struct vc4_pool *p, pool_slot *sl);

/* pool_worker.c: the workers (under the lock unless said) */
unsigned claimable(struct vc4_pool *p);
void run_claimed(struct vc4_pool *p, pool_worker *w, unsigned k);
bool render_own(struct vc4_pool *p, unsigned k);
void spin_tick(const struct vc4_pool *p, unsigned seen, uint64_t until); /* unlocked */
void *worker_main(void *arg);

#endif
