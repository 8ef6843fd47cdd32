/* cmdgpu: the nv family, NVIDIA Maxwell as in the Tegra X1 (Nintendo Switch).
 *
 * CPU side (what a driver or homebrew author calls), shaped like the Switch's
 * nvservices (seed 000; research/nv.md section 8):
 *   - nvmap: cg_nv_nvmap_create / _alloc / _free (handles of memory),
 *   - nvhost-as-gpu: cg_nv_as_* (alloc_space, map_buffer_ex, unmap, free_space),
 *   - nvhost-gpu channels: cg_nv_channel_open, cg_nv_channel_submit_gpfifo with
 *     fence wait/increment, host1x syncpoints and cg_nv_fence_wait,
 *   - a pushbuffer builder (cg_nv_pb_*) that picks IMMD when a value fits.
 *
 * GPU side: PFIFO (GPFIFO ring, pushbuffer decoder with every opcode, puller,
 * host class B06F + the A26F syncpoint methods) and the engines
 * KEPLER_INLINE_TO_MEMORY_B (A140), MAXWELL_DMA_COPY_A (B0B5) and
 * FERMI_TWOD_A (902D: blits and solid primitives). MAXWELL_B (B197) and
 * MAXWELL_COMPUTE_B (B1C0) bind and store their methods (plus I2M, constant
 * buffer uploads and report-semaphore releases); draws, macros and launches
 * fault as CG_FAULT_UNSUPPORTED. docs/nv.md lists what is not supported.
 *
 * The model is deterministic: submissions only queue work, and
 * cg_nv_gpu_run() executes it (round robin over channels) until every channel
 * is idle, blocked on a semaphore/syncpoint, or stopped by a fault. */
#ifndef CMDGPU_NV_H
#define CMDGPU_NV_H

#include <stdio.h>
#include "capture.h"
#include "common.h"
#include "fault.h"
#include "mem.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- classes and method tables ------------------------------------------ */

enum {
    CG_NV_CLASS_HOST = 0xB06F,    /* MAXWELL_CHANNEL_GPFIFO_A (+A26F syncpoints) */
    CG_NV_CLASS_TWOD = 0x902D,    /* FERMI_TWOD_A */
    CG_NV_CLASS_3D = 0xB197,      /* MAXWELL_B */
    CG_NV_CLASS_COMPUTE = 0xB1C0, /* MAXWELL_COMPUTE_B */
    CG_NV_CLASS_I2M = 0xA140,     /* KEPLER_INLINE_TO_MEMORY_B */
    CG_NV_CLASS_COPY = 0xB0B5,    /* MAXWELL_DMA_COPY_A */
};

typedef enum cg_nv_ftype {
    CG_NV_F_UINT, CG_NV_F_SINT, CG_NV_F_BOOL, CG_NV_F_HEX, CG_NV_F_FLOAT, CG_NV_F_ENUM
} cg_nv_ftype;

typedef struct cg_nv_enum {
    const char *name;
    uint32_t value;
} cg_nv_enum;

typedef struct cg_nv_field {
    const char *name;
    uint8_t hi, lo;          /* bits hi:lo */
    uint8_t type;            /* cg_nv_ftype */
    const cg_nv_enum *enums; /* NULL-name terminated; NULL unless ENUM */
} cg_nv_field;

enum {
    CG_NV_M_ALIAS = 1u << 0,  /* another name for a method (same offset) */
    CG_NV_M_ACTION = 1u << 16, /* the model acts on a write (beyond storing it) */
    CG_NV_M_ACTION_SHIFT = 24, /* flags 31:24: the model's handler number */
};

typedef struct cg_nv_method {
    const char *name;
    uint32_t offset;         /* byte offset of element 0 */
    uint32_t count;          /* array elements, >= 1 */
    uint32_t stride;         /* bytes between elements; 0 = 4 */
    uint32_t flags;          /* CG_NV_M_* */
    const cg_nv_field *fields;
    size_t nfields;
} cg_nv_method;

typedef struct cg_nv_class {
    uint32_t id;             /* 0xB06F, ... */
    const char *name;        /* "MAXWELL_DMA_COPY_A" */
    const char *prefix;      /* "NVB0B5" */
    const cg_nv_method *methods;
    size_t nmethods;
} cg_nv_class;

/* The classes the model knows (host first). NULL past the end / unknown id. */
CG_API const cg_nv_class *cg_nv_class_at(size_t i);
CG_API const cg_nv_class *cg_nv_class_find(uint32_t id);
/* The (non-alias) method covering byte offset `offset`; *elem = array index.
 * NULL if the class has none. */
