/* nv: the Maxwell macro engine (MME) interpreter and upload state.
 * Semantics: research/nv.md section 4; docs/nv-macro.md. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "macro.h"

typedef struct mme_run {
    const uint32_t *code;
    size_t ncode;
    const uint32_t *params;
    size_t nparams, pi;
    const nv_mme_io *io;
    cg_device *dev;
    cg_agent agent;
    int32_t macro; /* -1: unknown */
    bool keep_addr; /* nv_mme_call with a caller stream address */
    uint32_t r[8];
    uint32_t carry, maddr, minc, pc;
    uint64_t sends;
} mme_run;

static int mme_fault(mme_run *m, uint32_t w, cg_fault_kind kind, const char *fmt, ...)
{
    char msg[CG_FAULT_MSG_LEN];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    m->agent.words[0] = w;
    if (m->keep_addr) {
        /* an executor's call: its stream address stays, the PC goes in words[1] */
        m->agent.words[1] = m->pc;
        m->agent.nwords = 2;
    } else {
        m->agent.stream_addr = m->pc;
        m->agent.nwords = 1;
    }
    if (m->macro >= 0)
        return cg_fault_post(m->dev, &m->agent, kind, 0, "macro %d pc 0x%x: %s", m->macro,
                             m->pc, msg);
    return cg_fault_post(m->dev, &m->agent, kind, 0, "pc 0x%x: %s", m->pc, msg);
}

static int fetch(mme_run *m, uint32_t w, uint32_t *v)
{
    if (m->pi >= m->nparams)
        return mme_fault(m, w, CG_FAULT_BAD_LENGTH,
                         "too few parameters: parm past the %zu given (TOO_FEW_PARAMS)",
                         m->nparams);
    *v = m->params[m->pi++];
    return 0;
}

static void setm(mme_run *m, uint32_t v)
{
    m->maddr = NV_MME_MADDR(v);
    m->minc = NV_MME_MINC(v);
}

static int send(mme_run *m, uint32_t v)
{
    int rc = m->io && m->io->send ? m->io->send(m->io->user, m->maddr, v) : 0;
    m->sends++;
    m->maddr = (m->maddr + m->minc) & 0xFFFu; /* 12-bit method index wraps */
    return rc;
}

static inline uint32_t mask_of(uint32_t size)
{
    return size >= 32 ? 0xFFFFFFFFu : (1u << size) - 1u;
}

/* ((v >> src) & mask(size)) << dst, 0 for shifts of 32 or more (Mesa
 * mme_fermi_sim.c eval_bfe_lsl: shift counts above 31 give 0). */
static inline uint32_t bfe_shl(uint32_t v, uint32_t src, uint32_t size, uint32_t dst)
{
    if (src > 31 || dst > 31)
        return 0;
    return ((v >> src) & mask_of(size)) << dst;
}

