# hostile: qpu_never_ends.s with the budget vc4.qpu-insns lowered to 1000 on the device; the good frame's shader still fits
# fault: kind=hang unit=qpu channel=1 gpu_addr=0 stream_addr=0x00020030 words=-
# message: budget vc4.qpu-insns: QPU program did not end within 1000 instructions
# budget: vc4.qpu-insns=1000
#
# 1000 is a multiple of 4, the instructions of one turn of the loop below,
# so the run stops at the branch at 0x20030 as with the default budget.
#
# The render list draws the good triangle (vertices 0, 1, 2 of VERTS, as a
# coding-3 item of a compressed list) with the shader at QSH (0x20030: the
# list ends at 0x2001F, QNV is at 0x20020 and 16 bytes long). Faults inside
# a QPU program are reported by unit "qpu" on the render thread's channel
# (src/vc4/qpu_run.c set_env); the QPU's own faults have no data address
# (gpu_addr 0), a memory fault names the address. The thread stops.
# QSH: brr to itself, then its three delay slots (research/vc4.md 3:
# branches take effect after 3 delay slots). Each turn runs 4 instructions,
# so after qpu_budget / 4 turns (2^16 / 4 = 16384 by default) the next instruction is the
# branch at 0x20030 again; the run stops before fetching it (no word).
.section bad, 0x00020000
BAD:
     Tile_Rendering_Mode_Configuration FB, 64, 64, Frame_Buffer_Color_Format_RGBA8888
     Tile_Coordinates 0, 0             # 0x2000b
     Primitive_List_Format 0x12        # 0x2000e
     NV_Shader_State QNV               # 0x20010
     .byte 0x30                        # 0x20015: Compressed_Primitive_List
     .byte 0x81, 0, 0, 1, 0, 2, 0      # 0x20016: coding 3, vertices 0, 1, 2
     .byte 0x80                        # escape: end of the list
     Store_Multi_Sample_End
BAD_END:
.align 16
QNV:
     .byte 0, 12, 0, 0
     .word QSH, 0, VERTS               # the good triangle, the hostile shader
.align 16
QSH:                                   # 0x20030
     .word 0xFFFFFFE0, 0xF0F809E7      # brr nop, nop, QSH (offset -32)
     .word 0x009E7000, 0x100009E7      # nop : nop
     .word 0x009E7000, 0x100009E7
     .word 0x009E7000, 0x100009E7

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
