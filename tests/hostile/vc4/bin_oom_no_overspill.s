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

# ---- the good job: the same device bins and renders a 64x64 frame ----
# One tile; the triangle (0,0) (0,64) (64,0) covers the pixels whose centre
# has x + y < 64 (pixel (2,2): 5 < 64, white) and not pixel (60,60) (121 > 64:
# the clear colour 0xFF0000FF stays).
.equ FB, 0x00600000
.equ BIN_ADDRESS, 0x00400000
.equ BIN_MEM_SIZE, 0x00008000
.equ BIN_BASE, 0x00500000

.section good, 0x00010000
GOOD_BIN:
     Tile_Binning_Mode_Configuration BIN_ADDRESS, BIN_MEM_SIZE, BIN_BASE, 1, 1, Auto_Init_Tile_State_Data
     Start_Tile_Binning
     Increment_Semaphore
     Clip_Window 0, 0, 64, 64
     Configuration_Bits Enable_Forward_Facing_Primitive + Enable_Reverse_Facing_Primitive, Early_Z_Updates_Enable
     Viewport_Offset 0, 0
     NV_Shader_State NV_REC
     Vertex_Array_Primitives Mode_Triangles, 3, 0
     Flush
GOOD_BIN_END:
GOOD_REND:
     Wait_On_Semaphore
     Clear_Colors 0xFF0000FF, 0, 0, 0
     Tile_Rendering_Mode_Configuration FB, 64, 64, Frame_Buffer_Color_Format_RGBA8888
     Tile_Coordinates 0, 0
     Store_Tile_Buffer_General 0, 0, 0      # the seed's dummy store: clears the tile buffer
     Tile_Coordinates 0, 0
     Branch_To_Sub_List BIN_ADDRESS
     Store_Multi_Sample_End
GOOD_REND_END:
.align 16
NV_REC:
     .byte 0, 12, 0, 0          # flags, shaded vertex stride, uniforms, varyings
     .word SHADER, 0, VERTS
.align 16
VERTS:
     .half 0, 0
     .float 1.0, 1.0
     .half 0, 64 * 16
     .float 1.0, 1.0
     .half 64 * 16, 0
     .float 1.0, 1.0
.align 16
SHADER:                          # seed 003's fill shader: tlbc = white
     .word 0x009E7000, 0x100009E7
     .word 0xFFFFFFFF, 0xE0020BA7
     .word 0x009E7000, 0x500009E7
     .word 0x009E7000, 0x300009E7
     .word 0x009E7000, 0x100009E7
     .word 0x009E7000, 0x100009E7

# ---- the scene ----
.kick 0, BAD, BAD_END
.expect_reg CT0CA, 0x00020028
.expect_reg INTCTL, 0x00000004
.expect_reg PCS, 0x00000103
.expect_reg BPCS, 0
.wait idle
.expect_reg PCS, 0
# after the fault: reset both threads (CTnCS bit 15, research/vc4.md 2),
# clear BFC and RFC (write 1), then run the good job on the same device
.reg CT0CS, 0x8000
.reg CT1CS, 0x8000
.reg BFC, 1
.reg RFC, 1
.kick 0, GOOD_BIN, GOOD_BIN_END
.kick 1, GOOD_REND, GOOD_REND_END
.wait bfc, 1
.wait rfc, 1
.expect_reg CT0CA, GOOD_BIN_END
.expect_reg CT1CA, GOOD_REND_END
.expect32 FB + 4 * (64 * 2 + 2), 0xFFFFFFFF
.expect32 FB + 4 * (64 * 60 + 60), 0xFF0000FF
