# hostile: a fragment shader branch with the reserved condition 12; the QPU faults, then a frame renders
# fault: kind=invalid-opcode unit=qpu channel=1 gpu_addr=0 stream_addr=0x00020030 words=0x00000000,0xf0c809e7
# message: reserved branch condition 12
#
# The render list draws the good triangle (a coding-3 item of a compressed
# list) with the shader at QSH (0x20030: the list ends at 0x2001F, QNV is
# 16 bytes at 0x20020). Branch conditions (bits 55:52) are 0-11 and 15
# (always); 12-14 are reserved (research/vc4.md 3, "cond[55:52] (0-3 all/any
# Z set/clear, 4-7 N, 8-11 C, 15 always)"). The instruction is brr with
# condition 12 (high word 0xF0C809E7: signal 15, cond 12 in bits 23:20,
# rel in bit 19) and offset 0; the fault names it and its two words.
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
     .word QSH, 0, VERTS
.align 16
QSH:                                   # 0x20030
     .word 0x00000000, 0xF0C809E7      # brr, condition 12
     .word 0x009E7000, 0x100009E7
     .word 0x009E7000, 0x100009E7
     .word 0x009E7000, 0x100009E7
     .word 0x009E7000, 0x300009E7
     .word 0x009E7000, 0x100009E7
     .word 0x009E7000, 0x100009E7

.include "good_job.inc"

# ---- the scene ----
.kick 1, BAD, BAD_END
.include "good_job_run.inc"
