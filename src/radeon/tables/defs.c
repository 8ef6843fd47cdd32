/* radeon family: the definition tables, built from the .def files (one table
 * per command set, research/style.md A6), and their lookups. */
#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "core/nameidx.h"
#include "radeon/radeon_internal.h"

/* The public header builds packet headers by hand (include/cmdgpu/radeon.h
 * cannot see the tables); they must agree with pm4_fields.def. */
_Static_assert(CG_RADEON_PACKET3(0xAB, 0x1234) ==
                   (PPUTC(PM4_TYPE3, TYPE, 3) | PPUTC(PM4_TYPE3, COUNT, 0x1234) |
                    PPUTC(PM4_TYPE3, IT_OPCODE, 0xAB)),
               "CG_RADEON_PACKET3 disagrees with pm4_fields.def");
_Static_assert(CG_RADEON_PACKET0(0x28044, 0x2345) ==
                   (PPUTC(PM4_TYPE0, COUNT, 0x2345) | PPUTC(PM4_TYPE0, BASE_INDEX, 0x28044 >> 2)),
               "CG_RADEON_PACKET0 disagrees with pm4_fields.def");
_Static_assert(CG_RADEON_PACKET2(0x1234567) == (PPUTC(PM4_TYPE2, PAD, 0x1234567) | PPUTC(PM4_TYPE3, TYPE, 2)),
               "CG_RADEON_PACKET2 disagrees with pm4_fields.def");

/* ---- type-3 opcode tables, one per generation ---- */

#define P3(name, op, kind, mn, mx) [op] = {#name, P3K_##kind, mn, mx},
#define W(name, start, end)
static const p3_desc p3_r600[256] = {
#include "pm4_r600.def"
};
static const p3_desc p3_evergreen[256] = {
#include "pm4_evergreen.def"
};
static const p3_desc p3_r500[256] = {
#include "pm4_r500.def"
};
#undef P3
#undef W

#define P3(name, op, kind, mn, mx) CG_DEF_ENTRY_NOFIELDS(name, op, 1, 0, 0),
#define W(name, start, end)
static const cg_def_entry p3_defs_r600[] = {
#include "pm4_r600.def"
};
static const cg_def_entry p3_defs_evergreen[] = {
#include "pm4_evergreen.def"
};
static const cg_def_entry p3_defs_r500[] = {
#include "pm4_r500.def"
};
#undef P3
#undef W

/* Windows as entries of `count` registers (unit 4). */
#define P3(name, op, kind, mn, mx)
#define W(name, start, end) CG_DEF_ENTRY_NOFIELDS(name, start, ((end) - (start)) / 4, 0, 0),
static const cg_def_entry win_defs_r600[] = {
#include "pm4_r600.def"
};
static const cg_def_entry win_defs_evergreen[] = {
#include "pm4_evergreen.def"
};
#undef P3
#undef W

const p3_desc *rd_p3_table(cg_radeon_gen gen)
{
    switch (gen) {
    case CG_RADEON_EVERGREEN: return p3_evergreen;
    case CG_RADEON_R500: return p3_r500;
    default: return p3_r600;
    }
}

const cg_def_entry *rd_p3_defs(cg_radeon_gen gen, size_t *n)
{
    switch (gen) {
    case CG_RADEON_EVERGREEN: *n = CG_ARRAY_SIZE(p3_defs_evergreen); return p3_defs_evergreen;
    case CG_RADEON_R500: *n = CG_ARRAY_SIZE(p3_defs_r500); return p3_defs_r500;
    default: *n = CG_ARRAY_SIZE(p3_defs_r600); return p3_defs_r600;
    }
}

const cg_def_entry *rd_win_defs(cg_radeon_gen gen, size_t *n)
{
    switch (gen) {
    case CG_RADEON_EVERGREEN: *n = CG_ARRAY_SIZE(win_defs_evergreen); return win_defs_evergreen;
    case CG_RADEON_R500: *n = 0; return NULL;
    default: *n = CG_ARRAY_SIZE(win_defs_r600); return win_defs_r600;
    }
}

