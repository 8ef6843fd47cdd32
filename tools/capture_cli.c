/* cmdgpu command: captures (docs/captures.md, docs/capture-format.md),
 * chosen with --input-format or detected (cg_capture_detect), for
 * `cmdgpu disasm` and `cmdgpu run`: each format is a family's (or the
 * core's own CMDGPUCAP container) and is reached through its descriptor
 * (cmdgpu/family.h); this file only wires them to the command. */
#define _GNU_SOURCE /* fopencookie: the progress of a listing (glibc) */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "cli.h"
#include "cmdgpu/core.h"

static int load_error(const char *path, const cg_capture_desc *f, int rc, const cg_capture_error *e)
{
    if (rc == CG_ERR_SYNTAX || rc == CG_ERR_RANGE || (rc == CG_ERR_UNSUPPORTED && !f->family))
        return cli_error(EXIT_INPUT, "%s: %s at offset %zu (0x%zx): %s", path, f->name, e->offset,
                         e->offset, e->msg);
    return cli_error(EXIT_INPUT, "%s: %s: %s", path, f->name, cg_strerror(rc));
}

static const char *format_names(void)
{
    static char buf[256];
    size_t len = 0;
    for (size_t i = 0; i < cg_capture_count() && len < sizeof buf; i++) {
        int w = snprintf(buf + len, sizeof buf - len, ", %s", cg_capture_at(i)->name);
        if (w < 0)
            break;
        len += (size_t)w;
    }
    return buf;
}

/* Which capture format to load `data` as: *f NULL when the family's own
 * format should take it. Returns -1 to go on, or an exit code. */
static int choose(const cli_opts *o, const char *path, const uint8_t *data, size_t size,
                  const cg_capture_desc **f)
{
    *f = NULL;
    const cg_family_desc *fam = o->fmt->family;
    if (o->input_format && strcmp(o->input_format, "auto") != 0) {
        if (strcmp(o->input_format, "native") == 0)
            return -1;
        if (!(*f = cg_capture_find(o->input_format)))
            return cli_error(EXIT_USAGE, "--input-format: unknown format '%s' (auto, native%s)",
                             o->input_format, format_names());
        if ((*f)->family && (*f)->family != fam)
            return cli_error(EXIT_USAGE, "--input-format %s is a %s capture: use -f %s",
                             o->input_format, (*f)->family->name, (*f)->family->name);
        return -1;
    }
    if (!data)
        return -1;
    const cg_capture_desc *d = cg_capture_detect(data, size);
    if (!d)
        return -1;
    if (!d->family) { /* CMDGPUCAP: the file names its family */
        const cg_family_desc *cf = cg_family_get(cg_capfile_peek_family(data, size));
        if (cf && cf != fam)
            return cli_error(EXIT_USAGE, "%s is a cmdgpu capture of family %s, not %s: leave -f "
                             "out or use -f %s", path, cf->name, o->family ? o->family : "?",
                             cf->name);
        *f = d;
        return -1;
    }
    if (d->family != fam)
        return cli_error(EXIT_INPUT, "%s looks like a %s capture (%s), not %s input: use -f %s, "
                         "or --input-format native to read its bytes as they are", path, d->name,
                         d->description, o->family ? o->family : "?", d->family->name);
    *f = d;
    return -1;
}

static void disasm_progress(void *user, size_t done, size_t total)
{
    (void)user;
    cli_progress_set(done, total, "submissions");
}

