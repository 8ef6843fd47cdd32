/* Differential fuzzer for address spaces and the CPU-cache model.
 *
 * The input is a sequence of operations (create object, map, unmap, reserve,
 * unreserve, GPU reads/writes/fills/copies, CPU reads/writes/flushes/
 * invalidates through mappings and objects, direct object writes, lookups,
 * checks, coherency-policy switches) run both on the library and on a
 * trivially correct reference model of a small (24-bit) address space:
 * objects are byte arrays (memory, the CPU's cached copy, a dirty and a stale
 * flag per byte, a held flag per 64-byte line), the VA is a per-page table of
 * (mapping, reservation) indices, and every access goes byte by byte. Every
 * return code, placed address, fault (kind, address, warning flag), byte read,
 * line count and sparse-write trace total must agree, else abort().
 *
 * The first input byte picks the big page size, the placement window and the
 * starting coherency policy (OFF unless bits 6-7 are set). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmdgpu/cmdgpu.h"

#define VA_BITS 24
#define LIMIT (1ull << VA_BITS)
#define NPAGES (LIMIT >> 12)
#define LINE 64
#define MAX_OBJS 16
#define MAX_MAPS 64
#define MAX_RESVS 32
#define MAX_IO 0x5000

/* ---- input stream ------------------------------------------------------ */

typedef struct stream {
    const uint8_t *p;
    size_t n;
} stream;

static uint8_t u8(stream *s)
{
    if (!s->n)
        return 0;
    s->n--;
    return *s->p++;
}

/* Little-endian; one call per statement so the byte order is defined. */
static uint16_t u16(stream *s)
{
    uint16_t lo = u8(s);
    return (uint16_t)(lo | (uint16_t)u8(s) << 8);
}

static uint32_t u32(stream *s)
{
    uint32_t lo = u16(s);
    return lo | (uint32_t)u16(s) << 16;
}

/* ---- reference model --------------------------------------------------- */

typedef struct ref_obj {
    cg_mem *mem; /* NULL once the harness dropped its reference */
    uint64_t size;
    bool used, cached;
    uint8_t *data;   /* memory */
    uint8_t *cpu;    /* the CPU's copy, meaningful where its line is held */
    uint8_t *dirty;  /* per byte: CPU-written, not in memory yet */
    uint8_t *stale;  /* per byte: GPU-written since the CPU took its copy */
    uint8_t *held;   /* per line: the CPU holds it */
    uint64_t *gpu_va; /* per line: the GPU write that made it stale */
    uint32_t *gen;   /* per line: which mapping segment last set gpu_va */
} ref_obj;

typedef struct ref_map {
    uint64_t va, size, offset;
    int obj;
    uint32_t flags, page_size;
    bool live;
} ref_map;

typedef struct ref_resv {
    uint64_t va, size;
    bool sparse, live;
} ref_resv;

typedef struct harness {
    cg_device *dev;
    cg_vas *vas;
    uint32_t big;
    uint64_t va_start, va_end;
    cg_coherency policy;
    uint32_t gen;
    ref_obj objs[MAX_OBJS];
    ref_map maps[MAX_MAPS];
    ref_resv resvs[MAX_RESVS];
    int16_t page_map[NPAGES];  /* index into maps, -1 */
    int16_t page_resv[NPAGES]; /* index into resvs, -1 */
    /* sparse-write trace totals: library (sink) and model */
    uint64_t trace_events, trace_bytes, ref_events, ref_bytes;
} harness;

/* What the model expects of one operation: a return code and the faults it
 * logs, in order (at most two: a copy may warn for its source and its
 * destination). */
typedef struct expect {
    int rc;
    int nf;
    struct {
        cg_fault_kind kind;
        uint64_t addr;
        bool warning;
    } f[2];
} expect;

static void fail(const char *what, long long a, long long b)
{
    fprintf(stderr, "fuzz_vas mismatch: %s (library %lld, model %lld)\n", what, a, b);
    abort();
}

#define EXPECT_EQ(what, lib, ref)                                              \
    do {                                                                       \
        long long lib_ = (long long)(lib), ref_ = (long long)(ref);           \
        if (lib_ != ref_)                                                      \
            fail(what, lib_, ref_);                                            \
    } while (0)

static void sink(void *user, const cg_trace_event *ev)
{
    harness *h = user;
    if (ev->kind == CG_TRACE_SPARSE_WRITE) {
        h->trace_events++;
        h->trace_bytes += ev->size;
    }
}

static bool is_pow2(uint64_t v) { return v && !(v & (v - 1)); }
static bool coherent(const harness *h) { return h->policy != CG_COHERENCY_OFF; }

/* Record an expected fault; under the FAULT policy a coherency fault (and
 * always an access fault) fails the operation. */
static void add_fault(expect *e, cg_fault_kind kind, uint64_t addr, bool warning)
{
    e->f[e->nf].kind = kind;
    e->f[e->nf].addr = addr;
    e->f[e->nf].warning = warning;
    e->nf++;
    if (!warning)
        e->rc = CG_ERR_FAULT;
}

static void add_stale(const harness *h, expect *e, cg_fault_kind kind, uint64_t addr)
{
    add_fault(e, kind, addr, h->policy == CG_COHERENCY_WARN);
}

