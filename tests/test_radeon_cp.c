/* radeon CP: every packet's effect on memory and registers, every fault with
 * its exact fields, and the device still working after each fault. The ring
 * is programmed by MMIO here (no driver) so each test controls every dword. */
#include <stdlib.h>
#include "check.h"
#include "cmdgpu/cmdgpu.h"
#include "radeon/radeon_internal.h"

#define GTT CG_RADEON_GTT_BASE
#define RING (GTT + 0x0000)     /* 64-dword ring (RB_BUFSZ 5) */
#define WB (GTT + 0x1000)       /* writeback page */
#define IH (GTT + 0x2000)       /* IH ring, 256 bytes */
#define IB1 (GTT + 0x3000)
#define IB2 (GTT + 0x4000)
#define DATA (GTT + 0x10000)
#define P3(op, n) CG_RADEON_PACKET3(op, n)

typedef struct fx {
    cg_device *dev;
    cg_radeon *rd;
    uint32_t wptr;
} fx;

static void fx_init(fx *f, cg_radeon_gen gen, bool lenient, uint32_t wait_budget)
{
    f->wptr = 0;
    CHECK_EQ(cg_device_create(&f->dev), 0);
    cg_radeon_config c = {.gen = gen, .lenient = lenient, .wait_budget = wait_budget};
    CHECK_EQ(cg_radeon_create(f->dev, &c, &f->rd), 0);
    cg_radeon *rd = f->rd;
    cg_radeon_reg_write(rd, REG_CP_RB_CNTL, 5 | (9u << 8)); /* 64 dwords */
    cg_radeon_reg_write(rd, REG_CP_RB_BASE, (uint32_t)(RING >> 8));
    cg_radeon_reg_write(rd, REG_CP_RB_RPTR_ADDR, (uint32_t)(WB + 1024));
    cg_radeon_reg_write(rd, REG_CP_RB_RPTR_ADDR_HI, (uint32_t)((WB + 1024) >> 32));
    cg_radeon_reg_write(rd, REG_SCRATCH_ADDR, (uint32_t)(WB >> 8));
    cg_radeon_reg_write(rd, REG_SCRATCH_UMSK, 0x0f);
    cg_radeon_reg_write(rd, REG_IH_RB_BASE, (uint32_t)(IH >> 8));
    cg_radeon_reg_write(rd, REG_IH_RB_WPTR_ADDR_LO, (uint32_t)(WB + 2048));
    cg_radeon_reg_write(rd, REG_IH_RB_WPTR_ADDR_HI, (uint32_t)((WB + 2048) >> 32));
    /* 64 dwords = 256 bytes: IH_IB_SIZE 6, enabled, wptr writeback, overflow */
    cg_radeon_reg_write(rd, REG_IH_RB_CNTL, 1 | (6u << 1) | (1u << 8) | (1u << 16));
    cg_radeon_reg_write(rd, REG_CP_INT_CNTL, 0xE4000000u); /* RB, IB1, IB2, TIME_STAMP */
    cg_radeon_reg_write(rd, REG_CP_ME_CNTL, 0xff);
}

static void fx_fini(fx *f)
{
    cg_radeon_destroy(f->rd);
    cg_device_destroy(f->dev);
}

/* Write dwords at the ring's wptr (wrapping) and publish wptr. */
static void submit(fx *f, const uint32_t *w, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        cg_vas_cpu_write(cg_radeon_vas(f->rd), RING + 4ull * f->wptr, &w[i], 4);
        f->wptr = (f->wptr + 1) & 63;
    }
    cg_radeon_reg_write(f->rd, REG_CP_RB_WPTR, f->wptr);
}

static uint32_t mem32(fx *f, uint64_t va)
{
    uint32_t v = 0xBADBAD;
    cg_radeon_cpu_read32(f->rd, va, &v);
    return v;
}

static uint32_t reg(fx *f, uint32_t r)
{
    uint32_t v = 0xBADBAD;
    cg_radeon_reg_read(f->rd, r, &v);
    return v;
}

static void put_words(fx *f, uint64_t va, const uint32_t *w, size_t n)
{
    CHECK_EQ(cg_vas_cpu_write(cg_radeon_vas(f->rd), va, w, 4 * n), 0);
}

static cg_radeon_cp_state state(fx *f)
{
    cg_radeon_cp_status st;
    cg_radeon_cp_get_status(f->rd, &st);
    return st.state;
}

/* After a fault: reset the CP and prove a plain write still goes through. */
static void check_recovers(fx *f)
{
    CHECK_EQ(state(f), CG_RADEON_CP_STOPPED);
    CHECK_EQ(cg_radeon_run(f->rd), CG_ERR_FAULT);
    cg_radeon_reg_write(f->rd, REG_GRBM_SOFT_RESET, 1);
    cg_radeon_reg_write(f->rd, REG_GRBM_SOFT_RESET, 0);
    CHECK_EQ(state(f), CG_RADEON_CP_IDLE);
    CHECK_EQ(reg(f, REG_CP_RB_RPTR), 0);
    f->wptr = 0;
    uint32_t w[] = {P3(0x68, 1), (0x851C - 0x8000) >> 2, 0x600D0001};
    submit(f, w, 3);
    CHECK_EQ(reg(f, 0x851C), 0x600D0001);
    CHECK_EQ(state(f), CG_RADEON_CP_IDLE);
}

static const cg_fault *last_fault(fx *f)
{
    size_t n = cg_fault_count(f->dev);
    return n ? cg_fault_get(f->dev, n - 1) : NULL;
}

