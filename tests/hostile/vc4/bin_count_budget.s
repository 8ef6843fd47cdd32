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

.include "good_job.inc"

# ---- the scene ----
.kick 0, BAD, BAD_END
.include "good_job_run.inc"
