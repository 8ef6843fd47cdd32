/* Maxwell warp interpreter benchmark: the textured-square fragment shader
 * (perspective IPA of the texture coordinate, TEXS.2D bilinear, colour in
 * R0-R3) over a 1024x1024 grid of pixels in warps of 8x4 (2x2 quads), the
 * texture a 256x256 A8B8G8R8 block-linear image with WRAP and LINEAR
 * filtering (magnified 4x). Compared in the same run with a plain C loop
 * doing the same per-pixel work on the same texels (coordinate, bilinear
 * sample with 8-bit weights from a linear RGBA8 copy, unorm to float).
 * Times are this thread's CPU time, best of 3. Target: >= 50 M px/s and
 * within 10x of the C loop. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmdgpu/cmdgpu.h"
#include "cmdgpu/nv_sass.h"
#include "nv/gpu/sass_exec.h"
#include "summary.h"

#define GRID 1024
#define TEX 256
#define MAP_VA 0x10000000ull
#define TEX_OFF 0x10000u

static const char *shader = "IPA.PASS R0, a[0x7c], RZ, RZ, PT;\n"
                            "MUFU.RCP R0, R0;\n"
                            "IPA R1, a[0x80], R0, RZ, PT;\n"
                            "IPA R2, a[0x84], R0, RZ, PT;\n"
                            "TEXS.2D R2, R0, R1, R2, 0x0, 0x4;\n"
                            "EXIT;\n";

static uint32_t texel(uint32_t x, uint32_t y)
{
    return ((x * 7) & 0xff) | ((y * 5) & 0xff) << 8 | ((x ^ y) & 0xff) << 16 | 0xffu << 24;
}

static uint64_t gob_off(uint32_t xb, uint32_t y, uint32_t width_bytes)
{
    /* block-linear with 1-GOB-tall blocks (block_h 0) */
    uint64_t blocks_x = (width_bytes + 63) / 64;
    uint64_t block = (uint64_t)(y / 8) * blocks_x + xb / 64;
    return block * 512 + ((xb % 64) / 32) * 256 + ((y % 8) / 2) * 64 + ((xb % 32) / 16) * 32 +
           (y % 2) * 16 + xb % 16;
}

static volatile float sink;

/* The C loop: the same sample for every pixel from a linear copy. */
static double c_loop(const uint32_t *lin)
{
    double best = 1e30;
    for (int rep = 0; rep < 3; rep++) {
        double t0 = bench_thread_cpu();
        float acc = 0;
        for (uint32_t py = 0; py < GRID; py++)
            for (uint32_t px = 0; px < GRID; px++) {
                float u = ((float)px + 0.5f) / GRID, v = ((float)py + 0.5f) / GRID;
                double x = (double)u * TEX - 0.5, y = (double)v * TEX - 0.5;
                double fx = floor(x), fy = floor(y);
                float ax = (float)floor((x - fx) * 256.0) / 256.0f;
                float ay = (float)floor((y - fy) * 256.0) / 256.0f;
                uint32_t x0 = (uint32_t)((int)fx & (TEX - 1)), x1 = (x0 + 1) & (TEX - 1);
                uint32_t y0 = (uint32_t)((int)fy & (TEX - 1)), y1 = (y0 + 1) & (TEX - 1);
                uint32_t t[4] = {lin[y0 * TEX + x0], lin[y0 * TEX + x1], lin[y1 * TEX + x0],
                                 lin[y1 * TEX + x1]};
                for (int k = 0; k < 4; k++) {
                    float c[4];
                    for (int i = 0; i < 4; i++)
                        c[i] = (float)(t[i] >> (8 * k) & 0xff) * (1.0f / 255.0f);
                    float top = c[0] + (c[1] - c[0]) * ax, bot = c[2] + (c[3] - c[2]) * ax;
                    acc += top + (bot - top) * ay;
                }
            }
        sink = acc;
        double t = bench_thread_cpu() - t0;
        if (t < best)
            best = t;
    }
    return best;
}

