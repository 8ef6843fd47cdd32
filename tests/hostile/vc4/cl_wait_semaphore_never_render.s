# hostile: the render thread waits on a semaphore nobody increments; the watchdog ends it, then a frame renders
# fault: kind=hang unit=ct1 channel=1 gpu_addr=0x00020001 stream_addr=0x00020001 words=0x8
# message: Wait_on_Semaphore
#
# No_Op at 0x20000, Wait_On_Semaphore at 0x20001 with no binning job to
# increment: CT1 blocks with CA on the wait (CT1CS = RUN (bit 5) | semaphore
# wait (bit 12)). .wait idle is the watchdog: the fault names the wait
# record, whose opcode 8 is the word fetched.
.section bad, 0x00020000
BAD:
     No_Op
     Wait_On_Semaphore
     Halt
BAD_END:

.include "good_job.inc"

# ---- the scene ----
.kick 1, BAD, BAD_END
.expect_reg CT1CS, 0x00001020
.expect_reg CT1CA, 0x00020001
.wait idle
.expect_reg CT1CS, 0x00000008
.include "good_job_run.inc"