static bool page_ok(const harness *h, uint32_t ps)
{
    return ps == 4096 || (h->big && ps == h->big);
}

/* Are pages of [va, va+size) free of mappings (and of reservations)? */
static bool range_free(const harness *h, uint64_t va, uint64_t size, bool resv_too)
{
    for (uint64_t p = va >> 12; p < (va + size) >> 12; p++)
        if (h->page_map[p] >= 0 || (resv_too && h->page_resv[p] >= 0))
            return false;
    return true;
}

static bool range_touches_resv(const harness *h, uint64_t va, uint64_t size)
{
    for (uint64_t p = va >> 12; p < (va + size) >> 12; p++)
        if (h->page_resv[p] >= 0)
            return true;
    return false;
}

/* First fit by brute force: every aligned candidate from va_start. */
static bool ref_place(const harness *h, uint64_t size, uint64_t align, uint64_t *out)
{
    uint64_t c = (h->va_start + align - 1) & ~(align - 1);
    if (c < h->va_start)
        return false;
    for (; c < h->va_end && size <= h->va_end - c; c += align) {
        if (range_free(h, c, size, true)) {
            *out = c;
            return true;
        }
        if (c + align < c)
            break;
    }
    return false;
}

static int ref_reserve(harness *h, uint64_t *va, uint64_t size, uint64_t align, uint32_t ps,
                       uint32_t flags)
{
    if (flags & ~(uint32_t)(CG_RESV_FIXED | CG_RESV_SPARSE))
        return CG_ERR_INVAL;
    if (!page_ok(h, ps) || size == 0)
        return CG_ERR_INVAL;
    if (size % ps)
        return CG_ERR_ALIGN;
    if (align && !is_pow2(align))
        return CG_ERR_INVAL;
    if (align < ps)
        align = ps;
    uint64_t at;
    if (flags & CG_RESV_FIXED) {
        at = *va;
        if (at % ps)
            return CG_ERR_ALIGN;
        if (at >= LIMIT || size > LIMIT - at)
            return CG_ERR_RANGE;
        if (!range_free(h, at, size, true))
            return CG_ERR_OVERLAP;
    } else if (!ref_place(h, size, align, &at)) {
        return CG_ERR_NOSPACE;
    }
    int slot = -1;
    for (int i = 0; i < MAX_RESVS && slot < 0; i++)
        if (!h->resvs[i].live)
            slot = i;
    if (slot < 0)
        abort(); /* the caller checks for room first */
    h->resvs[slot] = (ref_resv){at, size, (flags & CG_RESV_SPARSE) != 0, true};
    for (uint64_t p = at >> 12; p < (at + size) >> 12; p++)
        h->page_resv[p] = (int16_t)slot;
    *va = at;
    return 0;
}

static void ref_drop_map(harness *h, int i)
{
    ref_map *m = &h->maps[i];
    for (uint64_t p = m->va >> 12; p < (m->va + m->size) >> 12; p++)
        h->page_map[p] = -1;
    m->live = false;
}

static int ref_unreserve(harness *h, uint64_t va)
{
    for (int r = 0; r < MAX_RESVS; r++) {
        ref_resv *rv = &h->resvs[r];
        if (!rv->live || rv->va != va)
            continue;
        for (uint64_t p = va >> 12; p < (va + rv->size) >> 12; p++) {
            if (h->page_map[p] >= 0)
                ref_drop_map(h, h->page_map[p]);
            h->page_resv[p] = -1;
        }
        rv->live = false;
        return 0;
    }
    return CG_ERR_NOENT;
}

static int ref_map_obj(harness *h, int obj, uint64_t offset, uint64_t size, uint64_t va,
                       uint64_t align, uint32_t ps, uint32_t flags, cg_layout layout,
                       uint64_t *out)
{
    const uint32_t known = CG_MAP_FIXED | CG_MAP_READ_ONLY | CG_MAP_CPU_CACHED | CG_MAP_IN_RESV;
    if (flags & ~known)
        return CG_ERR_INVAL;
    if (layout != CG_LAYOUT_PITCH && layout != CG_LAYOUT_BLOCK_LINEAR)
        return CG_ERR_INVAL;
    if ((flags & CG_MAP_IN_RESV) && !(flags & CG_MAP_FIXED))
        return CG_ERR_INVAL;
    if (!ps)
        ps = 4096;
    if (!page_ok(h, ps))
        return CG_ERR_INVAL;
    uint64_t msize = h->objs[obj].size;
    if (offset % ps)
        return CG_ERR_ALIGN;
    if (offset >= msize)
        return CG_ERR_RANGE;
    if (!size)
        size = msize - offset;
    if (size % ps)
        return CG_ERR_ALIGN;
    if (size > msize - offset)
        return CG_ERR_RANGE;
    if (align && !is_pow2(align))
        return CG_ERR_INVAL;
    if (align < ps)
        align = ps;
    uint64_t at;
    if (flags & CG_MAP_FIXED) {
        at = va;
        if (at % ps)
            return CG_ERR_ALIGN;
        if (at >= LIMIT || size > LIMIT - at)
            return CG_ERR_RANGE;
        int r = h->page_resv[at >> 12];
        bool inside = r >= 0;
        for (uint64_t p = at >> 12; inside && p < (at + size) >> 12; p++)
            inside = h->page_resv[p] == r;
        if ((flags & CG_MAP_IN_RESV) && !inside)
            return CG_ERR_NOENT;
        if (!inside && range_touches_resv(h, at, size))
            return CG_ERR_OVERLAP;
        if (!range_free(h, at, size, false))
            return CG_ERR_OVERLAP;
    } else if (!ref_place(h, size, align, &at)) {
        return CG_ERR_NOSPACE;
    }
    int slot = -1;
    for (int i = 0; i < MAX_MAPS && slot < 0; i++)
        if (!h->maps[i].live)
            slot = i;
    if (slot < 0)
        abort();
    h->maps[slot] = (ref_map){at, size, offset, obj, flags, ps, true};
    for (uint64_t p = at >> 12; p < (at + size) >> 12; p++)
        h->page_map[p] = (int16_t)slot;
    *out = at;
    return 0;
}

