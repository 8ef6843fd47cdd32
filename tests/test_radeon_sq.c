/* The R600/R700 shader core (src/radeon/gpu/sq*.c, docs/radeon-sq.md):
 * hand-assembled programs (the radeon-isa assembler) run over a few lanes
 * and checked lane by lane: arithmetic (DX9 vs IEEE MUL), a VLIW group
 * reading old values, PV/PS, literals, kcache and the constant file,
 * integer ops, predicates and an if/else with a divergent mask, a loop with
 * a break, MOVA-relative GPRs, VTX fetches (formats, endian swap), exports,
 * the Linux kernel's r6xx blit shaders; hostile programs with their exact
 * fault kinds and messages.
 *
 * SQ_VERBOSE=1 prints the fault of each program that ends in one;
 * SQ_CORPUS=DIR writes every assembled program as a seed for
 * fuzz/fuzz_radeon_sq.c (how fuzz/corpus/radeon_sq/test_* were made). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "cmdgpu/asm.h"
#include "cmdgpu/device.h"
#include "cmdgpu/fault.h"
#include "radeon/gpu/sq.h"
#include "radeon/isa.h"
#include "radeon/text/isa_text.h"

static cg_device *dev;
static uint32_t prog[512];
static rd_sq_wave *W;
static rd_sq_out O;
static rd_sq_env E;

static uint32_t fu(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}
static float uf(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

/* Assemble text into prog; the dwords. */
static size_t assemble(r6_chip c, const char *text)
{
    rd_isa_asm_state st = {c, c};
    cg_asm *as;
    if (cg_asm_create(rd_isa_asm_family(), &st, &as))
        return 0;
    cg_asm_add_source(as, "t.s", text, strlen(text));
    size_t n = 0;
    if (cg_asm_assemble(as)) {
        fprintf(stderr, "%s", cg_asm_errors(as));
        CHECK(!"assembles");
    } else {
        const char *name;
        uint64_t base;
        const uint8_t *d = NULL;
        if (cg_asm_section_count(as))
            cg_asm_section(as, 0, &name, &base, &d, &n);
        if (n > sizeof prog)
            n = sizeof prog;
        for (size_t i = 0; i + 4 <= n; i += 4)
            prog[i / 4] = (uint32_t)d[i] | (uint32_t)d[i + 1] << 8 | (uint32_t)d[i + 2] << 16 |
                          (uint32_t)d[i + 3] << 24;
    }
    cg_asm_destroy(as);
    return n / 4;
}

/* A fresh wave of `lanes` lanes and a default environment. */
static void fresh(r6_chip c, unsigned lanes)
{
    memset(W, 0, sizeof *W);
    W->live = lanes >= 64 ? ~0ull : (1ull << lanes) - 1;
    rd_sq_out_free(&O);
    O.killed = 0;
    memset(&E, 0, sizeof E);
    E.chip = c;
    E.code = prog;
    E.gpu_addr = 0x100000;
    E.dev = dev;
    E.channel = -1;
    cg_fault_clear(dev);
}

static int run_text(const char *text)
{
    E.ndw = assemble(E.chip, text);
    /* SQ_CORPUS=DIR writes each program as a seed of fuzz/fuzz_radeon_sq.c */
    static int seq;
    const char *dir = getenv("SQ_CORPUS");
    if (dir) {
        char path[512];
        snprintf(path, sizeof path, "%s/test_%02d", dir, seq++);
        FILE *f = fopen(path, "wb");
        if (f) {
            uint8_t hdr[3] = {(uint8_t)E.chip, 3, 32};
            fwrite(hdr, 1, 3, f);
            fwrite(prog, 4, E.ndw, f);
            fclose(f);
        }
    }
    int rc = rd_sq_run(&E, W, &O);
    if (rc && getenv("SQ_VERBOSE") && cg_fault_count(dev))
        fprintf(stderr, "fault: %s\n", cg_fault_get(dev, cg_fault_count(dev) - 1)->message);
    return rc;
}

static void setf(unsigned r, unsigned ch, const float *v, unsigned n)
{
    for (unsigned l = 0; l < n; l++)
        W->gpr[r][ch][l] = fu(v[l]);
}

static void want_fault(cg_fault_kind kind, uint64_t stream, const char *msg)
{
    CHECK_EQ(cg_fault_count(dev), 1);
    const cg_fault *f = cg_fault_count(dev) ? cg_fault_get(dev, cg_fault_count(dev) - 1) : NULL;
    if (!f)
        return;
    CHECK_STR(cg_fault_kind_name(f->kind), cg_fault_kind_name(kind));
    CHECK_STR(f->unit, "sq");
    CHECK_EQ(f->stream_addr, stream);
    CHECK_STR(f->message, msg);
}

