/* cmdgpu: memory objects, GPU virtual address spaces and the CPU-cache model.
 *
 * Memory objects (cg_mem) are zero-filled byte arrays whose host backing is
 * allocated lazily, one 4 KiB page at a time, on first write. Their size is
 * rounded up to a whole 4 KiB page, as nvmap and GEM objects are.
 *
 * An address space (cg_vas) is a page table over memory objects: 4 KiB small
 * pages, optionally big pages (64 or 128 KiB, as on Maxwell), reservations
 * (fixed or placed; sparse ones read as zero and drop writes), mappings (fixed or
 * placed, read-only or read-write, a layout and PTE kind, a CPU cache
 * attribute). Host cost grows with bytes mapped, never with the span of the
 * address space or of a reservation.
 *
 * CPU-cache model. A CPU write through a CPU-cached view (a mapping made with
 * CG_MAP_CPU_CACHED, or an object made with CG_MEM_CPU_CACHED) stays in a model
 * of the CPU's dirty 64-byte lines until flushed: the GPU does not see it. A CPU
 * read through a cached view keeps the line (clean) in the model; a GPU write to
 * it afterwards leaves the CPU reading the old line until it invalidates. Each
 * stale access raises a fault of kind STALE_GPU_READ, STALE_GPU_WRITE or
 * STALE_CPU_READ naming the address and the CPU write or GPU write involved; the
 * device's cg_coherency policy says whether that is off, a warning or a failing
 * fault. Uncached views are coherent.
 *
 * Threads. One device's memory model may be used from several threads at
 * once: GPU and CPU accesses through any address spaces (shared or not) and
 * objects, first writes that allocate backing, object creation, lookup and
 * release, CPU cache writes, flushes and invalidates, and the faults they
 * raise. Each thread translates through its own one-entry TLB; the shared
 * state (object table, page allocation, CPU-cache lines) is guarded by the
 * device's one recursive lock, which the plain GPU access path never takes
 * (it only reads atomically published page pointers). What callers order
 * themselves, as a driver must on hardware:
 *  - changing an address space (map, unmap, reserve, unreserve, destroy)
 *    while another thread accesses that address space, or uses a pointer
 *    the engines' fast path got from it;
 *  - two threads touching the same bytes where one of them writes: a data
 *    race in the model as on the GPU (no value is promised; ThreadSanitizer
 *    reports it).
 * tests/test_mem_threads.c exercises this under ThreadSanitizer. */
#ifndef CMDGPU_MEM_H
#define CMDGPU_MEM_H

#include "common.h"
#include "fault.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CG_PAGE_SIZE 4096u
#define CG_CACHE_LINE 64u

/* ---- memory objects ---------------------------------------------------- */

enum {
    CG_MEM_CPU_CACHED = 1u << 0, /* cg_mem_cpu_* go through the CPU-cache model */
};

/* Create a zero-filled object of at least `size` bytes (rounded up to 4 KiB).
 * The caller holds one reference. Size 0 or above 2^48 is CG_ERR_INVAL. */
CG_API int cg_mem_create(cg_device *dev, uint64_t size, uint32_t flags, cg_mem **out);
/* An object whose pages are the caller's memory: [host, host + size), page
 * aligned, a whole number of pages, alive until the object goes, when
 * release(user) is called (may be NULL). The model reads and writes those
 * bytes in place, so another view of the same pages (an application's
 * mapping of the same file, as the DRM kernel interface gives one) and the
 * model see each other's writes with no copy; the CPU-cache model still
 * applies to accesses made through cmdgpu's CPU accessors. */
CG_API int cg_mem_create_external(cg_device *dev, void *host, uint64_t size, uint32_t flags,
                                  void (*release)(void *user), void *user, cg_mem **out);
CG_API void cg_mem_ref(cg_mem *m);
CG_API void cg_mem_unref(cg_mem *m); /* NULL is a no-op */

CG_API uint64_t cg_mem_size(const cg_mem *m);
CG_API uint32_t cg_mem_id(const cg_mem *m);           /* unique per device, from 1 */
CG_API cg_mem *cg_mem_lookup(cg_device *dev, uint32_t id); /* no new reference */
CG_API cg_device *cg_mem_device(const cg_mem *m);
CG_API uint64_t cg_mem_resident_bytes(const cg_mem *m); /* host pages allocated */
CG_API void cg_mem_set_cpu_cached(cg_mem *m, bool cached);

/* Direct ("physical") access to the backing store, bypassing the cache model:
 * for loaders, dumps and tests. Out of range is CG_ERR_RANGE, nothing done. */
