/* nv: internal structures shared by the nv sources (not installed). */
#ifndef CMDGPU_NV_INTERNAL_H
#define CMDGPU_NV_INTERNAL_H

#include <string.h>
#include "cmdgpu/nv.h"
#include "cmdgpu/nv3d.h"
#include "cmdgpu/trace.h"
#include "core/internal.h"
#include "nv/tables/actions.h"
#include "nv/gpu/macro.h"
#include "nv/tables/methods.h"

/* Engine objects a channel can bind; index into nv_channel.objs. */
enum { NV_OBJ_3D, NV_OBJ_COMPUTE, NV_OBJ_I2M, NV_OBJ_TWOD, NV_OBJ_COPY, NV_NOBJ };
#define NV_NREGS 0x1000 /* dword methods 0..0xFFF (byte offsets < 0x4000) */

/* The objs[] slot of an engine class, -1 if not an engine class. Inline:
 * the decoder, the host class and the checker all look classes up, and a
 * function in one of their files would tie them into a call circle. */
static inline int nv_obj_index(uint32_t class_id)
{
    switch (class_id) {
    case CG_NV_CLASS_3D: return NV_OBJ_3D;
    case CG_NV_CLASS_COMPUTE: return NV_OBJ_COMPUTE;
    case CG_NV_CLASS_I2M: return NV_OBJ_I2M;
    case CG_NV_CLASS_TWOD: return NV_OBJ_TWOD;
    case CG_NV_CLASS_COPY: return NV_OBJ_COPY;
    default: return -1;
    }
}

/* Inline-to-memory unit (A140 and the I2M methods of B197/B1C0). */
typedef struct nv_i2m {
    bool active;
    bool pitch;           /* destination layout */
    uint32_t launch;      /* LAUNCH_DMA value */
    uint64_t dst;
    uint32_t line_len, line_count, pitch_out;
    uint64_t total, pos;  /* bytes expected / received */
    uint8_t *buf;         /* staging for block-linear destinations */
    size_t buf_cap;
} nv_i2m;

/* 2D engine solid-primitive vertices collected so far. */
typedef struct nv_twod {
    int64_t vx[3], vy[3];
    unsigned nv;
} nv_twod;

typedef struct nv_obj {
    uint32_t class_id;    /* 0 until first bound */
    uint32_t *regs;       /* NV_NREGS register file */
    nv_i2m i2m;
    nv_twod twod;
} nv_obj;

typedef struct nv_ring_entry {
    uint64_t e;
    uint8_t nk;           /* > 0: a kernel-inserted segment of nk words in kw */
    uint32_t kw[8];
} nv_ring_entry;

typedef enum nv_wait_kind { NV_WAIT_NONE, NV_WAIT_SEM, NV_WAIT_SYNCPT } nv_wait_kind;

enum { NV_MODE_INC, NV_MODE_NONINC, NV_MODE_ONE_INC };

#define NV_CHUNK 2048 /* pushbuffer words fetched per read */

struct cg_nv_channel {
    cg_nv_gpu *gpu;
    cg_nv_as *as;
    cg_vas *vas;
    int id;
    uint32_t syncpt;
    cg_nv_chstate state;
    struct cg_nv_channel *next;

    nv_ring_entry *ring;
    uint32_t num_entries, gp_get, gp_put;

    /* current segment */
    bool in_seg, seg_kernel;
    uint64_t seg_va;
    uint32_t seg_len, seg_pos;
    const uint32_t *seg_kw;
    uint32_t chunk[NV_CHUNK];
    uint32_t chunk_pos, chunk_len; /* words of chunk[] not yet used */

    /* decoder state: a method run may continue into the next entry */
    uint32_t dec_method, dec_remaining;
    uint8_t dec_subch, dec_mode;
    uint64_t hdr_addr;
    uint32_t hdr_word;
    uint32_t subdev_mask, stored_mask;

    /* host class state */
    uint32_t sem_hi, sem_lo, sem_payload, syncpt_payload, reference;
    nv_wait_kind wait;
    uint64_t wait_addr;
    uint32_t wait_value, wait_op, wait_id;
    uint64_t wait_hdr_addr;
    uint32_t wait_words[2];
    const char *wait_unit;  /* unit that set the wait: "host", "3d", "compute" */
    unsigned wait_runs;
    bool yield;

    uint32_t bound[8];
    int8_t bound_oi[8];   /* nv_obj index of bound[], -1 if none */
    bool tracing;         /* a trace sink was attached when this run began */
    bool slow;            /* tracing or call.pending: every method via exec_method */
    nv_obj objs[NV_NOBJ];
    uint64_t methods;

    /* The macro engine (docs/nv-macro.md "Executor hookup"): upload state
     * and shadow RAM (allocated at the first MME method), and the call
     * being collected: CALL_MME_MACRO(n) starts it, CALL_MME_DATA(n) adds
     * parameters, the next other method (or the channel going idle) runs it. */
    nv_mme_state *mme;
    struct {
        bool pending;
        uint8_t subch;
        uint32_t macro;
        uint32_t *params;
        uint32_t n, cap;
        uint64_t addr;     /* stream address of the CALL_MME_MACRO word */
        uint32_t hdr_word; /* its header */
    } call;

    struct nv3d_state *s3d; /* 3D engine state (threed.h), NULL until used */
};

typedef struct nv_handle {
    uint32_t id;
    uint32_t size;
    cg_mem *mem;          /* NULL until allocated */
    uint32_t align, flags, heap;
    uint8_t kind;
    struct nv_handle *next;
} nv_handle;

struct cg_nv_as {
    cg_nv_gpu *gpu;
    cg_vas *vas;
    uint32_t big_page;
    struct cg_nv_as *next;
};

