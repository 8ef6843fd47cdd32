# hostile: the binner runs out of tile memory and the CPU never supplies overspill; watchdog, then a new job
# fault: kind=hang unit=ct0 channel=0 gpu_addr=0x00020028 stream_addr=0x00020028 words=0x21,0x00000304
# message: OUTOMEM
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
# Without BPOA/BPOS the hardware waits forever; .wait idle, the watchdog,
# ends it with a hang fault (issue 5: "the watchdog ends it as a hang")
# naming the record: its words are the
# opcode 0x21 and payload bytes 1-4 (mode 4, length 3 << 8).
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

.include "good_job.inc"

# ---- the scene ----
.kick 0, BAD, BAD_END
.expect_reg CT0CA, 0x00020028
.expect_reg INTCTL, 0x00000004
.expect_reg PCS, 0x00000103
.expect_reg BPCS, 0
.wait idle
.expect_reg PCS, 0
.include "good_job_run.inc"
