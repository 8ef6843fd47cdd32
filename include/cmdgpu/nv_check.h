/* cmdgpu: the nv stream validator (`cmdgpu check -f nv`), the user-space
 * version of what a kernel checks before it lets a channel run an untrusted
 * pushbuffer: well-formed GPFIFO entries and pushbuffer words, a class
 * allow-list, and every address the stream makes an engine read or write
 * inside a mapping with the right permission. It walks the submitted entries
 * statically, tracking subchannel bindings and each class's registers as the
 * executor does, and never runs an engine (macros are expanded: the macro
 * engine only generates methods). Every rule, its id and its source:
 * docs/nv-check.md. The report is cmdgpu/check.h's. */
#ifndef CMDGPU_NV_CHECK_H
#define CMDGPU_NV_CHECK_H

#include <stdio.h>
#include "check.h"
#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A GPU mapping: [va, va + size), readable, and writable unless read_only.
 * Mappings of one address space do not overlap; if given overlapping ones,
 * the validator may use either for a shared byte.
 * (nvgpu's read-only PTEs: gk20a_mem_flag_read_only sets the PTE's
 * READ_ONLY and WRITE_DISABLE bits, and the GPU faults on a write.) */
typedef struct cg_nv_check_map {
    uint64_t va, size;
    bool read_only;
    const char *name;      /* for messages; NULL = none */
} cg_nv_check_map;

/* Bytes the CPU placed at va before the submissions (pushbuffers, data).
 * Mapped bytes no block covers read as zero; a later block wins. */
typedef struct cg_nv_check_bytes {
    uint64_t va;
    const uint8_t *data;
    size_t size;
} cg_nv_check_bytes;

/* One GPFIFO entry (two words: E0 low, E1 high, as cg_nv_gp_entry makes)
 * submitted on a channel (0..7), in submission order. */
typedef struct cg_nv_check_entry {
    unsigned channel;
    uint64_t entry;
} cg_nv_check_entry;

typedef struct cg_nv_check_input {
    const cg_nv_check_map *maps;
    size_t nmaps;
    const cg_nv_check_bytes *bytes;
    size_t nbytes;
    const cg_nv_check_entry *entries;
    size_t nentries;
    uint64_t max_words;    /* pushbuffer words walked at most; 0 = 2^24 (rule check-limit) */
} cg_nv_check_input;

/* Validate: every violation goes to r (init it first), in stream order;
 * r->checked counts the pushbuffer words walked. Returns 0 (violations or
 * not), CG_ERR_INVAL or CG_ERR_NOMEM. */
CG_API int cg_nv_check(const cg_nv_check_input *in, cg_check_report *r);

/* Validate an nv scene (assembler text as `cmdgpu run -f nv` takes it; path
 * names it in messages, text NULL reads the file at path): its .buffer
 * mappings (read-write), .section bytes and .submit entries per .channel,
 * with the default word limit.
 * Returns 0, CG_ERR_SYNTAX (the errors go to log when not NULL), CG_ERR_IO,
 * CG_ERR_NOMEM. */
CG_API int cg_nv_check_scene(const char *path, const char *text, size_t len, cg_check_report *r,
                             FILE *log);

#ifdef __cplusplus
}
#endif
#endif
