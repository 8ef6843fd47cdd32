/* The same GL ES program through Mesa's nouveau on the model (`cmdgpu
 * exec`) and through llvmpipe on one thread (`cmdgpu exec --reference`,
 * LP_NUM_THREADS=1), in one run (bench/gl/gles_bench.c times itself, so
 * process start-up and driver initialisation are outside the figures):
 *   - small: wall time per frame of a small scene (64x64: a clear, a
 *     coloured triangle, two blended quads, glFinish); target: the model
 *     within 1.5x of llvmpipe's time;
 *   - fill: shaded pixels per second of a full-screen textured quad at
 *     1024x1024 (bilinear); target: the model within 2x of llvmpipe's time.
 * The model runs a third time with its GPU on a thread of its own (`cmdgpu
 * exec --threaded`: two threads, so beside the targets, not against them).
 * Each side runs three times and keeps its best (the least disturbed by
 * other load); the ratio compares the two. Skips (exit 0, saying why) when
 * GL ES or nouveau_dri.so is missing. */
#define _GNU_SOURCE
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "summary.h"

#ifndef CMDGPU_GLES_BENCH
#define CMDGPU_GLES_BENCH ""
#endif

/* Run the bench once; the value after `key` in its output, or -1. */
static double run_once(const char *opt, const char *mode, int frames, const char *key)
{
    bool reference = strcmp(opt, "--reference") == 0;
    char cmd[2048];
    snprintf(cmd, sizeof cmd,
             "LP_NUM_THREADS=1 %s/cmdgpu exec %s -- %s %s %d 2>/dev/null", CMDGPU_BINARY_DIR,
             opt, CMDGPU_GLES_BENCH, mode, frames);
    FILE *p = popen(cmd, "r");
    if (!p)
        return -1;
    char line[512], renderer[512] = "";
    double v = -1;
    while (fgets(line, sizeof line, p)) {
        if (strncmp(line, "renderer: ", 10) == 0)
            snprintf(renderer, sizeof renderer, "%s", line + 10);
        size_t kl = strlen(key);
        if (strncmp(line, key, kl) == 0 && line[kl] == ' ')
            v = atof(line + kl + 1);
    }
    pclose(p);
    /* the model's side must be nouveau, the reference llvmpipe */
    if (reference ? !strstr(renderer, "llvmpipe") : !strstr(renderer, "NV1"))
        return -1;
    return v;
}

static double best(const char *opt, const char *mode, int frames, const char *key, bool low)
{
    double b = -1;
    for (int i = 0; i < 3; i++) {
        double v = run_once(opt, mode, frames, key);
        if (v > 0 && (b < 0 || (low ? v < b : v > b)))
            b = v;
    }
    return b;
}

int main(void)
{
    if (!CMDGPU_GLES_BENCH[0]) {
        printf("gl_exec: skipped: built without EGL/GLES (scripts/deps.sh)\n");
        return 0;
    }
    double ms_model = best("", "small", 200, "ms_per_frame", true);
    double ms_thr = best("--threaded", "small", 200, "ms_per_frame", true);
    double ms_ref = best("--reference", "small", 200, "ms_per_frame", true);
    double px_model = best("", "fill", 5, "mpx_per_s", false);
    double px_thr = best("--threaded", "fill", 5, "mpx_per_s", false);
    double px_ref = best("--reference", "fill", 5, "mpx_per_s", false);
    if (ms_model < 0 || ms_ref < 0 || px_model < 0 || px_ref < 0) {
        printf("gl_exec: skipped: a side did not run (nouveau_dri.so missing, or a fault: "
               "try `cmdgpu exec -- %s small 10`)\n", CMDGPU_GLES_BENCH);
        return 0;
    }
    printf("small scene, wall time per frame (best of 3 runs of 200 frames):\n");
    printf("  model (Mesa nouveau on cmdgpu)  %8.3f ms\n", ms_model);
    printf("  model, GPU thread (2 threads)   %8.3f ms   threaded / synchronous %.2fx\n",
           ms_thr, ms_thr / ms_model);
    printf("  llvmpipe, 1 thread              %8.3f ms   model / llvmpipe %.2fx\n", ms_ref,
           ms_model / ms_ref);
    printf("full-screen textured quad 1024x1024 (best of 3 runs of 5 frames):\n");
    printf("  model                           %8.1f M px/s\n", px_model);
    printf("  model, GPU thread (2 threads)   %8.1f M px/s\n", px_thr);
    printf("  llvmpipe, 1 thread              %8.1f M px/s   llvmpipe / model %.2fx\n", px_ref,
           px_ref / px_model);
    bench_summary("GL small scene, model ms/frame", ms_model, "ms", "llvmpipe 1 thread",
                  ms_model / ms_ref, "<= 1.5x", ms_model / ms_ref <= 1.5);
    bench_summary("GL textured fill, model M px/s", px_model, "M px/s", "llvmpipe 1 thread",
                  px_ref / px_model, "<= 2x time", px_ref / px_model <= 2.0);
    return 0;
}
