/* VideoCore IV user programs: the V3D request queue, QPU reservation, the
 * QPU host interrupt, a deterministic scheduler over the 12 QPUs and the
 * firmware's "execute QPU" mailbox tag.
 *
 * Facts: VideoCore IV 3D Architecture Reference Guide (register map: SQRSV0
 * 0x410, SQRSV1 0x414, SQCNTL 0x418, SRQPC 0x430, SRQUA 0x434, SRQUL 0x438,
 * SRQCS 0x43C, DBQITE 0xE2C, DBQITC 0xE30; research/vc4.md section 2 and
 * maazl/vc4asm doc/VideoCoreIV-addendum.html); the SRQCS bit positions as
 * hello_fft's gpu_fft_base.c uses them (1 << 7 error, 1 << 8 and 1 << 16
 * clear the two counts, bits 23:16 the completed count it polls); the
 * mailbox tag 0x30011 (firmware wiki "Mailbox property interface": num_qpus,
 * control, noflush, timeout -> 0, or 0x80000000 on timeout). Modelling
 * choices are in docs/vc4-gpgpu.md. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gpgpu.h"
#include "vc4/qpu.h"

typedef struct vc4_srq_entry {
    uint32_t pc, ua, ul;
} vc4_srq_entry;

/* A QPU state on a 64-byte boundary: its register rows are whole cache
 * lines, so the interpreter's 64-byte row loads and stores do not straddle
 * two lines (qpu.h). */
typedef struct vc4_qpu_slot {
    _Alignas(64) vc4_qpu_state s;
} vc4_qpu_slot;

typedef struct vc4_gpgpu {
    vc4_qpu_slot q[VC4_NQPU];
    bool busy[VC4_NQPU];    /* a user program runs on the QPU */
    bool blocked[VC4_NQPU]; /* its last step was a stall */
    uint64_t insns[VC4_NQPU]; /* instructions of the current program (stalls excluded) */
    uint32_t code[VC4_NQPU], unif[VC4_NQPU], unif_len[VC4_NQPU];
    uint32_t host_ints[VC4_NQPU];
    uint32_t host_int_val[VC4_NQPU]; /* last non-zero HOST_INT value */
    vc4_srq_entry queue[VC4_SRQ_DEPTH];
    unsigned qhead, qlen;
    uint32_t srqua, srqul;
    uint8_t made, done; /* SRQCS counts (8 bits each) */
    bool qerr;
    uint32_t sqrsv[2], sqcntl;
    uint32_t dbqite, dbqitc;
    vc4_v3d_units units; /* VPM, semaphores, mutex: shared by the 12 QPUs */
    bool in_run;
    bool hold; /* cg_vc4_qpu_hold: the scheduler does not run */
    uint64_t tick_limit; /* set by exec_qpu: steps each QPU may take before the timeout; 0 none */
    uint64_t ticks[VC4_NQPU]; /* steps (instructions and stalls) since exec_qpu started */
    vc4_qpu_cache *cache; /* decoded user programs (one cache: one scheduler thread) */
    bool timed_out;
    cg_vc4_qpu_stats stats;
} vc4_gpgpu;

static vc4_gpgpu *gp_get(cg_vc4 *v)
{
    if (!v->gp) {
        /* aligned for the QPU states (a multiple of 64: the slots' size) */
        v->gp = aligned_alloc(64, sizeof *v->gp);
        if (v->gp) {
            memset(v->gp, 0, sizeof *v->gp);
            vc4_v3d_units_init(&v->gp->units);
        }
    }
    return v->gp;
}

void vc4_gpgpu_destroy(cg_vc4 *v)
{
    if (v->gp)
        vc4_qpu_cache_destroy(v->gp->cache);
    free(v->gp);
    v->gp = NULL;
}

static bool reserved(const vc4_gpgpu *g, unsigned qpu)
{
    return (g->sqrsv[qpu / 8] >> (4 * (qpu % 8))) & VC4_SQRSV_NO_USER;
}

static uint32_t srqcs(const vc4_gpgpu *g)
{
    return (g->qlen & VC4_SRQCS_QPURQL_MASK) | (g->qerr ? VC4_SRQCS_QPURQERR : 0) |
           (uint32_t)g->made << VC4_SRQCS_QPURQCM_SHIFT |
           (uint32_t)g->done << VC4_SRQCS_QPURQCC_SHIFT;
}

/* What a blocked QPU waits on (the interpreter's vc4_qpu_wait_text). */
static void wait_desc(cg_vc4 *v, vc4_gpgpu *g, unsigned n, char *buf, size_t cap)
{
    (void)v;
    vc4_qpu_wait_text(&g->q[n].s, buf, cap);
}

