/* cmdgpu: common definitions shared by every public header.
 *
 * Conventions (docs/design.md): functions return 0 or a negative cg_err code; a GPU
 * fault is a value (a cg_fault record), never an abort. Every object hangs off a
 * cg_device; there is no global state. */
#ifndef CMDGPU_COMMON_H
#define CMDGPU_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>

#if defined(CMDGPU_STATIC_DEFINE)
#define CG_API
#elif defined(_WIN32)
#define CG_API __declspec(dllexport)
#else
#define CG_API __attribute__((visibility("default")))
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Error codes. X(name, value, text): one table, used for the enum and
 * cg_strerror(). */
#define CG_ERR_TABLE(X)                                                        \
    X(CG_OK, 0, "success")                                                     \
    X(CG_ERR_INVAL, -1, "invalid argument")                                    \
    X(CG_ERR_NOMEM, -2, "out of host memory")                                  \
    X(CG_ERR_RANGE, -3, "address or size out of range")                        \
    X(CG_ERR_ALIGN, -4, "misaligned address or size")                          \
    X(CG_ERR_OVERLAP, -5, "range overlaps an existing one")                    \
    X(CG_ERR_NOENT, -6, "no such object, mapping or reservation")              \
    X(CG_ERR_PERM, -7, "operation not permitted on this mapping")              \
    X(CG_ERR_FAULT, -8, "the access faulted (see the device fault log)")       \
    X(CG_ERR_BUSY, -9, "resource busy")                                        \
    X(CG_ERR_TIMEOUT, -10, "timed out")                                        \
    X(CG_ERR_IO, -11, "input/output error")                                    \
    X(CG_ERR_UNSUPPORTED, -12, "not supported")                                \
    X(CG_ERR_SYNTAX, -13, "syntax error")                                      \
    X(CG_ERR_NOSPACE, -14, "no free address space")

typedef enum cg_err {
#define CG_X_ENUM(name, value, text) name = value,
    CG_ERR_TABLE(CG_X_ENUM)
#undef CG_X_ENUM
} cg_err;

/* Text for a cg_err value (or "unknown error"). Never NULL. */
CG_API const char *cg_strerror(int err);
/* Why reading path failed with the cg_err rc, as the system says it ("No
 * such file or directory", "Is a directory", "Permission denied"): the
 * file is looked at again; cg_strerror(rc) when that finds nothing wrong.
 * Returns buf. */
CG_API const char *cg_file_why(const char *path, int rc, char *buf, size_t cap);

/* Library version, "MAJOR.MINOR.PATCH". */
CG_API const char *cg_version(void);

/* GPU families. */
typedef enum cg_family {
    CG_FAMILY_NONE = 0,
    CG_FAMILY_NV,
    CG_FAMILY_VC4,
    CG_FAMILY_RADEON,
} cg_family;

CG_API const char *cg_family_name(cg_family f);

/* A number as the command line and the scene directives take it: decimal
 * or 0x hex, no sign, no octal-looking leading 0, no overflow. 0, or -1. */
CG_API int cg_parse_u64(const char *text, uint64_t *out);

typedef struct cg_device cg_device;
typedef struct cg_mem cg_mem;
typedef struct cg_vas cg_vas;

#ifdef __cplusplus
}
#endif
#endif
