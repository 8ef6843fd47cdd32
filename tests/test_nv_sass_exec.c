/* nv-sass-exec: the Maxwell warp interpreter (src/nv/sass_exec*.c). Programs
 * are written in the nv-sass assembly dialect (cg_nv_sass_assemble), placed
 * after a zero SPH in GPU memory, built with nv_sass_prog_build and run over
 * one warp; every expected value is worked out by hand in the comments. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "nv_testenv.h"
#include "cmdgpu/nv_sass.h"
#include "nv/sass_exec.h"

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

int main(void)
{
    env_init(&E);
    test_moves();
    test_float();
    env_fini(&E);
    return check_report("test_nv_sass_exec");
}
