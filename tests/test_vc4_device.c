/* vc4 device: registers, mailbox, control-list threads and their faults,
 * semaphores, the binner's exact tile-list bytes, out-of-memory handling
 * with overspill, and the coherency model on the ARM's cached view. */
#include <stdlib.h>
#include "check.h"
#include "cmdgpu/cmdgpu.h"

/* Assemble `src` (which may use .section NAME, BASE) and load every
 * section through the ARM view. Returns the number of bytes loaded. */
static size_t load(cg_vc4 *v, const char *src, cg_asm **keep)
{
    cg_vc4_asm *st;
    cg_asm *as;
    size_t total = 0;
    if (cg_vc4_asm_create(&st) || cg_asm_create(cg_vc4_asm_family(), st, &as))
        return 0;
    cg_asm_add_source(as, "t.s", src, strlen(src));
    if (cg_asm_assemble(as) != 0) {
        fputs(cg_asm_errors(as), stderr);
    } else {
        for (size_t i = 0; i < cg_asm_section_count(as); i++) {
            const char *nm;
            uint64_t base;
            const uint8_t *d;
            size_t n;
            cg_asm_section(as, i, &nm, &base, &d, &n);
            if (n && cg_vc4_cpu_write(v, (uint32_t)base, d, n) == 0)
                total += n;
        }
    }
    cg_vc4_asm_destroy(st);
    if (keep)
        *keep = as;
    else
        cg_asm_destroy(as);
    return total;
}

static uint32_t sym(cg_asm *as, const char *name)
{
    int64_t v = 0;
    CHECK(cg_asm_symbol(as, name, &v));
    return (uint32_t)v;
}

static uint32_t reg(cg_vc4 *v, uint32_t off)
{
    uint32_t x = 0xDEADBEEF;
    CHECK_EQ(cg_vc4_reg_read(v, off, &x), 0);
    return x;
}

static void kick(cg_vc4 *v, int t, uint32_t start, uint32_t end)
{
    CHECK_EQ(cg_vc4_reg_write(v, t ? CG_VC4_CT1CA : CG_VC4_CT0CA, start), 0);
    cg_vc4_reg_write(v, t ? CG_VC4_CT1EA : CG_VC4_CT0EA, end);
}

static void test_registers(void)
{
    cg_device *dev;
    cg_vc4 *v;
    CHECK_EQ(cg_device_create(&dev), 0);
    CHECK_EQ(cg_vc4_create(dev, NULL, &v), 0);
    CHECK_EQ(reg(v, CG_VC4_IDENT0), 0x02443356);
    uint32_t id1 = reg(v, CG_VC4_IDENT1);
    CHECK_EQ((id1 >> 4) & 0xF, 3);  /* slices */
    CHECK_EQ((id1 >> 8) & 0xF, 4);  /* QPUs per slice */
    CHECK_EQ((id1 >> 16) & 0xFF, 16); /* semaphores */
    uint32_t x;
    CHECK_EQ(cg_vc4_mmio_read(v, CG_VC4_V3D_BASE + CG_VC4_IDENT0, &x), 0);
    CHECK_EQ(x, 0x02443356);
    CHECK_EQ(cg_vc4_reg_read(v, 2, &x), CG_ERR_RANGE);
    CHECK_EQ(cg_vc4_reg_read(v, 0x1000, &x), CG_ERR_RANGE);
    CHECK_EQ(reg(v, 0x200), 0); /* unknown register reads 0 */
    cg_vc4_reg_write(v, CG_VC4_INTENA, 0x3);
    CHECK_EQ(reg(v, CG_VC4_INTENA), 3);
    CHECK_EQ(reg(v, CG_VC4_INTDIS), 3);
    cg_vc4_reg_write(v, CG_VC4_INTDIS, 0x1);
    CHECK_EQ(reg(v, CG_VC4_INTENA), 2);
    cg_vc4_reg_write(v, CG_VC4_L2CACTL, 1);
    CHECK_EQ(reg(v, CG_VC4_L2CACTL), 1);
    cg_vc4_reg_write(v, CG_VC4_L2CACTL, 2);
    CHECK_EQ(reg(v, CG_VC4_L2CACTL), 0);
    CHECK_STR(cg_vc4_reg_name(CG_VC4_CT1EA), "CT1EA");
    uint32_t off;
    CHECK_EQ(cg_vc4_reg_from_name("BPOS", &off), 0);
    CHECK_EQ(off, 0x30C);
    CHECK_EQ(cg_vc4_mmio_read(v, 0x1234, &x), CG_ERR_NOENT);
    cg_vc4_destroy(v);
    cg_device_destroy(dev);
}

