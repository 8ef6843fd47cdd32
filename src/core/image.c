/* cmdgpu core: pixel formats, decoding to RGBA8, PNG files and pixel hashes.
 *
 * Everything about a format (enum, name, bytes per pixel) comes from
 * CG_FORMAT_TABLE; decode_span() is the one place that knows the bit layouts.
 * PNG reading and writing is libpng's job; its errors arrive through
 * png_error_cb() as a longjmp back to the function that set up the struct,
 * which frees what it allocated and returns CG_ERR_IO. */
#include <fcntl.h>
#include <math.h>
#include <png.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include "image_internal.h"
#include "internal.h"
#include "zfast.h"

/* Views are limited to 16-bit dimensions (image.h, cg_image). */
#define IMAGE_MAX_DIM 65535u

static const struct {
    const char *name;
    unsigned bpp;
} formats[] = {
#define CG_X_ROW(id, name, bpp) {name, bpp},
    CG_FORMAT_TABLE(CG_X_ROW)
#undef CG_X_ROW
};

const char *cg_format_name(cg_format f)
{
    return (unsigned)f < CG_FORMAT_COUNT ? formats[f].name : "?";
}

unsigned cg_format_bpp(cg_format f)
{
    return (unsigned)f < CG_FORMAT_COUNT ? formats[f].bpp : 0;
}

int cg_format_from_name(const char *name, cg_format *out)
{
    for (unsigned f = 0; name && f < CG_FORMAT_COUNT; f++) {
        if (strcmp(formats[f].name, name) == 0) {
            if (out)
                *out = (cg_format)f;
            return 0;
        }
    }
    return CG_ERR_NOENT;
}

/* Check a view: dimensions in 1..65535, pixels present, a known format, rows
 * at least width*bpp apart, and the last byte addressable without overflow. */
static int image_check(const cg_image *img)
{
    if (!img || !img->pixels || (unsigned)img->format >= CG_FORMAT_COUNT)
        return CG_ERR_INVAL;
    if (img->width == 0 || img->width > IMAGE_MAX_DIM || img->height == 0 ||
        img->height > IMAGE_MAX_DIM)
        return CG_ERR_INVAL;
    size_t row = (size_t)img->width * formats[img->format].bpp; /* <= 65535 * 16 */
    if (img->stride < row)
        return CG_ERR_INVAL;
    /* Offset of the last row plus its bytes must fit in a size_t. */
    if (img->height > 1 && img->stride > (SIZE_MAX - row) / (img->height - 1))
        return CG_ERR_INVAL;
    return 0;
}

static uint16_t load16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }

static uint32_t load32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* 5- and 6-bit channels to 8 bits by bit replication. */
static uint8_t expand5(unsigned v) { return (uint8_t)(v << 3 | v >> 2); }
static uint8_t expand6(unsigned v) { return (uint8_t)(v << 2 | v >> 4); }

/* IEEE 754 binary16 to float; every half value is exact in a float. */
static float half_to_float(uint16_t h)
{
    unsigned exp = (h >> 10) & 0x1f, mant = h & 0x3ff;
    float v;
    if (exp == 0) {
        v = (float)mant * (1.0f / 16777216.0f); /* zero or denormal: mant * 2^-24 */
    } else if (exp == 31) {
        v = mant ? NAN : INFINITY;
    } else {
        uint32_t bits = (uint32_t)(exp - 15 + 127) << 23 | (uint32_t)mant << 13;
        memcpy(&v, &bits, sizeof(v));
    }
    return (h & 0x8000) ? -v : v;
}

/* round(clamp(v, 0, 1) * 255), halves rounding up; NaN gives 0. v * 255 is
 * exact in a double, so the rounding is exact too. */
static uint8_t unit_to_u8(float v)
{
    if (!(v > 0.0f))
        return 0;
    if (v >= 1.0f)
        return 255;
    return (uint8_t)((double)v * 255.0 + 0.5);
}

static float load_float(const uint8_t *p)
{
    uint32_t bits = load32(p);
    float v;
    memcpy(&v, &bits, sizeof(v));
    return v;
}

