/* cmdgpu core: memory objects (lazy page backing, ids, references) and the
 * per-object CPU-cache line model. Address spaces are in vas.c. */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS, MAP_POPULATE */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "mem_internal.h"

const uint8_t cg__zero_page[CG_PAGE_SIZE];

/* ---- page backing ------------------------------------------------------- */

/* Every object page and directory node of a device comes from one pool of
 * host regions the device maps itself (under the device lock):
 *
 * - The first region is POOL_FIRST pages, made present with MAP_POPULATE;
 *   every later one is 2 MiB, aligned to 2 MiB and advised MADV_HUGEPAGE,
 *   so the kernel backs it with one huge page on first touch. On the
 *   virtual machines this project is measured on, the first write to each
 *   fresh 4 KiB page costs 10-20 us even after MAP_POPULATE (the host's own
 *   page tables fault behind the guest's back), against 0.15-0.3 ms for a
 *   whole 2 MiB huge page; the first triangle's frame buffer alone is 300
 *   pages (docs/performance.md, "Huge pages for model memory"). Without
 *   transparent huge pages the region is faulted a 4 KiB page at a time,
 *   only where used.
 * - Pages of destroyed objects go on a free list and are zeroed again when
 *   reused, so a device that creates and drops objects reuses its memory.
 * - Regions go with the device (cg__mem_pool_teardown). Host accounting
 *   stays per page: cg_device_host_bytes counts pages handed out.
 * - If mmap fails (vm.max_map_count, address space) a region comes from the
 *   heap instead. */
enum { POOL_FIRST = 8, REGION_BYTES = 2u << 20 };

/* Under AddressSanitizer each page is followed by a poisoned guard page, so
 * an access past a page's end is reported as a calloc'd page's redzone
 * would report it (regions hold half as many pages), and pages on the free
 * list are poisoned (a use after the object's end is reported). */
#ifdef CG_MEM_ASAN
#include <sanitizer/asan_interface.h>
enum { PAGE_STRIDE = 2 };
#define GUARD_POISON(p, n) ASAN_POISON_MEMORY_REGION(p, n)
#define GUARD_UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION(p, n)
#else
enum { PAGE_STRIDE = 1 };
#define GUARD_POISON(p, n) ((void)(p), (void)(n))
#define GUARD_UNPOISON(p, n) ((void)(p), (void)(n))
#endif

bool cg__mem_no_mmap;

struct cg__region {
    struct cg__region *next;
    void *map;    /* what to unmap or free */
    size_t bytes; /* of map */
    bool heap;    /* from aligned_alloc (mmap failed) */
};

