/* cmdgpu check -f nv: the nv stream validator's front end. The input is an
 * nv scene (the .s files `cmdgpu run -f nv` takes): its .buffer mappings,
 * .section bytes and .submit entries are checked without running anything
 * (docs/nv-check.md). Exit 0 clean, 1 violations, 3 input errors. */
#include <stdlib.h>
#include "cli.h"
#include "cmdgpu/common.h"
#include "cmdgpu/nv_check.h"

int nv_check(const cli_opts *o)
{
    if (o->nargs != 1)
        return cli_error(EXIT_USAGE, "usage: cmdgpu check -f nv [--json] SCENE.s|-");
    const char *path = o->args[0];
    size_t size = 0;
    uint8_t *text = cli_read_file(path, CLI_MAX_SOURCE, &size);
    if (!text)
        return EXIT_INPUT;
    cg_check_report r;
    cg_check_report_init(&r);
    int rc = cg_nv_check_scene(path, (const char *)text, size, &r, stderr);
    free(text);
    if (rc) {
        cg_check_report_free(&r);
        return cli_error(EXIT_INPUT, "%s: %s", path,
                         cg_strerror(rc));
    }
    cg_check_print(stdout, &r, "nv", o->json);
    int code = r.n + r.dropped ? EXIT_FAULT : EXIT_OK;
    cg_check_report_free(&r);
    return code;
}
