/* vc4 QPU: the fragment run that keeps its state across batches
 * (docs/vc4-qpu.md "Fragment runs"). The shader is compared with memory once
 * per hold (vc4_qpu_cache_hold; the renderer holds for one NV-mode compressed
 * list), a straight program runs through vc4__qpu_frag without the slice's
 * set-up, and a batch resets only what the previous one changed. Every
 * result must be the one of the uncached run. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "qpu_text.h"
#include "vc4/qpu.h"
#include "vc4_qpu_env.h"
#include "vc4_testenv.h"

static int bus_put(void *ctx, uint32_t at, const void *p, size_t n)
{
    return cg_vas_cpu_write(((env *)ctx)->bus, at, p, n);
}

static void batch_fill(vc4_frag_batch *b, int k)
{
    memset(b, 0, sizeof *b);
    b->mask = (uint16_t)(0xffffu >> (k % 5));
    for (int i = 0; i < 16; i++) {
        b->frag_w[i] = 0x3f800000u + (uint32_t)(k * 16 + i);
        b->frag_z[i] = (uint32_t)(1000 * k + i);
        b->x[i] = (uint32_t)(i + k);
        b->y[i] = (uint32_t)(2 * i);
    }
}

/* The outputs a run gives (what the renderer reads) and its result. */
typedef struct outs {
    int rc;
    uint32_t color[16], z_out[16], ms_flags[16], alpha_mask[16];
    uint16_t color_mask, z_mask, ms_mask_written, alpha_mask_written;
    uint32_t stencil_writes, host_int;
    size_t faults;
    cg_fault f[4];
} outs;

static void take(outs *o, int rc, const vc4_frag_batch *b, cg_device *dev)
{
    memset(o, 0, sizeof *o);
    o->rc = rc;
    for (int i = 0; i < 16; i++) {
        if (b->color_mask >> i & 1)
            o->color[i] = b->color[i];
        if (b->z_mask >> i & 1)
            o->z_out[i] = b->z_out[i];
        if (b->alpha_mask_written >> i & 1)
            o->alpha_mask[i] = b->alpha_mask[i];
    }
    memcpy(o->ms_flags, b->ms_flags, sizeof o->ms_flags);
    o->color_mask = b->color_mask, o->z_mask = b->z_mask;
    o->ms_mask_written = b->ms_mask_written, o->alpha_mask_written = b->alpha_mask_written;
    o->stencil_writes = b->stencil_writes, o->host_int = b->host_int;
    o->faults = cg_fault_count(dev);
    for (size_t i = 0; i < o->faults && i < 4; i++) {
        o->f[i] = *cg_fault_get(dev, i);
        o->f[i].seq = 0;
    }
}

static void check_same(const outs *a, const outs *b)
{
    CHECK_EQ(a->rc, b->rc);
    CHECK_MEM(a->color, b->color, sizeof a->color);
    CHECK_MEM(a->z_out, b->z_out, sizeof a->z_out);
    CHECK_MEM(a->ms_flags, b->ms_flags, sizeof a->ms_flags);
    CHECK_MEM(a->alpha_mask, b->alpha_mask, sizeof a->alpha_mask);
    CHECK_EQ(a->color_mask, b->color_mask);
    CHECK_EQ(a->z_mask, b->z_mask);
    CHECK_EQ(a->ms_mask_written, b->ms_mask_written);
    CHECK_EQ(a->alpha_mask_written, b->alpha_mask_written);
    CHECK_EQ(a->stencil_writes, b->stencil_writes);
    CHECK_EQ(a->host_int, b->host_int);
    CHECK_EQ(a->faults, b->faults);
    for (size_t i = 0; i < a->faults && i < 4; i++) {
        CHECK_EQ(a->f[i].kind, b->f[i].kind);
        CHECK_EQ(a->f[i].flags, b->f[i].flags);
        CHECK_EQ(a->f[i].stream_addr, b->f[i].stream_addr);
        CHECK_EQ(a->f[i].nwords, b->f[i].nwords);
        CHECK_MEM(a->f[i].words, b->f[i].words, sizeof a->f[i].words);
        CHECK_STR(a->f[i].message, b->f[i].message);
    }
}