/* Decode n pixels of format f from src into dst (RGBA8, 4 bytes a pixel). */
static void decode_span(cg_format f, const uint8_t *src, size_t n, uint8_t *dst)
{
    size_t i;
    switch (f) {
    case CG_FORMAT_RGBA8888:
        memcpy(dst, src, n * 4);
        break;
    case CG_FORMAT_BGRA8888:
        for (i = 0; i < n; i++, src += 4, dst += 4) {
            dst[0] = src[2];
            dst[1] = src[1];
            dst[2] = src[0];
            dst[3] = src[3];
        }
        break;
    case CG_FORMAT_RGB565:
        for (i = 0; i < n; i++, src += 2, dst += 4) {
            unsigned v = load16(src);
            dst[0] = expand5(v >> 11);
            dst[1] = expand6((v >> 5) & 0x3f);
            dst[2] = expand5(v & 0x1f);
            dst[3] = 255;
        }
        break;
    case CG_FORMAT_ARGB1555:
        for (i = 0; i < n; i++, src += 2, dst += 4) {
            unsigned v = load16(src);
            dst[0] = expand5((v >> 10) & 0x1f);
            dst[1] = expand5((v >> 5) & 0x1f);
            dst[2] = expand5(v & 0x1f);
            dst[3] = (v & 0x8000) ? 255 : 0;
        }
        break;
    case CG_FORMAT_R8:
        for (i = 0; i < n; i++, src++, dst += 4) {
            dst[0] = dst[1] = dst[2] = src[0];
            dst[3] = 255;
        }
        break;
    case CG_FORMAT_RGBA16F:
        for (i = 0; i < n * 4; i++, src += 2)
            dst[i] = unit_to_u8(half_to_float(load16(src)));
        break;
    case CG_FORMAT_RGBA32F:
        for (i = 0; i < n * 4; i++, src += 4)
            dst[i] = unit_to_u8(load_float(src));
        break;
    case CG_FORMAT_COUNT:
        break;
    }
}

static const uint8_t *row_ptr(const cg_image *img, uint32_t y)
{
    return (const uint8_t *)img->pixels + (size_t)y * img->stride;
}

int cg_image_decode_rgba8(const cg_image *img, uint8_t *dst)
{
    int rc = image_check(img);
    if (rc)
        return rc;
    if (!dst)
        return CG_ERR_INVAL;
    size_t out_row = (size_t)img->width * 4;
    if (img->height > SIZE_MAX / out_row)
        return CG_ERR_INVAL;
    for (uint32_t y = 0; y < img->height; y++)
        decode_span(img->format, row_ptr(img, y), img->width, dst + (size_t)y * out_row);
    return 0;
}

/* ---- hashing ---- */

#define FNV64_BASIS 0xcbf29ce484222325ull
#define FNV64_PRIME 0x100000001b3ull

static uint64_t fnv1a(uint64_t h, const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= FNV64_PRIME;
    }
    return h;
}

/* FNV-1a over the four bytes of v, lowest first. FNV-1a is a chain through
 * every byte (each xor feeds the next multiply), so no two bytes can be
 * folded into one step without changing the hash; what can go is the work
 * around the chain: bytes come out of one load per pixel, not one load and
 * one loop test each. */
static inline uint64_t fnv1a_u32(uint64_t h, uint32_t v)
{
    h = (h ^ (v & 0xFFu)) * FNV64_PRIME;
    h = (h ^ ((v >> 8) & 0xFFu)) * FNV64_PRIME;
    h = (h ^ ((v >> 16) & 0xFFu)) * FNV64_PRIME;
    return (h ^ (v >> 24)) * FNV64_PRIME;
}

