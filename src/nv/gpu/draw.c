/* nv: MAXWELL_B (B197) draws: BEGIN/END, the draw methods, vertex and index
 * fetch, draw records. See threed.h and docs/nv-draws.md.
 *
 * Every vertex a draw names is fetched through the channel's address space
 * (engine accesses: an unmapped byte faults and stops the channel), every
 * attribute is decoded as a vertex shader receives it, the record goes to
 * the draw callback, and the 3D pipeline (pipeline.c) renders the draw
 * when a vertex program is set up.
 *
 * Sources: NVIDIA open-gpu-doc classes/3d/clb197.h (method offsets, fields,
 * COMPONENT_BIT_WIDTHS and NUMERICAL_TYPE codes), Mesa src/nouveau/vulkan/
 * nvk_format.c (which Vulkan vertex formats map to which codes, hence the
 * memory layout of each code), nouveau nvkm/engine/gr/nv50.c
 * nv50_data_error_names (BEGIN_END_ACTIVE), seed 000 (Vertex Data
 * Submission, Texture View), yuzu video_core/engines/maxwell_3d.cpp
 * (GetStageTextures; instance FIRST/SUBSEQUENT/UNCHANGED), Ryujinx PR #6272
 * (vertex stream limits are bounds checks). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "core/mem_internal.h"
#include "nv/tables/fields.h"
#include "nv/tables/vattr.h"
#include "pipeline.h"
#include "threed.h"

/* The one-word draws share one layout: the code reads every one of them with
 * DRAW_VERTEX_ARRAY_BEGIN_END_INSTANCE_FIRST's fields. */
NV_SAME_FIELD(NVB197, DRAW_VERTEX_ARRAY_BEGIN_END_INSTANCE_FIRST, START_INDEX,
              DRAW_INDEX_BUFFER32_BEGIN_END_INSTANCE_FIRST, FIRST);
NV_SAME_FIELD(NVB197, DRAW_VERTEX_ARRAY_BEGIN_END_INSTANCE_FIRST, COUNT,
              DRAW_INDEX_BUFFER8_BEGIN_END_INSTANCE_SUBSEQUENT, COUNT);
NV_SAME_FIELD(NVB197, DRAW_VERTEX_ARRAY_BEGIN_END_INSTANCE_FIRST, TOPOLOGY,
              DRAW_VERTEX_ARRAY_BEGIN_END_INSTANCE_SUBSEQUENT, TOPOLOGY);
NV_SAME_FIELD(NVB197, DRAW_VERTEX_ARRAY_BEGIN_END_INSTANCE_FIRST, TOPOLOGY,
              DRAW_INDEX_BUFFER16_BEGIN_END_INSTANCE_SUBSEQUENT, TOPOLOGY);
NV_SAME_FIELD(NVB197, SET_VERTEX_ATTRIBUTE_A, OFFSET, SET_VERTEX_ATTRIBUTE_B, OFFSET);
/* a one-word draw's TOPOLOGY becomes the OP of its BEGIN word */
_Static_assert(NVB197_BEGIN_OP_PATCH ==
                   NVB197_DRAW_VERTEX_ARRAY_BEGIN_END_INSTANCE_FIRST_TOPOLOGY_PATCH &&
               NVB197_BEGIN_OP_POINTS ==
                   NVB197_DRAW_VERTEX_ARRAY_BEGIN_END_INSTANCE_FIRST_TOPOLOGY_POINTS,
               "one-word draw TOPOLOGY values are BEGIN OP values");

#define REG(o, m) ((o)->regs[(m) >> 2])

/* SET_CT_SELECT TARGET0..7 are 3-bit fields 3 bits apart: TARGETi is read as
 * TARGET0 of the word shifted right by 3 * i. */
#define CT_SELECT_TARGET_STRIDE (NV_FLD_LO(NVB197_SET_CT_SELECT_TARGET1) - \
                                 NV_FLD_LO(NVB197_SET_CT_SELECT_TARGET0))
_Static_assert(NV_FLD_LO(NVB197_SET_CT_SELECT_TARGET7) ==
                   NV_FLD_LO(NVB197_SET_CT_SELECT_TARGET0) + 7 * CT_SELECT_TARGET_STRIDE &&
               NV_FLD_BITS(NVB197_SET_CT_SELECT_TARGET7) ==
                   NV_FLD_BITS(NVB197_SET_CT_SELECT_TARGET0) &&
               CG_NV_MAX_TARGETS == 8,
               "SET_CT_SELECT TARGETi sit at TARGET0 + i * stride");

/* A 40-bit address from an A (upper) / B (lower) method pair (fields.h) */
static uint64_t addr40(const nv_obj *o, uint32_t hi, uint32_t lo)
{
    return nv_addr40(REG(o, hi), REG(o, lo));
}

/* ---- vertex attribute formats ------------------------------------------- */

