/* examples/nv/textured_square.s (seed 000's textured square, run by
 * `make demo`): the draw record, the texture it reaches and the render
 * target (clears, then the square the shaders draw), each checked against values derived here from the scene's
 * comments, not from running it. */
#include <stdlib.h>
#include "check.h"
#include "scene_util.h"
#include "cmdgpu/cmdgpu.h"

typedef struct seen {
    int draws;
    cg_nv_draw d;            /* the first draw (arrays copied below) */
    cg_nv_vertex v[4];
    size_t nv;
    cg_nv_tex_binding tex;
    size_t ntex;
    uint8_t *rgba;           /* the texture, read during the callback */
    uint32_t w, h;
    int read_rc;
} seen;

static void on_draw(void *user, const void *draw)
{
    const cg_nv_draw *d = draw;
    seen *s = user;
    if (s->draws++)
        return;
    s->d = *d;
    s->nv = d->nvertices;
    for (size_t i = 0; i < d->nvertices && i < 4; i++)
        s->v[i] = d->vertices[i];
    s->ntex = d->ntextures;
    if (d->ntextures) {
        s->tex = d->textures[0];
        s->read_rc = cg_nv_tex_read_rgba8(d->vas, &d->textures[0].tic, &s->rgba, &s->w, &s->h);
    }
}

/* The scene's texture: 8x8, a 2x2 white marker at the top left, then 2x2
 * checks of orange (255, 128, 0) and teal (0, 128, 128), all opaque. */
static void texel(uint32_t x, uint32_t y, uint8_t out[4])
{
    if (x < 2 && y < 2) {
        out[0] = out[1] = out[2] = 255;
    } else if ((x / 2 + y / 2) % 2 == 0) {
        out[0] = 255, out[1] = 128, out[2] = 0;
    } else {
        out[0] = 0, out[1] = 128, out[2] = 128;
    }
    out[3] = 255;
}

