/* Internal: the QPU interpreter's I/O units (src/vc4/gpu/vpm.c: VPM general
 * access and VCD DMA; src/vc4/gpu/tmu_fifo.c: TMU request FIFO) and the helpers
 * of qpu_fault.c they use (a leaf: the kernels in qpu_run.c call the units,
 * the units call only qpu_fault.c). Not installed. */
#ifndef CMDGPU_VC4_QPU_IO_H
#define CMDGPU_VC4_QPU_IO_H

#include "vc4/qpu.h"

/* Raise a fault at the current instruction (gpu_addr: the data address
 * involved, 0 if none) and end the program: CG_ERR_FAULT. */
int vc4__qpu_fault(vc4_qpu_state *s, cg_fault_kind kind, uint64_t gpu_addr, const char *fmt,
                   ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
/* A documented restriction broken: warning (0), or in strict mode a fault. */
int vc4__qpu_diag(vc4_qpu_state *s, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* The next uniform (one 32-bit word): 0, or CG_ERR_FAULT. */
int vc4__qpu_uniform(vc4_qpu_state *s, uint32_t *v);

/* VPM (vpm.c). raddr 48 read; waddr 48 write (lanes `mask`); waddr 49 setup
 * (file 0 VPMVCD_RD_SETUP, 1 VPMVCD_WR_SETUP); waddr 50 DMA start (file 0
 * VPM_LD_ADDR = VDR, 1 VPM_ST_ADDR = VDW). 0, or CG_ERR_FAULT. */
int vc4__vpm_read(vc4_qpu_state *s, uint32_t out[16]);
int vc4__vpm_write(vc4_qpu_state *s, const uint32_t v[16], uint16_t mask);
int vc4__vpm_setup(vc4_qpu_state *s, int file, uint32_t v);
int vc4__vpm_dma(vc4_qpu_state *s, int file, uint32_t addr);

/* TMU (tmu_fifo.c). waddr 56-63 (lanes `mask`); waddr 36 (TMU_NOSWAP);
 * ldtmu0/1: pop the oldest result of `tmu` into out. */
int vc4__tmu_write(vc4_qpu_state *s, uint32_t waddr, const uint32_t v[16], uint16_t mask);
int vc4__tmu_pop(vc4_qpu_state *s, int tmu, uint32_t out[16]);

#endif