/* The COMPONENT_BIT_WIDTHS codes and NUMERICAL_TYPE codes: src/nv/tables/vattr.h. */

/* Is (size, type) a combination the model decodes? The ones nvk_format.c
 * uses: 8-bit and 10/2-bit components with every type but FLOAT; 16-bit
 * with all seven; 32-bit only as UINT, SINT and FLOAT; B10G11R11 only as
 * FLOAT (unsigned 11/11/10-bit floats). */
static bool va_supported(const nv_va_size *z, unsigned type)
{
    if (z->code == 0x31)
        return type == NV_VA_FLOAT;
    switch (z->bits[0]) {
    case 32:
        return type == NV_VA_UINT || type == NV_VA_SINT || type == NV_VA_FLOAT;
    case 16:
        return true;
    default:
        return type != NV_VA_FLOAT;
    }
}

static void attrib_fmt_decode(uint32_t raw, cg_nv_attrib_fmt *f)
{
    memset(f, 0, sizeof(*f));
    f->raw = raw;
    f->stream = NV_VAL(NVB197, SET_VERTEX_ATTRIBUTE_A, STREAM, raw);
    f->constant = NV_VAL(NVB197, SET_VERTEX_ATTRIBUTE_A, SOURCE, raw);
    f->offset = NV_VAL(NVB197, SET_VERTEX_ATTRIBUTE_A, OFFSET, raw);
    f->size = NV_VAL(NVB197, SET_VERTEX_ATTRIBUTE_A, COMPONENT_BIT_WIDTHS, raw);
    f->type = NV_VAL(NVB197, SET_VERTEX_ATTRIBUTE_A, NUMERICAL_TYPE, raw);
    f->bgra = NV_VAL(NVB197, SET_VERTEX_ATTRIBUTE_A, SWAP_R_AND_B, raw);
    const nv_va_size *z = nv_va_size_find(f->size);
    if (z && f->type && va_supported(z, f->type))
        f->components = z->ncomp;
}

/* Bits [off, off+width) of little-endian bytes b (width <= 32). */
static uint32_t bits_at(const uint8_t *b, unsigned off, unsigned width)
{
    uint64_t v = 0;
    for (unsigned i = (off + width - 1) / 8 + 1; i-- > off / 8;)
        v = v << 8 | b[i];
    v >>= off % 8;
    return (uint32_t)(width == 32 ? v : v & ((1ull << width) - 1));
}

/* A float with a 5-bit exponent (bias 15) and an m-bit mantissa: IEEE half
 * (with a sign) and the unsigned 11- and 10-bit floats of B10G11R11
 * (denormals, infinities and NaNs as in IEEE). */
static float small_float(uint32_t v, unsigned m, bool has_sign)
{
    uint32_t mant = v & ((1u << m) - 1), e = (v >> m) & 31;
    float f;
    if (e == 0)
        f = ldexpf((float)mant, -14 - (int)m);
    else if (e == 31)
        f = mant ? NAN : INFINITY;
    else
        f = ldexpf((float)(mant | 1u << m), (int)e - 15 - (int)m);
    return has_sign && (v >> (m + 5)) & 1 ? -f : f;
}

/* Decode the fetched bytes of one attribute (f->components > 0). */
static void attrib_decode(const cg_nv_attrib_fmt *f, const nv_va_size *z, const uint8_t *b,
                          cg_nv_attrib_val *out)
{
    memset(out, 0, sizeof(*out));
    out->f[3] = 1.0f;
    out->i[3] = 1;
    out->is_int = f->type == NV_VA_SINT || f->type == NV_VA_UINT;
    unsigned off = 0;
    for (unsigned k = 0; k < z->ncomp; k++) {
        unsigned w = z->bits[k], d = z->dst + k;
        uint32_t u = bits_at(b, off, w);
        off += w;
        /* the value as a signed w-bit number */
        int64_t s = (int64_t)u - ((w < 64 && (u >> (w - 1)) & 1) ? ((int64_t)1 << w) : 0);
        switch (f->type) {
        case NV_VA_UNORM:
            out->f[d] = (float)((double)u / (double)((1ull << w) - 1));
            break;
        case NV_VA_SNORM: {
            double x = (double)s / (double)((1ull << (w - 1)) - 1);
            out->f[d] = (float)(x < -1.0 ? -1.0 : x);
            break;
        }
        case NV_VA_USCALED:
            out->f[d] = (float)u;
            break;
        case NV_VA_SSCALED:
            out->f[d] = (float)s;
            break;
        case NV_VA_UINT:
            out->i[d] = u;
            break;
        case NV_VA_SINT:
            out->i[d] = s;
            break;
        default: /* NV_VA_FLOAT: 32-bit IEEE, halves, or the 11/10-bit floats */
            if (w == 32)
                memcpy(&out->f[d], &u, 4);
            else if (w == 16)
                out->f[d] = small_float(u, 10, true);
            else
                out->f[d] = small_float(u, w - 5, false);
            break;
        }
    }
    if (f->bgra) {
        /* SWAP_R_AND_B: nvk_format.c draws B8G8R8A8 as R8_G8_B8_A8 + swap */
        float tf = out->f[0];
        int64_t ti = out->i[0];
        out->f[0] = out->f[2], out->f[2] = tf;
        out->i[0] = out->i[2], out->i[2] = ti;
    }
}

