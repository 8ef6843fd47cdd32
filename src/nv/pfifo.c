/* nv: PFIFO. The GPU object, channels' GPFIFO rings, the pushbuffer decoder
 * (DMA pusher), the puller and the host class (B06F + A26F syncpoints), and
 * the round-robin scheduler.
 *
 * Sources: research/nv.md sections 1-3 (NVIDIA clb06f.h / cla26f.h,
 * envytools dma-pusher.rst, yuzu dma_pusher.cpp and puller.cpp, Ryujinx
 * GPFifoClass.cs). Where the emulators cut corners (yuzu ignores sec ops 0, 2,
 * 6 and 7 and dereferences NULL for an unbound subchannel) this model follows
 * the NVIDIA headers and faults instead. */
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "core/mem_internal.h"
#include "nv_internal.h"
#include "fields.h"
#include "threed.h"

/* The constant buffer LOAD_CONSTANT_BUFFER writes to: the address of
 * SET_CONSTANT_BUFFER_SELECTOR_B/C, its size (SELECTOR_A SIZE) in *size. */
static inline uint64_t cb_target(const uint32_t *regs, uint32_t *size)
{
    *size = NV_VAL(NVB197, SET_CONSTANT_BUFFER_SELECTOR_A, SIZE,
                   regs[NVB197_SET_CONSTANT_BUFFER_SELECTOR_A >> 2]);
    return (uint64_t)NV_VAL(NVB197, SET_CONSTANT_BUFFER_SELECTOR_B, ADDRESS_UPPER,
                            regs[NVB197_SET_CONSTANT_BUFFER_SELECTOR_B >> 2])
               << 32 |
           regs[NVB197_SET_CONSTANT_BUFFER_SELECTOR_C >> 2];
}

int nv_obj_index(uint32_t class_id)
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

void nv_gpu_error(cg_nv_gpu *gpu, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(gpu->last_error, sizeof(gpu->last_error), fmt, ap);
    va_end(ap);
}

const char *cg_nv_gpu_last_error(const cg_nv_gpu *gpu)
{
    return gpu ? gpu->last_error : "";
}

/* Mark the methods of class c below `limit` (dword index) in bits, and
 * their action numbers in act (NULL: none). */
static void set_bits(uint32_t *bits, uint8_t *act, const cg_nv_class *c, uint32_t limit)
{
    for (size_t i = 0; i < c->nmethods; i++) {
        const cg_nv_method *m = &c->methods[i];
        uint32_t stride = m->stride ? m->stride : 4;
        for (uint32_t e = 0; e < m->count; e++) {
            uint32_t idx = (m->offset + e * stride) >> 2;
            if (idx < limit) {
                bits[idx / 32] |= 1u << (idx % 32);
                if (act && !(m->flags & CG_NV_M_ALIAS))
                    act[idx] = (uint8_t)nv_method_act(m);
            }
        }
    }
}

int cg_nv_gpu_create(cg_device *dev, cg_nv_gpu **out)
{
    if (!dev || !out)
        return CG_ERR_INVAL;
    cg_nv_gpu *gpu = cg__alloc(dev, sizeof(*gpu));
    if (!gpu)
        return CG_ERR_NOMEM;
    gpu->dev = dev;
    gpu->next_handle = 1;
    /* the device's budgets (device.h CG_BUDGET_TABLE, docs/faults.md) */
    uint64_t runs = cg_device_budget(dev, CG_BUDGET_NV_WAIT_RUNS);
    gpu->watchdog = runs > UINT_MAX ? UINT_MAX : (unsigned)runs;
    gpu->op_limit = cg_device_budget(dev, CG_BUDGET_NV_OP_BYTES);
    gpu->mme_budget = cg_device_budget(dev, CG_BUDGET_NV_MACRO_INSNS);
    static const uint32_t ids[NV_NOBJ] = {CG_NV_CLASS_3D, CG_NV_CLASS_COMPUTE, CG_NV_CLASS_I2M,
                                          CG_NV_CLASS_TWOD, CG_NV_CLASS_COPY};
    for (int i = 0; i < NV_NOBJ; i++) {
        set_bits(gpu->valid[i], gpu->act[i], cg_nv_class_find(ids[i]), NV_NREGS);
        bool all = i == NV_OBJ_3D || i == NV_OBJ_COMPUTE; /* they store every method */
        for (uint32_t idx = 0x40; idx < NV_NREGS; idx++) {
            if ((all || (gpu->valid[i][idx / 32] & (1u << (idx % 32)))) && !gpu->act[i][idx])
                gpu->plain[i][idx / 32] |= 1u << (idx % 32);
        }
        for (uint32_t idx = NV_NREGS; idx-- > 0;)
            if (gpu->plain[i][idx / 32] & (1u << (idx % 32)))
                gpu->plain_run[i][idx] =
                    (uint16_t)(1 + (idx + 1 < NV_NREGS ? gpu->plain_run[i][idx + 1] : 0));
    }
    set_bits(gpu->host_valid, NULL, cg_nv_class_find(CG_NV_CLASS_HOST), 64);
    *out = gpu;
    return 0;
}

cg_device *cg_nv_gpu_device(const cg_nv_gpu *gpu)
{
    return gpu ? gpu->dev : NULL;
}

void cg_nv_gpu_set_watchdog(cg_nv_gpu *gpu, unsigned runs)
{
    if (gpu)
        gpu->watchdog = runs ? runs : 1;
}

void cg_nv_gpu_set_op_limit(cg_nv_gpu *gpu, uint64_t bytes)
{
    if (gpu)
        gpu->op_limit = bytes ? bytes : cg_device_budget(gpu->dev, CG_BUDGET_NV_OP_BYTES);
}

uint64_t cg_nv_gpu_time(const cg_nv_gpu *gpu)
{
    return gpu ? gpu->time : 0;
}

/* ---- syncpoints --------------------------------------------------------- */

uint32_t cg_nv_syncpt_read(const cg_nv_gpu *gpu, uint32_t id)
{
    return gpu && id < CG_NV_NUM_SYNCPTS ? gpu->syncpt[id] : 0;
}

int cg_nv_syncpt_incr(cg_nv_gpu *gpu, uint32_t id)
{
    if (!gpu || id >= CG_NV_NUM_SYNCPTS)
        return CG_ERR_INVAL;
    gpu->syncpt[id]++;
    return 0;
}

/* host1x compares syncpoint values with wrapping arithmetic. */
static bool syncpt_reached(uint32_t cur, uint32_t want)
{
    return (int32_t)(cur - want) >= 0;
}

bool cg_nv_fence_reached(const cg_nv_gpu *gpu, cg_nv_fence f)
{
    return gpu && f.id < CG_NV_NUM_SYNCPTS && syncpt_reached(gpu->syncpt[f.id], f.value);
}

/* ---- reductions --------------------------------------------------------- */

uint32_t nv_reduce(uint32_t old, uint32_t v, unsigned op, bool is_signed)
{
    switch (op) {
    case 0: /* MIN */
        return is_signed ? ((int32_t)old < (int32_t)v ? old : v) : (old < v ? old : v);
    case 1: /* MAX */
        return is_signed ? ((int32_t)old > (int32_t)v ? old : v) : (old > v ? old : v);
    case 2: return old ^ v;
    case 3: return old & v;
    case 4: return old | v;
    case 5: return old + v;
    /* INC/DEC wrap at the payload like CUDA's atomicInc/atomicDec. */
    case 6: return old >= v ? 0 : old + 1;
    case 7: return (old == 0 || old > v) ? v : old - 1;
    default: return old;
    }
}

/* ---- tracing ------------------------------------------------------------ */

void nv_trace_method(cg_nv_channel *ch, unsigned subch, uint32_t cls, uint32_t mthd, uint32_t v,
                     uint64_t addr)
{
    char name[80];
    const cg_nv_class *c = cg_nv_class_find(mthd < 0x100 ? CG_NV_CLASS_HOST : cls);
    if (!cg_nv_method_name(c, mthd, name, sizeof(name)))
        snprintf(name, sizeof(name), "0x%04x", mthd);
    char text[32];
    snprintf(text, sizeof(text), "subch %u class %04X", subch, mthd < 0x100 ? 0xB06Fu : cls);
    cg_trace_event ev = {.kind = CG_TRACE_METHOD, .family = CG_FAMILY_NV, .unit = "pfifo",
                         .channel = ch->id, .stream_addr = addr, .reg = mthd, .value = v,
                         .name = name, .text = text};
    cg_trace_emit(ch->gpu->dev, &ev);
}

void nv_trace_event(cg_nv_channel *ch, cg_trace_kind kind, const char *unit, uint32_t reg,
                    uint64_t value, uint64_t gpu_addr, uint64_t size, const char *text)
{
    if (!cg_trace_enabled(ch->gpu->dev))
        return;
    cg_trace_event ev = {.kind = kind, .family = CG_FAMILY_NV, .unit = unit, .channel = ch->id,
                         .stream_addr = ch->hdr_addr, .reg = reg, .value = value,
                         .gpu_addr = gpu_addr, .size = size, .text = text};
    cg_trace_emit(ch->gpu->dev, &ev);
}

