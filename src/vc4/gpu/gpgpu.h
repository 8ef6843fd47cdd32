/* VideoCore IV user programs (internal, not installed): the V3D request
 * queue (SRQPC/SRQUA/SRQUL/SRQCS), the QPU reservation registers
 * (SQRSV0/1, SQCNTL), the QPU host interrupt (DBQITE/DBQITC), the scheduler
 * that runs user programs on the 12 QPUs, and the firmware's "execute QPU"
 * mailbox tag. docs/vc4-gpgpu.md describes every modelling choice. */
#ifndef CMDGPU_VC4_GPGPU_H
#define CMDGPU_VC4_GPGPU_H

#include <stdbool.h>
#include <stdint.h>
#include "vc4/vc4_internal.h"

#define VC4_NQPU 12      /* IDENT1: 3 slices x 4 QPUs */
#define VC4_SRQ_DEPTH 16 /* request queue entries (docs/vc4-gpgpu.md) */

/* SRQCS fields (VideoCore IV 3D Reference Guide, register V3D_SRQCS; the
 * positions hello_fft's gpu_fft_base.c uses: 1 << 7 error, counts at 15:8
 * and 23:16). */
#define VC4_SRQCS_QPURQL_MASK 0x3Fu   /* queue length */
#define VC4_SRQCS_QPURQERR (1u << 7)  /* queue error (overflow), write 1 to clear */
#define VC4_SRQCS_QPURQCM_SHIFT 8     /* requests made, write 1 to bit 8 to clear */
#define VC4_SRQCS_QPURQCC_SHIFT 16    /* requests completed, write 1 to bit 16 to clear */
/* SQRSV0/1: 4 bits per QPU (QPU 0-7 in SQRSV0, 8-15 in SQRSV1); bit 0 of a
 * QPU's nibble: not for user programs. */
#define VC4_SQRSV_NO_USER 1u

/* V3D registers this file owns: true if `off` is one of them (then *val is
 * its value / the write is done). rc: 0 or a cg_err. */
bool vc4_gpgpu_reg_read(cg_vc4 *v, uint32_t off, uint32_t *val);
bool vc4_gpgpu_reg_write(cg_vc4 *v, uint32_t off, uint32_t val, int *rc);
/* Run queued and running user programs until every QPU is idle or blocked. */
int vc4_gpgpu_run(cg_vc4 *v);
/* The watchdog: every QPU still blocked gets a HANG fault and is freed.
 * Returns true if there was one. */
bool vc4_gpgpu_watchdog(cg_vc4 *v);
/* Mailbox tag 0x30011: 0 on success, 0x80000000 on timeout. */
uint32_t vc4_gpgpu_exec_qpu(cg_vc4 *v, uint32_t num_qpus, uint32_t control, uint32_t noflush,
                            uint32_t timeout_ms);
void vc4_gpgpu_destroy(cg_vc4 *v);

#endif
