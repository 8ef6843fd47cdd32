/* radeon driver side: ring init, lock/write/commit/undo arithmetic with the
 * empty slot, padding and wrap-around, full-ring waits, fences (EOP and
 * scratch forms, 64-bit extension), interrupts, IBs, and the seed-004 ring
 * and IB tests with their exact messages. */
#include <stdlib.h>
#include <time.h>
#include "check.h"
#include "cmdgpu/cmdgpu.h"
#include "radeon/radeon_internal.h"

typedef struct fx {
    cg_device *dev;
    cg_radeon *rd;
    cg_radeon_drv *drv;
} fx;

static void fx_init(fx *f, cg_radeon_gen gen, const cg_radeon_drv_config *dc)
{
    CHECK_EQ(cg_device_create(&f->dev), 0);
    cg_radeon_config c = {.gen = gen, .wait_budget = 100000};
    CHECK_EQ(cg_radeon_create(f->dev, &c, &f->rd), 0);
    CHECK_EQ(cg_radeon_drv_create(f->rd, dc, &f->drv), 0);
}

static void fx_fini(fx *f)
{
    cg_radeon_drv_destroy(f->drv);
    cg_radeon_destroy(f->rd);
    cg_device_destroy(f->dev);
}

static uint32_t reg(fx *f, uint32_t r)
{
    uint32_t v = 0xBADBAD;
    cg_radeon_reg_read(f->rd, r, &v);
    return v;
}

static uint32_t mem32(fx *f, uint64_t va)
{
    uint32_t v = 0xBADBAD;
    cg_radeon_cpu_read32(f->rd, va, &v);
    return v;
}

static void test_init(void)
{
    fx f;
    fx_init(&f, CG_RADEON_R600, NULL);
    /* 64 KiB: RB_BUFSZ = log2(65536 / 8) = 13, RB_BLKSZ = log2(4096 / 8) = 9 */
    CHECK_EQ(reg(&f, REG_CP_RB_CNTL), 13 | (9u << 8));
    uint64_t ring = cg_radeon_ring_addr(f.drv), wb = cg_radeon_wb_addr(f.drv);
    CHECK_EQ(ring, CG_RADEON_GTT_BASE);
    CHECK_EQ(wb, CG_RADEON_GTT_BASE + 0x10000);
    CHECK_EQ(reg(&f, REG_CP_RB_BASE), (uint32_t)(ring >> 8));
    CHECK_EQ(reg(&f, REG_CP_RB_RPTR_ADDR), (uint32_t)(wb + 1024));
    CHECK_EQ(reg(&f, REG_CP_RB_RPTR_ADDR_HI), 1);
    CHECK_EQ(reg(&f, REG_SCRATCH_UMSK), 0xff);
    CHECK_EQ(reg(&f, REG_SCRATCH_ADDR), (uint32_t)(wb >> 8));
    CHECK_EQ(reg(&f, REG_CP_ME_CNTL), 0xff);
    /* ME_INITIALIZE went through: 7 dwords padded to 16. */
    uint32_t size, wptr, rptr, freedw;
    cg_radeon_ring_info(f.drv, &size, &wptr, &rptr, &freedw);
    CHECK_EQ(size, 16384);
    CHECK_EQ(wptr, 16);
    CHECK_EQ(rptr, 16);
    CHECK_EQ(freedw, 16384);
    CHECK_EQ(mem32(&f, ring), CG_RADEON_PACKET3(0x44, 5));
    CHECK_EQ(mem32(&f, ring + 8), 3); /* R6xx */
    CHECK_EQ(mem32(&f, ring + 16), 1u << 16);
    CHECK_EQ(mem32(&f, ring + 28), 0x80000000u);
    CHECK_EQ(mem32(&f, ring + 60), 0x80000000u);
    CHECK_EQ(mem32(&f, wb + 1024), 16);
    CHECK(f.rd->me_initialized);
    fx_fini(&f);
}