/* ---- debugger reads (texture handles, TIC, TSC) -------------------------- */

/* Read what the GPU would see at [va, va+n) without posting a fault: false if
 * an engine access would fault. Sparse holes read zero. */
static bool debug_read(const cg_vas *vas, uint64_t va, void *dst, size_t n)
{
    if (cg_vas_check(vas, va, n, false, NULL) != CG_FAULT_NONE)
        return false;
    uint8_t *p = dst;
    while (n) {
        cg_mapping_info mi;
        size_t chunk;
        if (cg_vas_lookup(vas, va, &mi) == 0) {
            uint64_t left = mi.va + mi.size - va;
            chunk = n < left ? n : (size_t)left;
            cg__mem_read_raw(mi.mem, mi.offset + (va - mi.va), p, chunk);
        } else {
            uint64_t left = 0x1000 - (va & 0xFFF);
            chunk = n < left ? n : (size_t)left;
            memset(p, 0, chunk);
        }
        p += chunk, va += chunk, n -= chunk;
    }
    return true;
}

/* Textures each stage can reach: the handles in the stage's texture constant
 * buffer (the slot SET_BINDLESS_TEXTURE selects), from word 8 on (seed 000:
 * "this index starts at 8"). Without the shaders the model cannot know which
 * handles a shader samples, so it takes the words up to the first zero word,
 * at most NV3D_TEX_PER_STAGE of them and never past the buffer's size. (yuzu's
 * early GetStageTextures read every word to the end of the buffer and kept
 * those with a non-zero TIC index; the first zero word ends the list here
 * because a constant buffer holds other data after the handles.) */
#define NV3D_TEX_PER_STAGE 32
static size_t collect_textures(cg_nv_channel *ch, const nv_obj *o, const nv3d_state *s,
                               cg_nv_tex_binding *out)
{
    unsigned slot = NV_VAL(NVB197, SET_BINDLESS_TEXTURE, CONSTANT_BUFFER_SLOT_SELECT,
                           REG(o, NVB197_SET_BINDLESS_TEXTURE));
    uint64_t tic = addr40(o, NVB197_SET_TEX_HEADER_POOL_A, NVB197_SET_TEX_HEADER_POOL_B);
    uint64_t tsc = addr40(o, NVB197_SET_TEX_SAMPLER_POOL_A, NVB197_SET_TEX_SAMPLER_POOL_B);
    uint32_t tic_max = NV_VAL(NVB197, SET_TEX_HEADER_POOL_C, MAXIMUM_INDEX,
                              REG(o, NVB197_SET_TEX_HEADER_POOL_C));
    uint32_t tsc_max = NV_VAL(NVB197, SET_TEX_SAMPLER_POOL_C, MAXIMUM_INDEX,
                              REG(o, NVB197_SET_TEX_SAMPLER_POOL_C));
    size_t n = 0;
    if (slot >= NV3D_CB_SLOTS)
        return 0;
    for (unsigned st = 0; st < NV3D_STAGES; st++) {
        const nv3d_cb *cb = &s->cb[st][slot];
        if (!cb->valid)
            continue;
        for (unsigned k = 8; k < 8 + NV3D_TEX_PER_STAGE && 4ull * (k + 1) <= cb->size; k++) {
            uint32_t h, w[8];
            if (!debug_read(ch->vas, cb->addr + 4ull * k, &h, 4) || h == 0)
                break;
            cg_nv_tex_binding *t = &out[n++];
            memset(t, 0, sizeof(*t));
            t->stage = st;
            t->slot = k;
            t->handle = h;
            t->tic_index = h & 0xFFFFF;
            t->tsc_index = h >> 20;
            t->tic_ok = t->tic_index <= tic_max &&
                        debug_read(ch->vas, tic + 32ull * t->tic_index, w, sizeof(w));
            if (t->tic_ok)
                cg_nv_tic_decode(w, &t->tic);
            t->tsc_ok = t->tsc_index <= tsc_max &&
                        debug_read(ch->vas, tsc + 32ull * t->tsc_index, w, sizeof(w));
            if (t->tsc_ok)
                cg_nv_tsc_decode(w, &t->tsc);
        }
    }
    return n;
}

/* ---- the draw ------------------------------------------------------------ */

typedef struct draw_req {
    uint32_t method;
    const char *what;     /* method name for messages */
    unsigned topology;
    uint32_t begin;       /* BEGIN word (one-word draws: the equivalent one) */
    bool indexed;
    uint32_t first, count;
    unsigned index_size;  /* bytes */
} draw_req;

