/* Tests of the shared assembler front end (src/core/asm*.c): lexing, every
 * number form, every operator and precedence level, each core directive's
 * exact bytes, labels, `.`, .equ, sections, .incbin, a toy family proving
 * multi-pass convergence, the exact text of each error, and hostile input.
 * Runs in the build's tests/ directory, where it creates its .incbin files. */
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#include "check.h"
#include "cmdgpu/asm.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* ---- a toy family ----
 *   op EXPR      A0 v (2 bytes) if 0 <= v <= 255, else A1 v0 v1 v2 (4 bytes)
 *   .zero N      N zero bytes
 *   reg rN, EXPR N v          (cg_asm_ident, cg_asm_expect)
 *   str "s"      the bytes of s (cg_asm_string, capacity 8)
 *   flt F        records F (cg_asm_float)
 *   peek         'I' and consumes a name if one follows, else 'N'
 *   def NAME     defines NAME = pc + 100 (cg_asm_define)
 *   where        first letter of the current section, low byte of pc
 *   opt [EXPR]   EXPR, or EE without an operand (cg_asm_eol)
 *   emit32 EXPR  4 bytes via cg_asm_emit32
 *   ndef NAME    defines NAME = 1 in the final pass, 0 before (a broken family)
 *   noname       cg_asm_define with an empty name
 *   nested       checks that the object refuses re-entry while assembling
 *   bad          reports "bad operand";  fail  returns an error silently */
struct toy {
    int begin_calls, final_calls, last_pass;
    double last_float;
};

static int toy_statement(cg_asm *as, void *user, const char *name)
{
    struct toy *t = user;
    int64_t v;
    int rc;
    if (strcmp(name, "op") == 0) {
        if ((rc = cg_asm_expr(as, &v)) != 0)
            return rc;
        if (v >= 0 && v <= 255) {
            const uint8_t b[2] = {0xa0, (uint8_t)v};
            return cg_asm_emit(as, b, 2);
        }
        const uint8_t b[4] = {0xa1, (uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16)};
        return cg_asm_emit(as, b, 4);
    }
    if (strcmp(name, ".zero") == 0) {
        if ((rc = cg_asm_expr(as, &v)) != 0)
            return rc;
        if (v < 0 || v > 4096)
            return cg_asm_error(as, "bad count %lld", (long long)v);
        for (int64_t i = 0; i < v; i++)
            if ((rc = cg_asm_emit(as, "", 1)) != 0)
                return rc;
        return 0;
    }
    if (strcmp(name, "reg") == 0) {
        char r[8];
        if ((rc = cg_asm_ident(as, r, sizeof(r))) != 0)
            return rc;
        if (r[0] != 'r' || r[1] < '0' || r[1] > '9' || r[2])
            return cg_asm_error(as, "expected a register");
        if ((rc = cg_asm_expect(as, ',')) != 0 || (rc = cg_asm_expr(as, &v)) != 0)
            return rc;
        const uint8_t b[2] = {(uint8_t)(r[1] - '0'), (uint8_t)v};
        return cg_asm_emit(as, b, 2);
    }
    if (strcmp(name, "str") == 0) {
        char s[8];
        size_t len;
        if ((rc = cg_asm_string(as, s, sizeof(s), &len)) != 0)
            return rc;
        return cg_asm_emit(as, s, len);
    }
    if (strcmp(name, "flt") == 0)
        return cg_asm_float(as, &t->last_float);
    if (strcmp(name, "peek") == 0) {
        char s[8];
        if (cg_asm_peek_ident(as, s, sizeof(s))) {
            char s2[8];
            if ((rc = cg_asm_ident(as, s2, sizeof(s2))) != 0)
                return rc;
            CHECK_STR(s2, s);
            return cg_asm_emit(as, "I", 1);
        }
        return cg_asm_emit(as, "N", 1);
    }
    if (strcmp(name, "def") == 0) {
        char s[32];
        if ((rc = cg_asm_ident(as, s, sizeof(s))) != 0)
            return rc;
        return cg_asm_define(as, s, (int64_t)cg_asm_pc(as) + 100);
    }
    if (strcmp(name, "where") == 0) {
        const uint8_t b[2] = {(uint8_t)cg_asm_current_section(as)[0], (uint8_t)cg_asm_pc(as)};
        return cg_asm_emit(as, b, 2);
    }
    if (strcmp(name, "opt") == 0) {
        if (cg_asm_eol(as))
            return cg_asm_emit(as, "\xee", 1);
        if ((rc = cg_asm_expr(as, &v)) != 0)
            return rc;
        const uint8_t b = (uint8_t)v;
        return cg_asm_emit(as, &b, 1);
    }
    if (strcmp(name, "emit32") == 0) {
        if ((rc = cg_asm_expr(as, &v)) != 0)
            return rc;
        return cg_asm_emit32(as, (uint32_t)v);
    }
    if (strcmp(name, "ndef") == 0) { /* not deterministic: 1 in the final pass only */
        char s[32];
        if ((rc = cg_asm_ident(as, s, sizeof(s))) != 0)
            return rc;
        return cg_asm_define(as, s, cg_asm_final_pass(as));
    }
    if (strcmp(name, "noname") == 0)
        return cg_asm_define(as, "", 0);
    if (strcmp(name, "nested") == 0) { /* the object is busy while assembling */
        CHECK_EQ(cg_asm_assemble(as), CG_ERR_BUSY);
        CHECK_EQ(cg_asm_add_source(as, "n.s", "", 0), CG_ERR_BUSY);
        CHECK_EQ(cg_asm_add_file(as, "n.s"), CG_ERR_BUSY);
        return cg_asm_emit(as, "n", 1);
    }
    if (strcmp(name, "bad") == 0)
        return cg_asm_error(as, "bad operand");
    if (strcmp(name, "fail") == 0)
        return CG_ERR_RANGE;
    return CG_ERR_NOENT;
}

static void toy_begin_pass(cg_asm *as, void *user, int pass, bool final)
{
    struct toy *t = user;
    t->begin_calls++;
    t->final_calls += final;
    t->last_pass = pass;
    CHECK_EQ(cg_asm_pass(as), pass);
    CHECK_EQ(cg_asm_final_pass(as), final);
}

static const cg_asm_family toy_family = {"toy", toy_statement, toy_begin_pass};

/* ---- helpers: each reports failures at the caller's line ---- */

static void fail_at(int line, const char *what, const char *src, const char *errs)
{
    check_failures++;
    fprintf(stderr, "test_asm.c:%d: %s\n  source: \"%s\"\n  errors: \"%s\"\n", line, what, src,
            errs);
}

/* Assemble one source named "t.s"; *rc gets cg_asm_assemble's result. */
static cg_asm *run(const cg_asm_family *fam, void *user, const char *src, size_t len, int *rc)
{
    cg_asm *as = NULL;
    CHECK_EQ(cg_asm_create(fam, user, &as), 0);
    CHECK_EQ(cg_asm_add_source(as, "t.s", src, len), 0);
    *rc = cg_asm_assemble(as);
    return as;
}

static int64_t eval_at(int line, const char *expr)
{
    char src[2048];
    snprintf(src, sizeof(src), "x = %s\n", expr);
    int rc;
    cg_asm *as = run(NULL, NULL, src, strlen(src), &rc);
    int64_t v = 0;
    check_count++;
    if (rc != 0 || !cg_asm_symbol(as, "x", &v))
        fail_at(line, "expression failed", src, cg_asm_errors(as));
    cg_asm_destroy(as);
    return v;
}
#define EVAL(e) eval_at(__LINE__, e)

static void expect_errors_at(int line, const cg_asm_family *fam, const char *src, size_t len,
                             const char *want)
{
    struct toy t = {0};
    int rc;
    cg_asm *as = run(fam, &t, src, len, &rc);
    check_count++;
    if (rc != CG_ERR_SYNTAX || strcmp(cg_asm_errors(as), want) != 0) {
        fail_at(line, "errors differ", src, cg_asm_errors(as));
        fprintf(stderr, "  want:   \"%s\"\n", want);
    }
    /* One error per line of text. */
    size_t lines = 0;
    for (const char *p = cg_asm_errors(as); *p; p++)
        lines += *p == '\n';
    CHECK_EQ(cg_asm_error_count(as), lines);
    cg_asm_destroy(as);
}
#define EXPECT_ERRORS(src, want) expect_errors_at(__LINE__, NULL, src, strlen(src), want)
#define EXPECT_TOY_ERRORS(src, want)                                           \
    expect_errors_at(__LINE__, &toy_family, src, strlen(src), want)

