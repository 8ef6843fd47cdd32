/* cmdgpu core: definitions shared inside the library (not installed). */
#ifndef CMDGPU_CORE_INTERNAL_H
#define CMDGPU_CORE_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>
#include "cmdgpu/core.h"

struct cg_trace_sink {
    cg_trace_fn fn;
    void *user;
};

#define CG_FAULT_CHUNK 64 /* faults per chunk of the log */

/* Host regions that back model memory pages (mem.c). */
typedef struct cg__region cg__region;
typedef struct cg__pool {
    cg__region *regions;      /* every region mapped, newest first */
    uint8_t *bump;            /* the newest region's next unused page */
    size_t bump_left;         /* its unused pages */
    void **free;              /* pages given back by destroyed objects */
    size_t nfree, free_cap;
} cg__pool;

struct cg_device {
    cg_coherency coherency;

    /* Host memory accounting for model data (cg__alloc/cg__free). */
    atomic_size_t host_bytes;
    atomic_size_t host_peak;

    /* One recursive lock guards the fault log, the trace sinks and the
     * memory model's shared state (object table, address-space list, page
     * allocation, CPU-cache lines): engines may run in their own threads
     * (a family's threaded mode, worker pools). Recursive because a fault
     * raised under the memory lock posts to the log, and a trace sink that
     * runs under the lock may read memory. See cg__lock and mem.h
     * "Threads". */
    pthread_mutex_t lock;
    /* The log lives in fixed chunks that never move, so a pointer from
     * cg_fault_get stays valid while other threads raise faults (until
     * cg_fault_clear or the device is destroyed). */
    cg_fault *fault_chunks[CG_FAULT_LOG_MAX / CG_FAULT_CHUNK];
    size_t nfaults;
    uint64_t fault_seq;
    uint64_t faults_dropped;
    cg_fault_fn fault_fn;
    void *fault_user;
    /* The capture's end-of-run hook (src/core/capfile.c): the scene runners
     * call cg__scene_end before they tear their model down. */
    void (*scene_end)(void *user, int (*peek)(void *ctx, uint64_t addr, void *dst, size_t n),
                      void *ctx);
    void *scene_end_user;
    struct cg_trace_sink sinks[CG_TRACE_MAX_SINKS];
    atomic_int nsinks; /* number of non-empty slots, read without the lock */

    /* Memory objects and address spaces (owned by mem.c / vas.c). */
    struct cg_mem **mems; /* indexed by id; NULL for free ids */
    size_t mems_cap;
    uint32_t mem_next_id;
    struct cg_vas *vas_list; /* intrusive list for teardown */
    _Atomic uint64_t cpu_write_seq; /* numbers CPU writes for coherency messages */

    uint64_t budget[CG_BUDGET_COUNT]; /* 0: the default (cg_device_budget) */

    /* The pool every object page and directory node comes from (mem.c,
     * "page backing"), under the lock. */
    cg__pool pool;
};

/* The device lock (recursive: see struct cg_device). */
static inline void cg__lock(cg_device *dev) { pthread_mutex_lock(&dev->lock); }
static inline void cg__unlock(cg_device *dev) { pthread_mutex_unlock(&dev->lock); }

/* Count n bytes (negative: release them) in the device's host memory
 * figures (host_bytes and its peak). */
void cg__host_account(cg_device *dev, long long n);
/* Zeroed allocation counted in the device's host memory figures. */
void *cg__alloc(cg_device *dev, size_t n);
void *cg__realloc(cg_device *dev, void *p, size_t old_n, size_t new_n); /* new tail zeroed */
void cg__free(cg_device *dev, void *p, size_t n);

/* Called by cg_device_destroy: free every address space, then every object. */
void cg__vas_teardown(cg_device *dev);
void cg__mem_teardown(cg_device *dev);
void cg__mem_pool_teardown(cg_device *dev); /* after cg__mem_teardown */

/* Speculative work on a helper thread (vc4's tile pool): while the calling
 * thread's capture is set, cg_fault_raise counts its faults there instead
 * of logging them (no log entry, seq, callback or trace); the caller throws
 * the work away and redoes it where faults may be posted. NULL: post. */
typedef struct cg__fault_capture {
    uint64_t count;
} cg__fault_capture;
void cg__fault_capture_set(cg__fault_capture *c);

/* snprintf into a fixed buffer and return it (for messages). */
#define CG_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* A scene runner's model is about to go: let an attached capture hash the
 * final memory through peek (reads without faults, traces or cache effects). */
void cg__scene_end(cg_device *dev, int (*peek)(void *ctx, uint64_t addr, void *dst, size_t n),
                   void *ctx);
/* peek for a GPU address space (ctx: the cg_vas): mapped bytes as memory holds them. */
int cg__vas_peek(void *vas, uint64_t va, void *dst, size_t n);

/* Scenes (src/core/scene.c): an empty scene of fam, and its sections (the
 * scene takes as). */
struct cg_scene;
struct cg_family_desc;
struct cg_asm;
struct cg_scene *cg__scene_new(const struct cg_family_desc *fam);
void cg__scene_set_sections(struct cg_scene *sc, struct cg_asm *as);
/* Add the file at path ("-": stdin) to as and assemble it: 0; CG_ERR_SYNTAX
 * with the errors written to errors (may be NULL); or a file error with
 * msg saying "cannot read 'PATH': why". */
/* The CMDGPUCAP container as a capture format (src/core/capfile_disasm.c). */
extern const struct cg_capture_desc cg_capfile_capture;
int cg__asm_load(struct cg_asm *as, const char *path, FILE *errors, char *msg, size_t cap);

#endif
