/* Maxwell shader instructions as text: the disassembler and the assembler,
 * both driven by the form table (sass.def). Dialect: docs/nv-sass.md. */
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmdgpu/asm.h"
#include "cmdgpu/nv_sass.h"
#include "nv/tables/sass.h"

/* Special registers (S2R), envydis gm107.c sys_sr, in nvdisasm spelling;
 * unnamed numbers print as SR_0xNN. */
static const char *const sr_names[256] = {
    [0x00] = "SR_LANEID", [0x01] = "SR_CLOCK", [0x02] = "SR_VIRTCFG", [0x03] = "SR_VIRTID",
    [0x04] = "SR_PM0", [0x05] = "SR_PM1", [0x06] = "SR_PM2", [0x07] = "SR_PM3",
    [0x08] = "SR_PM4", [0x09] = "SR_PM5", [0x0a] = "SR_PM6", [0x0b] = "SR_PM7",
    [0x10] = "SR_PRIM_TYPE", [0x11] = "SR_INVOCATION_ID", [0x12] = "SR_Y_DIRECTION",
    [0x13] = "SR_THREAD_KILL", [0x14] = "SR_SHADER_TYPE", [0x1c] = "SR_AFFINITY",
    [0x1d] = "SR_INVOCATION_INFO", [0x20] = "SR_TID", [0x21] = "SR_TID.X",
    [0x22] = "SR_TID.Y", [0x23] = "SR_TID.Z", [0x24] = "SR_CTA_PARAM",
    [0x25] = "SR_CTAID.X", [0x26] = "SR_CTAID.Y", [0x27] = "SR_CTAID.Z", [0x28] = "SR_NTID",
    [0x38] = "SR_EQMASK", [0x39] = "SR_LTMASK", [0x3a] = "SR_LEMASK", [0x3b] = "SR_GTMASK",
    [0x3c] = "SR_GEMASK", [0x50] = "SR_CLOCKLO", [0x51] = "SR_CLOCKHI",
    [0x52] = "SR_GLOBALTIMERLO", [0x53] = "SR_GLOBALTIMERHI",
};

/* ---- output ---- */

typedef struct sbuf {
    char *p;
    size_t cap, len;
} sbuf;

static void put(sbuf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    size_t room = b->len < b->cap ? b->cap - b->len : 0;
    int n = vsnprintf(room ? b->p + b->len : NULL, room, fmt, ap);
    va_end(ap);
    if (n > 0)
        b->len += (size_t)n;
}

static int64_t sext(uint64_t v, unsigned w)
{
    if (w == 0 || w >= 64)
        return (int64_t)v;
    uint64_t m = 1ull << (w - 1);
    return (int64_t)((v ^ m) - m);
}

static void put_signed(sbuf *b, int64_t v)
{
    if (v < 0)
        put(b, "-0x%llx", (unsigned long long)(0 - (uint64_t)v));
    else
        put(b, "0x%llx", (unsigned long long)v);
}

static void put_float(sbuf *b, uint32_t bits)
{
    float f;
    memcpy(&f, &bits, 4);
    if (isnan(f)) {
        put(b, "NAN(0x%08x)", bits);
    } else if (isinf(f)) {
        put(b, bits >> 31 ? "-INF" : "INF");
    } else {
        char t[40];
        snprintf(t, sizeof t, "%.9g", (double)f);
        put(b, "%s%s", t, strpbrk(t, ".e") ? "" : ".0");
    }
}

static void put_reg(sbuf *b, unsigned r)
{
    if (r == 255)
        put(b, "RZ");
    else
        put(b, "R%u", r);
}

static void put_addr(sbuf *b, unsigned ra, int64_t off, bool force_off)
{
    put(b, "[");
    if (ra == 255) {
        put_signed(b, off);
    } else {
        put_reg(b, ra);
        if (off || force_off) {
            put(b, off < 0 ? "-" : "+");
            put(b, "0x%llx", (unsigned long long)(off < 0 ? 0 - (uint64_t)off : (uint64_t)off));
        }
    }
    put(b, "]");
}

static bool is_imm(int kind)
{
    return kind == NV_SASS_K_I || kind == NV_SASS_K_S || kind == NV_SASS_K_F ||
           kind == NV_SASS_K_G || kind == NV_SASS_K_T;
}

