/* vc4 family: scenes (cmdgpu run -f vc4) through the core's runner
 * (include/cmdgpu/scene.h): every section is loaded at its bus address
 * through the ARM's view, then the recorded directives play in order,
 * logging each, the way the seed's bare-metal program drives the chip
 * (mailbox calls, list patching, CTnCA/CTnEA kicks, waits on BFC/RFC,
 * reading the frame buffer). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "scene.h"
#include "core/image_internal.h"
#include "core/internal.h"

/* The frame buffer as it lies in SDRAM (the memory the display reads, not
 * the ARM's cache): `.png`, `.expect_hash`, the final hash line and -o all
 * use one hash and one PNG encoding (written to each distinct file) until a
 * directive that can change memory runs. Both read the rows straight out of
 * the model's pages (cg__mem_span; a row across a page boundary is copied
 * into `row`), not out of a copy of the whole buffer, whose 1.2 MB of fresh
 * pages the kernel would fault in one by one. */
typedef struct fb_cache {
    bool valid;
    cg_vc4_fb fb;
    int rc; /* of the checks */
    cg_mem *sdram;
    uint32_t base; /* offset of the first row in sdram */
    cg__image_rows rows;
    uint8_t *row; /* one row's bytes */
    bool hashed;
    uint64_t hash;
    char *png; /* the encoded file, once encoded */
    size_t png_len;
    char last[1024]; /* the last file written from this buffer */
} fb_cache;

static void fbc_drop(fb_cache *c)
{
    free(c->row);
    free(c->png);
    *c = (fb_cache){0};
}

static const uint8_t *fbc_row(void *user, uint32_t y, uint8_t *scratch)
{
    const fb_cache *c = user;
    return cg__mem_span(c->sdram, (uint64_t)c->base + (uint64_t)y * c->fb.pitch,
                        (size_t)c->rows.width * (c->fb.depth / 8), scratch);
}

/* The checks vc4_fb_image makes, with its return codes. */
static int fbc_open(fb_cache *c, cg_vc4 *v)
{
    const cg_vc4_fb *fb = &c->fb;
    if (!fb->width || !fb->height || fb->width > 65535 || fb->height > 65535)
        return CG_ERR_INVAL;
    cg_format f;
    unsigned bpp;
    if (fb->depth == 32)
        f = CG_FORMAT_BGRA8888, bpp = 4;
    else if (fb->depth == 16)
        f = CG_FORMAT_RGB565, bpp = 2;
    else
        return CG_ERR_UNSUPPORTED;
    if (fb->pitch < fb->width * bpp)
        return CG_ERR_INVAL;
    uint64_t n = (uint64_t)fb->pitch * (fb->height - 1) + (uint64_t)fb->width * bpp;
    c->sdram = cg_vc4_sdram(v);
    c->base = fb->bus_addr & 0x3FFFFFFFu;
    if (c->base + n > v->cfg.sdram_size || c->base + n > cg_mem_size(c->sdram))
        return CG_ERR_RANGE;
    c->row = malloc((size_t)fb->width * bpp);
    if (!c->row)
        return CG_ERR_NOMEM;
    c->rows = (cg__image_rows){fb->width, fb->height, f, fbc_row, c};
    return 0;
}

static int fbc_get(fb_cache *c, cg_vc4 *v, const cg_vc4_fb *fb)
{
    if (c->valid && c->fb.bus_addr == fb->bus_addr && c->fb.width == fb->width &&
        c->fb.height == fb->height && c->fb.pitch == fb->pitch && c->fb.depth == fb->depth)
        return c->rc;
    fbc_drop(c);
    c->valid = true;
    c->fb = *fb;
    c->rc = fbc_open(c, v);
    return c->rc;
}

