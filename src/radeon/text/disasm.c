/* radeon family: the PM4 disassembler. Every packet becomes one assembler
 * statement (asm.c reads it back to the same bytes) followed by one comment
 * line per dword: offset, raw value, and its meaning (register names and
 * fields from regs.def, payload fields from pm4_fields.def). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "radeon/radeon_internal.h"

typedef struct dctx {
    const cg_radeon_disasm_opts *o;
    FILE *out;
    const char *cn, *cu, *ca, *ce, *cc, *cr; /* colours, never NULL */
    bool first_json;
    int depth; /* 0 the input, 1 an IB1 followed into the image, 2 an IB2 */
    uint64_t *budget; /* IB dwords the whole call may still follow */
} dctx;

/* Following IBs can multiply the output (every IB1 call of a big IB2); the
 * whole disassembly follows at most this many IB dwords. */
#define FOLLOW_BUDGET (1u << 20)

static int disasm_impl(const cg_radeon_disasm_opts *o, const uint8_t *data, size_t size, FILE *out,
                       int depth, uint64_t *budget);

/* Follow an INDIRECT_BUFFER into the supplied memory image: its packets are
 * printed as comment lines ("#|  ..."), so the text still reassembles to the
 * input alone. IB1 and IB2 are followed; a third level is only noted (the CP
 * faults there). */
static void follow_ib(dctx *d, uint64_t addr, uint32_t ndw)
{
    const cg_radeon_disasm_opts *o = d->o;
    if (!o->image || o->json)
        return;
    if (d->depth >= 2) {
        fprintf(d->out, "    %s#| (not followed: a third IB level faults on the CP)%s\n", d->cc, d->cr);
        return;
    }
    uint64_t end = addr + 4ull * ndw;
    if (addr < o->image_base || end > o->image_base + o->image_size || end < addr) {
        fprintf(d->out, "    %s#| IB at 0x%" PRIx64 " (%u dwords) is not in the supplied image%s\n", d->cc, addr,
                ndw, d->cr);
        return;
    }
    if (ndw > *d->budget) {
        fprintf(d->out, "    %s#| (not followed: the disassembly follows at most %u IB dwords)%s\n", d->cc,
                FOLLOW_BUDGET, d->cr);
        return;
    }
    *d->budget -= ndw;
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return;
    cg_radeon_disasm_opts sub = *o;
    sub.base = addr;
    sub.c_name = sub.c_num = sub.c_addr = sub.c_err = sub.c_comment = sub.c_reset = NULL;
    disasm_impl(&sub, o->image + (addr - o->image_base), 4ull * ndw, f, d->depth + 1, d->budget);
    fclose(f);
    fprintf(d->out, "    %s#| IB%d at 0x%" PRIx64 ", %u dwords:%s\n", d->cc, d->depth + 1, addr, ndw, d->cr);
    for (char *line = buf; line && *line;) {
        char *nl = strchr(line, '\n');
        size_t n = nl ? (size_t)(nl - line) : strlen(line);
        fprintf(d->out, "    %s#|   %.*s%s\n", d->cc, (int)n, line, d->cr);
        line = nl ? nl + 1 : NULL;
    }
    free(buf);
}

static const char *nz(const char *s) { return s ? s : ""; }

static uint32_t le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* "FIELD=val" for the non-zero fields of a value; a field with an enum
 * value of the generation's register table prints its name
 * ("FORMAT=COLOR_8_8_8_8"). `regs`: e is an entry of rd_regs_of(gen). */
static void print_fields(dctx *d, const cg_def_entry *e, uint32_t v, bool regs)
{
    if (!e)
        return;
    int any = 0;
    for (size_t i = 0; i < e->nfields; i++) {
        uint32_t f = rd_bits(v, e->fields[i].hi, e->fields[i].lo);
        if (!f)
            continue;
        const char *en = regs ? rd_enum_name(d->o->gen, e, i, f) : NULL;
        if (en)
            fprintf(d->out, "%s%s=%s%s%s", any++ ? " " : "", e->fields[i].name, d->cu, en, d->cc);
        else
            fprintf(d->out, "%s%s=%s0x%x%s", any++ ? " " : "", e->fields[i].name, d->cu, f, d->cc);
    }
}

