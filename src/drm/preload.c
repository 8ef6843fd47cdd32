/* libcmdgpu-drm: a GPU's Linux DRM render node in user space, for any
 * program, through LD_PRELOAD (docs/drm.md; `cmdgpu exec` sets it up).
 *
 * What libdrm and Mesa's loader look at (../docs/drm.md lists it with its
 * sources): the directory /dev/dri and its render node, the node's stat
 * (a character device 226:128), and the sysfs entries under
 * /sys/dev/char/226:128 (the device's PCI ids, its uevent, its subsystem
 * link). This file gives them a private tree: a directory made at start-up
 * that holds those names as real files and links, with the family's GPU's
 * ids (cmdgpu/family.h cg_gpu_id), and every path under /dev/dri or
 * /sys/dev/char/226:* is looked up there instead. So readdir, realpath and
 * fscanf of the files work as the real ones do, and the host's own GPU
 * nodes are hidden: results do not depend on the machine.
 *
 * Opening the node gives a real descriptor (of /dev/null) that this file
 * tracks; its ioctls, mmaps, dups and closes go to the node (node.c), the
 * kernel interface of the chosen family. Everything else goes to libc
 * untouched. */
#define _GNU_SOURCE
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/types.h>
#include <unistd.h>
#include "drm.h"

/* ---- the real functions ------------------------------------------------ */

static struct {
    int (*open)(const char *, int, ...);
    int (*openat)(int, const char *, int, ...);
    FILE *(*fopen)(const char *, const char *);
    int (*stat)(const char *, struct stat *);
    int (*lstat)(const char *, struct stat *);
    int (*fstat)(int, struct stat *);
    int (*fstatat)(int, const char *, struct stat *, int);
    int (*statx)(int, const char *, int, unsigned, struct statx *);
    int (*access)(const char *, int);
    int (*faccessat)(int, const char *, int, int);
    DIR *(*opendir)(const char *);
    ssize_t (*readlink)(const char *, char *, size_t);
    char *(*realpath)(const char *, char *);
    int (*ioctl)(int, unsigned long, ...);
    void *(*mmap)(void *, size_t, int, int, int, off_t);
    int (*close)(int);
    int (*dup)(int);
    int (*dup2)(int, int);
    int (*dup3)(int, int, int);
    int (*fcntl)(int, int, ...);
} real;

static pthread_once_t once = PTHREAD_ONCE_INIT;

static void *next(const char *name)
{
    void *p = dlsym(RTLD_NEXT, name);
    if (!p) {
        fprintf(stderr, "libcmdgpu-drm: libc has no %s\n", name);
        abort();
    }
    return p;
}

static void tree_init(void);

static void init(void)
{
    real.open = next("open");
    real.openat = next("openat");
    real.fopen = next("fopen");
    real.stat = next("stat");
    real.lstat = next("lstat");
    real.fstat = next("fstat");
    real.fstatat = next("fstatat");
    real.statx = next("statx");
    real.access = next("access");
    real.faccessat = next("faccessat");
    real.opendir = next("opendir");
    real.readlink = next("readlink");
    real.realpath = next("realpath");
    real.ioctl = next("ioctl");
    real.mmap = next("mmap");
    real.close = next("close");
    real.dup = next("dup");
    real.dup2 = next("dup2");
    real.dup3 = next("dup3");
    real.fcntl = next("fcntl");
    tree_init();
}

#define INIT() pthread_once(&once, init)

/* ---- the private tree ---------------------------------------------------- */

#define NODE_MAJOR 226
#define NODE_MINOR 128
#define NODE_PATH "/dev/dri/renderD128"

static char root[PATH_MAX]; /* the tree's directory, "" when it could not be made */

/* Paths the tree stands in for. */
static bool redirected(const char *path)
{
    if (!path || !root[0])
        return false;
    if (strncmp(path, "/dev/dri", 8) == 0 && (path[8] == 0 || path[8] == '/'))
        return true;
    if (strncmp(path, "/sys/class/drm", 14) == 0 && (path[14] == 0 || path[14] == '/'))
        return true;
    return strncmp(path, "/sys/dev/char/226:", 18) == 0;
}

/* The tree's name for path (in buf), or path itself. */
static const char *map_path(const char *path, char *buf, size_t cap)
{
    if (!redirected(path))
        return path;
    if ((size_t)snprintf(buf, cap, "%s%s", root, path) >= cap)
        return path;
    return buf;
}

static bool is_node_path(const char *path)
{
    return path && strcmp(path, NODE_PATH) == 0 && root[0];
}