bool rd_window(cg_radeon_gen gen, unsigned opcode, uint32_t *start, uint32_t *end)
{
    const p3_desc *t = rd_p3_table(gen);
    if (opcode > 255 || !t[opcode].name || t[opcode].kind != P3K_SET)
        return false;
    size_t n;
    const cg_def_entry *w = rd_win_defs(gen, &n);
    for (size_t i = 0; i < n; i++)
        if (strcmp(w[i].name, t[opcode].name) == 0) {
            *start = w[i].offset;
            *end = w[i].offset + 4 * w[i].count;
            return true;
        }
    return false;
}

/* ---- registers (regs.def), def.h's three passes ---- */

#define R(name, off, cnt, stride, flags) CG_DEF_TYPE_M(name)
#define RF(reg, f, hi, lo) CG_DEF_TYPE_F
CG_DEF_TYPE_BEGIN(rd_reg_fields)
#include "regs.def"
CG_DEF_TYPE_END(rd_reg_fields);
#undef R
#undef RF

#define R(name, off, cnt, stride, flags) CG_DEF_INIT_M
#define RF(reg, f, hi, lo) CG_DEF_INIT_F(f, hi, lo)
static const struct rd_reg_fields rd_reg_fields = CG_DEF_INIT_BEGIN
#include "regs.def"
CG_DEF_INIT_END;
#undef R
#undef RF

#define R(name, off, cnt, stride, flags) CG_DEF_ENTRY(rd_reg_fields, name, off, cnt, stride, flags),
#define RF(reg, f, hi, lo)
static const cg_def_entry rd_regs[] = {
#include "regs.def"
};
#undef R
#undef RF

/* ---- payload fields (pm4_fields.def) ---- */

#define PD(name, id) CG_DEF_TYPE_M(name)
#define PF(e, f, hi, lo) CG_DEF_TYPE_F
CG_DEF_TYPE_BEGIN(rd_pf_fields)
#include "pm4_fields.def"
CG_DEF_TYPE_END(rd_pf_fields);
#undef PD
#undef PF

#define PD(name, id) CG_DEF_INIT_M
#define PF(e, f, hi, lo) CG_DEF_INIT_F(f, hi, lo)
static const struct rd_pf_fields rd_pf_fields = CG_DEF_INIT_BEGIN
#include "pm4_fields.def"
CG_DEF_INIT_END;
#undef PD
#undef PF

#define PD(name, id) CG_DEF_ENTRY(rd_pf_fields, name, id, 1, 0, 0),
#define PF(e, f, hi, lo)
static const cg_def_entry rd_pf[] = {
#include "pm4_fields.def"
};
#undef PD
#undef PF

const cg_def_entry *rd_reg_table(size_t *n)
{
    *n = CG_ARRAY_SIZE(rd_regs);
    return rd_regs;
}

/* Payload dwords that are a register's value (PR, PRE lines), and payload
 * dwords with another entry's layout (PA lines). */
static const struct {
    uint32_t id;  /* payload-dword id (pm4_fields.def) */
    uint32_t reg;
} rd_pr[] = {
#define PD(name, id)
#define PF(e, f, hi, lo)
#define PR(op, dw, reg) {RD_PAY_R600 + RD_OP_##op * 16u + (dw), REG_##reg},
#define PRE(op, dw, reg) {RD_PAY_EG + RD_EGOP_##op * 16u + (dw), REG_##reg},
#include "pm4_fields.def"
#undef PD
#undef PF
#undef PR
#undef PRE
};
static const struct {
    uint32_t id, entry; /* payload-dword id, the id of the entry it shares */
} rd_pa[] = {
#define PD(name, id)
#define PF(e, f, hi, lo)
#define PA(id, entry) {id, RD_PD_##entry},
#include "pm4_fields.def"
#undef PD
#undef PF
#undef PA
};

/* The ids a payload dword of `gen` may have, the most specific first:
 * Evergreen's own space, then the R600 space when the opcode names the
 * same packet on R600 (Evergreen reuses some numbers). */
