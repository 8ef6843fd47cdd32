/* nv: the engines, with exact memory after every operation: inline-to-memory
 * (pitch, partial lines, block linear, completions; through A140 and B197),
 * the copy engine (1-D, pitch, pitch <-> block linear checked against the GOB
 * formula for several block heights, remap, semaphores) and the 3D methods
 * that touch memory (constant buffer upload, report semaphore). */
#include <math.h>
#include "nv_testenv.h"

enum { SC_3D = 0, SC_I2M = 2, SC_COPY = 4 };

static size_t bind_all(uint32_t *w)
{
    static const uint32_t cls[5] = {0xB197, 0xB1C0, 0xA140, 0x902D, 0xB0B5};
    size_t n = 0;
    for (unsigned s = 0; s < 5; s++) {
        w[n++] = H_INC(s, 0, 1);
        w[n++] = cls[s];
    }
    return n;
}

/* The documented GOB formula (research/nv.md section 7), written out here
 * as the oracle: depth 1, block 1 GOB wide, 2^bh GOBs tall. */
static uint64_t bl_addr(uint32_t x, uint32_t y, uint32_t width_bytes, unsigned bh)
{
    uint32_t blocks_x = (width_bytes + 63) / 64;
    uint32_t gob_y = y / 8, block_h = 1u << bh;
    uint64_t block = (uint64_t)(gob_y / block_h) * blocks_x + x / 64;
    return block * (512u << bh) + (gob_y % block_h) * 512 + ((x % 64) / 32) * 256 +
           ((y % 8) / 2) * 64 + ((x % 32) / 16) * 32 + (y % 2) * 16 + x % 16;
}

static uint8_t rd8(nv_env *e, uint64_t va)
{
    uint8_t v = 0xEE;
    cg_vas_cpu_read(e->vas, va, &v, 1);
    return v;
}

static size_t i2m_setup(uint32_t *w, unsigned sc, uint64_t dst, uint32_t len, uint32_t lines,
                        uint32_t pitch)
{
    size_t n = 0;
    w[n++] = H_INC(sc, NVA140_LINE_LENGTH_IN, 5);
    w[n++] = len;
    w[n++] = lines;
    w[n++] = (uint32_t)(dst >> 32);
    w[n++] = (uint32_t)dst;
    w[n++] = pitch;
    return n;
}

