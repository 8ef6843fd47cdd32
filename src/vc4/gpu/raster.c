/* vc4 family: rasterisation (the renderer's): triangles, points and lines
 * of the current tile, shaded in 16-lane fragment batches on the QPU model.
 *
 * Per tile, for each triangle of a compressed list: vertices are 12.4 fixed
 * point; pixel (x, y) is sampled at its centre (16x + 8, 16y + 8). Edge
 * functions E_ab(p) = (b.x - a.x)(p.y - a.y) - (b.y - a.y)(p.x - a.x) are
 * exact 64-bit integers; with the triangle ordered so its area is positive
 * a pixel is covered when every E > 0, or E == 0 on a top edge (dy == 0,
 * dx > 0) or a left edge (dy < 0): the top-left fill rule, Y growing
 * downwards. Z is interpolated linearly in screen space (Zs is already
 * divided), 1/W too, and varyings perspective correctly. Covered pixels are
 * shaded in 2x2 quads, four quads to a 16-lane batch, by the fragment
 * shader on the QPU model, and their colour and Z/S go to the tile buffer. */
#include <math.h>
#include <stdlib.h>
#include "render.h"

/* ---- rasterisation ---- */

static uint32_t z24(float z)
{
    if (!(z > 0.0f))
        return 0;
    if (z >= 1.0f)
        return 0xFFFFFF;
    return (uint32_t)(z * 16777215.0f + 0.5f);
}

static inline bool depth_pass(unsigned func, uint32_t z, uint32_t buf)
{
    switch (func) {
    case 0: return false;
    case 1: return z < buf;
    case 2: return z == buf;
    case 3: return z <= buf;
    case 4: return z > buf;
    case 5: return z != buf;
    case 6: return z >= buf;
    default: return true;
    }
}

typedef struct raster {
    vc4_nv_record nv;
    vc4_vertex vx[3];  /* ordered: positive area */
    const vc4_vertex *v0; /* the first vertex as listed (varyings' C) */
    int64_t area;
    double inv_area;
    int64_t ex[3], ey[3], eb[3]; /* E_i(p) = ex*py + ey*px + eb, edge i opposite vertex i */
    bool incl[3];
    uint32_t nvary;
    /* per-triangle constants of fill_quad_payload, as doubles (exact conversions) */
    double z[3], iw[3];
    double dv[VC4_MAX_VARY][3]; /* (float)(V_k - V_0) per varying and vertex */
    float c[VC4_MAX_VARY];      /* V_0 */
    bool flat[VC4_MAX_VARY];
    /* whether anything can see W (the shader's ra15, varyings) and Z (rb15,
     * early Z): when not, they are not computed and the lanes get 0 */
    bool need_w, need_z;
    uint32_t reverse; /* 1: reverse-facing (the QPU's REV_FLAG) */
    uint32_t skip; /* implicit varyings before the record's (points, lines: clip.c) */
} raster;

/* Set bits of a lane mask (no popcount instruction is assumed). */
static inline unsigned lane_count(uint16_t m)
{
    unsigned x = m - ((m >> 1) & 0x5555u);
    x = (x & 0x3333u) + ((x >> 2) & 0x3333u);
    x = (x + (x >> 4)) & 0x0F0Fu;
    return (x + (x >> 8)) & 0x1Fu;
}

/* Four lanes' words from a 2x2 quad of a tile buffer whose top-left word
 * is p (lanes: (x, y), (x+1, y), (x, y+1), (x+1, y+1)): two 8-byte loads,
 * no per-lane index. */
static inline void quad_load(uint32_t dst[4], const uint32_t *p)
{
    memcpy(dst, p, 8);
    memcpy(dst + 2, p + VC4_TILE, 8);
}

/* qi[j]: quad j's top-left word in the tile buffers (quads start on even
 * pixels, so a quad never crosses the tile's right or bottom edge). */
/* The tile buffer's words the batch's lanes see: the colour the fragment
 * shader may read (tlb_color_in) and, with early Z, the depth test and
 * write before shading. The lanes of a quad are pixels (x, y), (x+1, y),
 * (x, y+1), (x+1, y+1) of the tile; the lanes of unused quads are pixel
 * 0, 0 (the tile's Z/S words are read by the depth tests, straight from the
 * tile buffer). Returns the lanes still live. */
static inline uint16_t batch_tlb_in(vc4_render *r, vc4_frag_batch *b, unsigned nquads,
                                    const uint32_t qi[4], bool early, unsigned func)
{
    const uint8_t *cfg = r->st.config;
    unsigned lanes = nquads * 4;
    uint16_t live = b->mask;
    if (!early) {
        const uint32_t *color = r->color;
        for (unsigned j = 0; j < nquads; j++)
            quad_load(&b->tlb_color_in[4 * j], color + qi[j]);
        uint32_t c0 = color[0];
        for (unsigned l = lanes; l < 16; l++)
            b->tlb_color_in[l] = c0;
        return live;
    }
    /* in lane order: an unused lane reads pixel 0 after a live lane's
     * early Z write to it */
    for (unsigned l = 0; l < 16; l++) {
        unsigned j = l >> 2;
        uint32_t i = j < nquads ? qi[j] + (l & 1) + (l & 2) / 2 * VC4_TILE : 0;
        b->tlb_color_in[l] = r->color[i];
        if (live >> l & 1) {
            uint32_t z = b->frag_z[l];
            if (!depth_pass(func, z, r->zs[i] >> 8))
                live &= (uint16_t)~(1u << l);
            else if (cfg[2] & 2)
                r->zs[i] = z << 8 | (r->zs[i] & 0xFF);
        }
    }
    return live;
}

/* The shaded batch's colour writes (lanes cm) to the tile buffer, without
 * Z: a quad's four words in two 8-byte stores when all four are written,
 * else each row in one 8-byte merge (an unwritten word is stored back as
 * it was). */
