/* nv: the macro engine inside the pushbuffer executor: upload through the
 * B197 methods 0x114..0x124, CALL_MME_MACRO / CALL_MME_DATA collection and
 * the call boundary rule (docs/nv-macro.md "Executor hookup"), sends that
 * take the pushbuffer's method path (constant-buffer writes observable in
 * memory), READ of the 3D register file, the shadow RAM, faults with their
 * fields (a second channel keeps working), and the trace. */
#include "nv_testenv.h"
#include "nv/nv_internal.h"

/* ADD_IMM: dst = A + imm, result operation res, exit bit ex */
static uint32_t addi(unsigned res, unsigned dst, unsigned a, int32_t imm, unsigned ex)
{
    return 1u | res << 4 | ex << 7 | dst << 8 | a << 11 | (uint32_t)imm << 14;
}
#define R_FETCH 0
#define R_MOV 1
#define R_MOVM 2
#define R_MOVSEND 4
#define NOP 0x00000011u
#define EXIT 0x00000091u
#define CALL(n) (NVB197_CALL_MME_MACRO + 8u * (n))
#define DATA(n) (NVB197_CALL_MME_DATA + 8u * (n))
#define CB_POS_IDX (NVB197_LOAD_CONSTANT_BUFFER_OFFSET >> 2)

/* Macro "cb": params (pos, d0, d1, d2): CB_POS = pos, CB_DATA = d0, d1, d2
 * (method address 0x8E3, increment 1: CB_POS then CB_DATA[0..2]). */
static void fill_cb_macro(uint32_t *c)
{
    c[0] = addi(R_MOVM, 0, 0, 0x18E3, 0);
    c[1] = addi(R_MOVSEND, 0, 1, 0, 0);
    c[2] = addi(R_FETCH, 2, 0, 0, 0);
    c[3] = addi(R_MOVSEND, 0, 2, 0, 0);
    c[4] = addi(R_FETCH, 2, 0, 0, 0);
    c[5] = addi(R_MOVSEND, 0, 2, 0, 0);
    c[6] = addi(R_FETCH, 2, 0, 0, 1);
    c[7] = addi(R_MOVSEND, 0, 2, 0, 0);
}

/* Words that bind B197 on subchannel 0 and upload `code` at code address
 * `at` as macro `n`. */
static size_t upload(uint32_t *w, const uint32_t *code, uint32_t ncode, uint32_t at, uint32_t n)
{
    size_t k = 0;
    w[k++] = H_INC(0, NVB06F_SET_OBJECT, 1);
    w[k++] = CG_NV_CLASS_3D;
    w[k++] = H_INC(0, NVB197_LOAD_MME_INSTRUCTION_RAM_POINTER, 1);
    w[k++] = at;
    w[k++] = H_NONINC(0, NVB197_LOAD_MME_INSTRUCTION_RAM, ncode);
    for (uint32_t i = 0; i < ncode; i++)
        w[k++] = code[i];
    w[k++] = H_INC(0, NVB197_LOAD_MME_START_ADDRESS_RAM_POINTER, 2);
    w[k++] = n;
    w[k++] = at;
    return k;
}

/* Words that select a constant buffer of 0x100 bytes at va. */
static size_t cb_select(uint32_t *w, uint64_t va)
{
    w[0] = H_INC(0, NVB197_SET_CONSTANT_BUFFER_SELECTOR_A, 3);
    w[1] = 0x100;
    w[2] = (uint32_t)(va >> 32);
    w[3] = (uint32_t)va;
    return 4;
}

static uint32_t *regs3d(nv_env *e, int c)
{
    return e->ch[c]->objs[NV_OBJ_3D].regs;
}

static void check_other_channel(nv_env *e, uint64_t va, uint32_t val)
{
    uint32_t w[5] = {H_INC(0, NVB06F_SEMAPHOREA, 4), (uint32_t)(va >> 32), (uint32_t)va, val,
                     2u | 1u << 24};
    env_submit(e, 1, w, 5);
    cg_nv_gpu_run(e->gpu);
    CHECK_EQ(env_rd32(e, va), val);
    CHECK_EQ(env_state(e, 1), CG_NV_CH_IDLE);
}

