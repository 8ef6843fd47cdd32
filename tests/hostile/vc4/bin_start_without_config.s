# hostile: Start_Tile_Binning with no Tile_Binning_Mode_Configuration; a later configured job works
# fault: kind=bad-state unit=ct0 channel=0 gpu_addr=0x00020000 stream_addr=0x00020000 words=0x6
# message: without Tile_Binning_Mode_Configuration
#
# The binner has no tile allocation memory or tile counts on a fresh device
# (research/vc4.md 1.2: the mode configuration comes first), so the start
# record at 0x20000 (opcode 6) faults.
.section bad, 0x00020000
BAD:
     Start_Tile_Binning
BAD_END:

.include "good_job.inc"

# ---- the scene ----
.kick 0, BAD, BAD_END
.include "good_job_run.inc"
