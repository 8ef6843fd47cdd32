/* The radeon stream validator (radeon_check.h): every rule with a rejecting
 * and an accepting stream, the exact report (rule, byte offset, word), a
 * stream breaking many rules reported in stream order, and the examples.
 * Offsets are worked out by hand from packet sizes (type 3: count + 2
 * dwords) and written next to each packet; header words are built from the
 * PM4 opcodes of linux r600d.h (research/radeon.md section 1). */
#include <stdlib.h>
#include "check.h"
#include "cmdgpu/cmdgpu.h"
#include "cmdgpu/radeon_check.h"

#define P3(op, n) CG_RADEON_PACKET3(op, n)
enum {
    NOP = 0x10, SET_PREDICATION = 0x20, START_3D_CMDBUF = 0x24, CONTEXT_CONTROL = 0x28,
    DRAW_INDEX_IMMD = 0x2E, INDIRECT_BUFFER = 0x32, STRMOUT_BUFFER_UPDATE = 0x34,
    COPY_DW = 0x3B, WAIT_REG_MEM = 0x3C, MEM_WRITE = 0x3D, CP_DMA = 0x41, SURFACE_SYNC = 0x43,
    ME_INITIALIZE = 0x44, EVENT_WRITE = 0x46, EVENT_WRITE_EOP = 0x47, SET_CONFIG_REG = 0x68,
    SET_CONTEXT_REG = 0x69, SET_BOOL_CONST = 0x6B, SET_RESOURCE = 0x6D, SET_SAMPLER = 0x6E,
    SURFACE_BASE_UPDATE = 0x73,
};

/* Two buffers: relocation index 0 (256 bytes of VRAM at GPU 0x100000) and
 * index 4 (64 bytes of GTT, no GPU address). */
#define BOS ".bo buf, 256, vram, 0x100000\n.bo wb, 64, gtt\n"

typedef struct want {
    const char *rule;
    uint64_t where;
    uint32_t word;
} want;

static cg_check_report check_src(cg_radeon_gen gen, const char *src, int *err)
{
    cg_check_report r;
    cg_check_report_init(&r);
    cg_radeon_check_src *s;
    cg_asm *as;
    *err = -100;
    if (cg_radeon_check_src_create(gen, &s) != 0)
        return r;
    if (cg_asm_create(cg_radeon_check_asm_family(), s, &as) == 0) {
        cg_asm_add_source(as, "t.s", src, strlen(src));
        if (cg_asm_assemble(as) != 0)
            fprintf(stderr, "assembly failed:\n%s", cg_asm_errors(as));
        else
            *err = cg_radeon_check_src_run(s, as, NULL, &r);
        cg_asm_destroy(as);
    }
    cg_radeon_check_src_destroy(s);
    return r;
}

/* The report must be exactly `w` (rule, where, word), in order. */
static void expect_gen(const char *what, cg_radeon_gen gen, const char *src, const want *w,
                       size_t n, size_t checked)
{
    int err;
    cg_check_report r = check_src(gen, src, &err);
    CHECK_EQ(err, 0);
    CHECK_EQ(r.n, n);
    CHECK_EQ(r.checked, checked);
    for (size_t i = 0; i < n && i < r.n; i++) {
        CHECK_STR(r.v[i].rule, w[i].rule);
        CHECK_EQ(r.v[i].where, w[i].where);
        CHECK_EQ(r.v[i].word, w[i].word);
    }
    if (r.n != n || check_failures) {
        fprintf(stderr, "-- %s:\n", what);
        cg_check_print(stderr, &r, "radeon", false);
    }
    cg_check_report_free(&r);
}
#define EXPECT(what, src, checked, ...)                                                  \
    do {                                                                                 \
        const want w_[] = {__VA_ARGS__};                                                 \
        expect_gen(what, CG_RADEON_R600, src, w_, sizeof(w_) / sizeof(w_[0]), checked); \
    } while (0)
#define EXPECT_CLEAN(what, gen, src, checked) expect_gen(what, gen, src, NULL, 0, checked)

/* The message of the only violation of a stream. */
static void expect_msg(const char *src, const char *msg)
{
    int err;
    cg_check_report r = check_src(CG_RADEON_R600, src, &err);
    CHECK_EQ(r.n, 1);
    if (r.n)
        CHECK_STR(r.v[0].message, msg);
    cg_check_report_free(&r);
}

