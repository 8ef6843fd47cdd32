/* radeon family, driver side: indirect buffers (radeon_ib_get /
 * radeon_ib_schedule / r600_ring_ib_execute) and the bring-up tests
 * r600_ring_test and r600_ib_test of seed 004. */
#include <stdio.h>
#include <string.h>
#include "radeon/radeon_internal.h"

int cg_radeon_ib_get(cg_radeon_drv *drv, cg_radeon_ib **out)
{
    if (!drv || !out)
        return CG_ERR_INVAL;
    *out = NULL;
    /* A free slot whose last fence has signalled; else wait for the oldest. */
    int best = -1;
    for (uint32_t i = 0; i < drv->cfg.nib; i++) {
        if (drv->ib_used[i])
            continue;
        if (cg_radeon_fence_signaled(drv, drv->ibs[i].fence)) {
            best = (int)i;
            break;
        }
        if (best < 0 || drv->ibs[i].fence < drv->ibs[best].fence)
            best = (int)i;
    }
    if (best < 0)
        return CG_ERR_BUSY; /* every IB is held by the caller */
    cg_radeon_ib *ib = &drv->ibs[best];
    if (!cg_radeon_fence_signaled(drv, ib->fence)) {
        int rc = cg_radeon_fence_wait(drv, ib->fence, drv->cfg.usec_timeout);
        if (rc != 0)
            return rc;
    }
    drv->ib_used[best] = true;
    ib->length_dw = 0;
    memset(ib->ptr, 0, 4ull * ib->max_dw);
    *out = ib;
    return 0;
}

void cg_radeon_ib_free(cg_radeon_drv *drv, cg_radeon_ib *ib)
{
    if (drv && ib && ib->slot >= 0 && (uint32_t)ib->slot < drv->cfg.nib)
        drv->ib_used[ib->slot] = false; /* reused only after its fence */
}

void rd_ring_ib_execute(cg_radeon_drv *drv, uint64_t gpu_addr, uint32_t length_dw)
{
    if (drv->gpu->cfg.gen == CG_RADEON_EVERGREEN) {
        /* evergreen_ring_ib_execute: "set to DX10/11 mode" */
        cg_radeon_ring_write(drv, CG_RADEON_PACKET3(RD_EGOP_MODE_CONTROL, 0));
        cg_radeon_ring_write(drv, 1);
    }
    /* r600_ring_ib_execute: record the rptr after the IB in rptr_save_reg
     * (wptr + 3 for this packet + 4 for INDIRECT_BUFFER), then the IB. The
     * record is where a GPU reset resumes (radeon_ring_backup). */
    uint32_t next_rptr = drv->wptr + 3 + 4;
    cg_radeon_ring_write(drv, CG_RADEON_PACKET3(RD_OP_SET_CONFIG_REG, 1));
    cg_radeon_ring_write(drv, (drv->rptr_save_reg - RD_WIN_SET_CONFIG_REG_START) >> 2);
    cg_radeon_ring_write(drv, next_rptr);
    cg_radeon_ring_write(drv, CG_RADEON_PACKET3(RD_OP_INDIRECT_BUFFER, 2));
    cg_radeon_ring_write(drv, (uint32_t)gpu_addr & PMASK(INDIRECT_BUFFER_DW1, IB_BASE_LO));
    cg_radeon_ring_write(drv, PPUT(INDIRECT_BUFFER_DW2, IB_BASE_HI, (uint32_t)(gpu_addr >> 32)));
    cg_radeon_ring_write(drv, length_dw);
}

int cg_radeon_ib_schedule(cg_radeon_drv *drv, cg_radeon_ib *ib)
{
    if (!drv || !ib || ib->length_dw == 0 || ib->length_dw > ib->max_dw)
        return CG_ERR_INVAL; /* radeon_ib_schedule: "couldn't schedule ib" on length 0 */
    cg_radeon *rd = drv->gpu;
    int rc = rd_cpu_write_quiet(rd, ib->gpu_addr, ib->ptr, 4ull * ib->length_dw);
    if (rc != 0)
        return rc;
    /* 64 dwords, as radeon_ib_schedule locks for the IB and its fence. */
    if ((rc = cg_radeon_ring_lock(drv, 64)) != 0)
        return rc;
    rd_ring_ib_execute(drv, ib->gpu_addr, ib->length_dw);
    uint64_t seq;
    if ((rc = cg_radeon_fence_emit(drv, &seq)) != 0) {
        cg_radeon_ring_unlock_undo(drv);
        return rc;
    }
    ib->fence = seq;
    return cg_radeon_ring_unlock_commit(drv);
}

