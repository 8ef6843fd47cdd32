/* nv family: the nouveau kernel interface in user space (cmdgpu/family.h
 * cg_kernel_ops; docs/drm.md), what libdrm_nouveau and Mesa's nvc0 driver
 * talk to through libcmdgpu-drm.
 *
 * It answers as Linux's nouveau does at DRM version 1.3.0, where libdrm
 * stays on the "abi16" ioctls (libdrm nouveau/nouveau.c: NVIF only from
 * 1.3.1): GETPARAM, CHANNEL_ALLOC/FREE, GROBJ_ALLOC, GPUOBJ_FREE, GEM_NEW,
 * GEM_INFO, GEM_PUSHBUF, GEM_CPU_PREP/FINI, and GEM_CLOSE through the DRM
 * core. The facts, with their sources (Linux nouveau_abi16.c,
 * nouveau_gem.c, include/uapi/drm/nouveau_drm.h), are in docs/drm.md; the
 * struct layouts below are written from that ABI.
 *
 * Buffers are memory shared, not copied: each is a memfd, mapped once here
 * and given to the model as an external memory object
 * (cg_mem_create_external), so the program's mmap of the same file and the
 * GPU see each other's bytes. A buffer's GPU address is fixed at creation
 * (nvc0 never relocates), its PTE kind is tile_flags >> 8. A channel is a
 * GPFIFO channel of the model; each push is one GPFIFO entry, and the GPU
 * runs until idle before GEM_PUSHBUF returns, so fences are signalled and
 * GEM_CPU_PREP never waits.
 *
 * Threaded (env->threaded, `cmdgpu exec --threaded`): GEM_PUSHBUF queues
 * the entries and returns; a GPU thread runs the model whenever work is
 * queued. Every buffer a push names is busy until the run that took the
 * push ends: GEM_CPU_PREP waits for that (NOWAIT: EBUSY; after 30 s:
 * EBUSY, as nouveau's dma_resv wait), GEM_CLOSE waits before it unmaps
 * (the kernel keeps a busy buffer until its fences signal). One lock, the
 * GPU's, covers the model: every entry point here takes it, the GPU thread
 * holds it while it runs. Faults the thread raised are reported at the
 * next entry, when the program can first see them.
 *
 * A session can be recorded (env->capture): every call made into the model
 * becomes an nv scene action (scene.h: BUFFER, CHANNEL, SUBMIT, RUN,
 * UNMAP, CLOSE_CHANNEL), and what the program wrote into its buffers since
 * the GPU last ran becomes data records, found by comparing each buffer
 * with a shadow copy of what the GPU left there; each buffer's final bytes
 * are checked on replay (EXPECT_HASH when it is freed). */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <time.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "cmdgpu/capfile.h"
#include "nv/driver/nouveau_abi.h"
#include "nv/scene.h"

/* ---- the state ----------------------------------------------------------------- */

/* The GPU every client shares (one per device: one per process). */
typedef struct nv_kgpu {
    cg_device *dev;
    cg_nv_gpu *gpu;
    const cg_gpu_id *id;
    cg_kernel_env *env;
    void *hang;            /* the hang recorder (the family's) */
    int clients;
    size_t faults_told;    /* fault records already written to the log */
    unsigned long ndraws;  /* draw records written (--draws) */
    uint64_t va_next;      /* the next buffer's address: unique in the process, so a
                            * recorded session replays in one address space */
    int rec_channel;       /* the channel the recording last selected */
    struct nv_client *list; /* the clients */
    /* the threaded mode */
    pthread_mutex_t mu;    /* the model: entry points and the GPU thread */
    pthread_cond_t work;   /* work queued, or stop */
    pthread_cond_t done;   /* a run ended */
    pthread_t thread;
    bool threaded, stop;
    uint64_t submitted;    /* pushes queued (a sequence number per GEM_PUSHBUF) */
    uint64_t completed;    /* the last of them the GPU has run */
} nv_kgpu;

static nv_kgpu kgpu = {.mu = PTHREAD_MUTEX_INITIALIZER,
                       .work = PTHREAD_COND_INITIALIZER,
                       .done = PTHREAD_COND_INITIALIZER};

typedef struct nv_bo {
    uint32_t handle;       /* 0: a free slot */
    int memfd;
    uint8_t *host;         /* this process's view of the memfd (the model's pages) */
    uint64_t size, va, map_handle;
    uint32_t domain, tile_mode, tile_flags;
    cg_mem *mem;
    uint8_t *shadow;       /* recording: the bytes as the GPU last saw them */
    bool cpu_mapped;       /* the program has mapped it: it may write there */
    uint64_t busy;         /* threaded: the push sequence it waits for */
} nv_bo;

typedef struct nv_kchan {
    int32_t id;            /* 0: a free slot; else the model's channel id + 1 */
    cg_nv_channel *ch;
    bool killed;           /* faulted: later pushes fail with ENODEV */
    uint32_t objects[16];  /* GROBJ_ALLOC handles, for GPUOBJ_FREE */
    size_t nobjects;
    uint32_t notifier;     /* the notifier buffer's handle */
} nv_kchan;

typedef struct nv_client {
    nv_kgpu *g;
    cg_nv_as *as;
    nv_bo *bos;            /* by handle - 1 */
    size_t nbos, capbos;
    nv_kchan chans[8];
    uint64_t bytes;        /* buffer bytes allocated */
    struct nv_client *next; /* the GPU's clients */
} nv_client;