/* The attributes a draw fetches (a valid format, not constant), found once
 * per draw: their formats' sizes and the bytes each reads. */
typedef struct fetch_plan {
    nv_vtx_in in;                          /* the attribute list (pipeline.h) */
    const nv_va_size *z[CG_NV_MAX_ATTRIBS];   /* by position in in.attr */
} fetch_plan;

static void fetch_plan_make(const cg_nv_draw *d, fetch_plan *p)
{
    memset(p, 0, sizeof(*p));
    for (unsigned a = 0; a < CG_NV_MAX_ATTRIBS; a++) {
        const cg_nv_attrib_fmt *f = &d->attribs[a];
        if (f->constant || !f->components)
            continue;
        p->z[p->in.nattr] = nv_va_size_find(f->size);
        p->in.attr[p->in.nattr++] = (uint8_t)a;
    }
    p->in.stride = NV_VTX_ATTR0 + 4 * p->in.nattr;
}

/* Fetch the attributes of plan p of the vertex with index `index` of
 * instance `inst` into val[0 .. p->in.nattr), in attribute order. */
static int fetch_vertex(cg_nv_channel *ch, const cg_nv_draw *d, const fetch_plan *p,
                        uint32_t index, uint32_t inst, cg_nv_attrib_val *val,
                        const cg_agent *ag)
{
    for (unsigned j = 0; j < p->in.nattr; j++) {
        const cg_nv_attrib_fmt *f = &d->attribs[p->in.attr[j]];
        const nv_va_size *z = p->z[j];
        uint8_t b[16] = {0};
        const cg_nv_stream *s = &d->streams[f->stream];
        /* instanced streams advance once per FREQUENCY instances; 0 reads
         * element 0 for every instance (Vulkan's divisor 0) */
        uint64_t elem = s->instanced ? (s->frequency ? inst / s->frequency : 0) : index;
        uint64_t va = s->start + elem * s->stride + f->offset;
        bool oob = !s->enabled || va + z->bytes - 1 > s->limit;
        if (!oob && nv_mem_rw(ch->vas, va, b, z->bytes, false, ag) != 0) {
            ch->state = CG_NV_CH_FAULTED;
            return CG_ERR_FAULT;
        }
        attrib_decode(f, z, b, &val[j]);
        val[j].out_of_range = oob;
    }
    return 0;
}

/* The record's description of the draw from the 3D registers: the
 * request, the attribute formats (one the model cannot decode faults: a
 * size code clb197.h does not name, NUMERICAL_TYPE 0, or a combination
 * not supported yet), the vertex streams and the index buffer. */
static int draw_describe(cg_nv_channel *ch, const nv_obj *o, const nv3d_state *s,
                         const draw_req *r, cg_nv_draw *d, const cg_agent *ag)
{
    d->channel = ch->id;
    d->stream_addr = ag->stream_addr;
    d->seq = s->draws;
    d->topology = r->topology;
    d->begin = r->begin;
    d->indexed = r->indexed;
    d->first = r->first;
    d->count = r->count;
    d->instance = s->instance;
    d->vas = ch->vas;
    for (unsigned a = 0; a < CG_NV_MAX_ATTRIBS; a++) {
        cg_nv_attrib_fmt *f = &d->attribs[a];
        attrib_fmt_decode(REG(o, NVB197_SET_VERTEX_ATTRIBUTE_A + 4 * a), f);
        /* a format word never written (size code 0) names no attribute */
        if (f->constant || f->size == 0 || f->components)
            continue;
        const nv_va_size *z = nv_va_size_find(f->size);
        if (!z)
            return nv_fault(ch, ag, CG_FAULT_BAD_STATE, 0,
                            "%s: VERTEX_ATTRIB_FORMAT(%u) COMPONENT_BIT_WIDTHS 0x%02x is not a "
                            "size of clb197.h", r->what, a, f->size);
        if (f->type == 0)
            return nv_fault(ch, ag, CG_FAULT_BAD_STATE, 0,
                            "%s: VERTEX_ATTRIB_FORMAT(%u) NUMERICAL_TYPE 0 is not a type",
                            r->what, a);
        return nv_fault(ch, ag, CG_FAULT_UNSUPPORTED, 0,
                        "%s: VERTEX_ATTRIB_FORMAT(%u) %s %s not supported yet", r->what, a,
                        z->name, nv_va_type_name(f->type));
    }
    for (unsigned j = 0; j < CG_NV_MAX_STREAMS; j++) {
        cg_nv_stream *st = &d->streams[j];
        uint32_t fmt = REG(o, NVB197_SET_VERTEX_STREAM_A_FORMAT + 16 * j);
        st->stride = NV_VAL(NVB197, SET_VERTEX_STREAM_A_FORMAT, STRIDE, fmt);
        st->enabled = NV_VAL(NVB197, SET_VERTEX_STREAM_A_FORMAT, ENABLE, fmt);
        st->start = addr40(o, NVB197_SET_VERTEX_STREAM_A_LOCATION_A + 16 * j,
                           NVB197_SET_VERTEX_STREAM_A_LOCATION_B + 16 * j);
        st->limit = addr40(o, NVB197_SET_VERTEX_STREAM_LIMIT_A_A + 8 * j,
                           NVB197_SET_VERTEX_STREAM_LIMIT_A_B + 8 * j);
        st->frequency = REG(o, NVB197_SET_VERTEX_STREAM_A_FREQUENCY + 16 * j);
        st->instanced = NV_VAL(NVB197, SET_VERTEX_STREAM_INSTANCE_A, IS_INSTANCED,
                               REG(o, NVB197_SET_VERTEX_STREAM_INSTANCE_A + 4 * j));
    }
    if (r->indexed) {
        d->index_size = r->index_size;
        d->index_addr = addr40(o, NVB197_SET_INDEX_BUFFER_A, NVB197_SET_INDEX_BUFFER_B);
        d->index_limit = addr40(o, NVB197_SET_INDEX_BUFFER_C, NVB197_SET_INDEX_BUFFER_D);
    }
    return 0;
}

