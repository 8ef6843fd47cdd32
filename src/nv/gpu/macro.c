/* nv: the Maxwell macro engine (MME) interpreter and upload state.
 * Semantics: research/nv.md section 4; docs/nv-macro.md. */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "macro.h"

/* The interpreter runs predecoded instructions (nv_mme_insn): the fields
 * of each word are taken out once, when it is uploaded (nv_mme_method) or,
 * for nv_mme_run's plain arrays, before the run. Operation kinds, one per
 * ALU operation and one per other opcode, named after macro.def's rows. */
enum mme_kind {
#define NV_MME_ALU(id, value, mn) K_ALU_##id,
#include "nv/tables/macro.def"
#define NV_MME_OP(id, value, mn) K_OP_##id,
#include "nv/tables/macro.def"
    K_BAD_ALU, /* an ALU operation macro.def has no row for */
    K_BAD_OP,  /* an opcode macro.def has no row for */
    K_END,     /* past the last word: not an instruction */
    K_SLOW,    /* dispatch only: run by the general path (see decode) */
    K_ADDI_BRA, /* dispatch only: ADD_IMM.mov followed by a branch (segment) */
    K_ADDI_SEND, /* dispatch only: ADD_IMM.movm followed by ADD.movsend */
    K_MOV_A,   /* dispatch only: ALU ADD with srcB r0 (segment) */
    K_COUNT,
};
_Static_assert(K_COUNT * 8 <= 256, "an operation code fits nv_mme_insn.op");

#define F_EXIT 1u
#define F_BNZ 2u
#define F_ANNUL 4u
#define R_ZERO_SINK 8u /* register file entry that takes writes to r0 */

static inline uint32_t mask_of(uint32_t size)
{
    return size >= 32 ? 0xFFFFFFFFu : (1u << size) - 1u;
}

/* Decode the word w at PC pc of code whose PC wraps with pc_mask. */
static void decode(uint32_t w, uint32_t pc, uint32_t pc_mask, nv_mme_insn *d)
{
    uint32_t kind;
#define MME_KIND(value, k)                                                                       \
    case value:                                                                                  \
        kind = k;                                                                                \
        break;
    switch (NV_MME_F_OP(w)) {
#define NV_MME_OP(id, value, mn) MME_KIND(value, K_OP_##id)
#include "nv/tables/macro.def"
    default: kind = K_BAD_OP; break;
    }
    if (kind == K_OP_ALU) {
        switch (NV_MME_F_ALU(w)) {
#define NV_MME_ALU(id, value, mn) MME_KIND(value, K_ALU_##id)
#include "nv/tables/macro.def"
        default: kind = K_BAD_ALU; break;
        }
    }
#undef MME_KIND
    uint32_t dst = NV_MME_F_DST(w);
    d->kop = (uint8_t)(kind * 8 + NV_MME_F_RES(w));
    /* An instruction with its exit bit set ends the macro after a delay
     * slot: the general path runs it (once per call), so the hot loop never
     * tests the bit. segment() sends some branches there too. */
    d->op = NV_MME_F_EXIT(w) ? (uint8_t)(K_SLOW * 8) : d->kop;
    d->dst = (uint8_t)(dst ? dst : R_ZERO_SINK);
    d->a = (uint8_t)NV_MME_F_SRCA(w);
    d->b = (uint8_t)NV_MME_F_SRCB(w);
    d->bsrc = (uint8_t)NV_MME_F_BSRC(w);
    d->bdst = (uint8_t)NV_MME_F_BDST(w);
    d->flags = (uint8_t)((NV_MME_F_EXIT(w) ? F_EXIT : 0) | (NV_MME_F_BNZ(w) ? F_BNZ : 0) |
                         (NV_MME_F_BANNUL(w) ? F_ANNUL : 0));
    if (kind == K_OP_EXTRACT_INSERT || kind == K_OP_EXTRACT_SHL_IMM ||
        kind == K_OP_EXTRACT_SHL_REG)
        d->imm = mask_of(NV_MME_F_BSIZE(w));
    else if (kind == K_OP_BRANCH)
        d->imm = (pc + (uint32_t)nv_mme_imm(w)) & pc_mask; /* the target */
    else
        d->imm = (uint32_t)nv_mme_imm(w);
    d->seg = 0;
}

/* Segment lengths of d[0..n) (d[n] is the end marker): each instruction's
 * count of instructions through the next branch or the last word. Branches
 * the hot loop's branch handler cannot take as they are go to the general
 * path: the last word's (its delay slot is past the end or wraps) and
 * those whose target is past the end (nv_mme_run's plain arrays). */