#define VA_BASE 0x100000000ull /* buffers from 4 GiB up: 0 stays unmapped */
#define VA_LIMIT (1ull << 40)
#define BYTES_LIMIT (4ull << 30) /* what FB_SIZE + AGP_SIZE promise, 2 GiB each */

static nv_bo *bo_get(nv_client *c, uint32_t handle)
{
    if (handle == 0 || handle > c->nbos || c->bos[handle - 1].handle != handle)
        return NULL;
    return &c->bos[handle - 1];
}

/* ---- recording a session ---------------------------------------------------------- */

static cg_capfile_writer *rec(const nv_client *c) { return c->g->env->capture; }

/* The recording cannot go on: say why once; the node writes no file. */
static void rec_lose(nv_client *c, const char *why)
{
    cg_kernel_env *env = c->g->env;
    if (!env->capture_lost)
        fprintf(env->log, "libcmdgpu-drm: --capture: %s: the session is not recorded\n", why);
    env->capture_lost = true;
    env->capture = NULL;
}

static void rec_act(nv_client *c, uint32_t kind, int64_t a, int64_t b, int64_t x, const char *str1)
{
    if (!rec(c))
        return;
    cg_scene_action act = {.type = cg_scene_kind_of(&cg_nv_family, kind)->role, .kind = kind,
                           .a = a, .b = b, .c = x, .s1 = -1, .s2 = -1, .str1 = str1,
                           .str1_len = str1 ? strlen(str1) : 0};
    cg_capfile_write_action(rec(c), &act);
}

/* The bytes of [p, e) that differ from the shadow, trimmed to whole words
 * at both ends, as one data record; the shadow takes them first, so the
 * record holds what the shadow holds even if the program writes on. */
static void rec_range(nv_client *c, nv_bo *b, uint64_t p, uint64_t e)
{
    while (p < e && b->host[p] == b->shadow[p])
        p++;
    while (e > p && b->host[e - 1] == b->shadow[e - 1])
        e--;
    p &= ~3ull;
    e = (e + 3) & ~3ull;
    if (e > b->size)
        e = b->size;
    memcpy(b->shadow + p, b->host + p, e - p);
    cg_capfile_write_data(rec(c), b->va + p, 0, b->shadow + p, e - p);
}

/* What the program wrote into b since the GPU last ran: runs of pages that
 * differ from the shadow. */
static void rec_cpu_writes(nv_client *c, nv_bo *b)
{
    if (!rec(c) || !b->shadow)
        return;
    for (uint64_t p = 0; p < b->size; p += 0x1000) {
        if (memcmp(b->host + p, b->shadow + p, 0x1000) == 0)
            continue;
        uint64_t e = p + 0x1000;
        while (e < b->size && memcmp(b->host + e, b->shadow + e, 0x1000) != 0)
            e += 0x1000;
        rec_range(c, b, p, e);
        p = e;
    }
}

/* Before the GPU runs: the CPU's writes to every buffer the program has
 * mapped (it can write no other). After: the shadows of the buffers the
 * push named take what the GPU wrote there (nothing else writes while it
 * runs: the node's lock is held and the GPU runs to idle). A GPU write
 * elsewhere (a buffer the push did not name, or not mapped yet) is found
 * by the next comparison and recorded as data: bytes the replay's GPU has
 * written too, so the record changes nothing there; only the file grows.
 * The comparisons cost what the mapped buffers weigh, per push. */
static void rec_before_run(nv_client *c)
{
    for (size_t i = 0; rec(c) && i < c->nbos; i++)
        if (c->bos[i].handle && c->bos[i].cpu_mapped)
            rec_cpu_writes(c, &c->bos[i]);
}

static void rec_after_run(nv_client *c, const k_pushbuf_bo *bos, uint32_t n)
{
    for (uint32_t i = 0; rec(c) && i < n; i++) {
        nv_bo *b = bo_get(c, bos[i].handle);
        if (b && b->shadow && b->cpu_mapped)
            memcpy(b->shadow, b->host, b->size);
    }
}

/* A new buffer: mapped at the start of the replay (scene mappings come
 * first; addresses are never reused), its bytes all zero. */
static void rec_buffer(nv_client *c, nv_bo *b, uint32_t kind)
{
    if (!rec(c))
        return;
    if (b->size > 0xFFFFF000u) {
        rec_lose(c, "a buffer of 4 GiB or more");
        return;
    }
    if (!(b->shadow = calloc(1, b->size))) {
        rec_lose(c, "out of memory for the shadow copies");
        return;
    }
    char name[32];
    snprintf(name, sizeof name, "gem%u", b->handle);
    rec_act(c, NV_SA_BUFFER, (int64_t)b->va, (int64_t)b->size, kind, name);
}

/* A buffer freed: the program's last writes, its final bytes checked, the
 * mapping gone. */
static void rec_free(nv_client *c, nv_bo *b)
{
    if (rec(c) && b->shadow) {
        rec_cpu_writes(c, b);
        rec_act(c, NV_SA_EXPECT_HASH, (int64_t)b->va, (int64_t)b->size,
                (int64_t)cg_capfile_hash(CG_CAPFILE_HASH0, b->host, b->size), NULL);
        rec_act(c, NV_SA_UNMAP, (int64_t)b->va, 0, 0, NULL);
    }
    free(b->shadow);
    b->shadow = NULL;
}

/* The scene's channels are 0..7 (the model's ids: one more per channel
 * opened, in the order the replay opens them too). */
