/* nv: the class tables pass the definition-table checker, lookups work, and
 * the pushbuffer header decoder reads every opcode, including the command
 * words of seed 001's table. */
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "cmdgpu/nv.h"
#include "core/def.h"
#include "nv/tables/actions.h"
#include "nv/tables/methods.h"

static void check_tables(void)
{
    for (size_t i = 0; cg_nv_class_at(i); i++) {
        const cg_nv_class *c = cg_nv_class_at(i);
        cg_def_entry *e = calloc(c->nmethods, sizeof(*e));
        cg_def_field *f[1024];
        CHECK(c->nmethods < 1024);
        for (size_t j = 0; j < c->nmethods; j++) {
            const cg_nv_method *m = &c->methods[j];
            f[j] = calloc(m->nfields + 1, sizeof(cg_def_field));
            for (size_t k = 0; k < m->nfields; k++) {
                f[j][k].name = m->fields[k].name;
                f[j][k].hi = m->fields[k].hi;
                f[j][k].lo = m->fields[k].lo;
            }
            e[j] = (cg_def_entry){m->name, m->offset, m->count, m->stride, m->flags, f[j],
                                  m->nfields};
            /* enum values fit their field */
            for (size_t k = 0; k < m->nfields; k++) {
                const cg_nv_field *fd = &m->fields[k];
                CHECK((fd->type == CG_NV_F_ENUM) == (fd->enums != NULL));
                uint32_t width = fd->hi - fd->lo + 1;
                for (const cg_nv_enum *en = fd->enums; en && en->name; en++)
                    CHECK(width == 32 || en->value < (1u << width));
            }
        }
        char report[4096];
        int n = cg_def_check_unit(c->prefix, e, c->nmethods, 4, report, sizeof(report));
        if (n != 0)
            fprintf(stderr, "%s", report);
        CHECK_EQ(n, 0);
        for (size_t j = 0; j < c->nmethods; j++)
            free(f[j]);
        free(e);
    }
    CHECK(cg_nv_class_find(0xB06F) != NULL);
    CHECK(cg_nv_class_find(0x1234) == NULL);
    CHECK_STR(cg_nv_class_find(0xB0B5)->name, "MAXWELL_DMA_COPY_A");
}

static void check_lookups(void)
{
    const cg_nv_class *c3d = cg_nv_class_find(CG_NV_CLASS_3D);
    uint32_t off = 0, elem = 99;
    CHECK_EQ(cg_nv_method_parse(c3d, "CB_POS", &off), 0);
    CHECK_EQ(off, 0x238C);
    CHECK_EQ(cg_nv_method_parse(c3d, "LOAD_CONSTANT_BUFFER(3)", &off), 0);
    CHECK_EQ(off, 0x239C);
    CHECK_EQ(cg_nv_method_parse(c3d, "VERTEX_ARRAY_START_HIGH(0)", &off), 0);
    CHECK_EQ(off, 0x1C04);
    CHECK_EQ(cg_nv_method_parse(c3d, "TIC_ADDRESS_HIGH", &off), 0);
    CHECK_EQ(off, 0x1574);
    CHECK_EQ(cg_nv_method_parse(c3d, "VERTEX_BEGIN_GL", &off), 0);
    CHECK_EQ(off, 0x1618);
    CHECK_EQ(cg_nv_method_parse(c3d, "LOAD_CONSTANT_BUFFER(16)", &off), CG_ERR_RANGE);
    CHECK_EQ(cg_nv_method_parse(c3d, "NO_SUCH", &off), CG_ERR_NOENT);
    const cg_nv_method *m = cg_nv_method_at(c3d, 0x1C14, &elem);
    CHECK(m && strcmp(m->name, "SET_VERTEX_STREAM_A_LOCATION_A") == 0);
    CHECK_EQ(elem, 1);
    char name[64];
    CHECK(cg_nv_method_name(c3d, 0x238C, name, sizeof(name)));
    CHECK_STR(name, "LOAD_CONSTANT_BUFFER_OFFSET"); /* the NVIDIA name, not the alias */
    CHECK(!cg_nv_method_name(c3d, 0x0004, name, sizeof(name)));
    /* generated constants match the tables */
    CHECK_EQ(NVB06F_SEMAPHORED, 0x1C);
}

typedef struct seed_row {
    uint32_t word, method;
    unsigned subch, count, mode;
} seed_row;

