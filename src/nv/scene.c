/* nv family: scenes (cmdgpu run -f nv) through the core's runner
 * (include/cmdgpu/scene.h). A scene is nv assembler text whose .buffer
 * directives become nvmap buffers mapped at fixed GPU addresses, whose
 * sections are placed there, and whose other directives (.channel,
 * .submit, .run, .finish, .wait, .cpu_write32, .expect32, .dump, .png) drive
 * the driver API in order; see docs/nv.md. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "cmdgpu/capfile.h"
#include "cmdgpu/image.h"
#include "core/image_internal.h"
#include "core/internal.h"
#include "nv/gpu/pipeline.h"
#include "scene.h"

typedef struct nv_run {
    cg_device *dev;
    const cg_scene_opts *o;
    FILE *log;
    const char *path;
    cg_nv_gpu *gpu;
    cg_nv_as *as;
    cg_nv_channel *ch[8];
    cg_nv_channel *cur;
    struct nv_buf { uint64_t va, size; uint32_t h; } *bufs; /* .buffers, for UNMAP */
    size_t nbufs, capbufs;
    cg_nv_fence fences[NV_SCENE_FENCES];
    bool fence_set[NV_SCENE_FENCES];
    bool failed;          /* a check failed */
    size_t faults_before;
    /* --draws, --dump-textures */
    unsigned ndraws;
    uint32_t *tics;       /* TIC indices written (or tried) */
    size_t ntics, captics;
    bool tex_failed;      /* a texture PNG could not be written */
} nv_run;

