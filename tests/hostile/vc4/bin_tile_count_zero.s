# hostile: Tile_Binning_Mode_Configuration with 0 tiles across; then a good job bins and renders
# fault: kind=bad-state unit=ct0 channel=0 gpu_addr=0x00020000 stream_addr=0x00020000 words=0x70,0x00480000
# message: 0 x 1 tiles
#
# Width in tiles is an 8-bit count of tiles to bin (research/vc4.md 1.2);
# zero leaves nothing to bin into.
.section bad, 0x00020000
BAD:
     Tile_Binning_Mode_Configuration 0x00480000, 0x1000, 0x00490000, 0, 1, Auto_Init_Tile_State_Data
BAD_END:

.include "good_job.inc"

# ---- the scene ----
.kick 0, BAD, BAD_END
.include "good_job_run.inc"
