# hostile: a render list calls a sub-list that branches to itself; budget hang, then the frame renders
# fault: kind=hang unit=ct1 channel=1 gpu_addr=0x00020008 stream_addr=0x00020008 words=-
# message: budget vc4.thread-units
#
# BAD calls SUB (0x20008), whose only record is Branch SUB. The first record
# costs one unit of the 2^24 budget, every later one is the Branch, so the
# budget runs out with CA on SUB (the branch target), before the fetch:
# stream_addr and gpu_addr are 0x20008 and no word. CT1CS shows the depth
# of the call (1 << 8) and the error bit.
.section bad, 0x00020000
BAD:
     Branch_To_Sub_List SUB
     Halt
BAD_END:
.org 0x20008
SUB:
     Branch SUB

.include "good_job.inc"

# ---- the scene ----
.kick 1, BAD, BAD_END
.expect_reg CT1CS, 0x00000108
.include "good_job_run.inc"