/* Expect success and exactly one section, "text" at base 0, holding want. */
static void expect_bytes_at(int line, const cg_asm_family *fam, const char *src,
                            const uint8_t *want, size_t n)
{
    struct toy t = {0};
    int rc;
    cg_asm *as = run(fam, &t, src, strlen(src), &rc);
    const char *name = NULL;
    uint64_t base = 1;
    const uint8_t *data = NULL;
    size_t size = 0;
    check_count++;
    if (rc != 0 || cg_asm_section_count(as) != 1 ||
        cg_asm_section(as, 0, &name, &base, &data, &size) != 0 || strcmp(name, "text") != 0 ||
        base != 0 || size != n || (n && memcmp(data, want, n) != 0)) {
        fail_at(line, "bytes differ", src, cg_asm_errors(as));
        fprintf(stderr, "  got %zu bytes:", size);
        for (size_t i = 0; data && i < size && i < 64; i++)
            fprintf(stderr, " %02x", data[i]);
        fprintf(stderr, "\n");
    }
    cg_asm_destroy(as);
}
#define EXPECT_BYTES(src, ...)                                                 \
    do {                                                                       \
        static const uint8_t want_[] = {__VA_ARGS__};                          \
        expect_bytes_at(__LINE__, NULL, src, want_, sizeof(want_));            \
    } while (0)
#define EXPECT_TOY_BYTES(src, ...)                                             \
    do {                                                                       \
        static const uint8_t want_[] = {__VA_ARGS__};                          \
        expect_bytes_at(__LINE__, &toy_family, src, want_, sizeof(want_));     \
    } while (0)

static void write_file(const char *path, const void *data, size_t n)
{
    FILE *f = fopen(path, "wb");
    CHECK(f != NULL);
    if (f) {
        CHECK_EQ(fwrite(data, 1, n, f), n);
        fclose(f);
    }
}

/* ---- tests ---- */

static void test_numbers(void)
{
    CHECK_EQ(EVAL("123"), 123);
    CHECK_EQ(EVAL("0"), 0);
    CHECK_EQ(EVAL("007"), 7); /* leading zeros are decimal, not octal */
    CHECK_EQ(EVAL("0x7f"), 0x7f);
    CHECK_EQ(EVAL("0X7F"), 0x7f);
    CHECK_EQ(EVAL("0xDeadBeef"), 0xdeadbeef);
    CHECK_EQ(EVAL("0b1010"), 10);
    CHECK_EQ(EVAL("0B11"), 3);
    CHECK_EQ(EVAL("'c'"), 'c');
    CHECK_EQ(EVAL("' '"), ' ');
    CHECK_EQ(EVAL("'\\n'"), '\n');
    CHECK_EQ(EVAL("'\\t'"), '\t');
    CHECK_EQ(EVAL("'\\r'"), '\r');
    CHECK_EQ(EVAL("'\\0'"), 0);
    CHECK_EQ(EVAL("'\\\\'"), '\\');
    CHECK_EQ(EVAL("'\\''"), '\'');
    CHECK_EQ(EVAL("'\\\"'"), '"');
    CHECK_EQ(EVAL("'\\x41'"), 0x41);
    CHECK_EQ(EVAL("'\\xf'"), 0xf);
    CHECK_EQ(EVAL("'\xff'"), 0xff); /* a raw byte is unsigned */
    CHECK_EQ(EVAL("9223372036854775807"), INT64_MAX);
    CHECK_EQ(EVAL("18446744073709551615"), -1);
    CHECK_EQ(EVAL("0xffffffffffffffff"), -1);
    CHECK_EQ(EVAL("0x8000000000000000"), INT64_MIN);
    CHECK_EQ(EVAL("0b" "1111111111111111111111111111111111111111111111111111111111111111"), -1);
    CHECK_EQ(EVAL("0x0000000000000000000001"), 1); /* leading zeros do not overflow */
}

static void test_operators(void)
{
    /* Each operator. */
    CHECK_EQ(EVAL("2+3"), 5);
    CHECK_EQ(EVAL("2-3"), -1);
    CHECK_EQ(EVAL("6*7"), 42);
    CHECK_EQ(EVAL("7/2"), 3);
    CHECK_EQ(EVAL("-7/2"), -3); /* truncates toward zero */
    CHECK_EQ(EVAL("7/-2"), -3);
    CHECK_EQ(EVAL("7%3"), 1);
    CHECK_EQ(EVAL("-7%2"), -1); /* sign of the dividend */
    CHECK_EQ(EVAL("7%-2"), 1);
    CHECK_EQ(EVAL("6&3"), 2);
    CHECK_EQ(EVAL("6^3"), 5);
    CHECK_EQ(EVAL("6|3"), 7);
    CHECK_EQ(EVAL("1<<4"), 16);
    CHECK_EQ(EVAL("256>>4"), 16);
    CHECK_EQ(EVAL("-5"), -5);
    CHECK_EQ(EVAL("+5"), 5);
    CHECK_EQ(EVAL("~0"), -1);
    CHECK_EQ(EVAL("~0x0f"), -16);
    CHECK_EQ(EVAL("- -5"), 5);
    CHECK_EQ(EVAL("-~5"), 6);
    CHECK_EQ(EVAL("~-1"), 0);
    CHECK_EQ(EVAL("--3"), 3);

    /* Precedence and associativity, as in C. */
    CHECK_EQ(EVAL("1+2*3"), 7);
    CHECK_EQ(EVAL("(1+2)*3"), 9);
    CHECK_EQ(EVAL("1<<4|1"), 17);
    CHECK_EQ(EVAL("1|1<<4"), 17);
    CHECK_EQ(EVAL("1+2<<3"), 24);   /* + binds tighter than << */
    CHECK_EQ(EVAL("8>>1+1"), 2);
    CHECK_EQ(EVAL("1|6^3&5"), 7);   /* & then ^ then | : 1|(6^(3&5)) */
    CHECK_EQ(EVAL("(1|6)^3&5"), 6);
    CHECK_EQ(EVAL("12&10^6"), 14);  /* (12&10)^6 */
    CHECK_EQ(EVAL("3^5|8"), 14);    /* (3^5)|8 */
    CHECK_EQ(EVAL("3&1<<1"), 2);    /* 3&(1<<1) */
    CHECK_EQ(EVAL("10-3-2"), 5);    /* left-associative */
    CHECK_EQ(EVAL("100/10/5"), 2);
    CHECK_EQ(EVAL("2*3%4"), 2);     /* (2*3)%4 */
    CHECK_EQ(EVAL("7%4*3"), 9);
    CHECK_EQ(EVAL("1<<2<<3"), 32);
    CHECK_EQ(EVAL("-2*-3"), 6);
    CHECK_EQ(EVAL("~1+1"), -1);     /* (~1)+1 */
    CHECK_EQ(EVAL("-1+3"), 2);
    CHECK_EQ(EVAL("-(1+3)"), -4);
    CHECK_EQ(EVAL("2*(3+4)*5"), 70);
    CHECK_EQ(EVAL(" ( ( 7 ) ) "), 7);
    CHECK_EQ(EVAL("0x10 + 0b10 + 10 + 'A'"), 16 + 2 + 10 + 65);

    /* Shifts: >> is arithmetic; counts outside 0..63 give 0. */
    CHECK_EQ(EVAL("-8>>1"), -4);
    CHECK_EQ(EVAL("-1>>63"), -1);
    CHECK_EQ(EVAL("0x8000000000000000>>63"), -1);
    CHECK_EQ(EVAL("0x4000000000000000>>62"), 1);
    CHECK_EQ(EVAL("1<<63"), INT64_MIN);
    CHECK_EQ(EVAL("1<<64"), 0);
    CHECK_EQ(EVAL("-8>>64"), 0);
    CHECK_EQ(EVAL("1<<-1"), 0);
    CHECK_EQ(EVAL("8>>-1"), 0);
    CHECK_EQ(EVAL("1<<1000"), 0);

    /* 64-bit wrap-around, never a trap. */
    CHECK_EQ(EVAL("0x7fffffffffffffff+1"), INT64_MIN);
    CHECK_EQ(EVAL("-0x8000000000000000"), INT64_MIN);
    CHECK_EQ(EVAL("-0x8000000000000000-1"), INT64_MAX);
    CHECK_EQ(EVAL("0x7fffffffffffffff*2"), -2);
    CHECK_EQ(EVAL("0x8000000000000000/-1"), INT64_MIN);
    CHECK_EQ(EVAL("0x8000000000000000%-1"), 0);
    CHECK_EQ(EVAL("5/-1"), -5);
    CHECK_EQ(EVAL("5%-1"), 0);
    CHECK_EQ(EVAL("0xffffffffffffffff/2"), 0); /* -1/2 */

    /* Comments end an expression; "//" is not two divisions. */
    CHECK_EQ(EVAL("8 // 2"), 8);
    CHECK_EQ(EVAL("8 / 2 # c"), 4);
    CHECK_EQ(EVAL("8 ; 2"), 8);

    /* 255 nested parentheses are fine (256 are not, see test_errors). */
    char buf[1024];
    memset(buf, '(', 255);
    buf[255] = '1';
    memset(buf + 256, ')', 255);
    buf[511] = 0;
    CHECK_EQ(EVAL(buf), 1);
    memset(buf, '-', 254);
    strcpy(buf + 254, "1");
    CHECK_EQ(EVAL(buf), 1); /* an even number of minus signs */
}

