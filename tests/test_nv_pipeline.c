/* nv 3D pipeline end to end: examples/nv/depth_blend.s (shaders in nv-sass
 * assembly, depth test, blending) against a per-pixel reference computed
 * here from the scene's vertex data (coverage by an independent tie rule,
 * depth LESS on ZF32, SRC_ALPHA / ONE_MINUS_SRC_ALPHA, UNORM rounding),
 * the pixels the scene's comments state, `-o` (rt0_png), and the faults:
 * malformed SPH, a program outside its region, a constant buffer read past
 * its size, unsupported stages, and a faulting channel stopping while
 * another goes on. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "cmdgpu/cmdgpu.h"
#include "cmdgpu/nv_sass.h"
#include "nv/scene.h"
#include "scene_util.h"

#define RT_VA 0x100050000ull

static char *read_text(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *t = malloc((size_t)n + 1);
    if (t && fread(t, 1, (size_t)n, f) != (size_t)n) {
        free(t);
        t = NULL;
    }
    fclose(f);
    if (t)
        t[n] = 0;
    *len = (size_t)n;
    return t;
}

/* Replace the first `from` in text by `to` (a new string). */
static char *replace(const char *text, const char *from, const char *to)
{
    const char *p = strstr(text, from);
    CHECK(p != NULL);
    if (!p)
        return NULL;
    size_t a = (size_t)(p - text), n = strlen(text) - a - strlen(from);
    char *r = malloc(a + strlen(to) + n + 1);
    memcpy(r, text, a);
    strcpy(r + a, to);
    strcat(r, p + strlen(from));
    return r;
}

/* Run scene text; dump the render target to rt (0x4000 bytes) if rt. */
static int run(const char *text, uint8_t *rt, cg_device **devp, const char *png)
{
    cg_device *dev = NULL;
    CHECK_EQ(cg_device_create(&dev), 0);
    cg_scene_dump d = {RT_VA, 0x4000, "test_nv_pipeline_rt.bin"};
    cg_scene_opts o = {.log = NULL, .dumps = rt ? &d : NULL, .ndumps = rt ? 1 : 0,
                       .frame_png = png};
    int rc = test_scene_run(CG_FAMILY_NV, CMDGPU_SOURCE_DIR "/examples/nv/scene.s", text,
                            strlen(text), dev, &o);
    if (rt) {
        size_t n = 0;
        char *b = read_text("test_nv_pipeline_rt.bin", &n);
        CHECK(b && n == 0x4000);
        if (b && n == 0x4000)
            memcpy(rt, b, 0x4000);
        free(b);
        remove("test_nv_pipeline_rt.bin");
    }
    if (devp)
        *devp = dev;
    else
        cg_device_destroy(dev);
    return rc;
}

/* ---- the reference for depth_blend.s ------------------------------------- */

typedef struct rtri {
    double x[3], y[3], z; /* NDC */
    float rgba[4];
} rtri;

static const rtri tris[4] = {
    {{-0.75, 0.5, -0.75}, {-0.75, -0.75, 0.5}, 0.0, {1, 0, 0, 1}},
    {{-0.25, 0.75, -0.25}, {-0.25, -0.25, 0.75}, -0.5, {0, 1, 0, 0.5f}},
    /* C: the strip (6, 7, 8), (8, 7, 9) */
    {{-1, 1, -1}, {-1, -1, 1}, 0.5, {0, 0, 1, 1}},
    {{-1, 1, 1}, {1, -1, 1}, 0.5, {0, 0, 1, 1}},
};

/* Window position in 1/256 pixels (exact for these vertices), coverage with
 * ties broken by nudging the sample by (+e, +e^2). */
