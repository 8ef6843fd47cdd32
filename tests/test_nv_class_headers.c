/* nv: the class tables hold every method of NVIDIA's class headers, once,
 * at the header's offset, and the disassembler decodes data words field by
 * field from them. tests/data/nv_class_methods.txt is the (class, method,
 * offset) list scripts/nv_class_tables.py reads straight from the headers
 * (open-gpu-doc clb06f.h, cla140.h, clb0b5.h, cl902d.h, clb197.h,
 * clb1c0.h); the check runs both ways: each header method is in the table
 * once with its offset, and each table method not from those headers is one
 * of the overlay's few (docs/nv-tables.md). */
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "cmdgpu/nv.h"

int nv_format_fields(uint32_t cls, uint32_t mthd, uint32_t v, char *buf, size_t cap);

/* table methods no header of the list gives (classes.overlay "from" and
 * "extra" lines) */
static const struct { uint32_t cls; const char *name; } not_listed[] = {
    {0xB06F, "SYNCPOINTA"}, {0xB06F, "SYNCPOINTB"},
    {0xB197, "SET_TILED_CACHE_TILE_SIZE"}, {0xB197, "SET_DEPTH_CLAMP"}, {0xB197, "CSAA_ENABLE"},
};

static void check_header_list(void)
{
    FILE *f = fopen(CMDGPU_SOURCE_DIR "/tests/data/nv_class_methods.txt", "r");
    CHECK(f != NULL);
    if (!f)
        return;
    /* seen[class index][method index] */
    static unsigned char seen[8][1024];
    char line[256];
    unsigned lines = 0, per_class[8] = {0};
    while (fgets(line, sizeof(line), f)) {
        if (line[0] == '#')
            continue;
        char name[128];
        unsigned cls, off;
        CHECK_EQ(sscanf(line, "%x %127s %x", &cls, name, &off), 3);
        lines++;
        size_t ci = 0;
        while (cg_nv_class_at(ci) && cg_nv_class_at(ci)->id != cls)
            ci++;
        const cg_nv_class *c = cg_nv_class_at(ci);
        CHECK(c != NULL);
        if (!c)
            continue;
        per_class[ci]++;
        bool array = strstr(name, "(i)") != NULL;
        if (array)
            *strstr(name, "(i)") = 0;
        /* exactly one entry of that name, not an alias, at that offset */
        unsigned n = 0;
        for (size_t j = 0; j < c->nmethods; j++) {
            const cg_nv_method *m = &c->methods[j];
            if (strcmp(m->name, name) != 0)
                continue;
            n++;
            CHECK(j < 1024);
            seen[ci][j] = 1;
            if (m->offset != off || (m->flags & CG_NV_M_ALIAS) || (m->count > 1) != array ||
                (array && m->stride == 0))
                fprintf(stderr, "%04X %s: table offset 0x%04x count %u flags 0x%x, header 0x%04x\n",
                        cls, name, m->offset, m->count, m->flags, off);
            CHECK_EQ(m->offset, off);
            CHECK(!(m->flags & CG_NV_M_ALIAS));
            CHECK_EQ(m->count > 1, array);
        }
        if (n != 1)
            fprintf(stderr, "%04X %s: %u table entries\n", cls, name, n);
        CHECK_EQ(n, 1);
        /* and the offset decodes to it */
        uint32_t elem = 99;
        const cg_nv_method *m = cg_nv_method_at(c, off, &elem);
        CHECK(m != NULL && strcmp(m->name, name) == 0);
        CHECK_EQ(elem, 0);
    }
    fclose(f);
    /* the six headers: 1081 methods (open-gpu-doc c8607fe5) */
    CHECK_EQ(lines, 1081);
    CHECK_EQ(per_class[0], 15);  /* B06F */
    CHECK_EQ(per_class[1], 598); /* B197 */
    CHECK_EQ(per_class[2], 181); /* B1C0 */
    CHECK_EQ(per_class[3], 72);  /* A140 */
    CHECK_EQ(per_class[4], 180); /* 902D */
    CHECK_EQ(per_class[5], 35);  /* B0B5 */
    /* every other non-alias table method is one of the overlay's */
    for (size_t ci = 0; cg_nv_class_at(ci); ci++) {
        const cg_nv_class *c = cg_nv_class_at(ci);
        for (size_t j = 0; j < c->nmethods; j++) {
            const cg_nv_method *m = &c->methods[j];
            if (seen[ci][j] || (m->flags & CG_NV_M_ALIAS))
                continue;
            bool ok = false;
            for (size_t k = 0; k < sizeof(not_listed) / sizeof(not_listed[0]); k++)
                ok |= not_listed[k].cls == c->id && strcmp(not_listed[k].name, m->name) == 0;
            if (!ok)
                fprintf(stderr, "%04X %s: in the table, not in the header list\n", c->id,
                        m->name);
            CHECK(ok);
        }
    }
}

/* cg_nv_method_at (a generated index) agrees with a walk over the table at
 * every offset */