/* ---- arithmetic, VLIW, PV/PS, literals ---- */
static void test_alu(void)
{
    fresh(R6_R600, 4);
    float x[4] = {0.0f, 1.0f, 2.0f, INFINITY}, y[4] = {INFINITY, 3.0f, -2.0f, 0.0f};
    setf(1, 0, x, 4);
    setf(1, 1, y, 4);
    int rc = run_text(".chip r600\n"
                      "ALU 10 @4\n"
                      "EXPORT PARAM 0-3 R1-4.xyzw\n"
                      "EXPORT_DONE POS 60 R0.xyzw EOP\n"
                      ".word 0, 0\n"
                      "x  MUL R2.x, R1.x, R1.y\n"
                      "y  MUL_IEEE R2.y, R1.x, R1.y\n"
                      "z  ADD R2.z, R1.x, [0x40000000 2.0].x\n"
                      "w  MOV R2.w, R1.y\n"
                      "t  RECIP_IEEE R3.x, R1.x LAST\n"
                      ".word 0x40000000, 0\n"
                      "x  MOV R1.x, R1.y\n"
                      "y  MOV R1.y, R1.x\n"
                      "z  MOV R4.z, PV.z\n"
                      "w  ADD R4.w, PS, 0 LAST\n");
    CHECK_EQ(rc, 0);
    CHECK_EQ(cg_fault_count(dev), 0);
    for (unsigned l = 0; l < 4; l++) {
        /* MUL: 0 * inf = 0 (DX9); MUL_IEEE: NaN */
        float dx9 = (x[l] == 0 || y[l] == 0) ? 0.0f : x[l] * y[l];
        CHECK_EQ(W->gpr[2][0][l], fu(dx9));
        if (x[l] == 0 || y[l] == 0)
            CHECK(isnan(uf(W->gpr[2][1][l])));
        else
            CHECK_EQ(W->gpr[2][1][l], fu(x[l] * y[l]));
        CHECK_EQ(W->gpr[2][2][l], fu(x[l] + 2.0f));
        CHECK_EQ(W->gpr[3][0][l], fu(1.0f / x[l]));
        CHECK_EQ(W->gpr[4][2][l], fu(x[l] + 2.0f)); /* PV.z */
        CHECK_EQ(W->gpr[4][3][l], fu(1.0f / x[l] + 0.0f)); /* PS */
        /* the swap read both old values */
        CHECK_EQ(W->gpr[1][0][l], fu(y[l]));
        CHECK_EQ(W->gpr[1][1][l], fu(x[l]));
    }
    CHECK_EQ(O.n, 5);
    const rd_sq_export *e = rd_sq_out_find(&O, RD_SQ_EXP_PARAM, 2);
    CHECK(e != NULL);
    if (e) {
        CHECK_EQ(e->lanes, 0xF);
        CHECK_EQ(e->v[1][0], fu(1.0f));
        CHECK(!e->done);
    }
    e = rd_sq_out_find(&O, RD_SQ_EXP_POS, 60);
    CHECK(e && e->done);
}

/* kcache, the constant file, integer ops, SET*_DX10, CND, MULLO in t */
static void test_consts_int(void)
{
    fresh(R6_R700, 4);
    static uint32_t cb1[32][4], cf[256][4];
    for (unsigned i = 0; i < 32; i++)
        for (unsigned k = 0; k < 4; k++)
            cb1[i][k] = fu((float)(100 * i + k));
    cf[5][0] = fu(0.5f);
    E.cb[1].c = (const uint32_t(*)[4])cb1;
    E.cb[1].n = 32;
    E.cfile = (const uint32_t(*)[4])cf;
    float x[4] = {-1.0f, 0.5f, 0.75f, 0.0f};
    setf(1, 0, x, 4);
    for (unsigned l = 0; l < 4; l++)
        W->gpr[1][2][l] = (uint32_t)(l * 7);
    int rc = run_text(".chip r700\n"
                      "ALU 5 @2 KC0[CB1:16-32]\n"
                      "EXPORT_DONE PARAM 0 R2.xyzw EOP\n"
                      "x  ADD R2.x, KC0[2].y, C5.x\n"
                      "y  SETGT_DX10 R2.y, R1.x, 0.5\n"
                      "z  ADD_INT R2.z, R1.z, -1\n"
                      "w  CNDGE R2.w, R1.x, 1.0, 0\n"
                      "t  MULLO_INT R3.x, R1.z, R1.z LAST\n");
    CHECK_EQ(rc, 0);
    for (unsigned l = 0; l < 4; l++) {
        CHECK_EQ(W->gpr[2][0][l], fu(1801.0f + 0.5f)); /* constant 18.y */
        CHECK_EQ(W->gpr[2][1][l], x[l] > 0.5f ? 0xFFFFFFFFu : 0);
        CHECK_EQ(W->gpr[2][2][l], l * 7 - 1);
        CHECK_EQ(W->gpr[2][3][l], fu(x[l] >= 0.0f ? 1.0f : 0.0f));
        CHECK_EQ(W->gpr[3][0][l], l * 7 * l * 7);
    }
    /* KC0[16] outside a one-line lock; the R600 lock past the buffer */
    fresh(R6_R600, 2);
    E.cb[1].c = (const uint32_t(*)[4])cb1;
    E.cb[1].n = 32;
    rc = run_text(".chip r600\nALU 1 @2 KC0[CB1:16-32]\nEXPORT_DONE PARAM 0 R2.xyzw EOP\n"
                  "x  MOV R2.x, KC0[16].x LAST\n");
    CHECK_EQ(rc, CG_ERR_FAULT);
    want_fault(CG_FAULT_BAD_STATE, 0x100000 + 16,
               "MOV at dword 4: KC0[16] is outside the 16 constants the clause locked");
    fresh(R6_R600, 2);
    E.cb[1].c = (const uint32_t(*)[4])cb1;
    E.cb[1].n = 32;
    rc = run_text(".chip r600\nALU 1 @2 KC0[CB1:32-48]\nEXPORT_DONE PARAM 0 R2.xyzw EOP\n"
                  "x  MOV R2.x, KC0[3].x LAST\n");
    CHECK_EQ(rc, CG_ERR_FAULT);
    want_fault(CG_FAULT_BAD_LENGTH, 0x100000 + 16,
               "MOV at dword 4: KC0[3] reads constant 35 of buffer 1, which has 32");
}

