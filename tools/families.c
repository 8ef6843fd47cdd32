/* cmdgpu command: the family front ends, file helpers, and the subcommands
 * that dispatch to a family (asm, disasm, run, check). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli.h"
#include "cmdgpu/cmdgpu.h"

const cli_family cli_families[] = {
    {"raw", "plain little-endian words (core directives only)", raw_disasm, raw_assemble,
     NULL, NULL},
    {"nv", "NVIDIA Maxwell (Tegra X1): GPFIFO, pushbuffers, classes", nv_disasm,
     nv_assemble, nv_run, nv_check},
    {"nv-macro", "NVIDIA Maxwell macro engine (MME) code (disasm/asm)", nv_macro_disasm_cli,
     nv_macro_assemble, NULL, NULL},
    {"vc4", "Broadcom VideoCore IV V3D: control lists, binner, renderer, scenes", vc4_disasm,
     vc4_assemble, vc4_run, vc4_check},
    {"vc4-cl", "Broadcom VideoCore IV V3D control lists (as vc4)", vc4_disasm, vc4_assemble,
     vc4_run, vc4_check},
    {"vc4-qpu", "VideoCore IV QPU shader code (disasm/asm)", vc4_qpu_disasm_cli,
     vc4_qpu_assemble, NULL, NULL},
    {"radeon", "ATI/AMD R600-class CP: ring, PM4, indirect buffers", radeon_disasm,
     radeon_assemble, radeon_run, radeon_check},
    {"nv-sass", "NVIDIA Maxwell shader code, SM50/SM52 (disasm/asm)", nv_sass_disasm_cli,
     nv_sass_assemble, NULL, NULL},
    {"nv-sass-sph", "NVIDIA Maxwell shader program header + code (disasm/asm)",
     nv_sass_sph_disasm_cli, nv_sass_assemble, NULL, NULL},
};
const size_t cli_nfamilies = sizeof(cli_families) / sizeof(cli_families[0]);

int cli_parse_budget(const char *text, struct cli_budget *out)
{
    const char *eq = strchr(text, '=');
    char name[64];
    if (!eq || (size_t)(eq - text) >= sizeof(name))
        return cli_error(EXIT_USAGE, "--budget '%s': want NAME=VALUE (see `cmdgpu help budgets`)",
                         text);
    memcpy(name, text, (size_t)(eq - text));
    name[eq - text] = 0;
    if (cg_budget_from_name(name, &out->budget) != 0)
        return cli_error(EXIT_USAGE, "--budget: no budget '%s' (see `cmdgpu help budgets`)", name);
    char *end;
    errno = 0;
    unsigned long long v = strtoull(eq + 1, &end, 0);
    if (errno || end == eq + 1 || *end || v == 0 || eq[1] == '-')
        return cli_error(EXIT_USAGE, "--budget %s: '%s' is not a count above 0", name, eq + 1);
    out->value = v;
    return EXIT_OK;
}

cg_device *cli_device_create(const cli_opts *o)
{
    cg_device *dev = NULL;
    if (cg_device_create(&dev) != 0) {
        cli_error(EXIT_INPUT, "out of memory");
        return NULL;
    }
    for (int i = 0; i < o->nbudgets; i++)
        cg_device_set_budget(dev, o->budgets[i].budget, o->budgets[i].value);
    return dev;
}

const cli_family *cli_find_family(const char *name)
{
    for (size_t i = 0; name && i < cli_nfamilies; i++)
        if (strcmp(cli_families[i].name, name) == 0)
            return &cli_families[i];
    return NULL;
}

uint8_t *cli_read_file(const char *path, size_t *size)
{
    FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
    if (!f) {
        cli_error(EXIT_INPUT, "cannot open '%s': %s", path, strerror(errno));
        return NULL;
    }
    size_t cap = 1 << 16, n = 0;
    uint8_t *buf = malloc(cap);
    while (buf) {
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0)
            break;
        if (n == cap) {
            uint8_t *nb = realloc(buf, cap * 2);
            if (!nb) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = nb;
            cap *= 2;
        }
    }
    bool err = ferror(f);
    if (f != stdin)
        fclose(f);
    if (!buf || err) {
        free(buf);
        cli_error(EXIT_INPUT, "cannot read '%s'", path);
        return NULL;
    }
    *size = n;
    return buf;
}

FILE *cli_open_out(const char *path, const char *mode)
{
    if (!path || strcmp(path, "-") == 0)
        return stdout;
    FILE *f = fopen(path, mode);
    if (!f)
        cli_error(EXIT_INPUT, "cannot create '%s': %s", path, strerror(errno));
    return f;
}

void cli_close_out(FILE *f)
{
    if (f && f != stdout)
        fclose(f);
    else if (f)
        fflush(f);
}

/* "raw, nv, ..." from the family table, for messages. */
static const char *family_names(void)
{
    static char buf[256];
    size_t len = 0;
    buf[0] = 0;
    for (size_t i = 0; i < cli_nfamilies && len < sizeof(buf); i++) {
        int w = snprintf(buf + len, sizeof(buf) - len, "%s%s", i ? ", " : "",
                         cli_families[i].name);
        if (w < 0)
            break;
        len += (size_t)w;
    }
    return buf;
}