/* Execute a non-branch instruction. */
static int exec(mme_run *m, uint32_t w)
{
    uint32_t a = m->r[NV_MME_F_SRCA(w)], b = m->r[NV_MME_F_SRCB(w)], res = 0;
    uint64_t wide;
    switch (NV_MME_F_OP(w)) {
    case NV_MME_OP_ALU:
        switch (NV_MME_F_ALU(w)) {
        case NV_MME_ALU_ADD:
            wide = (uint64_t)a + b;
            res = (uint32_t)wide;
            m->carry = (uint32_t)(wide >> 32);
            break;
        case NV_MME_ALU_ADC:
            wide = (uint64_t)a + b + m->carry;
            res = (uint32_t)wide;
            m->carry = (uint32_t)(wide >> 32);
            break;
        /* Carry after SUB is a borrow: carry = 1 when a < b, and SBB computes
         * a - b - carry. Mesa's simulator (src/nouveau/mme/mme_fermi_sim.c,
         * ALU_OP_SUB/SUBB), checked against hardware by its
         * mme_fermi_sim_hw_test.cpp `subb` case (a 64-bit subtraction whose
         * low half borrows); yuzu and Ryujinx use no-borrow instead. */
        case NV_MME_ALU_SUB:
            res = a - b;
            m->carry = a < b;
            break;
        case NV_MME_ALU_SBB:
            res = a - b - m->carry;
            m->carry = (uint64_t)a < (uint64_t)b + m->carry;
            break;
        case NV_MME_ALU_XOR: res = a ^ b; break;
        case NV_MME_ALU_OR: res = a | b; break;
        case NV_MME_ALU_AND: res = a & b; break;
        case NV_MME_ALU_ANDN: res = a & ~b; break;
        case NV_MME_ALU_NAND: res = ~(a & b); break;
        default:
            return mme_fault(m, w, CG_FAULT_INVALID_OPCODE, "illegal ALU operation %u",
                             NV_MME_F_ALU(w));
        }
        break;
    case NV_MME_OP_ADD_IMM: /* does not touch the carry (Mesa hw test add_imm_carry) */
        res = a + (uint32_t)nv_mme_imm(w);
        break;
    case NV_MME_OP_EXTRACT_INSERT: {
        uint32_t mask = mask_of(NV_MME_F_BSIZE(w)), dst = NV_MME_F_BDST(w);
        res = (a & ~(mask << dst)) | bfe_shl(b, NV_MME_F_BSRC(w), NV_MME_F_BSIZE(w), dst);
        break;
    }
    case NV_MME_OP_EXTRACT_SHL_IMM:
        res = bfe_shl(b, a, NV_MME_F_BSIZE(w), NV_MME_F_BDST(w));
        break;
    case NV_MME_OP_EXTRACT_SHL_REG:
        res = bfe_shl(b, NV_MME_F_BSRC(w), NV_MME_F_BSIZE(w), a);
        break;
    case NV_MME_OP_READ: {
        uint32_t v = 0;
        uint32_t method = (a + (uint32_t)nv_mme_imm(w)) & 0xFFFu;
        if (m->io && m->io->read) {
            int rc = m->io->read(m->io->user, method, &v);
            if (rc)
                return rc;
        }
        res = v;
        break;
    }
    default:
        return mme_fault(m, w, CG_FAULT_INVALID_OPCODE, "illegal opcode %u (ILLEGAL_OPCODE)",
                         NV_MME_F_OP(w));
    }
    uint32_t dst = NV_MME_F_DST(w), p = 0;
    int rc = 0;
    switch (NV_MME_F_RES(w)) {
    case NV_MME_RES_FETCH:
        if ((rc = fetch(m, w, &p)) == 0)
            m->r[dst] = p;
        break;
    case NV_MME_RES_MOV: m->r[dst] = res; break;
    case NV_MME_RES_MOVM:
        m->r[dst] = res;
        setm(m, res);
        break;
    case NV_MME_RES_FETCH_SEND:
        if ((rc = fetch(m, w, &p)) == 0) {
            m->r[dst] = p;
            rc = send(m, res);
        }
        break;
    case NV_MME_RES_MOV_SEND:
        m->r[dst] = res;
        rc = send(m, res);
        break;
    case NV_MME_RES_FETCHM:
        if ((rc = fetch(m, w, &p)) == 0) {
            m->r[dst] = p;
            setm(m, res);
        }
        break;
    case NV_MME_RES_MOVM_SENDP:
        m->r[dst] = res;
        setm(m, res);
        if ((rc = fetch(m, w, &p)) == 0)
            rc = send(m, p);
        break;
    default: /* NV_MME_RES_MOVM_SENDHI */
        m->r[dst] = res;
        setm(m, res);
        rc = send(m, (res >> 12) & 0x3Fu);
        break;
    }
    m->r[0] = 0;
    return rc;
}