static size_t payload_ids(cg_radeon_gen gen, unsigned op, unsigned dw, uint32_t id[2])
{
    if (op > 0xFF || dw == 0 || dw > 15)
        return 0;
    uint32_t k = op * 16u + dw;
    if (gen == CG_RADEON_R500) {
        id[0] = RD_PAY_R500 + k;
        return 1;
    }
    size_t n = 0;
    if (gen == CG_RADEON_EVERGREEN)
        id[n++] = RD_PAY_EG + k;
    const char *a = rd_p3_table(gen)[op].name, *b = rd_p3_table(CG_RADEON_R600)[op].name;
    if (a && b && strcmp(a, b) == 0)
        id[n++] = RD_PAY_R600 + k;
    return n;
}

static bool pr_find(uint32_t id, uint32_t *reg)
{
    for (size_t i = 0; i < CG_ARRAY_SIZE(rd_pr); i++)
        if (rd_pr[i].id == id) {
            *reg = rd_pr[i].reg;
            return true;
        }
    return false;
}

static const cg_def_entry *pf_find(uint32_t id)
{
    for (size_t i = 0; i < CG_ARRAY_SIZE(rd_pa); i++)
        if (rd_pa[i].id == id)
            id = rd_pa[i].entry;
    for (size_t i = 0; i < CG_ARRAY_SIZE(rd_pf); i++)
        if (rd_pf[i].offset == id)
            return &rd_pf[i];
    return NULL;
}

bool rd_payload_reg(cg_radeon_gen gen, unsigned opcode, unsigned dw, uint32_t *reg)
{
    uint32_t id[2];
    size_t n = payload_ids(gen, opcode, dw, id);
    for (size_t i = 0; i < n; i++) {
        if (pr_find(id[i], reg))
            return true;
        if (pf_find(id[i]))
            return false; /* a field entry of a more specific space wins */
    }
    return false;
}

const cg_def_entry *rd_payload_fields(cg_radeon_gen gen, unsigned opcode, unsigned dw)
{
    uint32_t id[2], reg;
    size_t n = payload_ids(gen, opcode, dw, id);
    for (size_t i = 0; i < n; i++) {
        const cg_def_entry *e = pf_find(id[i]);
        if (e)
            return e;
        if (pr_find(id[i], &reg))
            return NULL; /* a register-valued dword of a more specific space */
    }
    return NULL;
}

bool rd_payload_alias(size_t i, uint32_t *id, uint32_t *entry)
{
    if (i >= CG_ARRAY_SIZE(rd_pa))
        return false;
    *id = rd_pa[i].id;
    *entry = rd_pa[i].entry;
    return true;
}

bool rd_payload_reg_at(size_t i, uint32_t *id, uint32_t *reg)
{
    if (i >= CG_ARRAY_SIZE(rd_pr))
        return false;
    *id = rd_pr[i].id;
    *reg = rd_pr[i].reg;
    return true;
}

const cg_def_entry *rd_pf_table(size_t *n)
{
    *n = CG_ARRAY_SIZE(rd_pf);
    return rd_pf;
}

bool rd_reg_lookup(uint32_t reg, rd_reg_info *out)
{
    /* ~60 entries: a linear scan is as fast as anything here. */
    for (size_t i = 0; i < CG_ARRAY_SIZE(rd_regs); i++) {
        const cg_def_entry *e = &rd_regs[i];
        uint32_t stride = e->stride ? e->stride : 4;
        if (reg < e->offset || (reg - e->offset) % stride != 0)
            continue;
        uint32_t idx = (reg - e->offset) / stride;
        if (idx < e->count) {
            out->e = e;
            out->index = idx;
            return true;
        }
    }
    return false;
}


/* ---- the vendor tables (regs_<gen>.def) ---- */

#define RD_GEN r600
#define RD_DEF "regs_r600.def"
#include "regs_table.h"
#undef RD_GEN
#undef RD_DEF
#define RD_GEN evergreen
#define RD_DEF "regs_evergreen.def"
#include "regs_table.h"
#undef RD_GEN
#undef RD_DEF