static void dword_line(dctx *d, size_t off, uint32_t v)
{
    fprintf(d->out, "    %s# %s0x%04" PRIx64 "%s%s %08x  ", d->cc, d->ca, d->o->base + off, d->cr,
            d->cc, v);
}

static void reg_value_line(dctx *d, size_t off, uint32_t reg, uint32_t v)
{
    char nb[48];
    dword_line(d, off, v);
    fprintf(d->out, "%s = 0x%x", rd_reg_str(d->o->gen, reg, nb, sizeof nb), v);
    rd_reg_info ri;
    if (rd_reg_find(d->o->gen, reg, &ri) && ri.e->nfields && v) {
        fprintf(d->out, " (");
        print_fields(d, ri.e, v, true);
        fprintf(d->out, ")");
    }
    fprintf(d->out, "%s\n", d->cr);
}

/* Raw words with a reason (non-canonical or truncated packets). */
static void raw_words(dctx *d, const uint32_t *w, size_t off, size_t n, const char *why, bool bad)
{
    for (size_t i = 0; i < n; i++) {
        fprintf(d->out, "%s.word%s %s0x%08x%s  %s# %s0x%04" PRIx64 "%s%s", d->cn, d->cr, d->cu, w[i],
                d->cr, d->cc, d->ca, d->o->base + off + 4 * i, d->cr, d->cc);
        if (i == 0 && why)
            fprintf(d->out, " %s%s%s%s", bad ? d->ce : "", why, bad ? d->cr : "", bad ? d->cc : "");
        fprintf(d->out, "%s\n", d->cr);
    }
}

/* JSON confidence (issue 11 part 6). A dword's: KNOWN when every set bit
 * is in a field of a reference table, PARTIAL when some are not, and a
 * register the tables do not name makes its packet PARTIAL; a packet no
 * reference names (or one that does not decode) is UNKNOWN. */
enum { CONF_UNKNOWN, CONF_PARTIAL, CONF_KNOWN };
static const char *const conf_names[] = {"unknown", "partial", "known"};

static uint32_t field_mask(const cg_def_entry *e)
{
    uint32_t m = 0;
    for (size_t i = 0; e && i < e->nfields; i++)
        m |= (uint32_t)((2ull << (e->fields[i].hi - e->fields[i].lo)) - 1u) << e->fields[i].lo;
    return m;
}

static int reg_conf(cg_radeon_gen gen, uint32_t reg, uint32_t v)
{
    rd_reg_info ri;
    if (!rd_reg_find(gen, reg, &ri))
        return CONF_PARTIAL;
    return (v & ~field_mask(ri.e)) ? CONF_PARTIAL : CONF_KNOWN;
}

/* Confidence of a whole, well-formed packet of `need` dwords at p. `reg`:
 * the first register written (type 0, SET_*), `step` 4 or 0 (one register). */
static int packet_conf(cg_radeon_gen gen, const uint8_t *p, size_t need, size_t first, bool regs,
                       uint32_t reg, uint32_t step, unsigned op)
{
    int c = CONF_KNOWN;
    for (size_t k = first; k < need && c > CONF_UNKNOWN; k++) {
        uint32_t v = le32(p + 4 * k), preg;
        int dc;
        if (regs) {
            dc = reg_conf(gen, reg, v);
            reg += step;
        } else if (!v) {
            dc = CONF_KNOWN;
        } else if (rd_payload_reg(gen, op, (unsigned)k, &preg)) {
            dc = reg_conf(gen, preg, v);
        } else {
            const cg_def_entry *pf = rd_payload_fields(gen, op, (unsigned)k);
            dc = pf && !(v & ~field_mask(pf)) ? CONF_KNOWN : CONF_PARTIAL;
        }
        if (dc < c)
            c = dc;
    }
    return c;
}

