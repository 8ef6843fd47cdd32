/* Address spaces: mapping and reservation rules, GPU accessors across pages,
 * mappings, gaps and sparse ranges, faults (every field), host cost. */
#include <stdlib.h>
#include "check.h"
#include "cmdgpu/cmdgpu.h"
#include "core/mem_internal.h"

#define KiB 1024ull
#define MiB (1024ull * KiB)
#define GiB (1024ull * MiB)
#define TiB (1024ull * GiB)

static const cg_fault *last_fault(cg_device *dev)
{
    size_t n = cg_fault_count(dev);
    return n ? cg_fault_get(dev, n - 1) : NULL;
}

static bool contains(const char *hay, const char *needle)
{
    return hay && strstr(hay, needle) != NULL;
}

static cg_mem *new_mem(cg_device *dev, uint64_t size)
{
    cg_mem *m = NULL;
    CHECK_EQ(cg_mem_create(dev, size, 0, &m), 0);
    return m;
}

static int map_fixed(cg_vas *vas, cg_mem *m, uint64_t va, uint64_t off, uint64_t size,
                     uint32_t flags)
{
    cg_map_params p = {.mem = m, .offset = off, .size = size, .va = va,
                       .flags = flags | CG_MAP_FIXED};
    uint64_t out = 0;
    int rc = cg_vas_map(vas, &p, &out);
    if (rc == 0)
        CHECK_EQ(out, va);
    return rc;
}

/* Fill an object with a byte pattern derived from a seed. */
static void pattern(cg_mem *m, uint8_t seed)
{
    uint64_t n = cg_mem_size(m);
    uint8_t *buf = malloc(n);
    for (uint64_t i = 0; i < n; i++)
        buf[i] = (uint8_t)(seed + i * 7 + (i >> 8));
    CHECK_EQ(cg_mem_write(m, 0, buf, n), 0);
    free(buf);
}

static uint8_t pattern_at(uint8_t seed, uint64_t i) { return (uint8_t)(seed + i * 7 + (i >> 8)); }

/* ---- configuration ---------------------------------------------------- */

static void test_create(void)
{
    cg_device *dev;
    CHECK_EQ(cg_device_create(&dev), 0);
    cg_vas *vas = NULL;
    CHECK_EQ(cg_vas_create(dev, NULL, &vas), 0);
    CHECK_EQ(cg_vas_bits(vas), 40);
    CHECK_EQ(cg_vas_big_page_size(vas), 0);
    CHECK(cg_vas_device(vas) == dev);
    cg_vas_destroy(vas);

    cg_vas_config c = {.va_bits = 15};
    CHECK_EQ(cg_vas_create(dev, &c, &vas), CG_ERR_INVAL);
    CHECK(vas == NULL);
    c.va_bits = 49;
    CHECK_EQ(cg_vas_create(dev, &c, &vas), CG_ERR_INVAL);
    c = (cg_vas_config){.va_bits = 32, .big_page_size = 4096};
    CHECK_EQ(cg_vas_create(dev, &c, &vas), CG_ERR_INVAL);
    c = (cg_vas_config){.va_bits = 32, .va_start = 0x1800};
    CHECK_EQ(cg_vas_create(dev, &c, &vas), CG_ERR_ALIGN);
    c = (cg_vas_config){.va_bits = 32, .va_start = 0x10000, .va_end = 0x10000};
    CHECK_EQ(cg_vas_create(dev, &c, &vas), CG_ERR_RANGE);
    c = (cg_vas_config){.va_bits = 32, .va_end = (1ull << 32) + 0x1000};
    CHECK_EQ(cg_vas_create(dev, &c, &vas), CG_ERR_RANGE);
    c = (cg_vas_config){.va_bits = 16, .big_page_size = 131072};
    CHECK_EQ(cg_vas_create(dev, &c, &vas), 0);
    CHECK_EQ(cg_vas_bits(vas), 16);
    CHECK_EQ(cg_vas_big_page_size(vas), 131072);
    c = (cg_vas_config){.va_bits = 48, .big_page_size = 65536};
    CHECK_EQ(cg_vas_create(dev, &c, &vas), 0);
    CHECK_EQ(cg_vas_bits(vas), 48);
    CHECK_EQ(cg_vas_create(NULL, &c, &vas), CG_ERR_INVAL);
    cg_vas_destroy(NULL);
    cg_device_destroy(dev); /* frees both remaining address spaces */
}

/* ---- mapping rules ----------------------------------------------------- */

