/* nv: the host class, MAXWELL_CHANNEL_GPFIFO_A (B06F) + the A26F syncpoint
 * methods: semaphores, syncpoints, waits, SET_OBJECT binding, WFI and the
 * rest of clb06f.h's methods below 0x100. The reductions its semaphores
 * share with the I2M, copy and 3D report semaphores are in reduce.c. Sources: research/nv.md sections 2-3 (clb06f.h,
 * cla26f.h, yuzu puller.cpp, Ryujinx GPFifoClass.cs). */
#include <limits.h>
#include <stddef.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "core/mem_internal.h"
#include "nv/tables/fields.h"
#include "pfifo.h"
#include "threed.h"

/* ---- the host class ------------------------------------------------------ */

const char *nv_sem_op_name(uint32_t op)
{
    switch (op) {
    case NVB06F_SEMAPHORED_OPERATION_ACQUIRE: return "ACQUIRE (==)";
    case NVB06F_SEMAPHORED_OPERATION_ACQ_GEQ: return "ACQ_GEQ (>=)";
    case NVB06F_SEMAPHORED_OPERATION_ACQ_AND: return "ACQ_AND (&)";
    default: return "?";
    }
}

/* Is the pending wait satisfied? <0 on a memory fault. */
int nv_wait_check(cg_nv_channel *ch)
{
    if (ch->wait == NV_WAIT_SYNCPT)
        return nv_syncpt_reached(ch->gpu->syncpt[ch->wait_id], ch->wait_value);
    uint32_t cur;
    cg_agent ag = nv_agent(ch, ch->wait_unit ? ch->wait_unit : "host", ch->wait_hdr_addr,
                          ch->wait_words[0], ch->wait_words[1]);
    if (cg_vas_read32(ch->vas, ch->wait_addr, &cur, &ag) != 0) {
        ch->state = CG_NV_CH_FAULTED;
        return -1;
    }
    switch (ch->wait_op) {
    case NVB06F_SEMAPHORED_OPERATION_ACQUIRE: return cur == ch->wait_value;
    /* ACQ_GEQ: the model compares circularly ((int32)(mem - payload) >= 0),
     * like host1x syncpoints; later NVIDIA host classes split this into
     * ACQ_STRICT_GEQ and ACQ_CIRC_GEQ, and which one Maxwell's ACQ_GEQ is
     * was not in our sources: an assumption, tested as such. */
    case NVB06F_SEMAPHORED_OPERATION_ACQ_GEQ: return (int32_t)(cur - ch->wait_value) >= 0;
    default: return (cur & ch->wait_value) != 0;
    }
}

static int host_semaphored(cg_nv_channel *ch, uint32_t v, uint64_t addr)
{
    uint64_t sem = nv_host_sem_addr(ch->sem_hi, ch->sem_lo);
    uint32_t op = NV_VAL(NVB06F, SEMAPHORED, OPERATION, v);
    uint32_t red = NV_VAL(NVB06F, SEMAPHORED, REDUCTION, v);
    bool four_bytes = NV_VAL(NVB06F, SEMAPHORED, RELEASE_SIZE, v) ==
                      NVB06F_SEMAPHORED_RELEASE_SIZE_4BYTE;
    cg_agent ag = nv_agent(ch, "host", addr, ch->hdr_word, v);
    switch (op) {
    case NVB06F_SEMAPHORED_OPERATION_ACQUIRE:
    case NVB06F_SEMAPHORED_OPERATION_ACQ_GEQ:
    case NVB06F_SEMAPHORED_OPERATION_ACQ_AND:
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
    case NVB06F_SEMAPHORED_OPERATION_RELEASE: {
        /* RELEASE_SIZE 24: 1 = 4 bytes; 0 = 16 bytes: payload, 0, then the
         * 64-bit timestamp (Ryujinx GPFifoClass.cs; clb06f.h). */
        int rc;
        if (four_bytes) {
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
                    four_bytes ? 4 : 16, "semaphore release");
        return 0;
    }
    case NVB06F_SEMAPHORED_OPERATION_REDUCTION: {
        /* the operation is decoded before memory is touched: an undefined
         * reduction faults as such even where the semaphore is unmapped */
        if (red > NVB06F_SEMAPHORED_REDUCTION_DEC)
            return nv_ch_fault(ch, "host", CG_FAULT_BAD_STATE, addr, sem, v,
                            "SEMAPHORED: reduction %u is not defined", red);
        uint32_t old;
        if (cg_vas_read32(ch->vas, sem, &old, &ag) != 0) {
            ch->state = CG_NV_CH_FAULTED;
            return CG_ERR_FAULT;
        }
        uint32_t nv = nv_reduce(old, ch->sem_payload, red,
                                NV_VAL(NVB06F, SEMAPHORED, FORMAT, v) ==
                                    NVB06F_SEMAPHORED_FORMAT_SIGNED);
        if (cg_vas_write32(ch->vas, sem, nv, &ag) != 0) {
            ch->state = CG_NV_CH_FAULTED;
            return CG_ERR_FAULT;
        }
        nv_trace_event(ch, CG_TRACE_FENCE, "host", NVB06F_SEMAPHORED, nv, sem, 4,
                    "semaphore reduction");
        return 0;
    }
    default:
        return nv_ch_fault(ch, "host", CG_FAULT_BAD_STATE, addr, sem, v,
                        "SEMAPHORED: operation 0x%x is not one of ACQUIRE 1, RELEASE 2, "
                        "ACQ_GEQ 4, ACQ_AND 8, REDUCTION 16", op);
    }
}

