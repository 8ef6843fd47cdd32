/* Tests for src/core/image.c: format table, decoding of every format with
 * hand-computed pixels, hashing (against an independent FNV-1a and a fixed
 * value), PNG writing and reading (round trips, other PNG kinds written here
 * with libpng directly, error paths). */
#include <errno.h>
#include <math.h>
#include <png.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include "check.h"
#include "cmdgpu/image.h"

static void put16(uint8_t *p, uint16_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
}

static void putf(uint8_t *p, float f)
{
    uint32_t v;
    memcpy(&v, &f, sizeof(v));
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

/* Decode a single pixel given as bytes. */
static void decode1(cg_format f, const uint8_t *bytes, uint8_t out[4])
{
    cg_image img = {1, 1, cg_format_bpp(f), f, bytes};
    memset(out, 0xee, 4);
    CHECK_EQ(cg_image_decode_rgba8(&img, out), 0);
}

#define CHECK_PX(got, r, g, b, a)                                              \
    do {                                                                       \
        const uint8_t want_[4] = {r, g, b, a};                                 \
        CHECK_MEM(got, want_, 4);                                              \
        if (memcmp(got, want_, 4) != 0)                                        \
            fprintf(stderr, "  got %u,%u,%u,%u want %u,%u,%u,%u\n", got[0], got[1], \
                    got[2], got[3], r, g, b, a);                               \
    } while (0)

static void test_format_table(void)
{
    static const struct {
        cg_format f;
        const char *name;
        unsigned bpp;
    } want[] = {
        {CG_FORMAT_RGBA8888, "rgba8888", 4}, {CG_FORMAT_BGRA8888, "bgra8888", 4},
        {CG_FORMAT_RGB565, "rgb565", 2},     {CG_FORMAT_ARGB1555, "argb1555", 2},
        {CG_FORMAT_R8, "r8", 1},             {CG_FORMAT_RGBA16F, "rgba16f", 8},
        {CG_FORMAT_RGBA32F, "rgba32f", 16},
    };
    CHECK_EQ(CG_FORMAT_COUNT, sizeof(want) / sizeof(want[0]));
    for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
        CHECK_STR(cg_format_name(want[i].f), want[i].name);
        CHECK_EQ(cg_format_bpp(want[i].f), want[i].bpp);
        cg_format got = CG_FORMAT_COUNT;
        CHECK_EQ(cg_format_from_name(want[i].name, &got), 0);
        CHECK_EQ(got, want[i].f);
    }
    cg_format got = CG_FORMAT_R8;
    CHECK_STR(cg_format_name(CG_FORMAT_COUNT), "?");
    CHECK_STR(cg_format_name((cg_format)-1), "?");
    CHECK_EQ(cg_format_bpp(CG_FORMAT_COUNT), 0);
    CHECK_EQ(cg_format_bpp((cg_format)-1), 0);
    CHECK_EQ(cg_format_from_name("rgba", &got), CG_ERR_NOENT);
    CHECK_EQ(cg_format_from_name("RGBA8888", &got), CG_ERR_NOENT); /* names are exact */
    CHECK_EQ(cg_format_from_name("", &got), CG_ERR_NOENT);
    CHECK_EQ(cg_format_from_name(NULL, &got), CG_ERR_NOENT);
    CHECK_EQ(got, CG_FORMAT_R8); /* untouched on failure */
}

static void test_decode_8bit(void)
{
    uint8_t px[4];
    const uint8_t rgba[4] = {1, 2, 3, 4}, bgra[4] = {3, 2, 1, 4};
    decode1(CG_FORMAT_RGBA8888, rgba, px);
    CHECK_PX(px, 1, 2, 3, 4);
    decode1(CG_FORMAT_BGRA8888, bgra, px);
    CHECK_PX(px, 1, 2, 3, 4);

    const uint8_t r8[3] = {0x00, 0x7f, 0xff};
    decode1(CG_FORMAT_R8, &r8[0], px);
    CHECK_PX(px, 0, 0, 0, 255);
    decode1(CG_FORMAT_R8, &r8[1], px);
    CHECK_PX(px, 127, 127, 127, 255);
    decode1(CG_FORMAT_R8, &r8[2], px);
    CHECK_PX(px, 255, 255, 255, 255);
}