static void test_map_rules(void)
{
    cg_device *dev, *other;
    CHECK_EQ(cg_device_create(&dev), 0);
    CHECK_EQ(cg_device_create(&other), 0);
    cg_vas_config c = {.va_bits = 32, .big_page_size = 65536};
    cg_vas *vas;
    CHECK_EQ(cg_vas_create(dev, &c, &vas), 0);
    cg_mem *a = new_mem(dev, 64 * KiB), *b = new_mem(dev, 8 * KiB);
    cg_mem *big = new_mem(dev, 128 * KiB), *odd = new_mem(dev, 68 * KiB);
    cg_mem *foreign = new_mem(other, 4 * KiB);
    uint64_t va = 0;

    /* Placed: first fit from va_start (one page by default). */
    cg_map_params p = {.mem = a};
    CHECK_EQ(cg_vas_map(vas, &p, &va), 0);
    CHECK_EQ(va, 0x1000);
    p = (cg_map_params){.mem = b, .kind = 0xfe, .layout = CG_LAYOUT_BLOCK_LINEAR};
    CHECK_EQ(cg_vas_map(vas, &p, &va), 0);
    CHECK_EQ(va, 0x11000);
    cg_mapping_info info;
    CHECK_EQ(cg_vas_lookup(vas, 0x12fff, &info), 0);
    CHECK_EQ(info.va, 0x11000);
    CHECK_EQ(info.size, 8 * KiB);
    CHECK(info.mem == b);
    CHECK_EQ(info.offset, 0);
    CHECK_EQ(info.page_size, 4096);
    CHECK_EQ(info.flags, 0);
    CHECK_EQ(info.kind, 0xfe);
    CHECK_EQ(info.layout, CG_LAYOUT_BLOCK_LINEAR);
    CHECK_EQ(cg_vas_lookup(vas, 0x13000, &info), CG_ERR_NOENT);
    CHECK_EQ(cg_vas_lookup(vas, 0x0, &info), CG_ERR_NOENT);

    /* Alignment: placed at the next multiple. */
    p = (cg_map_params){.mem = b, .align = 1 * MiB};
    CHECK_EQ(cg_vas_map(vas, &p, &va), 0);
    CHECK_EQ(va, 1 * MiB);
    p.align = 3 * 4096;
    CHECK_EQ(cg_vas_map(vas, &p, &va), CG_ERR_INVAL);

    /* Offset and size: size 0 is the rest of the object. */
    p = (cg_map_params){.mem = a, .offset = 0x2000, .flags = CG_MAP_READ_ONLY};
    CHECK_EQ(cg_vas_map(vas, &p, &va), 0);
    CHECK_EQ(va, 0x13000);
    CHECK_EQ(cg_vas_lookup(vas, va, &info), 0);
    CHECK_EQ(info.size, 0xE000);
    CHECK_EQ(info.offset, 0x2000);
    CHECK_EQ(info.flags, CG_MAP_READ_ONLY);
    p = (cg_map_params){.mem = a, .offset = 0x800};
    CHECK_EQ(cg_vas_map(vas, &p, &va), CG_ERR_ALIGN);
    p = (cg_map_params){.mem = a, .offset = 64 * KiB};
    CHECK_EQ(cg_vas_map(vas, &p, &va), CG_ERR_RANGE);
    p = (cg_map_params){.mem = a, .offset = 0x1000, .size = 64 * KiB};
    CHECK_EQ(cg_vas_map(vas, &p, &va), CG_ERR_RANGE);
    p = (cg_map_params){.mem = a, .size = 0x1800};
    CHECK_EQ(cg_vas_map(vas, &p, &va), CG_ERR_ALIGN);

    /* Fixed: alignment, overlap, top of the VA. */
    CHECK_EQ(map_fixed(vas, b, 0x200800, 0, 0, 0), CG_ERR_ALIGN);
    CHECK_EQ(map_fixed(vas, b, 0x12000, 0, 0, 0), CG_ERR_OVERLAP);
    CHECK_EQ(map_fixed(vas, b, 0x10000, 0, 0, 0), CG_ERR_OVERLAP);
    CHECK_EQ(map_fixed(vas, b, (1ull << 32) - 0x1000, 0, 0, 0), CG_ERR_RANGE);
    CHECK_EQ(map_fixed(vas, b, 1ull << 32, 0, 0, 0), CG_ERR_RANGE);
    CHECK_EQ(map_fixed(vas, b, (1ull << 32) - 0x2000, 0, 0, 0), 0);
    CHECK_EQ(map_fixed(vas, b, 0, 0, 0x1000, 0), 0); /* page 0 is allowed when fixed */

    /* Bad arguments. */
    p = (cg_map_params){.mem = a, .page_size = 8192};
    CHECK_EQ(cg_vas_map(vas, &p, &va), CG_ERR_INVAL);
    p = (cg_map_params){.mem = foreign};
    CHECK_EQ(cg_vas_map(vas, &p, &va), CG_ERR_INVAL);
    p = (cg_map_params){.mem = NULL};
    CHECK_EQ(cg_vas_map(vas, &p, &va), CG_ERR_INVAL);
    p = (cg_map_params){.mem = a, .flags = 1u << 7};
    CHECK_EQ(cg_vas_map(vas, &p, &va), CG_ERR_INVAL);
    p = (cg_map_params){.mem = a, .layout = (cg_layout)7};
    CHECK_EQ(cg_vas_map(vas, &p, &va), CG_ERR_INVAL);
    p = (cg_map_params){.mem = a, .flags = CG_MAP_IN_RESV};
    CHECK_EQ(cg_vas_map(vas, &p, &va), CG_ERR_INVAL);

    /* Big pages: va, offset and size multiples of 64 KiB; placed at 64 KiB. */
    p = (cg_map_params){.mem = big, .page_size = 65536};
    CHECK_EQ(cg_vas_map(vas, &p, &va), 0);
    CHECK_EQ(va, 0x30000); /* 0x20000 collides with the mapping ending at 0x21000 */
    CHECK_EQ(cg_vas_lookup(vas, va, &info), 0);
    CHECK_EQ(info.page_size, 65536);
    p = (cg_map_params){.mem = big, .page_size = 65536, .offset = 0x1000, .size = 0x10000};
    CHECK_EQ(cg_vas_map(vas, &p, &va), CG_ERR_ALIGN);
    p = (cg_map_params){.mem = big, .page_size = 65536, .size = 0x11000};
    CHECK_EQ(cg_vas_map(vas, &p, &va), CG_ERR_ALIGN);
    p = (cg_map_params){.mem = odd, .page_size = 65536}; /* rest = 68 KiB */
    CHECK_EQ(cg_vas_map(vas, &p, &va), CG_ERR_ALIGN);
    p = (cg_map_params){.mem = big, .page_size = 65536, .flags = CG_MAP_FIXED, .va = 0x401000};
    CHECK_EQ(cg_vas_map(vas, &p, &va), CG_ERR_ALIGN);
    p.va = 0x400000;
    CHECK_EQ(cg_vas_map(vas, &p, &va), 0);
    CHECK_EQ(va, 0x400000);
    p = (cg_map_params){.mem = big, .page_size = 131072}; /* not this VA's big page */
    CHECK_EQ(cg_vas_map(vas, &p, &va), CG_ERR_INVAL);

    /* Unmap: only at a mapping's start. */
    size_t count = cg_vas_mapping_count(vas);
    CHECK_EQ(count, 8);
    CHECK_EQ(cg_vas_unmap(vas, 0x11000 + 0x1000), CG_ERR_NOENT);
    CHECK_EQ(cg_vas_unmap(vas, 0x11000), 0);
    CHECK_EQ(cg_vas_unmap(vas, 0x11000), CG_ERR_NOENT);
    CHECK_EQ(cg_vas_mapping_count(vas), count - 1);
    CHECK_EQ(cg_vas_lookup(vas, 0x11000, &info), CG_ERR_NOENT);
    /* The freed range is reused by first fit. */
    p = (cg_map_params){.mem = b};
    CHECK_EQ(cg_vas_map(vas, &p, &va), 0);
    CHECK_EQ(va, 0x11000);

    cg_mem_unref(a);
    cg_mem_unref(b);
    cg_mem_unref(big);
    cg_mem_unref(odd);
    cg_mem_unref(foreign);
    cg_device_destroy(dev);
    cg_device_destroy(other);
}

static void test_placement_window(void)
{
    cg_device *dev;
    CHECK_EQ(cg_device_create(&dev), 0);
    cg_vas_config c = {.va_bits = 24, .va_start = 0x100000, .va_end = 0x104000};
    cg_vas *vas;
    CHECK_EQ(cg_vas_create(dev, &c, &vas), 0);
    cg_mem *m = new_mem(dev, 8 * KiB);
    cg_map_params p = {.mem = m};
    uint64_t va = 0;
    CHECK_EQ(cg_vas_map(vas, &p, &va), 0);
    CHECK_EQ(va, 0x100000);
    CHECK_EQ(cg_vas_map(vas, &p, &va), 0);
    CHECK_EQ(va, 0x102000);
    CHECK_EQ(cg_vas_map(vas, &p, &va), CG_ERR_NOSPACE);
    /* Fixed maps are not bound to the placement window. */
    CHECK_EQ(map_fixed(vas, m, 0x200000, 0, 0, 0), 0);
    uint64_t rva = 0;
    CHECK_EQ(cg_vas_reserve(vas, &rva, 0x1000, 0, 4096, 0), CG_ERR_NOSPACE);
    CHECK_EQ(cg_vas_unmap(vas, 0x100000), 0);
    CHECK_EQ(cg_vas_reserve(vas, &rva, 0x1000, 0, 4096, 0), 0);
    CHECK_EQ(rva, 0x100000);
    /* A placed map must avoid the reservation too. */
    p.size = 0x1000;
    CHECK_EQ(cg_vas_map(vas, &p, &va), 0);
    CHECK_EQ(va, 0x101000);
    cg_mem_unref(m);
    cg_device_destroy(dev);
}

