/* cmdgpu: the device, owner of everything.
 *
 * A cg_device owns memory objects, GPU address spaces, the fault log, the trace
 * sinks and the coherency policy. Two devices in one process never interact.
 * Threads: the fault log, the trace and the memory model (mem.h "Threads")
 * may be used from several threads at once. A family's engines are used from
 * one thread at a time, except where the family's threaded mode says
 * otherwise. */
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

/* ---- budgets and watchdogs ----------------------------------------------
 * Every place where the model could loop or wait forever (a macro or QPU
 * program that never ends, a control-list branch loop, a semaphore or
 * register wait that is never satisfied, an engine operation of absurd size)
 * counts against one budget of this table; running out ends that work with
 * a CG_FAULT_HANG whose message names it ("budget NAME: ...") and says what
 * ran out, and the rest of the device goes on. radeon.run-dwords only bounds
 * one cg_radeon_run call, which then returns with work left; a vc4 thread
 * still blocked when the CPU waits (cg_vc4_wait_idle) ends as a hang too.
 * Defaults never trip on legitimate work (docs/faults.md "Budgets"); tools
 * and fuzzers lower them (`cmdgpu run --budget NAME=VALUE`). A family reads
 * a budget when it creates its model (cg_nv_gpu_create, cg_radeon_create,
 * cg_vc4_create); its own configuration fields, where they exist, override.
 *   X(enum suffix, name, default, what one unit is) */
#define CG_BUDGET_TABLE(X)                                                                    \
    X(NV_WAIT_RUNS, "nv.wait-runs", 2,                                                         \
      "whole cg_nv_gpu_run passes a semaphore or syncpoint wait may stay unsatisfied")        \
    X(NV_OP_BYTES, "nv.op-bytes", 256ull << 20,                                                \
      "bytes (vertices, for draws) one engine operation may touch")                           \
    X(NV_MACRO_INSNS, "nv.macro-insns", 1ull << 24, "instructions one macro call may execute") \
    X(RADEON_WAIT_POLLS, "radeon.wait-polls", 1000,                                            \
      "polls of one unsatisfied WAIT_REG_MEM / semaphore wait")                                \
    X(RADEON_RUN_DWORDS, "radeon.run-dwords", 1ull << 26,                                      \
      "dwords one cg_radeon_run may fetch before it returns with work left")                   \
    X(VC4_THREAD_UNITS, "vc4.thread-units", 1ull << 24,                                        \
      "records, triangles, tile entries and fragment batches one control-list kick may "      \
      "process (ends branch loops)")                                                           \
    X(VC4_QPU_INSNS, "vc4.qpu-insns", 1ull << 16, "QPU instructions per program run (batch)") \
    X(VC4_RENDER_THREADS, "vc4.render-threads", 8,                                             \
      "threads that may render a frame's tiles, at most one per host CPU (not a watchdog; "   \
      "1: the render thread alone)")                                                         \
    /* new rows go last: a capture stores a budget by its index (CG_CAPCFG_BUDGET + N) */ \
    X(RADEON_SQ_INSNS, "radeon.sq-insns", 1ull << 22,                                          \
      "CF instructions, ALU groups and fetches one R600/R700 shader run may execute")

typedef enum cg_budget {
#define CG_X_ENUM(id, name, def, what) CG_BUDGET_##id,
    CG_BUDGET_TABLE(CG_X_ENUM)
#undef CG_X_ENUM
    CG_BUDGET_COUNT
} cg_budget;

/* Set a budget (value 0 restores the default). CG_ERR_INVAL for an unknown
 * budget or a NULL device. */
CG_API int cg_device_set_budget(cg_device *dev, cg_budget b, uint64_t value);
/* The budget in force (the default for an unknown budget or NULL device). */
CG_API uint64_t cg_device_budget(const cg_device *dev, cg_budget b);
CG_API const char *cg_budget_name(cg_budget b);        /* "?" if unknown */
CG_API const char *cg_budget_description(cg_budget b); /* "" if unknown */
CG_API uint64_t cg_budget_default(cg_budget b);        /* 0 if unknown */
CG_API int cg_budget_from_name(const char *name, cg_budget *out); /* 0 or CG_ERR_NOENT */

#ifdef __cplusplus
}
#endif
#endif
