# hostile: a first vertex index so large that the vertex address wraps past 4 GiB; then a good job works
# fault: kind=addr-range unit=ct0 channel=0 gpu_addr=0xc0000000 stream_addr=0x00020016 words=0x21,0x00000304
# message: vertex 4210753 lies past the 32-bit bus
#
# Vertices at 0xC0000000 with a 255-byte stride, first index 0x404041 =
# 4210753: 0xC0000000 + 4210753 * 255 = 0xC0000000 + 0x400000BF =
# 0x1000000BF, past the 32-bit bus. The model does not wrap it to 0xBF (no
# source says the vertex fetch address wraps); it faults addr-range with the
# vertex array base as the data address. Words: 0x21, then payload bytes
# 1-4, the mode byte 4 and the low three bytes of the length 3: 0x00000304
# (the first index is in bytes 6-9, not in the words).
.section bad, 0x00020000
BAD:
     Tile_Binning_Mode_Configuration 0x00480000, 0x1000, 0x00490000, 1, 1, Auto_Init_Tile_State_Data
     Start_Tile_Binning
     NV_Shader_State BAD_NV
     Vertex_Array_Primitives Mode_Triangles, 3, 0x404041
     Flush
BAD_END:
.align 16
BAD_NV:
     .byte 0, 255, 0, 0
     .word SHADER, 0, 0xC0000000

.include "good_job.inc"

# ---- the scene ----
.kick 0, BAD, BAD_END
.include "good_job_run.inc"
