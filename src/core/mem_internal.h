/* cmdgpu core: memory objects, the CPU-cache line model and the hooks address
 * spaces and engines use (not installed).
 *
 * Layout of a memory object
 * -------------------------
 * Host backing is one 4 KiB page per touched object page, taken from the
 * device's page pool (mem.c, "page backing"), found through a page
 * directory: a radix tree of 512-entry nodes whose depth fits the object
 * (one level up to 2 MiB, two up to 1 GiB, ... four for 2^48). The root
 * holds exactly as many entries as the object needs, inner nodes (pool
 * pages too) and pages are allocated on first write, so a huge object costs
 * what is written, not its size. Reading an absent page gives zeros.
 *
 * CPU-cache line model
 * --------------------
 * The lines the CPU holds for an object live in a small open-addressing hash
 * table keyed by line index (offset / 64). A line exists while the CPU holds a
 * copy: `data` is that copy; `dirty` marks bytes the CPU wrote that memory
 * does not have yet (the line is DIRTY if any, else CLEAN); `stale` marks
 * bytes the GPU wrote after the CPU took its copy. The masks are per byte so a
 * fault fires exactly when some party would see a wrong value: a GPU read of
 * clean bytes next to a CPU's pending write in the same line reads correct
 * memory and raises nothing (pushbuffers are written that way). Objects with
 * no lines pay one counter test per GPU access (cg__mem_coherency_on). */
#ifndef CMDGPU_CORE_MEM_INTERNAL_H
#define CMDGPU_CORE_MEM_INTERNAL_H

#include "internal.h"

/* Built with AddressSanitizer (gcc or clang): memory the model carves out
 * of its own mappings is poisoned or not used, so ASan still sees
 * overruns (mem.c's pages, the vc4 tile pool's buffers). */
#if defined(__SANITIZE_ADDRESS__) /* gcc */
#define CG_MEM_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) /* clang */
#define CG_MEM_ASAN 1
#endif
#endif

#define CG__PAGE_SHIFT 12
#define CG__PAGE_MASK ((uint64_t)CG_PAGE_SIZE - 1)
#define CG__DIR_SHIFT 9 /* 512 entries per directory node: one 4 KiB node */
#define CG__DIR_FANOUT (1u << CG__DIR_SHIFT)
#define CG__MEM_MAX_SIZE (1ull << 48)

/* One CPU cache line of an object (see the header comment). */
typedef struct cg__line {
    uint64_t index;   /* line number in the object: offset / CG_CACHE_LINE */
    uint64_t dirty;   /* bytes written by the CPU, not yet in memory */
    uint64_t stale;   /* bytes the GPU wrote since the CPU took its copy */
    uint64_t cpu_seq; /* the latest CPU write into the line (dev->cpu_write_seq) */
    uint64_t cpu_off; /* object offset where that CPU write started */
    uint64_t gpu_va;  /* first byte of the line written by the GPU write that made it stale */
    uint8_t state;    /* CG__LINE_EMPTY / USED / TOMB (hash table slot state) */
    uint8_t data[CG_CACHE_LINE]; /* the CPU's copy of the line */
} cg__line;

enum { CG__LINE_EMPTY = 0, CG__LINE_USED, CG__LINE_TOMB };

/* Threads (mem.h "Threads"): fields read on the GPU fast path without the
 * device lock are atomic (flags, refs, resident, nlines, and the directory
 * entries, which cg__mem_page_alloc publishes with a release store under the
 * lock); the line table itself is only touched under the lock. */
struct cg_mem {
    cg_device *dev;
    uint64_t size;      /* bytes, a multiple of CG_PAGE_SIZE */
    uint64_t npages;
    _Atomic uint64_t resident; /* pages with host backing */
    uint32_t id;
    _Atomic uint32_t flags;    /* CG_MEM_* */
    _Atomic uint32_t refs;
    unsigned top_shift; /* CG__DIR_SHIFT * (directory depth - 1) */
    size_t root_len;    /* entries in the root directory node */
    void **root;
    /* cg_mem_create_external: the pages are the caller's memory at host
     * (never freed or given back here); release(user) when the object goes. */
    uint8_t *host;
    void (*release)(void *user);
    void *release_user;

    /* CPU-cache model: hash table of lines (cap is 0 or a power of two). */
    cg__line *lines;
    size_t lines_cap, ntombs, ndirty;
    _Atomic size_t nlines;
};

/* A read-only page of zeros: what absent pages and sparse holes read as. */
extern const uint8_t cg__zero_page[CG_PAGE_SIZE];
/* Tests only: pool regions come from the heap, as when mmap fails. */
extern bool cg__mem_no_mmap;

/* The host page behind object page `pidx`, or NULL if it has no backing yet. */
static inline uint8_t *cg__mem_page(const cg_mem *m, uint64_t pidx)
{
    /* Acquire loads pair with cg__mem_page_alloc's release stores, so a
     * page another thread just allocated is seen zeroed (a plain load on
     * x86 and arm64's ldar). */
    unsigned shift = m->top_shift;
    void *e = __atomic_load_n(&m->root[pidx >> shift], __ATOMIC_ACQUIRE);
    while (shift) {
        if (!e)
            return NULL;
        shift -= CG__DIR_SHIFT;
        e = __atomic_load_n(&((void **)e)[(pidx >> shift) & (CG__DIR_FANOUT - 1)],
                            __ATOMIC_ACQUIRE);
    }
    return (uint8_t *)e;
}

