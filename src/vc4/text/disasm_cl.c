/* vc4 family: the control-list disassembler.
 *
 * Output, in the style of seed 003's dump (address, command number, name,
 * then each field on its own line) and valid input to the vc4 assembler:
 *
 *   // 0x000117a8: command number 0x73 (115), Tile_Coordinates [73 06 01]
 *   //     Tile_Column_Number (uint8): 0x00000006
 *   //     Tile_Row_Number (uint8): 0x00000001
 *   Tile_Coordinates {Tile_Column_Number=6, Tile_Row_Number=1}
 *
 * Names are the reference's (cl.def: Mesa's v3d_packet_v21.xml, else the
 * Reference Guide), enum fields print their value names, addresses 8 hex
 * digits, floats and 12.4 fixed point their value in the comment.
 *
 * Compressed primitive lists come out as Coding_0..Coding_3, Escape and
 * Relative_Branch items with the triangle each gives. Linear mode (files)
 * decodes bytes in order so that asm(disasm(x)) == x; follow mode (lists in
 * memory, e.g. binner output) follows Branch, Branch_To_Sub_List and the
 * 0x82 relative branches as the hardware does. */
#include <inttypes.h>
#include <stdlib.h>
#include "vc4/vc4_internal.h"

typedef struct dis {
    const cg_vc4_disasm_opts *o;
    cg_vc4_read_fn rd;
    void *user;
    FILE *out;
    int bad;
    unsigned records;
    uint8_t prim_format;
    bool json, first;
} dis;

static void json_sep(dis *d)
{
    fprintf(d->out, "%s\n", d->first ? "" : ",");
    d->first = false;
}

static void json_bytes(dis *d, const uint8_t *p, unsigned n)
{
    fprintf(d->out, "\"bytes\":\"");
    for (unsigned i = 0; i < n; i++)
        fprintf(d->out, "%s%02x", i ? " " : "", p[i]);
    fprintf(d->out, "\"");
}

static const char *S(const char *s) { return s ? s : ""; }

static const char *type_name(const vc4_field *f)
{
    switch (f->type) {
    case VC4_FT_S: return f->width <= 8 ? "sint8" : f->width <= 16 ? "sint16" : "sint32";
    case VC4_FT_A: return "address";
    case VC4_FT_F: return "float32";
    case VC4_FT_B: return "bool";
    case VC4_FT_X: return "s12.4";
    default:
        return f->width <= 8 ? "uint8" : f->width <= 16 ? "uint16" : f->width <= 32 ? "uint32"
                                                                                   : "uint64";
    }
}

/* A field's value as the named form writes it: enum names, addresses in
 * 8 hex digits, signed numbers in decimal, anything else small in decimal
 * and large in hex. */
static void print_value(dis *d, const vc4_field *f, uint64_t val)
{
    const cg_vc4_disasm_opts *o = d->o;
    const char *en = vc4_field_enum_name(f, val);
    if (en)
        fprintf(d->out, "%s%s%s", S(o->c_num), en, S(o->c_reset));
    else if (f->type == VC4_FT_A)
        fprintf(d->out, "%s0x%08" PRIx64 "%s", S(o->c_num), val, S(o->c_reset));
    else if (f->type == VC4_FT_S || f->type == VC4_FT_X)
        fprintf(d->out, "%s%" PRId64 "%s", S(o->c_num), (int64_t)val, S(o->c_reset));
    else if (val < 10)
        fprintf(d->out, "%s%" PRIu64 "%s", S(o->c_num), val, S(o->c_reset));
    else
        fprintf(d->out, "%s0x%" PRIx64 "%s", S(o->c_num), val, S(o->c_reset));
}

static void print_bytes(dis *d, const uint8_t *p, unsigned n)
{
    fprintf(d->out, " [");
    for (unsigned i = 0; i < n; i++)
        fprintf(d->out, "%s%02x", i ? " " : "", p[i]);
    fprintf(d->out, "]");
}

