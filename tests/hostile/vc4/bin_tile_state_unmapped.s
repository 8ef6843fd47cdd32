# hostile: the tile state array runs past the end of SDRAM; then a good job bins and renders
# fault: kind=unmapped unit=ct0 channel=0 gpu_addr=0x04000000 stream_addr=0x00020000 words=0x70,0x00480000
# message: tile state data array
#
# The tile state array holds 48 bytes per tile (research/vc4.md 1.2,
# khrn_prod_4.h). At 0x03FFFFF0 the 48 bytes of 1 x 1 tiles cross the end
# of the 64 MiB SDRAM: the first byte no alias maps, 0x04000000, is the
# fault's address.
.section bad, 0x00020000
BAD:
     Tile_Binning_Mode_Configuration 0x00480000, 0x1000, 0x03FFFFF0, 1, 1, Auto_Init_Tile_State_Data
BAD_END:

.include "good_job.inc"

# ---- the scene ----
.kick 0, BAD, BAD_END
.include "good_job_run.inc"
