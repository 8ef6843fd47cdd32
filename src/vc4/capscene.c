/* vc4 family: recording a scene into a CMDGPUCAP capture and replaying one
 * (include/cmdgpu/capfile.h, docs/capture-format.md). The capture holds
 * what cg_vc4_scene_run is given: the CPU-cache option, the sections (memory
 * the ARM writes before the first directive) and the scene's calls in
 * order (mailbox calls, V3D register writes, CTnCA/CTnEA kicks, waits, CPU
 * accesses, checks); replay runs the same runner on them. */
#include <stdlib.h>
#include <string.h>
#include "core/capfile_internal.h"
#include "scene.h"

/* X(action, record type): the VA_* code is the action code in the file. */
#define VC4_CAP_ACTIONS(X)                                                                   \
    X(VA_MAILBOX, SYNC) X(VA_REG, REGISTER) X(VA_KICK, SUBMIT) X(VA_WAIT, SYNC)              \
    X(VA_COPY32, CPU) X(VA_WRITE32, CPU) X(VA_FLUSH, CPU) X(VA_EXPECT32, CHECK)              \
    X(VA_EXPECT_REG, CHECK) X(VA_DUMP, CHECK) X(VA_DUMP_CL, CHECK) X(VA_PNG, CHECK)          \
    X(VA_EXPECT_HASH, CHECK)

static uint32_t rec_type(int kind)
{
    switch (kind) {
#define CG_X_CASE(act, type) case act: return CG_CAPREC_##type;
        VC4_CAP_ACTIONS(CG_X_CASE)
#undef CG_X_CASE
    default: return 0;
    }
}

/* The action's name in listings: the scene directive's ACT code name. */
const char *cg_vc4_capfile_action_name(uint32_t kind)
{
    switch (kind) {
#define CG_X_NAME(act, type) case act: return #act;
        VC4_CAP_ACTIONS(CG_X_NAME)
#undef CG_X_NAME
    default: return "?";
    }
}

int cg_vc4_scene_capture(const cg_vc4_asm *st, const cg_asm *as, cg_capfile_writer *w)
{
    if (!st || !as || !w)
        return CG_ERR_INVAL;
    cg_capfile_write_config(w, CG_CAPCFG_VC4_CPU_CACHED, st->cpu_cached);
    for (size_t i = 0; i < cg_asm_section_count(as); i++) {
        const char *name;
        uint64_t base;
        const uint8_t *data;
        size_t size;
        cg_asm_section(as, i, &name, &base, &data, &size);
        cg_capfile_write_memory(w, base, 0, name, data, size);
    }
    for (size_t i = 0; i < st->nacts; i++) {
        const vc4_action *a = &st->acts[i];
        cg_capfile_action r = {.type = rec_type(a->kind), .kind = (uint32_t)a->kind, .a = a->a,
                               .b = a->b, .c = a->c, .d = a->d, .e = a->e, .n = a->n,
                               .str1 = a->text, .str1_len = strlen(a->text)};
        if (!r.type)
            return CG_ERR_INVAL;
        cg_capfile_write_action(w, &r);
    }
    return 0;
}

/* What the assembler lets through, where a hostile value would make the
 * runner loop long or index out of range. */
static bool sane(const vc4_action *a)
{
    switch (a->kind) {
    case VA_DUMP: return a->b >= 0 && a->b <= (64 << 20);
    case VA_DUMP_CL: return a->b >= 0 && a->b <= UINT32_MAX;
    case VA_FLUSH: return a->b >= 0 && a->b <= UINT32_MAX;
    case VA_WAIT: return a->a >= 0 && a->a <= 2;
    case VA_PNG:
    case VA_EXPECT_HASH: return a->n == 0 || a->n == 5;
    default: return true;
    }
}

int cg_vc4_capfile_run(const cg_capfile *c, cg_device *dev, const cg_vc4_scene_opts *o, FILE *log)
{
    if (!c || !dev || !log)
        return CG_ERR_INVAL;
    if (c->family != CG_FAMILY_VC4)
        return CG_ERR_SYNTAX;
    uint64_t cached = 0;
    cg_capfile_config(c, CG_CAPCFG_VC4_CPU_CACHED, &cached);
    cg_vc4_asm *st = NULL;
    cg_asm *as = NULL;
    int rc = cg_vc4_asm_create(&st);
    if (rc)
        return rc;
    st->final = true;
    st->cpu_cached = cached != 0;
    if (c->nact && !(st->acts = calloc(c->nact, sizeof *st->acts)))
        rc = CG_ERR_NOMEM;
    for (size_t i = 0; rc == 0 && i < c->nact; i++) {
        const cg_capfile_action *x = &c->act[i];
        vc4_action *a = &st->acts[i];
        *a = (vc4_action){.kind = (int)x->kind, .a = x->a, .b = x->b, .c = x->c, .d = x->d,
                          .e = x->e, .n = x->n};
        if (x->kind > INT32_MAX || rec_type((int)x->kind) != x->type ||
            !cg_capfile_str(x->str1, x->str1_len, a->text, sizeof a->text) || !sane(a))
            rc = CG_ERR_SYNTAX;
        else
            st->nacts = st->cap = i + 1;
    }
    if (rc == 0)
        rc = cg_capfile_asm(c, &as);
    if (rc == 0)
        rc = cg_vc4_scene_run(st, as, dev, o, log);
    cg_asm_destroy(as);
    cg_vc4_asm_destroy(st);
    return rc;
}

int vc4_capture_peek(void *v, uint64_t addr, void *dst, size_t n)
{
    if (addr > UINT32_MAX)
        return CG_ERR_RANGE;
    return cg_mem_read(cg_vc4_sdram(v), addr & 0x3FFFFFFFu, dst, n);
}
