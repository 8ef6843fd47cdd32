/* vc4 QPU: the interpreter's entry points (qpu.h): state set-up, running a
 * program or a fragment batch through this host's vector level's kernels
 * (qpu_run.c, one build per level: src/core/simd.h), the decoded-program
 * cache's life. Compiled once. */
#include "qpu_int.h"

typedef int (*slice_fn)(vc4_qpu_state *s, uint64_t max, uint64_t *insns);
typedef bool (*frag_fn)(vc4_qpu_state *s, vc4_frag_batch *b, uint64_t budget);
static slice_fn slice_impl(void);
static frag_fn frag_impl(void);

vc4_qpu_cache *vc4_qpu_cache_create(void)
{
    vc4_qpu_cache *c = aligned_alloc(_Alignof(vc4_qpu_cache), sizeof *c);
    if (c) {
        memset(c, 0, sizeof *c);
        c->slice = slice_impl(); /* the level is decided once per process */
        c->frag = frag_impl();
    }
    return c;
}

void vc4_qpu_cache_destroy(vc4_qpu_cache *c)
{
    if (!c)
        return;
    for (int i = 0; i < CACHE_PROGS; i++) {
        free(c->prog[i].bytes);
        free(c->prog[i].d);
    }
    free(c);
}

/* Everything vc4_qpu_init sets besides zeroing the state. */
static void set_env(vc4_qpu_state *s, cg_device *dev, cg_vas *bus, const cg_agent *who,
                    uint32_t code_addr, uint32_t unif_addr, bool strict)
{
    s->dev = dev;
    s->bus = bus;
    s->agent.family = CG_FAMILY_VC4;
    s->agent.unit = "qpu";
    s->agent.channel = -1;
    if (who) {
        s->agent.family = who->family;
        s->agent.channel = who->channel;
    }
    s->pc = code_addr;
    s->unif = unif_addr;
    s->strict = strict;
    s->end_wait = -1;
    s->since_branch = 100;
    s->sems = &s->own_sems;
}

void vc4_qpu_init(vc4_qpu_state *s, cg_device *dev, cg_vas *bus, const cg_agent *who,
                  uint32_t code_addr, uint32_t unif_addr, bool strict)
{
    memset(s, 0, sizeof *s);
    set_env(s, dev, bus, who, code_addr, unif_addr, strict);
}

void vc4_qpu_set_units(vc4_qpu_state *s, vc4_v3d_units *units, uint32_t qpu_num)
{
    s->units = units;
    s->qpu_num = qpu_num;
    s->sems = units ? &units->sems : &s->own_sems;
}

int vc4_qpu_wait_text(const vc4_qpu_state *s, char *buf, size_t cap)
{
    switch (s->wait.kind) {
    case VC4_QPU_WAIT_SEM_ACQUIRE:
        return snprintf(buf, cap, "semaphore %u acquire (count 0)", s->wait.detail & 15);
    case VC4_QPU_WAIT_MUTEX:
        return snprintf(buf, cap, "mutex (held by QPU %u)", s->wait.detail);
    default:
        return snprintf(buf, cap, "nothing");
    }
}

/* vc4_qpu_init for a state that ran before: the same zeroed state, but only
 * the register rows the last run wrote are cleared (the register files and
 * accumulators are 4.4 KiB of the state's 4.6; they come first in it). A
 * run that never left the slice loop's fast path (s->slow clear) changed
 * only the fields below of the state's tail (SLICE_FN's locals written back
 * by SYNC_OUT, the flags of alu_fast, the agent, what set_env and
 * vc4_qpu_run_fragment_cached set, `ended` from a fault or the end):
 * those are cleared one by one instead of the whole tail. */
static void reinit(vc4_qpu_state *s, cg_device *dev, cg_vas *bus, const cg_agent *who,
                   uint32_t code_addr, uint32_t unif_addr, bool strict)
{
    /* (not ra15 and rb15: the fragment payload rows, written by FRAG_FN
     * for every run that may read them; a straight program that does
     * not read them leaves them unseen) */
    s->dirty[0] &= ~(1ull << 15 | 1ull << (32 + 15));
    for (int w = 0; w < 2; w++)
        for (uint64_t m = s->dirty[w]; m; m &= m - 1)
            memset(row_ptr(s, 64 * (unsigned)w + (unsigned)__builtin_ctzll(m)), 0,
                   sizeof s->ra[0]);
    if (s->slow) {
        memset(&s->zf, 0, sizeof *s - offsetof(vc4_qpu_state, zf));
    } else {
        s->zf = s->nf = s->cf = 0;
        s->executed = 0;
        s->ended = false;
        s->branch_wait = 0;
        s->branch_target = 0;
        s->prev_phys = 0;
        s->prev_acc = 0;
        memset(&s->agent, 0, sizeof s->agent);
        s->frag = NULL;
        s->prog = NULL;
        s->dirty[0] = s->dirty[1] = 0;
    }
    set_env(s, dev, bus, who, code_addr, unif_addr, strict);
}

