# hostile: a fragment shader whose first instruction has the reserved add op 9; then a frame renders
# fault: kind=invalid-opcode unit=qpu channel=1 gpu_addr=0 stream_addr=0x00020030 words=0x099e7000,0x100009e7
# message: reserved add op 9
#
# The render list draws the good triangle (vertices 0, 1, 2 of VERTS, as a
# coding-3 item of a compressed list) with the shader at QSH (0x20030: the
# list ends at 0x2001F, QNV is at 0x20020 and 16 bytes long). Faults inside
# a QPU program are reported by unit "qpu" on the render thread's channel
# (src/vc4/gpu/qpu_run.c set_env); the QPU's own faults have no data address
# (gpu_addr 0), a memory fault names the address. The thread stops.
# Add ops 9-11 are reserved (research/vc4.md 3, add ops from Mesa
# vc4_qpu_defines.h: "8 itof, 12 add"). The instruction is nop : nop with
# op_add = 9 (bits 28:24 of the low word); the fault's words are its two
# words, low first.
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
QSH:
     .word 0x099E7000, 0x100009E7
     .word 0x009E7000, 0x300009E7
     .word 0x009E7000, 0x100009E7
     .word 0x009E7000, 0x100009E7

.include "good_job.inc"

# ---- the scene ----
.kick 1, BAD, BAD_END
.include "good_job_run.inc"