/* The path fmt names, in a PATH_MAX buffer; -1 (ENAMETOOLONG) when it does not fit. */
static int pathf(char out[PATH_MAX], const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(out, PATH_MAX, fmt, ap);
    va_end(ap);
    if (n < 0 || n >= PATH_MAX) {
        errno = ENAMETOOLONG;
        return -1;
    }
    return 0;
}

static int put_file(const char *dir, const char *name, const char *fmt, ...)
{
    char p[PATH_MAX];
    if (pathf(p, "%s/%s", dir, name))
        return -1;
    FILE *f = real.fopen(p, "w");
    if (!f)
        return -1;
    va_list ap;
    va_start(ap, fmt);
    vfprintf(f, fmt, ap);
    va_end(ap);
    return fclose(f);
}

static int mkdirs(const char *path)
{
    char p[PATH_MAX];
    if (pathf(p, "%s", path))
        return -1;
    for (char *s = p + 1; *s; s++)
        if (*s == '/') {
            *s = 0;
            if (mkdir(p, 0755) != 0 && errno != EEXIST)
                return -1;
            *s = '/';
        }
    return mkdir(p, 0755) != 0 && errno != EEXIST ? -1 : 0;
}

static int node_uevent(const char *dir)
{
    return put_file(dir, "uevent", "MAJOR=%d\nMINOR=%d\nDEVNAME=dri/renderD128\n", NODE_MAJOR,
                    NODE_MINOR);
}

static int pci_files(const char *dev, const cg_gpu_id *gpu, const char *driver, const char *slot)
{
    if (put_file(dev, "vendor", "0x%04x\n", gpu->pci_vendor) ||
        put_file(dev, "device", "0x%04x\n", gpu->pci_device) ||
        put_file(dev, "subsystem_vendor", "0x%04x\n", gpu->subsystem_vendor) ||
        put_file(dev, "subsystem_device", "0x%04x\n", gpu->subsystem_device) ||
        put_file(dev, "revision", "0x%02x\n", gpu->revision))
        return -1;
    return put_file(dev, "uevent", "DRIVER=%s\nPCI_CLASS=30000\nPCI_ID=%04X:%04X\n"
                    "PCI_SUBSYS_ID=%04X:%04X\nPCI_SLOT_NAME=%s\n", driver, gpu->pci_vendor,
                    gpu->pci_device, gpu->subsystem_vendor, gpu->subsystem_device, slot);
}

/* Build the tree for gpu under root: the node's name, and the sysfs device
 * with the ids libdrm reads (xf86drm.c drmParseSubsystemType,
 * drmParsePciBusInfo, parse_separate_sysfs_files). */
static int tree_build(const cg_gpu_id *gpu, const char *driver)
{
    static const char slot[] = "0000:00:02.0";
    char dev[PATH_MAX], node[PATH_MAX], p[PATH_MAX], q[PATH_MAX];
    if (pathf(dev, "%s/sys/devices/pci0000:00/%s", root, slot) ||
        pathf(node, "%s/drm/renderD128", dev) || pathf(p, "%s/dev/dri", root))
        return -1;
    if (mkdirs(p) || put_file(p, "renderD128", "") || mkdirs(node) ||
        put_file(node, "dev", "%d:%d\n", NODE_MAJOR, NODE_MINOR) || node_uevent(node) ||
        pci_files(dev, gpu, driver, slot))
        return -1;
    if (pathf(p, "%s/sys/bus/pci", root) || pathf(q, "%s/subsystem", dev) || mkdirs(p) ||
        symlink(p, q))
        return -1;
    if (pathf(p, "%s/sys/dev/char/%d:%d", root, NODE_MAJOR, NODE_MINOR) || mkdirs(p) ||
        node_uevent(p) || pathf(q, "%s/device", p) || symlink(dev, q))
        return -1;
    if (pathf(p, "%s/sys/class/drm", root) || pathf(q, "%s/renderD128", p) || mkdirs(p))
        return -1;
    return symlink(node, q);
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    return remove(path) != 0 ? -1 : 0;
}

/* Remove the tree (it holds only what tree_build made; links are not followed). */
static void rm_tree(const char *path)
{
    if (nftw(path, rm_one, 16, FTW_DEPTH | FTW_PHYS) != 0)
        fprintf(stderr, "libcmdgpu-drm: could not remove %s: %s\n", path, strerror(errno));
}

static pid_t root_pid; /* the process that made the tree: its children share it */

static void tree_fini(void)
{
    if (root[0] && getpid() == root_pid)
        rm_tree(root);
}

