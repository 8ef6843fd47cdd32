/* libcmdgpu-drm's node under threads, without the preload (so it runs
 * under the sanitizers, TSan included): four threads on one client and two
 * more on a second, each with its own channel, allocate buffers, map them,
 * write a semaphore release, submit it and read the value back, close the
 * buffers; a GETPARAM and a GEM_INFO of another thread's handle race with
 * them. Every value must land and every call return the kernel's answer.
 * With the argument "threaded" the GPU runs on its thread
 * (CMDGPU_DRM_THREADED): each thread waits with GEM_CPU_PREP before it
 * reads, as a driver must; synchronous, a NOWAIT prep is never busy. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "check.h"
#include "drm/drm.h"
#include "nv/driver/nouveau_abi.h"

enum { ROUNDS = 40 };
static bool threaded;
static _Atomic int busy_seen; /* NOWAIT preps that found the buffer busy */

typedef struct job {
    drm_file *f;
    int id;
    int failed_at; /* 0: all went well */
} job;

static void *worker(void *arg)
{
    job *j = arg;
    k_channel_alloc ca = {0};
    if (drm_file_ioctl(j->f, NOUVEAU_IOWR(NR_CHANNEL_ALLOC, k_channel_alloc), &ca) != 0) {
        j->failed_at = 1;
        return NULL;
    }
    for (int i = 0; i < ROUNDS; i++) {
        k_gem_new n = {.info = {.size = 4096, .domain = 4}};
        if (drm_file_ioctl(j->f, NOUVEAU_IOWR(NR_GEM_NEW, k_gem_new), &n) != 0) {
            j->failed_at = 2;
            return NULL;
        }
        int fd;
        uint64_t off;
        if (drm_file_mmap(j->f, n.info.map_handle, 4096, &fd, &off) != 0) {
            j->failed_at = 3;
            return NULL;
        }
        uint32_t *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, (off_t)off);
        if (p == MAP_FAILED) {
            j->failed_at = 4;
            return NULL;
        }
        uint64_t sem = n.info.offset + 256;
        uint32_t value = (uint32_t)(j->id << 16 | i);
        uint32_t w[] = {0x20040004, (uint32_t)(sem >> 32), (uint32_t)sem, value, 2u | 1u << 24};
        memcpy(p, w, sizeof w);
        k_pushbuf_bo bo = {.handle = n.info.handle, .presumed_valid = 1};
        k_pushbuf_push push = {.bo_index = 0, .length = sizeof w};
        k_pushbuf r = {.channel = (uint32_t)ca.channel, .nr_buffers = 1,
                       .buffers = (uint64_t)(uintptr_t)&bo, .nr_push = 1,
                       .push = (uint64_t)(uintptr_t)&push};
        int rc = drm_file_ioctl(j->f, NOUVEAU_IOWR(NR_GEM_PUSHBUF, k_pushbuf), &r);
        k_cpu_prep prep = {.handle = n.info.handle, .flags = CPU_PREP_NOWAIT};
        int prc = drm_file_ioctl(j->f, NOUVEAU_IOW(NR_GEM_CPU_PREP, k_cpu_prep), &prep);
        if (prc == -EBUSY)
            busy_seen++;
        if (prc != 0 && (prc != -EBUSY || !threaded)) {
            j->failed_at = 8;
            return NULL;
        }
        prep.flags = 0;
        if (drm_file_ioctl(j->f, NOUVEAU_IOW(NR_GEM_CPU_PREP, k_cpu_prep), &prep) != 0) {
            j->failed_at = 9;
            return NULL;
        }
        uint32_t got = p[64];
        munmap(p, 4096);
        if (rc != 0 || got != value) {
            j->failed_at = 100 + i;
            return NULL;
        }
        k_getparam gp = {.param = 11};
        if (drm_file_ioctl(j->f, NOUVEAU_IOWR(NR_GETPARAM, k_getparam), &gp) != 0 ||
            gp.value != 0x12b) {
            j->failed_at = 5;
            return NULL;
        }
        /* another thread's buffers come and go: any answer but a crash */
        k_gem_info gi = {.handle = (uint32_t)(i % 7) + 1};
        int irc = drm_file_ioctl(j->f, NOUVEAU_IOWR(NR_GEM_INFO, k_gem_info), &gi);
        if (irc != 0 && irc != -ENOENT) {
            j->failed_at = 6;
            return NULL;
        }
        uint32_t c[2] = {n.info.handle, 0};
        if (drm_file_ioctl(j->f, DRM_IOCTL_GEM_CLOSE_, c) != 0) {
            j->failed_at = 7;
            return NULL;
        }
    }
    return NULL;
}

int main(int argc, char **argv)
{
    threaded = argc > 1 && strcmp(argv[1], "threaded") == 0;
    setenv("CMDGPU_DRM_LOG", "/dev/null", 1);
    if (threaded)
        setenv("CMDGPU_DRM_THREADED", "1", 1);
    drm_file *a = NULL, *b = NULL;
    CHECK_EQ(drm_file_open(&a), 0);
    CHECK_EQ(drm_file_open(&b), 0);
    if (!a || !b)
        return check_report("test_drm_threads");
    job jobs[6];
    pthread_t t[6];
    for (int i = 0; i < 6; i++) {
        jobs[i] = (job){.f = i < 4 ? a : b, .id = i + 1};
        CHECK_EQ(pthread_create(&t[i], NULL, worker, &jobs[i]), 0);
    }
    for (int i = 0; i < 6; i++) {
        pthread_join(t[i], NULL);
        CHECK_EQ(jobs[i].failed_at, 0);
    }
    drm_file_unref(a);
    drm_file_unref(b);
    if (threaded)
        printf("threaded: %d of %d NOWAIT preps found the buffer busy\n", (int)busy_seen,
               6 * ROUNDS);
    return check_report("test_drm_threads");
}
