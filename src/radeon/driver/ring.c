/* radeon family, driver side: bring-up and the ring, shaped like the Linux
 * radeon driver (drivers/gpu/drm/radeon/radeon_ring.c, r600.c
 * r600_cp_resume / r600_cp_start / r600_ring_init, r600_irq_init), as
 * summarised in research/radeon.md sections 1 and 4. */
#include <stdlib.h>
#include <string.h>
#include "radeon/radeon_internal.h"

static int wreg(cg_radeon_drv *drv, uint32_t reg, uint32_t v)
{
    return cg_radeon_reg_write(drv->gpu, reg, v);
}

static uint32_t rreg(cg_radeon_drv *drv, uint32_t reg)
{
    uint32_t v = 0;
    cg_radeon_reg_read(drv->gpu, reg, &v);
    return v;
}

static unsigned order_base_2(uint64_t n)
{
    unsigned o = 0;
    while ((1ull << o) < n)
        o++;
    return o;
}

cg_radeon *cg_radeon_drv_gpu(const cg_radeon_drv *drv) { return drv->gpu; }
uint64_t cg_radeon_ring_addr(const cg_radeon_drv *drv) { return drv->ring_gpu; }
uint64_t cg_radeon_wb_addr(const cg_radeon_drv *drv) { return drv->wb_gpu; }

/* r600_cp_resume + r600_cp_start: soft-reset the CP, program the ring,
 * rptr writeback and scratch writeback, then ME_INITIALIZE and unhalt. */
int rd_cp_start(cg_radeon_drv *drv)
{
    cg_radeon *rd = drv->gpu;
    int rc;
    unsigned rb_bufsz = order_base_2(drv->ring_dw / 2);
    /* Halt the CP first (r600_cp_stop, and r600_gpu_soft_reset's "Disable
     * CP parsing/prefetching"): the ring registers below are programmed one
     * by one, and a running CP would fetch or write rptr back through the
     * old, possibly bad, values in between. r600_cp_start unhalts it. */
    wreg(drv, REG_CP_ME_CNTL, RPUT(CP_ME_CNTL, ME_HALT, 1));
    wreg(drv, REG_GRBM_SOFT_RESET, RPUT(GRBM_SOFT_RESET, SOFT_RESET_CP, 1));
    rreg(drv, REG_GRBM_SOFT_RESET);
    wreg(drv, REG_GRBM_SOFT_RESET, 0);
    uint32_t blk = order_base_2(4096 / 8); /* log2(RADEON_GPU_PAGE_SIZE / 8) */
    uint32_t cntl = RPUT(CP_RB_CNTL, RB_BLKSZ, blk) | RPUT(CP_RB_CNTL, RB_BUFSZ, rb_bufsz);
    wreg(drv, REG_CP_RB_CNTL, cntl | RPUT(CP_RB_CNTL, RB_RPTR_WR_ENA, 1));
    wreg(drv, REG_CP_RB_WPTR_DELAY, 0);
    wreg(drv, REG_CP_RB_RPTR_WR, 0);
    wreg(drv, REG_CP_RB_WPTR, 0);
    uint64_t rptr_addr = drv->wb_gpu + WB_CP_RPTR;
    wreg(drv, REG_CP_RB_RPTR_ADDR, (uint32_t)rptr_addr & RMASK(CP_RB_RPTR_ADDR, RB_RPTR_ADDR_LO));
    wreg(drv, REG_CP_RB_RPTR_ADDR_HI, (uint32_t)(rptr_addr >> 32) & 0xFF);
    wreg(drv, REG_SCRATCH_ADDR, (uint32_t)((drv->wb_gpu + WB_SCRATCH) >> 8));
    if (drv->cfg.no_writeback) {
        cntl |= RPUT(CP_RB_CNTL, RB_NO_UPDATE, 1);
        wreg(drv, REG_SCRATCH_UMSK, 0);
    } else {
        wreg(drv, REG_SCRATCH_UMSK, 0xff);
    }
    wreg(drv, REG_CP_RB_CNTL, cntl);
    wreg(drv, REG_CP_RB_BASE, (uint32_t)(drv->ring_gpu >> 8));
    drv->wptr = drv->rptr = 0;
    drv->ring_free_dw = drv->ring_dw;

    /* r600_cp_start: ME_INITIALIZE, then CP_ME_CNTL = 0xff (halt clear). */
    if ((rc = cg_radeon_ring_lock(drv, 7)) != 0)
        return rc;
    cg_radeon_ring_write(drv, CG_RADEON_PACKET3(RD_OP_ME_INITIALIZE, 5));
    cg_radeon_ring_write(drv, 0x1);
    cg_radeon_ring_write(drv, rd->cfg.gen == CG_RADEON_R600 ? 0x3 : 0x0);
    cg_radeon_ring_write(drv, 8 - 1); /* max_hw_contexts - 1 */
    cg_radeon_ring_write(drv, PPUT(ME_INITIALIZE_DW5, DEVICE_ID, 1)); /* PACKET3_ME_INITIALIZE_DEVICE_ID(1) */
    cg_radeon_ring_write(drv, 0);
    cg_radeon_ring_write(drv, 0);
    if ((rc = cg_radeon_ring_unlock_commit(drv)) != 0)
        return rc;
    wreg(drv, REG_CP_ME_CNTL, 0xff);
    if (rd->stopped)
        return CG_ERR_FAULT;
    return 0;
}

