# hostile: Flush in a binning list with no Start_Tile_Binning before it; CT0 reset, then a job bins and renders
# fault: kind=bad-state unit=ct0 channel=0 gpu_addr=0x00020000 stream_addr=0x00020000 words=0x4
# message: Flush before Start_Tile_Binning
#
# Flush ends the tile lists Start_Tile_Binning opened (research/vc4.md 1):
# on a fresh device there are none. The Flush record (opcode 4, 1 byte) at
# 0x20000 is named; BFC stays 0 (no flush happened).
.section bad, 0x00020000
BAD:
     Flush
BAD_END:

.include "good_job.inc"

# ---- the scene ----
.kick 0, BAD, BAD_END
.expect_reg BFC, 0
.include "good_job_run.inc"
