/* The nv stream validator (cmdgpu/nv_check.h, docs/nv-check.md): every rule
 * with a stream that breaks it (the exact report: rule, where, word, and the
 * message where the test can derive it) and one that keeps it; all
 * violations of a stream in stream order; every valid example passes. The
 * expected ranges are worked out by hand in the comments, not taken from the
 * validator's output. */
#include <stdlib.h>
#include "check.h"
#include "cmdgpu/cmdgpu.h"
#include "cmdgpu/nv_check.h"

#define PB 0x100000000ull  /* pushbuffer mapping, 64 KiB */
#define BUF 0x100100000ull /* 4 KiB read-write */
#define RO 0x100200000ull  /* 4 KiB read-only */
#define BIG 0x100400000ull /* 8 MiB read-write (check-limit) */

static const cg_nv_check_map maps[] = {
    {PB, 0x10000, false, "pb"},
    {BUF, 0x1000, false, "buf"},
    {RO, 0x1000, true, "ro"},
    {BIG, 8u << 20, false, "big"},
};

static uint32_t words[16384];
static cg_nv_pb pb;
static cg_check_report rep;

static void begin(void)
{
    cg_nv_pb_init(&pb, words, sizeof(words) / sizeof(words[0]));
}

/* One method by its table name; returns the address of the word that
 * carries the value (the header for IMMD, else the data word). */
static uint64_t m(unsigned subch, uint32_t cls, const char *name, uint32_t v)
{
    size_t before = pb.len;
    CHECK_EQ(cg_nv_pb_named(&pb, subch, cls, name, v), 0);
    return PB + 4 * (pb.len - before == 1 ? before : before + 1);
}

static uint64_t here(void)
{
    return PB + 4 * pb.len;
}

static void bind(unsigned subch, uint32_t cls)
{
    m(subch, CG_NV_CLASS_HOST, "SET_OBJECT", cls);
}

/* Check the stream built so far as one entry on channel 0 (plus `extra`
 * entries after it). Returns the violation count. */
static size_t run_entries(const cg_nv_check_entry *extra, size_t nextra)
{
    cg_nv_check_bytes b = {PB, (const uint8_t *)words, 4 * pb.len};
    /* no words, no entry: LENGTH 0 would make it a control entry whose
     * opcode is E1 7:0, here VA bits 39:32 = 1 = ILLEGAL */
    cg_nv_check_entry e[16] = {{0, cg_nv_gp_entry(PB, (uint32_t)pb.len, 0)}};
    size_t n0 = pb.len ? 1 : 0;
    for (size_t i = 0; i < nextra; i++)
        e[n0 + i] = extra[i];
    cg_nv_check_input in = {maps, 4, &b, 1, e, n0 + nextra, 0};
    cg_check_report_free(&rep);
    cg_check_report_init(&rep);
    CHECK_EQ(pb.err, 0);
    CHECK_EQ(cg_nv_check(&in, &rep), 0);
    return rep.n;
}

static size_t run(void)
{
    return run_entries(NULL, 0);
}

static void want(size_t i, const char *rule, uint64_t where, uint32_t word, const char *msg)
{
    CHECK(i < rep.n);
    if (i >= rep.n)
        return;
    CHECK_STR(rep.v[i].rule, rule);
    CHECK_EQ(rep.v[i].where, where);
    CHECK_EQ(rep.v[i].word, word);
    if (msg)
        CHECK_STR(rep.v[i].message, msg);
}

static void test_gpfifo(void)
{
    /* gp-control: an ILLEGAL control entry (LENGTH 0, opcode 1 in E1 7:0) */
    begin();
    cg_nv_check_entry ill = {0, cg_nv_gp_control(CG_NV_GP_OP_ILLEGAL, 0)};
    CHECK_EQ(run_entries(&ill, 1), 1);
    want(0, "gp-control", 0, 1, "entry 0 on channel 0: control opcode 1 (ILLEGAL: the channel faults)");
    cg_nv_check_entry nop = {0, cg_nv_gp_control(CG_NV_GP_OP_NOP, 0)};
    CHECK_EQ(run_entries(&nop, 1), 0);

    /* gp-fetch: two words from the pushbuffer's last word on; the second is
     * at PB + 0x10000, past the mapping. E1 = 2 << 10 | 0x01 (VA 39:32). */
    begin();
    cg_nv_check_entry past = {0, cg_nv_gp_entry(PB + 0xFFFC, 2, 0)};
    CHECK_EQ(run_entries(&past, 1), 1);
    want(0, "gp-fetch", PB + 0x10000, 0x801,
         "entry 0 on channel 0: [0x010000fffc, +0x8) fetches unmapped word 0x0100010000");
    CHECK_EQ(rep.checked, 1); /* the mapped word was walked */
    cg_nv_check_entry last = {0, cg_nv_gp_entry(PB + 0xFFFC, 1, 0)};
    CHECK_EQ(run_entries(&last, 1), 0);
}

