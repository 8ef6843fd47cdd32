/* nv: MAXWELL_B (B197) 3D engine: dispatch of the action methods, CB_BIND,
 * report semaphores, CLEAR_REPORT_VALUE, clears (CLEAR_SURFACE). What the
 * register file says (render targets, formats, draw counters) is read
 * through threed_state.c, which draw.c, pipeline.c and rop.c share. See
 * threed.h and docs/nv-3d.md.
 *
 * Sources (cited where used): NVIDIA open-gpu-doc classes/3d/clb197.h (method
 * offsets, fields, format codes, report codes); Mesa nvc0_surface.c (how the
 * driver programs targets for a clear) and nvc0_query_hw.c (report
 * layouts); NVK nvk_physical_device.h (constant buffer alignment); deko3d
 * source/maxwell (engine_3d.def, clear_buffers.mme); yuzu maxwell_3d.h and
 * rasterizer_opengl.cpp (clear control); research/nv.md section 5. */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "nv/tables/fields.h"
#include "threed.h"

_Static_assert(NV3D_STAGES == 5, "BIND_GROUP_CONSTANT_BUFFER has 5 elements (classes.overlay)");

static inline uint32_t reg(const nv_obj *o, uint32_t m)
{
    return o->regs[m >> 2];
}

/* ---- report counters ----------------------------------------------------- */

/* SET_REPORT_SEMAPHORE_D REPORT codes the report semaphore treats apart
 * (clb197.h); the draw counters are in threed_state.c. */
enum {
    REP_NONE = NVB197_SET_REPORT_SEMAPHORE_D_REPORT_NONE,
    REP_ZPASS_PIXEL_CNT = NVB197_SET_REPORT_SEMAPHORE_D_REPORT_ZPASS_PIXEL_CNT,
};

/* CLEAR_REPORT_VALUE TYPE uses its own numbering (clb197.h): each type and
 * the REPORT codes it resets. ZCULL_STATS resets the four ZCULL_STATSn,
 * ZPASS_PIXEL_CNT both pixel counters. */
#define CRT(t) NVB197_CLEAR_REPORT_VALUE_TYPE_##t
#define REP(r) NVB197_SET_REPORT_SEMAPHORE_D_REPORT_##r
static const struct {
    uint8_t type, report[4];
} clear_types[] = {
    {CRT(ZPASS_PIXEL_CNT), {REP(ZPASS_PIXEL_CNT), REP(ZPASS_PIXEL_CNT64)}},
    {CRT(ZCULL_STATS),
     {REP(ZCULL_STATS0), REP(ZCULL_STATS1), REP(ZCULL_STATS2), REP(ZCULL_STATS3)}},
    {CRT(TOTAL_STREAMING_PRIMITIVES_NEEDED_MINUS_SUCCEEDED),
     {REP(TOTAL_STREAMING_PRIMITIVES_NEEDED_MINUS_SUCCEEDED)}},
    {CRT(ALPHA_BETA_CLOCKS), {REP(ALPHA_BETA_CLOCKS)}},
    {CRT(STREAMING_PRIMITIVES_SUCCEEDED), {REP(STREAMING_PRIMITIVES_SUCCEEDED)}},
    {CRT(STREAMING_PRIMITIVES_NEEDED), {REP(STREAMING_PRIMITIVES_NEEDED)}},
    {CRT(DA_VERTICES_GENERATED), {REP(DA_VERTICES_GENERATED)}},
    {CRT(DA_PRIMITIVES_GENERATED), {REP(DA_PRIMITIVES_GENERATED)}},
    {CRT(VS_INVOCATIONS), {REP(VS_INVOCATIONS)}},
    {CRT(TI_INVOCATIONS), {REP(TI_INVOCATIONS)}},
    {CRT(TS_INVOCATIONS), {REP(TS_INVOCATIONS)}},
    {CRT(TS_PRIMITIVES_GENERATED), {REP(TS_PRIMITIVES_GENERATED)}},
    {CRT(GS_INVOCATIONS), {REP(GS_INVOCATIONS)}},
    {CRT(GS_PRIMITIVES_GENERATED), {REP(GS_PRIMITIVES_GENERATED)}},
    {CRT(CLIPPER_INVOCATIONS), {REP(CLIPPER_INVOCATIONS)}},
    {CRT(CLIPPER_PRIMITIVES_GENERATED), {REP(CLIPPER_PRIMITIVES_GENERATED)}},
    {CRT(PS_INVOCATIONS), {REP(PS_INVOCATIONS)}},
    {CRT(VTG_PRIMITIVES_OUT), {REP(VTG_PRIMITIVES_OUT)}},
};
#undef CRT
#undef REP

static int clear_report_value(cg_nv_channel *ch, nv3d_state *s, uint32_t v, const cg_agent *ag)
{
    unsigned type = NV_VAL(NVB197, CLEAR_REPORT_VALUE, TYPE, v);
    for (size_t i = 0; i < sizeof(clear_types) / sizeof(clear_types[0]); i++) {
        if (clear_types[i].type != type)
            continue;
        for (int k = 0; k < 4 && clear_types[i].report[k]; k++)
            s->counters[clear_types[i].report[k]] = 0;
        return 0;
    }
    return nv_fault(ch, ag, CG_FAULT_BAD_STATE, 0,
                    "CLEAR_REPORT_VALUE: type 0x%02x is not defined in clb197.h", type);
}

/* ---- CB_BIND -------------------------------------------------------------- */

