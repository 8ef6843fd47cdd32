/* cmdgpu: trace events.
 *
 * Engines emit an event for each method or register write, packet, memory
 * write, fence, interrupt and fault. Sinks are callbacks; two writers are
 * provided (text and JSON Lines). Emitting is cheap when no sink is attached:
 * test cg_trace_enabled() before building an event in a hot loop. */
#ifndef CMDGPU_TRACE_H
#define CMDGPU_TRACE_H

#include <stdio.h>
#include "common.h"
#include "fault.h"

#ifdef __cplusplus
extern "C" {
#endif

/* X(enum suffix, name) */
#define CG_TRACE_TABLE(X)                                                      \
    X(METHOD, "method")       /* NV method: reg = method offset, value = data */ \
    X(REG_WRITE, "reg")       /* register write: reg, value */                  \
    X(PACKET, "packet")       /* a decoded packet/record: reg = opcode, value = header */ \
    X(MEM_WRITE, "mem-write") /* GPU wrote [gpu_addr, +size) */                 \
    X(SPARSE_WRITE, "sparse-write") /* write dropped in a sparse reservation */ \
    X(FENCE, "fence")         /* fence/semaphore: gpu_addr, value */            \
    X(INTERRUPT, "interrupt") /* reg = source id, value = status */             \
    X(FAULT, "fault")         /* fault points at the record */                  \
    X(NOTE, "note")           /* free text */

typedef enum cg_trace_kind {
#define CG_X_ENUM(id, name) CG_TRACE_##id,
    CG_TRACE_TABLE(CG_X_ENUM)
#undef CG_X_ENUM
    CG_TRACE_KIND_COUNT
} cg_trace_kind;

typedef struct cg_trace_event {
    cg_trace_kind kind;
    cg_family family;
    const char *unit;      /* may be NULL */
    int32_t channel;       /* -1 if none */
    uint64_t stream_addr;  /* address of the command word, if any */
    uint32_t reg;          /* method/register/opcode */
    uint64_t value;
    uint64_t gpu_addr;
    uint64_t size;
    const char *name;      /* method/register/packet name, may be NULL */
    const char *text;      /* free text, may be NULL */
    const cg_fault *fault; /* CG_TRACE_FAULT only */
    /* Context for recorders (hang reports, `cmdgpu report`); no writer
     * prints these. vc4 PACKET: the record's bytes; radeon PACKET: the
     * packet's words as little-endian bytes (packets up to 8 words; NULL
     * for longer ones). nv METHOD: the GPFIFO
     * entry the method came from (index + 1; 0 = none, e.g. kernel-pushed
     * words) and that entry's pushbuffer address and length in words. */
    const uint8_t *bytes;  /* NULL if none */
    uint32_t nbytes;
    uint32_t entry;
    uint64_t entry_va;
    uint32_t entry_len;
} cg_trace_event;

typedef void (*cg_trace_fn)(void *user, const cg_trace_event *ev);

/* Attach a sink; returns an id >= 0 for cg_trace_remove, or a cg_err.
 * At most CG_TRACE_MAX_SINKS sinks per device. */
#define CG_TRACE_MAX_SINKS 8
CG_API int cg_trace_add(cg_device *dev, cg_trace_fn fn, void *user);
CG_API int cg_trace_remove(cg_device *dev, int id);
CG_API bool cg_trace_enabled(const cg_device *dev);
/* Deliver an event to every sink (no-op without sinks). Thread-safe. */
CG_API void cg_trace_emit(cg_device *dev, const cg_trace_event *ev);

CG_API const char *cg_trace_kind_name(cg_trace_kind k);

/* Ready-made sinks; `user` is a FILE *. Text: one human line per event.
 * JSON Lines: one object per line, keys: kind, family, unit, channel,
 * stream_addr, reg, value, gpu_addr, size, name, text, fault (as in
 * cg_fault_format_json). Absent/irrelevant fields are omitted. */
CG_API void cg_trace_write_text(void *file, const cg_trace_event *ev);
CG_API void cg_trace_write_json(void *file, const cg_trace_event *ev);

/* Format one event into buf (snprintf style); used by both writers. */
CG_API int cg_trace_format_text(const cg_trace_event *ev, char *buf, size_t cap);
CG_API int cg_trace_format_json(const cg_trace_event *ev, char *buf, size_t cap);

#ifdef __cplusplus
}
#endif
#endif