/* ---- faults -------------------------------------------------------------- */

int nv_fault(cg_nv_channel *ch, const cg_agent *ag, cg_fault_kind kind, uint64_t gpu_addr,
             const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    ch->state = CG_NV_CH_FAULTED;
    int rc = cg_fault_vpost(ch->gpu->dev, ag, kind, gpu_addr, fmt, ap);
    va_end(ap);
    return rc;
}

/* The puller's faults: the agent is the current header and `data`. */
static int ch_fault(cg_nv_channel *ch, const char *unit, cg_fault_kind kind, uint64_t addr,
                    uint64_t gpu_addr, uint32_t data, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 7, 8)))
#endif
    ;
static int ch_fault(cg_nv_channel *ch, const char *unit, cg_fault_kind kind, uint64_t addr,
                    uint64_t gpu_addr, uint32_t data, const char *fmt, ...)
{
    cg_agent ag = nv_agent(ch, unit, addr, ch->hdr_word, data);
    va_list ap;
    va_start(ap, fmt);
    ch->state = CG_NV_CH_FAULTED;
    int rc = cg_fault_vpost(ch->gpu->dev, &ag, kind, gpu_addr, fmt, ap);
    va_end(ap);
    return rc;
}

/* ---- the host class ------------------------------------------------------ */

static const char *sem_op_name(uint32_t op)
{
    switch (op) {
    case 1: return "ACQUIRE (==)";
    case 4: return "ACQ_GEQ (>=)";
    case 8: return "ACQ_AND (&)";
    default: return "?";
    }
}

/* Is the pending wait satisfied? <0 on a memory fault. */
static int wait_check(cg_nv_channel *ch)
{
    if (ch->wait == NV_WAIT_SYNCPT)
        return syncpt_reached(ch->gpu->syncpt[ch->wait_id], ch->wait_value);
    uint32_t cur;
    cg_agent ag = nv_agent(ch, ch->wait_unit ? ch->wait_unit : "host", ch->wait_hdr_addr,
                          ch->wait_words[0], ch->wait_words[1]);
    if (cg_vas_read32(ch->vas, ch->wait_addr, &cur, &ag) != 0) {
        ch->state = CG_NV_CH_FAULTED;
        return -1;
    }
    switch (ch->wait_op) {
    case 1: return cur == ch->wait_value;
    /* ACQ_GEQ: the model compares circularly ((int32)(mem - payload) >= 0),
     * like host1x syncpoints; later NVIDIA host classes split this into
     * ACQ_STRICT_GEQ and ACQ_CIRC_GEQ, and which one Maxwell's ACQ_GEQ is
     * was not in our sources: an assumption, tested as such. */
    case 4: return (int32_t)(cur - ch->wait_value) >= 0;
    default: return (cur & ch->wait_value) != 0;
    }
}

static int host_semaphored(cg_nv_channel *ch, uint32_t v, uint64_t addr)
{
    uint64_t sem = (uint64_t)(ch->sem_hi & 0xFF) << 32 | (ch->sem_lo & ~3u);
    uint32_t op = v & 0x1F;
    cg_agent ag = nv_agent(ch, "host", addr, ch->hdr_word, v);
    switch (op) {
    case 1: case 4: case 8:
        ch->wait = NV_WAIT_SEM;
        ch->wait_addr = sem;
        ch->wait_value = ch->sem_payload;
        ch->wait_op = op;
        ch->wait_hdr_addr = addr;
        ch->wait_unit = "host";
        ch->wait_words[0] = ch->hdr_word;
        ch->wait_words[1] = v;
        ch->wait_runs = 0;
        return 0; /* checked by the scheduler before the next method */
    case 2: {
        /* RELEASE_SIZE 24: 1 = 4 bytes; 0 = 16 bytes: payload, 0, then the
         * 64-bit timestamp (Ryujinx GPFifoClass.cs; clb06f.h). */
        int rc;
        if (v & (1u << 24)) {
            rc = cg_vas_write32(ch->vas, sem, ch->sem_payload, &ag);
        } else {
            uint32_t rec[4] = {ch->sem_payload, 0, (uint32_t)ch->gpu->time,
                               (uint32_t)(ch->gpu->time >> 32)};
            rc = cg_vas_write(ch->vas, sem, rec, sizeof(rec), &ag);
        }
        if (rc != 0) {
            ch->state = CG_NV_CH_FAULTED;
            return rc;
        }
        nv_trace_event(ch, CG_TRACE_FENCE, "host", NVB06F_SEMAPHORED, ch->sem_payload, sem,
                    (v & (1u << 24)) ? 4 : 16, "semaphore release");
        return 0;
    }
    case 16: {
        /* the operation is decoded before memory is touched: an undefined
         * reduction faults as such even where the semaphore is unmapped */
        if (((v >> 27) & 0xF) > 7)
            return ch_fault(ch, "host", CG_FAULT_BAD_STATE, addr, sem, v,
                            "SEMAPHORED: reduction %u is not defined", (v >> 27) & 0xF);
        uint32_t old;
        if (cg_vas_read32(ch->vas, sem, &old, &ag) != 0) {
            ch->state = CG_NV_CH_FAULTED;
            return CG_ERR_FAULT;
        }
        uint32_t nv = nv_reduce(old, ch->sem_payload, (v >> 27) & 0xF, !(v >> 31));
        if (cg_vas_write32(ch->vas, sem, nv, &ag) != 0) {
            ch->state = CG_NV_CH_FAULTED;
            return CG_ERR_FAULT;
        }
        nv_trace_event(ch, CG_TRACE_FENCE, "host", NVB06F_SEMAPHORED, nv, sem, 4,
                    "semaphore reduction");
        return 0;
    }
    default:
        return ch_fault(ch, "host", CG_FAULT_BAD_STATE, addr, sem, v,
                        "SEMAPHORED: operation 0x%x is not one of ACQUIRE 1, RELEASE 2, "
                        "ACQ_GEQ 4, ACQ_AND 8, REDUCTION 16", op);
    }
}

static int host_method(cg_nv_channel *ch, unsigned subch, uint32_t m, uint32_t v, uint64_t addr)
{
    if (m >= 0x100 || !(ch->gpu->host_valid[m >> 7] & (1u << ((m >> 2) & 31))))
        return ch_fault(ch, "host", CG_FAULT_INVALID_METHOD, addr, 0, v,
                        "host method 0x%03x is not in MAXWELL_CHANNEL_GPFIFO_A/A26F "
                        "(ILLEGAL_MTHD)", m);
    switch (m) {
    case NVB06F_SET_OBJECT: {
        uint32_t cls = v & 0xFFFF;
        int oi = nv_obj_index(cls);
        if (oi < 0)
            return ch_fault(ch, "host", CG_FAULT_INVALID_CLASS, addr, 0, v,
                            "SET_OBJECT: class 0x%04x on subchannel %u is not one of 902D, "
                            "B197, B1C0, A140, B0B5", cls, subch);
        nv_obj *o = &ch->objs[oi];
        if (!o->regs) {
            o->regs = cg__alloc(ch->gpu->dev, NV_NREGS * 4);
            if (!o->regs)
                return ch_fault(ch, "host", CG_FAULT_OUT_OF_MEMORY, addr, 0, v,
                                "SET_OBJECT: no host memory for the register file");
        }
        o->class_id = cls;
        ch->bound[subch] = cls;
        ch->bound_oi[subch] = (int8_t)oi;
        return 0;
    }
    case NVB06F_ILLEGAL:
        return ch_fault(ch, "host", CG_FAULT_INVALID_METHOD, addr, 0, v,
                        "ILLEGAL method (handle 0x%08x): deliberate illegal-method interrupt", v);
    case NVB06F_NOP:
    case NVB06F_WFI:       /* the model runs a channel's work in order */
    case NVB06F_FB_FLUSH:  /* the model has no GPU-side caches to flush */
    case NVB06F_MEM_OP_C:
        return 0;
    case NVB06F_SEMAPHOREA: ch->sem_hi = v; return 0;
    case NVB06F_SEMAPHOREB: ch->sem_lo = v; return 0;
    case NVB06F_SEMAPHOREC: ch->sem_payload = v; return 0;
    case NVB06F_SEMAPHORED: return host_semaphored(ch, v, addr);
    case NVB06F_NON_STALL_INTERRUPT:
        nv_trace_event(ch, CG_TRACE_INTERRUPT, "host", NVB06F_NON_STALL_INTERRUPT, v, 0, 0,
                    "non-stall interrupt");
        return 0;
    case NVB06F_MEM_OP_D: {
        uint32_t op = v >> 27;
        if (op == 5 || op == 9 || (op >= 13 && op <= 16))
            return 0; /* MEMBAR, TLB invalidate, L2 operations: nothing cached here */
        return ch_fault(ch, "host", CG_FAULT_BAD_STATE, addr, 0, v,
                        "MEM_OP_D: operation 0x%x is not defined in clb06f.h", op);
    }
    case NVB06F_SET_REFERENCE: ch->reference = v; return 0;
    case NVB06F_SYNCPOINTA: ch->syncpt_payload = v; return 0;
    case NVB06F_SYNCPOINTB: {
        uint32_t id = (v >> 8) & 0xFF, op = v & 3;
        if (id >= CG_NV_NUM_SYNCPTS)
            return ch_fault(ch, "host", CG_FAULT_BAD_STATE, addr, 0, v,
                            "SYNCPOINTB: syncpoint %u does not exist (%u)", id,
                            CG_NV_NUM_SYNCPTS);
        if (op == 1) {
            ch->gpu->syncpt[id]++;
            nv_trace_event(ch, CG_TRACE_FENCE, "host", NVB06F_SYNCPOINTB, ch->gpu->syncpt[id], 0,
                        id, "syncpoint increment");
            return 0;
        }
        if (op == 0) {
            ch->wait = NV_WAIT_SYNCPT;
            ch->wait_id = id;
            ch->wait_value = ch->syncpt_payload;
            ch->wait_hdr_addr = addr;
            ch->wait_unit = "host";
            ch->wait_words[0] = ch->hdr_word;
            ch->wait_words[1] = v;
            ch->wait_runs = 0;
            return 0;
        }
        return ch_fault(ch, "host", CG_FAULT_UNSUPPORTED, addr, 0, v,
                        "SYNCPOINTB: BASE_ADD/BASE_WRITE not supported yet");
    }
    case NVB06F_CRC_CHECK:
        return ch_fault(ch, "host", CG_FAULT_UNSUPPORTED, addr, 0, v,
                        "CRC_CHECK not supported yet");
    case NVB06F_YIELD:
        ch->yield = true;
        return 0;
    default:
        return 0;
    }
}

