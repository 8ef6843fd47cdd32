/* The peripheral window of libcmdgpu-vcio (issue 33): a program written as
 * for a Pi 1 with the userland's mailbox.h maps the peripheral base with
 * mapmem and drives the V3D registers itself, as hello_fft's direct path
 * does: queue 12 SAXPY programs through SRQUA/SRQPC, poll SRQCS, clear the
 * interrupts. Then the bad input of the issue: read-only registers, a queue
 * overflow, a second mapping, 8/16-bit, unaligned and odd-instruction
 * accesses, another peripheral block, an access after unmapmem (each in a
 * child: one line on stderr and exit status 1), a fault outside the window
 * (the program's own handler gets it), a second thread polling, unmapmem
 * while a QPU is stuck; and a mailbox-started 8-QPU program whose master
 * alone raises the host interrupt (status 0).
 *
 * Built by CTest against the static library (test_vcio_window) and by
 * tests/install.sh against the installed one with pkg-config, as a user
 * would. Exit 0: pass; 77: this build has no peripheral window (no
 * capstone); else the number of failed checks. */
#define _GNU_SOURCE
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>
#include "mailbox.h"
#include "saxpy_code.h"

static int failed;
#define CHECK(c)                                                            \
    do {                                                                    \
        if (!(c)) {                                                         \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #c); \
            failed++;                                                       \
        }                                                                   \
    } while (0)
#define CHECK_EQ(a, b)                                                      \
    do {                                                                    \
        unsigned long long a_ = (unsigned long long)(a), b_ = (unsigned long long)(b); \
        if (a_ != b_) {                                                     \
            fprintf(stderr, "%s:%d: %s = 0x%llx, want 0x%llx\n", __FILE__, __LINE__, #a, \
                    a_, b_);                                                \
            failed++;                                                       \
        }                                                                   \
    } while (0)

/* V3D registers (VideoCore IV 3D Architecture Reference Guide), word index */
enum { IDENT0 = 0x000 / 4, SCRATCH = 0x010 / 4, L2CACTL = 0x020 / 4, SLCACTL = 0x024 / 4,
       SQRSV0 = 0x410 / 4, SQRSV1 = 0x414 / 4, SRQPC = 0x430 / 4, SRQUA = 0x434 / 4,
       SRQUL = 0x438 / 4, SRQCS = 0x43C / 4, DBCFG = 0xE00 / 4, DBQITE = 0xE2C / 4,
       DBQITC = 0xE30 / 4 };

#define NQPU 12
#define BLOCKS 4
#define N (NQPU * BLOCKS * 16)
enum { CODE = 0, UNIFS = 0x1000, CTRL = 0x2000, SMALLU = 0x2800, MASTER = 0x3000,
       WORKER = 0x3100, BLOCK = 0x3200, END = 0x3300, X = 0x4000, Y = 0x8000, OUT = 0xC000,
       SIZE = 0x10000 };

/* cmdgpu asm -f vc4-qpu of: mov r0, unif; sacq nop, 0 (x7); mov host_int, r0;
 * then the end (nop : nop : thrend; nop : nop; nop : nop) */
static const unsigned master_code[] = {
    0x15827d80, 0x10020827, 0x00000010, 0xe80209e7, 0x00000010, 0xe80209e7,
    0x00000010, 0xe80209e7, 0x00000010, 0xe80209e7, 0x00000010, 0xe80209e7,
    0x00000010, 0xe80209e7, 0x00000010, 0xe80209e7, 0x159e7000, 0x100209a7,
    0x009e7000, 0x300009e7, 0x009e7000, 0x100009e7, 0x009e7000, 0x100009e7};
/* mov r0, unif; srel nop, 0; mov host_int, r0; the end */
static const unsigned worker_code[] = {0x15827d80, 0x10020827, 0x00000000, 0xe80209e7,
                                       0x159e7000, 0x100209a7, 0x009e7000, 0x300009e7,
                                       0x009e7000, 0x100009e7, 0x009e7000, 0x100009e7};
/* sacq nop, 5 (nobody releases it); the end */
static const unsigned block_code[] = {0x00000015, 0xe80209e7, 0x009e7000, 0x300009e7,
                                      0x009e7000, 0x100009e7, 0x009e7000, 0x100009e7};
/* the end alone */
static const unsigned end_code[] = {0x009e7000, 0x300009e7, 0x009e7000,
                                    0x100009e7, 0x009e7000, 0x100009e7};

static int mb;
static unsigned bus;
static unsigned char *arm;
static volatile unsigned *peri, *v3d;