static void tree_init(void)
{
    const cg_family_desc *fam = NULL;
    const cg_gpu_id *gpu = NULL;
    if (drm_node_choose(getenv("CMDGPU_DRM_GPU"), &fam, &gpu) != 0)
        return; /* the node says why when it is opened */
    const char *tmp = getenv("TMPDIR");
    if (pathf(root, "%s/cmdgpu-drm-XXXXXX", tmp && tmp[0] ? tmp : "/tmp") || !mkdtemp(root)) {
        fprintf(stderr, "libcmdgpu-drm: cannot make a directory %s: %s\n", root, strerror(errno));
        root[0] = 0;
        return;
    }
    if (tree_build(gpu, fam->kernel->driver) != 0) {
        fprintf(stderr, "libcmdgpu-drm: cannot make the device tree under %s: %s\n", root,
                strerror(errno));
        rm_tree(root);
        root[0] = 0;
        return;
    }
    root_pid = getpid();
    atexit(tree_fini);
}

/* ---- descriptors of the node ------------------------------------------------ */

/* Which descriptors are the node (a dup shares the file it dups). */
enum { MAX_FDS = 1 << 16 };
static drm_file *fds[MAX_FDS];
static pthread_mutex_t fd_lock = PTHREAD_MUTEX_INITIALIZER;

static drm_file *file_of(int fd)
{
    if (fd < 0 || fd >= MAX_FDS)
        return NULL;
    return __atomic_load_n(&fds[fd], __ATOMIC_ACQUIRE);
}

static void track(int fd, drm_file *f)
{
    if (fd < 0)
        return;
    if (fd >= MAX_FDS) { /* cannot be tracked: a descriptor nobody can use as the node */
        real.close(fd);
        return;
    }
    pthread_mutex_lock(&fd_lock);
    drm_file *old = fds[fd];
    if (f)
        drm_file_ref(f);
    __atomic_store_n(&fds[fd], f, __ATOMIC_RELEASE);
    pthread_mutex_unlock(&fd_lock);
    drm_file_unref(old);
}

/* Open the node: a real descriptor stands for it (/dev/null, so reads and
 * writes do what they would to a render node: nothing useful). */
static int node_open(int flags)
{
    drm_file *f = NULL;
    int err = drm_file_open(&f);
    if (err) {
        errno = -err;
        return -1;
    }
    int fd = real.open("/dev/null", (flags & (O_CLOEXEC | O_NONBLOCK)) | O_RDWR);
    if (fd < 0) {
        drm_file_unref(f);
        return -1;
    }
    track(fd, f);
    drm_file_unref(f);
    return fd;
}

/* ---- the interposed functions ------------------------------------------------ */

/* libc declares their path arguments nonnull, but a program may still pass
 * NULL and libc answers EFAULT; so must these. The build keeps the checks
 * (-fno-delete-null-pointer-checks on this file) and this quiets GCC's note
 * that they compare a nonnull argument. */
#pragma GCC diagnostic ignored "-Wnonnull-compare"

#define EXPORT __attribute__((visibility("default")))