static void segment(nv_mme_insn *d, size_t n)
{
    uint32_t len = 0;
    d[n].op = d[n].kop = K_END * 8;
    d[n].seg = 0;
    for (size_t i = n; i-- > 0;) {
        bool branch = d[i].kop >> 3 == K_OP_BRANCH;
        len = branch ? 1 : len + 1;
        d[i].seg = len;
        d[i].op = (d[i].flags & F_EXIT) ? (uint8_t)(K_SLOW * 8) : d[i].kop;
        if (branch && (i == n - 1 || d[i].imm >= n))
            d[i].op = K_SLOW * 8;
        /* the loop counter idiom `addi.mov rN, rN, -1; bra rN`: an
         * ADD_IMM.mov whose next word is a branch the hot loop runs goes
         * straight on to that branch's handler, with no dispatch between
         * (d[i + 1].op is final: the loop runs backwards) */
        if (d[i].op == K_OP_ADD_IMM * 8 + NV_MME_RES_MOV && i + 1 < n &&
            d[i + 1].op >> 3 == K_OP_BRANCH)
            d[i].op = (uint8_t)(K_ADDI_BRA * 8 + (d[i + 1].op & 3));
        /* `add rD, rA, r0`, the move idiom: the result is rA and the carry
         * 0 (nothing to add) */
        if (d[i].op >> 3 == K_ALU_ADD && d[i].b == 0)
            d[i].op = (uint8_t)(K_MOV_A * 8 + (d[i].op & 7));
        /* and `addi.movm r0, r0, METHOD; add.movsend r0, rN, rM`: set the
         * method, send (code 0: a general ADD, 1: a move) */
        if (d[i].op == K_OP_ADD_IMM * 8 + NV_MME_RES_MOVM && i + 1 < n &&
            (d[i + 1].op == K_ALU_ADD * 8 + NV_MME_RES_MOV_SEND ||
             d[i + 1].op == K_MOV_A * 8 + NV_MME_RES_MOV_SEND))
            d[i].op = (uint8_t)(K_ADDI_SEND * 8 + (d[i + 1].op >> 3 == K_MOV_A));
    }
}

/* The machine state the hot loop works on. */
typedef struct mme_core {
    uint32_t carry, maddr, minc;
    const uint32_t *par;
    size_t np, pi;
    void *user;
    int (*send)(void *user, uint32_t method, uint32_t value);
    int (*read)(void *user, uint32_t method, uint32_t *value);
    uint64_t sends;
    int io_rc;
} mme_core;

/* What one instruction did. */
enum { ST_OK, ST_EXIT, ST_BRANCH, ST_END, ST_HANG, ST_FEW, ST_BAD_ALU, ST_BAD_OP, ST_IO };

#if defined(__GNUC__)
#define MME_INLINE static inline __attribute__((always_inline))
#else
#define MME_INLINE static inline
#endif

/* The send of a call without io (c->send is never NULL). */
static int send_nowhere(void *user, uint32_t method, uint32_t value)
{
    (void)user, (void)method, (void)value;
    return 0;
}

MME_INLINE int mme_send(mme_core *c, uint32_t v)
{
    /* the send counts and the method address advances whatever the send
     * returns; the callback sees neither, so both happen first (nothing
     * to keep across the call) */
    uint32_t m = c->maddr;
    c->maddr = (m + c->minc) & 0xFFFu; /* 12-bit method index wraps */
    c->sends++;
    int rc = c->send(c->user, m, v);
    if (__builtin_expect(rc != 0, 0)) {
        c->io_rc = rc;
        return ST_IO;
    }
    return ST_OK;
}

MME_INLINE void mme_setm(mme_core *c, uint32_t v)
{
    c->maddr = NV_MME_MADDR(v);
    c->minc = NV_MME_MINC(v);
}

/* The operation of an instruction of kind `kind` (an ALU operation,
 * ADD_IMM, the bitfield operations, READ): its result in *res. ST_OK, or
 * ST_IO when READ's callback failed. */
