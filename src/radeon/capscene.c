/* radeon family: recording a scene into a CMDGPUCAP capture and replaying
 * one (include/cmdgpu/capfile.h, docs/capture-format.md). The capture holds
 * what cg_radeon_scene_run is given: the generation and driver options, the
 * sections (memory the CPU writes before the ring comes up) and the scene's
 * calls in order; replay rebuilds them and runs the same runner, which
 * drives the CP synchronously (no CP thread), so results are identical. */
#include <stdlib.h>
#include <string.h>
#include "core/capfile_internal.h"
#include "scene.h"

/* X(action, record type): every action the radeon scene runner knows,
 * with the record type it is stored as. The action code in the file is the
 * ACT_* value (docs/capture-format.md lists them). */
#define RD_CAP_ACTIONS(X)                                                                    \
    X(ACT_SUBMIT, SUBMIT) X(ACT_IB, SUBMIT) X(ACT_FENCE, SYNC) X(ACT_WAIT, SYNC)             \
    X(ACT_RUN, SYNC) X(ACT_WRITE32, CPU) X(ACT_REG, REGISTER) X(ACT_EXPECT32, CHECK)         \
    X(ACT_EXPECT_REG, CHECK) X(ACT_DUMP, CHECK) X(ACT_RING_TEST, SYNC) X(ACT_IB_TEST, SYNC)  \
    X(ACT_STATUS, CHECK) X(ACT_RECOVER, SYNC) X(ACT_MAP, MAPPING) X(ACT_MAP_RO, MAPPING)     \
    X(ACT_FENCE_SEQ, SYNC)

static uint32_t rec_type(int kind)
{
    switch (kind) {
#define CG_X_CASE(act, type) case act: return CG_CAPREC_##type;
        RD_CAP_ACTIONS(CG_X_CASE)
#undef CG_X_CASE
    default: return 0;
    }
}

/* The action's name in listings: the scene directive's ACT code name. */
const char *cg_radeon_capfile_action_name(uint32_t kind)
{
    switch (kind) {
#define CG_X_NAME(act, type) case act: return #act;
        RD_CAP_ACTIONS(CG_X_NAME)
#undef CG_X_NAME
    default: return "?";
    }
}

int cg_radeon_scene_capture(const cg_radeon_asm *st, const cg_asm *as, cg_capfile_writer *w)
{
    if (!st || !as || !w)
        return CG_ERR_INVAL;
    cg_capfile_write_config(w, CG_CAPCFG_RADEON_GEN, (uint64_t)st->final_gen);
    cg_capfile_write_config(w, CG_CAPCFG_RADEON_LENIENT, st->lenient);
    cg_capfile_write_config(w, CG_CAPCFG_RADEON_RING_BYTES, st->ring_bytes);
    for (size_t i = 0; i < cg_asm_section_count(as); i++) {
        const char *name;
        uint64_t base;
        const uint8_t *data;
        size_t size;
        cg_asm_section(as, i, &name, &base, &data, &size);
        cg_capfile_write_memory(w, base, 0, name, data, size);
    }
    for (size_t i = 0; i < st->nactions; i++) {
        const rd_action *a = &st->actions[i];
        cg_capfile_action r = {.type = rec_type(a->kind), .kind = (uint32_t)a->kind, .a = a->a,
                               .b = a->b, .str1 = a->section, .str1_len = strlen(a->section)};
        if (!r.type)
            return CG_ERR_INVAL;
        cg_capfile_write_action(w, &r);
    }
    return 0;
}

int cg_radeon_capfile_run(const cg_capfile *c, cg_device *dev, FILE *log)
{
    if (!c || !dev || !log)
        return CG_ERR_INVAL;
    if (c->family != CG_FAMILY_RADEON)
        return CG_ERR_SYNTAX;
    uint64_t gen = CG_RADEON_R600, len = 0, ring = 0;
    cg_capfile_config(c, CG_CAPCFG_RADEON_GEN, &gen);
    cg_capfile_config(c, CG_CAPCFG_RADEON_LENIENT, &len);
    cg_capfile_config(c, CG_CAPCFG_RADEON_RING_BYTES, &ring);
    if (gen >= CG_RADEON_GEN_COUNT || ring > UINT32_MAX)
        return CG_ERR_SYNTAX;
    cg_radeon_asm *st = NULL;
    cg_asm *as = NULL;
    int rc = cg_radeon_asm_create((cg_radeon_gen)gen, &st);
    if (rc)
        return rc;
    st->final_gen = (cg_radeon_gen)gen;
    st->final = true;
    st->lenient = len != 0;
    st->ring_bytes = (uint32_t)ring;
    if (c->nact && !(st->actions = calloc(c->nact, sizeof *st->actions)))
        rc = CG_ERR_NOMEM;
    for (size_t i = 0; rc == 0 && i < c->nact; i++) {
        const cg_capfile_action *x = &c->act[i];
        rd_action *a = &st->actions[i];
        a->kind = (int)x->kind;
        a->a = x->a;
        a->b = x->b;
        /* what the assembler lets through: a dump prints at most the
         * model's VRAM (4 Mi dwords) */
        if (x->kind > INT32_MAX || rec_type((int)x->kind) != x->type ||
            !cg_capfile_str(x->str1, x->str1_len, a->section, sizeof a->section) ||
            (a->kind == ACT_DUMP && (a->b < 0 || a->b > (1 << 22))))
            rc = CG_ERR_SYNTAX;
        else
            st->nactions = st->capactions = i + 1;
    }
    if (rc == 0)
        rc = cg_capfile_asm(c, &as);
    if (rc == 0)
        rc = cg_radeon_scene_run(st, as, dev, log);
    cg_asm_destroy(as);
    cg_radeon_asm_destroy(st);
    return rc;
}
