/* cmdgpu demo: built-in demonstration scenes. Each writes its files under the
 * output directory and adds a line to the summary. Family scenes join this
 * table as the families land. */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "cli.h"
#include "cmdgpu/cmdgpu.h"

typedef struct demo_ctx {
    const char *dir;
    FILE *log;  /* summary lines */
    int faults;
} demo_ctx;

static int make_dir(const char *path)
{
    if (mkdir(path, 0777) == 0 || errno == EEXIST)
        return 0;
    return cli_error(EXIT_INPUT, "cannot create directory '%s': %s", path, strerror(errno));
}

static void print_faults(demo_ctx *d, cg_device *dev, const char *scene)
{
    for (size_t i = 0; i < cg_fault_count(dev); i++) {
        char line[512];
        cg_fault_format(cg_fault_get(dev, i), line, sizeof(line));
        fprintf(d->log, "  %s: %s\n", scene, line);
        d->faults++;
    }
}

static int write_png(demo_ctx *d, const char *name, const cg_image *img)
{
    char path[1024];
    snprintf(path, sizeof(path), "%s/%s", d->dir, name);
    int rc = cg_image_write_png(path, img);
    if (rc != 0)
        return cli_error(EXIT_INPUT, "cannot write %s: %s", path, cg_strerror(rc));
    fprintf(d->log, "  wrote %-28s %ux%u pixel hash %016llx\n", path, img->width,
            img->height, (unsigned long long)cg_image_hash(img));
    return 0;
}

/* Core: the CPU writes an image through a CPU-cached mapping, forgets to flush,
 * and a GPU copy sees stale memory (the seeds' "don't forget to flush"); after
 * the flush the copy is right. Then an access to an unmapped address faults
 * and the device keeps working. */
static int demo_core_coherency(demo_ctx *d)
{
    enum { W = 256, H = 256, BYTES = W * H * 4 };
    cg_device *dev = NULL;
    cg_vas *vas = NULL;
    cg_mem *src = NULL, *dst = NULL;
    uint8_t *pixels = malloc(BYTES), *readback = malloc(BYTES);
    int rc = -1;
    if (!pixels || !readback || cg_device_create(&dev) != 0)
        goto out;
    cg_device_set_coherency(dev, CG_COHERENCY_WARN);
    cg_vas_config cfg = {.va_bits = 40, .big_page_size = 128 * 1024};
    uint64_t resv = 0x100000000ull, src_va = 0, dst_va = 0;
    if (cg_vas_create(dev, &cfg, &vas) != 0 || cg_mem_create(dev, BYTES, 0, &src) != 0 ||
        cg_mem_create(dev, BYTES, 0, &dst) != 0 ||
        cg_vas_reserve(vas, &resv, 1ull << 24, 0, 128 * 1024, CG_RESV_FIXED) != 0)
        goto out;
    cg_map_params mp = {.mem = src, .va = resv, .page_size = 128 * 1024,
                        .flags = CG_MAP_FIXED | CG_MAP_IN_RESV | CG_MAP_CPU_CACHED};
    if (cg_vas_map(vas, &mp, &src_va) != 0)
        goto out;
    cg_map_params mq = {.mem = dst, .page_size = 4096};
    if (cg_vas_map(vas, &mq, &dst_va) != 0)
        goto out;

    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            uint8_t *p = pixels + 4 * (y * W + x);
            p[0] = (uint8_t)x;
            p[1] = (uint8_t)y;
            p[2] = (uint8_t)(255 - x);
            p[3] = 255;
        }
    cg_agent copy_engine = {.family = CG_FAMILY_NONE, .unit = "copy", .channel = 0};
    if (cg_vas_cpu_write(vas, src_va, pixels, BYTES) != 0)
        goto out;
    /* No flush: the GPU copies what memory holds, which is still zero. */
    cg_vas_copy(vas, dst_va, src_va, BYTES, &copy_engine);
    cg_mem_read(dst, 0, readback, BYTES);
    cg_image img = {W, H, W * 4, CG_FORMAT_RGBA8888, readback};
    fprintf(d->log, "core/coherency: GPU copy without a CPU flush\n");
    if (write_png(d, "core_no_flush.png", &img) != 0)
        goto out;
    size_t nwarn = cg_fault_count(dev);
    fprintf(d->log, "  %zu stale-read warning(s); first:\n", nwarn);
    if (nwarn) {
        char line[512];
        cg_fault_format(cg_fault_get(dev, 0), line, sizeof(line));
        fprintf(d->log, "    %s\n", line);
    }
    cg_fault_clear(dev);

    cg_vas_cpu_flush(vas, src_va, BYTES);
    cg_vas_copy(vas, dst_va, src_va, BYTES, &copy_engine);
    cg_mem_read(dst, 0, readback, BYTES);
    fprintf(d->log, "core/coherency: GPU copy after the flush\n");
    if (write_png(d, "core_flushed.png", &img) != 0)
        goto out;
    fprintf(d->log, "  copy %s the CPU's image\n",
            memcmp(readback, pixels, BYTES) == 0 ? "matches" : "DIFFERS FROM");

    /* A GPU read of an unmapped address: a fault record, nothing touched. */
    uint32_t word = 0;
    copy_engine.stream_addr = 0x1000;
    cg_vas_read32(vas, 0xdead0000ull, &word, &copy_engine);
    fprintf(d->log, "core/fault: read of an unmapped address\n");
    print_faults(d, dev, "core");
    fprintf(d->log, "  host memory for the model: %zu bytes (peak %zu)\n",
            cg_device_host_bytes(dev), cg_device_host_peak(dev));
    rc = 0;