static void test_i2m(void)
{
    nv_env e;
    env_init(&e);
    uint64_t d = e.data_va;
    uint32_t w[256];
    size_t n = bind_all(w);
    /* pitch: 3 lines of 7 bytes, 16 apart; 21 bytes = 6 words, last partial */
    n += i2m_setup(w + n, SC_I2M, d + 0x100, 7, 3, 16);
    w[n++] = H_INC(SC_I2M, NVA140_LAUNCH_DMA, 1);
    w[n++] = 1 | 1u << 4; /* PITCH, FLUSH_ONLY */
    w[n++] = H_NONINC(SC_I2M, NVA140_LOAD_INLINE_DATA, 6);
    uint8_t bytes[24];
    for (int i = 0; i < 24; i++)
        bytes[i] = (uint8_t)(0x10 + i);
    memcpy(w + n, bytes, 24);
    n += 6;
    env_submit(&e, 0, w, n);
    cg_nv_gpu_run(e.gpu);
    CHECK_EQ(cg_fault_count(e.dev), 0);
    uint8_t got[48];
    cg_vas_cpu_read(e.vas, d + 0x100, got, 48);
    uint8_t want[48] = {0};
    for (int y = 0; y < 3; y++)
        memcpy(want + 16 * y, bytes + 7 * y, 7); /* byte 21..23 of the last word dropped */
    CHECK_MEM(got, want, 48);

    /* the same through MAXWELL_B (subchannel 0), data split over two headers
     * and two GPFIFO entries, with IMMD words */
    n = i2m_setup(w, SC_3D, d + 0x200, 8, 1, 0);
    w[n++] = H_IMMD(SC_3D, NVA140_LAUNCH_DMA, 1);
    w[n++] = H_NONINC(SC_3D, NVA140_LOAD_INLINE_DATA, 1);
    env_submit(&e, 0, w, n);
    uint32_t w2[2] = {0x44332211, H_IMMD(SC_3D, NVA140_LOAD_INLINE_DATA, 0x0655)};
    env_submit(&e, 0, w2, 2);
    cg_nv_gpu_run(e.gpu);
    CHECK_EQ(env_rd32(&e, d + 0x200), 0x44332211);
    CHECK_EQ(env_rd32(&e, d + 0x204), 0x0655);

    /* and through MAXWELL_COMPUTE_B (subchannel 1), ONE_INC carrying
     * LAUNCH_DMA then LOAD_INLINE_DATA */
    n = i2m_setup(w, 1, d + 0x280, 6, 1, 0);
    w[n++] = H_ONE(1, NVA140_LAUNCH_DMA, 3);
    w[n++] = 1;
    w[n++] = 0x04030201;
    w[n++] = 0x08070605;
    env_submit(&e, 0, w, n);
    cg_nv_gpu_run(e.gpu);
    CHECK_EQ(env_rd32(&e, d + 0x280), 0x04030201);
    CHECK_EQ(env_rd32(&e, d + 0x284), 0x0605); /* 6 bytes: the rest of the word dropped */

    /* a semaphore release completing an upload on MAXWELL_B (0x1DC-0x1E4) */
    n = i2m_setup(w, SC_3D, d + 0x290, 4, 1, 0);
    w[n++] = H_INC(SC_3D, NVA140_SET_I2M_SEMAPHORE_A, 3);
    w[n++] = (uint32_t)((d + 0x2A0) >> 32);
    w[n++] = (uint32_t)(d + 0x2A0);
    w[n++] = 0x3D3D;
    w[n++] = H_INC(SC_3D, NVA140_LAUNCH_DMA, 2);
    w[n++] = 1 | 2u << 4 | 1u << 12; /* pitch, RELEASE_SEMAPHORE, ONE_WORD */
    w[n++] = 0x99887766;
    env_submit(&e, 0, w, n);
    cg_nv_gpu_run(e.gpu);
    CHECK_EQ(env_rd32(&e, d + 0x290), 0x99887766);
    CHECK_EQ(env_rd32(&e, d + 0x2A0), 0x3D3D);

    /* block linear: 40-byte lines x 5 at origin (20, 3) in a 128-byte-wide,
     * 16-row surface with 2-GOB blocks; semaphore release, one word */
    uint64_t bl = d + 0x10000;
    n = i2m_setup(w, SC_I2M, bl, 40, 5, 0);
    w[n++] = H_INC(SC_I2M, NVA140_SET_DST_BLOCK_SIZE, 7);
    w[n++] = 1u << 4; /* height 2 GOBs */
    w[n++] = 128;
    w[n++] = 16;
    w[n++] = 1;
    w[n++] = 0;
    w[n++] = 20;
    w[n++] = 3;
    w[n++] = H_INC(SC_I2M, NVA140_SET_I2M_SEMAPHORE_A, 3);
    w[n++] = (uint32_t)((d + 0x300) >> 32);
    w[n++] = (uint32_t)(d + 0x300);
    w[n++] = 0xFEED;
    w[n++] = H_INC(SC_I2M, NVA140_LAUNCH_DMA, 1);
    w[n++] = 0 | 2u << 4 | 1u << 12; /* BL, RELEASE_SEMAPHORE, ONE_WORD */
    w[n++] = H_NONINC(SC_I2M, NVA140_LOAD_INLINE_DATA, 50);
    uint8_t src[200];
    for (int i = 0; i < 200; i++)
        src[i] = (uint8_t)(i * 7 + 1);
    memcpy(w + n, src, 200);
    n += 50;
    env_submit(&e, 0, w, n);
    cg_nv_gpu_run(e.gpu);
    CHECK_EQ(cg_fault_count(e.dev), 0);
    int bad = 0;
    for (uint32_t y = 0; y < 5; y++)
        for (uint32_t x = 0; x < 40; x++)
            bad += rd8(&e, bl + bl_addr(20 + x, 3 + y, 128, 1)) != src[y * 40 + x];
    CHECK_EQ(bad, 0);
    CHECK_EQ(rd8(&e, bl + bl_addr(19, 3, 128, 1)), 0);
    CHECK_EQ(rd8(&e, bl + bl_addr(60, 3, 128, 1)), 0);
    CHECK_EQ(env_rd32(&e, d + 0x300), 0xFEED);

    /* four-word completion with reduction ADD (cla140.h RED_ADD 0) */
    uint32_t init = 100;
    cg_vas_cpu_write(e.vas, d + 0x400, &init, 4);
    n = i2m_setup(w, SC_I2M, d + 0x500, 4, 1, 0);
    w[n++] = H_INC(SC_I2M, NVA140_SET_I2M_SEMAPHORE_A, 3);
    w[n++] = (uint32_t)((d + 0x400) >> 32);
    w[n++] = (uint32_t)(d + 0x400);
    w[n++] = 23;
    w[n++] = H_INC(SC_I2M, NVA140_LAUNCH_DMA, 2);
    w[n++] = 1 | 1u << 1 | 2u << 4; /* pitch, reduction, release, four words, ADD unsigned */
    w[n++] = 0xABCD1234;            /* LOAD_INLINE_DATA: the INC run lands on 0x1B4 */
    env_submit(&e, 0, w, n);
    uint64_t t0 = cg_nv_gpu_time(e.gpu);
    cg_nv_gpu_run(e.gpu);
    CHECK_EQ(env_rd32(&e, d + 0x500), 0xABCD1234);
    CHECK_EQ(env_rd32(&e, d + 0x400), 123);
    CHECK_EQ(env_rd32(&e, d + 0x404), 0);
    CHECK_EQ(env_rd32(&e, d + 0x408), (uint32_t)(t0 + n - 2 - 1)); /* methods so far */
    CHECK_EQ(cg_fault_count(e.dev), 0);

    /* too much data for the transfer: the word it needs lands (and completes
     * it), the word past its end is a BAD_LENGTH fault; exact fields */
    n = i2m_setup(w, SC_I2M, d + 0x600, 4, 1, 0);
    w[n++] = H_IMMD(SC_I2M, NVA140_LAUNCH_DMA, 1);
    w[n++] = H_NONINC(SC_I2M, NVA140_LOAD_INLINE_DATA, 2);
    w[n++] = 1;
    w[n++] = 2;
    uint64_t at = env_submit(&e, 0, w, n);
    cg_nv_gpu_run(e.gpu);
    const cg_fault *f = env_last_fault(&e);
    CHECK(f && f->kind == CG_FAULT_BAD_LENGTH);
    if (f) {
        CHECK_STR(f->message, "LOAD_INLINE_DATA: 2 words, but the transfer needed only 1: "
                              "word 1 runs past its end");
        CHECK_EQ(f->stream_addr, at + 4 * (n - 1));
        CHECK_EQ(f->nwords, 2);
        CHECK_EQ(f->words[0], H_NONINC(SC_I2M, NVA140_LOAD_INLINE_DATA, 2));
        CHECK_EQ(f->words[1], 2);
        CHECK_EQ(f->gpu_addr, d + 0x600);
        CHECK_STR(f->unit, "i2m");
    }
    CHECK_EQ(env_rd32(&e, d + 0x600), 1);
    env_fini(&e);

    /* a write fault names the data word that carried the first unwritable
     * byte: 2 lines of 8 bytes, the second 1 GiB away where nothing is
     * mapped; line 0 (words 0, 1) lands, word 2 faults */
    env_init(&e);
    d = e.data_va;
    uint64_t hole = d + 0x40000000;
    CHECK_EQ(cg_vas_check(e.vas, hole, 8, true, NULL), CG_FAULT_UNMAPPED);
    n = bind_all(w);
    n += i2m_setup(w + n, SC_I2M, d, 8, 2, 0x40000000);
    w[n++] = H_IMMD(SC_I2M, NVA140_LAUNCH_DMA, 1);
    w[n++] = H_NONINC(SC_I2M, NVA140_LOAD_INLINE_DATA, 4);
    w[n++] = 0xA0;
    w[n++] = 0xA1;
    w[n++] = 0xA2;
    w[n++] = 0xA3;
    at = env_submit(&e, 0, w, n);
    cg_nv_gpu_run(e.gpu);
    CHECK_EQ(cg_fault_count(e.dev), 1);
    f = env_last_fault(&e);
    CHECK(f && f->kind == CG_FAULT_UNMAPPED);
    if (f) {
        CHECK_EQ(f->gpu_addr, hole);
        CHECK_EQ(f->stream_addr, at + 4 * (n - 2));
        CHECK_EQ(f->nwords, 2);
        CHECK_EQ(f->words[0], H_NONINC(SC_I2M, NVA140_LOAD_INLINE_DATA, 4));
        CHECK_EQ(f->words[1], 0xA2);
        CHECK_STR(f->unit, "i2m");
    }
    CHECK_EQ(env_rd32(&e, d), 0xA0);
    CHECK_EQ(env_rd32(&e, d + 4), 0xA1);
    env_fini(&e);

    /* a block-linear LAUNCH_DMA claiming 16 MiB costs host memory only for
     * the data that arrives: one word stages in 4 KiB, not 16 MiB */
    env_init(&e);
    d = e.data_va;
    n = bind_all(w); /* the register files are allocated here, before counting */
    env_submit(&e, 0, w, n);
    cg_nv_gpu_run(e.gpu);
    size_t before = cg_device_host_bytes(e.dev);
    n = i2m_setup(w, SC_I2M, d, 4096, 4096, 0);
    w[n++] = H_INC(SC_I2M, NVA140_SET_DST_BLOCK_SIZE, 4);
    w[n++] = 0;    /* one GOB per block */
    w[n++] = 4096; /* width in bytes */
    w[n++] = 4096; /* height */
    w[n++] = 1;    /* depth */
    w[n++] = H_IMMD(SC_I2M, NVA140_LAUNCH_DMA, 0); /* block linear, no completion */
    w[n++] = H_IMMD(SC_I2M, NVA140_LOAD_INLINE_DATA, 0x123);
    env_submit(&e, 0, w, n);
    cg_nv_gpu_run(e.gpu);
    CHECK_EQ(cg_fault_count(e.dev), 0);
    CHECK_EQ(cg_device_host_bytes(e.dev) - before, 4096);
    env_fini(&e);
}

