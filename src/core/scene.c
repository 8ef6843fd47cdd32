/* core: scenes (include/cmdgpu/scene.h): the object an assembler or a
 * capture fills, and the one runner every family's scenes go through. */
#include <stdlib.h>
#include <string.h>
#include "cmdgpu/family.h"
#include "internal.h"

/* Strings of the actions live in chunks that never move, so the actions
 * can point at them while more are added. */
typedef struct str_chunk {
    struct str_chunk *next;
    size_t used, cap;
    char data[];
} str_chunk;

typedef struct config_value {
    uint32_t key;
    uint64_t value;
} config_value;

struct cg_scene {
    const cg_family_desc *fam;
    cg_asm *as;          /* the sections (and, when assembled, the assembler) */
    char *errors;        /* the assembler's error lines */
    cg_scene_action *acts;
    size_t nacts, capacts;
    config_value *cfg;
    size_t ncfg, capcfg;
    str_chunk *strs;
};

cg_scene *cg__scene_new(const cg_family_desc *fam)
{
    cg_scene *sc = calloc(1, sizeof *sc);
    if (sc)
        sc->fam = fam;
    return sc;
}

void cg__scene_set_sections(cg_scene *sc, cg_asm *as)
{
    cg_asm_destroy(sc->as);
    sc->as = as;
}

static void free_strs(cg_scene *sc)
{
    while (sc->strs) {
        str_chunk *n = sc->strs->next;
        free(sc->strs);
        sc->strs = n;
    }
}

void cg_scene_clear(cg_scene *sc)
{
    if (!sc)
        return;
    free_strs(sc);
    sc->nacts = 0;
    sc->ncfg = 0;
}

void cg_scene_destroy(cg_scene *sc)
{
    if (!sc)
        return;
    /* the assembler owns the family's state, which may point at sc: first */
    cg_asm_destroy(sc->as);
    free_strs(sc);
    free(sc->acts);
    free(sc->cfg);
    free(sc->errors);
    free(sc);
}

const char *cg_scene_errors(const cg_scene *sc)
{
    return sc && sc->errors ? sc->errors : "";
}

const cg_family_desc *cg_scene_family(const cg_scene *sc) { return sc ? sc->fam : NULL; }
const cg_asm *cg_scene_sections(const cg_scene *sc) { return sc ? sc->as : NULL; }
size_t cg_scene_action_count(const cg_scene *sc) { return sc ? sc->nacts : 0; }

const cg_scene_action *cg_scene_action_at(const cg_scene *sc, size_t i)
{
    return sc && i < sc->nacts ? &sc->acts[i] : NULL;
}

int cg_scene_config(const cg_scene *sc, uint32_t key, uint64_t *value)
{
    for (size_t i = 0; sc && i < sc->ncfg; i++)
        if (sc->cfg[i].key == key) {
            *value = sc->cfg[i].value;
            return 0;
        }
    return CG_ERR_NOENT;
}

size_t cg_scene_config_count(const cg_scene *sc) { return sc ? sc->ncfg : 0; }

void cg_scene_config_at(const cg_scene *sc, size_t i, uint32_t *key, uint64_t *value)
{
    *key = i < sc->ncfg ? sc->cfg[i].key : 0;
    *value = i < sc->ncfg ? sc->cfg[i].value : 0;
}

int cg_scene_set_config(cg_scene *sc, uint32_t key, uint64_t value)
{
    if (!sc)
        return CG_ERR_INVAL;
    for (size_t i = 0; i < sc->ncfg; i++)
        if (sc->cfg[i].key == key) {
            sc->cfg[i].value = value;
            return 0;
        }
    if (sc->ncfg == sc->capcfg) {
        size_t cap = sc->capcfg ? 2 * sc->capcfg : 8;
        config_value *n = realloc(sc->cfg, cap * sizeof *n);
        if (!n)
            return CG_ERR_NOMEM;
        sc->cfg = n;
        sc->capcfg = cap;
    }
    sc->cfg[sc->ncfg++] = (config_value){key, value};
    return 0;
}

const cg_scene_kind *cg_scene_kind_of(const cg_family_desc *fam, uint32_t code)
{
    const cg_scene_ops *ops = fam ? fam->scene : NULL;
    for (size_t i = 0; ops && i < ops->nkinds; i++)
        if (ops->kinds[i].code == code)
            return &ops->kinds[i];
    return NULL;
}

