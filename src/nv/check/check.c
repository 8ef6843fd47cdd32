/* nv: the stream validator (include/cmdgpu/nv_check.h, docs/nv-check.md).
 *
 * What a kernel would check before it lets a channel run an untrusted
 * pushbuffer, done statically: the GPFIFO entries, every pushbuffer word
 * (decoded with cg_nv_header_decode, the executor's decoder), the classes
 * bound with SET_OBJECT against an allow-list, the methods against the class
 * tables, and at every method that makes an engine touch memory the range it
 * would read or write against the mappings and their permissions. Register
 * files are tracked per channel and class as the executor keeps them
 * (src/nv/gpu/pfifo.c engine_method), and macros are expanded through the macro
 * engine (src/nv/gpu/macro.c), which only generates methods; no engine runs.
 *
 * The kernels this follows (facts from their sources, cited per rule):
 *   Linux drivers/gpu/host1x/job.c validate(), check_class(), check_incr(),
 *     check_nonincr(): the Tegra host1x command-stream firewall walks every
 *     opcode of a gather, rejects classes the client does not allow and
 *     counts that every method run fits inside the gather.
 *   Linux drivers/gpu/drm/nouveau/nouveau_gem.c nouveau_gem_ioctl_pushbuf():
 *     each push must name a buffer of the submission ("push %d buffer not
 *     in list"); nouveau_gem_pushbuf_reloc_apply(): the 4 bytes a
 *     relocation patches must lie inside its buffer ("reloc outside of bo").
 *   Linux drivers/gpu/drm/radeon/r600_cs.c r600_cs_track_validate_cb() and
 *     friends: a colour buffer's whole surface (from the format, pitch,
 *     height and tiling) must fit its buffer object (radeon_bo_size), not
 *     only the pixels drawn. The nv ranges below are checked the same way.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "cmdgpu/asm.h"
#include "cmdgpu/nv_check.h"
#include "nv/tables/fields.h"
#include "nv/scene.h"
#include "nv/gpu/threed.h"

/* Bounds that keep hostile input cheap: pushbuffer words walked in all (the
 * default of cg_nv_check_input.max_words), the macro engine's instructions
 * per call and its parameters. */
#define CHK_MAX_WORDS (1u << 24)
#define CHK_MME_BUDGET (1u << 20)
/* macro instructions of all calls together: without it, 2^24 words of
 * CALL_MME_MACRO could ask for 2^44 instructions */
#define CHK_MME_TOTAL (1ull << 26)
#define CHK_MAX_PARAMS (1u << 16)
#define CHK_VA_END (1ull << 40) /* 40-bit GPU VA (research/nv.md section 1) */

/* Policy: the classes a channel may bind (rule class-allowed). */
static const uint32_t allowed_classes[] = {
    CG_NV_CLASS_3D, CG_NV_CLASS_COMPUTE, CG_NV_CLASS_I2M, CG_NV_CLASS_TWOD, CG_NV_CLASS_COPY,
};

enum { CB_STAGES = 5, CB_SLOTS = 18 }; /* src/nv/gpu/threed.h NV3D_STAGES, NV3D_CB_SLOTS */

typedef struct chk_i2m {
    bool active;
    uint32_t launch;
    uint64_t total, pos;
} chk_i2m;

typedef struct chk_ch {
    uint32_t bound[8];
    uint32_t *regs[NV_NOBJ];
    /* decoder, as pfifo.c keeps it across entries */
    uint32_t method, remaining;
    uint8_t subch, mode;
    uint64_t hdr_addr;
    uint32_t hdr_word;
    uint32_t mask, stored_mask;
    /* host */
    uint32_t sem_hi, sem_lo;
    chk_i2m i2m[NV_NOBJ];
    struct {
        bool valid;
        uint64_t addr;
        uint32_t size;
    } cb[CB_STAGES][CB_SLOTS];
    bool twod_checked; /* the 2D destination was checked since its registers last changed */
    nv_mme_state *mme;
    struct {
        bool pending;
        uint8_t subch;
        uint32_t macro;
        uint32_t *params;
        uint32_t n, cap;
        uint64_t addr;
    } call;
} chk_ch;

typedef struct chk {
    const cg_nv_check_input *in;
    cg_check_report *r;
    chk_ch ch[8];
    cg_device *dev; /* the macro engine posts its faults to a device */
    uint64_t words, max_words;
    bool stopped;   /* max_words reached */
    uint64_t mme_left; /* macro instructions left (CHK_MME_TOTAL) */
    /* lookup caches: the last mapping hit; the last byte block hit, when no
     * later block overlaps it; a range no block covers */
    const cg_nv_check_map *last_map;
    size_t last_block;
    bool last_block_ok;
    uint64_t zero_lo, zero_hi;
    int err;
    /* where and word of the method being checked (access rules) */
    uint64_t at_addr;
    uint32_t at_word;
    bool in_macro;
} chk;

