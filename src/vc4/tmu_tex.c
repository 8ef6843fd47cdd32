/* Texture sampler behind src/vc4/tmu.h. Until the sampler lands every
 * texture lookup faults "not supported yet" (general memory lookups, which
 * do not come here, are served by the request FIFO itself). */
#include <stdio.h>
#include "tmu.h"

int vc4_tmu_texture(const vc4_tmu_req *req, uint32_t out[16], vc4_tmu_fault *fault)
{
    for (int i = 0; i < 16; i++)
        out[i] = 0;
    fault->kind = CG_FAULT_UNSUPPORTED;
    fault->addr = req->params[0] & ~0xfffu;
    snprintf(fault->msg, sizeof fault->msg,
             "not supported yet: texture lookup (parameter 0 = 0x%08x)", req->params[0]);
    return -1;
}

unsigned vc4_tmu_params_needed(uint32_t p0, uint32_t p1, bool has_r, bool has_b)
{
    (void)p0, (void)p1, (void)has_r, (void)has_b;
    return 2;
}
