/* nv: the MAXWELL_B (B197) register file read as state, for every part of
 * the 3D engine: the per-channel 3D state, the render-target and zeta
 * descriptions, the report counters a draw advances, and the colour and
 * zeta format tables with the float-to-channel conversion. threed.c
 * (methods, clears, reports), draw.c, pipeline.c and rop.c all call here;
 * this file calls none of them, so the 3D files form no call circle.
 * Sources as in threed.c (clb197.h; Mesa nvc0_surface.c; Ryujinx
 * GalZetaFormat), cited where used. */
#include <string.h>
#include "core/half.h"
#include "nv/tables/fields.h"
#include "threed.h"

/* ---- the per-channel state ------------------------------------------------- */

nv3d_state *nv3d_state_get(cg_nv_channel *ch)
{
    if (!ch->s3d) {
        ch->s3d = cg__alloc(ch->gpu->dev, sizeof(*ch->s3d));
        if (ch->s3d)
            memset(ch->s3d, 0, sizeof(*ch->s3d));
    }
    if (ch->s3d)
        ch->s3d->regs = ch->objs[NV_OBJ_3D].regs;
    return ch->s3d;
}

void nv3d_state_free(cg_nv_channel *ch)
{
    if (ch->s3d)
        cg__free(ch->gpu->dev, ch->s3d, sizeof(*ch->s3d));
    ch->s3d = NULL;
}

static inline uint32_t reg(const nv_obj *o, uint32_t m)
{
    return o->regs[m >> 2];
}

/* ---- render target state ------------------------------------------------- */

void nv3d_rt_state(const nv_obj *o, unsigned i, cg_nv_rt_state *out)
{
    uint32_t b = 64 * (i & 7);
    uint32_t mem = reg(o, NVB197_SET_COLOR_TARGET_MEMORY + b);
    memset(out, 0, sizeof(*out));
    out->addr = nv_addr40(reg(o, NVB197_SET_COLOR_TARGET_A + b),
                       reg(o, NVB197_SET_COLOR_TARGET_B + b));
    out->width = NV_VAL(NVB197, SET_COLOR_TARGET_WIDTH, V, reg(o, NVB197_SET_COLOR_TARGET_WIDTH + b));
    out->height = NV_VAL(NVB197, SET_COLOR_TARGET_HEIGHT, V,
                         reg(o, NVB197_SET_COLOR_TARGET_HEIGHT + b));
    out->format = NV_VAL(NVB197, SET_COLOR_TARGET_FORMAT, V,
                         reg(o, NVB197_SET_COLOR_TARGET_FORMAT + b));
    out->memory = mem;
    out->pitch = NV_VAL(NVB197, SET_COLOR_TARGET_MEMORY, LAYOUT, mem);
    out->block_w = NV_VAL(NVB197, SET_COLOR_TARGET_MEMORY, BLOCK_WIDTH, mem);
    out->block_h = NV_VAL(NVB197, SET_COLOR_TARGET_MEMORY, BLOCK_HEIGHT, mem);
    out->block_d = NV_VAL(NVB197, SET_COLOR_TARGET_MEMORY, BLOCK_DEPTH, mem);
}

void nv3d_zeta_state(const nv_obj *o, cg_nv_rt_state *out, bool *enabled)
{
    uint32_t bs = reg(o, NVB197_SET_ZT_BLOCK_SIZE);
    memset(out, 0, sizeof(*out));
    out->addr = nv_addr40(reg(o, NVB197_SET_ZT_A), reg(o, NVB197_SET_ZT_B));
    out->width = NV_VAL(NVB197, SET_ZT_SIZE_A, WIDTH, reg(o, NVB197_SET_ZT_SIZE_A));
    out->height = NV_VAL(NVB197, SET_ZT_SIZE_B, HEIGHT, reg(o, NVB197_SET_ZT_SIZE_B));
    out->format = NV_VAL(NVB197, SET_ZT_FORMAT, V, reg(o, NVB197_SET_ZT_FORMAT));
    out->memory = bs;
    out->pitch = false; /* SET_ZT_BLOCK_SIZE has no layout field: zeta is block linear */
    out->block_w = NV_VAL(NVB197, SET_ZT_BLOCK_SIZE, WIDTH, bs);
    out->block_h = NV_VAL(NVB197, SET_ZT_BLOCK_SIZE, HEIGHT, bs);
    out->block_d = NV_VAL(NVB197, SET_ZT_BLOCK_SIZE, DEPTH, bs);
    if (enabled)
        *enabled = NV_VAL(NVB197, SET_ZT_SELECT, TARGET_COUNT, reg(o, NVB197_SET_ZT_SELECT));
}

/* ---- report counters ----------------------------------------------------- */

