/* radeon family: the R600/R700 shader instruction set (tables/r600_isa.def),
 * stamped into lookups by tables/isa.c. The decoder, the encoder and an
 * executor's dispatch use these; the text tools (text/isa_text.c,
 * text/isa_asm.c) add the syntax of docs/radeon-isa.md.
 *
 * An instruction is 2 (CF, ALU) or 4 (TEX, VTX) 32-bit little-endian words.
 * Every field an instruction has comes from the .def's R6_FIELD rows of the
 * forms of its class; bits no field covers are reserved. */
#ifndef CMDGPU_RADEON_ISA_H
#define CMDGPU_RADEON_ISA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum r6_chip { R6_R600 = 0, R6_R700 = 1 } r6_chip;

#define R6_NONE (-1)
#define R6_C600 1
#define R6_C700 2
#define R6_CBOTH 3

/* Word layouts (the FORM column). */
#define R6_FORMS(X)                                                                            \
    X(CF_W0) X(CF_W1) X(CFA_W0) X(CFA_W1) X(EXP_W0) X(EXP_W1) X(EXP_SWIZ) X(EXP_BUF)           \
    X(ALU_W0) X(ALU_W1) X(ALU_OP2) X(ALU_OP3) X(VTX_W0) X(VTX_W1) X(VTX_GPR) X(VTX_SEM)        \
    X(VTX_W2) X(TEX_W0) X(TEX_W1) X(TEX_W2)
typedef enum r6_form {
#define R6_FORM_ENUM(f) R6_FORM_##f,
    R6_FORMS(R6_FORM_ENUM)
#undef R6_FORM_ENUM
    R6_NFORMS
} r6_form;

/* One field id per (FORM, NAME) row: R6F_<FORM>_<NAME>. */
typedef enum r6_fid {
#define R6_FIELD(form, word, name, hi, lo, chips, dflt, sh) R6F_##form##_##name,
#define R6_FIELD2(form, word, name, hi6, lo6, hi7, lo7, dflt, sh) R6F_##form##_##name,
#include "radeon/tables/r600_isa.def"
#undef R6_FIELD
#undef R6_FIELD2
    R6_NFIELDS
} r6_fid;

typedef struct r6_field {
    const char *name;  /* the vendor's name */
    const char *sh;    /* the text's name for it as an extra ("" = printed by the syntax) */
    uint8_t form, word, chips;
    uint8_t hi[2], lo[2]; /* [chip] */
    uint32_t dflt;
} r6_field;

extern const r6_field r6_fields[R6_NFIELDS];

/* Named values of fields (R6_ENUM rows). */
typedef struct r6_enum {
    uint16_t fid;   /* r6_fid */
    uint16_t value;
    const char *token;
} r6_enum;
extern const r6_enum r6_enums[];
extern const size_t r6_nenums;
/* The token of a field's value, NULL if none. */
const char *r6_enum_token(r6_fid f, uint32_t value);

/* Instruction classes: how many words and which forms. */
typedef enum r6_class {
    R6_CLS_CF,       /* CF_W0 CF_W1 */
    R6_CLS_CF_ALU,   /* CFA_W0 CFA_W1 */
    R6_CLS_CF_EXP,   /* EXP_W0 EXP_W1 + EXP_SWIZ (EXPORT*) or EXP_BUF (MEM_*) */
    R6_CLS_ALU_OP2,  /* ALU_W0 ALU_W1 ALU_OP2 */
    R6_CLS_ALU_OP3,  /* ALU_W0 ALU_W1 ALU_OP3 */
    R6_CLS_VTX,      /* VTX_W0 VTX_W1 (VTX_GPR or VTX_SEM) VTX_W2 */
    R6_CLS_TEX,      /* TEX_W0 TEX_W1 TEX_W2 */
} r6_class;

/* What an executor does (the KIND column): one handler per kind. */
#define R6_KINDS(X)                                                                            \
    X(NOP) X(CLAUSE_ALU) X(CLAUSE_TEX) X(CLAUSE_VTX) X(LOOP_START) X(LOOP_END)                 \
    X(LOOP_CONTINUE) X(LOOP_BREAK) X(JUMP) X(PUSH) X(ELSE) X(POP) X(CALL) X(CALL_FS)           \
    X(RETURN) X(EMIT) X(KILL) X(WAIT_ACK) X(MEM) X(EXPORT)                                      \
    X(FLOAT) X(INT) X(CVT) X(SET) X(PRED) X(PRED_PUSH) X(CMOV) X(MOVA) X(REDUCE) X(F64)       \
    X(VFETCH) X(SEMFETCH) X(LD) X(QUERY) X(GRAD_GET) X(GRAD_SET) X(PASS) X(SET_CUBE) X(SAMPLE)
typedef enum r6_kind {
#define R6_KIND_ENUM(k) R6K_##k,
    R6_KINDS(R6_KIND_ENUM)
#undef R6_KIND_ENUM
    R6_NKINDS
} r6_kind;

/* Slots (ALU rows). */
enum { R6_SLOT_V = 1, R6_SLOT_S = 2, R6_SLOT_VS = 3, R6_SLOT_V4 = 5 };

