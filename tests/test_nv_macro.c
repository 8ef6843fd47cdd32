/* nv: the macro engine (MME) standalone: every ALU op with carry chains,
 * bitfield ops, result ops, method increment width and wrap, branches with
 * and without annul, the hardware-tested exit edge cases, each fault with
 * its fields, upload and shadow RAM, a draw-style macro, and the
 * disassembler/assembler round trip on hand cases and random words. Every
 * hand case also runs through the reference interpreter (nv_mme_ref.h), which
 * must agree in every field, and test_reference compares the two on 20000
 * random programs, as plain arrays and as calls from the code RAM. */
#include <stdlib.h>
#include "check.h"
#include "cmdgpu/asm.h"
#include "cmdgpu/cmdgpu.h"
#include "nv/gpu/macro.h"
#include "nv_mme_ref.h"

/* Records sends; fail_at > 0 makes the fail_at-th io call (sends and reads
 * counted together) return CG_ERR_IO, which must stop the macro. */
typedef struct ctx {
    uint32_t m[64], v[64];
    int n, calls, fail_at;
} ctx;

static int io_send(void *user, uint32_t method, uint32_t value)
{
    ctx *c = user;
    if (c->n < 64) {
        c->m[c->n] = method;
        c->v[c->n] = value;
    }
    c->n++;
    return ++c->calls == c->fail_at ? CG_ERR_IO : 0;
}

static int io_read(void *user, uint32_t method, uint32_t *value)
{
    ctx *c = user;
    *value = method * 3 + 1;
    return ++c->calls == c->fail_at ? CG_ERR_IO : 0;
}

/* Assemble text into code (at most cap words); returns the word count or -1. */
static int assemble(const char *text, uint32_t *code, size_t cap)
{
    cg_asm *as;
    if (cg_asm_create(nv_mme_asm_family(), NULL, &as))
        return -1;
    cg_asm_add_source(as, "t.s", text, strlen(text));
    int n = -1;
    if (cg_asm_assemble(as) == 0) {
        const char *name;
        uint64_t base;
        const uint8_t *data = NULL;
        size_t size = 0;
        if (cg_asm_section_count(as))
            cg_asm_section(as, 0, &name, &base, &data, &size);
        n = (int)(size / 4);
        if ((size_t)n > cap)
            n = -1;
        else if (size)
            memcpy(code, data, size);
    } else {
        fprintf(stderr, "%s", cg_asm_errors(as));
    }
    cg_asm_destroy(as);
    return n;
}

static cg_device *dev;

static const cg_fault *last_fault(void)
{
    size_t n = cg_fault_count(dev);
    return n ? cg_fault_get(dev, n - 1) : NULL;
}

/* Does a real run agree with the reference run s (its sends recorded in sc)?
 * rc, r, c: the real run's return, result and sends; `before`: the fault
 * count before it. A fault must be the one documented in docs/nv-macro.md:
 * unit "mme", family nv, not a warning; stream_addr = the PC and words =
 * {instruction} (nv_mme_run), or, for a call with an executor's agent
 * `who`, its channel and stream address and words = {instruction, PC}. */
static int ref_agrees(const nv_mme_ref *s, const ctx *sc, int rc, const nv_mme_result *r,
                      const ctx *c, size_t before, const cg_agent *who)
{
    size_t nf = cg_fault_count(dev) - before;
    if (rc != (s->kind ? CG_ERR_FAULT : s->io_rc) || nf != (s->kind ? 1u : 0u))
        return 0;
    if (s->kind) {
        const cg_fault *f = last_fault();
        if ((int)f->kind != s->kind || strcmp(f->unit, "mme") != 0 ||
            f->family != CG_FAMILY_NV || (f->flags & CG_FAULT_F_WARNING) ||
            f->words[0] != s->fword)
            return 0;
        if (who && (f->stream_addr != who->stream_addr || f->channel != who->channel ||
                    f->nwords != 2 || f->words[1] != s->fpc))
            return 0;
        if (!who && (f->stream_addr != s->fpc || f->nwords != 1))
            return 0;
    }
    return c->n == sc->n && memcmp(c->m, sc->m, sizeof c->m) == 0 &&
           memcmp(c->v, sc->v, sizeof c->v) == 0 && memcmp(r->regs, s->r, sizeof s->r) == 0 &&
           r->carry == s->carry && r->maddr == s->maddr && r->minc == s->minc &&
           r->pc == s->last && r->steps == s->steps && r->sends == s->sends &&
           r->params_used == s->pi;
}

/* Run text with params; sends land in *c. The reference interpreter runs the
 * same program and must agree, so every exact check below on the real
 * interpreter holds for the reference too. */
static int mrun_io(const char *text, const uint32_t *params, size_t np, int fail_at, ctx *c,
                   nv_mme_result *r)
{
    static uint32_t code[4096];
    memset(c, 0, sizeof *c);
    c->fail_at = fail_at;
    int n = assemble(text, code, 4096);
    CHECK(n > 0);
    if (n <= 0)
        return -100;
    nv_mme_io io = {c, io_send, io_read};
    size_t before = cg_fault_count(dev);
    int rc = nv_mme_run(code, (size_t)n, 0, params, np, &io, 10000, NULL, dev, r);
    nv_mme_ref s;
    ctx sc;
    memset(&s, 0, sizeof s);
    memset(&sc, 0, sizeof sc);
    sc.fail_at = fail_at;
    s.code = code;
    s.n = (size_t)n;
    s.pc_mask = 0xFFFFFFFFu;
    s.par = params;
    s.np = np;
    s.budget = 10000;
    s.user = &sc;
    s.send = io_send;
    s.read = io_read;
    nv_mme_ref_run(&s);
    CHECK(ref_agrees(&s, &sc, rc, r, c, before, NULL));
    return rc;
}

