/* nv-sass-exec: the Maxwell warp interpreter (src/nv/sass_exec*.c). Programs
 * are written in the nv-sass assembly dialect (cg_nv_sass_assemble), placed
 * after a zero SPH in GPU memory, built with nv_sass_prog_build and run over
 * one warp; every expected value is worked out by hand in the comments. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "nv_testenv.h"
#include "cmdgpu/nv_sass.h"
#include "nv/gpu/sass_exec.h"

static nv_env E;
#define PROG_VA (E.data_va + 0x10000)
#define REGION_SIZE 0x20000u

static uint32_t fbits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

/* Assemble `text` at PROG_VA + 0x50 (after a zero SPH). Returns the code size. */
static size_t load(const char *text)
{
    uint8_t *code = NULL;
    size_t n = 0;
    char *err = NULL;
    int r = cg_nv_sass_assemble(text, strlen(text), &code, &n, &err);
    if (r) {
        fprintf(stderr, "assembly failed:\n%s\n", err ? err : "");
        CHECK_EQ(r, 0);
    }
    free(err);
    uint8_t sph[0x50] = {0};
    CHECK_EQ(cg_vas_cpu_write(E.vas, PROG_VA, sph, sizeof sph), 0);
    if (n)
        CHECK_EQ(cg_vas_cpu_write(E.vas, PROG_VA + 0x50, code, n), 0);
    /* the word after the code: an invalid instruction would be decoded there */
    uint64_t pad[4] = {0, 0, 0, 0};
    CHECK_EQ(cg_vas_cpu_write(E.vas, PROG_VA + 0x50 + n, pad, sizeof pad), 0);
    free(code);
    return n;
}

static void env_default(nv_sass_env *env)
{
    memset(env, 0, sizeof *env);
    env->dev = E.dev;
    env->vas = E.vas;
    env->budget = 100000;
}

/* Run text over a warp of `active` lanes; 0 or CG_ERR_FAULT. */
static int run_env(const char *text, nv_sass_warp *w, const nv_sass_env *env, uint32_t active,
                   nv_sass_fault *f)
{
    load(text);
    nv_sass_prog *p = NULL;
    memset(f, 0, sizeof *f);
    int r = nv_sass_prog_build(E.vas, NULL, E.data_va, REGION_SIZE + 0x10000, PROG_VA,
                               NV_STAGE_FRAGMENT, &p, f);
    CHECK_EQ(r, 0);
    if (r)
        return r;
    memset(w, 0, sizeof *w);
    w->active = active;
    r = nv_sass_run(p, env, w, f);
    nv_sass_prog_free(p);
    return r;
}

static int run(const char *text, nv_sass_warp *w, nv_sass_fault *f)
{
    nv_sass_env env;
    env_default(&env);
    return run_env(text, w, &env, 0xffffffffu, f);
}

static nv_sass_warp W;
static nv_sass_fault F;

static void test_moves(void)
{
    CHECK_EQ(run("MOV32I R0, 0x3f800000;\n"
                 "MOV R1, R0;\n"
                 "MOV R2, 0x5;\n"
                 "MOV R3, -0x1;\n"
                 "S2R R4, SR_LANEID;\n"
                 "EXIT;\n",
                 &W, &F),
             0);
    CHECK_EQ(W.r[0][0], 0x3f800000);
    CHECK_EQ(W.r[1][31], 0x3f800000);
    CHECK_EQ(W.r[2][5], 5);
    CHECK_EQ(W.r[3][5], 0xffffffffu); /* 20-bit signed immediate */
    CHECK_EQ(W.r[4][17], 17);
    CHECK_EQ(W.exited, 0xffffffffu);
    CHECK_EQ(W.executed, 6);
}

static void test_float(void)
{
    /* 1.5 + 2.25 = 3.75; 3.75 * -2 = -7.5; fma(-7.5, 0.5, 1) = -2.75 */
    CHECK_EQ(run("MOV32I R0, 0x3fc00000;\n"   /* 1.5 */
                 "MOV32I R1, 0x40100000;\n"   /* 2.25 */
                 "FADD R2, R0, R1;\n"
                 "FMUL R3, R2, -2.0;\n"
                 "FFMA R4, R3, 0.5, R0;\n"
                 "FADD.SAT R5, R3, R1;\n"       /* -5.25 -> 0 */
                 "FADD.SAT R6, R2, -R0;\n"      /* 2.25 -> 1 */
                 "FMNMX R7, R0, R1, PT;\n"      /* min */
                 "FMNMX R8, R0, R1, !PT;\n"     /* max */
                 "EXIT;\n",
                 &W, &F),
             0);
    CHECK_EQ(W.r[2][3], fbits(3.75f));
    CHECK_EQ(W.r[3][3], fbits(-7.5f));
    CHECK_EQ(W.r[4][3], fbits(-2.25f));
    CHECK_EQ(W.r[5][3], 0);
    CHECK_EQ(W.r[6][3], 0x3f800000);
    CHECK_EQ(W.r[7][3], fbits(1.5f));
    CHECK_EQ(W.r[8][3], fbits(2.25f));
}


static void test_int(void)
{
    CHECK_EQ(run("MOV32I R0, 0x12345678;\n"
                 "MOV32I R1, 0x00010003;\n"
                 "IADD R2, R0, -R1;\n"                 /* 0x12335675 */
                 "IADD3 R3, R0, R1, R1;\n"             /* 0x1236567e */
                 "ISCADD R4, R1, R0, 0x4;\n"           /* 0x00100030 + 0x12345678 */
                 "LOP.AND R5, R0, ~R1;\n"              /* 0x12345678 & 0xfffefffc */
                 "LOP3.LUT R6, R0, R1, RZ, 0x3c;\n"    /* a ^ b */
                 "SHL R7, R1, 0x4;\n"
                 "SHR R8, R0, 0x8;\n"
                 "MOV32I R9, 0x80000000;\n"
                 "SHR R10, R9, 0x4;\n"                 /* signed: 0xf8000000 */
                 "SHR.U32 R11, R9, 0x4;\n"             /* 0x08000000 */
                 "BFE.U32 R12, R0, 0x804;\n"           /* bits 11:4 = 0x67 */
                 "BFE R13, R9, 0x41c;\n"               /* bits 31:28 of 0x8... signed = -8 */
                 "BFI R14, R1, 0x808, R0;\n"           /* insert 0x03 at 15:8 */
                 "FLO.U32 R15, R0;\n"                  /* 28 */
                 "POPC R16, R0;\n"                     /* 13 */
                 "IMNMX R17, R0, R9, PT;\n"            /* signed min: R9 */
                 "IMNMX.U32 R18, R0, R9, PT;\n"        /* unsigned min: R0 */
                 "PRMT R19, R0, 0x3210, R1;\n"         /* identity */
                 "PRMT R20, R0, 0x4567, R1;\n"         /* bytes 7 6 5 4 of R1:R0 reversed */
                 "EXIT;\n",
                 &W, &F),
             0);
    CHECK_EQ(W.r[2][0], 0x12335675);
    CHECK_EQ(W.r[3][0], 0x1236567e);
    CHECK_EQ(W.r[4][0], 0x124456a8);
    CHECK_EQ(W.r[5][0], 0x12345678 & 0xfffefffc);
    CHECK_EQ(W.r[6][0], 0x1235567b);
    CHECK_EQ(W.r[7][0], 0x00100030);
    CHECK_EQ(W.r[8][0], 0x00123456);
    CHECK_EQ(W.r[10][0], 0xf8000000);
    CHECK_EQ(W.r[11][0], 0x08000000);
    CHECK_EQ(W.r[12][0], 0x67);
    CHECK_EQ(W.r[13][0], 0xfffffff8);
    CHECK_EQ(W.r[14][0], 0x12340378);
    CHECK_EQ(W.r[15][0], 28);
    CHECK_EQ(W.r[16][0], 13);
    CHECK_EQ(W.r[17][0], 0x80000000);
    CHECK_EQ(W.r[18][0], 0x12345678);
    CHECK_EQ(W.r[19][0], 0x12345678);
    CHECK_EQ(W.r[20][0], 0x03000100);
}

static void test_xmad_carry(void)
{
    /* The 32x32 multiply nvcc emits: XMAD; XMAD.MRG (b.H1); XMAD.PSL.CBCC
     * (a.H1, the merged value) gives the low word of a * b. */
    CHECK_EQ(run("MOV32I R0, 0x12345678;\n"
                 "MOV32I R1, 0x9abcdef1;\n"
                 "XMAD R2, R0, R1, RZ;\n"
                 "XMAD.MRG.B_H1 R3, R0, R1, RZ;\n"
                 "XMAD.PSL.CBCC.A_H1.B_H1 R4, R0, R3, R2;\n"
                 "MOV32I R5, 0xffffffff;\n"
                 "IADD.CC R6, R5, 0x2;\n"              /* 1, carry out */
                 "IADD.X R7, RZ, RZ;\n"                /* 0 + 0 + carry = 1 */
                 "MOV32I R10, 0x0;\n"                  /* 0x1_00000000 - 0x0_00000001 */
                 "MOV32I R11, 0x1;\n"
                 "MOV32I R12, 0x1;\n"
                 "IADD.CC R13, R10, -R12;\n"           /* 0xffffffff, borrow: carry 0 */
                 "IADD.X R14, R11, -RZ;\n"             /* 1 + ~0 + 0 = 0 */
                 "I2I.S32.S8 R8, R5;\n"                /* -1 */
                 "I2I.U8.S32.SAT R9, R0;\n"            /* 255 */
                 "EXIT;\n",
                 &W, &F),
             0);
    CHECK_EQ(W.r[4][0], (uint32_t)(0x12345678u * 0x9abcdef1u));
    CHECK_EQ(W.r[6][0], 1);
    CHECK_EQ(W.r[7][0], 1);
    CHECK_EQ(W.r[8][0], 0xffffffff);
    CHECK_EQ(W.r[9][0], 255);
    CHECK_EQ(W.r[13][0], 0xffffffff);
    CHECK_EQ(W.r[14][0], 0);
}

