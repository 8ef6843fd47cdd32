/* A fast zlib stream encoder for the PNG writer (RFC 1950 framing around one
 * RFC 1951 block with the fixed Huffman codes).
 *
 * Why not zlib: the model's images are mostly flat colour, which the PNG Up
 * filter turns into long runs of zero bytes, and the writer's time went to
 * zlib's general match search (docs/performance.md, "PNG writer"). This
 * encoder looks for matches at two distances only, 1 (a run of one byte)
 * and the pixel size (a repeated pixel), so it checks at most two places per
 * position and compares eight bytes at a time inside runs; the Adler-32 of a
 * run of zeros is computed in closed form. It is greedy and never emits a
 * stored or dynamic-Huffman block, so it compresses noisy images worse than
 * zlib (a literal costs 8 or 9 bits); tests decode every output with zlib
 * and libpng. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "zfast.h"

/* Fixed literal/length code (RFC 1951 3.2.6), bit-reversed for an
 * LSB-first bit writer: code and length per symbol 0..287. */
static uint16_t lit_code[288];
static uint8_t lit_len[288];
/* Length 3..258 -> symbol 257..285, extra bit count and value. */
static uint16_t len_sym[259];
static uint8_t len_xbits[259], len_xval[259];
static pthread_once_t tables_once = PTHREAD_ONCE_INIT;

static uint32_t reverse(uint32_t v, unsigned n)
{
    uint32_t r = 0;
    for (unsigned i = 0; i < n; i++, v >>= 1)
        r = r << 1 | (v & 1);
    return r;
}

static void tables_build(void)
{
    for (unsigned s = 0; s < 288; s++) {
        uint32_t code;
        unsigned len;
        if (s < 144)
            code = 0x30 + s, len = 8;
        else if (s < 256)
            code = 0x190 + (s - 144), len = 9;
        else if (s < 280)
            code = s - 256, len = 7;
        else
            code = 0xC0 + (s - 280), len = 8;
        lit_code[s] = (uint16_t)reverse(code, len);
        lit_len[s] = (uint8_t)len;
    }
    /* RFC 1951 3.2.5: base lengths and extra bits of symbols 257..285. */
    static const uint16_t base[29] = {3,  4,  5,  6,  7,  8,  9,  10, 11,  13,  15,  17,  19,  23, 27,
                                      31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258};
    static const uint8_t xbits[29] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2,
                                      2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};
    for (unsigned k = 0; k < 29; k++) {
        unsigned top = k == 28 ? 258 : base[k] + (1u << xbits[k]) - 1;
        if (k == 27)
            top = 257; /* 227 + 31: 258 has its own symbol */
        for (unsigned l = base[k]; l <= top && l <= 258; l++) {
            len_sym[l] = (uint16_t)(257 + k);
            len_xbits[l] = xbits[k];
            len_xval[l] = (uint8_t)(l - base[k]);
        }
    }
}

/* n <= 32 bits, LSB first; the buffer was sized for the worst case. */
static inline void put(cg__zfast_state *w, uint32_t bits, unsigned n)
{
    w->acc |= (uint64_t)bits << w->nb;
    w->nb += n;
    if (w->nb >= 32) {
        uint32_t v = (uint32_t)w->acc;
        w->p[0] = (uint8_t)v, w->p[1] = (uint8_t)(v >> 8), w->p[2] = (uint8_t)(v >> 16),
        w->p[3] = (uint8_t)(v >> 24);
        w->p += 4;
        w->acc >>= 32;
        w->nb -= 32;
    }
}

static inline void put_lit(cg__zfast_state *w, unsigned s) { put(w, lit_code[s], lit_len[s]); }

static inline uint64_t load64(const uint8_t *p)
{
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
}

/* Bytes j < max with s[i + j] == s[i + j - d] (i >= d). */
static inline size_t match_len(const uint8_t *s, size_t i, size_t d, size_t max)
{
    size_t j = 0;
    while (j + 8 <= max) {
        uint64_t x = load64(s + i + j) ^ load64(s + i + j - d);
        if (x) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ && defined(__GNUC__)
            return j + (size_t)(__builtin_ctzll(x) >> 3);
#else
            break;
#endif
        }
        j += 8;
    }
    while (j < max && s[i + j] == s[i + j - d])
        j++;
    return j;
}