/* ---- FNV-1a over runs of one pixel value ----
 *
 * An xor with a byte b changes only the low byte l of the state, so
 *     (h ^ b) * P = h * P + ((l ^ b) - l) * P   (mod 2^64)
 * and the low byte after the step, ((l ^ b) * P) mod 256, depends on l
 * alone. Over one pixel v, then, h -> h * P^4 + D[l] and l -> g[l], where g
 * is a permutation of the 256 byte values (each byte step is one: an xor,
 * then a multiply by an odd number). So the low bytes of a run of v walk a
 * cycle of g, and every stretch of a run is an affine map x -> m x + c
 * (mod 2^64) read off tables of that cycle:
 *   - walking g's cycle from its first member (its base), with e_0 = 0 and
 *     e_{j+1} = e_j * P^4 + D[l_j], the first j pixels from the base map x
 *     to P^(4j) x + e_j;
 *   - so t pixels from position p (p + t <= r, the cycle's length) map x to
 *     P^(4t) (x - e_p) + e_{p+t}, and a whole period from p maps x to
 *     a x + c_p with a = P^(4r), c_p = e_p (1 - a) + P^(4p) e_r;
 *   - k pixels are k / r periods (the affine map raised by squaring) and a
 *     tail of k % r (at most one wrap past the base).
 * A run then costs O(log k) once its value's tables are built (about 2,000
 * multiplies, kept for the last few values), which pays from a few hundred
 * pixels on: cleared backgrounds and flat fills hash in microseconds. The
 * result is the same as k plain steps; tests/test_image.c checks runs of
 * every length against the plain chain. */

enum { FNV_CACHED = 4, FNV_TABLE_RUN = 256 };

typedef struct {
    uint32_t v;
    bool valid;
    uint8_t pos[256];   /* each low byte's position in its cycle */
    uint8_t base[256];  /* and the cycle's first member */
    uint8_t seq[256];   /* cycles one after another, each from its base */
    uint8_t first[256]; /* for a base: where its cycle starts in seq */
    uint16_t len[256];  /* for a base: its cycle's length (1..256) */
    uint64_t e[256];    /* e_(pos[l]) for each low byte l */
    uint64_t e_r[256];  /* for a base: e_r, its whole period */
} fnv_cycles;

typedef struct {
    uint64_t pw[257]; /* P^(4j) */
    unsigned next;    /* the cache entry to replace next */
    fnv_cycles c[FNV_CACHED];
} fnv_tables;

static void fnv_build(fnv_tables *t, fnv_cycles *c, uint32_t v)
{
    uint64_t d[256];
    uint8_t g[256];
    for (unsigned l = 0; l < 256; l++) {
        uint64_t h = fnv1a_u32(l, v); /* from state l: h -> h P^4 + D[l] */
        d[l] = h - (uint64_t)l * t->pw[1];
        g[l] = (uint8_t)h;
    }
    bool seen[256] = {false};
    unsigned at = 0;
    for (unsigned b = 0; b < 256; b++) {
        if (seen[b])
            continue;
        c->first[b] = (uint8_t)at;
        uint64_t e = 0;
        unsigned j = 0, l = b;
        do {
            seen[l] = true;
            c->pos[l] = (uint8_t)j;
            c->base[l] = (uint8_t)b;
            c->seq[at + j] = (uint8_t)l;
            c->e[l] = e;
            e = e * t->pw[1] + d[l];
            l = g[l];
            j++;
        } while (l != b);
        c->len[b] = (uint16_t)j;
        c->e_r[b] = e;
        at += j;
    }
    c->v = v;
    c->valid = true;
}

/* e_j of the cycle with base b, 0 <= j <= its length */
static inline uint64_t fnv_e(const fnv_cycles *c, unsigned b, unsigned j)
{
    return j == c->len[b] ? c->e_r[b] : c->e[c->seq[c->first[b] + j]];
}

static uint64_t fnv_run_tables(const fnv_tables *t, const fnv_cycles *c, uint64_t h,
                               uint64_t k)
{
    unsigned l = (unsigned)(h & 0xFFu), b = c->base[l], p = c->pos[l], r = c->len[b];
    uint64_t ep = c->e[l];
    uint64_t a = t->pw[r], cp = ep * (1 - a) + t->pw[p] * c->e_r[b];
    /* whole periods: (x -> a x + cp)^q by squaring; f(f(x)) = a^2 x + a cp + cp */
    uint64_t ma = 1, mc = 0;
    for (uint64_t q = k / r; q; q >>= 1) {
        if (q & 1) {
            mc = a * mc + cp;
            ma = a * ma;
        }
        cp = a * cp + cp;
        a = a * a;
    }
    h = ma * h + mc; /* back at position p */
    unsigned tail = (unsigned)(k % r);
    if (p + tail <= r)
        return t->pw[tail] * (h - ep) + fnv_e(c, b, p + tail);
    h = t->pw[r - p] * (h - ep) + c->e_r[b]; /* to the base */
    return t->pw[p + tail - r] * h + fnv_e(c, b, p + tail - r);
}