static void test_data_directives(void)
{
    EXPECT_BYTES(".byte 1, 2, -1, 255, 'A', -128", 1, 2, 0xff, 0xff, 0x41, 0x80);
    EXPECT_BYTES(".half 0x1234, -1, 65535, -32768", 0x34, 0x12, 0xff, 0xff, 0xff, 0xff, 0,
                 0x80);
    EXPECT_BYTES(".word 0x12345678, -2147483648, 0xffffffff", 0x78, 0x56, 0x34, 0x12, 0, 0, 0,
                 0x80, 0xff, 0xff, 0xff, 0xff);
    EXPECT_BYTES(".dword 0x0102030405060708, -1", 8, 7, 6, 5, 4, 3, 2, 1, 0xff, 0xff, 0xff,
                 0xff, 0xff, 0xff, 0xff, 0xff);
    EXPECT_BYTES(".dword 0x8000000000000000", 0, 0, 0, 0, 0, 0, 0, 0x80);
    /* IEEE-754 single: 1.5 = 3fc00000, -2000 = c4fa0000, 16 = 41800000,
     * 1 = 3f800000, 0.1 = 3dcccccd, -0.0 = 80000000. */
    EXPECT_BYTES(".float 1.5, -2e3, 0x1p4, 1", 0, 0, 0xc0, 0x3f, 0, 0, 0xfa, 0xc4, 0, 0, 0x80,
                 0x41, 0, 0, 0x80, 0x3f);
    EXPECT_BYTES(".float 0.1, -0.0, 2E-1, 0x1.8p1, 1.", 0xcd, 0xcc, 0xcc, 0x3d, 0, 0, 0, 0x80,
                 0xcd, 0xcc, 0x4c, 0x3e, 0, 0, 0x40, 0x40, 0, 0, 0x80, 0x3f);
    EXPECT_BYTES(".float -3, 1<<4", 0, 0, 0x40, 0xc0, 0, 0, 0x80, 0x41); /* int expressions */
    EXPECT_BYTES(".float 1e-50", 0, 0, 0, 0); /* underflows to 0 */

    /* .org: absolute, gap zero-filled; .align: to the address, with a fill. */
    EXPECT_BYTES(".byte 1\n.org 4\n.byte 2", 1, 0, 0, 0, 2);
    EXPECT_BYTES(".byte 1\n.org 1\n.byte 2", 1, 2); /* .org to the current address */
    EXPECT_BYTES(".byte 1\n.align 4\n.byte 2\n.align 8, 0xcc\n.byte 3\n.align 1\n.byte 4", 1, 0,
                 0, 0, 2, 0xcc, 0xcc, 0xcc, 3, 4);
    EXPECT_BYTES(".byte 1\n.align 4, -1", 1, 0xff, 0xff, 0xff);
    EXPECT_BYTES(".align 16\n.byte 7", 7); /* already aligned */

    /* Labels and `.`. */
    EXPECT_BYTES("back: .dword back, fwd\nfwd: .byte 1", 0, 0, 0, 0, 0, 0, 0, 0, 16, 0, 0, 0,
                 0, 0, 0, 0, 1);
    EXPECT_BYTES(".byte 0\n.word ., . + 4", 0, 1, 0, 0, 0, 5, 0, 0, 0); /* `.` = statement start */
    EXPECT_BYTES(".equ size, end - start\nstart: .byte 1,2,3\nend:\n.byte size", 1, 2, 3, 3);
    EXPECT_BYTES("four = 2 + 2\n.byte four, FIVE\nFIVE=5", 4, 5);
    EXPECT_BYTES("$a.b_1: .byte $a.b_1 + 1, .L2\n.L2:", 1, 2);
    EXPECT_BYTES("\t.byte 1 ; comment\n# comment\n// comment\n\n   \n.byte 2 // c\r\n.byte 3#c", 1,
                 2, 3);

    /* Output with no sections at all. */
    int rc;
    cg_asm *as = run(NULL, NULL, "", 0, &rc);
    CHECK_EQ(rc, 0);
    CHECK_EQ(cg_asm_section_count(as), 0);
    CHECK_STR(cg_asm_errors(as), "");
    CHECK_EQ(cg_asm_error_count(as), 0);
    cg_asm_destroy(as);
}

static void test_labels(void)
{
    int rc;
    int64_t v;
    const char *src = "a: b:\nc: .byte .\n  d:\ne:f: .half f";
    cg_asm *as = run(NULL, NULL, src, strlen(src), &rc);
    CHECK_EQ(rc, 0);
    CHECK(cg_asm_symbol(as, "a", &v) && v == 0);
    CHECK(cg_asm_symbol(as, "b", &v) && v == 0);
    CHECK(cg_asm_symbol(as, "c", &v) && v == 0);
    CHECK(cg_asm_symbol(as, "d", &v) && v == 1);
    CHECK(cg_asm_symbol(as, "e", &v) && v == 1);
    CHECK(cg_asm_symbol(as, "f", &v) && v == 1);
    CHECK(!cg_asm_symbol(as, "g", &v));
    CHECK(!cg_asm_symbol(as, ".", &v));
    CHECK(cg_asm_symbol(as, "a", NULL));
    cg_asm_destroy(as);

    /* The same value twice is not a redefinition. */
    src = "x = 1\nx = 1\ny: y:\n.equ x, 2-1";
    as = run(NULL, NULL, src, strlen(src), &rc);
    CHECK_EQ(rc, 0);
    CHECK(cg_asm_symbol(as, "x", &v) && v == 1);
    cg_asm_destroy(as);

    /* Labels across sources, which assemble as one program. */
    cg_asm_create(NULL, NULL, &as);
    CHECK_EQ(cg_asm_add_source(as, "a.s", "x: .byte y", 10), 0);
    CHECK_EQ(cg_asm_add_source(as, "b.s", ".byte x\ny:", 10), 0);
    CHECK_EQ(cg_asm_assemble(as), 0);
    const uint8_t *data;
    size_t size;
    CHECK_EQ(cg_asm_section(as, 0, NULL, NULL, &data, &size), 0);
    CHECK_EQ(size, 2);
    CHECK_MEM(data, "\x02\x00", 2);
    /* Assembling again gives the same result. */
    CHECK_EQ(cg_asm_assemble(as), 0);
    CHECK_EQ(cg_asm_section(as, 0, NULL, NULL, &data, &size), 0);
    CHECK_EQ(size, 2);
    CHECK_MEM(data, "\x02\x00", 2);
    CHECK(cg_asm_symbol(as, "y", &v) && v == 2);
    cg_asm_destroy(as);
}

static void check_section(cg_asm *as, size_t i, const char *name, uint64_t base,
                          const void *bytes, size_t n)
{
    const char *nm = NULL;
    uint64_t b = 0;
    const uint8_t *data = NULL;
    size_t size = 0;
    CHECK_EQ(cg_asm_section(as, i, &nm, &b, &data, &size), 0);
    CHECK_STR(nm, name);
    CHECK_EQ(b, base);
    CHECK_EQ(size, n);
    if (size == n && n)
        CHECK_MEM(data, bytes, n);
    size_t idx = 99;
    CHECK_EQ(cg_asm_section_find(as, name, &idx), 0);
    CHECK_EQ(idx, i);
}

