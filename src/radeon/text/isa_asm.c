/* radeon family: the R600/R700 shader assembler (`cmdgpu asm -f
 * radeon-isa`): the disassembler's text (isa_text.c, docs/radeon-isa.md)
 * back to the same bytes. Every statement is one instruction (or a core
 * .word for literals and raw words); the assembler needs no context but
 * the chip (`.chip r600|r700`, else --gen). Operands are read with the
 * core's cursor; numbers that a '-' or '+' follows (kcache ranges, AR
 * offsets, burst ranges) are read digit by digit, as an expression would
 * take the sign for an operator. */
#include <stdlib.h>
#include <string.h>
#include "radeon/text/isa_text.h"

typedef struct ctx {
    cg_asm *as;
    r6_chip c;
    const r6_op *op;
    uint8_t forms[5];
    uint32_t w[4];
} ctx;

static int set(ctx *x, r6_fid f, uint64_t v)
{
    const r6_field *fd = &r6_fields[f];
    unsigned width = fd->hi[x->c] - fd->lo[x->c] + 1u;
    if (!r6_field_on(fd, x->c))
        return cg_asm_error(x->as, "%s has no field %s on this chip", x->op->name, fd->name);
    if (width < 64 && v >> width)
        return cg_asm_error(x->as, "%s: %llu does not fit %u bits", fd->name,
                            (unsigned long long)v, width);
    r6_set(x->c, x->w, f, (uint32_t)v);
    return 0;
}

static bool digit(cg_asm *as, unsigned *d)
{
    for (unsigned k = 0; k < 10; k++)
        if (cg_asm_accept(as, (char)('0' + k))) {
            *d = k;
            return true;
        }
    return false;
}

/* decimal digits read one by one (see the top) */
static int digits(cg_asm *as, uint32_t *v)
{
    unsigned d;
    uint64_t n = 0;
    if (!digit(as, &d))
        return cg_asm_error(as, "a number was expected");
    n = d;
    while (digit(as, &d)) {
        n = n * 10 + d;
        if (n > 0xFFFFFFFFu)
            return cg_asm_error(as, "number too large");
    }
    *v = (uint32_t)n;
    return 0;
}

static int expr32(cg_asm *as, uint32_t *v)
{
    int64_t e;
    int rc = cg_asm_expr(as, &e);
    if (rc)
        return rc;
    if (e < 0 || e > 0xFFFFFFFFll)
        return cg_asm_error(as, "%lld is out of range", (long long)e);
    *v = (uint32_t)e;
    return 0;
}

static int chan_of(cg_asm *as, const char *s, uint32_t *chan)
{
    static const char ch[] = "xyzw";
    if (s[0] && !s[1] && strchr(ch, s[0])) {
        *chan = (uint32_t)(strchr(ch, s[0]) - ch);
        return 0;
    }
    return cg_asm_error(as, "'%s' is not a channel (x, y, z, w)", s);
}

/* Four swizzle characters read one by one (after a separate '.', where
 * they need not form a name: ".01zw"). */
static int swz_read(cg_asm *as, char out[5])
{
    static const char swz[] = "xyzw016_";
    for (int i = 0; i < 4; i++) {
        bool got = false;
        for (const char *p = swz; *p && !got; p++)
            if (cg_asm_accept(as, *p))
                out[i] = *p, got = true;
        if (!got)
            return cg_asm_error(as, "a swizzle of four of xyzw016_ was expected");
    }
    out[4] = 0;
    return 0;
}

static int swz_of(cg_asm *as, const char *s, uint32_t sel[4])
{
    static const char swz[] = "xyzw016_";
    if (strlen(s) != 4)
        return cg_asm_error(as, "'%s' is not a swizzle of four of xyzw016_", s);
    for (int i = 0; i < 4; i++) {
        const char *p = strchr(swz, s[i]);
        if (!p || !s[i])
            return cg_asm_error(as, "'%s' is not a swizzle of four of xyzw016_", s);
        sel[i] = (uint32_t)(p - swz);
    }
    return 0;
}

/* "123" or "123.suffix": the number, and *rest at the suffix (or ""). */
static bool num_prefix(const char *s, uint32_t *n, const char **rest)
{
    if (*s < '0' || *s > '9')
        return false;
    uint64_t v = 0;
    for (; *s >= '0' && *s <= '9'; s++)
        if ((v = v * 10 + (uint64_t)(*s - '0')) > 0xFFFFFFFFu)
            return false;
    if (*s && *s != '.')
        return false;
    *n = (uint32_t)v;
    *rest = *s ? s + 1 : s;
    return true;
}