/* BIND_GROUP_CONSTANT_BUFFER(stage): VALID 0, SHADER_SLOT 8:4 (clb197.h).
 * VALID = 1 snapshots SET_CONSTANT_BUFFER_SELECTOR_A..C; VALID = 0 unbinds.
 * Rules: SIZE (16:0) at most 0x10000 = 64 KiB, the most a constant buffer
 * holds (Mesa NVC0_MAX_CONSTBUF_SIZE); the address aligned to 256 bytes, the
 * alignment NVK requires before Turing (nvk_min_cbuf_alignment: 256 below
 * TURING_A, 64 from it). A size that is not a multiple of 16 is
 * kept as written: shaders read whole 16-byte vectors, what a partial last
 * vector reads is outside this model. */
static int cb_bind(cg_nv_channel *ch, nv_obj *o, nv3d_state *s, uint32_t m, uint32_t v,
                   const cg_agent *ag)
{
    unsigned stage = (m - NVB197_BIND_GROUP_CONSTANT_BUFFER) / 32;
    unsigned slot = NV_VAL(NVB197, BIND_GROUP_CONSTANT_BUFFER, SHADER_SLOT, v);
    if (slot >= NV3D_CB_SLOTS)
        return nv_fault(ch, ag, CG_FAULT_BAD_STATE, 0,
                        "BIND_GROUP_CONSTANT_BUFFER(%u): shader slot %u, Maxwell has %u "
                        "(0..%u)", stage, slot, NV3D_CB_SLOTS, NV3D_CB_SLOTS - 1);
    nv3d_cb *cb = &s->cb[stage][slot];
    if (!NV_VAL(NVB197, BIND_GROUP_CONSTANT_BUFFER, VALID, v)) {
        memset(cb, 0, sizeof(*cb));
        return 0;
    }
    uint32_t size = NV_VAL(NVB197, SET_CONSTANT_BUFFER_SELECTOR_A, SIZE,
                           reg(o, NVB197_SET_CONSTANT_BUFFER_SELECTOR_A));
    uint64_t addr = nv_addr40(reg(o, NVB197_SET_CONSTANT_BUFFER_SELECTOR_B),
                           reg(o, NVB197_SET_CONSTANT_BUFFER_SELECTOR_C));
    if (size > 0x10000)
        return nv_fault(ch, ag, CG_FAULT_BAD_STATE, addr,
                        "BIND_GROUP_CONSTANT_BUFFER(%u) slot %u: size 0x%x is over 64 KiB",
                        stage, slot, size);
    if (addr & 255)
        return nv_fault(ch, ag, CG_FAULT_BAD_ALIGN, addr,
                        "BIND_GROUP_CONSTANT_BUFFER(%u) slot %u: address 0x%010llx is not "
                        "256-byte aligned", stage, slot, (unsigned long long)addr);
    cb->valid = true;
    cb->addr = addr;
    cb->size = size;
    return 0;
}

/* ---- report semaphores ---------------------------------------------------- */

/* SET_REPORT_SEMAPHORE_D REDUCTION_OP goes to nv_reduce through
 * nv_red_op_to_host (reduce.c). */

static int report_write(cg_nv_channel *ch, uint64_t va, const uint32_t *w, size_t n,
                        const cg_agent *ag)
{
    int rc = cg_vas_write(ch->vas, va, w, 4 * n, ag);
    if (rc != 0)
        ch->state = CG_NV_CH_FAULTED;
    return rc;
}

/* RELEASE: write the payload (one word), or the four-word structure of
 * payload, 0 and the timestamp; with REDUCTION_ENABLE the payload is
 * reduced into the 32-bit word there instead (REDUCTION_OP in the I2M's
 * numbering, REDUCTION_FORMAT unsigned or signed). */
static int report_release(cg_nv_channel *ch, uint64_t va, uint32_t payload, uint32_t v,
                          uint64_t ts, const cg_agent *ag)
{
    unsigned format = NV_VAL(NVB197, SET_REPORT_SEMAPHORE_D, REDUCTION_FORMAT, v);
    bool one_word = NV_VAL(NVB197, SET_REPORT_SEMAPHORE_D, STRUCTURE_SIZE, v);
    if (NV_VAL(NVB197, SET_REPORT_SEMAPHORE_D, REDUCTION_ENABLE, v)) {
        if (!one_word)
            return nv_fault(ch, ag, CG_FAULT_UNSUPPORTED, va,
                            "SET_REPORT_SEMAPHORE_D: reduction with the four-word "
                            "structure not supported yet");
        if (format > NVB197_SET_REPORT_SEMAPHORE_D_REDUCTION_FORMAT_SIGNED_32)
            return nv_fault(ch, ag, CG_FAULT_BAD_STATE, va,
                            "SET_REPORT_SEMAPHORE_D: REDUCTION_FORMAT %u is not defined "
                            "(UNSIGNED_32 0, SIGNED_32 1)", format);
        uint32_t old;
        if (cg_vas_read32(ch->vas, va, &old, ag) != 0) {
            ch->state = CG_NV_CH_FAULTED;
            return CG_ERR_FAULT;
        }
        uint32_t nv = nv_reduce(old, payload,
                                nv_red_op_to_host[NV_VAL(NVB197, SET_REPORT_SEMAPHORE_D,
                                                         REDUCTION_OP, v)],
                                format == NVB197_SET_REPORT_SEMAPHORE_D_REDUCTION_FORMAT_SIGNED_32);
        if (report_write(ch, va, &nv, 1, ag) != 0)
            return CG_ERR_FAULT;
        nv_trace_event(ch, CG_TRACE_FENCE, ag->unit, NVB197_SET_REPORT_SEMAPHORE_D, nv, va, 4,
                       "report semaphore reduction");
        return 0;
    }
    uint32_t rec[4] = {payload, 0, (uint32_t)ts, (uint32_t)(ts >> 32)};
    if (report_write(ch, va, rec, one_word ? 1 : 4, ag) != 0)
        return CG_ERR_FAULT;
    nv_trace_event(ch, CG_TRACE_FENCE, ag->unit, NVB197_SET_REPORT_SEMAPHORE_D, payload, va,
                   one_word ? 4 : 16, "report semaphore release");
    return 0;
}

