/* vc4 family: the tile renderer (the render thread's engine): its records.
 *
 * Tile Rendering Mode Configuration (113) gives the frame buffer, its size
 * and format; Clear Colors (114) the clear values; Tile Coordinates (115)
 * selects the tile a load fills and a store writes (research/vc4.md 1 and
 * the kernel's render list in vc4_render_cl.c: loads, Tile Coordinates,
 * Branch to Sub-list, stores; a load runs when the next Tile Coordinates is
 * processed); compressed primitive lists (the binner's tile lists) give the
 * primitives drawn into the tile (raster.c), and the stores write the tile
 * buffer out (tilebuf.c). */
#include <stdlib.h>
#include "render.h"

/* Walk a compressed primitive list starting at `p` (after the 0x30); sets
 * *next to the address after its escape. */
static int compressed_items(cg_vc4 *v, vc4_thread *t, uint32_t p, uint32_t *next);

/* The fragment shaders' code is compared with memory once per list, not
 * per batch (qpu.h vc4_qpu_cache_hold): within an NV-mode list nothing
 * writes memory. This thread draws (tile buffer writes are not memory, its
 * fragment shaders have no VPM, so no VDW: the QPU model writes memory only
 * through VDW) and stores nothing; the CPU cannot act during a kick (as the
 * vertex page cache and lc.nv rely on). Other threads: the tile pool's
 * workers write memory only with early stores, which are retracted and
 * switched off before this thread runs a compressed list itself
 * (pool.c vc4_pool_self, before the record's handler), and on a worker
 * (render_seg, this function on the worker's cache) its bus maps none of
 * the pages a store of the frame may write, so no code it runs can lie in
 * them (such code fails the comparison: no cache). GL mode is not held: a
 * vertex shader run between batches may write memory with VDW. A fault
 * callback that writes memory while the renderer runs is not supported
 * (no more than for the vertex bytes). */
static int compressed_list(cg_vc4 *v, vc4_thread *t, uint32_t p, uint32_t *next)
{
    vc4_render *r = v->rend;
    vc4_list_cache lc = {0};
    r->lc = &lc;
    vc4_qpu_cache *qc = NULL;
    if (!r->st.gl && (r->qcache || (r->qcache = vc4_qpu_cache_create())))
        vc4_qpu_cache_hold(qc = r->qcache, true);
    int rc = compressed_items(v, t, p, next);
    vc4_qpu_cache_hold(qc, false);
    r->lc = NULL;
    return rc;
}

/* n bytes of the list at p from the list's page remembered in lpc (the
 * reasoning of the vertex page cache: nothing writes memory while a list
 * runs); false: not there (read them from the bus, then list_page). */
static inline bool list_bytes(const vc4_page_cache *lpc, uint32_t p, uint8_t *dst, unsigned n)
{
    if (!lpc->page || (p >> 12) != (lpc->va >> 12) || (p & 0xFFF) + n > 4096)
        return false;
    memcpy(dst, lpc->page + (p & 0xFFF), n);
    return true;
}

/* Remember p's page when it is plain backed memory (no fault, no coherency
 * check, no trace: cg__vas_span; not the shared page of zeros). */
static void list_page(cg_vc4 *v, vc4_page_cache *lpc, uint32_t p)
{
    uint8_t *pp;
    lpc->page = NULL;
    lpc->va = p & ~0xFFFull;
    if (cg__vas_span(v->bus, lpc->va, 4096, false, &pp) == 4096 && pp != cg__zero_page)
        lpc->page = pp;
}

/* A compressed list being walked: the item's address p, the last
 * triangle's indices (relative codings), the page caches of the vertex
 * bytes and of the list's (within one list nothing writes memory: the QPU
 * model writes none, the tile buffer is not memory, and the CPU cannot
 * act). */
typedef struct list_walk {
    uint32_t p;
    uint32_t prev[3];
    vc4_page_cache vpc, lpc;
} list_walk;
enum { ITEM_NEXT = 0, ITEM_END = 1 }; /* an item's outcome (else a cg_err) */

/* The list's bytes [p + 1, p + n) after the item's first, and the item
 * in the agent as little-endian words (what a fault names). */
