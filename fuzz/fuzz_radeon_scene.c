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
    cg_radeon_asm *st;
    cg_asm *as;
    cg_device *dev;
    if (cg_radeon_asm_create(CG_RADEON_R600, &st) != 0)
        return 0;
    if (cg_asm_create(cg_radeon_asm_family(), st, &as) != 0) {
        cg_radeon_asm_destroy(st);
        return 0;
    }
    cg_asm_add_source(as, "fuzz.s", (const char *)data, size);
    if (cg_asm_assemble(as) == 0 && cg_device_create(&dev) == 0) {
        cg_radeon_scene_run(st, as, dev, null_out);
        cg_device_destroy(dev);
    }
    cg_asm_destroy(as);
    cg_radeon_asm_destroy(st);
    return 0;
}
