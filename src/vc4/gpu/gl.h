/* vc4 GL shader mode (internal): GL shader state records, attribute
 * records, the VCD's attribute fetch into the VPM, coordinate shaders in the
 * binner and vertex shaders in the renderer, and the clipper. gl.c, clip.c;
 * docs/vc4.md "GL shader mode". */
#ifndef CMDGPU_VC4_GL_H
#define CMDGPU_VC4_GL_H

#include "vc4/qpu.h"
#include "vc4/vc4_internal.h"

#define VC4_GL_MAX_ATTR 8

typedef struct vc4_gl_attr {
    uint32_t addr;   /* bus address of vertex 0's bytes */
    uint32_t size;   /* bytes (Number of Bytes minus 1, + 1) */
    uint32_t stride; /* bytes; the extended record adds bits 31:8 */
    uint8_t vs_off, cs_off; /* byte offsets in the shader's VPM input rows */
} vc4_gl_attr;

typedef struct vc4_gl_stage {
    uint32_t code, unif;
    uint16_t nunif;
    uint8_t sel;   /* attribute array select bits */
    uint8_t total; /* total attributes size, bytes */
} vc4_gl_stage;

typedef struct vc4_gl_record {
    uint32_t addr;      /* the record (16-byte aligned) */
    uint32_t word;      /* the GL_Shader_State payload as given */
    uint8_t flags;      /* 1 FS single-threaded, 2 point size, 4 clipping */
    uint8_t fs_nunif, fs_nvary;
    uint32_t fs_code, fs_unif;
    vc4_gl_stage vs, cs;
    unsigned nattr;
    bool extended;
    vc4_gl_attr attr[VC4_GL_MAX_ATTR];
} vc4_gl_record;

/* Bytes of the record a GL_Shader_State payload word names (Linux
 * vc4_validate.c gl_shader_rec_size). */
unsigned vc4_gl_record_size(uint32_t word);
/* Decode a record from its bytes (at least vc4_gl_record_size(word)). */
void vc4_gl_decode(uint32_t word, const uint8_t *bytes, vc4_gl_record *out);
/* Read and decode the record; a fault (unmapped) returns CG_ERR_FAULT. */
int vc4_gl_read_record(cg_vc4 *v, vc4_thread *t, uint32_t word, vc4_gl_record *out);

/* Check that every attribute the coordinate or vertex shader selects can be
 * read for vertices 0..max_index: [addr, addr + max_index * stride + size)
 * inside mapped memory and the 32-bit bus. `rec_addr` is the primitive
 * record (for the fault). 0 or CG_ERR_FAULT. */
int vc4_gl_check_attrs(cg_vc4 *v, vc4_thread *t, const vc4_gl_record *r, uint32_t max_index,
                       uint32_t rec_addr);

/* The VCD: fetch the attributes the stage selects for up to 16 vertices
 * (lane l = idx[l]) into the VPM of u (row = VPM offset / 4 + word, column =
 * lane; u->vpm_dirty covers them). cs: the coordinate shader's selection
 * and offsets, else the vertex shader's. 0 or CG_ERR_FAULT. */
int vc4_gl_fetch(cg_vc4 *v, vc4_thread *t, const vc4_gl_record *r, bool cs, const uint32_t *idx,
                 unsigned n, vc4_v3d_units *u);

/* Outputs of a coordinate shader for one vertex. */
typedef struct vc4_gl_coord {
    float clip[4];  /* Xc Yc Zc Wc */
    int32_t x, y;   /* 12.4, viewport offset applied */
    float z, inv_w;
    float psize;    /* point size (record flag bit 1), else 0 */
} vc4_gl_coord;

/* A cache of shaded vertices, keyed by index, for one shader state over
 * one binning record or one compressed list. A vertex shader's VDW may
 * write memory meanwhile: vertices shaded before stay, as in a vertex
 * cache (docs/vc4.md "GL shader mode"). */
#define VC4_GL_CACHE 64
typedef struct vc4_gl_cache {
    uint32_t word; /* the GL_Shader_State payload the entries belong to */
    bool any;
    uint32_t idx[VC4_GL_CACHE];
    bool valid[VC4_GL_CACHE];
    vc4_gl_coord coord[VC4_GL_CACHE];
    vc4_vertex vert[VC4_GL_CACHE];
    vc4_v3d_units units; /* the VPM the VCD fills and the shader reads and writes */
    vc4_qpu_state qs;    /* the QPU that runs the batch */
    vc4_qpu_cache *code; /* the shaders' decoded code (revalidated against
                          * memory at every run), NULL until the first */
    vc4_gl_record rec; /* the record of `word`, when rec_valid */
    bool rec_valid;
    /* a vertex array's vertices [ahead_lo, ahead_hi]: a batch that shades
     * vertex i also takes the next ones, up to 16 lanes (the hardware
     * batches consecutive vertices of an array); set by the binner per
     * Vertex_Array_Primitives record, cleared by vc4_gl_cache_reset */
    bool ahead;
    uint32_t ahead_lo, ahead_hi;
} vc4_gl_cache;
/* Forget every entry (memory may have changed); *c may be NULL: it is
 * allocated. 0 or CG_ERR_NOMEM. */