/* r600_ring_test (seed 004, lines 2287-2325). */
int cg_radeon_ring_test(cg_radeon_drv *drv, char *msg, size_t cap)
{
    uint32_t scratch, tmp = 0;
    unsigned i;
    if (!drv || (!msg && cap))
        return CG_ERR_INVAL;
    int r = cg_radeon_scratch_get(drv, &scratch);
    if (r) {
        snprintf(msg, cap, "radeon: cp failed to get scratch reg (%d).", r);
        return r;
    }
    cg_radeon_reg_write(drv->gpu, scratch, 0xCAFEDEAD);
    r = cg_radeon_ring_lock(drv, 3);
    if (r) {
        snprintf(msg, cap, "radeon: cp failed to lock ring (%d).", r);
        cg_radeon_scratch_free(drv, scratch);
        return r;
    }
    cg_radeon_ring_write(drv, CG_RADEON_PACKET3(RD_OP_SET_CONFIG_REG, 1));
    cg_radeon_ring_write(drv, (scratch - RD_WIN_SET_CONFIG_REG_START) >> 2);
    cg_radeon_ring_write(drv, 0xDEADBEEF);
    cg_radeon_ring_unlock_commit(drv);
    for (i = 0; i < drv->cfg.usec_timeout; i++) {
        cg_radeon_reg_read(drv->gpu, scratch, &tmp);
        if (tmp == 0xDEADBEEF)
            break;
        cg_radeon_run(drv->gpu); /* DRM_UDELAY(1): the CP gets time to run */
        rd_udelay(drv);
    }
    if (i < drv->cfg.usec_timeout) {
        snprintf(msg, cap, "ring test succeeded in %u usecs", i);
    } else {
        snprintf(msg, cap, "ring test failed (scratch(0x%04X)=0x%08X)", scratch, tmp);
        r = CG_ERR_INVAL;
    }
    cg_radeon_scratch_free(drv, scratch);
    return r;
}

/* r600_ib_test (seed 004, lines 2660-2724): the same write in a 16-dword IB
 * padded with PACKET2, scheduled, fenced, then the scratch register polled. */
int cg_radeon_ib_test(cg_radeon_drv *drv, char *msg, size_t cap)
{
    cg_radeon_ib *ib;
    uint32_t scratch, tmp = 0;
    unsigned i;
    if (!drv || (!msg && cap))
        return CG_ERR_INVAL;
    int r = cg_radeon_scratch_get(drv, &scratch);
    if (r) {
        snprintf(msg, cap, "radeon: failed to get scratch reg (%d).", r);
        return r;
    }
    cg_radeon_reg_write(drv->gpu, scratch, 0xCAFEDEAD);
    r = cg_radeon_ib_get(drv, &ib);
    if (r) {
        snprintf(msg, cap, "radeon: failed to get ib (%d).", r);
        cg_radeon_scratch_free(drv, scratch);
        return r;
    }
    ib->ptr[0] = CG_RADEON_PACKET3(RD_OP_SET_CONFIG_REG, 1);
    ib->ptr[1] = (scratch - RD_WIN_SET_CONFIG_REG_START) >> 2;
    ib->ptr[2] = 0xDEADBEEF;
    for (unsigned k = 3; k < 16; k++)
        ib->ptr[k] = CG_RADEON_PACKET2(0);
    ib->length_dw = 16;
    r = cg_radeon_ib_schedule(drv, ib);
    if (r) {
        snprintf(msg, cap, "radeon: failed to schedule ib (%d).", r);
        goto out;
    }
    r = cg_radeon_fence_wait(drv, ib->fence, drv->cfg.usec_timeout);
    if (r) {
        snprintf(msg, cap, "radeon: fence wait failed (%d).", r);
        goto out;
    }
    for (i = 0; i < drv->cfg.usec_timeout; i++) {
        cg_radeon_reg_read(drv->gpu, scratch, &tmp);
        if (tmp == 0xDEADBEEF)
            break;
        cg_radeon_run(drv->gpu);
        rd_udelay(drv);
    }
    if (i < drv->cfg.usec_timeout) {
        snprintf(msg, cap, "ib test succeeded in %u usecs", i);
    } else {
        snprintf(msg, cap, "radeon: ib test failed (scratch(0x%04X)=0x%08X)", scratch, tmp);
        r = CG_ERR_INVAL;
    }
out:
    cg_radeon_ib_free(drv, ib);
    cg_radeon_scratch_free(drv, scratch);
    return r;
}
