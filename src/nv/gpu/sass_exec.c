/* Maxwell warp interpreter: program predecoding (nv_sass_prog_build), the
 * dispatch table, the control instructions and the warp loop (nv_sass_run).
 * Every form runs through the handler sass.def's handler column names
 * (nv_x_<H>, in sass_exec_alu.c, sass_exec_mem.c, sass_exec_tex.c and here
 * for the CTRL ones); modifiers reach the handlers as field values in
 * xins.mod. Semantics and sources: docs/nv-sass-exec.md. */
#include <stdio.h>
#include <stdlib.h>
#include "nv/nv_internal.h"
#include "sass_exec_internal.h"

/* ---- the dispatch table -------------------------------------------------- */

/* A word that matches no form (or has reserved bits or values) has no
 * handler: it faults as unsupported, even when no lane runs it. */
static int nv_x_raw(xctx *c)
{
    return nv_xunsupported(c);
}

/* Every form's handler and kind, from sass.def's handler column. */
static const struct {
    nv_xhandler *fn;
    bool ctrl;
} form_handler[NV_SASS_COUNT] = {
#define LANE(h) {nv_x_##h, false}
#define CTRL(h) {nv_x_##h, true}
#define NV_SASS(id, mn, handler, value, mask, spec) handler,
#include "nv/tables/sass.def"
#undef LANE
#undef CTRL
};

/* ---- predecoding --------------------------------------------------------- */

static int32_t sext(uint64_t v, unsigned w)
{
    if (w == 0 || w >= 32)
        return (int32_t)(uint32_t)v;
    uint32_t m = 1u << (w - 1);
    return (int32_t)(((uint32_t)v ^ m) - m);
}

/* Operand field i of the decoded word as the handlers read it: immediates
 * expanded (20-bit float immediates are the top bits of the single,
 * signed ones sign-extended), constant-buffer offsets in bytes, the base
 * register of memory, LDC and attribute operands at 15:8. */
static void operand_of(const nv_sass_field *f, const nv_sass_insn *in, int i, uint64_t word,
                       xopnd *o)
{
    uint64_t v = in->fval[i];
    unsigned w = nv_sass_width(&f->bits);
    o->neg = in->fneg[i];
    o->abs = in->fabs[i];
    o->inv = in->finv[i];
    o->pnot = in->fpnot[i];
    switch (f->kind) {
    case NV_SASS_K_R: case NV_SASS_K_D:
        o->kind = XO_REG;
        o->reg = (uint8_t)v;
        break;
    case NV_SASS_K_P:
        o->kind = XO_PRED;
        o->reg = (uint8_t)v;
        break;
    case NV_SASS_K_I:
        o->kind = XO_IMM;
        o->val = (uint32_t)v;
        break;
    case NV_SASS_K_S:
        o->kind = XO_IMM;
        o->val = (uint32_t)sext(v, w);
        break;
    case NV_SASS_K_F:
        o->kind = XO_IMM;
        o->val = (uint32_t)(w == 20 ? v << 12 : v);
        break;
    case NV_SASS_K_G:
        o->kind = XO_IMM;
        o->val = (uint32_t)v;
        break;
    case NV_SASS_K_T:
        o->kind = XO_TARGET;
        o->off = sext(v, w);
        break;
    case NV_SASS_K_C:
        o->kind = XO_CB;
        o->bank = (uint8_t)in->fbank[i];
        o->val = (uint32_t)v * 4;
        break;
    case NV_SASS_K_X:
        o->kind = XO_CBX;
        o->bank = (uint8_t)in->fbank[i];
        o->reg = (uint8_t)(word >> 8);
        o->off = sext(v, w);
        break;
    case NV_SASS_K_M:
        o->kind = XO_MEM;
        o->reg = (uint8_t)(word >> 8);
        o->off = sext(v, w);
        break;
    case NV_SASS_K_A:
        o->kind = XO_ATTR;
        o->reg = (uint8_t)(word >> 8);
        o->val = f->bits.nseg ? (uint32_t)v : 0;
        break;
    case NV_SASS_K_Y:
        o->kind = XO_ATTR;
        o->reg = 255;
        o->val = (uint32_t)v;
        break;
    case NV_SASS_K_Q:
        o->kind = XO_SR;
        o->val = (uint32_t)v;
        break;
    default:
        break;
    }
}

