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
#include <math.h>
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

/* A line crossing the near or far plane (GL ES 2.0 section 2.13: a line
 * is clipped like a polygon, a point discarded unless inside): the part of
 * the segment with Zc + Wc >= 0 and Wc - Zc >= 0. */
int vc4_clip_line(const vc4_gl_coord c[2], vc4_clip_vertex out[2])
{
    double t0 = 0, t1 = 1;
    for (int p = 0; p < 2; p++) {
        double d0 = p == 0 ? (double)c[0].clip[2] + c[0].clip[3]
                           : (double)c[0].clip[3] - c[0].clip[2];
        double d1 = p == 0 ? (double)c[1].clip[2] + c[1].clip[3]
                           : (double)c[1].clip[3] - c[1].clip[2];
        if (d0 != d0 || d1 != d1 || (d0 < 0 && d1 < 0))
            return 0;
        if (d0 < 0 && d0 / (d0 - d1) > t0)
            t0 = d0 / (d0 - d1);
        if (d1 < 0 && d0 / (d0 - d1) < t1)
            t1 = d0 / (d0 - d1);
    }
    if (t0 > t1)
        return 0;
    double t[2] = {t0, t1};
    for (int j = 0; j < 2; j++) {
        for (int k = 0; k < 4; k++) {
            double a = c[0].clip[k], b = c[1].clip[k];
            out[j].c[k] = (float)(a + t[j] * (b - a));
        }
        out[j].b[0] = (float)(1 - t[j]);
        out[j].b[1] = (float)t[j];
        out[j].b[2] = 0.0f;
        if (!(out[j].c[3] > 0.0f))
            return 0; /* W = 0 with Z = 0 only: nothing to draw */
    }
    return 2;
}

/* ---- the implicit varyings of points and lines ----
 *
 * Mesa's vc4 fragment shaders for points start with two varying reads the
 * vertex shader never writes (vc4_program.c vc4_shader_ntq: is_points ->
 * point_x, point_y = emit_fragment_varying(c, ~0, 0), before any other
 * input), for lines with one (is_lines -> line_x); such inputs are left
 * out of the record's varying count and of the vertex shader's outputs
 * (vc4_setup_compiled_fs_inputs: "Skip non-VS-output inputs"). So the
 * hardware hands a point's sprite coordinates to the fragment shader as
 * the first two varyings, and a line one value, before the record's. The
 * point's t: Mesa gives gl_PointCoord.y = 1 - point_y when gallium asks for
 * an upper-left origin (emit_point_coord_input, point_coord_upper_left),
 * i.e. t = 0 on the render target's top row, so the hardware's point_y is 1
 * on the top edge (screen Y grows downwards) and 0 on the bottom; s runs 0
 * to 1 left to right (GL ES 2.0 section 3.3). The line's value: Mesa's v3d
 * (the successor) says "the line coord varies from 0.0 to 1.0 across the
 * width of the line" (v3d_nir_lower_line_smooth.c); which side is 0 is not
 * given: the model's is the side offset by -w/2 (top of an x-major line,
 * left of a y-major one). The values are linear across the point's square
 * and the line's parallelogram (all corners share 1/Wc). */
uint32_t vc4_pse_varyings(vc4_vertex q[4], bool point, uint32_t nvary)
{
    static const float s[4] = {0, 1, 0, 1}, tt[4] = {1, 1, 0, 0};
    uint32_t k = point ? 2 : 1;
    uint32_t n = nvary + k > VC4_MAX_VARY ? VC4_MAX_VARY : nvary + k;
    for (int j = 0; j < 4; j++) {
        memmove(&q[j].vary[k], &q[j].vary[0], sizeof(float) * (n - k));
        q[j].vary[0] = s[j];
        if (point)
            q[j].vary[1] = tt[j];
    }
    return n;
}