int main(void)
{
    cg_device *dev = NULL;
    CHECK_EQ(cg_device_create(&dev), 0);
    seen s = {0};
    /* where the test runs: each variant (tests/CMakeLists.txt) has its own
     * directory, so parallel runs never read one another's half-written PNG */
    cg_scene_opts o = {.out_dir = ".", .draw_fn = on_draw, .draw_user = &s};
    int rc = test_scene_run(CG_FAMILY_NV, CMDGPU_SOURCE_DIR "/examples/nv/textured_square.s",
                            NULL, 0, dev, &o);
    CHECK_EQ(rc, 0);
    CHECK_EQ(cg_fault_count(dev), 0);

    /* one draw: TRIANGLE_STRIP (5), FIRST 0, COUNT 4, not indexed */
    CHECK_EQ(s.draws, 1);
    CHECK_EQ(s.d.topology, 5);
    CHECK_EQ(s.d.indexed, false);
    CHECK_EQ(s.d.first, 0);
    CHECK_EQ(s.d.count, 4);
    CHECK_EQ(s.nv, 4);
    /* stream 0: stride 0x1C, enabled, START/LIMIT as the seed says */
    CHECK_EQ(s.d.streams[0].enabled, true);
    CHECK_EQ(s.d.streams[0].stride, 0x1C);
    CHECK_EQ(s.d.streams[0].start, 0x100010000ull);
    CHECK_EQ(s.d.streams[0].limit, 0x100010000ull + 4 * 0x1C - 1);
    /* attributes 0..2 as the scene sets them, 3..15 "float, Size = 1, offset 0" */
    CHECK_EQ(s.d.attribs[0].offset, 0);
    CHECK_EQ(s.d.attribs[0].components, 3);
    CHECK_EQ(s.d.attribs[1].offset, 12);
    CHECK_EQ(s.d.attribs[1].components, 2);
    CHECK_EQ(s.d.attribs[2].offset, 20);
    CHECK_EQ(s.d.attribs[2].components, 4);
    for (int a = 3; a < 16; a++) {
        CHECK_EQ(s.d.attribs[a].size, 1);
        CHECK_EQ(s.d.attribs[a].type, 7);
        CHECK_EQ(s.d.attribs[a].offset, 0);
    }
    /* the vertices: position, texture coordinate, colour (unorm bytes) */
    static const float pos[4][2] = {{-0.5f, -0.5f}, {0.5f, -0.5f}, {-0.5f, 0.5f}, {0.5f, 0.5f}};
    static const float uv[4][2] = {{0, 1}, {1, 1}, {0, 0}, {1, 0}};
    static const float col[4][4] = {{1, 0, 0, 1}, {0, 1, 0, 1}, {0, 0, 1, 1}, {1, 1, 1, 1}};
    for (int i = 0; i < 4 && (size_t)i < s.nv; i++) {
        const cg_nv_vertex *v = &s.v[i];
        CHECK_EQ(v->index, (uint32_t)i);
        CHECK(v->attr[0].f[0] == pos[i][0] && v->attr[0].f[1] == pos[i][1]);
        CHECK(v->attr[0].f[2] == 0.0f && v->attr[0].f[3] == 1.0f); /* missing w = 1 */
        CHECK(v->attr[1].f[0] == uv[i][0] && v->attr[1].f[1] == uv[i][1]);
        for (int k = 0; k < 4; k++)
            CHECK(v->attr[2].f[k] == col[i][k]);
        /* attribute 3: 16 bytes at offset 0 = x, y, z, u */
        CHECK(v->attr[3].f[0] == pos[i][0] && v->attr[3].f[3] == uv[i][0]);
    }
    /* the macro bound the texture constant buffer (slot 2 of the fragment
     * stage, 256 bytes at `cb`); the handle at word 8: TIC 1, TSC 2 */
    CHECK_EQ(s.d.cb[4][2].valid, true);
    CHECK_EQ(s.d.cb[4][2].addr, 0x100040000ull);
    CHECK_EQ(s.d.cb[4][2].size, 0x100);
    CHECK_EQ(s.ntex, 1);
    CHECK_EQ(s.tex.stage, 4);
    CHECK_EQ(s.tex.slot, 8);
    CHECK_EQ(s.tex.handle, 0x00200001);
    CHECK_EQ(s.tex.tic_index, 1);
    CHECK_EQ(s.tex.tsc_index, 2);
    CHECK(s.tex.tic_ok && s.tex.tsc_ok);
    CHECK_EQ(s.tex.tic.format, 0x08);
    CHECK_EQ(s.tex.tic.header_version, CG_NV_TIC_BLOCKLINEAR);
    CHECK_EQ(s.tex.tic.address, 0x100020000ull);
    CHECK_EQ(s.tex.tic.width, 8);
    CHECK_EQ(s.tex.tic.height, 8);
    CHECK_EQ(s.tex.tsc.wrap_u, 2);
    CHECK_EQ(s.tex.tsc.mag_filter, 1);
    /* render target 0: 64x64 A8B8G8R8 (0xD5), block linear, 8-GOB blocks */
    CHECK_EQ(s.d.rt_count, 1);
    CHECK_EQ(s.d.rt[0].addr, 0x100050000ull);
    CHECK_EQ(s.d.rt[0].width, 64);
    CHECK_EQ(s.d.rt[0].format, 0xD5);
    CHECK_EQ(s.d.rt[0].pitch, false);
    CHECK_EQ(s.d.rt[0].block_h, 3);

    /* the texture, read back through the TIC (inline upload, block linear) */
    CHECK_EQ(s.read_rc, 0);
    CHECK_EQ(s.w, 8);
    CHECK_EQ(s.h, 8);
    int bad = 0;
    for (uint32_t y = 0; s.rgba && y < 8; y++)
        for (uint32_t x = 0; x < 8; x++) {
            uint8_t want[4];
            texel(x, y, want);
            bad += memcmp(s.rgba + 4 * (y * 8 + x), want, 4) != 0;
        }
    CHECK_EQ(bad, 0);
    free(s.rgba);

    /* the target, copied to pitch: the clear (0.2, 0.4, 0.8, 1.0) as unorm
     * bytes round(f * 255) = 51, 102, 204, 255, and inside scissor 0
     * (x 16..47, y 8..23) R = 255, A = round(0.5 * 255) = 128; then the
     * square (issue 12: draws render): NDC -0.5..0.5 at viewport scale and
     * offset 32 is pixels 16..47 in x and y, the texture coordinate runs
     * u 0..1 left to right and v 1..0 top to bottom, NEAREST: pixel (x, y)
     * shows texel ((x - 16) / 4, 7 - (y - 16) / 4), written unchanged */
    uint8_t *png = NULL;
    uint32_t pw = 0, ph = 0;
    CHECK_EQ(cg_image_read_png("square_rt.png", &png, &pw, &ph), 0);
    CHECK_EQ(pw, 64);
    CHECK_EQ(ph, 64);
    bad = 0;
    for (uint32_t y = 0; png && y < 64; y++)
        for (uint32_t x = 0; x < 64; x++) {
            bool in = x >= 16 && x < 48 && y >= 8 && y < 24;
            uint8_t want[4] = {in ? 255 : 51, 102, 204, in ? 128 : 255};
            if (x >= 16 && x < 48 && y >= 16 && y < 48)
                texel((x - 16) / 4, 7 - (y - 16) / 4, want);
            bad += memcmp(png + 4 * (y * 64 + x), want, 4) != 0;
        }
    CHECK_EQ(bad, 0);
    free(png);

    cg_device_destroy(dev);
    return check_report("test_nv_square_example");
}