void *cg__map_huge(size_t bytes)
{
    /* 2 MiB aligned: map twice the size, give back the ends */
    size_t span = bytes + REGION_BYTES;
    uint8_t *q = mmap(NULL, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (q == MAP_FAILED)
        return NULL;
    uintptr_t a = ((uintptr_t)q + REGION_BYTES - 1) & ~(uintptr_t)(REGION_BYTES - 1);
    uint8_t *base = (uint8_t *)a;
    if (base > q)
        munmap(q, (size_t)(base - q));
    if (q + span > base + bytes)
        munmap(base + bytes, (size_t)(q + span - (base + bytes)));
#ifdef MADV_HUGEPAGE
    (void)madvise(base, bytes, MADV_HUGEPAGE); /* a hint: failure is harmless */
#endif
    return base;
}

void cg__unmap_huge(void *base, size_t bytes)
{
    if (base)
        munmap(base, bytes);
}

/* A new region of `bytes` (a multiple of the page size) at pool->bump. */
static bool region_new(cg_device *dev, size_t bytes, bool huge)
{
    cg__region *r = malloc(sizeof(*r));
    if (!r)
        return false;
    uint8_t *base = MAP_FAILED;
    r->heap = false;
    if (cg__mem_no_mmap) {
        /* tests: as if mmap had failed */
    } else if (huge) {
        uint8_t *h = cg__map_huge(bytes);
        if (h)
            base = h;
    } else {
        base = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
                    MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
    }
    if (base == MAP_FAILED) {
        base = aligned_alloc(CG_PAGE_SIZE, bytes);
        if (!base) {
            free(r);
            return false;
        }
        memset(base, 0, bytes);
        r->heap = true;
    }
    GUARD_POISON(base, bytes);
    r->map = base;
    r->bytes = bytes;
    r->next = dev->pool.regions;
    dev->pool.regions = r;
    dev->pool.bump = base;
    dev->pool.bump_left = bytes / (PAGE_STRIDE * CG_PAGE_SIZE);
    return true;
}

/* A zeroed page of dev's pool, under the device lock; NULL when the host is
 * out of memory. */
static void *page_new(cg_device *dev)
{
    cg__pool *pool = &dev->pool;
    void *p;
    if (pool->nfree) {
        p = pool->free[--pool->nfree];
        GUARD_UNPOISON(p, CG_PAGE_SIZE);
        memset(p, 0, CG_PAGE_SIZE);
    } else {
        if (!pool->bump_left) {
            bool first = !pool->regions;
            if (!region_new(dev, first ? (size_t)POOL_FIRST * PAGE_STRIDE * CG_PAGE_SIZE
                                       : REGION_BYTES,
                            !first))
                return NULL;
        }
        p = pool->bump;
        GUARD_UNPOISON(p, CG_PAGE_SIZE);
        pool->bump += PAGE_STRIDE * CG_PAGE_SIZE;
        pool->bump_left--;
    }
    cg__host_account(dev, CG_PAGE_SIZE);
    return p;
}

/* Give page p back to dev's pool (under the device lock). If the free list
 * cannot grow the page stays unused until the device goes. */
static void page_put(cg_device *dev, void *p)
{
    cg__pool *pool = &dev->pool;
    cg__host_account(dev, -(long long)CG_PAGE_SIZE);
    if (pool->nfree == pool->free_cap) {
        size_t ncap = pool->free_cap ? pool->free_cap * 2 : 64;
        void **nf = realloc(pool->free, ncap * sizeof(*nf));
        if (!nf)
            return;
        pool->free = nf;
        pool->free_cap = ncap;
    }
    GUARD_POISON(p, CG_PAGE_SIZE);
    pool->free[pool->nfree++] = p;
}

void cg__mem_pool_teardown(cg_device *dev)
{
    for (cg__region *r = dev->pool.regions, *next; r; r = next) {
        next = r->next;
        GUARD_UNPOISON(r->map, r->bytes);
        if (r->heap)
            free(r->map);
        else
            munmap(r->map, r->bytes);
        free(r);
    }
    free(dev->pool.free);
    memset(&dev->pool, 0, sizeof(dev->pool));
}

/* ---- page directory ---------------------------------------------------- */

/* Fill an absent directory slot or page under the device lock: another
 * thread may have filled it meanwhile (then that one is used). Published
 * with a release store for cg__mem_page's lock-free readers. */
static void *slot_fill(cg_mem *m, void **slot, bool page)
{
    void *e = __atomic_load_n(slot, __ATOMIC_ACQUIRE);
    if (e)
        return e;
    cg__lock(m->dev);
    e = __atomic_load_n(slot, __ATOMIC_RELAXED);
    if (!e && (e = page_new(m->dev)) != NULL) {
        __atomic_store_n(slot, e, __ATOMIC_RELEASE);
        if (page)
            m->resident++;
    }
    cg__unlock(m->dev);
    return e;
}

uint8_t *cg__mem_page_alloc(cg_mem *m, uint64_t pidx)
{
    unsigned shift = m->top_shift;
    void **slot = &m->root[pidx >> shift];
    /* Walk down, creating missing directory nodes; the last slot holds the page. */
    while (shift) {
        void *node = slot_fill(m, slot, false);
        if (!node)
            return NULL;
        shift -= CG__DIR_SHIFT;
        slot = &((void **)node)[(pidx >> shift) & (CG__DIR_FANOUT - 1)];
    }
    return slot_fill(m, slot, true);
}

/* Give back a directory subtree's pages and inner nodes to the pool (under
 * the device lock): `node` has `len` entries that are pages when shift is
 * 0, else nodes one level down. The root itself is the caller's. Pages of
 * an external object are the caller's: only the nodes go back. */
static void dir_put(cg_device *dev, void **node, size_t len, unsigned shift, bool pages)
{
    for (size_t i = 0; i < len; i++) {
        if (!node[i])
            continue;
        if (shift)
            dir_put(dev, (void **)node[i], CG__DIR_FANOUT, shift - CG__DIR_SHIFT, pages);
        if (shift || pages)
            page_put(dev, node[i]);
    }
}

void cg__mem_read_raw(const cg_mem *m, uint64_t off, void *dst, uint64_t n)
{
    uint8_t *out = dst;
    while (n) {
        uint64_t in_page = off & CG__PAGE_MASK;
        uint64_t len = CG_PAGE_SIZE - in_page;
        if (len > n)
            len = n;
        const uint8_t *page = cg__mem_page(m, off >> CG__PAGE_SHIFT);
        if (page)
            memcpy(out, page + in_page, (size_t)len);
        else
            memset(out, 0, (size_t)len);
        out += len;
        off += len;
        n -= len;
    }
}

const uint8_t *cg__mem_span(const cg_mem *m, uint64_t off, size_t n, uint8_t *scratch)
{
    uint64_t in_page = off & CG__PAGE_MASK;
    if (in_page + n > CG_PAGE_SIZE) {
        cg__mem_read_raw(m, off, scratch, n);
        return scratch;
    }
    const uint8_t *page = cg__mem_page(m, off >> CG__PAGE_SHIFT);
    return (page ? page : cg__zero_page) + in_page;
}

int cg__mem_write_raw(cg_mem *m, uint64_t off, const void *src, uint64_t n)
{
    const uint8_t *in = src;
    while (n) {
        uint64_t in_page = off & CG__PAGE_MASK;
        uint64_t len = CG_PAGE_SIZE - in_page;
        if (len > n)
            len = n;
        uint8_t *page = cg__mem_page_alloc(m, off >> CG__PAGE_SHIFT);
        if (!page)
            return CG_ERR_NOMEM;
        memmove(page + in_page, in, (size_t)len); /* `in` may alias this page */
        in += len;
        off += len;
        n -= len;
    }
    return 0;
}

int cg__mem_fill_raw(cg_mem *m, uint64_t off, uint8_t byte, uint64_t n)
{
    while (n) {
        uint64_t in_page = off & CG__PAGE_MASK;
        uint64_t len = CG_PAGE_SIZE - in_page;
        if (len > n)
            len = n;
        uint64_t pidx = off >> CG__PAGE_SHIFT;
        uint8_t *page = byte ? cg__mem_page_alloc(m, pidx) : cg__mem_page(m, pidx);
        if (byte && !page)
            return CG_ERR_NOMEM;
        if (page)
            memset(page + in_page, byte, (size_t)len);
        off += len;
        n -= len;
    }
    return 0;
}

/* ---- objects ----------------------------------------------------------- */

static void lines_free(cg_mem *m);

static void mem_destroy(cg_mem *m)
{
    cg_device *dev = m->dev;
    cg__lock(dev);
    if (m->id < dev->mems_cap && dev->mems[m->id] == m)
        dev->mems[m->id] = NULL;
    dir_put(dev, m->root, m->root_len, m->top_shift, !m->host);
    cg__unlock(dev);
    cg__free(dev, m->root, m->root_len * sizeof(void *));
    lines_free(m);
    if (m->release)
        m->release(m->release_user);
    cg__free(dev, m, sizeof(*m));
}

static int mem_create_locked(cg_device *dev, uint64_t size, uint32_t flags, cg_mem **out);

int cg_mem_create(cg_device *dev, uint64_t size, uint32_t flags, cg_mem **out)
{
    if (out)
        *out = NULL;
    if (!dev || !out || size == 0 || size > CG__MEM_MAX_SIZE || (flags & ~CG_MEM_CPU_CACHED))
        return CG_ERR_INVAL;
    cg__lock(dev);
    int rc = mem_create_locked(dev, size, flags, out);
    cg__unlock(dev);
    return rc;
}

static int mem_create_locked(cg_device *dev, uint64_t size, uint32_t flags, cg_mem **out)
{
    if (dev->mem_next_id == 0) /* 2^32 - 1 objects made: ids would repeat */
        return CG_ERR_NOSPACE;
    uint32_t id = dev->mem_next_id;
    if (id >= dev->mems_cap) {
        size_t ncap = dev->mems_cap ? dev->mems_cap * 2 : 16;
        while (ncap <= id)
            ncap *= 2;
        cg_mem **nm = cg__realloc(dev, dev->mems, dev->mems_cap * sizeof(*nm),
                                  ncap * sizeof(*nm));
        if (!nm)
            return CG_ERR_NOMEM;
        dev->mems = nm;
        dev->mems_cap = ncap;
    }

    cg_mem *m = cg__alloc(dev, sizeof(*m));
    if (!m)
        return CG_ERR_NOMEM;
    m->dev = dev;
    m->size = (size + CG__PAGE_MASK) & ~CG__PAGE_MASK;
    m->npages = m->size >> CG__PAGE_SHIFT;
    m->id = id;
    m->flags = flags;
    m->refs = 1;
    /* Directory depth: the fewest 512-way levels that cover every page; the
     * root holds only the entries the object needs. */
    uint64_t per_root_entry = 1;
    while (per_root_entry * CG__DIR_FANOUT < m->npages) {
        per_root_entry *= CG__DIR_FANOUT;
        m->top_shift += CG__DIR_SHIFT;
    }
    m->root_len = (size_t)((m->npages + per_root_entry - 1) / per_root_entry);
    m->root = cg__alloc(dev, m->root_len * sizeof(void *));
    if (!m->root) {
        cg__free(dev, m, sizeof(*m));
        return CG_ERR_NOMEM;
    }
    dev->mems[id] = m;
    dev->mem_next_id++;
    *out = m;
    return 0;
}

int cg_mem_create_external(cg_device *dev, void *host, uint64_t size, uint32_t flags,
                           void (*release)(void *user), void *user, cg_mem **out)
{
    if (out)
        *out = NULL;
    if (!dev || !out || !host || size == 0 || (size & CG__PAGE_MASK) ||
        ((uintptr_t)host & CG__PAGE_MASK) || size > CG__MEM_MAX_SIZE ||
        (flags & ~CG_MEM_CPU_CACHED))
        return CG_ERR_INVAL;
    cg__lock(dev);
    cg_mem *m = NULL;
    int rc = mem_create_locked(dev, size, flags, &m);
    cg__unlock(dev);
    if (rc)
        return rc;
    /* Every directory slot points into the caller's pages from the start:
     * the engines' lock-free path reads them as it reads pool pages. */
    m->host = host;
    for (uint64_t p = 0; p < m->npages; p++) {
        unsigned shift = m->top_shift;
        void **slot = &m->root[p >> shift];
        while (shift && slot) {
            void *node = slot_fill(m, slot, false);
            shift -= CG__DIR_SHIFT;
            slot = node ? &((void **)node)[(p >> shift) & (CG__DIR_FANOUT - 1)] : NULL;
        }
        if (!slot) {
            mem_destroy(m);
            return CG_ERR_NOMEM;
        }
        __atomic_store_n(slot, (void *)(m->host + p * CG_PAGE_SIZE), __ATOMIC_RELEASE);
    }
    m->resident = m->npages;
    m->release = release;
    m->release_user = user;
    *out = m;
    return 0;
}

void cg_mem_ref(cg_mem *m)
{
    if (m)
        atomic_fetch_add_explicit(&m->refs, 1, memory_order_relaxed);
}

void cg_mem_unref(cg_mem *m)
{
    if (m && atomic_fetch_sub_explicit(&m->refs, 1, memory_order_acq_rel) == 1)
        mem_destroy(m);
}

uint64_t cg_mem_size(const cg_mem *m) { return m ? m->size : 0; }
uint32_t cg_mem_id(const cg_mem *m) { return m ? m->id : 0; }
cg_device *cg_mem_device(const cg_mem *m) { return m ? m->dev : NULL; }

uint64_t cg_mem_resident_bytes(const cg_mem *m)
{
    return m ? m->resident * CG_PAGE_SIZE : 0;
}

cg_mem *cg_mem_lookup(cg_device *dev, uint32_t id)
{
    if (!dev || id == 0)
        return NULL;
    cg__lock(dev);
    cg_mem *m = id < dev->mems_cap ? dev->mems[id] : NULL;
    cg__unlock(dev);
    return m;
}

void cg_mem_set_cpu_cached(cg_mem *m, bool cached)
{
    if (!m)
        return;
    /* Lines already held stay until flushed or invalidated, as a cache keeps
     * its lines when a page's attribute changes. */
    if (cached)
        m->flags |= CG_MEM_CPU_CACHED;
    else
        m->flags &= ~(uint32_t)CG_MEM_CPU_CACHED;
}

void cg__mem_teardown(cg_device *dev)
{
    /* Objects the user still holds references to: free them regardless (the
     * address spaces, which also held references, are already gone). */
    for (size_t id = 0; id < dev->mems_cap; id++)
        if (dev->mems[id])
            mem_destroy(dev->mems[id]);
    cg__free(dev, dev->mems, dev->mems_cap * sizeof(*dev->mems));
    dev->mems = NULL;
    dev->mems_cap = 0;
}

static int range_ok(const cg_mem *m, uint64_t off, uint64_t n)
{
    return off <= m->size && n <= m->size - off;
}

int cg_mem_read(cg_mem *m, uint64_t off, void *dst, size_t n)
{
    if (!m || (!dst && n))
        return CG_ERR_INVAL;
    if (!range_ok(m, off, n))
        return CG_ERR_RANGE;
    cg__mem_read_raw(m, off, dst, n);
    return 0;
}

int cg_mem_write(cg_mem *m, uint64_t off, const void *src, size_t n)
{
    if (!m || (!src && n))
        return CG_ERR_INVAL;
    if (!range_ok(m, off, n))
        return CG_ERR_RANGE;
    return cg__mem_write_raw(m, off, src, n);
}

int cg_mem_fill(cg_mem *m, uint64_t off, uint8_t byte, size_t n)
{
    if (!m)
        return CG_ERR_INVAL;
    if (!range_ok(m, off, n))
        return CG_ERR_RANGE;
    return cg__mem_fill_raw(m, off, byte, n);
}

/* ---- the line table ---------------------------------------------------- */

static size_t line_hash(uint64_t index, size_t cap)
{
    uint64_t h = index * 0x9E3779B97F4A7C15ull;
    return (size_t)(h ^ (h >> 29)) & (cap - 1);
}

static cg__line *line_find(const cg_mem *m, uint64_t index)
{
    if (!m->lines_cap)
        return NULL;
    size_t mask = m->lines_cap - 1;
    for (size_t i = line_hash(index, m->lines_cap);; i = (i + 1) & mask) {
        cg__line *s = &m->lines[i];
        if (s->state == CG__LINE_EMPTY)
            return NULL;
        if (s->state == CG__LINE_USED && s->index == index)
            return s;
    }
}

/* Place a line record in a table known to have a free slot for it. */
static cg__line *line_slot(cg__line *tab, size_t cap, uint64_t index)
{
    size_t mask = cap - 1;
    for (size_t i = line_hash(index, cap);; i = (i + 1) & mask)
        if (tab[i].state != CG__LINE_USED)
            return &tab[i];
}

/* Add a new (absent) line; the table keeps at most half its slots used or
 * tombstoned so probes stay short and always end at an empty slot. Returns a
 * zeroed record whose data the caller fills, or NULL when out of memory. */
static cg__line *line_insert(cg_mem *m, uint64_t index)
{
    if ((m->nlines + m->ntombs + 1) * 2 > m->lines_cap) {
        size_t ncap = 16;
        while (ncap < (m->nlines + 1) * 4)
            ncap *= 2;
        cg__line *tab = cg__alloc(m->dev, ncap * sizeof(*tab));
        if (!tab)
            return NULL;
        for (size_t i = 0; i < m->lines_cap; i++)
            if (m->lines[i].state == CG__LINE_USED)
                *line_slot(tab, ncap, m->lines[i].index) = m->lines[i];
        cg__free(m->dev, m->lines, m->lines_cap * sizeof(*m->lines));
        m->lines = tab;
        m->lines_cap = ncap;
        m->ntombs = 0;
    }
    cg__line *s = line_slot(m->lines, m->lines_cap, index);
    if (s->state == CG__LINE_TOMB)
        m->ntombs--;
    memset(s, 0, sizeof(*s));
    s->state = CG__LINE_USED;
    s->index = index;
    m->nlines++;
    return s;
}

/* Forget a line. Tombstones keep other records in place, so a table scan may
 * remove lines as it goes; lines_trim frees the table once it is empty. */
static void line_remove(cg_mem *m, cg__line *s)
{
    if (s->dirty)
        m->ndirty--;
    s->state = CG__LINE_TOMB;
    m->nlines--;
    m->ntombs++;
}

static void lines_free(cg_mem *m)
{
    cg__free(m->dev, m->lines, m->lines_cap * sizeof(*m->lines));
    m->lines = NULL;
    m->lines_cap = m->ntombs = m->ndirty = 0;
    m->nlines = 0;
}

static void lines_trim(cg_mem *m)
{
    if (m->nlines == 0 && m->lines)
        lines_free(m);
}

/* Visit the lines held for line indices [lo, hi]: probe each index when the
 * range is small, else scan the table (a 16 MiB GPU read of an object with two
 * cached lines must not probe 262144 indices). Order is unspecified. */
typedef struct line_iter {
    const cg_mem *m;
    uint64_t lo, hi, next;
    bool scan;
    size_t pos;
} line_iter;

static void line_iter_init(line_iter *it, const cg_mem *m, uint64_t off, uint64_t n)
{
    it->m = m;
    it->lo = off / CG_CACHE_LINE;
    it->hi = (off + n - 1) / CG_CACHE_LINE;
    it->next = it->lo;
    it->scan = it->hi - it->lo >= m->lines_cap;
    it->pos = 0;
}

static cg__line *line_iter_next(line_iter *it)
{
    const cg_mem *m = it->m;
    if (it->scan) {
        while (it->pos < m->lines_cap) {
            cg__line *s = &m->lines[it->pos++];
            if (s->state == CG__LINE_USED && s->index >= it->lo && s->index <= it->hi)
                return s;
        }
        return NULL;
    }
    while (it->next <= it->hi) {
        cg__line *s = line_find(m, it->next++);
        if (s)
            return s;
    }
    return NULL;
}

/* Bytes of line `index` that [off, off+n) covers, as a mask (bit i = byte i). */
static uint64_t line_mask(uint64_t index, uint64_t off, uint64_t n)
{
    uint64_t base = index * CG_CACHE_LINE;
    uint64_t a = off > base ? off - base : 0;
    uint64_t end = off + n;
    uint64_t b = end - base < CG_CACHE_LINE ? end - base : CG_CACHE_LINE;
    uint64_t upto_b = b == 64 ? ~0ull : (1ull << b) - 1;
    return upto_b & ~((1ull << a) - 1);
}

static unsigned lowest_bit(uint64_t v) /* v != 0 */
{
#if defined(__GNUC__)
    return (unsigned)__builtin_ctzll(v);
#else
    unsigned i = 0;
    while (!(v & 1)) {
        v >>= 1;
        i++;
    }
    return i;
#endif
}

/* Lowest byte in [off, off+n) whose bit is set in the mask selected by `stale`. */
static bool find_marked(const cg_mem *m, uint64_t off, uint64_t n, bool stale,
                        uint64_t *first, const cg__line **line)
{
    if (!m->nlines || n == 0)
        return false;
    bool found = false;
    line_iter it;
    line_iter_init(&it, m, off, n);
    for (cg__line *s; (s = line_iter_next(&it)) != NULL;) {
        uint64_t hit = (stale ? s->stale : s->dirty) & line_mask(s->index, off, n);
        if (!hit)
            continue;
        uint64_t at = s->index * CG_CACHE_LINE + lowest_bit(hit);
        if (!found || at < *first) {
            *first = at;
            *line = s;
            found = true;
        }
    }
    return found;
}

bool cg__mem_find_dirty(const cg_mem *m, uint64_t off, uint64_t n, uint64_t *first,
                        const cg__line **line)
{
    return find_marked(m, off, n, false, first, line);
}

bool cg__mem_find_stale(const cg_mem *m, uint64_t off, uint64_t n, uint64_t *first,
                        const cg__line **line)
{
    return find_marked(m, off, n, true, first, line);
}

void cg__mem_gpu_wrote(cg_mem *m, uint64_t off, uint64_t n, uint64_t va)
{
    if (!m->nlines || n == 0)
        return;
    line_iter it;
    line_iter_init(&it, m, off, n);
    for (cg__line *s; (s = line_iter_next(&it)) != NULL;) {
        /* Dirty bytes keep the CPU's value (the flush will write it over the
         * GPU's); the others now differ from what the CPU holds. */
        uint64_t newly = line_mask(s->index, off, n) & ~s->dirty;
        if (!newly)
            continue;
        s->stale |= newly;
        s->gpu_va = va + (s->index * CG_CACHE_LINE + lowest_bit(newly) - off);
    }
}

/* The line for `index`, filled from memory if the CPU did not hold it. */
static cg__line *line_get(cg_mem *m, uint64_t index)
{
    cg__line *s = line_find(m, index);
    if (s)
        return s;
    s = line_insert(m, index);
    if (s)
        cg__mem_read_raw(m, index * CG_CACHE_LINE, s->data, CG_CACHE_LINE);
    return s;
}

int cg__mem_cached_read(cg_mem *m, uint64_t off, void *dst, uint64_t n)
{
    uint8_t *out = dst;
    while (n) {
        uint64_t in_line = off % CG_CACHE_LINE;
        uint64_t len = CG_CACHE_LINE - in_line;
        if (len > n)
            len = n;
        cg__line *s = line_get(m, off / CG_CACHE_LINE);
        if (!s)
            return CG_ERR_NOMEM;
        memcpy(out, s->data + in_line, (size_t)len);
        out += len;
        off += len;
        n -= len;
    }
    return 0;
}

int cg__mem_cached_write(cg_mem *m, uint64_t off, const void *src, uint64_t n, uint64_t seq)
{
    const uint8_t *in = src;
    uint64_t start = off;
    while (n) {
        uint64_t in_line = off % CG_CACHE_LINE;
        uint64_t len = CG_CACHE_LINE - in_line;
        if (len > n)
            len = n;
        cg__line *s = line_get(m, off / CG_CACHE_LINE); /* write-allocate */
        if (!s)
            return CG_ERR_NOMEM;
        uint64_t mask = line_mask(s->index, off, len);
        memcpy(s->data + in_line, in, (size_t)len);
        if (!s->dirty)
            m->ndirty++;
        s->dirty |= mask;
        s->stale &= ~mask; /* the CPU's own value is now the one it should see */
        s->cpu_seq = seq;
        s->cpu_off = start;
        in += len;
        off += len;
        n -= len;
    }
    return 0;
}

/* Write the dirty bytes of one line to memory, one run of set bits at a time. */
static int line_writeback(cg_mem *m, cg__line *s)
{
    uint64_t mask = s->dirty;
    while (mask) {
        unsigned a = lowest_bit(mask);
        unsigned b = a;
        while (b < 64 && (mask >> b) & 1)
            b++;
        int rc = cg__mem_write_raw(m, s->index * CG_CACHE_LINE + a, s->data + a, b - a);
        if (rc)
            return rc;
        mask &= b == 64 ? 0 : ~0ull << b;
    }
    if (s->dirty) {
        s->dirty = 0;
        m->ndirty--;
    }
    return 0;
}

int cg__mem_lines_writeback(cg_mem *m, uint64_t off, uint64_t n, bool drop)
{
    if (!m->nlines || n == 0)
        return 0;
    int rc = 0;
    line_iter it;
    line_iter_init(&it, m, off, n);
    for (cg__line *s; (s = line_iter_next(&it)) != NULL;) {
        rc = line_writeback(m, s);
        if (rc)
            break;
        if (drop)
            line_remove(m, s);
    }
    lines_trim(m);
    return rc;
}

int cg__coherency_raise(cg_device *dev, const cg_agent *who, cg_fault_kind kind,
                        uint64_t addr, const char *fmt, ...)
{
    char msg[CG_FAULT_MSG_LEN];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    cg_fault f;
    cg_fault_init(&f, who, kind, addr, "%s", msg);
    if (dev->coherency != CG_COHERENCY_FAULT)
        f.flags |= CG_FAULT_F_WARNING;
    return cg_fault_raise(dev, &f);
}

int cg__mem_report_stale_cpu_read(cg_mem *m, uint64_t off, uint64_t n, uint64_t first,
                                  const cg__line *line)
{
    return cg__coherency_raise(
        m->dev, NULL, CG_FAULT_STALE_CPU_READ, line->gpu_va,
        "CPU read of mem %u +0x%llx (0x%llx bytes) returns line 0x%llx (byte 0x%llx) "
        "cached before the GPU wrote 0x%llx; invalidate before reading",
        m->id, (unsigned long long)off, (unsigned long long)n,
        (unsigned long long)(line->index * CG_CACHE_LINE), (unsigned long long)first,
        (unsigned long long)line->gpu_va);
}

/* ---- CPU views of an object -------------------------------------------- */

static bool cpu_cached(const cg_mem *m)
{
    return (m->flags & CG_MEM_CPU_CACHED) && m->dev->coherency != CG_COHERENCY_OFF;
}

int cg_mem_cpu_read(cg_mem *m, uint64_t off, void *dst, size_t n)
{
    if (!m || (!dst && n))
        return CG_ERR_INVAL;
    if (!range_ok(m, off, n))
        return CG_ERR_RANGE;
    if (n == 0)
        return 0;
    if (!cpu_cached(m)) {
        cg__mem_read_raw(m, off, dst, n);
        return 0;
    }
    uint64_t first;
    const cg__line *line;
    int rc = 0;
    cg__lock(m->dev);
    if (cg__mem_find_stale(m, off, n, &first, &line))
        rc = cg__mem_report_stale_cpu_read(m, off, n, first, line);
    if (rc == 0) /* under the FAULT policy a stale read reads nothing */
        rc = cg__mem_cached_read(m, off, dst, n);
    cg__unlock(m->dev);
    return rc;
}

int cg_mem_cpu_write(cg_mem *m, uint64_t off, const void *src, size_t n)
{
    if (!m || (!src && n))
        return CG_ERR_INVAL;
    if (!range_ok(m, off, n))
        return CG_ERR_RANGE;
    if (n == 0)
        return 0;
    uint64_t seq = ++m->dev->cpu_write_seq;
    if (!cpu_cached(m))
        return cg__mem_write_raw(m, off, src, n);
    cg__lock(m->dev);
    int rc = cg__mem_cached_write(m, off, src, n, seq);
    cg__unlock(m->dev);
    return rc;
}

static int lines_writeback_locked(cg_mem *m, uint64_t off, uint64_t n, bool drop)
{
    cg__lock(m->dev);
    int rc = cg__mem_lines_writeback(m, off, n, drop);
    cg__unlock(m->dev);
    return rc;
}

int cg_mem_cpu_flush(cg_mem *m, uint64_t off, size_t n)
{
    if (!m)
        return CG_ERR_INVAL;
    if (!range_ok(m, off, n))
        return CG_ERR_RANGE;
    return lines_writeback_locked(m, off, n, false);
}

int cg_mem_cpu_invalidate(cg_mem *m, uint64_t off, size_t n)
{
    if (!m)
        return CG_ERR_INVAL;
    if (!range_ok(m, off, n))
        return CG_ERR_RANGE;
    return lines_writeback_locked(m, off, n, true);
}

void cg_mem_cache_lines(const cg_mem *m, size_t *dirty, size_t *clean)
{
    size_t d = 0, c = 0;
    if (m) {
        cg__lock(m->dev);
        d = m->ndirty;
        c = m->nlines - m->ndirty;
        cg__unlock(m->dev);
    }
    if (dirty)
        *dirty = d;
    if (clean)
        *clean = c;
}
