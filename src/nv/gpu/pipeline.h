/* nv: the MAXWELL_B 3D pipeline behind a draw (internal, not installed).
 *
 *   pipeline.c - stage setup (program region, SET_PIPELINE_*), constant
 *                buffers, vertex shading, primitive assembly, clipping,
 *                viewport, culling, scissor; runs the fragment warps
 *   raster.c   - triangle setup in 24.8 fixed point, edge functions with
 *                the top-left rule, 2x2 quads packed 8 to a warp, plane
 *                equations (nv_sass_plane)
 *   rop.c      - colour formats, blending, channel masks, depth test/write
 * See docs/nv-pipeline.md for the rules chosen and their sources. */
#ifndef CMDGPU_NV_PIPELINE_H
#define CMDGPU_NV_PIPELINE_H

#include <stdbool.h>
#include <stdint.h>
#include "sass_exec.h"
#include "threed.h"

/* ---- raster.c ------------------------------------------------------------ */

#define NV_SUBPIXEL_BITS 8           /* 24.8 fixed-point window coordinates */
#define NV_RASTER_MAX_COORD 4194304.0 /* |window x, y| clamp (2^22 pixels) */

/* A vertex in window coordinates: pixels (x right, y down), depth after
 * the viewport transform, 1 / clip w. */
typedef struct nv_rv {
    float x, y, z, invw;
} nv_rv;

/* Exclusive-max pixel rectangle. */
typedef struct nv_rect {
    int32_t x0, y0, x1, y1;
} nv_rect;

/* Up to 8 2x2 quads of one primitive: lane 4k + (0 top-left, 1 top-right,
 * 2 bottom-left, 3 bottom-right) is pixel (qx[k] + (l & 1), qy[k] + l / 2). */
typedef struct nv_frags {
    unsigned nquads;
    int32_t qx[8], qy[8];
    uint32_t cover;         /* lanes whose pixel centre is inside (and in the clip rect) */
    float x[NV_WARP], y[NV_WARP]; /* sample positions, pixel + 0.5 */
    float z[NV_WARP];       /* screen-linear depth at the sample */
} nv_frags;

/* Called for each full (or the last partial) warp of quads; nonzero stops. */
typedef int (*nv_frag_fn)(void *user, const nv_frags *f);

/* Rasterise triangle v[0..2] (either winding) inside `clip`: pixel centres
 * (x + 0.5, y + 0.5) covered by the 24.8 snapped triangle, edges by the
 * top-left rule. Zero-area and non-finite triangles draw nothing. Returns
 * the callback's nonzero result or 0. *pixels (if not NULL) gets the
 * number of covered pixels added. */
int nv_raster_tri(const nv_rv v[3], const nv_rect *clip, nv_frag_fn fn, void *user,
                  uint64_t *pixels);

/* The plane a*x + b*y + c through (x_i, y_i, val_i) of the snapped
 * triangle (the same snapping nv_raster_tri uses); a zero-area triangle
 * gives the constant plane val[0]. */
void nv_raster_plane(const nv_rv v[3], const float val[3], nv_sass_plane *p);
/* The same in two steps, to snap a triangle once for all its planes:
 * the snapped positions (x0, y0, x1, y1, x2, y2) in pixels, and the plane
 * through them. */
void nv_raster_snap_tri(const nv_rv v[3], double xy[6]);
void nv_raster_plane_at(const double xy[6], const float val[3], nv_sass_plane *p);

/* Snap a window coordinate to 24.8 fixed point (clamped to
 * +-NV_RASTER_MAX_COORD; NaN gives 0). */
int64_t nv_raster_snap(float x);

/* ---- rop.c --------------------------------------------------------------- */

/* One colour or zeta surface as the ROP writes it. */
typedef struct nv_surface {
    bool valid;
    uint64_t base;
    bool pitch;
    uint32_t pitch_bytes;
    nv_bl bl;
    uint32_t width, height;   /* pixels */
    unsigned bpp;
    const nv3d_ct_format *cf; /* colour */
    const nv3d_zt_format *zf; /* zeta */
} nv_surface;

/* Blend state of one target, decoded to the enum-neutral codes below. */
enum { NV_BOP_ADD, NV_BOP_SUB, NV_BOP_REVSUB, NV_BOP_MIN, NV_BOP_MAX };
enum {
    NV_BF_ZERO, NV_BF_ONE, NV_BF_SRC_COLOR, NV_BF_INV_SRC_COLOR, NV_BF_SRC_ALPHA,
    NV_BF_INV_SRC_ALPHA, NV_BF_DST_ALPHA, NV_BF_INV_DST_ALPHA, NV_BF_DST_COLOR,
    NV_BF_INV_DST_COLOR, NV_BF_SRC_ALPHA_SAT, NV_BF_CONST_COLOR, NV_BF_INV_CONST_COLOR,
    NV_BF_CONST_ALPHA, NV_BF_INV_CONST_ALPHA
};
typedef struct nv_blend {
    bool enable;
    uint8_t op_rgb, op_a, src_rgb, dst_rgb, src_a, dst_a;
    float constant[4];
} nv_blend;

