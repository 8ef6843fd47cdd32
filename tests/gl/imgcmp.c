/* Compare two RGBA PAM images (tests/gl/gles_cases.c writes them):
 *
 *   imgcmp A.pam B.pam TOL
 *
 * Prints how many pixels differ at all and by how much at most, and exits
 * 1 when any channel of any pixel differs by more than TOL (in 1/255
 * steps) or the sizes differ: a pixel one side covers and the other does
 * not differs by far more than a rounding step, so TOL 0 or 1 also holds
 * the coverage equal. Exit 2 for unreadable input. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    int w, h;
    uint8_t *px;
} image;

static int load(const char *path, image *im)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    char line[128];
    int depth = 0, maxval = 0;
    im->w = im->h = 0;
    if (!fgets(line, sizeof line, f) || strcmp(line, "P7\n") != 0) {
        fclose(f);
        return -1;
    }
    while (fgets(line, sizeof line, f) && strcmp(line, "ENDHDR\n") != 0) {
        sscanf(line, "WIDTH %d", &im->w);
        sscanf(line, "HEIGHT %d", &im->h);
        sscanf(line, "DEPTH %d", &depth);
        sscanf(line, "MAXVAL %d", &maxval);
    }
    if (im->w <= 0 || im->h <= 0 || im->w > 8192 || im->h > 8192 || depth != 4 ||
        maxval != 255) {
        fclose(f);
        return -1;
    }
    size_t n = (size_t)im->w * (size_t)im->h * 4;
    im->px = malloc(n);
    int rc = im->px && fread(im->px, 1, n, f) == n ? 0 : -1;
    fclose(f);
    return rc;
}

int main(int argc, char **argv)
{
    image a, b;
    if (argc != 4) {
        fprintf(stderr, "usage: imgcmp A.pam B.pam TOL\n");
        return 2;
    }
    int tol = atoi(argv[3]);
    if (load(argv[1], &a) || load(argv[2], &b)) {
        fprintf(stderr, "imgcmp: cannot read %s or %s as an RGBA PAM\n", argv[1], argv[2]);
        return 2;
    }
    if (a.w != b.w || a.h != b.h) {
        printf("imgcmp: sizes differ: %dx%d and %dx%d\n", a.w, a.h, b.w, b.h);
        return 1;
    }
    int differ = 0, beyond = 0, maxd = 0, first_x = -1, first_y = -1;
    for (int y = 0; y < a.h; y++)
        for (int x = 0; x < a.w; x++) {
            const uint8_t *p = a.px + ((size_t)y * a.w + x) * 4, *q = b.px + ((size_t)y * a.w + x) * 4;
            int d = 0;
            for (int c = 0; c < 4; c++) {
                int e = abs(p[c] - q[c]);
                d = e > d ? e : d;
            }
            differ += d > 0;
            if (d > tol && beyond++ == 0)
                first_x = x, first_y = y;
            maxd = d > maxd ? d : maxd;
        }
    printf("imgcmp: %d pixels, %d differ (at most %d in a channel), %d beyond the tolerance %d",
           a.w * a.h, differ, maxd, beyond, tol);
    if (beyond) {
        const uint8_t *p = a.px + ((size_t)first_y * a.w + first_x) * 4;
        const uint8_t *q = b.px + ((size_t)first_y * a.w + first_x) * 4;
        printf("; the first at (%d,%d): %02x%02x%02x%02x vs %02x%02x%02x%02x", first_x, first_y,
               p[0], p[1], p[2], p[3], q[0], q[1], q[2], q[3]);
    }
    printf("\n");
    free(a.px);
    free(b.px);
    return beyond ? 1 : 0;
}