static void test_mailbox(void)
{
    cg_device *dev;
    cg_vc4 *v;
    cg_asm *as;
    CHECK_EQ(cg_device_create(&dev), 0);
    CHECK_EQ(cg_vc4_create(dev, NULL, &v), 0);
    load(v,
         ".section t, 0x8000\n"
         "B: .word E - B, 0\n"
         ".word Set_Physical_Display, 8, 0, 640, 480\n"
         ".word Set_Virtual_Buffer, 8, 8, 640, 480\n"
         ".word Set_Depth, 4, 4, 32\n"
         ".word 0x12345, 4, 0\nunk: .word 77\n" /* unknown: ignored */
         ".word Allocate_Buffer, 8, 8\nfb: .word 0, 0\n"
         ".word Get_Pitch, 4, 0\npitch: .word 0\n"
         ".word Set_Clock_Rate, 8, 8, CLK_V3D_ID, 250000000\n"
         ".word Allocate_Memory, 12, 12\nh: .word 4096, 4096, 4\n"
         ".word 0\nE:\n", &as);
    CHECK_EQ(cg_vc4_mbox_status(v), CG_VC4_MBOX_EMPTY);
    CHECK_EQ(cg_vc4_mmio_write(v, CG_VC4_MBOX_BASE + CG_VC4_MBOX_WRITE, 0x8000 | 8), 0);
    CHECK_EQ(cg_vc4_mbox_status(v), 0);
    uint32_t m = 0, w = 0;
    CHECK_EQ(cg_vc4_mmio_read(v, CG_VC4_MBOX_BASE + CG_VC4_MBOX_READ, &m), 0);
    CHECK_EQ(m, 0x8008);
    CHECK_EQ(cg_vc4_mbox_read(v, &m), CG_ERR_BUSY);
    cg_vc4_cpu_read32(v, 0x8004, &w);
    CHECK_EQ(w, 0x80000000);
    cg_vc4_cpu_read32(v, sym(as, "fb"), &w);
    CHECK_EQ(w >> 30, 3); /* 0xC... bus address */
    uint32_t size = 0;
    cg_vc4_cpu_read32(v, sym(as, "fb") + 4, &size);
    CHECK_EQ(size, 640 * 480 * 4);
    cg_vc4_cpu_read32(v, sym(as, "pitch"), &w);
    CHECK_EQ(w, 2560);
    cg_vc4_cpu_read32(v, sym(as, "unk") - 4, &w);
    CHECK_EQ(w, 0); /* the unknown tag's request word is left alone */
    cg_vc4_cpu_read32(v, sym(as, "h"), &w);
    CHECK_EQ(w, 1); /* memory handle */
    cg_vc4_fb fb;
    CHECK_EQ(cg_vc4_framebuffer(v, &fb), 0);
    CHECK_EQ(fb.width, 640);
    CHECK_EQ(fb.pitch, 2560);
    CHECK_EQ(fb.depth, 32);
    CHECK_EQ(cg_fault_count(dev), 0);
    cg_asm_destroy(as);
    cg_vc4_destroy(v);
    cg_device_destroy(dev);
}

