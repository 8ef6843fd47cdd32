/* The VideoCore IV texture sampler behind src/vc4/gpu/tmu.h: configuration
 * parameters, texture types (tmu_formats.def), T-format / LT / raster
 * layouts and mip chains, wrap modes, nearest / bilinear / mipmapped
 * filtering, cube maps and the r4 word ldtmu returns. docs/vc4-tmu.md gives
 * every rule with its source and the choices made where sources are silent.
 *
 * Facts from: VideoCore IV 3D Architecture Reference Guide section 5 (TMU);
 * Mesa src/gallium/drivers/vc4/ (vc4_tiling.c t_utile_address(),
 * vc4_tiling.h utile sizes, vc4_resource.c vc4_setup_slices(),
 * vc4_formats.c swizzles, vc4_uniforms.c border colour packing,
 * vc4_program.c ntq_emit_tex(), kernel/vc4_packet.h field positions,
 * kernel/vc4_validate.c reloc_tex()); Khronos OES_compressed_ETC1_RGB8_texture
 * for the ETC1 block. No code is taken from them. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "core/half.h"
#include "core/mem_internal.h"
#include "tmu.h"

/* ---- the type table ---------------------------------------------------- */

enum vc4_tmu_decode {
    DEC_RGBA8888, DEC_RGBX8888, DEC_RGBA4444, DEC_RGBA5551, DEC_RGB565, DEC_LUMINANCE,
    DEC_ALPHA, DEC_LUMALPHA, DEC_ETC1, DEC_S16F, DEC_S8, DEC_S16, DEC_BW1, DEC_A4, DEC_A1,
    DEC_RGBA64, DEC_YUYV422
};

typedef struct type_row {
    vc4_tmu_type_info info;
    enum vc4_tmu_decode decode;
} type_row;