/* Run the program at CODE for batches 0..n-1 through one cache (the first
 * batch decodes, the later ones take the straight entry when the program is
 * one) and uncached; every output, result and fault record must agree. */
static void cached_as_uncached(env *e, int nb, uint64_t budget, bool strict, outs *last)
{
    vc4_qpu_cache *c = vc4_qpu_cache_create();
    vc4_frag_batch *b = malloc(sizeof *b);
    CHECK(c && b);
    for (int k = 0; k < nb; k++) {
        outs u, w;
        batch_fill(b, k);
        cg_fault_clear(e->dev);
        int rc = vc4_qpu_run_fragment(e->dev, e->bus, NULL, CODE, UNIF, b, budget, strict);
        take(&u, rc, b, e->dev);
        batch_fill(b, k);
        cg_fault_clear(e->dev);
        rc = vc4_qpu_run_fragment_cached(c, e->dev, e->bus, NULL, CODE, UNIF, b, budget, strict);
        take(&w, rc, b, e->dev);
        check_same(&u, &w);
        if (last)
            *last = w;
    }
    free(b);
    vc4_qpu_cache_destroy(c);
}

/* Assemble `text` at CODE and run it as cached_as_uncached does. */
static void run_text(env *e, const char *text, int nb, uint64_t budget, bool strict, outs *last)
{
    qpu_text_load(CODE, text, NULL, bus_put, e);
    cached_as_uncached(e, nb, budget, strict, last);
}

/* Straight programs (every instruction of the fast shapes from the start to
 * the end's delay slots): outputs and, with a budget one short, the hang
 * fault, as uncached. */