/* Print one record (already read, `n` bytes). */
static void print_record(dis *d, uint32_t addr, const vc4_record *r, const uint8_t *rec)
{
    const cg_vc4_disasm_opts *o = d->o;
    if (d->json) {
        json_sep(d);
        fprintf(d->out, "{\"addr\":\"0x%08x\",\"opcode\":%u,\"name\":\"%s\",", addr, r->opcode,
                r->name);
        json_bytes(d, rec, r->size);
        fprintf(d->out, ",\"fields\":{");
        for (unsigned i = 0; i < r->nfields; i++) {
            const vc4_field *f = &r->fields[i];
            uint64_t val = vc4_field_value(f, rec + 1);
            if (f->type == VC4_FT_S || f->type == VC4_FT_X)
                fprintf(d->out, "%s\"%s\":%" PRId64, i ? "," : "", f->name, (int64_t)val);
            else
                fprintf(d->out, "%s\"%s\":%" PRIu64, i ? "," : "", f->name, val);
        }
        fprintf(d->out, "},\"confidence\":\"%s\"}", vc4_record_confidence(r));
        return;
    }
    fprintf(d->out, "%s// %s0x%08x%s%s: command number 0x%02x (%u), %s", S(o->c_comment),
            S(o->c_addr), addr, S(o->c_reset), S(o->c_comment), r->opcode, r->opcode, r->name);
    print_bytes(d, rec, r->size);
    fprintf(d->out, "%s\n", S(o->c_reset));
    for (unsigned i = 0; i < r->nfields; i++) {
        const vc4_field *f = &r->fields[i];
        uint64_t val = vc4_field_value(f, rec + 1);
        fprintf(d->out, "%s//     %s (%s): 0x%0*" PRIx64, S(o->c_comment), f->name, type_name(f),
                f->width > 32 ? 16 : 8, f->width > 32 ? val : val & 0xFFFFFFFFu);
        const char *en = vc4_field_enum_name(f, val);
        if (en)
            fprintf(d->out, " (%s)", en);
        else if (f->type == VC4_FT_F)
            fprintf(d->out, " (%g)", (double)vc4_f32((uint32_t)val));
        else if (f->type == VC4_FT_S)
            fprintf(d->out, " (%" PRId64 ")", (int64_t)val);
        else if (f->type == VC4_FT_X)
            fprintf(d->out, " (%g)", (double)(int64_t)val / 16.0);
        fprintf(d->out, "%s\n", S(o->c_reset));
    }
    fprintf(d->out, "%s%s%s%s", S(o->c_name), r->name, S(o->c_reset), r->nfields ? " {" : "");
    for (unsigned i = 0; i < r->nfields; i++) {
        const vc4_field *f = &r->fields[i];
        uint64_t val = vc4_field_value(f, rec + 1);
        fprintf(d->out, "%s%s=", i ? ", " : "", f->name);
        print_value(d, f, val);
    }
    fprintf(d->out, "%s\n", r->nfields ? "}" : "");
}

/* Do the fields rebuild the record? (Reserved bits set: print bytes.) */
static bool fields_cover(const vc4_record *r, const uint8_t *rec)
{
    uint8_t re[16] = {0};
    re[0] = rec[0];
    for (unsigned i = 0; i < r->nfields; i++)
        vc4_bits_set(re + 1, r->fields[i].bit, r->fields[i].width,
                     vc4_bits_get(rec + 1, r->fields[i].bit, r->fields[i].width));
    return memcmp(re, rec, r->size) == 0;
}

/* Bytes as data (.byte). bad: bytes the disassembler cannot explain,
 * counted in "bad" and marked "bad":true, confidence "unknown"; otherwise a
 * named record with reserved bits set, or padding the format leaves unused
 * (named, not every bit explained: "partial"). */
static void emit_raw(dis *d, uint32_t addr, const uint8_t *p, unsigned n, const char *why,
                     bool bad)
{
    const cg_vc4_disasm_opts *o = d->o;
    d->bad += bad;
    if (d->json) {
        json_sep(d);
        fprintf(d->out, "{\"addr\":\"0x%08x\",\"raw\":true,%s\"confidence\":\"%s\","
                        "\"why\":\"%s\",", addr, bad ? "\"bad\":true," : "",
                bad ? "unknown" : "partial", why);
        json_bytes(d, p, n);
        fprintf(d->out, "}");
        return;
    }
    fprintf(d->out, "%s// 0x%08x: %s%s\n", S(o->c_err), addr, why, S(o->c_reset));
    fprintf(d->out, ".byte ");
    for (unsigned i = 0; i < n; i++)
        fprintf(d->out, "%s0x%02x", i ? ", " : "", p[i]);
    fprintf(d->out, "\n");
}