/* "[N+AR]" after a register letter: the number and rel = 1. */
static int bracket_rel(cg_asm *as, uint32_t *n, bool need_ar, uint32_t *rel, uint32_t *chan,
                       bool *have_chan)
{
    int rc = digits(as, n);
    if (rc)
        return rc;
    *rel = 0;
    if (cg_asm_accept(as, '+')) {
        char id[16];
        if ((rc = cg_asm_ident(as, id, sizeof id)))
            return rc;
        if (strcmp(id, "AR") && strcmp(id, "AL"))
            return cg_asm_error(as, "'+AR' or '+AL' was expected");
        *rel = 1;
    } else if (need_ar) {
        return cg_asm_error(as, "'+AR' was expected");
    }
    if ((rc = cg_asm_expect(as, ']')))
        return rc;
    if (cg_asm_accept(as, '.')) {
        char id[8];
        if ((rc = cg_asm_ident(as, id, sizeof id)) || (rc = chan_of(as, id, chan)))
            return rc;
        *have_chan = true;
    }
    return 0;
}

/* A register operand R/T (GPR), C (constant file): "R12.x" or "R[12+AR].x". */
static int reg_ident(cg_asm *as, const char *id, uint32_t *sel, uint32_t *rel, uint32_t *chan,
                     bool *have_chan)
{
    char r = id[0];
    uint32_t base = r == 'R' ? 0 : r == 'T' ? 124 : 256, lim = r == 'R' ? 124 : r == 'T' ? 4 : 256;
    uint32_t n;
    const char *rest;
    int rc;
    *rel = 0;
    if (id[1] == 0) {
        if (!cg_asm_accept(as, '['))
            return cg_asm_error(as, "'%s' is not an operand", id);
        if ((rc = bracket_rel(as, &n, true, rel, chan, have_chan)))
            return rc;
    } else if (num_prefix(id + 1, &n, &rest)) {
        if (rest[0]) {
            if ((rc = chan_of(as, rest, chan)))
                return rc;
            *have_chan = true;
        }
    } else {
        return cg_asm_error(as, "'%s' is not an operand", id);
    }
    if (n >= lim)
        return cg_asm_error(as, "%c%u is out of range", r, n);
    *sel = base + n;
    return 0;
}

/* ---- ALU ---- */

#define SRCF r6_alu_src_fields

/* "+AR" / "+AL" after a constant, with the channel it may carry ("AR.y"). */
static int const_rel(cg_asm *as, uint32_t *rel, uint32_t *chan, bool *have_chan)
{
    if (!cg_asm_accept(as, '+'))
        return 0;
    char id[16];
    int rc = cg_asm_ident(as, id, sizeof id);
    if (rc)
        return rc;
    if (strncmp(id, "AR", 2) && strncmp(id, "AL", 2))
        return cg_asm_error(as, "'+AR' or '+AL' was expected");
    *rel = 1;
    if (id[2] == '.') {
        if ((rc = chan_of(as, id + 3, chan)))
            return rc;
        *have_chan = true;
    } else if (id[2]) {
        return cg_asm_error(as, "'+AR' or '+AL' was expected");
    }
    return 0;
}

/* The literal's shown value: 0xHEX then the float as printed (ignored). */
static int literal_body(cg_asm *as)
{
    char id[32];
    int rc;
    if (cg_asm_peek_ident(as, id, sizeof id)) {
        cg_asm_ident(as, id, sizeof id);
        if (strcmp(id, "LITERAL"))
            return cg_asm_error(as, "'[LITERAL]' or '[0xVALUE FLOAT]' was expected");
        return cg_asm_expect(as, ']');
    }
    /* 0x and at most 8 hex digits, read one by one (an expression would
     * take the float after it for its next token) */
    if (!cg_asm_accept(as, '0') || !cg_asm_accept(as, 'x'))
        return cg_asm_error(as, "'[0xVALUE FLOAT]' was expected");
    unsigned nd = 0;
    for (; nd < 8; nd++) {
        bool got = false;
        for (const char *h = "0123456789abcdefABCDEF"; *h && !got; h++)
            got = cg_asm_accept(as, *h);
        if (!got)
            break;
    }
    if (nd == 0)
        return cg_asm_error(as, "'[0xVALUE FLOAT]' was expected");
    cg_asm_accept(as, '-');
    if (cg_asm_peek_ident(as, id, sizeof id)) {
        cg_asm_ident(as, id, sizeof id); /* nan, inf */
    } else if (!cg_asm_accept(as, ']')) {
        /* the float as %f printed it: digits '.' digits (any length) */
        unsigned d;
        if (!digit(as, &d))
            return cg_asm_error(as, "the literal's float was expected");
        while (digit(as, &d))
            ;
        if ((rc = cg_asm_expect(as, '.')))
            return rc;
        while (digit(as, &d))
            ;
    } else {
        return 0;
    }
    return cg_asm_expect(as, ']');
}