static void test_decode_16bit(void)
{
    static const struct {
        cg_format f;
        uint16_t v;
        uint8_t r, g, b, a;
    } cases[] = {
        {CG_FORMAT_RGB565, 0xF800, 255, 0, 0, 255},
        {CG_FORMAT_RGB565, 0x07E0, 0, 255, 0, 255},
        {CG_FORMAT_RGB565, 0x001F, 0, 0, 255, 255},
        {CG_FORMAT_RGB565, 0x0000, 0, 0, 0, 255},
        {CG_FORMAT_RGB565, 0xFFFF, 255, 255, 255, 255},
        /* R=16 -> 16<<3|16>>2 = 132, G=32 -> 32<<2|32>>4 = 130, B=16 -> 132 */
        {CG_FORMAT_RGB565, 0x8410, 132, 130, 132, 255},
        /* R=1 -> 8, G=1 -> 4, B=1 -> 8 */
        {CG_FORMAT_RGB565, 0x0821, 8, 4, 8, 255},
        /* R=0x15 -> 0xAD, G=0x2A -> 0xAA, B=0x0A -> 0x52 */
        {CG_FORMAT_RGB565, 0x0A | 0x2A << 5 | 0x15 << 11, 0xAD, 0xAA, 0x52, 255},
        {CG_FORMAT_ARGB1555, 0x7C00, 255, 0, 0, 0},
        {CG_FORMAT_ARGB1555, 0x83E0, 0, 255, 0, 255},
        {CG_FORMAT_ARGB1555, 0x801F, 0, 0, 255, 255},
        {CG_FORMAT_ARGB1555, 0x8000, 0, 0, 0, 255},
        {CG_FORMAT_ARGB1555, 0x7FFF, 255, 255, 255, 0},
        {CG_FORMAT_ARGB1555, 0x8421, 8, 8, 8, 255},
        /* R=0x10 -> 0x84, G=0x0F -> 0x7B, B=0x01 -> 0x08 */
        {CG_FORMAT_ARGB1555, 0x8000 | 0x10 << 10 | 0x0F << 5 | 0x01, 0x84, 0x7B, 0x08, 255},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        uint8_t bytes[2], px[4];
        put16(bytes, cases[i].v);
        decode1(cases[i].f, bytes, px);
        CHECK_PX(px, cases[i].r, cases[i].g, cases[i].b, cases[i].a);
    }
}

static void test_decode_half(void)
{
    static const struct {
        uint16_t h;
        uint8_t want;
    } cases[] = {
        {0x0000, 0},   /* +0 */
        {0x8000, 0},   /* -0 */
        {0x3C00, 255}, /* 1.0 */
        {0x3800, 128}, /* 0.5 -> 127.5, halves round up */
        {0x4000, 255}, /* 2.0 clamps */
        {0xBC00, 0},   /* -1.0 clamps */
        {0x7C00, 255}, /* +inf */
        {0xFC00, 0},   /* -inf */
        {0x7E00, 0},   /* NaN */
        {0xFE01, 0},   /* negative NaN */
        {0x7BFF, 255}, /* 65504, the largest half */
        {0x2C00, 16},  /* 2^-4 = 0.0625 -> 15.94 */
        {0x3555, 85},  /* 1365/4096 = 0.33325 -> 84.98 */
        {0x2020, 2},   /* 1056/131072 = 0.0080566 -> 2.054 */
        {0x1C00, 1},   /* 2^-8 -> 0.996: rounds up, truncation would give 0 */
        {0x1800, 0},   /* 2^-9 -> 0.498 */
        {0x3BFF, 255}, /* 2047/2048 -> 254.88 */
        {0x3BF0, 253}, /* 2032/2048 = 0.9921875 -> 253.0 */
        {0x03FF, 0},   /* largest denormal, 1023 * 2^-24 */
        {0x0001, 0},   /* smallest denormal */
        {0x8001, 0},   /* negative denormal */
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        /* The value under test in each channel in turn, known values in the
         * others (R=1.0, G=0, B=0.5, A=1.0 by default). */
        for (int ch = 0; ch < 4; ch++) {
            uint16_t v[4] = {0x3C00, 0x0000, 0x3800, 0x3C00};
            uint8_t want[4] = {255, 0, 128, 255}, bytes[8], px[4];
            v[ch] = cases[i].h;
            want[ch] = cases[i].want;
            for (int c = 0; c < 4; c++)
                put16(bytes + 2 * c, v[c]);
            decode1(CG_FORMAT_RGBA16F, bytes, px);
            CHECK_MEM(px, want, 4);
            if (memcmp(px, want, 4) != 0)
                fprintf(stderr, "  half 0x%04x channel %d: got %u\n", cases[i].h, ch, px[ch]);
        }
    }
}

static void test_decode_float(void)
{
    const struct {
        float v;
        uint8_t want;
    } cases[] = {
        {0.0f, 0},
        {-0.0f, 0},
        {1.0f, 255},
        {0.5f, 128},
        {-0.25f, 0},
        {2.0f, 255},
        {1e30f, 255},
        {INFINITY, 255},
        {-INFINITY, 0},
        {NAN, 0},
        {-NAN, 0},
        {0.2f, 51},           /* 51.0000007 */
        {100.0f / 255.0f, 100},
        {0.00196f, 0},        /* just below 1/510 */
        {0.00197f, 1},        /* just above 1/510 */
        {0.998f, 254},        /* 254.49 */
        {0.999f, 255},        /* 254.745 */
        {1e-40f, 0},          /* a denormal */
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        for (int ch = 0; ch < 4; ch++) {
            float v[4] = {0.0f, 1.0f, 0.0f, 1.0f};
            uint8_t want[4] = {0, 255, 0, 255}, bytes[16], px[4];
            v[ch] = cases[i].v;
            want[ch] = cases[i].want;
            for (int c = 0; c < 4; c++)
                putf(bytes + 4 * c, v[c]);
            decode1(CG_FORMAT_RGBA32F, bytes, px);
            CHECK_MEM(px, want, 4);
            if (memcmp(px, want, 4) != 0)
                fprintf(stderr, "  float %g channel %d: got %u\n", (double)cases[i].v, ch,
                        px[ch]);
        }
    }
}