static void test_sections(void)
{
    int rc;
    int64_t v;
    const char *src = ".section a, 0x1000\n.byte 1\n.section b, 0x2000\n.word blab\n"
                      "blab:\n.section a\n.byte 2\nhere = .\n.section text\n.byte 3\n"
                      ".section a, 0x1000\n.byte 4";
    cg_asm *as = run(NULL, NULL, src, strlen(src), &rc);
    CHECK_EQ(rc, 0);
    CHECK_EQ(cg_asm_section_count(as), 3);
    check_section(as, 0, "a", 0x1000, "\x01\x02\x04", 3);
    check_section(as, 1, "b", 0x2000, "\x04\x20\x00\x00", 4);
    check_section(as, 2, "text", 0, "\x03", 1);
    CHECK(cg_asm_symbol(as, "blab", &v) && v == 0x2004);
    CHECK(cg_asm_symbol(as, "here", &v) && v == 0x1002);
    CHECK_EQ(cg_asm_section_find(as, "c", NULL), CG_ERR_NOENT);
    CHECK_EQ(cg_asm_section(as, 3, NULL, NULL, NULL, NULL), CG_ERR_RANGE);
    cg_asm_destroy(as);

    /* No implicit "text" when the first thing is a .section; a label before
     * it takes address 0 without creating it. */
    src = "start:\n.section d, 0x40\nx: .byte 0";
    as = run(NULL, NULL, src, strlen(src), &rc);
    CHECK_EQ(rc, 0);
    CHECK_EQ(cg_asm_section_count(as), 1);
    check_section(as, 0, "d", 0x40, "", 1);
    CHECK_EQ(cg_asm_section_find(as, "text", NULL), CG_ERR_NOENT);
    CHECK(cg_asm_symbol(as, "start", &v) && v == 0);
    CHECK(cg_asm_symbol(as, "x", &v) && v == 0x40);
    cg_asm_destroy(as);

    /* Emitting before the first .section creates "text" first. */
    src = ".byte 1\n.section d, 8\n.byte 2";
    as = run(NULL, NULL, src, strlen(src), &rc);
    CHECK_EQ(rc, 0);
    CHECK_EQ(cg_asm_section_count(as), 2);
    check_section(as, 0, "text", 0, "\x01", 1);
    check_section(as, 1, "d", 8, "\x02", 1);
    cg_asm_destroy(as);

    /* Naming "text" creates it even when empty; a section without BASE is
     * at 0; .align of nothing creates nothing. */
    src = ".align 4\n.section text\n.section .data\n";
    as = run(NULL, NULL, src, strlen(src), &rc);
    CHECK_EQ(rc, 0);
    CHECK_EQ(cg_asm_section_count(as), 2);
    check_section(as, 0, "text", 0, "", 0);
    check_section(as, 1, ".data", 0, "", 0);
    cg_asm_destroy(as);

    /* .org and .align work on addresses: base + offset. */
    src = ".section s, 0x100\n.byte 1\n.org 0x104\n.byte 2\n.section t, 0x102\n.align 4\n"
          ".byte 9\n.section u, 0xfffffffffffffffe\n.byte 1\nlast = .\n.byte 2";
    as = run(NULL, NULL, src, strlen(src), &rc);
    CHECK_EQ(rc, 0);
    check_section(as, 0, "s", 0x100, "\x01\x00\x00\x00\x02", 5);
    check_section(as, 1, "t", 0x102, "\x00\x00\x09", 3);
    check_section(as, 2, "u", 0xfffffffffffffffe, "\x01\x02", 2);
    CHECK(cg_asm_symbol(as, "last", &v) && v == -1);
    cg_asm_destroy(as);

    /* A base may be a forward reference. */
    src = ".section code, 0x10\n.word 1, 2\ncode_end:\n.section data, code_end\nd0: .byte 5";
    as = run(NULL, NULL, src, strlen(src), &rc);
    CHECK_EQ(rc, 0);
    check_section(as, 1, "data", 0x18, "\x05", 1);
    CHECK(cg_asm_symbol(as, "d0", &v) && v == 0x18);
    cg_asm_destroy(as);
}

static void test_incbin(void)
{
    uint8_t bytes[16];
    for (int i = 0; i < 16; i++)
        bytes[i] = (uint8_t)i;
    write_file("asm_test_inc.bin", bytes, sizeof(bytes));
    write_file("asm_test_empty.bin", "", 0);
    mkdir("asm_test_dir", 0777);
    write_file("asm_test_dir/sub.bin", "\xaa\xbb", 2);
    const char *file_src = ".byte 1\n.incbin \"sub.bin\", 1\n";
    write_file("asm_test_dir/file.s", file_src, strlen(file_src));

    EXPECT_BYTES(".incbin \"asm_test_inc.bin\"", 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14,
                 15);
    EXPECT_BYTES(".incbin \"asm_test_inc.bin\", 12", 12, 13, 14, 15);
    EXPECT_BYTES(".incbin \"asm_test_inc.bin\", 4, 3", 4, 5, 6);
    EXPECT_BYTES(".byte 9\n.incbin \"asm_test_inc.bin\", 16\n.incbin \"asm_test_inc.bin\", 1, 0\n"
                 ".incbin \"asm_test_empty.bin\"\n.byte 9",
                 9, 9);
    EXPECT_BYTES(".incbin \"asm_test_inc.bin\", 15, 1\nend:\n.byte end", 15, 1);
    EXPECT_BYTES(".incbin \"asm_\\x74est_inc.bin\", 2*7", 14, 15); /* escapes in the name */

    /* Relative to the including source's directory. */
    int rc;
    cg_asm *as;
    const char *src = ".incbin \"sub.bin\"";
    cg_asm_create(NULL, NULL, &as);
    CHECK_EQ(cg_asm_add_source(as, "asm_test_dir/main.s", src, strlen(src)), 0);
    CHECK_EQ(cg_asm_add_file(as, "asm_test_dir/file.s"), 0);
    rc = cg_asm_assemble(as);
    CHECK_EQ(rc, 0);
    check_section(as, 0, "text", 0, "\xaa\xbb\x01\xbb", 4);
    cg_asm_destroy(as);

    /* An absolute path. */
    char cwd[2048], abs_src[2300];
    CHECK(getcwd(cwd, sizeof(cwd)) != NULL);
    snprintf(abs_src, sizeof(abs_src), ".incbin \"%s/asm_test_inc.bin\", 0, 2", cwd);
    cg_asm_create(NULL, NULL, &as);
    CHECK_EQ(cg_asm_add_source(as, "asm_test_dir/main.s", abs_src, strlen(abs_src)), 0);
    CHECK_EQ(cg_asm_assemble(as), 0);
    check_section(as, 0, "text", 0, "\x00\x01", 2);
    cg_asm_destroy(as);

    EXPECT_ERRORS(".incbin \"asm_test_missing.bin\"",
                  "t.s:1:9: cannot open 'asm_test_missing.bin': No such file or directory\n");
    EXPECT_ERRORS(".incbin \"asm_test_inc.bin\", 17",
                  "t.s:1:29: offset 17 is past the end of 'asm_test_inc.bin' (16 bytes)\n");
    EXPECT_ERRORS(".incbin \"asm_test_inc.bin\", 4, 13",
                  "t.s:1:32: offset 4 + length 13 is past the end of 'asm_test_inc.bin' (16 bytes)\n");
    EXPECT_ERRORS(".incbin \"asm_test_inc.bin\", -1",
                  "t.s:1:29: negative offset -1\n");
    EXPECT_ERRORS(".incbin \"asm_test_inc.bin\", 0, -1",
                  "t.s:1:32: negative length -1\n");
    EXPECT_ERRORS(".incbin \"asm_test_dir\"",
                  "t.s:1:9: cannot read 'asm_test_dir': not a regular file\n");
    EXPECT_ERRORS(".incbin \"\"", "t.s:1:9: empty file name\n");
    EXPECT_ERRORS(".incbin \"a\\0b\"", "t.s:1:9: file name 'a\\x00b' contains a NUL byte\n");
    EXPECT_ERRORS(".incbin asm_test_inc.bin", "t.s:1:9: expected a string, found 'asm_test_inc.bin'\n");
    EXPECT_ERRORS(".incbin \"asm_test_inc.bin", "t.s:1:9: unterminated string\n");
    EXPECT_ERRORS(".incbin \"\\q\"", "t.s:1:10: unknown escape sequence '\\q'\n");
    EXPECT_ERRORS(".incbin \"\\x\"", "t.s:1:10: \\x needs one or two hex digits\n");
    EXPECT_ERRORS(".incbin \"\\", "t.s:1:10: incomplete escape sequence\n");

    CHECK_EQ(cg_asm_create(NULL, NULL, &as), 0);
    CHECK_EQ(cg_asm_add_file(as, "asm_test_no_such_file.s"), CG_ERR_NOENT);
    CHECK_EQ(cg_asm_section_count(as), 0);
    cg_asm_destroy(as);
}