static mode_t mode_arg(int flags, va_list ap)
{
    return (flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE ? (mode_t)va_arg(ap, int) : 0;
}

EXPORT int open(const char *path, int flags, ...)
{
    INIT();
    va_list ap;
    va_start(ap, flags);
    mode_t mode = mode_arg(flags, ap);
    va_end(ap);
    if (is_node_path(path))
        return node_open(flags);
    char buf[PATH_MAX];
    return real.open(map_path(path, buf, sizeof buf), flags, mode);
}

EXPORT int open64(const char *path, int flags, ...)
{
    va_list ap;
    va_start(ap, flags);
    int mode = (int)mode_arg(flags, ap);
    va_end(ap);
    return open(path, flags, mode);
}
EXPORT int __open_2(const char *path, int flags) { return open(path, flags); }
EXPORT int __open64_2(const char *path, int flags) { return open(path, flags); }

EXPORT int openat(int dirfd, const char *path, int flags, ...)
{
    INIT();
    va_list ap;
    va_start(ap, flags);
    mode_t mode = mode_arg(flags, ap);
    va_end(ap);
    if (path && path[0] == '/') {
        if (is_node_path(path))
            return node_open(flags);
        char buf[PATH_MAX];
        return real.openat(dirfd, map_path(path, buf, sizeof buf), flags, mode);
    }
    return real.openat(dirfd, path, flags, mode);
}

EXPORT int openat64(int dirfd, const char *path, int flags, ...)
{
    va_list ap;
    va_start(ap, flags);
    int mode = (int)mode_arg(flags, ap);
    va_end(ap);
    return openat(dirfd, path, flags, mode);
}
EXPORT int __openat_2(int dirfd, const char *path, int flags) { return openat(dirfd, path, flags); }
EXPORT int __openat64_2(int dirfd, const char *path, int flags)
{
    return openat(dirfd, path, flags);
}

EXPORT FILE *fopen(const char *path, const char *mode)
{
    INIT();
    char buf[PATH_MAX];
    return real.fopen(map_path(path, buf, sizeof buf), mode);
}

EXPORT FILE *fopen64(const char *path, const char *mode) { return fopen(path, mode); }

static void node_stat(struct stat *st)
{
    memset(st, 0, sizeof *st);
    st->st_mode = S_IFCHR | 0666;
    st->st_rdev = makedev(NODE_MAJOR, NODE_MINOR);
    st->st_dev = makedev(0, 5);
    st->st_ino = 1000 + NODE_MINOR;
    st->st_nlink = 1;
    st->st_blksize = 4096;
}

EXPORT int stat(const char *path, struct stat *st)
{
    INIT();
    if (is_node_path(path)) {
        node_stat(st);
        return 0;
    }
    char buf[PATH_MAX];
    return real.stat(map_path(path, buf, sizeof buf), st);
}

/* x86-64 and the other LP64 ABIs: struct stat64 is struct stat */
_Static_assert(sizeof(struct stat64) == sizeof(struct stat), "an LP64 ABI");
EXPORT int stat64(const char *path, struct stat64 *st) { return stat(path, (struct stat *)st); }

EXPORT int lstat(const char *path, struct stat *st)
{
    INIT();
    if (is_node_path(path)) {
        node_stat(st);
        return 0;
    }
    char buf[PATH_MAX];
    return real.lstat(map_path(path, buf, sizeof buf), st);
}

EXPORT int lstat64(const char *path, struct stat64 *st) { return lstat(path, (struct stat *)st); }

EXPORT int fstat(int fd, struct stat *st)
{
    INIT();
    if (file_of(fd)) {
        node_stat(st);
        return 0;
    }
    return real.fstat(fd, st);
}

EXPORT int fstat64(int fd, struct stat64 *st) { return fstat(fd, (struct stat *)st); }

EXPORT int fstatat(int dirfd, const char *path, struct stat *st, int flags)
{
    INIT();
    if (path && !path[0] && (flags & AT_EMPTY_PATH) && file_of(dirfd)) {
        node_stat(st);
        return 0;
    }
    if (path && path[0] == '/') {
        if (is_node_path(path)) {
            node_stat(st);
            return 0;
        }
        char buf[PATH_MAX];
        return real.fstatat(dirfd, map_path(path, buf, sizeof buf), st, flags);
    }
    return real.fstatat(dirfd, path, st, flags);
}

EXPORT int fstatat64(int dirfd, const char *path, struct stat64 *st, int flags)
{
    return fstatat(dirfd, path, (struct stat *)st, flags);
}

/* statx (coreutils' stat and ls call it directly). */
EXPORT int statx(int dirfd, const char *path, int flags, unsigned mask, struct statx *sx)
{
    INIT();
    bool node = (path && !path[0] && (flags & AT_EMPTY_PATH) && file_of(dirfd)) ||
                (path && path[0] == '/' && is_node_path(path));
    if (node) {
        memset(sx, 0, sizeof *sx);
        sx->stx_mask = STATX_BASIC_STATS;
        sx->stx_mode = S_IFCHR | 0666;
        sx->stx_nlink = 1;
        sx->stx_blksize = 4096;
        sx->stx_ino = 1000 + NODE_MINOR;
        sx->stx_rdev_major = NODE_MAJOR;
        sx->stx_rdev_minor = NODE_MINOR;
        sx->stx_dev_major = 0;
        sx->stx_dev_minor = 5;
        return 0;
    }
    char buf[PATH_MAX];
    return real.statx(dirfd, path && path[0] == '/' ? map_path(path, buf, sizeof buf) : path,
                      flags, mask, sx);
}

/* Binaries built against glibc before 2.33 call the versioned wrappers. */
EXPORT int __xstat(int ver, const char *path, struct stat *st) { (void)ver; return stat(path, st); }
EXPORT int __xstat64(int ver, const char *path, struct stat *st) { (void)ver; return stat(path, st); }
EXPORT int __lxstat(int ver, const char *path, struct stat *st) { (void)ver; return lstat(path, st); }
EXPORT int __lxstat64(int ver, const char *path, struct stat *st)
{
    (void)ver;
    return lstat(path, st);
}
EXPORT int __fxstat(int ver, int fd, struct stat *st) { (void)ver; return fstat(fd, st); }
EXPORT int __fxstat64(int ver, int fd, struct stat *st) { (void)ver; return fstat(fd, st); }
EXPORT int __fxstatat(int ver, int dirfd, const char *path, struct stat *st, int flags)
{
    (void)ver;
    return fstatat(dirfd, path, st, flags);
}
EXPORT int __fxstatat64(int ver, int dirfd, const char *path, struct stat *st, int flags)
{
    (void)ver;
    return fstatat(dirfd, path, st, flags);
}

EXPORT int access(const char *path, int mode)
{
    INIT();
    char buf[PATH_MAX];
    return real.access(map_path(path, buf, sizeof buf), mode);
}

EXPORT int faccessat(int dirfd, const char *path, int mode, int flags)
{
    INIT();
    char buf[PATH_MAX];
    return real.faccessat(dirfd, path && path[0] == '/' ? map_path(path, buf, sizeof buf) : path,
                          mode, flags);
}

EXPORT DIR *opendir(const char *path)
{
    INIT();
    char buf[PATH_MAX];
    return real.opendir(map_path(path, buf, sizeof buf));
}

EXPORT ssize_t readlink(const char *path, char *out, size_t cap)
{
    INIT();
    char buf[PATH_MAX];
    return real.readlink(map_path(path, buf, sizeof buf), out, cap);
}

EXPORT char *realpath(const char *path, char *resolved)
{
    INIT();
    char buf[PATH_MAX];
    return real.realpath(map_path(path, buf, sizeof buf), resolved);
}

EXPORT char *__realpath_chk(const char *path, char *resolved, size_t len)
{
    (void)len;
    return realpath(path, resolved);
}

EXPORT int ioctl(int fd, unsigned long req, ...)
{
    INIT();
    va_list ap;
    va_start(ap, req);
    void *arg = va_arg(ap, void *);
    va_end(ap);
    drm_file *f = file_of(fd);
    if (!f)
        return real.ioctl(fd, req, arg);
    int rc = drm_file_ioctl(f, req, arg);
    if (rc < 0) {
        errno = -rc;
        return -1;
    }
    return rc;
}

EXPORT void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
    INIT();
    drm_file *f = file_of(fd);
    if (!f)
        return real.mmap(addr, len, prot, flags, fd, off);
    int bfd;
    uint64_t boff;
    int rc = drm_file_mmap(f, (uint64_t)off, len, &bfd, &boff);
    if (rc < 0) {
        errno = -rc;
        return MAP_FAILED;
    }
    return real.mmap(addr, len, prot, flags, bfd, (off_t)boff);
}