/* r600_irq_init: IH ring, wptr writeback, interrupts on; the driver's read
 * pointer and the wptr copy start at 0 (the writeback page is cleared by
 * radeon_wb_init before it on resume). Called with fence_lock held in
 * threaded mode, so the IH thread never sees a half-reset ring. */
void rd_ih_init(cg_radeon_drv *drv)
{
    drv->ih_rptr = 0;
    cg_radeon_cpu_write32(drv->gpu, drv->wb_gpu + WB_IH_WPTR, 0);
    wreg(drv, REG_IH_RB_BASE, (uint32_t)(drv->ih_gpu >> 8));
    uint64_t ihw = drv->wb_gpu + WB_IH_WPTR;
    wreg(drv, REG_IH_RB_WPTR_ADDR_LO, (uint32_t)ihw & 0xFFFFFFFC);
    wreg(drv, REG_IH_RB_WPTR_ADDR_HI, (uint32_t)(ihw >> 32) & 0xFF);
    wreg(drv, REG_IH_RB_CNTL,
         RPUT(IH_RB_CNTL, IH_WPTR_OVERFLOW_ENABLE, 1) |
             RPUT(IH_RB_CNTL, IH_WPTR_OVERFLOW_CLEAR, 1) |
             RPUT(IH_RB_CNTL, IH_IB_SIZE, order_base_2(drv->ih_dw)) |
             RPUT(IH_RB_CNTL, IH_WPTR_WRITEBACK_ENABLE, 1) | RPUT(IH_RB_CNTL, IH_RB_ENABLE, 1));
    wreg(drv, REG_IH_RB_RPTR, 0);
    wreg(drv, REG_IH_RB_WPTR, 0);
    /* r600_irq_set with a fence waiter: RB_INT_ENABLE | TIME_STAMP_INT_ENABLE
     * (the model keeps them on instead of refcounting). */
    wreg(drv, REG_CP_INT_CNTL,
         RPUT(CP_INT_CNTL, RB_INT_ENABLE, 1) | RPUT(CP_INT_CNTL, TIME_STAMP_INT_ENABLE, 1));
}

