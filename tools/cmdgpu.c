/* cmdgpu: the command-line tool. Git-style subcommands; see `cmdgpu help`. */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cli.h"
#include "cmdgpu/core.h"

static const cli_colors colors_on = {
    .reset = "\033[0m", .name = "\033[32m", .num = "\033[36m",
    .addr = "\033[33m", .err = "\033[1;31m", .comment = "\033[2m",
};
static const cli_colors colors_off = {
    .reset = "", .name = "", .num = "", .addr = "", .err = "", .comment = "",
};

static int cmd_version(const cli_opts *o);
static int cmd_help(const cli_opts *o);
static void print_usage(FILE *f, const cli_command *cmd);

/* Each usage text is the synopsis and description; the options follow,
 * generated from tools/options.def (print_usage). */
static const cli_command commands[] = {
    {"run", "execute a scene or stream on the GPU model",
     "usage: cmdgpu run -f FAMILY [--json] [options] SCENE|-\n"
     "Executes a scene (memory, streams, submissions, waits, dumps) and prints\n"
     "faults; exit 1 if the stream faulted. With --json the output is JSON Lines:\n"
     "one object per trace event (--trace) and fault (nv), then the result.\n"
     "Numbers in options are decimal or 0x hex; a leading 0 before a digit is\n"
     "refused (not octal).\n",
     cmd_run, false},
    {"disasm", "decode a command stream to readable text",
     "usage: cmdgpu disasm -f FAMILY [--json] [--color=WHEN] [-o OUT] FILE|-\n"
     "Prints each word with its offset and meaning; the text is valid input to\n"
     "`cmdgpu asm` for the same family (asm(disasm(x)) == x). Inputs over\n"
     "4 MiB are refused (exit 3).\n"
     "Shader code: -f nv-sass, vc4-qpu, radeon-isa. radeon-isa lists an R600/R700\n"
     "shader the way the GPU walks it, from its first CF instruction: CF\n"
     "instructions, then the ALU, TEX and VTX clauses they point to, in Mesa's\n"
     "R600_DEBUG dump style; --gen r600 (default) or r700 picks the encoding\n"
     "(docs/radeon-isa.md). Undefined words list as .word lines, faults as comments.\n",
     cmd_disasm, false},
    {"asm", "assemble text into a command stream",
     "usage: cmdgpu asm -f FAMILY [-o OUT] [--section NAME] [--json] FILE|-\n"
     "Assembles FILE; writes the bytes of one section (the first, or NAME) to\n"
     "OUT (default stdout). --json prints the sections (name, base, size) instead.\n"
     "Errors are printed as file:line:column: message; exit 3. Sources over\n"
     "256 MiB are refused (exit 3).\n",
     cmd_asm, false},
    {"check", "validate a stream as a kernel would before running it",
     "usage: cmdgpu check -f FAMILY [--json] [--gen GEN] [--section NAME] FILE|-\n"
     "Reports every rule the stream breaks, as a kernel's command-stream checker\n"
     "would; exit 1 if any. FILE is the family's assembler source: radeon an IB with\n"
     ".bo declarations (docs/radeon-check.md), vc4 a submit (docs/vc4-check.md), nv\n"
     "a scene (docs/nv-check.md). The vc4 and radeon example scenes are bare-metal\n"
     "and driver-level programs, not kernel submissions: they fail on purpose (README).\n",
     cmd_check, false},
    {"bench", "measure the model's speed on this machine",
     "usage: cmdgpu bench [--json] [mem]\n"
     "mem: GPU-side read and copy throughput through an address space, as a\n"
     "ratio to memcpy in the same run. The bench/ programs give fuller figures.\n",
     cmd_bench, false},
    {"demo", "run the built-in demonstration and write its output",
     "usage: cmdgpu demo [--out DIR] [--json]\n"
     "Runs every built-in demo scene and writes images and dumps under DIR\n"
     "(default: out), then prints a summary (--json: one object).\n",
     cmd_demo, false},
    {"report", "run a scene or capture and write one self-contained HTML page about it",
     "usage: cmdgpu report [-f FAMILY] [--json] [--budget N=V] -o REPORT.html SCENE|CAPTURE\n"
     "Runs the scene, or replays the capture (a cmdgpu capture, a radeon ring\n"
     "dump or a vc4 hang state; -f is then optional), with a trace recorder\n"
     "and writes one HTML page with no network references: the result, the\n"
     "faults and the hang point (linked to the packet), the decoded stream per\n"
     "submission, a timeline of submissions, fences and faults, and every image\n"
     "the run wrote. --json prints a summary.\n"
     "At most 20000 packets are shown (docs/report.md). Exit 1 if the run failed.\n",
     cmd_report, false},
    {"exec", "run a program whose GPU driver then drives the model (Mesa's nouveau)",
     "usage: cmdgpu exec [--gpu NAME] [--log FILE] [--ioctls FILE] [--draws FILE]\n"
     "                   [--capture FILE] [--threaded] [--exit-on-fault] [--reference]\n"
     "                   [--] PROGRAM [ARGS]\n"
     "Runs PROGRAM with libcmdgpu-drm preloaded: it sees a render node\n"
     "(/dev/dri/renderD128) and the sysfs entries of the GPU, and its driver's\n"
     "ioctls run on the model (docs/drm.md). Options stop at PROGRAM. The exit\n"
     "status is PROGRAM's; 127 if it is not found, 126 if it cannot be run,\n"
     "86 if --exit-on-fault ended it at a GPU fault.\n"
     "GPU faults do not end the program: they go to the log with the hang\n"
     "report, and the channel's later submissions fail as the kernel's would.\n"
     "--capture records the session (every buffer, push and CPU write to GPU\n"
     "memory): `cmdgpu run FILE` replays it and checks every buffer's final\n"
     "bytes, `cmdgpu disasm FILE` lists it, `cmdgpu report` shows it.\n"
     "The GPU runs each push before the ioctl returns; --threaded runs it on a\n"
     "thread of its own, so the program goes on while it runs and its waits\n"
     "(GEM_CPU_PREP, buffer frees) follow the GPU's progress.\n",
     cmd_exec, true},
    {"version", "print the version",
     "usage: cmdgpu version [--json]\n", cmd_version, false},
    {"help", "list subcommands, families and exit codes",
     "usage: cmdgpu help [SUBCOMMAND|faults|budgets]\n"
     "`cmdgpu help faults` lists every fault kind a stream can raise.\n", cmd_help, false},
};
#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

