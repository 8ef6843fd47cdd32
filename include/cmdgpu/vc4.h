/* cmdgpu: the vc4 family, Broadcom VideoCore IV V3D (Raspberry Pi 1-3).
 *
 * Memory. The VC4 has no MMU: control lists, shader records and framebuffers
 * hold bus addresses. cg_vc4_bus() is a 32-bit address space in which one
 * SDRAM object is mapped four times, at the bus aliases 0x00000000,
 * 0x40000000, 0x80000000 and 0xC0000000 (0xC... is the uncached alias the
 * firmware hands out for framebuffers; research/vc4.md section 5). The ARM
 * sees SDRAM at bus & 0x3FFFFFFF through its own view (cg_vc4_cpu_*), which
 * is CPU-cached when cg_vc4_config.cpu_cached is set: a GPU read of a line
 * the ARM still holds dirty is then reported by the device's coherency model
 * (the seed's "don't forget to flush").
 *
 * Registers. cg_vc4_reg_read/write reach the V3D block (offsets from the
 * V3D base, research/vc4.md section 2) and cg_vc4_mmio_* the whole
 * peripheral window (V3D at CG_VC4_V3D_BASE, the mailbox at
 * CG_VC4_MBOX_BASE), as bare-metal code sees them.
 *
 * Execution is deterministic: writing CT0EA or CT1EA starts that control
 * list thread, and the threads run, in the caller's thread, until each has
 * reached its end address (CTnCA == CTnEA), blocked (Wait On Semaphore, the
 * binner out of memory) or faulted. A blocked thread resumes when another
 * thread or the CPU unblocks it. cg_vc4_wait_idle() is the watchdog: a
 * thread still blocked when nothing else can run ends with a HANG fault.
 * Faults (unknown opcode, unmapped memory, sub-list depth, budget) stop the
 * thread with CTnCS.error set and are logged on the device.
 *
 * The control-list record table, the binner's tile-list format and the
 * renderer are described in docs/vc4.md. */
#ifndef CMDGPU_VC4_H
#define CMDGPU_VC4_H

#include <stdio.h>
#include "capture.h"
#include "common.h"
#include "fault.h"
#include "asm.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cg_vc4 cg_vc4;

/* Peripheral window offsets (peripheral base 0x20000000 on a Pi 1,
 * 0x3F000000 on a Pi 2/3; research/vc4.md sections 2 and 5). */
#define CG_VC4_V3D_BASE 0x00C00000u
#define CG_VC4_MBOX_BASE 0x0000B880u
#define CG_VC4_MBOX_READ 0x00u   /* from CG_VC4_MBOX_BASE */
#define CG_VC4_MBOX_STATUS 0x18u /* bit 31 full, bit 30 empty */
#define CG_VC4_MBOX_WRITE 0x20u
#define CG_VC4_MBOX_FULL 0x80000000u
#define CG_VC4_MBOX_EMPTY 0x40000000u
#define CG_VC4_MBOX_CH_PROPERTY 8u

/* V3D registers (byte offsets from the V3D base). X(name, offset). */
#define CG_VC4_REG_TABLE(X)                                                    \
    X(IDENT0, 0x000) X(IDENT1, 0x004) X(IDENT2, 0x008) X(SCRATCH, 0x010)       \
    X(L2CACTL, 0x020) X(SLCACTL, 0x024) X(INTCTL, 0x030) X(INTENA, 0x034)      \
    X(INTDIS, 0x038) X(CT0CS, 0x100) X(CT1CS, 0x104) X(CT0EA, 0x108)           \
    X(CT1EA, 0x10C) X(CT0CA, 0x110) X(CT1CA, 0x114) X(CT00RA0, 0x118)          \
    X(CT01RA0, 0x11C) X(CT0LC, 0x120) X(CT1LC, 0x124) X(CT0PC, 0x128)          \
    X(CT1PC, 0x12C) X(PCS, 0x130) X(BFC, 0x134) X(RFC, 0x138)                  \
    X(BPCA, 0x300) X(BPCS, 0x304) X(BPOA, 0x308) X(BPOS, 0x30C)                \
    X(BXCF, 0x310) X(SQRSV0, 0x410) X(SQRSV1, 0x414) X(SQCNTL, 0x418)          \
    X(SRQPC, 0x430) X(SRQUA, 0x434) X(SRQUL, 0x438) X(SRQCS, 0x43C)            \
    X(VPACNTL, 0x500) X(VPMBASE, 0x504) X(DBGE, 0xF00) X(FDBGO, 0xF04)         \
    X(FDBGB, 0xF08) X(FDBGR, 0xF0C) X(FDBGS, 0xF10) X(ERRSTAT, 0xF20)         \
    X(DBQITE, 0xE2C) X(DBQITC, 0xE30)

