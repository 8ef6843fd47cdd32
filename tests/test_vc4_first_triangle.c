/* FIRST TRIANGLE (seed 003) end to end: examples/vc4/first_triangle.s is
 * assembled and run as a scene; the frame buffer must hash to the golden
 * value, and its white pixels must be exactly the pixels whose centres the
 * three edges cover, counted here analytically (rational arithmetic per
 * row, top-left rule), not with the renderer's edge functions. */
#include <stdlib.h>
#include "check.h"
#include "scene_util.h"
#include "cmdgpu/cmdgpu.h"

#define GOLDEN_HASH 0xab4e631d2f5d14c4ull

/* Pixels (x, y) of a 640x480 frame whose centre (x + 1/2, y + 1/2) lies in
 * the triangle (320,32) (32,448) (608,448): for a row centre yc in (32, 448)
 * the span is x_l <= xc < x_r with x_l = 320 - (yc - 32) * 288 / 416 (the
 * left edge is included) and x_r = 320 + (yc - 32) * 288 / 416 (the right
 * edge is not). In units of 1/832: xc = (2x + 1) * 416, yc - 32 = (2y + 1 -
 * 64) / 2, so x_l * 832 = 320 * 832 - (2y - 63) * 288 and likewise x_r. */
static long expected_pixels(void)
{
    long n = 0;
    for (long y = 0; y < 480; y++) {
        long t = 2 * y - 63; /* 2 * (yc - 32) */
        if (t <= 0 || 2 * y + 1 >= 2 * 448)
            continue;
        long xl = 320 * 832 - t * 288, xr = 320 * 832 + t * 288;
        for (long x = 0; x < 640; x++) {
            long xc = (2 * x + 1) * 416;
            if (xc >= xl && xc < xr)
                n++;
        }
    }
    return n;
}

int main(void)
{
    cg_device *dev;
    CHECK_EQ(cg_device_create(&dev), 0);
    FILE *log = tmpfile();
    uint64_t hash = 0;
    cg_scene_opts so = {.log = log, .frame_png = "first_triangle_test.png", .frame_hash = &hash};
    CHECK_EQ(test_scene_run(CG_FAMILY_VC4, CMDGPU_SOURCE_DIR "/examples/vc4/first_triangle.s",
                            NULL, 0, dev, &so), 0);
    CHECK_EQ(hash, GOLDEN_HASH);
    CHECK_EQ(cg_fault_count(dev), 0);

    /* count white pixels in the written PNG */
    uint8_t *rgba = NULL;
    uint32_t w = 0, h = 0;
    CHECK_EQ(cg_image_read_png("first_triangle_test.png", &rgba, &w, &h), 0);
    CHECK_EQ(w, 640);
    CHECK_EQ(h, 480);
    long white = 0, cyan = 0, other = 0;
    for (size_t i = 0; rgba && i < (size_t)w * h; i++) {
        const uint8_t *p = rgba + 4 * i;
        if (p[0] == 255 && p[1] == 255 && p[2] == 255 && p[3] == 255)
            white++;
        else if (p[0] == 0 && p[1] == 255 && p[2] == 255 && p[3] == 255)
            cyan++; /* clear colour 0xFF00FFFF as 0xAARRGGBB */
        else
            other++;
    }
    long want = expected_pixels();
    printf("covered pixels: %ld (analytic %ld), background %ld\n", white, want, cyan);
    CHECK_EQ(white, want);
    CHECK_EQ(white, 119808);
    CHECK_EQ(other, 0);
    CHECK_EQ(white + cyan, 640 * 480);
    free(rgba);
    if (log) {
        /* the log names the tile list of tile (6, 1) as in the blog's dump */
        rewind(log);
        char line[512];
        int seen_branch = 0, seen_clip = 0;
        while (fgets(line, sizeof line, log)) {
            if (strstr(line, "0x0040021c: relative branch"))
                seen_branch = 1;
            if (strstr(line, "0x00400212: command number 0x66 (102), Clip_Window"))
                seen_clip = 1;
        }
        CHECK(seen_branch);
        CHECK(seen_clip);
        fclose(log);
    }
    remove("first_triangle_test.png");
    remove("first_triangle.png");
    cg_device_destroy(dev);
    return check_report("test_vc4_first_triangle");
}
