/* The validators' report (check.h): every violation kept in order, the cap,
 * text and JSON output. */
#include <stdlib.h>
#include "check.h"
#include "cmdgpu/cmdgpu.h"

int main(void)
{
    cg_check_report r;
    cg_check_report_init(&r);
    CHECK_EQ(r.n, 0);
    CHECK_EQ(cg_check_add(&r, "rule-a", 0x10, 0xC0001000u, "first %d", 1), 0);
    CHECK_EQ(cg_check_add(&r, "rule-b", 0x24, 7, "second \"quoted\""), 0);
    r.checked = 5;
    CHECK_EQ(r.n, 2);
    CHECK_STR(r.v[0].rule, "rule-a");
    CHECK_EQ(r.v[1].where, 0x24);
    CHECK_STR(r.v[1].message, "second \"quoted\"");

    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    cg_check_print(f, &r, "radeon", false);
    fclose(f);
    CHECK_STR(buf, "0x00000010: rule-a: first 1 [word 0xc0001000]\n"
                   "0x00000024: rule-b: second \"quoted\" [word 0x00000007]\n"
                   "radeon: 5 item(s) checked, 2 violation(s)\n");
    free(buf);
    f = open_memstream(&buf, &len);
    cg_check_print(f, &r, "radeon", true);
    fclose(f);
    CHECK_STR(buf, "{\"family\":\"radeon\",\"checked\":5,\"violations\":["
                   "{\"rule\":\"rule-a\",\"where\":\"0x10\",\"word\":\"0xc0001000\","
                   "\"message\":\"first 1\"},"
                   "{\"rule\":\"rule-b\",\"where\":\"0x24\",\"word\":\"0x7\","
                   "\"message\":\"second \\\"quoted\\\"\"}],\"dropped\":0,\"ok\":false}\n");
    free(buf);

    /* the cap: violations past CG_CHECK_MAX are counted, not kept */
    for (int i = 0; i < CG_CHECK_MAX + 3; i++)
        cg_check_add(&r, "many", (uint64_t)i, 0, "x");
    CHECK_EQ(r.n, CG_CHECK_MAX);
    CHECK_EQ(r.dropped, 5);
    cg_check_report_free(&r);
    CHECK_EQ(r.n, 0);
    CHECK(r.v == NULL);

    /* an empty report is ok */
    cg_check_report_init(&r);
    f = open_memstream(&buf, &len);
    cg_check_print(f, &r, "vc4", false);
    fclose(f);
    CHECK_STR(buf, "vc4: 0 item(s) checked, 0 violation(s): ok\n");
    free(buf);
    CHECK_EQ(cg_check_add(NULL, "x", 0, 0, "x"), CG_ERR_INVAL);
    cg_check_report_free(&r);
    return check_report("test_check_report");
}
