/* libcmdgpu-drm: the render node behind the descriptors preload.c hands
 * out. What Linux's DRM core does for every driver is done here: the ioctl
 * number and size rules of drm_ioctl (drivers/gpu/drm/drm_ioctl.c: the
 * argument is copied in for _IOC_WRITE, zero-extended to the kernel's
 * struct, copied back for _IOC_READ; an unknown number is EINVAL; a copy
 * from memory the program does not have is EFAULT), the core ioctls a
 * render node answers (VERSION, GET_CAP, GEM_CLOSE), and the rest is the
 * family's kernel interface (cmdgpu/family.h cg_kernel_ops): its ioctl
 * table, its objects, its mmaps.
 *
 * One cmdgpu device per process, made when the node is first opened; each
 * open of the node is a client of the driver with its own objects, as each
 * struct drm_file is. Every call on the node holds one lock: programs call
 * from any thread. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/uio.h>
#include <unistd.h>
#include "cmdgpu/capfile.h"
#include "drm.h"

/* drm.h (Linux uapi): the core ioctls a render node answers, by number. */
enum {
    NR_VERSION = 0x00,
    NR_GEM_CLOSE = 0x09,
    NR_GET_CAP = 0x0c,
    NR_SET_CLIENT_CAP = 0x0d,
    NR_PRIME_HANDLE_TO_FD = 0x2d,
    NR_PRIME_FD_TO_HANDLE = 0x2e,
    NR_COMMAND_BASE = 0x40, /* DRM_COMMAND_BASE: the driver's ioctls */
    NR_COMMAND_END = 0xa0,
};
enum { CAP_PRIME = 0x5, CAP_TIMESTAMP_MONOTONIC = 0x6, CAP_SYNCOBJ = 0x13 };
#define DRM_IOCTL_TYPE 'd'

static struct {
    pthread_mutex_t lock;
    bool ready;
    int err;                   /* why there is no node (a negative errno) */
    const cg_family_desc *fam;
    const cg_gpu_id *gpu;
    cg_device *dev;
    FILE *log;
    FILE *ioctls;              /* CMDGPU_DRM_IOCTLS: one line per ioctl, or NULL */
    FILE *draws;               /* CMDGPU_DRM_DRAWS: {"draws":[...]}, closed at exit */
    bool exit_on_fault;        /* CMDGPU_DRM_EXIT_ON_FAULT: end the program at a GPU fault */
    char *capture;             /* CMDGPU_DRM_CAPTURE: the session's capture file, or NULL */
    cg_capfile_writer *writer; /* its writer (env.capture while it records) */
    cg_user_io user;
    cg_kernel_env env;
    unsigned notes;            /* one-line notes written (capped) */
} node = {.lock = PTHREAD_MUTEX_INITIALIZER};

struct drm_file {
    _Atomic int refs;
    void *client; /* the family's */
};

/* ---- the program's memory ------------------------------------------------- */

/* copy_from_user / copy_to_user: the pointers in an ioctl's argument are
 * the program's and may be garbage; the kernel's copies fail with EFAULT
 * there, and so do these (process_vm_readv on this process: it reads what
 * the process has mapped, and fails cleanly where it has nothing). */
static int user_read(void *dst, uint64_t uaddr, size_t n)
{
    if (!n)
        return 0;
    struct iovec local = {dst, n}, remote = {(void *)(uintptr_t)uaddr, n};
    ssize_t r = process_vm_readv(getpid(), &local, 1, &remote, 1, 0);
    return r == (ssize_t)n ? 0 : -EFAULT;
}

static int user_write(uint64_t uaddr, const void *src, size_t n)
{
    if (!n)
        return 0;
    struct iovec local = {(void *)src, n}, remote = {(void *)(uintptr_t)uaddr, n};
    ssize_t r = process_vm_writev(getpid(), &local, 1, &remote, 1, 0);
    return r == (ssize_t)n ? 0 : -EFAULT;
}

/* ---- the device ------------------------------------------------------------- */

int drm_node_choose(const char *name, const cg_family_desc **fam, const cg_gpu_id **gpu)
{
    for (size_t f = 0; f < cg_family_count(); f++) {
        const cg_family_desc *d = cg_family_at(f);
        const cg_kernel_ops *k = d->kernel;
        for (size_t i = 0; k && i < k->ngpus; i++)
            if (!name || !name[0] || strcmp(name, k->gpus[i].name) == 0) {
                *fam = d;
                *gpu = &k->gpus[i];
                return 0;
            }
    }
    return -ENODEV;
}