/* ".c" after an operand, if there (and no channel yet) */
static int opt_chan(cg_asm *as, uint32_t *chan, bool *have_chan)
{
    char id[8];
    int rc;
    if (*have_chan || !cg_asm_accept(as, '.'))
        return 0;
    if ((rc = cg_asm_ident(as, id, sizeof id)) || (rc = chan_of(as, id, chan)))
        return rc;
    *have_chan = true;
    return 0;
}

/* The select of an inline constant written d[.frac] (after an optional
 * '-' read as neg): 0 1 1.0 0.5, and -1 (ALU_SRC_M_1_INT). */
static int inline_sel(cg_asm *as, unsigned d, bool has_frac, unsigned frac, uint32_t *neg,
                      bool abs, uint32_t *sel)
{
    if (*neg && !abs && d == 1 && !has_frac)
        *sel = R6_SRC_M_1_INT, *neg = 0;
    else if (*neg)
        return cg_asm_error(as, "a negated inline constant is written with SRCn_NEG:1");
    else if (d == 0 && !has_frac)
        *sel = R6_SRC_0;
    else if (d == 1 && !has_frac)
        *sel = R6_SRC_1_INT;
    else if (d == 1 && frac == 0)
        *sel = R6_SRC_1;
    else if (d == 0 && frac == 5)
        *sel = R6_SRC_0_5;
    else
        return cg_asm_error(as, "not an inline constant (0, 1, -1, 1.0, 0.5)");
    return 0;
}

static int alu_src(ctx *x, unsigned i)
{
    cg_asm *as = x->as;
    uint32_t sel = 0, rel = 0, chan = 0, neg = 0, abs = 0;
    bool have_chan = false, chan_ok = true; /* chan_ok: the channel may be left out */
    char id[64];
    int rc;
    if (cg_asm_accept(as, '-'))
        neg = 1;
    if (cg_asm_accept(as, '|'))
        abs = 1;
    bool minus = abs && cg_asm_accept(as, '-'); /* |-1| */
    unsigned d;
    if (minus && !digit(as, &d)) {
        return cg_asm_error(as, "'-1' was expected");
    } else if (minus) {
        if (d != 1)
            return cg_asm_error(as, "not an inline constant (0, 1, -1, 1.0, 0.5)");
        sel = R6_SRC_M_1_INT;
        if ((rc = opt_chan(as, &chan, &have_chan)) || (rc = const_rel(as, &rel, &chan, &have_chan)))
            return rc;
    } else if (cg_asm_accept(as, '[')) {
        sel = R6_SRC_LITERAL;
        if ((rc = literal_body(as)) || (rc = const_rel(as, &rel, &chan, &have_chan)) ||
            (rc = opt_chan(as, &chan, &have_chan)))
            return rc;
    } else if (digit(as, &d)) {
        /* inline constants: 0 1 1.0 0.5, and -1 (the '-' read above) */
        uint32_t frac = 0;
        bool has_frac = false;
        if (cg_asm_accept(as, '.')) {
            if (digit(as, &frac))
                has_frac = true;
            else {
                if ((rc = cg_asm_ident(as, id, sizeof id)) || (rc = chan_of(as, id, &chan)))
                    return rc;
                have_chan = true;
            }
        }
        if ((rc = inline_sel(as, d, has_frac, frac, &neg, abs, &sel)) ||
            (rc = opt_chan(as, &chan, &have_chan)) || (rc = const_rel(as, &rel, &chan, &have_chan)))
            return rc;
    } else {
        if ((rc = cg_asm_ident(as, id, sizeof id)))
            return rc;
        char *dot = strchr(id, '.');
        if (strncmp(id, "KC0", 3) == 0 || strncmp(id, "KC1", 3) == 0) {
            if (id[3] || !cg_asm_accept(as, '['))
                return cg_asm_error(as, "'KCn[N]' was expected");
            uint32_t n;
            if ((rc = bracket_rel(as, &n, false, &rel, &chan, &have_chan)))
                return rc;
            if (n >= 32)
                return cg_asm_error(as, "kcache index %u is out of range (0..31)", n);
            sel = (id[2] == '0' ? R6_SRC_KC0 : R6_SRC_KC1) + n;
            chan_ok = false;
        } else if ((id[0] == 'R' || id[0] == 'T' || id[0] == 'C') &&
                   (id[1] == 0 || (id[1] >= '0' && id[1] <= '9'))) {
            if ((rc = reg_ident(as, id, &sel, &rel, &chan, &have_chan)))
                return rc;
            chan_ok = false;
        } else {
            if (dot) {
                *dot = 0;
                if ((rc = chan_of(as, dot + 1, &chan)))
                    return rc;
                have_chan = true;
            }
            const char *rest;
            uint32_t n;
            if (strcmp(id, "PV") == 0)
                sel = R6_SRC_PV, chan_ok = false;
            else if (strcmp(id, "PS") == 0)
                sel = R6_SRC_PS;
            else if (strncmp(id, "IMM_", 4) == 0 && num_prefix(id + 4, &n, &rest) && !rest[0] &&
                     n >= 192 && n < 256)
                sel = n, chan_ok = false;
            else
                return cg_asm_error(as, "'%s' is not a source operand", id);
            if ((rc = const_rel(as, &rel, &chan, &have_chan)))
                return rc;
        }
    }
    if (!have_chan && !chan_ok)
        return cg_asm_error(as, "the source's channel (.x .y .z .w) is missing");
    if (abs && (rc = cg_asm_expect(as, '|')))
        return rc;
    if (abs && (x->op->cls != R6_CLS_ALU_OP2 || i >= 2))
        return cg_asm_error(as, "only the first two sources of an OP2 instruction have |abs|");
    if ((rc = set(x, SRCF[i][0], sel)) || (rc = set(x, SRCF[i][1], rel)) ||
        (rc = set(x, SRCF[i][2], chan)))
        return rc;
    if (neg && (rc = set(x, SRCF[i][3], 1)))
        return rc;
    if (abs && (rc = set(x, SRCF[i][4], 1)))
        return rc;
    return 0;
}

