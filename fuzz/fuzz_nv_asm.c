/* Fuzzes the nv assembler (and the disassembler behind the round trip): the
 * input is assembler text. If it assembles, its first section is
 * disassembled and assembled again, and must come back word for word
 * (abort otherwise). Scene directives are parsed and recorded, never run. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmdgpu/cmdgpu.h"
#include "cmdgpu/nv.h"

static int assemble(const char *text, size_t len, uint8_t **out, size_t *n)
{
    cg_nv_asm *a;
    cg_asm *as;
    if (cg_nv_asm_new(NULL, &a))
        return -1;
    if (cg_asm_create(cg_nv_asm_family(), a, &as)) {
        cg_nv_asm_free(a);
        return -1;
    }
    int rc = -1;
    cg_asm_add_source(as, "fuzz.s", text, len);
    if (cg_asm_assemble(as) == 0) {
        rc = 0;
        *out = NULL;
        *n = 0;
        if (cg_asm_section_count(as)) {
            const char *name;
            uint64_t base;
            const uint8_t *data;
            size_t size;
            cg_asm_section(as, 0, &name, &base, &data, &size);
            *out = malloc(size + 1);
            if (*out && size) { /* an empty section has no data pointer */
                memcpy(*out, data, size);
                *n = size;
            }
        }
    } else {
        (void)cg_asm_errors(as);
    }
    cg_asm_destroy(as);
    cg_nv_asm_free(a);
    return rc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 1 << 16)
        return 0;
    /* .incbin could read any file: leave it to the core's own fuzzer */
    for (size_t i = 0; i + 6 <= size; i++)
        if (memcmp(data + i, "incbin", 6) == 0)
            return 0;
    uint8_t *bytes;
    size_t n;
    if (assemble((const char *)data, size, &bytes, &n) != 0)
        return 0;
    size_t nw = n / 4;
    if (nw > 0 && bytes) {
        char *text = NULL;
        size_t tlen = 0;
        FILE *f = open_memstream(&text, &tlen);
        if (f) {
            uint32_t *w = malloc(nw * 4);
            if (w) {
                memcpy(w, bytes, nw * 4);
                cg_nv_disasm(w, nw, NULL, f);
                fclose(f);
                uint8_t *again;
                size_t m;
                if (assemble(text, tlen, &again, &m) != 0 || m != nw * 4 ||
                    memcmp(again, bytes, m) != 0) {
                    fprintf(stderr, "round trip failed:\n%s\n", text);
                    abort();
                }
                free(again);
                free(w);
            } else {
                fclose(f);
            }
            free(text);
        }
    }
    free(bytes);
    return 0;
}
