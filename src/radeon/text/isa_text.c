/* radeon family: the R600/R700 shader disassembler (`cmdgpu disasm -f
 * radeon-isa`; syntax in docs/radeon-isa.md, after Mesa's R600_DEBUG dump,
 * r600_asm.c r600_bytecode_disasm).
 *
 * The program is walked as the sequencer does: CF instructions from word 0
 * until END_OF_PROGRAM, then the clauses they point to (ALU groups with
 * their literals, TEX and VTX instructions). The listing is in address
 * order, one line per instruction with its offset (in dwords, as Mesa) and
 * words in a comment; every byte the walk did not reach, and every
 * instruction without a text form, lists as `.word` lines. Hostile input
 * (clauses past the end or over other code, counts past the end, groups
 * without LAST, undefined opcodes) gives `# fault:` lines; the walk visits
 * each 8-byte unit at most once, so it ends and never reads outside the
 * input. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "core/json.h"
#include "radeon/text/isa_text.h"

/* ---- a small string builder ---- */
typedef struct sb {
    char *p;
    size_t n, cap;
} sb;

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static void put(sb *s, const char *fmt, ...)
{
    if (s->n >= s->cap)
        return;
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(s->p + s->n, s->cap - s->n, fmt, ap);
    va_end(ap);
    if (k > 0)
        s->n = s->n + (size_t)k < s->cap ? s->n + (size_t)k : s->cap - 1;
}

static const char SWZ[] = "xyzw016_"; /* Mesa's "xyzw01?_", 6 (reserved) as '6' */
static const char CHAN[] = "xyzw";

/* Fields not printed by an instruction's syntax, as extras: `SHORT` for a
 * one-bit flag off its default, else `SHORT:value` (or NAME:value) or the
 * value's token (R6_ENUM). */
static void extras(sb *s, r6_chip c, const r6_op *op, const uint32_t *w, const bool *done)
{
    uint8_t forms[5];
    r6_op_forms(op, forms);
    for (unsigned k = 0; forms[k] != R6_NFORMS; k++)
        for (unsigned j = 0; j < R6_NFIELDS; j++) {
            const r6_field *f = &r6_fields[j];
            if (f->form != forms[k] || !r6_field_on(f, c) || done[j])
                continue;
            uint32_t v = r6_get(c, w, (r6_fid)j);
            if (v == f->dflt)
                continue;
            const char *tok = r6_enum_token((r6_fid)j, v);
            if (tok)
                put(s, " %s", tok);
            else if (f->sh[0] && f->hi[c] == f->lo[c])
                put(s, " %s", f->sh);
            else
                put(s, " %s:%" PRIu32, f->sh[0] ? f->sh : f->name, v);
        }
}

/* ---- CF ---- */

static void fmt_cf(sb *s, r6_chip c, const r6_op *op, const uint32_t *w, bool *done)
{
    put(s, "%s", op->name);
    if (op->cls == R6_CLS_CF) {
        done[R6F_CF_W1_CF_INST] = done[R6F_CF_W0_ADDR] = true;
        if (op->kind == R6K_CLAUSE_TEX || op->kind == R6K_CLAUSE_VTX) {
            uint32_t n = r6_get(c, w, R6F_CF_W1_COUNT) + (r6_get(c, w, R6F_CF_W1_COUNT_3) << 3) + 1;
            put(s, " %" PRIu32, n);
            done[R6F_CF_W1_COUNT] = done[R6F_CF_W1_COUNT_3] = true;
        }
        put(s, " @%" PRIu32, w[0]);
        return;
    }
    /* CF_ALU: count, address, the kcache locks as Mesa prints them */
    done[R6F_CFA_W1_CF_INST] = done[R6F_CFA_W0_ADDR] = done[R6F_CFA_W1_COUNT] = true;
    put(s, " %" PRIu32 " @%" PRIu32, r6_get(c, w, R6F_CFA_W1_COUNT) + 1,
        r6_get(c, w, R6F_CFA_W0_ADDR));
    static const r6_fid kc[2][3] = {
        {R6F_CFA_W0_KCACHE_MODE0, R6F_CFA_W0_KCACHE_BANK0, R6F_CFA_W1_KCACHE_ADDR0},
        {R6F_CFA_W1_KCACHE_MODE1, R6F_CFA_W0_KCACHE_BANK1, R6F_CFA_W1_KCACHE_ADDR1}};
    for (int i = 0; i < 2; i++) {
        uint32_t mode = r6_get(c, w, kc[i][0]);
        if (!mode)
            continue;
        uint32_t start = r6_get(c, w, kc[i][2]) << 4;
        put(s, " KC%d[CB%" PRIu32 ":%" PRIu32 "-%" PRIu32 "]", i, r6_get(c, w, kc[i][1]), start,
            start + (mode << 4));
        done[kc[i][0]] = done[kc[i][1]] = done[kc[i][2]] = true;
    }
}

