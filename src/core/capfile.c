/* core: the CMDGPUCAP capture container (include/cmdgpu/capfile.h,
 * docs/capture-format.md): the writer, the hostile-input reader, and the
 * family-independent parts of replay (device set-up, result checks). */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "cmdgpu/core.h"
#include "cmdgpu/family.h"
#include "cmdgpu/capfile.h"
#include "internal.h"

static const struct {
    uint32_t code;
    const char *name;
} rec_names[] = {
#define CG_X_ROW(id, code, name, what) {code, name},
    CG_CAPFILE_RECORD_TABLE(CG_X_ROW)
#undef CG_X_ROW
};

const char *cg_capfile_record_name(uint32_t type)
{
    for (size_t i = 0; i < sizeof rec_names / sizeof rec_names[0]; i++)
        if (rec_names[i].code == type)
            return rec_names[i].name;
    return "?";
}

static uint16_t rd16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }
static uint32_t rd32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static uint64_t rd64(const uint8_t *p) { return rd32(p) | (uint64_t)rd32(p + 4) << 32; }

/* Captures store a budget by its index in CG_BUDGET_TABLE (config key
 * CG_CAPCFG_BUDGET + N): the indices are part of the file format. */
_Static_assert(CG_BUDGET_NV_WAIT_RUNS == 0 && CG_BUDGET_RADEON_RUN_DWORDS == 4 &&
                   CG_BUDGET_VC4_RENDER_THREADS == 7 && CG_BUDGET_RADEON_SQ_INSNS == 8,
               "budgets keep their numbers: a new one goes last");

#define ACTION_FIXED 60 /* kind n a b c d e s1 s2 len1 len2 */
#define DATA_FIXED 16   /* addr space flags */

/* ---- writer -------------------------------------------------------------- */

struct cg_capfile_writer {
    uint8_t *buf;
    size_t len, cap;
    size_t actions;
    bool oom;
    cg_capfile_memhash mh; /* the memory records' ranges, and the end-of-run hash */
    size_t mh_cap;
};

static void put(cg_capfile_writer *w, const void *p, size_t n)
{
    if (w->oom || n == 0)
        return;
    if (n > w->cap - w->len) {
        size_t cap = w->cap ? w->cap : 4096;
        while (n > cap - w->len) {
            if (cap > SIZE_MAX / 2) {
                w->oom = true;
                return;
            }
            cap *= 2;
        }
        uint8_t *nb = realloc(w->buf, cap);
        if (!nb) {
            w->oom = true;
            return;
        }
        w->buf = nb;
        w->cap = cap;
    }
    memcpy(w->buf + w->len, p, n);
    w->len += n;
}