static int fbc_hash(fb_cache *c, cg_vc4 *v, const cg_vc4_fb *fb, uint64_t *h)
{
    int rc = fbc_get(c, v, fb);
    if (rc == 0 && !c->hashed) {
        c->hash = cg__image_hash_rows(&c->rows, c->row);
        c->hashed = true;
    }
    *h = rc == 0 ? c->hash : 0;
    return rc;
}

/* Write the frame buffer as a PNG to path ("-": stdout): encoded once per
 * copy; the same file twice in a row is written once. CG_ERR_IO when the
 * file cannot be created or written in full. */
static int fbc_png(fb_cache *c, cg_vc4 *v, const cg_vc4_fb *fb, const char *path)
{
    int rc = fbc_get(c, v, fb);
    if (rc != 0)
        return rc;
    if (strcmp(path, "-") != 0 && strcmp(path, c->last) == 0)
        return 0;
    if (!c->png) {
        FILE *m = open_memstream(&c->png, &c->png_len);
        if (!m)
            return CG_ERR_NOMEM;
        rc = cg__image_write_png_rows(m, &c->rows, c->row);
        if (fclose(m) != 0 && rc == 0)
            rc = CG_ERR_NOMEM;
        if (rc != 0) {
            free(c->png);
            c->png = NULL;
            return rc;
        }
    }
    bool out = strcmp(path, "-") == 0;
    FILE *f = out ? stdout : cg__out_open(path); /* (not truncated first: image_internal.h) */
    if (!f)
        return CG_ERR_IO;
    rc = fwrite(c->png, 1, c->png_len, f) == c->png_len ? 0 : CG_ERR_IO;
    if (out ? fflush(f) != 0 : cg__out_close(f, path, rc) != 0)
        rc = CG_ERR_IO;
    if (rc == 0 && !out)
        snprintf(c->last, sizeof c->last, "%s", path);
    return rc;
}

static int mem_reader(void *user, uint32_t addr, void *dst, size_t n)
{
    cg_vc4 *v = user;
    uint64_t bad;
    if (cg_vas_check(cg_vc4_bus(v), addr, n, false, &bad) != CG_FAULT_NONE)
        return CG_ERR_RANGE;
    return cg_mem_read(cg_vc4_sdram(v), addr & 0x3FFFFFFFu, dst, n);
}

typedef struct vc4_run {
    cg_device *dev;
    const cg_scene_opts *o;
    FILE *log;
    cg_vc4 *v;
    int fails;
    bool io; /* an output file could not be written: CG_ERR_IO */
    /* The last frame a `.png`/`.expect_hash` named explicitly: what -o
     * writes when the scene allocated no frame buffer through the mailbox
     * (GL scenes render to a buffer of their own). */
    cg_vc4_fb named_fb;
    bool have_named_fb;
    fb_cache fbc;
    size_t faults_before;
} vc4_run;

static int vc4_open(const cg_scene *sc, cg_device *dev, const cg_scene_opts *o, void **out)
{
    uint64_t cached = 0;
    cg_scene_config(sc, VC4_CFG_CPU_CACHED, &cached);
    vc4_run *r = calloc(1, sizeof *r);
    if (!r)
        return CG_ERR_NOMEM;
    *r = (vc4_run){.dev = dev, .o = o, .log = o->log ? o->log : stderr,
                   .faults_before = cg_fault_count(dev)};
    cg_vc4_config cfg = {.cpu_cached = cached != 0};
    int rc = cg_vc4_create(dev, &cfg, &r->v);
    if (rc) {
        free(r);
        return rc;
    }
    *out = r;
    return 0;
}

static int vc4_place(void *run, const char *name, uint64_t base, const uint8_t *data, size_t size)
{
    vc4_run *r = run;
    if (base <= 0xFFFFFFFFu && cg_vc4_cpu_write(r->v, (uint32_t)base, data, size) == 0)
        return 0;
    fprintf(r->log, "FAIL section %s at 0x%" PRIx64 " (%zu bytes) is not in SDRAM (%u MiB)\n",
            name, base, size, 64u);
    r->fails++;
    return 1;
}

