/* vc4 family: the tile renderer (the render thread's engine).
 *
 * Tile Rendering Mode Configuration (113) gives the frame buffer, its size
 * and format; Clear Colors (114) the clear values; Tile Coordinates (115)
 * selects the tile a load fills and a store writes (research/vc4.md 1 and
 * the kernel's render list in vc4_render_cl.c: loads, Tile Coordinates,
 * Branch to Sub-list, stores; a load runs when the next Tile Coordinates is
 * processed). The tile buffer is 64 x 64 colour words and 64 x 64 Z/stencil
 * words (research/vc4.md 1.2); every store clears the buffers it is not told
 * to keep (the Disable_*_Clear bits), and a "Store None" to address 0 only
 * clears (hackdriver; the seed's Store_Tile_Buffer_General 0, 0, 0).
 *
 * Colour words are 0xAARRGGBB (the QPU's tlbc word); RGBA8888 frame buffers
 * hold them little-endian (bytes B, G, R, A: the Pi's default 32-bit pixel
 * order), BGR565 as R[15:11] G[10:5] B[4:0].
 *
 * Rasterisation (per tile, for each triangle of a compressed list):
 * vertices are 12.4 fixed point; pixel (x, y) is sampled at its centre
 * (16x + 8, 16y + 8). Edge functions E_ab(p) = (b.x - a.x)(p.y - a.y) -
 * (b.y - a.y)(p.x - a.x) are exact 64-bit integers; with the triangle
 * ordered so its area is positive a pixel is covered when every E > 0, or
 * E == 0 on a top edge (dy == 0, dx > 0) or a left edge (dy < 0): the
 * top-left fill rule, Y growing downwards. Z is interpolated linearly in
 * screen space (Zs is already divided), 1/W too, and varyings perspective
 * correctly. Covered pixels are shaded in 2x2 quads, four quads to a
 * 16-lane batch, by the fragment shader on the QPU model. */
#include <math.h>
#include <stdlib.h>
#include "gl.h"

#include "vc4/qpu.h"

/* ---- frame buffer formats and tilings ---- */

static uint16_t to565(uint32_t c)
{
    return (uint16_t)((((c >> 16) & 0xFF) >> 3) << 11 | (((c >> 8) & 0xFF) >> 2) << 5 |
                      ((c & 0xFF) >> 3));
}

static uint32_t from565(uint16_t p)
{
    uint32_t r = (p >> 11) & 31, g = (p >> 5) & 63, b = p & 31;
    r = r << 3 | r >> 2, g = g << 2 | g >> 4, b = b << 3 | b >> 2;
    return 0xFF000000u | r << 16 | g << 8 | b;
}

/* Byte offset of pixel (x, y) in a surface of `width` pixels, from the
 * layouts described in Mesa's vc4_tiling.c (anholt/mesa, src/gallium/
 * drivers/vc4): 64-byte micro-tiles (utiles) of 4x4 pixels at 32 bpp, 8x4 at
 * 16 bpp, pixels row-major inside. tiling 0: linear (pitch = width * bpp);
 * 2, LT: utiles in raster order; 1, T: 1 KiB subtiles of 4x4 utiles (raster
 * order inside), 4 KiB tiles of 2x2 subtiles ordered (BL, TL, TR, BR) on
 * even tile rows and (TR, BR, BL, TL) on odd ones (bottom left = start of
 * memory), tiles left to right on even rows and right to left on odd rows,
 * rows of tiles a whole number of 4 KiB tiles wide. */
static uint64_t pix_off(unsigned tiling, uint32_t width, unsigned bpp, uint32_t x, uint32_t y)
{
    if (tiling == 0)
        return (uint64_t)y * width * bpp + (uint64_t)x * bpp;
    /* (shifts: uw is 4 or 8, uh 4) */
    unsigned ush = bpp == 4 ? 2 : 3, uw = 1u << ush;
    uint64_t in_utile = (((y & 3) << ush) + (x & (uw - 1))) * bpp;
    uint64_t ux = x >> ush, uy = y >> 2;
    uint64_t wut = ((uint64_t)width + uw - 1) >> ush;
    if (tiling == 2)
        return (uy * wut + ux) * 64 + in_utile;
    static const uint8_t even_map[4] = {0, 3, 1, 2}, odd_map[4] = {2, 1, 3, 0};
    uint64_t tstride = (wut + 7) / 8;
    uint64_t tx = ux >> 3, ty = uy >> 3;
    bool odd = ty & 1;
    if (odd)
        tx = tstride - tx - 1;
    unsigned idx = (unsigned)(((uy >> 2) & 1) << 1 | ((ux >> 2) & 1));
    return 4096 * (ty * tstride + tx) + 1024u * (odd ? odd_map[idx] : even_map[idx]) +
           ((uy & 3) * 4 + (ux & 3)) * 64 + in_utile;
}

/* Bytes of a surface: linear rows; T and LT (pix_off) fit in whole 4 KiB tiles of 8 x 8
 * micro-tiles, rows of them a whole number of tiles wide. */
uint64_t vc4_surface_bytes(unsigned tiling, uint32_t w, uint32_t h, unsigned bpp)
{
    if (tiling == 0)
        return (uint64_t)w * h * bpp;
    uint64_t uw = bpp == 4 ? 4 : 8;
    uint64_t wut = (w + uw - 1) / uw, uht = (h + 3) / 4;
    return 4096 * ((wut + 7) / 8) * ((uht + 7) / 8);
}

static int check_tiling(cg_vc4 *v, vc4_thread *t, uint32_t addr, unsigned tiling, unsigned fmt,
                        bool is_color)
{
    if (tiling == 3)
        return vc4_fault(v, t, CG_FAULT_BAD_STATE, addr, "tiling 3 is reserved");
    if (is_color && fmt == 1)
        return vc4_fault(v, t, CG_FAULT_UNSUPPORTED, addr,
                         "BGR565 dithered (the dither matrix is not documented in the sources "
                         "used): not supported yet");
    if (is_color && fmt == 3)
        return vc4_fault(v, t, CG_FAULT_BAD_STATE, addr, "colour format 3 is reserved");
    return 0;
}

/* The host bytes of [a, a + n) when the access needs nothing from the model
 * (cg__vas_span: plain memory, no fault, no coherency check, no trace), or
 * NULL. Four pages are remembered for the rest of the tile transfer (a T
 * format tile's rows cross four 4 KiB tiles): nothing can map, unmap or
 * touch memory's coherency state during it. */