CG_API int cg_mem_read(cg_mem *m, uint64_t off, void *dst, size_t n);
CG_API int cg_mem_write(cg_mem *m, uint64_t off, const void *src, size_t n);
CG_API int cg_mem_fill(cg_mem *m, uint64_t off, uint8_t byte, size_t n);

/* CPU access to the object through its own CPU view (cached if the object is
 * CG_MEM_CPU_CACHED and the device's coherency is not OFF). */
CG_API int cg_mem_cpu_read(cg_mem *m, uint64_t off, void *dst, size_t n);
CG_API int cg_mem_cpu_write(cg_mem *m, uint64_t off, const void *src, size_t n);
/* Write dirty lines in [off, off+n) back to memory (clean; lines stay cached). */
CG_API int cg_mem_cpu_flush(cg_mem *m, uint64_t off, size_t n);
/* Drop cached lines in [off, off+n); dirty data in them is written back first
 * (clean+invalidate, as drivers do before reading GPU output). */
CG_API int cg_mem_cpu_invalidate(cg_mem *m, uint64_t off, size_t n);
/* Number of lines the CPU-cache model holds (dirty, clean) for this object. */
CG_API void cg_mem_cache_lines(const cg_mem *m, size_t *dirty, size_t *clean);

/* ---- address spaces ---------------------------------------------------- */

typedef struct cg_vas_config {
    unsigned va_bits;       /* 16..48; 0 means 40 (Maxwell/R600 GPU VA) */
    uint32_t big_page_size; /* 0 (none), 65536 or 131072 */
    uint64_t va_start;      /* lowest address auto-placement uses; 0 means one page */
    uint64_t va_end;        /* one past the highest; 0 means 2^va_bits */
} cg_vas_config;

CG_API int cg_vas_create(cg_device *dev, const cg_vas_config *cfg, cg_vas **out);
CG_API void cg_vas_destroy(cg_vas *vas); /* unmaps everything; NULL is a no-op */
CG_API cg_device *cg_vas_device(const cg_vas *vas);
CG_API unsigned cg_vas_bits(const cg_vas *vas);
CG_API uint32_t cg_vas_big_page_size(const cg_vas *vas);

/* Reservations (nvhost-as ALLOC_SPACE). */
enum {
    CG_RESV_FIXED = 1u << 0,  /* at *va; otherwise placed */
    CG_RESV_SPARSE = 1u << 1, /* unmapped pages inside read zero, writes dropped+traced */
};
/* Reserve `size` bytes. page_size (4096 or the big page size) sets the
 * granularity: va and size must be multiples of it. Placed reservations honour
 * `align` (0: page_size; must be a power of two) and return the address in *va.
 * Errors: CG_ERR_ALIGN, CG_ERR_RANGE, CG_ERR_OVERLAP (with another
 * reservation), CG_ERR_NOSPACE, CG_ERR_INVAL. */
CG_API int cg_vas_reserve(cg_vas *vas, uint64_t *va, uint64_t size, uint64_t align,
                          uint32_t page_size, uint32_t flags);
/* Free the reservation that starts at va, unmapping every mapping inside it
 * (nvhost-as FREE_SPACE). CG_ERR_NOENT if none starts there. */
CG_API int cg_vas_unreserve(cg_vas *vas, uint64_t va);

/* Mappings (nvhost-as MAP_BUFFER_EX). */
enum {
    CG_MAP_FIXED = 1u << 0,      /* at params.va; otherwise placed */
    CG_MAP_READ_ONLY = 1u << 1,  /* GPU writes fault with READ_ONLY */
    CG_MAP_CPU_CACHED = 1u << 2, /* cg_vas_cpu_* through this mapping are cached */
    CG_MAP_IN_RESV = 1u << 3,    /* must lie wholly inside one reservation */
};

typedef enum cg_layout {
    CG_LAYOUT_PITCH = 0,
    CG_LAYOUT_BLOCK_LINEAR,
} cg_layout;

typedef struct cg_map_params {
    cg_mem *mem;        /* the object (the mapping takes a reference) */
    uint64_t offset;    /* byte offset in the object, page aligned */
    uint64_t size;      /* bytes, page multiple; 0 means to the end of the object */
    uint64_t va;        /* with CG_MAP_FIXED */
    uint64_t align;     /* placement alignment, power of two; 0: page size */
    uint32_t page_size; /* 4096 or the big page size; 0 means 4096 */
    uint32_t flags;     /* CG_MAP_* */
    uint32_t kind;      /* family PTE kind, kept for engines (NV: 0x00 pitch, 0xFE ...) */
    cg_layout layout;
} cg_map_params;

