/* nv: MAXWELL_B (B197) 3D engine: dispatch of the action methods, CB_BIND,
 * report semaphores, clears. See threed.h. */
#include <stdlib.h>
#include <string.h>
#include "threed.h"

nv3d_state *nv3d_state_get(cg_nv_channel *ch)
{
    if (!ch->s3d) {
        ch->s3d = cg__alloc(ch->gpu->dev, sizeof(*ch->s3d));
        if (ch->s3d)
            memset(ch->s3d, 0, sizeof(*ch->s3d));
    }
    return ch->s3d;
}

void nv3d_state_free(cg_nv_channel *ch)
{
    if (ch->s3d)
        cg__free(ch->gpu->dev, ch->s3d, sizeof(*ch->s3d));
    ch->s3d = NULL;
}

bool nv3d_is_action(uint32_t m)
{
    return m == NVB197_SET_REPORT_SEMAPHORE_D || m == NVB197_CLEAR_SURFACE ||
           nv3d_is_draw_method(m);
}

int nv3d_report_semaphore(cg_nv_channel *ch, nv_obj *o, uint32_t v, const cg_agent *ag)
{
    const uint32_t *r = o->regs;
    uint64_t va = (uint64_t)(r[NVB197_SET_REPORT_SEMAPHORE_A >> 2] & 0xFF) << 32 |
                  r[NVB197_SET_REPORT_SEMAPHORE_B >> 2];
    uint32_t payload = r[NVB197_SET_REPORT_SEMAPHORE_C >> 2];
    if ((v & 3) != 0 || (v & (1u << 3)))
        return nv_fault(ch, ag, CG_FAULT_UNSUPPORTED, va,
                        "SET_REPORT_SEMAPHORE_D: only RELEASE without reduction is supported "
                        "yet (operation %u)", v & 3);
    int rc;
    if (v & (1u << 28)) {
        rc = cg_vas_write32(ch->vas, va, payload, ag);
    } else {
        /* four words: payload, 0, 64-bit timestamp (seed 000 "four words") */
        uint32_t rec[4] = {payload, 0, (uint32_t)ch->gpu->time, (uint32_t)(ch->gpu->time >> 32)};
        rc = cg_vas_write(ch->vas, va, rec, sizeof(rec), ag);
    }
    if (rc != 0)
        ch->state = CG_NV_CH_FAULTED;
    else
        nv_trace_event(ch, CG_TRACE_FENCE, "3d", NVB197_SET_REPORT_SEMAPHORE_D, payload, va,
                    (v & (1u << 28)) ? 4 : 16, "report semaphore release");
    return rc;
}

int nv3d_method(cg_nv_channel *ch, nv_obj *o, uint32_t m, uint32_t v, const cg_agent *ag)
{
    if (m == NVB197_SET_REPORT_SEMAPHORE_D)
        return nv3d_report_semaphore(ch, o, v, ag);
    if (nv3d_is_draw_method(m))
        return nv3d_draw_method(ch, o, m, v, ag);
    return nv_fault(ch, ag, CG_FAULT_UNSUPPORTED, 0,
                    "MAXWELL_B method 0x%04x (clears) not supported yet", m);
}
