/* libcmdgpu-vcio: the Raspberry Pi userland's mailbox.h (hello_fft's
 * mailbox.c: /dev/vcio property calls) over one process-wide cmdgpu vc4
 * device, so a program written for the Pi's GPU builds and runs unchanged.
 *
 * Same signatures as raspberrypi/userland
 * host_applications/linux/apps/hello_pi/hello_fft/mailbox.h. Link with
 * `pkg-config --libs cmdgpu-vcio`; `pkg-config --cflags cmdgpu-vcio` also
 * puts <includedir>/cmdgpu/vcio on the path, so `#include "mailbox.h"`
 * finds include/cmdgpu/vcio/mailbox.h, which includes this file.
 *
 * The device: a Pi 1 (VideoCore IV, 3 slices x 4 QPUs), 256 MiB of SDRAM
 * whose upper half is the firmware's heap (mem_alloc). mbox_open creates
 * it on the first call (reference counted; mbox_close of the last one
 * destroys it and every mapping).
 *
 * Memory: mapmem(base, size) takes a physical or bus address (the alias
 * bits 31:30 are ignored) inside memory mem_alloc returned and mem_lock
 * locked, and returns a host pointer the program reads and writes directly.
 * Coherency: the pointer behaves as the ARM's uncached view of a DIRECT
 * (0xC alias) allocation: every mailbox call (execute_qpu in particular)
 * first makes the GPU see what the program wrote through it, and after
 * execute_qpu the program sees what the QPUs wrote. mapmem of memory that
 * is not allocated, and execute_code (the VPU is not modelled), fail with
 * one line on stderr.
 *
 * The peripheral window: mapmem of the peripheral base (0x20000000-
 * 0x20FFFFFF on a Pi 1, 0x3F000000-0x3FFFFFFF on a Pi 2/3), as hello_fft
 * does for its direct register path, returns a mapping whose V3D block
 * (offset 0xC00000) and mailbox registers reach the model's registers:
 * 32-bit accesses (x86-64 `mov`, `movsxd`, and cmp/test/or/and/xor/add/sub
 * with a window operand, as compilers emit volatile accesses) are trapped
 * (PROT_NONE and a SIGSEGV handler, decoded with capstone) and done by the
 * model, so an SRQPC write runs the programs and SRQCS polls see them end.
 * Any other access -- 8/16/64-bit, other instructions, unaligned, other
 * peripheral blocks, a window already unmapped -- prints one line and ends
 * the process with exit status 1. The handler chains faults outside the
 * window to the handler installed before it; a SIGSEGV handler the program
 * installs after mapmem must chain to the one it replaces for the window
 * to keep working. Builds without capstone refuse the mapping (one line,
 * NULL). docs/vc4-gpgpu.md, section "The peripheral window".
 *
 * Environment: CMDGPU_VCIO_TRACE=FILE writes the device's trace (mailbox
 * calls, register writes, QPU program starts and interrupts) as text to
 * FILE ("stderr" for stderr); CMDGPU_VCIO_FAULTS=FILE writes one line per
 * fault record there (default: stderr). docs/vc4-gpgpu.md, section vcio. */
#ifndef CMDGPU_VCIO_H
#define CMDGPU_VCIO_H

#ifdef __cplusplus
extern "C" {
#endif

int mbox_open(void);
void mbox_close(int file_desc);

unsigned get_version(int file_desc);
unsigned mem_alloc(int file_desc, unsigned size, unsigned align, unsigned flags);
unsigned mem_free(int file_desc, unsigned handle);
unsigned mem_lock(int file_desc, unsigned handle);
unsigned mem_unlock(int file_desc, unsigned handle);
void *mapmem(unsigned base, unsigned size);
void *unmapmem(void *addr, unsigned size);

unsigned execute_code(int file_desc, unsigned code, unsigned r0, unsigned r1, unsigned r2,
                      unsigned r3, unsigned r4, unsigned r5);
unsigned execute_qpu(int file_desc, unsigned num_qpus, unsigned control, unsigned noflush,
                     unsigned timeout);
unsigned qpu_enable(int file_desc, unsigned enable);

#ifdef __cplusplus
}
#endif
#endif
