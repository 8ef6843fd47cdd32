/* VideoCore IV QPU assembler: a cg_asm family plug-in reading vc4asm's
 * instruction syntax (maazl/vc4asm doc/instructions.html, src/Parser.*) with
 * ':' between the parts of an instruction, and cmdgpu's earlier spellings as
 * aliases (qpu.def QPU_ALIAS, docs/vc4-qpu.md). Every instruction is two
 * little-endian words, low word first (research/vc4.md section 3). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "qpu_text.h"

#define MAX_OVR 24

typedef struct actx {
    cg_asm *as;
    qpu_img m;
    int novr;
    int ovr_field[MAX_OVR];
    uint32_t ovr_val[MAX_OVR];
    bool add_used, mul_used; /* an op part claimed the ALU */
    bool setf;               /* .setf on a branch */
    bool mov_ldi;            /* a constant source may turn this mov into ldi */
    bool to_ldi;             /* ... and did: ldi_value is the constant */
    int64_t ldi_value;
    /* reads of a name both files have (unif, vary, nop, vpm, mutex) not
     * bound to a file yet: their mux fields hold 8 + index until
     * bind_shared() at the end of the instruction */
    int npend;
    uint32_t pend_n[4];
} actx;

#define MUX_PENDING 8u

#define F_GIVEN(m, i) (((m)->given >> (i)) & 1u)

static int set_field(actx *c, int i, uint32_t v, const char *what)
{
    if (F_GIVEN(&c->m, i) && c->m.v[i] != v) {
        int n;
        const qpu_fieldpos *f = qpu_fields(c->m.cls, &n);
        return cg_asm_error(c->as, "%s: conflicting %s (%u, earlier %u)", what, f[i].name, v,
                            c->m.v[i]);
    }
    c->m.v[i] = v;
    c->m.given |= 1u << i;
    return 0;
}

/* "raN" / "rbN" with N 0..63: file 0/1 and N. */
static bool parse_rnum(const char *s, int *file, uint32_t *n)
{
    if (s[0] != 'r' || (s[1] != 'a' && s[1] != 'b') || !s[2])
        return false;
    char *end;
    unsigned long v = strtoul(s + 2, &end, 10);
    if (*end || v > 63 || (s[2] == '0' && s[3]) || s[2] < '0' || s[2] > '9')
        return false;
    *file = s[1] == 'b';
    *n = (uint32_t)v;
    return true;
}

/* Split "base.s1.s2" in place: returns the number of suffixes. */
static int split(char *s, char **parts, int max)
{
    int n = 0;
    char *p = strchr(s, '.');
    while (p && n < max) {
        *p = 0;
        parts[n++] = p + 1;
        p = strchr(p + 1, '.');
    }
    return p ? -1 : n;
}

/* A pack or unpack name of `set`, also with vc4asm's i / f (integer /
 * float) ending, which the encoding does not store. */
static int lookup_pup(int set, const char *s)
{
    int k = vc4_qpu_lookup(set, s);
    size_t n = strlen(s);
    if (k < 0 && n > 1 && n < 32 && (s[n - 1] == 'i' || s[n - 1] == 'f')) {
        char b[32];
        memcpy(b, s, n - 1);
        b[n - 1] = 0;
        k = vc4_qpu_lookup(set, b);
    }
    return k;
}

/* ---- operands ---- */

static int claim_b(actx *c, uint32_t n)
{
    if (c->m.has_simm)
        return cg_asm_error(c->as, "register file B read and a small immediate in one instruction");
    return set_field(c, QF_ALU_raddr_b, n, "register file B read");
}

static int set_unpack(actx *c, const char *suf, uint32_t pm)
{
    int u = lookup_pup(CG_VC4_QPU_SET_UNPACK, suf);
    if (u <= 0)
        return cg_asm_error(c->as, "unknown unpack mode '.%s'", suf);
    int rc = set_field(c, QF_ALU_unpack, (uint32_t)u, "unpack");
    if (!rc)
        rc = set_field(c, QF_ALU_pm, pm, "pm (pack/unpack select)");
    return rc;
}

static int set_simm(actx *c, uint32_t bits, uint32_t *mux)
{
    if (F_GIVEN(&c->m, QF_ALU_raddr_b))
        return cg_asm_error(c->as, "small immediate and a register file B read in one instruction");
    if (c->m.has_simm && c->m.simm_bits != bits)
        return cg_asm_error(c->as, "two different small immediates in one instruction");
    c->m.has_simm = true;
    c->m.simm_bits = bits;
    *mux = 7;
    return 0;
}

static int set_rot(actx *c, int r)
{
    if (c->m.rot >= 0 && c->m.rot != r)
        return cg_asm_error(c->as, "two rotations");
    c->m.rot = r;
    return 0;
}

