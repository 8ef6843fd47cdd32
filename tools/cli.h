/* cmdgpu command: shared helpers for the subcommands. The command reaches
 * a family only through its descriptor (cmdgpu/family.h): -f names a text
 * format of the registry, and every subcommand works from the format, its
 * family's scene, capture, hang and check operations. */
#ifndef CMDGPU_TOOLS_CLI_H
#define CMDGPU_TOOLS_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>
#include "cmdgpu/device.h"
#include "cmdgpu/family.h"

/* The exit-code contract, printed by `cmdgpu help` from this table. */
#define CLI_EXIT_CODES(X)                                                              \
    X(EXIT_OK, 0, "success")                                                           \
    X(EXIT_FAULT, 1, "the stream faulted, or failed a check")                          \
    X(EXIT_USAGE, 2, "usage error: bad option or value, an option the subcommand or "  \
                     "family does not take, or a subcommand it does not support yet")  \
    X(EXIT_INPUT, 3, "input error: unreadable, malformed or oversized input, syntax "  \
                     "error; or output that cannot be written")
enum {
#define CLI_EXIT_ENUM(name, code, text) name = code,
    CLI_EXIT_CODES(CLI_EXIT_ENUM)
#undef CLI_EXIT_ENUM
};

/* The options (tools/options.def). */
enum {
#define CLI_OPT(id, s, l, kind, arg, applies, help) CLI_OPT_##id,
#include "options.def"
#undef CLI_OPT
    CLI_OPT_COUNT
};

/* Input size caps (docs/faults.md): what a reader accepts before it stops
 * with "larger than the cap" (exit 3). Regular files are measured first,
 * streams are read as data arrives, so nothing near the cap is allocated
 * for an input that turns out larger. */
#define CLI_MAX_BINARY ((size_t)4 << 20)   /* disasm input (its text fits CLI_MAX_SOURCE) */
#define CLI_MAX_SOURCE ((size_t)256 << 20) /* asm/run/check source text */

/* Colour as data (envytools' struct envy_colors): callers print the slots and
 * never test whether colour is on. */
typedef struct cli_colors {
    const char *reset, *name, *num, *addr, *err, *comment;
} cli_colors;

typedef struct cli_opts {
    const char *family;   /* -f */
    const cg_text_format *fmt; /* the format -f names (NULL without -f) */
    const char *output;   /* -o, NULL = default */
    const char *section;  /* --section */
    bool json;
    const cli_colors *color;
    const char *out_dir;  /* --out (demo, scenes) */
    const char *gen;      /* --gen (radeon: r600, r700, evergreen, r500) */
    const char *subch;    /* --subch (nv: 0=B197,2=A140,...) */
    bool trace;           /* --trace (run: print every method/packet) */
    const char *dumps[8]; /* --dump VA:SIZE:FILE (run), up to 8 */
    int ndumps;
    const char *draws;    /* --draws FILE.json (run): every draw record, - = stdout */
    const char *dump_textures; /* --dump-textures DIR (run): DIR/tic_<index>.png */
    struct cli_budget {
        cg_budget budget;
        uint64_t value;
    } budgets[8];         /* --budget NAME=VALUE (run), applied by cli_device_create */
    int nbudgets;
    int nargs;
    char **args;          /* positional arguments */
    const char *input_format; /* --input-format (disasm, run): tools/capture_cli.c */
    const char *qpus;     /* --qpus N (run of a program) */
    const char *uniforms; /* --uniforms LIST (run of a program) */
    const char *capture;  /* --capture FILE (run): write a CMDGPUCAP capture of the run */
    const struct cg_capfile *replay; /* run: play this capture instead of a scene (capture_cli.c) */
    const char *replay_file; /* the file it was read from (messages) */
    const char *gpu;      /* --gpu NAME (exec) */
    const char *log;      /* --log FILE (exec) */
    const char *ioctls;   /* --ioctls FILE (exec) */
    bool reference;       /* --reference (exec): llvmpipe renders */
    bool exit_on_fault;   /* --exit-on-fault (exec) */
    bool threaded;        /* --threaded (exec) */
} cli_opts;