/* SET_REPORT_SEMAPHORE_D REPORT codes a draw counts (clb197.h). */
enum {
    REP_DA_VERTICES = NVB197_SET_REPORT_SEMAPHORE_D_REPORT_DA_VERTICES_GENERATED,
    REP_DA_PRIMITIVES = NVB197_SET_REPORT_SEMAPHORE_D_REPORT_DA_PRIMITIVES_GENERATED
};

/* Primitives the input assembler makes of n vertices of BEGIN topology t
 * (GL/D3D counting rules for each topology; incomplete primitives are
 * dropped). PATCH uses SET_PATCH SIZE. */
#define OP(t) NVB197_BEGIN_OP_##t
static uint64_t prims_of(unsigned t, uint64_t n, unsigned patch)
{
    switch (t) {
    case OP(POINTS): return n;
    case OP(LINES): return n / 2;
    case OP(LINE_LOOP): return n >= 2 ? n : 0;
    case OP(LINE_STRIP): return n >= 2 ? n - 1 : 0;
    case OP(TRIANGLES): return n / 3;
    case OP(TRIANGLE_STRIP):
    case OP(TRIANGLE_FAN): return n >= 3 ? n - 2 : 0;
    case OP(QUADS): return n / 4;
    case OP(QUAD_STRIP): return n >= 4 ? (n - 2) / 2 : 0;
    case OP(POLYGON): return n >= 3 ? 1 : 0;
    case OP(LINELIST_ADJCY): return n / 4;
    case OP(LINESTRIP_ADJCY): return n >= 4 ? n - 3 : 0;
    case OP(TRIANGLELIST_ADJCY): return n / 6;
    case OP(TRIANGLESTRIP_ADJCY): return n >= 6 ? (n - 4) / 2 : 0;
    case OP(PATCH): return patch ? n / patch : 0;
    default: return 0;
    }
}
#undef OP

void nv3d_count_draw(nv3d_state *s, unsigned topology, uint64_t vertices, uint32_t instances)
{
    if (!s || !s->regs)
        return;
    uint32_t en = s->regs[NVB197_SET_STATISTICS_COUNTER >> 2];
    unsigned patch = NV_VAL(NVB197, SET_PATCH, SIZE, s->regs[NVB197_SET_PATCH >> 2]);
    if (NV_VAL(NVB197, SET_STATISTICS_COUNTER, DA_VERTICES_GENERATED_ENABLE, en))
        s->counters[REP_DA_VERTICES] += vertices * instances;
    if (NV_VAL(NVB197, SET_STATISTICS_COUNTER, DA_PRIMITIVES_GENERATED_ENABLE, en))
        s->counters[REP_DA_PRIMITIVES] += prims_of(topology, vertices, patch) * instances;
}

/* ---- colour and zeta formats ----------------------------------------------- */

enum { CH_NONE = NV3D_CH_NONE, CH_UNORM = NV3D_CH_UNORM, CH_FLOAT = NV3D_CH_FLOAT };

/* Colour target formats (clb197.h SET_COLOR_TARGET_FORMAT), MSB-first names:
 * X(code, name, bytes, type, R bit offset, R bits, G.., B.., A..) with the
 * offsets in the little-endian pixel. */
#define NV3D_CT_FORMATS(X)                                                     \
    X(0xC0, RF32_GF32_BF32_AF32, 16, CH_FLOAT, 0, 32, 32, 32, 64, 32, 96, 32) \
    X(0xCA, RF16_GF16_BF16_AF16, 8, CH_FLOAT, 0, 16, 16, 16, 32, 16, 48, 16)  \
    X(0xCB, RF32_GF32, 8, CH_FLOAT, 0, 32, 32, 32, 0, 0, 0, 0)                \
    X(0xCF, A8R8G8B8, 4, CH_UNORM, 16, 8, 8, 8, 0, 8, 24, 8)                  \
    X(0xD1, A2B10G10R10, 4, CH_UNORM, 0, 10, 10, 10, 20, 10, 30, 2)           \
    X(0xD5, A8B8G8R8, 4, CH_UNORM, 0, 8, 8, 8, 16, 8, 24, 8)                  \
    X(0xDA, R16_G16, 4, CH_UNORM, 0, 16, 16, 16, 0, 0, 0, 0)                  \
    X(0xDE, RF16_GF16, 4, CH_FLOAT, 0, 16, 16, 16, 0, 0, 0, 0)                \
    X(0xE5, RF32, 4, CH_FLOAT, 0, 32, 0, 0, 0, 0, 0, 0)                       \
    X(0xE8, R5G6B5, 2, CH_UNORM, 11, 5, 5, 6, 0, 5, 0, 0)                     \
    X(0xE9, A1R5G5B5, 2, CH_UNORM, 10, 5, 5, 5, 0, 5, 15, 1)                  \
    X(0xEA, G8R8, 2, CH_UNORM, 0, 8, 8, 8, 0, 0, 0, 0)                        \
    X(0xEE, R16, 2, CH_UNORM, 0, 16, 0, 0, 0, 0, 0, 0)                        \
    X(0xF2, RF16, 2, CH_FLOAT, 0, 16, 0, 0, 0, 0, 0, 0)                       \
    X(0xF3, R8, 1, CH_UNORM, 0, 8, 0, 0, 0, 0, 0, 0)

