/* libcmdgpu-vcio: the peripheral window that mapmem gives for the
 * peripheral base (0x20000000 on a Pi 1, 0x3F000000 on a Pi 2/3), as the
 * Pi's /dev/mem mapping, with the V3D block's registers reaching the model.
 *
 * How: the window is host address space reserved PROT_NONE, so every load
 * or store in it faults. A SIGSEGV handler (SA_SIGINFO) takes faults whose
 * address lies in a live window; any other fault goes to the handler that
 * was installed before (kept, and restored by the last mbox_close when
 * ours is still the one installed). The handler decodes the faulting
 * instruction with capstone (x86-64), accepts a 32-bit `mov` load into a
 * general register (or `movsxd` into a 64-bit one), a 32-bit `mov` store
 * of a register or an immediate, and the ALU forms compilers fold a
 * volatile access into (cmp, test, or, and, xor, add, sub with a register
 * or immediate: the flags and a destination are computed here),
 * with any addressing mode (the address itself comes from si_addr), has
 * the window's service thread do that one access on the model through
 * vcio_window_access (vcio.c: the library's lock, then
 * cg_vc4_mmio_read/write, which is v3d.c's register interface), writes a
 * load's value into the destination register of the
 * interrupted context (zero-extended, as the CPU does) and moves RIP past
 * the instruction. Everything else -- another width, another instruction,
 * an unaligned address, another peripheral block, a window already
 * unmapped -- prints one line naming it and ends the process with
 * _exit(1): the Pi would raise a bus error or touch hardware the model
 * does not have.
 *
 * Async-signal safety: the fault is synchronous, raised by the program's
 * own mov, never inside this library, malloc or stdio. The handler itself
 * only decodes and hands the access to the service thread (below), which
 * takes the library's mutex; the faulting thread does not hold it (vcio.c
 * explains why; the one exception is refused). capstone's handle and instruction buffer are allocated
 * when the first window is made (and its lazily built tables by a first
 * decode there), so the decode in the handler allocates nothing. The
 * instruction bytes are read up to the end of RIP's page first, and across
 * it only when that decode fails (then the instruction spans both pages,
 * so the CPU has fetched from both).
 *
 * Without capstone at build time (or on a host other than x86-64) mapmem
 * of the window fails with one line and NULL. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdarg.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>
#include "vcio_internal.h"

#if defined(CMDGPU_HAVE_CAPSTONE) && defined(__x86_64__) && defined(__linux__)
#define WINDOW_TRAP 1
#include <capstone/capstone.h>
#endif

#define MAX_WINDOWS 16
#define V3D_OFF 0x00C00000u

#ifdef WINDOW_TRAP
/* The BCM2835/2836/2837 peripheral blocks a program might touch (BCM2835
 * ARM Peripherals; Linux arch/arm/boot/dts/bcm283x.dtsi), offsets from the
 * peripheral base, so a refused access names what it reached. */
static const struct {
    uint32_t off, size;
    const char *name;
} blocks[] = {
    {0x003000, 0x1000, "the system timer"},
    {0x004000, 0x1000, "the TXP (transposer)"},
    {0x007000, 0x1000, "the DMA controller"},
    {0x00B000, 0x1000, "the ARM interrupt controller, ARM timer and mailbox"},
    {0x100000, 0x1000, "the power manager and watchdog"},
    {0x101000, 0x1000, "the clock manager"},
    {0x104000, 0x1000, "the random number generator"},
    {0x200000, 0x1000, "GPIO"},
    {0x201000, 0x1000, "UART0 (PL011)"},
    {0x202000, 0x1000, "the SD host"},
    {0x203000, 0x1000, "PCM"},
    {0x204000, 0x1000, "SPI0"},
    {0x205000, 0x1000, "I2C BSC0"},
    {0x206000, 0x1000, "pixel valve 0"},
    {0x207000, 0x1000, "pixel valve 1"},
    {0x20C000, 0x1000, "PWM"},
    {0x215000, 0x1000, "AUX (mini UART, SPI1, SPI2)"},
    {0x300000, 0x1000, "EMMC"},
    {0x400000, 0x6000, "the HVS"},
    {0x804000, 0x1000, "I2C BSC1"},
    {0x805000, 0x1000, "I2C BSC2"},
    {0x807000, 0x1000, "pixel valve 2"},
    {0x808000, 0x1000, "HDMI"},
    {0x902000, 0x1000, "HDMI"},
    {0x980000, 0x10000, "USB (DWC OTG)"},
    {0xC00000, 0x1000, "V3D"},
};

