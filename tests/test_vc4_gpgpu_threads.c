/* GPGPU QPUs in several threads at once: four threads, each with its own
 * device, assemble examples/vc4/gpgpu/saxpy.qasm and run it on 12 QPUs
 * through the request queue, while the process-wide state they share
 * (instruction and name tables built once, per-thread TLBs, the memory
 * model) is used from all of them. Every output value must equal a * x + y
 * computed here, and every run must count exactly the instructions a run
 * of the same job alone in the main thread counts beforehand. Runs
 * under ThreadSanitizer in `make tsan` (issue 16 part 6). */
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include "check.h"
#include "cmdgpu/asm.h"
#include "cmdgpu/cmdgpu.h"

#define NTHREADS 4
#define CODE 0x10000u
#define UNIF 0x20000u
enum { BLOCKS = 2, N = 12 * BLOCKS * 16, X = 0x100000, Y = 0x110000, OUT = 0x120000 };

typedef struct job {
    int id;
    int bad, faults, rc;
    uint64_t insns;
} job;

static void *run(void *arg)
{
    job *j = arg;
    cg_device *dev = NULL;
    cg_vc4 *v = NULL;
    cg_asm *as = NULL;
    cg_vc4_config cfg = {.sdram_size = 16u << 20, .qpu_budget = 1u << 20};
    if (cg_device_create(&dev) || cg_vc4_create(dev, &cfg, &v) ||
        cg_asm_create(cg_vc4_qpu_asm_family(), NULL, &as)) {
        j->rc = -1;
        goto out;
    }
    char path[512], pre[64];
    snprintf(path, sizeof path, "%s/examples/vc4/gpgpu/saxpy.qasm", CMDGPU_SOURCE_DIR);
    snprintf(pre, sizeof pre, ".section text, 0x%x\n", CODE);
    cg_asm_add_source(as, "pre.s", pre, strlen(pre));
    const char *name;
    uint64_t base;
    const uint8_t *data;
    size_t size = 0;
    if (cg_asm_add_file(as, path) || cg_asm_assemble(as) ||
        cg_asm_section(as, 0, &name, &base, &data, &size) ||
        cg_vc4_cpu_write(v, CODE, data, size)) {
        j->rc = -2;
        goto out;
    }
    /* each thread its own a and data, so a mix-up between threads shows */
    const float a = 0.5f + (float)j->id;
    static float xs[NTHREADS][N], ys[NTHREADS][N], outs[NTHREADS][N];
    float *x = xs[j->id], *y = ys[j->id], *o = outs[j->id];
    for (int k = 0; k < N; k++) {
        x[k] = (float)((k + j->id) % 89) * 0.5f - 3.0f;
        y[k] = (float)k / 4.0f + (float)j->id;
    }
    cg_vc4_cpu_write(v, X, x, sizeof(float) * N);
    cg_vc4_cpu_write(v, Y, y, sizeof(float) * N);
    cg_vc4_qpu_hold(v, true);
    for (uint32_t q = 0; q < 12; q++) {
        uint32_t u[7], off = q * BLOCKS * 64;
        u[0] = BLOCKS;
        memcpy(&u[1], &a, 4);
        u[2] = X + off, u[3] = Y + off, u[4] = OUT + off, u[5] = q, u[6] = 11;
        cg_vc4_cpu_write(v, UNIF + 32 * q, u, sizeof u);
        cg_vc4_reg_write(v, CG_VC4_SRQUA, UNIF + 32 * q);
        cg_vc4_reg_write(v, CG_VC4_SRQUL, 7);
        cg_vc4_reg_write(v, CG_VC4_SRQPC, CODE);
    }
    cg_vc4_qpu_hold(v, false);
    j->rc = cg_vc4_wait_idle(v);
    j->faults = (int)cg_fault_count(dev);
    cg_vc4_cpu_read(v, OUT, o, sizeof(float) * N);
    for (int k = 0; k < N; k++) {
        float want = a * x[k];
        want = want + y[k];
        j->bad += memcmp(&want, &o[k], 4) != 0;
    }
    cg_vc4_qpu_stats st;
    cg_vc4_qpu_get_stats(v, &st);
    j->insns = st.insns;
out:
    cg_asm_destroy(as);
    cg_vc4_destroy(v);
    cg_device_destroy(dev);
    return NULL;
}

int main(void)
{
    job alone = {.id = 0};
    run(&alone); /* the reference: one job, no other thread */
    CHECK_EQ(alone.rc, 0);
    CHECK_EQ(alone.bad, 0);
    CHECK(alone.insns > 12u * (14u + BLOCKS * 20));
    pthread_t th[NTHREADS];
    job jobs[NTHREADS];
    for (int t = 0; t < NTHREADS; t++) {
        jobs[t] = (job){.id = t};
        CHECK_EQ(pthread_create(&th[t], NULL, run, &jobs[t]), 0);
    }
    for (int t = 0; t < NTHREADS; t++)
        pthread_join(th[t], NULL);
    for (int t = 0; t < NTHREADS; t++) {
        CHECK_EQ(jobs[t].rc, 0);
        CHECK_EQ(jobs[t].faults, 0);
        CHECK_EQ(jobs[t].bad, 0);
        CHECK_EQ(jobs[t].insns, alone.insns); /* same program, data-independent flow */
    }
    return check_report("test_vc4_gpgpu_threads");
}
