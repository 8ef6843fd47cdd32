/* A reduction on 12 QPUs through the Pi's mailbox interface: the sum of
 * 32-bit integers (mod 2^32). Written as for a Raspberry Pi 1 with
 * hello_fft's mailbox.h; built here against libcmdgpu-vcio:
 *     cc reduce.c $(pkg-config --cflags --libs cmdgpu-vcio)
 * The QPU code is reduce.qasm (reduce_code.h). Prints the sum and exits 0
 * when it equals the sum computed here. */
#include <stdio.h>
#include <string.h>
#include "mailbox.h"
#include "reduce_code.h"

#define NQPU 12
#define BLOCKS 8 /* 16-word blocks per QPU */
#define N (NQPU * BLOCKS * 16)
#define GPU_MEM_FLG 0xC /* MEM_FLAG_L1_NONALLOCATING: hello_fft on a Pi 1 with the VC4 L2 */
#define BUS_TO_PHYS(x) ((x) & ~0xC0000000u)

enum { CODE = 0, UNIFS = 0x1000, CTRL = 0x2000, PARTIALS = 0x3000, RESULT = 0x3400,
       DATA = 0x4000, SIZE = 0x10000 };

int main(void)
{
    int mb = mbox_open();
    if (mb < 0 || qpu_enable(mb, 1)) {
        fprintf(stderr, "reduce: cannot enable the QPUs\n");
        return 1;
    }
    unsigned handle = mem_alloc(mb, SIZE, 4096, GPU_MEM_FLG);
    unsigned bus = handle ? mem_lock(mb, handle) : 0;
    unsigned char *arm = bus ? mapmem(BUS_TO_PHYS(bus), SIZE) : NULL;
    if (!arm) {
        fprintf(stderr, "reduce: no GPU memory\n");
        return 1;
    }
    unsigned *data = (unsigned *)(arm + DATA), want = 0;
    for (unsigned k = 0; k < N; k++) {
        data[k] = k * k * 2654435761u + 12345u; /* wraps, as the QPU's add does */
        want += data[k];
    }
    memcpy(arm + CODE, reduce_code, sizeof reduce_code);
    unsigned *u = (unsigned *)(arm + UNIFS), *ctrl = (unsigned *)(arm + CTRL);
    for (unsigned q = 0; q < NQPU; q++) {
        unsigned *p = u + 8 * q;
        p[0] = BLOCKS;
        p[1] = bus + DATA + q * BLOCKS * 64;
        p[2] = bus + PARTIALS;
        p[3] = q;
        p[4] = NQPU - 1;
        p[5] = bus + RESULT;
        ctrl[2 * q] = bus + UNIFS + 32 * q;
        ctrl[2 * q + 1] = bus + CODE;
    }
    unsigned rc = execute_qpu(mb, NQPU, bus + CTRL, 1, 1000);
    unsigned *result = (unsigned *)(arm + RESULT);
    int lanes_ok = 1;
    for (int i = 0; i < 16; i++)
        lanes_ok &= result[i] == want;
    printf("reduce: execute_qpu 0x%x, %d words, sum 0x%08x, want 0x%08x, %s\n", rc, N,
           result[0], want, lanes_ok ? "all 16 lanes agree" : "lanes differ");
    unmapmem(arm, SIZE);
    mem_unlock(mb, handle);
    mem_free(mb, handle);
    mbox_close(mb);
    return rc == 0 && lanes_ok ? 0 : 1;
}
