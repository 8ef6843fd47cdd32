/* vc4 tile pool: its buffers (pool.h).
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
#include "pool.h"

/* n bytes (a multiple of 64) of the region, else of the heap; NULL: out
 * of memory. Under the pool's lock once workers run. */
void *pool_buf(struct vc4_pool *p, size_t n)
{
    if (p->region && p->region_bytes - p->region_used >= n) {
        void *b = p->region + p->region_used;
        p->region_used += n;
        return b;
    }
    return malloc(n);
}

bool pool_in_region(const struct vc4_pool *p, const void *b)
{
    return p->region && (uintptr_t)b - (uintptr_t)p->region < p->region_bytes;
}

void pool_buf_free(const struct vc4_pool *p, void *b)
{
    if (!pool_in_region(p, b))
        free(b);
}

/* The region for a pool of nwk threads and nslots results (slots and
 * own): their tile buffers, nstage stagings and the trace logs, rounded up
 * to whole huge pages. */
void pool_region_map(struct vc4_pool *p, unsigned nwk, unsigned nslots, unsigned nstage)
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
