/* The R600/R700 shader ISA (src/radeon/tables/r600_isa.def, docs/radeon-isa.md):
 *  - the table: unique names, no two rows with one opcode, opcodes that fit
 *    their fields, fields that do not overlap within an instruction;
 *  - golden listings: the Linux kernel's blit shaders (r600_blit_shaders.c,
 *    "same for r6xx/r7xx") on both chips, and a hand-assembled program using
 *    every kind of instruction;
 *  - hostile programs: clauses past the end, counts past the end, overlaps,
 *    undefined opcodes, groups without LAST: exact fault lines;
 *  - round trips (asm(disasm(x)) == x): every instruction class with random
 *    fields, whole random programs and random bytes, from a fixed seed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "cmdgpu/asm.h"
#include "radeon/isa.h"
#include "radeon/text/isa_text.h"

static uint32_t seed = 12345;
static uint32_t rnd(void)
{
    seed = seed * 1103515245u + 12345u;
    uint32_t hi = seed >> 16;
    seed = seed * 1103515245u + 12345u;
    return (hi << 16) | (seed >> 16);
}

/* Assemble text; the bytes of the first section in *out (malloc'd). */
static int assemble(r6_chip c, const char *text, uint8_t **out, size_t *n)
{
    rd_isa_asm_state st = {c, c};
    cg_asm *as;
    if (cg_asm_create(rd_isa_asm_family(), &st, &as))
        return -1;
    cg_asm_add_source(as, "t.s", text, strlen(text));
    int rc = cg_asm_assemble(as);
    if (rc) {
        fprintf(stderr, "%s", cg_asm_errors(as));
        cg_asm_destroy(as);
        *out = NULL;
        *n = 0;
        return rc;
    }
    const char *name;
    uint64_t base;
    const uint8_t *d = NULL;
    *n = 0;
    if (cg_asm_section_count(as))
        cg_asm_section(as, 0, &name, &base, &d, n);
    *out = malloc(*n ? *n : 1);
    if (*n)
        memcpy(*out, d, *n);
    cg_asm_destroy(as);
    return 0;
}

static char *disasm(r6_chip c, const uint8_t *d, size_t n, int *unknown)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    rd_isa_opts o = {.chip = c};
    int rc = rd_isa_disasm(&o, d, n, f);
    fclose(f);
    if (unknown)
        *unknown = rc;
    return buf;
}

static size_t listed_alu, listed_fetch; /* decoded lines the round trips saw */

/* asm(disasm(x)) == x */
static void round_trip(r6_chip c, const uint8_t *d, size_t n, const char *what)
{
    char *text = disasm(c, d, n, NULL);
    for (const char *p = text; (p = strstr(p, "\n    ")) != NULL; p++) {
        if (p[6] == ' ' && p[7] == ' ' && strchr("xyzwt", p[5]))
            listed_alu++;
        else if (!strncmp(p + 5, "SAMPLE", 6) || !strncmp(p + 5, "VFETCH", 6) ||
                 !strncmp(p + 5, "GET_", 4) || !strncmp(p + 5, "LD ", 3))
            listed_fetch++;
    }
    uint8_t *back = NULL;
    size_t bn = 0;
    int rc = assemble(c, text, &back, &bn);
    CHECK_EQ(rc, 0);
    CHECK_EQ(bn, n);
    if (rc || bn != n || memcmp(back, d, n)) {
        check_failures++;
        fprintf(stderr, "round trip of %s failed:\n%s\n", what, text);
    }
    free(back);
    free(text);
}

static void words_le(const uint32_t *w, size_t n, uint8_t *out)
{
    for (size_t i = 0; i < n; i++)
        for (int b = 0; b < 4; b++)
            out[4 * i + b] = (uint8_t)(w[i] >> (8 * b));
}

/* ---- the table ---- */

