/* nv: MME disassembler and assembler plug-in. Syntax in docs/nv-macro.md:
 *   add.mov r1, r2, r3        ALU (add adc sub sbb xor or and andn nand)
 *   addi.mov r1, r2, -5       ADD_IMM, signed 18-bit immediate
 *   bfins.mov rD, rA, rB, SRC, SIZE, DST     EXTRACT_INSERT
 *   bfshl.mov rD, rA, rB, SIZE, DST          EXTRACT_SHL_IMM ((B>>A)&m)<<DST
 *   bfshlr.mov rD, rA, rB, SRC, SIZE         EXTRACT_SHL_REG ((B>>SRC)&m)<<A
 *   read.mov rD, rA, IMM      READ method A+IMM
 *   bra.z rA, TARGET / bra.nz.a rA, TARGET   branch (.a = annul: no delay slot)
 *   aliases: nop, exit, parm rD (= addi.fetch rD, r0, 0)
 * Every non-branch mnemonic takes a result-op suffix (fetch mov movm fetchsend
 * movsend fetchm movmsendp movmsendhi; default mov) and any instruction an
 * `.exit` suffix. Branch targets are byte addresses (labels) like the core
 * assembler's location counter; instructions are 4 bytes. */
#include <stdio.h>
#include <string.h>
#include "cmdgpu/asm.h"
#include "cmdgpu/nv_macro.h"
#include "nv/gpu/macro.h"

static const char *const op_names[8] = {
#define NV_MME_OP(id, value, mn) [value] = mn,
#include "nv/tables/macro.def"
};
static const char *const alu_names[32] = {
#define NV_MME_ALU(id, value, mn) [value] = mn,
#include "nv/tables/macro.def"
};
static const char *const res_names[8] = {
#define NV_MME_RES(id, value, sfx, desc) [value] = sfx,
#include "nv/tables/macro.def"
};

/* Bits a form leaves unused must be zero for the structured text; otherwise
 * the word is a .word (it still round-trips). */
#define ALU_UNUSED (0xFFFFFFFFu << (NV_MME_FLD_ALU_HI + 1)) /* above ALU */
#define BRA_UNUSED                                                             \
    (NV_MME_MASK(DST) | (NV_MME_MASK(RES) & ~NV_MME_MASK(BNZ) & ~NV_MME_MASK(BANNUL)))
#define SHLI_UNUSED NV_MME_MASK(BSRC)  /* bfshl has no source bit */
#define SHLR_UNUSED NV_MME_MASK(BDST)  /* bfshlr shifts by rA, no destination bit */
_Static_assert(ALU_UNUSED == 0xFFC00000u && BRA_UNUSED == 0x00000740u &&
                   SHLI_UNUSED == 0x003E0000u && SHLR_UNUSED == 0xF8000000u,
               "unused bits of the forms (research/nv.md section 4)");
/* the aliases nop and exit: addi.mov r0, r0, 0 (.exit) */
#define WORD_NOP (NV_MME_PUT(OP, NV_MME_OP_ADD_IMM) | NV_MME_PUT(RES, NV_MME_RES_MOV))
#define WORD_EXIT (WORD_NOP | NV_MME_PUT(EXIT, 1))
_Static_assert(WORD_NOP == 0x11u && WORD_EXIT == 0x91u, "nop and exit words");