/* .mailbox: a property call through the ARM's mailbox, its response code
 * read back as the ARM would (after invalidating its cache). */
static int act_mailbox(vc4_run *r, const cg_scene_action *a)
{
    uint32_t msg = ((uint32_t)a->a & ~0xFu) | CG_VC4_MBOX_CH_PROPERTY, resp = 0, code = 0;
    cg_vc4_mmio_write(r->v, CG_VC4_MBOX_BASE + CG_VC4_MBOX_WRITE, msg);
    cg_vc4_mmio_read(r->v, CG_VC4_MBOX_BASE + CG_VC4_MBOX_READ, &resp);
    /* a buffer the ARM cannot read (outside SDRAM) shows code 0 */
    cg_vc4_cpu_invalidate(r->v, (uint32_t)a->a, 8);
    cg_vc4_cpu_read32(r->v, (uint32_t)a->a + 4, &code);
    fprintf(r->log, "mailbox 0x%08x: response 0x%08x, code 0x%08x\n", msg, resp, code);
    if (code == (uint32_t)a->b)
        return 0;
    fprintf(r->log, "FAIL mailbox buffer at 0x%08x: code 0x%08x, want 0x%08x\n", (uint32_t)a->a,
            code, (uint32_t)a->b);
    return 1;
}

static int act_wait(vc4_run *r, const cg_scene_action *a)
{
    uint32_t val;
    if (a->a == 2) {
        /* A thread that faulted or hung has its fault in the device log,
         * which is printed and counted at the end; the scene goes on, so it
         * can reset the thread and run more work on the same device (the
         * hostile-input catalog does). */
        int rc = cg_vc4_wait_idle(r->v);
        fprintf(r->log, "wait idle: %s\n", rc == 0 ? "ok" : cg_strerror(rc));
        return rc == CG_ERR_NOMEM;
    }
    cg_vc4_run(r->v);
    cg_vc4_reg_read(r->v, a->a ? CG_VC4_RFC : CG_VC4_BFC, &val);
    if (val != (uint32_t)(a->b & 0xFF)) {
        /* the CPU would spin forever: the watchdog ends it */
        cg_vc4_wait_idle(r->v);
        fprintf(r->log, "FAIL wait %s == %u: it is %u and nothing runs\n", a->a ? "RFC" : "BFC",
                (uint32_t)a->b, val);
        return 1;
    }
    fprintf(r->log, "wait %s == %u: ok\n", a->a ? "RFC" : "BFC", val);
    return 0;
}

static int act_expect(vc4_run *r, const cg_scene_action *a)
{
    bool reg = a->kind == VA_EXPECT_REG;
    uint32_t val = 0;
    int rc = reg ? cg_vc4_reg_read(r->v, (uint32_t)a->a, &val)
                 : cg_vc4_cpu_read32(r->v, (uint32_t)a->a, &val);
    if (rc != 0 || val != (uint32_t)a->b) {
        fprintf(r->log, "FAIL expect %s 0x%08x: got 0x%08x, want 0x%08x\n", reg ? "reg" : "mem",
                (uint32_t)a->a, val, (uint32_t)a->b);
        return 1;
    }
    fprintf(r->log, "expect %s 0x%08x == 0x%08x: ok\n", reg ? "reg" : "mem", (uint32_t)a->a, val);
    return 0;
}

static void act_dump(vc4_run *r, const cg_scene_action *a)
{
    uint32_t val;
    for (int64_t k = 0; k < (a->b + 3) / 4; k++) {
        if (k % 8 == 0)
            fprintf(r->log, "%s0x%08x:", k ? "\n" : "", (uint32_t)(a->a + 4 * k));
        if (mem_reader(r->v, (uint32_t)(a->a + 4 * k), &val, 4) != 0) {
            fprintf(r->log, " (unmapped)");
            break;
        }
        fprintf(r->log, " %08x", val);
    }
    fprintf(r->log, "\n");
}

