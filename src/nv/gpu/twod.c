/* nv: FERMI_TWOD_A (902D), the 2D engine: pixels-from-memory blits and solid
 * primitives.
 *
 * Surfaces (cl902d.h, research/nv.md section 5): FORMAT, MEMORY_LAYOUT (1 =
 * pitch), BLOCK_SIZE (height 6:4, depth 10:8), DEPTH, LAYER, PITCH, WIDTH,
 * HEIGHT, OFFSET_UPPER/LOWER, for DST at 0x200 and SRC at 0x230.
 *
 * Blit: writing PIXELS_FROM_MEMORY_SRC_Y0_INT runs it. Destination pixel
 * (DST_X0 + i, DST_Y0 + j) for i < DST_WIDTH, j < DST_HEIGHT samples the source
 * at u = SRC_X0 + (i + 0.5) * DU_DX, v = SRC_Y0 + (j + 0.5) * DV_DY (all 32.32
 * fixed point) with SAMPLE_MODE ORIGIN CENTER; with ORIGIN CORNER the + 0.5
 * is left out. Under CENTER, SRC_X0 / SRC_Y0 name the first column / row
 * sampled whichever way the walk goes: a negative step (a mirrored or
 * flipped blit) starts at the far edge of that texel, SRC + 1. Mesa's nvc0
 * relies on it (nvc0_surface.c nvc0_blit_eng2d: SRC_Y0 = y + h - 1 with
 * DV_DY = -1 for the flipped blit of glReadPixels), as does Ryujinx's
 * TwodClass; walking from SRC itself would read one row off. POINT takes texel (floor u, floor v); BILINEAR blends the four
 * texels around (u - 0.5, v - 0.5). Source coordinates clamp to the surface;
 * destination pixels outside the surface are not written. These sampling
 * rules are the model's reading of the method names (yuzu fermi_2d.cpp scales
 * the same way); formats convert through floats.
 *
 * Solid primitives: RENDER_SOLID_PRIM_POINT_X_Y, or a POINT_SET_X(j) then
 * POINT_Y(j) pair, gives a vertex; once PRIM_MODE has enough (points 1,
 * lines 2, triangles 3, rects 2; polylines draw from the previous vertex)
 * the primitive is drawn in SET_RENDER_SOLID_PRIM_COLOR, read in
 * COLOR_FORMAT and converted to the destination format. Rects cover
 * [x0, x1) x [y0, y1); lines use Bresenham including both ends; triangles
 * cover the pixels whose centres are inside (top-left rule not modelled).
 *
 * SET_OPERATION: SRCCOPY (3) and SRCCOPY_AND (0; its AND with the clip and
 * chroma-key tests, which this model does not have, leaves a plain copy);
 * ROP, BLEND and premultiplied modes are not supported yet. */
#include <math.h>
#include <string.h>
#include "core/half.h"
#include "nv/tables/fields.h"
#include "nv/nv_internal.h"


typedef struct surf {
    uint32_t fmt;
    unsigned bpp;
    bool pitch;
    uint64_t base;
    uint32_t pitch_bytes, w, h, layer;
    nv_bl bl;
} surf;

static unsigned fmt_bpp(uint32_t fmt)
{
    switch (fmt) {
    case 0xCF: case 0xD5: return 4;  /* A8R8G8B8, A8B8G8R8 */
    case 0xE8: case 0xE9: case 0xEE: return 2; /* R5G6B5, A1R5G5B5, R16 */
    case 0xF3: return 1;             /* R8 */
    case 0xCA: return 8;             /* RF16_GF16_BF16_AF16 */
    case 0xC0: return 16;            /* RF32_GF32_BF32_AF32 */
    default: return 0;
    }
}

static float unorm(uint32_t v, unsigned bits) { return (float)v / (float)((1u << bits) - 1); }

static uint32_t to_unorm(float f, unsigned bits)
{
    if (!(f > 0))
        return 0;
    if (f >= 1)
        return (1u << bits) - 1;
    return (uint32_t)lrintf(f * (float)((1u << bits) - 1));
}

