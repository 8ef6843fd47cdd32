/* nv: Maxwell texture headers (TIC), samplers (TSC) and texture reads.
 *
 * TIC layout (8 words; research/nv.md section 6). Every position below was
 * checked against two sources: yuzu video_core/textures/texture.h TICEntry
 * ("yz") and deko3d's maxwell/tic.h TextureImageControl as quoted by the
 * Hydra emulator's Tegra X1 3D engine header ("dk"); the header-version
 * dependent fields also against Ryujinx Graphics.Gpu/Image/
 * TextureDescriptor.cs ("rj") and the field names of NVIDIA's clb097tex.h
 * used by Mesa NVK nil/descriptor.rs ("ogd").
 *
 *   W0  format 6:0, R/G/B/A component types 9:7 12:10 15:13 18:16,
 *       X/Y/Z/W swizzle sources 21:19 24:22 27:25 30:28, pack 31      (yz, dk)
 *   W1  address 31:0. ogd names the field ADDRESS_BITS31TO9 in block-linear
 *       headers and ADDRESS_BITS31TO5 in pitch headers, so the low bits are
 *       not address there; yz/rj/dk use all 32 bits (valid headers have them
 *       zero, so the two agree). We follow ogd: block-linear addresses drop
 *       W1 8:0, pitch addresses W1 4:0; 1-D buffers use all 32 (ogd
 *       TEXHEAD_1D_ADDRESS_BITS31TO0).
 *   W2  address 47:32 in 15:0, layer base 7:3 in 20:16, HEADER_VERSION
 *       23:21, load/store hint 24, view coherency hash 28:25, layer base 10:8
 *       in 31:29                                                        (dk; yz)
 *   W3  block-linear: GOBs per block width/height/depth (log2) 2:0 5:3 8:6,
 *       tile width (sparse, log2 GOBs) 12:10, GOB_3D 13;
 *       pitch: pitch bits 20:5 in 15:0 (yz "pitch_high << 5", rj Word3 << 5,
 *       ogd PITCH_BITS20TO5);
 *       1-D buffer: width-1 bits 31:16 in 15:0 (yz buffer_high_width_minus_one,
 *       rj UnpackBufferTextureWidth, ogd WIDTH_MINUS_ONE_BITS31TO16);
 *       all: LOD aniso quality 2 16, LOD aniso quality 17, LOD iso quality
 *       18, aniso coarse spread modifier 20:19, aniso spread scale 25:21,
 *       use header opt control 26, depth texture 27, max mip level 31:28 (dk)
 *   W4  width-1 15:0 (1-D buffer: width-1 bits 15:0), layer base 2:0 in
 *       18:16, aniso spread max log2 21:19, sRGB 22, texture type 26:23,
 *       sector promotion 28:27, border size 31:29                      (dk; yz)
 *   W5  height-1 15:0, depth-1 29:16, sparse 30, normalized coords 31   (dk; rj)
 *   W6  colour key op 0, trilinear opt 5:1, LOD bias 18:6 (signed 5.8),
 *       aniso bias 22:19, aniso fine/coarse spread func 24:23 26:25,
 *       max anisotropy 29:27, aniso fine spread modifier 31:30        (dk; yz)
 *   W7  colour-key headers (versions 1 and 4): the colour key value, all 32
 *       bits (dk's union: color_key_value overlays the W7 fields); other
 *       versions: view min/max mip level 3:0 7:4, MSAA mode 11:8, min LOD
 *       clamp 23:12 (dk; yz; rj)
 *
 * Which fields a 1-D buffer header has beyond width and address is not in
 * our sources (ogd names TEXTURE_TYPE and SECTOR_PROMOTION for it); the
 * decoder fills every field from its common position for every version and
 * the reader only uses the ones that apply.
 *
 * TSC layout (8 words): deko3d maxwell/tsc.h TextureSamplerControl (citing
 * envytools rnndb g80_texture.xml), checked against yuzu TSCEntry and Mesa
 * NVK nvk_sampler.c (to_sfixed(bias, 5, 8), to_ufixed(lod, 4, 8)):
 *   W0  wrap U/V/P 2:0 5:3 8:6, depth compare 9, compare func 12:10, sRGB
 *       conversion 13, font filter width/height 16:14 19:17, max anisotropy
 *       22:20
 *   W1  mag filter 1:0, min filter 5:4, mip filter 7:6, cubemap anisotropy
 *       8, cubemap interface filtering 9, reduction filter 11:10, mip LOD
 *       bias 24:12 (signed 5.8), float coord normalization 25, trilinear
 *       opt 30:26
 *   W2  min LOD clamp 11:0 (unsigned 4.8), max LOD clamp 23:12, sRGB border
 *       R 31:24
 *   W3  sRGB border G 19:12, B 27:20
 *   W4-W7  border colour R G B A (32-bit floats; yz std::array<f32, 4>) */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "core/half.h"