static void test_straight(void)
{
    env e;
    env_init(&e);
    /* rows, flags, conditions, TLB colour / Z / alpha mask, the payload */
    outs o;
    run_text(&e,
             "ldi r0, 0x12345678\n"
             "add r1, r0, ra15 : fmul r2, ra15, ra15\n"
             "sub.setf r3, r1, rb15 : nop\n"
             "or.ifn tlbc, r1, r3 : v8min tlbz, r2, r2\n"
             "or.ifnn tlbc, r0, r0 : nop\n"
             "nop : nop : thrend\n"
             "mov tlbam, r1 : nop\n"
             "nop\n",
             6, 100, true, &o);
    CHECK_EQ(o.rc, 0);
    CHECK_EQ(o.faults, 0);
    /* batch 5: mask 0xffff; lane 3: W = 0x3f800000 + 83, Z = 5003: N clear,
     * so colour = r0; Z written by the mul ALU: fmul(W, W) */
    CHECK_EQ(o.color_mask, 0xffff);
    CHECK_EQ(o.color[3], 0x12345678u);
    CHECK_EQ(o.z_mask, 0xffff);
    CHECK_EQ(o.alpha_mask_written, 0xffff);
    CHECK_EQ(o.alpha_mask[3], 0x12345678u + 0x3f800000u + 83u);
    /* the budget: 8 instructions run, 7 do not */
    cached_as_uncached(&e, 3, 8, true, &o);
    CHECK_EQ(o.rc, 0);
    cached_as_uncached(&e, 3, 7, true, &o);
    CHECK_EQ(o.rc, CG_ERR_FAULT);
    CHECK_EQ(o.faults, 1);
    CHECK_EQ(o.f[0].kind, CG_FAULT_HANG);
    CHECK_EQ(o.f[0].stream_addr, CODE + 7 * 8);
    /* not straight: ra0 read right after its write (a diagnostic, a fault
     * in strict mode, a warning otherwise); the end writing a register */
    run_text(&e,
             "ldi ra0, 5\n"
             "add tlbc, ra0, 1 : nop\n"
             "nop : nop : thrend\n"
             "nop\n"
             "nop\n",
             3, 100, false, &o);
    CHECK_EQ(o.rc, 0);
    CHECK_EQ(o.faults, 1);
    CHECK_EQ(o.f[0].kind, CG_FAULT_BAD_STATE);
    CHECK_EQ(o.f[0].flags & CG_FAULT_F_WARNING, CG_FAULT_F_WARNING);
    CHECK_EQ(o.f[0].stream_addr, CODE + 8);
    CHECK_EQ(o.color[0], 6u);
    cached_as_uncached(&e, 3, 100, true, &o);
    CHECK_EQ(o.rc, CG_ERR_FAULT);
    CHECK_EQ(o.f[0].kind, CG_FAULT_BAD_STATE);
    run_text(&e,
             "ldi tlbc, 9\n"
             "add ra3, r0, r0 : nop : thrend\n"
             "nop\n"
             "nop\n",
             3, 100, false, &o);
    CHECK_EQ(o.faults, 1);
    CHECK_EQ(o.f[0].stream_addr, CODE + 8);
    CHECK_EQ(o.color[0], 9u);
    /* load immediates to the TLB: alone under always (SH_LDI_TLB: colour,
     * Z), with a second destination, under a condition (SH_LDI; Z is clear at the start) */
    static const char *ldis[4] = {"ldi tlbc, 0x77\n", "ldi tlbz, 0x78\n",
                                  "ldi tlbc, r2, 0x79\nor tlbz, r2, r2 : nop\n",
                                  "ldi tlbc, 0x7a\nldi.ifnz tlbc, 0x7b\n"};
    static const uint32_t ldi_c[4] = {0x77, 0, 0x79, 0x7b}, ldi_z[4] = {0, 0x78, 0x79, 0};
    for (int k = 0; k < 4; k++) {
        char src[160];
        snprintf(src, sizeof src, "%snop : nop : thrend\nnop\nnop\n", ldis[k]);
        run_text(&e, src, 6, 100, true, &o);
        CHECK_EQ(o.rc, 0);
        CHECK_EQ(o.faults, 0);
        CHECK_EQ(o.color_mask, ldi_c[k] ? 0xffff : 0); /* batch 5: mask 0xffff */
        CHECK_EQ(o.color[7], ldi_c[k]);
        CHECK_EQ(o.z_mask, ldi_z[k] ? 0xffff : 0);
        CHECK_EQ(o.z_out[7], ldi_z[k]);
    }
    /* a run that left the fast path (an SFU write: step_d) is followed by a
     * straight one through the same cache: the state is reset whole */
    vc4_qpu_cache *c = vc4_qpu_cache_create();
    vc4_frag_batch *b = malloc(sizeof *b);
    static const uint32_t words[2][2] = {{0x12345, 0xE0020BA7}, {0x54321, 0xE0020BA7}};
    for (int k = 0; k < 4; k++) {
        qpu_text_load(CODE,
                      k & 1 ? "ldi r0, 0x40800000\nmov recip, r0 : nop\nnop\nnop\n"
                              "mov tlbc, r4 : nop : thrend\nnop\nnop\n"
                            : "ldi tlbc, 3\nnop : nop : thrend\nnop\nnop\n",
                      NULL, bus_put, &e);
        if (!(k & 1))
            cg_vas_cpu_write(e.bus, CODE, words[k >> 1], 8);
        batch_fill(b, k);
        cg_fault_clear(e.dev);
        CHECK_EQ(vc4_qpu_run_fragment_cached(c, e.dev, e.bus, NULL, CODE, UNIF, b, 100, true),
                 0);
        CHECK_EQ(cg_fault_count(e.dev), 0);
        CHECK_EQ(b->color_mask, (uint16_t)(0xffffu >> (k % 5)));
        CHECK_EQ(b->color[0], k & 1 ? 0x3e800000u : words[k >> 1][0]);
    }
    free(b);
    vc4_qpu_cache_destroy(c);
    env_fini(&e);
}

/* The hold's contract (qpu.h): while held, code compared once is not
 * compared again; a new hold or the end of the hold compares it again. */
