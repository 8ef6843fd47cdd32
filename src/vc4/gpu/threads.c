/* vc4 family: the two control-list threads (CT0 binning, CT1 rendering).
 *
 * A thread runs while CTnCA != CTnEA (the seed: "execution continues as long
 * as the start address and end address are not equal"); writing CTnEA
 * starts it (research/vc4.md section 2). The threads take turns, each
 * running its list (cl.c vc4_cl_step) until it ends, blocks on a semaphore
 * or faults, for as long as one of them makes progress. The render thread's
 * turn may bring in the tile pool (pool.h): vc4_pool_enter before it gives
 * the pool's watch on the step, vc4_pool_rest after it ends the pool's run
 * (its workers stopped, their results taken or dropped), so that between
 * turns memory and the device are as one thread would leave them. */
#include "vc4/vc4_internal.h"

int vc4_thread_kick(cg_vc4 *v, int t)
{
    vc4_thread *th = &v->th[t];
    if (!th->running) {
        th->faulted = false;
        th->cs &= ~CG_VC4_CS_ERR;
        th->depth = 0;
        th->waiting_sem = false;
        th->lc = th->pc = 0;
        if (t == 0)
            v->bin.oom = false;
    }
    th->running = th->ca != th->ea;
    v->budget[t] = v->cfg.record_budget;
    return vc4_run_threads(v);
}

int vc4_run_threads(cg_vc4 *v)
{
    if (v->in_run)
        return 0;
    v->in_run = true;
    uint64_t *budget = v->budget;
    bool progress = true;
    int rc = 0;
    while (progress) {
        progress = false;
        for (int t = 0; t < 2; t++) {
            vc4_thread *th = &v->th[t];
            if (th->waiting_sem && th->sem > 0)
                th->waiting_sem = false;
            if (t == 0 && v->bin.oom && v->bpos == 0)
                continue; /* still out of memory */
            if (!th->running || th->waiting_sem)
                continue;
            /* the render thread may hand tiles to the pool (pool.h) */
            const vc4_cl_watch *w = t == 1 ? vc4_pool_enter(v) : NULL;
            int64_t n = vc4_cl_step(v, t, &budget[t], w);
            if (w)
                vc4_pool_rest(v);
            if (n < 0) {
                rc = (int)n;
                progress = false;
                break;
            }
            if (n > 0)
                progress = true;
        }
    }
    v->in_run = false;
    return rc;
}