/* Index i of an indexed draw (little-endian, index_size bytes). Past the
 * limit an index reads 0, as a vertex past its stream's limit reads zeros
 * (the limits are bounds checks). */
static inline int read_index(cg_nv_channel *ch, const cg_nv_draw *d, const draw_req *r,
                             uint32_t i, uint32_t *index, bool *oob, const cg_agent *ag)
{
    uint64_t va = d->index_addr + ((uint64_t)r->first + i) * r->index_size;
    uint8_t b[4] = {0};
    *oob = false;
    if (va + r->index_size - 1 > d->index_limit) {
        *oob = true;
    } else if (nv_mem_rw(ch->vas, va, b, r->index_size, false, ag) != 0) {
        ch->state = CG_NV_CH_FAULTED;
        return CG_ERR_FAULT;
    }
    *index = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
    return 0;
}

/* Every vertex of the draw, in order (a fault stops the draw): its index,
 * then its fetched attributes into what needs them: the record's full
 * cg_nv_vertex (verts, for a draw callback), the pipeline's compact words
 * (words: 8 + 16 bytes per fetched attribute, when a vertex program runs). */
static int fetch_vertices(cg_nv_channel *ch, const cg_nv_draw *d, const draw_req *r,
                          const nv3d_state *s, const fetch_plan *plan, cg_nv_vertex *verts,
                          uint32_t *words, const cg_agent *ag)
{
    for (uint32_t i = 0; i < r->count; i++) {
        uint32_t index = r->first + i;
        bool index_oob = false;
        if (r->indexed && read_index(ch, d, r, i, &index, &index_oob, ag) != 0)
            return CG_ERR_FAULT;
        cg_nv_attrib_val val[CG_NV_MAX_ATTRIBS];
        int rc = fetch_vertex(ch, d, plan, index, s->instance, val, ag);
        if (rc)
            return rc;
        if (verts) {
            /* the record: every attribute, those not fetched (0, 0, 0, 1) */
            cg_nv_vertex *v = &verts[i];
            v->index = index;
            v->instance = s->instance;
            v->index_out_of_range = index_oob;
            for (unsigned a = 0; a < CG_NV_MAX_ATTRIBS; a++) {
                cg_nv_attrib_val *x = &v->attr[a];
                memset(x, 0, sizeof(*x));
                x->f[3] = 1.0f;
                x->i[3] = 1;
            }
            for (unsigned j = 0; j < plan->in.nattr; j++)
                v->attr[plan->in.attr[j]] = val[j];
        }
        if (words) {
            /* the pipeline: the words a shader input receives */
            uint32_t *w = words + (size_t)i * plan->in.stride;
            w[NV_VTX_INDEX] = index;
            w[NV_VTX_INSTANCE] = s->instance;
            for (unsigned j = 0; j < plan->in.nattr; j++)
                for (unsigned k = 0; k < 4; k++) {
                    uint32_t u = (uint32_t)val[j].i[k];
                    if (!val[j].is_int)
                        memcpy(&u, &val[j].f[k], sizeof(u));
                    w[NV_VTX_ATTR0 + 4 * j + k] = u;
                }
        }
    }
    return 0;
}

/* What a draw callback sees beyond the vertices: the constant buffers
 * bound (CB_BIND), the textures the stages' texture constant buffers name,
 * the render targets SET_CT_SELECT selects and the zeta buffer. The texture
 * array (tbytes) is allocated into *tex; the caller frees it. */
