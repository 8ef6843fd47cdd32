/* vc4 family: scene actions recorded by the assembler plug-in (asm_cl.c)
 * and played by scene.c. */
#ifndef CMDGPU_VC4_SCENE_H
#define CMDGPU_VC4_SCENE_H

#include "vc4_internal.h"

enum {
    VA_MAILBOX = 1, /* a = buffer address, b = the response code it must get */
    VA_REG,         /* a = register offset, b = value */
    VA_KICK,        /* a = thread, b = start, c = end */
    VA_WAIT,        /* a = 0 bfc / 1 rfc / 2 idle, b = count */
    VA_COPY32,      /* a = dst, b = src */
    VA_WRITE32,     /* a = address, b = value */
    VA_FLUSH,       /* a = address, b = bytes */
    VA_EXPECT32,
    VA_EXPECT_REG,
    VA_DUMP,        /* a = address, b = bytes */
    VA_DUMP_CL,     /* a = address, b = max bytes */
    VA_PNG,         /* text = file; n = 0 (framebuffer) or 5: a b c d e */
    VA_EXPECT_HASH, /* a = hash of the firmware framebuffer */
};

typedef struct vc4_action {
    int kind;
    int64_t a, b, c, d, e;
    int n;
    char text[256];
} vc4_action;

struct cg_vc4_asm {
    bool final;
    bool cpu_cached;
    vc4_action *acts;
    size_t nacts, cap;
};

/* v3d.c: copy a frame buffer out of SDRAM into a malloc'd *buf (free() it)
 * and describe it as *img (BGRA8888 for depth 32, RGB565 for 16).
 * CG_ERR_INVAL, CG_ERR_UNSUPPORTED (depth), CG_ERR_NOMEM, CG_ERR_RANGE. */
int vc4_fb_image(cg_vc4 *v, uint32_t addr, uint32_t w, uint32_t h, uint32_t pitch,
                 uint32_t depth, cg_image *img, uint8_t **buf);

#endif
