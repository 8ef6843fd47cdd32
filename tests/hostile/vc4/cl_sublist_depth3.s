# hostile: Branch_To_Sub_List nested three deep in the render list; CT1 reset, the next frame renders
# fault: kind=depth unit=ct1 channel=1 gpu_addr=0x00020010 stream_addr=0x00020010 words=0x11,0x00020020
# message: nested deeper than 2 levels
#
# The control-list return stack holds two addresses (research/vc4.md 1,
# record 17: "at most 2 levels of nesting"; CTnCS has a return-stack depth
# field at bit 8, research/vc4.md 2). BAD at 0x20000 calls S1 (0x20008),
# S1 calls S2 (0x20010), S2's call of S3 (0x20020) is the third level: it
# faults with the record's address and its two words, opcode 0x11 and the
# target. The depth field of CT1CS (bits 9:8) still reads 2, with the
# error bit.
.section bad, 0x00020000
BAD:
     Branch_To_Sub_List S1             # 0x20000
     Halt                              # 0x20005
BAD_END:
.org 0x20008
S1:  Branch_To_Sub_List S2             # 0x20008
     Return_From_Sub_List
.org 0x20010
S2:  Branch_To_Sub_List S3             # 0x20010: the third level
     Return_From_Sub_List
.org 0x20020
S3:  Return_From_Sub_List

.include "good_job.inc"

# ---- the scene ----
.kick 1, BAD, BAD_END
.expect_reg CT1CS, 0x00000208          # depth 2 << 8 | error (bit 3), not running
.expect_reg CT1CA, 0x00020010
.include "good_job_run.inc"
