/* nv textures: TIC and TSC decoding (every field, every header version),
 * the format table, JSON, and texture reads to RGBA8 in pitch, 1-D buffer
 * and block-linear layouts, with exact expected texels worked out here from
 * the documented bit positions and the BC1-BC3 rules (Khronos Data Format
 * 1.3), never from running the code. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "cmdgpu/cmdgpu.h"
#include "cmdgpu/nv3d.h"

/* ---- helpers ---------------------------------------------------------------- */

static uint32_t fld(uint32_t v, unsigned hi, unsigned lo)
{
    uint32_t mask = (uint32_t)((2ull << (hi - lo)) - 1);
    CHECK_EQ(v & ~mask, 0); /* the test never builds a value that does not fit */
    return (v & mask) << lo;
}

static uint32_t fbits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

/* ---- TIC decoding ---------------------------------------------------------- */

/* Words with a distinct value in every field (research/nv.md section 6 and
 * the layout comment in src/nv/gpu/texture.c); W1, W3 15:0, W4 15:0 and W7 are
 * set per version by the caller. */
static void tic_common(uint32_t w[8], unsigned version)
{
    memset(w, 0, 8 * sizeof(uint32_t));
    w[0] = fld(0x24, 6, 0) | fld(1, 9, 7) | fld(2, 12, 10) | fld(3, 15, 13) | fld(7, 18, 16) |
           fld(4, 21, 19) | fld(3, 24, 22) | fld(2, 27, 25) | fld(5, 30, 28) | fld(1, 31, 31);
    w[1] = 0x12345FFF;
    w[2] = fld(0xAB, 15, 0) | fld(0x15, 20, 16) | fld(version, 23, 21) | fld(1, 24, 24) |
           fld(0xA, 28, 25) | fld(5, 31, 29);
    w[3] = fld(1, 16, 16) | fld(0, 17, 17) | fld(1, 18, 18) | fld(2, 20, 19) |
           fld(0x13, 25, 21) | fld(1, 26, 26) | fld(1, 27, 27) | fld(0xB, 31, 28);
    w[4] = fld(0x0FFF, 15, 0) | fld(6, 18, 16) | fld(5, 21, 19) | fld(1, 22, 22) |
           fld(8, 26, 23) | fld(2, 28, 27) | fld(7, 31, 29);
    w[5] = fld(0x01FF, 15, 0) | fld(0x2ABC, 29, 16) | fld(1, 30, 30) | fld(0, 31, 31);
    w[6] = fld(1, 0, 0) | fld(0x15, 5, 1) | fld(0x1F00, 18, 6) | fld(9, 22, 19) |
           fld(3, 24, 23) | fld(1, 26, 25) | fld(6, 29, 27) | fld(2, 31, 30);
    w[7] = fld(3, 3, 0) | fld(9, 7, 4) | fld(0xA, 11, 8) | fld(0xABC, 23, 12) | fld(0x5A, 31, 24);
}

static void check_tic_common(const cg_nv_tic *t, const uint32_t w[8], unsigned version)
{
    for (unsigned i = 0; i < 8; i++)
        CHECK_EQ(t->raw[i], w[i]);
    CHECK_EQ(t->format, 0x24);
    CHECK_EQ(t->type[0], 1);
    CHECK_EQ(t->type[1], 2);
    CHECK_EQ(t->type[2], 3);
    CHECK_EQ(t->type[3], 7);
    CHECK_EQ(t->swizzle[0], 4);
    CHECK_EQ(t->swizzle[1], 3);
    CHECK_EQ(t->swizzle[2], 2);
    CHECK_EQ(t->swizzle[3], 5);
    CHECK(t->pack);
    CHECK_EQ(t->header_version, version);
    CHECK_EQ(t->layer_base, (5u << 8) | (0x15u << 3) | 6u); /* 0x5AE */
    CHECK(t->load_store_hint);
    CHECK_EQ(t->view_coherency_hash, 0xA);
    CHECK(t->lod_aniso_quality2);
    CHECK(!t->lod_aniso_quality);
    CHECK(t->lod_iso_quality);
    CHECK_EQ(t->aniso_coarse_spread_modifier, 2);
    CHECK_EQ(t->aniso_spread_scale, 0x13);
    CHECK(t->use_header_opt_control);
    CHECK(t->depth_texture);
    CHECK_EQ(t->max_mip_level, 0xB);
    CHECK_EQ(t->aniso_spread_max_log2, 5);
    CHECK(t->srgb);
    CHECK_EQ(t->texture_type, 8);
    CHECK_EQ(t->sector_promotion, 2);
    CHECK_EQ(t->border_size, 7);
    CHECK_EQ(t->height, 0x200);
    CHECK_EQ(t->depth, 0x2ABD);
    CHECK(t->sparse);
    CHECK(!t->normalized_coords);
    CHECK(t->color_key_op);
    CHECK_EQ(t->trilin_opt, 0x15);
    CHECK_EQ(t->lod_bias, -256); /* 0x1F00 as 13-bit two's complement */
    CHECK_EQ(t->aniso_bias, 9);
    CHECK_EQ(t->aniso_fine_spread_func, 3);
    CHECK_EQ(t->aniso_coarse_spread_func, 1);
    CHECK_EQ(t->max_anisotropy, 6);
    CHECK_EQ(t->aniso_fine_spread_modifier, 2);
}

static void check_w7_fields(const cg_nv_tic *t)
{
    CHECK_EQ(t->res_view_min_mip, 3);
    CHECK_EQ(t->res_view_max_mip, 9);
    CHECK_EQ(t->msaa_mode, 0xA);
    CHECK_EQ(t->min_lod_clamp, 0xABC);
    CHECK_EQ(t->color_key, 0);
}

static void check_colorkey(const cg_nv_tic *t)
{
    CHECK_EQ(t->color_key, 0xCAFEF00D);
    CHECK_EQ(t->res_view_min_mip, 0);
    CHECK_EQ(t->res_view_max_mip, 0);
    CHECK_EQ(t->msaa_mode, 0);
    CHECK_EQ(t->min_lod_clamp, 0);
}

static void test_tic_blocklinear(void)
{
    for (unsigned ck = 0; ck < 2; ck++) {
        unsigned version = ck ? CG_NV_TIC_BLOCKLINEAR_COLORKEY : CG_NV_TIC_BLOCKLINEAR;
        uint32_t w[8];
        tic_common(w, version);
        w[3] |= fld(1, 2, 0) | fld(4, 5, 3) | fld(2, 8, 6) | fld(3, 12, 10) | fld(1, 13, 13);
        if (ck)
            w[7] = 0xCAFEF00D;
        cg_nv_tic t;
        cg_nv_tic_decode(w, &t);
        check_tic_common(&t, w, version);
        CHECK_EQ(t.address, 0xAB12345E00ull); /* W1 8:0 are not address bits */
        CHECK_EQ(t.block_w, 1);
        CHECK_EQ(t.block_h, 4);
        CHECK_EQ(t.block_d, 2);
        CHECK_EQ(t.tile_width, 3);
        CHECK(t.gob_3d);
        CHECK_EQ(t.pitch, 0);
        CHECK_EQ(t.width, 0x1000);
        if (ck)
            check_colorkey(&t);
        else
            check_w7_fields(&t);
    }
}

static void test_tic_pitch(void)
{
    for (unsigned ck = 0; ck < 2; ck++) {
        unsigned version = ck ? CG_NV_TIC_PITCH_COLORKEY : CG_NV_TIC_PITCH;
        uint32_t w[8];
        tic_common(w, version);
        w[3] |= fld(0x1234, 15, 0);
        if (ck)
            w[7] = 0xCAFEF00D;
        cg_nv_tic t;
        cg_nv_tic_decode(w, &t);
        check_tic_common(&t, w, version);
        CHECK_EQ(t.address, 0xAB12345FE0ull); /* W1 4:0 are not address bits */
        CHECK_EQ(t.pitch, 0x1234u << 5);
        CHECK_EQ(t.block_w, 0); /* W3 15:0 is the pitch here */
        CHECK_EQ(t.block_h, 0);
        CHECK_EQ(t.block_d, 0);
        CHECK_EQ(t.tile_width, 0);
        CHECK(!t.gob_3d);
        CHECK_EQ(t.width, 0x1000);
        if (ck)
            check_colorkey(&t);
        else
            check_w7_fields(&t);
    }
}