/* Decode one word into the record the warp loop runs: its handler, guard,
 * every modifier as the value of its field (a flag 0/1, a fixed suffix
 * 1, an enumeration its index) and up to six operands in print order. */
static void predecode(uint64_t word, xins *x)
{
    nv_sass_insn in;
    nv_sass_layout l;
    memset(x, 0, sizeof *x);
    x->word = word;
    x->form = (int16_t)nv_sass_decode(word, &in, &l);
    if (x->form < 0) {
        x->fn = nv_x_raw;
        x->ctrl = true;
        return;
    }
    x->fn = form_handler[x->form].fn;
    x->ctrl = form_handler[x->form].ctrl;
    x->guard = in.guard_pred;
    x->gnot = in.guard_not;
    for (int i = 0; i < l.nfields; i++) {
        const nv_sass_field *f = &l.f[i];
        if (!f->operand)
            x->mod[f->mod] = f->kind == NV_SASS_K_FIXED ? 1 : (uint8_t)in.fval[i];
        else if (x->nop < 6)
            operand_of(f, &in, i, word, &x->o[x->nop++]);
    }
}

static int build_fault(nv_sass_fault *fault, cg_fault_kind kind, uint64_t start, uint64_t va,
                       const char *what)
{
    if (fault) {
        memset(fault, 0, sizeof *fault);
        fault->kind = kind;
        fault->va = va;
        fault->pc = va - start;
        snprintf(fault->msg, sizeof fault->msg, "shader program %s at 0x%llx", what,
                 (unsigned long long)va);
    }
    return CG_ERR_FAULT;
}

/* Read n bytes of program memory: 0, or the fault kind with the bad address. */
static cg_fault_kind prog_read(cg_vas *vas, const cg_agent *who, uint64_t va, void *dst,
                               size_t n, uint64_t *bad)
{
    cg_fault_kind k = cg_vas_check(vas, va, n, false, bad);
    if (k != CG_FAULT_NONE)
        return k;
    if (nv_mem_rw(vas, va, dst, n, false, who)) {
        *bad = va;
        return CG_FAULT_UNMAPPED;
    }
    return CG_FAULT_NONE;
}

/* What the program's statistics and the decode's end need from one more
 * instruction x at code word s: the registers it names, ALD.O, the
 * furthest branch target seen. true when decoding may stop: x is an
 * unconditional EXIT past every branch target so far. */
static bool note_insn(nv_sass_prog *p, const xins *x, uint64_t s, uint64_t *max_target)
{
    if (x->form < 0)
        p->info.unsupported++;
    /* every register an instruction names lies in Rn..Rn+3 of its
     * operands' (.128 accesses, four texture components) */
    for (int o = 0; o < x->nop; o++) {
        const xopnd *xo = &x->o[o];
        bool named = xo->kind == XO_REG || xo->kind == XO_MEM || xo->kind == XO_CBX ||
                     xo->kind == XO_ATTR;
        if (named && xo->reg != 255 && xo->reg + 4u > p->info.reg_limit)
            p->info.reg_limit = xo->reg + 4u > 255 ? 255 : xo->reg + 4u;
    }
    if (x->form == NV_SASS_ALD && XMOD(x, O))
        p->info.reads_outputs = true;
    for (int o = 0; o < x->nop; o++)
        if (x->o[o].kind == XO_TARGET) {
            int64_t t = (int64_t)(s + 1) * 8 + x->o[o].off;
            if (t > 0 && (uint64_t)t > *max_target)
                *max_target = (uint64_t)t;
        }
    return x->form == NV_SASS_EXIT && x->guard == 7 && !x->gnot &&
           XMOD(x, COND) == NV_SASS_CC_T && *max_target <= s * 8;
}

/* Decode the code after the SPH: until the region (or the cap of `words`)
 * ends, code becomes unreadable (p->end_fault_va; the instructions before
 * it are kept), or an unconditional EXIT lies beyond every branch target.
 * Code comes in bundles of a control word (statistics only) and three
 * instructions. 0, CG_ERR_NOMEM, or a fault when not even the first
 * instruction is readable. */