static void test_pushbuffer(void)
{
    /* pb-opcode: secondary opcode 6 */
    begin();
    words[pb.len++] = 0xC0000000u;
    CHECK_EQ(run(), 1);
    want(0, "pb-opcode", PB, 0xC0000000u,
         "secondary opcode 6 is reserved (clb06f.h): the channel faults");
    /* END_PB_SEGMENT ends the entry: the reserved word after it is not run */
    begin();
    cg_nv_pb_end(&pb);
    words[pb.len++] = 0xC0000000u;
    CHECK_EQ(run(), 0);
    CHECK_EQ(rep.checked, 1);

    /* pb-truncated: INC of 3 words on subchannel 0 with one word given */
    begin();
    bind(0, CG_NV_CLASS_3D);
    uint32_t hdr = cg_nv_hdr(CG_NV_SEC_INC_METHOD, 0, 0x0200, 3);
    uint64_t hdr_at = here();
    words[pb.len++] = hdr;
    words[pb.len++] = 1;
    CHECK_EQ(run(), 1);
    want(0, "pb-truncated", hdr_at, hdr,
         "channel 0: the method run of this header still waits for 2 data word(s) after the "
         "last entry");
    /* the run continues into the next entry on the channel (pfifo.c) */
    cg_nv_check_entry rest = {0, cg_nv_gp_entry(BUF, 2, 0)};
    CHECK_EQ(run_entries(&rest, 1), 0);
    CHECK_EQ(rep.checked, 6); /* SET_OBJECT (header + data), header, 1 + 2 data words */
}

static void test_binding(void)
{
    /* subch-unbound: subchannel 5 has nothing bound */
    begin();
    uint64_t at = m(5, CG_NV_CLASS_TWOD, "SET_DST_FORMAT", 0xD5);
    CHECK_EQ(run(), 1);
    want(0, "subch-unbound", at, 0xD5, "method 0x0200 on subchannel 5, which has no object bound");
    begin();
    bind(5, CG_NV_CLASS_TWOD);
    m(5, CG_NV_CLASS_TWOD, "SET_DST_FORMAT", 0xD5);
    CHECK_EQ(run(), 0);

    /* class-allowed: MAXWELL_A (B097) and the channel class itself */
    begin();
    uint64_t a1 = m(1, CG_NV_CLASS_HOST, "SET_OBJECT", 0xB097);
    uint64_t a2 = m(2, CG_NV_CLASS_HOST, "SET_OBJECT", 0xB06F);
    CHECK_EQ(run(), 2);
    want(0, "class-allowed", a1, 0xB097,
         "SET_OBJECT: class 0xb097 on subchannel 1 is not one of B197, B1C0, A140, 902D, B0B5");
    want(1, "class-allowed", a2, 0xB06F, NULL);
    begin();
    bind(1, CG_NV_CLASS_COMPUTE);
    bind(2, CG_NV_CLASS_I2M);
    CHECK_EQ(run(), 0);

    /* method-unknown: 0x0300 is not in A140's table; MAXWELL_B keeps every
     * method of its range; host 0x000C is no host method; ILLEGAL */
    begin();
    bind(2, CG_NV_CLASS_I2M);
    bind(0, CG_NV_CLASS_3D);
    uint64_t u1 = here();
    cg_nv_pb_immd(&pb, 2, 0x0300, 7);
    cg_nv_pb_immd(&pb, 0, 0x0300, 7);
    uint64_t u2 = here();
    cg_nv_pb_immd(&pb, 0, 0x000C, 9);
    uint64_t u3 = m(0, CG_NV_CLASS_HOST, "ILLEGAL", 0x42);
    CHECK_EQ(run(), 3);
    want(0, "method-unknown", u1, 7,
         "method 0x0300 is not in class A140 (ILLEGAL_MTHD), subchannel 2");
    want(1, "method-unknown", u2, 9, "host method 0x00c is not in MAXWELL_CHANNEL_GPFIFO_A/A26F");
    want(2, "method-unknown", u3, 0x42,
         "ILLEGAL method: the channel stops with an illegal-method interrupt");
}

static void sem(uint64_t va, uint32_t payload)
{
    m(0, CG_NV_CLASS_HOST, "SEMAPHOREA", (uint32_t)(va >> 32));
    m(0, CG_NV_CLASS_HOST, "SEMAPHOREB", (uint32_t)va);
    m(0, CG_NV_CLASS_HOST, "SEMAPHOREC", payload);
}

