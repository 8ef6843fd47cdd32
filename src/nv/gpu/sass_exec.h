/* Maxwell shader interpreter: the boundary between the warp interpreter
 * (src/nv/gpu/sass_exec*.c) and the 3D pipeline (src/nv/gpu/pipeline.c,
 * raster.c).
 *
 * A program is predecoded once (nv_sass_prog_build) from GPU memory into a
 * form the interpreter runs without re-extracting fields; the pipeline then
 * runs warps of up to 32 threads over it. Everything a shader reads or
 * writes outside its registers is in nv_sass_env (data, not callbacks, so a
 * warp runs without calls per lane), except global/local memory, which goes
 * through the address space with the channel's agent, and textures, which
 * the interpreter samples itself from the TIC/TSC pools the env names.
 *
 * Faults: a run that cannot go on returns CG_ERR_FAULT with *fault filled
 * (kind, the instruction's byte address in the program region and its
 * word, a one-line message); the pipeline raises it on the channel and stops
 * the channel. Instructions outside what the interpreter supports fault
 * CG_FAULT_UNSUPPORTED "not supported yet: <text> at <pc>". */
#ifndef CMDGPU_NV_SASS_EXEC_H
#define CMDGPU_NV_SASS_EXEC_H

#include <stdbool.h>
#include <stdint.h>
#include "cmdgpu/device.h"
#include "cmdgpu/fault.h"
#include "cmdgpu/mem.h"
#include "nv/tables/sph.h"

#define NV_WARP 32
#define NV_SASS_CB_SLOTS 18   /* constant buffer banks per stage */
#define NV_SASS_DEFAULT_BUDGET (1ull << 24)
#define NV_ATTR_WORDS 256     /* attribute space a[0x000..0x3fc], one word per 4 bytes */

enum nv_sass_stage { NV_STAGE_VERTEX = 0, NV_STAGE_TESS_CTRL, NV_STAGE_TESS_EVAL,
                     NV_STAGE_GEOMETRY, NV_STAGE_FRAGMENT };

typedef struct nv_sass_fault {
    cg_fault_kind kind;
    uint64_t pc;      /* byte offset of the instruction from the program start (SPH) */
    uint64_t va;      /* GPU address of the instruction, or of the memory access */
    uint64_t word;    /* the instruction word */
    char msg[192];
} nv_sass_fault;

/* A predecoded program. `start_va` is the GPU address of the program's SPH
 * (SET_PROGRAM_REGION + SET_PIPELINE_PROGRAM offset); code follows the
 * 0x50-byte SPH. Branch targets are checked against [region_va,
 * region_va + region_size). Code is read with `who`'s permissions; an
 * unmapped or unreadable program faults here, not at run time. */
typedef struct nv_sass_prog nv_sass_prog;
int nv_sass_prog_build(cg_vas *vas, const cg_agent *who, uint64_t region_va,
                       uint64_t region_size, uint64_t start_va, int stage,
                       nv_sass_prog **out, nv_sass_fault *fault);
void nv_sass_prog_free(nv_sass_prog *p);
const nv_sph *nv_sass_prog_sph(const nv_sass_prog *p);

/* Statistics of a built program (added by the interpreter). */
typedef struct nv_sass_prog_info {
    uint32_t insns;        /* decoded instructions */
    uint32_t sched_words;  /* control words skipped */
    uint64_t stall_cycles; /* sum of the control words' stall counts */
    uint32_t unsupported;  /* instructions that would fault as unsupported */
    uint32_t reg_limit;    /* no instruction reads or writes a register at or above
                              this one, RZ aside (operands' registers + 4, <= 255) */
    bool reads_outputs;    /* has ALD.O (reads back the vertex outputs) */
} nv_sass_prog_info;
void nv_sass_prog_get_info(const nv_sass_prog *p, nv_sass_prog_info *out);

