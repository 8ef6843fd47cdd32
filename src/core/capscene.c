/* core: scenes to and from CMDGPUCAP captures (include/cmdgpu/capfile.h,
 * docs/capture-format.md). A scene and a capture hold the same things:
 * configuration values, memory (the sections) and the CPU's calls; these
 * two functions copy one into the other for every family alike. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmdgpu/capfile.h"
#include "cmdgpu/family.h"
#include "internal.h"

int cg_scene_capture(const cg_scene *sc, cg_capfile_writer *w)
{
    if (!sc || !w)
        return CG_ERR_INVAL;
    for (size_t i = 0; i < cg_scene_config_count(sc); i++) {
        uint32_t key;
        uint64_t v;
        cg_scene_config_at(sc, i, &key, &v);
        cg_capfile_write_config(w, key, v);
    }
    const cg_asm *as = cg_scene_sections(sc);
    for (size_t i = 0; i < cg_asm_section_count(as); i++) {
        const char *name;
        uint64_t base;
        const uint8_t *data;
        size_t size;
        cg_asm_section(as, i, &name, &base, &data, &size);
        cg_capfile_write_memory(w, base, 0, name, data, size);
    }
    for (size_t i = 0; i < cg_scene_action_count(sc); i++)
        cg_capfile_write_action(w, cg_scene_action_at(sc, i));
    return 0;
}

/* Is key one of the family's scene configuration keys? */
static bool family_key(const cg_scene_ops *ops, uint32_t key)
{
    for (size_t i = 0; i < ops->nconfig; i++)
        if (ops->config[i].key == key)
            return true;
    return false;
}

#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
static int bad(cg_capture_error *e, size_t offset, const char *fmt, ...)
{
    if (e) {
        va_list ap;
        va_start(ap, fmt);
        e->offset = offset;
        vsnprintf(e->msg, sizeof e->msg, fmt, ap);
        va_end(ap);
    }
    return CG_ERR_SYNTAX;
}

static const char *role_name(uint32_t type)
{
    switch (type) {
#define CG_X_NAME(id, code, name) case code: return name;
        CG_SCENE_ROLE_TABLE(CG_X_NAME)
#undef CG_X_NAME
    default: return "?";
    }
}

/* The memory records as sections: each named once, printable, space 0. */
static int capfile_sections(const cg_capfile *c, cg_asm **out, cg_capture_error *e)
{
    int rc = cg_asm_create(NULL, NULL, out);
    char name[256];
    for (size_t i = 0; rc == 0 && i < c->nmem; i++) {
        const cg_capfile_mem *m = &c->mem[i];
        if (m->space != 0)
            rc = bad(e, m->offset, "memory record in address space %u (only 0 is known)", m->space);
        else if (m->name_len >= sizeof name)
            rc = bad(e, m->offset, "memory record named with %zu bytes (at most %zu)", m->name_len,
                     sizeof name - 1);
        else {
            memcpy(name, m->name, m->name_len);
            name[m->name_len] = 0;
            rc = cg_asm_add_section(*out, name, m->addr, m->data, m->size);
            if (rc == CG_ERR_INVAL)
                rc = bad(e, m->offset, "memory record '%.64s': a second section of that name, or "
                         "one the assembler refuses", name);
        }
    }
    if (rc) {
        cg_asm_destroy(*out);
        *out = NULL;
    }
    return rc;
}

int cg_scene_from_capfile(const cg_capfile *c, cg_scene **out)
{
    return cg_scene_from_capfile_ex(c, out, NULL);
}

int cg_scene_from_capfile_ex(const cg_capfile *c, cg_scene **out, cg_capture_error *e)
{
    *out = NULL;
    if (!c)
        return CG_ERR_INVAL;
    const cg_family_desc *fam = cg_family_get(c->family);
    if (!fam || !fam->scene)
        return bad(e, 14, "family %d has no scenes", (int)c->family);
    cg_scene *sc = cg__scene_new(fam);
    if (!sc)
        return CG_ERR_NOMEM;
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < c->ncfg; i++) {
        uint32_t key = (uint32_t)c->config[20 * i] | (uint32_t)c->config[20 * i + 1] << 8 |
                       (uint32_t)c->config[20 * i + 2] << 16 | (uint32_t)c->config[20 * i + 3] << 24;
        uint64_t v = 0;
        if (family_key(fam->scene, key) && cg_capfile_config(c, key, &v) == 0)
            rc = cg_scene_set_config(sc, key, v);
    }
    for (size_t i = 0; rc == 0 && i < c->nact; i++) {
        const cg_scene_action *x = &c->act[i];
        if (x->type == CG_SCENE_DATA) {
            rc = cg_scene_add_action(sc, x);
            continue;
        }
        const cg_scene_kind *k = cg_scene_kind_of(fam, x->kind);
        if (!k)
            rc = bad(e, x->offset, "%s record: %s has no action code %u", role_name(x->type),
                     fam->name, x->kind);
        else if ((uint32_t)k->role != x->type)
            rc = bad(e, x->offset, "%s record: action %u (%s) belongs in a %s record",
                     role_name(x->type), x->kind, k->name, role_name((uint32_t)k->role));
        else if (x->str1_len > k->str1_max || x->str2_len > k->str2_max)
            rc = bad(e, x->offset, "action %u (%s): a string of %zu bytes (at most %u)", x->kind,
                     k->name, x->str1_len > k->str1_max ? x->str1_len : x->str2_len,
                     x->str1_len > k->str1_max ? k->str1_max : k->str2_max);
        else if (k->sane && !k->sane(x))
            rc = bad(e, x->offset, "action %u (%s): operands outside what the assembler lets "
                     "through", x->kind, k->name);
        else
            rc = cg_scene_add_action(sc, x);
    }
    cg_asm *as = NULL;
    if (rc == 0 && (rc = capfile_sections(c, &as, e)) == 0)
        cg__scene_set_sections(sc, as);
    if (rc) {
        cg_scene_destroy(sc);
        return rc;
    }
    *out = sc;
    return 0;
}

int cg_capfile_run(const cg_capfile *c, cg_device *dev, const cg_scene_opts *o)
{
    cg_scene *sc = NULL;
    int rc = cg_scene_from_capfile(c, &sc);
    if (rc)
        return rc;
    cg_scene_opts x = o ? *o : (cg_scene_opts){0};
    x.confine_outputs = true; /* a capture's file names are data (scene.h) */
    char name[512];
    if (!x.name && c->name && cg_scene_str(c->name, c->name_len, name, sizeof name))
        x.name = name;
    rc = cg_scene_run(sc, dev, &x);
    cg_scene_destroy(sc);
    return rc;
}