static void start_program(cg_vc4 *v, vc4_gpgpu *g, unsigned n, const vc4_srq_entry *e)
{
    cg_agent who = {.family = CG_FAMILY_VC4, .unit = "qpu", .channel = (int)n};
    vc4_qpu_init(&g->q[n].s, v->dev, v->bus, &who, e->pc, e->ua, v->cfg.qpu_strict);
    vc4_qpu_set_units(&g->q[n].s, &g->units, n);
    /* decoded once (no cache if it cannot be allocated: fetch from memory) */
    if (!g->cache)
        g->cache = vc4_qpu_cache_create();
    vc4_qpu_use_cache(&g->q[n].s, g->cache);
    g->busy[n] = true;
    g->blocked[n] = false;
    g->insns[n] = 0;
    g->host_ints[n] = 0;
    g->host_int_val[n] = 0;
    g->code[n] = e->pc, g->unif[n] = e->ua, g->unif_len[n] = e->ul;
    g->stats.started++;
    if (cg_trace_enabled(v->dev)) {
        cg_trace_event ev = {.kind = CG_TRACE_PACKET, .family = CG_FAMILY_VC4, .unit = "qpu",
                             .channel = (int)n, .stream_addr = e->pc, .reg = e->ua,
                             .value = e->ul, .name = "user program start"};
        cg_trace_emit(v->dev, &ev);
    }
}

/* Start queued programs on free, unreserved QPUs (lowest number first). */
static bool dispatch(cg_vc4 *v, vc4_gpgpu *g)
{
    bool any = false;
    for (unsigned n = 0; n < VC4_NQPU && g->qlen; n++) {
        if (g->busy[n] || reserved(g, n))
            continue;
        start_program(v, g, n, &g->queue[g->qhead]);
        g->qhead = (g->qhead + 1) % VC4_SRQ_DEPTH;
        g->qlen--;
        any = true;
    }
    return any;
}

/* Every busy QPU but `skip` (-1: none): "q1@00010108 semaphore 2 acquire
 * (count 0); ..." into buf. */
static void all_qpus(cg_vc4 *v, vc4_gpgpu *g, int skip, char *buf, size_t cap)
{
    size_t len = 0;
    buf[0] = 0;
    for (unsigned n = 0; n < VC4_NQPU && len + 1 < cap; n++) {
        if (!g->busy[n] || (int)n == skip)
            continue;
        char w[64];
        wait_desc(v, g, n, w, sizeof w);
        int k = snprintf(buf + len, cap - len, "%sq%u@%08x %s", len ? "; " : "", n, g->q[n].s.pc,
                         g->blocked[n] ? w : "runs");
        if (k < 0)
            break;
        len += (size_t)k < cap - len ? (size_t)k : cap - len - 1;
    }
}

static void end_program(vc4_gpgpu *g, unsigned n, bool completed)
{
    g->busy[n] = false;
    g->blocked[n] = false;
    if (completed) {
        g->done++;
        g->stats.completed++;
    } else {
        g->stats.faulted++;
    }
}

/* One QPU faults with a HANG that names the budget, its pc and wait; the
 * log's detail line lists every busy QPU (docs/vc4-gpgpu.md). */
static void hang(cg_vc4 *v, vc4_gpgpu *g, unsigned n, const char *why)
{
    char w[64], all[512];
    wait_desc(v, g, n, w, sizeof w);
    all_qpus(v, g, (int)n, all, sizeof all);
    cg_agent who = {.family = CG_FAMILY_VC4, .unit = "qpu", .channel = (int)n,
                    .stream_addr = g->q[n].s.pc};
    cg_fault_post(v->dev, &who, CG_FAULT_HANG, g->q[n].s.pc,
                  "%s (budget %s): qpu %u pc 0x%08x waits on %s; others: %s", why,
                  cg_budget_name(CG_BUDGET_VC4_QPU_INSNS), n, g->q[n].s.pc,
                  g->blocked[n] ? w : "nothing (runs)", all[0] ? all : "none");
    end_program(g, n, false);
}

/* The interleave (docs/vc4-gpgpu.md, "Scheduler"): rounds over the QPUs in
 * order 0..11; in a round each running QPU runs one slice
 * (vc4_qpu_run_slice): up to and including its next instruction that
 * touches a unit the QPUs share (semaphore, mutex, VPM/VDR/VDW, host
 * interrupt), or up to a stall, its end, a fault or its budget. Code is
 * revalidated against memory when the scheduler starts and after a slice
 * that ran a VDW DMA (which may have written code). */
