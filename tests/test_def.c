/* Tests for src/core/def.c: a table built from tests/data/sample.def with the
 * def.h macros checks clean; hand-made bad tables give exact reports. */
#include <stdlib.h>
#include "check.h"
#include "core/def.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* ---- the sample table, built exactly as def.h describes ---- */

#define M(name, offset, count) CG_DEF_TYPE_M(name)
#define F(name, hi, lo) CG_DEF_TYPE_F
CG_DEF_TYPE_BEGIN(sample_fields)
#include "data/sample.def"
CG_DEF_TYPE_END(sample_fields);
#undef M
#undef F

#define M(name, offset, count) CG_DEF_INIT_M
#define F(name, hi, lo) CG_DEF_INIT_F(name, hi, lo)
static const struct sample_fields sample_fields = CG_DEF_INIT_BEGIN
#include "data/sample.def"
CG_DEF_INIT_END;
#undef M
#undef F

#define M(name, offset, count) CG_DEF_ENTRY(sample_fields, name, offset, count, 0, 0),
#define F(name, hi, lo)
static const cg_def_entry sample_table[] = {
#include "data/sample.def"
};
#undef M
#undef F

/* An enum from the same file, as a family's builder would make. */
#define M(name, offset, count) SAMPLE_##name = offset,
#define F(name, hi, lo)
enum sample_offsets {
#include "data/sample.def"
};
#undef M
#undef F

static void test_sample_table(void)
{
    char report[256] = "junk";
    CHECK_EQ(ARRAY_SIZE(sample_table), 5);
    CHECK_EQ(cg_def_check("sample", sample_table, ARRAY_SIZE(sample_table), report,
                          sizeof(report)),
             0);
    CHECK_STR(report, "");

    /* The macros put everything where the .def says. */
    static const struct {
        const char *name;
        uint32_t offset, count;
        size_t nfields;
    } want[] = {
        {"NOP", 0x00, 1, 0},    {"SET_MODE", 0x01, 1, 3}, {"COLOR", 0x04, 4, 1},
        {"SCISSOR", 0x08, 2, 2}, {"FLUSH", 0x10, 1, 0},
    };
    for (size_t i = 0; i < ARRAY_SIZE(want); i++) {
        CHECK_STR(sample_table[i].name, want[i].name);
        CHECK_EQ(sample_table[i].offset, want[i].offset);
        CHECK_EQ(sample_table[i].count, want[i].count);
        CHECK_EQ(sample_table[i].stride, 0);
        CHECK_EQ(sample_table[i].flags, 0);
        CHECK_EQ(sample_table[i].nfields, want[i].nfields);
    }
    const cg_def_field *f = sample_table[1].fields;
    CHECK_STR(f[0].name, "FORMAT");
    CHECK_EQ(f[0].hi, 7);
    CHECK_EQ(f[0].lo, 0);
    CHECK_STR(f[1].name, "ENABLE");
    CHECK_EQ(f[1].hi, 8);
    CHECK_EQ(f[1].lo, 8);
    CHECK_STR(f[2].name, "SAMPLES");
    CHECK_EQ(f[2].hi, 12);
    CHECK_EQ(f[2].lo, 10);
    f = sample_table[2].fields;
    CHECK_STR(f[0].name, "VALUE");
    CHECK_EQ(f[0].hi, 31);
    CHECK_EQ(f[0].lo, 0);
    f = sample_table[3].fields;
    CHECK_STR(f[0].name, "MIN");
    CHECK_STR(f[1].name, "MAX");
    CHECK_EQ(f[1].hi, 31);
    CHECK_EQ(f[1].lo, 16);
    CHECK_EQ(SAMPLE_SCISSOR, 0x08);
    CHECK_EQ(SAMPLE_FLUSH, 0x10);

    /* No report buffer: only the count. */
    CHECK_EQ(cg_def_check("sample", sample_table, ARRAY_SIZE(sample_table), NULL, 0), 0);
}

