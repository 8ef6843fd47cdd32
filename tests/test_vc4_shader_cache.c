/* vc4 renderer: the decoded-shader cache (qpu.h vc4_qpu_cache) must never
 * change a result. Fragment-shader code rewritten by the CPU between frames
 * (a changed first instruction, a changed later instruction, a breakpoint
 * put in) must run as written; with CPU-cached memory, code the CPU wrote but
 * did not flush must still raise the stale-read fault and run the old bytes,
 * as the uncached fetch path does. The payload registers (W, Z) a shader
 * reads come out exactly whatever the renderer skips computing. */
#include <stdbool.h>
#include <stdlib.h>
#include "check.h"
#include "vc4_testenv.h"
#include "cmdgpu/cmdgpu.h"

/* One 64x64 tile, one triangle (0,0) (64,0) (0,64), the shader at FS: two
 * `ldi tlbc` (the second one wins) and the end sequence. */
static const char *scene =
    ".section t, 0x10000\n"
    "BIN: Tile_Binning_Mode_Configuration 0x400000, 0x1000, 0x500000, 1, 1, "
    "Auto_Init_Tile_State_Data\n"
    "Start_Tile_Binning\nIncrement_Semaphore\nClip_Window 0, 0, 64, 64\n"
    "Viewport_Offset 0, 0\nConfiguration_Bits 3, 0\nNV_Shader_State NV\n"
    "Vertex_Array_Primitives 4, 3, 0\nFlush\nBIN_END:\n"
    "REND: Wait_On_Semaphore\nClear_Colors 0xFF000000, 0xFFFFFF, 0, 0\n"
    "Tile_Rendering_Mode_Configuration 0x100000, 64, 64, Frame_Buffer_Color_Format_RGBA8888\n"
    "Tile_Coordinates 0, 0\nStore_Tile_Buffer_General 0, 0, 0\n"
    "Tile_Coordinates 0, 0\nBranch_To_Sub_List 0x400000\nStore_Multi_Sample_End\nREND_END:\n"
    ".align 16\nNV: .byte 0, 12, 0, 0\n.word FS, 0, VD\n"
    ".align 16\nVD: .half 0, 0\n.float 0.5, 1.0\n.half 64*16, 0\n.float 0.5, 1.0\n"
    ".half 0, 64*16\n.float 0.5, 1.0\n"
    ".align 16\nFS: .word 0xFF111111, 0xE0020BA7, 0xFF222222, 0xE0020BA7, "
    "0x009E7000, 0x300009E7, 0x009E7000, 0x100009E7, 0x009E7000, 0x100009E7\n";

/* Pixels (of the 64x64 frame at 0x100000) equal to `c`. The triangle covers
 * the centres (x + 0.5, y + 0.5) with x + y < 63 (the hypotenuse is a right
 * edge: centres on it are out): 64 * 63 / 2 = 2016 pixels. */
static int count(cg_vc4 *v, uint32_t c)
{
    int n = 0;
    for (uint32_t i = 0; i < 64 * 64; i++) {
        uint32_t px;
        cg_vc4_cpu_read32(v, 0x100000 + 4 * i, &px);
        n += px == c;
    }
    return n;
}

static void frame(cg_vc4 *v, cg_asm *as)
{
    kick(v, 0, sym(as, "BIN"), sym(as, "BIN_END"));
    kick(v, 1, sym(as, "REND"), sym(as, "REND_END"));
    cg_vc4_wait_idle(v);
}

static void test_rewritten_code(void)
{
    cg_device *dev;
    cg_vc4 *v;
    CHECK_EQ(cg_device_create(&dev), 0);
    CHECK_EQ(cg_vc4_create(dev, NULL, &v), 0);
    cg_asm *as = load(v, scene);
    uint32_t fs = sym(as, "FS");
    frame(v, as);
    CHECK_EQ(cg_fault_count(dev), 0);
    CHECK_EQ(count(v, 0xFF222222), 2016);
    CHECK_EQ(count(v, 0xFF000000), 64 * 64 - 2016);
    /* the second instruction's immediate changes: the cached first one stays */
    cg_vc4_cpu_write32(v, fs + 8, 0xFF333333);
    frame(v, as);
    CHECK_EQ(count(v, 0xFF333333), 2016);
    /* the second instruction becomes a nop: the first one's colour shows */
    cg_vc4_cpu_write32(v, fs + 8, 0x009E7000);
    cg_vc4_cpu_write32(v, fs + 12, 0x100009E7);
    frame(v, as);
    CHECK_EQ(count(v, 0xFF111111), 2016);
    /* the first instruction's immediate changes */
    cg_vc4_cpu_write32(v, fs, 0xFF444444);
    frame(v, as);
    CHECK_EQ(count(v, 0xFF444444), 2016);
    CHECK_EQ(cg_fault_count(dev), 0);
    /* hostile: a software breakpoint (signal 0) where the first ldi was */
    cg_vc4_cpu_write32(v, fs, 0x009E7000);
    cg_vc4_cpu_write32(v, fs + 4, 0x000009E7);
    frame(v, as);
    CHECK_EQ(cg_fault_count(dev), 1);
    const cg_fault *f = cg_fault_get(dev, 0);
    CHECK_EQ(f->kind, CG_FAULT_TRAP);
    CHECK_EQ(f->stream_addr, fs);
    CHECK_EQ(f->nwords, 2);
    CHECK_EQ(f->words[0], 0x009E7000);
    CHECK_EQ(f->words[1], 0x000009E7);
    cg_asm_destroy(as);
    cg_vc4_destroy(v);
    cg_device_destroy(dev);
}

