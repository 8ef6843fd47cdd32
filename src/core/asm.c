/* cmdgpu core: the shared assembler front end — the object, its sources, the
 * passes, statements, symbols, sections, emission and error collection.
 *
 * Passes. Every pass runs the whole program from a clean slate (no sections,
 * location counters at 0); only symbols carry over. A symbol used before its
 * definition in a pass takes its value from the previous pass, or 0 if it has
 * never been defined, so the first pass lays the program out with guesses
 * and later passes refine them. A pass in which no symbol was defined for the
 * first time, changed value or disappeared has seen only final values:
 * the layout is stable. One more pass, the final one, then produces the
 * bytes and reports errors, including undefined symbols. Errors are only
 * recorded in the final pass because earlier passes see guessed values (a
 * forward reference of 0 can make `x / fwd` divide by zero) and would
 * otherwise repeat every message once per pass.
 *
 * Only the final pass stores bytes; earlier passes just advance location
 * counters (labels depend on sizes only), which keeps hostile .org and
 * .incbin statements cheap. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <fcntl.h>
#include <unistd.h>
#include "asm_internal.h"
#include "internal.h"

const char *cg_file_why(const char *path, int rc, char *buf, size_t cap)
{
    struct stat st;
    int e = 0;
    if (strcmp(path, "-") == 0)
        e = 0;
    else if (stat(path, &st) != 0)
        e = errno;
    else if (S_ISDIR(st.st_mode))
        e = EISDIR;
    else {
        int fd = open(path, O_RDONLY | O_NONBLOCK);
        if (fd < 0)
            e = errno;
        else
            close(fd);
    }
    snprintf(buf, cap, "%s", e ? strerror(e) : cg_strerror(rc));
    return buf;
}

/* The cursor when no line is being assembled: an empty line. */
static const char empty_line[1] = "";

int64_t asm_u2i(uint64_t v)
{
    /* uint64_t -> int64_t without the implementation-defined conversion of
     * values above INT64_MAX. */
    return v <= (uint64_t)INT64_MAX ? (int64_t)v : -(int64_t)(~v) - 1;
}

static void cursor_clear(cg_asm *as)
{
    as->line = as->cur = as->end = empty_line;
    as->stmt_pos = NULL;
    as->src = SIZE_MAX;
    as->line_no = 0;
}

/* ---- name index (symbols and sections) ---- */

static uint32_t name_hash(const char *s, size_t n)
{
    uint32_t h = 2166136261u; /* FNV-1a */
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 16777619u;
    return h;
}

static const struct asm_name *entry_name(const void *base, size_t stride, size_t i)
{
    return (const struct asm_name *)(const void *)((const char *)base + stride * i);
}

static size_t index_find(const struct asm_index *ix, const void *base, size_t stride,
                         const char *s, size_t n)
{
    if (ix->nslots == 0)
        return SIZE_MAX;
    uint32_t h = name_hash(s, n);
    size_t mask = ix->nslots - 1;
    for (size_t i = h & mask;; i = (i + 1) & mask) {
        uint32_t slot = ix->slots[i];
        if (slot == 0)
            return SIZE_MAX;
        const struct asm_name *e = entry_name(base, stride, slot - 1);
        if (e->hash == h && e->len == n && memcmp(e->str, s, n) == 0)
            return slot - 1;
    }
}

/* Index entry i of an array of `count` entries (i included). */
static int index_add(struct asm_index *ix, const void *base, size_t stride, size_t count,
                     size_t i)
{
    if (count > UINT32_MAX - 1)
        return CG_ERR_NOMEM;
    if (count * 2 > ix->nslots) {
        /* Keep the load at most 1/2; rebuild from the array. */
        size_t n = ix->nslots ? ix->nslots * 2 : 64;
        uint32_t *slots = calloc(n, sizeof(*slots));
        if (!slots)
            return CG_ERR_NOMEM;
        free(ix->slots);
        ix->slots = slots;
        ix->nslots = n;
        for (size_t k = 0; k < count; k++)
            if (k != i)
                index_add(ix, base, stride, count, k);
    }
    size_t mask = ix->nslots - 1;
    size_t k = entry_name(base, stride, i)->hash & mask;
    while (ix->slots[k])
        k = (k + 1) & mask;
    ix->slots[k] = (uint32_t)(i + 1);
    return 0;
}

