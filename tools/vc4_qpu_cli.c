/* cmdgpu command: the vc4-qpu front end (QPU disassembler and assembler,
 * syntax in docs/vc4-qpu.md). */
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "cmdgpu/cmdgpu.h"

static void json_str(FILE *out, const char *s)
{
    fputc('"', out);
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            fprintf(out, "\\%c", *s);
        else if ((unsigned char)*s < 0x20)
            fprintf(out, "\\u%04x", (unsigned char)*s);
        else
            fputc(*s, out);
    }
    fputc('"', out);
}

int vc4_qpu_disasm_cli(const cli_opts *o, const uint8_t *data, size_t size, FILE *out)
{
    const cli_colors *c = o->color;
    size_t n = size / 8;
    char text[512], notes[512];
    if (o->json)
        fprintf(out, "{\"family\":\"vc4-qpu\",\"size\":%zu,\"instructions\":[", size);
    else
        fprintf(out, "%s# vc4-qpu: %zu instructions (%zu bytes)%s\n", c->comment, n, size,
                c->reset);
    for (size_t i = 0; i < n; i++) {
        uint64_t ins = cg_vc4_qpu_word(data + 8 * i);
        uint32_t lo = (uint32_t)ins, hi = (uint32_t)(ins >> 32);
        cg_vc4_qpu_confidence conf;
        cg_vc4_qpu_disasm(ins, (uint32_t)(8 * i), text, sizeof text, notes, sizeof notes,
                          &conf);
        if (o->json) {
            fprintf(out, "%s{\"offset\":%zu,\"words\":[\"0x%08x\",\"0x%08x\"],\"text\":",
                    i ? "," : "", 8 * i, lo, hi);
            json_str(out, text);
            fprintf(out, ",\"notes\":");
            json_str(out, notes);
            fprintf(out, ",\"confidence\":\"%s\"}", cg_vc4_qpu_confidence_name(conf));
        } else {
            fprintf(out, "    %s%-52s%s %s# 0x%04zx: 0x%08x 0x%08x%s%s%s\n", c->name, text,
                    c->reset, c->comment, 8 * i, lo, hi, notes[0] ? " [" : "", notes,
                    notes[0] ? "]" : "");
            if (notes[0] && c->reset[0])
                fputs(c->reset, out);
        }
    }
    if (o->json) {
        fprintf(out, "],\"tail\":[");
        for (size_t i = n * 8; i < size; i++)
            fprintf(out, "%s%u", i > n * 8 ? "," : "", data[i]);
        fprintf(out, "]}\n");
        return EXIT_OK;
    }
    if (size % 8) {
        fprintf(out, "    %s# %zu trailing bytes, not a whole instruction%s\n", c->comment,
                size % 8, c->reset);
        cli_print_tail(out, c, "    ", data, n * 8, size);
    }
    return EXIT_OK;
}

int vc4_qpu_assemble(const cli_opts *o, const char *path)
{
    return cli_assemble(o, path, cg_vc4_qpu_asm_family(), NULL);
}