static int record_bindings(cg_nv_channel *ch, nv_obj *o, nv3d_state *s, const draw_req *r,
                           cg_nv_draw *d, cg_nv_tex_binding **tex, size_t tbytes,
                           const cg_agent *ag)
{
    for (unsigned st = 0; st < NV3D_STAGES; st++)
        for (unsigned k = 0; k < NV3D_CB_SLOTS; k++)
            d->cb[st][k] = (cg_nv_cb_binding){s->cb[st][k].valid, s->cb[st][k].addr,
                                              s->cb[st][k].size};
    d->tex_cb_slot = NV_VAL(NVB197, SET_BINDLESS_TEXTURE, CONSTANT_BUFFER_SLOT_SELECT,
                            REG(o, NVB197_SET_BINDLESS_TEXTURE));
    *tex = cg__alloc(ch->gpu->dev, tbytes);
    if (!*tex)
        return nv_fault(ch, ag, CG_FAULT_OUT_OF_MEMORY, 0,
                        "%s: no host memory for the draw's textures", r->what);
    d->ntextures = collect_textures(ch, o, s, *tex);
    d->textures = *tex;
    uint32_t ct = REG(o, NVB197_SET_CT_SELECT);
    d->rt_count = NV_VAL(NVB197, SET_CT_SELECT, TARGET_COUNT, ct);
    for (unsigned i = 0; i < CG_NV_MAX_TARGETS; i++) {
        d->rt_map[i] = NV_VAL(NVB197, SET_CT_SELECT, TARGET0,
                              ct >> (CT_SELECT_TARGET_STRIDE * i));
        nv3d_rt_state(o, i, &d->rt[i]);
    }
    nv3d_zeta_state(o, &d->zeta, &d->zeta_enabled);
    return 0;
}

/* A draw: its record from the registers, every vertex fetched, the
 * counters and trace, the draw callback with the record, then the 3D
 * pipeline when a vertex program is set up. */
static int do_draw(cg_nv_channel *ch, nv_obj *o, nv3d_state *s, const draw_req *r,
                   const cg_agent *ag)
{
    cg_nv_gpu *gpu = ch->gpu;
    /* The record holds every vertex: its size is what the operation limit
     * bounds (a draw over it would take the model too long: a hang fault). */
    uint64_t need = (uint64_t)r->count * sizeof(cg_nv_vertex);
    if (need > gpu->op_limit)
        return nv_fault(ch, ag, CG_FAULT_HANG, 0,
                        "budget %s: %s: %u vertices need a 0x%llx-byte draw record, over the "
                        "limit 0x%llx", cg_budget_name(CG_BUDGET_NV_OP_BYTES),
                        r->what, r->count, (unsigned long long)need,
                        (unsigned long long)gpu->op_limit);
    cg_nv_draw *d = cg__alloc(gpu->dev, sizeof(*d));
    if (!d)
        return nv_fault(ch, ag, CG_FAULT_OUT_OF_MEMORY, 0, "%s: no host memory for the draw record",
                        r->what);
    cg_nv_vertex *verts = NULL;
    uint32_t *words = NULL;
    cg_nv_tex_binding *tex = NULL;
    size_t vbytes = 0, wbytes = 0, tbytes = NV3D_STAGES * NV3D_TEX_PER_STAGE * sizeof(cg_nv_tex_binding);
    int rc = draw_describe(ch, o, s, r, d, ag);
    if (rc)
        goto out;
    bool pipeline = nv_pipeline_active(o);
    fetch_plan plan;
    fetch_plan_make(d, &plan);
    if (r->count && gpu->draw_fn) {
        vbytes = (size_t)need;
        verts = cg__alloc(gpu->dev, vbytes);
    }
    if (r->count && pipeline) {
        wbytes = (size_t)r->count * plan.in.stride * sizeof(uint32_t);
        words = cg__alloc(gpu->dev, wbytes);
    }
    if ((r->count && gpu->draw_fn && !verts) || (r->count && pipeline && !words)) {
        rc = nv_fault(ch, ag, CG_FAULT_OUT_OF_MEMORY, 0,
                      "%s: no host memory for a draw record of %u vertices", r->what, r->count);
        goto out;
    }
    plan.in.words = words;
    if ((rc = fetch_vertices(ch, d, r, s, &plan, verts, words, ag)) != 0)
        goto out;
    nv3d_count_draw(s, r->topology, r->count, 1);
    s->draws++;
    if (ch->tracing) {
        char text[96];
        snprintf(text, sizeof(text), "draw %llu: %s, %u %s from %u, instance %u",
                 (unsigned long long)d->seq, nv_topology_name(r->topology), r->count,
                 r->indexed ? "indices" : "vertices", r->first, s->instance);
        nv_trace_event(ch, CG_TRACE_NOTE, "3d", r->method, r->count, d->index_addr, 0, text);
    }
    if (gpu->draw_fn) {
        d->nvertices = verts ? r->count : 0;
        d->vertices = verts;
        if ((rc = record_bindings(ch, o, s, r, d, &tex, tbytes, ag)) != 0)
            goto out;
        gpu->draw_fn(gpu->draw_user, d);
    }
    /* the pipeline runs after the record (docs/nv-pipeline.md) */
    if (pipeline)
        rc = nv_pipeline_draw(ch, o, s, r->topology, &plan.in, words ? r->count : 0, ag);
out:
    if (tex)
        cg__free(gpu->dev, tex, tbytes);
    if (verts)
        cg__free(gpu->dev, verts, vbytes);
    if (words)
        cg__free(gpu->dev, words, wbytes);
    cg__free(gpu->dev, d, sizeof(*d));
    return rc;
}

