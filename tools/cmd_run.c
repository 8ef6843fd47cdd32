/* cmdgpu run and check: a scene of any family through the core's runner
 * (cmdgpu/scene.h), a program of a format that runs programs (vc4-qpu),
 * and the family's stream validator; captures are replayed through
 * capture_cli.c, which comes back here for cmdgpu's own. */
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "cmdgpu/core.h"

/* --dump VA:SIZE:FILE, numbers as cg_parse_u64 reads them. */
static int parse_dump(const char *text, cg_scene_dump *d)
{
    char num[2][64];
    const char *p = text;
    for (int k = 0; k < 2; k++) {
        const char *colon = strchr(p, ':');
        if (!colon || (size_t)(colon - p) >= sizeof num[k])
            return -1;
        memcpy(num[k], p, (size_t)(colon - p));
        num[k][colon - p] = 0;
        p = colon + 1;
    }
    if (cg_parse_u64(num[0], &d->addr) != 0 || cg_parse_u64(num[1], &d->size) != 0 || !*p)
        return -1;
    d->path = p;
    return d->size == 0 || d->size > ((uint64_t)256 << 20) ? -1 : 0;
}

int cli_scene_load(const cli_opts *o, const char *path, cg_scene **out)
{
    *out = NULL;
    if (o->replay) {
        cg_capture_error e = {0};
        const char *file = o->replay_file ? o->replay_file : path;
        int rc = cg_scene_from_capfile_ex(o->replay, out, &e);
        if (rc == CG_ERR_SYNTAX) /* as a reader's error: the record's offset */
            return cli_error(EXIT_INPUT, "%s: cmdgpu-capture at offset %zu (0x%zx): %s", file,
                             e.offset, e.offset, e.msg);
        return rc ? cli_error(EXIT_INPUT, "%s: the capture's records make no %s scene: %s", file,
                              o->fmt->family->name, cg_strerror(rc))
                  : EXIT_OK;
    }
    cg_text_opts t = cli_text_opts(o);
    int rc = cg_scene_assemble(o->fmt->family, &t, path, NULL, 0, out);
    if (rc == CG_ERR_SYNTAX) {
        fputs(cg_scene_errors(*out), stderr);
        cg_scene_destroy(*out);
        *out = NULL;
        return EXIT_INPUT;
    }
    if (rc == CG_ERR_RANGE)
        return cli_error(EXIT_INPUT, "cannot read '%s': larger than %zu MiB, the cap for a "
                         "source (docs/faults.md)", path, CLI_MAX_SOURCE >> 20);
    if (rc)
        return cli_error(EXIT_INPUT, "cannot read '%s': %s", path, cli_file_why(path, rc));
    return EXIT_OK;
}

/* What a scene run is given, and what it keeps for the end. */
typedef struct scene_run {
    cg_scene_dump dumps[8];
    cg_scene_opts so;
    cli_out_probe probe;
    FILE *draws;
} scene_run;

/* The options a scene run takes, checked before anything is run or
 * written (exit code, or EXIT_OK). */
static int scene_options(const cli_opts *o, scene_run *s)
{
    for (int i = 0; i < o->ndumps; i++)
        if (parse_dump(o->dumps[i], &s->dumps[i]) != 0)
            return cli_error(EXIT_USAGE, "--dump '%s': want VA:SIZE:FILE, SIZE 1 to 256 MiB, "
                             "numbers decimal or 0x hex", o->dumps[i]);
    if ((o->out_dir && cli_out_dir("--out", o->out_dir) != EXIT_OK) ||
        (o->dump_textures && cli_out_dir("--dump-textures", o->dump_textures) != EXIT_OK))
        return EXIT_INPUT;
    /* -o: refuse a path that cannot be created before running anything */
    if (!cli_probe_out(o->output, &s->probe))
        return EXIT_INPUT;
    s->so = (cg_scene_opts){.name = o->args[0], .out_dir = o->out_dir, .frame_png = o->output,
                            .dumps = s->dumps, .ndumps = (size_t)o->ndumps,
                            .textures_dir = o->dump_textures,
                            /* a capture's file names are data: under --out only */
                            .confine_outputs = o->replay != NULL};
    return EXIT_OK;
}

/* The JSON result's members after the log, or the text lines after it:
 * the hang report after a failed run (its {"hang":...} joins the object). */