enum {
#define CG_X_ENUM(name, off) CG_VC4_##name = off,
    CG_VC4_REG_TABLE(CG_X_ENUM)
#undef CG_X_ENUM
};

/* Interrupt bits (INTCTL / INTENA / INTDIS). */
enum {
    CG_VC4_INT_FRDONE = 1u << 0,
    CG_VC4_INT_FLDONE = 1u << 1,
    CG_VC4_INT_OUTOMEM = 1u << 2,
    CG_VC4_INT_SPILLUSE = 1u << 3,
};

/* CTnCS bits. */
enum {
    CG_VC4_CS_MODE = 1u << 0,
    CG_VC4_CS_ERR = 1u << 3,
    CG_VC4_CS_SUBS = 1u << 4,
    CG_VC4_CS_RUN = 1u << 5,
    CG_VC4_CS_RTSD = 1u << 8, /* return-stack depth, 2 bits */
    CG_VC4_CS_SEMA = 1u << 12,
    CG_VC4_CS_RESET = 1u << 15,
};

/* PCS bits. */
enum {
    CG_VC4_PCS_BMACTIVE = 1u << 0,
    CG_VC4_PCS_BMBUSY = 1u << 1,
    CG_VC4_PCS_RMACTIVE = 1u << 2,
    CG_VC4_PCS_RMBUSY = 1u << 3,
    CG_VC4_PCS_BMOOM = 1u << 8,
};

typedef struct cg_vc4_config {
    uint32_t sdram_size;    /* bytes, 4 KiB multiple, <= 1 GiB; 0: 64 MiB */
    bool cpu_cached;        /* the ARM's view of SDRAM goes through the CPU-cache model */
    uint64_t record_budget; /* work one thread may do per kick, counted in records,
                               triangles, (triangle, tile) entries and 16-lane
                               fragment batches; then a HANG fault; 0: 1 << 24 */
    uint64_t qpu_budget;    /* QPU instructions per fragment batch; 0: 1 << 16 */
    bool qpu_strict;        /* QPU restriction violations fault (else warn) */
    uint32_t fw_heap;       /* bus offset where the firmware allocates; 0: sdram/2 */
    uint32_t render_threads; /* threads rendering a frame's tiles (docs/vc4.md "Tiles on a
                                pool of threads"); 0: the device's vc4.render-threads
                                (default 8), at most the host's CPUs; 1: the render
                                thread alone. The environment variable
                                CMDGPU_VC4_RENDER_THREADS=N overrides both (tests). */
    bool no_early_stores;    /* with render threads, a worker runs the store that ends its
                                tile into a staging buffer, written to memory once the
                                render thread takes its result (docs/vc4.md "Early
                                stores"); true: every store runs on the render thread.
                                CMDGPU_VC4_EARLY_STORES=0|1 overrides (tests). */
    bool pool_at_once;       /* with render threads, the pool starts once the render thread
                                has rendered alone for 2 ms in all (its set-up costs a fresh
                                process about that much: a short frame is faster alone;
                                docs/vc4.md "When the pool starts"); true: from the first
                                frame. CMDGPU_VC4_POOL_AT_ONCE=0|1 overrides (tests). */
} cg_vc4_config;

