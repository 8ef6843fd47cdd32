/* vc4 user programs: the request queue registers, reservation, the 12-QPU
 * scheduler with semaphores, host interrupts, the HANG faults of deadlocks
 * and budgets, and the mailbox tags 0x3000c..0x30012 (docs/vc4-gpgpu.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "qpu_text.h"
#include "cmdgpu/asm.h"
#include "cmdgpu/cmdgpu.h"

#define CODE 0x10000u
#define UNIF 0x20000u
#define CTRL 0x30000u
#define MBOX 0x31000u

static cg_device *dev;
static cg_vc4 *v;

static void setup(uint64_t budget)
{
    CHECK_EQ(cg_device_create(&dev), 0);
    cg_vc4_config cfg = {.sdram_size = 16u << 20, .qpu_budget = budget};
    CHECK_EQ(cg_vc4_create(dev, &cfg, &v), 0);
}

static void teardown(void)
{
    cg_vc4_destroy(v);
    cg_device_destroy(dev);
}

static int dev_put(void *ctx, uint32_t at, const void *p, size_t n)
{
    return cg_vc4_cpu_write(ctx, at, p, n);
}

/* Assemble QPU text at addr; returns the bytes. */
static size_t qasm(uint32_t addr, const char *src)
{
    return qpu_text_load(addr, src, NULL, dev_put, v);
}

static uint32_t reg(uint32_t off)
{
    uint32_t x = 0;
    CHECK_EQ(cg_vc4_reg_read(v, off, &x), 0);
    return x;
}

static const cg_fault *find_fault(cg_fault_kind kind, const char *needle)
{
    for (size_t i = 0; i < cg_fault_count(dev); i++) {
        const cg_fault *f = cg_fault_get(dev, i);
        if (f->kind == kind && (!needle || strstr(f->message, needle)))
            return f;
    }
    return NULL;
}

#define END "nop : nop : thrend\nnop : nop\nnop : nop\n"

/* One program through SRQUA/SRQPC: host_int = unif0 + unif1. */
static void test_queue_one(void)
{
    setup(0);
    qasm(CODE, "mov r0, unif\nmov r1, unif\nadd r0, r0, r1\nmov host_int, r0\n" END);
    CHECK_EQ(cg_vc4_cpu_write32(v, UNIF, 40), 0);
    CHECK_EQ(cg_vc4_cpu_write32(v, UNIF + 4, 2), 0);
    CHECK_EQ(cg_vc4_reg_write(v, CG_VC4_DBQITE, 0xFFF), 0);
    CHECK_EQ(cg_vc4_reg_write(v, CG_VC4_SRQUA, UNIF), 0);
    CHECK_EQ(cg_vc4_reg_write(v, CG_VC4_SRQUL, 2), 0);
    CHECK_EQ(cg_vc4_reg_write(v, CG_VC4_SRQPC, CODE), 0);
    /* one request made, one completed, the queue empty, no error */
    CHECK_EQ(reg(CG_VC4_SRQCS), 1u << 8 | 1u << 16);
    CHECK_EQ(reg(CG_VC4_SRQUA), UNIF);
    CHECK_EQ(reg(CG_VC4_SRQUL), 2u);
    CHECK_EQ(reg(CG_VC4_DBQITC), 1u); /* QPU 0 raised its interrupt */
    cg_vc4_qpu_info qi;
    CHECK_EQ(cg_vc4_qpu_get(v, 0, &qi), 0);
    CHECK(!qi.busy);
    CHECK_EQ(qi.host_int_value, 42u);
    CHECK_EQ(qi.host_ints, 1u);
    CHECK_EQ(qi.insns, 7u);
    CHECK_EQ(qi.code, CODE);
    /* write 1 to clear */
    CHECK_EQ(cg_vc4_reg_write(v, CG_VC4_DBQITC, 1), 0);
    CHECK_EQ(reg(CG_VC4_DBQITC), 0u);
    CHECK_EQ(cg_vc4_reg_write(v, CG_VC4_SRQCS, 1u << 7 | 1u << 8 | 1u << 16), 0);
    CHECK_EQ(reg(CG_VC4_SRQCS), 0u);
    CHECK_EQ(cg_vc4_wait_idle(v), 0);
    CHECK_EQ(cg_fault_count(dev), 0u);
    teardown();
}

/* Reserve every QPU: requests queue up; the 17th overflows (error bit and a
 * fault); freeing the QPUs runs the 16 queued ones. */
