/* VideoCore IV QPU: instruction images and the disassembler.
 *
 * Text syntax (docs/vc4-qpu.md): an instruction is parts separated by ':'
 * (';' starts a comment in cmdgpu's assembler, so Mesa's and vc4asm's ';'
 * separator cannot be used):
 *
 *   ADD-OP : MUL-OP [: SIGNAL] [: field=value ...]
 *   ldi[.cond][.sf] DST, IMM [: ldi[.cond] DST2]      (ldis, ldiu, sacq, srel)
 *   bra|brr[.bcond] LINK_ADD, LINK_MUL, [raN,] TARGET
 *
 * An op is `name[.cond][.sf][.rotN]`, a destination `reg[.pack]`, a source
 * `reg[.unpack]` or a small immediate (-16..15, f1.0 .. f128.0,
 * f0.00390625 .. f0.5). */
#include <stdio.h>
#include <string.h>
#include "qpu_text.h"

static const qpu_fieldpos fields_alu[] = {
#define QF_POS_ALU(name, hi, lo) {#name, hi, lo},
#define QF_POS_LDI(name, hi, lo)
#define QF_POS_BRANCH(name, hi, lo)
#define QPU_FIELD(cls, name, hi, lo) QF_POS_##cls(name, hi, lo)
#include "qpu.def"
};
#undef QF_POS_ALU
#undef QF_POS_LDI
#define QF_POS_ALU(name, hi, lo)
#define QF_POS_LDI(name, hi, lo) {#name, hi, lo},
static const qpu_fieldpos fields_ldi[] = {
#define QPU_FIELD(cls, name, hi, lo) QF_POS_##cls(name, hi, lo)
#include "qpu.def"
};
#undef QF_POS_LDI
#undef QF_POS_BRANCH
#define QF_POS_LDI(name, hi, lo)
#define QF_POS_BRANCH(name, hi, lo) {#name, hi, lo},
static const qpu_fieldpos fields_br[] = {
#define QPU_FIELD(cls, name, hi, lo) QF_POS_##cls(name, hi, lo)
#include "qpu.def"
};
#undef QF_POS_ALU
#undef QF_POS_LDI
#undef QF_POS_BRANCH

/* LDI shares the first ten fields with ALU. */
_Static_assert((int)QF_LDI_waddr_mul == (int)QF_ALU_waddr_mul &&
                   (int)QF_LDI_ws == (int)QF_ALU_ws && (int)QF_LDI_sf == (int)QF_ALU_sf &&
                   (int)QF_LDI_cond_add == (int)QF_ALU_cond_add &&
                   (int)QF_LDI_pack == (int)QF_ALU_pack && (int)QF_LDI_pm == (int)QF_ALU_pm,
               "LDI and ALU share their first fields");
_Static_assert(QF_ALU_N <= QF_MAX && QF_LDI_N <= QF_MAX && QF_BRANCH_N <= QF_MAX, "QF_MAX");

const qpu_fieldpos *qpu_fields(int cls, int *n)
{
    switch (cls) {
    case QPU_CLS_LDI: *n = QF_LDI_N; return fields_ldi;
    case QPU_CLS_BRANCH: *n = QF_BRANCH_N; return fields_br;
    default: *n = QF_ALU_N; return fields_alu;
    }
}

int qpu_cls_of(uint64_t ins)
{
    uint32_t sig = VC4_QPU_GET(ins, ALU, sig);
    return sig == VC4_QPU_SIG_LOAD_IMMEDIATE ? QPU_CLS_LDI
         : sig == VC4_QPU_SIG_BRANCH         ? QPU_CLS_BRANCH
                                             : QPU_CLS_ALU;
}

void qpu_img_from_word(qpu_img *m, uint64_t ins)
{
    memset(m, 0, sizeof *m);
    m->rot = -1;
    m->cls = qpu_cls_of(ins);
    int n;
    const qpu_fieldpos *f = qpu_fields(m->cls, &n);
    for (int i = 0; i < n; i++)
        m->v[i] = VC4_QPU_BITS(ins, f[i].hi, f[i].lo);
}