/* Rows with padding: the padding is never read into the output, which is
 * tightly packed. */
static void test_decode_stride(void)
{
    /* 2x3 RGB565, stride 7 (4 bytes of pixels, 3 of padding). */
    uint8_t src[3 * 7];
    memset(src, 0xAB, sizeof(src));
    const uint16_t v[3][2] = {{0xF800, 0x07E0}, {0x001F, 0xFFFF}, {0x0000, 0x8410}};
    for (int y = 0; y < 3; y++)
        for (int x = 0; x < 2; x++)
            put16(src + y * 7 + x * 2, v[y][x]);
    cg_image img = {2, 3, 7, CG_FORMAT_RGB565, src};
    uint8_t out[2 * 3 * 4 + 4];
    memset(out, 0x55, sizeof(out));
    CHECK_EQ(cg_image_decode_rgba8(&img, out), 0);
    const uint8_t want[2 * 3 * 4] = {255, 0,   0,   255, 0, 255, 0, 255, 0,   0,   255, 255,
                                     255, 255, 255, 255, 0, 0,   0, 255, 132, 130, 132, 255};
    CHECK_MEM(out, want, sizeof(want));
    const uint8_t untouched[4] = {0x55, 0x55, 0x55, 0x55};
    CHECK_MEM(out + sizeof(want), untouched, 4);
}

static void test_invalid_views(void)
{
    uint8_t pixels[64] = {0}, out[64];
    const cg_image good = {2, 2, 8, CG_FORMAT_RGBA8888, pixels};
    cg_image bad[12];
    size_t nbad = 0;
    bad[nbad] = good, bad[nbad++].width = 0;
    bad[nbad] = good, bad[nbad++].height = 0;
    bad[nbad] = good, bad[nbad++].width = 65536;
    bad[nbad] = good, bad[nbad++].height = 65536;
    bad[nbad] = good, bad[nbad++].pixels = NULL;
    bad[nbad] = good, bad[nbad++].stride = 7; /* < 2 * 4 */
    bad[nbad] = good, bad[nbad++].format = CG_FORMAT_COUNT;
    bad[nbad] = good, bad[nbad++].format = (cg_format)-1;
    /* A stride whose last row lies past the end of the address space. */
    bad[nbad] = good, bad[nbad].height = 3, bad[nbad++].stride = SIZE_MAX / 2;
    bad[nbad] = good, bad[nbad].format = CG_FORMAT_RGBA32F, bad[nbad++].stride = 31;

    for (size_t i = 0; i < nbad; i++) {
        CHECK_EQ(cg_image_decode_rgba8(&bad[i], out), CG_ERR_INVAL);
        CHECK_EQ(cg_image_hash(&bad[i]), 0);
        CHECK_EQ(cg_image_write_png("test_image_invalid.png", &bad[i]), CG_ERR_INVAL);
    }
    struct stat st;
    CHECK(stat("test_image_invalid.png", &st) != 0); /* no file was created */
    CHECK_EQ(cg_image_decode_rgba8(NULL, out), CG_ERR_INVAL);
    CHECK_EQ(cg_image_decode_rgba8(&good, NULL), CG_ERR_INVAL);
    CHECK_EQ(cg_image_hash(NULL), 0);
    CHECK_EQ(cg_image_write_png(NULL, &good), CG_ERR_INVAL);
    CHECK_EQ(cg_image_write_png("x.png", NULL), CG_ERR_INVAL);
    CHECK_EQ(cg_image_write_png_file(NULL, &good), CG_ERR_INVAL);
    CHECK_EQ(cg_image_write_png_file(stdout, &bad[0]), CG_ERR_INVAL);

    /* The largest valid dimensions pass the checks (a 65535x1 R8 row). */
    uint8_t *row = calloc(65535, 1);
    cg_image wide = {65535, 1, 65535, CG_FORMAT_R8, row};
    CHECK(row && cg_image_hash(&wide) != 0);
    free(row);
}

/* ---- hashing ---- */

/* FNV-1a 64 written out again, independently of image.c. */
static uint64_t ref_fnv(const uint8_t *p, size_t n, uint64_t h)
{
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 0x100000001b3ull;
    return h;
}

static uint64_t ref_hash(uint32_t w, uint32_t h, const uint8_t *rgba)
{
    const uint8_t dims[8] = {(uint8_t)w, (uint8_t)(w >> 8), (uint8_t)(w >> 16), (uint8_t)(w >> 24),
                             (uint8_t)h, (uint8_t)(h >> 8), (uint8_t)(h >> 16), (uint8_t)(h >> 24)};
    uint64_t x = ref_fnv(dims, 8, 0xcbf29ce484222325ull);
    return ref_fnv(rgba, (size_t)w * h * 4, x);
}

