/* vc4 GL shader mode benchmark: the scene of bench/vc4_render.c (20000
 * small triangles over 640x480) drawn in GL shader mode, with the
 * coordinate, vertex and fragment shaders of examples/vc4/gl_cube.s and
 * gl_textured.s (assembled from those files, which also place the
 * textures): every vertex goes through the VCD, the coordinate shader in
 * the binner and the vertex shader in the renderer (an identity matrix:
 * the attributes are clip coordinates), every pixel through the fragment
 * shader. Figures, per second of this thread's CPU time:
 *   - GL vertices shaded in binning (coordinate shader), and in rendering
 *     (vertex shader), with the NV-mode triangles binned beside them
 *     (bench/vc4_render.c's scene, run here too);
 *   - pixels shaded: NV (bench/vc4_render.c's one-instruction shader), GL
 *     with the colour fragment shader, GL textured (bilinear, mipmapped
 *     T-format texture through TMU0).
 * argv[1]: "nv", "gl" or "tex" runs one mode. Prints figures only. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmdgpu/asm.h"
#include "cmdgpu/cmdgpu.h"
#include "summary.h"

#define SECONDS 0.5

#include "cl_buf.h"

enum { BIN_LIST = 0x800000, REND_LIST = 0x900000, REC = 0xA00000, UNIF = 0xA00100,
       NVFS = 0xA00200, VERTS = 0xB00000, TILES = 0x1000000, TSTATE = 0x1800000,
       FB = 0x2000000 };
enum { W = 640, H = 480, N = 20000 };

static uint32_t sym(cg_asm *as, const char *name)
{
    int64_t x = 0;
    if (!cg_asm_symbol(as, name, &x)) {
        fprintf(stderr, "no symbol %s\n", name);
        exit(1);
    }
    return (uint32_t)x;
}

/* Assemble an example scene into SDRAM (its shaders, uniforms, textures). */
static cg_asm *load_example(cg_vc4 *v, const char *file)
{
    char path[1024];
    snprintf(path, sizeof path, "%s", __FILE__);
    char *p = strstr(path, "bench/vc4_gl.c");
    if (!p)
        exit(1);
    snprintf(p, sizeof path - (size_t)(p - path), "examples/vc4/%s", file);
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "cannot open %s\n", path);
        exit(1);
    }
    static char src[1 << 20];
    size_t n = fread(src, 1, sizeof src - 1, f);
    fclose(f);
    src[n] = 0;
    cg_vc4_asm *st;
    cg_asm *as;
    if (cg_vc4_asm_create(&st) || cg_asm_create(cg_vc4_asm_family(), st, &as))
        exit(1);
    cg_asm_add_source(as, file, src, n);
    if (cg_asm_assemble(as) != 0) {
        fputs(cg_asm_errors(as), stderr);
        exit(1);
    }
    for (size_t i = 0; i < cg_asm_section_count(as); i++) {
        const char *nm;
        uint64_t base;
        const uint8_t *d;
        size_t sz;
        cg_asm_section(as, i, &nm, &base, &d, &sz);
        if (sz)
            cg_vc4_cpu_write(v, (uint32_t)base, d, sz);
    }
    cg_vc4_asm_destroy(st);
    return as;
}