static void test_hold(void)
{
    env e;
    env_init(&e);
    qpu_text_load(CODE, "ldi tlbc, 0x111\nnop : nop : thrend\nnop\nnop\n", NULL, bus_put, &e);
    vc4_qpu_cache *c = vc4_qpu_cache_create();
    vc4_frag_batch *b = malloc(sizeof *b);
    uint32_t w;
#define RUN(want)                                                                           \
    do {                                                                                    \
        batch_fill(b, 0);                                                                   \
        CHECK_EQ(vc4_qpu_run_fragment_cached(c, e.dev, e.bus, NULL, CODE, UNIF, b, 100, true), \
                 0);                                                                        \
        CHECK_EQ(b->color[0], (uint32_t)(want));                                            \
    } while (0)
    vc4_qpu_cache_hold(c, true);
    RUN(0x111);
    RUN(0x111);
    /* memory written while held breaks the holder's promise: the held code
     * runs (this is what the hold saves: no comparison) */
    w = 0x222;
    cg_vas_cpu_write(e.bus, CODE, &w, 4);
    RUN(0x111);
    /* a new hold compares again */
    vc4_qpu_cache_hold(c, true);
    RUN(0x222);
    w = 0x333;
    cg_vas_cpu_write(e.bus, CODE, &w, 4);
    /* no hold: compared at every run */
    vc4_qpu_cache_hold(c, false);
    RUN(0x333);
    w = 0x444;
    cg_vas_cpu_write(e.bus, CODE, &w, 4);
    RUN(0x444);
    /* a program that accesses the VPM is never held: a fragment shader's VPM
     * access is an `unsupported` fault at its instruction, as uncached */
    qpu_text_load(CODE,
                  "ldi tlbc, 0x555\n"
                  "ldi vw_setup, 0x1a00\n"
                  "nop : nop : thrend\n"
                  "nop\n"
                  "nop\n",
                  NULL, bus_put, &e);
    vc4_qpu_cache_hold(c, true);
    outs u, h;
    for (int k = 0; k < 3; k++) {
        batch_fill(b, k);
        cg_fault_clear(e.dev);
        int rc = vc4_qpu_run_fragment(e.dev, e.bus, NULL, CODE, UNIF, b, 100, true);
        take(&u, rc, b, e.dev);
        batch_fill(b, k);
        cg_fault_clear(e.dev);
        rc = vc4_qpu_run_fragment_cached(c, e.dev, e.bus, NULL, CODE, UNIF, b, 100, true);
        take(&h, rc, b, e.dev);
        check_same(&u, &h);
        CHECK_EQ(h.rc, CG_ERR_FAULT);
        CHECK_EQ(h.faults, 1);
        CHECK_EQ(h.f[0].kind, CG_FAULT_UNSUPPORTED);
        CHECK_EQ(h.f[0].stream_addr, CODE + 8);
        CHECK_EQ(h.f[0].words[0], 0x1a00u);
    }
    /* its code rewritten between runs of one hold: the new code runs */
    w = 0x009E7000;
    cg_vas_cpu_write(e.bus, CODE + 8, &w, 4);
    w = 0x100009E7;
    cg_vas_cpu_write(e.bus, CODE + 12, &w, 4);
    cg_fault_clear(e.dev);
    RUN(0x555);
    CHECK_EQ(vc4_hard_faults(e.dev, 0, true), 0);
    CHECK_EQ(cg_fault_count(e.dev), 0);
    vc4_qpu_cache_hold(c, false);
#undef RUN
    free(b);
    vc4_qpu_cache_destroy(c);
    env_fini(&e);
}

/* The renderer: within one render kick, the store of tile (0, 0) writes the
 * first word of P1 (its ldi's immediate: pixel (63, 0) of a 128x64 raster
 * frame, which P0's triangle covers) between P1's first compressed list in
 * tile (0, 0) and its second in tile (1, 0): the second list must run the
 * new code. Render list only (no binning): the records by hand. */
