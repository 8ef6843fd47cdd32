/* nv: the assembler's recorded scene actions (internal). */
#ifndef CMDGPU_NV_ASM_INTERNAL_H
#define CMDGPU_NV_ASM_INTERNAL_H
#include "cmdgpu/asm.h"
#include "nv/nv_internal.h"
#include "cmdgpu/nv3d.h"

typedef enum nv_act_kind {
    NV_ACT_BUFFER, NV_ACT_CHANNEL, NV_ACT_SUBMIT, NV_ACT_RUN, NV_ACT_FINISH, NV_ACT_WAIT,
    NV_ACT_CPU_WRITE32, NV_ACT_EXPECT32, NV_ACT_DUMP, NV_ACT_PNG
} nv_act_kind;

enum { NV_SCENE_FENCES = 16 };

typedef struct nv_act {
    nv_act_kind kind;
    unsigned line;
    uint64_t a, b, c, d;
    int wait_slot, fence_slot; /* -1: none */
    char name[64];
    char path[256];
} nv_act;

struct cg_nv_asm {
    uint32_t init_sc[8], sc[8];
    nv_act *acts;
    size_t nacts, cap;
    bool oom;
    nv_act scratch; /* target of directives in non-final passes */
    /* .sass .. .endsass: lines in between are nv-sass statements (the
     * nv-sass family's state; cg_nv_sass_asm_state_size() fits) */
    bool in_sass;
    _Alignas(8) unsigned char sass_state[32];
};

/* Assemble a scene (text of len bytes, or the file at path when text is
 * NULL) with the nv plug-in; errors go to log (may be NULL). On success
 * *na and *as hold the recorded actions and sections; on failure (a cg_err)
 * both are freed and NULL. */
int nv_scene_assemble(const char *path, const char *text, size_t len, FILE *log,
                      cg_nv_asm **na, cg_asm **as);

/* Play an assembled scene (rc: the assembler's result; nothing runs unless
 * 0) and free na and as: src/nv/scene.c, used by the capture replay. */
struct cg_nv_scene_opts;
int nv_scene_play(cg_device *dev, const char *path, int rc, cg_nv_asm *na, cg_asm *as,
                  const struct cg_nv_scene_opts *o, cg_nv_draw_fn draw_fn, void *draw_user);

#endif