/* The hash of a stream of pixels, fed run by run so a run may span rows. */
typedef struct {
    uint64_t h;
    uint32_t v; /* the pending run's pixel */
    uint64_t k; /* and its length (0: none) */
    uint32_t cand_v; /* the value whose plainly stepped pixels are counted */
    uint64_t cand_k; /* and their count */
    fnv_tables *t;   /* tables for long runs (fnv_tables_get) */
    bool no_tables;  /* their allocation failed */
} fnv_runs;

/* The tables, allocated when a first value earns them (about 27 KB from the
 * heap: the hash may run on a thread with a small stack); NULL if that
 * fails, and runs are then stepped plainly. */
static fnv_tables *fnv_tables_get(fnv_runs *f)
{
    if (f->t || f->no_tables)
        return f->t;
    fnv_tables *t = malloc(sizeof *t);
    if (!t) {
        f->no_tables = true;
        return NULL;
    }
    const uint64_t p4 = FNV64_PRIME * FNV64_PRIME * FNV64_PRIME * FNV64_PRIME;
    t->pw[0] = 1;
    for (unsigned j = 1; j <= 256; j++)
        t->pw[j] = t->pw[j - 1] * p4;
    t->next = 0;
    for (unsigned i = 0; i < FNV_CACHED; i++)
        t->c[i].valid = false;
    return f->t = t;
}

static void fnv_flush(fnv_runs *f)
{
    uint64_t k = f->k;
    f->k = 0;
    if (k > 1) {
        fnv_tables *t = f->t;
        for (unsigned i = 0; t && i < FNV_CACHED; i++)
            if (t->c[i].valid && t->c[i].v == f->v) {
                f->h = fnv_run_tables(t, &t->c[i], f->h, k);
                return;
            }
        /* a value's tables are built once its runs not yet through tables
         * come to FNV_TABLE_RUN pixels (the build costs about as much as
         * that many plain steps), so an edge-bounded fill whose first rows
         * are short still reaches them */
        if (f->cand_v != f->v)
            f->cand_k = 0;
        f->cand_v = f->v;
        f->cand_k += k;
        if (f->cand_k >= FNV_TABLE_RUN && (t = fnv_tables_get(f))) {
            f->cand_k = 0;
            fnv_cycles *c = &t->c[t->next];
            t->next = (t->next + 1) % FNV_CACHED;
            fnv_build(t, c, f->v);
            f->h = fnv_run_tables(t, c, f->h, k);
            return;
        }
    }
    for (; k; k--)
        f->h = fnv1a_u32(f->h, f->v);
}

static inline void fnv_run(fnv_runs *f, uint32_t v, uint64_t k)
{
    if (f->k && f->v == v) {
        f->k += k;
        return;
    }
    fnv_flush(f);
    f->v = v;
    f->k = k;
}

static inline uint32_t rgba_of_bgra(uint32_t v)
{
    return (v & 0xFF00FF00u) | (v >> 16 & 0xFFu) | (v & 0xFFu) << 16;
}

/* n pixels of RGBA8 bytes (bgra: BGRA8 bytes, hashed as the RGBA8 they
 * decode to), cut into runs of equal pixels. */
static void fnv_pixels(fnv_runs *f, const uint8_t *p, size_t n, bool bgra)
{
    size_t i = 0;
    while (i < n) {
        uint32_t raw = load32(p + 4 * i);
        size_t j = i + 1;
        /* the run's end, eight pixels a step: two copies of the pixel's
         * bytes compared as host words (any byte order) */
        uint64_t two, a[4];
        memcpy(&two, p + 4 * i, 4);
        memcpy((uint8_t *)&two + 4, p + 4 * i, 4);
        while (j + 8 <= n) {
            memcpy(a, p + 4 * j, 32);
            if ((a[0] ^ two) | (a[1] ^ two) | (a[2] ^ two) | (a[3] ^ two))
                break;
            j += 8;
        }
        while (j < n && load32(p + 4 * j) == raw)
            j++;
        fnv_run(f, bgra ? rgba_of_bgra(raw) : raw, j - i);
        i = j;
    }
}

