/* The part of the hang recorders the families share (hangrec.h). */
#include <stdlib.h>
#include <string.h>
#include "hangrec.h"

int cg__hang_recorder_new(cg_device *dev, size_t size, cg_trace_fn sink, void **out)
{
    if (!dev || !out || size < sizeof(cg_hang_base))
        return CG_ERR_INVAL;
    cg_hang_base *b = calloc(1, size);
    if (!b)
        return CG_ERR_NOMEM;
    b->dev = dev;
    b->fault0 = cg_fault_count(dev);
    b->sink = cg_trace_add(dev, sink, b);
    if (b->sink < 0) {
        int rc = b->sink;
        free(b);
        return rc;
    }
    *out = b;
    return 0;
}

void cg__hang_recorder_free(cg_hang_base *b)
{
    if (!b)
        return;
    cg_trace_remove(b->dev, b->sink);
    free(b);
}

const cg_fault *cg__hang_first_fault(const cg_hang_base *b, cg_family family, int channel,
                                     const char *unit)
{
    for (size_t i = b->fault0; i < cg_fault_count(b->dev); i++) {
        const cg_fault *f = cg_fault_get(b->dev, i);
        if (f->family == family && !(f->flags & CG_FAULT_F_WARNING) &&
            (channel < 0 || f->channel == channel) && (!unit || strcmp(f->unit, unit) == 0))
            return f;
    }
    return NULL;
}