static void test_host(void)
{
    /* host-semaphore-op: operation 3 */
    begin();
    sem(BUF, 1);
    uint64_t at = m(0, CG_NV_CLASS_HOST, "SEMAPHORED", 3);
    CHECK_EQ(run(), 1);
    want(0, "host-semaphore-op", at, 3,
         "SEMAPHORED: operation 0x3 is not one of ACQUIRE 1, RELEASE 2, ACQ_GEQ 4, ACQ_AND 8, "
         "REDUCTION 16");

    /* host-syncpoint: SYNCPOINT_INDEX (15:8) 192 is one past the last of
     * 192 syncpoints; 191 with INCR (op 1) is fine */
    begin();
    at = m(0, CG_NV_CLASS_HOST, "SYNCPOINTB", 192u << 8 | 1);
    m(0, CG_NV_CLASS_HOST, "SYNCPOINTB", 191u << 8 | 1);
    CHECK_EQ(run(), 1);
    want(0, "host-syncpoint", at, 0xC001, "SYNCPOINTB: syncpoint 192 does not exist (there are 192)");

    /* access-unmapped: a 16-byte release at BUF + 0xFF8 needs 8 bytes past
     * the 4 KiB mapping; a 4-byte one (RELEASE_SIZE bit 24) fits */
    begin();
    sem(BUF + 0xFF8, 1);
    at = m(0, CG_NV_CLASS_HOST, "SEMAPHORED", 2);
    m(0, CG_NV_CLASS_HOST, "SEMAPHORED", 0x01000002);
    CHECK_EQ(run(), 1);
    want(0, "access-unmapped", at, 2,
         "host semaphore release writes [0x0100100ff8, +0x10): 0x0100101000 is not mapped");

    /* access-read-only: a release into the read-only mapping; an acquire
     * (a read) from it is fine */
    begin();
    sem(RO, 1);
    at = m(0, CG_NV_CLASS_HOST, "SEMAPHORED", 0x01000002);
    m(0, CG_NV_CLASS_HOST, "SEMAPHORED", 1);
    CHECK_EQ(run(), 1);
    want(0, "access-read-only", at, 0x01000002,
         "host semaphore release writes [0x0100200000, +0x4): mapping ro at 0x0100200000 is "
         "read-only");
}

static void i2m_setup(uint32_t len, uint32_t count, uint64_t dst, uint32_t pitch)
{
    m(2, CG_NV_CLASS_I2M, "LINE_LENGTH_IN", len);
    m(2, CG_NV_CLASS_I2M, "LINE_COUNT", count);
    m(2, CG_NV_CLASS_I2M, "OFFSET_OUT_UPPER", (uint32_t)(dst >> 32));
    m(2, CG_NV_CLASS_I2M, "OFFSET_OUT", (uint32_t)dst);
    m(2, CG_NV_CLASS_I2M, "PITCH_OUT", pitch);
}

static void test_i2m(void)
{
    /* pitch: 16 lines of 64 bytes, 256 apart: (16 - 1) * 256 + 64 = 0xF40
     * bytes fit in BUF; 272 apart: 15 * 272 + 64 = 0x1030 do not */
    begin();
    bind(2, CG_NV_CLASS_I2M);
    i2m_setup(64, 16, BUF, 256);
    m(2, CG_NV_CLASS_I2M, "LAUNCH_DMA", 0x11); /* PITCH, FLUSH_ONLY */
    CHECK_EQ(run(), 0);
    begin();
    bind(2, CG_NV_CLASS_I2M);
    i2m_setup(64, 16, BUF, 272);
    uint64_t at = m(2, CG_NV_CLASS_I2M, "LAUNCH_DMA", 0x11);
    CHECK_EQ(run(), 1);
    want(0, "access-unmapped", at, 0x11,
         "I2M destination (pitch) writes [0x0100100000, +0x1030): 0x0100101000 is not mapped");

    /* block linear: 64 bytes x 8 lines of a 64 x 8 surface with one-GOB
     * blocks is exactly one GOB, 512 bytes: at BUF + 0xE00 it fits, at
     * BUF + 0xF00 it does not */
    for (int k = 0; k < 2; k++) {
        begin();
        bind(2, CG_NV_CLASS_I2M);
        i2m_setup(64, 8, k ? BUF + 0xF00 : BUF + 0xE00, 0);
        m(2, CG_NV_CLASS_I2M, "SET_DST_WIDTH", 64);
        m(2, CG_NV_CLASS_I2M, "SET_DST_HEIGHT", 8);
        m(2, CG_NV_CLASS_I2M, "SET_DST_DEPTH", 1);
        at = m(2, CG_NV_CLASS_I2M, "LAUNCH_DMA", 0x10); /* BLOCKLINEAR, FLUSH_ONLY */
        CHECK_EQ(run(), (size_t)k);
        if (k)
            want(0, "access-unmapped", at, 0x10,
                 "I2M destination (block linear) writes [0x0100100f00, +0x200): 0x0100101000 is "
                 "not mapped");
    }

    /* i2m-sequence: data with no transfer; a second launch while the first
     * still waits for its 64 * 16 = 1024 bytes */
    begin();
    bind(2, CG_NV_CLASS_I2M);
    uint64_t d = m(2, CG_NV_CLASS_I2M, "LOAD_INLINE_DATA", 5);
    i2m_setup(64, 16, BUF, 64);
    m(2, CG_NV_CLASS_I2M, "LAUNCH_DMA", 0x11);
    uint64_t l2 = m(2, CG_NV_CLASS_I2M, "LAUNCH_DMA", 0x11);
    CHECK_EQ(run(), 2);
    want(0, "i2m-sequence", d, 5, "LOAD_INLINE_DATA without a LAUNCH_DMA waiting for data");
    want(1, "i2m-sequence", l2, 0x11,
         "I2M LAUNCH_DMA while the previous transfer still waits for 1024 of 1024 bytes");
    /* accepted: one 8-byte line, two data words, then a new launch */
    begin();
    bind(2, CG_NV_CLASS_I2M);
    i2m_setup(8, 1, BUF, 8);
    m(2, CG_NV_CLASS_I2M, "LAUNCH_DMA", 0x11);
    uint32_t data[2] = {1, 2};
    cg_nv_pb_noninc(&pb, 2, 0x1B4, data, 2); /* LOAD_INLINE_DATA */
    m(2, CG_NV_CLASS_I2M, "LAUNCH_DMA", 0x11);
    CHECK_EQ(run(), 0);

    /* completion RELEASE_SEMAPHORE (COMPLETION_TYPE 2 in 5:4) of an empty
     * transfer: the four-word structure goes into the read-only mapping */
    begin();
    bind(2, CG_NV_CLASS_I2M);
    i2m_setup(0, 0, BUF, 0);
    m(2, CG_NV_CLASS_I2M, "SET_I2M_SEMAPHORE_A", (uint32_t)(RO >> 32));
    m(2, CG_NV_CLASS_I2M, "SET_I2M_SEMAPHORE_B", (uint32_t)RO);
    at = m(2, CG_NV_CLASS_I2M, "LAUNCH_DMA", 0x21);
    CHECK_EQ(run(), 1);
    want(0, "access-read-only", at, 0x21,
         "I2M semaphore release writes [0x0100200000, +0x10): mapping ro at 0x0100200000 is "
         "read-only");
}