/* ALU flags. */
enum {
    R6_F_IEEE = 1u << 0, R6_F_DX10 = 1u << 1, R6_F_INT_DST = 1u << 2, R6_F_UINT_DST = 1u << 3,
    R6_F_INT_CMP = 1u << 4, R6_F_UINT_CMP = 1u << 5, R6_F_REPL = 1u << 6,
    R6_F_CC_E = 1u << 8, R6_F_CC_GT = 2u << 8, R6_F_CC_GE = 3u << 8, R6_F_CC_NE = 4u << 8,
    R6_F_CC_LT = 5u << 8, R6_F_CC_LE = 6u << 8, R6_F_CC_MASK = 7u << 8,
};

/* One id per instruction row: R6OP_<ID>. */
typedef enum r6_opid {
#define R6_CF(id, a, b, k) R6OP_##id,
#define R6_CF_ALU(id, a, b, k) R6OP_##id,
#define R6_CF_EXP(id, a, b, k) R6OP_##id,
#define R6_ALU2(id, op, n, s6, s7, k, f) R6OP_##id,
#define R6_ALU3(id, op, s6, s7, k, f) R6OP_##id,
#define R6_VTX(id, a, b, k) R6OP_##id,
#define R6_TEX(id, a, b, k) R6OP_##id,
#include "radeon/tables/r600_isa.def"
#undef R6_CF
#undef R6_CF_ALU
#undef R6_CF_EXP
#undef R6_ALU2
#undef R6_ALU3
#undef R6_VTX
#undef R6_TEX
    R6_NOPS
} r6_opid;

typedef struct r6_op {
    const char *name;
    uint8_t cls;    /* r6_class */
    uint8_t kind;   /* r6_kind */
    uint8_t nsrc;   /* ALU sources */
    uint8_t slots[2]; /* ALU: R6_SLOT_* per chip (0: absent) */
    int16_t op[2];  /* opcode per chip, R6_NONE if absent */
    uint32_t flags; /* ALU: R6_F_* */
} r6_op;

extern const r6_op r6_ops[R6_NOPS];
/* The fields of an ALU instruction's sources 0..2: SEL, REL, CHAN, NEG,
 * ABS (R6_NFIELDS where source 2, an OP3 source, has none). */
extern const r6_fid r6_alu_src_fields[3][5];

/* ---- fields ---- */
static inline bool r6_field_on(const r6_field *f, r6_chip c)
{
    return (f->chips >> c) & 1;
}
uint32_t r6_get(r6_chip c, const uint32_t *w, r6_fid f);
void r6_set(r6_chip c, uint32_t *w, r6_fid f, uint32_t v);

/* The forms of an instruction (R6_NFORMS-terminated list of at most 5)
 * and its size in words (2 or 4). op may be NULL for the raw layout of the
 * class (CF: the generic CF layout). */
void r6_op_forms(const r6_op *op, uint8_t forms[5]);
unsigned r6_op_words(const r6_op *op);
/* The bits of word i an instruction's fields cover on chip c. */
uint32_t r6_op_mask(const r6_op *op, r6_chip c, unsigned i);
/* Reserved bits clear. */
bool r6_op_clean(const r6_op *op, r6_chip c, const uint32_t *w);

/* ---- decoding: NULL for an opcode the chip does not have ---- */
/* A CF word pair: bit 29 of word 1 set is a CF_ALU instruction. */
const r6_op *r6_decode_cf(r6_chip c, const uint32_t *w);
const r6_op *r6_decode_alu(r6_chip c, const uint32_t *w);
/* in a TEX (tex = true) or VTX clause */
const r6_op *r6_decode_fetch(r6_chip c, bool tex, const uint32_t *w);
/* Set the opcode field(s) of op into w (the other bits untouched). */
void r6_encode_op(const r6_op *op, r6_chip c, uint32_t *w);
/* By name (the .def's ID); NULL if none. */
const r6_op *r6_op_by_name(const char *name);
/* The field of one of the forms with this name or short name; NULL if none. */
const r6_field *r6_field_by_name(const uint8_t forms[5], r6_chip c, const char *name);

/* Opcode-indexed lookups for one chip, for an executor's O(1) decode:
 * entries are an r6_opid + 1 (0: undefined). The caller owns it (no
 * global state); r6_optable_init fills it from r6_ops. */
typedef struct r6_optable {
    r6_chip chip;
    uint16_t cf[128];  /* CF_WORD1 CF_INST (CF and CF_ALLOC_EXPORT rows) */
    uint16_t cfa[16];  /* CF_ALU_WORD1 CF_INST */
    uint16_t op2[256]; /* ALU_WORD1_OP2 ALU_INST (R600: < 0x80, R700: < 0x100) */
    uint16_t op3[32];  /* ALU_WORD1_OP3 ALU_INST */
    uint16_t vtx[32], tex[32];
} r6_optable;
void r6_optable_init(r6_optable *t, r6_chip c);

/* ALU source selects ([R6ISA] "ALU_SRC_*"; [MESA] r600_sq.h). */
enum {
    R6_SRC_GPR_END = 128,   /* 0..127 GPRs (124..127 clause temporaries T0..T3) */
    R6_SRC_KC0 = 128,       /* 128..159 kcache set 0 */
    R6_SRC_KC1 = 160,       /* 160..191 kcache set 1 */
    R6_SRC_0 = 248, R6_SRC_1 = 249, R6_SRC_1_INT = 250, R6_SRC_M_1_INT = 251,
    R6_SRC_0_5 = 252, R6_SRC_LITERAL = 253, R6_SRC_PV = 254, R6_SRC_PS = 255,
    R6_SRC_CFILE = 256      /* 256..511 the constant file C0..C255 */
};

#endif
