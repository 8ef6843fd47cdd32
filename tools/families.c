/* cmdgpu command: the family front ends, file helpers, and the subcommands
 * that dispatch to a family (asm, disasm, run, check). */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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
    {"vc4-qpu", "VideoCore IV QPU shader code (disasm/asm; run: user programs on N QPUs)",
     vc4_qpu_disasm_cli, vc4_qpu_assemble, vc4_qpu_run_cli, NULL},
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
    uint64_t v;
    if (cli_parse_u64(eq + 1, &v) != 0 || v == 0)
        return cli_error(EXIT_USAGE, "--budget %s: '%s' is not a count above 0 (decimal or 0x "
                         "hex; no leading 0)", name, eq + 1);
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
    if (o->replay) /* the captured run's budgets, then the command line's */
        for (int b = 0; b < CG_BUDGET_COUNT; b++) {
            uint64_t v;
            if (cg_capfile_config(o->replay, CG_CAPCFG_BUDGET + (uint32_t)b, &v) == 0)
                cg_device_set_budget(dev, (cg_budget)b, v);
        }
    for (int i = 0; i < o->nbudgets; i++)
        cg_device_set_budget(dev, o->budgets[i].budget, o->budgets[i].value);
    cli_progress_attach(dev);
    cli_replay_attach(o, dev);
    return dev;
}

const cli_family *cli_find_family(const char *name)
{
    for (size_t i = 0; name && i < cli_nfamilies; i++)
        if (strcmp(cli_families[i].name, name) == 0)
            return &cli_families[i];
    return NULL;
}

uint8_t *cli_read_file(const char *path, size_t cap, size_t *size)
{
    bool in = strcmp(path, "-") == 0;
    FILE *f = in ? stdin : fopen(path, "rb");
    if (!f) {
        cli_error(EXIT_INPUT, "cannot open '%s': %s", path, strerror(errno));
        return NULL;
    }
    /* A regular file is measured before anything is allocated; a stream
     * (pipe, device) grows its buffer only as data arrives. */
    struct stat st;
    size_t alloc = 1 << 16;
    const char *why = NULL;
    if (fstat(fileno(f), &st) == 0) {
        if (S_ISDIR(st.st_mode))
            why = "is a directory";
        else if (S_ISREG(st.st_mode) && (uint64_t)st.st_size > cap)
            why = "larger than the cap";
        else if (S_ISREG(st.st_mode))
            alloc = (size_t)st.st_size + 1; /* +1: see the end in one read */
    }
    uint8_t *buf = why ? NULL : malloc(alloc);
    size_t n = 0;
    while (buf && !why) {
        size_t got = fread(buf + n, 1, alloc - n, f);
        n += got;
        if (n > cap)
            why = "larger than the cap";
        else if (got == 0)
            break;
        else if (n == alloc) {
            size_t grow = alloc > cap / 2 ? cap + 1 : 2 * alloc;
            uint8_t *nb = realloc(buf, grow);
            if (!nb)
                why = "out of memory";
            else
                buf = nb, alloc = grow;
        }
    }
    if (!buf && !why)
        why = "out of memory";
    if (!why && ferror(f))
        why = strerror(errno);
    if (!in)
        fclose(f);
    if (why) {
        free(buf);
        if (strcmp(why, "larger than the cap") == 0)
            cli_error(EXIT_INPUT, "cannot read '%s': larger than %zu MiB, the cap for this "
                      "input (docs/faults.md)", path, cap >> 20);
        else
            cli_error(EXIT_INPUT, "cannot read '%s': %s", path, why);
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

bool cli_probe_out(const char *path, cli_out_probe *pr)
{
    *pr = (cli_out_probe){0};
    if (!path || strcmp(path, "-") == 0)
        return true;
    int fd = open(path, O_WRONLY | O_CREAT, 0666);
    struct stat st;
    if (fd < 0) {
        cli_error(EXIT_INPUT, "cannot create '%s': %s", path, strerror(errno));
        return false;
    }
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode))
        *pr = (cli_out_probe){true, st.st_dev, st.st_ino, st.st_size, st.st_mtim};
    if (close(fd) != 0) {
        cli_error(EXIT_INPUT, "cannot create '%s': %s", path, strerror(errno));
        return false;
    }
    return true;
}

