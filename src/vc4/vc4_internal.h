/* vc4 family: internal definitions shared by src/vc4 (not installed). */
#ifndef CMDGPU_VC4_INTERNAL_H
#define CMDGPU_VC4_INTERNAL_H

#include <stddef.h>
#include <string.h>
#include "core/bits.h"
#include "core/internal.h"
#include "core/mem_internal.h"
#include "cmdgpu/vc4.h"

/* ---- the record table (cl.def, built in cl_defs.c) ---- */
enum { VC4_ANY = 0, VC4_BIN = 1, VC4_REND = 2 };
enum { VC4_FT_U = 0, VC4_FT_S, VC4_FT_A, VC4_FT_F, VC4_FT_B, VC4_FT_X };
/* the validator's policy column: vc4_validate.c cmd_info[] accepts the
 * record in a bin CL (KBIN) or not (KNONE) */
enum { VC4_POL_KNONE = 0, VC4_POL_KBIN = 1 };

/* What a record is for: cl.def's role column (its header lists them). The
 * control-list interpreter (cl.c), the tile pool and the disassembler
 * dispatch on it; VC4_RL_NONE: no record has the opcode. */
enum vc4_role {
    VC4_RL_NONE = 0,
    /* the thread's own records (cl.c) */
    VC4_RL_NOP, VC4_RL_HALT, VC4_RL_SEM_INC, VC4_RL_SEM_WAIT, VC4_RL_BRANCH, VC4_RL_CALL,
    VC4_RL_RETURN,
    /* the binner's */
    VC4_RL_BINNING, VC4_RL_PRIMS, VC4_RL_FLUSH,
    /* state: kept by an engine; latched by both (vc4_latch_state) */
    VC4_RL_STATE, VC4_RL_LATCH,
    /* the renderer's */
    VC4_RL_LOAD, VC4_RL_TILE, VC4_RL_DRAW, VC4_RL_STORE,
    VC4_RL_VG, /* the OpenVG path: not modelled */
    VC4_RL_COUNT
};
/* A set of roles (a mask), and whether opcode op's role is in it. */
#define VC4_RM(role) (1u << VC4_RL_##role)
#define VC4_ROLE_IN(op, mask) (((1u << vc4_cl_role[(op)]) & (mask)) != 0)
/* Each opcode's role (cl.def), by opcode. */
extern const uint8_t vc4_cl_role[256];

typedef struct vc4_field {
    const char *name;
    const char *alias; /* the seed's name, or "" */
    uint8_t bit, width, type;
} vc4_field;

typedef struct vc4_slot {
    uint8_t bit, width;
} vc4_slot;

typedef struct vc4_record {
    const char *name;  /* the reference's name (v3d_packet_v21.xml, Reference Guide) */
    const char *alias; /* the seed's name, also accepted by the assembler, or NULL */
    const char *desc;
    uint8_t opcode, size, where, policy, role;
    const vc4_field *fields;
    uint8_t nfields;
    const vc4_slot *slots; /* macro operand slots; NULL: one per field */
    uint8_t nslots;
} vc4_record;

/* The record for an opcode / a name; false if none. */
bool vc4_record_get(uint8_t op, vc4_record *out);
bool vc4_record_find(const char *name, vc4_record *out);
/* All records in table order. */
size_t vc4_record_count(void);
bool vc4_record_at(size_t i, vc4_record *out);

/* Little-endian bit fields of a payload (width <= 64). Reads only the
 * bytes that hold the field (at most 9); with a constant bit and width
 * (VC4_GET) it folds to a few loads and shifts. */
