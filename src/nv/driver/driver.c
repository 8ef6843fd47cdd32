/* nv: the driver side, nvmap and nvhost-as-gpu (research/nv.md section 8:
 * yuzu nvmap.h and nvhost_as_gpu.cpp; seed 000 "Mapping Memory"). Failed
 * calls return a cg_err and leave the message a real ioctl would log in
 * cg_nv_gpu_last_error(). */
#include <string.h>
#include "nv/nv_internal.h"

void nv_gpu_free_channels(cg_nv_gpu *gpu);

void cg_nv_gpu_destroy(cg_nv_gpu *gpu)
{
    if (!gpu)
        return;
    cg_device *dev = gpu->dev;
    nv_gpu_free_channels(gpu);
    nv_pipeline_release(gpu);
    while (gpu->spaces) {
        cg_nv_as *as = gpu->spaces;
        gpu->spaces = as->next;
        cg_vas_destroy(as->vas);
        cg__free(dev, as, sizeof(*as));
    }
    while (gpu->handles) {
        nv_handle *h = gpu->handles;
        gpu->handles = h->next;
        cg_mem_unref(h->mem);
        cg__free(dev, h, sizeof(*h));
    }
    cg__free(dev, gpu, sizeof(*gpu));
}

/* ---- nvmap ---------------------------------------------------------------- */

static nv_handle *find_handle(cg_nv_gpu *gpu, uint32_t id)
{
    for (nv_handle *h = gpu->handles; h; h = h->next)
        if (h->id == id)
            return h;
    return NULL;
}

int cg_nv_nvmap_create(cg_nv_gpu *gpu, uint32_t size, uint32_t *handle)
{
    if (!gpu || !handle)
        return CG_ERR_INVAL;
    if (size == 0) {
        nv_gpu_error(gpu, "NVMAP_IOC_CREATE: size 0");
        return CG_ERR_INVAL;
    }
    nv_handle *h = cg__alloc(gpu->dev, sizeof(*h));
    if (!h)
        return CG_ERR_NOMEM;
    h->id = gpu->next_handle++;
    h->size = (size + CG_PAGE_SIZE - 1) & ~(CG_PAGE_SIZE - 1);
    if (h->size == 0) /* wrapped: sizes near 4 GiB */
        h->size = 0xFFFFF000u;
    h->next = gpu->handles;
    gpu->handles = h;
    *handle = h->id;
    return 0;
}

int cg_nv_nvmap_alloc(cg_nv_gpu *gpu, uint32_t handle, uint32_t heap_mask, uint32_t flags,
                      uint32_t align, uint8_t kind)
{
    if (!gpu)
        return CG_ERR_INVAL;
    nv_handle *h = find_handle(gpu, handle);
    if (!h) {
        nv_gpu_error(gpu, "NVMAP_IOC_ALLOC: handle %u does not exist", handle);
        return CG_ERR_NOENT;
    }
    if (h->mem) {
        nv_gpu_error(gpu, "NVMAP_IOC_ALLOC: handle %u is already allocated", handle);
        return CG_ERR_BUSY;
    }
    if (align & (align - 1)) {
        nv_gpu_error(gpu, "NVMAP_IOC_ALLOC: alignment 0x%x is not a power of two", align);
        return CG_ERR_INVAL;
    }
    if (heap_mask == 0) {
        nv_gpu_error(gpu, "NVMAP_IOC_ALLOC: empty heap mask");
        return CG_ERR_INVAL;
    }
    bool cached = (flags & 3) >= CG_NV_NVMAP_INNER_CACHEABLE;
    int rc = cg_mem_create(gpu->dev, h->size, cached ? CG_MEM_CPU_CACHED : 0, &h->mem);
    if (rc != 0) {
        nv_gpu_error(gpu, "NVMAP_IOC_ALLOC: %s", cg_strerror(rc));
        return rc;
    }
    h->align = align < CG_PAGE_SIZE ? CG_PAGE_SIZE : align;
    h->flags = flags;
    h->heap = heap_mask;
    h->kind = kind;
    return 0;
}

int cg_nv_nvmap_free(cg_nv_gpu *gpu, uint32_t handle)
{
    if (!gpu)
        return CG_ERR_INVAL;
    for (nv_handle **pp = &gpu->handles; *pp; pp = &(*pp)->next) {
        if ((*pp)->id != handle)
            continue;
        nv_handle *h = *pp;
        *pp = h->next;
        cg_mem_unref(h->mem); /* mappings keep their own references */
        cg__free(gpu->dev, h, sizeof(*h));
        return 0;
    }
    nv_gpu_error(gpu, "NVMAP_IOC_FREE: handle %u does not exist", handle);
    return CG_ERR_NOENT;
}

cg_mem *cg_nv_nvmap_mem(cg_nv_gpu *gpu, uint32_t handle)
{
    nv_handle *h = gpu ? find_handle(gpu, handle) : NULL;
    return h ? h->mem : NULL;
}

