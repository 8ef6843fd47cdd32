/* cmdgpu command: shared helpers for the subcommands. */
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
    const char *output;   /* -o, NULL = default */
    const char *section;  /* --section */
    bool json;
    const cli_colors *color;
    const char *out_dir;  /* --out (demo) */
    const char *gen;      /* --gen (radeon: r600, r700, evergreen, r500) */
    const char *subch;    /* --subch (nv: 0=B197,2=A140,...) */
    bool trace;           /* --trace (run: print every method/packet) */
    const char *dumps[8]; /* --dump VA:SIZE:FILE (run), up to 8 */
    int ndumps;
    const char *draws;    /* --draws FILE.json (nv run): every draw record, - = stdout */
    const char *dump_textures; /* --dump-textures DIR (nv run): DIR/tic_<index>.png */
    struct cli_budget {
        cg_budget budget;
        uint64_t value;
    } budgets[8];         /* --budget NAME=VALUE (run), applied by cli_device_create */
    int nbudgets;
    int nargs;
    char **args;          /* positional arguments */
    const char *input_format; /* --input-format (disasm, run): tools/capture_cli.c */
    const char *qpus;     /* --qpus N (run -f vc4-qpu) */
    const char *uniforms; /* --uniforms LIST (run -f vc4-qpu) */
    const char *capture;  /* --capture FILE (run): write a CMDGPUCAP capture of the run */
    const struct cg_capfile *replay; /* run: play this capture instead of a scene (capture_cli.c) */
} cli_opts;

/* A subcommand. */
typedef struct cli_command {
    const char *name;
    const char *summary;
    const char *usage; /* full --help text */
    int (*run)(const cli_opts *o);
} cli_command;

/* A family front end: what each subcommand does for it (NULL: not yet). */
typedef struct cli_family {
    const char *name;
    const char *description;
    int (*disasm)(const cli_opts *o, const uint8_t *data, size_t size, FILE *out);
    int (*assemble)(const cli_opts *o, const char *path);
    int (*run)(const cli_opts *o);
    int (*check)(const cli_opts *o);
} cli_family;

extern const cli_family cli_families[];
extern const size_t cli_nfamilies;
const cli_family *cli_find_family(const char *name);
/* "raw, nv, ..." from the family table (a static buffer). */
const char *cli_family_names(void);

/* Parse "NAME=VALUE" (a budget of CG_BUDGET_TABLE, VALUE > 0). */
int cli_parse_budget(const char *text, struct cli_budget *out);
/* A new device with the run's --budget values applied; NULL (message
 * printed) when out of memory. */
cg_device *cli_device_create(const cli_opts *o);

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
/* A number option: decimal or 0x hex, no sign, no octal-looking leading 0,
 * no overflow. 0 or -1. */