CG_API const cg_nv_method *cg_nv_method_at(const cg_nv_class *c, uint32_t offset,
                                           uint32_t *elem);
/* By name, aliases included ("CB_POS"); NULL if unknown. */
CG_API const cg_nv_method *cg_nv_method_named(const cg_nv_class *c, const char *name);
/* The name the class table gives `value` of an enum field, e.g.
 * cg_nv_enum_name(CG_NV_CLASS_3D, "BEGIN", "OP", 5) = "TRIANGLE_STRIP";
 * NULL if the class, method, field or value has none. */
CG_API const char *cg_nv_enum_name(uint32_t class_id, const char *method, const char *field,
                                   uint32_t value);

/* ---- pushbuffer words (research/nv.md section 2; clb06f.h NVB06F_DMA_*) --- */

typedef enum cg_nv_secop {
    CG_NV_SEC_GRP0_USE_TERT = 0,
    CG_NV_SEC_INC_METHOD = 1,
    CG_NV_SEC_GRP2_USE_TERT = 2,
    CG_NV_SEC_NON_INC_METHOD = 3,
    CG_NV_SEC_IMMD_DATA_METHOD = 4,
    CG_NV_SEC_ONE_INC = 5,
    CG_NV_SEC_RESERVED6 = 6,
    CG_NV_SEC_END_PB_SEGMENT = 7,
} cg_nv_secop;

typedef enum cg_nv_tertop {
    CG_NV_TERT_OLD_METHOD = 0,           /* old format: INC (grp0) / NONINC (grp2) */
    CG_NV_TERT_SET_SUB_DEVICE_MASK = 1,
    CG_NV_TERT_STORE_SUB_DEVICE_MASK = 2,
    CG_NV_TERT_USE_SUB_DEVICE_MASK = 3,
} cg_nv_tertop;

/* A decoded header word. */
typedef enum cg_nv_hkind {
    CG_NV_H_INC,        /* count data words to method, method+1, ... */
    CG_NV_H_NONINC,     /* count data words to one method */
    CG_NV_H_ONE_INC,    /* first word to method, the rest to method+1 */
    CG_NV_H_IMMD,       /* value in the header */
    CG_NV_H_SET_SUBDEV_MASK, CG_NV_H_STORE_SUBDEV_MASK, CG_NV_H_USE_SUBDEV_MASK,
    CG_NV_H_END_SEGMENT,
    CG_NV_H_RESERVED,   /* sec op 6: faults */
} cg_nv_hkind;

typedef struct cg_nv_header {
    cg_nv_hkind kind;
    uint8_t secop, tertop, subch;
    bool old_format;    /* tertiary op 0 of groups 0/2 */
    uint32_t method;    /* byte offset */
    uint32_t count;     /* data words that follow (0 for IMMD/mask/END) */
    uint32_t immd;      /* IMMD data, or the sub-device mask (15:4) */
} cg_nv_header;

/* Decode one header word (never fails; RESERVED for sec op 6). Method words
 * carry a 13-bit dword index in 12:0 as yuzu and deko3d read it; clb06f.h
 * names 11:0, so bit 12 set gives offsets >= 0x4000, which no class has. */
CG_API void cg_nv_header_decode(uint32_t word, cg_nv_header *h);

/* Header words. `mthd` is a byte offset (< 0x8000, 4-aligned), count < 8192,
 * immd < 8192. */
static inline uint32_t cg_nv_hdr(unsigned secop, unsigned subch, uint32_t mthd, uint32_t count)
{
    return (uint32_t)(secop & 7) << 29 | (count & 0x1FFFu) << 16 | (subch & 7u) << 13 |
           ((mthd >> 2) & 0x1FFFu);
}
#define CG_NV_END_PB_SEGMENT 0xE0000000u

/* ---- pushbuffer builder ------------------------------------------------- */

typedef struct cg_nv_pb {
    uint32_t *words;  /* caller's buffer */
    size_t len, cap;  /* in words */
    int err;          /* first error (CG_ERR_NOSPACE when full, CG_ERR_INVAL/NOENT) */
} cg_nv_pb;

CG_API void cg_nv_pb_init(cg_nv_pb *pb, uint32_t *words, size_t cap);
/* Each returns pb->err after the call (sticky: once set, nothing more is
 * written). Runs longer than 8191 words are split into several headers. */
