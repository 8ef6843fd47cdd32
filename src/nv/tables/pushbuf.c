/* nv: pushbuffer header words and the builder.
 *
 * Header layout (NVIDIA clb06f.h NVB06F_DMA_*, envytools dma-pusher.rst "GF100
 * commands", research/nv.md section 2): SEC_OP 31:29, COUNT or IMMD_DATA 28:16,
 * SUBCHANNEL 15:13, METHOD_ADDRESS (dword index) 12:0. Sec ops 0 and 2 take a
 * tertiary op in 17:16: 0 is the old (NV4-era) method format with ADDRESS
 * 12:2 (byte address) and COUNT 28:18, increasing for group 0 and
 * non-increasing for group 2; 1/2/3 set/store/use the sub-device mask in 15:4.
 * The NOP word 0 is an old-format increasing header with count 0. */
#include <string.h>
#include "cmdgpu/nv.h"

void cg_nv_header_decode(uint32_t w, cg_nv_header *h)
{
    memset(h, 0, sizeof(*h));
    h->secop = (uint8_t)(w >> 29);
    h->subch = (uint8_t)((w >> 13) & 7);
    h->method = (w & 0x1FFFu) << 2;
    switch (h->secop) {
    case CG_NV_SEC_GRP0_USE_TERT:
    case CG_NV_SEC_GRP2_USE_TERT:
        h->tertop = (uint8_t)((w >> 16) & 3);
        switch (h->tertop) {
        case CG_NV_TERT_OLD_METHOD:
            h->old_format = true;
            h->kind = h->secop == 0 ? CG_NV_H_INC : CG_NV_H_NONINC;
            h->method = w & 0x1FFCu; /* ADDRESS 12:2, a byte address */
            h->count = (w >> 18) & 0x7FFu;
            break;
        case CG_NV_TERT_SET_SUB_DEVICE_MASK:
            h->kind = CG_NV_H_SET_SUBDEV_MASK;
            break;
        case CG_NV_TERT_STORE_SUB_DEVICE_MASK:
            h->kind = CG_NV_H_STORE_SUBDEV_MASK;
            break;
        default:
            h->kind = CG_NV_H_USE_SUBDEV_MASK;
            break;
        }
        if (h->kind != CG_NV_H_INC && h->kind != CG_NV_H_NONINC) {
            h->immd = (w >> 4) & 0xFFFu;
            h->method = 0;
            h->subch = 0;
        }
        break;
    case CG_NV_SEC_INC_METHOD:
        h->kind = CG_NV_H_INC;
        h->count = (w >> 16) & 0x1FFFu;
        break;
    case CG_NV_SEC_NON_INC_METHOD:
        h->kind = CG_NV_H_NONINC;
        h->count = (w >> 16) & 0x1FFFu;
        break;
    case CG_NV_SEC_IMMD_DATA_METHOD:
        h->kind = CG_NV_H_IMMD;
        h->immd = (w >> 16) & 0x1FFFu;
        break;
    case CG_NV_SEC_ONE_INC:
        h->kind = CG_NV_H_ONE_INC;
        h->count = (w >> 16) & 0x1FFFu;
        break;
    case CG_NV_SEC_RESERVED6:
        h->kind = CG_NV_H_RESERVED;
        break;
    default:
        h->kind = CG_NV_H_END_SEGMENT;
        h->method = 0;
        h->subch = 0;
        break;
    }
}

/* ---- builder ------------------------------------------------------------ */

void cg_nv_pb_init(cg_nv_pb *pb, uint32_t *words, size_t cap)
{
    pb->words = words;
    pb->len = 0;
    pb->cap = words ? cap : 0;
    pb->err = 0;
}

static bool pb_room(cg_nv_pb *pb, size_t n)
{
    if (pb->err)
        return false;
    if (pb->cap - pb->len < n) {
        pb->err = CG_ERR_NOSPACE;
        return false;
    }
    return true;
}