/* An image's rows where they lie (cg_image_hash, cg_image_write_png_file). */
static const uint8_t *image_row(void *user, uint32_t y, uint8_t *scratch)
{
    (void)scratch;
    return row_ptr(user, y);
}

static cg__image_rows image_rows(const cg_image *img)
{
    return (cg__image_rows){img->width, img->height, img->format, image_row, (void *)img};
}

uint64_t cg_image_hash(const cg_image *img)
{
    if (image_check(img))
        return 0;
    cg__image_rows r = image_rows(img);
    return cg__image_hash_rows(&r, NULL);
}

uint64_t cg__image_hash_rows(const cg__image_rows *r, uint8_t *scratch)
{
    uint8_t dims[8];
    for (int i = 0; i < 4; i++) {
        dims[i] = (uint8_t)(r->width >> (8 * i));
        dims[4 + i] = (uint8_t)(r->height >> (8 * i));
    }
    fnv_runs f = {.h = fnv1a(FNV64_BASIS, dims, sizeof(dims))};

    /* RGBA8888 and BGRA8888 rows are hashed where they are; the others are
     * decoded in chunks so no allocation is needed. */
    enum { CHUNK = 256 };
    uint8_t buf[CHUNK * 4];
    unsigned bpp = formats[r->format].bpp;
    for (uint32_t y = 0; y < r->height; y++) {
        const uint8_t *src = r->row(r->user, y, scratch);
        if (r->format == CG_FORMAT_RGBA8888 || r->format == CG_FORMAT_BGRA8888) {
            fnv_pixels(&f, src, r->width, r->format == CG_FORMAT_BGRA8888);
            continue;
        }
        for (uint32_t x = 0; x < r->width; x += CHUNK) {
            size_t n = r->width - x < CHUNK ? r->width - x : CHUNK;
            decode_span(r->format, src + (size_t)x * bpp, n, buf);
            fnv_pixels(&f, buf, n, false);
        }
    }
    fnv_flush(&f);
    free(f.t);
    return f.h;
}

/* ---- PNG ---- */

/* libpng reports through these: errors jump back to the caller's setjmp, and
 * neither prints anything (a library does not write to stderr). */
static void png_error_cb(png_structp png, png_const_charp msg)
{
    (void)msg;
    png_longjmp(png, 1);
}

static void png_warning_cb(png_structp png, png_const_charp msg)
{
    (void)png;
    (void)msg;
}

/* One row of the PNG Up filter: out = row - prev bytewise (mod 256), and
 * prev becomes the row; with bgra the row's BGRA8888 pixels are taken as
 * RGBA8888 (bytes 0 and 2 of each pixel swapped) on the way. One pass, 16
 * bytes at a time in the compiler's vector extensions (SSE2 on x86-64,
 * plain words elsewhere; the swap reads 32-bit lanes, so little-endian
 * hosts only), the rest a byte at a time. */
typedef uint32_t u32x16b __attribute__((vector_size(16)));
typedef uint8_t u8x16b __attribute__((vector_size(16)));

static void up_filter(uint8_t *out, const uint8_t *row, uint8_t *prev, size_t n, bool bgra)
{
    size_t x = 0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    for (; x + 16 <= n; x += 16) {
        u32x16b w;
        u8x16b a, b, d;
        memcpy(&w, row + x, 16);
        if (bgra)
            w = (w & 0xFF00FF00u) | (w >> 16 & 0xFFu) | (w & 0xFFu) << 16;
        memcpy(&a, &w, 16);
        memcpy(&b, prev + x, 16);
        d = a - b;
        memcpy(out + x, &d, 16);
        memcpy(prev + x, &a, 16);
    }
#endif
    for (; x < n; x++) {
        /* (x is a multiple of 4 above, so x & 3 is the byte in the pixel) */
        uint8_t c = bgra && !(x & 1) ? row[x ^ 2] : row[x];
        out[x] = (uint8_t)(c - prev[x]);
        prev[x] = c;
    }
}