/* ACQUIRE: the channel waits like a host SEMAPHORED acquire, for the word
 * to equal the payload or (COMPARISON GE) reach it. */
static void report_acquire(cg_nv_channel *ch, uint64_t va, uint32_t payload, uint32_t v,
                           const cg_agent *ag)
{
    ch->wait = NV_WAIT_SEM;
    ch->wait_addr = va;
    ch->wait_value = payload;
    ch->wait_op = NV_VAL(NVB197, SET_REPORT_SEMAPHORE_D, COMPARISON, v) ==
                          NVB197_SET_REPORT_SEMAPHORE_D_COMPARISON_GE
                      ? NVB06F_SEMAPHORED_OPERATION_ACQ_GEQ
                      : NVB06F_SEMAPHORED_OPERATION_ACQUIRE;
    ch->wait_hdr_addr = ag->stream_addr;
    ch->wait_unit = ag->unit; /* "3d" or "compute": names the unit in a watchdog hang */
    ch->wait_words[0] = ag->words[0];
    ch->wait_words[1] = ag->words[1];
    ch->wait_runs = 0;
}

/* REPORT_ONLY: write counter REPORT (3D only; threed_state.c counts). */
static int report_counter(cg_nv_channel *ch, const nv_obj *o, uint64_t va, uint32_t payload,
                          uint32_t v, uint64_t ts, const cg_agent *ag)
{
    unsigned report = NV_VAL(NVB197, SET_REPORT_SEMAPHORE_D, REPORT, v);
    bool one_word = NV_VAL(NVB197, SET_REPORT_SEMAPHORE_D, STRUCTURE_SIZE, v);
    if (o->class_id != CG_NV_CLASS_3D)
        return nv_fault(ch, ag, CG_FAULT_UNSUPPORTED, va,
                        "SET_REPORT_SEMAPHORE_D: MAXWELL_COMPUTE_B report counters not "
                        "supported yet");
    nv3d_state *s = nv3d_state_get(ch);
    if (!s)
        return nv_fault(ch, ag, CG_FAULT_OUT_OF_MEMORY, va, "no host memory for 3D state");
    uint64_t c = s->counters[report];
    uint32_t rec[4];
    /* Layouts, Mesa nvc0_query_hw.c: the pixel count is "u32 sequence,
     * u32 count, u64 time", the other statistics "u64 count, u64 time";
     * REPORT NONE (Mesa's timestamp query) has the release layout */
    if (report == REP_NONE || report == REP_ZPASS_PIXEL_CNT) {
        rec[0] = payload;
        rec[1] = (uint32_t)c;
    } else {
        rec[0] = (uint32_t)c;
        rec[1] = (uint32_t)(c >> 32);
    }
    rec[2] = (uint32_t)ts;
    rec[3] = (uint32_t)(ts >> 32);
    if (one_word)
        rec[0] = (uint32_t)c;
    if (report_write(ch, va, rec, one_word ? 1 : 4, ag) != 0)
        return CG_ERR_FAULT;
    nv_trace_event(ch, CG_TRACE_FENCE, ag->unit, NVB197_SET_REPORT_SEMAPHORE_D, c, va,
                   one_word ? 4 : 16, "report counter");
    return 0;
}

/* SET_REPORT_SEMAPHORE_D (B197 0x1B0C; B1C0 has the same A..D at the same
 * offsets). Fields (clb197.h): OPERATION 1:0, FLUSH_DISABLE 2,
 * REDUCTION_ENABLE 3, RELEASE 4, SUB_REPORT 7:5, ACQUIRE 8, REDUCTION_OP
 * 11:9, PIPELINE_LOCATION 15:12, COMPARISON 16, REDUCTION_FORMAT 18:17,
 * AWAKEN_ENABLE 20, REPORT_DWORD_NUMBER 21, REPORT 27:23, STRUCTURE_SIZE 28
 * (1 = one word). The 64-bit timestamp of the four-word structures is
 * gpu->time, the methods the GPU has executed (cg_nv_gpu_time). */
