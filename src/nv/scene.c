/* nv: scenes. A scene is nv assembler text whose sections are placed in GPU
 * memory and whose directives (.buffer, .channel, .submit, .run, .finish,
 * .wait, .cpu_write32, .expect32, .dump, .png) drive the driver API in
 * order; see docs/nv.md. */
#include <stdlib.h>
#include <string.h>
#include "cmdgpu/asm.h"
#include "cmdgpu/image.h"
#include "cmdgpu/nv3d.h"
#include "nv/text/nv_asm_internal.h"
#include "nv/gpu/pipeline.h"
#include "core/image_internal.h"

typedef struct scene {
    cg_device *dev;
    cg_nv_gpu *gpu;
    cg_nv_as *as;
    cg_nv_channel *ch[8];
    cg_nv_channel *cur;
    cg_nv_fence fences[NV_SCENE_FENCES];
    bool fence_set[NV_SCENE_FENCES];
    const cg_nv_scene_opts *o;
    const char *path;
    int failed;
} scene;

static void logf_(scene *s, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
#include <stdarg.h>
static void logf_(scene *s, const char *fmt, ...)
{
    if (!s->o || !s->o->log)
        return;
    va_list ap;
    va_start(ap, fmt);
    vfprintf(s->o->log, fmt, ap);
    va_end(ap);
}

static void out_path(scene *s, const char *name, char *buf, size_t cap)
{
    if (name[0] == '/' || !s->o || !s->o->out_dir)
        snprintf(buf, cap, "%s", name);
    else
        snprintf(buf, cap, "%s/%s", s->o->out_dir, name);
}

static int act_fail(scene *s, const nv_act *x, int rc, const char *what)
{
    logf_(s, "FAIL %s: action #%u (%s) failed: %s%s%s\n", s->path, x->line, what, cg_strerror(rc),
          cg_nv_gpu_last_error(s->gpu)[0] ? ": " : "", cg_nv_gpu_last_error(s->gpu));
    return rc;
}

static int do_buffer(scene *s, const nv_act *x)
{
    uint32_t h;
    if (x->b == 0 || x->b > 0xFFFFF000u || (x->a & 0xFFF))
        return act_fail(s, x, CG_ERR_INVAL, ".buffer: size 0 or >= 4 GiB, or VA not page aligned");
    int rc = cg_nv_nvmap_create(s->gpu, (uint32_t)x->b, &h);
    if (!rc)
        rc = cg_nv_nvmap_alloc(s->gpu, h, CG_NV_NVMAP_HEAP_IOVMM,
                               x->d ? CG_NV_NVMAP_CACHEABLE : CG_NV_NVMAP_UNCACHEABLE, 0x1000,
                               (uint8_t)x->c);
    uint64_t size = (x->b + 0xFFF) & ~0xFFFull;
    uint64_t va = x->a;
    if (!rc)
        rc = cg_nv_as_alloc_space(s->as, (uint32_t)(size >> 12), 0x1000, CG_NV_AS_FIXED, &va);
    if (!rc)
        rc = cg_nv_as_map_buffer_ex(s->as, CG_NV_AS_FIXED | (x->d ? CG_NV_AS_CACHEABLE : 0),
                                    (int32_t)x->c, h, 0x1000, 0, size, &va);
    if (rc)
        return act_fail(s, x, rc, ".buffer");
    logf_(s, "buffer %s: 0x%010llx, 0x%llx bytes\n", x->name, (unsigned long long)va,
          (unsigned long long)size);
    return 0;
}

static int select_channel(scene *s, unsigned n)
{
    if (!s->ch[n]) {
        int rc = cg_nv_channel_open(s->gpu, s->as, 0, &s->ch[n]);
        if (rc)
            return rc;
    }
    s->cur = s->ch[n];
    return 0;
}

static int do_act(scene *s, const nv_act *x)
{
    int rc = 0;
    switch (x->kind) {
    case NV_ACT_BUFFER:
        return 0; /* done before the sections were placed */
    case NV_ACT_CHANNEL:
        rc = select_channel(s, (unsigned)x->a);
        return rc ? act_fail(s, x, rc, ".channel") : 0;
    case NV_ACT_SUBMIT: {
        uint64_t e = cg_nv_gp_entry(x->a, (uint32_t)((x->b - x->a) / 4), 0);
        uint32_t flags = 0;
        cg_nv_fence f = {0, 0};
        if (x->wait_slot >= 0) {
            if (!s->fence_set[x->wait_slot])
                return act_fail(s, x, CG_ERR_INVAL, ".submit wait= names an unset fence slot");
            f = s->fences[x->wait_slot];
            flags |= CG_NV_SUBMIT_FENCE_WAIT;
        }
        if (x->fence_slot >= 0)
            flags |= CG_NV_SUBMIT_FENCE_INCREMENT;
        if ((x->b - x->a) / 4 >= (1u << 21))
            return act_fail(s, x, CG_ERR_RANGE, ".submit: more than 2^21-1 words");
        rc = cg_nv_channel_submit_gpfifo(s->cur, &e, 1, flags, &f);
        if (rc)
            return act_fail(s, x, rc, ".submit");
        if (x->fence_slot >= 0) {
            s->fences[x->fence_slot] = f;
            s->fence_set[x->fence_slot] = true;
            logf_(s, "submit 0x%010llx..0x%010llx on channel %d: fence %d = syncpoint %u value %u\n",
                  (unsigned long long)x->a, (unsigned long long)x->b, cg_nv_channel_id(s->cur),
                  x->fence_slot, f.id, f.value);
        }
        return 0;
    }
    case NV_ACT_RUN:
        return cg_nv_gpu_run(s->gpu) < 0 ? act_fail(s, x, CG_ERR_INVAL, ".run") : 0;
    case NV_ACT_FINISH:
        return cg_nv_gpu_finish(s->gpu) < 0 ? act_fail(s, x, CG_ERR_INVAL, ".finish") : 0;
    case NV_ACT_WAIT:
        if (!s->fence_set[x->a])
            return act_fail(s, x, CG_ERR_INVAL, ".wait on an unset fence slot");
        rc = cg_nv_fence_wait(s->gpu, s->fences[x->a], (uint32_t)x->b);
        if (rc) {
            logf_(s, "fence %llu (syncpoint %u value %u) not reached: syncpoint is %u\n",
                  (unsigned long long)x->a, s->fences[x->a].id, s->fences[x->a].value,
                  cg_nv_syncpt_read(s->gpu, s->fences[x->a].id));
            s->failed = 1;
            return 0;
        }
        logf_(s, "fence %llu reached\n", (unsigned long long)x->a);
        return 0;
    case NV_ACT_CPU_WRITE32: {
        uint32_t v = (uint32_t)x->b;
        rc = cg_vas_cpu_write(cg_nv_as_vas(s->as), x->a, &v, 4);
        return rc ? act_fail(s, x, rc, ".cpu_write32") : 0;
    }
    case NV_ACT_EXPECT32: {
        uint32_t v = 0;
        rc = cg_vas_cpu_read(cg_nv_as_vas(s->as), x->a, &v, 4);
        if (rc)
            return act_fail(s, x, rc, ".expect32");
        if (v != (uint32_t)x->b) {
            logf_(s, "FAIL expect32 0x%010llx: 0x%08x, expected 0x%08x\n",
                  (unsigned long long)x->a, v, (uint32_t)x->b);
            s->failed = 1;
        } else {
            logf_(s, "expect32 0x%010llx: 0x%08x ok\n", (unsigned long long)x->a, v);
        }
        return 0;
    }
    case NV_ACT_DUMP:
    case NV_ACT_PNG: {
        uint64_t size = x->b;
        uint32_t w = 0, h = 0;
        if (x->kind == NV_ACT_PNG) {
            w = (uint32_t)x->b, h = (uint32_t)(x->b >> 32);
            size = x->c * h;
        }
        uint8_t *buf = malloc(size ? size : 1);
        if (!buf)
            return act_fail(s, x, CG_ERR_NOMEM, "dump");
        rc = cg_vas_cpu_read(cg_nv_as_vas(s->as), x->a, buf, size);
        char path[1024];
        out_path(s, x->path, path, sizeof(path));
        if (!rc && x->kind == NV_ACT_DUMP) {
            FILE *f = strcmp(path, "-") == 0 ? stdout : cg__out_open(path);
            if (!f || fwrite(buf, 1, size, f) != size)
                rc = CG_ERR_IO;
            if (f && (f == stdout ? fflush(f) != 0 : cg__out_close(f, path, rc) != 0))
                rc = CG_ERR_IO;
        } else if (!rc) {
            cg_image img = {w, h, x->c, (cg_format)x->d, buf};
            rc = cg_image_write_png(path, &img);
            if (!rc)
                logf_(s, "png %s: %ux%u hash %016llx\n", path, w, h,
                      (unsigned long long)cg_image_hash(&img));
        }
        free(buf);
        if (rc)
            return act_fail(s, x, rc, x->kind == NV_ACT_DUMP ? ".dump" : ".png");
        if (x->kind == NV_ACT_DUMP)
            logf_(s, "dump 0x%010llx +0x%llx -> %s\n", (unsigned long long)x->a,
                  (unsigned long long)size, path);
        return 0;
    }
    }
    return 0;
}

int nv_scene_assemble(const char *path, const char *text, size_t len, FILE *log,
                      cg_nv_asm **na, cg_asm **as)
{
    *na = NULL;
    *as = NULL;
    int rc = cg_nv_asm_new(NULL, na);
    if (!rc)
        rc = cg_asm_create(cg_nv_asm_family(), *na, as);
    if (!rc)
        rc = text ? cg_asm_add_source(*as, path ? path : "scene", text, len)
                  : cg_asm_add_file(*as, path);
    if (!rc && cg_asm_assemble(*as) != 0) {
        if (log)
            fputs(cg_asm_errors(*as), log);
        rc = CG_ERR_SYNTAX;
    }
    if (!rc && (*na)->oom)
        rc = CG_ERR_NOMEM;
    if (rc) {
        cg_asm_destroy(*as);
        cg_nv_asm_free(*na);
        *na = NULL;
        *as = NULL;
    }
    return rc;
}

static int scene_run(cg_device *dev, const char *path, const char *text, size_t len,
                     const cg_nv_scene_opts *o, cg_nv_draw_fn draw_fn, void *draw_user)
{
    if (!dev || (!text && len))
        return CG_ERR_INVAL;
    cg_nv_asm *na = NULL;
    cg_asm *as = NULL;
    int rc = nv_scene_assemble(path, text, len, o ? o->log : NULL, &na, &as);
    return nv_scene_play(dev, path, rc, na, as, o, draw_fn, draw_user);
}

/* Play assembled actions (a capture's too: src/nv/capscene.c); frees na
 * and as. rc: the assembler's result (nothing runs unless 0). */
int nv_scene_play(cg_device *dev, const char *path, int rc, cg_nv_asm *na, cg_asm *as,
                  const cg_nv_scene_opts *o, cg_nv_draw_fn draw_fn, void *draw_user)
{
    scene s = {.dev = dev, .o = o, .path = path ? path : "scene"};
    if (!rc)
        rc = cg_nv_gpu_create(dev, &s.gpu);
    if (!rc)
        cg_nv_gpu_set_draw_callback(s.gpu, draw_fn, draw_user);
    if (!rc)
        rc = cg_nv_as_create(s.gpu, 0, &s.as);
    if (!rc)
        rc = select_channel(&s, 0);
    for (size_t i = 0; !rc && i < na->nacts; i++) {
        na->acts[i].line = (unsigned)i;
        if (na->acts[i].kind == NV_ACT_BUFFER)
            rc = do_buffer(&s, &na->acts[i]);
    }
    /* place every section at its base address */
    for (size_t i = 0; !rc && i < cg_asm_section_count(as); i++) {
        const char *name;
        uint64_t base;
        const uint8_t *data;
        size_t size;
        cg_asm_section(as, i, &name, &base, &data, &size);
        if (!size)
            continue;
        rc = cg_vas_cpu_write(cg_nv_as_vas(s.as), base, data, size);
        if (rc) {
            logf_(&s, "%s: section '%s' [0x%llx, +0x%zx) is not inside a .buffer\n", s.path, name,
                  (unsigned long long)base, size);
            break;
        }
        /* CPU writes through cached buffers must reach the GPU */
        cg_vas_cpu_flush(cg_nv_as_vas(s.as), base, size);
    }
    for (size_t i = 0; !rc && i < na->nacts; i++)
        rc = do_act(&s, &na->acts[i]);
    if (s.gpu)
        cg_nv_gpu_finish(s.gpu); /* nothing stays queued; unsatisfiable waits hang */
    if (s.as) /* a capture hashes the final memory (before --dump files are written) */
        cg__scene_end(dev, cg__vas_peek, cg_nv_as_vas(s.as));
    for (size_t i = 0; s.gpu && s.as && o && i < o->ndumps; i++) {
        nv_act x = {.kind = NV_ACT_DUMP, .line = (unsigned)i, .a = o->dumps[i].va,
                    .b = o->dumps[i].size};
        snprintf(x.path, sizeof(x.path), "%s", o->dumps[i].path ? o->dumps[i].path : "-");
        int drc = x.b > (256u << 20) ? CG_ERR_RANGE : do_act(&s, &x);
        if (drc && !rc)
            rc = drc;
    }
    if (s.gpu && o && o->rt0_png) { /* -o: render target 0 as it stands now */
        uint8_t *rgba = NULL;
        uint32_t w = 0, h = 0;
        int prc = s.ch[0] ? nv_pipeline_rt_rgba8(s.ch[0], 0, &rgba, &w, &h) : CG_ERR_INVAL;
        if (!prc) {
            cg_image img = {w, h, (size_t)w * 4, CG_FORMAT_RGBA8888, rgba};
            prc = cg_image_write_png(o->rt0_png, &img);
        }
        if (prc)
            logf_(&s, "%s: -o %s: render target 0 %s\n", s.path, o->rt0_png,
                  prc == CG_ERR_IO ? "could not be written"
                                   : "is not a colour target the model reads (FORMAT, size)");
        free(rgba);
        if (prc && !rc)
            rc = CG_ERR_IO;
    }
    if (!rc && (s.failed || cg_fault_count(dev) > 0))
        rc = CG_ERR_FAULT;
    cg_nv_gpu_destroy(s.gpu);
    cg_asm_destroy(as);
    cg_nv_asm_free(na);
    return rc;
}

int cg_nv_scene_run(cg_device *dev, const char *path, const char *text, size_t len,
                    const cg_nv_scene_opts *o)
{
    return scene_run(dev, path, text, len, o, NULL, NULL);
}

int cg_nv_scene_run_draws(cg_device *dev, const char *path, const char *text, size_t len,
                          const struct cg_nv_scene_opts *o, cg_nv_draw_fn fn, void *user)
{
    return scene_run(dev, path, text, len, o, fn, user);
}