uint64_t qpu_img_encode(const qpu_img *m)
{
    int n;
    const qpu_fieldpos *f = qpu_fields(m->cls, &n);
    uint64_t w = 0;
    for (int i = 0; i < n; i++) {
        uint64_t mask = (((uint64_t)1) << (f[i].hi - f[i].lo + 1)) - 1;
        w |= ((uint64_t)m->v[i] & mask) << f[i].lo;
    }
    return w;
}

int qpu_smallimm_code(uint32_t bits)
{
    for (int c = 0; c < 48; c++)
        if (vc4_qpu_smallimm_bits[c] == bits)
            return c;
    return -1;
}

#define GIVEN(m, i) (((m)->given >> (i)) & 1u)
#define DEF(m, i, val)              \
    do {                            \
        if (!GIVEN(m, i))           \
            (m)->v[i] = (val);      \
    } while (0)

int qpu_img_finalize(qpu_img *m)
{
    int rc = 0;
    switch (m->cls) {
    case QPU_CLS_ALU: {
        DEF(m, QF_ALU_sig, (m->has_simm || m->rot >= 0) ? VC4_QPU_SIG_SMALL_IMMEDIATE
                                                         : VC4_QPU_SIG_NO_SIGNAL);
        DEF(m, QF_ALU_unpack, 0);
        DEF(m, QF_ALU_pm, 0);
        DEF(m, QF_ALU_pack, 0);
        DEF(m, QF_ALU_cond_add, m->act_add ? 1 : 0);
        DEF(m, QF_ALU_cond_mul, m->act_mul ? 1 : 0);
        DEF(m, QF_ALU_sf, 0);
        DEF(m, QF_ALU_ws, 0);
        DEF(m, QF_ALU_waddr_add, VC4_QPU_W_NOP);
        DEF(m, QF_ALU_waddr_mul, VC4_QPU_W_NOP);
        DEF(m, QF_ALU_op_mul, 0);
        DEF(m, QF_ALU_op_add, 0);
        DEF(m, QF_ALU_raddr_a, VC4_QPU_R_NOP);
        uint32_t rb = VC4_QPU_R_NOP;
        if (m->rot >= 0) {
            rb = 48 + (uint32_t)m->rot;
            if (m->has_simm && vc4_qpu_smallimm_bits[rb] != m->simm_bits)
                rc = -1;
        } else if (m->has_simm) {
            int c = qpu_smallimm_code(m->simm_bits);
            if (c < 0)
                rc = -1;
            else
                rb = (uint32_t)c;
        }
        DEF(m, QF_ALU_raddr_b, rb);
        DEF(m, QF_ALU_add_a, 0);
        const vc4_qpu_opinfo *op = &vc4_qpu_add_ops[m->v[QF_ALU_op_add] & 31];
        DEF(m, QF_ALU_add_b, (op->name && op->nsrc == 1) ? m->v[QF_ALU_add_a] : 0);
        DEF(m, QF_ALU_mul_a, 0);
        DEF(m, QF_ALU_mul_b, 0);
        break;
    }
    case QPU_CLS_LDI:
        DEF(m, QF_LDI_sig, VC4_QPU_SIG_LOAD_IMMEDIATE);
        DEF(m, QF_LDI_unpack, 0);
        DEF(m, QF_LDI_pm, 0);
        DEF(m, QF_LDI_pack, 0);
        DEF(m, QF_LDI_cond_add, m->act_add ? 1 : 0);
        DEF(m, QF_LDI_cond_mul, m->act_mul ? 1 : 0);
        DEF(m, QF_LDI_sf, 0);
        DEF(m, QF_LDI_ws, 0);
        DEF(m, QF_LDI_waddr_add, VC4_QPU_W_NOP);
        DEF(m, QF_LDI_waddr_mul, VC4_QPU_W_NOP);
        DEF(m, QF_LDI_imm, 0);
        break;
    default:
        DEF(m, QF_BRANCH_sig, VC4_QPU_SIG_BRANCH);
        DEF(m, QF_BRANCH_unused, 0);
        DEF(m, QF_BRANCH_cond_br, VC4_QPU_BCOND_ALWAYS);
        DEF(m, QF_BRANCH_rel, 0);
        DEF(m, QF_BRANCH_reg, 0);
        DEF(m, QF_BRANCH_raddr_a, 0);
        DEF(m, QF_BRANCH_ws, 0);
        DEF(m, QF_BRANCH_waddr_add, VC4_QPU_W_NOP);
        DEF(m, QF_BRANCH_waddr_mul, VC4_QPU_W_NOP);
        DEF(m, QF_BRANCH_imm, 0);
        break;
    }
    return rc;
}

