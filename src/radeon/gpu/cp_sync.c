/* radeon family, GPU side: wait, semaphore, event and sync packets
 * (WAIT_REG_MEM, MEM_SEMAPHORE, EVENT_WRITE, EVENT_WRITE_EOP, SURFACE_SYNC,
 * SET_PREDICATION, COND_EXEC). */
#include <stdlib.h>
#include <string.h>
#include "cp_internal.h"

static bool compare(unsigned fn, uint32_t v, uint32_t ref)
{
    /* WAIT_REG_MEM FUNCTION: 0 always, 1 <, 2 <=, 3 ==, 4 !=, 5 >=, 6 >
     * (research/radeon.md, Mesa r600_hw_context.c). */
    switch (fn) {
    case 0: return true;
    case 1: return v < ref;
    case 2: return v <= ref;
    case 3: return v == ref;
    case 4: return v != ref;
    case 5: return v >= ref;
    case 6: return v > ref;
    default: return false;
    }
}


/* A wait that did not succeed: block, or end it as a hang past the budget.
 * `addr` is what it waits on (memory address or register), 0 if nothing. */
int rd_wait_more(cg_radeon *rd, const char *what, uint64_t addr)
{
    rd->wait_polls++;
    if (rd->wait_polls > rd->cfg.wait_budget)
        return rd_cp_fault(rd, CG_FAULT_HANG, addr, false,
                           "budget %s: %s not satisfied after %u polls (watchdog)",
                           cg_budget_name(CG_BUDGET_RADEON_WAIT_POLLS), what, rd->cfg.wait_budget);
    rd->waiting = true;
    return EXEC_BLOCK;
}


int rd_exec_EVENT(cg_radeon *rd, const rd_pkt *x)
{
    if (x->count == 1)
        return rd_cp_fault(rd, CG_FAULT_BAD_LENGTH, 0, false, "EVENT_WRITE x->count 1 (takes 0 or 2)");
    rd->counters.events++;
    if (x->count == 2)
        return rd_cp_fault(rd, CG_FAULT_UNSUPPORTED, 0, false,
                           "EVENT_WRITE with an address (sample events, index %u) is not "
                           "supported yet", PGET(x->p[1], EVENT_WRITE_DW1, EVENT_INDEX));
    return EXEC_OK; /* flush/invalidate events: no GPU caches in the model */
}

int rd_exec_EOP(cg_radeon *rd, const rd_pkt *x)
{
    uint32_t dsel = PGET(x->p[3], EVENT_WRITE_EOP_DW3, DATA_SEL);
    uint32_t isel = PGET(x->p[3], EVENT_WRITE_EOP_DW3, INT_SEL);
    uint64_t va = addr40(x->p[2], PGET(x->p[3], EVENT_WRITE_EOP_DW3, EOP_ADDR_HI));
    if (dsel > 3 || isel > 2)
        return rd_cp_fault(rd, CG_FAULT_BAD_STATE, va, false,
                           "EVENT_WRITE_EOP DATA_SEL %u / INT_SEL %u reserved", dsel, isel);
    if (dsel && (va & 3))
        return rd_cp_fault(rd, CG_FAULT_BAD_ALIGN, va, false,
                           "EVENT_WRITE_EOP address 0x%llx not 4-byte aligned",
                           (unsigned long long)va);
    rd->counters.eops++;
    int rc = 0;
    if (dsel == 1)
        rc = rd_gpu_write32(rd, va, x->p[4]);
    else if (dsel == 2)
        rc = rd_gpu_write64(rd, va, (uint64_t)x->p[5] << 32 | x->p[4]);
    else if (dsel == 3)
        rc = rd_gpu_write64(rd, va, rd->clock);
    if (rc != 0) {
        rd->stopped = true;
        return rc;
    }
    if (cg_trace_enabled(rd->dev) && dsel) {
        cg_trace_event ev = {.kind = CG_TRACE_FENCE, .family = CG_FAMILY_RADEON, .unit = "cp",
                             .channel = 0, .stream_addr = rd->agent.stream_addr,
                             .gpu_addr = va, .value = dsel == 3 ? rd->clock : x->p[4]};
        cg_trace_emit(rd->dev, &ev);
    }
    if (isel) { /* 1: interrupt only, 2: after the write is confirmed */
        rc = rd_cp_interrupt(rd, RPUT(CP_INT_STATUS, TIME_STAMP_INT_STAT, 1),
                             RPUT(CP_INT_CNTL, TIME_STAMP_INT_ENABLE, 1), CG_RADEON_IH_CP_EOP);
        if (rc != 0) {
            rd->stopped = true;
            return rc;
        }
    }
    return EXEC_OK;
}

