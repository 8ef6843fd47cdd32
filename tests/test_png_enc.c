/* The PNG writer's own encoder (core/zfast.c + cg_image_write_png_file):
 * for images of every format, many sizes and contents (flat, runs, repeated
 * pixels, noise, 1x1, odd widths), the file is a valid PNG whose pixels
 * read back through libpng (cg_image_read_png) equal cg_image_decode_rgba8,
 * and the IDAT stream inflates with zlib to exactly the Up-filtered rows
 * the test builds itself, and that stream is byte for byte the one a
 * single cg__zfast call makes over those rows (the writer compresses a
 * window at a time). Plus the known-answer zlib stream of a tiny input
 * worked by hand. */
#include <stdlib.h>
#include <unistd.h>
#include <zlib.h>
#include "check.h"
#include "cmdgpu/cmdgpu.h"
#include "core/zfast.h"

static uint64_t rng = 0x9E3779B97F4A7C15ull;
static uint32_t rnd(void)
{
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return (uint32_t)(rng >> 16);
}

static uint32_t be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* Concatenated IDAT data of a PNG file in memory; checks the chunk CRCs. */
static uint8_t *idat_of(const uint8_t *png, size_t n, size_t *len, int *bad_crc)
{
    uint8_t *out = malloc(n);
    *len = 0;
    for (size_t at = 8; at + 12 <= n;) {
        uint32_t cl = be32(png + at);
        if (at + 12 + cl > n)
            break;
        uLong crc = crc32(crc32(0L, Z_NULL, 0), png + at + 4, 4 + cl);
        if (crc != be32(png + at + 8 + cl))
            (*bad_crc)++;
        if (memcmp(png + at + 4, "IDAT", 4) == 0) {
            memcpy(out + *len, png + at + 8, cl);
            *len += cl;
        }
        at += 12 + cl;
    }
    return out;
}

static void one(cg_format fmt, uint32_t w, uint32_t h, int kind, int *fails)
{
    unsigned bpp = cg_format_bpp(fmt);
    size_t stride = (size_t)w * bpp + (rnd() % 3) * 4; /* padded rows too */
    uint8_t *px = malloc(stride * h);
    for (size_t i = 0; i < stride * h; i++) {
        switch (kind) {
        case 0: px[i] = 0; break;                            /* flat */
        case 1: px[i] = (uint8_t)(i / (stride * 3) * 40); break; /* bands of rows */
        case 2: px[i] = (uint8_t)(i % bpp * 50 + 1); break;      /* one repeated pixel */
        case 3: px[i] = (rnd() & 7) ? px[i ? i - 1 : 0] : (uint8_t)rnd(); break; /* runs */
        case 5: px[i] = (uint8_t)(i / stride * 2); break; /* filtered: all 2, like filter bytes */
        default: px[i] = (uint8_t)rnd(); break;              /* noise */
        }
    }
    if (fmt == CG_FORMAT_RGBA16F || fmt == CG_FORMAT_RGBA32F) /* finite values only */
        for (size_t i = 0; i < stride * h; i++)
            px[i] &= fmt == CG_FORMAT_RGBA16F ? ((i & 1) ? 0x3b : 0xff) : ((i & 3) == 3 ? 0x3f : 0xff);
    cg_image img = {w, h, stride, fmt, px};
    size_t n = 0;
    char *buf = NULL;
    FILE *f = open_memstream(&buf, &n);
    int rc = cg_image_write_png_file(f, &img);
    fclose(f);
    bool grey = fmt == CG_FORMAT_R8;
    unsigned opx = grey ? 1 : 4;
    uint8_t *want = malloc((size_t)w * h * 4);
    cg_image_decode_rgba8(&img, want);
    /* read back through libpng */
    char path[] = "/tmp/cmdgpu_png_enc_XXXXXX";
    int fd = mkstemp(path);
    if (fd >= 0) {
        if (write(fd, buf, n) != (ssize_t)n)
            (*fails)++;
        close(fd);
    }
    uint8_t *got = NULL;
    uint32_t gw = 0, gh = 0;
    int rrc = cg_image_read_png(path, &got, &gw, &gh);
    unlink(path);
    bool ok = rc == 0 && rrc == 0 && gw == w && gh == h && got &&
              memcmp(got, want, (size_t)w * h * 4) == 0;
    /* the IDAT stream inflates to the Up-filtered rows */
    int bad_crc = 0;
    size_t zl;
    uint8_t *z = idat_of((const uint8_t *)buf, n, &zl, &bad_crc);
    size_t rowb = (size_t)w * opx, fl = (rowb + 1) * h;
    uint8_t *filt = malloc(fl), *inf = malloc(fl + 1);
    for (uint32_t y = 0; y < h; y++) {
        filt[y * (rowb + 1)] = 2;
        for (size_t x = 0; x < rowb; x++) {
            size_t p = x / opx, c = x % opx;
            uint8_t v = grey ? px[y * stride + x] : want[((size_t)y * w + p) * 4 + c];
            uint8_t above = y == 0 ? 0 : grey ? px[(y - 1) * stride + x]
                                              : want[((size_t)(y - 1) * w + p) * 4 + c];
            filt[y * (rowb + 1) + 1 + x] = (uint8_t)(v - above);
        }
    }
    uLongf il = (uLongf)fl + 1;
    ok = ok && bad_crc == 0 && uncompress(inf, &il, z, (uLong)zl) == Z_OK && il == fl &&
         memcmp(inf, filt, fl) == 0;
    /* and it is byte for byte the stream of one cg__zfast call over all the
     * rows (the writer feeds it a window of about 64 KiB at a time) */
    uint8_t *z1 = malloc(cg__zfast_bound(fl));
    size_t zl1 = cg__zfast(filt, fl, opx, z1);
    ok = ok && zl1 == zl && memcmp(z1, z, zl) == 0;
    free(z1);
    if (!ok) {
        fprintf(stderr, "format %s %ux%u kind %d: write %d read %d crc %d\n", cg_format_name(fmt),
                w, h, kind, rc, rrc, bad_crc);
        (*fails)++;
    }
    free(px), free(buf), free(want), free(got), free(z), free(filt), free(inf);
}