int nv3d_report_semaphore(cg_nv_channel *ch, nv_obj *o, uint32_t v, const cg_agent *ag)
{
    uint64_t va = nv_addr40(reg(o, NVB197_SET_REPORT_SEMAPHORE_A),
                         reg(o, NVB197_SET_REPORT_SEMAPHORE_B));
    uint32_t payload = reg(o, NVB197_SET_REPORT_SEMAPHORE_C);
    unsigned op = NV_VAL(NVB197, SET_REPORT_SEMAPHORE_D, OPERATION, v);
    bool one_word = NV_VAL(NVB197, SET_REPORT_SEMAPHORE_D, STRUCTURE_SIZE, v);
    uint64_t ts = ch->gpu->time;
    /* one word is a 32-bit semaphore; the four-word structure holds a 64-bit
     * timestamp: the model asks for natural alignment of each */
    unsigned align = (op == NVB197_SET_REPORT_SEMAPHORE_D_OPERATION_ACQUIRE || one_word) ? 4 : 16;
    if (va & (align - 1))
        return nv_fault(ch, ag, CG_FAULT_BAD_ALIGN, va,
                        "SET_REPORT_SEMAPHORE_D: address 0x%010llx is not %u-byte aligned",
                        (unsigned long long)va, align);
    if (NV_VAL(NVB197, SET_REPORT_SEMAPHORE_D, AWAKEN_ENABLE, v))
        nv_trace_event(ch, CG_TRACE_INTERRUPT, ag->unit, NVB197_SET_REPORT_SEMAPHORE_D, v, va, 0,
                       "report semaphore awaken");
    switch (op) {
    case NVB197_SET_REPORT_SEMAPHORE_D_OPERATION_RELEASE:
        return report_release(ch, va, payload, v, ts, ag);
    case NVB197_SET_REPORT_SEMAPHORE_D_OPERATION_ACQUIRE:
        report_acquire(ch, va, payload, v, ag);
        return 0;
    case NVB197_SET_REPORT_SEMAPHORE_D_OPERATION_REPORT_ONLY:
        return report_counter(ch, o, va, payload, v, ts, ag);
    default:
        return nv_fault(ch, ag, CG_FAULT_TRAP, va,
                        "SET_REPORT_SEMAPHORE_D: OPERATION TRAP (payload 0x%08x)", payload);
    }
}

/* ---- clears ----------------------------------------------------------------
 *
 * CLEAR_SURFACE (0x19D0): Z 0, STENCIL 1, R/G/B/A 2..5, MRT_SELECT 9:6,
 * RT_ARRAY_INDEX 25:10 (clb197.h). MRT_SELECT names the colour target
 * register set directly, not through SET_CT_SELECT: deko3d's ClearColor
 * macro (clear_buffers.mme) reads RenderTarget[TargetId].ArrayMode with the
 * same field, and Mesa nvc0_clear clears colour buffer i with i << 6 after
 * programming RT i. One clear writes one layer: RT_ARRAY_INDEX counts from
 * SET_COLOR_TARGET_LAYER / SET_ZT_LAYER, and Mesa loops over the layers with
 * one CLEAR_SURFACE each (nvc0_clear_render_target). Layers at or past the
 * target's THIRD_DIMENSION (a count Mesa writes as first_layer + depth) are
 * not written; a count of 0 is read as 1.
 *
 * The rectangle: the target size, SET_SURFACE_CLIP (Mesa's
 * SCREEN_SCISSOR_HORIZ/VERT, which nvc0_clear_render_target sets to the
 * cleared rectangle and nvc0_clear restores to the framebuffer size), and
 * under SET_CLEAR_SURFACE_CONTROL: USE_SCISSOR0 with SET_SCISSOR_ENABLE(0),
 * USE_CLEAR_RECT (SET_CLEAR_RECT_*), USE_VIEWPORT_CLIP0 (yuzu
 * rasterizer_opengl.cpp Clear honours clear_control.use_scissor; NVK
 * nvk_CmdClearAttachments clears through USE_CLEAR_RECT). Maxima are
 * exclusive. SET_CT_WRITE masks do not apply ("COLOR_MASK doesn't affect
 * CLEAR_BUFFERS", Mesa nvc0_clear). */

/* One surface layer being cleared. */
typedef struct clr_surf {
    uint64_t base;     /* the layer's first byte (3-D targets: the volume's) */
    bool pitch;
    uint32_t pitch_bytes;
    nv_bl bl;
    uint32_t z;        /* depth slice of a 3-D block-linear target */
    unsigned bpp;
    uint8_t val[16], mask[16]; /* one pixel: the bits to write, which bits */
    bool full;         /* every bit written: no read needed */
} clr_surf;

#define CLR_CHUNK 4096 /* bytes per memory access; a multiple of every bpp */

/* Write the pixel pattern over n bytes at va (pixel-aligned). */
static int clr_span(cg_nv_channel *ch, const clr_surf *s, uint64_t va, size_t n,
                    const uint8_t *pat, const uint8_t *msk, const cg_agent *ag)
{
    uint8_t buf[CLR_CHUNK];
    while (n) {
        size_t k = n < CLR_CHUNK ? n : CLR_CHUNK;
        if (s->full) {
            memcpy(buf, pat, k);
        } else {
            if (nv_mem_rw(ch->vas, va, buf, k, false, ag) != 0)
                return CG_ERR_FAULT;
            for (size_t i = 0; i < k; i++)
                buf[i] = (uint8_t)((buf[i] & ~msk[i]) | (pat[i] & msk[i]));
        }
        if (nv_mem_rw(ch->vas, va, buf, k, true, ag) != 0)
            return CG_ERR_FAULT;
        va += k;
        n -= k;
    }
    return 0;
}

/* Fill [x0, x1) x [y0, y1) of the surface, row by row: pitch rows in one
 * span, block-linear rows in the 16-byte runs the GOB keeps contiguous. */
static int clr_rect(cg_nv_channel *ch, const clr_surf *s, uint32_t x0, uint32_t x1, uint32_t y0,
                    uint32_t y1, const cg_agent *ag)
{
    static_assert(CLR_CHUNK % 16 == 0, "the pattern repeats whole pixels");
    uint8_t pat[CLR_CHUNK], msk[CLR_CHUNK];
    for (size_t i = 0; i < CLR_CHUNK; i++) {
        pat[i] = s->val[i % s->bpp];
        msk[i] = s->mask[i % s->bpp];
    }
    uint64_t xb0 = (uint64_t)x0 * s->bpp, xb1 = (uint64_t)x1 * s->bpp;
    for (uint32_t y = y0; y < y1; y++) {
        if (s->pitch) {
            uint64_t va = s->base + (uint64_t)y * s->pitch_bytes + xb0;
            if (clr_span(ch, s, va, (size_t)(xb1 - xb0), pat, msk, ag) != 0)
                return CG_ERR_FAULT;
            continue;
        }
        for (uint64_t xb = xb0; xb < xb1;) {
            uint64_t end = (xb & ~(uint64_t)15) + 16;
            if (end > xb1)
                end = xb1;
            uint64_t va = s->base + nv_bl_offset(&s->bl, (uint32_t)xb, y, s->z);
            if (clr_span(ch, s, va, (size_t)(end - xb), pat, msk, ag) != 0)
                return CG_ERR_FAULT;
            xb = end;
        }
    }
    return 0;
}