/* ---- hand-made tables ---- */

/* Run the checker and compare the count and the whole report. */
static void expect(int line, const char *table, const cg_def_entry *e, size_t n, uint32_t unit,
                   int want_count, const char *want_report)
{
    char report[2048];
    memset(report, 'x', sizeof(report));
    int got = cg_def_check_unit(table, e, n, unit, report, sizeof(report));
    check_count++;
    if (got != want_count || strcmp(report, want_report) != 0) {
        check_failures++;
        fprintf(stderr, "%s:%d: table %s: got %d problems, want %d\n--- got:\n%s--- want:\n%s---\n",
                __FILE__, line, table, got, want_count, report, want_report);
    }
    /* Without a buffer the count is the same. */
    CHECK_EQ(cg_def_check_unit(table, e, n, unit, NULL, 0), want_count);
}

#define EXPECT(table, e, unit, count, text) expect(__LINE__, table, e, ARRAY_SIZE(e), unit, count, text)

/* Shorthand for entries without fields. */
#define E(name, offset, count, stride, flags) {name, offset, count, stride, flags, NULL, 0}

static void test_duplicates(void)
{
    const cg_def_entry t[] = {
        E("B", 0, 1, 0, 0), E("A", 1, 1, 0, 0), E("C", 2, 1, 0, 0),
        E("A", 3, 1, 0, 0), E("B", 4, 1, 0, 0), E("A", 5, 1, 0, 0),
    };
    EXPECT("dup", t, 1, 3,
           "dup: duplicate name 'A'\n"
           "dup: duplicate name 'A'\n"
           "dup: duplicate name 'B'\n");
}

static void test_overlaps(void)
{
    /* The example from def.h. */
    const cg_def_entry t1[] = {E("A", 0x10, 8, 0, 0), E("B", 0x14, 4, 0, 0)};
    EXPECT("t", t1, 1, 1, "t: 'A' [0x10,0x18) overlaps 'B' [0x14,0x18)\n");

    /* Listed in reverse: still reported in offset order. */
    const cg_def_entry t2[] = {E("B", 0x14, 4, 0, 0), E("A", 0x10, 8, 0, 0)};
    EXPECT("t", t2, 1, 1, "t: 'A' [0x10,0x18) overlaps 'B' [0x14,0x18)\n");

    /* Touching is not overlapping. */
    const cg_def_entry t3[] = {E("A", 0, 4, 0, 0), E("B", 4, 4, 0, 0), E("C", 8, 1, 0, 0)};
    EXPECT("t", t3, 1, 0, "");

    /* An alias may share; the others are still checked against each other. */
    const cg_def_entry t4[] = {E("A", 0x10, 8, 0, 0), E("B", 0x14, 4, 0, CG_DEF_ALIAS),
                               E("C", 0x17, 2, 0, 0)};
    EXPECT("t", t4, 1, 1, "t: 'A' [0x10,0x18) overlaps 'C' [0x17,0x19)\n");

    /* Three entries on one unit: every pair, once each, in offset order; a
     * long array over all of them. */
    const cg_def_entry t5[] = {E("X", 5, 1, 0, 0), E("Y", 5, 1, 0, 0), E("BIG", 0, 100, 0, 0),
                               E("Z", 5, 1, 0, 0)};
    EXPECT("t", t5, 1, 6,
           "t: 'BIG' [0x0,0x64) overlaps 'X' [0x5,0x6)\n"
           "t: 'BIG' [0x0,0x64) overlaps 'Y' [0x5,0x6)\n"
           "t: 'X' [0x5,0x6) overlaps 'Y' [0x5,0x6)\n"
           "t: 'BIG' [0x0,0x64) overlaps 'Z' [0x5,0x6)\n"
           "t: 'X' [0x5,0x6) overlaps 'Z' [0x5,0x6)\n"
           "t: 'Y' [0x5,0x6) overlaps 'Z' [0x5,0x6)\n");

    /* Strided arrays, unit 1: evens and odds interleave cleanly; a single
     * entry in a gap is fine, one on an element is not. */
    const cg_def_entry t6[] = {E("EVEN", 0, 8, 2, 0), E("ODD", 1, 8, 2, 0),
                               E("PAST", 0x10, 1, 0, 0), E("SPARSE", 0x20, 4, 4, 0),
                               E("GAP", 0x21, 3, 0, 0), E("HIT", 0x2c, 1, 0, 0)};
    EXPECT("t", t6, 1, 1, "t: 'SPARSE' [0x20,0x2d) overlaps 'HIT' [0x2c,0x2d)\n");

}