void vc4_qpu_use_cache(vc4_qpu_state *s, vc4_qpu_cache *c)
{
    s->prog = c ? prog_for(c, s->bus, s->pc) : NULL;
}

/* ---- the entry points: one build per vector level (src/core/simd.h) ---- */

static slice_fn slice_impl(void)
{
#if CG_SIMD_HAVE_VARIANTS
    switch (cg__simd_level()) {
    case CG_SIMD_AVX512: return vc4__qpu_slice_avx512;
    case CG_SIMD_AVX2: return vc4__qpu_slice_avx2;
    default: break;
    }
#endif
    return vc4__qpu_slice_base;
}

static frag_fn frag_impl(void)
{
#if CG_SIMD_HAVE_VARIANTS
    switch (cg__simd_level()) {
    case CG_SIMD_AVX512: return vc4__qpu_frag_avx512;
    case CG_SIMD_AVX2: return vc4__qpu_frag_avx2;
    default: break;
    }
#endif
    return vc4__qpu_frag_base;
}

int vc4_qpu_step(vc4_qpu_state *s)
{
    uint64_t n;
    return vc4_qpu_run_slice(s, 1, &n); /* one instruction (or stall) */
}

int vc4_qpu_run_slice(vc4_qpu_state *s, uint64_t max, uint64_t *insns)
{
    return slice_impl()(s, max, insns);
}

/* vc4_qpu_run with the slice function of this level (fn) */
static int run_with(vc4_qpu_state *s, uint64_t budget, slice_fn fn)
{
    uint64_t start = s->executed;
    while (!s->ended) {
        if (s->executed - start >= budget) {
            cg_fault f;
            char what[96] = "";
            if (s->wait.kind != VC4_QPU_WAIT_NONE) {
                memcpy(what, "; waits on ", 11);
                vc4_qpu_wait_text(s, what + 11, sizeof what - 11);
            }
            cg_fault_init(&f, &s->agent, CG_FAULT_HANG, 0,
                          "budget %s: QPU program did not end within %llu instructions "
                          "(pc 0x%08x%s)", cg_budget_name(CG_BUDGET_VC4_QPU_INSNS),
                          (unsigned long long)budget, s->pc, what);
            f.stream_addr = s->pc;
            f.nwords = 0;
            cg_fault_raise(s->dev, &f);
            s->ended = true;
            return CG_ERR_FAULT;
        }
        uint64_t n;
        int rc = fn(s, budget - (s->executed - start), &n);
        if (rc == VC4_QPU_BLOCKED)
            continue; /* alone, nothing ends the wait: the budget will */
        if (rc)
            return rc;
    }
    return 0;
}

int vc4_qpu_run(vc4_qpu_state *s, uint64_t budget)
{
    return run_with(s, budget, slice_impl());
}

/* A fragment batch on s (set up for the batch's program): its start and
 * perhaps its whole run through the level's FRAG_FN (ffn), else the slices
 * (fn). */
static int frag_run(vc4_qpu_state *s, vc4_frag_batch *b, uint64_t budget, slice_fn fn,
                    frag_fn ffn)
{
    int rc = ffn(s, b, budget) ? 0 : run_with(s, budget, fn);
    b->host_int = s->host_int;
    return rc;
}

/* Without a cache: a state on the stack (kept out of the cached path, whose
 * frame it would make 5 KiB). */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static int run_fragment_stack(cg_device *dev, cg_vas *bus, const cg_agent *who,
                              uint32_t code_addr, uint32_t unif_addr, vc4_frag_batch *b,
                              uint64_t budget, bool strict)
{
    _Alignas(64) vc4_qpu_state st; /* rows on cache lines, as in a cache */
    vc4_qpu_init(&st, dev, bus, who, code_addr, unif_addr, strict);
    return frag_run(&st, b, budget, slice_impl(), frag_impl());
}

int vc4_qpu_run_fragment(cg_device *dev, cg_vas *bus, const cg_agent *who,
                         uint32_t code_addr, uint32_t unif_addr,
                         vc4_frag_batch *b, uint64_t budget, bool strict)
{
    return vc4_qpu_run_fragment_cached(NULL, dev, bus, who, code_addr, unif_addr, b, budget,
                                       strict);
}

int vc4_qpu_run_fragment_cached(vc4_qpu_cache *c, cg_device *dev, cg_vas *bus,
                                const cg_agent *who, uint32_t code_addr, uint32_t unif_addr,
                                vc4_frag_batch *b, uint64_t budget, bool strict)
{
    if (!dev || !bus || !b)
        return CG_ERR_INVAL;
    if (!c)
        return run_fragment_stack(dev, bus, who, code_addr, unif_addr, b, budget, strict);
    vc4_qpu_state *s = &c->st;
    if (c->st_ready)
        reinit(s, dev, bus, who, code_addr, unif_addr, strict);
    else
        vc4_qpu_init(s, dev, bus, who, code_addr, unif_addr, strict);
    c->st_ready = true;
    s->prog = prog_for(c, bus, code_addr);
    return frag_run(s, b, budget, c->slice, c->frag);
}