static void test_faults(void)
{
    cg_device *dev;
    cg_vc4 *v;
    cg_asm *as;
    cg_vc4_config cfg = {.record_budget = 1000};
    CHECK_EQ(cg_device_create(&dev), 0);
    CHECK_EQ(cg_vc4_create(dev, &cfg, &v), 0);
    load(v,
         ".section t, 0x1000\n"
         "bad: No_Op\n.byte 9\nbad_end:\n"
         "far: Branch 0x10000000\nfar_end:\n"
         "s1: Branch_To_Sub_List s2\n"
         "s2: Branch_To_Sub_List s3\n"
         "s3: Return_From_Sub_List\n"
         "deep: Branch_To_Sub_List s1\ndeep_end:\n"
         "loop: Branch loop\nloop_end: No_Op\n"
         "wait: Wait_On_Semaphore\nwait_end:\n", &as);
    kick(v, 0, sym(as, "bad"), sym(as, "bad_end"));
    CHECK_EQ(cg_fault_count(dev), 1);
    const cg_fault *f = cg_fault_get(dev, 0);
    CHECK_EQ(f->kind, CG_FAULT_INVALID_OPCODE);
    CHECK_EQ(f->gpu_addr, sym(as, "bad") + 1);
    CHECK_EQ(f->stream_addr, sym(as, "bad") + 1);
    CHECK_EQ(f->words[0], 9);
    CHECK_EQ(f->channel, 0);
    CHECK_EQ(f->family, CG_FAMILY_VC4);
    CHECK_STR(f->unit, "ct0");
    CHECK((reg(v, CG_VC4_CT0CS) & (CG_VC4_CS_ERR | CG_VC4_CS_RUN)) == CG_VC4_CS_ERR);
    CHECK_EQ(reg(v, CG_VC4_CT0CA), sym(as, "bad") + 1);

    cg_fault_clear(dev);
    kick(v, 1, sym(as, "far"), sym(as, "far_end"));
    CHECK_EQ(cg_fault_count(dev), 1);
    f = cg_fault_get(dev, 0);
    CHECK_EQ(f->kind, CG_FAULT_UNMAPPED);
    CHECK_EQ(f->gpu_addr, 0x10000000);
    CHECK_EQ(f->channel, 1);

    cg_fault_clear(dev);
    kick(v, 0, sym(as, "deep"), sym(as, "deep_end"));
    CHECK_EQ(cg_fault_count(dev), 1);
    f = cg_fault_get(dev, 0);
    CHECK_EQ(f->kind, CG_FAULT_DEPTH);
    CHECK_EQ(f->gpu_addr, sym(as, "s2"));

    cg_fault_clear(dev);
    kick(v, 0, sym(as, "loop"), sym(as, "loop_end"));
    CHECK_EQ(cg_fault_count(dev), 1);
    f = cg_fault_get(dev, 0);
    CHECK_EQ(f->kind, CG_FAULT_HANG);
    CHECK_EQ(f->gpu_addr, sym(as, "loop"));

    cg_fault_clear(dev);
    kick(v, 1, sym(as, "wait"), sym(as, "wait_end"));
    CHECK_EQ(cg_fault_count(dev), 0);
    CHECK((reg(v, CG_VC4_CT1CS) & (CG_VC4_CS_RUN | CG_VC4_CS_SEMA)) ==
          (CG_VC4_CS_RUN | CG_VC4_CS_SEMA));
    CHECK_EQ(cg_vc4_wait_idle(v), CG_ERR_TIMEOUT);
    CHECK_EQ(cg_fault_count(dev), 1);
    f = cg_fault_get(dev, 0);
    CHECK_EQ(f->kind, CG_FAULT_HANG);
    CHECK(strstr(f->message, "Wait_on_Semaphore") != NULL);
    CHECK_EQ(reg(v, CG_VC4_CT1CS) & CG_VC4_CS_RUN, 0);
    CHECK(reg(v, CG_VC4_CT1CS) & CG_VC4_CS_ERR);
    cg_vc4_reg_write(v, CG_VC4_CT1CS, CG_VC4_CS_RESET);
    CHECK_EQ(reg(v, CG_VC4_CT1CS), 0);
    /* a blocked thread shows in PCS until reset */
    cg_fault_clear(dev);
    kick(v, 1, sym(as, "wait"), sym(as, "wait_end"));
    CHECK(reg(v, CG_VC4_PCS) & CG_VC4_PCS_RMACTIVE);
    cg_vc4_reg_write(v, CG_VC4_CT1CS, CG_VC4_CS_RESET);
    CHECK_EQ(reg(v, CG_VC4_PCS) & CG_VC4_PCS_RMACTIVE, 0);
    CHECK_EQ(cg_vc4_wait_idle(v), CG_ERR_FAULT); /* CT0 still holds its loop fault */
    cg_vc4_reg_write(v, CG_VC4_CT0CS, CG_VC4_CS_RESET);
    CHECK_EQ(cg_vc4_wait_idle(v), 0);
    cg_asm_destroy(as);
    cg_vc4_destroy(v);
    cg_device_destroy(dev);
}

