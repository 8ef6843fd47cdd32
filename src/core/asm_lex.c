/* cmdgpu core: the assembler's cursor over one line.
 *
 * Every scanner works on the range [as->cur, as->end) and checks the bound
 * before each byte: lines are not NUL-terminated and may contain any byte.
 * Character classes are spelled out instead of using <ctype.h>, whose answers
 * depend on the locale and whose arguments must not be negative chars. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "asm_internal.h"

bool asm_is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

static bool is_digit(char c) { return c >= '0' && c <= '9'; }

static int hex_value(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

bool asm_is_ident_start(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '.' ||
           c == '$';
}

bool asm_is_ident_char(char c) { return asm_is_ident_start(c) || is_digit(c); }

void asm_skip_blanks(cg_asm *as)
{
    while (as->cur < as->end && asm_is_blank(*as->cur))
        as->cur++;
}

bool asm_at_comment(const char *p, const char *end)
{
    if (p >= end)
        return false;
    return *p == '#' || *p == ';' || (*p == '/' && p + 1 < end && p[1] == '/');
}

bool asm_at_comment_in(const cg_asm *as, const char *p)
{
    return asm_at_comment(p, as->end) && !(*p == ';' && as->semicolon_token);
}

void cg_asm_semicolon_token(cg_asm *as, bool on)
{
    if (as)
        as->semicolon_token = on;
}

size_t asm_ident_len(const char *p, const char *end)
{
    if (p >= end || !asm_is_ident_start(*p))
        return 0;
    const char *q = p + 1;
    while (q < end && asm_is_ident_char(*q))
        q++;
    return (size_t)(q - p);
}

/* For messages: the token at p, quoted, or "end of line". A word (letters,
 * digits, '_', '.', '$') is shown whole up to 32 characters; any other byte
 * alone, escaped when it is not printable ASCII. */
const char *asm_describe(const char *p, const char *end, char *buf, size_t cap)
{
    if (p >= end || asm_at_comment(p, end)) {
        snprintf(buf, cap, "end of line");
    } else if (asm_is_ident_char(*p)) {
        size_t n = 0;
        while (p + n < end && asm_is_ident_char(p[n]))
            n++;
        if (n > 32)
            snprintf(buf, cap, "'%.32s...'", p);
        else
            snprintf(buf, cap, "'%.*s'", (int)n, p);
    } else if (*p > ' ' && *p < 0x7f) {
        snprintf(buf, cap, "'%c'", *p);
    } else {
        snprintf(buf, cap, "'\\x%02x'", (unsigned char)*p);
    }
    return buf;
}

/* Length of a floating-point literal at p (no sign), 0 if there is none:
 *   decimal  DIGITS [. DIGITS*] [(e|E) [+-] DIGITS]  with a '.' or an exponent
 *   hex      0x HEXDIGITS* [. HEXDIGITS*] (p|P) [+-] DIGITS  (C99 hex float)
 * A literal directly followed by a name character is not one ("1.5x"). */
size_t asm_float_len(const char *p, const char *end)
{
    const char *q = p;
    bool is_float = false;
    if (end - p >= 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
        size_t ndig = 0;
        q = p + 2;
        while (q < end && hex_value(*q) >= 0)
            q++, ndig++;
        if (q < end && *q == '.')
            for (q++; q < end && hex_value(*q) >= 0; q++)
                ndig++;
        if (ndig == 0 || q >= end || (*q != 'p' && *q != 'P'))
            return 0;
        q++;
        if (q < end && (*q == '+' || *q == '-'))
            q++;
        const char *digits = q;
        while (q < end && is_digit(*q))
            q++;
        if (q == digits)
            return 0;
        is_float = true;
    } else {
        if (q >= end || !is_digit(*q))
            return 0;
        while (q < end && is_digit(*q))
            q++;
        if (q < end && *q == '.') {
            is_float = true;
            for (q++; q < end && is_digit(*q); q++) {
            }
        }
        if (q < end && (*q == 'e' || *q == 'E')) {
            const char *r = q + 1;
            if (r < end && (*r == '+' || *r == '-'))
                r++;
            const char *digits = r;
            while (r < end && is_digit(*r))
                r++;
            if (r == digits)
                return 0;
            q = r;
            is_float = true;
        }
    }
    if (!is_float || (q < end && asm_is_ident_char(*q)))
        return 0;
    return (size_t)(q - p);
}

/* An integer literal at the cursor (which is on a digit): decimal, 0x hex or
 * 0b binary, up to 2^64-1 (so 0xffffffffffffffff is -1). Leading zeros do
 * not mean octal. */