static inline uint64_t vc4_bits_get(const uint8_t *p, unsigned bit, unsigned width)
{
    const uint8_t *q = p + (bit >> 3);
    unsigned sh = bit & 7, nbytes = (sh + width + 7) >> 3;
    uint64_t v = 0;
    for (unsigned i = 0; i < nbytes && i < 8; i++)
        v |= (uint64_t)q[i] << (8 * i);
    v >>= sh;
    if (nbytes > 8) /* sh + width > 64: the top bits are in a ninth byte */
        v |= (uint64_t)q[8] << (64 - sh);
    return width < 64 ? v & ((UINT64_C(1) << width) - 1) : v;
}
static inline void vc4_bits_set(uint8_t *p, unsigned bit, unsigned width, uint64_t v)
{
    for (unsigned i = 0; i < width; i++) {
        unsigned b = bit + i;
        p[b >> 3] = (uint8_t)((p[b >> 3] & ~(1u << (b & 7))) | (((v >> i) & 1) << (b & 7)));
    }
}
/* A field's value as shown and assembled: addresses are shifted into place. */
uint64_t vc4_field_value(const vc4_field *f, const uint8_t *payload);
const char *vc4_record_confidence(const vc4_record *r); /* "known" | "partial" */

static inline uint32_t vc4_le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static inline uint16_t vc4_le16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }
static inline float vc4_f32(uint32_t u) { return cg__bitsf(u); }
static inline uint32_t vc4_u32f(float f) { return cg__fbits(f); }

/* Opcodes, byte sizes and field positions, from cl.def: VC4_OP_<record>,
 * VC4_SIZE_<record>, VC4_FB_<record>_<field> (first bit of the payload) and
 * VC4_FW_<record>_<field> (width). */