MME_INLINE int mme_op(mme_core *c, const uint32_t *r, const nv_mme_insn *ip, int kind,
                      uint32_t *res)
{
    uint32_t a = r[ip->a], b = r[ip->b];
    uint64_t wide;
    switch (kind) {
    case K_ALU_ADD:
        wide = (uint64_t)a + b;
        *res = (uint32_t)wide;
        c->carry = (uint32_t)(wide >> 32);
        break;
    case K_MOV_A: /* K_ALU_ADD with b = r0 = 0 */
        *res = a;
        c->carry = 0;
        break;
    case K_ALU_ADC:
        wide = (uint64_t)a + b + c->carry;
        *res = (uint32_t)wide;
        c->carry = (uint32_t)(wide >> 32);
        break;
    /* Carry after SUB is a borrow: carry = 1 when a < b, and SBB computes
     * a - b - carry. Mesa's simulator (src/nouveau/mme/mme_fermi_sim.c,
     * ALU_OP_SUB/SUBB), checked against hardware by its
     * mme_fermi_sim_hw_test.cpp `subb` case (a 64-bit subtraction whose
     * low half borrows); yuzu and Ryujinx use no-borrow instead. */
    case K_ALU_SUB:
        *res = a - b;
        c->carry = a < b;
        break;
    case K_ALU_SBB:
        *res = a - b - c->carry;
        c->carry = (uint64_t)a < (uint64_t)b + c->carry;
        break;
    case K_ALU_XOR: *res = a ^ b; break;
    case K_ALU_OR: *res = a | b; break;
    case K_ALU_AND: *res = a & b; break;
    case K_ALU_ANDN: *res = a & ~b; break;
    case K_ALU_NAND: *res = ~(a & b); break;
    case K_OP_ADD_IMM: /* does not touch the carry (Mesa hw test add_imm_carry) */
        *res = a + ip->imm;
        break;
    /* ((v >> src) & mask) << dst, 0 for shifts of 32 or more (Mesa
     * mme_fermi_sim.c eval_bfe_lsl: shift counts above 31 give 0); the
     * fields of a word are below 32, only register shifts can reach it. */
    case K_OP_EXTRACT_INSERT:
        *res = (a & ~(ip->imm << ip->bdst)) | ((b >> ip->bsrc) & ip->imm) << ip->bdst;
        break;
    case K_OP_EXTRACT_SHL_IMM:
        *res = a > 31 ? 0 : ((b >> a) & ip->imm) << ip->bdst;
        break;
    case K_OP_EXTRACT_SHL_REG:
        *res = a > 31 ? 0 : ((b >> ip->bsrc) & ip->imm) << a;
        break;
    case K_OP_READ:
        *res = 0;
        if (c->read && (c->io_rc = c->read(c->user, (a + ip->imm) & 0xFFFu, res)) != 0)
            return ST_IO;
        break;
    default: return ST_END; /* not reached: mme_step gives only operations */
    }
    return ST_OK;
}

/* The result operation `rop` (macro.def's NV_MME_RES rows) with the
 * operation's result res: what goes to the destination register (res or
 * the next parameter), whether the method address register is set from
 * res, and what is sent (res, the next parameter, or res's bits 17:12). */
MME_INLINE int mme_result(mme_core *c, uint32_t *r, const nv_mme_insn *ip, int rop,
                          uint32_t res)
{
    uint32_t p;
    int st = ST_OK;
    switch (rop) {
    case NV_MME_RES_FETCH:
        if (c->pi >= c->np)
            return ST_FEW;
        r[ip->dst] = c->par[c->pi++];
        break;
    case NV_MME_RES_MOV: r[ip->dst] = res; break;
    case NV_MME_RES_MOVM:
        r[ip->dst] = res;
        mme_setm(c, res);
        break;
    case NV_MME_RES_FETCH_SEND:
        if (c->pi >= c->np)
            return ST_FEW;
        r[ip->dst] = c->par[c->pi++];
        st = mme_send(c, res);
        break;
    case NV_MME_RES_MOV_SEND:
        r[ip->dst] = res;
        st = mme_send(c, res);
        break;
    case NV_MME_RES_FETCHM:
        if (c->pi >= c->np)
            return ST_FEW;
        r[ip->dst] = c->par[c->pi++];
        mme_setm(c, res);
        break;
    case NV_MME_RES_MOVM_SENDP:
        r[ip->dst] = res;
        mme_setm(c, res);
        if (c->pi >= c->np)
            return ST_FEW;
        p = c->par[c->pi++];
        st = mme_send(c, p);
        break;
    default: /* NV_MME_RES_MOVM_SENDHI */
        r[ip->dst] = res;
        mme_setm(c, res);
        st = mme_send(c, (res >> 12) & 0x3Fu);
        break;
    }
    return st;
}

/* Run one instruction of operation kind `kind` and result operation `rop`
 * (an operation, not a branch). Returns ST_OK or why it stopped; its exit
 * bit is the caller's. Called with constants by run's handlers and by
 * mme_step, so each (kind, rop) pair gets its own straight code. */
MME_INLINE int mme_exec(mme_core *c, uint32_t *r, const nv_mme_insn *ip, int kind, int rop)
{
    uint32_t res;
    int st = mme_op(c, r, ip, kind, &res);
    if (st != ST_OK)
        return st;
    return mme_result(c, r, ip, rop, res);
}

