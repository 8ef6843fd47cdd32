/* Fuzzes the 3D pipeline (src/nv/gpu/pipeline.c, raster.c, rop.c with the warp
 * interpreter): a valid setup (the programs of examples/nv/depth_blend.s,
 * a 64x64 A8B8G8R8 pitch target, a ZF32 zeta buffer, viewport 0, depth
 * test, blending) is sent first, then the input perturbs it and draws.
 * Input: byte 0 topology (mod 15), byte 1 vertex count (mod 64), bytes
 * 2..513 up to 16 vertices of 32 bytes (x y z w r g b a as floats, any
 * bits: NaN, infinities, huge and negative w), then 6-byte records (method
 * byte offset u16, value u32, little endian; at most 256) sent before the
 * draw. The operation limit is small, so every draw is bounded. Any input
 * must render or fault: never a crash, a leak, a hang or a sanitizer
 * report. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmdgpu/cmdgpu.h"
#include "cmdgpu/nv.h"
#include "cmdgpu/nv_sass.h"

#define PB_VA 0x100000000ull
#define DATA_VA 0x100010000ull /* vertices 0x0, programs 0x1000, rt 0x2000, zeta 0x6000 */
#define VTX_OFF 0x0
#define PROG_OFF 0x1000
#define RT_OFF 0x2000
#define ZT_OFF 0x6000
#define MAX_RECORDS 256

static const char *vs_text = "ALD.128 R0, a[0x80], RZ;\nALD.128 R4, a[0x90], RZ;\n"
                             "AST.128 a[0x70], R0, RZ;\nAST.128 a[0x80], R4, RZ;\nEXIT;\n";
static const char *ps_text = "IPA.PASS R4, a[0x7c], RZ, RZ, PT;\nMUFU.RCP R4, R4;\n"
                             "IPA R0, a[0x80], R4, RZ, PT;\nIPA R1, a[0x84], R4, RZ, PT;\n"
                             "IPA R2, a[0x88], R4, RZ, PT;\nIPA R3, a[0x8c], R4, RZ, PT;\nEXIT;\n";
static const uint32_t vs_sph[20] = {0x461, 0, 0, 0, 0, 0, 0xff, 0, 0, 0,
                                    0, 0, 0, 0xff000, 0, 0, 0, 0, 0, 0};
static const uint32_t ps_sph[20] = {0x1462, 0, 0, 0, 0, 0x80000000, 0xaa, 0, 0, 0,
                                    0, 0, 0, 0, 0, 0, 0, 0, 0xf, 0};

typedef struct pb {
    uint32_t w[4096];
    size_t n;
} pb;