void cli_drop_unwritten_output(const char *path, const cli_out_probe *pr)
{
    struct stat st;
    if (!path || strcmp(path, "-") == 0 || stat(path, &st) != 0 || !S_ISREG(st.st_mode))
        return;
    bool as_found = pr->regular && st.st_dev == pr->dev && st.st_ino == pr->ino &&
                    st.st_size == pr->size && st.st_mtim.tv_sec == pr->mtime.tv_sec &&
                    st.st_mtim.tv_nsec == pr->mtime.tv_nsec;
    if (st.st_size == 0 || as_found)
        remove(path);
}

int cli_close_out(FILE *f, const char *what)
{
    if (!f)
        return EXIT_OK;
    bool failed = fflush(f) != 0 || ferror(f);
    int err = errno;
    if (f != stdout && fclose(f) != 0 && !failed)
        failed = true, err = errno;
    if (!failed)
        return EXIT_OK;
    return cli_error(EXIT_INPUT, "cannot write %s: %s", f == stdout ? "standard output" : what,
                     strerror(err));
}

int cli_parse_u64(const char *text, uint64_t *out)
{
    const char *p = text;
    int base = 10;
    if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
        base = 16, p += 2;
    else if (p[0] == '0' && p[1])
        return -1; /* 010: octal in C, decimal to a person; refuse both */
    uint64_t v = 0;
    if (!*p)
        return -1;
    for (; *p; p++) {
        int d = *p >= '0' && *p <= '9'   ? *p - '0'
                : *p >= 'a' && *p <= 'f' ? *p - 'a' + 10
                : *p >= 'A' && *p <= 'F' ? *p - 'A' + 10
                                         : 99;
        if (d >= base || v > (UINT64_MAX - (uint64_t)d) / (uint64_t)base)
            return -1;
        v = v * (uint64_t)base + (uint64_t)d;
    }
    *out = v;
    return 0;
}

void cli_json_str(FILE *out, const char *s)
{
    fputc('"', out);
    for (; s && *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\')
            fprintf(out, "\\%c", ch);
        else if (ch == '\n')
            fputs("\\n", out);
        else if (ch < 0x20 || ch == 0x7f)
            fprintf(out, "\\u%04x", ch);
        else
            fputc(ch, out);
    }
    fputc('"', out);
}

FILE *cli_log_begin(const cli_opts *o, cli_log *l)
{
    *l = (cli_log){0};
    if (!o->json)
        return l->f = stdout;
    l->f = open_memstream(&l->buf, &l->len);
    if (!l->f)
        cli_error(EXIT_INPUT, "out of memory");
    return l->f;
}

void cli_json_lines(FILE *out, const char *buf, size_t len)
{
    fputc('[', out);
    for (size_t i = 0; i < len;) {
        const char *nl = memchr(buf + i, '\n', len - i);
        size_t n = nl ? (size_t)(nl - (buf + i)) : len - i;
        char *line = strndup(buf + i, n);
        fputs(i ? "," : "", out);
        cli_json_str(out, line ? line : "");
        free(line);
        i += n + 1;
    }
    fputc(']', out);
}

int cli_log_end(const cli_opts *o, cli_log *l, const char *family, const char *result,
                cg_device *dev, int rc)
{
    if (!o->json || !l->f)
        return rc;
    bool lost = fclose(l->f) != 0;
    l->f = NULL;
    printf("{\"family\":\"%s\",\"scene\":", family);
    cli_json_str(stdout, o->args[0]);
    printf(",\"result\":\"%s\",\"faults\":[", result);
    for (size_t i = 0; dev && i < cg_fault_count(dev); i++) {
        char line[512];
        cg_fault_format_json(cg_fault_get(dev, i), line, sizeof line);
        printf("%s%s", i ? "," : "", line);
    }
    printf("],\"log\":");
    cli_json_lines(stdout, l->buf, l->len);
    if (l->extra_f) {
        lost |= fclose(l->extra_f) != 0;
        l->extra_f = NULL;
        /* The report's object without its braces: its members join ours. */
        char *open = l->extra ? memchr(l->extra, '{', l->extra_len) : NULL;
        char *close = l->extra ? strrchr(l->extra, '}') : NULL;
        if (open && close && close > open + 1)
            printf(",%.*s", (int)(close - open - 1), open + 1);
        free(l->extra);
        l->extra = NULL;
    }
    printf("}\n");
    free(l->buf);
    l->buf = NULL;
    return lost ? cli_error(EXIT_INPUT, "out of memory for the run's log") : rc;
}