static void put_operand(sbuf *b, const nv_sass_field *f, const nv_sass_insn *in, int i,
                        uint64_t pc)
{
    uint64_t v = in->fval[i];
    unsigned w = nv_sass_width(&f->bits);
    unsigned ra = (unsigned)(in->word >> 8 & 0xff);
    bool imm = is_imm(f->kind);
    int close = 0;
    if (imm) { /* attribute bits on an immediate: wrappers, so a sign stays the value's */
        if (in->fneg[i])
            put(b, "neg("), close++;
        if (in->fabs[i])
            put(b, "abs("), close++;
        if (in->finv[i])
            put(b, "not("), close++;
    } else {
        if (in->fneg[i])
            put(b, "-");
        if (in->finv[i])
            put(b, "~");
        if (in->fpnot[i])
            put(b, "!");
        if (in->fabs[i])
            put(b, "|");
    }
    switch (f->kind) {
    case NV_SASS_K_R:
    case NV_SASS_K_D:
        put_reg(b, (unsigned)v);
        break;
    case NV_SASS_K_P:
        put(b, v == 7 ? "PT" : "P%u", (unsigned)v);
        break;
    case NV_SASS_K_I:
        put(b, "0x%llx", (unsigned long long)v);
        break;
    case NV_SASS_K_S:
        put_signed(b, sext(v, w));
        break;
    case NV_SASS_K_F:
        put_float(b, (uint32_t)(w == 20 ? v << 12 : v));
        break;
    case NV_SASS_K_G:
        put_float(b, (uint32_t)v);
        break;
    case NV_SASS_K_T:
        put_signed(b, (int64_t)(pc + 8) + sext(v, w));
        break;
    case NV_SASS_K_C:
        put(b, "c[0x%x][0x%llx]", in->fbank[i], (unsigned long long)(v * 4));
        break;
    case NV_SASS_K_X:
        put(b, "c[0x%x]", in->fbank[i]);
        put_addr(b, ra, sext(v, w), false);
        break;
    case NV_SASS_K_M:
        put_addr(b, ra, sext(v, w), false);
        break;
    case NV_SASS_K_A:
        put(b, "a");
        put_addr(b, ra, (int64_t)v, false);
        break;
    case NV_SASS_K_Y:
        put(b, "a[0x%llx]", (unsigned long long)v);
        break;
    case NV_SASS_K_Q:
        if (sr_names[v & 0xff])
            put(b, "%s", sr_names[v & 0xff]);
        else
            put(b, "SR_0x%02x", (unsigned)v);
        break;
    default:
        break;
    }
    if (imm)
        while (close--)
            put(b, ")");
    else if (in->fabs[i])
        put(b, "|");
}

int nv_sass_format(uint64_t w, uint64_t pc, char *buf, size_t cap)
{
    nv_sass_insn in;
    nv_sass_layout l;
    if (nv_sass_decode(w, &in, &l) < 0)
        return -1;
    sbuf b = {buf, cap, 0};
    if (cap)
        buf[0] = 0;
    put(&b, "%s", nv_sass_forms[in.op].mnemonic);
    for (int i = 0; i < l.nfields; i++) {
        const nv_sass_field *f = &l.f[i];
        if (f->kind == NV_SASS_K_FIXED)
            put(&b, ".%s", f->names[0]);
        else if ((f->kind == NV_SASS_K_FLAG || f->kind == NV_SASS_K_ENUM) &&
                 f->names[in.fval[i]][0])
            put(&b, ".%s", f->names[in.fval[i]]);
    }
    if (l.guard && !(in.guard_pred == 7 && !in.guard_not))
        put(&b, in.guard_pred == 7 ? " @%sPT" : " @%sP%u", in.guard_not ? "!" : "",
            in.guard_pred);
    bool hide = true; /* operands with defaults, all at their default */
    for (int i = 0; i < l.nfields; i++)
        if (l.f[i].has_def && (in.fval[i] != l.f[i].def || in.fneg[i] || in.fabs[i] ||
                               in.finv[i] || in.fpnot[i]))
            hide = false;
    int nop = 0;
    for (int i = 0; i < l.nfields; i++) {
        if (!l.f[i].operand || (hide && l.f[i].has_def))
            continue;
        put(&b, nop++ ? ", " : " ");
        put_operand(&b, &l.f[i], &in, i, pc);
    }
    put(&b, ";");
    return (int)(b.len < cap ? b.len : cap ? cap - 1 : 0);
}

