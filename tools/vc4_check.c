/* cmdgpu check -f vc4: the stream validator's front end. The input is vc4
 * assembler source describing a DRM_IOCTL_VC4_SUBMIT_CL job (sections
 * bin_cl, shader_rec, uniforms, bo<N> / shader<N>; docs/vc4-check.md), or a
 * bare-metal scene, whose first `.kick 0` list is checked as the bin CL. */
#include <stdlib.h>
#include "cli.h"
#include "cmdgpu/cmdgpu.h"
#include "cmdgpu/vc4_check.h"

int vc4_check(const cli_opts *o)
{
    if (o->nargs != 1)
        return cli_error(EXIT_USAGE, "check: give one source file (or - for stdin)");
    cg_vc4_asm *st;
    if (cg_vc4_asm_create(&st) != 0)
        return cli_error(EXIT_INPUT, "out of memory");
    cg_asm *as;
    int rc = cli_asm_load(o->args[0], cg_vc4_asm_family(), st, &as);
    if (rc != EXIT_OK) {
        cg_vc4_asm_destroy(st);
        return rc;
    }
    cg_check_report r;
    cg_check_report_init(&r);
    char err[256];
    int e = cg_vc4_check_asm(as, st, &r, err, sizeof err);
    if (e != 0) {
        rc = cli_error(EXIT_INPUT, "check: %s", err[0] ? err : cg_strerror(e));
    } else {
        cg_check_print(stdout, &r, "vc4", o->json);
        rc = r.n + r.dropped ? EXIT_FAULT : EXIT_OK;
    }
    cg_check_report_free(&r);
    cg_asm_destroy(as);
    cg_vc4_asm_destroy(st);
    return rc;
}