static void test_upload_and_call(void)
{
    nv_env e;
    env_init(&e);
    uint32_t code[8], w[128];
    fill_cb_macro(code);
    uint64_t cb = e.data_va + 0x1000;
    size_t n = upload(w, code, 8, 0x40, 7);
    n += cb_select(w + n, cb);
    /* call 7: ONE_INC puts the first word in CALL_MME_MACRO(7), the rest in
     * CALL_MME_DATA(7); the IMMD to CB_POS that follows ends the call */
    w[n++] = H_ONE(0, CALL(7), 4);
    w[n++] = 0x10;
    w[n++] = 0x11111111;
    w[n++] = 0x22222222;
    w[n++] = 0x33333333;
    w[n++] = H_IMMD(0, NVB197_LOAD_CONSTANT_BUFFER_OFFSET, 0x80);
    env_submit(&e, 0, w, n);
    uint64_t t0 = cg_nv_gpu_time(e.gpu);
    int64_t m = cg_nv_gpu_run(e.gpu);
    /* methods: SET_OBJECT, 1 + 8 + 2 upload, 3 CB, 4 call words, 4 sends, IMMD */
    CHECK_EQ(m, 1 + 11 + 3 + 4 + 4 + 1);
    CHECK_EQ(cg_nv_gpu_time(e.gpu) - t0, (uint64_t)m);
    CHECK_EQ(env_state(&e, 0), CG_NV_CH_IDLE);
    CHECK_EQ(cg_fault_count(e.dev), 0);
    CHECK_EQ(env_rd32(&e, cb + 0x0C), 0);
    CHECK_EQ(env_rd32(&e, cb + 0x10), 0x11111111);
    CHECK_EQ(env_rd32(&e, cb + 0x14), 0x22222222);
    CHECK_EQ(env_rd32(&e, cb + 0x18), 0x33333333);
    CHECK_EQ(env_rd32(&e, cb + 0x1C), 0);
    uint32_t *r = regs3d(&e, 0);
    CHECK_EQ(r[CB_POS_IDX], 0x80); /* the IMMD ran after the macro's sends */
    CHECK_EQ(r[(NVB197_LOAD_CONSTANT_BUFFER >> 2) + 0], 0x11111111);
    CHECK_EQ(r[(NVB197_LOAD_CONSTANT_BUFFER >> 2) + 2], 0x33333333);
    /* the upload state */
    CHECK_EQ(e.ch[0]->mme->entry[7], 0x40);
    CHECK_EQ(e.ch[0]->mme->code[0x47], code[7]);
    CHECK_EQ(e.ch[0]->mme->code_ptr, 0x48);
    CHECK_EQ(e.ch[0]->call.pending, false);

    /* the stream ends with a call: it runs when the channel runs dry */
    w[0] = H_ONE(0, CALL(7), 4);
    w[1] = 0x20;
    w[2] = 0xA;
    w[3] = 0xB;
    w[4] = 0xC;
    env_submit(&e, 0, w, 5);
    CHECK_EQ(cg_nv_gpu_run(e.gpu), 4 + 4);
    CHECK_EQ(env_rd32(&e, cb + 0x20), 0xA);
    CHECK_EQ(env_rd32(&e, cb + 0x28), 0xC);
    CHECK_EQ(r[CB_POS_IDX], 0x2C);
    CHECK_EQ(env_state(&e, 0), CG_NV_CH_IDLE);
    env_fini(&e);
}