int main(void)
{
    /* Known answer: "aaaaa" is a literal 'a' then a match of 4 at distance
     * 1, in one fixed-Huffman block. Bits (LSB first): 1 01 (BFINAL,
     * fixed), 'a' = 0x30+0x61 = 10010001, length 4 = symbol 258 = 0000010,
     * distance 1 = 00000, end of block = 0000000: 30 bits, 4B 04 01 00.
     * Adler-32 of "aaaaa": a = 1 + 5 * 97 = 0x1E6, b = 98 + 195 + 292 +
     * 389 + 486 = 0x5B4. */
    uint8_t out[64];
    size_t zl = cg__zfast((const uint8_t *)"aaaaa", 5, 1, out);
    static const uint8_t want[] = {0x78, 0x01, 0x4b, 0x04, 0x01, 0x00, 0x05, 0xb4, 0x01, 0xe6};
    CHECK_EQ(zl, sizeof want);
    CHECK(memcmp(out, want, sizeof want) == 0);
    uint8_t inf[8];
    uLongf il = sizeof inf;
    CHECK_EQ(uncompress(inf, &il, out, (uLong)zl), Z_OK);
    CHECK_EQ(il, 5);
    CHECK(memcmp(inf, "aaaaa", 5) == 0);
    /* every length 3..258 and both distances, through zlib */
    uint8_t s[2000], big[2000 + 2000 / 8 + 32];
    for (size_t i = 0; i < sizeof s; i++)
        s[i] = i < 600 ? 7 : i < 1200 ? (uint8_t)"abcd"[i % 4] : (uint8_t)(rnd() % 3);
    zl = cg__zfast(s, sizeof s, 4, big);
    CHECK(zl <= cg__zfast_bound(sizeof s));
    uint8_t back[2001];
    il = sizeof back;
    CHECK_EQ(uncompress(back, &il, big, (uLong)zl), Z_OK);
    CHECK_EQ(il, sizeof s);
    CHECK(memcmp(back, s, sizeof s) == 0);

    int fails = 0, cases = 0;
    static const uint32_t sizes[][2] = {{1, 1}, {1, 7}, {7, 1}, {3, 5}, {17, 9}, {64, 64},
                                        {129, 3}, {333, 21}, {640, 48}};
    for (int fmt = 0; fmt < CG_FORMAT_COUNT; fmt++)
        for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++)
            for (int kind = 0; kind < 5; kind++, cases++)
                one((cg_format)fmt, sizes[k][0], sizes[k][1], kind, &fails);
    CHECK_EQ(fails, 0);
    CHECK_EQ(cases, CG_FORMAT_COUNT * 9 * 5);
    /* many windows: flat, runs and noise across window ends, rows longer
     * than a window, and rows whose filtered bytes equal the filter type
     * byte (2), so that matches run across rows and window ends */
    for (int kind = 0; kind < 6; kind++) {
        one(CG_FORMAT_BGRA8888, 700, 150, kind, &fails);
        one(CG_FORMAT_R8, 3001, 90, kind, &fails);
        one(CG_FORMAT_RGBA8888, 17000, 3, kind, &fails);
    }
    CHECK_EQ(fails, 0);
    return check_report("test_png_enc");
}
