# hostile: each thread waits on the other's semaphore before incrementing it: a deadlock; the watchdog ends both
# fault: kind=hang unit=ct0 channel=0 gpu_addr=0x00020000 stream_addr=0x00020000 words=0x8
# fault: kind=hang unit=ct1 channel=1 gpu_addr=0x00020010 stream_addr=0x00020010 words=0x8
# message: Wait_on_Semaphore
#
# CT0 (at 0x20000) and CT1 (at 0x20010) both start with Wait_On_Semaphore,
# and only increment after it: neither can go on (CTnCS = RUN | semaphore
# wait, 0x1020). The watchdog (.wait idle) ends the threads in order, CT0
# first, each fault naming its wait record (opcode 8). After both CTnCS
# resets, a normal job (bin increments, render waits) works.
.section bad, 0x00020000
BIN:
     Wait_On_Semaphore
     Increment_Semaphore
BIN_END:
.org 0x20010
REND:
     Wait_On_Semaphore
     Increment_Semaphore
REND_END:

.include "good_job.inc"

# ---- the scene ----
.kick 0, BIN, BIN_END
.kick 1, REND, REND_END
.expect_reg CT0CS, 0x00001020
.expect_reg CT1CS, 0x00001020
.wait idle
.include "good_job_run.inc"
