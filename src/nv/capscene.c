/* nv family: recording a scene into a CMDGPUCAP capture and replaying one
 * (include/cmdgpu/capfile.h, docs/capture-format.md). The capture holds
 * the sections (memory the CPU writes into the .buffer mappings before the
 * first submission) and the scene's calls in order: .buffer (nvmap
 * create/alloc + address-space map), .channel, .submit (one GPFIFO entry
 * with its fence flags), .run/.finish/.wait, CPU writes and checks; replay
 * plays them with the same runner (nv_scene_play). */
#include <stdlib.h>
#include <string.h>
#include "core/capfile_internal.h"
#include "nv/text/nv_asm_internal.h"

/* X(action, record type): the NV_ACT_* code is the action code in the file. */
#define NV_CAP_ACTIONS(X)                                                                    \
    X(NV_ACT_BUFFER, MAPPING) X(NV_ACT_CHANNEL, SYNC) X(NV_ACT_SUBMIT, SUBMIT)               \
    X(NV_ACT_RUN, SYNC) X(NV_ACT_FINISH, SYNC) X(NV_ACT_WAIT, SYNC)                          \
    X(NV_ACT_CPU_WRITE32, CPU) X(NV_ACT_EXPECT32, CHECK) X(NV_ACT_DUMP, CHECK)               \
    X(NV_ACT_PNG, CHECK)

static uint32_t rec_type(uint32_t kind)
{
    switch (kind) {
#define CG_X_CASE(act, type) case act: return CG_CAPREC_##type;
        NV_CAP_ACTIONS(CG_X_CASE)
#undef CG_X_CASE
    default: return 0;
    }
}

/* The action's name in listings: the scene directive's ACT code name. */
const char *cg_nv_capfile_action_name(uint32_t kind)
{
    switch (kind) {
#define CG_X_NAME(act, type) case act: return #act;
        NV_CAP_ACTIONS(CG_X_NAME)
#undef CG_X_NAME
    default: return "?";
    }
}

int cg_nv_scene_capture(const char *path, const char *text, size_t len, cg_capfile_writer *w)
{
    if (!w || (!text && !path))
        return CG_ERR_INVAL;
    cg_nv_asm *na = NULL;
    cg_asm *as = NULL;
    int rc = nv_scene_assemble(path, text, len, NULL, &na, &as);
    if (rc)
        return rc;
    for (size_t i = 0; i < cg_asm_section_count(as); i++) {
        const char *name;
        uint64_t base;
        const uint8_t *data;
        size_t size;
        cg_asm_section(as, i, &name, &base, &data, &size);
        cg_capfile_write_memory(w, base, 0, name, data, size);
    }
    for (size_t i = 0; rc == 0 && i < na->nacts; i++) {
        const nv_act *a = &na->acts[i];
        cg_capfile_action r = {.type = rec_type(a->kind), .kind = (uint32_t)a->kind,
                               .a = (int64_t)a->a, .b = (int64_t)a->b, .c = (int64_t)a->c,
                               .d = (int64_t)a->d, .s1 = a->wait_slot, .s2 = a->fence_slot,
                               .str1 = a->name, .str1_len = strlen(a->name),
                               .str2 = a->path, .str2_len = strlen(a->path)};
        if (!r.type)
            rc = CG_ERR_INVAL;
        else
            cg_capfile_write_action(w, &r);
    }
    cg_asm_destroy(as);
    cg_nv_asm_free(na);
    return rc;
}

/* What the assembler lets through, where a hostile value would index out
 * of range or allocate without bound. */
static bool sane(const nv_act *a)
{
    if (a->wait_slot < -1 || a->wait_slot >= NV_SCENE_FENCES || a->fence_slot < -1 ||
        a->fence_slot >= NV_SCENE_FENCES)
        return false;
    switch (a->kind) {
    case NV_ACT_CHANNEL: return a->a < 8;
    case NV_ACT_WAIT: return a->a < NV_SCENE_FENCES;
    case NV_ACT_SUBMIT: return a->b >= a->a;
    case NV_ACT_DUMP: return a->b <= (256u << 20);
    case NV_ACT_PNG: {
        uint64_t h = a->b >> 32, w = (uint32_t)a->b;
        return a->c <= (1u << 20) && h <= (1u << 16) && w <= (1u << 16) && a->c * h <= (256u << 20);
    }
    default: return true;
    }
}

int cg_nv_capfile_run(const cg_capfile *c, cg_device *dev, const cg_nv_scene_opts *o,
                      cg_nv_draw_fn fn, void *user)
{
    if (!c || !dev)
        return CG_ERR_INVAL;
    if (c->family != CG_FAMILY_NV)
        return CG_ERR_SYNTAX;
    cg_nv_asm *na = NULL;
    cg_asm *as = NULL;
    int rc = cg_nv_asm_new(NULL, &na);
    if (rc)
        return rc;
    if (c->nact && !(na->acts = calloc(c->nact, sizeof *na->acts)))
        rc = CG_ERR_NOMEM;
    for (size_t i = 0; rc == 0 && i < c->nact; i++) {
        const cg_capfile_action *x = &c->act[i];
        nv_act *a = &na->acts[i];
        *a = (nv_act){.kind = (nv_act_kind)x->kind, .a = (uint64_t)x->a, .b = (uint64_t)x->b,
                      .c = (uint64_t)x->c, .d = (uint64_t)x->d, .wait_slot = x->s1,
                      .fence_slot = x->s2};
        if (rec_type(x->kind) != x->type ||
            !cg_capfile_str(x->str1, x->str1_len, a->name, sizeof a->name) ||
            !cg_capfile_str(x->str2, x->str2_len, a->path, sizeof a->path) || !sane(a))
            rc = CG_ERR_SYNTAX;
        else
            na->nacts = na->cap = i + 1;
    }
    if (rc == 0)
        rc = cg_capfile_asm(c, &as);
    if (rc) {
        cg_asm_destroy(as);
        cg_nv_asm_free(na);
        return rc;
    }
    char name[512];
    if (!c->name || !cg_capfile_str(c->name, c->name_len, name, sizeof name))
        snprintf(name, sizeof name, "scene");
    return nv_scene_play(dev, name, 0, na, as, o, fn, user);
}