static void test_table(void)
{
    for (unsigned i = 0; i < R6_NOPS; i++) {
        const r6_op *a = &r6_ops[i];
        CHECK(a->name != NULL);
        CHECK(a->op[0] != R6_NONE || a->op[1] != R6_NONE);
        for (unsigned j = i + 1; j < R6_NOPS; j++) {
            const r6_op *b = &r6_ops[j];
            if (strcmp(a->name, b->name) == 0) {
                check_failures++;
                fprintf(stderr, "duplicate name %s\n", a->name);
            }
            /* CF and CF_EXP share the 7-bit CF_INST space */
            int sa = a->cls == R6_CLS_CF_EXP ? R6_CLS_CF : a->cls;
            int sb = b->cls == R6_CLS_CF_EXP ? R6_CLS_CF : b->cls;
            for (int c = 0; c < 2; c++)
                if (sa == sb && a->op[c] != R6_NONE && a->op[c] == b->op[c]) {
                    check_failures++;
                    fprintf(stderr, "%s and %s share opcode 0x%x on chip %d\n", a->name, b->name,
                            a->op[c], c);
                }
        }
        for (int c = 0; c < 2; c++) {
            int o = a->op[c];
            if (o == R6_NONE)
                continue;
            switch (a->cls) {
            case R6_CLS_CF_ALU: CHECK(o >= 8 && o < 16); break;
            case R6_CLS_CF:
            case R6_CLS_CF_EXP: CHECK(o >= 0 && o < 0x40); break; /* bit 29 clear */
            case R6_CLS_ALU_OP3: CHECK(o >= 4 && o < 32); CHECK_EQ(a->nsrc, 3); break;
            case R6_CLS_ALU_OP2:
                CHECK(o >= 0 && o < (c == R6_R600 ? 0x80 : 0x100)); /* bits 17:15 clear */
                CHECK(a->nsrc <= 2);
                CHECK(a->slots[c] != 0);
                break;
            default: CHECK(o >= 0 && o < 32); break;
            }
            /* decoding the encoded opcode finds the row */
            uint32_t w[4] = {0, 0, 0, 0};
            r6_encode_op(a, (r6_chip)c, w);
            const r6_op *d = a->cls <= R6_CLS_CF_EXP ? r6_decode_cf((r6_chip)c, w)
                             : a->cls == R6_CLS_VTX  ? r6_decode_fetch((r6_chip)c, false, w)
                             : a->cls == R6_CLS_TEX  ? r6_decode_fetch((r6_chip)c, true, w)
                                                     : r6_decode_alu((r6_chip)c, w);
            if (d != a) {
                check_failures++;
                fprintf(stderr, "%s does not decode back on chip %d\n", a->name, c);
            }
        }
    }
    /* fields: in one word, within 31..0; no two of an instruction's forms overlap */
    for (unsigned j = 0; j < R6_NFIELDS; j++) {
        const r6_field *f = &r6_fields[j];
        for (int c = 0; c < 2; c++) {
            CHECK(f->hi[c] < 32 && f->lo[c] <= f->hi[c]);
            CHECK(f->word < 4);
        }
        unsigned wd = f->hi[0] - f->lo[0] + 1;
        CHECK(wd >= 32 || f->dflt >> wd == 0);
    }
    for (unsigned i = 0; i < R6_NOPS; i++) {
        uint8_t forms[5];
        r6_op_forms(&r6_ops[i], forms);
        for (int c = 0; c < 2; c++) {
            uint32_t used[4] = {0};
            for (unsigned k = 0; forms[k] != R6_NFORMS; k++)
                for (unsigned j = 0; j < R6_NFIELDS; j++) {
                    const r6_field *f = &r6_fields[j];
                    if (f->form != forms[k] || !r6_field_on(f, (r6_chip)c))
                        continue;
                    unsigned wd = f->hi[c] - f->lo[c] + 1u;
                    uint32_t m = (wd >= 32 ? 0xFFFFFFFFu : (1u << wd) - 1u) << f->lo[c];
                    if (used[f->word] & m) {
                        check_failures++;
                        fprintf(stderr, "%s: field %s overlaps on chip %d\n", r6_ops[i].name,
                                f->name, c);
                    }
                    used[f->word] |= m;
                }
            CHECK(r6_op_words(&r6_ops[i]) == 2 || r6_op_words(&r6_ops[i]) == 4);
        }
    }
    for (size_t i = 0; i < r6_nenums; i++) {
        const r6_field *f = &r6_fields[r6_enums[i].fid];
        unsigned wd = f->hi[0] - f->lo[0] + 1;
        CHECK(r6_enums[i].value >> wd == 0);
        CHECK(r6_enums[i].value != f->dflt);
        for (size_t j = i + 1; j < r6_nenums; j++) {
            CHECK(strcmp(r6_enums[i].token, r6_enums[j].token) != 0);
            CHECK(r6_enums[i].fid != r6_enums[j].fid || r6_enums[i].value != r6_enums[j].value);
        }
    }
    /* the executor's opcode-indexed tables agree with the decoder */
    for (int c = 0; c < 2; c++) {
        r6_optable t;
        r6_optable_init(&t, (r6_chip)c);
        for (uint32_t o = 0; o < 128; o++) {
            uint32_t w[2] = {0, o << 23};
            const r6_op *d = o < 64 ? r6_decode_cf((r6_chip)c, w) : NULL;
            CHECK_EQ(t.cf[o], d ? (unsigned)(d - r6_ops) + 1 : 0);
        }
        for (uint32_t o = 0; o < 16; o++) {
            uint32_t w[2] = {0, 1u << 29 | o << 26};
            const r6_op *d = o >= 8 ? r6_decode_cf((r6_chip)c, w) : NULL;
            CHECK_EQ(t.cfa[o], d ? (unsigned)(d - r6_ops) + 1 : 0);
        }
        for (uint32_t o = 0; o < 32; o++) {
            uint32_t w[4] = {o, 0, 0, 0};
            const r6_op *v = r6_decode_fetch((r6_chip)c, false, w);
            const r6_op *x = r6_decode_fetch((r6_chip)c, true, w);
            CHECK_EQ(t.vtx[o], v ? (unsigned)(v - r6_ops) + 1 : 0);
            CHECK_EQ(t.tex[o], x ? (unsigned)(x - r6_ops) + 1 : 0);
            uint32_t a[2] = {0, o << 13};
            const r6_op *d = o >= 4 ? r6_decode_alu((r6_chip)c, a) : NULL;
            CHECK_EQ(t.op3[o], d ? (unsigned)(d - r6_ops) + 1 : 0);
        }
        for (uint32_t o = 0; o < (c == R6_R600 ? 0x80u : 0x100u); o++) {
            uint32_t a[2] = {0, 0};
            r6_set((r6_chip)c, a, R6F_ALU_OP2_ALU_INST, o);
            const r6_op *d = r6_decode_alu((r6_chip)c, a);
            CHECK_EQ(t.op2[o], d ? (unsigned)(d - r6_ops) + 1 : 0);
        }
    }
    /* the R600/R700 differences the table records */
    CHECK(r6_op_by_name("TEX_ACK")->op[R6_R600] == R6_NONE);
    CHECK_EQ(r6_op_by_name("MEM_EXPORT")->op[R6_R700], 0x3A);
    CHECK(r6_op_by_name("MOVA_GPR_INT")->op[R6_R700] == R6_NONE);
    CHECK_EQ(r6_op_by_name("ASHR_INT")->slots[R6_R600], R6_SLOT_S);
    CHECK_EQ(r6_op_by_name("ASHR_INT")->slots[R6_R700], R6_SLOT_VS);
    CHECK_EQ(r6_fields[R6F_ALU_OP2_OMOD].lo[R6_R600], 6);
    CHECK_EQ(r6_fields[R6F_ALU_OP2_OMOD].lo[R6_R700], 5);
    CHECK_EQ(r6_op_by_name("MULADD")->op[0], 0x10);
    CHECK_EQ(r6_op_by_name("DOT4")->kind, R6K_REDUCE);
}