/* .png / .expect_hash: the firmware's frame buffer, or the frame the
 * directive names (n = 5: address, width, height, pitch, depth). */
static int act_frame(vc4_run *r, const cg_scene_action *a)
{
    cg_vc4_fb fb;
    if (a->n == 5) {
        fb.bus_addr = (uint32_t)a->a, fb.width = (uint32_t)a->b, fb.height = (uint32_t)a->c;
        fb.pitch = (uint32_t)a->d, fb.depth = (uint32_t)a->e;
        r->named_fb = fb;
        r->have_named_fb = true;
    } else if (cg_vc4_framebuffer(r->v, &fb) != 0) {
        fprintf(r->log, "FAIL %s: no framebuffer was allocated\n",
                a->kind == VA_PNG ? ".png" : ".expect_hash");
        return 1;
    }
    uint64_t h = 0;
    int rc = fbc_hash(&r->fbc, r->v, &fb, &h);
    if (a->kind == VA_EXPECT_HASH) {
        if (rc != 0 || h != (uint64_t)a->a) {
            fprintf(r->log, "FAIL expect_hash: got %016" PRIx64 ", want %016" PRIx64 "\n", h,
                    (uint64_t)a->a);
            return 1;
        }
        fprintf(r->log, "expect_hash %016" PRIx64 ": ok\n", h);
        return 0;
    }
    char name[VC4_TEXT_MAX + 1], path[1024];
    cg_scene_str(a->str1, a->str1_len, name, sizeof name);
    const char *dir = r->o->out_dir, *why = NULL;
    if (r->o->confine_outputs) { /* a capture's file name (scene.h) */
        if (cg_scene_out_path(r->o, name, path, sizeof path, &why) != 0) {
            if (rc == 0)
                fprintf(r->log, "png %s: %ux%u, pixel hash %016" PRIx64 ", %s\n", path,
                        fb.width, fb.height, h, why);
            else
                fprintf(r->log, "FAIL png %s: %s\n", path, cg_strerror(rc));
            return rc != 0;
        }
    } else
        snprintf(path, sizeof path, "%s%s%s", dir ? dir : "", dir ? "/" : "", name);
    if (rc == 0)
        rc = fbc_png(&r->fbc, r->v, &fb, path);
    if (rc == 0) {
        fprintf(r->log, "png %s: %ux%u, pixel hash %016" PRIx64 "\n", path, fb.width, fb.height,
                h);
        return 0;
    }
    fprintf(r->log, "FAIL png %s: %s\n", path, cg_strerror(rc));
    if (rc != CG_ERR_IO)
        return 1;
    r->io = true;
    return 0;
}