static void fmt_exp(sb *s, r6_chip c, const r6_op *op, const uint32_t *w, bool *done)
{
    static const char *const exp_type[] = {"PIXEL", "POS", "PARAM", "TYPE_3"};
    static const char *const mem600[] = {"WRITE", "WRITE_IND", "READ", "READ_IND"};
    static const char *const mem700[] = {"WRITE", "WRITE_IND", "WRITE_ACK", "WRITE_IND_ACK"};
    uint32_t type = r6_get(c, w, R6F_EXP_W0_TYPE), base = r6_get(c, w, R6F_EXP_W0_ARRAY_BASE);
    uint32_t gpr = r6_get(c, w, R6F_EXP_W0_RW_GPR), burst = r6_get(c, w, R6F_EXP_W1_BURST_COUNT);
    bool exp = op->kind == R6K_EXPORT;
    put(s, "%s %s ", op->name, exp ? exp_type[type] : (c == R6_R600 ? mem600 : mem700)[type]);
    if (burst)
        put(s, "%" PRIu32 "-%" PRIu32 " R%" PRIu32 "-%" PRIu32 ".", base, base + burst, gpr,
            gpr + burst);
    else
        put(s, "%" PRIu32 " R%" PRIu32 ".", base, gpr);
    if (exp) {
        put(s, "%c%c%c%c", SWZ[r6_get(c, w, R6F_EXP_SWIZ_SEL_X)],
            SWZ[r6_get(c, w, R6F_EXP_SWIZ_SEL_Y)], SWZ[r6_get(c, w, R6F_EXP_SWIZ_SEL_Z)],
            SWZ[r6_get(c, w, R6F_EXP_SWIZ_SEL_W)]);
        done[R6F_EXP_SWIZ_SEL_X] = done[R6F_EXP_SWIZ_SEL_Y] = true;
        done[R6F_EXP_SWIZ_SEL_Z] = done[R6F_EXP_SWIZ_SEL_W] = true;
    } else {
        uint32_t m = r6_get(c, w, R6F_EXP_BUF_COMP_MASK);
        for (int i = 0; i < 4; i++)
            put(s, "%c", (m >> i) & 1 ? CHAN[i] : '_');
        done[R6F_EXP_BUF_COMP_MASK] = true;
    }
    done[R6F_EXP_W0_TYPE] = done[R6F_EXP_W0_ARRAY_BASE] = done[R6F_EXP_W0_RW_GPR] = true;
    done[R6F_EXP_W1_BURST_COUNT] = done[R6F_EXP_W1_CF_INST] = true;
}

/* ---- ALU ---- */

static void fmt_float(sb *s, uint32_t bits)
{
    float f;
    memcpy(&f, &bits, 4);
    put(s, "%f", (double)f);
}

/* One source: Mesa's print_src, with the differences of docs/radeon-isa.md
 * (C<n> for the R600 constant file, a channel where Mesa leaves out a
 * nonzero one). */
static void fmt_src(sb *s, uint32_t sel, uint32_t rel, uint32_t chan, uint32_t neg, uint32_t abs,
                    uint32_t im, const uint32_t *lit, unsigned nlit)
{
    const char *ar = im == 4 ? "AL" : "AR";
    if (neg)
        put(s, "-");
    if (abs)
        put(s, "|");
    bool need_chan = true;
    if (sel < 128 || sel >= 256) {
        char r = sel < 124 ? 'R' : sel < 128 ? 'T' : 'C';
        uint32_t n = sel < 124 ? sel : sel < 128 ? sel - 124 : sel - 256;
        if (rel)
            put(s, "%c[%" PRIu32 "+%s]", r, n, ar);
        else
            put(s, "%c%" PRIu32, r, n);
    } else if (sel < 192) {
        put(s, "KC%d[%" PRIu32 "%s%s]", sel < 160 ? 0 : 1, sel < 160 ? sel - 128 : sel - 160,
            rel ? "+" : "", rel ? ar : "");
    } else {
        need_chan = chan != 0;
        switch (sel) {
        case R6_SRC_0: put(s, "0"); break;
        case R6_SRC_1_INT: put(s, "1"); break;
        case R6_SRC_M_1_INT: put(s, "-1"); break;
        case R6_SRC_1: put(s, "1.0"); break;
        case R6_SRC_0_5: put(s, "0.5"); break;
        case R6_SRC_PS: put(s, "PS"); break;
        case R6_SRC_PV: put(s, "PV"); need_chan = true; break;
        case R6_SRC_LITERAL:
            if (lit && chan < nlit) {
                put(s, "[0x%08" PRIX32 " ", lit[chan]);
                fmt_float(s, lit[chan]);
                put(s, "]");
            } else {
                put(s, "[LITERAL]");
            }
            break;
        default: put(s, "IMM_%" PRIu32, sel); need_chan = true; break;
        }
        if (rel)
            put(s, "+%s", ar);
    }
    if (need_chan)
        put(s, ".%c", CHAN[chan]);
    if (abs)
        put(s, "|");
}

