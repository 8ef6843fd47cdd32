/* radeon family: the Linux radeon debugfs ring dump (radeon_ring_gfx, _cp1,
 * _cp2, _dma1, _dma2, _uvd, _vce1, _vce2): parse, disassemble resynchronised
 * at rptr, and replay the live region (docs/captures.md).
 *
 * Format: drivers/gpu/drm/radeon/radeon_ring.c, radeon_debugfs_ring_info
 * (torvalds/linux; later radeon_debugfs_ring_info_show):
 *   current   "wptr: 0x%08x [%5d]", "rptr: 0x%08x [%5d]",
 *             optional "rptr next(0x%04x): 0x%08x [%5d]" (rptr_save_reg),
 *             "driver's copy of the wptr: 0x%08x [%5d]",
 *             "last semaphore signal addr : 0x%016llx",
 *             "last semaphore wait addr   : 0x%016llx",
 *             "%u free dwords in ring", "%u dwords in ring", then
 *             count + 33 lines "r[%5d]=0x%08x" from rptr - 32, with " *" on
 *             the rptr line and " #" on the rptr-next line;
 *   older     "wptr(0x%04x): 0x%08x" (then with " [%5d]"), "rptr(0x%04x): ...",
 *             "rptr next(0x%04x): 0x%08x", "driver's copy of the rptr: ...",
 *             and "r[%04d]=0x%08x" lines with no marks (the oldest dumps
 *             count + 1 lines from the driver's rptr).
 * ring_size / 4 = free + count (count = ring_size / 4 - ring_free_dw). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "radeon/radeon_internal.h"
#include "core/capture_text.h"

/* ---- a tiny matcher over one NUL-terminated line ---- */

static bool lit(const char **s, const char *w)
{
    size_t n = strlen(w);
    if (strncmp(*s, w, n) != 0)
        return false;
    *s += n;
    return true;
}

static void blanks(const char **s)
{
    while (**s == ' ' || **s == '\t')
        (*s)++;
}

static bool decnum(const char **s, uint64_t *v)
{
    blanks(s);
    const char *p = *s;
    uint64_t x = 0;
    int n = 0;
    for (; *p >= '0' && *p <= '9'; p++, n++) {
        if (x > (UINT64_MAX - 9) / 10)
            return false;
        x = x * 10 + (uint64_t)(*p - '0');
    }
    if (n == 0)
        return false;
    *v = x;
    *s = p;
    return true;
}

static bool u32_of(uint64_t v, uint32_t *out)
{
    if (v > UINT32_MAX)
        return false;
    *out = (uint32_t)v;
    return true;
}

/* "0x%08x" optionally followed by " [%5d]" that must agree; then end. */
static bool value_line(const char *s, uint32_t *v)
{
    uint64_t x, dec;
    if (!cg_capture_hex(&s, &x) || !u32_of(x, v))
        return false;
    blanks(&s);
    if (*s == '[') {
        s++;
        if (!decnum(&s, &dec) || (uint32_t)dec != *v)
            return false;
        blanks(&s);
        if (*s++ != ']')
            return false;
        blanks(&s);
    }
    return *s == 0;
}

/* "(0x%04x): " then value_line */
static bool reg_value_line(const char *s, uint32_t *reg, uint32_t *v)
{
    uint64_t r;
    if (!lit(&s, "(") || !cg_capture_hex(&s, &r) || !u32_of(r, reg) || !lit(&s, "):"))
        return false;
    blanks(&s);
    return value_line(s, v);
}

/* The rest of a "wptr"/"rptr" line, after its name: the older form
 * "(0x%04x): 0x%08x" names the register, the current one is ": 0x%08x". */
static int ptr_line(cg_radeon_ringdump *d, const char *s, uint32_t *reg, uint32_t *v)
{
    if (*s == '(') {
        d->old_form = true;
        return reg_value_line(s, reg, v) ? 0 : -1;
    }
    if (!lit(&s, ":"))
        return -1;
    blanks(&s);
    return value_line(s, v) ? 0 : -1;
}