static void test_lock_write_commit(void)
{
    fx f;
    cg_radeon_drv_config dc = {.ring_bytes = 256}; /* 64 dwords */
    fx_init(&f, CG_RADEON_R700, &dc);
    uint32_t size, wptr, rptr, freedw;
    cg_radeon_ring_info(f.drv, &size, &wptr, &rptr, &freedw);
    CHECK_EQ(size, 64);
    CHECK_EQ(wptr, 16);
    CHECK_EQ(mem32(&f, cg_radeon_ring_addr(f.drv) + 8), 0); /* R7xx ME_INITIALIZE */
    CHECK_EQ(cg_radeon_ring_lock(f.drv, 65), CG_ERR_INVAL);
    CHECK_EQ(cg_radeon_ring_lock(f.drv, 64), CG_ERR_INVAL); /* the empty slot */
    /* Writes beyond the locked amount (rounded up to 16) fail. */
    CHECK_EQ(cg_radeon_ring_lock(f.drv, 3), 0);
    CHECK_EQ(cg_radeon_ring_lock(f.drv, 3), CG_ERR_INVAL); /* already locked */
    for (int i = 0; i < 16; i++)
        CHECK_EQ(cg_radeon_ring_write(f.drv, CG_RADEON_PACKET2(0)), 0);
    CHECK_EQ(cg_radeon_ring_write(f.drv, 0), CG_ERR_RANGE);
    CHECK_EQ(cg_radeon_ring_unlock_undo(f.drv), 0);
    cg_radeon_ring_info(f.drv, NULL, &wptr, NULL, NULL);
    CHECK_EQ(wptr, 16);
    CHECK_EQ(cg_radeon_ring_write(f.drv, 0), CG_ERR_RANGE); /* not locked */
    /* Three dwords, padded with PACKET2 to 32; the CP runs on commit. */
    CHECK_EQ(cg_radeon_ring_lock(f.drv, 3), 0);
    cg_radeon_ring_write(f.drv, CG_RADEON_PACKET3(0x68, 1));
    cg_radeon_ring_write(f.drv, 0x146);
    cg_radeon_ring_write(f.drv, 0x4321);
    CHECK_EQ(cg_radeon_ring_unlock_commit(f.drv), 0);
    CHECK_EQ(reg(&f, 0x8518), 0x4321);
    cg_radeon_ring_info(f.drv, NULL, &wptr, &rptr, &freedw);
    CHECK_EQ(wptr, 32);
    CHECK_EQ(rptr, 32);
    CHECK_EQ(freedw, 64);
    uint64_t ring = cg_radeon_ring_addr(f.drv);
    CHECK_EQ(mem32(&f, ring + 4 * 19), 0x80000000u);
    CHECK_EQ(mem32(&f, ring + 4 * 31), 0x80000000u);
    /* Wrap: 48 dwords from 32 ends at 16 (mod 64). */
    CHECK_EQ(cg_radeon_ring_lock(f.drv, 48), 0);
    for (int i = 0; i < 15; i++) {
        cg_radeon_ring_write(f.drv, CG_RADEON_PACKET3(0x68, 1));
        cg_radeon_ring_write(f.drv, 0x140);
        cg_radeon_ring_write(f.drv, 0x100 + (uint32_t)i);
    }
    CHECK_EQ(cg_radeon_ring_unlock_commit(f.drv), 0);
    cg_radeon_ring_info(f.drv, NULL, &wptr, &rptr, NULL);
    CHECK_EQ(wptr, 16);
    CHECK_EQ(rptr, 16);
    CHECK_EQ(reg(&f, 0x8500), 0x10E);
    CHECK_EQ(mem32(&f, ring + 4 * 0), 0x10A); /* packet 10 wrapped: dwords 62, 63, 0 */
    /* Full ring: halt the CP; 48 dwords fit (free 64, minus the empty slot),
     * the next 16 wait for space and time out. */
    cg_radeon_reg_write(f.rd, REG_CP_ME_CNTL, 1u << 28);
    CHECK_EQ(cg_radeon_ring_lock(f.drv, 48), 0);
    for (int i = 0; i < 16; i++) {
        cg_radeon_ring_write(f.drv, CG_RADEON_PACKET3(0x68, 1));
        cg_radeon_ring_write(f.drv, 0x141);
        cg_radeon_ring_write(f.drv, 0x200 + (uint32_t)i);
    }
    CHECK_EQ(cg_radeon_ring_unlock_commit(f.drv), 0);
    cg_radeon_ring_info(f.drv, NULL, &wptr, &rptr, &freedw);
    CHECK_EQ(wptr, 0);
    CHECK_EQ(rptr, 16);
    CHECK_EQ(freedw, 16);
    f.drv->cfg.usec_timeout = 10;
    CHECK_EQ(cg_radeon_ring_lock(f.drv, 15), CG_ERR_TIMEOUT); /* 16 > 16 - 1 */
    /* Unhalted, the CP drains the ring and the lock goes through. */
    cg_radeon_reg_write(f.rd, REG_CP_ME_CNTL, 0xff);
    CHECK_EQ(reg(&f, 0x8504), 0x20F);
    CHECK_EQ(cg_radeon_ring_lock(f.drv, 15), 0);
    CHECK_EQ(cg_radeon_ring_unlock_undo(f.drv), 0);
    CHECK_EQ(cg_fault_count(f.dev), 0);
    fx_fini(&f);
}