static bool covers(const rtri *t, int px, int py)
{
    int64_t X[3], Y[3];
    for (int i = 0; i < 3; i++) {
        X[i] = (int64_t)llround((32 * t->x[i] + 32) * 256);
        Y[i] = (int64_t)llround((32 * t->y[i] + 32) * 256);
    }
    int64_t sx = (int64_t)px * 256 + 128, sy = (int64_t)py * 256 + 128;
    int64_t area = (X[1] - X[0]) * (Y[2] - Y[0]) - (Y[1] - Y[0]) * (X[2] - X[0]);
    int b = area > 0 ? 1 : 2, c = area > 0 ? 2 : 1;
    const int e[3][2] = {{b, c}, {c, 0}, {0, b}};
    for (int k = 0; k < 3; k++) {
        int64_t ax = X[e[k][0]], ay = Y[e[k][0]], bx = X[e[k][1]], by = Y[e[k][1]];
        int64_t E = (bx - ax) * (sy - ay) - (by - ay) * (sx - ax);
        if (E == 0)
            E = -(by - ay);
        if (E == 0)
            E = bx - ax;
        if (E < 0)
            return false;
    }
    return true;
}

static uint8_t unorm8(double v)
{
    v = v < 0 ? 0 : v > 1 ? 1 : v;
    return (uint8_t)(v * 255 + 0.5);
}

static void reference(uint8_t out[64][64][4])
{
    for (int y = 0; y < 64; y++)
        for (int x = 0; x < 64; x++) {
            double c[4] = {0, 0, 0, 0}, depth = 1.0;
            uint8_t q[4] = {0, 0, 0, 0};
            for (int t = 0; t < 4; t++) {
                if (!covers(&tris[t], x, y))
                    continue;
                double z = 0.5 * tris[t].z + 0.5;
                if (!(z < depth))
                    continue;
                depth = z;
                /* blend against the stored 8-bit colour */
                const float *s = tris[t].rgba;
                double a = s[3];
                for (int k = 0; k < 4; k++) {
                    c[k] = s[k] * a + (q[k] / 255.0) * (1 - a);
                    q[k] = unorm8(c[k]);
                }
            }
            memcpy(out[y][x], q, 4);
        }
}

static void test_depth_blend(const char *text)
{
    static uint8_t rt[0x4000], ref[64][64][4];
    cg_device *dev;
    CHECK_EQ(run(text, rt, &dev, "test_nv_pipeline_rt0.png"), 0);
    CHECK_EQ(cg_fault_count(dev), 0);
    cg_device_destroy(dev);
    reference(ref);
    unsigned bad = 0;
    for (int y = 0; y < 64; y++)
        for (int x = 0; x < 64; x++)
            if (memcmp(&rt[(64 * y + x) * 4], ref[y][x], 4) != 0) {
                if (bad++ < 5)
                    fprintf(stderr, "pixel (%d, %d): %02x%02x%02x%02x, want %02x%02x%02x%02x\n",
                            x, y, rt[(64 * y + x) * 4], rt[(64 * y + x) * 4 + 1],
                            rt[(64 * y + x) * 4 + 2], rt[(64 * y + x) * 4 + 3], ref[y][x][0],
                            ref[y][x][1], ref[y][x][2], ref[y][x][3]);
            }
    CHECK_EQ(bad, 0);
    /* the scene's comments */
    static const struct { int x, y; uint8_t p[4]; } said[] = {
        {10, 10, {0xff, 0, 0, 0xff}}, {26, 26, {0x80, 0x80, 0, 0xbf}},
        {44, 24, {0, 0x80, 0, 0x40}}, {60, 60, {0, 0, 0xff, 0xff}}};
    for (unsigned i = 0; i < 4; i++)
        CHECK(memcmp(&rt[(64 * said[i].y + said[i].x) * 4], said[i].p, 4) == 0);
    /* -o: the PNG of render target 0 holds the same pixels */
    uint8_t *png;
    uint32_t w, h;
    CHECK_EQ(cg_image_read_png("test_nv_pipeline_rt0.png", &png, &w, &h), 0);
    CHECK(w == 64 && h == 64 && memcmp(png, rt, 0x4000) == 0);
    free(png);
    remove("test_nv_pipeline_rt0.png");
}

/* ---- faults ---------------------------------------------------------------- */