static void accepting(void)
{
    /* Every allowed packet in a valid form: nothing to report. Packets:
     * 28 (each relocation NOP and the type-2 filler count as packets). */
    EXPECT_CLEAN("clean r600", CG_RADEON_R600,
                 BOS
                 "SET_CONFIG_REG WAIT_UNTIL, 1 << 15\n"          /* safe */
                 "SET_CONTEXT_REG CB_TARGET_MASK, 0xF\n"         /* tracked */
                 "SET_CONTEXT_REG CB_COLOR0_BASE, 0\n NOP buf\n" /* needs a relocation */
                 "SET_CONTEXT_REG CB_COLOR0_INFO, 0\n"           /* relocation optional */
                 "CONTEXT_CONTROL 0x80000000, 0x80000000\n"
                 "MEM_WRITE 248, 1 << 18, 5, 0\n NOP buf\n"      /* last 8 bytes of buf */
                 "EVENT_WRITE_EOP 0x514, 60, 1 << 29, 7, 0\n NOP wb\n" /* 32-bit: last dword */
                 "CP_DMA 0, 0, 0, 0, 64\n NOP wb\n NOP buf\n"    /* all of wb into buf */
                 "WAIT_REG_MEM 0x13, 16, 0, 1, 0xff, 10\n NOP wb\n"
                 "WAIT_REG_MEM 0x03, WAIT_UNTIL >> 2, 0, 0, 0xff, 10\n" /* register, ME */
                 "SURFACE_SYNC 0x01800000, 0xFFFFFFFF, 0, 10\n"  /* flush all: no relocation */
                 "EVENT_WRITE 0x16\n"
                 "EVENT_WRITE 0x1, 56, 0\n NOP wb\n"
                 "SET_PREDICATION 0, 0\n"                        /* clear: no relocation */
                 "COPY_DW 0x2, VGT_PRIMITIVE_TYPE >> 2, 0, 32, 0\n NOP wb\n"
                 "DRAW_INDEX_IMMD 1, 2, 3\n"
                 "packet2\n"
                 "SET_SAMPLER 0x3C000, 1, 2, 3\n"
                 "SET_BOOL_CONST 0x3FFFC, 1\n"                   /* last register of the window */
                 "START_3D_CMDBUF 0\n",
                 28);
    /* R700 runs the same checker; START_3D_CMDBUF is R600-only. */
    EXPECT_CLEAN("clean r700", CG_RADEON_R700,
                 BOS "SET_CONFIG_REG WAIT_UNTIL, 0\nMEM_WRITE 0, 0, 1, 2\nNOP buf\n", 3);
    /* A NOP whose payload looks like a packet is just a NOP; a relocation
     * index inside the last relocation (not a multiple of 4) selects it, as
     * idx / 4 does in radeon_cs_packet_next_reloc. */
    EXPECT_CLEAN("nop payload", CG_RADEON_R600,
                 BOS "NOP 0xC0023200, 0, 0, 4\nMEM_WRITE 0, 0, 1, 2\nNOP 7\n", 3);
    /* SET_PREDICATION with a real operation and its relocation. */
    EXPECT_CLEAN("predication", CG_RADEON_R600, BOS "SET_PREDICATION 16, 1 << 16\nNOP buf\n", 2);
    /* WAIT_REG_MEM on memory may use the PFP. */
    EXPECT_CLEAN("pfp mem wait", CG_RADEON_R600,
                 BOS "WAIT_REG_MEM 0x115, 0, 0, 1, 0xff, 10\nNOP wb\n", 2);
    /* A SET_RESOURCE of no resource has nothing left unchecked. */
    EXPECT_CLEAN("empty resource", CG_RADEON_R600, "packet3 0x6D, 0\n", 1);
    /* A GTT+VRAM relocation is fine; only the CPU domain is refused. */
    EXPECT_CLEAN("domains", CG_RADEON_R600, ".bo x, 16, 6\nNOP 0\n", 1);
}

