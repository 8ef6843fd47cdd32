/* radeon family: the assembler plug-in (packets from the opcode tables) and
 * the scene directives it records into a scene (scene.h). */
#include <stdlib.h>
#include <string.h>
#include "radeon/radeon_internal.h"
#include "radeon/scene.h"

#define MAX_OPERANDS (0x3FFF + 2) /* a type-3 packet's payload, plus the opcode */

int cg_radeon_asm_create(cg_radeon_gen gen, cg_radeon_asm **out)
{
    if (!out || (unsigned)gen >= CG_RADEON_GEN_COUNT)
        return CG_ERR_INVAL;
    cg_radeon_asm *st = calloc(1, sizeof(*st));
    if (!st)
        return CG_ERR_NOMEM;
    st->ops = calloc(MAX_OPERANDS, sizeof(int64_t));
    if (!st->ops) {
        free(st);
        return CG_ERR_NOMEM;
    }
    st->default_gen = st->gen = gen;
    *out = st;
    return 0;
}

void cg_radeon_asm_destroy(cg_radeon_asm *st)
{
    if (!st)
        return;
    free(st->ops);
    free(st);
}

cg_radeon_gen cg_radeon_asm_gen(const cg_radeon_asm *st) { return st->final_gen; }
size_t cg_radeon_asm_action_count(const cg_radeon_asm *st) { return st->nactions; }

/* The scene's configuration as it stands (in the order captures store it). */
static void record_config(cg_radeon_asm *st)
{
    if (!st->final || !st->scene)
        return;
    cg_scene_set_config(st->scene, RD_CFG_GEN, (uint64_t)st->final_gen);
    cg_scene_set_config(st->scene, RD_CFG_LENIENT, st->lenient);
    cg_scene_set_config(st->scene, RD_CFG_RING_BYTES, st->ring_bytes);
}

static void begin_pass(cg_asm *as, void *user, int pass, bool final)
{
    cg_radeon_asm *st = user;
    st->gen = st->default_gen;
    st->gen_set = false;
    st->final = final;
    st->nactions = 0;
    st->ring_bytes = 0;
    st->lenient = false;
    if (final) {
        st->final_gen = st->default_gen;
        cg_scene_clear(st->scene);
        record_config(st);
    }
    /* The model's register names as symbols, usable in any expression
     * (SCRATCH_REG1, CB_COLOR0_BASE+8); operands also take every register
     * name of the current generation's table (see operand()). */
    size_t n;
    const cg_def_entry *e = rd_reg_table(&n);
    for (size_t i = 0; i < n; i++)
        cg_asm_define(as, e[i].name, e[i].offset);
}

/* Whether `name` is one of the model's registers (regs.def), predefined as
 * a symbol with its R600 offset; *off gets that offset. */
static bool model_reg(const char *name, uint32_t *off)
{
    size_t n;
    const cg_def_entry *e = rd_reg_table(&n);
    for (size_t i = 0; i < n; i++)
        if (strcmp(e[i].name, name) == 0) {
            *off = e[i].offset;
            return true;
        }
    return false;
}

/* One operand: an expression, in which the model's registers are symbols
 * (SCRATCH_REG1 >> 2); or a register name of the generation's table that
 * is no symbol, or whose offset in this generation differs from the R600
 * symbol (Evergreen's CB_COLOR0_BASE is 0x28C60): then NAME, optionally
 * followed by + and an expression (NAME+8 is NAME + 8; other operators after
 * such a name are errors). */
static int operand(cg_asm *as, cg_radeon_asm *st, int64_t *v)
{
    char id[96];
    uint32_t reg, off;
    int64_t sym;
    if (cg_asm_peek_ident(as, id, sizeof id) && rd_reg_by_name(st->gen, id, strlen(id), &reg) &&
        (!cg_asm_symbol(as, id, &sym) || (model_reg(id, &off) && off != reg))) {
        int rc = cg_asm_ident(as, id, sizeof id);
        if (rc)
            return rc;
        *v = reg;
        int64_t x = 0;
        if (cg_asm_accept(as, '+')) {
            if ((rc = cg_asm_expr(as, &x)) != 0)
                return rc;
            *v += x;
        }
        return 0;
    }
    return cg_asm_expr(as, v);
}