static inline int item_rest(cg_vc4 *v, vc4_thread *t, list_walk *w, uint8_t *it, unsigned n)
{
    if (n > 1 && !list_bytes(&w->lpc, w->p + 1, it + 1, n - 1) &&
        vc4_bus_read(v->bus, w->p + 1, it + 1, n - 1, &t->agent) != 0)
        return CG_ERR_FAULT;
    t->agent.words[0] = vc4_le32(it);
    t->agent.words[1] = vc4_le32(it + 4);
    t->agent.nwords = n > 4 ? 2 : 1;
    return 0;
}

/* An item's unit of the render thread's budget. */
static inline int item_budget(cg_vc4 *v, vc4_thread *t, uint32_t p, const char *why)
{
    if (v->budget[1] == 0)
        return vc4_fault(v, t, CG_FAULT_HANG, p,
                         "budget %s ran out in a compressed primitive list%s",
                         cg_budget_name(CG_BUDGET_VC4_THREAD_UNITS), why);
    v->budget[1]--;
    return 0;
}

/* A point or line item (format 0x10, 0x11; 16-bit indices): escape,
 * relative branch, and the absolute coding 0x81 + u16 per vertex
 * (Broadcom's control-list debugger, docs/vc4.md "Points and lines"). */
static int pl_item(cg_vc4 *v, vc4_thread *t, list_walk *w, uint8_t *it, uint32_t *next)
{
    bool line = v->rend->st.prim_format == 0x11;
    unsigned psz = it[0] == 0x80 ? 1 : it[0] == 0x82 ? 3 : line ? 5 : 3;
    if (it[0] != 0x80 && it[0] != 0x81 && it[0] != 0x82)
        return vc4_fault(v, t, CG_FAULT_UNSUPPORTED, w->p,
                         "%s item 0x%02x (only the absolute coding 0x81 is known): not "
                         "supported yet", line ? "line" : "point", it[0]);
    int rc = item_rest(v, t, w, it, psz);
    if (rc)
        return rc;
    if (it[0] == 0x80) {
        *next = w->p + 1;
        return ITEM_END;
    }
    if ((rc = item_budget(v, t, w->p, "")))
        return rc;
    if (it[0] == 0x82) {
        w->p = (w->p & ~31u) + 32 + (uint32_t)((int32_t)(int16_t)vc4_le16(it + 1) * 32);
        return ITEM_NEXT;
    }
    uint32_t pi[2] = {vc4_le16(it + 1), vc4_le16(it + 3)};
    rc = vc4_need_tile(v, t, w->p, "a primitive");
    if (rc == 0)
        rc = line ? vc4_render_line(v, t, pi, &w->vpc) : vc4_render_point(v, t, pi[0], &w->vpc);
    if (rc)
        return rc;
    w->p += psz;
    return ITEM_NEXT;
}

/* A triangle item (format 0x12; cl_defs.c codings), or an escape or a
 * relative branch in any other format. */
static int tri_item(cg_vc4 *v, vc4_thread *t, list_walk *w, uint8_t *it, uint32_t *next)
{
    vc4_render *r = v->rend;
    unsigned sz = it[0] == 0x80 ? 1 : it[0] == 0x82 ? 3 : it[0] == 0x81 ? 7
                  : (it[0] & 0xF) == 0xF ? 4 : (it[0] & 3) == 3 ? 2 : 1;
    int rc = item_rest(v, t, w, it, sz);
    if (rc)
        return rc;
    cg_vc4_prim_item item;
    cg_vc4_prim_decode(it, sz, w->prev, &item);
    if (item.kind == 4) {
        *next = w->p + 1;
        return ITEM_END;
    }
    if (item.kind == 5) {
        if ((rc = item_budget(v, t, w->p, " (a relative-branch loop?)")))
            return rc;
        w->p = (w->p & ~31u) + 32 + (uint32_t)((int32_t)item.branch * 32);
        return ITEM_NEXT;
    }
    if (r->st.prim_format != 0x12)
        return vc4_fault(v, t, CG_FAULT_UNSUPPORTED, w->p,
                         "compressed primitive list item in format 0x%02x (only 16-bit "
                         "index triangles, 0x12): not supported yet", r->st.prim_format);
    memcpy(w->prev, item.tri, sizeof w->prev);
    if ((rc = item_budget(v, t, w->p, "")))
        return rc;
    rc = vc4_need_tile(v, t, w->p, "a primitive");
    if (rc == 0)
        rc = vc4_render_triangle(v, t, item.tri, &w->vpc);
    if (rc)
        return rc;
    w->p += sz;
    return ITEM_NEXT;
}