/* A 128x64 frame, 2x1 tiles, one triangle inside tile 0. */
static const char *bin_scene =
    ".section t, 0x10000\n"
    "BIN: Tile_Binning_Mode_Configuration 0x400000, ALLOC_SIZE, 0x500000, 2, 1, "
    "Auto_Init_Tile_State_Data + BLOCKS\n"
    "Start_Tile_Binning\nIncrement_Semaphore\n"
    "Clip_Window 0, 0, 128, 64\n"
    "Configuration_Bits Enable_Forward_Facing_Primitive + Enable_Reverse_Facing_Primitive, 0\n"
    "Viewport_Offset 0, 0\nNV_Shader_State NV\n"
    "Vertex_Array_Primitives Mode_Triangles, 3, 0\nFlush\nBIN_END:\n"
    "REND: Wait_On_Semaphore\nClear_Colors 0xFF000000, 0, 0, 0\n"
    "Tile_Rendering_Mode_Configuration 0x100000, 128, 64, Frame_Buffer_Color_Format_RGBA8888\n"
    "Tile_Coordinates 0, 0\nStore_Tile_Buffer_General 0, 0, 0\n"
    "Tile_Coordinates 0, 0\nBranch_To_Sub_List 0x400000\nStore_Multi_Sample\n"
    "Tile_Coordinates 1, 0\nBranch_To_Sub_List 0x400000 + TILE1\nStore_Multi_Sample_End\n"
    "REND_END:\n"
    ".align 16\nNV: .byte 0, 12, 0, 0\n.word FS, 0, VD\n"
    ".align 16\nVD: .half 8*16, 4*16\n.float 0.5, 1.0\n.half 40*16, 4*16\n.float 0.5, 1.0\n"
    ".half 8*16, 36*16\n.float 0.5, 1.0\n"
    ".align 16\nFS: .word 0x0000FF00, 0xE0020BA7, 0x009E7000, 0x300009E7, 0x009E7000, "
    "0x100009E7, 0x009E7000, 0x100009E7\n";

static uint8_t rd8(cg_vc4 *v, uint32_t a)
{
    uint8_t b = 0xEE;
    cg_vc4_cpu_read(v, a, &b, 1);
    return b;
}

static void test_binner(void)
{
    /* 32-byte blocks: the seed's layout, a branch to the pool at +256 */
    for (int variant = 0; variant < 2; variant++) {
        cg_device *dev;
        cg_vc4 *v;
        cg_asm *as;
        CHECK_EQ(cg_device_create(&dev), 0);
        CHECK_EQ(cg_vc4_create(dev, NULL, &v), 0);
        char src[4096];
        snprintf(src, sizeof src, ".equ ALLOC_SIZE, 0x1000\n.equ BLOCKS, %s\n.equ TILE1, %d\n%s",
                 variant ? "Tile_Allocation_Initial_Block_Size_64" : "0", variant ? 64 : 32,
                 bin_scene);
        CHECK(load(v, src, &as) > 0);
        kick(v, 1, sym(as, "REND"), sym(as, "REND_END"));
        kick(v, 0, sym(as, "BIN"), sym(as, "BIN_END"));
        CHECK_EQ(cg_vc4_wait_idle(v), 0);
        CHECK_EQ(reg(v, CG_VC4_BFC), 1);
        CHECK_EQ(reg(v, CG_VC4_RFC), 1);
        CHECK_EQ(reg(v, CG_VC4_INTCTL), CG_VC4_INT_FLDONE | CG_VC4_INT_FRDONE);
        uint32_t nv = sym(as, "NV");
        uint8_t want[40] = {0x30, 0x80, 0x38, 0x12, 0x41, (uint8_t)nv, (uint8_t)(nv >> 8),
                            (uint8_t)(nv >> 16), (uint8_t)(nv >> 24), 0x60, 0x03, 0x00, 0x00,
                            0x67, 0, 0, 0, 0, 0x66, 0, 0, 0, 0, 128, 0, 64, 0, 0x30};
        uint8_t got[40];
        cg_vc4_cpu_read(v, 0x400000, got, 40);
        CHECK_MEM(got, want, 28);
        static const uint8_t tri[6] = {0x1F, 0x08, 0x00, 0x00, 0x80, 0x12};
        if (variant == 0) {
            /* 0x82 at +28, n = 7: (0x400000 + 32) + 7 * 32 = 0x400100, the pool */
            static const uint8_t br[3] = {0x82, 0x07, 0x00};
            CHECK_MEM(got + 28, br, 3);
            cg_vc4_cpu_read(v, 0x400100, got, 6);
            CHECK_MEM(got, tri, 6);
            CHECK_EQ(reg(v, CG_VC4_BPCA), 0x400120);
            CHECK_EQ(reg(v, CG_VC4_BPCS), 0x1000 - 0x120);
        } else {
            CHECK_MEM(got + 28, tri, 6);
            CHECK_EQ(reg(v, CG_VC4_BPCA), 0x400100);
        }
        /* the untouched tile: an empty compressed list, then Return */
        uint32_t t1 = 0x400000 + (variant ? 64 : 32);
        CHECK(rd8(v, t1) == 0x30 && rd8(v, t1 + 1) == 0x80 && rd8(v, t1 + 2) == 0x12);
        /* pixels: (8,4) (40,4) (8,36): green where covered */
        uint32_t px;
        cg_vc4_cpu_read32(v, 0x100000 + (10 * 128 + 10) * 4, &px);
        CHECK_EQ(px, 0x0000FF00);
        cg_vc4_cpu_read32(v, 0x100000 + (40 * 128 + 40) * 4, &px);
        CHECK_EQ(px, 0xFF000000);
        cg_vc4_cpu_read32(v, 0x100000 + (4 * 128 + 8) * 4, &px); /* top-left corner: in */
        CHECK_EQ(px, 0x0000FF00);
        /* the hypotenuse x + y = 44 is a right edge: centres on it are out */
        cg_vc4_cpu_read32(v, 0x100000 + (4 * 128 + 38) * 4, &px);
        CHECK_EQ(px, 0x0000FF00);
        cg_vc4_cpu_read32(v, 0x100000 + (4 * 128 + 39) * 4, &px);
        CHECK_EQ(px, 0xFF000000);
        cg_vc4_stats s;
        cg_vc4_get_stats(v, &s);
        /* legs of 32 pixels; row y (4..34) covers x = 8 .. 42 - y: 31 + ... + 1 */
        CHECK_EQ(s.fragments, 496);
        CHECK_EQ(s.prims_binned, 1);
        CHECK_EQ(s.tile_prims, 1);
        CHECK_EQ(cg_fault_count(dev), 0);
        cg_asm_destroy(as);
        cg_vc4_destroy(v);
        cg_device_destroy(dev);
    }
}