static void test_copy(void)
{
    /* a 1-D copy of 256 bytes (DATA_TRANSFER_TYPE NON_PIPELINED = 2): from
     * RO to BUF is fine, from BUF to RO writes the read-only mapping */
    for (int k = 0; k < 2; k++) {
        uint64_t src = k ? BUF : RO, dst = k ? RO : BUF;
        begin();
        bind(4, CG_NV_CLASS_COPY);
        m(4, CG_NV_CLASS_COPY, "OFFSET_IN_UPPER", (uint32_t)(src >> 32));
        m(4, CG_NV_CLASS_COPY, "OFFSET_IN_LOWER", (uint32_t)src);
        m(4, CG_NV_CLASS_COPY, "OFFSET_OUT_UPPER", (uint32_t)(dst >> 32));
        m(4, CG_NV_CLASS_COPY, "OFFSET_OUT_LOWER", (uint32_t)dst);
        m(4, CG_NV_CLASS_COPY, "LINE_LENGTH_IN", 256);
        uint64_t at = m(4, CG_NV_CLASS_COPY, "LAUNCH_DMA", 2);
        CHECK_EQ(run(), (size_t)k);
        if (k)
            want(0, "access-read-only", at, 2,
                 "copy destination writes [0x0100200000, +0x100): mapping ro at 0x0100200000 is "
                 "read-only");
    }
}

static void twod_dst(uint32_t layout, uint32_t pitch, uint32_t w, uint32_t h, uint64_t va)
{
    m(3, CG_NV_CLASS_TWOD, "SET_DST_FORMAT", 0xD5); /* A8B8G8R8: 4 bytes */
    m(3, CG_NV_CLASS_TWOD, "SET_DST_MEMORY_LAYOUT", layout);
    m(3, CG_NV_CLASS_TWOD, "SET_DST_BLOCK_SIZE", 0);
    m(3, CG_NV_CLASS_TWOD, "SET_DST_DEPTH", 1);
    m(3, CG_NV_CLASS_TWOD, "SET_DST_PITCH", pitch);
    m(3, CG_NV_CLASS_TWOD, "SET_DST_WIDTH", w);
    m(3, CG_NV_CLASS_TWOD, "SET_DST_HEIGHT", h);
    m(3, CG_NV_CLASS_TWOD, "SET_DST_OFFSET_UPPER", (uint32_t)(va >> 32));
    m(3, CG_NV_CLASS_TWOD, "SET_DST_OFFSET_LOWER", (uint32_t)va);
}

static void test_twod(void)
{
    /* pitch destination of solid primitives: 256 * 16 bytes fill BUF,
     * 256 * 17 = 0x1100 do not; two vertices, one violation */
    for (int k = 0; k < 2; k++) {
        begin();
        bind(3, CG_NV_CLASS_TWOD);
        twod_dst(1, 256, 64, k ? 17 : 16, BUF);
        uint64_t at = m(3, CG_NV_CLASS_TWOD, "RENDER_SOLID_PRIM_POINT_X_Y", 0);
        m(3, CG_NV_CLASS_TWOD, "RENDER_SOLID_PRIM_POINT_X_Y", 0x00100010);
        CHECK_EQ(run(), (size_t)k);
        if (k)
            want(0, "access-unmapped", at, 0,
                 "2D destination surface writes [0x0100100000, +0x1100): 0x0100101000 is not "
                 "mapped");
    }
    /* block linear: 64 pixels x 4 bytes = 256 bytes = 4 GOBs across, 8 rows
     * of one-GOB blocks: 4 * 512 = 0x800 bytes; at BUF + 0x900 they cross
     * the mapping's end */
    begin();
    bind(3, CG_NV_CLASS_TWOD);
    twod_dst(0, 0, 64, 8, BUF + 0x900);
    uint64_t at = m(3, CG_NV_CLASS_TWOD, "RENDER_SOLID_PRIM_POINT_X_Y", 0);
    CHECK_EQ(run(), 1);
    want(0, "access-unmapped", at, 0,
         "2D destination surface writes [0x0100100900, +0x800): 0x0100101000 is not mapped");
}