typedef struct xfer_page {
    uint8_t *host[4]; /* the pages' host bytes, NULL: none */
    uint64_t page[4]; /* their bus addresses >> 12 */
    unsigned next;    /* the entry to replace */
} xfer_page;

static inline uint8_t *xfer_direct(cg_vas *bus, xfer_page *pc, uint64_t a, uint32_t n, bool write)
{
    uint32_t in = (uint32_t)(a & 4095);
    if (in + n > 4096 || a + n > 0x100000000ull)
        return NULL;
    for (unsigned i = 0; i < 4; i++)
        if (pc->host[i] && (a >> 12) == pc->page[i])
            return pc->host[i] + in;
    uint8_t *p;
    size_t got = cg__vas_span(bus, a, 4096 - in, write, &p);
    if (got < n)
        return NULL;
    if (got == 4096 - in) {
        pc->host[pc->next] = p - in, pc->page[pc->next] = a >> 12;
        pc->next = (pc->next + 1) & 3;
    }
    return p;
}

/* An early store (pool.c): n bytes of src to bus address a, a page run at
 * a time through vc4_es_dst; a run it cannot give faults (the pool's fault
 * capture counts it: the worker's segment then has no result). */
static int es_write(cg_vc4 *v, vc4_thread *t, uint64_t a, const uint8_t *src, uint32_t n)
{
    while (n) {
        uint32_t len = 4096 - (uint32_t)(a & 4095);
        if (len > n)
            len = n;
        uint8_t *p = vc4_es_dst(v->es, a, len);
        if (!p)
            return vc4_fault(v, t, CG_FAULT_UNMAPPED, (uint32_t)a, "early store");
        memcpy(p, src, len);
        a += len, src += len, n -= len;
    }
    return 0;
}

/* n tile-buffer words to / from a surface's bytes: RGBA8888 (bpp 4) words
 * little-endian, BGR565 (bpp 2) converted. */
static inline void words_to_bytes(uint8_t *dst, const uint32_t *src, uint32_t n, unsigned bpp)
{
    if (bpp == 2) {
        for (uint32_t x = 0; x < n; x++) {
            uint16_t p = to565(src[x]);
            dst[2 * x] = (uint8_t)p, dst[2 * x + 1] = (uint8_t)(p >> 8);
        }
        return;
    }
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    memcpy(dst, src, (size_t)n * 4);
#else
    for (uint32_t x = 0; x < n; x++) {
        uint32_t c = src[x];
        dst[4 * x] = (uint8_t)c, dst[4 * x + 1] = (uint8_t)(c >> 8);
        dst[4 * x + 2] = (uint8_t)(c >> 16), dst[4 * x + 3] = (uint8_t)(c >> 24);
    }
#endif
}

static inline void bytes_to_words(uint32_t *dst, const uint8_t *src, uint32_t n, unsigned bpp)
{
    if (bpp == 2) {
        for (uint32_t x = 0; x < n; x++)
            dst[x] = from565(vc4_le16(src + 2 * x));
        return;
    }
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    memcpy(dst, src, (size_t)n * 4);
#else
    for (uint32_t x = 0; x < n; x++)
        dst[x] = vc4_le32(src + 4 * x);
#endif
}

/* Store or load the tile's colour (or Z/S words) to/from a surface. fmt: 0
 * RGBA8888, 2 BGR565 (store/load general numbering: 1 is dithered).
 *
 * Pixels go in row order, each row left to right, as single accesses would
 * (a fault stops the transfer where it stopped before). Where the bytes are
 * plain memory (xfer_direct) a whole linear row, or a T/LT micro-tile's row
 * of 16 bytes, is copied at once; elsewhere a linear row is one bus access
 * and a tiled pixel one access each. */
static int xfer_surface(cg_vc4 *v, vc4_thread *t, bool store, bool zs, uint32_t base,
                        unsigned tiling, unsigned fmt)
{
    vc4_render *r = v->rend;
    unsigned bpp = (!zs && fmt == 2) ? 2 : 4;
    uint32_t x0 = (uint32_t)r->tile_x * VC4_TILE, y0 = (uint32_t)r->tile_y * VC4_TILE;
    uint32_t w = r->width, h = r->height;
    uint32_t *buf = zs ? r->zs : r->color;
    if (x0 >= w || y0 >= h)
        return 0;
    uint32_t tw = w - x0 < VC4_TILE ? w - x0 : VC4_TILE;
    uint32_t th = h - y0 < VC4_TILE ? h - y0 : VC4_TILE;
    unsigned uw = bpp == 4 ? 4 : 8; /* pixels in a micro-tile's row of 16 bytes */
    if (store && v->es && tiling == 0 && bpp == 4 &&
        vc4_es_take_rows(v->es, zs ? &r->zs : &r->color,
                         (uint64_t)base + pix_off(0, w, 4, x0, y0), w * 4, tw, th))
        return 0; /* an early store staged as the tile buffer's rows (pool.c) */
    xfer_page pc = {{NULL}, {0}, 0};
    uint8_t row[VC4_TILE * 4];
    for (uint32_t y = 0; y < th; y++) {
        uint32_t *line = &buf[y * VC4_TILE];
        if (tiling == 0) {
            uint64_t a = (uint64_t)base + pix_off(0, w, bpp, x0, y0 + y);
            if (a > 0xFFFFFFFFull)
                return vc4_fault(v, t, CG_FAULT_ADDR_RANGE, base, "surface runs past 4 GiB");
            if (store && v->es) {
                uint8_t *p = (a & 4095) + tw * bpp <= 4096 ? vc4_es_dst(v->es, a, tw * bpp)
                                                           : NULL;
                if (p) {
                    words_to_bytes(p, line, tw, bpp);
                    continue;
                }
                words_to_bytes(row, line, tw, bpp);
                if (es_write(v, t, a, row, tw * bpp))
                    return CG_ERR_FAULT;
                continue;
            }
            uint8_t *p = xfer_direct(v->bus, &pc, a, tw * bpp, store);
            if (p) {
                if (store)
                    words_to_bytes(p, line, tw, bpp);
                else
                    bytes_to_words(line, p, tw, bpp);
            } else if (store) {
                words_to_bytes(row, line, tw, bpp);
                if (vc4_bus_write(v->bus, a, row, tw * bpp, &t->agent) != 0)
                    return CG_ERR_FAULT;
            } else {
                if (vc4_bus_read(v->bus, a, row, tw * bpp, &t->agent) != 0)
                    return CG_ERR_FAULT;
                bytes_to_words(line, row, tw, bpp);
            }
            continue;
        }
        for (uint32_t x = 0; x < tw;) {
            uint64_t a = (uint64_t)base + pix_off(tiling, w, bpp, x0 + x, y0 + y);
            bool chunk = x % uw == 0 && x + uw <= tw;
            if (store && v->es) {
                uint8_t px[16];
                unsigned k = chunk ? uw : 1;
                words_to_bytes(px, line + x, k, bpp);
                if (a > 0xFFFFFFFFull || es_write(v, t, a, px, k * bpp))
                    return CG_ERR_FAULT;
                x += k;
                continue;
            }
            uint8_t *p = chunk ? xfer_direct(v->bus, &pc, a, 16, store) : NULL;
            if (p) {
                if (store)
                    words_to_bytes(p, line + x, uw, bpp);
                else
                    bytes_to_words(line + x, p, uw, bpp);
                x += uw;
                continue;
            }
            uint8_t px[4];
            if (a > 0xFFFFFFFFull)
                return vc4_fault(v, t, CG_FAULT_ADDR_RANGE, base, "surface runs past 4 GiB");
            if (store) {
                words_to_bytes(px, line + x, 1, bpp);
                if (vc4_bus_write(v->bus, a, px, bpp, &t->agent) != 0)
                    return CG_ERR_FAULT;
            } else {
                if (vc4_bus_read(v->bus, a, px, bpp, &t->agent) != 0)
                    return CG_ERR_FAULT;
                bytes_to_words(line + x, px, 1, bpp);
            }
            x++;
        }
    }
    return 0;
}