typedef nv3d_ct_format ct_format;

static const ct_format ct_formats[] = {
#define X(code, name, bytes, type, ro, rb, go, gb, bo, bb, ao, ab) \
    {code, #name, bytes, type, {ro, go, bo, ao}, {rb, gb, bb, ab}},
    NV3D_CT_FORMATS(X)
#undef X
};

/* Zeta formats (clb197.h SET_ZT_FORMAT), MSB-first names: Z24S8 keeps Z in
 * bits 31:8 and S in 7:0, S8Z24 S in 31:24 and Z in 23:0. ZF32_X24S8 is the
 * memory of the texture format X24U8F32: the float depth in the first word,
 * stencil in the low byte of the second. Second source: Ryujinx
 * GalZetaFormat names the same codes LSB first (0x14 S8Z24Unorm, 0x15
 * Z24X8Unorm, 0x16 Z24S8Unorm, 0x19 Z32S8X24Float), which gives the same
 * bit positions. */
#define NV3D_ZT_FORMATS(X)                              \
    X(0x0A, ZF32, 4, CH_FLOAT, 0, 32, 0, 0)             \
    X(0x13, Z16, 2, CH_UNORM, 0, 16, 0, 0)              \
    X(0x14, Z24S8, 4, CH_UNORM, 8, 24, 0, 8)            \
    X(0x15, X8Z24, 4, CH_UNORM, 0, 24, 0, 0)            \
    X(0x16, S8Z24, 4, CH_UNORM, 0, 24, 24, 8)           \
    X(0x17, S8, 1, CH_NONE, 0, 0, 0, 8)                 \
    X(0x19, ZF32_X24S8, 8, CH_FLOAT, 0, 32, 32, 8)

typedef nv3d_zt_format zt_format;

static const zt_format zt_formats[] = {
#define X(code, name, bytes, type, zo, zb, so, sb) {code, #name, bytes, type, zo, zb, so, sb},
    NV3D_ZT_FORMATS(X)
#undef X
};

const nv3d_ct_format *nv3d_ct_format_find(uint32_t code)
{
    for (size_t i = 0; i < sizeof(ct_formats) / sizeof(ct_formats[0]); i++)
        if (ct_formats[i].code == code)
            return &ct_formats[i];
    return NULL;
}

const nv3d_zt_format *nv3d_zt_format_find(uint32_t code)
{
    for (size_t i = 0; i < sizeof(zt_formats) / sizeof(zt_formats[0]); i++)
        if (zt_formats[i].code == code)
            return &zt_formats[i];
    return NULL;
}

/* Float to UNORM n, Direct3D's rule step by step (the data conversion
 * rules, FLOAT -> UNORM: NaN -> 0, clamp to [0, 1], c = c * (2^n - 1) and
 * c = c + 0.5f in single precision, then the fraction dropped; OpenGL 4.6
 * section 2.3.5.2 leaves the rounding of halves open). Single precision
 * matters: 0.3f * 255 is 76.50000304 exactly but 76.5f as a float, so 77,
 * and a blend result a hair under x.5 in double can be x.5 in single.
 * llvmpipe rounds those halves to even (76): the GL tests' 1-step
 * tolerance (docs/drm.md). Wider channels (24-bit depth, 32 bits) take the
 * same steps in double: a single-precision f * (2^24 - 1) is not exact, and
 * depth is compared against such values. */
static uint32_t to_unorm(uint32_t fbits, unsigned n)
{
    float f;
    memcpy(&f, &fbits, 4);
    uint32_t max = n >= 32 ? 0xFFFFFFFFu : (1u << n) - 1;
    if (!(f > 0))
        return 0;
    if (f >= 1)
        return max;
    if (n <= 16) {
        float c = f * (float)max;
        return (uint32_t)(c + 0.5f);
    }
    return (uint32_t)((double)f * max + 0.5);
}

/* A channel's value in its type; fbits is a float's bit pattern. */
uint64_t nv3d_chan_value(unsigned type, unsigned bits, uint32_t fbits)
{
    if (type == CH_UNORM)
        return to_unorm(fbits, bits);
    return bits == 16 ? cg__float_bits_to_half(fbits) : fbits;
}