/* Resolve -f, and say plainly when a family lacks the subcommand. */
static const cli_family *family_for(const cli_opts *o, const char *sub, int *rc)
{
    if (!o->family) {
        *rc = cli_error(EXIT_USAGE, "%s: which family? use -f NAME (%s)", sub, family_names());
        return NULL;
    }
    const cli_family *fam = cli_find_family(o->family);
    if (!fam)
        *rc = cli_error(EXIT_USAGE, "%s: unknown family '%s' (known: %s)", sub, o->family,
                        family_names());
    return fam;
}

static int not_yet(const char *sub, const cli_family *fam)
{
    return cli_error(EXIT_USAGE, "%s is not supported for family '%s' yet", sub, fam->name);
}

int cmd_disasm(const cli_opts *o)
{
    int rc = EXIT_OK;
    const cli_family *fam = family_for(o, "disasm", &rc);
    if (!fam)
        return rc;
    if (!fam->disasm)
        return not_yet("disasm", fam);
    if (o->nargs != 1)
        return cli_error(EXIT_USAGE, "disasm: give one input file (or - for stdin)");
    size_t size;
    uint8_t *data = cli_read_file(o->args[0], &size);
    if (!data)
        return EXIT_INPUT;
    FILE *out = cli_open_out(o->output, "w");
    if (!out) {
        free(data);
        return EXIT_INPUT;
    }
    rc = fam->disasm(o, data, size, out);
    cli_close_out(out);
    free(data);
    return rc;
}

int cmd_asm(const cli_opts *o)
{
    int rc = EXIT_OK;
    const cli_family *fam = family_for(o, "asm", &rc);
    if (!fam)
        return rc;
    if (!fam->assemble)
        return not_yet("asm", fam);
    if (o->nargs != 1)
        return cli_error(EXIT_USAGE, "asm: give one source file (or - for stdin)");
    return fam->assemble(o, o->args[0]);
}

int cmd_run(const cli_opts *o)
{
    int rc = EXIT_OK;
    const cli_family *fam = family_for(o, "run", &rc);
    if (!fam)
        return rc;
    if (!fam->run)
        return not_yet("run", fam);
    return fam->run(o);
}

int cmd_check(const cli_opts *o)
{
    int rc = EXIT_OK;
    const cli_family *fam = family_for(o, "check", &rc);
    if (!fam)
        return rc;
    if (!fam->check)
        return not_yet("check", fam);
    return fam->check(o);
}

/* ---- the raw family ------------------------------------------------------ */

