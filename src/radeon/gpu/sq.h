/* radeon family: the R600/R700 shader core ("SQ": sequencer, ALUs, fetch),
 * executing one shader program over one wavefront (docs/radeon-sq.md).
 *
 * The interface is what the pipeline (VGT, SPI, PA/SC, DB/CB: not modelled
 * yet) will drive: the SPI loads each lane's GPRs (rd_sq_wave.gpr), the
 * executor runs the CF program and its clauses, and the exports land in an
 * output buffer (rd_sq_out). Constants, loop and boolean constants and the
 * fetch units come in through rd_sq_env. Bad programs end in one fault
 * record (unit "sq") and rd_sq_run returns CG_ERR_FAULT; nothing reads
 * outside the program, the constant buffers or the fetch resources.
 *
 * Files: sq.c (CF program, stack, exports), sq_alu.c (ALU groups),
 * sq_fetch.c (VTX/TEX clauses and the vertex formats), sq_util.c (the leaf
 * they share: faults, budget, output buffer). Dispatch is by the
 * table's KIND column (radeon/isa.h R6K_*). */
#ifndef CMDGPU_RADEON_SQ_H
#define CMDGPU_RADEON_SQ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "cmdgpu/device.h"
#include "cmdgpu/fault.h"
#include "radeon/isa.h"

/* A wavefront: 64 lanes, as the R600's and R700's SQ run pixels and
 * vertices in groups of 64 ([R6ISA] "wavefront"; smaller parts run 16 or
 * 32 per group over several cycles: one lane here is one pixel or vertex). */
#define RD_SQ_LANES 64
#define RD_SQ_NGPR 128 /* 0..123 GPRs, 124..127 the clause temporaries T0..T3 */
#define RD_SQ_STACK 32 /* default stack entries (rd_sq_env.stack_entries) */

typedef uint64_t rd_sq_mask; /* one bit per lane */

/* The per-lane register file, laid out [register][channel][lane] so one
 * channel of one register is 64 consecutive words. Inputs before rd_sq_run
 * (what the SPI loads: R0 = vertex index for a VS, interpolants for a PS),
 * final values after. */
typedef struct rd_sq_wave {
    rd_sq_mask live; /* lanes present (bit i: lane i) */
    uint32_t gpr[RD_SQ_NGPR][4][RD_SQ_LANES];
} rd_sq_wave;

/* Export targets (CF_ALLOC_EXPORT TYPE for EXPORT / EXPORT_DONE). */
enum { RD_SQ_EXP_PIXEL = 0, RD_SQ_EXP_POS = 1, RD_SQ_EXP_PARAM = 2 };

/* One EXPORT (a burst exports one record per array base). */
typedef struct rd_sq_export {
    uint8_t type;        /* RD_SQ_EXP_* */
    bool done;           /* EXPORT_DONE */
    uint16_t base;       /* ARRAY_BASE (+ burst index) */
    rd_sq_mask lanes;    /* lanes that exported */
    uint8_t comp;        /* components written (bit per x y z w; SEL 7 masks one) */
    uint32_t v[RD_SQ_LANES][4];
} rd_sq_export;

/* The output buffer: exports in program order. */
typedef struct rd_sq_out {
    rd_sq_export *e;
    size_t n, cap;
    rd_sq_mask killed; /* lanes a KILL* op or CF KILL killed */
} rd_sq_out;
void rd_sq_out_free(rd_sq_out *o);
/* The last export of (type, base), or NULL. */
const rd_sq_export *rd_sq_out_find(const rd_sq_out *o, unsigned type, unsigned base);

/* A vertex buffer resource as the fetch unit sees it (SQ_VTX_CONSTANT_*:
 * base address, size, stride): the host bytes behind it. */
typedef struct rd_sq_vbuf {
    const uint8_t *data;
    uint64_t size;     /* bytes */
    uint32_t stride;   /* bytes per index */
    uint64_t gpu_addr; /* for fault records */
} rd_sq_vbuf;

/* A texture request (TEX clause SAMPLE*): coordinates per lane. */
typedef struct rd_sq_tex_req {
    unsigned op;                 /* r6_opid */
    unsigned resource, sampler;
    const float *coord;          /* 4 floats */
    int32_t offset[3];
} rd_sq_tex_req;