static void check_seed_001(void)
{
    /* Seed 001's command table: word, method (byte), subchannel, argument
     * count (the inline value for mode 4), submission mode. */
    static const seed_row rows[] = {
        {0xA0020E00, 0x3800, 0, 2, 5}, {0xA0030E30, 0x38C0, 0, 3, 5},
        {0xA0050E36, 0x38D8, 0, 5, 5}, {0xA0020E2E, 0x38B8, 0, 2, 5},
        {0xA0040E2C, 0x38B0, 0, 4, 5}, {0x2001054C, 0x1530, 0, 1, 1},
        {0x8001047F, 0x11FC, 0, 1, 4}, {0x200104C4, 0x1310, 0, 1, 1},
        /* SetDepthClamp: the seed's method column says 0x1BD0 (index
         * 0x6F4), but its word 0x2001064F carries index 0x64F = 0x193C; the
         * seed disagrees with itself and the word is what a GPU decodes. */
        {0x200404C7, 0x131C, 0, 4, 1}, {0x2001064F, 0x193C, 0, 1, 1},
        {0x200200CD, 0x0334, 0, 2, 1}, {0x200204EC, 0x13B0, 0, 2, 1},
        {0x200400C9, 0x0324, 0, 4, 1}, {0x20010546, 0x1518, 0, 1, 1},
        {0x20030554, 0x1550, 0, 3, 1}, {0x200403EF, 0x0FBC, 0, 4, 1},
        {0x200103D9, 0x0F64, 0, 1, 1}, {0x20020047, 0x011C, 0, 2, 1},
    };
    for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
        cg_nv_header h;
        cg_nv_header_decode(rows[i].word, &h);
        CHECK_EQ(h.method, rows[i].method);
        CHECK_EQ(h.subch, rows[i].subch);
        CHECK_EQ(h.secop, rows[i].mode);
        CHECK_EQ(h.secop == 4 ? h.immd : h.count, rows[i].count);
        CHECK_EQ(cg_nv_hdr(rows[i].mode, rows[i].subch, rows[i].method, rows[i].count),
                 rows[i].word);
    }
    /* 0x2001?000: BindObject, one word, any subchannel */
    for (unsigned s = 0; s < 8; s++) {
        cg_nv_header h;
        cg_nv_header_decode(0x20010000u | s << 13, &h);
        CHECK_EQ(h.kind, CG_NV_H_INC);
        CHECK_EQ(h.method, 0);
        CHECK_EQ(h.subch, s);
        CHECK_EQ(h.count, 1);
    }
    /* 0x8???0373: SetPatchSize IMMD, value in 28:16 */
    cg_nv_header h;
    cg_nv_header_decode(0x80030373, &h);
    CHECK_EQ(h.kind, CG_NV_H_IMMD);
    CHECK_EQ(h.method, 0x0DCC);
    CHECK_EQ(h.immd, 3);
    /* and the names this model gives them */
    const cg_nv_class *c3d = cg_nv_class_find(CG_NV_CLASS_3D);
    char name[64];
    CHECK(cg_nv_method_name(c3d, 0x0FBC, name, sizeof(name)));
    CHECK_STR(name, "SET_SAMPLE_MASK_X0_Y0");
    CHECK(cg_nv_method_name(c3d, 0x38C0, name, sizeof(name)));
    CHECK_STR(name, "CALL_MME_MACRO(24)");
    /* seed 001 calls 0x11FC ResolveDepthBuffer; clb197.h names it
     * DECOMPRESS_ZETA_SURFACE (the seed's name stays an alias) */
    CHECK(cg_nv_method_name(c3d, 0x11FC, name, sizeof(name)));
    CHECK_STR(name, "DECOMPRESS_ZETA_SURFACE");
    uint32_t off = 0;
    CHECK_EQ(cg_nv_method_parse(c3d, "RESOLVE_DEPTH_BUFFER", &off), 0);
    CHECK_EQ(off, 0x11FC);
}

