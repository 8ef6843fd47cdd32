/* Fast zlib stream encoder for the PNG writer (zfast.c; not installed). */
#ifndef CMDGPU_CORE_ZFAST_H
#define CMDGPU_CORE_ZFAST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Bytes cg__zfast may write for n input bytes. */
size_t cg__zfast_bound(size_t n);
/* Compress s[0..n) into a zlib stream at out (cg__zfast_bound(n) bytes);
 * `pixel` is the distance of repeated pixels to look for (1 or the pixel's
 * byte size). Returns the stream's length. */
size_t cg__zfast(const uint8_t *s, size_t n, unsigned pixel, uint8_t *out);

/* The same stream fed a window at a time (the PNG writer filters rows into
 * a small window instead of a buffer of the whole image); the bytes are
 * those of one cg__zfast call over the concatenated data.
 *   begin: start the stream at out (cg__zfast_bound(total) bytes);
 *   feed:  s[0..len) is a window of the data whose byte `at` is the next to
 *          encode, with the `pixel` bytes before it in s[at - pixel..at)
 *          (as far as the data has them); encodes up to 258 bytes short of
 *          len, or to len when `last`; returns the index it stopped at (the
 *          caller keeps s[that - pixel..len) for the next call);
 *   end:   finish the stream; returns its length. */
typedef struct cg__zfast_state {
    uint8_t *start, *p; /* the stream, and where the bit writer stores next */
    uint64_t acc;       /* bits not yet stored, LSB first */
    unsigned nb;
    unsigned pixel;
    uint64_t a, b;      /* Adler-32 sums */
    uint64_t pos;       /* stream position of the next byte to encode */
} cg__zfast_state;
void cg__zfast_begin(cg__zfast_state *z, unsigned pixel, uint8_t *out);
size_t cg__zfast_feed(cg__zfast_state *z, const uint8_t *s, size_t at, size_t len, bool last);
size_t cg__zfast_end(cg__zfast_state *z);

#endif
