/* Fast zlib stream encoder for the PNG writer (zfast.c; not installed). */
#ifndef CMDGPU_CORE_ZFAST_H
#define CMDGPU_CORE_ZFAST_H

#include <stddef.h>
#include <stdint.h>

/* Bytes cg__zfast may write for n input bytes. */
size_t cg__zfast_bound(size_t n);
/* Compress s[0..n) into a zlib stream at out (cg__zfast_bound(n) bytes);
 * `pixel` is the distance of repeated pixels to look for (1 or the pixel's
 * byte size). Returns the stream's length. */
size_t cg__zfast(const uint8_t *s, size_t n, unsigned pixel, uint8_t *out);

#endif
