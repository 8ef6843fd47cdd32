/* Fuzzer for Maxwell texture headers and texture reads.
 *
 * Input: a TIC (8 little-endian words), a TSC (8 words), then memory bytes
 * mapped at MAP_VA. Both headers are decoded and printed as JSON (to
 * /dev/null), then the texture is read to RGBA8. To keep a run fast the
 * harness shrinks the texture: width and height are at most 64 texels (1-D
 * buffers 1024), and unless W2 bit 15 is set the address is moved into the
 * mapped bytes (W1 keeps its low 17 bits). W5 bit 15 set instead asks for a
 * width of 16385, which must fail with CG_ERR_RANGE before any allocation.
 *
 * Invariants (abort() otherwise): the read returns 0 with the header's size
 * and a buffer, or an error with NULL and 0 x 0; it never posts a fault. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmdgpu/cmdgpu.h"
#include "cmdgpu/nv3d.h"

#define MAP_VA 0x10000000ull
#define MAX_MEM (1u << 20)

static uint32_t le32(const uint8_t *p)
{
    return p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static FILE *null_out;
    if (!null_out)
        null_out = fopen("/dev/null", "w");
    if (size < 64 || !null_out)
        return 0;
    uint32_t tic_w[8], tsc_w[8];
    for (unsigned i = 0; i < 8; i++) {
        tic_w[i] = le32(data + 4 * i);
        tsc_w[i] = le32(data + 32 + 4 * i);
    }
    const uint8_t *mem_bytes = data + 64;
    size_t mem_n = size - 64 > MAX_MEM ? MAX_MEM : size - 64;

    /* Decode and print the headers exactly as given. */
    cg_nv_tic tic;
    cg_nv_tsc tsc;
    cg_nv_tic_decode(tic_w, &tic);
    cg_nv_tsc_decode(tsc_w, &tsc);
    cg_nv_tic_print_json(null_out, &tic);
    cg_nv_tsc_print_json(null_out, &tsc);

    /* Shrink, then decode again for the read. */
    bool want_range = (tic_w[5] & 0x8000) != 0;
    if (!(tic_w[2] & 0x8000)) {
        tic_w[1] = (uint32_t)MAP_VA + (tic_w[1] & 0x1FFFF);
        tic_w[2] &= ~0xFFFFu;
    }
    if (((tic_w[2] >> 21) & 7) == CG_NV_TIC_1D_BUFFER) {
        tic_w[3] &= ~0xFFFFu;
        tic_w[4] &= ~0xFC00u;
        want_range = false;
    } else if (want_range) {
        tic_w[4] = (tic_w[4] & ~0xFFFFu) | 16384; /* width 16385 */
    } else {
        tic_w[4] &= ~0xFFC0u;
        tic_w[5] &= ~0xFFC0u;
    }
    cg_nv_tic_decode(tic_w, &tic);

    cg_device *dev = NULL;
    cg_vas *vas = NULL;
    cg_mem *mem = NULL;
    if (cg_device_create(&dev) || cg_vas_create(dev, NULL, &vas))
        abort();
    size_t map_n = (mem_n + 0xFFF) & ~(size_t)0xFFF;
    if (map_n) {
        cg_map_params p = {.size = map_n, .va = MAP_VA, .flags = CG_MAP_FIXED};
        uint64_t va;
        if (cg_mem_create(dev, map_n, 0, &mem) || cg_mem_write(mem, 0, mem_bytes, mem_n))
            abort();
        p.mem = mem;
        if (cg_vas_map(vas, &p, &va))
            abort();
    }

    uint8_t *px = NULL;
    uint32_t w = 7, h = 7;
    int r = cg_nv_tex_read_rgba8(vas, &tic, &px, &w, &h);
    if (r == 0) {
        if (!px || w != tic.width || h == 0 || h > 64 || want_range)
            abort();
        free(px);
    } else {
        if (px || w || h)
            abort();
        if (want_range && r != CG_ERR_RANGE && r != CG_ERR_UNSUPPORTED)
            abort();
    }
    if (cg_fault_count(dev) != 0)
        abort();

    cg_vas_destroy(vas);
    cg_mem_unref(mem);
    cg_device_destroy(dev);
    return 0;
}
