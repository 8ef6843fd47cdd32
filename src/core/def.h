/* cmdgpu core: definition tables and their checker (internal, not installed).
 *
 * Every family describes its methods, registers or packets once, in an X-macro
 * .def file (docs/design.md principle 1). The preprocessor cannot check such a
 * table, so each family's table test runs cg_def_check() over it.
 *
 * A table is an array of cg_def_entry. Offsets are in the table's address
 * units (bytes for NV methods and radeon registers, opcode numbers for vc4
 * packets), and every element is `unit` address units wide: 4 for NV methods
 * and radeon registers, 1 for vc4 opcodes. Element i of an entry covers
 *
 *     [offset + i*stride, offset + i*stride + unit)      for 0 <= i < count
 *
 * where a stride of 0 means `unit` (a dense array). The entry's span is
 * [offset, offset + (count-1)*stride + unit); interleaved arrays (NV's
 * SET_COLOR_TARGET_A(j) at 0x800 + j*64 and SET_COLOR_TARGET_B(j) at
 * 0x804 + j*64) have crossing spans but claim different units, which is fine.
 *
 * Fields are bits hi:lo of a 32-bit word, NVIDIA style.
 *
 * Building a table from a .def file. Say sample.def reads
 *
 *     M(SET_MODE, 0x10, 1)      an entry: name, offset, count
 *     F(FORMAT, 7, 0)           its fields, on the lines after it
 *     F(ENABLE, 8, 8)
 *     M(COLOR, 0x20, 4)
 *     F(VALUE, 31, 0)
 *     M(FLUSH, 0x30, 1)         no fields
 *
 * It is included three times: (1) a struct type with one field array per
 * entry (so an entry's field count is known to the compiler), (2) one object
 * of that type holding every field, (3) the entry array pointing into it:
 *
 *     #define M(name, offset, count) CG_DEF_TYPE_M(name)
 *     #define F(name, hi, lo) CG_DEF_TYPE_F
 *     CG_DEF_TYPE_BEGIN(sample_fields)
 *     #include "sample.def"
 *     CG_DEF_TYPE_END(sample_fields);
 *     #undef M
 *     #undef F
 *
 *     #define M(name, offset, count) CG_DEF_INIT_M
 *     #define F(name, hi, lo) CG_DEF_INIT_F(name, hi, lo)
 *     static const struct sample_fields sample_fields = CG_DEF_INIT_BEGIN
 *     #include "sample.def"
 *     CG_DEF_INIT_END;
 *     #undef M
 *     #undef F
 *
 *     #define M(name, offset, count) \
 *         CG_DEF_ENTRY(sample_fields, name, offset, count, 0, 0),
 *     #define F(name, hi, lo)
 *     static const cg_def_entry sample_table[] = {
 *     #include "sample.def"
 *     };
 *     #undef M
 *     #undef F
 *
 *     n = cg_def_check("sample", sample_table, CG_ARRAY_SIZE(sample_table),
 *                      report, sizeof(report));
 *
 * Each field array starts with one unused element (C11 has no empty arrays);
 * CG_DEF_ENTRY skips it. A field before the first M fails CG_DEF_TYPE_END's
 * _Static_assert, and two entries with one name fail to compile (duplicate
 * member), so a table built this way has neither problem by construction.
 * Families whose .def lines carry more columns (stride, flags, kind) map
 * them onto CG_DEF_ENTRY's arguments the same way; a family without fields
 * uses CG_DEF_ENTRY_NOFIELDS in a single pass. */
#ifndef CMDGPU_CORE_DEF_H
#define CMDGPU_CORE_DEF_H

#include <stddef.h>
#include <stdint.h>
#include "cmdgpu/common.h"

typedef struct cg_def_field {
    const char *name;
    uint8_t hi, lo; /* bits hi:lo of a 32-bit word, hi >= lo */
} cg_def_field;

/* cg_def_entry.flags. The checker reads only these bits; bits 16 and up are
 * free for a family's own use. */
enum {
    CG_DEF_ALIAS = 1u << 0, /* may share units with other entries */
};

typedef struct cg_def_entry {
    const char *name;
    uint32_t offset;  /* first element, in address units */
    uint32_t count;   /* elements (array length), >= 1 */
    uint32_t stride;  /* address units from one element to the next; 0 = unit */
    uint32_t flags;   /* CG_DEF_* */
    const cg_def_field *fields;
    size_t nfields;
} cg_def_entry;