static const char *block_name(uint32_t off)
{
    for (size_t i = 0; i < sizeof blocks / sizeof blocks[0]; i++)
        if (off >= blocks[i].off && off - blocks[i].off < blocks[i].size)
            return blocks[i].name;
    return "a peripheral block the model does not know";
}
#endif

typedef struct window {
    uint8_t *host;     /* page-aligned reservation */
    size_t len;        /* bytes reserved */
    uint32_t phys;     /* physical address of host[0] (page-aligned) */
    uint32_t pbase;    /* the peripheral base it lies in */
    volatile int live; /* 0 once unmapmem'd (the range stays reserved) */
} window;

static window W[MAX_WINDOWS];
static volatile int nwin;

#ifdef WINDOW_TRAP

static csh cs;
static cs_insn *insn;
static int cs_ready;
static struct sigaction old_segv;
static int installed;

/* One line on stderr from the handler (write(2): async-signal-safe). */
static void say(const char *line)
{
    size_t n = strlen(line);
    while (n) {
        ssize_t k = write(2, line, n);
        if (k <= 0 && errno != EINTR)
            break;
        if (k > 0)
            line += k, n -= (size_t)k;
    }
}

static void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void fail(const char *fmt, ...)
{
    char line[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof line - 1, fmt, ap);
    va_end(ap);
    if (n < 0)
        n = 0;
    if ((size_t)n > sizeof line - 2)
        n = (int)sizeof line - 2;
    line[n] = '\n';
    line[n + 1] = 0;
    say(line);
    _exit(1);
}

/* capstone's 32-bit register -> the mcontext slot of its 64-bit register */
static int greg_of(x86_reg r)
{
    switch (r) {
    case X86_REG_EAX: return REG_RAX;
    case X86_REG_ECX: return REG_RCX;
    case X86_REG_EDX: return REG_RDX;
    case X86_REG_EBX: return REG_RBX;
    case X86_REG_ESP: return REG_RSP;
    case X86_REG_EBP: return REG_RBP;
    case X86_REG_ESI: return REG_RSI;
    case X86_REG_EDI: return REG_RDI;
    case X86_REG_R8D: return REG_R8;
    case X86_REG_R9D: return REG_R9;
    case X86_REG_R10D: return REG_R10;
    case X86_REG_R11D: return REG_R11;
    case X86_REG_R12D: return REG_R12;
    case X86_REG_R13D: return REG_R13;
    case X86_REG_R14D: return REG_R14;
    case X86_REG_R15D: return REG_R15;
    default: return -1;
    }
}

/* capstone's 64-bit register -> its mcontext slot (movsxd's destination) */
static int greg_of64(x86_reg r)
{
    switch (r) {
    case X86_REG_RAX: return REG_RAX;
    case X86_REG_RCX: return REG_RCX;
    case X86_REG_RDX: return REG_RDX;
    case X86_REG_RBX: return REG_RBX;
    case X86_REG_RSP: return REG_RSP;
    case X86_REG_RBP: return REG_RBP;
    case X86_REG_RSI: return REG_RSI;
    case X86_REG_RDI: return REG_RDI;
    case X86_REG_R8: return REG_R8;
    case X86_REG_R9: return REG_R9;
    case X86_REG_R10: return REG_R10;
    case X86_REG_R11: return REG_R11;
    case X86_REG_R12: return REG_R12;
    case X86_REG_R13: return REG_R13;
    case X86_REG_R14: return REG_R14;
    case X86_REG_R15: return REG_R15;
    default: return -1;
    }
}

static window *window_of(uintptr_t a, int *live)
{
    for (int i = 0; i < nwin; i++)
        if (a >= (uintptr_t)W[i].host && a - (uintptr_t)W[i].host < W[i].len) {
            *live = W[i].live;
            return &W[i];
        }
    return NULL;
}

/* Not ours: the previous handler as it asked to be called; the default
 * action by restoring it and returning (the access faults again). */
static void chain(int sig, siginfo_t *si, void *uc)
{
    if (old_segv.sa_flags & SA_SIGINFO) {
        if (old_segv.sa_sigaction)
            old_segv.sa_sigaction(sig, si, uc);
        return;
    }
    if (old_segv.sa_handler != SIG_DFL && old_segv.sa_handler != SIG_IGN) {
        old_segv.sa_handler(sig);
        return;
    }
    signal(sig, SIG_DFL);
}