static size_t copy_regs(uint32_t *w, uint64_t src, uint64_t dst, uint32_t pin, uint32_t pout,
                        uint32_t len, uint32_t count)
{
    size_t n = 0;
    w[n++] = H_INC(SC_COPY, NVB0B5_OFFSET_IN_UPPER, 8);
    w[n++] = (uint32_t)(src >> 32);
    w[n++] = (uint32_t)src;
    w[n++] = (uint32_t)(dst >> 32);
    w[n++] = (uint32_t)dst;
    w[n++] = pin;
    w[n++] = pout;
    w[n++] = len;
    w[n++] = count;
    return n;
}

static void test_copy(void)
{
    nv_env e;
    env_init(&e);
    uint64_t d = e.data_va;
    static uint32_t w[4096];
    size_t n = bind_all(w);
    /* source image: 96 bytes x 40 rows, byte = x ^ (y * 3) */
    enum { W = 96, H = 40, PITCH = 128 };
    static uint8_t img[PITCH * H];
    for (int y = 0; y < H; y++)
        for (int x = 0; x < PITCH; x++)
            img[y * PITCH + x] = (uint8_t)(x < W ? (x ^ (y * 3)) + 1 : 0);
    uint64_t src = d, bl = d + 0x20000, back = d + 0x40000;
    cg_vas_cpu_write(e.vas, src, img, sizeof(img));

    /* 1-D copy of 100 bytes, then semaphore one-word release */
    n += copy_regs(w + n, src + 3, d + 0x80000, 0, 0, 100, 1);
    w[n++] = H_INC(SC_COPY, NVB0B5_SET_SEMAPHORE_A, 3);
    w[n++] = (uint32_t)((d + 0x90000) >> 32);
    w[n++] = (uint32_t)(d + 0x90000);
    w[n++] = 0x600D;
    w[n++] = H_INC(SC_COPY, NVB0B5_LAUNCH_DMA, 1);
    w[n++] = 2 | 1u << 3 | 1u << 7 | 1u << 8; /* non-pipelined, one-word sem, pitch/pitch */
    env_submit(&e, 0, w, n);
    cg_nv_gpu_run(e.gpu);
    CHECK_EQ(cg_fault_count(e.dev), 0);
    static uint8_t got[PITCH * H];
    cg_vas_cpu_read(e.vas, d + 0x80000, got, 104);
    CHECK_MEM(got, img + 3, 100);
    CHECK_EQ(got[100], 0);
    CHECK_EQ(env_rd32(&e, d + 0x90000), 0x600D);

    /* multi-line pitch -> pitch, 50 bytes x 10 lines, pitch 128 -> 64 */
    n = copy_regs(w, src + 128 * 2 + 5, d + 0xA0000, PITCH, 64, 50, 10);
    w[n++] = H_INC(SC_COPY, NVB0B5_LAUNCH_DMA, 1);
    w[n++] = 2 | 1u << 7 | 1u << 8 | 1u << 9;
    env_submit(&e, 0, w, n);
    cg_nv_gpu_run(e.gpu);
    cg_vas_cpu_read(e.vas, d + 0xA0000, got, 64 * 10);
    int bad = 0;
    for (int y = 0; y < 10; y++)
        for (int x = 0; x < 64; x++)
            bad += got[y * 64 + x] != (x < 50 ? img[(y + 2) * PITCH + 5 + x] : 0);
    CHECK_EQ(bad, 0);

    /* pitch -> block linear -> pitch for block heights 1, 2, 4 and 16 GOBs */
    static const unsigned bhs[] = {0, 1, 2, 4};
    for (size_t k = 0; k < 4; k++) {
        unsigned bh = bhs[k];
        cg_vas_fill(e.vas, bl, 0, 0x20000, NULL);
        cg_vas_fill(e.vas, back, 0, 0x20000, NULL);
        /* whole image to BL at origin (0,0) */
        n = copy_regs(w, src, bl, PITCH, 0, W, H);
        w[n++] = H_INC(SC_COPY, NVB0B5_SET_DST_BLOCK_SIZE, 6);
        w[n++] = bh << 4 | 1u << 12; /* FERMI_8 GOBs */
        w[n++] = W;
        w[n++] = H;
        w[n++] = 1;
        w[n++] = 0;
        w[n++] = 0;
        w[n++] = H_INC(SC_COPY, NVB0B5_LAUNCH_DMA, 1);
        w[n++] = 2 | 1u << 7 | 0u << 8 | 1u << 9; /* src pitch, dst BL */
        /* a 30 x 7 sub-rectangle at BL origin (33, 9) back to pitch 32 */
        n += copy_regs(w + n, bl, back, 0, 32, 30, 7);
        w[n++] = H_INC(SC_COPY, NVB0B5_SET_SRC_BLOCK_SIZE, 6);
        w[n++] = bh << 4 | 1u << 12;
        w[n++] = W;
        w[n++] = H;
        w[n++] = 1;
        w[n++] = 0;
        w[n++] = 33u | 9u << 16;
        w[n++] = H_INC(SC_COPY, NVB0B5_LAUNCH_DMA, 1);
        w[n++] = 2 | 0u << 7 | 1u << 8 | 1u << 9; /* src BL, dst pitch */
        env_submit(&e, 0, w, n);
        cg_nv_gpu_run(e.gpu);
        CHECK_EQ(cg_fault_count(e.dev), 0);
        bad = 0;
        for (uint32_t y = 0; y < H; y++)
            for (uint32_t x = 0; x < W; x++)
                bad += rd8(&e, bl + bl_addr(x, y, W, bh)) != img[y * PITCH + x];
        CHECK_EQ(bad, 0);
        cg_vas_cpu_read(e.vas, back, got, 32 * 7);
        bad = 0;
        for (int y = 0; y < 7; y++)
            for (int x = 0; x < 32; x++)
                bad += got[y * 32 + x] != (x < 30 ? img[(9 + y) * PITCH + 33 + x] : 0);
        CHECK_EQ(bad, 0);
    }

    /* a 3-D block-linear destination: depth 4, blocks 2 GOBs tall and 2
     * deep, slice z = 3 (SET_DST_LAYER). Oracle: inside a block the GOBs of
     * one slice stack in y, slices follow each other (yuzu decoders.cpp). */
    {
        const unsigned bh = 1, bd = 1;
        const uint32_t z = 3, width = 64, height = 16, depth = 4;
        cg_vas_fill(e.vas, bl, 0, 0x20000, NULL);
        n = copy_regs(w, src, bl, PITCH, 0, 64, 16);
        w[n++] = H_INC(SC_COPY, NVB0B5_SET_DST_BLOCK_SIZE, 6);
        w[n++] = bh << 4 | bd << 8 | 1u << 12;
        w[n++] = width;
        w[n++] = height;
        w[n++] = depth;
        w[n++] = z;
        w[n++] = 0;
        w[n++] = H_INC(SC_COPY, NVB0B5_LAUNCH_DMA, 1);
        w[n++] = 2 | 1u << 7 | 1u << 9;
        env_submit(&e, 0, w, n);
        cg_nv_gpu_run(e.gpu);
        CHECK_EQ(cg_fault_count(e.dev), 0);
        uint32_t rows = 8u << bh, blocks_y = (height + rows - 1) / rows, blocks_x = width / 64;
        uint64_t block_bytes = 512u << (bh + bd);
        bad = 0;
        for (uint32_t y = 0; y < 16; y++)
            for (uint32_t x = 0; x < 64; x++) {
                uint64_t block = ((uint64_t)(z >> bd) * blocks_y + y / rows) * blocks_x + x / 64;
                uint64_t gob = ((z & ((1u << bd) - 1)) << bh) + (y % rows) / 8;
                uint64_t a = block * block_bytes + gob * 512 + ((x % 64) / 32) * 256 +
                             ((y % 8) / 2) * 64 + ((x % 32) / 16) * 32 + (y % 2) * 16 + x % 16;
                bad += rd8(&e, bl + a) != img[y * PITCH + x];
            }
        CHECK_EQ(bad, 0);
        /* slice 3 of 2-deep blocks is the second slice of the second block
         * plane: nothing lands in the first plane */
        CHECK_EQ(rd8(&e, bl + 0), 0);
    }

    /* remap: 4-byte pixels of 1-byte components: dst = (W, CONST_A, X, NO_WRITE)
     * over a destination prefilled with 0x99, 3 pixels */
    uint8_t px[12] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
    cg_vas_cpu_write(e.vas, d + 0xB0000, px, 12);
    cg_vas_fill(e.vas, d + 0xB1000, 0x99, 16, NULL);
    n = copy_regs(w, d + 0xB0000, d + 0xB1000, 0, 0, 3, 1);
    w[n++] = H_INC(SC_COPY, NVB0B5_SET_REMAP_CONST_A, 3);
    w[n++] = 0xA0;
    w[n++] = 0xB0;
    w[n++] = 3u | 4u << 4 | 0u << 8 | 6u << 12 | 0u << 16 | 3u << 20 | 3u << 24;
    w[n++] = H_INC(SC_COPY, NVB0B5_LAUNCH_DMA, 1);
    w[n++] = 2 | 1u << 7 | 1u << 8 | 1u << 10;
    env_submit(&e, 0, w, n);
    cg_nv_gpu_run(e.gpu);
    uint8_t rw[16];
    cg_vas_cpu_read(e.vas, d + 0xB1000, rw, 16);
    static const uint8_t rwant[16] = {4, 0xA0, 1, 0x99, 8, 0xA0, 5, 0x99, 12, 0xA0, 9, 0x99,
                                      0x99, 0x99, 0x99, 0x99};
    CHECK_MEM(rw, rwant, 16);
    /* remap 2-byte components, 2 src -> 3 dst (Y, X, CONST_B): a fill with swizzle */
    n = copy_regs(w, d + 0xB0000, d + 0xB2000, 0, 0, 2, 1);
    w[n++] = H_INC(SC_COPY, NVB0B5_SET_REMAP_CONST_B, 2);
    w[n++] = 0xBEEF;
    w[n++] = 1u | 0u << 4 | 5u << 8 | 1u << 16 | 1u << 20 | 2u << 24;
    w[n++] = H_INC(SC_COPY, NVB0B5_LAUNCH_DMA, 1);
    w[n++] = 2 | 1u << 7 | 1u << 8 | 1u << 10 | 2u << 3 | 2u << 5; /* + four-word sem, intr */
    env_submit(&e, 0, w, n);
    cg_nv_gpu_run(e.gpu);
    uint8_t r2[12];
    cg_vas_cpu_read(e.vas, d + 0xB2000, r2, 12);
    static const uint8_t r2want[12] = {3, 4, 1, 2, 0xEF, 0xBE, 7, 8, 5, 6, 0xEF, 0xBE};
    CHECK_MEM(r2, r2want, 12);
    /* the four-word semaphore went to the address set earlier */
    CHECK_EQ(env_rd32(&e, d + 0x90000), 0x600D);
    CHECK_EQ(env_rd32(&e, d + 0x90004), 0);
    CHECK(env_rd32(&e, d + 0x90008) > 0);
    CHECK_EQ(cg_fault_count(e.dev), 0);

    /* semaphore reduction: IADD unsigned on the one-word release */
    n = 0;
    w[n++] = H_INC(SC_COPY, NVB0B5_SET_SEMAPHORE_PAYLOAD, 1);
    w[n++] = 5;
    w[n++] = H_INC(SC_COPY, NVB0B5_LAUNCH_DMA, 1);
    w[n++] = 0 | 1u << 3 | 5u << 14 | 1u << 18 | 1u << 19;
    env_submit(&e, 0, w, n);
    cg_nv_gpu_run(e.gpu);
    CHECK_EQ(env_rd32(&e, d + 0x90000), 0x600D + 5);

    /* Tesla-4 GOBs: not supported yet, said plainly */
    n = copy_regs(w, src, bl, PITCH, 0, 8, 8);
    w[n++] = H_INC(SC_COPY, NVB0B5_SET_DST_BLOCK_SIZE, 1);
    w[n++] = 0;
    w[n++] = H_INC(SC_COPY, NVB0B5_LAUNCH_DMA, 1);
    w[n++] = 2 | 1u << 7 | 1u << 9;
    env_submit(&e, 0, w, n);
    cg_nv_gpu_run(e.gpu);
    const cg_fault *f = env_last_fault(&e);
    CHECK(f && f->kind == CG_FAULT_UNSUPPORTED);
    if (f) {
        CHECK_STR(f->message, "B0B5 SET_DST_BLOCK_SIZE GOB_HEIGHT 0: only FERMI_8 (1) is supported");
        CHECK_STR(f->unit, "ce");
    }
    env_fini(&e);

    /* a copy running past the end of its destination: the bytes before the
     * unmapped page land, the fault names the first byte past the buffer */
    env_init(&e);
    d = e.data_va;
    uint64_t end = d + ENV_DATA_SIZE;
    CHECK_EQ(cg_vas_check(e.vas, end, 1, true, NULL), CG_FAULT_UNMAPPED);
    uint32_t srcw[8];
    for (unsigned i = 0; i < 8; i++)
        srcw[i] = 0x01010101u * (i + 1);
    CHECK_EQ(cg_vas_cpu_write(e.vas, d, srcw, sizeof(srcw)), 0);
    n = bind_all(w);
    n += copy_regs(w + n, d, end - 16, 0, 0, 32, 1);
    w[n++] = H_IMMD(SC_COPY, NVB0B5_LAUNCH_DMA, 2); /* NON_PIPELINED, 1-D */
    uint64_t at = env_submit(&e, 0, w, n);
    cg_nv_gpu_run(e.gpu);
    CHECK_EQ(cg_fault_count(e.dev), 1);
    f = env_last_fault(&e);
    CHECK(f && f->kind == CG_FAULT_UNMAPPED);
    if (f) {
        CHECK_EQ(f->gpu_addr, end);
        CHECK_EQ(f->stream_addr, at + 4 * (n - 1));
        CHECK_EQ(f->words[0], H_IMMD(SC_COPY, NVB0B5_LAUNCH_DMA, 2));
        CHECK_EQ(f->words[1], 2);
        CHECK_STR(f->unit, "ce");
    }
    for (unsigned i = 0; i < 4; i++)
        CHECK_EQ(env_rd32(&e, end - 16 + 4 * i), srcw[i]);
    env_fini(&e);
}