static bool pb_args_ok(cg_nv_pb *pb, unsigned subch, uint32_t mthd)
{
    if (pb->err)
        return false;
    if (subch > 7 || (mthd & 3) || mthd >= 0x8000) {
        pb->err = CG_ERR_INVAL;
        return false;
    }
    return true;
}

static int pb_run(cg_nv_pb *pb, unsigned secop, unsigned subch, uint32_t mthd,
                  const uint32_t *data, size_t n)
{
    if (!pb_args_ok(pb, subch, mthd))
        return pb->err;
    if (n && !data) {
        pb->err = CG_ERR_INVAL;
        return pb->err;
    }
    while (n > 0) {
        size_t k = n > 0x1FFF ? 0x1FFF : n;
        if (!pb_room(pb, k + 1))
            return pb->err;
        pb->words[pb->len++] = cg_nv_hdr(secop, subch, mthd, (uint32_t)k);
        memcpy(pb->words + pb->len, data, k * 4);
        pb->len += k;
        data += k;
        n -= k;
        if (secop == CG_NV_SEC_INC_METHOD)
            mthd += (uint32_t)k * 4;
        else if (secop == CG_NV_SEC_ONE_INC) {
            /* the continuation writes everything to method + 1 */
            mthd += 4;
            secop = CG_NV_SEC_NON_INC_METHOD;
        }
        if (mthd >= 0x8000 && n) {
            pb->err = CG_ERR_RANGE;
            return pb->err;
        }
    }
    return pb->err;
}

int cg_nv_pb_inc(cg_nv_pb *pb, unsigned subch, uint32_t mthd, const uint32_t *data, size_t n)
{
    return pb_run(pb, CG_NV_SEC_INC_METHOD, subch, mthd, data, n);
}

int cg_nv_pb_noninc(cg_nv_pb *pb, unsigned subch, uint32_t mthd, const uint32_t *data, size_t n)
{
    return pb_run(pb, CG_NV_SEC_NON_INC_METHOD, subch, mthd, data, n);
}

int cg_nv_pb_one_inc(cg_nv_pb *pb, unsigned subch, uint32_t mthd, const uint32_t *data, size_t n)
{
    return pb_run(pb, CG_NV_SEC_ONE_INC, subch, mthd, data, n);
}

int cg_nv_pb_immd(cg_nv_pb *pb, unsigned subch, uint32_t mthd, uint32_t value)
{
    if (!pb_args_ok(pb, subch, mthd))
        return pb->err;
    if (value > 0x1FFF) {
        pb->err = CG_ERR_RANGE;
        return pb->err;
    }
    if (pb_room(pb, 1))
        pb->words[pb->len++] = cg_nv_hdr(CG_NV_SEC_IMMD_DATA_METHOD, subch, mthd, value);
    return pb->err;
}

int cg_nv_pb_mthd(cg_nv_pb *pb, unsigned subch, uint32_t mthd, uint32_t value)
{
    if (value <= 0x1FFF)
        return cg_nv_pb_immd(pb, subch, mthd, value);
    return cg_nv_pb_inc(pb, subch, mthd, &value, 1);
}

int cg_nv_pb_named(cg_nv_pb *pb, unsigned subch, uint32_t class_id, const char *name,
                   uint32_t value)
{
    if (pb->err)
        return pb->err;
    const cg_nv_class *c = cg_nv_class_find(class_id);
    uint32_t off;
    int rc = c ? cg_nv_method_parse(c, name, &off) : CG_ERR_NOENT;
    if (rc != 0) {
        pb->err = rc;
        return rc;
    }
    return cg_nv_pb_mthd(pb, subch, off, value);
}

int cg_nv_pb_end(cg_nv_pb *pb)
{
    if (pb_room(pb, 1))
        pb->words[pb->len++] = CG_NV_END_PB_SEGMENT;
    return pb->err;
}