/* PRED_SETGT with UPDATE_EXECUTE_MASK, JUMP / ELSE / ALU_POP_AFTER */
static void test_if_else(void)
{
    fresh(R6_R600, 4);
    float x[4] = {0.0f, 1.0f, 2.0f, 0.25f};
    setf(1, 0, x, 4);
    for (unsigned l = 0; l < 4; l++)
        W->gpr[5][0][l] = fu(7.0f);
    int rc = run_text(".chip r600\n"
                      "ALU_PUSH_BEFORE 1 @8\n"
                      "JUMP @3\n"
                      "ALU 1 @9\n"
                      "ELSE @5 POP:1\n"
                      "ALU_POP_AFTER 1 @10\n"
                      "EXPORT_DONE PARAM 0 R2.xyzw EOP\n"
                      ".word 0, 0, 0, 0\n"
                      "x  PRED_SETGT R5.x, R1.x, 0.5 UEM UP LAST\n"
                      "x  MOV R2.x, 1.0 LAST\n"
                      "x  MOV R2.x, 0.5 LAST\n");
    CHECK_EQ(rc, 0);
    CHECK_EQ(cg_fault_count(dev), 0);
    for (unsigned l = 0; l < 4; l++) {
        CHECK_EQ(W->gpr[2][0][l], fu(x[l] > 0.5f ? 1.0f : 0.5f));
        /* PRED_SET*: 0.0 where the condition holds, 1.0 where not */
        CHECK_EQ(W->gpr[5][0][l], fu(x[l] > 0.5f ? 0.0f : 1.0f));
    }
    const rd_sq_export *e = rd_sq_out_find(&O, RD_SQ_EXP_PARAM, 0);
    CHECK(e && e->lanes == 0xF);
    /* every lane false: the JUMP skips the then-clause */
    fresh(R6_R600, 2);
    E.ndw = 0;
    rc = run_text(".chip r600\n"
                  "ALU_PUSH_BEFORE 1 @8\n"
                  "JUMP @3\n"
                  "ALU 1 @9\n"
                  "ELSE @5 POP:1\n"
                  "ALU_POP_AFTER 1 @10\n"
                  "EXPORT_DONE PARAM 0 R2.xyzw EOP\n"
                  ".word 0, 0, 0, 0\n"
                  "x  PRED_SETGT R5.x, R1.x, 0.5 UEM UP LAST\n"
                  "x  MOV R2.x, 1.0 LAST\n"
                  "x  MOV R2.x, 0.5 LAST\n");
    CHECK_EQ(rc, 0);
    CHECK_EQ(W->gpr[2][0][0], fu(0.5f));
    CHECK_EQ(W->gpr[2][0][1], fu(0.5f));
    /* two nested pushes closed by one ALU_POP2_AFTER */
    fresh(R6_R700, 4);
    setf(1, 0, x, 4);
    rc = run_text(".chip r700\n"
                  "ALU_PUSH_BEFORE 1 @6\n"
                  "ALU_PUSH_BEFORE 1 @7\n"
                  "ALU_POP2_AFTER 1 @8\n"
                  "ALU 1 @9\n"
                  "EXPORT_DONE PARAM 0 R2.xyzw EOP\n"
                  ".word 0, 0\n"
                  "x  PRED_SETGT __.x, R1.x, 0.5 UEM UP LAST\n"
                  "x  PRED_SETGE __.x, R1.x, 1.0 UEM UP LAST\n"
                  "x  MOV R2.x, 1.0 LAST\n"
                  "y  ADD R2.y, R2.y, 1.0 LAST\n");
    CHECK_EQ(rc, 0);
    for (unsigned l = 0; l < 4; l++) {
        CHECK_EQ(W->gpr[2][0][l], x[l] > 0.5f && x[l] >= 1.0f ? fu(1.0f) : 0);
        CHECK_EQ(W->gpr[2][1][l], fu(1.0f));
    }
    /* an if without else as Mesa's tgsi_endif leaves it: the JUMP goes past
     * the POP and pops 1 itself */
    for (int all_false = 0; all_false < 2; all_false++) {
        fresh(R6_R600, 4);
        setf(1, 0, x, 4);
        if (all_false)
            memset(W->gpr[1][0], 0, 16);
        rc = run_text(".chip r600\n"
                      "ALU_PUSH_BEFORE 1 @6\n"
                      "JUMP @4 POP:1\n"
                      "ALU 1 @7\n"
                      "POP @4 POP:1\n"
                      "EXPORT_DONE PARAM 0 R2.xyzw EOP\n"
                      ".word 0, 0\n"
                      "x  PRED_SETNE R5.x, R1.x, 0 UEM UP LAST\n"
                      "x  MOV R2.x, 1.0 LAST\n");
        CHECK_EQ(rc, 0);
        for (unsigned l = 0; l < 4; l++)
            CHECK_EQ(W->gpr[2][0][l], !all_false && x[l] != 0.0f ? fu(1.0f) : 0);
        e = rd_sq_out_find(&O, RD_SQ_EXP_PARAM, 0);
        CHECK(e && e->lanes == 0xF);
    }
}

