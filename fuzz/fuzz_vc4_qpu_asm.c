/* Fuzz the VideoCore IV QPU assembler and the disassembler round trip.
 * The input is assembly text: it must assemble or fail with errors, never
 * crash; every instruction it produces must disassemble to text that
 * assembles back to the same 64 bits. The input's first bytes, read as
 * instruction words, must round trip the same way (asm(disasm(x)) == x for
 * any x). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmdgpu/asm.h"
#include "vc4/qpu.h"

static void round_trip(uint64_t ins, uint32_t addr)
{
    char text[512], notes[512], src[640];
    vc4_qpu_disasm(ins, addr, text, sizeof text, notes, sizeof notes);
    snprintf(src, sizeof src, ".section t, 0x%x\n%s\n", addr, text);
    cg_asm *as;
    if (cg_asm_create(vc4_qpu_asm_family(), NULL, &as))
        return;
    cg_asm_add_source(as, "rt.s", src, strlen(src));
    if (cg_asm_assemble(as) != 0) {
        fprintf(stderr, "0x%016llx: '%s' does not assemble:\n%s", (unsigned long long)ins, text,
                cg_asm_errors(as));
        abort();
    }
    const char *name;
    uint64_t base;
    const uint8_t *d;
    size_t n;
    cg_asm_section(as, 0, &name, &base, &d, &n);
    uint64_t back = 0;
    if (n == 8)
        memcpy(&back, d, 8);
    if (n != 8 || back != ins) {
        fprintf(stderr, "0x%016llx: '%s' assembles to 0x%016llx\n", (unsigned long long)ins,
                text, (unsigned long long)back);
        abort();
    }
    cg_asm_destroy(as);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 4096)
        return 0;
    for (size_t i = 0; i + 8 <= size && i < 64; i += 8) {
        uint64_t ins;
        memcpy(&ins, data + i, 8);
        round_trip(ins, (uint32_t)(0x1000 + i));
    }
    cg_asm *as;
    if (cg_asm_create(vc4_qpu_asm_family(), NULL, &as))
        return 0;
    cg_asm_add_source(as, "fuzz.s", (const char *)data, size);
    if (cg_asm_assemble(as) == 0) {
        size_t ns = cg_asm_section_count(as);
        for (size_t s = 0; s < ns; s++) {
            const char *name;
            uint64_t base;
            const uint8_t *d;
            size_t n;
            cg_asm_section(as, s, &name, &base, &d, &n);
            for (size_t i = 0; i + 8 <= n && i < 512; i += 8) {
                if ((base + i) % 8)
                    continue;
                uint64_t ins;
                memcpy(&ins, d + i, 8);
                round_trip(ins, (uint32_t)(base + i));
            }
        }
    }
    cg_asm_destroy(as);
    return 0;
}
