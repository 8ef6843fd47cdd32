/* cmdgpu disasm and asm: any format of the registry, through its
 * descriptor (cmdgpu/family.h); captures are listed by capture_cli.c. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli.h"
#include "cmdgpu/core.h"

int cmd_disasm(const cli_opts *o)
{
    int rc = EXIT_OK;
    cli_opts co = *o;
    if (!o->family && (co.family = capture_family_of(o)) != NULL)
        o = &co; /* a cmdgpu capture names its family */
    const cg_text_format *fmt = cli_format_for(o, "disasm", &rc);
    if (!fmt)
        return rc;
    co = *o;
    co.fmt = fmt;
    o = &co;
    if ((rc = cli_family_opts(o, fmt->family)) != EXIT_OK)
        return rc;
    if (o->nargs != 1)
        return cli_error(EXIT_USAGE, "disasm: give one input file (or - for stdin)");
    size_t size;
    uint8_t *data = cli_read_file(o->args[0], CLI_MAX_BINARY, &size);
    if (!data)
        return EXIT_INPUT;
    FILE *out = cli_open_out(o->output, "w");
    if (!out) {
        free(data);
        return EXIT_INPUT;
    }
    cli_progress_start("disasm");
    FILE *pout = cli_progress_wrap(out);
    rc = capture_disasm(o, o->args[0], data, size, pout);
    if (rc < 0) {
        cg_text_opts t = cli_text_opts(o);
        int r = fmt->disasm(&t, data, size, pout);
        rc = r < 0 ? cli_error(EXIT_INPUT, "disasm: %s", cg_strerror(r)) : EXIT_OK;
    }
    cli_progress_unwrap(pout, out);
    cli_progress_stop();
    int wrc = cli_close_out(out, o->output);
    rc = wrc != EXIT_OK ? wrc : rc;
    free(data);
    return rc;
}

int cli_asm_load(const cli_opts *o, const char *path, cg_asm **out)
{
    *out = NULL;
    cg_text_opts t = cli_text_opts(o);
    cg_asm *as;
    if (o->fmt->assembler(&t, &as) != 0)
        return cli_error(EXIT_INPUT, "out of memory");
    int rc = cg_asm_add_file(as, path);
    if (rc != 0) {
        cg_asm_destroy(as);
        if (rc == CG_ERR_RANGE)
            return cli_error(EXIT_INPUT, "cannot read '%s': larger than %zu MiB, the cap for a "
                             "source (docs/faults.md)", path, CLI_MAX_SOURCE >> 20);
        return cli_error(EXIT_INPUT, "cannot read '%s': %s", path, cli_file_why(path, rc));
    }
    if (cg_asm_assemble(as) != 0) {
        fputs(cg_asm_errors(as), stderr);
        cg_asm_destroy(as);
        return EXIT_INPUT;
    }
    *out = as;
    return EXIT_OK;
}

static void print_sections(const cg_asm *as)
{
    printf("{\"sections\":[");
    for (size_t i = 0; i < cg_asm_section_count(as); i++) {
        const char *name;
        uint64_t base;
        const uint8_t *data;
        size_t size;
        cg_asm_section(as, i, &name, &base, &data, &size);
        printf("%s{\"name\":", i ? "," : "");
        cli_json_str(stdout, name);
        printf(",\"base\":\"0x%llx\",\"size\":%zu}", (unsigned long long)base, size);
    }
    printf("]}\n");
}

/* Assemble, print errors, and write the chosen section (-o, --section) or,
 * with --json, a summary. */
int cmd_asm(const cli_opts *o)
{
    int rc = EXIT_OK;
    const cg_text_format *fmt = cli_format_for(o, "asm", &rc);
    if (!fmt)
        return rc;
    cli_opts co = *o;
    co.fmt = fmt;
    o = &co;
    if ((rc = cli_family_opts(o, fmt->family)) != EXIT_OK)
        return rc;
    if (o->nargs != 1)
        return cli_error(EXIT_USAGE, "asm: give one source file (or - for stdin)");
    const char *path = o->args[0];
    cg_asm *as;
    if ((rc = cli_asm_load(o, path, &as)) != EXIT_OK)
        return rc;
    size_t idx = 0, nsec = cg_asm_section_count(as);
    if (o->section && cg_asm_section_find(as, o->section, &idx) != 0) {
        cg_asm_destroy(as);
        return cli_error(EXIT_INPUT, "asm: no section '%s' in '%s'", o->section, path);
    }
    if (o->json) {
        print_sections(as);
        if (!o->output) {
            cg_asm_destroy(as);
            return EXIT_OK;
        }
    }
    if (!o->output && isatty(fileno(stdout))) {
        cg_asm_destroy(as);
        return cli_error(EXIT_USAGE, "asm: not writing binary to a terminal; use -o FILE");
    }
    FILE *out = cli_open_out(o->output, "wb");
    if (!out) {
        cg_asm_destroy(as);
        return EXIT_INPUT;
    }
    if (nsec > 0) {
        const char *name;
        uint64_t base;
        const uint8_t *data;
        size_t size;
        cg_asm_section(as, idx, &name, &base, &data, &size);
        if (size && fwrite(data, 1, size, out) != size)
            rc = EXIT_INPUT; /* reported by cli_close_out */
    }
    if (cli_close_out(out, o->output) != EXIT_OK)
        rc = EXIT_INPUT;
    cg_asm_destroy(as);
    return rc ? EXIT_INPUT : EXIT_OK;
}