static void fmt_alu(sb *s, r6_chip c, const r6_op *op, const uint32_t *w, const uint32_t *lit,
                    unsigned nlit, bool *done)
{
    bool op2 = op->cls == R6_CLS_ALU_OP2;
    uint32_t omod = op2 ? r6_get(c, w, R6F_ALU_OP2_OMOD) : 0;
    static const char *const om[] = {"", "*2", "*4", "/2"};
    put(s, "%s%s%s", op->name, r6_get(c, w, R6F_ALU_W1_CLAMP) ? "_sat" : "", om[omod]);
    done[R6F_ALU_W1_CLAMP] = done[R6F_ALU_OP2_OMOD] = true;
    done[R6F_ALU_OP2_ALU_INST] = done[R6F_ALU_OP3_ALU_INST] = true;
    /* destination */
    uint32_t gpr = r6_get(c, w, R6F_ALU_W1_DST_GPR), rel = r6_get(c, w, R6F_ALU_W1_DST_REL);
    uint32_t chan = r6_get(c, w, R6F_ALU_W1_DST_CHAN), im = r6_get(c, w, R6F_ALU_W0_INDEX_MODE);
    bool wr = !op2 || r6_get(c, w, R6F_ALU_OP2_WRITE_MASK);
    put(s, " %s", wr ? "" : "__");
    if (wr || gpr || rel) {
        char r = gpr < 124 ? 'R' : 'T';
        uint32_t n = gpr < 124 ? gpr : gpr - 124;
        if (rel)
            put(s, "%c[%" PRIu32 "+%s]", r, n, im == 4 ? "AL" : "AR");
        else
            put(s, "%c%" PRIu32, r, n);
    }
    put(s, ".%c", CHAN[chan]);
    done[R6F_ALU_W1_DST_GPR] = done[R6F_ALU_W1_DST_REL] = done[R6F_ALU_W1_DST_CHAN] = true;
    done[R6F_ALU_OP2_WRITE_MASK] = true;
    /* sources */
    const r6_fid (*sf)[5] = r6_alu_src_fields;
    for (unsigned i = 0; i < op->nsrc; i++) {
        uint32_t sel = r6_get(c, w, sf[i][0]), neg = r6_get(c, w, sf[i][3]);
        uint32_t abs = op2 && i < 2 ? r6_get(c, w, sf[i][4]) : 0;
        /* an inline constant's NEG prints as an extra (SRCn_NEG:1): "-1" is
         * ALU_SRC_M_1_INT */
        bool inl = sel >= R6_SRC_0 && sel <= R6_SRC_0_5;
        put(s, ", ");
        fmt_src(s, sel, r6_get(c, w, sf[i][1]), r6_get(c, w, sf[i][2]), inl ? 0 : neg, abs, im,
                lit, nlit);
        done[sf[i][0]] = done[sf[i][1]] = done[sf[i][2]] = true;
        done[sf[i][3]] = !inl;
        if (op2 && i < 2)
            done[sf[i][4]] = true;
    }
    done[R6F_ALU_W0_LAST] = true;
    extras(s, c, op, w, done);
    if (r6_get(c, w, R6F_ALU_W0_LAST))
        put(s, " LAST");
}

/* ---- fetch ---- */

static void fmt_swz4(sb *s, uint32_t x, uint32_t y, uint32_t z, uint32_t ww)
{
    put(s, "%c%c%c%c", SWZ[x], SWZ[y], SWZ[z], SWZ[ww]);
}