/* a counted loop whose lanes break at their own limit */
static void test_loop(void)
{
    fresh(R6_R700, 4);
    E.loop_const[0] = 10 | (0u << 12) | (1u << 24);
    float lim[4] = {1.0f, 3.0f, 5.0f, 20.0f};
    setf(1, 0, lim, 4);
    int rc = run_text(".chip r700\n"
                      "LOOP_START @7 CONST:0\n"
                      "ALU 1 @10\n"
                      "ALU_PUSH_BEFORE 1 @11\n"
                      "JUMP @5\n"
                      "LOOP_BREAK @6\n"
                      "POP @6 POP:1\n"
                      "LOOP_END @1\n"
                      "EXPORT_DONE PARAM 0 R2.xyzw EOP\n"
                      ".word 0, 0, 0, 0\n"
                      "x  ADD R2.x, R2.x, 1.0 LAST\n"
                      "x  PRED_SETGE R5.x, R2.x, R1.x UEM UP LAST\n");
    CHECK_EQ(rc, 0);
    CHECK_EQ(cg_fault_count(dev), 0);
    float want[4] = {1.0f, 3.0f, 5.0f, 10.0f};
    for (unsigned l = 0; l < 4; l++)
        CHECK_EQ(W->gpr[2][0][l], fu(want[l]));
    const rd_sq_export *e = rd_sq_out_find(&O, RD_SQ_EXP_PARAM, 0);
    CHECK(e && e->lanes == 0xF);
}

/* MOVA_FLOOR then R[10+AR].y; an AR that leaves the GPRs */
static void test_mova(void)
{
    fresh(R6_R600, 4);
    float a[4] = {0.5f, 1.75f, 2.0f, 3.25f};
    setf(1, 0, a, 4);
    for (unsigned r = 10; r < 14; r++)
        for (unsigned l = 0; l < 4; l++)
            W->gpr[r][1][l] = r * 100 + l;
    int rc = run_text(".chip r600\n"
                      "ALU 2 @2\n"
                      "EXPORT_DONE PARAM 0 R2.xyzw EOP\n"
                      "x  MOVA_FLOOR __.x, R1.x LAST\n"
                      "x  MOV R2.x, R[10+AR].y LAST\n");
    CHECK_EQ(rc, 0);
    for (unsigned l = 0; l < 4; l++)
        CHECK_EQ(W->gpr[2][0][l], (10 + l) * 100 + l);
    fresh(R6_R600, 4);
    float b[4] = {0.0f, 1.0f, 200.0f, 2.0f};
    setf(1, 0, b, 4);
    E.ngpr = 16;
    rc = run_text(".chip r600\n"
                  "ALU 2 @2\n"
                  "EXPORT_DONE PARAM 0 R2.xyzw EOP\n"
                  "x  MOVA_FLOOR __.x, R1.x LAST\n"
                  "x  MOV R2.x, R[10+AR].y LAST\n");
    CHECK_EQ(rc, CG_ERR_FAULT);
    want_fault(CG_FAULT_BAD_STATE, 0x100000 + 24,
               "MOV at dword 6: source R10+200 (relative, lane 2) is outside the 16 GPRs "
               "allocated");
}

/* ---- VTX fetch ---- */
typedef struct vbs {
    rd_sq_vbuf b[4];
} vbs;
static int vtx_res(void *ctx, unsigned id, rd_sq_vbuf *out)
{
    vbs *v = ctx;
    if (id >= 4 || !v->b[id].data)
        return -1;
    *out = v->b[id];
    return 0;
}

