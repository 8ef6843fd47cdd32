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

#endif