static void check_index(void)
{
    for (size_t ci = 0; cg_nv_class_at(ci); ci++) {
        const cg_nv_class *c = cg_nv_class_at(ci);
        for (uint32_t off = 0; off < 0x8000; off += 2) {
            const cg_nv_method *want = NULL;
            uint32_t want_elem = 0;
            for (size_t j = 0; j < c->nmethods && !want; j++) {
                const cg_nv_method *m = &c->methods[j];
                uint32_t st = m->stride ? m->stride : 4;
                if ((m->flags & CG_NV_M_ALIAS) || off < m->offset || (off - m->offset) % st ||
                    (off - m->offset) / st >= m->count)
                    continue;
                want = m;
                want_elem = (off - m->offset) / st;
            }
            uint32_t elem = 12345;
            const cg_nv_method *got = cg_nv_method_at(c, off, &elem);
            if (got != want)
                fprintf(stderr, "%04X 0x%04x: index %s, table %s\n", c->id, off,
                        got ? got->name : "-", want ? want->name : "-");
            CHECK(got == want);
            if (want)
                CHECK_EQ(elem, want_elem);
        }
    }
}

/* exact field text of data words, a few per class: enums, floats, array
 * indices, multi-field words, unknown values */
static void check_fields(void)
{
    static const struct {
        uint32_t cls, mthd, v;
        int bad;
        const char *want;
    } t[] = {
        {0xB197, 0x001C, 0x01000002, 0,
         "SEMAPHORED OPERATION=RELEASE ACQUIRE_SWITCH=DISABLED RELEASE_WFI=EN "
         "RELEASE_SIZE=4BYTE REDUCTION=MIN FORMAT=SIGNED"},
        {0xB197, 0x0074, 0x00000101, 0,
         "SYNCPOINTB OPERATION=INCR WAIT_SWITCH=DIS BASE=DIS SYNCPT_INDEX=1 BASE_INDEX=0"},
        {0xA140, 0x01B0, 0x00000021, 0,
         "LAUNCH_DMA DST_MEMORY_LAYOUT=PITCH REDUCTION_ENABLE=FALSE REDUCTION_FORMAT=UNSIGNED_32 "
         "COMPLETION_TYPE=RELEASE_SEMAPHORE SYSMEMBAR_DISABLE=FALSE INTERRUPT_TYPE=NONE "
         "SEMAPHORE_STRUCT_SIZE=FOUR_WORDS REDUCTION_OP=RED_ADD"},
        {0xB0B5, 0x0300, 0x00000186, 0,
         "LAUNCH_DMA DATA_TRANSFER_TYPE=NON_PIPELINED FLUSH_ENABLE=TRUE SEMAPHORE_TYPE=NONE "
         "INTERRUPT_TYPE=NONE SRC_MEMORY_LAYOUT=PITCH DST_MEMORY_LAYOUT=PITCH "
         "MULTI_LINE_ENABLE=FALSE REMAP_ENABLE=FALSE FORCE_RMWDISABLE=FALSE SRC_TYPE=VIRTUAL "
         "DST_TYPE=VIRTUAL SEMAPHORE_REDUCTION=IMIN SEMAPHORE_REDUCTION_SIGN=SIGNED "
         "SEMAPHORE_REDUCTION_ENABLE=FALSE BYPASS_L2=USE_PTE_SETTING"},
        {0x902D, 0x0200, 0xCF, 0, "SET_DST_FORMAT V=A8R8G8B8"},
        {0x902D, 0x061C, 7, 0, "RENDER_SOLID_PRIM_POINT_Y(3) V=7"},
        {0x902D, 0x0580, 4, 0, "RENDER_SOLID_PRIM_MODE V=RECTS"},
        {0xB197, 0x1340, 0x8006, 0, "SET_BLEND_COLOR_OP V=OGL_FUNC_ADD"},
        {0xB197, 0x1E04, 0x8006, 0, "SET_BLEND_PER_TARGET_COLOR_OP(0) V=OGL_FUNC_ADD"},
        {0xB197, 0x1E04, 0x12345, 1, "SET_BLEND_PER_TARGET_COLOR_OP(0) V=74565(unknown)"},
        {0xB197, 0x0A40, 0x40000000, 0, "SET_VIEWPORT_SCALE_X(2) V=2"},
        {0xB197, 0x0854, 0x1012, 1,
         "SET_COLOR_TARGET_MEMORY(1) BLOCK_WIDTH=2(unknown) BLOCK_HEIGHT=TWO_GOBS "
         "BLOCK_DEPTH=ONE_GOB LAYOUT=PITCH "
         "THIRD_DIMENSION_CONTROL=THIRD_DIMENSION_DEFINES_ARRAY_SIZE"},
        /* streams 16-31 are the B methods, not A(16..31) */
        {0xB197, 0x1D00, 0x1010, 0, "SET_VERTEX_STREAM_B_FORMAT(0) STRIDE=16 ENABLE=TRUE"},
        {0xB197, 0x1C00, 0x1008, 0, "SET_VERTEX_STREAM_A_FORMAT(0) STRIDE=8 ENABLE=TRUE"},
        {0xB197, 0x11A4, 0x0, 1,
         "SET_VERTEX_ATTRIBUTE_B(1) STREAM=0 SOURCE=ACTIVE OFFSET=0 "
         "COMPONENT_BIT_WIDTHS=0(unknown) "
         "NUMERICAL_TYPE=UNUSED_ENUM_DO_NOT_USE_BECAUSE_IT_WILL_GO_AWAY SWAP_R_AND_B=FALSE"},
        /* 0x11FC is DECOMPRESS_ZETA_SURFACE (seed 001's ResolveDepthBuffer) */
        {0xB197, 0x11FC, 0x10, 0, "DECOMPRESS_ZETA_SURFACE Z_ENABLE=FALSE STENCIL_ENABLE=TRUE"},
        {0xB197, 0x1618, 0x04000005, 0,
         "BEGIN OP=TRIANGLE_STRIP PRIMITIVE_ID=FIRST INSTANCE_ID=SUBSEQUENT "
         "SPLIT_MODE=NORMAL_BEGIN_NORMAL_END"},
        {0xB197, 0x3808, 7, 0, "CALL_MME_MACRO(1) V=0x7"},
        {0xB197, 0x3FFC, 7, 0, "CALL_MME_DATA(255) V=0x7"},
        {0xB1C0, 0x1B0C, 0x00000002, 0,
         "SET_REPORT_SEMAPHORE_D OPERATION=REPORT_ONLY FLUSH_DISABLE=FALSE "
         "REDUCTION_ENABLE=FALSE REDUCTION_OP=RED_ADD REDUCTION_FORMAT=UNSIGNED_32 "
         "AWAKEN_ENABLE=FALSE STRUCTURE_SIZE=FOUR_WORDS"},
        {0xB1C0, 0x02BC, 0x3, 0, "SEND_SIGNALING_PCAS_B INVALIDATE=TRUE SCHEDULE=TRUE"},
        {0xB197, 0x2FF0, 5, 1, "unknown method 0x2ff0"},
    };
    char buf[1024];
    for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
        int bad = nv_format_fields(t[i].cls, t[i].mthd, t[i].v, buf, sizeof(buf));
        CHECK_STR(buf, t[i].want);
        CHECK_EQ(bad, t[i].bad);
    }
}