/* ---- golden listings ---- */

/* drivers/gpu/drm/radeon/r600_blit_shaders.c (torvalds/linux 0a3b24f1):
 * r6xx_vs (little-endian) and r6xx_ps, "same for r6xx/r7xx". */
static const uint32_t blit_vs[] = {0x00000004, 0x81000000, 0x0000203c, 0x94000b08,
                                   0x00004000, 0x14200b1a, 0x00000000, 0x00000000,
                                   0x3c000000, 0x68cd1000, 0x00080000, 0x00000000};
static const uint32_t blit_ps[] = {0x00000002, 0x80800000, 0x00000000, 0x94200688,
                                   0x00000010, 0x000d1000, 0xb0800000, 0x00000000};

static const char blit_vs_text[] =
    "    VTX 1 @4                                                     # 0000 00000004 81000000\n"
    "    EXPORT_DONE POS 60 R0.xy01                                   # 0002 0000203C 94000B08\n"
    "    EXPORT_DONE PARAM 0 R0.zw01 EOP NO_BARRIER                   # 0004 00004000 14200B1A\n"
    "    .word 0x00000000, 0x00000000                                 # 0006 00000000 00000000\n"
    "    VFETCH R0.xyzw, R0.x, RID:0 MFC:15 FMT_32_32_32_32_FLOAT NUM_SCALED SIGNED MEGA # 0008 "
    "3C000000 68CD1000 00080000 00000000\n";