static void be32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24), p[1] = (uint8_t)(v >> 16), p[2] = (uint8_t)(v >> 8), p[3] = (uint8_t)v;
}

/* One chunk: length, type, data, CRC-32 of type and data. */
static bool put_chunk(FILE *f, const char *type, const uint8_t *data, uint32_t n)
{
    uint8_t head[8], tail[4];
    be32(head, n);
    memcpy(head + 4, type, 4);
    uLong crc = crc32(crc32(0L, Z_NULL, 0), head + 4, 4);
    if (n)
        crc = crc32(crc, data, n);
    be32(tail, (uint32_t)crc);
    return fwrite(head, 1, 8, f) == 8 && (n == 0 || fwrite(data, 1, n, f) == n) &&
           fwrite(tail, 1, 4, f) == 4;
}

int cg_image_write_png_file(FILE *f, const cg_image *img)
{
    int rc = image_check(img);
    if (rc)
        return rc;
    cg__image_rows r = image_rows(img);
    return cg__image_write_png_rows(f, &r, NULL);
}

int cg__image_write_png_rows(FILE *f, const cg__image_rows *img, uint8_t *scratch)
{
    /* The model's own encoder (docs/performance.md, "PNG writer"): every row
     * Up-filtered (RGBA8, or grey for R8) into a window of about 64 KiB that
     * cg__zfast compresses as it fills (the stream is the one a single call
     * over all the rows would give, without a buffer of the whole filtered
     * image, whose pages the kernel would fault in one by one), one IDAT
     * chunk per GiB. cg__image_write_png_with is the libpng path, kept for
     * comparison (bench/png_levels.c). */
    if (!f)
        return CG_ERR_INVAL;
    bool grey = img->format == CG_FORMAT_R8;
    unsigned px = grey ? 1 : 4;
    size_t rowb = (size_t)img->width * px, n = (rowb + 1) * img->height;
    size_t bound = cg__zfast_bound(n), cap = ((size_t)64 << 10) + rowb + 1;
    uint8_t *win = malloc(cap), *z = malloc(bound), *cur = malloc(rowb), *prev = calloc(rowb, 1);
    if (!win || !z || !cur || !prev) {
        free(win), free(z), free(cur), free(prev);
        return CG_ERR_NOMEM;
    }
    cg__zfast_state zs;
    cg__zfast_begin(&zs, px, z);
    size_t len = 0, next = 0; /* win[0..len) filtered, win[next] the next to compress */
    for (uint32_t y = 0; y < img->height; y++) {
        const uint8_t *src = img->row(img->user, y, scratch);
        /* R8, RGBA8888 and BGRA8888 rows as they are (the filter swaps
         * BGRA's bytes) */
        const uint8_t *row = src;
        bool bgra = img->format == CG_FORMAT_BGRA8888;
        if (!grey && !bgra && img->format != CG_FORMAT_RGBA8888) {
            decode_span(img->format, src, img->width, cur);
            row = cur;
        }
        if (cap - len < rowb + 1) {
            /* compress all but the last 258 bytes, keep those and the
             * pixel before them (at most 257 + 4 bytes: the row fits) */
            next = cg__zfast_feed(&zs, win, next, len, false);
            size_t keep = next >= px ? next - px : 0;
            memmove(win, win + keep, len - keep);
            len -= keep;
            next -= keep;
        }
        win[len] = 2; /* filter type Up */
        up_filter(win + len + 1, row, prev, rowb, bgra);
        len += rowb + 1;
    }
    cg__zfast_feed(&zs, win, next, len, true);
    size_t zn = cg__zfast_end(&zs);
    static const uint8_t sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    uint8_t ihdr[13];
    be32(ihdr, img->width);
    be32(ihdr + 4, img->height);
    ihdr[8] = 8;               /* bit depth */
    ihdr[9] = grey ? 0 : 6;    /* greyscale, or RGB + alpha */
    ihdr[10] = ihdr[11] = ihdr[12] = 0; /* deflate, adaptive filters, no interlace */
    bool ok = fwrite(sig, 1, 8, f) == 8 && put_chunk(f, "IHDR", ihdr, 13);
    for (size_t at = 0; ok && at < zn; at += (size_t)1 << 30) {
        size_t part = zn - at < ((size_t)1 << 30) ? zn - at : (size_t)1 << 30;
        ok = put_chunk(f, "IDAT", z + at, (uint32_t)part);
    }
    ok = ok && put_chunk(f, "IEND", NULL, 0);
    free(win), free(z), free(cur), free(prev);
    /* A full disk shows up at the flush at the latest. */
    if (!ok || fflush(f) != 0 || ferror(f))
        return CG_ERR_IO;
    return 0;
}

