/* nv: the pushbuffer disassembler. Every header becomes one assembler
 * statement (`hdr`, `immd`, `end_pb_segment`, the sub-device mask ones) and
 * every data word a `.word` line whose comment names the method it lands on
 * and decodes its fields from the class tables (enums by name, floats as
 * floats); unknown methods, unknown bits and words the statements cannot
 * express are marked. The class bound to each subchannel is tracked through
 * SET_OBJECT (envytools PR #203: assuming one class per subchannel number
 * mis-decodes), starting from the NVN convention (deko3d helpers.h):
 * 0=B197 1=B1C0 2=A140 3=902D 4=B0B5. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "nv/nv_internal.h"
#include "core/json.h"

static const uint32_t nvn_default[8] = {CG_NV_CLASS_3D, CG_NV_CLASS_COMPUTE, CG_NV_CLASS_I2M,
                                        CG_NV_CLASS_TWOD, CG_NV_CLASS_COPY, 0, 0, 0};

int cg_nv_parse_subch(const char *text, uint32_t sc[8])
{
    memcpy(sc, nvn_default, sizeof(nvn_default));
    const char *p = text;
    while (p && *p) {
        char *end;
        unsigned long s = strtoul(p, &end, 0);
        if (end == p || *end != '=' || s > 7)
            return CG_ERR_SYNTAX;
        p = end + 1;
        unsigned long c = strtoul(p, &end, 16);
        if (end == p)
            return CG_ERR_SYNTAX;
        if (c && !cg_nv_class_find((uint32_t)c))
            return CG_ERR_NOENT;
        sc[s] = (uint32_t)c;
        p = end;
        if (*p == ',')
            p++;
        else if (*p)
            return CG_ERR_SYNTAX;
    }
    return 0;
}

/* Decode a data word's fields into buf; returns the number of problems
 * (unknown method, unknown enum value, bits outside every field). */
int nv_format_fields(uint32_t cls, uint32_t mthd, uint32_t v, char *buf, size_t cap);
int nv_format_fields(uint32_t cls, uint32_t mthd, uint32_t v, char *buf, size_t cap)
{
    const cg_nv_class *c = cg_nv_class_find(mthd < 0x100 ? CG_NV_CLASS_HOST : cls);
    size_t len = 0;
    int bad = 0;
    buf[0] = 0;
#define PUT(...)                                                               \
    do {                                                                       \
        if (len < cap) {                                                       \
            int k_ = snprintf(buf + len, cap - len, __VA_ARGS__);              \
            if (k_ > 0)                                                        \
                len += (size_t)k_;                                             \
        }                                                                      \
    } while (0)
    uint32_t elem;
    const cg_nv_method *m = c ? cg_nv_method_at(c, mthd, &elem) : NULL;
    if (!m) {
        PUT("unknown method 0x%04x%s", mthd, c ? "" : " (no class bound)");
        return 1;
    }
    if (m->count > 1)
        PUT("%s(%u)", m->name, elem);
    else
        PUT("%s", m->name);
    uint32_t covered = 0;
    for (size_t i = 0; i < m->nfields; i++) {
        const cg_nv_field *f = &m->fields[i];
        unsigned w = f->hi - f->lo + 1;
        uint32_t mask = w >= 32 ? 0xFFFFFFFFu : ((1u << w) - 1);
        uint32_t x = (v >> f->lo) & mask;
        covered |= mask << f->lo;
        switch (f->type) {
        case CG_NV_F_ENUM: {
            const char *name = NULL;
            for (const cg_nv_enum *e = f->enums; e && e->name; e++)
                if (e->value == x) {
                    name = e->name;
                    break;
                }
            if (name)
                PUT(" %s=%s", f->name, name);
            else {
                PUT(" %s=%u(unknown)", f->name, x);
                bad++;
            }
            break;
        }
        case CG_NV_F_FLOAT: {
            float fl;
            memcpy(&fl, &x, 4);
            PUT(" %s=%g", f->name, (double)fl);
            break;
        }
        case CG_NV_F_SINT: {
            int32_t sv = (int32_t)(x << (32 - w)) >> (32 - w);
            PUT(" %s=%d", f->name, sv);
            break;
        }
        case CG_NV_F_BOOL:
            PUT(" %s=%s", f->name, x ? "true" : "false");
            break;
        case CG_NV_F_HEX:
            PUT(" %s=0x%x", f->name, x);
            break;
        default:
            PUT(" %s=%u", f->name, x);
            break;
        }
    }
    if (m->nfields && (v & ~covered)) {
        PUT(" unknown-bits=0x%08x", v & ~covered);
        bad++;
    }
#undef PUT
    return bad;
}

