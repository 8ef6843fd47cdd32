/* vc4 family: the control-list record table, built from cl.def (one table
 * per command set, research/style.md A6), and compressed primitive lists. */
#include <string.h>
#include "vc4/vc4_internal.h"
#include "vc4/gpu/prim_encode.h"

/* Pass 1: one flat array of fields, and one of macro slots, in .def order;
 * enumerators give each record's first field and slot. */
enum {
#define R(name, op, size, where, policy, role, alias, desc) VC4_FS_##name, VC4_FX_##name = VC4_FS_##name - 1,
#define F(rec, name, bit, width, type, alias) VC4_F_##rec##_##name,
#define V(rec, field, value, vname)
#define A(rec, bit, width)
#include "cl.def"
#undef R
#undef F
#undef A
#undef V
    VC4_NFIELDS
};
/* Slots have no names: each record opens a parenthesis its A lines add to. */
enum {
    VC4_S_BEGIN_ = -1 + (0
#define R(name, op, size, where, policy, role, alias, desc) ), VC4_SS_##name, VC4_SX_##name = VC4_SS_##name - 1 + (0
#define F(rec, name, bit, width, type, alias)
#define V(rec, field, value, vname)
#define A(rec, bit, width) +1
#include "cl.def"
#undef R
#undef F
#undef A
#undef V
    ), VC4_NSLOTS
};

static const vc4_field vc4_fields[VC4_NFIELDS + 1] = {
#define R(name, op, size, where, policy, role, alias, desc)
#define F(rec, name, bit, width, type, alias) {#name, alias, bit, width, VC4_FT_##type},
#define V(rec, field, value, vname)
#define A(rec, bit, width)
#include "cl.def"
#undef R
#undef F
#undef A
#undef V
    {NULL, NULL, 0, 0, 0}};

static const vc4_slot vc4_slots[VC4_NSLOTS + 1] = {
#define R(name, op, size, where, policy, role, alias, desc)
#define F(rec, name, bit, width, type, alias)
#define V(rec, field, value, vname)
#define A(rec, bit, width) {bit, width},
#include "cl.def"
#undef R
#undef F
#undef A
#undef V
    {0, 0}};

/* Enum values of fields, in .def order: the field's global index, value,
 * name (the XML's <value> made an identifier). */
static const struct {
    uint16_t field;
    uint8_t value;
    const char *name;
} vc4_values[] = {
#define R(name, op, size, where, policy, role, alias, desc)
#define F(rec, name, bit, width, type, alias)
#define V(rec, field, value, vname) {VC4_F_##rec##_##field, value, #vname},
#define A(rec, bit, width)
#include "cl.def"
#undef R
#undef F
#undef A
#undef V
};

const char *vc4_field_enum_name(const vc4_field *f, uint64_t value)
{
    size_t fi = (size_t)(f - vc4_fields);
    for (size_t i = 0; i < CG_ARRAY_SIZE(vc4_values); i++)
        if (vc4_values[i].field == fi && vc4_values[i].value == value)
            return vc4_values[i].name;
    return NULL;
}

bool vc4_field_enum_value(const vc4_field *f, const char *name, uint64_t *value)
{
    size_t fi = (size_t)(f - vc4_fields);
    for (size_t i = 0; name && i < CG_ARRAY_SIZE(vc4_values); i++)
        if (vc4_values[i].field == fi && strcmp(vc4_values[i].name, name) == 0) {
            *value = vc4_values[i].value;
            return true;
        }
    return false;
}

/* Records in table order; field and slot counts are the distance to the next
 * record's first entry, fixed up by the accessors below. */
typedef struct vc4_rec_src {
    const char *name, *alias, *desc;
    uint8_t op, size, where, policy, role;
    uint16_t f0, s0;
} vc4_rec_src;

static const vc4_rec_src vc4_rec_src_tab[] = {
#define R(name, op, size, where, policy, role, alias, desc) {#name, alias, desc, op, size, VC4_##where, VC4_POL_##policy, VC4_RL_##role, VC4_FS_##name, VC4_SS_##name},
#define F(rec, name, bit, width, type, alias)
#define V(rec, field, value, vname)
#define A(rec, bit, width)
#include "cl.def"
#undef R
#undef F
#undef A
#undef V
};
#define VC4_NRECS (sizeof(vc4_rec_src_tab) / sizeof(vc4_rec_src_tab[0]))