/* loads and stores in the shapes compilers emit, spelled out */
static unsigned load_base_index(volatile unsigned *base, long idx)
{
    unsigned r;
    __asm__ volatile("movl (%1,%2,4), %0" : "=r"(r) : "r"(base), "r"(idx) : "memory");
    return r;
}

static uint64_t load_r9_zero_extends(volatile unsigned *p)
{
    uint64_t r;
    __asm__ volatile("movabsq $0xffffffffffffffff, %%r9\n\t"
                     "movl 0x10(%1), %%r9d\n\t"
                     "movq %%r9, %0"
                     : "=r"(r)
                     : "r"(p)
                     : "r9", "memory");
    return r;
}

static int64_t load_movsxd(volatile unsigned *p)
{
    int64_t r;
    __asm__ volatile("movslq 0x10(%1), %0" : "=r"(r) : "r"(p) : "memory");
    return r;
}

/* the ALU forms clang folds volatile accesses into: flags as setcc sees
 * them (bit 0 ZF, 1 CF, 2 SF, 3 OF) */
static unsigned cmp_flags(volatile unsigned *p, unsigned b)
{
    unsigned char z, c, sg, o;
    __asm__ volatile("cmpl %5, 0x10(%4)\n\tsetz %0\n\tsetc %1\n\tsets %2\n\tseto %3"
                     : "=q"(z), "=q"(c), "=q"(sg), "=q"(o)
                     : "r"(p), "r"(b)
                     : "memory", "cc");
    return z | c << 1 | sg << 2 | o << 3;
}

static int test_zero(volatile unsigned *p)
{
    unsigned char z;
    __asm__ volatile("testl $63, 0x43c(%1)\n\tsetz %0" : "=q"(z) : "r"(p) : "memory", "cc");
    return z;
}

static void or_imm(volatile unsigned *p)
{
    __asm__ volatile("orl $4, 0x10(%0)" : : "r"(p) : "memory", "cc");
}

static unsigned sub_into_reg(volatile unsigned *p, unsigned a)
{
    __asm__ volatile("subl 0x10(%1), %0" : "+r"(a) : "r"(p) : "memory", "cc");
    return a;
}

static void add_reg_mem(volatile unsigned *p, unsigned a)
{
    __asm__ volatile("addl %1, 0x10(%0)" : : "r"(p), "r"(a) : "memory", "cc");
}

static void bad_lock(void)
{
    __asm__ volatile("lock orl $1, 0x10(%0)" : : "r"(v3d) : "memory", "cc");
}

static void store_imm(volatile unsigned *p)
{
    __asm__ volatile("movl $0x5a5aa5a5, 0x10(%0)" : : "r"(p) : "memory");
}

static void store_r13(volatile unsigned *p, unsigned v)
{
    __asm__ volatile("movl %1, %%r13d\n\tmovl %%r13d, (%0)" : : "r"(p), "r"(v) : "r13", "memory");
}

/* ---- the direct path: SAXPY on 12 QPUs through the registers ---- */
static void test_direct_saxpy(void)
{
    const float a = 2.5f;
    float *x = (float *)(arm + X), *y = (float *)(arm + Y), *out = (float *)(arm + OUT);
    for (int k = 0; k < N; k++) {
        x[k] = 0.5f * (float)k - 100.0f;
        y[k] = 1000.0f - 3.0f * (float)k;
        out[k] = 0;
    }
    memcpy(arm + CODE, saxpy_code, sizeof saxpy_code);
    unsigned *u = (unsigned *)(arm + UNIFS);
    for (unsigned q = 0; q < NQPU; q++) {
        unsigned *p = u + 8 * q, off = q * BLOCKS * 64;
        float af = a;
        p[0] = BLOCKS;
        memcpy(&p[1], &af, 4);
        p[2] = bus + X + off;
        p[3] = bus + Y + off;
        p[4] = bus + OUT + off;
        p[5] = q;
        p[6] = NQPU - 1;
    }
    /* hello_fft's gpu_fft_base_exec_direct, register by register */
    v3d[DBCFG] = 0;
    v3d[DBQITE] = 0;
    v3d[DBQITC] = ~0u;
    v3d[L2CACTL] = 1u << 2;
    v3d[SLCACTL] = ~0u;
    v3d[SRQCS] = 1u << 7 | 1u << 8 | 1u << 16;
    for (unsigned q = 0; q < NQPU; q++) {
        v3d[SRQUA] = bus + UNIFS + 32 * q;
        v3d[SRQPC] = bus + CODE;
    }
    unsigned polls = 0;
    while (((v3d[SRQCS] >> 16) & 0xff) != NQPU && polls < 1000000)
        polls++;
    CHECK_EQ(polls, 0); /* the programs ran inside the SRQPC writes */
    CHECK_EQ(v3d[SRQCS], (unsigned)NQPU << 16 | (unsigned)NQPU << 8);
    int bad = 0;
    for (int k = 0; k < N; k++) {
        float want = a * x[k];
        want = want + y[k];
        if (memcmp(&want, &out[k], 4) != 0)
            bad++;
    }
    CHECK_EQ(bad, 0);
    CHECK_EQ(out[0] == 750.0f, 1);
    /* every program raised its host interrupt: QPU 0's waits for the other
     * 11, which ran one after another on QPU 1 (each SRQPC write ran its
     * program to its end), so bits 0 and 1 are pending; then cleared */
    CHECK_EQ(v3d[DBQITC], 0x3);
    v3d[DBQITC] = 0xFFF;
    CHECK_EQ(v3d[DBQITC], 0);
    CHECK_EQ(v3d[L2CACTL], 0); /* bit 2 (clear) leaves the cache disabled */
    /* write 1 to clear the counts */
    v3d[SRQCS] = 1u << 8 | 1u << 16;
    CHECK_EQ(v3d[SRQCS], 0);
}