static void print_raw(dis *d, uint32_t addr, const uint8_t *p, unsigned n, const char *why)
{
    emit_raw(d, addr, p, n, why, false);
}

static void print_bad(dis *d, uint32_t addr, const uint8_t *p, unsigned n, const char *why)
{
    emit_raw(d, addr, p, n, why, true);
}

/* A compressed list in a format whose items are not modelled (only 16-bit
 * index triangles are): its bytes up to and including the first 0x80 (the
 * escape of every format, research/vc4.md section 1.3) come out as data,
 * 16 to a line, marked bad; records resume after it. */
static uint32_t dis_undecoded_list(dis *d, uint32_t p, bool *ok)
{
    char why[96];
    snprintf(why, sizeof why, "compressed list in format 0x%02x: items not decoded (only "
             "16-bit index triangles are)", d->prim_format);
    *ok = true;
    for (unsigned guard = 0; guard < (1u << 16); guard++) {
        uint8_t b[16];
        unsigned n = 0;
        bool esc = false;
        while (n < sizeof b && !esc && d->rd(d->user, p + n, b + n, 1) == 0)
            esc = b[n++] == 0x80;
        if (n)
            print_bad(d, p, b, n, why);
        p += n;
        if (esc)
            return p;
        if (n < sizeof b) {
            *ok = false; /* the bytes ran out inside the list */
            return p;
        }
    }
    *ok = false;
    return p;
}

/* A compressed list starting at p (after the 0x30). Linear mode stops after
 * a relative branch (returning the branch's end); follow mode jumps. Returns
 * the address after the escape (or after the branch in linear mode), and
 * sets *ok false if it ran out of bytes. */