static void test_call_boundaries(void)
{
    nv_env e;
    env_init(&e);
    uint32_t code[8], w[128];
    fill_cb_macro(code);
    uint64_t cb = e.data_va + 0x2000, sem = e.data_va + 0x3000;
    size_t n = upload(w, code, 8, 0, 3);
    n += cb_select(w + n, cb);
    env_submit(&e, 0, w, n);
    CHECK_EQ(cg_nv_gpu_run(e.gpu) > 0, 1);

    /* parameters split across two GPFIFO entries (and two headers): one call */
    uint32_t a[3] = {H_ONE(0, CALL(3), 2), 0x00, 0x01010101};
    uint32_t b[3] = {H_NONINC(0, DATA(3), 2), 0x02020202, 0x03030303};
    uint64_t ents[2];
    ents[0] = cg_nv_gp_entry(env_put(&e, a, 3), 3, 0);
    ents[1] = cg_nv_gp_entry(env_put(&e, b, 3), 3, 0);
    CHECK_EQ(cg_nv_channel_submit_gpfifo(e.ch[0], ents, 2, 0, NULL), 0);
    cg_nv_gpu_run(e.gpu);
    CHECK_EQ(cg_fault_count(e.dev), 0);
    CHECK_EQ(env_rd32(&e, cb + 0x00), 0x01010101);
    CHECK_EQ(env_rd32(&e, cb + 0x04), 0x02020202);
    CHECK_EQ(env_rd32(&e, cb + 0x08), 0x03030303);

    /* two consecutive calls of the same macro in one header run: the second
     * CALL_MME_MACRO(3) runs the first call and starts another; then a host
     * semaphore release ends the second, and sees its result in order */
    n = 0;
    w[n++] = H_INC(0, CALL(3), 1);
    w[n++] = 0x40;
    w[n++] = H_NONINC(0, DATA(3), 3);
    w[n++] = 0x41;
    w[n++] = 0x42;
    w[n++] = 0x43;
    w[n++] = H_ONE(0, CALL(3), 4);
    w[n++] = 0x60;
    w[n++] = 0x61;
    w[n++] = 0x62;
    w[n++] = 0x63;
    w[n++] = H_INC(0, NVB06F_SEMAPHOREA, 4);
    w[n++] = (uint32_t)(sem >> 32);
    w[n++] = (uint32_t)sem;
    w[n++] = 0x5EE;
    w[n++] = 2u | 1u << 24;
    env_submit(&e, 0, w, n);
    uint64_t t0 = cg_nv_gpu_time(e.gpu);
    cg_nv_gpu_run(e.gpu);
    CHECK_EQ(cg_fault_count(e.dev), 0);
    CHECK_EQ(env_rd32(&e, cb + 0x40), 0x41);
    CHECK_EQ(env_rd32(&e, cb + 0x48), 0x43);
    CHECK_EQ(env_rd32(&e, cb + 0x60), 0x61);
    CHECK_EQ(env_rd32(&e, cb + 0x68), 0x63);
    CHECK_EQ(env_rd32(&e, sem), 0x5EE);
    CHECK_EQ(regs3d(&e, 0)[CB_POS_IDX], 0x6C);
    CHECK_EQ(cg_nv_gpu_time(e.gpu) - t0, 8 + 8 + 4);

    /* a call on another subchannel's method ends the run too: IMMD on
     * subchannel 1 (I2M, a plain store) after the parameters */
    n = 0;
    w[n++] = H_INC(1, NVB06F_SET_OBJECT, 1);
    w[n++] = CG_NV_CLASS_I2M;
    w[n++] = H_ONE(0, CALL(3), 4);
    w[n++] = 0x80;
    w[n++] = 0x81;
    w[n++] = 0x82;
    w[n++] = 0x83;
    w[n++] = H_IMMD(1, NVA140_LINE_COUNT, 5);
    w[n++] = H_IMMD(0, NVB197_LOAD_CONSTANT_BUFFER_OFFSET, 0x10);
    env_submit(&e, 0, w, n);
    cg_nv_gpu_run(e.gpu);
    CHECK_EQ(cg_fault_count(e.dev), 0);
    CHECK_EQ(env_rd32(&e, cb + 0x88), 0x83);
    CHECK_EQ(regs3d(&e, 0)[CB_POS_IDX], 0x10);
    CHECK_EQ(e.ch[0]->objs[NV_OBJ_I2M].regs[NVA140_LINE_COUNT >> 2], 5);
    env_fini(&e);
}

