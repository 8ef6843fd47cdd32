/* Method offsets as constants, NV<class>_<NAME> = byte offset, stamped from
 * the class .def files (so the executor's switch cases and the tables cannot
 * drift). Internal header. */
#ifndef CMDGPU_NV_METHODS_H
#define CMDGPU_NV_METHODS_H
#include "core/def.h"

#define CG_NV_MCAT_(a, b) a##_##b
#define CG_NV_MCAT(a, b) CG_NV_MCAT_(a, b)
#define M(n, o, c, s, f) CG_NV_MCAT(CG_NV_PFX, n) = o,
#define F(n, hi, lo, t, en)
#define E(n, v)
#define CG_NV_PFX NVB06F
enum {
#include "host_b06f.def"
};
#undef CG_NV_PFX
#define CG_NV_PFX NVA140
enum {
#include "i2m_a140.def"
};
#undef CG_NV_PFX
#define CG_NV_PFX NVB0B5
enum {
#include "dma_b0b5.def"
};
#undef CG_NV_PFX
#define CG_NV_PFX NV902D
enum {
#include "twod_902d.def"
};
#undef CG_NV_PFX
#define CG_NV_PFX NVB197
enum {
#include "threed_b197.def"
};
#undef CG_NV_PFX
#define CG_NV_PFX NVB1C0
enum {
#include "compute_b1c0.def"
};
#undef CG_NV_PFX
#undef M
#undef F
#undef E
#endif