int main(void)
{
    cg_device *dev;
    cg_vas *vas;
    cg_mem *mem;
    size_t map_n = TEX_OFF + (size_t)TEX * TEX * 4 + 0x1000;
    if (cg_device_create(&dev) || cg_vas_create(dev, NULL, &vas) ||
        cg_mem_create(dev, map_n, 0, &mem))
        return 1;
    cg_map_params mp = {.mem = mem, .size = map_n, .va = MAP_VA, .flags = CG_MAP_FIXED};
    uint64_t va;
    if (cg_vas_map(vas, &mp, &va))
        return 1;
    /* program: zero SPH + code */
    uint8_t *code;
    size_t code_n;
    if (cg_nv_sass_assemble(shader, strlen(shader), &code, &code_n, NULL))
        return 1;
    uint8_t sph[0x50] = {0};
    cg_mem_write(mem, 0, sph, sizeof sph);
    cg_mem_write(mem, 0x50, code, code_n);
    free(code);
    /* texture, TIC 0 at 0x1000, TSC 0 at 0x2000 */
    uint32_t *lin = malloc((size_t)TEX * TEX * 4);
    for (uint32_t y = 0; y < TEX; y++)
        for (uint32_t x = 0; x < TEX; x++) {
            uint32_t t = texel(x, y);
            lin[y * TEX + x] = t;
            cg_mem_write(mem, TEX_OFF + gob_off(x * 4, y, TEX * 4), &t, 4);
        }
    uint64_t tex_va = MAP_VA + TEX_OFF;
    uint32_t tic[8] = {0x58d24908, (uint32_t)tex_va, (uint32_t)(tex_va >> 32) | 3u << 21, 0,
                       (TEX - 1) | 1u << 23, (TEX - 1) | 1u << 31, 0, 0};
    uint32_t tsc[8] = {0x00, 0x62, 0, 0, 0, 0, 0, 0};
    cg_mem_write(mem, 0x1000, tic, sizeof tic);
    cg_mem_write(mem, 0x2000, tsc, sizeof tsc);

    nv_sass_prog *p;
    nv_sass_fault f;
    if (nv_sass_prog_build(vas, NULL, MAP_VA, map_n, MAP_VA, NV_STAGE_FRAGMENT, &p, &f)) {
        fprintf(stderr, "build: %s\n", f.msg);
        return 1;
    }
    static nv_sass_plane planes[NV_ATTR_WORDS];
    planes[0x7c / 4] = (nv_sass_plane){0, 0, 1.0f, 0};
    planes[0x80 / 4] = (nv_sass_plane){1.0f / GRID, 0, 0, 0};
    planes[0x84 / 4] = (nv_sass_plane){0, 1.0f / GRID, 0, 0};
    static uint32_t cb1[4] = {0};
    nv_sass_env env;
    memset(&env, 0, sizeof env);
    env.dev = dev;
    env.vas = vas;
    env.cb[1] = cb1;
    env.cb_size[1] = sizeof cb1;
    env.tex = (nv_sass_tex_env){MAP_VA + 0x1000, MAP_VA + 0x2000, 0, 0, false, 1};
    env.planes = planes;
    env.tcache = nv_sass_tex_cache_new();
    static nv_sass_warp w;
    double best = 1e30;
    float check = 0;
    for (int rep = 0; rep < 3; rep++) {
        double t0 = bench_thread_cpu();
        check = 0;
        for (uint32_t wy = 0; wy < GRID; wy += 4)
            for (uint32_t wx = 0; wx < GRID; wx += 8) {
                for (unsigned l = 0; l < NV_WARP; l++) {
                    unsigned q = l / 4;
                    env.frag_x[l] = (float)(wx + (q % 4) * 2 + (l & 1)) + 0.5f;
                    env.frag_y[l] = (float)(wy + (q / 4) * 2 + (l >> 1 & 1)) + 0.5f;
                }
                w.active = 0xffffffffu;
                w.exited = w.killed = 0;
                w.executed = 0;
                if (nv_sass_run(p, &env, &w, &f)) {
                    fprintf(stderr, "run: %s\n", f.msg);
                    return 1;
                }
                float v;
                memcpy(&v, &w.r[0][5], 4);
                check += v;
            }
        double t = bench_thread_cpu() - t0;
        if (t < best)
            best = t;
    }
    double tc = c_loop(lin);
    double px = (double)GRID * GRID;
    double rate = px / best / 1e6, crate = px / tc / 1e6;
    printf("nv sass_exec textured square %dx%d px (%d warps): %.1f ms, %.1f M px/s; "
           "C loop %.1f ms, %.1f M px/s; ratio %.1fx (check %.3f)\n",
           GRID, GRID, GRID * GRID / 32, best * 1e3, rate, tc * 1e3, crate, best / tc,
           (double)check);
    char cmp[64];
    snprintf(cmp, sizeof cmp, "C loop %.0f M px/s", crate);
    bench_summary("nv sass_exec textured square 1024x1024", rate, "M px/s", cmp, best / tc,
                  ">= 50 M px/s, <= 10x", rate >= 50 && best / tc <= 10);
    nv_sass_prog_free(p);
    free(lin);
    cg_vas_destroy(vas);
    cg_mem_unref(mem);
    cg_device_destroy(dev);
    return 0;
}