static void cb_select(uint32_t size, uint64_t va)
{
    m(0, CG_NV_CLASS_3D, "SET_CONSTANT_BUFFER_SELECTOR_A", size);
    m(0, CG_NV_CLASS_3D, "SET_CONSTANT_BUFFER_SELECTOR_B", (uint32_t)(va >> 32));
    m(0, CG_NV_CLASS_3D, "SET_CONSTANT_BUFFER_SELECTOR_C", (uint32_t)va);
}

static void test_3d(void)
{
    /* cb-data-range: an 8-byte buffer from offset 4 takes one word */
    begin();
    bind(0, CG_NV_CLASS_3D);
    cb_select(8, BUF);
    m(0, CG_NV_CLASS_3D, "LOAD_CONSTANT_BUFFER_OFFSET", 4);
    m(0, CG_NV_CLASS_3D, "LOAD_CONSTANT_BUFFER(0)", 0x11);
    uint64_t at = m(0, CG_NV_CLASS_3D, "LOAD_CONSTANT_BUFFER(0)", 0x22);
    CHECK_EQ(run(), 1);
    want(0, "cb-data-range", at, 0x22,
         "LOAD_CONSTANT_BUFFER at offset 0x8 is past the buffer's size 0x8");
    /* a constant buffer in the read-only mapping */
    begin();
    bind(0, CG_NV_CLASS_3D);
    cb_select(0x100, RO);
    m(0, CG_NV_CLASS_3D, "LOAD_CONSTANT_BUFFER_OFFSET", 0x20);
    at = m(0, CG_NV_CLASS_3D, "LOAD_CONSTANT_BUFFER(0)", 0x33);
    CHECK_EQ(run(), 1);
    want(0, "access-read-only", at, 0x33,
         "constant buffer upload writes [0x0100200020, +0x4): mapping ro at 0x0100200000 is "
         "read-only");

    /* report semaphore: four words at BUF + 0xFF8 cross the end, one word
     * (STRUCTURE_SIZE bit 28) does not */
    begin();
    bind(0, CG_NV_CLASS_3D);
    m(0, CG_NV_CLASS_3D, "SET_REPORT_SEMAPHORE_A", (uint32_t)((BUF + 0xFF8) >> 32));
    m(0, CG_NV_CLASS_3D, "SET_REPORT_SEMAPHORE_B", (uint32_t)(BUF + 0xFF8));
    at = m(0, CG_NV_CLASS_3D, "SET_REPORT_SEMAPHORE_D", 0);
    m(0, CG_NV_CLASS_3D, "SET_REPORT_SEMAPHORE_D", 0x10000000);
    CHECK_EQ(run(), 1);
    want(0, "access-unmapped", at, 0,
         "report semaphore writes [0x0100100ff8, +0x10): 0x0100101000 is not mapped");

    /* clear of a pitch colour target: WIDTH is the pitch, 256 bytes; 16
     * rows fill BUF, 17 do not */
    for (int k = 0; k < 2; k++) {
        begin();
        bind(0, CG_NV_CLASS_3D);
        m(0, CG_NV_CLASS_3D, "SET_COLOR_TARGET_A(0)", (uint32_t)(BUF >> 32));
        m(0, CG_NV_CLASS_3D, "SET_COLOR_TARGET_B(0)", (uint32_t)BUF);
        m(0, CG_NV_CLASS_3D, "SET_COLOR_TARGET_WIDTH(0)", 256);
        m(0, CG_NV_CLASS_3D, "SET_COLOR_TARGET_HEIGHT(0)", k ? 17 : 16);
        m(0, CG_NV_CLASS_3D, "SET_COLOR_TARGET_FORMAT(0)", 0xD5);
        m(0, CG_NV_CLASS_3D, "SET_COLOR_TARGET_MEMORY(0)", 1u << 12); /* PITCH */
        at = m(0, CG_NV_CLASS_3D, "CLEAR_SURFACE", 0x3C);
        CHECK_EQ(run(), (size_t)k);
        if (k)
            want(0, "access-unmapped", at, 0x3C,
                 "clear of color target 0 writes [0x0100100000, +0x1100): 0x0100101000 is not "
                 "mapped");
    }
}

/* A draw of 3 vertices from stream 0 = [BUF, limit]; index buffer at ib
 * (limit ib_limit); texture header pool at BUF with max_tic; constant buffer
 * of cb_size bytes at BUF + 0xF00 bound to slot 1 of stage 4. */