int asm_lex_number(cg_asm *as, uint64_t *value)
{
    const char *p = as->cur, *end = as->end, *q;
    uint64_t v = 0;
    size_t ndig = 0;
    bool overflow = false;
    char tok[48];

    if (end - p >= 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
        for (q = p + 2; q < end && hex_value(*q) >= 0; q++, ndig++) {
            overflow |= (v >> 60) != 0;
            v = v << 4 | (uint64_t)hex_value(*q);
        }
    } else if (end - p >= 2 && p[0] == '0' && (p[1] == 'b' || p[1] == 'B')) {
        for (q = p + 2; q < end && (*q == '0' || *q == '1'); q++, ndig++) {
            overflow |= (v >> 63) != 0;
            v = v << 1 | (uint64_t)(*q - '0');
        }
    } else {
        for (q = p; q < end && is_digit(*q); q++, ndig++) {
            uint64_t d = (uint64_t)(*q - '0');
            overflow |= v > (UINT64_MAX - d) / 10;
            v = v * 10 + d;
        }
    }
    if (ndig == 0 || (q < end && asm_is_ident_char(*q))) {
        if (asm_float_len(p, end))
            return asm_error_at(as, p, "floating-point number %s not allowed here",
                                asm_describe(p, end, tok, sizeof(tok)));
        return asm_error_at(as, p, "invalid number %s", asm_describe(p, end, tok, sizeof(tok)));
    }
    if (overflow)
        return asm_error_at(as, p, "number %s does not fit in 64 bits",
                            asm_describe(p, end, tok, sizeof(tok)));
    as->cur = q;
    *value = v;
    return 0;
}

/* An escape sequence; *pp points at the backslash and is moved past it. */
static int lex_escape(cg_asm *as, const char **pp, unsigned char *out)
{
    const char *bs = *pp, *p = bs + 1;
    if (p >= as->end)
        return asm_error_at(as, bs, "incomplete escape sequence");
    char c = *p++;
    switch (c) {
    case 'n': *out = '\n'; break;
    case 't': *out = '\t'; break;
    case 'r': *out = '\r'; break;
    case '0': *out = 0; break;
    case '\\': case '"': case '\'': *out = (unsigned char)c; break;
    case 'x': {
        int v = 0, n = 0;
        while (n < 2 && p < as->end && hex_value(*p) >= 0) {
            v = v * 16 + hex_value(*p++);
            n++;
        }
        if (n == 0)
            return asm_error_at(as, bs, "\\x needs one or two hex digits");
        *out = (unsigned char)v;
        break;
    }
    default:
        if (c > ' ' && c < 0x7f)
            return asm_error_at(as, bs, "unknown escape sequence '\\%c'", c);
        return asm_error_at(as, bs, "unknown escape sequence '\\' + byte 0x%02x",
                            (unsigned char)c);
    }
    *pp = p;
    return 0;
}

/* A character literal at the cursor (which is on the opening quote). */
int asm_lex_char(cg_asm *as, uint64_t *value)
{
    const char *start = as->cur, *p = start + 1;
    unsigned char b;
    if (p >= as->end)
        return asm_error_at(as, start, "unterminated character literal");
    if (*p == '\'')
        return asm_error_at(as, start, "empty character literal");
    if (*p == '\\') {
        int rc = lex_escape(as, &p, &b);
        if (rc)
            return rc;
    } else {
        b = (unsigned char)*p++;
    }
    if (p >= as->end || *p != '\'') {
        if (p < as->end && memchr(p, '\'', (size_t)(as->end - p)))
            return asm_error_at(as, start, "character literal with more than one character");
        return asm_error_at(as, start, "unterminated character literal");
    }
    as->cur = p + 1;
    *value = b;
    return 0;
}

int asm_lex_ident(cg_asm *as, char *buf, size_t cap, const char **pos)
{
    char tok[48];
    asm_skip_blanks(as);
    const char *p = as->cur;
    size_t n = asm_ident_len(p, as->end);
    if (pos)
        *pos = p;
    if (n == 0)
        return asm_error_at(as, p, "expected a name, found %s",
                            asm_describe(p, as->end, tok, sizeof(tok)));
    if (n >= cap)
        return asm_error_at(as, p, "name longer than %zu characters", cap - 1);
    memcpy(buf, p, n);
    buf[n] = 0;
    as->cur = p + n;
    return 0;
}

/* For messages: up to 64 bytes of s, with bytes outside printable ASCII (and
 * the quote) escaped, so hostile names cannot put control codes in errors. */