static inline void batch_colour_out(vc4_render *r, const vc4_frag_batch *b, unsigned nquads,
                                    const uint32_t qi[4], uint16_t cm)
{
    static const uint64_t keep[4] = {~0ull, ~0xFFFFFFFFull, 0xFFFFFFFFull, 0};
    uint32_t *color = r->color;
    for (unsigned j = 0; j < nquads; j++) {
        unsigned m = cm >> (4 * j) & 15;
        uint32_t *c = color + qi[j];
        if (m == 15) {
            memcpy(c, &b->color[4 * j], 8);
            memcpy(c + VC4_TILE, &b->color[4 * j + 2], 8);
            continue;
        }
        uint64_t s01, s23, c01, c23;
        memcpy(&s01, &b->color[4 * j], 8);
        memcpy(&s23, &b->color[4 * j + 2], 8);
        memcpy(&c01, c, 8);
        memcpy(&c23, c + VC4_TILE, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
        c01 = (c01 & keep[m & 3]) | (s01 & ~keep[m & 3]);
        c23 = (c23 & keep[m >> 2]) | (s23 & ~keep[m >> 2]);
#else
        c01 = (c01 & keep[(m & 1) << 1 | (m >> 1 & 1)]) |
              (s01 & ~keep[(m & 1) << 1 | (m >> 1 & 1)]);
        c23 = (c23 & keep[(m >> 2 & 1) << 1 | (m >> 3)]) |
              (s23 & ~keep[(m >> 2 & 1) << 1 | (m >> 3)]);
#endif
        memcpy(c, &c01, 8);
        memcpy(c + VC4_TILE, &c23, 8);
    }
}

/* The shaded batch's Z (lanes zm: the depth test, then the write when Z
 * updates are on) and colour (lanes cm) to the tile buffer, lane by lane. */
static inline void batch_out(vc4_render *r, const vc4_frag_batch *b, unsigned lanes,
                             const uint32_t qi[4], uint16_t live, uint16_t zm, uint16_t cm,
                             unsigned func)
{
    const uint8_t *cfg = r->st.config;
    for (unsigned l = 0; l < lanes; l++) {
        if (!(live >> l & 1))
            continue;
        uint32_t i = qi[l >> 2] + (l & 1) + (l & 2) / 2 * VC4_TILE;
        if (zm >> l & 1) {
            uint32_t z = b->z_out[l] & 0xFFFFFF;
            if (!depth_pass(func, z, r->zs[i] >> 8))
                continue;
            if (cfg[1] & 0x80)
                r->zs[i] = z << 8 | (r->zs[i] & 0xFF);
        }
        if (cm >> l & 1)
            r->color[i] = b->color[l];
    }
}

static int run_batch(cg_vc4 *v, vc4_thread *t, raster *rs, vc4_frag_batch *b, unsigned nquads,
                     const uint32_t qi[4])
{
    vc4_render *r = v->rend;
    const uint8_t *cfg = r->st.config;
    unsigned lanes = nquads * 4;
    for (unsigned l = lanes; l < 16; l++)
        b->x[l] = b->y[l] = 0;
    unsigned func = (cfg[1] >> 4) & 7;
    bool early = (cfg[2] & 1) && !(r->flags & (1u << 11));
    uint16_t live = batch_tlb_in(r, b, nquads, qi, early, func);
    if (!live)
        return 0;
    b->mask = live;
    /* frag_z is the 24-bit integer Z the QPU reads from B15 (Mesa
     * vc4_program.c converts it with ITOF and 1/0xffffff), frag_w the float
     * W it reads from A15 (research/vc4.md 3) */
    b->color_mask = b->z_mask = b->ms_mask_written = 0;
    b->rev_flag = rs->reverse;
    v->stats.batches++;
    /* every batch costs one unit of the render thread's budget */
    if (v->budget[1] == 0)
        return vc4_fault(v, t, CG_FAULT_HANG, (uint32_t)t->agent.stream_addr,
                         "budget %s ran out while shading",
                         cg_budget_name(CG_BUDGET_VC4_THREAD_UNITS)); /* at the item drawn */
    v->budget[1]--;
    if (!r->qcache && !(r->qcache = vc4_qpu_cache_create()))
        return CG_ERR_NOMEM;
    int rc = vc4_qpu_run_fragment_cached(r->qcache, v->dev, v->bus, &t->agent, rs->nv.code,
                                         rs->nv.unif, b, v->cfg.qpu_budget, v->cfg.qpu_strict);
    if (rc != 0) {
        t->faulted = true;
        t->running = false;
        t->cs |= CG_VC4_CS_ERR;
        return CG_ERR_FAULT;
    }
    v->stats.fragments += lane_count(live);
    uint16_t zm = b->z_mask & live, cm = b->color_mask & live;
    if (!zm)
        batch_colour_out(r, b, nquads, qi, cm);
    else
        batch_out(r, b, lanes, qi, live, zm, cm, func);
    return 0;
}

/* Clear what the renderer and the QPU set per batch. */
static void batch_reset(vc4_frag_batch *b, uint32_t nvary)
{
    b->mask = 0;
    b->nvary = nvary;
    b->color_mask = b->z_mask = b->ms_mask_written = b->alpha_mask_written = 0;
    b->rev_flag = 0;
    b->stencil_writes = 0;
    b->sems = NULL;
}

static inline void copy_vertex(vc4_vertex *d, const vc4_vertex *s, uint32_t nvary)
{
    memcpy(d, s, offsetof(vc4_vertex, vary));
    for (uint32_t i = 0; i < nvary; i++)
        d->vary[i] = s->vary[i];
}

/* Per-triangle constants of fill_quad_payload. */
static void setup_consts(raster *rs, const vc4_render *r)
{
    for (int k = 0; k < 3; k++) {
        rs->z[k] = rs->vx[k].z;
        rs->iw[k] = rs->vx[k].inv_w;
    }
    for (uint32_t i = 0; i < rs->nvary; i++) {
        float c = rs->v0->vary[i];
        rs->c[i] = c;
        rs->flat[i] = r->st.flat_valid && i >= rs->skip &&
                      (r->st.flat_flags >> (i - rs->skip) & 1);
        for (int k = 0; k < 3; k++)
            rs->dv[i][k] = (float)(rs->vx[k].vary[i] - c);
    }
}

/* ---- the quad walk ----
 *
 * One triangle's pixels in the rectangle [x0, x1) x [y0, y1) (the tile, the
 * frame, the clip window and the bounding box), in 2x2 quads aligned to even
 * pixels, row of quads after row of quads, left to right; every quad with a
 * covered pixel takes the next four lanes of the batch, four quads to a
 * batch (the order and packing the QPU sees, and the budget's unit count,
 * are those of the plain per-quad walk this replaced).
 *
 * The edge functions are exact 64-bit integers, linear in the pixel: E_i
 * steps by stx_i = ey_i * 16 per pixel in x and sty_i = ex_i * 16 per pixel
 * in y, so stepping them gives exactly the values evaluating them would. A
 * pixel is covered when E_i >= thr_i for every edge (E > 0, or E == 0 on an
 * included edge). Along one row of pixels each edge's condition holds on a
 * half-line of columns (or on all or none of them), so a row's coverage is
 * one span of columns: the walk finds each pixel row's span (row_spans,
 * exact integer steps from row to row) as a 64-bit mask over the tile's
 * columns, and the quads of a row of quads, and each quad's four coverage
 * bits, come from the two rows' masks by bit operations, with no per-quad
 * or per-pixel edge test. */
typedef struct raster_walk {
    int64_t x0, y0, x1, y1; /* pixel rectangle, inside the tile */
    int64_t tx0, ty0;       /* the tile's top-left pixel */
    int64_t c0, c1;         /* the rectangle's columns over tx0: [c0, c1), within [0, 64] */
    int64_t stx[3], sty[3], thr[3];
    int64_t off[4][3];      /* E of quad pixel k over the top-left pixel's */
} raster_walk;

static void walk_setup(raster_walk *w, const raster *rs, int64_t tx0, int64_t ty0, int64_t x0,
                       int64_t y0, int64_t x1, int64_t y1)
{
    w->x0 = x0, w->y0 = y0, w->x1 = x1, w->y1 = y1;
    w->tx0 = tx0, w->ty0 = ty0;
    w->c0 = x0 - tx0, w->c1 = x1 - tx0;
    for (int i = 0; i < 3; i++) {
        int64_t sx = rs->ey[i] * 16, sy = rs->ex[i] * 16;
        w->stx[i] = sx, w->sty[i] = sy;
        w->thr[i] = rs->incl[i] ? 0 : 1;
        w->off[0][i] = 0, w->off[1][i] = sx, w->off[2][i] = sy, w->off[3][i] = sx + sy;
    }
}

/* The covered columns of pixel rows, row after row: bit c of a row's mask
 * = column c of the tile. With p_i = B_i - thr_i (B_i the edge value at
 * column 0 of the row) and a_i = stx_i, column c is inside edge i when
 * a_i c + p_i >= 0: for a_i < 0 up to floor(p_i / -a_i), for a_i > 0 from
 * -floor(p_i / a_i) (= ceil(-p_i / a_i)) on. From row to row p_i grows by
 * sty_i. An edge with sty_i == 0 (vertical) bounds the same columns on
 * every row and one with a_i == 0 (horizontal) allows every column of a
 * range of rows: both are folded into the span's constant bounds once per
 * triangle and tile. A sloped edge's bound t = floor(P / d) steps from row
 * to row by a quotient and a remainder found once (a digital differential
 * analyser: exact, no division per row). */
typedef struct span_edge {
    int64_t t, rem;     /* floor(P / d), P - t d in [0, d) */
    int64_t d, dq, dr;  /* per row P grows by dq d + dr, 0 <= dr < d */
} span_edge;

typedef struct row_spans {
    span_edge lo[3], hi[3]; /* sloped edges bounding from below (by -t), from above (by t) */
    unsigned nlo, nhi;
    int64_t c0, c1; /* columns [c0, c1) of every row: the rectangle and vertical edges */
    int64_t y0, y1; /* rows [y0, y1): the rectangle and horizontal edges */
} row_spans;

static inline void floor_divmod(int64_t p, int64_t d, int64_t *q, int64_t *r)
{
    int64_t qq = p / d, rr = p % d;
    if (rr < 0)
        rr += d, qq--;
    *q = qq, *r = rr;
}

static void span_edge_init(span_edge *e, int64_t p, int64_t dp, int64_t d)
{
    e->d = d;
    floor_divmod(p, d, &e->t, &e->rem);
    floor_divmod(dp, d, &e->dq, &e->dr);
}

/* The edge's bound on this row, then on to the next row. */
static inline int64_t span_edge_step(span_edge *e)
{
    int64_t t = e->t, r = e->rem + e->dr;
    bool c = r >= e->d;
    e->rem = c ? r - e->d : r;
    e->t = t + e->dq + c;
    return t;
}

/* B: the edge values at column 0 of pixel row ya (the rectangle's first
 * quad row). Leaves the sloped edges for spans_start; false: nothing is
 * covered. */
static bool spans_bounds(row_spans *s, const raster_walk *w, const int64_t B[3], int64_t ya)
{
    s->nlo = s->nhi = 0;
    s->c0 = w->c0, s->c1 = w->c1, s->y0 = w->y0, s->y1 = w->y1;
    for (int i = 0; i < 3; i++) {
        int64_t a = w->stx[i], dp = w->sty[i], p = B[i] - w->thr[i], q, r;
        if (a != 0 && dp != 0)
            continue;
        if (a < 0) {
            floor_divmod(p, -a, &q, &r);
            if (q + 1 < s->c1)
                s->c1 = q + 1;
        } else if (a > 0) {
            floor_divmod(p, a, &q, &r);
            if (-q > s->c0)
                s->c0 = -q;
        } else if (dp < 0) {
            /* dp (y - ya) + p >= 0: y - ya <= floor(p / -dp) */
            floor_divmod(p, -dp, &q, &r);
            if (ya + q + 1 < s->y1)
                s->y1 = ya + q + 1;
        } else if (dp > 0) {
            floor_divmod(p, dp, &q, &r);
            if (ya - q > s->y0)
                s->y0 = ya - q;
        } else if (p < 0) {
            return false;
        }
    }
    return s->c0 < s->c1 && s->y0 < s->y1;
}

/* The sloped edges from pixel row y (B: as for spans_bounds, at row ya). */
static void spans_start(row_spans *s, const raster_walk *w, const int64_t B[3], int64_t ya,
                        int64_t y)
{
    for (int i = 0; i < 3; i++) {
        int64_t a = w->stx[i], dp = w->sty[i];
        if (a == 0 || dp == 0)
            continue;
        int64_t p = B[i] - w->thr[i] + (y - ya) * dp;
        if (a < 0)
            span_edge_init(&s->hi[s->nhi++], p, dp, -a);
        else
            span_edge_init(&s->lo[s->nlo++], p, dp, a);
    }
}

/* Row y's mask (y: the row spans_start started from, then the next, ...). */
static inline uint64_t spans_row(row_spans *s, int64_t y)
{
    int64_t lo = s->c0, hi = s->c1 - 1, t;
    /* at most two edges bound a span on one side (their dy sum to 0) */
    if (s->nlo > 0) {
        t = -span_edge_step(&s->lo[0]);
        lo = t > lo ? t : lo;
        if (s->nlo > 1) {
            t = -span_edge_step(&s->lo[1]);
            lo = t > lo ? t : lo;
        }
    }
    if (s->nhi > 0) {
        t = span_edge_step(&s->hi[0]);
        hi = t < hi ? t : hi;
        if (s->nhi > 1) {
            t = span_edge_step(&s->hi[1]);
            hi = t < hi ? t : hi;
        }
    }
    /* 0 <= c0 <= lo, hi <= c1 - 1 <= 63 */
    if (lo > hi || y < s->y0 || y >= s->y1)
        return 0;
    return (~0ull >> (63 - hi)) & (~0ull << lo);
}

/* Index of the lowest set bit of m (m != 0). */
static inline unsigned low_bit(uint64_t m)
{
#if defined(__GNUC__)
    return (unsigned)__builtin_ctzll(m);
#else
    unsigned n = 0;
    while (!(m & 1))
        m >>= 1, n++;
    return n;
#endif
}

/* Lanes l0..l0+3 get the pixels (x, y), (x+1, y), (x, y+1), (x+1, y+1):
 * two 16-byte stores with the vector extension gcc and clang share. */
#if defined(__GNUC__)
typedef uint32_t rq_v4u __attribute__((vector_size(16)));
static inline void quad_xy(vc4_frag_batch *b, unsigned l0, uint32_t x, uint32_t y)
{
    rq_v4u vx = (rq_v4u){0, 1, 0, 1} + x, vy = (rq_v4u){0, 0, 1, 1} + y;
    memcpy(&b->x[l0], &vx, 16);
    memcpy(&b->y[l0], &vy, 16);
}
#else
static inline void quad_xy(vc4_frag_batch *b, unsigned l0, uint32_t x, uint32_t y)
{
    for (unsigned k = 0; k < 4; k++)
        b->x[l0 + k] = x + (k & 1), b->y[l0 + k] = y + (k >> 1);
}
#endif

/* The four lanes of a quad from l0 for the quad at (qx, qy), whose top-left
 * pixel has edge values e, when Z or W is needed (else fill_quad writes
 * zeros): barycentrics (the edge functions times 1 / area, one division
 * per triangle), Z, W and the varyings, the four lanes at once in double
 * vectors (the vector extension gcc and clang share), each lane with the
 * arithmetic, operation for operation, of a per-pixel evaluation (no FMA:
 * -ffp-contract=off), so every bit is what it would be one lane at a time.
 * Helper lanes (not covered) get the same payload: the triangle's planes
 * extrapolated to the pixel (the TMU takes a quad's derivatives, the mip
 * level, from all four lanes, so zeros chose a wrong level along every edge
 * that splits a quad). */
static void fill_quad_payload(const raster *rs, const raster_walk *w, vc4_frag_batch *b,
                              unsigned l0, int64_t qx, int64_t qy, const int64_t e[3])
{
    typedef double v4d __attribute__((vector_size(32)));
    typedef int64_t v4l __attribute__((vector_size(32)));
    typedef float v4f __attribute__((vector_size(16)));
    quad_xy(b, l0, (uint32_t)qx, (uint32_t)qy);
    double ia = rs->inv_area;
    v4d w0, w1, w2;
    for (unsigned k = 0; k < 4; k++) {
        const int64_t *o = w->off[k];
        w0[k] = (double)(e[0] + o[0]), w1[k] = (double)(e[1] + o[1]);
        w2[k] = (double)(e[2] + o[2]);
    }
    w0 *= ia, w1 *= ia, w2 *= ia;
    if (rs->need_z) {
        v4f z = __builtin_convertvector(w0 * rs->z[0] + w1 * rs->z[1] + w2 * rs->z[2], v4f);
        for (unsigned k = 0; k < 4; k++)
            b->frag_z[l0 + k] = z24(z[k]);
    } else {
        memset(&b->frag_z[l0], 0, 4 * sizeof b->frag_z[0]);
    }
    if (!rs->need_w) {
        /* no varyings either (they need W) */
        memset(&b->frag_w[l0], 0, 4 * sizeof b->frag_w[0]);
        return;
    }
    v4d q = w0 * rs->iw[0] + w1 * rs->iw[1] + w2 * rs->iw[2];
    v4d W = (v4d)((v4l)(1.0 / q) & (q != 0)); /* 1 / q, 0 where q == 0 */
    v4f wf = __builtin_convertvector(W, v4f);
    memcpy(&b->frag_w[l0], &wf, 16);
    for (uint32_t i = 0; i < rs->nvary; i++) {
        /* research/vc4.md 3: a VARYING read gives the perspective-correct
         * part W * (A(x - x0) + B(y - y0)) of a plane through vertex 0 and r5
         * gets C = the value at vertex 0; the shader adds r5. With per-vertex
         * values V_k, the plane interpolates (V_k - V_0) / W_k. Flat-shaded
         * varyings (Flat_Shade_Flags) read 0 and C = V_0. */
        v4f p = {0, 0, 0, 0};
        if (!rs->flat[i]) {
            const double *dv = rs->dv[i];
            v4d s = w0 * dv[0] * rs->iw[0] + w1 * dv[1] * rs->iw[1] + w2 * dv[2] * rs->iw[2];
            p = __builtin_convertvector(W * s, v4f);
        }
        memcpy(&b->vary[i][l0], &p, 16);
        v4f c = {rs->c[i], rs->c[i], rs->c[i], rs->c[i]};
        memcpy(&b->vary_c[i][l0], &c, 16);
    }
}

static inline void fill_quad(const raster *rs, const raster_walk *w, vc4_frag_batch *b,
                             unsigned nq, int64_t qx, int64_t qy, const int64_t e[3],
                             unsigned qmask)
{
    unsigned l0 = nq * 4;
    if (!rs->need_w && !rs->need_z) {
        quad_xy(b, l0, (uint32_t)qx, (uint32_t)qy);
        memset(&b->frag_z[l0], 0, 4 * sizeof b->frag_z[0]);
        memset(&b->frag_w[l0], 0, 4 * sizeof b->frag_w[0]);
    } else {
        fill_quad_payload(rs, w, b, l0, qx, qy, e);
    }
    b->mask |= (uint16_t)(qmask << l0);
}

/* zc: the Z clipping planes (clip.c), applied to each quad's coverage.
 *
 * Rows of quads from the rectangle's top (on an even pixel row): the two
 * pixel rows' coverage masks (a row outside [y0, y1) has none), then the
 * quads holding a set bit, left to right, each quad's coverage the two
 * bits of either row at its column; the edge values at the quad's top-left
 * pixel (for the Z clipping planes and the payload) are computed only when
 * something needs them. */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static int walk_quads(cg_vc4 *v, vc4_thread *t, raster *rs, const raster_walk *w,
                      const vc4_zclip *zc)
{
    vc4_frag_batch *b = v->rend->batch;
    batch_reset(b, rs->nvary);
    unsigned nq = 0;
    uint32_t qi[4] = {0, 0, 0, 0}; /* the batch's quads' words in the tile buffers */
    const bool need_e = rs->need_w || rs->need_z || zc->on;
    int64_t ya = w->y0 & ~1ll;
    int64_t B[3]; /* E at the tile's column 0 of pixel row qy */
    for (int i = 0; i < 3; i++)
        B[i] = rs->ex[i] * (ya * 16 + 8) + rs->ey[i] * (w->tx0 * 16 + 8) + rs->eb[i];
    row_spans sp;
    if (!spans_bounds(&sp, w, B, ya))
        return 0;
    /* from the first quad row holding a row in [sp.y0, sp.y1) */
    int64_t ys = sp.y0 & ~1ll;
    spans_start(&sp, w, B, ya, ys);
    for (int i = 0; i < 3; i++)
        B[i] += (ys - ya) * w->sty[i];
    for (int64_t qy = ys; qy < sp.y1; qy += 2) {
        uint64_t m0 = spans_row(&sp, qy), m1 = spans_row(&sp, qy + 1);
        /* bit 2j: quad j (columns 2j, 2j + 1) holds a covered pixel */
        uint64_t quads = ((m0 | m1) | (m0 | m1) >> 1) & 0x5555555555555555ull;
        uint32_t rowi = (uint32_t)((qy - w->ty0) * VC4_TILE); /* + column: the quad's word */
        if (!need_e) {
            /* no payload but the pixel coordinates (and zeros) */
            unsigned mask = b->mask;
            /* bit 2j: quad j is wholly covered */
            uint64_t full = m0 & m1 & (m0 & m1) >> 1 & 0x5555555555555555ull;
            while (quads) {
                unsigned c = low_bit(quads);
                quads &= quads - 1;
                if (nq == 0 && (full >> c & 0x55) == 0x55) {
                    /* four wholly covered quads: a whole batch */
                    for (unsigned j = 0; j < 4; j++) {
                        quad_xy(b, 4 * j, (uint32_t)(w->tx0 + c + 2 * j), (uint32_t)qy);
                        qi[j] = rowi + c + 2 * j;
                    }
                    memset(b->frag_z, 0, sizeof b->frag_z);
                    memset(b->frag_w, 0, sizeof b->frag_w);
                    quads &= ~(0x54ull << c);
                    b->mask = 0xFFFF;
                    int rc = run_batch(v, t, rs, b, 4, qi);
                    batch_reset(b, rs->nvary);
                    if (rc)
                        return rc;
                    continue;
                }
                unsigned qmask = (unsigned)(m0 >> c & 3) | (unsigned)(m1 >> c & 3) << 2;
                unsigned l0 = nq * 4;
                quad_xy(b, l0, (uint32_t)(w->tx0 + c), (uint32_t)qy);
                memset(&b->frag_z[l0], 0, 4 * sizeof b->frag_z[0]);
                memset(&b->frag_w[l0], 0, 4 * sizeof b->frag_w[0]);
                mask |= qmask << l0;
                qi[nq] = rowi + c;
                if (++nq == 4) {
                    b->mask = (uint16_t)mask;
                    int rc = run_batch(v, t, rs, b, nq, qi);
                    batch_reset(b, rs->nvary);
                    nq = 0, mask = 0;
                    if (rc)
                        return rc;
                }
            }
            b->mask = (uint16_t)mask;
        }
        while (quads) {
            unsigned c = low_bit(quads);
            quads &= quads - 1;
            unsigned qmask = (unsigned)(m0 >> c & 3) | (unsigned)(m1 >> c & 3) << 2;
            int64_t e[3];
            for (int i = 0; i < 3; i++)
                e[i] = B[i] + w->stx[i] * (int64_t)c;
            if (zc->on) {
                int64_t e4[4][3];
                for (unsigned k = 0; k < 4; k++)
                    for (int i = 0; i < 3; i++)
                        e4[k][i] = e[i] + w->off[k][i];
                qmask = vc4_zclip_quad(zc, (const int64_t(*)[3])e4, qmask);
                if (!qmask)
                    continue;
            }
            fill_quad(rs, w, b, nq, w->tx0 + c, qy, e, qmask);
            qi[nq] = rowi + c;
            if (++nq == 4) {
                int rc = run_batch(v, t, rs, b, nq, qi);
                batch_reset(b, rs->nvary);
                nq = 0;
                if (rc)
                    return rc;
            }
        }
        for (int i = 0; i < 3; i++)
            B[i] += 2 * w->sty[i];
    }
    return nq ? run_batch(v, t, rs, b, nq, qi) : 0;
}

/* The shader state's fragment shader (rs->nv) and the shaded vertices of
 * idx[0..n). */
static int fetch_vertices(cg_vc4 *v, vc4_thread *t, raster *rs_, const uint32_t *idx, unsigned n,
                          vc4_vertex *in, vc4_page_cache *pc)
{
    vc4_render *r = v->rend;
    raster *rsp = rs_;
    rsp->skip = 0;
#define rs (*rsp)
    /* faults name the compressed-list item being drawn (compressed_list
     * keeps it in the agent), as the record's address names a record */
    if (!r->st.nv_valid)
        return vc4_fault(v, t, CG_FAULT_BAD_STATE, (uint32_t)t->agent.stream_addr,
                         "primitive before NV_Shader_State");
    if (r->st.gl) {
        /* GL mode: the fragment shader from the GL record, the vertices
         * from the vertex shader (gl.c) */
        const vc4_gl_record *g;
        if (!r->glc && vc4_gl_cache_reset(&r->glc) != 0)
            return CG_ERR_NOMEM;
        if (vc4_gl_cached_record(v, t, r->glc, r->st.nv_record, &g) != 0)
            return CG_ERR_FAULT;
        memset(&rs.nv, 0, sizeof rs.nv);
        rs.nv.flags = g->flags;
        rs.nv.nvary = g->fs_nvary;
        rs.nv.code = g->fs_code;
        rs.nv.unif = g->fs_unif;
        uint32_t i3[3] = {idx[0], idx[n > 1 ? 1 : 0], idx[n > 2 ? 2 : 0]};
        vc4_vertex o3[3];
        if (vc4_gl_vertices(v, t, g, i3, r->st.vp_x, r->st.vp_y, r->glc, o3) != 0)
            return CG_ERR_FAULT;
        for (unsigned j = 0; j < n; j++)
            in[j] = o3[j];
    } else {
        vc4_list_cache *lc = r->lc;
        if (lc && lc->nv_ok && lc->nv_addr == r->st.nv_record) {
            rs.nv = lc->nv;
        } else {
            if (vc4_read_nv_record(v, &t->agent, r->st.nv_record, &rs.nv) != 0)
                return CG_ERR_FAULT;
            if (lc)
                lc->nv = rs.nv, lc->nv_addr = r->st.nv_record, lc->nv_ok = true;
        }
        for (unsigned j = 0; j < n; j++)
            if (vc4_read_vertex(v, &t->agent, &rs.nv, idx[j], r->st.vp_x, r->st.vp_y, &in[j],
                                pc) != 0)
                return CG_ERR_FAULT;
    }
#undef rs
    return 0;
}

static int draw_triangle(cg_vc4 *v, vc4_thread *t, raster *rsp_in, const vc4_vertex in[3],
                         bool cull);

int vc4_render_triangle(cg_vc4 *v, vc4_thread *t, const uint32_t idx[3], vc4_page_cache *pc)
{
    raster rs;
    vc4_vertex in[3];
    int rc = fetch_vertices(v, t, &rs, idx, 3, in, pc);
    return rc ? rc : draw_triangle(v, t, &rs, in, true);
}

/* Points and lines become two triangles each (GL ES 2.0 rasterisation,
 * docs/vc4.md "Points and lines"): never culled, always front-facing. */
static int draw_quad(cg_vc4 *v, vc4_thread *t, raster *rs, const vc4_vertex q[4])
{
    vc4_vertex a[3] = {q[0], q[1], q[2]}, b[3] = {q[2], q[1], q[3]};
    int rc = draw_triangle(v, t, rs, a, false);
    return rc ? rc : draw_triangle(v, t, rs, b, false);
}

static float point_size_of(const vc4_render *r, const vc4_vertex *x, uint8_t flags)
{
    float s = (flags & 2) ? x->psize : r->point_size;
    if (!(s >= 1.0f))
        s = 1.0f; /* ES 2.0: the aliased point size range starts at 1 (NaN too) */
    return s > 2048.0f ? 2048.0f : s;
}

int vc4_render_point(cg_vc4 *v, vc4_thread *t, uint32_t idx, vc4_page_cache *pc)
{
    raster rs;
    vc4_vertex p;
    int rc = fetch_vertices(v, t, &rs, &idx, 1, &p, pc);
    if (rc)
        return rc;
    /* a square of side s centred on the vertex: half side in 1/16 pixel */
    int32_t h = (int32_t)(point_size_of(v->rend, &p, rs.nv.flags) * 8.0f + 0.5f);
    vc4_vertex q[4] = {p, p, p, p};
    q[0].x -= h, q[0].y -= h;
    q[1].x += h, q[1].y -= h;
    q[2].x -= h, q[2].y += h;
    q[3].x += h, q[3].y += h;
    rs.nv.nvary = vc4_pse_varyings(q, true, rs.nv.nvary);
    rs.skip = 2;
    return draw_quad(v, t, &rs, q);
}

static int draw_line(cg_vc4 *v, vc4_thread *t, raster *rs, const vc4_vertex e[2]);

int vc4_render_line(cg_vc4 *v, vc4_thread *t, const uint32_t idx[2], vc4_page_cache *pc)
{
    raster rs;
    vc4_vertex e[2];
    int rc = fetch_vertices(v, t, &rs, idx, 2, e, pc);
    return rc ? rc : draw_line(v, t, &rs, e);
}

/* A line between two shaded vertices (also a clipped line, h_clipped) */
static int draw_line(cg_vc4 *v, vc4_thread *t, raster *rs, const vc4_vertex e[2])
{
    float w = v->rend->line_width;
    if (!(w >= 1.0f))
        w = 1.0f;
    if (w > 2048.0f)
        w = 2048.0f;
    int32_t h = (int32_t)(w * 8.0f + 0.5f);
    int64_t dx = (int64_t)e[1].x - e[0].x, dy = (int64_t)e[1].y - e[0].y;
    bool xmajor = (dx < 0 ? -dx : dx) >= (dy < 0 ? -dy : dy);
    /* ES 2.0 wide lines: offset in the minor direction by +-w/2 (columns of
     * w fragments for an x-major line) */
    int32_t ox = xmajor ? 0 : h, oy = xmajor ? h : 0;
    vc4_vertex q[4] = {e[0], e[0], e[1], e[1]};
    q[0].x -= ox, q[0].y -= oy;
    q[1].x += ox, q[1].y += oy;
    q[2].x -= ox, q[2].y -= oy;
    q[3].x += ox, q[3].y += oy;
    raster rl = *rs;
    rl.nv.nvary = vc4_pse_varyings(q, false, rs->nv.nvary);
    rl.skip = 1;
    return draw_quad(v, t, &rl, q);
}

/* What the fragment shader reads of its payload (W, Z), and so what the
 * batches must supply: the shader's code cannot change while this
 * primitive's batches run (nothing writes memory meanwhile), so the answer
 * holds (and holds for the list, lc). */
static inline void raster_payload(cg_vc4 *v, raster *rs)
{
    vc4_render *r = v->rend;
    bool uw, uz;
    vc4_list_cache *lc = r->lc;
    if (lc && lc->pu_ok && lc->code == rs->nv.code) {
        uw = lc->use_w, uz = lc->use_z;
    } else {
        vc4_qpu_cache_payload_use(r->qcache, v->bus, rs->nv.code, &uw, &uz);
        if (lc)
            lc->code = rs->nv.code, lc->use_w = uw, lc->use_z = uz, lc->pu_ok = true;
    }
    bool early = (r->st.config[2] & 1) && !(r->flags & (1u << 11));
    rs->need_w = uw || rs->nvary > 0;
    rs->need_z = uz || early;
}

/* The edge functions: edge i runs from vertex i+1 to vertex i+2 (opposite
 * vertex i). */
static inline void raster_edges(raster *rs)
{
    const int64_t px[3] = {rs->vx[0].x, rs->vx[1].x, rs->vx[2].x};
    const int64_t py[3] = {rs->vx[0].y, rs->vx[1].y, rs->vx[2].y};
#define RS_EDGE(i, ia, ic)                                                                       \
    do {                                                                                         \
        int64_t dx = px[ic] - px[ia], dy = py[ic] - py[ia];                                      \
        rs->ex[i] = dx;  /* * py */                                                              \
        rs->ey[i] = -dy; /* * px */                                                              \
        rs->eb[i] = -dx * py[ia] + dy * px[ia];                                                  \
        rs->incl[i] = dy < 0 || (dy == 0 && dx > 0);                                             \
    } while (0)
    RS_EDGE(0, 1, 2);
    RS_EDGE(1, 2, 0);
    RS_EDGE(2, 0, 1);
#undef RS_EDGE
}

/* The pixel range [x0, x1) x [y0, y1) a triangle may cover: the tile, the
 * frame, the clip window, the bounding box; false: empty. */
static inline bool tri_pixels(const vc4_render *r, const vc4_vertex in[3], int64_t *px0,
                              int64_t *py0, int64_t *px1, int64_t *py1)
{
    int64_t x0 = (int64_t)r->tile_x * VC4_TILE, y0 = (int64_t)r->tile_y * VC4_TILE;
    int64_t x1 = x0 + VC4_TILE, y1 = y0 + VC4_TILE;
    if (x1 > r->width) x1 = r->width;
    if (y1 > r->height) y1 = r->height;
    if (r->st.clip_valid) {
        int64_t l = r->st.clip[0], bt = r->st.clip[1];
        if (x0 < l) x0 = l;
        if (y0 < bt) y0 = bt;
        if (x1 > l + r->st.clip[2]) x1 = l + r->st.clip[2];
        if (y1 > bt + r->st.clip[3]) y1 = bt + r->st.clip[3];
    }
    int64_t mnx = in[0].x, mxx = in[0].x, mny = in[0].y, mxy = in[0].y;
    for (int j = 1; j < 3; j++) {
        if (in[j].x < mnx) mnx = in[j].x;
        if (in[j].x > mxx) mxx = in[j].x;
        if (in[j].y < mny) mny = in[j].y;
        if (in[j].y > mxy) mxy = in[j].y;
    }
    int64_t bx0 = (mnx - 8 + 15) >> 4, bx1 = ((mxx - 8) >> 4) + 1;
    int64_t by0 = (mny - 8 + 15) >> 4, by1 = ((mxy - 8) >> 4) + 1;
    if (x0 < bx0) x0 = bx0;
    if (y0 < by0) y0 = by0;
    if (x1 > bx1) x1 = bx1;
    if (y1 > by1) y1 = by1;
    *px0 = x0, *py0 = y0, *px1 = x1, *py1 = y1;
    return x0 < x1 && y0 < y1;
}

static int draw_triangle(cg_vc4 *v, vc4_thread *t, raster *rsp_in, const vc4_vertex in[3],
                         bool cull)
{
    vc4_render *r = v->rend;
    raster rs; /* every field is set below (dv, c, flat: the first nvary) */
    rs.nv = rsp_in->nv;
    rs.skip = rsp_in->skip;
    int64_t area2 = (int64_t)(in[1].x - in[0].x) * (in[2].y - in[0].y) -
                    (int64_t)(in[2].x - in[0].x) * (in[1].y - in[0].y);
    static const uint8_t no_cfg[3] = {3, 0x70, 0};
    if (!r->st.config_valid)
        memcpy(r->st.config, no_cfg, 3);
    if (area2 == 0 || (cull && vc4_tri_culled(r->st.config, area2)))
        return 0;
    {
        /* as in vc4_tri_culled: area2 < 0 is counter-clockwise on screen */
        bool ccw = area2 < 0;
        bool front = (r->st.config[0] & 4) ? !ccw : ccw;
        rs.reverse = cull && !front;
    }
    rs.nvary = rs.nv.nvary > VC4_MAX_VARY ? VC4_MAX_VARY : rs.nv.nvary;
    /* what is read of a vertex: the fields before the varyings, the
     * first nvary varyings */
    copy_vertex(&rs.vx[0], &in[0], rs.nvary);
    copy_vertex(&rs.vx[1], area2 > 0 ? &in[1] : &in[2], rs.nvary);
    copy_vertex(&rs.vx[2], area2 > 0 ? &in[2] : &in[1], rs.nvary);
    rs.v0 = &in[0];
    rs.area = area2 > 0 ? area2 : -area2;
    rs.inv_area = 1.0 / (double)rs.area;
    setup_consts(&rs, r);
    vc4_zclip zc; /* depth offset into rs.z, Z clipping planes (clip.c) */
    vc4_depth_setup(&r->st, r->st.gl && (rs.nv.flags & 4), cull, rs.vx, rs.inv_area, rs.z, &zc);
    if (!r->qcache && !(r->qcache = vc4_qpu_cache_create()))
        return CG_ERR_NOMEM;
    raster_payload(v, &rs);
    raster_edges(&rs);
    int64_t x0, y0, x1, y1;
    if (!tri_pixels(r, in, &x0, &y0, &x1, &y1))
        return 0;
    /* quads are aligned to even pixels; pixels outside [x0, x1) x [y0, y1)
     * stay uncovered (the clip window may start on an odd pixel) */
    if (!r->batch && !(r->batch = calloc(1, sizeof *r->batch)))
        return CG_ERR_NOMEM;
    raster_walk w;
    walk_setup(&w, &rs, (int64_t)r->tile_x * VC4_TILE, (int64_t)r->tile_y * VC4_TILE, x0, y0, x1,
               y1);
    return walk_quads(v, t, &rs, &w, &zc);
}


/* The clipped primitive of the block at bus address a (gl.h VC4_CLIP_BLOCK:
 * the original vertices' indices, the polygon's screen positions, Zs, 1/Wc
 * and barycentric weights; its varyings are those weights of the vertex
 * shader's), drawn as a fan (in a line list: the clipped line, drawn as a
 * line). */
int vc4_render_clipped(cg_vc4 *v, vc4_thread *t, uint32_t a)
{
    vc4_render *r = v->rend;
    int rc;
    uint8_t blk[VC4_CLIP_BLOCK(VC4_CLIP_MAX)];
    if (vc4_bus_read(v->bus, a, blk, 16, &t->agent) != 0)
        return CG_ERR_FAULT;
    uint32_t n = vc4_le32(blk);
    bool line = r->st.prim_format == 0x11; /* a clipped line (gl.h) */
    if (line ? n != 2 : (n < 3 || n > 5))
        return vc4_fault(v, t, CG_FAULT_BAD_STATE, a,
                         "clipped primitive at 0x%08x has %u vertices (%s)", a, n,
                         line ? "2 in a line list" : "3..5");
    if (vc4_bus_read(v->bus, (uint64_t)a + 16, blk + 16, 28 * n, &t->agent) != 0)
        return CG_ERR_FAULT;
    uint32_t idx[3] = {vc4_le32(blk + 4), vc4_le32(blk + 8), vc4_le32(blk + 12)};
    raster rs;
    vc4_vertex in[3], p[5];
    if (!r->glc && vc4_gl_cache_reset(&r->glc) != 0)
        return CG_ERR_NOMEM;
    if ((rc = fetch_vertices(v, t, &rs, idx, 3, in, NULL)))
        return rc;
    uint32_t nv = rs.nv.nvary > VC4_MAX_VARY ? VC4_MAX_VARY : rs.nv.nvary;
    memset(p, 0, sizeof p);
    for (uint32_t j = 0; j < n; j++) {
        const uint8_t *q = blk + 16 + 28 * j;
        float bw[3] = {vc4_f32(vc4_le32(q + 16)), vc4_f32(vc4_le32(q + 20)),
                       vc4_f32(vc4_le32(q + 24))};
        /* the binner saturates them to 16 bits; a hostile block is held
         * to the same range */
        int32_t bx = (int32_t)vc4_le32(q), by = (int32_t)vc4_le32(q + 4);
        bx = bx < -32768 ? -32768 : bx > 32767 ? 32767 : bx;
        by = by < -32768 ? -32768 : by > 32767 ? 32767 : by;
        p[j].x = bx + r->st.vp_x;
        p[j].y = by + r->st.vp_y;
        p[j].z = vc4_f32(vc4_le32(q + 8));
        p[j].inv_w = vc4_f32(vc4_le32(q + 12));
        for (uint32_t k = 0; k < nv; k++)
            p[j].vary[k] = bw[0] * in[0].vary[k] + bw[1] * in[1].vary[k] + bw[2] * in[2].vary[k];
    }
    if (line && (rc = draw_line(v, t, &rs, p)))
        return rc;
    for (uint32_t j = 1; j + 1 < n; j++) {
        vc4_vertex tri[3] = {p[0], p[j], p[j + 1]};
        if ((rc = draw_triangle(v, t, &rs, tri, true)))
            return rc;
    }
    return 0;
}