static void test_overlaps_strided_meet(void)
{
    /* {0,4,8} and {2,8} share unit 8. */
    const cg_def_entry t[] = {E("S4", 0, 3, 4, 0), E("S6", 2, 2, 6, 0)};
    EXPECT("t", t, 1, 1, "t: 'S4' [0x0,0x9) overlaps 'S6' [0x2,0x9)\n");
    /* {1,6,11} and {0,3,6,9} share unit 6. */
    const cg_def_entry u[] = {E("S5", 1, 3, 5, 0), E("S3", 0, 4, 3, 0)};
    EXPECT("t", u, 1, 1, "t: 'S3' [0x0,0xa) overlaps 'S5' [0x1,0xc)\n");
    /* {1,6,11} and {0,2,4,6,8,10} share unit 6. */
    const cg_def_entry v[] = {E("S5", 1, 3, 5, 0), E("EVEN", 0, 6, 2, 0)};
    EXPECT("t", v, 1, 1, "t: 'EVEN' [0x0,0xb) overlaps 'S5' [0x1,0xc)\n");
    /* {1,11,21} and {0,2,...,22}: crossing spans, no common unit. */
    const cg_def_entry w[] = {E("S10", 1, 3, 10, 0), E("EVEN", 0, 12, 2, 0)};
    EXPECT("t", w, 1, 0, "");
}

/* NV-style: byte offsets, 4-byte methods, arrays with byte strides. */
static void test_unit4(void)
{
    const cg_def_entry nv[] = {
        E("NOP", 0x100, 1, 0, 0),
        E("SET_OBJECT", 0x000, 1, 0, 0),
        E("CT_A", 0x800, 8, 64, 0), /* SET_COLOR_TARGET_A(j): 0x800 + j*64 */
        E("CT_B", 0x804, 8, 64, 0),
        E("CT_FORMAT", 0x808, 8, 64, 0),
        E("CONST", 0x2000, 16, 0, 0), /* dense: 0x2000..0x203c */
        E("CONST_0", 0x2000, 1, 0, CG_DEF_ALIAS),
        E("AFTER", 0x2040, 1, 0, 0),
    };
    EXPECT("nv", nv, 4, 0, "");

    /* A method inside an array's element, one in its gap, one past it. */
    const cg_def_entry bad[] = {
        E("CT_A", 0x800, 8, 64, 0),
        E("IN_GAP", 0x81c, 1, 0, 0),
        E("ON_ELEMENT", 0x840, 1, 0, 0),
        E("PAST", 0x9c4, 1, 0, 0),
    };
    EXPECT("nv", bad, 4, 1, "nv: 'CT_A' [0x800,0x9c4) overlaps 'ON_ELEMENT' [0x840,0x844)\n");

    /* Misaligned offsets and strides; a misaligned method still overlaps the
     * aligned one whose bytes it shares. */
    const cg_def_entry mis[] = {
        E("OK", 0x10, 1, 0, 0),
        E("ODD", 0x12, 1, 0, 0),
        E("STRIDE", 0x20, 2, 6, 0),
    };
    EXPECT("nv", mis, 4, 3,
           "nv: 'ODD' offset 0x12 not a multiple of 4\n"
           "nv: 'STRIDE' stride 6 not a multiple of 4\n"
           "nv: 'OK' [0x10,0x14) overlaps 'ODD' [0x12,0x16)\n");
    /* Adjacent 4-byte methods do not overlap. */
    const cg_def_entry adj[] = {E("A", 0x10, 1, 0, 0), E("B", 0x14, 2, 0, 0), E("C", 0x1c, 1, 0, 0)};
    EXPECT("nv", adj, 4, 0, "");
}