static void test_set_config_and_writeback(void)
{
    fx f;
    fx_init(&f, CG_RADEON_R600, false, 0);
    /* SET_CONFIG_REG SCRATCH_REG1 (mirrored) and SCRATCH_REG5 (UMSK 0x0f: not) */
    uint32_t w[] = {P3(0x68, 1), 0x141, 0xDEADBEEF, P3(0x68, 1), 0x145, 0x12345678};
    submit(&f, w, 6);
    CHECK_EQ(reg(&f, 0x8504), 0xDEADBEEF);
    CHECK_EQ(mem32(&f, WB + 4), 0xDEADBEEF);
    CHECK_EQ(reg(&f, 0x8514), 0x12345678);
    CHECK_EQ(mem32(&f, WB + 20), 0);
    CHECK_EQ(reg(&f, REG_CP_RB_RPTR), 6);
    CHECK_EQ(mem32(&f, WB + 1024), 6); /* rptr writeback at idle */
    CHECK_EQ(state(&f), CG_RADEON_CP_IDLE);
    CHECK_EQ(reg(&f, REG_GRBM_STATUS), 0);
    /* A run of plain config registers (bulk path), then type 0 and type 2. */
    uint32_t w2[] = {P3(0x68, 3),
                     (0x8958 - 0x8000) >> 2, 4, 5, 6,
                     CG_RADEON_PACKET0(0x8508, 1), 0xAAAA0002, 0xAAAA0003,
                     CG_RADEON_PACKET2(0), CG_RADEON_PACKET2(0x1234)};
    submit(&f, w2, 10);
    CHECK_EQ(reg(&f, 0x8958), 4);
    CHECK_EQ(reg(&f, 0x895C), 5);
    CHECK_EQ(reg(&f, 0x8960), 6);
    CHECK_EQ(reg(&f, 0x8508), 0xAAAA0002);
    CHECK_EQ(reg(&f, 0x850C), 0xAAAA0003);
    CHECK_EQ(mem32(&f, WB + 8), 0xAAAA0002);
    CHECK_EQ(mem32(&f, WB + 12), 0xAAAA0003);
    CHECK_EQ(reg(&f, REG_CP_RB_RPTR), 16);
    cg_radeon_cp_status st;
    cg_radeon_cp_get_status(f.rd, &st);
    CHECK_EQ(st.packets, 6);
    CHECK_EQ(st.dwords, 16);
    CHECK_EQ(st.ring_dw, 64);
    CHECK_EQ(cg_fault_count(f.dev), 0);
    fx_fini(&f);
}

static void test_ring_wrap(void)
{
    fx f;
    fx_init(&f, CG_RADEON_R600, false, 0);
    /* Fill to dword 62, then a 3-dword packet at 62, 63, 0. */
    uint32_t pad[62];
    for (int i = 0; i < 62; i++)
        pad[i] = CG_RADEON_PACKET2(0);
    submit(&f, pad, 62);
    CHECK_EQ(reg(&f, REG_CP_RB_RPTR), 62);
    uint32_t w[] = {P3(0x68, 1), 0x142, 0x0000F00D};
    submit(&f, w, 3);
    CHECK_EQ(reg(&f, 0x8508), 0xF00D);
    CHECK_EQ(reg(&f, REG_CP_RB_RPTR), 1);
    CHECK_EQ(mem32(&f, WB + 1024), 1);
    CHECK_EQ(mem32(&f, RING + 0), 0x0000F00D);
    /* A packet larger than the ring can hold is a fault, not a wait. */
    uint32_t big[] = {P3(0x10, 70)};
    submit(&f, big, 1);
    const cg_fault *ft = last_fault(&f);
    CHECK(ft != NULL);
    if (ft) {
        CHECK_EQ(ft->kind, CG_FAULT_BAD_LENGTH);
        CHECK_EQ(ft->stream_addr, RING + 4);
        CHECK_EQ(ft->words[0], P3(0x10, 70));
        CHECK_STR(ft->unit, "cp");
        CHECK_EQ(ft->family, CG_FAMILY_RADEON);
        CHECK_STR(ft->message, "ring: packet of 72 dwords runs past the end of the ring (63 left)");
    }
    check_recovers(&f);
    fx_fini(&f);
}

static void test_incomplete_packet(void)
{
    fx f;
    fx_init(&f, CG_RADEON_R600, false, 0);
    /* Header and one payload dword committed; the CP waits for the rest. */
    uint32_t w[] = {P3(0x68, 1), 0x143};
    submit(&f, w, 2);
    CHECK_EQ(state(&f), CG_RADEON_CP_WAITING);
    CHECK_EQ(reg(&f, REG_CP_RB_RPTR), 0);
    CHECK_EQ(reg(&f, REG_GRBM_STATUS), 0xA0000000u);
    uint32_t w2[] = {0x77};
    submit(&f, w2, 1);
    CHECK_EQ(reg(&f, 0x850C), 0x77);
    CHECK_EQ(state(&f), CG_RADEON_CP_IDLE);
    CHECK_EQ(cg_fault_count(f.dev), 0);
    fx_fini(&f);
}

