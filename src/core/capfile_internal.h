/* core: helpers the families' capture record/replay glue shares
 * (src/core/capfile.c). */
#ifndef CMDGPU_CORE_CAPFILE_INTERNAL_H
#define CMDGPU_CORE_CAPFILE_INTERNAL_H
#include "cmdgpu/capfile.h"

/* Copy a record's string (n bytes, no NUL) into buf: false if it does not fit. */
bool cg_capfile_str(const char *s, size_t n, char *buf, size_t cap);

/* Action names from each family's table (src/FAMILY/capscene.c): "?" if unknown. */
const char *cg_radeon_capfile_action_name(uint32_t kind);
const char *cg_vc4_capfile_action_name(uint32_t kind);
const char *cg_nv_capfile_action_name(uint32_t kind);

/* The end-of-run memory read for vc4 (src/vc4/capscene.c): v is the cg_vc4,
 * addr a bus address (alias bits 31:30 ignored). */
int vc4_capture_peek(void *v, uint64_t addr, void *dst, size_t n);

#endif
