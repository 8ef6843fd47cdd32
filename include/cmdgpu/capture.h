/* cmdgpu: captures that real systems write (docs/captures.md), and the
 * detection of every capture format the families and core know.
 *
 * Each format is a family's (a cg_capture_desc in its descriptor,
 * include/cmdgpu/family.h): the Linux radeon debugfs ring dump
 * (cmdgpu/radeon.h), the vc4 hang state of vc4-gpu-tools and Mesa's
 * VC4_DEBUG=cl text (cmdgpu/vc4.h), raw nv pushbuffer words (cmdgpu/nv.h);
 * the core's own is the CMDGPUCAP container (cmdgpu/capfile.h).
 *
 * Every parser takes hostile bytes: a malformed file gives CG_ERR_SYNTAX (or
 * CG_ERR_RANGE for a declared size the file or the model cannot hold) and a
 * cg_capture_error naming the byte offset; nothing is allocated beyond what
 * the file itself holds. */
#ifndef CMDGPU_CAPTURE_H
#define CMDGPU_CAPTURE_H

#include <stdio.h>
#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Where and why a file could not be loaded. */
typedef struct cg_capture_error {
    size_t offset;  /* byte offset in the file */
    char msg[192];
} cg_capture_error;

struct cg_capture_desc;

/* Every capture format: the families' in registry order, then the
 * CMDGPUCAP container (whose family is NULL: the file names it). */
CG_API size_t cg_capture_count(void);
CG_API const struct cg_capture_desc *cg_capture_at(size_t i);
CG_API const struct cg_capture_desc *cg_capture_find(const char *name); /* NULL if none */
/* The format of a file when its bytes say so unambiguously (each format's
 * detect; the CMDGPUCAP magic first); NULL for anything else, which is the
 * family's own input (raw nv pushbuffer words carry no signature). */
CG_API const struct cg_capture_desc *cg_capture_detect(const uint8_t *data, size_t size);

#ifdef __cplusplus
}
#endif
#endif