CG_API int cg_vc4_create(cg_device *dev, const cg_vc4_config *cfg, cg_vc4 **out);
CG_API void cg_vc4_destroy(cg_vc4 *v); /* NULL is a no-op */
CG_API cg_device *cg_vc4_device(const cg_vc4 *v);
CG_API cg_vas *cg_vc4_bus(const cg_vc4 *v);
CG_API cg_mem *cg_vc4_sdram(const cg_vc4 *v);

/* ARM-side access to SDRAM at a bus or ARM physical address (the top two
 * bits select an alias and are ignored). CG_ERR_RANGE past SDRAM. */
CG_API int cg_vc4_cpu_write(cg_vc4 *v, uint32_t addr, const void *src, size_t n);
CG_API int cg_vc4_cpu_read(cg_vc4 *v, uint32_t addr, void *dst, size_t n);
CG_API int cg_vc4_cpu_write32(cg_vc4 *v, uint32_t addr, uint32_t val);
CG_API int cg_vc4_cpu_read32(cg_vc4 *v, uint32_t addr, uint32_t *val);
CG_API int cg_vc4_cpu_flush(cg_vc4 *v, uint32_t addr, size_t n);
CG_API int cg_vc4_cpu_invalidate(cg_vc4 *v, uint32_t addr, size_t n);

/* V3D registers: offset from the V3D base. Unknown offsets read 0 and
 * ignore writes (CG_ERR_RANGE outside [0, 0x1000) or misaligned). */
CG_API int cg_vc4_reg_read(cg_vc4 *v, uint32_t off, uint32_t *val);
CG_API int cg_vc4_reg_write(cg_vc4 *v, uint32_t off, uint32_t val);
CG_API const char *cg_vc4_reg_name(uint32_t off); /* NULL if none */
CG_API int cg_vc4_reg_from_name(const char *name, uint32_t *off);

/* The peripheral window: V3D and the mailbox (other offsets CG_ERR_NOENT). */
CG_API int cg_vc4_mmio_read(cg_vc4 *v, uint32_t off, uint32_t *val);
CG_API int cg_vc4_mmio_write(cg_vc4 *v, uint32_t off, uint32_t val);

/* The mailbox: a write of (bus address | channel) on channel 8 runs the
 * property interface on that buffer and queues the same word for reading. */
CG_API int cg_vc4_mbox_write(cg_vc4 *v, uint32_t msg);
CG_API int cg_vc4_mbox_read(cg_vc4 *v, uint32_t *msg); /* CG_ERR_BUSY if empty */
CG_API uint32_t cg_vc4_mbox_status(const cg_vc4 *v);

/* The framebuffer the firmware allocated (tag 0x40001), if any. */
typedef struct cg_vc4_fb {
    uint32_t bus_addr, size, width, height, pitch, depth;
} cg_vc4_fb;
CG_API int cg_vc4_framebuffer(const cg_vc4 *v, cg_vc4_fb *out); /* CG_ERR_NOENT if none */

/* Run every runnable thread until nothing can progress (also done after each
 * register write that can start or unblock a thread). */
CG_API int cg_vc4_run(cg_vc4 *v);
/* Run, then end every thread still blocked with a HANG fault (the watchdog).
 * 0 when both threads are idle without faults, CG_ERR_TIMEOUT after a hang,
 * CG_ERR_FAULT if a thread faulted. */
CG_API int cg_vc4_wait_idle(cg_vc4 *v);

typedef struct cg_vc4_stats {
    uint64_t records[2];      /* records executed per thread */
    uint64_t prims_binned;    /* triangles read by the binner */
    uint64_t tile_prims;      /* (triangle, tile) entries written */
    uint64_t blocks;          /* tile-list blocks taken from the pool */
    uint64_t tiles_rendered;  /* stores */
    uint64_t fragments;       /* covered pixels shaded */
    uint64_t batches;         /* 16-lane fragment batches */
} cg_vc4_stats;
CG_API void cg_vc4_get_stats(const cg_vc4 *v, cg_vc4_stats *out);

