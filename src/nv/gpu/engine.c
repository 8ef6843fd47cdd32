/* nv: the engine objects bound to subchannels and the dispatch of their
 * methods: store into the object's register file, then run the method's
 * action (the ACTION column of the class tables, src/nv/tables/actions.h) through
 * a handler table; and the macro engine's hookup (CALL_MME_MACRO/DATA
 * collection, the macro's sends and reads). */
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "core/mem_internal.h"
#include "nv/tables/fields.h"
#include "pfifo.h"
#include "threed.h"

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
            return nv_ch_fault(ch, "mme", CG_FAULT_OUT_OF_MEMORY, addr, 0, v,
                            "no host memory for the macro RAM");
        ch->call.pending = true;
        ch->call.subch = (uint8_t)subch;
        ch->call.macro = j;
        ch->call.n = 0;
        ch->call.addr = addr;
        ch->call.hdr_word = ch->hdr_word;
        ch->slow = true; /* every method now goes through exec_method */
    } else if (!ch->call.pending) {
        return nv_ch_fault(ch, "mme", CG_FAULT_BAD_STATE, addr, 0, v,
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
            return nv_ch_fault(ch, "mme", CG_FAULT_BAD_LENGTH, addr, 0, v,
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
        return nv_ch_fault(ch, "mme", CG_FAULT_OUT_OF_MEMORY, addr, 0, v,
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
    uint64_t cb = nv_cb_target(o->regs, &size);
    /* in 64 bits: a CB_POS of 0xfffffffc must not wrap to 0 */
    if ((uint64_t)*pos + 4 > size)
        return nv_ch_fault(ch, "3d", CG_FAULT_BAD_STATE, addr, cb + *pos, v,
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
    return nv_ch_fault(ch, "compute", CG_FAULT_UNSUPPORTED, addr, 0, v,
                    "MAXWELL_COMPUTE_B launches not supported yet");
}

static const nv_act_fn act_fn[NV_ACT_COUNT] = {
    [NV_ACT_I2M_LAUNCH] = act_i2m,     [NV_ACT_I2M_DATA] = act_i2m,
    [NV_ACT_MME_LOAD] = act_mme_load,  [NV_ACT_MME_CALL] = act_mme_call,
    [NV_ACT_CB_LOAD] = act_cb_load,    [NV_ACT_REPORT] = act_report,
    [NV_ACT_CLEAR] = act_3d,           [NV_ACT_CLEAR_REPORT] = act_3d,
    [NV_ACT_CB_BIND] = act_3d,         [NV_ACT_DRAW] = act_3d,
    [NV_ACT_BEGIN] = act_3d,           [NV_ACT_END] = act_3d,
    [NV_ACT_DRAW_BEGIN_END] = act_3d,
    [NV_ACT_COPY_LAUNCH] = act_copy,   [NV_ACT_TWOD_BLIT] = act_twod,
    [NV_ACT_TWOD_MODE] = act_twod,     [NV_ACT_TWOD_POINT] = act_twod,
    [NV_ACT_TWOD_POINT_SET] = act_twod, [NV_ACT_COMPUTE_LAUNCH] = act_compute_launch,
};

int nv_engine_method(cg_nv_channel *ch, unsigned subch, uint32_t m, uint32_t v, uint64_t addr)
{
    uint32_t cls = ch->bound[subch];
    if (!cls)
        return nv_ch_fault(ch, "pfifo", CG_FAULT_UNBOUND_SUBCHANNEL, addr, 0, v,
                        "method 0x%04x on subchannel %u, which has no object bound", m, subch);
    int oi = nv_obj_index(cls);
    if (oi < 0) /* a software subchannel's object, its handler since removed */
        return nv_ch_fault(ch, "pfifo", CG_FAULT_INVALID_METHOD, addr, 0, v,
                           "method 0x%04x on subchannel %u: class %04X is the kernel's "
                           "software class, and no kernel takes its methods", m, subch, cls);
    nv_obj *o = &ch->objs[oi];
    uint32_t idx = m >> 2;
    bool known = idx < NV_NREGS && (ch->gpu->valid[oi][idx / 32] & (1u << (idx % 32)));
    /* B197 and B1C0 keep every method of their range (the registers of
     * methods no header names included); the others fault on unknown ones. */
    bool stores_all = (oi == NV_OBJ_3D || oi == NV_OBJ_COMPUTE) && idx < NV_NREGS;
    if (!known && !stores_all)
        return nv_ch_fault(ch, "pfifo", CG_FAULT_INVALID_METHOD, addr, 0, v,
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
        return nv_ch_fault(ch, "mme", CG_FAULT_BAD_STATE, ch->call.addr, 0, v,
                        "macro %u sends method 0x%04x: a macro cannot call a macro",
                        ch->call.macro, m);
    return nv_engine_method(ch, ch->call.subch, m, v, ch->call.addr);
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
int nv_mme_flush(cg_nv_channel *ch)
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

