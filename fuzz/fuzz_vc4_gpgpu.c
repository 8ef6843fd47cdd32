/* Fuzz the vc4 user-program path: random writes of the queue, reservation
 * and interrupt registers, holds and execute-QPU calls, starting random
 * programs on the 12 QPUs, bounded by a small per-program budget
 * (docs/vc4-gpgpu.md).
 *
 * Input: byte 0 = number of operations k (low 5 bits); then k operations of
 * 5 bytes (byte 0 picks the operation, bytes 1-4 a little-endian value);
 * the rest is code at 0x10000, and the same bytes are the uniforms at
 * 0x18000. Operation values for SRQPC and SRQUA are mostly folded into the
 * code and uniform areas (bit 31 clear: 0x10000 + (value & 0x7ff8)).
 * Invariants: SRQCS's queue length is at most 16, semaphore counts at most
 * 15, and after cg_vc4_wait_idle no QPU is busy. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "cmdgpu/cmdgpu.h"

#define CODE 0x10000u
#define UNIF 0x18000u
#define MBOX 0x1F000u

static const uint32_t regs[] = {CG_VC4_SRQPC,  CG_VC4_SRQUA,  CG_VC4_SRQUL,  CG_VC4_SRQCS,
                                CG_VC4_SQRSV0, CG_VC4_SQRSV1, CG_VC4_SQCNTL, CG_VC4_DBQITE,
                                CG_VC4_DBQITC};
#define NREGS (sizeof regs / sizeof regs[0])

static void enable_qpus(cg_vc4 *v)
{
    uint32_t buf[8] = {sizeof buf, 0, 0x30012, 4, 0, 1, 0, 0};
    uint32_t m;
    cg_vc4_cpu_write(v, MBOX, buf, sizeof buf);
    cg_vc4_mbox_write(v, MBOX | 8);
    cg_vc4_mbox_read(v, &m);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    unsigned k = data[0] & 31;
    size_t ops = 1 + 5 * (size_t)k;
    if (size < ops)
        return 0;
    cg_device *dev;
    cg_vc4 *v;
    if (cg_device_create(&dev))
        return 0;
    cg_vc4_config cfg = {.sdram_size = 1u << 20, .qpu_budget = 2000};
    if (cg_vc4_create(dev, &cfg, &v)) {
        cg_device_destroy(dev);
        return 0;
    }
    size_t n = size - ops;
    if (n > 0x7000)
        n = 0x7000;
    if (n) {
        cg_vc4_cpu_write(v, CODE, data + ops, n);
        cg_vc4_cpu_write(v, UNIF, data + ops, n);
    }
    enable_qpus(v);
    for (unsigned i = 0; i < k; i++) {
        const uint8_t *o = data + 1 + 5 * i;
        uint32_t val = (uint32_t)o[1] | (uint32_t)o[2] << 8 | (uint32_t)o[3] << 16 |
                       (uint32_t)o[4] << 24;
        unsigned op = o[0] % (NREGS + 3);
        if (op < NREGS) {
            uint32_t r = regs[op];
            if ((r == CG_VC4_SRQPC || r == CG_VC4_SRQUA) && !(val >> 31))
                val = (r == CG_VC4_SRQPC ? CODE : UNIF) + (val & 0x7ff8);
            cg_vc4_reg_write(v, r, val);
        } else if (op == NREGS) {
            cg_vc4_qpu_hold(v, val & 1);
        } else if (op == NREGS + 1) {
            /* execute QPU: (uniforms, code) pairs from the uniform area */
            uint32_t st;
            cg_vc4_qpu_execute(v, val & 15, UNIF + ((val >> 8) & 0x7f8), 0, 1, &st);
            if (st != 0 && st != 0x80000000u)
                abort();
        } else {
            cg_vc4_run(v);
        }
        uint32_t cs = 0;
        cg_vc4_reg_read(v, CG_VC4_SRQCS, &cs);
        if ((cs & 0x3f) > 16)
            abort();
        cg_vc4_qpu_stats st;
        cg_vc4_qpu_get_stats(v, &st);
        for (int s = 0; s < 16; s++)
            if (st.sems[s] > 15)
                abort();
        if (cg_fault_count(dev) > 1000)
            cg_fault_clear(dev);
    }
    cg_vc4_qpu_hold(v, false);
    cg_vc4_wait_idle(v);
    for (unsigned q = 0; q < 12; q++) {
        cg_vc4_qpu_info qi;
        if (cg_vc4_qpu_get(v, q, &qi) != 0 || qi.busy)
            abort();
    }
    cg_vc4_destroy(v);
    cg_device_destroy(dev);
    return 0;
}
