/* vc4 family: Mesa's VC4_DEBUG=cl text dump parsed back into control-list
 * bytes (docs/captures.md).
 *
 * Format (Mesa src/gallium/drivers/vc4/vc4_cl_dump.c, vc4_dump_cl, with
 * src/broadcom/cle/v3d_decoder.c v3d_print_group):
 *   "0x%08x 0x%08x: 0x%02x %s"   offset, hardware offset, opcode, packet name
 *   "    %s: %s"                  one line per field, in the XML's order
 *   "0x%08x 0x%08x: Unknown packet 0x%02x (%d)!"   and the dump stops
 * Field values: bool "true"/"false" (possibly with ANSI colour), uint "%u",
 * int "%d", both with " (ENUM)" when named, address "0x%08x" (the field
 * shifted up to bit 31), float "%f", s12.4 "%f". GEM_HANDLES (code 254, the
 * kernel's pseudo-packet) does not advance the hardware offset and is
 * dropped. The field layout comes from cl_textdump.def (generated from
 * v3d_packet_v21.xml); record sizes from cmdgpu's own cl.def. Mesa prints
 * "BCL:" before each job's list (vc4_job.c): the first list is rebuilt,
 * and the further ones are counted. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "vc4/vc4_internal.h"
#include "core/capture_text.h"

enum { T_BOOL, T_UINT, T_INT, T_FLOAT, T_ADDRESS, T_SFIX4 };

typedef struct td_field {
    int code;
    const char *name;
    unsigned start, size;
    int type;
} td_field;

static const td_field td_fields[] = {
#define P(code, name)
#define F(code, name, start, size, type) {code, name, start, size, T_##type},
#include "cl_textdump.def"
#undef P
#undef F
};

#define GEM_HANDLES 254 /* VC4_PACKET_GEM_HANDLES (kernel/vc4_packet.h) */

/* Remove ANSI colour escapes (ESC [ ... m) in place. */
static void strip_ansi(char *s)
{
    char *w = s;
    for (char *r = s; *r;) {
        if (r[0] == 0x1b && r[1] == '[') {
            r += 2;
            while (*r && *r != 'm')
                r++;
            if (*r)
                r++;
            continue;
        }
        *w++ = *r++;
    }
    *w = 0;
}

/* Parse one field value into raw bits; false if malformed. */
static bool field_value(const td_field *f, const char *s, uint64_t *bits)
{
    char *end;
    switch (f->type) {
    case T_BOOL:
        if (strncmp(s, "true", 4) == 0 && !s[4])
            *bits = 1;
        else if (strncmp(s, "false", 5) == 0 && !s[5])
            *bits = 0;
        else
            return false;
        return true;
    case T_ADDRESS: {
        uint64_t v;
        if (!cg_capture_hex(&s, &v) || *s || v > UINT32_MAX)
            return false;
        *bits = v >> (32 - f->size);
        return true;
    }
    case T_FLOAT: {
        double d = strtod(s, &end);
        if (end == s || *end)
            return false;
        *bits = vc4_u32f((float)d);
        return true;
    }
    case T_SFIX4: {
        double d = strtod(s, &end);
        if (end == s || *end || !(d > -4096.0 && d < 4096.0))
            return false;
        *bits = (uint64_t)(int64_t)lround(d * 16.0);
        return true;
    }
    default: { /* UINT, INT: decimal, maybe " (NAME)" */
        const char *p = s;
        bool neg = false;
        if (f->type == T_INT && *p == '-')
            neg = true, p++;
        if (*p < '0' || *p > '9')
            return false;
        uint64_t v = 0;
        for (; *p >= '0' && *p <= '9'; p++) {
            if (v > (UINT64_MAX - 9) / 10)
                return false;
            v = v * 10 + (uint64_t)(*p - '0');
        }
        if (*p && !(p[0] == ' ' && p[1] == '(' && p[strlen(p) - 1] == ')'))
            return false;
        *bits = neg ? (uint64_t)(-(int64_t)v) : v;
        return true;
    }
    }
}