/* READ of the 3D register file, and the shadow RAM on sends. */
static void test_read_and_shadow(void)
{
    nv_env e;
    env_init(&e);
    /* macro 1: maddr = 0x0400 (method 0x1000), send r1, then
     * read r3 = reg[0x8E3] (CB_POS) and send it to method 0x1004 */
    uint32_t code[] = {
        addi(R_MOVM, 0, 0, 0x1400, 0),                  /* maddr 0x400, inc 1 */
        addi(R_MOVSEND, 0, 1, 0, 0),                    /* [0x1000] = r1 */
        5u | R_MOV << 4 | 3u << 8 | 0u << 11 | 0x8E3u << 14, /* read r3, r0, 0x8e3 */
        EXIT,
        addi(R_MOVSEND, 0, 3, 0, 0),                    /* [0x1004] = r3 */
    };
    uint32_t w[64];
    size_t n = upload(w, code, 5, 0x100, 1);
    w[n++] = H_IMMD(0, NVB197_LOAD_CONSTANT_BUFFER_OFFSET, 0x123);
    w[n++] = H_INC(0, CALL(1), 1);
    w[n++] = 0xAAAA;
    /* replay: the next call's send of 0xBBBB applies the tracked 0xAAAA */
    w[n++] = H_IMMD(0, NVB197_SET_MME_SHADOW_RAM_CONTROL, NV_MME_SHADOW_REPLAY);
    w[n++] = H_INC(0, CALL(1), 1);
    w[n++] = 0xBBBB;
    w[n++] = H_IMMD(0, 0x1008, 1); /* a plain store ends the call */
    env_submit(&e, 0, w, n);
    uint32_t *r = NULL;
    cg_nv_gpu_run(e.gpu);
    CHECK_EQ(cg_fault_count(e.dev), 0);
    r = regs3d(&e, 0);
    CHECK_EQ(e.ch[0]->mme->shadow_mode, NV_MME_SHADOW_REPLAY);
    CHECK_EQ(r[0x1000 >> 2], 0xAAAA);
    CHECK_EQ(r[0x1004 >> 2], 0x123);
    CHECK_EQ(r[0x1008 >> 2], 1);
    /* passthrough: applied, not recorded */
    n = 0;
    w[n++] = H_IMMD(0, NVB197_SET_MME_SHADOW_RAM_CONTROL, NV_MME_SHADOW_PASSTHROUGH);
    w[n++] = H_INC(0, CALL(1), 1);
    w[n++] = 0xCCCC;
    w[n++] = H_IMMD(0, NVB197_SET_MME_SHADOW_RAM_CONTROL, NV_MME_SHADOW_REPLAY);
    w[n++] = H_INC(0, CALL(1), 1);
    w[n++] = 0xDDDD;
    env_submit(&e, 0, w, n);
    cg_nv_gpu_run(e.gpu);
    CHECK_EQ(cg_fault_count(e.dev), 0);
    CHECK_EQ(r[0x1000 >> 2], 0xAAAA); /* replayed the tracked value */
    env_fini(&e);
}

typedef struct {
    const char *code_desc;
    uint32_t code[4];
    uint32_t ncode;
    uint32_t nparams;
    cg_fault_kind kind;
    uint32_t pc, word;
    const char *msg;
} fault_case;

