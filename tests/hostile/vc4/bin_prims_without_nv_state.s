# hostile: primitives in a binning list before any shader state; the next job with NV_Shader_State works
# fault: kind=bad-state unit=ct0 channel=0 gpu_addr=0x00020011 stream_addr=0x00020011 words=0x21,0x00000304
# message: NV_Shader_State
#
# The binner reads vertex positions through the NV shader record; without
# one the Vertex_Array_Primitives record at 0x20011 (after the 16-byte mode
# configuration and Start_Tile_Binning) faults. Its words: opcode 0x21 and
# payload bytes 1-4 = mode 4 | length 3 << 8.
.section bad, 0x00020000
BAD:
     Tile_Binning_Mode_Configuration 0x00480000, 0x1000, 0x00490000, 1, 1, Auto_Init_Tile_State_Data
     Start_Tile_Binning
     Vertex_Array_Primitives Mode_Triangles, 3, 0
     Flush
BAD_END:

.include "good_job.inc"

# ---- the scene ----
.kick 0, BAD, BAD_END
.include "good_job_run.inc"