/* Raw tile dumps (Store/Load Full Resolution): 64 x 64 words, row-major, at
 * the record's address (the kernel puts each tile's offset in the record,
 * vc4_render_cl.c vc4_full_res_offset). */
static int xfer_raw(cg_vc4 *v, vc4_thread *t, bool store, bool zs, uint32_t addr)
{
    vc4_render *r = v->rend;
    uint32_t *buf = zs ? r->zs : r->color;
    size_t n = VC4_TILE * VC4_TILE * 4;
    uint8_t *tmp = malloc(n);
    if (!tmp)
        return CG_ERR_NOMEM;
    int rc;
    if (store) {
        for (size_t i = 0; i < VC4_TILE * VC4_TILE; i++)
            for (int k = 0; k < 4; k++)
                tmp[4 * i + k] = (uint8_t)(buf[i] >> (8 * k));
        rc = vc4_bus_write(v->bus, addr, tmp, n, &t->agent);
    } else {
        rc = vc4_bus_read(v->bus, addr, tmp, n, &t->agent);
        if (rc == 0)
            for (size_t i = 0; i < VC4_TILE * VC4_TILE; i++)
                buf[i] = vc4_le32(tmp + 4 * i);
    }
    free(tmp);
    return rc ? CG_ERR_FAULT : 0;
}

vc4_render *vc4_render_new(void)
{
    return vc4_render_new_with(NULL, NULL);
}

vc4_render *vc4_render_new_with(uint32_t *color, uint32_t *zs)
{
    vc4_render *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    r->color = color ? color : calloc(VC4_TILE * VC4_TILE, sizeof *r->color);
    r->zs = zs ? zs : calloc(VC4_TILE * VC4_TILE, sizeof *r->zs);
    if (!r->color || !r->zs) {
        vc4_render_free(r);
        return NULL;
    }
    r->tile_x = r->tile_y = -1;
    return r;
}

void vc4_render_free(vc4_render *r)
{
    if (!r)
        return;
    free(r->color);
    free(r->zs);
    free(r);
}

void vc4_fill32(uint32_t *p, uint32_t val, size_t n)
{
    /* 16 words, then doubling copies (memcpy's wide stores; a plain loop
     * of word stores is what -O2 makes of the obvious version) */
    size_t done = n < 16 ? n : 16;
    for (size_t i = 0; i < done; i++)
        p[i] = val;
    while (done < n) {
        size_t c = done < n - done ? done : n - done;
        memcpy(p + done, p, c * sizeof *p);
        done += c;
    }
}

static void clear_color(vc4_render *r)
{
    vc4_fill32(r->color, r->clear_color[0], VC4_TILE * VC4_TILE);
}

static void clear_zs(vc4_render *r)
{
    vc4_fill32(r->zs, vc4_clear_zs_word(r), VC4_TILE * VC4_TILE);
}

void vc4_tile_settle(vc4_render *r)
{
    if (r->fill_pending & 1)
        vc4_fill32(r->color, r->pend_c, VC4_TILE * VC4_TILE);
    if (r->fill_pending & 2)
        vc4_fill32(r->zs, r->pend_z, VC4_TILE * VC4_TILE);
    r->fill_pending = 0;
}

void vc4_end_of_frame(cg_vc4 *v)
{
    v->rfc = (v->rfc + 1) & 0xFF;
    vc4_raise_int(v, CG_VC4_INT_FRDONE);
}

static int need_tile(cg_vc4 *v, vc4_thread *t, uint32_t addr, const char *what)
{
    vc4_render *r = v->rend;
    if (!r->configured)
        return vc4_fault(v, t, CG_FAULT_BAD_STATE, addr,
                         "%s before Tile_Rendering_Mode_Configuration", what);
    if (r->tile_x < 0)
        return vc4_fault(v, t, CG_FAULT_BAD_STATE, addr, "%s before Tile_Coordinates", what);
    return 0;
}

