/* cmdgpu core: a tiny JSON object writer into a fixed buffer (snprintf
 * semantics: len counts what was wanted, the buffer is always terminated). */
#ifndef CMDGPU_CORE_JSON_H
#define CMDGPU_CORE_JSON_H

#include <stdbool.h>
#include <stdio.h>
#include <stddef.h>
#include <stdint.h>

typedef struct cg_json {
    char *buf;
    size_t cap, len;
    bool first;
} cg_json;

void cg_json_init(cg_json *j, char *buf, size_t cap);
void cg_json_raw(cg_json *j, const char *s);
void cg_json_rawf(cg_json *j, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
void cg_json_begin(cg_json *j); /* "{" */
void cg_json_end(cg_json *j);   /* "}" */
void cg_json_key(cg_json *j, const char *key); /* ,"key": */
void cg_json_str(cg_json *j, const char *key, const char *s); /* escaped; NULL -> null */
void cg_json_u64(cg_json *j, const char *key, uint64_t v);
void cg_json_i64(cg_json *j, const char *key, int64_t v);
void cg_json_hex(cg_json *j, const char *key, uint64_t v); /* "0x..." string */
void cg_json_bool(cg_json *j, const char *key, bool v);
/* Escape s as a JSON string body (no quotes) into the writer. */
void cg_json_escape(cg_json *j, const char *s);
/* Write s to out as a quoted JSON string: '"' and '\\' escaped, control
 * characters as \u00XX, other bytes as they are. */
void cg_json_fput(FILE *out, const char *s);

#endif