int nv_sass_format_sched(uint64_t w, char *buf, size_t cap)
{
    nv_sass_sched s[3];
    bool hi;
    nv_sass_sched_decode(w, s, &hi);
    sbuf b = {buf, cap, 0};
    if (cap)
        buf[0] = 0;
    put(&b, ".sched");
    for (int i = 0; i < 3; i++) {
        put(&b, "%s{stall=%u", i ? ", " : " ", s[i].stall);
        if (s[i].yield)
            put(&b, " yield");
        if (s[i].wbar != 7)
            put(&b, " wb=%u", s[i].wbar);
        if (s[i].rbar != 7)
            put(&b, " rb=%u", s[i].rbar);
        if (s[i].wait)
            put(&b, " wait=0x%x", s[i].wait);
        if (s[i].reuse)
            put(&b, " reuse=0x%x", s[i].reuse);
        put(&b, "}");
    }
    if (hi)
        put(&b, ", spare");
    put(&b, ";");
    return (int)(b.len < cap ? b.len : cap ? cap - 1 : 0);
}

/* ---- public text API ---- */

int cg_nv_sass_disasm_insn(uint64_t word, uint64_t pc, char *buf, size_t cap)
{
    if (!buf && cap)
        return CG_ERR_INVAL;
    int n = nv_sass_format(word, pc, buf, cap);
    if (n < 0) {
        char t[48];
        snprintf(t, sizeof t, ".dword 0x%016llx;", (unsigned long long)word);
        if (cap)
            snprintf(buf, cap, "%s", t);
        return 1;
    }
    return 0;
}

int cg_nv_sass_disasm_sched(uint64_t word, char *buf, size_t cap)
{
    if (!buf && cap)
        return CG_ERR_INVAL;
    nv_sass_format_sched(word, buf, cap);
    return 0;
}

static uint64_t load64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

int cg_nv_sass_disasm(const uint8_t *code, size_t size, uint64_t base, FILE *out)
{
    if ((!code && size) || !out)
        return CG_ERR_INVAL;
    char text[256];
    size_t n = size / 8;
    for (size_t i = 0; i < n; i++) {
        uint64_t w = load64(code + 8 * i), pc = base + 8 * i;
        if (i % 4 == 0)
            cg_nv_sass_disasm_sched(w, text, sizeof text);
        else
            cg_nv_sass_disasm_insn(w, pc, text, sizeof text);
        fprintf(out, "    %-60s /*%04llx*/ %016llx\n", text, (unsigned long long)pc,
                (unsigned long long)w);
    }
    if (n * 8 < size) {
        fprintf(out, "    .byte");
        for (size_t i = n * 8; i < size; i++)
            fprintf(out, "%s0x%02x", i > n * 8 ? ", " : " ", code[i]);
        fprintf(out, "\n");
    }
    return 0;
}

char *cg_nv_sass_disasm_string(const uint8_t *code, size_t size, bool with_sph)
{
    if (!code && size)
        return NULL;
    FILE *f = tmpfile();
    if (!f)
        return NULL;
    size_t start = 0;
    if (with_sph) {
        start = size < CG_NV_SPH_SIZE ? size : CG_NV_SPH_SIZE;
        cg_nv_sph_print(code, start, f, false);
    }
    cg_nv_sass_disasm(code + start, size - start, start, f);
    long n = ftell(f);
    char *s = n >= 0 ? malloc((size_t)n + 1) : NULL;
    rewind(f);
    if (s && fread(s, 1, (size_t)n, f) != (size_t)n) {
        free(s);
        s = NULL;
    }
    if (s)
        s[n] = 0;
    fclose(f);
    return s;
}

/* ---- input ---- */

enum tok_kind { T_REG, T_PRED, T_IMM, T_CBUF, T_MEM, T_ATTR, T_SREG };

typedef struct tok {
    int kind;
    bool neg, abs, inv, pnot, isfloat, hasreg;
    unsigned reg;   /* T_REG/T_PRED/T_SREG number; address register */
    int64_t ival;   /* integer value, address offset */
    uint32_t fbits; /* float value as IEEE single bits */
    int64_t bank;
} tok;

typedef struct sass_state {
    int remaining; /* instructions left in the current bundle */
} sass_state;

static bool reg_name(const char *s, unsigned *r)
{
    if (strcmp(s, "RZ") == 0) {
        *r = 255;
        return true;
    }
    if (s[0] != 'R' || s[1] < '0' || s[1] > '9' || strlen(s) > 4)
        return false;
    unsigned v = 0;
    for (const char *p = s + 1; *p; p++) {
        if (*p < '0' || *p > '9')
            return false;
        v = v * 10 + (unsigned)(*p - '0');
    }
    if (v > 255)
        return false;
    *r = v;
    return true;
}

static bool pred_name(const char *s, unsigned *p)
{
    if (strcmp(s, "PT") == 0) {
        *p = 7;
        return true;
    }
    if (s[0] == 'P' && s[1] >= '0' && s[1] <= '7' && !s[2]) {
        *p = (unsigned)(s[1] - '0');
        return true;
    }
    return false;
}

