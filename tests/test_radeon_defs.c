/* radeon tables: every .def table passes cg_def_check, and lookups give the
 * vendor names and numbers (r600d.h, evergreend.h, r100d.h). */
#include <string.h>
#include "check.h"
#include "cmdgpu/cmdgpu.h"
#include "radeon/radeon_internal.h"

#ifndef CG_TEST_DATA
#define CG_TEST_DATA "data"
#endif

/* How many (entry, element) pairs of a generation's table carry `name`. */
static int name_count(cg_radeon_gen gen, const char *name, uint32_t *off)
{
    const rd_regtab *t = rd_regs_of(gen);
    int hits = 0;
    char buf[96];
    for (size_t i = 0; i < t->n; i++) {
        const cg_def_entry *e = &t->e[i];
        unsigned ipos = (e->flags >> RD_IPOS_SHIFT) & 0xFF;
        if (e->count < 2) {
            if (strcmp(e->name, name) == 0) {
                *off = e->offset;
                hits++;
            }
            continue;
        }
        if (strncmp(e->name, name, ipos) != 0)
            continue;
        for (unsigned k = 0; k < e->count; k++)
            if (strcmp(rd_elem_name(e, k, buf, sizeof buf), name) == 0) {
                *off = e->offset + k * e->stride;
                hits++;
            }
    }
    return hits;
}

/* Every register the headers name (tests/data/radeon_regs_<gen>.txt, written
 * by scripts/radeon_reg_tables.py straight from the headers) is in the
 * compiled table once, at the header's offset. */
static void check_header_list(cg_radeon_gen gen, const char *file, size_t want_lines)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", CG_TEST_DATA, file);
    FILE *f = fopen(path, "r");
    CHECK(f != NULL);
    if (!f)
        return;
    char name[128];
    unsigned off;
    size_t lines = 0, bad = 0;
    while (fscanf(f, "%127s %x", name, &off) == 2) {
        lines++;
        uint32_t got = 0, byname = 0;
        int hits = name_count(gen, name, &got);
        if (hits != 1 || got != off || cg_radeon_reg_by_name(gen, name, &byname) != 0 || byname != off) {
            if (bad++ < 10)
                fprintf(stderr, "%s: %s 0x%x: %d entries, offset 0x%x, by name 0x%x\n", file, name, off, hits,
                        got, byname);
        }
    }
    fclose(f);
    CHECK_EQ(bad, 0);
    CHECK_EQ(lines, want_lines);
}

/* Disassemble words and return the text (static buffer). */
static const char *dis(cg_radeon_gen gen, const uint32_t *w, size_t n)
{
    static char out[8192];
    cg_radeon_disasm_opts o = {.gen = gen};
    FILE *f = fmemopen(out, sizeof out, "w");
    cg_radeon_disasm(&o, (const uint8_t *)w, 4 * n, f);
    fclose(f);
    return out;
}

static const char *dis_json(cg_radeon_gen gen, const uint32_t *w, size_t n)
{
    static char out[8192];
    cg_radeon_disasm_opts o = {.gen = gen, .json = true};
    FILE *f = fmemopen(out, sizeof out, "w");
    cg_radeon_disasm(&o, (const uint8_t *)w, 4 * n, f);
    fclose(f);
    return out;
}

static void check_contains(const char *text, const char *want)
{
    if (!strstr(text, want))
        fprintf(stderr, "missing \"%s\" in:\n%s\n", want, text);
    CHECK(strstr(text, want) != NULL);
}

static void check_table(const char *name, const cg_def_entry *e, size_t n, uint32_t unit)
{
    char report[4096];
    int problems = cg_def_check_unit(name, e, n, unit, report, sizeof(report));
    if (problems != 0)
        fprintf(stderr, "%s", report);
    CHECK_EQ(problems, 0);
}

/* The generation of a payload-dword id's space (pm4_fields.def), and the
 * prefix of its entry names; false for the header entries (0x1000..). */
static bool id_space(uint32_t id, cg_radeon_gen *gen, const char **prefix)
{
    switch (id & 0xF000u) {
    case RD_PAY_R600: *gen = CG_RADEON_R600; *prefix = ""; return true;
    case RD_PAY_EG: *gen = CG_RADEON_EVERGREEN; *prefix = "EG_"; return true;
    case RD_PAY_R500: *gen = CG_RADEON_R500; *prefix = "R500_"; return true;
    default: return false;
    }
}