/* ---- methods -------------------------------------------------------------- */

/* The method's name in the class table (draw methods are never arrays). */
static const char *method_name(uint32_t m)
{
    const cg_nv_method *d = cg_nv_method_at(cg_nv_class_find(CG_NV_CLASS_3D), m, NULL);
    return d ? d->name : "?";
}

/* BEGIN opens a bracket in which DRAW_VERTEX_ARRAY and DRAW_INDEX_BUFFER
 * draw; END closes it. The class reports a second BEGIN, and a one-word draw
 * (which brings its own BEGIN and END), while one is open as the DATA_ERROR
 * BEGIN_END_ACTIVE (nouveau nv50_data_error_names 0x0d, also decoded for
 * GF100+): a BAD_STATE fault here. No source says what a draw or END outside
 * a bracket does; the model faults (BAD_STATE) rather than guess a topology
 * (docs/nv-draws.md). The class table's ACTION column sends each method to
 * one of the handlers below (threed.c handlers[]). */

static int no_state(cg_nv_channel *ch, const cg_agent *ag)
{
    return nv_fault(ch, ag, CG_FAULT_OUT_OF_MEMORY, 0, "no host memory for the 3D state");
}

/* ACTION(BEGIN) */
int nv3d_draw_begin(cg_nv_channel *ch, nv_obj *o, uint32_t m, uint32_t v, const cg_agent *ag)
{
    (void)o, (void)m;
    nv3d_state *s = nv3d_state_get(ch);
    if (!s)
        return no_state(ch, ag);
    unsigned op = NV_VAL(NVB197, BEGIN, OP, v), inst = NV_VAL(NVB197, BEGIN, INSTANCE_ID, v);
    if (s->in_begin)
        return nv_fault(ch, ag, CG_FAULT_BAD_STATE, 0,
                        "BEGIN while a BEGIN .. END is open (BEGIN_END_ACTIVE)");
    if (op > NVB197_BEGIN_OP_PATCH)
        return nv_fault(ch, ag, CG_FAULT_BAD_STATE, 0,
                        "BEGIN: OP 0x%x is not a topology of clb197.h (POINTS 0 .. PATCH 14)",
                        op);
    if (inst > NVB197_BEGIN_INSTANCE_ID_UNCHANGED)
        return nv_fault(ch, ag, CG_FAULT_BAD_STATE, 0,
                        "BEGIN: INSTANCE_ID 3 is not FIRST, SUBSEQUENT or UNCHANGED");
    /* yuzu maxwell_3d.cpp: FIRST resets the instance to 0, SUBSEQUENT
     * adds one, UNCHANGED keeps it */
    s->instance = inst == NVB197_BEGIN_INSTANCE_ID_FIRST        ? 0
                  : inst == NVB197_BEGIN_INSTANCE_ID_SUBSEQUENT ? s->instance + 1
                                                                : s->instance;
    s->in_begin = true;
    s->begin = v;
    return 0;
}

/* ACTION(END) */
int nv3d_draw_end(cg_nv_channel *ch, nv_obj *o, uint32_t m, uint32_t v, const cg_agent *ag)
{
    (void)o, (void)m, (void)v;
    nv3d_state *s = nv3d_state_get(ch);
    if (!s)
        return no_state(ch, ag);
    if (!s->in_begin)
        return nv_fault(ch, ag, CG_FAULT_BAD_STATE, 0, "END without a BEGIN");
    s->in_begin = false;
    return 0;
}

/* ACTION(DRAW): DRAW_VERTEX_ARRAY and DRAW_INDEX_BUFFER, inside BEGIN .. END */
int nv3d_draw(cg_nv_channel *ch, nv_obj *o, uint32_t m, uint32_t v, const cg_agent *ag)
{
    nv3d_state *s = nv3d_state_get(ch);
    if (!s)
        return no_state(ch, ag);
    draw_req r = {.method = m, .what = method_name(m)};
    if (!s->in_begin)
        return nv_fault(ch, ag, CG_FAULT_BAD_STATE, 0, "%s outside BEGIN .. END", r.what);
    r.topology = NV_VAL(NVB197, BEGIN, OP, s->begin);
    r.begin = s->begin;
    r.count = v;
    if (m == NVB197_DRAW_VERTEX_ARRAY) {
        r.first = REG(o, NVB197_SET_VERTEX_ARRAY_START);
    } else {
        unsigned sz = NV_VAL(NVB197, SET_INDEX_BUFFER_E, INDEX_SIZE,
                             REG(o, NVB197_SET_INDEX_BUFFER_E));
        if (sz > NVB197_SET_INDEX_BUFFER_E_INDEX_SIZE_FOUR_BYTES)
            return nv_fault(ch, ag, CG_FAULT_BAD_STATE, 0,
                            "DRAW_INDEX_BUFFER: INDEX_SIZE 3 is not ONE_BYTE, TWO_BYTES or "
                            "FOUR_BYTES");
        r.indexed = true;
        r.index_size = 1u << sz; /* ONE_BYTE 0, TWO_BYTES 1, FOUR_BYTES 2 */
        r.first = REG(o, NVB197_SET_INDEX_BUFFER_F);
    }
    return do_draw(ch, o, s, &r, ag);
}

