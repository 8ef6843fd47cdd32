/* radeon assembler and disassembler: exact encodings, error messages, the
 * disassembly of every kind of packet, and the round trip asm(disasm(x)) == x
 * for hand-written streams and for pseudo-random words in every generation. */
#include <stdlib.h>
#include "check.h"
#include "radeon/radeon_internal.h"
#include "cmdgpu/cmdgpu.h"

static int assemble(cg_radeon_gen gen, const char *src, uint8_t **out, size_t *n, char *errs,
                    size_t cap)
{
    cg_radeon_asm *st;
    cg_asm *as;
    if (cg_radeon_asm_create(gen, &st) || cg_asm_create(cg_radeon_asm_family(), st, &as))
        return -1;
    cg_asm_add_source(as, "t.s", src, strlen(src));
    int rc = cg_asm_assemble(as);
    if (errs)
        snprintf(errs, cap, "%s", cg_asm_errors(as));
    *out = NULL;
    *n = 0;
    if (rc == 0 && cg_asm_section_count(as) > 0) {
        const char *name;
        uint64_t base;
        const uint8_t *data;
        size_t size;
        cg_asm_section(as, 0, &name, &base, &data, &size);
        *out = malloc(size ? size : 1);
        if (size)
            memcpy(*out, data, size);
        *n = size;
    }
    cg_asm_destroy(as);
    cg_radeon_asm_destroy(st);
    return rc;
}

static char *disasm(cg_radeon_gen gen, const uint8_t *data, size_t n, int *bad)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    cg_radeon_disasm_opts o = {.gen = gen};
    *bad = cg_radeon_disasm(&o, data, n, f);
    fclose(f);
    return buf;
}

static void roundtrip(cg_radeon_gen gen, const uint8_t *data, size_t n)
{
    int bad;
    char *text = disasm(gen, data, n, &bad);
    uint8_t *back;
    size_t m;
    char errs[2048];
    int rc = assemble(CG_RADEON_R600, text, &back, &m, errs, sizeof errs); /* .gen in the text */
    CHECK_EQ(rc, 0);
    CHECK_EQ(m, n);
    if (rc == 0 && m == n)
        CHECK_MEM(back, data, n);
    if (rc != 0 || m != n || memcmp(back, data, n)) {
        fprintf(stderr, "%s\n--\n%s\n", errs, text);
    }
    free(back);
    free(text);
}

static void test_encodings(void)
{
    uint8_t *b;
    size_t n;
    const char *src = "SET_CONFIG_REG SCRATCH_REG1, 0xDEADBEEF\n"
                      "SET_CONTEXT_REG CB_COLOR0_BASE+8, 1, 2\n"
                      "packet0 CP_INT_STATUS, 0x80000000\n"
                      "packet2\npacket2 5\n"
                      "NOP 0xCAFE0001\n"
                      "packet3 0x99, 7\n"
                      "x: INDIRECT_BUFFER x, 1, 16  # labels are byte offsets\n";
    char errs[1024];
    CHECK_EQ(assemble(CG_RADEON_R600, src, &b, &n, errs, sizeof errs), 0);
    static const uint32_t want[] = {0xC0016800, 0x141, 0xDEADBEEF, 0xC0026900, 0x12, 1, 2,
                                    0x0000304A, 0x80000000, 0x80000000, 0x80000005, 0xC0001000,
                                    0xCAFE0001, 0xC0009900, 7, 0xC0023200, 0x3C, 1, 16};
    CHECK_EQ(n, sizeof want);
    if (n == sizeof want)
        CHECK_MEM(b, want, n);
    free(b);
    /* Evergreen: MODE_CONTROL exists and SET_RESOURCE starts at 0x30000. */
    CHECK_EQ(assemble(CG_RADEON_EVERGREEN, "MODE_CONTROL 1\nSET_RESOURCE 0x30008, 9\n", &b, &n, NULL, 0), 0);
    static const uint32_t want_eg[] = {0xC0001800, 1, 0xC0016D00, 2, 9};
    CHECK_EQ(n, sizeof want_eg);
    if (n == sizeof want_eg)
        CHECK_MEM(b, want_eg, n);
    free(b);
    /* r500: packet0.one and packet1. */
    CHECK_EQ(assemble(CG_RADEON_R500, "packet0.one 0x1500, 1, 2\npacket1 0x1510, 0x1520, 3, 4\n",
                      &b, &n, NULL, 0), 0);
    static const uint32_t want_r5[] = {0x00018540, 1, 2, 0x40000000 | (0x1510 >> 2) | ((0x1520 >> 2) << 11), 3, 4};
    CHECK_EQ(n, sizeof want_r5);
    if (n == sizeof want_r5)
        CHECK_MEM(b, want_r5, n);
    free(b);
}

