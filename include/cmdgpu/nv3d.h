/* cmdgpu: the nv family's 3D engine (MAXWELL_B, B197): texture headers
 * (TIC), samplers (TSC), texture reads, and draw records.
 *
 * Draws are recorded and decoded, not rasterized: a draw method fetches the
 * vertices and indices it names through the channel's address space,
 * decodes every enabled attribute, and hands a cg_nv_draw to the draw
 * callback. No shader runs (a later issue adds them); a draw record says
 * what the GPU was asked to draw, never what it would have put in the
 * render target. Clears (CLEAR_SURFACE) do write render targets.
 *
 * Sources: research/nv.md sections 5-7 (NVIDIA open-gpu-doc clb197.h,
 * clb197tex.h; yuzu textures/texture.h), seed 000 (Vertex Data Submission,
 * Texture View, TIC Structure). */
#ifndef CMDGPU_NV3D_H
#define CMDGPU_NV3D_H

#include <stdio.h>
#include "common.h"
#include "fault.h"
#include "mem.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- TIC: texture image control (32 bytes; research/nv.md section 6) ---- */

enum {
    CG_NV_TIC_1D_BUFFER = 0,         /* HEADER_VERSION, W2 23:21 */
    CG_NV_TIC_PITCH_COLORKEY = 1,
    CG_NV_TIC_PITCH = 2,
    CG_NV_TIC_BLOCKLINEAR = 3,
    CG_NV_TIC_BLOCKLINEAR_COLORKEY = 4,
};

typedef struct cg_nv_tic {
    uint32_t raw[8];
    uint32_t format;          /* W0 6:0 (codes: src/nv/tables/tex_formats.def) */
    uint8_t type[4];          /* R G B A component types: 1 SNORM, 2 UNORM, 3 SINT,
                                 4 UINT, 5 SNORM_FORCE_FP16, 6 UNORM_FORCE_FP16, 7 FLOAT */
    uint8_t swizzle[4];       /* X Y Z W sources: 0 ZERO, 2 R, 3 G, 4 B, 5 A,
                                 6 ONE_INT, 7 ONE_FLOAT */
    bool pack;                /* W0 31 */
    unsigned header_version;  /* CG_NV_TIC_* */
    uint64_t address;         /* texture GPU VA: W2 15:0 : W1 (48 bits); W1 8:0 are
                                 not address bits in block-linear headers, 4:0 in
                                 pitch ones (clb097tex.h field names) */
    uint32_t pitch;           /* pitch headers: bytes per row */
    unsigned block_w, block_h, block_d; /* block-linear: log2 GOBs per block */
    unsigned tile_width;      /* log2 */
    bool depth_texture;
    unsigned max_mip_level;
    uint32_t width, height, depth; /* the stored values + 1; a 1-D buffer's width-1
                                 is 32 bits (W3 15:0 high, W4 15:0 low), its
                                 largest value giving width 0 (= 2^32) */
    bool srgb;
    unsigned texture_type;    /* W4 26:23: 1D 0, 2D 1, 3D 2, CUBE 3, 1D_ARRAY 4,
                                 2D_ARRAY 5, 1D_BUFFER 6, 2D_NO_MIPMAP 7, CUBE_ARRAY 8 */
    unsigned border_size;
    bool normalized_coords;
    int32_t lod_bias;         /* W6 18:6, signed 5.8 fixed point (raw) */
    unsigned max_anisotropy;
    unsigned res_view_min_mip, res_view_max_mip;
    unsigned msaa_mode;
    uint32_t min_lod_clamp;   /* raw */
    uint32_t color_key;       /* colour-key headers */
    /* The other fields (deko3d maxwell/tic.h as quoted by the Hydra emulator,
     * yuzu textures/texture.h; see src/nv/gpu/texture.c for each position). */
    unsigned layer_base;      /* W2 31:29 (bits 10:8), 20:16 (7:3), W4 18:16 (2:0) */
    bool load_store_hint;     /* W2 24 */
    unsigned view_coherency_hash; /* W2 28:25 */
    bool gob_3d;              /* block-linear: W3 13 */
    bool lod_aniso_quality2, lod_aniso_quality, lod_iso_quality; /* W3 16, 17, 18 */
    unsigned aniso_coarse_spread_modifier; /* W3 20:19 */
    unsigned aniso_spread_scale;  /* W3 25:21 */
    bool use_header_opt_control;  /* W3 26 */
    unsigned aniso_spread_max_log2; /* W4 21:19 */
    unsigned sector_promotion;    /* W4 28:27 */
    bool sparse;                  /* W5 30 */
    bool color_key_op;            /* W6 0 */
    unsigned trilin_opt;          /* W6 5:1 */
    unsigned aniso_bias;          /* W6 22:19 */
    unsigned aniso_fine_spread_func, aniso_coarse_spread_func; /* W6 24:23, 26:25 */
    unsigned aniso_fine_spread_modifier; /* W6 31:30 */
} cg_nv_tic;