static const char blit_ps_text[] =
    "    TEX 1 @2                                                     # 0000 00000002 80800000\n"
    "    EXPORT_DONE PIXEL 0 R0.xyzw EOP                              # 0002 00000000 94200688\n"
    "    SAMPLE R0.xyzw, R0.xy01, RID:0, SID:0 CT:UUUU                # 0004 00000010 000D1000 "
    "B0800000 00000000\n";

static void golden(r6_chip c, const uint32_t *w, size_t nw, const char *body)
{
    uint8_t b[256];
    words_le(w, nw, b);
    char want[2048];
    const char *cn = c == R6_R600 ? "r600" : "r700";
    snprintf(want, sizeof want, "# radeon-isa %s: %zu bytes, %zu dwords\n    .chip %s\n%s", cn,
             nw * 4, nw, cn, body);
    int unknown;
    char *got = disasm(c, b, nw * 4, &unknown);
    CHECK_STR(got, want);
    CHECK_EQ(unknown, 0);
    free(got);
    round_trip(c, b, nw * 4, "golden");
}

/* A program with every kind of instruction, written in the syntax, its
 * listing checked line by line (the words by hand from [R6ISA]'s layouts). */
static const char prog_src[] =
    ".chip r600\n"
    "CALL_FS @0 NO_BARRIER\n"
    "ALU_PUSH_BEFORE 11 @14 KC0[CB0:0-16] KC1[CB2:32-64]\n"
    "JUMP @6 POP:1\n"
    "LOOP_START_DX10 @7 CONST:1\n"
    "TEX 2 @26\n"
    "LOOP_END @4\n"
    "ELSE @8 POP:1\n"
    "POP @8 POP:1\n"
    "MEM_SCRATCH WRITE_IND 4 R3.xy__ INDEX_GPR:2 ES:3\n"
    "VTX 1 @30\n"
    "EXPORT PARAM 0-1 R1-2.xyzw\n"
    "EXPORT_DONE POS 60 R0.xyzw EOP\n"
    ".word 0, 0, 0, 0\n"
    "x  MUL_sat*2 R1.x, -|R2.y|, KC0[3].z\n"
    "y  MULADD R1.y, R[2+AR].x, [0x40000000 2.000000].y, -KC1[0].w BS:1\n"
    "z  SETGT_DX10 __.z, PV.x, 0.5\n"
    "w  PRED_SETGE_INT R5.w, C7.x, -1 UP UEM\n"
    "t  RECIP_IEEE T1.x, [0x3F800000 1.000000] IM:4 LAST\n"
    ".word 0x3F800000, 0x40000000\n"
    "x  DOT4 R6.x, R1.x, PS PRED_SEL:2\n"
    "y  DOT4 R6.y, R1.y, 1.0\n"
    "z  DOT4 R6.z, R1.z, 0\n"
    "w  DOT4 R6.w, R1.w, 1 LAST\n"
    "x  MOVA_INT __.x, R0.x SRC0_NEG:0 LAST\n"
    ".word 0, 0\n"
    "SAMPLE_L R4.xyzw, R0.xyz_, RID:1, SID:2 CT:NNUU LB:4 OX:1\n"
    "GET_TEXTURE_RESINFO R5.xy__, R0.xxxx, RID:3, SID:0 CT:UUUU\n"
    "SEMFETCH SEM3.xyz1, R0.y +16b, RID:160 INSTANCE FMT_32_32_32_FLOAT ENDIAN_8IN32\n";