static int compressed_items(cg_vc4 *v, vc4_thread *t, uint32_t p, uint32_t *next)
{
    vc4_render *r = v->rend;
    list_walk w = {p, {0, 0, 0}, {NULL, 0}, {NULL, 0}};
    /* GL mode: shaded vertices are kept for the list, for the same reason */
    if (r->glc && vc4_gl_cache_reset(&r->glc) != 0)
        return CG_ERR_NOMEM;
    for (uint32_t guard = 0; guard < (1u << 24); guard++) {
        uint8_t it[8] = {0};
        /* a fault here names the item: its address, and its bytes as
         * little-endian words (what could be read of them) */
        t->agent.stream_addr = w.p;
        t->agent.nwords = 0;
        if (!list_bytes(&w.lpc, w.p, it, 1)) {
            if (vc4_bus_read(v->bus, w.p, it, 1, &t->agent) != 0)
                return CG_ERR_FAULT;
            list_page(v, &w.lpc, w.p);
        }
        t->agent.words[0] = it[0];
        t->agent.nwords = 1;
        int rc = r->st.prim_format == 0x10 || r->st.prim_format == 0x11
                     ? pl_item(v, t, &w, it, next)
                     : tri_item(v, t, &w, it, next);
        if (rc == ITEM_END)
            return 0;
        if (rc)
            return rc;
    }
    return vc4_fault(v, t, CG_FAULT_HANG, w.p,
                     "compressed primitive list never ends (branch loop?)");
}

/* Hand-written positions: r->flags keeps the Tile_Rendering_Mode_
 * Configuration bits [79:64] (read as payload bytes 8-9), and h_store_ms
 * takes the colour format and memory format from it. */
_Static_assert(VC4_FB_Tile_Rendering_Mode_Configuration_Multisample_Mode_4x == 64, "flags");
_Static_assert(VC4_FB_Tile_Rendering_Mode_Configuration_Non_HDR_Frame_Buffer_Color_Format ==
                   64 + 2, "flags >> 2");
_Static_assert(VC4_FB_Tile_Rendering_Mode_Configuration_Memory_Format == 64 + 6, "flags >> 6");
_Static_assert(VC4_FB_Tile_Rendering_Mode_Configuration_Double_buffer_in_non_ms_mode < 80,
               "flags are 16 bits");

/* ---- the render thread's records: an opcode-indexed handler table -----
 * (as Linux vc4_validate.c cmd_info[]); records without a handler fault. */
typedef int (*vc4_render_fn)(cg_vc4 *v, vc4_thread *t, uint32_t addr, const uint8_t *rec,
                             uint32_t *next);
#define TRMC(field) VC4_GET(rec + 1, Tile_Rendering_Mode_Configuration, field)

static int h_rend_config(cg_vc4 *v, vc4_thread *t, uint32_t addr, const uint8_t *rec,
                         uint32_t *next)
{
    (void)next;
    vc4_render *r = v->rend;
    r->fb_addr = VC4_ADDR(rec + 1, Tile_Rendering_Mode_Configuration, Memory_Address);
    r->width = (uint16_t)TRMC(Width_pixels);
    r->height = (uint16_t)TRMC(Height_pixels);
    r->flags = vc4_le16(rec + 9); /* the flag bits [79:64] */
    r->configured = false;
    if (r->width == 0 || r->height == 0 || r->width > 4096 || r->height > 4096)
        return vc4_fault(v, t, CG_FAULT_BAD_STATE, addr,
                         "Tile_Rendering_Mode_Configuration %ux%u (1..4096 a side)", r->width,
                         r->height);
    if (TRMC(Multisample_Mode_4x) || TRMC(Tile_Buffer_64_bit_Color_Depth))
        return vc4_fault(v, t, CG_FAULT_UNSUPPORTED, addr,
                         "Tile_Rendering_Mode_Configuration: 4x multisample / 64-bit "
                         "colour: not supported yet");
    if (TRMC(Decimate_Mode))
        return vc4_fault(v, t, CG_FAULT_UNSUPPORTED, addr,
                         "Tile_Rendering_Mode_Configuration: decimate mode: not supported yet");
    if (TRMC(Enable_VG_Mask_Buffer))
        return vc4_fault(v, t, CG_FAULT_UNSUPPORTED, addr,
                         "Tile_Rendering_Mode_Configuration: VG mask buffer: not supported "
                         "yet");
    r->configured = true;
    return 0;
}
#undef TRMC

