/* vc4 renderer: perspective-correct varyings through the QPU (VARYING read
 * plus r5), early Z with a depth function across shader-state changes,
 * stores in LT tiling and BGR565, full-resolution dumps and loads, and the
 * explicit "not supported yet" faults. */
#include <math.h>
#include <stdlib.h>
#include "check.h"
#include "vc4_testenv.h"
#include "cmdgpu/cmdgpu.h"

/* One 64x64 tile; PRIMS and STORE are spliced in. */
static const char *frame =
    ".section t, 0x10000\n"
    "BIN: Tile_Binning_Mode_Configuration 0x400000, 0x1000, 0x500000, 1, 1, "
    "Auto_Init_Tile_State_Data\n"
    "Start_Tile_Binning\nIncrement_Semaphore\nClip_Window 0, 0, 64, 64\n"
    "Viewport_Offset 0, 0\n"
    "%s\nFlush\nBIN_END:\n"
    "REND: Wait_On_Semaphore\nClear_Colors 0xFF000000, 0xFFFFFF, 0, 0\n"
    "Tile_Rendering_Mode_Configuration 0x100000, 64, 64, Frame_Buffer_Color_Format_RGBA8888\n"
    "Tile_Coordinates 0, 0\nStore_Tile_Buffer_General 0, 0, 0\n"
    "Tile_Coordinates 0, 0\nBranch_To_Sub_List 0x400000\n%s\nREND_END:\n";

static void test_varyings(void)
{
    cg_device *dev;
    cg_vc4 *v;
    CHECK_EQ(cg_device_create(&dev), 0);
    CHECK_EQ(cg_vc4_create(dev, NULL, &v), 0);
    char src[8192];
    snprintf(src, sizeof src, frame,
             "Configuration_Bits 3, 0\nNV_Shader_State NV\nVertex_Array_Primitives 4, 3, 0",
             "Store_Multi_Sample_End");
    strcat(src, ".align 16\nNV: .byte 0, 16, 0, 1\n.word FS, 0, VD\n"
                ".align 16\nVD: .half 0, 0\n.float 0.5, 1.0, 0.0\n"
                ".half 64*16, 0\n.float 0.5, 0.5, 1.0\n"
                ".half 0, 64*16\n.float 0.5, 0.25, 2.0\n"
                /* fadd tlbc, vary, r5; thrend; nop; nop */
                ".align 16\nFS: .word 0x018C7D40, 0x10020BA7, 0x009E7000, 0x300009E7, "
                "0x009E7000, 0x100009E7, 0x009E7000, 0x100009E7\n");
    cg_asm *as = load(v, src);
    kick(v, 0, sym(as, "BIN"), sym(as, "BIN_END"));
    kick(v, 1, sym(as, "REND"), sym(as, "REND_END"));
    CHECK_EQ(cg_vc4_wait_idle(v), 0);
    CHECK_EQ(vc4_hard_faults(dev, 0, true), 0);
    /* the model's interpolation (docs/vc4.md): barycentrics w_i = E_i * (1 /
     * area) from the 12.4 edge functions, W = 1 / sum(w_i / W_i),
     * V = W * sum(w_i (V_i - V_0) / W_i) + V_0 */
    int checked = 0, maxulp = 0;
    for (int y = 0; y < 64; y++)
        for (int x = 0; x < 64; x++) {
            uint32_t px;
            cg_vc4_cpu_read32(v, 0x100000 + (uint32_t)(y * 64 + x) * 4, &px);
            long sx = x * 16 + 8, sy = y * 16 + 8;
            long e1 = sx * 1024, e2 = sy * 1024, area = 1024L * 1024;
            long e0 = area - e1 - e2;
            bool in = e0 > 0 && e1 >= 0 && e2 >= 0; /* e1 = 0: left edge, e2 = 0: top edge */
            if (!in) {
                CHECK_EQ(px, 0xFF000000);
                continue;
            }
            double ia = 1.0 / (double)area;
            double w0 = (double)e0 * ia, w1 = (double)e1 * ia, w2 = (double)e2 * ia;
            double q = w0 * 1.0 + w1 * 0.5 + w2 * 0.25;
            float want = (float)((1.0 / q) * (w1 * 1.0 * 0.5 + w2 * 2.0 * 0.25));
            float got;
            memcpy(&got, &px, 4);
            uint32_t wb;
            memcpy(&wb, &want, 4);
            int d = (int)px - (int)wb;
            if (d < 0)
                d = -d;
            if (d > maxulp)
                maxulp = d;
            checked++;
        }
    CHECK_EQ(maxulp, 0);
    /* row y covers x = 0 .. 62 - y: centres on the hypotenuse (a right edge) are out */
    CHECK_EQ(checked, 64 * 63 / 2);
    cg_asm_destroy(as);
    cg_vc4_destroy(v);
    cg_device_destroy(dev);
}

