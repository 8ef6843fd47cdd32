/* radeon family: the R600/R700 shader core, its control-flow program
 * (docs/radeon-sq.md): the CF instructions, the stack of active masks,
 * loops, calls, exports, the budget and the fault records. ALU clauses are
 * in sq_alu.c, fetch clauses in sq_fetch.c, the helpers they share (fault
 * records, the budget) in the leaf sq_util.c.
 *
 * Semantics: [R6ISA] AMD "R600-Family Instruction Set Architecture" and
 * [R7ISA] "R700-Family Instruction Set Architecture", chapter 3 (control
 * flow: the active mask, the stack, branches, loops, subroutines) and the CF
 * instruction descriptions; how Mesa's r600 compiler emits if/else/loops
 * (src/gallium/drivers/r600/r600_shader.c) as a check of the addressing. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "radeon/gpu/sq.h"

/* ---- the stack ---- */

static int push(rd_sq *s, size_t dw, uint8_t kind, rd_sq_mask active)
{
    if (s->sp >= s->nstack)
        return rd_sq_fault(s, CG_FAULT_DEPTH, dw, 2,
                           "stack overflow at dword %zu: %u entries in use", dw, s->sp);
    rd_sq_frame *f = &s->stack[s->sp++];
    memset(f, 0, sizeof *f);
    f->kind = kind;
    f->active = active;
    return 0;
}

/* Pop n PUSH entries: the active mask of the deepest one comes back
 * (less the lanes a loop or kill disabled). */
static int pop(rd_sq *s, size_t dw, unsigned n, const char *what)
{
    for (unsigned i = 0; i < n; i++) {
        if (s->sp == 0)
            return rd_sq_fault(s, CG_FAULT_BAD_STATE, dw, 2,
                               "stack underflow at dword %zu: %s pops %u, %u on the stack", dw,
                               what, n, i);
        if (s->stack[s->sp - 1].kind != SQF_PUSH)
            return rd_sq_fault(s, CG_FAULT_BAD_STATE, dw, 2,
                               "%s at dword %zu pops a %s entry", what, dw,
                               s->stack[s->sp - 1].kind == SQF_LOOP ? "loop" : "call");
        s->active = s->stack[--s->sp].active;
    }
    if (n)
        s->active &= ~rd_sq_disabled(s);
    return 0;
}

/* ELSE: the lanes that were active at the last push and are not now. */
static int do_else(rd_sq *s, size_t dw, const char *what)
{
    if (s->sp == 0 || s->stack[s->sp - 1].kind != SQF_PUSH)
        return rd_sq_fault(s, CG_FAULT_BAD_STATE, dw, 2,
                           "%s at dword %zu with no pushed mask on the stack", what, dw);
    s->active = s->stack[s->sp - 1].active & ~s->active & ~rd_sq_disabled(s);
    return 0;
}

/* The lanes that pass a CF instruction's COND: ACTIVE, FALSE, BOOL, NOT_BOOL. */
static rd_sq_mask cond(const rd_sq *s, uint32_t c, uint32_t cf_const)
{
    bool b = (s->env->bool_const >> (cf_const & 31)) & 1;
    switch (c) {
    case 0: return s->active;
    case 1: return 0;
    case 2: return b ? s->active : 0;
    default: return b ? 0 : s->active;
    }
}

static rd_sq_frame *inner_loop(rd_sq *s)
{
    for (unsigned i = s->sp; i-- > 0;)
        if (s->stack[i].kind == SQF_LOOP)
            return &s->stack[i];
    return NULL;
}

/* ---- exports ---- */

