/* cmdgpu demo: built-in demonstration scenes. Each writes its files under the
 * output directory and adds a line to the summary: the core's own here,
 * each family's from its descriptor (cmdgpu/family.h), then a report page
 * per family. */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "cli.h"
#include "cmdgpu/core.h"

/* The example scenes ship in the source tree (examples/<family>/). */
#ifndef CMDGPU_SOURCE_DIR
#define CMDGPU_SOURCE_DIR "."
#endif

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

/* Every demonstration in order: the core's, each family's (its
 * descriptor's), then one report page per family that names one. */
typedef struct demo_entry {
    char name[64];
    const cg_family_desc *fam;
    const cg_demo *demo;  /* a family's; NULL: core or report */
} demo_entry;

static size_t list_demos(demo_entry *e, size_t cap)
{
    size_t n = 0;
    e[n++] = (demo_entry){"core/coherency", NULL, NULL};
    for (size_t f = 0; f < cg_family_count(); f++) {
        const cg_family_desc *fam = cg_family_at(f);
        for (size_t i = 0; i < fam->ndemos && n < cap; i++) {
            e[n] = (demo_entry){"", fam, &fam->demos[i]};
            snprintf(e[n++].name, sizeof e->name, "%s", fam->demos[i].name);
        }
    }
    for (size_t f = 0; f < cg_family_count() && n < cap; f++) {
        const cg_family_desc *fam = cg_family_at(f);
        if (fam->report_scene) {
            e[n] = (demo_entry){"", fam, NULL};
            snprintf(e[n++].name, sizeof e->name, "report/%s", fam->name);
        }
    }
    return n;
}

static int run_demo(demo_ctx *d, const demo_entry *e)
{
    if (!e->fam)
        return demo_core_coherency(d);
    if (!e->demo)
        return demo_page(d, e->fam->formats[0]->name, e->fam->report_scene, e->fam->report_page);
    cg_demo_ctx c = {.dir = d->dir, .examples = CMDGPU_SOURCE_DIR "/examples", .log = d->log,
                     .faults = d->faults};
    int rc = e->demo->run(&c);
    d->faults = c.faults;
    return rc;
}

int cmd_demo(const cli_opts *o)
{
    demo_ctx d = {.dir = o->out_dir ? o->out_dir : "out", .log = stdout};
    if (make_dir(d.dir) != 0)
        return EXIT_INPUT;
    /* --json: the summary lines are kept and printed inside one object */
    cli_log log = {0};
    if (o->json && !(d.log = log.f = open_memstream(&log.buf, &log.len)))
        return cli_error(EXIT_INPUT, "out of memory");
    demo_entry demos[64];
    size_t ndemos = list_demos(demos, 64);
    bool ok[64];
    int failed = 0;
    for (size_t i = 0; i < ndemos; i++) {
        ok[i] = run_demo(&d, &demos[i]) == 0;
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
        printf("demo: %d scene(s), %d file(s) under %s/, %d fault(s) shown\n", (int)ndemos, files,
               d.dir, d.faults);
        printf("open");
        for (size_t f = 0, k = 0; f < cg_family_count(); f++)
            if (cg_family_at(f)->report_page)
                printf("%s %s/%s", k++ ? " or" : "", d.dir, cg_family_at(f)->report_page);
        printf(" in a browser for the whole run on one page\n");
        return failed ? EXIT_INPUT : EXIT_OK;
    }
    if (fclose(log.f) != 0) {
        free(log.buf);
        return cli_error(EXIT_INPUT, "out of memory");
    }
    printf("{\"demo\":{\"dir\":");
    cli_json_str(stdout, d.dir);
    printf(",\"scenes\":[");
    for (size_t i = 0; i < ndemos; i++)
        printf("%s{\"name\":\"%s\",\"ok\":%s}", i ? "," : "", demos[i].name,
               ok[i] ? "true" : "false");
    printf("],\"files\":%d,\"faults\":%d,\"log\":", files, d.faults);
    cli_json_lines(stdout, log.buf, log.len);
    printf("}}\n");
    free(log.buf);
    return failed ? EXIT_INPUT : EXIT_OK;
}