static void test_reservations(void)
{
    cg_device *dev;
    CHECK_EQ(cg_device_create(&dev), 0);
    cg_vas_config c = {.va_bits = 32, .big_page_size = 131072};
    cg_vas *vas;
    CHECK_EQ(cg_vas_create(dev, &c, &vas), 0);
    cg_mem *m = new_mem(dev, 16 * KiB);
    uint64_t va;

    va = 0x100000;
    CHECK_EQ(cg_vas_reserve(vas, &va, 1 * MiB, 0, 4096, CG_RESV_FIXED | CG_RESV_SPARSE), 0);
    CHECK_EQ(va, 0x100000);
    va = 0x180000;
    CHECK_EQ(cg_vas_reserve(vas, &va, 1 * MiB, 0, 4096, CG_RESV_FIXED), CG_ERR_OVERLAP);
    va = 0x0ff000;
    CHECK_EQ(cg_vas_reserve(vas, &va, 0x2000, 0, 4096, CG_RESV_FIXED), CG_ERR_OVERLAP);
    va = 0x0ff000;
    CHECK_EQ(cg_vas_reserve(vas, &va, 0x1000, 0, 4096, CG_RESV_FIXED), 0); /* adjacent */
    va = 0x300800;
    CHECK_EQ(cg_vas_reserve(vas, &va, 0x1000, 0, 4096, CG_RESV_FIXED), CG_ERR_ALIGN);
    va = 0x300000;
    CHECK_EQ(cg_vas_reserve(vas, &va, 0x1800, 0, 4096, CG_RESV_FIXED), CG_ERR_ALIGN);
    CHECK_EQ(cg_vas_reserve(vas, &va, 0, 0, 4096, CG_RESV_FIXED), CG_ERR_INVAL);
    CHECK_EQ(cg_vas_reserve(vas, &va, 0x1000, 0, 8192, CG_RESV_FIXED), CG_ERR_INVAL);
    CHECK_EQ(cg_vas_reserve(vas, &va, 0x1000, 0, 4096, 1u << 5), CG_ERR_INVAL);
    CHECK_EQ(cg_vas_reserve(vas, &va, 0x1000, 0x3000, 4096, 0), CG_ERR_INVAL);
    CHECK_EQ(cg_vas_reserve(vas, NULL, 0x1000, 0, 4096, 0), CG_ERR_INVAL);
    va = (1ull << 32) - 0x1000;
    CHECK_EQ(cg_vas_reserve(vas, &va, 0x2000, 0, 4096, CG_RESV_FIXED), CG_ERR_RANGE);
    /* Big-page reservations: multiples of 128 KiB. */
    va = 0x1000000 + 0x10000;
    CHECK_EQ(cg_vas_reserve(vas, &va, 0x20000, 0, 131072, CG_RESV_FIXED), CG_ERR_ALIGN);
    va = 0x1000000;
    CHECK_EQ(cg_vas_reserve(vas, &va, 0x30000, 0, 131072, CG_RESV_FIXED), CG_ERR_ALIGN);
    CHECK_EQ(cg_vas_reserve(vas, &va, 0x40000, 0, 131072, CG_RESV_FIXED), 0);
    /* Placed: first fit with alignment, skipping reservations. */
    CHECK_EQ(cg_vas_reserve(vas, &va, 0x3000, 0, 4096, 0), 0);
    CHECK_EQ(va, 0x1000);
    CHECK_EQ(cg_vas_reserve(vas, &va, 0x1000, 0x100000, 4096, 0), 0);
    CHECK_EQ(va, 0x200000);
    CHECK_EQ(cg_vas_reserve(vas, &va, 0x20000, 0, 131072, CG_RESV_SPARSE), 0);
    CHECK_EQ(va, 0x20000);

    uint64_t start = 0, size = 0;
    uint32_t flags = 0;
    CHECK_EQ(cg_vas_reservation_at(vas, 0x1ff000, &start, &size, &flags), 1);
    CHECK_EQ(start, 0x100000);
    CHECK_EQ(size, 1 * MiB);
    CHECK_EQ(flags, CG_RESV_FIXED | CG_RESV_SPARSE);
    CHECK_EQ(cg_vas_reservation_at(vas, 0x1000000, &start, &size, &flags), 0);
    CHECK_EQ(size, 0x40000);
    CHECK_EQ(cg_vas_reservation_at(vas, 0x201000, NULL, NULL, NULL), CG_ERR_NOENT);

    /* Fixed maps and reservations. */
    CHECK_EQ(map_fixed(vas, m, 0x140000, 0, 0, CG_MAP_IN_RESV), 0);
    CHECK_EQ(map_fixed(vas, m, 0x1fe000, 0, 0, CG_MAP_IN_RESV), CG_ERR_NOENT); /* runs out */
    CHECK_EQ(map_fixed(vas, m, 0x1fe000, 0, 0, 0), CG_ERR_OVERLAP); /* straddles the end */
    CHECK_EQ(map_fixed(vas, m, 0x5000000, 0, 0, CG_MAP_IN_RESV), CG_ERR_NOENT);
    CHECK_EQ(map_fixed(vas, m, 0x5000000, 0, 0, 0), 0); /* outside every reservation */
    CHECK_EQ(map_fixed(vas, m, 0x150000, 0, 0, 0), 0);  /* inside without the flag */
    CHECK_EQ(map_fixed(vas, m, 0x152000, 0, 0, CG_MAP_IN_RESV), CG_ERR_OVERLAP);
    /* A reservation may not take over VA a mapping uses. */
    va = 0x4ff0000;
    CHECK_EQ(cg_vas_reserve(vas, &va, 0x20000, 0, 4096, CG_RESV_FIXED), CG_ERR_OVERLAP);

    /* Unreserve unmaps what is inside and drops the object references. */
    CHECK_EQ(m->refs, 4);
    CHECK_EQ(cg_vas_mapping_count(vas), 3);
    CHECK_EQ(cg_vas_unreserve(vas, 0x140000), CG_ERR_NOENT);
    CHECK_EQ(cg_vas_unreserve(vas, 0x100000), 0);
    CHECK_EQ(cg_vas_mapping_count(vas), 1);
    CHECK_EQ(m->refs, 2);
    CHECK_EQ(cg_vas_reservation_at(vas, 0x140000, NULL, NULL, NULL), CG_ERR_NOENT);
    cg_mapping_info info;
    CHECK_EQ(cg_vas_lookup(vas, 0x140000, &info), CG_ERR_NOENT);
    CHECK_EQ(cg_vas_lookup(vas, 0x5000000, &info), 0);
    CHECK_EQ(cg_vas_unreserve(vas, 0x100000), CG_ERR_NOENT);

    cg_mem_unref(m);
    cg_device_destroy(dev);
}

/* ---- accesses ---------------------------------------------------------- */

