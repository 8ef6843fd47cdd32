/* cmdgpu core: tiny JSON writer (see json.h). */
#include <stdarg.h>
#include <stdio.h>
#include "json.h"

void cg_json_init(cg_json *j, char *buf, size_t cap)
{
    j->buf = buf;
    j->cap = cap;
    j->len = 0;
    j->first = true;
    if (cap)
        buf[0] = 0;
}

static void put(cg_json *j, const char *s, size_t n)
{
    if (j->len < j->cap) {
        size_t room = j->cap - j->len - 1;
        size_t k = n < room ? n : room;
        for (size_t i = 0; i < k; i++)
            j->buf[j->len + i] = s[i];
        j->buf[j->len + k] = 0;
    }
    j->len += n;
}

void cg_json_raw(cg_json *j, const char *s)
{
    size_t n = 0;
    while (s[n])
        n++;
    put(j, s, n);
}

void cg_json_rawf(cg_json *j, const char *fmt, ...)
{
    /* Format straight into the buffer: vsnprintf has the same semantics as
     * put() (cut to the room left, always terminated, full length returned). */
    bool room = j->len < j->cap;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(room ? j->buf + j->len : NULL, room ? j->cap - j->len : 0, fmt, ap);
    va_end(ap);
    if (n > 0)
        j->len += (size_t)n;
}

void cg_json_begin(cg_json *j)
{
    put(j, "{", 1);
    j->first = true;
}

void cg_json_end(cg_json *j) { put(j, "}", 1); }

void cg_json_key(cg_json *j, const char *key)
{
    if (!j->first)
        put(j, ",", 1);
    j->first = false;
    put(j, "\"", 1);
    cg_json_escape(j, key);
    put(j, "\":", 2);
}

/* Length of the well-formed UTF-8 sequence at s (RFC 3629: no overlongs, no
 * surrogates, nothing past U+10FFFF), or 0 if it is not one. */
static size_t utf8_len(const unsigned char *s)
{
    unsigned char c = s[0];
    size_t n;
    unsigned char lo = 0x80, hi = 0xBF;
    if (c >= 0xC2 && c <= 0xDF)
        n = 2;
    else if (c >= 0xE0 && c <= 0xEF) {
        n = 3;
        if (c == 0xE0)
            lo = 0xA0;
        else if (c == 0xED)
            hi = 0x9F;
    } else if (c >= 0xF0 && c <= 0xF4) {
        n = 4;
        if (c == 0xF0)
            lo = 0x90;
        else if (c == 0xF4)
            hi = 0x8F;
    } else
        return 0;
    if (s[1] < lo || s[1] > hi)
        return 0;
    for (size_t i = 2; i < n; i++)
        if (s[i] < 0x80 || s[i] > 0xBF)
            return 0;
    return n;
}

void cg_json_escape(cg_json *j, const char *str)
{
    const unsigned char *s = (const unsigned char *)str;
    while (*s) {
        unsigned char c = *s;
        if (c == '"' || c == '\\') {
            char e[2] = {'\\', (char)c};
            put(j, e, 2);
        } else if (c == '\n') {
            put(j, "\\n", 2);
        } else if (c == '\t') {
            put(j, "\\t", 2);
        } else if (c < 0x20 || c == 0x7f) {
            char e[8];
            snprintf(e, sizeof(e), "\\u%04x", c);
            put(j, e, 6);
        } else if (c >= 0x80) {
            /* Keep valid UTF-8; a stray byte (messages may quote stream
             * bytes) becomes U+FFFD so the line stays valid JSON. */
            size_t n = utf8_len(s);
            if (n) {
                put(j, (const char *)s, n);
                s += n;
                continue;
            }
            put(j, "\\ufffd", 6);
        } else {
            put(j, (const char *)&c, 1);
        }
        s++;
    }
}

void cg_json_str(cg_json *j, const char *key, const char *s)
{
    cg_json_key(j, key);
    if (!s) {
        put(j, "null", 4);
        return;
    }
    put(j, "\"", 1);
    cg_json_escape(j, s);
    put(j, "\"", 1);
}

void cg_json_u64(cg_json *j, const char *key, uint64_t v)
{
    cg_json_key(j, key);
    cg_json_rawf(j, "%llu", (unsigned long long)v);
}

void cg_json_i64(cg_json *j, const char *key, int64_t v)
{
    cg_json_key(j, key);
    cg_json_rawf(j, "%lld", (long long)v);
}

void cg_json_hex(cg_json *j, const char *key, uint64_t v)
{
    cg_json_key(j, key);
    cg_json_rawf(j, "\"0x%llx\"", (unsigned long long)v);
}

void cg_json_bool(cg_json *j, const char *key, bool v)
{
    cg_json_key(j, key);
    cg_json_raw(j, v ? "true" : "false");
}

void cg_json_fput(FILE *out, const char *s)
{
    fputc('"', out);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(out, "\\%c", c);
        else if (c < 0x20)
            fprintf(out, "\\u%04x", c);
        else
            fputc(c, out);
    }
    fputc('"', out);
}
