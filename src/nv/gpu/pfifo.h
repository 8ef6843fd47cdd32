/* nv: the PFIFO front end's parts (internal): pfifo.c (GPU, GPFIFO fetch,
 * scheduler), decode.c (pushbuffer decoder), host.c (host class), engine.c
 * (engine dispatch and macro hookup), fault.c (faults, trace events),
 * reduce.c (semaphore reductions). The calls go one way, pfifo -> decode ->
 * engine/host -> the engines -> fault/reduce: the helpers everyone shares
 * are leaves (or inline here), so no file calls back into its caller's. */
#ifndef CMDGPU_NV_PFIFO_H
#define CMDGPU_NV_PFIFO_H
#include "nv/tables/fields.h"
#include "nv/nv_internal.h"

/* fault.c: the puller's faults; the agent is unit, the current header and
 * `data`. Stops the channel; returns what cg_fault_vpost returns. */
int nv_ch_fault(cg_nv_channel *ch, const char *unit, cg_fault_kind kind, uint64_t addr,
                uint64_t gpu_addr, uint32_t data, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 7, 8)))
#endif
    ;

/* Has syncpoint value cur reached want? host1x compares syncpoint values
 * with wrapping arithmetic. Inline: the scheduler (pfifo.c) and the host
 * class (host.c) both ask, and the host class must not call back into the
 * scheduler's file. */
static inline bool nv_syncpt_reached(uint32_t cur, uint32_t want)
{
    return (int32_t)(cur - want) >= 0;
}

/* host.c: a host method (byte offset < 0x100) on subchannel subch; 0 or a
 * fault. nv_wait_check re-checks a blocked channel's semaphore/syncpoint
 * wait: 1 = still waiting, 0 = satisfied, < 0 a fault. */
int nv_host_method(cg_nv_channel *ch, unsigned subch, uint32_t m, uint32_t v, uint64_t addr);
int nv_wait_check(cg_nv_channel *ch);
/* A software method (cg_nv_gpu_set_sw_method): SET_OBJECT or an engine
 * method on subchannel NV_SW_SUBCH..7 while a handler is set. */
enum { NV_SW_SUBCH = 5 };
int nv_sw_method(cg_nv_channel *ch, unsigned subch, uint32_t m, uint32_t v, uint64_t addr);
/* The name of a semaphore acquire operation (SEMAPHORED OPERATION). */
const char *nv_sem_op_name(uint32_t op);

/* engine.c: a method of the object bound to subch: stored, then its action
 * run. nv_mme_flush runs a collected macro call. */
int nv_engine_method(cg_nv_channel *ch, unsigned subch, uint32_t m, uint32_t v, uint64_t addr);
int nv_mme_flush(cg_nv_channel *ch);

/* decode.c: decode and execute n pushbuffer words at GPU address addr;
 * *used = words consumed. Returns NV_PW_OK, NV_PW_STOP (the channel stops:
 * fault, wait, yield) or NV_PW_END (END_PB_SEGMENT). */
enum { NV_PW_OK, NV_PW_STOP, NV_PW_END };
int nv_process_words(cg_nv_channel *ch, const uint32_t *w, size_t n, uint64_t addr,
                     size_t *used);

/* The constant buffer LOAD_CONSTANT_BUFFER writes to: the address of
 * SET_CONSTANT_BUFFER_SELECTOR_B/C, its size (SELECTOR_A SIZE) in *size. */
static inline uint64_t nv_cb_target(const uint32_t *regs, uint32_t *size)
{
    *size = NV_VAL(NVB197, SET_CONSTANT_BUFFER_SELECTOR_A, SIZE,
                   regs[NVB197_SET_CONSTANT_BUFFER_SELECTOR_A >> 2]);
    return (uint64_t)NV_VAL(NVB197, SET_CONSTANT_BUFFER_SELECTOR_B, ADDRESS_UPPER,
                            regs[NVB197_SET_CONSTANT_BUFFER_SELECTOR_B >> 2])
               << 32 |
           regs[NVB197_SET_CONSTANT_BUFFER_SELECTOR_C >> 2];
}
#endif