static const type_row types[VC4_TMU_TYPE_COUNT] = {
#define VC4_TMU_TYPE(code, NAME, name, bpp, layout, dec) \
    [code] = {{name, bpp, VC4_TMU_L_##layout}, DEC_##dec},
#define VC4_TMU_L_TILED false
#define VC4_TMU_L_RASTER true
#include "vc4/tables/tmu_formats.def"
#undef VC4_TMU_L_TILED
#undef VC4_TMU_L_RASTER
};

const vc4_tmu_type_info *vc4_tmu_type_get(unsigned code)
{
    return code < VC4_TMU_TYPE_COUNT && types[code].info.name ? &types[code].info : NULL;
}

/* ---- parameter text ---------------------------------------------------- */

typedef struct field_row {
    int param, ptype;
    const char *name;
    unsigned hi, lo;
} field_row;

static const field_row fields[] = {
#define VC4_TMU_FIELD(param, ptype, NAME, name, hi, lo) {param, ptype, name, hi, lo},
#include "vc4/tables/tmu_formats.def"
};

typedef struct enum_row {
    const char *set;
    unsigned value;
    const char *name;
} enum_row;

static const enum_row enums[] = {
#define VC4_TMU_ENUM(set, value, name) {#set, value, name},
#include "vc4/tables/tmu_formats.def"
};

static const char *enum_name(const char *set, unsigned v)
{
    for (size_t i = 0; i < sizeof enums / sizeof enums[0]; i++)
        if (strcmp(enums[i].set, set) == 0 && enums[i].value == v)
            return enums[i].name;
    return NULL;
}

/* which enum set names a field's values (by the field's table name) */
static const char *field_set(const char *name)
{
    if (!strcmp(name, "wraps") || !strcmp(name, "wrapt"))
        return "WRAP";
    if (!strcmp(name, "magfilt"))
        return "MAGF";
    if (!strcmp(name, "minfilt"))
        return "MINF";
    if (!strcmp(name, "ptype"))
        return "PTYPE";
    return NULL;
}

int vc4_tmu_format_params(const uint32_t p[4], unsigned n, char *buf, size_t cap)
{
    size_t len = 0;
    char tmp[64];
    if (cap)
        buf[0] = 0;
#define PUT(...)                                                                   \
    do {                                                                           \
        int k_ = snprintf(len < cap ? buf + len : NULL, len < cap ? cap - len : 0, \
                          __VA_ARGS__);                                            \
        if (k_ > 0)                                                                \
            len += (size_t)k_;                                                     \
    } while (0)
    if (n > 4)
        n = 4;
    unsigned type = VC4_TMU_GET(p[0], TYPE) | (n > 1 ? VC4_TMU_GET(p[1], TYPE4) << 4 : 0);
    for (unsigned i = 0; i < n; i++) {
        unsigned param = i < 2 ? i : 2;
        unsigned ptype = (unsigned)(p[i] >> 30);
        PUT("%sp%u:", i ? "; " : "", i);
        for (size_t f = 0; f < sizeof fields / sizeof fields[0]; f++) {
            const field_row *r = &fields[f];
            if (r->param != (int)param || (r->ptype >= 0 && (unsigned)r->ptype != ptype))
                continue;
            uint32_t v = (p[i] >> r->lo) & (0xffffffffu >> (31 - (r->hi - r->lo)));
            const char *set = field_set(r->name);
            const char *en = set ? enum_name(set, v) : NULL;
            if (!strcmp(r->name, "base") || !strcmp(r->name, "cmst"))
                snprintf(tmp, sizeof tmp, "0x%08x", v << 12);
            else if (en)
                snprintf(tmp, sizeof tmp, "%s", en);
            else if (set)
                snprintf(tmp, sizeof tmp, "%u (reserved)", v);
            else if ((!strcmp(r->name, "type") && n == 1) || !strcmp(r->name, "type4")) {
                const vc4_tmu_type_info *ti = vc4_tmu_type_get(type);
                snprintf(tmp, sizeof tmp, "%u (%s)", v, ti ? ti->name : "reserved");
            } else
                snprintf(tmp, sizeof tmp, "%u", v);
            PUT(" %s=%s", r->name, tmp);
        }
    }
#undef PUT
    return (int)len;
}

/* ---- layouts ----------------------------------------------------------- */

/* Micro-tile (64 bytes) width and height in units of `bpp` bits
 * (Mesa vc4_tiling.h for 8..64 bpp; the guide's micro-tile table for 1 and
 * 4 bpp: 32x16 and 16x8). */
static void utile_dims(unsigned bpp, uint32_t *w, uint32_t *h)
{
    switch (bpp) {
    case 64: *w = 2; *h = 4; break;
    case 32: *w = 4; *h = 4; break;
    case 16: *w = 8; *h = 4; break;
    case 8: *w = 8; *h = 8; break;
    case 4: *w = 16; *h = 8; break;
    default: *w = 32; *h = 16; break; /* 1 bpp */
    }
}

static uint32_t round_up(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }

/* bits per layout unit: ETC1 places 64-bit blocks */
static unsigned unit_bpp(unsigned type)
{
    return type == VC4_TMU_TYPE_ETC1 ? 64 : types[type].info.bpp;
}

long vc4_tmu_layout_levels(unsigned type, uint32_t width, uint32_t height, unsigned miplevels,
                           vc4_tmu_level lv[16])
{
    if (type >= VC4_TMU_TYPE_COUNT || miplevels > 15 || width == 0 || height == 0)
        return -1;
    unsigned bpp = unit_bpp(type);
    uint32_t uw, uh;
    utile_dims(bpp, &uw, &uh);
    uint64_t below = 0;
    for (unsigned i = 0; i <= miplevels; i++) {
        vc4_tmu_level *l = &lv[i];
        l->width = width >> i ? width >> i : 1;
        l->height = height >> i ? height >> i : 1;
        l->blocks_w = type == VC4_TMU_TYPE_ETC1 ? (l->width + 3) / 4 : l->width;
        l->blocks_h = type == VC4_TMU_TYPE_ETC1 ? (l->height + 3) / 4 : l->height;
        if (types[type].info.raster) {
            l->layout = VC4_TMU_RASTER;
            l->aligned_w = round_up(l->blocks_w, uw);
            l->aligned_h = l->blocks_h;
        } else if (l->blocks_w <= 4 * uw || l->blocks_h <= 4 * uh) {
            l->layout = VC4_TMU_LT; /* kernel size_is_lt(), Mesa vc4_size_is_lt() */
            l->aligned_w = round_up(l->blocks_w, uw);
            l->aligned_h = round_up(l->blocks_h, uh);
        } else {
            l->layout = VC4_TMU_T;
            l->aligned_w = round_up(l->blocks_w, 8 * uw);
            l->aligned_h = round_up(l->blocks_h, 8 * uh);
        }
        l->stride = l->aligned_w * bpp / 8;
        l->size = l->stride * l->aligned_h;
        if (i > 0)
            below += l->size;
        l->below = (uint32_t)below;
    }
    return (long)below;
}

static unsigned log2u(uint32_t v) { return (unsigned)__builtin_ctz(v); }

/* vc4_tmu_unit_offset with the micro-tile's sides given as shifts (sw, sh:
 * utile_dims of bpp), for the sampler's per-texel use */
static inline uint32_t unit_offset(const vc4_tmu_level *lv, unsigned bpp, unsigned sw,
                                   unsigned sh, uint32_t x, uint32_t y, unsigned *bit)
{
    uint32_t in;  /* unit index inside its micro-tile, or in the raster row */
    uint32_t off; /* byte offset of the micro-tile (raster: of the row) */
    if (lv->layout == VC4_TMU_RASTER) {
        off = y * lv->stride;
        in = x;
    } else {
        uint32_t ux = x >> sw, uy = y >> sh;
        in = ((y & ((1u << sh) - 1)) << sw) + (x & ((1u << sw) - 1));
        if (lv->layout == VC4_TMU_LT) {
            off = (uy * (lv->aligned_w >> sw) + ux) * 64;
        } else {
            /* T-format: 4 KiB tiles of 2x2 1 KiB sub-tiles of 4x4 micro-tiles;
             * odd rows of tiles run right to left, and the sub-tile order
             * depends on the tile row's parity (Mesa t_utile_address()). */
            static const uint8_t even_map[4] = {0, 3, 1, 2}, odd_map[4] = {2, 1, 3, 0};
            uint32_t tiles_w = lv->aligned_w >> (sw + 3);
            uint32_t tx = ux >> 3, ty = uy >> 3;
            bool odd = ty & 1;
            if (odd)
                tx = tiles_w - 1 - tx;
            uint32_t st = ((uy >> 2) & 1) * 2 + ((ux >> 2) & 1);
            off = (ty * tiles_w + tx) * 4096 + (odd ? odd_map[st] : even_map[st]) * 1024u +
                  ((uy & 3) * 4 + (ux & 3)) * 64;
        }
    }
    uint32_t bits = in * bpp;
    if (bit)
        *bit = bits & 7;
    return off + bits / 8;
}

uint32_t vc4_tmu_unit_offset(const vc4_tmu_level *lv, unsigned bpp, uint32_t x, uint32_t y,
                             unsigned *bit)
{
    uint32_t uw, uh;
    utile_dims(bpp, &uw, &uh);
    /* micro-tile sides are powers of two */
    return unit_offset(lv, bpp, log2u(uw), log2u(uh), x, y, bit);
}

/* ---- the sampler ------------------------------------------------------- */

enum { WRAP_REPEAT, WRAP_CLAMP, WRAP_MIRROR, WRAP_BORDER };

typedef struct texel {
    uint32_t lo, hi; /* the r4 word, and the B|A word of RGBA64 */
} texel;

#define CACHE_LINES 16
#define DIRECT_PAGES 4

typedef struct sampler {
    const vc4_tmu_req *req;
    vc4_tmu_fault *fault;
    unsigned type;
    enum vc4_tmu_decode dec;
    unsigned bpp;   /* bits per layout unit */
    bool halves;    /* filter 16-bit halves as floats (S16F, RGBA64) */
    uint32_t base, cube_stride;
    unsigned nlev;  /* levels 0..nlev-1 */
    vc4_tmu_level lv[16];
    uint32_t w, h;  /* sampled size of level 0 (the child image when given) */
    uint32_t cxoff, cyoff;
    unsigned wrap_s, wrap_t, minf, magf;
    bool flipy, cube, etcflip, bslod;
    uint64_t lo, hi; /* checked byte range [lo, hi) */
    unsigned usw, ush; /* log2 of the micro-tile's width and height in units */
    /* host pages of direct reads (cg__vas_span), by page number modulo
     * DIRECT_PAGES (a bilinear footprint spans two T-format tiles, each a
     * 4 KiB page); NULL until found */
    uint32_t dpage[DIRECT_PAGES];
    const uint8_t *dhost[DIRECT_PAGES];
    /* a small cache of 64-byte lines read through the bus */
    uint32_t tag[CACHE_LINES];
    bool valid[CACHE_LINES];
    uint8_t line[CACHE_LINES][64];
} sampler;

static int set_fault(vc4_tmu_fault *f, cg_fault_kind kind, uint32_t addr, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int set_fault(vc4_tmu_fault *f, cg_fault_kind kind, uint32_t addr, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    f->kind = kind;
    f->addr = addr;
    vsnprintf(f->msg, sizeof f->msg, fmt, ap);
    va_end(ap);
    return -1;
}

/* Read n (<= 8) bytes at bus address a, inside [lo, hi). Plain memory (no
 * coherency model on its object) is read where it lies, one host page kept;
 * the rest goes through a small cache of 64-byte lines read with
 * cg_vas_read. setup() has checked the whole range, so neither path faults
 * inside it. */
static int bus_bytes(sampler *sp, uint32_t a, uint8_t *dst, unsigned n)
{
    uint32_t in = a & 4095;
    if (in + n <= 4096 && a >= sp->lo && (uint64_t)a + n <= sp->hi) {
        unsigned slot = (a >> 12) % DIRECT_PAGES;
        if (sp->dhost[slot] && (a >> 12) == sp->dpage[slot]) {
            memcpy(dst, sp->dhost[slot] + in, n);
            return 0;
        }
        uint8_t *p;
        if (cg__vas_span(sp->req->bus, a, 4096 - in, false, &p) == 4096 - in) {
            /* nothing writes memory during one request, so even a pointer
             * into the shared page of zeros stays right until it ends */
            sp->dhost[slot] = p - in;
            sp->dpage[slot] = a >> 12;
            memcpy(dst, p, n);
            return 0;
        }
    }
    uint32_t tag0 = a & ~63u;
    unsigned slot0 = (tag0 >> 6) % CACHE_LINES;
    if (sp->valid[slot0] && sp->tag[slot0] == tag0 && (a & 63) + n <= 64 && a >= sp->lo &&
        (uint64_t)a + n <= sp->hi) {
        memcpy(dst, sp->line[slot0] + (a & 63), n);
        return 0;
    }
    for (unsigned k = 0; k < n; k++) {
        uint32_t addr = a + k;
        uint32_t tag = addr & ~63u;
        unsigned slot = (tag >> 6) % CACHE_LINES;
        if (!sp->valid[slot] || sp->tag[slot] != tag) {
            uint32_t from = tag < sp->lo ? (uint32_t)sp->lo : tag;
            uint64_t to = (uint64_t)tag + 64 > sp->hi ? sp->hi : (uint64_t)tag + 64;
            if (addr < sp->lo || addr >= sp->hi)
                return set_fault(sp->fault, CG_FAULT_ADDR_RANGE, addr,
                                 "texture read at 0x%08x outside the texture [0x%08llx, 0x%08llx)",
                                 addr, (unsigned long long)sp->lo, (unsigned long long)sp->hi);
            memset(sp->line[slot], 0, 64);
            unsigned len = (unsigned)(to - from);
            if (cg_vas_read(sp->req->bus, from, sp->line[slot] + (from - tag), len,
                            sp->req->who) != 0)
                return set_fault(sp->fault, CG_FAULT_UNMAPPED, from,
                                 "texture read of %u bytes at 0x%08x faulted", len, from);
            sp->tag[slot] = tag;
            sp->valid[slot] = true;
        }
        dst[k] = sp->line[slot][addr & 63];
    }
    return 0;
}

static uint32_t pack4(unsigned r, unsigned g, unsigned b, unsigned a)
{
    return (uint32_t)r | (uint32_t)g << 8 | (uint32_t)b << 16 | (uint32_t)a << 24;
}

static unsigned x5to8(unsigned v) { return (v << 3) | (v >> 2); }
static unsigned x6to8(unsigned v) { return (v << 2) | (v >> 4); }
static unsigned x4to8(unsigned v) { return (v << 4) | v; }

static unsigned clamp255(int v) { return v < 0 ? 0u : v > 255 ? 255u : (unsigned)v; }

/* Texel (x, y) of an ETC1 block (OES_compressed_ETC1_RGB8_texture): the
 * 64-bit block word with bit 63 the first bit of the spec's big-endian
 * block. */
static uint32_t etc1_texel(uint64_t blk, unsigned x, unsigned y)
{
    static const int mods[8][2] = {{2, 8},   {5, 17},  {9, 29},   {13, 42},
                                   {18, 60}, {24, 80}, {33, 106}, {47, 183}};
    bool diff = blk >> 33 & 1, flip = blk >> 32 & 1;
    bool second = flip ? y >= 2 : x >= 2;
    unsigned c[3];
    for (int k = 0; k < 3; k++) {
        unsigned sh = 59 - 8 * k; /* R at 63, G at 55, B at 47 */
        if (diff) {
            unsigned b5 = (unsigned)(blk >> sh) & 31;
            int d = (int)((blk >> (sh - 3)) & 7);
            if (d >= 4)
                d -= 8;
            unsigned v = second ? (unsigned)((int)b5 + d) & 31 : b5;
            c[k] = x5to8(v);
        } else {
            unsigned v = (unsigned)(blk >> (second ? sh - 3 : sh + 1)) & 15;
            c[k] = x4to8(v);
        }
    }
    unsigned table = (unsigned)(blk >> (second ? 34 : 37)) & 7;
    unsigned i = x * 4 + y;
    unsigned idx = (unsigned)((blk >> (16 + i)) & 1) << 1 | (unsigned)((blk >> i) & 1);
    int m = mods[table][idx & 1];
    if (idx & 2)
        m = -m;
    return pack4(clamp255((int)c[0] + m), clamp255((int)c[1] + m), clamp255((int)c[2] + m), 255);
}

/* Fetch texel (x, y) (already wrapped, inside the level) of level `lvl` of
 * face `face`. */
static int fetch(sampler *sp, unsigned face, unsigned lvl, uint32_t x, uint32_t y, texel *out)
{
    const vc4_tmu_level *l = &sp->lv[lvl];
    uint32_t start = sp->base + face * sp->cube_stride - l->below;
    uint8_t b[8] = {0};
    unsigned bit = 0;
    uint32_t off;
    if (sp->dec == DEC_ETC1) {
        off = unit_offset(l, 64, sp->usw, sp->ush, x / 4, y / 4, NULL);
        if (bus_bytes(sp, start + off, b, 8))
            return -1;
        uint64_t blk = 0;
        for (int k = 0; k < 8; k++) /* ETCFLIP: the spec's byte order; else a LE word */
            blk |= (uint64_t)b[k] << (sp->etcflip ? 56 - 8 * k : 8 * k);
        out->lo = out->hi = etc1_texel(blk, x & 3, y & 3);
        return 0;
    }
    if (sp->dec == DEC_YUYV422) {
        off = unit_offset(l, 16, sp->usw, sp->ush, x & ~1u, y, NULL);
        if (bus_bytes(sp, start + off, b, 4))
            return -1;
        out->lo = out->hi = pack4(b[(x & 1) * 2], b[1], b[3], 255);
        return 0;
    }
    off = unit_offset(l, sp->bpp, sp->usw, sp->ush, x, y, &bit);
    unsigned n = sp->bpp >= 8 ? sp->bpp / 8 : 1;
    if (bus_bytes(sp, start + off, b, n))
        return -1;
    uint32_t w32 = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 |
                   (uint32_t)b[3] << 24;
    uint32_t v16 = w32 & 0xffff;
    uint32_t r;
    switch (sp->dec) {
    case DEC_RGBA8888: r = w32; break;
    case DEC_RGBX8888: r = w32 | 0xff000000u; break;
    case DEC_RGBA4444:
        r = pack4(x4to8(v16 >> 12), x4to8((v16 >> 8) & 15), x4to8((v16 >> 4) & 15),
                  x4to8(v16 & 15));
        break;
    case DEC_RGBA5551:
        r = pack4(x5to8(v16 >> 11), x5to8((v16 >> 6) & 31), x5to8((v16 >> 1) & 31),
                  (v16 & 1) ? 255 : 0);
        break;
    case DEC_RGB565:
        r = pack4(x5to8(v16 >> 11), x6to8((v16 >> 5) & 63), x5to8(v16 & 31), 255);
        break;
    case DEC_LUMINANCE: r = pack4(b[0], b[0], b[0], 255); break;
    case DEC_ALPHA: r = pack4(0, 0, 0, b[0]); break;
    case DEC_LUMALPHA: r = pack4(b[0], b[0], b[0], b[1]); break;
    case DEC_S16F: r = v16 | v16 << 16; break;
    case DEC_S8: r = pack4(b[0], b[0], b[0], b[0]); break;
    case DEC_S16: r = v16 | v16 << 16; break;
    case DEC_BW1: {
        unsigned v = (b[0] >> bit) & 1 ? 255 : 0;
        r = pack4(v, v, v, 255);
        break;
    }
    case DEC_A4: r = pack4(0, 0, 0, x4to8((b[0] >> bit) & 15)); break;
    case DEC_A1: r = pack4(0, 0, 0, (b[0] >> bit) & 1 ? 255 : 0); break;
    case DEC_RGBA64:
        out->lo = w32;
        out->hi = (uint32_t)b[4] | (uint32_t)b[5] << 8 | (uint32_t)b[6] << 16 |
                  (uint32_t)b[7] << 24;
        return 0;
    default: r = w32; break;
    }
    out->lo = out->hi = r;
    return 0;
}

/* Wrap integer texel coordinate c into [0, n); false = border. */
static bool wrap(int64_t c, uint32_t n, unsigned mode, uint32_t *out)
{
    if (c >= 0 && c < (int64_t)n) { /* inside: every mode leaves it */
        *out = (uint32_t)c;
        return true;
    }
    int64_t m;
    switch (mode) {
    case WRAP_REPEAT:
        m = c % (int64_t)n;
        if (m < 0)
            m += n;
        break;
    case WRAP_MIRROR:
        m = c % (2 * (int64_t)n);
        if (m < 0)
            m += 2 * (int64_t)n;
        if (m >= (int64_t)n)
            m = 2 * (int64_t)n - 1 - m;
        break;
    case WRAP_CLAMP:
        m = c < 0 ? 0 : c >= (int64_t)n ? (int64_t)n - 1 : c;
        break;
    default:
        if (c < 0 || c >= (int64_t)n)
            return false;
        m = c;
        break;
    }
    *out = (uint32_t)m;
    return true;
}

/* a float coordinate, NaN as 0 and kept in a range where int64 is safe */
static double coord(float v)
{
    if (v != v)
        return 0;
    if (v > 1e6f)
        return 1e6;
    if (v < -1e6f)
        return -1e6;
    return v;
}

/* Fetch the texel at wrapped coordinates (wx, wy) of a level (-1: border). */
static int texel_w(sampler *sp, unsigned face, unsigned lvl, int64_t wx, int64_t wy,
                   uint32_t lh, uint32_t border, texel *t)
{
    if (wx < 0 || wy < 0) {
        t->lo = t->hi = border;
        return 0;
    }
    uint32_t y = (uint32_t)wy;
    if (sp->flipy)
        y = lh - 1 - y;
    return fetch(sp, face, lvl, (uint32_t)wx + (sp->cxoff >> lvl), y + (sp->cyoff >> lvl), t);
}

static int64_t wrap_axis(int64_t c, uint32_t n, unsigned mode)
{
    uint32_t w;
    return wrap(c, n, mode, &w) ? (int64_t)w : -1;
}

/* weights in 1/256 (8-bit fractions); their sum is 256 (two levels) or
 * 65536 (four texels), so the rounded division is a shift */
static uint32_t blend_bytes(const texel *c, const unsigned *wgt, unsigned n, bool hi)
{
    uint32_t total = 0;
    for (unsigned i = 0; i < n; i++)
        total += wgt[i];
    bool pow2 = total && !(total & (total - 1));
    unsigned sh = pow2 ? (unsigned)__builtin_ctz(total) : 0;
    uint32_t r = 0;
    for (int k = 0; k < 4; k++) {
        uint32_t acc = 0;
        for (unsigned i = 0; i < n; i++)
            acc += (((hi ? c[i].hi : c[i].lo) >> (8 * k)) & 255) * wgt[i];
        uint32_t v = !total ? 0 : pow2 ? (acc + total / 2) >> sh : (acc + total / 2) / total;
        r |= (v > 255 ? 255 : v) << (8 * k);
    }
    return r;
}

static uint32_t blend_halves(const texel *c, const unsigned *wgt, unsigned n, bool hi)
{
    uint32_t r = 0;
    for (int k = 0; k < 2; k++) {
        float acc = 0, total = 0;
        for (unsigned i = 0; i < n; i++) {
            uint16_t h = (uint16_t)(((hi ? c[i].hi : c[i].lo) >> (16 * k)) & 0xffff);
            acc += cg__half_to_float(h) * (float)wgt[i];
            total += (float)wgt[i];
        }
        r |= (uint32_t)cg__float_to_half(total > 0 ? acc / total : 0) << (16 * k);
    }
    return r;
}

static void blend(const sampler *sp, const texel *c, const unsigned *wgt, unsigned n, texel *out)
{
    if (sp->halves) {
        out->lo = blend_halves(c, wgt, n, false);
        out->hi = blend_halves(c, wgt, n, true);
    } else {
        out->lo = blend_bytes(c, wgt, n, false);
        out->hi = sp->dec == DEC_RGBA64 ? blend_bytes(c, wgt, n, true) : out->lo;
    }
}

/* Sample level `lvl` at normalised (s, t), nearest or bilinear. */
static int sample_level(sampler *sp, unsigned face, unsigned lvl, double s, double t,
                        bool linear, uint32_t border, texel *out)
{
    uint32_t lw = sp->w >> lvl ? sp->w >> lvl : 1, lh = sp->h >> lvl ? sp->h >> lvl : 1;
    if (sp->dec == DEC_S16)
        linear = false; /* "point sampling only" (table 18) */
    double u = s * lw, v = t * lh;
    unsigned ws = sp->cube ? WRAP_CLAMP : sp->wrap_s, wt = sp->cube ? WRAP_CLAMP : sp->wrap_t;
    if (!linear)
        return texel_w(sp, face, lvl, wrap_axis((int64_t)floor(u), lw, ws),
                       wrap_axis((int64_t)floor(v), lh, wt), lh, border, out);
    u -= 0.5;
    v -= 0.5;
    double fu = floor(u), fv = floor(v);
    unsigned ax = (unsigned)floor((u - fu) * 256.0), ay = (unsigned)floor((v - fv) * 256.0);
    if (ax > 255)
        ax = 255;
    if (ay > 255)
        ay = 255;
    int64_t x0 = (int64_t)fu, y0 = (int64_t)fv;
    int64_t xs[2] = {wrap_axis(x0, lw, ws), wrap_axis(x0 + 1, lw, ws)};
    int64_t ys[2] = {wrap_axis(y0, lh, wt), wrap_axis(y0 + 1, lh, wt)};
    texel c[4];
    for (int k = 0; k < 4; k++)
        if (texel_w(sp, face, lvl, xs[k & 1], ys[k >> 1], lh, border, &c[k]))
            return -1;
    unsigned wgt[4] = {(256 - ax) * (256 - ay), ax * (256 - ay), (256 - ax) * ay, ax * ay};
    blend(sp, c, wgt, 4, out);
    return 0;
}

/* Cube map face and face coordinates of direction (x, y, z): the major
 * axis rule of OpenGL ES 2.0 section 3.7.5, faces +X -X +Y -Y +Z -Z. */
static unsigned cube_face(double x, double y, double z, double *s, double *t)
{
    double ax = fabs(x), ay = fabs(y), az = fabs(z), ma, sc, tc;
    unsigned f;
    if (ax >= ay && ax >= az) {
        f = x >= 0 ? 0 : 1;
        ma = ax;
        sc = x >= 0 ? -z : z;
        tc = -y;
    } else if (ay >= az) {
        f = y >= 0 ? 2 : 3;
        ma = ay;
        sc = x;
        tc = y >= 0 ? z : -z;
    } else {
        f = z >= 0 ? 4 : 5;
        ma = az;
        sc = z >= 0 ? x : -x;
        tc = -y;
    }
    if (!(ma > 0)) {
        *s = *t = 0.5;
        return 0;
    }
    *s = (sc / ma + 1) / 2;
    *t = (tc / ma + 1) / 2;
    return f;
}

static int setup(sampler *sp, const vc4_tmu_req *req, vc4_tmu_fault *fault)
{
    memset(sp, 0, offsetof(sampler, line));
    sp->req = req;
    sp->fault = fault;
    unsigned n = req->nparams > 4 ? 4 : req->nparams;
    uint32_t p0 = req->params[0], p1 = n > 1 ? req->params[1] : 0;
    if (n < 2)
        return set_fault(fault, CG_FAULT_BAD_STATE, 0,
                         "texture lookup with %u configuration parameters (needs 2)", n);
    sp->type = VC4_TMU_GET(p0, TYPE) | VC4_TMU_GET(p1, TYPE4) << 4;
    if (sp->type >= VC4_TMU_TYPE_COUNT)
        return set_fault(fault, CG_FAULT_BAD_STATE, p0 & ~0xfffu,
                         "bad texture type %u (parameter 0 = 0x%08x, parameter 1 = 0x%08x)",
                         sp->type, p0, p1);
    sp->dec = types[sp->type].decode;
    sp->bpp = unit_bpp(sp->type);
    uint32_t uw, uh;
    /* the unit the layout places: an ETC1 block is 64 bits, a YUYV pair 16
     * (fetch's own unit sizes) */
    utile_dims(sp->dec == DEC_ETC1 ? 64 : sp->dec == DEC_YUYV422 ? 16 : sp->bpp, &uw, &uh);
    sp->usw = log2u(uw);
    sp->ush = log2u(uh);
    sp->halves = sp->dec == DEC_S16F || sp->dec == DEC_RGBA64;
    sp->base = p0 & ~0xfffu;
    sp->nlev = VC4_TMU_GET(p0, MIPLVLS) + 1;
    sp->cube = VC4_TMU_GET(p0, CMMODE);
    sp->flipy = VC4_TMU_GET(p0, FLIPY);
    sp->etcflip = VC4_TMU_GET(p1, ETCFLIP);
    sp->wrap_s = VC4_TMU_GET(p1, WRAPS);
    sp->wrap_t = VC4_TMU_GET(p1, WRAPT);
    sp->magf = VC4_TMU_GET(p1, MAGFILT);
    sp->minf = VC4_TMU_GET(p1, MINFILT);
    if (sp->minf > 5)
        return set_fault(fault, CG_FAULT_BAD_STATE, sp->base,
                         "reserved minification filter %u (parameter 1 = 0x%08x)", sp->minf, p1);
    uint32_t width = VC4_TMU_GET(p1, WIDTH), height = VC4_TMU_GET(p1, HEIGHT);
    if (!width)
        width = 2048; /* kernel reloc_tex(): 0 means 2048 */
    if (!height)
        height = 2048;
    uint32_t cw = 0, ch = 0;
    bool stride_set = false;
    for (unsigned i = 2; i < n; i++) {
        uint32_t p = req->params[i];
        switch (VC4_TMU_GET(p, PTYPE)) {
        case 1:
            if (stride_set)
                return set_fault(fault, CG_FAULT_BAD_STATE, sp->base,
                                 "cube map stride set twice (parameters 2 and 3)");
            stride_set = true;
            sp->cube_stride = VC4_TMU_GET(p, CMST) << 12;
            sp->bslod = VC4_TMU_GET(p, BSLOD);
            break;
        case 2:
            cw = VC4_TMU_GET(p, CWIDTH);
            ch = VC4_TMU_GET(p, CHEIGHT);
            break;
        case 3:
            sp->cxoff = VC4_TMU_GET(p, CXOFF);
            sp->cyoff = VC4_TMU_GET(p, CYOFF);
            break;
        default:
            break;
        }
    }
    if (sp->cube && !sp->cube_stride)
        return set_fault(fault, CG_FAULT_BAD_STATE, sp->base,
                         "cube map without a cube map stride (parameter 2 type 1)");
    if (sp->cube && (width != height))
        return set_fault(fault, CG_FAULT_BAD_STATE, sp->base,
                         "cube map faces %ux%u are not square", width, height);
    long below = vc4_tmu_layout_levels(sp->type, width, height, sp->nlev - 1, sp->lv);
    sp->w = cw ? cw : width;
    sp->h = ch ? ch : height;
    if (sp->cxoff + sp->w > width || sp->cyoff + sp->h > height)
        return set_fault(fault, CG_FAULT_BAD_STATE, sp->base,
                         "child image %ux%u at (%u, %u) outside the %ux%u texture", sp->w,
                         sp->h, sp->cxoff, sp->cyoff, width, height);
    if (below < 0 || (uint64_t)below > sp->base)
        return set_fault(fault, CG_FAULT_ADDR_RANGE, sp->base,
                         "mip levels 1..%u (%ld bytes) run below address 0 from base 0x%08x",
                         sp->nlev - 1, below, sp->base);
    uint64_t top = (uint64_t)sp->base + (sp->cube ? 5ull * sp->cube_stride : 0) + sp->lv[0].size;
    if (top > 0x100000000ull)
        return set_fault(fault, CG_FAULT_ADDR_RANGE, sp->base,
                         "texture at 0x%08x (%llu bytes above the base) runs past 4 GiB",
                         sp->base, (unsigned long long)(top - sp->base));
    sp->lo = sp->base - (uint32_t)below;
    sp->hi = top;
    uint64_t bad = 0;
    cg_fault_kind k = cg_vas_check(req->bus, sp->lo, top - sp->lo, false, &bad);
    if (k != CG_FAULT_NONE)
        return set_fault(fault, k, (uint32_t)bad,
                         "%s texture (%ux%u, %u levels%s) at 0x%08x..0x%08llx: %s at 0x%08x",
                         types[sp->type].info.name, width, height, sp->nlev,
                         sp->cube ? ", cube" : "", (uint32_t)sp->lo, (unsigned long long)top - 1,
                         cg_fault_kind_name(k), (uint32_t)bad);
    return 0;
}

static bool min_mipmapped(unsigned minf) { return minf >= 2; }

int vc4_tmu_texture2(const vc4_tmu_req *req, uint32_t out[16], uint32_t out_hi[16],
                     vc4_tmu_fault *fault)
{
    for (int i = 0; i < 16; i++)
        out[i] = out_hi[i] = 0;
    sampler sp;
    if (setup(&sp, req, fault))
        return -1;
    double s[16], t[16];
    unsigned face[16];
    uint32_t border[16];
    for (int i = 0; i < 16; i++) {
        double ss = coord(req->s[i]), tt = req->has_t ? coord(req->t[i]) : 0;
        face[i] = 0;
        if (sp.cube)
            face[i] = cube_face(ss, tt, req->has_r ? coord(req->r[i]) : 0, &ss, &tt);
        s[i] = ss;
        t[i] = tt;
        float rf = req->r[i];
        memcpy(&border[i], &rf, 4); /* border colour: the r register's bits */
        if (!req->has_r || sp.cube)
            border[i] = 0;
    }
    bool need_lod = min_mipmapped(sp.minf) || (sp.minf & 1) != sp.magf || sp.bslod;
    for (int q = 0; q < 4; q++) {
        unsigned qmask = (req->lanes >> (4 * q)) & 15;
        if (!qmask)
            continue;
        double base_lambda = -1000;
        if (need_lod && !sp.bslod) {
            /* the quad's lanes: 0 (x, y), 1 (x+1, y), 2 (x, y+1), 3 (x+1, y+1) */
            int l0 = 4 * q;
            double dsdx = (s[l0 + 1] - s[l0]) * sp.w, dtdx = (t[l0 + 1] - t[l0]) * sp.h;
            double dsdy = (s[l0 + 2] - s[l0]) * sp.w, dtdy = (t[l0 + 2] - t[l0]) * sp.h;
            double rx = sqrt(dsdx * dsdx + dtdx * dtdx), ry = sqrt(dsdy * dsdy + dtdy * dtdy);
            double rho = rx > ry ? rx : ry;
            if (rho > 0 && rho < 1e30)
                base_lambda = log2(rho);
        }
        for (int k = 0; k < 4; k++) {
            int i = 4 * q + k;
            if (!(qmask >> k & 1))
                continue;
            double lambda = base_lambda;
            if (sp.bslod)
                lambda = req->has_b ? coord(req->b[i]) : 0;
            else if (req->has_b)
                lambda += coord(req->b[i]);
            texel res;
            int rc;
            if (!need_lod || lambda <= 0) {
                rc = sample_level(&sp, face[i], 0, s[i], t[i], sp.magf == 0, border[i], &res);
            } else if (!min_mipmapped(sp.minf)) {
                rc = sample_level(&sp, face[i], 0, s[i], t[i], sp.minf == 0, border[i], &res);
            } else {
                bool lin = sp.minf >= 4;
                unsigned maxl = sp.nlev - 1;
                if (sp.minf == 2 || sp.minf == 4) {
                    /* nearest level: OpenGL ES 2.0 eq. 3.19 */
                    double d = lambda <= 0.5 ? 0 : ceil(lambda + 0.5) - 1;
                    unsigned lvl = d > maxl ? maxl : (unsigned)d;
                    rc = sample_level(&sp, face[i], lvl, s[i], t[i], lin, border[i], &res);
                } else {
                    double fl = floor(lambda);
                    if (fl >= maxl) {
                        rc = sample_level(&sp, face[i], maxl, s[i], t[i], lin, border[i], &res);
                    } else {
                        unsigned l1 = (unsigned)fl;
                        unsigned f = (unsigned)floor((lambda - fl) * 256.0);
                        if (f > 255)
                            f = 255;
                        texel c[2];
                        rc = sample_level(&sp, face[i], l1, s[i], t[i], lin, border[i], &c[0]);
                        if (!rc)
                            rc = sample_level(&sp, face[i], l1 + 1, s[i], t[i], lin, border[i],
                                              &c[1]);
                        unsigned wgt[2] = {256 - f, f};
                        if (!rc)
                            blend(&sp, c, wgt, 2, &res);
                    }
                }
            }
            if (rc)
                return -1;
            out[i] = res.lo;
            out_hi[i] = res.hi;
        }
    }
    return 0;
}

int vc4_tmu_texture(const vc4_tmu_req *req, uint32_t out[16], vc4_tmu_fault *fault)
{
    uint32_t hi[16];
    return vc4_tmu_texture2(req, out, hi, fault);
}

unsigned vc4_tmu_result_words(uint32_t p0, uint32_t p1)
{
    unsigned type = VC4_TMU_GET(p0, TYPE) | VC4_TMU_GET(p1, TYPE4) << 4;
    return type == VC4_TMU_TYPE_RGBA64 ? 2u : 1u;
}

unsigned vc4_tmu_params_needed(uint32_t p0, uint32_t p1, bool has_r, bool has_b)
{
    /* One configuration uniform per coordinate write, the s write last
     * (kernel vc4_validate_shaders.c check_tmu_write(); Mesa ntq_emit_tex():
     * r, t, b, s take P0, P1, P2, P3 in write order). */
    (void)p0, (void)p1;
    return 2u + (has_r ? 1u : 0u) + (has_b ? 1u : 0u);
}
