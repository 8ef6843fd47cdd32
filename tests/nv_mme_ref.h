/* An independent, straightforward reference interpreter for the nv macro
 * engine (MME), shared by tests/test_nv_macro.c and fuzz/fuzz_nv_macro.c,
 * which run random programs through it and through src/nv/gpu/macro.c and
 * demand the same result.
 *
 * Independence. It is written after yuzu's recursive Step(is_delay_slot)
 * structure (video_core/macro/macro_interpreter.cpp) rather than macro.c's
 * loop with delay-slot flags, decodes every field with its own arithmetic
 * (no NV_MME_F_* macro, no macro.def row, no macro.h include) and calls
 * nothing in the library. The only things it shares with the real
 * interpreter are:
 *   - the cg_fault_kind values of include/cmdgpu/fault.h (public API: names
 *     of outcomes, no behaviour), and
 *   - the semantic decisions documented in docs/nv-macro.md, taken again
 *     here from the same sources: SUB/SBB carry is a borrow (Mesa
 *     src/nouveau/mme/mme_fermi_sim.c, hardware-tested), the method increment
 *     is 4 bits (Mesa set_mthd), exit in a delay slot is ignored (fincs: yuzu
 *     PR #2466), exit on a taken branch does not fire (envytools macro.c,
 *     yuzu PR #9005), a bitfield shift of 32 or more gives 0 (Mesa
 *     eval_bfe_lsl).
 * The code RAM size is not shared either: the caller gives the code array,
 * its length and the PC mask (NV_MME_CODE_WORDS - 1 for a call through the
 * code RAM, 0xFFFFFFFF for a plain array where running off the end faults).
 *
 * What it reports is what the real interpreter's nv_mme_result and fault
 * record must show: registers, carry, method address and increment, the PC
 * of the last instruction executed (or faulting), instructions executed,
 * sends, parameters consumed, and the fault kind, PC and instruction word.
 * Only what happens, not how faults are posted: the caller compares. */
#ifndef CMDGPU_TESTS_NV_MME_REF_H
#define CMDGPU_TESTS_NV_MME_REF_H

#include <stddef.h>
#include <stdint.h>
#include "cmdgpu/fault.h"

typedef struct nv_mme_ref {
    /* inputs, set by the caller */
    const uint32_t *code;
    size_t n;         /* code words; with a PC mask below 0xFFFFFFFF, n = mask + 1 */
    uint32_t pc_mask; /* the PC wraps with this mask */
    uint32_t pc;      /* start PC */
    const uint32_t *par;
    size_t np;
    uint64_t budget;
    void *user; /* for send/read, both may be NULL (read gives 0) */
    int (*send)(void *user, uint32_t method, uint32_t value);
    int (*read)(void *user, uint32_t method, uint32_t *value);
    /* outputs */
    uint32_t r[8], carry, maddr, minc;
    uint32_t last;   /* PC of the last instruction executed, or of the fault */
    uint64_t steps, sends;
    size_t pi;       /* parameters consumed, counting r1 */
    int kind;        /* cg_fault_kind; CG_FAULT_NONE (0) when none */
    uint32_t fpc, fword; /* fault PC and instruction word */
    int io_rc;       /* nonzero: the io error that stopped the macro */
} nv_mme_ref;

static int nv_mme_ref_fault(nv_mme_ref *s, int kind, uint32_t pc, uint32_t word)
{
    s->kind = kind;
    s->fpc = pc;
    s->fword = word;
    s->last = pc;
    return -1;
}

static int nv_mme_ref_send(nv_mme_ref *s, uint32_t v)
{
    int rc = s->send ? s->send(s->user, s->maddr, v) : 0;
    s->sends++;
    s->maddr = (s->maddr + s->minc) % 4096;
    if (rc)
        s->io_rc = rc;
    return rc;
}

static void nv_mme_ref_setm(nv_mme_ref *s, uint32_t v)
{
    s->maddr = v % 4096;
    s->minc = (v / 4096) % 16;
}

/* Run the instruction at s->pc; `slot` = it is a delay slot (of a branch or
 * of an exit). Returns 1 to go on, 0 when the macro has ended, -1 on a fault
 * or an io error. */