static void rejecting(void)
{
    /* ib-size: 6 bytes (the tail is at byte 4), and an empty IB. */
    EXPECT("ib-size", ".word 0x80000000\n.byte 1, 2\n", 1, {"ib-size", 4, 0});
    EXPECT("ib-size empty", ".section ib\n", 0, {"ib-size", 0, 0});

    /* packet-bounds: a NOP of count 3 (5 dwords) in a 2-dword IB. */
    EXPECT("packet-bounds", ".word 0xC0031000, 0\n", 0, {"packet-bounds", 0, P3(NOP, 3)});
    /* packet-type: type 1 stops the parse; the packet before it is checked. */
    EXPECT("packet-type", "packet2\n.word 0x40000000\nSET_CONFIG_REG SCRATCH_REG0, 1\n", 1,
           {"packet-type", 4, 0x40000000});
    /* packet0-forbidden: PACKET0(SCRATCH_REG0) = index 0x2140, count 0. */
    EXPECT("packet0", "packet0 SCRATCH_REG0, 1\n", 1, {"packet0-forbidden", 0, 0x2140});
    expect_msg("packet0 SCRATCH_REG0, 1\n",
               "PACKET0 to SCRATCH_REG0 (0x8500): type-0 register writes are forbidden in a "
               "user IB");

    /* packet3-allowed: ME_INITIALIZE (7 dwords), unknown 0x18 on R600 (at
     * 0x1c), SURFACE_BASE_UPDATE (at 0x24). */
    EXPECT("packet3-allowed",
           "ME_INITIALIZE 1, 0, 7, 1 << 16, 0, 0\npacket3 0x18, 1\nSURFACE_BASE_UPDATE 0\n", 3,
           {"packet3-allowed", 0, P3(ME_INITIALIZE, 5)}, {"packet3-allowed", 0x1c, P3(0x18, 0)},
           {"packet3-allowed", 0x24, P3(SURFACE_BASE_UPDATE, 0)});
    expect_msg("packet3 0x18, 1\n", "unknown opcode 0x18 for r600");
    {
        const want w[] = {{"packet3-allowed", 0, P3(START_3D_CMDBUF, 0)}};
        expect_gen("start_3d r700", CG_RADEON_R700, "START_3D_CMDBUF 0\n", w, 1, 1);
    }

    /* indirect-buffer */
    EXPECT("indirect-buffer", BOS "INDIRECT_BUFFER 0, 0, 4\nNOP buf\n", 2,
           {"indirect-buffer", 0, P3(INDIRECT_BUFFER, 2)});

    /* packet3-count: EVENT_WRITE count 1 (3 dwords), DRAW_INDEX_IMMD count
     * 1 (at 0xc), MEM_WRITE count 2 (at 0x18); none of them goes further. */
    EXPECT("packet3-count", "EVENT_WRITE 0x16, 0\nDRAW_INDEX_IMMD 1, 2\nMEM_WRITE 0, 0, 0\n", 3,
           {"packet3-count", 0, P3(EVENT_WRITE, 1)},
           {"packet3-count", 0xc, P3(DRAW_INDEX_IMMD, 1)},
           {"packet3-count", 0x18, P3(MEM_WRITE, 2)});
    expect_msg("MEM_WRITE 0, 0, 0\n", "MEM_WRITE: count 2, the checker takes exactly 3");

    /* set-window: SET_BOOL_CONST of two registers from 0x3FFFC (offset
     * (0x3FFFC - 0x3E380) / 4 = 0x71F) ends past 0x40000; SET_CONFIG_REG
     * with an offset far out (word = the offset dword). */
    EXPECT("set-window", "packet3 0x6B, 0x71F, 1, 2\npacket3 0x68, 0x40000000, 1\n", 2,
           {"set-window", 4, 0x71F}, {"set-window", 0x14, 0x40000000});
    expect_msg("packet3 0x6B, 0x71F, 1, 2\n",
               "SET_BOOL_CONST registers 0x3fffc..0x40000 are outside its window "
               "[0x3e380, 0x40000)");

    /* set-multiple: SET_SAMPLER of 2 dwords. */
    EXPECT("set-multiple", "SET_SAMPLER 0x3C000, 1, 2\n", 1,
           {"set-multiple", 0, P3(SET_SAMPLER, 2)});

    /* reg-safe: SCRATCH_REG0 (forbidden), 0x8004 (unknown to the model),
     * CB_TARGET_MASK as a COPY_DW source (tracked, not plain safe): the
     * values are at 0x8, 0x14 and 0x20 (COPY_DW at 0x18: select, source). */
    EXPECT("reg-safe",
           "SET_CONFIG_REG SCRATCH_REG0, 1\nSET_CONFIG_REG 0x8004, 1\n"
           "COPY_DW 0, CB_TARGET_MASK >> 2, 0, WAIT_UNTIL >> 2, 0\n", 3,
           {"reg-safe", 8, 0x8500}, {"reg-safe", 0x14, 0x8004}, {"reg-safe", 0x20, 0x28238});
    expect_msg("SET_CONFIG_REG 0x8004, 1\n",
               "register 0x08004 is not in the model's register table: checking it is not "
               "supported yet");

    /* reloc-missing: CB_COLOR0_BASE followed by another packet (at 0xc);
     * MEM_WRITE (5 dwords from 0x18) at the IB end (the NOP would be at 0x2c). */
    EXPECT("reloc-missing",
           BOS "SET_CONTEXT_REG CB_COLOR0_BASE, 0\nSET_CONFIG_REG WAIT_UNTIL, 0\n"
               "MEM_WRITE 0, 0, 1, 2\n", 3,
           {"reloc-missing", 0xc, P3(SET_CONFIG_REG, 1)}, {"reloc-missing", 0x2c, 0});
    expect_msg(BOS "MEM_WRITE 0, 0, 1, 2\n",
               "MEM_WRITE of the packet at 0x0 needs a relocation: a PACKET3 NOP must follow, "
               "found the end of the IB");

    /* reloc-index: 8 is past 2 relocations (8 dwords); no .bo at all. */
    EXPECT("reloc-index", BOS "MEM_WRITE 0, 0, 1, 2\nNOP 8\n", 2, {"reloc-index", 0x18, 8});
    expect_msg("MEM_WRITE 0, 0, 1, 2\nNOP 0\n",
               "relocation 0 for MEM_WRITE: there is no relocation chunk (no .bo declared)");

    /* reloc-domain: the third relocation (entry at byte 32) is CPU. */
    EXPECT("reloc-domain", BOS ".bo sys, 16, cpu\npacket2\n", 1,
           {"reloc-domain", 32, CG_RADEON_DOMAIN_CPU});

    /* bo-bounds: MEM_WRITE at offset 256 of buf (256 bytes); CP_DMA of 128
     * bytes from wb (64) into buf (word: the address dwords). */
    EXPECT("bo-bounds",
           BOS "MEM_WRITE 256, 0, 1, 2\nNOP buf\nCP_DMA 0, 0, 16, 0, 128\nNOP wb\nNOP buf\n", 5,
           {"bo-bounds", 4, 256}, {"bo-bounds", 0x20, 0});
    expect_msg(BOS "MEM_WRITE 256, 0, 1, 2\nNOP buf\n",
               "MEM_WRITE: offset 0x100 (GPU 0x100100) + 8 bytes is past the end of buf (256 "
               "bytes)");

    /* addr-align: MEM_WRITE at 4 (rejected by the kernel), EOP at 2 (the
     * kernel would mask it: reported, stricter). */
    EXPECT("addr-align",
           BOS "MEM_WRITE 4, 0, 1, 2\nNOP buf\nEVENT_WRITE_EOP 0x514, 2, 1 << 29, 7, 0\nNOP wb\n",
           4, {"addr-align", 4, 4}, {"addr-align", 0x24, 2});

    /* cp-dma-space: SAS (bit 26) and DAIC (bit 29); neither side takes a
     * relocation then. */
    EXPECT("cp-dma-space", BOS "CP_DMA 0, 0, 0, 0, (1 << 26) | (1 << 29) | 4\n", 1,
           {"cp-dma-space", 0x14, 0x24000004}, {"cp-dma-space", 0x14, 0x24000004});

    /* wait-reg-pfp: a register wait from the PFP (ENGINE bit 8). */
    EXPECT("wait-reg-pfp", "WAIT_REG_MEM 0x103, WAIT_UNTIL >> 2, 0, 0, 0xff, 10\n", 1,
           {"wait-reg-pfp", 4, 0x103});

    /* set-predication-op: operation 3. */
    EXPECT("set-predication-op", "SET_PREDICATION 0, 3 << 16\n", 1,
           {"set-predication-op", 8, 0x30000});

    /* unsupported: SET_RESOURCE, STRMOUT_BUFFER_UPDATE, the vline PACKET0. */
    EXPECT("unsupported",
           "SET_RESOURCE 0x38000, 0, 0, 0, 0, 0, 0, 0\nSTRMOUT_BUFFER_UPDATE 0, 0, 0, 0, 0\n"
           "packet0 0x6538, 0\n", 3,
           {"unsupported", 0, P3(SET_RESOURCE, 7)},
           {"unsupported", 0x24, P3(STRMOUT_BUFFER_UPDATE, 4)},
           {"unsupported", 0x3c, 0x194E});

    /* STRMOUT_BASE_UPDATE: refused on R600 ("only supported on 7xx"), not
     * supported yet on R700. */
    EXPECT("strmout base r600", "STRMOUT_BASE_UPDATE 0, 0\n", 1,
           {"packet3-allowed", 0, P3(0x72, 1)});
    {
        const want w[] = {{"unsupported", 0, P3(0x72, 1)}};
        expect_gen("strmout base r700", CG_RADEON_R700, "STRMOUT_BASE_UPDATE 0, 0\n", w, 1, 1);
    }

    /* DB_DEPTH_INFO (R600/R700: 0x28010, r600_cs_check_reg case
     * R_028010_DB_DEPTH_INFO) takes a relocation when a NOP follows (for the
     * tiling flags) and is only tracked without one: clean both ways (2 and
     * 1 packets); a NOP with a bad index is checked (index dword at 0x10). */
    EXPECT_CLEAN("db_depth_info reloc", CG_RADEON_R600,
                 BOS "SET_CONTEXT_REG DB_DEPTH_INFO, 0\nNOP buf\n", 2);
    EXPECT_CLEAN("db_depth_info tracked", CG_RADEON_R600,
                 BOS "SET_CONTEXT_REG DB_DEPTH_INFO, 0\n", 1);
    EXPECT("db_depth_info bad reloc", BOS "SET_CONTEXT_REG DB_DEPTH_INFO, 0\nNOP 12\n", 2,
           {"reloc-index", 0x10, 12});

    /* CB_COLOR0_INFO takes the NOP after it as its relocation (its index
     * is then checked); the other operands' bounds and alignments:
     *   0x00 SET_CONTEXT_REG CB_COLOR0_INFO (3 dwords), NOP 12 at 0x0c (index at 0x10)
     *   0x14 DRAW_INDEX (5 dwords): no NOP (0x28 holds EVENT_WRITE)
     *   0x28 EVENT_WRITE 0x1, 60 in wb (4 dwords): 60 + 8 > 64, not 8-aligned
     *        (address at 0x30); 0x38 NOP wb
     *   0x40 EVENT_WRITE_EOP DATA_SEL 2 (64-bit) at 60 in wb (6 dwords): address
     *        at 0x48; 0x58 NOP wb
     *   0x60 WAIT_REG_MEM on memory at 8 in wb (7 dwords): not 16-aligned
     *        (address at 0x68); 0x7c NOP wb
     *   0x84 COPY_DW memory to memory (6 dwords): source 64 in wb (at 0x8c),
     *        destination 253 in buf (at 0x94); 0x9c NOP wb, 0xa4 NOP buf
     *   0xac SET_PREDICATION op 1 at 8: not 16-aligned (address at 0xb0); 0xb8 NOP buf
     * 14 packets. */
    EXPECT("operands",
           BOS "SET_CONTEXT_REG CB_COLOR0_INFO, 0\nNOP 12\n"
           "DRAW_INDEX 0, 0, 3, 0\n"
           "EVENT_WRITE 0x1, 60, 0\nNOP wb\n"
           "EVENT_WRITE_EOP 0x514, 60, 2 << 29, 7, 0\nNOP wb\n"
           "WAIT_REG_MEM 0x13, 8, 0, 1, 0xff, 10\nNOP wb\n"
           "COPY_DW 3, 64, 0, 253, 0\nNOP wb\nNOP buf\n"
           "SET_PREDICATION 8, 1 << 16\nNOP buf\n",
           14,
           {"reloc-index", 0x10, 12}, {"reloc-missing", 0x28, P3(EVENT_WRITE, 2)},
           {"addr-align", 0x30, 60}, {"bo-bounds", 0x30, 60}, {"bo-bounds", 0x48, 60},
           {"addr-align", 0x68, 8}, {"bo-bounds", 0x8c, 64}, {"bo-bounds", 0x94, 253},
           {"addr-align", 0xb0, 8});

    /* SURFACE_SYNC of a range needs its relocation. */
    EXPECT("surface range", "SURFACE_SYNC 0x01800000, 16, 0, 10\n", 1, {"reloc-missing", 0x14, 0});
}