/* The first of n sorted records whose uint32_t key (the member at `at`)
 * is >= key. */
static size_t lower_bound(const void *base, size_t n, size_t size, size_t at, uint32_t key)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        uint32_t k;
        memcpy(&k, (const unsigned char *)base + mid * size + at, sizeof k);
        if (k < key)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

const rd_regtab *rd_regs_of(cg_radeon_gen gen)
{
    switch (gen) {
    case CG_RADEON_R600:
    case CG_RADEON_R700: return &rd_table_r600;
    case CG_RADEON_EVERGREEN: return &rd_table_evergreen;
    default: return NULL;
    }
}

static bool elem_of(const cg_def_entry *e, uint32_t reg, unsigned *idx)
{
    uint32_t stride = e->stride ? e->stride : 4;
    if (reg < e->offset || (reg - e->offset) % stride != 0)
        return false;
    uint32_t i = (reg - e->offset) / stride;
    if (i >= e->count)
        return false;
    *idx = i;
    return true;
}

bool rd_reg_find(cg_radeon_gen gen, uint32_t reg, rd_reg_info *out)
{
    const rd_regtab *t = rd_regs_of(gen);
    if (!t)
        return false;
    /* Entries are sorted by offset: find the first at `reg`, then arrays
     * starting below it. A primary wins over an alias. */
    size_t lo = lower_bound(t->e, t->n, sizeof *t->e, offsetof(cg_def_entry, offset), reg);
    const cg_def_entry *alias = NULL;
    unsigned alias_idx = 0;
    if (lo < t->n && t->e[lo].offset == reg) {
        if (!(t->e[lo].flags & CG_DEF_ALIAS)) {
            out->e = &t->e[lo];
            out->index = 0;
            return true;
        }
        alias = &t->e[lo];
    }
    for (size_t i = lo; i-- > 0;) {
        const cg_def_entry *e = &t->e[i];
        unsigned idx;
        if (e->count < 2 || !elem_of(e, reg, &idx))
            continue;
        if (!(e->flags & CG_DEF_ALIAS)) {
            out->e = e;
            out->index = idx;
            return true;
        }
        if (!alias) {
            alias = e;
            alias_idx = idx;
        }
    }
    if (!alias)
        return false;
    out->e = alias;
    out->index = alias_idx;
    return true;
}

const char *rd_elem_name(const cg_def_entry *e, unsigned index, char *buf, size_t cap)
{
    unsigned ipos = (e->flags >> RD_IPOS_SHIFT) & 0xFF;
    if (e->count < 2 || ipos >= strlen(e->name))
        snprintf(buf, cap, "%s", e->name);
    else
        snprintf(buf, cap, "%.*s%u%s", (int)ipos, e->name, index, e->name + ipos + 1);
    return buf;
}

/* Whether `name` names entry e: its own name, or for an array an element
 * NAME = prefix, decimal index (no leading zero, below the count), suffix.
 * *reg gets the register. */
static bool reg_name_match(const cg_def_entry *e, const char *name, size_t len, uint32_t *reg)
{
    size_t nl = strlen(e->name);
    if (nl == len && memcmp(e->name, name, len) == 0) {
        *reg = e->offset;
        return true;
    }
    unsigned ipos = (e->flags >> RD_IPOS_SHIFT) & 0xFF;
    if (e->count < 2 || ipos >= nl || len < nl || memcmp(e->name, name, ipos) != 0)
        return false;
    size_t sl = nl - ipos - 1, dl = len - ipos - sl;
    if (dl < 1 || dl > 5 || memcmp(name + len - sl, e->name + ipos + 1, sl) != 0 ||
        (dl > 1 && name[ipos] == '0'))
        return false;
    unsigned idx = 0;
    size_t k = 0;
    for (; k < dl && name[ipos + k] >= '0' && name[ipos + k] <= '9'; k++)
        idx = idx * 10 + (unsigned)(name[ipos + k] - '0');
    if (k != dl || idx >= e->count)
        return false;
    *reg = e->offset + idx * (e->stride ? e->stride : 4);
    return true;
}

