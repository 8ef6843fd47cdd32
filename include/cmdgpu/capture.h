/* cmdgpu: loaders for captures that real systems write (docs/captures.md).
 *
 *   radeon-ring-dump  the Linux radeon debugfs ring file (radeon_ring_gfx,
 *                     _cp1, _cp2, _dma1, _dma2, _uvd, _vce1, _vce2), text,
 *                     drivers/gpu/drm/radeon/radeon_ring.c
 *                     radeon_debugfs_ring_info{,_show}: the current form and
 *                     the older ones (wptr(0xREG): ..., driver's copy of the
 *                     rptr, no marks), rptr '*' and saved-rptr '#' marks
 *   vc4-hang-state    the binary file vc4-gpu-tools' vc4_dump_hang_state
 *                     writes: u32 version 0, struct drm_vc4_get_hang_state
 *                     (160 bytes, include/uapi/drm/vc4_drm.h), bo_count x
 *                     struct drm_vc4_get_hang_state_bo (16 bytes), then each
 *                     BO's bytes in table order
 *   vc4-cl-dump       Mesa's VC4_DEBUG=cl text (vc4_cl_dump.c): one line
 *                     "0xOFFSET 0xHWOFFSET: 0xOP NAME" per packet, then
 *                     "    Field: value" lines (v3d_print_group)
 *   nv-push-raw       raw little-endian pushbuffer words, the input of Mesa's
 *                     nv_push_dump (src/nouveau/headers/nv_push_dump.c)
 *
 * Every parser takes hostile bytes: a malformed file gives CG_ERR_SYNTAX (or
 * CG_ERR_RANGE for a declared size the file or the model cannot hold) and a
 * cg_capture_error naming the byte offset; nothing is allocated beyond what
 * the file itself holds. */
#ifndef CMDGPU_CAPTURE_H
#define CMDGPU_CAPTURE_H

#include <stdio.h>
#include "common.h"
#include "radeon.h"
#include "vc4.h"

