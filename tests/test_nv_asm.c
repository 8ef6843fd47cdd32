/* nv: assembler and disassembler. Hand-written text assembles to exact
 * words; asm(disasm(x)) == x for structured streams and for random words;
 * errors are reported with their line. */
#include <stdlib.h>
#include "check.h"
#include "cmdgpu/cmdgpu.h"
#include "cmdgpu/nv.h"

/* Assemble text; returns words (malloc'd) or NULL, errors into *err. */
static uint32_t *assemble(const char *text, const uint32_t *sc, size_t *n, char *err, size_t cap)
{
    cg_nv_asm *a;
    cg_asm *as;
    CHECK_EQ(cg_nv_asm_new(sc, &a), 0);
    CHECK_EQ(cg_asm_create(cg_nv_asm_family(), a, &as), 0);
    cg_asm_add_source(as, "t.s", text, strlen(text));
    uint32_t *w = NULL;
    *n = 0;
    if (cg_asm_assemble(as) == 0) {
        const char *name;
        uint64_t base;
        const uint8_t *data = NULL;
        size_t size = 0;
        if (cg_asm_section_count(as))
            cg_asm_section(as, 0, &name, &base, &data, &size);
        w = malloc(size + 4);
        memcpy(w, data, size);
        *n = size / 4;
    } else if (err) {
        snprintf(err, cap, "%s", cg_asm_errors(as));
    }
    cg_asm_destroy(as);
    cg_nv_asm_free(a);
    return w;
}

static char *disasm(const uint32_t *w, size_t n, const uint32_t *sc)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    cg_nv_disasm_opts o = {0};
    if (sc)
        memcpy(o.subch_class, sc, sizeof(o.subch_class));
    CHECK(cg_nv_disasm(w, n, &o, f) >= 0);
    fclose(f);
    return buf;
}

static void roundtrip(const uint32_t *w, size_t n, const uint32_t *sc)
{
    char *text = disasm(w, n, sc);
    size_t m;
    char err[2048] = "";
    uint32_t *back = assemble(text, NULL, &m, err, sizeof(err));
    CHECK(back != NULL);
    if (!back)
        fprintf(stderr, "%s", err);
    CHECK_EQ(m, n);
    if (back && m == n) {
        CHECK_MEM(back, w, n * 4);
        if (memcmp(back, w, n * 4))
            for (size_t i = 0; i < n; i++)
                if (back[i] != w[i]) {
                    fprintf(stderr, "word %zu: 0x%08x != 0x%08x\n", i, back[i], w[i]);
                    break;
                }
    }
    free(back);
    free(text);
}

static void test_exact(void)
{
    static const char text[] =
        "# every statement\n"
        "    inc 4, SET_OBJECT, 0xB0B5\n"
        "    inc 4, OFFSET_IN_UPPER, 1, 2, 3\n"
        "    noninc 2, LOAD_INLINE_DATA, 7, 8\n"
        "    oneinc 0, LOAD_CONSTANT_BUFFER_OFFSET, 0x20, 1, 2\n"
        "    mthd 0, CB_POS, 0x1FFF\n"
        "    mthd 0, CB_POS, 0x2000\n"
        "    immd 0, VERTEX_BEGIN_GL, 5\n"
        "    immd 3, SET_DST_FORMAT, 0xCF\n"
        "    hdr inc 0, VERTEX_ARRAY_START_HIGH(1), 2\n"
        "    hdr noninc 0, LOAD_CONSTANT_BUFFER(3), 0x10\n"
        "    hdr old_inc 2, 0x1B4, 3\n"
        "    hdr old_noninc 1, 0x1C, 1\n"
        "    set_subdevice_mask 0xFFF\n"
        "    store_subdevice_mask 1\n"
        "    use_subdevice_mask\n"
        "    mthd 5, SEMAPHORED, 0x01000002   # host method on any subchannel\n"
        "    immd 0, 0x0008, 0                # host NOP by offset\n"
        "    .subch 1, 0xB0B5\n"
        "    immd 1, LAUNCH_DMA, 0x182\n"
        "    end_pb_segment\n";
    static const uint32_t want[] = {
        0x20018000, 0xB0B5, 0x20038100, 1, 2, 3, 0x6002406D, 7, 8, 0xA00308E3, 0x20, 1, 2,
        0x9FFF08E3, 0x200108E3, 0x2000, 0x80050586, 0x80CF6080, 0x20020705, 0x601008E7,
        0x000C41B4, 0x4004201C, 0x0001FFF0, 0x00020010, 0x00030000, 0x2001A007, 0x01000002,
        0x80000002, 0x818220C0, 0xE0000000};
    size_t n;
    char err[1024] = "";
    uint32_t *w = assemble(text, NULL, &n, err, sizeof(err));
    CHECK(w != NULL);
    if (!w) {
        fprintf(stderr, "%s", err);
        return;
    }
    CHECK_EQ(n, sizeof(want) / 4);
    for (size_t i = 0; i < n && i < sizeof(want) / 4; i++)
        if (w[i] != want[i]) {
            fprintf(stderr, "word %zu: 0x%08x, want 0x%08x\n", i, w[i], want[i]);
            CHECK_EQ(w[i], want[i]);
        }
    roundtrip(w, n, NULL);
    free(w);
}