static void test_early_z(void)
{
    cg_device *dev;
    cg_vc4 *v;
    CHECK_EQ(cg_device_create(&dev), 0);
    CHECK_EQ(cg_vc4_create(dev, NULL, &v), 0);
    char src[8192];
    snprintf(src, sizeof src, frame,
             "Configuration_Bits 3, Depth_Test_Function_LT + Early_Z_Enable + "
             "Early_Z_Updates_Enable\n"
             "NV_Shader_State NVA\nVertex_Array_Primitives 4, 3, 0\n"
             "NV_Shader_State NVB\nVertex_Array_Primitives 4, 3, 3\n"
             "NV_Shader_State NVC\nVertex_Array_Primitives 4, 3, 6",
             "Store_Multi_Sample_End");
    strcat(src,
           ".align 16\nNVA: .byte 0, 12, 0, 0\n.word FSA, 0, VD\n"
           ".align 16\nNVB: .byte 0, 12, 0, 0\n.word FSB, 0, VD\n"
           ".align 16\nNVC: .byte 0, 12, 0, 0\n.word FSC, 0, VD\n"
           /* A: left half at z 0.5; B: top half at z 0.25; C: everything at z 0.75 */
           ".align 16\nVD: .half 0, 0\n.float 0.5, 1\n.half 32*16, 0\n.float 0.5, 1\n"
           ".half 0, 64*16\n.float 0.5, 1\n"
           ".half 0, 0\n.float 0.25, 1\n.half 64*16, 0\n.float 0.25, 1\n"
           ".half 0, 32*16\n.float 0.25, 1\n"
           ".half 0, 0\n.float 0.75, 1\n.half 128*16, 0\n.float 0.75, 1\n"
           ".half 0, 128*16\n.float 0.75, 1\n"
           ".align 16\nFSA: .word 0xFFFF0000, 0xE0020BA7, 0x009E7000, 0x300009E7, 0x009E7000, "
           "0x100009E7, 0x009E7000, 0x100009E7\n"
           "FSB: .word 0xFF00FF00, 0xE0020BA7, 0x009E7000, 0x300009E7, 0x009E7000, "
           "0x100009E7, 0x009E7000, 0x100009E7\n"
           "FSC: .word 0xFF0000FF, 0xE0020BA7, 0x009E7000, 0x300009E7, 0x009E7000, "
           "0x100009E7, 0x009E7000, 0x100009E7\n");
    cg_asm *as = load(v, src);
    kick(v, 0, sym(as, "BIN"), sym(as, "BIN_END"));
    kick(v, 1, sym(as, "REND"), sym(as, "REND_END"));
    CHECK_EQ(cg_vc4_wait_idle(v), 0);
    CHECK_EQ(vc4_hard_faults(dev, 0, true), 0);
    uint32_t px;
    cg_vc4_cpu_read32(v, 0x100000 + (2 * 64 + 2) * 4, &px); /* A and B: B is nearer */
    CHECK_EQ(px, 0xFF00FF00);
    cg_vc4_cpu_read32(v, 0x100000 + (40 * 64 + 2) * 4, &px); /* A only (under C) */
    CHECK_EQ(px, 0xFFFF0000);
    cg_vc4_cpu_read32(v, 0x100000 + (2 * 64 + 50) * 4, &px); /* B only */
    CHECK_EQ(px, 0xFF00FF00);
    cg_vc4_cpu_read32(v, 0x100000 + (60 * 64 + 60) * 4, &px); /* C only: nearer than clear */
    CHECK_EQ(px, 0xFF0000FF);
    /* the tile list switches shader state between the triangles */
    int nv_records = 0;
    for (uint32_t a = 0x400000; a < 0x400200; a++) {
        uint8_t b;
        cg_vc4_cpu_read(v, a, &b, 1);
        nv_records += b == 0x41;
    }
    CHECK(nv_records >= 3);
    cg_asm_destroy(as);
    cg_vc4_destroy(v);
    cg_device_destroy(dev);
}

