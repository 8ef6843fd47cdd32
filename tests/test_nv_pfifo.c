/* nv: GPFIFO, the pushbuffer decoder and the host class, with exact memory
 * contents and exact fault records; after every fault a second channel still
 * works. */
#include "nv_testenv.h"

#define SEM_REL4 (2u | 1u << 24)
#define SEM_REL16 2u

/* words for a 4-byte semaphore release of `val` at va */
static size_t rel4(uint32_t *w, uint64_t va, uint32_t val)
{
    w[0] = H_INC(0, NVB06F_SEMAPHOREA, 4);
    w[1] = (uint32_t)(va >> 32);
    w[2] = (uint32_t)va;
    w[3] = val;
    w[4] = SEM_REL4;
    return 5;
}

/* A second channel still works after a fault on the first. */
static void check_other_channel(nv_env *e, int c, uint64_t va, uint32_t val)
{
    uint32_t w[5];
    env_submit(e, c, w, rel4(w, va, val));
    cg_nv_gpu_run(e->gpu);
    CHECK_EQ(env_rd32(e, va), val);
    CHECK_EQ(env_state(e, c), CG_NV_CH_IDLE);
}

static void test_release_and_reductions(void)
{
    nv_env e;
    env_init(&e);
    uint64_t s = e.data_va;
    uint32_t w[64];
    size_t n = 0;
    /* 16-byte release first: time is 4 at SEMAPHORED (4th method) */
    w[n++] = H_INC(0, NVB06F_SEMAPHOREA, 4);
    w[n++] = (uint32_t)(s >> 32);
    w[n++] = (uint32_t)s;
    w[n++] = 0x11223344;
    w[n++] = SEM_REL16;
    /* 4-byte release at s + 0x20 */
    n += rel4(w + n, s + 0x20, 0xCAFEF00D);
    env_submit(&e, 0, w, n);
    CHECK_EQ(cg_nv_gpu_run(e.gpu), 8);
    CHECK_EQ(env_rd32(&e, s), 0x11223344);
    CHECK_EQ(env_rd32(&e, s + 4), 0);
    CHECK_EQ(env_rd32(&e, s + 8), 4);
    CHECK_EQ(env_rd32(&e, s + 12), 0);
    CHECK_EQ(env_rd32(&e, s + 0x20), 0xCAFEF00D);
    CHECK_EQ(env_rd32(&e, s + 0x24), 0); /* 4-byte form writes 4 bytes */

    /* reductions: (initial, payload, op, signed) -> result */
    static const struct { uint32_t init, pay; unsigned op; bool sgn; uint32_t want; } red[] = {
        {0xFFFFFFFF, 1, 0, true, 0xFFFFFFFF}, /* MIN signed: -1 */
        {0xFFFFFFFF, 1, 0, false, 1},         /* MIN unsigned */
        {0xFFFFFFFF, 1, 1, true, 1},          /* MAX signed */
        {0xFFFFFFFF, 1, 1, false, 0xFFFFFFFF},
        {0xF0F0, 0xFF00, 2, false, 0x0FF0},   /* XOR */
        {0xF0F0, 0xFF00, 3, false, 0xF000},   /* AND */
        {0xF0F0, 0xFF00, 4, false, 0xFFF0},   /* OR */
        {5, 3, 5, false, 8},                  /* ADD */
        {0xFFFFFFFF, 2, 5, true, 1},          /* ADD signed wraps the same */
        {2, 3, 6, false, 3},                  /* INC below the limit */
        {3, 3, 6, false, 0},                  /* INC at the limit wraps to 0 */
        {5, 7, 7, false, 4},                  /* DEC */
        {0, 7, 7, false, 7},                  /* DEC from 0 wraps to the payload */
        {9, 7, 7, false, 7},                  /* DEC above the payload */
    };
    for (size_t i = 0; i < sizeof(red) / sizeof(red[0]); i++) {
        uint64_t va = s + 0x100 + 4 * i;
        CHECK_EQ(cg_vas_cpu_write(e.vas, va, &red[i].init, 4), 0);
        uint32_t r[5] = {H_INC(0, NVB06F_SEMAPHOREA, 4), (uint32_t)(va >> 32), (uint32_t)va,
                         red[i].pay, 16u | red[i].op << 27 | (red[i].sgn ? 0u : 1u << 31)};
        env_submit(&e, 0, r, 5);
    }
    cg_nv_gpu_run(e.gpu);
    for (size_t i = 0; i < sizeof(red) / sizeof(red[0]); i++)
        CHECK_EQ(env_rd32(&e, s + 0x100 + 4 * i), red[i].want);
    CHECK_EQ(cg_fault_count(e.dev), 0);
    env_fini(&e);
}

