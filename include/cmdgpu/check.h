/* cmdgpu: stream validators (`cmdgpu check`), the user-space version of what
 * kernels check before they run an untrusted command stream. A validator
 * reads a stream without running it and reports every rule it breaks, not
 * only the first. This header has the report every family's validator fills;
 * the validators themselves are in radeon_check.h, vc4_check.h, nv_check.h. */
#ifndef CMDGPU_CHECK_H
#define CMDGPU_CHECK_H

#include <stdio.h>
#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CG_CHECK_MSG_LEN 200
#define CG_CHECK_MAX 4096 /* violations kept; more are counted in `dropped` */

typedef struct cg_check_violation {
    const char *rule;     /* the rule's id, e.g. "packet-allowed" (a static string) */
    uint64_t where;       /* byte offset in the stream, or the address, as the rule says */
    uint32_t word;        /* the offending word (header, register, ...) */
    char message[CG_CHECK_MSG_LEN];
} cg_check_violation;

typedef struct cg_check_report {
    cg_check_violation *v;
    size_t n, cap;
    size_t dropped;       /* violations past CG_CHECK_MAX (or lost to out of memory) */
    size_t checked;       /* items the validator looked at (packets, records, ...) */
} cg_check_report;

CG_API void cg_check_report_init(cg_check_report *r);
CG_API void cg_check_report_free(cg_check_report *r);
/* Record a violation. Returns 0, or CG_ERR_NOMEM (counted in dropped). */
CG_API int cg_check_add(cg_check_report *r, const char *rule, uint64_t where, uint32_t word,
                        const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;
/* Print the report: one line per violation ("0x<where>: <rule>: <message>
 * [word 0x...]") and a summary line, or with json one object
 * {"family":..., "checked":N, "violations":[{"rule","where","word","message"}],
 * "dropped":N, "ok":bool}. */
CG_API void cg_check_print(FILE *f, const cg_check_report *r, const char *family, bool json);

#ifdef __cplusplus
}
#endif
#endif