static void test_queue_overflow(void)
{
    setup(0);
    qasm(CODE, "mov host_int, 1\n" END);
    CHECK_EQ(cg_vc4_reg_write(v, CG_VC4_SQRSV0, 0x11111111u), 0);
    CHECK_EQ(cg_vc4_reg_write(v, CG_VC4_SQRSV1, 0x00001111u), 0);
    CHECK_EQ(reg(CG_VC4_SQRSV0), 0x11111111u);
    for (int i = 0; i < 16; i++)
        CHECK_EQ(cg_vc4_reg_write(v, CG_VC4_SRQPC, CODE), 0);
    CHECK_EQ(reg(CG_VC4_SRQCS), 16u | 16u << 8);
    CHECK_EQ(cg_vc4_reg_write(v, CG_VC4_SRQPC, CODE), 0);
    CHECK_EQ(reg(CG_VC4_SRQCS), 16u | 1u << 7 | 16u << 8);
    const cg_fault *f = find_fault(CG_FAULT_BAD_STATE, NULL);
    CHECK(f != NULL);
    if (f)
        CHECK_STR(f->message, "SRQPC write 0x00010000: the user program request queue is full "
                              "(16 entries); request dropped, SRQCS error bit set");
    /* QPU 11 only */
    CHECK_EQ(cg_vc4_reg_write(v, CG_VC4_SQRSV1, 0x00000111u), 0);
    CHECK_EQ(reg(CG_VC4_SRQCS), 1u << 7 | 16u << 8 | 16u << 16);
    cg_vc4_qpu_info qi;
    CHECK_EQ(cg_vc4_qpu_get(v, 11, &qi), 0);
    CHECK_EQ(qi.host_ints, 1u);
    CHECK_EQ(cg_vc4_qpu_get(v, 0, &qi), 0);
    CHECK(qi.reserved);
    CHECK_EQ(qi.host_ints, 0u);
    CHECK_EQ(reg(CG_VC4_DBQITC), 1u << 11);
    teardown();
}

/* Two programs wait on semaphores nobody releases: the watchdog ends each
 * with a HANG naming its pc and wait. */
static void test_deadlock(void)
{
    setup(0);
    qasm(CODE, "sacq nop, 1\n" END);
    qasm(CODE + 0x100, "nop : nop\nsacq nop, 2\n" END);
    CHECK_EQ(cg_vc4_reg_write(v, CG_VC4_SRQPC, CODE), 0);
    CHECK_EQ(cg_vc4_reg_write(v, CG_VC4_SRQPC, CODE + 0x100), 0);
    cg_vc4_qpu_info qi;
    CHECK_EQ(cg_vc4_qpu_get(v, 1, &qi), 0);
    CHECK(qi.busy && qi.blocked);
    CHECK_EQ(qi.pc, CODE + 0x108);
    CHECK_STR(qi.wait, "semaphore 2 acquire (count 0)");
    CHECK_EQ(reg(CG_VC4_SRQCS), 2u << 8);
    CHECK_EQ(cg_vc4_wait_idle(v), CG_ERR_TIMEOUT);
    CHECK_EQ(cg_fault_count(dev), 2u);
    const cg_fault *f = cg_fault_get(dev, 0);
    CHECK_STR(f->message, "deadlock (budget vc4.qpu-insns): qpu 0 pc 0x00010000 waits on "
                          "semaphore 1 acquire (count 0); others: q1@00010108 semaphore 2 "
                          "acquire (count 0)");
    CHECK_STR(f->unit, "qpu");
    CHECK_EQ(f->channel, 0);
    f = cg_fault_get(dev, 1);
    CHECK_STR(f->message, "deadlock (budget vc4.qpu-insns): qpu 1 pc 0x00010108 waits on "
                          "semaphore 2 acquire (count 0); others: none");
    CHECK_EQ(f->channel, 1);
    /* the QPUs are free again: the next program runs */
    CHECK_EQ(cg_vc4_reg_write(v, CG_VC4_SRQPC, CODE + 0x200), 0);
    qasm(CODE + 0x200, "mov host_int, 5\n" END);
    CHECK_EQ(cg_vc4_reg_write(v, CG_VC4_SRQPC, CODE + 0x200), 0);
    CHECK_EQ(cg_vc4_qpu_get(v, 0, &qi), 0);
    CHECK_EQ(qi.host_int_value, 5u);
    teardown();
}

