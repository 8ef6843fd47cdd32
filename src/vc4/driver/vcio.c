/* libcmdgpu-vcio: the Pi userland's mailbox.h calls over one process-wide
 * cmdgpu vc4 device (include/cmdgpu/vcio.h describes the contract).
 *
 * Every call is a property-interface message through the modelled mailbox
 * (channel 8, tags from the firmware wiki "Mailbox property interface":
 * 0x1 firmware revision, 0x3000c allocate, 0x3000d lock, 0x3000e unlock,
 * 0x3000f release, 0x30011 execute QPU, 0x30012 enable QPU), as mailbox.c
 * sends them through /dev/vcio. A client of the public API only.
 *
 * Locking: one mutex (G_lock) around every call and every access through
 * the peripheral window (vcio_window.c), so threads may share the mailbox.
 * The window's fault handler runs in the thread that made the access and
 * waits while the window's service thread takes the lock and does the
 * access; the faulting thread holds the lock only inside one of these
 * calls, which never touch the window, so that wait cannot deadlock. The
 * one exception, a signal handler of the program's own that pokes the
 * window while its thread is inside a call here, is seen through the
 * thread-local `in_call` (vcio_in_call) and refused with one line. */
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cmdgpu/core.h"
#include "cmdgpu/vc4.h"
#include "cmdgpu/vc4_qpu.h"
#include "cmdgpu/vcio.h"
#include "vcio_internal.h"

#define SDRAM (256u << 20)
#define MSG_BUF (SDRAM / 2 - 4096) /* the property buffer, below the firmware heap */

typedef struct vcio_alloc {
    unsigned handle, size;
    unsigned bus;     /* 0 while unlocked */
    uint8_t *shadow;  /* host copy mapmem hands out, or NULL */
    unsigned maps;    /* mapmem calls not yet unmapped */
} vcio_alloc;

static struct {
    int refs;
    cg_device *dev;
    cg_vc4 *v;
    FILE *trace, *faults;
    int trace_id;
    int fd;
    vcio_alloc *allocs; /* grown as needed: a released slot is taken again */
    int nallocs;
} G;

static pthread_mutex_t G_lock = PTHREAD_MUTEX_INITIALIZER;
static __thread int in_call __attribute__((tls_model("initial-exec")));

static void lock(void)
{
    pthread_mutex_lock(&G_lock);
    in_call = 1;
}

static void unlock(void)
{
    in_call = 0;
    pthread_mutex_unlock(&G_lock);
}

static FILE *open_env(const char *name, FILE *dflt)
{
    const char *p = getenv(name);
    if (!p || !*p)
        return dflt;
    if (strcmp(p, "stderr") == 0)
        return stderr;
    if (strcmp(p, "stdout") == 0)
        return stdout;
    FILE *f = fopen(p, "w");
    if (!f)
        fprintf(stderr, "cmdgpu-vcio: cannot open %s=%s\n", name, p);
    return f ? f : dflt;
}

static void on_fault(void *user, const cg_fault *f)
{
    char line[512];
    (void)user;
    if (!G.faults)
        return;
    cg_fault_format(f, line, sizeof line);
    fprintf(G.faults, "cmdgpu-vcio: %s\n", line);
    fflush(G.faults);
}

static void on_trace(void *user, const cg_trace_event *ev)
{
    (void)user;
    cg_trace_write_text(G.trace, ev);
}

static vcio_alloc *find_handle(unsigned handle)
{
    for (int i = 0; i < G.nallocs; i++)
        if (G.allocs[i].handle && G.allocs[i].handle == handle)
            return &G.allocs[i];
    return NULL;
}

/* Make the GPU see what the program wrote through mapmem pointers. */
static void shadows_out(void)
{
    for (int i = 0; i < G.nallocs; i++)
        if (G.allocs[i].shadow && G.allocs[i].bus)
            cg_vc4_cpu_write(G.v, G.allocs[i].bus, G.allocs[i].shadow, G.allocs[i].size);
}

/* ... and the program see what the GPU wrote. */
static void shadows_in(void)
{
    for (int i = 0; i < G.nallocs; i++)
        if (G.allocs[i].shadow && G.allocs[i].bus)
            cg_vc4_cpu_read(G.v, G.allocs[i].bus, G.allocs[i].shadow, G.allocs[i].size);
}

/* One tag through the property interface; returns value word 0 (or ~0u
 * when the device is not open or the call fails). */
static unsigned property(int fd, unsigned tag, const unsigned *in, unsigned n)
{
    if (!G.refs || fd != G.fd) {
        fprintf(stderr, "cmdgpu-vcio: file descriptor %d is not an open mailbox\n", fd);
        return ~0u;
    }
    uint32_t buf[16] = {0};
    buf[0] = (uint32_t)sizeof buf;
    buf[2] = tag;
    buf[3] = 4 * (n > 1 ? n : 1);
    for (unsigned i = 0; i < n && i < 8; i++)
        buf[5 + i] = in[i];
    shadows_out();
    if (cg_vc4_cpu_write(G.v, MSG_BUF, buf, sizeof buf) != 0 ||
        cg_vc4_mbox_write(G.v, MSG_BUF | 8) != 0)
        return ~0u;
    uint32_t m;
    cg_vc4_mbox_read(G.v, &m);
    if (cg_vc4_cpu_read(G.v, MSG_BUF, buf, sizeof buf) != 0)
        return ~0u;
    shadows_in();
    return buf[5];
}

