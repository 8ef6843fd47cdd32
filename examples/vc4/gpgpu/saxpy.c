/* SAXPY on 12 QPUs through the Pi's mailbox interface: out = a * x + y.
 * Written as for a Raspberry Pi 1 with hello_fft's mailbox.h; built here
 * against libcmdgpu-vcio, which models the firmware and the V3D:
 *     cc saxpy.c $(pkg-config --cflags --libs cmdgpu-vcio)
 * The QPU code is saxpy.qasm (saxpy_code.h). Prints the first and last
 * values and exits 0 when all 12 * BLOCKS * 16 results equal the same
 * computation done here on the CPU. */
#include <stdio.h>
#include <string.h>
#include "mailbox.h"
#include "saxpy_code.h"

#define NQPU 12
#define BLOCKS 4 /* 16-float blocks per QPU */
#define N (NQPU * BLOCKS * 16)
#define GPU_MEM_FLG 0x4 /* MEM_FLAG_DIRECT: the 0xC alias, as hello_fft on a Pi 2 */
#define BUS_TO_PHYS(x) ((x) & ~0xC0000000u)

/* layout of the one allocation (bytes) */
enum { CODE = 0, UNIFS = 0x1000, CTRL = 0x2000, X = 0x4000, Y = 0x8000, OUT = 0xC000,
       SIZE = 0x10000 };

int main(void)
{
    int mb = mbox_open();
    if (mb < 0 || qpu_enable(mb, 1)) {
        fprintf(stderr, "saxpy: cannot enable the QPUs\n");
        return 1;
    }
    unsigned handle = mem_alloc(mb, SIZE, 4096, GPU_MEM_FLG);
    unsigned bus = handle ? mem_lock(mb, handle) : 0;
    unsigned char *arm = bus ? mapmem(BUS_TO_PHYS(bus), SIZE) : NULL;
    if (!arm) {
        fprintf(stderr, "saxpy: no GPU memory\n");
        return 1;
    }
    const float a = 2.5f;
    float *x = (float *)(arm + X), *y = (float *)(arm + Y), *out = (float *)(arm + OUT);
    for (int k = 0; k < N; k++) {
        x[k] = 0.5f * (float)k - 100.0f;
        y[k] = 1000.0f - 3.0f * (float)k;
        out[k] = 0;
    }
    memcpy(arm + CODE, saxpy_code, sizeof saxpy_code);
    unsigned *u = (unsigned *)(arm + UNIFS), *ctrl = (unsigned *)(arm + CTRL);
    for (unsigned q = 0; q < NQPU; q++) {
        unsigned *p = u + 8 * q, off = q * BLOCKS * 64;
        float af = a;
        p[0] = BLOCKS;
        memcpy(&p[1], &af, 4);
        p[2] = bus + X + off;
        p[3] = bus + Y + off;
        p[4] = bus + OUT + off;
        p[5] = q;          /* VPM row */
        p[6] = NQPU - 1;   /* QPU 0 waits for the other 11 */
        ctrl[2 * q] = bus + UNIFS + 32 * q;
        ctrl[2 * q + 1] = bus + CODE;
    }
    unsigned rc = execute_qpu(mb, NQPU, bus + CTRL, 1, 1000);
    int bad = 0;
    for (int k = 0; k < N; k++) {
        float want = a * x[k];
        want = want + y[k];
        if (memcmp(&want, &out[k], 4) != 0 && bad++ < 5)
            fprintf(stderr, "saxpy: out[%d] = %g, want %g\n", k, out[k], want);
    }
    printf("saxpy: execute_qpu 0x%x, %d values, out[0] = %g, out[%d] = %g, %d wrong\n", rc, N,
           out[0], N - 1, out[N - 1], bad);
    unmapmem(arm, SIZE);
    mem_unlock(mb, handle);
    mem_free(mb, handle);
    mbox_close(mb);
    return rc == 0 && bad == 0 ? 0 : 1;
}