static const char prog_text[] =
    "    CALL_FS @0 NO_BARRIER                                        # 0000 00000000 09800000\n"
    "    ALU_PUSH_BEFORE 11 @14 KC0[CB0:0-16] KC1[CB2:32-64]          # 0002 4800000E A4280802\n"
    "    JUMP @6 POP:1                                                # 0004 00000006 85000001\n"
    "    LOOP_START_DX10 @7 CONST:1                                   # 0006 00000007 83000008\n"
    "    TEX 2 @26                                                    # 0008 0000001A 80800400\n"
    "    LOOP_END @4                                                  # 0010 00000004 82800000\n"
    "    ELSE @8 POP:1                                                # 0012 00000008 86800001\n"
    "    POP @8 POP:1                                                 # 0014 00000008 87000001\n"
    "    MEM_SCRATCH WRITE_IND 4 R3.xy__ INDEX_GPR:2 ES:3             # 0016 C101A004 92003FFF\n"
    "    VTX 1 @30                                                    # 0018 0000001E 81000000\n"
    "    EXPORT PARAM 0-1 R1-2.xyzw                                   # 0020 0000C000 93820688\n"
    "    EXPORT_DONE POS 60 R0.xyzw EOP                               # 0022 0000203C 94200688\n"
    "    .word 0x00000000, 0x00000000                                 # 0024 00000000 00000000\n"
    "    .word 0x00000000, 0x00000000                                 # 0026 00000000 00000000\n"
    "    x  MUL_sat*2 R1.x, -|R2.y|, KC0[3].z                         # 0028 01107402 80200151  group 1\n"
    "    y  MULADD R1.y, R[2+AR].x, [0x40000000 2.000000].y, -KC1[0].w BS:1 # 0030 009FA202 20261CA0\n"
    "    z  SETGT_DX10 __.z, PV.x, 0.5                                # 0032 001F80FE 40000D00\n"
    "    w  PRED_SETGE_INT R5.w, C7.x, -1 UEM UP                      # 0034 001F6107 60A0441C\n"
    "    t  RECIP_IEEE T1.x, [0x3F800000 1.000000] IM:4 LAST          # 0036 900000FD 0FA06610\n"
    "    .word 0x3F800000                                             # 0038 3F800000  literal 1.000000 (1065353216)\n"
    "    .word 0x40000000                                             # 0039 40000000  literal 2.000000 (1073741824)\n"
    "    x  DOT4 R6.x, R1.x, PS PRED_SEL:2                            # 0040 401FE001 00C05010  group 2\n"
    "    y  DOT4 R6.y, R1.y, 1.0                                      # 0042 001F2401 20C05010\n"
    "    z  DOT4 R6.z, R1.z, 0                                        # 0044 001F0801 40C05010\n"
    "    w  DOT4 R6.w, R1.w, 1 LAST                                   # 0046 801F4C01 60C05010\n"
    "    x  MOVA_INT __.x, R0.x LAST                                  # 0048 80000000 00001800  group 3\n"
    "    .word 0x00000000, 0x00000000                                 # 0050 00000000 00000000\n"
    "    SAMPLE_L R4.xyzw, R0.xyz_, RID:1, SID:2 CT:NNUU LB:4 OX:1    # 0052 00000111 308D1004 E8810001 00000000\n"
    "    GET_TEXTURE_RESINFO R5.xy__, R0.xxxx, RID:3, SID:0 CT:UUUU   # 0056 00000304 001F9005 00000000 00000000\n"
    "    SEMFETCH SEM3.xyz1, R0.y +16b, RID:160 INSTANCE FMT_32_32_32_FLOAT ENDIAN_8IN32 # 0060 0100A021 0C151003 00020010 00000000\n";

static void test_golden(void)
{
    golden(R6_R600, blit_vs, 12, blit_vs_text);
    golden(R6_R700, blit_vs, 12, blit_vs_text);
    golden(R6_R600, blit_ps, 8, blit_ps_text);
    golden(R6_R700, blit_ps, 8, blit_ps_text);

    uint8_t *b = NULL;
    size_t n = 0;
    CHECK_EQ(assemble(R6_R600, prog_src, &b, &n), 0);
    if (!b)
        return;
    int unknown;
    char *got = disasm(R6_R600, b, n, &unknown);
    const char *body = strstr(got, ".chip r600\n");
    CHECK(body != NULL);
    if (body)
        CHECK_STR(body + 11, prog_text);
    free(got);
    round_trip(R6_R600, b, n, "the program");
    round_trip(R6_R700, b, n, "the program on r700");
    free(b);
}

/* ---- R600 and R700 read the same words differently ---- */