static void test_vtx(void)
{
    fresh(R6_R600, 3);
    static float f4[3][4] = {{1, 2, 3, 4}, {5, 6, 7, 8}, {-1, -2, 0.5f, 0.25f}};
    static const uint8_t u8[3][4] = {{0, 255, 51, 102}, {255, 0, 0, 0}, {1, 2, 3, 4}};
    /* big-endian 16-bit pairs, and big-endian floats at +4 in a 16-byte stride */
    static const uint8_t be16[3][4] = {{0x01, 0x02, 0xFF, 0xFE}, {0, 5, 0, 6}, {0x80, 0, 0x7F, 0xFF}};
    static uint8_t be32[3][16];
    for (int i = 0; i < 3; i++)
        for (int k = 0; k < 3; k++) {
            uint32_t u = fu((float)(10 * i + k));
            for (int j = 0; j < 4; j++)
                be32[i][4 + 4 * k + j] = (uint8_t)(u >> (24 - 8 * j));
        }
    vbs v = {{{(const uint8_t *)f4, sizeof f4, 16, 0x200000},
              {u8[0], sizeof u8, 4, 0x210000},
              {be16[0], sizeof be16, 4, 0x220000},
              {be32[0], sizeof be32, 16, 0x230000}}};
    E.fetch.ctx = &v;
    E.fetch.vtx_resource = vtx_res;
    for (unsigned l = 0; l < 3; l++)
        W->gpr[0][0][l] = 2 - l; /* indices 2, 1, 0 */
    int rc = run_text(".chip r600\n"
                      "VTX 4 @4\n"
                      "EXPORT PARAM 0-3 R1-4.xyzw\n"
                      "EXPORT_DONE POS 60 R1.xy01 EOP\n"
                      ".word 0, 0\n"
                      "VFETCH R1.xyzw, R0.x, RID:0 FMT_32_32_32_32_FLOAT\n"
                      "VFETCH R2.xyzw, R0.x, RID:1 FMT_8_8_8_8\n"
                      "VFETCH R3.xy01, R0.x, RID:2 NUM_INT SIGNED FMT_16_16 ENDIAN_8IN16\n"
                      "VFETCH R4.zyx1, R0.x +4b, RID:3 FMT_32_32_32_FLOAT ENDIAN_8IN32\n");
    CHECK_EQ(rc, 0);
    CHECK_EQ(cg_fault_count(dev), 0);
    for (unsigned l = 0; l < 3; l++) {
        unsigned i = 2 - l;
        for (int k = 0; k < 4; k++) {
            CHECK_EQ(W->gpr[1][k][l], fu(f4[i][k]));
            CHECK_EQ(W->gpr[2][k][l], fu((float)((double)u8[i][k] / 255.0)));
        }
        int16_t a = (int16_t)(be16[i][0] << 8 | be16[i][1]), b = (int16_t)(be16[i][2] << 8 | be16[i][3]);
        CHECK_EQ(W->gpr[3][0][l], (uint32_t)(int32_t)a);
        CHECK_EQ(W->gpr[3][1][l], (uint32_t)(int32_t)b);
        CHECK_EQ(W->gpr[3][2][l], 0);
        CHECK_EQ(W->gpr[3][3][l], fu(1.0f));
        CHECK_EQ(W->gpr[4][0][l], fu((float)(10 * i + 2)));
        CHECK_EQ(W->gpr[4][2][l], fu((float)(10 * i)));
        CHECK_EQ(W->gpr[4][3][l], fu(1.0f));
    }
    const rd_sq_export *e = rd_sq_out_find(&O, RD_SQ_EXP_POS, 60);
    CHECK(e != NULL);
    if (e) {
        CHECK_EQ(e->v[0][0], fu(-1.0f));
        CHECK_EQ(e->v[0][2], 0);
        CHECK_EQ(e->v[0][3], fu(1.0f));
    }
    /* ENDIAN_8IN64 on FMT_32_32_FLOAT: the 8 bytes reversed, so y comes first */
    fresh(R6_R700, 1);
    static uint8_t be64[8];
    uint64_t pair = (uint64_t)fu(3.0f) << 32 | fu(-5.0f);
    for (int j = 0; j < 8; j++)
        be64[j] = (uint8_t)(pair >> (56 - 8 * j));
    vbs v64 = {{{be64, 8, 8, 0x240000}}};
    E.fetch.ctx = &v64;
    E.fetch.vtx_resource = vtx_res;
    rc = run_text(".chip r700\nVTX 1 @2\nEXPORT_DONE PARAM 0 R1.xyzw EOP\n"
                  "VFETCH R1.xyzw, R0.x, RID:0 FMT_32_32_FLOAT ENDIAN_8IN64\n");
    CHECK_EQ(rc, 0);
    CHECK_EQ(W->gpr[1][0][0], fu(-5.0f));
    CHECK_EQ(W->gpr[1][1][0], fu(3.0f));
    CHECK_EQ(W->gpr[1][2][0], 0);
    CHECK_EQ(W->gpr[1][3][0], fu(1.0f));
    /* an R700 clause of 9 fetches (COUNT_3 holds COUNT's bit 3) */
    fresh(R6_R700, 3);
    E.fetch.ctx = &v;
    E.fetch.vtx_resource = vtx_res;
    for (unsigned l = 0; l < 3; l++)
        W->gpr[0][0][l] = l;
    char text[2048];
    int len = snprintf(text, sizeof text, ".chip r700\nVTX 9 @2\nEXPORT_DONE PARAM 0 R9.xyzw EOP\n");
    for (int i = 1; i <= 9; i++)
        len += snprintf(text + len, sizeof text - (size_t)len,
                        "VFETCH R%d.xyzw, R0.x, RID:0 FMT_32_32_32_32_FLOAT\n", i);
    CHECK_EQ(run_text(text), 0);
    for (unsigned l = 0; l < 3; l++)
        CHECK_EQ(W->gpr[9][3][l], fu(f4[l][3]));
    /* an index past the buffer */
    fresh(R6_R600, 3);
    E.fetch.ctx = &v;
    E.fetch.vtx_resource = vtx_res;
    W->gpr[0][0][1] = 3;
    rc = run_text(".chip r600\nVTX 1 @2\nEXPORT_DONE PARAM 0 R1.xyzw EOP\n"
                  "VFETCH R1.xyzw, R0.x, RID:0 FMT_32_32_32_32_FLOAT\n");
    CHECK_EQ(rc, CG_ERR_FAULT);
    want_fault(CG_FAULT_BAD_LENGTH, 0x100000 + 16,
               "VFETCH at dword 4: lane 1 reads bytes 48..63 of vertex buffer 0 (0x200000), "
               "which has 48");
    /* a format not decoded yet */
    fresh(R6_R600, 1);
    E.fetch.ctx = &v;
    E.fetch.vtx_resource = vtx_res;
    rc = run_text(".chip r600\nVTX 1 @2\nEXPORT_DONE PARAM 0 R1.xyzw EOP\n"
                  "VFETCH R1.xyzw, R0.x, RID:0 FMT_2_10_10_10\n");
    CHECK_EQ(rc, CG_ERR_FAULT);
    want_fault(CG_FAULT_UNSUPPORTED, 0x100000 + 16,
               "VFETCH at dword 4: vertex format FMT_2_10_10_10 (25) is not supported yet");
}

/* ---- the kernel's blit shaders (tests/test_radeon_isa.c has their listings) ---- */
static const uint32_t blit_vs[] = {0x00000004, 0x81000000, 0x0000203c, 0x94000b08,
                                   0x00004000, 0x14200b1a, 0x00000000, 0x00000000,
                                   0x3c000000, 0x68cd1000, 0x00080000, 0x00000000};
static const uint32_t blit_ps[] = {0x00000002, 0x80800000, 0x00000000, 0x94200688,
                                   0x00000010, 0x000d1000, 0xb0800000, 0x00000000};

