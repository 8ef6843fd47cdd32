/* Fuzzes radeon scenes end to end: the input is a scene source; when it
 * assembles, it runs (`cmdgpu run -f radeon`) with its log going to
 * /dev/null. Any scene must finish with a result: never a crash, leak or
 * hang. Inputs are capped at 4 KiB so each run stays short. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include "cmdgpu/cmdgpu.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 4096)
        return 0;
    static FILE *null_out;
    if (!null_out)
        null_out = fopen("/dev/null", "w");
    if (!null_out)
        return 0;
    cg_scene *sc = NULL;
    cg_device *dev;
    if (cg_scene_assemble(cg_family_get(CG_FAMILY_RADEON), NULL, "fuzz.s", (const char *)data,
                          size, &sc) == 0 &&
        cg_device_create(&dev) == 0) {
        cg_scene_opts o = {.log = null_out};
        cg_scene_run(sc, dev, &o);
        cg_device_destroy(dev);
    }
    cg_scene_destroy(sc);
    return 0;
}