/* Operands: operand {, operand}. */
static int operands(cg_asm *as, cg_radeon_asm *st, size_t *n)
{
    *n = 0;
    if (cg_asm_eol(as))
        return 0;
    do {
        if (*n >= MAX_OPERANDS)
            return cg_asm_error(as, "too many operands (a packet holds at most 16384 dwords)");
        int rc = operand(as, st, &st->ops[*n]);
        if (rc)
            return rc;
        (*n)++;
    } while (cg_asm_accept(as, ','));
    return 0;
}

static int dword(cg_asm *as, int64_t v, uint32_t *out)
{
    if (v < -(int64_t)0x80000000 || v > (int64_t)0xFFFFFFFF)
        return cg_asm_error(as, "value %lld does not fit in a dword", (long long)v);
    *out = (uint32_t)v;
    return 0;
}

static int emit_words(cg_asm *as, const int64_t *v, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        uint32_t w = 0;
        int rc = dword(as, v[i], &w);
        if (rc)
            return rc;
        if ((rc = cg_asm_emit32(as, w)) != 0)
            return rc;
    }
    return 0;
}

static bool ieq(const char *a, const char *b)
{
    for (; *a && *b; a++, b++) {
        char x = *a, y = *b;
        if (x >= 'a' && x <= 'z')
            x = (char)(x - 32);
        if (y >= 'a' && y <= 'z')
            y = (char)(y - 32);
        if (x != y)
            return false;
    }
    return *a == *b;
}

static int need_count(cg_asm *as, const char *name, size_t n, size_t min)
{
    if (n < min)
        return cg_asm_error(as, "%s needs at least %zu operand%s", name, min, min == 1 ? "" : "s");
    if (n - 1 > 0x3FFF + (min == 1 ? 0 : 1))
        return cg_asm_error(as, "%s: too many operands for the 14-bit count", name);
    return 0;
}

static int add_action(cg_asm *as, cg_radeon_asm *st, int kind, int64_t a, int64_t b,
                      const char *sec)
{
    if (!st->final)
        return 0;
    if (st->nactions == 65536)
        return cg_asm_error(as, "too many scene actions");
    st->nactions++;
    if (!st->scene)
        return 0;
    const cg_scene_kind *k = cg_scene_kind_of(cg_scene_family(st->scene), (uint32_t)kind);
    cg_scene_action x = {.type = k->role, .kind = (uint32_t)kind, .a = a, .b = b,
                         .str1 = sec, .str1_len = sec ? strlen(sec) : 0};
    return cg_scene_add_action(st->scene, &x) == 0 ? 0 : cg_asm_error(as, "out of memory");
}

/* The scene directives, from the action table: a number of operands, or -1
 * for one section name. .ring and .lenient set the configuration. */
static const struct {
    const char *name;
    int kind, nargs;
} scene_dirs[] = {
    {".ring", ACT_NONE, 1},
    {".lenient", ACT_NONE, 0},
#define RD_X_DIR(name, code, dir, role, nargs, sane) {dir, ACT_##name, nargs},
    RD_SCENE_ACTIONS(RD_X_DIR)
#undef RD_X_DIR
};