/* ---- engine methods ------------------------------------------------------- */

/* ---- the macro engine (docs/nv-macro.md "Executor hookup") --------------- */

/* The channel's MME RAM and shadow RAM, allocated at the first MME method.
 * The upload methods 0x114..0x124 and CALL_MME_MACRO/CALL_MME_DATA are
 * MAXWELL_B methods in our tables (threed_b197.def; research/nv.md section 4:
 * clb197.h); compute_b1c0.def has neither, so on B1C0 they are only stored. */
static nv_mme_state *mme_state(cg_nv_channel *ch)
{
    if (!ch->mme) {
        ch->mme = cg__alloc(ch->gpu->dev, sizeof(*ch->mme));
        if (ch->mme)
            nv_mme_state_init(ch->mme);
    }
    return ch->mme;
}

/* CALL_MME_MACRO(n) (method index 0xE00 + 2n, byte 0x3800 + 8n) starts a
 * call of macro n with the value as R1; CALL_MME_DATA(n) (0xE01 + 2n, byte
 * 0x3804 + 8n) appends a parameter. The call runs (mme_flush) when its
 * parameter run ends:
 *   - at the next method of any kind (any subchannel, host methods too) that
 *     is not CALL_MME_DATA(n) on the same subchannel, before that method;
 *     another CALL_MME_MACRO(n) therefore runs the first call and starts a
 *     second;
 *   - when the channel runs out of pushbuffer (ring empty).
 * Not at the end of a GPFIFO entry or of a header's count: the hardware MME
 * streams, a `fetch` waits for the next parameter wherever it comes from,
 * so parameters split across headers or entries belong to one call. For a
 * well-formed stream (each call followed by exactly its parameters) the
 * result equals streaming execution: the macro's sends land after its
 * parameters and before the next method, as on the hardware, where the
 * method stream passes through the MME in order. A CALL_MME_DATA without a
 * call of the same macro in progress is a fault. */
static int mme_collect(cg_nv_channel *ch, unsigned subch, uint32_t m, uint32_t v, uint64_t addr)
{
    uint32_t j = (m - NVB197_CALL_MME_MACRO) >> 3;
    if (!(m & 4)) {
        if (!mme_state(ch))
            return ch_fault(ch, "mme", CG_FAULT_OUT_OF_MEMORY, addr, 0, v,
                            "no host memory for the macro RAM");
        ch->call.pending = true;
        ch->call.subch = (uint8_t)subch;
        ch->call.macro = j;
        ch->call.n = 0;
        ch->call.addr = addr;
        ch->call.hdr_word = ch->hdr_word;
        ch->slow = true; /* every method now goes through exec_method */
    } else if (!ch->call.pending) {
        return ch_fault(ch, "mme", CG_FAULT_BAD_STATE, addr, 0, v,
                        "CALL_MME_DATA(%u) without a call of macro %u in progress", j, j);
    }
    if (ch->call.n == ch->call.cap) {
        uint32_t cap = ch->call.cap ? 2 * ch->call.cap : 64;
        uint32_t *p = 4ull * cap <= ch->gpu->op_limit && cap <= (1u << 30)
                          ? cg__realloc(ch->gpu->dev, ch->call.params, 4 * (size_t)ch->call.cap,
                                        4 * (size_t)cap)
                          : NULL;
        if (!p) {
            ch->call.pending = false;
            ch->slow = ch->tracing;
            return ch_fault(ch, "mme", CG_FAULT_BAD_LENGTH, addr, 0, v,
                            "macro %u: more than %u parameters (operation limit)", j,
                            ch->call.cap);
        }
        ch->call.params = p;
        ch->call.cap = cap;
    }
    ch->call.params[ch->call.n++] = v;
    return 0;
}

/* ---- action handlers, by nv_mact (the class tables' ACTION column) ------- */

typedef int (*nv_act_fn)(cg_nv_channel *ch, nv_obj *o, unsigned subch, uint32_t m, uint32_t v,
                         uint64_t addr, cg_agent *ag);

static int act_i2m(cg_nv_channel *ch, nv_obj *o, unsigned subch, uint32_t m, uint32_t v,
                   uint64_t addr, cg_agent *ag)
{
    (void)subch, (void)addr;
    ag->unit = "i2m";
    return nv_i2m_method(ch, o, m, v, ag);
}

static int act_mme_load(cg_nv_channel *ch, nv_obj *o, unsigned subch, uint32_t m, uint32_t v,
                        uint64_t addr, cg_agent *ag)
{
    (void)o, (void)subch, (void)ag;
    if (!mme_state(ch))
        return ch_fault(ch, "mme", CG_FAULT_OUT_OF_MEMORY, addr, 0, v,
                        "no host memory for the macro RAM");
    nv_mme_method(ch->mme, m, v);
    return 0;
}

static int act_mme_call(cg_nv_channel *ch, nv_obj *o, unsigned subch, uint32_t m, uint32_t v,
                        uint64_t addr, cg_agent *ag)
{
    (void)o, (void)ag;
    return mme_collect(ch, subch, m, v, addr);
}

/* LOAD_CONSTANT_BUFFER(i) (CB_DATA): write at the selected buffer + CB_POS,
 * CB_POS += 4 (research/nv.md section 5 B197 table). */
static int act_cb_load(cg_nv_channel *ch, nv_obj *o, unsigned subch, uint32_t m, uint32_t v,
                       uint64_t addr, cg_agent *ag)
{
    (void)subch, (void)m;
    uint32_t *pos = &o->regs[NVB197_LOAD_CONSTANT_BUFFER_OFFSET >> 2];
    uint32_t size;
    uint64_t cb = cb_target(o->regs, &size);
    /* in 64 bits: a CB_POS of 0xfffffffc must not wrap to 0 */
    if ((uint64_t)*pos + 4 > size)
        return ch_fault(ch, "3d", CG_FAULT_BAD_STATE, addr, cb + *pos, v,
                        "LOAD_CONSTANT_BUFFER: offset 0x%x past the buffer size "
                        "0x%x", *pos, size);
    ag->unit = "3d";
    if (cg_vas_write32(ch->vas, cb + *pos, v, ag) != 0) {
        ch->state = CG_NV_CH_FAULTED;
        return CG_ERR_FAULT;
    }
    *pos += 4;
    return 0;
}

/* SET_REPORT_SEMAPHORE_D: the same layout on B197 and B1C0 */
static int act_report(cg_nv_channel *ch, nv_obj *o, unsigned subch, uint32_t m, uint32_t v,
                      uint64_t addr, cg_agent *ag)
{
    (void)subch, (void)m, (void)addr;
    ag->unit = o->class_id == CG_NV_CLASS_COMPUTE ? "compute" : "3d";
    return nv3d_report_semaphore(ch, o, v, ag);
}

static int act_3d(cg_nv_channel *ch, nv_obj *o, unsigned subch, uint32_t m, uint32_t v,
                  uint64_t addr, cg_agent *ag)
{
    (void)subch, (void)addr;
    ag->unit = "3d";
    return nv3d_method(ch, o, (nv_mact)ch->gpu->act[NV_OBJ_3D][m >> 2], m, v, ag);
}