static void rec_channel(nv_client *c, int id)
{
    if (!rec(c) || c->g->rec_channel == id)
        return;
    if (id > 7) {
        rec_lose(c, "a ninth channel (a scene has 8)");
        return;
    }
    rec_act(c, NV_SA_CHANNEL, id, 0, 0, NULL);
    c->g->rec_channel = id;
}

/* ---- the threaded mode ------------------------------------------------------------ */

/* Wait (the GPU's lock held) until the GPU has run push `seq`: 0, or 1
 * when `secs` (>= 0) passed first. */
static int wait_idle(nv_kgpu *g, uint64_t seq, int secs)
{
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += secs;
    while (g->completed < seq) {
        if (secs < 0)
            pthread_cond_wait(&g->done, &g->mu);
        else if (pthread_cond_timedwait(&g->done, &g->mu, &until) == ETIMEDOUT)
            return g->completed < seq;
    }
    return 0;
}

/* The GPU thread: runs the model while pushes are queued. */
static void *gpu_thread(void *arg)
{
    nv_kgpu *g = arg;
    pthread_mutex_lock(&g->mu);
    while (!g->stop && g->threaded) {
        if (g->completed == g->submitted) {
            pthread_cond_wait(&g->work, &g->mu);
            continue;
        }
        uint64_t upto = g->submitted;
        cg_nv_gpu_run(g->gpu);
        g->completed = upto;
        pthread_cond_broadcast(&g->done);
    }
    pthread_mutex_unlock(&g->mu);
    return NULL;
}

/* At exit: the thread ends after the run it is in, before the node closes
 * the draws document the thread writes to. */
static void gpu_thread_stop(void)
{
    if (!kgpu.threaded)
        return; /* a child of fork: it has no GPU thread (fork_child) */
    pthread_mutex_lock(&kgpu.mu);
    kgpu.stop = true;
    pthread_cond_signal(&kgpu.work);
    pthread_mutex_unlock(&kgpu.mu);
    pthread_join(kgpu.thread, NULL);
}

/* fork: the lock is taken first, so the child's copy is not held by a
 * GPU thread it does not have; the child runs synchronously from then on,
 * after running what was queued. */
static void fork_prepare(void) { pthread_mutex_lock(&kgpu.mu); }
static void fork_parent(void) { pthread_mutex_unlock(&kgpu.mu); }
static void fork_child(void)
{
    if (kgpu.threaded) {
        kgpu.threaded = false;
        cg_nv_gpu_run(kgpu.gpu);
        kgpu.completed = kgpu.submitted;
    }
    pthread_mutex_unlock(&kgpu.mu);
}

/* ---- buffers -------------------------------------------------------------------- */

static void bo_release(void *user)
{
    nv_bo b = *(nv_bo *)user;
    free(user);
    munmap(b.host, b.size);
    close(b.memfd);
}

/* A buffer of size bytes (page multiple) at a fresh GPU address, aligned to
 * align, with the PTE kind kind. 0 or a negative errno. */
static int bo_new(nv_client *c, uint64_t size, uint64_t align, uint32_t kind, nv_bo **out)
{
    if (size > BYTES_LIMIT - c->bytes)
        return -ENOMEM;
    uint64_t va = (c->g->va_next + align - 1) & ~(align - 1);
    if (va > VA_LIMIT - size)
        return -ENOSPC;
    size_t slot = 0;
    while (slot < c->nbos && c->bos[slot].handle)
        slot++;
    if (slot == c->capbos) {
        size_t cap = c->capbos ? 2 * c->capbos : 64;
        nv_bo *n = realloc(c->bos, cap * sizeof *n);
        if (!n)
            return -ENOMEM;
        memset(n + c->capbos, 0, (cap - c->capbos) * sizeof *n);
        c->bos = n;
        c->capbos = cap;
    }
    nv_bo b = {.handle = (uint32_t)slot + 1, .size = size, .va = va};
    b.memfd = memfd_create("cmdgpu-bo", MFD_CLOEXEC);
    if (b.memfd < 0 || ftruncate(b.memfd, (off_t)size) != 0) {
        if (b.memfd >= 0)
            close(b.memfd);
        return -ENOMEM;
    }
    b.host = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, b.memfd, 0);
    nv_bo *keep = malloc(sizeof *keep);
    if (b.host == MAP_FAILED || !keep) {
        if (b.host != MAP_FAILED)
            munmap(b.host, size);
        close(b.memfd);
        free(keep);
        return -ENOMEM;
    }
    *keep = b;
    int rc = cg_mem_create_external(c->g->dev, b.host, size, 0, bo_release, keep, &b.mem);
    if (rc) {
        bo_release(keep);
        return -ENOMEM;
    }
    uint64_t got;
    cg_map_params mp = {.mem = b.mem, .va = va, .flags = CG_MAP_FIXED, .kind = kind};
    if (cg_vas_map(cg_nv_as_vas(c->as), &mp, &got) != 0) {
        cg_mem_unref(b.mem);
        return -ENOSPC;
    }
    b.map_handle = (uint64_t)b.handle << 32; /* an mmap offset: page aligned, unique */
    c->g->va_next = va + size;
    c->bytes += size;
    if (slot == c->nbos)
        c->nbos++;
    c->bos[slot] = b;
    *out = &c->bos[slot];
    rec_buffer(c, *out, kind);
    return 0;
}

static void bo_free(nv_client *c, nv_bo *b)
{
    rec_free(c, b);
    cg_vas_unmap(cg_nv_as_vas(c->as), b->va);
    cg_mem_unref(b->mem); /* the program's mmaps keep the memfd's pages */
    c->bytes -= b->size;
    memset(b, 0, sizeof *b);
}