static int alu_dst(ctx *x)
{
    cg_asm *as = x->as;
    char id[64];
    int rc = cg_asm_ident(as, id, sizeof id);
    if (rc)
        return rc;
    const char *p = id;
    uint32_t wm = 1, sel = 0, rel = 0, chan = 0;
    bool have_chan = false;
    if (strncmp(p, "__", 2) == 0) {
        wm = 0;
        p += 2;
        if (x->op->cls != R6_CLS_ALU_OP2)
            return cg_asm_error(as, "an OP3 instruction always writes its destination");
    }
    if (*p == '.') {
        if (wm)
            return cg_asm_error(as, "'%s' is not a destination", id);
        if ((rc = chan_of(as, p + 1, &chan)))
            return rc;
        have_chan = true;
    } else if ((*p == 'R' || *p == 'T') && (p[1] == 0 || (p[1] >= '0' && p[1] <= '9'))) {
        if ((rc = reg_ident(as, p, &sel, &rel, &chan, &have_chan)))
            return rc;
    } else {
        return cg_asm_error(as, "'%s' is not a destination", id);
    }
    if (!have_chan)
        return cg_asm_error(as, "the destination's channel (.x .y .z .w) is missing");
    if ((rc = set(x, R6F_ALU_W1_DST_GPR, sel)) || (rc = set(x, R6F_ALU_W1_DST_REL, rel)) ||
        (rc = set(x, R6F_ALU_W1_DST_CHAN, chan)))
        return rc;
    if (x->op->cls == R6_CLS_ALU_OP2)
        return set(x, R6F_ALU_OP2_WRITE_MASK, wm);
    return 0;
}

/* ---- extras: SHORT, SHORT:value, NAME:value, an R6_ENUM token, LAST ---- */

