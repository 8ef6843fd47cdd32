/* vc4 family: vertex fetch for NV shader state (no vertex shading), shared
 * by the binner (screen X, Y of each vertex) and the renderer (the whole
 * shaded vertex).
 *
 * NV shader state record (research/vc4.md 1.1, Reference Guide "NV Shader
 * State Record"): u8 flags, u8 shaded vertex data stride, u8 fragment
 * shader uniforms, u8 varyings, u32 fragment shader code address, u32
 * uniforms address, u32 shaded vertex data address. A shaded vertex:
 * [clip header Xc Yc Zc Wc if flag 3], s16 Xs, s16 Ys (12.4), f32 Zs,
 * f32 1/Wc, [point size if flag 1], varyings. */
#include "vc4/vc4_internal.h"

int vc4_read_nv_record(cg_vc4 *v, const cg_agent *who, uint32_t addr, vc4_nv_record *o)
{
    uint8_t r[16];
    if (vc4_bus_read(v->bus, addr, r, 16, who) != 0)
        return CG_ERR_FAULT;
    o->flags = r[0], o->stride = r[1], o->nunif = r[2], o->nvary = r[3];
    o->code = vc4_le32(r + 4), o->unif = vc4_le32(r + 8), o->vdata = vc4_le32(r + 12);
    return 0;
}

int vc4_vertex_bytes_miss(cg_vc4 *v, const cg_agent *who, const vc4_nv_record *r, uint32_t idx,
                          uint32_t off, void *buf, uint32_t need, vc4_page_cache *pc)
{
    uint64_t a = (uint64_t)r->vdata + (uint64_t)idx * r->stride + off;
    if (a > 0xFFFFFFFFu)
        return cg_fault_post(v->dev, who, CG_FAULT_ADDR_RANGE, r->vdata,
                             "vertex %u lies past the 32-bit bus", idx);
    if (vc4_bus_read(v->bus, a, buf, need, who) != 0)
        return CG_ERR_FAULT;
    /* remember a backed page for the next vertices (its pointer stays valid
     * while the bus mapping exists; pages of zeros are asked for again: a
     * write would give them backing elsewhere) */
    uint8_t *pp;
    if (pc) {
        pc->page = NULL;
        pc->va = a & ~0xFFFull;
        if (cg__vas_span(v->bus, pc->va, 4096, false, &pp) == 4096 && pp != cg__zero_page)
            pc->page = pp;
    }
    return 0;
}

int vc4_read_vertex_miss(cg_vc4 *v, const cg_agent *who, const vc4_nv_record *r, uint32_t idx,
                         int vp_x, int vp_y, vc4_vertex *o, vc4_page_cache *pc)
{
    uint8_t buf[16 + 16 + 4 * VC4_MAX_VARY];
    int rc = vc4_vertex_bytes(v, who, r, idx, 0, buf, vc4_vertex_size(r), pc);
    if (rc)
        return rc;
    vc4_vertex_decode(buf, r, vp_x, vp_y, o);
    return 0;
}