static bool sreg_name(const char *s, unsigned *v)
{
    for (unsigned i = 0; i < 256; i++)
        if (sr_names[i] && strcmp(sr_names[i], s) == 0) {
            *v = i;
            return true;
        }
    if (strncmp(s, "SR_0x", 5) == 0 && s[5] && strlen(s) <= 7) {
        char *end;
        unsigned long x = strtoul(s + 5, &end, 16);
        if (!*end && x < 256) {
            *v = (unsigned)x;
            return true;
        }
    }
    return false;
}

/* `[R1+expr]`, `[R1-expr]`, `[R1]`, `[expr]`; the '[' is consumed. */
static int parse_addr(cg_asm *as, tok *t)
{
    char id[64];
    t->reg = 255;
    if (cg_asm_peek_ident(as, id, sizeof id) && reg_name(id, &t->reg)) {
        cg_asm_ident(as, id, sizeof id);
        t->hasreg = true;
        if (cg_asm_accept(as, '+')) {
            if (cg_asm_expr(as, &t->ival))
                return CG_ERR_SYNTAX;
        } else if (cg_asm_accept(as, '-')) {
            if (cg_asm_expr(as, &t->ival))
                return CG_ERR_SYNTAX;
            t->ival = (int64_t)(0 - (uint64_t)t->ival);
        }
    } else if (cg_asm_expr(as, &t->ival)) {
        return CG_ERR_SYNTAX;
    }
    return cg_asm_expect(as, ']') ? CG_ERR_SYNTAX : 0;
}

static int parse_number(cg_asm *as, bool floats, bool negate, tok *t)
{
    char id[64];
    t->kind = T_IMM;
    if (cg_asm_peek_ident(as, id, sizeof id) &&
        (strcmp(id, "INF") == 0 || strcmp(id, "NAN") == 0)) {
        cg_asm_ident(as, id, sizeof id);
        t->isfloat = true;
        if (id[0] == 'I') {
            t->fbits = negate ? 0xff800000u : 0x7f800000u;
            return 0;
        }
        int64_t v;
        if (cg_asm_expect(as, '(') || cg_asm_expr(as, &v) || cg_asm_expect(as, ')'))
            return CG_ERR_SYNTAX;
        t->fbits = (uint32_t)v ^ (negate ? 0x80000000u : 0);
        return 0;
    }
    if (floats) {
        double d;
        if (cg_asm_float(as, &d))
            return CG_ERR_SYNTAX;
        if (negate)
            d = -d;
        /* out-of-range conversions are undefined in C: clamp first */
        float f = d > FLT_MAX ? INFINITY : d < -FLT_MAX ? -INFINITY : (float)d;
        memcpy(&t->fbits, &f, 4);
        t->isfloat = true;
        if (d >= -9.0e18 && d <= 9.0e18 && (double)(int64_t)d == d)
            t->ival = (int64_t)d;
        else
            t->ival = INT64_MIN; /* not an integer */
        return 0;
    }
    if (cg_asm_expr(as, &t->ival))
        return CG_ERR_SYNTAX;
    if (negate)
        t->ival = (int64_t)(0 - (uint64_t)t->ival);
    return 0;
}

