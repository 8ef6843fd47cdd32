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

int radeon_run(const cli_opts *o)
{
    if (o->nargs != 1)
        return cli_error(EXIT_USAGE, "run: give one scene file (or - for stdin)");
    if (o->ndumps)
        return cli_error(EXIT_USAGE,
                         "run: --dump is not supported for radeon yet; use .dump ADDR, NDW in the scene");
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
    if ((rc = cli_asm_load(o->args[0], cg_radeon_asm_family(), st, &as)) != EXIT_OK)
        goto out;
    if (o->trace && cg_trace_add(dev, cg_trace_write_text, stdout) < 0) {
        rc = cli_error(EXIT_INPUT, "run: cannot attach the trace");
        goto out;
    }
    cg_radeon_hang_recorder *hr = NULL;
    cg_radeon_hang_recorder_create(dev, &hr); /* the hang report (docs/captures.md) */
    int r = cg_radeon_scene_run(st, as, dev, stdout);
    if (r < 0)
        rc = cli_error(EXIT_INPUT, "run: cannot set up the radeon model: %s", cg_strerror(r));
    else
        rc = r ? EXIT_FAULT : EXIT_OK;
    if (r > 0 && hr)
        cg_radeon_hang_report(hr, o->json, stdout);
    cg_radeon_hang_recorder_destroy(hr);
out:
    cg_device_destroy(dev);
    cg_asm_destroy(as);
    cg_radeon_asm_destroy(st);
    return rc;
}