static void index_clear(struct asm_index *ix)
{
    if (ix->slots)
        memset(ix->slots, 0, ix->nslots * sizeof(*ix->slots));
}

static int name_init(struct asm_name *nm, const char *s, size_t n)
{
    nm->str = malloc(n + 1);
    if (!nm->str)
        return CG_ERR_NOMEM;
    memcpy(nm->str, s, n);
    nm->str[n] = 0;
    nm->len = n;
    nm->hash = name_hash(s, n);
    return 0;
}

/* Grow an array of `size`-byte elements to hold at least `need`. */
static int grow_array(void **arr, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap)
        return 0;
    size_t n = *cap ? *cap * 2 : 16;
    if (n < need)
        n = need;
    if (n > SIZE_MAX / size)
        return CG_ERR_NOMEM;
    void *p = realloc(*arr, n * size);
    if (!p)
        return CG_ERR_NOMEM;
    *arr = p;
    *cap = n;
    return 0;
}

/* ---- errors ---- */

static void errs_vappend(cg_asm *as, const char *fmt, va_list ap)
{
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap2);
    va_end(ap2);
    if (n < 0)
        return;
    size_t need = as->errlen + (size_t)n + 1;
    if (need > as->errcap) {
        size_t cap = as->errcap ? as->errcap * 2 : 1024;
        while (cap < need)
            cap *= 2;
        char *p = realloc(as->errs, cap);
        if (!p) {
            as->oom = true;
            return;
        }
        as->errs = p;
        as->errcap = cap;
    }
    vsnprintf(as->errs + as->errlen, (size_t)n + 1, fmt, ap);
    as->errlen += (size_t)n;
}

static void errs_append(cg_asm *as, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    errs_vappend(as, fmt, ap);
    va_end(ap);
}

int asm_verror_loc(cg_asm *as, struct asm_loc loc, const char *fmt, va_list ap)
{
    as->stmt_failed = true;
    if (!as->final || as->stop)
        return CG_ERR_SYNTAX;
    const char *file = loc.src < as->nsrcs ? as->srcs[loc.src].name : "<asm>";
    if (as->nerrs >= ASM_MAX_ERRORS) {
        errs_append(as, "%s:%zu:%zu: too many errors\n", file, loc.line, loc.col);
        as->nerrs++;
        as->stop = true;
        return CG_ERR_SYNTAX;
    }
    errs_append(as, "%s:%zu:%zu: ", file, loc.line, loc.col);
    errs_vappend(as, fmt, ap);
    errs_append(as, "\n");
    as->nerrs++;
    return CG_ERR_SYNTAX;
}

static struct asm_loc loc_at(const cg_asm *as, const char *pos)
{
    struct asm_loc loc = {as->src, as->line_no, 0};
    if (as->src != SIZE_MAX && pos >= as->line && pos <= as->end)
        loc.col = (size_t)(pos - as->line) + 1;
    return loc;
}

int asm_error_at(cg_asm *as, const char *pos, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = asm_verror_loc(as, loc_at(as, pos), fmt, ap);
    va_end(ap);
    return rc;
}

static int error_loc(cg_asm *as, struct asm_loc loc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = asm_verror_loc(as, loc, fmt, ap);
    va_end(ap);
    return rc;
}

int asm_oom(cg_asm *as)
{
    as->oom = true;
    asm_error_at(as, as->stmt_pos ? as->stmt_pos : as->cur, "out of host memory");
    return CG_ERR_NOMEM;
}

int cg_asm_error(cg_asm *as, const char *fmt, ...)
{
    if (!as)
        return CG_ERR_SYNTAX;
    const char *p = as->cur;
    while (p < as->end && asm_is_blank(*p))
        p++;
    va_list ap;
    va_start(ap, fmt);
    int rc = asm_verror_loc(as, loc_at(as, p), fmt, ap);
    va_end(ap);
    return rc;
}

size_t cg_asm_error_count(const cg_asm *as) { return as ? as->nerrs : 0; }

const char *cg_asm_errors(const cg_asm *as)
{
    return as && as->errs ? as->errs : "";
}

