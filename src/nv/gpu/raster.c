/* nv: triangle rasterisation for the 3D pipeline (pipeline.h).
 *
 * Rules (docs/nv-pipeline.md):
 * - window coordinates are snapped to 24.8 fixed point (8 bits of sub-pixel
 *   precision, as D3D11 requires at least; OpenGL 4.6 section 14.6 leaves
 *   the precision to the implementation), clamped to +-2^22 pixels so every
 *   edge product fits 64 bits;
 * - a pixel is covered when its centre (x + 0.5, y + 0.5) is inside the
 *   triangle; a centre exactly on an edge is covered only for top and left
 *   edges (the D3D top-left rule, which OpenGL permits: "the rule ... must
 *   be such that a fragment on a shared edge is produced exactly once");
 * - covered pixels go out as 2x2 quads, 8 quads to a warp, lanes
 *   4k..4k+3 = top-left, top-right, bottom-left, bottom-right, so a shader
 *   can take derivatives; uncovered lanes of a quad run as helpers.
 * Plane equations are fitted through the snapped vertices in double. */
#include <math.h>
#include <string.h>
#include "pipeline.h"
#include "sass_lanes.h"

#define SUB (1 << NV_SUBPIXEL_BITS)

int64_t nv_raster_snap(float x)
{
    double d = x;
    if (!(d == d))
        return 0;
    if (d > NV_RASTER_MAX_COORD)
        d = NV_RASTER_MAX_COORD;
    if (d < -NV_RASTER_MAX_COORD)
        d = -NV_RASTER_MAX_COORD;
    return (int64_t)llround(d * SUB);
}

/* Edge function of a -> b at p, 24.8 inputs: positive on the inside of a
 * triangle of positive area (x right, y down). */
static inline int64_t edge(int64_t ax, int64_t ay, int64_t bx, int64_t by, int64_t px, int64_t py)
{
    return (bx - ax) * (py - ay) - (by - ay) * (px - ax);
}

void nv_raster_snap_tri(const nv_rv v[3], double xy[6])
{
    for (unsigned i = 0; i < 3; i++) {
        xy[2 * i] = (double)nv_raster_snap(v[i].x) / SUB;
        xy[2 * i + 1] = (double)nv_raster_snap(v[i].y) / SUB;
    }
}

void nv_raster_plane_at(const double xy[6], const float val[3], nv_sass_plane *p)
{
    double x0 = xy[0], y0 = xy[1], x1 = xy[2], y1 = xy[3], x2 = xy[4], y2 = xy[5];
    double det = (x1 - x0) * (y2 - y0) - (x2 - x0) * (y1 - y0);
    double d1 = (double)val[1] - val[0], d2 = (double)val[2] - val[0];
    p->flat = 0;
    if (det == 0 || !isfinite(d1) || !isfinite(d2)) {
        p->a = p->b = 0;
        p->c = val[0];
        return;
    }
    double a = (d1 * (y2 - y0) - d2 * (y1 - y0)) / det;
    double b = (d2 * (x1 - x0) - d1 * (x2 - x0)) / det;
    p->a = (float)a;
    p->b = (float)b;
    p->c = (float)((double)val[0] - a * x0 - b * y0);
}

void nv_raster_plane(const nv_rv v[3], const float val[3], nv_sass_plane *p)
{
    double xy[6];
    nv_raster_snap_tri(v, xy);
    nv_raster_plane_at(xy, val, p);
}

/* The top-left rule for an edge a -> b of a triangle of positive area
 * (y down): a top edge is horizontal and runs right (dx > 0), a left edge
 * runs up (dy < 0). Centres on other edges are outside: bias -1. */
static inline int64_t tl_bias(int64_t ax, int64_t ay, int64_t bx, int64_t by)
{
    int64_t dx = bx - ax, dy = by - ay;
    return (dy < 0 || (dy == 0 && dx > 0)) ? 0 : -1;
}

/* Narrow the steps [*j0, *j1) of a row to those where a + d * j >= 0 can
 * hold (a: an edge's value at step 0 plus its lanes' largest offset, d:
 * its change per step). false: none. */
static inline bool span_of(int64_t a, int64_t d, int64_t *j0, int64_t *j1)
{
    if (d == 0)
        return a >= 0;
    if (d > 0) {
        if (a < 0) {
            int64_t j = (-a + d - 1) / d; /* first j with a + d j >= 0 */
            if (j > *j0)
                *j0 = j;
        }
        return true;
    }
    if (a < 0)
        return false;
    int64_t j = a / -d + 1; /* past the last j with a + d j >= 0 */
    if (j < *j1)
        *j1 = j;
    return true;
}

/* Hand a warp of quads to fn: the lanes' sample positions and depth
 * (lanes of quads past nquads repeat the last quad's: never active), in
 * lane loops over the whole warp (sass_lanes.c). */