/* The host page behind `pidx`, allocating it (zeroed) and its directory nodes;
 * NULL only when the host is out of memory. */
uint8_t *cg__mem_page_alloc(cg_mem *m, uint64_t pidx);
/* Zeroed host memory of `bytes` (a multiple of 2 MiB for whole huge
 * pages), 2 MiB aligned and advised MADV_HUGEPAGE, so the kernel backs
 * each 2 MiB with one huge page on first touch (the region pool's reason,
 * above); NULL if mmap fails. cg__unmap_huge gives it back (NULL: no-op). */
void *cg__map_huge(size_t bytes);
void cg__unmap_huge(void *base, size_t bytes);

/* Raw access to [off, off+n) of the backing store; the caller has checked the
 * range. Writes return CG_ERR_NOMEM if backing cannot be allocated (bytes
 * before the failing page are written). Filling absent pages with zero keeps
 * them absent: they read as zero already. */
void cg__mem_read_raw(const cg_mem *m, uint64_t off, void *dst, uint64_t n);
/* n bytes at off (in range): where they lie when one page holds them (the
 * shared zero page when that page was never written), else copied into
 * scratch (n bytes). No copy for the common case of reading a row of a
 * frame buffer, and no fault on a fresh buffer. */
const uint8_t *cg__mem_span(const cg_mem *m, uint64_t off, size_t n, uint8_t *scratch);
int cg__mem_write_raw(cg_mem *m, uint64_t off, const void *src, uint64_t n);
int cg__mem_fill_raw(cg_mem *m, uint64_t off, uint8_t byte, uint64_t n);

/* True when the object has cached lines and the device models the cache: only
 * then do GPU accesses need the line checks below. */
static inline bool cg__mem_coherency_on(const cg_mem *m)
{
    return m->nlines != 0 && m->dev->coherency != CG_COHERENCY_OFF;
}

/* Lowest byte in [off, off+n) that a line holds dirty (a GPU read of it sees
 * old memory, a GPU write of it will be undone by the flush). */
bool cg__mem_find_dirty(const cg_mem *m, uint64_t off, uint64_t n, uint64_t *first,
                        const cg__line **line);
/* Lowest byte in [off, off+n) that a line holds stale (the GPU wrote it after
 * the CPU cached it: a cached CPU read returns the old value). */
bool cg__mem_find_stale(const cg_mem *m, uint64_t off, uint64_t n, uint64_t *first,
                        const cg__line **line);
/* The GPU wrote [off, off+n) at GPU address va: mark the bytes of cached lines
 * that are not dirty as stale. */
void cg__mem_gpu_wrote(cg_mem *m, uint64_t off, uint64_t n, uint64_t va);

/* Cached CPU access to [off, off+n) (range checked, stale check done by the
 * caller). Reads fill absent lines from memory and keep them clean; writes go
 * into dirty lines tagged with `seq`. CG_ERR_NOMEM if a line cannot be held. */
int cg__mem_cached_read(cg_mem *m, uint64_t off, void *dst, uint64_t n);
int cg__mem_cached_write(cg_mem *m, uint64_t off, const void *src, uint64_t n, uint64_t seq);
/* Write dirty bytes of the lines overlapping [off, off+n) back to memory;
 * with `drop`, also forget those lines (invalidate). */
int cg__mem_lines_writeback(cg_mem *m, uint64_t off, uint64_t n, bool drop);

/* Raise a coherency fault: a warning (the access goes ahead, returns 0) under
 * CG_COHERENCY_WARN, a failing fault (returns CG_ERR_FAULT) under FAULT. */
int cg__coherency_raise(cg_device *dev, const cg_agent *who, cg_fault_kind kind,
                        uint64_t addr, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;

/* Report a stale cached CPU read of [off, off+n) whose first stale byte is
 * `first` in `line` (found by cg__mem_find_stale). */
int cg__mem_report_stale_cpu_read(cg_mem *m, uint64_t off, uint64_t n, uint64_t first,
                                  const cg__line *line);

/* ---- for engines' hot loops ---------------------------------------------
 * cg__vas_span: how much of [va, va+n) the caller may access directly.
 *
 * Returns the length L (1 <= L <= n) of the prefix of [va, va+n) that lies in
 * one 4 KiB page of one mapping, with *ptr pointing at the host bytes of va,
 * when that access needs nothing from the model: the page is mapped (not a
 * sparse hole), writable if `write`, and its object has no cached CPU lines
 * (or coherency is off). For writes the page's backing is allocated. For reads
 * of a page that has no backing yet, *ptr points into a shared page of zeros
 * that must not be written. Returns 0 when the caller must use the cg_vas_*
 * accessors instead (which fault, read sparse zeros, drop sparse writes or run
 * the coherency checks as needed), and for n == 0.
 *
 * The pointer stays valid until the mapping is unmapped (backing pages live as
 * long as their object); a read pointer to the zero page becomes outdated as
 * soon as anything writes that page, so re-ask per access rather than cache it.
 * Uses and refills the address space's one-entry TLB. */
size_t cg__vas_span(cg_vas *vas, uint64_t va, size_t n, bool write, uint8_t **ptr);
/* The address space's state: a process-wide unique number that changes with
 * every map and unmap. What cg__vas_span found for a state stays true while
 * it lasts (a page backed stays backed: a mapping holds its memory). */
uint64_t cg__vas_epoch(const cg_vas *vas);

#endif
