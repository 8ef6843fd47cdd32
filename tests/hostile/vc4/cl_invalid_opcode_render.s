# hostile: opcode 255 in the render list; after a CT1 reset the binner and the renderer draw a frame
# fault: kind=invalid-opcode unit=ct1 channel=1 gpu_addr=0x00020002 stream_addr=0x00020002 words=0xff
#
# 255 is not a record (research/vc4.md 1: the table ends with 254, the
# software-only GEM handles). Two No_Ops run, the byte at 0x20002 faults.
# CT0's state is untouched by it: CT1 is reset (CT1CS bit 15, which also
# drops CT1's semaphore count, so it is done before the binner increments),
# CT0 bins the good frame (BFC = 1) and CT1 renders it.
.section bad, 0x00020000
BAD:
     No_Op
     No_Op
     .byte 0xFF
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
.kick 1, BAD, BAD_END
.expect_reg CT1CS, 0x00000008          # stopped with the error bit
.reg CT1CS, 0x8000
.expect_reg CT1CS, 0
.kick 0, GOOD_BIN, GOOD_BIN_END
.wait bfc, 1
.kick 1, GOOD_REND, GOOD_REND_END
.wait rfc, 1
.expect32 FB + 4 * (64 * 2 + 2), 0xFFFFFFFF
.expect32 FB + 4 * (64 * 60 + 60), 0xFF0000FF
# NO_GOOD_RUN
