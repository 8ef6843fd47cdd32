/* The shader program header (SPH) as a struct, for the pipeline to come:
 * every field of src/nv/tables/sph.def, named <scope>_<FIELD> (ALL_SPH_TYPE,
 * VTG_GENERIC_OMAP_X[32], PS_OMAP_RED[8], ...). Both the VTG and the PS
 * views are filled; `type` (ALL_SPH_TYPE) says which one applies. */
#ifndef CMDGPU_NV_SPH_H
#define CMDGPU_NV_SPH_H

#include <stddef.h>
#include <stdint.h>

typedef struct nv_sph {
#define NV_SPH(scope, name, hi, lo, count, stride) uint32_t scope##_##name[count];
#include "sph.def"
    char problem[128]; /* "" = well formed (see cg_nv_sph_print) */
} nv_sph;

/* Decode size bytes (a short header reads as zeros beyond its end and
 * reports the truncation). Returns 0, or 1 with out->problem set. */
int nv_sph_decode(const uint8_t *sph, size_t size, nv_sph *out);

#endif