/* One stream breaking many rules: all reported, in stream order. */
static void many(void)
{
    EXPECT("many",
           BOS ".bo sys, 16, cpu\n"
           "SET_CONFIG_REG WAIT_UNTIL, 1 << 15\n"      /* 0x00 ok */
           "MEM_WRITE 60, 0, 1, 2\nNOP wb\n"           /* 0x0c: align + bounds (0x10) */
           "INDIRECT_BUFFER 0, 0, 4\n"                 /* 0x28 */
           "SET_CONFIG_REG SCRATCH_REG0, 1\n"          /* 0x38: value at 0x40 */
           "packet0 CP_INT_STATUS, 0x80000000\n"       /* 0x44 */
           "WAIT_REG_MEM 0x13, 0, 0, 1, 0xff, 10\n"    /* 0x4c: NOP missing at 0x68 */
           "EVENT_WRITE 0x16, 0\n"                     /* 0x68: count 1 */
           "MEM_WRITE 0, 0, 1, 2\nNOP 200\n",          /* 0x74: NOP at 0x88, index at 0x8c */
           10,
           {"reloc-domain", 32, 1}, {"addr-align", 0x10, 60}, {"bo-bounds", 0x10, 60},
           {"indirect-buffer", 0x28, P3(INDIRECT_BUFFER, 2)}, {"reg-safe", 0x40, 0x8500},
           {"packet0-forbidden", 0x44, 0x304A}, {"reloc-missing", 0x68, P3(EVENT_WRITE, 1)},
           {"packet3-count", 0x68, P3(EVENT_WRITE, 1)}, {"reloc-index", 0x8c, 200});
}