/* text and JSON of an INC run over an array method: NAME(i), the JSON
 * name and confidence of each item */
static void check_listing(void)
{
    /* subch 0 (B197): INC 3 words from SET_COLOR_TARGET_A(1) = 0x840 */
    static const uint32_t w[] = {0x20030000 | (0x840 >> 2), 0x01, 0x2000, 0x40,
                                 0x20010000 | (0x2FF0 >> 2), 5};
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    cg_nv_disasm_opts o = {0};
    CHECK_EQ(cg_nv_disasm(w, 6, &o, f), 1);
    fclose(f);
    CHECK(strstr(buf, "hdr inc 0, SET_COLOR_TARGET_A(1), 3") != NULL);
    CHECK(strstr(buf, "SET_COLOR_TARGET_A(1) OFFSET_UPPER=0x1\n") != NULL);
    CHECK(strstr(buf, "SET_COLOR_TARGET_B(1) OFFSET_LOWER=0x2000\n") != NULL);
    CHECK(strstr(buf, "SET_COLOR_TARGET_WIDTH(1) V=64\n") != NULL);
    free(buf);
    o.json = true;
    f = open_memstream(&buf, &len);
    CHECK_EQ(cg_nv_disasm(w, 6, &o, f), 1);
    fclose(f);
    CHECK(strstr(buf, "{\"offset\":4,\"word\":\"0x00000001\",\"kind\":\"data\",\"subch\":0,"
                      "\"class\":\"B197\",\"method\":\"0x0840\",\"name\":\"SET_COLOR_TARGET_A(1)\","
                      "\"confidence\":\"known\"") != NULL);
    CHECK(strstr(buf, "\"method\":\"0x0848\",\"name\":\"SET_COLOR_TARGET_WIDTH(1)\","
                      "\"confidence\":\"known\"") != NULL);
    CHECK(strstr(buf, "\"method\":\"0x2ff0\",\"confidence\":\"unknown\"") != NULL);
    free(buf);
    /* partial: a named method with bits no field covers */
    static const uint32_t p[] = {0x20010000 | (0x1618 >> 2), 0x00F00000 | 5};
    o.json = true;
    f = open_memstream(&buf, &len);
    CHECK_EQ(cg_nv_disasm(p, 2, &o, f), 1);
    fclose(f);
    CHECK(strstr(buf, "\"name\":\"BEGIN\",\"confidence\":\"partial\"") != NULL);
    CHECK(strstr(buf, "unknown-bits=0x00f00000") != NULL);
    free(buf);
}

int main(void)
{
    check_header_list();
    check_index();
    check_fields();
    check_listing();
    return check_report("test_nv_class_headers");
}
