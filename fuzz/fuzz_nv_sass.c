/* Fuzzes the nv-sass disassembler and assembler: the input is shader code
 * (32-byte bundles of a control word and three instructions, any tail), or
 * with byte 0 == 'S' a shader program header followed by code. The text
 * must assemble back to the same bytes (asm(disasm(x)) == x); the SPH
 * printer must take any header, including truncated ones. Any difference
 * aborts. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmdgpu/cmdgpu.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    bool sph = size > 0 && data[0] == 'S';
    if (sph) { /* the JSON form of the header must not crash either */
        FILE *j = tmpfile();
        if (j) {
            cg_nv_sph_print(data, size < CG_NV_SPH_SIZE ? size : CG_NV_SPH_SIZE, j, true);
            fclose(j);
        }
    }
    char *text = cg_nv_sass_disasm_string(data, size, sph);
    if (!text)
        return 0;
    uint8_t *out = NULL;
    size_t out_size = 0;
    char *err = NULL;
    int rc = cg_nv_sass_assemble(text, strlen(text), &out, &out_size, &err);
    if (rc != 0 || out_size != size || (size && memcmp(out, data, size) != 0)) {
        fprintf(stderr, "nv-sass round trip failed (rc %d, %zu -> %zu bytes)\n%s\n%s", rc, size,
                out_size, err ? err : "", text);
        abort();
    }
    free(out);
    free(err);
    free(text);
    return 0;
}