int cg_radeon_drv_create(cg_radeon *rd, const cg_radeon_drv_config *cfg, cg_radeon_drv **out)
{
    if (!rd || !out)
        return CG_ERR_INVAL;
    *out = NULL;
    if (rd->cfg.gen == CG_RADEON_R500)
        return CG_ERR_UNSUPPORTED; /* the driver side speaks the R600 register map */
    cg_radeon_drv_config c = cfg ? *cfg : (cg_radeon_drv_config){0};
    if (!c.ring_bytes)
        c.ring_bytes = 64 * 1024;
    if (!c.ib_dw)
        c.ib_dw = 256;
    if (!c.nib)
        c.nib = 16;
    if (!c.usec_timeout)
        c.usec_timeout = 100000; /* rdev->usec_timeout: 100 ms */
    if (c.ring_bytes > (8u << 22) || c.ib_dw > (1u << 20) || c.nib > 1024)
        return CG_ERR_INVAL;

    cg_radeon_drv *drv = calloc(1, sizeof(*drv));
    if (!drv)
        return CG_ERR_NOMEM;
    drv->gpu = rd;
    drv->cfg = c;
    if (rd->threaded) {
        drv->threaded = true;
        pthread_mutex_init(&drv->fence_lock, NULL);
        pthread_cond_init(&drv->fence_cond, NULL);
    }
    /* r600_ring_init: rb_bufsz = order_base_2(size / 8); size = (1 <<
     * (rb_bufsz + 1)) * 4; at least 64 dwords here so a fence fits. */
    unsigned rb_bufsz = order_base_2(c.ring_bytes / 8);
    if (rb_bufsz < 5)
        rb_bufsz = 5;
    drv->ring_dw = 2u << rb_bufsz;
    drv->ptr_mask = drv->ring_dw - 1;
    drv->align_mask = 15; /* "We pad to match fetch size": 16 dwords on R600 */
    drv->ih_dw = RD_IH_BYTES / 4;
    int rc = CG_ERR_NOMEM;
    drv->ring = calloc(drv->ring_dw, 4);
    drv->ibs = calloc(c.nib, sizeof(*drv->ibs));
    drv->ib_used = calloc(c.nib, sizeof(bool));
    if (!drv->ring || !drv->ibs || !drv->ib_used)
        goto fail;
    for (uint32_t i = 0; i < c.nib; i++) {
        drv->ibs[i].ptr = calloc(c.ib_dw, 4);
        if (!drv->ibs[i].ptr)
            goto fail;
        drv->ibs[i].max_dw = c.ib_dw;
        drv->ibs[i].slot = (int)i;
    }
    /* Ring, writeback page, IH ring and IB pool live in the GTT. */
    if ((rc = cg_radeon_alloc(rd, CG_RADEON_GTT, 4ull * drv->ring_dw, 4096, &drv->ring_gpu)) ||
        (rc = cg_radeon_alloc(rd, CG_RADEON_GTT, 4096, 4096, &drv->wb_gpu)) ||
        (rc = cg_radeon_alloc(rd, CG_RADEON_GTT, RD_IH_BYTES, 4096, &drv->ih_gpu)) ||
        (rc = cg_radeon_alloc(rd, CG_RADEON_GTT, 4ull * c.ib_dw * c.nib, 4096, &drv->ib_gpu)))
        goto fail;
    for (uint32_t i = 0; i < c.nib; i++)
        drv->ibs[i].gpu_addr = drv->ib_gpu + 4ull * c.ib_dw * i;
    for (int i = 0; i < RD_NSCRATCH; i++)
        drv->scratch_free[i] = true;
    /* r600_ring_init keeps one scratch register for the IB next-rptr record;
     * the scratch-fence path keeps another for the sequence number. */
    if ((rc = cg_radeon_scratch_get(drv, &drv->rptr_save_reg)) != 0 ||
        (rc = cg_radeon_scratch_get(drv, &drv->fence_scratch)) != 0)
        goto fail;

    rd_ih_init(drv);

    if ((rc = rd_cp_start(drv)) != 0)
        goto fail;
    if (drv->threaded) {
        if (pthread_create(&drv->ih_thread, NULL, rd_ih_thread, drv) != 0) {
            rc = CG_ERR_NOMEM;
            goto fail;
        }
        drv->ih_started = true;
    }
    *out = drv;
    return 0;
fail:
    cg_radeon_drv_destroy(drv);
    return rc;
}