/* Name indexes per register table: the entries' own names, and for arrays
 * the name with its index digit replaced by '#' (CB_COLOR#_BASE). A name
 * matches the first entry in table order, as a scan would: the lookup
 * takes the lowest entry among the exact hit and every pattern hit. The
 * pattern index is only used when no two arrays share a pattern (checked
 * at build); otherwise lookups scan. */
typedef struct reg_names {
    cg_nameidx exact, pattern;
    char **pat; /* entry i's pattern, NULL if not an array */
    bool pattern_ok;
} reg_names;
static reg_names reg_ix[2]; /* r600/r700, evergreen */
static pthread_once_t reg_ix_once = PTHREAD_ONCE_INIT;

static const char *entry_name_at(const void *tab, size_t i)
{
    return ((const cg_def_entry *)tab)[i].name;
}

static const char *pattern_at(const void *tab, size_t i)
{
    return ((char *const *)tab)[i];
}

static void reg_names_build(reg_names *rn, const rd_regtab *t)
{
    if (cg_nameidx_build(&rn->exact, t->n, entry_name_at, t->e) != 0)
        return;
    rn->pat = calloc(t->n, sizeof *rn->pat);
    if (!rn->pat)
        return;
    for (size_t i = 0; i < t->n; i++) {
        const cg_def_entry *e = &t->e[i];
        unsigned ipos = (e->flags >> RD_IPOS_SHIFT) & 0xFF;
        if (e->count < 2 || ipos >= strlen(e->name))
            continue;
        if (!(rn->pat[i] = strdup(e->name)))
            return;
        rn->pat[i][ipos] = '#';
    }
    if (cg_nameidx_build(&rn->pattern, t->n, pattern_at, rn->pat) != 0)
        return;
    rn->pattern_ok = true;
    for (size_t i = 0; i < t->n; i++) {
        uint32_t j;
        if (rn->pat[i] && (!cg_nameidx_find(&rn->pattern, rn->pat[i], strlen(rn->pat[i]), &j) ||
                           j != i))
            rn->pattern_ok = false; /* two arrays share a pattern */
    }
}

static void reg_ix_build(void)
{
    reg_names_build(&reg_ix[0], rd_regs_of(CG_RADEON_R600));
    reg_names_build(&reg_ix[1], rd_regs_of(CG_RADEON_EVERGREEN));
}

bool rd_reg_by_name(cg_radeon_gen gen, const char *name, size_t len, uint32_t *reg)
{
    const rd_regtab *t = rd_regs_of(gen);
    if (!t || !name)
        return false;
    pthread_once(&reg_ix_once, reg_ix_build);
    const reg_names *rn = &reg_ix[t == rd_regs_of(CG_RADEON_EVERGREEN)];
    if (rn->pattern_ok && len < 128) {
        uint32_t best = UINT32_MAX, i;
        if (cg_nameidx_find(&rn->exact, name, len, &i))
            best = i;
        /* Every digit substring of up to five digits could be an index. */
        char key[128];
        for (size_t a = 0; a < len; a++)
            for (size_t b = a + 1; b <= len && b <= a + 5 && name[b - 1] >= '0' && name[b - 1] <= '9';
                 b++) {
                memcpy(key, name, a);
                key[a] = '#';
                memcpy(key + a + 1, name + b, len - b);
                uint32_t r;
                if (cg_nameidx_find(&rn->pattern, key, a + 1 + len - b, &i) && i < best &&
                    reg_name_match(&t->e[i], name, len, &r))
                    best = i;
            }
        return best != UINT32_MAX && reg_name_match(&t->e[best], name, len, reg);
    }
    return rd_reg_by_name_scan(gen, name, len, reg);
}

bool rd_reg_by_name_scan(cg_radeon_gen gen, const char *name, size_t len, uint32_t *reg)
{
    const rd_regtab *t = rd_regs_of(gen);
    for (size_t i = 0; t && name && i < t->n; i++)
        if (reg_name_match(&t->e[i], name, len, reg))
            return true;
    return false;
}