/* An endless loop runs into the per-program budget. */
static void test_budget(void)
{
    setup(1000);
    qasm(CODE, "loop:\nbra -, loop\nnop : nop\nnop : nop\nnop : nop\n");
    CHECK_EQ(cg_vc4_reg_write(v, CG_VC4_SRQPC, CODE), 0);
    const cg_fault *f = find_fault(CG_FAULT_HANG, NULL);
    CHECK(f != NULL);
    if (f)
        CHECK(strncmp(f->message, "user program did not end within its instruction budget "
                                  "(budget vc4.qpu-insns): qpu 0 pc 0x",
                      71) == 0);
    CHECK_EQ(reg(CG_VC4_SRQCS), 1u << 8); /* made, never completed */
    cg_vc4_qpu_stats st;
    cg_vc4_qpu_get_stats(v, &st);
    CHECK_EQ(st.insns, 1000u);
    CHECK_EQ(st.faulted, 1u);
    teardown();
}

/* The property interface: buffer at MBOX with one tag; returns value[0]. */
static uint32_t mbox(uint32_t tag, const uint32_t *in, unsigned n)
{
    uint32_t buf[16] = {0};
    buf[0] = (uint32_t)sizeof buf;
    buf[2] = tag;
    buf[3] = 16;
    for (unsigned i = 0; i < n; i++)
        buf[5 + i] = in[i];
    CHECK_EQ(cg_vc4_cpu_write(v, MBOX, buf, sizeof buf), 0);
    CHECK_EQ(cg_vc4_mbox_write(v, MBOX | 8), 0);
    uint32_t m;
    CHECK_EQ(cg_vc4_mbox_read(v, &m), 0);
    CHECK_EQ(cg_vc4_cpu_read(v, MBOX, buf, sizeof buf), 0);
    CHECK_EQ(buf[1], 0x80000000u);
    return buf[5];
}

static void test_mailbox_memory(void)
{
    setup(0);
    static const struct {
        uint32_t flags, alias;
    } cases[] = {{0x0, 0x00000000u}, {0x4, 0xC0000000u}, {0x8, 0x80000000u}, {0xC, 0x40000000u},
                 {0x5, 0xC0000000u}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        uint32_t in[3] = {8192, 4096, cases[i].flags};
        uint32_t h = mbox(0x3000C, in, 3);
        CHECK_EQ(h, (uint32_t)i + 1);
        uint32_t bus = mbox(0x3000D, &h, 1);
        CHECK_EQ(bus & 0xC0000000u, cases[i].alias);
        CHECK_EQ(bus & 0xFFF, 0u);
        CHECK_EQ(mbox(0x3000E, &h, 1), 0u);
        CHECK_EQ(mbox(0x3000F, &h, 1), 0u);
    }
    uint32_t bad = 99;
    CHECK_EQ(mbox(0x3000D, &bad, 1), 0u);  /* lock of no handle: 0 */
    CHECK_EQ(mbox(0x3000F, &bad, 1), 1u);  /* release of no handle: error */
    teardown();
}

/* 12 QPUs through tag 0x30011: QPUs 1..11 release semaphore 0, QPU 0
 * acquires it 11 times, then every one raises its host interrupt. */
static void test_exec_qpu_12(void)
{
    setup(0);
    char src[4096];
    size_t k = (size_t)snprintf(src, sizeof src, "mov r0, unif\n");
    for (int i = 0; i < 11; i++)
        k += (size_t)snprintf(src + k, sizeof src - k, "sacq nop, 0\n");
    snprintf(src + k, sizeof src - k, "mov host_int, r0\n" END);
    qasm(CODE, src);
    qasm(CODE + 0x400, "mov r0, unif\nsrel nop, 0\nmov host_int, r0\n" END);
    for (uint32_t q = 0; q < 12; q++) {
        CHECK_EQ(cg_vc4_cpu_write32(v, UNIF + 4 * q, 100 + q), 0);
        CHECK_EQ(cg_vc4_cpu_write32(v, CTRL + 8 * q, UNIF + 4 * q), 0);
        CHECK_EQ(cg_vc4_cpu_write32(v, CTRL + 8 * q + 4, q ? CODE + 0x400 : CODE), 0);
    }
    uint32_t one = 1;
    uint32_t st;
    /* not enabled yet: the firmware times out */
    CHECK_EQ(cg_vc4_qpu_execute(v, 12, CTRL, 0, 10, &st), 0);
    CHECK_EQ(st, 0x80000000u);
    CHECK(find_fault(CG_FAULT_BAD_STATE, "not enabled") != NULL);
    cg_fault_clear(dev);
    CHECK_EQ(mbox(0x30012, &one, 1), 0u);
    uint32_t in[4] = {12, CTRL, 0, 100};
    CHECK_EQ(mbox(0x30011, in, 4), 0u);
    CHECK_EQ(cg_fault_count(dev), 0u);
    for (unsigned q = 0; q < 12; q++) {
        cg_vc4_qpu_info qi;
        CHECK_EQ(cg_vc4_qpu_get(v, q, &qi), 0);
        CHECK_EQ(qi.host_int_value, 100 + q);
        CHECK_EQ(qi.insns, q ? 6u : 16u);
    }
    CHECK_EQ(reg(CG_VC4_DBQITC), 0xFFFu);
    cg_vc4_qpu_stats s;
    cg_vc4_qpu_get_stats(v, &s);
    CHECK_EQ(s.completed, 12u);
    CHECK_EQ(s.sems[0], 0u);
    /* a program that never raises its interrupt: timeout */
    qasm(CODE + 0x800, END);
    CHECK_EQ(cg_vc4_cpu_write32(v, CTRL + 4, CODE + 0x800), 0);
    uint32_t in1[4] = {1, CTRL, 0, 5};
    CHECK_EQ(mbox(0x30011, in1, 4), 0x80000000u);
    const cg_fault *f = find_fault(CG_FAULT_HANG, "execute QPU");
    CHECK(f != NULL);
    if (f)
        CHECK_STR(f->message, "execute QPU: timeout 5 ms: 1 of 1 programs ended, 0 host "
                              "interrupts; no QPU runs");
    /* a deadlock: QPU 0 waits for releases nobody makes */
    cg_fault_clear(dev);
    CHECK_EQ(cg_vc4_cpu_write32(v, CTRL + 4, CODE), 0);
    CHECK_EQ(mbox(0x30011, in1, 4), 0x80000000u);
    CHECK(find_fault(CG_FAULT_HANG, "deadlock (budget vc4.qpu-insns): qpu 0 pc 0x00010008 "
                                    "waits on semaphore 0 acquire (count 0); others: none") != NULL);
    teardown();
}

