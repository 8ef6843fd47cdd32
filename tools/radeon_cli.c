/* cmdgpu command: the radeon family front end (disasm, asm, run). */
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "cmdgpu/cmdgpu.h"

static int gen_of(const cli_opts *o, cg_radeon_gen *g)
{
    *g = CG_RADEON_R600;
    if (o->gen && cg_radeon_gen_from_name(o->gen, g) != 0)
        return cli_error(EXIT_USAGE, "--gen: unknown radeon generation '%s' (r600, r700, evergreen, r500)",
                         o->gen);
    return EXIT_OK;
}

int radeon_disasm(const cli_opts *o, const uint8_t *data, size_t size, FILE *out)
{
    cg_radeon_gen g;
    int rc = gen_of(o, &g);
    if (rc != EXIT_OK)
        return rc;
    const cli_colors *c = o->color;
    /* The input is also the memory image, loaded at GPU address 0: an
     * INDIRECT_BUFFER pointing inside the file is followed. */
    cg_radeon_disasm_opts d = {.gen = g, .json = o->json, .c_name = c->name, .c_num = c->num,
                               .c_addr = c->addr, .c_err = c->err, .c_comment = c->comment,
                               .c_reset = c->reset, .image = data, .image_size = size,
                               .image_base = 0};
    rc = cg_radeon_disasm(&d, data, size, out);
    if (rc < 0)
        return cli_error(EXIT_INPUT, "disasm: %s", cg_strerror(rc));
    return EXIT_OK;
}

int radeon_assemble(const cli_opts *o, const char *path)
{
    cg_radeon_gen g;
    int rc = gen_of(o, &g);
    if (rc != EXIT_OK)
        return rc;
    cg_radeon_asm *st;
    if (cg_radeon_asm_create(g, &st) != 0)
        return cli_error(EXIT_INPUT, "out of memory");
    rc = cli_assemble(o, path, cg_radeon_asm_family(), st);
    cg_radeon_asm_destroy(st);
    return rc;
}

struct radeon_scene {
    cg_radeon_asm *st;
    cg_asm *as;
    cg_device *dev;
    cg_radeon_hang_recorder *hang; /* the hang report (docs/captures.md); may be NULL */
    const cg_capfile *replay;      /* run this capture instead (docs/capture-format.md) */
    int result;                    /* the runner's, for --capture */
};

static int run_scene(void *ctx, FILE *log)
{
    struct radeon_scene *s = ctx;
    s->result = s->replay ? cg_radeon_capfile_run(s->replay, s->dev, log)
                          : cg_radeon_scene_run(s->st, s->as, s->dev, log);
    return s->result;
}

static int hang_report(void *ctx, bool json, FILE *out)
{
    struct radeon_scene *s = ctx;
    return s->hang ? cg_radeon_hang_report(s->hang, json, out) : 0;
}

int radeon_run(const cli_opts *o)
{
    if (o->nargs != 1)
        return cli_error(EXIT_USAGE, "run: give one scene file (or - for stdin)");
    cg_radeon_gen g;
    int rc = gen_of(o, &g);
    if (rc != EXIT_OK)
        return rc;
    cg_radeon_asm *st = NULL;
    cg_asm *as = NULL;
    cg_device *dev = NULL;
    if (cg_radeon_asm_create(g, &st) != 0 || !(dev = cli_device_create(o))) {
        rc = cli_error(EXIT_INPUT, "out of memory");
        goto out;
    }
    if (!o->replay && (rc = cli_asm_load(o->args[0], cg_radeon_asm_family(), st, &as)) != EXIT_OK)
        goto out;
    if (o->trace &&
        cg_trace_add(dev, o->json ? cg_trace_write_json : cg_trace_write_text, stdout) < 0) {
        rc = cli_error(EXIT_INPUT, "run: cannot attach the trace");
        goto out;
    }
    cg_capfile_writer *cw = cli_capture_begin(o, CG_FAMILY_RADEON, dev, &rc);
    if (rc != EXIT_OK || (cw && cg_radeon_scene_capture(st, as, cw) != 0)) {
        cg_capfile_writer_destroy(cw);
        rc = rc != EXIT_OK ? rc : cli_error(EXIT_INPUT, "--capture: cannot record the scene");
        goto out;
    }
    struct radeon_scene sc = {st, as, dev, NULL, o->replay, 0};
    cg_radeon_hang_recorder_create(dev, &sc.hang); /* no report if it cannot be made */
    rc = cli_run_scene(o, "radeon", dev, run_scene, hang_report, &sc);
    rc = cli_capture_end(o, cw, sc.result, dev, rc);
    rc = cli_replay_check(o, sc.result, dev, rc);
    cg_radeon_hang_recorder_destroy(sc.hang);
out:
    cg_device_destroy(dev);
    cg_asm_destroy(as);
    cg_radeon_asm_destroy(st);
    return rc;
}