static void test_errors(void)
{
    uint8_t *b;
    size_t n;
    char errs[1024];
    CHECK_EQ(assemble(CG_RADEON_R600, "SET_CONFIG_REG 0x28000, 1\n", &b, &n, errs, sizeof errs),
             CG_ERR_SYNTAX);
    CHECK_STR(errs, "t.s:1:26: SET_CONFIG_REG: register 0x28000 is not in its window [0x8000, 0xac00)\n");
    CHECK_EQ(assemble(CG_RADEON_R600, "MODE_CONTROL 1\n", &b, &n, errs, sizeof errs), CG_ERR_SYNTAX);
    CHECK_STR(errs, "t.s:1:1: unknown mnemonic 'MODE_CONTROL'\n");
    CHECK_EQ(assemble(CG_RADEON_R600, "packet1 0, 4, 1, 2\n", &b, &n, errs, sizeof errs), CG_ERR_SYNTAX);
    CHECK_STR(errs, "t.s:1:19: packet1 exists only on r500 (R600 faults on type 1)\n");
    CHECK_EQ(assemble(CG_RADEON_R600, "NOP 0x100000000\n", &b, &n, errs, sizeof errs), CG_ERR_SYNTAX);
    CHECK_STR(errs, "t.s:1:16: value 4294967296 does not fit in a dword\n");
    CHECK_EQ(assemble(CG_RADEON_R600, ".gen r900\n", &b, &n, errs, sizeof errs), CG_ERR_SYNTAX);
    CHECK_STR(errs, "t.s:1:10: unknown generation 'r900' (r600, r700, evergreen, r500)\n");
    CHECK_EQ(assemble(CG_RADEON_R600, "NOP\n", &b, &n, errs, sizeof errs), CG_ERR_SYNTAX);
    CHECK_STR(errs, "t.s:1:4: NOP needs at least 1 operand\n");
    /* Scene mappings: page-aligned, 1 page to 64 MiB, inside 40 bits. */
    const char *bad_maps[] = {".map 0x4000800, 0x1000\n", ".map_ro 0x4000000, 0x800\n",
                              ".map 0xFFFFFFF000, 0x2000\n", ".map 0x4000000, 0\n",
                              ".map -4096, 0x1000\n"};
    for (size_t i = 0; i < sizeof bad_maps / sizeof bad_maps[0]; i++) {
        CHECK_EQ(assemble(CG_RADEON_R600, bad_maps[i], &b, &n, errs, sizeof errs), CG_ERR_SYNTAX);
        CHECK(strstr(errs, "takes a page-aligned address and 1 page to 64 MiB inside the 40-bit "
                           "address space") != NULL);
    }
    CHECK_EQ(assemble(CG_RADEON_R600, ".map 0xFFFFFFF000, 0x1000\n", &b, &n, errs, sizeof errs),
             0);
    free(b);
    CHECK_EQ(assemble(CG_RADEON_R600, ".fence_seq -1\n", &b, &n, errs, sizeof errs),
             CG_ERR_SYNTAX);
    CHECK_STR(errs, "t.s:1:14: .fence_seq takes a sequence number from 0 to 2^63-1\n");
}