enum {
#define R(name, op, size, where, policy, role, alias, desc) VC4_RI_##name,
#define F(rec, name, bit, width, type, alias)
#define V(rec, field, value, vname)
#define A(rec, bit, width)
#include "cl.def"
#undef R
#undef F
#undef A
#undef V
    VC4_NRECS_E
};

static const int16_t vc4_by_op[256] = {
#define R(name, op, size, where, policy, role, alias, desc) [op] = 1 + VC4_RI_##name,
#define F(rec, name, bit, width, type, alias)
#define V(rec, field, value, vname)
#define A(rec, bit, width)
#include "cl.def"
#undef R
#undef F
#undef A
#undef V
};

_Static_assert(VC4_NRECS_E == VC4_NRECS, "record count");

const uint8_t vc4_cl_role[256] = {
#define R(name, op, size, where, policy, role, alias, desc) [op] = VC4_RL_##role,
#define F(rec, name, bit, width, type, alias)
#define V(rec, field, value, vname)
#define A(rec, bit, width)
#include "cl.def"
#undef R
#undef F
#undef A
#undef V
};

/* Record i: its fields run to the next record's first field (the field
 * enumeration is dense: VC4_FS_name equals the index of its first field). */
static bool vc4_rec_build(size_t i, vc4_record *r)
{
    if (i >= VC4_NRECS)
        return false;
    const vc4_rec_src *s = &vc4_rec_src_tab[i];
    unsigned f1 = i + 1 < VC4_NRECS ? vc4_rec_src_tab[i + 1].f0 : VC4_NFIELDS;
    unsigned s1 = i + 1 < VC4_NRECS ? vc4_rec_src_tab[i + 1].s0 : VC4_NSLOTS;
    r->name = s->name;
    r->alias = s->alias[0] ? s->alias : NULL;
    r->policy = s->policy;
    r->desc = s->desc;
    r->opcode = s->op;
    r->size = s->size;
    r->where = s->where;
    r->role = s->role;
    r->fields = &vc4_fields[s->f0];
    r->nfields = (uint8_t)(f1 - s->f0);
    r->slots = s1 > s->s0 ? &vc4_slots[s->s0] : NULL;
    r->nslots = (uint8_t)(s1 - s->s0);
    return true;
}

bool vc4_record_get(uint8_t op, vc4_record *out)
{
    int16_t i = vc4_by_op[op];
    return i > 0 && vc4_rec_build((size_t)(i - 1), out);
}

bool vc4_record_find(const char *name, vc4_record *out)
{
    for (size_t i = 0; name && i < VC4_NRECS; i++)
        if (strcmp(vc4_rec_src_tab[i].name, name) == 0 ||
            strcmp(vc4_rec_src_tab[i].alias, name) == 0)
            return vc4_rec_build(i, out);
    return false;
}

size_t vc4_record_count(void) { return VC4_NRECS; }
bool vc4_record_at(size_t i, vc4_record *out) { return vc4_rec_build(i, out); }

uint64_t vc4_field_value(const vc4_field *f, const uint8_t *payload)
{
    uint64_t raw = vc4_bits_get(payload, f->bit, f->width);
    if (f->type == VC4_FT_A && f->width < 32)
        raw <<= 32 - f->width;
    if ((f->type == VC4_FT_S || f->type == VC4_FT_X) && f->width < 64 &&
        (raw >> (f->width - 1)) & 1)
        raw |= ~0ull << f->width;
    return raw;
}

/* "known" when the fields explain every payload bit, "partial" when some
 * bits are reserved or not described (issue 11 part 6). */
const char *vc4_record_confidence(const vc4_record *r)
{
    unsigned covered = 0;
    for (unsigned i = 0; i < r->nfields; i++)
        covered += r->fields[i].width;
    return covered == (r->size - 1u) * 8u ? "known" : "partial";
}

unsigned cg_vc4_cl_size(uint8_t opcode)
{
    vc4_record r;
    return vc4_record_get(opcode, &r) ? r.size : 0;
}

const char *cg_vc4_cl_name(uint8_t opcode)
{
    vc4_record r;
    return vc4_record_get(opcode, &r) ? r.name : NULL;
}

int cg_vc4_cl_opcode(const char *name)
{
    vc4_record r;
    return vc4_record_find(name, &r) ? r.opcode : CG_ERR_NOENT;
}