/* ---- symbols ---- */

struct asm_symbol *asm_symbol_find(const cg_asm *as, const char *name, size_t len)
{
    size_t i = index_find(&as->sym_index, as->syms, sizeof(*as->syms), name, len);
    return i == SIZE_MAX ? NULL : &as->syms[i];
}

static void note_change(cg_asm *as, const struct asm_symbol *s)
{
    if (as->changed)
        return;
    as->changed = true;
    as->change_loc = (struct asm_loc){s->src, s->line, s->col};
    memcpy(as->change_name, s->name.str, s->name.len + 1);
}

int asm_define(cg_asm *as, const char *name, size_t len, int64_t value, const char *pos)
{
    if (len == 1 && name[0] == '.')
        return asm_error_at(as, pos, "'.' cannot be defined");
    struct asm_symbol *s = asm_symbol_find(as, name, len);
    if (!s) {
        if (grow_array((void **)&as->syms, &as->capsyms, as->nsyms + 1, sizeof(*as->syms)))
            return asm_oom(as);
        s = &as->syms[as->nsyms];
        memset(s, 0, sizeof(*s));
        if (name_init(&s->name, name, len))
            return asm_oom(as);
        if (index_add(&as->sym_index, as->syms, sizeof(*as->syms), as->nsyms + 1,
                      as->nsyms)) {
            free(s->name.str);
            return asm_oom(as);
        }
        as->nsyms++;
    }
    if (s->pass == as->pass) {
        if (s->value != value)
            return asm_error_at(as, pos, "symbol '%.*s' redefined", (int)len, name);
        return 0;
    }
    bool changed = s->pass == 0 || s->value != value;
    struct asm_loc loc = loc_at(as, pos);
    s->value = value;
    s->pass = as->pass;
    s->src = loc.src;
    s->line = loc.line;
    s->col = loc.col;
    if (changed)
        note_change(as, s);
    return 0;
}

void asm_equ_dep(cg_asm *as, size_t to)
{
    if (grow_array((void **)&as->edges, &as->capedges, as->nedges + 1, sizeof(*as->edges))) {
        asm_oom(as);
        return;
    }
    as->edges[as->nedges++] = (struct asm_edge){SIZE_MAX, to};
}

void asm_equ_done(cg_asm *as, size_t first, const char *name, size_t len)
{
    const struct asm_symbol *s = first < as->nedges ? asm_symbol_find(as, name, len) : NULL;
    size_t from = s ? (size_t)(s - as->syms) : SIZE_MAX;
    if (from == SIZE_MAX) { /* the definition failed: forget its reads */
        as->nedges = first < as->nedges ? first : as->nedges;
        return;
    }
    for (size_t i = first; i < as->nedges; i++)
        as->edges[i].from = from;
}

static int edge_cmp(const void *a, const void *b)
{
    const struct asm_edge *x = a, *y = b;
    return x->from != y->from ? (x->from > y->from) - (x->from < y->from)
                              : (x->to > y->to) - (x->to < y->to);
}

/* After the final pass: a .equ whose value depends on itself, directly or
 * through other .equ symbols, has no single value (the passes settle on
 * whatever guess they started from). One error per cycle, at the .equ. */
static size_t equ_cycles(cg_asm *as)
{
    size_t found = 0;
    if (as->nedges == 0)
        return 0;
    qsort(as->edges, as->nedges, sizeof(*as->edges), edge_cmp);
    size_t n = as->nsyms;
    size_t *first = malloc((n + 1) * sizeof(*first)), *stack = malloc(n * sizeof(*stack));
    size_t *next = malloc(n * sizeof(*next));
    uint8_t *color = calloc(n ? n : 1, 1); /* 0 new, 1 on the stack, 2 done */
    if (!first || !stack || !next || !color) {
        asm_oom(as);
        goto out;
    }
    for (size_t v = 0, e = 0; v <= n; v++) {
        while (e < as->nedges && as->edges[e].from < v)
            e++;
        first[v] = e;
    }
    for (size_t root = 0; root < n; root++) {
        if (color[root])
            continue;
        size_t sp = 0;
        stack[sp++] = root;
        next[root] = first[root];
        color[root] = 1;
        while (sp) {
            size_t v = stack[sp - 1];
            if (next[v] == first[v + 1]) {
                color[v] = 2;
                sp--;
                continue;
            }
            size_t w = as->edges[next[v]++].to;
            if (w >= n || color[w] == 2)
                continue;
            if (color[w] == 1) {
                const struct asm_symbol *s = &as->syms[w];
                error_loc(as, (struct asm_loc){s->src, s->line, s->col},
                          "circular definition: '%s' depends on itself%s%s%s", s->name.str,
                          v == w ? "" : " (through '", v == w ? "" : as->syms[v].name.str,
                          v == w ? "" : "')");
                found++;
                continue;
            }
            color[w] = 1;
            next[w] = first[w];
            stack[sp++] = w;
        }
    }
out:
    free(first);
    free(stack);
    free(next);
    free(color);
    return found;
}

