/* vc4 family: the GL state records both engines latch the same way (the
 * binner to copy into tile lists, the renderer to draw with), read with the
 * cl.def field accessors and dispatched by an opcode-indexed table. */
#include "vc4/vc4_internal.h"

/* prim_format keeps the Primitive_List_Format payload byte as it is */
_Static_assert(VC4_FB_Primitive_List_Format_Primitive_Type == 0 &&
                   VC4_FB_Primitive_List_Format_Data_Type == 4 &&
                   VC4_SIZE_Primitive_List_Format == 2,
               "Primitive_List_Format is one payload byte");

typedef void (*vc4_latch_fn)(vc4_bin_state *st, const uint8_t *pl);

static void l_prim_format(vc4_bin_state *st, const uint8_t *pl)
{
    st->prim_format = pl[0]; /* Primitive_Type [3:0], Data_Type [7:4], as a byte */
}

static void l_nv_state(vc4_bin_state *st, const uint8_t *pl)
{
    st->nv_record = VC4_ADDR(pl, NV_Shader_State, Shader_Record_Address);
    st->nv_valid = true;
    st->gl = false;
}

/* GL_Shader_State: the whole payload word (address, extended bit, number
 * of attribute arrays), as the binner copies it into tile lists */
static void l_gl_state(vc4_bin_state *st, const uint8_t *pl)
{
    st->nv_record = vc4_le32(pl);
    st->nv_valid = true;
    st->gl = true;
}

static void l_viewport(vc4_bin_state *st, const uint8_t *pl)
{
    st->vp_x = (int16_t)VC4_GET(pl, Viewport_Offset, Viewport_Centre_X_coordinate);
    st->vp_y = (int16_t)VC4_GET(pl, Viewport_Offset, Viewport_Centre_Y_coordinate);
    st->vp_valid = true;
}

static void l_clip_window(vc4_bin_state *st, const uint8_t *pl)
{
    st->clip[0] = (uint16_t)VC4_GET(pl, Clip_Window, Clip_Window_Left_Pixel_Coordinate);
    st->clip[1] = (uint16_t)VC4_GET(pl, Clip_Window, Clip_Window_Bottom_Pixel_Coordinate);
    st->clip[2] = (uint16_t)VC4_GET(pl, Clip_Window, Clip_Window_Width_in_pixels);
    st->clip[3] = (uint16_t)VC4_GET(pl, Clip_Window, Clip_Window_Height_in_pixels);
    st->clip_valid = true;
}

static void l_flat(vc4_bin_state *st, const uint8_t *pl)
{
    st->flat_flags = (uint32_t)VC4_GET(pl, Flat_Shade_Flags, Flat_shading_Flags);
    st->flat_valid = true;
}

/* Depth_Offset: the payload word as it is (factor, units: float 1-8-7,
 * the top 16 bits of an f32; Mesa vc4_state.c float_to_187_half) */
static void l_depth_offset(vc4_bin_state *st, const uint8_t *pl)
{
    st->depth_offset = (uint32_t)VC4_GET(pl, Depth_Offset, Depth_Offset_Factor) |
                       (uint32_t)VC4_GET(pl, Depth_Offset, Depth_Offset_Units) << 16;
    st->depth_offset_valid = true;
}

static void l_zplanes(vc4_bin_state *st, const uint8_t *pl)
{
    st->zmin = vc4_f32((uint32_t)VC4_GET(pl, Z_min_and_max_clipping_planes, Minimum_Zw));
    st->zmax = vc4_f32((uint32_t)VC4_GET(pl, Z_min_and_max_clipping_planes, Maximum_Zw));
    st->zplanes_valid = true;
}

static const vc4_latch_fn latchers[256] = {
    [VC4_OP_Primitive_List_Format] = l_prim_format,
    [VC4_OP_NV_Shader_State] = l_nv_state,
    [VC4_OP_GL_Shader_State] = l_gl_state,
    [VC4_OP_Viewport_Offset] = l_viewport,
    [VC4_OP_Clip_Window] = l_clip_window,
    [VC4_OP_Flat_Shade_Flags] = l_flat,
    [VC4_OP_Depth_Offset] = l_depth_offset,
    [VC4_OP_Z_min_and_max_clipping_planes] = l_zplanes,
};

void vc4_latch_state(vc4_bin_state *st, const uint8_t *rec)
{
    if (latchers[rec[0]])
        latchers[rec[0]](st, rec + 1);
}