static int mrun(const char *text, const uint32_t *params, size_t np, ctx *c, nv_mme_result *r)
{
    return mrun_io(text, params, np, 0, c, r);
}

/* r4 = OP(a, b) with carry-in seeded by add r0, seed, seed (carry = seed>>31). */
static void alu(const char *op, uint32_t a, uint32_t b, uint32_t cin, uint32_t want,
                uint32_t want_carry)
{
    char text[256];
    snprintf(text, sizeof text,
             "parm r2\nparm r5\nadd.mov r0, r5, r5\n%s.mov.exit r4, r1, r2\nnop\n", op);
    uint32_t p[3] = {a, b, cin ? 0x80000000u : 0};
    ctx c;
    nv_mme_result r;
    CHECK_EQ(mrun(text, p, 3, &c, &r), 0);
    if (r.regs[4] != want || r.carry != want_carry)
        fprintf(stderr, "  alu %s 0x%x 0x%x cin %u\n", op, a, b, cin);
    CHECK_EQ(r.regs[4], want);
    CHECK_EQ(r.carry, want_carry);
    CHECK_EQ(r.regs[0], 0);
    CHECK_EQ(c.n, 0);
}

static void test_alu(void)
{
    alu("add", 1, 2, 0, 3, 0);
    alu("add", 0xFFFFFFFFu, 1, 0, 0, 1);
    alu("add", 0x80000000u, 0x80000000u, 1, 0, 1);
    alu("adc", 5, 6, 1, 12, 0);
    alu("adc", 5, 6, 0, 11, 0);
    alu("adc", 0xFFFFFFFFu, 0, 1, 0, 1); /* exact 33-bit carry */
    alu("adc", 0xFFFFFFFFu, 0xFFFFFFFFu, 1, 0xFFFFFFFFu, 1);
    /* SUB: carry is a borrow (Mesa mme_fermi_sim.c, hardware-tested); yuzu
     * and Ryujinx would give carry 0 for 25 - 138 and 1 for 138 - 25. */
    alu("sub", 25, 138, 0, 0xFFFFFF8Fu, 1);
    alu("sub", 138, 25, 1, 113, 0);
    alu("sub", 5, 5, 1, 0, 0);
    alu("sbb", 10, 3, 1, 6, 0);
    alu("sbb", 10, 3, 0, 7, 0);
    alu("sbb", 0, 0, 1, 0xFFFFFFFFu, 1);
    alu("sbb", 5, 5, 1, 0xFFFFFFFFu, 1);
    alu("sbb", 0, 0xFFFFFFFFu, 1, 0, 1);
    /* logic ops leave the carry alone */
    alu("xor", 0x0c406fe0u, 0x00fff0c0u, 1, 0x0cbf9f20u, 1);
    alu("or", 0x0c406fe0u, 0x00fff0c0u, 0, 0x0cffffe0u, 0);
    alu("and", 0x0c406fe0u, 0x00fff0c0u, 1, 0x004060c0u, 1);
    alu("andn", 0x0c406fe0u, 0x00fff0c0u, 0, 0x0c000f20u, 0);
    alu("nand", 0x0c406fe0u, 0x00fff0c0u, 0, 0xffbf9f3fu, 0);

    /* 64-bit chains, Mesa's hw-test values: (lo, hi) pairs. */
    const char *add64 = "parm r2\nparm r3\nparm r4\nadd.mov r5, r1, r3\n"
                        "adc.mov.exit r6, r2, r4\nnop\n";
    const char *sub64 = "parm r2\nparm r3\nparm r4\nsub.mov r5, r1, r3\n"
                        "sbb.mov.exit r6, r2, r4\nnop\n";
    uint32_t p[4] = {0x80008650u, 0x596u, 0x8000a8f6u, 0x836u};
    ctx c;
    nv_mme_result r;
    CHECK_EQ(mrun(add64, p, 4, &c, &r), 0);
    CHECK_EQ(r.regs[5], 0x00012F46u);
    CHECK_EQ(r.regs[6], 0xDCDu);
    CHECK_EQ(mrun(sub64, p, 4, &c, &r), 0);
    CHECK_EQ(r.regs[5], 0xFFFFDD5Au); /* 0x596_80008650 - 0x836_8000a8f6 */
    CHECK_EQ(r.regs[6], 0xFFFFFD5Fu);
    CHECK_EQ(r.carry, 1);

    /* ADD_IMM: signed 18-bit immediate, carry untouched */
    uint32_t q[2] = {0xFFFFFFFFu, 0x80000000u};
    CHECK_EQ(mrun("parm r5\nadd.mov r0, r5, r5\naddi.mov r2, r1, 1\naddi.mov r3, r0, -0x20000\n"
                  "addi.mov.exit r4, r0, 0x1FFFF\nnop\n", q, 2, &c, &r), 0);
    CHECK_EQ(r.regs[2], 0);
    CHECK_EQ(r.regs[3], 0xFFFE0000u);
    CHECK_EQ(r.regs[4], 0x1FFFFu);
    CHECK_EQ(r.carry, 1);
}

