/* nv 3D pipeline benchmark: scenes built here and run with cg_scene_run
 * (vertex shader, primitive assembly, clipping, rasteriser, the textured
 * square's pixel shader: perspective IPA, TEXS.2D NEAREST from an 8x8
 * A8B8G8R8 block-linear texture, ROP into a 512x512 A8B8G8R8 pitch target).
 *   full-screen: a quad covering the target, drawn REPEAT times
 *   small:       16384 triangles of 8 pixels (half of each 4x4 cell)
 * Compared in the same run with a plain C loop doing the same per-pixel
 * work (plane evaluation of u/w, v/w and 1/w, the division, the nearest
 * texel, unorm to float and back, the store). Times are this thread's CPU
 * time, best of 3, less the best time of the same scene without its draws
 * (assembling the text, mapping buffers). Targets (issue 12): >= 50 M shaded px/s and within 10x
 * of the C loop. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmdgpu/cmdgpu.h"
#include "summary.h"

#define W 512
#define REPEAT 8
#define CELLS (W / 4)

static uint32_t texel(unsigned x, unsigned y)
{
    return (x < 2 && y < 2) ? 0xffffffffu : ((x / 2 + y / 2) % 2 == 0) ? 0xff0080ffu : 0xff808000u;
}

typedef struct buf {
    char *p;
    size_t n, cap;
} buf;

static void put(buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
#include <stdarg.h>
static void put(buf *b, const char *fmt, ...)
{
    va_list ap;
    for (;;) {
        va_start(ap, fmt);
        int k = vsnprintf(b->p + b->n, b->cap - b->n, fmt, ap);
        va_end(ap);
        if (k >= 0 && b->n + (size_t)k < b->cap) {
            b->n += (size_t)k;
            return;
        }
        b->cap = b->cap * 2 + 4096;
        b->p = realloc(b->p, b->cap);
        if (!b->p)
            exit(1);
    }
}

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

/* The scene: `small` selects the many-triangles draw. */
static char *scene(bool small, bool draw, unsigned *nverts)
{
    buf b = {0};
    put(&b, ".buffer pb, 0x100000000, 0x10000\n.buffer vtx, 0x100100000, 0x200000\n"
            ".buffer tex, 0x100300000, 0x1000\n.buffer pool, 0x100310000, 0x1000\n"
            ".buffer prog, 0x100320000, 0x1000\n.buffer rt, 0x101000000, 0x100000\n");
    /* the texture: one GOB, texel (x, y) at the GOB offset of byte 4x, row y */
    uint32_t gob[128] = {0};
    for (unsigned y = 0; y < 8; y++)
        for (unsigned x = 0; x < 8; x++) {
            unsigned xb = 4 * x;
            unsigned off = ((xb % 64) / 32) * 256 + ((y % 8) / 2) * 64 + ((xb % 32) / 16) * 32 +
                           (y % 2) * 16 + xb % 16;
            gob[off / 4] = texel(x, y);
        }
    put(&b, ".section tex, tex\n");
    for (unsigned i = 0; i < 128; i++)
        put(&b, "%s0x%08x%s", i % 8 ? ", " : "    .word ", gob[i], i % 8 == 7 ? "\n" : "");
    /* TIC 0 (the textured square's TIC 1 with address tex), TSC 0 NEAREST
     * CLAMP, the handle (TIC 0, TSC 0) at word 8 of the cb at pool + 0x100 */
    put(&b, ".section pool, pool\n"
            "    .word 0x58d24908, 0x00300000, 0x00600001, 0x00000000, 0x00800007, 0x80000007, 0, 0\n"
            "    .org pool + 0x40\n    .word 0x00000092, 0x00000051, 0, 0, 0, 0, 0, 0\n"
            "    .org pool + 0x120\n    .word 0\n");
    put(&b, ".section prog, prog\nvs:\n"
            "    .word 0x00000461, 0, 0, 0, 0, 0, 0x000000ff, 0, 0, 0\n"
            "    .word 0, 0, 0, 0x0003f000, 0, 0, 0, 0, 0, 0\n"
            ".sass\n    ALD.128 R0, a[0x80], RZ;\n    ALD.64 R4, a[0x90], RZ;\n"
            "    AST.128 a[0x70], R0, RZ;\n    AST.64 a[0x80], R4, RZ;\n    EXIT;\n.endsass\n"
            "    .org prog + 0x100\nps:\n"
            "    .word 0x00001462, 0, 0, 0, 0, 0x80000000, 0x0000000a, 0, 0, 0\n"
            "    .word 0, 0, 0, 0, 0, 0, 0, 0, 0x0000000f, 0\n"
            ".sass\n    IPA.PASS R4, a[0x7c], RZ, RZ, PT;\n    MUFU.RCP R4, R4;\n"
            "    IPA R0, a[0x80], R4, RZ, PT;\n    IPA R1, a[0x84], R4, RZ, PT;\n"
            "    TEXS.2D R2, R0, R0, R1, 0x8, 0x4;\n    EXIT;\n.endsass\n");
    /* vertices: x y z w u v (24 bytes) */
    put(&b, ".section vtx, vtx\n");
    unsigned n = 0;
    if (!small) {
        put(&b, "    .float -1, -1, 0, 1, 0, 0,  1, -1, 0, 1, 1, 0\n"
                "    .float -1, 1, 0, 1, 0, 1,  1, 1, 0, 1, 1, 1\n");
        n = 4;
    } else {
        for (unsigned cy = 0; cy < CELLS; cy++)
            for (unsigned cx = 0; cx < CELLS; cx++) {
                /* window (4cx, 4cy) (4cx+4, 4cy) (4cx, 4cy+4): 8 pixel centres */
                double x0 = (4.0 * cx) / (W / 2) - 1, y0 = (4.0 * cy) / (W / 2) - 1,
                       d = 4.0 / (W / 2);
                put(&b, "    .float %.9g, %.9g, 0, 1, 0, 0, %.9g, %.9g, 0, 1, 1, 0, %.9g, %.9g, 0, 1, 0, 1\n",
                    x0, y0, x0 + d, y0, x0, y0 + d);
                n += 3;
            }
    }
    *nverts = n;
    put(&b, ".section pb, pb\nstart:\n    inc 0, SET_OBJECT, 0xB197\n"
            "    inc 0, SET_PROGRAM_REGION_A, prog >> 32, prog & 0xffffffff\n"
            "    inc 0, SET_PIPELINE_SHADER(1), 0x11, vs - prog\n"
            "    inc 0, SET_PIPELINE_SHADER(5), 0x51, ps - prog\n"
            "    mthd 0, SET_PIPELINE_REGISTER_COUNT(5), 8\n"
            "    inc 0, SET_COLOR_TARGET_A(0), rt >> 32, rt & 0xffffffff, %u, %u, 0xd5, 0x1000, 1, 0\n"
            "    mthd 0, RT_CONTROL, 1\n    mthd 0, SET_CT_WRITE(0), 0x1111\n"
            "    inc 0, SET_SURFACE_CLIP_HORIZONTAL, %u << 16, %u << 16\n"
            "    inc 0, SET_VIEWPORT_SCALE_X(0), 0x%08x, 0x%08x, 0x3f000000, 0x%08x, 0x%08x, 0x3f000000\n"
            "    mthd 0, SET_VIEWPORT_SCALE_OFFSET, 1\n"
            "    inc 0, TSC_ADDRESS_HIGH, pool >> 32, (pool + 0x40) & 0xffffffff, 15\n"
            "    inc 0, TIC_ADDRESS_HIGH, pool >> 32, pool & 0xffffffff, 15\n"
            "    mthd 0, TEX_CB_INDEX, 2\n"
            "    inc 0, CB_SIZE, 0x100, (pool + 0x100) >> 32, (pool + 0x100) & 0xffffffff\n"
            "    mthd 0, CB_BIND(4), 0x21\n"
            "    inc 0, VERTEX_ATTRIB_FORMAT(0), 0x38200000, 0x38800800\n"
            "    inc 0, VERTEX_ARRAY_FETCH(0), 0x1018, vtx >> 32, vtx & 0xffffffff\n"
            "    inc 0, VERTEX_ARRAY_LIMIT_HIGH(0), (vtx + 0x1fffff) >> 32, (vtx + 0x1fffff) & 0xffffffff\n",
        4 * W, W, W, W, 0x43800000u, 0x43800000u, 0x43800000u, 0x43800000u);
    for (unsigned r = 0; draw && r < (small ? 1u : REPEAT); r++)
        put(&b, "    mthd 0, VERTEX_BEGIN_GL, %u\n    mthd 0, VERTEX_BUFFER_FIRST, 0\n"
                "    mthd 0, VERTEX_BUFFER_COUNT, %u\n    mthd 0, VERTEX_END_GL, 0\n",
            small ? 4u : 5u, n);
    put(&b, "end:\n.submit start, end\n.finish\n");
    /* a pixel the texture puts there: texel (0, 0) white at the top left */
    if (draw)
        put(&b, ".expect32 rt, 0xffffffff\n");
    return b.p;
}