static void test_faults(void)
{
    static const fault_case cases[] = {
        {"fetch, FIFO empty", {0x00000201u /* addi.fetch r2 */, EXIT, NOP}, 3, 1,
         CG_FAULT_BAD_LENGTH, 0, 0x00000201u, "macro 2 pc 0x0: too few"},
        {"too many", {EXIT, NOP}, 2, 3, CG_FAULT_BAD_LENGTH, 1, NOP, "macro 2 pc 0x1: too many"},
        {"illegal opcode", {NOP, 0x00000006u}, 2, 1, CG_FAULT_INVALID_OPCODE, 1, 6,
         "macro 2 pc 0x1: "},
        {"double branch", {EXIT, 0xFFFFC007u}, 2, 1, CG_FAULT_BAD_STATE, 1, 0xFFFFC007u,
         "macro 2 pc 0x1: "},
        {"hang", {NOP, 0x00000027u /* bra.z.a r0, . */}, 2, 1, CG_FAULT_HANG, 1, 0x27,
         "macro 2 pc 0x1: budget nv.macro-insns: instruction budget of 1000"},
    };
    for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
        const fault_case *fc = &cases[c];
        nv_env e;
        env_init(&e);
        e.gpu->mme_budget = 1000;
        uint32_t w[64];
        size_t n = upload(w, fc->code, fc->ncode, 0, 2);
        uint64_t base = env_submit(&e, 0, w, n);
        (void)base;
        cg_nv_gpu_run(e.gpu);
        n = 0;
        w[n++] = H_ONE(0, CALL(2), fc->nparams);
        for (uint32_t i = 0; i < fc->nparams; i++)
            w[n++] = 0x100 + i;
        w[n++] = H_IMMD(0, NVB197_LOAD_CONSTANT_BUFFER_OFFSET, 0x44); /* not executed */
        uint64_t va = env_submit(&e, 0, w, n);
        cg_nv_gpu_run(e.gpu);
        const cg_fault *f = env_last_fault(&e);
        CHECK_EQ(cg_fault_count(e.dev), 1);
        CHECK(f != NULL);
        if (f) {
            CHECK_EQ(f->kind, fc->kind);
            CHECK_STR(f->unit, "mme");
            CHECK_EQ(f->family, CG_FAMILY_NV);
            CHECK_EQ(f->channel, cg_nv_channel_id(e.ch[0]));
            CHECK_EQ(f->stream_addr, va + 4); /* the CALL_MME_MACRO word */
            CHECK_EQ(f->nwords, 2);
            CHECK_EQ(f->words[0], fc->word);
            CHECK_EQ(f->words[1], fc->pc);
            CHECK_EQ(strncmp(f->message, fc->msg, strlen(fc->msg)), 0);
            if (strncmp(f->message, fc->msg, strlen(fc->msg)) != 0)
                fprintf(stderr, "  %s: \"%s\"\n", fc->code_desc, f->message);
        }
        CHECK_EQ(env_state(&e, 0), CG_NV_CH_FAULTED);
        CHECK_EQ(regs3d(&e, 0)[CB_POS_IDX], 0); /* the method after the call did not run */
        check_other_channel(&e, e.data_va + 0x100, 0x600D0000u + (uint32_t)c);
        env_fini(&e);
    }

    /* CALL_MME_DATA with no call in progress; a macro that sends a call */
    nv_env e;
    env_init(&e);
    uint32_t w[32];
    size_t n = 0;
    w[n++] = H_INC(0, NVB06F_SET_OBJECT, 1);
    w[n++] = CG_NV_CLASS_3D;
    w[n++] = H_INC(0, DATA(5), 1);
    w[n++] = 0x77;
    uint64_t va = env_submit(&e, 0, w, n);
    cg_nv_gpu_run(e.gpu);
    const cg_fault *f = env_last_fault(&e);
    CHECK(f != NULL);
    if (f) {
        CHECK_EQ(f->kind, CG_FAULT_BAD_STATE);
        CHECK_STR(f->unit, "mme");
        CHECK_EQ(f->stream_addr, va + 12);
        CHECK_STR(f->message, "CALL_MME_DATA(5) without a call of macro 5 in progress");
    }
    CHECK_EQ(env_state(&e, 0), CG_NV_CH_FAULTED);
    check_other_channel(&e, e.data_va, 0x1234);
    env_fini(&e);

    env_init(&e);
    uint32_t code[] = {addi(R_MOVM, 0, 0, 0xE00, 0), EXIT, addi(R_MOVSEND, 0, 1, 0, 0)};
    n = upload(w, code, 3, 0, 0);
    w[n++] = H_INC(0, CALL(0), 1);
    w[n++] = 9;
    va = env_submit(&e, 0, w, n);
    cg_nv_gpu_run(e.gpu);
    f = env_last_fault(&e);
    CHECK(f != NULL);
    if (f) {
        CHECK_EQ(f->kind, CG_FAULT_BAD_STATE);
        CHECK_STR(f->unit, "mme");
        CHECK_EQ(f->stream_addr, va + 4 * (n - 1));
        CHECK_STR(f->message, "macro 0 sends method 0x3800: a macro cannot call a macro");
    }
    CHECK_EQ(cg_fault_count(e.dev), 1);
    CHECK_EQ(env_state(&e, 0), CG_NV_CH_FAULTED);
    check_other_channel(&e, e.data_va, 0x4321);
    env_fini(&e);
}

/* A send that faults in the engine (CB_DATA past the buffer) stops the
 * macro with the engine's fault, pointing at the call. */