/* Decode the instruction at rip: 1 and *ins set, or 0. */
static int decode(uintptr_t rip)
{
    uintptr_t page_end = (rip | 4095u) + 1;
    size_t first = page_end - rip < 15 ? page_end - rip : 15;
    for (int pass = 0; pass < 2; pass++) {
        const uint8_t *code = (const uint8_t *)rip;
        size_t size = pass ? 15 : first;
        uint64_t addr = rip;
        if (cs_disasm_iter(cs, &code, &size, &addr, insn))
            return 1;
        if (first == 15)
            break;
    }
    return 0;
}

/* The window's service thread: every access through a window runs the
 * model here, in an ordinary thread with its own stack, never inside the
 * signal handler. The handler is installed SA_ONSTACK, so that a stack
 * overflow elsewhere still reaches the handler before it on an alternate
 * stack (AddressSanitizer's, or the program's); but an SRQPC write runs
 * whole QPU programs, far more stack than such a stack has: run in the
 * handler under ASan, the model overflowed ASan's alternate stack and
 * silently corrupted its allocator's state. The faulting thread posts its one
 * request and waits for the answer (sem_post: async-signal-safe). One
 * request at a time (svc_lock); the thread lives as long as the process.
 * After a fork the child has no such thread: there the access runs in the
 * handler itself. */
static pthread_mutex_t svc_lock = PTHREAD_MUTEX_INITIALIZER;
static sem_t svc_go, svc_done;
static pid_t svc_pid;
static struct {
    uint32_t off, val;
    bool write;
    const char *why;
    int rc;
} svc;

static void *svc_main(void *arg)
{
    (void)arg;
    for (;;) {
        while (sem_wait(&svc_go) != 0)
            ;
        svc.why = "";
        svc.rc = vcio_window_access(svc.off, svc.write, &svc.val, &svc.why);
        sem_post(&svc_done);
    }
    return NULL;
}

static int svc_start(void)
{
    if (svc_pid == getpid())
        return 0;
    if (sem_init(&svc_go, 0, 0) != 0 || sem_init(&svc_done, 0, 0) != 0)
        return -1;
    /* the thread takes no asynchronous signals of the program's */
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    pthread_attr_t at;
    pthread_attr_init(&at);
    pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
    pthread_t t;
    int rc = pthread_create(&t, &at, svc_main, NULL);
    pthread_attr_destroy(&at);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (rc != 0)
        return -1;
    svc_pid = getpid();
    return 0;
}

/* One access from the handler: 0, or -1 and why. */
static int access_model(uint32_t off, bool write, uint32_t *val, const char **why)
{
    if (vcio_in_call()) {
        /* this thread holds the library's lock: a signal handler of the
         * program's own interrupted a mailbox.h call in it */
        *why = "a V3D register access from a signal handler that interrupted a mailbox.h "
               "call in the same thread";
        return -1;
    }
    if (svc_pid != getpid()) /* a forked child: no service thread */
        return vcio_window_access(off, write, val, why);
    pthread_mutex_lock(&svc_lock);
    svc.off = off, svc.write = write, svc.val = *val;
    sem_post(&svc_go);
    while (sem_wait(&svc_done) != 0)
        ;
    *val = svc.val;
    *why = svc.why;
    int rc = svc.rc;
    pthread_mutex_unlock(&svc_lock);
    return rc;
}

/* The ALU instructions with a 32-bit window operand a compiler folds a
 * volatile access into (clang: `testl $63, 0x43c(%rax)`, `orl $4,
 * 0x20(%rax)`): cmp and test read it; or, and, xor, add, sub read it and,
 * when it is the destination, write the result back (two register
 * accesses, as the ARM's load and store would be). 0: not one of them. */
static int alu_kind(unsigned id)
{
    switch (id) {
    case X86_INS_CMP: return 'c';
    case X86_INS_TEST: return 't';
    case X86_INS_OR: return '|';
    case X86_INS_AND: return '&';
    case X86_INS_XOR: return '^';
    case X86_INS_ADD: return '+';
    case X86_INS_SUB: return '-';
    default: return 0;
    }
}