static void json_packet(dctx *d, size_t off, const char *type, const char *name, const uint32_t *w,
                        size_t n, const char *problem, int conf)
{
    fprintf(d->out, "%s{\"offset\":%zu,\"addr\":\"0x%" PRIx64 "\",\"type\":\"%s\"", d->first_json ? "" : ",",
            off, d->o->base + off, type);
    d->first_json = false;
    if (name)
        fprintf(d->out, ",\"name\":\"%s\"", name);
    fprintf(d->out, ",\"words\":[");
    for (size_t i = 0; i < n; i++)
        fprintf(d->out, "%s\"0x%08x\"", i ? "," : "", w[i]);
    fprintf(d->out, "]");
    if (problem)
        fprintf(d->out, ",\"problem\":\"%s\"", problem);
    fprintf(d->out, ",\"confidence\":\"%s\"}", conf_names[conf]);
}

/* Comment lines for a type-3 payload. */
static void payload_comments(dctx *d, unsigned op, p3_kind kind, const uint32_t *w, size_t off,
                             uint32_t count)
{
    for (uint32_t k = 1; k <= count + 1; k++) {
        uint32_t v = w[k], reg;
        dword_line(d, off + 4 * k, v);
        const cg_def_entry *pf = rd_payload_fields(d->o->gen, op, k);
        if (kind == P3K_NOP && count == 0 && (v & 0xFFFF0000u) == 0xCAFE0000u) {
            fprintf(d->out, "trace point %u", v & 0xFFFF);
        } else if (kind == P3K_IB && k == 1) {
            fprintf(d->out, "IB at 0x%" PRIx64,
                    ((uint64_t)PGET(w[2], INDIRECT_BUFFER_DW2, IB_BASE_HI) << 32) |
                        (v & PMASK(INDIRECT_BUFFER_DW1, IB_BASE_LO)));
        } else if (kind == P3K_IB && k == 3) {
            fprintf(d->out, "IB_SIZE %u dwords", PGET(v, INDIRECT_BUFFER_DW3, IB_SIZE));
        } else if (rd_payload_reg(d->o->gen, op, k, &reg)) {
            char nb[48];
            rd_reg_info ri;
            fprintf(d->out, "%s = 0x%x", rd_reg_str(d->o->gen, reg, nb, sizeof nb), v);
            if (v && rd_reg_find(d->o->gen, reg, &ri) && ri.e->nfields) {
                fprintf(d->out, " (");
                print_fields(d, ri.e, v, true);
                fprintf(d->out, ")");
            }
        } else {
            print_fields(d, pf, v, false);
        }
        fprintf(d->out, "%s\n", d->cr);
    }
    if (kind == P3K_IB && count == 2 && !(w[1] & 3))
        follow_ib(d, ((uint64_t)PGET(w[2], INDIRECT_BUFFER_DW2, IB_BASE_HI) << 32) | w[1],
                  PGET(w[3], INDIRECT_BUFFER_DW3, IB_SIZE));
}

int cg_radeon_disasm(const cg_radeon_disasm_opts *o, const uint8_t *data, size_t size, FILE *out)
{
    if (!o || !out || (!data && size) || (unsigned)o->gen >= CG_RADEON_GEN_COUNT ||
        (!o->image && o->image_size))
        return CG_ERR_INVAL;
    uint64_t budget = FOLLOW_BUDGET;
    return disasm_impl(o, data, size, out, 0, &budget);
}