int rd_exec_WAIT(cg_radeon *rd, const rd_pkt *x)
{
    uint32_t fn = PGET(x->p[1], WAIT_REG_MEM_DW1, WRM_FUNCTION);
    bool mem = PGET(x->p[1], WAIT_REG_MEM_DW1, WRM_MEM_SPACE);
    if (fn == 7)
        return rd_cp_fault(rd, CG_FAULT_BAD_STATE, 0, false, "WAIT_REG_MEM function 7 reserved");
    uint32_t v;
    uint64_t at; /* what the wait polls: the memory address or the register */
    if (mem) {
        if (PGET(x->p[2], WAIT_REG_MEM_DW2, WRM_SWAP))
            return rd_cp_fault(rd, CG_FAULT_UNSUPPORTED, 0, false,
                               "WAIT_REG_MEM swap mode (big-endian) is not supported yet");
        at = addr40(x->p[2] & PMASK(WAIT_REG_MEM_DW2, WRM_ADDR_LO),
                    PGET(x->p[3], WAIT_REG_MEM_DW3, WRM_ADDR_HI));
        if (rd_mem_read32(rd, at, &v) != 0)
            return CG_ERR_FAULT;
    } else {
        /* A register as a dword offset (Mesa r600_hw_context.c). */
        at = 4ull * x->p[2];
        if (at >= CG_RADEON_REG_SPACE)
            return rd_cp_fault(rd, CG_FAULT_INVALID_METHOD, at, false,
                               "WAIT_REG_MEM register 0x%llx outside the register space",
                               (unsigned long long)at);
        rd_reg_read_nl(rd, (uint32_t)at, &v);
    }
    if (compare(fn, v & x->p[5], x->p[4]))
        return EXEC_OK;
    return rd_wait_more(rd, "WAIT_REG_MEM", at);
}

int rd_exec_SURF_SYNC(cg_radeon *rd, const rd_pkt *x)
{
    /* CP_COHER_CNTL/SIZE/BASE (r600_fence_ring_emit). The model has no
     * GPU-side caches, so the sync completes at once. */
    rd->regs[REG_CP_COHER_CNTL / 4] = x->p[1];
    rd->regs[REG_CP_COHER_SIZE / 4] = x->p[2];
    rd->regs[REG_CP_COHER_BASE / 4] = x->p[3];
    rd->counters.surface_syncs++;
    return EXEC_OK;
}

int rd_exec_SEMAPHORE(cg_radeon *rd, const rd_pkt *x)
{
    /* 64-bit semaphore in memory (radeon_semaphore.c allocates 8 bytes and
     * zeroes them); signal increments, wait blocks while it is zero and
     * then decrements (model semantics). SEL 6 signal, 7 wait. */
    uint64_t va = addr40(x->p[1], PGET(x->p[2], MEM_SEMAPHORE_DW2, SEM_ADDR_HI));
    uint32_t sel = PGET(x->p[2], MEM_SEMAPHORE_DW2, SEM_SEL);
    if (sel != 6 && sel != 7)
        return rd_cp_fault(rd, CG_FAULT_BAD_STATE, va, false, "MEM_SEMAPHORE SEL %u reserved", sel);
    if (va & 7)
        return rd_cp_fault(rd, CG_FAULT_BAD_ALIGN, va, false,
                           "MEM_SEMAPHORE address 0x%llx not 8-byte aligned",
                           (unsigned long long)va);
    uint64_t v;
    if (cg_vas_read64(rd->vas, va, &v, &rd->agent) != 0) {
        rd->stopped = true;
        return CG_ERR_FAULT;
    }
    if (sel == 7 && v == 0)
        return rd_wait_more(rd, "MEM_SEMAPHORE wait", va);
    int rc = rd_gpu_write64(rd, va, sel == 6 ? v + 1 : v - 1);
    if (rc != 0)
        rd->stopped = true;
    return rc ? rc : EXEC_OK;
}

int rd_exec_SET_PRED(cg_radeon *rd, const rd_pkt *x)
{
    uint32_t pop = PGET(x->p[2], SET_PREDICATION_DW2, PRED_OP);
    if (pop == 0)
        return EXEC_OK; /* clear: every packet executes (the model's only state) */
    return rd_cp_fault(rd, CG_FAULT_UNSUPPORTED, 0, false,
                       "SET_PREDICATION op %u (ZPASS/PRIMCOUNT results) is not supported yet", pop);
}

int rd_exec_COND_EXEC(cg_radeon *rd, const rd_pkt *x)
{
    /* Layout as the SI PM4 definitions give it (addr lo, addr hi,
     * [reserved,] exec count): if the 32-bit value at addr is 0, skip the
     * next exec-count dwords. Not confirmed for R600 microcode. */
    uint64_t va = addr40(x->p[1] & ~3u, PGET(x->p[2], COND_EXEC_DW2, COND_ADDR_HI));
    uint32_t n = x->count == 2 ? x->p[3] : x->p[4];
    uint32_t v;
    if (rd_mem_read32(rd, va, &v) != 0)
        return CG_ERR_FAULT;
    if (v == 0)
        rd->pending_skip = n;
    return EXEC_OK;
}