/* hello_fft's mailbox rule (issue 33): 8 programs, the workers release
 * semaphore 0 and end without an interrupt, the master acquires it 7 times
 * and alone raises the host interrupt ("IRQ enable, master only"): the
 * firmware's wait ends at that interrupt, status 0, no fault. A master that
 * raises it while a worker is stuck: still 0 (the firmware returns), the
 * stuck QPU ends with its own hang fault. */
static void test_exec_master_irq(void)
{
    setup(0);
    uint32_t one = 1;
    CHECK_EQ(mbox(0x30012, &one, 1), 0u);
    char src[1024];
    size_t k = (size_t)snprintf(src, sizeof src, "mov r0, unif\n");
    for (int i = 0; i < 7; i++)
        k += (size_t)snprintf(src + k, sizeof src - k, "sacq nop, 0\n");
    snprintf(src + k, sizeof src - k, "mov host_int, r0\n" END);
    qasm(CODE, src);
    qasm(CODE + 0x400, "mov r0, unif\nsrel nop, 0\n" END);
    for (uint32_t q = 0; q < 8; q++) {
        CHECK_EQ(cg_vc4_cpu_write32(v, UNIF + 4 * q, q == 0), 0);
        CHECK_EQ(cg_vc4_cpu_write32(v, CTRL + 8 * q, UNIF + 4 * q), 0);
        CHECK_EQ(cg_vc4_cpu_write32(v, CTRL + 8 * q + 4, q ? CODE + 0x400 : CODE), 0);
    }
    uint32_t in[4] = {8, CTRL, 1, 1000};
    CHECK_EQ(mbox(0x30011, in, 4), 0u);
    CHECK_EQ(cg_fault_count(dev), 0u);
    CHECK_EQ(reg(CG_VC4_DBQITC), 1u);
    cg_vc4_qpu_stats s;
    cg_vc4_qpu_get_stats(v, &s);
    CHECK_EQ(s.completed, 8u);
    CHECK_EQ(s.host_ints, 1u);
    CHECK_EQ(s.faulted, 0u);
    /* workers 6 and 7 wait on semaphore 1 forever: 5 releases */
    qasm(CODE + 0x800, "sacq nop, 1\n" END);
    CHECK_EQ(cg_vc4_cpu_write32(v, CTRL + 8 * 7 + 4, CODE + 0x800), 0);
    CHECK_EQ(cg_vc4_cpu_write32(v, CTRL + 8 * 6 + 4, CODE + 0x800), 0);
    uint32_t in6[4] = {8, CTRL, 1, 1000};
    /* the master wants 7: it waits too, no interrupt: timeout */
    CHECK_EQ(mbox(0x30011, in6, 4), 0x80000000u);
    CHECK(find_fault(CG_FAULT_HANG, "execute QPU: timeout 1000 ms: 5 of 8 programs ended, 0 "
                                    "host interrupts") != NULL);
    cg_fault_clear(dev);
    /* master needs 5 releases: it interrupts, QPUs 6 and 7 stay stuck */
    k = (size_t)snprintf(src, sizeof src, "mov r0, unif\n");
    for (int i = 0; i < 5; i++)
        k += (size_t)snprintf(src + k, sizeof src - k, "sacq nop, 0\n");
    snprintf(src + k, sizeof src - k, "mov host_int, r0\n" END);
    qasm(CODE, src);
    CHECK_EQ(mbox(0x30011, in6, 4), 0u);
    CHECK_EQ(cg_fault_count(dev), 2u);
    CHECK(find_fault(CG_FAULT_HANG, "deadlock after execute QPU's interrupt (budget "
                                    "vc4.qpu-insns): qpu 6 pc 0x00010800 waits on semaphore 1 "
                                    "acquire (count 0)") != NULL);
    CHECK(find_fault(CG_FAULT_HANG, "execute QPU:") == NULL);
    teardown();
}