static int ref_unmap(harness *h, uint64_t va)
{
    for (int i = 0; i < MAX_MAPS; i++)
        if (h->maps[i].live && h->maps[i].va == va) {
            ref_drop_map(h, i);
            return 0;
        }
    return CG_ERR_NOENT;
}

/* The first byte a GPU access may not touch (address order). */
static cg_fault_kind ref_check(const harness *h, uint64_t va, uint64_t n, bool write,
                               uint64_t *bad)
{
    *bad = 0;
    if (n == 0)
        return CG_FAULT_NONE;
    if (va >= LIMIT) {
        *bad = va;
        return CG_FAULT_ADDR_RANGE;
    }
    bool beyond = n > LIMIT - va;
    uint64_t top = beyond ? LIMIT : va + n;
    for (uint64_t a = va; a < top; a = ((a >> 12) + 1) << 12) {
        int m = h->page_map[a >> 12], r = h->page_resv[a >> 12];
        if (m >= 0) {
            if (write && (h->maps[m].flags & CG_MAP_READ_ONLY)) {
                *bad = a;
                return CG_FAULT_READ_ONLY;
            }
        } else if (r < 0 || !h->resvs[r].sparse) {
            *bad = a;
            return CG_FAULT_UNMAPPED;
        }
    }
    if (beyond) {
        *bad = LIMIT;
        return CG_FAULT_ADDR_RANGE;
    }
    return CG_FAULT_NONE;
}

/* The object and offset behind a mapped VA (and the mapping); false in holes. */
static bool xlate(const harness *h, uint64_t a, ref_obj **o, uint64_t *off, int *map)
{
    int m = a < LIMIT ? h->page_map[a >> 12] : -1;
    if (m < 0)
        return false;
    const ref_map *mp = &h->maps[m];
    *o = (ref_obj *)&h->objs[mp->obj];
    *off = mp->offset + (a - mp->va);
    if (map)
        *map = m;
    return true;
}

/* The CPU takes line `line` of o into its cache, from memory. */
static void take_line(ref_obj *o, uint64_t line)
{
    if (o->held[line])
        return;
    o->held[line] = 1;
    uint64_t b = line * LINE;
    memcpy(o->cpu + b, o->data + b, LINE);
    memset(o->dirty + b, 0, LINE);
    memset(o->stale + b, 0, LINE);
}

/* Write back (and with drop, forget) a held line. */
static void writeback_line(ref_obj *o, uint64_t line, bool drop)
{
    if (!o->held[line])
        return;
    for (uint64_t b = line * LINE; b < (line + 1) * LINE; b++) {
        if (o->dirty[b])
            o->data[b] = o->cpu[b];
        o->dirty[b] = 0;
        if (drop)
            o->stale[b] = 0;
    }
    if (drop)
        o->held[line] = 0;
}

/* GPU bytes: memory, zeros in sparse holes. */
static void ref_read(harness *h, uint64_t va, uint8_t *dst, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        ref_obj *o;
        uint64_t off;
        dst[i] = xlate(h, va + i, &o, &off, NULL) ? o->data[off] : 0;
    }
}

/* A GPU write (validated): memory takes the bytes, sparse holes drop them
 * (counted in runs like the library's trace events), and under a coherency
 * policy the bytes of held lines the CPU has not dirtied turn stale. A line's
 * gpu_va is the first such byte of the last mapping segment that touched it. */
static void ref_write(harness *h, uint64_t va, const uint8_t *src, size_t n)
{
    bool in_run = false;
    int last_map = -1;
    for (size_t i = 0; i < n; i++) {
        ref_obj *o;
        uint64_t off;
        int m;
        if (!xlate(h, va + i, &o, &off, &m)) {
            if (!in_run)
                h->ref_events++;
            h->ref_bytes++;
            in_run = true;
            continue;
        }
        in_run = false;
        o->data[off] = src[i];
        if (!coherent(h))
            continue;
        if (m != last_map) {
            h->gen++;
            last_map = m;
        }
        uint64_t line = off / LINE;
        if (o->held[line] && !o->dirty[off]) {
            o->stale[off] = 1;
            if (o->gen[line] != h->gen) {
                o->gen[line] = h->gen;
                o->gpu_va[line] = va + i;
            }
        }
    }
}