static int parse_operand(cg_asm *as, bool floats, tok *t)
{
    char id[64];
    memset(t, 0, sizeof *t);
    /* immediate wrappers: neg(...), abs(...), not(...) */
    int close = 0;
    while (cg_asm_peek_ident(as, id, sizeof id) &&
           (strcmp(id, "neg") == 0 || strcmp(id, "abs") == 0 || strcmp(id, "not") == 0)) {
        cg_asm_ident(as, id, sizeof id);
        bool *flag = id[0] == 'n' ? (id[1] == 'e' ? &t->neg : &t->inv) : &t->abs;
        if (*flag)
            return cg_asm_error(as, "repeated %s()", id);
        *flag = true;
        if (cg_asm_expect(as, '('))
            return CG_ERR_SYNTAX;
        close++;
    }
    if (close) {
        if (parse_number(as, floats, cg_asm_accept(as, '-'), t))
            return CG_ERR_SYNTAX;
        while (close--)
            if (cg_asm_expect(as, ')'))
                return CG_ERR_SYNTAX;
        return 0;
    }
    bool minus = cg_asm_accept(as, '-');
    if (cg_asm_accept(as, '~'))
        t->inv = true;
    if (cg_asm_accept(as, '!'))
        t->pnot = true;
    if (cg_asm_accept(as, '|'))
        t->abs = true;
    if (cg_asm_peek_ident(as, id, sizeof id)) {
        bool known = true;
        if (reg_name(id, &t->reg))
            t->kind = T_REG;
        else if (pred_name(id, &t->reg))
            t->kind = T_PRED;
        else if (sreg_name(id, &t->reg))
            t->kind = T_SREG;
        else if (strcmp(id, "c") == 0 || strcmp(id, "a") == 0)
            t->kind = id[0] == 'c' ? T_CBUF : T_ATTR;
        else
            known = false;
        if (known) {
            t->neg = minus;
            cg_asm_ident(as, id, sizeof id);
            if (t->kind == T_CBUF) {
                if (cg_asm_expect(as, '[') || cg_asm_expr(as, &t->bank) ||
                    cg_asm_expect(as, ']') || cg_asm_expect(as, '[') || parse_addr(as, t))
                    return CG_ERR_SYNTAX;
            } else if (t->kind == T_ATTR) {
                if (cg_asm_expect(as, '[') || parse_addr(as, t))
                    return CG_ERR_SYNTAX;
            }
            if (t->abs && cg_asm_expect(as, '|'))
                return CG_ERR_SYNTAX;
            return 0;
        }
    }
    if (cg_asm_accept(as, '[')) {
        t->kind = T_MEM;
        t->neg = minus;
        return parse_addr(as, t);
    }
    if (t->inv || t->pnot || t->abs)
        return cg_asm_error(as, "'~', '!' and '|' go before a register; write not(), abs()");
    return parse_number(as, floats, minus, t);
}

static bool fits(int64_t v, unsigned w, bool is_signed)
{
    if (w >= 64)
        return true;
    int64_t lo = -(int64_t)(1ull << (w - 1)), hi = (int64_t)((1ull << w) - 1);
    if (is_signed)
        hi = (int64_t)((1ull << (w - 1)) - 1);
    return v >= lo && v <= hi;
}

/* Put token t into field f of w. 0, or 1 when t does not fit this field. */
static int encode_operand(const nv_sass_field *f, const tok *t, uint64_t pc, bool final,
                          uint64_t *w, const char **why)
{
    unsigned width = nv_sass_width(&f->bits);
    if ((t->neg && f->neg < 0) || (t->abs && f->abs < 0) || (t->inv && f->inv < 0) ||
        (t->pnot && f->pnot < 0)) {
        *why = "an operand modifier this form does not have";
        return 1;
    }
    uint64_t v = 0;
    switch (f->kind) {
    case NV_SASS_K_R:
    case NV_SASS_K_D:
        if (t->kind != T_REG)
            return 1;
        if (f->kind == NV_SASS_K_D && nv_sass_get(*w, &f->bits) != t->reg) {
            *why = "the last register must be the destination";
            return 1;
        }
        v = t->reg;
        break;
    case NV_SASS_K_P:
        if (t->kind != T_PRED)
            return 1;
        v = t->reg;
        break;
    case NV_SASS_K_Q:
        if (t->kind != T_SREG)
            return 1;
        v = t->reg;
        break;
    case NV_SASS_K_I:
    case NV_SASS_K_S:
        if (t->kind != T_IMM || (t->isfloat && t->ival == INT64_MIN)) {
            if (t->kind == T_IMM)
                *why = "an integer immediate is needed";
            return 1;
        }
        if (!fits(t->ival, width, false)) {
            *why = "immediate out of range";
            return 1;
        }
        v = (uint64_t)t->ival;
        break;
    case NV_SASS_K_F:
    case NV_SASS_K_G: {
        if (t->kind != T_IMM)
            return 1;
        uint32_t bits = t->fbits;
        if (!t->isfloat) {
            float fl = (float)t->ival;
            memcpy(&bits, &fl, 4);
        }
        if (width == 20 && (bits & 0xfff)) {
            *why = "float immediate needs more than 20 bits (use the 32I form)";
            return 1;
        }
        v = width == 20 ? bits >> 12 : bits;
        break;
    }
    case NV_SASS_K_T: {
        if (t->kind != T_IMM || t->isfloat)
            return 1;
        int64_t off = (int64_t)((uint64_t)t->ival - (pc + 8));
        if (final && !fits(off, width, true)) {
            *why = "branch target out of range";
            return 1;
        }
        v = (uint64_t)off;
        break;
    }
    case NV_SASS_K_C:
        if (t->kind != T_CBUF || t->hasreg)
            return 1;
        if (!fits(t->bank, nv_sass_width(&f->bank), false) || t->bank < 0 || t->ival < 0 ||
            (t->ival & 3) || !fits(t->ival / 4, width, false)) {
            *why = "constant buffer bank or offset out of range (offsets are multiples of 4)";
            return 1;
        }
        *w = nv_sass_put(*w, &f->bank, (uint64_t)t->bank);
        v = (uint64_t)t->ival / 4;
        break;
    case NV_SASS_K_X:
    case NV_SASS_K_M:
    case NV_SASS_K_A:
    case NV_SASS_K_Y: {
        int want = f->kind == NV_SASS_K_X ? T_CBUF : f->kind == NV_SASS_K_M ? T_MEM : T_ATTR;
        if (t->kind != want)
            return 1;
        if (f->kind == NV_SASS_K_Y && t->hasreg && t->reg != 255) {
            *why = "this form takes no address register";
            return 1;
        }
        if (f->kind == NV_SASS_K_X &&
            (t->bank < 0 || !fits(t->bank, nv_sass_width(&f->bank), false))) {
            *why = "constant buffer bank out of range";
            return 1;
        }
        bool is_signed = f->kind == NV_SASS_K_X || f->kind == NV_SASS_K_M;
        if (f->kind == NV_SASS_K_A && !f->bits.nseg) {
            if (t->ival) {
                *why = "this form takes no attribute offset";
                return 1;
            }
        } else if (!fits(t->ival, width, is_signed) || (!is_signed && t->ival < 0)) {
            *why = "address offset out of range";
            return 1;
        }
        if (f->kind == NV_SASS_K_X)
            *w = nv_sass_put(*w, &f->bank, (uint64_t)t->bank);
        if (f->kind != NV_SASS_K_Y)
            *w = (*w & ~(0xffull << 8)) | (uint64_t)(t->hasreg ? t->reg : 255) << 8;
        v = (uint64_t)t->ival;
        break;
    }
    default:
        return 1;
    }
    if (!(f->kind == NV_SASS_K_A && !f->bits.nseg) && f->kind != NV_SASS_K_D)
        *w = nv_sass_put(*w, &f->bits, v);
    if (f->neg >= 0 && t->neg)
        *w |= 1ull << f->neg;
    if (f->abs >= 0 && t->abs)
        *w |= 1ull << f->abs;
    if (f->inv >= 0 && t->inv)
        *w |= 1ull << f->inv;
    if (f->pnot >= 0 && t->pnot)
        *w |= 1ull << f->pnot;
    return 0;
}