static void test_disasm_text(void)
{
    static const uint32_t w[] = {0xC0016800, 0x141, 0xDEADBEEF, 0xC0019900, 1, 2, 0xC0023201, 0, 0, 0,
                                 0x40000000, 1, 2, 0xC0053C00, 1};
    uint8_t bytes[sizeof w + 2] = {0}; /* two trailing bytes */
    memcpy(bytes, w, sizeof w);
    int bad;
    char *t = disasm(CG_RADEON_R600, bytes, sizeof bytes, &bad);
    CHECK_EQ(bad, 3); /* unknown opcode, type 1 on R600, truncated WAIT_REG_MEM */
    CHECK(strstr(t, "SET_CONFIG_REG SCRATCH_REG1, 0xdeadbeef  # 0x0000 c0016800 type 3, count 1\n") != NULL);
    CHECK(strstr(t, "    # 0x0008 deadbeef  SCRATCH_REG1 = 0xdeadbeef\n") != NULL);
    CHECK(strstr(t, "packet3 0x99, 0x1, 0x2  # 0x000c c0019900 type 3, count 1 UNKNOWN opcode 0x99 for r600\n") != NULL);
    CHECK(strstr(t, ".word 0xc0023201  # 0x0018 type-3 INDIRECT_BUFFER count 2 with header bits 7:0 = 0x01\n") != NULL);
    CHECK(strstr(t, ".word 0x40000000  # 0x0028 BAD: type-1 packet (R1xx-R5xx only; the CP faults)\n") != NULL);
    CHECK(strstr(t, ".word 0xc0053c00  # 0x0034 TRUNCATED: type-3 packet of 7 dwords, 2 in the input\n") != NULL);
    CHECK(strstr(t, ".byte 0x00, 0x00  # 0x003c trailing bytes (not a dword)\n") != NULL);
    free(t);
    roundtrip(CG_RADEON_R600, bytes, sizeof bytes);
    /* JSON */
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    cg_radeon_disasm_opts o = {.gen = CG_RADEON_R600, .json = true};
    cg_radeon_disasm(&o, (const uint8_t *)w, 12, f);
    fclose(f);
    CHECK_STR(buf, "{\"family\":\"radeon\",\"gen\":\"r600\",\"dwords\":3,\"packets\":[{\"offset\":0,"
                   "\"addr\":\"0x0\",\"type\":\"3\",\"name\":\"SET_CONFIG_REG\",\"words\":[\"0xc0016800\","
                   "\"0x00000141\",\"0xdeadbeef\"],\"confidence\":\"partial\"}],\"tail\":[],\"bad\":0}\n");
    free(buf);
}

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static uint32_t rnd(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (uint32_t)(rng_state >> 16);
}

static void test_random_roundtrip(void)
{
    /* Words biased towards plausible headers (small counts, known opcodes),
     * plus raw noise; every generation. */
    static const uint8_t ops[] = {0x10, 0x18, 0x24, 0x28, 0x29, 0x32, 0x3C, 0x3D, 0x41, 0x47, 0x68,
                                  0x69, 0x6A, 0x6D, 0x73, 0x99, 0x12, 0x2A};
    for (int gen = 0; gen < CG_RADEON_GEN_COUNT; gen++) {
        for (int iter = 0; iter < 200; iter++) {
            uint32_t w[64];
            size_t n = 1 + rnd() % 64;
            for (size_t i = 0; i < n; i++) {
                uint32_t r = rnd();
                switch (r % 5) {
                case 0: w[i] = 0xC0000000u | ((rnd() % 6) << 16) | ((uint32_t)ops[rnd() % sizeof ops] << 8) | (rnd() % 8 == 0 ? rnd() & 0xff : 0); break;
                case 1: w[i] = ((rnd() % 4) << 16) | (rnd() & 0xFFFF) | (rnd() % 4 == 0 ? 0x8000 : 0); break;
                case 2: w[i] = 0x80000000u | (rnd() % 3 == 0 ? rnd() & 0x3FFFFFFF : 0); break;
                case 3: w[i] = 0x40000000u | (rnd() & 0x3FFFFF); break;
                default: w[i] = rnd() % 3 ? rnd() % 0x400 : rnd(); break;
                }
            }
            roundtrip((cg_radeon_gen)gen, (const uint8_t *)w, 4 * n - (rnd() % 7 == 0 ? 1 : 0));
        }
    }
}