static void test_unflushed_code(void)
{
    cg_device *dev;
    cg_vc4 *v;
    cg_vc4_config cfg = {.cpu_cached = true};
    CHECK_EQ(cg_device_create(&dev), 0);
    cg_device_set_coherency(dev, CG_COHERENCY_WARN);
    CHECK_EQ(cg_vc4_create(dev, &cfg, &v), 0);
    cg_asm *as = load(v, scene);
    uint32_t fs = sym(as, "FS");
    CHECK_EQ(cg_vc4_cpu_flush(v, 0x10000, 0x1000), 0);
    frame(v, as);
    CHECK_EQ(cg_fault_count(dev), 0);
    CHECK_EQ(cg_vc4_cpu_flush(v, 0x100000, 64 * 64 * 4), 0); /* the ARM reads the frame */
    CHECK_EQ(count(v, 0xFF222222), 2016);
    /* new code the CPU holds in its cache: the GPU reads the old bytes and
     * the model reports it at the instruction's address */
    cg_vc4_cpu_write32(v, fs + 8, 0xFF555555);
    frame(v, as);
    size_t stale = 0, other = 0;
    for (size_t i = 0; i < cg_fault_count(dev); i++) {
        const cg_fault *f = cg_fault_get(dev, i);
        if (f->kind == CG_FAULT_STALE_GPU_READ && f->gpu_addr >= fs + 8 && f->gpu_addr < fs + 16)
            stale++;
        else
            other++;
    }
    CHECK(stale > 0);
    CHECK_EQ(other, 0);
    cg_fault_clear(dev);
    CHECK_EQ(cg_vc4_cpu_invalidate(v, 0x100000, 64 * 64 * 4), 0);
    CHECK_EQ(count(v, 0xFF222222), 2016);
    /* flushed: the new colour */
    CHECK_EQ(cg_vc4_cpu_flush(v, fs, 16), 0);
    frame(v, as);
    CHECK_EQ(cg_fault_count(dev), 0);
    CHECK_EQ(cg_vc4_cpu_invalidate(v, 0x100000, 64 * 64 * 4), 0);
    CHECK_EQ(count(v, 0xFF555555), 2016);
    cg_asm_destroy(as);
    cg_vc4_destroy(v);
    cg_device_destroy(dev);
}

/* The payload registers through the renderer: ra15 = W and rb15 = Z (24
 * bits), read at the start, in a program-end delay slot and after a branch
 * (the renderer skips computing what no instruction can see, so each read
 * must still get the exact value). Vertices (0,0) Z 0.25 1/W 1; (64,0) Z 0.5
 * 1/W 0.5; (0,64) Z 0.75 1/W 0.25; no varyings. */
static const char *payload_scene =
    ".section t, 0x10000\n"
    "BIN: Tile_Binning_Mode_Configuration 0x400000, 0x1000, 0x500000, 1, 1, "
    "Auto_Init_Tile_State_Data\n"
    "Start_Tile_Binning\nIncrement_Semaphore\nClip_Window 0, 0, 64, 64\n"
    "Viewport_Offset 0, 0\nConfiguration_Bits 3, 0\nNV_Shader_State NV\n"
    "Vertex_Array_Primitives 4, 3, 0\nFlush\nBIN_END:\n"
    "REND: Wait_On_Semaphore\nClear_Colors 0xFF000000, 0xFFFFFF, 0, 0\n"
    "Tile_Rendering_Mode_Configuration 0x100000, 64, 64, Frame_Buffer_Color_Format_RGBA8888\n"
    "Tile_Coordinates 0, 0\nStore_Tile_Buffer_General 0, 0, 0\n"
    "Tile_Coordinates 0, 0\nBranch_To_Sub_List 0x400000\nStore_Multi_Sample_End\nREND_END:\n"
    ".align 16\nNV: .byte 0, 12, 0, 0\n.word PW, 0, VD\n"
    ".align 16\nVD: .half 0, 0\n.float 0.25, 1.0\n.half 64*16, 0\n.float 0.5, 0.5\n"
    ".half 0, 64*16\n.float 0.75, 0.25\n"
    /* mov tlbc, ra15; thrend; nop; nop */
    ".align 16\nPW: .word 0x153e7d80, 0x10020ba7, 0x009e7000, 0x300009e7, "
    "0x009e7000, 0x100009e7, 0x009e7000, 0x100009e7\n"
    /* mov tlbc, rb15; thrend; nop; nop */
    "PZ: .word 0x159cffc0, 0x10020ba7, 0x009e7000, 0x300009e7, "
    "0x009e7000, 0x100009e7, 0x009e7000, 0x100009e7\n"
    /* thrend; mov tlbc, ra15 (first delay slot); nop */
    "PWD: .word 0x009e7000, 0x300009e7, 0x153e7d80, 0x10020ba7, 0x009e7000, 0x100009e7\n"
    /* mov.sf nop, unif; brr.all_zc r0, nop, PZB + 0x48 (taken when the
     * uniform is not 0); three nops (delay slots); ldi tlbc, 0xff00ff00;
     * thrend; nop; nop; then PZB + 0x48: mov tlbc, rb15; thrend; nop; nop */
    "PZB: .word 0x15827d80, 0x100229e7, 0x00000020, 0xf0180827, 0x009e7000, 0x100009e7, "
    "0x009e7000, 0x100009e7, 0x009e7000, 0x100009e7, 0xff00ff00, 0xe0020ba7, "
    "0x009e7000, 0x300009e7, 0x009e7000, 0x100009e7, 0x009e7000, 0x100009e7, "
    "0x159cffc0, 0x10020ba7, 0x009e7000, 0x300009e7, 0x009e7000, 0x100009e7, "
    "0x009e7000, 0x100009e7\n"
    "U: .word 0\n";