/* SAXPY from examples/vc4/gpgpu/saxpy.qasm on 12 QPUs through the queue
 * registers (scheduler held, then released): every output value equals
 * a * x + y computed here. */
static void test_saxpy_12(void)
{
    setup(1u << 20);
    char path[512];
    snprintf(path, sizeof path, "%s/examples/vc4/gpgpu/saxpy.qasm", CMDGPU_SOURCE_DIR);
    cg_asm *as;
    CHECK_EQ(cg_asm_create(cg_vc4_qpu_asm_family(), NULL, &as), 0);
    char pre[64];
    snprintf(pre, sizeof pre, ".section text, 0x%x\n", CODE);
    cg_asm_add_source(as, "pre.s", pre, strlen(pre));
    CHECK_EQ(cg_asm_add_file(as, path), 0);
    CHECK_EQ(cg_asm_assemble(as), 0);
    const char *name;
    uint64_t base;
    const uint8_t *data;
    size_t size = 0;
    cg_asm_section(as, 0, &name, &base, &data, &size);
    CHECK_EQ(base, CODE);
    CHECK_EQ(cg_vc4_cpu_write(v, CODE, data, size), 0);
    cg_asm_destroy(as);
    enum { BLOCKS = 3, N = 12 * BLOCKS * 16, X = 0x100000, Y = 0x110000, OUT = 0x120000 };
    const float a = -1.75f;
    static float x[N], y[N];
    for (int k = 0; k < N; k++) {
        x[k] = (float)(k % 97) * 0.25f + 1.0f;
        y[k] = 3.0f - (float)k / 8.0f;
    }
    CHECK_EQ(cg_vc4_cpu_write(v, X, x, sizeof x), 0);
    CHECK_EQ(cg_vc4_cpu_write(v, Y, y, sizeof y), 0);
    CHECK_EQ(cg_vc4_qpu_hold(v, true), 0);
    for (uint32_t q = 0; q < 12; q++) {
        uint32_t u[7], off = q * BLOCKS * 64;
        u[0] = BLOCKS;
        memcpy(&u[1], &a, 4);
        u[2] = X + off, u[3] = Y + off, u[4] = OUT + off, u[5] = q, u[6] = 11;
        CHECK_EQ(cg_vc4_cpu_write(v, UNIF + 32 * q, u, sizeof u), 0);
        CHECK_EQ(cg_vc4_reg_write(v, CG_VC4_SRQUA, UNIF + 32 * q), 0);
        CHECK_EQ(cg_vc4_reg_write(v, CG_VC4_SRQUL, 7), 0);
        CHECK_EQ(cg_vc4_reg_write(v, CG_VC4_SRQPC, CODE), 0);
    }
    CHECK_EQ(reg(CG_VC4_SRQCS), 12u | 12u << 8);
    CHECK_EQ(cg_vc4_qpu_hold(v, false), 0);
    CHECK_EQ(reg(CG_VC4_SRQCS), 12u << 8 | 12u << 16);
    CHECK_EQ(cg_vc4_wait_idle(v), 0);
    CHECK_EQ(cg_fault_count(dev), 0u);
    static float out[N];
    CHECK_EQ(cg_vc4_cpu_read(v, OUT, out, sizeof out), 0);
    int bad = 0;
    for (int k = 0; k < N; k++) {
        float want = a * x[k];
        want = want + y[k];
        bad += memcmp(&want, &out[k], 4) != 0;
    }
    CHECK_EQ(bad, 0);
    CHECK_EQ(reg(CG_VC4_DBQITC), 0xFFFu);
    cg_vc4_qpu_info qi;
    CHECK_EQ(cg_vc4_qpu_get(v, 5, &qi), 0);
    /* 14 set-up, 20 per block (3 blocks), 5 to the barrier, srel + branch +
     * 3 slots, 4 to the end */
    CHECK_EQ(qi.insns, 14u + 3 * 20 + 5 + 5 + 4);
    teardown();
}

