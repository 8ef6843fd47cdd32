/* radeon family, driver side: fences and the interrupt handler, shaped like
 * linux radeon_fence.c, r600_fence_ring_emit and r600_irq_process
 * (research/radeon.md sections 1 and 3). */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "radeon_internal.h"

static uint32_t fence_read(cg_radeon_drv *drv)
{
    uint32_t v = 0;
    if (drv->cfg.use_scratch_fence) {
        if (drv->cfg.no_writeback)
            cg_radeon_reg_read(drv->gpu, drv->fence_scratch, &v);
        else
            cg_radeon_cpu_read32(drv->gpu,
                                 drv->wb_gpu + WB_SCRATCH + (drv->fence_scratch - REG_SCRATCH_REG0),
                                 &v);
    } else {
        /* EOP fences land at writeback + 3072 + ring * 4 (ring 0). */
        cg_radeon_cpu_read32(drv->gpu, drv->wb_gpu + WB_EVENTS, &v);
    }
    return v;
}

/* radeon_fence_write: the fence location (writeback page or scratch
 * register) as the CP would leave it. */
static void fence_write(cg_radeon_drv *drv, uint32_t v)
{
    if (drv->cfg.use_scratch_fence && drv->cfg.no_writeback)
        cg_radeon_reg_write(drv->gpu, drv->fence_scratch, v);
    else if (drv->cfg.use_scratch_fence)
        cg_radeon_cpu_write32(
            drv->gpu, drv->wb_gpu + WB_SCRATCH + (drv->fence_scratch - REG_SCRATCH_REG0), v);
    else
        cg_radeon_cpu_write32(drv->gpu, drv->wb_gpu + WB_EVENTS, v);
}

int rd_fence_driver_start(cg_radeon_drv *drv, uint64_t seq)
{
    rd_flock(drv);
    int rc = CG_ERR_BUSY;
    if (drv->last_seq == drv->fence_seq) {
        /* radeon_fence_driver_start_ring: "radeon_fence_write(rdev,
         * atomic64_read(&rdev->fence_drv[ring].last_seq), ring)" */
        drv->fence_seq = drv->last_seq = seq;
        fence_write(drv, (uint32_t)seq);
        rc = 0;
    }
    rd_funlock(drv);
    return rc;
}

/* radeon_fence_driver_force_completion: write the last emitted sequence to
 * the fence location, so every pending fence signals. */
static void fence_force_completion(cg_radeon_drv *drv)
{
    rd_flock(drv);
    fence_write(drv, (uint32_t)drv->fence_seq);
    rd_fence_process(drv);
    rd_funlock(drv);
}

/* radeon_fence_activity: extend the 32-bit hardware value to 64 bits
 * against last_seq and the last emitted sequence. */
void rd_fence_process(cg_radeon_drv *drv)
{
    uint64_t last_seq = drv->last_seq, last_emitted = drv->fence_seq;
    uint64_t seq = fence_read(drv);
    seq |= last_seq & 0xffffffff00000000ull;
    if (seq < last_seq) {
        seq &= 0xffffffffull;
        seq |= last_emitted & 0xffffffff00000000ull;
    }
    if (seq <= last_seq || seq > last_emitted)
        return;
    drv->last_seq = seq;
    if (drv->fence_fn)
        for (uint64_t s = last_seq + 1; s <= seq; s++)
            drv->fence_fn(drv->fence_user, s);
    if (drv->threaded)
        pthread_cond_broadcast(&drv->fence_cond);
}

void cg_radeon_fence_set_callback(cg_radeon_drv *drv, void (*fn)(void *user, uint64_t seq),
                                  void *user)
{
    rd_flock(drv);
    drv->fence_fn = fn;
    drv->fence_user = user;
    rd_funlock(drv);
}

