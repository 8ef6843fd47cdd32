/* vc4 family: the two control-list threads (CT0 binning, CT1 rendering).
 *
 * A thread runs while CTnCA != CTnEA (the seed: "execution continues as long
 * as the start address and end address are not equal"); writing CTnEA
 * starts it (research/vc4.md section 2). Records are fetched through the bus
 * address space, so a list running into unmapped memory faults with the bus
 * address; an opcode the table (cl.def) does not know faults with the
 * opcode. Branch to Sub-list nests at most two levels (vc4_packet.h);
 * Return with an empty stack does nothing. Increment Semaphore in the
 * binning thread is queued until the next Flush ("That semaphore only
 * increments when binning is done and everything is flushed", seed 003;
 * research/vc4.md: Flush "fires the queued semaphore"); in the render
 * thread it counts at once. Wait on Semaphore blocks until the other thread
 * has incremented. Each kick may run cfg.record_budget records, after which
 * the thread ends with a HANG fault (branch loops). */
#include <stdio.h>
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

/* ---- the thread's own records: an opcode-indexed handler table ---------
 * (as Linux vc4_validate.c cmd_info[]). A handler returns 0 (go on at
 * *next), STEP_STAY (CA stays: the thread halted, waits or faulted), 1
 * (blocked: retry the record) or a negative cg_err. Records without a
 * handler here go to the binner (thread 0) or the renderer (thread 1). */
enum { STEP_STAY = 2 };
typedef int (*vc4_thread_fn)(cg_vc4 *v, int t, uint32_t addr, const uint8_t *rec,
                             uint32_t *next);

static int t_halt(cg_vc4 *v, int t, uint32_t addr, const uint8_t *rec, uint32_t *next)
{
    (void)addr, (void)rec;
    v->th[t].running = false;
    v->th[t].ca = *next;
    return STEP_STAY;
}

/* No_Op; Marker, Reset Marker Count: the blob's; GEM relocations: software
 * only, the kernel strips it. Nothing to model. */
static int t_nop(cg_vc4 *v, int t, uint32_t addr, const uint8_t *rec, uint32_t *next)
{
    (void)v, (void)t, (void)addr, (void)rec, (void)next;
    return 0;
}

static int t_inc_sem(cg_vc4 *v, int t, uint32_t addr, const uint8_t *rec, uint32_t *next)
{
    (void)addr, (void)rec, (void)next;
    if (t == 0)
        v->th[0].pending_inc++;
    else
        v->th[0].sem++;
    return 0;
}

static int t_wait_sem(cg_vc4 *v, int t, uint32_t addr, const uint8_t *rec, uint32_t *next)
{
    (void)addr, (void)rec, (void)next;
    vc4_thread *th = &v->th[t];
    if (th->sem == 0) {
        th->waiting_sem = true;
        return STEP_STAY; /* CA stays on the wait */
    }
    th->sem--;
    return 0;
}

static int t_branch(cg_vc4 *v, int t, uint32_t addr, const uint8_t *rec, uint32_t *next)
{
    (void)v, (void)t, (void)addr;
    *next = VC4_ADDR(rec + 1, Branch, Address);
    return 0;
}

static int t_branch_sub(cg_vc4 *v, int t, uint32_t addr, const uint8_t *rec, uint32_t *next)
{
    vc4_thread *th = &v->th[t];
    uint32_t to = VC4_ADDR(rec + 1, Branch_to_sub_list, Address);
    if (th->depth >= 2) {
        vc4_fault(v, th, CG_FAULT_DEPTH, addr,
                  "Branch_To_Sub_List to 0x%08x nested deeper than 2 levels", to);
        return STEP_STAY;
    }
    th->ret[th->depth++] = *next;
    *next = to;
    return 0;
}

static int t_return(cg_vc4 *v, int t, uint32_t addr, const uint8_t *rec, uint32_t *next)
{
    (void)addr, (void)rec;
    vc4_thread *th = &v->th[t];
    if (th->depth)
        *next = th->ret[--th->depth];
    return 0;
}

static int t_engine(cg_vc4 *v, int t, uint32_t addr, const uint8_t *rec, uint32_t *next)
{
    return t == 0 ? vc4_bin_record(v, &v->th[t], addr, rec)
                  : vc4_render_record(v, &v->th[t], addr, rec, next);
}

/* The thread's own records by role (cl.def's role column); records of
 * other roles go to the binner (thread 0) or the renderer (thread 1). */
static const vc4_thread_fn thread_handlers[VC4_RL_COUNT] = {
    [VC4_RL_HALT] = t_halt,
    [VC4_RL_NOP] = t_nop,
    [VC4_RL_SEM_INC] = t_inc_sem,
    [VC4_RL_SEM_WAIT] = t_wait_sem,
    [VC4_RL_BRANCH] = t_branch,
    [VC4_RL_CALL] = t_branch_sub,
    [VC4_RL_RETURN] = t_return,
};

/* The records that end a tile segment of the pool (pool.c): a worker's
 * copy of the render thread stops before them (the render thread runs them
 * itself): the next tile, stores, and anything that involves the other
 * thread or stops this one. */
#define SEG_END (VC4_RM(TILE) | VC4_RM(STORE) | VC4_RM(HALT) | VC4_RM(SEM_INC) | VC4_RM(SEM_WAIT))

