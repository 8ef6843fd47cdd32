/* cmdgpu core: GPU virtual address spaces.
 *
 * An address space keeps three views of the same facts, each suited to one job:
 *  - mappings, sorted by address in an array of records: overlap checks,
 *    placement, lookup, and the walks of multi-page accesses (one binary search,
 *    then the records in order);
 *  - reservations, sorted the same way (they never overlap each other, and a
 *    mapping lies either wholly inside one or wholly outside all of them);
 *  - a page table: a radix tree over 36-bit page numbers, 4 levels of 9 bits,
 *    whose entries point at child nodes or, tagged with bit 0, at the mapping
 *    record covering them. A mapping that covers a whole aligned 2 MiB, 1 GiB
 *    or 512 GiB block takes one entry at that level, as huge pages do, so the
 *    table's size follows the number of mappings and their ragged edges, never
 *    the bytes of address space mapped or reserved. Single-page accesses
 *    translate through it, behind a one-entry TLB.
 *
 * GPU accessors validate the whole range first and raise one fault for the
 * first bad byte (address order), touching nothing; then run the coherency
 * checks (objects with CPU-cached lines only); then move bytes page by page. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mem_internal.h"

typedef struct vas_map {
    uint64_t va, size;
    cg_mem *mem;     /* holds a reference */
    uint64_t offset; /* in the object */
    uint32_t page_size, flags, kind;
    cg_layout layout;
} vas_map;

typedef struct vas_resv {
    uint64_t va, size;
    uint32_t page_size, flags;
} vas_resv;

#define PT_BITS 9
#define PT_FANOUT (1u << PT_BITS)
#define PT_TOP_SHIFT 27 /* page-number bits below a root entry: 36-bit page numbers */

/* A page-table node: 512 entries, each 0, a child node, or (vas_map * | 1). */
typedef struct pt_node {
    uintptr_t e[PT_FANOUT];
    uint32_t used; /* non-zero entries, so emptied nodes can be freed */
} pt_node;

struct cg_vas {
    cg_device *dev;
    struct cg_vas *next; /* dev->vas_list */
    unsigned va_bits;
    uint64_t limit; /* 2^va_bits */
    uint32_t big_page;
    uint64_t va_start, va_end; /* the window placement uses */

    vas_map **maps; /* sorted by va */
    size_t nmaps, maps_cap;
    vas_resv *resvs; /* sorted by va */
    size_t nresvs, resvs_cap;
    pt_node *root;

    /* The address space's state number for the TLBs: a fresh, process-wide
     * unique value after every map and unmap, so no thread's TLB entry for
     * the old state (or for a destroyed address space that had this one's
     * address) can match again. */
    uint64_t epoch;
};

static uint64_t map_end(const vas_map *m) { return m->va + m->size; }
static uint64_t min_u64(uint64_t a, uint64_t b) { return a < b ? a : b; }
static bool is_pow2(uint64_t v) { return v && !(v & (v - 1)); }

/* Per-thread one-entry TLB: the last page this thread translated (never the
 * zero page), for the address space state `epoch`. Being per thread, it
 * needs no lock, and engines running in several threads do not thrash one
 * shared entry. Initial-exec TLS: one load off the thread pointer, no call
 * (the library is linked at start-up, not dlopen'ed late). */
typedef struct tlb_entry {
    uint64_t epoch, vpn;
    const vas_map *map;
    uint8_t *page;
} tlb_entry;

#if defined(__GNUC__)
#define TLS_IE __attribute__((tls_model("initial-exec")))
#else
#define TLS_IE
#endif
static _Thread_local tlb_entry tlb TLS_IE; /* epoch 0: never valid */

static _Atomic uint64_t epoch_counter;

static void tlb_flush(cg_vas *vas)
{
    vas->epoch = atomic_fetch_add_explicit(&epoch_counter, 1, memory_order_relaxed) + 1;
}

/* ---- sorted records ---------------------------------------------------- */

/* Index of the first mapping that ends after x (records are disjoint and
 * sorted, so their ends are sorted too). */