static int act_copy(cg_nv_channel *ch, nv_obj *o, unsigned subch, uint32_t m, uint32_t v,
                    uint64_t addr, cg_agent *ag)
{
    (void)subch, (void)m, (void)v, (void)addr;
    ag->unit = "ce";
    int rc = nv_copy_launch(ch, o, ag);
    if (rc != 0 && ch->state != CG_NV_CH_FAULTED)
        ch->state = CG_NV_CH_FAULTED;
    return rc;
}

static int act_twod(cg_nv_channel *ch, nv_obj *o, unsigned subch, uint32_t m, uint32_t v,
                    uint64_t addr, cg_agent *ag)
{
    (void)subch, (void)addr;
    ag->unit = "2d";
    int rc = nv_twod_method(ch, o, (nv_mact)ch->gpu->act[NV_OBJ_TWOD][m >> 2], m, v, ag);
    if (rc != 0)
        ch->state = CG_NV_CH_FAULTED;
    return rc;
}

static int act_compute_launch(cg_nv_channel *ch, nv_obj *o, unsigned subch, uint32_t m,
                              uint32_t v, uint64_t addr, cg_agent *ag)
{
    (void)o, (void)subch, (void)m, (void)ag;
    return ch_fault(ch, "compute", CG_FAULT_UNSUPPORTED, addr, 0, v,
                    "MAXWELL_COMPUTE_B launches not supported yet");
}

static const nv_act_fn act_fn[NV_ACT_COUNT] = {
    [NV_ACT_I2M_LAUNCH] = act_i2m,     [NV_ACT_I2M_DATA] = act_i2m,
    [NV_ACT_MME_LOAD] = act_mme_load,  [NV_ACT_MME_CALL] = act_mme_call,
    [NV_ACT_CB_LOAD] = act_cb_load,    [NV_ACT_REPORT] = act_report,
    [NV_ACT_CLEAR] = act_3d,           [NV_ACT_CLEAR_REPORT] = act_3d,
    [NV_ACT_CB_BIND] = act_3d,         [NV_ACT_DRAW] = act_3d,
    [NV_ACT_COPY_LAUNCH] = act_copy,   [NV_ACT_TWOD_BLIT] = act_twod,
    [NV_ACT_TWOD_MODE] = act_twod,     [NV_ACT_TWOD_POINT] = act_twod,
    [NV_ACT_TWOD_POINT_SET] = act_twod, [NV_ACT_COMPUTE_LAUNCH] = act_compute_launch,
};

static int engine_method(cg_nv_channel *ch, unsigned subch, uint32_t m, uint32_t v, uint64_t addr)
{
    uint32_t cls = ch->bound[subch];
    if (!cls)
        return ch_fault(ch, "pfifo", CG_FAULT_UNBOUND_SUBCHANNEL, addr, 0, v,
                        "method 0x%04x on subchannel %u, which has no object bound", m, subch);
    int oi = nv_obj_index(cls);
    nv_obj *o = &ch->objs[oi];
    uint32_t idx = m >> 2;
    bool known = idx < NV_NREGS && (ch->gpu->valid[oi][idx / 32] & (1u << (idx % 32)));
    /* B197 and B1C0 keep every method of their range (the registers of
     * methods no header names included); the others fault on unknown ones. */
    bool stores_all = (oi == NV_OBJ_3D || oi == NV_OBJ_COMPUTE) && idx < NV_NREGS;
    if (!known && !stores_all)
        return ch_fault(ch, "pfifo", CG_FAULT_INVALID_METHOD, addr, 0, v,
                        "method 0x%04x is not in class %04X (ILLEGAL_MTHD), subchannel %u", m,
                        cls, subch);
    o->regs[idx] = v;
    nv_mact act = (nv_mact)ch->gpu->act[oi][idx];
    if (act == NV_ACT_NONE || act >= NV_ACT_COUNT || !act_fn[act])
        return 0;
    cg_agent ag = nv_agent(ch, "engine", addr, ch->hdr_word, v);
    return act_fn[act](ch, o, subch, m, v, addr, &ag);
}

static void mme_trace(cg_nv_channel *ch, cg_trace_kind kind, uint32_t mthd, uint32_t v,
                      const char *name, const char *text)
{
    cg_trace_event ev = {.kind = kind, .family = CG_FAMILY_NV, .unit = "mme",
                         .channel = ch->id, .stream_addr = ch->call.addr, .reg = mthd,
                         .value = v, .name = name, .text = text};
    cg_trace_emit(ch->gpu->dev, &ev);
}

/* nv_mme_io.send: a macro's method write takes the pushbuffer's B197 path
 * (engine_method) after the shadow RAM, on the subchannel of the call. */
static int mme_send(void *user, uint32_t method, uint32_t value)
{
    cg_nv_channel *ch = user;
    uint32_t m = (method & 0xFFF) << 2;
    uint32_t v = nv_mme_shadow(ch->mme, method & 0xFFF, value);
    ch->methods++;
    ch->gpu->time++;
    if (ch->tracing) {
        char name[80], text[48];
        if (!cg_nv_method_name(cg_nv_class_find(CG_NV_CLASS_3D), m, name, sizeof(name)))
            snprintf(name, sizeof(name), "0x%04x", m);
        snprintf(text, sizeof(text), "macro %u send", ch->call.macro);
        mme_trace(ch, CG_TRACE_METHOD, m, v, name, text);
    }
    if (m >= NVB197_CALL_MME_MACRO)
        return ch_fault(ch, "mme", CG_FAULT_BAD_STATE, ch->call.addr, 0, v,
                        "macro %u sends method 0x%04x: a macro cannot call a macro",
                        ch->call.macro, m);
    return engine_method(ch, ch->call.subch, m, v, ch->call.addr);
}

/* nv_mme_io.read: the 3D register file. */
static int mme_read(void *user, uint32_t method, uint32_t *value)
{
    const cg_nv_channel *ch = user;
    const uint32_t *r = ch->objs[NV_OBJ_3D].regs;
    *value = r ? r[method & 0xFFF] : 0;
    return 0;
}

/* Run the collected call (mme_collect says when). Faults stop the channel;
 * their agent: unit "mme", the stream address of the CALL_MME_MACRO word,
 * words {instruction, PC} (nv_mme_call). */
static int mme_flush(cg_nv_channel *ch)
{
    ch->call.pending = false;
    ch->slow = ch->tracing;
    if (ch->state == CG_NV_CH_FAULTED)
        return CG_ERR_FAULT;
    /* engine faults and trace events of the sends point at the call */
    uint64_t hdr_addr = ch->hdr_addr;
    uint32_t hdr_word = ch->hdr_word;
    ch->hdr_addr = ch->call.addr;
    ch->hdr_word = ch->call.hdr_word;
    if (ch->tracing) {
        char text[64];
        snprintf(text, sizeof(text), "macro %u runs: %u parameters", ch->call.macro, ch->call.n);
        mme_trace(ch, CG_TRACE_NOTE, NVB197_CALL_MME_MACRO + 8 * ch->call.macro,
                  ch->call.params[0], NULL, text);
    }
    cg_agent ag = nv_agent(ch, "mme", ch->call.addr, ch->call.hdr_word, ch->call.params[0]);
    nv_mme_io io = {ch, mme_send, mme_read};
    /* the watchdog: gpu->mme_budget instructions, and no more than the
     * per-operation limit (cg_nv_gpu_set_op_limit), which keeps runaway
     * macros small where engine operations are kept small (the fuzzers) */
    uint64_t budget = ch->gpu->mme_budget;
    if (budget > ch->gpu->op_limit)
        budget = ch->gpu->op_limit;
    int rc = nv_mme_call(ch->mme, ch->call.macro, ch->call.params, ch->call.n, &io, budget, &ag,
                         ch->gpu->dev, NULL);
    if (rc != 0)
        ch->state = CG_NV_CH_FAULTED;
    ch->hdr_addr = hdr_addr;
    ch->hdr_word = hdr_word;
    return rc;
}

static inline int exec_method(cg_nv_channel *ch, unsigned subch, uint32_t m, uint32_t v,
                              uint64_t addr)
{
    /* A collected macro call runs before the first method that is not one
     * of its parameters (see mme_collect). */
    if (ch->call.pending &&
        (m != NVB197_CALL_MME_DATA + 8 * ch->call.macro || subch != ch->call.subch)) {
        int rc = mme_flush(ch);
        if (rc != 0)
            return rc;
    }
    ch->methods++;
    ch->gpu->time++;
    if (ch->tracing)
        nv_trace_method(ch, subch, ch->bound[subch], m, v, addr);
    if (m < 0x100)
        return host_method(ch, subch, m, v, addr);
    return engine_method(ch, subch, m, v, addr);
}

/* Should the channel stop after the method just executed? */
static inline bool must_stop(const cg_nv_channel *ch)
{
    return ch->state == CG_NV_CH_FAULTED || ch->wait != NV_WAIT_NONE || ch->yield;
}