static void api(void)
{
    cg_check_report r;
    cg_check_report_init(&r);
    uint8_t nop[8] = {0x00, 0x10, 0x00, 0xC0, 0, 0, 0, 0}; /* NOP 0 */
    cg_radeon_check_opts o = {.gen = CG_RADEON_EVERGREEN};
    CHECK_EQ(cg_radeon_check(&o, nop, 8, &r), CG_ERR_UNSUPPORTED);
    o.gen = CG_RADEON_R500;
    CHECK_EQ(cg_radeon_check(&o, nop, 8, &r), CG_ERR_UNSUPPORTED);
    o.gen = CG_RADEON_R600;
    CHECK_EQ(cg_radeon_check(NULL, nop, 8, &r), CG_ERR_INVAL);
    CHECK_EQ(cg_radeon_check(&o, NULL, 8, &r), CG_ERR_INVAL);
    o.nbos = 1; /* bos NULL */
    CHECK_EQ(cg_radeon_check(&o, nop, 8, &r), CG_ERR_INVAL);
    cg_radeon_check_bo bo = {.size = 16, .domains = CG_RADEON_DOMAIN_GTT};
    o.bos = &bo;
    o.nbos = CG_RADEON_CHECK_MAX_BOS + 1;
    CHECK_EQ(cg_radeon_check(&o, nop, 8, &r), CG_ERR_INVAL);
    o.nbos = 1;
    CHECK_EQ(cg_radeon_check(&o, nop, 8, &r), 0);
    CHECK_EQ(r.n, 0);
    CHECK_EQ(r.checked, 1);
    /* An unnamed BO is "bo<i>" in messages: MEM_WRITE 16 into a 16-byte BO. */
    uint32_t mw[7] = {P3(MEM_WRITE, 3), 16, 0, 1, 2, P3(NOP, 0), 0};
    CHECK_EQ(cg_radeon_check(&o, (const uint8_t *)mw, sizeof(mw), &r), 0);
    CHECK_EQ(r.n, 1);
    if (r.n)
        CHECK_STR(r.v[0].message,
                  "MEM_WRITE: offset 0x10 + 8 bytes is past the end of bo0 (16 bytes)");
    cg_check_report_free(&r);

    /* .bo errors are assembler errors. */
    const char *bad[] = {".bo a, 0, vram\n", ".bo a, 16, 8\n", ".bo a, 16, gtt, 0x10000000000\n",
                         ".bo a, 16\n"};
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        cg_radeon_check_src *s;
        cg_asm *as;
        CHECK_EQ(cg_radeon_check_src_create(CG_RADEON_R600, &s), 0);
        CHECK_EQ(cg_asm_create(cg_radeon_check_asm_family(), s, &as), 0);
        cg_asm_add_source(as, "t.s", bad[i], strlen(bad[i]));
        CHECK_EQ(cg_asm_assemble(as), CG_ERR_SYNTAX);
        cg_asm_destroy(as);
        cg_radeon_check_src_destroy(s);
    }
    /* The BO name is the relocation index; .gen evergreen is refused. */
    int err;
    cg_check_report r2 = check_src(CG_RADEON_R600, ".gen evergreen\nNOP 0\n", &err);
    CHECK_EQ(err, CG_ERR_UNSUPPORTED);
    cg_check_report_free(&r2);
    cg_radeon_check_src *s;
    cg_asm *as;
    CHECK_EQ(cg_radeon_check_src_create(CG_RADEON_R600, &s), 0);
    CHECK_EQ(cg_asm_create(cg_radeon_check_asm_family(), s, &as), 0);
    const char *src = ".bo a, 16, gtt\n.bo b, 16, vram\n.section ib\nNOP b\n";
    cg_asm_add_source(as, "t.s", src, strlen(src));
    CHECK_EQ(cg_asm_assemble(as), 0);
    int64_t v = -1;
    CHECK(cg_asm_symbol(as, "b", &v));
    CHECK_EQ(v, 4);
    CHECK_EQ(cg_radeon_check_src_bo_count(s), 2);
    cg_check_report_init(&r);
    CHECK_EQ(cg_radeon_check_src_run(s, as, "nosuch", &r), CG_ERR_NOENT);
    CHECK_EQ(cg_radeon_check_src_run(s, as, "ib", &r), 0);
    CHECK_EQ(r.n, 0);
    cg_check_report_free(&r);
    cg_asm_destroy(as);
    cg_radeon_check_src_destroy(s);
}