static void test_chips(void)
{
    char t[256];
    /* MUL*2 on R600 (OMOD 7:6 = 1, ALU_INST 17:8 = 1) */
    uint32_t mul[2] = {0, 0x00000150};
    CHECK(rd_isa_format(R6_R600, R6_CLS_ALU_OP2, mul, NULL, 0, t, sizeof t));
    CHECK_STR(t, "MUL*2 R0.x, R0.x, R0.x");
    /* the same op on R700: ALU_INST 17:7 = 1, OMOD 6:5 = 2 */
    uint32_t mul7[2] = {0, 0x000000D0};
    CHECK(rd_isa_format(R6_R700, R6_CLS_ALU_OP2, mul7, NULL, 0, t, sizeof t));
    CHECK_STR(t, "MUL*4 R0.x, R0.x, R0.x");
    /* R600's word read as R700: ALU_INST 0x2 with OMOD 2 and bit 4 */
    CHECK(rd_isa_format(R6_R700, R6_CLS_ALU_OP2, mul, NULL, 0, t, sizeof t));
    CHECK_STR(t, "MUL_IEEE*4 R0.x, R0.x, R0.x");
    /* FOG_MERGE is R600 only: bit 5 is OMOD's low bit on R700 */
    uint32_t fog[2] = {0, 0x00001930};
    CHECK(rd_isa_format(R6_R600, R6_CLS_ALU_OP2, fog, NULL, 0, t, sizeof t));
    CHECK_STR(t, "MOV R0.x, R0.x FOG");
    /* TEX_ACK (0x1B) and COUNT_3 exist on R700 only */
    uint32_t ack[2] = {4, 0x8D880000};
    CHECK(!rd_isa_format(R6_R600, R6_CLS_CF, ack, NULL, 0, t, sizeof t));
    CHECK(rd_isa_format(R6_R700, R6_CLS_CF, ack, NULL, 0, t, sizeof t));
    CHECK_STR(t, "TEX_ACK 9 @4");
    /* MEM types: READ on R600, WRITE_ACK on R700 */
    uint32_t mem[2] = {0x00004000, 0x92000FFF};
    CHECK(rd_isa_format(R6_R600, R6_CLS_CF, mem, NULL, 0, t, sizeof t));
    CHECK_STR(t, "MEM_SCRATCH READ 0 R0.____");
    CHECK(rd_isa_format(R6_R700, R6_CLS_CF, mem, NULL, 0, t, sizeof t));
    CHECK_STR(t, "MEM_SCRATCH WRITE_ACK 0 R0.____");
}

/* ---- hostile programs ---- */

static void hostile(const uint32_t *w, size_t nw, const char *want_fault, int want_unknown)
{
    uint8_t b[512];
    words_le(w, nw, b);
    int unknown;
    char *got = disasm(R6_R600, b, nw * 4, &unknown);
    if (!strstr(got, want_fault)) {
        check_failures++;
        fprintf(stderr, "no '%s' in:\n%s\n", want_fault, got);
    }
    CHECK_EQ(unknown, want_unknown);
    free(got);
    round_trip(R6_R600, b, nw * 4, want_fault);
}