static void check_opcodes(void)
{
    cg_nv_header h;
    cg_nv_header_decode(0x00000000, &h); /* NOP: old-format INC, count 0 */
    CHECK_EQ(h.kind, CG_NV_H_INC);
    CHECK(h.old_format);
    CHECK_EQ(h.count, 0);
    cg_nv_header_decode(0x0008A1B4, &h); /* old INC: count 2 (28:18), subch 5, addr 0x1B4 */
    CHECK_EQ(h.kind, CG_NV_H_INC);
    CHECK_EQ(h.count, 2);
    CHECK_EQ(h.subch, 5);
    CHECK_EQ(h.method, 0x01B4);
    cg_nv_header_decode(0x4004401C, &h); /* old NONINC (grp 2): count 1, subch 2, 0x1C */
    CHECK_EQ(h.kind, CG_NV_H_NONINC);
    CHECK(h.old_format);
    CHECK_EQ(h.count, 1);
    CHECK_EQ(h.subch, 2);
    CHECK_EQ(h.method, 0x1C);
    cg_nv_header_decode(0x00010FF0, &h);
    CHECK_EQ(h.kind, CG_NV_H_SET_SUBDEV_MASK);
    CHECK_EQ(h.immd, 0xFF);
    cg_nv_header_decode(0x00020010, &h);
    CHECK_EQ(h.kind, CG_NV_H_STORE_SUBDEV_MASK);
    CHECK_EQ(h.immd, 1);
    cg_nv_header_decode(0x00030000, &h);
    CHECK_EQ(h.kind, CG_NV_H_USE_SUBDEV_MASK);
    cg_nv_header_decode(0x60010000, &h);
    CHECK_EQ(h.kind, CG_NV_H_NONINC);
    CHECK_EQ(h.count, 1);
    cg_nv_header_decode(0xC0000000, &h);
    CHECK_EQ(h.kind, CG_NV_H_RESERVED);
    cg_nv_header_decode(0xE0000000, &h);
    CHECK_EQ(h.kind, CG_NV_H_END_SEGMENT);
    cg_nv_header_decode(0xBFFF8040, &h); /* ONE_INC count 0x1FFF, subch 4, 0x100 */
    CHECK_EQ(h.kind, CG_NV_H_ONE_INC);
    CHECK_EQ(h.count, 0x1FFF);
    CHECK_EQ(h.subch, 4);
    CHECK_EQ(h.method, 0x100);
}

static void check_builder(void)
{
    uint32_t buf[64];
    cg_nv_pb pb;
    cg_nv_pb_init(&pb, buf, 64);
    uint32_t d[3] = {1, 2, 3};
    CHECK_EQ(cg_nv_pb_mthd(&pb, 1, 0x180, 0x1FFF), 0);   /* IMMD */
    CHECK_EQ(cg_nv_pb_mthd(&pb, 1, 0x180, 0x2000), 0);   /* INC 1 */
    CHECK_EQ(cg_nv_pb_inc(&pb, 2, 0x1B0, d, 3), 0);
    CHECK_EQ(cg_nv_pb_noninc(&pb, 2, 0x1B4, d, 2), 0);
    CHECK_EQ(cg_nv_pb_one_inc(&pb, 3, 0x200, d, 3), 0);
    CHECK_EQ(cg_nv_pb_named(&pb, 0, CG_NV_CLASS_3D, "CB_POS", 0x20), 0);
    CHECK_EQ(cg_nv_pb_named(&pb, 0, CG_NV_CLASS_HOST, "SEMAPHOREC", 0x12345), 0);
    CHECK_EQ(cg_nv_pb_end(&pb), 0);
    static const uint32_t want[] = {
        0x9FFF2060, 0x20012060, 0x2000, 0x2003406C, 1, 2, 3, 0x6002406D, 1, 2,
        0xA0036080, 1, 2, 3, 0x802008E3, 0x20010006, 0x12345, 0xE0000000};
    CHECK_EQ(pb.len, sizeof(want) / 4);
    CHECK_MEM(buf, want, sizeof(want));
    CHECK_EQ(cg_nv_pb_immd(&pb, 0, 0x100, 0x2000), CG_ERR_RANGE);
    cg_nv_pb_init(&pb, buf, 2);
    CHECK_EQ(cg_nv_pb_inc(&pb, 0, 0x100, d, 3), CG_ERR_NOSPACE);
    CHECK_EQ(pb.len, 0);
    cg_nv_pb_init(&pb, buf, 4);
    CHECK_EQ(cg_nv_pb_named(&pb, 0, CG_NV_CLASS_3D, "BOGUS", 1), CG_ERR_NOENT);
    /* GPFIFO entries */
    uint64_t e = cg_nv_gp_entry(0x12345678ACull, 0x1234, CG_NV_GP_SUBROUTINE | CG_NV_GP_SYNC_WAIT);
    CHECK_EQ((uint32_t)e, 0x345678AC);
    CHECK_EQ((uint32_t)(e >> 32), 0x12u | 1u << 9 | 0x1234u << 10 | 1u << 31);
    /* ... and back through the one decoder */
    cg_nv_gp_fields gp = cg_nv_gp_decode(e);
    CHECK_EQ(gp.va, 0x12345678ACull);
    CHECK_EQ(gp.nwords, 0x1234);
    CHECK_EQ(gp.flags, CG_NV_GP_SUBROUTINE | CG_NV_GP_SYNC_WAIT);
    for (uint32_t fl = 0; fl < 16; fl++)
        CHECK_EQ(cg_nv_gp_decode(cg_nv_gp_entry(0xFF00000004ull, 0x1FFFFF, fl)).flags, fl);
    gp = cg_nv_gp_decode(cg_nv_gp_control(CG_NV_GP_OP_ILLEGAL, 0xdeadbeef));
    CHECK_EQ(gp.nwords, 0);
    CHECK_EQ(gp.opcode, CG_NV_GP_OP_ILLEGAL);
    CHECK_EQ(gp.operand, 0xdeadbeefu);
}

