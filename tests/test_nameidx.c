/* The hashed name lookups the assemblers use give exactly what a scan of
 * the same table gives: every nv class method name (first entry of that
 * name), every radeon type-3 mnemonic per generation, and every radeon
 * register name and array element spelling (first, last, one past the
 * last, leading zero), plus names that are no register. */
#include <stdio.h>
#include "check.h"
#include "cmdgpu/nv.h"
#include "core/nameidx.h"
#include "radeon/radeon_internal.h"

static const char *str_at(const void *tab, size_t i) { return ((const char *const *)tab)[i]; }

static void test_index(void)
{
    static const char *const names[] = {"A", "B", NULL, "A", "LONG_NAME_1", ""};
    cg_nameidx ix;
    CHECK_EQ(cg_nameidx_build(&ix, 6, str_at, names), 0);
    uint32_t v = 99;
    CHECK(cg_nameidx_find(&ix, "A", 1, &v));
    CHECK_EQ(v, 0); /* the first of a duplicate stays */
    CHECK(cg_nameidx_find(&ix, "B", 1, &v));
    CHECK_EQ(v, 1);
    CHECK(cg_nameidx_find(&ix, "LONG_NAME_1x", 11, &v)); /* length-bounded */
    CHECK_EQ(v, 4);
    CHECK(cg_nameidx_find(&ix, "", 0, &v));
    CHECK_EQ(v, 5);
    CHECK(!cg_nameidx_find(&ix, "C", 1, &v));
    CHECK(!cg_nameidx_find(&ix, "LONG_NAME", 9, &v));
    cg_nameidx_free(&ix);
    CHECK(!cg_nameidx_find(&ix, "A", 1, &v));
}

static void test_nv(void)
{
    size_t n = 0, bad = 0;
    for (size_t k = 0; cg_nv_class_at(k); k++) {
        const cg_nv_class *c = cg_nv_class_at(k);
        for (size_t i = 0; i < c->nmethods; i++) {
            const cg_nv_method *want = NULL;
            for (size_t j = 0; j < c->nmethods && !want; j++)
                if (strcmp(c->methods[j].name, c->methods[i].name) == 0)
                    want = &c->methods[j];
            if (cg_nv_method_named(c, c->methods[i].name) != want)
                bad++;
            n++;
        }
        if (cg_nv_method_named(c, "NO_SUCH_METHOD") || cg_nv_method_named(c, ""))
            bad++;
    }
    CHECK_EQ(bad, 0);
    CHECK(n > 1000); /* every class, every method */
}

static void check_reg(cg_radeon_gen g, const char *name, size_t *bad)
{
    uint32_t a = 0xdead, b = 0xbeef;
    bool fa = rd_reg_by_name(g, name, strlen(name), &a);
    bool fb = rd_reg_by_name_scan(g, name, strlen(name), &b);
    if (fa != fb || (fa && a != b)) {
        fprintf(stderr, "gen %d %s: hashed %d 0x%x, scan %d 0x%x\n", (int)g, name, fa, a, fb, b);
        (*bad)++;
    }
}

static void test_radeon(void)
{
    size_t bad = 0, n = 0;
    for (unsigned g = 0; g < CG_RADEON_GEN_COUNT; g++) {
        const p3_desc *t = rd_p3_table((cg_radeon_gen)g);
        for (unsigned op = 0; op < 256; op++) {
            if (!t[op].name)
                continue;
            unsigned want = 256, got = 999;
            for (unsigned j = 0; j < 256 && want == 256; j++)
                if (t[j].name && strcmp(t[j].name, t[op].name) == 0)
                    want = j;
            if (cg_radeon_opcode_by_name((cg_radeon_gen)g, t[op].name, &got) != 0 || got != want)
                bad++;
            n++;
        }
        unsigned got;
        if (cg_radeon_opcode_by_name((cg_radeon_gen)g, "NOT_AN_OPCODE", &got) == 0)
            bad++;

        const rd_regtab *rt = rd_regs_of((cg_radeon_gen)g);
        for (size_t i = 0; rt && i < rt->n; i++) {
            const cg_def_entry *e = &rt->e[i];
            check_reg((cg_radeon_gen)g, e->name, &bad);
            n++;
            unsigned ipos = (e->flags >> RD_IPOS_SHIFT) & 0xFF;
            if (e->count < 2 || ipos >= strlen(e->name))
                continue;
            char buf[160];
            const unsigned idx[] = {0, 1, e->count - 1, e->count, e->count + 7, 100000};
            for (size_t k = 0; k < sizeof idx / sizeof idx[0]; k++) {
                snprintf(buf, sizeof buf, "%.*s%u%s", (int)ipos, e->name, idx[k], e->name + ipos + 1);
                check_reg((cg_radeon_gen)g, buf, &bad);
            }
            snprintf(buf, sizeof buf, "%.*s01%s", (int)ipos, e->name, e->name + ipos + 1);
            check_reg((cg_radeon_gen)g, buf, &bad); /* leading zero: never an element */
            snprintf(buf, sizeof buf, "%.*s%s", (int)ipos, e->name, e->name + ipos + 1);
            check_reg((cg_radeon_gen)g, buf, &bad); /* no digits */
        }
        check_reg((cg_radeon_gen)g, "NOT_A_REGISTER", &bad);
        check_reg((cg_radeon_gen)g, "123", &bad);
        check_reg((cg_radeon_gen)g, "", &bad);
    }
    CHECK_EQ(bad, 0);
    CHECK(n > 2000);
}

int main(void)
{
    test_index();
    test_nv();
    test_radeon();
    return check_report("test_nameidx");
}