static void test_3d_memory(void)
{
    nv_env e;
    env_init(&e);
    uint64_t d = e.data_va;
    uint32_t w[64];
    size_t n = bind_all(w);
    /* constant buffer upload with the seed's alias names' methods */
    w[n++] = H_INC(SC_3D, NVB197_SET_CONSTANT_BUFFER_SELECTOR_A, 4);
    w[n++] = 0x100;
    w[n++] = (uint32_t)((d + 0x1000) >> 32);
    w[n++] = (uint32_t)(d + 0x1000);
    w[n++] = 0x20; /* CB_POS */
    w[n++] = H_NONINC(SC_3D, NVB197_LOAD_CONSTANT_BUFFER, 3);
    w[n++] = 0x11;
    w[n++] = 0x22;
    w[n++] = 0x33;
    /* the seed's fence: QUERY_ADDRESS_HIGH/LOW, SEQUENCE, GET (release, one word) */
    w[n++] = H_INC(SC_3D, NVB197_SET_REPORT_SEMAPHORE_A, 4);
    w[n++] = (uint32_t)((d + 0x2000) >> 32);
    w[n++] = (uint32_t)(d + 0x2000);
    w[n++] = 7;
    w[n++] = 0u | 1u << 4 | 0xFu << 12 | 1u << 28;
    env_submit(&e, 0, w, n);
    cg_nv_gpu_run(e.gpu);
    CHECK_EQ(cg_fault_count(e.dev), 0);
    CHECK_EQ(env_rd32(&e, d + 0x1020), 0x11);
    CHECK_EQ(env_rd32(&e, d + 0x1024), 0x22);
    CHECK_EQ(env_rd32(&e, d + 0x1028), 0x33);
    CHECK_EQ(env_rd32(&e, d + 0x2000), 7);
    /* past the buffer size */
    n = 0;
    w[n++] = H_INC(SC_3D, NVB197_SET_CONSTANT_BUFFER_SELECTOR_A, 1);
    w[n++] = 0x2C;
    w[n++] = H_INC(SC_3D, NVB197_LOAD_CONSTANT_BUFFER, 1);
    w[n++] = 0x44;
    uint64_t at = env_submit(&e, 0, w, n);
    cg_nv_gpu_run(e.gpu);
    const cg_fault *f = env_last_fault(&e);
    CHECK(f && f->kind == CG_FAULT_BAD_STATE);
    if (f) {
        CHECK_STR(f->message, "LOAD_CONSTANT_BUFFER: offset 0x2c past the buffer size 0x2c");
        CHECK_EQ(f->stream_addr, at + 12);
        CHECK_EQ(f->gpu_addr, d + 0x1000 + 0x2c);
    }
    env_fini(&e);

    /* CB_POS 0xfffffffc: offset + 4 wraps 32 bits, and is still past the
     * 16-byte buffer (it once passed the check and wrote 4 GiB away) */
    env_init(&e);
    d = e.data_va;
    n = bind_all(w);
    w[n++] = H_INC(SC_3D, NVB197_SET_CONSTANT_BUFFER_SELECTOR_A, 4);
    w[n++] = 0x10;
    w[n++] = (uint32_t)((d + 0x1000) >> 32);
    w[n++] = (uint32_t)(d + 0x1000);
    w[n++] = 0xFFFFFFFCu; /* CB_POS */
    w[n++] = H_NONINC(SC_3D, NVB197_LOAD_CONSTANT_BUFFER, 1);
    w[n++] = 0x55;
    at = env_submit(&e, 0, w, n);
    cg_nv_gpu_run(e.gpu);
    CHECK_EQ(cg_fault_count(e.dev), 1);
    f = env_last_fault(&e);
    CHECK(f && f->kind == CG_FAULT_BAD_STATE);
    if (f) {
        CHECK_STR(f->message, "LOAD_CONSTANT_BUFFER: offset 0xfffffffc past the buffer size 0x10");
        CHECK_EQ(f->stream_addr, at + 4 * (n - 1));
        CHECK_EQ(f->gpu_addr, d + 0x1000 + 0xFFFFFFFCull);
        CHECK_EQ(f->words[1], 0x55);
    }
    env_fini(&e);
}