CG_API int cg_nv_pb_inc(cg_nv_pb *pb, unsigned subch, uint32_t mthd, const uint32_t *data, size_t n);
CG_API int cg_nv_pb_noninc(cg_nv_pb *pb, unsigned subch, uint32_t mthd, const uint32_t *data,
                           size_t n);
CG_API int cg_nv_pb_one_inc(cg_nv_pb *pb, unsigned subch, uint32_t mthd, const uint32_t *data,
                            size_t n);
CG_API int cg_nv_pb_immd(cg_nv_pb *pb, unsigned subch, uint32_t mthd, uint32_t value);
/* One method write: IMMD when value < 0x2000, else INC with one word. */
CG_API int cg_nv_pb_mthd(cg_nv_pb *pb, unsigned subch, uint32_t mthd, uint32_t value);
/* A method by name in a class table ("SEMAPHORED", "LOAD_CONSTANT_BUFFER(3)"
 * or an alias like "CB_POS"), one value, IMMD when it fits. */
CG_API int cg_nv_pb_named(cg_nv_pb *pb, unsigned subch, uint32_t class_id, const char *name,
                          uint32_t value);
CG_API int cg_nv_pb_end(cg_nv_pb *pb); /* END_PB_SEGMENT */

/* Parse "NAME" or "NAME(i)" (or "NAME[i]") in class c: byte offset. */
CG_API int cg_nv_method_parse(const cg_nv_class *c, const char *text, uint32_t *offset);
/* Name of the method at offset: "NAME" or "NAME(i)"; "" + false if unknown. */
CG_API bool cg_nv_method_name(const cg_nv_class *c, uint32_t offset, char *buf, size_t cap);

/* ---- GPFIFO entries (clb06f.h NVB06F_GP_ENTRY*; research/nv.md section 1) - */

enum {
    CG_NV_GP_FETCH_CONDITIONAL = 1u << 0, /* E0 bit 0 */
    CG_NV_GP_PRIV = 1u << 1,              /* E1 bit 8 */
    CG_NV_GP_SUBROUTINE = 1u << 2,        /* E1 bit 9, LEVEL */
    CG_NV_GP_SYNC_WAIT = 1u << 3,         /* E1 bit 31 */
};
enum { CG_NV_GP_OP_NOP = 0, CG_NV_GP_OP_ILLEGAL = 1, CG_NV_GP_OP_GP_CRC = 2,
       CG_NV_GP_OP_PB_CRC = 3 };

/* An entry for `nwords` (< 2^21) words at 40-bit va (4-aligned). */
static inline uint64_t cg_nv_gp_entry(uint64_t va, uint32_t nwords, uint32_t flags)
{
    uint32_t e0 = (uint32_t)(va & 0xFFFFFFFCu) | (flags & CG_NV_GP_FETCH_CONDITIONAL);
    uint32_t e1 = (uint32_t)((va >> 32) & 0xFFu) | ((flags & CG_NV_GP_PRIV) ? 1u << 8 : 0) |
                  ((flags & CG_NV_GP_SUBROUTINE) ? 1u << 9 : 0) | (nwords & 0x1FFFFFu) << 10 |
                  ((flags & CG_NV_GP_SYNC_WAIT) ? 1u << 31 : 0);
    return (uint64_t)e1 << 32 | e0;
}
/* A control entry (LENGTH 0): opcode in E1 7:0, operand in E0. */
static inline uint64_t cg_nv_gp_control(uint32_t opcode, uint32_t operand)
{
    return (uint64_t)(opcode & 0xFFu) << 32 | operand;
}

/* The fields of an entry, read back the way the two functions above pack
 * them: the one decoder for the GPU's fetcher, the checker and the tools.
 * nwords 0 makes it a control entry: opcode and operand are then its
 * meaning (CG_NV_GP_OP_*), and va, flags the same bits read as a fetch. */