int cg_asm_define(cg_asm *as, const char *name, int64_t value)
{
    if (!as || !name)
        return CG_ERR_INVAL;
    size_t len = strlen(name);
    const char *pos = as->cur;
    while (pos < as->end && asm_is_blank(*pos))
        pos++;
    if (len == 0 || len > ASM_MAX_IDENT)
        return asm_error_at(as, pos, "invalid symbol name");
    return asm_define(as, name, len, value, pos);
}

bool cg_asm_symbol(const cg_asm *as, const char *name, int64_t *value)
{
    if (!as || !name)
        return false;
    const struct asm_symbol *s = asm_symbol_find(as, name, strlen(name));
    if (!s || s->pass == 0)
        return false;
    if (value)
        *value = s->value;
    return true;
}

/* ---- sections and emission ---- */

static void sections_clear(cg_asm *as)
{
    for (size_t i = 0; i < as->nsecs; i++) {
        free(as->secs[i].name.str);
        free(as->secs[i].data);
    }
    as->nsecs = 0;
    index_clear(&as->sec_index);
    as->cur_sec = SIZE_MAX;
    as->total_out = 0;
}

static int section_new(cg_asm *as, const char *name, size_t len, uint64_t base, size_t *idx)
{
    if (grow_array((void **)&as->secs, &as->capsecs, as->nsecs + 1, sizeof(*as->secs)))
        return CG_ERR_NOMEM;
    struct asm_section *sec = &as->secs[as->nsecs];
    memset(sec, 0, sizeof(*sec));
    if (name_init(&sec->name, name, len))
        return CG_ERR_NOMEM;
    if (index_add(&as->sec_index, as->secs, sizeof(*as->secs), as->nsecs + 1, as->nsecs)) {
        free(sec->name.str);
        return CG_ERR_NOMEM;
    }
    sec->base = base;
    *idx = as->nsecs++;
    return 0;
}

struct asm_section *asm_cur_section(cg_asm *as, bool create)
{
    if (as->cur_sec != SIZE_MAX)
        return &as->secs[as->cur_sec];
    if (!create)
        return NULL;
    /* First emission before any .section: the implicit "text" at base 0. */
    size_t idx;
    if (section_new(as, "text", 4, 0, &idx))
        return NULL;
    as->cur_sec = idx;
    return &as->secs[idx];
}

int asm_section_switch(cg_asm *as, const char *name, bool has_base, uint64_t base,
                       const char *pos)
{
    size_t len = strlen(name);
    size_t i = index_find(&as->sec_index, as->secs, sizeof(*as->secs), name, len);
    if (i != SIZE_MAX) {
        if (has_base && as->secs[i].base != base)
            return asm_error_at(as, pos, "section '%s' already has base 0x%llx", name,
                                (unsigned long long)as->secs[i].base);
        as->cur_sec = i;
        return 0;
    }
    if (section_new(as, name, len, has_base ? base : 0, &i))
        return asm_oom(as);
    as->cur_sec = i;
    return 0;
}