/* First VA in [va, va+n) whose byte the CPU holds dirty. */
static bool first_dirty(const harness *h, uint64_t va, size_t n, uint64_t *at)
{
    for (size_t i = 0; i < n; i++) {
        ref_obj *o;
        uint64_t off;
        if (xlate(h, va + i, &o, &off, NULL) && o->dirty[off]) {
            *at = va + i;
            return true;
        }
    }
    return false;
}

/* ---- checks against the library --------------------------------------- */

static void compare(harness *h, int rc, const expect *e, const char *what)
{
    EXPECT_EQ(what, rc, e->rc);
    EXPECT_EQ("fault count", cg_fault_count(h->dev), e->nf);
    for (int i = 0; i < e->nf; i++) {
        const cg_fault *f = cg_fault_get(h->dev, (size_t)i);
        EXPECT_EQ("fault kind", f->kind, e->f[i].kind);
        EXPECT_EQ("fault address", f->gpu_addr, e->f[i].addr);
        EXPECT_EQ("fault warning", (f->flags & CG_FAULT_F_WARNING) != 0, e->f[i].warning);
    }
    EXPECT_EQ("sparse-write events", h->trace_events, h->ref_events);
    EXPECT_EQ("sparse-write bytes", h->trace_bytes, h->ref_bytes);
    cg_fault_clear(h->dev);
}

static int pick_obj(const harness *h, stream *s, bool need_handle)
{
    int start = u8(s) % MAX_OBJS;
    for (int k = 0; k < MAX_OBJS; k++) {
        int i = (start + k) % MAX_OBJS;
        if (h->objs[i].used && (!need_handle || h->objs[i].mem))
            return i;
    }
    return -1;
}

/* An address for an operation: often near something interesting. */
static uint64_t pick_addr(const harness *h, stream *s)
{
    uint8_t mode = u8(s);
    int16_t delta = (int16_t)u16(s);
    uint64_t base = 0;
    switch (mode & 7) {
    case 0:
    case 1:
        base = u32(s) % (LIMIT + 0x10000);
        break;
    case 2:
    case 3: {
        int start = u8(s) % MAX_MAPS;
        for (int k = 0; k < MAX_MAPS; k++) {
            const ref_map *m = &h->maps[(start + k) % MAX_MAPS];
            if (m->live) {
                base = (mode & 8) ? m->va + m->size : m->va;
                break;
            }
        }
        break;
    }
    case 4:
    case 5: {
        int start = u8(s) % MAX_RESVS;
        for (int k = 0; k < MAX_RESVS; k++) {
            const ref_resv *r = &h->resvs[(start + k) % MAX_RESVS];
            if (r->live) {
                base = (mode & 8) ? r->va + r->size : r->va;
                break;
            }
        }
        break;
    }
    case 6:
        base = LIMIT;
        break;
    default:
        base = 0; /* wraps below zero to the top of 2^64 with a negative delta */
        break;
    }
    uint64_t a = base + (uint64_t)(int64_t)delta;
    if (mode & 0x10) /* keep a page offset only sometimes */
        a &= ~0xfffull;
    return a;
}

static size_t pick_len(stream *s)
{
    uint16_t v = u16(s);
    switch (v & 3) {
    case 0: return (v >> 2) % 9;          /* tiny, including 0 */
    case 1: return (v >> 2) % 0x1100;     /* around a page */
    default: return (v >> 2) % MAX_IO;    /* a few pages */
    }
}

static void gen_bytes(uint8_t *buf, size_t n, uint8_t seed)
{
    for (size_t i = 0; i < n; i++)
        buf[i] = (uint8_t)(seed * 31 + i * 7 + (i >> 9));
}

static void op_create(harness *h, stream *s)
{
    int slot = -1;
    for (int i = 0; i < MAX_OBJS && slot < 0; i++)
        if (!h->objs[i].used)
            slot = i;
    uint64_t want = 1 + u16(s) * 4ull; /* up to 256 KiB, not page multiples */
    bool cached = u8(s) & 1;
    if (slot < 0)
        return;
    cg_mem *m;
    EXPECT_EQ("mem create", cg_mem_create(h->dev, want, cached ? CG_MEM_CPU_CACHED : 0, &m), 0);
    uint64_t size = (want + 4095) & ~4095ull, lines = size / LINE;
    EXPECT_EQ("mem size", cg_mem_size(m), size);
    ref_obj *o = &h->objs[slot];
    *o = (ref_obj){.mem = m, .size = size, .used = true, .cached = cached};
    o->data = calloc(1, size * 4 + lines * (1 + sizeof(uint64_t) + sizeof(uint32_t)));
    if (!o->data)
        abort();
    o->cpu = o->data + size;
    o->dirty = o->cpu + size;
    o->stale = o->dirty + size;
    o->gpu_va = (uint64_t *)(void *)(o->stale + size); /* size is a page multiple */
    o->gen = (uint32_t *)(void *)(o->gpu_va + lines);
    o->held = (uint8_t *)(o->gen + lines);
}

