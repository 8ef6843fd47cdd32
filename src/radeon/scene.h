/* radeon family: scene actions recorded by the assembler plug-in (asm.c) and
 * run by scene.c. */
#ifndef CMDGPU_RADEON_SCENE_H
#define CMDGPU_RADEON_SCENE_H

#include "radeon_internal.h"

enum {
    ACT_NONE = 0,
    ACT_SUBMIT,     /* copy a section's dwords into the ring, commit */
    ACT_IB,         /* INDIRECT_BUFFER to a section (at its base), then a fence */
    ACT_FENCE,      /* emit a fence, commit */
    ACT_WAIT,       /* wait for the last fence */
    ACT_RUN,        /* run the CP */
    ACT_WRITE32,    /* CPU write a = address, b = value */
    ACT_REG,        /* MMIO write a = register, b = value */
    ACT_EXPECT32,   /* check memory */
    ACT_EXPECT_REG, /* check a register */
    ACT_DUMP,       /* print b dwords at a */
    ACT_RING_TEST,
    ACT_IB_TEST,
    ACT_STATUS,     /* print the CP status */
    ACT_RECOVER,    /* wait for the last fence, expect a lockup, GPU reset */
    ACT_MAP,        /* map a new memory object at a = address, b = bytes */
    ACT_MAP_RO,     /* the same, read-only for the GPU */
    ACT_FENCE_SEQ,  /* start the fence driver at sequence a */
};

typedef struct rd_action {
    int kind;
    int64_t a, b;
    char section[64];
} rd_action;

struct cg_radeon_asm {
    cg_radeon_gen default_gen, gen, final_gen;
    bool gen_set, final, lenient;
    uint32_t ring_bytes;
    int64_t *ops;
    rd_action *actions;
    size_t nactions, capactions;
};

#endif
