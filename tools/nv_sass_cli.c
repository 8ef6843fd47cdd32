/* cmdgpu command: the nv-sass front end (Maxwell shader code: disassembler
 * and assembler; dialect in docs/nv-sass.md). -f nv-sass-sph reads and
 * prints the 0x50-byte shader program header first. */
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "cmdgpu/cmdgpu.h"

static int sass_disasm(const cli_opts *o, const uint8_t *data, size_t size, FILE *out, bool sph)
{
    size_t start = 0;
    if (o->json) {
        fprintf(out, "{\"family\":\"%s\",\"size\":%zu,", o->family, size);
        if (sph) {
            fprintf(out, "\"sph\":");
            cg_nv_sph_print(data, size, out, true);
            fprintf(out, ",");
            start = size < CG_NV_SPH_SIZE ? size : CG_NV_SPH_SIZE;
        }
        fprintf(out, "\"code\":[");
        char text[256];
        size_t n = (size - start) / 8;
        for (size_t i = 0; i < n; i++) {
            const uint8_t *p = data + start + 8 * i;
            uint64_t w = 0;
            for (int b = 7; b >= 0; b--)
                w = w << 8 | p[b];
            uint64_t pc = start + 8 * i;
            if (i % 4 == 0)
                cg_nv_sass_disasm_sched(w, text, sizeof text);
            else
                cg_nv_sass_disasm_insn(w, pc, text, sizeof text);
            /* the text has no characters that need escaping */
            fprintf(out, "%s{\"offset\":%llu,\"word\":\"0x%016llx\",\"kind\":\"%s\",\"text\":\"%s\"}",
                    i ? "," : "", (unsigned long long)pc, (unsigned long long)w,
                    i % 4 ? "insn" : "sched", text);
        }
        fprintf(out, "],\"tail\":[");
        for (size_t i = start + n * 8; i < size; i++)
            fprintf(out, "%s%u", i > start + n * 8 ? "," : "", data[i]);
        fprintf(out, "]}\n");
        return EXIT_OK;
    }
    fprintf(out, "%s# %s: %zu bytes%s\n", o->color->comment, o->family, size, o->color->reset);
    if (sph) {
        start = size < CG_NV_SPH_SIZE ? size : CG_NV_SPH_SIZE;
        cg_nv_sph_print(data, start, out, false);
    }
    cg_nv_sass_disasm(data + start, size - start, start, out);
    return EXIT_OK;
}

int nv_sass_disasm_cli(const cli_opts *o, const uint8_t *data, size_t size, FILE *out)
{
    return sass_disasm(o, data, size, out, false);
}

int nv_sass_sph_disasm_cli(const cli_opts *o, const uint8_t *data, size_t size, FILE *out)
{
    return sass_disasm(o, data, size, out, true);
}

int nv_sass_assemble(const cli_opts *o, const char *path)
{
    void *state = calloc(1, cg_nv_sass_asm_state_size());
    if (!state)
        return cli_error(EXIT_INPUT, "asm: out of memory");
    int rc = cli_assemble(o, path, cg_nv_sass_asm_family(), state);
    free(state);
    return rc;
}