/* The scene up to its submit, then `tail`. */
static char *scene_with(const char *text, const char *from, const char *to, const char *tail)
{
    char *t = from ? replace(text, from, to) : strdup(text);
    char *cut = strstr(t, ".submit start, end");
    CHECK(cut != NULL);
    *cut = 0;
    char *r = malloc(strlen(t) + strlen(tail) + 1);
    strcpy(r, t);
    strcat(r, tail);
    free(t);
    return r;
}

static const cg_fault *one_fault(cg_device *dev, cg_fault_kind kind, const char *msg)
{
    CHECK_EQ(cg_fault_count(dev), 1);
    const cg_fault *f = cg_fault_get(dev, 0);
    CHECK(f != NULL);
    if (!f)
        return NULL;
    CHECK_EQ(f->kind, kind);
    CHECK(strstr(f->message, msg) != NULL);
    if (!strstr(f->message, msg))
        fprintf(stderr, "fault message: %s (want \"%s\")\n", f->message, msg);
    CHECK_EQ(f->channel, 0);
    return f;
}

/* Channel 0 runs the broken draw; channel 1 then releases a semaphore. */
static const char *two_channels =
    ".buffer sem, 0x100070000, 0x1000\n"
    ".section pb2, pb + 0x8000\n"
    "good:\n"
    "    mthd 0, SEMAPHOREA, sem >> 32\n"
    "    mthd 0, SEMAPHOREB, sem & 0xffffffff\n"
    "    mthd 0, SEMAPHOREC, 0x600D\n"
    "    mthd 0, SEMAPHORED, 0x01000002\n"
    "good_end:\n"
    ".channel 0\n"
    ".submit start, end\n"
    ".channel 1\n"
    ".submit good, good_end\n"
    ".finish\n"
    ".expect32 sem, 0x600D\n";

static void test_faults(const char *text)
{
    cg_device *dev;
    char *t;
    /* malformed SPH: VERSION 2 in the pixel header */
    t = scene_with(text, "0x00001462", "0x00001442", two_channels);
    CHECK_EQ(run(t, NULL, &dev, NULL), 1);
    const cg_fault *f = one_fault(dev, CG_FAULT_BAD_STATE, "malformed SPH");
    if (f)
        CHECK_EQ(f->gpu_addr, 0x100020100ull);
    cg_device_destroy(dev);
    free(t);
    /* a vertex header in the pixel slot */
    t = scene_with(text, "0x00001462", "0x00000461", two_channels);
    CHECK_EQ(run(t, NULL, &dev, NULL), 1);
    one_fault(dev, CG_FAULT_BAD_STATE, "SPH_TYPE 1 SHADER_TYPE 1");
    cg_device_destroy(dev);
    free(t);
    /* the pixel program outside mapped memory */
    t = scene_with(text, "0x51, ps - prog", "0x51, 0x100000", two_channels);
    CHECK_EQ(run(t, NULL, &dev, NULL), 1);
    f = one_fault(dev, CG_FAULT_UNMAPPED, "");
    cg_device_destroy(dev);
    free(t);
    /* a constant buffer read past its size: c[0x3][0x40] of a 0x40-byte
     * buffer bound to the vertex stage's slot 3 */
    t = scene_with(text, "    ALD.128 R0, a[0x80], RZ;          # attribute 0: the position",
                   "    MOV R0, c[0x3][0x40];", two_channels);
    char *t2 = replace(t, "    mthd 0, SET_PIPELINE_REGISTER_COUNT(5), 8",
                       "    mthd 0, SET_PIPELINE_REGISTER_COUNT(5), 8\n"
                       "    inc 0, CB_SIZE, 0x40, vtx >> 32, vtx & 0xffffffff\n"
                       "    mthd 0, CB_BIND(0), 0x31");
    CHECK_EQ(run(t2, NULL, &dev, NULL), 1);
    one_fault(dev, CG_FAULT_BAD_LENGTH, "read past the constant buffer");
    cg_device_destroy(dev);
    free(t);
    free(t2);
    /* geometry and tessellation stages, vertex A */
    static const char *slots[] = {"0x41", "0x21", "0x31", "0x01"};
    static const char *what[] = {"slot 4 (geometry)", "slot 2 (tessellation)",
                                 "slot 3 (tessellation)", "slot 0"};
    for (unsigned i = 0; i < 4; i++) {
        char line[96];
        snprintf(line, sizeof line, "    mthd 0, SET_PIPELINE_SHADER(%c), %s\n    mthd 0, VERTEX_BEGIN_GL, 4",
                 slots[i][2], slots[i]);
        t = scene_with(text, "    mthd 0, VERTEX_BEGIN_GL, 4", line, two_channels);
        CHECK_EQ(run(t, NULL, &dev, NULL), 1);
        one_fault(dev, CG_FAULT_UNSUPPORTED, what[i]);
        cg_device_destroy(dev);
        free(t);
    }
    /* user clip planes */
    t = scene_with(text, "    mthd 0, VERTEX_BEGIN_GL, 4",
                   "    mthd 0, SET_USER_CLIP_ENABLE, 0x4\n    mthd 0, VERTEX_BEGIN_GL, 4",
                   two_channels);
    CHECK_EQ(run(t, NULL, &dev, NULL), 1);
    one_fault(dev, CG_FAULT_UNSUPPORTED, "user clip planes (SET_USER_CLIP_ENABLE 0x04)");
    cg_device_destroy(dev);
    free(t);
    /* PATCH topology */
    t = scene_with(text, "    mthd 0, VERTEX_BEGIN_GL, 5", "    mthd 0, VERTEX_BEGIN_GL, 14",
                   two_channels);
    CHECK_EQ(run(t, NULL, &dev, NULL), 1);
    one_fault(dev, CG_FAULT_UNSUPPORTED, "PATCH");
    cg_device_destroy(dev);
    free(t);
    /* the same scene with nothing broken runs clean on both channels */
    t = scene_with(text, NULL, NULL, two_channels);
    CHECK_EQ(run(t, NULL, &dev, NULL), 0);
    CHECK_EQ(cg_fault_count(dev), 0);
    cg_device_destroy(dev);
    free(t);
}

