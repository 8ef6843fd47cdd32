/* cmdgpu command: the helpers every subcommand shares: options to the
 * library's shapes, devices, files in and out, the JSON result of a run. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cli.h"
#include "cmdgpu/core.h"

/* ---- formats ------------------------------------------------------------- */

const char *cli_format_names(void)
{
    static char buf[256];
    size_t len = 0;
    buf[0] = 0;
    for (size_t i = 0; i < cg_text_format_count() && len < sizeof(buf); i++) {
        int w = snprintf(buf + len, sizeof(buf) - len, "%s%s", i ? ", " : "",
                         cg_text_format_at(i)->name);
        if (w < 0)
            break;
        len += (size_t)w;
    }
    return buf;
}

cg_text_opts cli_text_opts(const cli_opts *o)
{
    const cli_colors *c = o->color;
    return (cg_text_opts){.gen = o->gen, .subch = o->subch, .section = o->section,
                          .family = o->family, .json = o->json,
                          .name = o->nargs ? o->args[0] : NULL, .c_reset = c ? c->reset : "",
                          .c_name = c ? c->name : "", .c_num = c ? c->num : "",
                          .c_addr = c ? c->addr : "", .c_err = c ? c->err : "",
                          .c_comment = c ? c->comment : ""};
}

const cg_text_format *cli_format_for(const cli_opts *o, const char *sub, int *rc)
{
    if (!o->family) {
        *rc = cli_error(EXIT_USAGE, "%s: which family? use -f NAME (%s)", sub, cli_format_names());
        return NULL;
    }
    const cg_text_format *f = cg_text_format_find(o->family);
    if (!f)
        *rc = cli_error(EXIT_USAGE, "%s: unknown family '%s' (known: %s)", sub, o->family,
                        cli_format_names());
    return f;
}

int cli_family_opts(const cli_opts *o, const cg_family_desc *fam)
{
    char msg[256];
    cg_text_opts t = cli_text_opts(o);
    if (fam && fam->check_opts && fam->check_opts(&t, msg, sizeof msg) != 0)
        return cli_error(EXIT_USAGE, "%s", msg);
    return EXIT_OK;
}

int cli_trace(const cli_opts *o, cg_device *dev)
{
    if (o->trace &&
        cg_trace_add(dev, o->json ? cg_trace_write_json : cg_trace_write_text, stdout) < 0)
        return cli_error(EXIT_INPUT, "run: cannot attach the trace");
    return EXIT_OK;
}

int cli_out_dir(const char *opt, const char *dir)
{
    struct stat st;
    if (mkdir(dir, 0777) != 0 && errno != EEXIST)
        return cli_error(EXIT_INPUT, "%s: cannot create '%s': %s", opt, dir, strerror(errno));
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
        return cli_error(EXIT_INPUT, "%s: '%s' is not a directory", opt, dir);
    return EXIT_OK;
}

/* ---- devices, files -------------------------------------------------------- */

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
    if (cg_parse_u64(eq + 1, &v) != 0 || v == 0)
        return cli_error(EXIT_USAGE, "--budget %s: '%s' is not a count above 0 (decimal or 0x "
                         "hex; no leading 0)", name, eq + 1);
    out->value = v;
    return EXIT_OK;
}

void cli_capture_budgets(const cg_capfile *cap, const cli_opts *o, cg_device *dev)
{
    for (int b = 0; cap && b < CG_BUDGET_COUNT; b++) {
        uint64_t v, def = cg_budget_default((cg_budget)b);
        bool given = false;
        for (int i = 0; i < o->nbudgets; i++)
            given |= o->budgets[i].budget == (cg_budget)b;
        if (given || cg_capfile_config(cap, CG_CAPCFG_BUDGET + (uint32_t)b, &v) != 0 || !v)
            continue;
        if (v <= def)
            cg_device_set_budget(dev, (cg_budget)b, v);
        else /* docs/capture-format.md, "Captures are data" */
            fprintf(stderr, "cmdgpu: replay: the capture's budget %s=%llu is above the default "
                    "(%llu), which applies: give --budget %s=%llu to use it\n",
                    cg_budget_name((cg_budget)b), (unsigned long long)v,
                    (unsigned long long)def, cg_budget_name((cg_budget)b),
                    (unsigned long long)v);
    }
    for (int i = 0; i < o->nbudgets; i++)
        cg_device_set_budget(dev, o->budgets[i].budget, o->budgets[i].value);
}

cg_device *cli_device_create(const cli_opts *o)
{
    cg_device *dev = NULL;
    if (cg_device_create(&dev) != 0) {
        cli_error(EXIT_INPUT, "out of memory");
        return NULL;
    }
    cli_capture_budgets(o->replay, o, dev);
    cli_progress_attach(dev);
    cli_replay_attach(o, dev);
    return dev;
}

const char *cli_file_why(const char *path, int rc)
{
    static char buf[128];
    return cg_file_why(path, rc, buf, sizeof buf);
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
            why = strerror(EISDIR); /* as the system says it, like ENOENT's */
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

void cli_json_join(FILE *out, const char *buf, size_t len)
{
    const char *open = buf ? memchr(buf, '{', len) : NULL;
    const char *close = open ? open + len - (size_t)(open - buf) : NULL;
    while (close && close > open && *--close != '}')
        ;
    if (open && close && close > open + 1)
        fprintf(out, ",%.*s", (int)(close - open - 1), open + 1);
}