static void test_hash(void)
{
    /* Red, green / blue, half-transparent white. */
    const uint8_t rgba[16] = {255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 255, 128};
    cg_image img = {2, 2, 8, CG_FORMAT_RGBA8888, rgba};
    CHECK_EQ(cg_image_hash(&img), ref_hash(2, 2, rgba));
    /* The same value from Python's int arithmetic, so a bug shared by the two
     * C versions cannot hide. */
    CHECK_EQ(cg_image_hash(&img), 0x31472582c7298b00ull);
    CHECK_EQ(ref_fnv((const uint8_t *)"a", 1, 0xcbf29ce484222325ull), 0xaf63dc4c8601ec8cull);

    /* The same picture in BGRA8888, with padded rows. */
    uint8_t bgra[2 * 12];
    memset(bgra, 0x77, sizeof(bgra));
    for (int p = 0; p < 4; p++) {
        uint8_t *d = bgra + (p / 2) * 12 + (p % 2) * 4;
        d[0] = rgba[p * 4 + 2];
        d[1] = rgba[p * 4 + 1];
        d[2] = rgba[p * 4 + 0];
        d[3] = rgba[p * 4 + 3];
    }
    cg_image img2 = {2, 2, 12, CG_FORMAT_BGRA8888, bgra};
    CHECK_EQ(cg_image_hash(&img2), cg_image_hash(&img));

    /* And as floats. */
    uint8_t f32[4 * 16];
    for (int i = 0; i < 16; i++)
        putf(f32 + 4 * i, rgba[i] == 128 ? 128.0f / 255.0f : rgba[i] / 255.0f);
    cg_image img3 = {2, 2, 32, CG_FORMAT_RGBA32F, f32};
    CHECK_EQ(cg_image_hash(&img3), cg_image_hash(&img));

    /* The same bytes with other dimensions hash differently. */
    cg_image img4 = {4, 1, 16, CG_FORMAT_RGBA8888, rgba};
    cg_image img5 = {1, 4, 4, CG_FORMAT_RGBA8888, rgba};
    CHECK_EQ(cg_image_hash(&img4), ref_hash(4, 1, rgba));
    CHECK_EQ(cg_image_hash(&img5), ref_hash(1, 4, rgba));
    CHECK(cg_image_hash(&img4) != cg_image_hash(&img));
    CHECK(cg_image_hash(&img4) != cg_image_hash(&img5));

    /* A wide RGB565 image (rows longer than the hash's decode chunk): the hash
     * is FNV-1a over what cg_image_decode_rgba8 gives. */
    enum { W = 601, H = 3 };
    uint8_t *src = malloc(W * H * 2), *dec = malloc(W * H * 4);
    CHECK(src && dec);
    if (src && dec) {
        for (int i = 0; i < W * H; i++)
            put16(src + 2 * i, (uint16_t)(i * 2654435761u >> 7));
        cg_image wide = {W, H, W * 2, CG_FORMAT_RGB565, src};
        CHECK_EQ(cg_image_decode_rgba8(&wide, dec), 0);
        CHECK_EQ(cg_image_hash(&wide), ref_hash(W, H, dec));
    }
    free(src);
    free(dec);

    /* Wide BGRA8888 and RGBA8888 images with padded rows, every byte value:
     * the pixel-at-a-time paths give FNV-1a over the decoded bytes. */
    enum { STRIDE = W * 4 + 12 };
    uint8_t *px = malloc(STRIDE * H), *dec4 = malloc(W * H * 4);
    CHECK(px && dec4);
    if (px && dec4) {
        for (int i = 0; i < STRIDE * H; i++)
            px[i] = (uint8_t)(i * 2654435761u >> 11);
        for (int f = 0; f < 2; f++) {
            cg_image im = {W, H, STRIDE, f ? CG_FORMAT_BGRA8888 : CG_FORMAT_RGBA8888, px};
            CHECK_EQ(cg_image_decode_rgba8(&im, dec4), 0);
            CHECK_EQ(cg_image_hash(&im), ref_hash(W, H, dec4));
        }
    }
    free(px);
    free(dec4);
}

/* Runs of equal pixels (the hash steps a run in O(256 + log k), not O(k)):
 * every run length from 1 to past several periods, runs across row ends and
 * padded rows, single pixels between runs, a whole image of one colour, and
 * RGB565 runs through the decode chunks; each hash against the plain byte
 * chain over the decoded pixels. */