int capture_disasm(const cli_opts *o, const char *path, const uint8_t *data, size_t size,
                   FILE *out)
{
    if (!o->fmt->family || !o->fmt->scenes)
        return -1; /* instruction sets have no captures */
    const cg_capture_desc *f;
    int rc = choose(o, path, data, size, &f);
    if (rc >= 0 || !f)
        return rc;
    cg_capture_error e = {0};
    if (!f->family) { /* the CMDGPUCAP listing, with its progress */
        cg_capfile *cap;
        if ((rc = cg_capfile_parse(data, size, &cap, &e)) != 0)
            return load_error(path, f, rc, &e);
        const cli_colors *c = o->color;
        cg_capfile_disasm_opts dop = {.json = o->json, .c_name = c->name, .c_num = c->num,
                                      .c_addr = c->addr, .c_err = c->err, .c_comment = c->comment,
                                      .c_reset = c->reset, .progress = disasm_progress};
        rc = cg_capfile_disasm(cap, &dop, out);
        cg_capfile_free(cap);
        return rc < 0 ? cli_error(EXIT_INPUT, "disasm: %s", cg_strerror(rc)) : EXIT_OK;
    }
    cg_text_opts t = cli_text_opts(o);
    rc = f->disasm(&t, data, size, out, &e);
    if (rc == CG_ERR_SYNTAX || rc == CG_ERR_RANGE)
        return load_error(path, f, rc, &e);
    return rc < 0 ? cli_error(EXIT_INPUT, "disasm: %s", cg_strerror(rc)) : EXIT_OK;
}

/* A capture a real system wrote, replayed by its format (text or JSON to
 * stdout; -o gets the frame where there is one). */
static int run_real(const cli_opts *o, const cg_capture_desc *f, const char *path,
                    const uint8_t *data, size_t size)
{
    cg_device *dev = cli_device_create(o);
    if (!dev)
        return EXIT_INPUT;
    if (o->trace)
        cg_trace_add(dev, o->json ? cg_trace_write_json : cg_trace_write_text, stdout);
    cg_text_opts t = cli_text_opts(o);
    t.name = path;
    cg_capture_error e = {0};
    int r = f->run(&t, data, size, dev, o->output, stdout, &e);
    int rc;
    if (r == CG_ERR_SYNTAX || r == CG_ERR_RANGE)
        rc = load_error(path, f, r, &e);
    else if (r == CG_ERR_NOENT)
        rc = cli_error(EXIT_INPUT, "%s: %s", path, e.msg);
    else if (r == CG_ERR_UNSUPPORTED)
        rc = cli_error(EXIT_USAGE, "run: %s", e.msg);
    else if (r < 0)
        rc = cli_error(EXIT_INPUT, "run: %s", e.msg[0] ? e.msg : cg_strerror(r));
    else if (r > 0 && e.msg[0])
        rc = cli_error(EXIT_FAULT, "%s", e.msg);
    else
        rc = r ? EXIT_FAULT : EXIT_OK;
    cg_device_destroy(dev);
    return rc;
}

/* `cmdgpu run FILE.cap`: the family's own run, with the scene taken from
 * the capture (o->replay) and named as the original run named it, so the
 * output is the original's; then the results are checked against the end
 * record. */
static int run_capfile(const cli_opts *o, const char *path, const uint8_t *data, size_t size)
{
    cg_capture_error e = {0};
    cg_capfile *cap;
    int rc = cg_capfile_parse(data, size, &cap, &e);
    if (rc != 0)
        return load_error(path, cg_capture_find("cmdgpu-capture"), rc, &e);
    if (o->capture) {
        cg_capfile_free(cap);
        return cli_error(EXIT_USAGE, "run %s: it is a capture already: --capture records scenes", path);
    }
    char *name = cap->name ? strndup(cap->name, cap->name_len) : strdup(path);
    if (!name) {
        cg_capfile_free(cap);
        return cli_error(EXIT_INPUT, "out of memory");
    }
    cli_opts ro = *o;
    char *args[1] = {name};
    ro.args = args;
    ro.nargs = 1;
    ro.replay = cap;
    ro.replay_file = path;
    rc = cli_run_scene(&ro);
    free(name);
    cg_capfile_free(cap);
    return rc;
}

const char *capture_family_of(const cli_opts *o)
{
    if (o->nargs != 1 || strcmp(o->args[0], "-") == 0)
        return NULL;
    FILE *f = fopen(o->args[0], "rb");
    if (!f)
        return NULL;
    uint8_t h[16];
    size_t n = fread(h, 1, sizeof h, f);
    fclose(f);
    const cg_family_desc *fam = cg_family_get(cg_capfile_peek_family(h, n));
    return fam && fam->nformats ? fam->formats[0]->name : NULL;
}

