/* nv: the inline-to-memory unit of KEPLER_INLINE_TO_MEMORY_B (A140), also
 * reachable through MAXWELL_B and MAXWELL_COMPUTE_B at the same offsets.
 *
 * LAUNCH_DMA starts a transfer of LINE_LENGTH_IN x LINE_COUNT bytes to
 * OFFSET_OUT; the bytes then arrive packed in LOAD_INLINE_DATA words (the
 * last word of a transfer may be partial) and land line by line, PITCH_OUT
 * apart for a pitch destination, or swizzled into a block-linear surface at
 * ORIGIN_BYTES_X/SAMPLES_Y (yuzu engine_upload.cpp buffers the same amount
 * and writes when it is complete; cla140.h gives the fields). A pitch
 * destination is written as the data arrives. */
#include <string.h>
#include "core/mem_internal.h"
#include "nv/tables/fields.h"
#include "nv/nv_internal.h"

/* The I2M block is read with KEPLER_INLINE_TO_MEMORY_B's fields (cla140.h) in
 * every class that carries it (A140, B197, B1C0: same offsets). MAXWELL_B's
 * and MAXWELL_COMPUTE_B's headers give narrower fields at those offsets:
 * OFFSET_OUT_UPPER and SET_I2M_SEMAPHORE_A 7:0 where cla140.h says 24:0,
 * SET_DST_ORIGIN_BYTES_X 19:0 where it says 20:0, SET_DST_ORIGIN_SAMPLES_Y
 * 15:0 where it says 16:0. The model keeps cla140.h's widths, written by
 * hand below and checked here. Second source: envytools rnndb
 * graph/gk104_p2mf.xml (the same upload block) gives DST_ADDRESS_HIGH,
 * QUERY_ADDRESS_HIGH, DST_X and DST_Y as whole registers with no narrower
 * field, so neither reading is shown wrong; an upper address above bit 7
 * lies past the 40-bit GPU VA (research/nv.md section 1) and faults as an
 * unmapped address in either reading. */