int cg__image_write_png_with(FILE *f, const cg_image *img, int level, int filters, int strategy)
{
    int rc = image_check(img);
    if (rc)
        return rc;
    if (!f)
        return CG_ERR_INVAL;

    /* R8 and RGBA8888 rows go to libpng as they are; the rest are decoded
     * into `row` first. It is allocated before setjmp and never changed, but
     * volatile all the same: GCC cannot tell (-Wclobbered). */
    bool grey = img->format == CG_FORMAT_R8;
    bool direct = grey || img->format == CG_FORMAT_RGBA8888;
    uint8_t *volatile const row = direct ? NULL : malloc((size_t)img->width * 4);
    if (!direct && !row)
        return CG_ERR_NOMEM;
    png_structp png =
        png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, png_error_cb, png_warning_cb);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (!info) {
        png_destroy_write_struct(&png, NULL);
        free(row);
        return CG_ERR_NOMEM;
    }
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        free(row);
        return CG_ERR_IO;
    }
    png_init_io(png, f);
    png_set_compression_level(png, level);
    png_set_compression_strategy(png, strategy);
    png_set_filter(png, PNG_FILTER_TYPE_BASE, filters);
    png_set_IHDR(png, info, img->width, img->height, 8,
                 grey ? PNG_COLOR_TYPE_GRAY : PNG_COLOR_TYPE_RGB_ALPHA, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    for (uint32_t y = 0; y < img->height; y++) {
        const uint8_t *src = row_ptr(img, y);
        if (row)
            decode_span(img->format, src, img->width, row);
        png_write_row(png, row ? row : src);
    }
    png_write_end(png, info);
    png_destroy_write_struct(&png, &info);
    free(row);
    /* libpng's writes are buffered by stdio: a full disk shows up here. */
    if (fflush(f) != 0 || ferror(f))
        return CG_ERR_IO;
    return 0;
}

int cg_image_write_png(const char *path, const cg_image *img)
{
    int rc = image_check(img);
    if (rc)
        return rc;
    if (!path)
        return CG_ERR_INVAL;
    if (strcmp(path, "-") == 0)
        return cg_image_write_png_file(stdout, img);
    FILE *f = cg__out_open(path);
    if (!f)
        return CG_ERR_IO;
    return cg__out_close(f, path, cg_image_write_png_file(f, img));
}

FILE *cg__out_open(const char *path)
{
    int fd = open(path, O_WRONLY | O_CREAT, 0666);
    if (fd < 0)
        return NULL;
    FILE *f = fdopen(fd, "wb");
    if (!f)
        close(fd);
    return f;
}

int cg__out_close(FILE *f, const char *path, int rc)
{
    if (fflush(f) != 0 || ferror(f))
        rc = rc ? rc : CG_ERR_IO;
    struct stat st;
    bool regular = fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode);
    if (rc == 0 && regular) {
        /* the old bytes past the new end (none when the length is the
         * same: then no truncation at all) */
        off_t end = ftello(f);
        if (end < 0 || (st.st_size > end && ftruncate(fileno(f), end) != 0))
            rc = CG_ERR_IO;
    }
    if (fclose(f) != 0 && rc == 0)
        rc = CG_ERR_IO;
    if (rc && regular)
        remove(path);
    return rc;
}

