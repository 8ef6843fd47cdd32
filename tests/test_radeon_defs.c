/* radeon tables: every .def table passes cg_def_check, and lookups give the
 * vendor names and numbers (r600d.h, evergreend.h, r100d.h). */
#include "check.h"
#include "cmdgpu/cmdgpu.h"
#include "radeon/radeon_internal.h"

static void check_table(const char *name, const cg_def_entry *e, size_t n, uint32_t unit)
{
    char report[4096];
    int problems = cg_def_check_unit(name, e, n, unit, report, sizeof(report));
    if (problems != 0)
        fprintf(stderr, "%s", report);
    CHECK_EQ(problems, 0);
}

int main(void)
{
    size_t n;
    const cg_def_entry *e = rd_reg_table(&n);
    CHECK_EQ(n, 52);
    check_table("radeon regs", e, n, 4);
    e = rd_pf_table(&n);
    CHECK_EQ(n, 17);
    check_table("radeon pm4 payload fields", e, n, 1);
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
    CHECK(cg_radeon_reg_name(CG_RADEON_R600, 0x8508 + 0x1000) == NULL);
    char buf[48];
    CHECK_STR(rd_reg_str(CG_RADEON_R600, 0x28048, buf, sizeof buf), "CB_COLOR0_BASE+8");
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
    const cg_def_entry *pf = rd_payload_fields(0x3D, 2);
    CHECK(pf != NULL);
    CHECK_STR(pf->name, "MEM_WRITE_DW2");
    CHECK(rd_payload_fields(0x3D, 1) == NULL);
    return check_report("test_radeon_defs");
}