/* The expected W or Z word of pixel (x, y), from the interpolation
 * docs/vc4.md gives: barycentrics from the 12.4 pixel centre, W = 1 / sum(w_i
 * / W_i) as a float, Z = sum(w_i Z_i) as a float to 24 bits rounded. */
static uint32_t payload_word(int x, int y, bool z)
{
    double sx = x * 16 + 8, sy = y * 16 + 8, area = 1024.0 * 1024.0;
    double ia = 1.0 / area;
    double w1 = sx * 1024 * ia, w2 = sy * 1024 * ia, w0 = (area - sx * 1024 - sy * 1024) * ia;
    if (z) {
        float f = (float)(w0 * 0.25 + w1 * 0.5 + w2 * 0.75);
        return (uint32_t)(f * 16777215.0f + 0.5f);
    }
    float W = (float)(1.0 / (w0 * 1.0 + w1 * 0.5 + w2 * 0.25));
    uint32_t u;
    memcpy(&u, &W, 4);
    return u;
}

/* Render a frame and compare every pixel with the payload word (or `flat`
 * when not 0) inside the triangle and the clear colour outside. */
static void check_payload_frame(cg_vc4 *v, cg_asm *as, const char *what, int rep, bool z,
                                uint32_t flat)
{
    frame(v, as);
    int good = 0, bad = 0;
    for (int y = 0; y < 64; y++)
        for (int x = 0; x < 64; x++) {
            uint32_t px;
            cg_vc4_cpu_read32(v, 0x100000 + (uint32_t)(y * 64 + x) * 4, &px);
            uint32_t want = x + y >= 63 ? 0xFF000000 : flat ? flat : payload_word(x, y, z);
            if (px == want)
                good++;
            else if (bad++ == 0)
                fprintf(stderr, "%s frame %d: (%d, %d) = 0x%08x, want 0x%08x\n", what, rep, x,
                        y, px, want);
        }
    CHECK_EQ(bad, 0);
    CHECK_EQ(good, 64 * 64);
}

static void test_payload(void)
{
    static const struct {
        const char *label;
        bool z;
    } progs[] = {{"PW", false}, {"PZ", true}, {"PWD", false}};
    cg_device *dev;
    cg_vc4 *v;
    CHECK_EQ(cg_device_create(&dev), 0);
    CHECK_EQ(cg_vc4_create(dev, NULL, &v), 0);
    cg_asm *as = load(v, payload_scene);
    for (size_t p = 0; p < sizeof progs / sizeof progs[0]; p++) {
        cg_vc4_cpu_write32(v, sym(as, "NV") + 4, sym(as, progs[p].label));
        /* twice: the second frame runs from the decoded program */
        for (int rep = 0; rep < 2; rep++)
            check_payload_frame(v, as, progs[p].label, rep, progs[p].z, 0);
    }
    /* a branch the first frame does not take (so the straight code up to
     * its program end is cached) and the next one takes: the Z read behind
     * it must still see Z */
    uint32_t u = sym(as, "U");
    cg_vc4_cpu_write32(v, sym(as, "NV") + 4, sym(as, "PZB"));
    cg_vc4_cpu_write32(v, sym(as, "NV") + 8, u);
    check_payload_frame(v, as, "PZB", 0, true, 0xff00ff00);
    cg_vc4_cpu_write32(v, u, 1);
    check_payload_frame(v, as, "PZB", 1, true, 0);
    cg_vc4_cpu_write32(v, u, 0);
    check_payload_frame(v, as, "PZB", 2, true, 0xff00ff00);
    CHECK_EQ(cg_fault_count(dev), 0);
    cg_asm_destroy(as);
    cg_vc4_destroy(v);
    cg_device_destroy(dev);
}

int main(void)
{
    test_payload();
    test_rewritten_code();
    test_unflushed_code();
    return check_report("test_vc4_shader_cache");
}