static int run(const uint32_t *code, size_t ncode, uint32_t start, const uint32_t *params,
               size_t nparams, const nv_mme_io *io, uint64_t budget, const cg_agent *who,
               cg_device *dev, int32_t macro, uint32_t pc_mask, nv_mme_result *out)
{
    mme_run m;
    memset(&m, 0, sizeof m);
    m.code = code;
    m.ncode = code ? ncode : 0;
    m.params = params;
    m.nparams = params ? nparams : 0;
    m.io = io;
    m.dev = dev;
    m.macro = macro;
    if (who) {
        m.agent = *who;
        m.keep_addr = macro >= 0 && who->stream_addr != 0;
    }
    else
        m.agent.channel = -1;
    m.agent.family = CG_FAMILY_NV;
    m.agent.unit = "mme";
    if (m.nparams) {
        m.r[1] = m.params[0];
        m.pi = 1;
    }
    uint32_t pc = start & pc_mask;
    /* Delay-slot state: after a taken, non-annulled branch the next
     * instruction runs, then the PC becomes `target`. After an exit the next
     * instruction runs (the exit's delay slot), then the macro ends. A delay
     * slot of either kind may not branch, and its own exit bit is ignored. */
    bool branch_slot = false, exit_slot = false;
    uint32_t target = 0;
    uint64_t steps = 0;
    int rc = 0;
    for (;;) {
        m.pc = pc;
        if (steps >= budget) {
            uint32_t w = pc < m.ncode ? code[pc] : 0;
            rc = mme_fault(&m, w, CG_FAULT_HANG,
                           "budget %s: instruction budget of %llu ran out (watchdog TIMEOUT)",
                           cg_budget_name(CG_BUDGET_NV_MACRO_INSNS), (unsigned long long)budget);
            break;
        }
        if (pc >= m.ncode) {
            rc = mme_fault(&m, 0, CG_FAULT_BAD_LENGTH, "PC past the %zu code words", m.ncode);
            break;
        }
        uint32_t w = code[pc];
        steps++;
        bool in_slot = branch_slot || exit_slot;
        uint32_t next = (pc + 1) & pc_mask;
        bool take_slot_branch = false, start_exit = false;
        if (NV_MME_F_OP(w) == NV_MME_OP_BRANCH) {
            if (in_slot) {
                rc = mme_fault(&m, w, CG_FAULT_BAD_STATE,
                               "branch in a delay slot (DOUBLE_BRANCH)");
                break;
            }
            uint32_t a = m.r[NV_MME_F_SRCA(w)];
            bool taken = NV_MME_F_BNZ(w) ? a != 0 : a == 0;
            if (taken) {
                /* An exit bit on a taken branch does not fire (envytools
                 * macro.c; yuzu PR #9005, deko3d). */
                uint32_t t = (pc + (uint32_t)nv_mme_imm(w)) & pc_mask;
                if (NV_MME_F_BANNUL(w))
                    next = t;
                else {
                    take_slot_branch = true;
                    target = t;
                }
            } else if (NV_MME_F_EXIT(w)) {
                start_exit = true;
            }
        } else {
            rc = exec(&m, w);
            if (rc)
                break;
            /* An exit bit on a delay-slot instruction is ignored (hw-tested
             * by fincs: yuzu PR #2466, Ryujinx PR #899). */
            if (NV_MME_F_EXIT(w) && !in_slot)
                start_exit = true;
        }
        if (exit_slot)
            break; /* the exit's delay slot has run */
        if (branch_slot) {
            branch_slot = false;
            pc = target;
            continue;
        }
        if (start_exit) {
            exit_slot = true;
            pc = next;
            continue;
        }
        branch_slot = take_slot_branch;
        pc = next;
    }
    if (rc == 0 && m.pi < m.nparams)
        rc = mme_fault(&m, code[m.pc], CG_FAULT_BAD_LENGTH,
                       "too many parameters: %zu of %zu left unread at exit (TOO_MANY_PARAMS)",
                       m.nparams - m.pi, m.nparams);
    if (out) {
        memcpy(out->regs, m.r, sizeof m.r);
        out->carry = m.carry;
        out->maddr = m.maddr;
        out->minc = m.minc;
        out->pc = m.pc;
        out->steps = steps;
        out->sends = m.sends;
        out->params_used = m.pi;
    }
    return rc;
}

int nv_mme_run(const uint32_t *code, size_t ncode, uint32_t start, const uint32_t *params,
               size_t nparams, const nv_mme_io *io, uint64_t budget, const cg_agent *who,
               cg_device *dev, nv_mme_result *out)
{
    return run(code, ncode, start, params, nparams, io, budget, who, dev, -1, 0xFFFFFFFFu,
               out);
}

void nv_mme_state_init(nv_mme_state *s)
{
    memset(s, 0, sizeof *s);
}

bool nv_mme_method(nv_mme_state *s, uint32_t method, uint32_t value)
{
    switch (method) {
    case NV_MME_M_INSTRUCTION_RAM_POINTER:
        s->code_ptr = value & (NV_MME_CODE_WORDS - 1);
        return true;
    case NV_MME_M_INSTRUCTION_RAM:
        s->code[s->code_ptr] = value;
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

int nv_mme_call(const nv_mme_state *s, uint32_t macro, const uint32_t *params, size_t nparams,
                const nv_mme_io *io, uint64_t budget, const cg_agent *who, cg_device *dev,
                nv_mme_result *out)
{
    macro &= NV_MME_ENTRIES - 1;
    return run(s->code, NV_MME_CODE_WORDS, s->entry[macro], params, nparams, io, budget, who,
               dev, (int32_t)macro, NV_MME_CODE_WORDS - 1, out);
}
