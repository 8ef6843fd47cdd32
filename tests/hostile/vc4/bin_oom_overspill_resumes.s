# hostile: out of tile memory, then overspill through BPOA/BPOS: the binner resumes and the frame is right (no fault)
#
# Tile allocation memory of 0x100 bytes for 1 x 1 tiles with 32-byte
# initial blocks: the initial blocks, rounded up to 256 bytes, use it all, so
# the pool (BPCA/BPCS) is empty (research/vc4.md 1.2; binner.c). The list
# holds the 0x30 that Start_Tile_Binning writes; the triangle needs its
# state (format 3 + NV 6 + config 5 + viewport 6 + clip 10 bytes with
# escapes) and its coding (2 + 7 + 1): 40 bytes, more than the 31 left, so
# the binner needs a block. With none, it raises OUTOMEM (INTCTL bit 2) and
# PCS.BMOOM (bit 8) with BMACTIVE|BMBUSY (bits 0, 1), and waits with CA on
# the Vertex_Array_Primitives record at 0x20028 (Tile_Binning_Mode_Config 16
# bytes, Start 1, Clip_Window 9, Configuration_Bits 4, Viewport_Offset 5,
# NV_Shader_State 5).
# The CPU answers OUTOMEM as the kernel does (vc4_irq.c writes BPOA, then
# BPOS): the binner takes the overspill block (SPILLUSE, bit 3; BPOS reads
# 0 once taken), finishes the triangle and flushes (FLDONE, bit 1; BFC 1).
# INTCTL keeps OUTOMEM until acknowledged: 0x4 | 0x8 | 0x2 = 0xE. A render
# list that calls the tile list at 0x480000 then draws the triangle.
.section bad, 0x00020000
BAD:
     Tile_Binning_Mode_Configuration 0x00480000, 0x100, 0x00490000, 1, 1, Auto_Init_Tile_State_Data
     Start_Tile_Binning                # 0x20010
     Clip_Window 0, 0, 64, 64          # 0x20011
     Configuration_Bits Enable_Forward_Facing_Primitive + Enable_Reverse_Facing_Primitive, 0
     Viewport_Offset 0, 0              # 0x2001e
     NV_Shader_State NV_REC            # 0x20023
     Vertex_Array_Primitives Mode_Triangles, 3, 0   # 0x20028
     Flush                             # 0x20032
BAD_END:
REND2:
     Clear_Colors 0xFF0000FF, 0, 0, 0
     Tile_Rendering_Mode_Configuration FB, 64, 64, Frame_Buffer_Color_Format_RGBA8888
     Tile_Coordinates 0, 0
     Store_Tile_Buffer_General 0, 0, 0
     Tile_Coordinates 0, 0
     Branch_To_Sub_List 0x00480000
     Store_Multi_Sample_End
REND2_END:

.include "good_job.inc"

# ---- the scene ----
.kick 0, BAD, BAD_END
.expect_reg PCS, 0x00000103
.reg BPOA, 0x00481000
.reg BPOS, 0x1000
.wait bfc, 1
.expect_reg BPOS, 0
.expect_reg PCS, 0
.expect_reg INTCTL, 0x0000000E
.expect_reg CT0CA, BAD_END
.kick 1, REND2, REND2_END
.wait rfc, 1
.expect32 FB + 4 * (64 * 2 + 2), 0xFFFFFFFF
.expect32 FB + 4 * (64 * 60 + 60), 0xFF0000FF
.include "good_job_run.inc"