int cli_parse_u64(const char *text, uint64_t *out);
/* Write s as a JSON string (quotes included). */
void cli_json_str(FILE *out, const char *s);
int cli_error(int code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* The bytes data[from, size) that do not fill a whole word or instruction,
 * as one `.byte` line (every disassembler's output must reassemble). */
void cli_print_tail(FILE *out, const cli_colors *c, const char *indent, const uint8_t *data,
                    size_t from, size_t size);

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
/* Run a scene whose library writes a text log, `run(ctx, log)` returning 0,
 * 1 (a check or fault failed) or a negative cg_err, with the log handled as
 * above. After a failed run, `report` (may be NULL) writes a report: text
 * after the log, or with --json one object whose members join the result's
 * (e.g. {"hang":{...}}). Returns the exit code. */
int cli_run_scene(const cli_opts *o, const char *family, cg_device *dev,
                  int (*run)(void *ctx, FILE *log), int (*report)(void *ctx, bool json, FILE *out),
                  void *ctx);
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
/* tools/vc4_gpgpu_cli.c: run -f vc4-qpu */
int vc4_qpu_run_cli(const cli_opts *o);
int cmd_demo(const cli_opts *o);
int cmd_report(const cli_opts *o); /* tools/report_cli.c */
/* cmd_report with its one-line summary (text, or JSON with o->json) written
 * to `summary` (NULL: none); the demo writes its pages through it. */
int report_page(const cli_opts *o, FILE *summary);

/* Assemble `path` with a family plug-in (NULL: core directives only), print
 * errors, and write the chosen section (-o, --section) or, with --json, a
 * summary. Returns an exit code. Every family's `asm` goes through it. */
struct cg_asm_family;
struct cg_asm;
/* Create an assembler with the family plug-in, read `path` and assemble it,
 * printing every error. EXIT_OK with *out set (cg_asm_destroy it), or an
 * exit code with *out NULL. */
int cli_asm_load(const char *path, const struct cg_asm_family *fam, void *user,
                 struct cg_asm **out);
int cli_assemble(const cli_opts *o, const char *path, const struct cg_asm_family *fam,
                 void *user);

/* The radeon family (tools/radeon_cli.c). */
int radeon_disasm(const cli_opts *o, const uint8_t *data, size_t size, FILE *out);
int radeon_assemble(const cli_opts *o, const char *path);
int radeon_run(const cli_opts *o);
int radeon_check(const cli_opts *o); /* tools/radeon_check.c */

/* The nv family (tools/nv_cli.c). */
int nv_disasm(const cli_opts *o, const uint8_t *data, size_t size, FILE *out);
int nv_assemble(const cli_opts *o, const char *path);
int nv_run(const cli_opts *o);
int nv_check(const cli_opts *o); /* tools/nv_check.c */

/* The nv-macro front end (tools/nv_macro_cli.c): Maxwell MME code. */
int nv_macro_disasm_cli(const cli_opts *o, const uint8_t *data, size_t size, FILE *out);
int nv_macro_assemble(const cli_opts *o, const char *path);

/* The nv-sass front end (tools/nv_sass_cli.c): Maxwell shader code. */
int nv_sass_disasm_cli(const cli_opts *o, const uint8_t *data, size_t size, FILE *out);
int nv_sass_sph_disasm_cli(const cli_opts *o, const uint8_t *data, size_t size, FILE *out);
int nv_sass_assemble(const cli_opts *o, const char *path);

/* The vc4-qpu front end (tools/vc4_qpu_cli.c): QPU shader words. */
int vc4_qpu_disasm_cli(const cli_opts *o, const uint8_t *data, size_t size, FILE *out);
int vc4_qpu_assemble(const cli_opts *o, const char *path);

/* The vc4 family (tools/vc4_cli.c): control lists and scenes. */
int vc4_disasm(const cli_opts *o, const uint8_t *data, size_t size, FILE *out);
int vc4_assemble(const cli_opts *o, const char *path);
int vc4_run(const cli_opts *o);
int vc4_check(const cli_opts *o); /* tools/vc4_check.c */

/* The core ("raw") family: words in, words out. */
int raw_disasm(const cli_opts *o, const uint8_t *data, size_t size, FILE *out);
int raw_assemble(const cli_opts *o, const char *path);

/* Captures real systems write (tools/capture_cli.c, docs/captures.md): -1
 * when the input is the family's native format, else an exit code. */
int capture_disasm(const cli_opts *o, const cli_family *fam, const char *path, const uint8_t *data,
                   size_t size, FILE *out);
int capture_run(const cli_opts *o, const cli_family *fam);
/* The family of a CMDGPUCAP capture named by o->args[0] (NULL if it is not
 * one): `cmdgpu run FILE` and `disasm FILE` without -f. */
const char *capture_family_of(const cli_opts *o);
/* --capture: NULL with *rc EXIT_OK without it; else a writer holding the
 * device configuration (the file is checked writable first: *rc EXIT_INPUT
 * when not). cli_capture_end adds the results, writes the file, and returns
 * rc, or EXIT_INPUT when the file cannot be written. */
struct cg_capfile_writer *cli_capture_begin(const cli_opts *o, cg_family fam, cg_device *dev, int *rc);
int cli_capture_end(const cli_opts *o, struct cg_capfile_writer *w, int result, cg_device *dev, int rc);
/* Progress on stderr when it is a terminal (tools/capture_cli.c): start
 * before a long operation; the line appears after a second, is rewritten
 * in place, and is cleared by cli_progress_stop. */
void cli_progress_start(const char *what);
void cli_progress_set(uint64_t done, uint64_t total, const char *unit);
void cli_progress_stop(void);
/* After a replay (o->replay): compare the results with the capture's end
 * record; a difference is reported on stderr and gives EXIT_FAULT. */
int cli_replay_check(const cli_opts *o, int result, cg_device *dev, int rc);
/* With o->replay: hash the final memory of the capture's ranges (cli_device_create). */
void cli_replay_attach(const cli_opts *o, cg_device *dev);
/* With progress on, a stream that passes writes on to `out` and shows the
 * bytes written so far (else `out` itself); unwrap flushes and closes it. */
FILE *cli_progress_wrap(FILE *out);
void cli_progress_unwrap(FILE *wrapped, FILE *out);
/* With progress on, count the device's trace events (a trace sink). */
void cli_progress_attach(cg_device *dev);

#endif