/* ---- nvhost-as-gpu -------------------------------------------------------- */

int cg_nv_as_create(cg_nv_gpu *gpu, uint32_t big_page_size, cg_nv_as **out)
{
    if (!gpu || !out)
        return CG_ERR_INVAL;
    if (big_page_size == 0)
        big_page_size = 128 * 1024;
    if (big_page_size != 65536 && big_page_size != 131072) {
        nv_gpu_error(gpu, "ALLOC_AS_EX: big page size 0x%x is not 64 KiB or 128 KiB",
                     big_page_size);
        return CG_ERR_INVAL;
    }
    cg_nv_as *as = cg__alloc(gpu->dev, sizeof(*as));
    if (!as)
        return CG_ERR_NOMEM;
    /* yuzu nvhost_as_gpu.cpp: 40-bit VA, allocations from big_page << 10;
     * big pages below 1 << 37. */
    cg_vas_config cfg = {.va_bits = 40, .big_page_size = big_page_size,
                         .va_start = (uint64_t)big_page_size << 10, .va_end = 1ull << 37};
    int rc = cg_vas_create(gpu->dev, &cfg, &as->vas);
    if (rc != 0) {
        cg__free(gpu->dev, as, sizeof(*as));
        nv_gpu_error(gpu, "ALLOC_AS_EX: %s", cg_strerror(rc));
        return rc;
    }
    as->gpu = gpu;
    as->big_page = big_page_size;
    as->next = gpu->spaces;
    gpu->spaces = as;
    *out = as;
    return 0;
}

void cg_nv_as_destroy(cg_nv_as *as)
{
    if (!as)
        return;
    cg_nv_gpu *gpu = as->gpu;
    for (cg_nv_channel *ch = gpu->channels; ch; ch = ch->next)
        if (ch->as == as)
            return; /* still bound to a channel: kept until the GPU goes */
    for (cg_nv_as **pp = &gpu->spaces; *pp; pp = &(*pp)->next)
        if (*pp == as) {
            *pp = as->next;
            break;
        }
    cg_vas_destroy(as->vas);
    cg__free(gpu->dev, as, sizeof(*as));
}

cg_vas *cg_nv_as_vas(const cg_nv_as *as)
{
    return as ? as->vas : NULL;
}

static int as_err(cg_nv_as *as, int rc, const char *what, uint64_t va, uint64_t size)
{
    const char *why;
    switch (rc) {
    case CG_ERR_ALIGN: why = "misaligned for the page size"; break;
    case CG_ERR_OVERLAP: why = "overlaps an existing region or mapping"; break;
    case CG_ERR_RANGE: why = "outside the address space"; break;
    case CG_ERR_NOSPACE: why = "no free address space"; break;
    case CG_ERR_NOENT: why = "FIXED needs a prior ALLOC_SPACE covering the range"; break;
    default: why = cg_strerror(rc); break;
    }
    nv_gpu_error(as->gpu, "%s: [0x%llx, +0x%llx): %s", what, (unsigned long long)va,
                 (unsigned long long)size, why);
    return rc;
}

int cg_nv_as_alloc_space(cg_nv_as *as, uint32_t pages, uint32_t page_size, uint32_t flags,
                         uint64_t *offset)
{
    if (!as || !offset)
        return CG_ERR_INVAL;
    if (page_size != CG_PAGE_SIZE && page_size != as->big_page) {
        nv_gpu_error(as->gpu, "ALLOC_SPACE: page size 0x%x is neither 4 KiB nor the big page "
                     "size 0x%x", page_size, as->big_page);
        return CG_ERR_INVAL;
    }
    if (pages == 0) {
        nv_gpu_error(as->gpu, "ALLOC_SPACE: 0 pages");
        return CG_ERR_INVAL;
    }
    if (flags & ~(uint32_t)(CG_NV_AS_FIXED | CG_NV_AS_SPARSE)) {
        nv_gpu_error(as->gpu, "ALLOC_SPACE: unknown flags 0x%x", flags);
        return CG_ERR_INVAL;
    }
    uint64_t size = (uint64_t)pages * page_size;
    uint64_t va = (flags & CG_NV_AS_FIXED) ? *offset : 0;
    uint64_t align = (flags & CG_NV_AS_FIXED) ? 0 : *offset;
    if (align & (align - 1)) {
        nv_gpu_error(as->gpu, "ALLOC_SPACE: alignment 0x%llx is not a power of two",
                     (unsigned long long)align);
        return CG_ERR_INVAL;
    }
    uint32_t rf = ((flags & CG_NV_AS_FIXED) ? CG_RESV_FIXED : 0) |
                  ((flags & CG_NV_AS_SPARSE) ? CG_RESV_SPARSE : 0);
    int rc = cg_vas_reserve(as->vas, &va, size, align, page_size, rf);
    if (rc != 0)
        return as_err(as, rc, "ALLOC_SPACE", va, size);
    *offset = va;
    return 0;
}