out:
    if (rc != 0)
        cli_error(EXIT_INPUT, "core demo failed to set up");
    cg_mem_unref(src);
    cg_mem_unref(dst);
    cg_device_destroy(dev);
    free(pixels);
    free(readback);
    return rc;
}

/* radeon: seed 004's ring test and IB test through the Linux-shaped driver,
 * then the ring they wrote, disassembled. */
static int demo_radeon(demo_ctx *d)
{
    cg_device *dev = NULL;
    cg_radeon *rd = NULL;
    cg_radeon_drv *drv = NULL;
    uint8_t *ring = NULL;
    FILE *f = NULL;
    int rc = -1;
    char msg[256], path[1024];
    if (cg_device_create(&dev) != 0 || cg_radeon_create(dev, NULL, &rd) != 0 ||
        cg_radeon_drv_create(rd, NULL, &drv) != 0)
        goto out;
    fprintf(d->log, "radeon/ring: r600_ring_test and r600_ib_test (seed 004)\n");
    int r1 = cg_radeon_ring_test(drv, msg, sizeof(msg));
    fprintf(d->log, "  %s\n", msg);
    int r2 = cg_radeon_ib_test(drv, msg, sizeof(msg));
    fprintf(d->log, "  %s\n", msg);
    uint32_t size_dw, wptr, rptr, free_dw;
    cg_radeon_ring_info(drv, &size_dw, &wptr, &rptr, &free_dw);
    ring = malloc((size_t)wptr * 4 + 4);
    if (!ring || cg_radeon_cpu_read(rd, cg_radeon_ring_addr(drv), ring, (size_t)wptr * 4) != 0)
        goto out;
    snprintf(path, sizeof(path), "%s/radeon_ring.txt", d->dir);
    if (!(f = fopen(path, "w")))
        goto out;
    cg_radeon_disasm_opts dis = {.gen = CG_RADEON_R600, .base = cg_radeon_ring_addr(drv)};
    cg_radeon_disasm(&dis, ring, (size_t)wptr * 4, f);
    int closed = fclose(f);
    f = NULL;
    if (closed != 0) {
        cli_error(EXIT_INPUT, "cannot write %s: %s", path, strerror(errno));
        goto out;
    }
    fprintf(d->log, "  wrote %-28s %u ring dwords disassembled (rptr %u)\n", path, wptr, rptr);
    print_faults(d, dev, "radeon");
    rc = (r1 == 0 && r2 == 0) ? 0 : -1;
out:
    if (f)
        fclose(f);
    free(ring);
    cg_radeon_drv_destroy(drv);
    cg_radeon_destroy(rd);
    cg_device_destroy(dev);
    return rc;
}

/* The example scenes ship in the source tree (examples/<family>/). */
#ifndef CMDGPU_SOURCE_DIR
#define CMDGPU_SOURCE_DIR "."
#endif

/* nv: run one of examples/nv/'s scenes; its dumps and PNGs land in d->dir. */
static int demo_nv_scene(demo_ctx *d, const char *file)
{
    char path[1024];
    snprintf(path, sizeof(path), "%s/examples/nv/%s", CMDGPU_SOURCE_DIR, file);
    cg_device *dev = NULL;
    if (cg_device_create(&dev) != 0)
        return -1;
    fprintf(d->log, "nv/%s\n", file);
    cg_nv_scene_opts o = {.log = d->log, .out_dir = d->dir};
    int rc = cg_nv_scene_run(dev, path, NULL, 0, &o);
    if (rc != 0)
        fprintf(d->log, "  %s: %s\n", path, cg_strerror(rc));
    print_faults(d, dev, file);
    cg_device_destroy(dev);
    return rc ? -1 : 0;
}

static int demo_nv_fence(demo_ctx *d) { return demo_nv_scene(d, "fence.s"); }
static int demo_nv_upload_copy(demo_ctx *d) { return demo_nv_scene(d, "upload_copy.s"); }
static int demo_nv_blit(demo_ctx *d) { return demo_nv_scene(d, "blit.s"); }
static int demo_nv_rects(demo_ctx *d) { return demo_nv_scene(d, "rects.s"); }