static void test_follow_ib(void)
{
    /* Image at 0x100000000: IB1 at +0x100 calls IB2 at +0x200, which calls
     * itself (a third level, not followed). */
    static uint32_t image[256];
    memset(image, 0, sizeof image);
    uint32_t ib1[] = {0xC0016800, 0x142, 0x5, 0xC0023200, 0x200, 1, 4};
    uint32_t ib2[] = {0xC0023200, 0x200, 1, 4};
    memcpy(&image[0x40], ib1, sizeof ib1);
    memcpy(&image[0x80], ib2, sizeof ib2);
    uint32_t ring[] = {0xC0023200, 0x100, 1, 7, 0xC0023200, 0x800, 1, 4};
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    cg_radeon_disasm_opts o = {.gen = CG_RADEON_R600, .image = (const uint8_t *)image,
                               .image_size = sizeof image, .image_base = 0x100000000ull};
    CHECK_EQ(cg_radeon_disasm(&o, (const uint8_t *)ring, sizeof ring, f), 0);
    fclose(f);
    CHECK(strstr(buf, "    #| IB1 at 0x100000100, 7 dwords:\n") != NULL);
    CHECK(strstr(buf, "    #|   SET_CONFIG_REG SCRATCH_REG2, 0x5  # 0x100000100 c0016800 type 3, count 1\n") != NULL);
    CHECK(strstr(buf, "    #|       #| IB2 at 0x100000200, 4 dwords:\n") != NULL);
    CHECK(strstr(buf, "#| (not followed: a third IB level faults on the CP)") != NULL);
    CHECK(strstr(buf, "    #| IB at 0x100000800 (4 dwords) is not in the supplied image\n") != NULL);
    uint8_t *back;
    size_t m;
    CHECK_EQ(assemble(CG_RADEON_R600, buf, &back, &m, NULL, 0), 0);
    CHECK_EQ(m, sizeof ring);
    if (m == sizeof ring)
        CHECK_MEM(back, ring, m);
    free(back);
    free(buf);
    cg_radeon_disasm_opts bad = {.gen = CG_RADEON_R600, .image_size = 4};
    CHECK_EQ(cg_radeon_disasm(&bad, (const uint8_t *)ring, 4, stdout), CG_ERR_INVAL);
}

/* Every register of every SET_* window, one SET packet each, reassembles
 * from its disassembly in every generation: the names the disassembler
 * prints (CB_COLOR1_BASE, SQ_TEX_RESOURCE_WORD4_7, Evergreen's own
 * offsets for names the R600 model table also has) resolve back. */
static void test_every_register_roundtrip(void)
{
    static const cg_radeon_gen gens[] = {CG_RADEON_R600, CG_RADEON_R700, CG_RADEON_EVERGREEN};
    for (size_t g = 0; g < sizeof gens / sizeof gens[0]; g++) {
        size_t cap = 3 * 20000, n = 0;
        uint32_t *w = malloc(4 * cap);
        for (unsigned op = 0x68; op <= 0x6F; op++) {
            uint32_t s, e;
            if (!rd_window(gens[g], op, &s, &e))
                continue;
            for (uint32_t r = s; r < e && n + 3 <= cap; r += 4) {
                w[n++] = CG_RADEON_PACKET3(op, 1);
                w[n++] = (r - s) / 4;
                w[n++] = r;
            }
        }
        CHECK(n > 3 * 10000);
        roundtrip(gens[g], (const uint8_t *)w, 4 * n);
        free(w);
    }
}

int main(void)
{
    test_every_register_roundtrip();
    test_encodings();
    test_errors();
    test_disasm_text();
    test_follow_ib();
    test_random_roundtrip();
    return check_report("test_radeon_asm");
}
