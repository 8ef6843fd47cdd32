/* cmdgpu command: the nv-macro front end (Maxwell MME code: disassembler and
 * assembler, syntax in docs/nv-macro.md). */
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "cmdgpu/cmdgpu.h"

int nv_macro_disasm_cli(const cli_opts *o, const uint8_t *data, size_t size, FILE *out)
{
    const cli_colors *c = o->color;
    size_t n = size / 4;
    char text[128];
    if (o->json)
        fprintf(out, "{\"family\":\"nv-macro\",\"size\":%zu,\"instructions\":[", size);
    else
        fprintf(out, "%s# nv-macro: %zu instructions (%zu bytes)%s\n", c->comment, n, size,
                c->reset);
    for (size_t i = 0; i < n; i++) {
        const uint8_t *p = data + 4 * i;
        uint32_t w = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
                     (uint32_t)p[3] << 24;
        const char *note;
        cg_nv_macro_disasm_word(w, (uint32_t)i, text, sizeof text, &note);
        if (o->json) /* the text has no characters that need escaping */
            fprintf(out, "%s{\"offset\":%zu,\"word\":\"0x%08x\",\"text\":\"%s\",\"note\":\"%s\"}",
                    i ? "," : "", 4 * i, w, text, note ? note : "");
        else
            fprintf(out, "    %s%-44s%s %s# 0x%04zx: 0x%08x%s%s%s\n", c->name, text, c->reset,
                    c->comment, 4 * i, w, note ? " [" : "", note ? note : "",
                    note ? "]" : "");
    }
    if (o->json) {
        fprintf(out, "],\"tail\":[");
        for (size_t i = n * 4; i < size; i++)
            fprintf(out, "%s%u", i > n * 4 ? "," : "", data[i]);
        fprintf(out, "]}\n");
    } else {
        cli_print_tail(out, c, "    ", data, n * 4, size);
    }
    return EXIT_OK;
}

int nv_macro_assemble(const cli_opts *o, const char *path)
{
    return cli_assemble(o, path, cg_nv_macro_asm_family(), NULL);
}
