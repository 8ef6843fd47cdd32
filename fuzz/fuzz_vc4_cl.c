/* Fuzz the vc4 control-list executor: both threads, the binner and the
 * renderer, over a bounded memory image.
 *
 * Input: u32 bin start, u32 bin end, u32 render start, u32 render end
 * (offsets from 0x10000), then the image, loaded at bus address 0x10000 of
 * an 8 MiB SDRAM. The binning thread is kicked, then the render thread, and
 * the watchdog ends whatever is left. Budgets are small so every input
 * ends quickly; anything may fault, nothing may crash or leak. */
#include <stdint.h>
#include <string.h>
#include "cmdgpu/cmdgpu.h"

#define BASE 0x10000u

static uint32_t le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 16 || size > 16 + (1u << 20))
        return 0;
    cg_device *dev;
    cg_vc4 *v;
    if (cg_device_create(&dev) != 0)
        return 0;
    /* the tile pool (the host's CPUs) from the first frame: its pre-pass
     * follows the hostile lists too */
    cg_vc4_config cfg = {.sdram_size = 8u << 20, .record_budget = 4096, .qpu_budget = 256,
                         .pool_at_once = true};
    if (cg_vc4_create(dev, &cfg, &v) != 0) {
        cg_device_destroy(dev);
        return 0;
    }
    uint32_t bs = le32(data) % 0x20000, be = le32(data + 4) % 0x20000;
    uint32_t rs = le32(data + 8) % 0x20000, re = le32(data + 12) % 0x20000;
    cg_vc4_cpu_write(v, BASE, data + 16, size - 16);
    /* a pool in case the binner runs out */
    cg_vc4_reg_write(v, CG_VC4_CT0CA, BASE + bs);
    cg_vc4_reg_write(v, CG_VC4_CT0EA, BASE + be);
    cg_vc4_reg_write(v, CG_VC4_BPOA, 0x700000);
    cg_vc4_reg_write(v, CG_VC4_BPOS, 0x10000);
    cg_vc4_reg_write(v, CG_VC4_CT1CA, BASE + rs);
    cg_vc4_reg_write(v, CG_VC4_CT1EA, BASE + re);
    cg_vc4_wait_idle(v);
    uint32_t x;
    cg_vc4_reg_read(v, CG_VC4_RFC, &x);
    cg_vc4_destroy(v);
    cg_device_destroy(dev);
    return 0;
}