/* The draw methods' ACTION column: BEGIN, END, the two bracketed draws and
 * the eight one-word draws each reach their own handler (draw.c). */
static void check_draw_actions(void)
{
    const cg_nv_class *c = cg_nv_class_find(CG_NV_CLASS_3D);
    unsigned n[NV_ACT_COUNT] = {0};
    for (size_t j = 0; j < c->nmethods; j++) {
        const cg_nv_method *m = &c->methods[j];
        if (m->flags & CG_NV_M_ALIAS)
            continue;
        nv_mact a = nv_method_act(m);
        CHECK(a < NV_ACT_COUNT);
        n[a]++;
        if (strstr(m->name, "_BEGIN_END_INSTANCE_"))
            CHECK_EQ(a, NV_ACT_DRAW_BEGIN_END);
    }
    CHECK_EQ(nv_method_act(cg_nv_method_named(c, "BEGIN")), NV_ACT_BEGIN);
    CHECK_EQ(nv_method_act(cg_nv_method_named(c, "END")), NV_ACT_END);
    CHECK_EQ(nv_method_act(cg_nv_method_named(c, "DRAW_VERTEX_ARRAY")), NV_ACT_DRAW);
    CHECK_EQ(nv_method_act(cg_nv_method_named(c, "DRAW_INDEX_BUFFER")), NV_ACT_DRAW);
    CHECK_EQ(n[NV_ACT_BEGIN], 1);
    CHECK_EQ(n[NV_ACT_END], 1);
    CHECK_EQ(n[NV_ACT_DRAW], 2);
    CHECK_EQ(n[NV_ACT_DRAW_BEGIN_END], 8);
}

int main(void)
{
    check_draw_actions();
    check_tables();
    check_lookups();
    check_seed_001();
    check_opcodes();
    check_builder();
    /* enum names come from the class tables */
    CHECK_STR(cg_nv_enum_name(CG_NV_CLASS_3D, "BEGIN", "OP", 5), "TRIANGLE_STRIP");
    CHECK_STR(cg_nv_enum_name(CG_NV_CLASS_3D, "SET_VERTEX_ATTRIBUTE_A", "NUMERICAL_TYPE", 7),
              "NUM_FLOAT");
    CHECK(cg_nv_enum_name(CG_NV_CLASS_3D, "BEGIN", "OP", 15) == NULL);
    CHECK(cg_nv_enum_name(CG_NV_CLASS_3D, "BEGIN", "NOPE", 0) == NULL);
    CHECK(cg_nv_enum_name(CG_NV_CLASS_3D, "NOPE", "OP", 0) == NULL);
    CHECK(cg_nv_enum_name(0x1234, "BEGIN", "OP", 0) == NULL);
    CHECK(cg_nv_enum_name(CG_NV_CLASS_3D, "SET_COLOR_TARGET_A", "OFFSET_UPPER", 0) == NULL);
    return check_report("test_nv_defs");
}