static void test_conv_round(void)
{
    CHECK_EQ(run("MOV32I R0, 0x4f000000;\n"            /* 2^31 */
                 "F2I.S32.F32.TRUNC R1, R0;\n"         /* saturates: 0x7fffffff */
                 "F2I.S32.F32.TRUNC R2, -R0;\n"        /* -2^31 */
                 "MOV32I R3, 0x7fc00000;\n"            /* NaN */
                 "F2I.S32.F32.TRUNC R4, R3;\n"         /* 0 */
                 "MOV32I R5, 0xc0200000;\n"            /* -2.5 */
                 "F2I.S32.F32 R6, R5;\n"               /* nearest even: -2 */
                 "F2I.S32.F32.FLOOR R7, R5;\n"         /* -3 */
                 "F2I.U32.F32.TRUNC R8, R5;\n"         /* 0 */
                 "MOV32I R9, 0x1000001;\n"             /* 2^24 + 1 */
                 "I2F.F32.S32 R10, R9;\n"              /* RN: 2^24 */
                 "I2F.F32.S32.RP R11, R9;\n"           /* 2^24 + 2 */
                 "MOV32I R12, 0x3f800000;\n"           /* 1 */
                 "MOV32I R13, 0x33800000;\n"           /* 2^-24 */
                 "FADD R14, R12, R13;\n"               /* tie: 1.0 */
                 "FADD.RP R15, R12, R13;\n"            /* 1 + 2^-23 */
                 "FADD.RM R16, R12, -R13;\n"           /* 1 - 2^-24 */
                 "FADD.RZ R17, R12, -R13;\n"           /* 1 - 2^-24 exactly */
                 "MOV32I R18, 0x3f800800;\n"           /* 1 + 2^-12 */
                 "FFMA R19, R18, R18, -R12;\n"         /* fused: 2^-11 + 2^-24 */
                 "FMUL R20, R18, R18;\n"               /* 1 + 2^-11 (tie to even) */
                 "FADD R21, R20, -R12;\n"              /* 2^-11 */
                 "F2F.F32.F32.FLOOR R22, R5;\n"        /* -3.0 */
                 "MUFU.RCP R23, R5;\n"                 /* -0.4 */
                 "MUFU.EX2 R24, R12;\n"                /* 2.0 */
                 "EXIT;\n",
                 &W, &F),
             0);
    CHECK_EQ(W.r[1][0], 0x7fffffff);
    CHECK_EQ(W.r[2][0], 0x80000000);
    CHECK_EQ(W.r[4][0], 0);
    CHECK_EQ(W.r[6][0], (uint32_t)-2);
    CHECK_EQ(W.r[7][0], (uint32_t)-3);
    CHECK_EQ(W.r[8][0], 0);
    CHECK_EQ(W.r[10][0], 0x4b800000);
    CHECK_EQ(W.r[11][0], 0x4b800001);
    CHECK_EQ(W.r[14][0], 0x3f800000);
    CHECK_EQ(W.r[15][0], 0x3f800001);
    CHECK_EQ(W.r[16][0], 0x3f7fffff);
    CHECK_EQ(W.r[17][0], 0x3f7fffff);
    CHECK_EQ(W.r[19][0], 0x3a000400);
    CHECK_EQ(W.r[21][0], 0x3a000000);
    CHECK_EQ(W.r[22][0], fbits(-3.0f));
    CHECK_EQ(W.r[23][0], fbits(-0.4f));
    CHECK_EQ(W.r[24][0], 0x40000000);
}

/* F2F between F16 and F32 (GLSL packHalf2x16 / unpackHalf2x16 as Mesa's
 * nvc0 compiles them): a half result in the low 16 bits, rounded to nearest
 * even, the rest cleared; an F16 source from the low half, or the high with
 * .H1. */
static void test_conv_half(void)
{
    CHECK_EQ(run("MOV32I R0, 0x3fc00000;\n"            /* 1.5 */
                 "F2F.F16.F32 R1, R0;\n"               /* 0x3e00 */
                 "MOV32I R2, 0x3f800800;\n"            /* 1 + 2^-12: under half a step */
                 "F2F.F16.F32 R3, -R2;\n"              /* -1.0: 0xbc00 */
                 "MOV32I R4, 0x477ff000;\n"            /* 65520: rounds past the max */
                 "F2F.F16.F32 R5, R4;\n"               /* infinity 0x7c00 */
                 "MOV32I R6, 0xc5003e00;\n"            /* halves: -5.0 high, 1.5 low */
                 "F2F.F32.F16 R7, R6;\n"               /* 1.5 */
                 "F2F.F32.F16.H1 R8, R6;\n"            /* -5.0 */
                 "F2F.F16.F32.SAT R9, R4;\n"           /* 1.0: 0x3c00 */
                 "EXIT;\n",
                 &W, &F),
             0);
    CHECK_EQ(W.r[1][0], 0x3e00u);
    CHECK_EQ(W.r[3][0], 0xbc00u);
    CHECK_EQ(W.r[5][0], 0x7c00u);
    CHECK_EQ(W.r[7][0], fbits(1.5f));
    CHECK_EQ(W.r[8][0], fbits(-5.0f));
    CHECK_EQ(W.r[9][0], 0x3c00u);
}

static void test_preds(void)
{
    CHECK_EQ(run("S2R R0, SR_LANEID;\n"
                 "ISETP.LT.AND P0, P1, R0, 0x10, PT;\n"     /* P0 lanes 0-15, P1 16-31 */
                 "ISETP.EQ.OR P2, PT, R0, 0x3, P1;\n"       /* lanes 3, 16-31 */
                 "I2F.F32.S32 R1, R0;\n"
                 "FSETP.GE.AND P3, PT, R1, 30.0, PT;\n"     /* lanes 30, 31 */
                 "PSETP.AND.OR P4, PT, P0, P2, P3;\n"       /* lane 3, 30, 31 */
                 "P2R.PR R2, RZ, 0x7f;\n"
                 "MOV32I R3, 0x5;\n"
                 "R2P.PR R3, 0x3;\n"                       /* P0 = 1, P1 = 0 */
                 "FSET.BF.GT.AND R4, R1, 1.0, PT;\n"        /* 1.0 from lane 2 */
                 "ISET.NE.AND R5, R0, RZ, PT;\n"            /* ~0 except lane 0 */
                 "SEL R6, R0, 0x99, P4;\n"
                 "EXIT;\n",
                 &W, &F),
             0);
    CHECK_EQ(W.p[2], 0xffff0008u);
    CHECK_EQ(W.p[3], 0xc0000000u);
    CHECK_EQ(W.p[4], 0xc0000008u);
    /* P2R lane 3: P0 1, P1 0, P2 1, P3 0, P4 1 -> 0x15; lane 31: P1 P2 P3 P4 = 0x1e */
    CHECK_EQ(W.r[2][3], 0x15);
    CHECK_EQ(W.r[2][31], 0x1e);
    CHECK_EQ(W.p[0], 0xffffffffu);
    CHECK_EQ(W.p[1], 0);
    CHECK_EQ(W.r[4][1], 0);
    CHECK_EQ(W.r[4][2], 0x3f800000);
    CHECK_EQ(W.r[5][0], 0);
    CHECK_EQ(W.r[5][1], 0xffffffff);
    CHECK_EQ(W.r[6][3], 3);
    CHECK_EQ(W.r[6][4], 0x99);
}

static void test_lop3_nan(void)
{
    /* LOP3 of a = 0xf0.., b = 0xcc.., c = 0xaa.. reproduces the LUT */
    CHECK_EQ(run("MOV32I R0, 0xf0f0f0f0;\n"
                 "MOV32I R1, 0xcccccccc;\n"
                 "MOV32I R2, 0xaaaaaaaa;\n"
                 "LOP3.LUT R3, R0, R1, R2, 0x96;\n"
                 "LOP3.LUT R4, R0, R1, R2, 0xe8;\n"
                 "LOP3.LUT R5, R0, 0xccccc, R2, 0x80;\n"   /* a & b & c */
                 "LOP.XOR R6, R0, R1;\n"
                 "LOP.PASS_B R7, R0, ~R1;\n"
                 "MOV32I R8, 0x7fc00000;\n"
                 "FSETP.NEU.AND P0, PT, R8, 1.0, PT;\n"     /* unordered: true */
                 "FSETP.NE.AND P1, PT, R8, 1.0, PT;\n"      /* ordered: false */
                 "FMNMX R9, R8, 2.0, PT;\n"                 /* the non-NaN operand */
                 "FCMP.LT R10, R0, R1, R8;\n"               /* NaN < 0 false: R1 */
                 "FADD R11, R8, 1.0;\n"                     /* canonical NaN */
                 "EXIT;\n",
                 &W, &F),
             0);
    CHECK_EQ(W.r[3][0], 0x96969696);
    CHECK_EQ(W.r[4][0], 0xe8e8e8e8);
    CHECK_EQ(W.r[5][0], 0xf0f0f0f0u & 0xfffccccc & 0xaaaaaaaa);
    CHECK_EQ(W.r[6][0], 0x3c3c3c3c);
    CHECK_EQ(W.r[7][0], 0x33333333);
    CHECK_EQ(W.p[0], 0xffffffffu);
    CHECK_EQ(W.p[1], 0);
    CHECK_EQ(W.r[9][0], 0x40000000);
    CHECK_EQ(W.r[10][0], 0xcccccccc);
    CHECK_EQ(W.r[11][0], 0x7fffffff);
}