static void op_map(harness *h, stream *s)
{
    int obj = pick_obj(h, s, true);
    uint8_t fl = u8(s), psel = u8(s), osel = u8(s), ssel = u8(s), asel = u8(s);
    uint64_t va = pick_addr(h, s);
    if (obj < 0)
        return;
    bool room = false;
    for (int i = 0; i < MAX_MAPS; i++)
        room |= !h->maps[i].live;
    if (!room)
        return;
    uint32_t flags = fl & 0x0f;
    if ((fl & 0xf0) == 0xf0)
        flags |= 1u << 6; /* an unknown flag now and then */
    static const uint32_t sizes[4] = {0, 4096, 0, 8192};
    uint32_t ps = sizes[psel & 3];
    if ((psel & 3) == 2)
        ps = h->big ? h->big : 4096;
    uint64_t unit = ps ? ps : 4096;
    if (psel & 0x80) /* a fixed address on the page size now and then */
        va &= ~(unit - 1);
    uint64_t offset = (osel & 0x80) ? 0 : (osel % 24) * (osel & 0x40 ? 4096 : unit);
    if ((osel & 0x3f) == 0x3f)
        offset += 0x800;
    uint64_t size = (ssel & 0x80) ? 0 : (ssel % 24) * (ssel & 0x40 ? 4096 : unit);
    uint64_t align = (asel & 0x80) ? 0 : 4096ull << (asel % 12);
    if ((asel & 0x7f) == 0x7f)
        align = 0x3000; /* not a power of two */
    cg_layout layout = (psel & 0x70) == 0x70 ? (cg_layout)2 : CG_LAYOUT_PITCH;

    cg_map_params p = {.mem = h->objs[obj].mem, .offset = offset, .size = size, .va = va,
                       .align = align, .page_size = ps, .flags = flags, .layout = layout};
    uint64_t got = 0xdead, want = 0xbeef;
    int rc = cg_vas_map(h->vas, &p, &got);
    int ref = ref_map_obj(h, obj, offset, size, va, align, ps, flags, layout, &want);
    EXPECT_EQ("map rc", rc, ref);
    if (rc == 0)
        EXPECT_EQ("map va", got, want);
}

static void op_reserve(harness *h, stream *s)
{
    uint8_t fl = u8(s), psel = u8(s), asel = u8(s);
    uint32_t pages = u16(s);
    uint64_t va = pick_addr(h, s);
    bool room = false;
    for (int i = 0; i < MAX_RESVS; i++)
        room |= !h->resvs[i].live;
    if (!room)
        return;
    uint32_t flags = fl & 3;
    if ((fl & 0xf0) == 0xf0)
        flags |= 1u << 4;
    uint32_t ps = (psel & 1) && h->big ? h->big : 4096;
    if ((psel & 0x0e) == 0x0e)
        ps = 8192;
    uint64_t size = (uint64_t)(pages % 5000) * ((psel & 0x10) ? ps : 4096);
    if ((psel & 0xe0) == 0xe0)
        size += 0x800;
    uint64_t align = (asel & 0x80) ? 0 : 4096ull << (asel % 12);
    if ((asel & 0x7f) == 0x7f)
        align = 0x5000;
    uint64_t got = va, want = va;
    int rc = cg_vas_reserve(h->vas, &got, size, align, ps, flags);
    int ref = ref_reserve(h, &want, size, align, ps, flags);
    EXPECT_EQ("reserve rc", rc, ref);
    if (rc == 0)
        EXPECT_EQ("reserve va", got, want);
}

/* The model of a GPU read: validation, then a stale read of dirty bytes. */
static bool ref_gpu_read(harness *h, uint64_t va, size_t n, uint8_t *dst, expect *e)
{
    uint64_t bad;
    cg_fault_kind k = ref_check(h, va, n, false, &bad);
    if (k) {
        add_fault(e, k, bad, false);
        return false;
    }
    if (coherent(h) && first_dirty(h, va, n, &bad)) {
        add_stale(h, e, CG_FAULT_STALE_GPU_READ, bad);
        if (e->rc)
            return false;
    }
    ref_read(h, va, dst, n);
    return true;
}

static void ref_gpu_write(harness *h, uint64_t va, size_t n, const uint8_t *src, expect *e)
{
    uint64_t bad;
    cg_fault_kind k = ref_check(h, va, n, true, &bad);
    if (k) {
        add_fault(e, k, bad, false);
        return;
    }
    if (coherent(h) && first_dirty(h, va, n, &bad)) {
        add_stale(h, e, CG_FAULT_STALE_GPU_WRITE, bad);
        if (e->rc)
            return;
    }
    ref_write(h, va, src, n);
}

