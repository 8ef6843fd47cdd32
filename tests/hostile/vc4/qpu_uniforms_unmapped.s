# hostile: a fragment shader reads a uniform from an unmapped uniforms address; then a frame renders
# fault: kind=unmapped unit=qpu channel=1 gpu_addr=0x10000000 stream_addr=0x00020030 words=0x15827d80,0x10020827
# message: read of 0x4 bytes at 0x10000000
#
# The render list draws the good triangle (a coding-3 item of a compressed
# list) with the shader at QSH (0x20030: the list ends at 0x2001F, QNV is
# 16 bytes at 0x20020). QNV's uniforms address is 0x10000000, in the bus
# hole. The first instruction, mov r0, unif (or with raddr_a 32: research/
# vc4.md 3, read 32 = unif), reads the uniform stream there: the fault names
# the data address, the instruction (unit qpu, on the render thread's
# channel) and its two words.
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
     .byte 0, 12, 1, 0                 # one uniform
     .word QSH, 0x10000000, VERTS      # uniforms in the hole after the first alias
.align 16
QSH:                                   # 0x20030
     .word 0x15827D80, 0x10020827      # mov r0, unif : nop
     .word 0x009E7000, 0x300009E7      # nop : nop : thrend
     .word 0x009E7000, 0x100009E7
     .word 0x009E7000, 0x100009E7

.include "good_job.inc"

# ---- the scene ----
.kick 1, BAD, BAD_END
.include "good_job_run.inc"