static int do_export(rd_sq *s, const r6_op *op, size_t dw, const uint32_t *w)
{
    r6_chip c = s->env->chip;
    uint32_t type = r6_get(c, w, R6F_EXP_W0_TYPE), base = r6_get(c, w, R6F_EXP_W0_ARRAY_BASE);
    uint32_t gpr = r6_get(c, w, R6F_EXP_W0_RW_GPR), burst = r6_get(c, w, R6F_EXP_W1_BURST_COUNT);
    uint32_t sel[4] = {r6_get(c, w, R6F_EXP_SWIZ_SEL_X), r6_get(c, w, R6F_EXP_SWIZ_SEL_Y),
                       r6_get(c, w, R6F_EXP_SWIZ_SEL_Z), r6_get(c, w, R6F_EXP_SWIZ_SEL_W)};
    static const char *const tn[4] = {"PIXEL", "POS", "PARAM", "type 3"};
    if (r6_get(c, w, R6F_EXP_W0_RW_REL) || r6_get(c, w, R6F_EXP_W0_ELEM_SIZE) ||
        r6_get(c, w, R6F_EXP_W0_INDEX_GPR))
        return rd_sq_fault(s, CG_FAULT_UNSUPPORTED, dw, 2,
                           "%s at dword %zu: relative or indexed exports are not supported yet",
                           op->name, dw);
    if (type == 3)
        return rd_sq_fault(s, CG_FAULT_BAD_STATE, dw, 2,
                           "%s at dword %zu: export type 3 is reserved", op->name, dw);
    for (uint32_t b = 0; b <= burst; b++) {
        uint32_t a = base + b, r = gpr + b;
        bool ok = type == RD_SQ_EXP_PIXEL ? a < 8 || a == 61
                  : type == RD_SQ_EXP_POS ? a >= 60 && a <= 63
                                          : a < 32;
        if (!ok)
            return rd_sq_fault(s, CG_FAULT_BAD_STATE, dw, 2,
                               "%s at dword %zu: no %s export target %u", op->name, dw, tn[type],
                               a);
        if (r >= s->ngpr)
            return rd_sq_fault(s, CG_FAULT_BAD_STATE, dw, 2,
                               "%s at dword %zu reads R%u, past the %u GPRs allocated",
                               op->name, dw, r, s->ngpr);
        for (int k = 0; k < 4; k++)
            if (sel[k] == 6)
                return rd_sq_fault(s, CG_FAULT_INVALID_OPCODE, dw, 2,
                                   "%s at dword %zu: swizzle 6 is reserved", op->name, dw);
        if (s->out->n == s->out->cap) {
            size_t nc = s->out->cap ? 2 * s->out->cap : 8;
            rd_sq_export *ne = realloc(s->out->e, nc * sizeof *ne);
            if (!ne)
                return rd_sq_fault(s, CG_FAULT_OUT_OF_MEMORY, dw, 2, "no host memory for exports");
            s->out->e = ne;
            s->out->cap = nc;
        }
        rd_sq_export *e = &s->out->e[s->out->n++];
        memset(e, 0, sizeof *e);
        e->type = (uint8_t)type;
        e->done = op == &r6_ops[R6OP_EXPORT_DONE];
        e->base = (uint16_t)a;
        /* VALID_PIXEL_MODE: the valid (not killed) lanes, else the active ones */
        e->lanes = r6_get(c, w, R6F_EXP_W1_VALID_PIXEL_MODE) ? s->w->live & ~s->killed : s->active;
        for (int k = 0; k < 4; k++) {
            if (sel[k] == 7)
                continue;
            e->comp |= (uint8_t)(1u << k);
            for (unsigned l = 0; l < RD_SQ_LANES; l++)
                e->v[l][k] = sel[k] < 4   ? s->w->gpr[r][sel[k]][l]
                             : sel[k] == 5 ? 0x3F800000u
                                           : 0;
        }
    }
    return 0;
}

/* ---- CF handlers, one per KIND: *pc is the CF index (8-byte units) of
 * the next instruction on entry and may be changed (a jump) ---- */

typedef struct cf_ctx {
    const r6_op *op;
    unsigned id;      /* r6_opid */
    size_t dw;        /* dword of the instruction */
    const uint32_t *w;
    size_t *pc;
} cf_ctx;

#define CFG(f) r6_get(s->env->chip, x->w, R6F_CF_W1_##f)

static int cf_nop(rd_sq *s, const cf_ctx *x)
{
    (void)s, (void)x;
    return 0;
}

static int cf_unsupported(rd_sq *s, const cf_ctx *x)
{
    return rd_sq_fault(s, CG_FAULT_UNSUPPORTED, x->dw, 2,
                       "%s at dword %zu is not supported yet", x->op->name, x->dw);
}