/* Run a scene 3 times; best thread CPU time; 0 on failure. */
static double run_best(const char *text)
{
    double best = 1e30;
    for (int rep = 0; rep < 3; rep++) {
        cg_device *dev;
        if (cg_device_create(&dev))
            return 0;
        double t0 = bench_thread_cpu();
        int rc = bench_scene(dev, "bench", text);
        double t = bench_thread_cpu() - t0;
        if (rc) {
            fprintf(stderr, "scene failed: %s, %zu fault(s)\n", cg_strerror(rc), cg_fault_count(dev));
            for (size_t i = 0; i < cg_fault_count(dev); i++)
                fprintf(stderr, "  %s\n", cg_fault_get(dev, i)->message);
            cg_device_destroy(dev);
            return 0;
        }
        cg_device_destroy(dev);
        if (t < best)
            best = t;
    }
    return best;
}

/* The plain C loop: the full-screen quad's per-pixel work, REPEAT times. */
static double c_loop(uint32_t *rt)
{
    static uint32_t tex[64];
    for (unsigned y = 0; y < 8; y++)
        for (unsigned x = 0; x < 8; x++)
            tex[y * 8 + x] = texel(x, y);
    /* planes of u/w, v/w, 1/w over the quad (w = 1): u = x / W, v = y / W */
    const float ua = 1.0f / W, vb = 1.0f / W, wc = 1.0f;
    double best = 1e30;
    for (int rep = 0; rep < 3; rep++) {
        double t0 = bench_thread_cpu();
        for (unsigned r = 0; r < REPEAT; r++)
            for (unsigned y = 0; y < W; y++)
                for (unsigned x = 0; x < W; x++) {
                    float sx = (float)x + 0.5f, sy = (float)y + 0.5f;
                    float w = 1.0f / (0 * sx + 0 * sy + wc);
                    float u = (ua * sx) * w, v = (vb * sy) * w;
                    int tx = (int)floorf(u * 8), ty = (int)floorf(v * 8);
                    tx = tx < 0 ? 0 : tx > 7 ? 7 : tx;
                    ty = ty < 0 ? 0 : ty > 7 ? 7 : ty;
                    uint32_t t = tex[ty * 8 + tx], o = 0;
                    for (unsigned k = 0; k < 4; k++) {
                        float c = (float)((t >> (8 * k)) & 0xff) / 255.0f;
                        o |= (uint32_t)lrintf(c * 255.0f) << (8 * k);
                    }
                    rt[y * W + x] = o;
                }
        double t = bench_thread_cpu() - t0;
        if (t < best)
            best = t;
    }
    return best;
}