static void fmt_vtx(sb *s, r6_chip c, const r6_op *op, const uint32_t *w, bool *done)
{
    bool sem = op->kind == R6K_SEMFETCH;
    if (sem)
        put(s, "%s SEM%" PRIu32 ".", op->name, r6_get(c, w, R6F_VTX_SEM_SEMANTIC_ID));
    else
        put(s, "%s R%" PRIu32 ".", op->name, r6_get(c, w, R6F_VTX_GPR_DST_GPR));
    fmt_swz4(s, r6_get(c, w, R6F_VTX_W1_DST_SEL_X), r6_get(c, w, R6F_VTX_W1_DST_SEL_Y),
             r6_get(c, w, R6F_VTX_W1_DST_SEL_Z), r6_get(c, w, R6F_VTX_W1_DST_SEL_W));
    put(s, ", R%" PRIu32 ".%c", r6_get(c, w, R6F_VTX_W0_SRC_GPR),
        CHAN[r6_get(c, w, R6F_VTX_W0_SRC_SEL_X)]);
    uint32_t off = r6_get(c, w, R6F_VTX_W2_OFFSET);
    if (off)
        put(s, " +%" PRIu32 "b", off);
    put(s, ", RID:%" PRIu32, r6_get(c, w, R6F_VTX_W0_BUFFER_ID));
    done[R6F_VTX_SEM_SEMANTIC_ID] = done[R6F_VTX_GPR_DST_GPR] = true;
    done[R6F_VTX_W1_DST_SEL_X] = done[R6F_VTX_W1_DST_SEL_Y] = true;
    done[R6F_VTX_W1_DST_SEL_Z] = done[R6F_VTX_W1_DST_SEL_W] = true;
    done[R6F_VTX_W0_SRC_GPR] = done[R6F_VTX_W0_SRC_SEL_X] = done[R6F_VTX_W2_OFFSET] = true;
    done[R6F_VTX_W0_BUFFER_ID] = done[R6F_VTX_W0_VTX_INST] = true;
}

static void fmt_tex(sb *s, r6_chip c, const r6_op *op, const uint32_t *w, bool *done)
{
    put(s, "%s R%" PRIu32 ".", op->name, r6_get(c, w, R6F_TEX_W1_DST_GPR));
    fmt_swz4(s, r6_get(c, w, R6F_TEX_W1_DST_SEL_X), r6_get(c, w, R6F_TEX_W1_DST_SEL_Y),
             r6_get(c, w, R6F_TEX_W1_DST_SEL_Z), r6_get(c, w, R6F_TEX_W1_DST_SEL_W));
    put(s, ", R%" PRIu32 ".", r6_get(c, w, R6F_TEX_W0_SRC_GPR));
    fmt_swz4(s, r6_get(c, w, R6F_TEX_W2_SRC_SEL_X), r6_get(c, w, R6F_TEX_W2_SRC_SEL_Y),
             r6_get(c, w, R6F_TEX_W2_SRC_SEL_Z), r6_get(c, w, R6F_TEX_W2_SRC_SEL_W));
    put(s, ", RID:%" PRIu32 ", SID:%" PRIu32 " CT:%c%c%c%c", r6_get(c, w, R6F_TEX_W0_RESOURCE_ID),
        r6_get(c, w, R6F_TEX_W2_SAMPLER_ID), r6_get(c, w, R6F_TEX_W1_COORD_TYPE_X) ? 'N' : 'U',
        r6_get(c, w, R6F_TEX_W1_COORD_TYPE_Y) ? 'N' : 'U',
        r6_get(c, w, R6F_TEX_W1_COORD_TYPE_Z) ? 'N' : 'U',
        r6_get(c, w, R6F_TEX_W1_COORD_TYPE_W) ? 'N' : 'U');
    static const r6_fid d[] = {R6F_TEX_W0_TEX_INST,     R6F_TEX_W1_DST_GPR,
                               R6F_TEX_W1_DST_SEL_X,    R6F_TEX_W1_DST_SEL_Y,
                               R6F_TEX_W1_DST_SEL_Z,    R6F_TEX_W1_DST_SEL_W,
                               R6F_TEX_W0_SRC_GPR,      R6F_TEX_W2_SRC_SEL_X,
                               R6F_TEX_W2_SRC_SEL_Y,    R6F_TEX_W2_SRC_SEL_Z,
                               R6F_TEX_W2_SRC_SEL_W,    R6F_TEX_W0_RESOURCE_ID,
                               R6F_TEX_W2_SAMPLER_ID,   R6F_TEX_W1_COORD_TYPE_X,
                               R6F_TEX_W1_COORD_TYPE_Y, R6F_TEX_W1_COORD_TYPE_Z,
                               R6F_TEX_W1_COORD_TYPE_W};
    for (size_t i = 0; i < sizeof d / sizeof d[0]; i++)
        done[d[i]] = true;
}

