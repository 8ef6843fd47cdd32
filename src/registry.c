/* The registry: the one file that names the families (docs/design.md).
 * Core and the command list them from here and reach each only through
 * its descriptor (include/cmdgpu/family.h). */
#include "cmdgpu/family.h"

extern const cg_family_desc cg_nv_family, cg_vc4_family, cg_radeon_family;

static const cg_family_desc *const families[] = {&cg_nv_family, &cg_vc4_family,
                                                 &cg_radeon_family};

size_t cg_family_count(void) { return sizeof families / sizeof families[0]; }

const cg_family_desc *cg_family_at(size_t i)
{
    return i < cg_family_count() ? families[i] : NULL;
}