static void op_access(harness *h, stream *s, int kind)
{
    static uint8_t lib[MAX_IO], ref[MAX_IO], src[MAX_IO];
    uint64_t va = pick_addr(h, s);
    size_t n = pick_len(s);
    uint8_t seed = u8(s);
    const cg_agent who = {.family = CG_FAMILY_NV, .unit = "fuzz", .channel = 1};
    expect e = {0};
    int rc;
    switch (kind) {
    case 0: /* read */
        memset(lib, 0xa5, n);
        memset(ref, 0xa5, n); /* untouched on a fault */
        rc = cg_vas_read(h->vas, va, lib, n, &who);
        ref_gpu_read(h, va, n, ref, &e);
        compare(h, rc, &e, "read rc");
        if (memcmp(lib, ref, n) != 0)
            fail("read bytes", (long long)va, (long long)n);
        break;
    case 1: /* write */
    case 2: /* fill */
        gen_bytes(src, n, seed);
        if (kind == 2)
            memset(src, seed, n);
        rc = kind == 1 ? cg_vas_write(h->vas, va, src, n, NULL)
                       : cg_vas_fill(h->vas, va, seed, n, NULL);
        ref_gpu_write(h, va, n, src, &e);
        compare(h, rc, &e, "write rc");
        break;
    case 3: { /* copy: both ranges validated, then both coherency checks */
        uint64_t from = pick_addr(h, s), bad;
        rc = cg_vas_copy(h->vas, va, from, n, &who);
        cg_fault_kind k = ref_check(h, from, n, false, &bad);
        if (!k)
            k = ref_check(h, va, n, true, &bad);
        if (k) {
            add_fault(&e, k, bad, false);
        } else {
            if (coherent(h) && first_dirty(h, from, n, &bad))
                add_stale(h, &e, CG_FAULT_STALE_GPU_READ, bad);
            if (!e.rc && coherent(h) && first_dirty(h, va, n, &bad))
                add_stale(h, &e, CG_FAULT_STALE_GPU_WRITE, bad);
            if (!e.rc) {
                ref_read(h, from, src, n); /* as if through a bounce buffer */
                ref_write(h, va, src, n);
            }
        }
        compare(h, rc, &e, "copy rc");
        break;
    }
    case 4: { /* read32 */
        uint32_t v = 0x5a5a5a5a, want = 0x5a5a5a5a;
        rc = cg_vas_read32(h->vas, va, &v, &who);
        if (ref_gpu_read(h, va, 4, ref, &e))
            want = (uint32_t)ref[0] | (uint32_t)ref[1] << 8 | (uint32_t)ref[2] << 16 |
                   (uint32_t)ref[3] << 24;
        compare(h, rc, &e, "read32 rc");
        EXPECT_EQ("read32 value", v, want);
        break;
    }
    default: { /* write64 */
        uint64_t v = u32(s);
        v |= (uint64_t)u32(s) << 32;
        rc = cg_vas_write64(h->vas, va, v, &who);
        for (int i = 0; i < 8; i++)
            src[i] = (uint8_t)(v >> (8 * i));
        ref_gpu_write(h, va, 8, src, &e);
        compare(h, rc, &e, "write64 rc");
        break;
    }
    }
}

/* CPU views. `view(i)` gives the object byte and whether the view is cached
 * for byte i of the access; both the mapping and the object forms use it. */
typedef struct cpu_view {
    harness *h;
    uint64_t va;   /* through the address space, or */
    ref_obj *obj;  /* through the object itself, at */
    uint64_t off;
} cpu_view;

static void view_byte(const cpu_view *v, size_t i, ref_obj **o, uint64_t *off, bool *cached)
{
    if (v->obj) {
        *o = v->obj;
        *off = v->off + i;
        *cached = v->obj->cached && coherent(v->h);
        return;
    }
    int m = -1;
    if (!xlate(v->h, v->va + i, o, off, &m))
        abort(); /* the caller checked the range is mapped */
    *cached = (v->h->maps[m].flags & CG_MAP_CPU_CACHED) && coherent(v->h);
}

/* A CPU read: a stale cached byte raises STALE_CPU_READ (naming the GPU
 * write), then cached bytes come from held lines (taken from memory first). */
static void ref_cpu_read(const cpu_view *v, size_t n, uint8_t *dst, expect *e)
{
    for (size_t i = 0; i < n; i++) {
        ref_obj *o;
        uint64_t off;
        bool cached;
        view_byte(v, i, &o, &off, &cached);
        if (cached && o->held[off / LINE] && o->stale[off]) {
            add_stale(v->h, e, CG_FAULT_STALE_CPU_READ, o->gpu_va[off / LINE]);
            if (e->rc)
                return;
            break;
        }
    }
    for (size_t i = 0; i < n; i++) {
        ref_obj *o;
        uint64_t off;
        bool cached;
        view_byte(v, i, &o, &off, &cached);
        if (cached) {
            take_line(o, off / LINE);
            dst[i] = o->cpu[off];
        } else {
            dst[i] = o->data[off];
        }
    }
}

static void ref_cpu_write(const cpu_view *v, size_t n, const uint8_t *src)
{
    for (size_t i = 0; i < n; i++) {
        ref_obj *o;
        uint64_t off;
        bool cached;
        view_byte(v, i, &o, &off, &cached);
        if (cached) {
            take_line(o, off / LINE);
            o->cpu[off] = src[i];
            o->dirty[off] = 1;
            o->stale[off] = 0;
        } else {
            o->data[off] = src[i];
        }
    }
}

/* Flush or invalidate every line the range touches, whatever view holds it. */
static void ref_cpu_writeback(const cpu_view *v, size_t n, bool drop)
{
    for (size_t i = 0; i < n; i++) {
        ref_obj *o;
        uint64_t off;
        bool cached;
        view_byte(v, i, &o, &off, &cached);
        writeback_line(o, off / LINE, drop);
    }
}