static int cf_alu(rd_sq *s, const cf_ctx *x)
{
    r6_chip c = s->env->chip;
    const uint32_t *w = x->w;
    if (x->id == R6OP_ALU_CONTINUE || x->id == R6OP_ALU_BREAK)
        return cf_unsupported(s, x);
    uint32_t mode[2] = {r6_get(c, w, R6F_CFA_W0_KCACHE_MODE0), r6_get(c, w, R6F_CFA_W1_KCACHE_MODE1)};
    uint32_t bank[2] = {r6_get(c, w, R6F_CFA_W0_KCACHE_BANK0), r6_get(c, w, R6F_CFA_W0_KCACHE_BANK1)};
    uint32_t addr[2] = {r6_get(c, w, R6F_CFA_W1_KCACHE_ADDR0), r6_get(c, w, R6F_CFA_W1_KCACHE_ADDR1)};
    for (int k = 0; k < 2; k++) {
        /* KCACHE_MODE: 0 none, 1 lock 16 constants, 2 lock 32, 3 the loop
         * index's line ([R6ISA] CF_ALU_WORD0; [MESA] r600_sq.h) */
        if (mode[k] == 3)
            return rd_sq_fault(s, CG_FAULT_UNSUPPORTED, x->dw, 2,
                               "%s at dword %zu: KCACHE_MODE%d 3 (loop index lock) is not "
                               "supported yet",
                               x->op->name, x->dw, k);
        s->kc_bank[k] = bank[k];
        s->kc_first[k] = addr[k] * 16;
        s->kc_n[k] = 16 * mode[k];
    }
    if (x->id == R6OP_ALU_PUSH_BEFORE) {
        int rc = push(s, x->dw, SQF_PUSH, s->active);
        if (rc)
            return rc;
    }
    int rc = rd_sq_alu_clause(s, x->dw, r6_get(c, w, R6F_CFA_W0_ADDR),
                              r6_get(c, w, R6F_CFA_W1_COUNT) + 1);
    if (rc)
        return rc;
    if (x->id == R6OP_ALU_POP_AFTER)
        return pop(s, x->dw, 1, x->op->name);
    if (x->id == R6OP_ALU_POP2_AFTER)
        return pop(s, x->dw, 2, x->op->name);
    if (x->id == R6OP_ALU_ELSE_AFTER)
        return do_else(s, x->dw, x->op->name);
    return 0;
}

static int cf_fetch(rd_sq *s, const cf_ctx *x)
{
    uint32_t count = CFG(COUNT) + 1;
    if (s->env->chip == R6_R700)
        count += CFG(COUNT_3) << 3;
    return rd_sq_fetch_clause(s, x->dw, x->op->kind == R6K_CLAUSE_TEX, x->w[0], count);
}

static int jump(rd_sq *s, const cf_ctx *x)
{
    int rc = pop(s, x->dw, CFG(POP_COUNT), x->op->name);
    *x->pc = x->w[0];
    return rc;
}

/* JUMP: if no lane passes COND, pop POP_COUNT and jump to ADDR. */
static int cf_jump(rd_sq *s, const cf_ctx *x)
{
    return cond(s, CFG(COND), CFG(CF_CONST)) ? 0 : jump(s, x);
}

/* PUSH: push the active mask; the lanes passing COND stay active; none: pop
 * POP_COUNT and jump. PUSH_ELSE is not modelled. */
static int cf_push(rd_sq *s, const cf_ctx *x)
{
    if (x->id == R6OP_PUSH_ELSE)
        return cf_unsupported(s, x);
    rd_sq_mask m = cond(s, CFG(COND), CFG(CF_CONST));
    int rc = push(s, x->dw, SQF_PUSH, s->active);
    if (rc)
        return rc;
    s->active = m;
    return m ? 0 : jump(s, x);
}

/* ELSE: the lanes active at the last push and not now; none: pop
 * POP_COUNT and jump to ADDR (Mesa's if/else: the ELSE pops the endif's
 * entry only when it jumps past the endif's POP). */
static int cf_else(rd_sq *s, const cf_ctx *x)
{
    int rc = do_else(s, x->dw, x->op->name);
    if (rc)
        return rc;
    return s->active ? 0 : jump(s, x);
}

/* POP pops POP_COUNT; POP_JUMP then jumps if no lane passes COND;
 * POP_PUSH then pushes. */
static int cf_pop(rd_sq *s, const cf_ctx *x)
{
    if (x->id == R6OP_POP_PUSH_ELSE)
        return cf_unsupported(s, x);
    int rc = pop(s, x->dw, CFG(POP_COUNT), x->op->name);
    if (rc)
        return rc;
    if (x->id == R6OP_POP_JUMP && !cond(s, CFG(COND), CFG(CF_CONST)))
        *x->pc = x->w[0];
    if (x->id == R6OP_POP_PUSH) {
        rd_sq_mask m = cond(s, CFG(COND), CFG(CF_CONST));
        if ((rc = push(s, x->dw, SQF_PUSH, s->active)))
            return rc;
        s->active = m;
    }
    return 0;
}