static const cg_agent ce = {
    .family = CG_FAMILY_NV, .unit = "ce", .channel = 3, .stream_addr = 0xabc0,
    .words = {0x20018000, 0x00000100}, .nwords = 2,
};

static void test_straddles(void)
{
    cg_device *dev;
    CHECK_EQ(cg_device_create(&dev), 0);
    cg_vas_config c = {.va_bits = 32};
    cg_vas *vas;
    CHECK_EQ(cg_vas_create(dev, &c, &vas), 0);
    cg_mem *a = new_mem(dev, 8 * KiB), *b = new_mem(dev, 8 * KiB), *d = new_mem(dev, 8 * KiB);
    pattern(a, 0x11);
    pattern(b, 0x55);
    pattern(d, 0x99);
    CHECK_EQ(map_fixed(vas, a, 0x10000, 0, 0, 0), 0);
    CHECK_EQ(map_fixed(vas, b, 0x12000, 0, 0, 0), 0);
    CHECK_EQ(map_fixed(vas, d, 0x15000, 0, 0, 0), 0); /* gap at 0x14000 */

    /* A read across a page boundary and two objects. */
    uint8_t buf[0x3000], want[0x3000];
    CHECK_EQ(cg_vas_read(vas, 0x11ff0, buf, 0x20, &ce), 0);
    for (int i = 0; i < 16; i++) {
        want[i] = pattern_at(0x11, 0x1ff0 + i);
        want[16 + i] = pattern_at(0x55, i);
    }
    CHECK_MEM(buf, want, 0x20);
    /* A large read covering all of a and b. */
    CHECK_EQ(cg_vas_read(vas, 0x10000, buf, 0x3000, NULL), 0);
    for (int i = 0; i < 0x3000; i++)
        want[i] = i < 0x2000 ? pattern_at(0x11, i) : pattern_at(0x55, i - 0x2000);
    CHECK_MEM(buf, want, 0x3000);
    CHECK_EQ(cg_fault_count(dev), 0);

    /* Across the gap: one UNMAPPED fault at its first byte, buffer untouched. */
    memset(buf, 0xcd, sizeof(buf));
    CHECK_EQ(cg_vas_read(vas, 0x13000, buf, 0x3000, &ce), CG_ERR_FAULT);
    CHECK_EQ(cg_fault_count(dev), 1);
    const cg_fault *f = last_fault(dev);
    CHECK_EQ(f->seq, 0);
    CHECK_EQ(f->kind, CG_FAULT_UNMAPPED);
    CHECK_EQ(f->family, CG_FAMILY_NV);
    CHECK_EQ(f->flags, 0);
    CHECK_STR(f->unit, "ce");
    CHECK_EQ(f->channel, 3);
    CHECK_EQ(f->gpu_addr, 0x14000);
    CHECK_EQ(f->stream_addr, 0xabc0);
    CHECK_EQ(f->nwords, 2);
    CHECK_EQ(f->words[0], 0x20018000);
    CHECK_EQ(f->words[1], 0x100);
    CHECK(contains(f->message, "read of 0x3000 bytes at 0x13000"));
    CHECK(contains(f->message, "no mapping at 0x14000"));
    size_t cd = 0;
    for (size_t i = 0; i < sizeof(buf); i++)
        cd += buf[i] == 0xcd;
    CHECK_EQ(cd, sizeof(buf));

    /* A write across the gap changes nothing, even the mapped part. */
    memset(buf, 0xee, sizeof(buf));
    CHECK_EQ(cg_vas_write(vas, 0x13f00, buf, 0x200, NULL), CG_ERR_FAULT);
    f = last_fault(dev);
    CHECK_EQ(f->kind, CG_FAULT_UNMAPPED);
    CHECK_EQ(f->gpu_addr, 0x14000);
    CHECK_STR(f->unit, "gpu"); /* NULL agent */
    CHECK_EQ(f->channel, -1);
    CHECK_EQ(f->family, CG_FAMILY_NONE);
    CHECK_EQ(f->stream_addr, 0);
    CHECK_EQ(f->nwords, 0);
    CHECK(contains(f->message, "write of 0x200 bytes at 0x13f00"));
    uint8_t got[0x100];
    CHECK_EQ(cg_mem_read(b, 0x1f00, got, 0x100), 0);
    for (int i = 0; i < 0x100; i++)
        want[i] = pattern_at(0x55, 0x1f00 + i);
    CHECK_MEM(got, want, 0x100);

    /* A write across two objects lands in both. */
    for (int i = 0; i < 0x40; i++)
        buf[i] = (uint8_t)(0xa0 + i);
    CHECK_EQ(cg_vas_write(vas, 0x11fe0, buf, 0x40, NULL), 0);
    CHECK_EQ(cg_mem_read(a, 0x1fe0, got, 0x20), 0);
    CHECK_MEM(got, buf, 0x20);
    CHECK_EQ(cg_mem_read(b, 0, got, 0x20), 0);
    CHECK_MEM(got, buf + 0x20, 0x20);

    /* Fill across them; read32/64 across a page boundary, little-endian. */
    CHECK_EQ(cg_vas_fill(vas, 0x11ffc, 0x5a, 8, NULL), 0);
    uint64_t v64 = 0;
    CHECK_EQ(cg_vas_read64(vas, 0x11ffc, &v64, NULL), 0);
    CHECK_EQ(v64, 0x5a5a5a5a5a5a5a5aull);
    CHECK_EQ(cg_vas_write64(vas, 0x11ffc, 0x1122334455667788ull, NULL), 0);
    uint8_t le[8];
    CHECK_EQ(cg_mem_read(a, 0x1ffc, le, 4), 0);
    CHECK_EQ(cg_mem_read(b, 0, le + 4, 4), 0);
    const uint8_t le_want[8] = {0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11};
    CHECK_MEM(le, le_want, 8);
    uint32_t v32 = 0;
    CHECK_EQ(cg_vas_read32(vas, 0x11ffe, &v32, NULL), 0);
    CHECK_EQ(v32, 0x33445566);
    CHECK_EQ(cg_vas_write32(vas, 0x10010, 0xdeadbeef, NULL), 0);
    CHECK_EQ(cg_vas_read32(vas, 0x10010, &v32, NULL), 0);
    CHECK_EQ(v32, 0xdeadbeef);
    v32 = 7;
    CHECK_EQ(cg_vas_read32(vas, 0x14000, &v32, NULL), CG_ERR_FAULT);
    CHECK_EQ(v32, 7);

    /* n == 0 is a no-op anywhere. */
    size_t nf = cg_fault_count(dev);
    CHECK_EQ(cg_vas_read(vas, 0x14000, buf, 0, NULL), 0);
    CHECK_EQ(cg_vas_write(vas, 0x14000, buf, 0, NULL), 0);
    CHECK_EQ(cg_vas_fill(vas, 0xffffffffffull, 0, 0, NULL), 0);
    CHECK_EQ(cg_vas_copy(vas, 0x14000, 0x14000, 0, NULL), 0);
    CHECK_EQ(cg_fault_count(dev), nf);

    cg_mem_unref(a);
    cg_mem_unref(b);
    cg_mem_unref(d);
    cg_device_destroy(dev);
}

