/* Fuzzes the radeon assembler plug-in (mnemonics, .gen, scene directives):
 * the input is one source. When it assembles, its first section is
 * disassembled and reassembled, and the bytes must match (asm(disasm(x)) ==
 * x); a mismatch aborts. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmdgpu/cmdgpu.h"

static int assemble(cg_radeon_gen gen, const char *src, size_t len, uint8_t **out, size_t *n,
                    cg_radeon_gen *final_gen)
{
    cg_radeon_asm *st;
    cg_asm *as;
    *out = NULL;
    *n = 0;
    if (cg_radeon_asm_create(gen, &st) != 0)
        return -1;
    if (cg_asm_create(cg_radeon_asm_family(), st, &as) != 0) {
        cg_radeon_asm_destroy(st);
        return -1;
    }
    cg_asm_add_source(as, "fuzz.s", src, len);
    int rc = cg_asm_assemble(as);
    if (rc == 0 && cg_asm_section_count(as) > 0) {
        const char *name;
        uint64_t base;
        const uint8_t *data;
        size_t size;
        cg_asm_section(as, 0, &name, &base, &data, &size);
        *out = malloc(size ? size : 1);
        if (*out) {
            if (size)
                memcpy(*out, data, size);
            *n = size;
        }
        (void)cg_radeon_asm_action_count(st);
    }
    if (final_gen)
        *final_gen = cg_radeon_asm_gen(st);
    cg_asm_destroy(as);
    cg_radeon_asm_destroy(st);
    return rc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 16384)
        return 0;
    uint8_t *bin;
    size_t n;
    cg_radeon_gen gen;
    if (assemble(CG_RADEON_R600, (const char *)data, size, &bin, &n, &gen) != 0 || !bin) {
        free(bin);
        return 0;
    }
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f) {
        free(bin);
        return 0;
    }
    cg_radeon_disasm_opts o = {.gen = gen};
    cg_radeon_disasm(&o, bin, n, f);
    fclose(f);
    uint8_t *back;
    size_t m;
    int rc = assemble(CG_RADEON_R600, text, len, &back, &m, NULL);
    if (rc != 0 || m != n || (n && memcmp(back, bin, n) != 0)) {
        fprintf(stderr, "radeon asm round trip failed (rc %d, %zu vs %zu bytes):\n%s\n", rc, n, m, text);
        abort();
    }
    free(back);
    free(text);
    free(bin);
    return 0;
}
