/* nv: the pushbuffer decoder (DMA pusher): header words, INC / NONINC /
 * ONE_INC / IMMD runs, the sub-device mask, END_PB_SEGMENT; runs of plain
 * stores decoded in bulk, the rest method by method through the host class
 * or the bound engine. Sources: research/nv.md section 2 (clb06f.h
 * NVB06F_DMA_*, envytools dma-pusher.rst, yuzu dma_pusher.cpp). */
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "core/mem_internal.h"
#include "nv/tables/fields.h"
#include "pfifo.h"
#include "threed.h"

static inline int exec_method(cg_nv_channel *ch, unsigned subch, uint32_t m, uint32_t v,
                              uint64_t addr)
{
    /* A collected macro call runs before the first method that is not one
     * of its parameters (see mme_collect). */
    if (ch->call.pending &&
        (m != NVB197_CALL_MME_DATA + 8 * ch->call.macro || subch != ch->call.subch)) {
        int rc = nv_mme_flush(ch);
        if (rc != 0)
            return rc;
    }
    ch->methods++;
    ch->gpu->time++;
    if (ch->tracing)
        nv_trace_method(ch, subch, ch->bound[subch], m, v, addr);
    if (subch >= NV_SW_SUBCH && ch->gpu->sw_fn && (m == 0 || m >= 0x100))
        return nv_sw_method(ch, subch, m, v, addr);
    if (m < 0x100)
        return nv_host_method(ch, subch, m, v, addr);
    return nv_engine_method(ch, subch, m, v, addr);
}

/* Should the channel stop after the method just executed? */
static inline bool must_stop(const cg_nv_channel *ch)
{
    return ch->state == CG_NV_CH_FAULTED || ch->wait != NV_WAIT_NONE || ch->yield;
}

/* A run the sub-device mask excludes (this GPU is subdevice 0): its data
 * is skipped, the method address advancing as if it ran. */
static size_t skip_run(cg_nv_channel *ch, size_t n)
{
    if (ch->dec_mode == NV_MODE_INC)
        ch->dec_method += 4 * (uint32_t)n;
    else if (ch->dec_mode == NV_MODE_ONE_INC) {
        ch->dec_method += 4;
        ch->dec_mode = NV_MODE_NONINC;
    }
    return n;
}

/* A NONINC run of LOAD_INLINE_DATA to a class with the I2M goes to the
 * I2M in one piece. false if this run cannot (the word-by-word path takes
 * it). */
static bool inline_data_run(cg_nv_channel *ch, const uint32_t *w, size_t n, uint64_t addr)
{
    uint32_t cls = ch->bound[ch->dec_subch];
    int oi = cls ? nv_obj_index(cls) : -1;
    if (!((oi == NV_OBJ_I2M || oi == NV_OBJ_3D || oi == NV_OBJ_COMPUTE) && !ch->slow))
        return false;
    nv_obj *o = &ch->objs[oi];
    o->regs[NVA140_LOAD_INLINE_DATA >> 2] = w[n - 1];
    ch->methods += n;
    ch->gpu->time += n;
    cg_agent ag = nv_agent(ch, "i2m", addr, ch->hdr_word, w[0]);
    if (nv_i2m_data(ch, o, w, n, &ag) != 0)
        ch->state = CG_NV_CH_FAULTED;
    return true;
}

/* A NONINC run of LOAD_CONSTANT_BUFFER: one bounded write of the whole run
 * at CB_POS, only when nothing can fault (otherwise the word-by-word path
 * raises the fault at the exact word). false if not taken. */
static bool cb_load_run(cg_nv_channel *ch, uint32_t *regs, uint32_t idx, const uint32_t *w,
                        size_t n, uint64_t addr)
{
    uint32_t *pos = &regs[NVB197_LOAD_CONSTANT_BUFFER_OFFSET >> 2];
    uint32_t size;
    uint64_t cb = nv_cb_target(regs, &size);
    uint64_t bad;
    if (!((uint64_t)*pos + 4ull * n <= size &&
          cg_vas_check(ch->vas, cb + *pos, 4ull * n, true, &bad) == CG_FAULT_NONE))
        return false;
    cg_agent ag = nv_agent(ch, "3d", addr, ch->hdr_word, w[0]);
    if (cg_vas_write(ch->vas, cb + *pos, w, 4 * n, &ag) != 0) {
        ch->state = CG_NV_CH_FAULTED; /* e.g. a coherency fault */
        return true;
    }
    regs[idx] = w[n - 1];
    *pos += 4 * (uint32_t)n;
    ch->methods += n;
    ch->gpu->time += n;
    return true;
}

/* Plain stores (methods with no action, gpu->plain) to the bound engine
 * oi, with no tracing: a NONINC run to one plain method (or a
 * LOAD_CONSTANT_BUFFER run) at once, INC and ONE_INC runs as far as their
 * methods stay plain. Returns the words done (0 .. n). */
static size_t plain_run(cg_nv_channel *ch, int oi, const uint32_t *w, size_t n, uint64_t addr)
{
    const uint32_t *plain = ch->gpu->plain[oi];
    uint32_t *regs = ch->objs[oi].regs;
    if (ch->dec_mode == NV_MODE_NONINC) {
        uint32_t idx = ch->dec_method >> 2;
        if (idx < NV_NREGS && (plain[idx / 32] & (1u << (idx % 32)))) {
            regs[idx] = w[n - 1];
            ch->methods += n;
            ch->gpu->time += n;
            return n;
        }
        if (oi == NV_OBJ_3D && idx < NV_NREGS && ch->gpu->act[oi][idx] == NV_ACT_CB_LOAD &&
            cb_load_run(ch, regs, idx, w, n, addr))
            return n;
        return 0;
    }
    size_t i = 0;
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
    return i;
}

/* Execute up to n data words of the current run. Returns words consumed:
 * the fast paths above where they apply, then method by method through the
 * host class or the bound engine until the channel must stop. */
static size_t exec_run(cg_nv_channel *ch, const uint32_t *w, size_t n, uint64_t addr)
{
    unsigned subch = ch->dec_subch;
    if (!(ch->subdev_mask & 1))
        return skip_run(ch, n);
    if (ch->dec_mode == NV_MODE_NONINC && ch->dec_method == NVA140_LOAD_INLINE_DATA &&
        inline_data_run(ch, w, n, addr))
        return n;
    int oi = ch->bound_oi[subch];
    if (oi >= 0 && ch->dec_method >= 0x100 && !ch->slow) {
        size_t i = plain_run(ch, oi, w, n, addr);
        if (i == n)
            return n;
        if (i)
            return i + exec_run(ch, w + i, n - i, addr + 4 * i);
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
                uint64_t cb = nv_cb_target(regs, &size);
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

/* Decode and execute words; *used = words consumed. */
int nv_process_words(cg_nv_channel *ch, const uint32_t *w, size_t n, uint64_t addr,
                     size_t *used)
{
    size_t i = 0;
    int st = NV_PW_OK;
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
                st = NV_PW_STOP;
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
            return NV_PW_END;
        }
        if (must_stop(ch)) {
            st = NV_PW_STOP;
            break;
        }
    }
    *used = i;
    return st;
}