enum {
#define R(name, op, size, where, policy, role, alias, desc) VC4_OP_##name = op, VC4_SIZE_##name = size,
#define F(rec, name, bit, width, type, alias) VC4_FB_##rec##_##name = bit, VC4_FW_##rec##_##name = width,
#define V(rec, field, value, vname)
#define A(rec, bit, width)
#include "vc4/tables/cl.def"
#undef R
#undef F
#undef V
#undef A
};
/* A payload field's raw bits, by record and field name (cl.def). */
#define VC4_GET(payload, rec, field) \
    vc4_bits_get((payload), VC4_FB_##rec##_##field, VC4_FW_##rec##_##field)
/* An address field: its bits moved to their place in the 32-bit address. */
#define VC4_ADDR(payload, rec, field) \
    ((uint32_t)(VC4_GET(payload, rec, field) << (32 - VC4_FW_##rec##_##field)))
/* Enum value names of a field (cl.def V lines). */
const char *vc4_field_enum_name(const vc4_field *f, uint64_t value);
bool vc4_field_enum_value(const vc4_field *f, const char *name, uint64_t *value);

/* ---- the device ---- */
#define VC4_TILE 64
#define VC4_MAX_TILES_X 64 /* 4096 pixels (kernel limit on surfaces) */
#define VC4_MAX_TILES_Y 64
#define VC4_MAX_VARY 32

/* The state the binner copies into tile lists. */
typedef struct vc4_bin_state {
    uint8_t prim_format;      /* 0x12: triangles, 16-bit index */
    uint32_t nv_record;       /* NV shader record address; with gl: the GL_Shader_State payload */
    bool nv_valid;
    bool gl;                  /* the shader state is GL_Shader_State (gl.h) */
    uint8_t config[3];
    bool config_valid;
    int16_t vp_x, vp_y;
    bool vp_valid;
    uint16_t clip[4];
    bool clip_valid;
    uint32_t flat_flags;
    bool flat_valid;
    uint32_t ps_bits, lw_bits; /* Point_size, Line_width (float bits) */
    bool ps_valid, lw_valid;
    /* Depth_Offset (factor [15:0], units [31:16], each the top 16 bits of
     * an f32) and Z_min_and_max_clipping_planes (gl.h vc4_depth_setup) */
    uint32_t depth_offset;
    bool depth_offset_valid;
    float zmin, zmax;
    bool zplanes_valid;
} vc4_bin_state;

typedef struct vc4_tile_list {
    uint32_t cur, end;     /* write pointer, end of the current block */
    bool in_compressed;    /* inside an open compressed list */
    bool written;          /* any primitive written */
    uint32_t prev[3];      /* previous triangle (coding state) */
    bool first;            /* next triangle needs an absolute coding */
    uint32_t ver_fmt, ver_nv, ver_cfg, ver_vp, ver_clip, ver_flat; /* state versions written */
    uint32_t ver_all;      /* the binner's ver_all when all of its state was last written */
    uint32_t ver_ps, ver_lw; /* Point_size, Line_width versions written (before points/lines) */
    /* host bytes of the bus range [hp_lo, hp_hi) the list writes into,
     * valid while hp_gen == the binner's gen (binner.c tl_write) */
    uint8_t *hp;
    uint32_t hp_lo, hp_hi;
    uint64_t hp_gen;
} vc4_tile_list;

typedef struct vc4_binner {
    bool configured, started;
    uint32_t alloc_addr, alloc_size, state_addr;
    unsigned tw, th;
    uint8_t flags;
    unsigned init_block, block;
    vc4_tile_list *tiles; /* tw*th */
    uint64_t gen;         /* bumped at every binning record: drops the lists' host pointers */
    vc4_bin_state st;
    uint32_t ver_fmt, ver_nv, ver_cfg, ver_vp, ver_clip, ver_flat;
    uint32_t ver_all; /* bumped with every ver_* above */
    /* resume point after an out-of-memory stop */
    bool oom;
    uint32_t resume_addr; /* address of the record being binned */
    uint32_t resume_prim; /* primitive index inside it */
    uint32_t resume_tile; /* tile index inside the primitive */
    struct vc4_gl_cache *glc; /* coordinate shader outputs (gl.h), or NULL */
    uint32_t ver_ps, ver_lw;  /* Point_size, Line_width (not in ver_all: only points/lines need them) */
    float pl_psize;           /* the coordinate shader's point size of the point being binned */
    /* the clipper: Clipper_XY_Scaling (half width, height in 1/16 pixel),
     * Clipper_Z_Scale_and_Offset; clipped-primitive blocks go to
     * [clip_cur, clip_end) of the pool */
    float clip_sx, clip_sy, clip_zs, clip_zo;
    bool clip_xy_valid, clip_z_valid;
    uint32_t clip_cur, clip_end;
} vc4_binner;

typedef struct vc4_thread {
    uint32_t ca, ea;
    uint32_t cs;        /* error, mode bits the register shows */
    bool running;
    bool waiting_sem;
    bool faulted;
    uint32_t ret[2];
    unsigned depth;
    uint32_t sem;       /* increments from the other thread not yet consumed */
    uint32_t pending_inc; /* binning thread: increments queued until Flush */
    uint32_t lc, pc;    /* list counter, primitive counter (for CTnLC/CTnPC) */
    cg_agent agent;
} vc4_thread;

struct vc4_frag_batch;
typedef struct vc4_render {
    struct vc4_frag_batch *batch; /* reused for every 16-lane batch */
    struct vc4_qpu_cache *qcache; /* decoded fragment shaders (qpu.h) */
    struct vc4_gl_cache *glc; /* vertex shader outputs and the record (gl.h), or NULL */
    /* the tile buffer: VC4_TILE x VC4_TILE colour words and as many Z/S
     * words (vc4_render_new; the tile pool swaps them between renderers) */
    uint32_t *color, *zs;
    /* what one compressed primitive list reads again and again (render.c
     * compressed_list's, while it runs; else NULL) */
    struct vc4_list_cache *lc;
    /* the tile pool (pool.c) may leave the buffer's words to be filled:
     * fill_pending bit 0 colour with pend_c, bit 1 Z/S with pend_z;
     * vc4_tile_settle writes them before anything reads the buffer */
    uint8_t fill_pending;
    uint32_t pend_c, pend_z;
    /* ---- the latched state: every field from `configured` to the end
     * (VC4_RSTATE_*): the tile pool (pool.c) snapshots, compares and copies
     * it as bytes ---- */
    bool configured;
    uint32_t fb_addr;
    uint16_t width, height;
    uint16_t flags;
    uint32_t clear_color[2];
    uint32_t clear_zs;
    uint8_t clear_vg, clear_stencil;
    int tile_x, tile_y; /* -1 before Tile_Coordinates */
    /* state from tile lists */
    vc4_bin_state st;
    /* a load waits for the next Tile_Coordinates */
    bool load_pending;
    uint8_t load_rec[7];
    uint8_t load_op;
    bool stored_since_load;
    float point_size, line_width; /* Point_size, Line_width (0: never set, taken as 1) */
} vc4_render;
#define VC4_RSTATE_OFF offsetof(vc4_render, configured)
#define VC4_RSTATE_LEN (offsetof(vc4_render, line_width) + sizeof(float) - VC4_RSTATE_OFF)
/* render.c: a zeroed renderer with its tile buffer (tile_x, tile_y -1), NULL
 * if out of memory; free it (and its buffer; not its caches) */
vc4_render *vc4_render_new(void);
/* The same with the caller's tile buffers (VC4_TILE * VC4_TILE words
 * each, both or neither: NULL allocates them), which vc4_render_free then
 * frees unless the caller takes them back first. */
vc4_render *vc4_render_new_with(uint32_t *color, uint32_t *zs);
void vc4_render_free(vc4_render *r);
/* render.c: write what fill_pending stands for */
void vc4_tile_settle(vc4_render *r);
/* The Z/S word a store's clear leaves in every tile-buffer word: the clear
 * Z (24 bits) above the clear stencil (render.c clear_zs; the pool's
 * pre-pass and vc4_pool_after predict it) */
static inline uint32_t vc4_clear_zs_word(const vc4_render *r)
{
    return (r->clear_zs & 0xFFFFFF) << 8 | r->clear_stencil;
}
/* n words of val from p */
void vc4_fill32(uint32_t *p, uint32_t val, size_t n);

/* A tile-buffer store record (role STORE) decoded with the renderer in
 * its state: the one decoder of the four store records, for the renderer
 * (which runs them) and the tile pool (which predicts what they write and
 * leave). Record fields from cl.def; the multi-sample stores take the
 * frame buffer, its format and tiling from Tile_Rendering_Mode_Configuration
 * (render.c). */
enum {
    VC4_STORE_OK = 0,
    VC4_STORE_DECIMATE, /* general: decimate mode (multisample): unsupported */
    VC4_STORE_TILING,   /* tiling 3: reserved */
    VC4_STORE_DITHER,   /* BGR565 dithered: unsupported */
    VC4_STORE_FORMAT,   /* colour format 3: reserved */
    VC4_STORE_VG,       /* general: buffer 4 or 5 (VG mask, full dump): unsupported */
    VC4_STORE_BUFFER,   /* general: buffer 6 or 7: reserved */
    VC4_STORE_RAW_BOTH  /* full resolution: colour and Z/S to one address: unsupported */
};
typedef struct vc4_store {
    uint32_t addr;     /* the surface's or the raw dump's bus address */
    uint8_t buffer;    /* general: Buffer_to_Store; the others: 1 */
    uint8_t mode;      /* general: its decimate mode */
    uint8_t tiling;    /* 0 linear, 1 T, 2 LT, 3 reserved */
    uint8_t fmt;       /* colour, the general store's numbering: 0 RGBA8888,
                        * 1 BGR565 dithered, 2 BGR565, 3 reserved */
    bool color, zs;    /* it writes the colour / Z-stencil buffer */
    bool raw;          /* a full-resolution dump: 64 x 64 words at addr */
    bool keep_color, keep_zs; /* the buffer is not cleared after */
    bool eof;          /* it ends the frame */
    bool counts;       /* it counts as a rendered tile (statistics) */
    uint8_t bad;       /* VC4_STORE_*: it faults before writing (once a tile is set) */
} vc4_store;
/* render.c: decode store record rec (its role is STORE) with renderer r */
void vc4_store_decode(const vc4_render *r, const uint8_t *rec, vc4_store *s);
/* Bytes of a surface of w x h pixels (bpp 2 or 4) in a tiling, rounded up
 * to whole 4 KiB tiles in T and LT (render.c pix_off) */
uint64_t vc4_surface_bytes(unsigned tiling, uint32_t w, uint32_t h, unsigned bpp);

typedef struct vc4_fw_alloc {
    uint32_t handle, addr, size, flags;
    bool locked;
} vc4_fw_alloc;

struct cg_vc4 {
    cg_device *dev;
    cg_vc4_config cfg;
    cg_mem *sdram;
    cg_vas *bus;   /* GPU view: four aliases */
    cg_vas *arm;   /* the ARM's view at 0 */
    /* registers */
    uint32_t l2cactl, slcactl, intctl, intena, scratch;
    uint32_t bfc, rfc;
    uint32_t bpca, bpcs, bpoa, bpos;
    bool bmoom;
    vc4_thread th[2];
    bool in_run;
    uint64_t budget[2]; /* records and primitives each thread may still run */
    /* mailbox */
    uint32_t mbox_q[8];
    unsigned mbox_n;
    /* the firmware's GPU memory heap [cfg.fw_heap, sdram_size): blocks are
     * placed first-fit between the live ones (allocs with a size, and the
     * framebuffer), so freed memory is reused and neighbouring free blocks
     * are one; each allocation takes the next handle (1, 2, ...) and a
     * released slot of allocs, which grows without a limit (v3d.c fw_alloc,
     * mbox_mem) */
    vc4_fw_alloc *allocs;
    unsigned nallocs, cap_allocs;
    uint32_t next_handle;
    uint32_t phys_w, phys_h, virt_w, virt_h, depth, virt_x, virt_y;
    uint32_t fb_addr, fb_size;
    bool fb_valid;
    uint32_t clock_v3d;
    bool qpu_enabled;
    vc4_binner bin;
    vc4_render *rend;
    cg_vc4_stats stats;
    struct vc4_gpgpu *gp; /* user programs (gpgpu.c), allocated on first use */
    /* the tile pool (pool.h): threads that render tiles (1: none), the
     * pool (NULL until first used); seg: this is a pool worker's copy of
     * the device, running one tile segment (the pool's watch stops it
     * before the record that ends the segment and sets seg_stopped) */
    unsigned render_threads;
    struct vc4_pool *pool;
    /* the render thread works alone until alone_ns (its stepping time
     * without a pool, wall clock) reaches pool_after_ns (pool.c) */
    uint64_t pool_after_ns, alone_ns;
    uint64_t alone_since; /* when the current stretch alone began, 0: not alone */
    /* the render thread's GL shaders call it before a VDW write once the
     * pool exists (gl.c; the pool sets it: vc4_pool_fence) */
    void (*pool_fence)(void *v);
    bool seg, seg_stopped;
    bool pool_timing; /* time the pool's segments (bench) */
    /* a pool worker's copy: its segment's store may be written early
     * (pool.h "early stores"); es: set while that store record runs (the
     * stores write through vc4_es_dst; the pool's watch stops after it) */
    struct vc4_es_seg *seg_es;
    struct vc4_es_seg *es;
    /* a pool worker's copy while the device is traced: the records its
     * segment runs go here (vc4_pool_log), and the render thread emits
     * them when it takes the result; a worker's copy emits no event */
    struct vc4_trace_log *tlog;
};

/* GPU access to the bus: straight to the backing page when the model needs
 * nothing else for it (cg__vas_span), else through cg_vas_read/write, which
 * fault, run the coherency checks and trace. 0 or CG_ERR_FAULT. */
static inline int vc4_bus_read(cg_vas *bus, uint64_t addr, void *dst, size_t n,
                               const cg_agent *who)
{
    uint8_t *p;
    if (n && cg__vas_span(bus, addr, n, false, &p) == n) {
        memcpy(dst, p, n);
        return 0;
    }
    return cg_vas_read(bus, addr, dst, n, who) == 0 ? 0 : CG_ERR_FAULT;
}
static inline int vc4_bus_write(cg_vas *bus, uint64_t addr, const void *src, size_t n,
                                const cg_agent *who)
{
    uint8_t *p;
    if (n && cg__vas_span(bus, addr, n, true, &p) == n) {
        memcpy(p, src, n);
        return 0;
    }
    return cg_vas_write(bus, addr, src, n, who) == 0 ? 0 : CG_ERR_FAULT;
}

/* The host bytes of one 4 KiB bus page a reader may reuse while nothing can
 * write memory or change its coherency state (e.g. within one compressed
 * primitive list); page == NULL: none. */
typedef struct vc4_page_cache {
    const uint8_t *page;
    uint64_t va;
} vc4_page_cache;
/* threads.c: the two control-list threads */
int vc4_thread_kick(cg_vc4 *v, int t);
int vc4_run_threads(cg_vc4 *v);
/* cl.c: the interpreter. Who watches a thread's step (the render thread's
 * tile pool, pool.h) does so at two named points:
 * turn: before the record at CA (n: records the step ran so far); it
 *   returns how many records it ran for the thread (CA, the budget and the
 *   statistics moved as those records would have), 0: the thread fetches
 *   the record itself, or VC4_CL_STOP: the step ends here;
 * record: the thread fetched the record rec (size bytes at addr) and runs
 *   it itself (n records into the step); it returns VC4_CL_RUN, VC4_CL_TRACED
 *   (run it; the watcher keeps its trace event) or VC4_CL_STOP (the step
 *   ends before it, CA on it). */
enum { VC4_CL_STOP = -1, VC4_CL_RUN = 0, VC4_CL_TRACED = 1 };
typedef struct vc4_cl_watch {
    int64_t (*turn)(cg_vc4 *v, uint64_t *budget, int64_t n);
    int (*record)(cg_vc4 *v, uint32_t addr, const uint8_t *rec, unsigned size, int64_t n);
} vc4_cl_watch;
/* Run thread t until it ends, blocks or faults, w watching (or NULL): the
 * records run, or CG_ERR_NOMEM. */
int64_t vc4_cl_step(cg_vc4 *v, int t, uint64_t *budget, const vc4_cl_watch *w);
/* pool.c: the tile pool of the render thread (pool.h, docs/vc4.md "Tiles
 * on a pool of threads"), as the threads see it: vc4_pool_enter, before
 * the render thread's turn: the pool's watch on its step (NULL: it steps
 * alone); vc4_pool_rest, after it: the pool's run ends (workers stopped,
 * every taken store in memory, the tile buffer settled). */
const vc4_cl_watch *vc4_pool_enter(cg_vc4 *v);
void vc4_pool_rest(cg_vc4 *v);
struct vc4_pool;
/* The render thread's time alone before the pool starts, by default: about
 * what the pool's set-up (its thread, buffers and their first touch) costs
 * a fresh process on the virtual machines measured, 1.5-2 ms (docs/vc4.md
 * "When the pool starts"); alone that long, the thread has lost at most as
 * much as starting at once could have. */
#define VC4_POOL_AFTER_NS 2000000u
void vc4_pool_destroy(cg_vc4 *v);
struct vc4_trace_log;
/* Early stores (pool.h): a pool worker's copy stages its segment's store;
 * the renderer writes it through these. vc4_es_dst: where the store's bytes
 * for [a, a + n) (in one page) go: a staging buffer, each run copied to the
 * host page later; NULL: not possible (the store then faults, so the
 * segment has no result). */
uint8_t *vc4_es_dst(struct vc4_es_seg *es, uint64_t a, uint32_t n);
/* vc4_es_take_rows: stage a whole linear 32-bit tile transfer (th rows of
 * tw words, VC4_TILE words apart in *buf, row y to bus address a + y *
 * stride) without copying it, when the segment's store clears the tile
 * buffer: the staging takes *buf, and *buf becomes the old staging
 * buffer (its words stale until that clear). False: not possible here
 * (stage row by row). */
bool vc4_es_take_rows(struct vc4_es_seg *es, uint32_t **buf, uint64_t a, uint32_t stride,
                      uint32_t tw, uint32_t th);
/* What the pool did since the device was created (bench, tests). */
typedef struct vc4_pool_counts {
    uint64_t segs;          /* tile segments the pre-passes cut */
    uint64_t spec;          /* of them handed to the threads (they draw) */
    uint64_t rendered;      /* rendered by a thread (the render thread included) */
    uint64_t rendered_main; /* of them by the render thread in turn (not for a late worker) */
    uint64_t taken;         /* results the render thread took */
    uint64_t batches_taken; /* fragment batches in those */
    /* with pool_timing: wall-clock time rendering segments (a thread CPU
     * clock read is a system call, 1.5 us on the host of the figures) */
    uint64_t seg_ns;        /* every thread */
    uint64_t seg_ns_main;   /* the render thread's part of it (rendered_main) */
    uint64_t es_taken;      /* of the results taken, those with their store written early */
} vc4_pool_counts;
void vc4_pool_get_counts(const cg_vc4 *v, vc4_pool_counts *out);
/* Results taken by every device of the process (tests of scenes). */
uint64_t vc4_pool_taken_total(void);
/* binner.c: records seen by the binning thread; returns 0, 1 = blocked
 * (out of memory; retry the same record), or a negative cg_err after a fault. */
int vc4_bin_record(cg_vc4 *v, vc4_thread *t, uint32_t addr, const uint8_t *rec);
int vc4_bin_flush(cg_vc4 *v, vc4_thread *t, bool all_state);
void vc4_bin_reset(cg_vc4 *v);
/* render.c */
/* A frame's last tile stored: RFC counts it, FRDONE is raised. */
void vc4_end_of_frame(cg_vc4 *v);
/* Render-thread records; *next is preset to the following record and moved
 * by variable-length ones. 0, 1 = blocked, or a negative cg_err. */
int vc4_render_record(cg_vc4 *v, vc4_thread *t, uint32_t addr, const uint8_t *rec,
                      uint32_t *next);
bool vc4_tri_culled(const uint8_t cfg[3], int64_t area2);
/* Rasterise one triangle (vertex indices) into the current tile. */
int vc4_render_triangle(cg_vc4 *v, vc4_thread *t, const uint32_t idx[3], vc4_page_cache *pc);
/* A point / a line (GL ES 2.0 rules, docs/vc4.md "Points and lines"). */
int vc4_render_point(cg_vc4 *v, vc4_thread *t, uint32_t idx, vc4_page_cache *pc);
int vc4_render_line(cg_vc4 *v, vc4_thread *t, const uint32_t idx[2], vc4_page_cache *pc);
/* Read a shaded vertex of the current NV record. */
typedef struct vc4_vertex {
    int32_t x, y; /* 12.4, viewport offset applied */
    float z, inv_w;
    float psize;  /* point size, when the shaded vertex has one (flag bit 1) */
    float vary[VC4_MAX_VARY];
} vc4_vertex;
typedef struct vc4_nv_record {
    uint8_t flags, stride, nunif, nvary;
    uint32_t code, unif, vdata;
} vc4_nv_record;
/* vertex.c (shared by binner.c and render.c): the NV shader state record
 * at addr; */
int vc4_read_nv_record(cg_vc4 *v, const cg_agent *who, uint32_t addr, vc4_nv_record *out);
/* `need` bytes at offset `off` of vertex idx, through the page
 * cache pc (may be NULL); a vertex past the 32-bit bus faults. The page
 * cache hit is inline so that a constant `need` (the binner's 4 bytes of
 * X and Y) becomes one load instead of a call to memcpy; vertex.c has the
 * rest. */
int vc4_vertex_bytes_miss(cg_vc4 *v, const cg_agent *who, const vc4_nv_record *r, uint32_t idx,
                          uint32_t off, void *buf, uint32_t need, vc4_page_cache *pc);
/* The page cache's bytes of [off, off + need) of vertex idx, or NULL (not
 * in the page it holds). */
static inline const uint8_t *vc4_vertex_hit(const vc4_nv_record *r, uint32_t idx, uint32_t off,
                                            uint32_t need, const vc4_page_cache *pc)
{
    uint64_t a = (uint64_t)r->vdata + (uint64_t)idx * r->stride + off;
    if (pc && pc->page && a <= 0xFFFFFFFFu && (a >> 12) == (pc->va >> 12) &&
        (a & 0xFFF) + need <= 4096)
        return pc->page + (a & 0xFFF);
    return NULL;
}
static inline int vc4_vertex_bytes(cg_vc4 *v, const cg_agent *who, const vc4_nv_record *r,
                                   uint32_t idx, uint32_t off, void *buf, uint32_t need,
                                   vc4_page_cache *pc)
{
    const uint8_t *p = vc4_vertex_hit(r, idx, off, need, pc);
    if (p) {
        memcpy(buf, p, need);
        return 0;
    }
    return vc4_vertex_bytes_miss(v, who, r, idx, off, buf, need, pc);
}
/* The bytes of a shaded vertex and their decoding (research/vc4.md 1.1):
 * [clip header Xc Yc Zc Wc if flag 3], s16 Xs, s16 Ys (12.4), f32 Zs, f32
 * 1/Wc, [point size if flag 1], the first VC4_MAX_VARY varyings. */
static inline uint32_t vc4_vertex_size(const vc4_nv_record *r)
{
    uint32_t nv = r->nvary > VC4_MAX_VARY ? VC4_MAX_VARY : r->nvary;
    return ((r->flags & 8) ? 16 : 0) + 12 + ((r->flags & 2) ? 4 : 0) + 4 * nv;
}
static inline void vc4_vertex_decode(const uint8_t *p, const vc4_nv_record *r, int vp_x, int vp_y,
                                     vc4_vertex *o)
{
    uint32_t off = (r->flags & 8) ? 16 : 0;
    uint32_t nv = r->nvary > VC4_MAX_VARY ? VC4_MAX_VARY : r->nvary;
    o->x = (int16_t)vc4_le16(p + off) + vp_x;
    o->y = (int16_t)vc4_le16(p + off + 2) + vp_y;
    o->z = vc4_f32(vc4_le32(p + off + 4));
    o->inv_w = vc4_f32(vc4_le32(p + off + 8));
    o->psize = (r->flags & 2) ? vc4_f32(vc4_le32(p + off + 12)) : 0.0f;
    uint32_t vo = off + 12 + ((r->flags & 2) ? 4 : 0);
    for (uint32_t i = 0; i < nv; i++)
        o->vary[i] = vc4_f32(vc4_le32(p + vo + 4 * i));
}
/* Vertex idx of the NV record r, decoded, through the page cache pc (may be
 * NULL): a hit decodes in place, vertex.c has the rest. */
int vc4_read_vertex_miss(cg_vc4 *v, const cg_agent *who, const vc4_nv_record *r, uint32_t idx,
                         int vp_x, int vp_y, vc4_vertex *out, vc4_page_cache *pc);
static inline int vc4_read_vertex(cg_vc4 *v, const cg_agent *who, const vc4_nv_record *r,
                                  uint32_t idx, int vp_x, int vp_y, vc4_vertex *out,
                                  vc4_page_cache *pc)
{
    const uint8_t *p = vc4_vertex_hit(r, idx, 0, vc4_vertex_size(r), pc);
    if (p) {
        vc4_vertex_decode(p, r, vp_x, vp_y, out);
        return 0;
    }
    return vc4_read_vertex_miss(v, who, r, idx, vp_x, vp_y, out, pc);
}
/* gl.c: free a binner's or renderer's GL cache (NULL: nothing). */
void vc4_gl_cache_free(struct vc4_gl_cache *c);
/* state.c: latch a Primitive_List_Format, NV_Shader_State, GL_Shader_State, Viewport_Offset,
 * Clip_Window, Flat_Shade_Flags, Depth_Offset or Z_min_and_max_clipping_planes record into
 * st (others: nothing). */
void vc4_latch_state(vc4_bin_state *st, const uint8_t *rec);
/* fault.c (not v3d.c: the engines do not call up into the dispatcher):
 * raise interrupt bits (traced), trace a control-list record, post a fault
 * (t may be NULL: the V3D block's own). */
void vc4_raise_int(cg_vc4 *v, uint32_t bits);
void vc4_trace_record(cg_vc4 *v, const vc4_thread *th, uint32_t addr, const uint8_t *rec,
                      uint32_t size, const char *name);
int vc4_fault(cg_vc4 *v, vc4_thread *t, cg_fault_kind kind, uint32_t addr, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;
#endif