int asm_reserve(cg_asm *as, size_t n, uint8_t **out)
{
    *out = NULL;
    if (n == 0)
        return 0;
    const char *pos = as->stmt_pos ? as->stmt_pos : as->cur;
    if (n > ASM_MAX_OUTPUT - as->total_out)
        return asm_error_at(as, pos, "output larger than %zu MiB", ASM_MAX_OUTPUT >> 20);
    struct asm_section *sec = asm_cur_section(as, true);
    if (!sec)
        return asm_oom(as);
    if ((uint64_t)sec->size + (n - 1) > UINT64_MAX - sec->base)
        return asm_error_at(as, pos, "section '%s' runs past the end of the 64-bit address space",
                            sec->name.str);
    if (as->final) {
        size_t need = sec->size + n;
        if (need > sec->cap) {
            size_t cap = sec->cap ? sec->cap * 2 : 256;
            if (cap < need)
                cap = need;
            uint8_t *p = realloc(sec->data, cap);
            if (!p)
                return asm_oom(as);
            sec->data = p;
            sec->cap = cap;
        }
        *out = sec->data + sec->size;
        memset(*out, 0, n);
    }
    sec->size += n;
    as->total_out += n;
    return 0;
}

int cg_asm_emit(cg_asm *as, const void *bytes, size_t n)
{
    if (!as || (!bytes && n))
        return CG_ERR_INVAL;
    uint8_t *dst;
    int rc = asm_reserve(as, n, &dst);
    if (rc == 0 && dst)
        memcpy(dst, bytes, n);
    return rc;
}

int cg_asm_emit32(cg_asm *as, uint32_t v)
{
    const uint8_t b[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16),
                          (uint8_t)(v >> 24)};
    return cg_asm_emit(as, b, sizeof(b));
}

uint64_t cg_asm_pc(const cg_asm *as)
{
    if (!as || as->cur_sec == SIZE_MAX)
        return 0; /* the implicit text section: base 0, nothing emitted yet */
    const struct asm_section *sec = &as->secs[as->cur_sec];
    return sec->base + sec->size;
}

const char *cg_asm_current_section(const cg_asm *as)
{
    if (!as || as->cur_sec == SIZE_MAX)
        return "text";
    return as->secs[as->cur_sec].name.str;
}

size_t cg_asm_section_count(const cg_asm *as) { return as ? as->nsecs : 0; }

int cg_asm_section(const cg_asm *as, size_t i, const char **name, uint64_t *base,
                   const uint8_t **data, size_t *size)
{
    if (!as)
        return CG_ERR_INVAL;
    if (i >= as->nsecs)
        return CG_ERR_RANGE;
    const struct asm_section *sec = &as->secs[i];
    if (name)
        *name = sec->name.str;
    if (base)
        *base = sec->base;
    if (data)
        *data = sec->data;
    if (size)
        *size = sec->size;
    return 0;
}

int cg_asm_add_section(cg_asm *as, const char *name, uint64_t base, const uint8_t *data,
                       size_t size)
{
    if (!as || !name || (size && !data) || as->pass != 0 || as->assembling)
        return CG_ERR_INVAL;
    size_t len = strlen(name);
    if (index_find(&as->sec_index, as->secs, sizeof(*as->secs), name, len) != SIZE_MAX)
        return CG_ERR_INVAL;
    uint8_t *copy = NULL;
    if (size && !(copy = malloc(size)))
        return CG_ERR_NOMEM;
    size_t i;
    if (section_new(as, name, len, base, &i)) {
        free(copy);
        return CG_ERR_NOMEM;
    }
    if (size)
        memcpy(copy, data, size);
    as->secs[i].data = copy;
    as->secs[i].size = as->secs[i].cap = size;
    return 0;
}

int cg_asm_section_find(const cg_asm *as, const char *name, size_t *index)
{
    if (!as || !name)
        return CG_ERR_INVAL;
    size_t i = index_find(&as->sec_index, as->secs, sizeof(*as->secs), name, strlen(name));
    if (i == SIZE_MAX)
        return CG_ERR_NOENT;
    if (index)
        *index = i;
    return 0;
}

/* ---- the object and its sources ---- */

int cg_asm_create(const cg_asm_family *family, void *user, cg_asm **out)
{
    if (!out)
        return CG_ERR_INVAL;
    *out = NULL;
    cg_asm *as = calloc(1, sizeof(*as));
    if (!as)
        return CG_ERR_NOMEM;
    if (family)
        as->family = *family;
    as->user = user;
    as->cur_sec = SIZE_MAX;
    cursor_clear(as);
    *out = as;
    return 0;
}