static size_t maps_upper(const cg_vas *vas, uint64_t x)
{
    size_t lo = 0, hi = vas->nmaps;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (map_end(vas->maps[mid]) > x)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

static size_t resvs_upper(const cg_vas *vas, uint64_t x)
{
    size_t lo = 0, hi = vas->nresvs;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (vas->resvs[mid].va + vas->resvs[mid].size > x)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

static const vas_resv *resv_containing(const cg_vas *vas, uint64_t x)
{
    size_t i = resvs_upper(vas, x);
    return i < vas->nresvs && vas->resvs[i].va <= x ? &vas->resvs[i] : NULL;
}

static const vas_map *map_containing(const cg_vas *vas, uint64_t x)
{
    size_t i = maps_upper(vas, x);
    return i < vas->nmaps && vas->maps[i]->va <= x ? vas->maps[i] : NULL;
}

static bool maps_overlap(const cg_vas *vas, uint64_t va, uint64_t size)
{
    size_t i = maps_upper(vas, va);
    return i < vas->nmaps && vas->maps[i]->va < va + size;
}

static bool resvs_overlap(const cg_vas *vas, uint64_t va, uint64_t size)
{
    size_t i = resvs_upper(vas, va);
    return i < vas->nresvs && vas->resvs[i].va < va + size;
}

/* Make room for one more element in a record array. */
static int grow(cg_device *dev, void **arr, size_t *cap, size_t count, size_t elem)
{
    if (count < *cap)
        return 0;
    size_t ncap = *cap ? *cap * 2 : 8;
    void *n = cg__realloc(dev, *arr, *cap * elem, ncap * elem);
    if (!n)
        return CG_ERR_NOMEM;
    *arr = n;
    *cap = ncap;
    return 0;
}

/* Round v up to a multiple of align (a power of two); false on overflow. */
static bool align_up(uint64_t v, uint64_t align, uint64_t *out)
{
    uint64_t r = (v + align - 1) & ~(align - 1);
    if (r < v)
        return false;
    *out = r;
    return true;
}

/* First fit: the lowest multiple of `align` in [va_start, va_end) where `size`
 * bytes touch no reservation and no mapping. A candidate that collides jumps
 * past the collision: nothing in between could fit. */
static bool find_free(const cg_vas *vas, uint64_t size, uint64_t align, uint64_t *out)
{
    uint64_t c;
    if (!align_up(vas->va_start, align, &c))
        return false;
    for (;;) {
        if (c >= vas->va_end || size > vas->va_end - c)
            return false;
        uint64_t past = 0;
        size_t r = resvs_upper(vas, c);
        if (r < vas->nresvs && vas->resvs[r].va < c + size)
            past = vas->resvs[r].va + vas->resvs[r].size;
        size_t m = maps_upper(vas, c);
        if (m < vas->nmaps && vas->maps[m]->va < c + size && map_end(vas->maps[m]) > past)
            past = map_end(vas->maps[m]);
        if (!past) {
            *out = c;
            return true;
        }
        if (!align_up(past, align, &c))
            return false;
    }
}

/* ---- page table -------------------------------------------------------- */

/* Point the entries for page numbers [lo, hi) at `val`. Each entry of `node`
 * covers 2^shift pages from `base`. An entry wholly inside the range is set
 * directly (it is empty: mappings never overlap, and nodes with no entries
 * are freed); a partly covered one gets a child node. */
static int pt_set(cg_vas *vas, pt_node *node, unsigned shift, uint64_t base, uint64_t lo,
                  uint64_t hi, uintptr_t val)
{
    size_t last = (size_t)((hi - 1 - base) >> shift);
    for (size_t i = (size_t)((lo - base) >> shift); i <= last; i++) {
        uint64_t eb = base + ((uint64_t)i << shift), ee = eb + (1ull << shift);
        uint64_t a = lo > eb ? lo : eb, b = hi < ee ? hi : ee;
        if (a == eb && b == ee) {
            node->e[i] = val;
            node->used++;
            continue;
        }
        pt_node *child = (pt_node *)node->e[i];
        if (!child) {
            child = cg__alloc(vas->dev, sizeof(*child));
            if (!child)
                return CG_ERR_NOMEM;
            node->e[i] = (uintptr_t)child;
            node->used++;
        }
        int rc = pt_set(vas, child, shift - PT_BITS, eb, a, b, val);
        if (rc)
            return rc;
    }
    return 0;
}

/* Clear the entries for pages [lo, hi) (all set by one mapping, or empty
 * after a failed pt_set) and free nodes left empty. */
static void pt_clear(cg_vas *vas, pt_node *node, unsigned shift, uint64_t base, uint64_t lo,
                     uint64_t hi)
{
    size_t last = (size_t)((hi - 1 - base) >> shift);
    for (size_t i = (size_t)((lo - base) >> shift); i <= last; i++) {
        uintptr_t e = node->e[i];
        if (!e)
            continue;
        if (e & 1) {
            node->e[i] = 0;
            node->used--;
            continue;
        }
        uint64_t eb = base + ((uint64_t)i << shift), ee = eb + (1ull << shift);
        pt_node *child = (pt_node *)e;
        pt_clear(vas, child, shift - PT_BITS, eb, lo > eb ? lo : eb, hi < ee ? hi : ee);
        if (!child->used) {
            cg__free(vas->dev, child, sizeof(*child));
            node->e[i] = 0;
            node->used--;
        }
    }
}

static void pt_free(cg_device *dev, pt_node *node, unsigned shift)
{
    for (size_t i = 0; shift && i < PT_FANOUT; i++)
        if (node->e[i] && !(node->e[i] & 1))
            pt_free(dev, (pt_node *)node->e[i], shift - PT_BITS);
    cg__free(dev, node, sizeof(*node));
}

static inline const vas_map *pt_lookup(const cg_vas *vas, uint64_t va)
{
    if (va >= vas->limit)
        return NULL;
    uint64_t vpn = va >> CG__PAGE_SHIFT;
    const pt_node *n = vas->root;
    for (unsigned shift = PT_TOP_SHIFT;; shift -= PT_BITS) {
        uintptr_t e = n->e[(vpn >> shift) & (PT_FANOUT - 1)];
        if (e & 1)
            return (const vas_map *)(e - 1);
        if (!e)
            return NULL;
        n = (const pt_node *)e;
    }
}

/* ---- address spaces ---------------------------------------------------- */

int cg_vas_create(cg_device *dev, const cg_vas_config *cfg, cg_vas **out)
{
    if (out)
        *out = NULL;
    if (!dev || !out)
        return CG_ERR_INVAL;
    cg_vas_config c = {0};
    if (cfg)
        c = *cfg;
    unsigned bits = c.va_bits ? c.va_bits : 40;
    if (bits < 16 || bits > 48)
        return CG_ERR_INVAL;
    if (c.big_page_size != 0 && c.big_page_size != 65536 && c.big_page_size != 131072)
        return CG_ERR_INVAL;
    uint64_t limit = 1ull << bits;
    uint64_t start = c.va_start ? c.va_start : CG_PAGE_SIZE;
    uint64_t end = c.va_end ? c.va_end : limit;
    if ((start | end) & CG__PAGE_MASK)
        return CG_ERR_ALIGN;
    if (start >= end || end > limit)
        return CG_ERR_RANGE;

    cg_vas *vas = cg__alloc(dev, sizeof(*vas));
    if (!vas)
        return CG_ERR_NOMEM;
    vas->root = cg__alloc(dev, sizeof(*vas->root));
    if (!vas->root) {
        cg__free(dev, vas, sizeof(*vas));
        return CG_ERR_NOMEM;
    }
    vas->dev = dev;
    vas->va_bits = bits;
    vas->limit = limit;
    vas->big_page = c.big_page_size;
    vas->va_start = start;
    vas->va_end = end;
    tlb_flush(vas);
    cg__lock(dev);
    vas->next = dev->vas_list;
    dev->vas_list = vas;
    cg__unlock(dev);
    *out = vas;
    return 0;
}

void cg_vas_destroy(cg_vas *vas)
{
    if (!vas)
        return;
    cg_device *dev = vas->dev;
    cg__lock(dev);
    for (cg_vas **p = &dev->vas_list; *p; p = &(*p)->next) {
        if (*p == vas) {
            *p = vas->next;
            break;
        }
    }
    cg__unlock(dev);
    for (size_t i = 0; i < vas->nmaps; i++) {
        cg_mem_unref(vas->maps[i]->mem);
        cg__free(dev, vas->maps[i], sizeof(*vas->maps[i]));
    }
    cg__free(dev, vas->maps, vas->maps_cap * sizeof(*vas->maps));
    cg__free(dev, vas->resvs, vas->resvs_cap * sizeof(*vas->resvs));
    pt_free(dev, vas->root, PT_TOP_SHIFT);
    cg__free(dev, vas, sizeof(*vas));
}

void cg__vas_teardown(cg_device *dev)
{
    while (dev->vas_list)
        cg_vas_destroy(dev->vas_list);
}

cg_device *cg_vas_device(const cg_vas *vas) { return vas ? vas->dev : NULL; }
unsigned cg_vas_bits(const cg_vas *vas) { return vas ? vas->va_bits : 0; }
uint32_t cg_vas_big_page_size(const cg_vas *vas) { return vas ? vas->big_page : 0; }

static bool page_size_ok(const cg_vas *vas, uint32_t page_size)
{
    return page_size == CG_PAGE_SIZE || (vas->big_page && page_size == vas->big_page);
}

/* ---- reservations ------------------------------------------------------ */

int cg_vas_reserve(cg_vas *vas, uint64_t *va, uint64_t size, uint64_t align,
                   uint32_t page_size, uint32_t flags)
{
    if (!vas || !va || (flags & ~(uint32_t)(CG_RESV_FIXED | CG_RESV_SPARSE)))
        return CG_ERR_INVAL;
    if (!page_size_ok(vas, page_size) || size == 0)
        return CG_ERR_INVAL;
    if (size % page_size)
        return CG_ERR_ALIGN;
    if (align && !is_pow2(align))
        return CG_ERR_INVAL;
    if (align < page_size)
        align = page_size;

    uint64_t at;
    if (flags & CG_RESV_FIXED) {
        at = *va;
        if (at % page_size)
            return CG_ERR_ALIGN;
        if (at >= vas->limit || size > vas->limit - at)
            return CG_ERR_RANGE;
        /* Neither another reservation nor a mapping may be there: a mapping
         * must be wholly inside one reservation or outside all of them, and
         * nvgpu's allocator refuses VA already in use the same way. */
        if (resvs_overlap(vas, at, size) || maps_overlap(vas, at, size))
            return CG_ERR_OVERLAP;
    } else if (!find_free(vas, size, align, &at)) {
        return CG_ERR_NOSPACE;
    }

    int rc = grow(vas->dev, (void **)&vas->resvs, &vas->resvs_cap, vas->nresvs,
                  sizeof(*vas->resvs));
    if (rc)
        return rc;
    size_t i = resvs_upper(vas, at);
    memmove(&vas->resvs[i + 1], &vas->resvs[i], (vas->nresvs - i) * sizeof(*vas->resvs));
    vas->resvs[i] = (vas_resv){.va = at, .size = size, .page_size = page_size, .flags = flags};
    vas->nresvs++;
    *va = at;
    return 0;
}

static void map_remove_at(cg_vas *vas, size_t i)
{
    vas_map *m = vas->maps[i];
    pt_clear(vas, vas->root, PT_TOP_SHIFT, 0, m->va >> CG__PAGE_SHIFT,
             map_end(m) >> CG__PAGE_SHIFT);
    memmove(&vas->maps[i], &vas->maps[i + 1], (vas->nmaps - i - 1) * sizeof(*vas->maps));
    vas->nmaps--;
    tlb_flush(vas);
    cg_mem_unref(m->mem);
    cg__free(vas->dev, m, sizeof(*m));
}

int cg_vas_unreserve(cg_vas *vas, uint64_t va)
{
    if (!vas)
        return CG_ERR_INVAL;
    size_t r = resvs_upper(vas, va);
    if (r >= vas->nresvs || vas->resvs[r].va != va)
        return CG_ERR_NOENT;
    uint64_t end = va + vas->resvs[r].size;
    size_t i = maps_upper(vas, va);
    while (i < vas->nmaps && vas->maps[i]->va < end)
        map_remove_at(vas, i);
    memmove(&vas->resvs[r], &vas->resvs[r + 1], (vas->nresvs - r - 1) * sizeof(*vas->resvs));
    vas->nresvs--;
    return 0;
}

int cg_vas_reservation_at(const cg_vas *vas, uint64_t va, uint64_t *start, uint64_t *size,
                          uint32_t *flags)
{
    if (!vas)
        return CG_ERR_INVAL;
    const vas_resv *r = resv_containing(vas, va);
    if (!r)
        return CG_ERR_NOENT;
    if (start)
        *start = r->va;
    if (size)
        *size = r->size;
    if (flags)
        *flags = r->flags;
    return (r->flags & CG_RESV_SPARSE) ? 1 : 0;
}

/* ---- mappings ---------------------------------------------------------- */

int cg_vas_map(cg_vas *vas, const cg_map_params *p, uint64_t *va_out)
{
    const uint32_t known = CG_MAP_FIXED | CG_MAP_READ_ONLY | CG_MAP_CPU_CACHED | CG_MAP_IN_RESV;
    if (!vas || !p || !p->mem || p->mem->dev != vas->dev || (p->flags & ~known))
        return CG_ERR_INVAL;
    if (p->layout != CG_LAYOUT_PITCH && p->layout != CG_LAYOUT_BLOCK_LINEAR)
        return CG_ERR_INVAL;
    /* Placed mappings go outside every reservation, so "in a reservation"
     * only makes sense with a fixed address. */
    if ((p->flags & CG_MAP_IN_RESV) && !(p->flags & CG_MAP_FIXED))
        return CG_ERR_INVAL;
    uint32_t page_size = p->page_size ? p->page_size : CG_PAGE_SIZE;
    if (!page_size_ok(vas, page_size))
        return CG_ERR_INVAL;

    uint64_t msize = p->mem->size;
    if (p->offset % page_size)
        return CG_ERR_ALIGN;
    if (p->offset >= msize)
        return CG_ERR_RANGE;
    uint64_t size = p->size ? p->size : msize - p->offset;
    if (size % page_size)
        return CG_ERR_ALIGN;
    if (size > msize - p->offset)
        return CG_ERR_RANGE;
    uint64_t align = p->align;
    if (align && !is_pow2(align))
        return CG_ERR_INVAL;
    if (align < page_size)
        align = page_size;

    uint64_t at;
    if (p->flags & CG_MAP_FIXED) {
        at = p->va;
        if (at % page_size)
            return CG_ERR_ALIGN;
        if (at >= vas->limit || size > vas->limit - at)
            return CG_ERR_RANGE;
        const vas_resv *r = resv_containing(vas, at);
        bool inside = r && size <= r->va + r->size - at;
        if ((p->flags & CG_MAP_IN_RESV) && !inside)
            return CG_ERR_NOENT;
        /* Keep every mapping wholly inside one reservation or outside all:
         * unreserve then knows exactly what to unmap. */
        if (!inside && resvs_overlap(vas, at, size))
            return CG_ERR_OVERLAP;
        if (maps_overlap(vas, at, size))
            return CG_ERR_OVERLAP;
    } else if (!find_free(vas, size, align, &at)) {
        return CG_ERR_NOSPACE;
    }

    int rc = grow(vas->dev, (void **)&vas->maps, &vas->maps_cap, vas->nmaps, sizeof(*vas->maps));
    if (rc)
        return rc;
    vas_map *m = cg__alloc(vas->dev, sizeof(*m));
    if (!m)
        return CG_ERR_NOMEM;
    *m = (vas_map){.va = at, .size = size, .mem = p->mem, .offset = p->offset,
                   .page_size = page_size, .flags = p->flags, .kind = p->kind,
                   .layout = p->layout};
    uint64_t lo = at >> CG__PAGE_SHIFT, hi = (at + size) >> CG__PAGE_SHIFT;
    rc = pt_set(vas, vas->root, PT_TOP_SHIFT, 0, lo, hi, (uintptr_t)m | 1);
    if (rc) {
        pt_clear(vas, vas->root, PT_TOP_SHIFT, 0, lo, hi);
        cg__free(vas->dev, m, sizeof(*m));
        return rc;
    }
    size_t i = maps_upper(vas, at);
    memmove(&vas->maps[i + 1], &vas->maps[i], (vas->nmaps - i) * sizeof(*vas->maps));
    vas->maps[i] = m;
    vas->nmaps++;
    cg_mem_ref(p->mem);
    tlb_flush(vas);
    if (va_out)
        *va_out = at;
    return 0;
}

int cg_vas_unmap(cg_vas *vas, uint64_t va)
{
    if (!vas)
        return CG_ERR_INVAL;
    size_t i = maps_upper(vas, va);
    if (i >= vas->nmaps || vas->maps[i]->va != va)
        return CG_ERR_NOENT;
    map_remove_at(vas, i);
    return 0;
}

int cg_vas_lookup(const cg_vas *vas, uint64_t va, cg_mapping_info *out)
{
    if (!vas)
        return CG_ERR_INVAL;
    const vas_map *m = map_containing(vas, va);
    if (!m)
        return CG_ERR_NOENT;
    if (out)
        *out = (cg_mapping_info){.va = m->va, .size = m->size, .mem = m->mem,
                                 .offset = m->offset, .page_size = m->page_size,
                                 .flags = m->flags, .kind = m->kind, .layout = m->layout};
    return 0;
}

size_t cg_vas_mapping_count(const cg_vas *vas) { return vas ? vas->nmaps : 0; }

/* ---- translation fast path --------------------------------------------- */

/* The body of cg__vas_span, inlined into the fixed-size accessors so the
 * compiler specialises it for their constant length and direction. */
static inline size_t span(cg_vas *vas, uint64_t va, size_t n, bool write, uint8_t **ptr)
{
    if (n == 0)
        return 0;
    uint64_t vpn = va >> CG__PAGE_SHIFT;
    const vas_map *m;
    uint8_t *page;
    if (vpn == tlb.vpn && vas->epoch == tlb.epoch) {
        m = tlb.map;
        page = tlb.page;
    } else {
        m = pt_lookup(vas, va);
        if (!m)
            return 0;
        page = NULL;
    }
    if (write && (m->flags & CG_MAP_READ_ONLY))
        return 0;
    if (cg__mem_coherency_on(m->mem))
        return 0;
    uint64_t in_page = va & CG__PAGE_MASK;
    size_t len = (size_t)(CG_PAGE_SIZE - in_page);
    if (len > n)
        len = n;
    if (!page) {
        uint64_t pidx = (m->offset >> CG__PAGE_SHIFT) + (vpn - (m->va >> CG__PAGE_SHIFT));
        page = cg__mem_page(m->mem, pidx);
        if (!page) {
            if (!write) {
                /* Not cached in the TLB: a later write must find real backing. */
                *ptr = (uint8_t *)cg__zero_page + in_page;
                return len;
            }
            page = cg__mem_page_alloc(m->mem, pidx);
            if (!page)
                return 0;
        }
        tlb = (tlb_entry){.epoch = vas->epoch, .vpn = vpn, .map = m, .page = page};
    }
    *ptr = page + in_page;
    return len;
}

size_t cg__vas_span(cg_vas *vas, uint64_t va, size_t n, bool write, uint8_t **ptr)
{
    return span(vas, va, n, write, ptr);
}

uint64_t cg__vas_epoch(const cg_vas *vas)
{
    return vas->epoch;
}

/* ---- validation and faults --------------------------------------------- */

/* The first byte of [va, va+n) (address order) a GPU access may not touch,
 * and why. Sets *lines if some mapped part's object needs coherency checks. */
static cg_fault_kind validate(const cg_vas *vas, uint64_t va, uint64_t n, bool write,
                              uint64_t *bad, bool *lines)
{
    if (n == 0)
        return CG_FAULT_NONE;
    if (va >= vas->limit) {
        *bad = va;
        return CG_FAULT_ADDR_RANGE;
    }
    bool beyond = n > vas->limit - va; /* leaves the VA (or wraps 2^64) */
    uint64_t top = beyond ? vas->limit : va + n;
    uint64_t cur = va;
    size_t i = maps_upper(vas, cur);
    while (cur < top) {
        if (i < vas->nmaps && vas->maps[i]->va <= cur) {
            const vas_map *m = vas->maps[i++];
            if (write && (m->flags & CG_MAP_READ_ONLY)) {
                *bad = cur;
                return CG_FAULT_READ_ONLY;
            }
            if (cg__mem_coherency_on(m->mem))
                *lines = true;
            cur = min_u64(top, map_end(m));
            continue;
        }
        /* A hole up to the next mapping: fine only inside sparse reservations. */
        uint64_t next = i < vas->nmaps ? vas->maps[i]->va : vas->limit;
        const vas_resv *r = resv_containing(vas, cur);
        if (!r || !(r->flags & CG_RESV_SPARSE)) {
            *bad = cur;
            return CG_FAULT_UNMAPPED;
        }
        cur = min_u64(min_u64(top, next), r->va + r->size);
    }
    if (beyond) {
        *bad = vas->limit;
        return CG_FAULT_ADDR_RANGE;
    }
    return CG_FAULT_NONE;
}

cg_fault_kind cg_vas_check(const cg_vas *vas, uint64_t va, uint64_t n, bool write,
                           uint64_t *bad_va)
{
    uint64_t bad = 0;
    bool lines = false;
    cg_fault_kind k = vas ? validate(vas, va, n, write, &bad, &lines) : CG_FAULT_NONE;
    if (bad_va)
        *bad_va = bad;
    return k;
}

static const cg_agent gpu_agent = {.family = CG_FAMILY_NONE, .unit = "gpu", .channel = -1};

/* An access, described for messages: "read of 0x40 bytes at 0x10000". */
typedef struct access_desc {
    const char *op; /* "read", "write", "fill", "copy" */
    uint64_t va, n;
    uint64_t src_va; /* copy only */
    const char *side; /* copy only: "source" or "destination" */
} access_desc;

static void describe(const access_desc *d, char *buf, size_t cap)
{
    if (d->side)
        snprintf(buf, cap, "copy of 0x%llx bytes from 0x%llx to 0x%llx (%s)",
                 (unsigned long long)d->n, (unsigned long long)d->src_va,
                 (unsigned long long)d->va, d->side);
    else
        snprintf(buf, cap, "%s of 0x%llx bytes at 0x%llx", d->op, (unsigned long long)d->n,
                 (unsigned long long)d->va);
}

static int raise_access_fault(cg_vas *vas, const cg_agent *who, cg_fault_kind kind,
                              uint64_t bad, const access_desc *d)
{
    char what[96];
    describe(d, what, sizeof(what));
    switch (kind) {
    case CG_FAULT_READ_ONLY: {
        const vas_map *m = map_containing(vas, bad);
        return cg_fault_post(vas->dev, who, kind, bad,
                             "%s: 0x%llx is in read-only mapping 0x%llx+0x%llx of mem %u", what,
                             (unsigned long long)bad, (unsigned long long)m->va,
                             (unsigned long long)m->size, m->mem->id);
    }
    case CG_FAULT_ADDR_RANGE:
        return cg_fault_post(vas->dev, who, kind, bad,
                             "%s: leaves the %u-bit address space at 0x%llx", what,
                             vas->va_bits, (unsigned long long)bad);
    default:
        return cg_fault_post(vas->dev, who, kind, bad, "%s: no mapping at 0x%llx", what,
                             (unsigned long long)bad);
    }
}

/* The first byte (address order) of the mapped parts of [va, va+n) that a CPU
 * cache line holds dirty. The range has been validated. */
static bool find_dirty(const cg_vas *vas, uint64_t va, uint64_t n, uint64_t *bad_va,
                       const vas_map **bad_map, uint64_t *bad_off, const cg__line **line)
{
    uint64_t end = va + n;
    for (size_t i = maps_upper(vas, va); i < vas->nmaps && vas->maps[i]->va < end; i++) {
        const vas_map *m = vas->maps[i];
        if (!cg__mem_coherency_on(m->mem))
            continue;
        uint64_t a = m->va > va ? m->va : va, b = min_u64(end, map_end(m));
        uint64_t off = m->offset + (a - m->va);
        if (cg__mem_find_dirty(m->mem, off, b - a, bad_off, line)) {
            *bad_va = a + (*bad_off - off);
            *bad_map = m;
            return true;
        }
    }
    return false;
}

/* Coherency checks of a validated GPU access: a read of dirty bytes sees old
 * memory (STALE_GPU_READ), a write of dirty bytes will be undone by the flush
 * (STALE_GPU_WRITE). Returns 0 to go ahead (no problem, or a warning). */
static int check_dirty(cg_vas *vas, const cg_agent *who, bool write, const access_desc *d,
                       uint64_t va, uint64_t n)
{
    uint64_t bad_va, bad_off;
    const vas_map *m;
    const cg__line *line;
    if (!find_dirty(vas, va, n, &bad_va, &m, &bad_off, &line))
        return 0;
    char what[96];
    describe(d, what, sizeof(what));
    if (write)
        return cg__coherency_raise(
            vas->dev, who, CG_FAULT_STALE_GPU_WRITE, bad_va,
            "%s: 0x%llx (mem %u +0x%llx, line 0x%llx) is dirty in the CPU cache from CPU "
            "write #%llu; its flush will undo this write",
            what, (unsigned long long)bad_va, m->mem->id, (unsigned long long)bad_off,
            (unsigned long long)(line->index * CG_CACHE_LINE), (unsigned long long)line->cpu_seq);
    return cg__coherency_raise(
        vas->dev, who, CG_FAULT_STALE_GPU_READ, bad_va,
        "%s: 0x%llx (mem %u +0x%llx, line 0x%llx) has CPU write #%llu still dirty in the CPU "
        "cache (missing flush); the GPU reads old memory",
        what, (unsigned long long)bad_va, m->mem->id, (unsigned long long)bad_off,
        (unsigned long long)(line->index * CG_CACHE_LINE), (unsigned long long)line->cpu_seq);
}

/* After a GPU write of [va, va+n): bytes CPU lines hold clean are now stale. */
static void mark_gpu_wrote(cg_vas *vas, uint64_t va, uint64_t n)
{
    uint64_t end = va + n;
    for (size_t i = maps_upper(vas, va); i < vas->nmaps && vas->maps[i]->va < end; i++) {
        const vas_map *m = vas->maps[i];
        if (!cg__mem_coherency_on(m->mem))
            continue;
        uint64_t a = m->va > va ? m->va : va, b = min_u64(end, map_end(m));
        cg__mem_gpu_wrote(m->mem, m->offset + (a - m->va), b - a, a);
    }
}

static void trace_sparse(cg_vas *vas, const cg_agent *who, uint64_t va, uint64_t n)
{
    if (!cg_trace_enabled(vas->dev))
        return;
    cg_trace_event ev = {
        .kind = CG_TRACE_SPARSE_WRITE,
        .family = who->family,
        .unit = who->unit,
        .channel = who->channel,
        .stream_addr = who->stream_addr,
        .gpu_addr = va,
        .size = n,
        .text = "write dropped in a sparse reservation",
    };
    cg_trace_emit(vas->dev, &ev);
}

/* ---- moving bytes (validated ranges) ----------------------------------- */

/* Bytes from va to the end of whatever is there: the mapping at index i if it
 * covers va (*m set), else the hole before it (*m NULL). */
static uint64_t segment(const cg_vas *vas, size_t i, uint64_t va, const vas_map **m)
{
    if (i < vas->nmaps && vas->maps[i]->va <= va) {
        *m = vas->maps[i];
        return map_end(*m) - va;
    }
    *m = NULL;
    return (i < vas->nmaps ? vas->maps[i]->va : vas->limit) - va;
}

static void do_read(const cg_vas *vas, uint64_t va, uint8_t *dst, uint64_t n)
{
    size_t i = maps_upper(vas, va);
    while (n) {
        const vas_map *m;
        uint64_t len = min_u64(n, segment(vas, i, va, &m));
        if (m) {
            cg__mem_read_raw(m->mem, m->offset + (va - m->va), dst, len);
            i++;
        } else {
            memset(dst, 0, (size_t)len); /* sparse hole */
        }
        va += len;
        dst += len;
        n -= len;
    }
}

/* Write src, or fill with `byte` when src is NULL. */
static int do_write(cg_vas *vas, uint64_t va, const uint8_t *src, uint8_t byte, uint64_t n,
                    const cg_agent *who)
{
    size_t i = maps_upper(vas, va);
    while (n) {
        const vas_map *m;
        uint64_t len = min_u64(n, segment(vas, i, va, &m));
        if (m) {
            uint64_t off = m->offset + (va - m->va);
            int rc = src ? cg__mem_write_raw(m->mem, off, src, len)
                         : cg__mem_fill_raw(m->mem, off, byte, len);
            if (rc)
                return rc;
            i++;
        } else {
            trace_sparse(vas, who, va, len);
        }
        va += len;
        if (src)
            src += len;
        n -= len;
    }
    return 0;
}

enum { OP_READ, OP_WRITE, OP_FILL };

static int gpu_access(cg_vas *vas, int op, uint64_t va, void *dst, const void *src,
                      uint8_t byte, size_t n, const cg_agent *who)
{
    const cg_agent *agent = who ? who : &gpu_agent;
    static const char *const names[] = {"read", "write", "fill"};
    access_desc d = {.op = names[op], .va = va, .n = n};
    bool write = op != OP_READ, lines = false;
    uint64_t bad;
    cg_fault_kind k = validate(vas, va, n, write, &bad, &lines);
    if (k != CG_FAULT_NONE)
        return raise_access_fault(vas, agent, k, bad, &d);
    if (!lines) {
        if (op == OP_READ) {
            do_read(vas, va, dst, n);
            return 0;
        }
        return do_write(vas, va, src, byte, n, agent);
    }
    /* CPU-cached lines are involved: check and move under the device lock,
     * so no CPU access changes the lines in between. */
    cg__lock(vas->dev);
    int rc = check_dirty(vas, agent, write, &d, va, n);
    if (rc == 0) {
        if (op == OP_READ)
            do_read(vas, va, dst, n);
        else
            rc = do_write(vas, va, src, byte, n, agent);
        if (write)
            mark_gpu_wrote(vas, va, n);
    }
    cg__unlock(vas->dev);
    return rc;
}

int cg_vas_read(cg_vas *vas, uint64_t va, void *dst, size_t n, const cg_agent *who)
{
    if (!vas || (!dst && n))
        return CG_ERR_INVAL;
    if (n == 0)
        return 0;
    uint8_t *p;
    if (n <= CG_PAGE_SIZE && span(vas, va, n, false, &p) == n) {
        memcpy(dst, p, n);
        return 0;
    }
    return gpu_access(vas, OP_READ, va, dst, NULL, 0, n, who);
}

int cg_vas_write(cg_vas *vas, uint64_t va, const void *src, size_t n, const cg_agent *who)
{
    if (!vas || (!src && n))
        return CG_ERR_INVAL;
    if (n == 0)
        return 0;
    uint8_t *p;
    if (n <= CG_PAGE_SIZE && span(vas, va, n, true, &p) == n) {
        memmove(p, src, n); /* src may be model memory: see cg_vas_write in mem.h */
        return 0;
    }
    return gpu_access(vas, OP_WRITE, va, NULL, src, 0, n, who);
}

int cg_vas_fill(cg_vas *vas, uint64_t va, uint8_t byte, size_t n, const cg_agent *who)
{
    if (!vas)
        return CG_ERR_INVAL;
    if (n == 0)
        return 0;
    uint8_t *p;
    /* Zero fills take the general path, which leaves absent pages absent. */
    if (byte && n <= CG_PAGE_SIZE && span(vas, va, n, true, &p) == n) {
        memset(p, byte, n);
        return 0;
    }
    return gpu_access(vas, OP_FILL, va, NULL, NULL, byte, n, who);
}

/* Could the copy's source and destination share host bytes (the same object
 * bytes reached through one mapping, or two mappings of one object)? Copies
 * over more than a few mappings are assumed to. */
#define COPY_SEGS 8
typedef struct phys_seg {
    const cg_mem *mem;
    uint64_t off, len;
} phys_seg;

static int copy_segments(const cg_vas *vas, uint64_t va, uint64_t n, phys_seg *out)
{
    int count = 0;
    uint64_t end = va + n;
    for (size_t i = maps_upper(vas, va); i < vas->nmaps && vas->maps[i]->va < end; i++) {
        const vas_map *m = vas->maps[i];
        if (count == COPY_SEGS)
            return -1;
        uint64_t a = m->va > va ? m->va : va, b = min_u64(end, map_end(m));
        out[count++] = (phys_seg){m->mem, m->offset + (a - m->va), b - a};
    }
    return count;
}

static bool copy_aliases(const cg_vas *vas, uint64_t dst_va, uint64_t src_va, uint64_t n)
{
    phys_seg s[COPY_SEGS], d[COPY_SEGS];
    int ns = copy_segments(vas, src_va, n, s), nd = copy_segments(vas, dst_va, n, d);
    if (ns < 0 || nd < 0)
        return true;
    for (int i = 0; i < ns; i++)
        for (int j = 0; j < nd; j++)
            if (s[i].mem == d[j].mem && s[i].off < d[j].off + d[j].len &&
                d[j].off < s[i].off + s[i].len)
                return true;
    return false;
}

/* Copy between ranges that share no host bytes, one piece per source or
 * destination page: absent source pages and sparse holes read as zero (and
 * zero into an absent page stays absent), sparse destinations drop bytes. */
static int do_copy(cg_vas *vas, uint64_t dst_va, uint64_t src_va, uint64_t n,
                   const cg_agent *who)
{
    size_t si = maps_upper(vas, src_va), di = maps_upper(vas, dst_va);
    uint64_t drop_va = 0, drop_len = 0;
    while (n) {
        while (si < vas->nmaps && map_end(vas->maps[si]) <= src_va)
            si++;
        while (di < vas->nmaps && map_end(vas->maps[di]) <= dst_va)
            di++;
        const vas_map *sm, *dm;
        uint64_t len = min_u64(n, segment(vas, si, src_va, &sm));
        len = min_u64(len, segment(vas, di, dst_va, &dm));
        if (sm)
            len = min_u64(len, CG_PAGE_SIZE - (src_va & CG__PAGE_MASK));
        if (dm)
            len = min_u64(len, CG_PAGE_SIZE - (dst_va & CG__PAGE_MASK));

        if (!dm) {
            if (drop_len && drop_va + drop_len != dst_va) {
                trace_sparse(vas, who, drop_va, drop_len);
                drop_len = 0;
            }
            if (!drop_len)
                drop_va = dst_va;
            drop_len += len;
        } else {
            uint64_t doff = dm->offset + (dst_va - dm->va);
            const uint8_t *sp = NULL;
            if (sm)
                sp = cg__mem_page(sm->mem, (sm->offset + (src_va - sm->va)) >> CG__PAGE_SHIFT);
            if (sp) {
                uint8_t *dp = cg__mem_page_alloc(dm->mem, doff >> CG__PAGE_SHIFT);
                if (!dp)
                    return CG_ERR_NOMEM;
                memcpy(dp + (doff & CG__PAGE_MASK), sp + (src_va & CG__PAGE_MASK), (size_t)len);
            } else {
                uint8_t *dp = cg__mem_page(dm->mem, doff >> CG__PAGE_SHIFT);
                if (dp)
                    memset(dp + (doff & CG__PAGE_MASK), 0, (size_t)len);
            }
        }
        src_va += len;
        dst_va += len;
        n -= len;
    }
    if (drop_len)
        trace_sparse(vas, who, drop_va, drop_len);
    return 0;
}

static int copy_checked(cg_vas *vas, uint64_t dst_va, uint64_t src_va, size_t n,
                        const cg_agent *agent, access_desc *d, bool src_lines, bool dst_lines);

int cg_vas_copy(cg_vas *vas, uint64_t dst_va, uint64_t src_va, size_t n, const cg_agent *who)
{
    if (!vas)
        return CG_ERR_INVAL;
    if (n == 0)
        return 0;
    uint8_t *sp, *dp;
    /* One backed page each side, plain memory: a memmove. (An absent source
     * page takes the general path, which keeps an absent destination absent
     * instead of allocating it to hold zeros.) */
    if (n <= CG_PAGE_SIZE && span(vas, src_va, n, false, &sp) == n &&
        sp - (src_va & CG__PAGE_MASK) != cg__zero_page &&
        span(vas, dst_va, n, true, &dp) == n) {
        memmove(dp, sp, n);
        return 0;
    }
    const cg_agent *agent = who ? who : &gpu_agent;
    access_desc d = {.op = "copy", .va = dst_va, .n = n, .src_va = src_va, .side = "source"};
    bool src_lines = false, dst_lines = false;
    uint64_t bad;
    cg_fault_kind k = validate(vas, src_va, n, false, &bad, &src_lines);
    if (k != CG_FAULT_NONE)
        return raise_access_fault(vas, agent, k, bad, &d);
    d.side = "destination";
    k = validate(vas, dst_va, n, true, &bad, &dst_lines);
    if (k != CG_FAULT_NONE)
        return raise_access_fault(vas, agent, k, bad, &d);
    bool locked = src_lines || dst_lines; /* as in gpu_access */
    if (locked)
        cg__lock(vas->dev);
    int rc = copy_checked(vas, dst_va, src_va, n, agent, &d, src_lines, dst_lines);
    if (locked)
        cg__unlock(vas->dev);
    return rc;
}

static int copy_checked(cg_vas *vas, uint64_t dst_va, uint64_t src_va, size_t n,
                        const cg_agent *agent, access_desc *d, bool src_lines, bool dst_lines)
{
    int rc;
    if (src_lines) {
        d->side = "source";
        if ((rc = check_dirty(vas, agent, false, d, src_va, n)) != 0)
            return rc;
    }
    if (dst_lines) {
        d->side = "destination";
        if ((rc = check_dirty(vas, agent, true, d, dst_va, n)) != 0)
            return rc;
    }

    if (copy_aliases(vas, dst_va, src_va, n)) {
        /* Source and destination share bytes: go through a bounce buffer,
         * which is what the API promises (memmove semantics and more, for
         * two mappings of one object). */
        uint8_t *tmp = cg__alloc(vas->dev, n);
        if (!tmp)
            return CG_ERR_NOMEM;
        do_read(vas, src_va, tmp, n);
        rc = do_write(vas, dst_va, tmp, 0, n, agent);
        cg__free(vas->dev, tmp, n);
    } else {
        rc = do_copy(vas, dst_va, src_va, n, agent);
    }
    if (dst_lines)
        mark_gpu_wrote(vas, dst_va, n);
    return rc;
}

/* Little-endian values of n (4 or 8) bytes: one load or store on
 * little-endian hosts, bytewise elsewhere. */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define HOST_LE 1
#else
#define HOST_LE 0
#endif

static inline uint64_t load_le(const uint8_t *b, unsigned n)
{
    if (HOST_LE && n == 4) {
        uint32_t v;
        memcpy(&v, b, 4);
        return v;
    }
    if (HOST_LE && n == 8) {
        uint64_t v;
        memcpy(&v, b, 8);
        return v;
    }
    uint64_t v = 0;
    for (unsigned i = 0; i < n; i++)
        v |= (uint64_t)b[i] << (8 * i);
    return v;
}

static inline void store_le(uint8_t *b, uint64_t v, unsigned n)
{
    if (HOST_LE && n == 4) {
        uint32_t w = (uint32_t)v;
        memcpy(b, &w, 4);
        return;
    }
    if (HOST_LE && n == 8) {
        memcpy(b, &v, 8);
        return;
    }
    for (unsigned i = 0; i < n; i++)
        b[i] = (uint8_t)(v >> (8 * i));
}

/* The fixed-size accessors load and store straight through the span pointer
 * when the value lies in one page (a constant-size access the compiler turns
 * into one instruction), and take the general path otherwise. */
static inline int read_n(cg_vas *vas, uint64_t va, uint64_t *v, unsigned n, const cg_agent *who)
{
    uint8_t *p, b[8];
    if (!vas || !v)
        return CG_ERR_INVAL;
    if (span(vas, va, n, false, &p) == n) {
        *v = load_le(p, n);
        return 0;
    }
    int rc = gpu_access(vas, OP_READ, va, b, NULL, 0, n, who);
    if (rc == 0)
        *v = load_le(b, n);
    return rc;
}

static inline int write_n(cg_vas *vas, uint64_t va, uint64_t v, unsigned n, const cg_agent *who)
{
    uint8_t *p, b[8];
    if (!vas)
        return CG_ERR_INVAL;
    if (span(vas, va, n, true, &p) == n) {
        store_le(p, v, n);
        return 0;
    }
    store_le(b, v, n);
    return gpu_access(vas, OP_WRITE, va, NULL, b, 0, n, who);
}

int cg_vas_read32(cg_vas *vas, uint64_t va, uint32_t *v, const cg_agent *who)
{
    uint64_t w;
    if (!v)
        return CG_ERR_INVAL;
    int rc = read_n(vas, va, &w, 4, who);
    if (rc == 0)
        *v = (uint32_t)w;
    return rc;
}

int cg_vas_read64(cg_vas *vas, uint64_t va, uint64_t *v, const cg_agent *who)
{
    return read_n(vas, va, v, 8, who);
}

int cg_vas_write32(cg_vas *vas, uint64_t va, uint32_t v, const cg_agent *who)
{
    return write_n(vas, va, v, 4, who);
}

int cg_vas_write64(cg_vas *vas, uint64_t va, uint64_t v, const cg_agent *who)
{
    return write_n(vas, va, v, 8, who);
}

/* ---- CPU access through GPU mappings ----------------------------------- */

/* [va, va+n) must be covered by mappings without a gap (sparse holes have no
 * memory the CPU could reach). Returns the first mapping's index or NOENT. */
static int cpu_range(const cg_vas *vas, uint64_t va, uint64_t n, size_t *first)
{
    if (va >= vas->limit || n > vas->limit - va)
        return CG_ERR_NOENT;
    size_t i = maps_upper(vas, va);
    *first = i;
    for (uint64_t cur = va; cur < va + n; i++) {
        if (i >= vas->nmaps || vas->maps[i]->va > cur)
            return CG_ERR_NOENT;
        cur = map_end(vas->maps[i]);
    }
    return 0;
}

/* One mapping's part of a CPU access, in order. */
typedef struct cpu_piece {
    const vas_map *m;
    uint64_t off, len; /* in the object */
} cpu_piece;

static cpu_piece cpu_piece_at(const cg_vas *vas, size_t i, uint64_t va, uint64_t end)
{
    const vas_map *m = vas->maps[i];
    uint64_t b = min_u64(end, map_end(m));
    return (cpu_piece){m, m->offset + (va - m->va), b - va};
}

static bool cpu_cached(const cg_vas *vas, const vas_map *m)
{
    return (m->flags & CG_MAP_CPU_CACHED) && vas->dev->coherency != CG_COHERENCY_OFF;
}

static int cpu_read(cg_vas *vas, uint64_t va, void *dst, size_t n)
{
    if (!vas || (!dst && n))
        return CG_ERR_INVAL;
    if (n == 0)
        return 0;
    size_t first;
    int rc = cpu_range(vas, va, n, &first);
    if (rc)
        return rc;
    uint64_t end = va + n;
    /* Stale check over every cached part first: one fault, nothing read
     * under the FAULT policy. */
    size_t i = first;
    for (uint64_t cur = va; cur < end; i++) {
        cpu_piece p = cpu_piece_at(vas, i, cur, end);
        uint64_t at;
        const cg__line *line;
        if (cpu_cached(vas, p.m) && cg__mem_find_stale(p.m->mem, p.off, p.len, &at, &line)) {
            rc = cg__mem_report_stale_cpu_read(p.m->mem, p.off, p.len, at, line);
            if (rc)
                return rc;
            break;
        }
        cur += p.len;
    }
    uint8_t *out = dst;
    i = first;
    for (uint64_t cur = va; cur < end; i++) {
        cpu_piece p = cpu_piece_at(vas, i, cur, end);
        if (cpu_cached(vas, p.m)) {
            if ((rc = cg__mem_cached_read(p.m->mem, p.off, out, p.len)) != 0)
                return rc;
        } else {
            cg__mem_read_raw(p.m->mem, p.off, out, p.len);
        }
        out += p.len;
        cur += p.len;
    }
    return 0;
}

static int cpu_write(cg_vas *vas, uint64_t va, const void *src, size_t n)
{
    if (!vas || (!src && n))
        return CG_ERR_INVAL;
    if (n == 0)
        return 0;
    size_t i;
    int rc = cpu_range(vas, va, n, &i);
    if (rc)
        return rc;
    uint64_t seq = ++vas->dev->cpu_write_seq, end = va + n;
    const uint8_t *in = src;
    for (uint64_t cur = va; cur < end; i++) {
        cpu_piece p = cpu_piece_at(vas, i, cur, end);
        rc = cpu_cached(vas, p.m) ? cg__mem_cached_write(p.m->mem, p.off, in, p.len, seq)
                                  : cg__mem_write_raw(p.m->mem, p.off, in, p.len);
        if (rc)
            return rc;
        in += p.len;
        cur += p.len;
    }
    return 0;
}

/* Cache maintenance by address works on whatever lines the CPU holds for the
 * memory behind the range, whichever view cached them. */
static int cpu_writeback(cg_vas *vas, uint64_t va, size_t n, bool drop)
{
    if (!vas)
        return CG_ERR_INVAL;
    if (n == 0)
        return 0;
    size_t i;
    int rc = cpu_range(vas, va, n, &i);
    if (rc)
        return rc;
    uint64_t end = va + n;
    for (uint64_t cur = va; cur < end; i++) {
        cpu_piece p = cpu_piece_at(vas, i, cur, end);
        if ((rc = cg__mem_lines_writeback(p.m->mem, p.off, p.len, drop)) != 0)
            return rc;
        cur += p.len;
    }
    return 0;
}

/* The CPU side of the cache model runs under the device lock whenever the
 * device models the cache (the line tables are shared with GPU accesses in
 * other threads); with coherency off no line exists and nothing is shared. */
static bool cpu_lock(cg_vas *vas)
{
    if (!vas || vas->dev->coherency == CG_COHERENCY_OFF)
        return false;
    cg__lock(vas->dev);
    return true;
}

static void cpu_unlock(cg_vas *vas, bool locked)
{
    if (locked)
        cg__unlock(vas->dev);
}

int cg_vas_cpu_read(cg_vas *vas, uint64_t va, void *dst, size_t n)
{
    bool locked = cpu_lock(vas);
    int rc = cpu_read(vas, va, dst, n);
    cpu_unlock(vas, locked);
    return rc;
}

int cg_vas_cpu_write(cg_vas *vas, uint64_t va, const void *src, size_t n)
{
    bool locked = cpu_lock(vas);
    int rc = cpu_write(vas, va, src, n);
    cpu_unlock(vas, locked);
    return rc;
}

int cg_vas_cpu_flush(cg_vas *vas, uint64_t va, size_t n)
{
    bool locked = cpu_lock(vas);
    int rc = cpu_writeback(vas, va, n, false);
    cpu_unlock(vas, locked);
    return rc;
}

int cg_vas_cpu_invalidate(cg_vas *vas, uint64_t va, size_t n)
{
    bool locked = cpu_lock(vas);
    int rc = cpu_writeback(vas, va, n, true);
    cpu_unlock(vas, locked);
    return rc;
}