static void info_of(const nv_bo *b, k_gem_info *i)
{
    i->handle = b->handle;
    i->domain = b->domain;
    i->size = b->size;
    i->offset = b->va;
    i->map_handle = b->map_handle;
    i->tile_mode = b->tile_mode;
    i->tile_flags = b->tile_flags;
}

/* GEM_NEW: a buffer and its GPU address (nouveau_gem_ioctl_new). */
static int ioctl_gem_new(void *client, void *arg)
{
    nv_client *c = client;
    k_gem_new *r = arg;
    uint64_t size = (r->info.size + 0xFFF) & ~0xFFFull;
    if (r->info.size == 0 || size < r->info.size ||
        !(r->info.domain & (DOMAIN_VRAM | DOMAIN_GART | 1u)))
        return -EINVAL;
    /* nouveau_bo_alloc takes the larger of the page size and align, any
     * value; here the address is aligned to the next power of two of it
     * (which any alignment divides when it is one), up to 1 GiB */
    if (r->align > (1u << 30))
        return -ENOMEM;
    uint64_t align = 0x1000;
    while (align < r->align)
        align <<= 1;
    nv_bo *b;
    int rc = bo_new(c, size, align, (r->info.tile_flags >> 8) & 0xFF, &b);
    if (rc)
        return rc;
    b->domain = r->info.domain & (DOMAIN_VRAM | DOMAIN_GART) ? r->info.domain & (DOMAIN_VRAM | DOMAIN_GART)
                                                             : DOMAIN_GART;
    b->tile_mode = r->info.tile_mode;
    b->tile_flags = r->info.tile_flags;
    info_of(b, &r->info);
    return 0;
}

static int ioctl_gem_info(void *client, void *arg)
{
    k_gem_info *i = arg;
    nv_bo *b = bo_get(client, i->handle);
    if (!b)
        return -ENOENT;
    info_of(b, i);
    return 0;
}

static int gem_close(void *client, uint32_t handle)
{
    nv_client *c = client;
    nv_bo *b = bo_get(c, handle);
    if (!b)
        return -EINVAL; /* drm_gem_handle_delete: an unknown handle */
    /* threaded: the GPU's last run of it first (the wait lets the GPU's lock
     * go; the node's lock keeps the program's other calls out meanwhile) */
    wait_idle(c->g, b->busy, -1);
    bo_free(c, b);
    return 0;
}

/* GEM_CPU_PREP: synchronous, the GPU ran everything before GEM_PUSHBUF
 * returned; threaded, wait for the run that takes the buffer's last push. */
static int ioctl_cpu_prep(void *client, void *arg)
{
    nv_client *c = client;
    k_cpu_prep *r = arg;
    nv_bo *b = bo_get(c, r->handle);
    if (!b)
        return -ENOENT;
    if (b->busy <= c->g->completed)
        return 0;
    if (r->flags & CPU_PREP_NOWAIT)
        return -EBUSY;
    return wait_idle(c->g, b->busy, 30) ? -EBUSY : 0;
}

static int ioctl_cpu_fini(void *client, void *arg)
{
    k_cpu_fini *r = arg;
    return bo_get(client, r->handle) ? 0 : -ENOENT;
}

static int mmap_bo(void *client, uint64_t offset, uint64_t len, int *fd, uint64_t *fd_off)
{
    nv_client *c = client;
    uint64_t handle = offset >> 32;
    nv_bo *b = handle <= UINT32_MAX ? bo_get(c, (uint32_t)handle) : NULL;
    uint64_t in = offset & 0xFFFFFFFFull;
    if (!b || in > b->size || len > b->size - in)
        return -EINVAL;
    *fd = b->memfd;
    *fd_off = in;
    b->cpu_mapped = true;
    return 0;
}

/* ---- channels ----------------------------------------------------------------------- */

static nv_kchan *chan_get(nv_client *c, int32_t id)
{
    for (size_t i = 0; i < 8; i++)
        if (c->chans[i].id && c->chans[i].id == id + 1)
            return &c->chans[i];
    return NULL;
}

/* Entries into the channel's GPFIFO, then the GPU runs until idle
 * (recorded as the scene's CHANNEL, SUBMIT and RUN); threaded, queued for
 * the GPU thread, the buffers named busy until it has run them. 0 or
 * -ENODEV. */
static int submit_run(nv_client *c, nv_kchan *k, const uint64_t *entries, uint32_t n,
                      const k_pushbuf_bo *bos, uint32_t nbos)
{
    nv_kgpu *g = c->g;
    if (g->threaded) {
        if (cg_nv_channel_submit_gpfifo(k->ch, entries, n, 0, NULL) != 0)
            return -ENODEV;
        g->submitted++;
        for (uint32_t i = 0; i < nbos; i++) {
            nv_bo *b = bo_get(c, bos[i].handle);
            if (b)
                b->busy = g->submitted;
        }
        pthread_cond_signal(&g->work);
        return 0;
    }
    if (rec(c)) {
        rec_before_run(c);
        rec_channel(c, k->id - 1);
        for (uint32_t i = 0; i < n; i++) {
            cg_nv_gp_fields f = cg_nv_gp_decode(entries[i]);
            rec_act(c, NV_SA_SUBMIT, (int64_t)f.va, (int64_t)(f.va + 4ull * f.nwords), 0, NULL);
        }
        rec_act(c, NV_SA_RUN, 0, 0, 0, NULL);
    }
    if (cg_nv_channel_submit_gpfifo(k->ch, entries, n, 0, NULL) != 0)
        return -ENODEV;
    cg_nv_gpu_run(c->g->gpu);
    rec_after_run(c, bos, nbos);
    return 0;
}