static void test_send_fault(void)
{
    nv_env e;
    env_init(&e);
    uint32_t code[8], w[64];
    fill_cb_macro(code);
    size_t n = upload(w, code, 8, 0, 4);
    n += cb_select(w + n, e.data_va);
    w[n++] = H_ONE(0, CALL(4), 4);
    w[n++] = 0xF8; /* CB of 0x100 bytes: the third data word faults */
    w[n++] = 1;
    w[n++] = 2;
    w[n++] = 3;
    uint64_t va = env_submit(&e, 0, w, n);
    cg_nv_gpu_run(e.gpu);
    const cg_fault *f = env_last_fault(&e);
    CHECK_EQ(cg_fault_count(e.dev), 1);
    CHECK(f != NULL);
    if (f) {
        CHECK_EQ(f->kind, CG_FAULT_BAD_STATE);
        CHECK_STR(f->unit, "3d");
        CHECK_EQ(f->stream_addr, va + 4 * (n - 4));
        CHECK_EQ(f->gpu_addr, e.data_va + 0x100);
    }
    CHECK_EQ(env_rd32(&e, e.data_va + 0xF8), 1);
    CHECK_EQ(env_rd32(&e, e.data_va + 0xFC), 2);
    CHECK_EQ(env_state(&e, 0), CG_NV_CH_FAULTED);
    check_other_channel(&e, e.data_va + 0x200, 0x99);
    env_fini(&e);
}

/* A loop macro over 300 parameters (the parameter FIFO grows), all written
 * through CB_DATA with a method increment of 0. */
static void test_many_params(void)
{
    nv_env e;
    env_init(&e);
    uint32_t code[] = {
        addi(R_MOVM, 0, 0, 0x8E4, 0),                    /* maddr CB_DATA[0], inc 0 */
        addi(R_MOV, 2, 1, 0, 0),                         /* r2 = count */
        addi(R_FETCH, 3, 0, 0, 0),                       /* loop: r3 = param */
        addi(R_MOVSEND, 0, 3, 0, 0),                     /* CB_DATA = r3 */
        addi(R_MOV, 2, 2, -1, 0),                        /* r2 -= 1 */
        7u | 0x30u | 2u << 11 | (uint32_t)(-3 & 0x3FFFF) << 14, /* bra.nz.a r2, loop */
        EXIT,
        NOP,
    };
    enum { N = 300 };
    static uint32_t w[N + 64];
    size_t n = upload(w, code, 8, 0x200, 9);
    uint64_t cb = e.data_va + 0x10000;
    w[n++] = H_INC(0, NVB197_SET_CONSTANT_BUFFER_SELECTOR_A, 4);
    w[n++] = 0x10000;
    w[n++] = (uint32_t)(cb >> 32);
    w[n++] = (uint32_t)cb;
    w[n++] = 8; /* CB_POS */
    w[n++] = H_ONE(0, CALL(9), N + 1);
    w[n++] = N;
    for (uint32_t i = 0; i < N; i++)
        w[n++] = 0xC0DE0000u + i;
    env_submit(&e, 0, w, n);
    uint64_t t0 = cg_nv_gpu_time(e.gpu);
    cg_nv_gpu_run(e.gpu);
    CHECK_EQ(cg_fault_count(e.dev), 0);
    CHECK_EQ(cg_nv_gpu_time(e.gpu) - t0, 1 + 11 + 4 + (N + 1) + N);
    bool all = true;
    for (uint32_t i = 0; i < N; i++)
        all &= env_rd32(&e, cb + 8 + 4 * i) == 0xC0DE0000u + i;
    CHECK(all);
    CHECK_EQ(env_rd32(&e, cb + 8 + 4 * N), 0);
    CHECK_EQ(regs3d(&e, 0)[CB_POS_IDX], 8 + 4 * N);
    CHECK(e.ch[0]->call.cap >= N + 1);
    env_fini(&e);
}

/* B1C0 names neither the upload methods nor the calls (compute_b1c0.def):
 * on a compute subchannel they are stored, nothing runs, no MME state. */