static int do_act(vc4_run *r, const cg_scene_action *a)
{
    uint32_t val;
    int rc;
    switch (a->kind) {
    case VA_MAILBOX: return act_mailbox(r, a);
    case VA_REG:
        rc = cg_vc4_reg_write(r->v, (uint32_t)a->a, (uint32_t)a->b);
        fprintf(r->log, "reg %s (0x%03x) = 0x%08x%s\n",
                cg_vc4_reg_name((uint32_t)a->a) ? cg_vc4_reg_name((uint32_t)a->a) : "?",
                (uint32_t)a->a, (uint32_t)a->b, rc == CG_ERR_RANGE ? ": not a register" : "");
        return rc == CG_ERR_RANGE;
    case VA_KICK:
        cg_vc4_reg_write(r->v, a->a ? CG_VC4_CT1CA : CG_VC4_CT0CA, (uint32_t)a->b);
        cg_vc4_reg_write(r->v, a->a ? CG_VC4_CT1EA : CG_VC4_CT0EA, (uint32_t)a->c);
        cg_vc4_reg_read(r->v, a->a ? CG_VC4_CT1CA : CG_VC4_CT0CA, &val);
        fprintf(r->log, "kick thread %d [0x%08x, 0x%08x): now at 0x%08x\n", (int)a->a,
                (uint32_t)a->b, (uint32_t)a->c, val);
        return 0;
    case VA_WAIT: return act_wait(r, a);
    case VA_COPY32:
        if (cg_vc4_cpu_read32(r->v, (uint32_t)a->b, &val) != 0 ||
            cg_vc4_cpu_write32(r->v, (uint32_t)a->a, val) != 0) {
            fprintf(r->log, "FAIL copy32 0x%08x <- 0x%08x: not in SDRAM\n", (uint32_t)a->a,
                    (uint32_t)a->b);
            return 1;
        }
        fprintf(r->log, "copy32 0x%08x <- [0x%08x] = 0x%08x\n", (uint32_t)a->a, (uint32_t)a->b,
                val);
        return 0;
    case VA_WRITE32:
        if (cg_vc4_cpu_write32(r->v, (uint32_t)a->a, (uint32_t)a->b) == 0)
            return 0;
        fprintf(r->log, "FAIL write32 0x%08x: not in SDRAM\n", (uint32_t)a->a);
        return 1;
    case VA_FLUSH:
        cg_vc4_cpu_flush(r->v, (uint32_t)a->a, (size_t)a->b);
        fprintf(r->log, "flush [0x%08x, +%u)\n", (uint32_t)a->a, (uint32_t)a->b);
        return 0;
    case VA_EXPECT32:
    case VA_EXPECT_REG: return act_expect(r, a);
    case VA_DUMP: act_dump(r, a); return 0;
    case VA_DUMP_CL: {
        cg_vc4_disasm_opts d = {.follow = true, .prim_format = 0x12};
        cg_vc4_cl_disasm_mem(&d, mem_reader, r->v, (uint32_t)a->a, (uint32_t)a->b, r->log);
        return 0;
    }
    case VA_PNG:
    case VA_EXPECT_HASH: return act_frame(r, a);
    default: return 0;
    }
}

static int vc4_act(void *run, const cg_scene_action *a)
{
    vc4_run *r = run;
    if (a->kind != VA_PNG && a->kind != VA_EXPECT_HASH)
        fbc_drop(&r->fbc); /* memory may change */
    int rc = do_act(r, a);
    r->fails += rc;
    return rc;
}

/* -o: the firmware's frame buffer, else the last frame a directive named. */
static void write_frame(vc4_run *r)
{
    const cg_scene_opts *o = r->o;
    cg_vc4_fb fb;
    bool have_fb = cg_vc4_framebuffer(r->v, &fb) == 0;
    if (have_fb) {
        uint64_t h = 0;
        if (fbc_hash(&r->fbc, r->v, &fb, &h) == 0) {
            fprintf(r->log, "framebuffer 0x%08x %ux%ux%u pitch %u: pixel hash %016" PRIx64 "\n",
                    fb.bus_addr, fb.width, fb.height, fb.depth, fb.pitch, h);
            if (o->frame_hash)
                *o->frame_hash = h;
        }
    } else if (r->have_named_fb) {
        fb = r->named_fb;
        have_fb = true;
    } else if (o->frame_png && !o->frame_optional) {
        fprintf(r->log, "FAIL %s: the scene allocated no frame buffer (mailbox) and named none "
                        "(.png ADDR, W, H, PITCH, DEPTH): nothing to write\n", o->frame_png);
        r->io = true;
    }
    if (have_fb && o->frame_png) {
        int rc = fbc_png(&r->fbc, r->v, &fb, o->frame_png);
        fprintf(r->log, "%swrote %s%s%s\n", rc ? "FAIL " : "", o->frame_png, rc ? ": " : "",
                rc ? cg_strerror(rc) : "");
        if (rc == CG_ERR_IO)
            r->io = true;
        else
            r->fails += rc != 0;
    }
}

/* The frame, the statistics line, then every fault of the run (warnings
 * do not fail it). */