/* The one-word draws, ACTION(DRAW_BEGIN_END): BEGIN, one draw, END. What the
 * method's name says (the index size, the first or the next instance) by
 * method; the word's fields are read with DRAW_VERTEX_ARRAY_BEGIN_END_
 * INSTANCE_FIRST's (NV_SAME_FIELD above). */
static const struct {
    uint32_t method;
    uint8_t index_size; /* bytes; 0: not indexed */
    bool subsequent;
} begin_end[] = {
    {NVB197_DRAW_VERTEX_ARRAY_BEGIN_END_INSTANCE_FIRST, 0, false},
    {NVB197_DRAW_VERTEX_ARRAY_BEGIN_END_INSTANCE_SUBSEQUENT, 0, true},
    {NVB197_DRAW_INDEX_BUFFER32_BEGIN_END_INSTANCE_FIRST, 4, false},
    {NVB197_DRAW_INDEX_BUFFER16_BEGIN_END_INSTANCE_FIRST, 2, false},
    {NVB197_DRAW_INDEX_BUFFER8_BEGIN_END_INSTANCE_FIRST, 1, false},
    {NVB197_DRAW_INDEX_BUFFER32_BEGIN_END_INSTANCE_SUBSEQUENT, 4, true},
    {NVB197_DRAW_INDEX_BUFFER16_BEGIN_END_INSTANCE_SUBSEQUENT, 2, true},
    {NVB197_DRAW_INDEX_BUFFER8_BEGIN_END_INSTANCE_SUBSEQUENT, 1, true},
};

void nv3d_begin_end_kind(uint32_t m, unsigned *index_size, bool *subsequent)
{
    size_t k = 0;
    while (k < sizeof(begin_end) / sizeof(begin_end[0]) - 1 && begin_end[k].method != m)
        k++;
    *index_size = begin_end[k].index_size;
    *subsequent = begin_end[k].subsequent;
}

int nv3d_draw_begin_end(cg_nv_channel *ch, nv_obj *o, uint32_t m, uint32_t v,
                        const cg_agent *ag)
{
    nv3d_state *s = nv3d_state_get(ch);
    if (!s)
        return no_state(ch, ag);
    draw_req r = {.method = m, .what = method_name(m)};
    unsigned index_size;
    bool subsequent;
    nv3d_begin_end_kind(m, &index_size, &subsequent);
    if (s->in_begin)
        return nv_fault(ch, ag, CG_FAULT_BAD_STATE, 0,
                        "%s inside BEGIN .. END (BEGIN_END_ACTIVE)", r.what);
    r.topology = NV_VAL(NVB197, DRAW_VERTEX_ARRAY_BEGIN_END_INSTANCE_FIRST, TOPOLOGY, v);
    if (r.topology > NVB197_DRAW_VERTEX_ARRAY_BEGIN_END_INSTANCE_FIRST_TOPOLOGY_PATCH)
        return nv_fault(ch, ag, CG_FAULT_BAD_STATE, 0,
                        "%s: TOPOLOGY 0xf is not a topology of clb197.h", r.what);
    r.first = NV_VAL(NVB197, DRAW_VERTEX_ARRAY_BEGIN_END_INSTANCE_FIRST, START_INDEX, v);
    r.count = NV_VAL(NVB197, DRAW_VERTEX_ARRAY_BEGIN_END_INSTANCE_FIRST, COUNT, v);
    r.begin = NV_NUM(NVB197, BEGIN, OP, r.topology) |
              (subsequent ? NV_DEF(NVB197, BEGIN, INSTANCE_ID, SUBSEQUENT)
                          : NV_DEF(NVB197, BEGIN, INSTANCE_ID, FIRST));
    r.indexed = index_size != 0;
    r.index_size = index_size;
    s->instance = subsequent ? s->instance + 1 : 0;
    return do_draw(ch, o, s, &r, ag);
}

void cg_nv_gpu_set_draw_callback(cg_nv_gpu *gpu, cg_nv_draw_fn fn, void *user)
{
    if (!gpu)
        return;
    gpu->draw_fn = fn;
    gpu->draw_user = user;
}