static void test_fences(void)
{
    fx f;
    fx_init(&f, CG_RADEON_R600, NULL);
    uint64_t s1, s2;
    CHECK_EQ(cg_radeon_ring_lock(f.drv, 16), 0);
    CHECK_EQ(cg_radeon_fence_emit(f.drv, &s1), 0);
    CHECK_EQ(cg_radeon_fence_emit(f.drv, &s2), CG_ERR_RANGE); /* only 6 dwords left */
    CHECK_EQ(cg_radeon_ring_unlock_commit(f.drv), 0);
    CHECK_EQ(s1, 1);
    uint64_t wb = cg_radeon_wb_addr(f.drv);
    CHECK_EQ(mem32(&f, wb + 3072), 1);
    CHECK_EQ(reg(&f, REG_CP_COHER_CNTL), 0x09800000u); /* TC | VC | SH, no FULL_CACHE on R600 */
    /* The interrupt handler ran at commit and signalled the fence. */
    CHECK_EQ(cg_radeon_fence_last(f.drv), 1);
    CHECK_EQ(cg_radeon_irq_process(f.drv), 0);
    CHECK_EQ(cg_radeon_irq_count(f.drv, 181), 1);
    CHECK_EQ(reg(&f, REG_IH_RB_RPTR), 16);
    CHECK(cg_radeon_fence_signaled(f.drv, 1));
    CHECK_EQ(cg_radeon_fence_last(f.drv), 1);
    CHECK_EQ(cg_radeon_fence_wait(f.drv, 1, 10), 0);
    CHECK_EQ(cg_radeon_fence_wait(f.drv, 2, 10), CG_ERR_INVAL); /* never emitted */
    /* A fence behind a WAIT_REG_MEM on a scratch register: not signalled until
     * the CPU writes the register; waiting times out before that. */
    uint32_t scratch;
    CHECK_EQ(cg_radeon_scratch_get(f.drv, &scratch), 0);
    CHECK_EQ(scratch, 0x8508);
    CHECK_EQ(cg_radeon_ring_lock(f.drv, 32), 0);
    uint32_t wr[] = {CG_RADEON_PACKET3(0x3C, 5), 3, scratch >> 2, 0, 0x5EED, 0xffffffff, 10};
    for (int i = 0; i < 7; i++)
        cg_radeon_ring_write(f.drv, wr[i]);
    CHECK_EQ(cg_radeon_fence_emit(f.drv, &s2), 0);
    CHECK_EQ(cg_radeon_ring_unlock_commit(f.drv), 0);
    CHECK_EQ(s2, 2);
    CHECK(!cg_radeon_fence_signaled(f.drv, 2));
    CHECK_EQ(cg_radeon_fence_wait(f.drv, 2, 20), CG_ERR_TIMEOUT);
    cg_radeon_reg_write(f.rd, scratch, 0x5EED);
    CHECK_EQ(cg_radeon_fence_wait(f.drv, 2, 20), 0);
    CHECK_EQ(cg_radeon_irq_process(f.drv), 1);
    CHECK_EQ(cg_radeon_irq_count(f.drv, 181), 2);
    /* 32 -> 64-bit extension across the wrap of the hardware counter. */
    f.drv->last_seq = 0xFFFFFFFEull;
    f.drv->fence_seq = 0x100000001ull;
    cg_radeon_cpu_write32(f.rd, wb + 3072, 0xFFFFFFFF);
    rd_fence_process(f.drv);
    CHECK_EQ(cg_radeon_fence_last(f.drv), 0xFFFFFFFFull);
    cg_radeon_cpu_write32(f.rd, wb + 3072, 0x00000001);
    rd_fence_process(f.drv);
    CHECK_EQ(cg_radeon_fence_last(f.drv), 0x100000001ull);
    cg_radeon_cpu_write32(f.rd, wb + 3072, 0x00000005); /* beyond emitted: ignored */
    rd_fence_process(f.drv);
    CHECK_EQ(cg_radeon_fence_last(f.drv), 0x100000001ull);
    CHECK_EQ(cg_fault_count(f.dev), 0);
    fx_fini(&f);
}

static void test_scratch_fences(void)
{
    fx f;
    cg_radeon_drv_config dc = {.use_scratch_fence = true};
    fx_init(&f, CG_RADEON_R600, &dc);
    uint64_t s;
    CHECK_EQ(cg_radeon_ring_lock(f.drv, 10), 0);
    CHECK_EQ(cg_radeon_fence_emit(f.drv, &s), 0);
    CHECK_EQ(cg_radeon_ring_unlock_commit(f.drv), 0);
    CHECK_EQ(reg(&f, 0x8504), 1);           /* fence scratch register */
    CHECK_EQ(mem32(&f, cg_radeon_wb_addr(f.drv) + 4), 1); /* mirrored */
    CHECK_EQ(reg(&f, REG_WAIT_UNTIL), (1u << 15) | (1u << 17));
    CHECK_EQ(cg_radeon_fence_last(f.drv), 1); /* signalled by the 176 handler at commit */
    CHECK_EQ(cg_radeon_irq_process(f.drv), 0);
    CHECK_EQ(cg_radeon_irq_count(f.drv, 176), 1);
    CHECK(cg_radeon_fence_signaled(f.drv, s));
    fx_fini(&f);
}