static int decode_code(nv_sass_prog *p, cg_vas *vas, const cg_agent *who, uint64_t words,
                       nv_sass_fault *fault)
{
    uint32_t cap = 256;
    p->ins = malloc(cap * sizeof *p->ins);
    if (!p->ins)
        return CG_ERR_NOMEM;
    uint64_t max_target = 0, chunk[64], bad;
    uint64_t s = 0;
    while (s < words) {
        size_t n = words - s < 64 ? (size_t)(words - s) : 64;
        cg_fault_kind k = prog_read(vas, who, p->code_va + s * 8, chunk, n * 8, &bad);
        if (k != CG_FAULT_NONE) {
            /* read word by word up to the bad one */
            size_t j = 0;
            for (; j < n; j++)
                if (prog_read(vas, who, p->code_va + (s + j) * 8, &chunk[j], 8, &bad) !=
                    CG_FAULT_NONE)
                    break;
            n = j;
            p->end_fault_va = bad;
            if (s + n <= 1) /* not even the first instruction */
                return build_fault(fault, k, p->start_va, bad, "code unreadable");
        }
        bool stop = false;
        for (size_t j = 0; j < n && !stop; j++, s++) {
            uint64_t w = chunk[j];
            if (s % 4 == 0) {
                nv_sass_sched sc[3];
                nv_sass_sched_decode(w, sc, NULL);
                p->info.sched_words++;
                for (int g = 0; g < 3; g++)
                    p->info.stall_cycles += sc[g].stall;
                continue;
            }
            if (p->n == cap) {
                cap *= 2;
                xins *ni = realloc(p->ins, cap * sizeof *ni);
                if (!ni)
                    return CG_ERR_NOMEM;
                p->ins = ni;
            }
            xins *x = &p->ins[p->n++];
            predecode(w, x);
            stop = note_insn(p, x, s, &max_target);
        }
        if (stop || p->end_fault_va)
            break;
    }
    return 0;
}

int nv_sass_prog_build(cg_vas *vas, const cg_agent *who, uint64_t region_va,
                       uint64_t region_size, uint64_t start_va, int stage,
                       nv_sass_prog **out, nv_sass_fault *fault)
{
    (void)stage;
    *out = NULL;
    uint64_t region_end = region_va + region_size;
    if (region_end < region_va)
        region_end = UINT64_MAX;
    if (start_va < region_va || start_va > region_end || region_end - start_va < 0x58)
        return build_fault(fault, CG_FAULT_ADDR_RANGE, start_va, start_va,
                           "does not fit in its region");
    uint8_t sph[0x50];
    uint64_t bad;
    cg_fault_kind k = prog_read(vas, who, start_va, sph, sizeof sph, &bad);
    if (k != CG_FAULT_NONE)
        return build_fault(fault, k, start_va, bad, "header unreadable");
    nv_sass_prog *p = calloc(1, sizeof *p);
    if (!p)
        return CG_ERR_NOMEM;
    nv_sph_decode(sph, sizeof sph, &p->sph);
    p->start_va = start_va;
    p->code_va = start_va + 0x50;
    p->region_va = region_va;
    p->region_size = region_size;
    uint64_t words = (region_end - p->code_va) / 8;
    uint64_t cap_words = (uint64_t)NV_SASS_MAX_INSNS / 3 * 4;
    if (words > cap_words)
        words = cap_words;
    int rc = decode_code(p, vas, who, words, fault);
    if (rc) {
        nv_sass_prog_free(p);
        return rc;
    }
    p->info.insns = p->n;
    *out = p;
    return 0;
}

void nv_sass_prog_free(nv_sass_prog *p)
{
    if (!p)
        return;
    free(p->ins);
    free(p);
}

const nv_sph *nv_sass_prog_sph(const nv_sass_prog *p)
{
    return &p->sph;
}

void nv_sass_prog_get_info(const nv_sass_prog *p, nv_sass_prog_info *out)
{
    *out = p->info;
}

/* ---- the control instructions ---------------------------------------------- */

