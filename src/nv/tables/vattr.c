/* nv: the vertex attribute size table and the draw names (vattr.h). */
#include <string.h>
#include "cmdgpu/nv.h"
#include "vattr.h"

static const nv_va_size va_sizes[] = {
    {0x01, "R32_G32_B32_A32", 4, {32, 32, 32, 32}, 16, 0},
    {0x02, "R32_G32_B32", 3, {32, 32, 32, 0}, 12, 0},
    {0x03, "R16_G16_B16_A16", 4, {16, 16, 16, 16}, 8, 0},
    {0x04, "R32_G32", 2, {32, 32, 0, 0}, 8, 0},
    {0x05, "R16_G16_B16", 3, {16, 16, 16, 0}, 6, 0},
    {0x0A, "R8_G8_B8_A8", 4, {8, 8, 8, 8}, 4, 0},
    {0x0F, "R16_G16", 2, {16, 16, 0, 0}, 4, 0},
    {0x12, "R32", 1, {32, 0, 0, 0}, 4, 0},
    {0x13, "R8_G8_B8", 3, {8, 8, 8, 0}, 3, 0},
    {0x18, "R8_G8", 2, {8, 8, 0, 0}, 2, 0},
    {0x1B, "R16", 1, {16, 0, 0, 0}, 2, 0},
    {0x1D, "R8", 1, {8, 0, 0, 0}, 1, 0},
    {0x2F, "A8B8G8R8", 4, {8, 8, 8, 8}, 4, 0},
    {0x30, "A2B10G10R10", 4, {10, 10, 10, 2}, 4, 0},
    {0x31, "B10G11R11", 3, {11, 11, 10, 0}, 4, 0},
    {0x32, "G8R8", 2, {8, 8, 0, 0}, 2, 0},
    {0x33, "X8B8G8R8", 3, {8, 8, 8, 0}, 4, 0},
    {0x34, "A8", 1, {8, 0, 0, 0}, 1, 3},
};

const nv_va_size *nv_va_size_find(unsigned code)
{
    for (size_t i = 0; i < sizeof(va_sizes) / sizeof(va_sizes[0]); i++)
        if (va_sizes[i].code == code)
            return &va_sizes[i];
    return NULL;
}

const char *nv_topology_name(unsigned op)
{
    const char *n = cg_nv_enum_name(CG_NV_CLASS_3D, "BEGIN", "OP", op);
    return n ? n : "?";
}

const char *nv_va_type_name(unsigned type)
{
    const char *n = cg_nv_enum_name(CG_NV_CLASS_3D, "SET_VERTEX_ATTRIBUTE_A", "NUMERICAL_TYPE",
                                    type);
    return n && strncmp(n, "NUM_", 4) == 0 ? n + 4 : "?";
}