#ifdef __cplusplus
extern "C" {
#endif

/* X(enum suffix, name, family, description) */
#define CG_CAPTURE_FORMAT_TABLE(X)                                                         \
    X(NATIVE, "native", CG_FAMILY_NONE, "the family's own binary input (words, control list)") \
    X(RADEON_RING_DUMP, "radeon-ring-dump", CG_FAMILY_RADEON,                              \
      "Linux radeon debugfs ring file (radeon_ring_gfx, ...)")                             \
    X(VC4_HANG_STATE, "vc4-hang-state", CG_FAMILY_VC4,                                     \
      "vc4-gpu-tools vc4_dump_hang_state file (VC4_GET_HANG_STATE)")                       \
    X(VC4_CL_DUMP, "vc4-cl-dump", CG_FAMILY_VC4, "Mesa VC4_DEBUG=cl text dump")            \
    X(NV_PUSH_RAW, "nv-push-raw", CG_FAMILY_NV, "raw pushbuffer words (nv_push_dump input)") \
    X(CMDGPU, "cmdgpu-capture", CG_FAMILY_NONE,                                            \
      "cmdgpu's own capture container (CMDGPUCAP, docs/capture-format.md)")

typedef enum cg_capture_format {
#define CG_X_ENUM(id, name, fam, desc) CG_CAPTURE_##id,
    CG_CAPTURE_FORMAT_TABLE(CG_X_ENUM)
#undef CG_X_ENUM
    CG_CAPTURE_FORMAT_COUNT
} cg_capture_format;

CG_API const char *cg_capture_format_name(cg_capture_format f); /* "?" if unknown */
CG_API const char *cg_capture_format_description(cg_capture_format f);
CG_API cg_family cg_capture_format_family(cg_capture_format f);
CG_API int cg_capture_format_from_name(const char *name, cg_capture_format *out);

/* Guess the format of a file from its bytes, where that is unambiguous:
 *   radeon-ring-dump  the text starts with a "wptr: 0x" or "wptr(0x" line;
 *   vc4-hang-state    version word 0, at least one BO, and the file size is
 *                     exactly 164 + 16 * bo_count + the BO sizes;
 *   vc4-cl-dump       the first line is "0x%08x 0x%08x: 0x%02x NAME";
 *   cmdgpu-capture    the "CMDGPUCAP\0" magic (include/cmdgpu/capfile.h).
 * Anything else (nv-push-raw included: raw words carry no signature) is
 * CG_CAPTURE_NATIVE. */
CG_API cg_capture_format cg_capture_detect(const uint8_t *data, size_t size);

/* Where and why a file could not be loaded. */
typedef struct cg_capture_error {
    size_t offset;  /* byte offset in the file */
    char msg[192];
} cg_capture_error;

/* ---- radeon debugfs ring dump (src/radeon/text/ringdump.c) ------------------ */

enum {
    CG_RINGDUMP_MARK_RPTR = 1u << 0,      /* ' *' after the line: rptr */
    CG_RINGDUMP_MARK_RPTR_NEXT = 1u << 1, /* ' #' after the line: rptr next (saved) */
};

typedef struct cg_radeon_ringdump_entry {
    uint32_t index; /* ring dword index as printed */
    uint32_t value;
    uint32_t marks; /* CG_RINGDUMP_MARK_* */
    size_t file_offset; /* of its line */
} cg_radeon_ringdump_entry;

typedef struct cg_radeon_ringdump {
    bool old_form;            /* "wptr(0xREG): ..." header (kernels before 3.16 or so) */
    bool has_wptr, has_rptr, has_rptr_next, has_driver_wptr, has_driver_rptr;
    bool has_sem, has_free, has_count;
    uint32_t wptr, rptr;      /* the hardware pointers as printed */
    uint32_t wptr_reg, rptr_reg; /* old form only */
    uint32_t rptr_next, rptr_next_reg;
    uint32_t driver_wptr, driver_rptr;
    uint64_t sem_signal_addr, sem_wait_addr;
    uint32_t free_dw, count_dw; /* "N free dwords in ring", "N dwords in ring" */
    uint32_t ring_dw;         /* ring size in dwords: free + count, or from the indices */
    size_t nentries;
    cg_radeon_ringdump_entry *entries; /* in file order */
    size_t rptr_entry;        /* entries[] index where rptr is, nentries if not dumped */
    size_t wptr_entry;        /* first entry at wptr after rptr_entry, nentries if none */
} cg_radeon_ringdump;

CG_API int cg_radeon_ringdump_parse(const uint8_t *data, size_t size, cg_radeon_ringdump **out,
                                    cg_capture_error *err);
CG_API void cg_radeon_ringdump_free(cg_radeon_ringdump *d);
/* The listing: a header, the history before rptr as .word lines, the live
 * region rptr..wptr decoded packet by packet from rptr (the packet at rptr
 * and the saved rptr marked), and the dwords after wptr as .word lines. The
 * text reassembles (cmdgpu asm -f radeon) to the dumped dwords in file
 * order. o->base is ignored (comments show ring byte offsets). Returns the
 * number of bad packets in the live region, or a negative cg_err. */
CG_API int cg_radeon_ringdump_disasm(const cg_radeon_ringdump *d, const cg_radeon_disasm_opts *o,
                                     FILE *out);

typedef struct cg_radeon_ringdump_result {
    cg_radeon_cp_status status; /* after the run */
    uint32_t scratch[8];        /* SCRATCH_REG0..7 */
    size_t faults;              /* faults raised by the run */
    uint64_t ring_addr;         /* where the ring was placed */
} cg_radeon_ringdump_result;

/* Replay the live region (rptr to wptr) on a new radeon model of `dev`: the
 * ring is placed at the start of the GTT, the dumped dwords written at their
 * indices, the CP started at rptr and run until wptr (idle), a wait, a fault
 * or the budgets. Nothing else the ring refers to is in the dump: IBs,
 * fences and semaphores outside the model's VRAM/GTT windows fault as
 * unmapped. On success *rd (if not NULL) is the model, for inspection;
 * destroy it with cg_radeon_destroy. Returns 0 or a negative cg_err (set-up
 * failures only: GPU faults are in the device's log and res->faults). */
CG_API int cg_radeon_ringdump_replay(const cg_radeon_ringdump *d, cg_device *dev, cg_radeon_gen gen,
                                     cg_radeon_ringdump_result *res, cg_radeon **rd);

/* ---- radeon hang report (src/radeon/hangreport.c) ---------------------- */

/* A recorder attached to a device (a trace sink) keeps the last packets the
 * CP executed and the GPU's last memory writes; after a failed run
 * cg_radeon_hang_report prints where the CP stood when the first radeon CP
 * fault (or hang) since the recorder was made ended the run: that packet,
 * the packets before it, and what it waited on (the memory, register or
 * semaphore of WAIT_REG_MEM / MEM_SEMAPHORE, with the last value the GPU
 * wrote there). Use one recorder per device, on the device's thread. */
#define CG_RADEON_HANG_HISTORY 8
typedef struct cg_radeon_hang_recorder cg_radeon_hang_recorder;
CG_API int cg_radeon_hang_recorder_create(cg_device *dev, cg_radeon_hang_recorder **out);
CG_API void cg_radeon_hang_recorder_destroy(cg_radeon_hang_recorder *r); /* detaches; NULL ok */
/* Text (or one JSON object `{"hang":{...}}` with json) to out. Returns 1
 * when a report was written, 0 when no radeon CP fault was raised. */
CG_API int cg_radeon_hang_report(const cg_radeon_hang_recorder *r, bool json, FILE *out);

/* ---- nv and vc4 hang reports (src/nv/hangreport.c, src/vc4/hangreport.c) -- */

/* The same for nv: the first nv fault since the recorder was made, the
 * method at its stream address (GPFIFO entry, subchannel, class, name,
 * data), the channel's methods before it, and for a semaphore acquire or
 * syncpoint wait the address, the value waited for and what memory held.
 * JSON: {"hang":{"kind","unit","channel","stream_addr","gpfifo_entry",
 * "method","words","message","waited_on","before"}} (docs/captures.md). */
#define CG_NV_HANG_HISTORY 8
typedef struct cg_nv_hang_recorder cg_nv_hang_recorder;
CG_API int cg_nv_hang_recorder_create(cg_device *dev, cg_nv_hang_recorder **out);
CG_API void cg_nv_hang_recorder_destroy(cg_nv_hang_recorder *r);
CG_API int cg_nv_hang_report(const cg_nv_hang_recorder *r, bool json, FILE *out);

/* vc4: for each control-list thread (ct0 binning, ct1 rendering) that
 * faulted or hung, the record at CTnCA with its decode, the thread's
 * records before it, and for Wait_On_Semaphore the semaphore counts
 * (increments by the other thread, waits) or for Flush the flush. */
#define CG_VC4_HANG_HISTORY 8
typedef struct cg_vc4_hang_recorder cg_vc4_hang_recorder;
CG_API int cg_vc4_hang_recorder_create(cg_device *dev, cg_vc4_hang_recorder **out);
CG_API void cg_vc4_hang_recorder_destroy(cg_vc4_hang_recorder *r);
CG_API int cg_vc4_hang_report(const cg_vc4_hang_recorder *r, bool json, FILE *out);

/* ---- vc4 hang state (src/vc4/text/hangstate.c) ------------------------------- */

#define CG_VC4_HANG_REGS(X)                                                   \
    X(start_bin, 0) X(start_render, 0) X(ct0ca, CG_VC4_CT0CA)                  \
    X(ct0ea, CG_VC4_CT0EA) X(ct1ca, CG_VC4_CT1CA) X(ct1ea, CG_VC4_CT1EA)       \
    X(ct0cs, CG_VC4_CT0CS) X(ct1cs, CG_VC4_CT1CS) X(ct0ra0, CG_VC4_CT00RA0)    \
    X(ct1ra0, CG_VC4_CT01RA0) X(bpca, CG_VC4_BPCA) X(bpcs, CG_VC4_BPCS)        \
    X(bpoa, CG_VC4_BPOA) X(bpos, CG_VC4_BPOS) X(vpmbase, CG_VC4_VPMBASE)       \
    X(dbge, CG_VC4_DBGE) X(fdbgo, CG_VC4_FDBGO) X(fdbgb, CG_VC4_FDBGB)         \
    X(fdbgr, CG_VC4_FDBGR) X(fdbgs, CG_VC4_FDBGS) X(errstat, CG_VC4_ERRSTAT)

typedef struct cg_vc4_hang_bo {
    uint32_t handle, paddr, size;
    size_t file_offset; /* where its bytes are in the file */
    const uint8_t *data; /* into the parsed buffer (size bytes) */
} cg_vc4_hang_bo;

typedef struct cg_vc4_hang_state {
    uint32_t version;
    uint32_t bo_count;
#define CG_X_FIELD(name, reg) uint32_t name;
    CG_VC4_HANG_REGS(CG_X_FIELD)
#undef CG_X_FIELD
    cg_vc4_hang_bo *bos; /* bo_count entries */
} cg_vc4_hang_state;

/* Parse a hang-state file. The BOs point into `data`, which must outlive
 * the result. */
CG_API int cg_vc4_hang_parse(const uint8_t *data, size_t size, cg_vc4_hang_state **out,
                             cg_capture_error *err);
CG_API void cg_vc4_hang_free(cg_vc4_hang_state *h);
/* The BO holding bus address addr (the alias bits 31:30 ignored), NULL if none. */
CG_API const cg_vc4_hang_bo *cg_vc4_hang_bo_at(const cg_vc4_hang_state *h, uint32_t addr);
/* The registers by their V3D names, the BO table, then the binner list
 * (start_bin .. CT0EA, skipped when they are equal) and the render list
 * (start_render .. CT1EA), each record at the CTnCA where its thread stood
 * marked. Returns the number of bad records, or a negative cg_err. */
CG_API int cg_vc4_hang_disasm(const cg_vc4_hang_state *h, const cg_vc4_disasm_opts *o, FILE *out);

typedef struct cg_vc4_hang_result {
    uint32_t ct0ca, ct1ca, ct0cs, ct1cs; /* after the run */
    int wait_rc;                          /* cg_vc4_wait_idle */
    size_t faults;
    bool have_frame;     /* a Tile_Rendering_Mode_Configuration was found */
    uint32_t fb_addr, fb_width, fb_height, fb_pitch, fb_depth, fb_format;
    bool fb_linear;      /* Memory_Format 0: the frame can be read as an image */
} cg_vc4_hang_result;

/* Re-run from the captured memory: a new vc4 model of `dev` with SDRAM large
 * enough for every BO, each BO written at its address, BPOA/BPOS set, then
 * the binner list kicked (start_bin .. CT0EA, unless equal) and the render
 * list (start_render .. CT1EA), and the threads waited for. The frame is the
 * first Tile_Rendering_Mode_Configuration of the render list. On success *v
 * (if not NULL) is the model; destroy it with cg_vc4_destroy. */
CG_API int cg_vc4_hang_replay(const cg_vc4_hang_state *h, cg_device *dev, cg_vc4_hang_result *res,
                              cg_vc4 **v);

/* ---- Mesa VC4_DEBUG=cl text (src/vc4/text/cl_textdump.c) ------------------- */

typedef struct cg_vc4_cl_textdump {
    uint8_t *bytes;    /* the control list rebuilt in hardware offsets */
    size_t size;
    size_t npackets;
    size_t unknown_at; /* hardware offset of an "Unknown packet" line, or SIZE_MAX */
    size_t more_lists; /* lists after the first (each after a "BCL:" label): not rebuilt */
} cg_vc4_cl_textdump;

/* Parse the dump back into bytes: each packet line gives its hardware
 * offset and opcode; its field lines ("    Name: value") are packed back
 * into the packet's bytes with the field layout of v3d_packet_v21.xml
 * (src/vc4/text/cl_textdump.def). GEM_HANDLES packets (which do not advance the
 * hardware offset) are dropped. A log of several jobs (a "BCL:" label
 * before each list) gives the first list; more_lists counts the others. */
CG_API int cg_vc4_cl_textdump_parse(const uint8_t *data, size_t size, cg_vc4_cl_textdump **out,
                                    cg_capture_error *err);
CG_API void cg_vc4_cl_textdump_free(cg_vc4_cl_textdump *d);

/* ---- nv raw pushbuffer words (src/nv/text/pushdump.c) ----------------------- */

/* Check raw words (nv_push_dump input) and return them as host words in
 * *words (malloc'd, *nwords). Text that NVK_DEBUG=push_dump prints (lines
 * "[0x00000000] HDR ...") is refused with a message: it is a decoded
 * listing whose data words are printed as fields. */
CG_API int cg_nv_pushdump_load(const uint8_t *data, size_t size, uint32_t **words, size_t *nwords,
                               cg_capture_error *err);

#ifdef __cplusplus
}
#endif
#endif