/* mode 0: NV; 1: GL colour; 2: GL textured. */
static void build(cg_vc4 *v, int mode, const int16_t *xy, uint32_t *bin_end, uint32_t *rend_end)
{
    int tw = (W + 63) / 64, th = (H + 63) / 64;
    cl b = {0}, r = {0}, vd = {0};
    u8(&b, 112); u32(&b, TILES); u32(&b, 0x800000); u32(&b, TSTATE);
    u8(&b, (uint8_t)tw); u8(&b, (uint8_t)th); u8(&b, 0x04 | 0x60);
    u8(&b, 6); u8(&b, 7);
    u8(&b, 102); u16(&b, 0); u16(&b, 0); u16(&b, W); u16(&b, H);
    u8(&b, 96); u8(&b, 3); u16(&b, 0);
    u8(&b, 103); u16(&b, mode ? W / 2 * 16 : 0); u16(&b, mode ? H / 2 * 16 : 0);
    if (mode) {
        u8(&b, 64); u32(&b, REC | 2);
    } else {
        u8(&b, 65); u32(&b, REC);
    }
    u8(&b, 33); u8(&b, 4); u32(&b, 3 * N); u32(&b, 0);
    u8(&b, 4);
    u8(&r, 8);
    u8(&r, 114); u32(&r, 0xFF202020); u32(&r, 0xFF202020); u32(&r, 0); u8(&r, 0);
    u8(&r, 113); u32(&r, FB); u16(&r, W); u16(&r, H); u16(&r, 4);
    u8(&r, 115); u8(&r, 0); u8(&r, 0);
    u8(&r, 28); u16(&r, 0); u32(&r, 0);
    for (int y = 0; y < th; y++)
        for (int x = 0; x < tw; x++) {
            u8(&r, 115); u8(&r, (uint8_t)x); u8(&r, (uint8_t)y);
            u8(&r, 17); u32(&r, TILES + (uint32_t)(y * tw + x) * 32);
            u8(&r, (x == tw - 1 && y == th - 1) ? 25 : 24);
        }
    if (mode == 0) {
        for (uint32_t i = 0; i < 3 * N; i++) {
            u16(&vd, (uint16_t)xy[2 * i]); u16(&vd, (uint16_t)xy[2 * i + 1]);
            u32(&vd, 0x3f000000); u32(&vd, 0x3f800000);
        }
        static const uint32_t shader[] = {0x00FF8000, 0xE0020BA7, 0x009E7000, 0x300009E7,
                                          0x009E7000, 0x100009E7, 0x009E7000, 0x100009E7};
        uint8_t nv[16] = {0, 12, 0, 0};
        uint32_t a = NVFS, d = VERTS;
        memcpy(nv + 4, &a, 4);
        memcpy(nv + 12, &d, 4);
        cg_vc4_cpu_write(v, REC, nv, 16);
        cg_vc4_cpu_write(v, NVFS, shader, sizeof shader);
    } else {
        cg_asm *as = load_example(v, mode == 2 ? "gl_textured.s" : "gl_cube.s");
        /* clip coordinates x, y in [-1, 1] (12.4 screen = x * W/2 * 16 +
         * the viewport offset), z 0; then colour or s, t */
        for (uint32_t i = 0; i < 3 * N; i++) {
            f32(&vd, (float)(xy[2 * i] - W * 8) / (float)(W * 8));
            f32(&vd, (float)(xy[2 * i + 1] - H * 8) / (float)(-H * 8));
            f32(&vd, 0.0f);
            f32(&vd, mode == 2 ? (float)xy[2 * i] / 256.0f : 0.8f);
            f32(&vd, mode == 2 ? (float)xy[2 * i + 1] / 256.0f : 0.5f);
            f32(&vd, 0.2f);
        }
        /* the example's record, pointed at this vertex buffer and an
         * identity matrix */
        cl rec = {0}, un = {0};
        u8(&rec, 5); u8(&rec, 0); u8(&rec, 0); u8(&rec, 3);
        u32(&rec, sym(as, "FS")); u32(&rec, mode == 2 ? sym(as, "FS_UNIF0") : 0);
        u16(&rec, 0); u8(&rec, 3); u8(&rec, 24); u32(&rec, sym(as, "VS")); u32(&rec, UNIF);
        u16(&rec, 0); u8(&rec, 1); u8(&rec, 12); u32(&rec, sym(as, "CS")); u32(&rec, UNIF);
        u32(&rec, VERTS); u8(&rec, 11); u8(&rec, 24); u8(&rec, 0); u8(&rec, 0);
        u32(&rec, VERTS + 12); u8(&rec, 11); u8(&rec, 24); u8(&rec, 12); u8(&rec, 0);
        for (int i = 0; i < 16; i++)
            f32(&un, i % 5 == 0 ? 1.0f : 0.0f);
        f32(&un, W / 2 * 16.0f); f32(&un, -H / 2 * 16.0f); f32(&un, 0.5f); f32(&un, 0.5f);
        cg_vc4_cpu_write(v, REC, rec.b, rec.n);
        cg_vc4_cpu_write(v, UNIF, un.b, un.n);
        free(rec.b);
        free(un.b);
        cg_asm_destroy(as);
    }
    cg_vc4_cpu_write(v, BIN_LIST, b.b, b.n);
    cg_vc4_cpu_write(v, REND_LIST, r.b, r.n);
    cg_vc4_cpu_write(v, VERTS, vd.b, vd.n);
    *bin_end = BIN_LIST + (uint32_t)b.n;
    *rend_end = REND_LIST + (uint32_t)r.n;
    free(b.b);
    free(r.b);
    free(vd.b);
}

