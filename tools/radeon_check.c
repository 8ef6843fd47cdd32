/* cmdgpu check -f radeon: the stream validator's front end. The input is
 * radeon assembler source whose `.bo` directives declare the relocation
 * chunk (a binary IB comes in with .incbin); the IB is the section named by
 * --section, else the first one. Exit 0: clean, 1: violations, 2: usage,
 * 3: input errors (docs/radeon-check.md). */
#include <stdlib.h>
#include "cli.h"
#include "cmdgpu/cmdgpu.h"
#include "cmdgpu/radeon_check.h"

int radeon_check(const cli_opts *o)
{
    if (o->nargs != 1)
        return cli_error(EXIT_USAGE, "check: give one source file (or - for stdin)");
    cg_radeon_gen g = CG_RADEON_R600;
    if (o->gen && cg_radeon_gen_from_name(o->gen, &g) != 0)
        return cli_error(EXIT_USAGE,
                         "--gen: unknown radeon generation '%s' (r600, r700, evergreen, r500)",
                         o->gen);
    cg_radeon_check_src *s;
    if (cg_radeon_check_src_create(g, &s) != 0)
        return cli_error(EXIT_INPUT, "out of memory");
    cg_asm *as;
    int rc = cli_asm_load(o->args[0], cg_radeon_check_asm_family(), s, &as);
    if (rc != EXIT_OK) {
        cg_radeon_check_src_destroy(s);
        return rc;
    }
    cg_check_report r;
    cg_check_report_init(&r);
    int e = cg_radeon_check_src_run(s, as, o->section, &r);
    if (e == CG_ERR_NOENT)
        rc = o->section ? cli_error(EXIT_INPUT, "check: no section '%s' in '%s'", o->section,
                                    o->args[0])
                        : cli_error(EXIT_INPUT, "check: '%s' holds no IB (no section)", o->args[0]);
    else if (e == CG_ERR_UNSUPPORTED)
        rc = cli_error(EXIT_USAGE, "check: only r600 and r700 streams can be checked; the "
                                   "evergreen and r500 checkers are not supported yet");
    else if (e < 0)
        rc = cli_error(EXIT_INPUT, "check: %s", cg_strerror(e));
    else {
        cg_check_print(stdout, &r, "radeon", o->json);
        rc = r.n + r.dropped ? EXIT_FAULT : EXIT_OK;
    }
    cg_check_report_free(&r);
    cg_asm_destroy(as);
    cg_radeon_check_src_destroy(s);
    return rc;
}
