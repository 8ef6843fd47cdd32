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

static int compressed_items(cg_vc4 *v, vc4_thread *t, uint32_t p, uint32_t *next)
{
    vc4_render *r = v->rend;
    uint32_t prev[3] = {0, 0, 0};
    /* vertex bytes: within one list nothing writes memory (the QPU model
     * writes none, the tile buffer is not memory) and the CPU cannot act */
    vc4_page_cache vpc = {NULL, 0};
    vc4_page_cache lpc = {NULL, 0}; /* the list's bytes, for the same reason */
    /* GL mode: shaded vertices are kept for the list, for the same reason */
    if (r->glc && vc4_gl_cache_reset(&r->glc) != 0)
        return CG_ERR_NOMEM;
    for (uint32_t guard = 0; guard < (1u << 24); guard++) {
        uint8_t it[8] = {0};
        /* a fault here names the item: its address, and its bytes as
         * little-endian words (what could be read of them) */
        t->agent.stream_addr = p;
        t->agent.nwords = 0;
        if (!list_bytes(&lpc, p, it, 1)) {
            if (vc4_bus_read(v->bus, p, it, 1, &t->agent) != 0)
                return CG_ERR_FAULT;
            list_page(v, &lpc, p);
        }
        t->agent.words[0] = it[0];
        t->agent.nwords = 1;
        if (r->st.prim_format == 0x10 || r->st.prim_format == 0x11) {
            /* points / lines, 16-bit indices: escape, relative branch, and
             * the absolute coding 0x81 + u16 per vertex (Broadcom's
             * control-list debugger, docs/vc4.md "Points and lines") */
            bool line = r->st.prim_format == 0x11;
            unsigned psz = it[0] == 0x80 ? 1 : it[0] == 0x82 ? 3 : line ? 5 : 3;
            if (it[0] != 0x80 && it[0] != 0x81 && it[0] != 0x82)
                return vc4_fault(v, t, CG_FAULT_UNSUPPORTED, p,
                                 "%s item 0x%02x (only the absolute coding 0x81 is known): not "
                                 "supported yet", line ? "line" : "point", it[0]);
            if (psz > 1 && !list_bytes(&lpc, p + 1, it + 1, psz - 1) &&
                vc4_bus_read(v->bus, p + 1, it + 1, psz - 1, &t->agent) != 0)
                return CG_ERR_FAULT;
            t->agent.words[0] = vc4_le32(it);
            t->agent.words[1] = vc4_le32(it + 4);
            t->agent.nwords = psz > 4 ? 2 : 1;
            if (it[0] == 0x80) {
                *next = p + 1;
                return 0;
            }
            if (v->budget[1] == 0)
                return vc4_fault(v, t, CG_FAULT_HANG, p,
                                 "budget %s ran out in a compressed primitive list",
                                 cg_budget_name(CG_BUDGET_VC4_THREAD_UNITS));
            v->budget[1]--;
            if (it[0] == 0x82) {
                p = (p & ~31u) + 32 + (uint32_t)((int32_t)(int16_t)vc4_le16(it + 1) * 32);
                continue;
            }
            uint32_t pi[2] = {vc4_le16(it + 1), vc4_le16(it + 3)};
            int rc = vc4_need_tile(v, t, p, "a primitive");
            if (rc == 0)
                rc = line ? vc4_render_line(v, t, pi, &vpc) : vc4_render_point(v, t, pi[0], &vpc);
            if (rc)
                return rc;
            p += psz;
            continue;
        }
        unsigned sz = it[0] == 0x80 ? 1 : it[0] == 0x82 ? 3 : it[0] == 0x81 ? 7
                      : (it[0] & 0xF) == 0xF ? 4 : (it[0] & 3) == 3 ? 2 : 1;
        if (sz > 1 && !list_bytes(&lpc, p + 1, it + 1, sz - 1) &&
            vc4_bus_read(v->bus, p + 1, it + 1, sz - 1, &t->agent) != 0)
            return CG_ERR_FAULT;
        t->agent.words[0] = vc4_le32(it);
        t->agent.words[1] = vc4_le32(it + 4);
        t->agent.nwords = sz > 4 ? 2 : 1;
        cg_vc4_prim_item item;
        cg_vc4_prim_decode(it, sz, prev, &item);
        if (item.kind == 4) {
            *next = p + 1;
            return 0;
        }
        if (item.kind == 5) {
            if (v->budget[1] == 0)
                return vc4_fault(v, t, CG_FAULT_HANG, p,
                                 "budget %s ran out in a compressed primitive list "
                                 "(a relative-branch loop?)",
                                 cg_budget_name(CG_BUDGET_VC4_THREAD_UNITS));
            v->budget[1]--;
            p = (p & ~31u) + 32 + (uint32_t)((int32_t)item.branch * 32);
            continue;
        }
        if (r->st.prim_format != 0x12)
            return vc4_fault(v, t, CG_FAULT_UNSUPPORTED, p,
                             "compressed primitive list item in format 0x%02x (only 16-bit "
                             "index triangles, 0x12): not supported yet", r->st.prim_format);
        memcpy(prev, item.tri, sizeof prev);
        if (v->budget[1] == 0)
            return vc4_fault(v, t, CG_FAULT_HANG, p,
                             "budget %s ran out in a compressed primitive list",
                             cg_budget_name(CG_BUDGET_VC4_THREAD_UNITS));
        v->budget[1]--;
        int rc = vc4_need_tile(v, t, p, "a primitive");
        if (rc == 0)
            rc = vc4_render_triangle(v, t, item.tri, &vpc);
        if (rc)
            return rc;
        p += sz;
    }
    return vc4_fault(v, t, CG_FAULT_HANG, p, "compressed primitive list never ends (branch loop?)");
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
