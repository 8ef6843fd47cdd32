/* nv: the raster operations of the 3D pipeline (pipeline.h): colour formats,
 * blending, channel masks, depth test and write.
 *
 * Formats are the clears' (threed.c NV3D_CT_FORMATS / NV3D_ZT_FORMATS): the
 * same bit positions, the same float -> UNORM rule (clamp, scale, round to
 * nearest) and float -> half rounding. Blending follows OpenGL 4.6 section
 * 17.3.6 (equations and factors; MIN and MAX ignore the factors;
 * SRC_ALPHA_SATURATE is (f, f, f, 1) with f = min(As, 1 - Ad)); for UNORM
 * targets source, destination and constant are clamped to [0, 1] first
 * (17.3.6.1), float targets blend unclamped. Enum values: clb197.h
 * SET_BLEND_COLOR_OP / _SOURCE_COEFF (OGL_* GL enums and D3D_* 1-based
 * codes), SET_DEPTH_FUNC (OGL 0x200 + func, D3D 1-based). */
#include <math.h>
#include <string.h>
#include "core/bits.h"
#include "core/half.h"
#include "pipeline.h"

/* ---- enums ---------------------------------------------------------------- */

int nv_blend_op(uint32_t v)
{
    switch (v) {
    case 0x8006: case 1: return NV_BOP_ADD;       /* OGL_FUNC_ADD, D3D_ADD */
    case 0x800A: case 2: return NV_BOP_SUB;       /* OGL_FUNC_SUBTRACT, D3D_SUBTRACT */
    case 0x800B: case 3: return NV_BOP_REVSUB;    /* OGL_FUNC_REVERSE_SUBTRACT, D3D_REVSUBTRACT */
    case 0x8007: case 4: return NV_BOP_MIN;       /* OGL_MIN, D3D_MIN */
    case 0x8008: case 5: return NV_BOP_MAX;       /* OGL_MAX, D3D_MAX */
    default: return -1;
    }
}

int nv_blend_factor(uint32_t v)
{
    switch (v) {
    case 0x4000: case 0x1: return NV_BF_ZERO;
    case 0x4001: case 0x2: return NV_BF_ONE;
    case 0x4300: case 0x3: return NV_BF_SRC_COLOR;
    case 0x4301: case 0x4: return NV_BF_INV_SRC_COLOR;
    case 0x4302: case 0x5: return NV_BF_SRC_ALPHA;
    case 0x4303: case 0x6: return NV_BF_INV_SRC_ALPHA;
    case 0x4304: case 0x7: return NV_BF_DST_ALPHA;
    case 0x4305: case 0x8: return NV_BF_INV_DST_ALPHA;
    case 0x4306: case 0x9: return NV_BF_DST_COLOR;
    case 0x4307: case 0xA: return NV_BF_INV_DST_COLOR;
    case 0x4308: case 0xB: return NV_BF_SRC_ALPHA_SAT;
    case 0xC001: case 0xE: return NV_BF_CONST_COLOR;   /* D3D_BLENDFACTOR */
    case 0xC002: case 0xF: return NV_BF_INV_CONST_COLOR;
    case 0xC003: return NV_BF_CONST_ALPHA;
    case 0xC004: return NV_BF_INV_CONST_ALPHA;
    default: return -1; /* dual source (SRC1*, BOTHSRCALPHA) and unknown values */
    }
}

int nv_depth_func(uint32_t v)
{
    if (v >= 0x200 && v <= 0x207)
        return (int)(v - 0x200);
    if (v >= 1 && v <= 8)
        return (int)v - 1;
    return -1;
}

bool nv_depth_pass(int func, double frag, double stored)
{
    switch (func) {
    case 0: return false;
    case 1: return frag < stored;
    case 2: return frag == stored;
    case 3: return frag <= stored;
    case 4: return frag > stored;
    case 5: return frag != stored;
    case 6: return frag >= stored;
    default: return true;
    }
}

/* ---- blending ------------------------------------------------------------- */

static float factor(int f, unsigned c, const float s[4], const float d[4], const float k[4])
{
    switch (f) {
    case NV_BF_ZERO: return 0;
    case NV_BF_ONE: return 1;
    case NV_BF_SRC_COLOR: return s[c];
    case NV_BF_INV_SRC_COLOR: return 1 - s[c];
    case NV_BF_SRC_ALPHA: return s[3];
    case NV_BF_INV_SRC_ALPHA: return 1 - s[3];
    case NV_BF_DST_ALPHA: return d[3];
    case NV_BF_INV_DST_ALPHA: return 1 - d[3];
    case NV_BF_DST_COLOR: return d[c];
    case NV_BF_INV_DST_COLOR: return 1 - d[c];
    case NV_BF_SRC_ALPHA_SAT: return c == 3 ? 1 : fminf(s[3], 1 - d[3]);
    case NV_BF_CONST_COLOR: return k[c];
    case NV_BF_INV_CONST_COLOR: return 1 - k[c];
    case NV_BF_CONST_ALPHA: return k[3];
    default: return 1 - k[3]; /* NV_BF_INV_CONST_ALPHA */
    }
}