static void test_entry_problems(void)
{
    const cg_def_entry t[] = {
        E("", 0, 1, 0, 0),
        E(NULL, 1, 1, 0, 0),
        E("ZERO", 2, 0, 0, 0),
        E("HUGE", 0xfffffff0, 0x10, 4, 0), /* ends at 0xfffffff0 + 15*4 + 1 */
        E("END", 0xffffffff, 1, 0, 0),     /* the very last unit: fine */
        E("WIDE", 0, 0x80000000, 2, 0),    /* every even unit up to 0xfffffffe */
        {"NOFIELDS", 0x100000, 1, 0, 0, NULL, 3},
    };
    /* WIDE holds units 0 (entry #0's) and 0x100000 (NOFIELDS'), not 1. */
    EXPECT("e", t, 1, 7,
           "e: entry #0 with empty name\n"
           "e: entry #1 with empty name\n"
           "e: 'ZERO' count 0\n"
           "e: 'HUGE' [0xfffffff0,0x10000002d) runs past 0xffffffff\n"
           "e: 'NOFIELDS' has 3 fields but no field array\n"
           "e: entry #0 [0x0,0x1) overlaps 'WIDE' [0x0,0xffffffff)\n"
           "e: 'WIDE' [0x0,0xffffffff) overlaps 'NOFIELDS' [0x100000,0x100001)\n");
}

static void test_field_problems(void)
{
    static const cg_def_field f1[] = {
        {"LOW", 7, 0},  {"HIGH", 31, 24}, {"BAD", 35, 30}, {"BACK", 3, 7}, {"MID", 8, 4},
        {"LOW", 9, 9},  {"", 10, 10},     {NULL, 40, 1},   {"ALL", 31, 0}, {"TOP", 31, 31},
    };
    const cg_def_entry t[] = {
        {"REG", 0, 1, 0, 0, f1, ARRAY_SIZE(f1)},
        {"", 1, 1, 0, 0, f1 + 2, 1},
    };
    EXPECT("f", t, 1, 16,
           "f: 'REG' field 'BAD' bits 35:30 out of range\n"
           "f: 'REG' field 'BACK' hi < lo\n"
           "f: 'REG' fields 'LOW' and 'MID' overlap\n"
           "f: 'REG' duplicate field 'LOW'\n"
           "f: 'REG' field #6 with empty name\n"
           "f: 'REG' field #7 with empty name\n"
           "f: 'REG' field #7 bits 40:1 out of range\n"
           "f: 'REG' fields 'LOW' and 'ALL' overlap\n"
           "f: 'REG' fields 'HIGH' and 'ALL' overlap\n"
           "f: 'REG' fields 'MID' and 'ALL' overlap\n"
           "f: 'REG' fields 'LOW' and 'ALL' overlap\n"
           "f: 'REG' fields #6 and 'ALL' overlap\n"
           "f: 'REG' fields 'HIGH' and 'TOP' overlap\n"
           "f: 'REG' fields 'ALL' and 'TOP' overlap\n"
           "f: entry #1 with empty name\n"
           "f: entry #1 field 'BAD' bits 35:30 out of range\n");

    /* Clean fields: adjacent ranges, single bits, the full word. */
    static const cg_def_field ok[] = {{"A", 0, 0}, {"B", 15, 1}, {"C", 16, 16}, {"D", 31, 17}};
    static const cg_def_field word[] = {{"VALUE", 31, 0}};
    const cg_def_entry t2[] = {{"R", 0, 1, 0, 0, ok, ARRAY_SIZE(ok)},
                               {"S", 1, 1, 0, 0, word, 1}};
    EXPECT("f", t2, 1, 0, "");
}