static void test_bitfield(void)
{
    ctx c;
    nv_mme_result r;
    uint32_t p[3] = {0xFFFFFFFFu, 0xA8, 0xDEADBEEFu};
    /* EXTRACT_INSERT: r1 with ((r2 >> 3) & 0xf) at bit 5 */
    CHECK_EQ(mrun("parm r2\nparm r3\nbfins.mov r4, r1, r2, 3, 4, 5\n"
                  /* SHL_IMM: ((r3 >> r6) & 0xff) << 4, r6 = 8 */
                  "addi.mov r6, r0, 8\nbfshl.mov r5, r6, r3, 8, 4\n"
                  /* SHL_REG: ((r3 >> 4) & 0xfff) << r7, r7 = 12 */
                  "addi.mov r7, r0, 12\nbfshlr.mov r6, r7, r3, 4, 12\n"
                  /* shift of 32 or more gives 0; size 0 gives 0 */
                  "addi.mov r7, r0, 40\nbfshlr.mov r7, r7, r3, 0, 31\n"
                  "bfins.mov.exit r2, r1, r3, 0, 0, 0\nnop\n", p, 3, &c, &r), 0);
    CHECK_EQ(r.regs[4], 0xFFFFFEBFu);
    CHECK_EQ(r.regs[5], 0xBE0u);
    CHECK_EQ(r.regs[6], 0xBEE000u);
    CHECK_EQ(r.regs[7], 0);
    CHECK_EQ(r.regs[2], 0xFFFFFFFFu);
    /* READ: method A + imm through io->read (our io returns method*3+1) */
    uint32_t q[1] = {0x10};
    CHECK_EQ(mrun("read.mov r2, r1, 0x8e4\nread.mov.exit r3, r1, -0x11\nread.mov r4, r0, 0\n",
                  q, 1, &c, &r), 0);
    CHECK_EQ(r.regs[2], 0x8F4u * 3 + 1);
    CHECK_EQ(r.regs[3], 0xFFFu * 3 + 1); /* (0x10 - 0x11) & 0xFFF */
    CHECK_EQ(r.regs[4], 1);
}

static void test_result_ops(void)
{
    ctx c;
    nv_mme_result r;
    uint32_t p[4] = {0, 0x111, 0x222, 0x333};
    /* 0 fetch, 1 mov, 2 movm */
    CHECK_EQ(mrun("addi.fetch r2, r0, 7\naddi.mov r3, r0, 7\naddi.movm.exit r4, r0, 0x2010\n"
                  "nop\n", p, 2, &c, &r), 0);
    CHECK_EQ(r.regs[2], 0x111);
    CHECK_EQ(r.regs[3], 7);
    CHECK_EQ(r.regs[4], 0x2010);
    CHECK_EQ(r.maddr, 0x010);
    CHECK_EQ(r.minc, 2);
    CHECK_EQ(c.n, 0);
    /* 3 fetchsend, 4 movsend */
    CHECK_EQ(mrun("addi.movm r0, r0, 0x1040\naddi.fetchsend r2, r0, 5\n"
                  "addi.movsend.exit r3, r0, 6\nnop\n", p, 2, &c, &r), 0);
    CHECK_EQ(c.n, 2);
    CHECK_EQ(c.m[0], 0x040);
    CHECK_EQ(c.v[0], 5);
    CHECK_EQ(c.m[1], 0x041);
    CHECK_EQ(c.v[1], 6);
    CHECK_EQ(r.regs[2], 0x111);
    CHECK_EQ(r.regs[3], 6);
    /* 5 fetchm, 6 movmsendp */
    CHECK_EQ(mrun("addi.fetchm r2, r0, 0x3050\naddi.movsend r0, r0, 9\n"
                  "addi.movmsendp.exit r3, r0, 0x60\nnop\n", p, 3, &c, &r), 0);
    CHECK_EQ(r.regs[2], 0x111);
    CHECK_EQ(c.n, 2);
    CHECK_EQ(c.m[0], 0x050);
    CHECK_EQ(c.v[0], 9);
    CHECK_EQ(c.m[1], 0x060);
    CHECK_EQ(c.v[1], 0x222);
    CHECK_EQ(r.regs[3], 0x60);
    /* 7 movmsendhi: result 0x3E246 -> maddr 0x246, inc 0xE (4 bits), sends
     * bits 17:12 = 0x3E */
    CHECK_EQ(mrun("addi.mov r3, r0, 0x1F123\nadd.movmsendhi r2, r3, r3\n"
                  "addi.movsend.exit r0, r0, 1\nnop\n", p, 1, &c, &r), 0);
    CHECK_EQ(r.regs[2], 0x3E246u);
    CHECK_EQ(c.n, 2);
    CHECK_EQ(c.m[0], 0x246);
    CHECK_EQ(c.v[0], 0x3E);
    CHECK_EQ(c.m[1], 0x254);
    CHECK_EQ(c.v[1], 1);
}

static void test_increment(void)
{
    ctx c;
    nv_mme_result r;
    uint32_t p[1] = {0};
    /* Bits 17:12 = 0x1F: a 4-bit increment (Mesa, hw-tested) uses 0xF; the
     * 6-bit reading (envytools, dekotools) would step 0x1F. */
    CHECK_EQ(mrun("addi.movm r0, r0, 0x1F010\naddi.movsend r0, r0, 1\n"
                  "addi.movsend.exit r0, r0, 2\naddi.movsend r0, r0, 3\n", p, 1, &c, &r), 0);
    CHECK_EQ(c.n, 3);
    CHECK_EQ(c.m[0], 0x010);
    CHECK_EQ(c.m[1], 0x01F);
    CHECK_EQ(c.m[2], 0x02E);
    CHECK_EQ(r.minc, 0xF);
    /* wrap at the 12-bit method index */
    CHECK_EQ(mrun("addi.movm r0, r0, 0x1FFE\naddi.movsend r0, r0, 1\n"
                  "addi.movsend.exit r0, r0, 2\naddi.movsend r0, r0, 3\n", p, 1, &c, &r), 0);
    CHECK_EQ(c.m[0], 0xFFE);
    CHECK_EQ(c.m[1], 0xFFF);
    CHECK_EQ(c.m[2], 0x000);
    CHECK_EQ(r.maddr, 0x001);
}