int vc4_gpgpu_run(cg_vc4 *v)
{
    vc4_gpgpu *g = gp_get(v);
    if (!g)
        return CG_ERR_NOMEM;
    if (g->in_run || g->hold)
        return 0;
    g->in_run = true;
    int rc = 0;
    uint64_t budget = v->cfg.qpu_budget;
    vc4_qpu_cache_revalidate(g->cache, v->bus);
    for (;;) {
        dispatch(v, g);
        bool progress = false, any = false, timed_out = false;
        for (unsigned n = 0; n < VC4_NQPU; n++) {
            if (!g->busy[n])
                continue;
            any = true;
            vc4_qpu_state *s = &g->q[n].s;
            s->host_int = 0;
            uint64_t max = budget > g->insns[n] ? budget - g->insns[n] : 0;
            if (g->tick_limit) {
                uint64_t left = g->tick_limit > g->ticks[n] ? g->tick_limit - g->ticks[n] : 0;
                if (left == 0) {
                    timed_out = true;
                    continue;
                }
                if (left < max)
                    max = left;
            }
            uint64_t vdw0 = g->units.vdw_count, ran = 0;
            int r = vc4_qpu_run_slice(s, max, &ran);
            if (g->units.vdw_count != vdw0)
                vc4_qpu_cache_revalidate(g->cache, v->bus);
            g->insns[n] += ran;
            g->stats.insns += ran;
            g->ticks[n] += ran + (r == VC4_QPU_BLOCKED);
            if (ran)
                progress = true;
            if (r == VC4_QPU_BLOCKED) {
                g->blocked[n] = true;
                continue;
            }
            if (r != 0) {
                /* the fault is logged; the QPU is free for the next program */
                end_program(g, n, false);
                progress = true;
                if (r == CG_ERR_NOMEM)
                    rc = r;
                continue;
            }
            if (s->host_int) {
                g->dbqitc |= 1u << n;
                g->host_ints[n]++;
                g->host_int_val[n] = s->host_int;
                g->stats.host_ints++;
                if (cg_trace_enabled(v->dev)) {
                    cg_trace_event ev = {.kind = CG_TRACE_INTERRUPT, .family = CG_FAMILY_VC4,
                                         .unit = "qpu", .channel = (int)n, .reg = 1u << n,
                                         .value = g->dbqitc & g->dbqite};
                    cg_trace_emit(v->dev, &ev);
                }
            }
            if (s->ended) {
                end_program(g, n, true);
                progress = true;
                continue;
            }
            g->blocked[n] = false;
            if (g->insns[n] >= budget)
                hang(v, g, n, "user program did not end within its instruction budget");
        }
        if (timed_out) {
            g->timed_out = true;
            break;
        }
        if (!any && !g->qlen)
            break;
        if (!progress && !(g->qlen && dispatch(v, g)))
            break; /* every running QPU is blocked */
    }
    g->in_run = false;
    return rc;
}

static bool stop_all(cg_vc4 *v, vc4_gpgpu *g, const char *why)
{
    bool any = false;
    for (unsigned n = 0; n < VC4_NQPU; n++)
        if (g->busy[n]) {
            hang(v, g, n, why);
            any = true;
        }
    return any;
}

bool vc4_gpgpu_watchdog(cg_vc4 *v)
{
    return v->gp && stop_all(v, v->gp, "deadlock");
}

bool vc4_gpgpu_reg_read(cg_vc4 *v, uint32_t off, uint32_t *val)
{
    switch (off) {
    case CG_VC4_SQRSV0: case CG_VC4_SQRSV1: case CG_VC4_SQCNTL: case CG_VC4_SRQPC:
    case CG_VC4_SRQUA: case CG_VC4_SRQUL: case CG_VC4_SRQCS: case CG_VC4_DBQITE:
    case CG_VC4_DBQITC:
        break;
    default:
        return false;
    }
    /* Before any user-program state exists every one of these reads its
     * reset value, 0: a read makes no state (it allocated the 93 KB state,
     * and zeroed as much on the stack, on every register read). */
    const vc4_gpgpu *g = v->gp;
    if (!g) {
        *val = 0;
        return true;
    }
    switch (off) {
    case CG_VC4_SQRSV0: *val = g->sqrsv[0]; return true;
    case CG_VC4_SQRSV1: *val = g->sqrsv[1]; return true;
    case CG_VC4_SQCNTL: *val = g->sqcntl; return true;
    case CG_VC4_SRQPC: *val = 0; return true; /* write-only */
    case CG_VC4_SRQUA: *val = g->srqua; return true;
    case CG_VC4_SRQUL: *val = g->srqul; return true;
    case CG_VC4_SRQCS: *val = srqcs(g); return true;
    case CG_VC4_DBQITE: *val = g->dbqite; return true;
    case CG_VC4_DBQITC: *val = g->dbqitc; return true;
    default: return false;
    }
}