enum { SC_2D = 3 };

/* 902D surface setup: format, pitch layout, pitch, width, height, address */
static size_t surf2d(uint32_t *w, bool src, uint32_t fmt, uint32_t pitch, uint32_t wd,
                     uint32_t ht, uint64_t va, bool bl, unsigned bh)
{
    size_t n = 0;
    uint32_t b = src ? NV902D_SET_SRC_FORMAT : NV902D_SET_DST_FORMAT;
    w[n++] = H_INC(SC_2D, b, 3);
    w[n++] = fmt;
    w[n++] = bl ? 0 : 1;
    w[n++] = bh << 4;
    w[n++] = H_INC(SC_2D, b + 0x14, 5);
    w[n++] = pitch;
    w[n++] = wd;
    w[n++] = ht;
    w[n++] = (uint32_t)(va >> 32);
    w[n++] = (uint32_t)va;
    return n;
}

static size_t blit2d(uint32_t *w, uint32_t mode, int32_t dx, int32_t dy, uint32_t dw, uint32_t dh,
                     uint64_t dudx, uint64_t dvdy, uint64_t u0, uint64_t v0)
{
    size_t n = 0;
    w[n++] = H_INC(SC_2D, NV902D_SET_OPERATION, 1);
    w[n++] = 3; /* SRCCOPY */
    w[n++] = H_INC(SC_2D, NV902D_SET_PIXELS_FROM_MEMORY_SAMPLE_MODE, 1);
    w[n++] = mode;
    w[n++] = H_INC(SC_2D, NV902D_SET_PIXELS_FROM_MEMORY_DST_X0, 12);
    w[n++] = (uint32_t)dx;
    w[n++] = (uint32_t)dy;
    w[n++] = dw;
    w[n++] = dh;
    w[n++] = (uint32_t)dudx;
    w[n++] = (uint32_t)(dudx >> 32);
    w[n++] = (uint32_t)dvdy;
    w[n++] = (uint32_t)(dvdy >> 32);
    w[n++] = (uint32_t)u0;
    w[n++] = (uint32_t)(u0 >> 32);
    w[n++] = (uint32_t)v0;
    w[n++] = (uint32_t)(v0 >> 32); /* PIXELS_FROM_MEMORY_SRC_Y0_INT: go */
    return n;
}