static void test_ring_and_ib_tests(void)
{
    fx f;
    fx_init(&f, CG_RADEON_R600, NULL);
    char msg[128];
    CHECK_EQ(cg_radeon_ring_test(f.drv, msg, sizeof msg), 0);
    CHECK_STR(msg, "ring test succeeded in 0 usecs");
    CHECK_EQ(reg(&f, 0x8508), 0xDEADBEEF);
    CHECK_EQ(cg_radeon_ib_test(f.drv, msg, sizeof msg), 0);
    CHECK_STR(msg, "ib test succeeded in 0 usecs");
    /* The IB test's ring: SET_CONFIG_REG rptr_save_reg = next rptr, then the IB. */
    uint64_t ring = cg_radeon_ring_addr(f.drv);
    CHECK_EQ(mem32(&f, ring + 4 * 32), CG_RADEON_PACKET3(0x68, 1));
    CHECK_EQ(mem32(&f, ring + 4 * 33), 0x140); /* SCRATCH_REG0 = rptr_save_reg */
    CHECK_EQ(mem32(&f, ring + 4 * 34), 32 + 3 + 4);
    CHECK_EQ(mem32(&f, ring + 4 * 35), CG_RADEON_PACKET3(0x32, 2));
    CHECK_EQ(mem32(&f, ring + 4 * 38), 16);
    CHECK_EQ(reg(&f, 0x8500), 39);
    CHECK_EQ(cg_radeon_fence_last(f.drv), 1);
    /* Halted CP: the ring test fails with the scratch value, as radeon prints it. */
    cg_radeon_reg_write(f.rd, REG_CP_ME_CNTL, 1u << 28);
    f.drv->cfg.usec_timeout = 50;
    CHECK_EQ(cg_radeon_ring_test(f.drv, msg, sizeof msg), CG_ERR_INVAL);
    CHECK_STR(msg, "ring test failed (scratch(0x8508)=0xCAFEDEAD)");
    CHECK_EQ(cg_radeon_ib_test(f.drv, msg, sizeof msg), CG_ERR_TIMEOUT);
    CHECK_STR(msg, "radeon: fence wait failed (-10).");
    cg_radeon_reg_write(f.rd, REG_CP_ME_CNTL, 0xff);
    CHECK_EQ(cg_radeon_ring_test(f.drv, msg, sizeof msg), 0);
    CHECK_EQ(cg_fault_count(f.dev), 0);
    fx_fini(&f);
    /* Evergreen prefixes MODE_CONTROL; no writeback uses MMIO for rptr. */
    cg_radeon_drv_config dc = {.no_writeback = true};
    fx_init(&f, CG_RADEON_EVERGREEN, &dc);
    CHECK_EQ(cg_radeon_ib_test(f.drv, msg, sizeof msg), 0);
    CHECK_STR(msg, "ib test succeeded in 0 usecs");
    CHECK_EQ(mem32(&f, cg_radeon_ring_addr(f.drv) + 4 * 16), CG_RADEON_PACKET3(0x18, 0));
    CHECK_EQ(mem32(&f, cg_radeon_wb_addr(f.drv) + 1024), 0);
    CHECK_EQ(cg_fault_count(f.dev), 0);
    fx_fini(&f);
}

