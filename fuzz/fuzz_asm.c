/* Fuzzes the shared assembler front end: the input is one source, assembled
 * with a toy family that exercises every cursor function, then every output
 * query is read back. Any input must give output or errors: never a crash,
 * a leak, a hang or a sanitizer report. (.incbin may name any path; opening
 * it may fail, which is fine.) */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "cmdgpu/asm.h"

/*   op EXPR        2 bytes if 0..255, else 4 (a size that depends on a value)
 *   .zero N        N zero bytes (N <= 4096)
 *   reg NAME, EXPR / str "s" / flt F / peek / def NAME / opt [EXPR] / emit32 EXPR
 *   ndef NAME      defines NAME = 1 in the final pass only, 0 before
 *   fail           an error without a message (final pass only) */
static int toy_statement(cg_asm *as, void *user, const char *name)
{
    int64_t v;
    int rc;
    char buf[16];
    (void)user;
    if (strcmp(name, "op") == 0) {
        if ((rc = cg_asm_expr(as, &v)) != 0)
            return rc;
        const uint8_t b[4] = {v >= 0 && v <= 255 ? 0xa0 : 0xa1, (uint8_t)v, (uint8_t)(v >> 8),
                              (uint8_t)(v >> 16)};
        return cg_asm_emit(as, b, v >= 0 && v <= 255 ? 2 : 4);
    }
    if (strcmp(name, ".zero") == 0) {
        static const uint8_t zeros[4096];
        if ((rc = cg_asm_expr(as, &v)) != 0)
            return rc;
        if (v < 0 || v > 4096)
            return cg_asm_error(as, "bad count");
        return cg_asm_emit(as, zeros, (size_t)v);
    }
    if (strcmp(name, "reg") == 0) {
        if ((rc = cg_asm_ident(as, buf, sizeof(buf))) != 0 ||
            (rc = cg_asm_expect(as, ',')) != 0 || (rc = cg_asm_expr(as, &v)) != 0)
            return rc;
        return cg_asm_emit32(as, (uint32_t)v ^ (uint32_t)buf[0]);
    }
    if (strcmp(name, "str") == 0) {
        size_t len;
        if ((rc = cg_asm_string(as, buf, sizeof(buf), &len)) != 0)
            return rc;
        return cg_asm_emit(as, buf, len);
    }
    if (strcmp(name, "flt") == 0) {
        double d;
        if ((rc = cg_asm_float(as, &d)) != 0)
            return rc;
        return cg_asm_emit(as, &d, sizeof(d));
    }
    if (strcmp(name, "peek") == 0) {
        if (cg_asm_peek_ident(as, buf, sizeof(buf)))
            return cg_asm_ident(as, buf, sizeof(buf));
        return cg_asm_accept(as, '(') ? cg_asm_expect(as, ')') : 0;
    }
    if (strcmp(name, "def") == 0) {
        if ((rc = cg_asm_ident(as, buf, sizeof(buf))) != 0)
            return rc;
        return cg_asm_define(as, buf, (int64_t)cg_asm_pc(as));
    }
    if (strcmp(name, "ndef") == 0) {
        /* Not deterministic: a different value in the final pass. */
        if ((rc = cg_asm_ident(as, buf, sizeof(buf))) != 0)
            return rc;
        return cg_asm_define(as, buf, cg_asm_final_pass(as));
    }
    if (strcmp(name, "opt") == 0) {
        if (cg_asm_eol(as))
            return cg_asm_emit(as, cg_asm_current_section(as), 1);
        if ((rc = cg_asm_expr(as, &v)) != 0)
            return rc;
        return cg_asm_emit(as, &v, 1);
    }
    if (strcmp(name, "emit32") == 0) {
        if ((rc = cg_asm_expr(as, &v)) != 0)
            return rc;
        return cg_asm_emit32(as, (uint32_t)v);
    }
    if (strcmp(name, "fail") == 0)
        return cg_asm_final_pass(as) ? CG_ERR_RANGE : 0;
    return CG_ERR_NOENT;
}

static const cg_asm_family toy_family = {"toy", toy_statement, NULL};

/* The input poses as a file in the seed corpus directory, so .incbin of a
 * seed's name ("data.s") reads a file that exists and the read path is
 * fuzzed too. */
#ifdef CMDGPU_SOURCE_DIR
#define SOURCE_NAME CMDGPU_SOURCE_DIR "/fuzz/corpus/asm/fuzz.s"
#else
#define SOURCE_NAME "fuzz.s"
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    cg_asm *as;
    if (cg_asm_create(&toy_family, NULL, &as) != 0)
        return 0;
    cg_asm_add_source(as, SOURCE_NAME, (const char *)data, size);
    int rc = cg_asm_assemble(as);

    /* Read everything back; the error count must match the text. */
    size_t lines = 0;
    for (const char *p = cg_asm_errors(as); *p; p++)
        lines += *p == '\n';
    if (lines != cg_asm_error_count(as) || (rc == 0) != (lines == 0))
        abort();
    volatile uint8_t sink = 0;
    for (size_t i = 0; i < cg_asm_section_count(as); i++) {
        const char *name;
        const uint8_t *bytes;
        size_t n, idx;
        uint64_t base;
        if (cg_asm_section(as, i, &name, &base, &bytes, &n) != 0 ||
            cg_asm_section_find(as, name, &idx) != 0 || idx != i)
            abort();
        if (n)
            sink ^= bytes[0] ^ bytes[n - 1];
    }
    int64_t v;
    sink ^= (uint8_t)cg_asm_symbol(as, "end", &v);
    (void)sink;
    cg_asm_destroy(as);
    return 0;
}