/* JSON "confidence" of an item (docs/nv-tables.md): "known" when a class
 * table names it and its fields cover every set bit with known values,
 * "partial" when it is named but some bits or values are not explained,
 * "unknown" when no table names it. */
static const char *const conf_name[] = {"known", "partial", "unknown"};
enum { CONF_KNOWN, CONF_PARTIAL, CONF_UNKNOWN };

/* The confidence of a data word nv_format_fields found `bad` problems in. */
static int field_conf(uint32_t cls, uint32_t mthd, int bad)
{
    const cg_nv_class *c = cg_nv_class_find(mthd < 0x100 ? CG_NV_CLASS_HOST : cls);
    if (!c || !cg_nv_method_at(c, mthd, NULL))
        return CONF_UNKNOWN;
    return bad ? CONF_PARTIAL : CONF_KNOWN;
}

typedef struct dctx {
    const cg_nv_disasm_opts *o;
    FILE *out;
    uint32_t sc[8];
    const char *r, *nm, *nu, *ad, *er, *cm;
    int problems;
    bool first_json;
} dctx;

static const char *s_or(const char *s) { return s ? s : ""; }

static void method_text(dctx *d, unsigned subch, uint32_t mthd, char *buf, size_t cap)
{
    const cg_nv_class *c = cg_nv_class_find(mthd < 0x100 ? CG_NV_CLASS_HOST : d->sc[subch]);
    uint32_t elem;
    const cg_nv_method *m = cg_nv_method_at(c, mthd, &elem);
    /* a host name the subchannel's class has at another offset (NOP) would
     * assemble to the class's method: print the offset instead (SET_OBJECT,
     * at 0 in both, keeps its name) */
    const cg_nv_method *same =
        m && mthd < 0x100 ? cg_nv_method_named(cg_nv_class_find(d->sc[subch]), m->name) : NULL;
    if (!m || (same && same->offset != m->offset))
        snprintf(buf, cap, "0x%04x", mthd);
    else
        cg_nv_method_name(c, mthd, buf, cap);
}

static void emit(dctx *d, uint64_t off, uint32_t word, const char *stmt, const char *comment,
                 bool err, const char *kind, int subch, uint32_t mthd, int conf)
{
    if (d->o->json) {
        fprintf(d->out, "%s{\"offset\":%" PRIu64 ",\"word\":\"0x%08x\",\"kind\":\"%s\"",
                d->first_json ? "" : ",\n", off, word, kind);
        if (subch >= 0) {
            uint32_t cls = mthd < 0x100 ? CG_NV_CLASS_HOST : d->sc[subch];
            char name[96];
            fprintf(d->out, ",\"subch\":%d,\"class\":\"%04X\",\"method\":\"0x%04x\"", subch,
                    cls, mthd);
            if (cg_nv_method_name(cg_nv_class_find(cls), mthd, name, sizeof(name))) {
                fprintf(d->out, ",\"name\":");
                cg_json_fput(d->out, name);
            }
        }
        fprintf(d->out, ",\"confidence\":\"%s\"", conf_name[conf]);
        fprintf(d->out, ",\"text\":");
        cg_json_fput(d->out, stmt);
        fprintf(d->out, ",\"comment\":");
        cg_json_fput(d->out, comment);
        fprintf(d->out, "%s}", err ? ",\"problem\":true" : "");
        d->first_json = false;
        return;
    }
    int w = (int)strlen(stmt);
    fprintf(d->out, "    %s%s%s%*s %s# %s0x%04" PRIx64 "%s: %s%08x%s  %s%s%s\n", d->nm, stmt, d->r,
            w < 44 ? 44 - w : 0, "", d->cm, d->ad, off, d->cm, d->nu, word, d->cm,
            err ? d->er : "", comment, d->r);
}

