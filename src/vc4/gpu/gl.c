/* vc4 family: GL shader mode — GL shader state records, attribute records,
 * the VCD's attribute fetch into the VPM, and the coordinate and vertex
 * shaders run on the QPU.
 *
 * GL shader record (Mesa src/broadcom/cle/v3d_packet_v21.xml "Shader
 * Record", Linux drivers/gpu/drm/vc4/vc4_validate.c validate_gl_shader_rec):
 *   byte 0 flags (bit 0 FS single-threaded, 1 point size in the shaded
 *   vertex, 2 clipping enabled), 2 FS uniforms count (unused), 3 FS
 *   varyings, 4 FS code, 8 FS uniforms, 12-13 VS uniforms count, 14 VS
 *   attribute array select bits, 15 VS total attributes size, 16 VS code,
 *   20 VS uniforms, 24-25 CS uniforms count, 26 CS select bits, 27 CS total
 *   size, 28 CS code, 32 CS uniforms (the XML gives the VS uniforms at byte
 *   16, a slip: the kernel relocates code at 4, 16, 28 and writes uniforms
 *   at code + 4); then one 8-byte attribute record per array from byte 36:
 *   u32 address, u8 bytes - 1, u8 stride, u8 VS VPM offset, u8 CS VPM
 *   offset. GL_Shader_State's payload: bits [2:0] the number of attribute
 *   arrays (0 = 8), bit 3 the extended record (a u32 per array from byte
 *   100 whose bits [31:8] extend the stride), bits [31:4] the address.
 *
 * VPM layout (Mesa vc4_qpu_emit.c / vc4_program.c): the shaders read their
 * inputs with a horizontal 32-bit VPM read setup from row 0, one row per
 * 32-bit attribute word, lane l = vertex l of the batch: the VCD writes
 * word w of an attribute at VPM offset o (bytes) into row o / 4 + w,
 * column l (bytes past the attribute's size read 0). The shaders write
 * their outputs the same way from row 0 (Mesa emit_coord_end,
 * emit_vert_end): coordinate shader Xc, Yc, Zc, Wc, Xs | Ys << 16 (12.4),
 * Zs, 1/Wc[, point size]; vertex shader Xs | Ys << 16, Zs, 1/Wc[, point
 * size], then the fragment shader's varyings. */
#include <stdlib.h>
#include "gl.h"
#include "vc4/qpu.h"

unsigned vc4_gl_record_size(uint32_t word)
{
    unsigned n = word & 7 ? word & 7 : 8;
    return (word & 8) ? 100 + n * 4 : 36 + n * 8;
}

void vc4_gl_decode(uint32_t word, const uint8_t *b, vc4_gl_record *o)
{
    memset(o, 0, sizeof *o);
    o->word = word;
    o->addr = word & ~15u;
    o->nattr = word & 7 ? word & 7 : 8;
    o->extended = (word & 8) != 0;
    o->flags = b[0];
    o->fs_nunif = b[2];
    o->fs_nvary = b[3];
    o->fs_code = vc4_le32(b + 4);
    o->fs_unif = vc4_le32(b + 8);
    vc4_gl_stage *st[2] = {&o->vs, &o->cs};
    for (int k = 0; k < 2; k++) {
        const uint8_t *p = b + 12 + 12 * k;
        st[k]->nunif = vc4_le16(p);
        st[k]->sel = p[2];
        st[k]->total = p[3];
        st[k]->code = vc4_le32(p + 4);
        st[k]->unif = vc4_le32(p + 8);
    }
    for (unsigned i = 0; i < o->nattr; i++) {
        const uint8_t *p = b + 36 + 8 * i;
        vc4_gl_attr *a = &o->attr[i];
        a->addr = vc4_le32(p);
        a->size = (uint32_t)p[4] + 1;
        a->stride = p[5];
        a->vs_off = p[6];
        a->cs_off = p[7];
        if (o->extended)
            a->stride |= vc4_le32(b + 100 + 4 * i) & ~0xFFu;
    }
}