static void viol(chk *c, const char *rule, uint64_t where, uint32_t word, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;
static void viol(chk *c, const char *rule, uint64_t where, uint32_t word, const char *fmt, ...)
{
    char msg[CG_CHECK_MSG_LEN];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    if (cg_check_add(c->r, rule, where, word, "%s", msg) == CG_ERR_NOMEM)
        c->err = CG_ERR_NOMEM;
}

/* ---- memory ------------------------------------------------------------- */

static const cg_nv_check_map *find_map(chk *c, uint64_t va)
{
    const cg_nv_check_map *m = c->last_map;
    if (m && va >= m->va && va - m->va < m->size)
        return m;
    for (size_t i = 0; i < c->in->nmaps; i++) {
        m = &c->in->maps[i];
        if (va >= m->va && va - m->va < m->size)
            return c->last_map = m;
    }
    return NULL;
}

/* Rules access-unmapped / access-read-only: [va, va + len) an engine reads
 * or writes lies in mappings, writable for a write. One violation per range
 * (at its first bad byte). `what` names the unit and the range. */
static void access(chk *c, const char *what, uint64_t va, uint64_t len, bool write)
{
    if (len == 0)
        return;
    const char *rw = write ? "writes" : "reads";
    if (va >= CHK_VA_END || len > CHK_VA_END - va) {
        viol(c, "access-unmapped", c->at_addr, c->at_word,
             "%s %s [0x%010llx, +0x%llx): past the 40-bit GPU address space", what, rw,
             (unsigned long long)va, (unsigned long long)len);
        return;
    }
    uint64_t p = va, end = va + len;
    while (p < end) {
        const cg_nv_check_map *m = find_map(c, p);
        if (!m) {
            viol(c, "access-unmapped", c->at_addr, c->at_word,
                 "%s %s [0x%010llx, +0x%llx): 0x%010llx is not mapped", what, rw,
                 (unsigned long long)va, (unsigned long long)len, (unsigned long long)p);
            return;
        }
        if (write && m->read_only) {
            viol(c, "access-read-only", c->at_addr, c->at_word,
                 "%s %s [0x%010llx, +0x%llx): mapping %s at 0x%010llx is read-only", what, rw,
                 (unsigned long long)va, (unsigned long long)len, m->name ? m->name : "",
                 (unsigned long long)m->va);
            return;
        }
        uint64_t left = m->size - (p - m->va);
        if (left >= end - p)
            return;
        p += left;
    }
}

/* Do [a, a + an) and [b, b + bn) share a byte? (no overflow) */
static bool overlaps(uint64_t a, uint64_t an, uint64_t b, uint64_t bn)
{
    return b >= a ? b - a < an : a - b < bn;
}

static bool in_block(const cg_nv_check_bytes *x, uint64_t va, uint64_t n)
{
    return x->data && va >= x->va && x->size >= n && va - x->va <= x->size - n;
}

/* Does a block after block i overlap it (so that i is not the last word on
 * its bytes)? */
static bool overlapped_later(const chk *c, size_t i)
{
    const cg_nv_check_bytes *x = &c->in->bytes[i];
    for (size_t k = i + 1; k < c->in->nbytes; k++) {
        const cg_nv_check_bytes *y = &c->in->bytes[k];
        if (y->data && overlaps(x->va, x->size, y->va, y->size))
            return true;
    }
    return false;
}

/* The pushbuffer word at va (mapped: checked by the caller). Bytes no
 * block covers are zero; a later block wins, as later sections overwrite.
 * Words are fetched in order, so the caches make this O(1) per word but at
 * block boundaries. */
static uint32_t fetch_word(chk *c, uint64_t va)
{
    if (c->last_block_ok && in_block(&c->in->bytes[c->last_block], va, 4)) {
        const cg_nv_check_bytes *x = &c->in->bytes[c->last_block];
        const uint8_t *p = x->data + (va - x->va);
        return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
    }
    if (va >= c->zero_lo && va + 4 <= c->zero_hi)
        return 0;
    uint8_t b[4] = {0};
    for (unsigned k = 0; k < 4; k++) {
        for (size_t i = c->in->nbytes; i-- > 0;) {
            const cg_nv_check_bytes *x = &c->in->bytes[i];
            if (in_block(x, va + k, 1)) {
                b[k] = x->data[va + k - x->va];
                if (k == 0 && in_block(x, va, 4) && !overlapped_later(c, i)) {
                    c->last_block = i;
                    c->last_block_ok = true;
                }
                break;
            }
        }
    }
    bool any = false;
    for (size_t i = 0; i < c->in->nbytes && !any; i++)
        any = c->in->bytes[i].data && overlaps(va, 4, c->in->bytes[i].va, c->in->bytes[i].size);
    if (!any) { /* no block here: zeros up to the next block's start */
        uint64_t hi = UINT64_MAX;
        for (size_t i = 0; i < c->in->nbytes; i++)
            if (c->in->bytes[i].data && c->in->bytes[i].size && c->in->bytes[i].va > va &&
                c->in->bytes[i].va < hi)
                hi = c->in->bytes[i].va;
        c->zero_lo = va;
        c->zero_hi = hi;
    }
    return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

/* ---- surfaces ----------------------------------------------------------- */

/* Bytes per pixel of a colour format code: the sum of the component widths
 * in its name in FERMI_TWOD_A's table (SET_DST_FORMAT V: A8R8G8B8 = 32 bits,
 * RF32_GF32_BF32_AF32 = 128, R5G6B5 = 16). MAXWELL_B's SET_COLOR_TARGET_FORMAT
 * uses the same codes (cl902d.h and clb197.h share the colour format enum;
 * src/nv/gpu/threed.c NV3D_CT_FORMATS lists 0xCF, 0xD5, 0xE8, 0xF3 with the same
 * sizes). 0 if the table has no name for it. */
static unsigned format_bytes(uint32_t code)
{
    const char *n = cg_nv_enum_name(CG_NV_CLASS_TWOD, "SET_DST_FORMAT", "V", code);
    unsigned bits = 0;
    while (n && *n) {
        if (*n >= '0' && *n <= '9') {
            unsigned v = 0;
            while (*n >= '0' && *n <= '9')
                v = v * 10 + (unsigned)(*n++ - '0');
            bits += v;
        } else {
            n++;
        }
    }
    return bits / 8;
}

/* The bytes a rectangle [x0, x0 + w) x [y0, y0 + h) of layer z of a
 * block-linear surface touches lie between the offsets of its first and its
 * last byte: nv_bl_offset grows with the block index (linear in the block
 * column and row), then with the GOB and the byte inside the block, each
 * monotonic in x and y (src/nv/gpu/blocklinear.c). x in bytes. */
static void bl_range(const nv_bl *s, uint64_t x0, uint64_t w, uint64_t y0, uint64_t h, uint32_t z,
                     uint64_t *lo, uint64_t *len)
{
    uint64_t x1 = x0 + w - 1, y1 = y0 + h - 1;
    if (x1 > 0xFFFFFFFFu)
        x1 = 0xFFFFFFFFu;
    if (y1 > 0xFFFFFFFFu)
        y1 = 0xFFFFFFFFu;
    *lo = nv_bl_offset(s, (uint32_t)x0, (uint32_t)y0, z);
    *len = nv_bl_offset(s, (uint32_t)x1, (uint32_t)y1, z) + 1 - *lo;
}

/* ---- engines ------------------------------------------------------------ */

static void i2m_complete(chk *c, const uint32_t *r, chk_i2m *t)
{
    t->active = false;
    if (NV_VAL(NVA140, LAUNCH_DMA, COMPLETION_TYPE, t->launch) !=
        NVA140_LAUNCH_DMA_COMPLETION_TYPE_RELEASE_SEMAPHORE)
        return;
    /* cla140.h's 25-bit upper address, as src/nv/gpu/i2m.c reads it */
    uint64_t va = (uint64_t)NV_VAL(NVA140, SET_I2M_SEMAPHORE_A, OFFSET_UPPER,
                                   r[NVA140_SET_I2M_SEMAPHORE_A >> 2]) << 32 |
                  r[NVA140_SET_I2M_SEMAPHORE_B >> 2];
    /* SEMAPHORE_STRUCT_SIZE: one word, else four (src/nv/gpu/i2m.c) */
    bool one = NV_VAL(NVA140, LAUNCH_DMA, SEMAPHORE_STRUCT_SIZE, t->launch) ==
               NVA140_LAUNCH_DMA_SEMAPHORE_STRUCT_SIZE_ONE_WORD;
    access(c, "I2M semaphore release", va, one ? 4 : 16, true);
}

/* I2M LAUNCH_DMA (A140, and the same methods of B197/B1C0): the destination
 * range as src/nv/gpu/i2m.c writes it (cla140.h fields). */
static void i2m_launch(chk *c, const uint32_t *r, chk_i2m *t, uint32_t v)
{
    if (t->active)
        viol(c, "i2m-sequence", c->at_addr, c->at_word,
             "I2M LAUNCH_DMA while the previous transfer still waits for %llu of %llu bytes",
             (unsigned long long)(t->total - t->pos), (unsigned long long)t->total);
    uint32_t len = r[NVA140_LINE_LENGTH_IN >> 2], count = r[NVA140_LINE_COUNT >> 2];
    uint32_t pitch = r[NVA140_PITCH_OUT >> 2];
    uint64_t dst = (uint64_t)NV_VAL(NVA140, OFFSET_OUT_UPPER, VALUE,
                                    r[NVA140_OFFSET_OUT_UPPER >> 2]) << 32 |
                   r[NVA140_OFFSET_OUT >> 2];
    t->active = true;
    t->launch = v;
    t->total = (uint64_t)len * count;
    t->pos = 0;
    if (t->total) {
        if (NV_VAL(NVA140, LAUNCH_DMA, DST_MEMORY_LAYOUT, v) ==
            NVA140_LAUNCH_DMA_DST_MEMORY_LAYOUT_PITCH) { /* line y at dst + y * PITCH_OUT */
            access(c, "I2M destination (pitch)", dst, (uint64_t)(count - 1) * pitch + len, true);
        } else {
            uint32_t bs = r[NVA140_SET_DST_BLOCK_SIZE >> 2];
            /* block widths other than one GOB and heights/depths over 5 fault
             * in the executor before anything is written */
            uint32_t bh = NV_VAL(NVA140, SET_DST_BLOCK_SIZE, HEIGHT, bs);
            uint32_t bd = NV_VAL(NVA140, SET_DST_BLOCK_SIZE, DEPTH, bs);
            if (NV_VAL(NVA140, SET_DST_BLOCK_SIZE, WIDTH, bs) ==
                    NVA140_SET_DST_BLOCK_SIZE_WIDTH_ONE_GOB &&
                bh <= 5 && bd <= 5) {
                nv_bl s = {r[NVA140_SET_DST_WIDTH >> 2], r[NVA140_SET_DST_HEIGHT >> 2],
                           r[NVA140_SET_DST_DEPTH >> 2], bh, bd};
                uint64_t lo, n;
                bl_range(&s,
                         NV_VAL(NVA140, SET_DST_ORIGIN_BYTES_X, V,
                                r[NVA140_SET_DST_ORIGIN_BYTES_X >> 2]),
                         len,
                         NV_VAL(NVA140, SET_DST_ORIGIN_SAMPLES_Y, V,
                                r[NVA140_SET_DST_ORIGIN_SAMPLES_Y >> 2]),
                         count, r[NVA140_SET_DST_LAYER >> 2], &lo, &n);
                access(c, "I2M destination (block linear)", dst + lo, n, true);
            }
        }
    }
    if (t->total == 0)
        i2m_complete(c, r, t);
}

static void i2m_data(chk *c, const uint32_t *r, chk_i2m *t)
{
    if (!t->active) {
        viol(c, "i2m-sequence", c->at_addr, c->at_word,
             "LOAD_INLINE_DATA without a LAUNCH_DMA waiting for data");
        return;
    }
    t->pos += 4;
    if (t->pos >= t->total)
        i2m_complete(c, r, t);
}

/* One side of a B0B5 copy: the range src/nv/gpu/copy.c side_io touches for
 * `count` lines of `bytes` bytes. false if the executor rejects the layout
 * before moving anything (then there is no range to check). */
static bool copy_side(const uint32_t *r, bool src, bool pitch, uint32_t bpp, uint64_t bytes,
                      uint32_t count, uint64_t *va, uint64_t *len)
{
    uint64_t base = nv_addr40(r[(src ? NVB0B5_OFFSET_IN_UPPER : NVB0B5_OFFSET_OUT_UPPER) >> 2],
                              r[(src ? NVB0B5_OFFSET_IN_LOWER : NVB0B5_OFFSET_OUT_LOWER) >> 2]);
    if (pitch) {
        uint32_t p = r[(src ? NVB0B5_PITCH_IN : NVB0B5_PITCH_OUT) >> 2];
        *va = base;
        *len = (uint64_t)(count - 1) * p + bytes;
        return true;
    }
    uint32_t bs = r[(src ? NVB0B5_SET_SRC_BLOCK_SIZE : NVB0B5_SET_DST_BLOCK_SIZE) >> 2];
    /* SET_DST_BLOCK_SIZE and SET_DST_ORIGIN have the SRC layouts (src/nv/gpu/copy.c) */
    uint32_t bh = NV_VAL(NVB0B5, SET_SRC_BLOCK_SIZE, HEIGHT, bs);
    uint32_t bd = NV_VAL(NVB0B5, SET_SRC_BLOCK_SIZE, DEPTH, bs);
    if (NV_VAL(NVB0B5, SET_SRC_BLOCK_SIZE, WIDTH, bs) != NVB0B5_SET_SRC_BLOCK_SIZE_WIDTH_ONE_GOB ||
        NV_VAL(NVB0B5, SET_SRC_BLOCK_SIZE, GOB_HEIGHT, bs) !=
            NVB0B5_SET_SRC_BLOCK_SIZE_GOB_HEIGHT_GOB_HEIGHT_FERMI_8 ||
        bh > 5 || bd > 5)
        return false;
    uint32_t b = src ? NVB0B5_SET_SRC_WIDTH : NVB0B5_SET_DST_WIDTH;
    uint64_t width = (uint64_t)r[b >> 2] * bpp;
    nv_bl s = {width > 0xFFFFFFFFu ? 0xFFFFFFFFu : (uint32_t)width, r[(b + 4) >> 2],
               r[(b + 8) >> 2], bh, bd};
    uint32_t org = r[(src ? NVB0B5_SET_SRC_ORIGIN : NVB0B5_SET_DST_ORIGIN) >> 2];
    uint64_t lo;
    bl_range(&s, (uint64_t)NV_VAL(NVB0B5, SET_SRC_ORIGIN, X, org) * bpp, bytes,
             NV_VAL(NVB0B5, SET_SRC_ORIGIN, Y, org), count, r[(b + 12) >> 2], &lo, len);
    *va = base + lo;
    return true;
}

/* B0B5 LAUNCH_DMA (clb0b5.h; src/nv/gpu/copy.c). */
static void copy_launch(chk *c, const uint32_t *r, uint32_t l)
{
    unsigned xfer = NV_VAL(NVB0B5, LAUNCH_DMA, DATA_TRANSFER_TYPE, l);
    unsigned semt = NV_VAL(NVB0B5, LAUNCH_DMA, SEMAPHORE_TYPE, l);
    if (xfer != NVB0B5_LAUNCH_DMA_DATA_TRANSFER_TYPE_NONE &&
        xfer <= NVB0B5_LAUNCH_DMA_DATA_TRANSFER_TYPE_NON_PIPELINED &&
        !NV_VAL(NVB0B5, LAUNCH_DMA, SRC_TYPE, l) && !NV_VAL(NVB0B5, LAUNCH_DMA, DST_TYPE, l)) {
        bool multi = NV_VAL(NVB0B5, LAUNCH_DMA, MULTI_LINE_ENABLE, l);
        uint32_t sbpp, dbpp;
        nv_copy_elem_bytes(r, l, &sbpp, &dbpp);
        uint32_t len = r[NVB0B5_LINE_LENGTH_IN >> 2];
        uint32_t count = multi ? r[NVB0B5_LINE_COUNT >> 2] : 1;
        bool spitch = !multi || NV_VAL(NVB0B5, LAUNCH_DMA, SRC_MEMORY_LAYOUT, l);
        bool dpitch = !multi || NV_VAL(NVB0B5, LAUNCH_DMA, DST_MEMORY_LAYOUT, l);
        uint64_t va, n;
        if (len && count) {
            if (copy_side(r, true, spitch, sbpp, (uint64_t)len * sbpp, count, &va, &n))
                access(c, "copy source", va, n, false);
            if (copy_side(r, false, dpitch, dbpp, (uint64_t)len * dbpp, count, &va, &n))
                access(c, "copy destination", va, n, true);
        }
    }
    if (semt == NVB0B5_LAUNCH_DMA_SEMAPHORE_TYPE_RELEASE_ONE_WORD_SEMAPHORE ||
        semt == NVB0B5_LAUNCH_DMA_SEMAPHORE_TYPE_RELEASE_FOUR_WORD_SEMAPHORE) {
        uint64_t va = nv_addr40(r[NVB0B5_SET_SEMAPHORE_A >> 2], r[NVB0B5_SET_SEMAPHORE_B >> 2]);
        access(c, "copy semaphore release", va,
               semt == NVB0B5_LAUNCH_DMA_SEMAPHORE_TYPE_RELEASE_ONE_WORD_SEMAPHORE ? 4 : 16, true);
    }
}

/* A 902D surface as src/nv/gpu/twod.c surf_get reads it: the whole surface
 * (every layer of a block-linear one), as r600_cs checks whole surfaces. */
/* The SRC and DST surface methods have one layout: a surface's method is read
 * as the SRC one at the surface's offset from SET_SRC_FORMAT, with the SRC
 * fields. */
#define TWOD_SAME(m, f)                                                         \
    _Static_assert(NV902D_SET_SRC_##m - NV902D_SET_SRC_FORMAT ==                \
                       NV902D_SET_DST_##m - NV902D_SET_DST_FORMAT &&            \
                   NV_MASK(NV902D, SET_SRC_##m, f) == NV_MASK(NV902D, SET_DST_##m, f), \
                   "902D SET_SRC_" #m " and SET_DST_" #m " share their layout")
TWOD_SAME(FORMAT, V);
TWOD_SAME(MEMORY_LAYOUT, V);
TWOD_SAME(BLOCK_SIZE, HEIGHT);
TWOD_SAME(BLOCK_SIZE, DEPTH);
TWOD_SAME(DEPTH, V);
TWOD_SAME(PITCH, V);
TWOD_SAME(WIDTH, V);
TWOD_SAME(HEIGHT, V);
TWOD_SAME(OFFSET_UPPER, V);
TWOD_SAME(OFFSET_LOWER, V);
#undef TWOD_SAME
#define SURF(m) r[(b + (NV902D_SET_SRC_##m - NV902D_SET_SRC_FORMAT)) >> 2]

static void twod_surface(chk *c, const uint32_t *r, bool src, bool write)
{
    uint32_t b = src ? NV902D_SET_SRC_FORMAT : NV902D_SET_DST_FORMAT;
    unsigned bpp = format_bytes(NV_VAL(NV902D, SET_SRC_FORMAT, V, SURF(FORMAT)));
    if (!bpp)
        return; /* the executor rejects the format before touching memory */
    bool pitch = NV_VAL(NV902D, SET_SRC_MEMORY_LAYOUT, V, SURF(MEMORY_LAYOUT)) ==
                 NV902D_SET_SRC_MEMORY_LAYOUT_V_PITCH;
    uint32_t bs = SURF(BLOCK_SIZE);
    uint32_t w = SURF(WIDTH), h = SURF(HEIGHT);
    uint64_t base = nv_addr40(SURF(OFFSET_UPPER), SURF(OFFSET_LOWER));
    const char *what = src ? "2D source surface" : "2D destination surface";
    if (pitch) {
        access(c, what, base, (uint64_t)SURF(PITCH) * h, write);
        return;
    }
    uint32_t bh = NV_VAL(NV902D, SET_SRC_BLOCK_SIZE, HEIGHT, bs);
    uint32_t bd = NV_VAL(NV902D, SET_SRC_BLOCK_SIZE, DEPTH, bs);
    if (bh > 5 || bd > 5)
        return;
    uint64_t width = (uint64_t)w * bpp;
    nv_bl s = {width > 0xFFFFFFFFu ? 0xFFFFFFFFu : (uint32_t)width, h, SURF(DEPTH), bh, bd};
    access(c, what, base, nv_bl_size(&s), write);
}

/* Every 902D method, `act` its action (twod_902d.def ACTION column). */
static void twod_method(chk *c, chk_ch *ch, const uint32_t *r, nv_mact act)
{
    bool point = act == NV_ACT_TWOD_POINT || act == NV_ACT_TWOD_POINT_SET;
    if (act == NV_ACT_TWOD_BLIT) { /* the blit's trigger */
        twod_surface(c, r, true, false);
        twod_surface(c, r, false, true);
    } else if (point) {
        /* every vertex may complete a primitive; one check per surface state */
        if (!ch->twod_checked)
            twod_surface(c, r, false, true);
        ch->twod_checked = true;
        return;
    }
    ch->twod_checked = false;
}

/* SET_REPORT_SEMAPHORE_D of B197/B1C0 (src/nv/gpu/threed.c nv3d_report_semaphore:
 * OPERATION 1:0 RELEASE 0, ACQUIRE 1, REPORT_ONLY 2, TRAP 3; STRUCTURE_SIZE
 * 28 one word). */
static void report_semaphore(chk *c, const uint32_t *r, uint32_t v)
{
    uint64_t va = nv_addr40(r[NVB197_SET_REPORT_SEMAPHORE_A >> 2],
                            r[NVB197_SET_REPORT_SEMAPHORE_B >> 2]);
    unsigned op = NV_VAL(NVB197, SET_REPORT_SEMAPHORE_D, OPERATION, v);
    bool one = NV_VAL(NVB197, SET_REPORT_SEMAPHORE_D, STRUCTURE_SIZE, v);
    if (op == NVB197_SET_REPORT_SEMAPHORE_D_OPERATION_ACQUIRE)
        access(c, "report semaphore acquire", va, 4, false);
    else if (op != NVB197_SET_REPORT_SEMAPHORE_D_OPERATION_TRAP)
        access(c, "report semaphore", va, one ? 4 : 16, true);
}

/* CLEAR_SURFACE of a colour target: the target's whole layer (a 3-D target:
 * the whole volume), as src/nv/gpu/threed.c clear_color lays it out. Zeta
 * clears are not checked yet (docs/nv-check.md). */
static void clear_color(chk *c, const uint32_t *r, uint32_t v)
{
    unsigned i = NV_VAL(NVB197, CLEAR_SURFACE, MRT_SELECT, v);
    uint32_t rgba = NV_MASK(NVB197, CLEAR_SURFACE, R_ENABLE) |
                    NV_MASK(NVB197, CLEAR_SURFACE, G_ENABLE) |
                    NV_MASK(NVB197, CLEAR_SURFACE, B_ENABLE) |
                    NV_MASK(NVB197, CLEAR_SURFACE, A_ENABLE);
    if (!(v & rgba) || i >= 8)
        return;
    uint32_t b = 64 * i;
    uint32_t mem = r[(NVB197_SET_COLOR_TARGET_MEMORY + b) >> 2];
    uint64_t addr = nv_addr40(r[(NVB197_SET_COLOR_TARGET_A + b) >> 2],
                              r[(NVB197_SET_COLOR_TARGET_B + b) >> 2]);
    uint32_t width = NV_VAL(NVB197, SET_COLOR_TARGET_WIDTH, V,
                            r[(NVB197_SET_COLOR_TARGET_WIDTH + b) >> 2]);
    uint32_t height = NV_VAL(NVB197, SET_COLOR_TARGET_HEIGHT, V,
                             r[(NVB197_SET_COLOR_TARGET_HEIGHT + b) >> 2]);
    unsigned bpp = format_bytes(
        NV_VAL(NVB197, SET_COLOR_TARGET_FORMAT, V, r[(NVB197_SET_COLOR_TARGET_FORMAT + b) >> 2]));
    uint32_t third = NV_VAL(NVB197, SET_COLOR_TARGET_THIRD_DIMENSION, V,
                            r[(NVB197_SET_COLOR_TARGET_THIRD_DIMENSION + b) >> 2]);
    uint32_t layer = NV_VAL(NVB197, SET_COLOR_TARGET_LAYER, OFFSET,
                            r[(NVB197_SET_COLOR_TARGET_LAYER + b) >> 2]) +
                     NV_VAL(NVB197, CLEAR_SURFACE, RT_ARRAY_INDEX, v);
    uint64_t array_pitch = 4ull * r[(NVB197_SET_COLOR_TARGET_ARRAY_PITCH + b) >> 2];
    if (!bpp || !width || !height || layer >= (third ? third : 1))
        return; /* disabled, unsupported or empty: the executor writes nothing */
    char what[48];
    snprintf(what, sizeof(what), "clear of color target %u", i);
    bool depth3d = NV_VAL(NVB197, SET_COLOR_TARGET_MEMORY, THIRD_DIMENSION_CONTROL, mem);
    if (NV_VAL(NVB197, SET_COLOR_TARGET_MEMORY, LAYOUT, mem) ==
        NVB197_SET_COLOR_TARGET_MEMORY_LAYOUT_PITCH) { /* WIDTH is the pitch in bytes */
        if (depth3d)
            return;
        access(c, what, addr + layer * array_pitch, (uint64_t)width * height, true);
        return;
    }
    unsigned bw = NV_VAL(NVB197, SET_COLOR_TARGET_MEMORY, BLOCK_WIDTH, mem);
    unsigned bh = NV_VAL(NVB197, SET_COLOR_TARGET_MEMORY, BLOCK_HEIGHT, mem);
    unsigned bd = NV_VAL(NVB197, SET_COLOR_TARGET_MEMORY, BLOCK_DEPTH, mem);
    if (bw != NVB197_SET_COLOR_TARGET_MEMORY_BLOCK_WIDTH_ONE_GOB || bh > 5 || bd > 5)
        return;
    uint64_t row = (uint64_t)width * bpp; /* 28-bit WIDTH x 16 bytes may need bit 32 */
    nv_bl s = {row > 0xFFFFFFFFu ? 0xFFFFFFFFu : (uint32_t)row, height, depth3d ? third : 1, bh,
               depth3d ? bd : 0};
    access(c, what, depth3d ? addr : addr + layer * array_pitch, nv_bl_size(&s), true);
}

/* A draw reads: every enabled vertex stream an attribute names, from START
 * to LIMIT (the limits are bounds checks: Ryujinx PR #6272, src/nv/gpu/draw.c);
 * the indices it names, up to the index buffer's limit; the texture header
 * and sampler pools (when set) up to their MAXIMUM_INDEX; every bound
 * constant buffer. */
static void draw(chk *c, chk_ch *ch, const uint32_t *r, bool indexed, unsigned isize,
                 uint32_t first, uint32_t count)
{
    if (count == 0)
        return;
    bool used[16] = {false};
    for (unsigned a = 0; a < 32; a++) {
        uint32_t raw = r[(NVB197_SET_VERTEX_ATTRIBUTE_A >> 2) + a];
        unsigned stream = NV_VAL(NVB197, SET_VERTEX_ATTRIBUTE_A, STREAM, raw);
        if (NV_VAL(NVB197, SET_VERTEX_ATTRIBUTE_A, SOURCE, raw) ==
                NVB197_SET_VERTEX_ATTRIBUTE_A_SOURCE_ACTIVE &&
            NV_VAL(NVB197, SET_VERTEX_ATTRIBUTE_A, COMPONENT_BIT_WIDTHS, raw) && stream < 16)
            used[stream] = true;
    }
    char what[48];
    for (unsigned j = 0; j < 16; j++) {
        uint32_t fmt = r[(NVB197_SET_VERTEX_STREAM_A_FORMAT >> 2) + 4 * j];
        if (!used[j] || !NV_VAL(NVB197, SET_VERTEX_STREAM_A_FORMAT, ENABLE, fmt))
            continue;
        uint64_t start = nv_addr40(r[(NVB197_SET_VERTEX_STREAM_A_LOCATION_A >> 2) + 4 * j],
                                   r[(NVB197_SET_VERTEX_STREAM_A_LOCATION_B >> 2) + 4 * j]);
        uint64_t limit = nv_addr40(r[(NVB197_SET_VERTEX_STREAM_LIMIT_A_A >> 2) + 2 * j],
                                   r[(NVB197_SET_VERTEX_STREAM_LIMIT_A_B >> 2) + 2 * j]);
        snprintf(what, sizeof(what), "draw: vertex stream %u", j);
        if (limit >= start)
            access(c, what, start, limit - start + 1, false);
    }
    if (indexed) {
        uint64_t base = nv_addr40(r[NVB197_SET_INDEX_BUFFER_A >> 2], r[NVB197_SET_INDEX_BUFFER_B >> 2]);
        uint64_t limit = nv_addr40(r[NVB197_SET_INDEX_BUFFER_C >> 2], r[NVB197_SET_INDEX_BUFFER_D >> 2]);
        uint64_t lo = base + (uint64_t)first * isize, hi = lo + (uint64_t)count * isize;
        if (hi > limit + 1)
            hi = limit + 1; /* indices past the limit read 0 (src/nv/gpu/draw.c) */
        if (hi > lo)
            access(c, "draw: index buffer", lo, hi - lo, false);
    }
    uint64_t tic = nv_addr40(r[NVB197_SET_TEX_HEADER_POOL_A >> 2], r[NVB197_SET_TEX_HEADER_POOL_B >> 2]);
    uint64_t tsc = nv_addr40(r[NVB197_SET_TEX_SAMPLER_POOL_A >> 2], r[NVB197_SET_TEX_SAMPLER_POOL_B >> 2]);
    /* 32-byte entries 0..MAXIMUM_INDEX (src/nv/gpu/draw.c collect_textures) */
    if (tic)
        access(c, "draw: texture header pool", tic,
               32ull * (NV_VAL(NVB197, SET_TEX_HEADER_POOL_C, MAXIMUM_INDEX,
                               r[NVB197_SET_TEX_HEADER_POOL_C >> 2]) + 1), false);
    if (tsc)
        access(c, "draw: texture sampler pool", tsc,
               32ull * (NV_VAL(NVB197, SET_TEX_SAMPLER_POOL_C, MAXIMUM_INDEX,
                               r[NVB197_SET_TEX_SAMPLER_POOL_C >> 2]) + 1), false);
    for (unsigned st = 0; st < CB_STAGES; st++)
        for (unsigned k = 0; k < CB_SLOTS; k++)
            if (ch->cb[st][k].valid) {
                snprintf(what, sizeof(what), "draw: constant buffer %u of stage %u", k, st);
                access(c, what, ch->cb[st][k].addr, ch->cb[st][k].size, false);
            }
}

/* B197 methods with an effect on memory (after the register store). */
/* A B197 method of action `act` (the class table's ACTION column). */
static void threed_method(chk *c, chk_ch *ch, uint32_t *r, nv_mact act, uint32_t m, uint32_t v)
{
    if (act == NV_ACT_CB_LOAD) {
        /* CB_DATA: at the selected buffer + CB_POS, then CB_POS += 4 */
        uint32_t *pos = &r[NVB197_LOAD_CONSTANT_BUFFER_OFFSET >> 2];
        uint64_t cb = nv_addr40(r[NVB197_SET_CONSTANT_BUFFER_SELECTOR_B >> 2],
                                r[NVB197_SET_CONSTANT_BUFFER_SELECTOR_C >> 2]);
        uint32_t size = NV_VAL(NVB197, SET_CONSTANT_BUFFER_SELECTOR_A, SIZE,
                               r[NVB197_SET_CONSTANT_BUFFER_SELECTOR_A >> 2]);
        if ((uint64_t)*pos + 4 > size)
            viol(c, "cb-data-range", c->at_addr, c->at_word,
                 "LOAD_CONSTANT_BUFFER at offset 0x%x is past the buffer's size 0x%x", *pos, size);
        else
            access(c, "constant buffer upload", cb + *pos, 4, true);
        *pos += 4;
    } else if (act == NV_ACT_CB_BIND) {
        unsigned st = (m - NVB197_BIND_GROUP_CONSTANT_BUFFER) / 32;
        unsigned slot = NV_VAL(NVB197, BIND_GROUP_CONSTANT_BUFFER, SHADER_SLOT, v);
        uint32_t size = NV_VAL(NVB197, SET_CONSTANT_BUFFER_SELECTOR_A, SIZE,
                               r[NVB197_SET_CONSTANT_BUFFER_SELECTOR_A >> 2]);
        uint64_t addr = nv_addr40(r[NVB197_SET_CONSTANT_BUFFER_SELECTOR_B >> 2],
                                  r[NVB197_SET_CONSTANT_BUFFER_SELECTOR_C >> 2]);
        if (slot >= CB_SLOTS)
            return;
        /* sizes over 64 KiB and unaligned addresses fault in cb_bind */
        ch->cb[st][slot].valid = NV_VAL(NVB197, BIND_GROUP_CONSTANT_BUFFER, VALID, v) &&
                                 size <= 0x10000 && !(addr & 255);
        ch->cb[st][slot].addr = addr;
        ch->cb[st][slot].size = size;
    } else if (act == NV_ACT_REPORT) {
        report_semaphore(c, r, v);
    } else if (act == NV_ACT_CLEAR) {
        clear_color(c, r, v);
    } else if (act == NV_ACT_DRAW && m == NVB197_DRAW_VERTEX_ARRAY) {
        draw(c, ch, r, false, 0, r[NVB197_SET_VERTEX_ARRAY_START >> 2], v);
    } else if (act == NV_ACT_DRAW) { /* DRAW_INDEX_BUFFER */
        unsigned sz = NV_VAL(NVB197, SET_INDEX_BUFFER_E, INDEX_SIZE, r[NVB197_SET_INDEX_BUFFER_E >> 2]);
        if (sz <= NVB197_SET_INDEX_BUFFER_E_INDEX_SIZE_FOUR_BYTES)
            draw(c, ch, r, true, 1u << sz, r[NVB197_SET_INDEX_BUFFER_F >> 2], v);
    } else if (act == NV_ACT_DRAW_BEGIN_END) {
        /* the one-word draws: index size from the method (src/nv/gpu/draw.c) */
        unsigned isize;
        bool subsequent;
        nv3d_begin_end_kind(m, &isize, &subsequent);
        draw(c, ch, r, isize != 0, isize,
             NV_VAL(NVB197, DRAW_VERTEX_ARRAY_BEGIN_END_INSTANCE_FIRST, START_INDEX, v),
             NV_VAL(NVB197, DRAW_VERTEX_ARRAY_BEGIN_END_INSTANCE_FIRST, COUNT, v));
    }
}

/* ---- methods ------------------------------------------------------------ */

static void engine_method(chk *c, chk_ch *ch, unsigned subch, uint32_t m, uint32_t v);

typedef struct mme_ctx {
    chk *c;
    chk_ch *ch;
} mme_ctx;

static int mme_io_send(void *user, uint32_t method, uint32_t value)
{
    mme_ctx *x = user;
    uint32_t m = (method & 0xFFF) << 2;
    uint32_t v = nv_mme_shadow(x->ch->mme, method & 0xFFF, value);
    x->c->at_word = v;
    if (m >= NVB197_CALL_MME_MACRO) {
        viol(x->c, "macro-fault", x->c->at_addr, v,
             "macro %u sends method 0x%04x: a macro cannot call a macro", x->ch->call.macro, m);
        return CG_ERR_FAULT;
    }
    engine_method(x->c, x->ch, x->ch->call.subch, m, v);
    return 0;
}

static int mme_io_read(void *user, uint32_t method, uint32_t *value)
{
    mme_ctx *x = user;
    const uint32_t *r = x->ch->regs[NV_OBJ_3D];
    *value = r ? r[method & 0xFFF] : 0;
    return 0;
}

/* Expand the collected macro call (pfifo.c mme_flush): its sends are
 * checked as methods at the address of the CALL_MME_MACRO word. */
static void mme_flush(chk *c, chk_ch *ch)
{
    ch->call.pending = false;
    if (c->mme_left == 0) {
        if (!c->stopped)
            viol(c, "check-limit", ch->call.addr, 0,
                 "stopped after %llu macro instructions: the rest is not checked",
                 (unsigned long long)CHK_MME_TOTAL);
        c->stopped = true;
        return;
    }
    uint64_t at = c->at_addr;
    uint32_t word = c->at_word;
    c->at_addr = ch->call.addr;
    c->in_macro = true;
    mme_ctx x = {c, ch};
    nv_mme_io io = {&x, mme_io_send, mme_io_read};
    cg_agent ag = {CG_FAMILY_NV, "mme", (int32_t)(ch - c->ch), ch->call.addr,
                   {ch->call.params[0], 0, 0, 0}, 1};
    size_t before = cg_fault_count(c->dev);
    nv_mme_result res = {0};
    uint64_t budget = c->mme_left < CHK_MME_BUDGET ? c->mme_left : CHK_MME_BUDGET;
    int rc = nv_mme_call(ch->mme, ch->call.macro, ch->call.params, ch->call.n, &io,
                         budget, &ag, c->dev, &res);
    c->mme_left -= res.steps < c->mme_left ? res.steps : c->mme_left;
    if (rc != 0 && budget < CHK_MME_BUDGET && res.steps >= budget) {
        /* the validator's own total ran out, not the macro's budget */
        viol(c, "check-limit", ch->call.addr, 0,
             "stopped after %llu macro instructions: the rest is not checked",
             (unsigned long long)CHK_MME_TOTAL);
        c->stopped = true;
    } else if (rc != 0 && cg_fault_count(c->dev) > before) {
        const cg_fault *f = cg_fault_get(c->dev, cg_fault_count(c->dev) - 1);
        viol(c, "macro-fault", ch->call.addr, f->nwords ? f->words[0] : 0, "macro %u: %s: %s",
             ch->call.macro, cg_fault_kind_name(f->kind), f->message);
    }
    cg_fault_clear(c->dev);
    c->in_macro = false;
    c->at_addr = at;
    c->at_word = word;
}

static void mme_collect(chk *c, chk_ch *ch, unsigned subch, uint32_t m, uint32_t v)
{
    uint32_t j = (m - NVB197_CALL_MME_MACRO) >> 3;
    if (!(m & 4)) {
        ch->call.pending = true;
        ch->call.subch = (uint8_t)subch;
        ch->call.macro = j;
        ch->call.n = 0;
        ch->call.addr = c->at_addr;
    } else if (!ch->call.pending) {
        viol(c, "macro-fault", c->at_addr, v,
             "CALL_MME_DATA(%u) without a call of macro %u in progress", j, j);
        return;
    }
    if (ch->call.n == ch->call.cap) {
        uint32_t cap = ch->call.cap ? 2 * ch->call.cap : 64;
        uint32_t *p = cap <= CHK_MAX_PARAMS ? realloc(ch->call.params, 4 * (size_t)cap) : NULL;
        if (!p) {
            ch->call.pending = false;
            viol(c, "macro-fault", c->at_addr, v, "macro %u: more than %u parameters", j,
                 ch->call.cap);
            return;
        }
        ch->call.params = p;
        ch->call.cap = cap;
    }
    ch->call.params[ch->call.n++] = v;
}

static bool class_allowed(uint32_t cls)
{
    for (size_t i = 0; i < sizeof(allowed_classes) / sizeof(allowed_classes[0]); i++)
        if (allowed_classes[i] == cls)
            return true;
    return false;
}

/* The host methods the checker looks at, by method (src/nv/gpu/host.c keeps the
 * executor's table the same way). */
static void host_set_object(chk *c, chk_ch *ch, unsigned subch, uint32_t v)
{
    uint32_t cls = NV_VAL(NVB06F, SET_OBJECT, NVCLASS, v);
    int oi = nv_obj_index(cls);
    if (!class_allowed(cls) || oi < 0) {
        viol(c, "class-allowed", c->at_addr, v,
             "SET_OBJECT: class 0x%04x on subchannel %u is not one of B197, B1C0, A140, "
             "902D, B0B5", cls, subch);
        return;
    }
    if (!ch->regs[oi]) {
        ch->regs[oi] = calloc(NV_NREGS, 4);
        if (!ch->regs[oi]) {
            c->err = CG_ERR_NOMEM;
            return;
        }
    }
    ch->bound[subch] = cls;
}

static void host_illegal(chk *c, chk_ch *ch, unsigned subch, uint32_t v)
{
    (void)ch, (void)subch;
    viol(c, "method-unknown", c->at_addr, v,
         "ILLEGAL method: the channel stops with an illegal-method interrupt");
}

static void host_semaphorea(chk *c, chk_ch *ch, unsigned subch, uint32_t v)
{
    (void)c, (void)subch;
    ch->sem_hi = v;
}

static void host_semaphoreb(chk *c, chk_ch *ch, unsigned subch, uint32_t v)
{
    (void)c, (void)subch;
    ch->sem_lo = v;
}

static void host_semaphored(chk *c, chk_ch *ch, unsigned subch, uint32_t v)
{
    (void)subch;
    uint64_t va = nv_host_sem_addr(ch->sem_hi, ch->sem_lo);
    uint32_t op = NV_VAL(NVB06F, SEMAPHORED, OPERATION, v);
    switch (op) {
    case NVB06F_SEMAPHORED_OPERATION_ACQUIRE:
    case NVB06F_SEMAPHORED_OPERATION_ACQ_GEQ:
    case NVB06F_SEMAPHORED_OPERATION_ACQ_AND:
        access(c, "host semaphore acquire", va, 4, false);
        return;
    case NVB06F_SEMAPHORED_OPERATION_RELEASE: /* RELEASE_SIZE: 4 bytes, else 16 (clb06f.h) */
        access(c, "host semaphore release", va,
               NV_VAL(NVB06F, SEMAPHORED, RELEASE_SIZE, v) == NVB06F_SEMAPHORED_RELEASE_SIZE_4BYTE
                   ? 4
                   : 16,
               true);
        return;
    case NVB06F_SEMAPHORED_OPERATION_REDUCTION:
        access(c, "host semaphore reduction", va, 4, true);
        return;
    default:
        viol(c, "host-semaphore-op", c->at_addr, v,
             "SEMAPHORED: operation 0x%x is not one of ACQUIRE 1, RELEASE 2, ACQ_GEQ 4, "
             "ACQ_AND 8, REDUCTION 16", op);
        return;
    }
}

static void host_syncpointb(chk *c, chk_ch *ch, unsigned subch, uint32_t v)
{
    (void)ch, (void)subch;
    /* SYNCPT_INDEX names one of the host1x syncpoints (yuzu
     * host1x/syncpoint_manager.h: 192) */
    uint32_t id = NV_VAL(NVB06F, SYNCPOINTB, SYNCPT_INDEX, v);
    if (id >= CG_NV_NUM_SYNCPTS)
        viol(c, "host-syncpoint", c->at_addr, v,
             "SYNCPOINTB: syncpoint %u does not exist (there are %u)", id, CG_NV_NUM_SYNCPTS);
}

typedef void (*chk_host_fn)(chk *c, chk_ch *ch, unsigned subch, uint32_t v);
static const chk_host_fn host_methods[64] = {
    [NVB06F_SET_OBJECT >> 2] = host_set_object,
    [NVB06F_ILLEGAL >> 2] = host_illegal,
    [NVB06F_SEMAPHOREA >> 2] = host_semaphorea,
    [NVB06F_SEMAPHOREB >> 2] = host_semaphoreb,
    [NVB06F_SEMAPHORED >> 2] = host_semaphored,
    [NVB06F_SYNCPOINTB >> 2] = host_syncpointb,
};

static void host_method(chk *c, chk_ch *ch, unsigned subch, uint32_t m, uint32_t v)
{
    if (!cg_nv_method_at(cg_nv_class_find(CG_NV_CLASS_HOST), m, NULL)) {
        viol(c, "method-unknown", c->at_addr, v,
             "host method 0x%03x is not in MAXWELL_CHANNEL_GPFIFO_A/A26F", m);
        return;
    }
    if ((m >> 2) < sizeof(host_methods) / sizeof(host_methods[0]) && host_methods[m >> 2])
        host_methods[m >> 2](c, ch, subch, v);
}

static void engine_method(chk *c, chk_ch *ch, unsigned subch, uint32_t m, uint32_t v)
{
    uint32_t cls = ch->bound[subch];
    if (!cls) {
        viol(c, "subch-unbound", c->at_addr, v,
             "method 0x%04x on subchannel %u, which has no object bound", m, subch);
        return;
    }
    int oi = nv_obj_index(cls);
    uint32_t idx = m >> 2;
    const cg_nv_method *d = cg_nv_method_at(cg_nv_class_find(cls), m, NULL);
    bool known = d != NULL;
    /* pfifo.c engine_method: B197 and B1C0 keep every method of their range */
    bool stores_all = oi == NV_OBJ_3D || oi == NV_OBJ_COMPUTE;
    if (idx >= NV_NREGS || (!known && !stores_all)) {
        viol(c, "method-unknown", c->at_addr, v,
             "method 0x%04x is not in class %04X (ILLEGAL_MTHD), subchannel %u", m, cls, subch);
        return;
    }
    uint32_t *r = ch->regs[oi];
    r[idx] = v;
    /* the class table's ACTION column says what a write does (pfifo.c) */
    nv_mact act = d ? nv_method_act(d) : NV_ACT_NONE;
    if (act == NV_ACT_I2M_LAUNCH)
        i2m_launch(c, r, &ch->i2m[oi], v);
    else if (act == NV_ACT_I2M_DATA)
        i2m_data(c, r, &ch->i2m[oi]);
    switch (oi) {
    case NV_OBJ_3D:
        if (act == NV_ACT_MME_LOAD) {
            if (!ch->mme) {
                ch->mme = malloc(sizeof(*ch->mme));
                if (!ch->mme) {
                    c->err = CG_ERR_NOMEM;
                    return;
                }
                nv_mme_state_init(ch->mme);
            }
            nv_mme_method(ch->mme, m, v);
        } else if (act == NV_ACT_MME_CALL) {
            if (c->in_macro)
                return; /* mme_io_send reported it */
            if (!ch->mme) {
                ch->mme = malloc(sizeof(*ch->mme));
                if (!ch->mme) {
                    c->err = CG_ERR_NOMEM;
                    return;
                }
                nv_mme_state_init(ch->mme);
            }
            mme_collect(c, ch, subch, m, v);
        } else {
            threed_method(c, ch, r, act, m, v);
        }
        return;
    case NV_OBJ_COMPUTE:
        if (act == NV_ACT_REPORT)
            report_semaphore(c, r, v);
        return;
    case NV_OBJ_COPY:
        if (act == NV_ACT_COPY_LAUNCH)
            copy_launch(c, r, v);
        return;
    case NV_OBJ_TWOD:
        twod_method(c, ch, r, act);
        return;
    default:
        return;
    }
}

/* One method write from the stream (pfifo.c exec_method). */
static void method(chk *c, chk_ch *ch, unsigned subch, uint32_t m, uint32_t v, uint64_t addr)
{
    if (ch->call.pending && (m != NVB197_CALL_MME_DATA + 8 * ch->call.macro ||
                             subch != ch->call.subch))
        mme_flush(c, ch);
    c->at_addr = addr;
    c->at_word = v;
    if (m < 0x100)
        host_method(c, ch, subch, m, v);
    else
        engine_method(c, ch, subch, m, v);
}

/* ---- the walk ----------------------------------------------------------- */

static void walk_entry(chk *c, unsigned chn, size_t index, uint64_t e)
{
    chk_ch *ch = &c->ch[chn];
    uint32_t e0 = (uint32_t)e, e1 = (uint32_t)(e >> 32);
    cg_nv_gp_fields gp = cg_nv_gp_decode(e);
    uint64_t va = gp.va;
    uint32_t len = gp.nwords;
    if (len == 0) {
        /* control entries (clb06f.h NVB06F_GP_ENTRY1_OPCODE): only NOP runs */
        unsigned op = gp.opcode;
        if (op != CG_NV_GP_OP_NOP)
            viol(c, "gp-control", e0, e1, "entry %zu on channel %u: control opcode %u (%s)",
                 index, chn, op,
                 op == CG_NV_GP_OP_ILLEGAL ? "ILLEGAL: the channel faults"
                 : op == CG_NV_GP_OP_GP_CRC || op == CG_NV_GP_OP_PB_CRC
                     ? "a CRC check, not supported yet"
                     : "not an opcode of clb06f.h");
        return;
    }
    for (uint32_t i = 0; i < len && !c->err; i++) {
        uint64_t addr = va + 4ull * i;
        const cg_nv_check_map *m = find_map(c, addr);
        if (!m || m->size - (addr - m->va) < 4) {
            viol(c, "gp-fetch", addr, e1,
                 "entry %zu on channel %u: [0x%010llx, +0x%x) fetches unmapped word 0x%010llx",
                 index, chn, (unsigned long long)va, 4 * len, (unsigned long long)addr);
            return;
        }
        if (c->words++ == c->max_words) {
            viol(c, "check-limit", addr, 0,
                 "stopped after %llu pushbuffer words: the rest is not checked",
                 (unsigned long long)c->max_words);
            c->stopped = true;
            return;
        }
        uint32_t w = fetch_word(c, addr);
        c->r->checked++;
        if (ch->remaining) {
            if (ch->mask & 1)
                method(c, ch, ch->subch, ch->method, w, addr);
            ch->remaining--;
            if (ch->mode == NV_MODE_INC)
                ch->method += 4;
            else if (ch->mode == NV_MODE_ONE_INC) {
                ch->method += 4;
                ch->mode = NV_MODE_NONINC;
            }
            continue;
        }
        cg_nv_header h;
        cg_nv_header_decode(w, &h);
        ch->hdr_addr = addr;
        ch->hdr_word = w;
        switch (h.kind) {
        case CG_NV_H_INC:
        case CG_NV_H_NONINC:
        case CG_NV_H_ONE_INC:
            ch->method = h.method;
            ch->remaining = h.count;
            ch->subch = h.subch;
            ch->mode = h.kind == CG_NV_H_INC      ? NV_MODE_INC
                       : h.kind == CG_NV_H_NONINC ? NV_MODE_NONINC
                                                  : NV_MODE_ONE_INC;
            break;
        case CG_NV_H_IMMD:
            if (ch->mask & 1)
                method(c, ch, h.subch, h.method, h.immd, addr);
            break;
        case CG_NV_H_SET_SUBDEV_MASK: ch->mask = h.immd; break;
        case CG_NV_H_STORE_SUBDEV_MASK: ch->stored_mask = h.immd; break;
        case CG_NV_H_USE_SUBDEV_MASK: ch->mask = ch->stored_mask; break;
        case CG_NV_H_END_SEGMENT: return;
        case CG_NV_H_RESERVED:
            viol(c, "pb-opcode", addr, w,
                 "secondary opcode 6 is reserved (clb06f.h): the channel faults");
            break;
        }
    }
}

static void chk_free(chk *c)
{
    for (unsigned i = 0; i < 8; i++) {
        for (unsigned k = 0; k < NV_NOBJ; k++)
            free(c->ch[i].regs[k]);
        free(c->ch[i].mme);
        free(c->ch[i].call.params);
    }
    cg_device_destroy(c->dev);
}

int cg_nv_check(const cg_nv_check_input *in, cg_check_report *r)
{
    if (!in || !r || (in->nmaps && !in->maps) || (in->nbytes && !in->bytes) ||
        (in->nentries && !in->entries))
        return CG_ERR_INVAL;
    for (size_t i = 0; i < in->nentries; i++)
        if (in->entries[i].channel > 7)
            return CG_ERR_INVAL;
    chk *c = calloc(1, sizeof(*c));
    if (!c)
        return CG_ERR_NOMEM;
    c->in = in;
    c->r = r;
    c->max_words = in->max_words ? in->max_words : CHK_MAX_WORDS;
    c->mme_left = CHK_MME_TOTAL;
    int rc = cg_device_create(&c->dev);
    for (unsigned i = 0; i < 8; i++)
        c->ch[i].mask = c->ch[i].stored_mask = 0xFFF; /* pfifo.c channel open */
    for (size_t i = 0; !rc && i < in->nentries && !c->err && !c->stopped; i++)
        walk_entry(c, in->entries[i].channel, i, in->entries[i].entry);
    for (unsigned i = 0; !rc && i < 8 && !c->err; i++) {
        chk_ch *ch = &c->ch[i];
        /* the channel goes idle: a collected macro call runs (pfifo.c) */
        if (ch->call.pending && !c->stopped)
            mme_flush(c, ch);
        if (ch->remaining && !c->stopped)
            viol(c, "pb-truncated", ch->hdr_addr, ch->hdr_word,
                 "channel %u: the method run of this header still waits for %u data word(s) "
                 "after the last entry", i, ch->remaining);
    }
    if (!rc)
        rc = c->err;
    chk_free(c);
    free(c);
    return rc;
}

/* ---- scenes ------------------------------------------------------------- */

int cg_nv_check_scene(const char *path, const char *text, size_t len, cg_check_report *r,
                      FILE *log)
{
    if (!r || (!text && !path))
        return CG_ERR_INVAL;
    cg_scene *sc = NULL;
    cg_nv_check_map *maps = NULL;
    cg_nv_check_bytes *bytes = NULL;
    cg_nv_check_entry *entries = NULL;
    int rc = cg_scene_assemble(&cg_nv_family, NULL, path, text, len, &sc);
    if (rc == CG_ERR_SYNTAX && log)
        fputs(cg_scene_errors(sc), log);
    const cg_asm *as = rc ? NULL : cg_scene_sections(sc);
    size_t nsec = rc ? 0 : cg_asm_section_count(as);
    size_t nacts = rc ? 0 : cg_scene_action_count(sc);
    if (!rc) {
        maps = calloc(nacts + 1, sizeof(*maps));
        bytes = calloc(nsec + 1, sizeof(*bytes));
        entries = calloc(nacts + 1, sizeof(*entries));
        if (!maps || !bytes || !entries)
            rc = CG_ERR_NOMEM;
    }
    cg_nv_check_input in = {maps, 0, bytes, 0, entries, 0, 0};
    unsigned chn = 0;
    for (size_t i = 0; !rc && i < nacts; i++) {
        const cg_scene_action *x = cg_scene_action_at(sc, i);
        uint64_t a = (uint64_t)x->a, b = (uint64_t)x->b;
        if (x->kind == NV_SA_BUFFER) {
            /* the scene's .buffer: page-aligned VA, size rounded up to pages
             * (src/nv/scene.c nv_map), read-write */
            if (b == 0 || b > 0xFFFFF000u || (a & 0xFFF)) {
                rc = cg_check_add(r, "scene-buffer", a, 0,
                                  ".buffer %s: size 0 or >= 4 GiB, or VA not page aligned: not "
                                  "mapped", x->str1);
                continue;
            }
            maps[in.nmaps++] = (cg_nv_check_map){a, (b + 0xFFF) & ~0xFFFull, false, x->str1};
        } else if (x->kind == NV_SA_CHANNEL) {
            chn = (unsigned)a;
        } else if (x->kind == NV_SA_SUBMIT) {
            uint64_t n = (b - a) / 4;
            if (n >= (1u << 21)) {
                rc = cg_check_add(r, "gp-length", a, 0,
                                  ".submit of %llu words: a GPFIFO entry holds at most 2^21-1",
                                  (unsigned long long)n);
                continue;
            }
            entries[in.nentries++] = (cg_nv_check_entry){chn, cg_nv_gp_entry(a, (uint32_t)n, 0)};
        }
    }
    for (size_t i = 0; !rc && i < nsec; i++) {
        const char *name;
        cg_asm_section(as, i, &name, &bytes[in.nbytes].va, &bytes[in.nbytes].data,
                       &bytes[in.nbytes].size);
        if (bytes[in.nbytes].size)
            in.nbytes++;
    }
    if (!rc)
        rc = cg_nv_check(&in, r);
    free(maps);
    free(bytes);
    free(entries);
    cg_scene_destroy(sc);
    return rc;
}
