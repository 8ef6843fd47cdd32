# hostile: a fragment shader acquires QPU semaphore 0, which nothing ever releases; the QPU budget ends it
# fault: kind=hang unit=qpu channel=1 gpu_addr=0 stream_addr=0x00020030 words=-
# message: did not end within 65536 instructions
#
# The render list draws the good triangle (a coding-3 item of a compressed
# list) with the shader at QSH (0x20030: the list ends at 0x2001F, QNV is
# 16 bytes at 0x20020). Its first instruction is sacq 0 (load-immediate
# mode 4, bit 4 = acquire, number 0: research/vc4.md 3). The 16 hardware
# semaphores start at 0 and an acquire stalls while the count would go
# below 0 (src/vc4/gpu/qpu_run.c, from the Reference Guide via VC4C), so the
# QPU re-issues it every cycle. The qpu_budget of 2^16 instructions ends
# the run with the QPU still on the acquire at 0x20030, which it has not
# completed (no words).
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
     .word 0x00000010, 0xE80209E7      # sacq nop, 0
     .word 0x009E7000, 0x300009E7      # nop : nop : thrend
     .word 0x009E7000, 0x100009E7
     .word 0x009E7000, 0x100009E7

.include "good_job.inc"

# ---- the scene ----
.kick 1, BAD, BAD_END
.include "good_job_run.inc"