#define MAX_SFX 12
#define MAX_OPS 8

/* Try form op with the parsed suffixes and operands. */
static int try_form(int op, char sfx[][20], int nsfx, bool gnot, unsigned gpred, bool gset,
                    const tok *ops, int nops, uint64_t pc, bool final, uint64_t *out,
                    const char **why)
{
    nv_sass_layout l;
    if (nv_sass_layout_of(op, &l))
        return 1;
    uint64_t w = nv_sass_forms[op].value;
    bool seen[NV_SASS_MAX_FIELDS] = {0};
    int cur = 0;
    for (int s = 0; s < nsfx; s++) {
        int hit = -1;
        for (int i = cur; i < l.nfields && hit < 0; i++) {
            const nv_sass_field *f = &l.f[i];
            if (f->operand)
                continue;
            for (int k = 0; k < f->nnames; k++)
                if (f->names[k][0] && strcmp(f->names[k], "?") && !strcmp(f->names[k], sfx[s])) {
                    hit = i;
                    if (f->kind != NV_SASS_K_FIXED)
                        w = nv_sass_put(w, &f->bits, (uint64_t)k);
                    break;
                }
        }
        if (hit < 0) {
            *why = "a suffix this form does not take (or out of order)";
            return 1;
        }
        seen[hit] = true;
        cur = hit + 1;
    }
    int nopf = 0, ndef = 0;
    for (int i = 0; i < l.nfields; i++) {
        ndef += l.f[i].has_def;
        const nv_sass_field *f = &l.f[i];
        if (f->kind == NV_SASS_K_FIXED && !seen[i]) {
            *why = "a required suffix is missing";
            return 1;
        }
        if (f->kind == NV_SASS_K_ENUM && !seen[i]) { /* the "no suffix" value */
            int k = 0;
            while (k < f->nnames && f->names[k][0])
                k++;
            if (k == f->nnames) {
                *why = "a required suffix is missing";
                return 1;
            }
            w = nv_sass_put(w, &f->bits, (uint64_t)k);
        }
        nopf += f->operand;
    }
    bool omitted = ndef && nops == nopf - ndef;
    if (nopf != nops && !omitted) {
        *why = "wrong number of operands";
        return 1;
    }
    if (l.guard)
        w |= (uint64_t)gpred << 16 | (uint64_t)gnot << 19;
    else if (gset && (gpred != 7 || gnot)) {
        *why = "this instruction takes no predicate guard";
        return 1;
    }
    int k = 0;
    for (int i = 0; i < l.nfields; i++) {
        if (!l.f[i].operand)
            continue;
        if (omitted && l.f[i].has_def)
            w = nv_sass_put(w, &l.f[i].bits, l.f[i].def);
        else if (encode_operand(&l.f[i], &ops[k++], pc, final, &w, why))
            return 1;
    }
    /* the result must read back as this form (e.g. IPA's RZ) */
    nv_sass_insn chk;
    if (nv_sass_decode(w, &chk, NULL) != op) {
        *why = "the operands do not fit this form";
        return 1;
    }
    *out = w;
    return 0;
}