static uint32_t dis_compressed(dis *d, uint32_t p, bool *ok, bool *branched)
{
    const cg_vc4_disasm_opts *o = d->o;
    uint32_t prev[3] = {0, 0, 0};
    *ok = true;
    *branched = false;
    if (d->prim_format != 0x12)
        return dis_undecoded_list(d, p, ok);
    for (unsigned guard = 0; guard < (1u << 20); guard++) {
        uint8_t it[7];
        if (d->rd(d->user, p, it, 1) != 0) {
            *ok = false;
            return p;
        }
        unsigned sz = it[0] == 0x80 ? 1 : it[0] == 0x82 ? 3 : it[0] == 0x81 ? 7
                      : (it[0] & 0xF) == 0xF ? 4 : (it[0] & 3) == 3 ? 2 : 1;
        if (sz > 1 && d->rd(d->user, p + 1, it + 1, sz - 1) != 0) {
            unsigned n = 1;
            while (n < sz && d->rd(d->user, p + n, it + n, 1) == 0)
                n++;
            print_bad(d, p, it, n, "compressed item runs past the end");
            *ok = false;
            return p + n;
        }
        cg_vc4_prim_item item;
        cg_vc4_prim_decode(it, sz, prev, &item);
        if (item.kind == 1 && (it[0] & 0xC)) {
            /* bits [3:2] of a coding 1 are not a field: keep the bytes */
            print_raw(d, p, it, sz, "coding 1 with bits [3:2] set");
            memcpy(prev, item.tri, sizeof prev);
            p += sz;
            continue;
        }
        if (d->json) {
            static const char *kinds[6] = {"coding 0", "coding 1", "coding 2", "coding 3",
                                           "escape", "relative branch"};
            json_sep(d);
            fprintf(d->out, "{\"addr\":\"0x%08x\",\"item\":\"%s\",\"confidence\":\"known\",", p,
                    kinds[item.kind]);
            json_bytes(d, it, sz);
            if (item.kind <= 3)
                fprintf(d->out, ",\"triangle\":[%u,%u,%u]", item.tri[0], item.tri[1], item.tri[2]);
            if (item.kind == 5)
                fprintf(d->out, ",\"target\":\"0x%08x\"",
                        (p & ~31u) + 32 + (uint32_t)((int32_t)item.branch * 32));
            fprintf(d->out, "}");
            if (item.kind == 4)
                return p + 1;
            if (item.kind == 5) {
                if (!o->follow) {
                    *branched = true;
                    return p + 3;
                }
                p = (p & ~31u) + 32 + (uint32_t)((int32_t)item.branch * 32);
                continue;
            }
            memcpy(prev, item.tri, sizeof prev);
            p += sz;
            continue;
        }
        fprintf(d->out, "%s// %s0x%08x%s%s: ", S(o->c_comment), S(o->c_addr), p, S(o->c_reset),
                S(o->c_comment));
        switch (item.kind) {
        case 4:
            fprintf(d->out, "escape (end of the compressed list)%s\n%sEscape%s\n", S(o->c_reset),
                    S(o->c_name), S(o->c_reset));
            return p + 1;
        case 5: {
            uint32_t target = (p & ~31u) + 32 + (uint32_t)((int32_t)item.branch * 32);
            fprintf(d->out, "relative branch, target 0x%08x%s\n%sRelative_Branch%s %d\n", target,
                    S(o->c_reset), S(o->c_name), S(o->c_reset), item.branch);
            if (!o->follow) {
                *branched = true;
                return p + 3;
            }
            p = target;
            continue;
        }
        case 3:
            fprintf(d->out, "coding 3, absolute indices: triangle (%u, %u, %u)%s\n%sCoding_3%s "
                            "%d, %d, %d\n", item.tri[0], item.tri[1], item.tri[2], S(o->c_reset),
                    S(o->c_name), S(o->c_reset), item.a, item.b, item.c);
            break;
        case 2:
            fprintf(d->out, "coding 2, absolute index and two differences: triangle (%u, %u, "
                            "%u)%s\n%sCoding_2%s %d, %d, %d\n", item.tri[0], item.tri[1],
                    item.tri[2], S(o->c_reset), S(o->c_name), S(o->c_reset), item.a, item.b,
                    item.c);
            break;
        case 1:
            fprintf(d->out, "coding 1, differences from the previous triangle: triangle (%u, "
                            "%u, %u)%s\n%sCoding_1%s %d, %d, %d\n", item.tri[0], item.tri[1],
                    item.tri[2], S(o->c_reset), S(o->c_name), S(o->c_reset), item.a, item.b,
                    item.c);
            break;
        default:
            fprintf(d->out, "coding 0, one new index: triangle (%u, %u, %u)%s\n%sCoding_0%s "
                            "%d, %d\n", item.tri[0], item.tri[1], item.tri[2], S(o->c_reset),
                    S(o->c_name), S(o->c_reset), item.a, item.b);
            break;
        }
        memcpy(prev, item.tri, sizeof prev);
        p += sz;
    }
    *ok = false;
    return p;
}

/* Decode from addr; linear: until the reader fails; follow: until Halt, a
 * Return at depth 0, or max_bytes. Returns the address where decoding
 * stopped (linear mode: every byte before it has been printed). */
