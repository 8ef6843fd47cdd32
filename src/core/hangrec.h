/* What the three families' hang recorders (src/{nv,vc4,radeon}/hangreport.c)
 * share: a trace sink on one device and the fault count when it was made,
 * so a report names the first fault of this run only. Each recorder starts
 * with a cg_hang_base. */
#ifndef CMDGPU_CORE_HANGREC_H
#define CMDGPU_CORE_HANGREC_H

#include <stddef.h>
#include "cmdgpu/core.h"

typedef struct cg_hang_base {
    cg_device *dev;
    int sink;      /* cg_trace_add's id */
    size_t fault0; /* faults before the recorder */
} cg_hang_base;

/* Allocate a zeroed recorder of `size` bytes (a struct whose first member
 * is a cg_hang_base) and attach `sink` with the recorder as its user
 * pointer. 0 and *out, or a negative cg_err. */
int cg__hang_recorder_new(cg_device *dev, size_t size, cg_trace_fn sink, void **out);
/* Detach and free; NULL is ignored. */
void cg__hang_recorder_free(cg_hang_base *b);
/* The first fault since the recorder was made that is not a warning, of
 * `family`, and of `channel` (-1: any) and `unit` (NULL: any); NULL if
 * none. */
const cg_fault *cg__hang_first_fault(const cg_hang_base *b, cg_family family, int channel,
                                     const char *unit);

#endif