static int header_line(cg_radeon_ringdump *d, const char *s)
{
    uint64_t x;
    if (lit(&s, "wptr")) {
        d->has_wptr = true;
        return ptr_line(d, s, &d->wptr_reg, &d->wptr);
    }
    if (lit(&s, "rptr next")) {
        d->has_rptr_next = true;
        return reg_value_line(s, &d->rptr_next_reg, &d->rptr_next) ? 0 : -1;
    }
    if (lit(&s, "rptr")) {
        d->has_rptr = true;
        return ptr_line(d, s, &d->rptr_reg, &d->rptr);
    }
    if (lit(&s, "driver's copy of the wptr:")) {
        d->has_driver_wptr = true;
        blanks(&s);
        return value_line(s, &d->driver_wptr) ? 0 : -1;
    }
    if (lit(&s, "driver's copy of the rptr:")) {
        d->has_driver_rptr = true;
        blanks(&s);
        return value_line(s, &d->driver_rptr) ? 0 : -1;
    }
    if (lit(&s, "last semaphore ")) {
        uint64_t *dst = lit(&s, "signal addr") ? &d->sem_signal_addr
                        : lit(&s, "wait addr") ? &d->sem_wait_addr
                                               : NULL;
        blanks(&s);
        if (!dst || !lit(&s, ":"))
            return -1;
        blanks(&s);
        d->has_sem = true;
        if (!cg_capture_hex(&s, dst))
            return -1;
        blanks(&s);
        return *s ? -1 : 0;
    }
    const char *p = s;
    if (decnum(&p, &x)) {
        blanks(&p);
        uint32_t *dst = NULL;
        if (lit(&p, "free dwords in ring"))
            dst = &d->free_dw, d->has_free = true;
        else if (lit(&p, "dwords in ring"))
            dst = &d->count_dw, d->has_count = true;
        blanks(&p);
        if (!dst || *p || !u32_of(x, dst))
            return -1;
        return 0;
    }
    return -1;
}

static int entry_line(const char *s, cg_radeon_ringdump_entry *e)
{
    uint64_t idx, v;
    if (!lit(&s, "r[") || !decnum(&s, &idx) || !lit(&s, "]=") || !cg_capture_hex(&s, &v) ||
        idx > UINT32_MAX || v > UINT32_MAX)
        return -1;
    e->index = (uint32_t)idx;
    e->value = (uint32_t)v;
    e->marks = 0;
    for (;;) {
        blanks(&s);
        if (*s == '*')
            e->marks |= CG_RINGDUMP_MARK_RPTR;
        else if (*s == '#')
            e->marks |= CG_RINGDUMP_MARK_RPTR_NEXT;
        else
            break;
        s++;
    }
    return *s ? -1 : 0;
}

static bool pow2(uint64_t v) { return v && !(v & (v - 1)); }