/* vc4asm's rotation of a mul source: `>>r5`, `>>N` or `<<N` (N 1..15). */
static int parse_src_rot(actx *c, bool allow)
{
    bool right = cg_asm_accept(c->as, '>');
    if (!right && !cg_asm_accept(c->as, '<'))
        return 0;
    int rc = cg_asm_expect(c->as, right ? '>' : '<');
    if (rc)
        return rc;
    if (!allow)
        return cg_asm_error(c->as, "only mul ALU sources rotate");
    char buf[8];
    if (right && cg_asm_peek_ident(c->as, buf, sizeof buf) && strcmp(buf, "r5") == 0) {
        cg_asm_ident(c->as, buf, sizeof buf);
        return set_rot(c, 0);
    }
    int64_t v;
    if ((rc = cg_asm_expr(c->as, &v)))
        return rc;
    if (v < 1 || v > 15)
        return cg_asm_error(c->as, "rotation %lld out of range 1..15", (long long)v);
    return set_rot(c, right ? (int)v : 16 - (int)v);
}

/* A source: *mux = 0..5 (r0-r5), 6 (file A) or 7 (file B, small immediate). */
static int parse_src(actx *c, uint32_t *mux, bool mul_side)
{
    char buf[64];
    if (!cg_asm_peek_ident(c->as, buf, sizeof buf)) {
        int64_t v;
        int rc = cg_asm_expr(c->as, &v);
        if (rc)
            return rc;
        if ((v < -16 || v > 15) && c->mov_ldi && v >= -(int64_t)0x80000000 &&
            v <= (int64_t)0xffffffff) {
            c->to_ldi = true; /* vc4asm: a constant no small immediate holds */
            c->ldi_value = v;
            return 0;
        }
        if (v < -16 || v > 15)
            return cg_asm_error(c->as, "small immediate %lld out of range -16..15",
                                (long long)v);
        return set_simm(c, (uint32_t)(int32_t)v, mux);
    }
    int rc = cg_asm_ident(c->as, buf, sizeof buf);
    if (rc)
        return rc;
    for (int i = 32; i < 48; i++)
        if (strcmp(buf, vc4_qpu_smallimm_as[i]) == 0)
            return set_simm(c, vc4_qpu_smallimm_bits[i], mux);
    char *suf[2];
    int ns = split(buf, suf, 2);
    if (ns < 0 || ns > 1)
        return cg_asm_error(c->as, "bad operand '%s'", buf);
    if (buf[0] == 'r' && buf[1] >= '0' && buf[1] <= '5' && !buf[2]) {
        *mux = (uint32_t)(buf[1] - '0');
        if (ns) {
            if (*mux != 4)
                return cg_asm_error(c->as, "only r4 and register file A reads unpack");
            if ((rc = set_unpack(c, suf[0], 1)))
                return rc;
        }
        return parse_src_rot(c, mul_side);
    }
    int file;
    uint32_t n;
    if (!parse_rnum(buf, &file, &n)) {
        int fa = vc4_qpu_lookup(CG_VC4_QPU_SET_RADDR_A, buf);
        int fb = vc4_qpu_lookup(CG_VC4_QPU_SET_RADDR_B, buf);
        if (fa < 0 && fb < 0)
            return cg_asm_error(c->as, "unknown source register '%s'", buf);
        if (fa >= 0 && fb >= 0 && fa == fb && !ns && !F_GIVEN(&c->m, QF_ALU_raddr_a)) {
            /* shared, file A free so far: bound at the end (bind_shared) */
            if (c->npend == (int)(sizeof c->pend_n / sizeof c->pend_n[0]))
                return cg_asm_error(c->as, "too many register reads in one instruction");
            c->pend_n[c->npend] = (uint32_t)fa;
            *mux = MUX_PENDING + (uint32_t)c->npend++;
            return parse_src_rot(c, mul_side);
        }
        if (fa >= 0 && fb >= 0) { /* shared: A unless A reads something else */
            n = (uint32_t)fa;
            file = (F_GIVEN(&c->m, QF_ALU_raddr_a) && c->m.v[QF_ALU_raddr_a] != n) ? 1 : 0;
            if (file)
                n = (uint32_t)fb;
        } else {
            file = fa >= 0 ? 0 : 1;
            n = (uint32_t)(fa >= 0 ? fa : fb);
        }
    }
    if (file == 0) {
        *mux = 6;
        rc = set_field(c, QF_ALU_raddr_a, n, "register file A read");
        if (!rc && ns)
            rc = set_unpack(c, suf[0], 0);
        if (!rc)
            rc = parse_src_rot(c, mul_side);
        return rc;
    }
    if (ns)
        return cg_asm_error(c->as, "only r4 and register file A reads unpack");
    *mux = 7;
    return claim_b(c, n);
}

/* Conditions and .setf on an op or a destination; f_cond < 0: none allowed. */
static int op_suffix(actx *c, const char *s, int f_cond, bool *done)
{
    *done = true;
    int k;
    if (f_cond >= 0 && (k = vc4_qpu_lookup(CG_VC4_QPU_SET_COND, s)) >= 0)
        return set_field(c, f_cond, (uint32_t)k, "condition");
    if (strcmp(s, "setf") == 0 || strcmp(s, "sf") == 0)
        return set_field(c, QF_ALU_sf, 1, "setf");
    *done = false;
    return 0;
}

/* A destination named `buf` (suffixes: pack, condition, setf) of the add
 * side (mul_side false) or mul side. f_*: the field indices of the class;
 * f_cond < 0 or !allow_pack: no condition / pack allowed (branches). */