int cli_run_scene(const cli_opts *o, const char *family, cg_device *dev,
                  int (*run)(void *ctx, FILE *log), int (*report)(void *ctx, bool json, FILE *out),
                  void *ctx)
{
    cli_log log;
    FILE *lf = cli_log_begin(o, &log);
    if (!lf)
        return EXIT_INPUT;
    int r = run(ctx, lf);
    if (r > 0 && report) {
        /* After a failed run: in text, after the log; with --json, one more
         * member of the result object (report writes {"name":...}). */
        if (!o->json)
            report(ctx, false, lf);
        else if ((log.extra_f = open_memstream(&log.extra, &log.extra_len)) != NULL)
            report(ctx, true, log.extra_f);
    }
    int rc = r == CG_ERR_IO ? cli_error(EXIT_INPUT, "run: an output file could not be written "
                                                    "(see the log)")
             : r < 0 ? cli_error(EXIT_INPUT, "run: cannot set up the %s model: %s", family,
                                 cg_strerror(r))
             : r   ? EXIT_FAULT
                   : EXIT_OK;
    return cli_log_end(o, &log, family, r < 0 ? cg_strerror(r) : r ? "failed" : "ok", dev, rc);
}

/* "raw, nv, ..." from the family table, for messages. */
const char *cli_family_names(void)
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
        *rc = cli_error(EXIT_USAGE, "%s: which family? use -f NAME (%s)", sub, cli_family_names());
        return NULL;
    }
    const cli_family *fam = cli_find_family(o->family);
    if (!fam)
        *rc = cli_error(EXIT_USAGE, "%s: unknown family '%s' (known: %s)", sub, o->family,
                        cli_family_names());
    return fam;
}

static int not_yet(const char *sub, const cli_family *fam)
{
    return cli_error(EXIT_USAGE, "%s is not supported for family '%s' yet", sub, fam->name);
}

int cmd_disasm(const cli_opts *o)
{
    int rc = EXIT_OK;
    cli_opts co;
    if (!o->family && (co = *o, co.family = capture_family_of(o)) != NULL)
        o = &co; /* a cmdgpu capture names its family */
    const cli_family *fam = family_for(o, "disasm", &rc);
    if (!fam)
        return rc;
    if (!fam->disasm)
        return not_yet("disasm", fam);
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
    rc = capture_disasm(o, fam, o->args[0], data, size, pout);
    if (rc < 0)
        rc = fam->disasm(o, data, size, pout);
    cli_progress_unwrap(pout, out);
    cli_progress_stop();
    int wrc = cli_close_out(out, o->output);
    rc = wrc != EXIT_OK ? wrc : rc;
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
    cli_opts co;
    if (!o->family && (co = *o, co.family = capture_family_of(o)) != NULL)
        o = &co; /* a cmdgpu capture names its family */
    const cli_family *fam = family_for(o, "run", &rc);
    if (!fam)
        return rc;
    if (!fam->run)
        return not_yet("run", fam);
    cli_progress_start("run");
    if ((rc = capture_run(o, fam)) < 0)
        rc = fam->run(o);
    cli_progress_stop();
    return rc;
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
        if (rc == CG_ERR_RANGE)
            return cli_error(EXIT_INPUT, "cannot read '%s': larger than %zu MiB, the cap for a "
                             "source (docs/faults.md)", path, CLI_MAX_SOURCE >> 20);
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
            printf("%s{\"name\":", i ? "," : "");
            cli_json_str(stdout, name);
            printf(",\"base\":\"0x%llx\",\"size\":%zu}", (unsigned long long)base, size);
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
            rc = EXIT_INPUT; /* reported by cli_close_out */
    }
    if (cli_close_out(out, o->output) != EXIT_OK)
        rc = EXIT_INPUT;
    cg_asm_destroy(as);
    return rc ? EXIT_INPUT : EXIT_OK;
}

int raw_assemble(const cli_opts *o, const char *path)
{
    return cli_assemble(o, path, NULL, NULL);
}

void cli_json_join(FILE *out, const char *buf, size_t len)
{
    const char *open = buf ? memchr(buf, '{', len) : NULL;
    const char *close = open ? open + len - (size_t)(open - buf) : NULL;
    while (close && close > open && *--close != '}')
        ;
    if (open && close && close > open + 1)
        fprintf(out, ",%.*s", (int)(close - open - 1), open + 1);
}