int cli_error(int code, const char *fmt, ...)
{
    va_list ap;
    fputs("cmdgpu: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return code;
}

static int cmd_version(const cli_opts *o)
{
    if (o->json)
        printf("{\"name\":\"cmdgpu\",\"version\":\"%s\"}\n", cg_version());
    else
        printf("cmdgpu %s\n", cg_version());
    return EXIT_OK;
}

static void print_overview(FILE *f)
{
    fprintf(f, "usage: cmdgpu SUBCOMMAND [options] [args]\n\n"
               "cmdgpu runs GPU command streams on a model of the GPU: NVIDIA Maxwell\n"
               "(nv), Broadcom VideoCore IV (vc4) and ATI/AMD R600 (radeon).\n\n"
               "subcommands:\n");
    for (size_t i = 0; i < NCOMMANDS; i++)
        fprintf(f, "  %-8s %s\n", commands[i].name, commands[i].summary);
    fprintf(f, "\nfamilies (-f):\n");
    for (size_t i = 0; i < cg_text_format_count(); i++) {
        const cg_text_format *fmt = cg_text_format_at(i);
        bool run = fmt->scenes || fmt->run_program;
        bool check = fmt->scenes && fmt->family && fmt->family->check;
        fprintf(f, "  %-8s %s [%s%s%s%s ]\n", fmt->name, fmt->description,
                fmt->disasm ? " disasm" : "", fmt->assembler ? " asm" : "", run ? " run" : "",
                check ? " check" : "");
    }
    fprintf(f, "\nexit codes:\n");
#define CLI_EXIT_HELP(name, code, text) fprintf(f, "  %d  %s\n", code, text);
    CLI_EXIT_CODES(CLI_EXIT_HELP)
#undef CLI_EXIT_HELP
    fprintf(f,
               "\n`cmdgpu SUBCOMMAND --help` describes each one; `cmdgpu help budgets` lists the\n"
               "watchdog budgets; `cmdgpu help faults` lists\n"
               "the fault kinds; `-` means stdin/stdout.\n");
}

static int cmd_help(const cli_opts *o)
{
    if (o->nargs > 0 && strcmp(o->args[0], "faults") == 0) {
        /* Straight from the library's fault table. */
        printf("fault kinds (the `kind` of every fault record):\n");
        for (int k = 1; k < CG_FAULT_KIND_COUNT; k++)
            printf("  %-20s %s\n", cg_fault_kind_name((cg_fault_kind)k),
                   cg_fault_kind_desc((cg_fault_kind)k));
        return EXIT_OK;
    }
    if (o->nargs > 0 && strcmp(o->args[0], "budgets") == 0) {
        /* Straight from the library's budget table (docs/faults.md). */
        printf("budgets (a unit that runs one out stops with a hang fault naming it):\n");
        for (int b = 0; b < CG_BUDGET_COUNT; b++)
            printf("  %-20s %12llu  %s\n", cg_budget_name((cg_budget)b),
                   (unsigned long long)cg_budget_default((cg_budget)b),
                   cg_budget_description((cg_budget)b));
        return EXIT_OK;
    }
    if (o->nargs > 0) {
        for (size_t i = 0; i < NCOMMANDS; i++)
            if (strcmp(o->args[0], commands[i].name) == 0) {
                print_usage(stdout, &commands[i]);
                return EXIT_OK;
            }
        return cli_error(EXIT_USAGE, "no subcommand '%s' (try `cmdgpu help`)", o->args[0]);
    }
    print_overview(stdout);
    return EXIT_OK;
}

/* ---- options: tools/options.def ---------------------------------------- */

enum { KIND_FLAG, KIND_VALUE, KIND_WHEN };
static const struct cli_option {
    int id;
    const char *shortname, *longname;
    int kind;
    const char *arg, *applies, *help;
} cli_options[] = {
#define CLI_OPT(id, s, l, kind, arg, applies, help)                                    \
    {CLI_OPT_##id, s, l, KIND_##kind, arg, applies, help},
#include "options.def"
#undef CLI_OPT
};

/* Does the format have WHAT (the APPLIES column of options.def)? From
 * its descriptor: the command names no family. */
static bool format_has(const cg_text_format *f, const char *what, size_t n)
{
    const cg_family_desc *fam = f->family;
    unsigned takes = f->scenes && fam && fam->scene ? fam->scene->takes : 0;
#define IS(w) (n == sizeof(w) - 1 && strncmp(what, w, n) == 0)
    if (IS("scenes"))
        return f->scenes;
    if (IS("frame"))
        return takes & CG_SCENE_OPT_FRAME;
    if (IS("out-dir"))
        return takes & CG_SCENE_OPT_OUT_DIR;
    if (IS("dumps"))
        return (takes & CG_SCENE_OPT_DUMPS) || f->run_program;
    if (IS("draws"))
        return takes & CG_SCENE_OPT_DRAWS;
    if (IS("captures"))
        return f->scenes && fam && fam->ncaptures;
    if (IS("program"))
        return f->run_program != NULL;
    if (IS("gen"))
        return f->takes & CG_TEXT_TAKES_GEN;
    if (IS("subch"))
        return f->takes & CG_TEXT_TAKES_SUBCH;
    if (IS("section"))
        return f->takes & CG_TEXT_TAKES_SECTION;
#undef IS
    return false;
}

/* Whether the option applies to `sub` at all; *what, *wlen: the WHAT it
 * needs (wlen 0: every format). */
static bool opt_sub(const struct cli_option *opt, const char *sub, const char **what, size_t *wlen)
{
    size_t sl = strlen(sub);
    for (const char *p = opt->applies; *p;) {
        size_t n = strcspn(p, " ");
        if (n >= sl && strncmp(p, sub, sl) == 0 && (n == sl || p[sl] == ':')) {
            *what = p + sl + (n != sl);
            *wlen = n == sl ? 0 : n - sl - 1;
            return true;
        }
        p += n;
        p += *p == ' ';
    }
    return false;
}

/* Does the option apply to `sub` with format `fmt` (NULL: any)? */
static bool opt_applies(const struct cli_option *opt, const char *sub, const cg_text_format *fmt)
{
    const char *what;
    size_t n;
    if (!opt_sub(opt, sub, &what, &n))
        return false;
    return !fmt || !n || format_has(fmt, what, n);
}

/* The formats that take the option for `sub` ("" when every one does),
 * in buf. */
static const char *opt_formats(const struct cli_option *opt, const char *sub, char *buf,
                               size_t cap)
{
    const char *what;
    size_t n, len = 0;
    buf[0] = 0;
    if (!opt_sub(opt, sub, &what, &n) || !n)
        return buf;
    for (size_t i = 0; i < cg_text_format_count() && len < cap; i++) {
        const cg_text_format *f = cg_text_format_at(i);
        if (!format_has(f, what, n))
            continue;
        int w = snprintf(buf + len, cap - len, "%s%s", len ? " " : "", f->name);
        if (w < 0)
            break;
        len += (size_t)w;
    }
    return buf;
}

/* The capture formats' names, for --input-format's help. */
static const char *capture_names(void)
{
    static char buf[256];
    size_t len = 0;
    for (size_t i = 0; i < cg_capture_count() && len < sizeof buf; i++) {
        int w = snprintf(buf + len, sizeof buf - len, "%s%s", i ? ", " : "",
                         cg_capture_at(i)->name);
        if (w < 0)
            break;
        len += (size_t)w;
    }
    return buf;
}

/* `cmdgpu SUBCOMMAND --help`: the synopsis, then every option of the table
 * that applies, with the families that take it. */
static void print_usage(FILE *f, const cli_command *cmd)
{
    fputs(cmd->usage, f);
    for (size_t i = 0; i < sizeof cli_options / sizeof cli_options[0]; i++) {
        const struct cli_option *opt = &cli_options[i];
        char fams[256], left[24];
        const char *what;
        size_t wlen;
        if (!opt_sub(opt, cmd->name, &what, &wlen))
            continue;
        const char *list = opt_formats(opt, cmd->name, fams, sizeof fams);
        snprintf(left, sizeof left, "%s%s%s%s%s", opt->shortname ? opt->shortname : "",
                 opt->shortname ? ", " : "    ", opt->longname,
                 opt->arg && opt->kind == KIND_VALUE ? " " : "", opt->arg ? opt->arg : "");
        const char *names = opt->id == CLI_OPT_FAMILY         ? cli_format_names()
                            : opt->id == CLI_OPT_INPUT_FORMAT ? capture_names()
                                                              : NULL;
        fprintf(f, "  %-24s%s%s%s%s%s%s\n", left, opt->help, names ? " " : "", names ? names : "",
                list[0] ? " [" : "", list, list[0] ? " only]" : "");
    }
    fprintf(f, "  %-24sthis text\n", "-h, --help");
}

/* Parse the options after the subcommand name (one case per row of
 * options.def: a table-like switch, clearest as one function). Returns -1 to continue, or an
 * exit code. */
static int parse_opts(const cli_command *cmd, int argc, char **argv, cli_opts *o)
{
    enum { AUTO, ALWAYS, NEVER } color = AUTO;
    bool only_args = false;
    const struct cli_option *given[64];
    size_t ngiven = 0;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (only_args || a[0] != '-' || strcmp(a, "-") == 0) {
            o->args[o->nargs++] = argv[i];
            only_args |= cmd->program;
            continue;
        }
        if (strcmp(a, "--") == 0) {
            only_args = true;
            continue;
        }
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            print_usage(stdout, cmd);
            return EXIT_OK;
        }
        /* find the option: -s VAL, --long VAL, --long=VAL, --flag */
        const struct cli_option *opt = NULL;
        const char *val = NULL;
        for (size_t k = 0; !opt && k < sizeof cli_options / sizeof cli_options[0]; k++) {
            const struct cli_option *c = &cli_options[k];
            size_t ll = strlen(c->longname);
            if (strcmp(a, c->longname) == 0 || (c->shortname && strcmp(a, c->shortname) == 0))
                opt = c;
            else if (c->kind != KIND_FLAG && strncmp(a, c->longname, ll) == 0 && a[ll] == '=')
                opt = c, val = a + ll + 1;
        }
        if (!opt)
            return cli_error(EXIT_USAGE, "%s: unknown option '%s' (see `cmdgpu %s --help`)",
                             cmd->name, a, cmd->name);
        if (!opt_applies(opt, cmd->name, NULL))
            return cli_error(EXIT_USAGE, "%s: option %s does not apply to this subcommand "
                             "(see `cmdgpu %s --help`)", cmd->name, opt->longname, cmd->name);
        if (opt->kind == KIND_VALUE && !val) {
            if (i + 1 >= argc)
                return cli_error(EXIT_USAGE, "%s: %s needs a value", cmd->name, a);
            val = argv[++i];
        }
        if (ngiven < sizeof given / sizeof given[0])
            given[ngiven++] = opt;
        switch (opt->id) {
        case CLI_OPT_FAMILY: o->family = val; break;
        case CLI_OPT_JSON: o->json = true; break;
        case CLI_OPT_COLOR:
            if (!val || strcmp(val, "always") == 0)
                color = ALWAYS;
            else if (strcmp(val, "auto") == 0)
                color = AUTO;
            else if (strcmp(val, "never") == 0)
                color = NEVER;
            else
                return cli_error(EXIT_USAGE, "--color takes auto, always or never, not '%s'", val);
            break;
        case CLI_OPT_OUTPUT: o->output = val; break;
        case CLI_OPT_SECTION: o->section = val; break;
        case CLI_OPT_OUT: o->out_dir = val; break;
        case CLI_OPT_TRACE: o->trace = true; break;
        case CLI_OPT_DUMP:
            if (o->ndumps == 8)
                return cli_error(EXIT_USAGE, "--dump: at most 8");
            o->dumps[o->ndumps++] = val;
            break;
        case CLI_OPT_BUDGET: {
            if (o->nbudgets == 8)
                return cli_error(EXIT_USAGE, "--budget: at most 8");
            int rc = cli_parse_budget(val, &o->budgets[o->nbudgets]);
            if (rc != EXIT_OK)
                return rc;
            o->nbudgets++;
            break;
        }
        case CLI_OPT_DRAWS: o->draws = val; break;
        case CLI_OPT_DUMP_TEXTURES: o->dump_textures = val; break;
        case CLI_OPT_SUBCH: o->subch = val; break;
        case CLI_OPT_GEN: o->gen = val; break;
        case CLI_OPT_INPUT_FORMAT: o->input_format = val; break;
        case CLI_OPT_QPUS: o->qpus = val; break;
        case CLI_OPT_UNIFORMS: o->uniforms = val; break;
        case CLI_OPT_CAPTURE: o->capture = val; break;
        case CLI_OPT_GPU: o->gpu = val; break;
        case CLI_OPT_LOG: o->log = val; break;
        case CLI_OPT_IOCTLS: o->ioctls = val; break;
        case CLI_OPT_REFERENCE: o->reference = true; break;
        case CLI_OPT_EXIT_ON_FAULT: o->exit_on_fault = true; break;
        case CLI_OPT_THREADED: o->threaded = true; break;
        }
    }
    /* An option the chosen format does not take is refused, not ignored. */
    const cg_text_format *fmt = cg_text_format_find(o->family);
    for (size_t k = 0; fmt && k < ngiven; k++)
        if (!opt_applies(given[k], cmd->name, fmt)) {
            char fams[256];
            return cli_error(EXIT_USAGE, "%s -f %s: %s is not supported for %s yet (it is for: "
                             "%s)", cmd->name, fmt->name, given[k]->longname, fmt->name,
                             opt_formats(given[k], cmd->name, fams, sizeof fams));
        }
    bool tty = isatty(fileno(stdout)) && !(o->output && strcmp(o->output, "-") != 0);
    o->color = (color == ALWAYS || (color == AUTO && tty)) ? &colors_on : &colors_off;
    return -1;
}