/* Map; returns the address in *va_out. A mapping may not overlap another
 * mapping. A fixed mapping may lie inside a reservation (with CG_MAP_IN_RESV it
 * must lie wholly inside one, as nvhost-as requires of FIXED maps); a placed
 * mapping goes in free space outside every reservation and mapping. Errors:
 * CG_ERR_ALIGN, CG_ERR_RANGE, CG_ERR_OVERLAP, CG_ERR_NOSPACE, CG_ERR_NOENT
 * (CG_MAP_IN_RESV and no reservation covers it), CG_ERR_INVAL. */
CG_API int cg_vas_map(cg_vas *vas, const cg_map_params *p, uint64_t *va_out);
/* Unmap the mapping that starts at va; inside a sparse reservation the range
 * reads as zero again. CG_ERR_NOENT if no mapping starts there. */
CG_API int cg_vas_unmap(cg_vas *vas, uint64_t va);

typedef struct cg_mapping_info {
    uint64_t va, size;
    cg_mem *mem;
    uint64_t offset;
    uint32_t page_size, flags, kind;
    cg_layout layout;
} cg_mapping_info;

/* The mapping containing va: 0, or CG_ERR_NOENT. */
CG_API int cg_vas_lookup(const cg_vas *vas, uint64_t va, cg_mapping_info *out);
CG_API size_t cg_vas_mapping_count(const cg_vas *vas);
/* Is [va, va+size) inside a reservation? 1 sparse, 0 not sparse, CG_ERR_NOENT none. */
CG_API int cg_vas_reservation_at(const cg_vas *vas, uint64_t va, uint64_t *start,
                                 uint64_t *size, uint32_t *flags);

/* ---- GPU-side accessors (engines) ---------------------------------------
 * Ranges may straddle pages and mappings. An access that touches an unmapped
 * page (outside a sparse reservation), writes a read-only page, or leaves the
 * address space raises one fault (kind, the first bad address, the agent's
 * stream address and words) and returns CG_ERR_FAULT having touched no memory.
 * `who` may be NULL (reported as unit "gpu"). Values are little-endian. */
CG_API int cg_vas_read(cg_vas *vas, uint64_t va, void *dst, size_t n, const cg_agent *who);
/* src may point into the model's own memory (an engine writing words it
 * decoded in place, e.g. pushbuffer data into a constant buffer): the copy
 * is done page by page in address order, each page as by memmove, so an
 * overlap gives a defined result. */
CG_API int cg_vas_write(cg_vas *vas, uint64_t va, const void *src, size_t n,
                        const cg_agent *who);
CG_API int cg_vas_fill(cg_vas *vas, uint64_t va, uint8_t byte, size_t n, const cg_agent *who);
/* Copy n bytes from src_va to dst_va as if through a bounce buffer (overlap safe). */
CG_API int cg_vas_copy(cg_vas *vas, uint64_t dst_va, uint64_t src_va, size_t n,
                       const cg_agent *who);
CG_API int cg_vas_read32(cg_vas *vas, uint64_t va, uint32_t *v, const cg_agent *who);
CG_API int cg_vas_write32(cg_vas *vas, uint64_t va, uint32_t v, const cg_agent *who);
CG_API int cg_vas_read64(cg_vas *vas, uint64_t va, uint64_t *v, const cg_agent *who);
CG_API int cg_vas_write64(cg_vas *vas, uint64_t va, uint64_t v, const cg_agent *who);

/* Would a GPU access fault? Returns CG_FAULT_NONE or the kind it would raise,
 * and the first bad address in *bad_va. Raises nothing (for validators). */
CG_API cg_fault_kind cg_vas_check(const cg_vas *vas, uint64_t va, uint64_t n, bool write,
                                  uint64_t *bad_va);

/* ---- CPU-side accessors through a GPU mapping ---------------------------
 * The CPU uses the mapping's CG_MAP_CPU_CACHED attribute. Unmapped addresses
 * are CG_ERR_NOENT (a CPU-side programming error, not a GPU fault). */
CG_API int cg_vas_cpu_read(cg_vas *vas, uint64_t va, void *dst, size_t n);
CG_API int cg_vas_cpu_write(cg_vas *vas, uint64_t va, const void *src, size_t n);
CG_API int cg_vas_cpu_flush(cg_vas *vas, uint64_t va, size_t n);
CG_API int cg_vas_cpu_invalidate(cg_vas *vas, uint64_t va, size_t n);

#ifdef __cplusplus
}
#endif
#endif