/* An io error stops the macro at once and comes back as is, with no fault
 * posted (the callback posts its own); the send is counted and the method
 * address has stepped, as for any send. */
static void test_io_error(void)
{
    ctx c;
    nv_mme_result r;
    uint32_t p[1] = {0};
    size_t before = cg_fault_count(dev);
    CHECK_EQ(mrun_io("addi.movm r0, r0, 0x1040\naddi.movsend r2, r0, 5\n"
                     "addi.movsend r3, r0, 6\nexit\nnop\n", p, 1, 1, &c, &r), CG_ERR_IO);
    CHECK_EQ(c.n, 1);
    CHECK_EQ(c.v[0], 5);
    CHECK_EQ(r.sends, 1);
    CHECK_EQ(r.steps, 2);
    CHECK_EQ(r.pc, 1);
    CHECK_EQ(r.regs[2], 5);
    CHECK_EQ(r.regs[3], 0);
    CHECK_EQ(r.maddr, 0x041);
    /* a failed read leaves its destination alone */
    uint32_t q[2] = {9, 10};
    CHECK_EQ(mrun_io("read.mov r2, r0, 7\nread.mov r3, r1, 7\nexit\nnop\n", q, 2, 2, &c, &r),
             CG_ERR_IO);
    CHECK_EQ(r.regs[2], 7 * 3 + 1);
    CHECK_EQ(r.regs[3], 0);
    CHECK_EQ(r.steps, 2);
    CHECK_EQ(r.params_used, 1); /* the unread parameter is not a fault here */
    CHECK_EQ(cg_fault_count(dev), before);
}

static void test_branches(void)
{
    ctx c;
    nv_mme_result r;
    uint32_t p[1] = {0};
    const char *loop = "addi.movm r0, r0, 0x100\naddi.mov r2, r0, 3\n"
                       "loop: addi.mov r2, r2, -1\nbra.nz r2, loop\n"
                       "addi.movsend r3, r3, 1\nexit\nnop\n";
    CHECK_EQ(mrun(loop, p, 1, &c, &r), 0);
    CHECK_EQ(c.n, 3); /* delay slot runs on both taken iterations */
    CHECK_EQ(c.v[0], 1);
    CHECK_EQ(c.v[2], 3);
    CHECK_EQ(r.steps, 2 + 3 * 3 + 2);
    const char *aloop = "addi.movm r0, r0, 0x100\naddi.mov r2, r0, 3\n"
                        "loop: addi.mov r2, r2, -1\nbra.nz.a r2, loop\n"
                        "addi.movsend r3, r3, 1\nexit\nnop\n";
    CHECK_EQ(mrun(aloop, p, 1, &c, &r), 0);
    CHECK_EQ(c.n, 1); /* annul: no delay slot when taken */
    CHECK_EQ(c.v[0], 1);
    /* bra.z with r1 = 0 taken; bra.z with nonzero not taken; backwards */
    uint32_t q[1] = {5};
    CHECK_EQ(mrun("addi.movm r0, r0, 0x100\nbra.z.a r1, t\naddi.movsend r0, r0, 1\n"
                  "t: addi.movsend.exit r0, r0, 2\nnop\n", q, 1, &c, &r), 0);
    CHECK_EQ(c.n, 2);

    /* Exit in a delay slot is ignored (fincs, yuzu PR #2466). */
    CHECK_EQ(mrun("addi.movm r0, r0, 0x100\nbra.z r0, t\naddi.movsend.exit r2, r0, 1\n"
                  "addi.movsend r2, r0, 2\nt: addi.movsend.exit r2, r0, 3\n"
                  "addi.movsend r2, r0, 4\naddi.movsend r2, r0, 5\n", p, 1, &c, &r), 0);
    CHECK_EQ(c.n, 3);
    CHECK_EQ(c.v[0], 1);
    CHECK_EQ(c.v[1], 3);
    CHECK_EQ(c.v[2], 4);
    /* Exit on a taken branch does not fire (yuzu PR #9005), annulled ... */
    CHECK_EQ(mrun("addi.movm r0, r0, 0x100\nbra.z.a.exit r0, t\naddi.movsend r2, r0, 1\n"
                  "t: addi.movsend.exit r2, r0, 2\nnop\n", p, 1, &c, &r), 0);
    CHECK_EQ(c.n, 1);
    CHECK_EQ(c.v[0], 2);
    /* ... or with a delay slot */
    CHECK_EQ(mrun("addi.movm r0, r0, 0x100\nbra.z.exit r0, t\naddi.movsend r2, r0, 1\n"
                  "addi.movsend r2, r0, 9\nt: addi.movsend.exit r2, r0, 2\nnop\n", p, 1, &c,
                  &r), 0);
    CHECK_EQ(c.n, 2);
    CHECK_EQ(c.v[0], 1);
    CHECK_EQ(c.v[1], 2);
    /* ... but it does fire when not taken, after its delay slot */
    CHECK_EQ(mrun("addi.movm r0, r0, 0x100\nbra.nz.exit r0, t\naddi.movsend r2, r0, 1\n"
                  "t: addi.movsend r2, r0, 2\n", p, 1, &c, &r), 0);
    CHECK_EQ(c.n, 1);
    CHECK_EQ(c.v[0], 1);
}

