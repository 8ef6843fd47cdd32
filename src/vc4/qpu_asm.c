/* VideoCore IV QPU assembler: a cg_asm family plug-in reading the syntax the
 * disassembler prints (qpu_text.c, docs/vc4-qpu.md). Every instruction is
 * two little-endian words, low word first (research/vc4.md section 3). */
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
} actx;

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
    if (*end || v > 63 || (s[2] == '0' && s[3]))
        return false;
    *file = s[1] == 'b';
    *n = (uint32_t)v;
    return true;
}

static int lookup(const vc4_qpu_codeinfo *t, int n, const char *as)
{
    for (int i = 0; i < n; i++)
        if (t[i].name && t[i].as[0] && strcmp(t[i].as, as) == 0)
            return i;
    return -1;
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

/* ---- operands ---- */

static int claim_a(actx *c, uint32_t n)
{
    return set_field(c, QF_ALU_raddr_a, n, "register file A read");
}
static int claim_b(actx *c, uint32_t n)
{
    if (c->m.has_simm)
        return cg_asm_error(c->as, "register file B read and a small immediate in one instruction");
    return set_field(c, QF_ALU_raddr_b, n, "register file B read");
}

static int set_unpack(actx *c, const char *suf, uint32_t pm)
{
    int u = lookup(vc4_qpu_unpacks, 8, suf);
    if (u <= 0)
        return cg_asm_error(c->as, "unknown unpack mode '.%s'", suf);
    int rc = set_field(c, QF_ALU_unpack, (uint32_t)u, "unpack");
    if (!rc)
        rc = set_field(c, QF_ALU_pm, pm, "pm (pack/unpack select)");
    return rc;
}

static int parse_src(actx *c, uint32_t *mux)
{
    char buf[64];
    if (!cg_asm_peek_ident(c->as, buf, sizeof buf)) {
        int64_t v;
        int rc = cg_asm_expr(c->as, &v);
        if (rc)
            return rc;
        if (v < -16 || v > 15)
            return cg_asm_error(c->as, "small immediate %lld out of range -16..15",
                                (long long)v);
        uint32_t bits = (uint32_t)(int32_t)v;
        goto simm;
    simm:
        if (F_GIVEN(&c->m, QF_ALU_raddr_b))
            return cg_asm_error(c->as, "small immediate and a register file B read in one instruction");
        if (c->m.has_simm && c->m.simm_bits != bits)
            return cg_asm_error(c->as, "two different small immediates in one instruction");
        c->m.has_simm = true;
        c->m.simm_bits = bits;
        *mux = 7;
        return 0;
    }
    int rc = cg_asm_ident(c->as, buf, sizeof buf);
    if (rc)
        return rc;
    for (int i = 32; i < 48; i++) {
        if (strcmp(buf, vc4_qpu_smallimm_as[i]) == 0) {
            uint32_t bits = vc4_qpu_smallimm_bits[i];
            if (F_GIVEN(&c->m, QF_ALU_raddr_b))
                return cg_asm_error(c->as, "small immediate and a register file B read in one instruction");
            if (c->m.has_simm && c->m.simm_bits != bits)
                return cg_asm_error(c->as, "two different small immediates in one instruction");
            c->m.has_simm = true;
            c->m.simm_bits = bits;
            *mux = 7;
            return 0;
        }
    }
    char *suf[2];
    int ns = split(buf, suf, 2);
    if (ns < 0 || ns > 1)
        return cg_asm_error(c->as, "bad operand '%s'", buf);
    if (buf[0] == 'r' && buf[1] >= '0' && buf[1] <= '5' && !buf[2]) {
        *mux = (uint32_t)(buf[1] - '0');
        if (ns) {
            if (*mux != 4)
                return cg_asm_error(c->as, "only r4 and register file A reads unpack");
            return set_unpack(c, suf[0], 1);
        }
        return 0;
    }
    int file;
    uint32_t n;
    if (!parse_rnum(buf, &file, &n)) {
        int fa = -1, fb = -1;
        for (int i = 32; i < 64; i++) {
            const vc4_qpu_reginfo *r = &vc4_qpu_raddrs[i];
            if (r->as[0] && strcmp(r->as[0], buf) == 0)
                fa = i;
            if (r->as[1] && strcmp(r->as[1], buf) == 0)
                fb = i;
        }
        if (fa < 0 && fb < 0)
            return cg_asm_error(c->as, "unknown source register '%s'", buf);
        if (fa >= 0 && fb >= 0) { /* shared: A unless A reads something else */
            n = (uint32_t)fa;
            file = (F_GIVEN(&c->m, QF_ALU_raddr_a) && c->m.v[QF_ALU_raddr_a] != n) ? 1 : 0;
        } else {
            file = fa >= 0 ? 0 : 1;
            n = (uint32_t)(fa >= 0 ? fa : fb);
        }
    }
    if (file == 0) {
        *mux = 6;
        rc = claim_a(c, n);
        if (!rc && ns)
            rc = set_unpack(c, suf[0], 0);
        return rc;
    }
    if (ns)
        return cg_asm_error(c->as, "only r4 and register file A reads unpack");
    *mux = 7;
    return claim_b(c, n);
}

/* Destination of the add side (mul_side false) or mul side. f_waddr / f_ws:
 * the field indices of the class. */
static int parse_dst(actx *c, bool mul_side, int f_waddr, int f_ws, bool allow_pack)
{
    char buf[64];
    int rc = cg_asm_ident(c->as, buf, sizeof buf);
    if (rc)
        return rc;
    char *suf[2];
    int ns = split(buf, suf, 2);
    if (ns < 0 || ns > 1)
        return cg_asm_error(c->as, "bad destination '%s'", buf);
    int file;
    uint32_t n;
    bool shared = false;
    if (!parse_rnum(buf, &file, &n)) {
        int fa = -1, fb = -1;
        for (int i = 32; i < 64; i++) {
            const vc4_qpu_reginfo *r = &vc4_qpu_waddrs[i];
            if (strcmp(r->as[0], buf) == 0)
                fa = i;
            if (strcmp(r->as[1], buf) == 0)
                fb = i;
        }
        if (fa < 0 && fb < 0)
            return cg_asm_error(c->as, "unknown destination register '%s'", buf);
        shared = fa >= 0 && fb >= 0;
        file = fa >= 0 ? 0 : 1;
        n = (uint32_t)(fa >= 0 ? fa : fb);
    }
    rc = set_field(c, f_waddr, n, "destination");
    if (rc)
        return rc;
    /* add writes A when ws=0, mul writes B when ws=0 */
    if (!shared) {
        rc = set_field(c, f_ws, (uint32_t)(mul_side ? file == 0 : file == 1),
                       "destination file (ws)");
        if (rc)
            return rc;
    }
    if (!ns)
        return 0;
    if (!allow_pack)
        return cg_asm_error(c->as, "no pack here");
    int p = lookup(vc4_qpu_packa, 16, suf[0]);
    if (p > 0) {
        rc = set_field(c, QF_ALU_pm, 0, "pm (pack/unpack select)");
        if (!rc)
            rc = set_field(c, QF_ALU_pack, (uint32_t)p, "pack");
        if (!rc)
            rc = set_field(c, f_ws, mul_side ? 1 : 0, "pack needs a register file A destination (ws)");
        return rc;
    }
    p = lookup(vc4_qpu_packm, 16, suf[0]);
    if (p > 0) {
        if (!mul_side)
            return cg_asm_error(c->as, "colour pack '.%s' applies to the mul result only", suf[0]);
        rc = set_field(c, QF_ALU_pm, 1, "pm (pack/unpack select)");
        if (!rc)
            rc = set_field(c, QF_ALU_pack, (uint32_t)p, "pack");
        return rc;
    }
    return cg_asm_error(c->as, "unknown pack mode '.%s'", suf[0]);
}

/* Suffixes of an op: conditions (branch conditions if bcond), sf, rotation. */
static int parse_suffixes(actx *c, char **suf, int ns, int f_cond, bool bcond, bool allow_rot)
{
    for (int i = 0; i < ns; i++) {
        int k;
        if (bcond && (k = lookup(vc4_qpu_bconds, 16, suf[i])) >= 0) {
            int rc = set_field(c, f_cond, (uint32_t)k, "condition");
            if (rc)
                return rc;
        } else if (!bcond && (k = lookup(vc4_qpu_conds, 8, suf[i])) >= 0) {
            int rc = set_field(c, f_cond, (uint32_t)k, "condition");
            if (rc)
                return rc;
        } else if (!bcond && strcmp(suf[i], "sf") == 0) {
            int rc = set_field(c, QF_ALU_sf, 1, "sf");
            if (rc)
                return rc;
        } else if (allow_rot && strncmp(suf[i], "rot", 3) == 0) {
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
            if (c->m.rot >= 0 && c->m.rot != r)
                return cg_asm_error(c->as, "two rotations");
            c->m.rot = r;
        } else {
            return cg_asm_error(c->as, "unknown suffix '.%s'", suf[i]);
        }
    }
    return 0;
}

static int find_op(const vc4_qpu_opinfo *t, int n, const char *as)
{
    for (int i = 0; i < n; i++)
        if (t[i].name && strcmp(t[i].as, as) == 0)
            return i;
    return -1;
}

/* An add (mul_side false) or mul ALU part; `name` is the op with suffixes. */
static int parse_alu_part(actx *c, char *name, bool mul_side)
{
    char *suf[8];
    int ns = split(name, suf, 8);
    if (ns < 0)
        return cg_asm_error(c->as, "too many suffixes");
    const vc4_qpu_opinfo *t = mul_side ? vc4_qpu_mul_ops : vc4_qpu_add_ops;
    int nt = mul_side ? 8 : 32;
    bool mov = strcmp(name, "mov") == 0;
    int op = mov ? (mul_side ? VC4_QPU_M_V8MIN : VC4_QPU_A_OR) : find_op(t, nt, name);
    if (op < 0)
        return CG_ERR_NOENT;
    int f_op = mul_side ? QF_ALU_op_mul : QF_ALU_op_add;
    int rc = set_field(c, f_op, (uint32_t)op, "op");
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
    rc = parse_suffixes(c, suf, ns, mul_side ? QF_ALU_cond_mul : QF_ALU_cond_add, false, mul_side);
    if (rc)
        return rc;
    rc = parse_dst(c, mul_side, mul_side ? QF_ALU_waddr_mul : QF_ALU_waddr_add, QF_ALU_ws, true);
    if (rc)
        return rc;
    int fa = mul_side ? QF_ALU_mul_a : QF_ALU_add_a, fb = mul_side ? QF_ALU_mul_b : QF_ALU_add_b;
    uint32_t mux;
    if ((rc = cg_asm_expect(c->as, ',')) || (rc = parse_src(c, &mux)))
        return rc;
    if ((rc = set_field(c, fa, mux, "source")))
        return rc;
    if (mov)
        return set_field(c, fb, mux, "source");
    if (t[op].nsrc == 2) {
        if ((rc = cg_asm_expect(c->as, ',')) || (rc = parse_src(c, &mux)))
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
        rc = parse_suffixes(c, suf, ns, QF_LDI_cond_add, false, false);
    if (!rc)
        rc = parse_dst(c, false, QF_LDI_waddr_add, QF_LDI_ws, true);
    if (!rc)
        rc = cg_asm_expect(c->as, ',');
    if (rc)
        return rc;
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
    if (mode_or_sem < 0) {
        if (v < 0 || v > 15)
            return cg_asm_error(c->as, "semaphore %lld out of range 0..15", (long long)v);
        v |= mode_or_sem == -2 ? 16 : 0;
    } else if (v < -(int64_t)0x80000000 || v > (int64_t)0xffffffff) {
        return cg_asm_error(c->as, "immediate %lld does not fit 32 bits", (long long)v);
    }
    return set_field(c, QF_LDI_imm, (uint32_t)v, "immediate");
}

static int parse_branch(actx *c, char *name, bool rel)
{
    char *suf[4];
    int ns = split(name, suf, 4);
    if (ns < 0)
        return cg_asm_error(c->as, "too many suffixes");
    int rc = set_field(c, QF_BRANCH_rel, rel, "rel");
    if (!rc)
        rc = parse_suffixes(c, suf, ns, QF_BRANCH_cond_br, true, false);
    if (!rc)
        rc = parse_dst(c, false, QF_BRANCH_waddr_add, QF_BRANCH_ws, false);
    if (!rc)
        rc = cg_asm_expect(c->as, ',');
    if (!rc)
        rc = parse_dst(c, true, QF_BRANCH_waddr_mul, QF_BRANCH_ws, false);
    if (!rc)
        rc = cg_asm_expect(c->as, ',');
    if (rc)
        return rc;
    char buf[64];
    int file;
    uint32_t n;
    if (cg_asm_peek_ident(c->as, buf, sizeof buf) && parse_rnum(buf, &file, &n)) {
        cg_asm_ident(c->as, buf, sizeof buf);
        if (file != 0 || n > 31)
            return cg_asm_error(c->as, "a branch adds ra0..ra31 only");
        if ((rc = set_field(c, QF_BRANCH_reg, 1, "reg")) ||
            (rc = set_field(c, QF_BRANCH_raddr_a, n, "raddr_a")) ||
            (rc = cg_asm_expect(c->as, ',')))
            return rc;
    }
    int64_t t;
    if ((rc = cg_asm_expr(c->as, &t)))
        return rc;
    uint32_t target = (uint32_t)t;
    uint32_t imm = rel ? target - ((uint32_t)cg_asm_pc(c->as) + 32u) : target;
    return set_field(c, QF_BRANCH_imm, imm, "target");
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
    if (!strcmp(base, "ldi") || !strcmp(base, "ldis") || !strcmp(base, "ldiu") ||
        !strcmp(base, "sacq") || !strcmp(base, "srel")) {
        c.m.cls = QPU_CLS_LDI;
        int mode = !strcmp(base, "ldi") ? 0 : !strcmp(base, "ldis") ? 1
                 : !strcmp(base, "ldiu") ? 3 : !strcmp(base, "sacq") ? -2 : -1;
        rc = parse_ldi(&c, buf, mode);
    } else if (!strcmp(base, "bra") || !strcmp(base, "brr")) {
        c.m.cls = QPU_CLS_BRANCH;
        rc = parse_branch(&c, buf, base[2] == 'r');
    } else {
        c.m.cls = QPU_CLS_ALU;
        rc = parse_alu_part(&c, buf, false);
        if (rc == CG_ERR_NOENT)
            return CG_ERR_NOENT;
    }
    int part = 1;
    while (!rc && cg_asm_accept(as, ':')) {
        char id[64];
        if ((rc = cg_asm_ident(as, id, sizeof id)))
            break;
        if (cg_asm_accept(as, '=')) {
            rc = parse_override(&c, id);
            continue;
        }
        if (c.m.cls == QPU_CLS_ALU && part == 1) {
            part++;
            char tmp[64];
            memcpy(tmp, id, sizeof tmp);
            rc = parse_alu_part(&c, tmp, true);
            if (rc != CG_ERR_NOENT)
                continue;
            rc = 0;
        }
        if (c.m.cls == QPU_CLS_ALU) {
            int s = lookup(vc4_qpu_sigs, 16, id);
            if (s < 0 || s == VC4_QPU_SIG_SMALL_IMMEDIATE || s >= VC4_QPU_SIG_LOAD_IMMEDIATE) {
                rc = cg_asm_error(as, "unknown signal or mul op '%s'", id);
                break;
            }
            rc = set_field(&c, QF_ALU_sig, (uint32_t)s, "signal");
            part = 3;
        } else if (c.m.cls == QPU_CLS_LDI && part == 1 &&
                   (strncmp(id, "ldi", 3) == 0 && (id[3] == 0 || id[3] == '.'))) {
            part++;
            char *suf[8];
            int ns = split(id, suf, 8);
            c.m.act_mul = true;
            rc = ns < 0 ? cg_asm_error(as, "too many suffixes")
                        : parse_suffixes(&c, suf, ns, QF_LDI_cond_mul, false, false);
            if (!rc)
                rc = parse_dst(&c, true, QF_LDI_waddr_mul, QF_LDI_ws, true);
        } else if (c.m.cls == QPU_CLS_LDI && part == 1 && strcmp(id, "nop") == 0) {
            part++;
        } else {
            rc = cg_asm_error(as, "unexpected '%s'", id);
        }
    }
    if (rc)
        return rc == CG_ERR_NOENT ? cg_asm_error(as, "unknown op") : rc;
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

static const cg_asm_family qpu_family = {
    .name = "vc4-qpu",
    .statement = statement,
    .begin_pass = NULL,
};

const cg_asm_family *vc4_qpu_asm_family(void) { return &qpu_family; }
