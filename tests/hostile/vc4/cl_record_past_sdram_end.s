# hostile: a Branch record whose opcode is the last byte of SDRAM; its address bytes are unmapped
# fault: kind=unmapped unit=ct0 channel=0 gpu_addr=0x04000000 stream_addr=0x03ffffff words=0x10
# message: read of 0x4 bytes at 0x4000000
#
# Three No_Ops at 0x03FFFFFC..0x03FFFFFE, then the Branch opcode (16) at
# 0x03FFFFFF, the last byte of the 64 MiB SDRAM. The thread fetches the
# opcode, then the 4 payload bytes at 0x04000000, which no alias maps:
# gpu_addr is that first unmapped byte, stream_addr the record, and the only
# word read is the opcode 0x10.
.section tail, 0x03FFFFFC
     No_Op
     No_Op
     No_Op
     .byte 16                          # Branch: its 32-bit address would follow

.include "good_job.inc"

# ---- the scene ----
.kick 0, 0x03FFFFFC, 0x04000004
.expect_reg CT0CA, 0x03FFFFFF
.include "good_job_run.inc"