static void test_ib_pool(void)
{
    fx f;
    cg_radeon_drv_config dc = {.nib = 2, .ib_dw = 16};
    fx_init(&f, CG_RADEON_R600, &dc);
    cg_radeon_ib *a, *b, *c;
    CHECK_EQ(cg_radeon_ib_get(f.drv, &a), 0);
    CHECK_EQ(cg_radeon_ib_get(f.drv, &b), 0);
    CHECK_EQ(cg_radeon_ib_get(f.drv, &c), CG_ERR_BUSY);
    CHECK(a->gpu_addr != b->gpu_addr);
    a->length_dw = 0;
    CHECK_EQ(cg_radeon_ib_schedule(f.drv, a), CG_ERR_INVAL);
    for (uint32_t i = 0; i < 4; i++) {
        a->ptr[3 * i] = CG_RADEON_PACKET3(0x68, 1);
        a->ptr[3 * i + 1] = 0x142 + i;
        a->ptr[3 * i + 2] = 0xA0 + i;
    }
    a->length_dw = 12;
    CHECK_EQ(cg_radeon_ib_schedule(f.drv, a), 0);
    CHECK_EQ(a->fence, 1);
    CHECK_EQ(reg(&f, 0x8508), 0xA0);
    CHECK_EQ(reg(&f, 0x8514), 0xA3);
    uint64_t addr = a->gpu_addr;
    cg_radeon_ib_free(f.drv, a);
    CHECK_EQ(cg_radeon_ib_get(f.drv, &c), 0);
    CHECK_EQ(c->gpu_addr, addr); /* fence signalled: the slot is reused */
    CHECK_EQ(c->length_dw, 0);
    cg_radeon_ib_free(f.drv, b);
    cg_radeon_ib_free(f.drv, c);
    CHECK_EQ(cg_fault_count(f.dev), 0);
    fx_fini(&f);
}

/* Lockup: an IB blocks on a wait that never finishes; the fence wait sees
 * rptr stuck, declares a lockup; the reset saves the ring from the last
 * next-rptr record, restarts the CP and replays: every command after the
 * hung IB runs exactly once, none before it runs again. */
static void test_lockup_reset_replay(bool watchdog, bool threaded)
{
    fx f;
    CHECK_EQ(cg_device_create(&f.dev), 0);
    cg_radeon_config c = {.wait_budget = watchdog ? 20 : 1000000, .threaded = threaded};
    CHECK_EQ(cg_radeon_create(f.dev, &c, &f.rd), 0);
    cg_radeon_drv_config dc = {.lockup_polls = 50};
    CHECK_EQ(cg_radeon_drv_create(f.rd, &dc, &f.drv), 0);
    uint64_t sem_pre, sem_post, data;
    CHECK_EQ(cg_radeon_alloc(f.rd, CG_RADEON_VRAM, 256, 0, &sem_pre), 0);
    CHECK_EQ(cg_radeon_alloc(f.rd, CG_RADEON_VRAM, 256, 0, &sem_post), 0);
    CHECK_EQ(cg_radeon_alloc(f.rd, CG_RADEON_VRAM, 256, 0, &data), 0);
    /* Ring: semaphore signal (a counter: +1 per execution), fence 1. */
    uint64_t s1, s3;
    CHECK_EQ(cg_radeon_ring_lock(f.drv, 16), 0);
    cg_radeon_ring_write(f.drv, CG_RADEON_PACKET3(0x39, 1));
    cg_radeon_ring_write(f.drv, (uint32_t)sem_pre);
    cg_radeon_ring_write(f.drv, (uint32_t)(sem_pre >> 32) | (6u << 29));
    cg_radeon_fence_emit(f.drv, &s1);
    cg_radeon_ring_unlock_commit(f.drv);
    /* The IB: write SCRATCH_REG3, wait forever (mask 0, ref 1), write again. */
    cg_radeon_ib *ib;
    CHECK_EQ(cg_radeon_ib_get(f.drv, &ib), 0);
    uint32_t body[] = {CG_RADEON_PACKET3(0x68, 1), 0x143, 0x11,
                       CG_RADEON_PACKET3(0x3C, 5), 3 | (1u << 4), (uint32_t)data, 0, 1, 0, 10,
                       CG_RADEON_PACKET3(0x68, 1), 0x143, 0x22};
    memcpy(ib->ptr, body, sizeof body);
    ib->length_dw = 13;
    uint32_t w_before;
    cg_radeon_ring_info(f.drv, NULL, &w_before, NULL, NULL);
    CHECK_EQ(cg_radeon_ib_schedule(f.drv, ib), 0);
    CHECK_EQ(ib->fence, 2);
    /* After it: another semaphore signal and fence 3. */
    CHECK_EQ(cg_radeon_ring_lock(f.drv, 16), 0);
    cg_radeon_ring_write(f.drv, CG_RADEON_PACKET3(0x39, 1));
    cg_radeon_ring_write(f.drv, (uint32_t)sem_post);
    cg_radeon_ring_write(f.drv, (uint32_t)(sem_post >> 32) | (6u << 29));
    cg_radeon_fence_emit(f.drv, &s3);
    cg_radeon_ring_unlock_commit(f.drv);
    CHECK_EQ(s3, 3);
    CHECK_EQ(cg_radeon_fence_wait(f.drv, 1, 5000000), 0);
    /* Threaded: let the CP thread reach the wait (or the watchdog's stop). */
    cg_radeon_cp_status st;
    for (int t = 0; t < 5000; t++) {
        cg_radeon_cp_get_status(f.rd, &st);
        if (st.state == CG_RADEON_CP_WAITING || st.state == CG_RADEON_CP_STOPPED)
            break;
        struct timespec ts = {0, 1000000};
        nanosleep(&ts, NULL);
    }
    CHECK_EQ(st.state, CG_RADEON_CP_WAITING); /* the watchdog needs more polls */
    CHECK_EQ(st.ib_depth, 1);
    CHECK_EQ(reg(&f, 0x850C), 0x11);
    CHECK(cg_radeon_fence_signaled(f.drv, 1));
    CHECK(!cg_radeon_fence_signaled(f.drv, 2));
    CHECK_EQ(cg_radeon_fence_wait(f.drv, 3, 10000000), CG_ERR_BUSY);
    CHECK(cg_radeon_lockup_detected(f.drv));
    CHECK(strstr(cg_radeon_lockup_log(f.drv), "ring 0 stalled for more than 50 polls\n") != NULL);
    CHECK(strstr(cg_radeon_lockup_log(f.drv),
                 "GPU lockup (current fence id 0x0000000000000001 last fence id "
                 "0x0000000000000003 on ring 0)\n") != NULL);
    CHECK_EQ(cg_radeon_fence_wait(f.drv, 3, 10), CG_ERR_BUSY); /* until reset */
    /* Saved: from after INDIRECT_BUFFER (w_before + 7) to wptr: the rest of
     * the IB's 32-dword block (25) and the 16-dword block after it. */
    CHECK_EQ(reg(&f, 0x8500), w_before + 7);
    uint32_t saved = 0;
    CHECK_EQ(cg_radeon_gpu_reset(f.drv, &saved), 0);
    CHECK_EQ(saved, 41);
    CHECK(strstr(cg_radeon_lockup_log(f.drv), "Saved 41 dwords of commands on ring 0.\n") != NULL);
    CHECK(strstr(cg_radeon_lockup_log(f.drv),
                 threaded ? "ring test succeeded in " : "ring test succeeded in 0 usecs\n") != NULL);
    CHECK(!cg_radeon_lockup_detected(f.drv));
    CHECK_EQ(cg_radeon_reset_count(f.drv), 1);
    CHECK_EQ(cg_radeon_fence_wait(f.drv, 3, 5000000), 0);
    CHECK(cg_radeon_fence_signaled(f.drv, 2));
    CHECK_EQ(mem32(&f, sem_pre), 1);  /* not run again */
    CHECK_EQ(mem32(&f, sem_post), 1); /* run once, after the reset */
    CHECK_EQ(reg(&f, 0x850C), 0x11);  /* the hung IB's tail was dropped */
    /* With the watchdog on, the hang was also a fault record. */
    size_t hangs = 0;
    for (size_t i = 0; i < cg_fault_count(f.dev); i++)
        hangs += cg_fault_get(f.dev, i)->kind == CG_FAULT_HANG;
    CHECK_EQ(hangs, watchdog ? 1 : 0);
    CHECK_EQ(cg_fault_count(f.dev), watchdog ? 1 : 0);
    /* The device keeps working. */
    char msg[128];
    CHECK_EQ(cg_radeon_ib_test(f.drv, msg, sizeof msg), 0);
    cg_radeon_ib_free(f.drv, ib);
    fx_fini(&f);
}