static void test_hash_runs(void)
{
    enum { W = 97, H = 211, STRIDE = W * 4 + 8 };
    uint8_t *px = malloc((size_t)STRIDE * H), *dec = malloc((size_t)W * H * 4);
    uint8_t *p565 = malloc((size_t)W * H * 2);
    CHECK(px && dec && p565);
    if (!px || !dec || !p565) {
        free(px);
        free(dec);
        free(p565);
        return;
    }
    uint32_t seed = 12345u;
    for (int trial = 0; trial < 24; trial++) {
        /* lengths: short ones, then long ones up to a whole image */
        uint32_t maxrun = trial < 8 ? 4u : trial < 16 ? 700u : (uint32_t)W * H;
        memset(px, 0xA5, (size_t)STRIDE * H);
        uint32_t i = 0, colour = 0;
        while (i < (uint32_t)W * H) {
            seed = seed * 1664525u + 1013904223u;
            uint32_t len = 1 + (seed >> 8) % maxrun;
            seed = seed * 1664525u + 1013904223u;
            colour = (seed >> 4) & 3 ? seed : colour ^ 1; /* some near repeats */
            for (uint32_t k = 0; k < len && i < (uint32_t)W * H; k++, i++) {
                uint8_t *d = px + (i / W) * STRIDE + (i % W) * 4;
                memcpy(d, &colour, 4);
                put16(p565 + 2 * i, (uint16_t)colour);
            }
        }
        for (int f = 0; f < 2; f++) {
            cg_image im = {W, H, STRIDE, f ? CG_FORMAT_BGRA8888 : CG_FORMAT_RGBA8888, px};
            CHECK_EQ(cg_image_decode_rgba8(&im, dec), 0);
            CHECK_EQ(cg_image_hash(&im), ref_hash(W, H, dec));
        }
        cg_image im565 = {W, H, W * 2, CG_FORMAT_RGB565, p565};
        CHECK_EQ(cg_image_decode_rgba8(&im565, dec), 0);
        CHECK_EQ(cg_image_hash(&im565), ref_hash(W, H, dec));
    }
    /* one colour for each of a range of start states: every run length
     * 1..600 from the image's own start state, then a 640x480 clear */
    for (uint32_t n = 1; n <= 600; n += 7) {
        for (uint32_t k = 0; k < n; k++)
            memcpy(px + 4 * k, &(uint32_t){0xff203040u + n}, 4);
        cg_image row = {n, 1, n * 4, CG_FORMAT_RGBA8888, px};
        CHECK_EQ(cg_image_hash(&row), ref_hash(n, 1, px));
    }
    free(px);
    free(dec);
    free(p565);
    uint8_t *big = malloc(640 * 480 * 4);
    CHECK(big != NULL);
    if (big) {
        for (int k = 0; k < 640 * 480; k++)
            memcpy(big + 4 * k, "\x40\x40\x40\xff", 4);
        cg_image clear = {640, 480, 640 * 4, CG_FORMAT_RGBA8888, big};
        CHECK_EQ(cg_image_hash(&clear), ref_hash(640, 480, big));
    }
    free(big);
}

/* ---- PNG ---- */

static uint32_t lcg_state = 12345;
static uint8_t lcg_byte(void)
{
    lcg_state = lcg_state * 1103515245u + 12345u;
    return (uint8_t)(lcg_state >> 16);
}

static long file_size(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 ? (long)st.st_size : -1;
}

static int read_file(const char *path, uint8_t *buf, size_t cap, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    *n = fread(buf, 1, cap, f);
    fclose(f);
    return 0;
}

static void test_png_round_trip(void)
{
    enum { W = 7, H = 5, PAD = 3 };
    for (int fi = 0; fi < CG_FORMAT_COUNT; fi++) {
        cg_format f = (cg_format)fi;
        size_t stride = W * cg_format_bpp(f) + PAD;
        uint8_t *src = malloc(stride * H);
        uint8_t dec[W * H * 4];
        for (size_t i = 0; i < stride * H; i++)
            src[i] = lcg_byte();
        cg_image img = {W, H, stride, f, src};
        CHECK_EQ(cg_image_decode_rgba8(&img, dec), 0);

        char path[64];
        snprintf(path, sizeof(path), "test_image_%s.png", cg_format_name(f));
        CHECK_EQ(cg_image_write_png(path, &img), 0);

        /* IHDR: 8-bit, grey for R8, RGBA otherwise. */
        uint8_t head[33];
        size_t n = 0;
        CHECK_EQ(read_file(path, head, sizeof(head), &n), 0);
        CHECK_EQ(n, sizeof(head));
        CHECK_MEM(head, "\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR\0\0\0\x07\0\0\0\x05", 24);
        CHECK_EQ(head[24], 8);
        CHECK_EQ(head[25], f == CG_FORMAT_R8 ? PNG_COLOR_TYPE_GRAY : PNG_COLOR_TYPE_RGB_ALPHA);

        uint8_t *back = NULL;
        uint32_t w = 0, h = 0;
        CHECK_EQ(cg_image_read_png(path, &back, &w, &h), 0);
        CHECK_EQ(w, W);
        CHECK_EQ(h, H);
        CHECK(back != NULL);
        if (back) {
            CHECK_MEM(back, dec, sizeof(dec));
            cg_image again = {w, h, w * 4, CG_FORMAT_RGBA8888, back};
            CHECK_EQ(cg_image_hash(&again), cg_image_hash(&img));
        }
        free(back);

        /* The FILE writer gives the same bytes. */
        FILE *tf = tmpfile();
        CHECK(tf != NULL);
        if (tf) {
            CHECK_EQ(cg_image_write_png_file(tf, &img), 0);
            long size = ftell(tf);
            CHECK_EQ(size, file_size(path));
            uint8_t a[4096], b[4096];
            size_t na = 0;
            rewind(tf);
            size_t nb = fread(b, 1, sizeof(b), tf);
            CHECK_EQ(read_file(path, a, sizeof(a), &na), 0);
            CHECK_EQ(na, nb);
            CHECK_MEM(a, b, na < nb ? na : nb);
            fclose(tf);
        }
        remove(path);
        free(src);
    }
}