int cg_nv_disasm(const uint32_t *words, size_t n, const cg_nv_disasm_opts *o, FILE *out)
{
    if ((!words && n) || !out)
        return CG_ERR_INVAL;
    cg_nv_disasm_opts def = {0};
    if (!o)
        o = &def;
    dctx d = {.o = o, .out = out, .first_json = true};
    bool any = false;
    for (int i = 0; i < 8; i++)
        any |= o->subch_class[i] != 0;
    memcpy(d.sc, any ? o->subch_class : nvn_default, sizeof(d.sc));
    d.r = s_or(o->c_reset), d.nm = s_or(o->c_name), d.nu = s_or(o->c_num);
    d.ad = s_or(o->c_addr), d.er = s_or(o->c_err), d.cm = s_or(o->c_comment);
    if (o->json) {
        fprintf(out, "{\"family\":\"nv\",\"words\":%zu,\"items\":[\n", n);
    } else {
        fprintf(out, "%s# nv pushbuffer: %zu words%s\n", d.cm, n, d.r);
        for (unsigned s = 0; s < 8; s++)
            if (d.sc[s] != nvn_default[s] || any)
                fprintf(out, "    %s.subch %u, 0x%04X%s\n", d.nm, s, d.sc[s], d.r);
    }
    char stmt[160], com[600], fld[1024], mname[96];
    size_t i = 0;
    while (i < n) {
        uint64_t off = o->base + 4 * (uint64_t)i;
        uint32_t w = words[i];
        cg_nv_header h;
        cg_nv_header_decode(w, &h);
        const char *kname = NULL;
        bool canon = true;
        switch (h.kind) {
        case CG_NV_H_INC: kname = h.old_format ? "old_inc" : "inc"; break;
        case CG_NV_H_NONINC: kname = h.old_format ? "old_noninc" : "noninc"; break;
        case CG_NV_H_ONE_INC: kname = "oneinc"; break;
        default: break;
        }
        if (h.old_format && (w & 3))
            canon = false;
        i++;
        if (kname && canon) {
            method_text(&d, h.subch, h.method, mname, sizeof(mname));
            snprintf(stmt, sizeof(stmt), "hdr %s %u, %s, %u", kname, h.subch, mname, h.count);
            const cg_nv_class *c = cg_nv_class_find(h.method < 0x100 ? CG_NV_CLASS_HOST : d.sc[h.subch]);
            snprintf(com, sizeof(com), "%s subch %u %s", kname, h.subch, c ? c->name : "(no class)");
            emit(&d, off, w, stmt, com, false, "header", h.subch, h.method,
                 field_conf(d.sc[h.subch], h.method, 0));
            uint32_t m = h.method;
            for (uint32_t k = 0; k < h.count; k++) {
                if (i >= n) {
                    snprintf(com, sizeof(com), "the run wants %u more words past the end",
                             h.count - k);
                    if (!o->json)
                        fprintf(out, "    %s# %s%s\n", d.er, com, d.r);
                    d.problems++;
                    break;
                }
                uint64_t doff = o->base + 4 * (uint64_t)i;
                uint32_t v = words[i++];
                int bad = nv_format_fields(d.sc[h.subch], m & 0x7FFC, v, fld, sizeof(fld));
                d.problems += bad;
                snprintf(stmt, sizeof(stmt), ".word 0x%08x", v);
                emit(&d, doff, v, stmt, fld, bad > 0, "data", h.subch, m & 0x7FFC,
                     field_conf(d.sc[h.subch], m & 0x7FFC, bad));
                if (m == 0) { /* SET_OBJECT rebinds the subchannel */
                    uint32_t cls = v & 0xFFFF;
                    if (cg_nv_class_find(cls) && cls != CG_NV_CLASS_HOST && cls != d.sc[h.subch]) {
                        d.sc[h.subch] = cls;
                        if (!o->json)
                            fprintf(out, "    %s.subch %u, 0x%04X%s\n", d.nm, h.subch, cls, d.r);
                    }
                }
                if (h.kind == CG_NV_H_INC)
                    m += 4;
                else if (h.kind == CG_NV_H_ONE_INC && k == 0)
                    m += 4;
            }
            continue;
        }
        switch (h.kind) {
        case CG_NV_H_IMMD: {
            method_text(&d, h.subch, h.method, mname, sizeof(mname));
            snprintf(stmt, sizeof(stmt), "immd %u, %s, 0x%x", h.subch, mname, h.immd);
            int bad = nv_format_fields(d.sc[h.subch], h.method, h.immd, fld, sizeof(fld));
            d.problems += bad;
            emit(&d, off, w, stmt, fld, bad > 0, "immd", h.subch, h.method,
                 field_conf(d.sc[h.subch], h.method, bad));
            if (h.method == 0 && cg_nv_class_find(h.immd) && h.immd != d.sc[h.subch]) {
                d.sc[h.subch] = h.immd;
                if (!o->json)
                    fprintf(out, "    %s.subch %u, 0x%04X%s\n", d.nm, h.subch, h.immd, d.r);
            }
            break;
        }
        case CG_NV_H_SET_SUBDEV_MASK:
        case CG_NV_H_STORE_SUBDEV_MASK:
        case CG_NV_H_USE_SUBDEV_MASK: {
            static const char *nm[] = {"set_subdevice_mask", "store_subdevice_mask",
                                       "use_subdevice_mask"};
            int k = h.kind - CG_NV_H_SET_SUBDEV_MASK;
            uint32_t canon_w = (uint32_t)(k + 1) << 16 | (k < 2 ? h.immd << 4 : 0);
            if (w == canon_w) {
                if (k < 2)
                    snprintf(stmt, sizeof(stmt), "%s 0x%03x", nm[k], h.immd);
                else
                    snprintf(stmt, sizeof(stmt), "%s", nm[k]);
                emit(&d, off, w, stmt, "tertiary opcode (sub-device mask, 15:4)", false, "mask", -1, 0,
                     CONF_KNOWN);
            } else {
                snprintf(stmt, sizeof(stmt), ".word 0x%08x", w);
                snprintf(com, sizeof(com), "%s with bits outside the documented fields",
                         nm[k]);
                emit(&d, off, w, stmt, com, true, "mask", -1, 0, CONF_PARTIAL);
                d.problems++;
            }
            break;
        }
        case CG_NV_H_END_SEGMENT:
            if (w == CG_NV_END_PB_SEGMENT) {
                emit(&d, off, w, "end_pb_segment", "END_PB_SEGMENT: the rest of the entry is skipped",
                     false, "end", -1, 0, CONF_KNOWN);
            } else {
                snprintf(stmt, sizeof(stmt), ".word 0x%08x", w);
                emit(&d, off, w, stmt, "END_PB_SEGMENT with unknown bits set", true, "end", -1, 0,
                     CONF_PARTIAL);
                d.problems++;
            }
            break;
        case CG_NV_H_RESERVED:
            snprintf(stmt, sizeof(stmt), ".word 0x%08x", w);
            emit(&d, off, w, stmt, "reserved secondary opcode 6 (faults when executed)", true,
                 "reserved", -1, 0, CONF_UNKNOWN);
            d.problems++;
            break;
        default:
            snprintf(stmt, sizeof(stmt), ".word 0x%08x", w);
            emit(&d, off, w, stmt, "old-format header with bits 1:0 set", true, "header", -1, 0,
                 CONF_PARTIAL);
            d.problems++;
            break;
        }
    }
    if (o->json)
        fprintf(out, "\n],\"problems\":%d}\n", d.problems);
    return d.problems;
}