static void test_hostile(void)
{
    /* ALU clause at unit 0x3FFFFF */
    uint32_t a[] = {0x003FFFFF, 0xA07C0000, 0, 0x80200000};
    hostile(a, 4, "# fault: the clause at CF 0 starts at dword 8388606, past the end of the "
                  "program (4 dwords)\n", 1);
    /* ALU count 128 from unit 1: past the end after one group */
    uint32_t b[] = {2, 0xA1FC0000, 0, 0x80200000, 0x80000000, 0x00001910};
    hostile(b, 6, "# fault: an ALU instruction of the clause at CF 0 runs past the end of the "
                  "program (3 units)\n", 1);
    /* an undefined CF opcode (0x3F) stops the walk */
    uint32_t c[] = {0, 0x1F800000, 0, 0x80200000};
    hostile(c, 4, "# fault: undefined CF instruction at dword 0: the sequencer stops\n", 2);
    /* a TEX clause over the CF program itself */
    uint32_t d[] = {0, 0x80A00000, 0, 0};
    hostile(d, 4, "# fault: a TEX instruction of the clause at CF 0 overlaps code listed before "
                  "(dword 0)\n", 1);
    /* an undefined ALU opcode (OP2 0x7F) in a clause: listed raw, unknown */
    uint32_t e[] = {2, 0xA0000000, 0, 0x80200000, 0x80000000, 0x00007F10};
    hostile(e, 6, "    .word 0x80000000, 0x00007F10                                 # 0004 "
                  "80000000 00007F10  unknown alu\n", 1);
    /* a group with no LAST in five slots */
    uint32_t f[16] = {2, 0xA0140000, 0, 0x80200000};
    for (int i = 2; i < 8; i++)
        f[2 * i] = 0, f[2 * i + 1] = 0x00001910;
    /* (six MOVs to .x: the second to fifth all ask for the t slot) */
    hostile(f, 16, "# fault: ALU group 1 of the clause at CF 0 has no LAST in 5 slots\n", 5);
    /* slots: two trans-only ops in a group; a vector-only op pushed to t */
    uint32_t h[] = {2, 0xA0040000, 0, 0x80200000, 0, 0x00006610, 0x80000000, 0x00006710};
    hostile(h, 8, "# fault: ALU group 1 has a second instruction for the t slot (dword 6)\n", 1);
    uint32_t k[] = {2, 0xA0040000, 0, 0x80200000, 0, 0x00001910, 0x80000000, 0x00005010};
    hostile(k, 8, "# fault: ALU group 1: DOT4 cannot run in the t slot (dword 6)\n", 1);
    /* jumps and loops back to the start: the walk is linear and ends */
    uint32_t l[] = {0, 0x85000000, 0, 0x82800000, 0, 0x82000000};
    hostile(l, 6, "# fault: no END_OF_PROGRAM before the end of the program\n", 1);
    /* a reserved CF_WORD1 bit (20) */
    uint32_t m[] = {0, 0x80300000};
    hostile(m, 2, "# fault: reserved bits set in the CF instruction at dword 0: the sequencer "
                  "stops\n", 2);
    /* a TEX clause counting past the end */
    uint32_t g[] = {2, 0x80A01C00, 0x00000010, 0x000D1000, 0xB0800000, 0};
    hostile(g, 6, "a TEX instruction of the clause at CF 0 runs past the end of the program (3 "
                  "units)", 1);
}

/* ---- round trips ---- */

/* Every class with random fields: opcode from the table, reserved bits
 * clear, the rest random; the text of each assembles to the same words. */
static void test_instructions(r6_chip c)
{
    enum { N = 1500 };
    size_t cap = (size_t)N * 640 + 64;
    char *src = malloc(cap);
    uint32_t *want = malloc((size_t)N * 4 * sizeof *want);
    size_t len = (size_t)snprintf(src, cap, ".chip %s\n", c == R6_R600 ? "r600" : "r700");
    size_t nw = 0, formatted = 0;
    for (int i = 0; i < N; i++) {
        const r6_op *op;
        do
            op = &r6_ops[rnd() % R6_NOPS];
        while (op->op[c] == R6_NONE);
        uint32_t w[4] = {rnd(), rnd(), rnd(), rnd()};
        unsigned n = r6_op_words(op);
        for (unsigned k = 0; k < n; k++)
            w[k] &= r6_op_mask(op, c, k);
        r6_encode_op(op, c, w);
        if (op->cls == R6_CLS_CF_ALU)
            w[1] |= 1u << 29;
        r6_class cls = op->cls <= R6_CLS_CF_EXP                               ? R6_CLS_CF
                       : op->cls == R6_CLS_TEX || op->cls == R6_CLS_VTX ? (r6_class)op->cls
                                                                          : R6_CLS_ALU_OP2;
        uint32_t lit[4] = {rnd(), rnd(), rnd(), rnd()};
        char text[600];
        if (!rd_isa_format(c, cls, w, lit, rnd() % 5, text, sizeof text)) {
            /* only an ALU word whose OP2 opcode reads as OP3 bits, or a
             * CF_ALU row with bit 29 misread, may fail here */
            continue;
        }
        formatted++;
        len += (size_t)snprintf(src + len, cap - len, "%s%s\n",
                                cls == R6_CLS_ALU_OP2 ? "x " : "", text);
        for (unsigned k = 0; k < n; k++)
            want[nw++] = w[k];
    }
    CHECK(formatted > N * 9 / 10);
    uint8_t *b, *wb = malloc(nw * 4 + 1);
    size_t bn;
    words_le(want, nw, wb);
    int rc = assemble(c, src, &b, &bn);
    CHECK_EQ(rc, 0);
    if (rc && getenv("RADEON_ISA_DUMP")) {
        FILE *f = fopen(getenv("RADEON_ISA_DUMP"), "w");
        if (f)
            fputs(src, f), fclose(f);
    }
    if (rc == 0) {
        CHECK_EQ(bn, nw * 4);
        if (bn == nw * 4 && memcmp(b, wb, bn)) {
            check_failures++;
            for (size_t k = 0; k < nw; k++) {
                uint32_t g = (uint32_t)b[4 * k] | (uint32_t)b[4 * k + 1] << 8 |
                             (uint32_t)b[4 * k + 2] << 16 | (uint32_t)b[4 * k + 3] << 24;
                if (g != want[k]) {
                    fprintf(stderr, "word %zu: 0x%08x != 0x%08x\n", k, g, want[k]);
                    break;
                }
            }
        }
        free(b);
    }
    free(wb);
    free(want);
    free(src);
}

