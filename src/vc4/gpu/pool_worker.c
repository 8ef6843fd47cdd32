/* vc4 tile pool: the workers (pool.h, pool.c's header comment). Each
 * claims the next segment in list order (claimable), renders it on its
 * copy of the device through the interpreter (render_seg: cl.c's step,
 * under the watch below), and writes the early stores it staged once the
 * render thread took them. */
#define _GNU_SOURCE /* (as pool.c) */
#include <sched.h>
#include "pool.h"

/* ---- the pool's watch on a worker's copy of the render thread ----
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
unsigned claimable(struct vc4_pool *p)
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

void run_claimed(struct vc4_pool *p, pool_worker *w, unsigned k)
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
bool render_own(struct vc4_pool *p, unsigned k)
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
void spin_tick(const struct vc4_pool *p, unsigned seen, uint64_t until)
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

void *worker_main(void *arg)
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
