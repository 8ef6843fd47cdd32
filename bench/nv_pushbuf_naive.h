/* The naive reference pushbuffer decoder of bench/nv_pushbuf.c: what a
 * simple emulator does, a plain switch over the header forms (clb06f.h
 * NVB06F_DMA_*: INC, NONINC, ONE_INC, IMMD, the old-format INC/NONINC, the
 * sub-device mask headers, END_PB_SEGMENT) that stores each method's data
 * in a per-subchannel register file, one call per method, and runs the one
 * method action the bench stream needs: LOAD_CONSTANT_BUFFER(i) writes its
 * word at CB_POS of the selected constant buffer and advances CB_POS
 * (clb197.h: LOAD_CONSTANT_BUFFER_OFFSET 0x238c, LOAD_CONSTANT_BUFFER(i)
 * 0x2390 + 4i, i < 16; SET_CONSTANT_BUFFER_SELECTOR_A 0x2380 SIZE 16:0).
 * No faults, budgets, tracing or address translation: the constant buffer
 * is one host array. The bench checks that it ends in the same register
 * and constant-buffer state as the model, so both did the same work. */
#ifndef CMDGPU_BENCH_NV_PUSHBUF_NAIVE_H
#define CMDGPU_BENCH_NV_PUSHBUF_NAIVE_H
#include <stddef.h>
#include <stdint.h>

#define NAIVE_NREGS 0x1000u     /* dword methods 0..0xFFF, as the model */
#define NAIVE_CB_WORDS 0x8000u  /* the largest SIZE (17 bits) in words */

typedef struct naive_nv {
    uint32_t *regs[8]; /* per subchannel, NAIVE_NREGS words */
    uint32_t *cb;      /* the selected constant buffer, NAIVE_CB_WORDS words */
    uint32_t subdev_mask, stored_mask;
    uint64_t methods;
} naive_nv;

static inline void naive_method(naive_nv *d, unsigned s, uint32_t idx, uint32_t v)
{
    d->methods++;
    if (idx >= NAIVE_NREGS)
        return;
    uint32_t *r = d->regs[s];
    r[idx] = v;
    if (idx >= 0x2390 / 4 && idx < 0x2390 / 4 + 16) { /* LOAD_CONSTANT_BUFFER(i) */
        uint32_t pos = r[0x238C / 4], size = r[0x2380 / 4] & 0x1FFFF;
        if ((uint64_t)pos + 4 <= size) {
            d->cb[pos / 4] = v;
            r[0x238C / 4] = pos + 4;
        }
    }
}

/* Decode n words; returns the words consumed (n, or up to END_PB_SEGMENT). */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static size_t naive_decode(naive_nv *d, const uint32_t *w, size_t n)
{
    size_t i = 0;
    while (i < n) {
        uint32_t h = w[i++];
        uint32_t s = (h >> 13) & 7, idx = h & 0x1FFF, cnt = (h >> 16) & 0x1FFF;
        int mode; /* 0 INC, 1 NONINC, 2 ONE_INC */
        switch (h >> 29) {
        case 1: mode = 0; break;
        case 3: mode = 1; break;
        case 5: mode = 2; break;
        case 4:
            if (d->subdev_mask & 1)
                naive_method(d, s, idx, cnt);
            continue;
        case 0:
        case 2:
            switch ((h >> 16) & 3) {
            case 0:
                mode = (h >> 29) == 0 ? 0 : 1;
                idx = (h & 0x1FFC) >> 2;
                cnt = (h >> 18) & 0x7FF;
                break;
            case 1: d->subdev_mask = (h >> 4) & 0xFFF; continue;
            case 2: d->stored_mask = (h >> 4) & 0xFFF; continue;
            default: d->subdev_mask = d->stored_mask; continue;
            }
            break;
        case 6: continue; /* reserved: the header alone */
        default: return i;  /* END_PB_SEGMENT */
        }
        if (cnt > n - i)
            cnt = (uint32_t)(n - i);
        const uint32_t *v = w + i;
        i += cnt;
        if (!(d->subdev_mask & 1) || cnt == 0)
            continue; /* the data is not for this GPU (subdevice 0) */
        /* one loop per mode: no per-word test of the mode */
        if (mode == 0) {
            for (uint32_t k = 0; k < cnt; k++)
                naive_method(d, s, (idx + k) & 0x1FFF, v[k]);
        } else {
            naive_method(d, s, idx, v[0]);
            idx += mode == 2;
            for (uint32_t k = 1; k < cnt; k++)
                naive_method(d, s, idx & 0x1FFF, v[k]);
        }
    }
    return i;
}
#endif