static int dst_name(actx *c, char *buf, bool mul_side, int f_waddr, int f_ws, int f_cond,
                    bool allow_pack)
{
    char *suf[4];
    int ns = split(buf, suf, 4);
    if (ns < 0)
        return cg_asm_error(c->as, "bad destination '%s'", buf);
    int file;
    uint32_t n;
    bool shared = false;
    if (!parse_rnum(buf, &file, &n)) {
        int fa = vc4_qpu_lookup(CG_VC4_QPU_SET_WADDR_A, buf);
        int fb = vc4_qpu_lookup(CG_VC4_QPU_SET_WADDR_B, buf);
        if (fa < 0 && fb < 0)
            return cg_asm_error(c->as, "unknown destination register '%s'", buf);
        shared = fa >= 0 && fb >= 0 && fa == fb;
        file = fa >= 0 ? 0 : 1;
        n = (uint32_t)(fa >= 0 ? fa : fb);
    }
    int rc = set_field(c, f_waddr, n, "destination");
    if (rc)
        return rc;
    /* add writes A when ws=0, mul writes B when ws=0 */
    if (!shared) {
        rc = set_field(c, f_ws, (uint32_t)(mul_side ? file == 0 : file == 1),
                       "destination file (ws)");
        if (rc)
            return rc;
    }
    for (int i = 0; i < ns; i++) {
        bool done;
        if ((rc = op_suffix(c, suf[i], f_cond, &done)))
            return rc;
        if (done && f_cond >= 0)
            continue;
        if (!allow_pack)
            return cg_asm_error(c->as, "no pack or condition here ('.%s')", suf[i]);
        /* mul colour packs (pm=1) on the mul destination, else regfile A */
        int p = mul_side ? vc4_qpu_lookup(CG_VC4_QPU_SET_PACKM, suf[i]) : -1;
        if (p > 0) {
            rc = set_field(c, QF_ALU_pm, 1, "pm (pack/unpack select)");
            if (!rc)
                rc = set_field(c, QF_ALU_pack, (uint32_t)p, "pack");
        } else if ((p = lookup_pup(CG_VC4_QPU_SET_PACKA, suf[i])) > 0) {
            rc = set_field(c, QF_ALU_pm, 0, "pm (pack/unpack select)");
            if (!rc)
                rc = set_field(c, QF_ALU_pack, (uint32_t)p, "pack");
            if (!rc)
                rc = set_field(c, f_ws, mul_side ? 1 : 0,
                               "pack needs a register file A destination (ws)");
        } else if (vc4_qpu_lookup(CG_VC4_QPU_SET_PACKM, suf[i]) > 0) {
            return cg_asm_error(c->as, "colour pack '.%s' applies to the mul result only",
                                suf[i]);
        } else {
            return cg_asm_error(c->as, "unknown pack mode '.%s'", suf[i]);
        }
        if (rc)
            return rc;
    }
    return 0;
}

/* Read a destination: `-` (no write) or a register name with suffixes. */
static int dst_token(actx *c, char *buf, size_t cap)
{
    if (cg_asm_accept(c->as, '-')) {
        char s[48];
        snprintf(buf, cap, "-");
        if (cg_asm_peek_ident(c->as, s, sizeof s) && s[0] == '.') {
            int rc = cg_asm_ident(c->as, s, sizeof s);
            if (rc)
                return rc;
            snprintf(buf, cap, "-%s", s);
        }
        return 0;
    }
    return cg_asm_ident(c->as, buf, cap);
}

static int parse_dst(actx *c, bool mul_side, int f_waddr, int f_ws, int f_cond, bool allow_pack)
{
    char buf[64];
    int rc = dst_token(c, buf, sizeof buf);
    return rc ? rc : dst_name(c, buf, mul_side, f_waddr, f_ws, f_cond, allow_pack);
}

/* Suffixes of an ALU / ldi op: conditions, setf, and on the mul op a
 * rotation (.rotN, .rotr5: cmdgpu's spelling, where no source shows it). */
static int parse_suffixes(actx *c, char **suf, int ns, int f_cond, bool allow_rot)
{
    for (int i = 0; i < ns; i++) {
        bool done;
        int rc = op_suffix(c, suf[i], f_cond, &done);
        if (rc)
            return rc;
        if (done)
            continue;
        if (allow_rot && strncmp(suf[i], "rot", 3) == 0) {
            int r = -1;
            if (strcmp(suf[i], "rotr5") == 0)
                r = 0;
            else {
                char *end;
                long v = strtol(suf[i] + 3, &end, 10);
                if (!*end && suf[i][3] && v >= 1 && v <= 15)
                    r = (int)v;
            }
            if (r < 0)
                return cg_asm_error(c->as, "bad rotation '.%s' (rotr5, rot1..rot15)", suf[i]);
            if ((rc = set_rot(c, r)))
                return rc;
        } else {
            return cg_asm_error(c->as, "unknown suffix '.%s'", suf[i]);
        }
    }
    return 0;
}

/* Which ALU an op name can use: *add / *mul its code there, or -1. `mov`
 * is or / v8min; `amov` `anop` / `mmov` `mnop` pin the ALU (vc4asm). */