static int extras(ctx *x)
{
    cg_asm *as = x->as;
    while (!cg_asm_eol(as)) {
        char id[64];
        int rc = cg_asm_ident(as, id, sizeof id);
        if (rc)
            return rc;
        bool alu = x->op->cls == R6_CLS_ALU_OP2 || x->op->cls == R6_CLS_ALU_OP3;
        if (alu && strcmp(id, "LAST") == 0) {
            if ((rc = set(x, R6F_ALU_W0_LAST, 1)))
                return rc;
            continue;
        }
        bool found = false;
        for (size_t i = 0; i < r6_nenums && !found; i++) {
            const r6_field *f = &r6_fields[r6_enums[i].fid];
            if (strcmp(r6_enums[i].token, id) || !r6_field_on(f, x->c))
                continue;
            for (unsigned k = 0; x->forms[k] != R6_NFORMS; k++)
                if (f->form == x->forms[k])
                    found = true;
            if (found && (rc = set(x, (r6_fid)r6_enums[i].fid, r6_enums[i].value)))
                return rc;
        }
        if (found)
            continue;
        const r6_field *f = r6_field_by_name(x->forms, x->c, id);
        if (!f)
            return cg_asm_error(as, "%s has no field or flag '%s'", x->op->name, id);
        r6_fid fid = (r6_fid)(f - r6_fields);
        if (cg_asm_accept(as, ':')) {
            uint32_t v = 0;
            if ((rc = expr32(as, &v)) || (rc = set(x, fid, v)))
                return rc;
        } else if (f->hi[x->c] == f->lo[x->c] && f->sh[0] && strcmp(id, f->sh) == 0) {
            if ((rc = set(x, fid, !f->dflt)))
                return rc;
        } else {
            return cg_asm_error(as, "'%s:' needs a value", id);
        }
    }
    return 0;
}

/* ---- instructions ---- */

static void start(ctx *x, const r6_op *op)
{
    x->op = op;
    memset(x->w, 0, sizeof x->w);
    r6_op_forms(op, x->forms);
    for (unsigned k = 0; x->forms[k] != R6_NFORMS; k++)
        for (unsigned j = 0; j < R6_NFIELDS; j++)
            if (r6_fields[j].form == x->forms[k])
                r6_set(x->c, x->w, (r6_fid)j, r6_fields[j].dflt);
    r6_encode_op(op, x->c, x->w);
}

static int finish(ctx *x)
{
    int rc = extras(x);
    for (unsigned i = 0; rc == 0 && i < r6_op_words(x->op); i++)
        rc = cg_asm_emit32(x->as, x->w[i]);
    return rc;
}

static int asm_alu(ctx *x, const char *name)
{
    cg_asm *as = x->as;
    char base[64];
    snprintf(base, sizeof base, "%s", name);
    size_t n = strlen(base);
    bool sat = n > 4 && strcmp(base + n - 4, "_sat") == 0;
    if (sat)
        base[n - 4] = 0;
    const r6_op *op = r6_op_by_name(base);
    if (!op || (op->cls != R6_CLS_ALU_OP2 && op->cls != R6_CLS_ALU_OP3))
        return cg_asm_error(as, "'%s' is not an ALU instruction", name);
    if (op->op[x->c] == R6_NONE)
        return cg_asm_error(as, "%s is not an instruction of this chip", base);
    start(x, op);
    int rc = 0;
    uint32_t omod = 0, v = 0;
    if (cg_asm_accept(as, '*')) {
        if ((rc = expr32(as, &v)))
            return rc;
        if (v != 2 && v != 4)
            return cg_asm_error(as, "output modifier *%u (*2, *4 or /2)", v);
        omod = v == 2 ? 1 : 2;
    } else if (cg_asm_accept(as, '/')) {
        if ((rc = expr32(as, &v)))
            return rc;
        if (v != 2)
            return cg_asm_error(as, "output modifier /%u (*2, *4 or /2)", v);
        omod = 3;
    }
    if (omod && op->cls != R6_CLS_ALU_OP2)
        return cg_asm_error(as, "an OP3 instruction has no output modifier");
    if ((omod && (rc = set(x, R6F_ALU_OP2_OMOD, omod))) ||
        (sat && (rc = set(x, R6F_ALU_W1_CLAMP, 1))))
        return rc;
    if ((rc = alu_dst(x)))
        return rc;
    for (unsigned i = 0; i < op->nsrc; i++)
        if ((rc = cg_asm_expect(as, ',')) || (rc = alu_src(x, i)))
            return rc;
    return finish(x);
}