static uint64_t draw_stream(uint64_t limit, uint64_t ib, uint64_t ib_limit, uint32_t max_tic,
                            uint32_t cb_size)
{
    begin();
    bind(0, CG_NV_CLASS_3D);
    m(0, CG_NV_CLASS_3D, "SET_VERTEX_ATTRIBUTE_A(0)", 0x38400000); /* stream 0, R32_G32_B32 */
    m(0, CG_NV_CLASS_3D, "SET_VERTEX_STREAM_A_FORMAT(0)", 0x100C); /* enabled, stride 12 */
    m(0, CG_NV_CLASS_3D, "SET_VERTEX_STREAM_A_LOCATION_A(0)", (uint32_t)(BUF >> 32));
    m(0, CG_NV_CLASS_3D, "SET_VERTEX_STREAM_A_LOCATION_B(0)", (uint32_t)BUF);
    m(0, CG_NV_CLASS_3D, "SET_VERTEX_STREAM_LIMIT_A_A(0)", (uint32_t)(limit >> 32));
    m(0, CG_NV_CLASS_3D, "SET_VERTEX_STREAM_LIMIT_A_B(0)", (uint32_t)limit);
    m(0, CG_NV_CLASS_3D, "SET_INDEX_BUFFER_A", (uint32_t)(ib >> 32));
    m(0, CG_NV_CLASS_3D, "SET_INDEX_BUFFER_B", (uint32_t)ib);
    m(0, CG_NV_CLASS_3D, "SET_INDEX_BUFFER_C", (uint32_t)(ib_limit >> 32));
    m(0, CG_NV_CLASS_3D, "SET_INDEX_BUFFER_D", (uint32_t)ib_limit);
    m(0, CG_NV_CLASS_3D, "SET_TEX_HEADER_POOL_A", (uint32_t)(BUF >> 32));
    m(0, CG_NV_CLASS_3D, "SET_TEX_HEADER_POOL_B", (uint32_t)BUF);
    m(0, CG_NV_CLASS_3D, "SET_TEX_HEADER_POOL_C", max_tic);
    cb_select(cb_size, BUF + 0xF00);
    m(0, CG_NV_CLASS_3D, "BIND_GROUP_CONSTANT_BUFFER(4)", 1u << 4 | 1);
    /* TRIANGLES (4) in 31:28, count 3 in 27:16, first 0; 16-bit indices */
    return m(0, CG_NV_CLASS_3D, "DRAW_INDEX_BUFFER16_BEGIN_END_INSTANCE_FIRST",
             4u << 28 | 3u << 16);
}

static void test_draw(void)
{
    /* everything inside: stream [BUF, BUF + 0xFFF], 3 16-bit indices at
     * RO + 0xFF8 (6 bytes), 128 TIC entries of 32 bytes = 0x1000, a 0x100-
     * byte constant buffer at BUF + 0xF00 */
    draw_stream(BUF + 0xFFF, RO + 0xFF8, RO + 0xFFF, 127, 0x100);
    CHECK_EQ(run(), 0);
    /* indices clipped at the index buffer's limit: 3 indices at RO + 0xFFC
     * would need 2 bytes past the mapping, but the limit RO + 0xFFF keeps
     * the fetch inside */
    draw_stream(BUF + 0xFFF, RO + 0xFFC, RO + 0xFFF, 127, 0x100);
    CHECK_EQ(run(), 0);
    /* every range one byte (or entry) too long, in the order they are checked */
    uint32_t v = 4u << 28 | 3u << 16;
    uint64_t at = draw_stream(BUF + 0x1000, RO + 0xFFC, RO + 0x1100, 128, 0x200);
    CHECK_EQ(run(), 4);
    want(0, "access-unmapped", at, v,
         "draw: vertex stream 0 reads [0x0100100000, +0x1001): 0x0100101000 is not mapped");
    want(1, "access-unmapped", at, v,
         "draw: index buffer reads [0x0100200ffc, +0x6): 0x0100201000 is not mapped");
    want(2, "access-unmapped", at, v,
         "draw: texture header pool reads [0x0100100000, +0x1020): 0x0100101000 is not mapped");
    want(3, "access-unmapped", at, v,
         "draw: constant buffer 1 of stage 4 reads [0x0100100f00, +0x200): 0x0100101000 is not "
         "mapped");
}

/* Macro 0: SELECTOR_A..C = its three parameters (src/nv/tables/macro.def
 * encodings, as examples/nv/textured_square.s writes them). */
static void upload_macro(void)
{
    static const uint32_t code[] = {
        0x06380021, /* addi.movm r0, r0, 0x18e0: method 0x8E0 SELECTOR_A, increment 1 */
        0x00000840, /* add.movsend r0, r1, r0: send the first parameter */
        0x00000201, /* parm r2 */
        0x00001040, /* add.movsend r0, r2, r0 */
        0x00000301, /* parm r3 */
        0x000018c0, /* add.movsend.exit r0, r3, r0 */
        0x00000011, /* nop (the exit's delay slot) */
    };
    m(0, CG_NV_CLASS_3D, "LOAD_MME_INSTRUCTION_RAM_POINTER", 0);
    cg_nv_pb_noninc(&pb, 0, 0x118, code, 7); /* LOAD_MME_INSTRUCTION_RAM */
    m(0, CG_NV_CLASS_3D, "LOAD_MME_START_ADDRESS_RAM_POINTER", 0);
    m(0, CG_NV_CLASS_3D, "LOAD_MME_START_ADDRESS_RAM", 0);
}