static void test_stores(void)
{
    cg_device *dev;
    cg_vc4 *v;
    CHECK_EQ(cg_device_create(&dev), 0);
    CHECK_EQ(cg_vc4_create(dev, NULL, &v), 0);
    char src[8192];
    snprintf(src, sizeof src, frame, "Configuration_Bits 3, 0\nNV_Shader_State NV\n"
             "Vertex_Array_Primitives 4, 3, 0",
             "Store_Tile_Buffer_General Store_Color + Format_LT + Disable_Color_Buffer_Clear, "
             "0, 0x200000\n"
             "Store_Tile_Buffer_General Store_Color + Color_Format_BGR565_No_Dither + "
             "Disable_Color_Buffer_Clear, 0, 0x210000\n"
             "Store_Full_Resolution Disable_Z_Stencil_Buffer_Write + Disable_Clear_On_Write, "
             "0x220000\n"
             "Store_Full_Resolution Disable_Color_Buffer_Write + Last_Tile_Of_Frame, 0x230000\n"
             "Re_Load_Full_Resolution Disable_Z_Stencil_Buffer_Read, 0x220000\n"
             "Tile_Coordinates 0, 0\n"
             "Store_Tile_Buffer_General Store_Color + Disable_Color_Buffer_Clear, 0, 0x240000\n"
             "Store_Tile_Buffer_General Store_Color + Format_T + Disable_Color_Buffer_Clear, 0, "
             "0x250000\n"
             "Load_Tile_Buffer_General Load_Color + Format_LT, 0, 0x200000\n"
             "Tile_Coordinates 0, 0\n"
             "Store_Tile_Buffer_General Store_Color + Disable_Color_Buffer_Clear, 0, 0x270000\n"
             "Store_Tile_Buffer_General Store_Color + Color_Format_BGR565_Dithered, 0, "
             "0x260000\n");
    strcat(src, ".align 16\nNV: .byte 0, 12, 0, 0\n.word FS, 0, VD\n"
                ".align 16\nVD: .half 0, 0\n.float 0.5, 1\n.half 8*16, 0\n.float 0.5, 1\n"
                ".half 0, 8*16\n.float 0.5, 1\n"
                ".align 16\nFS: .word 0xFFFF8040, 0xE0020BA7, 0x009E7000, 0x300009E7, "
                "0x009E7000, 0x100009E7, 0x009E7000, 0x100009E7\n");
    cg_asm *as = load(v, src);
    kick(v, 0, sym(as, "BIN"), sym(as, "BIN_END"));
    kick(v, 1, sym(as, "REND"), sym(as, "REND_END"));
    CHECK_EQ(cg_vc4_run(v), 0);
    uint32_t px;
    /* LT: 4x4 micro-tiles of 64 bytes in raster order; pixel (5, 1) is in
     * micro-tile 1 at (1, 1): 64 + (1 * 4 + 1) * 4 */
    cg_vc4_cpu_read32(v, 0x200000 + 64 + 20, &px);
    CHECK_EQ(px, 0xFFFF8040);
    cg_vc4_cpu_read32(v, 0x200000 + 64 * 2, &px); /* pixel (8, 0): outside */
    CHECK_EQ(px, 0xFF000000);
    uint8_t h[2];
    cg_vc4_cpu_read(v, 0x210000 + 2 * (1 * 64 + 5), h, 2); /* BGR565: R 31, G 32, B 8 */
    CHECK_EQ(h[0] | h[1] << 8, (0xFF >> 3) << 11 | (0x80 >> 2) << 5 | (0x40 >> 3));
    cg_vc4_cpu_read32(v, 0x220000 + (1 * 64 + 5) * 4, &px); /* raw colour dump */
    CHECK_EQ(px, 0xFFFF8040);
    cg_vc4_cpu_read32(v, 0x230000, &px); /* raw Z/S dump: clear Z 0xFFFFFF << 8 */
    CHECK_EQ(px, 0xFFFFFF00);
    CHECK_EQ(cg_vc4_reg_read(v, CG_VC4_RFC, &px), 0);
    CHECK_EQ(px, 1);
    /* the full-resolution load brought the colour back after the clear */
    cg_vc4_cpu_read32(v, 0x240000 + (1 * 64 + 5) * 4, &px);
    CHECK_EQ(px, 0xFFFF8040);
    /* T-format (Mesa vc4_tiling.c): pixel (5, 1) is utile (1, 0) of subtile 0
     * of tile 0: 64 + 20; pixel (20, 1) is in subtile (1, 0), the fourth on
     * an even tile row: 3 * 1024 + 64 + 16; pixel (0, 32) starts tile row 1
     * (odd: right to left, 2 tiles a row, so tile 3) in subtile (0, 0),
     * placed third: 3 * 4096 + 2 * 1024 */
    cg_vc4_cpu_read32(v, 0x250000 + 84, &px);
    CHECK_EQ(px, 0xFFFF8040);
    cg_vc4_cpu_read32(v, 0x250000 + 3152, &px);
    CHECK_EQ(px, 0xFF000000);
    cg_vc4_cpu_read32(v, 0x250000 + 14336, &px);
    CHECK_EQ(px, 0xFF000000);
    cg_vc4_cpu_read32(v, 0x250000 + 16384, &px); /* past the 16 KiB image */
    CHECK_EQ(px, 0);
    /* Load_Tile_Buffer_General from the LT copy, stored again as raster */
    for (int y = 0; y < 64; y += 7)
        for (int x = 0; x < 64; x += 5) {
            uint32_t a, b;
            cg_vc4_cpu_read32(v, 0x270000 + (uint32_t)(y * 64 + x) * 4, &a);
            cg_vc4_cpu_read32(v, 0x240000 + (uint32_t)(y * 64 + x) * 4, &b);
            CHECK_EQ(a, b);
        }
    /* BGR565 dithered: not supported yet */
    CHECK_EQ(cg_fault_count(dev), 1);
    const cg_fault *f = cg_fault_get(dev, 0);
    CHECK_EQ(f->kind, CG_FAULT_UNSUPPORTED);
    CHECK(strstr(f->message, "dithered") != NULL);
    cg_asm_destroy(as);
    cg_vc4_destroy(v);
    cg_device_destroy(dev);
}

