/* radeon family, GPU side: type-3 dispatch through opcode-indexed handler
 * tables built from pm4_*.def (as linux vc4_validate.c cmd_info[]), and the
 * packets with little to do: NOP (trace points), draws (recorded),
 * ME_INITIALIZE, INDIRECT_BUFFER, the unsupported ones. */
#include <stdlib.h>
#include <string.h>
#include "cp_internal.h"

static void record_draw(cg_radeon *rd, unsigned op, uint32_t count, const uint32_t *dw, unsigned n)
{
    if (rd->ndraws >= CG_RADEON_DRAW_LOG_MAX)
        return;
    if (!rd->draws) {
        rd->draws = calloc(CG_RADEON_DRAW_LOG_MAX, sizeof(*rd->draws));
        if (!rd->draws)
            return;
    }
    cg_radeon_draw *d = &rd->draws[rd->ndraws++];
    d->opcode = op;
    d->name = rd->p3[op].name;
    d->stream_addr = rd->agent.stream_addr;
    d->count = count;
    for (unsigned i = 0; i < n && i < 6; i++)
        d->dw[i] = dw[i];
}

size_t cg_radeon_draw_count(const cg_radeon *rd)
{
    cg_radeon *m = (cg_radeon *)rd;
    rd_lock(m);
    size_t n = rd->ndraws;
    rd_unlock(m);
    return n;
}
/* Entries never change once recorded; the log array is allocated once. */
const cg_radeon_draw *cg_radeon_draw_get(const cg_radeon *rd, size_t i)
{
    return i < cg_radeon_draw_count(rd) ? &rd->draws[i] : NULL;
}


int rd_mem_read32(cg_radeon *rd, uint64_t va, uint32_t *v)
{
    int rc = cg_vas_read32(rd->vas, va, v, &rd->agent);
    if (rc != 0)
        rd->stopped = true;
    return rc;
}


int rd_exec_NOP(cg_radeon *rd, const rd_pkt *x)
{
    /* Trace point: NOP with count 0 and 0xCAFE0000 | id (Mesa ac_debug.c,
     * "the last trace point that was reached by the CP"). */
    if (x->count == 0 && (x->p[1] & 0xFFFF0000u) == 0xCAFE0000u) {
        rd->trace_valid = true;
        rd->last_trace = x->p[1] & 0xFFFF;
    }
    return EXEC_OK;
}

int rd_exec_ACCEPT(cg_radeon *rd, const rd_pkt *x)
{
    return EXEC_OK;
}

int rd_exec_DRAW(cg_radeon *rd, const rd_pkt *x)
{
    unsigned op = RD_PKT3_OPCODE(x->hdr);
    record_draw(rd, op, x->count, x->p + 1, x->count + 1 < 6 ? x->count + 1 : 6);
    return EXEC_OK;
}

int rd_exec_UNSUPP(cg_radeon *rd, const rd_pkt *x)
{
    unsigned op = RD_PKT3_OPCODE(x->hdr);
    const p3_desc *d = &rd->p3[op];
    return rd_cp_fault(rd, CG_FAULT_UNSUPPORTED, 0, false,
                       "packet %s is decoded but not supported yet", d->name);
}

int rd_exec_ME_INIT(cg_radeon *rd, const rd_pkt *x)
{
    rd->me_initialized = true;
    return EXEC_OK;
}

int rd_exec_IB(cg_radeon *rd, const rd_pkt *x)
{
    if (rd->depth >= 2)
        return rd_cp_fault(rd, CG_FAULT_DEPTH, 0, false,
                           "INDIRECT_BUFFER inside IB2: the CP has two IB levels");
    uint32_t swap = PGET(x->p[1], INDIRECT_BUFFER_DW1, IB_SWAP);
    if (swap)
        return rd_cp_fault(rd, CG_FAULT_UNSUPPORTED, 0, false,
                           "INDIRECT_BUFFER swap mode %u (big-endian) is not supported yet", swap);
    uint64_t base = addr40(x->p[1] & PMASK(INDIRECT_BUFFER_DW1, IB_BASE_LO),
                           PGET(x->p[2], INDIRECT_BUFFER_DW2, IB_BASE_HI));
    uint32_t size = PGET(x->p[3], INDIRECT_BUFFER_DW3, IB_SIZE);
    if (x->p[3] & ~PMASK(INDIRECT_BUFFER_DW3, IB_SIZE))
        return rd_cp_fault(rd, CG_FAULT_BAD_STATE, base, false,
                           "INDIRECT_BUFFER size dword 0x%08x has bits above IB_SIZE", x->p[3]);
    if (size == 0)
        return EXEC_OK;
    rd->ib[rd->depth] = (rd_ib){.base = base, .size = size, .pos = 0};
    return EXEC_PUSH;
}

/* The handler of every opcode of a generation, from its .def's kind column;
 * opcodes not in the table get the UNSUPP handler (run_loop faults on them
 * first). */
#define P3(name, op, kind, mn, mx) [op] = rd_exec_##kind,
#define W(name, start, end)
static const rd_exec_fn exec_r600[256] = {
#include "radeon/tables/pm4_r600.def"
};
static const rd_exec_fn exec_evergreen[256] = {
#include "radeon/tables/pm4_evergreen.def"
};
static const rd_exec_fn exec_r500[256] = {
#include "radeon/tables/pm4_r500.def"
};
#undef P3
#undef W

int rd_exec_type3(cg_radeon *rd, const cpstream *s, uint32_t hdr, const uint32_t *p, uint32_t count)
{
    const rd_exec_fn *t = rd->cfg.gen == CG_RADEON_EVERGREEN ? exec_evergreen
                          : rd->cfg.gen == CG_RADEON_R500    ? exec_r500
                                                             : exec_r600;
    rd_pkt x = {.s = s, .hdr = hdr, .count = count, .p = p};
    rd_exec_fn f = t[RD_PKT3_OPCODE(hdr)];
    return (f ? f : rd_exec_UNSUPP)(rd, &x);
}