static void decode(uint32_t fmt, const uint8_t *p, float c[4])
{
    uint16_t u16 = (uint16_t)(p[0] | p[1] << 8);
    c[3] = 1;
    switch (fmt) {
    case 0xCF: c[2] = unorm(p[0], 8), c[1] = unorm(p[1], 8), c[0] = unorm(p[2], 8), c[3] = unorm(p[3], 8); break;
    case 0xD5: c[0] = unorm(p[0], 8), c[1] = unorm(p[1], 8), c[2] = unorm(p[2], 8), c[3] = unorm(p[3], 8); break;
    case 0xE8: c[0] = unorm(u16 >> 11, 5), c[1] = unorm((u16 >> 5) & 63, 6), c[2] = unorm(u16 & 31, 5); break;
    case 0xE9:
        c[3] = (float)(u16 >> 15), c[0] = unorm((u16 >> 10) & 31, 5);
        c[1] = unorm((u16 >> 5) & 31, 5), c[2] = unorm(u16 & 31, 5);
        break;
    case 0xEE: c[0] = unorm(u16, 16), c[1] = c[2] = 0; break;
    case 0xF3: c[0] = unorm(p[0], 8), c[1] = c[2] = 0; break;
    case 0xCA:
        for (int i = 0; i < 4; i++)
            c[i] = cg__half_to_float((uint16_t)(p[2 * i] | p[2 * i + 1] << 8));
        break;
    default: memcpy(c, p, 16); break; /* 0xC0 */
    }
}

static void encode(uint32_t fmt, const float c[4], uint8_t *p)
{
    uint32_t v;
    switch (fmt) {
    case 0xCF: p[0] = (uint8_t)to_unorm(c[2], 8), p[1] = (uint8_t)to_unorm(c[1], 8);
               p[2] = (uint8_t)to_unorm(c[0], 8), p[3] = (uint8_t)to_unorm(c[3], 8); break;
    case 0xD5: for (int i = 0; i < 4; i++) p[i] = (uint8_t)to_unorm(c[i], 8); break;
    case 0xE8:
        v = to_unorm(c[0], 5) << 11 | to_unorm(c[1], 6) << 5 | to_unorm(c[2], 5);
        p[0] = (uint8_t)v, p[1] = (uint8_t)(v >> 8);
        break;
    case 0xE9:
        v = to_unorm(c[3], 1) << 15 | to_unorm(c[0], 5) << 10 | to_unorm(c[1], 5) << 5 |
            to_unorm(c[2], 5);
        p[0] = (uint8_t)v, p[1] = (uint8_t)(v >> 8);
        break;
    case 0xEE: v = to_unorm(c[0], 16); p[0] = (uint8_t)v, p[1] = (uint8_t)(v >> 8); break;
    case 0xF3: p[0] = (uint8_t)to_unorm(c[0], 8); break;
    case 0xCA:
        for (int i = 0; i < 4; i++) {
            uint16_t h = cg__float_to_half(c[i]);
            p[2 * i] = (uint8_t)h, p[2 * i + 1] = (uint8_t)(h >> 8);
        }
        break;
    default: memcpy(p, c, 16); break;
    }
}


/* The source surface methods are the destination's, 0x30 bytes on, with the
 * same fields: surf_get reads either through the DST names. */
_Static_assert(NV902D_SET_SRC_MEMORY_LAYOUT - NV902D_SET_SRC_FORMAT ==
                       NV902D_SET_DST_MEMORY_LAYOUT - NV902D_SET_DST_FORMAT &&
                   NV902D_SET_SRC_BLOCK_SIZE - NV902D_SET_SRC_FORMAT ==
                       NV902D_SET_DST_BLOCK_SIZE - NV902D_SET_DST_FORMAT &&
                   NV902D_SET_SRC_OFFSET_UPPER - NV902D_SET_SRC_FORMAT ==
                       NV902D_SET_DST_OFFSET_UPPER - NV902D_SET_DST_FORMAT,
               "902D SRC and DST surface methods in the same order");
NV_SAME_FIELD(NV902D, SET_SRC_FORMAT, V, SET_DST_FORMAT, V);
NV_SAME_FIELD(NV902D, SET_SRC_MEMORY_LAYOUT, V, SET_DST_MEMORY_LAYOUT, V);
NV_SAME_FIELD(NV902D, SET_SRC_BLOCK_SIZE, HEIGHT, SET_DST_BLOCK_SIZE, HEIGHT);
NV_SAME_FIELD(NV902D, SET_SRC_BLOCK_SIZE, DEPTH, SET_DST_BLOCK_SIZE, DEPTH);
NV_SAME_FIELD(NV902D, SET_SRC_OFFSET_UPPER, V, SET_DST_OFFSET_UPPER, V);

