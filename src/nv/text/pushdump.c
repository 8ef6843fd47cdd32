/* nv family: raw pushbuffer words as Mesa's nv_push_dump reads them
 * (src/nouveau/headers/nv_push_dump.c: the file is read whole into a
 * uint32_t array and refused unless its size is a multiple of 4; the words
 * are the host's, little-endian on every machine NVK runs on). NVK's own
 * NVK_DEBUG=push_dump output is vk_push_print text (src/nouveau/headers/
 * nv_push.c: "[0x%08x] HDR %x subch %i NINC", "\tmthd %04x NAME", then
 * field lines); it prints data words as decoded fields, so it is recognised
 * and refused here rather than guessed back into words (docs/captures.md). */
#include <stdlib.h>
#include <string.h>
#include "nv/nv_internal.h"
#include "core/capture_text.h"

/* "[0x" at the start and "] HDR " in the first line: vk_push_print text. */
static bool nvk_text(const uint8_t *d, size_t n)
{
    if (n < 8 || memcmp(d, "[0x", 3) != 0)
        return false;
    for (size_t i = 3; i + 6 <= n && i < 64 && d[i] != '\n'; i++)
        if (memcmp(d + i, "] HDR ", 6) == 0)
            return true;
    return false;
}

int cg_nv_pushdump_load(const uint8_t *data, size_t size, uint32_t **words, size_t *nwords,
                        cg_capture_error *err)
{
    if (!words || !nwords || (!data && size))
        return CG_ERR_INVAL;
    *words = NULL;
    *nwords = 0;
    if (nvk_text(data, size))
        return cg_capture_fail(err, 0, CG_ERR_SYNTAX,
                    "this is NVK_DEBUG=push_dump text (a decoded listing whose data words are printed as "
                    "fields), not raw words: dump the pushbuffer memory as binary words instead");
    if (size % 4)
        return cg_capture_fail(err, size - size % 4, CG_ERR_SYNTAX,
                    "%zu bytes is not a whole number of 32-bit words (%zu bytes left over)", size, size % 4);
    size_t n = size / 4;
    uint32_t *w = malloc(n ? 4 * n : 4);
    if (!w)
        return CG_ERR_NOMEM;
    for (size_t i = 0; i < n; i++)
        w[i] = (uint32_t)data[4 * i] | (uint32_t)data[4 * i + 1] << 8 | (uint32_t)data[4 * i + 2] << 16 |
               (uint32_t)data[4 * i + 3] << 24;
    *words = w;
    *nwords = n;
    return 0;
}