/* The CP is halted while r600_cp_resume reprograms it: a reset after a bad
 * CP_RB_RPTR_ADDR must not write rptr back through the old address again
 * (regression: the WPTR write in the middle of the resume ran the CP, which
 * faulted a second time and failed the reset). */
static void test_reset_after_bad_rptr_addr(void)
{
    fx f;
    cg_radeon_drv_config dc = {.lockup_polls = 50};
    fx_init(&f, CG_RADEON_R600, &dc);
    uint64_t wb = cg_radeon_wb_addr(f.drv), ring = cg_radeon_ring_addr(f.drv);
    CHECK_EQ(cg_radeon_reg_write(f.rd, 0xC10C, 0x2000000), 0); /* CP_RB_RPTR_ADDR */
    CHECK_EQ(cg_radeon_reg_write(f.rd, 0xC110, 0), 0);         /* _HI */
    uint64_t s1, s2;
    CHECK_EQ(cg_radeon_ring_lock(f.drv, 16), 0);
    cg_radeon_fence_emit(f.drv, &s1);
    CHECK_EQ(cg_radeon_ring_unlock_commit(f.drv), 0);
    /* Fence 1 (dwords 16-31) ran; the write-back at idle faulted. */
    CHECK(cg_radeon_fence_signaled(f.drv, s1));
    CHECK_EQ(cg_fault_count(f.dev), 1);
    const cg_fault *ft = cg_fault_get(f.dev, 0);
    CHECK_EQ(ft->kind, CG_FAULT_UNMAPPED);
    CHECK_EQ(ft->gpu_addr, 0x2000000);
    CHECK_EQ(ft->stream_addr, ring + 31 * 4); /* the last PACKET2 of the fence block */
    CHECK_EQ(cg_radeon_ring_lock(f.drv, 16), 0);
    cg_radeon_fence_emit(f.drv, &s2);
    CHECK_EQ(cg_radeon_ring_unlock_commit(f.drv), 0);
    CHECK_EQ(cg_radeon_fence_wait(f.drv, s2, 100000), CG_ERR_BUSY);
    uint32_t saved = 0;
    CHECK_EQ(cg_radeon_gpu_reset(f.drv, &saved), 0);
    CHECK_EQ(saved, 48); /* no next-rptr record: dwords 0-47 */
    CHECK(strstr(cg_radeon_lockup_log(f.drv), "failed") == NULL);
    CHECK_EQ(cg_fault_count(f.dev), 1);
    CHECK(cg_radeon_fence_signaled(f.drv, s2));
    /* ME_INITIALIZE 0-15, the replay 16-63, the ring test 64-79. */
    CHECK_EQ(mem32(&f, wb + 1024), 80);
    fx_fini(&f);
}