static int surf_get(cg_nv_channel *ch, const uint32_t *r, bool src, surf *s, const cg_agent *ag)
{
    uint32_t b = src ? NV902D_SET_SRC_FORMAT : NV902D_SET_DST_FORMAT;
    memset(s, 0, sizeof(*s));
    s->fmt = NV_VAL(NV902D, SET_DST_FORMAT, V, r[b >> 2]);
    s->bpp = fmt_bpp(s->fmt);
    if (!s->bpp)
        return nv_fault(ch, ag, CG_FAULT_UNSUPPORTED, 0, "902D %s format 0x%02x not supported yet",
                          src ? "source" : "destination", s->fmt);
    s->pitch = NV_VAL(NV902D, SET_DST_MEMORY_LAYOUT, V,
                      r[(b + NV902D_SET_DST_MEMORY_LAYOUT - NV902D_SET_DST_FORMAT) >> 2]);
    uint32_t bs = r[(b + NV902D_SET_DST_BLOCK_SIZE - NV902D_SET_DST_FORMAT) >> 2];
    s->bl.bh = NV_VAL(NV902D, SET_DST_BLOCK_SIZE, HEIGHT, bs);
    s->bl.bd = NV_VAL(NV902D, SET_DST_BLOCK_SIZE, DEPTH, bs);
    if (!s->pitch && (s->bl.bh > 5 || s->bl.bd > 5))
        return nv_fault(ch, ag, CG_FAULT_BAD_STATE, 0, "902D block height/depth 0x%x: at most 5",
                          bs);
    s->bl.depth = r[(b + 0x0C) >> 2];
    s->layer = src ? 0 : r[NV902D_SET_DST_LAYER >> 2];
    s->pitch_bytes = r[(b + 0x14) >> 2];
    s->w = r[(b + 0x18) >> 2];
    s->h = r[(b + 0x1C) >> 2];
    s->base = (uint64_t)NV_VAL(NV902D, SET_DST_OFFSET_UPPER, V,
                               r[(b + NV902D_SET_DST_OFFSET_UPPER - NV902D_SET_DST_FORMAT) >> 2])
                  << 32 |
              r[(b + 0x24) >> 2];
    s->bl.width = s->w * s->bpp;
    s->bl.height = s->h;
    return 0;
}

static uint64_t pix_addr(const surf *s, uint32_t x, uint32_t y)
{
    if (s->pitch)
        return s->base + (uint64_t)y * s->pitch_bytes + (uint64_t)x * s->bpp;
    return s->base + nv_bl_offset(&s->bl, x * s->bpp, y, s->layer);
}

/* Pixel accesses translate once per page run, not once per pixel: each
 * direction of an operation keeps the plain-memory span [va0, va1) its last
 * translation gave (cg__vas_span: the rest of one page), and a pixel inside
 * it is copied in place. Anything else -- a pixel across a page boundary,
 * unmapped, read-only, sparse or coherency-checked memory -- goes through
 * nv_mem_rw as before, so faults and their records are the same. A read
 * span may be the shared zero page of an unbacked page; a write that
 * allocates that page drops it (`rd` below). */
typedef struct span_cache {
    uint64_t va0, va1;
    uint8_t *p;
} span_cache;

typedef struct px_io {
    span_cache rd, wr;
} px_io;

static int px_rw(cg_nv_channel *ch, px_io *io, uint64_t va, void *buf, size_t n, bool write,
                 const cg_agent *ag)
{
    span_cache *c = write ? &io->wr : &io->rd;
    if (va < c->va0 || va > UINT64_MAX - n || va + n > c->va1) {
        uint8_t *p;
        size_t len = cg__vas_span(ch->vas, va, (size_t)1 << 30, write, &p);
        if (len < n) {
            c->va0 = c->va1 = 0;
            return nv_mem_rw(ch->vas, va, buf, n, write, ag);
        }
        c->va0 = va;
        c->va1 = va + len;
        c->p = p;
        /* spans lie in one page: a read span of this page may have been
         * the zero page */
        if (write && io->rd.va1 > io->rd.va0 && io->rd.va0 / CG_PAGE_SIZE == va / CG_PAGE_SIZE)
            io->rd.va0 = io->rd.va1 = 0;
    }
    uint8_t *p = c->p + (va - c->va0);
    if (write)
        memcpy(p, buf, n);
    else
        memcpy(buf, p, n);
    return 0;
}