/* Random programs: a CF list of ALU/TEX/VTX clauses and others over random
 * clause words (half of them with valid opcodes), and plain random bytes. */
static void test_programs(void)
{
    listed_alu = listed_fetch = 0;
    for (int it = 0; it < 300; it++) {
        r6_chip c = (r6_chip)(it & 1);
        uint32_t w[256];
        size_t nw = 2 * (8 + rnd() % 120);
        for (size_t i = 0; i < nw; i++)
            w[i] = rnd();
        unsigned ncf = 1 + rnd() % 6;
        for (unsigned i = 0; i < ncf && 2 * i + 1 < nw; i++) {
            uint32_t k = rnd() % 4, addr = ncf + rnd() % (uint32_t)(nw / 2), cnt = rnd() % 8;
            if (k == 0)
                w[2 * i] = addr, w[2 * i + 1] = 0xA0000000u | (cnt * 5 % 32) << 18 |
                                                (0xFFu & w[2 * i + 1]);
            else if (k == 1)
                w[2 * i] = addr, w[2 * i + 1] = 0x80800000u | (cnt & 7) << 10;
            else if (k == 2)
                w[2 * i] = addr, w[2 * i + 1] = 0x81000000u | (cnt & 7) << 10;
            else {
                const r6_op *op;
                do
                    op = &r6_ops[rnd() % R6_NOPS];
                while (op->cls > R6_CLS_CF_EXP || op->op[c] == R6_NONE ||
                       op->kind == R6K_CLAUSE_TEX || op->kind == R6K_CLAUSE_VTX ||
                       op->kind == R6K_CLAUSE_ALU);
                w[2 * i] &= r6_op_mask(op, c, 0);
                w[2 * i + 1] &= r6_op_mask(op, c, 1) & ~(1u << 21);
                r6_encode_op(op, c, &w[2 * i]);
            }
            if (i + 1 == ncf)
                w[2 * i + 1] |= 1u << 21;
        }
        /* clause words: three in four an instruction of the chip with its
         * reserved bits clear (ALU with LAST now and then, TEX, VTX) */
        for (size_t i = 2 * ncf; i + 1 < nw;) {
            const r6_op *op = &r6_ops[rnd() % R6_NOPS];
            unsigned n = r6_op_words(op);
            if (op->cls <= R6_CLS_CF_EXP || op->op[c] == R6_NONE || i + n > nw || rnd() % 4 == 0) {
                i += 2;
                continue;
            }
            for (unsigned k = 0; k < n; k++)
                w[i + k] &= r6_op_mask(op, c, k);
            r6_encode_op(op, c, &w[i]);
            if (n == 2 && rnd() % 3)
                w[i] &= 0x7FFFFFFFu;
            i += n;
        }
        uint8_t b[1024];
        words_le(w, nw, b);
        size_t n = nw * 4 - (it % 3 == 0 ? rnd() % 7 : 0);
        round_trip(c, b, n, "a random program");
    }
    /* the programs reach the clauses: many decoded ALU and fetch lines */
    printf("random programs: %zu ALU and %zu fetch instructions listed\n", listed_alu,
           listed_fetch);
    CHECK(listed_alu > 1000);
    CHECK(listed_fetch > 40);
}

int main(void)
{
    test_table();
    test_golden();
    test_chips();
    test_hostile();
    test_instructions(R6_R600);
    test_instructions(R6_R700);
    test_programs();
    return check_report("test_radeon_isa");
}