struct cg_nv_gpu {
    cg_device *dev;
    cg_nv_channel *channels;
    int next_channel_id;
    cg_nv_as *spaces;
    nv_handle *handles;
    uint32_t next_handle;
    uint32_t syncpt[CG_NV_NUM_SYNCPTS];
    uint32_t syncpt_max[CG_NV_NUM_SYNCPTS]; /* values promised by fences */
    bool syncpt_used[CG_NV_NUM_SYNCPTS];
    uint64_t time;        /* methods executed, the timestamp clock */
    unsigned watchdog;
    uint64_t op_limit;    /* budget nv.op-bytes (cg_nv_gpu_set_op_limit) */
    uint32_t valid[NV_NOBJ][NV_NREGS / 32];  /* methods in each class table */
    uint32_t plain[NV_NOBJ][NV_NREGS / 32];  /* methods that are only stored */
    uint8_t act[NV_NOBJ][NV_NREGS];          /* nv_mact of each method (class tables) */
    uint16_t plain_run[NV_NOBJ][NV_NREGS];   /* plain methods from idx on, in a row */
    uint32_t host_valid[2];                  /* host methods 0..0xFC */
    char last_error[256];
    uint64_t mme_budget;  /* budget nv.macro-insns: instructions per macro call */
    void (*draw_fn)(void *user, const struct cg_nv_draw *d); /* cg_nv_gpu_set_draw_callback */
    void *draw_user;
    cg_nv_sw_method_fn sw_fn; /* cg_nv_gpu_set_sw_method: the kernel's subchannels 5-7 */
    void *sw_user;
    struct nv_pl_keep *pl_keep; /* the 3D pipeline's buffers kept across draws (pipeline.c) */
};

/* gpu/pipeline.c: free what the 3D pipeline keeps across draws. */
void nv_pipeline_release(cg_nv_gpu *gpu);

/* Agent for memory accesses of a unit on a channel at a stream address. */
/* Raise a fault for `ag` on channel ch and stop the channel (the engines'
 * and the puller's one way to fault). Returns what cg_fault_raise returns. */
int nv_fault(cg_nv_channel *ch, const cg_agent *ag, cg_fault_kind kind, uint64_t gpu_addr,
             const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;

static inline cg_agent nv_agent(const cg_nv_channel *ch, const char *unit, uint64_t stream_addr,
                                uint32_t w0, uint32_t w1)
{
    cg_agent a = {CG_FAMILY_NV, unit, ch->id, stream_addr, {w0, w1, 0, 0}, 2};
    return a;
}

/* Engine memory access: in place when the range is plain memory in one page
 * (cg__vas_span in core/mem_internal.h), else through cg_vas_read/write,
 * which fault, read sparse zeros, or run the coherency model. */
size_t cg__vas_span(cg_vas *vas, uint64_t va, size_t n, bool write, uint8_t **ptr);
static inline int nv_mem_rw(cg_vas *vas, uint64_t va, void *buf, size_t n, bool write,
                            const cg_agent *ag)
{
    uint8_t *p;
    if (n && cg__vas_span(vas, va, n, write, &p) == n) {
        if (write)
            memmove(p, buf, n);
        else
            memmove(buf, p, n);
        return 0;
    }
    return write ? cg_vas_write(vas, va, buf, n, ag) : cg_vas_read(vas, va, buf, n, ag);
}

/* reduce.c: semaphore/report reductions (shared by host, I2M, copy and 3D
 * reports). op in the host class numbering: MIN MAX XOR AND OR ADD INC DEC
 * = 0..7. */
uint32_t nv_reduce(uint32_t old, uint32_t v, unsigned op, bool is_signed);
/* REDUCTION_OP of the I2M LAUNCH_DMA and SET_REPORT_SEMAPHORE_D (RED_ADD 0,
 * RED_MIN 1, ...) in nv_reduce's numbering. */
extern const uint8_t nv_red_op_to_host[8];

/* Execute one method on a bound engine object; 0 or CG_ERR_FAULT (raised). */
int nv_i2m_method(cg_nv_channel *ch, nv_obj *o, uint32_t mthd, uint32_t v, const cg_agent *ag);
int nv_i2m_data(cg_nv_channel *ch, nv_obj *o, const uint32_t *w, size_t n, const cg_agent *ag);
int nv_copy_launch(cg_nv_channel *ch, nv_obj *o, const cg_agent *ag);
/* B0B5 bytes per element on each side (1, or with REMAP_ENABLE in the
 * LAUNCH_DMA word the remap's component count x size). */
void nv_copy_elem_bytes(const uint32_t *regs, uint32_t launch, uint32_t *sbpp, uint32_t *dbpp);
/* A 902D action (`act` from twod_902d.def); 0 for the others. */
int nv_twod_method(cg_nv_channel *ch, nv_obj *o, nv_mact act, uint32_t mthd, uint32_t v,
                   const cg_agent *ag);

/* Block-linear addressing (research/nv.md section 7). */
typedef struct nv_bl {
    uint32_t width;       /* bytes */
    uint32_t height, depth;
    unsigned bh, bd;      /* log2 GOBs per block in y and z */
} nv_bl;
uint64_t nv_bl_offset(const nv_bl *s, uint32_t x, uint32_t y, uint32_t z);
uint64_t nv_bl_size(const nv_bl *s); /* bytes of one layer */

void nv_gpu_error(cg_nv_gpu *gpu, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

void nv_trace_method(cg_nv_channel *ch, unsigned subch, uint32_t cls, uint32_t mthd, uint32_t v,
                     uint64_t addr);
/* A trace event of a unit on the channel at the current header address. */
void nv_trace_event(cg_nv_channel *ch, cg_trace_kind kind, const char *unit, uint32_t reg,
                    uint64_t value, uint64_t gpu_addr, uint64_t size, const char *text);

#endif