/* ---- depth offset and the Z clipping planes ----
 *
 * Depth_Offset (opcode 101, Mesa v3d_packet_v21.xml: factor in bits 15:0,
 * units in 31:16) holds two "float 1-8-7" values, the top 16 bits of an
 * IEEE single (Mesa vc4_state.c float_to_187_half: fui(f) >> 16); Mesa sets
 * Configuration_Bits bit 3 (VC4_CONFIG_BITS_ENABLE_DEPTH_OFFSET) for
 * offset_tri, i.e. GL_POLYGON_OFFSET_FILL, so the offset applies to
 * triangles only (GL ES 2.0 section 3.5.5 likewise: polygons). The offset is
 * GL ES 2.0's o = m x factor + r x units. Mesa's vc4 driver passes
 * offset_units unscaled, and Mesa's v3d driver (the same hardware family's
 * successor) scales units by 256 for a 16-bit Z buffer because "the HW
 * treats polygon offset units based on a Z24 buffer" (v3dx_state.c): so r
 * is one step of the 24-bit Z buffer, 1 / (2^24 - 1) in the model's Z
 * (render.c z24 maps Zs to round(Zs x (2^24 - 1))). m is the larger of
 * |dZs/dx| and |dZs/dy| in pixels, the approximation ES 2.0 allows for the
 * maximum depth slope (no source gives the hardware's exact formula; the
 * model's choice). A NaN offset (NaN factor or units, or infinity x 0) is
 * none; an infinite one moves Z to 0 or 1 (the Z buffer's clamp).
 *
 * Z_min_and_max_clipping_planes (opcode 104: f32 Minimum_Zw, f32
 * Maximum_Zw). Mesa's vc4 driver never sends it (and the kernel refuses it
 * in a bin CL); Mesa's v3d driver fills it with translate[2] -+ scale[2],
 * the window-Z range of the viewport, so the planes are in Zs (after
 * Clipper_Z_Scale_and_Offset). The clipper cuts primitives at the planes;
 * Zs is linear on the screen, so cutting a primitive at Zs = zmin and Zs =
 * zmax covers exactly the fragments whose interpolated Zs lies in [zmin,
 * zmax]: the model discards the others (both ends inclusive). Applied when
 * the GL record enables clipping (flag bit 2: without it the clipper does
 * not run) and the record was given. zmin > zmax or a NaN plane keep
 * nothing. */
void vc4_depth_setup(const vc4_bin_state *st, bool clipping, bool polygon, const vc4_vertex v[3],
                     double inv_area, double z[3], vc4_zclip *zc)
{
    zc->on = clipping && st->zplanes_valid;
    if (zc->on) {
        zc->zmin = st->zmin, zc->zmax = st->zmax, zc->inv_area = inv_area;
        for (int k = 0; k < 3; k++)
            zc->z[k] = v[k].z;
    }
    if (!polygon || !st->config_valid || !(st->config[0] & 8) || !st->depth_offset_valid)
        return;
    double factor = vc4_f32(st->depth_offset << 16);
    double units = vc4_f32(st->depth_offset & 0xFFFF0000u);
    /* the plane Zs = Z0 + a x + b y through the vertices (x, y in 1/16
     * pixel) */
    double x1 = (double)v[1].x - v[0].x, y1 = (double)v[1].y - v[0].y;
    double x2 = (double)v[2].x - v[0].x, y2 = (double)v[2].y - v[0].y;
    double z1 = (double)v[1].z - v[0].z, z2 = (double)v[2].z - v[0].z;
    double area = x1 * y2 - x2 * y1;
    if (area == 0)
        return;
    double a = (z1 * y2 - z2 * y1) / area * 16.0, b = (x1 * z2 - x2 * z1) / area * 16.0;
    double m = fabs(a) > fabs(b) ? fabs(a) : fabs(b);
    double o = m * factor + units / 16777215.0;
    if (o != o)
        return;
    for (int k = 0; k < 3; k++)
        z[k] += o;
}

unsigned vc4_zclip_quad(const vc4_zclip *zc, const int64_t e[4][3], unsigned qmask)
{
    for (unsigned k = 0; k < 4; k++) {
        if (!(qmask >> k & 1))
            continue;
        double z = ((double)e[k][0] * zc->z[0] + (double)e[k][1] * zc->z[1] +
                    (double)e[k][2] * zc->z[2]) * zc->inv_area;
        if (!(z >= zc->zmin && z <= zc->zmax))
            qmask &= ~(1u << k);
    }
    return qmask;
}
