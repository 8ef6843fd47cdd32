/* nv: MAXWELL_B (B197) draws: BEGIN/END, draw methods, vertex and index
 * fetch, draw records. See threed.h. */
#include "threed.h"

bool nv3d_is_draw_method(uint32_t m)
{
    return m == NVB197_DRAW_VERTEX_ARRAY || m == NVB197_DRAW_INDEX_BUFFER;
}

int nv3d_draw_method(cg_nv_channel *ch, nv_obj *o, uint32_t m, uint32_t v, const cg_agent *ag)
{
    (void)o;
    return nv_fault(ch, ag, CG_FAULT_UNSUPPORTED, 0,
                    "MAXWELL_B method 0x%04x (draws) not supported yet", m);
}

void cg_nv_gpu_set_draw_callback(cg_nv_gpu *gpu, cg_nv_draw_fn fn, void *user)
{
    if (!gpu)
        return;
    gpu->draw_fn = fn;
    gpu->draw_user = user;
}
