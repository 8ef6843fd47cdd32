# hostile: reserved control-list opcode 9 in the binning list; a new job runs after CT0CS reset
# fault: kind=invalid-opcode unit=ct0 channel=0 gpu_addr=0x00020001 stream_addr=0x00020001 words=0x9
#
# Opcodes 9-15 have no record (research/vc4.md 1, from Mesa vc4_packet.h:
# nothing between Wait on Semaphore, 8, and Branch, 16). The
# No_Op at 0x20000 runs, the byte 9 at 0x20001 faults with its address and
# the opcode as the only word.
.section bad, 0x00020000
BAD:
     No_Op
     .byte 9
     Halt
BAD_END:

.include "good_job.inc"

# ---- the scene ----
.kick 0, BAD, BAD_END
.expect_reg CT0CA, 0x00020001
.include "good_job_run.inc"