static int emit64(cg_asm *as, uint64_t w)
{
    uint8_t b[8];
    for (int i = 0; i < 8; i++)
        b[i] = (uint8_t)(w >> (8 * i));
    return cg_asm_emit(as, b, 8);
}


static uint64_t sched_default(void)
{
    nv_sass_sched s[3];
    for (int i = 0; i < 3; i++)
        s[i] = (nv_sass_sched){.stall = 15, .wbar = 7, .rbar = 7};
    return nv_sass_sched_encode(s, false);
}

static int sched_statement(cg_asm *as, sass_state *st)
{
    nv_sass_sched s[3];
    bool spare = false;
    for (int i = 0; i < 3; i++) {
        s[i] = (nv_sass_sched){.wbar = 7, .rbar = 7};
        if ((i && cg_asm_expect(as, ',')) || cg_asm_expect(as, '{'))
            return CG_ERR_SYNTAX;
        while (!cg_asm_accept(as, '}')) {
            char key[16];
            int64_t v = 1;
            if (cg_asm_ident(as, key, sizeof key))
                return CG_ERR_SYNTAX;
            bool is_yield = strcmp(key, "yield") == 0;
            if (!is_yield && (cg_asm_expect(as, '=') || cg_asm_expr(as, &v)))
                return CG_ERR_SYNTAX;
            struct {
                const char *name;
                int64_t max;
            } const keys[] = {{"stall", 15}, {"yield", 1}, {"wb", 7},
                              {"rb", 7},     {"wait", 63}, {"reuse", 15}};
            int k = 0;
            while (k < 6 && strcmp(keys[k].name, key))
                k++;
            if (k == 6)
                return cg_asm_error(as, "unknown control field '%s' (stall, yield, wb, rb, "
                                        "wait, reuse)", key);
            if (v < 0 || v > keys[k].max)
                return cg_asm_error(as, "%s=%lld out of range 0..%lld", key, (long long)v,
                                    (long long)keys[k].max);
            uint8_t u = (uint8_t)v;
            switch (k) {
            case 0: s[i].stall = u; break;
            case 1: s[i].yield = true; break;
            case 2: s[i].wbar = u; break;
            case 3: s[i].rbar = u; break;
            case 4: s[i].wait = u; break;
            default: s[i].reuse = u; break;
            }
        }
    }
    if (cg_asm_accept(as, ',')) {
        char key[16];
        if (cg_asm_ident(as, key, sizeof key))
            return CG_ERR_SYNTAX;
        if (strcmp(key, "spare"))
            return cg_asm_error(as, "expected 'spare' (bit 63)");
        spare = true;
    }
    st->remaining = 3;
    return emit64(as, nv_sass_sched_encode(s, spare));
}

static bool mnemonic_has_float(const char *mn)
{
    for (int op = 0; op < NV_SASS_COUNT; op++) {
        if (strcmp(nv_sass_forms[op].mnemonic, mn))
            continue;
        nv_sass_layout l;
        if (nv_sass_layout_of(op, &l))
            continue;
        for (int i = 0; i < l.nfields; i++)
            if (l.f[i].kind == NV_SASS_K_F || l.f[i].kind == NV_SASS_K_G)
                return true;
    }
    return false;
}