int nv_mme_disasm_word(uint32_t w, uint32_t pc, char *buf, size_t cap, const char **note)
{
    uint32_t op = NV_MME_F_OP(w), d = NV_MME_F_DST(w), a = NV_MME_F_SRCA(w),
             b = NV_MME_F_SRCB(w);
    const char *x = NV_MME_F_EXIT(w) ? ".exit" : "";
    const char *r = res_names[NV_MME_F_RES(w)];
    int32_t imm = nv_mme_imm(w);
    *note = NULL;
    if (w == WORD_NOP)
        return snprintf(buf, cap, "nop");
    if (w == WORD_EXIT)
        return snprintf(buf, cap, "exit");
    if (w & NV_MME_MASK(RSVD3)) {
        *note = "unused bit 3 set";
        op = 8; /* .word */
    }
    switch (op) {
    case NV_MME_OP_ALU:
        if (!alu_names[NV_MME_F_ALU(w)]) {
            *note = "illegal ALU operation";
            break;
        }
        if (w & ALU_UNUSED) {
            *note = "unused bits 31:22 set";
            break;
        }
        return snprintf(buf, cap, "%s.%s%s r%u, r%u, r%u", alu_names[NV_MME_F_ALU(w)], r, x,
                        d, a, b);
    case NV_MME_OP_ADD_IMM:
        if (NV_MME_F_RES(w) == NV_MME_RES_FETCH && a == 0 && imm == 0)
            return snprintf(buf, cap, "parm%s r%u", x, d);
        if (imm > -0x100 && imm < 0x100)
            return snprintf(buf, cap, "addi.%s%s r%u, r%u, %d", r, x, d, a, (int)imm);
        return snprintf(buf, cap, "addi.%s%s r%u, r%u, %s0x%x", r, x, d, a, imm < 0 ? "-" : "",
                        (unsigned)(imm < 0 ? -imm : imm));
    case NV_MME_OP_EXTRACT_INSERT:
        return snprintf(buf, cap, "bfins.%s%s r%u, r%u, r%u, %u, %u, %u", r, x, d, a, b,
                        NV_MME_F_BSRC(w), NV_MME_F_BSIZE(w), NV_MME_F_BDST(w));
    case NV_MME_OP_EXTRACT_SHL_IMM:
        if (w & SHLI_UNUSED) {
            *note = "unused src_bit field set";
            break;
        }
        return snprintf(buf, cap, "bfshl.%s%s r%u, r%u, r%u, %u, %u", r, x, d, a, b,
                        NV_MME_F_BSIZE(w), NV_MME_F_BDST(w));
    case NV_MME_OP_EXTRACT_SHL_REG:
        if (w & SHLR_UNUSED) {
            *note = "unused dst_bit field set";
            break;
        }
        return snprintf(buf, cap, "bfshlr.%s%s r%u, r%u, r%u, %u, %u", r, x, d, a, b,
                        NV_MME_F_BSRC(w), NV_MME_F_BSIZE(w));
    case NV_MME_OP_READ:
        return snprintf(buf, cap, "read.%s%s r%u, r%u, %s0x%x", r, x, d, a, imm < 0 ? "-" : "",
                        (unsigned)(imm < 0 ? -imm : imm));
    case NV_MME_OP_BRANCH: {
        if (w & BRA_UNUSED) {
            *note = "unused branch bits set";
            break;
        }
        int64_t t = ((int64_t)pc + imm) * 4;
        char tb[32];
        if (t >= 0)
            snprintf(tb, sizeof tb, "0x%llx", (unsigned long long)t);
        else
            snprintf(tb, sizeof tb, ". - 0x%llx", (unsigned long long)(-(int64_t)imm * 4));
        return snprintf(buf, cap, "bra.%s%s%s r%u, %s", NV_MME_F_BNZ(w) ? "nz" : "z",
                        NV_MME_F_BANNUL(w) ? ".a" : "", x, a, tb);
    }
    default:
        *note = "illegal opcode 6";
        break;
    }
    return snprintf(buf, cap, ".word 0x%08x", w);
}

/* ---- assembler ---------------------------------------------------------- */

static int reg(cg_asm *as, uint32_t *out)
{
    char name[16];
    if (cg_asm_ident(as, name, sizeof name))
        return CG_ERR_SYNTAX;
    if (strcmp(name, "rz") == 0) {
        *out = 0;
        return 0;
    }
    if ((name[0] == 'r' || name[0] == 'R') && name[1] >= '0' && name[1] <= '7' && !name[2]) {
        *out = (uint32_t)(name[1] - '0');
        return 0;
    }
    return cg_asm_error(as, "expected a register r0..r7, got '%s'", name);
}