static void m1(pb *p, uint32_t mthd, uint32_t v)
{
    if (p->n + 2 <= 4096) {
        p->w[p->n++] = cg_nv_hdr(1, 0, mthd, 1);
        p->w[p->n++] = v;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2)
        return 0;
    unsigned topo = data[0] % 15, count = data[1] % 64;
    size_t vbytes = size - 2 < 512 ? size - 2 : 512;
    size_t nrec = size > 514 ? (size - 514) / 6 : 0;
    if (nrec > MAX_RECORDS)
        return 0;
    static uint8_t mem[0x8000];
    memset(mem, 0, sizeof mem);
    memcpy(mem + VTX_OFF, data + 2, vbytes);
    /* the programs: SPH + code */
    uint8_t *code;
    size_t clen;
    if (cg_nv_sass_assemble(vs_text, strlen(vs_text), &code, &clen, NULL) != 0)
        return 0;
    memcpy(mem + PROG_OFF, vs_sph, 80);
    memcpy(mem + PROG_OFF + 80, code, clen < 0x100 - 80 ? clen : 0x100 - 80);
    free(code);
    if (cg_nv_sass_assemble(ps_text, strlen(ps_text), &code, &clen, NULL) != 0)
        return 0;
    memcpy(mem + PROG_OFF + 0x100, ps_sph, 80);
    memcpy(mem + PROG_OFF + 0x150, code, clen < 0x100 - 80 ? clen : 0x100 - 80);
    free(code);

    static pb p;
    p.n = 0;
    p.w[p.n++] = cg_nv_hdr(1, 0, 0, 1);
    p.w[p.n++] = 0xB197;
    uint64_t d = DATA_VA;
    m1(&p, 0x1608, (uint32_t)(d >> 32));                 /* SET_PROGRAM_REGION_A/B */
    m1(&p, 0x160C, (uint32_t)(d + PROG_OFF));
    m1(&p, 0x2000 + 64 * 1, 0x11);                       /* SET_PIPELINE_SHADER(1) */
    m1(&p, 0x2004 + 64 * 1, 0);
    m1(&p, 0x2000 + 64 * 5, 0x51);                       /* SET_PIPELINE_SHADER(5) */
    m1(&p, 0x2004 + 64 * 5, 0x100);
    m1(&p, 0x0800, (uint32_t)((d + RT_OFF) >> 32));      /* SET_COLOR_TARGET_A(0).. */
    m1(&p, 0x0804, (uint32_t)(d + RT_OFF));
    m1(&p, 0x0808, 256);
    m1(&p, 0x080C, 64);
    m1(&p, 0x0810, 0xD5);
    m1(&p, 0x0814, 0x1000);
    m1(&p, 0x121C, 1);                                   /* SET_CT_SELECT: 1 target */
    m1(&p, 0x1A00, 0x1111);                              /* SET_CT_WRITE(0) */
    m1(&p, 0x0FE0, (uint32_t)((d + ZT_OFF) >> 32));      /* SET_ZT_A, B, FORMAT ZF32 */
    m1(&p, 0x0FE4, (uint32_t)(d + ZT_OFF));
    m1(&p, 0x0FE8, 0x0A);
    m1(&p, 0x1228, 64);                                  /* SET_ZT_SIZE_A/B/C */
    m1(&p, 0x122C, 32);
    m1(&p, 0x1230, 0x10001);
    m1(&p, 0x1538, 1);                                   /* SET_ZT_SELECT */
    m1(&p, 0x0FF4, 64u << 16);                           /* SET_SURFACE_CLIP_* */
    m1(&p, 0x0FF8, 64u << 16);
    static const uint32_t vp[6] = {0x42000000, 0x42000000, 0x3f000000,
                                   0x42000000, 0x42000000, 0x3f000000};
    for (unsigned i = 0; i < 6; i++)
        m1(&p, 0x0A00 + 4 * i, vp[i]);                   /* SET_VIEWPORT_SCALE/OFFSET(0) */
    m1(&p, 0x192C, 1);                                   /* SET_VIEWPORT_SCALE_OFFSET */
    m1(&p, 0x0D90, 0x3f800000);                          /* SET_Z_CLEAR_VALUE 1.0 */
    m1(&p, 0x19D0, 0x1);                                 /* CLEAR_SURFACE Z */
    m1(&p, 0x12CC, 1);                                   /* SET_DEPTH_TEST */
    m1(&p, 0x130C, 0x201);                               /* SET_DEPTH_FUNC LESS */
    m1(&p, 0x12E8, 1);                                   /* SET_DEPTH_WRITE */
    m1(&p, 0x1360, 1);                                   /* SET_BLEND(0) */
    m1(&p, 0x1340, 0x8006);
    m1(&p, 0x1344, 0x4302);
    m1(&p, 0x1348, 0x4303);
    m1(&p, 0x1160, 0x38200000);                          /* attributes 0, 1 */
    m1(&p, 0x1164, 0x38200800);
    m1(&p, 0x1C00, 0x1020);                              /* stream 0 */
    m1(&p, 0x1C04, (uint32_t)((d + VTX_OFF) >> 32));
    m1(&p, 0x1C08, (uint32_t)(d + VTX_OFF));
    m1(&p, 0x1F00, (uint32_t)((d + VTX_OFF + 0x1FF) >> 32));
    m1(&p, 0x1F04, (uint32_t)(d + VTX_OFF + 0x1FF));
    for (size_t i = 0; i < nrec; i++) {
        const uint8_t *r = data + 514 + 6 * i;
        uint32_t m = ((uint32_t)r[0] | (uint32_t)r[1] << 8) & 0x3FFC;
        m1(&p, m, (uint32_t)r[2] | (uint32_t)r[3] << 8 | (uint32_t)r[4] << 16 |
                      (uint32_t)r[5] << 24);
    }
    m1(&p, 0x1214, count << 16 | topo << 28);            /* DRAW_VERTEX_ARRAY_BEGIN_END_INSTANCE_FIRST */

    cg_device *dev;
    if (cg_device_create(&dev) != 0)
        return 0;
    cg_nv_gpu *gpu = NULL;
    cg_nv_as *as;
    cg_nv_channel *ch;
    uint32_t hp, hd;
    uint64_t va;
    if (cg_nv_gpu_create(dev, &gpu))
        goto out0;
    cg_nv_gpu_set_op_limit(gpu, 1u << 20);
    if (cg_nv_as_create(gpu, 0, &as) || cg_nv_nvmap_create(gpu, 0x10000, &hp) ||
        cg_nv_nvmap_alloc(gpu, hp, 1, 0, 0, 0) || cg_nv_nvmap_create(gpu, 0x10000, &hd) ||
        cg_nv_nvmap_alloc(gpu, hd, 1, 0, 0, 0))
        goto out;
    va = PB_VA;
    if (cg_nv_as_alloc_space(as, 32, 0x1000, CG_NV_AS_FIXED, &va) ||
        cg_nv_as_map_buffer_ex(as, CG_NV_AS_FIXED, 0, hp, 0, 0, 0, &va))
        goto out;
    va = DATA_VA;
    if (cg_nv_as_map_buffer_ex(as, CG_NV_AS_FIXED, 0, hd, 0, 0, 0, &va))
        goto out;
    cg_vas_cpu_write(cg_nv_as_vas(as), PB_VA, p.w, p.n * 4);
    cg_vas_cpu_write(cg_nv_as_vas(as), DATA_VA, mem, sizeof mem);
    if (cg_nv_channel_open(gpu, as, 8, &ch))
        goto out;
    uint64_t ent = cg_nv_gp_entry(PB_VA, (uint32_t)p.n, 0);
    cg_nv_channel_submit_gpfifo(ch, &ent, 1, 0, NULL);
    cg_nv_gpu_finish(gpu);
    if (getenv("FUZZ_NV_DRAW_DEBUG")) { /* what the input did: faults, pixel (10, 10) */
        uint32_t px = 0;
        cg_vas_cpu_read(cg_nv_as_vas(as), DATA_VA + RT_OFF + 4 * (64 * 10 + 10), &px, 4);
        fprintf(stderr, "faults %zu%s%s, pixel (10, 10) 0x%08x\n", cg_fault_count(dev),
                cg_fault_count(dev) ? ": " : "",
                cg_fault_count(dev) ? cg_fault_get(dev, 0)->message : "", px);
    }
out:
    cg_nv_gpu_destroy(gpu);
out0:
    cg_device_destroy(dev);
    return 0;
}
