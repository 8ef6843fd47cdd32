/* cmdgpu core: the validators' report (include/cmdgpu/check.h). */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "cmdgpu/check.h"
#include "json.h"

void cg_check_report_init(cg_check_report *r)
{
    if (r)
        memset(r, 0, sizeof(*r));
}

void cg_check_report_free(cg_check_report *r)
{
    if (!r)
        return;
    free(r->v);
    memset(r, 0, sizeof(*r));
}

int cg_check_add(cg_check_report *r, const char *rule, uint64_t where, uint32_t word,
                 const char *fmt, ...)
{
    if (!r)
        return CG_ERR_INVAL;
    if (r->n == CG_CHECK_MAX) {
        r->dropped++;
        return 0;
    }
    if (r->n == r->cap) {
        size_t cap = r->cap ? 2 * r->cap : 16;
        cg_check_violation *v = realloc(r->v, cap * sizeof(*v));
        if (!v) {
            r->dropped++;
            return CG_ERR_NOMEM;
        }
        r->v = v;
        r->cap = cap;
    }
    cg_check_violation *x = &r->v[r->n++];
    x->rule = rule ? rule : "?";
    x->where = where;
    x->word = word;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(x->message, sizeof(x->message), fmt, ap);
    va_end(ap);
    return 0;
}

void cg_check_print(FILE *f, const cg_check_report *r, const char *family, bool json)
{
    if (!f || !r)
        return;
    if (!json) {
        for (size_t i = 0; i < r->n; i++)
            fprintf(f, "0x%08llx: %s: %s [word 0x%08x]\n", (unsigned long long)r->v[i].where,
                    r->v[i].rule, r->v[i].message, r->v[i].word);
        fprintf(f, "%s: %zu item(s) checked, %zu violation(s)%s\n", family ? family : "check",
                r->checked, r->n + r->dropped, r->n + r->dropped ? "" : ": ok");
        return;
    }
    char buf[CG_CHECK_MSG_LEN * 6 + 256];
    fprintf(f, "{\"family\":");
    cg_json j;
    cg_json_init(&j, buf, sizeof(buf));
    cg_json_raw(&j, "\"");
    cg_json_escape(&j, family ? family : "");
    cg_json_raw(&j, "\"");
    fputs(buf, f);
    fprintf(f, ",\"checked\":%zu,\"violations\":[", r->checked);
    for (size_t i = 0; i < r->n; i++) {
        cg_json_init(&j, buf, sizeof(buf));
        cg_json_begin(&j);
        cg_json_str(&j, "rule", r->v[i].rule);
        cg_json_hex(&j, "where", r->v[i].where);
        cg_json_hex(&j, "word", r->v[i].word);
        cg_json_str(&j, "message", r->v[i].message);
        cg_json_end(&j);
        fprintf(f, "%s%s", i ? "," : "", buf);
    }
    fprintf(f, "],\"dropped\":%zu,\"ok\":%s}\n", r->dropped, r->n + r->dropped ? "false" : "true");
}
