/* cmdgpu: the device, owner of everything.
 *
 * A cg_device owns memory objects, GPU address spaces, the fault log, the trace
 * sinks and the coherency policy. Two devices in one process never interact.
 * A device is used from one thread at a time, except where a family's threaded
 * mode says otherwise (the fault log and trace are internally locked). */
#ifndef CMDGPU_DEVICE_H
#define CMDGPU_DEVICE_H

#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What happens when the CPU-cache model sees a stale access (see mem.h). */
typedef enum cg_coherency {
    CG_COHERENCY_OFF = 0, /* no cache model: every CPU access goes to memory */
    CG_COHERENCY_WARN,    /* model caches; stale accesses log a warning fault */
    CG_COHERENCY_FAULT,   /* model caches; stale accesses fail with a fault */
} cg_coherency;

CG_API int cg_device_create(cg_device **out);
CG_API void cg_device_destroy(cg_device *dev); /* NULL is a no-op */

CG_API void cg_device_set_coherency(cg_device *dev, cg_coherency policy);
CG_API cg_coherency cg_device_coherency(const cg_device *dev);

/* Host memory the device holds for the model (page backing, page tables,
 * mapping records, cache lines): current and peak, in bytes. */
CG_API size_t cg_device_host_bytes(const cg_device *dev);
CG_API size_t cg_device_host_peak(const cg_device *dev);

#ifdef __cplusplus
}
#endif
#endif