static int disasm_impl(const cg_radeon_disasm_opts *o, const uint8_t *data, size_t size, FILE *out,
                       int depth, uint64_t *budget)
{
    dctx d = {.o = o, .out = out, .cn = nz(o->c_name), .cu = nz(o->c_num), .ca = nz(o->c_addr),
              .ce = nz(o->c_err), .cc = nz(o->c_comment), .cr = nz(o->c_reset), .first_json = true,
              .depth = depth, .budget = budget};
    const p3_desc *t = rd_p3_table(o->gen);
    bool r500 = o->gen == CG_RADEON_R500;
    size_t nw = size / 4;
    int bad = 0;
    if (o->json)
        fprintf(out, "{\"family\":\"radeon\",\"gen\":\"%s\",\"dwords\":%zu,\"packets\":[",
                cg_radeon_gen_name(o->gen), nw);
    else if (depth == 0)
        fprintf(out, "%s# radeon %s PM4, %zu dwords%s\n%s.gen%s %s\n", d.cc, cg_radeon_gen_name(o->gen),
                nw, d.cr, d.cn, d.cr, cg_radeon_gen_name(o->gen));
    uint32_t w[9];
    size_t i = 0;
    while (i < nw) {
        size_t off = 4 * i;
        uint32_t h = le32(data + off);
        unsigned type = RD_PKT_TYPE(h);
        uint32_t count = RD_PKT_COUNT(h);
        size_t need = rd_packet_dwords(h);
        if (need > nw - i) {
            bad++;
            char why[96];
            snprintf(why, sizeof why, "TRUNCATED: type-%u packet of %zu dwords, %zu in the input", type,
                     need, nw - i);
            size_t n = nw - i;
            if (o->json) {
                uint32_t ww[9];
                size_t m = n < 9 ? n : 9;
                for (size_t k = 0; k < m; k++)
                    ww[k] = le32(data + off + 4 * k);
                json_packet(&d, off, "truncated", NULL, ww, m, "truncated", CONF_UNKNOWN);
            } else {
                for (size_t k = 0; k < n; k++) {
                    uint32_t v = le32(data + off + 4 * k);
                    raw_words(&d, &v, off + 4 * k, 1, k == 0 ? why : NULL, true);
                }
            }
            i = nw;
            break;
        }
        /* Small packets are copied; big ones (SET runs, NOP bodies) read in place. */
        for (size_t k = 0; k < need && k < 9; k++)
            w[k] = le32(data + off + 4 * k);
        if (type == 2) {
            if (o->json)
                json_packet(&d, off, "2", "PACKET2", w, 1, NULL, CONF_KNOWN);
            else if (PGET(h, PM4_TYPE2, PAD))
                fprintf(out, "%spacket2%s %s0x%x%s  %s# %s0x%04" PRIx64 "%s%s %08x type-2 filler%s\n", d.cn,
                        d.cr, d.cu, PGET(h, PM4_TYPE2, PAD), d.cr, d.cc, d.ca, o->base + off, d.cr, d.cc, h,
                        d.cr);
            else
                fprintf(out, "%spacket2%s  %s# %s0x%04" PRIx64 "%s%s %08x type-2 filler%s\n", d.cn, d.cr, d.cc,
                        d.ca, o->base + off, d.cr, d.cc, h, d.cr);
            i += 1;
            continue;
        }
        if (type == 1) {
            if (!r500 || (h & 0x3FC00000u)) {
                bad++;
                if (o->json)
                    json_packet(&d, off, "1", NULL, w, 3, r500 ? "reserved bits" : "type 1 on R600+",
                            CONF_UNKNOWN);
                else
                    raw_words(&d, w, off, 3,
                              r500 ? "BAD: type-1 header with reserved bits 29:22 set"
                                   : "BAD: type-1 packet (R1xx-R5xx only; the CP faults)",
                              true);
            } else if (o->json) {
                json_packet(&d, off, "1", "PACKET1", w, 3, NULL, CONF_PARTIAL); /* no R500 register table */
            } else {
                uint32_t r0 = (h & 0x7FF) << 2, r1 = ((h >> 11) & 0x7FF) << 2;
                fprintf(out, "%spacket1%s %s0x%x%s, %s0x%x%s, %s0x%x%s, %s0x%x%s  %s# %s0x%04" PRIx64 "%s%s %08x type 1%s\n",
                        d.cn, d.cr, d.cu, r0, d.cr, d.cu, r1, d.cr, d.cu, w[1], d.cr, d.cu, w[2], d.cr,
                        d.cc, d.ca, o->base + off, d.cr, d.cc, h, d.cr);
                reg_value_line(&d, off + 4, r0, w[1]);
                reg_value_line(&d, off + 8, r1, w[2]);
            }
            i += 3;
            continue;
        }
        if (type == 0) {
            uint32_t reg;
            bool one = false;
            if (r500) {
                if (h & 0x6000u) {
                    bad++;
                    if (o->json)
                        json_packet(&d, off, "0", NULL, w, need < 9 ? need : 9, "reserved bits", CONF_UNKNOWN);
                    else
                        for (size_t k = 0; k < need; k++) {
                            uint32_t v = le32(data + off + 4 * k);
                            raw_words(&d, &v, off + 4 * k, 1,
                                      k == 0 ? "BAD: type-0 header with reserved bits 14:13 set" : NULL, true);
                        }
                    i += need;
                    continue;
                }
                reg = PGET(h, PM4_TYPE0_R500, BASE_INDEX) << 2;
                one = PGET(h, PM4_TYPE0_R500, ONE_REG_WR);
            } else {
                reg = PGET(h, PM4_TYPE0, BASE_INDEX) << 2;
            }
            if (o->json) {
                json_packet(&d, off, "0", "PACKET0", w, need < 9 ? need : 9, NULL,
                            packet_conf(o->gen, data + off, need, 1, true, reg, one ? 0 : 4, 0));
                i += need;
                continue;
            }
            char nb[48];
            fprintf(out, "%s%s%s %s%s%s", d.cn, one ? "packet0.one" : "packet0", d.cr, d.cu,
                    rd_reg_str(o->gen, reg, nb, sizeof nb), d.cr);
            for (size_t k = 1; k < need; k++)
                fprintf(out, ", %s0x%x%s", d.cu, le32(data + off + 4 * k), d.cr);
            fprintf(out, "  %s# %s0x%04" PRIx64 "%s%s %08x type 0, %u register%s%s\n", d.cc, d.ca,
                    o->base + off, d.cr, d.cc, h, count + 1, count ? "s" : "", d.cr);
            for (size_t k = 1; k < need; k++)
                reg_value_line(&d, off + 4 * k, one ? reg : reg + 4 * (uint32_t)(k - 1),
                               le32(data + off + 4 * k));
            i += need;
            continue;
        }
        /* type 3 */
        unsigned op = RD_PKT3_OPCODE(h);
        const p3_desc *pd = &t[op];
        if (h & 0xFF) {
            /* PREDICATE / SHADER_TYPE / reserved bits: no mnemonic form. */
            bad += pd->name ? 0 : 1;
            if (o->json) {
                json_packet(&d, off, "3", pd->name, w, need < 9 ? need : 9, "header flag bits",
                            pd->name ? CONF_PARTIAL : CONF_UNKNOWN);
            } else {
                char why[96];
                snprintf(why, sizeof why, "type-3 %s count %u with header bits 7:0 = 0x%02x",
                         pd->name ? pd->name : "UNKNOWN", count, h & 0xFF);
                for (size_t k = 0; k < need; k++) {
                    uint32_t v = le32(data + off + 4 * k);
                    raw_words(&d, &v, off + 4 * k, 1, k == 0 ? why : NULL, !pd->name);
                }
            }
            i += need;
            continue;
        }
        uint32_t ws = 0, we = 0;
        bool set_ok = false;
        if (pd->name && pd->kind == P3K_SET && rd_window(o->gen, op, &ws, &we)) {
            uint64_t r = (uint64_t)ws + 4ull * w[1];
            set_ok = r < we;
        }
        if (o->json) {
            int conf = !pd->name ? CONF_UNKNOWN
                       : set_ok ? packet_conf(o->gen, data + off, need, 2, true, ws + 4 * w[1], 4, op)
                       : pd->kind == P3K_SET ? CONF_PARTIAL
                                             : packet_conf(o->gen, data + off, need, 1, false, 0, 0, op);
            json_packet(&d, off, "3", pd->name, w, need < 9 ? need : 9, pd->name ? NULL : "unknown opcode",
                        conf);
            bad += pd->name ? 0 : 1;
            i += need;
            continue;
        }
        if (set_ok) {
            uint32_t reg = ws + 4 * w[1];
            char nb[48];
            fprintf(out, "%s%s%s %s%s%s", d.cn, pd->name, d.cr, d.cu, rd_reg_str(o->gen, reg, nb, sizeof nb),
                    d.cr);
            for (size_t k = 2; k < need; k++)
                fprintf(out, ", %s0x%x%s", d.cu, le32(data + off + 4 * k), d.cr);
            fprintf(out, "  %s# %s0x%04" PRIx64 "%s%s %08x type 3, count %u%s\n", d.cc, d.ca, o->base + off,
                    d.cr, d.cc, h, count, d.cr);
            dword_line(&d, off + 4, w[1]);
            fprintf(out, "window index -> 0x%x%s%s\n", reg,
                    (uint64_t)reg + 4ull * count > we ? " (runs past the window end: the CP faults)" : "",
                    d.cr);
            for (size_t k = 2; k < need; k++)
                reg_value_line(&d, off + 4 * k, reg + 4 * (uint32_t)(k - 2), le32(data + off + 4 * k));
            i += need;
            continue;
        }
        /* SET_* packets whose index leaves the window use the generic form:
         * the SET mnemonics take a register address. */
        bool ident = pd->name && !(pd->name[0] >= '0' && pd->name[0] <= '9');
        if (ident && pd->kind != P3K_SET)
            fprintf(out, "%s%s%s", d.cn, pd->name, d.cr);
        else
            fprintf(out, "%spacket3%s %s0x%02x%s,", d.cn, d.cr, d.cu, op, d.cr);
        for (size_t k = 1; k < need; k++)
            fprintf(out, "%s %s0x%x%s", k > 1 ? "," : "", d.cu, le32(data + off + 4 * k), d.cr);
        fprintf(out, "  %s# %s0x%04" PRIx64 "%s%s %08x type 3, count %u", d.cc, d.ca, o->base + off, d.cr, d.cc,
                h, count);
        if (pd->name && !ident)
            fprintf(out, " %s", pd->name); /* "3D_DRAW_VBUF" is no identifier */
        if (!pd->name) {
            bad++;
            fprintf(out, " %sUNKNOWN opcode 0x%02x for %s%s%s", d.ce, op, cg_radeon_gen_name(o->gen), d.cr,
                    d.cc);
        } else if (pd->kind == P3K_SET) {
            fprintf(out, " %s(register outside the %s window)%s%s", d.ce, pd->name, d.cr, d.cc);
        } else if (count < pd->min_count || count > pd->max_count) {
            fprintf(out, " %s(count outside %u..%u: the CP faults)%s%s", d.ce, pd->min_count, pd->max_count,
                    d.cr, d.cc);
        }
        fprintf(out, "%s\n", d.cr);
        if (pd->name && need <= 9)
            payload_comments(&d, op, (p3_kind)pd->kind, w, off, count);
        else
            for (size_t k = 1; k < need; k++) {
                dword_line(&d, off + 4 * k, le32(data + off + 4 * k));
                fprintf(out, "%s\n", d.cr);
            }
        i += need;
    }
    size_t tail = size % 4;
    if (o->json) {
        fprintf(out, "],\"tail\":[");
        for (size_t k = 0; k < tail; k++)
            fprintf(out, "%s%u", k ? "," : "", data[nw * 4 + k]);
        fprintf(out, "],\"bad\":%d}\n", bad);
    } else if (tail) {
        fprintf(out, "%s.byte%s ", d.cn, d.cr);
        for (size_t k = 0; k < tail; k++)
            fprintf(out, "%s%s0x%02x%s", k ? ", " : "", d.cu, data[nw * 4 + k], d.cr);
        fprintf(out, "  %s# %s0x%04" PRIx64 "%s%s trailing bytes (not a dword)%s\n", d.cc, d.ca,
                o->base + nw * 4, d.cr, d.cc, d.cr);
    }
    return bad;
}