static int read_pix(cg_nv_channel *ch, px_io *io, const surf *s, int64_t x, int64_t y,
                    float c[4], const cg_agent *ag)
{
    if (x < 0) x = 0;
    if (y < 0) y = 0;
    if (x >= s->w) x = s->w - 1;
    if (y >= s->h) y = s->h - 1;
    uint8_t p[16];
    if (px_rw(ch, io, pix_addr(s, (uint32_t)x, (uint32_t)y), p, s->bpp, false, ag) != 0)
        return CG_ERR_FAULT;
    decode(s->fmt, p, c);
    return 0;
}

static int write_pix(cg_nv_channel *ch, px_io *io, const surf *d, int64_t x, int64_t y,
                     const uint8_t *p, const cg_agent *ag)
{
    if (x < 0 || y < 0 || x >= d->w || y >= d->h)
        return 0;
    return px_rw(ch, io, pix_addr(d, (uint32_t)x, (uint32_t)y), (void *)p, d->bpp, true, ag);
}

static int check_op(cg_nv_channel *ch, const uint32_t *r, const cg_agent *ag)
{
    uint32_t op = r[NV902D_SET_OPERATION >> 2] & 7;
    if (op != 3 && op != 0)
        return nv_fault(ch, ag, CG_FAULT_UNSUPPORTED, 0,
                          "902D SET_OPERATION %u (ROP/BLEND/premultiplied) not supported yet", op);
    return 0;
}

