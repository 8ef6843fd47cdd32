/* nv: vertex attribute formats and the names of draws (MAXWELL_B, clb197.h),
 * for the draw executor (src/nv/gpu/draw.c), which decodes attributes with
 * the size table and names topologies and types in its messages, and the
 * draw record printer (src/nv/text/json.c). Internal header. */
#ifndef CMDGPU_NV_VATTR_H
#define CMDGPU_NV_VATTR_H

#include <stdint.h>
#include "class_fields.h"

/* The one table of COMPONENT_BIT_WIDTHS codes (clb197.h
 * SET_VERTEX_ATTRIBUTE_A_COMPONENT_BIT_WIDTHS_*). Components are read from the
 * lowest bits of the fetched little-endian bytes up: nvk_format.c maps
 * A2B10G10R10_UNORM_PACK32 (R in bits 9:0) to A2B10G10R10,
 * B10G11R11_UFLOAT_PACK32 (R in 10:0) to B10G11R11 and A8B8G8R8_PACK32 (R in
 * the low byte) to R8_G8_B8_A8, so NVIDIA's packed names list the most
 * significant component first. NVK does not use A8B8G8R8, G8R8, X8B8G8R8 and
 * A8; the model reads them by the same naming rule (R in the low bits; X8 is
 * fetched and dropped; A8's one component is alpha, w). */
typedef struct nv_va_size {
    uint8_t code;
    const char *name;
    uint8_t ncomp;        /* components in memory */
    uint8_t bits[4];      /* their widths, lowest first */
    uint8_t bytes;        /* bytes fetched */
    uint8_t dst;          /* output component of the first one (A8: 3) */
} nv_va_size;

/* The row of a COMPONENT_BIT_WIDTHS code, NULL if the code is none. */
const nv_va_size *nv_va_size_find(unsigned code);

/* NUMERICAL_TYPE codes, as the class table names them. */
enum nv_va_type {
    NV_VA_SNORM = NVB197_SET_VERTEX_ATTRIBUTE_A_NUMERICAL_TYPE_NUM_SNORM,
    NV_VA_UNORM = NVB197_SET_VERTEX_ATTRIBUTE_A_NUMERICAL_TYPE_NUM_UNORM,
    NV_VA_SINT = NVB197_SET_VERTEX_ATTRIBUTE_A_NUMERICAL_TYPE_NUM_SINT,
    NV_VA_UINT = NVB197_SET_VERTEX_ATTRIBUTE_A_NUMERICAL_TYPE_NUM_UINT,
    NV_VA_USCALED = NVB197_SET_VERTEX_ATTRIBUTE_A_NUMERICAL_TYPE_NUM_USCALED,
    NV_VA_SSCALED = NVB197_SET_VERTEX_ATTRIBUTE_A_NUMERICAL_TYPE_NUM_SSCALED,
    NV_VA_FLOAT = NVB197_SET_VERTEX_ATTRIBUTE_A_NUMERICAL_TYPE_NUM_FLOAT,
};

/* Names from the class table (threed_b197.def): BEGIN OP, which the one-word
 * draws' TOPOLOGY shares (clb197.h), and the attribute NUMERICAL_TYPE, whose
 * clb197.h names (NUM_FLOAT, ...) the draw records give without the NUM_
 * prefix. An unknown value (NUMERICAL_TYPE 0 is UNUSED_ENUM_DO_NOT_USE...)
 * is "?". */
const char *nv_topology_name(unsigned op);
const char *nv_va_type_name(unsigned type);

#endif
