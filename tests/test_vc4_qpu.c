/* VideoCore IV QPU: tables, disassembler, assembler round trips and the
 * interpreter against hand-computed lane values and fault records. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "qpu_text.h"
#include "cmdgpu/cmdgpu.h"
#include "vc4/qpu.h"
#include "vc4_qpu_env.h"

static int bus_put(void *ctx, uint32_t at, const void *p, size_t n)
{
    return cg_vas_cpu_write(((env *)ctx)->bus, at, p, n);
}

/* Assemble `src` (QPU syntax) at CODE into the bus; returns the bytes. */
static size_t load(env *e, const char *src)
{
    return qpu_text_load(CODE, src, NULL, bus_put, e);
}

static void put_unifs(env *e, const uint32_t *u, size_t n)
{
    CHECK_EQ(cg_vas_cpu_write(e->bus, UNIF, u, n * 4), 0);
}

static uint32_t fu(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

/* Run `src` + an end sequence; returns vc4_qpu_run's result. */
static int run(env *e, vc4_qpu_state *s, const char *src, bool strict)
{
    char buf[8192];
    snprintf(buf, sizeof buf, "%s\nnop : nop : thrend\nnop : nop\nnop : nop\n", src);
    load(e, buf);
    vc4_qpu_init(s, e->dev, e->bus, NULL, CODE, UNIF, strict);
    return vc4_qpu_run(s, 1000);
}

static void all_lanes(const uint32_t *v, uint32_t want, int line)
{
    for (int i = 0; i < 16; i++) {
        check_count++;
        if (v[i] != want) {
            check_failures++;
            fprintf(stderr, "line %d: lane %d = 0x%08x, want 0x%08x\n", line, i, v[i], want);
            return;
        }
    }
}
#define ALL(v, want) all_lanes(v, want, __LINE__)

/* ---- tables ---- */

static void test_tables(void)
{
    for (int t = 0; t < VC4_QPU_NTABLES; t++) {
        size_t n;
        const char *name;
        const cg_def_entry *e = vc4_qpu_def_table(t, &n, &name);
        char report[2048];
        CHECK(e != NULL && n > 0);
        int problems = cg_def_check_unit(name, e, n, 1, report, sizeof report);
        if (problems)
            fprintf(stderr, "%s", report);
        CHECK_EQ(problems, 0);
    }
    CHECK_STR(vc4_qpu_waddrs[46].name[0], "TLB_COLOUR_ALL");
    CHECK_STR(vc4_qpu_waddrs[46].as[1], "tlbc");
    CHECK_STR(vc4_qpu_waddrs[43].name[0], "TLB_STENCIL_SETUP");
    CHECK_STR(vc4_qpu_raddrs[41].as[1], "y_coord");
    CHECK_STR(vc4_qpu_sigs[3].as, "thrend");
    CHECK_STR(vc4_qpu_add_ops[24].as, "clz");
    CHECK(vc4_qpu_add_ops[9].name == NULL);
    CHECK_EQ(vc4_qpu_smallimm_bits[39], 0x43000000);
    CHECK_EQ(vc4_qpu_smallimm_bits[40], 0x3b800000);
    CHECK_EQ(vc4_qpu_smallimm_bits[63], 0xffffffff);
}

/* ---- disassembler and round trips ---- */

static const uint32_t seed_fs[] = {
    0x009E7000, 0x100009E7, 0xFFFFFFFF, 0xE0020BA7, 0x009E7000, 0x500009E7,
    0x009E7000, 0x300009E7, 0x009E7000, 0x100009E7, 0x009E7000, 0x100009E7,
};

static uint64_t assemble1(const char *line, uint32_t at, bool *ok)
{
    cg_asm *as;
    cg_asm_create(vc4_qpu_asm_family(), NULL, &as);
    char buf[1024];
    snprintf(buf, sizeof buf, ".section t, 0x%x\n%s\n", at, line);
    cg_asm_add_source(as, "x.s", buf, strlen(buf));
    uint64_t w = 0;
    *ok = cg_asm_assemble(as) == 0;
    if (*ok) {
        const char *name;
        uint64_t base;
        const uint8_t *data;
        size_t size;
        cg_asm_section(as, 0, &name, &base, &data, &size);
        if (size == 8)
            memcpy(&w, data, 8);
        else
            *ok = false;
    }
    cg_asm_destroy(as);
    return w;
}

static void expect_dis(uint32_t lo, uint32_t hi, const char *want)
{
    char text[512], notes[256];
    uint64_t ins = (uint64_t)hi << 32 | lo;
    vc4_qpu_disasm(ins, 0, text, sizeof text, notes, sizeof notes);
    CHECK_STR(text, want);
    bool ok;
    CHECK_EQ(assemble1(text, 0, &ok), ins);
    CHECK(ok);
}

static void test_disasm(void)
{
    expect_dis(0x009E7000, 0x100009E7, "nop");
    expect_dis(0xFFFFFFFF, 0xE0020BA7, "ldi tlbc, -1");
    expect_dis(0x009E7000, 0x500009E7, "nop;  sbdone");
    expect_dis(0x009E7000, 0x300009E7, "nop;  thrend");
    /* hackdriver's tail: mov tlbc, r3 ; nop ; thrend (research/vc4.md) */
    expect_dis(0x159e76c0, 0x30020ba7, "mov tlbc, r3;  thrend");

    /* hand-encoded forms */
    bool ok;
    uint64_t w = assemble1("fadd r0, r1, r2 : fmul ra1, r0, r0 : thrend", 0, &ok);
    CHECK(ok);
    /* sig 3, cond_add 1, cond_mul 1, ws 1 (mul writes A), waddr_add 32,
     * waddr_mul 1, op_mul 1, op_add 1, raddr 39/39, muxes 1,2,0,0 */
    CHECK_EQ(w, ((uint64_t)3 << 60) | ((uint64_t)1 << 49) | ((uint64_t)1 << 46) |
                    ((uint64_t)1 << 44) | ((uint64_t)32 << 38) | ((uint64_t)1 << 32) |
                    (1u << 29) | (1u << 24) | (39u << 18) | (39u << 12) | (1u << 9) | (2u << 6));
    w = assemble1("add.zs.sf ra5.8as, unif, r2 : v8min.rot2 r1, r0, r1", 0, &ok);
    CHECK(ok);
    char text[512], notes[256];
    vc4_qpu_disasm(w, 0, text, sizeof text, notes, sizeof notes);
    CHECK_STR(text, "add.setf.ifz ra5.8as, unif, r2;  v8min r1, r0>>2, r1>>2");
    w = assemble1("brr.any_zc ra1, nop, 0x40", 0x20, &ok);
    CHECK(ok);
    CHECK_EQ((uint32_t)w, 0x40u - 0x40u); /* target = 0x20 + 32 + imm */
    CHECK_EQ(VC4_QPU_GET(w, BRANCH, cond_br), 3);
    CHECK_EQ(VC4_QPU_GET(w, BRANCH, rel), 1);
    vc4_qpu_disasm(w, 0x20, text, sizeof text, notes, sizeof notes);
    CHECK_STR(text, "brr.anynz ra1, +0");
    w = assemble1("sacq nop, 7", 0, &ok);
    CHECK(ok && (uint32_t)w == 0x17 && VC4_QPU_GET(w, LDI, unpack) == 4);
    w = assemble1("ldis r0, 0x00030005 : ldi.zc rb3", 0, &ok);
    CHECK(ok && VC4_QPU_GET(w, LDI, unpack) == 1 && VC4_QPU_GET(w, LDI, cond_mul) == 3);

    /* per-element immediates print as their 16 values */
    expect_dis(0x00038005, 0xe2020827,
               "ldipes r0, [-1,-2,1,0,0,0,0,0,0,0,0,0,0,0,0,1]");
    expect_dis(0x00038005, 0xe6020827,
               "ldipeu r0, [3,2,1,0,0,0,0,0,0,0,0,0,0,0,0,1]");
    CHECK(!(assemble1("ldis r0, [2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]", 0, &ok), ok));
    CHECK(!(assemble1("ldiu r0, [1, 2]", 0, &ok), ok));

    /* fields the syntax does not show are kept as overrides */
    expect_dis(0x009E7000 | (5u << 9), 0x100009E7, "nop;  add_a=5");
    expect_dis(0x09000000 | (39u << 18) | (39u << 12), 0x100009E7 | (1u << 17),
               "nop;  cond_add=1;  op_add=9");

    /* errors */
    CHECK(!(assemble1("fadd r0, ra1, ra2 : nop", 0, &ok), ok));
    CHECK(!(assemble1("fadd r0, 3, rb2 : nop", 0, &ok), ok));
    CHECK(!(assemble1("fadd r0, 3, 4 : nop", 0, &ok), ok));
    CHECK(!(assemble1("fadd r0, r1, 16 : nop", 0, &ok), ok));
    CHECK(!(assemble1("fadd ra0, r1, r1 : fmul ra1, r0, r0", 0, &ok), ok));
    CHECK(!(assemble1("fadd r0, 3, r1 : nop : thrend", 0, &ok), ok));
    CHECK(!(assemble1("ldi r0, 0x100000000", 0, &ok), ok));
    CHECK(!(assemble1("sacq nop, 16", 0, &ok), ok));
    CHECK(!(assemble1("nop : nop : bogus", 0, &ok), ok));
    CHECK(!(assemble1("nop : nop : pack=16", 0, &ok), ok));

    /* asm(disasm(x)) == x on every encoding: a deterministic sweep of
     * random words in each form */
    uint64_t x = 0x9E3779B97F4A7C15ull;
    int bad = 0;
    for (int i = 0; i < 6000; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        uint64_t ins = x;
        if (i % 4 == 1)
            ins = (ins & ~(0xfull << 60)) | (14ull << 60);
        else if (i % 4 == 2)
            ins = (ins & ~(0xfull << 60)) | (15ull << 60);
        else if (i % 8 == 3)
            ins = (ins & ~(0xfull << 60)) | (13ull << 60);
        vc4_qpu_disasm(ins, 0x100, text, sizeof text, notes, sizeof notes);
        uint64_t back = assemble1(text, 0x100, &ok);
        if (!ok || back != ins) {
            if (bad++ < 5)
                fprintf(stderr, "round trip 0x%016llx: '%s'\n", (unsigned long long)ins, text);
        }
    }
    CHECK_EQ(bad, 0);
}

/* ---- interpreter ---- */

static void test_float_ops(void)
{
    env e;
    env_init(&e);
    vc4_qpu_state s;
    CHECK_EQ(run(&e, &s,
                 "ldi r0, 0x3fc00000\n"      /* 1.5 */
                 "ldi r1, 0x40100000\n"      /* 2.25 */
                 "fadd r2, r0, r1 : fmul r3, r0, r1\n"
                 "fsub ra0, r0, r1 : nop\n"
                 "ldi r0, 0xc0400000\n"      /* -3.0 */
                 "ldi r1, 0x40000000\n"      /* 2.0 */
                 "fmin ra1, r0, r1 : nop\n"
                 "fmax ra2, r0, r1 : nop\n"
                 "fminabs ra3, r0, r1 : nop\n"
                 "fmaxabs ra4, r0, r1 : nop\n"
                 "ldi r0, 0xc0300000\n"      /* -2.75 */
                 "ftoi ra5, r0 : nop\n"
                 "ldi r0, -7\n"
                 "itof ra6, r0 : nop\n",
                 false),
             0);
    ALL(s.acc[2], 0x40700000); /* 3.75 */
    ALL(s.acc[3], 0x40580000); /* 3.375 */
    ALL(s.ra[0], 0xbf400000);  /* -0.75 */
    ALL(s.ra[1], 0xc0400000);
    ALL(s.ra[2], 0x40000000);
    ALL(s.ra[3], 0x40000000);
    ALL(s.ra[4], 0x40400000);
    ALL(s.ra[5], 0xfffffffe);
    ALL(s.ra[6], 0xc0e00000);
    CHECK_EQ(cg_fault_count(e.dev), 0);

    /* denormals flush to zero (sign kept), NaN and infinities */
    CHECK_EQ(run(&e, &s,
                 "ldi r0, 0x00000001\n"
                 "fadd ra0, r0, r0 : nop\n"
                 "ldi r0, 0x80000001\n"
                 "fadd ra1, r0, r0 : nop\n"
                 "ldi r0, 0x1e3ce508\n"      /* 1e-20 */
                 "nop : fmul rb0, r0, r0\n"  /* 1e-40 is denormal: 0 */
                 "ldi r0, 0x7f800000\n"      /* +inf */
                 "fsub ra2, r0, r0 : fmul rb1, r0, f0.5\n"
                 "ldi r1, 0\n"
                 "nop : fmul rb2, r0, r1\n"
                 "ftoi ra3, r0 : nop\n"
                 "ldi r1, 0x00400000\n"      /* denormal input */
                 "fadd ra4, r1, f1.0 : nop\n",
                 false),
             0);
    ALL(s.ra[0], 0);
    ALL(s.ra[1], 0x80000000);
    ALL(s.rb[0], 0);
    ALL(s.ra[2], 0xff800000); /* Inf - Inf = -Inf (VC4C measurements) */
    ALL(s.rb[1], 0x7f800000);
    ALL(s.rb[2], 0x7fc00000);
    ALL(s.ra[3], 0);
    ALL(s.ra[4], 0x3f800000);

    /* NaN operands act as infinities; fmin/fmax order NaN above +Inf */
    CHECK_EQ(run(&e, &s,
                 "ldi r0, 0x7fc00000\n"
                 "ldi r1, 0x7f800000\n"
                 "ldi r2, 0xff800000\n"
                 "fadd ra0, r0, f1.0 : nop\n"
                 "fmax ra1, r0, r1 : fmul rb0, r0, r2\n"
                 "fmin ra2, r0, r2 : nop\n"
                 "fminabs ra3, r0, r2 : nop\n"
                 "fmaxabs ra4, r2, r0 : nop\n",
                 false),
             0);
    ALL(s.ra[0], 0x7f800000);
    ALL(s.ra[1], 0x7fc00000);
    ALL(s.rb[0], 0xff800000);
    ALL(s.ra[2], 0xff800000);
    ALL(s.ra[3], 0x7f800000);
    ALL(s.ra[4], 0x7fc00000);

    /* the C flag of each op family */
    static const struct {
        const char *src;
        uint16_t c, n;
    } cf[] = {
        {"ldi r0, 0x40000000\nfsub.sf nop, r0, f1.0 : nop\n", 0xffff, 0},  /* positive */
        {"ldi r0, 0x3f800000\nfsub.sf nop, r0, f2.0 : nop\n", 0, 0xffff},  /* negative */
        {"ldi r0, 0x40000000\nfmin.sf nop, r0, f1.0 : nop\n", 0xffff, 0},  /* a > b */
        {"ldi r0, 0xc0000000\nfmaxabs.sf nop, r0, f1.0 : nop\n", 0xffff, 0},
        {"ldi r0, -1\nmin.sf nop, r0, 1 : nop\n", 0, 0xffff},
        {"ldi r0, 0x80000001\nshl.sf nop, r0, 1 : nop\n", 0xffff, 0},
        {"ldi r0, 0x80000002\nshr.sf nop, r0, 1 : nop\n", 0, 0},
        {"ldi r0, 0x80000003\nasr.sf nop, r0, 1 : nop\n", 0xffff, 0xffff},
        {"ldi r0, 0x00ffffff\nnop : mul24.sf nop, r0, r0\n", 0xffff, 0xffff},
        {"ldi r0, 3\nnop : mul24.sf nop, r0, r0\n", 0, 0},
    };
    for (size_t i = 0; i < sizeof cf / sizeof cf[0]; i++) {
        CHECK_EQ(run(&e, &s, cf[i].src, false), 0);
        CHECK_EQ(s.cf, cf[i].c);
        CHECK_EQ(s.nf, cf[i].n);
    }
    CHECK_EQ(cg_fault_count(e.dev), 0);
    env_fini(&e);
}

static void test_int_ops(void)
{
    env e;
    env_init(&e);
    vc4_qpu_state s;
    CHECK_EQ(run(&e, &s,
                 "ldi r0, 0x80000013\n"
                 "shr ra0, r0, 4 : nop\n"
                 "asr ra1, r0, 4 : nop\n"
                 "ror ra2, r0, 4 : nop\n"
                 "shl ra3, r0, 4 : nop\n"
                 "ldi r0, -1\n"
                 "min ra4, r0, 1 : nop\n"
                 "max ra5, r0, 1 : nop\n"
                 "ldi r0, 0x0f0f00ff\n"
                 "ldi r1, 0x00ff0f0f\n"
                 "and ra6, r0, r1 : nop\n"
                 "or ra7, r0, r1 : nop\n"
                 "xor ra8, r0, r1 : nop\n"
                 "not ra9, r0 : nop\n"
                 "ldi r2, 0x00010000\n"
                 "clz ra10, r2 : nop\n"
                 "ldi r1, 0\n"
                 "clz ra11, r1 : nop\n"
                 "ldi r0, 0x10f08001\n"
                 "ldi r1, 0x20208001\n"
                 "v8adds ra12, r0, r1 : v8subs rb12, r0, r1\n"
                 "v8subs ra13, r0, r1 : v8adds rb13, r0, r1\n"
                 "nop : v8min rb14, r0, r1\n"
                 "nop : v8max rb15, r0, r1\n"
                 "ldi r0, 0x01000003\n"
                 "ldi r1, 5\n"
                 "nop : mul24 rb16, r0, r1\n"
                 "ldi r0, 0x00ffffff\n"
                 "nop : mul24 rb17, r0, r0\n"
                 "ldi r0, 0xff80ff00\n"
                 "ldi r1, 0xff808040\n"
                 "nop : v8muld rb18, r0, r1\n"
                 "ldi r0, 0x7ffffffe\n"
                 "add ra14.32s, r0, 5 : nop\n"
                 "add ra15, r0, 5 : nop\n"
                 "mov ra16, elem_num : mov rb19, r1\n",
                 false),
             0);
    ALL(s.ra[0], 0x08000001);
    ALL(s.ra[1], 0xf8000001);
    ALL(s.ra[2], 0x38000001);
    ALL(s.ra[3], 0x00000130);
    ALL(s.ra[4], 0xffffffff);
    ALL(s.ra[5], 1);
    ALL(s.ra[6], 0x000f000f);
    ALL(s.ra[7], 0x0fff0fff);
    ALL(s.ra[8], 0x0ff00ff0);
    ALL(s.ra[9], 0xf0f0ff00);
    ALL(s.ra[10], 15);
    ALL(s.ra[11], 32);
    ALL(s.ra[12], 0x30ffff02);
    ALL(s.rb[12], 0x00d00000);
    ALL(s.ra[13], 0x00d00000);
    ALL(s.rb[13], 0x30ffff02);
    ALL(s.rb[14], 0x10208001);
    ALL(s.rb[15], 0x20f08001);
    ALL(s.rb[16], 15);
    ALL(s.rb[17], 0xfe000001);
    ALL(s.rb[18], 0xff408000);
    ALL(s.ra[14], 0x7fffffff);
    ALL(s.ra[15], 0x80000003);
    for (int i = 0; i < 16; i++)
        CHECK_EQ(s.ra[16][i], (uint32_t)i);
    ALL(s.rb[19], 0xff808040);
    env_fini(&e);
}

static void test_flags_conditions(void)
{
    env e;
    env_init(&e);
    vc4_qpu_state s;
    CHECK_EQ(run(&e, &s,
                 "and.sf nop, elem_num, 1 : nop\n" /* Z on even lanes */
                 "ldi r1, 0\n"
                 "mov.zs r1, 7 : nop\n"
                 "mov.zc r2, 9 : nop\n"
                 "ldi r0, -1\n"
                 "add.sf nop, r0, 2 : nop\n"       /* carry out: C everywhere */
                 "mov.cs r3, 1 : nop\n",
                 false),
             0);
    for (int i = 0; i < 16; i++) {
        CHECK_EQ(s.acc[1][i], (i & 1) ? 0u : 7u);
        CHECK_EQ(s.acc[2][i], (i & 1) ? 9u : 0u); /* r2 was 0: zc lanes are odd */
    }
    ALL(s.acc[3], 1);
    CHECK_EQ(s.cf, 0xffff);
    CHECK_EQ(s.zf, 0);
    CHECK_EQ(s.nf, 0);
    /* sub: borrow sets C, negative sets N; flags only where the condition holds */
    CHECK_EQ(run(&e, &s,
                 "ldi r0, 1\n"
                 "sub.sf nop, r0, 2 : nop\n"
                 "and.sf nop, elem_num, 1 : nop\n"
                 "sub.zc.sf nop, r0, 2 : nop\n",   /* odd lanes only */
                 false),
             0);
    CHECK_EQ(s.nf, 0xaaaa);
    CHECK_EQ(s.cf, 0xaaaa);
    CHECK_EQ(s.zf, 0x5555);
    /* flags from the mul ALU when the add op is nop */
    CHECK_EQ(run(&e, &s, "ldi r0, 0xbf800000\nnop : fmul.sf nop, r0, f1.0\n", false), 0);
    CHECK_EQ(s.nf, 0xffff);
    CHECK_EQ(s.zf, 0);
    env_fini(&e);
}

static void test_ldi(void)
{
    env e;
    env_init(&e);
    vc4_qpu_state s;
    CHECK_EQ(run(&e, &s,
                 "ldis ra0, 0x00030005\n"
                 "ldiu ra1, 0x00030005\n"
                 "ldi.sf ra2, 0 : ldi rb2\n"
                 "ldi r0, 0x12345678 : ldi r1\n",
                 false),
             0);
    static const uint32_t sgn[16] = {0xffffffff, 0xfffffffe, 1};
    static const uint32_t uns[16] = {3, 2, 1};
    for (int i = 0; i < 16; i++) {
        CHECK_EQ(s.ra[0][i], sgn[i]);
        CHECK_EQ(s.ra[1][i], uns[i]);
    }
    ALL(s.rb[2], 0);
    CHECK_EQ(s.zf, 0xffff);
    ALL(s.acc[0], 0x12345678);
    ALL(s.acc[1], 0x12345678);
    env_fini(&e);
}

static void test_pack_unpack(void)
{
    env e;
    env_init(&e);
    vc4_qpu_state s;
    CHECK_EQ(run(&e, &s,
                 "ldi ra1, 0x11223344\n"
                 "ldi ra2, 0x11223344\n"
                 "ldi ra3, 0x11223344\n"
                 "ldi r0, 0x1ff\n"
                 "ldi r1, -5\n"
                 "mov ra1.8b, r0 : nop\n"
                 "mov ra2.8as, r1 : nop\n"
                 "mov ra3.8a, r1 : nop\n"
                 "ldi r2, 0x3f000000\n"         /* 0.5 */
                 "nop : fmul r3.c8888, r2, f1.0\n"
                 "ldi rb20, 0x11223344\n"
                 "nop : fmul rb20.c8c, r2, f1.0\n"
                 "ldi r0, 0x3f800000\n"
                 "fadd ra4.16a, r0, 0 : nop\n"   /* 1.0 + 0 as half */
                 "ldi r0, 100000\n"
                 "mov ra5.16as, r0 : nop\n"
                 "ldi ra6, 0x3c008000\n"
                 "ldi ra7, 0xff402010\n"
                 "nop : nop\n"
                 "mov r0, ra6.16a : nop\n"
                 "fadd r1, ra6.16b, f0.0625 : nop\n"
                 "mov r2, ra7.8c : nop\n"
                 "fadd ra8, ra7.8d, 0 : nop\n"
                 "mov ra9, ra7.8dr : nop\n",
                 false),
             0);
    ALL(s.ra[1], 0x1122ff44);
    ALL(s.ra[2], 0x11223300);
    ALL(s.ra[3], 0x112233fb);
    ALL(s.acc[3], 0x80808080);
    ALL(s.rb[20], 0x11803344);
    ALL(s.ra[4], 0x00003c00);
    ALL(s.ra[5], 0x00007fff);
    ALL(s.acc[0], 0xffff8000);
    ALL(s.acc[1], 0x3f880000); /* 1.0 + 0.0625 */
    ALL(s.acc[2], 0x40);
    ALL(s.ra[8], 0x3f800000);  /* 255/255 */
    ALL(s.ra[9], 0xffffffff);
    CHECK_EQ(cg_fault_count(e.dev), 0);
    env_fini(&e);
}

/* Every regfile-A pack, mul colour pack and unpack mode on chosen values. */
static void test_all_packs(void)
{
    env e;
    env_init(&e);
    vc4_qpu_state s;
    static const char *const packs[16] = {"", "16a", "16b", "8888", "8a", "8b", "8c", "8d",
                                          "32s", "16as", "16bs", "8888s", "8as", "8bs", "8cs",
                                          "8ds"};
    /* old register value 0x11223344; values 511 and -5 through `mov` (an
     * integer op, so no float conversion) */
    static const uint32_t want511[16] = {0, 0x112201ff, 0x01ff3344, 0xffffffff, 0x112233ff,
                                         0x1122ff44, 0x11ff3344, 0xff223344, 0x000001ff,
                                         0x112201ff, 0x01ff3344, 0xffffffff, 0x112233ff,
                                         0x1122ff44, 0x11ff3344, 0xff223344};
    static const uint32_t wantm5[16] = {0, 0x1122fffb, 0xfffb3344, 0xfbfbfbfb, 0x112233fb,
                                        0x1122fb44, 0x11fb3344, 0xfb223344, 0xfffffffb,
                                        0x1122fffb, 0xfffb3344, 0x00000000, 0x11223300,
                                        0x11220044, 0x11003344, 0x00223344};
    for (int m = 1; m < 16; m++) {
        char src[256];
        snprintf(src, sizeof src,
                 "ldi ra1, 0x11223344\nldi ra2, 0x11223344\nldi r0, 511\nldi r1, -5\n"
                 "mov ra1.%s, r0 : nop\nmov ra2.%s, r1 : nop\n",
                 packs[m], packs[m]);
        CHECK_EQ(run(&e, &s, src, false), 0);
        check_count++;
        if (s.ra[1][0] != want511[m] || s.ra[2][0] != wantm5[m]) {
            check_failures++;
            fprintf(stderr, "pack %s: 0x%08x 0x%08x\n", packs[m], s.ra[1][0], s.ra[2][0]);
        }
    }
    /* mul colour packs into an accumulator holding 0x11223344 */
    static const char *const cpk[4] = {"c8a", "c8b", "c8c", "c8d"};
    for (int m = 0; m < 4; m++) {
        char src[256];
        snprintf(src, sizeof src,
                 "ldi r1, 0x11223344\nldi r2, 0x11223344\nldi r0, 0x40000000\nldi r3, 0xbf800000\n"
                 "nop : fmul r1.%s, r0, f1.0\nnop : fmul r2.%s, r3, f1.0\n",
                 cpk[m], cpk[m]);
        CHECK_EQ(run(&e, &s, src, false), 0);
        CHECK_EQ(s.acc[1][0], (0x11223344u & ~(0xffu << (8 * m))) | (0xffu << (8 * m)));
        CHECK_EQ(s.acc[2][0], 0x11223344u & ~(0xffu << (8 * m)));
    }
    /* unpacks, integer consumer (or) and float consumer (fadd +0) */
    CHECK_EQ(run(&e, &s,
                 "ldi ra1, 0xf1e2d3c4\nldi ra2, 0xff00ff00\nldi ra3, 0x3c00c000\nnop : nop\n"
                 "mov rb0, ra1.16a : nop\nmov rb1, ra1.16b : nop\nmov rb2, ra1.8dr : nop\n"
                 "mov rb3, ra1.8a : nop\nmov rb4, ra1.8b : nop\nmov rb5, ra1.8c : nop\n"
                 "mov rb6, ra1.8d : nop\n"
                 "fadd rb7, ra2.8a, 0 : nop\nfadd rb8, ra2.8b, 0 : nop\n"
                 "fadd rb9, ra2.8dr, 0 : nop\nfadd rb10, ra3.16a, 0 : nop\n"
                 "fadd rb11, ra3.16b, 0 : nop\nnop : fmul rb12, ra2.8d, f2.0\n",
                 false),
             0);
    static const uint32_t wu[13] = {0xffffd3c4, 0xfffff1e2, 0xf1f1f1f1, 0xc4, 0xd3, 0xe2,
                                    0xf1, 0x00000000, 0x3f800000, 0x3f800000, 0xc0000000,
                                    0x3f800000, 0x40000000};
    for (int i = 0; i < 13; i++)
        CHECK_EQ(s.rb[i][0], wu[i]);
    CHECK_EQ(cg_fault_count(e.dev), 0);
    env_fini(&e);
}

static void test_rotate_r5(void)
{
    env e;
    env_init(&e);
    vc4_qpu_state s;
    CHECK_EQ(run(&e, &s,
                 "mov r0, elem_num : nop\n"
                 "mov ra0, elem_num : nop\n"
                 "nop : nop\n"
                 "nop : mov.rot1 r1, r0\n"       /* full rotation: r0, r0 */
                 "nop : mov.rot1 r2, ra0\n"      /* regfile input: within quads */
                 "mov r5rep, 3 : nop\n"
                 "nop : nop\n"
                 "nop : mov.rotr5 r3, r0\n"
                 "mov r5quad, elem_num : nop\n",
                 false),
             0);
    for (int i = 0; i < 16; i++) {
        CHECK_EQ(s.acc[1][i], (uint32_t)((i - 1) & 15));
        CHECK_EQ(s.acc[2][i], (uint32_t)((i & ~3) | ((i - 1) & 3)));
        CHECK_EQ(s.acc[3][i], (uint32_t)((i - 3) & 15));
        CHECK_EQ(s.acc[5][i], (uint32_t)(i & ~3));
    }
    CHECK_EQ(cg_fault_count(e.dev), 0);
    env_fini(&e);
}

static void test_sfu(void)
{
    env e;
    env_init(&e);
    vc4_qpu_state s;
    CHECK_EQ(run(&e, &s,
                 "ldi r0, 0x40800000\n"          /* 4.0 */
                 "mov sfu_recip, r0 : nop\n"
                 "nop : nop\n"
                 "nop : nop\n"
                 "mov ra0, r4 : nop\n"
                 "ldi r0, 0x41800000\n"          /* 16 */
                 "mov sfu_recipsqrt, r0 : nop\n"
                 "nop : nop\nnop : nop\n"
                 "mov ra1, r4 : nop\n"
                 "ldi r0, 0x40400000\n"          /* 3 */
                 "mov sfu_exp, r0 : nop\n"
                 "nop : nop\nnop : nop\n"
                 "mov ra2, r4 : nop\n"
                 "ldi r0, 0x41000000\n"          /* 8 */
                 "mov sfu_log, r0 : nop\n"
                 "nop : nop\nnop : nop\n"
                 "mov ra3, r4 : nop\n",
                 false),
             0);
    ALL(s.ra[0], 0x3e800000);
    ALL(s.ra[1], 0x3e800000);
    ALL(s.ra[2], 0x41000000);
    ALL(s.ra[3], 0x40400000);
    CHECK_EQ(cg_fault_count(e.dev), 0);
    /* reading r4 one instruction after the SFU write: a warning, old r4 */
    CHECK_EQ(run(&e, &s,
                 "ldi r0, 0x40800000\n"
                 "mov sfu_recip, r0 : nop\n"
                 "nop : nop\n"
                 "mov ra0, r4 : nop\n",
                 false),
             0);
    ALL(s.ra[0], 0);
    CHECK_EQ(cg_fault_count(e.dev), 1);
    const cg_fault *f = cg_fault_get(e.dev, 0);
    CHECK(f && f->kind == CG_FAULT_BAD_STATE && (f->flags & CG_FAULT_F_WARNING));
    CHECK(f && f->stream_addr == CODE + 24);
    CHECK_STR(f ? f->unit : NULL, "qpu");
    cg_fault_clear(e.dev);
    /* strict: a fault */
    CHECK_EQ(run(&e, &s,
                 "ldi r0, 0x40800000\n"
                 "mov sfu_recip, r0 : nop\n"
                 "mov ra0, r4 : nop\n",
                 true),
             CG_ERR_FAULT);
    f = cg_fault_get(e.dev, 0);
    CHECK(f && f->kind == CG_FAULT_BAD_STATE && !(f->flags & CG_FAULT_F_WARNING));
    CHECK(f && f->stream_addr == CODE + 16 && f->nwords == 2);
    cg_fault_clear(e.dev);
    env_fini(&e);
}

static void test_branches(void)
{
    env e;
    env_init(&e);
    vc4_qpu_state s;
    CHECK_EQ(run(&e, &s,
                 "ldi r0, 0\n"
                 "brr ra1, nop, target\n"
                 "add r0, r0, 1 : nop\n"
                 "add r0, r0, 1 : nop\n"
                 "add r0, r0, 1 : nop\n"
                 "add r0, r0, 8 : nop\n"
                 "target: add r0, r0, f1.0 : nop\n" /* 0x3f800000 + 3 */
                 "and.sf nop, elem_num, 0 : nop\n"  /* Z everywhere */
                 "brr.all_zc nop, nop, skip\n"      /* not taken */
                 "nop : nop\nnop : nop\nnop : nop\n"
                 "ldi r1, 5\n"
                 "skip: ldi ra3, abs\n"
                 "nop : nop\n"
                 "bra nop, rb2, ra3, 0\n"           /* absolute, through ra3 */
                 "nop : nop\nnop : nop\nnop : nop\n"
                 "ldi r1, 6\n"
                 "abs: nop : nop\n",
                 false),
             0);
    ALL(s.acc[0], 0x3f800003);
    ALL(s.ra[1], CODE + 8 + 32);
    ALL(s.acc[1], 5);
    ALL(s.rb[2], CODE + 15 * 8 + 32);
    CHECK_EQ(cg_fault_count(e.dev), 0);
    /* a branch not taken in the third delay slot of a taken one: the taken
     * branch lands right after it (as every branch lands after its three
     * delay slots), uncached and through the decoded cache */
    vc4_qpu_cache *c = vc4_qpu_cache_create();
    CHECK(c != NULL);
    for (int pass = 0; pass < 2; pass++) {
        CHECK_EQ(run(&e, &s,
                     "ldi r0, 0\n"
                     "brr nop, nop, target\n"
                     "add r0, r0, 1 : nop\n"
                     "add r0, r0, 2 : nop\n"
                     "brr.allz nop, nop, target\n"   /* Z clear everywhere: not taken */
                     "add r0, r0, 8 : nop\n"         /* not run */
                     "target: add r0, r0, 4 : nop\n",
                     false),
                 0);
        if (pass) { /* again with the program decoded */
            vc4_qpu_init(&s, e.dev, e.bus, NULL, CODE, UNIF, false);
            vc4_qpu_use_cache(&s, c);
            CHECK_EQ(vc4_qpu_run(&s, 1000), 0);
            vc4_qpu_init(&s, e.dev, e.bus, NULL, CODE, UNIF, false);
            vc4_qpu_use_cache(&s, c);
            CHECK_EQ(vc4_qpu_run(&s, 1000), 0);
        }
        ALL(s.acc[0], 7);
        CHECK_EQ(s.executed, 6 + 3);
    }
    vc4_qpu_cache_destroy(c);
    CHECK_EQ(cg_fault_count(e.dev), 0);
    env_fini(&e);
}

static void test_uniforms_varyings(void)
{
    env e;
    env_init(&e);
    vc4_qpu_state s;
    static const uint32_t u[] = {7, 9, 11};
    put_unifs(&e, u, 3);
    CHECK_EQ(run(&e, &s,
                 "mov r0, unif : nop\n"
                 "mov r1, unif : nop\n"
                 "ldi r2, 0x20000\n"
                 "mov unif_addr, r2 : nop\n"
                 "mov r3, unif : nop\n",
                 false),
             0);
    ALL(s.acc[0], 7);
    ALL(s.acc[1], 9);
    ALL(s.acc[3], 7);

    /* varyings: (vary * W) + r5, fragment coordinates, TLB writes */
    load(&e,
         "nop : fmul r0, ra15, vary\n"
         "fadd r0, r0, r5 : nop\n"
         "mov tlbz, rb15 : nop\n"
         "ftoi tlbc, r0 : nop : thrend\n"
         "mov r1, x_coord : nop\n"
         "mov r2, y_coord : nop\n");
    vc4_frag_batch *b = calloc(1, sizeof *b);
    b->mask = 0x0ff0;
    b->nvary = 1;
    for (int i = 0; i < 16; i++) {
        b->vary[0][i] = 0.5f * (float)i;
        b->vary_c[0][i] = 1.0f;
        b->frag_w[i] = fu(2.0f);
        b->frag_z[i] = 0x1000u + (uint32_t)i;
        b->x[i] = 100u + (uint32_t)i;
    }
    CHECK_EQ(vc4_qpu_run_fragment(e.dev, e.bus, NULL, CODE, UNIF, b, 100, true), 0);
    CHECK_EQ(b->color_mask, 0x0ff0);
    CHECK_EQ(b->z_mask, 0x0ff0);
    for (int i = 0; i < 16; i++) {
        bool on = (0x0ff0 >> i) & 1;
        CHECK_EQ(b->color[i], on ? (uint32_t)i + 1 : 0u);
        CHECK_EQ(b->z_out[i], on ? 0x1000u + (uint32_t)i : 0u);
    }
    CHECK_EQ(cg_fault_count(e.dev), 0);
    free(b);
    env_fini(&e);
}

static void test_seed_fragment_shader(void)
{
    env e;
    env_init(&e);
    CHECK_EQ(cg_vas_cpu_write(e.bus, CODE, seed_fs, sizeof seed_fs), 0);
    vc4_frag_batch *b = calloc(1, sizeof *b);
    b->mask = 0xf0f3;
    CHECK_EQ(vc4_qpu_run_fragment(e.dev, e.bus, NULL, CODE, 0, b, 100, true), 0);
    CHECK_EQ(b->color_mask, 0xf0f3);
    for (int i = 0; i < 16; i++)
        CHECK_EQ(b->color[i], ((0xf0f3 >> i) & 1) ? 0xffffffffu : 0u);
    CHECK_EQ(b->z_mask, 0);
    CHECK_EQ(cg_fault_count(e.dev), 0);
    /* the tool's text round trip of the seed */
    char text[512], notes[256];
    for (int k = 0; k < 6; k++) {
        uint64_t ins = (uint64_t)seed_fs[2 * k + 1] << 32 | seed_fs[2 * k];
        vc4_qpu_disasm(ins, (uint32_t)(8 * k), text, sizeof text, notes, sizeof notes);
        bool ok;
        CHECK_EQ(assemble1(text, (uint32_t)(8 * k), &ok), ins);
        CHECK_STR(notes, "");
    }
    free(b);
    env_fini(&e);
}

static void test_semaphores(void)
{
    env e;
    env_init(&e);
    vc4_qpu_state s;
    CHECK_EQ(run(&e, &s, "srel nop, 3\nsrel nop, 3\nsacq nop, 3\n", false), 0);
    CHECK_EQ(s.sems->count[3], 1);
    /* acquire of a zero semaphore with nothing to release it: hang */
    load(&e, "nop : nop\nsacq nop, 5\nnop : nop : thrend\nnop : nop\nnop : nop\n");
    vc4_qpu_init(&s, e.dev, e.bus, NULL, CODE, UNIF, false);
    CHECK_EQ(vc4_qpu_run(&s, 50), CG_ERR_FAULT);
    const cg_fault *f = cg_fault_get(e.dev, 0);
    CHECK(f && f->kind == CG_FAULT_HANG && f->stream_addr == CODE + 8);
    CHECK(f && f->family == CG_FAMILY_VC4);
    cg_fault_clear(e.dev);
    /* a shared semaphore set: released by one program, taken by another */
    vc4_qpu_sems sems = {{0}};
    vc4_frag_batch *b = calloc(1, sizeof *b);
    b->sems = &sems;
    load(&e, "srel nop, 9\nnop : nop : thrend\nnop : nop\nnop : nop\n");
    CHECK_EQ(vc4_qpu_run_fragment(e.dev, e.bus, NULL, CODE, UNIF, b, 100, true), 0);
    CHECK_EQ(sems.count[9], 1);
    load(&e, "sacq nop, 9\nnop : nop : thrend\nnop : nop\nnop : nop\n");
    CHECK_EQ(vc4_qpu_run_fragment(e.dev, e.bus, NULL, CODE, UNIF, b, 100, true), 0);
    CHECK_EQ(sems.count[9], 0);
    free(b);
    env_fini(&e);
}

static void check_fault(env *e, cg_fault_kind kind, uint32_t addr, const char *msg_part)
{
    const cg_fault *f = cg_fault_get(e->dev, 0);
    CHECK(f != NULL);
    if (!f)
        return;
    CHECK_EQ(f->kind, kind);
    CHECK_EQ(f->stream_addr, addr);
    CHECK_EQ(f->family, CG_FAMILY_VC4);
    CHECK_STR(f->unit, "qpu");
    uint32_t w[2];
    cg_vas_cpu_read(e->bus, addr, w, 8);
    if (kind != CG_FAULT_HANG && kind != CG_FAULT_UNMAPPED) {
        CHECK_EQ(f->nwords, 2);
        CHECK_EQ(f->words[0], w[0]);
        CHECK_EQ(f->words[1], w[1]);
    }
    CHECK(strstr(f->message, msg_part) != NULL);
    if (!strstr(f->message, msg_part))
        fprintf(stderr, "message: %s\n", f->message);
    cg_fault_clear(e->dev);
}

static void test_tlb_loads_misc(void)
{
    env e;
    env_init(&e);
    load(&e,
         "nop : nop : loadc\n"
         "mov r0, r4.8b : nop\n"              /* pm=1 unpack of r4 */
         "fadd r1, r4.8d, r3 : nop : loadcv\n"
         "mov r2, r4 : nop\n"
         "mov ms_flags, 5 : nop\n"
         "mov tlb_stencil, elem_num : nop\n"
         "mov host_int, 7 : nop\n"
         "mov r3, mutex : nop\n"
         "mov mutex_release, 1 : nop\n"
         "mov tlbm, r0 : nop\n"
         "mov tlbam, r2 : nop\n"
         "mov ra1, rev_flag : nop\n"
         "nop : nop\n"
         "mov tlbz, ra1 : nop : thrend\n"
         "nop : nop\nnop : nop\n");
    vc4_frag_batch *b = calloc(1, sizeof *b);
    b->mask = 0x00ff;
    b->rev_flag = 1;
    for (int i = 0; i < 16; i++) {
        b->tlb_color_in[i] = 0xff00a000u | (uint32_t)i;
        b->coverage_in[i] = 0x10u + (uint32_t)i;
    }
    CHECK_EQ(vc4_qpu_run_fragment(e.dev, e.bus, NULL, CODE, UNIF, b, 100, true), 0);
    CHECK_EQ(b->color_mask, 0x00ff);
    CHECK_EQ(b->alpha_mask_written, 0x00ff);
    CHECK_EQ(b->z_mask, 0x00ff);
    CHECK_EQ(b->ms_mask_written, 0x00ff);
    for (int i = 0; i < 16; i++) {
        bool on = i < 8;
        CHECK_EQ(b->color[i], on ? 0xa0u : 0u);
        CHECK_EQ(b->alpha_mask[i], on ? 0x10u + (uint32_t)i : 0u);
        CHECK_EQ(b->z_out[i], on ? 1u : 0u);
        CHECK_EQ(b->ms_flags[i], on ? 5u : 0u);
    }
    CHECK_EQ(b->stencil_setup, 0);
    CHECK_EQ(b->stencil_writes, 1);
    CHECK_EQ(b->host_int, 7);
    CHECK_EQ(cg_fault_count(e.dev), 0);
    /* mutex acquire twice: nothing can release it */
    vc4_qpu_state s;
    CHECK_EQ(run(&e, &s, "mov r0, mutex : nop\nmov r1, mutex : nop\n", false), CG_ERR_FAULT);
    check_fault(&e, CG_FAULT_HANG, CODE + 8, "mutex");
    free(b);
    env_fini(&e);
}

static void test_faults(void)
{
    env e;
    env_init(&e);
    vc4_qpu_state s;
    CHECK_EQ(run(&e, &s, "nop : nop\nnop : nop : ldtmu0\n", false), CG_ERR_FAULT);
    check_fault(&e, CG_FAULT_HANG, CODE + 8, "ldtmu0 with no TMU0 request outstanding");
    /* S alone: a general memory lookup at r0 = 0, unmapped */
    CHECK_EQ(run(&e, &s, "mov tmu0s, r0 : nop\n", false), CG_ERR_FAULT);
    check_fault(&e, CG_FAULT_UNMAPPED, CODE, "no mapping at 0x0");
    CHECK_EQ(run(&e, &s, "nop : nop\nmov r0, vpm : nop\n", false), CG_ERR_FAULT);
    check_fault(&e, CG_FAULT_UNSUPPORTED, CODE + 8, "not supported yet: VPM read");
    CHECK_EQ(run(&e, &s, "mov vpm, r0 : nop\n", false), CG_ERR_FAULT);
    check_fault(&e, CG_FAULT_UNSUPPORTED, CODE, "VPM write");
    CHECK_EQ(run(&e, &s, "nop : nop : bkpt\n", false), CG_ERR_FAULT);
    check_fault(&e, CG_FAULT_TRAP, CODE, "breakpoint");
    CHECK_EQ(run(&e, &s, "nop : nop : op_add=9\n", false), CG_ERR_FAULT);
    check_fault(&e, CG_FAULT_INVALID_OPCODE, CODE, "reserved add op 9");
    CHECK_EQ(run(&e, &s, "ldi r0, 1 : unpack=2\n", false), CG_ERR_FAULT);
    check_fault(&e, CG_FAULT_INVALID_OPCODE, CODE, "load-immediate mode 2");
    CHECK_EQ(run(&e, &s, "bra nop, nop, 0 : cond_br=12\n", false), CG_ERR_FAULT);
    check_fault(&e, CG_FAULT_INVALID_OPCODE, CODE, "branch condition 12");
    /* running off the mapping */
    CHECK_EQ(run(&e, &s, "bra nop, nop, 0x400000\nnop : nop\nnop : nop\nnop : nop\n", false),
             CG_ERR_FAULT);
    const cg_fault *f = cg_fault_get(e.dev, 0);
    CHECK(f && f->kind == CG_FAULT_UNMAPPED && f->gpu_addr == 0x400000 && f->stream_addr == 0x400000);
    cg_fault_clear(e.dev);
    /* the watchdog */
    CHECK_EQ(run(&e, &s, "loop: brr nop, nop, loop\nnop : nop\nnop : nop\nnop : nop\n", false),
             CG_ERR_FAULT);
    f = cg_fault_get(e.dev, 0);
    CHECK(f && f->kind == CG_FAULT_HANG);
    CHECK(f && f->stream_addr >= CODE && f->stream_addr < CODE + 32);
    cg_fault_clear(e.dev);

    /* restrictions: warnings in normal mode, faults in strict mode */
    static const struct {
        const char *src;
        uint32_t at;
        const char *msg;
    } rules[] = {
        {"mov ra1, 1 : nop\nmov r0, ra1 : nop\n", CODE + 8, "written by the previous"},
        {"mov r0, 1 : mov r0, r1\n", CODE, "both ALUs write"},
        {"nop : nop : sbwait\n", CODE, "first two"},
        {"mov ra1, r1 : nop : thrend\nnop : nop\nnop : nop\n", CODE, "program end instruction writes"},
        {"nop : nop : thrend\nmov r0, unif : nop\nnop : nop\n", CODE + 8, "last three"},
        {"brr nop, nop, x\nbrr nop, nop, x\nnop : nop\nnop : nop\nx: nop : nop\n", CODE + 8,
         "within two instructions"},
        {"mov r0, vary : nop\n", CODE, "varying read 0"},
    };
    for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++) {
        CHECK_EQ(run(&e, &s, rules[i].src, false), 0);
        f = cg_fault_get(e.dev, 0);
        CHECK(f && (f->flags & CG_FAULT_F_WARNING) && f->kind == CG_FAULT_BAD_STATE);
        check_fault(&e, CG_FAULT_BAD_STATE, rules[i].at, rules[i].msg);
        CHECK_EQ(run(&e, &s, rules[i].src, true), CG_ERR_FAULT);
        f = cg_fault_get(e.dev, 0);
        CHECK(f && !(f->flags & CG_FAULT_F_WARNING));
        check_fault(&e, CG_FAULT_BAD_STATE, rules[i].at, rules[i].msg);
    }
    env_fini(&e);
}

int main(void)
{
    test_tables();
    test_disasm();
    test_float_ops();
    test_int_ops();
    test_flags_conditions();
    test_ldi();
    test_pack_unpack();
    test_all_packs();
    test_rotate_r5();
    test_sfu();
    test_branches();
    test_uniforms_varyings();
    test_seed_fragment_shader();
    test_semaphores();
    test_faults();
    test_tlb_loads_misc();
    return check_report("test_vc4_qpu");
}