void cg_radeon_drv_destroy(cg_radeon_drv *drv)
{
    if (!drv)
        return;
    if (drv->ih_started) {
        rd_irq_wake(drv->gpu, &drv->ih_stop);
        pthread_join(drv->ih_thread, NULL);
    }
    if (drv->threaded) {
        pthread_cond_destroy(&drv->fence_cond);
        pthread_mutex_destroy(&drv->fence_lock);
    }
    if (drv->ibs)
        for (uint32_t i = 0; i < drv->cfg.nib; i++)
            free(drv->ibs[i].ptr);
    free(drv->ibs);
    free(drv->ib_used);
    free(drv->ring);
    free(drv);
}

/* ---- scratch registers (radeon_scratch_get/free) ---- */

int cg_radeon_scratch_get(cg_radeon_drv *drv, uint32_t *reg)
{
    if (!drv || !reg)
        return CG_ERR_INVAL;
    for (int i = 0; i < RD_NSCRATCH; i++)
        if (drv->scratch_free[i]) {
            drv->scratch_free[i] = false;
            *reg = REG_SCRATCH_REG0 + 4u * (uint32_t)i;
            return 0;
        }
    return CG_ERR_BUSY; /* radeon: -EINVAL "failed to get scratch reg" */
}

void cg_radeon_scratch_free(cg_radeon_drv *drv, uint32_t reg)
{
    if (drv && reg >= REG_SCRATCH_REG0 && reg < REG_SCRATCH_REG0 + 4 * RD_NSCRATCH && !(reg & 3))
        drv->scratch_free[(reg - REG_SCRATCH_REG0) / 4] = true;
}

/* ---- the ring (radeon_ring.c) ---- */

/* radeon_ring_free_size: rptr from the writeback copy (CP_RB_RPTR_ADDR) or,
 * without writeback, MMIO CP_RB_RPTR; free = (rptr + size - wptr) & mask, 0
 * meaning empty. */
int rd_ring_free_update(cg_radeon_drv *drv)
{
    uint32_t rptr;
    if (drv->cfg.no_writeback) {
        rptr = rreg(drv, REG_CP_RB_RPTR);
    } else {
        int rc = cg_radeon_cpu_read32(drv->gpu, drv->wb_gpu + WB_CP_RPTR, &rptr);
        if (rc != 0)
            return rc;
    }
    drv->rptr = rptr & drv->ptr_mask;
    drv->ring_free_dw = (drv->rptr + drv->ring_dw - drv->wptr) & drv->ptr_mask;
    if (!drv->ring_free_dw)
        drv->ring_free_dw = drv->ring_dw;
    return 0;
}

void cg_radeon_ring_info(cg_radeon_drv *drv, uint32_t *size_dw, uint32_t *wptr, uint32_t *rptr,
                         uint32_t *free_dw)
{
    rd_ring_free_update(drv);
    if (size_dw)
        *size_dw = drv->ring_dw;
    if (wptr)
        *wptr = drv->wptr;
    if (rptr)
        *rptr = drv->rptr;
    if (free_dw)
        *free_dw = drv->ring_free_dw;
}