typedef struct clr_rectangle {
    uint32_t x0, x1, y0, y1;
} clr_rectangle;

static void clip_to(clr_rectangle *r, uint64_t x0, uint64_t x1, uint64_t y0, uint64_t y1)
{
    if (x0 > r->x0) r->x0 = (uint32_t)x0;
    if (x1 < r->x1) r->x1 = (uint32_t)x1;
    if (y0 > r->y0) r->y0 = (uint32_t)y0;
    if (y1 < r->y1) r->y1 = (uint32_t)y1;
}

/* The clear rectangle of a w x h target (see the block comment above). */
static clr_rectangle clear_rect(const nv_obj *o, uint32_t w, uint32_t h)
{
    clr_rectangle r = {0, w, 0, h};
    uint32_t sh = reg(o, NVB197_SET_SURFACE_CLIP_HORIZONTAL);
    uint32_t sv = reg(o, NVB197_SET_SURFACE_CLIP_VERTICAL);
    uint32_t sx = NV_VAL(NVB197, SET_SURFACE_CLIP_HORIZONTAL, X, sh);
    uint32_t sy = NV_VAL(NVB197, SET_SURFACE_CLIP_VERTICAL, Y, sv);
    clip_to(&r, sx, (uint64_t)sx + NV_VAL(NVB197, SET_SURFACE_CLIP_HORIZONTAL, WIDTH, sh), sy,
            (uint64_t)sy + NV_VAL(NVB197, SET_SURFACE_CLIP_VERTICAL, HEIGHT, sv));
    uint32_t ctl = reg(o, NVB197_SET_CLEAR_SURFACE_CONTROL);
    if (NV_VAL(NVB197, SET_CLEAR_SURFACE_CONTROL, USE_SCISSOR0, ctl) &&
        NV_VAL(NVB197, SET_SCISSOR_ENABLE, V, reg(o, NVB197_SET_SCISSOR_ENABLE))) {
        uint32_t hz = reg(o, NVB197_SET_SCISSOR_HORIZONTAL);
        uint32_t vt = reg(o, NVB197_SET_SCISSOR_VERTICAL);
        clip_to(&r, NV_VAL(NVB197, SET_SCISSOR_HORIZONTAL, XMIN, hz),
                NV_VAL(NVB197, SET_SCISSOR_HORIZONTAL, XMAX, hz),
                NV_VAL(NVB197, SET_SCISSOR_VERTICAL, YMIN, vt),
                NV_VAL(NVB197, SET_SCISSOR_VERTICAL, YMAX, vt));
    }
    if (NV_VAL(NVB197, SET_CLEAR_SURFACE_CONTROL, USE_CLEAR_RECT, ctl)) {
        uint32_t hz = reg(o, NVB197_SET_CLEAR_RECT_HORIZONTAL);
        uint32_t vt = reg(o, NVB197_SET_CLEAR_RECT_VERTICAL);
        clip_to(&r, NV_VAL(NVB197, SET_CLEAR_RECT_HORIZONTAL, XMIN, hz),
                NV_VAL(NVB197, SET_CLEAR_RECT_HORIZONTAL, XMAX, hz),
                NV_VAL(NVB197, SET_CLEAR_RECT_VERTICAL, YMIN, vt),
                NV_VAL(NVB197, SET_CLEAR_RECT_VERTICAL, YMAX, vt));
    }
    if (NV_VAL(NVB197, SET_CLEAR_SURFACE_CONTROL, USE_VIEWPORT_CLIP0, ctl)) {
        uint32_t hz = reg(o, NVB197_SET_VIEWPORT_CLIP_HORIZONTAL);
        uint32_t vt = reg(o, NVB197_SET_VIEWPORT_CLIP_VERTICAL);
        uint32_t x0 = NV_VAL(NVB197, SET_VIEWPORT_CLIP_HORIZONTAL, X0, hz);
        uint32_t y0 = NV_VAL(NVB197, SET_VIEWPORT_CLIP_VERTICAL, Y0, vt);
        clip_to(&r, x0, (uint64_t)x0 + NV_VAL(NVB197, SET_VIEWPORT_CLIP_HORIZONTAL, WIDTH, hz), y0,
                (uint64_t)y0 + NV_VAL(NVB197, SET_VIEWPORT_CLIP_VERTICAL, HEIGHT, vt));
    }
    if (r.x0 >= r.x1 || r.y0 >= r.y1)
        r.x0 = r.x1 = r.y0 = r.y1 = 0;
    return r;
}

/* clr_layout reads a colour target's MEMORY word or the zeta's BLOCK_SIZE
 * word with the colour target's block fields. */