static int tex_stub(void *ctx, const rd_sq_tex_req *rq, uint32_t out[4])
{
    (void)ctx;
    /* a texture whose texel is its coordinates */
    out[0] = fu(rq->coord[0]);
    out[1] = fu(rq->coord[1]);
    out[2] = fu((float)rq->resource);
    out[3] = fu(1.0f);
    return 0;
}

static void test_blit(void)
{
    for (int c = 0; c < 2; c++) {
        fresh((r6_chip)c, 3);
        static float verts[3][4] = {{-1, -1, 0, 0}, {1, -1, 1, 0}, {1, 1, 1, 1}};
        vbs v = {{{(const uint8_t *)verts, sizeof verts, 16, 0x300000}}};
        E.fetch.ctx = &v;
        E.fetch.vtx_resource = vtx_res;
        memcpy(prog, blit_vs, sizeof blit_vs);
        E.ndw = 12;
        for (unsigned l = 0; l < 3; l++)
            W->gpr[0][0][l] = l;
        CHECK_EQ(rd_sq_run(&E, W, &O), 0);
        CHECK_EQ(O.n, 2);
        const rd_sq_export *p = rd_sq_out_find(&O, RD_SQ_EXP_POS, 60);
        const rd_sq_export *q = rd_sq_out_find(&O, RD_SQ_EXP_PARAM, 0);
        CHECK(p && q && p->done && q->done);
        if (p && q)
            for (unsigned l = 0; l < 3; l++) {
                CHECK_EQ(p->v[l][0], fu(verts[l][0]));
                CHECK_EQ(p->v[l][1], fu(verts[l][1]));
                CHECK_EQ(p->v[l][2], 0);
                CHECK_EQ(p->v[l][3], fu(1.0f));
                CHECK_EQ(q->v[l][0], fu(verts[l][2]));
                CHECK_EQ(q->v[l][1], fu(verts[l][3]));
                CHECK_EQ(q->v[l][3], fu(1.0f));
            }
        /* the pixel shader: no texture unit yet, then a stub one */
        fresh((r6_chip)c, 2);
        memcpy(prog, blit_ps, sizeof blit_ps);
        E.ndw = 8;
        CHECK_EQ(rd_sq_run(&E, W, &O), CG_ERR_FAULT);
        want_fault(CG_FAULT_UNSUPPORTED, 0x100000 + 16,
                   "SAMPLE at dword 4 is not supported yet (no texture unit)");
        fresh((r6_chip)c, 2);
        E.ndw = 8;
        E.fetch.tex_sample = tex_stub;
        W->gpr[0][0][1] = fu(0.25f);
        W->gpr[0][1][1] = fu(0.75f);
        CHECK_EQ(rd_sq_run(&E, W, &O), 0);
        const rd_sq_export *px = rd_sq_out_find(&O, RD_SQ_EXP_PIXEL, 0);
        CHECK(px && px->done && px->lanes == 3);
        if (px) {
            CHECK_EQ(px->v[1][0], fu(0.25f));
            CHECK_EQ(px->v[1][1], fu(0.75f));
            CHECK_EQ(px->v[1][3], fu(1.0f));
        }
    }
}


/* every CF row of the table has a handler (dispatch by KIND): run each
 * alone with END_OF_PROGRAM; none may be "undefined" */
static void test_cf_table(void)
{
    for (int c = 0; c < 2; c++)
        for (unsigned i = 0; i < R6_NOPS; i++) {
            const r6_op *op = &r6_ops[i];
            if (op->cls != R6_CLS_CF && op->cls != R6_CLS_CF_ALU && op->cls != R6_CLS_CF_EXP)
                continue;
            if (op->op[c] == R6_NONE)
                continue;
            fresh((r6_chip)c, 1);
            memset(prog, 0, 64);
            r6_encode_op(op, (r6_chip)c, prog);
            if (op->cls == R6_CLS_CF)
                r6_set((r6_chip)c, prog, R6F_CF_W1_END_OF_PROGRAM, 1);
            else if (op->cls == R6_CLS_CF_EXP)
                r6_set((r6_chip)c, prog, R6F_EXP_W1_END_OF_PROGRAM, 1);
            E.ndw = 16;
            rd_sq_run(&E, W, &O);
            for (size_t k = 0; k < cg_fault_count(dev); k++) {
                const char *m = cg_fault_get(dev, k)->message;
                if (strstr(m, "undefined CF")) {
                    fprintf(stderr, "%s: %s\n", op->name, m);
                    CHECK(!"a CF row without a handler");
                }
            }
        }
}

/* MAX vs MAX_DX10 with NaN, omod and clamp, shifts, FLT_TO_INT, SIN per
 * chip, PRED_SEL */