static void test_errors(void)
{
    static const struct { const char *text, *msg; } cases[] = {
        {"inc 8, 0x100, 1\n", "t.s:1:6: subchannel 8 is not 0..7"},
        {"immd 0, 0x100, 0x2000\n", "does not fit in 13 bits"},
        {"inc 0, NO_SUCH_METHOD, 1\n", "undefined symbol"},
        {"hdr sideways 0, 0x100, 1\n", "is not inc, noninc, oneinc, old_inc or old_noninc"},
        {"inc 0, LOAD_CONSTANT_BUFFER(16), 1\n", "index out of 0..15"},
        {"inc 0, 0x102, 1\n", "is not a 4-aligned byte offset"},
        {".subch 2, 0x1234\n", "is not one of 902D, B197, B1C0, A140, B0B5"},
        {"frobnicate\n", "frobnicate"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        size_t n;
        char err[1024] = "";
        uint32_t *w = assemble(cases[i].text, NULL, &n, err, sizeof(err));
        CHECK(w == NULL);
        free(w);
        CHECK(strstr(err, cases[i].msg) != NULL);
        if (!strstr(err, cases[i].msg))
            fprintf(stderr, "case %zu: got \"%s\"\n", i, err);
    }
}

static void test_random_roundtrips(void)
{
    uint32_t *w = malloc(4096 * 4);
    uint64_t x = 0x9E3779B97F4A7C15ull;
    for (int round = 0; round < 40; round++) {
        size_t n = 1 + (size_t)(round * 97 % 4096);
        for (size_t i = 0; i < n; i++) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            w[i] = (uint32_t)x;
            /* bias toward plausible headers with short counts */
            if ((x >> 40) % 3 == 0)
                w[i] = (w[i] & 0xE000FFFF) | (uint32_t)((x >> 50) % 6) << 16;
        }
        uint32_t sc[8] = {0};
        if (round % 2)
            CHECK_EQ(cg_nv_parse_subch("0=B0B5,1=A140,7=902D", sc), 0);
        roundtrip(w, n, round % 2 ? sc : NULL);
    }
    free(w);
    uint32_t sc[8];
    CHECK_EQ(cg_nv_parse_subch("9=B197", sc), CG_ERR_SYNTAX);
    CHECK_EQ(cg_nv_parse_subch("1=1234", sc), CG_ERR_NOENT);
}

static void test_listing(void)
{
    /* the listing names methods and fields, tracks SET_OBJECT and marks
     * unknowns */
    static const uint32_t w[] = {0x20018000, 0xA140, 0x20018000 | (0x1B0 >> 2), 0x00000021,
                                 0x8001C0C0, 0xC0000000};
    char *t = disasm(w, 6, NULL);
    CHECK(strstr(t, "hdr inc 4, SET_OBJECT, 1") != NULL);
    CHECK(strstr(t, "    .subch 4, 0xA140") != NULL);
    CHECK(strstr(t, "LAUNCH_DMA DST_MEMORY_LAYOUT=PITCH REDUCTION_ENABLE=FALSE "
                    "REDUCTION_FORMAT=UNSIGNED_32 COMPLETION_TYPE=RELEASE_SEMAPHORE") != NULL);
    CHECK(strstr(t, "unknown method 0x0300") != NULL); /* 0x300 on subch 6: no class */
    CHECK(strstr(t, "reserved secondary opcode 6") != NULL);
    free(t);
    static const uint32_t f[] = {0x20010000 | (0xA00 >> 2), 0x3FC00000}; /* viewport scale 1.5 */
    t = disasm(f, 2, NULL);
    CHECK(strstr(t, "SET_VIEWPORT_SCALE_X(0) V=1.5") != NULL);
    free(t);
}

static void test_golden(void)
{
    /* SET_OBJECT B0B5 on subchannel 4, IMMD 5 to 0x200 on subchannel 5 (no
     * class there), END_PB_SEGMENT */
    static const uint32_t w[] = {0x20018000, 0xB0B5, 0x8005A080, 0xE0000000};
    char *t = disasm(w, 4, NULL);
    static const char want[] =
        "# nv pushbuffer: 4 words\n"
        "    hdr inc 4, SET_OBJECT, 1                     # 0x0000: 20018000  inc subch 4 "
        "MAXWELL_CHANNEL_GPFIFO_A\n"
        "    .word 0x0000b0b5                             # 0x0004: 0000b0b5  SET_OBJECT "
        "NVCLASS=MAXWELL_DMA_COPY_A ENGINE=0\n"
        "    immd 5, 0x0200, 0x5                          # 0x0008: 8005a080  unknown method "
        "0x0200 (no class bound)\n"
        "    end_pb_segment                               # 0x000c: e0000000  END_PB_SEGMENT: "
        "the rest of the entry is skipped\n";
    CHECK_STR(t, want);
    free(t);
}

int main(void)
{
    test_golden();
    test_exact();
    test_errors();
    test_random_roundtrips();
    test_listing();
    return check_report("test_nv_asm");
}