/* Every payload entry is named <prefix><PACKET>_DW<n> after the packet its
 * id gives in its generation's opcode table; every PA / PR / PRE id names
 * a packet, and a PA points at an entry. */
static void check_payload_ids(const cg_def_entry *e, size_t n)
{
    size_t bad = 0, entries = 0, shared = 0, regs = 0;
    cg_radeon_gen gen;
    const char *prefix;
    char want[80];
    for (size_t i = 0; i < n; i++) {
        if (!id_space(e[i].offset, &gen, &prefix)) {
            CHECK(e[i].offset >= 0x1000 && e[i].offset <= 0x1003);
            continue;
        }
        unsigned op = (e[i].offset >> 4) & 0xFF, dw = e[i].offset & 0xF;
        const char *pk = rd_p3_table(gen)[op].name;
        snprintf(want, sizeof want, "%s%s_DW%u", prefix, pk ? pk : "?", dw);
        entries++;
        if (!pk || dw == 0 || strcmp(want, e[i].name) != 0) {
            fprintf(stderr, "payload entry %s (0x%x): expected %s\n", e[i].name, e[i].offset, want);
            bad++;
        }
    }
    uint32_t id, v;
    for (size_t i = 0; rd_payload_alias(i, &id, &v); i++, shared++) {
        bool ok = id_space(id, &gen, &prefix) && rd_p3_table(gen)[(id >> 4) & 0xFF].name && (id & 0xF);
        bool target = false;
        for (size_t j = 0; j < n; j++)
            target |= e[j].offset == v;
        if (!ok || !target) {
            fprintf(stderr, "PA 0x%x -> 0x%x: no such packet or entry\n", id, v);
            bad++;
        }
    }
    for (size_t i = 0; rd_payload_reg_at(i, &id, &v); i++, regs++) {
        if (!id_space(id, &gen, &prefix) || !rd_p3_table(gen)[(id >> 4) & 0xFF].name || !(id & 0xF)) {
            fprintf(stderr, "PR 0x%x: no such packet\n", id);
            bad++;
        }
    }
    CHECK_EQ(bad, 0);
    CHECK_EQ(entries, 88);
    CHECK_EQ(shared, 7);
    CHECK_EQ(regs, 10);
}

