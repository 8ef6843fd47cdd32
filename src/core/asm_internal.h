/* cmdgpu core: private definitions of the shared assembler front end.
 *
 * asm.c      the object, sources, passes, statements, symbols, sections,
 *            emission and error collection
 * asm_dir.c  the core directives (.org .align .byte ... .section .equ)
 * asm_lex.c  the cursor over one line: blanks, comments, identifiers,
 *            numbers, character and string literals, floats
 * asm_expr.c integer expressions
 *
 * A line is never NUL-terminated here: the cursor is a [cur, end) range into
 * the copied source text, so NUL bytes inside a source are ordinary
 * (rejected) characters and no scanner can run past the line. */
#ifndef CMDGPU_CORE_ASM_INTERNAL_H
#define CMDGPU_CORE_ASM_INTERNAL_H

#include <stdarg.h>
#include "cmdgpu/asm.h"

/* Limits that keep hostile input from exhausting time, memory or stack. */
#define ASM_MAX_PASSES 16                   /* passes before "do not converge" */
#define ASM_MAX_ERRORS 100                  /* then "too many errors" and stop */
#define ASM_MAX_DEPTH 255                   /* open parentheses/unary operators */
#define ASM_MAX_IDENT 255                   /* characters in a name */
#define ASM_MAX_OUTPUT ((size_t)256 << 20)  /* bytes in all sections together */
#define ASM_MAX_GAP ((size_t)64 << 20)      /* bytes one .org/.align may skip */
#define ASM_MAX_SOURCE ((size_t)256 << 20) /* bytes in one source (cg_asm_add_file) */
#define ASM_MAX_PATH 4096                   /* bytes in an .incbin file name */

/* A name with its length and hash; the first member of every struct kept in
 * an asm_index, so one hash index serves symbols and sections. */
struct asm_name {
    char *str;
    size_t len;
    uint32_t hash;
};

/* Open-addressing hash index into an array of structs that start with an
 * asm_name: slot = array index + 1, 0 = empty. */
struct asm_index {
    uint32_t *slots;
    size_t nslots; /* a power of two, or 0 */
};

struct asm_source {
    char *name; /* as given; used in error messages */
    char *dir;  /* directory part of name with its '/', or "" */
    char *text;
    size_t len;
    bool included; /* read by .include: assembled only where it is included */
};

#define ASM_MAX_INCLUDE_DEPTH 16 /* .include nesting (ends include loops) */
#define ASM_MAX_INCLUDE_BYTES (16 << 20) /* size of one included source */

struct asm_symbol {
    struct asm_name name;
    int64_t value;
    /* Pass of the latest definition; 0 = undefined. A symbol defined in an
     * earlier pass keeps that value as the estimate for forward references. */
    int pass;
    size_t src, line, col; /* where it was last defined, for "do not converge" */
};

struct asm_section {
    struct asm_name name;
    uint64_t base;
    size_t size;        /* the location counter, as an offset from base */
    uint8_t *data;      /* bytes; only kept in the final pass */
    size_t cap;
};

struct asm_loc {
    size_t src; /* index into sources, or SIZE_MAX for "no source" */
    size_t line, col;
};

struct cg_asm {
    cg_asm_family family; /* all NULL without a family */
    bool semicolon_token; /* ';' is no comment (cg_asm_semicolon_token) */
    void *user;
    void (*free_user)(void *user); /* cg_asm_own_user: frees user with the cg_asm */

    struct asm_source *srcs;
    size_t nsrcs, capsrcs;

    struct asm_symbol *syms;
    size_t nsyms, capsyms;
    struct asm_index sym_index;

    /* Sections of the current pass, in the order first named. cur_sec is
     * SIZE_MAX while the implicit "text" section has not been created. */
    struct asm_section *secs;
    size_t nsecs, capsecs;
    struct asm_index sec_index;
    size_t cur_sec;
    size_t total_out; /* bytes emitted this pass, all sections */

    /* Pass state. */
    int pass;
    bool final;
    bool assembling;
    bool stop;    /* too many errors: abandon the final pass */
    bool changed; /* a symbol changed value this pass */
    struct asm_loc change_loc;
    char change_name[ASM_MAX_IDENT + 1];

    /* The cursor: the current line is [line, end), cur inside it. */
    size_t src;
    size_t line_no;
    const char *line, *cur, *end;
    const char *stmt_pos; /* start of the mnemonic or directive */
    uint64_t stmt_pc;     /* value of `.` */
    bool stmt_failed;     /* an error was raised in this statement */
    int depth;            /* expression nesting */
    int include_depth;    /* .include nesting */

    /* .equ dependencies of the final pass, to find circular definitions
     * (`.equ a, a` would otherwise settle on the guess 0): while equ_rec is
     * set, every symbol an expression reads adds an edge. */
    struct asm_edge {
        size_t from, to; /* symbol indices; from is SIZE_MAX until defined */
    } *edges;
    size_t nedges, capedges;
    bool equ_rec;

    /* Errors (only the final pass records them). */
    char *errs;
    size_t errlen, errcap;
    size_t nerrs;
    bool oom;
};

/* asm.c */
int asm_error_at(cg_asm *as, const char *pos, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
int asm_verror_loc(cg_asm *as, struct asm_loc loc, const char *fmt, va_list ap);
int asm_oom(cg_asm *as);
/* .include: assemble the file at `path` (already resolved against the
 * including source's directory) here. Errors are reported at `pos`. */
int asm_include(cg_asm *as, const char *path, const char *pos, const char *quoted);
struct asm_symbol *asm_symbol_find(const cg_asm *as, const char *name, size_t len);
int asm_define(cg_asm *as, const char *name, size_t len, int64_t value, const char *pos);
int asm_reserve(cg_asm *as, size_t n, uint8_t **out);
struct asm_section *asm_cur_section(cg_asm *as, bool create);
int asm_section_switch(cg_asm *as, const char *name, bool has_base, uint64_t base,
                       const char *pos);
int64_t asm_u2i(uint64_t v);
/* A .equ being evaluated reads symbol index `to` (final pass only). */
void asm_equ_dep(cg_asm *as, size_t to);
/* The edges recorded since `first` are the definition of `name`. */
void asm_equ_done(cg_asm *as, size_t first, const char *name, size_t len);

/* asm_dir.c: returns CG_ERR_NOENT if `name` is not a core directive. */
int asm_directive(cg_asm *as, const char *name);

/* asm_lex.c */
bool asm_is_blank(char c);
bool asm_is_ident_start(char c);
bool asm_is_ident_char(char c);
void asm_skip_blanks(cg_asm *as);
bool asm_at_comment(const char *p, const char *end);
/* asm_at_comment for the assembler's own text (a family may make ';' a token). */
bool asm_at_comment_in(const cg_asm *as, const char *p);
size_t asm_ident_len(const char *p, const char *end);
const char *asm_describe(const char *p, const char *end, char *buf, size_t cap);
int asm_lex_number(cg_asm *as, uint64_t *value);
int asm_lex_char(cg_asm *as, uint64_t *value);
int asm_lex_ident(cg_asm *as, char *buf, size_t cap, const char **pos);
size_t asm_float_len(const char *p, const char *end);
const char *asm_quote(const char *s, size_t n, char *buf, size_t cap);

/* asm_expr.c */
int asm_expr(cg_asm *as, int64_t *value);

#endif
