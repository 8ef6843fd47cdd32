/* nv: the semaphore reductions (host SEMAPHORED REDUCTION, I2M and copy
 * LAUNCH_DMA, 3D SET_REPORT_SEMAPHORE_D), one implementation in the host
 * class numbering and the map from the I2M / 3D REDUCTION_OP numbering to
 * it. A leaf: host.c, i2m.c, copy.c and threed.c call here, so the engines
 * do not call into the host class's file. Sources: clb06f.h, cla140.h,
 * clb197.h through the class tables; research/nv.md section 2. */
#include "nv/tables/fields.h"
#include "nv/nv_internal.h"

uint32_t nv_reduce(uint32_t old, uint32_t v, unsigned op, bool is_signed)
{
#define RED(r) NVB06F_SEMAPHORED_REDUCTION_##r
    switch (op) {
    case RED(MIN):
        return is_signed ? ((int32_t)old < (int32_t)v ? old : v) : (old < v ? old : v);
    case RED(MAX):
        return is_signed ? ((int32_t)old > (int32_t)v ? old : v) : (old > v ? old : v);
    case RED(XOR): return old ^ v;
    case RED(AND): return old & v;
    case RED(OR): return old | v;
    case RED(ADD): return old + v;
    /* INC/DEC wrap at the payload like CUDA's atomicInc/atomicDec. */
    case RED(INC): return old >= v ? 0 : old + 1;
    case RED(DEC): return (old == 0 || old > v) ? v : old - 1;
    default: return old;
    }
#undef RED
}

#define RED_OP(r) NVA140_LAUNCH_DMA_REDUCTION_OP_RED_##r
const uint8_t nv_red_op_to_host[8] = {
    [RED_OP(ADD)] = NVB06F_SEMAPHORED_REDUCTION_ADD, [RED_OP(MIN)] = NVB06F_SEMAPHORED_REDUCTION_MIN,
    [RED_OP(MAX)] = NVB06F_SEMAPHORED_REDUCTION_MAX, [RED_OP(INC)] = NVB06F_SEMAPHORED_REDUCTION_INC,
    [RED_OP(DEC)] = NVB06F_SEMAPHORED_REDUCTION_DEC, [RED_OP(AND)] = NVB06F_SEMAPHORED_REDUCTION_AND,
    [RED_OP(OR)] = NVB06F_SEMAPHORED_REDUCTION_OR,   [RED_OP(XOR)] = NVB06F_SEMAPHORED_REDUCTION_XOR,
};
#undef RED_OP
/* SET_REPORT_SEMAPHORE_D REDUCTION_OP numbers its values as the I2M's */
#define SAME_RED_OP(r)                                                          \
    (NVA140_LAUNCH_DMA_REDUCTION_OP_RED_##r == NVB197_SET_REPORT_SEMAPHORE_D_REDUCTION_OP_RED_##r)
_Static_assert(SAME_RED_OP(ADD) && SAME_RED_OP(MIN) && SAME_RED_OP(MAX) && SAME_RED_OP(INC) &&
                   SAME_RED_OP(DEC) && SAME_RED_OP(AND) && SAME_RED_OP(OR) && SAME_RED_OP(XOR),
               "I2M and report semaphore REDUCTION_OP values agree");
#undef SAME_RED_OP
