/* VideoCore IV QPU: instruction images and the disassembler.
 *
 * Text: vc4asm's dialect (docs/vc4-qpu.md; maazl/vc4asm
 * src/Disassembler.cpp and Disassembler.tables.cpp give the layout and the
 * spellings, qpu.def holds them):
 *
 *   ADD-OP;  MUL-OP;  read SRC;  SIGNAL;  field=value ...
 *   ldi|ldipes|ldipeu[.setf] DST[.cond][, DST2[.cond]], IMM
 *   sacq|srel DST, N
 *   bra|brr[.bcond][.setf] DST, [DST2,] [raN|-,] TARGET
 *
 * An op is `name[.setf][.cond]`, a destination `reg[.pack]`, a source
 * `reg[.unpack][>>N|<<N|>>r5]` or a small immediate. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "qpu_text.h"

static const qpu_fieldpos fields_alu[] = {
#define QF_POS_ALU(name, hi, lo) {#name, hi, lo},
#define QF_POS_LDI(name, hi, lo)
#define QF_POS_BRANCH(name, hi, lo)
#define QPU_FIELD(cls, name, hi, lo) QF_POS_##cls(name, hi, lo)
#include "vc4/tables/qpu.def"
};
#undef QF_POS_ALU
#undef QF_POS_LDI
#define QF_POS_ALU(name, hi, lo)
#define QF_POS_LDI(name, hi, lo) {#name, hi, lo},
static const qpu_fieldpos fields_ldi[] = {
#define QPU_FIELD(cls, name, hi, lo) QF_POS_##cls(name, hi, lo)
#include "vc4/tables/qpu.def"
};
#undef QF_POS_LDI
#undef QF_POS_BRANCH
#define QF_POS_LDI(name, hi, lo)
#define QF_POS_BRANCH(name, hi, lo) {#name, hi, lo},
static const qpu_fieldpos fields_br[] = {
#define QPU_FIELD(cls, name, hi, lo) QF_POS_##cls(name, hi, lo)
#include "vc4/tables/qpu.def"
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

/* ---- the disassembler (vc4asm's spelling, docs/vc4-qpu.md) ---- */

typedef struct sbuf {
    char *p;
    size_t cap, len;
} sbuf;

static void vput(sbuf *b, const char *fmt, va_list ap)
{
    char *dst = b->len < b->cap ? b->p + b->len : NULL;
    size_t room = b->len < b->cap ? b->cap - b->len : 0;
    int n = vsnprintf(dst, room, fmt, ap);
    if (n > 0)
        b->len += (size_t)n;
}

