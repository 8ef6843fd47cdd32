/* vc4 family: the tile buffer (the renderer's): frame buffer formats and
 * tilings, its loads and stores, its clears.
 *
 * The tile buffer is 64 x 64 colour words and 64 x 64 Z/stencil words
 * (research/vc4.md 1.2); every store clears the buffers it is not told to
 * keep (the Disable_*_Clear bits), and a "Store None" to address 0 only
 * clears (hackdriver; the seed's Store_Tile_Buffer_General 0, 0, 0); a load
 * runs when the next Tile Coordinates is processed (the kernel's render
 * list in vc4_render_cl.c).
 *
 * Colour words are 0xAARRGGBB (the QPU's tlbc word); RGBA8888 frame buffers
 * hold them little-endian (bytes B, G, R, A: the Pi's default 32-bit pixel
 * order), BGR565 as R[15:11] G[10:5] B[4:0]. */
#include <stdlib.h>
#include "render.h"

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

int vc4_need_tile(cg_vc4 *v, vc4_thread *t, uint32_t addr, const char *what)
{
    vc4_render *r = v->rend;
    if (!r->configured)
        return vc4_fault(v, t, CG_FAULT_BAD_STATE, addr,
                         "%s before Tile_Rendering_Mode_Configuration", what);
    if (r->tile_x < 0)
        return vc4_fault(v, t, CG_FAULT_BAD_STATE, addr, "%s before Tile_Coordinates", what);
    return 0;
}

int vc4_tile_load(cg_vc4 *v, vc4_thread *t)
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
int vc4_tile_store(cg_vc4 *v, vc4_thread *t, uint32_t addr, const uint8_t *rec,
                      const char *name)
{
    vc4_render *r = v->rend;
    vc4_store s;
    vc4_store_decode(r, rec, &s);
    int rc = vc4_need_tile(v, t, addr, name);
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