/* Execute up to n data words of the current run. Returns words consumed. */
static size_t exec_run(cg_nv_channel *ch, const uint32_t *w, size_t n, uint64_t addr)
{
    unsigned subch = ch->dec_subch;
    if (!(ch->subdev_mask & 1)) {
        /* the sub-device mask excludes this GPU (subdevice 0): data skipped */
        if (ch->dec_mode == NV_MODE_INC)
            ch->dec_method += 4 * (uint32_t)n;
        else if (ch->dec_mode == NV_MODE_ONE_INC) {
            ch->dec_method += 4;
            ch->dec_mode = NV_MODE_NONINC;
        }
        return n;
    }
    /* Fast path: a NONINC run of LOAD_INLINE_DATA goes to I2M in one piece. */
    if (ch->dec_mode == NV_MODE_NONINC && ch->dec_method == NVA140_LOAD_INLINE_DATA) {
        uint32_t cls = ch->bound[subch];
        int oi = cls ? nv_obj_index(cls) : -1;
        if ((oi == NV_OBJ_I2M || oi == NV_OBJ_3D || oi == NV_OBJ_COMPUTE) && !ch->slow) {
            nv_obj *o = &ch->objs[oi];
            o->regs[NVA140_LOAD_INLINE_DATA >> 2] = w[n - 1];
            ch->methods += n;
            ch->gpu->time += n;
            cg_agent ag = nv_agent(ch, "i2m", addr, ch->hdr_word, w[0]);
            if (nv_i2m_data(ch, o, w, n, &ag) != 0)
                ch->state = CG_NV_CH_FAULTED;
            return n;
        }
    }
    /* Fast path: plain stores to a bound engine, no tracing. */
    int oi = ch->bound_oi[subch];
    if (oi >= 0 && ch->dec_method >= 0x100 && !ch->slow) {
        const uint32_t *plain = ch->gpu->plain[oi];
        uint32_t *regs = ch->objs[oi].regs;
        size_t i = 0;
        if (ch->dec_mode == NV_MODE_NONINC) {
            uint32_t idx = ch->dec_method >> 2;
            if (idx < NV_NREGS && (plain[idx / 32] & (1u << (idx % 32)))) {
                regs[idx] = w[n - 1];
                ch->methods += n;
                ch->gpu->time += n;
                return n;
            }
            /* LOAD_CONSTANT_BUFFER runs: one bounded write for the run */
            if (oi == NV_OBJ_3D && idx < NV_NREGS && ch->gpu->act[oi][idx] == NV_ACT_CB_LOAD) {
                uint32_t *pos = &regs[NVB197_LOAD_CONSTANT_BUFFER_OFFSET >> 2];
                uint32_t size;
                uint64_t cb = cb_target(regs, &size);
                uint64_t bad;
                /* only when nothing can fault: otherwise the word-by-word
                 * path raises the fault at the exact word */
                if ((uint64_t)*pos + 4ull * n <= size &&
                    cg_vas_check(ch->vas, cb + *pos, 4ull * n, true, &bad) == CG_FAULT_NONE) {
                    cg_agent ag = nv_agent(ch, "3d", addr, ch->hdr_word, w[0]);
                    if (cg_vas_write(ch->vas, cb + *pos, w, 4 * n, &ag) != 0) {
                        ch->state = CG_NV_CH_FAULTED; /* e.g. a coherency fault */
                        return n;
                    }
                    regs[idx] = w[n - 1];
                    *pos += 4 * (uint32_t)n;
                    ch->methods += n;
                    ch->gpu->time += n;
                    return n;
                }
            }
        } else {
            for (; i < n; i++) {
                uint32_t idx = ch->dec_method >> 2;
                if (idx >= NV_NREGS || !(plain[idx / 32] & (1u << (idx % 32))))
                    break;
                regs[idx] = w[i];
                ch->dec_method += 4;
                if (ch->dec_mode == NV_MODE_ONE_INC)
                    ch->dec_mode = NV_MODE_NONINC;
                else if (ch->dec_mode == NV_MODE_NONINC)
                    ch->dec_method -= 4;
            }
            ch->methods += i;
            ch->gpu->time += i;
            if (i == n)
                return n;
            w += i;
            n -= i;
            addr += 4 * i;
        }
        if (i) {
            size_t rest = exec_run(ch, w, n, addr);
            return i + rest;
        }
    }
    for (size_t i = 0; i < n; i++) {
        uint32_t m = ch->dec_method;
        if (ch->dec_mode == NV_MODE_INC)
            ch->dec_method += 4;
        else if (ch->dec_mode == NV_MODE_ONE_INC) {
            ch->dec_method += 4;
            ch->dec_mode = NV_MODE_NONINC;
        }
        exec_method(ch, subch, m & 0x7FFC, w[i], addr + 4 * i);
        if (must_stop(ch))
            return i + 1;
    }
    return n;
}

/* Copy n >= 1 words between buffers that do not overlap. Short runs (the
 * common INC headers of 1-8 methods) use two fixed-size, possibly
 * overlapping copies that compile to plain moves, instead of a libc call
 * whose size is unpredictable. */
static inline void copy_words(uint32_t *restrict d, const uint32_t *restrict s, uint32_t n)
{
    if (n >= 4 && n <= 8) {
        memcpy(d, s, 16);
        memcpy(d + n - 4, s + n - 4, 16);
    } else if (n < 4) {
        d[0] = s[0];
        if (n > 1)
            memcpy(d + n - 2, s + n - 2, 8);
    } else {
        memcpy(d, s, 4 * (size_t)n);
    }
}

/* c ? a : b without a branch: compilers turn the ?: into one here, which
 * the random run lengths of real streams would mispredict. */
static inline uint32_t *pick(bool c, uint32_t *a, uint32_t *b)
{
    uintptr_t m = (uintptr_t)0 - (uintptr_t)c;
    return (uint32_t *)(((uintptr_t)a & m) | ((uintptr_t)b & ~m));
}

/* Copy an INC run of n (1..8) words, s to d (no overlap). The words are
 * covered by fixed-size, possibly overlapping stores: 4 bytes at both ends,
 * then 8 and 16 bytes at both ends, which go to junk when the run is
 * shorter. Unlike copy_words this has no branch on the run length, which
 * real streams make unpredictable, and it only stores to d[0..n) (a masked
 * read-modify-write of 8 registers would stall on the stores of the runs
 * just before). Needs 8 readable words at s. */
static inline void store_run8(uint32_t *d, const uint32_t *s, uint32_t n, uint32_t *junk)
{
    uint32_t e = n - 1, h2 = n >= 2 ? n - 2 : 0, h4 = n >= 4 ? n - 4 : 0;
    uint32_t a0 = s[0], a1 = s[e];
    uint32_t b0[2], b1[2], c0[4], c1[4];
    memcpy(b0, s, 8);
    memcpy(b1, s + h2, 8);
    memcpy(c0, s, 16);
    memcpy(c1, s + h4, 16);
    memcpy(pick(n >= 4, d, junk), c0, 16);
    memcpy(pick(n >= 4, d + h4, junk), c1, 16);
    memcpy(pick(n >= 2, d, junk), b0, 8);
    memcpy(pick(n >= 2, d + h2, junk), b1, 8);
    d[0] = a0;
    d[e] = a1;
}

/* memmove of n words (constant-buffer runs: the buffer may be the
 * pushbuffer itself). 4 to 16 words go as four 16-byte windows at 0, 4, 8
 * and n - 4 (clamped, so they overlap for short runs), all loaded before
 * any is stored: no branch on the length and no libc call. */
static inline void move_words(void *d, const uint32_t *s, uint32_t n)
{
    if (n >= 4 && n <= 16) {
        uint32_t o1 = n >= 8 ? 4 : n - 4, o2 = n >= 12 ? 8 : n - 4, o3 = n - 4;
        uint32_t t0[4], t1[4], t2[4], t3[4];
        uint8_t *db = d;
        memcpy(t0, s, 16);
        memcpy(t1, s + o1, 16);
        memcpy(t2, s + o2, 16);
        memcpy(t3, s + o3, 16);
        memcpy(db, t0, 16);
        memcpy(db + 4 * o1, t1, 16);
        memcpy(db + 4 * o2, t2, 16);
        memcpy(db + 4 * o3, t3, 16);
    } else {
        memmove(d, s, 4 * (size_t)n);
    }
}