/* The kernel's own words on a new channel: the copy engine's context on
 * subchannel 4, which Mesa's nvc0 uses without binding it (Linux
 * nouveau_abi16.c, the "CE" workaround comment; docs/drm.md). */
static int kernel_push(nv_client *c, nv_kchan *k)
{
    nv_bo *b;
    int rc = bo_new(c, 0x1000, 0x1000, 0, &b);
    if (rc)
        return rc;
    uint32_t words[2] = {cg_nv_hdr(CG_NV_SEC_INC_METHOD, 4, 0, 1), CG_NV_CLASS_COPY};
    memcpy(b->host, words, sizeof words);
    b->cpu_mapped = true; /* the kernel wrote it */
    uint64_t e = cg_nv_gp_entry(b->va, 2, 0);
    k_pushbuf_bo list = {.handle = b->handle};
    return submit_run(c, k, &e, 1, &list, 1) ? -EIO : 0;
}

static void chan_close(nv_client *c, nv_kchan *k)
{
    wait_idle(c->g, c->g->submitted, -1); /* threaded: nouveau idles the channel first */
    if (rec(c)) {
        rec_act(c, NV_SA_CLOSE_CHANNEL, k->id - 1, 0, 0, NULL);
        if (c->g->rec_channel == k->id - 1)
            c->g->rec_channel = -1;
    }
    cg_nv_channel_close(k->ch);
    memset(k, 0, sizeof *k);
}

static int ioctl_channel_alloc(void *client, void *arg)
{
    nv_client *c = client;
    k_channel_alloc *r = arg;
    nv_kchan *k = NULL;
    for (size_t i = 0; i < 8 && !k; i++)
        if (!c->chans[i].id)
            k = &c->chans[i];
    if (!k)
        return -ENOSPC;
    /* Kepler and later: fb_ctxdma_handle ~0 asks for the engine in
     * tt_ctxdma_handle (libdrm abi16_chan_nve0; nouveau_abi16.c): graphics
     * (1) or the copy engines (0x30) run on the model's channels; the video
     * engines (2, 4, 8) are not modelled: ENODEV. Any other value: ENOSYS. */
    if (r->fb_ctxdma_handle == ~0u) {
        if (r->tt_ctxdma_handle == 0x02 || r->tt_ctxdma_handle == 0x04 ||
            r->tt_ctxdma_handle == 0x08)
            return -ENODEV;
        if (r->tt_ctxdma_handle != 0x01 && r->tt_ctxdma_handle != 0x30)
            return -ENOSYS;
    } else if (r->tt_ctxdma_handle == ~0u) {
        return -EINVAL;
    }
    if (cg_nv_channel_open(c->g->gpu, c->as, 0, &k->ch) != 0)
        return -ENOMEM;
    k->id = cg_nv_channel_id(k->ch) + 1;
    rec_channel(c, k->id - 1);
    nv_bo *ntfy;
    int rc = bo_new(c, 0x1000, 0x1000, 0, &ntfy);
    if (!rc)
        rc = kernel_push(c, k);
    if (rc) {
        chan_close(c, k);
        return rc;
    }
    ntfy->domain = DOMAIN_GART;
    k->notifier = ntfy->handle;
    r->channel = k->id - 1;
    r->pushbuf_domains = DOMAIN_VRAM | DOMAIN_GART;
    r->notifier_handle = ntfy->handle;
    r->nr_subchan = 0; /* Fermi and later: the driver binds its own */
    return 0;
}

static int ioctl_channel_free(void *client, void *arg)
{
    nv_client *c = client;
    nv_kchan *k = chan_get(c, ((k_channel_free *)arg)->channel);
    if (!k)
        return -ENOENT;
    chan_close(c, k);
    return 0;
}

/* GROBJ_ALLOC: an object of a class the channel's engines have; the
 * software class (0x906e, nvsw) is the kernel's own. */
static int ioctl_grobj_alloc(void *client, void *arg)
{
    nv_client *c = client;
    k_grobj_alloc *r = arg;
    if (r->handle == ~0u)
        return -EINVAL;
    nv_kchan *k = chan_get(c, r->channel);
    if (!k)
        return -ENOENT;
    uint32_t cls = (uint32_t)r->oclass & 0xFFFF;
    if ((cls & 0xFF) != 0x6e && (!cg_nv_class_find(cls) || cls == CG_NV_CLASS_HOST)) {
        fprintf(c->g->env->log, "libcmdgpu-drm: GROBJ_ALLOC class 0x%04x: the model has no "
                "such class: EINVAL\n", cls);
        return -EINVAL;
    }
    if (k->nobjects == 16)
        return -ENOSPC;
    k->objects[k->nobjects++] = r->handle;
    return 0;
}

static int ioctl_gpuobj_free(void *client, void *arg)
{
    nv_client *c = client;
    k_gpuobj_free *r = arg;
    nv_kchan *k = chan_get(c, r->channel);
    if (!k)
        return -ENOENT;
    for (size_t i = 0; i < k->nobjects; i++)
        if (k->objects[i] == r->handle) {
            k->objects[i] = k->objects[--k->nobjects];
            return 0;
        }
    return -ENOENT;
}