int raw_disasm(const cli_opts *o, const uint8_t *data, size_t size, FILE *out)
{
    const cli_colors *c = o->color;
    size_t nwords = size / 4;
    if (o->json) {
        fprintf(out, "{\"family\":\"raw\",\"size\":%zu,\"words\":[", size);
        for (size_t i = 0; i < nwords; i++) {
            uint32_t w = (uint32_t)data[4 * i] | (uint32_t)data[4 * i + 1] << 8 |
                         (uint32_t)data[4 * i + 2] << 16 | (uint32_t)data[4 * i + 3] << 24;
            fprintf(out, "%s{\"offset\":%zu,\"value\":\"0x%08x\"}", i ? "," : "", 4 * i, w);
        }
        fprintf(out, "],\"tail\":[");
        for (size_t i = nwords * 4; i < size; i++)
            fprintf(out, "%s%u", i > nwords * 4 ? "," : "", data[i]);
        fprintf(out, "]}\n");
        return EXIT_OK;
    }
    fprintf(out, "%s# raw: %zu bytes, %zu words%s\n", c->comment, size, nwords, c->reset);
    for (size_t i = 0; i < nwords; i++) {
        uint32_t w = (uint32_t)data[4 * i] | (uint32_t)data[4 * i + 1] << 8 |
                     (uint32_t)data[4 * i + 2] << 16 | (uint32_t)data[4 * i + 3] << 24;
        fprintf(out, "%s.word%s %s0x%08x%s  %s# 0x%04zx%s\n", c->name, c->reset, c->num, w,
                c->reset, c->comment, 4 * i, c->reset);
    }
    cli_print_tail(out, c, "", data, nwords * 4, size);
    return EXIT_OK;
}

void cli_print_tail(FILE *out, const cli_colors *c, const char *indent, const uint8_t *data,
                    size_t from, size_t size)
{
    if (from >= size)
        return;
    fprintf(out, "%s%s.byte%s ", indent, c->name, c->reset);
    for (size_t i = from; i < size; i++)
        fprintf(out, "%s%s0x%02x%s", i > from ? ", " : "", c->num, data[i], c->reset);
    fprintf(out, "  %s# 0x%04zx%s\n", c->comment, from, c->reset);
}

int cli_asm_load(const char *path, const cg_asm_family *fam, void *user, cg_asm **out)
{
    *out = NULL;
    cg_asm *as;
    if (cg_asm_create(fam, user, &as) != 0)
        return cli_error(EXIT_INPUT, "out of memory");
    int rc = cg_asm_add_file(as, path);
    if (rc != 0) {
        cg_asm_destroy(as);
        return cli_error(EXIT_INPUT, "cannot read '%s': %s", path, cg_strerror(rc));
    }
    if (cg_asm_assemble(as) != 0) {
        fputs(cg_asm_errors(as), stderr);
        cg_asm_destroy(as);
        return EXIT_INPUT;
    }
    *out = as;
    return EXIT_OK;
}

int cli_assemble(const cli_opts *o, const char *path, const cg_asm_family *fam, void *user)
{
    cg_asm *as;
    int rc = cli_asm_load(path, fam, user, &as);
    if (rc != EXIT_OK)
        return rc;
    size_t idx = 0, nsec = cg_asm_section_count(as);
    if (o->section && cg_asm_section_find(as, o->section, &idx) != 0) {
        cg_asm_destroy(as);
        return cli_error(EXIT_INPUT, "asm: no section '%s' in '%s'", o->section, path);
    }
    if (o->json) {
        printf("{\"sections\":[");
        for (size_t i = 0; i < nsec; i++) {
            const char *name;
            uint64_t base;
            const uint8_t *data;
            size_t size;
            cg_asm_section(as, i, &name, &base, &data, &size);
            printf("%s{\"name\":\"%s\",\"base\":\"0x%llx\",\"size\":%zu}", i ? "," : "", name,
                   (unsigned long long)base, size);
        }
        printf("]}\n");
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
            rc = cli_error(EXIT_INPUT, "asm: write failed");
    }
    cli_close_out(out);
    cg_asm_destroy(as);
    return rc ? EXIT_INPUT : EXIT_OK;
}

int raw_assemble(const cli_opts *o, const char *path)
{
    return cli_assemble(o, path, NULL, NULL);
}