static void test_acquire(void)
{
    nv_env e;
    env_init(&e);
    uint64_t s = e.data_va;
    uint32_t w[32];
    size_t n = 0;
    /* ACQUIRE == 1 at s, then release 0xAA at s+4 */
    w[n++] = H_INC(0, NVB06F_SEMAPHOREA, 4);
    w[n++] = (uint32_t)(s >> 32);
    w[n++] = (uint32_t)s;
    w[n++] = 1;
    w[n++] = 1; /* ACQUIRE */
    n += rel4(w + n, s + 4, 0xAA);
    env_submit(&e, 0, w, n);
    cg_nv_gpu_run(e.gpu);
    CHECK_EQ(env_state(&e, 0), CG_NV_CH_BLOCKED);
    CHECK_EQ(env_rd32(&e, s + 4), 0);
    /* the CPU releases */
    uint32_t one = 1;
    CHECK_EQ(cg_vas_cpu_write(e.vas, s, &one, 4), 0);
    cg_nv_gpu_run(e.gpu);
    CHECK_EQ(env_rd32(&e, s + 4), 0xAA);
    CHECK_EQ(env_state(&e, 0), CG_NV_CH_IDLE);

    /* ACQ_GEQ 5 on channel 0, satisfied by channel 1 in the same run;
     * circular compare: 0xFFFFFFFF is "before" 5, 6 is not. */
    n = 0;
    w[n++] = H_INC(0, NVB06F_SEMAPHOREA, 4);
    w[n++] = (uint32_t)(s >> 32);
    w[n++] = (uint32_t)(s + 0x10);
    w[n++] = 5;
    w[n++] = 4; /* ACQ_GEQ */
    n += rel4(w + n, s + 0x14, 0xBB);
    env_submit(&e, 0, w, n);
    uint32_t v = 0xFFFFFFFF;
    cg_vas_cpu_write(e.vas, s + 0x10, &v, 4);
    cg_nv_gpu_run(e.gpu);
    CHECK_EQ(env_state(&e, 0), CG_NV_CH_BLOCKED);
    n = rel4(w, s + 0x10, 6);
    env_submit(&e, 1, w, n);
    cg_nv_gpu_run(e.gpu);
    CHECK_EQ(env_rd32(&e, s + 0x14), 0xBB);

    /* ACQ_AND with mask 0x10 never satisfied: the watchdog ends it. */
    n = 0;
    w[n++] = H_INC(0, NVB06F_SEMAPHOREA, 4);
    w[n++] = (uint32_t)(s >> 32);
    w[n++] = (uint32_t)(s + 0x20);
    w[n++] = 0x10;
    w[n++] = 8; /* ACQ_AND */
    uint64_t at = env_submit(&e, 0, w, n);
    v = 0x0F;
    cg_vas_cpu_write(e.vas, s + 0x20, &v, 4);
    cg_nv_gpu_run(e.gpu);
    CHECK_EQ(cg_fault_count(e.dev), 0); /* one idle run is not a hang yet */
    cg_nv_gpu_run(e.gpu);
    CHECK_EQ(cg_fault_count(e.dev), 1);
    const cg_fault *f = env_last_fault(&e);
    CHECK_EQ(f->kind, CG_FAULT_HANG);
    CHECK_EQ(f->family, CG_FAMILY_NV);
    CHECK_STR(f->unit, "host");
    CHECK_EQ(f->channel, cg_nv_channel_id(e.ch[0]));
    CHECK_EQ(f->gpu_addr, s + 0x20);
    CHECK_EQ(f->stream_addr, at + 16);
    CHECK_EQ(f->nwords, 2);
    CHECK_EQ(f->words[0], w[0]);
    CHECK_EQ(f->words[1], 8);
    char want[192];
    snprintf(want, sizeof(want),
             "budget nv.wait-runs: semaphore acquire at 0x%010llx never satisfied: memory holds "
             "0x0000000f, ACQ_AND (&) 0x00000010", (unsigned long long)(s + 0x20));
    CHECK_STR(f->message, want);
    CHECK_EQ(env_state(&e, 0), CG_NV_CH_FAULTED);
    uint64_t ent = 0;
    CHECK_EQ(cg_nv_channel_submit_gpfifo(e.ch[0], &ent, 1, 0, NULL), CG_ERR_PERM);
    check_other_channel(&e, 1, s + 0x40, 0x1234);
    env_fini(&e);
}

