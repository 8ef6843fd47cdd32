/* Maxwell shader instructions (SM50/SM52): decoder over the one table
 * src/nv/tables/sass.def, shared by the disassembler/assembler (sass_text.c)
 * and the interpreter (src/nv/gpu/sass_exec*.c, which also takes its
 * dispatch and modifier fields from the table). Syntax and sources:
 * docs/nv-sass.md. */
#ifndef CMDGPU_NV_SASS_INTERNAL_H
#define CMDGPU_NV_SASS_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Form ids: NV_SASS_<ID> in table order; NV_SASS_COUNT forms. */
enum nv_sass_op {
#define NV_SASS(id, mn, handler, value, mask, spec) NV_SASS_##id,
#include "sass.def"
    NV_SASS_COUNT,
    NV_SASS_RAW = -1 /* no form, or reserved bits: the word has no text */
};

/* Modifier fields (sass.def NV_SASS_MODS): NV_SASS_M_RND, NV_SASS_M_SAT, ...
 * Every modifier of a form is one of them; nv_sass_field.mod says which. */
enum nv_sass_mod {
#define NV_SASS_MOD_(name) NV_SASS_M_##name,
    NV_SASS_MODS(NV_SASS_MOD_)
#undef NV_SASS_MOD_
    NV_SASS_M_COUNT,
    NV_SASS_M_NONE = 0xff /* an operand */
};

/* Values of the enumerations the interpreter reads (sass.def SASS_E_*):
 * NV_SASS_<ID> is the value of suffix ID in its list, e.g. NV_SASS_RND_RZ. */
#define NV_SASS_VALUE_(id, sfx) NV_SASS_##id,
#define NV_SASS_ENUM_(list) enum { list(NV_SASS_VALUE_) };
NV_SASS_ENUMS(NV_SASS_ENUM_)
#undef NV_SASS_ENUM_
#undef NV_SASS_VALUE_

typedef struct nv_sass_form {
    const char *mnemonic;
    uint64_t value, mask;
    const char *spec;
} nv_sass_form;
extern const nv_sass_form nv_sass_forms[NV_SASS_COUNT];

/* One field of a form, compiled from its spec string. */
enum nv_sass_kind {
    NV_SASS_K_FLAG,  /* .NAME@b */
    NV_SASS_K_ENUM,  /* .A/B/C@h:l */
    NV_SASS_K_FIXED, /* .NAME, always printed */
    /* operands */
    NV_SASS_K_R, NV_SASS_K_D, NV_SASS_K_P, NV_SASS_K_I, NV_SASS_K_S, NV_SASS_K_F,
    NV_SASS_K_G, NV_SASS_K_T, NV_SASS_K_C, NV_SASS_K_X, NV_SASS_K_M, NV_SASS_K_A,
    NV_SASS_K_Y, NV_SASS_K_Q,
};

#define NV_SASS_MAX_SEGS 3
#define NV_SASS_MAX_FIELDS 24
#define NV_SASS_MAX_NAMES 32

typedef struct nv_sass_bits {
    uint8_t nseg;
    uint8_t lo[NV_SASS_MAX_SEGS], len[NV_SASS_MAX_SEGS]; /* most significant first */
} nv_sass_bits;

typedef struct nv_sass_field {
    uint8_t kind;          /* enum nv_sass_kind */
    uint8_t mod;           /* FLAG/ENUM/FIXED: enum nv_sass_mod; operands NONE */
    bool operand;
    nv_sass_bits bits;     /* the value (for C/X: the offset) */
    nv_sass_bits bank;     /* C/X: the bank */
    int8_t neg, abs, inv, pnot; /* attribute bit, or -1 */
    bool has_def;          /* `=V`: operand left out of the text when all such */
    uint64_t def;          /* operands of the form hold their default V */
    uint8_t nnames;        /* FLAG/ENUM/FIXED: suffix names */
    char names[NV_SASS_MAX_NAMES][16]; /* "" = no suffix, "?" = reserved */
} nv_sass_field;

typedef struct nv_sass_layout {
    bool guard;            /* predicate guard at 19:16 */
    int nfields;
    nv_sass_field f[NV_SASS_MAX_FIELDS];
} nv_sass_layout;

/* Compile a form's spec. 0, or -1 if the spec is malformed (the table test
 * checks every row). */
int nv_sass_layout_of(int op, nv_sass_layout *out);
/* Bits the form claims: mask, guard and every field and attribute bit. */
uint64_t nv_sass_claimed(const nv_sass_layout *l, int op);
uint64_t nv_sass_get(uint64_t w, const nv_sass_bits *b);
uint64_t nv_sass_put(uint64_t w, const nv_sass_bits *b, uint64_t v);
unsigned nv_sass_width(const nv_sass_bits *b);

/* A decoded instruction. Operands and modifiers are in the form's field
 * order: fval[i] is field i's raw value (for C/X the offset, bank in
 * fbank[i]); attrs hold the operand's negate/abs/not/predicate-not bits. */
typedef struct nv_sass_insn {
    uint64_t word;
    int op; /* enum nv_sass_op */
    uint8_t guard_pred;  /* 0..7 (7 = PT) */
    bool guard_not;
    int nfields;
    uint64_t fval[NV_SASS_MAX_FIELDS];
    uint32_t fbank[NV_SASS_MAX_FIELDS];
    uint8_t fneg[NV_SASS_MAX_FIELDS], fabs[NV_SASS_MAX_FIELDS], finv[NV_SASS_MAX_FIELDS],
        fpnot[NV_SASS_MAX_FIELDS];
} nv_sass_insn;

/* Decode one instruction word. Returns the form id, or NV_SASS_RAW when no
 * form matches, a bit no field claims is set, or an enumerated field holds a
 * reserved value. `layout` (may be NULL) receives the form's layout. */
int nv_sass_decode(uint64_t w, nv_sass_insn *out, nv_sass_layout *layout);

/* Scheduling control word (one per 32-byte bundle, before its three
 * instructions): three 21-bit groups at bits 0, 21, 42 (maxas
 * "Control-Codes", envydis gm107.c sched tables), bit 63 spare. */
typedef struct nv_sass_sched {
    uint8_t stall; /* 3:0 */
    bool yield;    /* 4 (the raw bit) */
    uint8_t wbar;  /* 7:5, 7 = none */
    uint8_t rbar;  /* 10:8, 7 = none */
    uint8_t wait;  /* 16:11 barrier mask */
    uint8_t reuse; /* 20:17 operand reuse flags */
} nv_sass_sched;
void nv_sass_sched_decode(uint64_t w, nv_sass_sched out[3], bool *bit63);
uint64_t nv_sass_sched_encode(const nv_sass_sched s[3], bool bit63);

/* Text (sass_text.c). Prints one instruction at byte address pc (branch
 * targets are absolute) without guard prefix indentation; returns the length
 * written (truncated to cap) or -1 if the word has no text form. */
int nv_sass_format(uint64_t w, uint64_t pc, char *buf, size_t cap);
int nv_sass_format_sched(uint64_t w, char *buf, size_t cap);

struct cg_asm_family;
const struct cg_asm_family *nv_sass_asm_family(void);

#endif
