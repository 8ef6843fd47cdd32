/* nv family: raw pushbuffer words as a capture format of the family
 * (include/cmdgpu/family.h, docs/captures.md), over text/pushdump.c. Raw
 * words carry no signature: the format is chosen by name only, and listed
 * as the family's own pushbuffer words. */
#include <stdlib.h>
#include "scene.h"

static int disasm(const cg_text_opts *o, const uint8_t *data, size_t size, FILE *out,
                  cg_capture_error *err)
{
    uint32_t *w;
    size_t n;
    int rc = cg_nv_pushdump_load(data, size, &w, &n, err);
    if (rc)
        return rc;
    free(w);
    return cg_nv_family.formats[0]->disasm(o, data, size, out);
}

const cg_capture_desc nv_push_raw_capture = {
    .name = "nv-push-raw",
    .description = "raw pushbuffer words (nv_push_dump input)",
    .family = &cg_nv_family,
    .disasm = disasm,
    .why_not = "raw pushbuffer words hold no GPFIFO, channel or memory: they cannot be run "
               "alone (write an nv scene that .incbin's them)",
};
