/* cmdgpu: the command-line tool. Git-style subcommands; see `cmdgpu help`. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli.h"
#include "cmdgpu/cmdgpu.h"

static const cli_colors colors_on = {
    .reset = "\033[0m", .name = "\033[32m", .num = "\033[36m",
    .addr = "\033[33m", .err = "\033[1;31m", .comment = "\033[2m",
};
static const cli_colors colors_off = {
    .reset = "", .name = "", .num = "", .addr = "", .err = "", .comment = "",
};

static int cmd_version(const cli_opts *o);
static int cmd_help(const cli_opts *o);

#define COMMON_OPTS                                                            \
    "  -f, --family NAME   family: raw, nv, vc4, radeon (see `cmdgpu help`)\n" \
    "      --json          structured output as JSON\n"                       \
    "      --color=WHEN    auto (default: when stdout is a terminal), always, never\n" \
    "  -h, --help          this text\n"

#define INPUT_FORMAT_OPT                                                       \
    "      --input-format FMT  auto (default), native, radeon-ring-dump,\n"     \
    "                      vc4-hang-state, vc4-cl-dump, nv-push-raw (docs/captures.md)\n"

static const cli_command commands[] = {
    {"run", "execute a scene or stream on the GPU model",
     "usage: cmdgpu run -f FAMILY [--json] SCENE|-\n"
     "Executes a scene (memory, streams, submissions, waits, dumps) and prints\n"
     "faults; exit 1 if the stream faulted.\n" COMMON_OPTS
     "      --trace         print every method as it executes (JSON Lines with --json)\n"
     "      --dump VA:SIZE:FILE  nv: write GPU memory to FILE after the scene (up to 8)\n"
     "      --draws FILE    nv: write every draw record as {\"draws\":[...]} (- = stdout)\n"
     "      --dump-textures DIR  nv: write each texture a draw reaches as DIR/tic_N.png\n"
     "      --budget NAME=N set a budget (watchdog) for this run, e.g. nv.macro-insns=1000;\n"
     "                      `cmdgpu help budgets` lists them (up to 8 options)\n"
     INPUT_FORMAT_OPT,
     cmd_run},
    {"disasm", "decode a command stream to readable text",
     "usage: cmdgpu disasm -f FAMILY [--json] [--color=WHEN] [-o OUT] FILE|-\n"
     "Prints each word with its offset and meaning; the text is valid input to\n"
     "`cmdgpu asm` for the same family (asm(disasm(x)) == x).\n" COMMON_OPTS
     "  -o, --output FILE   write the text to FILE (- = stdout)\n"
     "      --gen GEN       radeon: r600 (default), r700, evergreen, r500\n"
     "      --subch LIST    nv: classes of subchannels, e.g. 0=B197,4=B0B5\n"
     INPUT_FORMAT_OPT,
     cmd_disasm},
    {"asm", "assemble text into a command stream",
     "usage: cmdgpu asm -f FAMILY [-o OUT] [--section NAME] [--json] FILE|-\n"
     "Assembles FILE; writes the bytes of one section (the first, or NAME) to\n"
     "OUT (default stdout). --json prints the sections (name, base, size) instead.\n"
     "Errors are printed as file:line:column: message; exit 3.\n" COMMON_OPTS
     "  -o, --output FILE   binary output (- = stdout)\n"
     "      --section NAME  which section to write\n",
     cmd_asm},
    {"check", "validate a stream as a kernel would before running it",
     "usage: cmdgpu check -f FAMILY [--json] [--gen GEN] [--section NAME] FILE|-\n"
     "Reports every rule the stream breaks, as a kernel's command-stream checker\n"
     "would; exit 1 if any. FILE is the family's assembler source: radeon an IB with\n"
     ".bo declarations (docs/radeon-check.md), vc4 a submit (docs/vc4-check.md), nv\n"
     "a scene (docs/nv-check.md).\n" COMMON_OPTS
     "      --gen GEN       radeon: r600 (default) or r700\n"
     "      --section NAME  radeon: the section holding the IB (default: the first)\n",
     cmd_check},
    {"bench", "measure the model's speed on this machine",
     "usage: cmdgpu bench [--json] [mem]\n"
     "mem: GPU-side read and copy throughput through an address space, as a\n"
     "ratio to memcpy in the same run. The bench/ programs give fuller figures.\n"
     "  --json          figures as JSON\n  -h, --help      this text\n",
     cmd_bench},
    {"demo", "run the built-in demonstration and write its output",
     "usage: cmdgpu demo [--out DIR] [--json]\n"
     "Runs every built-in demo scene and writes images and dumps under DIR\n"
     "(default: out), then prints a summary.\n"
     "      --out DIR   output directory\n  -h, --help      this text\n",
     cmd_demo},
    {"version", "print the version",
     "usage: cmdgpu version [--json]\n", cmd_version},
    {"help", "list subcommands, families and exit codes",
     "usage: cmdgpu help [SUBCOMMAND|faults]\n"
     "`cmdgpu help faults` lists every fault kind a stream can raise.\n", cmd_help},
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
    for (size_t i = 0; i < cli_nfamilies; i++) {
        const cli_family *fam = &cli_families[i];
        fprintf(f, "  %-8s %s [%s%s%s%s ]\n", fam->name, fam->description,
                fam->disasm ? " disasm" : "", fam->assemble ? " asm" : "",
                fam->run ? " run" : "", fam->check ? " check" : "");
    }
    fprintf(f, "\nexit codes:\n"
               "  0  success\n"
               "  1  the stream faulted, or failed a check\n"
               "  2  usage error, or a subcommand the family does not support yet\n"
               "  3  input error: unreadable file, syntax error, malformed input\n"
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
                fputs(commands[i].usage, stdout);
                return EXIT_OK;
            }
        return cli_error(EXIT_USAGE, "no subcommand '%s' (try `cmdgpu help`)", o->args[0]);
    }
    print_overview(stdout);
    return EXIT_OK;
}

/* Parse the options after the subcommand name. Returns -1 to continue, or an
 * exit code. */