static void kick(cg_vc4 *v, int t, uint32_t s, uint32_t e)
{
    cg_vc4_reg_write(v, t ? CG_VC4_CT1CA : CG_VC4_CT0CA, s);
    cg_vc4_reg_write(v, t ? CG_VC4_CT1EA : CG_VC4_CT0EA, e);
}

typedef struct figures {
    double bin_vps, rend_vps, pps; /* vertices/s binning, rendering; pixels/s */
    size_t faults;
} figures;

static figures run(int mode, const int16_t *xy)
{
    cg_device *dev;
    cg_vc4 *v;
    cg_vc4_config cfg = {.sdram_size = 64u << 20};
    if (cg_device_create(&dev) || cg_vc4_create(dev, &cfg, &v)) {
        fprintf(stderr, "setup failed\n");
        exit(1);
    }
    uint32_t be, re;
    build(v, mode, xy, &be, &re);
    figures fg = {0};
    double t0 = bench_thread_cpu(), bt = 0, rt = 0;
    uint64_t bframes = 0, rframes = 0;
    for (;;) {
        double a = bench_thread_cpu();
        kick(v, 0, BIN_LIST, be);
        bt += bench_thread_cpu() - a;
        bframes++;
        if (bench_thread_cpu() - t0 >= SECONDS)
            break;
    }
    cg_vc4_stats s0, s1;
    cg_vc4_get_stats(v, &s0);
    for (;;) {
        kick(v, 0, BIN_LIST, be);
        double a = bench_thread_cpu();
        kick(v, 1, REND_LIST, re);
        rt += bench_thread_cpu() - a;
        rframes++;
        if (rt >= SECONDS)
            break;
    }
    cg_vc4_get_stats(v, &s1);
    fg.bin_vps = (double)bframes * 3 * N / bt;
    /* the renderer shades each vertex once per tile list naming it */
    fg.rend_vps = (double)rframes * 3 * N / rt;
    fg.pps = (double)(s1.fragments - s0.fragments) / rt;
    fg.faults = cg_fault_count(dev);
    cg_vc4_destroy(v);
    cg_device_destroy(dev);
    return fg;
}

int main(int argc, char **argv)
{
    const char *only = argc > 1 ? argv[1] : "";
    int16_t *xy = malloc(sizeof(int16_t) * 2 * 3 * N);
    if (!xy)
        return 1;
    uint32_t seed = 12345; /* bench/vc4_render.c's scene */
    for (int i = 0; i < N; i++) {
        seed = seed * 1103515245u + 12345u;
        int x = (int)((seed >> 8) % 620), y = (int)((seed >> 4) % 460);
        int16_t t[6] = {(int16_t)(x * 16), (int16_t)(y * 16), (int16_t)((x + 12) * 16),
                        (int16_t)(y * 16), (int16_t)(x * 16), (int16_t)((y + 12) * 16)};
        memcpy(xy + 6 * i, t, sizeof t);
    }
    static const char *const names[3] = {"NV", "GL", "GL textured"};
    static const char *const keys[3] = {"nv", "gl", "tex"};
    figures fg[3] = {{0}};
    for (int m = 0; m < 3; m++) {
        if (*only && strcmp(only, keys[m]) != 0)
            continue;
        fg[m] = run(m, xy);
        printf("vc4_gl %-12s 20000 small triangles 640x480: binning %.2f M vertices/s, "
               "rendering %.2f M vertices/s, shaded %.1f M pixels/s, faults %zu\n", names[m],
               fg[m].bin_vps / 1e6, fg[m].rend_vps / 1e6, fg[m].pps / 1e6, fg[m].faults);
    }
    if (!*only) {
        char cmp[64];
        snprintf(cmp, sizeof cmp, "NV %.2f M vtx/s", fg[0].bin_vps / 1e6);
        bench_summary("vc4 GL binning (coordinate shader)", fg[1].bin_vps / 1e6, "M vtx/s", cmp,
                      fg[0].bin_vps / fg[1].bin_vps, "-", -1);
        snprintf(cmp, sizeof cmp, "NV %.1f M px/s", fg[0].pps / 1e6);
        bench_summary("vc4 GL shaded", fg[1].pps / 1e6, "M px/s", cmp, fg[0].pps / fg[1].pps,
                      "-", -1);
        bench_summary("vc4 GL textured shaded", fg[2].pps / 1e6, "M px/s", cmp,
                      fg[0].pps / fg[2].pps, "-", -1);
    }
    free(xy);
    return fg[0].faults || fg[1].faults || fg[2].faults;
}
