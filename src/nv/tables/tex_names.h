/* nv: the names of the TIC and TSC field values (src/nv/gpu/texture.c has
 * the layouts and their sources), for the JSON printer
 * (src/nv/text/json.c) and any executor message that names a value.
 * Each function returns NULL for a value with no name (reserved). Internal
 * header. */
#ifndef CMDGPU_NV_TEX_NAMES_H
#define CMDGPU_NV_TEX_NAMES_H

/* TIC component types (W0 9:7, 12:10, 15:13, 18:16; yuzu ComponentType,
 * NVIDIA's spelling): the one list behind the names and the executors'
 * constants NV_TIC_<NAME>. 0 is reserved. */
#define NV_TIC_TYPES(X) \
    X(SNORM, 1) X(UNORM, 2) X(SINT, 3) X(UINT, 4) X(SNORM_FORCE_FP16, 5) \
    X(UNORM_FORCE_FP16, 6) X(FLOAT, 7)
enum nv_tic_type {
#define NV_TIC_TYPE_(name, v) NV_TIC_##name = v,
    NV_TIC_TYPES(NV_TIC_TYPE_)
#undef NV_TIC_TYPE_
};

const char *nv_tic_header_name(unsigned v); /* TIC HEADER_VERSION (W2 23:21) */
const char *nv_tic_type_name(unsigned v); /* TIC component type (W0 9:7 ... 18:16) */
const char *nv_tic_swizzle_name(unsigned v); /* TIC swizzle source (W0 21:19 ... 30:28) */
const char *nv_tic_texture_type_name(unsigned v); /* TIC texture type (W4 26:23) */
const char *nv_tsc_wrap_name(unsigned v); /* TSC wrap mode (W0 2:0, 5:3, 8:6) */
const char *nv_tsc_compare_name(unsigned v); /* TSC depth compare function (W0 12:10) */
const char *nv_tsc_filter_name(unsigned v); /* TSC mag/min filter (W1 1:0, 5:4) */
const char *nv_tsc_mip_filter_name(unsigned v); /* TSC mip filter (W1 7:6) */
const char *nv_tex_aniso_name(unsigned v); /* max anisotropy, TSC W0 22:20 and TIC W6 29:27 */
const char *nv_tsc_reduction_name(unsigned v); /* TSC reduction filter (W1 11:10) */

#endif