static void test_include(void)
{
    mkdir("asm_test_dir", 0777);
    mkdir("asm_test_dir/sub", 0777);
    const char *inc = "two: .byte 2\n.include \"sub/three.inc\"\n";
    write_file("asm_test_dir/two.inc", inc, strlen(inc));
    const char *three = ".byte 3, two\n";
    write_file("asm_test_dir/sub/three.inc", three, strlen(three));
    const char *loop = ".byte 7\n.include \"loop.inc\"\n";
    write_file("asm_test_dir/loop.inc", loop, strlen(loop));
    const char *bad = ".byte 1\n.word nosuch\n";
    write_file("asm_test_dir/bad.inc", bad, strlen(bad));

    /* nested, each relative to its own file; labels visible both ways;
     * the same file twice; lines after the .include carry on */
    cg_asm *as;
    const char *src = ".byte 1\n.include \"two.inc\"\n.byte 4, later\n"
                      ".include \"sub/three.inc\"\nlater: .byte 5";
    cg_asm_create(NULL, NULL, &as);
    CHECK_EQ(cg_asm_add_source(as, "asm_test_dir/main.s", src, strlen(src)), 0);
    CHECK_EQ(cg_asm_assemble(as), 0);
    check_section(as, 0, "text", 0, "\x01\x02\x03\x01\x04\x08\x03\x01\x05", 9);
    cg_asm_destroy(as);

    /* errors inside an included file name that file and line */
    src = ".include \"bad.inc\"";
    cg_asm_create(NULL, NULL, &as);
    CHECK_EQ(cg_asm_add_source(as, "asm_test_dir/main.s", src, strlen(src)), 0);
    CHECK(cg_asm_assemble(as) != 0);
    CHECK_STR(cg_asm_errors(as), "asm_test_dir/bad.inc:2:7: undefined symbol 'nosuch'\n");
    cg_asm_destroy(as);

    /* an include loop ends at the nesting limit with one error */
    src = ".include \"loop.inc\"";
    cg_asm_create(NULL, NULL, &as);
    CHECK_EQ(cg_asm_add_source(as, "asm_test_dir/main.s", src, strlen(src)), 0);
    CHECK(cg_asm_assemble(as) != 0);
    CHECK_STR(cg_asm_errors(as),
              "asm_test_dir/loop.inc:2:10: .include nested more than 16 deep (an include loop?)\n");
    cg_asm_destroy(as);

    EXPECT_ERRORS(".include \"asm_test_missing.s\"",
                  "t.s:1:10: cannot read 'asm_test_missing.s': No such file or directory\n");
    EXPECT_ERRORS(".include \"asm_test_dir\"",
                  "t.s:1:10: cannot read 'asm_test_dir': not a regular file\n");
    EXPECT_ERRORS(".include \"\"", "t.s:1:10: empty file name\n");
    EXPECT_ERRORS(".include \"-\"", "t.s:1:10: cannot read '-': not a regular file\n");
    /* a source over 16 MiB is refused before it is read (a sparse file) */
    write_file("asm_test_big.inc", "", 0);
    CHECK_EQ(truncate("asm_test_big.inc", (16 << 20) + 1), 0);
    EXPECT_ERRORS(".include \"asm_test_big.inc\"",
                  "t.s:1:10: 'asm_test_big.inc' is larger than 16777216 bytes\n");
    unlink("asm_test_big.inc");
    EXPECT_ERRORS(".include two.inc", "t.s:1:10: expected a string, found 'two.inc'\n");
    EXPECT_ERRORS(".include \"asm_test_dir/two.inc\" 1",
                  "t.s:1:33: unexpected text after the file name\n");
}

static void test_family(void)
{
    /* op's size depends on a forward label: pass 1 guesses end = 0 (2 bytes,
     * end = 256), pass 2 uses 4 bytes (end = 258), pass 3 changes nothing,
     * pass 4 is the final one. */
    struct toy t = {0};
    int rc;
    int64_t v;
    const char *src = "op end\n.zero 254\nend:\n";
    cg_asm *as = run(&toy_family, &t, src, strlen(src), &rc);
    CHECK_EQ(rc, 0);
    CHECK_EQ(t.begin_calls, 4);
    CHECK_EQ(t.final_calls, 1);
    CHECK_EQ(t.last_pass, 4);
    CHECK(cg_asm_symbol(as, "end", &v) && v == 258);
    const uint8_t *data;
    size_t size;
    CHECK_EQ(cg_asm_section(as, 0, NULL, NULL, &data, &size), 0);
    CHECK_EQ(size, 258);
    if (size == 258) {
        CHECK_MEM(data, "\xa1\x02\x01\x00", 4);
        size_t nonzero = 0;
        for (size_t i = 4; i < size; i++)
            nonzero += data[i] != 0;
        CHECK_EQ(nonzero, 0);
    }
    cg_asm_destroy(as);

    /* Only backward references: the second pass confirms, the third is final;
     * with no symbols at all one pass plus the final one. */
    memset(&t, 0, sizeof(t));
    src = "start: op start\nop 300";
    as = run(&toy_family, &t, src, strlen(src), &rc);
    CHECK_EQ(rc, 0);
    CHECK_EQ(t.begin_calls, 3);
    cg_asm_destroy(as);
    memset(&t, 0, sizeof(t));
    as = run(&toy_family, &t, "op 1", 4, &rc);
    CHECK_EQ(rc, 0);
    CHECK_EQ(t.begin_calls, 2);
    CHECK_EQ(t.final_calls, 1);
    cg_asm_destroy(as);

    EXPECT_TOY_BYTES("op 5\nop 0x10000", 0xa0, 5, 0xa1, 0, 0, 1);
    EXPECT_TOY_BYTES("reg r3, 7\nreg r1,-1", 3, 7, 1, 0xff);
    EXPECT_TOY_BYTES("str \"a\\tb\\x00\\\"\"\nstr \"\"", 'a', '\t', 'b', 0, '"');
    EXPECT_TOY_BYTES("peek\npeek abc\npeek\t# c", 'N', 'I', 'N');
    EXPECT_TOY_BYTES("where\nwhere", 't', 0, 't', 2);
    EXPECT_TOY_BYTES("opt\nopt 3\nopt # comment", 0xee, 3, 0xee);
    EXPECT_TOY_BYTES("emit32 0x11223344\nemit32 -2", 0x44, 0x33, 0x22, 0x11, 0xfe, 0xff, 0xff,
                     0xff);
    EXPECT_TOY_BYTES(".byte 1\ndef lab\n.byte lab", 1, 101);
    EXPECT_TOY_BYTES(".byte fwd\n.zero 2\ndef fwd", 103, 0, 0); /* defined by a family, forward */

    /* cg_asm_float: literals and integer expressions. */
    static const struct {
        const char *text;
        double want;
    } floats[] = {
        {"flt 1.5", 1.5}, {"flt -2e3", -2000.0}, {"flt 0x1p4", 16.0}, {"flt 3", 3.0},
        {"flt 2+3*2", 8.0}, {"flt - 0.25", -0.25}, {"flt +1e2", 100.0}, {"flt 0x1.8p-1", 0.75},
        {"flt 1e308", 1e308}, {"flt -(2)", -2.0},
    };
    for (size_t i = 0; i < ARRAY_SIZE(floats); i++) {
        memset(&t, 0, sizeof(t));
        as = run(&toy_family, &t, floats[i].text, strlen(floats[i].text), &rc);
        CHECK_EQ(rc, 0);
        CHECK(t.last_float == floats[i].want);
        if (t.last_float != floats[i].want)
            fprintf(stderr, "  %s -> %g\n", floats[i].text, t.last_float);
        cg_asm_destroy(as);
    }
    EXPECT_TOY_ERRORS("flt 1e999", "t.s:1:5: floating-point number out of range\n");
    EXPECT_TOY_ERRORS("flt 1.5x", "t.s:1:5: invalid number '1.5x'\n");
    EXPECT_TOY_ERRORS("flt 1.5 + 1", "t.s:1:9: unexpected '+'\n");
    EXPECT_TOY_ERRORS("flt 1e", "t.s:1:5: invalid number '1e'\n");
    char longf[400] = "flt 1.";
    memset(longf + 6, '0', 300);
    EXPECT_TOY_ERRORS(longf, "t.s:1:5: floating-point number longer than 254 characters\n");
    EXPECT_TOY_ERRORS("flt 0x1.8", "t.s:1:5: invalid number '0x1.8'\n");

    /* Errors through the family. */
    EXPECT_TOY_ERRORS("foo 1", "t.s:1:1: unknown mnemonic 'foo'\n");
    EXPECT_TOY_ERRORS("  .foo", "t.s:1:3: unknown directive '.foo'\n");
    EXPECT_TOY_ERRORS("bad   1", "t.s:1:7: bad operand\n"); /* at the cursor */
    EXPECT_TOY_ERRORS("fail", "t.s:1:1: 'fail' failed: address or size out of range\n");
    EXPECT_TOY_ERRORS("op 1 junk", "t.s:1:6: unexpected 'junk'\n");
    EXPECT_TOY_ERRORS("op 1, 2", "t.s:1:5: unexpected ','\n");
    EXPECT_TOY_ERRORS("reg r1 5", "t.s:1:8: expected ',', found '5'\n");
    EXPECT_TOY_ERRORS("reg r1", "t.s:1:7: expected ',', found end of line\n");
    EXPECT_TOY_ERRORS("reg x1, 5", "t.s:1:7: expected a register\n");
    EXPECT_TOY_ERRORS("reg ,", "t.s:1:5: expected a name, found ','\n");
    EXPECT_TOY_ERRORS("reg r1234567", "t.s:1:5: name longer than 7 characters\n");
    EXPECT_TOY_ERRORS("str \"12345678\"", "t.s:1:5: string longer than 7 bytes\n");
    EXPECT_TOY_ERRORS("str 5", "t.s:1:5: expected a string, found '5'\n");
    EXPECT_TOY_ERRORS(".zero 5000", "t.s:1:11: bad count 5000\n");
    EXPECT_TOY_ERRORS("def a\n.byte 0\ndef a", "t.s:3:6: symbol 'a' redefined\n");
    EXPECT_TOY_ERRORS("op undefined_thing", "t.s:1:4: undefined symbol 'undefined_thing'\n");

    /* A layout that never settles: .org end^1 alternates between 1 and 0. */
    memset(&t, 0, sizeof(t));
    src = ".org end ^ 1\nend:";
    as = run(&toy_family, &t, src, strlen(src), &rc);
    CHECK_EQ(rc, CG_ERR_SYNTAX);
    CHECK_STR(cg_asm_errors(as),
              "t.s:2:1: labels do not converge ('end' still changes after 16 passes)\n");
    CHECK_EQ(t.begin_calls, 17);
    CHECK_EQ(t.final_calls, 1);
    cg_asm_destroy(as);
    /* Circular .equ definitions have no value (issue 16: `.equ a, a` used
     * to settle on the first guess, 0): one error per cycle, at a .equ of
     * the cycle, and no "do not converge" on top. */
    EXPECT_ERRORS(".equ a, b + 1\n.equ b, a + 1",
                  "t.s:1:6: circular definition: 'a' depends on itself (through 'b')\n");
    EXPECT_ERRORS(".equ a, a\n.word a", "t.s:1:6: circular definition: 'a' depends on itself\n");
    EXPECT_ERRORS(".word 1\n  .equ  zz, 0 * zz + 7",
                  "t.s:2:9: circular definition: 'zz' depends on itself\n");
    EXPECT_ERRORS(".equ a, b\n.equ b, c\n.equ c, a\n.equ d, 1",
                  "t.s:1:6: circular definition: 'a' depends on itself (through 'c')\n");
    EXPECT_ERRORS(".equ a, b\n.equ b, a\n.equ c, d\n.equ d, c",
                  "t.s:1:6: circular definition: 'a' depends on itself (through 'b')\n"
                  "t.s:3:6: circular definition: 'c' depends on itself (through 'd')\n");
    /* Forward references that are not cycles still work. */
    EXPECT_BYTES(".equ a, b + 1\n.equ b, c * 2\n.equ c, 3\n.byte a, b, c", 7, 6, 3);
    EXPECT_BYTES(".equ n, end - start\nstart: .byte n, n\nend:", 2, 2);

    /* A family that is not deterministic moves the layout in the final pass. */
    EXPECT_TOY_ERRORS("ndef q", "t.s:1:7: labels do not converge ('q' changed in the final pass)\n");
    EXPECT_TOY_ERRORS("noname", "t.s:1:7: invalid symbol name\n");
    EXPECT_TOY_BYTES("nested", 'n');

    /* Cursor functions outside of assembly are harmless. */
    cg_asm_create(&toy_family, &t, &as);
    CHECK(cg_asm_eol(as));
    CHECK(!cg_asm_accept(as, ','));
    CHECK_EQ(cg_asm_pc(as), 0);
    CHECK_STR(cg_asm_current_section(as), "text");
    CHECK_EQ(cg_asm_pass(as), 0);
    CHECK(!cg_asm_final_pass(as));
    cg_asm_destroy(as);
}

