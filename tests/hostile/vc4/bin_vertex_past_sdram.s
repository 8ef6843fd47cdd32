# hostile: the shaded vertex array runs past the end of SDRAM; the second vertex faults, then a good job works
# fault: kind=unmapped unit=ct0 channel=0 gpu_addr=0x04000000 stream_addr=0x00020016 words=0x21,0x00000304
# message: read of 0x4 bytes at 0x4000000
#
# The NV record puts the vertices at 0x03FFFFF4 with a 12-byte stride: vertex
# 0 is the last 12 bytes of SDRAM, vertex 1 starts at 0x04000000. The binner
# reads each vertex's Xs, Ys (4 bytes): the second read faults. The record
# is Vertex_Array_Primitives at 0x20016 (opcode 0x21; mode 4 | length 3 << 8).
.section bad, 0x00020000
BAD:
     Tile_Binning_Mode_Configuration 0x00480000, 0x1000, 0x00490000, 1, 1, Auto_Init_Tile_State_Data
     Start_Tile_Binning
     NV_Shader_State BAD_NV
     Vertex_Array_Primitives Mode_Triangles, 3, 0
     Flush
BAD_END:
.align 16
BAD_NV:
     .byte 0, 12, 0, 0
     .word SHADER, 0, 0x03FFFFF4

.include "good_job.inc"

# ---- the scene ----
.kick 0, BAD, BAD_END
.include "good_job_run.inc"