bool cg_scene_str(const char *s, size_t n, char *buf, size_t cap)
{
    if (n >= cap)
        return false;
    if (n)
        memcpy(buf, s, n);
    buf[n] = 0;
    return true;
}

/* A copy of s[0, n) in the scene's string chunks (NUL-terminated). */
static const char *keep_str(cg_scene *sc, const char *s, size_t n)
{
    if (!n)
        return "";
    str_chunk *c = sc->strs;
    if (!c || c->cap - c->used < n + 1) {
        size_t cap = n + 1 > 16384 ? n + 1 : 16384;
        c = malloc(sizeof *c + cap);
        if (!c)
            return NULL;
        c->used = 0;
        c->cap = cap;
        c->next = sc->strs;
        sc->strs = c;
    }
    char *p = c->data + c->used;
    memcpy(p, s, n);
    p[n] = 0;
    c->used += n + 1;
    return p;
}

int cg_scene_add_action(cg_scene *sc, const cg_scene_action *a)
{
    if (!sc || !a)
        return CG_ERR_INVAL;
    if (a->type == CG_SCENE_DATA ? a->kind != 0 || a->str1_len || a->str2_len
                                 : !cg_scene_kind_of(sc->fam, a->kind))
        return CG_ERR_INVAL;
    if (sc->nacts == sc->capacts) {
        size_t cap = sc->capacts ? 2 * sc->capacts : 16;
        cg_scene_action *n = cap > SIZE_MAX / sizeof *n ? NULL : realloc(sc->acts, cap * sizeof *n);
        if (!n)
            return CG_ERR_NOMEM;
        sc->acts = n;
        sc->capacts = cap;
    }
    cg_scene_action x = *a;
    x.str1 = keep_str(sc, a->str1, a->str1 ? a->str1_len : 0);
    x.str2 = keep_str(sc, a->str2, a->str2 ? a->str2_len : 0);
    x.str1_len = a->str1 ? a->str1_len : 0;
    x.str2_len = a->str2 ? a->str2_len : 0;
    x.data_len = a->data ? a->data_len : 0;
    x.data = x.data_len ? (const uint8_t *)keep_str(sc, (const char *)a->data, x.data_len) : NULL;
    if (!x.str1 || !x.str2 || (x.data_len && !x.data))
        return CG_ERR_NOMEM;
    x.index = (uint32_t)sc->nacts;
    sc->acts[sc->nacts++] = x;
    return 0;
}

int cg_scene_assemble(const cg_family_desc *fam, const cg_text_opts *o, const char *path,
                      const char *text, size_t len, cg_scene **out)
{
    *out = NULL;
    if (!fam || (!text && !path))
        return CG_ERR_INVAL;
    if (!fam->scene || !fam->scene->assembler)
        return CG_ERR_UNSUPPORTED;
    cg_text_opts none = {0};
    cg_scene *sc = cg__scene_new(fam);
    cg_asm *as = NULL;
    int rc = sc ? fam->scene->assembler(o ? o : &none, sc, &as) : CG_ERR_NOMEM;
    if (rc == 0) {
        sc->as = as;
        rc = text ? cg_asm_add_source(as, path ? path : "scene", text, len)
                  : cg_asm_add_file(as, path);
    }
    if (rc == 0 && cg_asm_assemble(as) != 0) {
        sc->errors = strdup(cg_asm_errors(as));
        rc = sc->errors ? CG_ERR_SYNTAX : CG_ERR_NOMEM;
        if (rc == CG_ERR_SYNTAX) {
            *out = sc;
            return rc;
        }
    }
    if (rc) {
        cg_scene_destroy(sc);
        return rc;
    }
    *out = sc;
    return 0;
}

/* ---- the files actions name ----------------------------------------------- */