/* ---- the host methods, by method (clb06f.h; cmd_info[]-style table) ----- */

static int host_set_object(cg_nv_channel *ch, unsigned subch, uint32_t v, uint64_t addr)
{
    uint32_t cls = NV_VAL(NVB06F, SET_OBJECT, NVCLASS, v);
    int oi = nv_obj_index(cls);
    if (oi < 0)
        return nv_ch_fault(ch, "host", CG_FAULT_INVALID_CLASS, addr, 0, v,
                        "SET_OBJECT: class 0x%04x on subchannel %u is not one of 902D, "
                        "B197, B1C0, A140, B0B5", cls, subch);
    nv_obj *o = &ch->objs[oi];
    if (!o->regs) {
        o->regs = cg__alloc(ch->gpu->dev, NV_NREGS * 4);
        if (!o->regs)
            return nv_ch_fault(ch, "host", CG_FAULT_OUT_OF_MEMORY, addr, 0, v,
                            "SET_OBJECT: no host memory for the register file");
    }
    o->class_id = cls;
    ch->bound[subch] = cls;
    ch->bound_oi[subch] = (int8_t)oi;
    return 0;
}

static int host_illegal(cg_nv_channel *ch, unsigned subch, uint32_t v, uint64_t addr)
{
    (void)subch;
    return nv_ch_fault(ch, "host", CG_FAULT_INVALID_METHOD, addr, 0, v,
                    "ILLEGAL method (handle 0x%08x): deliberate illegal-method interrupt", v);
}

static int host_semaphored_m(cg_nv_channel *ch, unsigned subch, uint32_t v, uint64_t addr)
{
    (void)subch;
    return host_semaphored(ch, v, addr);
}

static int host_non_stall_interrupt(cg_nv_channel *ch, unsigned subch, uint32_t v,
                                    uint64_t addr)
{
    (void)subch, (void)addr;
    nv_trace_event(ch, CG_TRACE_INTERRUPT, "host", NVB06F_NON_STALL_INTERRUPT, v, 0, 0,
                "non-stall interrupt");
    return 0;
}

static int host_mem_op_d(cg_nv_channel *ch, unsigned subch, uint32_t v, uint64_t addr)
{
    (void)subch;
    uint32_t op = NV_VAL(NVB06F, MEM_OP_D, OPERATION, v);
    switch (op) {
    case NVB06F_MEM_OP_D_OPERATION_MEMBAR:
    case NVB06F_MEM_OP_D_OPERATION_MMU_TLB_INVALIDATE:
    case NVB06F_MEM_OP_D_OPERATION_L2_PEERMEM_INVALIDATE:
    case NVB06F_MEM_OP_D_OPERATION_L2_SYSMEM_INVALIDATE:
    case NVB06F_MEM_OP_D_OPERATION_L2_CLEAN_COMPTAGS:
    case NVB06F_MEM_OP_D_OPERATION_L2_FLUSH_DIRTY:
        return 0; /* MEMBAR, TLB invalidate, L2 operations: nothing cached here */
    default:
        return nv_ch_fault(ch, "host", CG_FAULT_BAD_STATE, addr, 0, v,
                        "MEM_OP_D: operation 0x%x is not defined in clb06f.h", op);
    }
}