/* CPU access through mappings: all of it mapped, else NOENT; or through an
 * object: in range, else RANGE. */
static void op_cpu(harness *h, stream *s, bool by_object)
{
    static uint8_t lib[MAX_IO], ref[MAX_IO];
    cpu_view v = {.h = h};
    int obj = -1;
    uint32_t off = 0;
    if (by_object) {
        obj = pick_obj(h, s, true);
        off = u32(s) % 0x50000;
    } else {
        v.va = pick_addr(h, s);
    }
    size_t n = pick_len(s);
    uint8_t sel = u8(s);
    int want;
    if (by_object) {
        if (obj < 0)
            return;
        v.obj = &h->objs[obj];
        v.off = off;
        want = off > v.obj->size || n > v.obj->size - off ? CG_ERR_RANGE : 0;
    } else {
        bool ok = n == 0 || (v.va < LIMIT && n <= LIMIT - v.va);
        for (uint64_t a = v.va; ok && n && a < v.va + n; a = ((a >> 12) + 1) << 12)
            ok = h->page_map[a >> 12] >= 0;
        want = ok ? 0 : CG_ERR_NOENT;
    }
    expect e = {.rc = want};
    int rc;
    cg_mem *m = by_object ? v.obj->mem : NULL;
    switch (sel & 3) {
    case 0:
        memset(lib, 0xa5, n);
        memset(ref, 0xa5, n);
        rc = m ? cg_mem_cpu_read(m, off, lib, n) : cg_vas_cpu_read(h->vas, v.va, lib, n);
        if (!want)
            ref_cpu_read(&v, n, ref, &e);
        compare(h, rc, &e, "cpu read");
        if (memcmp(lib, ref, n) != 0)
            fail("cpu read bytes", (long long)v.va, (long long)n);
        break;
    case 1:
        gen_bytes(lib, n, sel);
        rc = m ? cg_mem_cpu_write(m, off, lib, n) : cg_vas_cpu_write(h->vas, v.va, lib, n);
        if (!want)
            ref_cpu_write(&v, n, lib);
        compare(h, rc, &e, "cpu write");
        break;
    default: {
        bool drop = (sel & 3) == 3;
        if (m)
            rc = drop ? cg_mem_cpu_invalidate(m, off, n) : cg_mem_cpu_flush(m, off, n);
        else
            rc = drop ? cg_vas_cpu_invalidate(h->vas, v.va, n) : cg_vas_cpu_flush(h->vas, v.va, n);
        if (!want)
            ref_cpu_writeback(&v, n, drop);
        compare(h, rc, &e, "cpu flush");
        break;
    }
    }
}

/* Direct object writes (no cache model). */
static void op_direct(harness *h, stream *s)
{
    int obj = pick_obj(h, s, true);
    uint32_t off = u32(s) % 0x50000;
    size_t n = pick_len(s);
    uint8_t seed = u8(s);
    if (obj < 0)
        return;
    ref_obj *o = &h->objs[obj];
    static uint8_t buf[MAX_IO];
    gen_bytes(buf, n, seed);
    int want = off > o->size || n > o->size - off ? CG_ERR_RANGE : 0;
    EXPECT_EQ("mem write", cg_mem_write(o->mem, off, buf, n), want);
    if (!want)
        memcpy(o->data + off, buf, n);
}

static void compare_obj(harness *h, int obj)
{
    ref_obj *o = &h->objs[obj];
    uint8_t *buf = malloc(o->size);
    if (!buf)
        abort();
    EXPECT_EQ("mem read", cg_mem_read(o->mem, 0, buf, o->size), 0);
    if (memcmp(buf, o->data, o->size) != 0)
        fail("object bytes", obj, 0);
    free(buf);
    size_t held = 0, dirty = 0, lib_dirty, lib_clean;
    for (uint64_t l = 0; l < o->size / LINE; l++) {
        held += o->held[l];
        bool d = false;
        for (uint64_t b = l * LINE; o->held[l] && b < (l + 1) * LINE; b++)
            d |= o->dirty[b] != 0;
        dirty += d;
    }
    cg_mem_cache_lines(o->mem, &lib_dirty, &lib_clean);
    EXPECT_EQ("dirty lines", lib_dirty, dirty);
    EXPECT_EQ("clean lines", lib_clean, held - dirty);
}

/* Drop the harness's reference (mappings keep the object alive), compare an
 * object with the model, or switch the coherency policy. */
static void op_object(harness *h, stream *s)
{
    uint8_t sel = u8(s);
    int obj = pick_obj(h, s, true);
    if ((sel & 3) == 2) {
        static const cg_coherency policies[4] = {CG_COHERENCY_OFF, CG_COHERENCY_WARN,
                                                 CG_COHERENCY_FAULT, CG_COHERENCY_WARN};
        h->policy = policies[(sel >> 2) & 3];
        cg_device_set_coherency(h->dev, h->policy);
        return;
    }
    if (obj < 0)
        return;
    if (sel & 1) {
        cg_mem_unref(h->objs[obj].mem);
        h->objs[obj].mem = NULL;
    } else {
        compare_obj(h, obj);
    }
}