static void test_compute_stores(void)
{
    nv_env e;
    env_init(&e);
    uint32_t w[] = {H_INC(1, NVB06F_SET_OBJECT, 1), CG_NV_CLASS_COMPUTE,
                    H_INC(1, NVB197_LOAD_MME_INSTRUCTION_RAM_POINTER, 2), 0, 0x91,
                    H_ONE(1, CALL(0), 2), 5, 6};
    env_submit(&e, 0, w, sizeof(w) / 4);
    CHECK_EQ(cg_nv_gpu_run(e.gpu), 5);
    CHECK_EQ(cg_fault_count(e.dev), 0);
    CHECK(e.ch[0]->mme == NULL);
    CHECK_EQ(e.ch[0]->call.pending, false);
    const uint32_t *r = e.ch[0]->objs[NV_OBJ_COMPUTE].regs;
    CHECK_EQ(r[NVB197_LOAD_MME_INSTRUCTION_RAM >> 2], 0x91);
    CHECK_EQ(r[CALL(0) >> 2], 5);
    CHECK_EQ(r[DATA(0) >> 2], 6);
    env_fini(&e);
}

typedef struct {
    int n;
    char unit[8][16];
    cg_trace_kind kind[8];
    uint32_t reg[8];
    uint64_t value[8], addr[8];
} trace_log;

static void sink(void *user, const cg_trace_event *ev)
{
    trace_log *t = user;
    if (t->n < 8) {
        snprintf(t->unit[t->n], sizeof(t->unit[0]), "%s", ev->unit ? ev->unit : "");
        t->kind[t->n] = ev->kind;
        t->reg[t->n] = ev->reg;
        t->value[t->n] = ev->value;
        t->addr[t->n] = ev->stream_addr;
    }
    t->n++;
}

static void test_trace(void)
{
    nv_env e;
    env_init(&e);
    uint32_t code[8], w[64];
    fill_cb_macro(code);
    size_t n = upload(w, code, 8, 0, 6);
    n += cb_select(w + n, e.data_va);
    env_submit(&e, 0, w, n);
    cg_nv_gpu_run(e.gpu);
    trace_log t;
    memset(&t, 0, sizeof t);
    int id = cg_trace_add(e.dev, sink, &t);
    CHECK(id >= 0);
    n = 0;
    w[n++] = H_ONE(0, CALL(6), 2);
    w[n++] = 0x30;
    w[n++] = 0x5A;
    w[n++] = H_IMMD(0, 0x1000, 7);
    /* the macro's third fetch faults (two parameters): the fault comes
     * after the sends, so the trace shows CALL, DATA, note, 2 sends, fault */
    uint64_t va = env_submit(&e, 0, w, n);
    cg_nv_gpu_run(e.gpu);
    CHECK(t.n >= 6);
    CHECK_STR(t.unit[0], "pfifo");
    CHECK_EQ(t.kind[0], CG_TRACE_METHOD);
    CHECK_EQ(t.reg[0], CALL(6));
    CHECK_EQ(t.reg[1], DATA(6));
    CHECK_STR(t.unit[2], "mme");
    CHECK_EQ(t.kind[2], CG_TRACE_NOTE);
    CHECK_EQ(t.addr[2], va + 4);
    for (int i = 3; i < 5; i++) {
        CHECK_STR(t.unit[i], "mme");
        CHECK_EQ(t.kind[i], CG_TRACE_METHOD);
        CHECK_EQ(t.addr[i], va + 4);
    }
    CHECK_EQ(t.reg[3], NVB197_LOAD_CONSTANT_BUFFER_OFFSET);
    CHECK_EQ(t.value[3], 0x30);
    CHECK_EQ(t.reg[4], NVB197_LOAD_CONSTANT_BUFFER);
    CHECK_EQ(t.value[4], 0x5A);
    CHECK_EQ(t.kind[5], CG_TRACE_FAULT);
    CHECK_EQ(env_rd32(&e, e.data_va + 0x30), 0x5A);
    cg_trace_remove(e.dev, id);
    env_fini(&e);
}

int main(void)
{
    test_upload_and_call();
    test_call_boundaries();
    test_read_and_shadow();
    test_faults();
    test_send_fault();
    test_trace();
    test_compute_stores();
    test_many_params();
    return check_report("test_nv_mme_exec");
}
