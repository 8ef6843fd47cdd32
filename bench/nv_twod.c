/* nv 2D engine (902D) benchmark: pixels per second of pixels-from-memory
 * blits and solid rects on 512x512 A8B8G8R8 surfaces, run as an nv scene
 * (text assembled and submitted through the pushbuffer, as `cmdgpu run -f
 * nv` does):
 *   point:    pitch source to pitch destination, POINT sampling, 1:1;
 *   bilinear: the same with BILINEAR sampling;
 *   bl_dst:   POINT into a block-linear destination (block height 16);
 *   rect:     a solid rect over the whole pitch surface.
 * Each case's scene runs 8 operations; the time is this thread's CPU time,
 * best of 5, minus the same scene with the operations' launch methods left
 * out (setup, upload and teardown). Compared in the same run with a plain C
 * copy of the same bytes (memcpy, the floor for a 1:1 copy). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "cmdgpu/cmdgpu.h"
#include "summary.h"

/* Assemble and run an nv scene, as `cmdgpu run -f nv` does. */
static int bench_scene(cg_device *dev, const char *name, const char *text)
{
    cg_scene *sc = NULL;
    int rc = cg_scene_assemble(cg_family_get(CG_FAMILY_NV), NULL, name, text, strlen(text), &sc);
    if (rc == 0)
        rc = cg_scene_run(sc, dev, NULL);
    cg_scene_destroy(sc);
    return rc;
}

#define REPS 5
#define OPS 8
#define W 512
#define H 512

/* A scene: the 902D object, a source (pitch) and destination surface, then
 * OPS times `op` (or nothing, for the baseline). */
static char *scene(const char *setup, const char *op, bool with_ops)
{
    size_t cap = 1 << 16;
    char *s = malloc(cap);
    if (!s)
        exit(1);
    int n = snprintf(s, cap,
                     ".buffer pb,   0x100000000, 0x10000\n"
                     ".buffer src,  0x100100000, 0x100000\n"
                     ".buffer dst,  0x100200000, 0x100000\n"
                     ".section pb, pb\n"
                     "start:\n"
                     "    inc 3, SET_OBJECT, 0x902D\n"
                     "    mthd 3, SET_OPERATION, 3\n"
                     "    inc 3, SET_SRC_FORMAT, 0xD5, 1, 0, 1\n"
                     "    inc 3, SET_SRC_PITCH, %d, %d, %d, src >> 32, src & 0xffffffff\n"
                     "%s",
                     W * 4, W, H, setup);
    for (int i = 0; with_ops && i < OPS; i++)
        n += snprintf(s + n, cap - (size_t)n, "%s", op);
    snprintf(s + n, cap - (size_t)n, "end:\n.submit start, end, fence=0\n.wait 0\n");
    return s;
}

static double run(const char *text)
{
    double best = 1e9;
    for (int rep = 0; rep < REPS; rep++) {
        cg_device *dev;
        if (cg_device_create(&dev) != 0)
            exit(1);
        double t0 = bench_thread_cpu();
        int rc = bench_scene(dev, "bench.s", text);
        double t = bench_thread_cpu() - t0;
        if (rc != 0 || cg_fault_count(dev) != 0) {
            fprintf(stderr, "bench_nv_twod: the scene failed (%d)\n", rc);
            exit(1);
        }
        cg_device_destroy(dev);
        if (t < best)
            best = t;
    }
    return best;
}

int main(void)
{
    char pitch_dst[256], bl_dst[256], blit[256];
    snprintf(pitch_dst, sizeof pitch_dst,
             "    inc 3, SET_DST_FORMAT, 0xD5, 1, 0, 1, 0, %d, %d, %d, dst >> 32, "
             "dst & 0xffffffff\n",
             W * 4, W, H);
    snprintf(bl_dst, sizeof bl_dst,
             "    inc 3, SET_DST_FORMAT, 0xD5, 0, 0x40, 1, 0, 0, %d, %d, dst >> 32, "
             "dst & 0xffffffff\n",
             W, H);
    snprintf(blit, sizeof blit,
             "    inc 3, SET_PIXELS_FROM_MEMORY_DST_X0, 0, 0, %d, %d, 0, 1, 0, 1, 0, 0, 0, 0\n", W,
             H);
    char point[512], bilinear[512], bl[512], rect[512];
    snprintf(point, sizeof point, "%s    mthd 3, SET_PIXELS_FROM_MEMORY_SAMPLE_MODE, 0\n",
             pitch_dst);
    snprintf(bilinear, sizeof bilinear,
             "%s    mthd 3, SET_PIXELS_FROM_MEMORY_SAMPLE_MODE, 0x10\n", pitch_dst);
    snprintf(bl, sizeof bl, "%s    mthd 3, SET_PIXELS_FROM_MEMORY_SAMPLE_MODE, 0\n", bl_dst);
    snprintf(rect, sizeof rect,
             "%s    mthd 3, SET_RENDER_SOLID_PRIM_COLOR_FORMAT, 0xD5\n"
             "    mthd 3, SET_RENDER_SOLID_PRIM_COLOR, 0xff336699\n"
             "    mthd 3, SET_RENDER_SOLID_PRIM_MODE, 4\n",
             pitch_dst);
    char rect_op[128];
    snprintf(rect_op, sizeof rect_op,
             "    inc 3, RENDER_SOLID_PRIM_POINT_SET_X(0), 0, 0, %d, %d\n", W, H);
    static const char *names[] = {"point", "bilinear", "bl_dst", "rect"};
    const char *setups[] = {point, bilinear, bl, rect};
    const char *ops[] = {blit, blit, blit, rect_op};

    /* the floor: memcpy of the same bytes, OPS times */
    uint8_t *a = calloc(W * H, 4), *b = calloc(W * H, 4);
    if (!a || !b)
        return 1;
    memset(a, 0x5A, W * H * 4);
    memset(b, 0xA5, W * H * 4);
    double tf = 1e9;
    for (int rep = 0; rep < REPS; rep++) {
        double t0 = bench_thread_cpu();
        for (int i = 0; i < OPS; i++) {
            a[i] = (uint8_t)i;
            memcpy(b, a, W * H * 4);
        }
        double t = bench_thread_cpu() - t0;
        if (t < tf)
            tf = t;
    }
    double px = (double)W * H * OPS;
    double point_t = 0;
    for (int c = 0; c < 4; c++) {
        char *with = scene(setups[c], ops[c], true), *without = scene(setups[c], ops[c], false);
        double t = run(with) - run(without);
        if (t <= 0)
            t = 1e-9;
        if (c == 0)
            point_t = t;
        printf("nv 2d %-9s %d x %dx%d px: %.2f ms, %.1f M px/s; memcpy of the bytes %.2f ms, "
               "ratio %.1fx\n",
               names[c], OPS, W, H, t * 1e3, px / t / 1e6, tf * 1e3, t / tf);
        free(with);
        free(without);
    }
    char cmp[64];
    snprintf(cmp, sizeof cmp, "memcpy %.0f M px/s", px / tf / 1e6);
    bench_summary("nv 2D point blit 512x512", px / point_t / 1e6, "M px/s", cmp, point_t / tf,
                  "-", -1);
    free(a);
    free(b);
    return 0;
}