/* Write a PNG of any kind with libpng itself, for the reader's tests. */
struct raw_png {
    uint32_t w, h;
    int depth, color, interlace; /* interlace 0 = PNG_INTERLACE_NONE */
    const uint8_t *rows; /* packed rows, row_bytes apart */
    size_t row_bytes;
    const png_color *palette;
    int npalette;
    const uint8_t *trans; /* palette alpha */
    int ntrans;
    const png_color_16 *trans_color; /* grey or RGB colour key */
};

static int write_raw_png(const char *path, const struct raw_png *p)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    png_infop info = png_create_info_struct(png);
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        fclose(f);
        return -1;
    }
    png_init_io(png, f);
    png_set_IHDR(png, info, p->w, p->h, p->depth, p->color, p->interlace,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    if (p->palette)
        png_set_PLTE(png, info, p->palette, p->npalette);
    if (p->trans || p->trans_color)
        png_set_tRNS(png, info, p->trans, p->ntrans, p->trans_color);
    png_write_info(png, info);
    int passes = png_set_interlace_handling(png);
    for (int pass = 0; pass < passes; pass++)
        for (uint32_t y = 0; y < p->h; y++)
            png_write_row(png, p->rows + y * p->row_bytes);
    png_write_end(png, info);
    png_destroy_write_struct(&png, &info);
    return fclose(f) == 0 ? 0 : -1;
}

static void check_read(const char *what, const struct raw_png *p, const uint8_t *want)
{
    const char *path = "test_image_raw.png";
    CHECK_EQ(write_raw_png(path, p), 0);
    uint8_t *got = NULL;
    uint32_t w = 0, h = 0;
    CHECK_EQ(cg_image_read_png(path, &got, &w, &h), 0);
    CHECK_EQ(w, p->w);
    CHECK_EQ(h, p->h);
    CHECK(got != NULL);
    if (got) {
        CHECK_MEM(got, want, (size_t)p->w * p->h * 4);
        if (memcmp(got, want, (size_t)p->w * p->h * 4) != 0)
            fprintf(stderr, "  reading %s\n", what);
    }
    free(got);
    remove(path);
}

static void test_png_read_kinds(void)
{
    /* 16-bit RGBA: channels scaled by v * 255 / 65535, rounded. 0x8100 gives
     * 128 (128.498), where taking the high byte would give 129. */
    {
        const uint8_t rows[16] = {0xFF, 0xFF, 0x00, 0x00, 0x81, 0x00, 0x80, 0x80,
                                  0x01, 0x01, 0x7F, 0x7F, 0xFE, 0x00, 0xFF, 0xFF};
        const uint8_t want[8] = {255, 0, 128, 128, 1, 127, 253, 255};
        struct raw_png p = {.w = 2, .h = 1, .depth = 16, .color = PNG_COLOR_TYPE_RGB_ALPHA,
                            .rows = rows, .row_bytes = 16};
        check_read("rgba16", &p, want);
    }
    /* 4-bit palette with tRNS for the first two entries only. */
    {
        const png_color pal[3] = {{10, 20, 30}, {40, 50, 60}, {70, 80, 90}};
        const uint8_t trans[2] = {0, 128};
        const uint8_t rows[2] = {0x01, 0x20};
        const uint8_t want[12] = {10, 20, 30, 0, 40, 50, 60, 128, 70, 80, 90, 255};
        struct raw_png p = {.w = 3, .h = 1, .depth = 4, .color = PNG_COLOR_TYPE_PALETTE,
                            .rows = rows, .row_bytes = 2, .palette = pal, .npalette = 3,
                            .trans = trans, .ntrans = 2};
        check_read("palette4+tRNS", &p, want);
    }
    /* 8-bit palette without tRNS: opaque. */
    {
        const png_color pal[2] = {{1, 2, 3}, {250, 251, 252}};
        const uint8_t rows[2] = {1, 0};
        const uint8_t want[8] = {250, 251, 252, 255, 1, 2, 3, 255};
        struct raw_png p = {.w = 2, .h = 1, .depth = 8, .color = PNG_COLOR_TYPE_PALETTE,
                            .rows = rows, .row_bytes = 2, .palette = pal, .npalette = 2};
        check_read("palette8", &p, want);
    }
    /* 2-bit grey: 0..3 scale to 0, 85, 170, 255. */
    {
        const uint8_t rows[1] = {0x1B};
        const uint8_t want[16] = {0, 0, 0, 255, 85, 85, 85, 255, 170, 170, 170, 255,
                                  255, 255, 255, 255};
        struct raw_png p = {.w = 4, .h = 1, .depth = 2, .color = PNG_COLOR_TYPE_GRAY,
                            .rows = rows, .row_bytes = 1};
        check_read("grey2", &p, want);
    }
    /* 8-bit grey + alpha. */
    {
        const uint8_t rows[4] = {100, 50, 200, 255};
        const uint8_t want[8] = {100, 100, 100, 50, 200, 200, 200, 255};
        struct raw_png p = {.w = 2, .h = 1, .depth = 8, .color = PNG_COLOR_TYPE_GRAY_ALPHA,
                            .rows = rows, .row_bytes = 4};
        check_read("grey-alpha8", &p, want);
    }
    /* 8-bit grey with a tRNS key: that grey is transparent. */
    {
        const png_color_16 key = {0, 0, 0, 0, 7};
        const uint8_t rows[2] = {7, 8};
        const uint8_t want[8] = {7, 7, 7, 0, 8, 8, 8, 255};
        struct raw_png p = {.w = 2, .h = 1, .depth = 8, .color = PNG_COLOR_TYPE_GRAY,
                            .rows = rows, .row_bytes = 2, .trans_color = &key};
        check_read("grey8+tRNS", &p, want);
    }
    /* 8-bit RGB with a tRNS key. */
    {
        const png_color_16 key = {0, 1, 2, 3, 0};
        const uint8_t rows[6] = {1, 2, 3, 1, 2, 4};
        const uint8_t want[8] = {1, 2, 3, 0, 1, 2, 4, 255};
        struct raw_png p = {.w = 2, .h = 1, .depth = 8, .color = PNG_COLOR_TYPE_RGB,
                            .rows = rows, .row_bytes = 6, .trans_color = &key};
        check_read("rgb8+tRNS", &p, want);
    }
    /* Adam7-interlaced 9x9 RGB. */
    {
        uint8_t rows[9 * 27], want[9 * 9 * 4];
        for (int y = 0; y < 9; y++) {
            for (int x = 0; x < 9; x++) {
                uint8_t *s = rows + y * 27 + x * 3, *d = want + (y * 9 + x) * 4;
                d[0] = s[0] = (uint8_t)(x * 20);
                d[1] = s[1] = (uint8_t)(y * 20);
                d[2] = s[2] = (uint8_t)(x + y);
                d[3] = 255;
            }
        }
        struct raw_png p = {.w = 9, .h = 9, .depth = 8, .color = PNG_COLOR_TYPE_RGB,
                            .interlace = PNG_INTERLACE_ADAM7, .rows = rows, .row_bytes = 27};
        check_read("rgb8 interlaced", &p, want);
    }
}

