# hostile: a render-only record (Clear_Colors) in the binning list before Start_Tile_Binning; then a good job
# fault: kind=bad-state unit=ct0 channel=0 gpu_addr=0x00020000 stream_addr=0x00020000 words=0x72,0x11223344
# message: before Start_Tile_Binning
#
# Render-only records in a binning list are copied into every tile list
# (research/vc4.md 1: "R records in a bin list are copied into tile lists"),
# which exist only after Start_Tile_Binning. Words: opcode 0x72 and payload
# bytes 1-4, the low word of the clear colour.
.section bad, 0x00020000
BAD:
     Clear_Colors 0x11223344, 0, 0, 0
BAD_END:

.include "good_job.inc"

# ---- the scene ----
.kick 0, BAD, BAD_END
.include "good_job_run.inc"
