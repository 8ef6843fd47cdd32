# hostile: GL_Shader_State (vertex shading on the QPUs), which the model does not run; then an NV job works
# fault: kind=unsupported unit=ct0 channel=0 gpu_addr=0x00020011 stream_addr=0x00020011 words=0x40,0x00020100
# message: not supported yet
#
# Valid input the model cannot run honestly (docs/vc4.md "Not supported
# yet": GL and VG shader states): an explicit unsupported fault on the
# record at 0x20011 (after the 16-byte configuration and Start), with its
# opcode 0x40 and address word.
.section bad, 0x00020000
BAD:
     Tile_Binning_Mode_Configuration 0x00480000, 0x1000, 0x00490000, 1, 1, Auto_Init_Tile_State_Data
     Start_Tile_Binning
     .byte 64
     .word 0x00020100
     Flush
BAD_END:

.include "good_job.inc"

# ---- the scene ----
.kick 0, BAD, BAD_END
.include "good_job_run.inc"