static void test_read_only_and_range(void)
{
    cg_device *dev;
    CHECK_EQ(cg_device_create(&dev), 0);
    cg_vas_config c = {.va_bits = 32};
    cg_vas *vas;
    CHECK_EQ(cg_vas_create(dev, &c, &vas), 0);
    cg_mem *rw = new_mem(dev, 8 * KiB), *ro = new_mem(dev, 8 * KiB), *top = new_mem(dev, 8 * KiB);
    CHECK_EQ(map_fixed(vas, rw, 0x20000, 0, 0, 0), 0);
    CHECK_EQ(map_fixed(vas, ro, 0x22000, 0, 0, CG_MAP_READ_ONLY), 0);
    CHECK_EQ(map_fixed(vas, top, (1ull << 32) - 0x2000, 0, 0, 0), 0);
    CHECK_EQ(cg_mem_fill(ro, 0, 0x77, 8 * KiB), 0);

    /* Reads of read-only memory are fine, writes fault at the first RO byte
     * and leave the writable part alone. */
    uint8_t buf[64];
    CHECK_EQ(cg_vas_read(vas, 0x22000, buf, 4, &ce), 0);
    CHECK_EQ(buf[0], 0x77);
    memset(buf, 0x42, sizeof(buf));
    CHECK_EQ(cg_vas_write(vas, 0x21ff0, buf, 0x20, &ce), CG_ERR_FAULT);
    const cg_fault *f = last_fault(dev);
    CHECK_EQ(f->kind, CG_FAULT_READ_ONLY);
    CHECK_EQ(f->gpu_addr, 0x22000);
    CHECK_STR(f->unit, "ce");
    CHECK_EQ(f->flags, 0);
    CHECK(contains(f->message, "write of 0x20 bytes at 0x21ff0"));
    CHECK(contains(f->message, "read-only mapping 0x22000+0x2000 of mem 2"));
    uint8_t got[16];
    CHECK_EQ(cg_mem_read(rw, 0x1ff0, got, 16), 0);
    CHECK_EQ(got[0], 0);
    CHECK_EQ(got[15], 0);
    CHECK_EQ(cg_vas_write32(vas, 0x22100, 1, NULL), CG_ERR_FAULT);
    CHECK_EQ(cg_vas_fill(vas, 0x22100, 1, 1, NULL), CG_ERR_FAULT);
    CHECK_EQ(last_fault(dev)->kind, CG_FAULT_READ_ONLY);
    CHECK(contains(last_fault(dev)->message, "fill of 0x1 bytes at 0x22100"));
    CHECK_EQ(cg_vas_copy(vas, 0x22000, 0x20000, 16, NULL), CG_ERR_FAULT);
    CHECK(contains(last_fault(dev)->message, "(destination)"));
    CHECK_EQ(cg_mem_read(ro, 0, got, 1), 0);
    CHECK_EQ(got[0], 0x77);
    uint64_t bad = 1;
    CHECK_EQ(cg_vas_check(vas, 0x21000, 0x2000, true, &bad), CG_FAULT_READ_ONLY);
    CHECK_EQ(bad, 0x22000);
    CHECK_EQ(cg_vas_check(vas, 0x21000, 0x2000, false, &bad), CG_FAULT_NONE);
    CHECK_EQ(bad, 0);

    /* The top of the VA: the first byte past 2^32, or the start if it is past. */
    size_t nf = cg_fault_count(dev);
    memset(buf, 0xcd, sizeof(buf));
    CHECK_EQ(cg_vas_read(vas, (1ull << 32) - 8, buf, 16, &ce), CG_ERR_FAULT);
    f = last_fault(dev);
    CHECK_EQ(f->kind, CG_FAULT_ADDR_RANGE);
    CHECK_EQ(f->gpu_addr, 1ull << 32);
    CHECK(contains(f->message, "leaves the 32-bit address space at 0x100000000"));
    CHECK_EQ(buf[0], 0xcd);
    CHECK_EQ(cg_vas_read(vas, 1ull << 32, buf, 1, NULL), CG_ERR_FAULT);
    CHECK_EQ(last_fault(dev)->gpu_addr, 1ull << 32);
    CHECK_EQ(cg_vas_write(vas, UINT64_MAX - 3, buf, 8, NULL), CG_ERR_FAULT);
    CHECK_EQ(last_fault(dev)->kind, CG_FAULT_ADDR_RANGE);
    CHECK_EQ(last_fault(dev)->gpu_addr, UINT64_MAX - 3);
    CHECK_EQ(cg_fault_count(dev), nf + 3);
    /* Wrapping 2^64 from a mapped address: the first bad byte is 2^32. */
    CHECK_EQ(cg_vas_check(vas, (1ull << 32) - 0x10, UINT64_MAX, false, &bad),
             CG_FAULT_ADDR_RANGE);
    CHECK_EQ(bad, 1ull << 32);
    /* Address order: an unmapped byte before the top is reported first. */
    CHECK_EQ(cg_vas_check(vas, (1ull << 32) - 0x3000, 0x4000, false, &bad), CG_FAULT_UNMAPPED);
    CHECK_EQ(bad, (1ull << 32) - 0x3000);
    CHECK_EQ(cg_vas_check(vas, (1ull << 32) - 0x2000, 0x2000, true, &bad), CG_FAULT_NONE);
    CHECK_EQ(cg_vas_check(vas, 0x5000, 0, false, &bad), CG_FAULT_NONE);
    CHECK_EQ(cg_fault_count(dev), nf + 3); /* check raises nothing */

    cg_mem_unref(rw);
    cg_mem_unref(ro);
    cg_mem_unref(top);
    cg_device_destroy(dev);
}

/* A trace sink that counts sparse-write events. */
typedef struct sparse_log {
    int events;
    uint64_t bytes, last_addr, last_size;
    char last_unit[16];
} sparse_log;

static void sparse_sink(void *user, const cg_trace_event *ev)
{
    sparse_log *log = user;
    if (ev->kind != CG_TRACE_SPARSE_WRITE)
        return;
    log->events++;
    log->bytes += ev->size;
    log->last_addr = ev->gpu_addr;
    log->last_size = ev->size;
    snprintf(log->last_unit, sizeof(log->last_unit), "%s", ev->unit ? ev->unit : "");
}