static int vc4_finish(void *run, int rc)
{
    vc4_run *r = run;
    write_frame(r);
    cg_vc4_stats s;
    cg_vc4_get_stats(r->v, &s);
    fprintf(r->log, "stats: records %llu/%llu, triangles binned %llu, tile entries %llu, blocks "
                    "%llu, tiles stored %llu, fragments %llu\n",
            (unsigned long long)s.records[0], (unsigned long long)s.records[1],
            (unsigned long long)s.prims_binned, (unsigned long long)s.tile_prims,
            (unsigned long long)s.blocks, (unsigned long long)s.tiles_rendered,
            (unsigned long long)s.fragments);
    for (size_t i = r->faults_before; i < cg_fault_count(r->dev); i++) {
        const cg_fault *f = cg_fault_get(r->dev, i);
        char line[512];
        cg_fault_format(f, line, sizeof line);
        fprintf(r->log, "%s\n", line);
        if (!(f->flags & CG_FAULT_F_WARNING))
            r->fails++;
    }
    fbc_drop(&r->fbc);
    return rc < 0 ? rc : r->io ? CG_ERR_IO : r->fails ? 1 : 0;
}

/* The final memory for a capture: bus addresses, the alias bits 31:30
 * ignored. */
static int vc4_peek(void *run, uint64_t addr, void *dst, size_t n)
{
    vc4_run *r = run;
    if (addr > UINT32_MAX)
        return CG_ERR_RANGE;
    return cg_mem_read(cg_vc4_sdram(r->v), addr & 0x3FFFFFFFu, dst, n);
}

static void vc4_close(void *run)
{
    vc4_run *r = run;
    cg_vc4_destroy(r->v);
    free(r);
}

/* What the assembler lets through, where a hostile value would make the
 * runner loop long or index out of range. */
static bool sane_dump(const cg_scene_action *a) { return a->b >= 0 && a->b <= (64 << 20); }
static bool sane_u32_b(const cg_scene_action *a) { return a->b >= 0 && a->b <= UINT32_MAX; }
static bool sane_wait(const cg_scene_action *a) { return a->a >= 0 && a->a <= 2; }
static bool sane_frame(const cg_scene_action *a) { return a->n == 0 || a->n == 5; }

static const cg_scene_kind vc4_kinds[] = {
#define VC4_X_KIND(name, code, role, sane)                                                     \
    {code, "VA_" #name, CG_SCENE_##role,                                                     \
     CG_SCENE_##role == CG_SCENE_SUBMIT ? CG_STREAM_B_C : CG_STREAM_NONE, VC4_TEXT_MAX,        \
     UINT32_MAX, sane},
    VC4_SCENE_ACTIONS(VC4_X_KIND)
#undef VC4_X_KIND
};

/* The control list a .kick hands a thread, for listings of captures. */
static int vc4_disasm_stream(const cg_capfile *c, const cg_text_opts *o, uint64_t addr,
                             const uint8_t *data, size_t size, FILE *out)
{
    (void)c;
    cg_text_opts x = *o;
    x.base = addr;
    return cg_vc4_family.formats[0]->disasm(&x, data, size, out);
}

static const cg_scene_config_key vc4_config[] = {
    {VC4_CFG_CPU_CACHED, "vc4.cpu-cached", "1: .cpu_cache 1"},
};

const cg_scene_ops vc4_scene_ops = {
    .kinds = vc4_kinds,
    .nkinds = CG_ARRAY_SIZE(vc4_kinds),
    .config = vc4_config,
    .nconfig = CG_ARRAY_SIZE(vc4_config),
    .takes = CG_SCENE_OPT_FRAME | CG_SCENE_OPT_OUT_DIR,
    .assembler = vc4_scene_assembler,
    .open = vc4_open,
    .place = vc4_place,
    .act = vc4_act,
    .finish = vc4_finish,
    .disasm_stream = vc4_disasm_stream,
    .peek = vc4_peek,
    .close = vc4_close,
};