static void note(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;
static void note(const char *fmt, ...)
{
    if (node.notes++ >= 64) /* a program looping on one error says it once */
        return;
    va_list ap;
    va_start(ap, fmt);
    fputs("libcmdgpu-drm: ", node.log);
    vfprintf(node.log, fmt, ap);
    fputc('\n', node.log);
    fflush(node.log);
    va_end(ap);
}

/* The end of the draws document, at exit. */
static void draws_close(void)
{
    pthread_mutex_lock(&node.lock);
    if (node.draws) {
        fputs("\n]}\n", node.draws);
        fflush(node.draws);
        if (node.draws != stdout)
            fclose(node.draws);
        node.draws = NULL;
        node.env.draws = NULL;
    }
    pthread_mutex_unlock(&node.lock);
}

/* The session's capture, written at exit (or at --exit-on-fault's end):
 * the end record holds the run's results as the replay's nv scene would
 * report them: failed (1) when the GPU faulted. Under node.lock. */
static void capture_save_locked(void)
{
    cg_capfile_writer *w = node.writer;
    if (!w)
        return;
    if (!node.env.capture_lost && node.fam->kernel->record_end)
        node.fam->kernel->record_end(&node.env);
    if (!node.env.capture_lost) {
        size_t nf = cg_fault_count(node.dev);
        cg_capfile_end end = {.result = nf ? 1 : 0, .faults = (uint32_t)nf,
                              .fault_hash = cg_capfile_fault_hash(node.dev, 0)};
        cg_capfile_write_end(w, &end);
        int rc = cg_capfile_writer_save(w, node.capture);
        if (rc)
            fprintf(node.log, "libcmdgpu-drm: --capture: cannot write %s: %s\n", node.capture,
                    cg_strerror(rc));
    } else {
        unlink(node.capture); /* lost (the log says why): no half a session */
    }
    cg_capfile_writer_destroy(w);
    node.writer = NULL;
    node.env.capture = NULL;
    free(node.capture);
    node.capture = NULL;
}

static void capture_save(void)
{
    pthread_mutex_lock(&node.lock);
    capture_save_locked();
    pthread_mutex_unlock(&node.lock);
}

/* A child of fork records nothing: the parent's session is the parent's. */
static void capture_child(void)
{
    cg_capfile_writer_destroy(node.writer);
    node.writer = NULL;
    node.env.capture = NULL;
    free(node.capture);
    node.capture = NULL;
}

/* CMDGPU_DRM_CAPTURE: record the session (the family's kernel interface
 * writes it, family.h cg_kernel_env.capture). */
static void capture_start(const char *path)
{
    cg_capfile_writer *w = NULL;
    FILE *f = fopen(path, "wb");
    if (!f || fclose(f) != 0 || cg_capfile_writer_create(node.fam->id, &w) != 0 ||
        !(node.capture = strdup(path))) {
        fprintf(node.log, "libcmdgpu-drm: --capture: cannot write %s: %s\n", path,
                f ? "out of memory" : strerror(errno));
        cg_capfile_writer_destroy(w);
        return;
    }
    char exe[256] = "";
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    exe[n > 0 ? n : 0] = 0;
    const char *base = strrchr(exe, '/');
    cg_capfile_write_name(w, base ? base + 1 : exe);
    cg_capfile_write_config(w, CG_CAPCFG_COHERENCY, (uint64_t)cg_device_coherency(node.dev));
    for (int b = 0; b < CG_BUDGET_COUNT; b++)
        if (cg_device_budget(node.dev, (cg_budget)b) != cg_budget_default((cg_budget)b))
            cg_capfile_write_config(w, CG_CAPCFG_BUDGET + (uint32_t)b,
                                    cg_device_budget(node.dev, (cg_budget)b));
    node.env.capture = node.writer = w;
    atexit(capture_save);
    pthread_atfork(NULL, NULL, capture_child);
}

/* Make the device on first use (under node.lock). */
static int node_ready(void)
{
    if (node.ready)
        return node.err;
    node.ready = true;
    node.log = stderr;
    const char *logp = getenv("CMDGPU_DRM_LOG");
    if (logp && logp[0]) {
        FILE *f = fopen(logp, "a");
        if (f)
            node.log = f;
    }
    const char *trace = getenv("CMDGPU_DRM_IOCTLS");
    if (trace && trace[0] && !(node.ioctls = fopen(trace, "a")))
        fprintf(node.log, "libcmdgpu-drm: cannot write %s: %s\n", trace, strerror(errno));
    const char *draws = getenv("CMDGPU_DRM_DRAWS");
    if (draws && draws[0]) {
        node.draws = strcmp(draws, "-") == 0 ? stdout : fopen(draws, "w");
        if (!node.draws) {
            fprintf(node.log, "libcmdgpu-drm: cannot write %s: %s\n", draws, strerror(errno));
        } else {
            fputs("{\"draws\":[", node.draws);
            atexit(draws_close);
        }
    }
    const char *eof = getenv("CMDGPU_DRM_EXIT_ON_FAULT");
    node.exit_on_fault = eof && eof[0] && strcmp(eof, "0") != 0;
    const char *name = getenv("CMDGPU_DRM_GPU");
    if (drm_node_choose(name, &node.fam, &node.gpu) != 0) {
        fprintf(node.log, "libcmdgpu-drm: no GPU '%s' (cmdgpu exec --gpu lists them)\n",
                name ? name : "");
        return node.err = -ENODEV;
    }
    if (cg_device_create(&node.dev) != 0)
        return node.err = -ENOMEM;
    node.user = (cg_user_io){user_read, user_write};
    node.env = (cg_kernel_env){.log = node.log, .user = &node.user, .draws = node.draws};
    const char *thr = getenv("CMDGPU_DRM_THREADED");
    node.env.threaded = thr && thr[0] && strcmp(thr, "0") != 0;
    /* the first process of the run that opens the node records; programs
     * it starts do not (they would write the same file) */
    const char *cap = getenv("CMDGPU_DRM_CAPTURE");
    if (cap && cap[0]) {
        capture_start(cap);
        unsetenv("CMDGPU_DRM_CAPTURE");
        if (node.env.threaded && node.writer) {
            fprintf(node.log, "libcmdgpu-drm: --threaded with --capture: the session is "
                    "recorded, so the GPU runs synchronously\n");
            node.env.threaded = false;
        }
    }
    return node.err = 0;
}

int drm_file_open(drm_file **out)
{
    pthread_mutex_lock(&node.lock);
    int rc = node_ready();
    drm_file *f = NULL;
    if (rc == 0 && !(f = calloc(1, sizeof *f)))
        rc = -ENOMEM;
    if (rc == 0) {
        f->refs = 1;
        rc = node.fam->kernel->open(node.gpu, node.dev, &node.env, &f->client);
        if (rc) {
            free(f);
            f = NULL;
        }
    }
    pthread_mutex_unlock(&node.lock);
    *out = f;
    return rc;
}

void drm_file_ref(drm_file *f)
{
    if (f)
        atomic_fetch_add(&f->refs, 1);
}

void drm_file_unref(drm_file *f)
{
    if (!f || atomic_fetch_sub(&f->refs, 1) != 1)
        return;
    pthread_mutex_lock(&node.lock);
    node.fam->kernel->close(f->client);
    pthread_mutex_unlock(&node.lock);
    free(f);
}

/* ---- the core ioctls ---------------------------------------------------------- */

/* struct drm_version (drm.h): three ints, then three (size_t len, char *)
 * pairs; the kernel copies as much of each string as fits and returns each
 * full length. */
typedef struct drm_version_arg {
    int major, minor, patch;
    size_t name_len;
    uint64_t name;
    size_t date_len;
    uint64_t date;
    size_t desc_len;
    uint64_t desc;
} drm_version_arg;

static int copy_str(uint64_t dst, size_t *len, const char *s)
{
    size_t n = strlen(s);
    int rc = *len && dst ? user_write(dst, s, n < *len ? n : *len) : 0;
    *len = n;
    return rc;
}

static int ioctl_version(void *arg)
{
    drm_version_arg *v = arg;
    const cg_kernel_ops *k = node.fam->kernel;
    v->major = k->version[0];
    v->minor = k->version[1];
    v->patch = k->version[2];
    int rc = copy_str(v->name, &v->name_len, k->driver);
    if (!rc)
        rc = copy_str(v->date, &v->date_len, k->date);
    if (!rc)
        rc = copy_str(v->desc, &v->desc_len, k->desc);
    return rc;
}

/* struct drm_get_cap: u64 capability, u64 value. */
static int ioctl_get_cap(void *arg)
{
    uint64_t *c = arg;
    switch (c[0]) {
    case CAP_PRIME:
        c[1] = 0; /* PRIME buffer sharing: not supported yet (docs/drm.md) */
        return 0;
    case CAP_TIMESTAMP_MONOTONIC:
        c[1] = 1;
        return 0;
    case CAP_SYNCOBJ:
        c[1] = 0;
        return 0;
    default:
        return -EINVAL;
    }
}

typedef struct core_ioctl {
    unsigned nr;
    const char *name;
    size_t size;
} core_ioctl;

static const core_ioctl core_ioctls[] = {
    {NR_VERSION, "VERSION", sizeof(drm_version_arg)},
    {NR_GEM_CLOSE, "GEM_CLOSE", 8},
    {NR_GET_CAP, "GET_CAP", 16},
    {NR_SET_CLIENT_CAP, "SET_CLIENT_CAP", 16},
    {NR_PRIME_HANDLE_TO_FD, "PRIME_HANDLE_TO_FD", 12},
    {NR_PRIME_FD_TO_HANDLE, "PRIME_FD_TO_HANDLE", 12},
};

static int core_call(drm_file *f, unsigned nr, void *arg)
{
    switch (nr) {
    case NR_VERSION: return ioctl_version(arg);
    case NR_GET_CAP: return ioctl_get_cap(arg);
    case NR_GEM_CLOSE: return node.fam->kernel->gem_close(f->client, *(uint32_t *)arg);
    case NR_SET_CLIENT_CAP:
        return -EINVAL; /* a render node takes none of the client caps */
    default:
        note("DRM_IOCTL_%s: not supported yet: EOPNOTSUPP",
             nr == NR_PRIME_HANDLE_TO_FD ? "PRIME_HANDLE_TO_FD" : "PRIME_FD_TO_HANDLE");
        return -EOPNOTSUPP;
    }
}

/* ---- dispatch -------------------------------------------------------------------- */

int drm_file_ioctl(drm_file *f, unsigned long req, void *uarg)
{
    unsigned nr = (unsigned)_IOC_NR(req), dir = (unsigned)_IOC_DIR(req);
    size_t usize = (size_t)_IOC_SIZE(req);
    const cg_kernel_ops *k = node.fam->kernel;
    const cg_kernel_ioctl *drv = NULL;
    const core_ioctl *core = NULL;
    size_t size = 0;
    if (_IOC_TYPE(req) != DRM_IOCTL_TYPE) {
        note("ioctl 0x%lx is not a DRM ioctl: ENOTTY", req);
        return -ENOTTY;
    }
    if (nr >= NR_COMMAND_BASE && nr < NR_COMMAND_END) {
        for (size_t i = 0; i < k->nioctls && !drv; i++)
            if (k->ioctls[i].nr == nr - NR_COMMAND_BASE)
                drv = &k->ioctls[i];
        size = drv ? drv->size : 0;
    } else {
        for (size_t i = 0; i < sizeof core_ioctls / sizeof core_ioctls[0] && !core; i++)
            if (core_ioctls[i].nr == nr)
                core = &core_ioctls[i];
        size = core ? core->size : 0;
    }
    if (!drv && !core) {
        note("ioctl 0x%lx (nr 0x%x): no such %s ioctl: EINVAL", req, nr, k->driver);
        return -EINVAL;
    }
    /* drm_ioctl: the kernel's struct, the program's bytes copied in (only
     * for _IOC_WRITE), the rest zero */
    size_t ksize = size > usize ? size : usize;
    if (ksize > 4096)
        return -EINVAL;
    uint8_t karg[4096];
    memset(karg, 0, ksize);
    if ((dir & _IOC_WRITE) && user_read(karg, (uint64_t)(uintptr_t)uarg, usize) != 0)
        return -EFAULT;
    pthread_mutex_lock(&node.lock);
    int rc = drv ? drv->handler(f->client, karg) : core_call(f, nr, karg);
    if (node.ioctls) {
        fprintf(node.ioctls, "%s%s %s\n", drv ? "" : "DRM_", drv ? drv->name : core->name,
                rc < 0 ? strerrorname_np(-rc) : "0");
        fflush(node.ioctls);
    }
    if (node.exit_on_fault && node.env.faults) {
        /* the fault and its hang report are in the log; a test run ends here
         * instead of waiting on fences the dead channel never signals */
        fprintf(node.log, "libcmdgpu-drm: exiting (status %d) at the GPU fault\n",
                DRM_EXIT_FAULT);
        capture_save_locked();
        fflush(NULL);
        _exit(DRM_EXIT_FAULT);
    }
    pthread_mutex_unlock(&node.lock);
    /* drm_ioctl copies the struct back whatever the handler returned */
    if ((dir & _IOC_READ) && user_write((uint64_t)(uintptr_t)uarg, karg, usize) != 0)
        return -EFAULT;
    return rc;
}

int drm_file_mmap(drm_file *f, uint64_t off, uint64_t len, int *fd, uint64_t *fd_off)
{
    pthread_mutex_lock(&node.lock);
    int rc = node.fam->kernel->mmap(f->client, off, len, fd, fd_off);
    pthread_mutex_unlock(&node.lock);
    return rc;
}