/* ICMP: Rd = (c cmp 0) ? a : b, per lane, signed or not (the form Mesa's
 * nvc0 emits for integer selects; piglit shaders fault without it). */
static void test_icmp(void)
{
    CHECK_EQ(run("S2R R0, SR_LANEID;\n"
                 "IADD32I R1, R0, -0x10;\n"               /* -16 .. 15 */
                 "MOV32I R2, 0xaaaa;\n"
                 "MOV32I R3, 0xbbbb;\n"
                 "ICMP.LT R4, R2, R3, R1;\n"             /* lanes 0-15: a */
                 "ICMP.LT.U32 R5, R2, R3, R1;\n"         /* unsigned: never below 0 */
                 "ICMP.EQ.U32 R6, R2, 0x7, R1;\n"        /* lane 16: a */
                 "ICMP.GE R7, R2, R3, R1;\n"             /* lanes 16-31: a */
                 "EXIT;\n",
                 &W, &F),
             0);
    for (int l = 0; l < 32; l++) {
        CHECK_EQ(W.r[4][l], l < 16 ? 0xaaaau : 0xbbbbu);
        CHECK_EQ(W.r[5][l], 0xbbbbu);
        CHECK_EQ(W.r[6][l], l == 16 ? 0xaaaau : 7u);
        CHECK_EQ(W.r[7][l], l >= 16 ? 0xaaaau : 0xbbbbu);
    }
}

/* IMUL: low and high halves, signed and unsigned (the .HI by 0x19999999
 * is how nvc0 divides by 10). */
static void test_imul(void)
{
    CHECK_EQ(run("S2R R0, SR_LANEID;\n"
                 "IADD32I R1, R0, -0x10;\n"               /* -16 .. 15 */
                 "MOV32I R2, 0x12345678;\n"
                 "IMUL R3, R1, R2;\n"                      /* low bits: sign-blind */
                 "IMUL.S32_S32.HI R4, R1, R2;\n"
                 "IMUL.HI R5, R1, R2;\n"                   /* -16 as 0xfffffff0 */
                 "IMUL32I.HI R6, R0, 0x19999999;\n"
                 "EXIT;\n",
                 &W, &F),
             0);
    for (int l = 0; l < 32; l++) {
        int64_t s = (int64_t)(l - 16) * 0x12345678;
        uint64_t u = (uint64_t)(uint32_t)(l - 16) * 0x12345678u;
        CHECK_EQ(W.r[3][l], (uint32_t)s);
        CHECK_EQ(W.r[4][l], (uint32_t)((uint64_t)s >> 32));
        CHECK_EQ(W.r[5][l], (uint32_t)(u >> 32));
        CHECK_EQ(W.r[6][l], (uint32_t)(((uint64_t)l * 0x19999999u) >> 32));
    }
}

static void test_divergence(void)
{
    const char *prog = "S2R R0, SR_LANEID;\n"
                       "MOV32I R1, 0x0;\n"
                       "ISETP.LT.AND P0, PT, R0, 0x10, PT;\n"
                       "SSY end1;\n"
                       "BRA @!P0 else1;\n"
                       "ISETP.LT.AND P1, PT, R0, 0x8, PT;\n"
                       "SSY end2;\n"
                       "BRA @!P1 else2;\n"
                       "MOV32I R1, 0x1;\n"
                       "SYNC;\n"
                       "else2:\n"
                       "MOV32I R1, 0x2;\n"
                       "SYNC;\n"
                       "end2:\n"
                       "IADD32I R1, R1, 0x10;\n"
                       "SYNC;\n"
                       "else1:\n"
                       "MOV32I R1, 0x3;\n"
                       "SYNC;\n"
                       "end1:\n"
                       "IADD32I R1, R1, 0x100;\n"
                       "EXIT;\n";
    CHECK_EQ(run(prog, &W, &F), 0);
    CHECK_EQ(W.r[1][0], 0x111);
    CHECK_EQ(W.r[1][7], 0x111);
    CHECK_EQ(W.r[1][8], 0x112);
    CHECK_EQ(W.r[1][15], 0x112);
    CHECK_EQ(W.r[1][16], 0x103);
    CHECK_EQ(W.r[1][31], 0x103);
    CHECK_EQ(W.exited, 0xffffffffu);

    /* a loop: PBK/BRK, lane i leaves after i iterations */
    CHECK_EQ(run("S2R R0, SR_LANEID;\n"
                 "MOV32I R2, 0x0;\n"
                 "PBK done;\n"
                 "loop:\n"
                 "ISETP.GE.AND P0, PT, R2, R0, PT;\n"
                 "BRK @P0;\n"
                 "IADD32I R2, R2, 0x1;\n"
                 "BRA loop;\n"
                 "done:\n"
                 "IADD32I R3, R2, 0x1000;\n"
                 "EXIT;\n",
                 &W, &F),
             0);
    CHECK_EQ(W.r[2][0], 0);
    CHECK_EQ(W.r[2][9], 9);
    CHECK_EQ(W.r[3][31], 0x101f);
    /* 3 + 32 iterations x 4 (last pass: 2) + ... : S2R MOV PBK, 31 full
     * loop passes of 4 + the final ISETP, BRK, then IADD32I and EXIT */
    CHECK_EQ(W.executed, 3 + 31 * 4 + 2 + 2);

    /* KIL and a partial warp */
    nv_sass_env env;
    env_default(&env);
    CHECK_EQ(run_env("S2R R0, SR_LANEID;\n"
                     "ISETP.GT.AND P0, PT, R0, 0x3, PT;\n"
                     "KIL @P0;\n"
                     "MOV32I R5, 0x7;\n"
                     "EXIT;\n",
                     &W, &env, 0xff, &F),
             0);
    CHECK_EQ(W.killed, 0xf0);
    CHECK_EQ(W.exited, 0x0f);
    CHECK_EQ(W.r[5][3], 7);
    CHECK_EQ(W.r[5][4], 0);
    CHECK_EQ(W.r[5][9], 0);
    /* a divergent branch without SSY: both sides run until EXIT */
    CHECK_EQ(run("S2R R0, SR_LANEID;\n"
                 "ISETP.LT.AND P0, PT, R0, 0x4, PT;\n"
                 "BRA @P0 side;\n"
                 "MOV32I R1, 0x1;\n"
                 "EXIT;\n"
                 "side:\n"
                 "MOV32I R1, 0x2;\n"
                 "EXIT;\n",
                 &W, &F),
             0);
    CHECK_EQ(W.r[1][3], 2);
    CHECK_EQ(W.r[1][4], 1);
}

static void test_memory(void)
{
    nv_sass_env env;
    env_default(&env);
    static uint32_t cb0[16];
    for (int i = 0; i < 16; i++)
        cb0[i] = 0x100 + (uint32_t)i;
    uint64_t buf = E.data_va + 0x60000;
    cb0[2] = (uint32_t)buf;
    cb0[3] = (uint32_t)(buf >> 32);
    env.cb[0] = cb0;
    env.cb_size[0] = sizeof cb0;
    env.agent.unit = "sm";
    uint32_t init[4] = {11, 22, 33, 44};
    CHECK_EQ(cg_vas_cpu_write(E.vas, buf, init, sizeof init), 0);
    static uint32_t local[8 * 16];
    memset(&W, 0, sizeof W);
    CHECK_EQ(run_env("S2R R0, SR_LANEID;\n"
                     "SHL R1, R0, 0x2;\n"
                     "LDC R2, c[0x0][R1+0x10];\n"            /* 0x104 + lane */
                     "MOV R4, c[0x0][0x8];\n"
                     "MOV R5, c[0x0][0xc];\n"
                     "LDG.E R6, [R4+0x4];\n"                 /* 22 */
                     "LDG.E.64 R8, [R4+0x8];\n"              /* 33, 44 */
                     "IADD R12, R4, R1;\n"
                     "MOV R13, R5;\n"
                     "STG.E [R12+0x100], R2;\n"
                     "STL [R1+0x4], R2;\n"
                     "LDL R14, [R1+0x4];\n"
                     "LDG.E.U8 R15, [R4+0x4];\n"
                     "EXIT;\n",
                     &W, &env, 0xff, &F),
             CG_ERR_FAULT); /* no local memory given to the warp */
    CHECK_EQ(F.kind, CG_FAULT_ADDR_RANGE);
    /* with local memory: run the same with the warp prepared by hand */
    load("S2R R0, SR_LANEID;\n"
         "SHL R1, R0, 0x2;\n"
         "LDC R2, c[0x0][R1+0x10];\n"
         "MOV R4, c[0x0][0x8];\n"
         "MOV R5, c[0x0][0xc];\n"
         "LDG.E R6, [R4+0x4];\n"
         "LDG.E.64 R8, [R4+0x8];\n"
         "IADD R12, R4, R1;\n"
         "MOV R13, R5;\n"
         "STG.E [R12+0x100], R2;\n"
         "STL [R1+0x4], R2;\n"
         "LDL R14, [R1+0x4];\n"
         "LDG.E.S8 R15, [R4+0x13];\n"
         "EXIT;\n");
    nv_sass_prog *p;
    CHECK_EQ(nv_sass_prog_build(E.vas, NULL, E.data_va, REGION_SIZE + 0x10000, PROG_VA,
                                NV_STAGE_VERTEX, &p, &F),
             0);
    memset(&W, 0, sizeof W);
    W.active = 0xff;
    W.local = local;
    W.local_bytes = 64;
    CHECK_EQ(nv_sass_run(p, &env, &W, &F), 0);
    nv_sass_prog_free(p);
    CHECK_EQ(W.r[2][0], 0x104);
    CHECK_EQ(W.r[2][7], 0x10b);
    CHECK_EQ(W.r[6][5], 22);
    CHECK_EQ(W.r[8][5], 33);
    CHECK_EQ(W.r[9][5], 44);
    CHECK_EQ(W.r[14][6], 0x10a);
    CHECK_EQ(local[6 * 16 + 6 + 1], 0x10a); /* lane 6, byte 0x1c */
    CHECK_EQ(W.r[15][0], 0); /* byte 0x13 of {11,22,33,44}: 0 */
    for (uint32_t l = 0; l < 8; l++)
        CHECK_EQ(env_rd32(&E, buf + 0x100 + 4 * l), 0x104 + l);
}