static int asm_cf(ctx *x)
{
    cg_asm *as = x->as;
    const r6_op *op = x->op;
    uint32_t n = 0, addr = 0;
    int rc;
    bool clause = op->kind == R6K_CLAUSE_TEX || op->kind == R6K_CLAUSE_VTX;
    if (op->cls == R6_CLS_CF_ALU || clause) {
        if ((rc = expr32(as, &n)))
            return rc;
        uint32_t lim = op->cls == R6_CLS_CF_ALU ? 128 : x->c == R6_R700 ? 16 : 8;
        if (n < 1 || n > lim)
            return cg_asm_error(as, "clause count %u is out of range (1..%u)", n, lim);
    }
    if ((rc = cg_asm_expect(as, '@')) || (rc = expr32(as, &addr)))
        return rc;
    if (op->cls == R6_CLS_CF) {
        if ((rc = set(x, R6F_CF_W0_ADDR, addr)))
            return rc;
        if (clause && ((rc = set(x, R6F_CF_W1_COUNT, (n - 1) & 7)) ||
                       (n > 8 && (rc = set(x, R6F_CF_W1_COUNT_3, 1)))))
            return rc;
        return finish(x);
    }
    if ((rc = set(x, R6F_CFA_W0_ADDR, addr)) || (rc = set(x, R6F_CFA_W1_COUNT, n - 1)))
        return rc;
    /* KCn[CBb:start-end] */
    char id[64];
    while (cg_asm_peek_ident(as, id, sizeof id) && (!strcmp(id, "KC0") || !strcmp(id, "KC1"))) {
        cg_asm_ident(as, id, sizeof id);
        int k = id[2] - '0';
        uint32_t bank, s, e;
        const char *rest;
        if ((rc = cg_asm_expect(as, '[')) || (rc = cg_asm_ident(as, id, sizeof id)))
            return rc;
        if (strncmp(id, "CB", 2) || !num_prefix(id + 2, &bank, &rest) || rest[0])
            return cg_asm_error(as, "'CBn' was expected");
        if ((rc = cg_asm_expect(as, ':')) || (rc = digits(as, &s)) ||
            (rc = cg_asm_expect(as, '-')) || (rc = digits(as, &e)) ||
            (rc = cg_asm_expect(as, ']')))
            return rc;
        if (s % 16 || e < s || (e - s) % 16 || e - s < 16 || e - s > 48)
            return cg_asm_error(as, "kcache range %u-%u: the start a multiple of 16, the end "
                                    "16, 32 or 48 after it", s, e);
        r6_fid fm = k ? R6F_CFA_W1_KCACHE_MODE1 : R6F_CFA_W0_KCACHE_MODE0;
        r6_fid fb = k ? R6F_CFA_W0_KCACHE_BANK1 : R6F_CFA_W0_KCACHE_BANK0;
        r6_fid fa = k ? R6F_CFA_W1_KCACHE_ADDR1 : R6F_CFA_W1_KCACHE_ADDR0;
        if ((rc = set(x, fm, (e - s) / 16)) || (rc = set(x, fb, bank)) || (rc = set(x, fa, s / 16)))
            return rc;
    }
    return finish(x);
}

static int asm_exp(ctx *x)
{
    static const char *const exp_type[] = {"PIXEL", "POS", "PARAM", "TYPE_3"};
    static const char *const mem600[] = {"WRITE", "WRITE_IND", "READ", "READ_IND"};
    static const char *const mem700[] = {"WRITE", "WRITE_IND", "WRITE_ACK", "WRITE_IND_ACK"};
    cg_asm *as = x->as;
    bool exp = x->op->kind == R6K_EXPORT;
    const char *const *names = exp ? exp_type : x->c == R6_R600 ? mem600 : mem700;
    char id[64];
    int rc = cg_asm_ident(as, id, sizeof id);
    if (rc)
        return rc;
    uint32_t type = 4, base = 0, end = 0, gpr = 0, gend = 0;
    for (uint32_t i = 0; i < 4; i++)
        if (strcmp(id, names[i]) == 0)
            type = i;
    if (type == 4)
        return cg_asm_error(as, "'%s' is not a type of %s", id, x->op->name);
    if ((rc = digits(as, &base)))
        return rc;
    end = base;
    if (cg_asm_accept(as, '-') && (rc = digits(as, &end)))
        return rc;
    if (end < base)
        return cg_asm_error(as, "the range %u-%u runs backwards", base, end);
    if ((rc = cg_asm_ident(as, id, sizeof id)))
        return rc;
    const char *rest;
    if (id[0] != 'R' || !num_prefix(id + 1, &gpr, &rest))
        return cg_asm_error(as, "'Rn.xyzw' was expected");
    gend = gpr;
    char swz[16];
    if (!rest[0]) {
        if ((rc = cg_asm_expect(as, '-')) || (rc = digits(as, &gend)) ||
            (rc = cg_asm_expect(as, '.')) || (rc = swz_read(as, swz)))
            return rc;
    } else {
        snprintf(swz, sizeof swz, "%s", rest);
    }
    if (gend < gpr || gend - gpr != end - base)
        return cg_asm_error(as, "the register range and the array range differ in length");
    if ((rc = set(x, R6F_EXP_W0_TYPE, type)) || (rc = set(x, R6F_EXP_W0_ARRAY_BASE, base)) ||
        (rc = set(x, R6F_EXP_W0_RW_GPR, gpr)) || (rc = set(x, R6F_EXP_W1_BURST_COUNT, end - base)))
        return rc;
    if (exp) {
        uint32_t s[4];
        if ((rc = swz_of(as, swz, s)) || (rc = set(x, R6F_EXP_SWIZ_SEL_X, s[0])) ||
            (rc = set(x, R6F_EXP_SWIZ_SEL_Y, s[1])) || (rc = set(x, R6F_EXP_SWIZ_SEL_Z, s[2])) ||
            (rc = set(x, R6F_EXP_SWIZ_SEL_W, s[3])))
            return rc;
    } else {
        uint32_t m = 0;
        if (strlen(swz) != 4)
            return cg_asm_error(as, "'%s' is not a component mask (x, y, z, w or _ each)", swz);
        for (int i = 0; i < 4; i++) {
            if (swz[i] == "xyzw"[i])
                m |= 1u << i;
            else if (swz[i] != '_')
                return cg_asm_error(as, "'%s' is not a component mask (x, y, z, w or _ each)", swz);
        }
        if ((rc = set(x, R6F_EXP_BUF_COMP_MASK, m)))
            return rc;
    }
    return finish(x);
}