/* nv: seed 000's textured square (examples/nv/textured_square.s). The draw
 * renders into render target 0 (square_rt.png, by the scene's .png); its
 * record goes to square_draws.json, each texture it reaches to
 * square_tic_N.png, and the log gets one line per draw and per texture. */
typedef struct square_ctx {
    demo_ctx *d;
    FILE *json;
    unsigned ndraws;
    int failed;
} square_ctx;

static void square_draw(void *user, const cg_nv_draw *dr)
{
    square_ctx *c = user;
    fputs(c->ndraws++ ? ",\n" : "\n", c->json);
    cg_nv_draw_print_json(c->json, dr);
    const char *topo = cg_nv_enum_name(CG_NV_CLASS_3D, "BEGIN", "OP", dr->topology);
    fprintf(c->d->log, "  draw %llu: %s, vertices %u..%u, %zu fetched, %zu texture(s)\n",
            (unsigned long long)dr->seq, topo ? topo : "?",
            dr->first, dr->first + dr->count - 1, dr->nvertices, dr->ntextures);
    for (size_t i = 0; i < dr->ntextures; i++) {
        const cg_nv_tex_binding *t = &dr->textures[i];
        uint8_t *rgba = NULL;
        uint32_t w = 0, h = 0;
        int rc = t->tic_ok ? cg_nv_tex_read_rgba8(dr->vas, &t->tic, &rgba, &w, &h) : CG_ERR_FAULT;
        if (rc) {
            fprintf(c->d->log, "  texture tic %u: %s\n", t->tic_index, cg_strerror(rc));
            c->failed = 1;
            continue;
        }
        char name[64];
        snprintf(name, sizeof(name), "square_tic_%u.png", t->tic_index);
        const char *fmt = cg_nv_tex_format_name(t->tic.format);
        fprintf(c->d->log, "  texture: stage %u handle 0x%08x -> TIC %u (%s %ux%u), TSC %u\n",
                t->stage, t->handle, t->tic_index, fmt ? fmt : "?", w, h, t->tsc_index);
        cg_image img = {w, h, (size_t)w * 4, CG_FORMAT_RGBA8888, rgba};
        if (write_png(c->d, name, &img) != 0)
            c->failed = 1;
        free(rgba);
    }
}

static int demo_nv_square(demo_ctx *d)
{
    char path[1024], json[1024];
    snprintf(path, sizeof(path), "%s/examples/nv/textured_square.s", CMDGPU_SOURCE_DIR);
    snprintf(json, sizeof(json), "%s/square_draws.json", d->dir);
    cg_device *dev = NULL;
    square_ctx c = {.d = d};
    if (cg_device_create(&dev) != 0 || !(c.json = fopen(json, "w"))) {
        cg_device_destroy(dev);
        return -1;
    }
    fprintf(d->log, "nv/textured_square.s (seed 000: macro, TIC/TSC, vertex fetch, clear, shaders, draw)\n");
    fputs("{\"draws\":[", c.json);
    cg_nv_scene_opts o = {.log = d->log, .out_dir = d->dir};
    int rc = cg_nv_scene_run_draws(dev, path, NULL, 0, &o, square_draw, &c);
    fputs("\n]}\n", c.json);
    if (fclose(c.json) != 0) {
        cli_error(EXIT_INPUT, "cannot write %s: %s", json, strerror(errno));
        c.failed = 1;
    }
    if (rc != 0)
        fprintf(d->log, "  %s: %s\n", path, cg_strerror(rc));
    fprintf(d->log, "  wrote %s  %u draw record(s)\n", json, c.ndraws);
    print_faults(d, dev, "textured_square.s");
    cg_device_destroy(dev);
    return rc || c.failed || c.ndraws != 1 ? -1 : 0;
}

/* vc4: seed 003's FIRST TRIANGLE scene, as the blog wrote it: mailbox,
 * binning and render lists, NV shader record, fragment shader on the QPU. */