/* An output that is also an input is refused before anything is opened
 * for writing (`run S --capture S` would truncate the scene before reading
 * it): the same device and inode, so only files that exist can alias.
 * EXIT_USAGE with one line, or -1 to go on. */
static int check_aliases(const cli_command *cmd, const cli_opts *o)
{
    const char *outs[16], *what[16];
    size_t n = 0;
    outs[n] = o->output, what[n++] = "-o";
    outs[n] = o->capture, what[n++] = "--capture";
    outs[n] = o->draws, what[n++] = "--draws";
    outs[n] = o->log, what[n++] = "--log";
    outs[n] = o->ioctls, what[n++] = "--ioctls";
    for (int i = 0; i < o->ndumps; i++) { /* VA:SIZE:FILE */
        const char *c = strchr(o->dumps[i], ':');
        c = c ? strchr(c + 1, ':') : NULL;
        if (c)
            outs[n] = c + 1, what[n++] = "--dump";
    }
    for (size_t k = 0; k < n; k++) {
        struct stat so, si;
        if (!outs[k] || strcmp(outs[k], "-") == 0 || stat(outs[k], &so) != 0 ||
            !S_ISREG(so.st_mode))
            continue;
        for (int i = 0; !cmd->program && i < o->nargs; i++)
            if (strcmp(o->args[i], "-") != 0 && stat(o->args[i], &si) == 0 &&
                si.st_dev == so.st_dev && si.st_ino == so.st_ino)
                return cli_error(EXIT_USAGE, "%s: %s '%s' is the input '%s': refused (writing "
                                 "it would destroy what is to be read)", cmd->name, what[k],
                                 outs[k], o->args[i]);
    }
    return -1;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        print_overview(stderr);
        return EXIT_USAGE;
    }
    const char *name = argv[1];
    if (strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0)
        name = "help";
    else if (strcmp(name, "--version") == 0)
        name = "version";
    for (size_t i = 0; i < NCOMMANDS; i++) {
        if (strcmp(name, commands[i].name) != 0)
            continue;
        cli_opts o = {0};
        o.args = calloc((size_t)argc, sizeof(char *));
        if (!o.args)
            return cli_error(EXIT_INPUT, "out of memory");
        int rc = parse_opts(&commands[i], argc - 2, argv + 2, &o);
        if (rc < 0)
            rc = check_aliases(&commands[i], &o);
        if (rc < 0)
            rc = commands[i].run(&o);
        free(o.args);
        /* Output that could not be written is an error, stdout included
         * (a subcommand that already said so returned EXIT_INPUT). */
        bool failed = fflush(stdout) != 0 || ferror(stdout);
        int err = errno;
        if (fclose(stdout) != 0 && !failed)
            failed = true, err = errno;
        if (failed && rc != EXIT_INPUT)
            rc = cli_error(EXIT_INPUT, "%s: cannot write standard output: %s", name,
                           strerror(err));
        return rc;
    }
    return cli_error(EXIT_USAGE, "unknown subcommand '%s' (try `cmdgpu help`)", name);
}