/* ---- QPU user programs (docs/vc4-gpgpu.md) ---------------------------- */

/* User programs start by writing SRQUA/SRQUL then SRQPC (the request
 * queue) or through the mailbox tag 0x30011; they run on the 12 QPUs, one
 * instruction per running QPU per round in QPU-number order, until every
 * QPU is idle or blocked. cg_vc4_wait_idle() ends blocked ones with HANG. */
typedef struct cg_vc4_qpu_info {
    bool busy, blocked, reserved;
    uint32_t pc, code, unif;  /* next instruction, program start, uniforms */
    uint64_t insns;           /* instructions of the current (or last) program */
    uint32_t host_ints;       /* HOST_INT writes of that program */
    uint32_t host_int_value;  /* the last one's value (element 0) */
    char wait[64];            /* what a blocked QPU waits on, else "" */
} cg_vc4_qpu_info;
CG_API int cg_vc4_qpu_get(cg_vc4 *v, unsigned qpu, cg_vc4_qpu_info *out);
/* A debugger's halt: while held, the scheduler runs nothing (SRQPC writes
 * only queue); releasing it starts every queued program on the free QPUs
 * at once and runs them (tests, `cmdgpu run -f vc4-qpu`). */
CG_API int cg_vc4_qpu_hold(cg_vc4 *v, bool hold);
typedef struct cg_vc4_qpu_stats {
    uint64_t started, completed, faulted; /* user programs */
    uint64_t insns;                       /* instructions executed (stalls excluded) */
    uint64_t host_ints;
    uint8_t sems[16];                     /* the semaphore counts now */
} cg_vc4_qpu_stats;
CG_API void cg_vc4_qpu_get_stats(const cg_vc4 *v, cg_vc4_qpu_stats *out);
/* What mailbox tag 0x30011 does: `control` is the bus address of num_qpus
 * (uniforms address, code address) pairs; *status = 0, or 0x80000000 on a
 * timeout (timeout_ms * 250000 rounds), a deadlock or a fault, after HANG
 * faults naming each QPU still running. */
CG_API int cg_vc4_qpu_execute(cg_vc4 *v, uint32_t num_qpus, uint32_t control, uint32_t noflush,
                              uint32_t timeout_ms, uint32_t *status);

/* ---- control-list records -------------------------------------------- */

/* Size in bytes of the record with this opcode (opcode included; for the
 * compressed primitive lists, the fixed part), or 0 if the opcode is unknown. */
CG_API unsigned cg_vc4_cl_size(uint8_t opcode);
CG_API const char *cg_vc4_cl_name(uint8_t opcode); /* NULL if unknown */
CG_API int cg_vc4_cl_opcode(const char *name);     /* opcode, or CG_ERR_NOENT */

/* Read n bytes at addr for the disassembler; return 0 or a negative cg_err. */
typedef int (*cg_vc4_read_fn)(void *user, uint32_t addr, void *dst, size_t n);

typedef struct cg_vc4_disasm_opts {
    uint32_t base;   /* address of the first byte */
    bool follow;     /* follow branches and sub-lists (for lists in memory) */
    uint8_t prim_format; /* compressed lists before any Primitive_List_Format: 0x12 */
    unsigned max_records; /* 0: 1 << 20 */
    bool json;       /* one JSON object: {"family", "base", "items": [...], "bad"} */
    const char *c_name, *c_num, *c_addr, *c_err, *c_comment, *c_reset;
} cg_vc4_disasm_opts;

/* Disassemble a control list held in data[0, size) at address o->base. The
 * text is valid input to cg_vc4_asm_family() and rebuilds the same bytes.
 * Returns the number of bad records (unknown, truncated), or a cg_err. */