/* Bad input: the faulting program stops, the other QPUs and the next
 * program keep working. */
static void test_faults_isolated(void)
{
    setup(0);
    /* QPU 0: release semaphore 4 sixteen times (past 15) */
    char src[1024];
    size_t k = 0;
    for (int i = 0; i < 16; i++)
        k += (size_t)snprintf(src + k, sizeof src - k, "srel -, 4\n");
    snprintf(src + k, sizeof src - k, END);
    qasm(CODE, src);
    /* QPU 1: code that runs off SDRAM (a branch to 32 MiB; SDRAM is 16) */
    qasm(CODE + 0x400, "ldi ra0, 0x2000000\nnop\nbra -, ra0, 0\nnop\nnop\nnop\n");
    /* QPU 2: a VDW store outside SDRAM */
    qasm(CODE + 0x800, "ldi vw_setup, 0x80904000\nldi r0, 0x01000000\nmov vw_addr, r0\n"
                       "read vw_wait\n" END);
    /* QPU 3: a TMU lookup outside SDRAM */
    qasm(CODE + 0xC00, "ldi r0, 0x01000000\nmov t0s, r0\nldtmu0\n" END);
    /* QPU 4: fine */
    qasm(CODE + 0x1000, "ldi irq, 9\n" END);
    CHECK_EQ(cg_vc4_qpu_hold(v, true), 0);
    for (uint32_t i = 0; i < 5; i++)
        CHECK_EQ(cg_vc4_reg_write(v, CG_VC4_SRQPC, CODE + 0x400 * i), 0);
    CHECK_EQ(cg_vc4_qpu_hold(v, false), 0);
    CHECK_EQ(cg_vc4_wait_idle(v), 0);
    for (size_t i = 0; getenv("SHOW") && i < cg_fault_count(dev); i++) {
        char line[400];
        cg_fault_format(cg_fault_get(dev, i), line, sizeof line);
        fprintf(stderr, "%s\n", line);
    }
    cg_vc4_qpu_stats st;
    cg_vc4_qpu_get_stats(v, &st);
    CHECK_EQ(st.completed, 1u);
    CHECK_EQ(st.faulted, 4u);
    CHECK_EQ(st.sems[4], 15u);
    CHECK_EQ(reg(CG_VC4_SRQCS), 5u << 8 | 1u << 16);
    CHECK_EQ(cg_fault_count(dev), 4u);
    const cg_fault *f = find_fault(CG_FAULT_BAD_STATE, "semaphore 4 release past 15");
    CHECK(f != NULL);
    if (f)
        CHECK_EQ(f->channel, 0);
    f = find_fault(CG_FAULT_UNMAPPED, "read of 0x8 bytes at 0x2000000");
    CHECK(f != NULL);
    if (f)
        CHECK_EQ(f->channel, 1);
    f = find_fault(CG_FAULT_UNMAPPED, "write of 0x40 bytes at 0x1000000");
    CHECK(f != NULL);
    if (f)
        CHECK_EQ(f->channel, 2);
    f = find_fault(CG_FAULT_UNMAPPED, "read of 0x4 bytes at 0x1000000");
    CHECK(f != NULL);
    if (f)
        CHECK_EQ(f->channel, 3);
    cg_vc4_qpu_info qi;
    CHECK_EQ(cg_vc4_qpu_get(v, 4, &qi), 0);
    CHECK_EQ(qi.host_int_value, 9u);
    /* the next program runs on the freed QPUs */
    CHECK_EQ(cg_vc4_reg_write(v, CG_VC4_SRQPC, CODE + 0x1000), 0);
    CHECK_EQ(cg_vc4_qpu_get(v, 0, &qi), 0);
    CHECK_EQ(qi.host_int_value, 9u);
    CHECK_EQ(reg(CG_VC4_SRQCS), 6u << 8 | 2u << 16);
    teardown();
}

/* The interleave rule (docs/vc4-gpgpu.md, "Scheduler"): a QPU runs until
 * an instruction that touches a shared unit, then the next QPU. QPU 0 runs
 * its two nops and takes the mutex in its first slice, before QPU 1 tries:
 * QPU 1 then waits on the mutex held by QPU 0, and QPU 0 on semaphore 3.
 * (With one instruction per QPU per round, QPU 1 took the mutex first.) */