static void check_fault(int rc, cg_fault_kind kind, uint64_t pc, uint32_t word, const char *msg)
{
    CHECK_EQ(rc, CG_ERR_FAULT);
    const cg_fault *f = last_fault();
    CHECK(f != NULL);
    if (!f)
        return;
    CHECK_EQ(f->kind, kind);
    CHECK_STR(f->unit, "mme");
    CHECK_EQ(f->family, CG_FAMILY_NV);
    CHECK_EQ(f->stream_addr, pc);
    CHECK_EQ(f->nwords, 1);
    CHECK_EQ(f->words[0], word);
    CHECK_EQ(f->flags & CG_FAULT_F_WARNING, 0);
    CHECK(strstr(f->message, msg) != NULL);
    if (!strstr(f->message, msg))
        fprintf(stderr, "  message: %s\n", f->message);
}

static void test_faults(void)
{
    ctx c;
    nv_mme_result r;
    uint32_t p[2] = {1, 2};
    check_fault(mrun("parm r2\nexit\nnop\n", p, 1, &c, &r), CG_FAULT_BAD_LENGTH, 0, 0x201,
                "too few parameters");
    check_fault(mrun("parm r2\nparm r3\nexit\nnop\n", p, 2, &c, &r), CG_FAULT_BAD_LENGTH, 1,
                0x301, "too few parameters");
    check_fault(mrun("exit\nnop\n", p, 2, &c, &r), CG_FAULT_BAD_LENGTH, 1, 0x11,
                "too many parameters: 1 of 2");
    check_fault(mrun("nop\n.word 6\n", p, 1, &c, &r), CG_FAULT_INVALID_OPCODE, 1, 6,
                "illegal opcode 6");
    check_fault(mrun(".word 0x00080000\n", p, 1, &c, &r), CG_FAULT_INVALID_OPCODE, 0,
                0x00080000, "illegal ALU operation 4");
    check_fault(mrun("bra.z r0, 8\nbra.z r0, 0\nnop\n", p, 1, &c, &r), CG_FAULT_BAD_STATE, 1,
                0xFFFFC007u, "branch in a delay slot");
    /* a branch in an exit's delay slot is as illegal */
    check_fault(mrun("exit\nbra.z r0, 0\n", p, 1, &c, &r), CG_FAULT_BAD_STATE, 1,
                0xFFFFC007u, "branch in a delay slot");
    check_fault(mrun("nop\n", p, 1, &c, &r), CG_FAULT_BAD_LENGTH, 1, 0, "PC past");
    /* hang: the watchdog names the macro and PC */
    nv_mme_state *s = calloc(1, sizeof *s);
    nv_mme_state_init(s);
    nv_mme_method(s, NV_MME_M_INSTRUCTION_RAM_POINTER, 0x20);
    nv_mme_method(s, NV_MME_M_INSTRUCTION_RAM, 0x00000011u); /* nop */
    nv_mme_method(s, NV_MME_M_INSTRUCTION_RAM, 0x00000027u); /* t: bra.z.a r0, t */
    nv_mme_method(s, NV_MME_M_START_ADDRESS_RAM_POINTER, 5);
    nv_mme_method(s, NV_MME_M_START_ADDRESS_RAM, 0x20);
    cg_agent who = {CG_FAMILY_NV, "pfifo", 3, 0, {0}, 0};
    int rc = nv_mme_call(s, 5, p, 1, NULL, 100, &who, dev, &r);
    check_fault(rc, CG_FAULT_HANG, 0x21, 0x27,
                "macro 5 pc 0x21: budget nv.macro-insns: instruction budget of 100");
    CHECK_EQ(last_fault()->channel, 3);
    CHECK_EQ(r.steps, 100);
    free(s);
}

static void test_upload(void)
{
    nv_mme_state *s = calloc(1, sizeof *s);
    nv_mme_state_init(s);
    CHECK(!nv_mme_method(s, 0x110, 1));
    CHECK(!nv_mme_method(s, 0x128, 1));
    /* auto-increment and wrap of both pointers */
    CHECK(nv_mme_method(s, NV_MME_M_INSTRUCTION_RAM_POINTER, NV_MME_CODE_WORDS - 1));
    CHECK(nv_mme_method(s, NV_MME_M_INSTRUCTION_RAM, 0xAAAA));
    CHECK(nv_mme_method(s, NV_MME_M_INSTRUCTION_RAM, 0xBBBB));
    CHECK_EQ(s->code[NV_MME_CODE_WORDS - 1], 0xAAAA);
    CHECK_EQ(s->code[0], 0xBBBB);
    CHECK_EQ(s->code_ptr, 1);
    nv_mme_method(s, NV_MME_M_START_ADDRESS_RAM_POINTER, 127);
    nv_mme_method(s, NV_MME_M_START_ADDRESS_RAM, 0x10);
    nv_mme_method(s, NV_MME_M_START_ADDRESS_RAM, 0x7FF);
    CHECK_EQ(s->entry[127], 0x10);
    CHECK_EQ(s->entry[0], 0x7FF);
    CHECK_EQ(s->entry_ptr, 1);
    /* a macro whose code wraps from the end of the RAM to its start */
    nv_mme_method(s, NV_MME_M_INSTRUCTION_RAM_POINTER, NV_MME_CODE_WORDS - 1);
    nv_mme_method(s, NV_MME_M_INSTRUCTION_RAM, 0x00000091u); /* exit */
    nv_mme_method(s, NV_MME_M_INSTRUCTION_RAM, 0x00000211u); /* addi.mov r2, r0, 0 */
    nv_mme_result r;
    uint32_t p[1] = {7};
    CHECK_EQ(nv_mme_call(s, 0 + 128, p, 1, NULL, 100, NULL, dev, &r), 0); /* 128 masks to 0 */
    CHECK_EQ(r.steps, 2);
    CHECK_EQ(r.pc, 0);
    CHECK_EQ(r.regs[1], 7);
    /* shadow RAM modes (Ryujinx ShadowRamControl) */
    CHECK_EQ(nv_mme_shadow(s, 0x50D, 11), 11); /* TRACK (reset value) */
    CHECK(nv_mme_method(s, NV_MME_M_SHADOW_RAM_CONTROL, NV_MME_SHADOW_PASSTHROUGH));
    CHECK_EQ(nv_mme_shadow(s, 0x50D, 22), 22);
    CHECK_EQ(s->shadow[0x50D], 11);
    nv_mme_method(s, NV_MME_M_SHADOW_RAM_CONTROL, NV_MME_SHADOW_REPLAY);
    CHECK_EQ(nv_mme_shadow(s, 0x50D, 33), 11);
    CHECK_EQ(s->shadow[0x50D], 11);
    nv_mme_method(s, NV_MME_M_SHADOW_RAM_CONTROL, NV_MME_SHADOW_TRACK_WITH_FILTER);
    CHECK_EQ(nv_mme_shadow(s, 0x50D, 44), 44);
    CHECK_EQ(s->shadow[0x50D], 44);
    nv_mme_method(s, NV_MME_M_SHADOW_RAM_CONTROL, 0xFFFFFFF0u); /* mode is bits 1:0 */
    CHECK_EQ(s->shadow_mode, 0);
    free(s);
}

