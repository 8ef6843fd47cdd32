# hostile: a GL attribute array the primitives read past the end of SDRAM; the binner faults before it shades a vertex, then a good job works
# fault: kind=unmapped unit=ct0 channel=0 gpu_addr=0x04000000 stream_addr=0x00020016 words=0x21,0x00000304
# message: GL attribute 0 (record 0x00020030, primitives at 0x00020016): vertices 0..2 read [0x03fffff0, 0x04000020), past mapped memory at 0x04000000
#
# The GL shader record at 0x20030 (GL_Shader_State BAD_GL, 1: one
# attribute array) has attribute 0 at 0x03FFFFF0, 16 bytes, stride 16, read
# by both shaders. Vertex_Array_Primitives (at 0x20016) draws vertices
# 0..2, so the array must hold [0x03FFFFF0, 0x03FFFFF0 + 2 * 16 + 16) =
# [0x03FFFFF0, 0x04000020): memory ends at 0x04000000. The check comes
# before any shader runs (src/vc4/gpu/gl.c vc4_gl_check_attrs, as the kernel's
# validate_gl_shader_rec checks max_index against the BO).
.section bad, 0x00020000
BAD:
     Tile_Binning_Mode_Configuration 0x00480000, 0x1000, 0x00490000, 1, 1, Auto_Init_Tile_State_Data
     Start_Tile_Binning
     GL_Shader_State BAD_GL, 1
     Vertex_Array_Primitives Mode_Triangles, 3, 0
     Flush
BAD_END:
.align 16
BAD_GL:
     .byte 1, 0, 0, 0
     .word SHADER, 0
     .half 0
     .byte 1, 16
     .word SHADER, 0
     .half 0
     .byte 1, 16
     .word SHADER, 0
     .word 0x03FFFFF0
     .byte 15, 16, 0, 0

.include "good_job.inc"

# ---- the scene ----
.kick 0, BAD, BAD_END
.include "good_job_run.inc"