static int parse_opts(const cli_command *cmd, int argc, char **argv, cli_opts *o)
{
    enum { AUTO, ALWAYS, NEVER } color = AUTO;
    bool only_args = false;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        const char *val = NULL;
#define TAKES_VALUE(shortname, longname)                                       \
    ((strcmp(a, shortname) == 0 || strcmp(a, longname) == 0)                   \
         ? (i + 1 < argc ? (val = argv[++i], 1) : -1)                          \
         : (strncmp(a, longname "=", sizeof(longname)) == 0                    \
                ? (val = a + sizeof(longname), 1)                              \
                : 0))
        int t;
        if (only_args || a[0] != '-' || strcmp(a, "-") == 0) {
            o->args[o->nargs++] = argv[i];
            continue;
        }
        if (strcmp(a, "--") == 0) {
            only_args = true;
        } else if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            fputs(cmd->usage, stdout);
            return EXIT_OK;
        } else if (strcmp(a, "--json") == 0) {
            o->json = true;
        } else if (strcmp(a, "--color") == 0) {
            color = ALWAYS;
        } else if (strncmp(a, "--color=", 8) == 0) {
            const char *w = a + 8;
            if (strcmp(w, "auto") == 0)
                color = AUTO;
            else if (strcmp(w, "always") == 0)
                color = ALWAYS;
            else if (strcmp(w, "never") == 0)
                color = NEVER;
            else
                return cli_error(EXIT_USAGE, "--color takes auto, always or never, not '%s'", w);
        } else if ((t = TAKES_VALUE("-f", "--family")) != 0) {
            if (t < 0)
                return cli_error(EXIT_USAGE, "%s needs a value", a);
            o->family = val;
        } else if ((t = TAKES_VALUE("-o", "--output")) != 0) {
            if (t < 0)
                return cli_error(EXIT_USAGE, "%s needs a value", a);
            o->output = val;
        } else if ((t = TAKES_VALUE("--section", "--section")) != 0) {
            if (t < 0)
                return cli_error(EXIT_USAGE, "%s needs a value", a);
            o->section = val;
        } else if ((t = TAKES_VALUE("--out", "--out")) != 0) {
            if (t < 0)
                return cli_error(EXIT_USAGE, "%s needs a value", a);
            o->out_dir = val;
        } else if (strcmp(a, "--trace") == 0) {
            o->trace = true;
        } else if ((t = TAKES_VALUE("--dump", "--dump")) != 0) {
            if (t < 0)
                return cli_error(EXIT_USAGE, "%s needs a value", a);
            if (o->ndumps == 8)
                return cli_error(EXIT_USAGE, "--dump: at most 8");
            o->dumps[o->ndumps++] = val;
        } else if ((t = TAKES_VALUE("--budget", "--budget")) != 0) {
            if (t < 0)
                return cli_error(EXIT_USAGE, "%s needs a value", a);
            if (o->nbudgets == 8)
                return cli_error(EXIT_USAGE, "--budget: at most 8");
            int rc = cli_parse_budget(val, &o->budgets[o->nbudgets]);
            if (rc != EXIT_OK)
                return rc;
            o->nbudgets++;
        } else if ((t = TAKES_VALUE("--draws", "--draws")) != 0) {
            if (t < 0)
                return cli_error(EXIT_USAGE, "%s needs a value", a);
            o->draws = val;
        } else if ((t = TAKES_VALUE("--dump-textures", "--dump-textures")) != 0) {
            if (t < 0)
                return cli_error(EXIT_USAGE, "%s needs a value", a);
            o->dump_textures = val;
        } else if ((t = TAKES_VALUE("--subch", "--subch")) != 0) {
            if (t < 0)
                return cli_error(EXIT_USAGE, "%s needs a value", a);
            o->subch = val;
        } else if ((t = TAKES_VALUE("--gen", "--gen")) != 0) {
            if (t < 0)
                return cli_error(EXIT_USAGE, "%s needs a value", a);
            o->gen = val;
        } else if ((t = TAKES_VALUE("--input-format", "--input-format")) != 0) {
            if (t < 0)
                return cli_error(EXIT_USAGE, "%s needs a value", a);
            o->input_format = val;
        } else {
            return cli_error(EXIT_USAGE, "%s: unknown option '%s' (see `cmdgpu %s --help`)",
                             cmd->name, a, cmd->name);
        }
#undef TAKES_VALUE
    }
    bool tty = isatty(fileno(stdout)) && !(o->output && strcmp(o->output, "-") != 0);
    o->color = (color == ALWAYS || (color == AUTO && tty)) ? &colors_on : &colors_off;
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
            rc = commands[i].run(&o);
        free(o.args);
        return rc;
    }
    return cli_error(EXIT_USAGE, "unknown subcommand '%s' (try `cmdgpu help`)", name);
}