/* The whole file at path (malloc'd), its size in *n; NULL if unreadable. */
static uint8_t *read_all(const char *path, size_t *n)
{
    *n = 0;
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    uint8_t *b = NULL;
    size_t cap = 0, len = 0;
    for (;;) {
        if (len == cap) {
            uint8_t *nb = realloc(b, cap = cap ? 2 * cap : 4096);
            if (!nb) {
                free(b);
                fclose(f);
                return NULL;
            }
            b = nb;
        }
        size_t got = fread(b + len, 1, cap - len, f);
        len += got;
        if (got == 0)
            break;
    }
    fclose(f);
    *n = len;
    return b;
}

/* A PNG written over a file that holds more bytes (written in place, not
 * truncated first: cg__out_open) is exactly the PNG a fresh file gets, and
 * one over the same PNG leaves it as it was. */
static void test_png_overwrite(void)
{
    uint8_t pixels[32 * 8 * 4];
    for (size_t i = 0; i < sizeof(pixels); i++)
        pixels[i] = (uint8_t)(i * 13 + (i >> 5));
    cg_image img = {32, 8, 128, CG_FORMAT_RGBA8888, pixels};
    remove("test_image_fresh.png");
    CHECK_EQ(cg_image_write_png("test_image_fresh.png", &img), 0);
    size_t n = 0;
    uint8_t *fresh = read_all("test_image_fresh.png", &n);
    CHECK(fresh != NULL && n > 8);
    FILE *f = fopen("test_image_over.png", "wb");
    CHECK(f != NULL);
    for (unsigned i = 0; f && i < 4 * n + 1000; i++)
        fputc(0xA5 ^ (int)(i & 0xFF), f);
    if (f)
        fclose(f);
    for (int round = 0; round < 2; round++) {
        CHECK_EQ(cg_image_write_png("test_image_over.png", &img), 0);
        size_t m = 0;
        uint8_t *over = read_all("test_image_over.png", &m);
        CHECK_EQ(m, n);
        CHECK(over && fresh && m == n && memcmp(over, fresh, n) == 0);
        free(over);
    }
    /* a write that fails part way (past the file size limit: EFBIG) leaves
     * no file, not the new bytes over the old */
    struct rlimit lim;
    if (getrlimit(RLIMIT_FSIZE, &lim) == 0 && n > 8) {
        void (*was)(int) = signal(SIGXFSZ, SIG_IGN);
        struct rlimit low = {n / 2, lim.rlim_max};
        CHECK_EQ(setrlimit(RLIMIT_FSIZE, &low), 0);
        CHECK_EQ(cg_image_write_png("test_image_over.png", &img), CG_ERR_IO);
        CHECK_EQ(setrlimit(RLIMIT_FSIZE, &lim), 0);
        signal(SIGXFSZ, was);
        struct stat st;
        CHECK(stat("test_image_over.png", &st) != 0 && errno == ENOENT);
    }
    free(fresh);
    remove("test_image_fresh.png");
    remove("test_image_over.png");
}