static void test_attributes(void)
{
    static uint32_t in[NV_WARP][NV_ATTR_WORDS], out[NV_WARP][NV_ATTR_WORDS];
    nv_sass_env env;
    env_default(&env);
    env.attr_in = in;
    env.attr_out = out;
    for (int l = 0; l < NV_WARP; l++) {
        for (int k = 0; k < 4; k++)
            in[l][0x80 / 4 + k] = (uint32_t)(l * 16 + k);
        env.vertex_id[l] = 1000 + (uint32_t)l;
    }
    env.instance_id = 7;
    CHECK_EQ(run_env("ALD.128 R0, a[0x80], RZ;\n"
                     "ALD R4, a[0x2fc], RZ;\n"
                     "ALD R5, a[0x2f8], RZ;\n"
                     "AST.128 a[0x70], R0, RZ;\n"
                     "AST a[0x90], R4, RZ;\n"
                     "EXIT;\n",
                     &W, &env, 0xffffffffu, &F),
             0);
    CHECK_EQ(W.r[3][2], 35);
    CHECK_EQ(W.r[4][2], 1002);
    CHECK_EQ(W.r[5][2], 7);
    CHECK_EQ(out[2][0x70 / 4], 32);
    CHECK_EQ(out[2][0x7c / 4], 35);
    CHECK_EQ(out[9][0x90 / 4], 1009);

    /* IPA: a plane 2x + 3y + 1 at (0.5 + lane, 2.5); perspective word 0x84
     * times w from 1/w = 0.25 (w = 4); flat word 0x88 */
    static nv_sass_plane planes[NV_ATTR_WORDS];
    planes[0x80 / 4] = (nv_sass_plane){2.0f, 3.0f, 1.0f, 0};
    planes[0x84 / 4] = (nv_sass_plane){0.0f, 0.0f, 0.5f, 0};
    planes[0x88 / 4] = (nv_sass_plane){0, 0, 0, 0x1234};
    planes[0x7c / 4] = (nv_sass_plane){0.0f, 0.0f, 0.25f, 0};
    env_default(&env);
    env.planes = planes;
    for (int l = 0; l < NV_WARP; l++) {
        env.frag_x[l] = 0.5f + (float)l;
        env.frag_y[l] = 2.5f;
    }
    CHECK_EQ(run_env("IPA.PASS R0, a[0x7c], RZ, RZ, PT;\n"
                     "MUFU.RCP R0, R0;\n"
                     "IPA.PASS R1, a[0x80], RZ, RZ, PT;\n"
                     "IPA R2, a[0x84], R0, RZ, PT;\n"
                     "IPA.CONSTANT R3, a[0x88], RZ, RZ, PT;\n"
                     "IPA.PASS R4, a[0x70], RZ, RZ, PT;\n"
                     "IPA.PASS R5, a[0x74], RZ, RZ, PT;\n"
                     "EXIT;\n",
                     &W, &env, 0xffffffffu, &F),
             0);
    CHECK_EQ(W.r[0][1], fbits(4.0f));
    CHECK_EQ(W.r[1][1], fbits(2.0f * 1.5f + 3.0f * 2.5f + 1.0f)); /* 11.5 */
    CHECK_EQ(W.r[2][1], fbits(2.0f));
    CHECK_EQ(W.r[3][1], 0x1234);
    CHECK_EQ(W.r[4][5], fbits(5.5f));
    CHECK_EQ(W.r[5][5], fbits(2.5f));
}


/* A 4x4 A8B8G8R8 block-linear texture (one GOB) at TEX_VA: texel (x, y) =
 * R 64x, G 64y, B 0x80, A 0xff; TIC 0 and TSC 0 in the pools; the handle
 * (0: TIC 0, TSC 0) at c[1][0x8] (index 2). */
#define TEX_VA (E.data_va + 0x40000)
#define TIC_VA (E.data_va + 0x50000)
#define TSC_VA (E.data_va + 0x51000)
static uint32_t tex_cb[4];

static void tex_setup(nv_sass_env *env, uint32_t tsc0, uint32_t tsc1, uint64_t tex_va)
{
    for (uint32_t y = 0; y < 4; y++)
        for (uint32_t x = 0; x < 4; x++) {
            uint32_t t = 64 * x | (64 * y) << 8 | 0x80u << 16 | 0xffu << 24;
            uint64_t off = (y / 2) * 64 + (y % 2) * 16 + x * 4; /* GOB layout */
            CHECK_EQ(cg_vas_cpu_write(E.vas, TEX_VA + off, &t, 4), 0);
        }
    uint32_t tic[8] = {0x58d24908, (uint32_t)tex_va, (uint32_t)(tex_va >> 32) | 3u << 21, 0,
                       3u | 1u << 23, 3u | 1u << 31, 0, 0};
    uint32_t tsc[8] = {tsc0, tsc1, 0, 0, 0x3f800000, 0, 0, 0x3f000000};
    CHECK_EQ(cg_vas_cpu_write(E.vas, TIC_VA, tic, sizeof tic), 0);
    CHECK_EQ(cg_vas_cpu_write(E.vas, TSC_VA, tsc, sizeof tsc), 0);
    tex_cb[2] = 0;
    env->cb[1] = tex_cb;
    env->cb_size[1] = sizeof tex_cb;
    env->tex.tic_va = TIC_VA;
    env->tex.tsc_va = TSC_VA;
    env->tex.handle_bank = 1;
}

/* A texture view's levels (TIC word 7: RES_VIEW_MIN_MIP 3:0, MAX 7:4):
 * LOD 0 of a view whose first level is 1 is the resource's level 1, as
 * Mesa's nvc0 samples level N - 1 to render level N of glGenerateMipmap.
 * The 4x4 texture of tex_setup gets a 2x2 level 1 one GOB (512 bytes) on. */
static void test_texture_view(void)
{
    nv_sass_env env;
    env_default(&env);
    tex_setup(&env, 0x00, 0x51, TEX_VA); /* NEAREST */
    for (uint32_t y = 0; y < 2; y++)
        for (uint32_t x = 0; x < 2; x++) {
            uint32_t t = 0xA0u + 16 * y + x;
            CHECK_EQ(cg_vas_cpu_write(E.vas, TEX_VA + 512 + (y % 2) * 16 + x * 4, &t, 4), 0);
        }
    uint32_t w3 = 1u << 28, w7 = 1u << 4 | 1u; /* two levels; the view: level 1 only */
    CHECK_EQ(cg_vas_cpu_write(E.vas, TIC_VA + 12, &w3, 4), 0);
    CHECK_EQ(cg_vas_cpu_write(E.vas, TIC_VA + 28, &w7, 4), 0);
    CHECK_EQ(run_env("S2R R0, SR_LANEID;\n"
                     "TLDS.2D_LZ RZ, R4, R0, R0, 0x2, 0x0;\n"  /* R of texel (lane, lane) */
                     "TXQ R12, RZ, 0x1, 0x2, 0xb;\n"           /* width, height, levels */
                     "EXIT;\n",
                     &W, &env, 0x3, &F),
             0);
    CHECK_EQ(W.r[4][0], fbits(160.0f * (float)(1.0 / 255.0))); /* 0xA0 */
    CHECK_EQ(W.r[4][1], fbits(177.0f * (float)(1.0 / 255.0))); /* 0xB1 */
    CHECK_EQ(W.r[12][0], 2);                                     /* its level 0: 2x2 */
    CHECK_EQ(W.r[13][0], 2);
    CHECK_EQ(W.r[14][0], 1);                                     /* the view's levels */
}