static void test_oom(void)
{
    for (int supply = 0; supply < 2; supply++) {
        cg_device *dev;
        cg_vc4 *v;
        cg_asm *as;
        CHECK_EQ(cg_device_create(&dev), 0);
        CHECK_EQ(cg_vc4_create(dev, NULL, &v), 0);
        char src[4096];
        /* the pool is empty: initial blocks only (64 rounded up to 256) */
        snprintf(src, sizeof src, ".equ ALLOC_SIZE, 256\n.equ BLOCKS, 0\n.equ TILE1, 32\n%s",
                 bin_scene);
        CHECK(load(v, src, &as) > 0);
        kick(v, 0, sym(as, "BIN"), sym(as, "BIN_END"));
        CHECK(reg(v, CG_VC4_CT0CS) & CG_VC4_CS_RUN);
        CHECK(reg(v, CG_VC4_INTCTL) & CG_VC4_INT_OUTOMEM);
        CHECK(reg(v, CG_VC4_PCS) & CG_VC4_PCS_BMOOM);
        /* OUTOMEM stays high while memory is missing */
        cg_vc4_reg_write(v, CG_VC4_INTCTL, CG_VC4_INT_OUTOMEM);
        CHECK(reg(v, CG_VC4_INTCTL) & CG_VC4_INT_OUTOMEM);
        if (supply) {
            cg_vc4_reg_write(v, CG_VC4_BPOA, 0x402000);
            cg_vc4_reg_write(v, CG_VC4_BPOS, 0x1000);
            CHECK_EQ(reg(v, CG_VC4_CT0CS) & CG_VC4_CS_RUN, 0);
            CHECK(reg(v, CG_VC4_INTCTL) & CG_VC4_INT_SPILLUSE);
            CHECK_EQ(reg(v, CG_VC4_BPOS), 0);
            CHECK_EQ(reg(v, CG_VC4_BPCA), 0x402020);
            CHECK_EQ(reg(v, CG_VC4_BFC), 1);
            /* branch from 0x40001c: (0x400000 + 32) + n * 32 = 0x402000 */
            uint8_t br[3];
            cg_vc4_cpu_read(v, 0x40001c, br, 3);
            CHECK(br[0] == 0x82 && br[1] == 0xFF && br[2] == 0x00);
            CHECK_EQ(rd8(v, 0x402000), 0x1F);
            CHECK_EQ(cg_vc4_wait_idle(v), 0);
            CHECK_EQ(cg_fault_count(dev), 0);
        } else {
            CHECK_EQ(cg_vc4_wait_idle(v), CG_ERR_TIMEOUT);
            CHECK_EQ(cg_fault_count(dev), 1);
            const cg_fault *f = cg_fault_get(dev, 0);
            CHECK_EQ(f->kind, CG_FAULT_HANG);
            CHECK(strstr(f->message, "OUTOMEM") != NULL);
            CHECK_EQ(reg(v, CG_VC4_BFC), 0);
        }
        cg_asm_destroy(as);
        cg_vc4_destroy(v);
        cg_device_destroy(dev);
    }
}

