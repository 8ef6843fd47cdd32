/* radeon family, driver side: fences, shaped like linux radeon_fence.c and
 * r600_fence_ring_emit (research/radeon.md sections 1 and 3). The interrupt
 * handler is in irq.c, lockup detection and GPU reset in reset.c. */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "radeon/gpu/cp_internal.h" /* rd_reg_read_nl */
#include "radeon/radeon_internal.h"

/* The fence location: a scratch register, or its writeback copy, or (EOP
 * fences) writeback + 3072 + ring * 4 (ring 0). */
static uint64_t fence_addr(const cg_radeon_drv *drv)
{
    if (!drv->cfg.use_scratch_fence)
        return drv->wb_gpu + WB_EVENTS;
    if (drv->cfg.no_writeback)
        return drv->fence_scratch;
    return drv->wb_gpu + WB_SCRATCH + (drv->fence_scratch - REG_SCRATCH_REG0);
}

/* Read the fence location; the GPU's lock is held (threaded mode). */
static uint32_t fence_read_nl(cg_radeon_drv *drv)
{
    uint32_t v = 0;
    if (drv->cfg.use_scratch_fence && drv->cfg.no_writeback) {
        rd_reg_read_nl(drv->gpu, drv->fence_scratch, &v);
    } else {
        uint8_t b[4] = {0};
        cg_vas_cpu_read(drv->gpu->vas, fence_addr(drv), b, 4);
        v = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
    }
    return v;
}

static uint32_t fence_read(cg_radeon_drv *drv)
{
    uint32_t v = 0;
    if (drv->cfg.use_scratch_fence && drv->cfg.no_writeback)
        cg_radeon_reg_read(drv->gpu, drv->fence_scratch, &v);
    else
        cg_radeon_cpu_read32(drv->gpu, fence_addr(drv), &v);
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
void rd_fence_force_completion(cg_radeon_drv *drv)
{
    rd_flock(drv);
    fence_write(drv, (uint32_t)drv->fence_seq);
    rd_fence_process(drv);
    rd_funlock(drv);
}

/* radeon_fence_activity: extend the 32-bit hardware value `hw` to 64 bits
 * against last_seq and the last emitted sequence. */
static void fence_activity(cg_radeon_drv *drv, uint32_t hw)
{
    uint64_t last_seq = drv->last_seq, last_emitted = drv->fence_seq;
    uint64_t seq = hw;
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

void rd_fence_process(cg_radeon_drv *drv)
{
    fence_activity(drv, fence_read(drv));
}

/* rd_fence_process for a polling waiter (threaded, fence_lock held): never
 * blocks on the GPU's lock, which the CP thread holds while it runs. False
 * when the lock was busy (nothing read). */
static bool fence_process_try(cg_radeon_drv *drv)
{
    cg_radeon *rd = drv->gpu;
    if (pthread_mutex_trylock(&rd->lock) != 0)
        return false;
    uint32_t hw = fence_read_nl(drv);
    pthread_mutex_unlock(&rd->lock);
    fence_activity(drv, hw);
    return true;
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
        cg_radeon_ring_write(drv, CG_RADEON_PACKET3(RD_OP_SURFACE_SYNC, 3));
        cg_radeon_ring_write(drv, cp_coher_cntl);
        cg_radeon_ring_write(drv, 0xFFFFFFFF);
        cg_radeon_ring_write(drv, 0);
        cg_radeon_ring_write(drv, 10);
        cg_radeon_ring_write(drv, CG_RADEON_PACKET3(RD_OP_EVENT_WRITE_EOP, 4));
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
        cg_radeon_ring_write(drv, CG_RADEON_PACKET3(RD_OP_EVENT_WRITE, 0));
        cg_radeon_ring_write(drv, PPUT(EVENT_WRITE_DW1, EVENT_TYPE, EV_CACHE_FLUSH_AND_INV_EVENT));
        cg_radeon_ring_write(drv, CG_RADEON_PACKET3(RD_OP_SET_CONFIG_REG, 1));
        cg_radeon_ring_write(drv, (REG_WAIT_UNTIL - 0x8000) >> 2);
        cg_radeon_ring_write(drv, RPUT(WAIT_UNTIL, WAIT_3D_IDLE, 1) |
                                      RPUT(WAIT_UNTIL, WAIT_3D_IDLECLEAN, 1));
        cg_radeon_ring_write(drv, CG_RADEON_PACKET3(RD_OP_SET_CONFIG_REG, 1));
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
    if (drv->threaded) {
        /* First poll the fence for up to FENCE_SPIN_US (the CP usually
         * writes it within a few microseconds of its own wake-up), yielding
         * the processor between polls so the CP and IH threads can run:
         * the waiter then sees the fence in memory, without waiting for the
         * IH thread's wake-up and then its own. A poll takes no lock the CP
         * holds: it loads the GPU's count of raised interrupts (acquire;
         * the CP adds to it with release after the fence write and the
         * interrupt it raises) and reads the fence only when that moved,
         * and then only if the GPU's lock is free (trylock), so the waiter
         * never sleeps on the lock the CP thread holds while it runs. Then
         * sleep until the IH thread signals, in 1 ms slices (the lockup
         * check's unit: lockup_polls slices, 10 s by default as radeon);
         * polling does not count as lockup slices. docs/radeon.md and
         * docs/performance.md have the measurements behind this. */
        double start = now_us(), deadline = start + timeout_us;
        double spin_end = start + FENCE_SPIN_US < deadline ? start + FENCE_SPIN_US : deadline;
        int rc = 0;
        bool spinning = true, polled = false;
        uint64_t raised = 0;
        pthread_mutex_lock(&drv->fence_lock);
        for (;;) {
            if (drv->last_seq >= seq)
                break;
            if (spinning) {
                /* the value may be there before the interrupt is handled */
                uint64_t now = atomic_load_explicit(&drv->gpu->irq_raised, memory_order_acquire);
                if ((!polled || now != raised) && fence_process_try(drv)) {
                    raised = now;
                    polled = true;
                }
            } else {
                rd_fence_process(drv);
            }
            if (drv->last_seq >= seq)
                break;
            double t = now_us();
            if (spinning && t < spin_end) {
                pthread_mutex_unlock(&drv->fence_lock);
                FENCE_SPIN_PAUSE();
                pthread_mutex_lock(&drv->fence_lock);
                continue;
            }
            if (spinning) {
                /* the lockup check's baseline, taken when the slices start:
                 * read at the start of the wait, it would block on the lock
                 * the CP thread holds while it runs the commit */
                spinning = false;
                cg_radeon_reg_read(drv->gpu, REG_CP_RB_RPTR, &drv->last_rptr);
                drv->last_activity = drv->polls;
            }
            if (t >= deadline) {
                rc = CG_ERR_TIMEOUT;
                break;
            }
            if (rd_test_lockup(drv)) {
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
    cg_radeon_reg_read(drv->gpu, REG_CP_RB_RPTR, &drv->last_rptr);
    drv->last_activity = drv->polls;
    for (uint32_t i = 0;; i++) {
        if (cg_radeon_fence_signaled(drv, seq))
            return 0;
        if (i >= timeout_us)
            return CG_ERR_TIMEOUT;
        cg_radeon_run(drv->gpu);
        cg_radeon_irq_process(drv);
        if (!cg_radeon_fence_signaled(drv, seq) && rd_test_lockup(drv))
            return CG_ERR_BUSY;
    }
}
