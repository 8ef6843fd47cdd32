# hostile: a triangle strip of 2^32 - 1 vertices (all on one point); the record budget ends it, then a job works
# fault: kind=hang unit=ct0 channel=0 gpu_addr=0x00020016 stream_addr=0x00020016 words=0x21,0xffffff05
# message: budget vc4.thread-units ran out while binning primitives
#
# The NV record has stride 0, so every vertex is the same point and no
# triangle is listed, but each of the 2^32 - 3 strip triangles costs one
# unit of the kick's 2^24 budget (docs/vc4.md "Threads"): the thread ends
# with a hang on the Vertex_Array_Primitives record at 0x20016. Words:
# 0x21, then payload bytes 1-4 = mode 5 and the low three bytes 0xFFFFFF of
# the length.
.section bad, 0x00020000
BAD:
     Tile_Binning_Mode_Configuration 0x00480000, 0x1000, 0x00490000, 1, 1, Auto_Init_Tile_State_Data
     Start_Tile_Binning
     NV_Shader_State BAD_NV
     Vertex_Array_Primitives Mode_Triangle_Strip, 0xFFFFFFFF, 0
     Flush
BAD_END:
.align 16
BAD_NV:
     .byte 0, 0, 0, 0
     .word SHADER, 0, VERTS

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