/* Run one thread until it ends, blocks or faults. Returns the number of
 * records executed, or CG_ERR_NOMEM. */
static int64_t step(cg_vc4 *v, int t, uint64_t *budget)
{
    /* render.c and binner.c also spend this budget per primitive */
    vc4_thread *th = &v->th[t];
    int64_t n = 0;
    /* the render thread may hand tile segments to the pool (pool.c) */
    bool pool = t == 1 && !v->seg && v->render_threads > 1;
    /* ... once it has worked alone long enough (pool_after_ns): alone is
     * when the current stretch alone began, 0: not alone */
    uint64_t alone = 0;
    if (pool) {
        if (v->pool || v->alone_ns >= v->pool_after_ns)
            vc4_pool_begin(v);
        else
            alone = vc4_pool_clock();
    }
    while (th->running && !th->waiting_sem) {
        if (alone && (n & 255) == 255) {
            /* every 256 records: the pool may begin here, from CA, as it
             * would at a step's start */
            uint64_t now = vc4_pool_clock();
            v->alone_ns += now - alone;
            alone = now;
            if (v->alone_ns >= v->pool_after_ns) {
                alone = 0;
                vc4_pool_begin(v);
            }
        }
        if (th->ca == th->ea) {
            th->running = false;
            break;
        }
        if (pool) {
            int64_t k = vc4_pool_take(v, budget);
            if (k > 0) {
                n += k;
                continue;
            }
        }
        if (*budget == 0) {
            if (pool)
                vc4_pool_retract(v); /* memory as one thread left it, first */
            /* the thread stops before fetching the record at CA: no word */
            th->agent.stream_addr = th->ca;
            th->agent.nwords = 0;
            vc4_fault(v, th, CG_FAULT_HANG, th->ca,
                      "budget %s: %llu units ran out: a branch loop? (thread %d at 0x%08x)",
                      cg_budget_name(CG_BUDGET_VC4_THREAD_UNITS),
                      (unsigned long long)v->cfg.record_budget, t, th->ca);
            break;
        }
        uint32_t addr = th->ca;
        th->agent.stream_addr = addr;
        th->agent.nwords = 0;
        uint8_t rec[16];
        if (vc4_bus_read(v->bus, addr, rec, 1, &th->agent) != 0) {
            th->faulted = true;
            th->running = false;
            th->cs |= CG_VC4_CS_ERR;
            break;
        }
        uint8_t op = rec[0];
        if (v->seg && n > 0 && VC4_ROLE_IN(op, SEG_END) &&
            !(v->seg_es && vc4_cl_role[op] == VC4_RL_STORE && vc4_pool_es_begin(v))) {
            v->seg_stopped = true; /* the render thread runs this record */
            break;
        }
        th->agent.words[0] = op;
        th->agent.nwords = 1;
        vc4_record r;
        if (!vc4_record_get(op, &r)) {
            vc4_fault(v, th, CG_FAULT_INVALID_OPCODE, addr,
                      "unknown control-list opcode %u (0x%02x) at 0x%08x", op, op, addr);
            break;
        }
        if (r.size > 1 && vc4_bus_read(v->bus, addr + 1, rec + 1, r.size - 1, &th->agent) != 0) {
            th->faulted = true;
            th->running = false;
            th->cs |= CG_VC4_CS_ERR;
            break;
        }
        if (r.size >= 5) {
            th->agent.words[1] = vc4_le32(rec + 1);
            th->agent.nwords = 2;
        }
        if (v->seg) {
            if (v->tlog)
                vc4_pool_log(v, addr, rec, r.size); /* emitted when taken */
        } else if (cg_trace_enabled(v->dev)) {
            vc4_trace_record(v, th, addr, rec, r.size, r.name);
        }
        (*budget)--;
        n++;
        v->stats.records[t]++;
        uint32_t next = addr + r.size;
        if (pool) {
            if (v->rend->fill_pending)
                vc4_tile_settle(v->rend); /* what the pool left to fill */
            vc4_pool_self(v, rec);
            if (VC4_ROLE_IN(op, SEG_END))
                vc4_pool_store(v, rec);
        }
        vc4_thread_fn fn = thread_handlers[vc4_cl_role[op]];
        if (!fn)
            fn = t_engine;
        int rc = fn(v, t, addr, rec, &next);
        if (rc == STEP_STAY)
            continue;
        if (rc == 1) { /* blocked: retry this record later */
            (*budget)++;
            n--;
            break;
        }
        if (rc == CG_ERR_NOMEM) {
            n = rc;
            break;
        }
        if (rc < 0 || th->faulted) {
            /* the fault is logged (vc4_fault, or the bus access) */
            th->faulted = true;
            th->running = false;
            th->waiting_sem = false;
            th->cs |= CG_VC4_CS_ERR;
            continue;
        }
        if (pool)
            vc4_pool_after(v, rec);
        th->ca = next;
        th->lc++;
        if (v->es) {
            v->seg_stopped = true; /* a worker's early store ends its segment */
            break;
        }
    }
    if (alone)
        v->alone_ns += vc4_pool_clock() - alone;
    if (pool)
        vc4_pool_end(v);
    return n;
}

int64_t vc4_step_segment(cg_vc4 *v)
{
    return step(v, 1, &v->budget[1]);
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
            int64_t n = step(v, t, &budget[t]);
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
