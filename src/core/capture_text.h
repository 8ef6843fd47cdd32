/* core: helpers the capture loaders share (not installed; see
 * include/cmdgpu/capture.h and src/core/capture.c). */
#ifndef CMDGPU_CORE_CAPTURE_TEXT_H
#define CMDGPU_CORE_CAPTURE_TEXT_H

#include "cmdgpu/capture.h"

/* Fill *err (may be NULL) with the offset and a printf-style message;
 * returns rc, so loaders can `return cg_capture_fail(...)`. */
int cg_capture_fail(cg_capture_error *err, size_t off, int rc, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

/* The next line of a text capture at *pos into line[cap] (NUL-terminated,
 * without its newline or a trailing CR); *start = its byte offset. Returns
 * 1 for a line, 0 at the end, or CG_ERR_SYNTAX (a NUL byte, a line of cap
 * bytes or more) with *err set. */
int cg_capture_line(const uint8_t *data, size_t size, size_t *pos, char *line, size_t cap,
                    size_t *start, cg_capture_error *err);

/* "0x" and 1..16 hex digits at *s: the value, *s moved past them. */
bool cg_capture_hex(const char **s, uint64_t *v);

#endif