static int nv_mme_ref_step(nv_mme_ref *s, int slot)
{
    if (s->steps >= s->budget)
        return nv_mme_ref_fault(s, CG_FAULT_HANG, s->pc, s->pc < s->n ? s->code[s->pc] : 0);
    if (s->pc >= s->n)
        return nv_mme_ref_fault(s, CG_FAULT_BAD_LENGTH, s->pc, 0);
    uint32_t base = s->pc, w = s->code[base];
    s->last = base;
    s->pc = (base + 1) & s->pc_mask;
    s->steps++;
    uint32_t op = w % 8, res3 = (w / 16) % 8, ex = (w / 128) % 2, d = (w / 256) % 8;
    uint32_t a = s->r[(w / 2048) % 8], b = s->r[(w / 16384) % 8];
    int64_t imm = (int64_t)(w / 16384);
    if (imm >= 131072)
        imm -= 262144;
    uint32_t f1 = (w / 131072) % 32, f2 = (w / 4194304) % 32, f3 = w / 134217728;
    if (op == 7) {
        if (slot)
            return nv_mme_ref_fault(s, CG_FAULT_BAD_STATE, base, w);
        int taken = ((w / 16) % 2) ? a != 0 : a == 0;
        if (taken) {
            uint32_t t = (uint32_t)((int64_t)base + imm) & s->pc_mask;
            if (!((w / 32) % 2) && nv_mme_ref_step(s, 1) < 0)
                return -1;
            s->pc = t;
            return 1; /* the exit bit of a taken branch does not fire */
        }
    } else {
        uint64_t v = 0;
        if (op == 0) {
            uint64_t A = a, B = b, C = s->carry;
            switch (f1) {
            case 0: v = A + B; s->carry = v > 0xFFFFFFFFu; break;
            case 1: v = A + B + C; s->carry = v > 0xFFFFFFFFu; break;
            case 2: v = A - B; s->carry = A < B; break;
            case 3: v = A - B - C; s->carry = A < B + C; break;
            case 8: v = A ^ B; break;
            case 9: v = A | B; break;
            case 10: v = A & B; break;
            case 11: v = A & ~B; break;
            case 12: v = ~(A & B); break;
            default: return nv_mme_ref_fault(s, CG_FAULT_INVALID_OPCODE, base, w);
            }
        } else if (op == 1) {
            v = (uint64_t)((int64_t)a + imm);
        } else if (op >= 2 && op <= 4) {
            uint64_t src = op == 3 ? a : f1, dst = op == 4 ? a : f3;
            uint64_t m = ((uint64_t)1 << f2) - 1;
            uint64_t ext = (src < 32 && dst < 32) ? (((b >> src) & m) << dst) : 0;
            v = op == 2 ? ((a & ~(m << f3)) | ext) : ext;
        } else if (op == 5) {
            uint32_t val = 0;
            int rc = s->read ? s->read(s->user, (uint32_t)((int64_t)a + imm) % 4096, &val) : 0;
            if (rc) {
                s->io_rc = rc;
                return -1;
            }
            v = val;
        } else {
            return nv_mme_ref_fault(s, CG_FAULT_INVALID_OPCODE, base, w);
        }
        uint32_t res = (uint32_t)v, pv = 0;
        int fetches = res3 == 0 || res3 == 3 || res3 == 5 || res3 == 6;
        int sets_m = res3 == 2 || res3 == 5 || res3 == 6 || res3 == 7;
        if (fetches) {
            if (s->pi >= s->np) {
                /* op 6 writes dst and the method address before it fetches
                 * the parameter it sends; the others fetch first */
                if (res3 == 6) {
                    s->r[d] = res;
                    nv_mme_ref_setm(s, res);
                    s->r[0] = 0;
                }
                return nv_mme_ref_fault(s, CG_FAULT_BAD_LENGTH, base, w);
            }
            pv = s->par[s->pi++];
        }
        s->r[d] = (res3 == 0 || res3 == 3 || res3 == 5) ? pv : res;
        s->r[0] = 0;
        if (sets_m)
            nv_mme_ref_setm(s, res);
        if ((res3 == 3 || res3 == 4) && nv_mme_ref_send(s, res))
            return -1;
        if (res3 == 6 && nv_mme_ref_send(s, pv))
            return -1;
        if (res3 == 7 && nv_mme_ref_send(s, (res / 4096) % 64))
            return -1;
    }
    if (ex && !slot)
        return nv_mme_ref_step(s, 1) < 0 ? -1 : 0; /* the exit's delay slot, then the end */
    return 1;
}

/* Run from s->pc until the macro exits, faults or an io call fails. */
static void nv_mme_ref_run(nv_mme_ref *s)
{
    if (s->np) {
        s->r[1] = s->par[0];
        s->pi = 1;
    }
    s->last = s->pc;
    int rc;
    do
        rc = nv_mme_ref_step(s, 0);
    while (rc > 0);
    if (rc == 0 && s->pi < s->np)
        nv_mme_ref_fault(s, CG_FAULT_BAD_LENGTH, s->last, s->code[s->last]);
}

#endif