/* The fetch units the executor calls. vtx_resource: 0 and *out filled, or
 * nonzero for "no such resource" (the executor faults). tex_sample: NULL
 * until the texture unit exists (the executor faults "not supported yet");
 * else 0 and out[4] filled, or a cg_err after posting its own fault. */
typedef struct rd_sq_fetch_ops {
    void *ctx;
    int (*vtx_resource)(void *ctx, unsigned id, rd_sq_vbuf *out);
    int (*tex_sample)(void *ctx, const rd_sq_tex_req *req, uint32_t out[4]);
} rd_sq_fetch_ops;

/* A constant buffer (kcache banks 0..15): vec4 constants. */
typedef struct rd_sq_cbuf {
    const uint32_t (*c)[4];
    uint32_t n; /* vec4s */
} rd_sq_cbuf;

/* Everything the program reads besides its GPRs. */
typedef struct rd_sq_env {
    r6_chip chip;
    const uint32_t *code; /* the program (little-endian dwords as in memory) */
    size_t ndw;           /* dwords */
    uint64_t gpu_addr;    /* its address (stream address of fault records) */
    unsigned ngpr;        /* GPRs allocated (SQ_PGM_RESOURCES NUM_GPRS); 0: 124 */
    unsigned stack_entries; /* 0: RD_SQ_STACK */
    rd_sq_cbuf cb[16];      /* kcache banks (SQ_ALU_CONST_BUFFER_*) */
    const uint32_t (*cfile)[4]; /* R600 constant file C0..C255 (256 vec4), NULL: zeros */
    uint32_t loop_const[32];    /* SQ_LOOP_CONST_*: count 11:0, init 23:12, inc 31:24 */
    uint32_t bool_const;        /* SQ_BOOL_CONST bits */
    rd_sq_fetch_ops fetch;
    cg_device *dev;             /* fault log and budgets */
    int32_t channel;            /* fault records' channel (-1: none) */
} rd_sq_env;

/* Run the program over the wave's live lanes. 0, or CG_ERR_FAULT after one
 * fault record; *out holds the exports made before a fault too. The budget
 * radeon.sq-insns counts CF instructions, ALU groups and fetches. */
int rd_sq_run(const rd_sq_env *env, rd_sq_wave *w, rd_sq_out *out);

/* ---- inside the executor (sq*.c) ---- */
typedef struct rd_sq rd_sq;
typedef struct rd_sq_frame {
    uint8_t kind; /* SQF_PUSH, SQF_LOOP, SQF_CALL */
    rd_sq_mask active;
    rd_sq_mask brk, cont; /* loops */
    uint32_t count, pc;   /* loops: iterations left; calls: return pc; loops: body start */
    int32_t index, inc;   /* loops: aL */
} rd_sq_frame;
enum { SQF_PUSH, SQF_LOOP, SQF_CALL };

struct rd_sq {
    const rd_sq_env *env;
    rd_sq_wave *w;
    rd_sq_out *out;
    r6_optable t;
    cg_agent agent;
    unsigned ngpr, nstack;
    rd_sq_mask active, pred, killed;
    int32_t ar[4][RD_SQ_LANES];
    uint32_t pv[4][RD_SQ_LANES], ps[RD_SQ_LANES];
    rd_sq_frame stack[64];
    unsigned sp;
    uint64_t budget, used;
    /* kcache locks of the running ALU clause: bank and first constant */
    uint32_t kc_bank[2], kc_first[2], kc_n[2];
    int32_t loop_index; /* aL of the innermost loop */
};

/* Fault at dword `dw` of the program with the instruction's `nw` words. */
int rd_sq_fault(rd_sq *s, cg_fault_kind kind, size_t dw, unsigned nw, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;
/* Count one unit against the budget; CG_ERR_FAULT (a hang) when spent. */
int rd_sq_tick(rd_sq *s, size_t dw, unsigned nw, const char *what);
/* The lanes a loop or kill has disabled (restored masks leave them out). */
rd_sq_mask rd_sq_disabled(const rd_sq *s);
int rd_sq_alu_clause(rd_sq *s, size_t cf_dw, uint32_t addr, uint32_t count);
int rd_sq_fetch_clause(rd_sq *s, size_t cf_dw, bool tex, uint32_t addr, uint32_t count);

#endif