static void test_macro(void)
{
    /* the macro selects a 0x100-byte constant buffer: at BUF the upload is
     * fine, at RO it writes the read-only mapping; so the sends of the
     * expanded macro reached the register file */
    for (int k = 0; k < 2; k++) {
        uint64_t cb = k ? RO : BUF;
        begin();
        bind(0, CG_NV_CLASS_3D);
        upload_macro();
        uint32_t params[3] = {0x100, (uint32_t)(cb >> 32), (uint32_t)cb};
        cg_nv_pb_one_inc(&pb, 0, 0x3800, params, 3); /* CALL_MME_MACRO(0), CALL_MME_DATA(0) */
        m(0, CG_NV_CLASS_3D, "LOAD_CONSTANT_BUFFER_OFFSET", 0);
        uint64_t at = m(0, CG_NV_CLASS_3D, "LOAD_CONSTANT_BUFFER(0)", 0x44);
        CHECK_EQ(run(), (size_t)k);
        if (k)
            want(0, "access-read-only", at, 0x44,
                 "constant buffer upload writes [0x0100200000, +0x4): mapping ro at "
                 "0x0100200000 is read-only");
    }
    /* macro-fault: parameters with no call */
    begin();
    bind(0, CG_NV_CLASS_3D);
    uint64_t at = m(0, CG_NV_CLASS_3D, "CALL_MME_DATA(3)", 5);
    CHECK_EQ(run(), 1);
    want(0, "macro-fault", at, 5, "CALL_MME_DATA(3) without a call of macro 3 in progress");
    /* the macro engine's own fault: the macro reads a fourth parameter it
     * was not given (BAD_LENGTH, src/nv/gpu/macro.h); the report keeps the
     * CALL_MME_MACRO word's address and the instruction */
    begin();
    bind(0, CG_NV_CLASS_3D);
    upload_macro();
    uint32_t two[2] = {0x100, 1};
    uint64_t call = here() + 4;
    cg_nv_pb_one_inc(&pb, 0, 0x3800, two, 2);
    CHECK_EQ(run(), 1);
    want(0, "macro-fault", call, 0x00000301, NULL);
    CHECK(rep.n == 1 && strncmp(rep.v[0].message, "macro 0: bad-length: ", 21) == 0);
}

static void test_limit(void)
{
    /* check-limit: the walk stops after 2^24 words. Entries of L = 2^21 - 1
     * zero words (old-format INC of no data: a no-op) over BIG: 8 entries
     * are 2^24 - 8 words; in the ninth, word 8 (BIG + 0x20) is word 2^24,
     * the first one past the limit. */
    cg_nv_check_entry e[9];
    for (int i = 0; i < 9; i++)
        e[i] = (cg_nv_check_entry){1, cg_nv_gp_entry(BIG, (1u << 21) - 1, 0)};
    cg_nv_check_input in = {maps, 4, NULL, 0, e, 8, 0};
    cg_check_report_free(&rep);
    cg_check_report_init(&rep);
    CHECK_EQ(cg_nv_check(&in, &rep), 0);
    CHECK_EQ(rep.n, 0);
    CHECK_EQ(rep.checked, (1u << 24) - 8);
    in.nentries = 9;
    cg_check_report_free(&rep);
    cg_check_report_init(&rep);
    CHECK_EQ(cg_nv_check(&in, &rep), 0);
    CHECK_EQ(rep.n, 1);
    want(0, "check-limit", BIG + 0x20, 0,
         "stopped after 16777216 pushbuffer words: the rest is not checked");
    /* a smaller limit: words 0..2 are walked, word 3 (BIG + 12) is not */
    in.max_words = 3;
    in.nentries = 1;
    cg_check_report_free(&rep);
    cg_check_report_init(&rep);
    CHECK_EQ(cg_nv_check(&in, &rep), 0);
    CHECK_EQ(rep.checked, 3);
    CHECK_EQ(rep.n, 1);
    want(0, "check-limit", BIG + 12, 0, "stopped after 3 pushbuffer words: the rest is not checked");
}

/* check-limit for macros: every call may run 2^20 instructions and all
 * calls together 2^26. A macro that branches to itself (0x00000027:
 * bra.z.a r0, itself) runs its 2^20 in each of the first 64 calls (each a
 * macro-fault: the macro's own budget ran out); the 65th finds none left. */
static void test_macro_limit(void)
{
    begin();
    bind(0, CG_NV_CLASS_3D);
    static const uint32_t loop = 0x00000027;
    m(0, CG_NV_CLASS_3D, "LOAD_MME_INSTRUCTION_RAM_POINTER", 0);
    cg_nv_pb_noninc(&pb, 0, 0x118, &loop, 1);
    m(0, CG_NV_CLASS_3D, "LOAD_MME_START_ADDRESS_RAM_POINTER", 0);
    m(0, CG_NV_CLASS_3D, "LOAD_MME_START_ADDRESS_RAM", 0);
    uint64_t call[66];
    for (int i = 0; i < 66; i++)
        call[i] = m(0, CG_NV_CLASS_3D, "CALL_MME_MACRO(0)", (uint32_t)i);
    CHECK_EQ(run(), 65);
    for (int i = 0; i < 64 && (size_t)i < rep.n; i++) {
        CHECK_STR(rep.v[i].rule, "macro-fault");
        CHECK_EQ(rep.v[i].where, call[i]);
    }
    if (rep.n == 65)
        want(64, "check-limit", call[64], 0,
             "stopped after 67108864 macro instructions: the rest is not checked");
}

