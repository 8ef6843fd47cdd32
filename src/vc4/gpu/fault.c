/* vc4 family: faults, interrupts and trace events, shared by the
 * control-list threads (cl.c), the binner, the renderer and the V3D block
 * (v3d.c), so the engines do not call back up into the dispatcher. */
#include <stdarg.h>
#include <stdio.h>
#include "vc4/vc4_internal.h"

int vc4_fault(cg_vc4 *v, vc4_thread *t, cg_fault_kind kind, uint32_t addr, const char *fmt, ...)
{
    /* Faults outside a control-list thread come from the V3D block itself. */
    static const cg_agent v3d_agent = {.family = CG_FAMILY_VC4, .unit = "v3d", .channel = -1};
    if (t) {
        t->faulted = true;
        t->running = false;
        t->waiting_sem = false;
        t->cs |= CG_VC4_CS_ERR;
    }
    va_list ap;
    va_start(ap, fmt);
    int rc = cg_fault_vpost(v->dev, t ? &t->agent : &v3d_agent, kind, addr, fmt, ap);
    va_end(ap);
    return rc;
}

void vc4_raise_int(cg_vc4 *v, uint32_t bits)
{
    v->intctl |= bits;
    /* (not on a pool worker's copy: the render thread raises its ends of
     * frame when it takes the result, pool.c take_result) */
    if (!v->seg && cg_trace_enabled(v->dev)) {
        cg_trace_event ev = {.kind = CG_TRACE_INTERRUPT, .family = CG_FAMILY_VC4, .unit = "v3d",
                             .channel = -1, .reg = bits, .value = v->intctl};
        cg_trace_emit(v->dev, &ev);
    }
}

void vc4_trace_record(cg_vc4 *v, const vc4_thread *th, uint32_t addr, const uint8_t *rec,
                      uint32_t size, const char *name)
{
    cg_trace_event ev = {.kind = CG_TRACE_PACKET, .family = CG_FAMILY_VC4, .unit = th->agent.unit,
                         .channel = th->agent.channel, .stream_addr = addr, .reg = rec[0],
                         .value = rec[0], .name = name, .bytes = rec, .nbytes = size};
    cg_trace_emit(v->dev, &ev);
}
