/* radeon family, GPU side: the register file with its MMIO side effects
 * (CP ring pointers, interrupts, soft reset, scratch writeback) and the
 * register writes of SET_* and type-0 packets. */
#include <stdlib.h>
#include <string.h>
#include "cp_internal.h"

/* registers                                                               */

static void scratch_writeback(cg_radeon *rd, uint32_t reg, uint32_t v, bool *fault)
{
    /* SCRATCH_UMSK bit i mirrors SCRATCH_REGi to (SCRATCH_ADDR << 8) + 4i
     * (r600_cp_resume: SCRATCH_ADDR = wb >> 8, SCRATCH_UMSK = 0xff). */
    unsigned i = (reg - REG_SCRATCH_REG0) / 4;
    uint32_t umsk = rd->regs[REG_SCRATCH_UMSK / 4];
    if (!((RGET(umsk, SCRATCH_UMSK, SCRATCH_UMSK_MASK) >> i) & 1))
        return;
    uint64_t va = ((uint64_t)rd->regs[REG_SCRATCH_ADDR / 4] << 8) + 4 * i;
    if (rd_gpu_write32(rd, va, v) != 0) {
        rd->stopped = true;
        *fault = true;
    }
}

/* A register write from the command stream (type 0, SET_*, COPY_DW, CP_DMA).
 * Returns 0 or CG_ERR_FAULT (the CP stopped). */
int rd_cp_reg_write(cg_radeon *rd, uint32_t reg, uint32_t v)
{
    if (cg_trace_enabled(rd->dev)) {
        char nb[48];
        cg_trace_event ev = {.kind = CG_TRACE_REG_WRITE, .family = CG_FAMILY_RADEON,
                             .unit = "cp", .channel = 0, .stream_addr = rd->agent.stream_addr,
                             .reg = reg, .value = v,
                             .name = rd_reg_str(rd->cfg.gen, reg, nb, sizeof(nb))};
        cg_trace_emit(rd->dev, &ev);
    }
    if (!rd_is_special(rd, reg)) {
        rd->regs[reg / 4] = v;
        return 0;
    }
    if (reg >= REG_SCRATCH_REG0 && reg <= REG_SCRATCH_REG7) {
        bool fault = false;
        rd->regs[reg / 4] = v;
        scratch_writeback(rd, reg, v, &fault);
        return fault ? CG_ERR_FAULT : 0;
    }
    if (reg == REG_CP_INT_STATUS) {
        /* "CP_INTERRUPT packet 3 no longer exists, use packet 0"
         * (r600_fence_ring_emit): writing RB_INT_STAT from the stream raises
         * the CP interrupt of the current level, IH source 176/177/178. */
        int rc = 0;
        if (RGET(v, CP_INT_STATUS, RB_INT_STAT)) {
            if (rd->depth == 0)
                rc = rd_cp_interrupt(rd, RPUT(CP_INT_STATUS, RB_INT_STAT, 1),
                                     RPUT(CP_INT_CNTL, RB_INT_ENABLE, 1), CG_RADEON_IH_CP_RB);
            else if (rd->depth == 1)
                rc = rd_cp_interrupt(rd, RPUT(CP_INT_STATUS, IB1_INT_STAT, 1),
                                     RPUT(CP_INT_CNTL, IB1_INT_ENABLE, 1), CG_RADEON_IH_CP_IB1);
            else
                rc = rd_cp_interrupt(rd, RPUT(CP_INT_STATUS, IB2_INT_STAT, 1),
                                     RPUT(CP_INT_CNTL, IB2_INT_ENABLE, 1), CG_RADEON_IH_CP_IB2);
        }
        if (rc != 0)
            rd->stopped = true;
        return rc;
    }
    /* The ring, IH and reset registers belong to the host: the model does
     * not let the stream reprogram the CP it runs on. */
    char nb[48];
    return rd_cp_fault(rd, CG_FAULT_INVALID_METHOD, reg, false,
                       "register %s (0x%x) cannot be written from the command stream",
                       rd_reg_str(rd->cfg.gen, reg, nb, sizeof(nb)), reg);
}

uint32_t rd_ring_dw(const cg_radeon *rd)
{
    uint32_t bufsz = RGET(rd->regs[REG_CP_RB_CNTL / 4], CP_RB_CNTL, RB_BUFSZ);
    if (bufsz > MAX_RING_BUFSZ)
        return 0;
    /* RB_BUFSZ = log2(ring bytes / 8) (r600_cp_resume), so 2 << RB_BUFSZ dwords. */
    return 2u << bufsz;
}