static void test_ops(void)
{
    for (int c = 0; c < 2; c++) {
        fresh((r6_chip)c, 4);
        float a[4] = {NAN, 1.5f, -2.5f, 0.3f}, b[4] = {1.0f, NAN, 3.0f, 0.25f};
        setf(1, 0, a, 4);
        setf(1, 1, b, 4);
        for (unsigned l = 0; l < 4; l++) {
            W->gpr[1][2][l] = 0x80000000u >> l;
            W->gpr[1][3][l] = l + 33; /* shift counts use the low 5 bits */
        }
        int rc = run_text(c ? ".chip r700\n"
                              "ALU 11 @2\n"
                              "EXPORT_DONE PARAM 0 R2.xyzw EOP\n"
                              "x  MAX R2.x, R1.x, R1.y\n"
                              "y  MAX_DX10 R2.y, R1.x, R1.y\n"
                              "z  ASHR_INT R2.z, R1.z, R1.w\n"
                              "w  ADD_sat*2 R2.w, R1.x, R1.y\n"
                              "t  FLT_TO_INT R3.x, R1.x LAST\n"
                              "x  MUL_IEEE R4.x, R1.w, R1.w\n"
                              "t  SIN R3.y, 0.5 LAST\n"
                              "x  PRED_SETGT __.x, R1.y, [0x40000000 2.0].x UP\n"
                              "y  MOV R5.y, 1.0 PRED_SEL:2 LAST\n"
                              ".word 0x40000000, 0\n"
                              "x  MOV R5.x, 1.0 PRED_SEL:3 LAST\n"
                            : ".chip r600\n"
                              "ALU 11 @2\n"
                              "EXPORT_DONE PARAM 0 R2.xyzw EOP\n"
                              "x  MAX R2.x, R1.x, R1.y\n"
                              "y  MAX_DX10 R2.y, R1.x, R1.y\n"
                              "z  ADD R2.z, R1.z, R1.w\n"
                              "w  ADD_sat*2 R2.w, R1.x, R1.y\n"
                              "t  FLT_TO_INT R3.x, R1.x LAST\n"
                              "x  MUL_IEEE R4.x, R1.w, R1.w\n"
                              "t  SIN R3.y, 0.5 LAST\n"
                              "x  PRED_SETGT __.x, R1.y, [0x40000000 2.0].x UP\n"
                              "y  MOV R5.y, 1.0 PRED_SEL:2 LAST\n"
                              ".word 0x40000000, 0\n"
                              "x  MOV R5.x, 1.0 PRED_SEL:3 LAST\n");
        CHECK_EQ(rc, 0);
        for (unsigned l = 0; l < 4; l++) {
            float x = a[l], y = b[l];
            float mx = x >= y ? x : y;
            CHECK_EQ(W->gpr[2][0][l], fu(mx));
            CHECK_EQ(W->gpr[2][1][l], fu(fmaxf(x, y)));
            if (c)
                CHECK_EQ(W->gpr[2][2][l], (uint32_t)((int32_t)(0x80000000u >> l) >> ((l + 33) & 31)));
            float s = (x + y) * 2.0f;
            CHECK_EQ(W->gpr[2][3][l], fu(s >= 1.0f ? 1.0f : s > 0.0f ? s : 0.0f));
            /* FLT_TO_INT rounds to nearest even: 1.5 -> 2, -2.5 -> -2 */
            uint32_t want_i = l == 0 ? 0 : l == 1 ? 2 : l == 2 ? (uint32_t)-2 : 0;
            CHECK_EQ(W->gpr[3][0][l], want_i);
            /* SIN(0.5): R600 radians, R700 half a revolution */
            CHECK_EQ(W->gpr[3][1][l], fu(c ? sinf(0.5f * 6.28318530717958647692f) : sinf(0.5f)));
            bool p = y > 2.0f;
            /* the group's own PRED_SETGT updates the predicate only after it */
            CHECK_EQ(W->gpr[5][1][l], fu(1.0f));
            CHECK_EQ(W->gpr[5][0][l], p ? fu(1.0f) : 0);
        }
    }
}

/* CALL / RETURN to a subroutine after END_OF_PROGRAM; LOOP_CONTINUE */
static void test_call_continue(void)
{
    fresh(R6_R600, 2);
    int rc = run_text(".chip r600\n"
                      "CALL @3\n"
                      "CALL @3\n"
                      "EXPORT_DONE PARAM 0 R2.xyzw EOP\n"
                      "ALU 1 @6\n"
                      "RETURN @0\n"
                      ".word 0, 0\n"
                      "x  ADD R2.x, R2.x, 1.0 LAST\n");
    CHECK_EQ(rc, 0);
    CHECK_EQ(W->gpr[2][0][0], fu(2.0f));
    CHECK_EQ(W->gpr[2][0][1], fu(2.0f));
    /* 4 iterations; lane 0 continues before the second add every time */
    fresh(R6_R700, 2);
    E.loop_const[1] = 4 | (1u << 24);
    float sel[2] = {1.0f, 0.0f};
    setf(1, 0, sel, 2);
    rc = run_text(".chip r700\n"
                  "LOOP_START_NO_AL @8 CONST:1\n"
                  "ALU 1 @10\n"
                  "ALU_PUSH_BEFORE 1 @11\n"
                  "JUMP @5\n"
                  "LOOP_CONTINUE @7\n"
                  "POP @6 POP:1\n"
                  "ALU 1 @12\n"
                  "LOOP_END @1\n"
                  "EXPORT_DONE PARAM 0 R2.xyzw EOP\n"
                  ".word 0, 0\n"
                  "x  ADD R2.x, R2.x, 1.0 LAST\n"
                  "x  PRED_SETGT __.x, R1.x, 0.5 UEM UP LAST\n"
                  "y  ADD R2.y, R2.y, 1.0 LAST\n");
    CHECK_EQ(rc, 0);
    CHECK_EQ(W->gpr[2][0][0], fu(4.0f));
    CHECK_EQ(W->gpr[2][0][1], fu(4.0f));
    CHECK_EQ(W->gpr[2][1][0], 0);
    CHECK_EQ(W->gpr[2][1][1], fu(4.0f));
}