static int twod_blit(cg_nv_channel *ch, nv_obj *o, const cg_agent *ag)
{
    const uint32_t *r = o->regs;
    surf s, d;
    int rc;
    if ((rc = check_op(ch, r, ag)) || (rc = surf_get(ch, r, true, &s, ag)) ||
        (rc = surf_get(ch, r, false, &d, ag)))
        return rc;
    if (s.w == 0 || s.h == 0)
        return nv_fault(ch, ag, CG_FAULT_BAD_STATE, 0, "902D blit from an empty source (%ux%u)",
                          s.w, s.h);
    uint32_t mode = r[NV902D_SET_PIXELS_FROM_MEMORY_SAMPLE_MODE >> 2];
    bool corner = NV_VAL(NV902D, SET_PIXELS_FROM_MEMORY_SAMPLE_MODE, ORIGIN, mode);
    bool bilinear = NV_VAL(NV902D, SET_PIXELS_FROM_MEMORY_SAMPLE_MODE, FILTER, mode);
    int64_t dx0 = (int32_t)r[NV902D_SET_PIXELS_FROM_MEMORY_DST_X0 >> 2];
    int64_t dy0 = (int32_t)r[NV902D_SET_PIXELS_FROM_MEMORY_DST_Y0 >> 2];
    uint32_t dw = r[NV902D_SET_PIXELS_FROM_MEMORY_DST_WIDTH >> 2];
    uint32_t dh = r[NV902D_SET_PIXELS_FROM_MEMORY_DST_HEIGHT >> 2];
    if ((uint64_t)dw * dh * 16 > ch->gpu->op_limit)
        return nv_fault(ch, ag, CG_FAULT_HANG, 0,
                        "budget %s: 902D blit of %u x %u pixels is over the limit",
                        cg_budget_name(CG_BUDGET_NV_OP_BYTES), dw, dh);
#define FX(lo, hi) ((double)(int32_t)r[(hi) >> 2] + (double)r[(lo) >> 2] / 4294967296.0)
    double dudx = FX(NV902D_SET_PIXELS_FROM_MEMORY_DU_DX_FRAC, NV902D_SET_PIXELS_FROM_MEMORY_DU_DX_INT);
    double dvdy = FX(NV902D_SET_PIXELS_FROM_MEMORY_DV_DY_FRAC, NV902D_SET_PIXELS_FROM_MEMORY_DV_DY_INT);
    double u0 = FX(NV902D_SET_PIXELS_FROM_MEMORY_SRC_X0_FRAC, NV902D_SET_PIXELS_FROM_MEMORY_SRC_X0_INT);
    double v0 = FX(NV902D_SET_PIXELS_FROM_MEMORY_SRC_Y0_FRAC, NV902D_PIXELS_FROM_MEMORY_SRC_Y0_INT);
#undef FX
    double off = corner ? 0.0 : 0.5;
    if (!corner && dudx < 0)
        u0 += 1.0;
    if (!corner && dvdy < 0)
        v0 += 1.0;
    /* only destination pixels inside the surface are computed */
    uint32_t i0 = dx0 < 0 ? (uint32_t)(dx0 < -(int64_t)dw ? dw : -dx0) : 0;
    uint32_t j0 = dy0 < 0 ? (uint32_t)(dy0 < -(int64_t)dh ? dh : -dy0) : 0;
    uint32_t i1 = dx0 + (int64_t)dw > d.w ? (uint32_t)(d.w > dx0 ? d.w - dx0 : 0) : dw;
    uint32_t j1 = dy0 + (int64_t)dh > d.h ? (uint32_t)(d.h > dy0 ? d.h - dy0 : 0) : dh;
    if (i0 >= i1 || j0 >= j1)
        return 0; /* nothing of it lands on the surface */
    px_io io = {{0, 0, NULL}, {0, 0, NULL}};
    for (uint32_t j = j0; j < j1; j++) {
        /* coordinates clamp to the surface anyway; clamping the doubles
         * first keeps the integer conversions defined */
        double v = fmin(fmax(v0 + (j + off) * dvdy, -2.0), (double)s.h + 2.0);
        for (uint32_t i = i0; i < i1; i++) {
            double u = fmin(fmax(u0 + (i + off) * dudx, -2.0), (double)s.w + 2.0);
            float c[4];
            if (!bilinear) {
                if (read_pix(ch, &io, &s, (int64_t)floor(u), (int64_t)floor(v), c, ag))
                    goto memfault;
            } else {
                double fu = u - 0.5, fv = v - 0.5;
                int64_t x = (int64_t)floor(fu), y = (int64_t)floor(fv);
                float ax = (float)(fu - (double)x), ay = (float)(fv - (double)y);
                float t[4][4];
                if (read_pix(ch, &io, &s, x, y, t[0], ag) ||
                    read_pix(ch, &io, &s, x + 1, y, t[1], ag) ||
                    read_pix(ch, &io, &s, x, y + 1, t[2], ag) ||
                    read_pix(ch, &io, &s, x + 1, y + 1, t[3], ag))
                    goto memfault;
                for (int k = 0; k < 4; k++)
                    c[k] = (t[0][k] * (1 - ax) + t[1][k] * ax) * (1 - ay) +
                           (t[2][k] * (1 - ax) + t[3][k] * ax) * ay;
            }
            uint8_t p[16];
            encode(d.fmt, c, p);
            if (write_pix(ch, &io, &d, dx0 + i, dy0 + j, p, ag))
                goto memfault;
        }
    }
    return 0;
memfault:
    ch->state = CG_NV_CH_FAULTED;
    return CG_ERR_FAULT;
}

/* ---- solid primitives ---- */

typedef struct prim_ctx {
    cg_nv_channel *ch;
    const cg_agent *ag;
    surf d;
    px_io io;
    uint8_t px[16];
    uint64_t budget;
    int rc;
} prim_ctx;

static void plot(prim_ctx *p, int64_t x, int64_t y)
{
    if (p->rc)
        return;
    if (p->budget-- == 0) {
        p->rc = nv_fault(p->ch, p->ag, CG_FAULT_HANG, 0,
                         "budget %s: 902D primitive of more than %u pixels is over the limit",
                         cg_budget_name(CG_BUDGET_NV_OP_BYTES),
                         (unsigned)(p->ch->gpu->op_limit / 16));
        return;
    }
    if (write_pix(p->ch, &p->io, &p->d, x, y, p->px, p->ag)) {
        p->ch->state = CG_NV_CH_FAULTED;
        p->rc = CG_ERR_FAULT;
    }
}