/* Facing: (0,0) (64,0) (0,64) turns clockwise on screen (Y down), so it is
 * reverse-facing unless Clockwise_Primitives is set; culled triangles reach
 * no tile list and shade no pixel. */
static void test_culling(void)
{
    static const struct { const char *cfg; uint64_t frags; } cases[] = {
        {"Enable_Forward_Facing_Primitive", 0},
        {"Enable_Reverse_Facing_Primitive", 2016},
        {"Enable_Forward_Facing_Primitive + Clockwise_Primitives", 2016},
        {"Enable_Reverse_Facing_Primitive + Clockwise_Primitives", 0},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        cg_device *dev;
        cg_vc4 *v;
        CHECK_EQ(cg_device_create(&dev), 0);
        CHECK_EQ(cg_vc4_create(dev, NULL, &v), 0);
        char prims[256], src[8192];
        snprintf(prims, sizeof prims, "Configuration_Bits %s, 0\nNV_Shader_State NV\n"
                 "Vertex_Array_Primitives 4, 3, 0", cases[k].cfg);
        snprintf(src, sizeof src, frame, prims, "Store_Multi_Sample_End");
        strcat(src, ".align 16\nNV: .byte 0, 12, 0, 0\n.word FS, 0, VD\n"
                    ".align 16\nVD: .half 0, 0\n.float 0.5, 1\n.half 64*16, 0\n.float 0.5, 1\n"
                    ".half 0, 64*16\n.float 0.5, 1\n"
                    ".align 16\nFS: .word 0xFFFFFFFF, 0xE0020BA7, 0x009E7000, 0x300009E7, "
                    "0x009E7000, 0x100009E7, 0x009E7000, 0x100009E7\n");
        cg_asm *as = load(v, src);
        kick(v, 0, sym(as, "BIN"), sym(as, "BIN_END"));
        kick(v, 1, sym(as, "REND"), sym(as, "REND_END"));
        CHECK_EQ(cg_vc4_wait_idle(v), 0);
        cg_vc4_stats st;
        cg_vc4_get_stats(v, &st);
        CHECK_EQ(st.fragments, cases[k].frags);
        CHECK_EQ(st.tile_prims, cases[k].frags ? 1 : 0);
        CHECK_EQ(vc4_hard_faults(dev, 0, true), 0);
        cg_asm_destroy(as);
        cg_vc4_destroy(v);
        cg_device_destroy(dev);
    }
}

