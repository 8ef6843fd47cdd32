/* Fuzzes the nv-sass disassembler and assembler: the input is shader code
 * (32-byte bundles of a control word and three instructions, any tail), or
 * with byte 0 == 'S' a shader program header followed by code. The text
 * must assemble back to the same bytes (asm(disasm(x)) == x); the SPH
 * printer must take any header, including truncated ones. With byte 0 ==
 * 'T' the rest is assembler text (hostile source): it must assemble or
 * fail with errors, never crash; what assembles must disassemble and
 * assemble again to the same bytes. Any difference aborts. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmdgpu/cmdgpu.h"

static void fuzz_text(const uint8_t *data, size_t size)
{
    uint8_t *out = NULL;
    size_t n = 0;
    if (cg_nv_sass_assemble((const char *)data, size, &out, &n, NULL) == 0 && out) {
        char *text = cg_nv_sass_disasm_string(out, n, false);
        uint8_t *again = NULL;
        size_t m = 0;
        if (text && (cg_nv_sass_assemble(text, strlen(text), &again, &m, NULL) != 0 || m != n ||
                     (n && memcmp(again, out, n) != 0))) {
            fprintf(stderr, "nv-sass: assembled text does not round-trip\n%s", text);
            abort();
        }
        free(again);
        free(text);
    }
    free(out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 0 && data[0] == 'T') {
        fuzz_text(data + 1, size - 1);
        return 0;
    }
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