NV_SAME_FIELD(NVB197, SET_COLOR_TARGET_MEMORY, BLOCK_WIDTH, SET_ZT_BLOCK_SIZE, WIDTH);
NV_SAME_FIELD(NVB197, SET_COLOR_TARGET_MEMORY, BLOCK_HEIGHT, SET_ZT_BLOCK_SIZE, HEIGHT);
NV_SAME_FIELD(NVB197, SET_COLOR_TARGET_MEMORY, BLOCK_DEPTH, SET_ZT_BLOCK_SIZE, DEPTH);

/* Layout of one layer: block sizes checked, the layer's base address.
 * third: layer count or depth; depth3d: THIRD_DIMENSION is a depth. */
static int clr_layout(cg_nv_channel *ch, clr_surf *s, const char *what, uint64_t addr,
                      uint32_t mem, bool pitch, uint32_t width_px, uint32_t height,
                      uint32_t pitch_bytes, uint32_t layer, uint32_t third, bool depth3d,
                      uint64_t array_pitch, const cg_agent *ag)
{
    s->pitch = pitch;
    s->pitch_bytes = pitch_bytes;
    s->z = 0;
    s->base = addr;
    if (pitch) {
        if (depth3d)
            return nv_fault(ch, ag, CG_FAULT_UNSUPPORTED, addr,
                            "CLEAR_SURFACE: %s is a pitch 3-D target, not supported yet", what);
        s->base = addr + (uint64_t)layer * array_pitch;
        return 0;
    }
    unsigned bw = NV_VAL(NVB197, SET_COLOR_TARGET_MEMORY, BLOCK_WIDTH, mem);
    unsigned bh = NV_VAL(NVB197, SET_COLOR_TARGET_MEMORY, BLOCK_HEIGHT, mem);
    unsigned bd = NV_VAL(NVB197, SET_COLOR_TARGET_MEMORY, BLOCK_DEPTH, mem);
    if (bw != NVB197_SET_COLOR_TARGET_MEMORY_BLOCK_WIDTH_ONE_GOB)
        return nv_fault(ch, ag, CG_FAULT_UNSUPPORTED, addr,
                        "CLEAR_SURFACE: %s block width %u GOBs not supported yet", what,
                        1u << bw);
    if (bh > 5 || bd > 5)
        return nv_fault(ch, ag, CG_FAULT_BAD_STATE, addr,
                        "CLEAR_SURFACE: %s block height/depth 0x%x: at most 5 (32 GOBs)",
                        what,
                        mem & (NV_MASK(NVB197, SET_COLOR_TARGET_MEMORY, BLOCK_HEIGHT) |
                               NV_MASK(NVB197, SET_COLOR_TARGET_MEMORY, BLOCK_DEPTH)));
    /* WIDTH is 28 bits and a pixel at most 16 bytes: the row fits 32 bits */
    s->bl.width = width_px * s->bpp;
    s->bl.height = height;
    s->bl.bh = bh;
    if (depth3d) {
        s->bl.bd = bd;
        s->bl.depth = third;
        s->z = layer;
    } else {
        s->bl.bd = 0;
        s->bl.depth = 1;
        s->base = addr + (uint64_t)layer * array_pitch;
    }
    return 0;
}

/* Budget, trace and write of one target's rectangle. */
static int clr_run(cg_nv_channel *ch, const clr_surf *s, const clr_rectangle *r,
                   const char *what, uint32_t v, const cg_agent *ag)
{
    uint64_t bytes = (uint64_t)(r->x1 - r->x0) * (r->y1 - r->y0) * s->bpp;
    if (bytes > ch->gpu->op_limit)
        return nv_fault(ch, ag, CG_FAULT_HANG, s->base,
                        "budget %s: CLEAR_SURFACE: %s: %llu bytes is over the limit of %llu",
                        cg_budget_name(CG_BUDGET_NV_OP_BYTES), what, (unsigned long long)bytes,
                        (unsigned long long)ch->gpu->op_limit);
    if (bytes == 0) {
        nv_trace_event(ch, CG_TRACE_NOTE, "3d", NVB197_CLEAR_SURFACE, v, s->base, 0,
                       "clear: empty rectangle, nothing written");
        return 0;
    }
    if (clr_rect(ch, s, r->x0, r->x1, r->y0, r->y1, ag) != 0) {
        ch->state = CG_NV_CH_FAULTED;
        return CG_ERR_FAULT;
    }
    nv_trace_event(ch, CG_TRACE_MEM_WRITE, "3d", NVB197_CLEAR_SURFACE, v, s->base, bytes, what);
    return 0;
}

/* CLEAR_SURFACE R/G/B/A_ENABLE are four adjacent bits: channel c is R_ENABLE
 * of the word shifted right by c. */
_Static_assert(NV_MASK(NVB197, CLEAR_SURFACE, G_ENABLE) == NV_MASK(NVB197, CLEAR_SURFACE, R_ENABLE) << 1 &&
               NV_MASK(NVB197, CLEAR_SURFACE, B_ENABLE) == NV_MASK(NVB197, CLEAR_SURFACE, R_ENABLE) << 2 &&
               NV_MASK(NVB197, CLEAR_SURFACE, A_ENABLE) == NV_MASK(NVB197, CLEAR_SURFACE, R_ENABLE) << 3,
               "CLEAR_SURFACE R, G, B, A_ENABLE are adjacent bits");
#define CLEAR_ZETA_BITS (NV_MASK(NVB197, CLEAR_SURFACE, Z_ENABLE) | \
                         NV_MASK(NVB197, CLEAR_SURFACE, STENCIL_ENABLE))
#define CLEAR_COLOR_BITS (NV_MASK(NVB197, CLEAR_SURFACE, R_ENABLE) | \
                          NV_MASK(NVB197, CLEAR_SURFACE, G_ENABLE) | \
                          NV_MASK(NVB197, CLEAR_SURFACE, B_ENABLE) | \
                          NV_MASK(NVB197, CLEAR_SURFACE, A_ENABLE))