static void draw_line(prim_ctx *p, int64_t x0, int64_t y0, int64_t x1, int64_t y1)
{
    int64_t dx = x1 > x0 ? x1 - x0 : x0 - x1, dy = y1 > y0 ? y0 - y1 : y1 - y0;
    int64_t sx = x0 < x1 ? 1 : -1, sy = y0 < y1 ? 1 : -1, err = dx + dy;
    for (;;) {
        plot(p, x0, y0);
        if (p->rc || (x0 == x1 && y0 == y1))
            return;
        int64_t e2 = 2 * err;
        if (e2 >= dy) {
            err += dy;
            x0 += sx;
        }
        if (e2 <= dx) {
            err += dx;
            y0 += sy;
        }
    }
}

/* The sign (-1, 0, 1) of the edge function of a->b at p, in doubled
 * coordinates (pixel centres at 2x+1). Vertices are 32-bit signed, so doubled
 * differences reach 2^33 and products 2^66, past int64: while every operand
 * is below 2^29 in magnitude (products below 2^60) the sign is exact; beyond,
 * it comes from doubles (deterministic, and exact to 2^53 per product), which
 * only a vertex far outside any 2D surface reaches. */
static int edge(int64_t ax, int64_t ay, int64_t bx, int64_t by, int64_t px, int64_t py)
{
    const int64_t lim = (int64_t)1 << 29;
    int64_t e[4] = {bx - ax, py - ay, by - ay, px - ax};
    bool small = true;
    for (int i = 0; i < 4; i++)
        small &= e[i] > -lim && e[i] < lim;
    if (small) {
        int64_t v = e[0] * e[1] - e[2] * e[3];
        return (v > 0) - (v < 0);
    }
    double l = (double)e[0] * (double)e[1], r = (double)e[2] * (double)e[3];
    return (l > r) - (l < r);
}

static void draw_tri(prim_ctx *p, const int64_t *x, const int64_t *y)
{
    int64_t minx = x[0], maxx = x[0], miny = y[0], maxy = y[0];
    for (int i = 1; i < 3; i++) {
        minx = x[i] < minx ? x[i] : minx, maxx = x[i] > maxx ? x[i] : maxx;
        miny = y[i] < miny ? y[i] : miny, maxy = y[i] > maxy ? y[i] : maxy;
    }
    if (minx < 0) minx = 0;
    if (miny < 0) miny = 0;
    if (maxx > p->d.w) maxx = p->d.w;
    if (maxy > p->d.h) maxy = p->d.h;
    int area = edge(2 * x[0], 2 * y[0], 2 * x[1], 2 * y[1], 2 * x[2], 2 * y[2]);
    if (area == 0 || maxx <= minx || maxy <= miny)
        return;
    if ((uint64_t)(maxx - minx) * (uint64_t)(maxy - miny) > p->budget) {
        p->rc = nv_fault(p->ch, p->ag, CG_FAULT_BAD_STATE, 0,
                           "902D triangle covering %lld x %lld pixels is past the model's limit",
                           (long long)(maxx - minx), (long long)(maxy - miny));
        return;
    }
    for (int64_t py = miny; py < maxy && !p->rc; py++)
        for (int64_t px = minx; px < maxx && !p->rc; px++) {
            int64_t cx = 2 * px + 1, cy = 2 * py + 1;
            int w0 = edge(2 * x[1], 2 * y[1], 2 * x[2], 2 * y[2], cx, cy);
            int w1 = edge(2 * x[2], 2 * y[2], 2 * x[0], 2 * y[0], cx, cy);
            int w2 = edge(2 * x[0], 2 * y[0], 2 * x[1], 2 * y[1], cx, cy);
            if (area > 0 ? (w0 >= 0 && w1 >= 0 && w2 >= 0) : (w0 <= 0 && w1 <= 0 && w2 <= 0))
                plot(p, px, py);
        }
}

