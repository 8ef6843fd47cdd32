# hostile: the binning thread waits on a semaphore the render thread never increments; watchdog, then a frame
# fault: kind=hang unit=ct0 channel=0 gpu_addr=0x00020000 stream_addr=0x00020000 words=0x8
# message: Wait_on_Semaphore
#
# The binning list starts with Wait_On_Semaphore (0x20000); CT1 is idle, so
# nothing ever increments CT0's semaphore. CT0CS = RUN | semaphore wait
# (0x1020) until .wait idle, the watchdog, ends it with a hang on the wait.
.section bad, 0x00020000
BAD:
     Wait_On_Semaphore
     Halt
BAD_END:

.include "good_job.inc"

# ---- the scene ----
.kick 0, BAD, BAD_END
.expect_reg CT0CS, 0x00001020
.wait idle
.expect_reg CT0CS, 0x00000008
.include "good_job_run.inc"