bool rd_isa_format(r6_chip c, r6_class cls, const uint32_t *w, const uint32_t *lit,
                   unsigned nlit, char *buf, size_t cap)
{
    const r6_op *op = cls == R6_CLS_CF    ? r6_decode_cf(c, w)
                      : cls == R6_CLS_TEX ? r6_decode_fetch(c, true, w)
                      : cls == R6_CLS_VTX ? r6_decode_fetch(c, false, w)
                                          : r6_decode_alu(c, w);
    if (cap)
        buf[0] = 0;
    if (!op || !r6_op_clean(op, c, w) || cap == 0)
        return false;
    bool done[R6_NFIELDS + 1] = {false};
    sb s = {buf, 0, cap};
    switch (op->cls) {
    case R6_CLS_CF:
    case R6_CLS_CF_ALU:
        fmt_cf(&s, c, op, w, done);
        break;
    case R6_CLS_CF_EXP:
        fmt_exp(&s, c, op, w, done);
        break;
    case R6_CLS_ALU_OP2:
    case R6_CLS_ALU_OP3:
        fmt_alu(&s, c, op, w, lit, nlit, done);
        return s.n + 1 < cap;
    case R6_CLS_VTX:
        fmt_vtx(&s, c, op, w, done);
        break;
    default:
        fmt_tex(&s, c, op, w, done);
        break;
    }
    extras(&s, c, op, w, done);
    return s.n + 1 < cap;
}

/* ---- the walk ---- */

enum { U_RAW, U_CF, U_ALU, U_LIT, U_TEX, U_VTX, U_FETCH2 };

typedef struct unit {
    uint8_t kind;
    char slot;       /* ALU: x y z w t */
    bool reached;    /* the walk reached it (a raw one is then unknown) */
    uint32_t group;  /* ALU: group number from 1; LIT: its group */
    uint32_t lit;    /* ALU: unit index of the group's literals */
    uint8_t nlit;    /* ALU: literal dwords present */
} unit;

typedef struct fault_note {
    size_t at; /* unit index the note comes before (nunits: at the end) */
    char msg[160];
} fault_note;

typedef struct walk {
    r6_chip c;
    const uint8_t *d;
    size_t n; /* units */
    unit *u;
    fault_note *notes;
    size_t nnotes, capnotes;
    unsigned unknown;
} walk;

static uint32_t rd32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void words(const walk *wk, size_t unit_i, unsigned nw, uint32_t *w)
{
    for (unsigned i = 0; i < nw; i++)
        w[i] = rd32(wk->d + unit_i * 8 + 4 * i);
}

#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
static void fault(walk *wk, size_t at, const char *fmt, ...)
{
    wk->unknown++;
    if (wk->nnotes == wk->capnotes) {
        size_t cap = wk->capnotes ? wk->capnotes * 2 : 16;
        fault_note *n = realloc(wk->notes, cap * sizeof *n);
        if (!n)
            return;
        wk->notes = n, wk->capnotes = cap;
    }
    fault_note *n = &wk->notes[wk->nnotes++];
    n->at = at;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(n->msg, sizeof n->msg, fmt, ap);
    va_end(ap);
}

typedef struct clause {
    size_t cf;     /* the CF unit */
    uint32_t addr; /* units */
    uint32_t count;/* ALU: units; TEX/VTX: instructions */
    uint8_t kind;  /* U_ALU, U_TEX, U_VTX */
} clause;

static bool claim(walk *wk, size_t cf, size_t at, const char *what)
{
    if (at >= wk->n) {
        fault(wk, wk->n, "%s of the clause at CF %zu runs past the end of the program (%zu units)",
              what, cf * 2, wk->n);
        return false;
    }
    if (wk->u[at].kind != U_RAW || wk->u[at].reached) {
        fault(wk, at, "%s of the clause at CF %zu overlaps code listed before (dword %zu)", what,
              cf * 2, at * 2);
        return false;
    }
    return true;
}

/* Literal dwords a group reads (Mesa's r600_bytecode_alu_nliterals): the
 * highest literal channel used + 1. */
static unsigned group_literals(walk *wk, size_t first, size_t n)
{
    unsigned need = 0;
    for (size_t i = first; i < first + n; i++) {
        uint32_t w[2];
        words(wk, i, 2, w);
        const r6_op *op = r6_decode_alu(wk->c, w);
        bool op3 = (w[1] & (7u << 15)) != 0;
        unsigned ns = op ? op->nsrc : op3 ? 3 : 2;
        uint32_t sel[3] = {w[0] & 0x1FF, (w[0] >> 13) & 0x1FF, w[1] & 0x1FF};
        uint32_t ch[3] = {(w[0] >> 10) & 3, (w[0] >> 23) & 3, (w[1] >> 10) & 3};
        for (unsigned k = 0; k < ns; k++)
            if (sel[k] == R6_SRC_LITERAL && ch[k] + 1 > need)
                need = ch[k] + 1;
    }
    return need;
}

