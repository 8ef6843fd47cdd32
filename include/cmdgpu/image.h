/* cmdgpu: surfaces to PNG, and pixel hashes for tests.
 *
 * Hashes are taken over decoded pixels, never over PNG bytes (as Mesa's tracie
 * does), so the same picture in two formats or two encoders hashes alike when
 * its decoded RGBA8 pixels agree. */
#ifndef CMDGPU_IMAGE_H
#define CMDGPU_IMAGE_H

#include <stdio.h>
#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Pixel formats, X(enum suffix, name, bytes per pixel). Memory byte order:
 *   RGBA8888  bytes R,G,B,A           BGRA8888  bytes B,G,R,A (NV A8R8G8B8)
 *   RGB565    u16 LE, R 15:11 G 10:5 B 4:0
 *   ARGB1555  u16 LE, A 15, R 14:10, G 9:5, B 4:0
 *   R8        one byte, decoded as grey (v,v,v,255)
 *   RGBA16F   4 x IEEE half LE, clamped to [0,1]   RGBA32F 4 x float LE, clamped
 * 5- and 6-bit channels expand by bit replication (v << 3 | v >> 2, v << 2 |
 * v >> 4). Float and half channels (denormals included) become
 * round(clamp(v, 0, 1) * 255) with halves rounding up (0.5 -> 128);
 * +inf -> 255, -inf -> 0, NaN -> 0. */
#define CG_FORMAT_TABLE(X)                                                     \
    X(RGBA8888, "rgba8888", 4)                                                 \
    X(BGRA8888, "bgra8888", 4)                                                 \
    X(RGB565, "rgb565", 2)                                                     \
    X(ARGB1555, "argb1555", 2)                                                 \
    X(R8, "r8", 1)                                                             \
    X(RGBA16F, "rgba16f", 8)                                                   \
    X(RGBA32F, "rgba32f", 16)

typedef enum cg_format {
#define CG_X_ENUM(id, name, bpp) CG_FORMAT_##id,
    CG_FORMAT_TABLE(CG_X_ENUM)
#undef CG_X_ENUM
    CG_FORMAT_COUNT
} cg_format;

CG_API const char *cg_format_name(cg_format f);        /* "?" if invalid */
CG_API unsigned cg_format_bpp(cg_format f);            /* bytes per pixel, 0 if invalid */
CG_API int cg_format_from_name(const char *name, cg_format *out); /* 0 or CG_ERR_NOENT */

/* A view of pixels in host memory. Valid when width and height are 1..65535,
 * pixels is not NULL, format is known and stride >= width * bpp; functions
 * given anything else return CG_ERR_INVAL. */
typedef struct cg_image {
    uint32_t width, height;
    size_t stride;      /* bytes from one row to the next */
    cg_format format;
    const void *pixels;
} cg_image;

/* Decode into dst (width*height*4 bytes, RGBA8, tightly packed). */
CG_API int cg_image_decode_rgba8(const cg_image *img, uint8_t *dst);

/* Write a PNG (8-bit RGBA; R8 as 8-bit grey). "-" means stdout.
 * Errors: CG_ERR_INVAL (bad view), CG_ERR_IO. */
CG_API int cg_image_write_png(const char *path, const cg_image *img);
CG_API int cg_image_write_png_file(FILE *f, const cg_image *img);

/* Read any PNG libpng reads, converted to RGBA8 (palette and tRNS expanded,
 * grey replicated, missing alpha 255, 16-bit channels scaled to 8 with
 * rounding; no gamma correction). *rgba is malloc'd; free() it. "-" means
 * stdin. Errors: CG_ERR_INVAL, CG_ERR_IO (unreadable, not a PNG, corrupt),
 * CG_ERR_RANGE (wider or taller than 65535), CG_ERR_NOMEM. */
CG_API int cg_image_read_png(const char *path, uint8_t **rgba, uint32_t *width,
                             uint32_t *height);

/* 64-bit FNV-1a over: width (u32 LE), height (u32 LE), then the decoded RGBA8
 * pixels row by row. Returns 0 for an invalid view. */
CG_API uint64_t cg_image_hash(const cg_image *img);

#ifdef __cplusplus
}
#endif
#endif