static int demo_vc4_first_triangle(demo_ctx *d)
{
    cg_device *dev = NULL;
    cg_vc4_asm *st = NULL;
    cg_asm *as = NULL;
    FILE *log = NULL;
    int rc = -1;
    char txt[1024];
    snprintf(txt, sizeof(txt), "%s/vc4_first_triangle.txt", d->dir);
    if (cg_device_create(&dev) != 0 || cg_vc4_asm_create(&st) != 0 ||
        cli_asm_load(CMDGPU_SOURCE_DIR "/examples/vc4/first_triangle.s", cg_vc4_asm_family(),
                     st, &as) != EXIT_OK)
        goto out;
    if (!(log = fopen(txt, "w")))
        goto out;
    uint64_t hash = 0;
    cg_vc4_scene_opts so = {.out_dir = d->dir, .fb_hash = &hash};
    int r = cg_vc4_scene_run(st, as, dev, &so, log);
    fprintf(d->log, "vc4/first_triangle: seed 003 (JayStation2), 640x480x32\n");
    fprintf(d->log, "  wrote %s/first_triangle.png  pixel hash %016llx\n", d->dir,
            (unsigned long long)hash);
    fprintf(d->log, "  wrote %s  scene log and tile list dump\n", txt);
    print_faults(d, dev, "vc4");
    rc = r == 0 ? 0 : -1;
out:
    if (log)
        fclose(log);
    cg_asm_destroy(as);
    cg_vc4_asm_destroy(st);
    cg_device_destroy(dev);
    return rc;
}

/* One HTML page per scene (cmdgpu report, docs/report.md): the stream of
 * each submission with its fields, faults, the timeline and the images. */
static int demo_page(demo_ctx *d, const char *family, const char *scene, const char *page)
{
    char path[1024], src[1024];
    snprintf(path, sizeof(path), "%s/%s", d->dir, page);
    snprintf(src, sizeof(src), "%s/examples/%s", CMDGPU_SOURCE_DIR, scene);
    char *args[] = {src};
    cli_opts o = {.family = family, .output = path, .nargs = 1, .args = args};
    fprintf(d->log, "report: %s\n  ", scene);
    int rc = report_page(&o, d->log);
    return rc == EXIT_OK ? 0 : -1;
}

static int demo_report_nv(demo_ctx *d)
{
    return demo_page(d, "nv", "nv/textured_square.s", "textured_square.html");
}

static int demo_report_vc4(demo_ctx *d)
{
    return demo_page(d, "vc4", "vc4/first_triangle.s", "first_triangle.html");
}

static const struct {
    const char *name;
    int (*run)(demo_ctx *d);
} demos[] = {
    {"core/coherency", demo_core_coherency},
    {"nv/fence", demo_nv_fence},
    {"nv/upload_copy", demo_nv_upload_copy},
    {"nv/blit", demo_nv_blit},
    {"nv/rects", demo_nv_rects},
    {"nv/textured_square", demo_nv_square},
    {"radeon/ring", demo_radeon},
    {"vc4/first_triangle", demo_vc4_first_triangle},
    {"report/nv", demo_report_nv},
    {"report/vc4", demo_report_vc4},
};

int cmd_demo(const cli_opts *o)
{
    demo_ctx d = {.dir = o->out_dir ? o->out_dir : "out", .log = stdout};
    if (make_dir(d.dir) != 0)
        return EXIT_INPUT;
    /* --json: the summary lines are kept and printed inside one object */
    cli_log log = {0};
    if (o->json && !(d.log = log.f = open_memstream(&log.buf, &log.len)))
        return cli_error(EXIT_INPUT, "out of memory");
    enum { NDEMOS = sizeof(demos) / sizeof(demos[0]) };
    bool ok[NDEMOS];
    int failed = 0;
    for (size_t i = 0; i < NDEMOS; i++) {
        ok[i] = demos[i].run(&d) == 0;
        if (!ok[i]) {
            fprintf(stderr, "demo %s failed\n", demos[i].name);
            failed++;
        }
    }
    /* Scenes write files of their own (dumps, PNGs): count what is there. */
    int files = 0;
    DIR *dir = opendir(d.dir);
    for (struct dirent *e; dir && (e = readdir(dir)) != NULL;)
        files += e->d_name[0] != '.';
    if (dir)
        closedir(dir);
    if (!o->json) {
        printf("demo: %d scene(s), %d file(s) under %s/, %d fault(s) shown\n", (int)NDEMOS, files,
               d.dir, d.faults);
        printf("open %s/textured_square.html or %s/first_triangle.html in a browser for the "
               "whole run on one page\n", d.dir, d.dir);
        return failed ? EXIT_INPUT : EXIT_OK;
    }
    if (fclose(log.f) != 0) {
        free(log.buf);
        return cli_error(EXIT_INPUT, "out of memory");
    }
    printf("{\"demo\":{\"dir\":");
    cli_json_str(stdout, d.dir);
    printf(",\"scenes\":[");
    for (size_t i = 0; i < NDEMOS; i++) {
        printf("%s{\"name\":\"%s\",\"ok\":%s}", i ? "," : "", demos[i].name,
               ok[i] ? "true" : "false");
    }
    printf("],\"files\":%d,\"faults\":%d,\"log\":", files, d.faults);
    cli_json_lines(stdout, log.buf, log.len);
    printf("}}\n");
    free(log.buf);
    return failed ? EXIT_INPUT : EXIT_OK;
}