static bool op_codes(const char *base, int *add, int *mul, bool *mov)
{
    *mov = false;
    *add = vc4_qpu_lookup(CG_VC4_QPU_SET_ADD, base);
    *mul = vc4_qpu_lookup(CG_VC4_QPU_SET_MUL, base);
    if (!strcmp(base, "mov") || !strcmp(base, "amov") || !strcmp(base, "mmov")) {
        *mov = true;
        *add = base[0] == 'm' && base[1] == 'm' ? -1 : VC4_QPU_A_OR;
        *mul = base[0] == 'a' ? -1 : VC4_QPU_M_V8MIN;
    } else if (!strcmp(base, "anop")) {
        *add = 0;
    } else if (!strcmp(base, "mnop")) {
        *mul = 0;
    }
    return *add >= 0 || *mul >= 0;
}

/* An ALU op part; `name` is the op with suffixes. CG_ERR_NOENT: not an op. */
static int parse_alu_part(actx *c, char *name)
{
    char *suf[8];
    int ns = split(name, suf, 8);
    if (ns < 0)
        return cg_asm_error(c->as, "too many suffixes");
    int addc, mulc;
    bool mov;
    if (!op_codes(name, &addc, &mulc, &mov))
        return CG_ERR_NOENT;
    /* the add ALU while it is free, as vc4asm does (and the first part of
     * cmdgpu's earlier `ADD : MUL` form) */
    bool mul_side = addc < 0 || (c->add_used && mulc >= 0);
    if (mul_side ? c->mul_used : c->add_used)
        return cg_asm_error(c->as, "the %s ALU is already used in this instruction",
                            mul_side ? "mul" : "add");
    if (mul_side)
        c->mul_used = true;
    else
        c->add_used = true;
    int op = mul_side ? mulc : addc;
    int rc = set_field(c, mul_side ? QF_ALU_op_mul : QF_ALU_op_add, (uint32_t)op, "op");
    if (rc)
        return rc;
    if (op == 0) {
        if (ns)
            return cg_asm_error(c->as, "nop takes no suffix");
        return 0;
    }
    if (mul_side)
        c->m.act_mul = true;
    else
        c->m.act_add = true;
    int f_cond = mul_side ? QF_ALU_cond_mul : QF_ALU_cond_add;
    rc = parse_suffixes(c, suf, ns, f_cond, mul_side);
    if (rc)
        return rc;
    rc = parse_dst(c, mul_side, mul_side ? QF_ALU_waddr_mul : QF_ALU_waddr_add, QF_ALU_ws,
                   f_cond, true);
    if (rc)
        return rc;
    int fa = mul_side ? QF_ALU_mul_a : QF_ALU_add_a, fb = mul_side ? QF_ALU_mul_b : QF_ALU_add_b;
    uint32_t mux;
    /* vc4asm: `mov dst, constant` alone on a line is an ldi when no small
     * immediate holds the constant; ldi keeps the add ALU's destination,
     * condition, setf and pack fields where they are */
    c->mov_ldi = mov && !mul_side && !c->mul_used && !F_GIVEN(&c->m, QF_ALU_sig) &&
                 !c->m.has_simm;
    /* vc4asm: a mov whose source rotates goes to the mul ALU if it is free */
    bool may_move = mov && !mul_side && mulc >= 0 && !c->mul_used && c->m.rot < 0;
    rc = cg_asm_expect(c->as, ',');
    if (!rc)
        rc = parse_src(c, &mux, mul_side || may_move);
    c->mov_ldi = false;
    if (rc)
        return rc;
    if (may_move && c->m.rot >= 0) {
        static const int pairs[][2] = {{QF_ALU_op_add, QF_ALU_op_mul},
                                       {QF_ALU_waddr_add, QF_ALU_waddr_mul},
                                       {QF_ALU_cond_add, QF_ALU_cond_mul}};
        for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
            int from = pairs[i][0], to = pairs[i][1];
            c->m.v[to] = c->m.v[from];
            c->m.given = (c->m.given & ~(1u << to)) | (((c->m.given >> from) & 1u) << to);
            c->m.given &= ~(1u << from);
            c->m.v[from] = 0;
        }
        c->m.v[QF_ALU_op_mul] = VC4_QPU_M_V8MIN;
        c->m.v[QF_ALU_ws] ^= 1; /* the mul ALU writes the other file for a ws */
        c->add_used = c->m.act_add = false;
        c->mul_used = c->m.act_mul = true;
        mul_side = true;
        op = VC4_QPU_M_V8MIN;
        fa = QF_ALU_mul_a;
        fb = QF_ALU_mul_b;
    }
    if (c->to_ldi) {
        _Static_assert((int)QF_LDI_imm == (int)QF_ALU_op_mul &&
                           (int)QF_LDI_waddr_mul == (int)QF_ALU_waddr_mul,
                       "ldi keeps the ALU's first ten fields");
        c->m.cls = QPU_CLS_LDI;
        c->m.given &= ~(1u << QF_ALU_op_add);
        c->m.v[QF_ALU_op_add] = 0;
        c->add_used = true;
        return set_field(c, QF_LDI_imm, (uint32_t)c->ldi_value, "immediate");
    }
    if ((rc = set_field(c, fa, mux, "source")))
        return rc;
    const vc4_qpu_opinfo *t = mul_side ? &vc4_qpu_mul_ops[op] : &vc4_qpu_add_ops[op];
    if (mov)
        return set_field(c, fb, mux, "source");
    if (t->nsrc == 2) {
        if ((rc = cg_asm_expect(c->as, ',')) || (rc = parse_src(c, &mux, mul_side)))
            return rc;
        return set_field(c, fb, mux, "source");
    }
    return 0;
}