typedef struct cg_nv_gp_fields {
    uint64_t va;      /* E0 31:2 (GET) and E1 7:0 (GET_HI) */
    uint32_t nwords;  /* E1 30:10 (LENGTH) */
    uint32_t flags;   /* CG_NV_GP_* */
    uint32_t opcode;  /* E1 7:0 */
    uint32_t operand; /* E0 */
} cg_nv_gp_fields;
static inline cg_nv_gp_fields cg_nv_gp_decode(uint64_t entry)
{
    uint32_t e0 = (uint32_t)entry, e1 = (uint32_t)(entry >> 32);
    cg_nv_gp_fields f;
    f.va = (uint64_t)(e1 & 0xFFu) << 32 | (e0 & 0xFFFFFFFCu);
    f.nwords = (e1 >> 10) & 0x1FFFFFu;
    f.flags = (e0 & CG_NV_GP_FETCH_CONDITIONAL) | ((e1 >> 8 & 1u) ? CG_NV_GP_PRIV : 0) |
              ((e1 >> 9 & 1u) ? CG_NV_GP_SUBROUTINE : 0) | ((e1 >> 31) ? CG_NV_GP_SYNC_WAIT : 0);
    f.opcode = e1 & 0xFFu;
    f.operand = e0;
    return f;
}

/* ---- the GPU and its driver API ---------------------------------------- */

typedef struct cg_nv_gpu cg_nv_gpu;
typedef struct cg_nv_as cg_nv_as;
typedef struct cg_nv_channel cg_nv_channel;

typedef struct cg_nv_fence {
    uint32_t id;    /* host1x syncpoint */
    uint32_t value;
} cg_nv_fence;

#define CG_NV_NUM_SYNCPTS 192 /* yuzu host1x/syncpoint_manager.h */

CG_API int cg_nv_gpu_create(cg_device *dev, cg_nv_gpu **out);
CG_API void cg_nv_gpu_destroy(cg_nv_gpu *gpu); /* closes channels, frees everything */
CG_API cg_device *cg_nv_gpu_device(const cg_nv_gpu *gpu);
/* Text of the last failed driver call ("" if none): what the real ioctl
 * would log, e.g. "MAP_BUFFER_EX: FIXED offset 0x... not inside an
 * ALLOC_SPACE region". */
CG_API const char *cg_nv_gpu_last_error(const cg_nv_gpu *gpu);

/* Run queued work until every channel is idle, blocked or faulted. Returns
 * the number of methods executed (>= 0) or a cg_err. A wait that stays
 * unsatisfied through `watchdog` consecutive runs that made no progress ends
 * as a HANG fault (default 2). cg_nv_gpu_finish() runs until nothing more can
 * happen, so every unsatisfiable wait becomes a HANG fault. */
CG_API int64_t cg_nv_gpu_run(cg_nv_gpu *gpu);
CG_API int64_t cg_nv_gpu_finish(cg_nv_gpu *gpu);
CG_API void cg_nv_gpu_set_watchdog(cg_nv_gpu *gpu, unsigned runs);
/* The most one engine operation may move (I2M transfer, copy launch: bytes;
 * 2D blit or primitive: pixels x 16): more faults as BAD_STATE naming the
 * limit. Default 256 MiB; 0 restores it. Keeps hostile streams cheap. */
CG_API void cg_nv_gpu_set_op_limit(cg_nv_gpu *gpu, uint64_t bytes);
/* Software methods. On Kepler and later, subchannels 5-7 are the kernel's:
 * a method sent to one of them (its SET_OBJECT included; host methods
 * 0x04-0xFC excepted) is not run by an engine but raises the PBDMA's
 * DEVICE interrupt, and the kernel handles it (Linux nouveau gk104_fifo
 * pbdma interrupt bit 0x00800000 -> nvkm_sw_mthd; Mesa's nvc0 binds its
 * software object 0x906e on subchannel 7). With a handler set, every such
 * method goes to fn (channel: cg_nv_channel_id); true lets the channel go
 * on, false faults it (INVALID_METHOD: the interrupt nobody clears stalls
 * the PBDMA). Without one (the default: a bare-metal scene has no kernel),
 * subchannels 5-7 take hardware classes like 0-4. */
typedef bool (*cg_nv_sw_method_fn)(void *user, int channel, unsigned subch, uint32_t method,
                                   uint32_t data);
CG_API void cg_nv_gpu_set_sw_method(cg_nv_gpu *gpu, cg_nv_sw_method_fn fn, void *user);
/* The GPU clock used for 16-byte semaphore timestamps: one tick per method
 * executed, so output is deterministic. */
CG_API uint64_t cg_nv_gpu_time(const cg_nv_gpu *gpu);