static int gpr_swz(ctx *x, const char *pfx, uint32_t *n, uint32_t s[4], bool four)
{
    char id[64];
    const char *rest;
    int rc = cg_asm_ident(x->as, id, sizeof id);
    size_t pl = strlen(pfx);
    if (rc)
        return rc;
    if (strncmp(id, pfx, pl) || !num_prefix(id + pl, n, &rest) || !rest[0])
        return cg_asm_error(x->as, "'%sn.%s' was expected", pfx, four ? "xyzw" : "x");
    if (four)
        return swz_of(x->as, rest, s);
    return chan_of(x->as, rest, &s[0]);
}

static int asm_vtx(ctx *x)
{
    cg_asm *as = x->as;
    bool sem = x->op->kind == R6K_SEMFETCH;
    uint32_t dst = 0, d[4] = {0}, src = 0, s[4] = {0}, off = 0, rid = 0;
    int rc;
    if ((rc = gpr_swz(x, sem ? "SEM" : "R", &dst, d, true)) || (rc = cg_asm_expect(as, ',')) ||
        (rc = gpr_swz(x, "R", &src, s, false)))
        return rc;
    if (cg_asm_accept(as, '+') && ((rc = digits(as, &off)) || (rc = cg_asm_expect(as, 'b'))))
        return rc;
    char id[8];
    if ((rc = cg_asm_expect(as, ',')) || (rc = cg_asm_ident(as, id, sizeof id)))
        return rc;
    if (strcmp(id, "RID"))
        return cg_asm_error(as, "'RID:' was expected");
    if ((rc = cg_asm_expect(as, ':')) || (rc = expr32(as, &rid)))
        return rc;
    if ((rc = set(x, sem ? R6F_VTX_SEM_SEMANTIC_ID : R6F_VTX_GPR_DST_GPR, dst)) ||
        (rc = set(x, R6F_VTX_W1_DST_SEL_X, d[0])) || (rc = set(x, R6F_VTX_W1_DST_SEL_Y, d[1])) ||
        (rc = set(x, R6F_VTX_W1_DST_SEL_Z, d[2])) || (rc = set(x, R6F_VTX_W1_DST_SEL_W, d[3])) ||
        (rc = set(x, R6F_VTX_W0_SRC_GPR, src)) || (rc = set(x, R6F_VTX_W0_SRC_SEL_X, s[0])) ||
        (rc = set(x, R6F_VTX_W2_OFFSET, off)) || (rc = set(x, R6F_VTX_W0_BUFFER_ID, rid)))
        return rc;
    return finish(x);
}

