# hostile: the binning list increments the semaphore but never flushes, so the render thread waits forever
# fault: kind=hang unit=ct1 channel=1 gpu_addr=0x00010034 stream_addr=0x00010034 words=0x8
# message: Wait_on_Semaphore
#
# The binning thread's Increment_Semaphore only takes effect at the next
# Flush (seed 003: "That semaphore only increments when binning is done and
# everything is flushed"; research/vc4.md: Flush "fires the queued
# semaphore"). BAD configures, starts and increments, then ends without
# Flush: CT0 finishes normally (BFC stays 0), and the good render list's
# Wait_On_Semaphore (its first record, at 0x10034: the good binning list
# before it is 16 + 1 + 1 + 9 + 4 + 5 + 5 + 10 + 1 = 0x34 bytes) never
# returns. The watchdog ends CT1; after the resets the complete job works.
.section bad, 0x00020000
BAD:
     Tile_Binning_Mode_Configuration 0x00480000, 0x1000, 0x00490000, 1, 1, Auto_Init_Tile_State_Data
     Start_Tile_Binning
     Increment_Semaphore
BAD_END:

.include "good_job.inc"

# ---- the scene ----
.kick 0, BAD, BAD_END
.kick 1, GOOD_REND, GOOD_REND_END
.expect_reg CT0CA, BAD_END
.expect_reg CT0CS, 0
.expect_reg BFC, 0
.expect_reg CT1CS, 0x00001020
.wait idle
.include "good_job_run.inc"