static void test_interleave_slices(void)
{
    setup(0);
    qasm(CODE, "nop : nop\nnop : nop\nmov r0, mutex\nsacq -, 3\n" END);
    qasm(CODE + 0x100, "mov r0, mutex\nsacq -, 3\n" END);
    CHECK_EQ(cg_vc4_qpu_hold(v, true), 0);
    CHECK_EQ(cg_vc4_reg_write(v, CG_VC4_SRQPC, CODE), 0);
    CHECK_EQ(cg_vc4_reg_write(v, CG_VC4_SRQPC, CODE + 0x100), 0);
    CHECK_EQ(cg_vc4_qpu_hold(v, false), 0);
    cg_vc4_qpu_info qi;
    CHECK_EQ(cg_vc4_qpu_get(v, 0, &qi), 0);
    CHECK(qi.busy && qi.blocked);
    CHECK_EQ(qi.pc, CODE + 0x18);
    CHECK_EQ(qi.insns, 3u);
    CHECK_STR(qi.wait, "semaphore 3 acquire (count 0)");
    CHECK_EQ(cg_vc4_qpu_get(v, 1, &qi), 0);
    CHECK(qi.busy && qi.blocked);
    CHECK_EQ(qi.pc, CODE + 0x100);
    CHECK_EQ(qi.insns, 0u);
    CHECK_STR(qi.wait, "mutex (held by QPU 0)");
    CHECK_EQ(cg_vc4_wait_idle(v), CG_ERR_TIMEOUT);
    CHECK_EQ(cg_fault_count(dev), 2u);
    const cg_fault *f = cg_fault_get(dev, 0);
    CHECK_STR(f->message, "deadlock (budget vc4.qpu-insns): qpu 0 pc 0x00010018 waits on "
                          "semaphore 3 acquire (count 0); others: q1@00010100 mutex (held by "
                          "QPU 0)");
    f = cg_fault_get(dev, 1);
    CHECK_STR(f->message, "deadlock (budget vc4.qpu-insns): qpu 1 pc 0x00010100 waits on "
                          "mutex (held by QPU 0); others: none");
    teardown();
}

/* The execute-QPU timeout is timeout_ms * 250000 steps of each QPU: two
 * endless loops (4 instructions, no shared unit) each run exactly 250000
 * instructions in 1 ms and stop at the loop's start. */
static void test_exec_timeout_steps(void)
{
    setup(1ull << 30);
    uint32_t one = 1;
    CHECK_EQ(mbox(0x30012, &one, 1), 0u);
    qasm(CODE, "loop:\nbrr -, loop\nnop : nop\nnop : nop\nnop : nop\n");
    for (uint32_t q = 0; q < 2; q++) {
        CHECK_EQ(cg_vc4_cpu_write32(v, CTRL + 8 * q, UNIF), 0);
        CHECK_EQ(cg_vc4_cpu_write32(v, CTRL + 8 * q + 4, CODE), 0);
    }
    uint32_t st;
    CHECK_EQ(cg_vc4_qpu_execute(v, 2, CTRL, 0, 1, &st), 0);
    CHECK_EQ(st, 0x80000000u);
    const cg_fault *f = find_fault(CG_FAULT_HANG, "execute QPU");
    CHECK(f != NULL);
    if (f)
        CHECK_STR(f->message, "execute QPU: timeout 1 ms: 0 of 2 programs ended, 0 host "
                              "interrupts; q0@00010000 runs; q1@00010000 runs");
    CHECK(find_fault(CG_FAULT_HANG, "execute QPU timeout (budget vc4.qpu-insns): qpu 0 pc "
                                    "0x00010000 waits on nothing (runs); others: "
                                    "q1@00010000 runs") != NULL);
    cg_vc4_qpu_stats s;
    cg_vc4_qpu_get_stats(v, &s);
    CHECK_EQ(s.insns, 500000u);
    CHECK_EQ(s.faulted, 2u);
    teardown();
}

/* Decoded user programs follow memory: a program that ran once is cached;
 * its second run blocks on a semaphore, the CPU rewrites an instruction
 * after the blocking point, and when the scheduler runs again (a release
 * from another program) the rewritten instruction runs. */