/* After a run: the faults the GPU raised since the last, and the hang
 * report, to the log; a channel that faulted is killed, as nouveau's
 * fault handler kills it (later pushes: ENODEV). */
static void tell_faults(nv_client *c)
{
    nv_kgpu *g = c->g;
    size_t n = cg_fault_count(g->dev);
    if (n == g->faults_told)
        return;
    for (size_t i = g->faults_told; i < n; i++) {
        char line[512];
        cg_fault_format(cg_fault_get(g->dev, i), line, sizeof line);
        fprintf(g->env->log, "libcmdgpu-drm: GPU fault: %s\n", line);
    }
    g->faults_told = n;
    g->env->faults = n;
    if (g->hang)
        cg_nv_family.hang->report(g->hang, false, g->env->log);
    fflush(g->env->log);
    for (size_t i = 0; i < 8; i++) {
        cg_nv_channel_info ci;
        if (c->chans[i].id && cg_nv_channel_info_get(c->chans[i].ch, &ci) == 0 &&
            ci.state == CG_NV_CH_FAULTED)
            c->chans[i].killed = true;
    }
}

/* The buffers and pushes of a GEM_PUSHBUF, copied in as the kernel's
 * u_memcpya does (EFAULT where the program has no such memory). */
static int pushbuf_read(nv_client *c, const k_pushbuf *r, k_pushbuf_push **push,
                        k_pushbuf_bo **bos)
{
    const cg_user_io *u = c->g->env->user;
    *push = calloc(r->nr_push, sizeof **push);
    *bos = calloc(r->nr_buffers ? r->nr_buffers : 1, sizeof **bos);
    if (!*push || !*bos)
        return -ENOMEM;
    if (u->read(*push, r->push, r->nr_push * sizeof **push) ||
        u->read(*bos, r->buffers, r->nr_buffers * sizeof **bos))
        return -EFAULT;
    return 0;
}

/* GEM_PUSHBUF: each push becomes one GPFIFO entry at the buffer's address
 * + offset, length in bytes (bit 23: no prefetch); then the GPU runs until
 * idle (nouveau_gem_ioctl_pushbuf's checks, in its order). */
static int ioctl_gem_pushbuf(void *client, void *arg)
{
    nv_client *c = client;
    k_pushbuf *r = arg;
    nv_kchan *k = chan_get(c, (int32_t)r->channel);
    if (!k)
        return -ENOENT;
    r->vram_available = 2ull << 30;
    r->gart_available = 2ull << 30;
    r->suffix0 = r->suffix1 = 0; /* IB mode (chan->dma.ib_max) */
    if (r->nr_push == 0)
        return 0;
    if (r->nr_push > MAX_PUSH || r->nr_buffers > MAX_BUFFERS || r->nr_relocs > MAX_RELOCS)
        return -EINVAL;
    if (k->killed)
        return -ENODEV;
    k_pushbuf_push *push = NULL;
    k_pushbuf_bo *bos = NULL;
    int rc = pushbuf_read(c, r, &push, &bos);
    for (uint32_t i = 0; !rc && i < r->nr_push; i++)
        if (push[i].bo_index >= r->nr_buffers)
            rc = -EINVAL;
    for (uint32_t i = 0; !rc && i < r->nr_buffers; i++) {
        nv_bo *b = bo_get(c, bos[i].handle);
        if (!b)
            rc = -ENOENT;
        else if (r->nr_relocs && !bos[i].presumed_valid)
            rc = -EINVAL; /* relocations: nvc0 never asks; not supported yet */
    }
    uint64_t *entries = rc ? NULL : calloc(r->nr_push, sizeof *entries);
    if (!rc && !entries)
        rc = -ENOMEM;
    for (uint32_t i = 0; !rc && i < r->nr_push; i++) {
        nv_bo *b = bo_get(c, bos[push[i].bo_index].handle);
        uint64_t len = push[i].length & ~PUSH_NO_PREFETCH & 0x7FFFFF;
        if (push[i].offset > b->size || len > b->size - push[i].offset || (len & 3) ||
            (push[i].offset & 3))
            rc = -EINVAL; /* a push past its buffer */
        else
            entries[i] = cg_nv_gp_entry(b->va + push[i].offset, (uint32_t)(len / 4), 0);
    }
    if (!rc)
        rc = submit_run(c, k, entries, r->nr_push, bos, r->nr_buffers);
    if (!rc)
        tell_faults(c);
    free(entries);
    free(push);
    free(bos);
    return rc;
}

/* ---- parameters ---------------------------------------------------------------------- */

static int ioctl_getparam(void *client, void *arg)
{
    nv_client *c = client;
    k_getparam *r = arg;
    const cg_gpu_id *id = c->g->id;
    switch (r->param) {
    case P_CHIPSET_ID: r->value = id->chip & 0xFFFF; return 0;
    case P_PCI_VENDOR: r->value = id->pci_vendor; return 0;
    case P_PCI_DEVICE: r->value = id->pci_device; return 0;
    case P_BUS_TYPE: r->value = 2; return 0; /* PCIE */
    case P_FB_SIZE: r->value = 2ull << 30; return 0;
    case P_AGP_SIZE: r->value = 2ull << 30; return 0;
    case P_VM_VRAM_BASE: r->value = 0; return 0; /* deprecated */
    case P_PTIMER_TIME: /* a deterministic clock: the GPU's methods, in ns */
        r->value = cg_nv_gpu_time(c->g->gpu) * 1000;
        return 0;
    case P_HAS_BO_USAGE: r->value = 1; return 0;
    case P_HAS_PAGEFLIP: r->value = 1; return 0;
    case P_GRAPH_UNITS: /* (SMs << 8) | GPCs (docs/drm.md) */
        r->value = (uint64_t)((id->chip >> 16) & 0xFF) << 8 | ((id->chip >> 24) & 0xFF);
        return 0;
    default: return -EINVAL;
    }
}