int vc4_gl_read_record(cg_vc4 *v, vc4_thread *t, uint32_t word, vc4_gl_record *o)
{
    uint8_t b[132];
    unsigned n = vc4_gl_record_size(word);
    memset(b, 0, sizeof b);
    if (vc4_bus_read(v->bus, word & ~15u, b, n, &t->agent) != 0)
        return CG_ERR_FAULT;
    vc4_gl_decode(word, b, o);
    return 0;
}

int vc4_gl_check_attrs(cg_vc4 *v, vc4_thread *t, const vc4_gl_record *r, uint32_t max_index,
                       uint32_t rec_addr)
{
    uint8_t sel = r->vs.sel | r->cs.sel;
    for (unsigned i = 0; i < r->nattr; i++) {
        if (!(sel & (1u << i)))
            continue;
        const vc4_gl_attr *a = &r->attr[i];
        uint64_t end = (uint64_t)a->addr + (uint64_t)max_index * a->stride + a->size;
        if (end > 0x100000000ull)
            return vc4_fault(v, t, CG_FAULT_ADDR_RANGE, a->addr,
                             "GL attribute %u (record 0x%08x): vertex %u ends at 0x%llx, past "
                             "the 32-bit bus", i, r->addr, max_index, (unsigned long long)end);
        uint64_t bad = 0;
        if (cg_vas_check(v->bus, a->addr, end - a->addr, false, &bad) != CG_FAULT_NONE)
            return vc4_fault(v, t, CG_FAULT_UNMAPPED, (uint32_t)bad,
                             "GL attribute %u (record 0x%08x, primitives at 0x%08x): vertices "
                             "0..%u read [0x%08x, 0x%08llx), past mapped memory at 0x%08x", i,
                             r->addr, rec_addr, max_index, a->addr, (unsigned long long)end,
                             (uint32_t)bad);
    }
    return 0;
}

int vc4_gl_fetch(cg_vc4 *v, vc4_thread *t, const vc4_gl_record *r, bool cs, const uint32_t *idx,
                 unsigned n, vc4_v3d_units *u)
{
    uint32_t(*vpm)[16] = (uint32_t(*)[16])u->vpm;
    uint8_t sel = cs ? r->cs.sel : r->vs.sel;
    for (unsigned i = 0; i < r->nattr; i++) {
        if (!(sel & (1u << i)))
            continue;
        const vc4_gl_attr *a = &r->attr[i];
        unsigned row0 = (cs ? a->cs_off : a->vs_off) / 4u;
        unsigned words = (a->size + 3) / 4;
        if (row0 + words > VC4_VPM_ROWS)
            return vc4_fault(v, t, CG_FAULT_BAD_STATE, r->addr,
                             "GL attribute %u: VPM rows %u..%u past the VPM's %u", i, row0,
                             row0 + words - 1, VC4_VPM_ROWS);
        if (n && words && (row0 + words) * 16 > u->vpm_dirty)
            u->vpm_dirty = (row0 + words) * 16;
        for (unsigned l = 0; l < n; l++) {
            uint8_t buf[260];
            uint64_t ad = (uint64_t)a->addr + (uint64_t)idx[l] * a->stride;
            if (ad + a->size > 0x100000000ull)
                return vc4_fault(v, t, CG_FAULT_ADDR_RANGE, a->addr,
                                 "GL attribute %u of vertex %u lies past the 32-bit bus", i,
                                 idx[l]);
            memset(buf, 0, sizeof buf);
            if (vc4_bus_read(v->bus, ad, buf, a->size, &t->agent) != 0)
                return CG_ERR_FAULT;
            for (unsigned w = 0; w < words; w++)
                vpm[row0 + w][l] = vc4_le32(buf + 4 * w);
        }
    }
    return 0;
}