static int mbox_open_impl(void)
{
    if (G.refs) {
        G.refs++;
        return G.fd;
    }
    /* a real descriptor, so the number is the program's own and unique */
    int fd = open("/dev/null", O_RDWR);
    if (fd < 0) {
        fprintf(stderr, "cmdgpu-vcio: cannot open /dev/null for the mailbox descriptor\n");
        return -1;
    }
    cg_vc4_config cfg = {.sdram_size = SDRAM, .qpu_budget = 1ull << 40};
    if (cg_device_create(&G.dev) != 0) {
        close(fd);
        return -1;
    }
    if (cg_vc4_create(G.dev, &cfg, &G.v) != 0) {
        cg_device_destroy(G.dev);
        close(fd);
        return -1;
    }
    G.faults = open_env("CMDGPU_VCIO_FAULTS", stderr);
    cg_fault_set_callback(G.dev, on_fault, NULL);
    G.trace = open_env("CMDGPU_VCIO_TRACE", NULL);
    if (G.trace)
        G.trace_id = cg_trace_add(G.dev, on_trace, NULL);
    G.fd = fd;
    G.refs = 1;
    return fd;
}

static void mbox_close_impl(int file_desc)
{
    if (!G.refs || file_desc != G.fd || --G.refs)
        return;
    for (int i = 0; i < G.nallocs; i++)
        free(G.allocs[i].shadow);
    free(G.allocs);
    G.allocs = NULL, G.nallocs = 0;
    vcio_window_close_all();
    cg_vc4_destroy(G.v);
    cg_device_destroy(G.dev);
    if (G.trace && G.trace != stderr && G.trace != stdout)
        fclose(G.trace);
    if (G.faults && G.faults != stderr && G.faults != stdout)
        fclose(G.faults);
    close(G.fd);
    G.v = NULL, G.dev = NULL, G.trace = G.faults = NULL, G.fd = -1;
}

static unsigned get_version_impl(int file_desc)
{
    return property(file_desc, 0x1, NULL, 0);
}

static unsigned mem_alloc_impl(int file_desc, unsigned size, unsigned align, unsigned flags)
{
    unsigned in[3] = {size, align, flags};
    unsigned h = property(file_desc, 0x3000C, in, 3);
    if (h == ~0u || h == 0)
        return 0;
    int i = 0;
    while (i < G.nallocs && G.allocs[i].handle)
        i++;
    if (i == G.nallocs) {
        vcio_alloc *na = realloc(G.allocs, ((size_t)G.nallocs + 16) * sizeof *na);
        if (!na) {
            property(file_desc, 0x3000F, &h, 1);
            fprintf(stderr, "cmdgpu-vcio: mem_alloc: out of memory for its bookkeeping\n");
            return 0;
        }
        memset(na + G.nallocs, 0, 16 * sizeof *na);
        G.allocs = na, G.nallocs += 16;
    }
    G.allocs[i] = (vcio_alloc){.handle = h, .size = size};
    return h;
}

static unsigned mem_free_impl(int file_desc, unsigned handle)
{
    unsigned r = property(file_desc, 0x3000F, &handle, 1);
    vcio_alloc *a = find_handle(handle);
    if (a) {
        free(a->shadow);
        memset(a, 0, sizeof *a);
    }
    return r;
}

static unsigned mem_lock_impl(int file_desc, unsigned handle)
{
    unsigned bus = property(file_desc, 0x3000D, &handle, 1);
    vcio_alloc *a = find_handle(handle);
    if (bus == ~0u)
        return 0;
    if (a && bus)
        a->bus = bus;
    return bus;
}

static unsigned mem_unlock_impl(int file_desc, unsigned handle)
{
    vcio_alloc *a = find_handle(handle);
    unsigned r = property(file_desc, 0x3000E, &handle, 1);
    if (a)
        a->bus = 0;
    return r;
}

static void *mapmem_impl(unsigned base, unsigned size)
{
    unsigned phys = base & 0x3FFFFFFFu;
    if (phys >= 0x20000000u && phys < 0x21000000u)
        return vcio_window_map(phys, 0x20000000u, size);
    if (phys >= 0x3F000000u)
        return vcio_window_map(phys, 0x3F000000u, size);
    for (int i = 0; G.refs && i < G.nallocs; i++) {
        vcio_alloc *a = &G.allocs[i];
        if (!a->handle || !a->bus)
            continue;
        unsigned start = a->bus & 0x3FFFFFFFu;
        if (phys < start || (uint64_t)phys + size > (uint64_t)start + a->size)
            continue;
        if (!a->shadow) {
            a->shadow = malloc(a->size ? a->size : 1);
            if (!a->shadow)
                return NULL;
            cg_vc4_cpu_read(G.v, a->bus, a->shadow, a->size);
        }
        a->maps++;
        return a->shadow + (phys - start);
    }
    fprintf(stderr, "cmdgpu-vcio: mapmem(0x%08x, %u): not inside locked GPU memory from "
                    "mem_alloc/mem_lock\n", base, size);
    return NULL;
}