/* Fast path: whole runs of plain stores to bound engines, decoded with
 * locals only. It stops at anything else (host methods, actions, runs that
 * leave the chunk), which the full loop in process_words then handles; that
 * loop comes back here after each header. Returns the new position.
 *
 * The opcode stays a branch: a branch-free decode (data count, store count
 * and value chosen with masks, one store path for IMMD, INC and NONINC) was
 * measured slower, about 20 cycles a header even for a stream of IMMD only,
 * as the next header's position then always waits on this one's load,
 * while a predicted branch lets IMMD run ahead at about 6.
 * Kept out of line: inlined into its caller the loop's registers spill. */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static size_t fast_decode(cg_nv_channel *ch, const uint32_t *w, size_t n, uint64_t addr, size_t i)
{
    const cg_nv_gpu *gpu = ch->gpu;
    uint64_t nm = 0;
    size_t last = SIZE_MAX;
    /* per-subchannel tables in locals: stores to regs cannot change them */
    uint32_t *regs_of[8];
    const uint16_t *run_of[8];
    for (int s = 0; s < 8; s++) {
        int oi = ch->bound_oi[s];
        regs_of[s] = oi >= 0 ? ch->objs[oi].regs : NULL;
        run_of[s] = oi >= 0 ? gpu->plain_run[oi] : NULL;
    }
    uint32_t *const regs3d = ch->objs[NV_OBJ_3D].regs;
    /* The page the last LOAD_CONSTANT_BUFFER run was written to, as
     * cg__vas_span found it writable plain memory. Nothing in this loop maps,
     * unmaps or changes coherency, so the page stays valid; the pushbuffer
     * fetch shares the one-entry TLB of the address space, so without this
     * every run would walk the page table again. */
    uint64_t cb_vpn = UINT64_MAX;
    uint8_t *cb_page = NULL;
    uint32_t junk[4]; /* store_run8's stores that fall outside the run */
    while (i < n) {
        uint32_t h = w[i];
        uint32_t sec = h >> 29, s = (h >> 13) & 7, idx = h & 0x1FFF;
        uint32_t cnt = (h >> 16) & 0x1FFF;
        uint32_t *regs = regs_of[s];
        const uint16_t *run = run_of[s];
        size_t left = n - i;
        if (!run || idx >= NV_NREGS)
            break;
        switch (sec) {
        case CG_NV_SEC_IMMD_DATA_METHOD:
            if (!run[idx])
                goto out;
            regs[idx] = cnt;
            last = i++;
            nm++;
            continue;
        case CG_NV_SEC_INC_METHOD:
            if (cnt == 0 || cnt >= left || run[idx] < cnt)
                goto out;
            if (cnt <= 8 && left > 8)
                store_run8(regs + idx, w + i + 1, cnt, junk);
            else
                copy_words(regs + idx, w + i + 1, cnt);
            break;
        case CG_NV_SEC_NON_INC_METHOD:
            if (cnt == 0 || cnt >= left)
                goto out;
            if (!run[idx]) {
                /* LOAD_CONSTANT_BUFFER runs straight into plain memory */
                if (regs != regs3d || ch->gpu->act[NV_OBJ_3D][idx] != NV_ACT_CB_LOAD)
                    goto out;
                uint32_t *pos = &regs[NVB197_LOAD_CONSTANT_BUFFER_OFFSET >> 2];
                uint32_t size;
                uint64_t cb = cb_target(regs, &size);
                if ((uint64_t)*pos + 4ull * cnt > size)
                    goto out;
                uint64_t va = cb + *pos;
                size_t len = 4 * (size_t)cnt, in_page = (size_t)(va & CG__PAGE_MASK);
                uint8_t *dp;
                if ((va >> CG__PAGE_SHIFT) == cb_vpn && in_page + len <= CG_PAGE_SIZE) {
                    dp = cb_page + in_page;
                } else {
                    if (cg__vas_span(ch->vas, va, len, true, &dp) != len)
                        goto out;
                    cb_vpn = va >> CG__PAGE_SHIFT;
                    cb_page = dp - in_page;
                }
                move_words(dp, w + i + 1, cnt);
                *pos += 4 * cnt;
            }
            regs[idx] = w[i + cnt];
            break;
        case CG_NV_SEC_ONE_INC:
            if (cnt == 0 || cnt >= left || run[idx] < (cnt > 1 ? 2 : 1))
                goto out;
            regs[idx] = w[i + 1];
            if (cnt > 1)
                regs[idx + 1] = w[i + cnt];
            break;
        default:
            goto out;
        }
        last = i;
        i += 1 + cnt;
        nm += cnt;
    }
out:
    ch->methods += nm;
    ch->gpu->time += nm;
    if (last != SIZE_MAX) {
        ch->hdr_addr = addr + 4 * last;
        ch->hdr_word = w[last];
    }
    return i;
}

enum { PW_OK, PW_STOP, PW_END };

/* Decode and execute words; *used = words consumed. */
static int process_words(cg_nv_channel *ch, const uint32_t *w, size_t n, uint64_t addr,
                         size_t *used)
{
    size_t i = 0;
    int st = PW_OK;
    while (i < n) {
        if (!ch->dec_remaining && !ch->slow && (ch->subdev_mask & 1)) {
            i = fast_decode(ch, w, n, addr, i);
            if (i >= n)
                break;
        }
        if (ch->dec_remaining) {
            size_t k = ch->dec_remaining < n - i ? ch->dec_remaining : n - i;
            size_t c = exec_run(ch, w + i, k, addr + 4 * i);
            ch->dec_remaining -= (uint32_t)c;
            i += c;
            if (must_stop(ch)) {
                st = PW_STOP;
                break;
            }
            continue;
        }
        uint32_t h = w[i];
        ch->hdr_addr = addr + 4 * i;
        ch->hdr_word = h;
        i++;
        uint32_t count = (h >> 16) & 0x1FFF;
        switch (h >> 29) {
        case CG_NV_SEC_INC_METHOD:
            ch->dec_mode = NV_MODE_INC;
            goto method;
        case CG_NV_SEC_NON_INC_METHOD:
            ch->dec_mode = NV_MODE_NONINC;
            goto method;
        case CG_NV_SEC_ONE_INC:
            ch->dec_mode = NV_MODE_ONE_INC;
        method:
            ch->dec_method = (h & 0x1FFF) << 2;
            ch->dec_subch = (uint8_t)((h >> 13) & 7);
            ch->dec_remaining = count;
            break;
        case CG_NV_SEC_IMMD_DATA_METHOD: {
            unsigned s = (h >> 13) & 7;
            uint32_t idx = h & 0x1FFF;
            int oi = ch->bound_oi[s];
            if (!(ch->subdev_mask & 1))
                break;
            if (oi >= 0 && !ch->slow && idx < NV_NREGS &&
                (ch->gpu->plain[oi][idx / 32] & (1u << (idx % 32)))) {
                ch->objs[oi].regs[idx] = count; /* a plain store */
                ch->methods++;
                ch->gpu->time++;
                continue;
            }
            exec_method(ch, s, idx << 2, count, ch->hdr_addr);
            break;
        }
        case CG_NV_SEC_GRP0_USE_TERT:
        case CG_NV_SEC_GRP2_USE_TERT:
            switch ((h >> 16) & 3) {
            case CG_NV_TERT_OLD_METHOD:
                ch->dec_mode = (h >> 29) == 0 ? NV_MODE_INC : NV_MODE_NONINC;
                ch->dec_method = h & 0x1FFC;
                ch->dec_subch = (uint8_t)((h >> 13) & 7);
                ch->dec_remaining = (h >> 18) & 0x7FF;
                break;
            case CG_NV_TERT_SET_SUB_DEVICE_MASK:
                ch->subdev_mask = (h >> 4) & 0xFFF;
                break;
            case CG_NV_TERT_STORE_SUB_DEVICE_MASK:
                ch->stored_mask = (h >> 4) & 0xFFF;
                break;
            default:
                ch->subdev_mask = ch->stored_mask;
                break;
            }
            break;
        case CG_NV_SEC_RESERVED6: {
            /* the header alone: a reserved opcode has no data word */
            cg_agent ag = nv_agent(ch, "pfifo", ch->hdr_addr, h, 0);
            ag.nwords = 1;
            nv_fault(ch, &ag, CG_FAULT_INVALID_OPCODE, 0,
                     "pushbuffer word 0x%08x: secondary opcode 6 is reserved", h);
            break;
        }
        default: /* END_PB_SEGMENT */
            *used = i;
            return PW_END;
        }
        if (must_stop(ch)) {
            st = PW_STOP;
            break;
        }
    }
    *used = i;
    return st;
}