static void test_texture(void)
{
    nv_sass_env env;
    env_default(&env);
    /* CLAMP_TO_EDGE, LINEAR mag/min, no mipmaps */
    tex_setup(&env, 0x92, 0x62, TEX_VA);
    /* lane 0: (0.25, 0.25) = the centre of texels (0,0)..(1,1): weights 1/2;
     * lane 1: (0.3125, 0.125): x = 0.75 (weight 3/4 of texel 1), y clamps to
     * row 0; lane 2: (1.0, 1.0): texel (3,3) (edge clamp) */
    CHECK_EQ(run_env("S2R R0, SR_LANEID;\n"
                     "MOV32I R1, 0x3e800000;\n"             /* 0.25 */
                     "MOV32I R2, 0x3e800000;\n"
                     "ISETP.EQ.AND P0, PT, R0, 0x1, PT;\n"
                     "MOV32I @P0 R1, 0x3ea00000;\n"         /* 0.3125 */
                     "MOV32I @P0 R2, 0x3e000000;\n"         /* 0.125 */
                     "ISETP.EQ.AND P1, PT, R0, 0x2, PT;\n"
                     "MOV32I @P1 R1, 0x3f800000;\n"
                     "MOV32I @P1 R2, 0x3f800000;\n"
                     "TEXS.2D_LZ R6, R4, R1, R2, 0x2, 0x4;\n" /* RGBA: R4 R5 R6 R7 */
                     "TEXS.2D_LZ RZ, R8, R1, R2, 0x2, 0x7;\n" /* B, A: R8 R9 */
                     "TLDS.2D_LZ RZ, R10, R0, R0, 0x2, 0x0;\n" /* R of texel (lane, lane) */
                     "TXQ R12, RZ, 0x1, 0x2, 0xb;\n"          /* width, height, levels */
                     "TEX.2D R16, R1, RZ, 0x2, 0x9;\n"       /* R, A into R16, R17 */
                     "TLD4.G.2D R20, R1, RZ, 0x2, 0xf;\n"    /* G of the footprint */
                     "EXIT;\n",
                     &W, &env, 0xf, &F),
             0);
    float c64 = 64.0f * (float)(1.0 / 255.0);
    CHECK_EQ(W.r[4][0], fbits(c64 * 0.5f));              /* R: (0 + 64) / 2 */
    CHECK_EQ(W.r[5][0], fbits(c64 * 0.5f));              /* G */
    CHECK_EQ(W.r[6][0], fbits(128.0f * (float)(1.0 / 255.0)));
    CHECK_EQ(W.r[7][0], 0x3f800000);
    CHECK_EQ(W.r[4][1], fbits(c64 * 0.75f));             /* R at x = 0.75 */
    CHECK_EQ(W.r[5][1], 0);                              /* G: row 0 */
    CHECK_EQ(W.r[4][2], fbits(192.0f * (float)(1.0 / 255.0)));
    CHECK_EQ(W.r[5][2], fbits(192.0f * (float)(1.0 / 255.0)));
    CHECK_EQ(W.r[8][0], fbits(128.0f * (float)(1.0 / 255.0)));
    CHECK_EQ(W.r[9][0], 0x3f800000);
    CHECK_EQ(W.r[10][3], fbits(192.0f * (float)(1.0 / 255.0)));
    CHECK_EQ(W.r[12][0], 4);
    CHECK_EQ(W.r[13][0], 4);
    CHECK_EQ(W.r[14][0], 1);
    CHECK_EQ(W.r[16][0], fbits(c64 * 0.5f));
    CHECK_EQ(W.r[17][0], 0x3f800000);
    /* gather order (0,1) (1,1) (1,0) (0,0): G = 64 y */
    CHECK_EQ(W.r[20][0], fbits(c64));
    CHECK_EQ(W.r[21][0], fbits(c64));
    CHECK_EQ(W.r[22][0], 0);
    CHECK_EQ(W.r[23][0], 0);

    /* NEAREST with WRAP: u = 1.125 wraps to texel 0; BORDER: border colour */
    env_default(&env);
    tex_setup(&env, 0x00, 0x51, TEX_VA);
    CHECK_EQ(run_env("MOV32I R1, 0x3f900000;\n"             /* 1.125 */
                     "MOV32I R2, 0x3e800000;\n"             /* 0.25: row 1 */
                     "TEXS.2D_LZ RZ, R4, R1, R2, 0x2, 0x4;\n"
                     "EXIT;\n",
                     &W, &env, 0x1, &F),
             0);
    CHECK_EQ(W.r[4][0], 0);
    CHECK_EQ(W.r[5][0], fbits(c64));
    env_default(&env);
    tex_setup(&env, 0xdb, 0x51, TEX_VA); /* wrap 3 = BORDER in u, v, p */
    CHECK_EQ(run_env("MOV32I R1, 0x3fc00000;\n"             /* 1.5 */
                     "MOV32I R2, 0x3e800000;\n"
                     "TEXS.2D_LZ R6, R4, R1, R2, 0x2, 0x4;\n"
                     "EXIT;\n",
                     &W, &env, 0x1, &F),
             0);
    CHECK_EQ(W.r[4][0], 0x3f800000); /* border (1, 0, 0, 0.5) */
    CHECK_EQ(W.r[5][0], 0);
    CHECK_EQ(W.r[7][0], 0x3f000000);
    /* .F16: the same sample as binary16 pairs, R|G<<16 into Rd, B|A<<16
     * into Rd2; with Rd2 = RZ and two components, one register */
    env_default(&env);
    tex_setup(&env, 0xdb, 0x51, TEX_VA);
    CHECK_EQ(run_env("MOV32I R1, 0x3fc00000;\n"
                     "MOV32I R2, 0x3e800000;\n"
                     "TEXS.F16.2D_LZ R6, R4, R1, R2, 0x2, 0x4;\n"
                     "TEXS.F16.2D_LZ RZ, R8, R1, R2, 0x2, 0x5;\n" /* R, A */
                     "EXIT;\n",
                     &W, &env, 0x1, &F),
             0);
    CHECK_EQ(W.r[4][0], 0x00003c00u); /* R 1.0, G 0 */
    CHECK_EQ(W.r[6][0], 0x38000000u); /* B 0, A 0.5 */
    CHECK_EQ(W.r[5][0], 0u);          /* untouched */
    CHECK_EQ(W.r[8][0], 0x38003c00u); /* R 1.0, A 0.5 */

    /* unmapped texture memory */
    env_default(&env);
    tex_setup(&env, 0x92, 0x62, 0x7f00000000ull);
    CHECK_EQ(run_env("TEXS.2D_LZ RZ, R4, RZ, RZ, 0x2, 0x4;\n"
                     "EXIT;\n",
                     &W, &env, 0x1, &F),
             CG_ERR_FAULT);
    CHECK_EQ(F.kind, CG_FAULT_UNMAPPED);
    CHECK_EQ(F.va, 0x7f00000000ull);
    CHECK_EQ(F.pc, 0x58);
}


/* ---- 3D, 2D array and cube targets (issue 30) ------------------------------
 * Block-linear A8B8G8R8 UNORM textures of one GOB column at TEX_VA. Every
 * texel's bytes are placed by the GOB layout written out here (research/nv.md
 * section 7: in a GOB, row y at (y / 2) * 64 + (y % 2) * 16, byte x at x for
 * x < 16), so the expected values below come from the texel values, not from
 * the code under test. */

/* lane l sets register r to vals[l] (lanes 0..n-1) */
static void lane_movs(char *buf, size_t cap, unsigned r, const uint32_t *vals, unsigned n)
{
    size_t at = strlen(buf);
    at += (size_t)snprintf(buf + at, cap - at, "MOV32I R%u, 0x%08x;\n", r, vals[0]);
    for (unsigned l = 1; l < n; l++)
        at += (size_t)snprintf(buf + at, cap - at,
                               "ISETP.EQ.AND P0, PT, R0, 0x%x, PT;\nMOV32I @P0 R%u, 0x%08x;\n", l,
                               r, vals[l]);
}

/* Texel (x, y) of the GOB at gob_va: R, G, B, A bytes. */
static void put_texel(uint64_t gob_va, uint32_t x, uint32_t y, uint8_t r, uint8_t g, uint8_t b)
{
    uint32_t t = r | (uint32_t)g << 8 | (uint32_t)b << 16 | 0xffu << 24;
    CHECK_EQ(cg_vas_cpu_write(E.vas, gob_va + (y / 2) * 64 + (y % 2) * 16 + x * 4, &t, 4), 0);
}

/* TIC 0: A8B8G8R8 block-linear at TEX_VA, w x h, depth-1 field dm1,
 * texture type ty, GOBs per block in z 2^bd; TSC 0 (border 1, 0, 0, 0.5). */
static void target_setup(nv_sass_env *env, unsigned ty, uint32_t w, uint32_t h, uint32_t dm1,
                         unsigned bd, uint32_t tsc0, uint32_t tsc1)
{
    uint32_t tic[8] = {0x58d24908, (uint32_t)TEX_VA, (uint32_t)(TEX_VA >> 32) | 3u << 21,
                       bd << 6, (w - 1) | ty << 23, (h - 1) | dm1 << 16 | 1u << 31, 0, 0};
    uint32_t tsc[8] = {tsc0, tsc1, 0, 0, 0x3f800000, 0, 0, 0x3f000000};
    CHECK_EQ(cg_vas_cpu_write(E.vas, TIC_VA, tic, sizeof tic), 0);
    CHECK_EQ(cg_vas_cpu_write(E.vas, TSC_VA, tsc, sizeof tsc), 0);
    tex_cb[2] = 0;
    env->cb[1] = tex_cb;
    env->cb_size[1] = sizeof tex_cb;
    env->tex.tic_va = TIC_VA;
    env->tex.tsc_va = TSC_VA;
    env->tex.handle_bank = 1;
}

static uint32_t u8f(unsigned v) /* the UNORM8 value v as the sampler returns it */
{
    return fbits((float)v * (float)(1.0 / 255.0));
}

static uint32_t lerp8(unsigned a, unsigned b, float t) /* a linear blend of two */
{
    float fa = (float)a * (float)(1.0 / 255.0), fb = (float)b * (float)(1.0 / 255.0);
    return fbits(fa + (fb - fa) * t);
}

/* 2D array, 4x4, 3 layers (one 512-byte GOB each: the layer stride is the
 * level's size rounded to a block). Texel (x, y) of layer L: R 40L + 10,
 * G 16x, B 16y. The layer operand comes from F2I.U16 (round to nearest
 * even, negative to 0), as Mesa's lowering converts it; the texture unit
 * clamps it to [0, 2]. */
