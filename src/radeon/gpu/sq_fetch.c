/* radeon family: the R600/R700 shader core's fetch clauses
 * (docs/radeon-sq.md): VTX clauses read vertex buffer resources through the
 * fetch unit's callback and convert their formats here; TEX clauses go to
 * the texture unit's callback (none yet: a fault says so).
 *
 * Semantics: [R6ISA]/[R7ISA] chapter 5 (vertex fetch: VTX_WORD0..2, the
 * index from SRC_GPR.SRC_SEL_X times the resource's stride plus OFFSET, the
 * data/number formats, ENDIAN_SWAP, DST_SEL) and chapter 6 (texture
 * instructions); [MESA] r600_formats.h for the FMT_* numbers. */
#include <inttypes.h>
#include <math.h>
#include <string.h>
#include "radeon/gpu/sq.h"

typedef struct vfmt {
    uint8_t fmt, ncomp, bits; /* components of `bits` bits each, x first */
    bool flt;
} vfmt;

/* The formats decoded: whole-byte components, x in the lowest address. */
static const vfmt vfmts[] = {
    {0x01, 1, 8, false},  /* FMT_8 */
    {0x05, 1, 16, false}, /* FMT_16 */
    {0x06, 1, 16, true},  /* FMT_16_FLOAT */
    {0x07, 2, 8, false},  /* FMT_8_8 */
    {0x0D, 1, 32, false}, /* FMT_32 */
    {0x0E, 1, 32, true},  /* FMT_32_FLOAT */
    {0x0F, 2, 16, false}, /* FMT_16_16 */
    {0x10, 2, 16, true},  /* FMT_16_16_FLOAT */
    {0x1A, 4, 8, false},  /* FMT_8_8_8_8 */
    {0x1D, 2, 32, false}, /* FMT_32_32 */
    {0x1E, 2, 32, true},  /* FMT_32_32_FLOAT */
    {0x1F, 4, 16, false}, /* FMT_16_16_16_16 */
    {0x20, 4, 16, true},  /* FMT_16_16_16_16_FLOAT */
    {0x22, 4, 32, false}, /* FMT_32_32_32_32 */
    {0x23, 4, 32, true},  /* FMT_32_32_32_32_FLOAT */
    {0x2C, 3, 8, false},  /* FMT_8_8_8 */
    {0x2D, 3, 16, false}, /* FMT_16_16_16 */
    {0x2E, 3, 16, true},  /* FMT_16_16_16_FLOAT */
    {0x2F, 3, 32, false}, /* FMT_32_32_32 */
    {0x30, 3, 32, true},  /* FMT_32_32_32_FLOAT */
};

static const vfmt *find_fmt(uint32_t f)
{
    for (size_t i = 0; i < sizeof vfmts / sizeof vfmts[0]; i++)
        if (vfmts[i].fmt == f)
            return &vfmts[i];
    return NULL;
}

