/* cmdgpu: the shared assembler front end.
 *
 * Syntax, common to every family:
 *   - one statement per line: `[label:]... [mnemonic-or-directive operands]`
 *   - comments: `#`, `;` and `//` to the end of the line
 *   - numbers: 123, 0x7f, 0b1010, 'c' (character), floats 1.5, -2e3, 0x1p4
 *     (floats only where a statement asks for one, e.g. .float)
 *   - strings: "text" with \n \t \\ \" \xNN escapes
 *   - integer expressions (64-bit, two's complement) with C precedence:
 *     unary - ~ + ; * / % ; + - ; << >> ; & ; ^ ; |  and parentheses.
 *     Symbols are labels, .equ constants and `.` (the current address: where
 *     the statement starts). Arithmetic wraps around; / and % truncate toward
 *     zero; >> is arithmetic (copies the sign bit); a shift count outside
 *     0..63 gives 0. Division or remainder by zero is an error.
 *   - core directives: .org ADDR   .align N [,FILL]   .word/.half/.byte/.dword
 *     EXPR,...   .float F,...   .incbin "file"[,OFFSET[,LENGTH]]
 *     .section NAME[,BASE]   .equ NAME, EXPR   (also NAME = EXPR)
 * Families plug in their mnemonics and extra directives through
 * cg_asm_family.statement, using the cursor functions below to read operands.
 *
 * Assembly runs in passes until every label keeps its address (forward
 * references work even where an instruction's size depends on a value), then a
 * final pass in which an undefined symbol is an error. Errors read
 * `file:line:column: message`; all of them are collected, not only the first.
 * Limits against hostile input: 16 passes, 100 errors, 255 nested parentheses
 * or unary operators, 255-character names, 256 MiB of output in all and
 * 64 MiB skipped by one .org or .align. */
#ifndef CMDGPU_ASM_H
#define CMDGPU_ASM_H

#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cg_asm cg_asm;

typedef struct cg_asm_family {
    const char *name;
    /* A statement whose name is not a core directive. `name` is the mnemonic
     * (or directive, with its '.'); the cursor stands after it. Return 0 when
     * handled (the core then requires the end of the line), CG_ERR_NOENT if the
     * name is unknown (the core reports it), or CG_ERR_SYNTAX after reporting
     * an error with cg_asm_error(). May be NULL. */
    int (*statement)(cg_asm *as, void *user, const char *name);
    /* Start of each pass: reset per-pass state. May be NULL. */
    void (*begin_pass)(cg_asm *as, void *user, int pass, bool final);
} cg_asm_family;

/* family may be NULL: the core directives only. */
CG_API int cg_asm_create(const cg_asm_family *family, void *user, cg_asm **out);
CG_API void cg_asm_destroy(cg_asm *as);
/* Make the assembler own its family's `user` state: cg_asm_destroy calls
 * free_user(user). (A family's format hands out one object this way.) */
CG_API void cg_asm_own_user(cg_asm *as, void (*free_user)(void *user));
CG_API void *cg_asm_user(const cg_asm *as);

/* Add source text (copied); sources assemble in the order added, as one
 * program. `name` appears in errors and .incbin paths are relative to its
 * directory. cg_asm_add_file reads a file ("-" is stdin) of at most 256 MiB
 * (CG_ERR_RANGE past it; a regular file is measured before anything is
 * allocated). */
CG_API int cg_asm_add_source(cg_asm *as, const char *name, const char *text, size_t len);
CG_API int cg_asm_add_file(cg_asm *as, const char *path);

/* Assemble. 0, or CG_ERR_SYNTAX with the errors collected. */
CG_API int cg_asm_assemble(cg_asm *as);
CG_API size_t cg_asm_error_count(const cg_asm *as);
/* All error lines, newline-terminated ("" if none). */
CG_API const char *cg_asm_errors(const cg_asm *as);

/* Output. Sections appear in the order first named; the default one is
 * "text" at base 0 and exists only if something was emitted before the first
 * .section or it was named. */
CG_API size_t cg_asm_section_count(const cg_asm *as);
CG_API int cg_asm_section(const cg_asm *as, size_t i, const char **name, uint64_t *base,
                          const uint8_t **data, size_t *size);
CG_API int cg_asm_section_find(const cg_asm *as, const char *name, size_t *index);
CG_API bool cg_asm_symbol(const cg_asm *as, const char *name, int64_t *value);
/* Add a section holding a copy of data[0, size) at base, without source
 * (a capture's memory, include/cmdgpu/capfile.h). CG_ERR_INVAL if a section
 * of that name exists or the assembler has run, CG_ERR_NOMEM. */
CG_API int cg_asm_add_section(cg_asm *as, const char *name, uint64_t base, const uint8_t *data,
                              size_t size);

/* ---- for family statement handlers ---- */
CG_API int cg_asm_pass(const cg_asm *as);
CG_API bool cg_asm_final_pass(const cg_asm *as);
CG_API bool cg_asm_eol(cg_asm *as);              /* only blanks/comment left */
CG_API bool cg_asm_accept(cg_asm *as, char c);   /* skip blanks; consume c if next */
CG_API int cg_asm_expect(cg_asm *as, char c);    /* as accept, else error */
/* Identifier [A-Za-z_.$][A-Za-z0-9_.$]*: cg_asm_ident consumes it (error if
 * none or longer than cap-1); cg_asm_peek_ident only looks (false if none). */
CG_API int cg_asm_ident(cg_asm *as, char *buf, size_t cap);
CG_API bool cg_asm_peek_ident(cg_asm *as, char *buf, size_t cap);
CG_API int cg_asm_expr(cg_asm *as, int64_t *value);
CG_API int cg_asm_float(cg_asm *as, double *value); /* float literal or int expression */
CG_API int cg_asm_string(cg_asm *as, char *buf, size_t cap, size_t *len);
/* Report an error at the cursor; returns CG_ERR_SYNTAX. */
CG_API int cg_asm_error(cg_asm *as, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* Emit bytes at the location counter of the current section. */
CG_API int cg_asm_emit(cg_asm *as, const void *bytes, size_t n);
CG_API int cg_asm_emit32(cg_asm *as, uint32_t v); /* little-endian */
CG_API uint64_t cg_asm_pc(const cg_asm *as);      /* base + offset */
CG_API const char *cg_asm_current_section(const cg_asm *as);
/* Make ';' a token the family reads (cg_asm_accept(as, ';')) rather than a
 * comment (vc4asm's separator between the parts of a QPU instruction); a
 * family sets it from begin_pass. */
CG_API void cg_asm_semicolon_token(cg_asm *as, bool on);
/* Define a symbol as a label would (same rules for redefinition). */
CG_API int cg_asm_define(cg_asm *as, const char *name, int64_t value);

#ifdef __cplusplus
}
#endif
#endif