static int directive(cg_asm *as, cg_radeon_asm *st, const char *name)
{
    if (ieq(name, ".gen")) {
        char g[32];
        int rc = cg_asm_ident(as, g, sizeof g);
        if (rc)
            return rc;
        cg_radeon_gen gen;
        if (cg_radeon_gen_from_name(g, &gen) != 0)
            return cg_asm_error(as, "unknown generation '%s' (r600, r700, evergreen, r500)", g);
        st->gen = gen;
        if (st->final && !st->gen_set) {
            st->final_gen = gen; /* the first .gen names the scene's generation */
            record_config(st);
        }
        st->gen_set = true;
        return 0;
    }
    for (size_t i = 0; i < sizeof(scene_dirs) / sizeof(scene_dirs[0]); i++) {
        if (!ieq(name, scene_dirs[i].name))
            continue;
        if (scene_dirs[i].nargs < 0) {
            char sec[RD_SECTION_MAX + 1];
            int rc = cg_asm_ident(as, sec, sizeof sec);
            if (rc)
                return rc;
            return add_action(as, st, scene_dirs[i].kind, 0, 0, sec);
        }
        int64_t v[2] = {0, 0};
        for (int k = 0; k < scene_dirs[i].nargs; k++) {
            if (k && cg_asm_expect(as, ','))
                return CG_ERR_SYNTAX;
            int rc = operand(as, st, &v[k]);
            if (rc)
                return rc;
        }
        if (ieq(name, ".ring")) {
            if (v[0] < 256 || v[0] > (8 << 22) || (v[0] & (v[0] - 1)))
                return cg_asm_error(as, ".ring takes a power of two from 256 to 32 MiB bytes");
            st->ring_bytes = (uint32_t)v[0];
            record_config(st);
            return 0;
        }
        if (ieq(name, ".lenient")) {
            st->lenient = true;
            record_config(st);
            return 0;
        }
        if (scene_dirs[i].kind == ACT_DUMP && st->final && (v[1] < 1 || v[1] > 65536))
            return cg_asm_error(as, ".dump takes 1 to 65536 dwords");
        if ((scene_dirs[i].kind == ACT_MAP || scene_dirs[i].kind == ACT_MAP_RO) && st->final &&
            (v[0] < 0 || v[1] <= 0 || v[1] > (64 << 20) || (v[0] | v[1]) % CG_PAGE_SIZE ||
             v[0] > (1ll << 40) - v[1]))
            return cg_asm_error(as, "%s takes a page-aligned address and 1 page to 64 MiB inside "
                                    "the 40-bit address space", name);
        if (scene_dirs[i].kind == ACT_FENCE_SEQ && v[0] < 0)
            return cg_asm_error(as, ".fence_seq takes a sequence number from 0 to 2^63-1");
        return add_action(as, st, scene_dirs[i].kind, v[0], v[1], NULL);
    }
    return CG_ERR_NOENT;
}