int vc4_gl_cache_reset(vc4_gl_cache **c);
/* The record of a GL_Shader_State payload word, read once per reset. */
int vc4_gl_cached_record(cg_vc4 *v, vc4_thread *t, vc4_gl_cache *c, uint32_t word,
                         const vc4_gl_record **out);

/* Run the coordinate shader (binner) for three vertices; results through
 * the cache. vp_x, vp_y: the viewport offset (12.4). */
int vc4_gl_coords(cg_vc4 *v, vc4_thread *t, const vc4_gl_record *r, const uint32_t idx[3],
                  int vp_x, int vp_y, vc4_gl_cache *c, vc4_gl_coord out[3]);
/* Run the vertex shader (renderer) for three vertices. */
int vc4_gl_vertices(cg_vc4 *v, vc4_thread *t, const vc4_gl_record *r, const uint32_t idx[3],
                    int vp_x, int vp_y, vc4_gl_cache *c, vc4_vertex out[3]);

/* clip.c: the clipper's decision for one triangle of coordinate-shader
 * outputs (clipping enabled in the shader record): 0 draw, 1 discard (all
 * three vertices outside one plane of the clip volume), 2 the triangle
 * crosses the near or far plane or has a vertex with Wc <= 0 (needs
 * clipping). */
int vc4_clip_classify(const vc4_gl_coord c[3]);

/* A vertex of a clipped polygon: clip coordinates and the barycentric
 * weights on the original triangle's vertices. */
#define VC4_CLIP_MAX 8
typedef struct vc4_clip_vertex {
    float c[4]; /* Xc Yc Zc Wc */
    float b[3];
} vc4_clip_vertex;
/* Cut a triangle against the near and far planes: the polygon's vertices
 * (3..5), or 0 when nothing is left. */
int vc4_clip_near_far(const vc4_gl_coord c[3], vc4_clip_vertex out[VC4_CLIP_MAX]);

/* Cut a line (c[0] to c[1]) against the near and far planes: its two end
 * points (clip coordinates, weights (1 - t, t, 0) on the original end
 * points) and 2, or 0 when nothing is left (or a coordinate is NaN). */
int vc4_clip_line(const vc4_gl_coord c[2], vc4_clip_vertex out[2]);

/* The primitive setup's implicit varyings of a point or a line (clip.c):
 * prepended to the fragment shader's varyings of the four corners q (q[0]
 * and q[2] on the minus side of x (points) or of the line's offset, q[0]
 * and q[1] on the top for points). A point gets two, its sprite
 * coordinates s (0 on the left edge, 1 on the right) and t (1 on the top
 * edge, 0 on the bottom: lower-left origin); a line one, 0 on one side of
 * its width and 1 on the other. Returns the new number of varyings (at
 * most VC4_MAX_VARY; the record's last ones drop out past it). */
uint32_t vc4_pse_varyings(vc4_vertex q[4], bool point, uint32_t nvary);

/* Depth offset and the Z clipping planes of one primitive as the renderer
 * draws it (clip.c). vc4_depth_setup: `z` holds the Zs of the three screen
 * vertices `v` (the rasteriser's order); for a triangle (`polygon`) with
 * Configuration_Bits' Enable_Depth_Offset and a Depth_Offset record, the
 * offset factor x max depth slope + units x r (GL ES 2.0 section 3.5.5, r =
 * 1 / (2^24 - 1), one step of the 24-bit Z buffer) is added to z[0..2];
 * with `clipping` (the GL record's flag bit 2) and a
 * Z_min_and_max_clipping_planes record, *zc is set up so that
 * vc4_zclip_quad keeps only the fragments whose Zs (before the offset) lies
 * in [zmin, zmax]. `inv_area` is 1 / the edge functions' sum. */
typedef struct vc4_zclip {
    bool on;
    double zmin, zmax, inv_area;
    double z[3];
} vc4_zclip;
void vc4_depth_setup(const vc4_bin_state *st, bool clipping, bool polygon, const vc4_vertex v[3],
                     double inv_area, double z[3], vc4_zclip *zc);
/* The lanes of a quad (bit k: e[k] the three edge functions of pixel k)
 * that the Z planes keep, of qmask. */
unsigned vc4_zclip_quad(const vc4_zclip *zc, const int64_t e[4][3], unsigned qmask);

/* The model's clipped-primitive block (the hardware's layout is not
 * known): what a Clipped_Primitive_With_Compressed_Primitive_List record's
 * address points at, written by the binner into the tile allocation
 * memory. u32 vertex count n (3..5 in a triangle list; 2 in a line list,
 * the clipped line), u32 x 3 the original primitive's indices (a line:
 * i0, i1, i1), then per vertex s32 Xs, s32 Ys (12.4, without the viewport
 * offset), f32 Zs, f32 1/Wc, f32 x 3 barycentric weights: 16 + 28 n bytes. */
#define VC4_CLIP_BLOCK(n) (16u + 28u * (n))

#endif