static uint32_t f32u(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

static float half_to_float(uint16_t h)
{
    int e = (h >> 10) & 31, m = h & 1023;
    float v = e == 0 ? ldexpf((float)m, -24) : e == 31 ? (m ? NAN : INFINITY)
                                                       : ldexpf((float)(m | 1024), e - 25);
    return (h & 0x8000) ? -v : v;
}

/* One component to a 32-bit value: NUM_FORMAT_ALL 0 normalised, 1 integer,
 * 2 scaled (an integer as float); FORMAT_COMP_ALL signed. */
static uint32_t convert(const vfmt *f, uint32_t raw, uint32_t num, bool sgn)
{
    if (f->flt)
        return f->bits == 16 ? f32u(half_to_float((uint16_t)raw)) : raw;
    unsigned n = f->bits;
    int64_t sv = sgn && n < 32 && (raw >> (n - 1)) & 1 ? (int64_t)raw - (1ll << n)
                 : sgn && n == 32                       ? (int64_t)(int32_t)raw
                                                        : (int64_t)raw;
    if (num == 1)
        return (uint32_t)sv;
    if (num == 2)
        return f32u((float)sv);
    /* normalised: unsigned x / (2^n - 1); signed max(x / (2^(n-1) - 1), -1) */
    double d = sgn ? (double)sv / (double)((1ull << (n - 1)) - 1) : (double)sv / (double)((1ull << n) - 1);
    return f32u((float)(d < -1.0 ? -1.0 : d));
}

/* ENDIAN_SWAP 1 8IN16, 2 8IN32, 3 8IN64: the bytes of each 2, 4, 8-byte unit reversed. */
static void swap_bytes(uint8_t *b, unsigned n, unsigned unit)
{
    for (unsigned i = 0; i + unit <= n; i += unit)
        for (unsigned j = 0; j < unit / 2; j++) {
            uint8_t t = b[i + j];
            b[i + j] = b[i + unit - 1 - j];
            b[i + unit - 1 - j] = t;
        }
}

#define G(f) r6_get(c, w, R6F_##f)

static int vfetch(rd_sq *s, const r6_op *op, size_t dw, const uint32_t *w)
{
    r6_chip c = s->env->chip;
    if (op->kind != R6K_VFETCH)
        return rd_sq_fault(s, CG_FAULT_UNSUPPORTED, dw, 4, "%s at dword %zu is not supported yet",
                           op->name, dw);
    if (G(VTX_W1_USE_CONST_FIELDS) || G(VTX_W0_SRC_REL) || G(VTX_GPR_DST_REL) ||
        G(VTX_W2_CONST_BUF_NO_STRIDE) || G(VTX_W2_ALT_CONST))
        return rd_sq_fault(s, CG_FAULT_UNSUPPORTED, dw, 4,
                           "VFETCH at dword %zu: USE_CONST_FIELDS, relative GPRs, NO_STRIDE and "
                           "ALT_CONST are not supported yet",
                           dw);
    uint32_t fmtn = G(VTX_W1_DATA_FORMAT), num = G(VTX_W1_NUM_FORMAT_ALL);
    const vfmt *f = find_fmt(fmtn);
    const char *fname = r6_enum_token(R6F_VTX_W1_DATA_FORMAT, fmtn);
    if (!f)
        return rd_sq_fault(s, CG_FAULT_UNSUPPORTED, dw, 4,
                           "VFETCH at dword %zu: vertex format %s (%u) is not supported yet", dw,
                           fname ? fname : "undefined", fmtn);
    if (num == 3)
        return rd_sq_fault(s, CG_FAULT_INVALID_OPCODE, dw, 4,
                           "VFETCH at dword %zu: NUM_FORMAT_ALL 3 is reserved", dw);
    uint32_t src = G(VTX_W0_SRC_GPR), dst = G(VTX_GPR_DST_GPR), sx = G(VTX_W0_SRC_SEL_X);
    if (src >= s->ngpr || dst >= s->ngpr)
        return rd_sq_fault(s, CG_FAULT_BAD_STATE, dw, 4,
                           "VFETCH at dword %zu: R%u is past the %u GPRs allocated", dw,
                           src >= s->ngpr ? src : dst, s->ngpr);
    uint32_t sel[4] = {G(VTX_W1_DST_SEL_X), G(VTX_W1_DST_SEL_Y), G(VTX_W1_DST_SEL_Z),
                       G(VTX_W1_DST_SEL_W)};
    unsigned id = G(VTX_W0_BUFFER_ID);
    rd_sq_vbuf vb;
    if (!s->env->fetch.vtx_resource || s->env->fetch.vtx_resource(s->env->fetch.ctx, id, &vb))
        return rd_sq_fault(s, CG_FAULT_BAD_STATE, dw, 4,
                           "VFETCH at dword %zu: no vertex buffer resource %u", dw, id);
    unsigned size = f->ncomp * f->bits / 8, es = G(VTX_W2_ENDIAN_SWAP);
    unsigned unit = es ? 1u << es : 1;
    if (es && size % unit)
        return rd_sq_fault(s, CG_FAULT_BAD_STATE, dw, 4,
                           "VFETCH at dword %zu: %s (%u bytes) is not a whole number of %u-byte "
                           "swap units",
                           dw, fname, size, unit);
    uint64_t off = G(VTX_W2_OFFSET);
    for (unsigned l = 0; l < RD_SQ_LANES; l++) {
        if (!((s->active >> l) & 1))
            continue;
        uint32_t index = s->w->gpr[src][sx][l];
        uint64_t at = (uint64_t)index * vb.stride + off;
        if (!vb.data || at + size > vb.size || at + size < at)
            return rd_sq_fault(s, CG_FAULT_BAD_LENGTH, dw, 4,
                               "VFETCH at dword %zu: lane %u reads bytes %" PRIu64 "..%" PRIu64
                               " of vertex buffer %u (0x%" PRIx64 "), which has %" PRIu64,
                               dw, l, at, at + size - 1, id, vb.gpu_addr, vb.size);
        uint8_t b[16];
        memcpy(b, vb.data + at, size);
        if (es)
            swap_bytes(b, size, unit);
        /* components the format lacks: 0, and w 1 (integer 1 for NUM_INT) */
        uint32_t comp[4] = {0, 0, 0, num == 1 && !f->flt ? 1u : 0x3F800000u};
        for (unsigned k = 0; k < f->ncomp; k++) {
            uint32_t raw = 0;
            for (unsigned j = 0; j < f->bits / 8; j++)
                raw |= (uint32_t)b[k * (f->bits / 8) + j] << (8 * j);
            comp[k] = convert(f, raw, num, G(VTX_W1_FORMAT_COMP_ALL) != 0);
        }
        for (int k = 0; k < 4; k++) {
            if (sel[k] == 7)
                continue;
            s->w->gpr[dst][k][l] = sel[k] < 4 ? comp[sel[k]] : sel[k] == 5 ? 0x3F800000u : 0;
        }
    }
    return 0;
}

static int tex(rd_sq *s, const r6_op *op, size_t dw, const uint32_t *w)
{
    r6_chip c = s->env->chip;
    if (op->kind != R6K_SAMPLE || !s->env->fetch.tex_sample)
        return rd_sq_fault(s, CG_FAULT_UNSUPPORTED, dw, 4,
                           "%s at dword %zu is not supported yet (no texture unit)", op->name, dw);
    uint32_t src = G(TEX_W0_SRC_GPR), dst = G(TEX_W1_DST_GPR);
    if (G(TEX_W0_SRC_REL) || G(TEX_W1_DST_REL))
        return rd_sq_fault(s, CG_FAULT_UNSUPPORTED, dw, 4,
                           "%s at dword %zu: relative GPRs are not supported yet", op->name, dw);
    if (src >= s->ngpr || dst >= s->ngpr)
        return rd_sq_fault(s, CG_FAULT_BAD_STATE, dw, 4,
                           "%s at dword %zu: R%u is past the %u GPRs allocated", op->name, dw,
                           src >= s->ngpr ? src : dst, s->ngpr);
    uint32_t ss[4] = {G(TEX_W2_SRC_SEL_X), G(TEX_W2_SRC_SEL_Y), G(TEX_W2_SRC_SEL_Z), G(TEX_W2_SRC_SEL_W)};
    uint32_t ds[4] = {G(TEX_W1_DST_SEL_X), G(TEX_W1_DST_SEL_Y), G(TEX_W1_DST_SEL_Z), G(TEX_W1_DST_SEL_W)};
    uint32_t res[RD_SQ_LANES][4];
    for (unsigned l = 0; l < RD_SQ_LANES; l++) {
        if (!((s->active >> l) & 1))
            continue;
        float co[4];
        for (int k = 0; k < 4; k++) {
            uint32_t v = ss[k] < 4 ? s->w->gpr[src][ss[k]][l] : ss[k] == 5 ? 0x3F800000u : 0;
            memcpy(&co[k], &v, 4);
        }
        rd_sq_tex_req rq = {(unsigned)(op - r6_ops), G(TEX_W0_RESOURCE_ID), G(TEX_W2_SAMPLER_ID), co,
                            {(int32_t)G(TEX_W2_OFFSET_X), (int32_t)G(TEX_W2_OFFSET_Y),
                             (int32_t)G(TEX_W2_OFFSET_Z)}};
        int rc = s->env->fetch.tex_sample(s->env->fetch.ctx, &rq, res[l]);
        if (rc)
            return rc;
    }
    for (unsigned l = 0; l < RD_SQ_LANES; l++)
        if ((s->active >> l) & 1)
            for (int k = 0; k < 4; k++)
                if (ds[k] != 7)
                    s->w->gpr[dst][k][l] = ds[k] < 4 ? res[l][ds[k]] : ds[k] == 5 ? 0x3F800000u : 0;
    return 0;
}

int rd_sq_fetch_clause(rd_sq *s, size_t cf_dw, bool is_tex, uint32_t addr, uint32_t count)
{
    size_t units = s->env->ndw / 2;
    if ((uint64_t)addr + 2ull * count > units)
        return rd_sq_fault(s, CG_FAULT_BAD_LENGTH, cf_dw, 2,
                           "the %s clause at dword %zu (@%u, %u instructions) runs past the end "
                           "of the program (%zu dwords)",
                           is_tex ? "TEX" : "VTX", cf_dw, addr, count, s->env->ndw);
    for (uint32_t i = 0; i < count; i++) {
        size_t dw = 2 * ((size_t)addr + 2 * i);
        const uint32_t *w = s->env->code + dw;
        int rc = rd_sq_tick(s, dw, 4, is_tex ? "a TEX instruction" : "a VTX instruction");
        if (rc)
            return rc;
        unsigned e = is_tex ? s->t.tex[w[0] & 31] : s->t.vtx[w[0] & 31];
        const r6_op *op = e ? &r6_ops[e - 1] : NULL;
        if (!op || !r6_op_clean(op, s->env->chip, w))
            return rd_sq_fault(s, CG_FAULT_INVALID_OPCODE, dw, 4, "%s %s instruction at dword %zu",
                               op ? "reserved bits set in the" : "undefined", is_tex ? "TEX" : "VTX",
                               dw);
        rc = is_tex ? tex(s, op, dw, w) : vfetch(s, op, dw, w);
        if (rc)
            return rc;
    }
    return 0;
}