/* ---- registers: read-only, addressing modes, two mappings ---- */
static void test_registers(void)
{
    CHECK_EQ(v3d[IDENT0], 0x02443356u);
    v3d[IDENT0] = 0; /* read-only: ignored */
    CHECK_EQ(v3d[IDENT0], 0x02443356u);
    v3d[SCRATCH] = 0xdeadbeefu;
    CHECK_EQ(v3d[SCRATCH], 0xdeadbeefu);
    CHECK_EQ(load_base_index(v3d, SCRATCH), 0xdeadbeefu);
    CHECK_EQ(load_r9_zero_extends(v3d), 0xdeadbeefu);
    v3d[SCRATCH] = 0x80000001u;
    CHECK_EQ(load_movsxd(v3d), 0xffffffff80000001ull); /* sign-extended */
    /* the folded ALU forms */
    v3d[SCRATCH] = 5;
    CHECK_EQ(cmp_flags(v3d, 5), 1);         /* ZF */
    CHECK_EQ(cmp_flags(v3d, 6), 2 | 4);     /* 5 - 6: CF, SF */
    v3d[SCRATCH] = 0x80000000u;
    CHECK_EQ(cmp_flags(v3d, 1), 8);         /* 0x80000000 - 1: OF */
    v3d[SCRATCH] = 0x100;
    or_imm(v3d);
    CHECK_EQ(v3d[SCRATCH], 0x104);
    add_reg_mem(v3d, 0x1000);
    CHECK_EQ(v3d[SCRATCH], 0x1104);
    CHECK_EQ(sub_into_reg(v3d, 0x2000), 0x2000 - 0x1104);
    CHECK_EQ(v3d[SCRATCH], 0x1104); /* a source only */
    CHECK_EQ(test_zero(v3d), 1);    /* SRQCS: an empty queue */
    store_imm(v3d);
    CHECK_EQ(v3d[SCRATCH], 0x5a5aa5a5u);
    store_r13(v3d + SCRATCH, 0x01234567u);
    CHECK_EQ(v3d[SCRATCH], 0x01234567u);
    /* a second mapping, of the V3D page alone, at the Pi 2 address */
    volatile unsigned *again = mapmem(0x3FC00000u, 4096);
    CHECK(again != NULL);
    if (again) {
        CHECK_EQ(again[SCRATCH], 0x01234567u);
        again[SCRATCH] = 7;
        CHECK_EQ(v3d[SCRATCH], 7);
        CHECK_EQ(unmapmem((void *)again, 4096) == NULL, 1);
    }
    /* a range past the window */
    CHECK(mapmem(0x20FFF000u, 8192) == NULL);
}

/* ---- a queue overflow through the window ---- */
static void test_overflow(void)
{
    memcpy(arm + END, end_code, sizeof end_code);
    v3d[SQRSV0] = 0x11111111u; /* every QPU reserved: requests wait */
    v3d[SQRSV1] = 0x1111u;
    v3d[SRQCS] = 1u << 7 | 1u << 8 | 1u << 16;
    v3d[SRQUA] = bus + SMALLU;
    for (int i = 0; i < 17; i++)
        v3d[SRQPC] = bus + END;
    /* 16 queued, the 17th dropped with the error bit */
    CHECK_EQ(v3d[SRQCS], 1u << 7 | 16u << 8 | 16u);
    v3d[SQRSV0] = 0;
    v3d[SQRSV1] = 0;
    CHECK_EQ(v3d[SRQCS], 1u << 7 | 16u << 16 | 16u << 8);
    v3d[SRQCS] = 1u << 7 | 1u << 8 | 1u << 16;
    CHECK_EQ(v3d[SRQCS], 0);
}