int main(void)
{
    size_t n;
    const cg_def_entry *e = rd_reg_table(&n);
    CHECK_EQ(n, 52);
    check_table("radeon regs", e, n, 4);
    e = rd_pf_table(&n);
    CHECK_EQ(n, 92);
    check_table("radeon pm4 payload fields", e, n, 1);
    check_payload_ids(e, n);
    static const char *const names[] = {"r600", "r700", "evergreen", "r500"};
    for (int g = 0; g < CG_RADEON_GEN_COUNT; g++) {
        char t[64];
        e = rd_p3_defs((cg_radeon_gen)g, &n);
        static const size_t nops[] = {41, 41, 62, 11};
        CHECK_EQ(n, nops[g]);
        snprintf(t, sizeof t, "radeon %s type-3", names[g]);
        check_table(t, e, n, 1);
        e = rd_win_defs((cg_radeon_gen)g, &n);
        snprintf(t, sizeof t, "radeon %s SET windows", names[g]);
        if (g != CG_RADEON_R500) {
            CHECK_EQ(n, g == CG_RADEON_EVERGREEN ? 7 : 8);
            check_table(t, e, n, 4);
        } else {
            CHECK_EQ(n, 0);
        }
        CHECK_STR(cg_radeon_gen_name((cg_radeon_gen)g), names[g]);
        cg_radeon_gen back;
        CHECK_EQ(cg_radeon_gen_from_name(names[g], &back), 0);
        CHECK_EQ(back, g);
    }
    /* Opcodes reused across generations. */
    CHECK_STR(cg_radeon_opcode_name(CG_RADEON_R600, 0x24), "START_3D_CMDBUF");
    CHECK_STR(cg_radeon_opcode_name(CG_RADEON_EVERGREEN, 0x24), "DRAW_INDIRECT");
    CHECK_STR(cg_radeon_opcode_name(CG_RADEON_R600, 0x29), "DRAW_INDEX_IMMD_BE");
    CHECK_STR(cg_radeon_opcode_name(CG_RADEON_EVERGREEN, 0x29), "DRAW_INDEX_OFFSET");
    CHECK_STR(cg_radeon_opcode_name(CG_RADEON_R600, 0x73), "SURFACE_BASE_UPDATE");
    CHECK_STR(cg_radeon_opcode_name(CG_RADEON_EVERGREEN, 0x73), "SET_CONTEXT_REG_INDIRECT");
    CHECK_STR(cg_radeon_opcode_name(CG_RADEON_R500, 0x28), "3D_DRAW_VBUF");
    CHECK(cg_radeon_opcode_name(CG_RADEON_R600, 0x18) == NULL);
    CHECK_STR(cg_radeon_opcode_name(CG_RADEON_EVERGREEN, 0x18), "MODE_CONTROL");
    CHECK(cg_radeon_opcode_name(CG_RADEON_R600, 0x99) == NULL);
    unsigned op = 0;
    CHECK_EQ(cg_radeon_opcode_by_name(CG_RADEON_R600, "INDIRECT_BUFFER", &op), 0);
    CHECK_EQ(op, 0x32);
    CHECK_EQ(cg_radeon_opcode_by_name(CG_RADEON_R600, "EVENT_WRITE_EOP", &op), 0);
    CHECK_EQ(op, 0x47);
    CHECK_EQ(cg_radeon_opcode_by_name(CG_RADEON_R600, "DRAW_INDIRECT", &op), CG_ERR_NOENT);
    /* Windows per generation. */
    uint32_t s = 0, en = 0;
    CHECK(rd_window(CG_RADEON_R600, 0x6D, &s, &en));
    CHECK_EQ(s, 0x38000);
    CHECK_EQ(en, 0x3C000);
    CHECK(rd_window(CG_RADEON_EVERGREEN, 0x6D, &s, &en));
    CHECK_EQ(s, 0x30000);
    CHECK_EQ(en, 0x38000);
    CHECK(rd_window(CG_RADEON_R700, 0x68, &s, &en));
    CHECK_EQ(s, 0x8000);
    CHECK_EQ(en, 0xAC00);
    CHECK(!rd_window(CG_RADEON_EVERGREEN, 0x6A, &s, &en)); /* no ALU const file */
    /* Registers. */
    uint32_t reg = 0;
    CHECK_EQ(cg_radeon_reg_by_name(CG_RADEON_R600, "CP_RB_CNTL", &reg), 0);
    CHECK_EQ(reg, 0xC104);
    CHECK_EQ(cg_radeon_reg_by_name(CG_RADEON_R600, "SCRATCH_UMSK", &reg), 0);
    CHECK_EQ(reg, 0x8540);
    CHECK_EQ(cg_radeon_reg_by_name(CG_RADEON_R600, "IH_RB_WPTR_ADDR_LO", &reg), 0);
    CHECK_EQ(reg, 0x3E14);
    CHECK_STR(cg_radeon_reg_name(CG_RADEON_R600, 0x8504), "SCRATCH_REG1");
    CHECK_STR(cg_radeon_reg_name(CG_RADEON_EVERGREEN, 0xC128), "CP_INT_STATUS");
    CHECK(cg_radeon_reg_name(CG_RADEON_R600, 0x12340) == NULL);
    char buf[48];
    /* Array elements print with their own index (issue 11). */
    CHECK_STR(rd_reg_str(CG_RADEON_R600, 0x28048, buf, sizeof buf), "CB_COLOR2_BASE");
    CHECK_STR(rd_reg_str(CG_RADEON_R600, 0x12340, buf, sizeof buf), "0x12340");
    rd_reg_info ri;
    CHECK(rd_reg_lookup(0xC104, &ri));
    CHECK_EQ(ri.e->nfields, 5);
    CHECK_STR(ri.e->fields[0].name, "RB_BUFSZ");
    CHECK_EQ(ri.e->fields[4].hi, 31);
    /* Generated field constants agree with the table. */
    CHECK_EQ(RPUT(CP_RB_CNTL, RB_NO_UPDATE, 1), 1u << 27);
    CHECK_EQ(RPUT(CP_INT_CNTL, TIME_STAMP_INT_ENABLE, 1), 1u << 26);
    CHECK_EQ(PPUT(EVENT_WRITE_EOP_DW3, DATA_SEL, 1) | PPUT(EVENT_WRITE_EOP_DW3, INT_SEL, 2),
             (1u << 29) | (2u << 24));
    CHECK_EQ(PGET(0xFFFFFFFFu, CP_DMA_DW5, BYTE_COUNT), 0x1FFFFF);
    const cg_def_entry *pf = rd_payload_fields(CG_RADEON_R600, 0x3D, 2);
    CHECK(pf != NULL);
    CHECK_STR(pf->name, "MEM_WRITE_DW2");
    CHECK(rd_payload_fields(CG_RADEON_R600, 0x3D, 9) == NULL);
    uint32_t preg = 0;
    CHECK(rd_payload_reg(CG_RADEON_R600, 0x43, 1, &preg));
    CHECK_EQ(preg, 0x85F0);
    CHECK(!rd_payload_reg(CG_RADEON_R600, 0x43, 4, &preg));

    /* The vendor tables: clean, and every header name present once. */
    check_table("radeon r600 registers", rd_regs_of(CG_RADEON_R600)->e, rd_regs_of(CG_RADEON_R600)->n, 4);
    check_table("radeon evergreen registers", rd_regs_of(CG_RADEON_EVERGREEN)->e,
                rd_regs_of(CG_RADEON_EVERGREEN)->n, 4);
    CHECK(rd_regs_of(CG_RADEON_R700) == rd_regs_of(CG_RADEON_R600));
    CHECK(rd_regs_of(CG_RADEON_R500) == NULL);
    check_header_list(CG_RADEON_R600, "radeon_regs_r600.txt", 976);
    check_header_list(CG_RADEON_EVERGREEN, "radeon_regs_evergreen.txt", 1246);
    /* Offsets per generation. */
    CHECK_EQ(cg_radeon_reg_by_name(CG_RADEON_R600, "DB_DEPTH_INFO", &reg), 0);
    CHECK_EQ(reg, 0x28010);
    /* Evergreen's 0x2803C: Linux evergreend.h calls it CAYMAN_DB_DEPTH_INFO */
    CHECK_EQ(cg_radeon_reg_by_name(CG_RADEON_EVERGREEN, "DB_DEPTH_INFO", &reg), CG_ERR_NOENT);
    CHECK_EQ(cg_radeon_reg_by_name(CG_RADEON_EVERGREEN, "CAYMAN_DB_DEPTH_INFO", &reg), 0);
    CHECK_EQ(reg, 0x2803C);
    CHECK_EQ(cg_radeon_reg_by_name(CG_RADEON_R700, "SPI_PS_INPUT_CNTL_31", &reg), 0);
    CHECK_EQ(reg, 0x286C0);
    CHECK_EQ(cg_radeon_reg_by_name(CG_RADEON_R600, "SQ_TEX_RESOURCE_WORD4_3", &reg), 0);
    CHECK_EQ(reg, 0x38010 + 3 * 0x1C);
    CHECK_EQ(cg_radeon_reg_by_name(CG_RADEON_EVERGREEN, "SQ_TEX_RESOURCE_WORD4_3", &reg), 0);
    CHECK_EQ(reg, 0x30010 + 3 * 0x20);
    CHECK_EQ(cg_radeon_reg_by_name(CG_RADEON_R600, "CB_COLOR8_BASE", &reg), CG_ERR_NOENT);
    CHECK_EQ(cg_radeon_reg_by_name(CG_RADEON_R600, "CB_COLOR01_BASE", &reg), CG_ERR_NOENT);
    CHECK_STR(rd_reg_str(CG_RADEON_EVERGREEN, 0x28C60 + 0x3C, buf, sizeof buf), "CB_COLOR1_BASE");
    CHECK_STR(rd_reg_str(CG_RADEON_R600, 0x286C0, buf, sizeof buf), "SPI_PS_INPUT_CNTL_31");
    CHECK_STR(rd_reg_str(CG_RADEON_R600, 0x38000 + 7 * 0x1C, buf, sizeof buf), "SQ_TEX_RESOURCE_WORD0_7");
    CHECK_STR(rd_reg_str(CG_RADEON_R500, 0x28040, buf, sizeof buf), "0x28040");

    /* Disassembly: field decode with enum names, array index, several fields. */
    {
        /* SET_CONTEXT_REG CB_COLOR1_INFO: FORMAT 0x1A (COLOR_8_8_8_8),
         * ARRAY_MODE 4, NUMBER_TYPE 0, COMP_SWAP 1 */
        uint32_t w[] = {CG_RADEON_PACKET3(0x69, 1), (0x280A4 - 0x28000) / 4, (0x1Au << 2) | (4u << 8) | (1u << 16)};
        const char *t = dis(CG_RADEON_R600, w, 3);
        check_contains(t, "SET_CONTEXT_REG CB_COLOR1_INFO, 0x10468");
        check_contains(t, "CB_COLOR1_INFO = 0x10468 (FORMAT=COLOR_8_8_8_8 ARRAY_MODE=ARRAY_2D_TILED_THIN1 "
                          "COMP_SWAP=SWAP_ALT)");
    }
    {
        /* Evergreen DB_DEPTH_INFO is at 0x2803C: SET_CONTEXT_REG index 15 */
        uint32_t w[] = {CG_RADEON_PACKET3(0x69, 1), 15, 0x2};
        check_contains(dis(CG_RADEON_EVERGREEN, w, 3), "SET_CONTEXT_REG CAYMAN_DB_DEPTH_INFO, 0x2");
        check_contains(dis(CG_RADEON_R600, w, 3), "SET_CONTEXT_REG 0x2803c, 0x2");
    }
    {
        /* SET_RESOURCE word 4 of resource 2 (R600) with DST_SEL fields */
        uint32_t w[] = {CG_RADEON_PACKET3(0x6D, 1), (0x38010 + 2 * 0x1C - 0x38000) / 4, (1u << 16) | (2u << 19)};
        check_contains(dis(CG_RADEON_R600, w, 3),
                       "SQ_TEX_RESOURCE_WORD4_2 = 0x110000 (DST_SEL_X=SQ_SEL_Y DST_SEL_Y=0x2)");
    }
    {
        /* SET_ALU_CONST / SET_LOOP_CONST / SET_CTL_CONST windows by name */
        uint32_t alu[] = {CG_RADEON_PACKET3(0x6A, 1), 5 * 4 + 2, 0x3f800000};
        check_contains(dis(CG_RADEON_R600, alu, 3), "SET_ALU_CONST SQ_ALU_CONSTANT2_5, 0x3f800000");
        uint32_t loop[] = {CG_RADEON_PACKET3(0x6C, 1), 3, 0x1};
        check_contains(dis(CG_RADEON_EVERGREEN, loop, 3), "SET_LOOP_CONST SQ_LOOP_CONST_3, 0x1");
        check_contains(dis(CG_RADEON_R700, loop, 3), "SET_LOOP_CONST SQ_LOOP_CONST_3, 0x1");
        uint32_t ctl[] = {CG_RADEON_PACKET3(0x6F, 2), 0, 7, 9};
        const char *t = dis(CG_RADEON_R600, ctl, 4);
        check_contains(t, "SET_CTL_CONST SQ_VTX_BASE_VTX_LOC, 0x7, 0x9");
        check_contains(t, "SQ_VTX_START_INST_LOC = 0x9");
    }
    {
        /* type-0 write of SPI_PS_INPUT_CNTL_3 */
        uint32_t w[] = {CG_RADEON_PACKET0(0x28650, 0), 0x100};
        check_contains(dis(CG_RADEON_R600, w, 2), "packet0 SPI_PS_INPUT_CNTL_3, 0x100");
    }
    {
        /* Type-3 payloads: a register-valued dword with its fields, an enum
         * of a draw initiator, header-level fields of EOP. */
        uint32_t w[] = {CG_RADEON_PACKET3(0x43, 3), 0x2800000, 0xFFFFFFFFu, 0, 10,
                        CG_RADEON_PACKET3(0x2D, 1), 3, 2,
                        CG_RADEON_PACKET3(0x47, 4), 0x514, 0x1000, 0x22000000, 7, 0};
        const char *t = dis(CG_RADEON_R600, w, 14);
        check_contains(t, "# 0x0004 02800000  CP_COHER_CNTL = 0x2800000 (TC_ACTION_ENA=0x1 CB_ACTION_ENA=0x1)\n");
        check_contains(t, "# 0x0010 0000000a  POLL_INTERVAL=0xa\n");
        check_contains(t, "# 0x001c 00000002  VGT_DRAW_INITIATOR = 0x2 (SOURCE_SELECT=DI_SRC_SEL_AUTO_INDEX)\n");
        check_contains(t, "# 0x0024 00000514  EOP_EVENT_TYPE=0x14 EOP_EVENT_INDEX=0x5\n");
        check_contains(t, "# 0x002c 22000000  INT_SEL=0x2 DATA_SEL=0x1\n");
        /* Evergreen: the same packet, decoded with the evergreen register table */
        uint32_t eg[] = {CG_RADEON_PACKET3(0x2D, 1), 3, 2};
        check_contains(dis(CG_RADEON_EVERGREEN, eg, 3), "VGT_DRAW_INITIATOR = 0x2 (SOURCE_SELECT=0x2)"); /* no V_ values in evergreend.h */
    }
    {
        /* Payloads of the packets the model does not execute, per
         * generation (issue 11 part 2): R600 streamout and surface base
         * updates, a PA-shared layout (DRAW_INDEX_IMMD_BE). */
        uint32_t w[] = {CG_RADEON_PACKET3(0x34, 4), 0x103, 0x1000, 0x12, 0x2000, 0x34,
                        CG_RADEON_PACKET3(0x73, 0), 0x207,
                        CG_RADEON_PACKET3(0x72, 1), 2, 0x400,
                        CG_RADEON_PACKET3(0x27, 4), 100, 0x8000, 1, 30, 0,
                        CG_RADEON_PACKET3(0x29, 1), 3, 2};
        const char *t = dis(CG_RADEON_R700, w, 20);
        check_contains(t, "STRMOUT_BUFFER_UPDATE 0x103, 0x1000, 0x12, 0x2000, 0x34  # 0x0000 c0043400 type 3, count 4\n"
                          "    # 0x0004 00000103  STORE_BUFFER_FILLED_SIZE=0x1 OFFSET_SOURCE=0x1 SELECT_BUFFER=0x1\n"
                          "    # 0x0008 00001000  DST_ADDRESS_LO=0x1000\n"
                          "    # 0x000c 00000012  DST_ADDRESS_HI=0x12\n"
                          "    # 0x0010 00002000  SRC_ADDRESS_LO=0x2000\n"
                          "    # 0x0014 00000034  SRC_ADDRESS_HI=0x34\n");
        check_contains(t, "SURFACE_BASE_UPDATE 0x207  # 0x0018 c0007300 type 3, count 0\n"
                          "    # 0x001c 00000207  DEPTH=0x1 COLOR=0x3 STRMOUT=0x1\n");
        check_contains(t, "    # 0x0024 00000002  BUFFER_INDEX=0x2\n    # 0x0028 00000400  BUFFER_BASE=0x400\n");
        check_contains(t, "    # 0x0038 00000001  INDEX_BASE_HI=0x1\n    # 0x003c 0000001e  INDEX_COUNT=0x1e\n");
        check_contains(t, "DRAW_INDEX_IMMD_BE 0x3, 0x2  # 0x0044 c0012900 type 3, count 1\n"
                          "    # 0x0048 00000003  IMMD_INDEX_COUNT=0x3\n"
                          "    # 0x004c 00000002  VGT_DRAW_INITIATOR = 0x2 (SOURCE_SELECT=DI_SRC_SEL_AUTO_INDEX)\n");
        check_contains(dis_json(CG_RADEON_R600, w, 6), "\"confidence\":\"known\"}");

        /* Evergreen's own packets; opcode 0x29 is DRAW_INDEX_OFFSET there,
         * which no public source lays out: no R600 fields leak in. */
        uint32_t eg[] = {CG_RADEON_PACKET3(0x48, 3), 0x61d, 0x1000, 0x12, 0x10003,
                         CG_RADEON_PACKET3(0x25, 1), 0x40, 2,
                         CG_RADEON_PACKET3(0x75, 2), 0xa0b0003, 0x2000, 0x12,
                         CG_RADEON_PACKET3(0x15, 3), 8, 4, 1, 1,
                         CG_RADEON_PACKET3(0x29, 1), 3, 2};
        t = dis(CG_RADEON_EVERGREEN, eg, 20);
        check_contains(t, "EVENT_WRITE_EOS 0x61d, 0x1000, 0x12, 0x10003  # 0x0000 c0034800 type 3, count 3\n"
                          "    # 0x0004 0000061d  EVENT_TYPE=0x1d EVENT_INDEX=0x6\n"
                          "    # 0x0008 00001000  ADDRESS_LO=0x1000\n"
                          "    # 0x000c 00000012  ADDRESS_HI=0x12\n"
                          "    # 0x0010 00010003  DATA=0x10003\n");
        check_contains(t, "DRAW_INDEX_INDIRECT 0x40, 0x2  # 0x0014 c0012500 type 3, count 1\n"
                          "    # 0x0018 00000040  DATA_OFFSET=0x40\n"
                          "    # 0x001c 00000002  VGT_DRAW_INITIATOR = 0x2 (SOURCE_SELECT=0x2)\n");
        check_contains(t, "    # 0x0024 0a0b0003  SOURCE_SEL=0x3 WR_REG_OFFSET=0xa0b\n"
                          "    # 0x0028 00002000  CONTROL=0x2000\n"
                          "    # 0x002c 00000012  SRC_ADDRESS_HI=0x12\n");
        check_contains(t, "    # 0x0040 00000001  COMPUTE_SHADER_EN=0x1\n");
        check_contains(t, "DRAW_INDEX_OFFSET 0x3, 0x2  # 0x0044 c0012900 type 3, count 1\n"
                          "    # 0x0048 00000003  \n    # 0x004c 00000002  \n");
        check_contains(dis_json(CG_RADEON_EVERGREEN, eg, 5), "\"confidence\":\"known\"}");
        /* EOS dword 3 bits 31:29: set, but named by no source */
        eg[3] = 0x40000012;
        check_contains(dis_json(CG_RADEON_EVERGREEN, eg, 5), "\"confidence\":\"partial\"}");
        check_contains(dis_json(CG_RADEON_EVERGREEN, eg + 17, 3), "\"confidence\":\"partial\"}");

        /* R500: VAP_VF_CNTL of a draw (PA-shared by the six draws) */
        uint32_t r5[] = {CG_RADEON_PACKET3(0x34, 0), 0x30034, CG_RADEON_PACKET3(0x28, 1), 0, 0x30034,
                         CG_RADEON_PACKET3(0x33, 2), 0x80000820, 0x4000, 16};
        t = dis(CG_RADEON_R500, r5, 9);
        check_contains(t, "packet3 0x34, 0x30034  # 0x0000 c0003400 type 3, count 0 3D_DRAW_VBUF_2\n"
                          "    # 0x0004 00030034  PRIM_TYPE=0x4 PRIM_WALK=0x3 NUM_VERTICES=0x3\n");
        check_contains(t, "    # 0x000c 00000000  \n    # 0x0010 00030034  PRIM_TYPE=0x4 PRIM_WALK=0x3 NUM_VERTICES=0x3\n");
        check_contains(t, "    # 0x001c 00004000  ADDRESS=0x4000\n    # 0x0020 00000010  SIZE=0x10\n");
        check_contains(dis_json(CG_RADEON_R500, r5, 2), "\"confidence\":\"known\"}");
        check_contains(dis_json(CG_RADEON_R500, r5 + 5, 4), "\"confidence\":\"partial\"}");
    }
    {
        /* JSON confidence: every set bit in a field -> known; bits outside
         * the fields or an unnamed register -> partial; no name -> unknown */
        uint32_t known[] = {CG_RADEON_PACKET3(0x69, 1), 0x29, 0x10468};
        check_contains(dis_json(CG_RADEON_R600, known, 3), "\"name\":\"SET_CONTEXT_REG\",\"words\":"
                                                           "[\"0xc0016900\",\"0x00000029\",\"0x00010468\"],"
                                                           "\"confidence\":\"known\"}");
        uint32_t partial[] = {CG_RADEON_PACKET3(0x69, 1), 0x29, 0x80000000u};
        check_contains(dis_json(CG_RADEON_R600, partial, 3), "\"confidence\":\"partial\"}");
        uint32_t unknown[] = {CG_RADEON_PACKET3(0x99, 0), 0};
        check_contains(dis_json(CG_RADEON_R600, unknown, 2), "\"problem\":\"unknown opcode\",\"confidence\":\"unknown\"}");
        uint32_t type0[] = {CG_RADEON_PACKET0(0x28650, 0), 0x100};
        check_contains(dis_json(CG_RADEON_R600, type0, 2), "\"confidence\":\"known\"}");
    }
    return check_report("test_radeon_defs");
}
