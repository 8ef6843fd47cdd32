/* nv: the MAXWELL_B (B197) 3D engine, internal interface (not installed).
 *
 * The channel keeps every B197 method in its register file (nv_obj.regs);
 * the methods with an effect reach nv_3d_method() from pfifo.c's
 * engine_method after the store. Four sources share the work:
 *   threed.c  - dispatch, CB_BIND, report semaphores, clears (CLEAR_SURFACE)
 *   threed_state.c - the register file read as state (render targets,
 *               formats, draw counters) and the per-channel state: a leaf
 *               the others call, so none of them calls back into threed.c
 *   draw.c    - BEGIN/END, the draw methods, vertex and index fetch, draw
 *               records (include/cmdgpu/nv3d.h)
 *   texture.c - TIC/TSC decode and texture reads (include/cmdgpu/nv3d.h)
 * Facts: research/nv.md sections 5-7 and seeds 000-002, cited where used. */
#ifndef CMDGPU_NV_THREED_H
#define CMDGPU_NV_THREED_H

#include "cmdgpu/nv3d.h"
#include "nv/nv_internal.h"

/* Shader stages of CB_BIND (BIND_GROUP_CONSTANT_BUFFER(stage), stride 32):
 * 0 vertex A/B, 1 tessellation control, 2 tessellation evaluation,
 * 3 geometry, 4 fragment (seed 000: "the index of the fragment shader
 * stage" is 4). */
#define NV3D_STAGES 5
#define NV3D_CB_SLOTS 18 /* SHADER_SLOT is 5 bits; Maxwell has 18 CB slots */

typedef struct nv3d_cb {
    bool valid;
    uint64_t addr;
    uint32_t size;
} nv3d_cb;

/* Per-channel 3D state beyond the register file, allocated at the first
 * 3D action method (nv3d_state_get). */
typedef struct nv3d_state {
    /* threed.c, threed_state.c (fields may be added here) */
    nv3d_cb cb[NV3D_STAGES][NV3D_CB_SLOTS];  /* CB_BIND snapshots */
    uint64_t counters[32];   /* report counters by REPORT code (threed.c) */
    const uint32_t *regs;    /* the channel's B197 register file (nv3d_state_get) */

    /* draw.c: the BEGIN .. END bracket (fields may be added here) */
    bool in_begin;
    uint32_t begin;          /* the BEGIN word */
    uint32_t instance;       /* instance id of the current draw */
    uint64_t draws;          /* draws recorded so far on this channel */
} nv3d_state;

/* The channel's 3D state, allocated on first use; NULL if out of memory. */
nv3d_state *nv3d_state_get(cg_nv_channel *ch);
void nv3d_state_free(cg_nv_channel *ch);

/* A B197 action method (after the register store), `act` its number in the
 * class table (REPORT, CLEAR, CLEAR_REPORT, CB_BIND, DRAW; others do
 * nothing here). Returns 0 or CG_ERR_FAULT after raising a fault with
 * nv_fault (the channel stops). The I2M, MME and LOAD_CONSTANT_BUFFER
 * actions are the front end's (pfifo.c). */
int nv3d_method(cg_nv_channel *ch, nv_obj *o, nv_mact act, uint32_t mthd, uint32_t v,
                const cg_agent *ag);

/* threed_state.c: render target i (0..7) and the zeta buffer as the registers
 * describe them now (for draw records). Colour: SET_COLOR_TARGET_A..MEMORY
 * (0x800 + 64 i); width is the WIDTH register as written, which for a pitch
 * target is the pitch in bytes (Mesa nvc0_surface.c). Zeta: SET_ZT_A/B,
 * SET_ZT_SIZE_A/B, SET_ZT_FORMAT, SET_ZT_BLOCK_SIZE (as `memory`; zeta
 * buffers are always block linear); *enabled is SET_ZT_SELECT TARGET_COUNT. */
void nv3d_rt_state(const nv_obj *o, unsigned i, cg_nv_rt_state *out);
void nv3d_zeta_state(const nv_obj *o, cg_nv_rt_state *out, bool *enabled);

/* threed_state.c: a draw reached the input assembler: `vertices` vertices (after
 * the index buffer, per instance) of BEGIN topology `topology` (OP, 0..14),
 * `instances` times (>= 1). Counts DA_VERTICES_GENERATED and
 * DA_PRIMITIVES_GENERATED, each only while its SET_STATISTICS_COUNTER enable
 * bit is set; every other report counter stays zero (docs/nv-3d.md). */
void nv3d_count_draw(nv3d_state *s, unsigned topology, uint64_t vertices, uint32_t instances);

/* SET_REPORT_SEMAPHORE_D of B197 and B1C0 (same layout, research/nv.md
 * section 5): release, acquire, report, trap. */
int nv3d_report_semaphore(cg_nv_channel *ch, nv_obj *o, uint32_t v, const cg_agent *ag);

/* draw.c, by the ACTION of the method in threed_b197.def: BEGIN, END,
 * DRAW (DRAW_VERTEX_ARRAY, DRAW_INDEX_BUFFER) and DRAW_BEGIN_END (the
 * one-word draws). Same contract as nv3d_method. */
int nv3d_draw_begin(cg_nv_channel *ch, nv_obj *o, uint32_t mthd, uint32_t v,
                    const cg_agent *ag);
int nv3d_draw_end(cg_nv_channel *ch, nv_obj *o, uint32_t mthd, uint32_t v, const cg_agent *ag);
int nv3d_draw(cg_nv_channel *ch, nv_obj *o, uint32_t mthd, uint32_t v, const cg_agent *ag);
int nv3d_draw_begin_end(cg_nv_channel *ch, nv_obj *o, uint32_t mthd, uint32_t v,
                        const cg_agent *ag);
/* What a one-word draw's name says: index size in bytes (0: not indexed) and
 * whether it draws the next instance (SUBSEQUENT) or the first. */
void nv3d_begin_end_kind(uint32_t mthd, unsigned *index_size, bool *subsequent);

/* threed_state.c: the colour and zeta formats clears write (NV3D_CT_FORMATS,
 * NV3D_ZT_FORMATS there), shared with the ROP (rop.c). type: NV3D_CH_*. */
enum { NV3D_CH_NONE, NV3D_CH_UNORM, NV3D_CH_FLOAT };
typedef struct nv3d_ct_format {
    uint8_t code;
    const char *name;
    uint8_t bytes, type;
    uint8_t off[4], bits[4];
} nv3d_ct_format;
typedef struct nv3d_zt_format {
    uint8_t code;
    const char *name;
    uint8_t bytes, ztype, zoff, zbits, soff, sbits;
} nv3d_zt_format;
const nv3d_ct_format *nv3d_ct_format_find(uint32_t code);
const nv3d_zt_format *nv3d_zt_format_find(uint32_t code);
/* A float's bits as a channel of `bits` bits of type NV3D_CH_* (UNORM:
 * clamp and round; FLOAT 16: binary16; FLOAT 32: the bits). */
uint64_t nv3d_chan_value(unsigned type, unsigned bits, uint32_t fbits);
/* rop.c: write the low `bits` bits of v at bit offset off of p (little
 * endian, byte-aligned fields in one go). */
void nv_set_bits(uint8_t *p, unsigned off, unsigned bits, uint64_t v);

#endif
