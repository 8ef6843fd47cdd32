/* Fuzz the vc4 stream validator (src/vc4/check/check.c) on whole submits.
 *
 * Input: a 20-byte header, u32 bin_cl size, u32 shader_rec size, u32
 * uniforms size, u32 declared record count, u32 BO count (mod 17); per BO
 * 5 bytes, u32 size (mod 1 MiB) and u8 flags (bit 0: shader BO); then the
 * bin CL, shader records and uniforms, then each shader BO's code, each
 * part cut short where the input ends (a shader BO's size becomes what it
 * got). Plain BOs have a size and no contents, as the kernel sees them.
 * Every input must give a report; nothing may crash, hang or leak. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "cmdgpu/vc4_check.h"

static uint32_t le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* The next n bytes (fewer at the end of the input). */
static const uint8_t *take(const uint8_t **p, size_t *left, uint32_t *n)
{
    if (*n > *left)
        *n = (uint32_t)*left;
    const uint8_t *d = *p;
    *p += *n;
    *left -= *n;
    return d;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 20 || size > (4u << 20))
        return 0;
    cg_vc4_submit s = {0};
    cg_vc4_check_bo bo[16];
    uint32_t nbo = le32(data + 16) % 17;
    const uint8_t *p = data + 20;
    size_t left = size - 20;
    if (left < 5 * (size_t)nbo)
        return 0;
    for (uint32_t i = 0; i < nbo; i++) {
        bo[i] = (cg_vc4_check_bo){.size = le32(p) % (1u << 20), .shader = p[4] & 1};
        p += 5;
        left -= 5;
    }
    s.bin_cl_size = le32(data);
    s.bin_cl = take(&p, &left, &s.bin_cl_size);
    s.shader_rec_size = le32(data + 4);
    s.shader_rec = take(&p, &left, &s.shader_rec_size);
    s.uniforms_size = le32(data + 8);
    s.uniforms = take(&p, &left, &s.uniforms_size);
    s.shader_rec_count = le32(data + 12);
    for (uint32_t i = 0; i < nbo; i++)
        if (bo[i].shader)
            bo[i].data = take(&p, &left, &bo[i].size);
    s.bo = bo;
    s.bo_count = nbo;
    cg_check_report r;
    cg_check_report_init(&r);
    if (cg_vc4_check(&s, &r) != 0)
        abort();
    cg_check_report_free(&r);
    return 0;
}