static int clear_color(cg_nv_channel *ch, nv_obj *o, uint32_t v, const cg_agent *ag)
{
    unsigned i = NV_VAL(NVB197, CLEAR_SURFACE, MRT_SELECT, v);
    if (i >= CG_NV_MAX_TARGETS)
        return nv_fault(ch, ag, CG_FAULT_BAD_STATE, 0,
                        "CLEAR_SURFACE: MRT_SELECT %u, there are 8 colour targets", i);
    cg_nv_rt_state rt;
    nv3d_rt_state(o, i, &rt);
    char what[40];
    snprintf(what, sizeof(what), "color target %u", i);
    if (rt.format == 0) { /* DISABLED */
        nv_trace_event(ch, CG_TRACE_NOTE, "3d", NVB197_CLEAR_SURFACE, v, rt.addr, 0,
                       "clear: colour target disabled (FORMAT 0), nothing written");
        return 0;
    }
    const nv3d_ct_format *f = nv3d_ct_format_find(rt.format);
    if (!f)
        return nv_fault(ch, ag, CG_FAULT_UNSUPPORTED, rt.addr,
                        "CLEAR_SURFACE: %s format 0x%02x not supported yet", what, rt.format);
    clr_surf s;
    memset(&s, 0, sizeof(s));
    s.bpp = f->bytes;
    /* pitch targets: WIDTH is the pitch in bytes (Mesa nvc0_surface.c writes
     * level[0].pitch there with TILE_MODE LINEAR) */
    uint32_t width_px = rt.pitch ? rt.width / f->bytes : rt.width;
    if (width_px == 0 || rt.height == 0)
        return nv_fault(ch, ag, CG_FAULT_BAD_STATE, rt.addr,
                        "CLEAR_SURFACE: %s has zero size (%u x %u%s)", what, rt.width, rt.height,
                        rt.pitch ? ", width is the pitch in bytes" : "");
    uint32_t b = 64 * i;
    uint32_t third = NV_VAL(NVB197, SET_COLOR_TARGET_THIRD_DIMENSION, V,
                            reg(o, NVB197_SET_COLOR_TARGET_THIRD_DIMENSION + b));
    uint32_t layer = NV_VAL(NVB197, SET_COLOR_TARGET_LAYER, OFFSET,
                            reg(o, NVB197_SET_COLOR_TARGET_LAYER + b)) +
                     NV_VAL(NVB197, CLEAR_SURFACE, RT_ARRAY_INDEX, v);
    if (layer >= (third ? third : 1)) {
        nv_trace_event(ch, CG_TRACE_NOTE, "3d", NVB197_CLEAR_SURFACE, v, rt.addr, 0,
                       "clear: layer past THIRD_DIMENSION, nothing written");
        return 0;
    }
    uint64_t array_pitch = 4ull * reg(o, NVB197_SET_COLOR_TARGET_ARRAY_PITCH + b);
    if (clr_layout(ch, &s, what, rt.addr, rt.memory, rt.pitch, width_px, rt.height, rt.width,
                   layer, third,
                   NV_VAL(NVB197, SET_COLOR_TARGET_MEMORY, THIRD_DIMENSION_CONTROL, rt.memory),
                   array_pitch, ag) != 0)
        return CG_ERR_FAULT;
    const uint32_t *cc = &o->regs[NVB197_SET_COLOR_CLEAR_VALUE >> 2];
    for (unsigned c = 0; c < 4; c++) {
        if (!f->bits[c] || !NV_VAL(NVB197, CLEAR_SURFACE, R_ENABLE, v >> c))
            continue;
        nv_set_bits(s.val, f->off[c], f->bits[c], nv3d_chan_value(f->type, f->bits[c], cc[c]));
        nv_set_bits(s.mask, f->off[c], f->bits[c], ~0ull);
    }
    s.full = true;
    for (unsigned k = 0; k < s.bpp; k++)
        s.full &= s.mask[k] == 0xFF;
    clr_rectangle r = clear_rect(o, width_px, rt.height);
    return clr_run(ch, &s, &r, what, v, ag);
}

