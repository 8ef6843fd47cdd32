/* cmdgpu: the vc4 stream validator (`cmdgpu check -f vc4`), the user-space
 * version of what the Linux vc4 kernel checks before it runs a
 * DRM_IOCTL_VC4_SUBMIT_CL job: the bin control list, the GL shader records,
 * the uniforms and the buffer objects (BOs) they name, and the shader BOs
 * (checked when they are created, DRM_IOCTL_VC4_CREATE_SHADER_BO). Every
 * violation is reported, not only the first. Rules, their ids and kernel
 * sources: docs/vc4-check.md. */
#ifndef CMDGPU_VC4_CHECK_H
#define CMDGPU_VC4_CHECK_H

#include "check.h"
#include "asm.h"
#include "vc4.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One entry of the submit's BO list (drm_vc4_submit_cl.bo_handles). */
typedef struct cg_vc4_check_bo {
    const uint8_t *data; /* contents: required for shader BOs (the QPU code), else may be NULL */
    uint32_t size;       /* bytes */
    bool shader;         /* created as a shader BO (its code is validated) */
} cg_vc4_check_bo;

/* What userspace hands the kernel (struct drm_vc4_submit_cl). */
typedef struct cg_vc4_submit {
    const uint8_t *bin_cl;
    uint32_t bin_cl_size;
    /* Per record: 3 + N u32 BO-list indices (FS, VS, CS code, then one per
     * attribute), then the record itself (36 + 8N bytes, or 100 + 4N in the
     * extended form), unpadded. */
    const uint8_t *shader_rec;
    uint32_t shader_rec_size;
    uint32_t shader_rec_count; /* records declared */
    /* Per shader, in record order FS, VS, CS: its uniforms, in the order it reads them. */
    const uint8_t *uniforms;
    uint32_t uniforms_size;
    const cg_vc4_check_bo *bo;
    uint32_t bo_count;
} cg_vc4_submit;

/* Check a submit; every violation is added to r (r->checked counts bin-CL
 * packets, shader records and shader instructions). Returns 0 (look at
 * r->n), or CG_ERR_INVAL for a NULL argument or a buffer given a size but
 * no data. */
CG_API int cg_vc4_check(const cg_vc4_submit *s, cg_check_report *r);

/* Check a submit written as vc4 assembler source (a vc4 scene,
 * cmdgpu/scene.h): sections `bin_cl`, `shader_rec`,
 * `uniforms`, and one section per BO-list entry, `bo<N>` (a plain BO of the
 * section's size) or `shader<N>` (a shader BO holding the section's bytes),
 * N = 0, 1, ... without gaps; the symbol `shader_rec_count`, if defined,
 * is the declared record count (default: the number of GL_Shader_State
 * packets in bin_cl). Without a `bin_cl` section, the bytes of the scene's
 * first `.kick 0, START, END` are checked as the bin CL, with no shader
 * records and no BOs. Returns 0, or CG_ERR_INVAL with a message in
 * err (input errors). */
struct cg_scene;
CG_API int cg_vc4_check_scene(const struct cg_scene *sc, cg_check_report *r, char *err,
                              size_t errcap);

#ifdef __cplusplus
}
#endif
#endif
