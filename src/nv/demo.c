/* nv family: its part of `cmdgpu demo` (include/cmdgpu/family.h): the
 * example scenes under examples/nv/, their dumps and PNGs written into the
 * demo's directory. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "cmdgpu/image.h"
#include "scene.h"

/* Run examples/nv/FILE with its files landing in d->dir; draw_fn (may be
 * NULL) sees every draw. */
static int run_example(cg_demo_ctx *d, const char *file, void (*draw_fn)(void *, const void *),
                       void *user)
{
    char path[1024];
    snprintf(path, sizeof(path), "%s/nv/%s", d->examples, file);
    cg_device *dev = NULL;
    cg_scene *sc = NULL;
    if (cg_device_create(&dev) != 0)
        return -1;
    int rc = cg_scene_assemble(&cg_nv_family, NULL, path, NULL, 0, &sc);
    if (rc == 0) {
        cg_scene_opts o = {.log = d->log, .name = path, .out_dir = d->dir, .draw_fn = draw_fn,
                           .draw_user = user};
        rc = cg_scene_run(sc, dev, &o);
    }
    if (rc != 0)
        fprintf(d->log, "  %s: %s\n", path, rc > 0 ? "failed" : cg_strerror(rc));
    cg_demo_faults(d, dev, file);
    cg_scene_destroy(sc);
    cg_device_destroy(dev);
    return rc ? -1 : 0;
}

static int demo_scene(cg_demo_ctx *d, const char *file)
{
    fprintf(d->log, "nv/%s\n", file);
    return run_example(d, file, NULL, NULL);
}

static int demo_fence(cg_demo_ctx *d) { return demo_scene(d, "fence.s"); }
static int demo_upload_copy(cg_demo_ctx *d) { return demo_scene(d, "upload_copy.s"); }
static int demo_blit(cg_demo_ctx *d) { return demo_scene(d, "blit.s"); }
static int demo_rects(cg_demo_ctx *d) { return demo_scene(d, "rects.s"); }

/* seed 000's textured square (examples/nv/textured_square.s). The draw
 * renders into render target 0 (square_rt.png, by the scene's .png); its
 * record goes to square_draws.json, each texture it reaches to
 * square_tic_N.png, and the log gets one line per draw and per texture. */
typedef struct square_ctx {
    cg_demo_ctx *d;
    FILE *json;
    unsigned ndraws;
    int failed;
} square_ctx;

static void square_texture(square_ctx *c, const cg_nv_draw *dr, const cg_nv_tex_binding *t)
{
    uint8_t *rgba = NULL;
    uint32_t w = 0, h = 0;
    int rc = t->tic_ok ? cg_nv_tex_read_rgba8(dr->vas, &t->tic, &rgba, &w, &h) : CG_ERR_FAULT;
    if (rc) {
        fprintf(c->d->log, "  texture tic %u: %s\n", t->tic_index, cg_strerror(rc));
        c->failed = 1;
        return;
    }
    char path[1024];
    snprintf(path, sizeof(path), "%s/square_tic_%u.png", c->d->dir, t->tic_index);
    const char *fmt = cg_nv_tex_format_name(t->tic.format);
    fprintf(c->d->log, "  texture: stage %u handle 0x%08x -> TIC %u (%s %ux%u), TSC %u\n",
            t->stage, t->handle, t->tic_index, fmt ? fmt : "?", w, h, t->tsc_index);
    cg_image img = {w, h, (size_t)w * 4, CG_FORMAT_RGBA8888, rgba};
    rc = cg_image_write_png(path, &img);
    if (rc) {
        fprintf(c->d->log, "  cannot write %s: %s\n", path, cg_strerror(rc));
        c->failed = 1;
    } else {
        fprintf(c->d->log, "  wrote %-28s %ux%u pixel hash %016llx\n", path, img.width,
                img.height, (unsigned long long)cg_image_hash(&img));
    }
    free(rgba);
}

static void square_draw(void *user, const void *draw)
{
    square_ctx *c = user;
    const cg_nv_draw *dr = draw;
    fputs(c->ndraws++ ? ",\n" : "\n", c->json);
    cg_nv_draw_print_json(c->json, dr);
    const char *topo = cg_nv_enum_name(CG_NV_CLASS_3D, "BEGIN", "OP", dr->topology);
    fprintf(c->d->log, "  draw %llu: %s, vertices %u..%u, %zu fetched, %zu texture(s)\n",
            (unsigned long long)dr->seq, topo ? topo : "?", dr->first,
            dr->first + dr->count - 1, dr->nvertices, dr->ntextures);
    for (size_t i = 0; i < dr->ntextures; i++)
        square_texture(c, dr, &dr->textures[i]);
}

static int demo_square(cg_demo_ctx *d)
{
    char json[1024];
    snprintf(json, sizeof(json), "%s/square_draws.json", d->dir);
    square_ctx c = {.d = d};
    if (!(c.json = fopen(json, "w")))
        return -1;
    fprintf(d->log, "nv/textured_square.s (seed 000: macro, TIC/TSC, vertex fetch, clear, "
                    "shaders, draw)\n");
    fputs("{\"draws\":[", c.json);
    int rc = run_example(d, "textured_square.s", square_draw, &c);
    fputs("\n]}\n", c.json);
    if (fclose(c.json) != 0) {
        fprintf(d->log, "  cannot write %s: %s\n", json, strerror(errno));
        c.failed = 1;
    }
    fprintf(d->log, "  wrote %s  %u draw record(s)\n", json, c.ndraws);
    return rc || c.failed || c.ndraws != 1 ? -1 : 0;
}

const cg_demo nv_demos[5] = {
    {"nv/fence", demo_fence},   {"nv/upload_copy", demo_upload_copy}, {"nv/blit", demo_blit},
    {"nv/rects", demo_rects},   {"nv/textured_square", demo_square},
};