int vc4_gl_cache_reset(vc4_gl_cache **cp)
{
    vc4_gl_cache *c = *cp;
    if (!c) {
        if (!(c = calloc(1, sizeof *c)))
            return CG_ERR_NOMEM;
        *cp = c;
        return 0;
    }
    if (c->any)
        memset(c->valid, 0, sizeof c->valid);
    c->any = false;
    c->rec_valid = false;
    c->ahead = false;
    return 0;
}

void vc4_gl_cache_free(vc4_gl_cache *c)
{
    if (c)
        vc4_qpu_cache_destroy(c->code);
    free(c);
}

int vc4_gl_cached_record(cg_vc4 *v, vc4_thread *t, vc4_gl_cache *c, uint32_t word,
                         const vc4_gl_record **out)
{
    if (!c->rec_valid || c->rec.word != word) {
        c->rec_valid = false;
        if (vc4_gl_read_record(v, t, word, &c->rec) != 0)
            return CG_ERR_FAULT;
        c->rec_valid = true;
        /* vertices shaded under another record are not this one's */
        memset(c->valid, 0, sizeof c->valid);
        c->word = word;
        c->any = false;
    }
    *out = &c->rec;
    return 0;
}

/* Run one shader for a batch on one QPU (QPU number 0) with the cache's
 * VPM (inputs in, outputs out). Each run costs one unit of the thread's
 * budget, as a fragment batch does. */
static int gl_run(cg_vc4 *v, vc4_thread *t, vc4_gl_cache *c, uint32_t code, uint32_t unif)
{
    uint64_t *budget = &v->budget[t == &v->th[0] ? 0 : 1];
    if (*budget == 0)
        return vc4_fault(v, t, CG_FAULT_HANG, (uint32_t)t->agent.stream_addr,
                         "budget %s ran out while shading vertices",
                         cg_budget_name(CG_BUDGET_VC4_THREAD_UNITS));
    (*budget)--;
    if (!c->code && !(c->code = vc4_qpu_cache_create()))
        return CG_ERR_NOMEM;
    vc4_qpu_init(&c->qs, v->dev, v->bus, &t->agent, code, unif, v->cfg.qpu_strict);
    vc4_qpu_set_units(&c->qs, &c->units, 0);
    if (v->pool) {
        /* the render thread's own draw: a VDW may write memory the pool's
         * workers read (a worker's bus is read-only: it faults there) */
        c->qs.before_write = v->pool_fence;
        c->qs.before_write_ctx = v;
    }
    /* decoded once, as fragment shaders are (docs/vc4-qpu.md) */
    vc4_qpu_use_cache(&c->qs, c->code);
    if (vc4_qpu_run(&c->qs, v->cfg.qpu_budget) != 0) {
        t->faulted = true;
        t->running = false;
        t->cs |= CG_VC4_CS_ERR;
        return CG_ERR_FAULT;
    }
    return 0;
}

static unsigned slot(uint32_t idx)
{
    return idx & (VC4_GL_CACHE - 1); /* consecutive vertices in distinct slots */
}

/* Shade the vertices of idx[3] the cache lacks and give all three (cs:
 * coordinate shader outputs into co, else vertex shader outputs into vo). */
