/* VideoCore IV texture and memory lookup unit (TMU): the boundary between
 * the QPU's TMU request FIFO (src/vc4/qpu_run.c, which collects the
 * t0s/t0t/t0r/t0b writes and the configuration uniforms) and the texture
 * sampler (src/vc4/tmu_tex.c: formats, layouts, filters, wrap modes).
 *
 * Source: VideoCore IV 3D Architecture Reference Guide, section "Texture
 * and Memory Lookup Unit" (config parameters 0-3, texture types, T-format
 * and LT layouts); Mesa src/gallium/drivers/vc4/vc4_qpu_defines.h and
 * vc4_program.c (which uniforms a lookup consumes). docs/vc4-tmu.md. */
#ifndef CMDGPU_VC4_TMU_H
#define CMDGPU_VC4_TMU_H

#include <stdbool.h>
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

#endif