int cg_radeon_fence_emit(cg_radeon_drv *drv, uint64_t *seq_out)
{
    if (!drv || !drv->locked || drv->count_dw < 10)
        return CG_ERR_RANGE; /* the caller locks room for the fence */
    rd_flock(drv);
    uint64_t seq = ++drv->fence_seq;
    rd_funlock(drv);
    cg_radeon_gen gen = drv->gpu->cfg.gen;
    if (!drv->cfg.use_scratch_fence) {
        /* r600_fence_ring_emit with events: flush read caches (TC, VC, SH;
         * FULL_CACHE on R7xx+), then EOP: CACHE_FLUSH_AND_INV_EVENT_TS, index
         * 5, DATA_SEL 1 (low 32 bits), INT_SEL 2 (interrupt after the write). */
        uint32_t cp_coher_cntl = RPUT(CP_COHER_CNTL, TC_ACTION_ENA, 1) |
                                 RPUT(CP_COHER_CNTL, VC_ACTION_ENA, 1) |
                                 RPUT(CP_COHER_CNTL, SH_ACTION_ENA, 1);
        if (gen != CG_RADEON_R600)
            cp_coher_cntl |= RPUT(CP_COHER_CNTL, FULL_CACHE_ENA, 1);
        uint64_t addr = drv->wb_gpu + WB_EVENTS;
        cg_radeon_ring_write(drv, CG_RADEON_PACKET3(OP_SURFACE_SYNC, 3));
        cg_radeon_ring_write(drv, cp_coher_cntl);
        cg_radeon_ring_write(drv, 0xFFFFFFFF);
        cg_radeon_ring_write(drv, 0);
        cg_radeon_ring_write(drv, 10);
        cg_radeon_ring_write(drv, CG_RADEON_PACKET3(OP_EVENT_WRITE_EOP, 4));
        cg_radeon_ring_write(drv, PPUT(EVENT_WRITE_EOP_DW1, EOP_EVENT_TYPE,
                                       EV_CACHE_FLUSH_AND_INV_EVENT_TS) |
                                      PPUT(EVENT_WRITE_EOP_DW1, EOP_EVENT_INDEX, 5));
        cg_radeon_ring_write(drv, (uint32_t)addr & 0xFFFFFFFC);
        cg_radeon_ring_write(drv, ((uint32_t)(addr >> 32) & 0xff) |
                                      PPUT(EVENT_WRITE_EOP_DW3, DATA_SEL, 1) |
                                      PPUT(EVENT_WRITE_EOP_DW3, INT_SEL, 2));
        cg_radeon_ring_write(drv, (uint32_t)seq);
        cg_radeon_ring_write(drv, 0);
    } else {
        /* Without events: flush, wait for 3D idle-clean, write the sequence to
         * a scratch register, raise the RB interrupt with PACKET0. */
        cg_radeon_ring_write(drv, CG_RADEON_PACKET3(OP_EVENT_WRITE, 0));
        cg_radeon_ring_write(drv, PPUT(EVENT_WRITE_DW1, EVENT_TYPE, EV_CACHE_FLUSH_AND_INV_EVENT));
        cg_radeon_ring_write(drv, CG_RADEON_PACKET3(OP_SET_CONFIG_REG, 1));
        cg_radeon_ring_write(drv, (REG_WAIT_UNTIL - 0x8000) >> 2);
        cg_radeon_ring_write(drv, RPUT(WAIT_UNTIL, WAIT_3D_IDLE, 1) |
                                      RPUT(WAIT_UNTIL, WAIT_3D_IDLECLEAN, 1));
        cg_radeon_ring_write(drv, CG_RADEON_PACKET3(OP_SET_CONFIG_REG, 1));
        cg_radeon_ring_write(drv, (drv->fence_scratch - 0x8000) >> 2);
        cg_radeon_ring_write(drv, (uint32_t)seq);
        cg_radeon_ring_write(drv, CG_RADEON_PACKET0(REG_CP_INT_STATUS, 0));
        cg_radeon_ring_write(drv, RPUT(CP_INT_STATUS, RB_INT_STAT, 1));
    }
    if (seq_out)
        *seq_out = seq;
    return 0;
}

bool cg_radeon_fence_signaled(cg_radeon_drv *drv, uint64_t seq)
{
    rd_flock(drv);
    if (drv->last_seq < seq)
        rd_fence_process(drv);
    bool sig = drv->last_seq >= seq;
    rd_funlock(drv);
    return sig;
}