static void test_sparse(void)
{
    cg_device *dev;
    CHECK_EQ(cg_device_create(&dev), 0);
    sparse_log log = {0};
    CHECK(cg_trace_add(dev, sparse_sink, &log) >= 0);
    cg_vas_config c = {.va_bits = 32};
    cg_vas *vas;
    CHECK_EQ(cg_vas_create(dev, &c, &vas), 0);
    cg_mem *m = new_mem(dev, 8 * KiB);
    uint64_t sva = 0x100000, nva = 0x300000;
    CHECK_EQ(cg_vas_reserve(vas, &sva, 1 * MiB, 0, 4096, CG_RESV_FIXED | CG_RESV_SPARSE), 0);
    CHECK_EQ(cg_vas_reserve(vas, &nva, 1 * MiB, 0, 4096, CG_RESV_FIXED), 0);

    /* Unmapped sparse pages read zero and drop writes, with a trace event. */
    uint8_t buf[0x3000];
    memset(buf, 0xcd, sizeof(buf));
    CHECK_EQ(cg_vas_read(vas, 0x100ff0, buf, 0x20, NULL), 0);
    CHECK_EQ(buf[0], 0);
    CHECK_EQ(buf[0x1f], 0);
    CHECK_EQ(buf[0x20], 0xcd);
    CHECK_EQ(cg_vas_write(vas, 0x180000, buf, 0x100, &ce), 0);
    CHECK_EQ(log.events, 1);
    CHECK_EQ(log.last_addr, 0x180000);
    CHECK_EQ(log.last_size, 0x100);
    CHECK_STR(log.last_unit, "ce");
    CHECK_EQ(cg_vas_write32(vas, 0x180000, 1, NULL), 0);
    CHECK_EQ(log.events, 2);
    CHECK_STR(log.last_unit, "gpu");
    uint32_t v = 5;
    CHECK_EQ(cg_vas_read32(vas, 0x180000, &v, NULL), 0);
    CHECK_EQ(v, 0);
    CHECK_EQ(cg_fault_count(dev), 0);
    /* A plain reservation's holes fault. */
    CHECK_EQ(cg_vas_read32(vas, 0x300000, &v, NULL), CG_ERR_FAULT);
    CHECK_EQ(last_fault(dev)->kind, CG_FAULT_UNMAPPED);
    CHECK_EQ(last_fault(dev)->gpu_addr, 0x300000);

    /* A mapping inside: a write straddling it and the sparse hole after it
     * lands in the object for the mapped part and drops the rest. */
    CHECK_EQ(map_fixed(vas, m, 0x140000, 0, 0, CG_MAP_IN_RESV), 0);
    for (int i = 0; i < 0x3000; i++)
        buf[i] = (uint8_t)(i * 3);
    CHECK_EQ(cg_vas_write(vas, 0x13f800, buf, 0x3000, NULL), 0);
    CHECK_EQ(log.events, 4); /* the hole before and the hole after */
    CHECK_EQ(log.last_addr, 0x142000);
    CHECK_EQ(log.last_size, 0x800);
    CHECK_EQ(log.bytes, 0x100 + 4 + 0x800 + 0x800);
    uint8_t got[0x2000];
    CHECK_EQ(cg_mem_read(m, 0, got, 0x2000), 0);
    CHECK_MEM(got, buf + 0x800, 0x2000);
    memset(got, 0xcd, sizeof(got));
    CHECK_EQ(cg_vas_read(vas, 0x13f800, buf, 0x3000, NULL), 0);
    CHECK_EQ(buf[0], 0);
    CHECK_EQ(buf[0x7ff], 0);
    CHECK_EQ(buf[0x801], 3);
    CHECK_EQ(buf[0x2800], 0);
    /* Copy out of and into the sparse range. */
    CHECK_EQ(cg_vas_copy(vas, 0x141000, 0x1f0000, 0x10, NULL), 0); /* zeros in */
    CHECK_EQ(cg_mem_read(m, 0x1000, got, 0x10), 0);
    CHECK_EQ(got[0], 0);
    CHECK_EQ(got[0xf], 0);
    int before = log.events;
    CHECK_EQ(cg_vas_copy(vas, 0x1f0000, 0x140000, 0x40, NULL), 0); /* dropped */
    CHECK_EQ(log.events, before + 1);
    CHECK_EQ(log.last_addr, 0x1f0000);
    CHECK_EQ(log.last_size, 0x40);
    CHECK_EQ(cg_vas_fill(vas, 0x1f0000, 1, 0x2000, NULL), 0);
    CHECK_EQ(log.events, before + 2);
    CHECK_EQ(log.last_size, 0x2000);

    /* Unmapping inside a sparse reservation: zeros again. */
    CHECK_EQ(cg_vas_unmap(vas, 0x140000), 0);
    v = 5;
    CHECK_EQ(cg_vas_read32(vas, 0x140004, &v, NULL), 0);
    CHECK_EQ(v, 0);
    CHECK_EQ(cg_fault_count(dev), 1);
    CHECK_EQ(cg_vas_check(vas, 0x100000, 1 * MiB, true, NULL), CG_FAULT_NONE);
    /* Leaving the sparse reservation into nothing faults. */
    uint64_t bad;
    CHECK_EQ(cg_vas_check(vas, 0x1ff000, 0x2000, false, &bad), CG_FAULT_UNMAPPED);
    CHECK_EQ(bad, 0x200000);

    cg_mem_unref(m);
    cg_device_destroy(dev);
}