static void symbols_clear(cg_asm *as)
{
    for (size_t i = 0; i < as->nsyms; i++)
        free(as->syms[i].name.str);
    as->nsyms = 0;
    index_clear(&as->sym_index);
}

void cg_asm_destroy(cg_asm *as)
{
    if (!as)
        return;
    for (size_t i = 0; i < as->nsrcs; i++) {
        free(as->srcs[i].name);
        free(as->srcs[i].dir);
        free(as->srcs[i].text);
    }
    free(as->srcs);
    symbols_clear(as);
    free(as->syms);
    free(as->sym_index.slots);
    sections_clear(as);
    free(as->secs);
    free(as->sec_index.slots);
    free(as->errs);
    free(as->edges);
    if (as->free_user)
        as->free_user(as->user);
    free(as);
}

void cg_asm_own_user(cg_asm *as, void (*free_user)(void *user))
{
    if (as)
        as->free_user = free_user;
}

void *cg_asm_user(const cg_asm *as)
{
    return as ? as->user : NULL;
}

/* Take ownership of text (malloc'd, len bytes). */
static int add_source_owned(cg_asm *as, const char *name, char *text, size_t len)
{
    if (grow_array((void **)&as->srcs, &as->capsrcs, as->nsrcs + 1, sizeof(*as->srcs))) {
        free(text);
        return CG_ERR_NOMEM;
    }
    struct asm_source *s = &as->srcs[as->nsrcs];
    const char *slash = strrchr(name, '/');
    size_t dirlen = slash ? (size_t)(slash - name) + 1 : 0;
    s->name = malloc(strlen(name) + 1);
    s->dir = malloc(dirlen + 1);
    if (!s->name || !s->dir) {
        free(s->name);
        free(s->dir);
        free(text);
        return CG_ERR_NOMEM;
    }
    strcpy(s->name, name);
    memcpy(s->dir, name, dirlen);
    s->dir[dirlen] = 0;
    s->text = text;
    s->len = len;
    s->included = false;
    as->nsrcs++;
    return 0;
}

int cg_asm_add_source(cg_asm *as, const char *name, const char *text, size_t len)
{
    if (!as || (!text && len))
        return CG_ERR_INVAL;
    if (as->assembling)
        return CG_ERR_BUSY;
    char *copy = malloc(len ? len : 1);
    if (!copy)
        return CG_ERR_NOMEM;
    if (len)
        memcpy(copy, text, len);
    return add_source_owned(as, name ? name : "<input>", copy, len);
}

int cg_asm_add_file(cg_asm *as, const char *path)
{
    if (!as || !path)
        return CG_ERR_INVAL;
    if (as->assembling)
        return CG_ERR_BUSY;
    bool is_stdin = strcmp(path, "-") == 0;
    FILE *f = is_stdin ? stdin : fopen(path, "rb");
    if (!f)
        return errno == ENOENT ? CG_ERR_NOENT : CG_ERR_IO;
    /* Sources are held in memory whole, up to ASM_MAX_SOURCE bytes. A
     * regular file is measured first (nothing is allocated for one that is
     * too large); a stream's buffer grows only as its data arrives. */
    size_t cap = 4096, len = 0;
    struct stat st;
    int rc = 0;
    if (fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode)) {
        if ((uint64_t)st.st_size > ASM_MAX_SOURCE)
            rc = CG_ERR_RANGE;
        else
            cap = (size_t)st.st_size + 1; /* +1: the end is seen in one read */
    }
    char *text = rc ? NULL : malloc(cap);
    if (!rc && !text)
        rc = CG_ERR_NOMEM;
    while (rc == 0) {
        if (len == cap) {
            if (cap > ASM_MAX_SOURCE) {
                rc = CG_ERR_RANGE;
                break;
            }
            size_t grow = cap > ASM_MAX_SOURCE / 2 ? ASM_MAX_SOURCE + 1 : cap * 2;
            char *p = realloc(text, grow);
            if (!p) {
                rc = CG_ERR_NOMEM;
                break;
            }
            text = p;
            cap = grow;
        }
        size_t got = fread(text + len, 1, cap - len, f);
        len += got;
        if (got == 0) {
            if (ferror(f))
                rc = CG_ERR_IO;
            break;
        }
    }
    if (!is_stdin)
        fclose(f);
    if (rc) {
        free(text);
        return rc;
    }
    /* stdin's .incbin paths are relative to the working directory. */
    return add_source_owned(as, is_stdin ? "<stdin>" : path, text, len);
}