uint64_t cg_radeon_fence_last(cg_radeon_drv *drv)
{
    rd_flock(drv);
    uint64_t v = drv->last_seq;
    rd_funlock(drv);
    return v;
}

uint64_t cg_radeon_fence_emitted(cg_radeon_drv *drv)
{
    rd_flock(drv);
    uint64_t v = drv->fence_seq;
    rd_funlock(drv);
    return v;
}

int rd_fence_wait_lockup(cg_radeon_drv *drv, uint64_t seq, uint32_t timeout_us);

int cg_radeon_fence_wait(cg_radeon_drv *drv, uint64_t seq, uint32_t timeout_us)
{
    if (!drv)
        return CG_ERR_INVAL;
    return rd_fence_wait_lockup(drv, seq, timeout_us);
}

uint64_t cg_radeon_irq_count(cg_radeon_drv *drv, unsigned src_id)
{
    rd_flock(drv);
    uint64_t v = src_id < 256 ? drv->irq_counts[src_id] : 0;
    rd_funlock(drv);
    return v;
}

/* r600_irq_process: read wptr (writeback copy), handle entries from rptr to
 * wptr, write IH_RB_RPTR, re-read wptr and repeat until drained. On overflow
 * (RB_OVERFLOW) skip to the oldest entry not overwritten and clear it via
 * IH_WPTR_OVERFLOW_CLEAR (r600_get_ih_wptr). Called with fence_lock held. */
int rd_irq_process_locked(cg_radeon_drv *drv)
{
    cg_radeon *rd = drv->gpu;
    uint32_t mask = drv->ih_dw * 4 - 1;
    int handled = 0;
    for (int round = 0; round < 4; round++) {
        uint32_t wptr;
        if (cg_radeon_cpu_read32(rd, drv->wb_gpu + WB_IH_WPTR, &wptr) != 0)
            return CG_ERR_FAULT;
        if (RGET(wptr, IH_RB_WPTR, RB_OVERFLOW)) {
            wptr &= ~RPUT(IH_RB_WPTR, RB_OVERFLOW, 1);
            drv->ih_rptr = (wptr + 16) & mask;
            uint32_t cntl;
            cg_radeon_reg_read(rd, REG_IH_RB_CNTL, &cntl);
            cg_radeon_reg_write(rd, REG_IH_RB_CNTL,
                                cntl | RPUT(IH_RB_CNTL, IH_WPTR_OVERFLOW_CLEAR, 1));
        }
        wptr &= mask;
        if (wptr == drv->ih_rptr)
            break;
        bool fence = false;
        while (drv->ih_rptr != wptr) {
            uint32_t src_id;
            if (cg_radeon_cpu_read32(rd, drv->ih_gpu + drv->ih_rptr, &src_id) != 0)
                return CG_ERR_FAULT;
            src_id &= 0xff;
            drv->irq_counts[src_id]++;
            if (src_id == CG_RADEON_IH_CP_RB || src_id == CG_RADEON_IH_CP_EOP)
                fence = true;
            drv->ih_rptr = (drv->ih_rptr + 16) & mask;
            handled++;
        }
        cg_radeon_reg_write(rd, REG_IH_RB_RPTR, drv->ih_rptr);
        if (fence)
            rd_fence_process(drv);
    }
    return handled;
}

int cg_radeon_irq_process(cg_radeon_drv *drv)
{
    if (!drv)
        return CG_ERR_INVAL;
    rd_flock(drv);
    int n = rd_irq_process_locked(drv);
    rd_funlock(drv);
    return n;
}

/* The interrupt handler thread (threaded mode): sleeps until the CP posts an
 * interrupt, then drains the IH ring like r600_irq_process, signalling
 * fences and waking their waiters. */
void *rd_ih_thread(void *arg)
{
    cg_radeon_drv *drv = arg;
    uint64_t seen = 0;
    while (!rd_irq_wait(drv->gpu, &seen, &drv->ih_stop))
        cg_radeon_irq_process(drv);
    return NULL;
}

void rd_udelay(cg_radeon_drv *drv)
{
    if (drv->threaded) {
        struct timespec ts = {0, 1000};
        nanosleep(&ts, NULL);
    }
}