static void test_trace_point_and_mem_write(void)
{
    fx f;
    fx_init(&f, CG_RADEON_R600, false, 0);
    uint32_t w[] = {P3(0x10, 0), 0xCAFE0007,
                    P3(0x3D, 3), (uint32_t)DATA, (uint32_t)(DATA >> 32) | (1u << 18), 0x11223344, 0x99,
                    P3(0x3D, 3), (uint32_t)DATA + 8, (uint32_t)(DATA >> 32), 0x55667788, 0xAABBCCDD,
                    P3(0x10, 0), 0xCAFE0009, P3(0x10, 2), 0xCAFE000A, 0, 0};
    submit(&f, w, 18);
    CHECK_EQ(mem32(&f, DATA), 0x11223344);
    CHECK_EQ(mem32(&f, DATA + 4), 0); /* DATA32: one dword */
    CHECK_EQ(mem32(&f, DATA + 8), 0x55667788);
    CHECK_EQ(mem32(&f, DATA + 12), 0xAABBCCDD);
    cg_radeon_cp_status st;
    cg_radeon_cp_get_status(f.rd, &st);
    CHECK(st.trace_valid);
    CHECK_EQ(st.last_trace, 9); /* a NOP with count 2 is not a trace point */
    /* Misaligned 64-bit MEM_WRITE: BAD_ALIGN with the address. */
    uint32_t bad[] = {P3(0x3D, 3), (uint32_t)DATA + 4, (uint32_t)(DATA >> 32), 1, 2};
    submit(&f, bad, 5);
    const cg_fault *ft = last_fault(&f);
    CHECK(ft && ft->kind == CG_FAULT_BAD_ALIGN);
    if (ft) {
        CHECK_EQ(ft->gpu_addr, DATA + 4);
        CHECK_EQ(ft->stream_addr, RING + 4 * 18);
        CHECK_EQ(ft->nwords, 4);
        CHECK_EQ(ft->words[1], (uint32_t)DATA + 4);
    }
    check_recovers(&f);
    /* Unmapped destination: UNMAPPED fault from the address space. */
    uint32_t um[] = {P3(0x3D, 3), 0x40000000, 0x80 | (1u << 18), 1, 0};
    submit(&f, um, 5);
    ft = last_fault(&f);
    CHECK(ft && ft->kind == CG_FAULT_UNMAPPED);
    if (ft) {
        CHECK_EQ(ft->gpu_addr, 0x8040000000ull);
        CHECK_EQ(ft->stream_addr, RING + 4 * 3);
        CHECK_EQ(ft->words[0], P3(0x3D, 3));
    }
    check_recovers(&f);
    fx_fini(&f);
}

static void test_eop_and_interrupts(void)
{
    fx f;
    fx_init(&f, CG_RADEON_R600, false, 0);
    uint32_t hi = (uint32_t)(DATA >> 32);
    uint32_t w[] = {P3(0x47, 4), 0x514, (uint32_t)DATA, hi | (1u << 29) | (2u << 24), 0x1001, 0xFFFF,
                    P3(0x47, 4), 0x514, (uint32_t)DATA + 8, hi | (2u << 29), 0x2002, 0x3003,
                    P3(0x47, 4), 0x514, (uint32_t)DATA + 16, hi | (3u << 29), 0, 0,
                    P3(0x47, 4), 0x514, (uint32_t)DATA + 24, hi | (0u << 29) | (1u << 24), 7, 7};
    submit(&f, w, 24);
    CHECK_EQ(mem32(&f, DATA), 0x1001);
    CHECK_EQ(mem32(&f, DATA + 4), 0);
    CHECK_EQ(mem32(&f, DATA + 8), 0x2002);
    CHECK_EQ(mem32(&f, DATA + 12), 0x3003);
    /* DATA_SEL 3: the model clock = dwords fetched before this packet (12) */
    CHECK_EQ(mem32(&f, DATA + 16), 12);
    CHECK_EQ(mem32(&f, DATA + 20), 0);
    CHECK_EQ(mem32(&f, DATA + 24), 0); /* DATA_SEL 0: discard */
    /* Two interrupts (INT_SEL 2 and 1), 16-byte entries, source 181. */
    CHECK_EQ(mem32(&f, IH + 0), 181);
    CHECK_EQ(mem32(&f, IH + 4), 0);
    CHECK_EQ(mem32(&f, IH + 16), 181);
    CHECK_EQ(reg(&f, REG_IH_RB_WPTR), 32);
    CHECK_EQ(mem32(&f, WB + 2048), 32);
    CHECK_EQ(reg(&f, REG_CP_INT_STATUS), 1u << 26);
    cg_radeon_reg_write(f.rd, REG_CP_INT_STATUS, 1u << 26); /* acknowledge */
    CHECK_EQ(reg(&f, REG_CP_INT_STATUS), 0);
    /* PACKET0 CP_INT_STATUS = RB_INT_STAT: 176 in the ring, 177 in IB1, 178 in IB2. */
    uint32_t ib2[] = {CG_RADEON_PACKET0(0xC128, 0), 0x80000000u};
    uint32_t ib1[] = {CG_RADEON_PACKET0(0xC128, 0), 0x80000000u,
                      P3(0x32, 2), (uint32_t)IB2, (uint32_t)(IB2 >> 32), 2};
    put_words(&f, IB2, ib2, 2);
    put_words(&f, IB1, ib1, 6);
    uint32_t w2[] = {CG_RADEON_PACKET0(0xC128, 0), 0x80000000u,
                     P3(0x32, 2), (uint32_t)IB1, (uint32_t)(IB1 >> 32), 6};
    submit(&f, w2, 6);
    CHECK_EQ(mem32(&f, IH + 32), 176);
    CHECK_EQ(mem32(&f, IH + 48), 177);
    CHECK_EQ(mem32(&f, IH + 64), 178);
    CHECK_EQ(reg(&f, REG_IH_RB_WPTR), 80);
    CHECK_EQ(reg(&f, REG_CP_INT_STATUS), 0xE0000000u);
    /* A disabled source sets status but posts nothing. */
    cg_radeon_reg_write(f.rd, REG_CP_INT_CNTL, 0);
    uint32_t w3[] = {CG_RADEON_PACKET0(0xC128, 0), 0x80000000u};
    submit(&f, w3, 2);
    CHECK_EQ(reg(&f, REG_IH_RB_WPTR), 80);
    /* Overflow: a full IH ring (rptr 0, 15 of 16 slots used) drops the entry. */
    cg_radeon_reg_write(f.rd, REG_CP_INT_CNTL, 0x80000000u);
    for (int i = 0; i < 11; i++)
        submit(&f, w3, 2);
    CHECK_EQ(reg(&f, REG_IH_RB_WPTR), 240 | 1); /* RB_OVERFLOW */
    cg_radeon_counters c;
    cg_radeon_counters_get(f.rd, &c);
    CHECK_EQ(c.irqs_posted, 15);
    CHECK_EQ(c.ih_overflows, 1);
    CHECK_EQ(c.eops, 4);
    /* Reserved DATA_SEL: BAD_STATE. */
    uint32_t bad[] = {P3(0x47, 4), 0x514, (uint32_t)DATA, hi | (5u << 29), 0, 0};
    submit(&f, bad, 6);
    const cg_fault *ft = last_fault(&f);
    CHECK(ft && ft->kind == CG_FAULT_BAD_STATE);
    check_recovers(&f);
    fx_fini(&f);
}