static int twod_vertex(cg_nv_channel *ch, nv_obj *o, int32_t x, int32_t y, const cg_agent *ag)
{
    const uint32_t *r = o->regs;
    uint32_t mode = r[NV902D_SET_RENDER_SOLID_PRIM_MODE >> 2] & 7;
    static const unsigned need[5] = {1, 2, 2, 3, 2};
    if (mode > 4)
        return nv_fault(ch, ag, CG_FAULT_BAD_STATE, 0, "902D SET_RENDER_SOLID_PRIM_MODE %u", mode);
    nv_twod *t = &o->twod;
    t->vx[t->nv] = x;
    t->vy[t->nv] = y;
    t->nv++;
    if (t->nv < need[mode])
        return 0;
    int rc;
    prim_ctx p = {.ch = ch, .ag = ag, .budget = ch->gpu->op_limit / 16};
    if ((rc = check_op(ch, r, ag)) || (rc = surf_get(ch, r, false, &p.d, ag)))
        return rc;
    uint32_t cf = NV_VAL(NV902D, SET_RENDER_SOLID_PRIM_COLOR_FORMAT, V,
                         r[NV902D_SET_RENDER_SOLID_PRIM_COLOR_FORMAT >> 2]);
    unsigned cbpp = fmt_bpp(cf);
    if (!cbpp || cbpp > 4)
        return nv_fault(ch, ag, CG_FAULT_UNSUPPORTED, 0,
                          "902D solid colour format 0x%02x not supported yet", cf);
    uint32_t color = r[NV902D_SET_RENDER_SOLID_PRIM_COLOR >> 2];
    uint8_t cb[4] = {(uint8_t)color, (uint8_t)(color >> 8), (uint8_t)(color >> 16),
                     (uint8_t)(color >> 24)};
    float c[4];
    decode(cf, cb, c);
    encode(p.d.fmt, c, p.px);
    int64_t *vx = t->vx, *vy = t->vy;
    switch (mode) {
    case 0: plot(&p, vx[0], vy[0]); break;
    case 1: case 2: draw_line(&p, vx[0], vy[0], vx[1], vy[1]); break;
    case 3: draw_tri(&p, vx, vy); break;
    default: {
        /* the rect clipped to the surface */
        int64_t x0 = vx[0] < vx[1] ? vx[0] : vx[1], x1 = vx[0] < vx[1] ? vx[1] : vx[0];
        int64_t y0 = vy[0] < vy[1] ? vy[0] : vy[1], y1 = vy[0] < vy[1] ? vy[1] : vy[0];
        if (x0 < 0) x0 = 0;
        if (y0 < 0) y0 = 0;
        if (x1 > p.d.w) x1 = p.d.w;
        if (y1 > p.d.h) y1 = p.d.h;
        if (x0 >= x1)
            break; /* an empty rect: no rows to walk */
        for (int64_t yy = y0; yy < y1 && !p.rc; yy++)
            for (int64_t xx = x0; xx < x1 && !p.rc; xx++)
                plot(&p, xx, yy);
        break;
    }
    }
    if (mode == 2) { /* polyline: the last vertex starts the next segment */
        t->vx[0] = t->vx[1];
        t->vy[0] = t->vy[1];
        t->nv = 1;
    } else {
        t->nv = 0;
    }
    return p.rc;
}

int nv_twod_method(cg_nv_channel *ch, nv_obj *o, nv_mact act, uint32_t m, uint32_t v,
                   const cg_agent *ag)
{
    switch (act) {
    case NV_ACT_TWOD_BLIT:
        return twod_blit(ch, o, ag);
    case NV_ACT_TWOD_MODE:
        o->twod.nv = 0; /* a new primitive starts */
        return 0;
    case NV_ACT_TWOD_POINT:
        return twod_vertex(ch, o, (int16_t)NV_VAL(NV902D, RENDER_SOLID_PRIM_POINT_X_Y, X, v),
                           (int16_t)NV_VAL(NV902D, RENDER_SOLID_PRIM_POINT_X_Y, Y, v), ag);
    case NV_ACT_TWOD_POINT_SET:
        /* RENDER_SOLID_PRIM_POINT_Y(i) (0x604 + 8i) draws with SET_X(i) */
        if ((m - NV902D_RENDER_SOLID_PRIM_POINT_SET_X) & 4) {
            uint32_t x = o->regs[(m - 4) >> 2];
            return twod_vertex(ch, o, (int32_t)x, (int32_t)v, ag);
        }
        return 0;
    default:
        return 0;
    }
}
