/* Fuzzes the radeon PM4 decoder and CP executor on a bounded memory image.
 * Byte 0 picks the generation (bits 1:0) and lenient mode (bit 2); the rest
 * is dwords, copied into VRAM at 0 and the GTT data area (so INDIRECT_BUFFER,
 * WAIT_REG_MEM, CP_DMA ... find mapped memory at small addresses) and
 * submitted through the ring, in chunks, with interrupts enabled. The same
 * bytes go through the disassembler. Any input must end in a defined state:
 * idle, waiting, or stopped by a fault record; never a crash, leak or hang. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmdgpu/cmdgpu.h"

#define GTT CG_RADEON_GTT_BASE
#define RING_DW 256

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 || size > (1u << 16))
        return 0;
    cg_radeon_config c = {.gen = (cg_radeon_gen)(data[0] & 3), .lenient = (data[0] >> 2) & 1,
                          .vram_size = 64 * 1024, .gtt_size = 64 * 1024, .wait_budget = 3,
                          .run_budget = 1u << 16};
    const uint8_t *w = data + 1;
    size_t n = (size - 1) / 4;
    cg_device *dev;
    cg_radeon *rd;
    if (cg_device_create(&dev) != 0)
        return 0;
    if (cg_radeon_create(dev, &c, &rd) != 0) {
        cg_device_destroy(dev);
        return 0;
    }
    cg_vas *vas = cg_radeon_vas(rd);
    size_t bytes = 4 * n < 0xC000 ? 4 * n : 0xC000;
    cg_vas_cpu_write(vas, 0, w, bytes);
    cg_vas_cpu_write(vas, GTT + 0x4000, w, bytes);
    cg_radeon_reg_write(rd, 0xC104, 7 | (9u << 8)); /* CP_RB_CNTL: 256 dwords */
    cg_radeon_reg_write(rd, 0xC100, (uint32_t)(GTT >> 8));
    cg_radeon_reg_write(rd, 0xC10C, (uint32_t)(GTT + 0x1400));
    cg_radeon_reg_write(rd, 0xC110, (uint32_t)(GTT >> 32));
    cg_radeon_reg_write(rd, 0x8544, (uint32_t)((GTT + 0x1000) >> 8)); /* SCRATCH_ADDR */
    cg_radeon_reg_write(rd, 0x8540, 0xff);
    cg_radeon_reg_write(rd, 0x3E04, (uint32_t)((GTT + 0x2000) >> 8)); /* IH ring, 256 B */
    cg_radeon_reg_write(rd, 0x3E14, (uint32_t)(GTT + 0x1800));
    cg_radeon_reg_write(rd, 0x3E10, (uint32_t)(GTT >> 32));
    cg_radeon_reg_write(rd, 0x3E00, 1 | (6u << 1) | (1u << 8) | (1u << 16));
    cg_radeon_reg_write(rd, 0xC124, 0xE4000000u);
    cg_radeon_reg_write(rd, 0x86D8, 0xff);
    /* Submit through the ring in chunks of up to 128 dwords. */
    uint32_t wptr = 0;
    for (size_t i = 0; i < n && i < 4 * RING_DW; i += 128) {
        size_t m = n - i < 128 ? n - i : 128;
        for (size_t k = 0; k < m; k++) {
            cg_vas_cpu_write(vas, GTT + 4ull * wptr, w + 4 * (i + k), 4);
            wptr = (wptr + 1) % RING_DW;
        }
        cg_radeon_reg_write(rd, 0xC114, wptr);
        for (int r = 0; r < 4 && cg_radeon_run(rd) == CG_ERR_BUSY; r++)
            ;
        cg_radeon_cpu_write32(rd, 0x0, 0x42); /* wake waits on memory */
        cg_radeon_reg_write(rd, 0x8510, 0x42); /* and on a register */
    }
    cg_radeon_cp_status st;
    cg_radeon_cp_get_status(rd, &st);
    if (st.state == CG_RADEON_CP_STOPPED && cg_fault_count(dev) == 0)
        abort(); /* a stop always leaves a fault record */
    cg_radeon_cp_reset(rd);
    /* The device still works after whatever happened. */
    cg_radeon_reg_write(rd, 0xC114, 0);
    cg_radeon_destroy(rd);
    cg_device_destroy(dev);

    static FILE *null_out;
    if (!null_out)
        null_out = fopen("/dev/null", "w");
    if (null_out) {
        cg_radeon_disasm_opts o = {.gen = (cg_radeon_gen)(data[0] & 3), .json = (data[0] >> 3) & 1,
                                   .image = w, .image_size = size - 1}; /* IBs into the input */
        cg_radeon_disasm(&o, w, size - 1, null_out);
    }
    return 0;
}