/* A subcommand. */
typedef struct cli_command {
    const char *name;
    const char *summary;
    const char *usage; /* full --help text */
    int (*run)(const cli_opts *o);
    bool program;      /* the first argument is a program: what follows is its own */
} cli_command;

/* "raw, nv, ..." from the registry's formats (a static buffer). */
const char *cli_format_names(void);
/* The text options of the command line (colours, --gen, --subch, ...). */
cg_text_opts cli_text_opts(const cli_opts *o);
/* Resolve -f for `sub`: the format, or NULL with *rc set and a message
 * printed (no -f, an unknown name). */
const cg_text_format *cli_format_for(const cli_opts *o, const char *sub, int *rc);
/* The family's check of its options (--gen, --subch): EXIT_OK or EXIT_USAGE
 * with the message printed. */
int cli_family_opts(const cli_opts *o, const cg_family_desc *fam);

/* Parse "NAME=VALUE" (a budget of CG_BUDGET_TABLE, VALUE > 0). */
int cli_parse_budget(const char *text, struct cli_budget *out);
/* A new device with the run's --budget values applied; NULL (message
 * printed) when out of memory. */
cg_device *cli_device_create(const cli_opts *o);
/* The budgets of a run: a capture's recorded ones (cap; NULL: none) that
 * lower a default (one raising it is dropped, with a line on stderr naming
 * the --budget that restores it), then the command line's --budget values,
 * which may set anything (docs/capture-format.md, "Captures are data"). */
struct cg_capfile;
void cli_capture_budgets(const struct cg_capfile *cap, const cli_opts *o, cg_device *dev);
/* --trace: print every method/packet as it runs (JSON Lines with --json).
 * EXIT_OK or EXIT_INPUT with the message printed. */
int cli_trace(const cli_opts *o, cg_device *dev);

/* Why reading path failed with the cg_err rc, as the system says it ("No
 * such file or directory", "Is a directory"): the file is looked at again;
 * cg_strerror(rc) when that finds nothing wrong. A static buffer. */
const char *cli_file_why(const char *path, int rc);
/* Read a whole file ("-" = stdin) of at most `cap` bytes. Returns malloc'd
 * data or NULL with a one-line message printed (exit 3). */
uint8_t *cli_read_file(const char *path, size_t cap, size_t *size);
/* Open an output file ("-" or NULL = stdout). */
FILE *cli_open_out(const char *path, const char *mode);
/* Close (or flush stdout): EXIT_OK, or EXIT_INPUT with a message naming
 * `what` when anything written could not be. */
int cli_close_out(FILE *f, const char *what);
/* -o of a run: before running anything, check that path ("-": stdout,
 * nothing to check) can be written, creating it if missing but not
 * truncating it (the scene rewrites it in place: cg__out_open in
 * src/core/image_internal.h says why); *pr keeps the file as it was. False
 * (message printed) when it cannot be opened. */
typedef struct cli_out_probe {
    bool regular; /* a regular file, as found */
    dev_t dev;
    ino_t ino;
    off_t size;
    struct timespec mtime;
} cli_out_probe;
bool cli_probe_out(const char *path, cli_out_probe *pr);
/* After a failed run: remove the -o file unless the run wrote it (a regular
 * file still empty, or as the probe found it: before the probe truncated
 * it, a failed run left nothing either; never a device or a pipe). */
void cli_drop_unwritten_output(const char *path, const cli_out_probe *pr);
/* A directory the run writes into: created if missing (one level).
 * EXIT_OK or EXIT_INPUT with the message printed. */
