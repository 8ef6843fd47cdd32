/* radeon family: one generation's register table, built from its generated
 * regs_<gen>.def (scripts/radeon_reg_tables.py). Included by defs.c once per
 * generation with RD_GEN (a token: r600, evergreen) and RD_DEF (the .def
 * file name) defined; defines rd_table_<RD_GEN>.
 *
 * Passes: (1) the field-array struct, (2) its object, (3) the entries, (4) an
 * enum giving every field a number (RFB_<gen>_<REG> is the number of the
 * register's first field), (5) each entry's first field number, (6) the enum
 * values {field number, value, name}, in field-number order. */
#define RD_P2_(a, b) a##b
#define RD_P2(a, b) RD_P2_(a, b)
#define RD_P3_(a, b, c) a##b##c
#define RD_P3(a, b, c) RD_P3_(a, b, c)

#define R(name, off, cnt, stride, flags, ipos) CG_DEF_TYPE_M(name)
#define RF(reg, f, hi, lo) CG_DEF_TYPE_F
#define RV(reg, f, v, val)
CG_DEF_TYPE_BEGIN(RD_P2(rd_fields_, RD_GEN))
#include RD_DEF
CG_DEF_TYPE_END(RD_P2(rd_fields_, RD_GEN));
#undef R
#undef RF

#define R(name, off, cnt, stride, flags, ipos) CG_DEF_INIT_M
#define RF(reg, f, hi, lo) CG_DEF_INIT_F(f, hi, lo)
static const struct RD_P2(rd_fields_, RD_GEN) RD_P2(rd_fields_obj_, RD_GEN) = CG_DEF_INIT_BEGIN
#include RD_DEF
CG_DEF_INIT_END;
#undef R
#undef RF

/* CG_DEF_ENTRY's sizeof((obj).name) makes GCC fold the whole initializer of
 * obj for each entry (quadratic: 13 s and 2.7 GB for 1,600 entries); the
 * field count is taken from the type instead. */
#define RD_NFIELDS(name) (sizeof(((const struct RD_P2(rd_fields_, RD_GEN) *)0)->name) / sizeof(cg_def_field) - 1)
#define R(name, off, cnt, stride, flags, ipos)                                                        \
    {#name, off, cnt, stride, (flags) | ((ipos) << RD_IPOS_SHIFT), RD_P2(rd_fields_obj_, RD_GEN).name + 1, \
     RD_NFIELDS(name)},
#define RF(reg, f, hi, lo)
static const cg_def_entry RD_P2(rd_entries_, RD_GEN)[] = {
#include RD_DEF
};
#undef R
#undef RF
#undef RD_NFIELDS

#define R(name, off, cnt, stride, flags, ipos) \
    RD_P3(RFB_, RD_GEN, name), RD_P3(RFP_, RD_GEN, name) = RD_P3(RFB_, RD_GEN, name) - 1,
#define RF(reg, f, hi, lo) RD_P3(RFID_, RD_GEN, reg##__##f),
enum {
#include RD_DEF
    RD_P2(RFID_COUNT_, RD_GEN)
};
#undef R
#undef RF
_Static_assert(RD_P2(RFID_COUNT_, RD_GEN) < 65536, "field numbers fit rd_regtab.first_field");

#define R(name, off, cnt, stride, flags, ipos) (uint16_t)RD_P3(RFB_, RD_GEN, name),
#define RF(reg, f, hi, lo)
static const uint16_t RD_P2(rd_first_field_, RD_GEN)[] = {
#include RD_DEF
};
#undef R
#undef RF
#undef RV

#define R(name, off, cnt, stride, flags, ipos)
#define RF(reg, f, hi, lo)
#define RV(reg, f, v, val) {RD_P3(RFID_, RD_GEN, reg##__##f), val, #v},
static const rd_enum_val RD_P2(rd_vals_, RD_GEN)[] = {
#include RD_DEF
};
#undef R
#undef RF
#undef RV

static const rd_regtab RD_P2(rd_table_, RD_GEN) = {
    RD_P2(rd_entries_, RD_GEN), CG_ARRAY_SIZE(RD_P2(rd_entries_, RD_GEN)),
    RD_P2(rd_first_field_, RD_GEN), RD_P2(rd_vals_, RD_GEN), CG_ARRAY_SIZE(RD_P2(rd_vals_, RD_GEN)),
};

#undef RD_P2_
#undef RD_P2
#undef RD_P3_
#undef RD_P3