/* a op b and the status flags the CPU sets (CF PF AF ZF SF OF) */
static uint32_t alu_do(int k, uint32_t a, uint32_t b, uint64_t *efl)
{
    uint32_t r, cf = 0, of = 0, af = 0;
    switch (k) {
    case '+':
        r = a + b, cf = r < a, of = (~(a ^ b) & (a ^ r)) >> 31, af = ((a ^ b ^ r) >> 4) & 1;
        break;
    case '-':
    case 'c':
        r = a - b, cf = a < b, of = ((a ^ b) & (a ^ r)) >> 31, af = ((a ^ b ^ r) >> 4) & 1;
        break;
    case '|': r = a | b; break;
    case '^': r = a ^ b; break;
    default: r = a & b; break; /* '&', 't' */
    }
    uint32_t pf = !(__builtin_popcount(r & 0xff) & 1);
    uint64_t f = cf | pf << 2 | af << 4 | (uint32_t)(r == 0) << 6 | (r >> 31) << 7 | of << 11;
    *efl = (*efl & ~(uint64_t)0x8D5) | f;
    return r;
}

/* What the trapped instruction does to the window (decoded by capstone):
 * a 32-bit load or store, the register or immediate, a movsxd's sign
 * extension, or an ALU form (alu: its kind, alu_mem: which operand is the
 * window's). load stays -1 for anything else. */
typedef struct win_access {
    int load, reg, has_imm, sext, alu, alu_mem;
    uint32_t imm;
    unsigned width;
} win_access;

static win_access classify(const cs_x86 *x)
{
    int load = -1; /* 1 load, 0 store */
    int reg = -1;
    uint32_t imm = 0;
    int has_imm = 0;
    unsigned width = 0;
    int sext = 0; /* movsxd: a 32-bit load sign-extended into a 64-bit register */
    int alu = 0;
    int alu_mem = -1; /* which operand is the window's */
    if (insn->id == X86_INS_MOVSXD && x->op_count == 2 && x->operands[0].type == X86_OP_REG &&
        x->operands[1].type == X86_OP_MEM) {
        load = 1, width = x->operands[1].size, reg = greg_of64(x->operands[0].reg), sext = 1;
    } else if ((insn->id == X86_INS_MOV || insn->id == X86_INS_MOVABS) && x->op_count == 2) {
        const cs_x86_op *d = &x->operands[0], *s = &x->operands[1];
        if (d->type == X86_OP_REG && s->type == X86_OP_MEM) {
            load = 1, width = s->size, reg = greg_of(d->reg);
        } else if (d->type == X86_OP_MEM && s->type == X86_OP_REG) {
            load = 0, width = d->size, reg = greg_of(s->reg);
        } else if (d->type == X86_OP_MEM && s->type == X86_OP_IMM) {
            load = 0, width = d->size, has_imm = 1, imm = (uint32_t)s->imm;
        }
    }
    alu = x->op_count == 2 && !x->prefix[0] ? alu_kind(insn->id) : 0;
    if (alu) {
        for (int i = 0; i < 2; i++)
            if (x->operands[i].type == X86_OP_MEM)
                alu_mem = i;
        const cs_x86_op *o = &x->operands[1 - (alu_mem >= 0 ? alu_mem : 0)];
        if (alu_mem >= 0 && x->operands[alu_mem].size == 4 &&
            (o->type == X86_OP_IMM || (o->type == X86_OP_REG && greg_of(o->reg) >= 0))) {
            load = 1, width = 4, reg = o->type == X86_OP_REG ? greg_of(o->reg) : -1;
            has_imm = o->type == X86_OP_IMM, imm = (uint32_t)o->imm;
        } else {
            if (alu_mem >= 0 && x->operands[alu_mem].size != 4)
                load = 1, width = x->operands[alu_mem].size;
            alu = 0;
        }
    }
    return (win_access){load, reg, has_imm, sext, alu, alu_mem, imm, width};
}

