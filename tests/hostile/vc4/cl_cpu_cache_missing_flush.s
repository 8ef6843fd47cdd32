# hostile: the ARM writes a binning list through its cache and kicks CT0 without flushing (the seed's bug); flushed, it bins
# fault: kind=stale-gpu-read unit=ct0 channel=0 gpu_addr=0x00020000 stream_addr=0x00020000 words=-
# message: missing flush
#
# With .cpu_cache 1 the scene's sections are written through the ARM's
# cached view (docs/vc4.md "Memory"); the GPU reads SDRAM, so a list the
# ARM has not flushed is old memory (seed 003: "don't forget to flush").
# The good job's section is flushed, BAD is not: CT0's first fetch, the
# opcode byte at 0x20000, reads a dirty line. The coherency model reports it
# as a warning (the access goes ahead, as on hardware) and the thread reads
# the old byte 0, Halt, and stops at 0x20001 having binned nothing. After
# .flush the same kick bins (BFC 1).
.cpu_cache 1
.section bad, 0x00020000
BAD:
     Tile_Binning_Mode_Configuration 0x00480000, 0x1000, 0x00490000, 1, 1, Auto_Init_Tile_State_Data
     Start_Tile_Binning
     Flush
BAD_END:

.include "good_job.inc"

# ---- the scene ----
.flush 0x00010000, 0x100
.kick 0, BAD, BAD_END
.expect_reg CT0CA, 0x00020001
.expect_reg BFC, 0
.flush 0x00020000, 0x20
.kick 0, BAD, BAD_END
.wait bfc, 1
.expect_reg CT0CA, BAD_END
.include "good_job_run.inc"