static void test_many(void)
{
    /* one stream, four rules, reported in stream order */
    begin();
    uint64_t a = m(5, CG_NV_CLASS_TWOD, "SET_DST_FORMAT", 0xD5);
    uint64_t b = here();
    words[pb.len++] = 0xC0000000u;
    uint64_t c = m(1, CG_NV_CLASS_HOST, "SET_OBJECT", 0x1234);
    sem(RO, 1);
    uint64_t d = m(0, CG_NV_CLASS_HOST, "SEMAPHORED", 0x01000002);
    CHECK_EQ(run(), 4);
    want(0, "subch-unbound", a, 0xD5, NULL);
    want(1, "pb-opcode", b, 0xC0000000u, NULL);
    want(2, "class-allowed", c, 0x1234, NULL);
    want(3, "access-read-only", d, 0x01000002, NULL);
}

static size_t scene(const char *text)
{
    cg_check_report_free(&rep);
    cg_check_report_init(&rep);
    CHECK_EQ(cg_nv_check_scene("t.s", text, strlen(text), &rep, NULL), 0);
    return rep.n;
}

static void test_scene(void)
{
    /* channels: a method run left open on channel 0 is not continued by
     * channel 1's entry, which decodes 0xB0B5 as a header of its own:
     * secondary opcode 0, tertiary 0 = old-format INC of (w >> 18) & 0x7FF
     * = 0 words. Channel 0's SET_OBJECT run (header 1 << 29 | 2 << 16)
     * still waits for its second word. */
    CHECK_EQ(scene(".buffer pb, 0x100000000, 0x1000\n"
                   ".section pb, pb\n"
                   "a: hdr inc 0, SET_OBJECT, 2\n .word 0xB197\n"
                   "b: .word 0xB0B5\n"
                   "c:\n"
                   ".submit a, b\n.channel 1\n.submit b, c\n"),
             1);
    want(0, "pb-truncated", 0x100000000, 0x20020000,
         "channel 0: the method run of this header still waits for 1 data word(s) after the "
         "last entry");
    CHECK_EQ(rep.checked, 3);

    /* gp-length: 2^21 words do not fit an entry's LENGTH (21 bits) */
    CHECK_EQ(scene(".buffer pb, 0x100000000, 0x800000\n.submit 0x100000000, 0x100800000\n"), 1);
    want(0, "gp-length", 0x100000000, 0,
         ".submit of 2097152 words: a GPFIFO entry holds at most 2^21-1");
    /* scene-buffer: a VA that is not page aligned maps nothing */
    CHECK_EQ(scene(".buffer pb, 0x100000800, 0x1000\n"), 1);
    want(0, "scene-buffer", 0x100000800, 0,
         ".buffer pb: size 0 or >= 4 GiB, or VA not page aligned: not mapped");
    CHECK_EQ(scene(".buffer pb, 0x100000000, 0x10\n.section pb, pb\ns: mthd 0, NOP, 0\ne:\n"
                   ".submit s, e\n"),
             0);
    /* syntax errors are input errors, not violations */
    cg_check_report_free(&rep);
    cg_check_report_init(&rep);
    CHECK_EQ(cg_nv_check_scene("t.s", ".buffer\n", 8, &rep, NULL), CG_ERR_SYNTAX);
}

static void test_examples(void)
{
    /* every example that is a valid stream passes; faults.s sends a method
     * to an unbound subchannel on purpose */
    static const char *const ok[] = {"blit.s", "fence.s", "rects.s", "textured_square.s",
                                     "upload_copy.s"};
    char path[512];
    for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
        snprintf(path, sizeof(path), "%s/examples/nv/%s", CMDGPU_SOURCE_DIR, ok[i]);
        cg_check_report_free(&rep);
        cg_check_report_init(&rep);
        CHECK_EQ(cg_nv_check_scene(path, NULL, 0, &rep, stderr), 0);
        CHECK_EQ(rep.n, 0);
        if (rep.n)
            fprintf(stderr, "%s: %s: %s\n", ok[i], rep.v[0].rule, rep.v[0].message);
        CHECK(rep.checked > 0);
    }
    snprintf(path, sizeof(path), "%s/examples/nv/faults.s", CMDGPU_SOURCE_DIR);
    cg_check_report_free(&rep);
    cg_check_report_init(&rep);
    CHECK_EQ(cg_nv_check_scene(path, NULL, 0, &rep, stderr), 0);
    CHECK_EQ(rep.n, 1);
    want(0, "subch-unbound", 0x100000000, 1,
         "method 0x0200 on subchannel 5, which has no object bound");
}

int main(void)
{
    cg_check_report_init(&rep);
    test_gpfifo();
    test_pushbuffer();
    test_binding();
    test_host();
    test_i2m();
    test_copy();
    test_twod();
    test_3d();
    test_draw();
    test_macro();
    test_limit();
    test_macro_limit();
    test_many();
    test_scene();
    test_examples();
    cg_check_report_free(&rep);
    CHECK_EQ(cg_nv_check(NULL, &rep), CG_ERR_INVAL);
    return check_report("test_nv_check");
}