/* Flush_All_State writes the state into every list, touched or not. */
static void test_flush_all(void)
{
    cg_device *dev;
    cg_vc4 *v;
    cg_asm *as;
    CHECK_EQ(cg_device_create(&dev), 0);
    CHECK_EQ(cg_vc4_create(dev, NULL, &v), 0);
    load(v,
         ".section t, 0x10000\n"
         "BIN: Tile_Binning_Mode_Configuration 0x400000, 0x1000, 0x500000, 2, 1, "
         "Auto_Init_Tile_State_Data\n"
         "Clip_Window 0, 0, 128, 64\n" /* state before Start_Tile_Binning still counts */
         "Start_Tile_Binning\n"
         "Configuration_Bits 3, 0\nNV_Shader_State 0x20000\nFlush_All_State\nHalt\nBIN_END:\n",
         &as);
    kick(v, 0, sym(as, "BIN"), sym(as, "BIN_END"));
    CHECK_EQ(cg_vc4_wait_idle(v), 0);
    CHECK_EQ(reg(v, CG_VC4_BFC), 1);
    CHECK_EQ(reg(v, CG_VC4_CT0CA), sym(as, "BIN_END"));
    static const uint8_t want[23] = {0x30, 0x80, 0x38, 0x12, 0x41, 0x00, 0x00, 0x02, 0x00,
                                     0x60, 0x03, 0x00, 0x00, 0x66, 0, 0, 0, 0, 0x80, 0x00,
                                     0x40, 0x00, 0x12};
    uint8_t got[23];
    for (int t = 0; t < 2; t++) {
        cg_vc4_cpu_read(v, 0x400000 + 32u * (uint32_t)t, got, sizeof got);
        CHECK_MEM(got, want, sizeof want);
    }
    CHECK_EQ(cg_fault_count(dev), 0);
    cg_asm_destroy(as);
    cg_vc4_destroy(v);
    cg_device_destroy(dev);
}

/* A render-only record in the binning list is copied into every tile list;
 * state that no longer fits chains to a pool block through 0x30 0x82. */
static void test_copy_and_chain(void)
{
    cg_device *dev;
    cg_vc4 *v;
    cg_asm *as;
    CHECK_EQ(cg_device_create(&dev), 0);
    CHECK_EQ(cg_vc4_create(dev, NULL, &v), 0);
    load(v,
         ".section t, 0x10000\n"
         "BIN: Tile_Binning_Mode_Configuration 0x400000, 0x1000, 0x500000, 2, 1, "
         "Auto_Init_Tile_State_Data\n"
         "Start_Tile_Binning\nClear_Colors 0x11223344, 0, 0, 0\n"
         "Clip_Window 0, 0, 128, 64\nConfiguration_Bits 3, 0\nNV_Shader_State 0x20000\n"
         "Flush_All_State\nBIN_END:\n",
         &as);
    kick(v, 0, sym(as, "BIN"), sym(as, "BIN_END"));
    CHECK_EQ(cg_vc4_wait_idle(v), 0);
    static const uint8_t first[31] = {0x30, 0x80, 0x72, 0x44, 0x33, 0x22, 0x11, 0, 0, 0, 0,
                                      0, 0, 0, 0, 0, 0x38, 0x12, 0x41, 0x00, 0x00, 0x02,
                                      0x00, 0x60, 0x03, 0x00, 0x00, 0x30, 0x82, 0x07, 0x00};
    static const uint8_t second[11] = {0x80, 0x66, 0, 0, 0, 0, 0x80, 0x00, 0x40, 0x00, 0x12};
    uint8_t got[31];
    for (uint32_t t = 0; t < 2; t++) {
        cg_vc4_cpu_read(v, 0x400000 + 32 * t, got, sizeof first);
        CHECK_MEM(got, first, sizeof first);
        /* pool blocks in tile order: 0x400100, 0x400120; both branches are
         * (list + 32) + 7 * 32 */
        cg_vc4_cpu_read(v, 0x400100 + 32 * t, got, sizeof second);
        CHECK_MEM(got, second, sizeof second);
    }
    CHECK_EQ(reg(v, CG_VC4_BPCA), 0x400140);
    CHECK_EQ(cg_fault_count(dev), 0);
    cg_asm_destroy(as);
    cg_vc4_destroy(v);
    cg_device_destroy(dev);
}