int cg_radeon_ring_lock(cg_radeon_drv *drv, unsigned ndw)
{
    if (!drv || drv->locked)
        return CG_ERR_INVAL;
    /* radeon_ring_alloc: "make sure we aren't trying to allocate more space
     * than there is on the ring" */
    if (ndw > drv->ring_dw)
        return CG_ERR_INVAL;
    int rc = rd_ring_free_update(drv);
    if (rc != 0)
        return rc;
    ndw = (ndw + drv->align_mask) & ~drv->align_mask;
    /* One slot always stays empty: wait while ndw > free - 1. Waiting means
     * running the CP and processing interrupts (radeon_fence_wait_next). */
    uint32_t tries = 0;
    while (ndw > drv->ring_free_dw - 1) {
        if (ndw >= drv->ring_dw)
            return CG_ERR_INVAL; /* can never fit with the empty slot */
        if (tries++ >= drv->cfg.usec_timeout)
            return CG_ERR_TIMEOUT;
        rc = cg_radeon_run(drv->gpu); /* threaded: a wake-up */
        if (rc == CG_ERR_FAULT)
            return rc;
        if (drv->threaded)
            rd_udelay(drv); /* the CP thread frees space as it goes */
        else
            cg_radeon_irq_process(drv);
        if ((rc = rd_ring_free_update(drv)) != 0)
            return rc;
    }
    drv->count_dw = ndw;
    drv->wptr_old = drv->wptr;
    drv->locked = true;
    return 0;
}

int cg_radeon_ring_write(cg_radeon_drv *drv, uint32_t v)
{
    if (!drv || !drv->locked || drv->count_dw == 0)
        return CG_ERR_RANGE; /* radeon: "radeon: writing more dwords to the ring than expected!" */
    drv->ring[drv->wptr] = v;
    drv->wptr = (drv->wptr + 1) & drv->ptr_mask;
    drv->count_dw--;
    return 0;
}

/* Copy ring dwords [from, to) (masked) into the ring BO. */
static int ring_flush_cpu(cg_radeon_drv *drv, uint32_t from, uint32_t to)
{
    int rc = 0;
    if (from == to)
        return 0;
    if (from < to) {
        rc = rd_cpu_write_quiet(drv->gpu, drv->ring_gpu + 4ull * from, &drv->ring[from],
                              4ull * (to - from));
    } else {
        rc = rd_cpu_write_quiet(drv->gpu, drv->ring_gpu + 4ull * from, &drv->ring[from],
                              4ull * (drv->ring_dw - from));
        if (rc == 0 && to)
            rc = rd_cpu_write_quiet(drv->gpu, drv->ring_gpu, drv->ring, 4ull * to);
    }
    return rc;
}

int cg_radeon_ring_unlock_commit(cg_radeon_drv *drv)
{
    if (!drv || !drv->locked)
        return CG_ERR_INVAL;
    /* radeon_ring_commit: pad with ring->nop (PACKET2 on R600) until wptr is
     * a multiple of the fetch size. The padding always fits: lock rounded
     * ndw up to the alignment. */
    while (drv->wptr & drv->align_mask) {
        drv->ring[drv->wptr] = CG_RADEON_PACKET2(0);
        drv->wptr = (drv->wptr + 1) & drv->ptr_mask;
    }
    drv->locked = false;
    /* Memory is written before the wptr store, in program order: the mb()
     * of radeon_ring_commit (the threaded mode would need release order). */
    int rc = ring_flush_cpu(drv, drv->wptr_old, drv->wptr);
    if (rc != 0)
        return rc;
    drv->count_dw = 0;
    wreg(drv, REG_CP_RB_WPTR, drv->wptr);
    (void)rreg(drv, REG_CP_RB_WPTR); /* posting read, as radeon does */
    /* Deterministic mode: the CP ran inside the wptr write; the interrupt
     * handler runs now, as it would when the GPU raised the interrupt (the
     * threaded mode has its own handler thread). */
    if (!drv->threaded)
        cg_radeon_irq_process(drv);
    return 0;
}

int cg_radeon_ring_unlock_undo(cg_radeon_drv *drv)
{
    if (!drv || !drv->locked)
        return CG_ERR_INVAL;
    drv->wptr = drv->wptr_old;
    drv->count_dw = 0;
    drv->locked = false;
    return 0;
}