static int sass_statement(cg_asm *as, void *user, const char *name)
{
    sass_state *st = user;
    sass_state dummy = {0};
    if (!st)
        st = &dummy;
    if (strcmp(name, ".sched") == 0)
        return sched_statement(as, st);
    if (name[0] == '.')
        return CG_ERR_NOENT;
    char base[64], sfx[MAX_SFX][20];
    int nsfx = 0;
    const char *dot = strchr(name, '.');
    size_t bl = dot ? (size_t)(dot - name) : strlen(name);
    if (bl >= sizeof base)
        return CG_ERR_NOENT;
    memcpy(base, name, bl);
    base[bl] = 0;
    int first = -1;
    for (int op = 0; op < NV_SASS_COUNT && first < 0; op++)
        if (strcmp(nv_sass_forms[op].mnemonic, base) == 0)
            first = op;
    if (first < 0)
        return CG_ERR_NOENT;
    while (dot) {
        const char *s = dot + 1;
        dot = strchr(s, '.');
        size_t n = dot ? (size_t)(dot - s) : strlen(s);
        /* SR_TID.X-style names never reach here: suffixes are short words */
        if (nsfx == MAX_SFX || n == 0 || n >= sizeof sfx[0])
            return cg_asm_error(as, "bad suffix list in '%s'", name);
        memcpy(sfx[nsfx], s, n);
        sfx[nsfx++][n] = 0;
    }
    /* guard */
    bool gset = false, gnot = false;
    unsigned gpred = 7;
    if (cg_asm_accept(as, '@')) {
        char id[16];
        gset = true;
        gnot = cg_asm_accept(as, '!');
        if (cg_asm_ident(as, id, sizeof id))
            return CG_ERR_SYNTAX;
        if (!pred_name(id, &gpred))
            return cg_asm_error(as, "guard '%s' is not a predicate (P0..P6, PT)", id);
    }
    bool floats = mnemonic_has_float(base);
    tok ops[MAX_OPS];
    int nops = 0;
    if (!cg_asm_eol(as)) {
        do {
            if (nops == MAX_OPS)
                return cg_asm_error(as, "too many operands");
            if (parse_operand(as, floats, &ops[nops++]))
                return CG_ERR_SYNTAX;
        } while (cg_asm_accept(as, ','));
    }
    if (st->remaining == 0) { /* start a bundle: a default control word */
        if (emit64(as, sched_default()))
            return CG_ERR_NOMEM;
        st->remaining = 3;
    }
    uint64_t pc = cg_asm_pc(as), w = 0;
    const char *why = "no form matches";
    bool final = cg_asm_final_pass(as);
    for (int op = first; op < NV_SASS_COUNT; op++) {
        if (strcmp(nv_sass_forms[op].mnemonic, base))
            continue;
        const char *why1 = why;
        if (try_form(op, sfx, nsfx, gnot, gpred, gset, ops, nops, pc, final, &w, &why1) == 0) {
            st->remaining--;
            return emit64(as, w);
        }
        why = why1;
    }
    if (!final) { /* labels may still move: keep the size */
        st->remaining--;
        return emit64(as, 0);
    }
    return cg_asm_error(as, "no form of %s takes this: %s", base, why);
}

static void sass_begin_pass(cg_asm *as, void *user, int pass, bool final)
{
    (void)as, (void)pass, (void)final;
    sass_state *st = user;
    if (st)
        st->remaining = 0;
}

static const cg_asm_family sass_family = {"nv-sass", sass_statement, sass_begin_pass};

const struct cg_asm_family *nv_sass_asm_family(void)
{
    return &sass_family;
}

const struct cg_asm_family *cg_nv_sass_asm_family(void)
{
    return &sass_family;
}

size_t cg_nv_sass_asm_state_size(void)
{
    return sizeof(sass_state);
}

int cg_nv_sass_assemble(const char *text, size_t len, uint8_t **out, size_t *out_size,
                        char **errors)
{
    if (!text || !out || !out_size)
        return CG_ERR_INVAL;
    *out = NULL;
    *out_size = 0;
    if (errors)
        *errors = NULL;
    sass_state st = {0};
    cg_asm *as;
    int rc = cg_asm_create(&sass_family, &st, &as);
    if (rc)
        return rc;
    rc = cg_asm_add_source(as, "<nv-sass>", text, len);
    if (!rc)
        rc = cg_asm_assemble(as);
    if (rc && errors) {
        const char *e = cg_asm_errors(as);
        *errors = malloc(strlen(e) + 1);
        if (*errors)
            strcpy(*errors, e);
    }
    if (!rc && cg_asm_section_count(as)) {
        const char *nm;
        uint64_t base;
        const uint8_t *data;
        size_t size;
        cg_asm_section(as, 0, &nm, &base, &data, &size);
        *out = malloc(size ? size : 1);
        if (!*out)
            rc = CG_ERR_NOMEM;
        else {
            if (size)
                memcpy(*out, data, size);
            *out_size = size;
        }
    }
    cg_asm_destroy(as);
    return rc;
}