/* Check a table and describe every problem, one line each ("\n"-terminated)
 * into report (snprintf style: always terminated when cap > 0, cut when
 * full; report may be NULL when cap is 0). Returns the number of problems
 * (0 = clean), or CG_ERR_INVAL (NULL entries with n > 0, unit 0) or
 * CG_ERR_NOMEM. `table` names the table at the start of each line.
 *
 * Problems, in this order (an entry is named 'NAME', or "entry #i" when its
 * name is empty):
 *  1. per entry, in table order:
 *       "T: entry #i with empty name"           (NULL or "")
 *       "T: 'X' count 0"
 *       "T: 'X' offset 0x102 not a multiple of 4"   (unit > 1 only)
 *       "T: 'X' stride 6 not a multiple of 4"        (unit > 1 only)
 *       "T: 'X' [0xfffffff0,0x100000030) runs past 0xffffffff"
 *       "T: 'X' has 3 fields but no field array"
 *     then for each field G, in field order (a field is 'G', or "#j" when
 *     its name is empty):
 *       "T: 'X' field #j with empty name"
 *       "T: 'X' field 'G' bits 35:30 out of range"   (hi or lo > 31)
 *       "T: 'X' field 'G' hi < lo"                   (otherwise)
 *       "T: 'X' duplicate field 'G'"                 (G repeats an earlier name)
 *       "T: 'X' fields 'F' and 'G' overlap"          (for each earlier F sharing
 *                                                     a bit with G)
 *  2. "T: duplicate name 'X'", once for each repeat, in name order;
 *  3. "T: 'A' [0x10,0x18) overlaps 'B' [0x14,0x18)", once for each pair of
 *     entries claiming a common unit, neither CG_DEF_ALIAS, ordered by
 *     offset (A starts first, or at the same offset with a lower index);
 *     the ranges are the entries' spans. Entries with count 0 or running
 *     past 0xffffffff are left out of this check.
 *
 * Cost: O(n log n) for sorting, plus, for each pair of entries whose spans
 * cross, a walk over the elements of one of them inside the common part
 * (which stops at the first shared unit). */
int cg_def_check_unit(const char *table, const cg_def_entry *e, size_t n, uint32_t unit,
                      char *report, size_t cap);

/* cg_def_check_unit with unit 1: offsets in elements (vc4 opcodes). */
int cg_def_check(const char *table, const cg_def_entry *e, size_t n, char *report,
                 size_t cap);

/* ---- building tables from X-macro .def files (see the example above) ---- */

/* Pass 1: struct tag { <one cg_def_field array per entry> }. */
#define CG_DEF_TYPE_BEGIN(tag) struct tag { cg_def_field cg_def_head_[1
#define CG_DEF_TYPE_M(name) ]; cg_def_field name[1
#define CG_DEF_TYPE_F +1
#define CG_DEF_TYPE_END(tag)                                                   \
    ];                                                                         \
    };                                                                         \
    _Static_assert(sizeof(((struct tag *)0)->cg_def_head_) == sizeof(cg_def_field), \
                   "a field line comes before the first entry in " #tag)

/* Pass 2: the initializer of one object of that type. */
#define CG_DEF_FIELD_UNUSED {NULL, 0, 0}
#define CG_DEF_INIT_BEGIN { { CG_DEF_FIELD_UNUSED
#define CG_DEF_INIT_M }, { CG_DEF_FIELD_UNUSED
#define CG_DEF_INIT_F(name, hi, lo) , {#name, hi, lo}
#define CG_DEF_INIT_END } }

/* Pass 3: one cg_def_entry, its fields taken from `obj` (the pass-2 object). */
#define CG_DEF_ENTRY(obj, name, offset, count, stride, flags)                  \
    {#name, offset, count, stride, flags, (obj).name + 1,                      \
     sizeof((obj).name) / sizeof((obj).name[0]) - 1}

/* An entry without fields, for tables that have none. */
#define CG_DEF_ENTRY_NOFIELDS(name, offset, count, stride, flags)              \
    {#name, offset, count, stride, flags, NULL, 0}

#endif