static int flush(nv_frags *f, const nv_sass_plane *zp, nv_frag_fn fn, void *user)
{
    for (unsigned k = f->nquads; k < 8; k++) {
        f->qx[k] = f->qx[f->nquads - 1];
        f->qy[k] = f->qy[f->nquads - 1];
    }
    /* eight quads of one row: in x order, so the first and last tell */
    bool row = f->nquads == 8 && f->qy[7] == f->qy[0] && f->qx[7] == f->qx[0] + 14;
    nv_lanes()->quad_pos(f->qx, f->qy, row, zp->a, zp->b, zp->c, f->x, f->y, f->z);
    int rc = fn(user, f);
    f->nquads = 0;
    f->cover = 0;
    return rc;
}

/* A triangle ready for the quad walk: snapped vertices with a positive
 * winding, its candidate pixels [px0, px1) x [py0, py1) inside the clip,
 * the top-left biases and per-pixel steps of its three edge functions, and
 * its screen-linear depth plane. */
typedef struct rtri {
    int64_t X[3], Y[3];
    int64_t px0, px1, py0, py1;
    int64_t b0, b1, b2;
    int64_t e0dx, e0dy, e1dx, e1dy, e2dx, e2dy;
    nv_sass_plane zp;
} rtri;

/* Snap the vertices, make the winding positive, bound and clip. false when
 * no pixel can be covered (a vertex not finite, no area, outside the
 * clip). */
static bool tri_setup(const nv_rv vin[3], const nv_rect *clip, rtri *t)
{
    nv_rv v[3] = {vin[0], vin[1], vin[2]};
    int64_t *X = t->X, *Y = t->Y;
    for (int i = 0; i < 3; i++)
        if (!isfinite(v[i].x) || !isfinite(v[i].y))
            return false;
    for (int i = 0; i < 3; i++)
        X[i] = nv_raster_snap(v[i].x), Y[i] = nv_raster_snap(v[i].y);
    int64_t area = edge(X[0], Y[0], X[1], Y[1], X[2], Y[2]);
    if (area == 0)
        return false;
    if (area < 0) { /* make the winding positive: swap 1 and 2 */
        int64_t tmp = X[1];
        X[1] = X[2], X[2] = tmp;
        tmp = Y[1], Y[1] = Y[2], Y[2] = tmp;
        nv_rv tv = v[1];
        v[1] = v[2], v[2] = tv;
    }
    /* bounding box in pixels, inside the clip rectangle */
    int64_t minx = X[0], maxx = X[0], miny = Y[0], maxy = Y[0];
    for (int i = 1; i < 3; i++) {
        if (X[i] < minx) minx = X[i];
        if (X[i] > maxx) maxx = X[i];
        if (Y[i] < miny) miny = Y[i];
        if (Y[i] > maxy) maxy = Y[i];
    }
    /* pixel p is a candidate when p*SUB + SUB/2 lies in [min, max] */
    t->px0 = (minx - SUB / 2 + SUB - 1) >> NV_SUBPIXEL_BITS;
    t->px1 = ((maxx - SUB / 2) >> NV_SUBPIXEL_BITS) + 1;
    t->py0 = (miny - SUB / 2 + SUB - 1) >> NV_SUBPIXEL_BITS;
    t->py1 = ((maxy - SUB / 2) >> NV_SUBPIXEL_BITS) + 1;
    if (t->px0 < clip->x0) t->px0 = clip->x0;
    if (t->py0 < clip->y0) t->py0 = clip->y0;
    if (t->px1 > clip->x1) t->px1 = clip->x1;
    if (t->py1 > clip->y1) t->py1 = clip->y1;
    if (t->px0 >= t->px1 || t->py0 >= t->py1)
        return false;
    t->b0 = tl_bias(X[1], Y[1], X[2], Y[2]);
    t->b1 = tl_bias(X[2], Y[2], X[0], Y[0]);
    t->b2 = tl_bias(X[0], Y[0], X[1], Y[1]);
    /* edge steps per pixel */
    t->e0dx = -(Y[2] - Y[1]) * SUB, t->e0dy = (X[2] - X[1]) * SUB;
    t->e1dx = -(Y[0] - Y[2]) * SUB, t->e1dy = (X[0] - X[2]) * SUB;
    t->e2dx = -(Y[1] - Y[0]) * SUB, t->e2dy = (X[1] - X[0]) * SUB;
    /* screen-linear depth plane */
    float zv[3] = {v[0].z, v[1].z, v[2].z};
    double xy[6] = {(double)X[0] / SUB, (double)Y[0] / SUB, (double)X[1] / SUB,
                    (double)Y[1] / SUB, (double)X[2] / SUB, (double)Y[2] / SUB};
    nv_raster_plane_at(xy, zv, &t->zp); /* nv_raster_plane of v: X, Y are its snapping */
    return true;
}

