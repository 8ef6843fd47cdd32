/* vc4 family: the clipper's decision for a triangle in GL shader mode.
 *
 * The clip volume is OpenGL ES 2.0's: -Wc <= Xc, Yc, Zc <= Wc (the
 * coordinate shader writes Xc, Yc, Zc, Wc first, Mesa vc4_program.c
 * emit_coord_end). X and Y need no clipping: the screen coordinates the
 * shader computes go to the rasteriser, which only draws inside the clip
 * window and the frame (the guard band); the Reference Guide says the
 * clipper clips only primitives that cross the guard band or the near and
 * far planes. A triangle with all vertices outside one plane is discarded.
 * A triangle crossing Zc = -Wc or Zc = Wc, or with a vertex at Wc <= 0,
 * needs new vertices: vc4_clip_near_far cuts it against both planes in
 * clip space (Sutherland-Hodgman), each new vertex given by its clip
 * coordinates and its barycentric weights on the original triangle, so its
 * varyings are the same weights of the vertex shader's (attributes are
 * linear in clip space). docs/vc4.md "GL shader mode". */
#include "gl.h"

int vc4_clip_classify(const vc4_gl_coord c[3])
{
    /* bit p of out[j]: vertex j outside plane p (x-, x+, y-, y+, z-, z+) */
    unsigned out[3];
    bool needs = false;
    for (int j = 0; j < 3; j++) {
        float x = c[j].clip[0], y = c[j].clip[1], z = c[j].clip[2], w = c[j].clip[3];
        out[j] = (unsigned)(x < -w) | (unsigned)(x > w) << 1 | (unsigned)(y < -w) << 2 |
                 (unsigned)(y > w) << 3 | (unsigned)(z < -w) << 4 | (unsigned)(z > w) << 5;
        /* NaN compares false everywhere: treat as outside every plane */
        if (x != x || y != y || z != z || w != w)
            out[j] = 63;
        if ((out[j] & 0x30) || !(w > 0.0f))
            needs = true;
    }
    if (out[0] & out[1] & out[2])
        return 1;
    return needs ? 2 : 0;
}

/* distance to the near (z + w >= 0) and far (w - z >= 0) planes */
static double plane(const vc4_clip_vertex *v, int p)
{
    return p == 0 ? (double)v->c[2] + v->c[3] : (double)v->c[3] - v->c[2];
}

int vc4_clip_near_far(const vc4_gl_coord c[3], vc4_clip_vertex out[VC4_CLIP_MAX])
{
    vc4_clip_vertex a[VC4_CLIP_MAX], *in = a, *res = out;
    int n = 3;
    for (int j = 0; j < 3; j++) {
        for (int k = 0; k < 4; k++)
            a[j].c[k] = c[j].clip[k];
        for (int k = 0; k < 3; k++)
            a[j].b[k] = j == k ? 1.0f : 0.0f;
    }
    for (int p = 0; p < 2; p++) {
        int m = 0;
        for (int j = 0; j < n; j++) {
            const vc4_clip_vertex *u = &in[j], *w = &in[(j + 1) % n];
            double du = plane(u, p), dw = plane(w, p);
            if (du >= 0 && m < VC4_CLIP_MAX)
                res[m++] = *u;
            if ((du >= 0) != (dw >= 0) && m < VC4_CLIP_MAX) {
                double t = du / (du - dw);
                vc4_clip_vertex *x = &res[m++];
                for (int k = 0; k < 4; k++)
                    x->c[k] = (float)(u->c[k] + t * (w->c[k] - u->c[k]));
                for (int k = 0; k < 3; k++)
                    x->b[k] = (float)(u->b[k] + t * (w->b[k] - u->b[k]));
            }
        }
        n = m;
        vc4_clip_vertex *tmp = in;
        in = res;
        res = tmp;
    }
    /* after two passes the result is back in `a`'s partner: copy to out */
    if (in != out)
        memcpy(out, in, sizeof(vc4_clip_vertex) * (size_t)n);
    for (int j = 0; j < n; j++)
        if (!(out[j].c[3] > 0.0f))
            return 0; /* only W = 0 with Z = 0 reaches here: nothing to draw */
    return n >= 3 ? n : 0;
}