const char *rd_enum_name(cg_radeon_gen gen, const cg_def_entry *e, size_t j, uint32_t v)
{
    const rd_regtab *t = rd_regs_of(gen);
    if (!t || e < t->e || e >= t->e + t->n || j >= e->nfields)
        return NULL;
    unsigned fid = t->first_field[e - t->e] + (unsigned)j;
    size_t lo = lower_bound(t->vals, t->nvals, sizeof *t->vals, offsetof(rd_enum_val, field), fid);
    for (; lo < t->nvals && t->vals[lo].field == fid; lo++)
        if (t->vals[lo].value == v)
            return t->vals[lo].name;
    return NULL;
}

const char *rd_reg_str(cg_radeon_gen gen, uint32_t reg, char *buf, size_t cap)
{
    rd_reg_info ri;
    if (rd_reg_find(gen, reg, &ri))
        return rd_elem_name(ri.e, ri.index, buf, cap);
    snprintf(buf, cap, "0x%x", reg);
    return buf;
}

/* ---- public lookups ---- */

static const char *const gen_names[CG_RADEON_GEN_COUNT] = {"r600", "r700", "evergreen", "r500"};

const char *cg_radeon_gen_name(cg_radeon_gen g)
{
    return (unsigned)g < CG_RADEON_GEN_COUNT ? gen_names[g] : "?";
}

int cg_radeon_gen_from_name(const char *name, cg_radeon_gen *out)
{
    for (unsigned i = 0; name && i < CG_RADEON_GEN_COUNT; i++)
        if (strcmp(name, gen_names[i]) == 0) {
            *out = (cg_radeon_gen)i;
            return 0;
        }
    return CG_ERR_NOENT;
}

const char *cg_radeon_reg_name(cg_radeon_gen gen, uint32_t reg)
{
    rd_reg_info ri;
    if (!rd_reg_find(gen, reg, &ri) || ri.index != 0)
        return NULL;
    return ri.e->name;
}

int cg_radeon_reg_by_name(cg_radeon_gen gen, const char *name, uint32_t *reg)
{
    if (!name || !reg)
        return CG_ERR_NOENT;
    return rd_reg_by_name(gen, name, strlen(name), reg) ? 0 : CG_ERR_NOENT;
}

const char *cg_radeon_opcode_name(cg_radeon_gen gen, unsigned opcode)
{
    if (opcode > 255 || (unsigned)gen >= CG_RADEON_GEN_COUNT)
        return NULL;
    return rd_p3_table(gen)[opcode].name;
}

/* Type-3 mnemonics per generation, hashed once (the assembler looks one up
 * per packet). */
static cg_nameidx op_ix[CG_RADEON_GEN_COUNT];
static pthread_once_t op_ix_once = PTHREAD_ONCE_INIT;

static const char *p3_name_at(const void *tab, size_t i)
{
    return ((const p3_desc *)tab)[i].name;
}

static void op_ix_build(void)
{
    for (unsigned g = 0; g < CG_RADEON_GEN_COUNT; g++)
        cg_nameidx_build(&op_ix[g], 256, p3_name_at, rd_p3_table((cg_radeon_gen)g));
}

int cg_radeon_opcode_by_name(cg_radeon_gen gen, const char *name, unsigned *opcode)
{
    if (!name || (unsigned)gen >= CG_RADEON_GEN_COUNT)
        return CG_ERR_NOENT;
    pthread_once(&op_ix_once, op_ix_build);
    uint32_t i;
    if (op_ix[gen].cap) {
        if (!cg_nameidx_find(&op_ix[gen], name, strlen(name), &i))
            return CG_ERR_NOENT;
        *opcode = i;
        return 0;
    }
    const p3_desc *t = rd_p3_table(gen); /* no index (out of memory): scan */
    for (unsigned k = 0; k < 256; k++)
        if (t[k].name && strcmp(t[k].name, name) == 0) {
            *opcode = k;
            return 0;
        }
    return CG_ERR_NOENT;
}