/* radeon_gpu_reset's second chance: the replayed commands hang again, so
 * the ring test fails; the reset is repeated without them and the pending
 * fences are forced complete. */
static void test_reset_replay_hangs_again(void)
{
    fx f;
    CHECK_EQ(cg_device_create(&f.dev), 0);
    cg_radeon_config c = {.wait_budget = 20};
    CHECK_EQ(cg_radeon_create(f.dev, &c, &f.rd), 0);
    cg_radeon_drv_config dc = {.lockup_polls = 50};
    CHECK_EQ(cg_radeon_drv_create(f.rd, &dc, &f.drv), 0);
    uint64_t ring = cg_radeon_ring_addr(f.drv), data, s1;
    CHECK_EQ(cg_radeon_alloc(f.rd, CG_RADEON_VRAM, 256, 0, &data), 0);
    /* In the ring itself (no IB, so no next-rptr record): wait for 1 at a
     * zeroed dword, then fence 1. */
    CHECK_EQ(cg_radeon_ring_lock(f.drv, 32), 0);
    cg_radeon_ring_write(f.drv, CG_RADEON_PACKET3(0x3C, 5));
    cg_radeon_ring_write(f.drv, 3 | (1u << 4));
    cg_radeon_ring_write(f.drv, (uint32_t)data);
    cg_radeon_ring_write(f.drv, 0);
    cg_radeon_ring_write(f.drv, 1);
    cg_radeon_ring_write(f.drv, 0xFFFFFFFF);
    cg_radeon_ring_write(f.drv, 10);
    cg_radeon_fence_emit(f.drv, &s1);
    CHECK_EQ(cg_radeon_ring_unlock_commit(f.drv), 0);
    CHECK_EQ(cg_radeon_fence_wait(f.drv, s1, 100000), CG_ERR_BUSY);
    CHECK_EQ(cg_fault_count(f.dev), 1);
    uint32_t saved = 0;
    CHECK_EQ(cg_radeon_gpu_reset(f.drv, &saved), 0);
    CHECK_EQ(saved, 48); /* ME_INITIALIZE block and the 32-dword block */
    const char *log = cg_radeon_lockup_log(f.drv);
    CHECK(strstr(log, "Saved 48 dwords of commands on ring 0.\nring test failed (scratch(0x8508)="
                      "0xCAFEDEAD)\nThe replayed commands failed; reset again without them.\n"
                      "ring test succeeded in 0 usecs\n") != NULL);
    /* Two hangs: the wait at ring dword 16, then its replay at dword 32. */
    CHECK_EQ(cg_fault_count(f.dev), 2);
    CHECK_EQ(cg_fault_get(f.dev, 0)->kind, CG_FAULT_HANG);
    CHECK_EQ(cg_fault_get(f.dev, 0)->stream_addr, ring + 16 * 4);
    CHECK_EQ(cg_fault_get(f.dev, 1)->kind, CG_FAULT_HANG);
    CHECK_EQ(cg_fault_get(f.dev, 1)->stream_addr, ring + 32 * 4);
    CHECK(cg_radeon_fence_signaled(f.drv, s1)); /* forced complete */
    CHECK_EQ(cg_radeon_reset_count(f.drv), 1);
    char msg[128];
    CHECK_EQ(cg_radeon_ib_test(f.drv, msg, sizeof msg), 0);
    fx_fini(&f);
}