/* Late Z: shaders write TLB Z (mov tlb_z, rb15: the interpolated 24-bit Z)
 * before their colour; the TLB tests it with Depth_Test_Function and
 * writes it with Z_Updates_Enable. */
static void test_late_z(void)
{
    cg_device *dev;
    cg_vc4 *v;
    CHECK_EQ(cg_device_create(&dev), 0);
    CHECK_EQ(cg_vc4_create(dev, NULL, &v), 0);
    char src[8192];
    snprintf(src, sizeof src, frame,
             "Configuration_Bits 3, Depth_Test_Function_LT + Z_Updates_Enable\n"
             "NV_Shader_State NVA\nVertex_Array_Primitives 4, 3, 0\n"
             "NV_Shader_State NVB\nVertex_Array_Primitives 4, 3, 3\n"
             "NV_Shader_State NVC\nVertex_Array_Primitives 4, 3, 6",
             "Store_Tile_Buffer_General Store_Z_Stencil + Disable_Color_Buffer_Clear, 0, "
             "0x300000\nStore_Multi_Sample_End");
    strcat(src,
           ".align 16\nNVA: .byte 0, 12, 0, 0\n.word FSA, 0, VD\n"
           ".align 16\nNVB: .byte 0, 12, 0, 0\n.word FSB, 0, VD\n"
           ".align 16\nNVC: .byte 0, 12, 0, 0\n.word FSC, 0, VD\n"
           /* A: whole tile at z 0.5; B: whole tile at 0.75 (behind A); C: left
            * half at 0.25 (in front) */
           ".align 16\nVD: .half 0, 0\n.float 0.5, 1\n.half 128*16, 0\n.float 0.5, 1\n"
           ".half 0, 128*16\n.float 0.5, 1\n"
           ".half 0, 0\n.float 0.75, 1\n.half 128*16, 0\n.float 0.75, 1\n"
           ".half 0, 128*16\n.float 0.75, 1\n"
           ".half 0, 0\n.float 0.25, 1\n.half 32*16, 0\n.float 0.25, 1\n"
           ".half 0, 128*16\n.float 0.25, 1\n"
           ".align 16\n"
           "FSA: .word 0x159CFFC0, 0x10020B27, 0xFFFF0000, 0xE0020BA7, 0x009E7000, 0x300009E7, "
           "0x009E7000, 0x100009E7, 0x009E7000, 0x100009E7\n"
           "FSB: .word 0x159CFFC0, 0x10020B27, 0xFF00FF00, 0xE0020BA7, 0x009E7000, 0x300009E7, "
           "0x009E7000, 0x100009E7, 0x009E7000, 0x100009E7\n"
           "FSC: .word 0x159CFFC0, 0x10020B27, 0xFF0000FF, 0xE0020BA7, 0x009E7000, 0x300009E7, "
           "0x009E7000, 0x100009E7, 0x009E7000, 0x100009E7\n");
    cg_asm *as = load(v, src);
    kick(v, 0, sym(as, "BIN"), sym(as, "BIN_END"));
    kick(v, 1, sym(as, "REND"), sym(as, "REND_END"));
    CHECK_EQ(cg_vc4_wait_idle(v), 0);
    CHECK_EQ(vc4_hard_faults(dev, 0, true), 0);
    uint32_t px;
    cg_vc4_cpu_read32(v, 0x100000 + (10 * 64 + 2) * 4, &px); /* C in front */
    CHECK_EQ(px, 0xFF0000FF);
    cg_vc4_cpu_read32(v, 0x100000 + (10 * 64 + 50) * 4, &px); /* A; B failed */
    CHECK_EQ(px, 0xFFFF0000);
    /* the Z/S buffer: 24-bit Z << 8 | stencil; round(0.5 * 0xFFFFFF) = 0x800000 */
    cg_vc4_cpu_read32(v, 0x300000 + (10 * 64 + 50) * 4, &px);
    CHECK_EQ(px, 0x80000000);
    cg_vc4_cpu_read32(v, 0x300000 + (10 * 64 + 2) * 4, &px);
    CHECK_EQ(px, 0x40000000); /* round(0.25 * 0xFFFFFF) = 0x400000 */
    cg_asm_destroy(as);
    cg_vc4_destroy(v);
    cg_device_destroy(dev);
}