/* ---- compressed primitive lists (research/vc4.md section 1.3) ----------
 * 16-bit index triangles, from the blob debugger and
 * anholt/vc4-gpu-tools:tools/vc4_dump_parse_cl.c ("Table 39"):
 *   0x80            escape: the list ends, records resume
 *   0x82 s16        relative branch, in 32-byte units (see binner.c)
 *   0x81 u16 x3     coding 3: absolute indices (7 bytes)
 *   [3:0]=F         coding 2 (4 bytes): d1 s6 [9:4], d2 s6 [15:10], i0 u16 [31:16]
 *                   -> (i0, i0+d1, i0+d2)
 *   [1:0]=3         coding 1 (2 bytes): s4 deltas [7:4] [11:8] [15:12] against
 *                   the previous triangle's three indices
 *   otherwise       coding 0 (1 byte): flag [1:0], d s6 [7:2]; with the
 *                   previous triangle (p0, p1, p2): flag 0 -> (p2, p1, p2+d),
 *                   1 -> (p0, p2, p2+d), 2 -> (p1, p0, p2+d).
 * Fields a, b, c of cg_vc4_prim_item: coding 3: i0, i1, i2; coding 2: i0, d1,
 * d2; coding 1: the three deltas; coding 0: flag, d. */
static int32_t sext(uint32_t v, unsigned bits)
{
    uint32_t m = 1u << (bits - 1);
    return (int32_t)((v ^ m) - m);
}

unsigned cg_vc4_prim_decode(const uint8_t *p, size_t n, const uint32_t prev[3],
                            cg_vc4_prim_item *o)
{
    if (!p || !o || n == 0)
        return 0;
    memset(o, 0, sizeof *o);
    uint32_t p0 = prev ? prev[0] : 0, p1 = prev ? prev[1] : 0, p2 = prev ? prev[2] : 0;
    uint8_t b = p[0];
    if (b == 0x80) {
        o->kind = 4;
        o->tri[0] = p0, o->tri[1] = p1, o->tri[2] = p2;
        return 1;
    }
    if (b == 0x82) {
        if (n < 3)
            return 0;
        o->kind = 5;
        o->branch = (int16_t)vc4_le16(p + 1);
        o->a = o->branch;
        o->tri[0] = p0, o->tri[1] = p1, o->tri[2] = p2;
        return 3;
    }
    if (b == 0x81) {
        if (n < 7)
            return 0;
        o->kind = 3;
        o->a = vc4_le16(p + 1), o->b = vc4_le16(p + 3), o->c = vc4_le16(p + 5);
        o->tri[0] = (uint32_t)o->a, o->tri[1] = (uint32_t)o->b, o->tri[2] = (uint32_t)o->c;
        return 7;
    }
    if ((b & 0xF) == 0xF) {
        if (n < 4)
            return 0;
        uint32_t w = vc4_le32(p);
        o->kind = 2;
        o->a = (int32_t)(w >> 16);
        o->b = sext((w >> 4) & 0x3F, 6);
        o->c = sext((w >> 10) & 0x3F, 6);
        o->tri[0] = (uint32_t)o->a;
        o->tri[1] = (uint32_t)(o->a + o->b) & 0xFFFF;
        o->tri[2] = (uint32_t)(o->a + o->c) & 0xFFFF;
        return 4;
    }
    if ((b & 3) == 3) {
        if (n < 2)
            return 0;
        uint32_t w = vc4_le16(p);
        o->kind = 1;
        o->a = sext((w >> 4) & 0xF, 4);
        o->b = sext((w >> 8) & 0xF, 4);
        o->c = sext((w >> 12) & 0xF, 4);
        o->tri[0] = (p0 + (uint32_t)o->a) & 0xFFFF;
        o->tri[1] = (p1 + (uint32_t)o->b) & 0xFFFF;
        o->tri[2] = (p2 + (uint32_t)o->c) & 0xFFFF;
        return 2;
    }
    o->kind = 0;
    o->a = b & 3;
    o->b = sext(b >> 2, 6);
    uint32_t nw = (p2 + (uint32_t)o->b) & 0xFFFF;
    if (o->a == 0)
        o->tri[0] = p2, o->tri[1] = p1;
    else if (o->a == 1)
        o->tri[0] = p0, o->tri[1] = p2;
    else
        o->tri[0] = p1, o->tri[1] = p0;
    o->tri[2] = nw;
    return 1;
}

unsigned cg_vc4_prim_encode(const uint32_t prev[3], const uint32_t tri[3], bool first,
                            uint8_t out[7])
{
    return vc4_prim_encode(prev, tri, first, out);
}