/* ---- the mailbox path: 8 QPUs, the master alone interrupts ---- */
static void test_master_irq(void)
{
    memcpy(arm + MASTER, master_code, sizeof master_code);
    memcpy(arm + WORKER, worker_code, sizeof worker_code);
    unsigned *u = (unsigned *)(arm + SMALLU), *ctrl = (unsigned *)(arm + CTRL);
    for (unsigned q = 0; q < 8; q++) {
        u[q] = q == 0; /* IRQ enable, master only */
        ctrl[2 * q] = bus + SMALLU + 4 * q;
        ctrl[2 * q + 1] = bus + (q ? WORKER : MASTER);
    }
    v3d[DBQITC] = ~0u;
    CHECK_EQ(execute_qpu(mb, 8, bus + CTRL, 1, 1000), 0);
    CHECK_EQ(v3d[DBQITC], 1); /* QPU 0's bit alone */
    CHECK_EQ((v3d[SRQCS] >> 16) & 0xff, 8);
}

/* ---- another thread polls while this one runs the mailbox ---- */
static void *poller(void *arg)
{
    (void)arg;
    long bad = 0;
    for (int i = 0; i < 2000; i++)
        bad += v3d[IDENT0] != 0x02443356u;
    return (void *)bad;
}

static void test_threads(void)
{
    pthread_t t;
    CHECK_EQ(pthread_create(&t, NULL, poller, NULL), 0);
    for (int i = 0; i < 20; i++)
        CHECK_EQ(execute_qpu(mb, 8, bus + CTRL, 1, 1000), 0);
    void *r = NULL;
    pthread_join(t, &r);
    CHECK_EQ((long)r, 0);
}

/* ---- the program's own handler still gets its own faults ---- */
static sigjmp_buf jb;
static volatile int own_hits;
static void own_handler(int sig, siginfo_t *si, void *uc)
{
    (void)sig, (void)si, (void)uc;
    own_hits++;
    siglongjmp(jb, 1);
}

static void test_own_fault(volatile unsigned *guard)
{
    if (sigsetjmp(jb, 1) == 0) {
        (void)guard[0];
        CHECK(0);
    }
    CHECK_EQ(own_hits, 1);
    /* and the window still works after it */
    CHECK_EQ(v3d[IDENT0], 0x02443356u);
}

/* ---- bad accesses: a child each, one line and exit status 1 ---- */
typedef void (*bad_fn)(void);
static void bad_16(void) { __asm__ volatile("movw $1, (%0)" : : "r"(v3d + SCRATCH) : "memory"); }
static void bad_8(void) { (void)*(volatile unsigned char *)(v3d + IDENT0); }
static void bad_test8(void)
{
    __asm__ volatile("testb $63, 0x43c(%0)" : : "r"(v3d) : "memory", "cc");
}
static void bad_64(void) { (void)*(volatile uint64_t *)(v3d + IDENT0); }
static void bad_unaligned(void)
{
    __asm__ volatile("movl $1, (%0)" : : "r"((volatile char *)v3d + 2) : "memory");
}
static void bad_gpio(void) { (void)peri[0x200000 / 4]; }
/* a signal handler of the program's own that reads the window while its
 * thread is inside execute_qpu (which holds the library's lock): refused
 * with one line, not a deadlock. SIGALRM every 2 ms; execute_qpu runs an
 * endless program for up to 1 s of QPU time, so the first tick lands
 * inside it. */
#if !defined(__SANITIZE_THREAD__)
/* loop: brr -, loop; three nops (never ends) */
static const unsigned loop_code[] = {0xffffffe0, 0xf0f809e7, 0x009e7000, 0x100009e7,
                                     0x009e7000, 0x100009e7, 0x009e7000, 0x100009e7};

static void on_alarm(int sig)
{
    (void)sig;
    (void)v3d[IDENT0];
}

static void bad_reentry(void)
{
    memcpy(arm + BLOCK, loop_code, sizeof loop_code);
    unsigned *ctrl = (unsigned *)(arm + CTRL);
    ctrl[0] = bus + SMALLU;
    ctrl[1] = bus + BLOCK;
    signal(SIGALRM, on_alarm);
    struct itimerval it = {{0, 2000}, {0, 2000}};
    setitimer(ITIMER_REAL, &it, NULL);
    for (int i = 0; i < 50; i++)
        execute_qpu(mb, 1, bus + CTRL, 1, 1000);
}
#endif

