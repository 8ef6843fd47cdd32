/* vc4 family: the control-list interpreter: one thread's records.
 *
 * A thread fetches the record at CA through the bus address space (a list
 * running into unmapped memory faults with the bus address; an opcode the
 * table, cl.def, does not know faults with the opcode) and runs it by its
 * role (cl.def's role column): the thread's own records here (halt, no-op,
 * semaphores, branches, sub-lists), every other record in its engine: the
 * binner (binner.c) for the binning thread CT0, the renderer (render.c,
 * which runs fragment shaders on the QPU model and writes the tile buffer)
 * for the render thread CT1. Branch to Sub-list nests at most two levels
 * (vc4_packet.h); Return with an empty stack does nothing. Increment
 * Semaphore in the binning thread is queued until the next Flush ("That
 * semaphore only increments when binning is done and everything is
 * flushed", seed 003; research/vc4.md: Flush "fires the queued semaphore");
 * in the render thread it counts at once. Wait on Semaphore blocks until
 * the other thread has incremented. Each kick may run cfg.record_budget
 * records, after which the thread ends with a HANG fault (branch loops).
 *
 * The render thread's tile pool (pool.h) watches a step at two named
 * points (vc4_cl_watch): before the record at CA (it may take the results
 * of tiles its workers rendered ahead) and before a record the thread runs
 * itself. threads.c schedules the two threads. */
#include <stdio.h>
#include "vc4/vc4_internal.h"

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

/* Run thread t until it ends, blocks or faults; w: who watches it (the
 * tile pool, pool.h), or NULL. Returns the number of records executed, or
 * CG_ERR_NOMEM. */
int64_t vc4_cl_step(cg_vc4 *v, int t, uint64_t *budget, const vc4_cl_watch *w)
{
    /* render.c and binner.c also spend this budget per primitive */
    vc4_thread *th = &v->th[t];
    int64_t n = 0;
    while (th->running && !th->waiting_sem) {
        if (w) {
            /* the first named point: CA is about to run */
            int64_t k = w->turn(v, budget, n);
            if (k == VC4_CL_STOP)
                break;
            if (k > 0) {
                n += k; /* records the watcher ran for the thread */
                continue;
            }
        }
        if (th->ca == th->ea) {
            th->running = false;
            break;
        }
        if (*budget == 0) {
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
        /* the second named point: the thread runs this record itself */
        int seen = w ? w->record(v, addr, rec, r.size, n) : VC4_CL_RUN;
        if (seen == VC4_CL_STOP)
            break;
        if (seen != VC4_CL_TRACED && cg_trace_enabled(v->dev))
            vc4_trace_record(v, th, addr, rec, r.size, r.name);
        (*budget)--;
        n++;
        v->stats.records[t]++;
        uint32_t next = addr + r.size;
        vc4_thread_fn fn = thread_handlers[r.role];
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
        th->ca = next;
        th->lc++;
    }
    return n;
}