int cg_radeon_ringdump_parse(const uint8_t *data, size_t size, cg_radeon_ringdump **out,
                             cg_capture_error *err)
{
    if (!out || (!data && size))
        return CG_ERR_INVAL;
    *out = NULL;
    cg_radeon_ringdump *d = calloc(1, sizeof *d);
    if (!d)
        return CG_ERR_NOMEM;
    size_t cap = 0, pos = 0, count_off = 0, wptr_off = 0, rptr_off = 0;
    uint32_t max_index = 0;
    int rc = 0;
    char line[256];
    size_t start;
    int got;
    while ((got = cg_capture_line(data, size, &pos, line, sizeof line, &start, err)) != 0) {
        if (got < 0) {
            rc = got;
            goto bad;
        }
        const char *s = line;
        blanks(&s);
        if (!*s)
            continue;
        if (s[0] == 'r' && s[1] == '[') {
            cg_radeon_ringdump_entry e;
            e.file_offset = start;
            if (entry_line(s, &e) != 0) {
                rc = cg_capture_fail(err, start, CG_ERR_SYNTAX, "malformed ring line '%.60s' (want r[N]=0xVALUE)", s);
                goto bad;
            }
            if (d->nentries) {
                const cg_radeon_ringdump_entry *p = &d->entries[d->nentries - 1];
                if (e.index != p->index + 1 && e.index != 0) {
                    rc = cg_capture_fail(err, start, CG_ERR_SYNTAX, "r[%u] does not follow r[%u] (a dump is one contiguous run)",
                              e.index, p->index);
                    goto bad;
                }
            }
            if (d->nentries == cap) {
                size_t nc = cap ? 2 * cap : 64;
                cg_radeon_ringdump_entry *ne = realloc(d->entries, nc * sizeof *ne);
                if (!ne) {
                    rc = CG_ERR_NOMEM;
                    goto bad;
                }
                d->entries = ne;
                cap = nc;
            }
            d->entries[d->nentries++] = e;
            if (e.index > max_index)
                max_index = e.index;
            continue;
        }
        if (d->nentries) {
            rc = cg_capture_fail(err, start, CG_ERR_SYNTAX, "header line '%.60s' after the ring lines", s);
            goto bad;
        }
        if (header_line(d, s) != 0) {
            rc = cg_capture_fail(err, start, CG_ERR_SYNTAX, "not a radeon ring dump line: '%.60s'", s);
            goto bad;
        }
        if (d->has_count && !count_off)
            count_off = start;
        if (d->has_wptr && !wptr_off && s[0] == 'w')
            wptr_off = start;
        if (d->has_rptr && !rptr_off && strncmp(s, "rptr", 4) == 0 && strncmp(s, "rptr next", 9) != 0)
            rptr_off = start;
    }
    if (!d->has_wptr || !d->has_rptr) {
        rc = cg_capture_fail(err, 0, CG_ERR_SYNTAX, "no %s line: not a radeon ring dump", d->has_wptr ? "rptr" : "wptr");
        goto bad;
    }
    /* the ring size */
    if (d->has_free && d->has_count) {
        uint64_t total = (uint64_t)d->free_dw + d->count_dw;
        if (!pow2(total) || total < 2) {
            rc = cg_capture_fail(err, count_off, CG_ERR_SYNTAX,
                      "free + used dwords = %" PRIu64 " is not a ring size (a power of two)", total);
            goto bad;
        }
        if (total > RINGDUMP_MAX_DW) {
            rc = cg_capture_fail(err, count_off, CG_ERR_RANGE,
                      "a ring of %" PRIu64 " dwords is larger than the model's %u", total, RINGDUMP_MAX_DW);
            goto bad;
        }
        d->ring_dw = (uint32_t)total;
    } else {
        uint64_t r = 64;
        uint32_t hi = max_index;
        if (d->wptr > hi)
            hi = d->wptr;
        if (d->rptr > hi)
            hi = d->rptr;
        while (r <= hi)
            r <<= 1;
        if (r > RINGDUMP_MAX_DW) {
            rc = cg_capture_fail(err, 0, CG_ERR_RANGE, "index %u implies a ring larger than the model's %u dwords",
                      hi, RINGDUMP_MAX_DW);
            goto bad;
        }
        d->ring_dw = (uint32_t)r;
    }
    if (d->wptr >= d->ring_dw || d->rptr >= d->ring_dw) {
        rc = cg_capture_fail(err, d->wptr >= d->ring_dw ? wptr_off : rptr_off, CG_ERR_RANGE, "%s %u is outside the ring of %u dwords",
                  d->wptr >= d->ring_dw ? "wptr" : "rptr",
                  d->wptr >= d->ring_dw ? d->wptr : d->rptr, d->ring_dw);
        goto bad;
    }
    for (size_t i = 0; i < d->nentries; i++) {
        const cg_radeon_ringdump_entry *e = &d->entries[i];
        if (e->index >= d->ring_dw) {
            rc = cg_capture_fail(err, e->file_offset, CG_ERR_RANGE, "ring index %u is outside the ring of %u dwords",
                                 e->index, d->ring_dw);
            goto bad;
        }
        if (i && e->index != ((e - 1)->index + 1) % d->ring_dw) {
            rc = cg_capture_fail(err, e->file_offset, CG_ERR_SYNTAX,
                                 "r[%u] does not follow r[%u] in a ring of %u dwords", e->index, (e - 1)->index,
                                 d->ring_dw);
            goto bad;
        }
    }
    /* resynchronise at rptr: the '*' mark, else the first line at rptr */
    d->rptr_entry = d->wptr_entry = d->nentries;
    for (size_t i = 0; i < d->nentries && d->rptr_entry == d->nentries; i++)
        if (d->entries[i].marks & CG_RINGDUMP_MARK_RPTR)
            d->rptr_entry = i;
    for (size_t i = 0; i < d->nentries && d->rptr_entry == d->nentries; i++)
        if (d->entries[i].index == d->rptr)
            d->rptr_entry = i;
    for (size_t i = d->rptr_entry; i < d->nentries; i++)
        if (d->entries[i].index == d->wptr) {
            d->wptr_entry = i;
            break;
        }
    *out = d;
    return 0;
bad:
    cg_radeon_ringdump_free(d);
    return rc;
}

void cg_radeon_ringdump_free(cg_radeon_ringdump *d)
{
    if (!d)
        return;
    free(d->entries);
    free(d);
}

/* ---- disassembly ---- */

static const char *nz(const char *s) { return s ? s : ""; }