static int do_load(cg_vc4 *v, vc4_thread *t)
{
    vc4_render *r = v->rend;
    const uint8_t *rec = r->load_rec;
    r->load_pending = false;
    if (r->load_op == VC4_OP_Re_load_Full_Resolution_Tile_Buffer) {
#define RLF(field) VC4_GET(rec + 1, Re_load_Full_Resolution_Tile_Buffer, field)
        uint32_t a = VC4_ADDR(rec + 1, Re_load_Full_Resolution_Tile_Buffer, Address);
        bool no_color = RLF(Disable_Color_Buffer_read), no_zs = RLF(Disable_Z_Stencil_Buffer_read);
#undef RLF
        int rc = 0;
        if (!no_color && !no_zs)
            return vc4_fault(v, t, CG_FAULT_UNSUPPORTED, a,
                             "Re_Load_Full_Resolution of colour and Z/S from one address: not "
                             "supported yet (give one record per buffer)");
        if (!no_color)
            rc = xfer_raw(v, t, false, false, a);
        if (rc == 0 && !no_zs)
            rc = xfer_raw(v, t, false, true, a);
        return rc;
    }
#define LTG(field) VC4_GET(rec + 1, Load_Tile_Buffer_General, field)
    uint32_t a = VC4_ADDR(rec + 1, Load_Tile_Buffer_General,
                          Memory_base_address_of_frame_tile_dump_buffer);
    unsigned buffer = (unsigned)LTG(Buffer_to_Store), tiling = (unsigned)LTG(Format);
    unsigned fmt = (unsigned)LTG(Pixel_Color_Format);
    bool no_color = LTG(Disable_Color_buffer_load), no_zs = LTG(Disable_Z_Stencil_buffer_load);
#undef LTG
    if (buffer == 0)
        return 0;
    if (buffer == 1 && !no_color) {
        int rc = check_tiling(v, t, a, tiling, fmt, true);
        return rc ? rc : xfer_surface(v, t, false, false, a, tiling, fmt);
    }
    if ((buffer == 2) && !no_zs) {
        int rc = check_tiling(v, t, a, tiling, 0, false);
        return rc ? rc : xfer_surface(v, t, false, true, a, tiling, 0);
    }
    if (buffer == 1 || buffer == 2)
        return 0;
    return vc4_fault(v, t, CG_FAULT_UNSUPPORTED, a,
                     "Load_Tile_Buffer_General buffer %u (VG mask, full reload): not supported "
                     "yet", buffer);
}

void vc4_store_decode(const vc4_render *r, const uint8_t *rec, vc4_store *s)
{
    memset(s, 0, sizeof *s);
    s->buffer = 1;
    s->counts = true;
    switch (rec[0]) {
    case VC4_OP_Store_Tile_Buffer_General: {
#define STG(field) VC4_GET(rec + 1, Store_Tile_Buffer_General, field)
        s->addr = VC4_ADDR(rec + 1, Store_Tile_Buffer_General,
                           Memory_base_address_of_frame_tile_dump_buffer);
        s->buffer = (uint8_t)STG(Buffer_to_Store);
        s->tiling = (uint8_t)STG(Format);
        s->mode = (uint8_t)STG(Mode);
        s->fmt = (uint8_t)STG(Pixel_Color_Format);
        s->color = s->buffer == 1 && !STG(Disable_Color_buffer_dump);
        s->zs = (s->buffer == 2 || s->buffer == 3) && !STG(Disable_Z_Stencil_buffer_dump);
        s->keep_color = STG(Disable_Color_buffer_clear_on_store_dump);
        s->keep_zs = STG(Disable_Z_Stencil_buffer_clear_on_store_dump);
        s->eof = STG(Last_Tile_of_Frame);
#undef STG
        s->counts = s->buffer != 0;
        if (s->buffer != 0 && s->mode != 0)
            s->bad = VC4_STORE_DECIMATE;
        else if (s->buffer >= 4)
            s->bad = s->buffer <= 5 ? VC4_STORE_VG : VC4_STORE_BUFFER;
        break;
    }
    case VC4_OP_Store_Multi_sample_Resolved_Tile_Color_Buffer:
    case VC4_OP_Store_Multi_sample_Resolved_Tile_Color_Buffer_and_EOF: {
        /* the rendering mode's format numbering: 0 BGR565 dithered,
         * 1 RGBA8888, 2 BGR565 */
        unsigned fmt = (r->flags >> 2) & 3;
        s->addr = r->fb_addr;
        s->tiling = (uint8_t)((r->flags >> 6) & 3);
        s->fmt = (uint8_t)(fmt == 1 ? 0 : fmt == 0 ? 1 : fmt);
        s->color = true;
        s->eof = rec[0] == VC4_OP_Store_Multi_sample_Resolved_Tile_Color_Buffer_and_EOF;
        break;
    }
    case VC4_OP_Store_Full_Resolution_Tile_Buffer: {
#define SFR(field) VC4_GET(rec + 1, Store_Full_Resolution_Tile_Buffer, field)
        s->addr = VC4_ADDR(rec + 1, Store_Full_Resolution_Tile_Buffer, Address);
        s->raw = true;
        s->color = !SFR(Disable_Color_Buffer_write);
        s->zs = !SFR(Disable_Z_Stencil_Buffer_write);
        s->keep_color = s->keep_zs = SFR(Disable_Clear_on_Write);
        s->eof = SFR(Last_Tile);
#undef SFR
        if (s->color && s->zs)
            s->bad = VC4_STORE_RAW_BOTH;
        return;
    }
    default:
        return;
    }
    /* check_tiling's cases, for the buffer it writes */
    if (s->bad || !(s->color || s->zs))
        return;
    if (s->tiling == 3)
        s->bad = VC4_STORE_TILING;
    else if (s->color && s->fmt == 1)
        s->bad = VC4_STORE_DITHER;
    else if (s->color && s->fmt == 3)
        s->bad = VC4_STORE_FORMAT;
}

/* The fault of a store the decoder found bad (vc4_store.bad). */
static int store_fault(cg_vc4 *v, vc4_thread *t, uint32_t addr, const char *name,
                       const vc4_store *s)
{
    switch (s->bad) {
    case VC4_STORE_DECIMATE:
        return vc4_fault(v, t, CG_FAULT_UNSUPPORTED, addr,
                         "%s decimate mode %u (multisample): not supported yet", name, s->mode);
    case VC4_STORE_VG:
        return vc4_fault(v, t, CG_FAULT_UNSUPPORTED, addr,
                         "%s buffer %u (VG mask, full dump): not supported yet", name, s->buffer);
    case VC4_STORE_BUFFER:
        return vc4_fault(v, t, CG_FAULT_BAD_STATE, addr, "store buffer %u is reserved", s->buffer);
    case VC4_STORE_RAW_BOTH:
        return vc4_fault(v, t, CG_FAULT_UNSUPPORTED, s->addr,
                         "%s of colour and Z/S to one address: not supported yet (give one "
                         "record per buffer)", name);
    default: /* tiling, dither, format */
        return check_tiling(v, t, addr, s->tiling, s->color ? s->fmt : 0, s->color);
    }
}