/* Decode a SET_BLEND_*_OP / *_COEFF value in the OGL or D3D spelling:
 * 0 and the code, or -1 if the value is neither (or a dual-source factor,
 * which faults "not supported yet"). */
int nv_blend_op(uint32_t v);
int nv_blend_factor(uint32_t v);

/* Depth functions: OGL 0x200..0x207 and D3D 1..8 to 0 NEVER .. 7 ALWAYS
 * (LESS 1, EQUAL 2, LEQUAL 3, GREATER 4, NOTEQUAL 5, GEQUAL 6); -1 if
 * neither. */
int nv_depth_func(uint32_t v);
bool nv_depth_pass(int func, double frag, double stored);

/* Blend src over dst (both RGBA float) with state b: out = result. */
void nv_blend_apply(const nv_blend *b, const float src[4], const float dst[4], float out[4]);

/* Pixel byte address of (x, y) on a surface. */
uint64_t nv_surface_addr(const nv_surface *s, uint32_t x, uint32_t y);

/* Pack/unpack RGBA floats in a colour format (mask: bit c = channel c
 * written; other bits of the pixel are kept). */
void nv_color_pack(const nv3d_ct_format *f, const float rgba[4], unsigned mask, uint8_t *px);
void nv_color_unpack(const nv3d_ct_format *f, const uint8_t *px, float rgba[4]);

/* Zeta: the depth value stored in a pixel (as a double in [0, 1] for UNORM
 * formats, the float for ZF32) and its replacement by `z`. */
double nv_zeta_read(const nv3d_zt_format *f, const uint8_t *px);
void nv_zeta_write(const nv3d_zt_format *f, double z, uint8_t *px);
/* A fragment's depth as the format would store it (for the comparison). */
double nv_zeta_quantize(const nv3d_zt_format *f, float z);

/* ---- pipeline.c ---------------------------------------------------------- */

/* A draw's fetched vertices as the vertex program receives them (draw.c
 * fills it): per vertex `stride` words, the vertex index, the instance,
 * then for each of the `nattr` fetched attributes attr[0..nattr) the four
 * words its shader input holds (integer types: the integers, others: the
 * float bits). Every other generic attribute (constant, or no valid format)
 * reads (0, 0, 0, 1.0f). Compact where the draw record's cg_nv_vertex is
 * not: 8 + 16 * nattr bytes a vertex against about 1.3 KB. */
enum { NV_VTX_INDEX, NV_VTX_INSTANCE, NV_VTX_ATTR0 };
typedef struct nv_vtx_in {
    const uint32_t *words;
    unsigned nattr, stride; /* stride = NV_VTX_ATTR0 + 4 * nattr */
    uint8_t attr[CG_NV_MAX_ATTRIBS];
} nv_vtx_in;

/* Run the pipeline over a fetched draw: `in` holds the draw's `n` vertices
 * in draw order (after the index buffer). 0 (also when no shader stage is
 * enabled: then nothing renders, as before the pipeline existed) or
 * CG_ERR_FAULT after raising a fault (the channel stops). */
int nv_pipeline_draw(cg_nv_channel *ch, nv_obj *o, nv3d_state *s, unsigned topology,
                     const nv_vtx_in *in, uint32_t n, const cg_agent *ag);
/* Will nv_pipeline_draw do anything (a vertex-side slot is enabled)? draw.c
 * keeps the fetched vertices only then, or for a draw callback. */
bool nv_pipeline_active(const nv_obj *o);

/* Render target `i` (SET_COLOR_TARGET_*(i), pitch or block linear, any
 * format of NV3D_CT_FORMATS) of the channel as RGBA8 (malloc'd, w * h * 4):
 * UNORM channels rounded to 8 bits, float channels clamped to [0, 1],
 * missing channels 0 (alpha 1). Reads as a debugger does: no fault, an
 * unreadable pixel reads as 0. CG_ERR_INVAL if the target is disabled, of
 * another format, empty or over 16384 pixels a side; CG_ERR_NOMEM. */
int nv_pipeline_rt_rgba8(cg_nv_channel *ch, unsigned i, uint8_t **rgba, uint32_t *w,
                         uint32_t *h);

#endif