static void test_tic_1d_buffer(void)
{
    uint32_t w[8];
    tic_common(w, CG_NV_TIC_1D_BUFFER);
    w[3] |= fld(0x0002, 15, 0);
    cg_nv_tic t;
    cg_nv_tic_decode(w, &t);
    check_tic_common(&t, w, CG_NV_TIC_1D_BUFFER);
    CHECK_EQ(t.address, 0xAB12345FFFull); /* all 32 bits of W1 */
    CHECK_EQ(t.width, 0x21000u);           /* (0x0002 << 16 | 0x0FFF) + 1 */
    CHECK_EQ(t.pitch, 0);
    CHECK_EQ(t.block_h, 0);
    check_w7_fields(&t);

    /* The largest stored width-1 wraps to 0 (2^32 does not fit). */
    w[3] |= 0xFFFF;
    w[4] |= 0xFFFF;
    cg_nv_tic_decode(w, &t);
    CHECK_EQ(t.width, 0);

    /* Positive LOD bias, normalized coordinates, other header versions
     * (reserved values are kept as numbers). */
    tic_common(w, 7);
    w[5] |= 1u << 31;
    w[6] = (w[6] & ~fld(0x1FFF, 18, 6)) | fld(0x0140, 18, 6);
    cg_nv_tic_decode(w, &t);
    CHECK_EQ(t.header_version, 7);
    CHECK(t.normalized_coords);
    CHECK_EQ(t.lod_bias, 0x140);
    CHECK_EQ(t.address, 0xAB12345FFFull);
}

/* ---- TSC decoding ---------------------------------------------------------- */

static void tsc_words(uint32_t w[8])
{
    w[0] = fld(7, 2, 0) | fld(2, 5, 3) | fld(4, 8, 6) | fld(1, 9, 9) | fld(5, 12, 10) |
           fld(1, 13, 13) | fld(3, 16, 14) | fld(6, 19, 17) | fld(7, 22, 20) | 0xFF800000u;
    w[1] = fld(2, 1, 0) | fld(1, 5, 4) | fld(3, 7, 6) | fld(1, 8, 8) | fld(0, 9, 9) |
           fld(2, 11, 10) | fld(0x1E80, 24, 12) | fld(1, 25, 25) | fld(0x1B, 30, 26);
    w[2] = fld(0x180, 11, 0) | fld(0xD00, 23, 12) | fld(0xC8, 31, 24);
    w[3] = 0xFFF | fld(0x7F, 19, 12) | fld(0x01, 27, 20) | 0xF0000000u;
    w[4] = fbits(0.25f);
    w[5] = fbits(1.0f);
    w[6] = fbits(-2.0f);
    w[7] = fbits(0.5f);
}

static void test_tsc(void)
{
    uint32_t w[8];
    tsc_words(w);
    cg_nv_tsc s;
    cg_nv_tsc_decode(w, &s);
    for (unsigned i = 0; i < 8; i++)
        CHECK_EQ(s.raw[i], w[i]);
    CHECK_EQ(s.wrap_u, 7);
    CHECK_EQ(s.wrap_v, 2);
    CHECK_EQ(s.wrap_p, 4);
    CHECK(s.depth_compare);
    CHECK_EQ(s.depth_compare_func, 5);
    CHECK(s.srgb_conversion);
    CHECK_EQ(s.font_filter_width, 3);
    CHECK_EQ(s.font_filter_height, 6);
    CHECK_EQ(s.max_anisotropy, 7);
    CHECK_EQ(s.mag_filter, 2);
    CHECK_EQ(s.min_filter, 1);
    CHECK_EQ(s.mip_filter, 3);
    CHECK(s.cubemap_anisotropy);
    CHECK(!s.cubemap_interface_filtering);
    CHECK_EQ(s.reduction_filter, 2);
    CHECK(s.mip_lod_bias == -1.5f); /* 0x1E80 - 0x2000 = -384 = -1.5 * 256 */
    CHECK(s.float_coord_normalization);
    CHECK_EQ(s.trilin_opt, 0x1B);
    CHECK(s.min_lod_clamp == 1.5f); /* 0x180 / 256 */
    CHECK(s.max_lod_clamp == 13.0f); /* 0xD00 / 256 */
    CHECK_EQ(s.srgb_border_color[0], 0xC8);
    CHECK_EQ(s.srgb_border_color[1], 0x7F);
    CHECK_EQ(s.srgb_border_color[2], 0x01);
    CHECK(s.border_color[0] == 0.25f);
    CHECK(s.border_color[1] == 1.0f);
    CHECK(s.border_color[2] == -2.0f);
    CHECK(s.border_color[3] == 0.5f);

    w[1] = (w[1] & ~fld(0x1FFF, 24, 12)) | fld(0x0140, 24, 12);
    w[2] = fld(0xFFF, 23, 12);
    cg_nv_tsc_decode(w, &s);
    CHECK(s.mip_lod_bias == 1.25f);
    CHECK(s.min_lod_clamp == 0.0f);
    CHECK(s.max_lod_clamp == 4095.0f / 256.0f);
    CHECK_EQ(s.srgb_border_color[0], 0);
}

/* ---- the format table -------------------------------------------------------- */

typedef struct def_row {
    const char *name;
    unsigned code, bytes, compressed, packed, bits[4];
} def_row;