/* The examples are scenes: their streams run on the ring or as kernel IBs,
 * where the checker does not apply, and none is a valid user IB. The
 * checker says exactly why (see also tests/radeon_check_cli.sh). */
static void examples(void)
{
    char path[512];
    snprintf(path, sizeof(path), "%s/examples/radeon/wait_handshake.s", CMDGPU_SOURCE_DIR);
    cg_radeon_check_src *s;
    cg_asm *as;
    CHECK_EQ(cg_radeon_check_src_create(CG_RADEON_R600, &s), 0);
    CHECK_EQ(cg_asm_create(cg_radeon_check_asm_family(), s, &as), 0);
    CHECK_EQ(cg_asm_add_file(as, path), 0);
    CHECK_EQ(cg_asm_assemble(as), 0);
    cg_check_report r;
    cg_check_report_init(&r);
    CHECK_EQ(cg_radeon_check_src_run(s, as, "stream", &r), 0);
    /* WAIT_REG_MEM (7 dwords) on memory needs a NOP at 0x1c, MEM_WRITE takes
     * the trace-point NOP (0xCAFE0001) as its relocation index. */
    CHECK_EQ(r.n, 2);
    if (r.n == 2) {
        CHECK_STR(r.v[0].rule, "reloc-missing");
        CHECK_EQ(r.v[0].where, 0x1c);
        CHECK_STR(r.v[1].rule, "reloc-index");
        CHECK_EQ(r.v[1].where, 0x34);
        CHECK_EQ(r.v[1].word, 0xCAFE0001u);
    }
    cg_check_report_free(&r);
    cg_asm_destroy(as);
    cg_radeon_check_src_destroy(s);
}

int main(void)
{
    accepting();
    rejecting();
    many();
    api();
    examples();
    return check_report("test_radeon_check");
}