uint64_t rd_ring_base(const cg_radeon *rd)
{
    return (uint64_t)rd->regs[REG_CP_RB_BASE / 4] << 8;
}

bool rd_cp_busy(const cg_radeon *rd)
{
    return !rd->stopped && (rd->depth > 0 || rd->rptr != rd->wptr || rd->waiting);
}

int rd_rptr_writeback(cg_radeon *rd)
{
    uint32_t cntl = rd->regs[REG_CP_RB_CNTL / 4];
    if (RGET(cntl, CP_RB_CNTL, RB_NO_UPDATE))
        return 0;
    uint64_t va = ((uint64_t)(rd->regs[REG_CP_RB_RPTR_ADDR_HI / 4] & 0xff) << 32) |
                  (rd->regs[REG_CP_RB_RPTR_ADDR / 4] & ~3u);
    int rc = rd_gpu_write32(rd, va, rd->rptr);
    if (rc != 0)
        rd->stopped = true;
    return rc;
}

void cg_radeon_counters_get(const cg_radeon *rd, cg_radeon_counters *c)
{
    cg_radeon *m = (cg_radeon *)rd; /* the lock is not part of the value */
    rd_lock(m);
    *c = rd->counters;
    rd_unlock(m);
}

void rd_cp_reset_nl(cg_radeon *rd)
{
    rd->rptr = rd->wptr = 0;
    rd->depth = 0;
    rd->stopped = rd->waiting = false;
    rd->wait_polls = 0;
    rd->pending_skip = 0;
    rd->fbuf_n = 0;
    rd->regs[REG_CP_RB_WPTR / 4] = 0;
}

int cg_radeon_cp_reset(cg_radeon *rd)
{
    if (!rd)
        return CG_ERR_INVAL;
    rd_lock(rd);
    rd_cp_reset_nl(rd);
    rd_unlock(rd);
    return 0;
}

/* The host's register access: a dword offset inside the register space. */
static int host_reg_ok(const cg_radeon *rd, uint32_t reg)
{
    if (!rd)
        return CG_ERR_INVAL;
    if (reg & 3)
        return CG_ERR_ALIGN;
    return reg >= CG_RADEON_REG_SPACE ? CG_ERR_RANGE : 0;
}

int cg_radeon_reg_read(cg_radeon *rd, uint32_t reg, uint32_t *val)
{
    int rc = val ? host_reg_ok(rd, reg) : CG_ERR_INVAL;
    if (rc)
        return rc;
    rd_lock(rd);
    rc = rd_reg_read_nl(rd, reg, val);
    rd_unlock(rd);
    return rc;
}

int cg_radeon_reg_write(cg_radeon *rd, uint32_t reg, uint32_t v)
{
    int rc = host_reg_ok(rd, reg);
    if (rc)
        return rc;
    rd_lock(rd);
    rc = rd_reg_write_nl(rd, reg, v);
    rd_unlock(rd);
    return rc;
}

int rd_reg_read_nl(cg_radeon *rd, uint32_t reg, uint32_t *val)
{
    switch (reg) {
    case REG_CP_RB_RPTR: *val = rd->rptr; return 0;
    case REG_CP_RB_WPTR: *val = rd->wptr; return 0;
    case REG_GRBM_STATUS:
        *val = rd_cp_busy(rd) ? RPUT(GRBM_STATUS, CP_BUSY, 1) | RPUT(GRBM_STATUS, GUI_ACTIVE, 1) : 0;
        return 0;
    default: *val = rd->regs[reg / 4]; return 0;
    }
}