static void test_copy(void)
{
    cg_device *dev;
    CHECK_EQ(cg_device_create(&dev), 0);
    cg_vas_config c = {.va_bits = 32};
    cg_vas *vas;
    CHECK_EQ(cg_vas_create(dev, &c, &vas), 0);
    cg_mem *m = new_mem(dev, 64 * KiB), *n = new_mem(dev, 64 * KiB);
    CHECK_EQ(map_fixed(vas, m, 0x100000, 0, 0, 0), 0);
    CHECK_EQ(map_fixed(vas, m, 0x200000, 0, 0, 0), 0); /* an alias of m */
    CHECK_EQ(map_fixed(vas, n, 0x300000, 0, 0, 0), 0);
    uint8_t *ref = malloc(64 * KiB), *got = malloc(64 * KiB);

    /* Overlapping copies within one mapping, both directions (memmove). */
    pattern(m, 1);
    CHECK_EQ(cg_mem_read(m, 0, ref, 64 * KiB), 0);
    CHECK_EQ(cg_vas_copy(vas, 0x100010, 0x100000, 0x5000, NULL), 0);
    memmove(ref + 0x10, ref, 0x5000);
    CHECK_EQ(cg_mem_read(m, 0, got, 64 * KiB), 0);
    CHECK_MEM(got, ref, 64 * KiB);
    CHECK_EQ(cg_vas_copy(vas, 0x100000, 0x100ff3, 0x6000, NULL), 0);
    memmove(ref, ref + 0xff3, 0x6000);
    CHECK_EQ(cg_mem_read(m, 0, got, 64 * KiB), 0);
    CHECK_MEM(got, ref, 64 * KiB);
    /* Through two aliased mappings of one object. */
    CHECK_EQ(cg_vas_copy(vas, 0x200100, 0x100000, 0x3000, NULL), 0);
    memmove(ref + 0x100, ref, 0x3000);
    CHECK_EQ(cg_mem_read(m, 0, got, 64 * KiB), 0);
    CHECK_MEM(got, ref, 64 * KiB);
    /* Single-page copies take the memmove fast path: overlap within a page
     * and through the alias. */
    CHECK_EQ(cg_vas_copy(vas, 0x100a08, 0x100a00, 0x100, NULL), 0);
    memmove(ref + 0xa08, ref + 0xa00, 0x100);
    CHECK_EQ(cg_vas_copy(vas, 0x200b00, 0x100b40, 0x80, NULL), 0);
    memmove(ref + 0xb00, ref + 0xb40, 0x80);
    CHECK_EQ(cg_mem_read(m, 0, got, 64 * KiB), 0);
    CHECK_MEM(got, ref, 64 * KiB);
    /* Between objects, misaligned, including absent source pages. */
    CHECK_EQ(cg_vas_copy(vas, 0x300123, 0x100456, 0x8000, NULL), 0);
    uint8_t *nref = calloc(1, 64 * KiB);
    memcpy(nref + 0x123, ref + 0x456, 0x8000);
    CHECK_EQ(cg_mem_read(n, 0, got, 64 * KiB), 0);
    CHECK_MEM(got, nref, 64 * KiB);
    uint64_t res = cg_mem_resident_bytes(n);
    CHECK_EQ(res, 9 * 4096);
    cg_mem *e = new_mem(dev, 64 * KiB); /* never written */
    CHECK_EQ(map_fixed(vas, e, 0x400000, 0, 0, 0), 0);
    CHECK_EQ(cg_vas_copy(vas, 0x300000, 0x400000, 0x1000, NULL), 0); /* zeros over data */
    CHECK_EQ(cg_mem_read(n, 0, got, 0x1000), 0);
    memset(nref, 0, 0x1000);
    CHECK_MEM(got, nref, 0x1000);
    CHECK_EQ(cg_vas_copy(vas, 0x30a000, 0x400000, 0x2000, NULL), 0); /* zeros into absent */
    CHECK_EQ(cg_vas_copy(vas, 0x30c010, 0x400020, 0x10, NULL), 0);
    CHECK_EQ(cg_mem_resident_bytes(n), res);
    CHECK_EQ(cg_mem_resident_bytes(e), 0);
    /* A faulting source: one fault naming the source, destination untouched. */
    CHECK_EQ(cg_vas_copy(vas, 0x300000, 0x40f000, 0x2000, &ce), CG_ERR_FAULT);
    const cg_fault *f = last_fault(dev);
    CHECK_EQ(f->kind, CG_FAULT_UNMAPPED);
    CHECK_EQ(f->gpu_addr, 0x410000);
    CHECK(contains(f->message, "copy of 0x2000 bytes from 0x40f000 to 0x300000 (source)"));
    CHECK_EQ(cg_mem_read(n, 0, got, 0x1000), 0);
    CHECK_MEM(got, nref, 0x1000);
    CHECK_EQ(cg_fault_count(dev), 1);

    free(ref);
    free(got);
    free(nref);
    cg_mem_unref(m);
    cg_mem_unref(n);
    cg_mem_unref(e);
    cg_device_destroy(dev);
}

/* ---- host cost, references, translation cache ---------------------------- */

static void test_host_cost(void)
{
    cg_device *dev;
    CHECK_EQ(cg_device_create(&dev), 0);
    cg_vas_config c = {.va_bits = 48};
    cg_vas *vas;
    CHECK_EQ(cg_vas_create(dev, &c, &vas), 0);
    size_t base = cg_device_host_bytes(dev);
    uint64_t va = 0;
    CHECK_EQ(cg_vas_reserve(vas, &va, 1 * TiB, 0, 4096, CG_RESV_SPARSE), 0);
    CHECK_EQ(va, 0x1000); /* first fit from va_start, one page */
    size_t resv_cost = cg_device_host_bytes(dev) - base;
    CHECK(resv_cost < 1 * MiB);
    CHECK(resv_cost < 4 * KiB);
    cg_mem *m = new_mem(dev, 1 * MiB);
    CHECK_EQ(map_fixed(vas, m, va + 0x12345000, 0, 0, CG_MAP_IN_RESV), 0);
    size_t map_cost = cg_device_host_bytes(dev) - base;
    CHECK(map_cost < 1 * MiB);
    CHECK_EQ(cg_mem_resident_bytes(m), 0);
    /* Reads anywhere in the terabyte are cheap zeros. */
    uint8_t buf[64];
    CHECK_EQ(cg_vas_read(vas, va + 700 * GiB, buf, sizeof(buf), NULL), 0);
    CHECK_EQ(cg_vas_read(vas, va + 0x12345000 + 0x10, buf, sizeof(buf), NULL), 0);
    CHECK_EQ(cg_mem_resident_bytes(m), 0);
    CHECK_EQ(cg_device_host_bytes(dev) - base, map_cost);

    /* A 1 GiB mapping at a 1 GiB boundary is one page-table entry. */
    cg_mem *g = new_mem(dev, 1 * GiB);
    size_t before = cg_device_host_bytes(dev);
    CHECK_EQ(map_fixed(vas, g, 4 * TiB, 0, 0, 0), 0);
    CHECK(cg_device_host_bytes(dev) - before < 8 * KiB); /* a record and one node */
    CHECK_EQ(cg_vas_write32(vas, 4 * TiB + 0x12345678, 0xcafef00d, NULL), 0);
    uint32_t v = 0;
    CHECK_EQ(cg_mem_read(g, 0x12345678, &v, 4), 0);
    CHECK_EQ(v, 0xcafef00d);
    CHECK_EQ(cg_mem_resident_bytes(g), 4096);
    /* A 2 MiB-aligned 4 MiB + 8 KiB mapping: two block entries plus a leaf. */
    cg_mem *h = new_mem(dev, 4 * MiB + 8 * KiB);
    CHECK_EQ(map_fixed(vas, h, 8 * TiB, 0, 0, 0), 0);
    CHECK_EQ(cg_vas_write32(vas, 8 * TiB + 4 * MiB + 0x1ffc, 0x01020304, NULL), 0);
    CHECK_EQ(cg_vas_read32(vas, 8 * TiB + 4 * MiB + 0x1ffc, &v, NULL), 0);
    CHECK_EQ(v, 0x01020304);
    CHECK_EQ(cg_mem_read(h, 4 * MiB + 0x1ffc, &v, 4), 0);
    CHECK_EQ(v, 0x01020304);
    CHECK_EQ(cg_vas_read32(vas, 8 * TiB + 4 * MiB + 0x2000, &v, NULL), CG_ERR_FAULT);

    /* Unmapping and unreserving gives everything back. */
    CHECK_EQ(cg_vas_unmap(vas, 4 * TiB), 0);
    CHECK_EQ(cg_vas_unmap(vas, 8 * TiB), 0);
    CHECK_EQ(cg_vas_unreserve(vas, va), 0);
    cg_mem_unref(m);
    cg_mem_unref(g);
    cg_mem_unref(h);
    CHECK(cg_device_host_peak(dev) >= base + 2 * 4096);
    cg_vas_destroy(vas);
    CHECK_EQ(cg_device_host_bytes(dev), (size_t)(dev->mems_cap * sizeof(cg_mem *)));
    cg_device_destroy(dev);
}