/* Read a PNG from f after its 8-byte signature was checked. */
static int read_png_stream(FILE *f, uint8_t **rgba, uint32_t *width, uint32_t *height)
{
    png_structp png =
        png_create_read_struct(PNG_LIBPNG_VER_STRING, NULL, png_error_cb, png_warning_cb);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (!info) {
        png_destroy_read_struct(&png, NULL, NULL);
        return CG_ERR_NOMEM;
    }
    /* Assigned after setjmp, so volatile (C11 7.13.2.1p3). */
    uint8_t *volatile pixels = NULL;
    png_bytep *volatile rows = NULL;
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_read_struct(&png, &info, NULL);
        free(pixels);
        free(rows);
        return CG_ERR_IO;
    }
    png_init_io(png, f);
    png_set_sig_bytes(png, 8);
    /* Accept every size the PNG spec allows; our own limit comes below with
     * its own error code. */
    png_set_user_limits(png, 0x7fffffff, 0x7fffffff);
    png_read_info(png, info);

    uint32_t w = png_get_image_width(png, info), h = png_get_image_height(png, info);
    if (w == 0 || h == 0) /* libpng rejects these itself; be sure */
        png_error(png, "empty image");
    if (w > IMAGE_MAX_DIM || h > IMAGE_MAX_DIM) {
        png_destroy_read_struct(&png, &info, NULL);
        return CG_ERR_RANGE;
    }
    int color = png_get_color_type(png, info);
    /* Palette to RGB, grey below 8 bits to 8 bits, tRNS to an alpha channel. */
    png_set_expand(png);
    if (png_get_bit_depth(png, info) == 16) {
#ifdef PNG_READ_SCALE_16_TO_8_SUPPORTED
        png_set_scale_16(png); /* v * 255 / 65535, rounded */
#else
        png_set_strip_16(png); /* the high byte */
#endif
    }
    if (!(color & PNG_COLOR_MASK_COLOR))
        png_set_gray_to_rgb(png);
    if (!(color & PNG_COLOR_MASK_ALPHA) && !png_get_valid(png, info, PNG_INFO_tRNS))
        png_set_add_alpha(png, 0xff, PNG_FILLER_AFTER);
    png_set_interlace_handling(png);
    png_read_update_info(png, info);
    if (png_get_rowbytes(png, info) != (size_t)w * 4)
        png_error(png, "unexpected row size after conversion to RGBA8");

    size_t row_bytes = (size_t)w * 4;
    if (row_bytes > SIZE_MAX / h || sizeof(png_bytep) > SIZE_MAX / h) {
        png_destroy_read_struct(&png, &info, NULL);
        return CG_ERR_NOMEM;
    }
    pixels = malloc(row_bytes * h);
    rows = malloc(sizeof(png_bytep) * h);
    if (!pixels || !rows) {
        png_destroy_read_struct(&png, &info, NULL);
        free(pixels);
        free(rows);
        return CG_ERR_NOMEM;
    }
    for (uint32_t y = 0; y < h; y++)
        rows[y] = pixels + (size_t)y * row_bytes;
    png_read_image(png, rows);
    png_read_end(png, NULL);
    png_destroy_read_struct(&png, &info, NULL);
    free(rows);
    *rgba = pixels;
    *width = w;
    *height = h;
    return 0;
}

int cg_image_read_png(const char *path, uint8_t **rgba, uint32_t *width, uint32_t *height)
{
    if (!path || !rgba || !width || !height)
        return CG_ERR_INVAL;
    *rgba = NULL;
    *width = *height = 0;
    bool use_stdin = strcmp(path, "-") == 0;
    FILE *f = use_stdin ? stdin : fopen(path, "rb");
    if (!f)
        return CG_ERR_IO;
    uint8_t sig[8];
    int rc;
    if (fread(sig, 1, sizeof(sig), f) != sizeof(sig) || png_sig_cmp(sig, 0, sizeof(sig)) != 0)
        rc = CG_ERR_IO;
    else
        rc = read_png_stream(f, rgba, width, height);
    if (!use_stdin)
        fclose(f);
    return rc;
}
