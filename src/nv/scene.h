/* nv family: scene actions, recorded by the assembler plug-in (text/asm.c)
 * and played by scene.c through the core's runner (cmdgpu/scene.h). */
#ifndef CMDGPU_NV_SCENE_H
#define CMDGPU_NV_SCENE_H

#include "cmdgpu/family.h"
#include "cmdgpu/nv3d.h"
#include "nv/nv_internal.h"

/* The one list of what an nv scene does: X(NAME, code, role, sane) --
 * sane: the limits the assembler lets through, checked again on a
 * capture's records (scene.c; every action's fence slots are). The code is stable: captures store
 * it (docs/capture-format.md). Fields: a..d as below, s1 the fence slot a
 * .submit waits on and s2 the one it sets (-1: none), str1 a .buffer's
 * name, str2 a .dump or .png file. */
#define NV_SCENE_ACTIONS(X)                                                               \
    X(BUFFER, 0, MAPPING, sane_any)        /* a = VA, b = size, c = PTE kind, d = cached */    \
    X(CHANNEL, 1, SYNC, sane_channel)   /* a = channel 0..7 */                              \
    X(SUBMIT, 2, SUBMIT, sane_submit)   /* one GPFIFO entry: [a, b) */                      \
    X(RUN, 3, SYNC, sane_any)                                                               \
    X(FINISH, 4, SYNC, sane_any)                                                             \
    X(WAIT, 5, SYNC, sane_wait)         /* a = fence slot, b = timeout */                   \
    X(CPU_WRITE32, 6, CPU, sane_any)        /* a = VA, b = value */                             \
    X(EXPECT32, 7, CHECK, sane_any)         /* a = VA, b = value */                             \
    X(DUMP, 8, CHECK, sane_dump)        /* a = VA, b = bytes */                             \
    X(PNG, 9, CHECK, sane_png)          /* a = VA, b = w | h << 32, c = pitch, d = format */ \
    X(CLOSE_CHANNEL, 10, SYNC, sane_channel) /* a = channel 0..7 */                         \
    X(UNMAP, 11, SYNC, sane_any)        /* a = VA of a .buffer: unmapped, its memory freed */ \
    X(EXPECT_HASH, 12, CHECK, sane_hash) /* a = VA, b = bytes, c = FNV-1a 64 of them */

enum {
#define NV_X_ENUM(name, code, role, sane) NV_SA_##name = code,
    NV_SCENE_ACTIONS(NV_X_ENUM)
#undef NV_X_ENUM
};

enum { NV_SCENE_FENCES = 16 };

/* Configuration keys (CONFIG records): nv.nvsw = 1: methods on
 * subchannels 5-7 go to the kernel's software object, as in a session
 * libcmdgpu-drm recorded (driver/nvsw.c). */
enum { NV_CFG_NVSW = 24 };

/* driver/nvsw.c: a method of the kernel's software object; lines to log
 * (NULL: none) start with prefix. Returns true (the channel goes on). */
bool nv_nvsw_method(FILE *log, const char *prefix, int channel, unsigned subch, uint32_t m,
                    uint32_t v);
#define NV_NAME_MAX 63  /* a .buffer's name (str1) */
#define NV_PATH_MAX 255 /* a .dump or .png file (str2) */

struct cg_nv_asm {
    uint32_t init_sc[8], sc[8];
    cg_scene *scene; /* where the final pass records (NULL: nothing is recorded) */
    /* .sass .. .endsass: lines in between are nv-sass statements (the
     * nv-sass family's state; cg_nv_sass_asm_state_size() fits) */
    bool in_sass;
    _Alignas(8) unsigned char sass_state[32];
};

extern const cg_family_desc cg_nv_family;
extern const cg_scene_ops nv_scene_ops;
extern const cg_capture_desc nv_push_raw_capture; /* capture.c */
extern const cg_demo nv_demos[5];                 /* demo.c */
extern const cg_kernel_ops nv_kernel_ops;         /* driver/kernel.c */

/* text/asm.c: a scene assembler (the cg_nv_asm owned by the cg_asm). */
int nv_scene_assembler(const cg_text_opts *o, cg_scene *sc, cg_asm **out);
/* The --subch option: CG_ERR_INVAL with msg when it cannot be read. */
int nv_subch_of(const cg_text_opts *o, uint32_t sc[8], char *msg, size_t cap);

#endif