static int num(cg_asm *as, int64_t lo, int64_t hi, const char *what, int64_t *out)
{
    if (cg_asm_expr(as, out))
        return CG_ERR_SYNTAX;
    if (*out < lo || *out > hi) {
        if (!cg_asm_final_pass(as)) { /* labels may still move */
            *out = 0;
            return 0;
        }
        return cg_asm_error(as, "%s %lld out of range %lld..%lld", what, (long long)*out,
                            (long long)lo, (long long)hi);
    }
    return 0;
}

static int comma(cg_asm *as)
{
    return cg_asm_expect(as, ',') ? CG_ERR_SYNTAX : 0;
}

static int regs3(cg_asm *as, uint32_t *w, int n)
{
    uint32_t r = 0; /* reg() sets it on success (GCC -O3 cannot tell) */
    static const unsigned shift[3] = {NV_MME_FLD_DST_LO, NV_MME_FLD_SRCA_LO,
                                      NV_MME_FLD_SRCB_LO};
    for (int i = 0; i < n; i++) {
        if ((i && comma(as)) || reg(as, &r))
            return CG_ERR_SYNTAX;
        *w |= r << shift[i];
    }
    return 0;
}

/* A 5-bit bit-field operand (BSRC, BSIZE or BDST) at bit `shift`. */
_Static_assert(NV_MME_FLD_BITS(BSRC) == 31 && NV_MME_FLD_BITS(BSIZE) == 31 &&
                   NV_MME_FLD_BITS(BDST) == 31,
               "the bit-field operands are 5 bits");
static int field5(cg_asm *as, uint32_t *w, unsigned shift)
{
    int64_t v;
    if (comma(as) || num(as, 0, 31, "bit field", &v))
        return CG_ERR_SYNTAX;
    *w |= (uint32_t)v << shift;
    return 0;
}

static int imm18(cg_asm *as, uint32_t *w)
{
    int64_t v;
    if (comma(as) || num(as, -0x20000, 0x3FFFF, "immediate", &v))
        return CG_ERR_SYNTAX;
    *w |= NV_MME_PUT(IMM, v);
    return 0;
}