static void put16(cg_capfile_writer *w, uint16_t v)
{
    uint8_t b[2] = {(uint8_t)v, (uint8_t)(v >> 8)};
    put(w, b, 2);
}
static void put32(cg_capfile_writer *w, uint32_t v)
{
    uint8_t b[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
    put(w, b, 4);
}
static void put64(cg_capfile_writer *w, uint64_t v)
{
    put32(w, (uint32_t)v);
    put32(w, (uint32_t)(v >> 32));
}

/* A record header; the length is patched by rec_end. */
static size_t rec_begin(cg_capfile_writer *w, uint32_t type)
{
    put32(w, type);
    put32(w, 0);
    return w->len;
}

static void rec_end(cg_capfile_writer *w, size_t start)
{
    if (w->oom)
        return;
    uint64_t n = w->len - start;
    if (n > UINT32_MAX) {
        w->oom = true;
        return;
    }
    uint8_t *p = w->buf + start - 4;
    p[0] = (uint8_t)n, p[1] = (uint8_t)(n >> 8), p[2] = (uint8_t)(n >> 16), p[3] = (uint8_t)(n >> 24);
}

int cg_capfile_writer_create(cg_family fam, cg_capfile_writer **out)
{
    if (!out || fam == CG_FAMILY_NONE)
        return CG_ERR_INVAL;
    cg_capfile_writer *w = calloc(1, sizeof *w);
    if (!w)
        return CG_ERR_NOMEM;
    put(w, CG_CAPFILE_MAGIC, 10); /* the 9 letters and their NUL */
    put16(w, CG_CAPFILE_MAJOR);
    put16(w, CG_CAPFILE_MINOR);
    put16(w, (uint16_t)fam);
    put32(w, CG_CAPFILE_HEADER);
    put32(w, 0); /* flags */
    if (w->oom) {
        cg_capfile_writer_destroy(w);
        return CG_ERR_NOMEM;
    }
    *out = w;
    return 0;
}

void cg_capfile_writer_destroy(cg_capfile_writer *w)
{
    if (!w)
        return;
    free(w->buf);
    free(w->mh.ranges);
    free(w);
}

void cg_capfile_write_config(cg_capfile_writer *w, uint32_t key, uint64_t value)
{
    if (!w)
        return;
    size_t s = rec_begin(w, CG_CAPREC_CONFIG);
    put32(w, key);
    put64(w, value);
    rec_end(w, s);
}

void cg_capfile_write_name(cg_capfile_writer *w, const char *name)
{
    if (!w || !name)
        return;
    size_t s = rec_begin(w, CG_CAPREC_NAME);
    put(w, name, strlen(name));
    rec_end(w, s);
}

void cg_capfile_write_memory(cg_capfile_writer *w, uint64_t addr, uint32_t space, const char *name,
                             const uint8_t *data, size_t size)
{
    if (!w)
        return;
    size_t nl = name ? strlen(name) : 0;
    if (nl > 0xFFFF) {
        w->oom = true;
        return;
    }
    if (w->mh.n == w->mh_cap) {
        size_t cap = w->mh_cap ? 2 * w->mh_cap : 16;
        uint64_t *r = realloc(w->mh.ranges, cap * 2 * sizeof *r);
        if (!r) {
            w->oom = true;
            return;
        }
        w->mh.ranges = r;
        w->mh_cap = cap;
    }
    w->mh.ranges[2 * w->mh.n] = addr;
    w->mh.ranges[2 * w->mh.n + 1] = size;
    w->mh.n++;
    size_t s = rec_begin(w, CG_CAPREC_MEMORY);
    put64(w, addr);
    put32(w, space);
    put32(w, 0);
    put16(w, (uint16_t)nl);
    put(w, name, nl);
    put(w, data, size);
    rec_end(w, s);
}

void cg_capfile_write_data(cg_capfile_writer *w, uint64_t addr, uint32_t space,
                           const uint8_t *data, size_t size)
{
    if (!w)
        return;
    if (size > UINT32_MAX - DATA_FIXED) {
        w->oom = true;
        return;
    }
    size_t s = rec_begin(w, CG_CAPREC_DATA);
    put64(w, addr);
    put32(w, space);
    put32(w, 0); /* flags */
    put(w, data, size);
    rec_end(w, s);
    w->actions++;
}

void cg_capfile_write_action(cg_capfile_writer *w, const cg_capfile_action *a)
{
    if (!w || !a)
        return;
    if (a->type == CG_CAPREC_DATA) {
        cg_capfile_write_data(w, (uint64_t)a->a, 0, a->data, a->data ? a->data_len : 0);
        return;
    }
    if (a->type < CG_CAPREC_MAPPING || a->type > CG_CAPREC_CHECK || a->str1_len > 0xFFFF ||
        a->str2_len > 0xFFFF) {
        w->oom = true;
        return;
    }
    size_t s = rec_begin(w, a->type);
    put32(w, a->kind);
    put32(w, (uint32_t)a->n);
    put64(w, (uint64_t)a->a);
    put64(w, (uint64_t)a->b);
    put64(w, (uint64_t)a->c);
    put64(w, (uint64_t)a->d);
    put64(w, (uint64_t)a->e);
    put32(w, (uint32_t)a->s1);
    put32(w, (uint32_t)a->s2);
    put16(w, (uint16_t)a->str1_len);
    put16(w, (uint16_t)a->str2_len);
    put(w, a->str1, a->str1_len);
    put(w, a->str2, a->str2_len);
    rec_end(w, s);
    w->actions++;
}

void cg_capfile_write_end(cg_capfile_writer *w, const cg_capfile_end *e)
{
    if (!w || !e)
        return;
    size_t s = rec_begin(w, CG_CAPREC_END);
    put32(w, (uint32_t)e->result);
    put32(w, e->faults);
    put64(w, e->fault_hash);
    put64(w, w->actions);
    put64(w, w->mh.done ? w->mh.hash : e->mem_hash);
    rec_end(w, s);
}

size_t cg_capfile_writer_actions(const cg_capfile_writer *w) { return w ? w->actions : 0; }

int cg_capfile_writer_bytes(const cg_capfile_writer *w, const uint8_t **data, size_t *size)
{
    if (!w || !data || !size)
        return CG_ERR_INVAL;
    if (w->oom)
        return CG_ERR_NOMEM;
    *data = w->buf;
    *size = w->len;
    return 0;
}

int cg_capfile_writer_save(const cg_capfile_writer *w, const char *path)
{
    const uint8_t *d;
    size_t n;
    int rc = cg_capfile_writer_bytes(w, &d, &n);
    if (rc)
        return rc;
    if (!path)
        return CG_ERR_INVAL;
    FILE *f = fopen(path, "wb");
    if (!f)
        return CG_ERR_IO;
    bool ok = fwrite(d, 1, n, f) == n;
    ok &= fclose(f) == 0;
    return ok ? 0 : CG_ERR_IO;
}

/* ---- reader -------------------------------------------------------------- */

static int fail(cg_capture_error *err, size_t off, int rc, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
static int fail(cg_capture_error *err, size_t off, int rc, const char *fmt, ...)
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

bool cg_capfile_detect(const uint8_t *data, size_t size)
{
    return data && size >= 10 && memcmp(data, CG_CAPFILE_MAGIC, 10) == 0;
}

cg_family cg_capfile_peek_family(const uint8_t *data, size_t size)
{
    if (!cg_capfile_detect(data, size) || size < 16)
        return CG_FAMILY_NONE;
    uint16_t f = rd16(data + 14);
    return f != CG_FAMILY_NONE && cg_family_get((cg_family)f) ? (cg_family)f : CG_FAMILY_NONE;
}


/* A memory record at offset p (payload q, len bytes). 0 or a cg_err. */
static int parse_memory(cg_capfile *c, size_t p, const uint8_t *q, uint32_t len,
                        cg_capture_error *err)
{
    int rc = 0;
    if (len < 18) {
        rc = fail(err, p + 4, CG_ERR_SYNTAX, "memory record of %u bytes, less than 18", len);
        return rc;
    }
    cg_capfile_mem *m = &c->mem[c->nmem++];
    m->addr = rd64(q);
    m->space = rd32(q + 8);
    m->flags = rd32(q + 12);
    m->name_len = rd16(q + 16);
    if (m->name_len > len - 18) {
        rc = fail(err, p + 24, CG_ERR_RANGE, "a name of %zu bytes in a record of %u",
                  m->name_len, len);
        return rc;
    }
    m->name = (const char *)q + 18;
    m->data = q + 18 + m->name_len;
    m->size = len - 18 - m->name_len;
    m->offset = p;
    if (m->size && m->addr + (m->size - 1) < m->addr)
        rc = fail(err, p + 8, CG_ERR_RANGE, "memory at 0x%llx of %zu bytes wraps the "
                  "64-bit address space", (unsigned long long)m->addr, m->size);
    for (size_t i = 0; rc == 0 && i < m->name_len; i++)
        if (q[18 + i] < 0x21 || q[18 + i] > 0x7e)
            rc = fail(err, p + 26 + i, CG_ERR_SYNTAX, "byte 0x%02x in a section name",
                      q[18 + i]);
    return rc;
}

/* An action record (MAPPING .. CHECK) at offset p. 0 or a cg_err. */
static int parse_action(cg_capfile *c, uint32_t t, size_t p, const uint8_t *q, uint32_t len,
                        cg_capture_error *err)
{
    int rc = 0;
    if (len < ACTION_FIXED) {
        rc = fail(err, p + 4, CG_ERR_SYNTAX, "%s record of %u bytes, less than %d",
                  cg_capfile_record_name(t), len, ACTION_FIXED);
        return rc;
    }
    cg_capfile_action *a = &c->act[c->nact++];
    a->type = t;
    a->kind = rd32(q);
    a->n = (int32_t)rd32(q + 4);
    a->a = (int64_t)rd64(q + 8);
    a->b = (int64_t)rd64(q + 16);
    a->c = (int64_t)rd64(q + 24);
    a->d = (int64_t)rd64(q + 32);
    a->e = (int64_t)rd64(q + 40);
    a->s1 = (int32_t)rd32(q + 48);
    a->s2 = (int32_t)rd32(q + 52);
    a->str1_len = rd16(q + 56);
    a->str2_len = rd16(q + 58);
    a->offset = p;
    if ((uint64_t)a->str1_len + a->str2_len != len - ACTION_FIXED) {
        rc = fail(err, p + 8 + 56, CG_ERR_RANGE, "strings of %zu + %zu bytes in a record "
                  "with %u bytes for them", a->str1_len, a->str2_len, len - ACTION_FIXED);
        return rc;
    }
    a->str1 = (const char *)q + ACTION_FIXED;
    a->str2 = a->str1 + a->str1_len;
    for (size_t i = 0; rc == 0 && i < a->str1_len + a->str2_len; i++)
        if (q[ACTION_FIXED + i] == 0)
            rc = fail(err, p + 8 + ACTION_FIXED + i, CG_ERR_SYNTAX, "NUL byte in a string");
    if (t == CG_CAPREC_SUBMIT)
        c->submissions++;
    return rc;
}

/* A data record (1.1) at offset p. 0 or a cg_err. */
static int parse_data(cg_capfile *c, size_t p, const uint8_t *q, uint32_t len,
                      cg_capture_error *err)
{
    int rc = 0;
    if (len < DATA_FIXED) {
        rc = fail(err, p + 4, CG_ERR_SYNTAX, "data record of %u bytes, less than %d", len,
                  DATA_FIXED);
        return rc;
    }
    cg_capfile_action *a = &c->act[c->nact++];
    a->type = CG_CAPREC_DATA;
    a->a = (int64_t)rd64(q);
    a->data = q + DATA_FIXED;
    a->data_len = len - DATA_FIXED;
    a->offset = p;
    if (rd32(q + 8) != 0)
        rc = fail(err, p + 16, CG_ERR_UNSUPPORTED, "data for address space %u: only "
                  "space 0 is defined", rd32(q + 8));
    else if (a->data_len && (uint64_t)a->a + (a->data_len - 1) < (uint64_t)a->a)
        rc = fail(err, p + 8, CG_ERR_RANGE, "data at 0x%llx of %zu bytes wraps the "
                  "64-bit address space", (unsigned long long)a->a, a->data_len);
    return rc;
}

/* The name record at offset p (at most one; no control bytes). */
static int parse_name(cg_capfile *c, size_t p, const uint8_t *q, uint32_t len,
                      cg_capture_error *err)
{
    if (c->name)
        return fail(err, p, CG_ERR_SYNTAX, "a second name record");
    c->name = (const char *)q;
    c->name_len = len;
    for (size_t i = 0; i < len; i++)
        if (q[i] < 0x20 || q[i] == 0x7f)
            return fail(err, p + 8 + i, CG_ERR_SYNTAX, "control byte 0x%02x in the name", q[i]);
    return 0;
}

/* The end record at offset p: its action count must be the file's. */
static int parse_end(cg_capfile *c, size_t p, const uint8_t *q, uint32_t len,
                     cg_capture_error *err)
{
    if (len < 24)
        return fail(err, p + 4, CG_ERR_SYNTAX, "end record of %u bytes, less than 24", len);
    c->has_end = true;
    c->end.result = (int32_t)rd32(q);
    c->end.faults = rd32(q + 4);
    c->end.fault_hash = rd64(q + 8);
    c->end.actions = rd64(q + 16);
    c->end.mem_hash = len >= 32 ? rd64(q + 24) : 0;
    if (c->end.actions != c->nact)
        return fail(err, p + 24, CG_ERR_SYNTAX, "the end record counts %llu actions, the "
                    "file has %zu", (unsigned long long)c->end.actions, c->nact);
    return 0;
}

/* The first pass of cg_capfile_parse: every record header from hdr on
 * checked against the file's size, the memory and action records counted
 * (one index entry each). 0 or a cg_err. */
static int count_records(const uint8_t *data, size_t size, size_t hdr, size_t *nmem,
                         size_t *nact, cg_capture_error *err)
{
    for (size_t p = hdr; p < size;) {
        if (size - p < 8)
            return fail(err, p, CG_ERR_SYNTAX, "a record header needs 8 bytes, %zu are left", size - p);
        uint32_t len = rd32(data + p + 4);
        if (len > size - p - 8)
            return fail(err, p + 4, CG_ERR_RANGE, "record of %u bytes runs past the end of the file "
                        "(%zu bytes left)", len, size - p - 8);
        uint32_t t = rd32(data + p);
        if (t == CG_CAPREC_MEMORY)
            (*nmem)++;
        else if ((t >= CG_CAPREC_MAPPING && t <= CG_CAPREC_CHECK) || t == CG_CAPREC_DATA)
            (*nact)++;
        p += 8 + (size_t)len;
    }
    return 0;
}

int cg_capfile_parse(const uint8_t *data, size_t size, cg_capfile **out, cg_capture_error *err)
{
    if (!out)
        return CG_ERR_INVAL;
    *out = NULL;
    if (!data || !cg_capfile_detect(data, size))
        return fail(err, 0, CG_ERR_SYNTAX, "no \"CMDGPUCAP\" magic: not a cmdgpu capture");
    if (size < CG_CAPFILE_HEADER)
        return fail(err, size, CG_ERR_SYNTAX, "the header needs %d bytes, the file has %zu",
                    CG_CAPFILE_HEADER, size);
    uint16_t major = rd16(data + 10), minor = rd16(data + 12), fam = rd16(data + 14);
    uint32_t hdr = rd32(data + 16);
    if (major > CG_CAPFILE_MAJOR)
        return fail(err, 10, CG_ERR_UNSUPPORTED, "format version %u.%u is newer than this reader's "
                    "%d.%d: use a newer cmdgpu", major, minor, CG_CAPFILE_MAJOR, CG_CAPFILE_MINOR);
    if (major == 0)
        return fail(err, 10, CG_ERR_SYNTAX, "format version 0.%u does not exist", minor);
    if (fam == CG_FAMILY_NONE || !cg_family_get((cg_family)fam))
        return fail(err, 14, CG_ERR_SYNTAX, "unknown family %u", fam);
    if (hdr < CG_CAPFILE_HEADER || hdr > size)
        return fail(err, 16, hdr > size ? CG_ERR_RANGE : CG_ERR_SYNTAX,
                    "header size %u is not %d..%zu (the file size)", hdr, CG_CAPFILE_HEADER, size);
    /* First pass: walk and check every record header, count the index. */
    size_t nmem = 0, nact = 0;
    int rc0 = count_records(data, size, hdr, &nmem, &nact, err);
    if (rc0)
        return rc0;
    cg_capfile *c = calloc(1, sizeof *c);
    if (!c)
        return CG_ERR_NOMEM;
    c->major = major;
    c->minor = minor;
    c->family = (cg_family)fam;
    if ((nmem && !(c->mem = calloc(nmem, sizeof *c->mem))) ||
        (nact && !(c->act = calloc(nact, sizeof *c->act)))) {
        cg_capfile_free(c);
        return CG_ERR_NOMEM;
    }
    int rc = 0;
    const uint8_t *cfg0 = NULL;
    for (size_t p = hdr; p < size && rc == 0;) {
        uint32_t t = rd32(data + p), len = rd32(data + p + 4);
        const uint8_t *q = data + p + 8;
        if (c->has_end) {
            rc = fail(err, p, CG_ERR_SYNTAX, "a %s record after the end record", cg_capfile_record_name(t));
            break;
        }
        switch (t) {
        case CG_CAPREC_CONFIG:
            if (len != 12) {
                rc = fail(err, p + 4, CG_ERR_SYNTAX, "config record of %u bytes, not 12", len);
                break;
            }
            /* config records are contiguous in files this writer makes;
             * readers look them up one by one */
            if (!cfg0)
                cfg0 = q;
            else if (q != cfg0 + 20 * c->ncfg) {
                rc = fail(err, p, CG_ERR_SYNTAX, "config records must follow each other");
                break;
            }
            c->ncfg++;
            break;
        case CG_CAPREC_NAME:
            rc = parse_name(c, p, q, len, err);
            break;
        case CG_CAPREC_MEMORY:
            rc = parse_memory(c, p, q, len, err);
            break;
        case CG_CAPREC_MAPPING:
        case CG_CAPREC_SUBMIT:
        case CG_CAPREC_REGISTER:
        case CG_CAPREC_CPU:
        case CG_CAPREC_SYNC:
        case CG_CAPREC_CHECK:
            rc = parse_action(c, t, p, q, len, err);
            break;
        case CG_CAPREC_DATA:
            rc = parse_data(c, p, q, len, err);
            break;
        case CG_CAPREC_END:
            rc = parse_end(c, p, q, len, err);
            break;
        default:
            /* unknown types of a known major version are skipped (newer
             * minor versions may add them) */
            break;
        }
        p += 8 + (size_t)len;
    }
    if (rc) {
        cg_capfile_free(c);
        return rc;
    }
    c->config = cfg0;
    *out = c;
    return 0;
}

void cg_capfile_free(cg_capfile *c)
{
    if (!c)
        return;
    free(c->mem);
    free(c->act);
    free(c);
}

int cg_capfile_config(const cg_capfile *c, uint32_t key, uint64_t *value)
{
    for (size_t i = 0; c && c->config && i < c->ncfg; i++) {
        const uint8_t *e = c->config + 20 * i;
        if (rd32(e) == key) {
            if (value)
                *value = rd64(e + 4);
            return 0;
        }
    }
    return CG_ERR_NOENT;
}

const cg_capfile_mem *cg_capfile_mem_at(const cg_capfile *c, uint64_t addr, uint64_t len)
{
    for (size_t i = 0; c && i < c->nmem; i++) {
        const cg_capfile_mem *m = &c->mem[i];
        if (addr >= m->addr && addr - m->addr <= m->size && len <= m->size - (addr - m->addr) &&
            m->size)
            return m;
    }
    return NULL;
}

const cg_capfile_mem *cg_capfile_mem_named(const cg_capfile *c, const char *name)
{
    size_t n = name ? strlen(name) : 0;
    for (size_t i = 0; c && name && i < c->nmem; i++)
        if (c->mem[i].name_len == n && memcmp(c->mem[i].name, name, n) == 0)
            return &c->mem[i];
    return NULL;
}

uint64_t cg_capfile_hash(uint64_t h, const void *p, size_t n)
{
    const uint8_t *b = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 0x100000001b3ull;
    return h;
}

uint64_t cg_capfile_fault_hash(cg_device *dev, size_t from)
{
    uint64_t h = 0xcbf29ce484222325ull;
    char line[512];
    for (size_t i = from; dev && i < cg_fault_count(dev); i++) {
        cg_fault_format(cg_fault_get(dev, i), line, sizeof line);
        for (const char *s = line; *s; s++)
            h = (h ^ (uint8_t)*s) * 0x100000001b3ull;
        h = (h ^ '\n') * 0x100000001b3ull;
    }
    return h;
}

int cg_capfile_device(const cg_capfile *c, cg_device **out)
{
    if (!c || !out)
        return CG_ERR_INVAL;
    int rc = cg_device_create(out);
    if (rc)
        return rc;
    uint64_t v;
    if (cg_capfile_config(c, CG_CAPCFG_COHERENCY, &v) == 0 && v <= CG_COHERENCY_FAULT)
        cg_device_set_coherency(*out, (cg_coherency)v);
    /* a capture's budgets lower the watchdogs, never raise them
     * (docs/capture-format.md, "Captures are data") */
    for (int b = 0; b < CG_BUDGET_COUNT; b++)
        if (cg_capfile_config(c, CG_CAPCFG_BUDGET + (uint32_t)b, &v) == 0 && v &&
            v < cg_budget_default((cg_budget)b))
            cg_device_set_budget(*out, (cg_budget)b, v);
    return 0;
}

int cg_capfile_verify(const cg_capfile *c, const cg_capfile_end *got, char *msg, size_t cap)
{
    if (msg && cap)
        msg[0] = 0;
    if (!c || !got || !c->has_end)
        return 0;
    const cg_capfile_end *e = &c->end;
    bool mem_same = !e->mem_hash || !got->mem_hash || e->mem_hash == got->mem_hash;
    /* Captures of nv scenes written before the families shared one runner
     * (format 1.0 as cmdgpu 0.1 wrote it) say -8 (CG_ERR_FAULT) where the
     * runner now says 1: the same "failed". */
    int32_t want = e->result == CG_ERR_FAULT ? 1 : e->result;
    if (want == got->result && e->faults == got->faults && e->fault_hash == got->fault_hash &&
        mem_same)
        return 0;
    if (msg) {
        int n = snprintf(msg, cap, "the replay's results differ from the capture's: result %d "
                         "(captured %d), %u fault(s) (captured %u), fault hash %016llx (captured "
                         "%016llx)", got->result, e->result, got->faults, e->faults,
                         (unsigned long long)got->fault_hash, (unsigned long long)e->fault_hash);
        if (e->mem_hash && n >= 0 && (size_t)n < cap) /* 0: the capture holds no memory hash */
            snprintf(msg + n, cap - (size_t)n, ", memory hash %016llx (captured %016llx)",
                     (unsigned long long)got->mem_hash, (unsigned long long)e->mem_hash);
    }
    return 1;
}

int cg_capfile_asm(const cg_capfile *c, cg_asm **out)
{
    if (!c || !out)
        return CG_ERR_INVAL;
    int rc = cg_asm_create(NULL, NULL, out);
    char name[256];
    for (size_t i = 0; rc == 0 && i < c->nmem; i++) {
        const cg_capfile_mem *m = &c->mem[i];
        if (m->name_len >= sizeof name || m->space != 0) {
            rc = CG_ERR_SYNTAX;
            break;
        }
        memcpy(name, m->name, m->name_len);
        name[m->name_len] = 0;
        rc = cg_asm_add_section(*out, name, m->addr, m->data, m->size);
        if (rc == CG_ERR_INVAL)
            rc = CG_ERR_SYNTAX;
    }
    if (rc) {
        cg_asm_destroy(*out);
        *out = NULL;
    }
    return rc;
}


/* ---- the end-of-run memory hash ------------------------------------------ */

static void memhash_run(void *user, int (*peek)(void *ctx, uint64_t addr, void *dst, size_t n),
                        void *ctx)
{
    cg_capfile_memhash *h = user;
    uint64_t x = 0xcbf29ce484222325ull;
    uint8_t buf[4096];
    for (size_t i = 0; i < h->n; i++) {
        uint64_t a = h->ranges[2 * i], left = h->ranges[2 * i + 1];
        while (left) {
            size_t n = left < sizeof buf ? (size_t)left : sizeof buf;
            if (peek(ctx, a, buf, n) != 0)
                memset(buf, 0xff, n);
            for (size_t k = 0; k < n; k++)
                x = (x ^ buf[k]) * 0x100000001b3ull;
            a += n;
            left -= n;
        }
    }
    h->hash = x ? x : 1; /* 0 means "none" in the end record */
    h->done = true;
}

void cg__scene_end(cg_device *dev, int (*peek)(void *ctx, uint64_t addr, void *dst, size_t n),
                   void *ctx)
{
    if (dev && dev->scene_end)
        dev->scene_end(dev->scene_end_user, peek, ctx);
}

int cg__vas_peek(void *vas, uint64_t va, void *dst, size_t n)
{
    uint8_t *d = dst;
    while (n) {
        cg_mapping_info mi;
        if (cg_vas_lookup(vas, va, &mi) != 0)
            return CG_ERR_NOENT;
        uint64_t in = mi.size - (va - mi.va);
        size_t k = in < n ? (size_t)in : n;
        if (cg_mem_read(mi.mem, mi.offset + (va - mi.va), d, k) != 0)
            return CG_ERR_RANGE;
        d += k, va += k, n -= k;
    }
    return 0;
}

int cg_capfile_memhash_init(cg_capfile_memhash *h, const cg_capfile *c)
{
    if (!h || !c)
        return CG_ERR_INVAL;
    *h = (cg_capfile_memhash){0};
    if (c->nmem && !(h->ranges = malloc(c->nmem * 2 * sizeof *h->ranges)))
        return CG_ERR_NOMEM;
    for (size_t i = 0; i < c->nmem; i++) {
        h->ranges[2 * i] = c->mem[i].addr;
        h->ranges[2 * i + 1] = c->mem[i].size;
    }
    h->n = c->nmem;
    return 0;
}

void cg_capfile_memhash_fini(cg_capfile_memhash *h)
{
    if (h) {
        free(h->ranges);
        *h = (cg_capfile_memhash){0};
    }
}

void cg_capfile_memhash_attach(cg_device *dev, cg_capfile_memhash *h)
{
    if (!dev)
        return;
    dev->scene_end = h ? memhash_run : NULL;
    dev->scene_end_user = h;
}

void cg_capfile_writer_attach(cg_capfile_writer *w, cg_device *dev)
{
    if (w)
        cg_capfile_memhash_attach(dev, &w->mh);
}