static void test_tex_array(void)
{
    for (uint32_t L = 0; L < 3; L++)
        for (uint32_t y = 0; y < 4; y++)
            for (uint32_t x = 0; x < 4; x++)
                put_texel(TEX_VA + 512 * L, x, y, (uint8_t)(40 * L + 10), (uint8_t)(16 * x),
                          (uint8_t)(16 * y));
    nv_sass_env env;
    env_default(&env);
    target_setup(&env, 5, 4, 4, 2, 0, 0x92, 0x51); /* CLAMP_TO_EDGE, NEAREST */
    /* layer floats -0.5 0 0.5 1 1.5 2 2.5 3 -> 0 0 0 1 2 2 2 3 -> clamped 0 0 0 1 2 2 2 2 */
    static const float lf[8] = {-0.5f, 0.0f, 0.5f, 1.0f, 1.5f, 2.0f, 2.5f, 3.0f};
    static const unsigned want[8] = {0, 0, 0, 1, 2, 2, 2, 2};
    uint32_t lv[8];
    for (int l = 0; l < 8; l++)
        lv[l] = fbits(lf[l]);
    char prog[4096] = "S2R R0, SR_LANEID;\n";
    lane_movs(prog, sizeof prog, 1, lv, 8);
    strcat(prog, "F2I.U16.F32 R10, R1;\n"
                 "MOV32I R11, 0x3ec00000;\n"              /* x 0.375: texel 1 */
                 "MOV32I R12, 0x3f200000;\n"              /* y 0.625: texel 2 */
                 "TEXS.A2D R6, R4, R10, R12, 0x2, 0x4;\n" /* Ra layer, Ra+1 x, Rb y */
                 "TEX.2D.ARRAY R24, R10, RZ, 0x2, 0x1;\n" /* Ra layer, x, y */
                 "MOV32I R14, 0x3;\n"                     /* x 3 */
                 "MOV32I R15, 0x1;\n"                     /* y 1 */
                 "TLDS.A2D_LZ RZ, R20, R10, R14, 0x2, 0x0;\n" /* Ra layer, Rb x, Rb+1 y */
                 "EXIT;\n");
    CHECK_EQ(run_env(prog, &W, &env, 0xff, &F), 0);
    for (int l = 0; l < 8; l++) {
        CHECK_EQ(W.r[10][l], (uint32_t)(l == 7 ? 3 : want[l])); /* F2I: 3 unclamped */
        CHECK_EQ(W.r[4][l], u8f(40 * want[l] + 10));
        CHECK_EQ(W.r[5][l], u8f(16));
        CHECK_EQ(W.r[6][l], u8f(32));
        CHECK_EQ(W.r[7][l], 0x3f800000u);
        CHECK_EQ(W.r[24][l], u8f(40 * want[l] + 10));
        /* TLDS: a layer past the last reads zero, like a texel out of range */
        CHECK_EQ(W.r[20][l], l == 7 ? 0u : u8f(40 * want[l] + 10));
    }

    /* Two levels (MAX_MIP_LEVEL 1, the view 0..1): a layer is level 0 (one
     * GOB, 512 bytes) and level 1 (2x2, one GOB), 1024 bytes; layer 1's
     * level 1 is at 1024 + 512. Its texel (x, y): R 200 + x, G 20y. */
    for (uint32_t y = 0; y < 2; y++)
        for (uint32_t x = 0; x < 2; x++)
            put_texel(TEX_VA + 1024 + 512, x, y, (uint8_t)(200 + x), (uint8_t)(20 * y), 0);
    for (uint32_t y = 0; y < 4; y++)
        for (uint32_t x = 0; x < 4; x++)
            put_texel(TEX_VA + 1024, x, y, 77, 0, 0); /* layer 1, level 0 */
    env_default(&env);
    target_setup(&env, 5, 4, 4, 1, 0, 0x92, 0x91); /* NEAREST, mip NEAREST */
    uint32_t w3 = 1u << 28, w7 = 1u << 4;
    CHECK_EQ(cg_vas_cpu_write(E.vas, TIC_VA + 12, &w3, 4), 0);
    CHECK_EQ(cg_vas_cpu_write(E.vas, TIC_VA + 28, &w7, 4), 0);
    uint32_t tsc2 = 0xf00u << 12; /* max LOD clamp 15 */
    CHECK_EQ(cg_vas_cpu_write(E.vas, TSC_VA + 8, &tsc2, 4), 0);
    CHECK_EQ(run_env("MOV32I R10, 0x1;\n"                    /* layer 1 */
                     "MOV32I R11, 0x3f400000;\n"              /* x 0.75: level 1 texel 1 */
                     "MOV32I R12, 0x3f400000;\n"              /* y 0.75: texel 1 */
                     "MOV32I R13, 0x3f800000;\n"              /* level 1.0 */
                     "TEX.LL.2D.ARRAY R24, R10, R13, 0x2, 0x3;\n" /* Rb: the level */
                     "TEXS.A2D_LZ RZ, R20, R10, R12, 0x2, 0x0;\n"
                     "EXIT;\n",
                     &W, &env, 0x1, &F),
             0);
    CHECK_EQ(W.r[24][0], u8f(201));
    CHECK_EQ(W.r[25][0], u8f(20));
    CHECK_EQ(W.r[20][0], u8f(77));
}

/* 3D, 4x4x4, blocks of 1 x 1 x 2 GOBs (W3 block depth 1): slice z at
 * (z / 2) * 1024 + (z % 2) * 512. Texel (x, y, z): R 60z + 15, G 16x,
 * B 16y. LINEAR: the slice coordinate z * 4 - 0.5 blends slices floor and
 * floor + 1 by its fraction; x and y sit on texel centres (weight 0). */
static void test_tex_3d(void)
{
    for (uint32_t z = 0; z < 4; z++)
        for (uint32_t y = 0; y < 4; y++)
            for (uint32_t x = 0; x < 4; x++)
                put_texel(TEX_VA + (z / 2) * 1024 + (z % 2) * 512, x, y, (uint8_t)(60 * z + 15),
                          (uint8_t)(16 * x), (uint8_t)(16 * y));
    static const float zf[6] = {0.125f, 0.625f, 0.25f, 0.0f, 1.0f, 0.5625f};
    uint32_t zv[6], zi[6] = {0, 1, 2, 3, 2, 1};
    for (int l = 0; l < 6; l++)
        zv[l] = fbits(zf[l]);
    char prog[4096] = "S2R R0, SR_LANEID;\n";
    lane_movs(prog, sizeof prog, 12, zv, 6);
    lane_movs(prog, sizeof prog, 16, zi, 6);
    strcat(prog, "MOV32I R10, 0x3ec00000;\n"              /* x 0.375: texel 1 */
                 "MOV32I R11, 0x3f200000;\n"              /* y 0.625: texel 2 */
                 "TEXS.3D R6, R4, R10, R12, 0x2, 0x4;\n"  /* Ra x, Ra+1 y, Rb z */
                 "TEX.3D R24, R10, RZ, 0x2, 0x1;\n"       /* Ra x, y, z */
                 "MOV32I R14, 0x3;\n"
                 "MOV32I R15, 0x1;\n"
                 "TLDS.3D_LZ RZ, R20, R14, R16, 0x2, 0x0;\n" /* Ra x, Ra+1 y, Rb z */
                 "EXIT;\n");
    nv_sass_env env;
    env_default(&env);
    target_setup(&env, 2, 4, 4, 3, 1, 0x92, 0x62); /* CLAMP_TO_EDGE in u v p, LINEAR */
    CHECK_EQ(run_env(prog, &W, &env, 0x3f, &F), 0);
    /* slice centres 0 and 2; between 0 and 1 (half); z = 0 clamps (both
     * slice 0); z = 1 clamps (slice 3); 0.5625: 1.75 -> slices 1, 2 by 3/4 */
    const uint32_t r[6] = {u8f(15), u8f(135), lerp8(15, 75, 0.5f), lerp8(15, 15, 0.5f),
                           lerp8(195, 195, 0.5f), lerp8(75, 135, 0.75f)};
    for (int l = 0; l < 6; l++) {
        CHECK_EQ(W.r[4][l], r[l]);
        CHECK_EQ(W.r[5][l], u8f(16));
        CHECK_EQ(W.r[6][l], u8f(32));
        CHECK_EQ(W.r[24][l], r[l]);
        CHECK_EQ(W.r[20][l], u8f(60 * zi[l] + 15)); /* texel (3, 1, z) */
    }
    /* WRAP in p: z = 0 blends slice 3 (wrapped -1) and slice 0; NEAREST:
     * z = 0.25 is slice 1, z = 0.5625 slice 2 */
    env_default(&env);
    target_setup(&env, 2, 4, 4, 3, 1, 0x12, 0x62);
    CHECK_EQ(run_env(prog, &W, &env, 0x3f, &F), 0);
    CHECK_EQ(W.r[4][3], lerp8(195, 15, 0.5f));
    CHECK_EQ(W.r[4][0], u8f(15));
    env_default(&env);
    target_setup(&env, 2, 4, 4, 3, 1, 0x92, 0x51);
    CHECK_EQ(run_env(prog, &W, &env, 0x3f, &F), 0);
    CHECK_EQ(W.r[4][2], u8f(75));
    CHECK_EQ(W.r[4][5], u8f(135));
}

/* Cube maps, 2x2 faces, one GOB each: layer 6c + f (cube c, face f in
 * +X -X +Y -Y +Z -Z order) at 512 (6c + f). Texel (x, y): R 40f + 10 +
 * 5c, G 100x, B 100y. Each lane's face and texel worked out with the
 * OpenGL ES 3.2 section 8.13 table (s = (sc/|ma| + 1)/2, t = (tc/|ma| +
 * 1)/2, NEAREST on 2 texels: 0 below 0.5, else 1, clamped to the edge). */