int cg_vc4_cl_textdump_parse(const uint8_t *data, size_t size, cg_vc4_cl_textdump **out, cg_capture_error *err)
{
    if (!out || (!data && size))
        return CG_ERR_INVAL;
    *out = NULL;
    cg_vc4_cl_textdump *d = calloc(1, sizeof *d);
    if (!d)
        return CG_ERR_NOMEM;
    d->unknown_at = SIZE_MAX;
    size_t cap = 0, pos = 0;
    int rc = 0;
    int cur = -1;          /* current packet's code, -1 before the first, -2 skipped */
    size_t cur_at = 0;     /* its byte offset in d->bytes */
    unsigned cur_len = 0;
    char line[512];
    size_t start;
    int got;
    while ((got = cg_capture_line(data, size, &pos, line, sizeof line, &start, err)) != 0) {
        if (got < 0) {
            rc = got;
            goto bad;
        }
        strip_ansi(line);
        if (!line[0])
            continue;
        bool label = line[strlen(line) - 1] == ':' && !strchr(line, ' ');
        if (label && cur != -1) {
            /* the next list (Mesa prints "BCL:" before each job's list):
             * only the first is rebuilt; count the others */
            d->more_lists = 1;
            while ((got = cg_capture_line(data, size, &pos, line, sizeof line, &start, err)) > 0) {
                strip_ansi(line);
                if (line[0] && line[strlen(line) - 1] == ':' && !strchr(line, ' '))
                    d->more_lists++;
            }
            if (got < 0) {
                rc = got;
                goto bad;
            }
            break;
        }
        if (d->unknown_at != SIZE_MAX) {
            rc = cg_capture_fail(err, start, CG_ERR_SYNTAX, "text after the \"Unknown packet\" line (the dump stops there)");
            goto bad;
        }
        const char *s = line;
        uint64_t off, hw, op;
        if (cg_capture_hex(&s, &off) && *s == ' ' && (s++, cg_capture_hex(&s, &hw)) && s[0] == ':' && s[1] == ' ') {
            s += 2;
            bool unknown = strncmp(s, "Unknown packet ", 15) == 0;
            if (unknown)
                s += 15;
            if (!cg_capture_hex(&s, &op) || op > 255 || (!unknown && *s != ' ')) {
                rc = cg_capture_fail(err, start, CG_ERR_SYNTAX, "malformed packet line '%.60s'", line);
                goto bad;
            }
            if (hw != d->size) {
                rc = cg_capture_fail(err, start, CG_ERR_SYNTAX,
                          "hardware offset 0x%llx does not follow the previous packet (0x%zx expected)",
                          (unsigned long long)hw, d->size);
                goto bad;
            }
            if (op == GEM_HANDLES) {
                cur = -2; /* the kernel consumes it: not in the hardware list */
                continue;
            }
            unsigned len = unknown ? 1 : cg_vc4_cl_size((uint8_t)op);
            if (!len) {
                rc = cg_capture_fail(err, start, CG_ERR_SYNTAX, "opcode 0x%02x is not a VideoCore IV control-list record",
                          (unsigned)op);
                goto bad;
            }
            if (d->size + len > cap) {
                size_t nc = cap ? 2 * cap : 256;
                uint8_t *nb = realloc(d->bytes, nc);
                if (!nb) {
                    rc = CG_ERR_NOMEM;
                    goto bad;
                }
                d->bytes = nb;
                cap = nc;
            }
            memset(d->bytes + d->size, 0, len);
            d->bytes[d->size] = (uint8_t)op;
            cur = (int)op;
            cur_at = d->size;
            cur_len = len;
            d->size += len;
            d->npackets++;
            if (unknown)
                d->unknown_at = (size_t)hw;
            continue;
        }
        /* "    Name: value" */
        if (line[0] == ' ' && cur != -1) {
            if (cur == -2)
                continue;
            s = line;
            while (*s == ' ')
                s++;
            const char *colon = strstr(s, ": ");
            if (!colon) {
                rc = cg_capture_fail(err, start, CG_ERR_SYNTAX, "malformed field line '%.60s'", line);
                goto bad;
            }
            size_t nl = (size_t)(colon - s);
            const td_field *f = NULL;
            for (size_t i = 0; i < sizeof td_fields / sizeof td_fields[0]; i++)
                if (td_fields[i].code == cur && strlen(td_fields[i].name) == nl &&
                    strncmp(td_fields[i].name, s, nl) == 0)
                    f = &td_fields[i];
            if (!f) {
                rc = cg_capture_fail(err, start, CG_ERR_SYNTAX, "packet 0x%02x has no field '%.*s' (v3d_packet_v21.xml)",
                          (unsigned)cur, (int)(nl > 60 ? 60 : nl), s);
                goto bad;
            }
            uint64_t bits;
            if (!field_value(f, colon + 2, &bits)) {
                rc = cg_capture_fail(err, start, CG_ERR_SYNTAX, "field '%s': cannot read the value '%.40s'", f->name,
                          colon + 2);
                goto bad;
            }
            if (f->start + f->size > 8u * (cur_len - 1)) {
                rc = cg_capture_fail(err, start, CG_ERR_SYNTAX, "field '%s' lies outside the %u-byte record", f->name, cur_len);
                goto bad;
            }
            vc4_bits_set(d->bytes + cur_at + 1, f->start, f->size, bits);
            continue;
        }
        /* a list label ("BCL:") before the first packet */
        if (label)
            continue;
        rc = cg_capture_fail(err, start, CG_ERR_SYNTAX, "not a VC4_DEBUG=cl line: '%.60s'", line);
        goto bad;
    }
    if (!d->npackets) {
        rc = cg_capture_fail(err, 0, CG_ERR_SYNTAX, "no packet lines: not a VC4_DEBUG=cl dump");
        goto bad;
    }
    *out = d;
    return 0;
bad:
    cg_vc4_cl_textdump_free(d);
    return rc;
}

void cg_vc4_cl_textdump_free(cg_vc4_cl_textdump *d)
{
    if (!d)
        return;
    free(d->bytes);
    free(d);
}