/* nvmap (seed 000; research/nv.md section 8). */
enum {
    CG_NV_NVMAP_HEAP_CARVEOUT_GENERIC = 1u << 0,
    CG_NV_NVMAP_HEAP_IOVMM = 1u << 30,
    /* alloc flags, 1:0: cache attribute (L4T nvmap.h NVMAP_HANDLE_*) */
    CG_NV_NVMAP_UNCACHEABLE = 0,
    CG_NV_NVMAP_WRITE_COMBINE = 1,
    CG_NV_NVMAP_INNER_CACHEABLE = 2,
    CG_NV_NVMAP_CACHEABLE = 3,
};
CG_API int cg_nv_nvmap_create(cg_nv_gpu *gpu, uint32_t size, uint32_t *handle);
/* Back the handle with memory. align: 0 or a power of two (< 4096 means
 * 4096). kind: the PTE kind maps default to. Cacheable flags make CPU access
 * through the handle's memory go through the CPU-cache model (the seeds'
 * svcSetMemoryAttribute step turns it off). Errors: CG_ERR_NOENT (handle),
 * CG_ERR_BUSY (already allocated), CG_ERR_INVAL. */
CG_API int cg_nv_nvmap_alloc(cg_nv_gpu *gpu, uint32_t handle, uint32_t heap_mask,
                             uint32_t flags, uint32_t align, uint8_t kind);
CG_API int cg_nv_nvmap_free(cg_nv_gpu *gpu, uint32_t handle);
/* The memory object behind an allocated handle (no new reference). */
CG_API cg_mem *cg_nv_nvmap_mem(cg_nv_gpu *gpu, uint32_t handle);

/* nvhost-as-gpu address spaces. big_page_size 0 means 128 KiB (65536 and
 * 131072 allowed). VA layout as yuzu: 40-bit, allocations from big_page<<10. */
enum {
    CG_NV_AS_FIXED = 1u << 0,  /* ALLOC_SPACE and MAP_BUFFER_EX flag */
    CG_NV_AS_SPARSE = 1u << 1, /* ALLOC_SPACE */
    CG_NV_AS_CACHEABLE = 1u << 2, /* MAP_BUFFER_EX (Linux nvgpu): CPU-cached view */
    CG_NV_AS_REMAP = 1u << 8,  /* not supported yet */
};
CG_API int cg_nv_as_create(cg_nv_gpu *gpu, uint32_t big_page_size, cg_nv_as **out);
CG_API void cg_nv_as_destroy(cg_nv_as *as);
CG_API cg_vas *cg_nv_as_vas(const cg_nv_as *as);
/* ALLOC_SPACE: `pages` of `page_size` (4096 or the big page size). FIXED:
 * *offset is the address; otherwise *offset is the alignment in (0: page
 * size) and the address out. */
CG_API int cg_nv_as_alloc_space(cg_nv_as *as, uint32_t pages, uint32_t page_size,
                                uint32_t flags, uint64_t *offset);
CG_API int cg_nv_as_free_space(cg_nv_as *as, uint64_t offset, uint32_t pages,
                               uint32_t page_size);
/* MAP_BUFFER_EX. kind -1: the handle's kind. mapping_size 0: whole handle
 * from buffer_offset. FIXED needs a prior ALLOC_SPACE covering the range. */
CG_API int cg_nv_as_map_buffer_ex(cg_nv_as *as, uint32_t flags, int32_t kind, uint32_t handle,
                                  uint32_t page_size, uint64_t buffer_offset,
                                  uint64_t mapping_size, uint64_t *offset);
CG_API int cg_nv_as_unmap(cg_nv_as *as, uint64_t offset);

/* Channels (nvhost-gpu). num_entries: GPFIFO ring size, power of two, 0 means
 * 1024. Each channel gets its own syncpoint. */
CG_API int cg_nv_channel_open(cg_nv_gpu *gpu, cg_nv_as *as, uint32_t num_entries,
                              cg_nv_channel **out);
CG_API void cg_nv_channel_close(cg_nv_channel *ch);
CG_API int cg_nv_channel_id(const cg_nv_channel *ch);
CG_API uint32_t cg_nv_channel_syncpt(const cg_nv_channel *ch);

/* SUBMIT_GPFIFO flags (bits as in yuzu nvhost_gpu.h / Linux nvgpu.h). */
enum {
    CG_NV_SUBMIT_FENCE_WAIT = 1u << 0,      /* wait for *fence before the entries */
    CG_NV_SUBMIT_FENCE_INCREMENT = 1u << 1, /* return a fence for their completion */
    CG_NV_SUBMIT_SUPPRESS_WFI = 1u << 4,
};
/* Queue `count` entries. With FENCE_WAIT the kernel puts a syncpoint wait on
 * fence->id/value before them; with FENCE_INCREMENT it puts WFI (unless
 * suppressed) and two syncpoint increments after them, as yuzu and Ryujinx
 * do, and returns the fence in *fence. CG_ERR_BUSY if the ring is full,
 * CG_ERR_PERM once the channel faulted. */