static int statement(cg_asm *as, void *user, const char *name)
{
    cg_radeon_asm *st = user;
    if (name[0] == '.')
        return directive(as, st, name);
    size_t n;
    int rc;
    bool r500 = st->gen == CG_RADEON_R500;
    if (ieq(name, "packet2")) {
        int64_t pad = 0;
        if (!cg_asm_eol(as) && (rc = cg_asm_expr(as, &pad)) != 0)
            return rc;
        if (pad < 0 || pad > 0x3FFFFFFF)
            return cg_asm_error(as, "packet2 pad 0x%llx does not fit in 30 bits", (long long)pad);
        return cg_asm_emit32(as, CG_RADEON_PACKET2((uint32_t)pad));
    }
    bool is_p0 = ieq(name, "packet0"), is_p0one = ieq(name, "packet0.one");
    if (is_p0 || is_p0one || ieq(name, "packet1") || ieq(name, "packet3")) {
        if ((rc = operands(as, st, &n)) != 0)
            return rc;
        int64_t *v = st->ops;
        if (is_p0 || is_p0one) {
            if ((rc = need_count(as, name, n, 2)) != 0)
                return rc;
            if (is_p0one && !r500)
                return cg_asm_error(as, "packet0.one (ONE_REG_WR) exists only on r500");
            int64_t lim = r500 ? 0x8000 : 0x40000;
            if (v[0] < 0 || v[0] >= lim || (v[0] & 3))
                return cg_asm_error(as, "packet0 register 0x%llx: needs a dword offset below 0x%llx",
                                    (long long)v[0], (long long)lim);
            uint32_t h = CG_RADEON_PACKET0((uint32_t)v[0], (uint32_t)(n - 2));
            if (is_p0one)
                h |= 1u << 15;
            if ((rc = cg_asm_emit32(as, h)) != 0)
                return rc;
            return emit_words(as, v + 1, n - 1);
        }
        if (ieq(name, "packet1")) {
            if (!r500)
                return cg_asm_error(as, "packet1 exists only on r500 (R600 faults on type 1)");
            if (n != 4)
                return cg_asm_error(as, "packet1 takes REG0, REG1, VALUE0, VALUE1");
            for (int k = 0; k < 2; k++)
                if (v[k] < 0 || v[k] >= 0x2000 || (v[k] & 3))
                    return cg_asm_error(as, "packet1 register 0x%llx: needs a dword offset below 0x2000",
                                        (long long)v[k]);
            uint32_t h = 0x40000000u | (uint32_t)(v[0] >> 2) | ((uint32_t)(v[1] >> 2) << 11);
            if ((rc = cg_asm_emit32(as, h)) != 0)
                return rc;
            return emit_words(as, v + 2, 2);
        }
        /* packet3 OPCODE, payload... */
        if ((rc = need_count(as, name, n, 2)) != 0)
            return rc;
        if (v[0] < 0 || v[0] > 255)
            return cg_asm_error(as, "packet3 opcode %lld is not 0..255", (long long)v[0]);
        if ((rc = cg_asm_emit32(as, CG_RADEON_PACKET3((uint32_t)v[0], (uint32_t)(n - 2)))) != 0)
            return rc;
        return emit_words(as, v + 1, n - 1);
    }
    /* A type-3 mnemonic of the current generation. */
    unsigned op;
    if (cg_radeon_opcode_by_name(st->gen, name, &op) != 0)
        return CG_ERR_NOENT;
    if ((rc = operands(as, st, &n)) != 0)
        return rc;
    if ((rc = need_count(as, name, n, 1)) != 0)
        return rc;
    int64_t *v = st->ops;
    const p3_desc *d = &rd_p3_table(st->gen)[op];
    if (d->kind == P3K_SET) {
        uint32_t ws, we;
        if (!rd_window(st->gen, op, &ws, &we))
            return cg_asm_error(as, "%s has no register window on %s", name, cg_radeon_gen_name(st->gen));
        int64_t reg = v[0];
        if (cg_asm_final_pass(as) && (reg < ws || reg >= we || (reg & 3)))
            return cg_asm_error(as, "%s: register 0x%llx is not in its window [0x%x, 0x%x)", name,
                                (long long)reg, ws, we);
        v[0] = reg >= ws && reg < we ? (reg - (int64_t)ws) / 4 : 0; /* estimates: checked above */
    }
    if ((rc = cg_asm_emit32(as, CG_RADEON_PACKET3(op, (uint32_t)(n - 1)))) != 0)
        return rc;
    return emit_words(as, v, n);
}

static const cg_asm_family radeon_asm_family = {
    .name = "radeon",
    .statement = statement,
    .begin_pass = begin_pass,
};

const cg_asm_family *cg_radeon_asm_family(void) { return &radeon_asm_family; }

int rd_gen_of(const cg_text_opts *o, cg_radeon_gen *g, char *msg, size_t cap)
{
    *g = CG_RADEON_R600;
    if (o && o->gen && cg_radeon_gen_from_name(o->gen, g) != 0) {
        snprintf(msg, cap, "--gen: unknown radeon generation '%s' (r600, r700, evergreen, r500)",
                 o->gen);
        return CG_ERR_INVAL;
    }
    return 0;
}

static void free_state(void *st) { cg_radeon_asm_destroy(st); }

int rd_scene_assembler(const cg_text_opts *o, cg_scene *sc, cg_asm **out)
{
    char msg[128];
    cg_radeon_gen g;
    cg_radeon_asm *st = NULL;
    int rc = rd_gen_of(o, &g, msg, sizeof msg);
    if (!rc)
        rc = cg_radeon_asm_create(g, &st);
    if (!rc)
        rc = cg_asm_create(&radeon_asm_family, st, out);
    if (rc) {
        cg_radeon_asm_destroy(st);
        return rc;
    }
    st->scene = sc;
    cg_asm_own_user(*out, free_state);
    return 0;
}
