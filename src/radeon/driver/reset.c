/* radeon family, driver side: lockup detection and GPU reset, shaped like
 * linux radeon_ring_test_lockup (radeon_ring.c) and radeon_gpu_reset
 * (radeon_device.c): ring backup, CP restart, replay. The fence wait
 * (fence.c) asks rd_test_lockup while it waits. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "radeon/radeon_internal.h"

bool cg_radeon_lockup_detected(const cg_radeon_drv *drv) { return drv->lockup; }
const char *cg_radeon_lockup_log(const cg_radeon_drv *drv) { return drv->lockup_log; }
unsigned cg_radeon_reset_count(const cg_radeon_drv *drv) { return drv->resets; }

/* radeon_ring_test_lockup: rptr moved -> note the activity; otherwise a
 * lockup once it has not moved for lockup_polls polls. Time is counted in
 * polls of the fence wait (deterministic mode has no clock; in threaded mode
 * a poll is a 1 ms slice). Called by the waiting thread (with fence_lock
 * held in threaded mode). */
bool rd_test_lockup(cg_radeon_drv *drv)
{
    uint32_t rptr;
    cg_radeon_reg_read(drv->gpu, REG_CP_RB_RPTR, &rptr);
    drv->polls++;
    if (rptr != drv->last_rptr) {
        drv->last_rptr = rptr;
        drv->last_activity = drv->polls;
        return false;
    }
    uint32_t limit = drv->cfg.lockup_polls ? drv->cfg.lockup_polls : 10000;
    if (drv->polls - drv->last_activity < limit)
        return false;
    snprintf(drv->lockup_log, sizeof drv->lockup_log,
             "ring 0 stalled for more than %llu polls\n"
             "GPU lockup (current fence id 0x%016llx last fence id 0x%016llx on ring 0)\n",
             (unsigned long long)(drv->polls - drv->last_activity),
             (unsigned long long)drv->last_seq, (unsigned long long)drv->fence_seq);
    drv->lockup = true;
    return true;
}

/* What radeon_resume does before the ring comes back (r600_startup):
 * radeon_wb_init ("clear wb memory") and r600_irq_init, then r600_cp_resume
 * and r600_cp_start. Of the writeback page the model clears the CP's rptr
 * copy (r600_cp_start locks the ring while the CP is still halted, and a
 * stale copy from the hung run would make the new ring look full) and the
 * IH wptr copy (with the IH ring); the fence slot keeps its value, as
 * radeon_fence_driver_start_ring writes last_seq back to it. The IH is
 * programmed again because the host may have broken it (IH_RB_BASE). */
static int reset_and_restart(cg_radeon_drv *drv)
{
    cg_radeon_cpu_write32(drv->gpu, drv->wb_gpu + WB_CP_RPTR, 0);
    rd_flock(drv);
    rd_ih_init(drv);
    rd_funlock(drv);
    return rd_cp_start(drv);
}

int cg_radeon_gpu_reset(cg_radeon_drv *drv, uint32_t *saved_dw)
{
    if (!drv || drv->locked)
        return CG_ERR_INVAL;
    /* radeon_ring_backup: from the next-rptr record (rptr_save_reg, written
     * by the CP before each INDIRECT_BUFFER) to wptr. */
    uint32_t ptr = 0;
    cg_radeon_reg_read(drv->gpu, drv->rptr_save_reg, &ptr);
    ptr &= drv->ptr_mask;
    uint32_t size = (drv->wptr + drv->ring_dw - ptr) & drv->ptr_mask;
    uint32_t *saved = NULL;
    if (size) {
        saved = malloc(4ull * size);
        if (!saved)
            return CG_ERR_NOMEM;
        for (uint32_t i = 0; i < size; i++)
            saved[i] = drv->ring[(ptr + i) & drv->ptr_mask];
    }
    size_t len = strlen(drv->lockup_log);
    snprintf(drv->lockup_log + len, sizeof drv->lockup_log - len,
             "Saved %u dwords of commands on ring 0.\n", size);
    /* Reset and restart the CP (r600_cp_resume + r600_cp_start). */
    int rc = reset_and_restart(drv);
    /* radeon_ring_restore: replay the saved dwords. */
    if (rc == 0 && size) {
        rc = cg_radeon_ring_lock(drv, size);
        if (rc == 0) {
            for (uint32_t i = 0; i < size; i++)
                cg_radeon_ring_write(drv, saved[i]);
            rc = cg_radeon_ring_unlock_commit(drv);
        }
    }
    free(saved);
    char msg[128];
    if (rc == 0) {
        rc = cg_radeon_ring_test(drv, msg, sizeof msg);
        len = strlen(drv->lockup_log);
        snprintf(drv->lockup_log + len, sizeof drv->lockup_log - len, "%s\n", msg);
    }
    if (rc != 0 && size) {
        /* The replayed commands hung the CP again. radeon_gpu_reset returns
         * -EAGAIN when radeon_ib_ring_tests fail after a restore (and keeps
         * needs_reset for another reset). The model does not retry a replay
         * that hangs each time: it resets once more without the saved
         * commands and completes the pending fences, as radeon_gpu_reset
         * does for a ring it has no data to restore
         * (radeon_fence_driver_force_completion). */
        len = strlen(drv->lockup_log);
        snprintf(drv->lockup_log + len, sizeof drv->lockup_log - len,
                 "The replayed commands failed; reset again without them.\n");
        rc = reset_and_restart(drv);
        if (rc == 0) {
            rd_fence_force_completion(drv);
            rc = cg_radeon_ring_test(drv, msg, sizeof msg);
            len = strlen(drv->lockup_log);
            snprintf(drv->lockup_log + len, sizeof drv->lockup_log - len, "%s\n", msg);
        }
    }
    drv->lockup = false;
    drv->resets++;
    cg_radeon_reg_read(drv->gpu, REG_CP_RB_RPTR, &drv->last_rptr);
    drv->last_activity = drv->polls;
    if (saved_dw)
        *saved_dw = size;
    return rc;
}