/* Start the next GPFIFO entry. false if the ring is empty or it faulted. */
static bool next_entry(cg_nv_channel *ch)
{
    while (ch->gp_get != ch->gp_put) {
        nv_ring_entry *re = &ch->ring[ch->gp_get & (ch->num_entries - 1)];
        ch->gp_get = (ch->gp_get + 1) & (2 * ch->num_entries - 1);
        ch->seg_pos = 0;
        ch->chunk_pos = ch->chunk_len = 0;
        if (re->nk) {
            ch->seg_kernel = true;
            ch->seg_kw = re->kw;
            ch->seg_len = re->nk;
            ch->seg_va = 0;
            ch->in_seg = true;
            return true;
        }
        uint32_t e0 = (uint32_t)re->e, e1 = (uint32_t)(re->e >> 32);
        uint32_t len = (e1 >> 10) & 0x1FFFFF;
        if (len == 0) {
            /* Control entry: LENGTH 0 turns E1 7:0 into an OPCODE, NOP 0,
             * ILLEGAL 1, GP_CRC 2, PB_CRC 3 (clb06f.h NVB06F_GP_ENTRY1_OPCODE
             * in newer headers; research/nv.md section 1). A NOP control entry
             * is skipped, as yuzu skips every zero-length entry. */
            uint32_t op = e1 & 0xFF;
            ch->hdr_addr = 0;
            ch->hdr_word = e1;
            if (op == CG_NV_GP_OP_NOP)
                continue;
            /* The record holds the entry as the ring holds it, {E0, E1}; the
             * ring is kernel memory, not GPU memory: stream address 0. */
            cg_agent ag = nv_agent(ch, "pfifo", 0, e0, e1);
            if (op == CG_NV_GP_OP_ILLEGAL)
                nv_fault(ch, &ag, CG_FAULT_INVALID_OPCODE, 0,
                         "GPFIFO entry %u: control entry ILLEGAL (operand 0x%08x)",
                         (ch->gp_get - 1) & (ch->num_entries - 1), e0);
            else if (op == CG_NV_GP_OP_GP_CRC || op == CG_NV_GP_OP_PB_CRC)
                nv_fault(ch, &ag, CG_FAULT_UNSUPPORTED, 0,
                         "GPFIFO control entry %s not supported yet",
                         op == CG_NV_GP_OP_GP_CRC ? "GP_CRC" : "PB_CRC");
            else
                nv_fault(ch, &ag, CG_FAULT_INVALID_OPCODE, 0,
                         "GPFIFO control entry with unknown opcode 0x%02x", op);
            return false;
        }
        /* GET 31:2 and GET_HI 7:0 make a 40-bit address; FETCH, PRIV, LEVEL
         * and SYNC change nothing in a model that fetches in order. */
        ch->seg_va = (uint64_t)(e1 & 0xFF) << 32 | (e0 & ~3u);
        ch->seg_len = len;
        ch->seg_kernel = false;
        ch->in_seg = true;
        return true;
    }
    return false;
}

/* Run one channel for up to `budget` methods. Returns methods executed. */
static uint64_t channel_run(cg_nv_channel *ch, uint64_t budget)
{
    uint64_t start = ch->methods;
    if (ch->state == CG_NV_CH_FAULTED)
        return 0;
    ch->yield = false;
    ch->tracing = cg_trace_enabled(ch->gpu->dev);
    ch->slow = ch->tracing || ch->call.pending;
    if (ch->wait != NV_WAIT_NONE) {
        int ok = wait_check(ch);
        if (ok < 0)
            return 0;
        if (!ok) {
            ch->state = CG_NV_CH_BLOCKED;
            return 0;
        }
        ch->wait = NV_WAIT_NONE;
        ch->wait_runs = 0;
    }
    ch->state = CG_NV_CH_RUNNING;
    while (ch->methods - start < budget) {
        if (!ch->in_seg && !next_entry(ch)) {
            if (ch->call.pending)
                mme_flush(ch); /* nothing more can follow: the call runs */
            if (ch->state != CG_NV_CH_FAULTED)
                ch->state = CG_NV_CH_IDLE;
            break;
        }
        if (ch->seg_pos >= ch->seg_len) {
            ch->in_seg = false;
            continue;
        }
        const uint32_t *w;
        const uint32_t *direct = NULL;
        uint8_t *page = NULL;
        size_t avail = 0;
        uint64_t addr = ch->seg_va + 4ull * ch->seg_pos;
        if (ch->seg_kernel) {
            w = ch->seg_kw + ch->seg_pos;
            avail = ch->seg_len - ch->seg_pos;
        } else if (ch->chunk_pos == ch->chunk_len &&
                   (avail = cg__vas_span(ch->vas, addr,
                                         4 * (size_t)(ch->seg_len - ch->seg_pos), false,
                                         &page)) >= 4) {
            /* the words in place, up to the end of their page: no copy
             * (mem_internal.h); a word is read when it is decoded. The
             * address is 4-aligned and pages are page-aligned host memory. */
            direct = (const uint32_t *)(const void *)page;
            w = direct;
            avail /= 4;
        } else {
            if (ch->chunk_pos == ch->chunk_len) {
                uint32_t k = ch->seg_len - ch->seg_pos;
                if (k > NV_CHUNK)
                    k = NV_CHUNK;
                cg_agent ag = nv_agent(ch, "pfifo", addr, ch->hdr_word, 0);
                ag.nwords = 0;
                if (cg_vas_read(ch->vas, addr, ch->chunk, 4ull * k, &ag) != 0) {
                    ch->state = CG_NV_CH_FAULTED;
                    break;
                }
                ch->chunk_pos = 0;
                ch->chunk_len = k;
            }
            w = ch->chunk + ch->chunk_pos;
            avail = ch->chunk_len - ch->chunk_pos;
        }
        size_t used = 0;
        int st = process_words(ch, w, avail, addr, &used);
        ch->seg_pos += (uint32_t)used;
        if (!direct)
            ch->chunk_pos += (uint32_t)used;
        if (st == PW_END) {
            ch->in_seg = false;
            continue;
        }
        if (st == PW_STOP) {
            if (ch->state == CG_NV_CH_FAULTED)
                break;
            if (ch->wait != NV_WAIT_NONE) {
                int ok = wait_check(ch);
                if (ok < 0)
                    break;
                if (!ok) {
                    ch->state = CG_NV_CH_BLOCKED;
                    break;
                }
                ch->wait = NV_WAIT_NONE;
            }
            if (ch->yield)
                break;
        }
    }
    /* a channel still RUNNING here used up its timeslice and has more to do */
    return ch->methods - start;
}

static bool channel_has_work(const cg_nv_channel *ch)
{
    return ch->state != CG_NV_CH_FAULTED &&
           (ch->in_seg || ch->gp_get != ch->gp_put || ch->wait != NV_WAIT_NONE ||
            ch->call.pending);
}

#define NV_TIMESLICE (1u << 20)

static void watchdog_fire(cg_nv_channel *ch)
{
    cg_agent ag = nv_agent(ch, ch->wait_unit ? ch->wait_unit : "host", ch->wait_hdr_addr,
                          ch->wait_words[0], ch->wait_words[1]);
    if (ch->wait == NV_WAIT_SYNCPT) {
        cg_fault_post(ch->gpu->dev, &ag, CG_FAULT_HANG, 0,
                      "budget %s: syncpoint %u wait never satisfied: value %u, waiting for %u",
                      cg_budget_name(CG_BUDGET_NV_WAIT_RUNS), ch->wait_id, ch->gpu->syncpt[ch->wait_id], ch->wait_value);
    } else {
        uint32_t cur = 0;
        cg_vas_read32(ch->vas, ch->wait_addr, &cur, &ag);
        cg_fault_post(ch->gpu->dev, &ag, CG_FAULT_HANG, ch->wait_addr,
                      "budget %s: semaphore acquire at 0x%010llx never satisfied: memory "
                      "holds 0x%08x, %s 0x%08x",
                      cg_budget_name(CG_BUDGET_NV_WAIT_RUNS), (unsigned long long)ch->wait_addr, cur, sem_op_name(ch->wait_op),
                      ch->wait_value);
    }
    ch->state = CG_NV_CH_FAULTED;
    ch->wait = NV_WAIT_NONE;
}

int64_t cg_nv_gpu_run(cg_nv_gpu *gpu)
{
    if (!gpu)
        return CG_ERR_INVAL;
    int64_t total = 0;
    bool progress = true;
    while (progress) {
        progress = false;
        for (cg_nv_channel *ch = gpu->channels; ch; ch = ch->next) {
            if (!channel_has_work(ch))
                continue;
            bool was_waiting = ch->wait != NV_WAIT_NONE;
            uint32_t gp = ch->gp_get;
            uint32_t pos = ch->seg_pos;
            uint64_t n = channel_run(ch, NV_TIMESLICE);
            total += (int64_t)n;
            if (n || ch->gp_get != gp || ch->seg_pos != pos ||
                (was_waiting && ch->wait == NV_WAIT_NONE))
                progress = true;
        }
    }
    /* Watchdog: a wait that survived another whole run without progress. */
    for (cg_nv_channel *ch = gpu->channels; ch; ch = ch->next) {
        if (ch->state == CG_NV_CH_BLOCKED && ch->wait != NV_WAIT_NONE) {
            if (++ch->wait_runs >= gpu->watchdog)
                watchdog_fire(ch);
        }
    }
    return total;
}

int64_t cg_nv_gpu_finish(cg_nv_gpu *gpu)
{
    if (!gpu)
        return CG_ERR_INVAL;
    int64_t total = 0;
    for (;;) {
        int64_t n = cg_nv_gpu_run(gpu);
        if (n < 0)
            return n;
        total += n;
        bool blocked = false;
        for (cg_nv_channel *ch = gpu->channels; ch; ch = ch->next)
            blocked |= ch->state == CG_NV_CH_BLOCKED;
        if (!blocked)
            return total;
    }
}