enum { NONE, PACKED, BC1, BC2, BC3, BC4, BC5 };
static const def_row def_rows[] = {
#define FMT(name, code, bytes, comp, dec, r, g, b, a)                                      \
    {#name, code, bytes, comp, dec, {r, g, b, a}},
#include "nv/tables/tex_formats.def"
#undef FMT
};

static void test_formats(void)
{
    size_t n = sizeof(def_rows) / sizeof(def_rows[0]);
    CHECK(n >= 30);
    for (size_t i = 0; i < n; i++) {
        const def_row *r = &def_rows[i];
        if (i)
            CHECK(r->code > def_rows[i - 1].code);
        CHECK(r->code < 128);
        bool comp = true;
        CHECK_STR(cg_nv_tex_format_name(r->code), r->name);
        CHECK_EQ(cg_nv_tex_format_bytes(r->code, &comp), r->bytes);
        CHECK_EQ(comp, r->compressed != 0);
        if (r->packed == PACKED) {
            unsigned sum = r->bits[0] + r->bits[1] + r->bits[2] + r->bits[3];
            CHECK(sum > 0 && sum <= r->bytes * 8);
            for (unsigned k = 0; k < 4; k++)
                CHECK(r->bits[k] <= 32);
            CHECK(!r->compressed);
        }
        if (r->packed >= BC1)
            CHECK(r->compressed);
    }
    /* Codes from yuzu texture.h TextureFormat, names from NVIDIA's. */
    CHECK_STR(cg_nv_tex_format_name(0x08), "A8B8G8R8");
    CHECK_STR(cg_nv_tex_format_name(0x24), "DXT1");
    CHECK_STR(cg_nv_tex_format_name(0x25), "DXT23");
    CHECK_STR(cg_nv_tex_format_name(0x26), "DXT45");
    CHECK_STR(cg_nv_tex_format_name(0x27), "DXN1");
    CHECK_STR(cg_nv_tex_format_name(0x28), "DXN2");
    CHECK_STR(cg_nv_tex_format_name(0x15), "B5G6R5");
    CHECK_STR(cg_nv_tex_format_name(0x14), "A1B5G5R5");
    CHECK_STR(cg_nv_tex_format_name(0x18), "G8R8");
    CHECK_STR(cg_nv_tex_format_name(0x1d), "R8");
    CHECK_STR(cg_nv_tex_format_name(0x29), "S8Z24");
    CHECK_STR(cg_nv_tex_format_name(0x2b), "Z24S8");
    bool comp = true;
    CHECK_EQ(cg_nv_tex_format_bytes(0x01, &comp), 16);
    CHECK(!comp);
    CHECK_EQ(cg_nv_tex_format_bytes(0x24, &comp), 8);
    CHECK(comp);
    CHECK_EQ(cg_nv_tex_format_bytes(0x26, NULL), 16);
    CHECK(cg_nv_tex_format_name(0x00) == NULL);
    CHECK(cg_nv_tex_format_name(0x7F) == NULL);
    CHECK(cg_nv_tex_format_name(0x1000008) == NULL);
    comp = true;
    CHECK_EQ(cg_nv_tex_format_bytes(0x7F, &comp), 0);
    CHECK(!comp);
}

/* ---- JSON ---------------------------------------------------------------------- */

/* Print through a temporary file; returns a malloc'ed string. */
static char *json_of(const cg_nv_tic *t, const cg_nv_tsc *s)
{
    FILE *f = tmpfile();
    CHECK(f != NULL);
    if (!f)
        return NULL;
    if (t)
        cg_nv_tic_print_json(f, t);
    else
        cg_nv_tsc_print_json(f, s);
    long n = ftell(f);
    rewind(f);
    char *buf = calloc((size_t)n + 1, 1);
    CHECK_EQ(fread(buf, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    return buf;
}

/* Brackets balance outside strings and the text is one object. */
static bool json_shape_ok(const char *s)
{
    int depth = 0;
    bool str = false;
    size_t n = strlen(s);
    if (n < 2 || s[0] != '{' || s[n - 1] != '}')
        return false;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (str) {
            if (c == '\\')
                i++;
            else if (c == '"')
                str = false;
            continue;
        }
        if (c == '"')
            str = true;
        else if (c == '{' || c == '[')
            depth++;
        else if (c == '}' || c == ']')
            depth--;
        if (depth == 0 && i != n - 1)
            return false;
    }
    return depth == 0 && !str;
}

static bool has(const char *hay, const char *needle)
{
    bool ok = hay && strstr(hay, needle) != NULL;
    if (!ok)
        fprintf(stderr, "missing %s in %s\n", needle, hay ? hay : "(null)");
    return ok;
}

static void test_json(void)
{
    uint32_t w[8];
    tic_common(w, CG_NV_TIC_BLOCKLINEAR);
    w[3] |= fld(4, 5, 3);
    cg_nv_tic t;
    cg_nv_tic_decode(w, &t);
    char *j = json_of(&t, NULL);
    CHECK(json_shape_ok(j));
    CHECK(has(j, "\"format\":36,\"format_name\":\"DXT1\""));
    CHECK(has(j, "\"format_bytes\":8,\"compressed\":true"));
    CHECK(has(j, "\"r_type\":\"SNORM\",\"g_type\":\"UNORM\",\"b_type\":\"SINT\","
                 "\"a_type\":\"FLOAT\""));
    CHECK(has(j, "\"x_source\":\"B\",\"y_source\":\"G\",\"z_source\":\"R\",\"w_source\":\"A\""));
    CHECK(has(j, "\"header_version\":\"BLOCKLINEAR\""));
    CHECK(has(j, "\"address\":\"0xab12345e00\""));
    CHECK(has(j, "\"block_height_log2\":4"));
    CHECK(has(j, "\"width\":4096,\"height\":512,\"depth\":10941"));
    CHECK(has(j, "\"texture_type\":\"CUBE_ARRAY\""));
    CHECK(has(j, "\"lod_bias\":-1,"));
    CHECK(has(j, "\"max_anisotropy\":\"12_TO_1\""));
    CHECK(has(j, "\"min_lod_clamp\":10.734375")); /* 0xABC / 256 */
    CHECK(has(j, "\"raw\":[\"0xd4e768a4\",\"0x12345fff\""));
    free(j);

    /* Reserved enum values come out as numbers. */
    w[0] = (w[0] & ~fld(7, 21, 19)) | fld(1, 21, 19);
    w[0] = (w[0] & ~fld(0x7F, 6, 0)) | fld(0x7F, 6, 0);
    w[2] = (w[2] & ~fld(7, 23, 21)) | fld(6, 23, 21);
    cg_nv_tic_decode(w, &t);
    j = json_of(&t, NULL);
    CHECK(json_shape_ok(j));
    CHECK(has(j, "\"format_name\":null"));
    CHECK(has(j, "\"x_source\":1,"));
    CHECK(has(j, "\"header_version\":6,"));
    free(j);

    cg_nv_tsc s;
    tsc_words(w);
    cg_nv_tsc_decode(w, &s);
    j = json_of(NULL, &s);
    CHECK(json_shape_ok(j));
    CHECK(has(j, "\"wrap_u\":\"MIRROR_ONCE_CLAMP_OGL\",\"wrap_v\":\"CLAMP_TO_EDGE\","
                 "\"wrap_p\":\"CLAMP_OGL\""));
    CHECK(has(j, "\"depth_compare\":true,\"depth_compare_func\":\"NOTEQUAL\""));
    CHECK(has(j, "\"max_anisotropy\":\"16_TO_1\""));
    CHECK(has(j, "\"mag_filter\":\"LINEAR\",\"min_filter\":\"NEAREST\","
                 "\"mip_filter\":\"LINEAR\""));
    CHECK(has(j, "\"reduction_filter\":\"MAX\""));
    CHECK(has(j, "\"mip_lod_bias\":-1.5"));
    CHECK(has(j, "\"min_lod_clamp\":1.5,\"max_lod_clamp\":13"));
    CHECK(has(j, "\"srgb_border_color\":[200,127,1]"));
    CHECK(has(j, "\"border_color\":[0.25,1,-2,0.5]"));
    free(j);

    /* Non-finite border colours are not JSON numbers. */
    w[4] = 0x7FC00000; /* NaN */
    w[5] = 0x7F800000; /* +inf */
    cg_nv_tsc_decode(w, &s);
    j = json_of(NULL, &s);
    CHECK(json_shape_ok(j));
    CHECK(has(j, "\"border_color\":[null,null,-2,0.5]"));
    free(j);
}

/* ---- texture reads --------------------------------------------------------------- */

#define TEX_VA 0x40000000ull
#define TEX_MEM (4ull << 20)

typedef struct tenv {
    cg_device *dev;
    cg_vas *vas;
    cg_mem *mem;
} tenv;

static void tenv_init(tenv *e)
{
    CHECK_EQ(cg_device_create(&e->dev), 0);
    CHECK_EQ(cg_vas_create(e->dev, NULL, &e->vas), 0);
    CHECK_EQ(cg_mem_create(e->dev, TEX_MEM, 0, &e->mem), 0);
    cg_map_params p = {.mem = e->mem, .size = TEX_MEM, .va = TEX_VA, .flags = CG_MAP_FIXED};
    uint64_t va = 0;
    CHECK_EQ(cg_vas_map(e->vas, &p, &va), 0);
    CHECK_EQ(va, TEX_VA);
}

static void tenv_fini(tenv *e)
{
    CHECK_EQ(cg_fault_count(e->dev), 0); /* reads never post faults */
    cg_vas_destroy(e->vas);
    cg_mem_unref(e->mem);
    cg_device_destroy(e->dev);
}

static void put(tenv *e, uint64_t off, const void *src, size_t n)
{
    CHECK_EQ(cg_mem_write(e->mem, off, src, n), 0);
}

/* Swizzles: X Y Z W sources. */
#define SW_ID 2, 3, 4, 5

/* A TIC for a 2-D texture: format, one component type for all four, swizzle,
 * header version, address, size, and W3 15:0 (pitch >> 5, or block sizes). */
static cg_nv_tic make_tic(unsigned fmt, unsigned type, unsigned sx, unsigned sy, unsigned sz,
                          unsigned sw, unsigned version, uint64_t va, uint32_t w, uint32_t h,
                          uint32_t w3)
{
    uint32_t words[8] = {0};
    words[0] = fld(fmt, 6, 0) | fld(type, 9, 7) | fld(type, 12, 10) | fld(type, 15, 13) |
               fld(type, 18, 16) | fld(sx, 21, 19) | fld(sy, 24, 22) | fld(sz, 27, 25) |
               fld(sw, 30, 28);
    words[1] = (uint32_t)va;
    words[2] = fld((uint32_t)(va >> 32), 15, 0) | fld(version, 23, 21);
    if (version == CG_NV_TIC_1D_BUFFER) {
        words[3] = fld((w - 1) >> 16, 15, 0);
        words[4] = fld((w - 1) & 0xFFFF, 15, 0) | fld(6, 26, 23);
    } else {
        words[3] = fld(w3, 15, 0);
        words[4] = fld(w - 1, 15, 0) | fld(1, 26, 23); /* 2D */
        words[5] = fld(h - 1, 15, 0);
    }
    cg_nv_tic t;
    cg_nv_tic_decode(words, &t);
    return t;
}

/* Read and compare with the expected w x h RGBA8 image. */
static void expect_read(tenv *e, const cg_nv_tic *t, uint32_t w, uint32_t h,
                        const uint8_t *want)
{
    uint8_t *px = NULL;
    uint32_t gw = 0, gh = 0;
    CHECK_EQ(cg_nv_tex_read_rgba8(e->vas, t, &px, &gw, &gh), 0);
    CHECK_EQ(gw, w);
    CHECK_EQ(gh, h);
    if (px && gw == w && gh == h)
        CHECK_MEM(px, want, (size_t)w * h * 4);
    free(px);
}

static void expect_err(tenv *e, const cg_nv_tic *t, int err)
{
    uint8_t *px = (uint8_t *)&px;
    uint32_t gw = 1, gh = 1;
    CHECK_EQ(cg_nv_tex_read_rgba8(e->vas, t, &px, &gw, &gh), err);
    CHECK(px == NULL);
    CHECK_EQ(gw, 0);
    CHECK_EQ(gh, 0);
}

static void test_read_pitch_rgba(void)
{
    tenv e;
    tenv_init(&e);
    /* A8B8G8R8 3x2, pitch 32 (W3 = 1): R in bits 7:0, i.e. byte 0. */
    const uint8_t row0[12] = {10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 110, 120};
    const uint8_t row1[12] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
    put(&e, 0x1000, row0, 12);
    put(&e, 0x1020, row1, 12);
    cg_nv_tic t = make_tic(0x08, 2, SW_ID, CG_NV_TIC_PITCH, TEX_VA + 0x1000, 3, 2, 1);
    uint8_t want[24];
    memcpy(want, row0, 12);
    memcpy(want + 12, row1, 12);
    expect_read(&e, &t, 3, 2, want);

    /* A8R8G8B8: the same bytes read as B G R A, so the swizzle takes output
     * R from component B (byte 2) and B from component R (byte 0). */
    const uint8_t bgra[4] = {0x11, 0x22, 0x33, 0x44};
    put(&e, 0x2000, bgra, 4);
    t = make_tic(0x08, 2, 4, 3, 2, 5, CG_NV_TIC_PITCH, TEX_VA + 0x2000, 1, 1, 1);
    expect_read(&e, &t, 1, 1, (const uint8_t[]){0x33, 0x22, 0x11, 0x44});

    /* Swizzle ZERO / ONE_INT / ONE_FLOAT. */
    t = make_tic(0x08, 2, 0, 6, 7, 2, CG_NV_TIC_PITCH, TEX_VA + 0x2000, 1, 1, 1);
    expect_read(&e, &t, 1, 1, (const uint8_t[]){0, 255, 255, 0x11});

    /* Pitch 64 with width 2 of R8: row y at +64 y. */
    put(&e, 0x3000, (const uint8_t[]){0x80, 0x01}, 2);
    put(&e, 0x3040, (const uint8_t[]){0xFF, 0x00}, 2);
    t = make_tic(0x1d, 2, SW_ID, CG_NV_TIC_PITCH_COLORKEY, TEX_VA + 0x3000, 2, 2, 2);
    /* Components a format lacks: R G B 0, alpha 1. */
    expect_read(&e, &t, 2, 2,
                (const uint8_t[]){0x80, 0, 0, 255, 0x01, 0, 0, 255, 0xFF, 0, 0, 255, 0, 0, 0, 255});
    /* R8 broadcast to RGB, ONE_FLOAT alpha. */
    t = make_tic(0x1d, 2, 2, 2, 2, 7, CG_NV_TIC_PITCH, TEX_VA + 0x3000, 1, 1, 2);
    expect_read(&e, &t, 1, 1, (const uint8_t[]){0x80, 0x80, 0x80, 255});

    /* G8R8: R byte 0, G byte 1. */
    put(&e, 0x4000, (const uint8_t[]){0x12, 0x34}, 2);
    t = make_tic(0x18, 2, SW_ID, CG_NV_TIC_PITCH, TEX_VA + 0x4000, 1, 1, 1);
    expect_read(&e, &t, 1, 1, (const uint8_t[]){0x12, 0x34, 0, 255});
    tenv_fini(&e);
}

static void put16(tenv *e, uint64_t off, const uint16_t *v, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        uint8_t b[2] = {(uint8_t)v[i], (uint8_t)(v[i] >> 8)};
        put(e, off + 2 * i, b, 2);
    }
}

static void test_read_pitch_packed16(void)
{
    tenv e;
    tenv_init(&e);
    /* B5G6R5, named most significant first: R 4:0, G 10:5, B 15:11.
     * UNORM n bits: round(v * 255 / (2^n - 1)): 16/31 -> 131.6 -> 132,
     * 32/63 -> 129.5 -> 130 (exactly 8160/63 = 129.52). */
    const uint16_t t565[5] = {0x001F, 0x07E0, 0xF800, 0x0010, 0x0400};
    put16(&e, 0x1000, t565, 5);
    cg_nv_tic t = make_tic(0x15, 2, SW_ID, CG_NV_TIC_PITCH, TEX_VA + 0x1000, 5, 1, 1);
    expect_read(&e, &t, 5, 1,
                (const uint8_t[]){255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255,
                                  132, 0, 0, 255, 0, 130, 0, 255});

    /* A1B5G5R5: R 4:0, G 9:5, B 14:10, A 15. 8/31 -> 65.8 -> 66. */
    const uint16_t t1555[2] = {0x8000 | (31u << 10) | 8, 0x03E0};
    put16(&e, 0x2000, t1555, 2);
    t = make_tic(0x14, 2, SW_ID, CG_NV_TIC_PITCH, TEX_VA + 0x2000, 2, 1, 1);
    expect_read(&e, &t, 2, 1, (const uint8_t[]){66, 0, 255, 255, 0, 255, 0, 0});

    /* R16G16B16A16 UNORM: 0xFFFF -> 255, 0x8000 -> 128.0019 -> 128, 0x0101 -> 1,
     * 0 -> 0. */
    const uint16_t t16[4] = {0xFFFF, 0x8000, 0x0101, 0};
    put16(&e, 0x3000, t16, 4);
    t = make_tic(0x03, 2, SW_ID, CG_NV_TIC_PITCH, TEX_VA + 0x3000, 1, 1, 1);
    expect_read(&e, &t, 1, 1, (const uint8_t[]){255, 128, 1, 0});
    /* The same as half floats: 1.0 (0x3C00), 0.5 (0x3800), -2 (0xC000), 65504. */
    const uint16_t th[4] = {0x3C00, 0x3800, 0xC000, 0x7BFF};
    put16(&e, 0x3100, th, 4);
    t = make_tic(0x03, 7, SW_ID, CG_NV_TIC_PITCH, TEX_VA + 0x3100, 1, 1, 1);
    expect_read(&e, &t, 1, 1, (const uint8_t[]){255, 128, 0, 255});
    tenv_fini(&e);
}

static void test_read_types(void)
{
    tenv e;
    tenv_init(&e);
    const uint8_t r8[4] = {0x7F, 0x81, 0x40, 0xF0};
    put(&e, 0x1000, r8, 4);
    /* SNORM: 127 -> 1.0 -> 255; -127 -> 0 (negative clamps); 64/127 * 255 =
     * 128.5 -> 129 (16383 / 127 = 129.0); -16 -> 0. */
    cg_nv_tic t = make_tic(0x1d, 1, SW_ID, CG_NV_TIC_PITCH, TEX_VA + 0x1000, 4, 1, 1);
    expect_read(&e, &t, 4, 1,
                (const uint8_t[]){255, 0, 0, 255, 0, 0, 0, 255, 129, 0, 0, 255, 0, 0, 0, 255});
    /* UINT: values clamp to 255 (none here); SINT: negatives clamp to 0. */
    t = make_tic(0x1d, 4, SW_ID, CG_NV_TIC_PITCH, TEX_VA + 0x1000, 4, 1, 1);
    expect_read(&e, &t, 4, 1,
                (const uint8_t[]){127, 0, 0, 255, 129, 0, 0, 255, 64, 0, 0, 255, 240, 0, 0, 255});
    t = make_tic(0x1d, 3, SW_ID, CG_NV_TIC_PITCH, TEX_VA + 0x1000, 4, 1, 1);
    expect_read(&e, &t, 4, 1,
                (const uint8_t[]){127, 0, 0, 255, 0, 0, 0, 255, 64, 0, 0, 255, 0, 0, 0, 255});
    /* R32 FLOAT: 0.5 -> 127.5 + 0.5 -> 128; 2.0 -> 255; -1 -> 0; NaN -> 0. */
    const uint32_t f32[4] = {fbits(0.5f), fbits(2.0f), fbits(-1.0f), 0x7FC00000};
    for (unsigned i = 0; i < 4; i++) {
        uint8_t b[4] = {(uint8_t)f32[i], (uint8_t)(f32[i] >> 8), (uint8_t)(f32[i] >> 16),
                        (uint8_t)(f32[i] >> 24)};
        put(&e, 0x2000 + 4 * i, b, 4);
    }
    t = make_tic(0x0f, 7, SW_ID, CG_NV_TIC_PITCH, TEX_VA + 0x2000, 4, 1, 1);
    expect_read(&e, &t, 4, 1,
                (const uint8_t[]){128, 0, 0, 255, 255, 0, 0, 255, 0, 0, 0, 255, 0, 0, 0, 255});
    /* UINT R32 above 255 clamps. */
    const uint8_t big[4] = {0x00, 0x01, 0x00, 0x00};
    put(&e, 0x2100, big, 4);
    t = make_tic(0x0f, 4, SW_ID, CG_NV_TIC_PITCH, TEX_VA + 0x2100, 1, 1, 1);
    expect_read(&e, &t, 1, 1, (const uint8_t[]){255, 0, 0, 255});

    /* FLOAT on 8-bit components, reserved type 0, reserved swizzle 1. */
    t = make_tic(0x1d, 7, SW_ID, CG_NV_TIC_PITCH, TEX_VA + 0x1000, 4, 1, 1);
    expect_err(&e, &t, CG_ERR_UNSUPPORTED);
    t = make_tic(0x1d, 0, SW_ID, CG_NV_TIC_PITCH, TEX_VA + 0x1000, 4, 1, 1);
    expect_err(&e, &t, CG_ERR_UNSUPPORTED);
    t = make_tic(0x1d, 2, 1, 3, 4, 5, CG_NV_TIC_PITCH, TEX_VA + 0x1000, 4, 1, 1);
    expect_err(&e, &t, CG_ERR_UNSUPPORTED);
    /* Block formats decode UNORM (and SNORM for BC4/BC5) only. */
    t = make_tic(0x24, 1, SW_ID, CG_NV_TIC_PITCH, TEX_VA + 0x1000, 4, 4, 1);
    expect_err(&e, &t, CG_ERR_UNSUPPORTED);
    t = make_tic(0x27, 3, SW_ID, CG_NV_TIC_PITCH, TEX_VA + 0x1000, 4, 4, 1);
    expect_err(&e, &t, CG_ERR_UNSUPPORTED);
    tenv_fini(&e);
}

/* ---- BC blocks, built from the spec's bit layout ---- */

static void bc1_block(uint8_t b[8], uint16_t c0, uint16_t c1, const unsigned idx[16])
{
    b[0] = (uint8_t)c0;
    b[1] = (uint8_t)(c0 >> 8);
    b[2] = (uint8_t)c1;
    b[3] = (uint8_t)(c1 >> 8);
    uint32_t bits = 0;
    for (unsigned i = 0; i < 16; i++)
        bits |= (uint32_t)idx[i] << (2 * i);
    for (unsigned i = 0; i < 4; i++)
        b[4 + i] = (uint8_t)(bits >> (8 * i));
}

static void bc_alpha_block(uint8_t b[8], uint8_t a0, uint8_t a1, const unsigned idx[16])
{
    b[0] = a0;
    b[1] = a1;
    uint64_t bits = 0;
    for (unsigned i = 0; i < 16; i++)
        bits |= (uint64_t)idx[i] << (3 * i);
    for (unsigned i = 0; i < 6; i++)
        b[2 + i] = (uint8_t)(bits >> (8 * i));
}

static const unsigned idx_col[16] = {0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3};

static void set_px(uint8_t *img, uint32_t w, uint32_t x, uint32_t y, const uint8_t c[4])
{
    memcpy(img + ((size_t)y * w + x) * 4, c, 4);
}

static void test_read_bc1(void)
{
    tenv e;
    tenv_init(&e);
    uint8_t blk[8];
    /* 4-colour mode: color0 red 0xF800 > color1 blue 0x001F. 5-bit 31 -> 255;
     * colour 2 = 2/3 c0 + 1/3 c1 = (170, 0, 85), colour 3 = (85, 0, 170). */
    bc1_block(blk, 0xF800, 0x001F, idx_col);
    put(&e, 0x1000, blk, 8);
    const uint8_t pal4[4][4] = {{255, 0, 0, 255}, {0, 0, 255, 255}, {170, 0, 85, 255},
                                {85, 0, 170, 255}};
    /* 3-colour mode: color0 0 <= color1 (2, 4, 2) -> (16, 16, 16) by bit
     * replication; colour 2 the midpoint (8, 8, 8), colour 3 transparent black. */
    bc1_block(blk, 0x0000, (2u << 11) | (4u << 5) | 2u, idx_col);
    put(&e, 0x1008, blk, 8);
    const uint8_t pal3[4][4] = {{0, 0, 0, 255}, {16, 16, 16, 255}, {8, 8, 8, 255}, {0, 0, 0, 0}};
    /* color0 == color1 is also the 3-colour mode. */
    bc1_block(blk, 0x1082, 0x1082, (const unsigned[16]){3, 3, 3, 3, 2, 2, 2, 2, 1, 1, 1, 1, 0,
                                                         0, 0, 0});
    put(&e, 0x1020, blk, 8); /* second block row (pitch 32) */

    /* 8x8 texels = 2x2 blocks; pitch 32; the block at (1, 1) is left zero:
     * c0 = c1 = 0 -> 3-colour mode, index 0 -> opaque black. */
    cg_nv_tic t = make_tic(0x24, 2, SW_ID, CG_NV_TIC_PITCH, TEX_VA + 0x1000, 8, 8, 1);
    static const uint8_t black[4] = {0, 0, 0, 255};
    static const uint8_t grey_rows[4][4] = {{0, 0, 0, 0}, {16, 16, 16, 255},
                                            {16, 16, 16, 255}, {16, 16, 16, 255}};
    uint8_t want[8 * 8 * 4];
    for (uint32_t y = 0; y < 8; y++) {
        for (uint32_t x = 0; x < 8; x++) {
            const uint8_t *c;
            if (y < 4)
                c = x < 4 ? pal4[x % 4] : pal3[x % 4];
            else if (x < 4)
                c = grey_rows[y % 4];
            else
                c = black;
            set_px(want, 8, x, y, c);
        }
    }
    /* Row y%4 of block (0, 1): indices 3, 2, 1, 0 -> transparent, midpoint,
     * color1, color0, all (16, 16, 16) since color0 = color1. */
    expect_read(&e, &t, 8, 8, want);

    /* A texture that is not a multiple of 4 (5x3) keeps only its texels. */
    t = make_tic(0x24, 2, SW_ID, CG_NV_TIC_PITCH, TEX_VA + 0x1000, 5, 3, 1);
    uint8_t want5[5 * 3 * 4];
    for (uint32_t y = 0; y < 3; y++)
        for (uint32_t x = 0; x < 5; x++)
            set_px(want5, 5, x, y, x < 4 ? pal4[x] : pal3[0]);
    expect_read(&e, &t, 5, 3, want5);
    tenv_fini(&e);
}

static void test_read_bc23(void)
{
    tenv e;
    tenv_init(&e);
    /* BC2: texel i has 4-bit alpha i -> i * 17; nibbles low first. The colour
     * block has color0 blue < color1 red, yet BC2 always uses 4 colours:
     * colour 2 = 2/3 blue + 1/3 red = (85, 0, 170), colour 3 = (170, 0, 85). */
    uint8_t blk[16];
    for (unsigned k = 0; k < 8; k++)
        blk[k] = (uint8_t)((2 * k) | (2 * k + 1) << 4);
    bc1_block(blk + 8, 0x001F, 0xF800, idx_col);
    put(&e, 0x1000, blk, 16);
    cg_nv_tic t = make_tic(0x25, 2, SW_ID, CG_NV_TIC_PITCH, TEX_VA + 0x1000, 4, 4, 1);
    const uint8_t col[4][3] = {{0, 0, 255}, {255, 0, 0}, {85, 0, 170}, {170, 0, 85}};
    uint8_t want[64];
    for (unsigned i = 0; i < 16; i++) {
        const uint8_t c[4] = {col[i % 4][0], col[i % 4][1], col[i % 4][2], (uint8_t)(i * 17)};
        set_px(want, 4, i % 4, i / 4, c);
    }
    expect_read(&e, &t, 4, 4, want);

    /* BC3, 8-value mode: a0 140 > a1 0 -> 140, 0, 120, 100, 80, 60, 40, 20
     * ((8 - i) / 7 a0 for i = 2..7, exact); colour: green 0x07E0 and black,
     * all index 2 -> (0, 170, 0). */
    const unsigned aidx[16] = {0, 1, 2, 3, 4, 5, 6, 7, 7, 6, 5, 4, 3, 2, 1, 0};
    const uint8_t apal8[8] = {140, 0, 120, 100, 80, 60, 40, 20};
    bc_alpha_block(blk, 140, 0, aidx);
    bc1_block(blk + 8, 0x07E0, 0x0000,
              (const unsigned[16]){2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2});
    put(&e, 0x2000, blk, 16);
    /* 6-value mode: a0 0 <= a1 50 -> 0, 50, 10, 20, 30, 40, then 0 and 255. */
    const uint8_t apal6[8] = {0, 50, 10, 20, 30, 40, 0, 255};
    bc_alpha_block(blk, 0, 50, aidx);
    bc1_block(blk + 8, 0x0000, 0x07E0, /* color0 < color1: still 4 colours */
              (const unsigned[16]){3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3});
    put(&e, 0x2010, blk, 16);
    t = make_tic(0x26, 2, SW_ID, CG_NV_TIC_PITCH, TEX_VA + 0x2000, 8, 4, 1);
    uint8_t want3[8 * 4 * 4];
    for (unsigned i = 0; i < 16; i++) {
        const uint8_t c0[4] = {0, 170, 0, apal8[aidx[i]]};
        const uint8_t c1[4] = {0, 170, 0, apal6[aidx[i]]}; /* 2/3 of green from black */
        set_px(want3, 8, i % 4, i / 4, c0);
        set_px(want3, 8, 4 + i % 4, i / 4, c1);
    }
    expect_read(&e, &t, 8, 4, want3);

    /* BC4 (DXN1): the alpha rules on red; BC5 (DXN2): red then green. */
    bc_alpha_block(blk, 140, 0, aidx);
    put(&e, 0x3000, blk, 8);
    t = make_tic(0x27, 2, SW_ID, CG_NV_TIC_PITCH, TEX_VA + 0x3000, 4, 4, 1);
    for (unsigned i = 0; i < 16; i++) {
        const uint8_t c[4] = {apal8[aidx[i]], 0, 0, 255};
        set_px(want, 4, i % 4, i / 4, c);
    }
    expect_read(&e, &t, 4, 4, want);
    bc_alpha_block(blk, 140, 0, aidx);
    bc_alpha_block(blk + 8, 0, 50, aidx);
    put(&e, 0x4000, blk, 16);
    t = make_tic(0x28, 2, SW_ID, CG_NV_TIC_PITCH, TEX_VA + 0x4000, 4, 4, 1);
    for (unsigned i = 0; i < 16; i++) {
        const uint8_t c[4] = {apal8[aidx[i]], apal6[aidx[i]], 0, 255};
        set_px(want, 4, i % 4, i / 4, c);
    }
    expect_read(&e, &t, 4, 4, want);

    /* Signed BC4: endpoints 70 > -70 (signed): 70, -70, 50, 30, 10, -10, -30,
     * -50 (exact sevenths). As SNORM to 8 bits: v * 255 / 127 rounded, so
     * 70 -> 140.55 -> 141, 50 -> 100.39 -> 100, 30 -> 60.24 -> 60,
     * 10 -> 20.08 -> 20; negatives -> 0. */
    const uint8_t spal8[8] = {141, 0, 100, 60, 20, 0, 0, 0};
    bc_alpha_block(blk, 70, (uint8_t)-70, aidx);
    /* Green (BC5 second block): -20 <= 80 -> -20, 80, 0, 20, 40, 60, then
     * -1.0 and +1.0: to 8 bits 0, 161 (80 * 255 / 127 = 160.6), 0, 40
     * (40.16), 80 (80.31), 120 (120.47), 0, 255. */
    const uint8_t spal6[8] = {0, 161, 0, 40, 80, 120, 0, 255};
    bc_alpha_block(blk + 8, (uint8_t)-20, 80, aidx);
    put(&e, 0x5000, blk, 16);
    t = make_tic(0x28, 1, SW_ID, CG_NV_TIC_PITCH, TEX_VA + 0x5000, 4, 4, 1);
    for (unsigned i = 0; i < 16; i++) {
        const uint8_t c[4] = {spal8[aidx[i]], spal6[aidx[i]], 0, 255};
        set_px(want, 4, i % 4, i / 4, c);
    }
    expect_read(&e, &t, 4, 4, want);
    /* The same bytes unsigned: 70 < 186 (-70 as a byte) -> 6-value mode:
     * 70, 186, 93.2 -> 93, 116.4 -> 116, 139.6 -> 140, 162.8 -> 163, 0, 255. */
    const uint8_t upal6[8] = {70, 186, 93, 116, 140, 163, 0, 255};
    t = make_tic(0x27, 2, SW_ID, CG_NV_TIC_PITCH, TEX_VA + 0x5000, 4, 4, 1);
    for (unsigned i = 0; i < 16; i++) {
        const uint8_t c[4] = {upal6[aidx[i]], 0, 0, 255};
        set_px(want, 4, i % 4, i / 4, c);
    }
    expect_read(&e, &t, 4, 4, want);
    tenv_fini(&e);
}

/* ---- 1-D buffers ---- */

static void test_read_1d(void)
{
    tenv e;
    tenv_init(&e);
    /* 5000 A8B8G8R8 texels (more than one read segment), texel i = (i & 255,
     * i >> 8, 7, 9); width-1 = 4999 split over W3 and W4. */
    enum { N = 5000 };
    uint8_t *mem = malloc(N * 4), *want = malloc(N * 4);
    for (unsigned i = 0; i < N; i++) {
        const uint8_t c[4] = {(uint8_t)i, (uint8_t)(i >> 8), 7, 9};
        memcpy(mem + 4 * i, c, 4);
        memcpy(want + 4 * i, c, 4);
    }
    put(&e, 0x10000, mem, N * 4);
    cg_nv_tic t = make_tic(0x08, 2, SW_ID, CG_NV_TIC_1D_BUFFER, TEX_VA + 0x10000 + 4, N - 1,
                           1, 0);
    CHECK_EQ(t.width, N - 1);
    expect_read(&e, &t, N - 1, 1, want + 4); /* starting at texel 1: W1 is not masked */

    /* 70000 texels: width-1 needs W3's high half. */
    uint32_t words[8] = {0};
    memcpy(words, t.raw, sizeof(words));
    words[3] = 1;          /* (1 << 16) | 4463 = 69999 */
    words[4] = (words[4] & ~0xFFFFu) | 4463;
    cg_nv_tic_decode(words, &t);
    CHECK_EQ(t.width, 70000);
    uint8_t *px = NULL;
    uint32_t gw = 0, gh = 0;
    CHECK_EQ(cg_nv_tex_read_rgba8(e.vas, &t, &px, &gw, &gh), 0);
    CHECK_EQ(gw, 70000);
    CHECK_EQ(gh, 1);
    if (px)
        CHECK_MEM(px, want + 4, (N - 1) * 4);
    free(px);

    /* A pitch header with texture type 1D reads one row (W5 counts layers). */
    t = make_tic(0x08, 2, SW_ID, CG_NV_TIC_PITCH, TEX_VA + 0x10000, 3, 10, 1);
    memcpy(words, t.raw, sizeof(words));
    words[4] &= ~(0xFu << 23); /* type 1D */
    cg_nv_tic_decode(words, &t);
    expect_read(&e, &t, 3, 1, want);
    free(mem);
    free(want);
    tenv_fini(&e);
}

/* ---- block-linear ---- */

/* Reference addressing, written from research/nv.md section 7: GOB = 64
 * bytes x 8 rows; byte (x, y) inside a GOB at ((x%64)/32)*256 + ((y%8)/2)*64
 * + ((x%32)/16)*32 + (y%2)*16 + x%16; a block is 1 GOB wide, 2^bh GOBs tall
 * and 2^bd deep (slice 0 holds the first 2^bh GOBs of each block); blocks in
 * row-major order, ceil(width_bytes / 64) per row. */
static uint64_t ref_bl(uint32_t xb, uint32_t y, uint32_t width_bytes, unsigned bh, unsigned bd)
{
    uint64_t blocks_x = (width_bytes + 63) / 64;
    uint32_t rows = 8u << bh;
    uint64_t block = (uint64_t)(y / rows) * blocks_x + xb / 64;
    uint64_t gob = (y % rows) / 8;
    uint64_t in_gob = ((xb % 64) / 32) * 256 + ((y % 8) / 2) * 64 + ((xb % 32) / 16) * 32 +
                      (y % 2) * 16 + xb % 16;
    return block * (512ull << (bh + bd)) + gob * 512 + in_gob;
}

static void noise(tenv *e, uint64_t off, size_t n, uint32_t seed)
{
    uint8_t *b = malloc(n);
    for (size_t i = 0; i < n; i++) {
        seed = seed * 1103515245u + 12345u;
        b[i] = (uint8_t)(seed >> 16);
    }
    put(e, off, b, n);
    free(b);
}

static void test_read_blocklinear(void)
{
    tenv e;
    tenv_init(&e);
    /* A8B8G8R8 40 x 70 (160 bytes: 3 GOBs wide, the last partly used), block
     * heights 1, 2, 4, 8 and 16 GOBs, and one block depth of 2. */
    enum { W = 40, H = 70 };
    uint8_t *want = malloc(W * H * 4);
    for (unsigned bd = 0; bd < 2; bd++) {
        for (unsigned bh = 0; bh <= 4; bh++) {
            if (bd && bh != 1)
                continue;
            uint64_t base = 0x100000;
            noise(&e, base, 0x100000, bh * 7 + bd);
            for (uint32_t y = 0; y < H; y++) {
                for (uint32_t x = 0; x < W; x++) {
                    const uint8_t c[4] = {(uint8_t)x, (uint8_t)y, (uint8_t)(x ^ y),
                                          (uint8_t)(0x50 + bh + 8 * bd)};
                    put(&e, base + ref_bl(x * 4, y, W * 4, bh, bd), c, 4);
                    set_px(want, W, x, y, c);
                }
            }
            cg_nv_tic t = make_tic(0x08, 2, SW_ID, CG_NV_TIC_BLOCKLINEAR, TEX_VA + base, W, H,
                                   fld(bh, 5, 3) | fld(bd, 8, 6));
            CHECK_EQ(t.block_h, bh);
            CHECK_EQ(t.block_d, bd);
            expect_read(&e, &t, W, H, want);
        }
    }
    free(want);

    /* BC1 20 x 24 texels = 5 x 6 blocks of 8 bytes (40 bytes: 1 GOB wide),
     * block height 2 GOBs: GOB addressing over blocks. Each block is one
     * colour: c0 = c1 = (r, g, b) in 565, all indices 0 (3-colour mode,
     * colour 0 opaque). 5-bit v -> (v << 3) | (v >> 2), 6-bit g -> (g << 2) |
     * (g >> 4) (bit replication). */
    enum { BW = 20, BH = 24 };
    uint8_t *want1 = malloc(BW * BH * 4);
    const unsigned zero[16] = {0};
    uint64_t base = 0x300000;
    noise(&e, base, 0x10000, 99);
    for (uint32_t by = 0; by < BH / 4; by++) {
        for (uint32_t bx = 0; bx < BW / 4; bx++) {
            unsigned r = bx * 6 + by, g = 2 * bx + 40, b = 31 - by;
            uint16_t c = (uint16_t)(r << 11 | g << 5 | b);
            uint8_t blk[8];
            bc1_block(blk, c, c, zero);
            put(&e, base + ref_bl(bx * 8, by, (BW / 4) * 8, 1, 0), blk, 8);
            const uint8_t px[4] = {(uint8_t)(r << 3 | r >> 2), (uint8_t)(g << 2 | g >> 4),
                                   (uint8_t)(b << 3 | b >> 2), 255};
            for (unsigned k = 0; k < 16; k++)
                set_px(want1, BW, bx * 4 + k % 4, by * 4 + k / 4, px);
        }
    }
    cg_nv_tic t = make_tic(0x24, 2, SW_ID, CG_NV_TIC_BLOCKLINEAR_COLORKEY, TEX_VA + base, BW,
                           BH, fld(1, 5, 3));
    expect_read(&e, &t, BW, BH, want1);
    free(want1);
    tenv_fini(&e);
}

/* Every format of the pitch tests again, stored block-linear (block heights
 * 1, 2 and 4 GOBs, elements placed by ref_bl), with the same hand-derived
 * expectations. elems: the element rows, tightly packed. */
static void bl_case(tenv *e, unsigned fmt, unsigned type, const unsigned sw[4], uint32_t w,
                    uint32_t h, unsigned bytes, bool compressed, const uint8_t *elems,
                    const uint8_t *want)
{
    uint32_t ew = compressed ? (w + 3) / 4 : w, eh = compressed ? (h + 3) / 4 : h;
    for (unsigned bh = 0; bh <= 2; bh++) {
        uint64_t base = 0x200000;
        noise(e, base, 0x8000, fmt * 16 + bh);
        for (uint32_t y = 0; y < eh; y++)
            for (uint32_t x = 0; x < ew; x++)
                put(e, base + ref_bl(x * bytes, y, ew * bytes, bh, 0),
                    elems + ((size_t)y * ew + x) * bytes, bytes);
        cg_nv_tic t = make_tic(fmt, type, sw[0], sw[1], sw[2], sw[3], CG_NV_TIC_BLOCKLINEAR,
                               TEX_VA + base, w, h, fld(bh, 5, 3));
        expect_read(e, &t, w, h, want);
    }
}

static void test_read_blocklinear_formats(void)
{
    tenv e;
    tenv_init(&e);
    static const unsigned id[4] = {SW_ID}, bgra_sw[4] = {4, 3, 2, 5};
    /* A8B8G8R8 and A8R8G8B8 (see test_read_pitch_rgba). */
    static const uint8_t rgba[24] = {10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 110, 120,
                                     1,  2,  3,  4,  5,  6,  7,  8,  9,  10,  11,  12};
    bl_case(&e, 0x08, 2, id, 3, 2, 4, false, rgba, rgba);
    bl_case(&e, 0x08, 2, bgra_sw, 1, 1, 4, false, (const uint8_t[]){0x11, 0x22, 0x33, 0x44},
            (const uint8_t[]){0x33, 0x22, 0x11, 0x44});
    /* B5G6R5 and A1B5G5R5 (see test_read_pitch_packed16), little-endian. */
    bl_case(&e, 0x15, 2, id, 5, 1, 2, false,
            (const uint8_t[]){0x1F, 0x00, 0xE0, 0x07, 0x00, 0xF8, 0x10, 0x00, 0x00, 0x04},
            (const uint8_t[]){255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 132, 0, 0, 255,
                              0, 130, 0, 255});
    bl_case(&e, 0x14, 2, id, 2, 1, 2, false, (const uint8_t[]){0x08, 0xFC, 0xE0, 0x03},
            (const uint8_t[]){66, 0, 255, 255, 0, 255, 0, 0});
    /* R8 2x2 and G8R8. */
    bl_case(&e, 0x1d, 2, id, 2, 2, 1, false, (const uint8_t[]){0x80, 0x01, 0xFF, 0x00},
            (const uint8_t[]){0x80, 0, 0, 255, 0x01, 0, 0, 255, 0xFF, 0, 0, 255, 0, 0, 0, 255});
    bl_case(&e, 0x18, 2, id, 1, 1, 2, false, (const uint8_t[]){0x12, 0x34},
            (const uint8_t[]){0x12, 0x34, 0, 255});

    /* BC1, 8x4: a 4-colour block (red > blue) and a 3-colour block (0 <= grey). */
    uint8_t blk[32];
    bc1_block(blk, 0xF800, 0x001F, idx_col);
    bc1_block(blk + 8, 0x0000, (2u << 11) | (4u << 5) | 2u, idx_col);
    static const uint8_t pal4[4][4] = {{255, 0, 0, 255}, {0, 0, 255, 255}, {170, 0, 85, 255},
                                       {85, 0, 170, 255}};
    static const uint8_t pal3[4][4] = {{0, 0, 0, 255}, {16, 16, 16, 255}, {8, 8, 8, 255},
                                       {0, 0, 0, 0}};
    uint8_t want[8 * 4 * 4];
    for (uint32_t y = 0; y < 4; y++)
        for (uint32_t x = 0; x < 8; x++)
            set_px(want, 8, x, y, x < 4 ? pal4[x] : pal3[x - 4]);
    bl_case(&e, 0x24, 2, id, 8, 4, 8, true, blk, want);

    /* BC2 4x4 (alpha i * 17, blue < red in 4-colour mode) and BC3 8x4 (see
     * test_read_bc23). */
    for (unsigned k = 0; k < 8; k++)
        blk[k] = (uint8_t)((2 * k) | (2 * k + 1) << 4);
    bc1_block(blk + 8, 0x001F, 0xF800, idx_col);
    const uint8_t col[4][3] = {{0, 0, 255}, {255, 0, 0}, {85, 0, 170}, {170, 0, 85}};
    for (unsigned i = 0; i < 16; i++) {
        const uint8_t c[4] = {col[i % 4][0], col[i % 4][1], col[i % 4][2], (uint8_t)(i * 17)};
        set_px(want, 4, i % 4, i / 4, c);
    }
    bl_case(&e, 0x25, 2, id, 4, 4, 16, true, blk, want);

    const unsigned aidx[16] = {0, 1, 2, 3, 4, 5, 6, 7, 7, 6, 5, 4, 3, 2, 1, 0};
    const uint8_t apal8[8] = {140, 0, 120, 100, 80, 60, 40, 20};
    const uint8_t apal6[8] = {0, 50, 10, 20, 30, 40, 0, 255};
    static const unsigned all2[16] = {2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2};
    static const unsigned all3[16] = {3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3};
    bc_alpha_block(blk, 140, 0, aidx);
    bc1_block(blk + 8, 0x07E0, 0x0000, all2);
    bc_alpha_block(blk + 16, 0, 50, aidx);
    bc1_block(blk + 24, 0x0000, 0x07E0, all3);
    for (unsigned i = 0; i < 16; i++) {
        const uint8_t c0[4] = {0, 170, 0, apal8[aidx[i]]};
        const uint8_t c1[4] = {0, 170, 0, apal6[aidx[i]]};
        set_px(want, 8, i % 4, i / 4, c0);
        set_px(want, 8, 4 + i % 4, i / 4, c1);
    }
    bl_case(&e, 0x26, 2, id, 8, 4, 16, true, blk, want);
    tenv_fini(&e);
}

/* ---- faults and hostile headers ---- */

static void test_read_faults(void)
{
    tenv e;
    tenv_init(&e);
    /* Wholly unmapped. */
    cg_nv_tic t = make_tic(0x08, 2, SW_ID, CG_NV_TIC_PITCH, 0x80000000ull, 4, 4, 1);
    expect_err(&e, &t, CG_ERR_FAULT);
    /* Runs past the end of the mapping: the last row of a pitch texture. */
    t = make_tic(0x08, 2, SW_ID, CG_NV_TIC_PITCH, TEX_VA + TEX_MEM - 64 * 3, 16, 4, 2);
    expect_err(&e, &t, CG_ERR_FAULT);
    /* ... and of a block-linear one (the second GOB row). */
    t = make_tic(0x08, 2, SW_ID, CG_NV_TIC_BLOCKLINEAR, TEX_VA + TEX_MEM - 512, 16, 9, 0);
    expect_err(&e, &t, CG_ERR_FAULT);
    t = make_tic(0x08, 2, SW_ID, CG_NV_TIC_BLOCKLINEAR, TEX_VA + TEX_MEM - 512, 16, 8, 0);
    uint8_t *px = NULL;
    uint32_t gw, gh;
    CHECK_EQ(cg_nv_tex_read_rgba8(e.vas, &t, &px, &gw, &gh), 0); /* exactly one GOB fits */
    free(px);
    /* A 1-D buffer straddling the end. */
    t = make_tic(0x08, 2, SW_ID, CG_NV_TIC_1D_BUFFER, TEX_VA + TEX_MEM - 16, 5, 1, 0);
    expect_err(&e, &t, CG_ERR_FAULT);
    /* An address beyond the 40-bit address space (48-bit field). */
    t = make_tic(0x08, 2, SW_ID, CG_NV_TIC_PITCH, 0xFFFF00000000ull, 4, 4, 1);
    expect_err(&e, &t, CG_ERR_FAULT);
    /* Inside a sparse reservation unmapped pages read as zero. */
    uint64_t rva = 0x100000000ull;
    CHECK_EQ(cg_vas_reserve(e.vas, &rva, 0x10000, 0, 4096, CG_RESV_FIXED | CG_RESV_SPARSE), 0);
    t = make_tic(0x1d, 2, SW_ID, CG_NV_TIC_PITCH, rva, 2, 1, 1);
    expect_read(&e, &t, 2, 1, (const uint8_t[]){0, 0, 0, 255, 0, 0, 0, 255});
    /* The biggest pitch with the tallest texture, near the top of the space. */
    t = make_tic(0x08, 2, SW_ID, CG_NV_TIC_PITCH, 0xFFFFFFFFE0ull, 16384, 16384, 0xFFFF);
    expect_err(&e, &t, CG_ERR_FAULT);
    tenv_fini(&e); /* and no fault was posted */
}

static void test_read_hostile(void)
{
    tenv e;
    tenv_init(&e);
    uint8_t *px = NULL;
    uint32_t gw, gh;
    cg_nv_tic t = make_tic(0x08, 2, SW_ID, CG_NV_TIC_PITCH, TEX_VA, 4, 4, 1);
    CHECK_EQ(cg_nv_tex_read_rgba8(NULL, &t, &px, &gw, &gh), CG_ERR_INVAL);
    CHECK_EQ(cg_nv_tex_read_rgba8(e.vas, NULL, &px, &gw, &gh), CG_ERR_INVAL);
    CHECK_EQ(cg_nv_tex_read_rgba8(e.vas, &t, NULL, &gw, &gh), CG_ERR_INVAL);
    CHECK_EQ(cg_nv_tex_read_rgba8(e.vas, &t, &px, NULL, &gh), CG_ERR_INVAL);
    CHECK_EQ(cg_nv_tex_read_rgba8(e.vas, &t, &px, &gw, NULL), CG_ERR_INVAL);

    /* Sizes: 16384 is the limit in each dimension. */
    t = make_tic(0x08, 2, SW_ID, CG_NV_TIC_PITCH, TEX_VA, 16385, 1, 1);
    expect_err(&e, &t, CG_ERR_RANGE);
    t = make_tic(0x08, 2, SW_ID, CG_NV_TIC_BLOCKLINEAR, TEX_VA, 1, 16385, 0);
    expect_err(&e, &t, CG_ERR_RANGE);
    t = make_tic(0x08, 2, SW_ID, CG_NV_TIC_1D_BUFFER, TEX_VA, (1u << 28) + 1, 1, 0);
    expect_err(&e, &t, CG_ERR_RANGE);
    uint32_t words[8];
    memcpy(words, t.raw, sizeof(words));
    words[3] |= 0xFFFF;
    words[4] |= 0xFFFF; /* width 2^32 */
    cg_nv_tic_decode(words, &t);
    expect_err(&e, &t, CG_ERR_RANGE);

    /* Layouts and formats not modelled. */
    t = make_tic(0x08, 2, SW_ID, 5, TEX_VA, 4, 4, 0);
    expect_err(&e, &t, CG_ERR_UNSUPPORTED);
    t = make_tic(0x08, 2, SW_ID, CG_NV_TIC_BLOCKLINEAR, TEX_VA, 4, 4, fld(6, 5, 3));
    expect_err(&e, &t, CG_ERR_UNSUPPORTED); /* 64 GOBs tall */
    t = make_tic(0x08, 2, SW_ID, CG_NV_TIC_BLOCKLINEAR, TEX_VA, 4, 4, fld(6, 8, 6));
    expect_err(&e, &t, CG_ERR_UNSUPPORTED);
    t = make_tic(0x08, 2, SW_ID, CG_NV_TIC_BLOCKLINEAR, TEX_VA, 4, 4, fld(1, 2, 0));
    expect_err(&e, &t, CG_ERR_UNSUPPORTED); /* block width must be one GOB */
    t = make_tic(0x08, 2, SW_ID, CG_NV_TIC_BLOCKLINEAR, TEX_VA, 4, 4, fld(1, 12, 10));
    expect_err(&e, &t, CG_ERR_UNSUPPORTED); /* sparse tile width */
    t = make_tic(0x17, 2, SW_ID, CG_NV_TIC_PITCH, TEX_VA, 4, 4, 1);
    expect_err(&e, &t, CG_ERR_UNSUPPORTED); /* BC7U: named, not decoded */
    t = make_tic(0x7F, 2, SW_ID, CG_NV_TIC_PITCH, TEX_VA, 4, 4, 1);
    expect_err(&e, &t, CG_ERR_UNSUPPORTED); /* unknown format */
    t = make_tic(0x08, 2, SW_ID, CG_NV_TIC_PITCH, TEX_VA, 4, 4, 1);
    memcpy(words, t.raw, sizeof(words));
    words[7] = fld(2, 11, 8); /* MSAA 2x2 */
    cg_nv_tic_decode(words, &t);
    expect_err(&e, &t, CG_ERR_UNSUPPORTED);

    /* A hand-filled header with out-of-range fields must not crash. */
    memset(&t, 0xFF, sizeof(t));
    t.format = 0x08;
    t.type[0] = t.type[1] = t.type[2] = t.type[3] = 2;
    t.swizzle[0] = 9;
    expect_err(&e, &t, CG_ERR_UNSUPPORTED);
    t.swizzle[0] = 2;
    t.swizzle[1] = 3;
    t.swizzle[2] = 4;
    t.swizzle[3] = 5;
    t.msaa_mode = 0;
    expect_err(&e, &t, CG_ERR_UNSUPPORTED); /* header version 0xFFFFFFFF */
    tenv_fini(&e);
}

int main(void)
{
    test_tic_blocklinear();
    test_tic_pitch();
    test_tic_1d_buffer();
    test_tsc();
    test_formats();
    test_json();
    test_read_pitch_rgba();
    test_read_pitch_packed16();
    test_read_types();
    test_read_bc1();
    test_read_bc23();
    test_read_1d();
    test_read_blocklinear();
    test_read_blocklinear_formats();
    test_read_faults();
    test_read_hostile();
    return check_report("test_nv_texture");
}
