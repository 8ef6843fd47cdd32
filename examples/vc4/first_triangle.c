/* FIRST TRIANGLE through the library API, the way seed 003's bare-metal
 * code drives the chip: mailbox property calls (V3D clock and QPU enable,
 * then the frame buffer), control lists written by the CPU, the frame
 * buffer address patched into Tile_Rendering_Mode_Configuration, CT0CA /
 * CT0EA then CT1CA / CT1EA, polling BFC and RFC, then reading the frame
 * buffer (written to first_triangle_api.png, or argv[1]).
 *
 * Everything goes through registers and memory: cg_vc4_mmio_* for the
 * mailbox and V3D, cg_vc4_cpu_* for the ARM's stores to SDRAM. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmdgpu/cmdgpu.h"

enum {
    MBOX_BUF = 0x8000,       /* property buffers (16-byte aligned) */
    BIN_LIST = 0x9000,
    REND_LIST = 0xA000,
    NV_RECORD = 0xB000,      /* 16-byte aligned */
    VERTICES = 0xB100,
    SHADER = 0xB200,
    BIN_ADDRESS = 0x400000,  /* tile lists, as in the seed's dump */
    BIN_MEM_SIZE = 0x8000,
    BIN_BASE = 0x500000,     /* tile state array */
    SCREEN_X = 640, SCREEN_Y = 480,
};

typedef struct buf {
    uint8_t b[2048];
    size_t n;
} buf;
static void b8(buf *c, uint32_t v) { c->b[c->n++] = (uint8_t)v; }
static void b16(buf *c, uint32_t v) { b8(c, v & 0xFF); b8(c, (v >> 8) & 0xFF); }
static void b32(buf *c, uint32_t v) { b16(c, v & 0xFFFF); b16(c, v >> 16); }

static int mbox_call(cg_vc4 *v, const uint32_t *msg, size_t words, uint32_t *resp)
{
    cg_vc4_cpu_write(v, MBOX_BUF, msg, words * 4);
    uint32_t status;
    do /* wait while full */
        cg_vc4_mmio_read(v, CG_VC4_MBOX_BASE + CG_VC4_MBOX_STATUS, &status);
    while (status & CG_VC4_MBOX_FULL);
    cg_vc4_mmio_write(v, CG_VC4_MBOX_BASE + CG_VC4_MBOX_WRITE, MBOX_BUF | 8);
    do
        cg_vc4_mmio_read(v, CG_VC4_MBOX_BASE + CG_VC4_MBOX_STATUS, &status);
    while (status & CG_VC4_MBOX_EMPTY);
    uint32_t m;
    cg_vc4_mmio_read(v, CG_VC4_MBOX_BASE + CG_VC4_MBOX_READ, &m);
    cg_vc4_cpu_read(v, MBOX_BUF, resp, words * 4);
    return resp[1] == 0x80000000u ? 0 : -1;
}