int cg_nv_fence_wait(cg_nv_gpu *gpu, cg_nv_fence f, uint32_t timeout_ms)
{
    if (!gpu || f.id >= CG_NV_NUM_SYNCPTS)
        return CG_ERR_INVAL;
    if (cg_nv_fence_reached(gpu, f))
        return 0;
    if (timeout_ms == 0)
        return CG_ERR_TIMEOUT;
    int64_t n = cg_nv_gpu_run(gpu);
    if (n < 0)
        return (int)n;
    return cg_nv_fence_reached(gpu, f) ? 0 : CG_ERR_TIMEOUT;
}

/* ---- channels ------------------------------------------------------------ */

int cg_nv_channel_open(cg_nv_gpu *gpu, cg_nv_as *as, uint32_t num_entries, cg_nv_channel **out)
{
    if (!gpu || !as || !out || as->gpu != gpu)
        return CG_ERR_INVAL;
    if (num_entries == 0)
        num_entries = 1024;
    if ((num_entries & (num_entries - 1)) || num_entries < 2 || num_entries > (1u << 20)) {
        nv_gpu_error(gpu, "channel: GPFIFO size %u is not a power of two in [2, 2^20]",
                     num_entries);
        return CG_ERR_INVAL;
    }
    uint32_t sp = CG_NV_NUM_SYNCPTS;
    for (uint32_t i = 1; i < CG_NV_NUM_SYNCPTS; i++)
        if (!gpu->syncpt_used[i]) {
            sp = i;
            break;
        }
    if (sp == CG_NV_NUM_SYNCPTS) {
        nv_gpu_error(gpu, "channel: no free syncpoint");
        return CG_ERR_NOSPACE;
    }
    cg_nv_channel *ch = cg__alloc(gpu->dev, sizeof(*ch));
    if (!ch)
        return CG_ERR_NOMEM;
    ch->ring = cg__alloc(gpu->dev, sizeof(nv_ring_entry) * num_entries);
    if (!ch->ring) {
        cg__free(gpu->dev, ch, sizeof(*ch));
        return CG_ERR_NOMEM;
    }
    ch->gpu = gpu;
    ch->as = as;
    ch->vas = as->vas;
    ch->id = gpu->next_channel_id++;
    ch->num_entries = num_entries;
    ch->syncpt = sp;
    gpu->syncpt_used[sp] = true;
    ch->subdev_mask = ch->stored_mask = 0xFFF;
    memset(ch->bound_oi, -1, sizeof(ch->bound_oi));
    ch->state = CG_NV_CH_IDLE;
    cg_nv_channel **pp = &gpu->channels;
    while (*pp)
        pp = &(*pp)->next;
    *pp = ch;
    *out = ch;
    return 0;
}

static void channel_free(cg_nv_channel *ch)
{
    cg_device *dev = ch->gpu->dev;
    for (int i = 0; i < NV_NOBJ; i++) {
        if (ch->objs[i].regs)
            cg__free(dev, ch->objs[i].regs, NV_NREGS * 4);
        if (ch->objs[i].i2m.buf)
            cg__free(dev, ch->objs[i].i2m.buf, ch->objs[i].i2m.buf_cap);
    }
    if (ch->mme)
        cg__free(dev, ch->mme, sizeof(*ch->mme));
    nv3d_state_free(ch);
    if (ch->call.params)
        cg__free(dev, ch->call.params, 4 * (size_t)ch->call.cap);
    ch->gpu->syncpt_used[ch->syncpt] = false;
    cg__free(dev, ch->ring, sizeof(nv_ring_entry) * ch->num_entries);
    cg__free(dev, ch, sizeof(*ch));
}

void cg_nv_channel_close(cg_nv_channel *ch)
{
    if (!ch)
        return;
    cg_nv_channel **pp = &ch->gpu->channels;
    while (*pp && *pp != ch)
        pp = &(*pp)->next;
    if (*pp)
        *pp = ch->next;
    channel_free(ch);
}

void nv_gpu_free_channels(cg_nv_gpu *gpu);
void nv_gpu_free_channels(cg_nv_gpu *gpu)
{
    while (gpu->channels) {
        cg_nv_channel *ch = gpu->channels;
        gpu->channels = ch->next;
        channel_free(ch);
    }
}

int cg_nv_channel_id(const cg_nv_channel *ch)
{
    return ch ? ch->id : -1;
}

uint32_t cg_nv_channel_syncpt(const cg_nv_channel *ch)
{
    return ch ? ch->syncpt : 0;
}

static uint32_t ring_free(const cg_nv_channel *ch)
{
    uint32_t used = (ch->gp_put - ch->gp_get) & (2 * ch->num_entries - 1);
    return ch->num_entries - used;
}

static void ring_push(cg_nv_channel *ch, const nv_ring_entry *re)
{
    ch->ring[ch->gp_put & (ch->num_entries - 1)] = *re;
    ch->gp_put = (ch->gp_put + 1) & (2 * ch->num_entries - 1);
}

int cg_nv_channel_submit_gpfifo(cg_nv_channel *ch, const uint64_t *entries, uint32_t count,
                                uint32_t flags, cg_nv_fence *fence)
{
    if (!ch || (count && !entries) ||
        ((flags & (CG_NV_SUBMIT_FENCE_WAIT | CG_NV_SUBMIT_FENCE_INCREMENT)) && !fence))
        return CG_ERR_INVAL;
    cg_nv_gpu *gpu = ch->gpu;
    if (ch->state == CG_NV_CH_FAULTED) {
        nv_gpu_error(gpu, "SUBMIT_GPFIFO: channel %d has faulted and stopped", ch->id);
        return CG_ERR_PERM;
    }
    if ((flags & CG_NV_SUBMIT_FENCE_WAIT) && fence->id >= CG_NV_NUM_SYNCPTS) {
        nv_gpu_error(gpu, "SUBMIT_GPFIFO: fence syncpoint %u does not exist", fence->id);
        return CG_ERR_INVAL;
    }
    uint32_t need = count + ((flags & CG_NV_SUBMIT_FENCE_WAIT) ? 1 : 0) +
                    ((flags & CG_NV_SUBMIT_FENCE_INCREMENT) ? 1 : 0);
    if (need > ring_free(ch)) {
        nv_gpu_error(gpu, "SUBMIT_GPFIFO: %u entries do not fit, %u free of %u", need,
                     ring_free(ch), ch->num_entries);
        return CG_ERR_BUSY;
    }
    /* The kernel's own words, as yuzu nvhost_gpu.cpp and Ryujinx build them:
     * a wait is SYNCPOINTA=value, SYNCPOINTB=WAIT|id<<8; an increment is WFI
     * (unless suppressed) and SYNCPOINTB=INCR|id<<8 twice, fence value + 2. */
    if (flags & CG_NV_SUBMIT_FENCE_WAIT) {
        nv_ring_entry re = {0};
        re.kw[re.nk++] = cg_nv_hdr(CG_NV_SEC_INC_METHOD, 0, NVB06F_SYNCPOINTA, 2);
        re.kw[re.nk++] = fence->value;
        re.kw[re.nk++] = 0u | fence->id << 8;
        ring_push(ch, &re);
    }
    for (uint32_t i = 0; i < count; i++) {
        nv_ring_entry re = {0};
        re.e = entries[i];
        ring_push(ch, &re);
    }
    if (flags & CG_NV_SUBMIT_FENCE_INCREMENT) {
        nv_ring_entry re = {0};
        if (!(flags & CG_NV_SUBMIT_SUPPRESS_WFI))
            re.kw[re.nk++] = cg_nv_hdr(CG_NV_SEC_IMMD_DATA_METHOD, 0, NVB06F_WFI, 0);
        re.kw[re.nk++] = cg_nv_hdr(CG_NV_SEC_NON_INC_METHOD, 0, NVB06F_SYNCPOINTB, 2);
        re.kw[re.nk++] = 1u | ch->syncpt << 8;
        re.kw[re.nk++] = 1u | ch->syncpt << 8;
        ring_push(ch, &re);
        gpu->syncpt_max[ch->syncpt] += 2;
        fence->id = ch->syncpt;
        fence->value = gpu->syncpt_max[ch->syncpt];
    }
    if (ch->state == CG_NV_CH_IDLE && (count || need))
        ch->state = CG_NV_CH_RUNNING;
    return 0;
}

int cg_nv_channel_info_get(const cg_nv_channel *ch, cg_nv_channel_info *out)
{
    if (!ch || !out)
        return CG_ERR_INVAL;
    memset(out, 0, sizeof(*out));
    out->state = ch->state;
    out->gp_get = ch->gp_get & (ch->num_entries - 1);
    out->gp_put = ch->gp_put & (ch->num_entries - 1);
    out->num_entries = ch->num_entries;
    out->pb_addr = ch->seg_va + 4ull * ch->seg_pos;
    out->reference = ch->reference;
    memcpy(out->bound, ch->bound, sizeof(out->bound));
    out->methods = ch->methods;
    return 0;
}