int main(void)
{
    unsigned nv_full, nv_small;
    char *full = scene(false, true, &nv_full), *small = scene(true, true, &nv_small);
    /* the same scenes without the draws: setup time (assembly, mapping) */
    char *full0 = scene(false, false, &nv_full), *small0 = scene(true, false, &nv_small);
    /* NV_DRAW_SCENE=FILE / NV_DRAW_SMALL_SCENE=FILE: write the full-screen
     * / small-triangles scene (to run it with cmdgpu, e.g. under callgrind) */
    const char *dump = getenv("NV_DRAW_SCENE"), *dump_small = getenv("NV_DRAW_SMALL_SCENE");
    FILE *df = dump ? fopen(dump, "w") : NULL;
    if (df) {
        fputs(full, df);
        fclose(df);
    }
    df = dump_small ? fopen(dump_small, "w") : NULL;
    if (df) {
        fputs(small, df);
        fclose(df);
    }
    double t_full = run_best(full) - run_best(full0), t_small = run_best(small) - run_best(small0);
    uint32_t *rt = malloc((size_t)W * W * 4);
    double t_c = c_loop(rt);
    volatile uint32_t sink = rt[W * W / 2];
    (void)sink;
    free(rt);
    if (t_full <= 0 || t_small <= 0) {
        fprintf(stderr, "nv_draw: a scene failed\n");
        return 1;
    }
    double px_full = (double)W * W * REPEAT;
    double rate_full = px_full / t_full / 1e6, rate_c = px_full / t_c / 1e6;
    double px_small = (double)CELLS * CELLS * 8;
    printf("full-screen textured quad: %ux%u x %u draws: %.3f s, %.2f M shaded px/s, "
           "%.0f vertices/s\n", W, W, REPEAT, t_full, rate_full, nv_full * REPEAT / t_full);
    printf("small triangles: %u triangles of 8 px: %.3f s, %.2f M shaded px/s, %.2f M vertices/s\n",
           nv_small / 3, t_small, px_small / t_small / 1e6, nv_small / t_small / 1e6);
    printf("plain C loop (same per-pixel work): %.3f s, %.2f M px/s; pipeline is %.1fx slower\n",
           t_c, rate_c, rate_c / rate_full);
    bench_summary("nv draw: full-screen textured quad", rate_full, "M px/s", "C loop",
                  rate_c / rate_full, ">= 50 M px/s, <= 10x", rate_full >= 50 && rate_c / rate_full <= 10);
    bench_summary("nv draw: small triangles", nv_small / t_small / 1e6, "M vertices/s", "-", 0, "-", -1);
    free(full);
    free(small);
    free(full0);
    free(small0);
    return 0;
}
