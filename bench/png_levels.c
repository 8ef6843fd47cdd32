/* PNG writer settings: size and time of every zlib level (1..9) with each
 * libpng filter choice, over the images the project writes (`cmdgpu demo`
 * output, which includes the vc4 first triangle, 640x480). Each image is
 * read back (cg_image_read_png), then written to memory with each setting;
 * times are this thread's CPU time, best of 3, summed over the images; sizes
 * are summed bytes. The public writers use CG_PNG_LEVEL / CG_PNG_FILTERS
 * (src/core/image_internal.h); docs/performance.md records the table and the
 * choice. The summary line compares the chosen setting with libpng's default
 * (level 6, adaptive filters). */
#include <dirent.h>
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zlib.h>
#include "cmdgpu/cmdgpu.h"
#include "summary.h"
#include "core/image_internal.h"

#define REPS 3
#define MAX_IMAGES 64

typedef struct {
    cg_image img;
    uint8_t *px;
} image;

static image imgs[MAX_IMAGES];
static int nimg;

/* Write every image with (level, filters): total bytes, best total time. */
static void measure(int level, int filters, int strategy, size_t *bytes, double *secs)
{
    double best = 1e9;
    size_t total = 0;
    for (int rep = 0; rep < REPS; rep++) {
        double t = 0;
        total = 0;
        for (int i = 0; i < nimg; i++) {
            char *buf = NULL;
            size_t len = 0;
            FILE *f = open_memstream(&buf, &len);
            if (!f)
                exit(1);
            double t0 = bench_thread_cpu();
            int rc = level < 0 ? cg_image_write_png_file(f, &imgs[i].img)
                               : cg__image_write_png_with(f, &imgs[i].img, level, filters, strategy);
            if (rc != 0) {
                fprintf(stderr, "bench_png_levels: write failed\n");
                exit(1);
            }
            t += bench_thread_cpu() - t0;
            fclose(f);
            total += len;
            free(buf);
        }
        if (t < best)
            best = t;
    }
    *bytes = total;
    *secs = best;
}

int main(void)
{
    const char *dir = CMDGPU_BINARY_DIR "/bench_png_images";
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "rm -rf '%s' && '%s/cmdgpu' demo --out '%s' >/dev/null", dir,
             CMDGPU_BINARY_DIR, dir);
    if (system(cmd) != 0) {
        fprintf(stderr, "bench_png_levels: cmdgpu demo failed\n");
        return 1;
    }
    DIR *d = opendir(dir);
    struct dirent *e;
    size_t pixels = 0;
    while (d && (e = readdir(d)) && nimg < MAX_IMAGES) {
        size_t n = strlen(e->d_name);
        if (n < 5 || strcmp(e->d_name + n - 4, ".png") != 0)
            continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        image *im = &imgs[nimg];
        uint32_t w, h;
        if (cg_image_read_png(path, &im->px, &w, &h) != 0)
            continue;
        im->img = (cg_image){w, h, w * 4, CG_FORMAT_RGBA8888, im->px};
        pixels += (size_t)w * h;
        nimg++;
    }
    if (d)
        closedir(d);
    if (nimg == 0) {
        fprintf(stderr, "bench_png_levels: no images\n");
        return 1;
    }
    static const struct {
        const char *name;
        int bits;
    } filters[] = {
        {"none", PNG_FILTER_NONE}, {"sub", PNG_FILTER_SUB},     {"up", PNG_FILTER_UP},
        {"avg", PNG_FILTER_AVG},   {"paeth", PNG_FILTER_PAETH}, {"all", PNG_ALL_FILTERS},
    };
    enum { NF = sizeof filters / sizeof filters[0] };
    static const struct {
        const char *name;
        int z;
    } strategies[] = {{"default", Z_DEFAULT_STRATEGY}, {"rle", Z_RLE}, {"filtered", Z_FILTERED}};
    for (size_t si = 0; si < sizeof strategies / sizeof strategies[0]; si++) {
        int strategy = strategies[si].z;
        printf("png levels, zlib strategy %s: %d images, %zu pixels; bytes / ms (CPU, best "
               "of %d) per level and filter\n",
               strategies[si].name, nimg, pixels, REPS);
        printf("%-6s", "level");
        for (int f = 0; f < NF; f++)
            printf(" %18s", filters[f].name);
        printf("\n");
        /* Z_RLE does not depend on the level: one row */
        for (int level = 1; level <= (strategy == Z_RLE ? 1 : 9); level++) {
            printf("%-6d", level);
            for (int f = 0; f < NF; f++) {
                size_t bytes;
                double secs;
                measure(level, filters[f].bits, strategy, &bytes, &secs);
                printf(" %9zu / %6.2f", bytes, secs * 1e3);
            }
            printf("\n");
        }
    }
    size_t b_def, b_cho, b_own;
    double t_def, t_cho, t_own;
    measure(6, PNG_ALL_FILTERS, Z_DEFAULT_STRATEGY, &b_def, &t_def);
    measure(CG_PNG_LEVEL, CG_PNG_FILTERS, CG_PNG_STRATEGY, &b_cho, &t_cho);
    measure(-1, 0, 0, &b_own, &t_own);
    printf("png writer (cmdgpu's encoder, Up filter): %zu bytes, %.2f ms; libpng fastest (level %d, "
           "filters 0x%x, strategy %d): %zu bytes, %.2f ms; libpng default (6, all): %zu bytes, %.2f ms\n",
           b_own, t_own * 1e3, CG_PNG_LEVEL, CG_PNG_FILTERS, CG_PNG_STRATEGY, b_cho, t_cho * 1e3,
           b_def, t_def * 1e3);
    t_cho = t_own; /* the writer's figure is the summary's */
    char cmp[64];
    snprintf(cmp, sizeof cmp, "libpng default %.2f ms", t_def * 1e3);
    bench_summary("PNG write, demo images", t_cho * 1e3, "ms", cmp, t_cho / t_def, "-", -1);
    for (int i = 0; i < nimg; i++)
        free(imgs[i].px);
    return 0;
}