CG_API int cg_nv_channel_submit_gpfifo(cg_nv_channel *ch, const uint64_t *entries,
                                       uint32_t count, uint32_t flags, cg_nv_fence *fence);

typedef enum cg_nv_chstate {
    CG_NV_CH_IDLE, CG_NV_CH_RUNNING, CG_NV_CH_BLOCKED, CG_NV_CH_FAULTED
} cg_nv_chstate;

typedef struct cg_nv_channel_info {
    cg_nv_chstate state;
    uint32_t gp_get, gp_put, num_entries;
    uint64_t pb_addr;     /* address of the next pushbuffer word */
    uint32_t reference;   /* SET_REFERENCE */
    uint32_t bound[8];    /* class per subchannel, 0 = none */
    uint64_t methods;     /* executed on this channel */
} cg_nv_channel_info;
CG_API int cg_nv_channel_info_get(const cg_nv_channel *ch, cg_nv_channel_info *out);

/* Syncpoints. */
CG_API uint32_t cg_nv_syncpt_read(const cg_nv_gpu *gpu, uint32_t id);
CG_API int cg_nv_syncpt_incr(cg_nv_gpu *gpu, uint32_t id); /* CPU increment */
CG_API bool cg_nv_fence_reached(const cg_nv_gpu *gpu, cg_nv_fence f);
/* Wait for a fence: run the GPU until the syncpoint reaches the value.
 * timeout_ms 0 polls without running. CG_ERR_TIMEOUT if the GPU can make no
 * more progress and the fence is not reached (the model has no wall clock:
 * a nonzero timeout means "as long as work is progressing"). */
CG_API int cg_nv_fence_wait(cg_nv_gpu *gpu, cg_nv_fence f, uint32_t timeout_ms);

/* ---- disassembler, assembler, scenes ----------------------------------- */

typedef struct cg_nv_disasm_opts {
    uint32_t subch_class[8]; /* 0: the NVN default (0=B197 1=B1C0 2=A140 3=902D 4=B0B5) */
    uint64_t base;           /* address of word 0 in the listing */
    bool json;
    const char *c_reset, *c_name, *c_num, *c_addr, *c_err, *c_comment; /* NULL: "" */
} cg_nv_disasm_opts;
/* Write a listing that cg_nv_asm turns back into the same words. Returns the
 * number of unknown methods or bits marked (>= 0) or a cg_err. */
CG_API int cg_nv_disasm(const uint32_t *words, size_t n, const cg_nv_disasm_opts *o, FILE *out);

/* Parse a `--subch 0=B197,2=A140` list into subch_class[8]. */
CG_API int cg_nv_parse_subch(const char *text, uint32_t subch_class[8]);

struct cg_asm_family;
/* The nv assembler plug-in for the shared assembler (cmdgpu/asm.h); its
 * `user` pointer is a cg_nv_asm. Statements (docs/nv.md):
 *   inc|noninc|oneinc|mthd SUBCH, METHOD, DATA...   header + data
 *   hdr inc|noninc|oneinc|old_inc|old_noninc SUBCH, METHOD, COUNT   header only
 *   immd SUBCH, METHOD, VALUE
 *   set_subdevice_mask M | store_subdevice_mask M | use_subdevice_mask
 *   end_pb_segment
 *   .subch N, CLASS      class used for method names on subchannel N
 * METHOD is a name of the class bound to SUBCH (host names below 0x100),
 * NAME(i) for arrays, or a byte offset. SET_OBJECT rebinds. Scene
 * directives (.buffer, .submit, .run, .dump, ...) are recorded into a
 * scene (cmdgpu/scene.h) and emit nothing. subch_class NULL = NVN default. */
typedef struct cg_nv_asm cg_nv_asm;
CG_API int cg_nv_asm_new(const uint32_t subch_class[8], cg_nv_asm **out);
CG_API void cg_nv_asm_free(cg_nv_asm *a);
CG_API const struct cg_asm_family *cg_nv_asm_family(void);

/* Scenes (text with .buffer, .submit, ... directives; docs/nv.md) run
 * through cg_scene_assemble and cg_scene_run (cmdgpu/scene.h) with the nv
 * family's descriptor (cmdgpu/family.h). */

/* ---- hang report (src/nv/hangreport.c) ---------------------------------- */

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
