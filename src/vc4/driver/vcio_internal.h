/* libcmdgpu-vcio's two halves: the mailbox.h calls (vcio.c) and the
 * trapped peripheral window (vcio_window.c). Not installed. */
#ifndef CMDGPU_VCIO_INTERNAL_H
#define CMDGPU_VCIO_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

/* vcio_window.c: mapmem/unmapmem of the peripheral window. base is the
 * physical address (alias bits cleared) inside 0x20000000-0x20FFFFFF or
 * 0x3F000000-0x3FFFFFFF; pbase the start of that window. Returns the host
 * pointer or NULL after one line on stderr. */
void *vcio_window_map(unsigned base, unsigned pbase, unsigned size);
/* 1: addr was in a window (it is now unmapped), 0: not a window's. */
int vcio_window_unmap(void *addr);
/* mbox_close of the last reference: every window goes, and the signal
 * handler is restored when it is still the one installed. */
void vcio_window_close_all(void);

/* vcio.c: one 32-bit access at `off` from the peripheral base, under the
 * library's lock, through the device's register interface
 * (cg_vc4_mmio_read/write). Returns 0, or -1 with a reason in why. Called
 * by the window's service thread (vcio_window.c). */
int vcio_window_access(uint32_t off, bool write, uint32_t *val, const char **why);
/* vcio.c: is the calling thread inside a mailbox.h call (holding the
 * library's lock)? Async-signal-safe (a thread-local flag). */
int vcio_in_call(void);

#endif