static void test_refs_and_tlb(void)
{
    cg_device *dev;
    CHECK_EQ(cg_device_create(&dev), 0);
    cg_vas *vas, *vas2;
    CHECK_EQ(cg_vas_create(dev, NULL, &vas), 0);
    CHECK_EQ(cg_vas_create(dev, NULL, &vas2), 0);
    cg_mem *a = new_mem(dev, 4 * KiB), *b = new_mem(dev, 4 * KiB);
    uint32_t ida = cg_mem_id(a);
    CHECK_EQ(cg_mem_fill(a, 0, 0xaa, 4096), 0);
    CHECK_EQ(cg_mem_fill(b, 0, 0xbb, 4096), 0);

    /* Mappings hold references: the object outlives its creator's ref. */
    CHECK_EQ(map_fixed(vas, a, 0x10000, 0, 0, 0), 0);
    CHECK_EQ(map_fixed(vas, a, 0x20000, 0, 0, 0), 0);
    CHECK_EQ(map_fixed(vas2, a, 0x10000, 0, 0, 0), 0);
    cg_mem_unref(a);
    CHECK(cg_mem_lookup(dev, ida) == a);
    CHECK_EQ(cg_vas_unmap(vas, 0x10000), 0);
    CHECK(cg_mem_lookup(dev, ida) == a);
    cg_vas_destroy(vas2);
    CHECK(cg_mem_lookup(dev, ida) == a);

    /* The TLB caches the last page; unmap and remap must not see it. */
    uint32_t v = 0;
    CHECK_EQ(cg_vas_read32(vas, 0x20000, &v, NULL), 0);
    CHECK_EQ(v, 0xaaaaaaaa);
    CHECK_EQ(cg_vas_unmap(vas, 0x20000), 0);
    CHECK(cg_mem_lookup(dev, ida) == NULL); /* last reference gone */
    CHECK_EQ(cg_vas_read32(vas, 0x20000, &v, NULL), CG_ERR_FAULT);
    CHECK_EQ(map_fixed(vas, b, 0x20000, 0, 0, 0), 0);
    CHECK_EQ(cg_vas_read32(vas, 0x20000, &v, NULL), 0);
    CHECK_EQ(v, 0xbbbbbbbb);

    /* cg__vas_span: one page at most, zero page for absent reads, 0 where
     * the caller must take the slow path. */
    cg_mem *c = new_mem(dev, 8 * KiB);
    CHECK_EQ(map_fixed(vas, c, 0x30000, 0, 0, 0), 0);
    CHECK_EQ(map_fixed(vas, c, 0x40000, 0, 0, CG_MAP_READ_ONLY), 0);
    uint8_t *p = NULL;
    CHECK_EQ(cg__vas_span(vas, 0x30ff0, 0x100, false, &p), 0x10);
    CHECK(p == cg__zero_page + 0xff0);
    CHECK_EQ(cg_mem_resident_bytes(c), 0);
    CHECK_EQ(cg__vas_span(vas, 0x30ff0, 0x100, true, &p), 0x10);
    CHECK_EQ(cg_mem_resident_bytes(c), 4096);
    CHECK_EQ(cg_vas_fill(vas, 0x31000, 0, 16, NULL), 0); /* zeros: page stays absent */
    CHECK_EQ(cg_mem_resident_bytes(c), 4096);
    p[0] = 0x5c;
    CHECK_EQ(cg__vas_span(vas, 0x40ff0, 4, false, &p), 4);
    CHECK_EQ(p[0], 0x5c); /* same page through the read-only alias */
    CHECK_EQ(cg__vas_span(vas, 0x40ff0, 4, true, &p), 0);
    CHECK_EQ(cg__vas_span(vas, 0x50000, 4, false, &p), 0);
    CHECK_EQ(cg__vas_span(vas, 0x30000, 0, false, &p), 0);
    CHECK_EQ(cg__vas_span(vas, 1ull << 40, 4, false, &p), 0);

    cg_mem_unref(b);
    cg_mem_unref(c);
    cg_vas_destroy(vas);
    CHECK_EQ(cg_device_host_bytes(dev), (size_t)(dev->mems_cap * sizeof(cg_mem *)));
    cg_device_destroy(dev);
}

/* An engine may write words it decoded in place (a pointer from
 * cg__vas_span) into a range that overlaps them: the result is defined, as
 * by memmove within a page (before, this was an overlapping memcpy). */
static void test_write_from_model_memory(void)
{
    cg_device *dev;
    cg_vas *vas;
    cg_mem *mem;
    uint64_t va;
    cg_vas_config cfg = {.va_bits = 32};
    CHECK_EQ(cg_device_create(&dev), 0);
    CHECK_EQ(cg_vas_create(dev, &cfg, &vas), 0);
    CHECK_EQ(cg_mem_create(dev, 2 * CG_PAGE_SIZE, 0, &mem), 0);
    cg_map_params mp = {.mem = mem};
    CHECK_EQ(cg_vas_map(vas, &mp, &va), 0);
    uint8_t pattern[256], got[256];
    for (int i = 0; i < 256; i++)
        pattern[i] = (uint8_t)(i * 7 + 1);
    CHECK_EQ(cg_vas_write(vas, va, pattern, sizeof(pattern), NULL), 0);
    uint8_t *p = NULL;
    CHECK_EQ(cg__vas_span(vas, va, 128, false, &p), 128);
    /* forward overlap inside one page: bytes 0..127 land at 4..131 */
    CHECK_EQ(cg_vas_write(vas, va + 4, p, 128, NULL), 0);
    CHECK_EQ(cg_vas_read(vas, va, got, 256, NULL), 0);
    CHECK_MEM(got, pattern, 4);
    CHECK_MEM(got + 4, pattern, 128);
    CHECK_MEM(got + 132, pattern + 132, 124);
    /* backward overlap: bytes 8..135 land at 0..127 */
    CHECK_EQ(cg_vas_write(vas, va, pattern, sizeof(pattern), NULL), 0);
    CHECK_EQ(cg__vas_span(vas, va + 8, 128, false, &p), 128);
    CHECK_EQ(cg_vas_write(vas, va, p, 128, NULL), 0);
    CHECK_EQ(cg_vas_read(vas, va, got, 256, NULL), 0);
    CHECK_MEM(got, pattern + 8, 128);
    /* a write that crosses into the next page from words at the end of the
     * first page: page by page in address order */
    uint64_t end = va + CG_PAGE_SIZE - 64;
    CHECK_EQ(cg_vas_write(vas, end, pattern, 64, NULL), 0);
    CHECK_EQ(cg__vas_span(vas, end, 64, false, &p), 64);
    CHECK_EQ(cg_vas_write(vas, end + 32, p, 64, NULL), 0);
    CHECK_EQ(cg_vas_read(vas, end + 32, got, 64, NULL), 0);
    CHECK_MEM(got, pattern, 32);      /* the first page's part, as by memmove */
    CHECK_MEM(got + 32, pattern, 32); /* read after the first part was written */
    CHECK_EQ(cg_fault_count(dev), 0);
    cg_mem_unref(mem);
    cg_device_destroy(dev);
}

int main(void)
{
    test_create();
    test_map_rules();
    test_placement_window();
    test_reservations();
    test_straddles();
    test_read_only_and_range();
    test_sparse();
    test_copy();
    test_host_cost();
    test_refs_and_tlb();
    test_write_from_model_memory();
    return check_report("test_vas");
}