static void test_errors(void)
{
    EXPECT_ERRORS("foo\n", "t.s:1:1: unknown mnemonic 'foo'\n");
    EXPECT_ERRORS("  .foo 1\n", "t.s:1:3: unknown directive '.foo'\n");
    EXPECT_ERRORS("lab: foo", "t.s:1:6: unknown mnemonic 'foo'\n");
    EXPECT_ERRORS(".byte 1 2\n", "t.s:1:9: unexpected '2'\n");
    EXPECT_ERRORS("1abc", "t.s:1:1: unexpected '1abc'\n");
    EXPECT_ERRORS("  @", "t.s:1:3: unexpected '@'\n");
    EXPECT_ERRORS(".byte 256\n", "t.s:1:7: value 256 does not fit in 8 bits\n");
    EXPECT_ERRORS(".byte 1, -129\n", "t.s:1:10: value -129 does not fit in 8 bits\n");
    EXPECT_ERRORS(".half 65536", "t.s:1:7: value 65536 does not fit in 16 bits\n");
    EXPECT_ERRORS(".half -32769", "t.s:1:7: value -32769 does not fit in 16 bits\n");
    EXPECT_ERRORS(".word 0x100000000", "t.s:1:7: value 4294967296 does not fit in 32 bits\n");
    EXPECT_ERRORS(".word -2147483649", "t.s:1:7: value -2147483649 does not fit in 32 bits\n");
    EXPECT_ERRORS(".byte", "t.s:1:6: expected an expression, found end of line\n");
    EXPECT_ERRORS(".byte ,", "t.s:1:7: expected an expression, found ','\n");
    EXPECT_ERRORS(".byte 1,", "t.s:1:9: expected an expression, found end of line\n");
    EXPECT_ERRORS(".byte 1 +", "t.s:1:10: expected an expression, found end of line\n");
    EXPECT_ERRORS(".byte 2 < 1", "t.s:1:9: unexpected '<'\n");
    EXPECT_ERRORS(".float 1e39", "t.s:1:8: value 1e+39 does not fit in a 32-bit float\n");
    EXPECT_ERRORS(".float 1e999", "t.s:1:8: floating-point number out of range\n");
    EXPECT_ERRORS(".word x\n", "t.s:1:7: undefined symbol 'x'\n");
    EXPECT_ERRORS(".equ a, b", "t.s:1:9: undefined symbol 'b'\n");
    EXPECT_ERRORS(".equ a b", "t.s:1:8: expected ',', found 'b'\n");
    EXPECT_ERRORS(".equ 1, 2", "t.s:1:6: expected a name, found '1'\n");
    EXPECT_ERRORS("a:\n.byte 0\na:\n", "t.s:3:1: symbol 'a' redefined\n");
    EXPECT_ERRORS("op x\nlab:\n.byte lab", "t.s:1:1: unknown mnemonic 'op'\n");
    EXPECT_ERRORS("a: .byte 0\n a: .byte 0\n", "t.s:2:2: symbol 'a' redefined\n");
    EXPECT_ERRORS("x = 1\nx = 2\n", "t.s:2:1: symbol 'x' redefined\n");
    EXPECT_ERRORS("x = 1\n.equ x, 2\n", "t.s:2:6: symbol 'x' redefined\n");
    EXPECT_ERRORS(". = 4", "t.s:1:1: '.' cannot be defined\n");
    EXPECT_ERRORS(".: .byte 0", "t.s:1:1: '.' cannot be defined\n");
    EXPECT_ERRORS(".byte 1/0", "t.s:1:9: division by zero\n");
    EXPECT_ERRORS(".byte 1 % (2-2)", "t.s:1:11: division by zero\n");
    EXPECT_ERRORS("x = (1+2\n", "t.s:1:9: expected ')', found end of line\n");
    EXPECT_ERRORS("x = (1+2]\n", "t.s:1:9: expected ')', found ']'\n");
    EXPECT_ERRORS("x = 0x", "t.s:1:5: invalid number '0x'\n");
    EXPECT_ERRORS("x = 0b2", "t.s:1:5: invalid number '0b2'\n");
    EXPECT_ERRORS("x = 12ab", "t.s:1:5: invalid number '12ab'\n");
    EXPECT_ERRORS("x = 1.5", "t.s:1:5: floating-point number '1.5' not allowed here\n");
    EXPECT_ERRORS("x = 0x10000000000000000",
                  "t.s:1:5: number '0x10000000000000000' does not fit in 64 bits\n");
    EXPECT_ERRORS("x = 18446744073709551616",
                  "t.s:1:5: number '18446744073709551616' does not fit in 64 bits\n");
    EXPECT_ERRORS("x = 'ab'", "t.s:1:5: character literal with more than one character\n");
    EXPECT_ERRORS("x = 'a", "t.s:1:5: unterminated character literal\n");
    EXPECT_ERRORS("x = '", "t.s:1:5: unterminated character literal\n");
    EXPECT_ERRORS("x = ''", "t.s:1:5: empty character literal\n");
    EXPECT_ERRORS("x = \"s\"", "t.s:1:5: expected an expression, found '\"'\n");
    EXPECT_ERRORS(".align 3", "t.s:1:8: alignment 3 is not a power of two\n");
    EXPECT_ERRORS(".align 0", "t.s:1:8: alignment 0 is not a power of two\n");
    EXPECT_ERRORS(".align -4", "t.s:1:8: alignment -4 is not a power of two\n");
    EXPECT_ERRORS(".align 4, 256", "t.s:1:11: fill value 256 does not fit in 8 bits\n");
    EXPECT_ERRORS(".byte 1\n.org 0\n", "t.s:2:6: .org 0x0 moves backwards from 0x1\n");
    EXPECT_ERRORS(".section d, 0x100\n.org 0x10\n",
                  "t.s:2:6: .org 0x10 is below the base 0x100 of section 'd'\n");
    EXPECT_ERRORS(".section d, 1\n.section d, 2\n", "t.s:2:13: section 'd' already has base 0x1\n");
    EXPECT_ERRORS(".section", "t.s:1:9: expected a name, found end of line\n");
    EXPECT_ERRORS(".section 5", "t.s:1:10: expected a name, found '5'\n");
    EXPECT_ERRORS(".section s, 0xffffffffffffffff\n.byte 1, 2",
                  "t.s:2:1: section 's' runs past the end of the 64-bit address space\n");
    EXPECT_ERRORS(".org 0x4000001",
                  "t.s:1:6: .org would skip 67108865 bytes (more than 64 MiB)\n");
    EXPECT_ERRORS(".byte 1\n.align 0x8000000",
                  "t.s:2:8: .align would skip 134217727 bytes (more than 64 MiB)\n");
    EXPECT_ERRORS(".align 0x4000000000000000\n.byte 1\n.align 0x4000000000000000",
                  "t.s:3:8: .align would skip 4611686018427387903 bytes (more than 64 MiB)\n");

    /* Nesting limits. */
    char buf[4096];
    memset(buf, 0, sizeof(buf));
    strcpy(buf, "x = ");
    memset(buf + 4, '(', 256);
    strcat(buf, "1");
    EXPECT_ERRORS(buf, "t.s:1:260: expression nested more than 255 levels deep\n");
    memset(buf + 4, '~', 300);
    EXPECT_ERRORS(buf, "t.s:1:260: expression nested more than 255 levels deep\n");

    /* Several errors, collected, each on its own line; the good lines still
     * assemble. */
    EXPECT_ERRORS("foo\n.byte 300\n.byte 1\nbar 1, 2\n.word y\n",
                  "t.s:1:1: unknown mnemonic 'foo'\n"
                  "t.s:2:7: value 300 does not fit in 8 bits\n"
                  "t.s:4:1: unknown mnemonic 'bar'\n"
                  "t.s:5:7: undefined symbol 'y'\n");

    /* At most 100 errors, then "too many errors" and the pass stops. */
    size_t n = 0;
    for (int i = 0; i < 150; i++)
        n += (size_t)snprintf(buf + n, sizeof(buf) - n, "foo\n");
    int rc;
    cg_asm *as = run(NULL, NULL, buf, n, &rc);
    CHECK_EQ(rc, CG_ERR_SYNTAX);
    CHECK_EQ(cg_asm_error_count(as), 101);
    const char *e = cg_asm_errors(as);
    CHECK(strncmp(e, "t.s:1:1: unknown mnemonic 'foo'\nt.s:2:1: unknown mnemonic 'foo'\n", 64) == 0);
    const char *tail = "t.s:100:1: unknown mnemonic 'foo'\nt.s:101:1: too many errors\n";
    CHECK(strlen(e) > strlen(tail) && strcmp(e + strlen(e) - strlen(tail), tail) == 0);
    cg_asm_destroy(as);

    /* Errors name the source they come from. */
    cg_asm_create(NULL, NULL, &as);
    cg_asm_add_source(as, "first.s", ".byte 1\n", 8);
    cg_asm_add_source(as, "dir/second.s", "\n  nope\n", 8);
    CHECK_EQ(cg_asm_assemble(as), CG_ERR_SYNTAX);
    CHECK_STR(cg_asm_errors(as), "dir/second.s:2:3: unknown mnemonic 'nope'\n");
    CHECK_EQ(cg_asm_error_count(as), 1);
    /* Errors are reset by the next assembly. */
    cg_asm_add_source(as, NULL, "x:", 2);
    CHECK_EQ(cg_asm_assemble(as), CG_ERR_SYNTAX);
    CHECK_EQ(cg_asm_error_count(as), 1);
    cg_asm_destroy(as);
}