/* A draw-style macro: r1 = topology, then first and count; sends
 * VERTEX_BEGIN_GL (0x1618), VERTEX_BUFFER_FIRST/COUNT (0x1434/0x1438, with an
 * increment of 1) and VERTEX_END_GL (0x1614) in the exit's delay slot. */
static const char draw_macro[] =
    "; draw(topology, first, count)\n"
    "    parm r2                 # first\n"
    "    parm r3                 # count\n"
    "    addi.movm r0, r0, 0x586 # VERTEX_BEGIN_GL\n"
    "    add.movsend r0, r1, r0\n"
    "    addi.movm r0, r0, 0x150D # VERTEX_BUFFER_FIRST, increment 1\n"
    "    add.movsend r0, r2, r0\n"
    "    add.movsend r0, r3, r0\n"
    "    addi.movm.exit r0, r0, 0x585 # VERTEX_END_GL\n"
    "    add.movsend r0, r0, r0\n";

static void test_draw_macro(void)
{
    nv_mme_state *s = calloc(1, sizeof *s);
    nv_mme_state_init(s);
    uint32_t code[32];
    int n = assemble(draw_macro, code, 32);
    CHECK_EQ(n, 9);
    nv_mme_method(s, NV_MME_M_INSTRUCTION_RAM_POINTER, 0x40);
    for (int i = 0; i < n; i++)
        nv_mme_method(s, NV_MME_M_INSTRUCTION_RAM, code[i]);
    nv_mme_method(s, NV_MME_M_START_ADDRESS_RAM_POINTER, 0x12);
    nv_mme_method(s, NV_MME_M_START_ADDRESS_RAM, 0x40);
    ctx c;
    memset(&c, 0, sizeof c);
    nv_mme_io io = {&c, io_send, io_read};
    uint32_t p[3] = {5 /* TRIANGLE_STRIP */, 0, 4};
    nv_mme_result r;
    CHECK_EQ(nv_mme_call(s, 0x12, p, 3, &io, 1000, NULL, dev, &r), 0);
    CHECK_EQ(c.n, 4);
    static const uint32_t wm[4] = {0x586, 0x50D, 0x50E, 0x585}, wv[4] = {5, 0, 4, 0};
    CHECK_MEM(c.m, wm, sizeof wm);
    CHECK_MEM(c.v, wv, sizeof wv);
    CHECK_EQ(r.steps, 9);
    CHECK_EQ(r.params_used, 3);
    free(s);
}

static int disasm_text(const uint32_t *w, size_t n, char *out, size_t cap)
{
    size_t len = 0;
    for (size_t i = 0; i < n; i++) {
        const char *note;
        char line[128];
        nv_mme_disasm_word(w[i], (uint32_t)i, line, sizeof line, &note);
        int k = snprintf(out + len, cap - len, "%s ; 0x%08x%s%s\n", line, w[i],
                         note ? " " : "", note ? note : "");
        if (k < 0 || (size_t)k >= cap - len)
            return -1;
        len += (size_t)k;
    }
    return (int)len;
}

static void roundtrip(const uint32_t *w, size_t n)
{
    static char text[4096 * 80];
    static uint32_t back[4096];
    CHECK(disasm_text(w, n, text, sizeof text) > 0);
    int m = assemble(text, back, 4096);
    CHECK_EQ(m, n);
    if (m == (int)n)
        for (size_t i = 0; i < n; i++)
            if (back[i] != w[i]) {
                CHECK_EQ(back[i], w[i]);
                break;
            }
}