/* The clip window scissors exactly, also from odd pixels (quads are
 * aligned to even pixels, their lanes outside the window stay empty). */
static void test_clip_window(void)
{
    cg_device *dev;
    cg_vc4 *v;
    CHECK_EQ(cg_device_create(&dev), 0);
    CHECK_EQ(cg_vc4_create(dev, NULL, &v), 0);
    char src[8192];
    snprintf(src, sizeof src, frame,
             "Clip_Window 5, 3, 10, 7\nConfiguration_Bits 3, 0\nNV_Shader_State NV\n"
             "Vertex_Array_Primitives 4, 3, 0", "Store_Multi_Sample_End");
    strcat(src, ".align 16\nNV: .byte 0, 12, 0, 0\n.word FS, 0, VD\n"
                ".align 16\nVD: .half 0, 0\n.float 0.5, 1\n.half 200*16, 0\n.float 0.5, 1\n"
                ".half 0, 200*16\n.float 0.5, 1\n"
                ".align 16\nFS: .word 0xFFFFFFFF, 0xE0020BA7, 0x009E7000, 0x300009E7, "
                "0x009E7000, 0x100009E7, 0x009E7000, 0x100009E7\n");
    cg_asm *as = load(v, src);
    kick(v, 0, sym(as, "BIN"), sym(as, "BIN_END"));
    kick(v, 1, sym(as, "REND"), sym(as, "REND_END"));
    CHECK_EQ(cg_vc4_wait_idle(v), 0);
    CHECK_EQ(vc4_hard_faults(dev, 0, true), 0);
    int white = 0, inside = 0;
    for (int y = 0; y < 64; y++)
        for (int x = 0; x < 64; x++) {
            uint32_t px;
            cg_vc4_cpu_read32(v, 0x100000 + (uint32_t)(y * 64 + x) * 4, &px);
            bool in = x >= 5 && x < 15 && y >= 3 && y < 10;
            white += px == 0xFFFFFFFF;
            inside += in && px == 0xFFFFFFFF;
        }
    CHECK_EQ(white, 70);
    CHECK_EQ(inside, 70);
    cg_asm_destroy(as);
    cg_vc4_destroy(v);
    cg_device_destroy(dev);
}

int main(void)
{
    test_clip_window();
    test_late_z();
    test_culling();
    test_varyings();
    test_early_z();
    test_stores();
    return check_report("test_vc4_render");
}