static int shade3(cg_vc4 *v, vc4_thread *t, const vc4_gl_record *r, bool cs,
                  const uint32_t idx[3], int vp_x, int vp_y, vc4_gl_cache *c, vc4_gl_coord *co,
                  vc4_vertex *vo)
{
    if (c->word != r->word || !c->any) {
        memset(c->valid, 0, sizeof c->valid);
        c->word = r->word;
    }
    uint32_t lanes[16];
    int lane_of[3];
    unsigned n = 0;
    for (int j = 0; j < 3; j++) {
        unsigned s = slot(idx[j]);
        lane_of[j] = -1;
        if (c->valid[s] && c->idx[s] == idx[j]) {
            if (cs)
                co[j] = c->coord[s];
            else
                vo[j] = c->vert[s];
            continue;
        }
        for (unsigned k = 0; k < n; k++)
            if (lanes[k] == idx[j])
                lane_of[j] = (int)k;
        if (lane_of[j] < 0) {
            lane_of[j] = (int)n;
            lanes[n++] = idx[j];
        }
    }
    if (n == 0)
        goto offset;
    if (c->ahead) {
        /* fill the batch with the array's next vertices the cache lacks */
        uint32_t last = lanes[0];
        for (unsigned k = 1; k < n; k++)
            last = lanes[k] > last ? lanes[k] : last;
        for (uint32_t i = last + 1; n < 16 && i <= c->ahead_hi && i > last; i++) {
            unsigned sl = slot(i);
            if (!(c->valid[sl] && c->idx[sl] == i))
                lanes[n++] = i;
        }
    }
    uint32_t(*vpm)[16] = (uint32_t(*)[16])c->units.vpm;
    vc4_v3d_units_reset(&c->units); /* the cache is calloc'ed: all zero at first */
    int rc = vc4_gl_fetch(v, t, r, cs, lanes, n, &c->units);
    if (rc == 0)
        rc = gl_run(v, t, c, cs ? r->cs.code : r->vs.code, cs ? r->cs.unif : r->vs.unif);
    if (rc)
        return rc;
    bool ps = (r->flags & 2) != 0;
    vc4_gl_coord gc[16];
    vc4_vertex vx[16];
    for (unsigned l = 0; l < n; l++) {
        unsigned o = cs ? 4 : 0;
        int32_t xs = (int16_t)(vpm[o][l] & 0xFFFF), ys = (int16_t)(vpm[o][l] >> 16);
        float z = vc4_f32(vpm[o + 1][l]), iw = vc4_f32(vpm[o + 2][l]);
        unsigned s = slot(lanes[l]);
        if (cs) {
            vc4_gl_coord *g = &gc[l];
            for (int k = 0; k < 4; k++)
                g->clip[k] = vc4_f32(vpm[k][l]);
            g->x = xs, g->y = ys, g->z = z, g->inv_w = iw;
            g->psize = ps ? vc4_f32(vpm[7][l]) : 0.0f;
            c->coord[s] = *g;
        } else {
            vc4_vertex *x = &vx[l];
            memset(x, 0, sizeof *x);
            x->x = xs, x->y = ys, x->z = z, x->inv_w = iw;
            x->psize = ps ? vc4_f32(vpm[3][l]) : 0.0f;
            unsigned vo0 = 3 + (ps ? 1 : 0);
            unsigned nv = r->fs_nvary > VC4_MAX_VARY ? VC4_MAX_VARY : r->fs_nvary;
            for (unsigned k = 0; k < nv; k++)
                x->vary[k] = vc4_f32(vpm[vo0 + k][l]);
            c->vert[s] = *x;
        }
        c->valid[s] = true;
        c->idx[s] = lanes[l];
        c->any = true;
    }
    for (int j = 0; j < 3; j++) {
        if (lane_of[j] < 0)
            continue;
        if (cs)
            co[j] = gc[lane_of[j]];
        else
            vo[j] = vx[lane_of[j]];
    }
offset: /* the cache keeps Xs, Ys without the viewport offset */
    for (int j = 0; j < 3; j++) {
        if (cs)
            co[j].x += vp_x, co[j].y += vp_y;
        else
            vo[j].x += vp_x, vo[j].y += vp_y;
    }
    return 0;
}

int vc4_gl_coords(cg_vc4 *v, vc4_thread *t, const vc4_gl_record *r, const uint32_t idx[3],
                  int vp_x, int vp_y, vc4_gl_cache *c, vc4_gl_coord out[3])
{
    return shade3(v, t, r, true, idx, vp_x, vp_y, c, out, NULL);
}

int vc4_gl_vertices(cg_vc4 *v, vc4_thread *t, const vc4_gl_record *r, const uint32_t idx[3],
                    int vp_x, int vp_y, vc4_gl_cache *c, vc4_vertex out[3])
{
    return shade3(v, t, r, false, idx, vp_x, vp_y, c, NULL, out);
}