static int parse_override(actx *c, const char *name)
{
    int n;
    const qpu_fieldpos *f = qpu_fields(c->m.cls, &n);
    for (int i = 0; i < n; i++) {
        if (strcmp(f[i].name, name) != 0)
            continue;
        int64_t v;
        int rc = cg_asm_expr(c->as, &v);
        if (rc)
            return rc;
        uint64_t max = (((uint64_t)1) << (f[i].hi - f[i].lo + 1)) - 1;
        if (v < 0 || (uint64_t)v > max)
            return cg_asm_error(c->as, "%s=%lld does not fit %d bits", name, (long long)v,
                                f[i].hi - f[i].lo + 1);
        if (c->novr >= MAX_OVR)
            return cg_asm_error(c->as, "too many field overrides");
        c->ovr_field[c->novr] = i;
        c->ovr_val[c->novr++] = (uint32_t)v;
        return 0;
    }
    return cg_asm_error(c->as, "unknown field '%s'", name);
}

/* Is the next operand a destination (a register name) rather than an
 * immediate? (A second destination is never `-`: write `nop`.) */
static bool next_is_dst(actx *c, char *buf, size_t cap)
{
    int file;
    uint32_t n;
    if (!cg_asm_peek_ident(c->as, buf, cap))
        return false;
    char tmp[64];
    snprintf(tmp, sizeof tmp, "%s", buf);
    char *dot = strchr(tmp, '.');
    if (dot)
        *dot = 0;
    return parse_rnum(tmp, &file, &n) || vc4_qpu_lookup(CG_VC4_QPU_SET_WADDR_A, tmp) >= 0 ||
           vc4_qpu_lookup(CG_VC4_QPU_SET_WADDR_B, tmp) >= 0;
}

/* ldi / ldipes / ldipeu / sacq / srel: mode 0..7, or -1 release, -2 acquire. */
static int parse_ldi(actx *c, char *name, int mode_or_sem)
{
    char *suf[8];
    int ns = split(name, suf, 8);
    if (ns < 0)
        return cg_asm_error(c->as, "too many suffixes");
    c->m.act_add = true;
    int rc = set_field(c, QF_LDI_unpack, mode_or_sem < 0 ? VC4_QPU_LDI_SEMAPHORE
                                                          : (uint32_t)mode_or_sem, "mode");
    if (!rc)
        rc = parse_suffixes(c, suf, ns, QF_LDI_cond_add, false);
    if (!rc)
        rc = parse_dst(c, false, QF_LDI_waddr_add, QF_LDI_ws, QF_LDI_cond_add, true);
    if (!rc)
        rc = cg_asm_expect(c->as, ',');
    if (rc)
        return rc;
    /* vc4asm's second destination: ldi dst1, dst2, imm */
    char buf[64];
    if (next_is_dst(c, buf, sizeof buf)) {
        if ((rc = cg_asm_ident(c->as, buf, sizeof buf)))
            return rc;
        c->m.act_mul = true;
        c->mul_used = true;
        if ((rc = dst_name(c, buf, true, QF_LDI_waddr_mul, QF_LDI_ws, QF_LDI_cond_mul, true)) ||
            (rc = cg_asm_expect(c->as, ',')))
            return rc;
    }
    int64_t v;
    if ((mode_or_sem == VC4_QPU_LDI_PER_ELEMENT_SIGNED ||
         mode_or_sem == VC4_QPU_LDI_PER_ELEMENT_UNSIGNED) && cg_asm_accept(c->as, '[')) {
        /* [e0, ..., e15]: element i's low bit goes to bit i, its high bit
         * to bit 16+i */
        bool sgn = mode_or_sem == VC4_QPU_LDI_PER_ELEMENT_SIGNED;
        uint32_t imm = 0;
        for (int i = 0; i < 16; i++) {
            if (i && (rc = cg_asm_expect(c->as, ',')))
                return rc;
            if ((rc = cg_asm_expr(c->as, &v)))
                return rc;
            if (sgn ? (v < -2 || v > 1) : (v < 0 || v > 3))
                return cg_asm_error(c->as, "element %d = %lld out of range %s", i, (long long)v,
                                    sgn ? "-2..1" : "0..3");
            uint32_t x = (uint32_t)v & 3;
            imm |= (x & 1) << i | (x >> 1) << (16 + i);
        }
        if ((rc = cg_asm_expect(c->as, ']')))
            return rc;
        return set_field(c, QF_LDI_imm, imm, "immediate");
    }
    if ((rc = cg_asm_expr(c->as, &v)))
        return rc;
    if (v < -(int64_t)0x80000000 || v > (int64_t)0xffffffff)
        return cg_asm_error(c->as, "immediate %lld does not fit 32 bits", (long long)v);
    if (mode_or_sem < 0) {
        /* vc4asm: bits 3:0 the semaphore, bit 4 the acquire flag, the
         * rest stored as given */
        if ((uint32_t)v & 16)
            return cg_asm_error(c->as, "semaphore %lld: bit 4 is the acquire flag (0..15)",
                                (long long)v);
        v = (int64_t)((uint32_t)v | (mode_or_sem == -2 ? 16u : 0u));
    }
    return set_field(c, QF_LDI_imm, (uint32_t)v, "immediate");
}