/* LOOP_START*: the loop constant CF_CONST (SQ_LOOP_CONST: count 11:0, init
 * 23:12, increment 31:24 signed); a zero count or no lane passing COND jumps
 * to ADDR (the CF after LOOP_END). LOOP_START_DX10 ignores the constant: it
 * runs until every lane breaks ([MESA] r600_shader.c tgsi_bgnloop). */
static int cf_loop_start(rd_sq *s, const cf_ctx *x)
{
    uint32_t k = s->env->loop_const[CFG(CF_CONST) & 31];
    rd_sq_mask m = cond(s, CFG(COND), CFG(CF_CONST));
    bool dx10 = x->id == R6OP_LOOP_START_DX10;
    uint32_t count = dx10 ? UINT32_MAX : (k & 0xFFF);
    if (count == 0 || m == 0) {
        *x->pc = x->w[0];
        return 0;
    }
    int rc = push(s, x->dw, SQF_LOOP, s->active);
    if (rc)
        return rc;
    rd_sq_frame *f = &s->stack[s->sp - 1];
    f->count = count;
    f->pc = (uint32_t)*x->pc;
    f->index = x->id == R6OP_LOOP_START ? (int32_t)((k >> 12) & 0xFFF) : 0;
    f->inc = x->id == R6OP_LOOP_START ? (int8_t)(k >> 24) : 0;
    s->loop_index = f->index;
    s->active = m;
    return 0;
}

static rd_sq_frame *need_loop(rd_sq *s, const cf_ctx *x, int *rc)
{
    rd_sq_frame *f = inner_loop(s);
    if (!f)
        *rc = rd_sq_fault(s, CG_FAULT_BAD_STATE, x->dw, 2, "%s at dword %zu outside a loop",
                          x->op->name, x->dw);
    return f;
}

/* LOOP_END: the continued lanes come back; if iterations are left and a
 * lane is active, jump to ADDR (the CF after LOOP_START), else leave the
 * loop with the mask it started with. Pushes left inside the loop are
 * dropped with it. */
static int cf_loop_end(rd_sq *s, const cf_ctx *x)
{
    int rc = 0;
    rd_sq_frame *f = need_loop(s, x, &rc);
    if (!f)
        return rc;
    s->sp = (unsigned)(f - s->stack) + 1;
    f->cont = 0;
    s->active = f->active & ~f->brk & ~s->killed;
    if (f->count != UINT32_MAX)
        f->count--;
    if (f->count && s->active) {
        f->index += f->inc;
        s->loop_index = f->index;
        *x->pc = x->w[0];
        return 0;
    }
    rd_sq_mask start = f->active;
    s->sp--;
    s->active = start & ~rd_sq_disabled(s);
    rd_sq_frame *o = inner_loop(s);
    s->loop_index = o ? o->index : 0;
    return 0;
}

/* LOOP_BREAK / LOOP_CONTINUE: the lanes passing COND leave the loop (until
 * LOOP_END, for CONTINUE); no lane of the loop left: jump to ADDR (the
 * LOOP_END). */
static int cf_loop_brk(rd_sq *s, const cf_ctx *x)
{
    int rc = 0;
    rd_sq_frame *f = need_loop(s, x, &rc);
    if (!f)
        return rc;
    rd_sq_mask m = cond(s, CFG(COND), CFG(CF_CONST));
    if (x->op->kind == R6K_LOOP_BREAK)
        f->brk |= m;
    else
        f->cont |= m;
    s->active &= ~m;
    /* jump only when no lane of the loop is left for this iteration: lanes
     * inactive in an if inside the loop still run after its POP (Mesa's
     * "if (c) break;" is ALU_PUSH_BEFORE, JUMP, LOOP_BREAK, POP) */
    if (!(f->active & ~f->brk & ~f->cont & ~s->killed))
        *x->pc = x->w[0];
    return 0;
}

/* CALL: if a lane passes COND, push the return address and jump to ADDR. */
static int cf_call(rd_sq *s, const cf_ctx *x)
{
    rd_sq_mask m = cond(s, CFG(COND), CFG(CF_CONST));
    if (!m)
        return 0;
    int rc = push(s, x->dw, SQF_CALL, s->active);
    if (rc)
        return rc;
    s->stack[s->sp - 1].pc = (uint32_t)*x->pc;
    s->active = m;
    *x->pc = x->w[0];
    return 0;
}

static int cf_return(rd_sq *s, const cf_ctx *x)
{
    if (s->sp == 0 || s->stack[s->sp - 1].kind != SQF_CALL)
        return rd_sq_fault(s, CG_FAULT_BAD_STATE, x->dw, 2,
                           "RETURN at dword %zu with no CALL on top of the stack", x->dw);
    rd_sq_frame *f = &s->stack[--s->sp];
    *x->pc = f->pc;
    s->active = f->active & ~rd_sq_disabled(s);
    return 0;
}