static void test_tex_cube(void)
{
    for (uint32_t c = 0; c < 2; c++)
        for (uint32_t f = 0; f < 6; f++)
            for (uint32_t y = 0; y < 2; y++)
                for (uint32_t x = 0; x < 2; x++)
                    put_texel(TEX_VA + 512 * (6 * c + f), x, y, (uint8_t)(40 * f + 10 + 5 * c),
                              (uint8_t)(100 * x), (uint8_t)(100 * y));
    static const float dir[8][3] = {
        {1, 0.5f, -0.5f},   /* +X: sc -z 0.5, tc -y -0.5: s .75 t .25: (1,0) */
        {-1, 0.5f, -0.5f},  /* -X: sc +z -0.5, tc -y -0.5: (0,0) */
        {0.5f, 1, 0.5f},    /* +Y: sc +x 0.5, tc +z 0.5: (1,1) */
        {0.5f, -1, 0.5f},   /* -Y: sc +x 0.5, tc -z -0.5: (1,0) */
        {-0.5f, -0.5f, 1},  /* +Z: sc +x -0.5, tc -y 0.5: (0,1) */
        {-0.5f, 0.5f, -1},  /* -Z: sc -x 0.5, tc -y -0.5: (1,0) */
        {1, 1, 0.25f},      /* edge: |x| = |y| goes to +Y; s = 1 clamps to texel 1,
                               tc +z 0.25: t 0.625: (1,1) */
        {2, -0.5f, 0.5f},   /* +X, |ma| 2: sc -0.5 -> s .375, tc 0.5 -> t .625: (0,1) */
    };
    static const unsigned face[8] = {0, 1, 2, 3, 4, 5, 2, 0};
    static const unsigned tx[8] = {1, 0, 1, 1, 0, 1, 1, 0}, ty[8] = {0, 0, 1, 0, 1, 0, 1, 1};
    uint32_t dv[3][8], ci[8] = {0, 1, 0, 1, 0, 1, 0, 5}; /* cube 5 clamps to 1 */
    for (int l = 0; l < 8; l++)
        for (int k = 0; k < 3; k++)
            dv[k][l] = fbits(dir[l][k]);
    char prog[8192] = "S2R R0, SR_LANEID;\n";
    lane_movs(prog, sizeof prog, 9, ci, 8);
    lane_movs(prog, sizeof prog, 10, dv[0], 8);
    lane_movs(prog, sizeof prog, 11, dv[1], 8);
    lane_movs(prog, sizeof prog, 12, dv[2], 8);
    strcat(prog, "TEXS.CUBE R6, R4, R10, R12, 0x2, 0x4;\n" /* Ra x, Ra+1 y, Rb z */
                 "TEX.CUBE R24, R10, RZ, 0x2, 0x7;\n"      /* Ra x, y, z */
                 "TEX.CUBE.ARRAY R28, R9, RZ, 0x2, 0x1;\n" /* Ra cube, x, y, z */
                 "EXIT;\n");
    nv_sass_env env;
    env_default(&env);
    target_setup(&env, 8, 2, 2, 1, 0, 0x00, 0x51); /* CUBE_ARRAY of 2; WRAP (ignored), NEAREST */
    CHECK_EQ(run_env(prog, &W, &env, 0xff, &F), 0);
    for (int l = 0; l < 8; l++) {
        unsigned c = ci[l] > 1 ? 1 : ci[l];
        CHECK_EQ(W.r[4][l], u8f(40 * face[l] + 10));
        CHECK_EQ(W.r[5][l], u8f(100 * tx[l]));
        CHECK_EQ(W.r[6][l], u8f(100 * ty[l]));
        CHECK_EQ(W.r[24][l], u8f(40 * face[l] + 10));
        CHECK_EQ(W.r[25][l], u8f(100 * tx[l]));
        CHECK_EQ(W.r[26][l], u8f(100 * ty[l]));
        CHECK_EQ(W.r[28][l], u8f(40 * face[l] + 10 + 5 * c));
    }
}

/* A 64x64 A8B8G8R8 block-linear texture (GOBs of one block, 16 KB: four
 * pages), texel (x, y) = (x, y, 0x80, 0xff); 32 lanes at texel (2l, 2l)
 * read all four pages in place. Then the same texture placed so that its
 * fourth page lies past the end of the mapping: the first lane in lane
 * order whose texel lies there faults, with that texel's address. */
static void tex64_put(uint64_t va, uint32_t rows)
{
    for (uint32_t y = 0; y < rows; y++)
        for (uint32_t x = 0; x < 64; x++) {
            uint32_t t = x | y << 8 | 0x80u << 16 | 0xffu << 24, xb = 4 * x;
            uint64_t off = (xb / 64) * 512 + (y / 8) * 2048 + ((xb % 64) / 32) * 256 +
                           ((y % 8) / 2) * 64 + ((xb % 32) / 16) * 32 + (y % 2) * 16 + xb % 16;
            CHECK_EQ(cg_vas_cpu_write(E.vas, va + off, &t, 4), 0);
        }
    uint32_t w[4] = {(uint32_t)va, (uint32_t)(va >> 32) | 3u << 21, 0, 63u | 1u << 23};
    CHECK_EQ(cg_vas_cpu_write(E.vas, TIC_VA + 4, w, sizeof w), 0);
    uint32_t h = 63u | 1u << 31;
    CHECK_EQ(cg_vas_cpu_write(E.vas, TIC_VA + 20, &h, 4), 0);
}

static void test_tex_pages(void)
{
    nv_sass_env env;
    env_default(&env);
    tex_setup(&env, 0x00, 0x51, TEX_VA); /* WRAP, NEAREST */
    tex64_put(TEX_VA, 64);
    const char *prog = "S2R R0, SR_LANEID;\n"
                       "SHL R0, R0, 0x1;\n"
                       "I2F.F32.S32 R1, R0;\n"
                       "FADD R1, R1, 0.5;\n"
                       "FMUL R1, R1, 0.015625;\n" /* (2l + 0.5) / 64 */
                       "TEXS.2D_LZ R6, R4, R1, R1, 0x2, 0x4;\n"
                       "EXIT;\n";
    CHECK_EQ(run_env(prog, &W, &env, 0xffffffffu, &F), 0);
    for (int l = 0; l < NV_WARP; l++) {
        CHECK_EQ(W.r[4][l], fbits((float)(2 * l) * (float)(1.0 / 255.0)));
        CHECK_EQ(W.r[5][l], fbits((float)(2 * l) * (float)(1.0 / 255.0)));
        CHECK_EQ(W.r[6][l], fbits(128.0f * (float)(1.0 / 255.0)));
        CHECK_EQ(W.r[7][l], 0x3f800000);
    }
    /* rows 48..63 (lanes 24..31) in the page past the mapping's end */
    uint64_t va = E.data_va + ENV_DATA_SIZE - 0x3000;
    tex64_put(va, 48);
    CHECK_EQ(run_env(prog, &W, &env, 0xffffffffu, &F), CG_ERR_FAULT);
    CHECK_EQ(F.kind, CG_FAULT_UNMAPPED);
    CHECK_EQ(F.va, va + 3 * 512 + 6 * 2048); /* lane 24: texel (48, 48), GOB (3, 6) */
    CHECK_EQ(F.pc, 0x88);
}

/* A TIC/TSC cache kept across runs (as the pipeline keeps one per draw):
 * changed pool words are seen on the next use, an entry moved to unmapped
 * texture memory faults with the texel's address, and the old words again
 * give the old texels. 32 lanes (the whole-warp paths). */
static void test_tex_cache(void)
{
    nv_sass_env env;
    env_default(&env);
    nv_sass_tex_cache *tc = nv_sass_tex_cache_new();
    CHECK(tc != NULL);
    env.tcache = tc;
    const char *prog = "MOV32I R1, 0x3fc00000;\n" /* u = 1.5: x = 6, WRAP -> texel 2 */
                       "MOV32I R2, 0x3e800000;\n" /* v = 0.25: row 1 */
                       "TEXS.2D_LZ R6, R4, R1, R2, 0x2, 0x4;\n"
                       "EXIT;\n";
    float c64 = 64.0f * (float)(1.0 / 255.0);
    for (int round = 0; round < 2; round++) {
        tex_setup(&env, 0x00, 0x51, TEX_VA); /* WRAP, NEAREST */
        CHECK_EQ(run_env(prog, &W, &env, 0xffffffffu, &F), 0);
        CHECK_EQ(W.r[4][0], fbits(2 * c64));  /* R = 64 x */
        CHECK_EQ(W.r[5][31], fbits(c64));     /* G = 64 y */
        CHECK_EQ(W.r[7][17], 0x3f800000);
        /* the same TIC, the TSC's wrap now BORDER: the border colour */
        uint32_t w0 = 0xdb;
        CHECK_EQ(cg_vas_cpu_write(E.vas, TSC_VA, &w0, 4), 0);
        CHECK_EQ(run_env(prog, &W, &env, 0xffffffffu, &F), 0);
        CHECK_EQ(W.r[4][5], 0x3f800000);      /* border (1, 0, 0, 0.5) */
        CHECK_EQ(W.r[5][5], 0);
        CHECK_EQ(W.r[7][5], 0x3f000000);
        /* the TIC's address moved to unmapped memory */
        w0 = 0x00;
        CHECK_EQ(cg_vas_cpu_write(E.vas, TSC_VA, &w0, 4), 0);
        uint32_t hi = 0x7fu | 3u << 21;
        uint32_t lo = 0;
        CHECK_EQ(cg_vas_cpu_write(E.vas, TIC_VA + 4, &lo, 4), 0);
        CHECK_EQ(cg_vas_cpu_write(E.vas, TIC_VA + 8, &hi, 4), 0);
        CHECK_EQ(run_env(prog, &W, &env, 0xffffffffu, &F), CG_ERR_FAULT);
        CHECK_EQ(F.kind, CG_FAULT_UNMAPPED);
        CHECK_EQ(F.va, 0x7f00000000ull + 16 + 2 * 4); /* texel (2, 1) in its GOB */
        CHECK_EQ(F.pc, 0x68);
    }
    nv_sass_tex_cache_free(tc);
}

