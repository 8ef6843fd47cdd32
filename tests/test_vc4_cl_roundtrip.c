/* The vc4 control-list disassembler's promise, as a property: for any bytes
 * x, assemble(disassemble(x)) == x byte for byte (issue 16: a compressed
 * list in a format other than 16-bit triangles used to drop the rest of the
 * input), and the JSON form gives every byte back, in order, with the
 * bytes it cannot explain counted in "bad" and marked "bad":true.
 *
 * Inputs: deterministic pseudo-random buffers of several sizes up to 64 KiB,
 * and buffers built from valid records (every opcode of cl.def) with random
 * payloads, Primitive_List_Format records of random formats and compressed
 * lists of random items. */
#include <stdlib.h>
#include "check.h"
#include "vc4/vc4_internal.h"

static uint64_t rng = 0x9E3779B97F4A7C15ull;
static uint32_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)(rng >> 16);
}

static uint8_t *assemble(const char *src, size_t *n)
{
    cg_vc4_asm *st;
    cg_asm *as;
    uint8_t *out = NULL;
    *n = 0;
    if (cg_vc4_asm_create(&st) || cg_asm_create(cg_vc4_asm_family(), st, &as))
        return NULL;
    cg_asm_add_source(as, "t.s", src, strlen(src));
    if (cg_asm_assemble(as) == 0) {
        if (cg_asm_section_count(as) > 0) {
            const char *nm;
            uint64_t base;
            const uint8_t *d;
            cg_asm_section(as, 0, &nm, &base, &d, n);
            out = malloc(*n ? *n : 1);
            if (out)
                memcpy(out, d, *n);
        } else {
            out = malloc(1);
        }
    } else {
        fputs(cg_asm_errors(as), stderr);
    }
    cg_asm_destroy(as);
    cg_vc4_asm_destroy(st);
    return out;
}

static char *disasm(const uint8_t *x, size_t n, bool json, int *bad)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    cg_vc4_disasm_opts o = {.base = 0x10000, .json = json};
    *bad = cg_vc4_cl_disasm(&o, x, n, f);
    fclose(f);
    return text;
}

static int hexval(char c) { return c <= '9' ? c - '0' : c - 'a' + 10; }

/* The JSON items' "bytes", concatenated, and the count of "bad":true. */
static size_t json_bytes(const char *t, uint8_t *out, size_t cap, int *nbad)
{
    size_t n = 0;
    *nbad = 0;
    for (const char *p = t; (p = strstr(p, "\"bad\":true")) != NULL; p++)
        (*nbad)++;
    for (const char *p = t; (p = strstr(p, "\"bytes\":\"")) != NULL;) {
        p += 9;
        while (*p != '"' && n < cap) {
            out[n++] = (uint8_t)(hexval(p[0]) << 4 | hexval(p[1]));
            p += 2;
            if (*p == ' ')
                p++;
        }
    }
    return n;
}

static int failures_shown;

static void check_one(const uint8_t *x, size_t n, bool json_too)
{
    int bad;
    char *text = disasm(x, n, false, &bad);
    size_t m;
    uint8_t *y = assemble(text, &m);
    CHECK(y != NULL);
    CHECK_EQ(m, n);
    bool same = y && m == n && memcmp(x, y, n) == 0;
    CHECK(same);
    if (!same && failures_shown++ < 1) {
        size_t i = 0;
        while (y && i < n && i < m && x[i] == y[i])
            i++;
        fprintf(stderr, "round trip differs at byte %zu of %zu (got %zu)\n", i, n, m);
    }
    free(y);
    free(text);
    if (!json_too)
        return;
    int jbad;
    text = disasm(x, n, true, &jbad);
    CHECK_EQ(jbad, bad);
    uint8_t *z = malloc(n + 1);
    int marked;
    size_t k = json_bytes(text, z, n + 1, &marked);
    CHECK_EQ(k, n);
    CHECK(k == n && memcmp(z, x, n) == 0);
    CHECK_EQ(marked, jbad);
    char tail[32];
    snprintf(tail, sizeof tail, "],\"bad\":%d}", jbad);
    CHECK(strstr(text, tail) != NULL);
    free(z);
    free(text);
}

/* A buffer of valid records with random payloads. */
static size_t build_records(uint8_t *b, size_t cap)
{
    size_t n = 0, nrec = vc4_record_count();
    while (n + 32 < cap) {
        vc4_record r;
        vc4_record_at(rnd() % nrec, &r);
        b[n] = r.opcode;
        for (unsigned i = 1; i < r.size; i++)
            b[n + i] = (uint8_t)rnd();
        if (r.opcode == 56 && rnd() % 2)
            b[n + 1] = 0x12; /* mostly triangles, sometimes others */
        n += r.size;
        if (r.opcode == 48 || r.opcode == 49) {
            /* compressed items: a random run ending in an escape (usually) */
            unsigned k = rnd() % 12;
            for (unsigned i = 0; i < k && n + 8 < cap; i++) {
                uint8_t v = (uint8_t)rnd();
                if (v == 0x80 || v == 0x82)
                    v = 0x04;
                b[n++] = v;
            }
            if (rnd() % 8)
                b[n++] = 0x80;
        }
    }
    return n;
}

int main(void)
{
    static uint8_t buf[65536];
    static const size_t sizes[] = {1, 2, 5, 16, 64, 256, 1024};
    unsigned count = 0;
    for (unsigned round = 0; round < 400; round++)
        for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
            for (size_t i = 0; i < sizes[s]; i++)
                buf[i] = (uint8_t)rnd();
            check_one(buf, sizes[s], round % 8 == 0);
            count++;
        }
    for (unsigned round = 0; round < 2; round++) {
        for (size_t i = 0; i < sizeof buf; i++)
            buf[i] = (uint8_t)rnd();
        check_one(buf, sizeof buf, true);
        count++;
    }
    for (unsigned round = 0; round < 600; round++) {
        size_t n = build_records(buf, round % 200 == 0 ? sizeof buf : 64 + rnd() % 512);
        check_one(buf, n, round % 4 == 0);
        count++;
    }
    /* issue 16's case: a list in 32-bit x/y format, then records */
    static const uint8_t xy[] = {0x38, 0x32, 0x30, 0x11, 0x22, 0x33, 0x80, 0x73, 0x01, 0x02, 0x00};
    int bad;
    char *t = disasm(xy, sizeof xy, false, &bad);
    CHECK_EQ(bad, 1);
    CHECK(strstr(t, "Tile_Coordinates") != NULL);
    CHECK(strstr(t, ".byte 0x11, 0x22, 0x33, 0x80") != NULL);
    free(t);
    check_one(xy, sizeof xy, true);
    CHECK(count > 3000);
    printf("%u buffers round-tripped\n", count);
    return check_report("test_vc4_cl_roundtrip");
}