static void test_wait_reg_mem(void)
{
    fx f;
    fx_init(&f, CG_RADEON_R600, false, 5);
    uint32_t hi = (uint32_t)(DATA >> 32);
    /* Wait until (mem & 0xff) == 0x42 (function 3, memory), then MEM_WRITE. */
    uint32_t w[] = {P3(0x3C, 5), 3 | (1u << 4), (uint32_t)DATA, hi, 0x42, 0xff, 10,
                    P3(0x3D, 3), (uint32_t)DATA + 8, hi | (1u << 18), 0x600D, 0};
    submit(&f, w, 12);
    CHECK_EQ(state(&f), CG_RADEON_CP_WAITING);
    CHECK_EQ(reg(&f, REG_CP_RB_RPTR), 0);
    CHECK_EQ(mem32(&f, DATA + 8), 0);
    CHECK_EQ(reg(&f, REG_GRBM_STATUS), 0xA0000000u);
    cg_radeon_cpu_write32(f.rd, DATA, 0x1141); /* masked: 0x41 != 0x42 */
    CHECK_EQ(state(&f), CG_RADEON_CP_WAITING);
    cg_radeon_cpu_write32(f.rd, DATA, 0x5542); /* the CPU write wakes the CP */
    CHECK_EQ(state(&f), CG_RADEON_CP_IDLE);
    CHECK_EQ(mem32(&f, DATA + 8), 0x600D);
    CHECK_EQ(reg(&f, REG_CP_RB_RPTR), 12);
    /* Every compare function once, against a register (SCRATCH_REG4 = 10). */
    cg_radeon_reg_write(f.rd, 0x8510, 10);
    static const struct { unsigned fn; uint32_t ref; bool pass; } cases[] = {
        {0, 99, true}, {1, 11, true}, {1, 10, false}, {2, 10, true}, {2, 9, false},
        {3, 10, true}, {3, 11, false}, {4, 11, true}, {4, 10, false}, {5, 10, true},
        {5, 11, false}, {6, 9, true}, {6, 10, false},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        uint32_t wr[] = {P3(0x3C, 5), cases[i].fn, 0x8510 >> 2, 0, cases[i].ref, 0xffffffff, 10};
        submit(&f, wr, 7);
        CHECK_EQ(state(&f) == CG_RADEON_CP_IDLE, cases[i].pass);
        if (!cases[i].pass) { /* release it with a register write */
            uint32_t r = cases[i].ref, fn = cases[i].fn;
            uint32_t ok = fn <= 2 ? r - 1 : (fn == 3 || fn == 5) ? r : r + 1;
            cg_radeon_reg_write(f.rd, 0x8510, ok);
            CHECK_EQ(state(&f), CG_RADEON_CP_IDLE);
            cg_radeon_reg_write(f.rd, 0x8510, 10);
        }
    }
    CHECK_EQ(cg_fault_count(f.dev), 0);
    /* An impossible wait: mask 0, reference 1, equal. The watchdog budget (5
     * polls) ends it as a HANG fault naming the packet. */
    uint32_t imp[] = {P3(0x3C, 5), 3 | (1u << 4), (uint32_t)DATA, hi, 1, 0, 10};
    uint32_t at = f.wptr;
    submit(&f, imp, 7);
    for (int i = 0; i < 4; i++)
        CHECK_EQ(cg_radeon_run(f.rd), 0);
    CHECK_EQ(state(&f), CG_RADEON_CP_WAITING);
    CHECK_EQ(cg_radeon_run(f.rd), CG_ERR_FAULT);
    const cg_fault *ft = last_fault(&f);
    CHECK(ft != NULL);
    if (ft) {
        CHECK_EQ(ft->kind, CG_FAULT_HANG);
        CHECK_EQ(ft->gpu_addr, DATA); /* what it polled */
        CHECK_EQ(ft->stream_addr, RING + 4ull * at);
        CHECK_EQ(ft->words[0], P3(0x3C, 5));
        CHECK_EQ(ft->words[1], 3 | (1u << 4));
        CHECK_STR(ft->message,
                  "ring: budget radeon.wait-polls: WAIT_REG_MEM not satisfied after 5 polls (watchdog)");
    }
    check_recovers(&f);
    /* A register wait names its register; a register outside the space, too. */
    uint32_t regw[] = {P3(0x3C, 5), 3, 0x8510 >> 2, 0, 1, 0, 10};
    submit(&f, regw, 7);
    for (int i = 0; i < 5; i++)
        cg_radeon_run(f.rd);
    ft = last_fault(&f);
    CHECK(ft && ft->kind == CG_FAULT_HANG && ft->gpu_addr == 0x8510);
    check_recovers(&f);
    uint32_t outside[] = {P3(0x3C, 5), 3, 0x10000, 0, 1, 0, 10};
    submit(&f, outside, 7);
    ft = last_fault(&f);
    CHECK(ft && ft->kind == CG_FAULT_INVALID_METHOD && ft->gpu_addr == 0x40000);
    check_recovers(&f);
    /* The stream may not write a host register: the record names it. */
    uint32_t host[] = {CG_RADEON_PACKET0(REG_CP_RB_WPTR, 0), 5};
    submit(&f, host, 2);
    ft = last_fault(&f);
    CHECK(ft && ft->kind == CG_FAULT_INVALID_METHOD && ft->gpu_addr == REG_CP_RB_WPTR);
    check_recovers(&f);
    fx_fini(&f);
}

