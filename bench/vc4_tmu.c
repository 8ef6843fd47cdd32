/* vc4 TMU benchmark: bilinear lookups of a 256x256 RGBA8888 T-format
 * texture through vc4_tmu_texture (16-lane requests laid out as four 2x2
 * quads, as the fragment batches of render.c are, mapped memory read
 * through the bus), against a plain C bilinear loop over the same texels in
 * a host raster array (same 8-bit weights, no memory model), in the same
 * run. Also nearest lookups and a mipmapped (LIN_MIP_LIN) case, whose
 * quads step 2.8 texels a pixel (LOD about 1.5: two bilinear levels).
 * Figures are texels (lane results) per second of this thread's CPU time;
 * no thresholds. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmdgpu/cmdgpu.h"
#include "summary.h"
#include "vc4/gpu/tmu.h"

#define SECONDS 0.4
#define TEX 256
#define BASE 0x100000u

static uint32_t host[TEX * TEX];

static double run_model(vc4_tmu_req *r, float step, unsigned long *texels)
{
    uint32_t out[16];
    vc4_tmu_fault f;
    unsigned long n = 0;
    uint32_t sink = 0;
    double t0 = bench_thread_cpu(), t;
    unsigned k = 0;
    do {
        for (int rep = 0; rep < 256; rep++, k++) {
            float s0 = (float)((k * 37u) % TEX) / TEX, t0f = (float)((k * 91u) % TEX) / TEX;
            for (int l = 0; l < 16; l++) {
                int q = l / 4, e = l % 4;
                r->s[l] = s0 + (float)(q * 2 + (e & 1)) * step / TEX;
                r->t[l] = t0f + (float)(e >> 1) * step / TEX;
            }
            if (vc4_tmu_texture(r, out, &f) != 0) {
                fprintf(stderr, "vc4_tmu bench: fault %s\n", f.msg);
                exit(1);
            }
            sink ^= out[k & 15];
            n += 16;
        }
        t = bench_thread_cpu() - t0;
    } while (t < SECONDS);
    if (sink == 0x12345678)
        printf(" ");
    *texels = n;
    return t;
}

static uint32_t plain_bilinear(float s, float tt)
{
    double u = s * TEX - 0.5, v = tt * TEX - 0.5;
    double fu = floor(u), fv = floor(v);
    unsigned ax = (unsigned)((u - fu) * 256), ay = (unsigned)((v - fv) * 256);
    int x0 = (int)fu & (TEX - 1), y0 = (int)fv & (TEX - 1);
    int x1 = (x0 + 1) & (TEX - 1), y1 = (y0 + 1) & (TEX - 1);
    uint32_t c[4] = {host[y0 * TEX + x0], host[y0 * TEX + x1], host[y1 * TEX + x0],
                     host[y1 * TEX + x1]};
    unsigned w[4] = {(256 - ax) * (256 - ay), ax * (256 - ay), (256 - ax) * ay, ax * ay};
    uint32_t r = 0;
    for (int k = 0; k < 4; k++) {
        uint32_t acc = 0;
        for (int i = 0; i < 4; i++)
            acc += ((c[i] >> (8 * k)) & 255) * w[i];
        r |= ((acc + 32768) >> 16) << (8 * k);
    }
    return r;
}

static double run_plain(unsigned long *texels)
{
    unsigned long n = 0;
    uint32_t sink = 0;
    double t0 = bench_thread_cpu(), t;
    unsigned k = 0;
    do {
        for (int rep = 0; rep < 256; rep++, k++) {
            float s0 = (float)((k * 37u) % TEX) / TEX, t0f = (float)((k * 91u) % TEX) / TEX;
            for (int l = 0; l < 16; l++) {
                int q = l / 4, e = l % 4;
                sink ^= plain_bilinear(s0 + (float)(q * 2 + (e & 1)) * 0.7f / TEX,
                                       t0f + (float)(e >> 1) * 0.7f / TEX);
            }
            n += 16;
        }
        t = bench_thread_cpu() - t0;
    } while (t < SECONDS);
    if (sink == 0x12345678)
        printf(" ");
    *texels = n;
    return t;
}

int main(void)
{
    cg_device *dev;
    cg_vas *bus;
    cg_mem *mem;
    if (cg_device_create(&dev) != 0)
        return 1;
    cg_vas_config cfg = {.va_bits = 32};
    if (cg_vas_create(dev, &cfg, &bus) != 0 || cg_mem_create(dev, 0x80000, 0, &mem) != 0)
        return 1;
    cg_map_params mp = {.mem = mem, .va = BASE - 0x40000, .flags = CG_MAP_FIXED};
    uint64_t va;
    if (cg_vas_map(bus, &mp, &va) != 0)
        return 1;
    /* level 0 and a mip chain below it, through the library's layout */
    vc4_tmu_level lv[16];
    long below = vc4_tmu_layout_levels(VC4_TMU_TYPE_RGBA8888, TEX, TEX, 8, lv);
    if (below < 0 || below > 0x40000)
        return 1;
    for (uint32_t y = 0; y < TEX; y++)
        for (uint32_t x = 0; x < TEX; x++)
            host[y * TEX + x] = (x * 7) | (y * 13) << 8 | ((x ^ y) & 255) << 16 | 0xffu << 24;
    uint8_t *img = calloc(1, lv[0].size);
    if (!img)
        return 1;
    for (uint32_t y = 0; y < TEX; y++)
        for (uint32_t x = 0; x < TEX; x++)
            memcpy(img + vc4_tmu_unit_offset(&lv[0], 32, x, y, NULL), &host[y * TEX + x], 4);
    cg_vas_write(bus, BASE, img, lv[0].size, NULL);
    free(img);

    vc4_tmu_req r;
    memset(&r, 0, sizeof r);
    r.dev = dev;
    r.bus = bus;
    r.nparams = 2;
    r.lanes = 0xffff;
    r.has_t = true;
    r.params[0] = BASE | 0u << 4 | 0;
    /* P1: height 20, width 8, mag linear (0), min linear (0), repeat */
    r.params[1] = (uint32_t)TEX << 20 | (uint32_t)TEX << 8;

    unsigned long nm, np, nn, nmip;
    double tm = run_model(&r, 0.7f, &nm);
    double tp = run_plain(&np);
    r.params[1] |= 1u << 7 | 1u << 4; /* nearest */
    double tn = run_model(&r, 0.7f, &nn);
    r.params[0] = BASE | 8;           /* 9 levels */
    r.params[1] = (uint32_t)TEX << 20 | (uint32_t)TEX << 8 | 5u << 4; /* LIN_MIP_LIN */
    double tmip = run_model(&r, 2.8f, &nmip); /* LOD about 1.5 */

    double rm = (double)nm / tm / 1e6, rp = (double)np / tp / 1e6;
    double rn = (double)nn / tn / 1e6, rmip = (double)nmip / tmip / 1e6;
    printf("vc4 TMU, 256x256 RGBA8888 T-format, 16-lane requests (CPU time):\n");
    printf("  bilinear through vc4_tmu_texture: %8.2f M texels/s\n", rm);
    printf("  bilinear, plain C on a raster array: %8.2f M texels/s (%.1fx the model)\n", rp,
           rp / rm);
    printf("  nearest through vc4_tmu_texture:  %8.2f M texels/s\n", rn);
    printf("  LIN_MIP_LIN (quad LOD, two levels):%8.2f M texels/s\n", rmip);
    char cmp[96];
    snprintf(cmp, sizeof cmp, "plain C %.2f M/s", rp);
    bench_summary("vc4 TMU bilinear RGBA8888 T-format", rm, "M texels/s", cmp, rm / rp, "-", -1);
    bench_summary("vc4 TMU nearest RGBA8888 T-format", rn, "M texels/s", "-", 0, "-", -1);
    bench_summary("vc4 TMU LIN_MIP_LIN RGBA8888", rmip, "M texels/s", "-", 0, "-", -1);
    cg_vas_destroy(bus);
    cg_mem_unref(mem);
    cg_device_destroy(dev);
    return 0;
}