bool vc4_gpgpu_reg_write(cg_vc4 *v, uint32_t off, uint32_t val, int *rc)
{
    *rc = 0;
    switch (off) {
    case CG_VC4_SQRSV0:
    case CG_VC4_SQRSV1:
    case CG_VC4_SQCNTL:
    case CG_VC4_SRQPC:
    case CG_VC4_SRQUA:
    case CG_VC4_SRQUL:
    case CG_VC4_SRQCS:
    case CG_VC4_DBQITE:
    case CG_VC4_DBQITC: break;
    default: return false;
    }
    vc4_gpgpu *g = gp_get(v);
    if (!g) {
        *rc = CG_ERR_NOMEM;
        return true;
    }
    switch (off) {
    case CG_VC4_SQRSV0: g->sqrsv[0] = val; *rc = vc4_gpgpu_run(v); break;
    case CG_VC4_SQRSV1: g->sqrsv[1] = val & 0xFFFF; *rc = vc4_gpgpu_run(v); break;
    case CG_VC4_SQCNTL: g->sqcntl = val & 0xF; break;
    case CG_VC4_SRQUA: g->srqua = val; break;
    case CG_VC4_SRQUL: g->srqul = val & 0xFFF; break;
    case CG_VC4_SRQCS:
        if (val & VC4_SRQCS_QPURQERR)
            g->qerr = false;
        if (val & (1u << VC4_SRQCS_QPURQCM_SHIFT))
            g->made = 0;
        if (val & (1u << VC4_SRQCS_QPURQCC_SHIFT))
            g->done = 0;
        break;
    case CG_VC4_DBQITE: g->dbqite = val & ((1u << VC4_NQPU) - 1); break;
    case CG_VC4_DBQITC: g->dbqitc &= ~val; break;
    case CG_VC4_SRQPC:
        if (g->qlen == VC4_SRQ_DEPTH) {
            g->qerr = true;
            vc4_fault(v, NULL, CG_FAULT_BAD_STATE, val,
                      "SRQPC write 0x%08x: the user program request queue is full (%u "
                      "entries); request dropped, SRQCS error bit set",
                      val, VC4_SRQ_DEPTH);
            break;
        }
        g->queue[(g->qhead + g->qlen) % VC4_SRQ_DEPTH] =
            (vc4_srq_entry){.pc = val, .ua = g->srqua, .ul = g->srqul};
        g->qlen++;
        g->made++;
        *rc = vc4_gpgpu_run(v);
        break;
    }
    return true;
}