static void test_syncpoints(void)
{
    nv_env e;
    env_init(&e);
    uint64_t s = e.data_va;
    uint32_t w[16];
    /* fence increment: kernel appends WFI + 2 increments */
    size_t n = rel4(w, s, 7);
    uint64_t va = env_put(&e, w, n);
    uint64_t ent = cg_nv_gp_entry(va, (uint32_t)n, 0);
    cg_nv_fence f1 = {0, 0};
    CHECK_EQ(cg_nv_channel_submit_gpfifo(e.ch[1], &ent, 1, CG_NV_SUBMIT_FENCE_INCREMENT, &f1), 0);
    CHECK_EQ(f1.id, cg_nv_channel_syncpt(e.ch[1]));
    CHECK_EQ(f1.value, 2);
    CHECK(!cg_nv_fence_reached(e.gpu, f1));
    CHECK_EQ(cg_nv_fence_wait(e.gpu, f1, 0), CG_ERR_TIMEOUT); /* poll only */
    /* channel 0 waits for channel 1's fence before its own work */
    n = rel4(w, s + 4, 8);
    va = env_put(&e, w, n);
    ent = cg_nv_gp_entry(va, (uint32_t)n, 0);
    cg_nv_fence f0 = f1;
    CHECK_EQ(cg_nv_channel_submit_gpfifo(e.ch[0], &ent, 1,
                                         CG_NV_SUBMIT_FENCE_WAIT | CG_NV_SUBMIT_FENCE_INCREMENT,
                                         &f0), 0);
    CHECK_EQ(f0.id, cg_nv_channel_syncpt(e.ch[0]));
    CHECK_EQ(f0.value, 2);
    CHECK_EQ(cg_nv_fence_wait(e.gpu, f0, 1000), 0);
    CHECK_EQ(cg_nv_syncpt_read(e.gpu, f1.id), 2);
    CHECK_EQ(cg_nv_syncpt_read(e.gpu, f0.id), 2);
    CHECK_EQ(env_rd32(&e, s), 7);
    CHECK_EQ(env_rd32(&e, s + 4), 8);
    /* in-stream: SYNCPOINTA/B wait for a CPU increment */
    uint32_t id = cg_nv_channel_syncpt(e.ch[1]);
    n = 0;
    w[n++] = H_INC(0, NVB06F_SYNCPOINTA, 2);
    w[n++] = 3;
    w[n++] = 0u | id << 8; /* WAIT */
    n += rel4(w + n, s + 8, 9);
    env_submit(&e, 0, w, n);
    cg_nv_gpu_run(e.gpu);
    CHECK_EQ(env_state(&e, 0), CG_NV_CH_BLOCKED);
    CHECK_EQ(cg_nv_syncpt_incr(e.gpu, id), 0);
    cg_nv_gpu_run(e.gpu);
    CHECK_EQ(env_rd32(&e, s + 8), 9);
    /* a wait nothing will satisfy: fence_wait times out, finish() hangs it */
    n = 0;
    w[n++] = H_INC(0, NVB06F_SYNCPOINTA, 2);
    w[n++] = 100;
    w[n++] = 0u | id << 8;
    uint64_t at = env_submit(&e, 0, w, n);
    cg_nv_fence never = {id, 100};
    CHECK_EQ(cg_nv_fence_wait(e.gpu, never, 1000), CG_ERR_TIMEOUT);
    cg_nv_gpu_finish(e.gpu);
    const cg_fault *f = env_last_fault(&e);
    CHECK(f != NULL);
    if (f) {
        CHECK_EQ(f->kind, CG_FAULT_HANG);
        CHECK_EQ(f->stream_addr, at + 8);
        char want[160];
        snprintf(want, sizeof(want),
                 "budget nv.wait-runs: syncpoint %u wait never satisfied: value 3, waiting for 100",
                 id);
        CHECK_STR(f->message, want);
    }
    check_other_channel(&e, 1, s + 12, 10);
    env_fini(&e);
}

