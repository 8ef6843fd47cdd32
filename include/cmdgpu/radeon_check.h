/* cmdgpu: the radeon stream validator (`cmdgpu check -f radeon`), a user-space
 * version of what the Linux radeon driver checks before it runs an R600/R700
 * command stream from user space (drivers/gpu/drm/radeon/radeon_cs.c and
 * r600_cs.c; research/radeon.md section 2). It reads an indirect buffer (IB)
 * and the relocation chunk that comes with it, runs nothing, and reports every
 * rule the IB breaks, in stream order (include/cmdgpu/check.h).
 *
 * As in the kernel, an IB never holds GPU addresses: every address-bearing
 * packet or register carries an offset inside a buffer object (BO) and is
 * followed by a PACKET3 NOP whose payload dword indexes the relocation chunk
 * in dwords (4 dwords per relocation: BO i is index 4 * i). The kernel adds
 * the BO's GPU address when it accepts the IB; the validator resolves the
 * same way and, where the BO's GPU address is given, reports where the GPU
 * would have written.
 *
 * The rules, their ids and sources: docs/radeon-check.md. Generations: r600
 * and r700 (r600_cs.c); evergreen (evergreen_cs.c) and r500 (r100/r300
 * checkers) are not supported yet. */
#ifndef CMDGPU_RADEON_CHECK_H
#define CMDGPU_RADEON_CHECK_H

#include "common.h"
#include "asm.h"
#include "check.h"
#include "radeon.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Memory domains of a relocation (linux include/uapi/drm/radeon_drm.h
 * RADEON_GEM_DOMAIN_*). */
enum {
    CG_RADEON_DOMAIN_CPU = 0x1,
    CG_RADEON_DOMAIN_GTT = 0x2,
    CG_RADEON_DOMAIN_VRAM = 0x4,
};

/* One relocation: the buffer object an IB may reference. */
typedef struct cg_radeon_check_bo {
    const char *name;      /* for messages; NULL: "bo<i>" */
    uint64_t size;         /* bytes */
    uint32_t domains;      /* the relocation's domain (write domain, else read
                              domains): CG_RADEON_DOMAIN_* bits */
    bool has_gpu_addr;     /* gpu_addr is known: messages give resolved addresses */
    uint64_t gpu_addr;
} cg_radeon_check_bo;

#define CG_RADEON_CHECK_MAX_BOS 4096

typedef struct cg_radeon_check_opts {
    cg_radeon_gen gen;             /* CG_RADEON_R600 or CG_RADEON_R700 */
    const cg_radeon_check_bo *bos; /* the relocation chunk, in order */
    size_t nbos;                   /* at most CG_RADEON_CHECK_MAX_BOS */
} cg_radeon_check_opts;

/* Check `size` bytes of IB (little-endian dwords) and add every violation to
 * r (initialised by the caller; `where` is the byte offset of the offending
 * dword in the IB, or of the relocation in the chunk for reloc-domain).
 * Returns 0 (whether or not the IB broke rules: see r->n), CG_ERR_INVAL for
 * bad arguments, CG_ERR_UNSUPPORTED for evergreen and r500. */
CG_API int cg_radeon_check(const cg_radeon_check_opts *o, const uint8_t *ib, size_t size,
                           cg_check_report *r);

/* ---- checking assembler source ------------------------------------------
 * The radeon assembler (cg_radeon_asm_family) plus one directive that
 * declares the relocation chunk:
 *   .bo NAME, SIZE, DOMAIN [, GPU_ADDR]
 * DOMAIN is vram, gtt, cpu or an expression (a CG_RADEON_DOMAIN_* mask).
 * Each .bo adds the next relocation and defines NAME as its NOP index
 * (4 * position), so `NOP NAME` after a packet is its relocation. A binary IB
 * is checked by `.incbin "ib.bin"` after the declarations. */
typedef struct cg_radeon_check_src cg_radeon_check_src;
CG_API int cg_radeon_check_src_create(cg_radeon_gen gen, cg_radeon_check_src **out);
CG_API void cg_radeon_check_src_destroy(cg_radeon_check_src *s); /* NULL is a no-op */
CG_API const cg_asm_family *cg_radeon_check_asm_family(void);    /* user = the check_src */
CG_API size_t cg_radeon_check_src_bo_count(const cg_radeon_check_src *s);
/* After a successful cg_asm_assemble: check the section named `section`
 * (NULL: the first one) with the declared BOs and the source's final .gen.
 * CG_ERR_NOENT if there is no such section; otherwise as cg_radeon_check. */
CG_API int cg_radeon_check_src_run(const cg_radeon_check_src *s, const cg_asm *as,
                                   const char *section, cg_check_report *r);

#ifdef __cplusplus
}
#endif
#endif