int nv_raster_tri(const nv_rv vin[3], const nv_rect *clip, nv_frag_fn fn, void *user,
                  uint64_t *pixels)
{
    rtri t;
    if (!tri_setup(vin, clip, &t))
        return 0;
    const int64_t *X = t.X, *Y = t.Y;
    const int64_t px0 = t.px0, px1 = t.px1, py0 = t.py0, py1 = t.py1;
    const int64_t b0 = t.b0, b1 = t.b1, b2 = t.b2;
    const int64_t e0dx = t.e0dx, e0dy = t.e0dy, e1dx = t.e1dx, e1dy = t.e1dy;
    const int64_t e2dx = t.e2dx, e2dy = t.e2dy;
    /* Walk the bounding box in 2x2 quads, row by row; the quads with a
     * covered pixel go to fn in warps of eight (flush). */
    nv_frags f;
    f.nquads = 0;
    f.cover = 0;
    uint64_t count = 0;
    int64_t qy0 = py0 & ~(int64_t)1, qx0 = px0 & ~(int64_t)1;
    /* lane l of a quad is pixel (qx + (l & 1), qy + l / 2): its edge
     * values are the quad's plus these */
    const int64_t o0[4] = {0, e0dx, e0dy, e0dx + e0dy}, o1[4] = {0, e1dx, e1dy, e1dx + e1dy},
                  o2[4] = {0, e2dx, e2dy, e2dx + e2dy};
    int64_t omin0 = 0, omin1 = 0, omin2 = 0, omax0 = 0, omax1 = 0, omax2 = 0;
    for (unsigned l = 1; l < 4; l++) {
        omin0 = o0[l] < omin0 ? o0[l] : omin0;
        omin1 = o1[l] < omin1 ? o1[l] : omin1;
        omin2 = o2[l] < omin2 ? o2[l] : omin2;
        omax0 = o0[l] > omax0 ? o0[l] : omax0;
        omax1 = o1[l] > omax1 ? o1[l] : omax1;
        omax2 = o2[l] > omax2 ? o2[l] : omax2;
    }
    for (int64_t qy = qy0; qy < py1; qy += 2) {
        int64_t cy = qy * SUB + SUB / 2;
        int64_t cx = qx0 * SUB + SUB / 2;
        int64_t r0 = edge(X[1], Y[1], X[2], Y[2], cx, cy) + b0;
        int64_t r1 = edge(X[2], Y[2], X[0], Y[0], cx, cy) + b1;
        int64_t r2 = edge(X[0], Y[0], X[1], Y[1], cx, cy) + b2;
        /* rows of the quad inside [py0, py1) (lanes 0-1 top, 2-3 bottom) */
        unsigned rows = (qy >= py0 ? 3u : 0u) | (qy + 1 < py1 ? 12u : 0u);
        /* the quads of the row not wholly outside an edge: the test below
         * skips the others anyway; stepping over them is the same */
        int64_t j0 = 0, j1 = (px1 - qx0 + 1) / 2;
        if (!span_of(r0 + omax0, 2 * e0dx, &j0, &j1) || !span_of(r1 + omax1, 2 * e1dx, &j0, &j1) ||
            !span_of(r2 + omax2, 2 * e2dx, &j0, &j1) || j0 >= j1)
            continue;
        int64_t qx1 = qx0 + 2 * j1;
        r0 += j0 * 2 * e0dx;
        r1 += j0 * 2 * e1dx;
        r2 += j0 * 2 * e2dx;
        for (int64_t qx = qx0 + 2 * j0; qx < qx1; qx += 2, r0 += 2 * e0dx, r1 += 2 * e1dx, r2 += 2 * e2dx) {
            unsigned in = rows & ((qx >= px0 ? 5u : 0u) | (qx + 1 < px1 ? 10u : 0u));
            unsigned m = 15;
            if (r0 + omax0 < 0 || r1 + omax1 < 0 || r2 + omax2 < 0) {
                continue; /* every lane outside one edge */
            } else if (r0 + omin0 < 0 || r1 + omin1 < 0 || r2 + omin2 < 0) {
                /* not every lane inside every edge: lane by lane */
                m = 0;
                for (unsigned l = 0; l < 4; l++)
                    m |= (unsigned)((r0 + o0[l] >= 0) & (r1 + o1[l] >= 0) & (r2 + o2[l] >= 0))
                         << l;
            }
            m &= in;
            if (!m)
                continue;
            unsigned k = f.nquads++;
            f.qx[k] = (int32_t)qx;
            f.qy[k] = (int32_t)qy;
            f.cover |= (uint32_t)m << (4 * k);
            count += (0xe994u >> (2 * (m & 7)) & 3) + (m >> 3); /* bits of m */
            if (f.nquads == 8) {
                int rc = flush(&f, &t.zp, fn, user);
                if (rc)
                    return rc;
            }
        }
    }
    if (pixels)
        *pixels += count;
    if (f.nquads)
        return flush(&f, &t.zp, fn, user);
    return 0;
}