static void test_sync_dma_semaphore_copy(void)
{
    fx f;
    fx_init(&f, CG_RADEON_R700, false, 3);
    uint32_t hi = (uint32_t)(DATA >> 32);
    uint32_t src[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    put_words(&f, DATA, src, 8);
    uint32_t w[] = {P3(0x43, 3), 0x09800000, 0xFFFFFFFF, 0, 10,
                    /* CP_DMA copy 32 bytes DATA -> DATA+0x100 */
                    P3(0x41, 4), (uint32_t)DATA, hi, (uint32_t)DATA + 0x100, hi, 32,
                    /* CP_DMA data fill 0x5A5A5A5A, 12 bytes -> DATA+0x200 */
                    P3(0x41, 4), 0x5A5A5A5A, 2u << 29, (uint32_t)DATA + 0x200, hi, 12,
                    /* CP_DMA memory -> registers SCRATCH_REG4..5 (DAS) */
                    P3(0x41, 4), (uint32_t)DATA + 8, hi, 0x8510, 0, 8 | (1u << 27)};
    submit(&f, w, 23);
    CHECK_EQ(reg(&f, REG_CP_COHER_CNTL), 0x09800000);
    CHECK_EQ(reg(&f, REG_CP_COHER_SIZE), 0xFFFFFFFF);
    for (int i = 0; i < 8; i++)
        CHECK_EQ(mem32(&f, DATA + 0x100 + 4 * i), (uint32_t)i + 1);
    CHECK_EQ(mem32(&f, DATA + 0x200), 0x5A5A5A5A);
    CHECK_EQ(mem32(&f, DATA + 0x208), 0x5A5A5A5A);
    CHECK_EQ(mem32(&f, DATA + 0x20C), 0);
    CHECK_EQ(reg(&f, 0x8510), 3);
    CHECK_EQ(reg(&f, 0x8514), 4);
    /* COPY_DW register -> memory, memory -> register. */
    uint32_t w2[] = {P3(0x3B, 4), 2, 0x8510 >> 2, 0, (uint32_t)DATA + 0x300, hi,
                     P3(0x3B, 4), 1, (uint32_t)DATA + 12, hi, 0x8518 >> 2, 0};
    submit(&f, w2, 12);
    CHECK_EQ(mem32(&f, DATA + 0x300), 3);
    CHECK_EQ(reg(&f, 0x8518), 4);
    /* MEM_SEMAPHORE: signal twice, wait twice (counts 2 -> 0), wait blocks. */
    uint64_t sem = DATA + 0x400;
    uint32_t sig[] = {P3(0x39, 1), (uint32_t)sem, hi | (6u << 29)};
    uint32_t wt[] = {P3(0x39, 1), (uint32_t)sem, hi | (7u << 29)};
    submit(&f, sig, 3);
    submit(&f, sig, 3);
    CHECK_EQ(mem32(&f, sem), 2);
    submit(&f, wt, 3);
    submit(&f, wt, 3);
    CHECK_EQ(mem32(&f, sem), 0);
    CHECK_EQ(state(&f), CG_RADEON_CP_IDLE);
    submit(&f, wt, 3);
    CHECK_EQ(state(&f), CG_RADEON_CP_WAITING);
    cg_radeon_cpu_write32(f.rd, sem, 1); /* another agent signals */
    CHECK_EQ(state(&f), CG_RADEON_CP_IDLE);
    CHECK_EQ(mem32(&f, sem), 0);
    CHECK_EQ(cg_fault_count(f.dev), 0);
    /* CP_DMA to registers: every register of the span must be inside the
     * register space, counted in 64 bits. 16 bytes to 0xFFFFFFF8 wrapped to
     * 0x4 in 32 bits and wrote far outside the model's register array
     * (fuzz_radeon_pm4, corpus cp_dma_reg_wrap); 16 bytes starting 8 below
     * the end run past it: the record names the first register outside. */
    uint32_t wrap[] = {P3(0x41, 4), (uint32_t)DATA, hi, 0xFFFFFFF8, 0, 16 | (1u << 27)};
    submit(&f, wrap, 6);
    const cg_fault *fw = last_fault(&f);
    CHECK(fw && fw->kind == CG_FAULT_INVALID_METHOD && fw->gpu_addr == 0xFFFFFFF8);
    check_recovers(&f);
    uint32_t past[] = {P3(0x41, 4), (uint32_t)DATA, hi, CG_RADEON_REG_SPACE - 8, 0,
                       16 | (1u << 27)};
    submit(&f, past, 6);
    fw = last_fault(&f);
    CHECK(fw && fw->kind == CG_FAULT_INVALID_METHOD && fw->gpu_addr == CG_RADEON_REG_SPACE);
    check_recovers(&f);
    /* CP_DMA to GDS: explicitly unsupported. */
    uint32_t gds[] = {P3(0x41, 4), 0, 1u << 20, 0, 0, 4};
    submit(&f, gds, 6);
    const cg_fault *ft = last_fault(&f);
    CHECK(ft && ft->kind == CG_FAULT_UNSUPPORTED);
    check_recovers(&f);
    fx_fini(&f);
}

static void test_predication_cond_exec_draws(void)
{
    fx f;
    fx_init(&f, CG_RADEON_R600, false, 0);
    uint32_t hi = (uint32_t)(DATA >> 32);
    cg_radeon_cpu_write32(f.rd, DATA + 4, 1);
    /* COND_EXEC on 0 skips 3 dwords (the SET_CONFIG_REG); on 1 it does not. */
    uint32_t w[] = {P3(0x20, 1), (uint32_t)DATA, hi,
                    P3(0x22, 2), (uint32_t)DATA, hi, 3,
                    P3(0x68, 1), 0x140, 0x1111,
                    P3(0x22, 2), (uint32_t)DATA + 4, hi, 3,
                    P3(0x68, 1), 0x141, 0x2222,
                    P3(0x2D, 1), 3, 2, /* DRAW_INDEX_AUTO: recorded */
                    P3(0x28, 1), 0x80000000, 0x80000000};
    submit(&f, w, 23);
    CHECK_EQ(reg(&f, 0x8500), 0);
    CHECK_EQ(reg(&f, 0x8504), 0x2222);
    CHECK_EQ(cg_radeon_draw_count(f.rd), 1);
    const cg_radeon_draw *d = cg_radeon_draw_get(f.rd, 0);
    CHECK(d != NULL);
    if (d) {
        CHECK_STR(d->name, "DRAW_INDEX_AUTO");
        CHECK_EQ(d->opcode, 0x2D);
        CHECK_EQ(d->dw[0], 3);
        CHECK_EQ(d->dw[1], 2);
        CHECK_EQ(d->stream_addr, RING + 4 * 17);
    }
    CHECK_EQ(cg_fault_count(f.dev), 0);
    uint32_t bad[] = {P3(0x20, 1), (uint32_t)DATA, hi | (1u << 16)};
    submit(&f, bad, 3);
    const cg_fault *ft = last_fault(&f);
    CHECK(ft && ft->kind == CG_FAULT_UNSUPPORTED);
    check_recovers(&f);
    fx_fini(&f);
}

static void test_indirect_buffers(void)
{
    fx f;
    fx_init(&f, CG_RADEON_R600, false, 0);
    uint32_t ib2[] = {P3(0x68, 1), 0x142, 0x2B2B};
    uint32_t ib1[] = {P3(0x68, 1), 0x140, 0x1B1B,
                      P3(0x32, 2), (uint32_t)IB2, (uint32_t)(IB2 >> 32), 3,
                      P3(0x68, 1), 0x141, 0x1C1C};
    put_words(&f, IB2, ib2, 3);
    put_words(&f, IB1, ib1, 10);
    uint32_t w[] = {P3(0x32, 2), (uint32_t)IB1, (uint32_t)(IB1 >> 32), 10,
                    P3(0x68, 1), 0x143, 0x0303};
    submit(&f, w, 7);
    CHECK_EQ(reg(&f, 0x8500), 0x1B1B);
    CHECK_EQ(reg(&f, 0x8504), 0x1C1C);
    CHECK_EQ(reg(&f, 0x8508), 0x2B2B);
    CHECK_EQ(reg(&f, 0x850C), 0x0303);
    cg_radeon_cp_status st;
    cg_radeon_cp_get_status(f.rd, &st);
    CHECK_EQ(st.ib_depth, 0);
    CHECK_EQ(st.rptr, 7);
    CHECK_EQ(cg_fault_count(f.dev), 0);
    /* A third level: IB2 calling an IB is a DEPTH fault at the IB2 packet. */
    uint32_t ib2b[] = {P3(0x32, 2), (uint32_t)IB2, (uint32_t)(IB2 >> 32), 4};
    put_words(&f, IB2, ib2b, 4);
    uint32_t ib1b[] = {P3(0x32, 2), (uint32_t)IB2, (uint32_t)(IB2 >> 32), 4};
    put_words(&f, IB1, ib1b, 4);
    uint32_t w2[] = {P3(0x32, 2), (uint32_t)IB1, (uint32_t)(IB1 >> 32), 4};
    submit(&f, w2, 4);
    const cg_fault *ft = last_fault(&f);
    CHECK(ft != NULL);
    if (ft) {
        CHECK_EQ(ft->kind, CG_FAULT_DEPTH);
        CHECK_EQ(ft->stream_addr, IB2);
        CHECK_STR(ft->message, "IB2: INDIRECT_BUFFER inside IB2: the CP has two IB levels");
    }
    cg_radeon_cp_get_status(f.rd, &st);
    CHECK_EQ(st.ib_depth, 2);
    check_recovers(&f);
    /* A packet running past the end of its IB. */
    uint32_t ib1c[] = {P3(0x68, 2), 0x140, 1};
    put_words(&f, IB1, ib1c, 3);
    uint32_t w3[] = {P3(0x32, 2), (uint32_t)IB1, (uint32_t)(IB1 >> 32), 3};
    submit(&f, w3, 4);
    ft = last_fault(&f);
    CHECK(ft && ft->kind == CG_FAULT_BAD_LENGTH);
    if (ft) {
        CHECK_EQ(ft->stream_addr, IB1);
        CHECK_STR(ft->message, "IB1: packet of 4 dwords runs past the end of the IB (3 left)");
    }
    check_recovers(&f);
    /* An IB at an unmapped address. */
    uint32_t w4[] = {P3(0x32, 2), 0x00200000, 0x40, 16};
    submit(&f, w4, 4);
    ft = last_fault(&f);
    CHECK(ft && ft->kind == CG_FAULT_UNMAPPED);
    if (ft) {
        CHECK_EQ(ft->gpu_addr, 0x4000200000ull);
        CHECK_EQ(ft->stream_addr, 0x4000200000ull);
    }
    check_recovers(&f);
    fx_fini(&f);
}

static void test_bad_packets(void)
{
    fx f;
    fx_init(&f, CG_RADEON_R600, false, 0);
    /* Unknown opcode, strict: INVALID_OPCODE with the packet's address and header. */
    uint32_t pad[] = {CG_RADEON_PACKET2(0), P3(0x99, 1), 1, 2};
    submit(&f, pad, 4);
    const cg_fault *ft = last_fault(&f);
    CHECK(ft != NULL);
    if (ft) {
        CHECK_EQ(ft->kind, CG_FAULT_INVALID_OPCODE);
        CHECK_EQ(ft->stream_addr, RING + 4);
        CHECK_EQ(ft->words[0], 0xC0019900u);
        CHECK_EQ(ft->flags & CG_FAULT_F_WARNING, 0);
        CHECK_STR(ft->message, "ring: unknown type-3 opcode 0x99 (header 0xc0019900) for r600");
    }
    check_recovers(&f);
    /* Type 1 on R600. */
    uint32_t t1[] = {0x40000000u | 0x141 | (0x142u << 11), 5, 6};
    submit(&f, t1, 3);
    ft = last_fault(&f);
    CHECK(ft && ft->kind == CG_FAULT_INVALID_OPCODE);
    check_recovers(&f);
    /* SET_CONFIG_REG past its window end (0xAC00). */
    uint32_t win[] = {P3(0x68, 2), (0xABFC - 0x8000) >> 2, 1, 2};
    submit(&f, win, 4);
    ft = last_fault(&f);
    CHECK(ft && ft->kind == CG_FAULT_INVALID_METHOD);
    if (ft) {
        CHECK_EQ(ft->gpu_addr, 0xABFC);
        CHECK_STR(ft->message,
                  "ring: SET_CONFIG_REG writes 0xabfc..0xac00 outside its window [0x8000, 0xac00)");
    }
    check_recovers(&f);
    /* Wrong count for a fixed-size packet. */
    uint32_t cnt[] = {P3(0x3D, 2), 0, 0, 0};
    submit(&f, cnt, 4);
    ft = last_fault(&f);
    CHECK(ft && ft->kind == CG_FAULT_BAD_LENGTH);
    if (ft)
        CHECK_STR(ft->message, "ring: MEM_WRITE with count 2 (takes 3..3)");
    check_recovers(&f);
    /* Known but unmodelled packet. */
    uint32_t un[] = {P3(0x45, 0), 0};
    submit(&f, un, 2);
    ft = last_fault(&f);
    CHECK(ft && ft->kind == CG_FAULT_UNSUPPORTED);
    check_recovers(&f);
    /* Type 0 writing a host-owned register (CP_RB_BASE). */
    uint32_t own[] = {CG_RADEON_PACKET0(0xC100, 0), 0};
    submit(&f, own, 2);
    ft = last_fault(&f);
    CHECK(ft && ft->kind == CG_FAULT_INVALID_METHOD);
    check_recovers(&f);
    fx_fini(&f);

    /* Lenient: the unknown packet is skipped with a warning, the next runs. */
    fx_init(&f, CG_RADEON_R600, true, 0);
    uint32_t w[] = {P3(0x99, 1), 1, 2, P3(0x68, 1), 0x140, 0x7777};
    submit(&f, w, 6);
    CHECK_EQ(reg(&f, 0x8500), 0x7777);
    CHECK_EQ(state(&f), CG_RADEON_CP_IDLE);
    CHECK_EQ(cg_fault_count(f.dev), 1);
    ft = last_fault(&f);
    CHECK(ft && (ft->flags & CG_FAULT_F_WARNING));
    cg_radeon_cp_status st;
    cg_radeon_cp_get_status(f.rd, &st);
    CHECK_EQ(st.warnings, 1);
    fx_fini(&f);
}

static void test_generations(void)
{
    fx f;
    /* Evergreen: SET_RESOURCE starts at 0x30000; MODE_CONTROL exists. */
    fx_init(&f, CG_RADEON_EVERGREEN, false, 0);
    uint32_t w[] = {P3(0x18, 0), 1, P3(0x6D, 1), 2, 0xE6E6};
    submit(&f, w, 5);
    CHECK_EQ(reg(&f, 0x30008), 0xE6E6);
    CHECK_EQ(cg_fault_count(f.dev), 0);
    fx_fini(&f);
    /* R600: the same SET_RESOURCE index lands at 0x38008; 0x18 is unknown. */
    fx_init(&f, CG_RADEON_R600, false, 0);
    uint32_t w2[] = {P3(0x6D, 1), 2, 0x6060, P3(0x18, 0), 1};
    submit(&f, w2, 5);
    CHECK_EQ(reg(&f, 0x38008), 0x6060);
    const cg_fault *ft = last_fault(&f);
    CHECK(ft && ft->kind == CG_FAULT_INVALID_OPCODE);
    fx_fini(&f);
    /* R500: 13-bit type-0 index with ONE_REG_WR, and type 1. */
    fx_init(&f, CG_RADEON_R500, false, 0);
    uint32_t w3[] = {(0x1500 >> 2) | (1u << 15) | (2u << 16), 7, 8, 9,
                     (0x1504 >> 2) | (1u << 16), 0xA, 0xB,
                     0x40000000u | (0x1510 >> 2) | ((0x1520u >> 2) << 11), 0xC, 0xD};
    submit(&f, w3, 10);
    CHECK_EQ(reg(&f, 0x1500), 9);   /* one register, three writes */
    CHECK_EQ(reg(&f, 0x1504), 0xA);
    CHECK_EQ(reg(&f, 0x1508), 0xB);
    CHECK_EQ(reg(&f, 0x1510), 0xC);
    CHECK_EQ(reg(&f, 0x1520), 0xD);
    CHECK_EQ(cg_fault_count(f.dev), 0);
    fx_fini(&f);
}

static void test_halt_and_budget(void)
{
    fx f;
    fx_init(&f, CG_RADEON_R600, false, 0);
    cg_radeon_reg_write(f.rd, REG_CP_ME_CNTL, 1u << 28);
    uint32_t w[] = {P3(0x68, 1), 0x140, 0xABCD};
    submit(&f, w, 3);
    CHECK_EQ(state(&f), CG_RADEON_CP_HALTED);
    CHECK_EQ(reg(&f, 0x8500), 0);
    cg_radeon_reg_write(f.rd, REG_CP_ME_CNTL, 0xff);
    CHECK_EQ(reg(&f, 0x8500), 0xABCD);
    fx_fini(&f);
    /* Run budget: 4 dwords per run; 3 packets of 3 dwords need three runs. */
    CHECK_EQ(cg_device_create(&f.dev), 0);
    cg_radeon_config c = {.manual = true, .run_budget = 4};
    CHECK_EQ(cg_radeon_create(f.dev, &c, &f.rd), 0);
    f.wptr = 0;
    cg_radeon_reg_write(f.rd, REG_CP_RB_CNTL, 5 | (1u << 27));
    cg_radeon_reg_write(f.rd, REG_CP_RB_BASE, (uint32_t)(RING >> 8));
    cg_radeon_reg_write(f.rd, REG_CP_ME_CNTL, 0);
    uint32_t w2[] = {P3(0x68, 1), 0x140, 1, P3(0x68, 1), 0x141, 2, P3(0x68, 1), 0x142, 3};
    submit(&f, w2, 9);
    CHECK_EQ(reg(&f, 0x8500), 0); /* manual: nothing ran */
    CHECK_EQ(cg_radeon_run(f.rd), CG_ERR_BUSY);
    CHECK_EQ(reg(&f, REG_CP_RB_RPTR), 6);
    CHECK_EQ(cg_radeon_run(f.rd), 0);
    CHECK_EQ(reg(&f, 0x8508), 3);
    CHECK_EQ(reg(&f, REG_CP_RB_RPTR), 9);
    CHECK_EQ(mem32(&f, WB + 1024), 0); /* RB_NO_UPDATE: no rptr writeback */
    fx_fini(&f);
}

static void test_mmio_api(void)
{
    fx f;
    fx_init(&f, CG_RADEON_R600, false, 0);
    uint32_t v;
    CHECK_EQ(cg_radeon_reg_read(f.rd, 0x8502, &v), CG_ERR_ALIGN);
    CHECK_EQ(cg_radeon_reg_read(f.rd, 0x40000, &v), CG_ERR_RANGE);
    CHECK_EQ(cg_radeon_reg_write(f.rd, 0x40000, 1), CG_ERR_RANGE);
    /* RB_RPTR_WR_ENA lets the host set rptr. */
    cg_radeon_reg_write(f.rd, REG_CP_RB_CNTL, 5 | (1u << 31));
    cg_radeon_reg_write(f.rd, REG_CP_RB_RPTR_WR, 9);
    CHECK_EQ(reg(&f, REG_CP_RB_RPTR), 9);
    cg_radeon_reg_write(f.rd, REG_CP_RB_CNTL, 5);
    cg_radeon_reg_write(f.rd, REG_CP_RB_RPTR_WR, 3);
    CHECK_EQ(reg(&f, REG_CP_RB_RPTR), 9);
    uint64_t a, b;
    CHECK_EQ(cg_radeon_alloc(f.rd, CG_RADEON_VRAM, 100, 0, &a), 0);
    CHECK_EQ(a, 0);
    CHECK_EQ(cg_radeon_alloc(f.rd, CG_RADEON_VRAM, 100, 4096, &b), 0);
    CHECK_EQ(b, 4096);
    CHECK_EQ(cg_radeon_alloc(f.rd, CG_RADEON_GTT, 1, 0, &a), 0);
    CHECK_EQ(a, CG_RADEON_GTT_BASE);
    CHECK_EQ(cg_radeon_alloc(f.rd, CG_RADEON_GTT, 64ull << 20, 0, &a), CG_ERR_NOSPACE);
    CHECK_EQ(cg_radeon_alloc(f.rd, CG_RADEON_GTT, 16, 3, &a), CG_ERR_INVAL);
    fx_fini(&f);
}

int main(void)
{
    test_set_config_and_writeback();
    test_ring_wrap();
    test_incomplete_packet();
    test_trace_point_and_mem_write();
    test_eop_and_interrupts();
    test_wait_reg_mem();
    test_sync_dma_semaphore_copy();
    test_predication_cond_exec_draws();
    test_indirect_buffers();
    test_bad_packets();
    test_generations();
    test_halt_and_budget();
    test_mmio_api();
    return check_report("test_radeon_cp");
}