int cg_nv_as_free_space(cg_nv_as *as, uint64_t offset, uint32_t pages, uint32_t page_size)
{
    if (!as)
        return CG_ERR_INVAL;
    uint64_t start, size;
    uint32_t fl;
    int rc = cg_vas_reservation_at(as->vas, offset, &start, &size, &fl);
    if (rc < 0 || start != offset) {
        nv_gpu_error(as->gpu, "FREE_SPACE: no region allocated at 0x%llx",
                     (unsigned long long)offset);
        return CG_ERR_NOENT;
    }
    if ((uint64_t)pages * page_size != size) {
        nv_gpu_error(as->gpu, "FREE_SPACE: %u pages of 0x%x do not match the region's size "
                     "0x%llx", pages, page_size, (unsigned long long)size);
        return CG_ERR_INVAL;
    }
    rc = cg_vas_unreserve(as->vas, offset);
    if (rc != 0)
        return as_err(as, rc, "FREE_SPACE", offset, size);
    return 0;
}

int cg_nv_as_map_buffer_ex(cg_nv_as *as, uint32_t flags, int32_t kind, uint32_t handle,
                           uint32_t page_size, uint64_t buffer_offset, uint64_t mapping_size,
                           uint64_t *offset)
{
    if (!as || !offset)
        return CG_ERR_INVAL;
    cg_nv_gpu *gpu = as->gpu;
    if (flags & CG_NV_AS_REMAP) {
        nv_gpu_error(gpu, "MAP_BUFFER_EX: REMAP not supported yet");
        return CG_ERR_UNSUPPORTED;
    }
    nv_handle *h = find_handle(gpu, handle);
    if (!h) {
        nv_gpu_error(gpu, "MAP_BUFFER_EX: handle %u does not exist", handle);
        return CG_ERR_NOENT;
    }
    if (!h->mem) {
        nv_gpu_error(gpu, "MAP_BUFFER_EX: handle %u has no memory (NVMAP_IOC_ALLOC first)",
                     handle);
        return CG_ERR_INVAL;
    }
    if (page_size == 0)
        page_size = CG_PAGE_SIZE;
    if (page_size != CG_PAGE_SIZE && page_size != as->big_page) {
        nv_gpu_error(gpu, "MAP_BUFFER_EX: page size 0x%x is neither 4 KiB nor the big page "
                     "size 0x%x", page_size, as->big_page);
        return CG_ERR_INVAL;
    }
    if (buffer_offset >= h->size) {
        nv_gpu_error(gpu, "MAP_BUFFER_EX: buffer offset 0x%llx past the handle's 0x%x bytes",
                     (unsigned long long)buffer_offset, h->size);
        return CG_ERR_RANGE;
    }
    if (mapping_size == 0)
        mapping_size = h->size - buffer_offset;
    if (mapping_size > h->size - buffer_offset) {
        nv_gpu_error(gpu, "MAP_BUFFER_EX: 0x%llx bytes from offset 0x%llx run past the "
                     "handle's 0x%x bytes", (unsigned long long)mapping_size,
                     (unsigned long long)buffer_offset, h->size);
        return CG_ERR_RANGE;
    }
    uint32_t k = kind < 0 ? h->kind : (uint32_t)kind & 0xFF;
    cg_map_params p = {
        .mem = h->mem, .offset = buffer_offset, .size = mapping_size,
        .va = (flags & CG_NV_AS_FIXED) ? *offset : 0, .align = h->align,
        .page_size = page_size,
        .flags = ((flags & CG_NV_AS_FIXED) ? CG_MAP_FIXED | CG_MAP_IN_RESV : 0) |
                 ((flags & CG_NV_AS_CACHEABLE) ? CG_MAP_CPU_CACHED : 0),
        .kind = k,
        /* pitch kinds are 0x00 and 0xFD (yuzu pte_kind.h) */
        .layout = (k == 0x00 || k == 0xFD) ? CG_LAYOUT_PITCH : CG_LAYOUT_BLOCK_LINEAR,
    };
    if (p.align < page_size)
        p.align = page_size;
    uint64_t va = 0;
    int rc = cg_vas_map(as->vas, &p, &va);
    if (rc != 0)
        return as_err(as, rc, "MAP_BUFFER_EX", p.va, mapping_size);
    *offset = va;
    return 0;
}

int cg_nv_as_unmap(cg_nv_as *as, uint64_t offset)
{
    if (!as)
        return CG_ERR_INVAL;
    int rc = cg_vas_unmap(as->vas, offset);
    if (rc != 0) {
        nv_gpu_error(as->gpu, "UNMAP: no mapping starts at 0x%llx", (unsigned long long)offset);
        return rc;
    }
    return 0;
}