static void test_code_rewrite(void)
{
    setup(0);
    qasm(CODE, "sacq -, 0\nldi r0, 1\nmov host_int, r0\n" END);
    qasm(CODE + 0x100, "srel -, 0\n" END);
    CHECK_EQ(cg_vc4_reg_write(v, CG_VC4_SRQPC, CODE + 0x100), 0);
    CHECK_EQ(cg_vc4_reg_write(v, CG_VC4_SRQPC, CODE), 0);
    cg_vc4_qpu_info qi;
    CHECK_EQ(cg_vc4_qpu_get(v, 0, &qi), 0);
    CHECK_EQ(qi.host_int_value, 1u);
    CHECK_EQ(cg_vc4_reg_write(v, CG_VC4_SRQPC, CODE), 0);
    CHECK_EQ(cg_vc4_qpu_get(v, 0, &qi), 0);
    CHECK(qi.busy && qi.blocked);
    CHECK_EQ(qi.pc, CODE);
    /* the ldi's immediate (low word of the second instruction) becomes 2 */
    CHECK_EQ(cg_vc4_cpu_write32(v, CODE + 8, 2), 0);
    CHECK_EQ(cg_vc4_reg_write(v, CG_VC4_SRQPC, CODE + 0x100), 0);
    CHECK_EQ(cg_vc4_qpu_get(v, 0, &qi), 0);
    CHECK(!qi.busy);
    CHECK_EQ(qi.host_int_value, 2u);
    CHECK_EQ(qi.host_ints, 1u);
    CHECK_EQ(reg(CG_VC4_SRQCS), 4u << 8 | 4u << 16);
    CHECK_EQ(cg_fault_count(dev), 0u);
    teardown();
}

/* ... and code a QPU's VDW DMA rewrites while another program runs: A
 * (cached by a first run) blocks on a semaphore; B writes a patched ldi
 * for A into the VPM, DMAs it over A's ldi, then releases A in the same
 * scheduler run: A runs the patched instruction (the scheduler
 * revalidates its cache after a slice that ran a VDW). */
static void test_code_rewrite_vdw(void)
{
    setup(0);
    qasm(CODE, "sacq -, 0\nldi r2, 1\nmov host_int, r2\n" END);
    qasm(CODE + 0x100, "srel -, 0\n" END);
    uint32_t hi;
    CHECK_EQ(cg_vc4_cpu_read(v, CODE + 12, &hi, 4), 0);
    char src[1024];
    snprintf(src, sizeof src,
             "ldi vw_setup, 0x1a00\n"      /* VPM writes: row 0, horizontal 32-bit */
             "ldi r0, 2\n"                 /* lane 0: the ldi's new low word */
             "ldi r1, 0x%08x\n"            /* lane 1: its high word */
             "sub.setf -, elem_num, 1\n"
             "mov.ifz r0, r1\n"
             "mov vpm, r0\n"
             "ldi vw_setup, 0x80824000\n"  /* VDW: 1 unit of depth 2 from row 0 */
             "ldi vw_setup, 0xc0000000\n"
             "ldi vw_addr, 0x%x\n"
             "mov -, vw_wait\n"
             "srel -, 0\n" END, hi, CODE + 8);
    qasm(CODE + 0x200, src);
    CHECK_EQ(cg_vc4_reg_write(v, CG_VC4_SRQPC, CODE + 0x100), 0);
    CHECK_EQ(cg_vc4_reg_write(v, CG_VC4_SRQPC, CODE), 0);
    cg_vc4_qpu_info qi;
    CHECK_EQ(cg_vc4_qpu_get(v, 0, &qi), 0);
    CHECK_EQ(qi.host_int_value, 1u);
    CHECK_EQ(cg_vc4_reg_write(v, CG_VC4_SRQPC, CODE), 0);
    CHECK_EQ(cg_vc4_qpu_get(v, 0, &qi), 0);
    CHECK(qi.busy && qi.blocked);
    CHECK_EQ(cg_vc4_reg_write(v, CG_VC4_SRQPC, CODE + 0x200), 0);
    uint32_t w[2];
    CHECK_EQ(cg_vc4_cpu_read(v, CODE + 8, w, 8), 0);
    CHECK_EQ(w[0], 2u);
    CHECK_EQ(w[1], hi);
    CHECK_EQ(cg_vc4_qpu_get(v, 0, &qi), 0);
    CHECK(!qi.busy);
    CHECK_EQ(qi.host_int_value, 2u);
    CHECK_EQ(cg_vc4_qpu_get(v, 1, &qi), 0);
    CHECK(!qi.busy);
    CHECK_EQ(qi.insns, 14u);
    CHECK_EQ(reg(CG_VC4_SRQCS), 4u << 8 | 4u << 16);
    CHECK_EQ(cg_fault_count(dev), 0u);
    teardown();
}

int main(void)
{
    test_queue_one();
    test_queue_overflow();
    test_deadlock();
    test_budget();
    test_mailbox_memory();
    test_exec_qpu_12();
    test_exec_master_irq();
    test_saxpy_12();
    test_faults_isolated();
    test_interleave_slices();
    test_exec_timeout_steps();
    test_code_rewrite();
    test_code_rewrite_vdw();
    return check_report("test_vc4_gpgpu");
}