static const char *store_scene =
    ".section t, 0x10000\n"
    "FB = 0x100000\n"
    "REND: Clear_Colors 0xFF0000AA, 0xFFFFFF, 0, 0\n"
    "Tile_Rendering_Mode_Configuration FB, 128, 64, Frame_Buffer_Color_Format_RGBA8888\n"
    "Configuration_Bits 3, 0\n"
    "Clip_Window 0, 0, 128, 64\n"
    "Primitive_List_Format Primitive_Type_Triangles + Data_Type_Index_16\n"
    "Tile_Coordinates 0, 0\n"
    "NV_Shader_State NV1\nCompressed_Primitive_List\nCoding_3 0, 1, 2\nEscape\n"
    "NV_Shader_State NV0\nCompressed_Primitive_List\nCoding_3 3, 4, 5\nEscape\n"
    "Store_Tile_Buffer_General Store_Color, 0, FB\n"
    "Tile_Coordinates 1, 0\n"
    "NV_Shader_State NV1\nCompressed_Primitive_List\nCoding_3 6, 7, 8\nEscape\n"
    "Store_Tile_Buffer_General Store_Color, Last_Tile_Of_Frame, FB\n"
    "REND_END:\n"
    ".align 16\nNV0: .byte 0, 12, 0, 0\n.word P0, 0, VD\n"
    ".align 16\nNV1: .byte 0, 12, 0, 0\n.word P1, 0, VD\n"
    /* list a (P1): (0,32) (32,32) (0,64); list b (P0): (32,0) (64,0) (64,32);
     * list c (P1): (64,0) (128,0) (64,64) */
    ".align 16\nVD: .half 0, 32*16\n.float 0.5, 1.0\n.half 32*16, 32*16\n.float 0.5, 1.0\n"
    ".half 0, 64*16\n.float 0.5, 1.0\n"
    ".half 32*16, 0\n.float 0.5, 1.0\n.half 64*16, 0\n.float 0.5, 1.0\n"
    ".half 64*16, 32*16\n.float 0.5, 1.0\n"
    ".half 64*16, 0\n.float 0.5, 1.0\n.half 128*16, 0\n.float 0.5, 1.0\n"
    ".half 64*16, 64*16\n.float 0.5, 1.0\n"
    ".align 16\nP0: .word 0xFF222222, 0xE0020BA7, 0x009E7000, 0x300009E7, "
    "0x009E7000, 0x100009E7, 0x009E7000, 0x100009E7\n"
    ".section p, 0x1000FC\n"
    "P1: .word 0xFF111111, 0xE0020BA7, 0x009E7000, 0x300009E7, "
    "0x009E7000, 0x100009E7, 0x009E7000, 0x100009E7\n";

/* pixels of the 128x64 frame at fb in columns [x0, x1) equal to c */
static int count_px(cg_vc4 *v, uint32_t fb, int x0, int x1, uint32_t c)
{
    int n = 0;
    for (int y = 0; y < 64; y++)
        for (int x = x0; x < x1; x++) {
            uint32_t px;
            cg_vc4_cpu_read32(v, fb + 4 * (uint32_t)(y * 128 + x), &px);
            n += px == c;
        }
    return n;
}

static void test_store_rewrites_shader(void)
{
    cg_device *dev;
    cg_vc4 *v;
    CHECK_EQ(cg_device_create(&dev), 0);
    CHECK_EQ(cg_vc4_create(dev, NULL, &v), 0);
    cg_asm *as = load(v, store_scene);
    uint32_t fb = sym(as, "FB"), p1 = sym(as, "P1");
    CHECK_EQ(p1, fb + 252);
    kick(v, 1, sym(as, "REND"), sym(as, "REND_END"));
    cg_vc4_wait_idle(v);
    CHECK_EQ(vc4_hard_faults(dev, 0, true), 0);
    CHECK_EQ(cg_fault_count(dev), 0);
    /* P1's immediate is now pixel (63, 0): P0's colour */
    uint32_t w;
    cg_vc4_cpu_read32(v, p1, &w);
    CHECK_EQ(w, 0xFF222222u);
    /* tile (1, 0): list c ran the new code (the centres x' + y < 63 of its
     * triangle: 64 * 63 / 2); none of the old colour */
    CHECK_EQ(count_px(v, fb, 64, 128, 0xFF222222), 2016);
    CHECK_EQ(count_px(v, fb, 64, 128, 0xFF111111), 0);
    CHECK_EQ(count_px(v, fb, 64, 128, 0xFF0000AA), 64 * 64 - 2016);
    /* tile (0, 0): lists a (old code) and b */
    CHECK_EQ(count_px(v, fb, 0, 64, 0xFF111111), 496);
    CHECK_EQ(count_px(v, fb, 0, 64, 0xFF222222), 528);
    cg_asm_destroy(as);
    cg_vc4_destroy(v);
    cg_device_destroy(dev);
}