static void *unmapmem_impl(void *addr, unsigned size)
{
    (void)size;
    if (vcio_window_unmap(addr))
        return NULL;
    for (int i = 0; addr && i < G.nallocs; i++) {
        vcio_alloc *a = &G.allocs[i];
        if (a->shadow && (uint8_t *)addr >= a->shadow && (uint8_t *)addr < a->shadow + a->size) {
            if (a->maps && --a->maps == 0) {
                if (a->bus)
                    cg_vc4_cpu_write(G.v, a->bus, a->shadow, a->size);
                free(a->shadow);
                a->shadow = NULL;
            }
            return NULL;
        }
    }
    return NULL;
}

static unsigned execute_code_impl(int file_desc, unsigned code, unsigned r0, unsigned r1,
                                  unsigned r2, unsigned r3, unsigned r4, unsigned r5)
{
    (void)file_desc, (void)r0, (void)r1, (void)r2, (void)r3, (void)r4, (void)r5;
    fprintf(stderr, "cmdgpu-vcio: execute_code(0x%08x): VPU code is not modelled\n", code);
    return ~0u;
}

static unsigned execute_qpu_impl(int file_desc, unsigned num_qpus, unsigned control,
                                 unsigned noflush, unsigned timeout)
{
    unsigned in[4] = {num_qpus, control, noflush, timeout};
    return property(file_desc, 0x30011, in, 4);
}

static unsigned qpu_enable_impl(int file_desc, unsigned enable)
{
    return property(file_desc, 0x30012, &enable, 1);
}

/* ---- the public calls: each under the lock ---- */

int mbox_open(void)
{
    lock();
    int r = mbox_open_impl();
    unlock();
    return r;
}

void mbox_close(int file_desc)
{
    lock();
    mbox_close_impl(file_desc);
    unlock();
}

unsigned get_version(int file_desc)
{
    lock();
    unsigned r = get_version_impl(file_desc);
    unlock();
    return r;
}

unsigned mem_alloc(int file_desc, unsigned size, unsigned align, unsigned flags)
{
    lock();
    unsigned r = mem_alloc_impl(file_desc, size, align, flags);
    unlock();
    return r;
}

unsigned mem_free(int file_desc, unsigned handle)
{
    lock();
    unsigned r = mem_free_impl(file_desc, handle);
    unlock();
    return r;
}

unsigned mem_lock(int file_desc, unsigned handle)
{
    lock();
    unsigned r = mem_lock_impl(file_desc, handle);
    unlock();
    return r;
}

unsigned mem_unlock(int file_desc, unsigned handle)
{
    lock();
    unsigned r = mem_unlock_impl(file_desc, handle);
    unlock();
    return r;
}

void *mapmem(unsigned base, unsigned size)
{
    lock();
    void *r = mapmem_impl(base, size);
    unlock();
    return r;
}

void *unmapmem(void *addr, unsigned size)
{
    lock();
    void *r = unmapmem_impl(addr, size);
    unlock();
    return r;
}

unsigned execute_code(int file_desc, unsigned code, unsigned r0, unsigned r1, unsigned r2,
                      unsigned r3, unsigned r4, unsigned r5)
{
    lock();
    unsigned r = execute_code_impl(file_desc, code, r0, r1, r2, r3, r4, r5);
    unlock();
    return r;
}

unsigned execute_qpu(int file_desc, unsigned num_qpus, unsigned control, unsigned noflush,
                     unsigned timeout)
{
    lock();
    unsigned r = execute_qpu_impl(file_desc, num_qpus, control, noflush, timeout);
    unlock();
    return r;
}

unsigned qpu_enable(int file_desc, unsigned enable)
{
    lock();
    unsigned r = qpu_enable_impl(file_desc, enable);
    unlock();
    return r;
}

/* ---- the peripheral window's accesses (vcio_window.c's fault handler) ---- */

int vcio_in_call(void)
{
    return in_call;
}

int vcio_window_access(uint32_t off, bool write, uint32_t *val, const char **why)
{
    lock();
    int rc = -1;
    if (!G.refs) {
        *why = "no open mailbox (mbox_open first; mbox_close of the last one ends the device)";
    } else if (write) {
        /* as a mailbox call: the GPU sees what the program wrote through
         * mapmem pointers, and the program what the QPUs wrote */
        shadows_out();
        int r = cg_vc4_mmio_write(G.v, off, *val);
        shadows_in();
        rc = r == CG_ERR_NOENT ? -1 : 0;
        if (rc)
            *why = "not a register the model has";
    } else {
        int r = cg_vc4_mmio_read(G.v, off, val);
        rc = r == CG_ERR_NOENT ? -1 : 0;
        if (rc)
            *why = "not a register the model has";
    }
    unlock();
    return rc;
}