static uint32_t walk(dis *d, uint32_t addr, uint32_t limit, unsigned depth)
{
    const cg_vc4_disasm_opts *o = d->o;
    unsigned max = o->max_records ? o->max_records : (1u << 20);
    uint32_t start = addr;
    while (d->records < max) {
        if (o->follow && addr - start >= limit)
            break;
        uint8_t rec[16];
        if (d->rd(d->user, addr, rec, 1) != 0)
            return addr;
        vc4_record r;
        if (!vc4_record_get(rec[0], &r)) {
            char why[64];
            snprintf(why, sizeof why, "unknown opcode %u (0x%02x)", rec[0], rec[0]);
            print_bad(d, addr, rec, 1, why);
            if (o->follow)
                return addr + 1;
            addr++;
            continue;
        }
        if (r.size > 1 && d->rd(d->user, addr + 1, rec + 1, r.size - 1) != 0) {
            unsigned n = 1;
            while (n < r.size && d->rd(d->user, addr + n, rec + n, 1) == 0)
                n++;
            print_bad(d, addr, rec, n, "record runs past the end");
            return addr + n;
        }
        d->records++;
        if (fields_cover(&r, rec))
            print_record(d, addr, &r, rec);
        else
            print_raw(d, addr, rec, r.size, r.name);
        uint32_t next = addr + r.size;
        if (rec[0] == VC4_OP_Primitive_List_Format)
            d->prim_format = rec[1]; /* how the compressed lists that follow read */
        switch (r.role) {
        case VC4_RL_HALT:
        case VC4_RL_RETURN:
            if (o->follow)
                return next;
            break;
        case VC4_RL_BRANCH:
            if (o->follow) {
                addr = vc4_le32(rec + 1);
                start = addr;
                continue;
            }
            break;
        case VC4_RL_CALL:
            if (o->follow) {
                if (depth >= 2) {
                    if (!d->json)
                        fprintf(d->out, "%s// sub-list nesting deeper than 2: not followed%s\n",
                                S(o->c_err), S(o->c_reset));
                    d->bad++;
                } else {
                    walk(d, vc4_le32(rec + 1), limit, depth + 1);
                }
            }
            break;
        case VC4_RL_DRAW: {
            bool ok, branched;
            next = dis_compressed(d, next, &ok, &branched);
            if (!ok)
                return next;
            if (branched) {
                /* linear mode: the rest of the 32-byte unit is unused */
                uint32_t end = (next + 31) & ~31u;
                uint8_t pad[32];
                unsigned n = 0;
                while (next + n < end && d->rd(d->user, next + n, pad + n, 1) == 0)
                    n++;
                if (n) {
                    print_raw(d, next, pad, n, "rest of the block after a relative branch");
                }
                next += n;
            }
            break;
        }
        default:
            break;
        }
        addr = next;
    }
    return addr;
}

typedef struct buf_reader {
    const uint8_t *data;
    size_t size;
    uint32_t base;
} buf_reader;

static int buf_read(void *user, uint32_t addr, void *dst, size_t n)
{
    const buf_reader *b = user;
    uint64_t off = (uint64_t)addr - b->base;
    if (addr < b->base || off + n > b->size)
        return CG_ERR_RANGE;
    memcpy(dst, b->data + off, n);
    return 0;
}

int cg_vc4_cl_disasm(const cg_vc4_disasm_opts *o, const uint8_t *data, size_t size, FILE *out)
{
    if (!o || (!data && size) || !out)
        return CG_ERR_INVAL;
    buf_reader b = {data, size, o->base};
    cg_vc4_disasm_opts lo = *o;
    lo.follow = false;
    dis d = {&lo, buf_read, &b, out, 0, 0, o->prim_format ? o->prim_format : 0x12, o->json,
             true};
    if (d.json)
        fprintf(out, "{\"family\":\"vc4-cl\",\"base\":\"0x%08x\",\"items\":[", o->base);
    uint32_t stop = walk(&d, o->base, (uint32_t)size, 0);
    /* whatever the walk left (the record limit): data, so nothing is lost */
    for (uint64_t off = (uint64_t)stop - o->base; stop >= o->base && off < size;) {
        unsigned n = size - off < 16 ? (unsigned)(size - off) : 16;
        print_bad(&d, o->base + (uint32_t)off, data + off, n, "not decoded: record limit");
        off += n;
    }
    if (d.json)
        fprintf(out, "\n],\"bad\":%d}\n", d.bad);
    return d.bad;
}

int cg_vc4_cl_disasm_mem(const cg_vc4_disasm_opts *o, cg_vc4_read_fn rd, void *user,
                         uint32_t start, uint32_t max_bytes, FILE *out)
{
    if (!o || !rd || !out)
        return CG_ERR_INVAL;
    dis d = {o, rd, user, out, 0, 0, o->prim_format ? o->prim_format : 0x12, o->json, true};
    if (d.json)
        fprintf(out, "{\"family\":\"vc4-cl\",\"base\":\"0x%08x\",\"items\":[", start);
    walk(&d, start, max_bytes ? max_bytes : 0xFFFFFFFFu, 0);
    if (d.json)
        fprintf(out, "\n],\"bad\":%d}\n", d.bad);
    return d.bad;
}