#define I2M_CLASS_OFFSETS(m)                                                   \
    ((unsigned)NVA140_##m == (unsigned)NVB197_##m && (unsigned)NVA140_##m == (unsigned)NVB1C0_##m)
_Static_assert(I2M_CLASS_OFFSETS(OFFSET_OUT_UPPER) && I2M_CLASS_OFFSETS(SET_I2M_SEMAPHORE_A) &&
                   I2M_CLASS_OFFSETS(SET_DST_ORIGIN_BYTES_X) &&
                   I2M_CLASS_OFFSETS(SET_DST_ORIGIN_SAMPLES_Y) && I2M_CLASS_OFFSETS(LAUNCH_DMA),
               "the I2M block sits at the same offsets in A140, B197 and B1C0");
_Static_assert(NV_MASK(NVA140, OFFSET_OUT_UPPER, VALUE) == 0x1FFFFFF &&
                   NV_MASK(NVA140, SET_I2M_SEMAPHORE_A, OFFSET_UPPER) == 0x1FFFFFF &&
                   NV_MASK(NVB197, OFFSET_OUT_UPPER, VALUE) == 0xFF &&
                   NV_MASK(NVB197, SET_I2M_SEMAPHORE_A, OFFSET_UPPER) == 0xFF,
               "I2M upper address: 25 bits (cla140.h), B197 says 8");
_Static_assert(NV_MASK(NVA140, SET_DST_ORIGIN_BYTES_X, V) == 0x1FFFFF &&
                   NV_MASK(NVA140, SET_DST_ORIGIN_SAMPLES_Y, V) == 0x1FFFF &&
                   NV_MASK(NVB197, SET_DST_ORIGIN_BYTES_X, V) == 0xFFFFF &&
                   NV_MASK(NVB197, SET_DST_ORIGIN_SAMPLES_Y, V) == 0xFFFF,
               "I2M origin: 21 / 17 bits (cla140.h), B197 says 20 / 16");

static int i2m_complete(cg_nv_channel *ch, nv_obj *o, const cg_agent *ag)
{
    nv_i2m *t = &o->i2m;
    const uint32_t *r = o->regs;
    t->active = false;
    if (!t->pitch && t->total) {
        nv_bl s = {r[NVA140_SET_DST_WIDTH >> 2], r[NVA140_SET_DST_HEIGHT >> 2],
                   r[NVA140_SET_DST_DEPTH >> 2],
                   NV_VAL(NVA140, SET_DST_BLOCK_SIZE, HEIGHT, r[NVA140_SET_DST_BLOCK_SIZE >> 2]),
                   NV_VAL(NVA140, SET_DST_BLOCK_SIZE, DEPTH, r[NVA140_SET_DST_BLOCK_SIZE >> 2])};
        uint32_t ox = NV_VAL(NVA140, SET_DST_ORIGIN_BYTES_X, V, r[NVA140_SET_DST_ORIGIN_BYTES_X >> 2]);
        uint32_t oy = NV_VAL(NVA140, SET_DST_ORIGIN_SAMPLES_Y, V,
                             r[NVA140_SET_DST_ORIGIN_SAMPLES_Y >> 2]);
        uint32_t z = r[NVA140_SET_DST_LAYER >> 2];
        for (uint32_t y = 0; y < t->line_count; y++) {
            const uint8_t *src = t->buf + (uint64_t)y * t->line_len;
            uint32_t x = 0;
            while (x < t->line_len) {
                uint32_t bx = ox + x;
                uint32_t k = 16 - (bx % 16); /* 16-byte runs are contiguous in a GOB */
                if (k > t->line_len - x)
                    k = t->line_len - x;
                uint64_t va = t->dst + nv_bl_offset(&s, bx, oy + y, z);
                if (nv_mem_rw(ch->vas, va, (void *)(src + x), k, true, ag) != 0) {
                    ch->state = CG_NV_CH_FAULTED;
                    return CG_ERR_FAULT;
                }
                x += k;
            }
        }
    }
    if (cg_trace_enabled(ch->gpu->dev)) {
        cg_trace_event ev = {.kind = CG_TRACE_MEM_WRITE, .family = CG_FAMILY_NV, .unit = "i2m",
                             .channel = ch->id, .stream_addr = ag->stream_addr,
                             .gpu_addr = t->dst, .size = t->total,
                             .text = t->pitch ? "inline upload (pitch)" : "inline upload (block linear)"};
        cg_trace_emit(ch->gpu->dev, &ev);
    }
    uint32_t l = t->launch;
    unsigned completion = NV_VAL(NVA140, LAUNCH_DMA, COMPLETION_TYPE, l);
    if (completion == NVA140_LAUNCH_DMA_COMPLETION_TYPE_RELEASE_SEMAPHORE) {
        uint64_t va = (uint64_t)NV_VAL(NVA140, SET_I2M_SEMAPHORE_A, OFFSET_UPPER,
                                       r[NVA140_SET_I2M_SEMAPHORE_A >> 2]) << 32 |
                      r[NVA140_SET_I2M_SEMAPHORE_B >> 2];
        uint32_t payload = r[NVA140_SET_I2M_SEMAPHORE_C >> 2];
        if (NV_VAL(NVA140, LAUNCH_DMA, REDUCTION_ENABLE, l)) {
            /* REDUCTION_OP numbering of cla140.h mapped onto nv_reduce's */
            uint32_t old;
            if (cg_vas_read32(ch->vas, va, &old, ag) != 0) {
                ch->state = CG_NV_CH_FAULTED;
                return CG_ERR_FAULT;
            }
            payload = nv_reduce(old, payload, nv_red_op_to_host[NV_VAL(NVA140, LAUNCH_DMA, REDUCTION_OP, l)],
                                NV_VAL(NVA140, LAUNCH_DMA, REDUCTION_FORMAT, l) ==
                                    NVA140_LAUNCH_DMA_REDUCTION_FORMAT_SIGNED_32);
        }
        int rc;
        if (NV_VAL(NVA140, LAUNCH_DMA, SEMAPHORE_STRUCT_SIZE, l) ==
            NVA140_LAUNCH_DMA_SEMAPHORE_STRUCT_SIZE_ONE_WORD) {
            rc = cg_vas_write32(ch->vas, va, payload, ag);
        } else {
            uint64_t t64 = ch->gpu->time;
            uint32_t rec[4] = {payload, 0, (uint32_t)t64, (uint32_t)(t64 >> 32)};
            rc = cg_vas_write(ch->vas, va, rec, sizeof(rec), ag);
        }
        if (rc != 0) {
            ch->state = CG_NV_CH_FAULTED;
            return rc;
        }
    } else if (completion > NVA140_LAUNCH_DMA_COMPLETION_TYPE_RELEASE_SEMAPHORE) {
        return nv_fault(ch, ag, CG_FAULT_BAD_STATE, 0,
                         "I2M LAUNCH_DMA: COMPLETION_TYPE 3 is not defined");
    }
    if (NV_VAL(NVA140, LAUNCH_DMA, INTERRUPT_TYPE, l) == NVA140_LAUNCH_DMA_INTERRUPT_TYPE_INTERRUPT &&
        cg_trace_enabled(ch->gpu->dev)) {
        cg_trace_event ev = {.kind = CG_TRACE_INTERRUPT, .family = CG_FAMILY_NV, .unit = "i2m",
                             .channel = ch->id, .stream_addr = ag->stream_addr,
                             .reg = NVA140_LAUNCH_DMA, .value = l, .text = "I2M interrupt"};
        cg_trace_emit(ch->gpu->dev, &ev);
    }
    return 0;
}

static int i2m_launch(cg_nv_channel *ch, nv_obj *o, uint32_t v, const cg_agent *ag)
{
    nv_i2m *t = &o->i2m;
    const uint32_t *r = o->regs;
    if (t->active)
        return nv_fault(ch, ag, CG_FAULT_BAD_STATE, t->dst,
                         "I2M LAUNCH_DMA while the previous transfer still waits for %llu of "
                         "%llu bytes", (unsigned long long)(t->total - t->pos),
                         (unsigned long long)t->total);
    t->launch = v;
    t->pitch = NV_VAL(NVA140, LAUNCH_DMA, DST_MEMORY_LAYOUT, v) ==
               NVA140_LAUNCH_DMA_DST_MEMORY_LAYOUT_PITCH;
    t->line_len = r[NVA140_LINE_LENGTH_IN >> 2];
    t->line_count = r[NVA140_LINE_COUNT >> 2];
    t->pitch_out = r[NVA140_PITCH_OUT >> 2];
    t->dst = (uint64_t)NV_VAL(NVA140, OFFSET_OUT_UPPER, VALUE, r[NVA140_OFFSET_OUT_UPPER >> 2]) << 32 |
             r[NVA140_OFFSET_OUT >> 2];
    t->total = (uint64_t)t->line_len * t->line_count;
    t->pos = 0;
    if (t->total > ch->gpu->op_limit)
        return nv_fault(ch, ag, CG_FAULT_HANG, t->dst,
                        "budget %s: I2M LAUNCH_DMA of %llu bytes is over the limit of %llu",
                        cg_budget_name(CG_BUDGET_NV_OP_BYTES), (unsigned long long)t->total,
                        (unsigned long long)ch->gpu->op_limit);
    if (!t->pitch) {
        uint32_t bs = r[NVA140_SET_DST_BLOCK_SIZE >> 2];
        uint32_t bw = NV_VAL(NVA140, SET_DST_BLOCK_SIZE, WIDTH, bs);
        uint32_t bh = NV_VAL(NVA140, SET_DST_BLOCK_SIZE, HEIGHT, bs);
        uint32_t bd = NV_VAL(NVA140, SET_DST_BLOCK_SIZE, DEPTH, bs);
        if (bw != NVA140_SET_DST_BLOCK_SIZE_WIDTH_ONE_GOB)
            return nv_fault(ch, ag, CG_FAULT_UNSUPPORTED, t->dst,
                             "I2M block width %u GOBs not supported yet", bw);
        if (bh > 5 || bd > 5)
            return nv_fault(ch, ag, CG_FAULT_BAD_STATE, t->dst,
                             "I2M SET_DST_BLOCK_SIZE height %u / depth %u: at most 5 (32 GOBs)",
                             bh, bd);
        /* the staging buffer grows as data arrives (stage_reserve): a
         * LAUNCH_DMA alone costs no host memory, whatever size it claims */
    }
    t->active = true;
    if (t->total == 0)
        return i2m_complete(ch, o, ag);
    return 0;
}

/* Room for `need` staged bytes of a block-linear transfer: the buffer
 * doubles from 4 KiB up to the transfer's size, so host memory follows the
 * data that arrived, not the size LAUNCH_DMA claimed. */
static int stage_reserve(cg_nv_channel *ch, nv_i2m *t, uint64_t need, const cg_agent *ag)
{
    if (t->buf_cap >= need)
        return 0;
    uint64_t cap = t->buf_cap ? t->buf_cap : 4096;
    while (cap < need)
        cap *= 2;
    if (cap > t->total)
        cap = t->total;
    uint8_t *nb = cg__realloc(ch->gpu->dev, t->buf, t->buf_cap, (size_t)cap);
    if (!nb)
        return nv_fault(ch, ag, CG_FAULT_OUT_OF_MEMORY, t->dst,
                        "I2M: no host memory to stage %llu bytes", (unsigned long long)cap);
    t->buf = nb;
    t->buf_cap = (size_t)cap;
    return 0;
}

/* The agent of word i of a LOAD_INLINE_DATA run whose first word `ag`
 * describes (stream address and data word): a fault names the word that
 * carried the offending byte, not the start of the run. */
static cg_agent word_agent(const cg_agent *ag, const uint32_t *w, size_t i)
{
    cg_agent a = *ag;
    a.stream_addr += 4 * (uint64_t)i;
    a.words[1] = w[i];
    return a;
}

int nv_i2m_data(cg_nv_channel *ch, nv_obj *o, const uint32_t *w, size_t n, const cg_agent *ag)
{
    nv_i2m *t = &o->i2m;
    if (!t->active)
        return nv_fault(ch, ag, CG_FAULT_BAD_STATE, 0,
                         "LOAD_INLINE_DATA (%zu words) with no LAUNCH_DMA transfer pending", n);
    uint64_t remaining = t->total - t->pos;
    uint64_t words_left = (remaining + 3) / 4;
    if (n > words_left) {
        /* The words the transfer needs land (and complete it, with its
         * semaphore); the first word past its end is the fault. */
        size_t k = (size_t)words_left;
        uint64_t dst = t->dst;
        if (nv_i2m_data(ch, o, w, k, ag) != 0)
            return CG_ERR_FAULT;
        cg_agent a = word_agent(ag, w, k);
        return nv_fault(ch, &a, CG_FAULT_BAD_LENGTH, dst,
                        "LOAD_INLINE_DATA: %zu words, but the transfer needed only %zu: word %zu "
                        "runs past its end", n, k, k);
    }
    const uint8_t *src = (const uint8_t *)w;
    uint64_t take = (uint64_t)n * 4 < remaining ? (uint64_t)n * 4 : remaining;
    if (!t->pitch) {
        if (stage_reserve(ch, t, t->pos + take, ag) != 0) {
            t->active = false;
            return CG_ERR_FAULT;
        }
        memcpy(t->buf + t->pos, src, take);
        t->pos += take;
    } else {
        while (take) {
            uint64_t line = t->pos / t->line_len, col = t->pos % t->line_len;
            uint64_t k = t->line_len - col < take ? t->line_len - col : take;
            uint64_t va = t->dst + line * t->pitch_out + col;
            uint8_t *dp;
            size_t span = cg__vas_span(ch->vas, va, k, true, &dp);
            if (span) {
                /* plain memory: write in place (memmove: the words may come
                 * from the same page) */
                memmove(dp, src, span);
                k = span;
            } else {
                /* the record names the data word holding the first byte
                 * that cannot be written */
                uint64_t bad = va;
                if (cg_vas_check(ch->vas, va, k, true, &bad) == CG_FAULT_NONE)
                    bad = va;
                size_t wi = (size_t)((uint64_t)(src - (const uint8_t *)w) + (bad - va)) / 4;
                cg_agent a = word_agent(ag, w, wi < n ? wi : n - 1);
                if (cg_vas_write(ch->vas, va, src, k, &a) != 0) {
                    ch->state = CG_NV_CH_FAULTED;
                    t->active = false;
                    return CG_ERR_FAULT;
                }
            }
            src += k;
            t->pos += k;
            take -= k;
        }
    }
    if (t->pos == t->total)
        return i2m_complete(ch, o, ag);
    return 0;
}

int nv_i2m_method(cg_nv_channel *ch, nv_obj *o, uint32_t m, uint32_t v, const cg_agent *ag)
{
    if (m == NVA140_LAUNCH_DMA)
        return i2m_launch(ch, o, v, ag);
    if (m == NVA140_LOAD_INLINE_DATA)
        return nv_i2m_data(ch, o, &v, 1, ag);
    return 0;
}