int rd_reg_write_nl(cg_radeon *rd, uint32_t reg, uint32_t v)
{
    switch (reg) {
    case REG_CP_RB_WPTR: {
        uint32_t n = rd_ring_dw(rd);
        rd->regs[reg / 4] = v;
        rd->wptr = n ? v & (n - 1) : 0;
        rd_kick(rd);
        return 0;
    }
    case REG_CP_RB_RPTR_WR:
        rd->regs[reg / 4] = v;
        if (RGET(rd->regs[REG_CP_RB_CNTL / 4], CP_RB_CNTL, RB_RPTR_WR_ENA)) {
            uint32_t n = rd_ring_dw(rd);
            rd->rptr = n ? v & (n - 1) : 0;
        }
        return 0;
    case REG_CP_RB_RPTR:
    case REG_GRBM_STATUS:
        return 0; /* read-only */
    case REG_CP_RB_CNTL:
    case REG_CP_RB_BASE:
        rd->regs[reg / 4] = v;
        rd->fbuf_n = 0;
        return 0;
    case REG_CP_INT_STATUS:
        rd->regs[reg / 4] &= ~v; /* acknowledge: clear the bits written as 1 (model) */
        return 0;
    case REG_GRBM_SOFT_RESET:
        rd->regs[reg / 4] = v;
        if (RGET(v, GRBM_SOFT_RESET, SOFT_RESET_CP))
            rd_cp_reset_nl(rd);
        return 0;
    case REG_CP_ME_CNTL: {
        bool was_halted = RGET(rd->regs[reg / 4], CP_ME_CNTL, ME_HALT);
        rd->regs[reg / 4] = v;
        if (was_halted && !RGET(v, CP_ME_CNTL, ME_HALT))
            rd_kick(rd);
        return 0;
    }
    case REG_IH_RB_CNTL:
        if (RGET(v, IH_RB_CNTL, IH_WPTR_OVERFLOW_CLEAR))
            rd->regs[REG_IH_RB_WPTR / 4] &= ~RPUT(IH_RB_WPTR, RB_OVERFLOW, 1);
        rd->regs[reg / 4] = v & ~RPUT(IH_RB_CNTL, IH_WPTR_OVERFLOW_CLEAR, 1);
        return 0;
    default:
        rd->regs[reg / 4] = v;
        if (reg >= REG_SCRATCH_REG0 && reg <= REG_SCRATCH_REG7 && rd->waiting)
            rd_kick(rd); /* WAIT_REG_MEM on a register wakes on CPU writes */
        return 0;
    }
}

/* Write `n` registers starting at `reg` (inc: step 4, else the same one),
 * taking values from the stream at dword k. Plain registers go in bulk. */
int rd_set_regs(cg_radeon *rd, const cpstream *s, uint32_t k, uint32_t reg, uint32_t n, bool inc)
{
    bool trace = cg_trace_enabled(rd->dev);
    while (n) {
        const uint32_t *p;
        long got = rd_fetch_span(rd, s, k, &p);
        if (got < 0)
            return (int)got;
        uint32_t m = (uint32_t)got < n ? (uint32_t)got : n;
        if (inc && !trace) {
            /* Fast path: copy runs of plain registers. */
            uint32_t i = 0;
            while (i < m) {
                uint32_t r = reg + 4 * i;
                if (rd_is_special(rd, r)) {
                    int rc = rd_cp_reg_write(rd, r, p[i]);
                    if (rc != 0)
                        return rc;
                    if (rd->fbuf_n == 0 && i + 1 < m) { /* a writeback hit the buffer */
                        m = i + 1;
                        break;
                    }
                    i++;
                    continue;
                }
                /* Extend the run; whole bitmap bytes (8 registers) at a time. */
                uint32_t j = i + 1;
                while (j < m) {
                    uint32_t rj = reg + 4 * j;
                    if ((rj & 31) == 0 && j + 8 <= m && rd->special[rj >> 5] == 0) {
                        j += 8;
                        continue;
                    }
                    if (rd_is_special(rd, rj))
                        break;
                    j++;
                }
                memcpy(&rd->regs[r / 4], p + i, 4 * (size_t)(j - i));
                i = j;
            }
        } else {
            for (uint32_t i = 0; i < m; i++) {
                int rc = rd_cp_reg_write(rd, inc ? reg + 4 * i : reg, p[i]);
                if (rc != 0)
                    return rc;
                if (rd->fbuf_n == 0 && i + 1 < m) {
                    m = i + 1;
                    break;
                }
            }
        }
        if (inc)
            reg += 4 * m;
        k += m;
        n -= m;
    }
    return 0;
}


int rd_exec_SET(cg_radeon *rd, const rd_pkt *x)
{
    unsigned op = RD_PKT3_OPCODE(x->hdr);
    const p3_desc *d = &rd->p3[op];
    uint32_t start = rd->win_start[op], end = rd->win_end[op];
    uint64_t reg = (uint64_t)start + 4ull * x->p[1];
    uint64_t last = reg + 4ull * x->count; /* x->count registers: payload - 1 */
    if (x->count == 0 || reg >= end || last > end)
        return rd_cp_fault(rd, CG_FAULT_INVALID_METHOD, reg, false,
                           "%s writes 0x%llx..0x%llx outside its window [0x%x, 0x%x)", d->name,
                        (unsigned long long)reg, (unsigned long long)(last - 4), start, end);
    return rd_set_regs(rd, x->s, 2, (uint32_t)reg, x->count, true) ? CG_ERR_FAULT : EXEC_OK;
}