/* One branch operand after the first destination. */
enum { BR_NOP, BR_REG, BR_EXPR };
typedef struct br_item {
    int kind;
    char name[64];   /* BR_REG */
    int64_t value;   /* BR_EXPR */
    bool sign;       /* BR_EXPR written with a leading + or -: a relative offset */
} br_item;

static int br_operand(actx *c, br_item *it)
{
    memset(it, 0, sizeof *it);
    bool neg = false;
    if (cg_asm_accept(c->as, '-')) {
        char s[8];
        if (cg_asm_eol(c->as) || (!cg_asm_peek_ident(c->as, s, sizeof s) &&
                                  cg_asm_accept(c->as, ','))) {
            it->kind = BR_NOP;
            it->sign = true; /* marks "consumed the comma" */
            return 0;
        }
        neg = it->sign = true;
    } else if (cg_asm_accept(c->as, '+')) {
        it->sign = true;
    } else if (cg_asm_peek_ident(c->as, it->name, sizeof it->name)) {
        int file;
        uint32_t n;
        if (parse_rnum(it->name, &file, &n) ||
            vc4_qpu_lookup(CG_VC4_QPU_SET_WADDR_A, it->name) >= 0 ||
            vc4_qpu_lookup(CG_VC4_QPU_SET_WADDR_B, it->name) >= 0 ||
            vc4_qpu_lookup(CG_VC4_QPU_SET_RADDR_A, it->name) >= 0) {
            it->kind = BR_REG;
            return cg_asm_ident(c->as, it->name, sizeof it->name);
        }
    }
    it->kind = BR_EXPR;
    int rc = cg_asm_expr(c->as, &it->value);
    if (neg)
        it->value = -it->value;
    return rc;
}

static bool br_is_target(const br_item *it)
{
    int file;
    uint32_t n;
    return it->kind != BR_REG || strcmp(it->name, "nop") == 0 || strcmp(it->name, "-") == 0 ||
           (parse_rnum(it->name, &file, &n) && file == 0 && n < 32);
}

static int br_target(actx *c, const br_item *it, bool rel)
{
    int file;
    uint32_t n;
    int rc;
    if (it->kind == BR_NOP || (it->kind == BR_REG && strcmp(it->name, "nop") == 0))
        return 0;
    if (it->kind == BR_REG) {
        if (!parse_rnum(it->name, &file, &n) || file != 0 || n > 31)
            return cg_asm_error(c->as, "a branch adds ra0..ra31 only ('%s')", it->name);
        if ((rc = set_field(c, QF_BRANCH_reg, 1, "reg")))
            return rc;
        return set_field(c, QF_BRANCH_raddr_a, n, "raddr_a");
    }
    if (F_GIVEN(&c->m, QF_BRANCH_imm))
        return cg_asm_error(c->as, "two immediate branch targets");
    /* brr: a signed number is vc4asm's offset from the address + 32; any
     * other value is the target address (a label) */
    uint32_t t = (uint32_t)it->value;
    uint32_t imm = rel && !it->sign ? t - ((uint32_t)cg_asm_pc(c->as) + 32u) : t;
    return set_field(c, QF_BRANCH_imm, imm, "target");
}

/* bra|brr[.cond][.setf] dst, [dst2,] [raN,] target (vc4asm), also
 * cmdgpu's earlier `LINK_ADD, LINK_MUL, [raN,] TARGET`. */
static int parse_branch(actx *c, char *name, bool rel)
{
    char *suf[4];
    int ns = split(name, suf, 4);
    if (ns < 0)
        return cg_asm_error(c->as, "too many suffixes");
    int rc = set_field(c, QF_BRANCH_rel, rel, "rel");
    for (int i = 0; !rc && i < ns; i++) {
        int k = vc4_qpu_lookup(CG_VC4_QPU_SET_BCOND, suf[i]);
        if (k >= 0)
            rc = set_field(c, QF_BRANCH_cond_br, (uint32_t)k, "condition");
        else if (!strcmp(suf[i], "setf") || !strcmp(suf[i], "sf"))
            c->setf = true;
        else
            rc = cg_asm_error(c->as, "unknown branch condition '.%s'", suf[i]);
    }
    if (!rc)
        rc = parse_dst(c, false, QF_BRANCH_waddr_add, QF_BRANCH_ws, -1, false);
    if (!rc)
        rc = cg_asm_expect(c->as, ',');
    if (rc)
        return rc;
    br_item it[3];
    int n = 0;
    for (;;) {
        if ((rc = br_operand(c, &it[n])))
            return rc;
        bool comma = it[n].kind == BR_NOP && !cg_asm_eol(c->as);
        n++;
        if (n == 3 || !(comma || cg_asm_accept(c->as, ',')))
            break;
    }
    int first = 0;
    if (n == 3 || (n == 2 && !br_is_target(&it[0]))) {
        /* a second link destination */
        if (it[0].kind == BR_EXPR)
            return cg_asm_error(c->as, "a branch link destination must be a register");
        char buf[64];
        snprintf(buf, sizeof buf, "%s", it[0].kind == BR_NOP ? "-" : it[0].name);
        if ((rc = dst_name(c, buf, true, QF_BRANCH_waddr_mul, QF_BRANCH_ws, -1, false)))
            return rc;
        first = 1;
    }
    for (int i = first; i < n; i++)
        if ((rc = br_target(c, &it[i], rel)))
            return rc;
    if (c->setf) { /* the low bit of raddr_a is the ALU's sf bit */
        if (F_GIVEN(&c->m, QF_BRANCH_raddr_a) && !(c->m.v[QF_BRANCH_raddr_a] & 1))
            return cg_asm_error(c->as, ".setf needs an odd register (raddr_a bit 0)");
        if (!F_GIVEN(&c->m, QF_BRANCH_raddr_a))
            rc = set_field(c, QF_BRANCH_raddr_a, 1, "raddr_a");
    }
    return rc;
}

