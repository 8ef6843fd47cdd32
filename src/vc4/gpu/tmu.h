/* VideoCore IV texture and memory lookup unit (TMU): the boundary between
 * the QPU's TMU request FIFO (src/vc4/gpu/qpu_run.c, which collects the
 * t0s/t0t/t0r/t0b writes and the configuration uniforms) and the texture
 * sampler (src/vc4/gpu/tmu_tex.c: formats, layouts, filters, wrap modes).
 *
 * Source: VideoCore IV 3D Architecture Reference Guide, section "Texture
 * and Memory Lookup Unit" (config parameters 0-3, texture types, T-format
 * and LT layouts); Mesa src/gallium/drivers/vc4/vc4_qpu_defines.h and
 * vc4_program.c (which uniforms a lookup consumes). docs/vc4-tmu.md. */
#ifndef CMDGPU_VC4_TMU_H
#define CMDGPU_VC4_TMU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "cmdgpu/device.h"
#include "cmdgpu/fault.h"
#include "cmdgpu/mem.h"

/* One texture lookup for up to 16 lanes, as the QPU submits it. The
 * configuration parameters come from the uniform stream in the order the
 * guide gives (parameter 0 and 1 always, 2 for cube maps/border colour/
 * child images, 3 when the lookup uses it); nparams says how many the QPU
 * read for this request. */
typedef struct vc4_tmu_req {
    cg_device *dev;
    cg_vas *bus;
    const cg_agent *who;
    uint32_t params[4];
    unsigned nparams;
    uint16_t lanes;        /* lanes that take part (bit i = lane i) */
    float s[16], t[16], r[16], b[16];
    bool has_t, has_r, has_b; /* which coordinate registers were written */
} vc4_tmu_req;

typedef struct vc4_tmu_fault {
    cg_fault_kind kind;
    uint32_t addr;     /* the bus address at fault, or 0 */
    char msg[160];
} vc4_tmu_fault;

/* Sample the texture the parameters describe for every lane of req->lanes:
 * out[i] is the 32-bit result ldtmu delivers to r4 for lane i (colour as
 * the guide's TMU output: for 8-bit-per-channel types, R in bits 7:0 ...
 * A in 31:24 after swizzle; for RGBA64 and S16F types the 16-bit halves as
 * the guide describes). Returns 0, or -1 with *fault set (the texture or
 * parameters are bad or unmapped; the caller raises the fault). */
int vc4_tmu_texture(const vc4_tmu_req *req, uint32_t out[16], vc4_tmu_fault *fault);

/* How many configuration uniforms a lookup reads once parameter 0 and 1 are
 * known (2, 3 or 4), so the FIFO can take them from the uniform stream. */
unsigned vc4_tmu_params_needed(uint32_t p0, uint32_t p1, bool has_r, bool has_b);

/* ---- Tables, layouts and parameter text (additions for tools and tests) */

/* Texture types: VC4_TMU_TYPE_RGBA8888 = 0 ... VC4_TMU_TYPE_YUYV422R = 17
 * (src/vc4/tables/tmu_formats.def). */
enum vc4_tmu_type {
#define VC4_TMU_TYPE(code, NAME, name, bpp, layout, decode) VC4_TMU_TYPE_##NAME = code,
#include "vc4/tables/tmu_formats.def"
    VC4_TMU_TYPE_COUNT = 18
};

/* Field positions of the configuration parameters: VC4_TMU_<NAME>_HI/_LO
 * (e.g. VC4_TMU_WIDTH_HI = 18) and VC4_TMU_GET(word, NAME). */
enum {
#define VC4_TMU_FIELD(param, ptype, NAME, name, hi, lo) \
    VC4_TMU_##NAME##_HI = hi, VC4_TMU_##NAME##_LO = lo,
#include "vc4/tables/tmu_formats.def"
};
#define VC4_TMU_GET(word, NAME)                                                     \
    (((uint32_t)(word) >> VC4_TMU_##NAME##_LO) &                                   \
     (0xffffffffu >> (31 - (VC4_TMU_##NAME##_HI - VC4_TMU_##NAME##_LO))))
#define VC4_TMU_SET(v, NAME)                                                       \
    (((uint32_t)(v) &                                                              \
      (0xffffffffu >> (31 - (VC4_TMU_##NAME##_HI - VC4_TMU_##NAME##_LO))))         \
     << VC4_TMU_##NAME##_LO)

enum vc4_tmu_layout { VC4_TMU_RASTER = 0, VC4_TMU_LT = 1, VC4_TMU_T = 2 };

typedef struct vc4_tmu_type_info {
    const char *name;
    unsigned bpp;   /* bits per texel in memory (ETC1: 4) */
    bool raster;    /* RGBA32R, YUYV422R */
} vc4_tmu_type_info;

/* The table row of type `code`, or NULL when code >= 18. */
const vc4_tmu_type_info *vc4_tmu_type_get(unsigned code);

/* One mip level as the TMU finds it. Dimensions are in texels, except for
 * ETC1, whose level is laid out as an image of 64-bit 4x4 blocks (blocks_w
 * x blocks_h; the kernel's reloc_tex()). */
typedef struct vc4_tmu_level {
    uint32_t width, height;       /* texels of the level: max(1, size >> i) */
    uint32_t blocks_w, blocks_h;  /* units the layout places (texels, ETC1 blocks) */
    uint32_t aligned_w, aligned_h;/* units after padding to the layout */
    enum vc4_tmu_layout layout;
    uint32_t stride;              /* bytes per row of units (LT/T: of the padded image) */
    uint32_t size;                /* bytes of the level */
    uint32_t below;               /* bytes from the level's start up to the base */
} vc4_tmu_level;

/* Lay out levels 0..miplevels of a type-`type` texture of width x height
 * (1..2048): level 0 at the base, each smaller level just below the one
 * before (Mesa vc4_setup_slices(); kernel reloc_tex()). Returns the bytes
 * below the base (the level-`miplevels` `below`), or -1 for a bad type. */
long vc4_tmu_layout_levels(unsigned type, uint32_t width, uint32_t height, unsigned miplevels,
                           vc4_tmu_level lv[16]);

/* Byte offset of unit (x, y) from the start of its level (for 1- and 4-bit
 * types the byte holding it; *bit gets the bit position, LSB first). */
uint32_t vc4_tmu_unit_offset(const vc4_tmu_level *lv, unsigned bpp, uint32_t x, uint32_t y,
                             unsigned *bit);

/* Print parameters p[0..n-1] field by field ("p0: base=0x00010000 ...;
 * p1: ..."), names from the table. Returns the length snprintf would give. */
int vc4_tmu_format_params(const uint32_t p[4], unsigned n, char *buf, size_t cap);

/* Words a texture lookup returns per lane, each popped by its own ldtmu
 * into r4: 2 for the 64-bit type RGBA64 (first R | G << 16, then B | A <<
 * 16, as vc4_tmu_texture2's out and out_hi), else 1. docs/vc4-tmu.md. */
unsigned vc4_tmu_result_words(uint32_t p0, uint32_t p1);

/* Like vc4_tmu_texture, and out_hi[i] gets the second word of a 64-bit
 * result: for RGBA64, out[i] = R (15:0) | G (31:16) and out_hi[i] = B | A
 * (both IEEE half floats); for every other type out_hi[i] = out[i]. */
int vc4_tmu_texture2(const vc4_tmu_req *req, uint32_t out[16], uint32_t out_hi[16],
                     vc4_tmu_fault *fault);

#endif