/* ---- the disassembler ---- */

typedef struct sbuf {
    char *p;
    size_t cap, len;
} sbuf;

static void put(sbuf *b, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
#include <stdarg.h>
static void put(sbuf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *dst = b->len < b->cap ? b->p + b->len : NULL;
    size_t room = b->len < b->cap ? b->cap - b->len : 0;
    int n = vsnprintf(dst, room, fmt, ap);
    va_end(ap);
    if (n > 0)
        b->len += (size_t)n;
}

static void note(sbuf *b, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static void note(sbuf *b, const char *fmt, ...)
{
    if (!b->cap)
        return;
    if (b->len)
        put(b, "; ");
    va_list ap;
    va_start(ap, fmt);
    char *dst = b->len < b->cap ? b->p + b->len : NULL;
    size_t room = b->len < b->cap ? b->cap - b->len : 0;
    int n = vsnprintf(dst, room, fmt, ap);
    va_end(ap);
    if (n > 0)
        b->len += (size_t)n;
}

/* Is an I/O name the same in both files (then the name alone does not say
 * which file)? */
static bool rshared(uint32_t n)
{
    const vc4_qpu_reginfo *r = &vc4_qpu_raddrs[n & 63];
    return n >= 32 && r->as[0] && r->as[1] && strcmp(r->as[0], r->as[1]) == 0;
}
static bool wshared(uint32_t n)
{
    const vc4_qpu_reginfo *r = &vc4_qpu_waddrs[n & 63];
    return n >= 32 && r->as[0] && r->as[1] && strcmp(r->as[0], r->as[1]) == 0;
}

static void put_wreg(sbuf *b, int file, uint32_t n)
{
    if (n < 32 || !vc4_qpu_waddrs[n].as[file])
        put(b, "r%c%u", file ? 'b' : 'a', n);
    else
        put(b, "%s", vc4_qpu_waddrs[n].as[file]);
}

typedef struct dctx {
    sbuf *out, *notes;
    uint64_t ins;
    qpu_img raw; /* the real fields */
    qpu_img p;   /* what the text says */
} dctx;

#define SETP(d, i, val)                 \
    do {                                \
        (d)->p.v[i] = (val);            \
        (d)->p.given |= 1u << (i);      \
    } while (0)

/* A source operand of the ALU form. */
static void put_src(dctx *d, uint32_t mux, bool mul_side)
{
    qpu_img *r = &d->raw;
    uint32_t unpack = r->v[QF_ALU_unpack], pm = r->v[QF_ALU_pm];
    const char *up = vc4_qpu_unpacks[unpack].as;
    if (mux < 6) {
        put(d->out, "r%u", mux);
        if (mux == 4 && pm && unpack) {
            put(d->out, ".%s", up);
            SETP(d, QF_ALU_unpack, unpack);
            SETP(d, QF_ALU_pm, 1);
        }
        return;
    }
    if (mux == 6) {
        uint32_t n = r->v[QF_ALU_raddr_a];
        if (n < 32 || !vc4_qpu_raddrs[n].as[0]) {
            put(d->out, "ra%u", n);
            if (n >= 32)
                note(d->notes, "reserved read address ra%u", n);
        } else {
            put(d->out, "%s", vc4_qpu_raddrs[n].as[0]);
        }
        SETP(d, QF_ALU_raddr_a, n);
        if (!pm && unpack) {
            put(d->out, ".%s", up);
            SETP(d, QF_ALU_unpack, unpack);
            SETP(d, QF_ALU_pm, 0);
        }
        return;
    }
    uint32_t n = r->v[QF_ALU_raddr_b];
    if (r->v[QF_ALU_sig] == VC4_QPU_SIG_SMALL_IMMEDIATE) {
        uint32_t bits = vc4_qpu_smallimm_bits[n];
        if (n < 48)
            put(d->out, "%s", vc4_qpu_smallimm_as[n]);
        else
            put(d->out, "%d", (int)(int32_t)bits);
        d->p.has_simm = true;
        d->p.simm_bits = bits;
        return;
    }
    /* The assembler reads a shared name (unif, vary, ...) as file A unless
     * raddr_a already holds something else: spell it raN/rbN otherwise. */
    bool a_taken = GIVEN(&d->p, QF_ALU_raddr_a) && d->p.v[QF_ALU_raddr_a] != n;
    if (n < 32 || !vc4_qpu_raddrs[n].as[1] || (rshared(n) && !a_taken)) {
        put(d->out, "rb%u", n);
        if (n >= 32 && !vc4_qpu_raddrs[n].as[1])
            note(d->notes, "reserved read address rb%u", n);
    } else {
        put(d->out, "%s", vc4_qpu_raddrs[n].as[1]);
    }
    SETP(d, QF_ALU_raddr_b, n);
    (void)mul_side;
}

/* Destination of the add (mul_side false) or mul side, with its pack. */
static void put_dst(dctx *d, bool mul_side, bool alu)
{
    qpu_img *r = &d->raw;
    uint32_t ws = r->v[QF_ALU_ws];
    int file = mul_side ? (ws ? 0 : 1) : (ws ? 1 : 0);
    uint32_t n = r->v[mul_side ? QF_ALU_waddr_mul : QF_ALU_waddr_add];
    put_wreg(d->out, file, n);
    SETP(d, mul_side ? QF_ALU_waddr_mul : QF_ALU_waddr_add, n);
    if (!wshared(n))
        SETP(d, QF_ALU_ws, ws);
    uint32_t pm = r->v[QF_ALU_pm], pack = r->v[QF_ALU_pack];
    if (!pack)
        return;
    if (!pm && file == 0) {
        put(d->out, ".%s", vc4_qpu_packa[pack].as);
        SETP(d, QF_ALU_pm, 0);
        SETP(d, QF_ALU_pack, pack);
        SETP(d, QF_ALU_ws, ws);
    } else if (pm && mul_side && vc4_qpu_packm[pack].name) {
        put(d->out, ".%s", vc4_qpu_packm[pack].as);
        SETP(d, QF_ALU_pm, 1);
        SETP(d, QF_ALU_pack, pack);
    }
    (void)alu;
}

static void put_op_suffixes(dctx *d, uint32_t cond, int cond_field, bool sf_here, int rot)
{
    if (cond != 1) {
        put(d->out, ".%s", vc4_qpu_conds[cond].as);
    }
    SETP(d, cond_field, cond);
    if (sf_here) {
        put(d->out, ".sf");
        SETP(d, QF_ALU_sf, 1);
    }
    if (rot == 0)
        put(d->out, ".rotr5");
    else if (rot > 0)
        put(d->out, ".rot%d", rot);
}

static void disasm_alu(dctx *d)
{
    qpu_img *r = &d->raw;
    uint32_t sig = r->v[QF_ALU_sig];
    uint32_t opa = r->v[QF_ALU_op_add], opm = r->v[QF_ALU_op_mul];
    const vc4_qpu_opinfo *ai = &vc4_qpu_add_ops[opa];
    bool act_add = opa != 0 && ai->name;
    bool act_mul = opm != 0;
    bool sf = r->v[QF_ALU_sf] != 0;
    if (opa && !ai->name)
        note(d->notes, "reserved add op %u", opa);

    /* add side */
    d->p.act_add = act_add;
    if (!act_add) {
        put(d->out, "nop");
        SETP(d, QF_ALU_op_add, 0);
    } else {
        bool mov = opa == VC4_QPU_A_OR && r->v[QF_ALU_add_a] == r->v[QF_ALU_add_b];
        put(d->out, "%s", mov ? "mov" : ai->as);
        SETP(d, QF_ALU_op_add, opa);
        put_op_suffixes(d, r->v[QF_ALU_cond_add], QF_ALU_cond_add, sf, -1);
        put(d->out, " ");
        put_dst(d, false, true);
        put(d->out, ", ");
        put_src(d, r->v[QF_ALU_add_a], false);
        SETP(d, QF_ALU_add_a, r->v[QF_ALU_add_a]);
        if (mov) {
            SETP(d, QF_ALU_add_b, r->v[QF_ALU_add_a]);
        } else if (ai->nsrc == 2) {
            put(d->out, ", ");
            put_src(d, r->v[QF_ALU_add_b], false);
            SETP(d, QF_ALU_add_b, r->v[QF_ALU_add_b]);
        }
    }

    /* mul side */
    put(d->out, " : ");
    d->p.act_mul = act_mul;
    if (!act_mul) {
        put(d->out, "nop");
        SETP(d, QF_ALU_op_mul, 0);
    } else {
        bool mov = opm == VC4_QPU_M_V8MIN && r->v[QF_ALU_mul_a] == r->v[QF_ALU_mul_b];
        int rot = -1;
        if (sig == VC4_QPU_SIG_SMALL_IMMEDIATE && r->v[QF_ALU_raddr_b] >= 48) {
            rot = (int)r->v[QF_ALU_raddr_b] - 48;
            d->p.rot = rot;
        }
        put(d->out, "%s", mov ? "mov" : vc4_qpu_mul_ops[opm].as);
        SETP(d, QF_ALU_op_mul, opm);
        put_op_suffixes(d, r->v[QF_ALU_cond_mul], QF_ALU_cond_mul, sf && !act_add, rot);
        put(d->out, " ");
        put_dst(d, true, true);
        put(d->out, ", ");
        put_src(d, r->v[QF_ALU_mul_a], true);
        SETP(d, QF_ALU_mul_a, r->v[QF_ALU_mul_a]);
        if (mov) {
            SETP(d, QF_ALU_mul_b, r->v[QF_ALU_mul_a]);
        } else {
            put(d->out, ", ");
            put_src(d, r->v[QF_ALU_mul_b], true);
            SETP(d, QF_ALU_mul_b, r->v[QF_ALU_mul_b]);
        }
    }

    if (sig != VC4_QPU_SIG_NO_SIGNAL && sig != VC4_QPU_SIG_SMALL_IMMEDIATE) {
        put(d->out, " : %s", vc4_qpu_sigs[sig].as);
        SETP(d, QF_ALU_sig, sig);
    }
}

static void disasm_ldi(dctx *d)
{
    qpu_img *r = &d->raw;
    uint32_t mode = r->v[QF_LDI_unpack], imm = r->v[QF_LDI_imm];
    d->p.act_add = true;
    const char *mn = "ldi";
    uint32_t pimm = imm, pmode = 0;
    if (mode == VC4_QPU_LDI_SEMAPHORE) {
        mn = (imm & 16) ? "sacq" : "srel";
        pimm = imm & 31;
        pmode = mode;
    } else if (vc4_qpu_ldis[mode].name) {
        mn = vc4_qpu_ldis[mode].as;
        pmode = mode;
    } else {
        note(d->notes, "reserved load-immediate mode %u", mode);
    }
    SETP(d, QF_LDI_unpack, pmode);
    put(d->out, "%s", mn);
    put_op_suffixes(d, r->v[QF_LDI_cond_add], QF_LDI_cond_add, r->v[QF_LDI_sf] != 0, -1);
    put(d->out, " ");
    put_dst(d, false, false);
    if (mode == VC4_QPU_LDI_SEMAPHORE)
        put(d->out, ", %u", imm & 15);
    else if (mode == VC4_QPU_LDI_LOAD_32 || !vc4_qpu_ldis[mode].name)
        put(d->out, ", 0x%08x", imm);
    else { /* per element: element i from bits i (low) and 16+i (high) */
        put(d->out, ", [");
        for (int i = 0; i < 16; i++) {
            int x = (int)(((imm >> i) & 1) | (((imm >> (16 + i)) & 1) << 1));
            if (mode == VC4_QPU_LDI_PER_ELEMENT_SIGNED && x >= 2)
                x -= 4;
            put(d->out, "%s%d", i ? ", " : "", x);
        }
        put(d->out, "]");
    }
    SETP(d, QF_LDI_imm, pimm);
    if (r->v[QF_LDI_waddr_mul] != VC4_QPU_W_NOP || r->v[QF_LDI_cond_mul] != 0) {
        d->p.act_mul = true;
        put(d->out, " : ldi");
        put_op_suffixes(d, r->v[QF_LDI_cond_mul], QF_LDI_cond_mul, false, -1);
        put(d->out, " ");
        put_dst(d, true, false);
    }
}

static void disasm_branch(dctx *d)
{
    qpu_img *r = &d->raw;
    uint32_t c = r->v[QF_BRANCH_cond_br], rel = r->v[QF_BRANCH_rel];
    put(d->out, "%s", rel ? "brr" : "bra");
    SETP(d, QF_BRANCH_rel, rel);
    if (vc4_qpu_bconds[c].name) {
        if (c != VC4_QPU_BCOND_ALWAYS)
            put(d->out, ".%s", vc4_qpu_bconds[c].as);
        SETP(d, QF_BRANCH_cond_br, c);
    } else {
        note(d->notes, "reserved branch condition %u", c);
    }
    uint32_t ws = r->v[QF_BRANCH_ws];
    uint32_t la = r->v[QF_BRANCH_waddr_add], lm = r->v[QF_BRANCH_waddr_mul];
    put(d->out, " ");
    put_wreg(d->out, ws ? 1 : 0, la);
    put(d->out, ", ");
    put_wreg(d->out, ws ? 0 : 1, lm);
    SETP(d, QF_BRANCH_waddr_add, la);
    SETP(d, QF_BRANCH_waddr_mul, lm);
    if (!wshared(la) || !wshared(lm))
        SETP(d, QF_BRANCH_ws, ws);
    if (r->v[QF_BRANCH_reg]) {
        put(d->out, ", ra%u", r->v[QF_BRANCH_raddr_a]);
        SETP(d, QF_BRANCH_reg, 1);
        SETP(d, QF_BRANCH_raddr_a, r->v[QF_BRANCH_raddr_a]);
    }
    SETP(d, QF_BRANCH_imm, r->v[QF_BRANCH_imm]);
    if (r->v[QF_BRANCH_unused])
        note(d->notes, "bits 59:56 set (0x%x)", r->v[QF_BRANCH_unused]);
    if (r->v[QF_BRANCH_raddr_a] & 1)
        note(d->notes, "odd raddr_a also sets the flags (vc4asm addendum)");
}

int vc4_qpu_disasm(uint64_t ins, uint32_t addr, char *buf, size_t cap, char *notes,
                   size_t ncap)
{
    sbuf out = {buf, cap, 0}, nb = {notes, ncap, 0};
    if (cap)
        buf[0] = 0;
    if (ncap)
        notes[0] = 0;
    dctx d;
    memset(&d, 0, sizeof d);
    d.out = &out;
    d.notes = &nb;
    d.ins = ins;
    qpu_img_from_word(&d.raw, ins);
    d.p.cls = d.raw.cls;
    d.p.rot = -1;
    uint32_t target = 0;
    switch (d.raw.cls) {
    case QPU_CLS_LDI: disasm_ldi(&d); break;
    case QPU_CLS_BRANCH: {
        disasm_branch(&d);
        uint32_t imm = d.raw.v[QF_BRANCH_imm];
        target = d.raw.v[QF_BRANCH_rel] ? addr + 32 + imm : imm;
        put(&out, ", 0x%08x", target);
        break;
    }
    default: disasm_alu(&d); break;
    }
    /* Overrides: every field the text leaves to a default that differs. */
    qpu_img fin = d.p;
    qpu_img_finalize(&fin);
    int n;
    const qpu_fieldpos *f = qpu_fields(d.raw.cls, &n);
    bool any = false;
    for (int i = 0; i < n; i++) {
        if (fin.v[i] != d.raw.v[i]) {
            put(&out, " : %s=%u", f[i].name, d.raw.v[i]);
            if (!any && d.raw.cls == QPU_CLS_ALU && i != QF_ALU_sig)
                note(&nb, "fields the text does not show are set");
            any = true;
        }
    }
    if (d.raw.cls == QPU_CLS_ALU) {
        uint32_t pm = d.raw.v[QF_ALU_pm], pack = d.raw.v[QF_ALU_pack];
        if (pm && !vc4_qpu_packm[pack].name)
            note(&nb, "reserved mul pack %u", pack);
    }
    if (d.raw.cls == QPU_CLS_LDI && d.raw.v[QF_LDI_pm] && !vc4_qpu_packm[d.raw.v[QF_LDI_pack]].name)
        note(&nb, "reserved mul pack %u", d.raw.v[QF_LDI_pack]);
    return (int)out.len;
}