static void test_coherency(void)
{
    cg_device *dev;
    cg_vc4 *v;
    cg_vc4_config cfg = {.cpu_cached = true};
    CHECK_EQ(cg_device_create(&dev), 0);
    cg_device_set_coherency(dev, CG_COHERENCY_WARN);
    CHECK_EQ(cg_vc4_create(dev, &cfg, &v), 0);
    uint8_t list[2] = {0x01, 0x01}; /* No_Op, No_Op */
    cg_vc4_cpu_write(v, 0x2000, list, 2);
    kick(v, 0, 0x40002000, 0x40002002); /* the L2-cached alias */
    CHECK_EQ(cg_fault_count(dev), 1);
    CHECK_EQ(cg_fault_get(dev, 0)->kind, CG_FAULT_STALE_GPU_READ);
    cg_fault_clear(dev);
    CHECK_EQ(cg_vc4_cpu_flush(v, 0x2000, 2), 0);
    kick(v, 0, 0xC0002000, 0xC0002002); /* the uncached alias, after the flush */
    CHECK_EQ(cg_fault_count(dev), 0);
    CHECK_EQ(reg(v, CG_VC4_CT0CA), 0xC0002002);
    cg_vc4_destroy(v);
    cg_device_destroy(dev);
}

/* What a fault names (regressions from the hostile-input catalog,
 * tests/hostile/vc4): a budget hang stands before a record it has not
 * fetched (no words); a compressed-list fault names the item and its bytes;
 * index and vertex addresses that pass 4 GiB fault addr-range instead of
 * stopping the thread silently. */