static int host_syncpointb(cg_nv_channel *ch, unsigned subch, uint32_t v, uint64_t addr)
{
    (void)subch;
    uint32_t id = NV_VAL(NVB06F, SYNCPOINTB, SYNCPT_INDEX, v);
    uint32_t op = NV_VAL(NVB06F, SYNCPOINTB, OPERATION, v);
    if (id >= CG_NV_NUM_SYNCPTS)
        return nv_ch_fault(ch, "host", CG_FAULT_BAD_STATE, addr, 0, v,
                        "SYNCPOINTB: syncpoint %u does not exist (%u)", id,
                        CG_NV_NUM_SYNCPTS);
    if (op == NVB06F_SYNCPOINTB_OPERATION_INCR) {
        ch->gpu->syncpt[id]++;
        nv_trace_event(ch, CG_TRACE_FENCE, "host", NVB06F_SYNCPOINTB, ch->gpu->syncpt[id], 0,
                    id, "syncpoint increment");
        return 0;
    }
    if (op == NVB06F_SYNCPOINTB_OPERATION_WAIT) {
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
    return nv_ch_fault(ch, "host", CG_FAULT_UNSUPPORTED, addr, 0, v,
                    "SYNCPOINTB: BASE_ADD/BASE_WRITE not supported yet");
}

static int host_crc_check(cg_nv_channel *ch, unsigned subch, uint32_t v, uint64_t addr)
{
    (void)subch;
    return nv_ch_fault(ch, "host", CG_FAULT_UNSUPPORTED, addr, 0, v,
                    "CRC_CHECK not supported yet");
}

static int host_yield(cg_nv_channel *ch, unsigned subch, uint32_t v, uint64_t addr)
{
    (void)subch, (void)v, (void)addr;
    ch->yield = true;
    return 0;
}

/* The host methods the model acts on, indexed by method / 4: a handler, or
 * the channel field that keeps the value for a later method (`keep`, the
 * field's offset + 1). A method of the class table without an entry (NOP,
 * WFI: the model runs a channel's work in order; FB_FLUSH, MEM_OP_A..C: no
 * GPU-side caches to flush; the rest) is accepted and does nothing; one
 * outside the table faults. */
#define HOST_NMETHODS 64
typedef int (*host_fn)(cg_nv_channel *ch, unsigned subch, uint32_t v, uint64_t addr);
typedef struct host_method_info {
    host_fn fn;
    uint16_t keep;
} host_method_info;
#define KEEP(f) {NULL, offsetof(cg_nv_channel, f) + 1}
static const host_method_info host_methods[HOST_NMETHODS] = {
    [NVB06F_SET_OBJECT >> 2] = {host_set_object, 0},
    [NVB06F_ILLEGAL >> 2] = {host_illegal, 0},
    [NVB06F_SEMAPHOREA >> 2] = KEEP(sem_hi),
    [NVB06F_SEMAPHOREB >> 2] = KEEP(sem_lo),
    [NVB06F_SEMAPHOREC >> 2] = KEEP(sem_payload),
    [NVB06F_SEMAPHORED >> 2] = {host_semaphored_m, 0},
    [NVB06F_NON_STALL_INTERRUPT >> 2] = {host_non_stall_interrupt, 0},
    [NVB06F_MEM_OP_D >> 2] = {host_mem_op_d, 0},
    [NVB06F_SET_REFERENCE >> 2] = KEEP(reference),
    [NVB06F_SYNCPOINTA >> 2] = KEEP(syncpt_payload),
    [NVB06F_SYNCPOINTB >> 2] = {host_syncpointb, 0},
    [NVB06F_CRC_CHECK >> 2] = {host_crc_check, 0},
    [NVB06F_YIELD >> 2] = {host_yield, 0},
};
#undef KEEP
#define KEPT_U32(f) (sizeof(((cg_nv_channel *)0)->f) == 4 && offsetof(cg_nv_channel, f) < UINT16_MAX)
_Static_assert(KEPT_U32(sem_hi) && KEPT_U32(sem_lo) && KEPT_U32(sem_payload) &&
                   KEPT_U32(reference) && KEPT_U32(syncpt_payload),
               "the kept host fields are 32-bit words within uint16_t reach");
#undef KEPT_U32
_Static_assert(sizeof(((cg_nv_gpu *)0)->host_valid) * 8 == HOST_NMETHODS,
               "host_valid has one bit per host method");

/* The DEVICE interrupt: the kernel takes the method. Its SET_OBJECT names
 * the subchannel's class for listings and hang reports; no engine object
 * is bound (bound_oi stays -1, so no fast path sees the subchannel). */
int nv_sw_method(cg_nv_channel *ch, unsigned subch, uint32_t m, uint32_t v, uint64_t addr)
{
    if (!ch->gpu->sw_fn(ch->gpu->sw_user, ch->id, subch, m, v))
        return nv_ch_fault(ch, "host", CG_FAULT_INVALID_METHOD, addr, 0, v,
                           "software method 0x%04x = 0x%08x on subchannel %u: the kernel "
                           "did not take it (PBDMA DEVICE interrupt)", m, v, subch);
    if (m == 0) {
        ch->bound[subch] = NV_VAL(NVB06F, SET_OBJECT, NVCLASS, v);
        ch->bound_oi[subch] = -1;
    }
    return 0;
}

int nv_host_method(cg_nv_channel *ch, unsigned subch, uint32_t m, uint32_t v, uint64_t addr)
{
    if (m >= 4 * HOST_NMETHODS || !(ch->gpu->host_valid[m >> 7] & (1u << ((m >> 2) & 31))))
        return nv_ch_fault(ch, "host", CG_FAULT_INVALID_METHOD, addr, 0, v,
                        "host method 0x%03x is not in MAXWELL_CHANNEL_GPFIFO_A/A26F "
                        "(ILLEGAL_MTHD)", m);
    const host_method_info *e = &host_methods[m >> 2];
    if (e->keep) {
        uint32_t x = v;
        memcpy((char *)ch + e->keep - 1, &x, sizeof(x));
        return 0;
    }
    return e->fn ? e->fn(ch, subch, v, addr) : 0;
}