cg_capfile_writer *cli_capture_begin(const cli_opts *o, cg_family fam, cg_device *dev, int *rc)
{
    *rc = EXIT_OK;
    if (!o->capture)
        return NULL;
    /* refuse a path that cannot be created before running anything */
    FILE *f = fopen(o->capture, "wb");
    if (!f || fclose(f) != 0) {
        *rc = cli_error(EXIT_INPUT, "--capture: cannot create '%s': %s", o->capture, strerror(errno));
        return NULL;
    }
    cg_capfile_writer *w = NULL;
    if (cg_capfile_writer_create(fam, &w) != 0) {
        *rc = cli_error(EXIT_INPUT, "out of memory");
        return NULL;
    }
    cg_capfile_writer_attach(w, dev); /* the final memory's hash for the end record */
    cg_capfile_write_name(w, o->args[0]);
    cg_capfile_write_config(w, CG_CAPCFG_COHERENCY, (uint64_t)cg_device_coherency(dev));
    for (int b = 0; b < CG_BUDGET_COUNT; b++)
        if (cg_device_budget(dev, (cg_budget)b) != cg_budget_default((cg_budget)b))
            cg_capfile_write_config(w, CG_CAPCFG_BUDGET + (uint32_t)b, cg_device_budget(dev, (cg_budget)b));
    return w;
}

int cli_capture_end(const cli_opts *o, cg_capfile_writer *w, int result, cg_device *dev, int rc)
{
    if (!w)
        return rc;
    cg_capfile_end end = {.result = result, .faults = (uint32_t)cg_fault_count(dev),
                          .fault_hash = cg_capfile_fault_hash(dev, 0)};
    cg_capfile_write_end(w, &end);
    cg_capfile_memhash_attach(dev, NULL);
    int r = cg_capfile_writer_save(w, o->capture);
    cg_capfile_writer_destroy(w);
    if (r != 0)
        return cli_error(EXIT_INPUT, "--capture: cannot write '%s': %s", o->capture, cg_strerror(r));
    return rc;
}

static cg_capfile_memhash replay_mh;

void cli_replay_attach(const cli_opts *o, cg_device *dev)
{
    cg_capfile_memhash_fini(&replay_mh);
    if (o->replay && cg_capfile_memhash_init(&replay_mh, o->replay) == 0)
        cg_capfile_memhash_attach(dev, &replay_mh);
}

int cli_replay_check(const cli_opts *o, int result, cg_device *dev, int rc)
{
    if (!o->replay)
        return rc;
    cg_capfile_end got = {.result = result, .faults = (uint32_t)cg_fault_count(dev),
                          .fault_hash = cg_capfile_fault_hash(dev, 0),
                          .mem_hash = replay_mh.done ? replay_mh.hash : 0};
    cg_capfile_memhash_attach(dev, NULL);
    cg_capfile_memhash_fini(&replay_mh);
    if (result < 0 && result != CG_ERR_IO && rc != EXIT_OK)
        return rc; /* nothing ran (its one line is printed): no results to compare */
    if (!o->replay->has_end) /* docs/capture-format.md: the end record is optional */
        fprintf(stderr, "cmdgpu: replay: the capture has no end record (cut short, or written "
                "without results): its results were not checked\n");
    char msg[256];
    if (cg_capfile_verify(o->replay, &got, msg, sizeof msg) != 0) {
        cli_error(EXIT_FAULT, "replay: %s", msg);
        return rc == EXIT_OK ? EXIT_FAULT : rc;
    }
    return rc;
}

/* ---- progress on stderr (a terminal only) -------------------------------- */

static struct {
    bool on, shown;
    const char *what;
    double t0, last;
} prog;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void cli_progress_start(const char *what)
{
    prog.on = isatty(STDERR_FILENO) != 0;
    prog.shown = false;
    prog.what = what;
    prog.t0 = prog.last = prog.on ? now_s() : 0;
}

