/* cmdgpu core: the definition-table checker (see def.h). */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "def.h"

/* The report: lines appended snprintf style, and the problem count. */
struct report {
    const char *table;
    char *buf;
    size_t cap, len;
    int problems;
};

/* Append to the report, snprintf style: what does not fit is cut, and the
 * buffer stays terminated. r->len counts the bytes stored (< cap). */
static void vappend(struct report *r, const char *fmt, va_list ap)
{
    size_t room = r->cap - r->len;
    int n = vsnprintf(r->buf + r->len, room, fmt, ap);
    if (n > 0)
        r->len += (size_t)n < room ? (size_t)n : room - 1;
}

static void append(struct report *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vappend(r, fmt, ap);
    va_end(ap);
}

/* Count a problem and add the line "table: <text>\n". */
static void say(struct report *r, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static void say(struct report *r, const char *fmt, ...)
{
    r->problems++;
    if (r->cap == 0)
        return;
    va_list ap;
    va_start(ap, fmt);
    append(r, "%s: ", r->table);
    vappend(r, fmt, ap);
    append(r, "\n");
    va_end(ap);
}

/* An entry is shown as 'NAME', or as "entry #i" when its name is empty. The
 * three strings go to a "%s%s%s" conversion. */
struct label {
    const char *q, *text;
    char num[40];
};

static void entry_label(struct label *l, const cg_def_entry *e, size_t i)
{
    if (e->name && e->name[0]) {
        l->q = "'";
        l->text = e->name;
    } else {
        snprintf(l->num, sizeof(l->num), "entry #%zu", i);
        l->q = "";
        l->text = l->num;
    }
}

static void field_label(struct label *l, const cg_def_field *f, size_t j)
{
    if (f->name && f->name[0]) {
        l->q = "'";
        l->text = f->name;
    } else {
        snprintf(l->num, sizeof(l->num), "#%zu", j);
        l->q = "";
        l->text = l->num;
    }
}

#define LABEL(l) (l).q, (l).text, (l).q

static bool field_valid(const cg_def_field *f) { return f->hi <= 31 && f->lo <= 31 && f->hi >= f->lo; }

static uint32_t field_mask(const cg_def_field *f)
{
    uint64_t upto = (UINT64_C(1) << (f->hi + 1)) - 1; /* bits hi..0 */
    return (uint32_t)(upto >> f->lo << f->lo);
}

static bool same_name(const char *a, const char *b) { return a && b && a[0] && strcmp(a, b) == 0; }

static void check_fields(struct report *r, const cg_def_entry *e, const struct label *el)
{
    for (size_t j = 0; j < e->nfields; j++) {
        const cg_def_field *g = &e->fields[j];
        struct label gl;
        field_label(&gl, g, j);
        if (!g->name || !g->name[0])
            say(r, "%s%s%s field #%zu with empty name", LABEL(*el), j);
        if (g->hi > 31 || g->lo > 31)
            say(r, "%s%s%s field %s%s%s bits %u:%u out of range", LABEL(*el), LABEL(gl),
                (unsigned)g->hi, (unsigned)g->lo);
        else if (g->hi < g->lo)
            say(r, "%s%s%s field %s%s%s hi < lo", LABEL(*el), LABEL(gl));
        for (size_t k = 0; k < j; k++) {
            if (same_name(e->fields[k].name, g->name)) {
                say(r, "%s%s%s duplicate field %s%s%s", LABEL(*el), LABEL(gl));
                break;
            }
        }
        if (!field_valid(g))
            continue;
        for (size_t k = 0; k < j; k++) {
            const cg_def_field *f = &e->fields[k];
            if (field_valid(f) && (field_mask(f) & field_mask(g))) {
                struct label fl;
                field_label(&fl, f, k);
                say(r, "%s%s%s fields %s%s%s and %s%s%s overlap", LABEL(*el), LABEL(fl),
                    LABEL(gl));
            }
        }
    }
}

/* ---- duplicate names ---- */

struct named {
    const char *name;
    size_t idx;
};

static int named_cmp(const void *pa, const void *pb)
{
    const struct named *a = pa, *b = pb;
    int c = strcmp(a->name, b->name);
    if (c)
        return c;
    return a->idx < b->idx ? -1 : a->idx > b->idx;
}

/* ---- overlaps ---- */

struct span {
    int64_t start, end; /* [start, end) in address units */
    size_t idx;
};

static int span_cmp(const void *pa, const void *pb)
{
    const struct span *a = pa, *b = pb;
    if (a->start != b->start)
        return a->start < b->start ? -1 : 1;
    return a->idx < b->idx ? -1 : a->idx > b->idx;
}

static int64_t eff_stride(const cg_def_entry *e, uint32_t unit)
{
    return e->stride ? (int64_t)e->stride : (int64_t)unit;
}

/* Floor and ceiling of a / b for b > 0. */
static int64_t floor_div(int64_t a, int64_t b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }
static int64_t ceil_div(int64_t a, int64_t b) { return -floor_div(-a, b); }

/* Do the elements of x and y (spans sx, sy, which cross) share a unit? Walk
 * the elements of the shorter one inside the common part of the spans; for
 * each, look for an element of y starting less than `unit` away. */
static bool elements_meet(const cg_def_entry *x, const struct span *sx, const cg_def_entry *y,
                          const struct span *sy, uint32_t unit)
{
    if (x->count > y->count) {
        const cg_def_entry *te = x;
        const struct span *ts = sx;
        x = y, sx = sy, y = te, sy = ts;
    }
    int64_t u = unit, lo = sx->start > sy->start ? sx->start : sy->start;
    int64_t hi = sx->end < sy->end ? sx->end : sy->end;
    int64_t ox = x->offset, oy = y->offset, strx = eff_stride(x, unit), stry = eff_stride(y, unit);
    /* Elements i of x with [ox + i*strx, +u) inside [lo, hi). */
    int64_t i0 = floor_div(lo - u - ox, strx) + 1, i1 = floor_div(hi - 1 - ox, strx);
    if (i0 < 0)
        i0 = 0;
    if (i1 > (int64_t)x->count - 1)
        i1 = (int64_t)x->count - 1;
    for (int64_t i = i0; i <= i1; i++) {
        int64_t a = ox + i * strx;
        /* y's element j meets [a, a+u) when a - u < oy + j*stry < a + u. */
        int64_t jmin = ceil_div(a - u + 1 - oy, stry), jmax = floor_div(a + u - 1 - oy, stry);
        if (jmin < 0)
            jmin = 0;
        if (jmax > (int64_t)y->count - 1)
            jmax = (int64_t)y->count - 1;
        if (jmin <= jmax)
            return true;
    }
    return false;
}

int cg_def_check_unit(const char *table, const cg_def_entry *e, size_t n, uint32_t unit,
                      char *report, size_t cap)
{
    if ((!e && n) || unit == 0 || (!report && cap))
        return CG_ERR_INVAL;
    struct report r = {table ? table : "?", report, cap, 0, 0};
    if (cap)
        report[0] = 0;
    if (n == 0)
        return 0;

    struct named *names = malloc(n * sizeof(*names));
    struct span *spans = malloc(n * sizeof(*spans));
    size_t *active = malloc(n * sizeof(*active));
    if (!names || !spans || !active) {
        free(names);
        free(spans);
        free(active);
        return CG_ERR_NOMEM;
    }
    size_t nnames = 0, nspans = 0;

    /* 1. Each entry on its own. */
    for (size_t i = 0; i < n; i++) {
        const cg_def_entry *x = &e[i];
        struct label l;
        entry_label(&l, x, i);
        bool ok = true;
        if (!x->name || !x->name[0])
            say(&r, "entry #%zu with empty name", i);
        else
            names[nnames++] = (struct named){x->name, i};
        if (x->count == 0) {
            say(&r, "%s%s%s count 0", LABEL(l));
            ok = false;
        }
        if (unit > 1 && x->offset % unit)
            say(&r, "%s%s%s offset 0x%x not a multiple of %u", LABEL(l), (unsigned)x->offset,
                (unsigned)unit);
        if (unit > 1 && x->stride % unit)
            say(&r, "%s%s%s stride %u not a multiple of %u", LABEL(l), (unsigned)x->stride,
                (unsigned)unit);
        if (ok) {
            /* (2^32-1)^2 + 2 * (2^32-1) = 2^64 - 1: end cannot wrap. */
            uint64_t steps = (uint64_t)(x->count - 1) * (uint64_t)eff_stride(x, unit);
            uint64_t end = (uint64_t)x->offset + steps + unit;
            if (end - 1 > UINT64_C(0xffffffff)) {
                say(&r, "%s%s%s [0x%llx,0x%llx) runs past 0xffffffff", LABEL(l),
                    (unsigned long long)x->offset, (unsigned long long)end);
                ok = false;
            }
            if (ok && !(x->flags & CG_DEF_ALIAS))
                spans[nspans++] = (struct span){x->offset, (int64_t)end, i};
        }
        if (x->nfields && !x->fields)
            say(&r, "%s%s%s has %zu fields but no field array", LABEL(l), x->nfields);
        else
            check_fields(&r, x, &l);
    }

    /* 2. Duplicate names: neighbours once sorted. */
    qsort(names, nnames, sizeof(*names), named_cmp);
    for (size_t k = 1; k < nnames; k++)
        if (strcmp(names[k - 1].name, names[k].name) == 0)
            say(&r, "duplicate name '%s'", names[k].name);

    /* 3. Overlaps: sweep the spans by start, keeping those still open. */
    qsort(spans, nspans, sizeof(*spans), span_cmp);
    size_t nactive = 0;
    for (size_t p = 0; p < nspans; p++) {
        const struct span *b = &spans[p];
        size_t keep = 0;
        for (size_t k = 0; k < nactive; k++)
            if (spans[active[k]].end > b->start)
                active[keep++] = active[k];
        nactive = keep;
        for (size_t k = 0; k < nactive; k++) {
            const struct span *a = &spans[active[k]];
            if (!elements_meet(&e[a->idx], a, &e[b->idx], b, unit))
                continue;
            struct label la, lb;
            entry_label(&la, &e[a->idx], a->idx);
            entry_label(&lb, &e[b->idx], b->idx);
            say(&r, "%s%s%s [0x%llx,0x%llx) overlaps %s%s%s [0x%llx,0x%llx)", LABEL(la),
                (unsigned long long)a->start, (unsigned long long)a->end, LABEL(lb),
                (unsigned long long)b->start, (unsigned long long)b->end);
        }
        active[nactive++] = p;
    }

    free(names);
    free(spans);
    free(active);
    return r.problems;
}

int cg_def_check(const char *table, const cg_def_entry *e, size_t n, char *report, size_t cap)
{
    return cg_def_check_unit(table, e, n, 1, report, cap);
}