EXPORT void *mmap64(void *addr, size_t len, int prot, int flags, int fd, off64_t off)
{
    return mmap(addr, len, prot, flags, fd, (off_t)off);
}

EXPORT int close(int fd)
{
    INIT();
    if (file_of(fd))
        track(fd, NULL);
    return real.close(fd);
}

EXPORT int dup(int fd)
{
    INIT();
    drm_file *f = file_of(fd);
    int nfd = real.dup(fd);
    if (f && nfd >= 0)
        track(nfd, f);
    return nfd;
}

EXPORT int dup2(int fd, int nfd)
{
    INIT();
    drm_file *f = file_of(fd);
    if (fd == nfd)
        return real.dup2(fd, nfd);
    int rc = real.dup2(fd, nfd);
    if (rc >= 0)
        track(rc, f);
    return rc;
}

EXPORT int dup3(int fd, int nfd, int flags)
{
    INIT();
    drm_file *f = file_of(fd);
    int rc = real.dup3(fd, nfd, flags);
    if (rc >= 0)
        track(rc, f);
    return rc;
}

EXPORT int fcntl(int fd, int cmd, ...)
{
    INIT();
    va_list ap;
    va_start(ap, cmd);
    long arg = va_arg(ap, long);
    va_end(ap);
    int rc = real.fcntl(fd, cmd, arg);
    drm_file *f = file_of(fd);
    if (f && rc >= 0 && (cmd == F_DUPFD || cmd == F_DUPFD_CLOEXEC))
        track(rc, f);
    return rc;
}

EXPORT int fcntl64(int fd, int cmd, ...)
{
    va_list ap;
    va_start(ap, cmd);
    long arg = va_arg(ap, long);
    va_end(ap);
    return fcntl(fd, cmd, arg);
}
