/* core: what every family's demonstration shares (include/cmdgpu/family.h). */
#include "cmdgpu/family.h"
#include "cmdgpu/fault.h"

void cg_demo_faults(cg_demo_ctx *c, cg_device *dev, const char *scene)
{
    for (size_t i = 0; i < cg_fault_count(dev); i++) {
        char line[512];
        cg_fault_format(cg_fault_get(dev, i), line, sizeof line);
        fprintf(c->log, "  %s: %s\n", scene, line);
        c->faults++;
    }
}
