/* vc4 tile pool: early stores' stagings (pool.h).
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
#include "pool.h"

/* Stagings made at most: a slot (or own) holds one at a time, and the
 * threads' free lists hold the rest (es_get takes another thread's past
 * this). */
unsigned es_max(const struct vc4_pool *p)
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
struct vc4_es_seg *es_get(struct vc4_pool *p, pool_worker *w)
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
void es_put(struct vc4_pool *p, pool_slot *sl)
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
void es_write_out(struct vc4_pool *p, pool_slot *sl, pool_seg *s)
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
void es_flush(struct vc4_pool *p)
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
void es_end(struct vc4_pool *p, pool_slot *sl)
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
