/* cmdgpu core: the libpng PNG path (internal, not installed). The public
 * writers (cg_image_write_png*) use cmdgpu's own encoder (core/zfast.c);
 * bench/png_levels.c compares it with libpng at every setting, and
 * CG_PNG_LEVEL/FILTERS/STRATEGY are libpng's fastest measured setting, the
 * writer before the encoder (docs/performance.md, "PNG writer"). */
#ifndef CMDGPU_CORE_IMAGE_INTERNAL_H
#define CMDGPU_CORE_IMAGE_INTERNAL_H

#include <stdio.h>
#include "cmdgpu/image.h"

/* zlib level and libpng filter set (PNG_FILTER_* bits, PNG_ALL_FILTERS for
 * libpng's adaptive choice per row): libpng's fastest setting. */
#define CG_PNG_LEVEL 1
#define CG_PNG_FILTERS 0x20 /* PNG_FILTER_UP */
#define CG_PNG_STRATEGY 0   /* Z_DEFAULT_STRATEGY */

/* cg_image_write_png_file with an explicit zlib level (0..9), filter set
 * (PNG_FILTER_* bits) and zlib strategy (Z_DEFAULT_STRATEGY, Z_RLE, ...). */
int cg__image_write_png_with(FILE *f, const cg_image *img, int level, int filters,
                             int strategy);

/* An image whose rows need not lie at one stride from each other (the vc4
 * scene runner reads a frame buffer straight out of the model's pages):
 * row(user, y, scratch) returns row y's width * bpp bytes, where they lie or
 * copied into scratch (width * bpp bytes, the caller's). One hash and one
 * PNG writer: cg_image_hash and cg_image_write_png_file are these over an
 * image's own rows; callers check width, height, format and sizes. */
typedef struct cg__image_rows {
    uint32_t width, height;
    cg_format format;
    const uint8_t *(*row)(void *user, uint32_t y, uint8_t *scratch);
    void *user;
} cg__image_rows;

uint64_t cg__image_hash_rows(const cg__image_rows *r, uint8_t *scratch);
int cg__image_write_png_rows(FILE *f, const cg__image_rows *r, uint8_t *scratch);

/* A file written whole, again and again (a run's PNGs): cg__out_open opens
 * path for writing, creating it if missing but not truncating it, and
 * cg__out_close(f, path, rc) cuts it to what was written; rc is the
 * writer's result so far. It returns rc, or CG_ERR_IO if the file could not
 * be finished, and then removes it if it is a regular file (a partial file
 * is of no use to anyone; a device such as /dev/full or a pipe stays). A file that
 * holds data and is truncated to nothing, then written again, is what ext4
 * (auto_da_alloc) and XFS take for an application replacing it: its close
 * starts the writeback of the new data, which on the 2-vCPU virtual machine
 * of docs/performance.md cost each run of the first triangle 0.6-1.8 ms of
 * wall time and up to 1 ms of CPU ("Overwriting outputs"). A rerun
 * that writes the same bytes leaves the file's length as it was. */
FILE *cg__out_open(const char *path);
int cg__out_close(FILE *f, const char *path, int rc);

#endif