/* ---- TSC: texture sampler control (32 bytes) ----------------------------- */

typedef struct cg_nv_tsc {
    uint32_t raw[8];
    unsigned wrap_u, wrap_v, wrap_p;       /* address modes */
    bool depth_compare;
    unsigned depth_compare_func;
    bool srgb_conversion;
    unsigned max_anisotropy;
    unsigned mag_filter, min_filter, mip_filter;
    float min_lod_clamp, max_lod_clamp, mip_lod_bias;
    float border_color[4];
    /* The other fields (deko3d maxwell/tsc.h, yuzu TSCEntry; positions in
     * src/nv/gpu/texture.c). */
    unsigned font_filter_width, font_filter_height; /* W0 16:14, 19:17 */
    bool cubemap_anisotropy, cubemap_interface_filtering; /* W1 8, 9 */
    unsigned reduction_filter;    /* W1 11:10: 0 weighted average, 1 min, 2 max */
    bool float_coord_normalization; /* W1 25: force unnormalized coordinates */
    unsigned trilin_opt;          /* W1 30:26 */
    uint8_t srgb_border_color[3]; /* R W2 31:24, G W3 19:12, B W3 27:20 */
} cg_nv_tsc;

/* Decode 8 words (never fails; reserved values are kept as numbers). */
CG_API void cg_nv_tic_decode(const uint32_t w[8], cg_nv_tic *out);
CG_API void cg_nv_tsc_decode(const uint32_t w[8], cg_nv_tsc *out);

/* Texture format name ("A8B8G8R8", "DXT1", ...), NULL if unknown. */
CG_API const char *cg_nv_tex_format_name(uint32_t format);
/* Bytes per texel or per 4x4 block (compressed), 0 if unknown. */
CG_API unsigned cg_nv_tex_format_bytes(uint32_t format, bool *compressed);

/* Read level 0, layer 0 of the texture a TIC entry describes, through vas,
 * and decode it to RGBA8 (width * height * 4 bytes, malloc'ed, *rgba owned by
 * the caller). Pitch and block-linear headers (1-D buffers as one row).
 * This is a debugger's read, not a GPU access: it posts no fault. Errors:
 * CG_ERR_UNSUPPORTED (format, header version or component types it cannot
 * decode), CG_ERR_FAULT (some byte unmapped; nothing posted), CG_ERR_RANGE
 * (size over 16384 x 16384), CG_ERR_NOMEM. */
CG_API int cg_nv_tex_read_rgba8(cg_vas *vas, const cg_nv_tic *t, uint8_t **rgba,
                                uint32_t *width, uint32_t *height);

/* One JSON object for a decoded TIC / TSC (every field, names for enums). */
CG_API void cg_nv_tic_print_json(FILE *f, const cg_nv_tic *t);
CG_API void cg_nv_tsc_print_json(FILE *f, const cg_nv_tsc *t);

/* ---- draw records -------------------------------------------------------- */

#define CG_NV_MAX_ATTRIBS 32
#define CG_NV_MAX_STREAMS 32
#define CG_NV_MAX_TARGETS 8

typedef struct cg_nv_attrib_fmt {
    uint32_t raw;             /* VERTEX_ATTRIB_FORMAT word */
    unsigned stream, offset;
    bool constant;            /* SOURCE = INACTIVE: not fetched */
    unsigned size;            /* COMPONENT_BIT_WIDTHS code */
    unsigned type;            /* NUMERICAL_TYPE */
    bool bgra;
    unsigned components;      /* 1..4, 0 if the size code is not valid */
} cg_nv_attrib_fmt;

/* One attribute of one fetched vertex: the decoded components as the vertex
 * shader would see them (integers in i[], floats, normalised and scaled
 * types in f[]; missing components (0, 0, 0, 1)). */