static void test_faults(void)
{
    nv_sass_env env;
    /* a branch out of the region: the target is code + 0x100000 */
    CHECK_EQ(run("BRA 0x100000;\n", &W, &F), CG_ERR_FAULT);
    CHECK_EQ(F.kind, CG_FAULT_ADDR_RANGE);
    CHECK_EQ(F.va, PROG_VA + 0x50 + 0x100000);
    CHECK_EQ(F.pc, 0x58);
    /* SYNC with an empty stack */
    CHECK_EQ(run("MOV R0, RZ;\nSYNC;\n", &W, &F), CG_ERR_FAULT);
    CHECK_EQ(F.kind, CG_FAULT_BAD_STATE);
    CHECK_EQ(F.pc, 0x60);
    CHECK_STR(F.msg, "SYNC with no SSY on the reconvergence stack at 0x60");
    /* constant buffer read past its size */
    static uint32_t cb0[4];
    env_default(&env);
    env.cb[0] = cb0;
    env.cb_size[0] = sizeof cb0;
    CHECK_EQ(run_env("MOV R0, c[0x0][0xc];\nMOV R1, c[0x0][0x10];\nEXIT;\n", &W, &env, 1, &F),
             CG_ERR_FAULT);
    CHECK_EQ(F.kind, CG_FAULT_BAD_LENGTH);
    CHECK_STR(F.msg, "c[0x0][0x10] read past the constant buffer's 0x10 bytes at 0x60");
    CHECK_EQ(run_env("MOV R1, c[0x2][0x0];\nEXIT;\n", &W, &env, 1, &F), CG_ERR_FAULT);
    CHECK_EQ(F.kind, CG_FAULT_BAD_STATE);
    /* unsupported instruction: its text and pc */
    CHECK_EQ(run("MOV R0, RZ;\nMOV R1, RZ;\nFADD.CC R0, R1, R2;\nEXIT;\n", &W, &F),
             CG_ERR_FAULT);
    CHECK_EQ(F.kind, CG_FAULT_UNSUPPORTED);
    CHECK_STR(F.msg, "not supported yet: FADD.CC R0, R1, R2 at 0x68");
    CHECK_EQ(F.word, 0x5c58800000270100ull);
    /* a loop that never ends: the budget */
    env_default(&env);
    env.budget = 1000;
    CHECK_EQ(run_env("MOV R0, RZ;\nloop:\nIADD32I R0, R0, 0x1;\nBRA loop;\n", &W, &env, 3, &F),
             CG_ERR_FAULT);
    CHECK_EQ(F.kind, CG_FAULT_HANG);
    CHECK_EQ(F.pc, 0x68);
    CHECK_EQ(W.executed, 1001);
    CHECK_STR(F.msg, "instruction budget of 1000 ran out at pc 0x68");
    /* the stack overflows: SSY without SYNC in a loop */
    CHECK_EQ(run("loop:\nSSY loop;\nBRA loop;\n", &W, &F), CG_ERR_FAULT);
    CHECK_EQ(F.kind, CG_FAULT_DEPTH);
    /* BRK without PBK */
    CHECK_EQ(run("BRK;\n", &W, &F), CG_ERR_FAULT);
    CHECK_EQ(F.kind, CG_FAULT_BAD_STATE);
    /* running off the end of the decoded program (no EXIT before zeros) */
    CHECK_EQ(run("MOV R0, RZ;\n", &W, &F), CG_ERR_FAULT);
    CHECK_EQ(F.kind, CG_FAULT_UNSUPPORTED);
    /* an unmapped program faults at build time with its address */
    nv_sass_prog *p = NULL;
    CHECK_EQ(nv_sass_prog_build(E.vas, NULL, 0x7e00000000ull, 0x10000, 0x7e00000100ull,
                                NV_STAGE_VERTEX, &p, &F),
             CG_ERR_FAULT);
    CHECK(p == NULL);
    CHECK_EQ(F.kind, CG_FAULT_UNMAPPED);
    CHECK_EQ(F.va, 0x7e00000100ull);
    /* a program that does not fit its region */
    CHECK_EQ(nv_sass_prog_build(E.vas, NULL, PROG_VA, 0x40, PROG_VA, NV_STAGE_VERTEX, &p, &F),
             CG_ERR_FAULT);
    CHECK_EQ(F.kind, CG_FAULT_ADDR_RANGE);
}

/* ALD/AST without an index register (word by word over the lanes): only
 * the lanes of the warp; ALD.O reads back what AST wrote; RZ as the data
 * register; past the attribute space faults at its first word. */
static void test_attr_lanes(void)
{
    static uint32_t in[NV_WARP][NV_ATTR_WORDS], out[NV_WARP][NV_ATTR_WORDS];
    nv_sass_env env;
    env_default(&env);
    env.attr_in = in;
    env.attr_out = out;
    memset(out, 0, sizeof out);
    for (int l = 0; l < NV_WARP; l++)
        for (int k = 0; k < 4; k++)
            in[l][0x90 / 4 + k] = 0x100u * (uint32_t)l + (uint32_t)k;
    CHECK_EQ(run_env("MOV32I R8, 0x77;\n"
                     "ALD.96 R1, a[0x94], RZ;\n"
                     "AST.64 a[0x100], R1, RZ;\n"
                     "AST a[0x108], RZ, RZ;\n"
                     "ALD.O.64 R5, a[0x104], RZ;\n"
                     "EXIT;\n",
                     &W, &env, 0x00ff00f0u, &F),
             0);
    CHECK_EQ(W.r[1][4], 0x401);
    CHECK_EQ(W.r[3][23], 0x1703);
    CHECK_EQ(W.r[1][3], 0); /* not in the warp */
    CHECK_EQ(W.r[2][8], 0);
    CHECK_EQ(out[5][0x100 / 4], 0x501);
    CHECK_EQ(out[5][0x104 / 4], 0x502);
    CHECK_EQ(out[5][0x108 / 4], 0);
    CHECK_EQ(out[3][0x100 / 4], 0); /* not in the warp */
    CHECK_EQ(W.r[5][20], 0x1402);
    CHECK_EQ(W.r[6][20], 0);
    CHECK_EQ(W.r[8][20], 0x77);
    /* a[0x3f8] .128 runs past a[0x3fc]: the first lane's first bad word */
    CHECK_EQ(run_env("ALD.128 R0, a[0x3f8], RZ;\nEXIT;\n", &W, &env, 0x00ff00f0u, &F),
             CG_ERR_FAULT);
    CHECK_EQ(F.kind, CG_FAULT_ADDR_RANGE);
    CHECK(strstr(F.msg, "attribute a[0x400] out of range") != NULL);
}

static void test_build_info(void)
{
    /* the build stops at the unconditional EXIT past every branch target */
    load("SSY l;\nBRA @P0 l;\nEXIT @P1;\nl:\nSYNC;\nEXIT;\nMOV R0, RZ;\nMOV R0, RZ;\n");
    nv_sass_prog *p;
    CHECK_EQ(nv_sass_prog_build(E.vas, NULL, E.data_va, REGION_SIZE + 0x10000, PROG_VA,
                                NV_STAGE_VERTEX, &p, &F),
             0);
    nv_sass_prog_info info;
    nv_sass_prog_get_info(p, &info);
    CHECK_EQ(info.insns, 5);
    CHECK_EQ(info.sched_words, 2);
    CHECK_EQ(info.stall_cycles, 6 * 15); /* default control words: stall 15 */
    CHECK_EQ(info.unsupported, 0);
    CHECK_EQ(info.reg_limit, 0); /* no register but RZ (the MOVs lie past the end) */
    CHECK(!info.reads_outputs);
    nv_sass_prog_free(p);
    /* the highest register named (TEXS's Rd2 R9; it writes R9, R10), + 4 */
    load("ALD.O.64 R2, a[0x70], RZ;\nMOV R7, R3;\nTEXS.2D R9, R0, R0, R1, 0x8, 0x4;\nEXIT;\n");
    CHECK_EQ(nv_sass_prog_build(E.vas, NULL, E.data_va, REGION_SIZE + 0x10000, PROG_VA,
                                NV_STAGE_VERTEX, &p, &F),
             0);
    nv_sass_prog_get_info(p, &info);
    CHECK_EQ(info.reg_limit, 13);
    CHECK(info.reads_outputs);
    nv_sass_prog_free(p);
}

int main(void)
{
    env_init(&E);
    test_moves();
    test_float();
    test_int();
    test_xmad_carry();
    test_conv_round();
    test_conv_half();
    test_preds();
    test_lop3_nan();
    test_icmp();
    test_imul();
    test_divergence();
    test_attr_lanes();
    test_tex_pages();
    test_memory();
    test_attributes();
    test_texture();
    test_texture_view();
    test_tex_array();
    test_tex_3d();
    test_tex_cube();
    test_tex_cache();
    test_faults();
    test_build_info();
    env_fini(&E);
    return check_report("test_nv_sass_exec");
}