static void test_twod(void)
{
    nv_env e;
    env_init(&e);
    uint64_t d = e.data_va;
    uint32_t w[128];
    /* 2x point upscale of a 2x2 A8B8G8R8 image into 4x4 */
    static const uint8_t src[16] = {10, 20, 30, 255, 40, 50, 60, 255,
                                    70, 80, 90, 255, 100, 110, 120, 255};
    cg_vas_cpu_write(e.vas, d, src, 16);
    size_t n = bind_all(w);
    n += surf2d(w + n, true, 0xD5, 8, 2, 2, d, false, 0);
    n += surf2d(w + n, false, 0xD5, 16, 4, 4, d + 0x100, false, 0);
    n += blit2d(w + n, 0, 0, 0, 4, 4, 1ull << 31, 1ull << 31, 0, 0);
    env_submit(&e, 0, w, n);
    cg_nv_gpu_run(e.gpu);
    CHECK_EQ(cg_fault_count(e.dev), 0);
    int bad = 0;
    for (int y = 0; y < 4; y++)
        for (int x = 0; x < 4; x++) {
            uint32_t got = env_rd32(&e, d + 0x100 + 16 * y + 4 * x), want;
            memcpy(&want, src + 4 * ((y / 2) * 2 + x / 2), 4);
            bad += got != want;
        }
    CHECK_EQ(bad, 0);

    /* bilinear: halfway between two texels (0 and 200 in R) */
    static const uint8_t two[8] = {0, 0, 0, 255, 200, 100, 50, 255};
    cg_vas_cpu_write(e.vas, d + 0x200, two, 8);
    n = surf2d(w, true, 0xD5, 8, 2, 1, d + 0x200, false, 0);
    n += surf2d(w + n, false, 0xD5, 4, 1, 1, d + 0x300, false, 0);
    n += blit2d(w + n, 1u << 4, 0, 0, 1, 1, 1ull << 32, 1ull << 32, 1ull << 31, 0);
    env_submit(&e, 0, w, n);
    cg_nv_gpu_run(e.gpu);
    CHECK_EQ(env_rd32(&e, d + 0x300), 0xFF193264u); /* R 100, G 50, B 25, A 255 */

    /* flipped and mirrored 1:1 blits, CENTER origin, as Mesa's nvc0 makes
     * them (SRC0 = the first texel sampled, step -1): a 2x3 image comes out
     * upside down, then right to left */
    static const uint8_t r8[6] = {1, 2, 3, 4, 5, 6};
    cg_vas_cpu_write(e.vas, d + 0x800, r8, 6);
    n = surf2d(w, true, 0xF3, 2, 2, 3, d + 0x800, false, 0);
    n += surf2d(w + n, false, 0xF3, 2, 2, 3, d + 0x900, false, 0);
    n += blit2d(w + n, 0, 0, 0, 2, 3, 1ull << 32, (uint64_t)-(1ll << 32), 0, 2ull << 32);
    n += surf2d(w + n, false, 0xF3, 2, 2, 3, d + 0xA00, false, 0);
    n += blit2d(w + n, 0, 0, 0, 2, 3, (uint64_t)-(1ll << 32), 1ull << 32, 1ull << 32, 0);
    env_submit(&e, 0, w, n);
    cg_nv_gpu_run(e.gpu);
    CHECK_EQ(cg_fault_count(e.dev), 0);
    static const uint8_t flipped[6] = {5, 6, 3, 4, 1, 2}, mirrored[6] = {2, 1, 4, 3, 6, 5};
    uint8_t got6[6];
    cg_vas_cpu_read(e.vas, d + 0x900, got6, 6);
    CHECK_MEM(got6, flipped, 6);
    cg_vas_cpu_read(e.vas, d + 0xA00, got6, 6);
    CHECK_MEM(got6, mirrored, 6);

    /* conversion A8R8G8B8 -> R5G6B5, 1:1, corner origin */
    static const uint8_t argb[4] = {0x10, 0x80, 0xF0, 0xFF}; /* B, G, R, A */
    cg_vas_cpu_write(e.vas, d + 0x400, argb, 4);
    n = surf2d(w, true, 0xCF, 4, 1, 1, d + 0x400, false, 0);
    n += surf2d(w + n, false, 0xE8, 2, 1, 1, d + 0x500, false, 0);
    n += blit2d(w + n, 1, 0, 0, 1, 1, 1ull << 32, 1ull << 32, 0, 0);
    env_submit(&e, 0, w, n);
    cg_nv_gpu_run(e.gpu);
    CHECK_EQ(env_rd32(&e, d + 0x500) & 0xFFFF, 29u << 11 | 32u << 5 | 2u);

    /* solid rect (1,1)-(3,2) in A8R8G8B8 colour onto A8B8G8R8, and a line */
    n = surf2d(w, false, 0xD5, 16, 4, 4, d + 0x600, false, 0);
    w[n++] = H_INC(SC_2D, NV902D_SET_RENDER_SOLID_PRIM_MODE, 3);
    w[n++] = 4; /* RECTS */
    w[n++] = 0xCF;
    w[n++] = 0xFF102030;
    w[n++] = H_INC(SC_2D, NV902D_RENDER_SOLID_PRIM_POINT_SET_X, 4);
    w[n++] = 1;
    w[n++] = 1; /* POINT_Y(0) */
    w[n++] = 3;
    w[n++] = 2; /* POINT_Y(1): the rect is drawn */
    w[n++] = H_INC(SC_2D, NV902D_SET_RENDER_SOLID_PRIM_MODE, 1);
    w[n++] = 1; /* LINES */
    w[n++] = H_NONINC(SC_2D, NV902D_RENDER_SOLID_PRIM_POINT_X_Y, 2);
    w[n++] = 0 | 3u << 16;
    w[n++] = 3 | 0u << 16;
    env_submit(&e, 0, w, n);
    cg_nv_gpu_run(e.gpu);
    CHECK_EQ(cg_fault_count(e.dev), 0);
    uint32_t img[16];
    cg_vas_cpu_read(e.vas, d + 0x600, img, 64);
    const uint32_t c = 0xFF302010; /* bytes 10 20 30 FF */
    uint32_t exp[16] = {0};
    exp[1 * 4 + 1] = exp[1 * 4 + 2] = c;                  /* rect */
    exp[3 * 4 + 0] = exp[2 * 4 + 1] = exp[1 * 4 + 2] = exp[0 * 4 + 3] = c; /* line */
    CHECK_MEM(img, exp, 64);

    /* a triangle whose vertices lie at the ends of the 32-bit range: the
     * edge functions overflowed int64 before (UBSan, found by fuzzing); it
     * covers the whole 4x4 surface */
    n = surf2d(w, false, 0xD5, 16, 4, 4, d + 0x700, false, 0);
    w[n++] = H_INC(SC_2D, NV902D_SET_RENDER_SOLID_PRIM_MODE, 3);
    w[n++] = 3; /* TRIANGLES */
    w[n++] = 0xCF;
    w[n++] = 0xFF102030;
    w[n++] = H_INC(SC_2D, NV902D_RENDER_SOLID_PRIM_POINT_SET_X, 6);
    w[n++] = 0x80000000u; /* (-2^31, -2^31) */
    w[n++] = 0x80000000u;
    w[n++] = 0x7FFFFFFFu; /* (2^31-1, -2^31) */
    w[n++] = 0x80000000u;
    w[n++] = 0;           /* (0, 2^31-1) */
    w[n++] = 0x7FFFFFFFu;
    env_submit(&e, 0, w, n);
    cg_nv_gpu_run(e.gpu);
    CHECK_EQ(cg_fault_count(e.dev), 0);
    cg_vas_cpu_read(e.vas, d + 0x700, img, 64);
    for (int i = 0; i < 16; i++)
        exp[i] = c;
    CHECK_MEM(img, exp, 64);

    /* blit into a block-linear destination (16 x 16 R8, 2-GOB blocks) */
    static uint8_t grad[256];
    for (int i = 0; i < 256; i++)
        grad[i] = (uint8_t)i;
    cg_vas_cpu_write(e.vas, d + 0x1000, grad, 256);
    n = surf2d(w, true, 0xF3, 16, 16, 16, d + 0x1000, false, 0);
    n += surf2d(w + n, false, 0xF3, 0, 16, 16, d + 0x2000, true, 1);
    n += blit2d(w + n, 0, 0, 0, 16, 16, 1ull << 32, 1ull << 32, 0, 0);
    env_submit(&e, 0, w, n);
    cg_nv_gpu_run(e.gpu);
    CHECK_EQ(cg_fault_count(e.dev), 0);
    bad = 0;
    for (uint32_t y = 0; y < 16; y++)
        for (uint32_t x = 0; x < 16; x++)
            bad += rd8(&e, d + 0x2000 + bl_addr(x, y, 16, 1)) != grad[y * 16 + x];
    CHECK_EQ(bad, 0);

    /* A blit onto its own, never-written page: R5G6B5 source and A8R8G8B8
     * destination at the same address, pixel by pixel in order, so later
     * reads see earlier writes (zero decodes to opaque black, written as
     * FF000000). The expected bytes come from playing the same order on a
     * plain array. */
    enum { BW = 16, BH = 4, BP = 64 };
    uint64_t fresh = d + 0x3F0000;
    n = surf2d(w, true, 0xE8, BP, BW, BH, fresh, false, 0);
    n += surf2d(w + n, false, 0xCF, BP, BW, BH, fresh, false, 0);
    n += blit2d(w + n, 1, 0, 0, BW, BH, 1ull << 32, 1ull << 32, 0, 0);
    env_submit(&e, 0, w, n);
    cg_nv_gpu_run(e.gpu);
    CHECK_EQ(cg_fault_count(e.dev), 0);
    uint8_t sim[BP * BH];
    memset(sim, 0, sizeof sim);
    for (int y = 0; y < BH; y++)
        for (int x = 0; x < BW; x++) {
            unsigned v = sim[y * BP + 2 * x] | sim[y * BP + 2 * x + 1] << 8;
            unsigned r = v >> 11, g = (v >> 5) & 63, b = v & 31;
            /* 5/6-bit unorm to 8 bits through floats, as the engine does */
            uint8_t *o = sim + y * BP + 4 * x;
            o[0] = (uint8_t)lrintf((float)b / 31.0f * 255.0f);
            o[1] = (uint8_t)lrintf((float)g / 63.0f * 255.0f);
            o[2] = (uint8_t)lrintf((float)r / 31.0f * 255.0f);
            o[3] = 255;
        }
    bad = 0;
    for (int i = 0; i < BP * BH; i++)
        bad += rd8(&e, fresh + (uint64_t)i) != sim[i];
    CHECK_EQ(bad, 0);
    CHECK(sim[6] != 0); /* the case is not all zero: reads saw writes */
    env_fini(&e);
}

int main(void)
{
    test_twod();
    test_i2m();
    test_copy();
    test_3d_memory();
    return check_report("test_nv_engines");
}
