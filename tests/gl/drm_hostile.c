/* A hostile program on the render node libcmdgpu-drm presents (run under
 * `cmdgpu exec` by tests/gl/drm_hostile.sh): raw ioctls with garbage, as a
 * program that does not use libdrm might send them, from several threads at
 * once and across a fork. Every call must get the errno Linux's nouveau
 * would return, and the process must never crash. Prints one line per check
 * that fails and exits 1 if any did. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include "nv/driver/nouveau_abi.h" /* the ABI's structs and numbers */

#define GETPARAM NOUVEAU_IOWR(NR_GETPARAM, k_getparam)
#define CHANNEL_ALLOC NOUVEAU_IOWR(NR_CHANNEL_ALLOC, k_channel_alloc)
#define GEM_NEW NOUVEAU_IOWR(NR_GEM_NEW, k_gem_new)
#define GEM_PUSHBUF NOUVEAU_IOWR(NR_GEM_PUSHBUF, k_pushbuf)
#define GEM_CPU_PREP NOUVEAU_IOW(NR_GEM_CPU_PREP, k_cpu_prep)
#define GEM_INFO NOUVEAU_IOWR(NR_GEM_INFO, k_gem_info)
#define GEM_CLOSE DRM_IOCTL_GEM_CLOSE_
typedef struct { uint32_t handle, pad; } gem_close;

static int failures;

#define EXPECT(cond, ...)                                                                  \
    do {                                                                                   \
        if (!(cond)) {                                                                     \
            printf("FAIL %s:%d: ", __FILE__, __LINE__);                                    \
            printf(__VA_ARGS__);                                                           \
            printf("\n");                                                                  \
            failures++;                                                                    \
        }                                                                                  \
    } while (0)

/* the ioctl's errno, 0 on success */
static int call(int fd, unsigned long req, void *arg)
{
    return ioctl(fd, req, arg) == 0 ? 0 : errno;
}

static int node(void)
{
    int fd = open("/dev/dri/renderD128", O_RDWR | O_CLOEXEC);
    if (fd < 0) {
        printf("FAIL: cannot open the node: %s\n", strerror(errno));
        exit(1);
    }
    return fd;
}

static uint32_t new_bo(int fd, uint64_t size, uint64_t *va, uint64_t *map)
{
    k_gem_new r = {.info = {.size = size, .domain = 4}};
    EXPECT(call(fd, GEM_NEW, &r) == 0, "GEM_NEW %llu", (unsigned long long)size);
    if (va)
        *va = r.info.offset;
    if (map)
        *map = r.info.map_handle;
    return r.info.handle;
}

static void test_node(void)
{
    struct stat st;
    EXPECT(stat("/dev/dri/renderD128", &st) == 0 && S_ISCHR(st.st_mode) &&
               major(st.st_rdev) == 226 && minor(st.st_rdev) == 128,
           "the node's stat");
    EXPECT(access("/dev/dri/card0", F_OK) != 0, "a host card node is visible");
    int fd = node();
    EXPECT(fstat(fd, &st) == 0 && S_ISCHR(st.st_mode), "fstat of the node");
    int d = fcntl(fd, F_DUPFD_CLOEXEC, 10);
    k_getparam p = {.param = 11}; /* CHIPSET_ID through a dup */
    EXPECT(d >= 10 && call(d, GETPARAM, &p) == 0 && p.value == 0x12b, "a dup is the node");
    close(d);
    EXPECT(call(fd, GETPARAM, &p) == 0, "the node after its dup closed");
    close(fd);
}