static void test_fault_records(void)
{
    cg_device *dev;
    cg_vc4 *v;
    cg_asm *as;
    /* 1 GiB of SDRAM: the 0xC0000000 alias then reaches the top of the bus */
    cg_vc4_config cfg = {.record_budget = 1000, .sdram_size = 1u << 30};
    CHECK_EQ(cg_device_create(&dev), 0);
    CHECK_EQ(cg_vc4_create(dev, &cfg, &v), 0);
    load(v,
         ".section t, 0x1000\n"
         /* two records per turn: 1000 records end with CA on loop2 */
         "loop2: No_Op\nBranch loop2\nloop2_end:\n"
         ".org 0x1040\n"
         "rl: Tile_Rendering_Mode_Configuration 0x100000, 64, 64, 4\n"
         "Tile_Coordinates 0, 0\nBranch cl\nrl_end:\n"
         ".org 0x107F\n"
         "cl: .byte 0x30, 0x82, 0xFF, 0xFF\n" /* relative branch -1 at 0x1080: itself */
         ".org 0x1100\n"
         "bl: Tile_Binning_Mode_Configuration 0x200000, 0x1000, 0x210000, 1, 1, 4\n"
         "Start_Tile_Binning\nNV_Shader_State nv\n"
         "ip: Indexed_Primitive_List 0x14, 3, 0xFFFFFFFE, 65535\nbl_end:\n"
         ".org 0x1180\n"
         "rv: Tile_Rendering_Mode_Configuration 0x100000, 64, 64, 4\n"
         "Tile_Coordinates 0, 0\nPrimitive_List_Format 0x12\nNV_Shader_State nvw\n"
         ".byte 0x30\nitem: .byte 0x81, 0xFF, 0xFF, 0, 0, 1, 0\n.byte 0x80\nrv_end:\n"
         ".org 0x11C0\n"
         "rn: Tile_Rendering_Mode_Configuration 0x100000, 64, 64, 4\n"
         "Tile_Coordinates 0, 0\nPrimitive_List_Format 0x12\n"
         ".byte 0x30\nitem2: .byte 0x81, 0, 0, 1, 0, 2, 0\n.byte 0x80\nrn_end:\n"
         ".align 16\nnv: .byte 0, 12, 0, 0\n.word 0x3000, 0, 0x3000\n"
         ".align 16\nnvw: .byte 0, 255, 0, 0\n.word 0x3000, 0, 0xFFFF0000\n", &as);

    kick(v, 0, sym(as, "loop2"), sym(as, "loop2_end"));
    CHECK_EQ(cg_fault_count(dev), 1);
    const cg_fault *f = cg_fault_get(dev, 0);
    CHECK_EQ(f->kind, CG_FAULT_HANG);
    CHECK_EQ(f->stream_addr, sym(as, "loop2"));
    CHECK_EQ(f->nwords, 0);

    cg_fault_clear(dev);
    kick(v, 1, sym(as, "rl"), sym(as, "rl_end"));
    CHECK_EQ(cg_fault_count(dev), 1);
    f = cg_fault_get(dev, 0);
    CHECK_EQ(f->kind, CG_FAULT_HANG);
    CHECK_EQ(f->stream_addr, 0x1080);
    CHECK_EQ(f->gpu_addr, 0x1080);
    CHECK_EQ(f->nwords, 1);
    CHECK_EQ(f->words[0], 0x00FFFF82); /* 82 FF FF, little-endian */

    /* a triangle before any NV_Shader_State reached the renderer: the item
     * is both addresses, its bytes 81 0000 0100 0200 the words */
    cg_fault_clear(dev);
    cg_vc4_reg_write(v, CG_VC4_CT1CS, CG_VC4_CS_RESET);
    kick(v, 1, sym(as, "rn"), sym(as, "rn_end"));
    CHECK_EQ(cg_fault_count(dev), 1);
    f = cg_fault_get(dev, 0);
    CHECK_EQ(f->kind, CG_FAULT_BAD_STATE);
    CHECK_EQ(f->gpu_addr, sym(as, "item2"));
    CHECK_EQ(f->stream_addr, sym(as, "item2"));
    CHECK_EQ(f->words[0], 0x01000081);
    CHECK_EQ(f->words[1], 0x00000200);

    /* index 0 is read at 0xFFFFFFFE; index 1 would be at 2^32 */
    cg_fault_clear(dev);
    kick(v, 0, sym(as, "bl"), sym(as, "bl_end"));
    CHECK_EQ(cg_fault_count(dev), 1);
    f = cg_fault_get(dev, 0);
    CHECK_EQ(f->kind, CG_FAULT_ADDR_RANGE);
    CHECK_EQ(f->gpu_addr, 0xFFFFFFFE);
    CHECK_EQ(f->stream_addr, sym(as, "ip"));
    CHECK_EQ(f->words[0], 0x20);
    CHECK(strstr(f->message, "index 1 ") != NULL);
    CHECK(reg(v, CG_VC4_CT0CS) & CG_VC4_CS_ERR);

    /* vertex 65535 at 0xFFFF0000 + 65535 * 255 = 0x100FEFF01 */
    cg_fault_clear(dev);
    kick(v, 1, sym(as, "rv"), sym(as, "rv_end"));
    CHECK_EQ(cg_fault_count(dev), 1);
    f = cg_fault_get(dev, 0);
    CHECK_EQ(f->kind, CG_FAULT_ADDR_RANGE);
    CHECK_EQ(f->gpu_addr, 0xFFFF0000);
    CHECK_EQ(f->stream_addr, sym(as, "item"));
    CHECK_EQ(f->nwords, 2);
    CHECK_EQ(f->words[0], 0x00FFFF81);
    CHECK_EQ(f->words[1], 0x00000100);
    CHECK(reg(v, CG_VC4_CT1CS) & CG_VC4_CS_ERR);

    cg_asm_destroy(as);
    cg_vc4_destroy(v);
    cg_device_destroy(dev);
}

int main(void)
{
    test_registers();
    test_mailbox();
    test_faults();
    test_fault_records();
    test_binner();
    test_oom();
    test_flush_all();
    test_copy_and_chain();
    test_coherency();
    return check_report("test_vc4_device");
}