static void walk_alu(walk *wk, const clause *cl)
{
    size_t end = (size_t)cl->addr + cl->count, at = cl->addr;
    uint32_t group = 0;
    while (at < end) {
        /* one group: up to 5 slots, the last with LAST */
        size_t first = at, nslot = 0;
        bool last = false, stop = false;
        while (!last && at < end && nslot < 5) {
            if (!claim(wk, cl->cf, at, "an ALU instruction")) {
                stop = true;
                break;
            }
            uint32_t w[2];
            words(wk, at, 2, w);
            last = (w[0] >> 31) != 0;
            wk->u[at].kind = U_ALU;
            wk->u[at].reached = true;
            at++, nslot++;
        }
        group++;
        if (!last && !stop)
            fault(wk, at, "ALU group %u of the clause at CF %zu has no LAST %s", group,
                  cl->cf * 2, nslot == 5 ? "in 5 slots" : "before the clause ends");
        unsigned need = last ? group_literals(wk, first, nslot) : 0;
        size_t lit_units = (need + 1) / 2, have = 0;
        for (size_t k = 0; k < lit_units && !stop; k++) {
            if (at >= end) {
                fault(wk, at, "the literals of ALU group %u run past the clause's count", group);
                break;
            }
            if (!claim(wk, cl->cf, at, "a literal")) {
                stop = true;
                break;
            }
            wk->u[at].kind = U_LIT;
            wk->u[at].reached = true;
            wk->u[at].group = group;
            at++, have++;
        }
        /* slot letters (Mesa: a channel used twice, or a trans-only op, is
         * t), checked against the table's slots column */
        unsigned mask = 0;
        bool t_used = false;
        for (size_t i = first; i < first + nslot; i++) {
            uint32_t w[2];
            words(wk, i, 2, w);
            const r6_op *op = r6_decode_alu(wk->c, w);
            unsigned ch = (w[1] >> 29) & 3;
            bool t = (mask & (1u << ch)) || (op && op->slots[wk->c] == R6_SLOT_S);
            mask |= 1u << ch;
            if (t && t_used)
                fault(wk, i, "ALU group %u has a second instruction for the t slot (dword %zu)",
                      group, i * 2);
            else if (t && op && !(op->slots[wk->c] & R6_SLOT_S))
                fault(wk, i, "ALU group %u: %s cannot run in the t slot (dword %zu)", group,
                      op->name, i * 2);
            t_used |= t;
            wk->u[i].slot = t ? 't' : CHAN[ch];
            wk->u[i].group = group;
            wk->u[i].lit = (uint32_t)(first + nslot);
            wk->u[i].nlit = (uint8_t)(have * 2 < need ? have * 2 : need);
        }
        if (stop || nslot == 0)
            return;
    }
}

static void walk_fetch(walk *wk, const clause *cl)
{
    for (uint32_t i = 0; i < cl->count; i++) {
        size_t at = (size_t)cl->addr + 2 * (size_t)i;
        const char *what = cl->kind == U_TEX ? "a TEX instruction" : "a VTX instruction";
        if (!claim(wk, cl->cf, at, what) || !claim(wk, cl->cf, at + 1, what))
            return;
        wk->u[at].kind = cl->kind;
        wk->u[at + 1].kind = U_FETCH2;
        wk->u[at].reached = wk->u[at + 1].reached = true;
    }
}

