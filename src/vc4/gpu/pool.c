/* vc4 family: the render thread's tile pool (docs/vc4.md "Tiles on a pool
 * of threads").
 *
 * The interface. The control-list threads know the pool by three calls and
 * the interpreter by two named points (vc4_internal.h):
 *   - vc4_pool_enter (threads.c, before the render thread's turn): the
 *     pool's watch on the step, or NULL (one render thread: it steps
 *     alone). The pool's run begins here, or once the thread has worked
 *     alone for pool_after_ns;
 *   - the watch's turn (cl.c, before the record at CA): where a segment
 *     starts at CA and a worker rendered it from exactly the thread's
 *     state, its result is taken (CA, budget, statistics and tile buffer
 *     move as the records would have); the records taken count as run;
 *   - the watch's record (cl.c, before a record the thread runs itself):
 *     the pool keeps memory and its own bookkeeping as one thread would
 *     see them (vc4_pool_self, vc4_pool_store, vc4_pool_after);
 *   - vc4_pool_rest (threads.c, after the turn): the run ends: workers
 *     stopped, every taken store in memory, the tile buffer settled.
 * Besides, the renderer writes a worker's early store through
 * vc4_es_dst / vc4_es_take_rows (pool_es.c), the GL shaders fence VDW
 * writes through the device's pool_fence, and vc4_pool_destroy,
 * vc4_pool_get_counts serve the device. pool.h lists the pool's files.
 *
 * The design. When the render thread's run begins, a pre-pass
 * (pool_pre.c) follows the list from CA without touching anything (the
 * record fetches, branches and sub-lists the thread would take, the state
 * records latched into a copy of the renderer's state, compressed
 * primitive lists skipped item by item) and cuts it into tile segments:
 * from a Tile_Coordinates record up to the record that ends the tile (a
 * store, the next Tile_Coordinates, a semaphore or Halt: roles in cl.def,
 * pool_worker.c SEG_END). For each segment it keeps where it starts (CA,
 * the sub-list stack), the renderer's latched state there and the tile
 * buffer's contents (known when the last store cleared it), and it
 * collects the memory every store of the frame may write (pool_pages.c).
 *
 * Worker threads (and the render thread while it waits) render segments
 * that draw something, in list order, each on a private copy of the device
 * (cl.c runs the records under the worker's watch; render.c draws them)
 * with a private tile buffer, batch, decoded-shader cache and GL cache,
 * its own budget counter and statistics, through a private bus that maps
 * SDRAM without the pages the frame's stores may write, read-only. Workers
 * write no memory while they render (a store they stage is written once
 * taken: "early stores", pool_es.c; anything else that would write, such
 * as a GL vertex shader's VDW, faults on that bus, so its segment has no
 * result and runs on the render thread in list order), and the faults they
 * raise are only counted (cg__fault_capture): a worker that faulted, read
 * a page a store writes (that is a fault on its bus), ran out of budget or
 * ended anywhere else than at its segment's end has no result.
 *
 * The render thread goes on stepping as before. At a segment's start it
 * takes the worker's result only when its state is exactly the one the
 * worker started from (CA, the sub-list stack, every latched field as
 * bytes, every tile-buffer word) and its budget covers what the worker
 * spent. Everything else runs on the render thread as before: stores not
 * staged (with the faults and interrupts they raise), segments without a
 * result, faults. Since a segment's outcome depends only on that state,
 * the memory it reads (none of it written by this frame's stores) and its
 * budget, the results are those of one thread, bit for bit. A store
 * outside the pages the pre-pass set aside (the list rewritten under the
 * pre-pass) first stops the workers. */
#define _GNU_SOURCE /* PTHREAD_MUTEX_ADAPTIVE_NP */
#include <unistd.h>
#include "pool.h"

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
    if (!b || pool_in_region(p, b))
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
        if (!pool_in_region(p, *mine[m]))
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
        pool_region_map(p, nt + 1, p->window + 1, es_max(p));
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

/* Under the lock: take the result of segment k from slot sl: the budget,
 * statistics, the thread's place, the latched state and the tile buffer
 * become what the records would have left; *eofs: the ends of frame its
 * store raised. */
static void take_copy(cg_vc4 *v, struct vc4_pool *p, unsigned k, pool_slot *sl,
                      uint64_t *budget, unsigned *eofs)
{
    pool_seg *s = &p->segs[k];
    vc4_thread *th = &v->th[1];
    vc4_render *r = v->rend;
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

/* Under the lock: the render thread meets segment k, whose result is in sl
 * (own: rendered here into p->own), match: its state matched. Takes the
 * result where it can (else drops its staged store: the render thread runs
 * the segment itself) and moves next past k. Returns the records taken (0:
 * none) and in *eofs the ends of frame its store raised. */
static int64_t take_result(cg_vc4 *v, struct vc4_pool *p, unsigned k, pool_slot *sl, bool own,
                           bool match, uint64_t *budget, unsigned *eofs)
{
    pool_seg *s = &p->segs[k];
    /* a store written early: only while it is not undone (match: the
     * result is there, own or done) */
    bool stored_ok = match && (!sl->stored || s->es_state == ES_STAGED);
    /* the slot is reused once next moves past k: take it first (under the
     * lock: a few hundred bytes, and one lock round trip fewer) */
    int64_t got = 0;
    *eofs = 0;
    if (match && sl->ok && stored_ok && sl->units <= *budget) {
        take_copy(v, p, k, sl, budget, eofs);
        got = sl->records;
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
