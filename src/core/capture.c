/* core: the registry's lookups (the families are listed in src/registry.c),
 * the text formats and capture formats across families, and what the text
 * capture loaders share (include/cmdgpu/family.h, capture.h,
 * docs/captures.md). The loaders themselves live in their families. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "capture_text.h"
#include "cmdgpu/capfile.h"
#include "cmdgpu/family.h"
#include "internal.h"

static uint32_t le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* ---- the registry's lookups (src/registry.c lists the families) ------------ */

const cg_family_desc *cg_family_get(cg_family id)
{
    for (size_t i = 0; i < cg_family_count(); i++)
        if (cg_family_at(i)->id == id)
            return cg_family_at(i);
    return NULL;
}

const cg_family_desc *cg_family_find(const char *name)
{
    for (size_t i = 0; name && i < cg_family_count(); i++)
        if (strcmp(cg_family_at(i)->name, name) == 0)
            return cg_family_at(i);
    return NULL;
}

const char *cg_family_name(cg_family f)
{
    const cg_family_desc *d = cg_family_get(f);
    return d ? d->name : "none";
}

/* The core's own text format: plain little-endian words, core directives. */
static int raw_disasm(const cg_text_opts *o, const uint8_t *data, size_t size, FILE *out)
{
    const char *cm = o->c_comment ? o->c_comment : "", *rs = o->c_reset ? o->c_reset : "";
    const char *nm = o->c_name ? o->c_name : "", *num = o->c_num ? o->c_num : "";
    size_t nwords = size / 4;
    if (o->json) {
        fprintf(out, "{\"family\":\"raw\",\"size\":%zu,\"words\":[", size);
        for (size_t i = 0; i < nwords; i++)
            fprintf(out, "%s{\"offset\":%zu,\"value\":\"0x%08x\"}", i ? "," : "", 4 * i,
                    le32(data + 4 * i));
        fprintf(out, "],\"tail\":[");
        for (size_t i = nwords * 4; i < size; i++)
            fprintf(out, "%s%u", i > nwords * 4 ? "," : "", data[i]);
        fprintf(out, "]}\n");
        return 0;
    }
    fprintf(out, "%s# raw: %zu bytes, %zu words%s\n", cm, size, nwords, rs);
    for (size_t i = 0; i < nwords; i++)
        fprintf(out, "%s.word%s %s0x%08x%s  %s# 0x%04zx%s\n", nm, rs, num, le32(data + 4 * i), rs,
                cm, 4 * i, rs);
    cg_text_tail(o, "", data, nwords * 4, size, out);
    return 0;
}

static int raw_assembler(const cg_text_opts *o, cg_asm **out)
{
    (void)o;
    return cg_asm_create(NULL, NULL, out);
}

static const cg_text_format raw_format = {
    .name = "raw",
    .description = "plain little-endian words (core directives only)",
    .disasm = raw_disasm,
    .assembler = raw_assembler,
};

size_t cg_text_format_count(void)
{
    size_t n = 1;
    for (size_t i = 0; i < cg_family_count(); i++)
        n += cg_family_at(i)->nformats;
    return n;
}

const cg_text_format *cg_text_format_at(size_t i)
{
    if (i == 0)
        return &raw_format;
    i--;
    for (size_t f = 0; f < cg_family_count(); f++) {
        const cg_family_desc *d = cg_family_at(f);
        if (i < d->nformats)
            return d->formats[i];
        i -= d->nformats;
    }
    return NULL;
}

const cg_text_format *cg_text_format_find(const char *name)
{
    for (size_t i = 0; name && i < cg_text_format_count(); i++)
        if (strcmp(cg_text_format_at(i)->name, name) == 0)
            return cg_text_format_at(i);
    return NULL;
}

/* ---- capture formats ----------------------------------------------------- */

size_t cg_capture_count(void)
{
    size_t n = 1; /* the CMDGPUCAP container */
    for (size_t i = 0; i < cg_family_count(); i++)
        n += cg_family_at(i)->ncaptures;
    return n;
}

const cg_capture_desc *cg_capture_at(size_t i)
{
    for (size_t f = 0; f < cg_family_count(); f++) {
        const cg_family_desc *d = cg_family_at(f);
        if (i < d->ncaptures)
            return d->captures[i];
        i -= d->ncaptures;
    }
    return i == 0 ? &cg_capfile_capture : NULL;
}

const cg_capture_desc *cg_capture_find(const char *name)
{
    for (size_t i = 0; name && i < cg_capture_count(); i++)
        if (strcmp(cg_capture_at(i)->name, name) == 0)
            return cg_capture_at(i);
    return NULL;
}

const cg_capture_desc *cg_capture_detect(const uint8_t *data, size_t size)
{
    if (!data)
        return NULL;
    if (cg_capfile_detect(data, size))
        return &cg_capfile_capture;
    for (size_t i = 0; i < cg_capture_count(); i++) {
        const cg_capture_desc *c = cg_capture_at(i);
        if (c->detect && c != &cg_capfile_capture && c->detect(data, size))
            return c;
    }
    return NULL;
}

int cg_capture_fail(cg_capture_error *err, size_t off, int rc, const char *fmt, ...)
{
    if (err) {
        err->offset = off;
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->msg, sizeof err->msg, fmt, ap);
        va_end(ap);
    }
    return rc;
}

int cg_capture_line(const uint8_t *data, size_t size, size_t *pos, char *line, size_t cap,
                    size_t *start, cg_capture_error *err)
{
    size_t p = *pos, n = 0;
    if (p >= size)
        return 0;
    *start = p;
    while (p < size && data[p] != '\n') {
        if (data[p] == 0)
            return cg_capture_fail(err, p, CG_ERR_SYNTAX, "NUL byte in a text capture");
        if (n + 1 < cap)
            line[n] = (char)data[p];
        n++;
        p++;
    }
    *pos = p + 1;
    if (n >= cap)
        return cg_capture_fail(err, *start, CG_ERR_SYNTAX, "line of %zu bytes is too long", n);
    if (n && line[n - 1] == '\r')
        n--;
    line[n] = 0;
    return 1;
}

bool cg_capture_hex(const char **s, uint64_t *v)
{
    const char *p = *s;
    if (p[0] != '0' || (p[1] != 'x' && p[1] != 'X'))
        return false;
    p += 2;
    uint64_t x = 0;
    int n = 0;
    for (;; p++, n++) {
        int d;
        if (*p >= '0' && *p <= '9')
            d = *p - '0';
        else if (*p >= 'a' && *p <= 'f')
            d = *p - 'a' + 10;
        else if (*p >= 'A' && *p <= 'F')
            d = *p - 'A' + 10;
        else
            break;
        if (n == 16)
            return false;
        x = x << 4 | (uint64_t)d;
    }
    if (n == 0)
        return false;
    *v = x;
    *s = p;
    return true;
}
