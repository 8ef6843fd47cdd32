/* cmdgpu: fault records and the per-device fault log.
 *
 * A fault is what real hardware would signal (an MMU fault, an ILLEGAL_MTHD
 * interrupt, a hang) or a diagnostic the model adds (a stale cache line). Every
 * decoder and executor reports bad input as a fault record instead of crashing;
 * the faulting channel/ring/thread stops, the device keeps working. */
#ifndef CMDGPU_FAULT_H
#define CMDGPU_FAULT_H

#include <stdarg.h>
#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Fault kinds. X(enum suffix, short name, description): the one table for
 * the enum, cg_fault_kind_name() and docs. Add new kinds at the end. */
#define CG_FAULT_TABLE(X)                                                        \
    X(NONE, "none", "no fault")                                                  \
    X(UNMAPPED, "unmapped", "access to a GPU address with no mapping")          \
    X(READ_ONLY, "read-only", "write to a read-only mapping")                    \
    X(ADDR_RANGE, "addr-range", "address past the VA width or wrapping its top") \
    X(STALE_GPU_READ, "stale-gpu-read",                                          \
      "GPU read memory the CPU holds dirty in its cache (missing flush)")        \
    X(STALE_GPU_WRITE, "stale-gpu-write",                                        \
      "GPU wrote memory the CPU holds dirty in its cache (a flush will undo it)") \
    X(STALE_CPU_READ, "stale-cpu-read",                                          \
      "CPU read a cached line the GPU has written since (missing invalidate)")   \
    X(INVALID_OPCODE, "invalid-opcode", "reserved or unknown opcode/packet")     \
    X(INVALID_METHOD, "invalid-method", "method or register with nothing behind it") \
    X(INVALID_CLASS, "invalid-class", "object class not supported")              \
    X(UNBOUND_SUBCHANNEL, "unbound-subchannel", "method sent to a subchannel with no object") \
    X(BAD_LENGTH, "bad-length", "count or length runs past the end of its buffer") \
    X(BAD_ALIGN, "bad-align", "misaligned address, pitch or size")               \
    X(BAD_STATE, "bad-state", "configuration or state is invalid for the operation") \
    X(DEPTH, "depth", "call or sub-list nesting deeper than the hardware allows") \
    X(HANG, "hang", "a budget or watchdog ran out: the unit would hang")         \
    X(OUT_OF_MEMORY, "out-of-memory", "the unit ran out of GPU memory it needs")  \
    X(TRAP, "trap", "the stream asked for a trap")                               \
    X(UNSUPPORTED, "unsupported", "valid input the model does not support yet")

typedef enum cg_fault_kind {
#define CG_X_ENUM(id, name, desc) CG_FAULT_##id,
    CG_FAULT_TABLE(CG_X_ENUM)
#undef CG_X_ENUM
    CG_FAULT_KIND_COUNT
} cg_fault_kind;

/* cg_fault.flags */
enum {
    CG_FAULT_F_WARNING = 1u << 0, /* diagnostic only: the access went ahead */
};

#define CG_FAULT_MAX_WORDS 4
#define CG_FAULT_UNIT_LEN 16
#define CG_FAULT_MSG_LEN 192

typedef struct cg_fault {
    uint64_t seq;          /* position in the device's fault log, from 0 */
    cg_fault_kind kind;
    cg_family family;
    uint32_t flags;        /* CG_FAULT_F_* */
    char unit[CG_FAULT_UNIT_LEN]; /* "pfifo", "ce", "cp", "binner", "cpu", ... */
    int32_t channel;       /* channel / ring / thread, -1 if none */
    uint64_t gpu_addr;     /* the data address involved, if any */
    uint64_t stream_addr;  /* address of the offending command word, if any */
    uint32_t words[CG_FAULT_MAX_WORDS]; /* offending word(s) */
    uint32_t nwords;
    char message[CG_FAULT_MSG_LEN];
} cg_fault;

/* Who is accessing memory or executing a stream. Engines keep one per unit and
 * update stream_addr/word as they decode, so the core can fill a complete
 * fault record. A NULL agent means "the CPU side" (unit "cpu"). */
typedef struct cg_agent {
    cg_family family;
    const char *unit;
    int32_t channel;
    uint64_t stream_addr;
    uint32_t words[CG_FAULT_MAX_WORDS];
    uint32_t nwords;
} cg_agent;

/* Short name ("unmapped") and one-line description of a kind. Never NULL. */
CG_API const char *cg_fault_kind_name(cg_fault_kind k);
CG_API const char *cg_fault_kind_desc(cg_fault_kind k);

/* Look a kind up by its short name; returns CG_FAULT_NONE if unknown. */
CG_API cg_fault_kind cg_fault_kind_from_name(const char *name);

/* Fill *f from an agent (may be NULL), a kind, an address and a printf-style
 * message. Does not log it. */
CG_API void cg_fault_init(cg_fault *f, const cg_agent *who, cg_fault_kind kind,
                          uint64_t gpu_addr, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;

/* Post a fault to the device log (assigns f->seq), call the fault callback and
 * emit a trace event. Returns CG_ERR_FAULT, or 0 if the fault is a warning,
 * so callers can `return cg_fault_raise(...)`. Thread-safe. */
CG_API int cg_fault_raise(cg_device *dev, const cg_fault *f);

/* Convenience: init + raise. */
CG_API int cg_fault_post(cg_device *dev, const cg_agent *who, cg_fault_kind kind,
                         uint64_t gpu_addr, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;

/* The same with a va_list, for a family's own printf-style fault helper:
 * init + raise, returning what cg_fault_raise returns. */
CG_API int cg_fault_vpost(cg_device *dev, const cg_agent *who, cg_fault_kind kind,
                          uint64_t gpu_addr, const char *fmt, va_list ap);

/* One-line text: "fault #3 unmapped nv/pfifo ch 1 addr 0x... stream 0x...
 * words 0x...: message" ("warning #3 ..." for a warning). Returns the length it wanted (snprintf style). */
CG_API int cg_fault_format(const cg_fault *f, char *buf, size_t cap);

/* JSON object for a fault (no trailing newline), snprintf style. */
CG_API int cg_fault_format_json(const cg_fault *f, char *buf, size_t cap);

/* The log keeps the first CG_FAULT_LOG_MAX faults; later ones are counted in
 * cg_fault_dropped() (and still reach the callback and trace). */
#define CG_FAULT_LOG_MAX 4096
CG_API size_t cg_fault_count(const cg_device *dev);
/* The i-th logged fault, or NULL past the end. The pointer stays valid, even
 * while other threads raise faults, until cg_fault_clear or device destroy. */
CG_API const cg_fault *cg_fault_get(const cg_device *dev, size_t i);
CG_API uint64_t cg_fault_dropped(const cg_device *dev);
CG_API void cg_fault_clear(cg_device *dev);

typedef void (*cg_fault_fn)(void *user, const cg_fault *f);
CG_API void cg_fault_set_callback(cg_device *dev, cg_fault_fn fn, void *user);

#ifdef __cplusplus
}
#endif
#endif