int cli_out_dir(const char *opt, const char *dir);
/* Write s as a JSON string (quotes included). */
void cli_json_str(FILE *out, const char *s);
int cli_error(int code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* --json for a run whose library writes a text log: cli_log_begin returns
 * where the log goes (stdout, or with --json a memory buffer), and
 * cli_log_end prints, with --json, one object: {"family", "scene",
 * "result", "faults": [fault records], "log": [lines]}. cli_log_end returns
 * EXIT_INPUT if the buffer could not be kept, else `rc`. */
typedef struct cli_log {
    FILE *f;
    char *buf;
    size_t len;
    FILE *extra_f;      /* with --json: more members of the object (a report) */
    char *extra;
    size_t extra_len;
} cli_log;
FILE *cli_log_begin(const cli_opts *o, cli_log *l);
int cli_log_end(const cli_opts *o, cli_log *l, const char *family, const char *result,
                cg_device *dev, int rc);
/* The members of the JSON object in buf (its braces dropped), each after a
 * comma: a report's {"hang":{...}} joins an object being printed. */
void cli_json_join(FILE *out, const char *buf, size_t len);
/* Print the captured log lines as a JSON array. */
void cli_json_lines(FILE *out, const char *buf, size_t len);

/* Subcommand bodies (tools/cmd_*.c). */
int cmd_asm(const cli_opts *o);
int cmd_disasm(const cli_opts *o);
int cmd_run(const cli_opts *o);
int cmd_check(const cli_opts *o);
int cmd_bench(const cli_opts *o);
int cmd_demo(const cli_opts *o);
int cmd_report(const cli_opts *o); /* tools/report_cli.c */
int cmd_exec(const cli_opts *o);   /* tools/cmd_exec.c */
/* cmd_report with its one-line summary (text, or JSON with o->json) written
 * to `summary` (NULL: none); the demo writes its pages through it. */
int report_page(const cli_opts *o, FILE *summary);

/* Create the format's assembler, read `path` and assemble it, printing
 * every error. EXIT_OK with *out set (cg_asm_destroy it), or an exit code
 * with *out NULL. */
struct cg_asm;
int cli_asm_load(const cli_opts *o, const char *path, struct cg_asm **out);
/* A scene of the format's family, assembled from path (errors printed, exit
 * code returned) or taken from the capture being replayed (o->replay). */
int cli_scene_load(const cli_opts *o, const char *path, cg_scene **out);

/* Run a scene of o->fmt's family: the file o->args[0], or the capture
 * o->replay (tools/cmd_run.c). An exit code. */
int cli_run_scene(const cli_opts *o);

/* Captures (tools/capture_cli.c, docs/captures.md): -1 when the input is
 * the family's own format, else an exit code. */
int capture_disasm(const cli_opts *o, const char *path, const uint8_t *data, size_t size,
                   FILE *out);
int capture_run(const cli_opts *o);
/* The format of a CMDGPUCAP capture named by o->args[0] (its family's
 * stream format; NULL if it is not one): `cmdgpu run FILE` and `disasm
 * FILE` without -f. */
const char *capture_family_of(const cli_opts *o);
/* --capture: NULL with *rc EXIT_OK without it; else a writer holding the
 * device configuration (the file is checked writable first: *rc EXIT_INPUT
 * when not). cli_capture_end adds the results, writes the file, and returns
 * rc, or EXIT_INPUT when the file cannot be written. */
struct cg_capfile_writer *cli_capture_begin(const cli_opts *o, cg_family fam, cg_device *dev,
                                            int *rc);
int cli_capture_end(const cli_opts *o, struct cg_capfile_writer *w, int result, cg_device *dev,
                    int rc);
/* Progress on stderr when it is a terminal (tools/capture_cli.c): start
 * before a long operation; the line appears after a second, is rewritten
 * in place, and is cleared by cli_progress_stop. */
void cli_progress_start(const char *what);
void cli_progress_set(uint64_t done, uint64_t total, const char *unit);
void cli_progress_stop(void);
/* After a replay (o->replay): compare the results with the capture's end
 * record (cg_capfile_verify); a mismatch is printed and turns rc into
 * EXIT_FAULT. Without a replay, rc. */
int cli_replay_check(const cli_opts *o, int result, cg_device *dev, int rc);
/* Before a replay runs: hash the final memory of the capture's ranges. */
void cli_replay_attach(const cli_opts *o, cg_device *dev);
/* A trace sink that feeds the progress line (a no-op off a terminal). */
void cli_progress_attach(cg_device *dev);
/* Wrap an output stream so a long listing shows its progress; unwrap
 * (flushes into out) when done. */
FILE *cli_progress_wrap(FILE *out);
void cli_progress_unwrap(FILE *wrapped, FILE *out);

#endif