/* KILL: the lanes passing COND are killed for the rest of the program. */
static int cf_kill(rd_sq *s, const cf_ctx *x)
{
    s->killed |= cond(s, CFG(COND), CFG(CF_CONST));
    s->active &= ~s->killed;
    return 0;
}

static int cf_export(rd_sq *s, const cf_ctx *x)
{
    return do_export(s, x->op, x->dw, x->w);
}

/* The handler of each KIND a CF instruction can have; ALU, fetch kinds are
 * never CF instructions (the table says so: tests/test_radeon_sq.c). */
static int (*const cf_handler[R6_NKINDS])(rd_sq *, const cf_ctx *) = {
    [R6K_NOP] = cf_nop,
    [R6K_WAIT_ACK] = cf_nop,
    [R6K_CLAUSE_ALU] = cf_alu,
    [R6K_CLAUSE_TEX] = cf_fetch,
    [R6K_CLAUSE_VTX] = cf_fetch,
    [R6K_LOOP_START] = cf_loop_start,
    [R6K_LOOP_END] = cf_loop_end,
    [R6K_LOOP_CONTINUE] = cf_loop_brk,
    [R6K_LOOP_BREAK] = cf_loop_brk,
    [R6K_JUMP] = cf_jump,
    [R6K_PUSH] = cf_push,
    [R6K_ELSE] = cf_else,
    [R6K_POP] = cf_pop,
    [R6K_CALL] = cf_call,
    [R6K_CALL_FS] = cf_unsupported,
    [R6K_RETURN] = cf_return,
    [R6K_EMIT] = cf_unsupported,
    [R6K_KILL] = cf_kill,
    [R6K_MEM] = cf_unsupported,
    [R6K_EXPORT] = cf_export,
};

int rd_sq_run(const rd_sq_env *env, rd_sq_wave *w, rd_sq_out *out)
{
    rd_sq *s = calloc(1, sizeof *s);
    if (!s)
        return CG_ERR_NOMEM;
    s->env = env;
    s->w = w;
    s->out = out;
    r6_optable_init(&s->t, env->chip);
    s->agent.family = CG_FAMILY_RADEON;
    s->agent.unit = "sq";
    s->agent.channel = env->channel;
    s->ngpr = env->ngpr && env->ngpr <= 124 ? env->ngpr : 124;
    s->nstack = env->stack_entries && env->stack_entries <= 64 ? env->stack_entries : RD_SQ_STACK;
    s->budget = cg_device_budget(env->dev, CG_BUDGET_RADEON_SQ_INSNS);
    s->active = w->live;
    int rc = 0;
    size_t pc = 0;
    for (;;) {
        size_t dw = 2 * pc;
        if (pc >= env->ndw / 2) {
            rc = rd_sq_fault(s, CG_FAULT_BAD_LENGTH, dw, 0,
                             "the CF program runs past the end of the program (%zu dwords) "
                             "without END_OF_PROGRAM",
                             env->ndw);
            break;
        }
        const uint32_t *iw = env->code + dw;
        if ((rc = rd_sq_tick(s, dw, 2, "a CF instruction")))
            break;
        unsigned e = (iw[1] >> 29) & 1 ? s->t.cfa[(iw[1] >> 26) & 15] : s->t.cf[(iw[1] >> 23) & 127];
        const r6_op *op = e ? &r6_ops[e - 1] : NULL;
        if (!op || !r6_op_clean(op, env->chip, iw) || !cf_handler[op->kind]) {
            rc = rd_sq_fault(s, CG_FAULT_INVALID_OPCODE, dw, 2,
                             "%s CF instruction at dword %zu",
                             op && cf_handler[op->kind] ? "reserved bits set in the" : "undefined",
                             dw);
            break;
        }
        pc++;
        cf_ctx x = {op, e - 1, dw, iw, &pc};
        if ((rc = cf_handler[op->kind](s, &x)))
            break;
        bool eop = op->cls == R6_CLS_CF     ? r6_get(env->chip, iw, R6F_CF_W1_END_OF_PROGRAM)
                   : op->cls == R6_CLS_CF_EXP ? r6_get(env->chip, iw, R6F_EXP_W1_END_OF_PROGRAM)
                                              : false;
        if (eop)
            break;
    }
    out->killed |= s->killed;
    free(s);
    return rc;
}