static void test_text(void)
{
    char buf[128];
    const char *note;
    struct {
        uint32_t w, pc;
        const char *text;
        int word;
    } cases[] = {
        {0x00000011u, 0, "nop", 0},
        {0x00000091u, 0, "exit", 0},
        {0x00000201u, 0, "parm r2", 0},
        {0x00000281u, 0, "parm.exit r2", 0},
        {0x00008b40u, 0, "add.movsend r3, r1, r2", 0},
        {0xffffd211u, 0, "addi.mov r2, r2, -1", 0},
        {0xffff9037u, 4, "bra.nz.a r2, 0x8", 0},
        {0xffff9037u, 0, "bra.nz.a r2, . - 0x8", 0},
        {0x00000087u, 0, "bra.z.exit r0, 0x0", 0},
        {0x29068c92u, 0, "bfins.mov.exit r4, r1, r2, 3, 4, 5", 0},
        {0x02390505u, 0, "read.fetch r5, r0, 0x8e4", 0},
        {0x00000006u, 0, ".word 0x00000006", 1},
        {0x00080000u, 0, ".word 0x00080000", 1},
        {0x00400000u, 0, ".word 0x00400000", 1},
        {0x00000019u, 0, ".word 0x00000019", 1},
        {0x00000107u, 0, ".word 0x00000107", 1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        nv_mme_disasm_word(cases[i].w, cases[i].pc, buf, sizeof buf, &note);
        CHECK_STR(buf, cases[i].text);
        CHECK_EQ(note != NULL, cases[i].word);
    }
    /* every mnemonic and suffix, with labels and comments */
    uint32_t code[64];
    int n = assemble("top: # labels and comments\n"
                     "  adc.fetch r1, r2, r3\n  sbb.movm r1, r2, r3\n  xor.fetchsend r1, r2, r3\n"
                     "  or.movsend r1, r2, r3\n  and.fetchm r1, r2, r3\n"
                     "  andn.movmsendp r1, r2, r3\n  nand.movmsendhi r1, r2, r3\n"
                     "  sub r1, rz, r7 ; default result op is mov\n"
                     "  bfshl.mov r1, r2, r3, 31, 31\n  bfshlr.movm r1, r2, r3, 31, 31\n"
                     "  bra.nz r7, top\n  nop.exit\n",
                     code, 64);
    CHECK_EQ(n, 12);
    if (n == 12) {
        CHECK_EQ(code[0], 0x0002d100u | 0x0000u | 1u << 8 | 2u << 11 | 3u << 14 | 1u << 17);
        CHECK_EQ(code[7], (2u << 17) | (1u << 4) | (1u << 8) | (7u << 14));
        CHECK_EQ(code[10], 0x7u | 1u << 4 | 7u << 11 | ((uint32_t)-10 & 0x3FFFFu) << 14);
        CHECK_EQ(code[11], 0x91u);
        roundtrip(code, (size_t)n);
    }
    /* errors */
    CHECK_EQ(assemble("add.mov r8, r1, r2\n", code, 64), -1);
    CHECK_EQ(assemble("addi.mov r1, r2, 0x40000\n", code, 64), -1);
    CHECK_EQ(assemble("bra r1, 0\n", code, 64), -1);
    CHECK_EQ(assemble("add.z r1, r2, r3\n", code, 64), -1);
    CHECK_EQ(assemble("add.mov.mov r1, r2, r3\n", code, 64), -1);
    CHECK_EQ(assemble("bra.z r1, 2\n", code, 64), -1);
    CHECK_EQ(assemble("bfins r1, r2, r3, 32, 0, 0\n", code, 64), -1);
    /* random words, and every opcode/result/flag combination of bits 7:0 */
    uint32_t words[4096];
    uint64_t x = 0x9E3779B97F4A7C15ull;
    for (int round = 0; round < 64; round++) {
        for (int i = 0; i < 4096; i++) {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            words[i] = (uint32_t)x;
            if (round & 1) /* mostly-legal words: clear the unused bits */
                words[i] &= (words[i] & 7u) == 0 ? 0x003FFFF7u : 0xFFFFFFF7u;
        }
        roundtrip(words, 4096);
    }
    for (uint32_t i = 0; i < 4096; i++)
        words[i] = (i & 0xFF) | (i >> 8) << 8 | (i & 1 ? 0xFFFFC000u : 0);
    roundtrip(words, 4096);
}


/* ---- the reference interpreter (tests/nv_mme_ref.h) ----------------------
 * Random programs, with parameters, must give the same sends, registers,
 * carry, method address, steps, parameters used, and the same fault (kind,
 * PC, instruction word) in both interpreters. fuzz/fuzz_nv_macro.c does the
 * same on fuzzer-chosen programs. */
static void test_reference(void)
{
    static const uint32_t alu_ops[10] = {0, 1, 2, 3, 8, 9, 10, 11, 12, 5};
    uint64_t x = 0x1234567887654321ull;
#define RND() (x ^= x << 13, x ^= x >> 7, x ^= x << 17, (uint32_t)x)
    nv_mme_state *st = calloc(1, sizeof *st);
    CHECK(st != NULL);
    if (!st)
        return;
    int mismatches = 0, outcomes[CG_FAULT_KIND_COUNT] = {0}, io_errors = 0;
    for (int t = 0; t < 20000 && mismatches < 5; t++) {
        uint32_t code[16], par[6];
        size_t n = 4 + RND() % 12, np = RND() % 7;
        for (size_t i = 0; i < n; i++) {
            uint32_t w = RND() & ~8u, op = RND() % 8;
            if (op == 6 && RND() % 4)
                op = 1;
            w = (w & ~7u) | op;
            if (op == 0)
                w = (w & 0xFFC1FFFFu) | alu_ops[RND() % 10] << 17;
            if (op == 7)
                w = (w & 0x3FFFu) | ((uint32_t)((int)(RND() % 9) - 4) & 0x3FFFFu) << 14;
            if (RND() % 3)
                w &= ~0x80u;
            if (op != 7 && RND() % 3) /* fewer parameter fetches: 1 2 4 7 */
                w = (w & ~0x70u) | (uint32_t)("\1\2\4\7"[RND() % 4]) << 4;
            if (op == 0 || op == 5 || op == 1) /* small immediates / registers */
                if (RND() % 2)
                    w &= 0x000FFFFFu;
            code[i] = w;
        }
        for (size_t i = 0; i < np; i++)
            par[i] = RND() % 4 ? RND() % 8 : RND();
        /* odd programs: a call from the code RAM, placed so that it may wrap
         * from the last word to the first, with an executor's agent */
        bool call = t & 1;
        uint32_t at = NV_MME_CODE_WORDS - 1 - RND() % 8, macro = RND() % NV_MME_ENTRIES;
        nv_mme_ref s;
        memset(&s, 0, sizeof s);
        if (call) {
            nv_mme_state_init(st);
            nv_mme_method(st, NV_MME_M_INSTRUCTION_RAM_POINTER, at);
            for (size_t i = 0; i < n; i++)
                nv_mme_method(st, NV_MME_M_INSTRUCTION_RAM, code[i]);
            nv_mme_method(st, NV_MME_M_START_ADDRESS_RAM_POINTER, macro);
            nv_mme_method(st, NV_MME_M_START_ADDRESS_RAM, at);
            s.code = st->code;
            s.n = NV_MME_CODE_WORDS;
            s.pc_mask = NV_MME_CODE_WORDS - 1;
            s.pc = at;
        } else {
            s.code = code;
            s.n = n;
            s.pc_mask = 0xFFFFFFFFu;
        }
        ctx sc, c;
        memset(&sc, 0, sizeof sc);
        memset(&c, 0, sizeof c);
        if (t % 3 == 0) /* an io error at one of the first io calls */
            sc.fail_at = c.fail_at = 1 + (int)(RND() % 4);
        s.par = par;
        s.np = np;
        s.budget = 200;
        s.user = &sc;
        s.send = io_send;
        s.read = io_read;
        nv_mme_ref_run(&s);
        nv_mme_io io = {&c, io_send, io_read};
        nv_mme_result r;
        cg_agent who = {CG_FAMILY_NV, "pfifo", 2, 0x100000044ull, {0}, 0};
        size_t before = cg_fault_count(dev);
        int rc = call ? nv_mme_call(st, macro, par, np, &io, 200, &who, dev, &r)
                      : nv_mme_run(code, n, 0, par, np, &io, 200, NULL, dev, &r);
        int bad = !ref_agrees(&s, &sc, rc, &r, &c, before, call ? &who : NULL);
        if (s.io_rc == CG_ERR_IO)
            io_errors++;
        else
            outcomes[s.kind]++;
        if (bad) {
            mismatches++;
            fprintf(stderr, "reference mismatch: program %d (%s) kind %d pc 0x%x sends %d/%d "
                    "steps %llu/%llu\n", t, call ? "call" : "run", s.kind, s.fpc, c.n, sc.n,
                    (unsigned long long)r.steps, (unsigned long long)s.steps);
            for (size_t i = 0; i < n; i++) {
                char line[128];
                const char *note;
                nv_mme_disasm_word(code[i], (uint32_t)i, line, sizeof line, &note);
                fprintf(stderr, "  %s\n", line);
            }
        }
        CHECK(!bad);
        if (cg_fault_count(dev) > 1000)
            cg_fault_clear(dev);
    }
    /* the generator reaches every outcome, often (this seed gives 1563 clean
     * exits, 9876 bad-length, 3591 invalid-opcode, 1173 bad-state, 732 hang,
     * and 3065 programs stopped by an io error) */
    CHECK(outcomes[CG_FAULT_NONE] > 1000);
    CHECK(outcomes[CG_FAULT_BAD_LENGTH] > 1000);
    CHECK(outcomes[CG_FAULT_INVALID_OPCODE] > 500);
    CHECK(outcomes[CG_FAULT_BAD_STATE] > 100);
    CHECK(outcomes[CG_FAULT_HANG] > 100);
    CHECK(io_errors > 1000);
    free(st);
#undef RND
}

/* The public text API (include/cmdgpu/nv_macro.h) is the internal one. */
static void test_public_text(void)
{
    char a[128], b[128];
    const char *na, *nb;
    static const uint32_t words[] = {0x00000011, 0x00000091, 0x00004A10, 0x12345678, 0x00000008,
                                     0xFFFFC007, 0x00000006};
    for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
        int la = cg_nv_macro_disasm_word(words[i], 3, a, sizeof(a), &na);
        int lb = nv_mme_disasm_word(words[i], 3, b, sizeof(b), &nb);
        CHECK_EQ(la, lb);
        CHECK_STR(a, b);
        CHECK(na == nb);
        CHECK_EQ(cg_nv_macro_disasm_word(words[i], 3, a, sizeof(a), NULL), lb);
    }
    CHECK(cg_nv_macro_disasm_word(0x11, 0, a, sizeof(a), NULL) == 3);
    CHECK_STR(a, "nop");
    CHECK(cg_nv_macro_disasm_word(0x00000006, 0, a, sizeof(a), &na) > 0);
    CHECK_STR(a, ".word 0x00000006");
    CHECK_STR(na, "illegal opcode 6");
    CHECK(cg_nv_macro_asm_family() == nv_mme_asm_family());
    CHECK_STR(cg_nv_macro_asm_family()->name, "nv-macro");
}

int main(void)
{
    if (cg_device_create(&dev) != 0)
        return 1;
    test_public_text();
    test_alu();
    test_bitfield();
    test_result_ops();
    test_increment();
    test_io_error();
    test_branches();
    test_faults();
    test_upload();
    test_draw_macro();
    test_text();
    test_reference();
    cg_device_destroy(dev);
    return check_report("test_nv_macro");
}