/* ---- statements and passes ---- */

static void run_statement(cg_asm *as);

/* Assemble every line of source i. The source array may grow meanwhile
 * (.include), so only the text pointer, which never moves, is kept. */
static void run_source(cg_asm *as, size_t i)
{
    const char *p = as->srcs[i].text, *tend = p + as->srcs[i].len;
    size_t line_no = 1;
    while (p < tend && !as->stop) {
        const char *nl = memchr(p, '\n', (size_t)(tend - p));
        as->src = i;
        as->line_no = line_no++;
        as->line = as->cur = p;
        as->end = nl ? nl : tend;
        run_statement(as);
        p = nl ? nl + 1 : tend;
    }
}

int asm_include(cg_asm *as, const char *path, const char *pos, const char *quoted)
{
    if (as->include_depth >= ASM_MAX_INCLUDE_DEPTH)
        return asm_error_at(as, pos, ".include nested more than %d deep (an include loop?)",
                            ASM_MAX_INCLUDE_DEPTH);
    /* Read each file once, on the pass that first includes it. */
    size_t idx = SIZE_MAX;
    for (size_t i = 0; i < as->nsrcs; i++)
        if (as->srcs[i].included && strcmp(as->srcs[i].name, path) == 0) {
            idx = i;
            break;
        }
    if (idx == SIZE_MAX) {
        /* "-" is standard input to cg_asm_add_file; an include never is */
        struct stat st;
        if (strcmp(path, "-") == 0 || (stat(path, &st) == 0 && !S_ISREG(st.st_mode)))
            return asm_error_at(as, pos, "cannot read '%s': not a regular file", quoted);
        /* sources are small; this also keeps odd files (/proc) out */
        if (stat(path, &st) == 0 && st.st_size > ASM_MAX_INCLUDE_BYTES)
            return asm_error_at(as, pos, "'%s' is larger than %d bytes", quoted,
                                ASM_MAX_INCLUDE_BYTES);
        bool was = as->assembling;
        as->assembling = false; /* cg_asm_add_file refuses while assembling */
        int rc = cg_asm_add_file(as, path);
        as->assembling = was;
        if (rc == CG_ERR_NOMEM)
            return asm_oom(as);
        if (rc) {
            char why[128];
            return asm_error_at(as, pos, "cannot read '%s': %s", quoted,
                                cg_file_why(path, rc, why, sizeof why));
        }
        idx = as->nsrcs - 1;
        as->srcs[idx].included = true;
    }
    /* assemble it here, then carry on after the .include line */
    size_t src = as->src, line_no = as->line_no;
    const char *line = as->line, *end = as->end, *stmt_pos = as->stmt_pos;
    uint64_t stmt_pc = as->stmt_pc;
    bool failed = as->stmt_failed;
    as->include_depth++;
    run_source(as, idx);
    as->include_depth--;
    as->src = src;
    as->line_no = line_no;
    as->line = line;
    as->end = end;
    as->cur = end; /* the .include statement is complete */
    as->stmt_pos = stmt_pos;
    as->stmt_pc = stmt_pc;
    as->stmt_failed = failed;
    return 0;
}