int main(int argc, char **argv)
{
    const char *out = argc > 1 ? argv[1] : "first_triangle_api.png";
    cg_device *dev;
    cg_vc4 *v;
    if (cg_device_create(&dev) || cg_vc4_create(dev, NULL, &v))
        return 1;

    /* 1. initialise the GPU: V3D clock 250 MHz, enable the QPUs */
    uint32_t tags[] = {12 * 4, 0, 0x38002, 8, 8, 5, 250000000, 0x30012, 4, 4, 1, 0};
    uint32_t resp[32];
    if (mbox_call(v, tags, 12, resp) != 0)
        return fprintf(stderr, "mailbox (tags) failed\n"), 1;
    /* 2. the frame buffer: physical/virtual size, depth, allocate */
    uint32_t fbmsg[26] = {26 * 4, 0, 0x48003, 8, 0, SCREEN_X, SCREEN_Y, 0x48004, 8, 8,
                          SCREEN_X, SCREEN_Y, 0x48005, 4, 4, 32, 0x40001, 8, 8, 16, 0,
                          0x40008, 4, 0, 0, 0};
    if (mbox_call(v, fbmsg, 26, resp) != 0)
        return fprintf(stderr, "mailbox (framebuffer) failed\n"), 1;
    uint32_t fb = resp[19], pitch = resp[24];
    printf("frame buffer at bus 0x%08x, %u bytes, pitch %u\n", fb, resp[20], pitch);

    /* 3. the render list: wait for binning, clear, configure, per tile */
    buf r = {.n = 0};
    b8(&r, 8);                                                   /* Wait_On_Semaphore */
    b8(&r, 114); b32(&r, 0xFF00FFFF); b32(&r, 0); b32(&r, 0); b8(&r, 0); /* Clear_Colors */
    b8(&r, 113); b32(&r, fb); b16(&r, SCREEN_X); b16(&r, SCREEN_Y); b16(&r, 0x4); /* RGBA8888 */
    b8(&r, 115); b8(&r, 0); b8(&r, 0);                          /* Tile_Coordinates 0, 0 */
    b8(&r, 28); b16(&r, 0); b32(&r, 0);                          /* Store_Tile_Buffer_General */
    for (int y = 0; y < 8; y++)
        for (int x = 0; x < 10; x++) {
            b8(&r, 115); b8(&r, x); b8(&r, y);
            b8(&r, 17); b32(&r, BIN_ADDRESS + (y * 10 + x) * 32);
            b8(&r, x == 9 && y == 7 ? 25 : 24);
        }
    /* 4. the binning list */
    buf b = {.n = 0};
    b8(&b, 112); b32(&b, BIN_ADDRESS); b32(&b, BIN_MEM_SIZE); b32(&b, BIN_BASE);
    b8(&b, 10); b8(&b, 8); b8(&b, 0x04);                          /* auto-initialise */
    b8(&b, 6);                                                   /* Start_Tile_Binning */
    b8(&b, 7);                                                   /* Increment_Semaphore */
    b8(&b, 102); b16(&b, 0); b16(&b, 0); b16(&b, SCREEN_X); b16(&b, SCREEN_Y);
    b8(&b, 96); b8(&b, 0x03); b16(&b, 0x0200);                   /* Configuration_Bits */
    b8(&b, 103); b16(&b, 0); b16(&b, 0);                         /* Viewport_Offset */
    b8(&b, 65); b32(&b, NV_RECORD);                              /* NV_Shader_State */
    b8(&b, 33); b8(&b, 4); b32(&b, 3); b32(&b, 0);               /* triangles, 3, 0 */
    b8(&b, 4);                                                   /* Flush */
    /* 5. shader record, vertices, fragment shader */
    uint32_t nv[4] = {12u << 8, SHADER, 0, VERTICES};
    uint32_t one = 0x3f800000;
    uint32_t verts[9] = {(32 * 16u) << 16 | 320 * 16u, one, one, (448 * 16u) << 16 | 32 * 16u,
                         one, one, (448 * 16u) << 16 | 608 * 16u, one, one};
    uint32_t fs[12] = {0x009E7000, 0x100009E7, 0xFFFFFFFF, 0xE0020BA7, 0x009E7000, 0x500009E7,
                       0x009E7000, 0x300009E7, 0x009E7000, 0x100009E7, 0x009E7000, 0x100009E7};
    cg_vc4_cpu_write(v, REND_LIST, r.b, r.n);
    cg_vc4_cpu_write(v, BIN_LIST, b.b, b.n);
    cg_vc4_cpu_write(v, NV_RECORD, nv, sizeof nv);
    cg_vc4_cpu_write(v, VERTICES, verts, sizeof verts);
    cg_vc4_cpu_write(v, SHADER, fs, sizeof fs);

    /* 6. kick: binning thread, then render thread; poll BFC and RFC */
    cg_vc4_mmio_write(v, CG_VC4_V3D_BASE + CG_VC4_CT0CA, BIN_LIST);
    cg_vc4_mmio_write(v, CG_VC4_V3D_BASE + CG_VC4_CT0EA, BIN_LIST + (uint32_t)b.n);
    cg_vc4_mmio_write(v, CG_VC4_V3D_BASE + CG_VC4_CT1CA, REND_LIST);
    cg_vc4_mmio_write(v, CG_VC4_V3D_BASE + CG_VC4_CT1EA, REND_LIST + (uint32_t)r.n);
    uint32_t bfc = 0, rfc = 0;
    for (int spin = 0; spin < 1000 && (bfc == 0 || rfc == 0); spin++) {
        cg_vc4_mmio_read(v, CG_VC4_V3D_BASE + CG_VC4_BFC, &bfc);
        cg_vc4_mmio_read(v, CG_VC4_V3D_BASE + CG_VC4_RFC, &rfc);
    }
    printf("BFC %u, RFC %u\n", bfc, rfc);
    if (bfc != 1 || rfc != 1) {
        cg_vc4_wait_idle(v);
        for (size_t i = 0; i < cg_fault_count(dev); i++) {
            char line[512];
            cg_fault_format(cg_fault_get(dev, i), line, sizeof line);
            fprintf(stderr, "%s\n", line);
        }
        return 1;
    }
    /* 7. read the frame buffer */
    uint64_t hash = 0;
    cg_vc4_fb_hash(v, fb, SCREEN_X, SCREEN_Y, pitch, 32, &hash);
    int rc = cg_vc4_fb_png(v, fb, SCREEN_X, SCREEN_Y, pitch, 32, out);
    printf("wrote %s: pixel hash %016llx%s\n", out, (unsigned long long)hash,
           rc ? " (write failed)" : "");
    cg_vc4_destroy(v);
    cg_device_destroy(dev);
    return rc ? 1 : 0;
}