/* The four store records (role STORE): write the buffer they name to
 * memory, clear what they do not keep, count the tile, end the frame. */
static int store_tile(cg_vc4 *v, vc4_thread *t, uint32_t addr, const uint8_t *rec,
                      const char *name)
{
    vc4_render *r = v->rend;
    vc4_store s;
    vc4_store_decode(r, rec, &s);
    int rc = need_tile(v, t, addr, name);
    if (rc)
        return rc;
    if (s.bad)
        return store_fault(v, t, addr, name, &s);
    if (s.raw) {
        if (s.color && (rc = xfer_raw(v, t, true, false, s.addr)))
            return rc;
        if (s.zs && (rc = xfer_raw(v, t, true, true, s.addr)))
            return rc;
    } else if (s.color) {
        if ((rc = xfer_surface(v, t, true, false, s.addr, s.tiling, s.fmt)))
            return rc;
    } else if (s.zs) {
        if ((rc = xfer_surface(v, t, true, true, s.addr, s.tiling, 0)))
            return rc;
    }
    if (!s.keep_color)
        clear_color(r);
    if (!s.keep_zs)
        clear_zs(r);
    v->stats.tiles_rendered += s.counts;
    if (s.eof)
        vc4_end_of_frame(v);
    return 0;
}

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
static int run_batch(cg_vc4 *v, vc4_thread *t, raster *rs, vc4_frag_batch *b, unsigned nquads,
                     const uint32_t qi[4])
{
    vc4_render *r = v->rend;
    const uint8_t *cfg = r->st.config;
    unsigned lanes = nquads * 4;
    for (unsigned l = lanes; l < 16; l++)
        b->x[l] = b->y[l] = 0;
    uint16_t live = b->mask;
    unsigned func = (cfg[1] >> 4) & 7;
    bool early = (cfg[2] & 1) && !(r->flags & (1u << 11));
    /* the lanes of a quad are pixels (x, y), (x+1, y), (x, y+1), (x+1,
     * y+1) of the tile; the lanes of unused quads are pixel 0, 0 (the
     * tile's Z/S words are read by the depth tests below, straight from
     * the tile buffer) */
    if (!early) {
        const uint32_t *color = r->color;
        for (unsigned j = 0; j < nquads; j++)
            quad_load(&b->tlb_color_in[4 * j], color + qi[j]);
        uint32_t c0 = color[0];
        for (unsigned l = lanes; l < 16; l++)
            b->tlb_color_in[l] = c0;
    } else {
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
    }
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
    if (!zm) {
        /* colour only: a quad's four words in two 8-byte stores when all
         * four are written, else each row in one 8-byte merge (an unwritten
         * word is stored back as it was) */
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
        return 0;
    }
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

/* Kept for one compressed primitive list (compressed_list), where nothing
 * writes memory (see there) and the latched state cannot change: the NV
 * shader record last read (nv_ok: from nv_addr) and what the fragment
 * shader at `code` sees of its payload (pu_ok; qpu.h
 * vc4_qpu_cache_payload_use). */
typedef struct vc4_list_cache {
    bool nv_ok, pu_ok, use_w, use_z;
    uint32_t nv_addr, code;
    vc4_nv_record nv;
} vc4_list_cache;

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
    {
        /* the shader's code cannot change while this primitive's batches
         * run (nothing writes memory meanwhile), so the answer holds */
        bool uw, uz;
        vc4_list_cache *lc = r->lc;
        if (lc && lc->pu_ok && lc->code == rs.nv.code) {
            uw = lc->use_w, uz = lc->use_z;
        } else {
            vc4_qpu_cache_payload_use(r->qcache, v->bus, rs.nv.code, &uw, &uz);
            if (lc)
                lc->code = rs.nv.code, lc->use_w = uw, lc->use_z = uz, lc->pu_ok = true;
        }
        bool early = (r->st.config[2] & 1) && !(r->flags & (1u << 11));
        rs.need_w = uw || rs.nvary > 0;
        rs.need_z = uz || early;
    }
    /* edge i runs from vertex i+1 to vertex i+2 (opposite vertex i) */
    {
        const int64_t px[3] = {rs.vx[0].x, rs.vx[1].x, rs.vx[2].x};
        const int64_t py[3] = {rs.vx[0].y, rs.vx[1].y, rs.vx[2].y};
#define RS_EDGE(i, ia, ic)                                                                       \
    do {                                                                                         \
        int64_t dx = px[ic] - px[ia], dy = py[ic] - py[ia];                                      \
        rs.ex[i] = dx;  /* * py */                                                               \
        rs.ey[i] = -dy; /* * px */                                                               \
        rs.eb[i] = -dx * py[ia] + dy * px[ia];                                                   \
        rs.incl[i] = dy < 0 || (dy == 0 && dx > 0);                                              \
    } while (0)
        RS_EDGE(0, 1, 2);
        RS_EDGE(1, 2, 0);
        RS_EDGE(2, 0, 1);
#undef RS_EDGE
    }
    /* pixel range: the tile, the frame, the clip window, the bounding box */
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
    if (x0 >= x1 || y0 >= y1)
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

/* Walk a compressed primitive list starting at `p` (after the 0x30); sets
 * *next to the address after its escape. */
static int compressed_items(cg_vc4 *v, vc4_thread *t, uint32_t p, uint32_t *next);

/* The fragment shaders' code is compared with memory once per list, not
 * per batch (qpu.h vc4_qpu_cache_hold): within an NV-mode list nothing
 * writes memory. This thread draws (tile buffer writes are not memory, its
 * fragment shaders have no VPM, so no VDW: the QPU model writes memory only
 * through VDW) and stores nothing; the CPU cannot act during a kick (as the
 * vertex page cache and lc.nv rely on). Other threads: the tile pool's
 * workers write memory only with early stores, which are retracted and
 * switched off before this thread runs a compressed list itself
 * (pool.c vc4_pool_self, before the record's handler), and on a worker
 * (render_seg, this function on the worker's cache) its bus maps none of
 * the pages a store of the frame may write, so no code it runs can lie in
 * them (such code fails the comparison: no cache). GL mode is not held: a
 * vertex shader run between batches may write memory with VDW. A fault
 * callback that writes memory while the renderer runs is not supported
 * (no more than for the vertex bytes). */
static int compressed_list(cg_vc4 *v, vc4_thread *t, uint32_t p, uint32_t *next)
{
    vc4_render *r = v->rend;
    vc4_list_cache lc = {0};
    r->lc = &lc;
    vc4_qpu_cache *qc = NULL;
    if (!r->st.gl && (r->qcache || (r->qcache = vc4_qpu_cache_create())))
        vc4_qpu_cache_hold(qc = r->qcache, true);
    int rc = compressed_items(v, t, p, next);
    vc4_qpu_cache_hold(qc, false);
    r->lc = NULL;
    return rc;
}

/* n bytes of the list at p from the list's page remembered in lpc (the
 * reasoning of the vertex page cache: nothing writes memory while a list
 * runs); false: not there (read them from the bus, then list_page). */
static inline bool list_bytes(const vc4_page_cache *lpc, uint32_t p, uint8_t *dst, unsigned n)
{
    if (!lpc->page || (p >> 12) != (lpc->va >> 12) || (p & 0xFFF) + n > 4096)
        return false;
    memcpy(dst, lpc->page + (p & 0xFFF), n);
    return true;
}

/* Remember p's page when it is plain backed memory (no fault, no coherency
 * check, no trace: cg__vas_span; not the shared page of zeros). */
static void list_page(cg_vc4 *v, vc4_page_cache *lpc, uint32_t p)
{
    uint8_t *pp;
    lpc->page = NULL;
    lpc->va = p & ~0xFFFull;
    if (cg__vas_span(v->bus, lpc->va, 4096, false, &pp) == 4096 && pp != cg__zero_page)
        lpc->page = pp;
}

static int compressed_items(cg_vc4 *v, vc4_thread *t, uint32_t p, uint32_t *next)
{
    vc4_render *r = v->rend;
    uint32_t prev[3] = {0, 0, 0};
    /* vertex bytes: within one list nothing writes memory (the QPU model
     * writes none, the tile buffer is not memory) and the CPU cannot act */
    vc4_page_cache vpc = {NULL, 0};
    vc4_page_cache lpc = {NULL, 0}; /* the list's bytes, for the same reason */
    /* GL mode: shaded vertices are kept for the list, for the same reason */
    if (r->glc && vc4_gl_cache_reset(&r->glc) != 0)
        return CG_ERR_NOMEM;
    for (uint32_t guard = 0; guard < (1u << 24); guard++) {
        uint8_t it[8] = {0};
        /* a fault here names the item: its address, and its bytes as
         * little-endian words (what could be read of them) */
        t->agent.stream_addr = p;
        t->agent.nwords = 0;
        if (!list_bytes(&lpc, p, it, 1)) {
            if (vc4_bus_read(v->bus, p, it, 1, &t->agent) != 0)
                return CG_ERR_FAULT;
            list_page(v, &lpc, p);
        }
        t->agent.words[0] = it[0];
        t->agent.nwords = 1;
        if (r->st.prim_format == 0x10 || r->st.prim_format == 0x11) {
            /* points / lines, 16-bit indices: escape, relative branch, and
             * the absolute coding 0x81 + u16 per vertex (Broadcom's
             * control-list debugger, docs/vc4.md "Points and lines") */
            bool line = r->st.prim_format == 0x11;
            unsigned psz = it[0] == 0x80 ? 1 : it[0] == 0x82 ? 3 : line ? 5 : 3;
            if (it[0] != 0x80 && it[0] != 0x81 && it[0] != 0x82)
                return vc4_fault(v, t, CG_FAULT_UNSUPPORTED, p,
                                 "%s item 0x%02x (only the absolute coding 0x81 is known): not "
                                 "supported yet", line ? "line" : "point", it[0]);
            if (psz > 1 && !list_bytes(&lpc, p + 1, it + 1, psz - 1) &&
                vc4_bus_read(v->bus, p + 1, it + 1, psz - 1, &t->agent) != 0)
                return CG_ERR_FAULT;
            t->agent.words[0] = vc4_le32(it);
            t->agent.words[1] = vc4_le32(it + 4);
            t->agent.nwords = psz > 4 ? 2 : 1;
            if (it[0] == 0x80) {
                *next = p + 1;
                return 0;
            }
            if (v->budget[1] == 0)
                return vc4_fault(v, t, CG_FAULT_HANG, p,
                                 "budget %s ran out in a compressed primitive list",
                                 cg_budget_name(CG_BUDGET_VC4_THREAD_UNITS));
            v->budget[1]--;
            if (it[0] == 0x82) {
                p = (p & ~31u) + 32 + (uint32_t)((int32_t)(int16_t)vc4_le16(it + 1) * 32);
                continue;
            }
            uint32_t pi[2] = {vc4_le16(it + 1), vc4_le16(it + 3)};
            int rc = need_tile(v, t, p, "a primitive");
            if (rc == 0)
                rc = line ? vc4_render_line(v, t, pi, &vpc) : vc4_render_point(v, t, pi[0], &vpc);
            if (rc)
                return rc;
            p += psz;
            continue;
        }
        unsigned sz = it[0] == 0x80 ? 1 : it[0] == 0x82 ? 3 : it[0] == 0x81 ? 7
                      : (it[0] & 0xF) == 0xF ? 4 : (it[0] & 3) == 3 ? 2 : 1;
        if (sz > 1 && !list_bytes(&lpc, p + 1, it + 1, sz - 1) &&
            vc4_bus_read(v->bus, p + 1, it + 1, sz - 1, &t->agent) != 0)
            return CG_ERR_FAULT;
        t->agent.words[0] = vc4_le32(it);
        t->agent.words[1] = vc4_le32(it + 4);
        t->agent.nwords = sz > 4 ? 2 : 1;
        cg_vc4_prim_item item;
        cg_vc4_prim_decode(it, sz, prev, &item);
        if (item.kind == 4) {
            *next = p + 1;
            return 0;
        }
        if (item.kind == 5) {
            if (v->budget[1] == 0)
                return vc4_fault(v, t, CG_FAULT_HANG, p,
                                 "budget %s ran out in a compressed primitive list "
                                 "(a relative-branch loop?)",
                                 cg_budget_name(CG_BUDGET_VC4_THREAD_UNITS));
            v->budget[1]--;
            p = (p & ~31u) + 32 + (uint32_t)((int32_t)item.branch * 32);
            continue;
        }
        if (r->st.prim_format != 0x12)
            return vc4_fault(v, t, CG_FAULT_UNSUPPORTED, p,
                             "compressed primitive list item in format 0x%02x (only 16-bit "
                             "index triangles, 0x12): not supported yet", r->st.prim_format);
        memcpy(prev, item.tri, sizeof prev);
        if (v->budget[1] == 0)
            return vc4_fault(v, t, CG_FAULT_HANG, p,
                             "budget %s ran out in a compressed primitive list",
                             cg_budget_name(CG_BUDGET_VC4_THREAD_UNITS));
        v->budget[1]--;
        int rc = need_tile(v, t, p, "a primitive");
        if (rc == 0)
            rc = vc4_render_triangle(v, t, item.tri, &vpc);
        if (rc)
            return rc;
        p += sz;
    }
    return vc4_fault(v, t, CG_FAULT_HANG, p, "compressed primitive list never ends (branch loop?)");
}

/* Hand-written positions: r->flags keeps the Tile_Rendering_Mode_
 * Configuration bits [79:64] (read as payload bytes 8-9), and h_store_ms
 * takes the colour format and memory format from it. */
_Static_assert(VC4_FB_Tile_Rendering_Mode_Configuration_Multisample_Mode_4x == 64, "flags");
_Static_assert(VC4_FB_Tile_Rendering_Mode_Configuration_Non_HDR_Frame_Buffer_Color_Format ==
                   64 + 2, "flags >> 2");
_Static_assert(VC4_FB_Tile_Rendering_Mode_Configuration_Memory_Format == 64 + 6, "flags >> 6");
_Static_assert(VC4_FB_Tile_Rendering_Mode_Configuration_Double_buffer_in_non_ms_mode < 80,
               "flags are 16 bits");

/* ---- the render thread's records: an opcode-indexed handler table -----
 * (as Linux vc4_validate.c cmd_info[]); records without a handler fault. */
typedef int (*vc4_render_fn)(cg_vc4 *v, vc4_thread *t, uint32_t addr, const uint8_t *rec,
                             uint32_t *next);
#define TRMC(field) VC4_GET(rec + 1, Tile_Rendering_Mode_Configuration, field)

static int h_rend_config(cg_vc4 *v, vc4_thread *t, uint32_t addr, const uint8_t *rec,
                         uint32_t *next)
{
    (void)next;
    vc4_render *r = v->rend;
    r->fb_addr = VC4_ADDR(rec + 1, Tile_Rendering_Mode_Configuration, Memory_Address);
    r->width = (uint16_t)TRMC(Width_pixels);
    r->height = (uint16_t)TRMC(Height_pixels);
    r->flags = vc4_le16(rec + 9); /* the flag bits [79:64] */
    r->configured = false;
    if (r->width == 0 || r->height == 0 || r->width > 4096 || r->height > 4096)
        return vc4_fault(v, t, CG_FAULT_BAD_STATE, addr,
                         "Tile_Rendering_Mode_Configuration %ux%u (1..4096 a side)", r->width,
                         r->height);
    if (TRMC(Multisample_Mode_4x) || TRMC(Tile_Buffer_64_bit_Color_Depth))
        return vc4_fault(v, t, CG_FAULT_UNSUPPORTED, addr,
                         "Tile_Rendering_Mode_Configuration: 4x multisample / 64-bit "
                         "colour: not supported yet");
    if (TRMC(Decimate_Mode))
        return vc4_fault(v, t, CG_FAULT_UNSUPPORTED, addr,
                         "Tile_Rendering_Mode_Configuration: decimate mode: not supported yet");
    if (TRMC(Enable_VG_Mask_Buffer))
        return vc4_fault(v, t, CG_FAULT_UNSUPPORTED, addr,
                         "Tile_Rendering_Mode_Configuration: VG mask buffer: not supported "
                         "yet");
    r->configured = true;
    return 0;
}
#undef TRMC

static int h_clear(cg_vc4 *v, vc4_thread *t, uint32_t addr, const uint8_t *rec, uint32_t *next)
{
    (void)t, (void)addr, (void)next;
    vc4_render *r = v->rend;
    uint64_t cc = VC4_GET(rec + 1, Clear_Colors, Clear_Color);
    r->clear_color[0] = (uint32_t)cc;
    r->clear_color[1] = (uint32_t)(cc >> 32);
    r->clear_zs = (uint32_t)VC4_GET(rec + 1, Clear_Colors, Clear_ZS);
    r->clear_vg = (uint8_t)VC4_GET(rec + 1, Clear_Colors, Clear_VG_Mask);
    r->clear_stencil = (uint8_t)VC4_GET(rec + 1, Clear_Colors, Clear_Stencil);
    return 0;
}

static int h_tile_coords(cg_vc4 *v, vc4_thread *t, uint32_t addr, const uint8_t *rec,
                         uint32_t *next)
{
    (void)next;
    vc4_render *r = v->rend;
    unsigned x = (unsigned)VC4_GET(rec + 1, Tile_Coordinates, Tile_Column_Number);
    unsigned y = (unsigned)VC4_GET(rec + 1, Tile_Coordinates, Tile_Row_Number);
    if (!r->configured)
        return vc4_fault(v, t, CG_FAULT_BAD_STATE, addr,
                         "Tile_Coordinates before Tile_Rendering_Mode_Configuration");
    if (x * VC4_TILE >= r->width || y * VC4_TILE >= r->height)
        return vc4_fault(v, t, CG_FAULT_BAD_STATE, addr,
                         "Tile_Coordinates %u, %u outside the %ux%u frame", x, y, r->width,
                         r->height);
    r->tile_x = x;
    r->tile_y = y;
    return r->load_pending ? do_load(v, t) : 0;
}

/* Re-load full resolution / Load general: kept until Tile_Coordinates */
static int h_load(cg_vc4 *v, vc4_thread *t, uint32_t addr, const uint8_t *rec, uint32_t *next)
{
    (void)t, (void)addr, (void)next;
    vc4_render *r = v->rend;
    memcpy(r->load_rec, rec, rec[0] == VC4_OP_Re_load_Full_Resolution_Tile_Buffer
                                 ? VC4_SIZE_Re_load_Full_Resolution_Tile_Buffer
                                 : VC4_SIZE_Load_Tile_Buffer_General);
    r->load_op = rec[0];
    r->load_pending = true;
    return 0;
}

static int h_store_general(cg_vc4 *v, vc4_thread *t, uint32_t addr, const uint8_t *rec,
                           uint32_t *next)
{
    (void)next;
    return store_tile(v, t, addr, rec, "Store_Tile_Buffer_General");
}

/* Store multi-sample resolved tile colour buffer (and EOF) */
static int h_store_ms(cg_vc4 *v, vc4_thread *t, uint32_t addr, const uint8_t *rec,
                      uint32_t *next)
{
    (void)next;
    return store_tile(v, t, addr, rec, "Store_Multi_Sample");
}

static int h_store_full(cg_vc4 *v, vc4_thread *t, uint32_t addr, const uint8_t *rec,
                        uint32_t *next)
{
    (void)next;
    return store_tile(v, t, addr, rec, "Store_Full_Resolution");
}

static int h_config_bits(cg_vc4 *v, vc4_thread *t, uint32_t addr, const uint8_t *rec,
                         uint32_t *next)
{
    (void)next;
    vc4_render *r = v->rend;
    memcpy(r->st.config, rec + 1, VC4_SIZE_Configuration_Bits - 1);
    r->st.config_valid = true;
    if (VC4_GET(rec + 1, Configuration_Bits, Rasteriser_Oversample_Mode))
        return vc4_fault(v, t, CG_FAULT_UNSUPPORTED, addr,
                         "Configuration_Bits: rasteriser oversample (multisample): not "
                         "supported yet");
    return 0;
}

/* Primitive format, NV shader state, viewport, clip window, flat shading,
 * depth offset, Z clipping planes: latched as the binner latches them
 * (vc4_latch_state, state.c). */
static int h_latch(cg_vc4 *v, vc4_thread *t, uint32_t addr, const uint8_t *rec, uint32_t *next)
{
    (void)t, (void)addr, (void)next;
    vc4_latch_state(&v->rend->st, rec);
    return 0;
}

/* Point_size, Line_width: kept for points and lines */
static int h_size(cg_vc4 *v, vc4_thread *t, uint32_t addr, const uint8_t *rec, uint32_t *next)
{
    (void)t, (void)addr, (void)next;
    float f = vc4_f32(vc4_le32(rec + 1));
    if (rec[0] == VC4_OP_Point_size)
        v->rend->point_size = f;
    else
        v->rend->line_width = f;
    return 0;
}

/* RHT boundary */
static int h_accept(cg_vc4 *v, vc4_thread *t, uint32_t addr, const uint8_t *rec,
                    uint32_t *next)
{
    (void)v, (void)t, (void)addr, (void)rec, (void)next;
    return 0;
}

static int h_compressed(cg_vc4 *v, vc4_thread *t, uint32_t addr, const uint8_t *rec,
                        uint32_t *next)
{
    (void)rec;
    return compressed_list(v, t, addr + 1, next);
}

/* Clipped_Primitive_With_Compressed_Primitive_List: the clipped triangle of
 * the block at its address (gl.h VC4_CLIP_BLOCK: the original vertices'
 * indices, the polygon's screen positions, Zs, 1/Wc and barycentric
 * weights; its varyings are those weights of the vertex shader's), drawn
 * as a fan (in a line list: the clipped line, drawn as a line), then the
 * compressed list that follows the record. */
static int h_clipped(cg_vc4 *v, vc4_thread *t, uint32_t addr, const uint8_t *rec,
                     uint32_t *next)
{
    vc4_render *r = v->rend;
    uint32_t a = VC4_ADDR(rec + 1, Clipped_Primitive_With_Compressed_Primitive_List,
                          Clipped_Primitive_Address);
    int rc = need_tile(v, t, addr, "a clipped primitive");
    if (rc)
        return rc;
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
    return compressed_list(v, t, addr + 5, next);
}

static const vc4_render_fn render_handlers[256] = {
    [VC4_OP_Tile_Rendering_Mode_Configuration] = h_rend_config,
    [VC4_OP_Clear_Colors] = h_clear,
    [VC4_OP_Tile_Coordinates] = h_tile_coords,
    [VC4_OP_Re_load_Full_Resolution_Tile_Buffer] = h_load,
    [VC4_OP_Load_Tile_Buffer_General] = h_load,
    [VC4_OP_Store_Tile_Buffer_General] = h_store_general,
    [VC4_OP_Store_Multi_sample_Resolved_Tile_Color_Buffer] = h_store_ms,
    [VC4_OP_Store_Multi_sample_Resolved_Tile_Color_Buffer_and_EOF] = h_store_ms,
    [VC4_OP_Store_Full_Resolution_Tile_Buffer] = h_store_full,
    [VC4_OP_Primitive_List_Format] = h_latch,
    [VC4_OP_NV_Shader_State] = h_latch,
    [VC4_OP_GL_Shader_State] = h_latch,
    [VC4_OP_Configuration_Bits] = h_config_bits,
    [VC4_OP_Viewport_Offset] = h_latch,
    [VC4_OP_Clip_Window] = h_latch,
    [VC4_OP_Flat_Shade_Flags] = h_latch,
    [VC4_OP_Point_size] = h_size,
    [VC4_OP_Line_width] = h_size,
    [VC4_OP_RHT_X_boundary] = h_accept,
    [VC4_OP_Depth_Offset] = h_latch,
    [VC4_OP_Z_min_and_max_clipping_planes] = h_latch,
    [VC4_OP_Compressed_Primitive_List] = h_compressed,
    [VC4_OP_Clipped_Primitive_With_Compressed_Primitive_List] = h_clipped,
};

int vc4_render_record(cg_vc4 *v, vc4_thread *t, uint32_t addr, const uint8_t *rec,
                      uint32_t *next)
{
    if (render_handlers[rec[0]])
        return render_handlers[rec[0]](v, t, addr, rec, next);
    vc4_record rr;
    vc4_record_get(rec[0], &rr);
    if (rr.where == VC4_BIN)
        return vc4_fault(v, t, CG_FAULT_BAD_STATE, addr,
                         "%s (opcode %u) is a binning-list record, found in the render list",
                         rr.name, rec[0]);
    return vc4_fault(v, t, CG_FAULT_UNSUPPORTED, addr,
                     "%s (opcode %u) in the render list: not supported yet", rr.name, rec[0]);
}