/* The CF program from unit 0 to END_OF_PROGRAM; the clauses in CF order. */
static void walk_program(walk *wk)
{
    clause *cls = NULL;
    size_t ncls = 0, pc = 0;
    bool eop = false, stopped = false;
    for (; pc < wk->n && !eop; pc++) {
        uint32_t w[2];
        words(wk, pc, 2, w);
        wk->u[pc].reached = true;
        const r6_op *op = r6_decode_cf(wk->c, w);
        if (!op || !r6_op_clean(op, wk->c, w)) {
            fault(wk, pc, "%s CF instruction at dword %zu: the sequencer stops",
                  op ? "reserved bits set in the" : "undefined", pc * 2);
            stopped = true;
            break;
        }
        wk->u[pc].kind = U_CF;
        if (op->cls != R6_CLS_CF_ALU)
            eop = r6_get(wk->c, w, op->cls == R6_CLS_CF ? R6F_CF_W1_END_OF_PROGRAM
                                                          : R6F_EXP_W1_END_OF_PROGRAM) != 0;
        clause cl = {pc, 0, 0, 0};
        if (op->kind == R6K_CLAUSE_ALU) {
            cl.addr = r6_get(wk->c, w, R6F_CFA_W0_ADDR);
            cl.count = r6_get(wk->c, w, R6F_CFA_W1_COUNT) + 1;
            cl.kind = U_ALU;
        } else if (op->kind == R6K_CLAUSE_TEX || op->kind == R6K_CLAUSE_VTX) {
            cl.addr = w[0];
            cl.count = r6_get(wk->c, w, R6F_CF_W1_COUNT) +
                       (r6_get(wk->c, w, R6F_CF_W1_COUNT_3) << 3) + 1;
            cl.kind = op->kind == R6K_CLAUSE_TEX ? U_TEX : U_VTX;
        } else {
            continue;
        }
        clause *nc = realloc(cls, (ncls + 1) * sizeof *cls);
        if (!nc)
            break;
        cls = nc;
        cls[ncls++] = cl;
    }
    if (!eop && !stopped && pc >= wk->n)
        fault(wk, wk->n, "no END_OF_PROGRAM before the end of the program");
    for (size_t i = 0; i < ncls; i++) {
        if (cls[i].addr >= wk->n) {
            fault(wk, wk->n, "the clause at CF %zu starts at dword %" PRIu64
                             ", past the end of the program (%zu dwords)",
                  cls[i].cf * 2, (uint64_t)cls[i].addr * 2, wk->n * 2);
            continue;
        }
        if (cls[i].kind == U_ALU)
            walk_alu(wk, &cls[i]);
        else
            walk_fetch(wk, &cls[i]);
    }
    free(cls);
}

/* ---- the listing ---- */

typedef struct out_ctx {
    const rd_isa_opts *o;
    FILE *out;
    bool first; /* JSON */
} out_ctx;

static const char *S(const char *s) { return s ? s : ""; }

static void emit(out_ctx *x, size_t dw, const uint32_t *w, unsigned nw, const char *text,
                 const char *kind, const char *note)
{
    const rd_isa_opts *o = x->o;
    if (o->json) {
        fprintf(x->out, "%s{\"offset\":%zu,\"kind\":\"%s\",\"words\":[", x->first ? "" : ",", dw,
                kind);
        for (unsigned i = 0; i < nw; i++)
            fprintf(x->out, "%s\"0x%08" PRIx32 "\"", i ? "," : "", w[i]);
        fprintf(x->out, "],\"text\":");
        cg_json_fput(x->out, text);
        if (note && note[0]) {
            fprintf(x->out, ",\"note\":");
            cg_json_fput(x->out, note);
        }
        fprintf(x->out, "}");
        x->first = false;
        return;
    }
    char c[96];
    int n = snprintf(c, sizeof c, "# %04zu", dw);
    for (unsigned i = 0; i < nw && n > 0 && (size_t)n < sizeof c; i++)
        n += snprintf(c + n, sizeof c - (size_t)n, " %08" PRIX32, w[i]);
    bool raw = text[0] == '.';
    fprintf(x->out, "    %s%-60s%s %s%s%s%s%s\n", raw ? S(o->c_err) : S(o->c_name), text,
            S(o->c_reset), S(o->c_comment), c, note && note[0] ? "  " : "", note ? note : "",
            S(o->c_reset));
}

static void emit_note(out_ctx *x, const char *msg)
{
    if (x->o->json) {
        fprintf(x->out, "%s{\"fault\":", x->first ? "" : ",");
        cg_json_fput(x->out, msg);
        fprintf(x->out, "}");
        x->first = false;
    } else {
        fprintf(x->out, "%s# fault: %s%s\n", S(x->o->c_err), msg, S(x->o->c_reset));
    }
}

static void raw_text(char *buf, size_t cap, const uint32_t *w, unsigned nw)
{
    size_t n = (size_t)snprintf(buf, cap, ".word");
    for (unsigned i = 0; i < nw && n < cap; i++)
        n += (size_t)snprintf(buf + n, cap - n, "%s0x%08" PRIX32, i ? ", " : " ", w[i]);
}