/* One attribute word's interpolation inputs for a primitive (fragment
 * stage): the pipeline fills plane[i] for every word the SPH's input map
 * enables. value(x, y) = a * x + b * y + c, evaluated by IPA at the lane's
 * sample position; `perspective` planes hold attr / w (IPA.MULTIPLY then
 * multiplies by its operand), `flat` is the provoking vertex's value
 * (IPA.CONSTANT and flat-shaded inputs). Word 0x7c / 4 (position W) holds
 * the plane of 1 / w. */
typedef struct nv_sass_plane {
    float a, b, c;
    uint32_t flat;
} nv_sass_plane;

/* Texture pools and binding, from the 3D state (SET_TEX_HEADER_POOL_*,
 * SET_TEX_SAMPLER_POOL_*, SET_TEXTURE_CONSTANT_BUFFER_INDEX). */
typedef struct nv_sass_tex_env {
    uint64_t tic_va, tsc_va;
    uint32_t tic_max, tsc_max; /* highest valid index */
    bool linked_tsc;           /* sampler index = header index */
    unsigned handle_bank;      /* cb bank TEX/TEXS handles are read from */
} nv_sass_tex_env;

/* Decoded texture header/sampler pairs kept across the warps of a draw:
 * every use compares the cached words with the pool's (plain memory only),
 * so a changed or unmapped entry is seen; NULL in the env: none. */
typedef struct nv_sass_tex_cache nv_sass_tex_cache;
nv_sass_tex_cache *nv_sass_tex_cache_new(void);
void nv_sass_tex_cache_free(nv_sass_tex_cache *tc);

typedef struct nv_sass_env {
    cg_device *dev;
    cg_vas *vas;
    cg_agent agent;
    /* constant buffers of the stage: host copies taken at draw time
     * (size in bytes; NULL / 0 = unbound: a read faults) */
    const uint32_t *cb[NV_SASS_CB_SLOTS];
    uint32_t cb_size[NV_SASS_CB_SLOTS];
    nv_sass_tex_env tex;
    nv_sass_tex_cache *tcache;            /* optional (see above) */
    /* vertex stage: attributes in, per lane (ALD), and out (AST) */
    uint32_t (*attr_in)[NV_ATTR_WORDS];   /* [lane][word] */
    uint32_t (*attr_out)[NV_ATTR_WORDS];  /* [lane][word] */
    uint32_t vertex_id[NV_WARP], instance_id;
    /* fragment stage */
    const nv_sass_plane *planes;          /* [NV_ATTR_WORDS] */
    float frag_x[NV_WARP], frag_y[NV_WARP]; /* sample position (pixel + 0.5) */
    bool front_facing;
    uint64_t budget;                      /* instructions per warp before a HANG fault
                                             (0: NV_SASS_DEFAULT_BUDGET) */
} nv_sass_env;

/* Warp state; registers are [reg][lane] so one instruction's 32 lanes are
 * contiguous. R255 is RZ and reads as zero. */
typedef struct nv_sass_warp {
    uint32_t r[256][NV_WARP];
    uint32_t p[8];            /* predicate i: bit lane; P7 = PT (all ones) */
    uint32_t active;          /* lanes that exist (a partial warp has fewer) */
    uint32_t killed;          /* fragment lanes removed by KIL */
    uint32_t exited;          /* lanes that ran EXIT */
    uint64_t executed;        /* instructions run (statistics, budget) */
    /* added by the interpreter: */
    uint32_t carry;           /* CC.C per lane (IADD.CC / IADD.X, XMAD.CC) */
    uint32_t *local;          /* LDL/STL memory, [lane][local_bytes / 4]; NULL = none */
    uint32_t local_bytes;     /* per lane */
} nv_sass_warp;

/* Run the program over the warp's active lanes until every lane has exited
 * or been killed. Before the call, set w->active and (fragment) the env's
 * positions and planes; registers start at zero. After it: vertex outputs
 * are in env->attr_out, fragment colours in the registers the SPH's output
 * map names (the pipeline reads them: first enabled target component in
 * R0 onwards, then depth), w->killed has the discarded lanes.
 * 0, or CG_ERR_FAULT with *fault set. */
int nv_sass_run(const nv_sass_prog *p, const nv_sass_env *env, nv_sass_warp *w,
                nv_sass_fault *fault);

#endif