static void hang_report(const cli_opts *o, const cg_family_desc *fam, void *hang, int r,
                        cli_log *log)
{
    if (r == 0 || !hang)
        return;
    if (!o->json)
        fam->hang->report(hang, false, log->f);
    else if ((log->extra_f = open_memstream(&log->extra, &log->extra_len)) != NULL)
        fam->hang->report(hang, true, log->extra_f);
}

/* Play the scene with the log handled (text to stdout, or stderr when
 * stdout carries the PNG or draw records; with --json one object). */
static int play(const cli_opts *o, const cg_scene *sc, cg_device *dev, scene_run *s, int *result)
{
    const cg_family_desc *fam = o->fmt->family;
    bool stdout_taken = (o->output && strcmp(o->output, "-") == 0) ||
                        (o->draws && strcmp(o->draws, "-") == 0);
    cli_log log;
    FILE *lf = stdout_taken && !o->json ? (log = (cli_log){.f = stderr}).f : cli_log_begin(o, &log);
    if (!lf)
        return EXIT_INPUT;
    s->so.log = lf;
    void *hang = NULL;
    if (fam->hang)
        fam->hang->create(dev, &hang); /* no report if it cannot be made */
    int r = cg_scene_run(sc, dev, &s->so);
    *result = r;
    const char *res = r == 0 ? "ok" : r > 0 ? "failed" : cg_strerror(r);
    if (!o->json)
        fprintf(lf, "scene %s: %s, %zu fault(s)\n", o->args[0], res, cg_fault_count(dev));
    hang_report(o, fam, hang, r, &log);
    if (fam->hang)
        fam->hang->destroy(hang);
    int rc = r == CG_ERR_IO && o->output
                 ? cli_error(EXIT_INPUT, "run: -o %s, or a file the scene names, was not written "
                                         "(the log says why)", o->output)
             : r == CG_ERR_IO ? cli_error(EXIT_INPUT, "run: a file the scene names was not "
                                                      "written (the log says why)")
             : r == CG_ERR_UNSUPPORTED ? cli_error(EXIT_USAGE, "run -f %s: an option this family "
                                                   "does not take", o->family)
             : r < 0 ? cli_error(EXIT_INPUT, "run: cannot set up the %s model: %s", fam->name,
                                 cg_strerror(r))
             : r     ? EXIT_FAULT
                     : EXIT_OK;
    return log.f == stderr ? rc : cli_log_end(o, &log, fam->name, res, dev, rc);
}

int cli_run_scene(const cli_opts *o)
{
    if (o->nargs != 1)
        return cli_error(EXIT_USAGE, "run: give one scene file (or - for stdin)");
    scene_run s = {0};
    int rc = scene_options(o, &s);
    if (rc != EXIT_OK)
        return rc;
    cg_scene *sc = NULL;
    cg_device *dev = NULL;
    cg_capfile_writer *cw = NULL;
    if ((rc = cli_scene_load(o, o->args[0], &sc)) != EXIT_OK)
        goto out;
    if (!(dev = cli_device_create(o))) {
        rc = EXIT_INPUT;
        goto out;
    }
    if ((rc = cli_trace(o, dev)) != EXIT_OK)
        goto out;
    cw = cli_capture_begin(o, o->fmt->family->id, dev, &rc);
    if (rc != EXIT_OK || (cw && cg_scene_capture(sc, cw) != 0)) {
        rc = rc != EXIT_OK ? rc : cli_error(EXIT_INPUT, "--capture: cannot record the scene");
        goto out;
    }
    if (o->draws && !(s.so.draws = s.draws = cli_open_out(o->draws, "w"))) {
        rc = EXIT_INPUT;
        goto out;
    }
    int result = 0;
    rc = play(o, sc, dev, &s, &result);
    int wrc = s.draws ? cli_close_out(s.draws, o->draws) : EXIT_OK;
    s.draws = NULL;
    rc = cli_capture_end(o, cw, result, dev, rc);
    cw = NULL;
    rc = cli_replay_check(o, result, dev, rc);
    if (wrc != EXIT_OK)
        rc = EXIT_INPUT;
out:
    if (s.draws && s.draws != stdout)
        fclose(s.draws);
    cg_capfile_writer_destroy(cw);
    if (rc != EXIT_OK)
        cli_drop_unwritten_output(o->output, &s.probe);
    cg_device_destroy(dev);
    cg_scene_destroy(sc);
    return rc;
}

