/* vc4 family: its part of `cmdgpu demo` (include/cmdgpu/family.h). */
#include <stdio.h>
#include "scene.h"

/* seed 003's FIRST TRIANGLE scene, as the blog wrote it: mailbox, binning
 * and render lists, NV shader record, fragment shader on the QPU. */
static int demo_first_triangle(cg_demo_ctx *d)
{
    cg_device *dev = NULL;
    cg_scene *sc = NULL;
    FILE *log = NULL;
    int rc = -1;
    char txt[1024], src[1024];
    snprintf(txt, sizeof(txt), "%s/vc4_first_triangle.txt", d->dir);
    snprintf(src, sizeof(src), "%s/vc4/first_triangle.s", d->examples);
    if (cg_device_create(&dev) != 0 ||
        cg_scene_assemble(&cg_vc4_family, NULL, src, NULL, 0, &sc) != 0)
        goto out;
    if (!(log = fopen(txt, "w")))
        goto out;
    uint64_t hash = 0;
    cg_scene_opts so = {.log = log, .out_dir = d->dir, .frame_hash = &hash};
    int r = cg_scene_run(sc, dev, &so);
    fprintf(d->log, "vc4/first_triangle: seed 003 (JayStation2), 640x480x32\n");
    fprintf(d->log, "  wrote %s/first_triangle.png  pixel hash %016llx\n", d->dir,
            (unsigned long long)hash);
    fprintf(d->log, "  wrote %s  scene log and tile list dump\n", txt);
    cg_demo_faults(d, dev, "vc4");
    rc = r == 0 ? 0 : -1;
out:
    if (log)
        fclose(log);
    cg_scene_destroy(sc);
    cg_device_destroy(dev);
    return rc;
}

const cg_demo vc4_demos[1] = {{"vc4/first_triangle", demo_first_triangle}};