/* Bind objects the NVN way on channel c. */
static size_t bind_all(uint32_t *w)
{
    static const uint32_t cls[5] = {0xB197, 0xB1C0, 0xA140, 0x902D, 0xB0B5};
    size_t n = 0;
    for (unsigned s = 0; s < 5; s++) {
        w[n++] = H_INC(s, 0, 1);
        w[n++] = cls[s];
    }
    return n;
}

static void expect_fault(nv_env *e, cg_fault_kind kind, const char *unit, uint64_t stream,
                         uint32_t w0, uint32_t w1, const char *msg)
{
    const cg_fault *f = env_last_fault(e);
    CHECK(f != NULL);
    if (!f)
        return;
    CHECK_EQ(f->kind, kind);
    CHECK_STR(f->unit, unit);
    CHECK_EQ(f->channel, cg_nv_channel_id(e->ch[0]));
    CHECK_EQ(f->stream_addr, stream);
    CHECK_EQ(f->words[0], w0);
    CHECK_EQ(f->words[1], w1);
    CHECK_STR(f->message, msg);
    CHECK_EQ(env_state(e, 0), CG_NV_CH_FAULTED);
}

static void test_faults(void)
{
    uint32_t w[32];
    size_t n;
    uint64_t at;
    struct { uint32_t words[6]; size_t n; size_t bad; cg_fault_kind kind; const char *unit;
             uint32_t w1; const char *msg; } cases[] = {
        {{H_IMMD(5, 0x200, 1)}, 1, 0, CG_FAULT_UNBOUND_SUBCHANNEL, "pfifo", 1,
         "method 0x0200 on subchannel 5, which has no object bound"},
        {{H_IMMD(2, 0x300, 5)}, 1, 0, CG_FAULT_INVALID_METHOD, "pfifo", 5,
         "method 0x0300 is not in class A140 (ILLEGAL_MTHD), subchannel 2"},
        {{H_INC(4, 0x1000, 1), 7}, 2, 1, CG_FAULT_INVALID_METHOD, "pfifo", 7,
         "method 0x1000 is not in class B0B5 (ILLEGAL_MTHD), subchannel 4"},
        {{H_INC(6, 0, 1), 0x1234}, 2, 1, CG_FAULT_INVALID_CLASS, "host", 0x1234,
         "SET_OBJECT: class 0x1234 on subchannel 6 is not one of 902D, B197, B1C0, A140, B0B5"},
        {{H_IMMD(0, 0x0C, 3)}, 1, 0, CG_FAULT_INVALID_METHOD, "host", 3,
         "host method 0x00c is not in MAXWELL_CHANNEL_GPFIFO_A/A26F (ILLEGAL_MTHD)"},
        {{H_INC(0, 0x4, 1), 0xBAD}, 2, 1, CG_FAULT_INVALID_METHOD, "host", 0xBAD,
         "ILLEGAL method (handle 0x00000bad): deliberate illegal-method interrupt"},
        {{0xC0001234}, 1, 0, CG_FAULT_INVALID_OPCODE, "pfifo", 0xC0001234,
         "pushbuffer word 0xc0001234: secondary opcode 6 is reserved"},
        {{H_INC(0, NVB06F_MEM_OP_D, 1), 0x30000000}, 2, 1, CG_FAULT_BAD_STATE, "host",
         0x30000000, "MEM_OP_D: operation 0x6 is not defined in clb06f.h"},
        {{H_IMMD(0, NVB06F_SEMAPHORED, 3)}, 1, 0, CG_FAULT_BAD_STATE, "host", 3,
         "SEMAPHORED: operation 0x3 is not one of ACQUIRE 1, RELEASE 2, ACQ_GEQ 4, ACQ_AND 8, "
         "REDUCTION 16"},
        /* an undefined reduction is decoded before the (unmapped) semaphore
         * at 0x2_0000_0000 is read: BAD_STATE, not UNMAPPED */
        {{H_INC(0, NVB06F_SEMAPHOREA, 4), 2, 0, 1, 0x40000010}, 5, 4, CG_FAULT_BAD_STATE, "host",
         0x40000010, "SEMAPHORED: reduction 8 is not defined"},
        {{H_IMMD(2, NVA140_LOAD_INLINE_DATA, 1)}, 1, 0, CG_FAULT_BAD_STATE, "i2m", 1,
         "LOAD_INLINE_DATA (1 words) with no LAUNCH_DMA transfer pending"},
        {{H_IMMD(0, NVB197_DRAW_VERTEX_ARRAY, 4)}, 1, 0, CG_FAULT_BAD_STATE, "3d", 4,
         "DRAW_VERTEX_ARRAY outside BEGIN .. END"},
        {{H_IMMD(3, NV902D_SET_OPERATION, 4), H_IMMD(3, NV902D_PIXELS_FROM_MEMORY_SRC_Y0_INT, 0)},
         2, 1, CG_FAULT_UNSUPPORTED, "2d", 0,
         "902D SET_OPERATION 4 (ROP/BLEND/premultiplied) not supported yet"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        nv_env e;
        env_init(&e);
        n = bind_all(w);
        memcpy(w + n, cases[i].words, cases[i].n * 4);
        at = env_submit(&e, 0, w, n + cases[i].n);
        cg_nv_gpu_run(&*e.gpu);
        CHECK_EQ(cg_fault_count(e.dev), 1);
        uint64_t stream = at + 4 * (n + cases[i].bad);
        uint32_t w0 = cases[i].words[0];
        if ((cases[i].words[cases[i].bad] >> 29) == CG_NV_SEC_IMMD_DATA_METHOD)
            w0 = cases[i].words[cases[i].bad]; /* the faulting word is its own header */
        if (cases[i].kind == CG_FAULT_INVALID_OPCODE) {
            /* a reserved header has no data word: the record holds it alone */
            expect_fault(&e, cases[i].kind, cases[i].unit, stream, w0, 0, cases[i].msg);
            CHECK_EQ(env_last_fault(&e)->nwords, 1);
        } else {
            expect_fault(&e, cases[i].kind, cases[i].unit, stream, w0, cases[i].w1, cases[i].msg);
        }
        check_other_channel(&e, 1, e.data_va + 0x80, 0x5A5A0000u + (uint32_t)i);
        env_fini(&e);
    }
    /* GPFIFO control entries: NOP skipped, ILLEGAL faults */
    nv_env e;
    env_init(&e);
    uint64_t ents[3];
    n = rel4(w, e.data_va, 0x77);
    uint64_t va = env_put(&e, w, n);
    ents[0] = cg_nv_gp_control(CG_NV_GP_OP_NOP, 0);
    ents[1] = cg_nv_gp_entry(va, (uint32_t)n, 0);
    ents[2] = cg_nv_gp_control(CG_NV_GP_OP_ILLEGAL, 0x55);
    CHECK_EQ(cg_nv_channel_submit_gpfifo(e.ch[0], ents, 3, 0, NULL), 0);
    cg_nv_gpu_run(e.gpu);
    CHECK_EQ(env_rd32(&e, e.data_va), 0x77);
    const cg_fault *f = env_last_fault(&e);
    CHECK(f && f->kind == CG_FAULT_INVALID_OPCODE);
    if (f) {
        CHECK_STR(f->message, "GPFIFO entry 2: control entry ILLEGAL (operand 0x00000055)");
        /* the entry as the ring holds it: E0 = operand, E1 = opcode 1 */
        CHECK_EQ(f->nwords, 2);
        CHECK_EQ(f->words[0], 0x55);
        CHECK_EQ(f->words[1], CG_NV_GP_OP_ILLEGAL);
        CHECK_EQ(f->stream_addr, 0);
        CHECK_EQ(f->gpu_addr, 0);
    }
    check_other_channel(&e, 1, e.data_va + 4, 3);
    /* a pushbuffer in unmapped memory faults as an MMU fault */
    env_fini(&e);
    env_init(&e);
    uint64_t bad = cg_nv_gp_entry(0x10000000000ull - 0x1000, 4, 0);
    CHECK_EQ(cg_nv_channel_submit_gpfifo(e.ch[0], &bad, 1, 0, NULL), 0);
    cg_nv_gpu_run(e.gpu);
    f = env_last_fault(&e);
    CHECK(f && f->kind == CG_FAULT_UNMAPPED);
    if (f) {
        CHECK_EQ(f->gpu_addr, 0x10000000000ull - 0x1000);
        CHECK_STR(f->unit, "pfifo");
    }
    check_other_channel(&e, 1, e.data_va + 8, 4);
    env_fini(&e);
}

static void test_opcodes(void)
{
    nv_env e;
    env_init(&e);
    uint64_t s = e.data_va;
    uint32_t w[64];
    size_t n = 0;
    /* old-format INC (sec 0, tert 0): count 28:18, address 12:2 */
    w[n++] = 4u << 18 | NVB06F_SEMAPHOREA;
    w[n++] = (uint32_t)(s >> 32);
    w[n++] = (uint32_t)s;
    w[n++] = 0x01;
    w[n++] = SEM_REL4;
    w[n++] = 0; /* NOP word */
    /* old-format NONINC (sec 2): two payloads to SEMAPHOREC, the last wins */
    w[n++] = 2u << 29 | 2u << 18 | NVB06F_SEMAPHOREC;
    w[n++] = 0x10;
    w[n++] = 0x02;
    w[n++] = H_INC(0, NVB06F_SEMAPHOREB, 1);
    w[n++] = (uint32_t)(s + 4);
    w[n++] = H_INC(0, NVB06F_SEMAPHORED, 1);
    w[n++] = SEM_REL4;
    /* ONE_INC: B then C, C */
    w[n++] = H_ONE(0, NVB06F_SEMAPHOREB, 3);
    w[n++] = (uint32_t)(s + 8);
    w[n++] = 0x30;
    w[n++] = 0x03;
    w[n++] = H_NONINC(0, NVB06F_SEMAPHORED, 1);
    w[n++] = SEM_REL4;
    /* sub-device mask 0: the next release is skipped */
    w[n++] = 0x00010000u | 0x000u << 4;       /* SET mask 0 */
    n += rel4(w + n, s + 12, 0xBAD);
    w[n++] = 0x00020000u | 0xFFFu << 4;       /* STORE 0xFFF (mask still 0) */
    n += rel4(w + n, s + 16, 0xBAD);
    w[n++] = 0x00030000u;                     /* USE: mask 0xFFF again */
    n += rel4(w + n, s + 20, 0x06);
    /* END_PB_SEGMENT: the rest of this entry is not executed */
    w[n++] = CG_NV_END_PB_SEGMENT;
    n += rel4(w + n, s + 24, 0xBAD);
    env_submit(&e, 0, w, n);
    cg_nv_gpu_run(e.gpu);
    CHECK_EQ(cg_fault_count(e.dev), 0);
    CHECK_EQ(env_rd32(&e, s), 0x01);
    CHECK_EQ(env_rd32(&e, s + 4), 0x02);
    CHECK_EQ(env_rd32(&e, s + 8), 0x03);
    CHECK_EQ(env_rd32(&e, s + 12), 0);
    CHECK_EQ(env_rd32(&e, s + 16), 0);
    CHECK_EQ(env_rd32(&e, s + 20), 0x06);
    CHECK_EQ(env_rd32(&e, s + 24), 0);

    /* continuation: a method's data runs on into the next GPFIFO entries */
    uint32_t a[3] = {H_INC(0, NVB06F_SEMAPHOREA, 4), (uint32_t)(s >> 32), (uint32_t)(s + 28)};
    uint32_t b[1] = {0x07};
    uint32_t c[3] = {SEM_REL4, H_IMMD(0, NVB06F_SET_REFERENCE, 0x42), 0};
    uint64_t ents[3] = {cg_nv_gp_entry(env_put(&e, a, 3), 3, 0),
                        cg_nv_gp_entry(env_put(&e, b, 1), 1, CG_NV_GP_SYNC_WAIT),
                        cg_nv_gp_entry(env_put(&e, c, 3), 3, CG_NV_GP_SUBROUTINE)};
    CHECK_EQ(cg_nv_channel_submit_gpfifo(e.ch[0], ents, 3, 0, NULL), 0);
    cg_nv_gpu_run(e.gpu);
    CHECK_EQ(env_rd32(&e, s + 28), 0x07);
    cg_nv_channel_info info;
    cg_nv_channel_info_get(e.ch[0], &info);
    CHECK_EQ(info.reference, 0x42);
    CHECK_EQ(info.gp_get, info.gp_put);
    CHECK_EQ(info.state, CG_NV_CH_IDLE);
    CHECK_EQ(cg_fault_count(e.dev), 0);

    /* ring full */
    uint64_t many[17] = {0};
    CHECK_EQ(cg_nv_channel_submit_gpfifo(e.ch[1], many, 17, 0, NULL), CG_ERR_BUSY);
    CHECK_EQ(cg_nv_channel_submit_gpfifo(e.ch[1], many, 16, 0, NULL), 0);
    cg_nv_gpu_run(e.gpu);
    CHECK_EQ(cg_fault_count(e.dev), 0); /* zero entries are NOP control entries */
    env_fini(&e);
}

/* Software methods (cg_nv_gpu_set_sw_method): with a kernel, subchannels
 * 5-7 are its; its handler sees SET_OBJECT and engine methods there, while
 * host methods on them still run; a method it refuses faults the channel. */
typedef struct sw_log {
    int n;
    int channel[8];
    unsigned subch[8];
    uint32_t m[8], v[8];
} sw_log;

static bool sw_take(void *user, int channel, unsigned subch, uint32_t m, uint32_t v)
{
    sw_log *l = user;
    if (l->n < 8) {
        l->channel[l->n] = channel, l->subch[l->n] = subch, l->m[l->n] = m, l->v[l->n] = v;
        l->n++;
    }
    return m != 0x0600; /* the one this test's kernel refuses */
}

static void test_software_methods(void)
{
    nv_env e;
    env_init(&e);
    sw_log log = {0};
    cg_nv_gpu_set_sw_method(e.gpu, sw_take, &log);
    uint64_t s = e.data_va;
    uint32_t w[32];
    size_t n = 0;
    w[n++] = H_INC(7, 0, 1);
    w[n++] = 0x906e;                  /* Mesa's nvc0: the software object on subchannel 7 */
    w[n++] = H_IMMD(7, 0x0500, 1);    /* nvsw's non-stall event */
    n += rel4(w + n, s, 0x5e5e);      /* host methods on subchannel 0 run on */
    w[n++] = H_INC(7, NVB06F_SEMAPHOREA, 4); /* and on subchannel 7 too: host's */
    w[n++] = (uint32_t)(s >> 32);
    w[n++] = (uint32_t)s + 4;
    w[n++] = 0x77;
    w[n++] = SEM_REL4;
    env_submit(&e, 0, w, n);
    cg_nv_gpu_run(e.gpu);
    CHECK_EQ(cg_fault_count(e.dev), 0);
    CHECK_EQ(env_rd32(&e, s), 0x5e5eu);
    CHECK_EQ(env_rd32(&e, s + 4), 0x77u);
    CHECK_EQ(log.n, 2);
    CHECK_EQ(log.channel[0], cg_nv_channel_id(e.ch[0]));
    CHECK_EQ(log.subch[0], 7u);
    CHECK_EQ(log.m[0], 0u);
    CHECK_EQ(log.v[0], 0x906eu);
    CHECK_EQ(log.m[1], 0x0500u);
    CHECK_EQ(log.v[1], 1u);
    cg_nv_channel_info ci;
    CHECK_EQ(cg_nv_channel_info_get(e.ch[0], &ci), 0);
    CHECK_EQ(ci.bound[7], 0x906eu); /* named for listings; no engine object */
    CHECK_EQ(env_state(&e, 0), CG_NV_CH_IDLE);

    /* a method the kernel does not take: the PBDMA stalls, a fault */
    w[0] = H_IMMD(7, 0x0600, 3);
    uint64_t at = env_submit(&e, 0, w, 1);
    cg_nv_gpu_run(e.gpu);
    CHECK_EQ(log.n, 3);
    expect_fault(&e, CG_FAULT_INVALID_METHOD, "host", at, w[0], 3,
                 "software method 0x0600 = 0x00000003 on subchannel 7: the kernel did not "
                 "take it (PBDMA DEVICE interrupt)");
    check_other_channel(&e, 1, s + 8, 0xAB);

    /* the handler gone, an object bound while it was set takes no methods */
    w[0] = H_INC(6, 0, 1);
    w[1] = 0x906e;
    env_submit(&e, 1, w, 2);
    cg_nv_gpu_run(e.gpu);
    CHECK_EQ(cg_fault_count(e.dev), 1);
    cg_nv_gpu_set_sw_method(e.gpu, NULL, NULL);
    w[0] = H_IMMD(6, 0x0500, 1);
    env_submit(&e, 1, w, 1);
    cg_nv_gpu_run(e.gpu);
    CHECK_EQ(cg_fault_count(e.dev), 2);
    CHECK_EQ(env_last_fault(&e)->kind, CG_FAULT_INVALID_METHOD);
    CHECK_STR(env_last_fault(&e)->message, "method 0x0500 on subchannel 6: class 906E is the "
              "kernel's software class, and no kernel takes its methods");
    env_fini(&e);
}

int main(void)
{
    test_release_and_reductions();
    test_software_methods();
    test_acquire();
    test_syncpoints();
    test_faults();
    test_opcodes();
    return check_report("test_nv_pfifo");
}