/* Two compressed lists per frame (two tiles) with one shader; the CPU
 * rewrites its colour between two render kicks: both lists of the second
 * frame run the new code. */
static const char *two_tiles =
    ".section t, 0x10000\n"
    "REND: Clear_Colors 0xFF0000AA, 0xFFFFFF, 0, 0\n"
    "Tile_Rendering_Mode_Configuration 0x100000, 128, 64, Frame_Buffer_Color_Format_RGBA8888\n"
    "Configuration_Bits 3, 0\n"
    "Clip_Window 0, 0, 128, 64\n"
    "Primitive_List_Format Primitive_Type_Triangles + Data_Type_Index_16\n"
    "Tile_Coordinates 0, 0\n"
    "NV_Shader_State NV\nCompressed_Primitive_List\nCoding_3 0, 1, 2\nEscape\n"
    "Store_Tile_Buffer_General Store_Color, 0, 0x100000\n"
    "Tile_Coordinates 1, 0\n"
    "NV_Shader_State NV\nCompressed_Primitive_List\nCoding_3 3, 4, 5\nEscape\n"
    "Store_Tile_Buffer_General Store_Color, Last_Tile_Of_Frame, 0x100000\n"
    "REND_END:\n"
    ".align 16\nNV: .byte 0, 12, 0, 0\n.word FS, 0, VD\n"
    ".align 16\nVD: .half 0, 0\n.float 0.5, 1.0\n.half 64*16, 0\n.float 0.5, 1.0\n"
    ".half 0, 64*16\n.float 0.5, 1.0\n"
    ".half 64*16, 0\n.float 0.5, 1.0\n.half 128*16, 0\n.float 0.5, 1.0\n"
    ".half 64*16, 64*16\n.float 0.5, 1.0\n"
    ".align 16\nFS: .word 0xFF111111, 0xE0020BA7, 0x009E7000, 0x300009E7, "
    "0x009E7000, 0x100009E7, 0x009E7000, 0x100009E7\n";

static void test_cpu_write_between_kicks(void)
{
    cg_device *dev;
    cg_vc4 *v;
    CHECK_EQ(cg_device_create(&dev), 0);
    CHECK_EQ(cg_vc4_create(dev, NULL, &v), 0);
    cg_asm *as = load(v, two_tiles);
    static const uint32_t colours[3] = {0xFF111111, 0xFF333333, 0xFF444444};
    for (int f = 0; f < 3; f++) {
        if (f)
            cg_vc4_cpu_write32(v, sym(as, "FS"), colours[f]);
        kick(v, 1, sym(as, "REND"), sym(as, "REND_END"));
        cg_vc4_wait_idle(v);
        CHECK_EQ(cg_fault_count(dev), 0);
        CHECK_EQ(count_px(v, 0x100000, 0, 64, colours[f]), 2016);
        CHECK_EQ(count_px(v, 0x100000, 64, 128, colours[f]), 2016);
    }
    cg_asm_destroy(as);
    cg_vc4_destroy(v);
    cg_device_destroy(dev);
}

int main(void)
{
    test_straight();
    test_hold();
    test_store_rewrites_shader();
    test_cpu_write_between_kicks();
    return check_report("test_vc4_fragrun");
}