/* An ALU instruction's later part: an op, `read SRC`, a signal. */
static int alu_part(actx *c, char *id)
{
    char tmp[64];
    memcpy(tmp, id, sizeof tmp);
    int rc = parse_alu_part(c, tmp);
    if (rc != CG_ERR_NOENT)
        return rc;
    if (strcmp(id, "read") == 0) { /* vc4asm: a register read without an ALU */
        uint32_t mux;
        return parse_src(c, &mux, false);
    }
    int s = vc4_qpu_lookup(CG_VC4_QPU_SET_SIG, id);
    if (s < 0 || s == VC4_QPU_SIG_SMALL_IMMEDIATE || s >= VC4_QPU_SIG_LOAD_IMMEDIATE)
        return cg_asm_error(c->as, "unknown op or signal '%s'", id);
    return set_field(c, QF_ALU_sig, (uint32_t)s, "signal");
}

/* Bind the shared-name reads (unif, vary, nop, vpm, mutex) to a file, as
 * vc4asm's text means them: file A, unless file A reads another register --
 * given by a read anywhere in the instruction, or by a raddr_a= override
 * (the disassembler writes one when file A is not spelled otherwise, so
 * its text assembles back to the same bytes) -- then file B. Two different
 * shared names with file A free: the first in the text takes A. */
static int bind_shared(actx *c)
{
    bool have_a = F_GIVEN(&c->m, QF_ALU_raddr_a);
    uint32_t a = c->m.v[QF_ALU_raddr_a];
    for (int i = c->novr - 1; !have_a && i >= 0; i--)
        if (c->ovr_field[i] == QF_ALU_raddr_a)
            have_a = true, a = c->ovr_val[i];
    static const int muxes[] = {QF_ALU_add_a, QF_ALU_add_b, QF_ALU_mul_a, QF_ALU_mul_b};
    for (int k = 0; k < c->npend; k++) {
        uint32_t n = c->pend_n[k], mux;
        int rc;
        if (!have_a) {
            have_a = true, a = n;
        }
        if (a == n) {
            mux = 6;
            rc = set_field(c, QF_ALU_raddr_a, n, "register file A read");
        } else {
            mux = 7;
            rc = claim_b(c, n);
        }
        if (rc)
            return rc;
        for (size_t f = 0; f < sizeof muxes / sizeof muxes[0]; f++)
            if (F_GIVEN(&c->m, muxes[f]) && c->m.v[muxes[f]] == MUX_PENDING + (uint32_t)k)
                c->m.v[muxes[f]] = mux;
    }
    return 0;
}