static void test_limits(void)
{
    /* 256 MiB of output in all: four 60 MiB gaps fit, the fifth does not. */
    const char *src = ".org 0x3c00000\n.org 0x7800000\n.org 0xb400000\n.org 0xf000000\n"
                      ".org 0x12c00000\n";
    EXPECT_ERRORS(src, "t.s:5:1: output larger than 256 MiB\n");

    /* A long line, a long name. */
    size_t len = 200000;
    char *big = malloc(len + 16);
    CHECK(big != NULL);
    if (!big)
        return;
    memset(big, ' ', len);
    memcpy(big + len, "foo", 4);
    EXPECT_ERRORS(big, "t.s:1:200001: unknown mnemonic 'foo'\n");
    memset(big, 'a', len);
    memcpy(big + len, ":", 2);
    EXPECT_ERRORS(big, "t.s:1:1: name longer than 255 characters\n");
    big[len] = 0;
    EXPECT_ERRORS(big, "t.s:1:1: name longer than 255 characters\n");
    memcpy(big, ".byte ", 6);
    EXPECT_ERRORS(big, "t.s:1:7: name longer than 255 characters\n");
    memset(big, 0, len + 16);
    memset(big, 'a', 255);
    strcat(big, ": .byte ");
    memcpy(big + strlen(big), big, 255);
    EXPECT_BYTES(big, 0);
    free(big);
}

static void test_many(void)
{
    /* Enough symbols and sections to rehash their indexes several times. */
    size_t cap = 1 << 20, n = 0;
    char *src = malloc(cap);
    CHECK(src != NULL);
    if (!src)
        return;
    n += (size_t)snprintf(src + n, cap - n, ".dword l2999, l0\n");
    for (int i = 0; i < 3000; i++)
        n += (size_t)snprintf(src + n, cap - n, "l%d: .half l%d - l%d\n", i, i, i ? i - 1 : 0);
    for (int i = 0; i < 300; i++)
        n += (size_t)snprintf(src + n, cap - n, ".section s%d, %d\n.byte %d & 0xff\n", i,
                              i * 16, i);
    int rc;
    int64_t v;
    cg_asm *as = run(NULL, NULL, src, n, &rc);
    CHECK_EQ(rc, 0);
    CHECK_EQ(cg_asm_section_count(as), 301);
    const uint8_t *data;
    size_t size, idx;
    CHECK_EQ(cg_asm_section(as, 0, NULL, NULL, &data, &size), 0);
    CHECK_EQ(size, 16 + 3000 * 2);
    if (size == 16 + 3000 * 2) {
        CHECK_MEM(data, "\x7e\x17\0\0\0\0\0\0" "\x10\0\0\0\0\0\0\0" "\0\0\2\0", 20);
        CHECK_MEM(data + size - 2, "\2\0", 2);
    }
    for (int i = 0; i < 3000; i += 7) {
        char name[16];
        snprintf(name, sizeof(name), "l%d", i);
        CHECK(cg_asm_symbol(as, name, &v) && v == 16 + 2 * i);
    }
    CHECK_EQ(cg_asm_section_find(as, "s150", &idx), 0);
    CHECK_EQ(idx, 151);
    check_section(as, 300, "s299", 299 * 16, "\x2b", 1);
    cg_asm_destroy(as);
    free(src);
}