/* Culling: the same scene with OGL_SET_CULL on, FRONT_FACE CCW. Facing is
 * OpenGL's area formula (4.6 equation 14.8) on the window coordinates as
 * they are (y down): A, B and both triangles of C's strip have a positive
 * area, so they are front faces. */
static const char *plain_tail = ".submit start, end\n.finish\n";

static void test_cull(const char *text)
{
    static uint8_t rt[0x4000];
    char *t = scene_with(text, "    mthd 0, VERTEX_BEGIN_GL, 4",
                         "    inc 0, OGL_SET_CULL, 1, 0x901, 0x405\n    mthd 0, VERTEX_BEGIN_GL, 4",
                         plain_tail);
    CHECK_EQ(run(t, rt, NULL, NULL), 0);
    CHECK_EQ(rt[(64 * 10 + 10) * 4 + 0], 0xff); /* BACK culled: all drawn */
    CHECK_EQ(rt[(64 * 60 + 60) * 4 + 2], 0xff);
    free(t);
    t = scene_with(text, "    mthd 0, VERTEX_BEGIN_GL, 4",
                   "    inc 0, OGL_SET_CULL, 1, 0x901, 0x404\n    mthd 0, VERTEX_BEGIN_GL, 4",
                   plain_tail);
    CHECK_EQ(run(t, rt, NULL, NULL), 0);
    unsigned drawn = 0;
    for (int i = 0; i < 64 * 64; i++)
        drawn += rt[4 * i + 3] != 0;
    CHECK_EQ(drawn, 0); /* FRONT culled: nothing */
    free(t);
    /* FRONT_FACE CW with BACK culled: the same as FRONT culled with CCW */
    t = scene_with(text, "    mthd 0, VERTEX_BEGIN_GL, 4",
                   "    inc 0, OGL_SET_CULL, 1, 0x900, 0x405\n    mthd 0, VERTEX_BEGIN_GL, 4",
                   plain_tail);
    CHECK_EQ(run(t, rt, NULL, NULL), 0);
    drawn = 0;
    for (int i = 0; i < 64 * 64; i++)
        drawn += rt[4 * i + 3] != 0;
    CHECK_EQ(drawn, 0);
    free(t);
}