void nv_blend_apply(const nv_blend *b, const float s[4], const float d[4], float out[4])
{
    for (unsigned c = 0; c < 4; c++) {
        int op = c == 3 ? b->op_a : b->op_rgb;
        int sf = c == 3 ? b->src_a : b->src_rgb, df = c == 3 ? b->dst_a : b->dst_rgb;
        float fs = factor(sf, c, s, d, b->constant), fd = factor(df, c, s, d, b->constant);
        switch (op) {
        case NV_BOP_ADD: out[c] = s[c] * fs + d[c] * fd; break;
        case NV_BOP_SUB: out[c] = s[c] * fs - d[c] * fd; break;
        case NV_BOP_REVSUB: out[c] = d[c] * fd - s[c] * fs; break;
        case NV_BOP_MIN: out[c] = fminf(s[c], d[c]); break;
        default: out[c] = fmaxf(s[c], d[c]); break;
        }
    }
}

/* ---- surfaces and formats ------------------------------------------------- */

uint64_t nv_surface_addr(const nv_surface *s, uint32_t x, uint32_t y)
{
    if (s->pitch)
        return s->base + (uint64_t)y * s->pitch_bytes + (uint64_t)x * s->bpp;
    return s->base + nv_bl_offset(&s->bl, x * s->bpp, y, 0);
}

static uint64_t get_bits(const uint8_t *p, unsigned off, unsigned bits)
{
    uint64_t v = 0;
    if (((off | bits) & 7) == 0) { /* whole bytes (8/16/32-bit channels) */
        for (unsigned i = bits / 8; i-- > 0;)
            v = v << 8 | p[off / 8 + i];
        return v;
    }
    for (unsigned i = 0; i < bits; i++) {
        unsigned b = off + i;
        v |= (uint64_t)((p[b / 8] >> (b % 8)) & 1) << i;
    }
    return v;
}

void nv_set_bits(uint8_t *p, unsigned off, unsigned bits, uint64_t v)
{
    if (((off | bits) & 7) == 0) {
        for (unsigned i = 0; i < bits / 8; i++)
            p[off / 8 + i] = (uint8_t)(v >> (8 * i));
        return;
    }
    for (unsigned i = 0; i < bits; i++) {
        unsigned b = off + i;
        if ((v >> i) & 1)
            p[b / 8] |= (uint8_t)(1u << (b % 8));
        else
            p[b / 8] &= (uint8_t)~(1u << (b % 8));
    }
}

static uint32_t fbits(float f) { return cg__fbits(f); }

void nv_color_pack(const nv3d_ct_format *f, const float rgba[4], unsigned mask, uint8_t *px)
{
    for (unsigned c = 0; c < 4; c++) {
        if (!f->bits[c] || !((mask >> c) & 1))
            continue;
        nv_set_bits(px, f->off[c], f->bits[c],
                    nv3d_chan_value(f->type, f->bits[c], fbits(rgba[c])));
    }
}

void nv_color_unpack(const nv3d_ct_format *f, const uint8_t *px, float rgba[4])
{
    rgba[0] = rgba[1] = rgba[2] = 0;
    rgba[3] = 1;
    for (unsigned c = 0; c < 4; c++) {
        if (!f->bits[c])
            continue;
        uint64_t v = get_bits(px, f->off[c], f->bits[c]);
        if (f->type == NV3D_CH_UNORM) {
            rgba[c] = (float)((double)v / (double)((1ull << f->bits[c]) - 1));
        } else if (f->bits[c] == 16) {
            rgba[c] = cg__half_to_float((uint32_t)v);
        } else {
            uint32_t u = (uint32_t)v;
            memcpy(&rgba[c], &u, 4);
        }
    }
}

double nv_zeta_read(const nv3d_zt_format *f, const uint8_t *px)
{
    uint64_t v = get_bits(px, f->zoff, f->zbits);
    if (f->ztype == NV3D_CH_FLOAT) {
        float z;
        uint32_t u = (uint32_t)v;
        memcpy(&z, &u, 4);
        return z;
    }
    return (double)v / (double)((1ull << f->zbits) - 1);
}

double nv_zeta_quantize(const nv3d_zt_format *f, float z)
{
    uint64_t v = nv3d_chan_value(f->ztype, f->zbits, fbits(z));
    if (f->ztype == NV3D_CH_FLOAT)
        return z;
    return (double)v / (double)((1ull << f->zbits) - 1);
}

void nv_zeta_write(const nv3d_zt_format *f, double z, uint8_t *px)
{
    float zf = (float)z;
    nv_set_bits(px, f->zoff, f->zbits, nv3d_chan_value(f->ztype, f->zbits, fbits(zf)));
}