static void test_garbage(void)
{
    int fd = node();
    k_getparam p = {.param = 999};
    EXPECT(call(fd, GETPARAM, &p) == EINVAL, "unknown GETPARAM");
    EXPECT(call(fd, GETPARAM, (void *)16) == EFAULT, "an unmapped argument");
    EXPECT(call(fd, NOUVEAU_IOWR(0x3f, k_getparam), &p) == EINVAL, "unknown driver ioctl");
    EXPECT(call(fd, _IOWR('x', 1, k_getparam), &p) == ENOTTY, "a non-DRM ioctl");
    k_gem_new big = {.info = {.size = 1ull << 40, .domain = 4}};
    EXPECT(call(fd, GEM_NEW, &big) == ENOMEM, "a 1 TiB buffer");
    k_gem_new zero = {.info = {.size = 0, .domain = 4}};
    EXPECT(call(fd, GEM_NEW, &zero) == EINVAL, "an empty buffer");
    k_gem_new odd = {.info = {.size = 4096, .domain = 4}, .align = 0x3000};
    EXPECT(call(fd, GEM_NEW, &odd) == 0 && odd.info.offset % 0x4000 == 0,
           "an alignment that is not a power of two: the next one");
    k_gem_info i = {.handle = 77};
    EXPECT(call(fd, GEM_INFO, &i) == ENOENT, "GEM_INFO of no buffer");
    gem_close c = {.handle = 77};
    EXPECT(call(fd, GEM_CLOSE, &c) == EINVAL, "GEM_CLOSE of no buffer");
    k_cpu_prep cp = {.handle = 77};
    EXPECT(call(fd, GEM_CPU_PREP, &cp) == ENOENT, "CPU_PREP of no buffer");
    EXPECT(mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0x7700000000ll) == MAP_FAILED &&
               errno == EINVAL,
           "mmap of no buffer");

    k_channel_alloc ca = {.fb_ctxdma_handle = ~0u, .tt_ctxdma_handle = 1};
    EXPECT(call(fd, CHANNEL_ALLOC, &ca) == 0, "CHANNEL_ALLOC (Kepler engine mask: GR)");
    uint64_t va, map;
    uint32_t h = new_bo(fd, 4096, &va, &map);
    k_pushbuf_bo bo = {.handle = h, .presumed_valid = 1};
    k_pushbuf_push push = {.bo_index = 0, .offset = 0, .length = 8};
    k_pushbuf r = {.channel = (uint32_t)ca.channel, .nr_buffers = 1,
                 .buffers = (uint64_t)(uintptr_t)&bo, .nr_push = 1,
                 .push = (uint64_t)(uintptr_t)&push};
    k_pushbuf bad = r;
    bad.channel = 99;
    EXPECT(call(fd, GEM_PUSHBUF, &bad) == ENOENT, "PUSHBUF on no channel");
    bad = r;
    bad.nr_push = 513;
    EXPECT(call(fd, GEM_PUSHBUF, &bad) == EINVAL, "513 pushes");
    bad = r;
    bad.push = 16;
    EXPECT(call(fd, GEM_PUSHBUF, &bad) == EFAULT, "pushes at an unmapped address");
    k_pushbuf_push past = {.bo_index = 1, .length = 8};
    bad = r;
    bad.push = (uint64_t)(uintptr_t)&past;
    EXPECT(call(fd, GEM_PUSHBUF, &bad) == EINVAL, "bo_index past the list");
    k_pushbuf_push beyond = {.bo_index = 0, .offset = 4092, .length = 8};
    bad.push = (uint64_t)(uintptr_t)&beyond;
    EXPECT(call(fd, GEM_PUSHBUF, &bad) == EINVAL, "a push past its buffer");
    k_pushbuf_bo nobo = {.handle = 4242, .presumed_valid = 1};
    bad = r;
    bad.buffers = (uint64_t)(uintptr_t)&nobo;
    EXPECT(call(fd, GEM_PUSHBUF, &bad) == ENOENT, "an unknown buffer in the list");

    /* a push the GPU faults on: the channel dies, later pushes get ENODEV */
    uint32_t *pb = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, (off_t)map);
    EXPECT(pb != MAP_FAILED, "mmap of a buffer");
    if (pb != MAP_FAILED) {
        pb[0] = 0x20010000; /* SET_OBJECT on subchannel 0 */
        pb[1] = 0xdead;     /* no such class */
        EXPECT(call(fd, GEM_PUSHBUF, &r) == 0, "the faulting push is accepted");
        EXPECT(call(fd, GEM_PUSHBUF, &r) == ENODEV, "a push after the fault");
        munmap(pb, 4096);
    }
    close(fd);
}

/* several threads, each with its own channel and buffers, on one node */
static void *worker(void *arg)
{
    int fd = *(int *)arg;
    k_channel_alloc ca = {0};
    if (call(fd, CHANNEL_ALLOC, &ca) != 0)
        return (void *)1;
    for (int i = 0; i < 50; i++) {
        uint64_t va, map;
        uint32_t h = new_bo(fd, 4096, &va, &map);
        uint32_t *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, (off_t)map);
        if (p == MAP_FAILED)
            return (void *)2;
        /* a 4-byte semaphore release of i at va + 64 (host SEMAPHOREA-D) */
        uint32_t w[] = {0x20040004, (uint32_t)((va + 64) >> 32), (uint32_t)(va + 64),
                        (uint32_t)i, 2u | 1u << 24};
        memcpy(p, w, sizeof w);
        k_pushbuf_bo bo = {.handle = h, .presumed_valid = 1};
        k_pushbuf_push push = {.bo_index = 0, .length = sizeof w};
        k_pushbuf r = {.channel = (uint32_t)ca.channel, .nr_buffers = 1,
                     .buffers = (uint64_t)(uintptr_t)&bo, .nr_push = 1,
                     .push = (uint64_t)(uintptr_t)&push};
        if (call(fd, GEM_PUSHBUF, &r) != 0 || p[16] != (uint32_t)i)
            return (void *)3;
        munmap(p, 4096);
        gem_close c = {.handle = h};
        if (call(fd, GEM_CLOSE, &c) != 0)
            return (void *)4;
    }
    return NULL;
}

static void test_threads(void)
{
    int fd = node();
    pthread_t t[4];
    for (int i = 0; i < 4; i++)
        pthread_create(&t[i], NULL, worker, &fd);
    for (int i = 0; i < 4; i++) {
        void *rc;
        pthread_join(t[i], &rc);
        EXPECT(rc == NULL, "thread %d: step %d failed", i, (int)(intptr_t)rc);
    }
    close(fd);
}

/* a fork: the child has its own copy of the node's state, and works */
static void test_fork(void)
{
    int fd = node();
    uint32_t h = new_bo(fd, 4096, NULL, NULL);
    pid_t pid = fork();
    if (pid == 0) {
        k_gem_info i = {.handle = h};
        int ok = call(fd, GEM_INFO, &i) == 0 && i.size == 4096;
        int fd2 = open("/dev/dri/renderD128", O_RDWR);
        k_getparam p = {.param = 11};
        ok = ok && fd2 >= 0 && call(fd2, GETPARAM, &p) == 0;
        _exit(ok ? 0 : 1);
    }
    int st = 0;
    waitpid(pid, &st, 0);
    EXPECT(WIFEXITED(st) && WEXITSTATUS(st) == 0, "the forked child (status 0x%x)", st);
    k_gem_info i = {.handle = h};
    EXPECT(call(fd, GEM_INFO, &i) == 0, "the parent's buffer after the fork");
    close(fd);
}

int main(void)
{
    test_node();
    test_garbage();
    test_threads();
    test_fork();
    if (failures)
        return 1;
    printf("drm_hostile: ok\n");
    return 0;
}