static void logf_(nv_run *r, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static void logf_(nv_run *r, const char *fmt, ...)
{
    if (!r->log)
        return;
    va_list ap;
    va_start(ap, fmt);
    vfprintf(r->log, fmt, ap);
    va_end(ap);
}

static int act_fail(nv_run *r, const cg_scene_action *x, int rc, const char *what)
{
    logf_(r, "FAIL %s: action #%u (%s) failed: %s%s%s\n", r->path, x->index, what,
          cg_strerror(rc), cg_nv_gpu_last_error(r->gpu)[0] ? ": " : "",
          cg_nv_gpu_last_error(r->gpu));
    return rc;
}

/* ---- draws: --draws and --dump-textures ----------------------------------- */

/* DIR/tic_<index>.png for each TIC index a draw reaches, written the first
 * time it is seen (the header and texels as they are at that draw).
 * Textures that cannot be read or decoded are logged and skipped. */
static void dump_texture(nv_run *r, const cg_nv_draw *d, const cg_nv_tex_binding *t)
{
    for (size_t i = 0; i < r->ntics; i++)
        if (r->tics[i] == t->tic_index)
            return;
    if (r->ntics == r->captics) {
        size_t cap = r->captics ? 2 * r->captics : 16;
        uint32_t *p = realloc(r->tics, cap * sizeof(*p));
        if (!p) {
            logf_(r, "--dump-textures: out of memory\n");
            r->tex_failed = true;
            return;
        }
        r->tics = p;
        r->captics = cap;
    }
    r->tics[r->ntics++] = t->tic_index;
    if (!t->tic_ok) {
        logf_(r, "--dump-textures: tic %u (stage %u, handle 0x%08x): past the TIC limit or "
              "unmapped\n", t->tic_index, t->stage, t->handle);
        return;
    }
    uint8_t *rgba;
    uint32_t w, h;
    int rc = cg_nv_tex_read_rgba8(d->vas, &t->tic, &rgba, &w, &h);
    if (rc) {
        const char *name = cg_nv_tex_format_name(t->tic.format);
        logf_(r, "--dump-textures: tic %u (format 0x%02x %s, %ux%u): %s\n", t->tic_index,
              t->tic.format, name ? name : "?", t->tic.width, t->tic.height, cg_strerror(rc));
        return;
    }
    char path[4096];
    snprintf(path, sizeof(path), "%s/tic_%u.png", r->o->textures_dir, t->tic_index);
    cg_image img = {w, h, (size_t)w * 4, CG_FORMAT_RGBA8888, rgba};
    rc = cg_image_write_png(path, &img);
    if (rc) {
        logf_(r, "--dump-textures: %s: %s\n", path, cg_strerror(rc));
        r->tex_failed = true;
    }
    free(rgba);
}

static void on_draw(void *user, const cg_nv_draw *d)
{
    nv_run *r = user;
    if (r->o->draws) {
        fputs(r->ndraws ? ",\n" : "\n", r->o->draws);
        cg_nv_draw_print_json(r->o->draws, d);
    }
    r->ndraws++;
    for (size_t i = 0; r->o->textures_dir && i < d->ntextures; i++)
        dump_texture(r, d, &d->textures[i]);
    if (r->o->draw_fn)
        r->o->draw_fn(r->o->draw_user, d);
}

/* ---- the scene's steps ------------------------------------------------------ */

static int select_channel(nv_run *r, unsigned n)
{
    if (!r->ch[n]) {
        int rc = cg_nv_channel_open(r->gpu, r->as, 0, &r->ch[n]);
        if (rc)
            return rc;
    }
    r->cur = r->ch[n];
    return 0;
}

/* nv.nvsw: subchannels 5-7 go to the kernel's software object, as in the
 * session that was recorded; its lines go to the log. */
static bool on_sw_method(void *user, int channel, unsigned subch, uint32_t m, uint32_t v)
{
    nv_run *r = user;
    return nv_nvsw_method(r->log, "", channel, subch, m, v);
}

static int nv_open(const cg_scene *sc, cg_device *dev, const cg_scene_opts *o, void **out)
{
    nv_run *r = calloc(1, sizeof *r);
    if (!r)
        return CG_ERR_NOMEM;
    *r = (nv_run){.dev = dev, .o = o, .log = o->log, .path = o->name ? o->name : "scene",
                  .faults_before = cg_fault_count(dev)};
    int rc = cg_nv_gpu_create(dev, &r->gpu);
    if (!rc && (o->draws || o->textures_dir || o->draw_fn))
        cg_nv_gpu_set_draw_callback(r->gpu, on_draw, r);
    uint64_t nvsw = 0;
    if (!rc && cg_scene_config(sc, NV_CFG_NVSW, &nvsw) == 0 && nvsw)
        cg_nv_gpu_set_sw_method(r->gpu, on_sw_method, r);
    if (!rc)
        rc = cg_nv_as_create(r->gpu, 0, &r->as);
    if (!rc)
        rc = select_channel(r, 0);
    if (rc) {
        cg_nv_gpu_destroy(r->gpu);
        free(r);
        return rc;
    }
    if (o->draws)
        fputs("{\"draws\":[", o->draws);
    *out = r;
    return 0;
}

/* .buffer NAME, VA, SIZE [, KIND [, CACHED]]: an nvmap buffer, mapped at VA. */
static int nv_map(void *run, const cg_scene_action *x)
{
    nv_run *r = run;
    uint32_t h;
    uint64_t a = (uint64_t)x->a, b = (uint64_t)x->b;
    if (b == 0 || b > 0xFFFFF000u || (a & 0xFFF))
        return act_fail(r, x, CG_ERR_INVAL, ".buffer: size 0 or >= 4 GiB, or VA not page aligned");
    int rc = cg_nv_nvmap_create(r->gpu, (uint32_t)b, &h);
    if (!rc)
        rc = cg_nv_nvmap_alloc(r->gpu, h, CG_NV_NVMAP_HEAP_IOVMM,
                               x->d ? CG_NV_NVMAP_CACHEABLE : CG_NV_NVMAP_UNCACHEABLE, 0x1000,
                               (uint8_t)x->c);
    uint64_t size = (b + 0xFFF) & ~0xFFFull;
    uint64_t va = a;
    if (!rc)
        rc = cg_nv_as_alloc_space(r->as, (uint32_t)(size >> 12), 0x1000, CG_NV_AS_FIXED, &va);
    if (!rc)
        rc = cg_nv_as_map_buffer_ex(r->as, CG_NV_AS_FIXED | (x->d ? CG_NV_AS_CACHEABLE : 0),
                                    (int32_t)x->c, h, 0x1000, 0, size, &va);
    if (!rc && r->nbufs == r->capbufs) {
        size_t cap = r->capbufs ? 2 * r->capbufs : 16;
        struct nv_buf *n = realloc(r->bufs, cap * sizeof *n);
        if (!n)
            rc = CG_ERR_NOMEM;
        else
            r->bufs = n, r->capbufs = cap;
    }
    if (rc)
        return act_fail(r, x, rc, ".buffer");
    r->bufs[r->nbufs++] = (struct nv_buf){va, size, h};
    logf_(r, "buffer %.*s: 0x%010llx, 0x%llx bytes\n", (int)x->str1_len, x->str1,
          (unsigned long long)va, (unsigned long long)size);
    return 0;
}

/* A section lands inside a .buffer; CPU writes through cached buffers
 * are flushed, so they reach the GPU. */
static int nv_place(void *run, const char *name, uint64_t base, const uint8_t *data, size_t size)
{
    nv_run *r = run;
    int rc = cg_vas_cpu_write(cg_nv_as_vas(r->as), base, data, size);
    if (rc) {
        logf_(r, "%s: section '%s' [0x%llx, +0x%zx) is not inside a .buffer\n", r->path, name,
              (unsigned long long)base, size);
        return rc;
    }
    cg_vas_cpu_flush(cg_nv_as_vas(r->as), base, size);
    return 0;
}

/* .submit START, END: one GPFIFO entry, with its fence flags. */
static int act_submit(nv_run *r, const cg_scene_action *x)
{
    uint64_t a = (uint64_t)x->a, b = (uint64_t)x->b;
    uint64_t e = cg_nv_gp_entry(a, (uint32_t)((b - a) / 4), 0);
    uint32_t flags = 0;
    cg_nv_fence f = {0, 0};
    if (x->s1 >= 0) {
        if (!r->fence_set[x->s1])
            return act_fail(r, x, CG_ERR_INVAL, ".submit wait= names an unset fence slot");
        f = r->fences[x->s1];
        flags |= CG_NV_SUBMIT_FENCE_WAIT;
    }
    if (x->s2 >= 0)
        flags |= CG_NV_SUBMIT_FENCE_INCREMENT;
    if ((b - a) / 4 >= (1u << 21))
        return act_fail(r, x, CG_ERR_RANGE, ".submit: more than 2^21-1 words");
    int rc = cg_nv_channel_submit_gpfifo(r->cur, &e, 1, flags, &f);
    if (rc)
        return act_fail(r, x, rc, ".submit");
    if (x->s2 >= 0) {
        r->fences[x->s2] = f;
        r->fence_set[x->s2] = true;
        logf_(r, "submit 0x%010llx..0x%010llx on channel %d: fence %d = syncpoint %u value %u\n",
              (unsigned long long)a, (unsigned long long)b, cg_nv_channel_id(r->cur), x->s2, f.id,
              f.value);
    }
    return 0;
}

static int act_wait(nv_run *r, const cg_scene_action *x)
{
    if (!r->fence_set[x->a])
        return act_fail(r, x, CG_ERR_INVAL, ".wait on an unset fence slot");
    int rc = cg_nv_fence_wait(r->gpu, r->fences[x->a], (uint32_t)x->b);
    if (rc) {
        logf_(r, "fence %llu (syncpoint %u value %u) not reached: syncpoint is %u\n",
              (unsigned long long)x->a, r->fences[x->a].id, r->fences[x->a].value,
              cg_nv_syncpt_read(r->gpu, r->fences[x->a].id));
        r->failed = true;
        return 0;
    }
    logf_(r, "fence %llu reached\n", (unsigned long long)x->a);
    return 0;
}

static int act_expect(nv_run *r, const cg_scene_action *x)
{
    uint32_t v = 0;
    int rc = cg_vas_cpu_read(cg_nv_as_vas(r->as), (uint64_t)x->a, &v, 4);
    if (rc)
        return act_fail(r, x, rc, ".expect32");
    if (v != (uint32_t)x->b) {
        logf_(r, "FAIL expect32 0x%010llx: 0x%08x, expected 0x%08x\n", (unsigned long long)x->a, v,
              (uint32_t)x->b);
        r->failed = true;
    } else {
        logf_(r, "expect32 0x%010llx: 0x%08x ok\n", (unsigned long long)x->a, v);
    }
    return 0;
}

/* .dump VA, SIZE, "FILE" and .png VA, W, H, PITCH, "FORMAT", "FILE"; the
 * --dump options are .dump actions made by finish. */
static int act_file(nv_run *r, const cg_scene_action *x, bool named_by_user)
{
    uint64_t size = (uint64_t)x->b;
    uint32_t w = 0, h = 0;
    if (x->kind == NV_SA_PNG) {
        w = (uint32_t)x->b, h = (uint32_t)((uint64_t)x->b >> 32);
        size = (uint64_t)x->c * h;
    }
    uint8_t *buf = malloc(size ? size : 1);
    if (!buf)
        return act_fail(r, x, CG_ERR_NOMEM, "dump");
    int rc = cg_vas_cpu_read(cg_nv_as_vas(r->as), (uint64_t)x->a, buf, size);
    char name[NV_PATH_MAX + 1], path[1024];
    cg_scene_str(x->str2, x->str2_len, name, sizeof name);
    const char *why = NULL;
    cg_scene_opts po = *r->o; /* --dump names a file of the user's: never confined */
    po.confine_outputs &= !named_by_user;
    if (cg_scene_out_path(&po, name, path, sizeof path, &why) != 0) {
        /* a capture's file name: the line the run prints, without the file */
        if (!rc && x->kind == NV_SA_DUMP)
            logf_(r, "dump 0x%010llx +0x%llx -> %s: %s\n", (unsigned long long)x->a,
                  (unsigned long long)size, path, why);
        else if (!rc) {
            cg_image img = {w, h, (size_t)x->c, (cg_format)x->d, buf};
            logf_(r, "png %s: %ux%u hash %016llx, %s\n", path, w, h,
                  (unsigned long long)cg_image_hash(&img), why);
        }
        free(buf);
        return rc ? act_fail(r, x, rc, x->kind == NV_SA_DUMP ? ".dump" : ".png") : 0;
    }
    if (!rc && x->kind == NV_SA_DUMP) {
        FILE *f = strcmp(path, "-") == 0 ? stdout : cg__out_open(path);
        if (!f || fwrite(buf, 1, size, f) != size)
            rc = CG_ERR_IO;
        if (f && (f == stdout ? fflush(f) != 0 : cg__out_close(f, path, rc) != 0))
            rc = CG_ERR_IO;
    } else if (!rc) {
        cg_image img = {w, h, (size_t)x->c, (cg_format)x->d, buf};
        rc = cg_image_write_png(path, &img);
        if (!rc)
            logf_(r, "png %s: %ux%u hash %016llx\n", path, w, h,
                  (unsigned long long)cg_image_hash(&img));
    }
    free(buf);
    if (rc)
        return act_fail(r, x, rc, x->kind == NV_SA_DUMP ? ".dump" : ".png");
    if (x->kind == NV_SA_DUMP)
        logf_(r, "dump 0x%010llx +0x%llx -> %s\n", (unsigned long long)x->a,
              (unsigned long long)size, path);
    return 0;
}

/* .unmap VA: the .buffer at VA is unmapped and its memory freed (a
 * session's GEM_CLOSE). */
static int act_unmap(nv_run *r, const cg_scene_action *x)
{
    for (size_t i = 0; i < r->nbufs; i++)
        if (r->bufs[i].va == (uint64_t)x->a) {
            struct nv_buf b = r->bufs[i];
            r->bufs[i] = r->bufs[--r->nbufs];
            int rc = cg_nv_as_unmap(r->as, b.va);
            if (!rc)
                rc = cg_nv_as_free_space(r->as, b.va, (uint32_t)(b.size >> 12), 0x1000);
            if (!rc)
                rc = cg_nv_nvmap_free(r->gpu, b.h);
            return rc ? act_fail(r, x, rc, ".unmap") : 0;
        }
    return act_fail(r, x, CG_ERR_NOENT, ".unmap: no .buffer at that address");
}

/* .close_channel N: the channel is closed (a session's CHANNEL_FREE). */
static int act_close_channel(nv_run *r, const cg_scene_action *x)
{
    cg_nv_channel *ch = r->ch[x->a];
    if (!ch)
        return act_fail(r, x, CG_ERR_NOENT, ".close_channel: the channel is not open");
    if (r->cur == ch)
        r->cur = NULL;
    cg_nv_channel_close(ch);
    r->ch[x->a] = NULL;
    return 0;
}

/* .expect_hash VA, SIZE, HASH: FNV-1a 64 of the bytes as the CPU reads
 * them (a session records one for each buffer it frees). */
static int act_expect_hash(nv_run *r, const cg_scene_action *x)
{
    uint8_t buf[4096];
    uint64_t h = CG_CAPFILE_HASH0, va = (uint64_t)x->a, left = (uint64_t)x->b;
    while (left) {
        size_t n = left < sizeof buf ? (size_t)left : sizeof buf;
        int rc = cg_vas_cpu_read(cg_nv_as_vas(r->as), va, buf, n);
        if (rc)
            return act_fail(r, x, rc, ".expect_hash");
        h = cg_capfile_hash(h, buf, n);
        va += n, left -= n;
    }
    if (h != (uint64_t)x->c) {
        logf_(r, "FAIL expect_hash 0x%010llx +0x%llx: %016llx, expected %016llx\n",
              (unsigned long long)x->a, (unsigned long long)x->b, (unsigned long long)h,
              (unsigned long long)x->c);
        r->failed = true;
    }
    return 0;
}

static int nv_act(void *run, const cg_scene_action *x)
{
    nv_run *r = run;
    int rc = 0;
    switch (x->kind) {
    case NV_SA_BUFFER: return 0; /* made before the sections were placed */
    case NV_SA_CHANNEL:
        rc = select_channel(r, (unsigned)x->a);
        return rc ? act_fail(r, x, rc, ".channel") : 0;
    case NV_SA_CLOSE_CHANNEL: return act_close_channel(r, x);
    case NV_SA_SUBMIT:
        return r->cur ? act_submit(r, x) : act_fail(r, x, CG_ERR_INVAL, ".submit: no channel");
    case NV_SA_RUN: return cg_nv_gpu_run(r->gpu) < 0 ? act_fail(r, x, CG_ERR_INVAL, ".run") : 0;
    case NV_SA_FINISH:
        return cg_nv_gpu_finish(r->gpu) < 0 ? act_fail(r, x, CG_ERR_INVAL, ".finish") : 0;
    case NV_SA_WAIT: return act_wait(r, x);
    case NV_SA_CPU_WRITE32: {
        uint32_t v = (uint32_t)x->b;
        rc = cg_vas_cpu_write(cg_nv_as_vas(r->as), (uint64_t)x->a, &v, 4);
        return rc ? act_fail(r, x, rc, ".cpu_write32") : 0;
    }
    case NV_SA_EXPECT32: return act_expect(r, x);
    case NV_SA_DUMP:
    case NV_SA_PNG: return act_file(r, x, false);
    case NV_SA_UNMAP: return act_unmap(r, x);
    case NV_SA_EXPECT_HASH: return act_expect_hash(r, x);
    default: return 0;
    }
}

/* -o: render target 0 of channel 0 as it stands now. */
static int write_rt0(nv_run *r)
{
    uint8_t *rgba = NULL;
    uint32_t w = 0, h = 0;
    int rc = r->ch[0] ? nv_pipeline_rt_rgba8(r->ch[0], 0, &rgba, &w, &h) : CG_ERR_INVAL;
    if (!rc) {
        cg_image img = {w, h, (size_t)w * 4, CG_FORMAT_RGBA8888, rgba};
        rc = cg_image_write_png(r->o->frame_png, &img);
    }
    if (rc)
        logf_(r, "%s: -o %s: render target 0 %s\n", r->path, r->o->frame_png,
              rc == CG_ERR_IO ? "could not be written"
                              : "is not a colour target the model reads (FORMAT, size)");
    free(rgba);
    return rc ? CG_ERR_IO : 0;
}

/* The GPU finishes what is queued (an unsatisfiable wait hangs), then the
 * --dump files, -o, the fault lines. Any fault, even a warning, fails an
 * nv scene, as it always has (docs/nv.md). */
static int nv_finish(void *run, int rc)
{
    nv_run *r = run;
    cg_nv_gpu_finish(r->gpu);
    for (size_t i = 0; i < r->o->ndumps; i++) {
        const cg_scene_dump *d = &r->o->dumps[i];
        const char *p = d->path ? d->path : "-";
        cg_scene_action x = {.kind = NV_SA_DUMP, .index = (uint32_t)i, .a = (int64_t)d->addr,
                             .b = (int64_t)d->size, .str2 = p, .str2_len = strlen(p)};
        int drc = d->size > (256u << 20) ? CG_ERR_RANGE : act_file(r, &x, true);
        if (drc && !rc)
            rc = drc;
    }
    if (r->o->frame_png && write_rt0(r) && !rc)
        rc = CG_ERR_IO;
    if (r->o->draws)
        fputs(r->ndraws ? "\n]}\n" : "]}\n", r->o->draws);
    size_t nf = cg_fault_count(r->dev);
    for (size_t i = r->faults_before; i < nf; i++) {
        char line[512];
        cg_fault_format(cg_fault_get(r->dev, i), line, sizeof line);
        logf_(r, "%s\n", line);
    }
    if (rc == CG_ERR_IO || r->tex_failed)
        return CG_ERR_IO;
    return rc || r->failed || nf > r->faults_before ? 1 : 0;
}

static int nv_peek(void *run, uint64_t addr, void *dst, size_t n)
{
    return cg__vas_peek(cg_nv_as_vas(((nv_run *)run)->as), addr, dst, n);
}

static void nv_close(void *run)
{
    nv_run *r = run;
    cg_nv_gpu_destroy(r->gpu);
    free(r->tics);
    free(r->bufs);
    free(r);
}

/* What the assembler lets through, where a hostile value would index out
 * of range or allocate without bound. */
static bool slots_ok(const cg_scene_action *a)
{
    return a->s1 >= -1 && a->s1 < NV_SCENE_FENCES && a->s2 >= -1 && a->s2 < NV_SCENE_FENCES;
}
static bool sane_channel(const cg_scene_action *a) { return slots_ok(a) && (uint64_t)a->a < 8; }
static bool sane_wait(const cg_scene_action *a)
{
    return slots_ok(a) && (uint64_t)a->a < NV_SCENE_FENCES;
}
static bool sane_submit(const cg_scene_action *a)
{
    return slots_ok(a) && (uint64_t)a->b >= (uint64_t)a->a;
}
static bool sane_dump(const cg_scene_action *a)
{
    return slots_ok(a) && (uint64_t)a->b <= (256u << 20);
}
static bool sane_png(const cg_scene_action *a)
{
    uint64_t h = (uint64_t)a->b >> 32, w = (uint32_t)a->b, c = (uint64_t)a->c;
    return slots_ok(a) && c <= (1u << 20) && h <= (1u << 16) && w <= (1u << 16) &&
           c * h <= (256u << 20);
}
static bool sane_any(const cg_scene_action *a) { return slots_ok(a); }
static bool sane_hash(const cg_scene_action *a)
{
    return slots_ok(a) && (uint64_t)a->b <= (4ull << 30);
}

static const cg_scene_kind nv_kinds[] = {
#define NV_X_KIND(name, code, role, sane)                                                   \
    {code, "NV_ACT_" #name, CG_SCENE_##role,                                               \
     CG_SCENE_##role == CG_SCENE_SUBMIT ? CG_STREAM_A_B : CG_STREAM_NONE, NV_NAME_MAX,       \
     NV_PATH_MAX, sane},
    NV_SCENE_ACTIONS(NV_X_KIND)
#undef NV_X_KIND
};

/* The pushbuffer words a .submit's GPFIFO entry points at, for listings
 * of captures. */
static int nv_disasm_stream(const cg_capfile *c, const cg_text_opts *o, uint64_t addr,
                            const uint8_t *data, size_t size, FILE *out)
{
    (void)c;
    cg_text_opts x = *o;
    x.base = addr;
    x.subch = NULL;
    return cg_nv_family.formats[0]->disasm(&x, data, size, out);
}

static const cg_scene_config_key nv_config[] = {
    {NV_CFG_NVSW, "nv.nvsw", "1: subchannels 5-7 go to the kernel's software object (a session "
                             "libcmdgpu-drm recorded)"},
};

const cg_scene_ops nv_scene_ops = {
    .kinds = nv_kinds,
    .nkinds = CG_ARRAY_SIZE(nv_kinds),
    .config = nv_config,
    .nconfig = CG_ARRAY_SIZE(nv_config),
    .takes = CG_SCENE_OPT_FRAME | CG_SCENE_OPT_DUMPS | CG_SCENE_OPT_DRAWS | CG_SCENE_OPT_OUT_DIR,
    .assembler = nv_scene_assembler,
    .open = nv_open,
    .map = nv_map,
    .place = nv_place,
    .act = nv_act,
    .finish = nv_finish,
    .disasm_stream = nv_disasm_stream,
    .peek = nv_peek,
    .close = nv_close,
};