static int h_clear(cg_vc4 *v, vc4_thread *t, uint32_t addr, const uint8_t *rec, uint32_t *next)
{
    (void)t, (void)addr, (void)next;
    vc4_render *r = v->rend;
    uint64_t cc = VC4_GET(rec + 1, Clear_Colors, Clear_Color);
    r->clear_color[0] = (uint32_t)cc;
    r->clear_color[1] = (uint32_t)(cc >> 32);
    r->clear_zs = (uint32_t)VC4_GET(rec + 1, Clear_Colors, Clear_ZS);
    r->clear_vg = (uint8_t)VC4_GET(rec + 1, Clear_Colors, Clear_VG_Mask);
    r->clear_stencil = (uint8_t)VC4_GET(rec + 1, Clear_Colors, Clear_Stencil);
    return 0;
}

static int h_tile_coords(cg_vc4 *v, vc4_thread *t, uint32_t addr, const uint8_t *rec,
                         uint32_t *next)
{
    (void)next;
    vc4_render *r = v->rend;
    unsigned x = (unsigned)VC4_GET(rec + 1, Tile_Coordinates, Tile_Column_Number);
    unsigned y = (unsigned)VC4_GET(rec + 1, Tile_Coordinates, Tile_Row_Number);
    if (!r->configured)
        return vc4_fault(v, t, CG_FAULT_BAD_STATE, addr,
                         "Tile_Coordinates before Tile_Rendering_Mode_Configuration");
    if (x * VC4_TILE >= r->width || y * VC4_TILE >= r->height)
        return vc4_fault(v, t, CG_FAULT_BAD_STATE, addr,
                         "Tile_Coordinates %u, %u outside the %ux%u frame", x, y, r->width,
                         r->height);
    r->tile_x = x;
    r->tile_y = y;
    return r->load_pending ? vc4_tile_load(v, t) : 0;
}

/* Re-load full resolution / Load general: kept until Tile_Coordinates */
static int h_load(cg_vc4 *v, vc4_thread *t, uint32_t addr, const uint8_t *rec, uint32_t *next)
{
    (void)t, (void)addr, (void)next;
    vc4_render *r = v->rend;
    memcpy(r->load_rec, rec, rec[0] == VC4_OP_Re_load_Full_Resolution_Tile_Buffer
                                 ? VC4_SIZE_Re_load_Full_Resolution_Tile_Buffer
                                 : VC4_SIZE_Load_Tile_Buffer_General);
    r->load_op = rec[0];
    r->load_pending = true;
    return 0;
}

static int h_store_general(cg_vc4 *v, vc4_thread *t, uint32_t addr, const uint8_t *rec,
                           uint32_t *next)
{
    (void)next;
    return vc4_tile_store(v, t, addr, rec, "Store_Tile_Buffer_General");
}

/* Store multi-sample resolved tile colour buffer (and EOF) */
static int h_store_ms(cg_vc4 *v, vc4_thread *t, uint32_t addr, const uint8_t *rec,
                      uint32_t *next)
{
    (void)next;
    return vc4_tile_store(v, t, addr, rec, "Store_Multi_Sample");
}

static int h_store_full(cg_vc4 *v, vc4_thread *t, uint32_t addr, const uint8_t *rec,
                        uint32_t *next)
{
    (void)next;
    return vc4_tile_store(v, t, addr, rec, "Store_Full_Resolution");
}

static int h_config_bits(cg_vc4 *v, vc4_thread *t, uint32_t addr, const uint8_t *rec,
                         uint32_t *next)
{
    (void)next;
    vc4_render *r = v->rend;
    memcpy(r->st.config, rec + 1, VC4_SIZE_Configuration_Bits - 1);
    r->st.config_valid = true;
    if (VC4_GET(rec + 1, Configuration_Bits, Rasteriser_Oversample_Mode))
        return vc4_fault(v, t, CG_FAULT_UNSUPPORTED, addr,
                         "Configuration_Bits: rasteriser oversample (multisample): not "
                         "supported yet");
    return 0;
}

/* Primitive format, NV shader state, viewport, clip window, flat shading,
 * depth offset, Z clipping planes: latched as the binner latches them
 * (vc4_latch_state, state.c). */
