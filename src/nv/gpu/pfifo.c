/* nv: PFIFO. The GPU object (its per-class method bitmaps and action tables
 * built from the class tables), syncpoints, the channels' GPFIFO rings and
 * entry fetch, and the round-robin scheduler. The pushbuffer decoder is
 * decode.c, the host class host.c, the engine dispatch engine.c, faults and
 * trace events fault.c.
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
#include "nv/tables/fields.h"
#include "pfifo.h"
#include "threed.h"

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

void cg_nv_gpu_set_sw_method(cg_nv_gpu *gpu, cg_nv_sw_method_fn fn, void *user)
{
    if (gpu) {
        gpu->sw_fn = fn;
        gpu->sw_user = user;
    }
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

bool cg_nv_fence_reached(const cg_nv_gpu *gpu, cg_nv_fence f)
{
    return gpu && f.id < CG_NV_NUM_SYNCPTS && nv_syncpt_reached(gpu->syncpt[f.id], f.value);
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
        cg_nv_gp_fields gp = cg_nv_gp_decode(re->e);
        if (gp.nwords == 0) {
            /* Control entry: LENGTH 0 turns E1 7:0 into an OPCODE, NOP 0,
             * ILLEGAL 1, GP_CRC 2, PB_CRC 3 (clb06f.h NVB06F_GP_ENTRY1_OPCODE
             * in newer headers; research/nv.md section 1). A NOP control entry
             * is skipped, as yuzu skips every zero-length entry. */
            uint32_t op = gp.opcode;
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
                         (ch->gp_get - 1) & (ch->num_entries - 1), gp.operand);
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
        ch->seg_va = gp.va;
        ch->seg_len = gp.nwords;
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
        int ok = nv_wait_check(ch);
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
                nv_mme_flush(ch); /* nothing more can follow: the call runs */
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
        int st = nv_process_words(ch, w, avail, addr, &used);
        ch->seg_pos += (uint32_t)used;
        if (!direct)
            ch->chunk_pos += (uint32_t)used;
        if (st == NV_PW_END) {
            ch->in_seg = false;
            continue;
        }
        if (st == NV_PW_STOP) {
            if (ch->state == CG_NV_CH_FAULTED)
                break;
            if (ch->wait != NV_WAIT_NONE) {
                int ok = nv_wait_check(ch);
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
                      cg_budget_name(CG_BUDGET_NV_WAIT_RUNS), (unsigned long long)ch->wait_addr, cur, nv_sem_op_name(ch->wait_op),
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

