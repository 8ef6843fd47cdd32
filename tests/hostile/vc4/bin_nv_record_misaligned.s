# hostile: NV_Shader_State pointing at a record that is not 16-byte aligned; then an aligned job renders
# fault: kind=bad-align unit=ct0 channel=0 gpu_addr=0x00020108 stream_addr=0x00020000 words=0x41,0x00020108
# message: not 16-byte aligned
#
# Shader records are 16-byte aligned (seed 003: ".align 16 // 128-Bit Align"
# before NV_SHADER_STATE_RECORD; research/vc4.md 1, record 65: "u32
# address of a 16-byte-aligned record"). The record at 0x20000 names
# 0x20108: that shader-record address is the fault's data address, the
# NV_Shader_State record its stream address, and its words the opcode 0x41
# and the address word.
.section bad, 0x00020000
BAD:
     NV_Shader_State 0x00020108
BAD_END:

.include "good_job.inc"

# ---- the scene ----
.kick 0, BAD, BAD_END
.include "good_job_run.inc"