static void bad_unmapped(void)
{
    unmapmem((void *)peri, 0x01000000);
    (void)v3d[IDENT0];
}

static void expect_child(bad_fn fn, const char *needle)
{
    int p[2];
    if (pipe(p) != 0) {
        failed++;
        return;
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        dup2(p[1], 2);
        close(p[0]);
        fn();
        fprintf(stderr, "no failure\n");
        _exit(0);
    }
    close(p[1]);
    char buf[1024] = {0};
    size_t n = 0;
    ssize_t k;
    while (n < sizeof buf - 1 && (k = read(p[0], buf + n, sizeof buf - 1 - n)) > 0)
        n += (size_t)k;
    close(p[0]);
    int st = 0;
    waitpid(pid, &st, 0);
    if (getenv("VCIO_WINDOW_SHOW")) /* the lines, for a person reading them */
        fputs(buf, stdout);
    int lines = 0;
    for (size_t i = 0; i < n; i++)
        lines += buf[i] == '\n';
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 1 || lines != 1 || !strstr(buf, needle)) {
        fprintf(stderr, "child for '%s': status 0x%x, stderr: %s\n", needle, st, buf);
        failed++;
    }
}

int main(void)
{
    /* the program's own SIGSEGV handler, installed first */
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = own_handler;
    sa.sa_flags = SA_SIGINFO;
    sigaction(SIGSEGV, &sa, NULL);
    volatile unsigned *guard = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

    mb = mbox_open();
    if (mb < 0 || qpu_enable(mb, 1) != 0)
        return 1;
    unsigned h = mem_alloc(mb, SIZE, 4096, 0x4);
    bus = h ? mem_lock(mb, h) : 0;
    arm = bus ? mapmem(bus & ~0xC0000000u, SIZE) : NULL;
    if (!arm)
        return 1;
    peri = mapmem(0x20000000u, 0x01000000u);
    if (!peri) {
        printf("vcio_window: skipped: this build has no peripheral window\n");
        return 77;
    }
    v3d = peri + 0xC00000 / 4;
    test_registers();
    test_direct_saxpy();
    test_overflow();
    test_master_irq();
    test_threads();
    test_own_fault(guard);
    expect_child(bad_16, "16-bit store at 0x20c00010 (V3D)");
    expect_child(bad_8, "'movzx eax, byte ptr [");
    expect_child(bad_64, "64-bit load at 0x20c00000 (V3D)");
    expect_child(bad_unaligned, "unaligned 32-bit store at 0x20c00002 (V3D)");
    expect_child(bad_lock, "'lock or dword ptr [");
    expect_child(bad_test8, "8-bit load at 0x20c0043c (V3D)");
#if !defined(__SANITIZE_THREAD__)
    /* ThreadSanitizer defers the SIGALRM handler until the call has
     * returned and kills the process on the SIGSEGV inside the deferred
     * handler: no test of this case there */
    expect_child(bad_reentry, "from a signal handler that interrupted a mailbox.h call");
#endif
    expect_child(bad_gpio, "load at 0x20200000 reaches GPIO, which the model does not have");
    expect_child(bad_unmapped, "through a peripheral window already unmapped");
    /* unmapmem while a QPU is stuck, then close: defined, no crash */
    memcpy(arm + BLOCK, block_code, sizeof block_code);
    v3d[SRQCS] = 1u << 8 | 1u << 16;
    v3d[SRQUA] = bus + SMALLU;
    v3d[SRQPC] = bus + BLOCK;
    CHECK_EQ(v3d[SRQCS] & 0x3f, 0);           /* it started ... */
    CHECK_EQ((v3d[SRQCS] >> 16) & 0xff, 0); /* ... and has not ended */
    CHECK(unmapmem((void *)peri, 0x01000000) == NULL);
    unmapmem(arm, SIZE);
    mem_unlock(mb, h);
    mem_free(mb, h);
    mbox_close(mb);
    /* the last mbox_close gave the handler back: ours again */
    struct sigaction cur;
    sigaction(SIGSEGV, NULL, &cur);
    CHECK((cur.sa_flags & SA_SIGINFO) && cur.sa_sigaction == own_handler);
    printf("vcio_window: %s\n", failed ? "FAILED" : "ok");
    return failed ? 1 : 0;
}