#include "cmdgpu/nv3d.h"
#include "nv/nv_internal.h"
#include "nv/tables/tex_names.h"

static inline uint32_t bitsw(uint32_t w, unsigned hi, unsigned lo)
{
    return (w >> lo) & (uint32_t)((2ull << (hi - lo)) - 1);
}

/* ---- the format table ---------------------------------------------------- */

enum tex_decode { DEC_NONE, DEC_PACKED, DEC_BC1, DEC_BC2, DEC_BC3, DEC_BC4, DEC_BC5 };

typedef struct tex_format {
    const char *name;
    uint8_t code, bytes;
    bool compressed;
    uint8_t decode;
    uint8_t bits[4]; /* R G B A widths for DEC_PACKED */
} tex_format;

static const tex_format tex_formats[] = {
#define FMT(name, code, bytes, comp, dec, r, g, b, a)                                      \
    {#name, code, bytes, comp, DEC_##dec, {r, g, b, a}},
#include "nv/tables/tex_formats.def"
#undef FMT
};

/* A linear search: the table is short and lookups happen once per header,
 * never per texel. */
static const tex_format *format_lookup(uint32_t code)
{
    for (size_t i = 0; i < CG_ARRAY_SIZE(tex_formats); i++)
        if (tex_formats[i].code == code)
            return &tex_formats[i];
    return NULL;
}

const char *cg_nv_tex_format_name(uint32_t format)
{
    const tex_format *f = format_lookup(format);
    return f ? f->name : NULL;
}

unsigned cg_nv_tex_format_bytes(uint32_t format, bool *compressed)
{
    const tex_format *f = format_lookup(format);
    if (compressed)
        *compressed = f ? f->compressed : false;
    return f ? f->bytes : 0;
}

/* ---- decoding ------------------------------------------------------------ */

void cg_nv_tic_decode(const uint32_t w[8], cg_nv_tic *t)
{
    memset(t, 0, sizeof(*t));
    memcpy(t->raw, w, sizeof(t->raw));
    t->format = bitsw(w[0], 6, 0);
    for (unsigned i = 0; i < 4; i++) {
        t->type[i] = (uint8_t)bitsw(w[0], 9 + 3 * i, 7 + 3 * i);
        t->swizzle[i] = (uint8_t)bitsw(w[0], 21 + 3 * i, 19 + 3 * i);
    }
    t->pack = bitsw(w[0], 31, 31);

    t->header_version = bitsw(w[2], 23, 21);
    uint32_t lo = w[1];
    bool pitch = t->header_version == CG_NV_TIC_PITCH ||
                 t->header_version == CG_NV_TIC_PITCH_COLORKEY;
    bool bl = t->header_version == CG_NV_TIC_BLOCKLINEAR ||
              t->header_version == CG_NV_TIC_BLOCKLINEAR_COLORKEY;
    if (bl)
        lo &= ~0x1FFu;
    else if (pitch)
        lo &= ~0x1Fu;
    t->address = ((uint64_t)bitsw(w[2], 15, 0) << 32) | lo;
    t->layer_base = (bitsw(w[2], 31, 29) << 8) | (bitsw(w[2], 20, 16) << 3) | bitsw(w[4], 18, 16);
    t->load_store_hint = bitsw(w[2], 24, 24);
    t->view_coherency_hash = bitsw(w[2], 28, 25);

    if (bl) {
        t->block_w = bitsw(w[3], 2, 0);
        t->block_h = bitsw(w[3], 5, 3);
        t->block_d = bitsw(w[3], 8, 6);
        t->tile_width = bitsw(w[3], 12, 10);
        t->gob_3d = bitsw(w[3], 13, 13);
    } else if (pitch) {
        t->pitch = bitsw(w[3], 15, 0) << 5;
    }
    t->lod_aniso_quality2 = bitsw(w[3], 16, 16);
    t->lod_aniso_quality = bitsw(w[3], 17, 17);
    t->lod_iso_quality = bitsw(w[3], 18, 18);
    t->aniso_coarse_spread_modifier = bitsw(w[3], 20, 19);
    t->aniso_spread_scale = bitsw(w[3], 25, 21);
    t->use_header_opt_control = bitsw(w[3], 26, 26);
    t->depth_texture = bitsw(w[3], 27, 27);
    t->max_mip_level = bitsw(w[3], 31, 28);

    if (t->header_version == CG_NV_TIC_1D_BUFFER) {
        /* 32-bit width-1 split over W3 15:0 (high) and W4 15:0 (low); a
         * stored 0xFFFFFFFF gives width 0 here (2^32 does not fit). */
        t->width = ((bitsw(w[3], 15, 0) << 16) | bitsw(w[4], 15, 0)) + 1u;
    } else {
        t->width = bitsw(w[4], 15, 0) + 1;
    }
    t->aniso_spread_max_log2 = bitsw(w[4], 21, 19);
    t->srgb = bitsw(w[4], 22, 22);
    t->texture_type = bitsw(w[4], 26, 23);
    t->sector_promotion = bitsw(w[4], 28, 27);
    t->border_size = bitsw(w[4], 31, 29);

    t->height = bitsw(w[5], 15, 0) + 1;
    t->depth = bitsw(w[5], 29, 16) + 1;
    t->sparse = bitsw(w[5], 30, 30);
    t->normalized_coords = bitsw(w[5], 31, 31);

    t->color_key_op = bitsw(w[6], 0, 0);
    t->trilin_opt = bitsw(w[6], 5, 1);
    /* 13-bit two's complement, 5.8 fixed point: sign-extend. */
    t->lod_bias = (int32_t)(bitsw(w[6], 18, 6) ^ 0x1000u) - 0x1000;
    t->aniso_bias = bitsw(w[6], 22, 19);
    t->aniso_fine_spread_func = bitsw(w[6], 24, 23);
    t->aniso_coarse_spread_func = bitsw(w[6], 26, 25);
    t->max_anisotropy = bitsw(w[6], 29, 27);
    t->aniso_fine_spread_modifier = bitsw(w[6], 31, 30);

    if (t->header_version == CG_NV_TIC_PITCH_COLORKEY ||
        t->header_version == CG_NV_TIC_BLOCKLINEAR_COLORKEY) {
        t->color_key = w[7];
    } else {
        t->res_view_min_mip = bitsw(w[7], 3, 0);
        t->res_view_max_mip = bitsw(w[7], 7, 4);
        t->msaa_mode = bitsw(w[7], 11, 8);
        t->min_lod_clamp = bitsw(w[7], 23, 12);
    }
}

static float word_float(uint32_t w)
{
    float f;
    memcpy(&f, &w, sizeof(f));
    return f;
}

void cg_nv_tsc_decode(const uint32_t w[8], cg_nv_tsc *s)
{
    memset(s, 0, sizeof(*s));
    memcpy(s->raw, w, sizeof(s->raw));
    s->wrap_u = bitsw(w[0], 2, 0);
    s->wrap_v = bitsw(w[0], 5, 3);
    s->wrap_p = bitsw(w[0], 8, 6);
    s->depth_compare = bitsw(w[0], 9, 9);
    s->depth_compare_func = bitsw(w[0], 12, 10);
    s->srgb_conversion = bitsw(w[0], 13, 13);
    s->font_filter_width = bitsw(w[0], 16, 14);
    s->font_filter_height = bitsw(w[0], 19, 17);
    s->max_anisotropy = bitsw(w[0], 22, 20);

    s->mag_filter = bitsw(w[1], 1, 0);
    s->min_filter = bitsw(w[1], 5, 4);
    s->mip_filter = bitsw(w[1], 7, 6);
    s->cubemap_anisotropy = bitsw(w[1], 8, 8);
    s->cubemap_interface_filtering = bitsw(w[1], 9, 9);
    s->reduction_filter = bitsw(w[1], 11, 10);
    int32_t bias = (int32_t)(bitsw(w[1], 24, 12) ^ 0x1000u) - 0x1000;
    s->mip_lod_bias = (float)bias / 256.0f; /* exact: 13 significant bits */
    s->float_coord_normalization = bitsw(w[1], 25, 25);
    s->trilin_opt = bitsw(w[1], 30, 26);

    s->min_lod_clamp = (float)bitsw(w[2], 11, 0) / 256.0f;
    s->max_lod_clamp = (float)bitsw(w[2], 23, 12) / 256.0f;
    s->srgb_border_color[0] = (uint8_t)bitsw(w[2], 31, 24);
    s->srgb_border_color[1] = (uint8_t)bitsw(w[3], 19, 12);
    s->srgb_border_color[2] = (uint8_t)bitsw(w[3], 27, 20);
    for (unsigned i = 0; i < 4; i++)
        s->border_color[i] = word_float(w[4 + i]);
}

/* ---- texture reads --------------------------------------------------------- */

#define TEX_MAX_DIM 16384u
#define TEX_SEGMENT 4096u /* elements read at once from a linear row */

/* Bits [off, off + w) of a little-endian byte string, w <= 32. */
static uint32_t get_bits(const uint8_t *p, unsigned off, unsigned w)
{
    unsigned first = off / 8, shift = off % 8, n = (shift + w + 7) / 8;
    uint64_t v = 0;
    for (unsigned i = 0; i < n; i++)
        v |= (uint64_t)p[first + i] << (8 * i);
    return (uint32_t)((v >> shift) & ((1ull << w) - 1));
}

/* RGBA8 output of a value in [0, 1]; below 0 and NaN give 0. */
static uint8_t float_to_u8(float f)
{
    if (!(f > 0.0f))
        return 0;
    if (f >= 1.0f)
        return 255;
    return (uint8_t)(f * 255.0f + 0.5f);
}

static int32_t sign_extend(uint32_t v, unsigned w)
{
    if (w >= 32)
        return (int32_t)v;
    uint32_t m = 1u << (w - 1);
    return (int32_t)((v ^ m) - m);
}

/* TIC component types: NV_TIC_* (src/nv/tables/tex_names.h; research/nv.md
 * section 6). Can a component w bits wide of this type be turned into 8 bits? */
static bool type_ok(unsigned type, unsigned w)
{
    switch (type) {
    case NV_TIC_SNORM:
    case NV_TIC_UNORM:
    case NV_TIC_SINT:
    case NV_TIC_UINT:
    case NV_TIC_SNORM_FORCE_FP16:
    case NV_TIC_UNORM_FORCE_FP16:
        return true;
    case NV_TIC_FLOAT:
        return w == 16 || w == 32;
    default:
        return false; /* 0: reserved */
    }
}

/* One component (w bits) to 8 bits: normalized types scale to [0, 255]
 * rounding to nearest (SNORM clamps negatives to 0), integers clamp to
 * [0, 255], floats clamp [0, 1] then scale. The FORCE_FP16 types are the
 * normalized types sampled at half precision; stored values are the same. */
static uint8_t comp_to_u8(uint32_t v, unsigned w, unsigned type)
{
    switch (type) {
    case NV_TIC_UNORM:
    case NV_TIC_UNORM_FORCE_FP16: {
        uint64_t max = (1ull << w) - 1;
        return (uint8_t)((v * 255ull + max / 2) / max);
    }
    case NV_TIC_SNORM:
    case NV_TIC_SNORM_FORCE_FP16: {
        int32_t s = sign_extend(v, w);
        if (s <= 0)
            return 0;
        uint64_t max = (1ull << (w - 1)) - 1; /* s > 0 implies w >= 2 */
        return (uint8_t)(((uint64_t)s * 255u + max / 2) / max);
    }
    case NV_TIC_SINT: {
        int32_t s = sign_extend(v, w);
        return (uint8_t)(s < 0 ? 0 : s > 255 ? 255 : s);
    }
    case NV_TIC_UINT:
        return (uint8_t)(v > 255 ? 255 : v);
    default: /* NV_TIC_FLOAT, 16 or 32 bits (type_ok) */
        return float_to_u8(w == 32 ? word_float(v) : cg__half_to_float(v));
    }
}

/* ---- BC1-BC5 (Khronos Data Format Specification 1.3, "S3TC" and "RGTC";
 * Microsoft "Texture Block Compression in Direct3D 11"). The specifications
 * define the interpolated colours as real-number blends of the endpoints
 * (after 565 -> 888 bit replication); we round them to nearest. */

static void rgb565(uint32_t c, uint8_t o[4])
{
    unsigned r = (c >> 11) & 31, g = (c >> 5) & 63, b = c & 31;
    o[0] = (uint8_t)((r << 3) | (r >> 2));
    o[1] = (uint8_t)((g << 2) | (g >> 4));
    o[2] = (uint8_t)((b << 3) | (b >> 2));
    o[3] = 255;
}

/* The colour half of BC1/BC2/BC3 (8 bytes) into 16 RGBA texels, row-major.
 * BC1 uses its 3-colour + transparent black mode when color0 <= color1;
 * BC2 and BC3 always use the 4-colour mode (Khronos DF 1.3 "BC2": "encoded
 * according to the BC1 formats, with the exception that the two code bits
 * always use the non-transparent encodings"; BC3 the same). */
static void bc_color(const uint8_t *b, bool bc1, uint8_t out[16][4])
{
    uint32_t c0 = b[0] | (uint32_t)b[1] << 8, c1 = b[2] | (uint32_t)b[3] << 8;
    uint8_t pal[4][4];
    rgb565(c0, pal[0]);
    rgb565(c1, pal[1]);
    for (unsigned k = 0; k < 3; k++) {
        unsigned p0 = pal[0][k], p1 = pal[1][k];
        if (c0 > c1 || !bc1) {
            pal[2][k] = (uint8_t)((2 * p0 + p1 + 1) / 3);
            pal[3][k] = (uint8_t)((p0 + 2 * p1 + 1) / 3);
        } else {
            pal[2][k] = (uint8_t)((p0 + p1 + 1) / 2);
            pal[3][k] = 0;
        }
    }
    pal[2][3] = 255;
    pal[3][3] = (c0 > c1 || !bc1) ? 255 : 0;
    uint32_t idx = b[4] | (uint32_t)b[5] << 8 | (uint32_t)b[6] << 16 | (uint32_t)b[7] << 24;
    for (unsigned i = 0; i < 16; i++)
        memcpy(out[i], pal[(idx >> (2 * i)) & 3], 4);
}

/* Integer division rounding to nearest, halves away from zero. */
static int div_round(int num, int den)
{
    return num >= 0 ? (num + den / 2) / den : -((-num + den / 2) / den);
}

/* A BC3 alpha / BC4 / BC5 channel block (8 bytes) into 16 values, unsigned
 * (0..255) or signed (RGTC signed: endpoints are two's complement bytes,
 * compared and interpolated signed, and the 6-value mode's extremes are -1.0
 * and 1.0, i.e. -127 and 127 (OpenGL wiki "Red Green Texture Compression";
 * Khronos DF 1.3 "RGTC"); -128 means -1.0 as well). */
static void bc_channel(const uint8_t *b, bool is_signed, int out[16])
{
    int a0 = is_signed ? (int8_t)b[0] : b[0], a1 = is_signed ? (int8_t)b[1] : b[1];
    int pal[8] = {a0, a1};
    if (a0 > a1) {
        for (int i = 2; i < 8; i++)
            pal[i] = div_round((8 - i) * a0 + (i - 1) * a1, 7);
    } else {
        for (int i = 2; i < 6; i++)
            pal[i] = div_round((6 - i) * a0 + (i - 1) * a1, 5);
        pal[6] = is_signed ? -127 : 0;
        pal[7] = is_signed ? 127 : 255;
    }
    uint64_t idx = 0;
    for (unsigned i = 0; i < 6; i++)
        idx |= (uint64_t)b[2 + i] << (8 * i);
    for (unsigned i = 0; i < 16; i++)
        out[i] = pal[(idx >> (3 * i)) & 7];
}

/* A channel value to RGBA8: unsigned as is; signed -127..127 as SNORM
 * (negatives clamp to 0, 127 -> 255, rounding to nearest). */
static uint8_t channel_u8(int v, bool is_signed)
{
    if (!is_signed)
        return (uint8_t)v;
    return v <= 0 ? 0 : (uint8_t)((v * 255 + 63) / 127);
}

static bool is_snorm(unsigned type)
{
    return type == NV_TIC_SNORM || type == NV_TIC_SNORM_FORCE_FP16;
}

/* One 4x4 block into 16 RGBA component sets (R G B A; components a format
 * lacks are 0, 0, 0 and 255 for alpha). BC4/BC5 channels are signed when
 * their component type is SNORM. */
static void bc_block(unsigned dec, const uint8_t *type, const uint8_t *b, uint8_t out[16][4])
{
    int ch[16];
    switch (dec) {
    case DEC_BC1:
        bc_color(b, true, out);
        break;
    case DEC_BC2: /* explicit 4-bit alpha, then a BC1 colour block */
        bc_color(b + 8, false, out);
        for (unsigned i = 0; i < 16; i++)
            out[i][3] = (uint8_t)(((b[i / 2] >> (4 * (i % 2))) & 15) * 17);
        break;
    case DEC_BC3:
        bc_color(b + 8, false, out);
        bc_channel(b, false, ch);
        for (unsigned i = 0; i < 16; i++)
            out[i][3] = (uint8_t)ch[i];
        break;
    default: /* DEC_BC4: red; DEC_BC5: red block, then green block */
        for (unsigned i = 0; i < 16; i++) {
            out[i][1] = out[i][2] = 0;
            out[i][3] = 255;
        }
        for (unsigned c = 0; c < (dec == DEC_BC5 ? 2u : 1u); c++) {
            bool sgn = is_snorm(type[c]);
            bc_channel(b + 8 * c, sgn, ch);
            for (unsigned i = 0; i < 16; i++)
                out[i][c] = channel_u8(ch[i], sgn);
        }
        break;
    }
}

/* What a read needs from the header, checked once. */
typedef struct tex_job {
    const tex_format *f;
    const cg_nv_tic *t;
    uint32_t w, h;      /* texels */
    uint32_t ew, eh;    /* elements: texels, or 4x4 blocks */
    uint8_t *out;
} tex_job;

static void put_pixel(const tex_job *j, uint32_t x, uint32_t y, const uint8_t c[4])
{
    uint8_t *o = j->out + ((size_t)y * j->w + x) * 4;
    for (unsigned i = 0; i < 4; i++) {
        unsigned s = j->t->swizzle[i];
        o[i] = s == 0 ? 0 : s >= 6 ? 255 : c[s - 2]; /* ZERO, ONE_INT/FLOAT, R..A */
    }
}

/* Decode n elements of element row ey, starting at element column ex0. */
static void decode_elems(const tex_job *j, const uint8_t *p, uint32_t ex0, uint32_t n,
                         uint32_t ey)
{
    const tex_format *f = j->f;
    for (uint32_t i = 0; i < n; i++, p += f->bytes) {
        uint32_t ex = ex0 + i;
        if (f->decode == DEC_PACKED) {
            uint8_t c[4] = {0, 0, 0, 255};
            unsigned off = 0;
            for (unsigned k = 0; k < 4; k++) {
                unsigned w = f->bits[k];
                if (w)
                    c[k] = comp_to_u8(get_bits(p, off, w), w, j->t->type[k]);
                off += w;
            }
            put_pixel(j, ex, ey, c);
        } else {
            uint8_t c[16][4];
            bc_block(f->decode, j->t->type, p, c);
            for (uint32_t k = 0; k < 16; k++) {
                uint32_t x = ex * 4 + k % 4, y = ey * 4 + k / 4;
                if (x < j->w && y < j->h)
                    put_pixel(j, x, y, c[k]);
            }
        }
    }
}

/* Reading walks the texture's pieces twice: first only checking that no
 * byte of any piece would fault (buf NULL: nothing read, nothing posted, no
 * output allocated), then reading and decoding them. */

/* Pitch and 1-D buffer layouts: element (ex, ey) at address + ey * pitch +
 * ex * bytes; rows are read in segments of at most TEX_SEGMENT elements. */
static int walk_linear(cg_vas *vas, const tex_job *j, uint64_t pitch, uint8_t *buf)
{
    unsigned bytes = j->f->bytes;
    for (uint32_t ey = 0; ey < j->eh; ey++) {
        for (uint32_t ex = 0; ex < j->ew; ex += TEX_SEGMENT) {
            uint32_t n = j->ew - ex < TEX_SEGMENT ? j->ew - ex : TEX_SEGMENT;
            uint64_t va = j->t->address + ey * pitch + (uint64_t)ex * bytes;
            uint64_t bad;
            if (!buf) {
                if (cg_vas_check(vas, va, (uint64_t)n * bytes, false, &bad) != CG_FAULT_NONE)
                    return CG_ERR_FAULT;
                continue;
            }
            int r = cg_vas_read(vas, va, buf, (size_t)n * bytes, NULL);
            if (r)
                return r;
            decode_elems(j, buf, ex, n, ey);
        }
    }
    return 0;
}

/* Block-linear layout (research/nv.md section 7, nv_bl_offset), over
 * elements: x in bytes is ex * bytes, y is the element row; a compressed
 * texture's GOBs hold 4x4 blocks (yuzu textures/decoders.cpp swizzles
 * compressed textures in block units). One row of GOBs (8 element rows) is
 * gathered at a time, GOB by GOB, into buf (8 rows of `stride` bytes). */
static int walk_blocklinear(cg_vas *vas, const tex_job *j, uint8_t *buf, size_t stride)
{
    nv_bl s = {.width = (uint32_t)((uint64_t)j->ew * j->f->bytes),
               .height = j->eh,
               .depth = 1,
               .bh = j->t->block_h,
               .bd = j->t->block_d};
    uint32_t gobs_x = (s.width + 63) / 64;
    uint8_t gob[512];
    for (uint32_t gy = 0; gy * 8 < j->eh; gy++) {
        for (uint32_t gx = 0; gx < gobs_x; gx++) {
            uint64_t base = nv_bl_offset(&s, gx * 64, gy * 8, 0), bad;
            if (!buf) {
                if (cg_vas_check(vas, j->t->address + base, sizeof(gob), false, &bad) !=
                    CG_FAULT_NONE)
                    return CG_ERR_FAULT;
                continue;
            }
            int r = cg_vas_read(vas, j->t->address + base, gob, sizeof(gob), NULL);
            if (r)
                return r;
            /* 16-byte runs are contiguous in a GOB (x % 16 is the low part). */
            for (uint32_t y = 0; y < 8; y++)
                for (uint32_t x = 0; x < 64; x += 16)
                    memcpy(buf + y * stride + gx * 64 + x,
                           gob + (nv_bl_offset(&s, gx * 64 + x, gy * 8 + y, 0) - base), 16);
        }
        if (!buf)
            continue;
        uint32_t rows = j->eh - gy * 8 < 8 ? j->eh - gy * 8 : 8;
        for (uint32_t y = 0; y < rows; y++)
            decode_elems(j, buf + y * stride, 0, j->ew, gy * 8 + y);
    }
    return 0;
}

/* Component types and swizzle sources the reader can honour. */
static bool header_decodable(const tex_format *f, const cg_nv_tic *t)
{
    for (unsigned i = 0; i < 4; i++)
        if (t->swizzle[i] == 1 || t->swizzle[i] > 7) /* 1: reserved */
            return false;
    if (f->decode == DEC_PACKED) {
        for (unsigned k = 0; k < 4; k++)
            if (f->bits[k] && !type_ok(t->type[k], f->bits[k]))
                return false;
        return true;
    }
    /* Block formats: UNORM components; BC4/BC5 channels may also be SNORM.
     * (BC6H/BC7 and the other compressed formats are DEC_NONE.) */
    bool rgtc = f->decode == DEC_BC4 || f->decode == DEC_BC5;
    unsigned ncomp = f->decode == DEC_BC4 ? 1 : f->decode == DEC_BC5 ? 2 : 4;
    for (unsigned k = 0; k < ncomp; k++)
        if (t->type[k] != NV_TIC_UNORM && t->type[k] != NV_TIC_UNORM_FORCE_FP16 &&
            !(rgtc && is_snorm(t->type[k])))
            return false;
    return true;
}

int cg_nv_tex_read_rgba8(cg_vas *vas, const cg_nv_tic *t, uint8_t **rgba, uint32_t *width,
                         uint32_t *height)
{
    if (!vas || !t || !rgba || !width || !height)
        return CG_ERR_INVAL;
    *rgba = NULL;
    *width = *height = 0;

    tex_job j = {.f = format_lookup(t->format), .t = t};
    if (!j.f || j.f->decode == DEC_NONE || !header_decodable(j.f, t))
        return CG_ERR_UNSUPPORTED;
    if (t->header_version > CG_NV_TIC_BLOCKLINEAR_COLORKEY)
        return CG_ERR_UNSUPPORTED;
    /* Multisampled textures interleave samples (colour-key headers have no
     * MSAA field: decoded as 0). */
    if (t->msaa_mode != 0)
        return CG_ERR_UNSUPPORTED;

    uint64_t w = t->width, h;
    if (t->header_version == CG_NV_TIC_1D_BUFFER) {
        if (w == 0)
            w = 1ull << 32; /* stored width-1 of 0xFFFFFFFF */
        h = 1;
        if (w > (uint64_t)TEX_MAX_DIM * TEX_MAX_DIM)
            return CG_ERR_RANGE;
    } else {
        /* 1-D kinds: W5 holds layers, not rows; layer 0 is one row. */
        unsigned ty = t->texture_type;
        h = (ty == 0 || ty == 4 || ty == 6) ? 1 : t->height;
        if (w > TEX_MAX_DIM || h > TEX_MAX_DIM)
            return CG_ERR_RANGE;
    }
    bool bl = t->header_version == CG_NV_TIC_BLOCKLINEAR ||
              t->header_version == CG_NV_TIC_BLOCKLINEAR_COLORKEY;
    /* Maxwell block widths are ONE_GOB only (clb097tex.h, quoted by MODS);
     * blocks of more than 32 GOBs do not exist (research/nv.md section 7);
     * a sparse tile width pads rows in a way our sources do not pin down. */
    if (bl && (t->block_w != 0 || t->block_h > 5 || t->block_d > 5 || t->tile_width != 0))
        return CG_ERR_UNSUPPORTED;

    unsigned bw = j.f->compressed ? 4 : 1;
    j.w = (uint32_t)w;
    j.h = (uint32_t)h;
    j.ew = (uint32_t)((w + bw - 1) / bw);
    j.eh = (uint32_t)((h + bw - 1) / bw);

    uint64_t pitch = t->header_version == CG_NV_TIC_1D_BUFFER ? 0 : t->pitch;
    size_t stride = ((size_t)j.ew * j.f->bytes + 63) / 64 * 64; /* <= 4096 * 16 */
    int r = bl ? walk_blocklinear(vas, &j, NULL, stride) : walk_linear(vas, &j, pitch, NULL);
    if (r)
        return r;

    size_t bufsize = bl ? stride * 8 : (size_t)TEX_SEGMENT * j.f->bytes;
    j.out = malloc((size_t)w * (size_t)h * 4);
    uint8_t *buf = malloc(bufsize);
    if (!j.out || !buf) {
        free(j.out);
        free(buf);
        return CG_ERR_NOMEM;
    }
    r = bl ? walk_blocklinear(vas, &j, buf, stride) : walk_linear(vas, &j, pitch, buf);
    free(buf);
    if (r) { /* checked above: only a concurrent unmap gets here */
        free(j.out);
        return r;
    }
    *rgba = j.out;
    *width = j.w;
    *height = j.h;
    return 0;
}