static void on_segv(int sig, siginfo_t *si, void *ucv)
{
    int saved = errno;
    uintptr_t a = (uintptr_t)si->si_addr;
    int live = 0;
    window *w = window_of(a, &live);
    if (!w) {
        chain(sig, si, ucv);
        errno = saved;
        return;
    }
    ucontext_t *uc = ucv;
    uintptr_t rip = (uintptr_t)uc->uc_mcontext.gregs[REG_RIP];
    uint32_t phys = w->phys + (uint32_t)(a - (uintptr_t)w->host);
    uint32_t off = phys - w->pbase;
    if (!live)
        fail("cmdgpu-vcio: access at 0x%08x (host %p, instruction at %p) through a peripheral "
             "window already unmapped with unmapmem",
             phys, (void *)a, (void *)rip);
    if (!decode(rip))
        fail("cmdgpu-vcio: access at 0x%08x (%s) by an instruction at %p that capstone cannot "
             "decode",
             phys, block_name(off), (void *)rip);
    win_access acc = classify(&insn->detail->x86);
    int load = acc.load, reg = acc.reg, has_imm = acc.has_imm, sext = acc.sext, alu = acc.alu,
        alu_mem = acc.alu_mem;
    uint32_t imm = acc.imm;
    unsigned width = acc.width;
    if (load < 0 || width != 4 || (!has_imm && reg < 0)) {
        if (load >= 0 && width != 4)
            fail("cmdgpu-vcio: %u-bit %s at 0x%08x (%s) by '%s %s' at %p: the window takes "
                 "32-bit loads and stores only",
                 width * 8, load ? "load" : "store", phys, block_name(off), insn->mnemonic,
                 insn->op_str, (void *)rip);
        fail("cmdgpu-vcio: '%s %s' at %p accesses 0x%08x (%s): the window takes 32-bit mov "
             "loads and stores, movsxd, and cmp/test/or/and/xor/add/sub only",
             insn->mnemonic, insn->op_str, (void *)rip, phys, block_name(off));
    }
    if (phys & 3)
        fail("cmdgpu-vcio: unaligned 32-bit %s at 0x%08x (%s) by '%s %s' at %p: the Pi "
             "raises an alignment fault",
             load ? "load" : "store", phys, block_name(off), insn->mnemonic, insn->op_str,
             (void *)rip);
    /* the model has the V3D block and the mailbox registers */
    const char *name = block_name(off);
    int modelled = (off >= V3D_OFF && off < V3D_OFF + 0x1000) ||
                   (off >= 0xB880 && off < 0xB8C0);
    if (!modelled)
        fail("cmdgpu-vcio: %s at 0x%08x reaches %s, which the model does not have "
             "(instruction '%s %s' at %p)",
             load ? "load" : "store", phys, name, insn->mnemonic, insn->op_str, (void *)rip);
    const char *why = "";
    if (alu) {
        /* read the register; compute; write it back when it is the
         * destination of or/and/xor/add/sub, else the register operand */
        uint32_t m = 0;
        if (access_model(off, false, &m, &why) != 0)
            fail("cmdgpu-vcio: load at 0x%08x (%s): %s", phys, name, why);
        uint32_t other = has_imm ? imm : (uint32_t)uc->uc_mcontext.gregs[reg];
        uint32_t lhs = alu_mem == 0 ? m : other, rhs = alu_mem == 0 ? other : m;
        uint64_t efl = (uint64_t)uc->uc_mcontext.gregs[REG_EFL];
        uint32_t r = alu_do(alu, lhs, rhs, &efl);
        uc->uc_mcontext.gregs[REG_EFL] = (greg_t)efl;
        if (alu != 'c' && alu != 't') {
            if (alu_mem == 0) {
                if (access_model(off, true, &r, &why) != 0)
                    fail("cmdgpu-vcio: store at 0x%08x (%s): %s", phys, name, why);
            } else {
                uc->uc_mcontext.gregs[reg] = (greg_t)(uint64_t)r;
            }
        }
        uc->uc_mcontext.gregs[REG_RIP] = (greg_t)(rip + insn->size);
        errno = saved;
        return;
    }
    uint32_t val = has_imm ? imm : load ? 0 : (uint32_t)uc->uc_mcontext.gregs[reg];
    if (access_model(off, !load, &val, &why) != 0)
        fail("cmdgpu-vcio: %s at 0x%08x (%s): %s", load ? "load" : "store", phys, name, why);
    if (load && sext)
        uc->uc_mcontext.gregs[reg] = (greg_t)(int64_t)(int32_t)val;
    else if (load)
        uc->uc_mcontext.gregs[reg] = (greg_t)(uint64_t)val; /* 32-bit writes zero-extend */
    uc->uc_mcontext.gregs[REG_RIP] = (greg_t)(rip + insn->size);
    errno = saved;
}