/* A ring size the CP cannot use faults without a packet: the record must
 * not carry the previous packet's address and words. */
static void test_bad_ring_size_record(void)
{
    fx f;
    cg_radeon_drv_config dc = {.lockup_polls = 50};
    fx_init(&f, CG_RADEON_R600, &dc);
    uint64_t ring = cg_radeon_ring_addr(f.drv), s1;
    CHECK_EQ(cg_radeon_reg_write(f.rd, 0xC104, 23), 0); /* CP_RB_CNTL.RB_BUFSZ 23 */
    CHECK_EQ(cg_radeon_ring_lock(f.drv, 16), 0);
    cg_radeon_fence_emit(f.drv, &s1);
    CHECK_EQ(cg_radeon_ring_unlock_commit(f.drv), 0);
    CHECK_EQ(cg_fault_count(f.dev), 1);
    const cg_fault *ft = cg_fault_get(f.dev, 0);
    CHECK_EQ(ft->kind, CG_FAULT_BAD_STATE);
    CHECK_EQ(ft->stream_addr, ring);
    CHECK_EQ(ft->nwords, 0);
    CHECK_EQ(ft->gpu_addr, 0);
    CHECK_EQ(cg_radeon_fence_wait(f.drv, s1, 100000), CG_ERR_BUSY);
    CHECK_EQ(cg_radeon_gpu_reset(f.drv, NULL), 0);
    CHECK(cg_radeon_fence_signaled(f.drv, s1)); /* replayed with the ring restored */
    CHECK_EQ(cg_fault_count(f.dev), 1);
    fx_fini(&f);
}

/* The reset re-runs r600_irq_init (radeon_resume): an IH ring the host broke
 * works again, and the driver does not re-read old IH entries. */
static void test_reset_reinits_ih(void)
{
    fx f;
    cg_radeon_drv_config dc = {.lockup_polls = 50};
    fx_init(&f, CG_RADEON_R600, &dc);
    uint64_t s1, s2;
    uint32_t ih_base = reg(&f, 0x3E04);
    CHECK_EQ(cg_radeon_reg_write(f.rd, 0x3E04, 0x2000000 >> 8), 0); /* IH_RB_BASE */
    CHECK_EQ(cg_radeon_ring_lock(f.drv, 16), 0);
    cg_radeon_fence_emit(f.drv, &s1);
    CHECK_EQ(cg_radeon_ring_unlock_commit(f.drv), 0);
    CHECK_EQ(cg_fault_count(f.dev), 1);
    CHECK_EQ(cg_fault_get(f.dev, 0)->kind, CG_FAULT_UNMAPPED);
    CHECK_STR(cg_fault_get(f.dev, 0)->unit, "ih");
    CHECK_EQ(cg_fault_get(f.dev, 0)->gpu_addr, 0x2000000);
    CHECK(cg_radeon_fence_signaled(f.drv, s1)); /* the value landed, the interrupt did not */
    CHECK_EQ(cg_radeon_irq_count(f.drv, CG_RADEON_IH_CP_EOP), 0);
    CHECK_EQ(cg_radeon_ring_lock(f.drv, 16), 0);
    cg_radeon_fence_emit(f.drv, &s2);
    CHECK_EQ(cg_radeon_ring_unlock_commit(f.drv), 0);
    CHECK_EQ(cg_radeon_fence_wait(f.drv, s2, 100000), CG_ERR_BUSY);
    CHECK_EQ(cg_radeon_gpu_reset(f.drv, NULL), 0);
    CHECK_EQ(reg(&f, 0x3E04), ih_base);
    CHECK(cg_radeon_fence_signaled(f.drv, s2));
    /* The replay (no next-rptr record: dwords 0-47) runs both fences again:
     * two EOP interrupts, each seen once. */
    CHECK_EQ(cg_radeon_irq_process(f.drv), 0);
    CHECK_EQ(cg_radeon_irq_count(f.drv, CG_RADEON_IH_CP_EOP), 2);
    CHECK_EQ(reg(&f, 0x3E08), 32); /* IH_RB_RPTR: two 16-byte entries */
    CHECK_EQ(cg_fault_count(f.dev), 1);
    fx_fini(&f);
}

int main(void)
{
    test_init();
    test_lock_write_commit();
    test_fences();
    test_scratch_fences();
    test_ring_and_ib_tests();
    test_ib_pool();
    test_lockup_reset_replay(false, false);
    test_lockup_reset_replay(true, false);
    test_lockup_reset_replay(false, true);
    test_reset_after_bad_rptr_addr();
    test_reset_replay_hangs_again();
    test_bad_ring_size_record();
    test_reset_reinits_ih();
    return check_report("test_radeon_ring");
}
