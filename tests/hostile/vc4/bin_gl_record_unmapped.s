# hostile: GL_Shader_State names a shader record past the end of SDRAM; the primitives that use it fault, then a good job works
# fault: kind=unmapped unit=ct0 channel=0 gpu_addr=0x04000000 stream_addr=0x00020016 words=0x21,0x00000304
# message: read of 0x2c bytes at 0x4000000
#
# GL_Shader_State 0x04000000, 1 (at 0x20011): a record at 0x04000000 (the
# first byte past the 64 MiB of SDRAM) with one attribute array, so 36 + 8
# = 44 (0x2c) bytes. The state is only latched; the binner reads the record
# when the primitives at 0x20016 (Vertex_Array_Primitives: opcode 0x21,
# mode 4, length 3: the fault words are the opcode and the payload
# word as the other binner faults give them) need it (src/vc4/gpu/gl.c).
.section bad, 0x00020000
BAD:
     Tile_Binning_Mode_Configuration 0x00480000, 0x1000, 0x00490000, 1, 1, Auto_Init_Tile_State_Data
     Start_Tile_Binning
     GL_Shader_State 0x04000000, 1
     Vertex_Array_Primitives Mode_Triangles, 3, 0
     Flush
BAD_END:

.include "good_job.inc"

# ---- the scene ----
.kick 0, BAD, BAD_END
.include "good_job_run.inc"