void cli_progress_set(uint64_t done, uint64_t total, const char *unit)
{
    if (!prog.on)
        return;
    double t = now_s();
    if (t - prog.t0 < 1.0 || (prog.shown && t - prog.last < 0.1))
        return;
    prog.last = t;
    prog.shown = true;
    char tot[32] = "";
    if (total)
        snprintf(tot, sizeof tot, "/%" PRIu64, total);
    fprintf(stderr, "\r\033[Kcmdgpu %s: %" PRIu64 "%s %s, %.0f/s, %.0f s", prog.what, done, tot, unit,
            (double)done / (t - prog.t0), t - prog.t0);
    fflush(stderr);
}

static uint64_t prog_events, prog_bytes;

static void progress_sink(void *user, const cg_trace_event *ev)
{
    (void)user;
    if (ev->kind == CG_TRACE_MEM_WRITE)
        prog_bytes += ev->size;
    else if (ev->kind == CG_TRACE_PACKET || ev->kind == CG_TRACE_METHOD)
        prog_events++;
    else
        return;
    if ((prog_events & 1023) == 0 && prog.on) {
        char unit[64];
        snprintf(unit, sizeof unit, "packets/methods, %" PRIu64 " KiB written by the GPU", prog_bytes >> 10);
        cli_progress_set(prog_events, 0, unit);
    }
}

/* A listing's progress: the bytes written so far, counted by a stream that
 * passes everything on to the real one. */
#if defined(__GLIBC__)
static ssize_t count_write(void *cookie, const char *buf, size_t n)
{
    static uint64_t total;
    size_t w = fwrite(buf, 1, n, (FILE *)cookie);
    total += w;
    cli_progress_set(total, 0, "bytes of listing");
    return w == n ? (ssize_t)n : -1;
}

FILE *cli_progress_wrap(FILE *out)
{
    if (!prog.on || !out)
        return out;
    cookie_io_functions_t io = {.write = count_write};
    FILE *f = fopencookie(out, "w", io);
    return f ? f : out;
}
#else
FILE *cli_progress_wrap(FILE *out) { return out; }
#endif

void cli_progress_unwrap(FILE *wrapped, FILE *out)
{
    if (wrapped != out)
        fclose(wrapped); /* flushes into out; errors show on out */
}

void cli_progress_attach(cg_device *dev)
{
    if (prog.on && dev)
        cg_trace_add(dev, progress_sink, NULL);
}

void cli_progress_stop(void)
{
    if (prog.on && prog.shown) {
        fputs("\r\033[K", stderr);
        fflush(stderr);
    }
    prog.on = prog.shown = false;
}

int capture_run(const cli_opts *o)
{
    if (o->nargs != 1)
        return -1;
    const char *path = o->args[0];
    bool explicit_fmt = o->input_format && strcmp(o->input_format, "auto") != 0;
    if (!explicit_fmt && strcmp(path, "-") == 0)
        return -1; /* stdin cannot be read twice: detection needs --input-format */
    const cg_capture_desc *f;
    int rc;
    if (explicit_fmt) {
        if ((rc = choose(o, path, NULL, 0, &f)) >= 0)
            return rc;
        if (!f)
            return -1;
    }
    size_t size;
    uint8_t *data = cli_read_file(path, CLI_MAX_SOURCE, &size);
    if (!data)
        return EXIT_INPUT;
    if ((rc = choose(o, path, data, size, &f)) >= 0 || !f) {
        free(data);
        return rc;
    }
    if (o->capture && f->family) {
        free(data);
        return cli_error(EXIT_USAGE, "run --capture: %s is a %s capture: --capture records scenes", path,
                         f->name);
    }
    if (!f->family)
        rc = run_capfile(o, path, data, size);
    else if (f->run)
        rc = run_real(o, f, path, data, size);
    else
        rc = cli_error(EXIT_USAGE, "run: %s", f->why_not);
    free(data);
    return rc;
}