static void test_files(void)
{
    /* cg_asm_add_file with a source bigger than its first read buffer. */
    size_t n = 0;
    char *src = malloc(20000);
    CHECK(src != NULL);
    if (!src)
        return;
    for (int i = 0; i < 2000; i++)
        n += (size_t)snprintf(src + n, 20000 - n, ".byte %d\n", i % 10);
    n += (size_t)snprintf(src + n, 20000 - n, "oops");
    write_file("asm_test_big.s", src, n);
    free(src);
    cg_asm *as;
    cg_asm_create(NULL, NULL, &as);
    CHECK_EQ(cg_asm_add_file(as, "asm_test_big.s"), 0);
    CHECK_EQ(cg_asm_assemble(as), CG_ERR_SYNTAX);
    CHECK_STR(cg_asm_errors(as), "asm_test_big.s:2001:1: unknown mnemonic 'oops'\n");
    size_t size;
    const uint8_t *data;
    CHECK_EQ(cg_asm_section(as, 0, NULL, NULL, &data, &size), 0);
    CHECK_EQ(size, 2000);
    CHECK_EQ(data[1999], 9);
    cg_asm_destroy(as);

    /* "-" reads stdin; errors name it <stdin>. */
    write_file("asm_test_stdin.s", ".byte 5\nnope\n", 13);
    CHECK(freopen("asm_test_stdin.s", "rb", stdin) != NULL);
    cg_asm_create(NULL, NULL, &as);
    CHECK_EQ(cg_asm_add_file(as, "-"), 0);
    CHECK_EQ(cg_asm_assemble(as), CG_ERR_SYNTAX);
    CHECK_STR(cg_asm_errors(as), "<stdin>:2:1: unknown mnemonic 'nope'\n");
    check_section(as, 0, "text", 0, "\x05", 1);
    cg_asm_destroy(as);

    /* Long source names and quoted file names stay intact or are cut short. */
    char name[3001];
    memset(name, 'n', 3000);
    name[3000] = 0;
    cg_asm_create(NULL, NULL, &as);
    cg_asm_add_source(as, name, "foo", 3);
    CHECK_EQ(cg_asm_assemble(as), CG_ERR_SYNTAX);
    CHECK_EQ(strlen(cg_asm_errors(as)), 3000 + strlen(":1:1: unknown mnemonic 'foo'\n"));
    CHECK(strcmp(cg_asm_errors(as) + 3000, ":1:1: unknown mnemonic 'foo'\n") == 0);
    cg_asm_destroy(as);
    char line[200], want[200];
    memset(name, 'q', 100);
    name[100] = 0;
    snprintf(line, sizeof(line), ".incbin \"%.100s\"", name);
    snprintf(want, sizeof(want), "t.s:1:9: cannot open '%.64s...': No such file or directory\n",
             name);
    EXPECT_ERRORS(line, want);
}

static void test_hostile(void)
{
    /* NUL bytes and invalid UTF-8 are just unexpected bytes. */
    expect_errors_at(__LINE__, NULL, "x = 1\0\n.byte 2\0", 15,
                     "t.s:1:6: unexpected '\\x00'\n"
                     "t.s:2:8: unexpected '\\x00'\n");
    EXPECT_ERRORS("\xff\xfe", "t.s:1:1: unexpected '\\xff'\n");
    EXPECT_ERRORS(".byte '\\x41' \xc3\xa9", "t.s:1:14: unexpected '\\xc3'\n");
    expect_errors_at(__LINE__, NULL, "\0", 1, "t.s:1:1: unexpected '\\x00'\n");
    EXPECT_ERRORS(".byte 1 \\", "t.s:1:9: unexpected '\\'\n");
    EXPECT_ERRORS("x = \x01", "t.s:1:5: expected an expression, found '\\x01'\n");
    EXPECT_ERRORS("x = '\\\x01'", "t.s:1:6: unknown escape sequence '\\' + byte 0x01\n");
    EXPECT_ERRORS("x: .byte x 1", "t.s:1:12: unexpected '1'\n");
    EXPECT_TOY_ERRORS("op x\nlab:\n.byte lab", "t.s:1:4: undefined symbol 'x'\n");
    EXPECT_ERRORS("x = 1 aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
                  "t.s:1:7: unexpected 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa...'\n");
    EXPECT_ERRORS("\r\n\t\v\f\n.byte 1\r\nfoo\r", "t.s:4:1: unknown mnemonic 'foo'\n");

    /* Pseudo-random token soup: no crash, leak or hang (the sanitizer build
     * checks the rest), and the error count always matches the text. */
    static const char *const pieces[] = {
        "x", "y:", " ", "\n", "(", ")", "-", "~", "+", "*", "/", "%", "<<", ">>", "&", "^", "|",
        ",", "=", ".", ".byte", ".half", ".word", ".dword", ".float", ".org", ".align",
        ".section", ".equ", ".incbin", "\"", "'", "\\", "0x", "0b", "1", "255", "1.5", "1e3",
        "0x1p4", "#", ";", "//", "\0", "\xff", "op", ".zero", "reg", "r1", "str", "flt", "peek",
        "def", "where", "opt", "emit32", "bad", "fail", "end", "end:", "65536", "-1",
    };
    uint32_t seed = 12345;
    char src[512];
    for (int iter = 0; iter < 3000; iter++) {
        size_t n = 0;
        while (n < sizeof(src) - 16) {
            seed = seed * 1103515245u + 12345u;
            uint32_t r = seed >> 8;
            if (r % 40 == 0)
                break;
            const char *piece = pieces[r % ARRAY_SIZE(pieces)];
            size_t plen = strcmp(piece, "") == 0 ? 1 : strlen(piece); /* "\0" is one NUL */
            memcpy(src + n, piece, plen);
            n += plen;
        }
        struct toy t = {0};
        int rc;
        cg_asm *as = run(iter & 1 ? &toy_family : NULL, &t, src, n, &rc);
        CHECK(rc == 0 || rc == CG_ERR_SYNTAX);
        size_t lines = 0;
        for (const char *p = cg_asm_errors(as); *p; p++)
            lines += *p == '\n';
        CHECK_EQ(lines, cg_asm_error_count(as));
        CHECK_EQ(rc == 0, cg_asm_error_count(as) == 0);
        cg_asm_destroy(as);
    }
}

static void test_api(void)
{
    cg_asm *as = NULL;
    CHECK_EQ(cg_asm_create(NULL, NULL, NULL), CG_ERR_INVAL);
    CHECK_EQ(cg_asm_add_source(NULL, "x", "", 0), CG_ERR_INVAL);
    CHECK_EQ(cg_asm_assemble(NULL), CG_ERR_INVAL);
    CHECK_EQ(cg_asm_error_count(NULL), 0);
    CHECK_STR(cg_asm_errors(NULL), "");
    CHECK_EQ(cg_asm_section_count(NULL), 0);
    CHECK(!cg_asm_symbol(NULL, "x", NULL));
    cg_asm_destroy(NULL);

    CHECK_EQ(cg_asm_create(NULL, NULL, &as), 0);
    CHECK_EQ(cg_asm_add_source(as, "x", NULL, 1), CG_ERR_INVAL);
    CHECK_EQ(cg_asm_add_source(as, "x", NULL, 0), 0); /* empty */
    CHECK_STR(cg_asm_errors(as), "");
    CHECK_EQ(cg_asm_assemble(as), 0); /* nothing to do */
    CHECK_EQ(cg_asm_section_count(as), 0);
    char buf[8];
    CHECK_EQ(cg_asm_ident(as, buf, 0), CG_ERR_INVAL);
    CHECK_EQ(cg_asm_string(as, buf, 0, NULL), CG_ERR_INVAL);
    CHECK_EQ(cg_asm_emit(as, NULL, 1), CG_ERR_INVAL);
    cg_asm_destroy(as);

    /* The source text is copied. */
    char text[] = ".byte 7";
    cg_asm_create(NULL, NULL, &as);
    cg_asm_add_source(as, "t.s", text, strlen(text));
    memset(text, ';', strlen(text));
    CHECK_EQ(cg_asm_assemble(as), 0);
    check_section(as, 0, "text", 0, "\x07", 1);
    cg_asm_destroy(as);
}

int main(void)
{
    test_numbers();
    test_operators();
    test_data_directives();
    test_labels();
    test_sections();
    test_incbin();
    test_include();
    test_family();
    test_errors();
    test_limits();
    test_many();
    test_files();
    test_hostile();
    test_api();
    return check_report("test_asm");
}