int cg_scene_out_path(const cg_scene_opts *o, const char *name, char *buf, size_t cap,
                      const char **why)
{
    static const char *const no_dir = "not written: a recorded output (--out DIR writes it there)";
    static const char *const unsafe = "not written: a recorded name that is no safe file name";
    const char *dir = o ? o->out_dir : NULL;
    if (why)
        *why = NULL;
    if (!cap)
        return 1;
    if (strcmp(name, "-") == 0 || !o || !o->confine_outputs) {
        if (strcmp(name, "-") == 0 || name[0] == '/' || !dir)
            snprintf(buf, cap, "%s", name);
        else
            snprintf(buf, cap, "%s/%s", dir, name);
        return 0;
    }
    const char *base = strrchr(name, '/');
    base = base ? base + 1 : name;
    bool safe = base[0] && strcmp(base, ".") != 0 && strcmp(base, "..") != 0;
    for (const char *p = base; safe && *p; p++)
        safe = *p >= 0x20 && *p < 0x7f && *p != '\\';
    int n = safe && dir ? snprintf(buf, cap, "%s/%s", dir, base) : -1;
    if (n >= 0 && (size_t)n < cap)
        return 0;
    if (why)
        *why = safe && !dir ? no_dir : unsafe;
    /* buf: the recorded name as a log line may show it */
    size_t k = 0;
    for (const char *p = name; *p && k + 1 < cap; p++)
        buf[k++] = *p >= 0x20 && *p < 0x7f ? *p : '?';
    buf[k] = 0;
    return 1;
}

/* ---- the runner ------------------------------------------------------------ */

int cg_scene_run(const cg_scene *sc, cg_device *dev, const cg_scene_opts *o)
{
    if (!sc || !dev || !sc->as)
        return CG_ERR_INVAL;
    const cg_scene_ops *ops = sc->fam ? sc->fam->scene : NULL;
    if (!ops)
        return CG_ERR_UNSUPPORTED;
    cg_scene_opts none = {0};
    if (!o)
        o = &none;
    unsigned asked = (o->frame_png || o->frame_hash ? CG_SCENE_OPT_FRAME : 0) |
                     (o->ndumps ? CG_SCENE_OPT_DUMPS : 0) |
                     (o->draws || o->textures_dir || o->draw_fn ? CG_SCENE_OPT_DRAWS : 0) |
                     (o->out_dir ? CG_SCENE_OPT_OUT_DIR : 0);
    if (asked & ~ops->takes)
        return CG_ERR_UNSUPPORTED;
    void *run = NULL;
    int rc = ops->open(sc, dev, o, &run);
    if (rc)
        return rc;
    /* 1. mappings, 2. sections: a failure (1) is logged and the phase goes
     * on, so every bad one is named; no action runs after it. */
    bool failed = false;
    for (size_t i = 0; rc == 0 && i < sc->nacts; i++)
        if (sc->acts[i].type == CG_SCENE_MAPPING && ops->map) {
            int r = ops->map(run, &sc->acts[i]);
            if (r < 0)
                rc = r;
            failed |= r > 0;
        }
    for (size_t i = 0; rc == 0 && i < cg_asm_section_count(sc->as); i++) {
        const char *name;
        uint64_t base;
        const uint8_t *data;
        size_t size;
        cg_asm_section(sc->as, i, &name, &base, &data, &size);
        if (!size)
            continue;
        int r = ops->place(run, name, base, data, size);
        if (r < 0)
            rc = r;
        failed |= r > 0;
    }
    /* 3. the actions, until one fails */
    for (size_t i = 0; rc == 0 && !failed && i < sc->nacts; i++) {
        const cg_scene_action *x = &sc->acts[i];
        if (x->type == CG_SCENE_DATA)
            rc = x->data_len ? ops->place(run, "cpu data", (uint64_t)x->a, x->data, x->data_len) : 0;
        else
            rc = ops->act(run, x);
    }
    if (rc == 0 && failed)
        rc = 1;
    int result = ops->finish(run, rc);
    cg__scene_end(dev, ops->peek, run); /* a capture hashes the final memory */
    ops->close(run);
    return result;
}

int cg__asm_load(cg_asm *as, const char *path, FILE *errors, char *msg, size_t cap)
{
    int rc = cg_asm_add_file(as, path);
    if (rc == CG_ERR_RANGE)
        snprintf(msg, cap, "cannot read '%s': larger than %d MiB, the cap for a source "
                 "(docs/faults.md)", path, 256);
    else if (rc)
    {
        char why[128];
        snprintf(msg, cap, "cannot read '%s': %s", path, cg_file_why(path, rc, why, sizeof why));
    }
    else if (cg_asm_assemble(as) != 0) {
        if (errors)
            fputs(cg_asm_errors(as), errors);
        rc = CG_ERR_SYNTAX;
    }
    return rc;
}