uint32_t vc4_gpgpu_exec_qpu(cg_vc4 *v, uint32_t num_qpus, uint32_t control, uint32_t noflush,
                            uint32_t timeout_ms)
{
    (void)noflush; /* the model's L2 and slice caches hold no data */
    cg_agent who = {.family = CG_FAMILY_VC4, .unit = "mailbox", .channel = 8,
                    .stream_addr = control};
    vc4_gpgpu *g = gp_get(v);
    if (!g)
        return 0x80000000u;
    if (!v->qpu_enabled) {
        cg_fault_post(v->dev, &who, CG_FAULT_BAD_STATE, control,
                      "execute QPU: the QPUs are not enabled (tag 0x30012 first); "
                      "the firmware times out");
        return 0x80000000u;
    }
    if (num_qpus == 0 || num_qpus > VC4_NQPU) {
        cg_fault_post(v->dev, &who, CG_FAULT_BAD_STATE, control,
                      "execute QPU: num_qpus %u is not 1..%u", num_qpus, VC4_NQPU);
        return 0x80000000u;
    }
    bool busy = g->qlen != 0;
    for (unsigned n = 0; n < VC4_NQPU; n++)
        busy |= g->busy[n];
    if (busy) {
        cg_fault_post(v->dev, &who, CG_FAULT_BAD_STATE, control,
                      "execute QPU: user programs from an earlier request still run");
        return 0x80000000u;
    }
    uint32_t pairs[2 * VC4_NQPU];
    if (cg_vas_read(v->bus, control, pairs, 8 * num_qpus, &who) != 0)
        return 0x80000000u;
    uint32_t done0 = g->done;
    uint64_t ints0 = g->stats.host_ints;
    for (unsigned i = 0; i < num_qpus; i++) {
        const uint8_t *b = (const uint8_t *)&pairs[2 * i];
        g->queue[(g->qhead + g->qlen) % VC4_SRQ_DEPTH] =
            (vc4_srq_entry){.ua = vc4_le32(b), .pc = vc4_le32(b + 4), .ul = 0};
        g->qlen++;
        g->made++;
    }
    /* The QPU clock is 250 MHz and a QPU issues one instruction (or stalls)
     * a cycle: the timeout is timeout_ms * 250000 steps of each QPU. */
    g->tick_limit = (uint64_t)(timeout_ms ? timeout_ms : 1) * 250000u;
    for (unsigned n = 0; n < VC4_NQPU; n++)
        g->ticks[n] = 0;
    g->timed_out = false;
    vc4_gpgpu_run(v);
    g->tick_limit = 0;
    uint32_t done = (uint8_t)(g->done - done0);
    uint64_t ints = g->stats.host_ints - ints0;
    /* The firmware's completion rule (docs/vc4-gpgpu.md, "Mailbox"): it
     * waits for a host interrupt, and the first one ends the wait. Broadcom's
     * hello_fft raises it from the master QPU only ("IRQ enable, master
     * only"), after a semaphore barrier on the others' work. Programs still
     * running then would go on running on the Pi; the model runs them until
     * they end or the timeout, and stops any left (a hang fault each) with
     * the answer still 0: the firmware saw its interrupt. */
    if (ints >= 1) {
        stop_all(v, g, g->timed_out ? "still running after execute QPU's interrupt and "
                                      "its timeout"
                                    : "deadlock after execute QPU's interrupt");
        g->qlen = 0;
        return 0;
    }
    char all[512];
    all_qpus(v, g, -1, all, sizeof all);
    cg_fault_post(v->dev, &who, CG_FAULT_HANG, control,
                  "execute QPU: timeout %u ms: %u of %u programs ended, %" PRIu64
                  " host interrupts; %s", timeout_ms, done, num_qpus, ints,
                  all[0] ? all : "no QPU runs");
    /* what is still running stops (the firmware resets the V3D) */
    stop_all(v, g, g->timed_out ? "execute QPU timeout" : "deadlock");
    g->qlen = 0;
    return 0x80000000u;
}

int cg_vc4_qpu_execute(cg_vc4 *v, uint32_t num_qpus, uint32_t control, uint32_t noflush,
                       uint32_t timeout_ms, uint32_t *status)
{
    if (!v || !status)
        return CG_ERR_INVAL;
    *status = vc4_gpgpu_exec_qpu(v, num_qpus, control, noflush, timeout_ms);
    return v->gp ? 0 : CG_ERR_NOMEM;
}

int cg_vc4_qpu_hold(cg_vc4 *v, bool hold)
{
    if (!v)
        return CG_ERR_INVAL;
    vc4_gpgpu *g = gp_get(v);
    if (!g)
        return CG_ERR_NOMEM;
    g->hold = hold;
    return hold ? 0 : vc4_gpgpu_run(v);
}

int cg_vc4_qpu_get(cg_vc4 *v, unsigned qpu, cg_vc4_qpu_info *out)
{
    if (!v || !out || qpu >= VC4_NQPU)
        return CG_ERR_INVAL;
    memset(out, 0, sizeof *out);
    vc4_gpgpu *g = v->gp;
    if (!g)
        return 0;
    out->busy = g->busy[qpu];
    out->blocked = g->blocked[qpu];
    out->reserved = reserved(g, qpu);
    out->pc = g->q[qpu].s.pc;
    out->code = g->code[qpu];
    out->unif = g->unif[qpu];
    out->insns = g->insns[qpu];
    out->host_ints = g->host_ints[qpu];
    out->host_int_value = g->host_int_val[qpu];
    if (g->busy[qpu] && g->blocked[qpu])
        wait_desc(v, g, qpu, out->wait, sizeof out->wait);
    return 0;
}

void cg_vc4_qpu_get_stats(const cg_vc4 *v, cg_vc4_qpu_stats *out)
{
    if (!out)
        return;
    memset(out, 0, sizeof *out);
    if (v && v->gp) {
        *out = v->gp->stats;
        for (int i = 0; i < 16; i++)
            out->sems[i] = v->gp->units.sems.count[i];
    }
}