/* Run one instruction of any kind (kop, not op), for the general path:
 * returns ST_OK, ST_EXIT (its exit bit is set), ST_BRANCH for a branch
 * (which the caller takes), or why it stopped. One switch over every
 * (kind, result operation) pair of macro.def's rows; out of line, so the
 * hot loop in run() stays small. */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static int mme_step(mme_core *c, uint32_t *r, const nv_mme_insn *ip)
{
    int st;
#define MME_CASE(k, rop)                                                                         \
    case (k) * 8 + (rop): st = mme_exec(c, r, ip, k, rop); break;
#define MME_CASES(k)                                                                             \
    MME_CASE(k, 0) MME_CASE(k, 1) MME_CASE(k, 2) MME_CASE(k, 3) MME_CASE(k, 4) MME_CASE(k, 5) \
        MME_CASE(k, 6) MME_CASE(k, 7)
    switch ((unsigned)ip->kop) {
#define NV_MME_ALU(id, value, mn) MME_CASES(K_ALU_##id)
#include "nv/tables/macro.def"
    /* the opcodes; ALU's (its rows are above) and BRANCH's (below) are
     * moved out of the range of op and never match */
#define NV_MME_OP(id, value, mn)                                                                 \
    MME_CASES(K_OP_##id + (value == NV_MME_OP_ALU || value == NV_MME_OP_BRANCH ? 64 : 0))
#include "nv/tables/macro.def"
    default:
        switch (ip->kop >> 3) {
        case K_OP_BRANCH: return ST_BRANCH;
        case K_BAD_ALU: return ST_BAD_ALU;
        case K_BAD_OP: return ST_BAD_OP;
        default: return ST_END;
        }
    }
#undef MME_CASES
#undef MME_CASE
    return st ? st : (int)(ip->flags & F_EXIT);
}

/* Where faults go and what they name; the agent is made only when one is
 * posted. */
typedef struct mme_where {
    cg_device *dev;
    const cg_agent *who;
    int32_t macro; /* -1: unknown */
} mme_where;

static int mme_fault(mme_where *f, uint32_t pc, uint32_t w, cg_fault_kind kind, const char *fmt,
                     ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;
static int mme_fault(mme_where *f, uint32_t pc, uint32_t w, cg_fault_kind kind, const char *fmt,
                     ...)
{
    char msg[CG_FAULT_MSG_LEN];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    cg_agent ag;
    if (f->who)
        ag = *f->who;
    else {
        memset(&ag, 0, sizeof ag);
        ag.channel = -1;
    }
    ag.family = CG_FAMILY_NV;
    ag.unit = "mme";
    ag.words[0] = w;
    if (f->macro >= 0 && f->who && f->who->stream_addr != 0) {
        /* an executor's call: its stream address stays, the PC goes in words[1] */
        ag.words[1] = pc;
        ag.nwords = 2;
    } else {
        ag.stream_addr = pc;
        ag.nwords = 1;
    }
    if (f->macro >= 0)
        return cg_fault_post(f->dev, &ag, kind, 0, "macro %d pc 0x%x: %s", f->macro, pc, msg);
    return cg_fault_post(f->dev, &ag, kind, 0, "pc 0x%x: %s", pc, msg);
}

/* The fault (or io error) behind a step status at pc. */
static int step_fault(mme_where *f, int st, int io_rc, size_t np, size_t n, uint32_t pc,
                      uint32_t w, uint64_t budget)
{
    switch (st) {
    case ST_IO: return io_rc;
    case ST_FEW:
        return mme_fault(f, pc, w, CG_FAULT_BAD_LENGTH,
                         "too few parameters: parm past the %zu given (TOO_FEW_PARAMS)", np);
    case ST_BAD_ALU:
        return mme_fault(f, pc, w, CG_FAULT_INVALID_OPCODE, "illegal ALU operation %u",
                         NV_MME_F_ALU(w));
    case ST_BAD_OP:
        return mme_fault(f, pc, w, CG_FAULT_INVALID_OPCODE, "illegal opcode %u (ILLEGAL_OPCODE)",
                         NV_MME_F_OP(w));
    case ST_BRANCH:
        return mme_fault(f, pc, w, CG_FAULT_BAD_STATE, "branch in a delay slot (DOUBLE_BRANCH)");
    case ST_HANG:
        return mme_fault(f, pc, w, CG_FAULT_HANG,
                         "budget %s: instruction budget of %llu ran out (watchdog TIMEOUT)",
                         cg_budget_name(CG_BUDGET_NV_MACRO_INSNS), (unsigned long long)budget);
    default: /* ST_END */
        return mme_fault(f, pc, 0, CG_FAULT_BAD_LENGTH, "PC past the %zu code words", n);
    }
}

/* May the instruction at pc run? The budget is checked first. */
MME_INLINE int mme_enter(uint64_t steps, uint64_t budget, uint32_t pc, size_t n)
{
    if (steps >= budget)
        return ST_HANG;
    return pc >= n ? ST_END : ST_OK;
}

/* The machine at the start of a call: R1 = params[0], the rest for
 * `fetch`; sends go to io (nowhere without one). */
MME_INLINE void core_init(mme_core *c, uint32_t r[9], const uint32_t *params, size_t nparams,
                      const nv_mme_io *io)
{
    memset(c, 0, sizeof *c);
    c->par = params;
    c->np = params ? nparams : 0;
    c->send = send_nowhere;
    if (io) {
        c->user = io->user;
        if (io->send)
            c->send = io->send;
        c->read = io->read;
    }
    if (c->np) {
        r[1] = c->par[0];
        c->pi = 1;
    }
}

/* A segment the budget does not cover: run it one instruction at a time
 * as far as the budget goes (ST_HANG there). Returns where it stopped,
 * with the status in *st and the steps counted. */
static const nv_mme_insn *run_checked(mme_core *c, uint32_t *r, const nv_mme_insn *ip,
                                      uint64_t budget, uint64_t *steps, int *st)
{
    const nv_mme_insn *first = ip, *stop_at = ip + (budget - *steps);
    for (;; ip++) {
        if (ip == stop_at) {
            *st = ST_HANG;
            break;
        }
        if ((*st = mme_step(c, r, ip)) != ST_OK)
            break;
    }
    *steps += (uint64_t)(ip - first) + (*st != ST_END && *st != ST_HANG);
    return ip;
}

/* The end of a call at pc `last` with status st: its fault (or the io
 * error), or TOO_MANY_PARAMS when parameters are left; the machine state
 * into *out. Inline: every call ends here. */
MME_INLINE int finish(const mme_core *c, const uint32_t *r, mme_where *f, int st,
                      const uint32_t *code, size_t n, uint32_t last, uint64_t steps,
                      uint64_t budget, nv_mme_result *out)
{
    int rc = 0;
    if (st != ST_OK)
        rc = step_fault(f, st, c->io_rc, c->np, n, last,
                        st == ST_END ? 0 : last < n ? code[last] : 0, budget);
    if (rc == 0 && c->pi < c->np)
        rc = mme_fault(f, last, code[last], CG_FAULT_BAD_LENGTH,
                       "too many parameters: %zu of %zu left unread at exit (TOO_MANY_PARAMS)",
                       c->np - c->pi, c->np);
    if (out) {
        memcpy(out->regs, r, sizeof out->regs);
        out->carry = c->carry;
        out->maddr = c->maddr;
        out->minc = c->minc;
        out->pc = last;
        out->steps = steps;
        out->sends = c->sends;
        out->params_used = c->pi;
    }
    return rc;
}

/* Run predecoded code d[0..n) (d[n] the end marker, code[] the words, for
 * fault records) from `start`. The budget is checked where a segment starts
 * (the start, a branch target, the instruction after the last word) and
 * before a delay slot: a segment runs unchecked when it fits in what is
 * left, else only as far as the budget goes. Delay slots: after a taken,
 * non-annulled branch the next instruction runs, then the PC becomes the
 * target; after an exit the next instruction runs, then the macro ends. A
 * delay slot of either kind may not branch, and its own exit bit is
 * ignored.
 *
 * Two paths run this. The hot loop dispatches on op through a table of
 * label addresses (GCC and Clang's labels as values), one indirect jump per
 * instruction, with no test per instruction beyond what the operation
 * itself needs: each operation's handler ends by going to `nx`, the next
 * instruction, or after a delay slot the branch target; the branch handler
 * counts the segment's instructions, checks the budget for the delay slot
 * and the target's segment, and runs the delay slot through a second table
 * (in which a branch is a fault). Everything else -- an exit bit, a
 * segment the budget does not cover, the end of the code, branches that
 * segment() marks -- goes to the general path below `general:`, which runs
 * one instruction at a time through mme_step and goes back to the hot loop
 * at the next segment.
 *
 * Why one long function: the handlers are labels and the two dispatch
 * tables hold their addresses, and a label's address can only be taken
 * and jumped to inside the function that has it; the tables are stamped
 * from macro.def row by row, and the handlers are one macro per (kind,
 * result) pair. What needs no label is outside: core_init, run_checked,
 * finish, mme_exec (mme_op, mme_result) and mme_step. */
/* Where the hot loop and the dispatch targets fall against cache lines
 * moved the macro bench by 10% (the same code measured 2.9x and 3.2x of C
 * at different addresses in different links): the function starts on a
 * cache line and, with GCC, its jump targets on 16 bytes, so the figure no
 * longer depends on what else is linked. */
#if defined(__GNUC__) && !defined(__clang__)
__attribute__((aligned(64), optimize("align-labels=16")))
#elif defined(__GNUC__)
__attribute__((aligned(64)))
#endif
static int run(const nv_mme_insn *d, const uint32_t *code, size_t n, uint32_t start,
               const uint32_t *params, size_t nparams, const nv_mme_io *io, uint64_t budget,
               const cg_agent *who, cg_device *dev, int32_t macro, uint32_t pc_mask,
               nv_mme_result *out)
{
    /* The tables: every (kind, result operation) of an operation has its
     * own handler, H_<kind>_<rop>; branches have one per (annul, bnz). */
#define MME_ROW(k, l0, l1, l2, l3, l4, l5, l6, l7)                                            \
    [(k) * 8 + 0] = &&l0, [(k) * 8 + 1] = &&l1, [(k) * 8 + 2] = &&l2, [(k) * 8 + 3] = &&l3,     \
    [(k) * 8 + 4] = &&l4, [(k) * 8 + 5] = &&l5, [(k) * 8 + 6] = &&l6, [(k) * 8 + 7] = &&l7,
#define MME_OPS(k) MME_ROW(k, H_##k##_0, H_##k##_1, H_##k##_2, H_##k##_3, H_##k##_4, H_##k##_5, \
                           H_##k##_6, H_##k##_7)
#define MME_SAME(k, l) MME_ROW(k, l, l, l, l, l, l, l, l)
#define MME_COMMON                                                                              \
    MME_OPS(K_OP_ADD_IMM) MME_OPS(K_OP_EXTRACT_INSERT) MME_OPS(K_OP_EXTRACT_SHL_IMM)            \
    MME_OPS(K_OP_EXTRACT_SHL_REG) MME_OPS(K_OP_READ) MME_SAME(K_OP_ALU, H_END)                 \
    MME_SAME(K_BAD_ALU, H_BAD_ALU) MME_SAME(K_BAD_OP, H_BAD_OP)
    /* macro.def's opcodes: ALU and BRANCH have their rows here, the other
     * five are named in MME_COMMON (a new opcode needs its row there) */
    _Static_assert(K_OP_BRANCH - K_OP_ALU == 6 && K_BAD_ALU == K_OP_BRANCH + 1,
                   "macro.def's opcodes are the ones run() has handlers for");
    static const void *const hot[K_COUNT * 8] = {
#define NV_MME_ALU(id, value, mn) MME_OPS(K_ALU_##id)
#include "nv/tables/macro.def"
        MME_COMMON
        MME_ROW(K_OP_BRANCH, H_BRA_00, H_BRA_01, H_BRA_10, H_BRA_11, H_BRA_00, H_BRA_01,
                H_BRA_10, H_BRA_11)
        MME_SAME(K_END, H_END) MME_SAME(K_SLOW, H_SLOW)
        MME_ROW(K_ADDI_BRA, H_ADDI_BRA_00, H_ADDI_BRA_01, H_ADDI_BRA_10, H_ADDI_BRA_11,
                H_ADDI_BRA_00, H_ADDI_BRA_01, H_ADDI_BRA_10, H_ADDI_BRA_11)
        MME_ROW(K_ADDI_SEND, H_ADDI_SEND, H_ADDI_SENDA, H_END, H_END, H_END, H_END, H_END,
                H_END) /* codes 2-7 are never made */
        MME_OPS(K_MOV_A)
    };
    /* the same for a delay slot */
    static const void *const slot[K_COUNT * 8] = {
#define NV_MME_ALU(id, value, mn) MME_OPS(K_ALU_##id)
#include "nv/tables/macro.def"
        MME_COMMON
        MME_SAME(K_OP_BRANCH, H_SLOT_BRANCH)
        MME_SAME(K_END, H_SLOT_SLOW) MME_SAME(K_SLOW, H_SLOT_SLOW)
        MME_SAME(K_ADDI_BRA, H_K_OP_ADD_IMM_1) /* a delay slot goes to the target */
        MME_SAME(K_ADDI_SEND, H_K_OP_ADD_IMM_2)
        MME_OPS(K_MOV_A)
    };
#undef MME_COMMON
#undef MME_SAME
#undef MME_OPS
#undef MME_ROW

    mme_core c;
    uint32_t r[9] = {0}; /* r[R_ZERO_SINK] takes writes to r0 */
    core_init(&c, r, params, nparams, io);
    mme_where f = {dev, who, macro};
    uint32_t pc = start & pc_mask, last = pc, slot_pc = 0, target = 0;
    uint64_t steps = 0;
    int st = ST_OK;
    bool ending = false;
    /* ip: the instruction running; nx: where to go after it. The hot loop
     * counts no steps: a segment is charged whole (through its branch) when
     * it starts, and a delay slot with the target's segment when the branch
     * is taken; fuel is the budget left after what was charged. Where the
     * hot loop stops, what was charged but not run is the rest of the
     * segment, which the seg of the instruction it would have run next
     * says (nx->seg; ip->seg - 1 for an instruction that counts). */
    const nv_mme_insn *ip, *nx;
    uint64_t fuel = 0;

segment: /* a segment starts at pc, outside any delay slot */
    last = pc;
    if ((st = mme_enter(steps, budget, pc, n)) != ST_OK)
        goto stop;
    ip = d + pc;
    if (ip->seg > budget - steps)
        goto checked;
    fuel = budget - steps - ip->seg;
    nx = ip + 1;
    goto *hot[ip->op];

#define MME_NEXT()                                                                               \
    do {                                                                                         \
        ip = nx;                                                                                 \
        nx = ip + 1;                                                                             \
        goto *hot[ip->op];                                                                       \
    } while (0)
#define MME_H(k, rop)                                                                            \
    H_##k##_##rop : if ((st = mme_exec(&c, r, ip, k, rop)) != ST_OK) goto hot_fault;            \
    MME_NEXT();
#define MME_HS(k)                                                                                \
    MME_H(k, 0) MME_H(k, 1) MME_H(k, 2) MME_H(k, 3) MME_H(k, 4) MME_H(k, 5) MME_H(k, 6)         \
        MME_H(k, 7)
#define NV_MME_ALU(id, value, mn) MME_HS(K_ALU_##id)
#include "nv/tables/macro.def"
    MME_HS(K_OP_ADD_IMM)
    MME_HS(K_OP_EXTRACT_INSERT)
    MME_HS(K_OP_EXTRACT_SHL_IMM)
    MME_HS(K_OP_EXTRACT_SHL_REG)
    MME_HS(K_OP_READ)
    MME_HS(K_MOV_A)
#undef MME_HS
#undef MME_H

    /* A branch outside a delay slot, with no exit bit, not the last word,
     * its target inside the code (segment() sends the others to H_SLOW). */
#define MME_BRA(bnz, annul)                                                                      \
    H_BRA_##annul##bnz : if ((r[ip->a] != 0) != (bnz)) {                                        \
        steps = budget - fuel; /* the segment ran through the branch */                         \
        pc = (uint32_t)(ip - d) + 1;                                                             \
        goto segment;                                                                            \
    }                                                                                            \
    if (annul) {                                                                                 \
        steps = budget - fuel;                                                                   \
        pc = ip->imm;                                                                            \
        goto segment;                                                                            \
    }                                                                                            \
    {                                                                                            \
        const nv_mme_insn *to = d + ip->imm;                                                     \
        if ((uint64_t)to->seg + 1 > fuel) { /* the delay slot and the target's segment */       \
            st = ST_BRANCH;                                                                      \
            goto general;                                                                        \
        }                                                                                        \
        fuel -= (uint64_t)to->seg + 1;                                                           \
        nx = to;                                                                                 \
        ip++;                                                                                    \
        goto *slot[ip->op];                                                                      \
    }
    MME_BRA(0, 0)
    MME_BRA(1, 0)
    MME_BRA(0, 1)
    MME_BRA(1, 1)
#undef MME_BRA

    /* ADD_IMM.mov, then the branch after it (segment() fuses them) */
#define MME_ADDI_BRA(bnz, annul)                                                                 \
    H_ADDI_BRA_##annul##bnz : mme_exec(&c, r, ip, K_OP_ADD_IMM, NV_MME_RES_MOV);                \
    ip = nx;                                                                                     \
    nx = ip + 1;                                                                                 \
    goto H_BRA_##annul##bnz;
    MME_ADDI_BRA(0, 0)
    MME_ADDI_BRA(1, 0)
    MME_ADDI_BRA(0, 1)
    MME_ADDI_BRA(1, 1)
#undef MME_ADDI_BRA
H_ADDI_SEND: /* ADD_IMM.movm, then the ADD.movsend after it */
    mme_exec(&c, r, ip, K_OP_ADD_IMM, NV_MME_RES_MOVM);
    ip = nx;
    nx = ip + 1;
    goto H_K_ALU_ADD_4;
H_ADDI_SENDA: /* the same with a move */
    mme_exec(&c, r, ip, K_OP_ADD_IMM, NV_MME_RES_MOVM);
    ip = nx;
    nx = ip + 1;
    goto H_K_MOV_A_4;

H_SLOT_SLOW: /* a delay slot with its exit bit set (ignored), or a branch */
    if ((st = mme_step(&c, r, ip)) > ST_EXIT)
        goto hot_fault;
    MME_NEXT();
H_SLOW:
    if ((st = mme_step(&c, r, ip)) == ST_OK)
        MME_NEXT();
    goto general;
H_END:
    st = ST_END;
    goto general;
H_SLOT_BRANCH:
    st = ST_BRANCH;
    goto hot_fault;
H_BAD_ALU:
    st = ST_BAD_ALU;
    goto hot_fault;
H_BAD_OP:
    st = ST_BAD_OP;
    goto hot_fault;
#undef MME_NEXT

hot_fault:
    /* ip faulted and counts (a delay slot too: its branch charged it);
     * nx's segment rest was charged and did not run */
    steps = budget - fuel - nx->seg;
    last = pc = (uint32_t)(ip - d);
    goto stop;

checked: /* a segment the budget does not cover: runs as far as it goes */
    ip = run_checked(&c, r, ip, budget, &steps, &st);
    goto stopped;
general: /* the hot loop stopped at ip with status st (ip counts unless
          * it is the end of the code) */
    steps = budget - fuel - ip->seg + (st != ST_END);
stopped:
    last = pc = (uint32_t)(ip - d);
    if (st == ST_BRANCH) {
        if ((r[ip->a] != 0) == ((ip->flags & F_BNZ) != 0)) {
            /* An exit bit on a taken branch does not fire (envytools
             * macro.c; yuzu PR #9005, deko3d). */
            target = ip->imm;
            if (ip->flags & F_ANNUL) {
                pc = target;
                goto segment;
            }
        } else if (ip->flags & F_EXIT) {
            ending = true;
        } else {
            pc = (pc + 1) & pc_mask;
            goto segment;
        }
    } else if (st == ST_EXIT) {
        ending = true;
    } else if (st == ST_END) {
        pc = (uint32_t)n & pc_mask; /* wraps to 0 in the code RAM */
        goto segment;
    } else {
        goto stop;
    }
    /* a delay slot: of an exit (ending) or of a taken branch */
    last = slot_pc = (pc + 1) & pc_mask;
    if ((st = mme_enter(steps, budget, slot_pc, n)) != ST_OK)
        goto stop;
    steps++;
    /* An exit bit on a delay-slot instruction is ignored (hw-tested
     * by fincs: yuzu PR #2466, Ryujinx PR #899). */
    st = mme_step(&c, r, d + slot_pc);
    if (st > ST_EXIT)
        goto stop;
    st = ST_OK;
    if (ending)
        goto stop;
    pc = target;
    goto segment;

stop:
    return finish(&c, r, &f, st, code, n, last, steps, budget, out);
}

int nv_mme_run(const uint32_t *code, size_t ncode, uint32_t start, const uint32_t *params,
               size_t nparams, const nv_mme_io *io, uint64_t budget, const cg_agent *who,
               cg_device *dev, nv_mme_result *out)
{
    if (!code)
        ncode = 0;
    if (ncode >= SIZE_MAX / sizeof(nv_mme_insn) - 1)
        return CG_ERR_NOMEM;
    nv_mme_insn *d = malloc((ncode + 1) * sizeof *d);
    if (!d)
        return CG_ERR_NOMEM;
    for (size_t i = 0; i < ncode; i++)
        decode(code[i], (uint32_t)i, 0xFFFFFFFFu, &d[i]);
    segment(d, ncode);
    int rc = run(d, code, ncode, start, params, nparams, io, budget, who, dev, -1, 0xFFFFFFFFu,
                 out);
    free(d);
    return rc;
}

void nv_mme_state_init(nv_mme_state *s)
{
    memset(s, 0, sizeof *s);
    for (uint32_t i = 0; i < NV_MME_CODE_WORDS; i++)
        decode(0, i, NV_MME_CODE_WORDS - 1, &s->dec[i]);
    s->seg_stale = true;
}

bool nv_mme_method(nv_mme_state *s, uint32_t method, uint32_t value)
{
    switch (method) {
    case NV_MME_M_INSTRUCTION_RAM_POINTER:
        s->code_ptr = value & (NV_MME_CODE_WORDS - 1);
        return true;
    case NV_MME_M_INSTRUCTION_RAM:
        s->code[s->code_ptr] = value;
        decode(value, s->code_ptr, NV_MME_CODE_WORDS - 1, &s->dec[s->code_ptr]);
        s->seg_stale = true;
        s->code_ptr = (s->code_ptr + 1) & (NV_MME_CODE_WORDS - 1);
        return true;
    case NV_MME_M_START_ADDRESS_RAM_POINTER:
        s->entry_ptr = value & (NV_MME_ENTRIES - 1);
        return true;
    case NV_MME_M_START_ADDRESS_RAM:
        s->entry[s->entry_ptr] = value & (NV_MME_CODE_WORDS - 1);
        s->entry_ptr = (s->entry_ptr + 1) & (NV_MME_ENTRIES - 1);
        return true;
    case NV_MME_M_SHADOW_RAM_CONTROL:
        s->shadow_mode = value & 3u;
        return true;
    default:
        return false;
    }
}

uint32_t nv_mme_shadow(nv_mme_state *s, uint32_t method, uint32_t value)
{
    uint32_t *slot = &s->shadow[method & (NV_MME_METHODS - 1)];
    switch (s->shadow_mode) {
    case NV_MME_SHADOW_TRACK:
    case NV_MME_SHADOW_TRACK_WITH_FILTER:
        *slot = value;
        return value;
    case NV_MME_SHADOW_PASSTHROUGH:
        return value;
    default: /* REPLAY */
        return *slot;
    }
}

int nv_mme_call(nv_mme_state *s, uint32_t macro, const uint32_t *params, size_t nparams,
                const nv_mme_io *io, uint64_t budget, const cg_agent *who, cg_device *dev,
                nv_mme_result *out)
{
    macro &= NV_MME_ENTRIES - 1;
    if (s->seg_stale) {
        segment(s->dec, NV_MME_CODE_WORDS);
        s->seg_stale = false;
    }
    return run(s->dec, s->code, NV_MME_CODE_WORDS, s->entry[macro], params, nparams, io, budget,
               who, dev, (int32_t)macro, NV_MME_CODE_WORDS - 1, out);
}