static void word_lines(const cg_radeon_ringdump *d, const cg_radeon_disasm_opts *o, size_t from,
                       size_t to, const char *why, FILE *out)
{
    for (size_t i = from; i < to; i++) {
        const cg_radeon_ringdump_entry *e = &d->entries[i];
        fprintf(out, "%s.word%s %s0x%08x%s  %s# r[%5u]%s%s%s%s\n", nz(o->c_name), nz(o->c_reset),
                nz(o->c_num), e->value, nz(o->c_reset), nz(o->c_comment), e->index,
                e->marks & CG_RINGDUMP_MARK_RPTR ? " *" : "",
                e->marks & CG_RINGDUMP_MARK_RPTR_NEXT ? " #" : "", why ? why : "", nz(o->c_reset));
    }
}

/* Disassemble words[0, n) at ring byte offset base into out, without the
 * listing's two header lines. */
static int disasm_packet(const cg_radeon_disasm_opts *o, const uint8_t *bytes, size_t n, uint64_t base,
                         FILE *out)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return CG_ERR_NOMEM;
    cg_radeon_disasm_opts po = *o;
    po.base = base;
    po.json = false;
    int bad = cg_radeon_disasm(&po, bytes, n, f);
    fclose(f);
    const char *p = buf ? buf : "";
    for (int skip = 0; skip < 2 && *p; skip++) {
        const char *nl = strchr(p, '\n');
        p = nl ? nl + 1 : p + strlen(p);
    }
    fputs(p, out);
    free(buf);
    return bad;
}

static void put_le32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v, p[1] = (uint8_t)(v >> 8), p[2] = (uint8_t)(v >> 16), p[3] = (uint8_t)(v >> 24);
}

size_t rd_ringdump_live_end(const cg_radeon_ringdump *d)
{
    if (d->rptr_entry >= d->nentries)
        return d->nentries;
    return d->wptr_entry < d->nentries ? d->wptr_entry : d->nentries;
}

