/* Fuzzes the R600/R700 shader core (src/radeon/gpu/sq*.c,
 * docs/radeon-sq.md).
 *
 * Input: byte 0 picks the chip (bit 0: r600/r700) and whether a texture
 * unit stub answers SAMPLE (bit 1); byte 1 the live lanes (1..64) and byte
 * 2 the GPRs allocated; the rest is the program, also used as the initial
 * GPR values, the constant buffers' and the vertex buffer's contents. Any
 * program must end (the budget radeon.sq-insns is 4096 here), read nothing
 * outside the program, the constants and the vertex buffer, and either
 * succeed with no fault or fail with exactly one fault record. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "cmdgpu/device.h"
#include "cmdgpu/fault.h"
#include "radeon/gpu/sq.h"

static const uint8_t *vb_data;
static size_t vb_size;

static int vtx_res(void *ctx, unsigned id, rd_sq_vbuf *out)
{
    (void)ctx;
    if (id > 3)
        return -1;
    out->data = vb_data;
    out->size = vb_size;
    out->stride = 4u << id;
    out->gpu_addr = 0x400000;
    return 0;
}

static int tex_zero(void *ctx, const rd_sq_tex_req *rq, uint32_t out[4])
{
    (void)ctx, (void)rq;
    memset(out, 0, 16);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 3 || size > 16384)
        return 0;
    cg_device *dev;
    if (cg_device_create(&dev))
        return 0;
    cg_device_set_budget(dev, CG_BUDGET_RADEON_SQ_INSNS, 4096);
    size_t ndw = (size - 3) / 4;
    uint32_t *code = malloc((ndw ? ndw : 1) * 4);
    rd_sq_wave *w = calloc(1, sizeof *w);
    if (!code || !w)
        goto out;
    memcpy(code, data + 3, ndw * 4);
    unsigned lanes = data[1] % 64 + 1;
    w->live = lanes == 64 ? ~0ull : (1ull << lanes) - 1;
    for (size_t i = 0; i < ndw && i < RD_SQ_NGPR * 4 * 4; i++)
        w->gpr[i / 16][(i / 4) % 4][i % 4] = code[i];
    /* constant buffers over the program's words (whole vec4s) */
    rd_sq_env e;
    memset(&e, 0, sizeof e);
    e.chip = (data[0] & 1) ? R6_R700 : R6_R600;
    e.code = code;
    e.ndw = ndw;
    e.gpu_addr = 0x100000;
    e.ngpr = data[2];
    e.dev = dev;
    e.channel = -1;
    for (int b = 0; b < 16; b += 3) {
        e.cb[b].c = (const uint32_t(*)[4])code;
        e.cb[b].n = (uint32_t)(ndw / 4);
    }
    for (int i = 0; i < 32; i++)
        e.loop_const[i] = (uint32_t)(i % 5) | (1u << 24);
    e.bool_const = 0xA5A5A5A5u;
    vb_data = data;
    vb_size = size;
    e.fetch.vtx_resource = vtx_res;
    if (data[0] & 2)
        e.fetch.tex_sample = tex_zero;
    rd_sq_out o = {0};
    int rc = rd_sq_run(&e, w, &o);
    if ((rc == 0) != (cg_fault_count(dev) == 0) || cg_fault_count(dev) > 1)
        abort();
    rd_sq_out_free(&o);
out:
    free(w);
    free(code);
    cg_device_destroy(dev);
    return 0;
}