static void run_statement(cg_asm *as)
{
    char tok[48];
    const char *p;
    size_t n;

    as->stmt_failed = false;
    as->stmt_pos = NULL;
    /* Labels: any number of `name:` before the statement. */
    for (;;) {
        if (cg_asm_eol(as))
            return;
        p = as->cur;
        n = asm_ident_len(p, as->end);
        if (n == 0 || p + n >= as->end || p[n] != ':')
            break;
        if (n > ASM_MAX_IDENT) {
            asm_error_at(as, p, "name longer than %d characters", ASM_MAX_IDENT);
            return;
        }
        as->cur = p + n + 1;
        if (asm_define(as, p, n, asm_u2i(cg_asm_pc(as)), p))
            return;
    }
    as->stmt_pos = p;
    as->stmt_pc = cg_asm_pc(as);
    if (n == 0) {
        asm_error_at(as, p, "unexpected %s", asm_describe(p, as->end, tok, sizeof(tok)));
        return;
    }
    if (n > ASM_MAX_IDENT) {
        asm_error_at(as, p, "name longer than %d characters", ASM_MAX_IDENT);
        return;
    }
    char name[ASM_MAX_IDENT + 1];
    memcpy(name, p, n);
    name[n] = 0;
    as->cur = p + n;

    int rc;
    if (cg_asm_accept(as, '=')) {
        int64_t v;
        rc = asm_expr(as, &v);
        if (rc == 0)
            rc = asm_define(as, p, n, v, p);
    } else {
        rc = name[0] == '.' ? asm_directive(as, name) : CG_ERR_NOENT;
        if (rc == CG_ERR_NOENT && as->family.statement)
            rc = as->family.statement(as, as->user, name);
        if (rc == CG_ERR_NOENT) {
            asm_error_at(as, p, "unknown %s '%s'", name[0] == '.' ? "directive" : "mnemonic",
                         name);
            return;
        }
    }
    if (rc < 0) {
        /* A family handler may fail without a message of its own. */
        if (!as->stmt_failed)
            asm_error_at(as, p, "'%s' failed: %s", name, cg_strerror(rc));
        return;
    }
    if (!cg_asm_eol(as))
        asm_error_at(as, as->cur, "unexpected %s",
                     asm_describe(as->cur, as->end, tok, sizeof(tok)));
}

static void run_pass(cg_asm *as, int pass, bool final)
{
    as->pass = pass;
    as->final = final;
    as->changed = false;
    sections_clear(as);
    cursor_clear(as);
    if (as->family.begin_pass)
        as->family.begin_pass(as, as->user, pass, final);

    for (size_t i = 0; i < as->nsrcs && !as->stop; i++)
        if (!as->srcs[i].included)
            run_source(as, i);
    cursor_clear(as);

    /* A symbol defined in an earlier pass but not in this one has vanished
     * (its definition failed this time): that too is a change, and from now
     * on the symbol is undefined. */
    for (size_t i = 0; i < as->nsyms; i++) {
        struct asm_symbol *s = &as->syms[i];
        if (s->pass != 0 && s->pass != pass) {
            note_change(as, s);
            s->pass = 0;
        }
    }
}

int cg_asm_assemble(cg_asm *as)
{
    if (!as)
        return CG_ERR_INVAL;
    if (as->assembling)
        return CG_ERR_BUSY;
    as->assembling = true;
    as->errlen = 0;
    if (as->errs)
        as->errs[0] = 0;
    as->nerrs = 0;
    as->oom = false;
    as->stop = false;
    as->nedges = 0;
    symbols_clear(as);

    int pass = 0;
    bool converged = false;
    while (pass < ASM_MAX_PASSES && !converged) {
        run_pass(as, ++pass, false);
        converged = !as->changed;
    }
    /* Where the layout last moved, before the final pass overwrites it. */
    struct asm_loc loc = as->change_loc;
    char name[sizeof(as->change_name)];
    memcpy(name, as->change_name, sizeof(name));

    run_pass(as, ++pass, true);
    /* a cycle explains why its labels do not converge: no second message */
    if (!as->stop && equ_cycles(as) > 0)
        converged = true;
    if (!as->stop && !converged)
        error_loc(as, loc, "labels do not converge ('%s' still changes after %d passes)", name,
                  ASM_MAX_PASSES);
    /* A converged layout can still move in the final pass, but only because
     * a statement failed there (undefined symbols are errors only now) or a
     * family handler is not deterministic. Only the latter needs a message. */
    else if (!as->stop && as->changed && as->nerrs == 0)
        error_loc(as, as->change_loc,
                  "labels do not converge ('%s' changed in the final pass)", as->change_name);
    as->assembling = false;
    if (as->oom)
        return CG_ERR_NOMEM;
    return as->nerrs ? CG_ERR_SYNTAX : 0;
}

int cg_asm_pass(const cg_asm *as) { return as ? as->pass : 0; }

bool cg_asm_final_pass(const cg_asm *as) { return as && as->final; }
