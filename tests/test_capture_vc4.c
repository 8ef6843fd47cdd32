/* The vc4 loaders: a hang state (the file vc4-gpu-tools writes) built byte
 * by byte from examples/vc4/first_triangle.s's memory re-runs to the frame
 * the direct run draws (the golden hash of test_vc4_first_triangle); its
 * listing marks the CTnCA records; corrupt hang states fail with the byte
 * offset; the VC4_DEBUG=cl text dump in tests/data/captures/ parses back to
 * exact bytes. */
#include <stdlib.h>
#include "check.h"
#include "cmdgpu/cmdgpu.h"
#include "cmdgpu/capture.h"

#define GOLDEN_HASH 0xab4e631d2f5d14c4ull /* tests/test_vc4_first_triangle.c */
#define FB_ADDR 0xC2000000u

static uint8_t *buf;
static size_t len, cap;

static void put(const void *p, size_t n)
{
    if (len + n > cap) {
        cap = (len + n) * 2;
        buf = realloc(buf, cap);
    }
    memcpy(buf + len, p, n);
    len += n;
}

static void put32(uint32_t v)
{
    uint8_t b[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
    put(b, 4);
}

static uint32_t sym(cg_asm *as, const char *name)
{
    int64_t v = 0;
    CHECK(cg_asm_symbol(as, name, &v));
    return (uint32_t)v;
}

static void check_bad(const uint8_t *d, size_t n, int want_rc, size_t want_off, const char *want)
{
    cg_vc4_hang_state *h = NULL;
    cg_capture_error e = {0};
    CHECK_EQ(cg_vc4_hang_parse(d, n, &h, &e), want_rc);
    CHECK(h == NULL);
    CHECK_EQ(e.offset, want_off);
    if (!strstr(e.msg, want))
        fprintf(stderr, "message '%s' lacks '%s'\n", e.msg, want);
    CHECK(strstr(e.msg, want) != NULL);
}

int main(void)
{
    /* the scene's memory: the text section (lists, shader record, vertices,
     * shader), with the frame buffer address patched in as the scene's
     * .copy32 does */
    cg_vc4_asm *st;
    cg_asm *as;
    CHECK_EQ(cg_vc4_asm_create(&st), 0);
    CHECK_EQ(cg_asm_create(cg_vc4_asm_family(), st, &as), 0);
    CHECK_EQ(cg_asm_add_file(as, CMDGPU_SOURCE_DIR "/examples/vc4/first_triangle.s"), 0);
    CHECK_EQ(cg_asm_assemble(as), 0);
    size_t idx = 0;
    CHECK_EQ(cg_asm_section_find(as, "text", &idx), 0);
    const char *nm;
    uint64_t base;
    const uint8_t *sec;
    size_t secn;
    CHECK_EQ(cg_asm_section(as, idx, &nm, &base, &sec, &secn), 0);
    uint8_t *text = malloc(secn);
    memcpy(text, sec, secn);
    uint32_t tma = sym(as, "TILE_MODE_ADDRESS") + 1 - (uint32_t)base;
    text[tma] = (uint8_t)FB_ADDR, text[tma + 1] = (uint8_t)(FB_ADDR >> 8);
    text[tma + 2] = (uint8_t)(FB_ADDR >> 16), text[tma + 3] = (uint8_t)(FB_ADDR >> 24);
    uint32_t bs = sym(as, "BINNING_COMMAND_BUFFER_START"), be = sym(as, "BINNING_COMMAND_BUFFER_END");
    uint32_t rs = sym(as, "RENDER_COMMAND_BUFFER_START"), re = sym(as, "RENDER_COMMAND_BUFFER_END");

    /* the file: version, drm_vc4_get_hang_state, the BO table, the BOs */
    struct { uint32_t handle, paddr, size; } bos[] = {
        {1, (uint32_t)base, (uint32_t)secn}, /* code, lists, data */
        {2, 0x00400000, 0x8000},             /* tile allocation (BIN_ADDRESS) */
        {3, 0x00500000, 0x1000},             /* tile state (BIN_BASE) */
        {4, FB_ADDR, 640 * 480 * 4},         /* the frame buffer */
    };
    put32(0);                     /* version */
    put32(0), put32(0);           /* u64 bo (a user pointer) */
    put32(4);                     /* bo_count */
    put32(bs), put32(rs);         /* start_bin, start_render */
    put32(bs + 16), put32(be);    /* ct0ca (at Start_Tile_Binning), ct0ea */
    put32(rs), put32(re);         /* ct1ca (not started), ct1ea */
    put32(0x20), put32(0x1020);   /* ct0cs, ct1cs */
    for (int i = 0; i < 12; i++)  /* ct0ra0 .. fdbgs */
        put32(0);
    put32(0x1000);                /* errstat */
    for (int i = 0; i < 16; i++)  /* pad */
        put32(0);
    CHECK_EQ(len, 164);
    for (int i = 0; i < 4; i++)
        put32(bos[i].handle), put32(bos[i].paddr), put32(bos[i].size), put32(0);
    put(text, secn);
    uint8_t *zero = calloc(1, 640 * 480 * 4);
    put(zero, 0x8000), put(zero, 0x1000), put(zero, 640 * 480 * 4);
    free(zero);
    FILE *f;

    CHECK(cg_capture_detect(buf, len) == cg_capture_find("vc4-hang-state"));
    cg_vc4_hang_state *h = NULL;
    cg_capture_error e = {0};
    CHECK_EQ(cg_vc4_hang_parse(buf, len, &h, &e), 0);
    if (!h)
        return check_report("test_capture_vc4");
    CHECK_EQ(h->bo_count, 4);
    CHECK_EQ(h->ct0ca, bs + 16);
    CHECK_EQ(h->errstat, 0x1000);
    CHECK_EQ(h->bos[0].file_offset, 164 + 64);
    CHECK(cg_vc4_hang_bo_at(h, 0xC0400010) == &h->bos[1]);

    /* the listing: registers by name, CT0CA marked at Start_Tile_Binning */
    char *l = NULL;
    size_t ln = 0;
    FILE *mf = open_memstream(&l, &ln);
    cg_vc4_disasm_opts o = {.prim_format = 0x12};
    CHECK_EQ(cg_vc4_hang_disasm(h, &o, mf), 0);
    fclose(mf);
    char want[256];
    snprintf(want, sizeof want, "// >>> CT0CA 0x%08x: the binner thread stood here (the next record it would "
             "execute) <<<\n// 0x%08x: command number 0x06 (6), Start_Tile_Binning [06]\n", bs + 16, bs + 16);
    CHECK(strstr(l, want) != NULL);
    snprintf(want, sizeof want, "// >>> CT1CA 0x%08x: the render thread stood here", rs);
    CHECK(strstr(l, want) != NULL);
    CHECK(strstr(l, "//   ERRSTAT       0x00001000\n") != NULL);
    CHECK(strstr(l, "//   CT1CS         0x00001020 (RUN SEMA RTSD 0)\n") != NULL);
    CHECK(strstr(l, "Tile_Rendering_Mode_Configuration") != NULL);
    free(l);

    /* the re-run draws the direct run's frame */
    cg_device *dev;
    CHECK_EQ(cg_device_create(&dev), 0);
    cg_vc4_hang_result res;
    cg_vc4 *v = NULL;
    CHECK_EQ(cg_vc4_hang_replay(h, dev, &res, &v), 0);
    CHECK_EQ(res.wait_rc, 0);
    CHECK_EQ(res.faults, 0);
    CHECK_EQ(res.ct0ca, be);
    CHECK_EQ(res.ct1ca, re);
    CHECK(res.have_frame && res.fb_linear);
    CHECK_EQ(res.fb_addr, FB_ADDR);
    CHECK_EQ(res.fb_width, 640);
    CHECK_EQ(res.fb_height, 480);
    CHECK_EQ(res.fb_depth, 32);
    uint64_t hash = 0;
    CHECK_EQ(cg_vc4_fb_hash(v, res.fb_addr, res.fb_width, res.fb_height, res.fb_pitch, res.fb_depth, &hash), 0);
    CHECK_EQ(hash, GOLDEN_HASH);
    cg_vc4_destroy(v);
    cg_device_destroy(dev);
    cg_vc4_hang_free(h);

    /* corrupt hang states: the offset of the bad field */
    check_bad(buf, 100, CG_ERR_SYNTAX, 100, "truncated");
    uint8_t *c = malloc(len);
    memcpy(c, buf, len);
    c[0] = 1;
    check_bad(c, len, CG_ERR_SYNTAX, 0, "version 1");
    memcpy(c, buf, len);
    c[12] = 0xff, c[13] = 0xff, c[14] = 0xff, c[15] = 0x0f; /* bo_count 0x0fffffff */
    check_bad(c, len, CG_ERR_RANGE, 12, "bo_count 268435455 needs a BO table");
    memcpy(c, buf, len);
    c[164 + 16 + 8 + 3] = 0x7f; /* BO 1 declares ~2 GiB */
    check_bad(c, len, CG_ERR_RANGE, 164 + 16 + 8, "BO 1 (handle 2) declares");
    check_bad(buf, len - 1, CG_ERR_RANGE, 164 + 48 + 8, "BO 3 (handle 4) declares");
    CHECK(cg_capture_detect(buf, len - 1) == NULL);
    memcpy(c, buf, len);
    c[164 + 4 + 1] = 0xff, c[164 + 4 + 2] = 0xff, c[164 + 4 + 3] = 0x3f; /* BO 0 at 0x3fffff00 */
    check_bad(c, len, CG_ERR_RANGE, 164 + 4, "runs past the 1 GiB");
    free(c);
    free(buf);
    free(text);
    cg_asm_destroy(as);
    cg_vc4_asm_destroy(st);

    /* VC4_DEBUG=cl text back to bytes */
    f = fopen(CMDGPU_SOURCE_DIR "/tests/data/captures/vc4_cl_dump.txt", "rb");
    CHECK(f != NULL);
    uint8_t tb[8192];
    size_t tn = f ? fread(tb, 1, sizeof tb, f) : 0;
    if (f)
        fclose(f);
    CHECK(cg_capture_detect(tb, tn) == cg_capture_find("vc4-cl-dump"));
    cg_vc4_cl_textdump *t = NULL;
    CHECK_EQ(cg_vc4_cl_textdump_parse(tb, tn, &t, &e), 0);
    static const uint8_t want_cl[] = {
        0x70, 0x00, 0x00, 0x40, 0x00, 0x00, 0x80, 0x00, 0x00, 0x00, 0x00, 0x50, 0x00, 0x0a, 0x08, 0x04, /* TBMC */
        0x06, 0x07,                                                 /* Start_Tile_Binning, Increment_Semaphore */
        0x66, 0x00, 0x00, 0x00, 0x00, 0x80, 0x02, 0xe0, 0x01,       /* Clip_Window 0, 0, 640, 480 */
        0x60, 0x03, 0x00, 0x02,                                     /* Configuration_Bits */
        0x67, 0x00, 0x14, 0xd8, 0xff,                               /* Viewport_Offset 320.0, -2.5 (12.4) */
        0x62, 0x00, 0x00, 0xc0, 0x3f,                               /* Point_Size 1.5f */
        0x21, 0x04, 0x03, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, /* Vertex_Array_Primitives */
        0x04, 0x41,                                                 /* Flush, the unknown 0x41 */
    };
    if (t) {
        CHECK_EQ(t->size, sizeof want_cl);
        CHECK_EQ(t->npackets, 10);
        CHECK_EQ(t->unknown_at, 0x34);
        if (t->size == sizeof want_cl)
            CHECK_MEM(t->bytes, want_cl, sizeof want_cl);
    }
    cg_vc4_cl_textdump_free(t);
    const char *bad1 = "0x00000000 0x00000000: 0x06 Start Tile Binning\n0x00000001 0x00000002: 0x07 Increment Semaphore\n";
    CHECK_EQ(cg_vc4_cl_textdump_parse((const uint8_t *)bad1, strlen(bad1), &t, &e), CG_ERR_SYNTAX);
    CHECK_EQ(e.offset, 47);
    CHECK(strstr(e.msg, "hardware offset 0x2 does not follow") != NULL);
    const char *bad2 = "0x00000000 0x00000000: 0x66 Clip Window\n    Clip Window Depth: 3\n";
    CHECK_EQ(cg_vc4_cl_textdump_parse((const uint8_t *)bad2, strlen(bad2), &t, &e), CG_ERR_SYNTAX);
    CHECK_EQ(e.offset, 40);
    CHECK(strstr(e.msg, "packet 0x66 has no field 'Clip Window Depth'") != NULL);
    const char *two = "BCL:\n0x00000000 0x00000000: 0x07 Increment Semaphore\nBCL:\n"
                      "0x00000000 0x00000000: 0x08 Wait on Semaphore\nBCL:\n0x00000000 0x00000000: 0x01 NOP\n";
    CHECK_EQ(cg_vc4_cl_textdump_parse((const uint8_t *)two, strlen(two), &t, &e), 0);
    if (t) {
        CHECK_EQ(t->size, 1);
        CHECK_EQ(t->bytes[0], 7);
        CHECK_EQ(t->more_lists, 2);
    }
    cg_vc4_cl_textdump_free(t);
    const char *bad3 = "0x00000000 0x00000000: 0x66 Clip Window\n    Clip Window Height in pixels: tall\n";
    CHECK_EQ(cg_vc4_cl_textdump_parse((const uint8_t *)bad3, strlen(bad3), &t, &e), CG_ERR_SYNTAX);
    CHECK(strstr(e.msg, "cannot read the value 'tall'") != NULL);
    return check_report("test_capture_vc4");
}
