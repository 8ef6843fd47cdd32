/* vc4 family: running an assembled scene (cmdgpu run -f vc4): load every
 * section at its bus address through the ARM's view, then play the recorded
 * directives in order, logging each, the way the seed's bare-metal program
 * drives the chip (mailbox calls, list patching, CTnCA/CTnEA kicks, waits on
 * BFC/RFC, reading the frame buffer). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "scene.h"
#include "core/capfile_internal.h"
#include "core/image_internal.h"

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

int cg_vc4_scene_run(const cg_vc4_asm *st, const cg_asm *as, cg_device *dev,
                     const cg_vc4_scene_opts *o, FILE *log)
{
    if (!st || !as || !dev || !log)
        return CG_ERR_INVAL;
    cg_vc4_scene_opts none = {0};
    if (!o)
        o = &none;
    cg_vc4_config cfg = {.cpu_cached = st->cpu_cached};
    cg_vc4 *v = NULL;
    int rc = cg_vc4_create(dev, &cfg, &v);
    if (rc != 0)
        return rc;
    int fails = 0;
    bool io = false; /* an output file could not be written: CG_ERR_IO */
    /* The last frame a `.png`/`.expect_hash` named explicitly: what -o
     * writes when the scene allocated no frame buffer through the mailbox
     * (GL scenes render to a buffer of their own). */
    cg_vc4_fb named_fb = {0};
    bool have_named_fb = false;
    fb_cache fbc = {0};
    size_t faults_before = cg_fault_count(dev);
    for (size_t i = 0; i < cg_asm_section_count(as); i++) {
        const char *name;
        uint64_t base;
        const uint8_t *data;
        size_t size;
        cg_asm_section(as, i, &name, &base, &data, &size);
        if (!size)
            continue;
        if (base > 0xFFFFFFFFu || cg_vc4_cpu_write(v, (uint32_t)base, data, size) != 0) {
            fprintf(log, "FAIL section %s at 0x%" PRIx64 " (%zu bytes) is not in SDRAM (%u MiB)\n",
                    name, base, size, 64u);
            fails++;
        }
    }
    for (size_t i = 0; i < st->nacts && !fails; i++) {
        const vc4_action *a = &st->acts[i];
        uint32_t val;
        if (a->kind != VA_PNG && a->kind != VA_EXPECT_HASH)
            fbc_drop(&fbc); /* memory may change */
        switch (a->kind) {
        case VA_MAILBOX: {
            uint32_t msg = ((uint32_t)a->a & ~0xFu) | CG_VC4_MBOX_CH_PROPERTY, resp = 0, code = 0;
            cg_vc4_mmio_write(v, CG_VC4_MBOX_BASE + CG_VC4_MBOX_WRITE, msg);
            cg_vc4_mmio_read(v, CG_VC4_MBOX_BASE + CG_VC4_MBOX_READ, &resp);
            /* a buffer the ARM cannot read (outside SDRAM) shows code 0 */
            cg_vc4_cpu_invalidate(v, (uint32_t)a->a, 8);
            cg_vc4_cpu_read32(v, (uint32_t)a->a + 4, &code);
            fprintf(log, "mailbox 0x%08x: response 0x%08x, code 0x%08x\n", msg, resp, code);
            if (code != (uint32_t)a->b) {
                fprintf(log, "FAIL mailbox buffer at 0x%08x: code 0x%08x, want 0x%08x\n",
                        (uint32_t)a->a, code, (uint32_t)a->b);
                fails++;
            }
            break;
        }
        case VA_REG:
            rc = cg_vc4_reg_write(v, (uint32_t)a->a, (uint32_t)a->b);
            fprintf(log, "reg %s (0x%03x) = 0x%08x%s\n",
                    cg_vc4_reg_name((uint32_t)a->a) ? cg_vc4_reg_name((uint32_t)a->a) : "?",
                    (uint32_t)a->a, (uint32_t)a->b, rc == CG_ERR_RANGE ? ": not a register" : "");
            fails += rc == CG_ERR_RANGE;
            break;
        case VA_KICK:
            cg_vc4_reg_write(v, a->a ? CG_VC4_CT1CA : CG_VC4_CT0CA, (uint32_t)a->b);
            cg_vc4_reg_write(v, a->a ? CG_VC4_CT1EA : CG_VC4_CT0EA, (uint32_t)a->c);
            cg_vc4_reg_read(v, a->a ? CG_VC4_CT1CA : CG_VC4_CT0CA, &val);
            fprintf(log, "kick thread %d [0x%08x, 0x%08x): now at 0x%08x\n", (int)a->a,
                    (uint32_t)a->b, (uint32_t)a->c, val);
            break;
        case VA_WAIT:
            if (a->a == 2) {
                /* A thread that faulted or hung has its fault in the device
                 * log, which is printed and counted at the end; the scene
                 * goes on, so it can reset the thread and run more work on
                 * the same device (the hostile-input catalog does). */
                rc = cg_vc4_wait_idle(v);
                fprintf(log, "wait idle: %s\n", rc == 0 ? "ok" : cg_strerror(rc));
                fails += rc == CG_ERR_NOMEM;
            } else {
                cg_vc4_run(v);
                cg_vc4_reg_read(v, a->a ? CG_VC4_RFC : CG_VC4_BFC, &val);
                if (val != (uint32_t)(a->b & 0xFF)) {
                    /* the CPU would spin forever: the watchdog ends it */
                    cg_vc4_wait_idle(v);
                    fprintf(log, "FAIL wait %s == %u: it is %u and nothing runs\n",
                            a->a ? "RFC" : "BFC", (uint32_t)a->b, val);
                    fails++;
                } else {
                    fprintf(log, "wait %s == %u: ok\n", a->a ? "RFC" : "BFC", val);
                }
            }
            break;
        case VA_COPY32:
            if (cg_vc4_cpu_read32(v, (uint32_t)a->b, &val) != 0 ||
                cg_vc4_cpu_write32(v, (uint32_t)a->a, val) != 0) {
                fprintf(log, "FAIL copy32 0x%08x <- 0x%08x: not in SDRAM\n", (uint32_t)a->a,
                        (uint32_t)a->b);
                fails++;
            } else {
                fprintf(log, "copy32 0x%08x <- [0x%08x] = 0x%08x\n", (uint32_t)a->a,
                        (uint32_t)a->b, val);
            }
            break;
        case VA_WRITE32:
            if (cg_vc4_cpu_write32(v, (uint32_t)a->a, (uint32_t)a->b) != 0) {
                fprintf(log, "FAIL write32 0x%08x: not in SDRAM\n", (uint32_t)a->a);
                fails++;
            }
            break;
        case VA_FLUSH:
            cg_vc4_cpu_flush(v, (uint32_t)a->a, (size_t)a->b);
            fprintf(log, "flush [0x%08x, +%u)\n", (uint32_t)a->a, (uint32_t)a->b);
            break;
        case VA_EXPECT32:
        case VA_EXPECT_REG: {
            bool reg = a->kind == VA_EXPECT_REG;
            int r = reg ? cg_vc4_reg_read(v, (uint32_t)a->a, &val)
                        : cg_vc4_cpu_read32(v, (uint32_t)a->a, &val);
            if (r != 0 || val != (uint32_t)a->b) {
                fprintf(log, "FAIL expect %s 0x%08x: got 0x%08x, want 0x%08x\n", reg ? "reg" : "mem",
                        (uint32_t)a->a, val, (uint32_t)a->b);
                fails++;
            } else {
                fprintf(log, "expect %s 0x%08x == 0x%08x: ok\n", reg ? "reg" : "mem",
                        (uint32_t)a->a, val);
            }
            break;
        }
        case VA_DUMP:
            for (int64_t k = 0; k < (a->b + 3) / 4; k++) {
                if (k % 8 == 0)
                    fprintf(log, "%s0x%08x:", k ? "\n" : "", (uint32_t)(a->a + 4 * k));
                if (mem_reader(v, (uint32_t)(a->a + 4 * k), &val, 4) != 0) {
                    fprintf(log, " (unmapped)");
                    break;
                }
                fprintf(log, " %08x", val);
            }
            fprintf(log, "\n");
            break;
        case VA_DUMP_CL: {
            cg_vc4_disasm_opts d = {.follow = true, .prim_format = 0x12};
            cg_vc4_cl_disasm_mem(&d, mem_reader, v, (uint32_t)a->a, (uint32_t)a->b, log);
            break;
        }
        case VA_PNG:
        case VA_EXPECT_HASH: {
            cg_vc4_fb fb;
            if (a->n == 5) {
                fb.bus_addr = (uint32_t)a->a, fb.width = (uint32_t)a->b, fb.height = (uint32_t)a->c;
                fb.pitch = (uint32_t)a->d, fb.depth = (uint32_t)a->e;
                named_fb = fb;
                have_named_fb = true;
            } else if (cg_vc4_framebuffer(v, &fb) != 0) {
                fprintf(log, "FAIL %s: no framebuffer was allocated\n",
                        a->kind == VA_PNG ? ".png" : ".expect_hash");
                fails++;
                break;
            }
            uint64_t h = 0;
            int r = fbc_hash(&fbc, v, &fb, &h);
            if (a->kind == VA_EXPECT_HASH) {
                if (r != 0 || h != (uint64_t)a->a) {
                    fprintf(log, "FAIL expect_hash: got %016" PRIx64 ", want %016" PRIx64 "\n", h,
                            (uint64_t)a->a);
                    fails++;
                } else {
                    fprintf(log, "expect_hash %016" PRIx64 ": ok\n", h);
                }
                break;
            }
            char path[1024];
            snprintf(path, sizeof path, "%s%s%s", o->out_dir ? o->out_dir : "",
                     o->out_dir ? "/" : "", a->text);
            if (r == 0)
                r = fbc_png(&fbc, v, &fb, path);
            if (r != 0) {
                fprintf(log, "FAIL png %s: %s\n", path, cg_strerror(r));
                if (r == CG_ERR_IO)
                    io = true;
                else
                    fails++;
            } else {
                fprintf(log, "png %s: %ux%u, pixel hash %016" PRIx64 "\n", path, fb.width,
                        fb.height, h);
            }
            break;
        }
        default:
            break;
        }
    }
    cg_vc4_fb fb;
    bool have_fb = cg_vc4_framebuffer(v, &fb) == 0;
    if (have_fb) {
        uint64_t h = 0;
        if (fbc_hash(&fbc, v, &fb, &h) == 0) {
            fprintf(log, "framebuffer 0x%08x %ux%ux%u pitch %u: pixel hash %016" PRIx64 "\n",
                    fb.bus_addr, fb.width, fb.height, fb.depth, fb.pitch, h);
            if (o->fb_hash)
                *o->fb_hash = h;
        }
    } else if (have_named_fb) {
        fb = named_fb;
        have_fb = true;
    } else if (o->png && !o->png_optional) {
        fprintf(log, "FAIL %s: the scene allocated no frame buffer (mailbox) and named none "
                     "(.png ADDR, W, H, PITCH, DEPTH): nothing to write\n", o->png);
        io = true;
    }
    if (have_fb) {
        if (o->png) {
            int r = fbc_png(&fbc, v, &fb, o->png);
            fprintf(log, "%swrote %s%s%s\n", r ? "FAIL " : "", o->png, r ? ": " : "",
                    r ? cg_strerror(r) : "");
            if (r == CG_ERR_IO)
                io = true;
            else
                fails += r != 0;
        }
    }
    cg_vc4_stats s;
    cg_vc4_get_stats(v, &s);
    fprintf(log, "stats: records %llu/%llu, triangles binned %llu, tile entries %llu, blocks %llu, "
                 "tiles stored %llu, fragments %llu\n",
            (unsigned long long)s.records[0], (unsigned long long)s.records[1],
            (unsigned long long)s.prims_binned, (unsigned long long)s.tile_prims,
            (unsigned long long)s.blocks, (unsigned long long)s.tiles_rendered,
            (unsigned long long)s.fragments);
    for (size_t i = faults_before; i < cg_fault_count(dev); i++) {
        const cg_fault *f = cg_fault_get(dev, i);
        char line[512];
        cg_fault_format(f, line, sizeof line);
        fprintf(log, "%s\n", line);
        if (!(f->flags & CG_FAULT_F_WARNING))
            fails++;
    }
    fbc_drop(&fbc);
    cg__scene_end(dev, vc4_capture_peek, v); /* a capture hashes the final memory */
    cg_vc4_destroy(v);
    return io ? CG_ERR_IO : fails ? 1 : 0;
}