typedef struct cg_nv_attrib_val {
    bool is_int;
    float f[4];
    int64_t i[4];
    /* (added by draw.c) the bytes lie past the stream's limit, or the stream
     * is disabled: nothing was read and the value decodes zero bytes */
    bool out_of_range;
} cg_nv_attrib_val;

typedef struct cg_nv_vertex {
    uint32_t index;           /* vertex index (after the index buffer) */
    uint32_t instance;
    cg_nv_attrib_val attr[CG_NV_MAX_ATTRIBS];
    bool index_out_of_range;  /* (added) the index lies past the index buffer limit: 0 */
} cg_nv_vertex;

typedef struct cg_nv_stream {
    bool enabled;
    uint32_t stride;
    uint64_t start, limit;    /* limit: last valid byte */
    uint32_t frequency;
    bool instanced;           /* (added) SET_VERTEX_STREAM_INSTANCE_A/B */
} cg_nv_stream;

typedef struct cg_nv_cb_binding {
    bool valid;
    uint64_t addr;
    uint32_t size;
} cg_nv_cb_binding;

/* A texture a stage can reach: a handle word from the stage's texture
 * constant buffer (seed 000 "Texture View"). */
typedef struct cg_nv_tex_binding {
    unsigned stage;
    unsigned slot;            /* word index in the texture constant buffer (>= 8) */
    uint32_t handle;          /* TIC index 19:0, TSC index 31:20 */
    uint32_t tic_index, tsc_index;
    bool tic_ok, tsc_ok;      /* false: outside the pool limit or unreadable */
    cg_nv_tic tic;
    cg_nv_tsc tsc;
} cg_nv_tex_binding;

typedef struct cg_nv_rt_state {
    uint64_t addr;
    uint32_t width, height, format, memory; /* registers as written */
    bool pitch;
    unsigned block_w, block_h, block_d;
} cg_nv_rt_state;

typedef struct cg_nv_draw {
    int channel;
    uint64_t stream_addr;     /* the pushbuffer word that drew */
    uint64_t seq;             /* draws recorded on the channel before this one */
    unsigned topology;        /* BEGIN OP */
    uint32_t begin;           /* the BEGIN word */
    bool indexed;
    uint32_t first, count;    /* vertex or index range */
    unsigned index_size;      /* bytes, indexed draws */
    uint64_t index_addr;
    uint32_t instance;
    cg_nv_attrib_fmt attribs[CG_NV_MAX_ATTRIBS];
    cg_nv_stream streams[CG_NV_MAX_STREAMS];
    size_t nvertices;
    const cg_nv_vertex *vertices; /* nvertices, in draw order */
    cg_nv_cb_binding cb[5][18];   /* [stage][slot] */
    size_t ntextures;
    const cg_nv_tex_binding *textures;
    unsigned rt_count;            /* RT_CONTROL count */
    unsigned rt_map[CG_NV_MAX_TARGETS];
    cg_nv_rt_state rt[CG_NV_MAX_TARGETS];
    cg_nv_rt_state zeta;
    bool zeta_enabled;
    /* (added by draw.c) */
    uint64_t index_limit;     /* indexed draws: last valid byte of the index buffer */
    unsigned tex_cb_slot;     /* SET_BINDLESS_TEXTURE: the texture constant buffer slot */
    cg_vas *vas;              /* the channel's address space, for debugger reads
                                 (cg_nv_tex_read_rgba8) during the callback */
} cg_nv_draw;

typedef struct cg_nv_gpu cg_nv_gpu;
/* Called for every draw, during cg_nv_gpu_run; the record and its arrays
 * are valid only during the call. NULL removes the callback. */
typedef void (*cg_nv_draw_fn)(void *user, const cg_nv_draw *d);
CG_API void cg_nv_gpu_set_draw_callback(cg_nv_gpu *gpu, cg_nv_draw_fn fn, void *user);

/* One JSON object for a draw record (every field; textures with their
 * decoded TIC and TSC). */
CG_API void cg_nv_draw_print_json(FILE *f, const cg_nv_draw *d);

/* A scene's draws reach cg_scene_opts.draw_fn (cmdgpu/scene.h) as
 * const cg_nv_draw *. */

#ifdef __cplusplus
}
#endif
#endif