static int ioctl_einval(void *client, void *arg)
{
    (void)client, (void)arg;
    return -EINVAL;
}

/* Every entry point holds the GPU's lock (the GPU thread runs under it);
 * threaded, the faults its runs raised are reported first. */
static void enter(nv_client *c)
{
    pthread_mutex_lock(&c->g->mu);
    if (c->g->threaded)
        tell_faults(c);
}

static void leave(nv_client *c) { pthread_mutex_unlock(&c->g->mu); }

#define LOCKED(fn)                                  \
    static int locked_##fn(void *client, void *arg) \
    {                                               \
        enter(client);                              \
        int rc = fn(client, arg);                   \
        leave(client);                              \
        return rc;                                  \
    }
LOCKED(ioctl_getparam)
LOCKED(ioctl_einval)
LOCKED(ioctl_channel_alloc)
LOCKED(ioctl_channel_free)
LOCKED(ioctl_grobj_alloc)
LOCKED(ioctl_gpuobj_free)
LOCKED(ioctl_gem_new)
LOCKED(ioctl_gem_pushbuf)
LOCKED(ioctl_cpu_prep)
LOCKED(ioctl_cpu_fini)
LOCKED(ioctl_gem_info)

static const cg_kernel_ioctl ioctls[] = {
    {NR_GETPARAM, "NOUVEAU_GETPARAM", sizeof(k_getparam), locked_ioctl_getparam},
    {NR_SETPARAM, "NOUVEAU_SETPARAM", sizeof(k_getparam), locked_ioctl_einval},
    {NR_CHANNEL_ALLOC, "NOUVEAU_CHANNEL_ALLOC", sizeof(k_channel_alloc), locked_ioctl_channel_alloc},
    {NR_CHANNEL_FREE, "NOUVEAU_CHANNEL_FREE", sizeof(k_channel_free), locked_ioctl_channel_free},
    {NR_GROBJ_ALLOC, "NOUVEAU_GROBJ_ALLOC", sizeof(k_grobj_alloc), locked_ioctl_grobj_alloc},
    /* notifier objects: "completely unnecessary for these chipsets" (EINVAL on Fermi+) */
    {NR_NOTIFIEROBJ_ALLOC, "NOUVEAU_NOTIFIEROBJ_ALLOC", 16, locked_ioctl_einval},
    {NR_GPUOBJ_FREE, "NOUVEAU_GPUOBJ_FREE", sizeof(k_gpuobj_free), locked_ioctl_gpuobj_free},
    {NR_GEM_NEW, "NOUVEAU_GEM_NEW", sizeof(k_gem_new), locked_ioctl_gem_new},
    {NR_GEM_PUSHBUF, "NOUVEAU_GEM_PUSHBUF", sizeof(k_pushbuf), locked_ioctl_gem_pushbuf},
    {NR_GEM_CPU_PREP, "NOUVEAU_GEM_CPU_PREP", sizeof(k_cpu_prep), locked_ioctl_cpu_prep},
    {NR_GEM_CPU_FINI, "NOUVEAU_GEM_CPU_FINI", sizeof(k_cpu_fini), locked_ioctl_cpu_fini},
    {NR_GEM_INFO, "NOUVEAU_GEM_INFO", sizeof(k_gem_info), locked_ioctl_gem_info},
};

/* ---- the software object -------------------------------------------------------------- */

/* Methods on subchannels 5-7, where Mesa binds the software object 0x906e:
 * the kernel takes them (cg_nv_gpu_set_sw_method; driver/nvsw.c). */
static bool sw_method(void *user, int channel, unsigned subch, uint32_t m, uint32_t v)
{
    nv_kgpu *g = user;
    return nv_nvsw_method(g->env->log, "libcmdgpu-drm: ", channel, subch, m, v);
}

/* --draws: each draw record, as `cmdgpu run --draws` writes them (the node
 * writes the document's head and, at exit, its end). */
static void draw_record(void *user, const cg_nv_draw *d)
{
    nv_kgpu *g = user;
    if (!g->env->draws)
        return;
    fputs(g->ndraws++ ? ",\n" : "\n", g->env->draws);
    cg_nv_draw_print_json(g->env->draws, d);
}

/* ---- clients ----------------------------------------------------------------------- */

static int kopen_locked(const cg_gpu_id *id, cg_device *dev, cg_kernel_env *env, void **out)
{
    nv_kgpu *g = &kgpu;
    if (!g->gpu) {
        if (cg_nv_gpu_create(dev, &g->gpu) != 0)
            return -ENOMEM;
        g->dev = dev;
        g->id = id;
        g->env = env;
        g->va_next = VA_BASE;
        g->rec_channel = 0; /* a replay starts on channel 0 */
        cg_nv_gpu_set_sw_method(g->gpu, sw_method, g);
        if (env->capture)
            cg_capfile_write_config(env->capture, NV_CFG_NVSW, 1);
        if (env->draws)
            cg_nv_gpu_set_draw_callback(g->gpu, draw_record, g);
        cg_nv_family.hang->create(dev, &g->hang); /* no report if it cannot be made */
        if (env->threaded && !env->capture) {
            if (pthread_create(&g->thread, NULL, gpu_thread, g) == 0) {
                g->threaded = true;
                atexit(gpu_thread_stop);
                pthread_atfork(fork_prepare, fork_parent, fork_child);
            } else {
                fprintf(env->log, "libcmdgpu-drm: no GPU thread (%s): running synchronously\n",
                        strerror(errno));
            }
        }
    }
    nv_client *c = calloc(1, sizeof *c);
    if (!c || cg_nv_as_create(g->gpu, 0, &c->as) != 0) {
        free(c);
        return -ENOMEM;
    }
    c->g = g;
    c->next = g->list;
    g->list = c;
    g->clients++;
    *out = c;
    return 0;
}