/* A program run on its own (`run -f vc4-qpu PROG.s --qpus N`). */
static int run_program(const cli_opts *o)
{
    if (o->nargs != 1)
        return cli_error(EXIT_USAGE, "run: give one source file (or - for stdin)");
    cg_device *dev = cli_device_create(o);
    cg_asm *as = NULL;
    int rc = dev ? cli_trace(o, dev) : EXIT_INPUT;
    if (rc == EXIT_OK)
        rc = cli_asm_load(o, o->args[0], &as);
    cli_log log = {0};
    FILE *lf = rc == EXIT_OK ? cli_log_begin(o, &log) : NULL;
    if (rc == EXIT_OK && !lf)
        rc = EXIT_INPUT;
    if (rc == EXIT_OK) {
        char msg[256] = "";
        cg_program_opts po = {.qpus = o->qpus, .uniforms = o->uniforms, .dumps = o->dumps,
                              .ndumps = (size_t)o->ndumps, .log = lf, .json = o->json,
                              .name = o->args[0], .msg = msg, .msg_cap = sizeof msg};
        int r = o->fmt->run_program(&po, as, dev);
        if (r == CG_ERR_INVAL || r == CG_ERR_NOENT) {
            if (o->json) /* nothing ran: no result object */
                fclose(log.f), free(log.buf);
            rc = cli_error(r == CG_ERR_INVAL ? EXIT_USAGE : EXIT_INPUT, "%s", msg);
        } else {
            rc = r < 0 ? cli_error(EXIT_INPUT, "run: cannot set up the %s model: %s",
                                   o->fmt->family->name, cg_strerror(r))
                 : r   ? EXIT_FAULT
                       : EXIT_OK;
            rc = cli_log_end(o, &log, o->fmt->name, r < 0 ? cg_strerror(r) : r ? "failed" : "ok",
                             dev, rc);
        }
    }
    cg_asm_destroy(as);
    cg_device_destroy(dev);
    return rc;
}

int cmd_run(const cli_opts *o)
{
    int rc = EXIT_OK;
    cli_opts co = *o;
    if (!o->family && (co.family = capture_family_of(o)) != NULL)
        o = &co; /* a cmdgpu capture names its family */
    const cg_text_format *fmt = cli_format_for(o, "run", &rc);
    if (!fmt)
        return rc;
    co = *o;
    co.fmt = fmt;
    o = &co;
    if (!fmt->scenes && !fmt->run_program)
        return cli_error(EXIT_USAGE, "run is not supported for family '%s' yet", fmt->name);
    if ((rc = cli_family_opts(o, fmt->family)) != EXIT_OK)
        return rc;
    cli_progress_start("run");
    if (fmt->run_program)
        rc = run_program(o);
    else if ((rc = capture_run(o)) < 0)
        rc = cli_run_scene(o);
    cli_progress_stop();
    return rc;
}

/* ---- check ----------------------------------------------------------------- */

int cmd_check(const cli_opts *o)
{
    int rc = EXIT_OK;
    const cg_text_format *fmt = cli_format_for(o, "check", &rc);
    if (!fmt)
        return rc;
    const cg_family_desc *fam = fmt->family;
    if (!fam || !fam->check || !fmt->scenes)
        return cli_error(EXIT_USAGE, "check is not supported for family '%s' yet", fmt->name);
    cli_opts co = *o;
    co.fmt = fmt;
    if ((rc = cli_family_opts(&co, fam)) != EXIT_OK)
        return rc;
    if (o->nargs != 1)
        return cli_error(EXIT_USAGE, "check: give one source file (or - for stdin)");
    cg_text_opts t = cli_text_opts(&co);
    cg_check_report r;
    cg_check_report_init(&r);
    char msg[512] = "";
    int e = fam->check(&t, o->args[0], &r, stderr, msg, sizeof msg);
    if (e == CG_ERR_SYNTAX)
        rc = EXIT_INPUT; /* the errors are printed */
    else if (e == CG_ERR_UNSUPPORTED)
        rc = cli_error(EXIT_USAGE, "%s", msg);
    else if (e < 0)
        rc = cli_error(EXIT_INPUT, "%s", msg[0] ? msg : cg_strerror(e));
    else {
        cg_check_print(stdout, &r, fam->name, o->json);
        rc = r.n + r.dropped ? EXIT_FAULT : EXIT_OK;
    }
    cg_check_report_free(&r);
    return rc;
}
