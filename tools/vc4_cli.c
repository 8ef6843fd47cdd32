/* cmdgpu command: the vc4 family front end (disasm, asm, run of control
 * lists and scenes; `-f vc4` and `-f vc4-cl` are the same front end). */
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "cmdgpu/cmdgpu.h"

int vc4_disasm(const cli_opts *o, const uint8_t *data, size_t size, FILE *out)
{
    const cli_colors *c = o->color;
    cg_vc4_disasm_opts d = {.base = 0, .prim_format = 0x12, .json = o->json,
                            .c_name = c->name, .c_num = c->num,
                            .c_addr = c->addr, .c_err = c->err, .c_comment = c->comment,
                            .c_reset = c->reset};
    int rc = cg_vc4_cl_disasm(&d, data, size, out);
    if (rc < 0)
        return cli_error(EXIT_INPUT, "disasm: %s", cg_strerror(rc));
    return EXIT_OK;
}

int vc4_assemble(const cli_opts *o, const char *path)
{
    cg_vc4_asm *st;
    if (cg_vc4_asm_create(&st) != 0)
        return cli_error(EXIT_INPUT, "out of memory");
    int rc = cli_assemble(o, path, cg_vc4_asm_family(), st);
    cg_vc4_asm_destroy(st);
    return rc;
}

struct vc4_scene {
    cg_vc4_asm *st;
    cg_asm *as;
    cg_device *dev;
    cg_vc4_scene_opts so;
    const cg_capfile *replay; /* run this capture instead (docs/capture-format.md) */
    int result;               /* the runner's, for --capture */
    cg_vc4_hang_recorder *hang; /* the hang report (docs/captures.md); may be NULL */
};

static int run_scene(void *ctx, FILE *log)
{
    struct vc4_scene *s = ctx;
    s->result = s->replay ? cg_vc4_capfile_run(s->replay, s->dev, &s->so, log)
                          : cg_vc4_scene_run(s->st, s->as, s->dev, &s->so, log);
    return s->result;
}

static int hang_report(void *ctx, bool json, FILE *out)
{
    struct vc4_scene *s = ctx;
    return s->hang ? cg_vc4_hang_report(s->hang, json, out) : 0;
}

int vc4_run(const cli_opts *o)
{
    if (o->nargs != 1)
        return cli_error(EXIT_USAGE, "run: give one scene file (or - for stdin)");
    cg_vc4_asm *st = NULL;
    cg_asm *as = NULL;
    cg_device *dev = NULL;
    int rc = EXIT_OK;
    if (cg_vc4_asm_create(&st) != 0 || !(dev = cli_device_create(o))) {
        rc = cli_error(EXIT_INPUT, "out of memory");
        goto out;
    }
    cg_device_set_coherency(dev, CG_COHERENCY_WARN);
    if (o->trace &&
        cg_trace_add(dev, o->json ? cg_trace_write_json : cg_trace_write_text, stdout) < 0) {
        rc = cli_error(EXIT_INPUT, "run: cannot attach the trace");
        goto out;
    }
    if (!o->replay && (rc = cli_asm_load(o->args[0], cg_vc4_asm_family(), st, &as)) != EXIT_OK)
        goto out;
    cg_capfile_writer *cw = cli_capture_begin(o, CG_FAMILY_VC4, dev, &rc);
    if (rc != EXIT_OK || (cw && cg_vc4_scene_capture(st, as, cw) != 0)) {
        cg_capfile_writer_destroy(cw);
        rc = rc != EXIT_OK ? rc : cli_error(EXIT_INPUT, "--capture: cannot record the scene");
        goto out;
    }
    /* -o: refuse a path that cannot be created before running anything */
    cli_out_probe probe;
    if (!cli_probe_out(o->output, &probe)) {
        cg_capfile_writer_destroy(cw);
        rc = EXIT_INPUT;
        goto out;
    }
    struct vc4_scene sc = {st, as, dev, {.png = o->output}, o->replay, 0, NULL};
    cg_vc4_hang_recorder_create(dev, &sc.hang); /* no report if it cannot be made */
    rc = cli_run_scene(o, "vc4", dev, run_scene, hang_report, &sc);
    cg_vc4_hang_recorder_destroy(sc.hang);
    rc = cli_capture_end(o, cw, sc.result, dev, rc);
    rc = cli_replay_check(o, sc.result, dev, rc);
    if (rc != EXIT_OK)
        cli_drop_unwritten_output(o->output, &probe);
out:
    cg_device_destroy(dev);
    cg_asm_destroy(as);
    cg_vc4_asm_destroy(st);
    return rc;
}