/* Scissor 0 (x 16..47, y 8..23) limits every draw. */
static void test_scissor(const char *text)
{
    static uint8_t rt[0x4000];
    char *t = scene_with(text, "    mthd 0, VERTEX_BEGIN_GL, 4",
                         "    inc 0, SET_SCISSOR_ENABLE(0), 1, (48 << 16) | 16, (24 << 16) | 8\n"
                         "    mthd 0, VERTEX_BEGIN_GL, 4", plain_tail);
    CHECK_EQ(run(t, rt, NULL, NULL), 0);
    unsigned inside = 0, outside = 0;
    for (int y = 0; y < 64; y++)
        for (int x = 0; x < 64; x++) {
            bool in = x >= 16 && x < 48 && y >= 8 && y < 24;
            bool drawn = rt[(64 * y + x) * 4 + 3] != 0;
            inside += in && drawn;
            outside += !in && drawn;
        }
    CHECK_EQ(inside, 32 * 16);
    CHECK_EQ(outside, 0);
    free(t);
}

/* The viewport transform off (SET_VIEWPORT_SCALE_OFFSET 0): positions are
 * window coordinates, neither clipped nor divided by w, as Mesa's nvc0
 * blits send them (w 0). Quad C becomes the window rectangle [8, 40) x
 * [16, 48) at depth 0.5 with w = 0: exactly those pixels are blue. */
static void test_window_space(const char *text)
{
    static uint8_t rt[0x4000];
    char *a = scene_with(text, "    mthd 0, SET_VIEWPORT_SCALE_OFFSET, 1",
                         "    mthd 0, SET_VIEWPORT_SCALE_OFFSET, 0", plain_tail);
    char *b = a ? replace(a, "    .float -1.0,  -1.0,  0.5, 1.0,   0.0, 0.0, 1.0, 1.0\n"
                             "    .float  1.0,  -1.0,  0.5, 1.0,   0.0, 0.0, 1.0, 1.0\n"
                             "    .float -1.0,   1.0,  0.5, 1.0,   0.0, 0.0, 1.0, 1.0\n"
                             "    .float  1.0,   1.0,  0.5, 1.0,   0.0, 0.0, 1.0, 1.0\n",
                          "    .float 8.0, 16.0, 0.5, 0.0,   0.0, 0.0, 1.0, 1.0\n"
                          "    .float 40.0, 16.0, 0.5, 0.0,   0.0, 0.0, 1.0, 1.0\n"
                          "    .float 8.0, 48.0, 0.5, 0.0,   0.0, 0.0, 1.0, 1.0\n"
                          "    .float 40.0, 48.0, 0.5, 0.0,   0.0, 0.0, 1.0, 1.0\n")
                : NULL;
    CHECK(b != NULL);
    if (b) {
        CHECK_EQ(run(b, rt, NULL, NULL), 0);
        unsigned inside = 0, outside = 0;
        for (int y = 0; y < 64; y++)
            for (int x = 0; x < 64; x++) {
                bool in = x >= 8 && x < 40 && y >= 16 && y < 48;
                bool blue = rt[(64 * y + x) * 4 + 2] == 0xff && rt[(64 * y + x) * 4 + 0] == 0;
                inside += in && blue;
                outside += !in && blue;
            }
        CHECK_EQ(inside, 32 * 32);
        CHECK_EQ(outside, 0);
    }
    free(a);
    free(b);
}

/* examples/nv/textured_square.s with the TIC pointing at unmapped memory:
 * the pixel shader's TEXS faults (through the interpreter), the channel
 * stops before the fence. */
