/* nv: TIC and TSC value names (tex_names.h). */
#include <stddef.h>
#include "tex_names.h"

static const char *const header_names[] = {"1D_BUFFER", "PITCH_COLORKEY", "PITCH",
                                           "BLOCKLINEAR", "BLOCKLINEAR_COLORKEY"};
static const char *const type_names[] = {
#define NV_TIC_TYPE_(name, v) [v] = #name,
    NV_TIC_TYPES(NV_TIC_TYPE_)
#undef NV_TIC_TYPE_
};
static const char *const swizzle_names[] = {"ZERO", NULL, "R", "G", "B", "A",
                                            "ONE_INT", "ONE_FLOAT"};
static const char *const textype_names[] = {"1D",       "2D",       "3D",
                                             "CUBE",     "1D_ARRAY", "2D_ARRAY",
                                             "1D_BUFFER", "2D_NO_MIPMAP", "CUBE_ARRAY"};
/* yuzu WrapMode 0..7 (Wrap, Mirror, ClampToEdge, Border, Clamp, MirrorOnce*);
 * the spelling of NVIDIA's address modes (CLAMP_OGL, MIRROR_ONCE_*). */
static const char *const wrap_names[] = {"WRAP",
                                         "MIRROR",
                                         "CLAMP_TO_EDGE",
                                         "BORDER",
                                         "CLAMP_OGL",
                                         "MIRROR_ONCE_CLAMP_TO_EDGE",
                                         "MIRROR_ONCE_BORDER",
                                         "MIRROR_ONCE_CLAMP_OGL"};
static const char *const compare_names[] = {"NEVER",   "LESS",     "EQUAL",  "LEQUAL",
                                            "GREATER", "NOTEQUAL", "GEQUAL", "ALWAYS"};
static const char *const filter_names[] = {NULL, "NEAREST", "LINEAR"};
static const char *const mip_filter_names[] = {NULL, "NONE", "NEAREST", "LINEAR"};
/* MAX_ANISOTROPY 0..7 = 1, 2, 4, 6, 8, 10, 12, 16 to 1: Mesa NVK nvk_sampler.c
 * g80_tsc_0_max_anisotropy (n / 2 up to 10, 12 -> 6, 16 -> 7). The TIC's W6
 * field has the same names (Mesa nvc0 GM107_TIC2_6_MAX_ANISOTROPY_2_TO_1). */
static const char *const aniso_names[] = {"1_TO_1", "2_TO_1",  "4_TO_1",  "6_TO_1",
                                          "8_TO_1", "10_TO_1", "12_TO_1", "16_TO_1"};
static const char *const reduction_names[] = {"WEIGHTED_AVERAGE", "MIN", "MAX"};

#define NAME_OF(tab, v) ((v) < sizeof(tab) / sizeof(tab[0]) ? tab[v] : NULL)

const char *nv_tic_header_name(unsigned v)
{
    return NAME_OF(header_names, v);
}

const char *nv_tic_type_name(unsigned v)
{
    return NAME_OF(type_names, v);
}

const char *nv_tic_swizzle_name(unsigned v)
{
    return NAME_OF(swizzle_names, v);
}

const char *nv_tic_texture_type_name(unsigned v)
{
    return NAME_OF(textype_names, v);
}

const char *nv_tsc_wrap_name(unsigned v)
{
    return NAME_OF(wrap_names, v);
}

const char *nv_tsc_compare_name(unsigned v)
{
    return NAME_OF(compare_names, v);
}

const char *nv_tsc_filter_name(unsigned v)
{
    return NAME_OF(filter_names, v);
}

const char *nv_tsc_mip_filter_name(unsigned v)
{
    return NAME_OF(mip_filter_names, v);
}

const char *nv_tex_aniso_name(unsigned v)
{
    return NAME_OF(aniso_names, v);
}

const char *nv_tsc_reduction_name(unsigned v)
{
    return NAME_OF(reduction_names, v);
}
