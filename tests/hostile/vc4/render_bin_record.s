# hostile: Start_Tile_Binning, a binning-only record, in the render list; CT1 reset, the next frame renders
# fault: kind=bad-state unit=ct1 channel=1 gpu_addr=0x00020001 stream_addr=0x00020001 words=0x6
# message: binning-list record
#
# Start_Tile_Binning is a binning-only record (research/vc4.md 1: record 6
# is marked B, "B = bin list only", with Flush, Flush All State, the
# clipper records and Tile Binning Mode Config). A No_Op runs first, the start at 0x20001 faults.
.section bad, 0x00020000
BAD:
     No_Op
     Start_Tile_Binning
BAD_END:

.include "good_job.inc"

# ---- the scene ----
.kick 1, BAD, BAD_END
.include "good_job_run.inc"