static void test_png_errors(void)
{
    uint8_t pixels[16 * 16 * 4];
    for (size_t i = 0; i < sizeof(pixels); i++)
        pixels[i] = (uint8_t)(i * 7);
    cg_image img = {16, 16, 64, CG_FORMAT_RGBA8888, pixels};
    uint8_t *rgba = (uint8_t *)&img; /* must be reset to NULL on failure */
    uint32_t w = 1, h = 1;

    /* Writing. */
    CHECK_EQ(cg_image_write_png("/nonexistent-cmdgpu-dir/x.png", &img), CG_ERR_IO);
    struct stat st;
    if (stat("/dev/full", &st) == 0) {
        /* Every write fails with ENOSPC; the device must not be removed. */
        CHECK_EQ(cg_image_write_png("/dev/full", &img), CG_ERR_IO);
        CHECK_EQ(stat("/dev/full", &st), 0);
    }
    /* A stream opened for reading: libpng's write fails, the longjmp path
     * frees everything (ASan checks the leak). */
    CHECK_EQ(cg_image_write_png("test_image_ro.png", &img), 0);
    FILE *ro = fopen("test_image_ro.png", "rb");
    CHECK(ro != NULL);
    if (ro) {
        cg_image rgb565 = {16, 16, 32, CG_FORMAT_RGB565, pixels}; /* decoded row path */
        CHECK_EQ(cg_image_write_png_file(ro, &img), CG_ERR_IO);
        CHECK_EQ(cg_image_write_png_file(ro, &rgb565), CG_ERR_IO);
        fclose(ro);
    }

    /* Reading. */
    CHECK_EQ(cg_image_read_png("/nonexistent-cmdgpu-dir/x.png", &rgba, &w, &h), CG_ERR_IO);
    CHECK(rgba == NULL);
    CHECK_EQ(w, 0);
    CHECK_EQ(h, 0);
    CHECK_EQ(cg_image_read_png(NULL, &rgba, &w, &h), CG_ERR_INVAL);
    CHECK_EQ(cg_image_read_png("x", NULL, &w, &h), CG_ERR_INVAL);
    CHECK_EQ(cg_image_read_png("x", &rgba, NULL, &h), CG_ERR_INVAL);
    CHECK_EQ(cg_image_read_png("x", &rgba, &w, NULL), CG_ERR_INVAL);

    /* Not a PNG: too short, then a wrong signature. */
    FILE *f = fopen("test_image_bad.png", "wb");
    fputs("PNG", f);
    fclose(f);
    CHECK_EQ(cg_image_read_png("test_image_bad.png", &rgba, &w, &h), CG_ERR_IO);
    f = fopen("test_image_bad.png", "wb");
    fputs("this is not a PNG file at all", f);
    fclose(f);
    CHECK_EQ(cg_image_read_png("test_image_bad.png", &rgba, &w, &h), CG_ERR_IO);
    CHECK(rgba == NULL);

    /* A PNG cut in half: libpng's error comes back as CG_ERR_IO, nothing
     * allocated is left behind. */
    static uint8_t whole[1 << 16];
    size_t n = 0;
    CHECK_EQ(read_file("test_image_ro.png", whole, sizeof(whole), &n), 0);
    CHECK(n > 100 && n < sizeof(whole));
    f = fopen("test_image_bad.png", "wb");
    fwrite(whole, 1, n / 2, f);
    fclose(f);
    CHECK_EQ(cg_image_read_png("test_image_bad.png", &rgba, &w, &h), CG_ERR_IO);
    CHECK(rgba == NULL);
    /* A corrupt IDAT byte (the CRC no longer matches). */
    whole[n - 20] ^= 0xFF;
    f = fopen("test_image_bad.png", "wb");
    fwrite(whole, 1, n, f);
    fclose(f);
    CHECK_EQ(cg_image_read_png("test_image_bad.png", &rgba, &w, &h), CG_ERR_IO);
    CHECK(rgba == NULL);

    /* Wider than a view can be. */
    {
        uint8_t *row = calloc(70000, 1);
        struct raw_png p = {.w = 70000, .h = 1, .depth = 8, .color = PNG_COLOR_TYPE_GRAY,
                            .rows = row, .row_bytes = 70000};
        CHECK_EQ(write_raw_png("test_image_bad.png", &p), 0);
        CHECK_EQ(cg_image_read_png("test_image_bad.png", &rgba, &w, &h), CG_ERR_RANGE);
        CHECK(rgba == NULL);
        free(row);
    }
    remove("test_image_bad.png");
    remove("test_image_ro.png");
}

int main(void)
{
    test_format_table();
    test_decode_8bit();
    test_decode_16bit();
    test_decode_half();
    test_decode_float();
    test_decode_stride();
    test_invalid_views();
    test_hash();
    test_hash_runs();
    test_png_round_trip();
    test_png_read_kinds();
    test_png_errors();
    test_png_overwrite();
    return check_report("test_image");
}