static int h_latch(cg_vc4 *v, vc4_thread *t, uint32_t addr, const uint8_t *rec, uint32_t *next)
{
    (void)t, (void)addr, (void)next;
    vc4_latch_state(&v->rend->st, rec);
    return 0;
}

/* Point_size, Line_width: kept for points and lines */
static int h_size(cg_vc4 *v, vc4_thread *t, uint32_t addr, const uint8_t *rec, uint32_t *next)
{
    (void)t, (void)addr, (void)next;
    float f = vc4_f32(vc4_le32(rec + 1));
    if (rec[0] == VC4_OP_Point_size)
        v->rend->point_size = f;
    else
        v->rend->line_width = f;
    return 0;
}

/* RHT boundary */
static int h_accept(cg_vc4 *v, vc4_thread *t, uint32_t addr, const uint8_t *rec,
                    uint32_t *next)
{
    (void)v, (void)t, (void)addr, (void)rec, (void)next;
    return 0;
}

static int h_compressed(cg_vc4 *v, vc4_thread *t, uint32_t addr, const uint8_t *rec,
                        uint32_t *next)
{
    (void)rec;
    return compressed_list(v, t, addr + 1, next);
}

/* Clipped_Primitive_With_Compressed_Primitive_List: the clipped primitive of
 * the block at its address (raster.c vc4_render_clipped), then the
 * compressed list that follows the record. */
static int h_clipped(cg_vc4 *v, vc4_thread *t, uint32_t addr, const uint8_t *rec,
                     uint32_t *next)
{
    uint32_t a = VC4_ADDR(rec + 1, Clipped_Primitive_With_Compressed_Primitive_List,
                          Clipped_Primitive_Address);
    int rc = vc4_need_tile(v, t, addr, "a clipped primitive");
    if (rc || (rc = vc4_render_clipped(v, t, a)))
        return rc;
    return compressed_list(v, t, addr + 5, next);
}

static const vc4_render_fn render_handlers[256] = {
    [VC4_OP_Tile_Rendering_Mode_Configuration] = h_rend_config,
    [VC4_OP_Clear_Colors] = h_clear,
    [VC4_OP_Tile_Coordinates] = h_tile_coords,
    [VC4_OP_Re_load_Full_Resolution_Tile_Buffer] = h_load,
    [VC4_OP_Load_Tile_Buffer_General] = h_load,
    [VC4_OP_Store_Tile_Buffer_General] = h_store_general,
    [VC4_OP_Store_Multi_sample_Resolved_Tile_Color_Buffer] = h_store_ms,
    [VC4_OP_Store_Multi_sample_Resolved_Tile_Color_Buffer_and_EOF] = h_store_ms,
    [VC4_OP_Store_Full_Resolution_Tile_Buffer] = h_store_full,
    [VC4_OP_Primitive_List_Format] = h_latch,
    [VC4_OP_NV_Shader_State] = h_latch,
    [VC4_OP_GL_Shader_State] = h_latch,
    [VC4_OP_Configuration_Bits] = h_config_bits,
    [VC4_OP_Viewport_Offset] = h_latch,
    [VC4_OP_Clip_Window] = h_latch,
    [VC4_OP_Flat_Shade_Flags] = h_latch,
    [VC4_OP_Point_size] = h_size,
    [VC4_OP_Line_width] = h_size,
    [VC4_OP_RHT_X_boundary] = h_accept,
    [VC4_OP_Depth_Offset] = h_latch,
    [VC4_OP_Z_min_and_max_clipping_planes] = h_latch,
    [VC4_OP_Compressed_Primitive_List] = h_compressed,
    [VC4_OP_Clipped_Primitive_With_Compressed_Primitive_List] = h_clipped,
};

int vc4_render_record(cg_vc4 *v, vc4_thread *t, uint32_t addr, const uint8_t *rec,
                      uint32_t *next)
{
    if (render_handlers[rec[0]])
        return render_handlers[rec[0]](v, t, addr, rec, next);
    vc4_record rr;
    vc4_record_get(rec[0], &rr);
    if (rr.where == VC4_BIN)
        return vc4_fault(v, t, CG_FAULT_BAD_STATE, addr,
                         "%s (opcode %u) is a binning-list record, found in the render list",
                         rr.name, rec[0]);
    return vc4_fault(v, t, CG_FAULT_UNSUPPORTED, addr,
                     "%s (opcode %u) in the render list: not supported yet", rr.name, rec[0]);
}