static int asm_tex(ctx *x)
{
    cg_asm *as = x->as;
    uint32_t dst = 0, d[4] = {0}, src = 0, s[4] = {0}, rid = 0, sid = 0;
    char id[16];
    int rc;
    if ((rc = gpr_swz(x, "R", &dst, d, true)) || (rc = cg_asm_expect(as, ',')) ||
        (rc = gpr_swz(x, "R", &src, s, true)) || (rc = cg_asm_expect(as, ',')) ||
        (rc = cg_asm_ident(as, id, sizeof id)))
        return rc;
    if (strcmp(id, "RID"))
        return cg_asm_error(as, "'RID:' was expected");
    if ((rc = cg_asm_expect(as, ':')) || (rc = expr32(as, &rid)) ||
        (rc = cg_asm_expect(as, ',')) || (rc = cg_asm_ident(as, id, sizeof id)))
        return rc;
    if (strcmp(id, "SID"))
        return cg_asm_error(as, "'SID:' was expected");
    if ((rc = cg_asm_expect(as, ':')) || (rc = expr32(as, &sid)) ||
        (rc = cg_asm_ident(as, id, sizeof id)))
        return rc;
    if (strcmp(id, "CT") || (rc = cg_asm_expect(as, ':')) || (rc = cg_asm_ident(as, id, sizeof id)))
        return rc ? rc : cg_asm_error(as, "'CT:' was expected");
    if (strlen(id) != 4 || strspn(id, "UN") != 4)
        return cg_asm_error(as, "'CT:' takes four of U and N");
    static const r6_fid ct[4] = {R6F_TEX_W1_COORD_TYPE_X, R6F_TEX_W1_COORD_TYPE_Y,
                                 R6F_TEX_W1_COORD_TYPE_Z, R6F_TEX_W1_COORD_TYPE_W};
    static const r6_fid ds[4] = {R6F_TEX_W1_DST_SEL_X, R6F_TEX_W1_DST_SEL_Y, R6F_TEX_W1_DST_SEL_Z,
                                 R6F_TEX_W1_DST_SEL_W};
    static const r6_fid ss[4] = {R6F_TEX_W2_SRC_SEL_X, R6F_TEX_W2_SRC_SEL_Y, R6F_TEX_W2_SRC_SEL_Z,
                                 R6F_TEX_W2_SRC_SEL_W};
    for (int i = 0; i < 4; i++)
        if ((rc = set(x, ct[i], id[i] == 'N')) || (rc = set(x, ds[i], d[i])) ||
            (rc = set(x, ss[i], s[i])))
            return rc;
    if ((rc = set(x, R6F_TEX_W1_DST_GPR, dst)) || (rc = set(x, R6F_TEX_W0_SRC_GPR, src)) ||
        (rc = set(x, R6F_TEX_W0_RESOURCE_ID, rid)) || (rc = set(x, R6F_TEX_W2_SAMPLER_ID, sid)))
        return rc;
    return finish(x);
}

static int statement(cg_asm *as, void *user, const char *name)
{
    rd_isa_asm_state *st = user;
    ctx x = {as, st->chip, NULL, {0}, {0}};
    char id[64];
    int rc;
    if (strcmp(name, ".chip") == 0) {
        if ((rc = cg_asm_ident(as, id, sizeof id)))
            return rc;
        if (strcmp(id, "r600") == 0)
            st->chip = R6_R600;
        else if (strcmp(id, "r700") == 0 || strcmp(id, "rv770") == 0)
            st->chip = R6_R700;
        else
            return cg_asm_error(as, "'.chip %s': r600 or r700", id);
        return 0;
    }
    /* an ALU slot: x y z w t, then the instruction */
    if (name[0] && !name[1] && strchr("xyzwt", name[0])) {
        if ((rc = cg_asm_ident(as, id, sizeof id)))
            return rc;
        return asm_alu(&x, id);
    }
    char base[64];
    snprintf(base, sizeof base, "%s", name);
    size_t n = strlen(base);
    if (n > 4 && strcmp(base + n - 4, "_sat") == 0)
        base[n - 4] = 0;
    const r6_op *op = r6_op_by_name(base);
    if (!op)
        return CG_ERR_NOENT;
    if (op->op[st->chip] == R6_NONE)
        return cg_asm_error(as, "%s is not an instruction of this chip", op->name);
    switch (op->cls) {
    case R6_CLS_ALU_OP2:
    case R6_CLS_ALU_OP3:
        return asm_alu(&x, name);
    case R6_CLS_CF_EXP:
        start(&x, op);
        return asm_exp(&x);
    case R6_CLS_VTX:
        start(&x, op);
        return asm_vtx(&x);
    case R6_CLS_TEX:
        start(&x, op);
        return asm_tex(&x);
    default:
        start(&x, op);
        return asm_cf(&x);
    }
}

static void begin_pass(cg_asm *as, void *user, int pass, bool final)
{
    (void)as, (void)pass, (void)final;
    rd_isa_asm_state *st = user;
    st->chip = st->dflt;
}

static const cg_asm_family isa_family = {"radeon-isa", statement, begin_pass};

const cg_asm_family *rd_isa_asm_family(void) { return &isa_family; }
