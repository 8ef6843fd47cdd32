# hostile: cl_branch_loop_bin.s with the budget vc4.thread-units lowered to 1000 on the device; a new job still fits
# fault: kind=hang unit=ct0 channel=0 gpu_addr=0x00020000 stream_addr=0x00020000 words=-
# message: budget vc4.thread-units: 1000 units ran out
# budget: vc4.thread-units=1000
#
# The model reads the budget from the device when it is created
# (cg_vc4_config.record_budget 0 = the device's budget). 1000 is even, so
# the loop stops where it does with the default budget (below); the good
# job needs far fewer units (a few records, one triangle, about 130
# fragment batches).
#
# LOOP: No_Op at 0x20000, Branch 0x20000 at 0x20001. A kick may spend
# record_budget records (2^24 by default) (docs/vc4.md "Threads"); the loop runs two
# per turn, so after an even number of records the thread stands on
# the No_Op at 0x20000 again and stops there before fetching it: no word.
.section bad, 0x00020000
LOOP:
     No_Op
     Branch LOOP
LOOP_END:

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
.kick 0, LOOP, LOOP_END
.expect_reg CT0CA, 0x00020000
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
