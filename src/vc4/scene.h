/* vc4 family: scene actions, recorded by the assembler plug-in
 * (text/asm_cl.c) and played by scene.c through the core's runner
 * (include/cmdgpu/scene.h). */
#ifndef CMDGPU_VC4_SCENE_H
#define CMDGPU_VC4_SCENE_H

#include "cmdgpu/family.h"
#include "vc4_internal.h"

/* The one list of what a vc4 scene does: X(NAME, code, role, sane) --
 * sane: the limit the assembler lets through, checked again on a
 * capture's records (scene.c), or NULL. The code is stable: captures store
 * it (docs/capture-format.md). */
#define VC4_SCENE_ACTIONS(X)                                                               \
    X(MAILBOX, 1, SYNC, NULL)           /* a = buffer address, b = the code it must get */   \
    X(REG, 2, REGISTER, NULL)           /* a = register offset, b = value */                 \
    X(KICK, 3, SUBMIT, NULL)            /* a = thread, b = start, c = end */                 \
    X(WAIT, 4, SYNC, sane_wait)         /* a = 0 bfc / 1 rfc / 2 idle, b = count */          \
    X(COPY32, 5, CPU, NULL)             /* a = dst, b = src */                               \
    X(WRITE32, 6, CPU, NULL)            /* a = address, b = value */                         \
    X(FLUSH, 7, CPU, sane_u32_b)        /* a = address, b = bytes */                         \
    X(EXPECT32, 8, CHECK, NULL)                                                              \
    X(EXPECT_REG, 9, CHECK, NULL)                                                            \
    X(DUMP, 10, CHECK, sane_dump)       /* a = address, b = bytes */                         \
    X(DUMP_CL, 11, CHECK, sane_u32_b)   /* a = address, b = max bytes */                     \
    X(PNG, 12, CHECK, sane_frame)       /* str1 = file; n = 0 (framebuffer) or 5: a b c d e */ \
    X(EXPECT_HASH, 13, CHECK, sane_frame) /* a = hash of the firmware framebuffer */

enum {
#define VC4_X_ENUM(name, code, role, sane) VA_##name = code,
    VC4_SCENE_ACTIONS(VC4_X_ENUM)
#undef VC4_X_ENUM
};

/* The scene's configuration key (a CONFIG record; cmdgpu/vc4.h). */
#define VC4_CFG_CPU_CACHED CG_CAPCFG_VC4_CPU_CACHED
/* A .png file name as actions carry it (str1). */
#define VC4_TEXT_MAX 255

struct cg_vc4_asm {
    bool final;
    bool cpu_cached;
    cg_scene *scene; /* where the final pass records (NULL: nothing is recorded) */
    size_t nacts;
};

extern const cg_family_desc cg_vc4_family;
extern const cg_scene_ops vc4_scene_ops;
extern const cg_capture_desc vc4_hang_capture, vc4_cl_dump_capture; /* capture.c */
extern const cg_demo vc4_demos[1];                                   /* demo.c */

/* program.c: `cmdgpu run -f vc4-qpu PROG` (cg_format.run_program). */
int vc4_run_program(const cg_program_opts *o, const cg_asm *program, cg_device *dev);

/* text/asm_cl.c: a scene assembler (the cg_vc4_asm owned by the cg_asm). */
int vc4_scene_assembler(const cg_text_opts *o, cg_scene *sc, cg_asm **out);

/* v3d.c: copy a frame buffer out of SDRAM into a malloc'd *buf (free() it)
 * and describe it as *img (BGRA8888 for depth 32, RGB565 for 16).
 * CG_ERR_INVAL, CG_ERR_UNSUPPORTED (depth), CG_ERR_NOMEM, CG_ERR_RANGE. */
int vc4_fb_image(cg_vc4 *v, uint32_t addr, uint32_t w, uint32_t h, uint32_t pitch,
                 uint32_t depth, cg_image *img, uint8_t **buf);

#endif