#define ADLER_MOD 65521u

size_t cg__zfast_bound(size_t n)
{
    /* 9 bits per literal at worst, block header and end, zlib header and
     * Adler-32, the bit writer's 4-byte stores. */
    return n + n / 8 + 32;
}

void cg__zfast_begin(cg__zfast_state *z, unsigned pixel, uint8_t *out)
{
    pthread_once(&tables_once, tables_build);
    *z = (cg__zfast_state){.start = out, .p = out + 2, .a = 1, .pixel = pixel};
    out[0] = 0x78; /* deflate, 32 KiB window */
    out[1] = 0x01; /* no dictionary, fastest; (0x78 * 256 + 0x01) % 31 == 0 */
    put(z, 1 | 1 << 1, 3); /* BFINAL, BTYPE = 01 fixed Huffman */
}

size_t cg__zfast_feed(cg__zfast_state *z, const uint8_t *s, size_t at, size_t len, bool last)
{
    /* Greedy: at each position the longer of the matches at distances 1 and
     * `pixel` (max 258 bytes, and no further than the data), else a literal.
     * Stopping 258 bytes short of the window's end until the last call makes
     * every decision the one a single call over all the data makes. */
    uint64_t a = z->a, b = z->b;
    unsigned pixel = z->pixel;
    size_t i = at;
    uint64_t base = z->pos - at; /* stream position of s[0] */
    while (i < len && (last || len - i >= 258)) {
        uint64_t pos = base + i;
        size_t max = len - i < 258 ? len - i : 258, best = 0, dist = 0;
        if (pos >= 1) {
            best = match_len(s, i, 1, max);
            dist = 1;
        }
        if (pixel > 1 && pos >= pixel && best < max) {
            size_t l = match_len(s, i, pixel, max);
            if (l > best)
                best = l, dist = pixel;
        }
        if (best >= 3) {
            put(z, lit_code[len_sym[best]], lit_len[len_sym[best]]);
            if (len_xbits[best])
                put(z, len_xval[best], len_xbits[best]);
            /* distance codes 0..3 are distances 1..4, 5 bits, no extra */
            put(z, reverse((uint32_t)(dist - 1), 5), 5);
            if (dist == 1 && s[i - 1] == 0) {
                b += (uint64_t)best * a; /* a run of zeros leaves a alone */
            } else {
                for (size_t k = 0; k < best; k++) {
                    a += s[i + k];
                    b += a;
                }
            }
            a %= ADLER_MOD;
            b %= ADLER_MOD;
            i += best;
        } else {
            put_lit(z, s[i]);
            a += s[i];
            b += a;
            if ((pos & 1023) == 0) {
                a %= ADLER_MOD;
                b %= ADLER_MOD;
            }
            i++;
        }
    }
    z->a = a % ADLER_MOD;
    z->b = b % ADLER_MOD;
    z->pos = base + i;
    return i;
}

size_t cg__zfast_end(cg__zfast_state *z)
{
    put_lit(z, 256); /* end of block */
    while (z->nb > 0) { /* to a byte boundary */
        *z->p++ = (uint8_t)z->acc;
        z->acc >>= 8;
        z->nb = z->nb > 8 ? z->nb - 8 : 0;
    }
    uint32_t adler = (uint32_t)(z->b << 16 | z->a);
    z->p[0] = (uint8_t)(adler >> 24), z->p[1] = (uint8_t)(adler >> 16),
    z->p[2] = (uint8_t)(adler >> 8), z->p[3] = (uint8_t)adler;
    return (size_t)(z->p + 4 - z->start);
}

size_t cg__zfast(const uint8_t *s, size_t n, unsigned pixel, uint8_t *out)
{
    cg__zfast_state z;
    cg__zfast_begin(&z, pixel, out);
    cg__zfast_feed(&z, s, 0, n, true);
    return cg__zfast_end(&z);
}