static int kopen(const cg_gpu_id *id, cg_device *dev, cg_kernel_env *env, void **out)
{
    pthread_mutex_lock(&kgpu.mu);
    int rc = kopen_locked(id, dev, env, out);
    pthread_mutex_unlock(&kgpu.mu);
    return rc;
}

static void kclose(void *client)
{
    nv_client *c = client;
    for (nv_client **p = &c->g->list; *p; p = &(*p)->next)
        if (*p == c) {
            *p = c->next;
            break;
        }
    c->g->clients--;
    for (size_t i = 0; i < 8; i++)
        if (c->chans[i].id)
            chan_close(c, &c->chans[i]);
    for (size_t i = 0; i < c->nbos; i++)
        if (c->bos[i].handle)
            bo_free(c, &c->bos[i]);
    cg_nv_as_destroy(c->as);
    free(c->bos);
    free(c);
}

/* The session's end: each live buffer's last CPU writes and final bytes
 * (a program that exits without closing the node frees nothing). */
static void record_end(cg_kernel_env *env)
{
    (void)env;
    for (nv_client *c = kgpu.list; c && rec(c); c = c->next)
        for (size_t i = 0; i < c->nbos; i++) {
            nv_bo *b = &c->bos[i];
            if (!b->handle || !b->shadow)
                continue;
            rec_cpu_writes(c, b);
            rec_act(c, NV_SA_EXPECT_HASH, (int64_t)b->va, (int64_t)b->size,
                    (int64_t)cg_capfile_hash(CG_CAPFILE_HASH0, b->host, b->size), NULL);
        }
}

static int locked_gem_close(void *client, uint32_t handle)
{
    enter(client);
    int rc = gem_close(client, handle);
    leave(client);
    return rc;
}

static int locked_mmap_bo(void *client, uint64_t offset, uint64_t len, int *fd, uint64_t *fd_off)
{
    enter(client);
    int rc = mmap_bo(client, offset, len, fd, fd_off);
    leave(client);
    return rc;
}

/* Threaded: the client's work runs to the end and its faults are told
 * before its channels go. */
static void locked_kclose(void *client)
{
    nv_client *c = client;
    enter(c);
    if (c->g->threaded) {
        wait_idle(c->g, c->g->submitted, -1);
        tell_faults(c);
    }
    kclose(c);
    pthread_mutex_unlock(&kgpu.mu);
}

static void locked_record_end(cg_kernel_env *env)
{
    pthread_mutex_lock(&kgpu.mu);
    record_end(env);
    pthread_mutex_unlock(&kgpu.mu);
}

/* The GPUs `cmdgpu exec --gpu` offers: Maxwell with the MAXWELL_B (B197)
 * classes the model has (Mesa picks classes by chipset & ~0xf: 0x120). The
 * chip word packs the chipset (15:0), SMs (23:16) and GPCs (31:24). The
 * GM20B is the Tegra X1's GPU, not on PCI: its PCI ids here only tell the
 * loader "NVIDIA" (any 0x10de id loads nouveau). */
#define CHIP(chipset, sms, gpcs) ((uint32_t)(chipset) | (uint32_t)(sms) << 16 | (uint32_t)(gpcs) << 24)
static const cg_gpu_id gpus[] = {
    {"gm20b", "Maxwell GM20B (Tegra X1): 1 GPC, 2 SMs", 0x10de, 0x12b0, 0x10de, 0x0000, 0xa1,
     CHIP(0x12b, 2, 1)},
    {"gm204", "Maxwell GM204 (GeForce GTX 980): 4 GPCs, 16 SMs", 0x10de, 0x13c0, 0x10de, 0x0000,
     0xa1, CHIP(0x124, 16, 4)},
    {"gm206", "Maxwell GM206 (GeForce GTX 960): 2 GPCs, 8 SMs", 0x10de, 0x1401, 0x10de, 0x0000,
     0xa1, CHIP(0x126, 8, 2)},
    {"gm200", "Maxwell GM200 (GeForce GTX TITAN X): 6 GPCs, 24 SMs", 0x10de, 0x17c2, 0x10de,
     0x0000, 0xa1, CHIP(0x120, 24, 6)},
};

const cg_kernel_ops nv_kernel_ops = {
    .driver = "nouveau",
    .version = {1, 3, 0},
    .date = "20120801",
    .desc = "nVidia Riva/TNT/GeForce/Quadro/Tesla/Tegra K1+ (cmdgpu)",
    .gpus = gpus,
    .ngpus = sizeof gpus / sizeof gpus[0],
    .ioctls = ioctls,
    .nioctls = sizeof ioctls / sizeof ioctls[0],
    .open = kopen,
    .gem_close = locked_gem_close,
    .mmap = locked_mmap_bo,
    .close = locked_kclose,
    .record_end = locked_record_end,
};