int cg_radeon_ringdump_disasm(const cg_radeon_ringdump *d, const cg_radeon_disasm_opts *o, FILE *out)
{
    if (!d || !o || !out || (unsigned)o->gen >= CG_RADEON_GEN_COUNT)
        return CG_ERR_INVAL;
    size_t r0 = d->rptr_entry, r1 = rd_ringdump_live_end(d);
    uint8_t *bytes = malloc(4 * (r1 - r0) + 4);
    if (!bytes)
        return CG_ERR_NOMEM;
    for (size_t i = r0; i < r1; i++)
        put_le32(bytes + 4 * (i - r0), d->entries[i].value);
    int bad = 0;
    if (o->json) {
        fprintf(out, "{\"format\":\"radeon-ring-dump\",\"form\":\"%s\",\"ring_dw\":%u,\"rptr\":%u,"
                "\"wptr\":%u", d->old_form ? "old" : "current", d->ring_dw, d->rptr, d->wptr);
        if (d->has_rptr_next)
            fprintf(out, ",\"rptr_next\":%u,\"rptr_next_reg\":\"0x%04x\"", d->rptr_next, d->rptr_next_reg);
        if (d->has_driver_wptr)
            fprintf(out, ",\"driver_wptr\":%u", d->driver_wptr);
        if (d->has_driver_rptr)
            fprintf(out, ",\"driver_rptr\":%u", d->driver_rptr);
        if (d->has_sem)
            fprintf(out, ",\"semaphore_signal_addr\":\"0x%016" PRIx64 "\",\"semaphore_wait_addr\":\"0x%016" PRIx64 "\"",
                    d->sem_signal_addr, d->sem_wait_addr);
        fprintf(out, ",\"rptr_in_dump\":%s,\"wptr_in_dump\":%s,\"history\":[",
                r0 < d->nentries ? "true" : "false", d->wptr_entry < d->nentries ? "true" : "false");
        for (size_t i = 0; i < (r0 < d->nentries ? r0 : d->nentries); i++)
            fprintf(out, "%s{\"index\":%u,\"value\":\"0x%08x\"}", i ? "," : "", d->entries[i].index,
                    d->entries[i].value);
        fprintf(out, "],\"live\":");
        cg_radeon_disasm_opts jo = *o;
        jo.base = 4ull * (r0 < d->nentries ? d->entries[r0].index : 0);
        bad = cg_radeon_disasm(&jo, bytes, 4 * (r1 - r0), out);
        fprintf(out, ",\"after_wptr\":[");
        for (size_t i = r1; i < d->nentries && r0 < d->nentries; i++)
            fprintf(out, "%s{\"index\":%u,\"value\":\"0x%08x\"}", i > r1 ? "," : "", d->entries[i].index,
                    d->entries[i].value);
        fprintf(out, "]}\n");
        free(bytes);
        return bad;
    }
    const char *cc = nz(o->c_comment), *cr = nz(o->c_reset), *ce = nz(o->c_err);
    fprintf(out, "%s# radeon ring dump (%s form): ring %u dwords, rptr %u, wptr %u", cc,
            d->old_form ? "old" : "current", d->ring_dw, d->rptr, d->wptr);
    if (d->has_driver_wptr)
        fprintf(out, ", driver's wptr %u", d->driver_wptr);
    if (d->has_driver_rptr)
        fprintf(out, ", driver's rptr %u", d->driver_rptr);
    fprintf(out, "%s\n", cr);
    if (d->has_rptr_next)
        fprintf(out, "%s# rptr next %u (saved in register 0x%04x): marked #%s\n", cc, d->rptr_next,
                d->rptr_next_reg, cr);
    if (d->has_sem)
        fprintf(out, "%s# last semaphore signal addr 0x%016" PRIx64 ", wait addr 0x%016" PRIx64 "%s\n", cc,
                d->sem_signal_addr, d->sem_wait_addr, cr);
    if (d->has_free || d->has_count)
        fprintf(out, "%s# %u free dwords, %u dwords in ring%s\n", cc, d->free_dw, d->count_dw, cr);
    if (d->nentries)
        fprintf(out, "%s# %zu dwords dumped, r[%u] to r[%u]; comments give ring byte offsets (index * 4)%s\n",
                cc, d->nentries, d->entries[0].index, d->entries[d->nentries - 1].index, cr);
    else
        fprintf(out, "%s# no ring lines (the ring was not ready)%s\n", cc, cr);
    fprintf(out, "%s.gen%s %s\n", nz(o->c_name), cr, cg_radeon_gen_name(o->gen));
    if (r0 >= d->nentries) {
        if (d->nentries)
            fprintf(out, "%s# rptr %u is not in the dump: nothing is decoded (no resynchronisation point)%s\n",
                    ce, d->rptr, cr);
        word_lines(d, o, 0, d->nentries, NULL, out);
        free(bytes);
        return 0;
    }
    if (r0 > 0) {
        fprintf(out, "%s# ---- history r[%u]..r[%u]: before rptr (executed, or overwritten by newer "
                "packets); not decoded ----%s\n", cc, d->entries[0].index, d->entries[r0 - 1].index, cr);
        word_lines(d, o, 0, r0, NULL, out);
    }
    if (r1 > r0)
        fprintf(out, "%s# ---- live r[%u]..r[%u]: rptr to wptr, decoded from rptr ----%s\n", cc,
                d->entries[r0].index, d->entries[r1 - 1].index, cr);
    else
        fprintf(out, "%s# ---- live: empty (rptr == wptr: the CP has read everything committed) ----%s\n",
                cc, cr);
    if (d->wptr_entry >= d->nentries && d->rptr != d->wptr)
        fprintf(out, "%s# wptr %u is not in the dump: the live region ends at the last dumped dword%s\n", ce,
                d->wptr, cr);
    size_t i = r0;
    while (i < r1) {
        const cg_radeon_ringdump_entry *e = &d->entries[i];
        size_t n = rd_packet_dwords(e->value);
        if (i == r0)
            fprintf(out, "%s# r[%5u] *  rptr: the CP fetches this packet next%s\n", cc, e->index, cr);
        for (size_t k = i; k < i + n && k < r1; k++)
            if (d->entries[k].marks & CG_RINGDUMP_MARK_RPTR_NEXT ||
                (d->has_rptr_next && d->entries[k].index == d->rptr_next && !(d->entries[k].marks)))
                fprintf(out, "%s# r[%5u] #  rptr next (saved): %s%s\n", cc, d->entries[k].index,
                        k == i ? "this packet" : "inside this packet", cr);
        if (n > r1 - i) {
            char why[96];
            snprintf(why, sizeof why, "  %struncated: a %zu-dword packet runs past wptr%s", ce, n, cc);
            word_lines(d, o, i, r1, why, out);
            bad++;
            break;
        }
        int b = disasm_packet(o, bytes + 4 * (i - r0), 4 * n, 4ull * e->index, out);
        if (b < 0) {
            free(bytes);
            return b;
        }
        bad += b;
        i += n;
    }
    if (r1 < d->nentries) {
        fprintf(out, "%s# ---- after wptr r[%u]..r[%u]: not committed (old contents or padding); not "
                "decoded ----%s\n", cc, d->entries[r1].index, d->entries[d->nentries - 1].index, cr);
        word_lines(d, o, r1, d->nentries, NULL, out);
    }
    free(bytes);
    return bad;
}