static int mme_statement(cg_asm *as, void *user, const char *name)
{
    (void)user;
    char buf[64];
    if (strlen(name) >= sizeof buf)
        return CG_ERR_NOENT;
    strcpy(buf, name);
    /* split base.suffix.suffix */
    char *sfx[4] = {0};
    int ns = 0;
    char *p = strchr(buf, '.');
    if (p == buf)
        return CG_ERR_NOENT; /* a directive */
    while (p) {
        *p++ = 0;
        if (ns == 4)
            return cg_asm_error(as, "too many suffixes on '%s'", name);
        sfx[ns++] = p;
        p = strchr(p, '.');
    }
    uint32_t w = 0;
    int res = -1, exitb = 0, cond = -1, annul = 0;
    for (int i = 0; i < ns; i++) {
        int found = 0;
        if (strcmp(sfx[i], "exit") == 0 && !exitb)
            exitb = found = 1;
        for (int k = 0; !found && k < 8; k++)
            if (strcmp(sfx[i], res_names[k]) == 0 && res < 0)
                res = k, found = 1;
        if (!found && strcmp(sfx[i], "z") == 0 && cond < 0)
            cond = 0, found = 1;
        if (!found && strcmp(sfx[i], "nz") == 0 && cond < 0)
            cond = 1, found = 1;
        if (!found && strcmp(sfx[i], "a") == 0 && !annul)
            annul = found = 1;
        if (!found)
            return cg_asm_error(as, "unknown or repeated suffix '.%s' on '%s'", sfx[i], name);
    }
    int op = -1, alu = -1;
    for (int k = 0; k < 8; k++)
        if (op_names[k] && k != NV_MME_OP_ALU && strcmp(buf, op_names[k]) == 0)
            op = k;
    for (int k = 0; k < 32; k++)
        if (alu_names[k] && strcmp(buf, alu_names[k]) == 0)
            op = NV_MME_OP_ALU, alu = k;
    bool alias = strcmp(buf, "nop") == 0 || strcmp(buf, "exit") == 0 || strcmp(buf, "parm") == 0;
    if (op < 0 && !alias)
        return CG_ERR_NOENT;
    bool is_bra = op == NV_MME_OP_BRANCH;
    if (is_bra ? (res >= 0 || cond < 0) : (cond >= 0 || annul))
        return cg_asm_error(as, is_bra ? "branch needs .z or .nz and takes no result op"
                                       : "only branches take .z/.nz/.a");
    if (alias && (res >= 0 || (strcmp(buf, "exit") == 0 && exitb)))
        return cg_asm_error(as, "'%s' takes no result op", buf);
    if (res < 0)
        res = NV_MME_RES_MOV;
    w = NV_MME_PUT(EXIT, exitb);
    if (strcmp(buf, "nop") == 0 || strcmp(buf, "exit") == 0)
        return cg_asm_emit32(as, w | (buf[0] == 'e' ? WORD_EXIT : WORD_NOP));
    if (strcmp(buf, "parm") == 0) {
        uint32_t d;
        if (reg(as, &d))
            return CG_ERR_SYNTAX;
        return cg_asm_emit32(as, w | NV_MME_PUT(OP, NV_MME_OP_ADD_IMM) | NV_MME_PUT(DST, d));
    }
    w |= NV_MME_PUT(OP, op);
    if (!is_bra)
        w |= NV_MME_PUT(RES, res);
    switch (op) {
    case NV_MME_OP_ALU:
        if (regs3(as, &w, 3))
            return CG_ERR_SYNTAX;
        w |= NV_MME_PUT(ALU, alu);
        break;
    case NV_MME_OP_ADD_IMM:
    case NV_MME_OP_READ:
        if (regs3(as, &w, 2) || imm18(as, &w))
            return CG_ERR_SYNTAX;
        break;
    case NV_MME_OP_EXTRACT_INSERT:
        if (regs3(as, &w, 3) || field5(as, &w, NV_MME_FLD_BSRC_LO) ||
            field5(as, &w, NV_MME_FLD_BSIZE_LO) || field5(as, &w, NV_MME_FLD_BDST_LO))
            return CG_ERR_SYNTAX;
        break;
    case NV_MME_OP_EXTRACT_SHL_IMM:
        if (regs3(as, &w, 3) || field5(as, &w, NV_MME_FLD_BSIZE_LO) ||
            field5(as, &w, NV_MME_FLD_BDST_LO))
            return CG_ERR_SYNTAX;
        break;
    case NV_MME_OP_EXTRACT_SHL_REG:
        if (regs3(as, &w, 3) || field5(as, &w, NV_MME_FLD_BSRC_LO) ||
            field5(as, &w, NV_MME_FLD_BSIZE_LO))
            return CG_ERR_SYNTAX;
        break;
    default: { /* branch: rA, target (byte address) */
        uint32_t a;
        int64_t t;
        if (reg(as, &a) || comma(as) || cg_asm_expr(as, &t))
            return CG_ERR_SYNTAX;
        int64_t here = (int64_t)cg_asm_pc(as);
        int64_t off = 0;
        if (cg_asm_final_pass(as)) {
            if ((t - here) % 4)
                return cg_asm_error(as, "branch target 0x%llx is not a multiple of 4 from here",
                                    (unsigned long long)t);
            off = (t - here) / 4;
            if (off < -0x20000 || off > 0x1FFFF)
                return cg_asm_error(as, "branch offset %lld out of range", (long long)off);
        }
        w |= NV_MME_PUT(BNZ, cond) | NV_MME_PUT(BANNUL, annul) | NV_MME_PUT(SRCA, a) |
             NV_MME_PUT(IMM, off);
        break;
    }
    }
    return cg_asm_emit32(as, w);
}

static const cg_asm_family mme_family = {"nv-macro", mme_statement, NULL};

const struct cg_asm_family *nv_mme_asm_family(void)
{
    return &mme_family;
}

/* ---- the public text API (include/cmdgpu/nv_macro.h) --------------------- */

int cg_nv_macro_disasm_word(uint32_t w, uint32_t pc, char *buf, size_t cap, const char **note)
{
    const char *n;
    int len = nv_mme_disasm_word(w, pc, buf, cap, &n);
    if (note)
        *note = n;
    return len;
}

const cg_asm_family *cg_nv_macro_asm_family(void)
{
    return &mme_family;
}