CG_API int cg_vc4_cl_disasm(const cg_vc4_disasm_opts *o, const uint8_t *data, size_t size,
                            FILE *out);
/* Disassemble from memory through `rd` starting at `start` (following
 * branches and sub-lists when o->follow), stopping after `max_bytes` of a
 * linear run, at a Halt, or at the end of the top-level list's Return. */
CG_API int cg_vc4_cl_disasm_mem(const cg_vc4_disasm_opts *o, cg_vc4_read_fn rd, void *user,
                                uint32_t start, uint32_t max_bytes, FILE *out);

/* Decode one item of a compressed primitive list (16-bit index triangles,
 * research/vc4.md 1.3): returns its size in bytes (1..7), 0 if truncated.
 * kind: 0..3 coding, 4 escape, 5 relative branch (*branch = s16 units);
 * tri[3] are updated from the previous triangle for codings 0..3. */
typedef struct cg_vc4_prim_item {
    int kind;
    int32_t a, b, c;  /* the coding's raw fields (see docs/vc4.md) */
    uint32_t tri[3];  /* indices after this item */
    int16_t branch;
} cg_vc4_prim_item;
CG_API unsigned cg_vc4_prim_decode(const uint8_t *p, size_t n, const uint32_t prev[3],
                                   cg_vc4_prim_item *out);
/* Encode triangle tri after prev in the smallest coding; returns bytes
 * written to out[7] (1..7), 0 if an index exceeds 16 bits. */
CG_API unsigned cg_vc4_prim_encode(const uint32_t prev[3], const uint32_t tri[3], bool first,
                                   uint8_t out[7]);

/* ---- assembler plug-in and scenes ----------------------------------- */

/* Statements (docs/vc4.md):
 *   RECORD_NAME a, b, ...            seed / reference-guide macro operands
 *   RECORD_NAME {Field=v, ...}       named fields (the disassembler's form)
 *   Coding_0..3, Escape, Relative_Branch   compressed-list items
 * Scene directives (recorded into a scene, cmdgpu/scene.h):
 *   .mailbox ADDR  .reg NAME|OFF, V  .kick T, START, END
 *   .wait bfc|rfc, N | .wait idle   .copy32 DST, SRC   .write32 A, V
 *   .flush A, N   .expect32 A, V   .expect_reg R, V   .dump A, N
 *   .dump_cl A [, N]   .png "file" [, ADDR, W, H, PITCH, FMT]   .cpu_cache 0|1 */
typedef struct cg_vc4_asm cg_vc4_asm;
CG_API int cg_vc4_asm_create(cg_vc4_asm **out);
CG_API void cg_vc4_asm_destroy(cg_vc4_asm *st);
CG_API const cg_asm_family *cg_vc4_asm_family(void);

/* The configuration a vc4 scene carries (a CONFIG record): 1 after
 * `.cpu_cache 1` (the ARM's view is cached: CPU writes need a .flush). A
 * scene runs through cg_scene_run (cmdgpu/scene.h): every section is
 * loaded at its bus address through the ARM's view, then the directives
 * play in order; -o (frame_png) writes the firmware framebuffer, or the
 * last frame a .png/.expect_hash named. */
#define CG_CAPCFG_VC4_CPU_CACHED 16

/* Image view of a surface in the model's memory (RGBA8888 tile-buffer words
 * are 0xAARRGGBB, i.e. BGRA8888 bytes, the Pi's default 32-bit pixel order). */
CG_API int cg_vc4_fb_hash(cg_vc4 *v, uint32_t addr, uint32_t w, uint32_t h, uint32_t pitch,
                          uint32_t depth, uint64_t *hash);
CG_API int cg_vc4_fb_png(cg_vc4 *v, uint32_t addr, uint32_t w, uint32_t h, uint32_t pitch,
                         uint32_t depth, const char *path);

/* ---- hang report (src/vc4/hangreport.c) --------------------------------- */

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

#ifdef __cplusplus
}
#endif
#endif
