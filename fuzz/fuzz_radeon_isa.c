/* Fuzzes the R600/R700 shader disassembler and assembler
 * (src/radeon/text/isa_text.c, isa_asm.c; docs/radeon-isa.md).
 *
 * Input: byte 0 picks the chip (bit 0: r600/r700), bit 1 the colour-free
 * JSON listing as well; the rest is a shader program. The walk must end
 * (no loop on hostile clause addresses and counts), read nothing outside
 * the input, and its text must assemble back to the same bytes
 * (asm(disasm(x)) == x). The same bytes are then read as assembly text,
 * which must assemble or fail with errors, never crash; what it assembles
 * to must round trip as well. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmdgpu/asm.h"
#include "radeon/text/isa_text.h"

static uint8_t *assemble(r6_chip c, const char *text, size_t len, size_t *n, bool must)
{
    rd_isa_asm_state st = {c, c};
    cg_asm *as;
    uint8_t *out = NULL;
    *n = 0;
    if (cg_asm_create(rd_isa_asm_family(), &st, &as))
        return NULL;
    cg_asm_add_source(as, "fuzz.s", text, len);
    if (cg_asm_assemble(as) == 0) {
        const char *name;
        uint64_t base;
        const uint8_t *d = NULL;
        if (cg_asm_section_count(as))
            cg_asm_section(as, 0, &name, &base, &d, n);
        out = malloc(*n ? *n : 1);
        if (out && *n)
            memcpy(out, d, *n);
    } else if (must) {
        fprintf(stderr, "the listing does not assemble:\n%s\n%s", cg_asm_errors(as), text);
        abort();
    }
    cg_asm_destroy(as);
    return out;
}

static void round_trip(r6_chip c, const uint8_t *d, size_t n, bool json)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f)
        return;
    rd_isa_opts o = {.chip = c};
    rd_isa_disasm(&o, d, n, f);
    fclose(f);
    size_t bn;
    uint8_t *back = assemble(c, text, len, &bn, true);
    if (!back || bn != n || (n && memcmp(back, d, n))) {
        fprintf(stderr, "asm(disasm(x)) != x:\n%s", text);
        abort();
    }
    free(back);
    free(text);
    if (json) {
        f = open_memstream(&text, &len);
        if (!f)
            return;
        o.json = true;
        rd_isa_disasm(&o, d, n, f);
        fclose(f);
        free(text);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 || size > 8192)
        return 0;
    r6_chip c = (data[0] & 1) ? R6_R700 : R6_R600;
    round_trip(c, data + 1, size - 1, (data[0] & 2) != 0);
    size_t n;
    uint8_t *b = assemble(c, (const char *)data + 1, size - 1, &n, false);
    if (b && n <= 65536)
        round_trip(c, b, n, false);
    free(b);
    return 0;
}
