# hostile: a binning list that branches back to itself forever; the record budget ends it, a new job runs
# fault: kind=hang unit=ct0 channel=0 gpu_addr=0x00020000 stream_addr=0x00020000 words=-
# message: budget vc4.thread-units
#
# LOOP: No_Op at 0x20000, Branch 0x20000 at 0x20001. A kick may spend
# record_budget = 2^24 records (docs/vc4.md "Threads"); the loop runs two
# per turn, so after 2^24 records (an even number) the thread stands on
# the No_Op at 0x20000 again and stops there before fetching it: no word.
.section bad, 0x00020000
LOOP:
     No_Op
     Branch LOOP
LOOP_END:

.include "good_job.inc"

# ---- the scene ----
.kick 0, LOOP, LOOP_END
.expect_reg CT0CA, 0x00020000
.include "good_job_run.inc"
