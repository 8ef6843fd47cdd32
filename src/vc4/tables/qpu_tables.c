/* VideoCore IV QPU: lookup tables stamped out of qpu.def. */
#include "vc4/qpu.h"
#include <stdbool.h>

#define T_I VC4_QPU_T_I
#define T_F VC4_QPU_T_F
#define T_FI VC4_QPU_T_FI
#define T_IF VC4_QPU_T_IF

const vc4_qpu_codeinfo vc4_qpu_sigs[16] = {
#define QPU_SIG(code, name, as) [code] = {#name, as},
#include "qpu.def"
};
const vc4_qpu_codeinfo vc4_qpu_conds[8] = {
#define QPU_COND(code, name, as) [code] = {#name, as},
#include "qpu.def"
};
const vc4_qpu_codeinfo vc4_qpu_bconds[16] = {
#define QPU_BCOND(code, name, as) [code] = {#name, as},
#include "qpu.def"
};
const vc4_qpu_codeinfo vc4_qpu_packa[16] = {
#define QPU_PACKA(code, name, as) [code] = {#name, as},
#include "qpu.def"
};
const vc4_qpu_codeinfo vc4_qpu_packm[16] = {
#define QPU_PACKM(code, name, as) [code] = {#name, as},
#include "qpu.def"
};
const vc4_qpu_codeinfo vc4_qpu_unpacks[8] = {
#define QPU_UNPACK(code, name, as) [code] = {#name, as},
#include "qpu.def"
};
const vc4_qpu_codeinfo vc4_qpu_ldis[8] = {
#define QPU_LDI(code, name, as) [code] = {#name, as},
#include "qpu.def"
};
const vc4_qpu_opinfo vc4_qpu_add_ops[32] = {
#define QPU_ADD(code, name, as, n, t) [code] = {#name, as, n, T_##t},
#include "qpu.def"
};
const vc4_qpu_opinfo vc4_qpu_mul_ops[8] = {
#define QPU_MUL(code, name, as, t) [code] = {#name, as, 2, T_##t},
#include "qpu.def"
};
const vc4_qpu_reginfo vc4_qpu_raddrs[64] = {
#define QPU_RADDR(code, na, aa, nb, ab, ka, kb) \
    [code] = {{#na, #nb}, {aa, ab}, {VC4_QPU_IO_##ka, VC4_QPU_IO_##kb}},
#include "qpu.def"
};
const vc4_qpu_reginfo vc4_qpu_waddrs[64] = {
#define QPU_WADDR(code, na, aa, nb, ab, ka, kb) \
    [code] = {{#na, #nb}, {aa, ab}, {VC4_QPU_IO_##ka, VC4_QPU_IO_##kb}},
#include "qpu.def"
};
const uint32_t vc4_qpu_smallimm_bits[64] = {
#define QPU_SMALLIMM(code, bits, as) [code] = bits,
#include "qpu.def"
};
const char *const vc4_qpu_smallimm_as[64] = {
#define QPU_SMALLIMM(code, bits, as) [code] = as,
#include "qpu.def"
};

/* ---- name lookups (primary spellings, then QPU_ALIAS rows) ---- */

#include <string.h>

typedef struct qpu_alias {
    uint8_t set, code;
    const char *as;
} qpu_alias;
static const qpu_alias aliases[] = {
#define QPU_ALIAS(set, code, as) {CG_VC4_QPU_SET_##set, code, as},
#include "qpu.def"
};

/* Entry `code` of a name set: its guide name or its spelling. */
static const char *set_name(int set, uint32_t code, bool guide)
{
#define CI(t, n) (code < (n) ? (guide ? t[code].name : t[code].as) : NULL)
#define RI(t, f)                                                              \
    (code >= 32 && code < 64 && t[code].name[f]                               \
         ? (guide ? t[code].name[f] : t[code].as[f])                          \
         : NULL)
    switch (set) {
    case CG_VC4_QPU_SET_SIG: return CI(vc4_qpu_sigs, 16);
    case CG_VC4_QPU_SET_ADD: return CI(vc4_qpu_add_ops, 32);
    case CG_VC4_QPU_SET_MUL: return CI(vc4_qpu_mul_ops, 8);
    case CG_VC4_QPU_SET_COND: return CI(vc4_qpu_conds, 8);
    case CG_VC4_QPU_SET_BCOND: return CI(vc4_qpu_bconds, 16);
    case CG_VC4_QPU_SET_PACKA: return CI(vc4_qpu_packa, 16);
    case CG_VC4_QPU_SET_PACKM: return CI(vc4_qpu_packm, 16);
    case CG_VC4_QPU_SET_UNPACK: return CI(vc4_qpu_unpacks, 8);
    case CG_VC4_QPU_SET_LDI: return CI(vc4_qpu_ldis, 8);
    case CG_VC4_QPU_SET_RADDR_A: return RI(vc4_qpu_raddrs, 0);
    case CG_VC4_QPU_SET_RADDR_B: return RI(vc4_qpu_raddrs, 1);
    case CG_VC4_QPU_SET_WADDR_A: return RI(vc4_qpu_waddrs, 0);
    case CG_VC4_QPU_SET_WADDR_B: return RI(vc4_qpu_waddrs, 1);
    }
#undef CI
#undef RI
    return NULL;
}

const char *vc4_qpu_spelling(int set, uint32_t code) { return set_name(set, code, false); }

const char *cg_vc4_qpu_name(cg_vc4_qpu_set set, uint32_t code)
{
    return set_name((int)set, code, false);
}

const char *cg_vc4_qpu_guide_name(cg_vc4_qpu_set set, uint32_t code)
{
    return set_name((int)set, code, true);
}

int cg_vc4_qpu_lookup(cg_vc4_qpu_set set, const char *name)
{
    return vc4_qpu_lookup((int)set, name);
}

int vc4_qpu_lookup(int set, const char *name)
{
    if (set < 0 || set >= CG_VC4_QPU_NSETS || !name || !name[0])
        return -1;
    for (uint32_t c = 0; c < 64; c++) { /* set_name bounds each table */
        const char *sp = vc4_qpu_spelling(set, c);
        if (sp && strcmp(sp, name) == 0)
            return (int)c;
    }
    for (size_t i = 0; i < sizeof aliases / sizeof aliases[0]; i++)
        if (aliases[i].set == set && strcmp(aliases[i].as, name) == 0)
            return aliases[i].code;
    return -1;
}

/* ---- cg_def views for the table test ---- */

/* Instruction fields: one entry per encoding class, fields of the high word
 * (hi-32:lo-32) or, for imm, of the low word (a second entry). */
#define FHI(hi, lo) ((hi) >= 32 ? (hi) - 32 : (hi)), ((lo) >= 32 ? (lo) - 32 : (lo))
#define QPU_FIELD(cls, name, hi, lo) CG_DEF_FIELD_##cls(name, hi, lo)
#define CG_DEF_FIELD_ALU(name, hi, lo) , {#name, FHI(hi, lo)}
#define CG_DEF_FIELD_LDI(name, hi, lo)
#define CG_DEF_FIELD_BRANCH(name, hi, lo)
static const cg_def_field fields_alu_all[] = {{NULL, 0, 0}
#include "qpu.def"
};
#undef CG_DEF_FIELD_ALU
#undef CG_DEF_FIELD_LDI
#define CG_DEF_FIELD_ALU(name, hi, lo)
#define CG_DEF_FIELD_LDI(name, hi, lo) , {#name, FHI(hi, lo)}
#define QPU_FIELD(cls, name, hi, lo) CG_DEF_FIELD_##cls(name, hi, lo)
static const cg_def_field fields_ldi_all[] = {{NULL, 0, 0}
#include "qpu.def"
};
#undef CG_DEF_FIELD_LDI
#undef CG_DEF_FIELD_BRANCH
#define CG_DEF_FIELD_LDI(name, hi, lo)
#define CG_DEF_FIELD_BRANCH(name, hi, lo) , {#name, FHI(hi, lo)}
#define QPU_FIELD(cls, name, hi, lo) CG_DEF_FIELD_##cls(name, hi, lo)
static const cg_def_field fields_br_all[] = {{NULL, 0, 0}
#include "qpu.def"
};
#undef CG_DEF_FIELD_ALU
#undef CG_DEF_FIELD_LDI
#undef CG_DEF_FIELD_BRANCH

/* ALU: 0 = high word (sig..waddr_mul, 10 fields), 1 = low word (8 fields).
 * LDI / BRANCH: high word fields then imm (low word). */
static const cg_def_entry field_defs[] = {
    {"ALU_HI", 0, 1, 0, 0, fields_alu_all + 1, 10},
    {"ALU_LO", 1, 1, 0, 0, fields_alu_all + 11, 8},
    {"LDI_HI", 2, 1, 0, 0, fields_ldi_all + 1, 10},
    {"LDI_LO", 3, 1, 0, 0, fields_ldi_all + 11, 1},
    {"BRANCH_HI", 4, 1, 0, 0, fields_br_all + 1, 9},
    {"BRANCH_LO", 5, 1, 0, 0, fields_br_all + 10, 1},
};
_Static_assert(sizeof(fields_alu_all) / sizeof(fields_alu_all[0]) == 19, "ALU fields");
_Static_assert(sizeof(fields_ldi_all) / sizeof(fields_ldi_all[0]) == 12, "LDI fields");
_Static_assert(sizeof(fields_br_all) / sizeof(fields_br_all[0]) == 11, "BRANCH fields");

#define E(name, code) CG_DEF_ENTRY_NOFIELDS(name, code, 1, 0, 0),
static const cg_def_entry sig_defs[] = {
#define QPU_SIG(code, name, as) E(name, code)
#include "qpu.def"
};
static const cg_def_entry add_defs[] = {
#define QPU_ADD(code, name, as, n, t) E(name, code)
#include "qpu.def"
};
static const cg_def_entry mul_defs[] = {
#define QPU_MUL(code, name, as, t) E(name, code)
#include "qpu.def"
};
static const cg_def_entry cond_defs[] = {
#define QPU_COND(code, name, as) E(name, code)
#include "qpu.def"
};
static const cg_def_entry bcond_defs[] = {
#define QPU_BCOND(code, name, as) E(name, code)
#include "qpu.def"
};
static const cg_def_entry packa_defs[] = {
#define QPU_PACKA(code, name, as) E(name, code)
#include "qpu.def"
};
static const cg_def_entry packm_defs[] = {
#define QPU_PACKM(code, name, as) E(name, code)
#include "qpu.def"
};
static const cg_def_entry unpack_defs[] = {
#define QPU_UNPACK(code, name, as) E(name, code)
#include "qpu.def"
};
static const cg_def_entry ldi_defs[] = {
#define QPU_LDI(code, name, as) E(name, code)
#include "qpu.def"
};
static const cg_def_entry raddr_a_defs[] = {
#define QPU_RADDR(code, na, aa, nb, ab, ka, kb) E(na, code)
#include "qpu.def"
};
static const cg_def_entry raddr_b_defs[] = {
#define QPU_RADDR(code, na, aa, nb, ab, ka, kb) E(nb, code)
#include "qpu.def"
};
static const cg_def_entry waddr_a_defs[] = {
#define QPU_WADDR(code, na, aa, nb, ab, ka, kb) E(na, code)
#include "qpu.def"
};
static const cg_def_entry waddr_b_defs[] = {
#define QPU_WADDR(code, na, aa, nb, ab, ka, kb) E(nb, code)
#include "qpu.def"
};
static const cg_def_entry smallimm_defs[] = {
#define QPU_SMALLIMM(code, bits, as) CG_DEF_ENTRY_NOFIELDS(as, code, 1, 0, 0),
#include "qpu.def"
};
#undef E

const cg_def_entry *vc4_qpu_def_table(int which, size_t *n, const char **name)
{
#define T(arr, nm)                                   \
    do {                                             \
        *n = sizeof(arr) / sizeof(arr[0]);           \
        if (name)                                    \
            *name = nm;                              \
        return arr;                                  \
    } while (0)
    switch (which) {
    case 0: T(field_defs, "qpu_fields");
    case 1: T(sig_defs, "qpu_sig");
    case 2: T(add_defs, "qpu_add");
    case 3: T(mul_defs, "qpu_mul");
    case 4: T(cond_defs, "qpu_cond");
    case 5: T(bcond_defs, "qpu_bcond");
    case 6: T(packa_defs, "qpu_pack_a");
    case 7: T(packm_defs, "qpu_pack_mul");
    case 8: T(unpack_defs, "qpu_unpack");
    case 9: T(ldi_defs, "qpu_ldi");
    case 10: T(raddr_a_defs, "qpu_raddr_a");
    case 11: T(raddr_b_defs, "qpu_raddr_b");
    case 12: T(waddr_a_defs, "qpu_waddr_a");
    case 13: T(waddr_b_defs, "qpu_waddr_b");
    case 14: T(smallimm_defs, "qpu_smallimm");
    }
#undef T
    *n = 0;
    if (name)
        *name = NULL;
    return NULL;
}