static void op_lookup(harness *h, stream *s)
{
    uint64_t va = pick_addr(h, s);
    uint64_t n = u8(s) & 1 ? UINT64_MAX - u8(s) : u16(s);
    bool write = u8(s) & 1;
    /* The check, including huge lengths that wrap 2^64. */
    uint64_t bad = 0, ref_bad;
    cg_fault_kind k = cg_vas_check(h->vas, va, n, write, &bad);
    EXPECT_EQ("check kind", k, ref_check(h, va, n, write, &ref_bad));
    EXPECT_EQ("check address", bad, ref_bad);
    /* Mapping and reservation lookups. */
    cg_mapping_info info;
    int rc = cg_vas_lookup(h->vas, va, &info);
    int m = va < LIMIT ? h->page_map[va >> 12] : -1;
    EXPECT_EQ("lookup rc", rc, m >= 0 ? 0 : CG_ERR_NOENT);
    if (m >= 0) {
        const ref_map *mp = &h->maps[m];
        EXPECT_EQ("lookup va", info.va, mp->va);
        EXPECT_EQ("lookup size", info.size, mp->size);
        EXPECT_EQ("lookup offset", info.offset, mp->offset);
        EXPECT_EQ("lookup flags", info.flags, mp->flags);
        EXPECT_EQ("lookup page size", info.page_size, mp->page_size);
        EXPECT_EQ("lookup mem size", cg_mem_size(info.mem), h->objs[mp->obj].size);
    }
    uint64_t start = 0, size = 0;
    uint32_t flags = 0;
    rc = cg_vas_reservation_at(h->vas, va, &start, &size, &flags);
    int r = va < LIMIT ? h->page_resv[va >> 12] : -1;
    EXPECT_EQ("reservation rc", rc, r >= 0 ? (h->resvs[r].sparse ? 1 : 0) : CG_ERR_NOENT);
    if (r >= 0) {
        EXPECT_EQ("reservation start", start, h->resvs[r].va);
        EXPECT_EQ("reservation size", size, h->resvs[r].size);
    }
    size_t live = 0;
    for (int i = 0; i < MAX_MAPS; i++)
        live += h->maps[i].live;
    EXPECT_EQ("mapping count", cg_vas_mapping_count(h->vas), live);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    stream s = {data, size};
    static harness h;
    memset(&h, 0, sizeof(h));
    memset(h.page_map, 0xff, sizeof(h.page_map));
    memset(h.page_resv, 0xff, sizeof(h.page_resv));

    uint8_t cfg = u8(&s), start_pages = u8(&s), end_pages = u8(&s);
    static const uint32_t bigs[3] = {0, 65536, 131072};
    static const cg_coherency policies[4] = {CG_COHERENCY_OFF, CG_COHERENCY_WARN,
                                             CG_COHERENCY_FAULT, CG_COHERENCY_WARN};
    h.big = bigs[(cfg & 0x0f) % 3];
    h.policy = policies[cfg >> 6];
    cg_vas_config c = {.va_bits = VA_BITS, .big_page_size = h.big};
    if (cfg & 0x10)
        c.va_start = (uint64_t)(start_pages % 64) * 4096;
    if (cfg & 0x20)
        c.va_end = LIMIT - (uint64_t)(end_pages % 64) * 4096;
    h.va_start = c.va_start ? c.va_start : 4096;
    h.va_end = c.va_end ? c.va_end : LIMIT;

    if (cg_device_create(&h.dev) != 0)
        abort();
    cg_device_set_coherency(h.dev, h.policy);
    if (cg_trace_add(h.dev, sink, &h) < 0 || cg_vas_create(h.dev, &c, &h.vas) != 0)
        abort();

    for (int ops = 0; s.n && ops < 400; ops++) {
        uint8_t op = u8(&s);
        switch (op % 18) {
        case 0: op_create(&h, &s); break;
        case 1:
        case 2: op_map(&h, &s); break;
        case 3: {
            uint64_t va = pick_addr(&h, &s);
            EXPECT_EQ("unmap", cg_vas_unmap(h.vas, va), ref_unmap(&h, va));
            break;
        }
        case 4: op_reserve(&h, &s); break;
        case 5: {
            uint64_t va = pick_addr(&h, &s);
            EXPECT_EQ("unreserve", cg_vas_unreserve(h.vas, va), ref_unreserve(&h, va));
            break;
        }
        case 6: op_access(&h, &s, 0); break;
        case 7: op_access(&h, &s, 1); break;
        case 8: op_access(&h, &s, 2); break;
        case 9: op_access(&h, &s, 3); break;
        case 10: op_access(&h, &s, 4); break;
        case 11: op_access(&h, &s, 5); break;
        case 12: op_cpu(&h, &s, false); break;
        case 13: op_direct(&h, &s); break;
        case 14: op_lookup(&h, &s); break;
        case 15: op_object(&h, &s); break;
        default: op_cpu(&h, &s, true); break;
        }
    }
    /* Final sweep: every object the harness still holds matches the model. */
    for (int i = 0; i < MAX_OBJS; i++)
        if (h.objs[i].mem)
            compare_obj(&h, i);
    /* Tear down with live mappings, reservations, lines and references. */
    cg_device_destroy(h.dev);
    for (int i = 0; i < MAX_OBJS; i++)
        free(h.objs[i].data);
    return 0;
}
