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
 * needs new vertices (the hardware writes them into the tile lists behind
 * Clipped_Primitive records, in a layout no source the model has states),
 * which the caller reports. docs/vc4.md "GL shader mode". */
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