/* Divergence (docs/nv-sass-exec.md "Running a warp"): one active mask and a
 * reconvergence stack. SSY and PBK push the point where the lanes meet
 * again; a branch that splits the lanes pushes the ones not taken; SYNC
 * and BRK park their lanes until the stack pops back to the SSY or PBK
 * entry; EXIT and KIL retire lanes. The CC-conditional forms (COND other
 * than always) are not modelled. */

/* Push a reconvergence entry: `mask` resumes at `pc` when popped. */
static int push(xctx *c, xflow *f, uint8_t type, uint32_t pc, uint32_t mask)
{
    if (f->sp == NV_SASS_STACK)
        return nv_xfault(c, CG_FAULT_DEPTH, 0,
                         "reconvergence stack overflow (%u entries) at 0x%llx", NV_SASS_STACK,
                         (unsigned long long)nv_xpc_bytes(c->pc));
    f->st[f->sp++] = (xstack){type, pc, mask};
    return 0;
}

/* Resolve a branch target to an instruction index. */
static int target_of(xctx *c, const xopnd *o, uint32_t *out)
{
    const nv_sass_prog *p = c->p;
    int64_t slot_next = (int64_t)(nv_xpc_bytes(c->pc) - 0x50) / 8 + 1;
    int64_t t = slot_next * 8 + o->off; /* byte offset from code start */
    uint64_t va = p->code_va + (uint64_t)t;
    if (t < 0 || va < p->region_va || va - p->region_va >= p->region_size || (t & 7))
        return nv_xfault(c, CG_FAULT_ADDR_RANGE, va,
                         "branch target 0x%llx outside the program region at 0x%llx",
                         (unsigned long long)va, (unsigned long long)nv_xpc_bytes(c->pc));
    int64_t slot = t / 8;
    if (slot % 4 == 0)
        slot++; /* a control word: the bundle's first instruction */
    int64_t idx = slot / 4 * 3 + slot % 4 - 1;
    if (idx >= (int64_t)p->n)
        return nv_xfault(c, CG_FAULT_ADDR_RANGE, va,
                         "branch target 0x%llx past the decoded program at 0x%llx",
                         (unsigned long long)va, (unsigned long long)nv_xpc_bytes(c->pc));
    *out = (uint32_t)idx;
    return 0;
}

/* The warp's instruction budget, checked at every branch-like instruction,
 * so a loop cannot run forever (HANG). */
static int budget_check(xctx *c)
{
    uint64_t b = c->env->budget ? c->env->budget : NV_SASS_DEFAULT_BUDGET;
    if (c->w->executed > b)
        return nv_xfault(c, CG_FAULT_HANG, 0,
                         "instruction budget of %llu ran out at pc 0x%llx",
                         (unsigned long long)b, (unsigned long long)nv_xpc_bytes(c->pc));
    return 0;
}

/* SSY and PBK: push the reconvergence point (the target) with the lanes
 * on the current path. They have no guard, so they always run. */
static int ssy_pbk(xctx *c, uint8_t type)
{
    uint32_t t;
    int r = target_of(c, &c->in->o[0], &t);
    return r ? r : push(c, c->f, type, t, c->f->amask);
}

int nv_x_SSY(xctx *c)
{
    return ssy_pbk(c, XS_SSY);
}

int nv_x_PBK(xctx *c)
{
    return ssy_pbk(c, XS_PBK);
}

/* BRA: the lanes whose guard holds branch; the others wait on the stack at
 * the next instruction. */
int nv_x_BRA(xctx *c)
{
    xflow *f = c->f;
    int r;
    if (XMOD(c->in, COND) != NV_SASS_CC_T)
        return nv_xunsupported(c);
    if ((r = budget_check(c)) != 0)
        return r;
    if (c->m == 0)
        return 0;
    uint32_t t;
    if ((r = target_of(c, &c->in->o[0], &t)) != 0)
        return r;
    if (c->m != f->amask && (r = push(c, f, XS_DIVERGE, f->pc, f->amask & ~c->m)) != 0)
        return r;
    f->amask = c->m;
    f->pc = t;
    return 0;
}