static int statement(cg_asm *as, void *user, const char *name)
{
    (void)user;
    actx c;
    memset(&c, 0, sizeof c);
    c.as = as;
    c.m.rot = -1;
    char buf[64];
    size_t len = strlen(name);
    if (len >= sizeof buf)
        return CG_ERR_NOENT;
    memcpy(buf, name, len + 1);
    char base[64];
    memcpy(base, buf, len + 1);
    char *dot = strchr(base, '.');
    if (dot)
        *dot = 0;

    int rc;
    int ldmode = vc4_qpu_lookup(CG_VC4_QPU_SET_LDI, base);
    if (ldmode == VC4_QPU_LDI_SEMAPHORE)
        ldmode = -3; /* "sem" is no mnemonic: sacq / srel */
    if (ldmode >= 0 || !strcmp(base, "sacq") || !strcmp(base, "srel")) {
        c.m.cls = QPU_CLS_LDI;
        rc = parse_ldi(&c, buf, ldmode >= 0 ? ldmode : !strcmp(base, "sacq") ? -2 : -1);
    } else if (!strcmp(base, "bra") || !strcmp(base, "brr")) {
        c.m.cls = QPU_CLS_BRANCH;
        rc = parse_branch(&c, buf, base[2] == 'r');
    } else {
        c.m.cls = QPU_CLS_ALU;
        rc = parse_alu_part(&c, buf);
        if (rc == CG_ERR_NOENT) {
            /* a line of only a signal or a read (vc4asm) */
            int s = vc4_qpu_lookup(CG_VC4_QPU_SET_SIG, buf);
            if (s < 0 && strcmp(buf, "read") != 0)
                return CG_ERR_NOENT;
            rc = alu_part(&c, buf);
        }
    }
    /* parts: ':' (cmdgpu) or ';' (vc4asm; a trailing ';' or ';;', vc4asm's
     * joining of lines, ends the instruction) */
    while (!rc && (cg_asm_accept(as, ':') || cg_asm_accept(as, ';'))) {
        while (cg_asm_accept(as, ';'))
            ;
        if (cg_asm_eol(as))
            break;
        char id[64];
        if ((rc = cg_asm_ident(as, id, sizeof id)))
            break;
        if (cg_asm_accept(as, '=')) {
            rc = parse_override(&c, id);
            continue;
        }
        if (c.m.cls == QPU_CLS_ALU) {
            rc = alu_part(&c, id);
        } else if (c.m.cls == QPU_CLS_LDI && !c.mul_used &&
                   (strncmp(id, "ldi", 3) == 0 && (id[3] == 0 || id[3] == '.'))) {
            /* cmdgpu's earlier `ldi DST, IMM : ldi[.cond] DST2` */
            c.mul_used = true;
            char *suf[8];
            int ns = split(id, suf, 8);
            c.m.act_mul = true;
            rc = ns < 0 ? cg_asm_error(as, "too many suffixes")
                        : parse_suffixes(&c, suf, ns, QF_LDI_cond_mul, false);
            if (!rc)
                rc = parse_dst(&c, true, QF_LDI_waddr_mul, QF_LDI_ws, QF_LDI_cond_mul, true);
        } else if (c.m.cls == QPU_CLS_LDI && !c.mul_used && strcmp(id, "nop") == 0) {
            c.mul_used = true;
        } else {
            rc = cg_asm_error(as, "unexpected '%s'", id);
        }
    }
    if (rc)
        return rc == CG_ERR_NOENT ? cg_asm_error(as, "unknown op") : rc;
    if (c.m.cls == QPU_CLS_ALU && (rc = bind_shared(&c)))
        return rc;
    if (c.m.cls == QPU_CLS_ALU && c.m.has_simm && F_GIVEN(&c.m, QF_ALU_sig) &&
        c.m.v[QF_ALU_sig] != VC4_QPU_SIG_SMALL_IMMEDIATE)
        return cg_asm_error(as, "a small immediate leaves no room for a signal");
    if (c.m.cls == QPU_CLS_ALU && c.m.rot >= 0 && F_GIVEN(&c.m, QF_ALU_sig))
        return cg_asm_error(as, "a rotation leaves no room for a signal");
    if (qpu_img_finalize(&c.m) != 0)
        return cg_asm_error(as, "small immediate does not match the rotation's value");
    for (int i = 0; i < c.novr; i++)
        c.m.v[c.ovr_field[i]] = c.ovr_val[i];
    uint64_t w = qpu_img_encode(&c.m);
    if (qpu_cls_of(w) != c.m.cls)
        return cg_asm_error(as, "sig override changes the instruction's form");
    if ((rc = cg_asm_emit32(as, (uint32_t)w)) || (rc = cg_asm_emit32(as, (uint32_t)(w >> 32))))
        return rc;
    return 0;
}

static void begin_pass(cg_asm *as, void *user, int pass, bool final)
{
    (void)user;
    (void)pass;
    (void)final;
    cg_asm_semicolon_token(as, true); /* vc4asm's part separator */
}

static const cg_asm_family qpu_family = {
    .name = "vc4-qpu",
    .statement = statement,
    .begin_pass = begin_pass,
};

const cg_asm_family *vc4_qpu_asm_family(void) { return &qpu_family; }

const cg_asm_family *cg_vc4_qpu_asm_family(void) { return &qpu_family; }

int cg_vc4_qpu_asm(const char *text, uint32_t addr, uint64_t *ins, char *err, size_t errcap)
{
    if (err && errcap)
        err[0] = 0;
    if (!text || !ins)
        return CG_ERR_INVAL;
    if (strchr(text, '\n'))
        return CG_ERR_INVAL;
    char src[64];
    snprintf(src, sizeof src, ".section text, 0x%x\n", addr);
    size_t ls = strlen(src), lt = strlen(text);
    char *all = malloc(ls + lt + 2);
    if (!all)
        return CG_ERR_NOMEM;
    memcpy(all, src, ls);
    memcpy(all + ls, text, lt);
    all[ls + lt] = '\n';
    cg_asm *as = NULL;
    int rc = cg_asm_create(&qpu_family, NULL, &as);
    if (!rc)
        rc = cg_asm_add_source(as, "<qpu>", all, ls + lt + 1);
    free(all);
    if (!rc)
        rc = cg_asm_assemble(as);
    const uint8_t *data = NULL;
    size_t size = 0;
    uint64_t base = 0;
    const char *name = NULL;
    if (!rc && (cg_asm_section_count(as) != 1 ||
                cg_asm_section(as, 0, &name, &base, &data, &size) != 0 || size != 8))
        rc = CG_ERR_SYNTAX;
    if (rc && err && errcap)
        snprintf(err, errcap, "%s", as && cg_asm_errors(as)[0] ? cg_asm_errors(as)
                                                                 : "not one instruction");
    if (!rc)
        *ins = cg_vc4_qpu_word(data);
    cg_asm_destroy(as);
    return rc;
}