/* ---- lockup detection and GPU reset (radeon_ring.c, radeon_device.c) ---- */

bool cg_radeon_lockup_detected(const cg_radeon_drv *drv) { return drv->lockup; }
const char *cg_radeon_lockup_log(const cg_radeon_drv *drv) { return drv->lockup_log; }
unsigned cg_radeon_reset_count(const cg_radeon_drv *drv) { return drv->resets; }

/* radeon_ring_test_lockup: rptr moved -> note the activity; otherwise a
 * lockup once it has not moved for lockup_polls polls. Time is counted in
 * polls of the fence wait (deterministic mode has no clock; in threaded mode
 * a poll is a 1 ms slice). Called by the waiting thread (with fence_lock
 * held in threaded mode). */
static bool test_lockup(cg_radeon_drv *drv)
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

static double now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

/* How long a threaded fence wait polls before it sleeps, and what it does
 * between polls (docs/performance.md, "radeon fence round trip"). */
#ifndef FENCE_SPIN_US
#define FENCE_SPIN_US 50.0
#endif
#ifndef FENCE_SPIN_PAUSE
#define FENCE_SPIN_PAUSE() sched_yield()
#endif

int rd_fence_wait_lockup(cg_radeon_drv *drv, uint64_t seq, uint32_t timeout_us)
{
    if (seq > cg_radeon_fence_emitted(drv))
        return CG_ERR_INVAL;
    if (drv->lockup)
        return CG_ERR_BUSY; /* reset first */
    cg_radeon_reg_read(drv->gpu, REG_CP_RB_RPTR, &drv->last_rptr);
    drv->last_activity = drv->polls;
    if (drv->threaded) {
        /* First poll the fence for up to FENCE_SPIN_US (the CP usually
         * writes it within a few microseconds of its own wake-up), yielding
         * the processor between polls so the CP and IH threads can run:
         * the waiter then sees the fence in memory, without waiting for the
         * IH thread's wake-up and then its own. Then sleep until the IH
         * thread signals, in 1 ms slices (the lockup check's unit:
         * lockup_polls slices, 10 s by default as radeon); polling does not
         * count as lockup slices. docs/performance.md has the measurements
         * behind the spin. */
        double start = now_us(), deadline = start + timeout_us;
        double spin_end = start + FENCE_SPIN_US < deadline ? start + FENCE_SPIN_US : deadline;
        int rc = 0;
        pthread_mutex_lock(&drv->fence_lock);
        for (;;) {
            if (drv->last_seq >= seq)
                break;
            rd_fence_process(drv); /* the value may be there before the interrupt */
            if (drv->last_seq >= seq)
                break;
            double t = now_us();
            if (t < spin_end) {
                pthread_mutex_unlock(&drv->fence_lock);
                FENCE_SPIN_PAUSE();
                pthread_mutex_lock(&drv->fence_lock);
                continue;
            }
            if (t >= deadline) {
                rc = CG_ERR_TIMEOUT;
                break;
            }
            if (test_lockup(drv)) {
                rc = CG_ERR_BUSY;
                break;
            }
            double until = t + 1000 < deadline ? t + 1000 : deadline;
            struct timespec ts;
            clock_gettime(CLOCK_REALTIME, &ts);
            long long ns = (long long)ts.tv_nsec + (long long)((until - t) * 1000.0);
            ts.tv_sec += (time_t)(ns / 1000000000LL);
            ts.tv_nsec = (long)(ns % 1000000000LL);
            pthread_cond_timedwait(&drv->fence_cond, &drv->fence_lock, &ts);
        }
        pthread_mutex_unlock(&drv->fence_lock);
        return rc;
    }
    for (uint32_t i = 0;; i++) {
        if (cg_radeon_fence_signaled(drv, seq))
            return 0;
        if (i >= timeout_us)
            return CG_ERR_TIMEOUT;
        cg_radeon_run(drv->gpu);
        cg_radeon_irq_process(drv);
        if (!cg_radeon_fence_signaled(drv, seq) && test_lockup(drv))
            return CG_ERR_BUSY;
    }
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
            fence_force_completion(drv);
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