/* SYNC (to the innermost SSY) and BRK (to the innermost PBK, leaving every
 * loop entry above it too): the lanes leave the current path. */
static int sync_brk(xctx *c, uint8_t want)
{
    xflow *f = c->f;
    int r;
    if (XMOD(c->in, COND) != NV_SASS_CC_T)
        return nv_xunsupported(c);
    if ((r = budget_check(c)) != 0)
        return r;
    if (c->m == 0)
        return 0;
    int k = (int)f->sp - 1;
    while (k >= 0 && f->st[k].type != want)
        k--;
    if (k < 0)
        return nv_xfault(c, CG_FAULT_BAD_STATE, 0,
                         "%s with no %s on the reconvergence stack at 0x%llx",
                         want == XS_SSY ? "SYNC" : "BRK", want == XS_SSY ? "SSY" : "PBK",
                         (unsigned long long)nv_xpc_bytes(c->pc));
    if (want == XS_PBK)
        for (unsigned j = (unsigned)k + 1; j < f->sp; j++)
            f->st[j].mask &= ~c->m;
    f->amask &= ~c->m;
    return 0;
}

int nv_x_SYNC(xctx *c)
{
    return sync_brk(c, XS_SSY);
}

int nv_x_BRK(xctx *c)
{
    return sync_brk(c, XS_PBK);
}

/* EXIT ends its lanes, KIL discards them (fragment lanes: no output). */
int nv_x_EXIT(xctx *c)
{
    if (XMOD(c->in, COND) != NV_SASS_CC_T)
        return nv_xunsupported(c);
    c->w->exited |= c->m;
    c->f->amask &= ~c->m;
    return 0;
}

int nv_x_KIL(xctx *c)
{
    if (XMOD(c->in, COND) != NV_SASS_CC_T)
        return nv_xunsupported(c);
    c->w->killed |= c->m;
    c->f->amask &= ~c->m;
    return 0;
}

int nv_x_NOP(xctx *c)
{
    (void)c;
    return 0;
}

/* ---- the warp loop ------------------------------------------------------------ */

/* The next instruction to run: pops the stack while the current path has
 * no lane left. false when the warp is done. */
static bool next_path(xflow *f, const nv_sass_warp *w)
{
    uint32_t live = w->active & ~w->exited & ~w->killed;
    while (f->amask == 0) {
        if (f->sp == 0)
            return false;
        xstack *e = &f->st[--f->sp];
        f->amask = e->mask & live;
        f->pc = e->pc;
    }
    return true;
}

int nv_sass_run(const nv_sass_prog *p, const nv_sass_env *env, nv_sass_warp *w,
                nv_sass_fault *fault)
{
    xflow f;
    xctx c = {.p = p, .env = env, .w = w, .fault = fault, .f = &f};
    f.sp = 0;
    f.pc = 0;
    memset(w->r[255], 0, sizeof w->r[255]);
    w->p[7] = 0xffffffffu;
    f.amask = w->active & ~w->exited & ~w->killed;
    while (next_path(&f, w)) {
        c.pc = f.pc;
        c.in = NULL;
        if (f.pc >= p->n) {
            uint64_t va = p->code_va + (nv_xpc_bytes(f.pc) - 0x50);
            if (p->end_fault_va)
                return nv_xfault(&c, CG_FAULT_UNMAPPED, p->end_fault_va,
                                 "shader code unreadable at 0x%llx",
                                 (unsigned long long)p->end_fault_va);
            return nv_xfault(&c, CG_FAULT_ADDR_RANGE, va,
                             "ran past the end of the program region at 0x%llx",
                             (unsigned long long)nv_xpc_bytes(f.pc));
        }
        const xins *in = &p->ins[f.pc];
        c.in = in;
        w->executed++;
        uint32_t g = w->p[in->guard];
        if (in->gnot)
            g = ~g;
        c.m = f.amask & g;
        f.pc++;
        /* an instruction no lane runs has no effect, unless it is a
         * control instruction (sass.def CTRL), which acts on the warp */
        if (!c.m && !in->ctrl)
            continue;
        int r = in->fn(&c);
        if (r)
            return r;
    }
    return 0;
}
