/* radeon family: the R600/R700 shader ISA table (r600_isa.def) stamped into
 * the field and instruction arrays, and the decoder and encoder built on
 * them (isa.h). Lookups scan the ~200 rows: the text tools call them once
 * an instruction; an executor builds its own opcode-indexed tables from
 * r6_ops (the op[] and kind columns). */
#include <string.h>
#include "radeon/isa.h"

const r6_field r6_fields[R6_NFIELDS] = {
#define R6_FIELD(form, word, name, hi, lo, chips, dflt, sh)                                    \
    [R6F_##form##_##name] = {#name, sh, R6_FORM_##form, word, chips, {hi, hi}, {lo, lo}, dflt},
#define R6_FIELD2(form, word, name, hi6, lo6, hi7, lo7, dflt, sh)                              \
    [R6F_##form##_##name] = {#name, sh, R6_FORM_##form, word, R6_CBOTH, {hi6, hi7}, {lo6, lo7}, dflt},
#include "radeon/tables/r600_isa.def"
#undef R6_FIELD
#undef R6_FIELD2
};

const r6_enum r6_enums[] = {
#define R6_ENUM(form, field, value, token) {R6F_##form##_##field, value, #token},
#include "radeon/tables/r600_isa.def"
#undef R6_ENUM
};
const size_t r6_nenums = sizeof r6_enums / sizeof r6_enums[0];

const char *r6_enum_token(r6_fid f, uint32_t value)
{
    for (size_t i = 0; i < r6_nenums; i++)
        if (r6_enums[i].fid == f && r6_enums[i].value == value)
            return r6_enums[i].token;
    return NULL;
}

#define V R6_SLOT_V
#define S R6_SLOT_S
#define VS R6_SLOT_VS
#define V4 R6_SLOT_V4
#define F_IEEE R6_F_IEEE
#define F_DX10 R6_F_DX10
#define F_INT_DST R6_F_INT_DST
#define F_UINT_DST R6_F_UINT_DST
#define F_INT_CMP R6_F_INT_CMP
#define F_UINT_CMP R6_F_UINT_CMP
#define F_REPL R6_F_REPL
#define F_CC_E R6_F_CC_E
#define F_CC_GT R6_F_CC_GT
#define F_CC_GE R6_F_CC_GE
#define F_CC_NE R6_F_CC_NE
#define F_CC_LT R6_F_CC_LT
#define F_CC_LE R6_F_CC_LE

const r6_op r6_ops[R6_NOPS] = {
#define R6_CF(id, a, b, k) [R6OP_##id] = {#id, R6_CLS_CF, R6K_##k, 0, {0, 0}, {a, b}, 0},
#define R6_CF_ALU(id, a, b, k) [R6OP_##id] = {#id, R6_CLS_CF_ALU, R6K_##k, 0, {0, 0}, {a, b}, 0},
#define R6_CF_EXP(id, a, b, k) [R6OP_##id] = {#id, R6_CLS_CF_EXP, R6K_##k, 0, {0, 0}, {a, b}, 0},
#define R6_ALU2(id, o, n, s6, s7, k, f)                                                        \
    [R6OP_##id] = {#id, R6_CLS_ALU_OP2, R6K_##k, n, {s6, s7}, {(s6) ? (o) : R6_NONE, (s7) ? (o) : R6_NONE}, f},
#define R6_ALU3(id, o, s6, s7, k, f)                                                           \
    [R6OP_##id] = {#id, R6_CLS_ALU_OP3, R6K_##k, 3, {s6, s7}, {(s6) ? (o) : R6_NONE, (s7) ? (o) : R6_NONE}, f},
#define R6_VTX(id, a, b, k) [R6OP_##id] = {#id, R6_CLS_VTX, R6K_##k, 0, {0, 0}, {a, b}, 0},
#define R6_TEX(id, a, b, k) [R6OP_##id] = {#id, R6_CLS_TEX, R6K_##k, 0, {0, 0}, {a, b}, 0},
#include "radeon/tables/r600_isa.def"
#undef R6_CF
#undef R6_CF_ALU
#undef R6_CF_EXP
#undef R6_ALU2
#undef R6_ALU3
#undef R6_VTX
#undef R6_TEX
};

static uint32_t fmask(const r6_field *f, r6_chip c)
{
    unsigned w = f->hi[c] - f->lo[c] + 1u;
    return (w >= 32 ? 0xFFFFFFFFu : ((1u << w) - 1u)) << f->lo[c];
}

uint32_t r6_get(r6_chip c, const uint32_t *w, r6_fid id)
{
    const r6_field *f = &r6_fields[id];
    if (!r6_field_on(f, c))
        return 0;
    return (w[f->word] & fmask(f, c)) >> f->lo[c];
}

void r6_set(r6_chip c, uint32_t *w, r6_fid id, uint32_t v)
{
    const r6_field *f = &r6_fields[id];
    if (!r6_field_on(f, c))
        return;
    uint32_t m = fmask(f, c);
    w[f->word] = (w[f->word] & ~m) | ((v << f->lo[c]) & m);
}

void r6_op_forms(const r6_op *op, uint8_t forms[5])
{
    unsigned n = 0;
    switch (op ? op->cls : R6_CLS_CF) {
    case R6_CLS_CF:
        forms[n++] = R6_FORM_CF_W0, forms[n++] = R6_FORM_CF_W1;
        break;
    case R6_CLS_CF_ALU:
        forms[n++] = R6_FORM_CFA_W0, forms[n++] = R6_FORM_CFA_W1;
        break;
    case R6_CLS_CF_EXP:
        forms[n++] = R6_FORM_EXP_W0, forms[n++] = R6_FORM_EXP_W1;
        forms[n++] = op->kind == R6K_EXPORT ? R6_FORM_EXP_SWIZ : R6_FORM_EXP_BUF;
        break;
    case R6_CLS_ALU_OP2:
    case R6_CLS_ALU_OP3:
        forms[n++] = R6_FORM_ALU_W0, forms[n++] = R6_FORM_ALU_W1;
        forms[n++] = op->cls == R6_CLS_ALU_OP2 ? R6_FORM_ALU_OP2 : R6_FORM_ALU_OP3;
        break;
    case R6_CLS_VTX:
        forms[n++] = R6_FORM_VTX_W0, forms[n++] = R6_FORM_VTX_W1;
        forms[n++] = op->kind == R6K_SEMFETCH ? R6_FORM_VTX_SEM : R6_FORM_VTX_GPR;
        forms[n++] = R6_FORM_VTX_W2;
        break;
    default:
        forms[n++] = R6_FORM_TEX_W0, forms[n++] = R6_FORM_TEX_W1, forms[n++] = R6_FORM_TEX_W2;
        break;
    }
    forms[n] = R6_NFORMS;
}

unsigned r6_op_words(const r6_op *op)
{
    return op && (op->cls == R6_CLS_VTX || op->cls == R6_CLS_TEX) ? 4 : 2;
}

uint32_t r6_op_mask(const r6_op *op, r6_chip c, unsigned i)
{
    uint8_t forms[5];
    r6_op_forms(op, forms);
    uint32_t m = 0;
    for (unsigned k = 0; forms[k] != R6_NFORMS; k++)
        for (unsigned j = 0; j < R6_NFIELDS; j++) {
            const r6_field *f = &r6_fields[j];
            if (f->form == forms[k] && f->word == i && r6_field_on(f, c))
                m |= fmask(f, c);
        }
    return m;
}

bool r6_op_clean(const r6_op *op, r6_chip c, const uint32_t *w)
{
    for (unsigned i = 0; i < r6_op_words(op); i++)
        if (w[i] & ~r6_op_mask(op, c, i))
            return false;
    return true;
}

static const r6_op *find(r6_chip c, r6_class cls, int opcode)
{
    for (unsigned i = 0; i < R6_NOPS; i++)
        if (r6_ops[i].cls == cls && r6_ops[i].op[c] == opcode)
            return &r6_ops[i];
    return NULL;
}

const r6_op *r6_decode_cf(r6_chip c, const uint32_t *w)
{
    if (w[1] & (1u << 29))
        return find(c, R6_CLS_CF_ALU, (int)((w[1] >> 26) & 0xF));
    int opc = (int)((w[1] >> 23) & 0x7F);
    const r6_op *op = find(c, R6_CLS_CF, opc);
    return op ? op : find(c, R6_CLS_CF_EXP, opc);
}

const r6_op *r6_decode_alu(r6_chip c, const uint32_t *w)
{
    if (w[1] & (7u << 15))
        return find(c, R6_CLS_ALU_OP3, (int)((w[1] >> 13) & 0x1F));
    return find(c, R6_CLS_ALU_OP2, (int)r6_get(c, w, R6F_ALU_OP2_ALU_INST));
}

const r6_op *r6_decode_fetch(r6_chip c, bool tex, const uint32_t *w)
{
    return find(c, tex ? R6_CLS_TEX : R6_CLS_VTX, (int)(w[0] & 0x1F));
}

void r6_encode_op(const r6_op *op, r6_chip c, uint32_t *w)
{
    uint32_t v = (uint32_t)op->op[c];
    switch (op->cls) {
    case R6_CLS_CF:
        r6_set(c, w, R6F_CF_W1_CF_INST, v);
        break;
    case R6_CLS_CF_ALU:
        r6_set(c, w, R6F_CFA_W1_CF_INST, v);
        break;
    case R6_CLS_CF_EXP:
        r6_set(c, w, R6F_EXP_W1_CF_INST, v);
        break;
    case R6_CLS_ALU_OP2:
        r6_set(c, w, R6F_ALU_OP2_ALU_INST, v);
        break;
    case R6_CLS_ALU_OP3:
        r6_set(c, w, R6F_ALU_OP3_ALU_INST, v);
        break;
    case R6_CLS_VTX:
        r6_set(c, w, R6F_VTX_W0_VTX_INST, v);
        break;
    default:
        r6_set(c, w, R6F_TEX_W0_TEX_INST, v);
        break;
    }
}

void r6_optable_init(r6_optable *t, r6_chip c)
{
    memset(t, 0, sizeof *t);
    t->chip = c;
    for (unsigned i = 0; i < R6_NOPS; i++) {
        int o = r6_ops[i].op[c];
        uint16_t v = (uint16_t)(i + 1);
        if (o < 0)
            continue;
        switch (r6_ops[i].cls) {
        case R6_CLS_CF:
        case R6_CLS_CF_EXP: t->cf[o & 127] = v; break;
        case R6_CLS_CF_ALU: t->cfa[o & 15] = v; break;
        case R6_CLS_ALU_OP2: t->op2[o & 255] = v; break;
        case R6_CLS_ALU_OP3: t->op3[o & 31] = v; break;
        case R6_CLS_VTX: t->vtx[o & 31] = v; break;
        default: t->tex[o & 31] = v; break;
        }
    }
}

const r6_op *r6_op_by_name(const char *name)
{
    for (unsigned i = 0; i < R6_NOPS; i++)
        if (strcmp(r6_ops[i].name, name) == 0)
            return &r6_ops[i];
    return NULL;
}

const r6_field *r6_field_by_name(const uint8_t forms[5], r6_chip c, const char *name)
{
    for (unsigned k = 0; forms[k] != R6_NFORMS; k++)
        for (unsigned j = 0; j < R6_NFIELDS; j++) {
            const r6_field *f = &r6_fields[j];
            if (f->form == forms[k] && r6_field_on(f, c) &&
                (strcmp(f->name, name) == 0 || (f->sh[0] && strcmp(f->sh, name) == 0)))
                return f;
        }
    return NULL;
}

const r6_fid r6_alu_src_fields[3][5] = {
    {R6F_ALU_W0_SRC0_SEL, R6F_ALU_W0_SRC0_REL, R6F_ALU_W0_SRC0_CHAN, R6F_ALU_W0_SRC0_NEG,
     R6F_ALU_OP2_SRC0_ABS},
    {R6F_ALU_W0_SRC1_SEL, R6F_ALU_W0_SRC1_REL, R6F_ALU_W0_SRC1_CHAN, R6F_ALU_W0_SRC1_NEG,
     R6F_ALU_OP2_SRC1_ABS},
    {R6F_ALU_OP3_SRC2_SEL, R6F_ALU_OP3_SRC2_REL, R6F_ALU_OP3_SRC2_CHAN, R6F_ALU_OP3_SRC2_NEG,
     R6_NFIELDS}};