static int trap_ready(void)
{
    if (!cs_ready) {
        if (cs_open(CS_ARCH_X86, CS_MODE_64, &cs) != CS_ERR_OK)
            return -1;
        cs_option(cs, CS_OPT_DETAIL, CS_OPT_ON);
        insn = cs_malloc(cs);
        if (!insn) {
            cs_close(&cs);
            return -1;
        }
        /* capstone sorts its x86 tables (calloc, qsort) at the first
         * decode: do that here, not in the handler. mov eax, [rax];
         * mov [rax], eax; mov dword [rax], 1 */
        static const uint8_t warm[] = {0x8b, 0x00, 0x89, 0x00, 0xc7, 0x00, 1, 0, 0, 0};
        const uint8_t *code = warm;
        size_t size = sizeof warm;
        uint64_t addr = 0;
        while (cs_disasm_iter(cs, &code, &size, &addr, insn))
            ;
        cs_ready = 1;
    }
    if (svc_start() != 0)
        return -1;
    if (!installed) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_sigaction = on_segv;
        sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESTART;
        sigemptyset(&sa.sa_mask);
        if (sigaction(SIGSEGV, &sa, &old_segv) != 0)
            return -1;
        installed = 1;
    }
    return 0;
}

void vcio_window_close_all(void)
{
    for (int i = 0; i < nwin; i++)
        munmap(W[i].host, W[i].len);
    nwin = 0;
    if (installed) {
        struct sigaction cur;
        /* restore only when nobody installed a handler over ours */
        if (sigaction(SIGSEGV, NULL, &cur) == 0 && (cur.sa_flags & SA_SIGINFO) &&
            cur.sa_sigaction == on_segv)
            sigaction(SIGSEGV, &old_segv, NULL);
        installed = 0;
    }
    if (cs_ready) {
        cs_free(insn, 1);
        cs_close(&cs);
        insn = NULL;
        cs_ready = 0;
    }
}

void *vcio_window_map(unsigned base, unsigned pbase, unsigned size)
{
    if (!size || (uint64_t)base + size > (uint64_t)pbase + 0x01000000u) {
        fprintf(stderr, "cmdgpu-vcio: mapmem(0x%08x, %u): not inside the 16 MiB peripheral "
                        "window at 0x%08x\n", base, size, pbase);
        return NULL;
    }
    if (nwin == MAX_WINDOWS) {
        fprintf(stderr, "cmdgpu-vcio: mapmem(0x%08x, %u): more than %d peripheral window "
                        "mappings\n", base, size, MAX_WINDOWS);
        return NULL;
    }
    if (trap_ready() != 0) {
        fprintf(stderr, "cmdgpu-vcio: mapmem(0x%08x, %u): cannot set up the peripheral "
                        "window's fault handler (capstone or sigaction failed)\n", base, size);
        return NULL;
    }
    uint32_t phys = base & ~4095u;
    size_t len = ((size_t)(base - phys) + size + 4095u) & ~(size_t)4095u;
    void *p = mmap(NULL, len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) {
        fprintf(stderr, "cmdgpu-vcio: mapmem(0x%08x, %u): cannot reserve %zu bytes of "
                        "address space\n", base, size, len);
        return NULL;
    }
    W[nwin] = (window){.host = p, .len = len, .phys = phys, .pbase = pbase, .live = 1};
    __atomic_store_n(&nwin, nwin + 1, __ATOMIC_RELEASE);
    return (uint8_t *)p + (base - phys);
}

#else /* no capstone, or not x86-64 Linux */

void vcio_window_close_all(void)
{
    nwin = 0;
}

void *vcio_window_map(unsigned base, unsigned pbase, unsigned size)
{
    (void)pbase;
    fprintf(stderr, "cmdgpu-vcio: mapmem(0x%08x, %u): the peripheral window needs capstone "
                    "(Debian libcapstone-dev) on x86-64 Linux at build time; this build has "
                    "none\n", base, size);
    return NULL;
}

#endif

int vcio_window_unmap(void *addr)
{
    uintptr_t a = (uintptr_t)addr;
    for (int i = 0; i < nwin; i++)
        if (a >= (uintptr_t)W[i].host && a - (uintptr_t)W[i].host < W[i].len) {
            /* the range stays reserved, so a later access is named, not a
             * crash; a second unmapmem is a no-op */
            W[i].live = 0;
            return 1;
        }
    return 0;
}