static int clear_zeta(cg_nv_channel *ch, nv_obj *o, uint32_t v, const cg_agent *ag)
{
    cg_nv_rt_state zt;
    bool enabled;
    nv3d_zeta_state(o, &zt, &enabled);
    if (!enabled) {
        nv_trace_event(ch, CG_TRACE_NOTE, "3d", NVB197_CLEAR_SURFACE, v, zt.addr, 0,
                       "clear: zeta disabled (SET_ZT_SELECT 0), nothing written");
        return 0;
    }
    const nv3d_zt_format *f = nv3d_zt_format_find(zt.format);
    if (!f)
        return nv_fault(ch, ag, CG_FAULT_UNSUPPORTED, zt.addr,
                        "CLEAR_SURFACE: zeta format 0x%02x not supported yet", zt.format);
    bool z = NV_VAL(NVB197, CLEAR_SURFACE, Z_ENABLE, v);
    bool st = NV_VAL(NVB197, CLEAR_SURFACE, STENCIL_ENABLE, v);
    if (st && NV_VAL(NVB197, SET_CLEAR_SURFACE_CONTROL, RESPECT_STENCIL_MASK,
                     reg(o, NVB197_SET_CLEAR_SURFACE_CONTROL)))
        return nv_fault(ch, ag, CG_FAULT_UNSUPPORTED, zt.addr,
                        "CLEAR_SURFACE: stencil clear with RESPECT_STENCIL_MASK not supported "
                        "yet");
    if (zt.width == 0 || zt.height == 0)
        return nv_fault(ch, ag, CG_FAULT_BAD_STATE, zt.addr,
                        "CLEAR_SURFACE: zeta has zero size (%u x %u)", zt.width, zt.height);
    uint32_t sc = reg(o, NVB197_SET_ZT_SIZE_C);
    /* CONTROL ARRAY_SIZE_IS_ONE (bit 16): one layer whatever THIRD_DIMENSION says */
    uint32_t third = NV_VAL(NVB197, SET_ZT_SIZE_C, CONTROL, sc)
                         ? 1
                         : NV_VAL(NVB197, SET_ZT_SIZE_C, THIRD_DIMENSION, sc);
    uint32_t layer = NV_VAL(NVB197, SET_ZT_LAYER, OFFSET, reg(o, NVB197_SET_ZT_LAYER)) +
                     NV_VAL(NVB197, CLEAR_SURFACE, RT_ARRAY_INDEX, v);
    if (layer >= (third ? third : 1)) {
        nv_trace_event(ch, CG_TRACE_NOTE, "3d", NVB197_CLEAR_SURFACE, v, zt.addr, 0,
                       "clear: layer past the zeta THIRD_DIMENSION, nothing written");
        return 0;
    }
    clr_surf s;
    memset(&s, 0, sizeof(s));
    s.bpp = f->bytes;
    uint64_t array_pitch = 4ull * reg(o, NVB197_SET_ZT_ARRAY_PITCH);
    if (clr_layout(ch, &s, "zeta", zt.addr, zt.memory, false, zt.width, zt.height, 0, layer,
                   third, false, array_pitch, ag) != 0)
        return CG_ERR_FAULT;
    if (z && f->zbits) {
        uint32_t d = reg(o, NVB197_SET_Z_CLEAR_VALUE);
        nv_set_bits(s.val, f->zoff, f->zbits, nv3d_chan_value(f->ztype, f->zbits, d));
        nv_set_bits(s.mask, f->zoff, f->zbits, ~0ull);
    }
    if (st && f->sbits) {
        nv_set_bits(s.val, f->soff, f->sbits,
                 NV_VAL(NVB197, SET_STENCIL_CLEAR_VALUE, V, reg(o, NVB197_SET_STENCIL_CLEAR_VALUE)));
        nv_set_bits(s.mask, f->soff, f->sbits, ~0ull);
    }
    s.full = true;
    for (unsigned k = 0; k < s.bpp; k++)
        s.full &= s.mask[k] == 0xFF;
    clr_rectangle r = clear_rect(o, zt.width, zt.height);
    return clr_run(ch, &s, &r, "zeta", v, ag);
}

static int clear_surface(cg_nv_channel *ch, nv_obj *o, uint32_t v, const cg_agent *ag)
{
    if ((v & CLEAR_ZETA_BITS) && clear_zeta(ch, o, v, ag) != 0)
        return CG_ERR_FAULT;
    if ((v & CLEAR_COLOR_BITS) && clear_color(ch, o, v, ag) != 0)
        return CG_ERR_FAULT;
    return 0;
}

/* ---- dispatch ------------------------------------------------------------- */

static int act_report(cg_nv_channel *ch, nv_obj *o, uint32_t m, uint32_t v, const cg_agent *ag)
{
    (void)m;
    return nv3d_report_semaphore(ch, o, v, ag);
}

static int act_clear(cg_nv_channel *ch, nv_obj *o, uint32_t m, uint32_t v, const cg_agent *ag)
{
    (void)m;
    return clear_surface(ch, o, v, ag);
}

static int act_clear_report(cg_nv_channel *ch, nv_obj *o, uint32_t m, uint32_t v,
                            const cg_agent *ag)
{
    (void)o, (void)m;
    nv3d_state *s = nv3d_state_get(ch);
    if (!s)
        return nv_fault(ch, ag, CG_FAULT_OUT_OF_MEMORY, 0, "no host memory for 3D state");
    return clear_report_value(ch, s, v, ag);
}

static int act_cb_bind(cg_nv_channel *ch, nv_obj *o, uint32_t m, uint32_t v, const cg_agent *ag)
{
    nv3d_state *s = nv3d_state_get(ch);
    if (!s)
        return nv_fault(ch, ag, CG_FAULT_OUT_OF_MEMORY, 0, "no host memory for 3D state");
    return cb_bind(ch, o, s, m, v, ag);
}

/* The 3D actions by number (threed_b197.def ACTION column). */
static int (*const handlers[NV_ACT_COUNT])(cg_nv_channel *, nv_obj *, uint32_t, uint32_t,
                                           const cg_agent *) = {
    [NV_ACT_REPORT] = act_report,
    [NV_ACT_CLEAR] = act_clear,
    [NV_ACT_CLEAR_REPORT] = act_clear_report,
    [NV_ACT_CB_BIND] = act_cb_bind,
    [NV_ACT_BEGIN] = nv3d_draw_begin,
    [NV_ACT_END] = nv3d_draw_end,
    [NV_ACT_DRAW] = nv3d_draw,
    [NV_ACT_DRAW_BEGIN_END] = nv3d_draw_begin_end,
};

int nv3d_method(cg_nv_channel *ch, nv_obj *o, nv_mact act, uint32_t m, uint32_t v,
                const cg_agent *ag)
{
    if (act >= NV_ACT_COUNT || !handlers[act])
        return 0;
    return handlers[act](ch, o, m, v, ag);
}