const char *asm_quote(const char *s, size_t n, char *buf, size_t cap)
{
    size_t o = 0;
    for (size_t i = 0; i < n && o + 8 < cap; i++) {
        unsigned char c = (unsigned char)s[i];
        if (i == 64) {
            o += (size_t)snprintf(buf + o, cap - o, "...");
            break;
        }
        if (c >= ' ' && c < 0x7f && c != '\'' && c != '\\')
            buf[o++] = (char)c;
        else
            o += (size_t)snprintf(buf + o, cap - o, "\\x%02x", c);
    }
    buf[o] = 0;
    return buf;
}

/* ---- the cursor API for family statement handlers ---- */

bool cg_asm_eol(cg_asm *as)
{
    if (!as)
        return true;
    asm_skip_blanks(as);
    return as->cur >= as->end || asm_at_comment_in(as, as->cur);
}

bool cg_asm_accept(cg_asm *as, char c)
{
    if (!as)
        return false;
    asm_skip_blanks(as);
    /* A comment is not a token: accept(';') or accept('/') never eats one. */
    if (as->cur < as->end && *as->cur == c && !asm_at_comment_in(as, as->cur)) {
        as->cur++;
        return true;
    }
    return false;
}

int cg_asm_expect(cg_asm *as, char c)
{
    char tok[48];
    if (!as)
        return CG_ERR_INVAL;
    if (cg_asm_accept(as, c))
        return 0;
    return asm_error_at(as, as->cur, "expected '%c', found %s", c,
                        asm_describe(as->cur, as->end, tok, sizeof(tok)));
}

int cg_asm_ident(cg_asm *as, char *buf, size_t cap)
{
    if (!as || !buf || cap == 0)
        return CG_ERR_INVAL;
    return asm_lex_ident(as, buf, cap, NULL);
}

bool cg_asm_peek_ident(cg_asm *as, char *buf, size_t cap)
{
    if (!as || !buf || cap == 0)
        return false;
    asm_skip_blanks(as);
    size_t n = asm_ident_len(as->cur, as->end);
    if (n == 0 || n >= cap)
        return false;
    memcpy(buf, as->cur, n);
    buf[n] = 0;
    return true;
}

int cg_asm_expr(cg_asm *as, int64_t *value)
{
    if (!as || !value)
        return CG_ERR_INVAL;
    return asm_expr(as, value);
}

int cg_asm_float(cg_asm *as, double *value)
{
    if (!as || !value)
        return CG_ERR_INVAL;
    asm_skip_blanks(as);
    const char *start = as->cur, *q = start;
    bool neg = false;
    if (q < as->end && (*q == '-' || *q == '+')) {
        neg = *q == '-';
        for (q++; q < as->end && asm_is_blank(*q); q++) {
        }
    }
    size_t n = asm_float_len(q, as->end);
    if (n == 0) {
        /* Not a float literal: an integer expression (which parses its own
         * sign). */
        int64_t v;
        int rc = asm_expr(as, &v);
        if (rc)
            return rc;
        *value = (double)v;
        return 0;
    }
    /* strtod needs a NUL-terminated copy; the literal was validated above so
     * strtod cannot read words such as "inf" or "nan" or stop early. */
    char buf[256];
    if (n + 2 > sizeof(buf))
        return asm_error_at(as, start, "floating-point number longer than %zu characters",
                            sizeof(buf) - 2);
    buf[0] = neg ? '-' : '+';
    memcpy(buf + 1, q, n);
    buf[n + 1] = 0;
    errno = 0;
    char *stop;
    double d = strtod(buf, &stop);
    if (stop != buf + n + 1)
        return asm_error_at(as, start, "invalid floating-point number");
    if (errno == ERANGE && isinf(d))
        return asm_error_at(as, start, "floating-point number out of range");
    as->cur = q + n;
    *value = d;
    return 0;
}

int cg_asm_string(cg_asm *as, char *buf, size_t cap, size_t *len)
{
    char tok[48];
    if (!as || !buf || cap == 0)
        return CG_ERR_INVAL;
    asm_skip_blanks(as);
    const char *start = as->cur, *p = start;
    if (p >= as->end || *p != '"')
        return asm_error_at(as, p, "expected a string, found %s",
                            asm_describe(p, as->end, tok, sizeof(tok)));
    size_t n = 0;
    for (p++;;) {
        if (p >= as->end)
            return asm_error_at(as, start, "unterminated string");
        if (*p == '"')
            break;
        unsigned char b;
        if (*p == '\\') {
            int rc = lex_escape(as, &p, &b);
            if (rc)
                return rc;
        } else {
            b = (unsigned char)*p++;
        }
        if (n + 1 >= cap)
            return asm_error_at(as, start, "string longer than %zu bytes", cap - 1);
        buf[n++] = (char)b;
    }
    buf[n] = 0;
    if (len)
        *len = n;
    as->cur = p + 1;
    return 0;
}
