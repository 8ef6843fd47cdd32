/* nv: faults and trace events of the nv channels and GPU (the engines and
 * the front end raise faults and trace through these; none of them calls
 * back into the dispatcher). */
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "core/mem_internal.h"
#include "nv/tables/fields.h"
#include "pfifo.h"
#include "threed.h"

void nv_gpu_error(cg_nv_gpu *gpu, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(gpu->last_error, sizeof(gpu->last_error), fmt, ap);
    va_end(ap);
}

const char *cg_nv_gpu_last_error(const cg_nv_gpu *gpu)
{
    return gpu ? gpu->last_error : "";
}

/* ---- tracing ------------------------------------------------------------ */

void nv_trace_method(cg_nv_channel *ch, unsigned subch, uint32_t cls, uint32_t mthd, uint32_t v,
                     uint64_t addr)
{
    char name[80];
    const cg_nv_class *c = cg_nv_class_find(mthd < 0x100 ? CG_NV_CLASS_HOST : cls);
    if (!cg_nv_method_name(c, mthd, name, sizeof(name)))
        snprintf(name, sizeof(name), "0x%04x", mthd);
    char text[32];
    snprintf(text, sizeof(text), "subch %u class %04X", subch, mthd < 0x100 ? 0xB06Fu : cls);
    cg_trace_event ev = {.kind = CG_TRACE_METHOD, .family = CG_FAMILY_NV, .unit = "pfifo",
                         .channel = ch->id, .stream_addr = addr, .reg = mthd, .value = v,
                         .name = name, .text = text};
    if (!ch->seg_kernel && ch->num_entries) {
        ev.entry = ((ch->gp_get - 1) & (ch->num_entries - 1)) + 1;
        ev.entry_va = ch->seg_va;
        ev.entry_len = ch->seg_len;
    }
    cg_trace_emit(ch->gpu->dev, &ev);
}

void nv_trace_event(cg_nv_channel *ch, cg_trace_kind kind, const char *unit, uint32_t reg,
                    uint64_t value, uint64_t gpu_addr, uint64_t size, const char *text)
{
    if (!cg_trace_enabled(ch->gpu->dev))
        return;
    cg_trace_event ev = {.kind = kind, .family = CG_FAMILY_NV, .unit = unit, .channel = ch->id,
                         .stream_addr = ch->hdr_addr, .reg = reg, .value = value,
                         .gpu_addr = gpu_addr, .size = size, .text = text};
    cg_trace_emit(ch->gpu->dev, &ev);
}

/* ---- faults -------------------------------------------------------------- */

int nv_fault(cg_nv_channel *ch, const cg_agent *ag, cg_fault_kind kind, uint64_t gpu_addr,
             const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    ch->state = CG_NV_CH_FAULTED;
    int rc = cg_fault_vpost(ch->gpu->dev, ag, kind, gpu_addr, fmt, ap);
    va_end(ap);
    return rc;
}

/* The puller's faults: the agent is the current header and `data`. */
int nv_ch_fault(cg_nv_channel *ch, const char *unit, cg_fault_kind kind, uint64_t addr,
                uint64_t gpu_addr, uint32_t data, const char *fmt, ...)
{
    cg_agent ag = nv_agent(ch, unit, addr, ch->hdr_word, data);
    va_list ap;
    va_start(ap, fmt);
    ch->state = CG_NV_CH_FAULTED;
    int rc = cg_fault_vpost(ch->gpu->dev, &ag, kind, gpu_addr, fmt, ap);
    va_end(ap);
    return rc;
}