/* All kinds at once: the order is per entry, then names, then overlaps. */
static void test_mixed(void)
{
    static const cg_def_field f[] = {{"X", 3, 0}, {"Y", 2, 2}};
    const cg_def_entry t[] = {
        E("B", 4, 4, 0, 0),
        {"A", 0, 6, 0, 0, f, 2},
        E("B", 9, 0, 0, 0),
    };
    EXPECT("mix", t, 1, 4,
           "mix: 'A' fields 'X' and 'Y' overlap\n"
           "mix: 'B' count 0\n"
           "mix: duplicate name 'B'\n"
           "mix: 'A' [0x0,0x6) overlaps 'B' [0x4,0x8)\n");
}

static void test_report_buffer(void)
{
    const cg_def_entry t[] = {E("AAAA", 0, 2, 0, 0), E("BBBB", 1, 1, 0, 0), E("CCCC", 1, 1, 0, 0)};
    const char *full = "r: 'AAAA' [0x0,0x2) overlaps 'BBBB' [0x1,0x2)\n"
                       "r: 'AAAA' [0x0,0x2) overlaps 'CCCC' [0x1,0x2)\n"
                       "r: 'BBBB' [0x1,0x2) overlaps 'CCCC' [0x1,0x2)\n";
    EXPECT("r", t, 1, 3, full);
    /* Cut at every size: always terminated, a prefix of the full report, and
     * the count unchanged. */
    for (size_t cap = 1; cap <= strlen(full) + 1; cap++) {
        char buf[256];
        memset(buf, '#', sizeof(buf));
        CHECK_EQ(cg_def_check("r", t, ARRAY_SIZE(t), buf, cap), 3);
        CHECK_EQ(strlen(buf), cap - 1);
        CHECK(strncmp(buf, full, cap - 1) == 0);
        CHECK_EQ(buf[cap], '#');
    }

    /* A name longer than any internal line buffer. */
    char longname[700];
    memset(longname, 'N', sizeof(longname) - 1);
    longname[sizeof(longname) - 1] = 0;
    const cg_def_entry dup[] = {E(longname, 0, 1, 0, 0), E(longname, 1, 1, 0, 0)};
    char want[800], got[800];
    snprintf(want, sizeof(want), "d: duplicate name '%s'\n", longname);
    CHECK_EQ(cg_def_check("d", dup, 2, got, sizeof(got)), 1);
    CHECK_STR(got, want);

    /* Bad arguments, an empty table, no table name. */
    char buf[64] = "junk";
    CHECK_EQ(cg_def_check_unit("x", t, ARRAY_SIZE(t), 0, buf, sizeof(buf)), CG_ERR_INVAL);
    CHECK_EQ(cg_def_check("x", NULL, 1, buf, sizeof(buf)), CG_ERR_INVAL);
    CHECK_EQ(cg_def_check("x", t, ARRAY_SIZE(t), NULL, 10), CG_ERR_INVAL);
    CHECK_EQ(cg_def_check("x", NULL, 0, buf, sizeof(buf)), 0);
    CHECK_STR(buf, "");
    const cg_def_entry one[] = {E("A", 0, 0, 0, 0)};
    CHECK_EQ(cg_def_check(NULL, one, 1, buf, sizeof(buf)), 1);
    CHECK_STR(buf, "?: 'A' count 0\n");
}

int main(void)
{
    test_sample_table();
    test_duplicates();
    test_overlaps();
    test_overlaps_strided_meet();
    test_unit4();
    test_entry_problems();
    test_field_problems();
    test_mixed();
    test_report_buffer();
    return check_report("test_def");
}