static void test_texture_unmapped(void)
{
    size_t len;
    char *text = read_text(CMDGPU_SOURCE_DIR "/examples/nv/textured_square.s", &len);
    CHECK(text != NULL);
    if (!text)
        return;
    /* TIC word 2 holds address bits 47:32 in 15:0: 0x2_00020000 is unmapped */
    char *t = replace(text, "0x58d24908, 0x00020000, 0x00600001",
                      "0x58d24908, 0x00020000, 0x00600002");
    cg_device *dev;
    CHECK_EQ(run(t, NULL, &dev, NULL), 1);
    CHECK_EQ(cg_fault_count(dev), 1);
    const cg_fault *f = cg_fault_get(dev, 0);
    if (f) {
        CHECK_EQ(f->kind, CG_FAULT_UNMAPPED);
        CHECK(strstr(f->message, "texture") != NULL);
        CHECK_EQ(f->channel, 0);
    }
    cg_device_destroy(dev);
    free(t);
    free(text);
}

/* depth_blend.s without its depth test, blending and C: every pixel the
 * last covering triangle's colour (A, then B) or the clear, through the
 * packed A8B8G8R8 store loop of frag_warp (no depth test, every channel
 * written, no blending). */
static void test_packed_rop(const char *text)
{
    static uint8_t rt[0x4000];
    char *t1 = replace(text, "    mthd 0, SET_DEPTH_TEST, 1", "    mthd 0, SET_DEPTH_TEST, 0");
    char *t2 = t1 ? replace(t1, "    mthd 0, SET_BLEND(0), 1", "    mthd 0, SET_BLEND(0), 0") : NULL;
    free(t1);
    /* without C (it covers the whole target) */
    t1 = t2 ? replace(t2, "    mthd 0, VERTEX_BEGIN_GL, 5\n    mthd 0, VERTEX_BUFFER_FIRST, 6\n", "") : NULL;
    free(t2);
    t2 = t1 ? replace(t1, "    mthd 0, VERTEX_BUFFER_COUNT, 4\n    mthd 0, VERTEX_END_GL, 0\n", "")
            : NULL;
    free(t1);
    if (!t2)
        return;
    char *t3 = scene_with(t2, NULL, NULL, plain_tail); /* without the blended .expect32s */
    free(t2);
    t2 = t3;
    cg_device *dev;
    CHECK_EQ(run(t2, rt, &dev, NULL), 0);
    CHECK_EQ(cg_fault_count(dev), 0);
    cg_device_destroy(dev);
    free(t2);
    unsigned bad = 0, drawn = 0;
    for (int y = 0; y < 64; y++)
        for (int x = 0; x < 64; x++) {
            uint8_t q[4] = {0, 0, 0, 0};
            for (int k = 0; k < 2; k++)
                if (covers(&tris[k], x, y))
                    for (int c = 0; c < 4; c++)
                        q[c] = unorm8(tris[k].rgba[c]);
            drawn += q[3] != 0;
            if (memcmp(&rt[(64 * y + x) * 4], q, 4) != 0 && bad++ < 5)
                fprintf(stderr, "packed: pixel (%d, %d): %02x%02x%02x%02x, want %02x%02x%02x%02x\n",
                        x, y, rt[(64 * y + x) * 4], rt[(64 * y + x) * 4 + 1],
                        rt[(64 * y + x) * 4 + 2], rt[(64 * y + x) * 4 + 3], q[0], q[1], q[2], q[3]);
        }
    CHECK_EQ(bad, 0);
    CHECK(drawn > 1000);
    /* (26, 26): B over A, unblended: B's colour */
    static const uint8_t b26[4] = {0, 0xff, 0, 0x80};
    CHECK(memcmp(&rt[(64 * 26 + 26) * 4], b26, 4) == 0);
}

int main(void)
{
    test_texture_unmapped();
    /* the .sass directive keeps the nv-sass state in the nv assembler */
    CHECK(cg_nv_sass_asm_state_size() <= sizeof(((struct cg_nv_asm *)0)->sass_state));
    size_t len;
    char *text = read_text(CMDGPU_SOURCE_DIR "/examples/nv/depth_blend.s", &len);
    CHECK(text != NULL);
    if (text) {
        test_depth_blend(text);
        test_packed_rop(text);
        test_faults(text);
        test_cull(text);
        test_scissor(text);
        test_window_space(text);
    }
    free(text);
    return check_report("test_nv_pipeline");
}