static void list_unit(out_ctx *x, walk *wk, size_t i)
{
    const unit *u = &wk->u[i];
    char text[512], note[64] = "";
    uint32_t w[4];
    unsigned nw = u->kind == U_TEX || u->kind == U_VTX ? 4 : 2;
    words(wk, i, nw, w);
    bool ok = false;
    const char *kind = "raw";
    switch (u->kind) {
    case U_CF:
        ok = rd_isa_format(wk->c, R6_CLS_CF, w, NULL, 0, text, sizeof text);
        kind = "cf";
        break;
    case U_ALU: {
        uint32_t lit[4] = {0};
        unsigned nl = u->nlit;
        for (unsigned k = 0; k < nl && k < 4; k++)
            lit[k] = rd32(wk->d + (size_t)u->lit * 8 + 4 * k);
        char body[448];
        ok = rd_isa_format(wk->c, R6_CLS_ALU_OP2, w, lit, nl, body, sizeof body);
        if (ok)
            snprintf(text, sizeof text, "%c  %s", u->slot, body);
        if (u->slot && (i == 0 || wk->u[i - 1].kind != U_ALU || wk->u[i - 1].group != u->group))
            snprintf(note, sizeof note, "group %" PRIu32, u->group);
        kind = "alu";
        break;
    }
    case U_TEX:
    case U_VTX:
        ok = rd_isa_format(wk->c, u->kind == U_TEX ? R6_CLS_TEX : R6_CLS_VTX, w, NULL, 0, text,
                           sizeof text);
        kind = u->kind == U_TEX ? "tex" : "vtx";
        break;
    case U_LIT:
        for (unsigned k = 0; k < 2; k++) {
            float f;
            memcpy(&f, &w[k], 4);
            snprintf(text, sizeof text, ".word 0x%08" PRIX32, w[k]);
            snprintf(note, sizeof note, "literal %f (%" PRId32 ")", (double)f, (int32_t)w[k]);
            emit(x, 2 * i + k, &w[k], 1, text, "literal", note);
        }
        return;
    default:
        break;
    }
    if (!ok) {
        raw_text(text, sizeof text, w, nw);
        if (u->reached)
            snprintf(note, sizeof note, "unknown %s", kind), wk->unknown++;
        kind = "raw";
    }
    emit(x, 2 * i, w, nw, text, kind, note);
}

int rd_isa_disasm(const rd_isa_opts *o, const uint8_t *data, size_t size, FILE *out)
{
    walk wk = {o->chip, data, size / 8, NULL, NULL, 0, 0, 0};
    wk.u = calloc(wk.n ? wk.n : 1, sizeof *wk.u);
    if (!wk.u)
        return CG_ERR_NOMEM;
    walk_program(&wk);
    out_ctx x = {o, out, true};
    const char *chip = o->chip == R6_R600 ? "r600" : "r700";
    if (o->json)
        fprintf(out, "{\"family\":\"radeon-isa\",\"chip\":\"%s\",\"size\":%zu,\"lines\":[", chip,
                size);
    else
        fprintf(out, "%s# radeon-isa %s: %zu bytes, %zu dwords%s\n    .chip %s\n", S(o->c_comment),
                chip, size, size / 4, S(o->c_reset), chip);
    size_t nn = 0;
    for (size_t i = 0; i < wk.n; i++) {
        for (; nn < wk.nnotes && wk.notes[nn].at <= i; nn++)
            emit_note(&x, wk.notes[nn].msg);
        if (wk.u[i].kind == U_FETCH2)
            continue;
        list_unit(&x, &wk, i);
    }
    for (; nn < wk.nnotes; nn++)
        emit_note(&x, wk.notes[nn].msg);
    /* bytes after the last whole unit: a dword, then bytes */
    size_t at = wk.n * 8;
    if (at + 4 <= size) {
        uint32_t w = rd32(data + at);
        char text[32];
        raw_text(text, sizeof text, &w, 1);
        emit(&x, at / 4, &w, 1, text, "raw", "");
        at += 4;
    }
    for (; at < size; at++) {
        char text[32];
        snprintf(text, sizeof text, ".byte 0x%02X", data[at]);
        if (o->json) {
            fprintf(out, "%s{\"offset_bytes\":%zu,\"kind\":\"raw\",\"text\":\"%s\"}",
                    x.first ? "" : ",", at, text);
            x.first = false;
        } else {
            fprintf(out, "    %s%-60s%s %s# byte %zu%s\n", S(o->c_err), text, S(o->c_reset),
                    S(o->c_comment), at, S(o->c_reset));
        }
    }
    if (o->json)
        fprintf(out, "]}\n");
    free(wk.u);
    free(wk.notes);
    return (int)wk.unknown;
}