static void put(sbuf *b, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static void put(sbuf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vput(b, fmt, ap);
    va_end(ap);
}

typedef struct dctx {
    sbuf *out, *notes;
    qpu_img raw; /* the real fields */
    qpu_img p;   /* what the text says */
    bool reserved;        /* a code the Reference Guide leaves undefined */
    bool rot_shown;       /* a mul source carries the rotation */
    bool read_a, read_b;  /* a printed source reads raddr_a / raddr_b */
    bool a_spelled;       /* raddr_a appears in the text under a name of file A alone */
    bool a_shown;         /* raddr_a appears in the text at all */
    bool force_ra;        /* print the raddr_a= override even when it is the default */
} dctx;

static void note(dctx *d, bool reserved, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
static void note(dctx *d, bool reserved, const char *fmt, ...)
{
    d->reserved |= reserved;
    if (!d->notes->cap)
        return;
    if (d->notes->len)
        put(d->notes, "; ");
    va_list ap;
    va_start(ap, fmt);
    vput(d->notes, fmt, ap);
    va_end(ap);
}

#define SETP(d, i, val)                 \
    do {                                \
        (d)->p.v[i] = (val);            \
        (d)->p.given |= 1u << (i);      \
    } while (0)

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

static void put_rot(dctx *d)
{
    int rot = d->p.rot;
    if (rot < 0)
        return;
    if (rot == 0)
        put(d->out, ">>r5");
    else if (rot < 8)
        put(d->out, ">>%d", rot);
    else
        put(d->out, "<<%d", 16 - rot);
    d->rot_shown = true;
}

/* A register file A read (raddr_a = n) as a source or a `read`. */
static void put_ra(dctx *d, uint32_t n)
{
    if (n < 32 || !vc4_qpu_raddrs[n].as[0]) {
        put(d->out, "ra%u", n);
        if (n >= 32)
            note(d, true, "reserved read address ra%u", n);
    } else {
        put(d->out, "%s", vc4_qpu_raddrs[n].as[0]);
    }
    SETP(d, QF_ALU_raddr_a, n);
}

/* A register file B read or the small immediate (mux 7, or a `read`). */
static void put_rb(dctx *d)
{
    qpu_img *r = &d->raw;
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
    /* A name both files have (unif, vary, nop, vpm, mutex) is printed as
     * vc4asm prints it; the assembler reads it as file A unless file A
     * reads another register (qpu_asm.c bind_shared). So when file A is not
     * spelled with a name of its own elsewhere in the instruction, nor with
     * a shared name before this one, the raddr_a= override says what file A
     * holds. File A's raddr the same
     * register (two reads, e.g. two uniforms) keeps rbN: the name alone
     * cannot say which read is which; so does `nop` with file A's raddr
     * also nop (39), shown or not. */
    uint32_t ra = r->v[QF_ALU_raddr_a];
    bool same_in_a = ra == n;
    if (n < 32 || !vc4_qpu_raddrs[n].as[1] || (rshared(n) && same_in_a)) {
        put(d->out, "rb%u", n);
        if (n >= 32 && !vc4_qpu_raddrs[n].as[1])
            note(d, true, "reserved read address rb%u", n);
    } else {
        put(d->out, "%s", vc4_qpu_raddrs[n].as[1]);
        /* needed unless file A appears under a name of its own, or under
         * a shared name earlier in the text (the first shared name takes
         * file A) */
        if (rshared(n) && !d->a_spelled && !GIVEN(&d->p, QF_ALU_raddr_a))
            d->force_ra = true;
    }
    SETP(d, QF_ALU_raddr_b, n);
}

/* A source operand of an ALU op; rot_ok: a mul source, which shows the
 * vector rotation (vc4asm: not on rb, small immediates or unif). */
static void put_src(dctx *d, uint32_t mux, bool rot_ok)
{
    qpu_img *r = &d->raw;
    uint32_t unpack = r->v[QF_ALU_unpack], pm = r->v[QF_ALU_pm];
    if (mux < 6) {
        put(d->out, "r%u", mux);
        if (mux == 4 && pm && unpack) {
            put(d->out, ".%s", vc4_qpu_unpacks[unpack].as);
            SETP(d, QF_ALU_unpack, unpack);
            SETP(d, QF_ALU_pm, 1);
        }
        if (rot_ok)
            put_rot(d);
        return;
    }
    if (mux == 6) {
        uint32_t n = r->v[QF_ALU_raddr_a];
        put_ra(d, n);
        d->read_a = true;
        if (!pm && unpack) {
            put(d->out, ".%s", vc4_qpu_unpacks[unpack].as);
            SETP(d, QF_ALU_unpack, unpack);
            SETP(d, QF_ALU_pm, 0);
        }
        if (rot_ok && n != VC4_QPU_R_UNIFORM_READ)
            put_rot(d);
        return;
    }
    d->read_b = true;
    put_rb(d);
}

/* Destination of the add (mul_side false) or mul side, with its pack; the
 * field indices are the ALU ones (LDI shares them). */
static void put_dst(dctx *d, bool mul_side)
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
    /* vc4asm: a regfile-A pack on the destination that writes file A, the
     * mul (colour) pack on the mul destination */
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
}

static void put_cond(dctx *d, uint32_t cond, int cond_field)
{
    if (cond != VC4_QPU_COND_ALWAYS)
        put(d->out, ".%s", vc4_qpu_conds[cond].as);
    SETP(d, cond_field, cond);
}

static void put_setf(dctx *d, bool sf)
{
    if (sf) {
        put(d->out, ".setf");
        SETP(d, QF_ALU_sf, 1);
    }
}

/* Does a mul source on mux `mux` show the rotation (vc4asm: not on rb, a
 * small immediate or unif)? */
static bool rot_visible(const qpu_img *r, uint32_t mux)
{
    return mux < 6 || (mux == 6 && r->v[QF_ALU_raddr_a] != VC4_QPU_R_UNIFORM_READ);
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
        note(d, true, "reserved add op %u", opa);
    if (act_mul && sig == VC4_QPU_SIG_SMALL_IMMEDIATE && r->v[QF_ALU_raddr_b] >= 48)
        d->p.rot = (int)r->v[QF_ALU_raddr_b] - 48;
    /* Where file A appears in the text (put_rb): a source on mux 6 of an
     * op shown, or the `read` printed for an raddr_a no source shows. */
    {
        uint32_t ra = r->v[QF_ALU_raddr_a];
        bool mux_a = (act_add && (r->v[QF_ALU_add_a] == 6 ||
                                  (ai->nsrc == 2 && r->v[QF_ALU_add_b] == 6))) ||
                     (act_mul && (r->v[QF_ALU_mul_a] == 6 || r->v[QF_ALU_mul_b] == 6));
        d->a_shown = mux_a || ra != VC4_QPU_R_NOP;
        /* a name of file A alone: raN, or an I/O name only file A has; an
         * unpack suffix on the source (A only) also binds it */
        bool unpacked = !r->v[QF_ALU_pm] && r->v[QF_ALU_unpack] && mux_a;
        d->a_spelled = d->a_shown && (!rshared(ra) || unpacked);
    }

    /* add side */
    d->p.act_add = act_add;
    if (!act_add) {
        put(d->out, "nop");
        SETP(d, QF_ALU_op_add, 0);
    } else {
        bool mov = opa == VC4_QPU_A_OR && r->v[QF_ALU_add_a] == r->v[QF_ALU_add_b];
        put(d->out, "%s", mov ? "mov" : ai->as);
        SETP(d, QF_ALU_op_add, opa);
        put_setf(d, sf);
        put_cond(d, r->v[QF_ALU_cond_add], QF_ALU_cond_add);
        put(d->out, " ");
        put_dst(d, false);
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

    /* mul side: left out when it is a nop (vc4asm) */
    d->p.act_mul = act_mul;
    if (act_mul) {
        uint32_t ma = r->v[QF_ALU_mul_a], mb = r->v[QF_ALU_mul_b];
        bool mov = opm == VC4_QPU_M_V8MIN && ma == mb;
        put(d->out, ";  %s", mov ? "mov" : vc4_qpu_mul_ops[opm].as);
        SETP(d, QF_ALU_op_mul, opm);
        put_setf(d, sf && !act_add);
        put_cond(d, r->v[QF_ALU_cond_mul], QF_ALU_cond_mul);
        /* a source shows the rotation unless both are rb, small
         * immediates or unif: then the op carries it (.rotN) */
        if (d->p.rot >= 0 && !rot_visible(r, ma) && (mov || !rot_visible(r, mb)))
            put(d->out, d->p.rot ? ".rot%d" : ".rotr5", d->p.rot);
        put(d->out, " ");
        put_dst(d, true);
        put(d->out, ", ");
        put_src(d, ma, true);
        SETP(d, QF_ALU_mul_a, ma);
        if (mov) {
            SETP(d, QF_ALU_mul_b, ma);
        } else {
            put(d->out, ", ");
            put_src(d, mb, true);
            SETP(d, QF_ALU_mul_b, mb);
        }
    }

    /* reads no source shows: vc4asm's `read` */
    uint32_t ra = r->v[QF_ALU_raddr_a], rb = r->v[QF_ALU_raddr_b];
    if (!d->read_a && ra != VC4_QPU_R_NOP) {
        put(d->out, ";  read ");
        put_ra(d, ra);
    }
    if (!d->read_b && (sig == VC4_QPU_SIG_SMALL_IMMEDIATE ? rb < 48 : rb != VC4_QPU_R_NOP)) {
        put(d->out, ";  read ");
        put_rb(d);
    }

    if (sig != VC4_QPU_SIG_NO_SIGNAL && sig != VC4_QPU_SIG_SMALL_IMMEDIATE) {
        put(d->out, ";  %s", vc4_qpu_sigs[sig].as);
        SETP(d, QF_ALU_sig, sig);
    }
}

/* An ldi / semaphore immediate as vc4asm prints it: decimal below 256 in
 * magnitude, else hex. */
static void put_imm(dctx *d, uint32_t v)
{
    int32_t i = (int32_t)v;
    if (i > -256 && i < 256)
        put(d->out, "%d", (int)i);
    else
        put(d->out, "0x%x", v);
}

static void disasm_ldi(dctx *d)
{
    qpu_img *r = &d->raw;
    uint32_t mode = r->v[QF_LDI_unpack], imm = r->v[QF_LDI_imm];
    d->p.act_add = true;
    const char *mn = "ldi";
    uint32_t pimm = imm, pmode = 0;
    bool sem = mode == VC4_QPU_LDI_SEMAPHORE;
    if (sem) {
        mn = (imm & 16) ? "sacq" : "srel";
        pmode = mode;
    } else if (vc4_qpu_ldis[mode].name) {
        mn = vc4_qpu_ldis[mode].as;
        pmode = mode;
    } else {
        note(d, true, "reserved load-immediate mode %u", mode);
    }
    SETP(d, QF_LDI_unpack, pmode);
    put(d->out, "%s", mn);
    put_setf(d, r->v[QF_LDI_sf] != 0);
    put(d->out, " ");
    /* destinations: vc4asm's `ldi dst[.cond], [dst2[.cond],] imm`; an
     * unused add destination is `-` */
    uint32_t wm = r->v[QF_LDI_waddr_mul];
    put_dst(d, false);
    put_cond(d, r->v[QF_LDI_cond_add], QF_LDI_cond_add);
    if (wm != VC4_QPU_W_NOP || r->v[QF_LDI_cond_mul] != 0) {
        d->p.act_mul = true;
        put(d->out, ", ");
        if (wm == VC4_QPU_W_NOP) { /* `-` would read as a negative immediate */
            put(d->out, "nop");
            SETP(d, QF_LDI_waddr_mul, wm);
        } else {
            put_dst(d, true);
        }
        put_cond(d, r->v[QF_LDI_cond_mul], QF_LDI_cond_mul);
    }
    put(d->out, ", ");
    if (sem) {
        put_imm(d, imm & ~16u);
    } else if (mode == VC4_QPU_LDI_LOAD_32 || !vc4_qpu_ldis[mode].name) {
        put_imm(d, imm);
    } else { /* per element: element i from bits i (low) and 16+i (high) */
        put(d->out, "[");
        for (int i = 0; i < 16; i++) {
            int x = (int)(((imm >> i) & 1) | (((imm >> (16 + i)) & 1) << 1));
            if (mode == VC4_QPU_LDI_PER_ELEMENT_SIGNED && x >= 2)
                x -= 4;
            put(d->out, "%s%d", i ? "," : "", x);
        }
        put(d->out, "]");
    }
    SETP(d, QF_LDI_imm, pimm);
}

static void disasm_branch(dctx *d, uint32_t addr)
{
    qpu_img *r = &d->raw;
    uint32_t c = r->v[QF_BRANCH_cond_br], rel = r->v[QF_BRANCH_rel];
    uint32_t ra = r->v[QF_BRANCH_raddr_a], reg = r->v[QF_BRANCH_reg];
    uint32_t imm = r->v[QF_BRANCH_imm];
    put(d->out, "%s", rel ? "brr" : "bra");
    SETP(d, QF_BRANCH_rel, rel);
    if (vc4_qpu_bconds[c].name) {
        if (c != VC4_QPU_BCOND_ALWAYS)
            put(d->out, ".%s", vc4_qpu_bconds[c].as);
        SETP(d, QF_BRANCH_cond_br, c);
    } else {
        note(d, true, "reserved branch condition %u", c);
    }
    /* bit 45 (the low bit of raddr_a) is the ALU's sf: an odd raddr_a sets
     * the flags (vc4asm addendum) */
    if (ra & 1) {
        put(d->out, ".setf");
        SETP(d, QF_BRANCH_raddr_a, 1);
    }
    uint32_t ws = r->v[QF_BRANCH_ws];
    uint32_t la = r->v[QF_BRANCH_waddr_add], lm = r->v[QF_BRANCH_waddr_mul];
    put(d->out, " ");
    put_wreg(d->out, ws ? 1 : 0, la);
    SETP(d, QF_BRANCH_waddr_add, la);
    bool two = lm != VC4_QPU_W_NOP;
    if (two) {
        put(d->out, ", ");
        put_wreg(d->out, ws ? 0 : 1, lm);
    }
    SETP(d, QF_BRANCH_waddr_mul, lm);
    if (!wshared(la) || !wshared(lm))
        SETP(d, QF_BRANCH_ws, ws);
    /* targets: raN and/or the immediate; with two links vc4asm writes both
     * targets, `-` for no register */
    if (reg) {
        put(d->out, ", ra%u", ra);
        SETP(d, QF_BRANCH_reg, 1);
        SETP(d, QF_BRANCH_raddr_a, ra);
    } else if (two) {
        put(d->out, ", -");
    }
    if (!reg || imm || two) {
        if (rel)
            put(d->out, ", %+d", (int)(int32_t)imm);
        else
            put(d->out, ", 0x%x", imm);
    }
    SETP(d, QF_BRANCH_imm, imm);
    (void)addr;
    if (r->v[QF_BRANCH_unused])
        note(d, true, "bits 59:56 set (0x%x)", r->v[QF_BRANCH_unused]);
}

int vc4_qpu_disasm_conf(uint64_t ins, uint32_t addr, char *buf, size_t cap, char *notes,
                        size_t ncap, int *confidence)
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
    qpu_img_from_word(&d.raw, ins);
    d.p.cls = d.raw.cls;
    d.p.rot = -1;
    switch (d.raw.cls) {
    case QPU_CLS_LDI: disasm_ldi(&d); break;
    case QPU_CLS_BRANCH: disasm_branch(&d, addr); break;
    default: disasm_alu(&d); break;
    }
    /* Overrides: every field the text leaves to a default that differs. */
    qpu_img fin = d.p;
    qpu_img_finalize(&fin);
    int n;
    const qpu_fieldpos *f = qpu_fields(d.raw.cls, &n);
    bool any = false;
    for (int i = 0; i < n; i++) {
        bool differs = fin.v[i] != d.raw.v[i];
        if (differs || (d.force_ra && d.raw.cls == QPU_CLS_ALU && i == QF_ALU_raddr_a)) {
            put(&out, ";  %s=%u", f[i].name, d.raw.v[i]);
            if (differs && !any && d.raw.cls == QPU_CLS_ALU && i != QF_ALU_sig)
                note(&d, false, "fields the text does not show are set");
            any |= differs;
        }
    }
    if (d.raw.cls != QPU_CLS_BRANCH && d.raw.v[QF_ALU_pm] &&
        !vc4_qpu_packm[d.raw.v[QF_ALU_pack]].name)
        note(&d, true, "reserved mul pack %u", d.raw.v[QF_ALU_pack]);
    if (confidence)
        *confidence = d.reserved ? CG_VC4_QPU_PARTIAL : CG_VC4_QPU_KNOWN;
    return (int)out.len;
}

int vc4_qpu_disasm(uint64_t ins, uint32_t addr, char *buf, size_t cap, char *notes,
                   size_t ncap)
{
    return vc4_qpu_disasm_conf(ins, addr, buf, cap, notes, ncap, NULL);
}

/* ---- public API (include/cmdgpu/vc4_qpu.h) ---- */

const char *cg_vc4_qpu_confidence_name(cg_vc4_qpu_confidence c)
{
    switch (c) {
    case CG_VC4_QPU_KNOWN: return "known";
    case CG_VC4_QPU_PARTIAL: return "partial";
    default: return "unknown";
    }
}

uint64_t cg_vc4_qpu_word(const uint8_t *p)
{
    uint64_t w = 0;
    for (int i = 7; i >= 0; i--)
        w = w << 8 | p[i];
    return w;
}

int cg_vc4_qpu_disasm(uint64_t ins, uint32_t addr, char *buf, size_t cap, char *notes,
                      size_t ncap, cg_vc4_qpu_confidence *confidence)
{
    int conf;
    int n = vc4_qpu_disasm_conf(ins, addr, buf, cap, notes, notes ? ncap : 0, &conf);
    if (confidence)
        *confidence = (cg_vc4_qpu_confidence)conf;
    return n;
}

size_t cg_vc4_qpu_disasm_buffer(const uint8_t *data, size_t size, uint32_t addr, char *buf,
                                size_t cap)
{
    sbuf out = {buf, cap, 0};
    if (cap)
        buf[0] = 0;
    for (size_t i = 0; data && i + 8 <= size; i += 8) {
        size_t at = out.len;
        int n = vc4_qpu_disasm(cg_vc4_qpu_word(data + i), addr + (uint32_t)i,
                               at < cap ? buf + at : NULL, at < cap ? cap - at : 0, NULL, 0);
        out.len += n > 0 ? (size_t)n : 0;
        put(&out, "\n");
    }
    return out.len;
}