/* ---- hostile programs ---- */
static void test_hostile(void)
{
    /* an undefined CF instruction (CF_INST 0x30) */
    fresh(R6_R600, 1);
    prog[0] = 0;
    prog[1] = 0x30u << 23;
    E.ndw = 2;
    CHECK_EQ(rd_sq_run(&E, W, &O), CG_ERR_FAULT);
    want_fault(CG_FAULT_INVALID_OPCODE, 0x100000, "undefined CF instruction at dword 0");
    /* no END_OF_PROGRAM */
    fresh(R6_R600, 1);
    CHECK_EQ(run_text(".chip r600\nNOP @0\n"), CG_ERR_FAULT);
    want_fault(CG_FAULT_BAD_LENGTH, 0x100008,
               "the CF program runs past the end of the program (2 dwords) without "
               "END_OF_PROGRAM");
    /* a clause past the end */
    fresh(R6_R600, 1);
    CHECK_EQ(run_text(".chip r600\nALU 4 @1\nEXPORT_DONE PARAM 0 R2.xyzw EOP\n"), CG_ERR_FAULT);
    want_fault(CG_FAULT_BAD_LENGTH, 0x100000,
               "the ALU clause at dword 0 (@1, 4 slots) runs past the end of the program (4 "
               "dwords)");
    fresh(R6_R600, 1);
    CHECK_EQ(run_text(".chip r600\nVTX 2 @1\nEXPORT_DONE PARAM 0 R2.xyzw EOP\n"), CG_ERR_FAULT);
    want_fault(CG_FAULT_BAD_LENGTH, 0x100000,
               "the VTX clause at dword 0 (@1, 2 instructions) runs past the end of the program "
               "(4 dwords)");
    /* a group with no LAST */
    fresh(R6_R600, 1);
    CHECK_EQ(run_text(".chip r600\nALU 1 @2\nEXPORT_DONE PARAM 0 R2.xyzw EOP\n"
                      "x  MOV R2.x, R1.x\n"),
             CG_ERR_FAULT);
    want_fault(CG_FAULT_BAD_LENGTH, 0x100000 + 24,
               "the ALU group at dword 4 has no LAST before its clause ends");
    /* stack underflow and overflow */
    fresh(R6_R600, 1);
    CHECK_EQ(run_text(".chip r600\nPOP @0 POP:1 EOP\n"), CG_ERR_FAULT);
    want_fault(CG_FAULT_BAD_STATE, 0x100000,
               "stack underflow at dword 0: POP pops 1, 0 on the stack");
    fresh(R6_R600, 1);
    CHECK_EQ(run_text(".chip r600\nCALL @0\nNOP @0 EOP\n"), CG_ERR_FAULT);
    want_fault(CG_FAULT_DEPTH, 0x100000, "stack overflow at dword 0: 32 entries in use");
    fresh(R6_R600, 1);
    CHECK_EQ(run_text(".chip r600\nRETURN @0 EOP\n"), CG_ERR_FAULT);
    want_fault(CG_FAULT_BAD_STATE, 0x100000,
               "RETURN at dword 0 with no CALL on top of the stack");
    /* a loop that never ends: the budget */
    fresh(R6_R600, 1);
    cg_device_set_budget(dev, CG_BUDGET_RADEON_SQ_INSNS, 1000);
    CHECK_EQ(run_text(".chip r600\nLOOP_START_DX10 @2\nLOOP_END @1\nNOP @0 EOP\n"), CG_ERR_FAULT);
    want_fault(CG_FAULT_HANG, 0x100008,
               "budget radeon.sq-insns: 1000 CF instructions, ALU groups and fetches ran out "
               "at a CF instruction (dword 2)");
    cg_device_set_budget(dev, CG_BUDGET_RADEON_SQ_INSNS, 0);
    /* an undefined ALU opcode (OP2 0x7F) */
    fresh(R6_R700, 1);
    E.ndw = assemble(R6_R700, ".chip r700\nALU 1 @2\nEXPORT_DONE PARAM 0 R2.xyzw EOP\n"
                               "x  MOV R2.x, R1.x LAST\n");
    prog[5] = (prog[5] & ~(0x7FFu << 7)) | (0x7Fu << 7);
    CHECK_EQ(rd_sq_run(&E, W, &O), CG_ERR_FAULT);
    want_fault(CG_FAULT_INVALID_OPCODE, 0x100000 + 16, "undefined ALU instruction at dword 4");
    /* memory exports are not modelled yet */
    fresh(R6_R600, 1);
    CHECK_EQ(run_text(".chip r600\nMEM_SCRATCH WRITE_IND 4 R3.xy__ INDEX_GPR:2 ES:3 EOP\n"),
             CG_ERR_FAULT);
    want_fault(CG_FAULT_UNSUPPORTED, 0x100000, "MEM_SCRATCH at dword 0 is not supported yet");
    /* KILLGT: killed lanes export nothing */
    fresh(R6_R600, 2);
    float x[2] = {0.0f, 1.0f};
    setf(1, 0, x, 2);
    CHECK_EQ(run_text(".chip r600\nALU 1 @2\nEXPORT_DONE PIXEL 0 R1.xyzw EOP\n"
                      "x  KILLGT __.x, R1.x, 0.5 LAST\n"),
             0);
    CHECK_EQ(O.killed, 2);
    CHECK_EQ(O.n, 1);
    CHECK_EQ(O.e[0].lanes, 1);
}

int main(void)
{
    if (cg_device_create(&dev))
        return 1;
    W = calloc(1, sizeof *W);
    test_alu();
    test_consts_int();
    test_if_else();
    test_loop();
    test_mova();
    test_vtx();
    test_blit();
    test_ops();
    test_call_continue();
    test_cf_table();
    test_hostile();
    rd_sq_out_free(&O);
    free(W);
    cg_device_destroy(dev);
    return check_report("test_radeon_sq");
}
