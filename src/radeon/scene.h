/* radeon family: scene actions, recorded by the assembler plug-in
 * (text/asm.c) and run by scene.c through the core's runner
 * (include/cmdgpu/scene.h). */
#ifndef CMDGPU_RADEON_SCENE_H
#define CMDGPU_RADEON_SCENE_H

#include "cmdgpu/family.h"
#include "radeon_internal.h"

/* The one list of what a radeon scene does:
 * X(NAME, code, directive, role, operands, sane) -- operands: how many
 * numbers the directive takes, or -1 for one section name (str1); sane:
 * the limit the assembler enforces, checked again on a capture's records
 * (scene.c), or NULL. The code is stable: captures store it
 * (docs/capture-format.md). */
#define RD_SCENE_ACTIONS(X)                                                                  \
    X(SUBMIT, 1, ".submit", SUBMIT, -1, NULL)       /* copy a section's dwords into the ring, commit */ \
    X(IB, 2, ".ib", SUBMIT, -1, NULL)               /* INDIRECT_BUFFER to a section, then a fence */ \
    X(FENCE, 3, ".fence", SYNC, 0, NULL)            /* emit a fence, commit */                \
    X(WAIT, 4, ".wait", SYNC, 0, NULL)              /* wait for the last fence */              \
    X(RUN, 5, ".run", SYNC, 0, NULL)                /* run the CP */                           \
    X(WRITE32, 6, ".write32", CPU, 2, NULL)         /* CPU write a = address, b = value */     \
    X(REG, 7, ".reg", REGISTER, 2, NULL)            /* MMIO write a = register, b = value */   \
    X(EXPECT32, 8, ".expect32", CHECK, 2, NULL)     /* check memory */                         \
    X(EXPECT_REG, 9, ".expect_reg", CHECK, 2, NULL) /* check a register */                     \
    X(DUMP, 10, ".dump", CHECK, 2, sane_dump)            /* print b dwords at a */                  \
    X(RING_TEST, 11, ".ring_test", SYNC, 0, NULL)                                              \
    X(IB_TEST, 12, ".ib_test", SYNC, 0, NULL)                                                  \
    X(STATUS, 13, ".status", CHECK, 0, NULL)        /* print the CP status */                  \
    X(RECOVER, 14, ".recover", SYNC, 0, NULL)       /* wait, expect a lockup, GPU reset */     \
    X(MAP, 15, ".map", MAPPING, 2, NULL)            /* map a new memory object at a, b bytes */ \
    X(MAP_RO, 16, ".map_ro", MAPPING, 2, NULL)      /* the same, read-only for the GPU */      \
    X(FENCE_SEQ, 17, ".fence_seq", SYNC, 1, NULL)   /* start the fence driver at sequence a */

enum {
    ACT_NONE = 0,
#define RD_X_ENUM(name, code, dir, role, nargs, sane) ACT_##name = code,
    RD_SCENE_ACTIONS(RD_X_ENUM)
#undef RD_X_ENUM
};

/* The scene's configuration keys (CONFIG records; cmdgpu/radeon.h). */
#define RD_CFG_GEN CG_CAPCFG_RADEON_GEN
#define RD_CFG_LENIENT CG_CAPCFG_RADEON_LENIENT
#define RD_CFG_RING_BYTES CG_CAPCFG_RADEON_RING_BYTES

/* A section name as actions carry it (str1). */
#define RD_SECTION_MAX 63

struct cg_radeon_asm {
    cg_radeon_gen default_gen, gen, final_gen;
    bool gen_set, final, lenient;
    uint32_t ring_bytes;
    int64_t *ops;
    cg_scene *scene; /* where the final pass records (NULL: nothing is recorded) */
    size_t nactions;
};

extern const cg_family_desc cg_radeon_family;
extern const cg_scene_ops rd_scene_ops;
extern const cg_capture_desc rd_ringdump_capture; /* capture.c */
extern const cg_demo rd_demos[1];                 /* demo.c */

/* text/asm.c: a scene assembler (the cg_radeon_asm owned by the cg_asm). */
int rd_scene_assembler(const cg_text_opts *o, cg_scene *sc, cg_asm **out);
/* The --gen option: CG_ERR_INVAL with msg when it names no generation. */
int rd_gen_of(const cg_text_opts *o, cg_radeon_gen *g, char *msg, size_t cap);

#endif
