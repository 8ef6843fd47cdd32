# hostile: tile allocation memory in unmapped bus space: Start_Tile_Binning's first write faults; then a good job
# fault: kind=unmapped unit=ct0 channel=0 gpu_addr=0x10000000 stream_addr=0x00020010 words=0x6
# message: write of 0x1 bytes at 0x10000000
#
# The configuration only records the address (it is aligned and large
# enough); Start_Tile_Binning (0x20010, after the 16-byte configuration)
# writes the 0x30 that opens tile (0, 0)'s list at 0x10000000, in the hole
# after the first SDRAM alias.
.section bad, 0x00020000
BAD:
     Tile_Binning_Mode_Configuration 0x10000000, 0x8000, 0x00490000, 1, 1, Auto_Init_Tile_State_Data
     Start_Tile_Binning
BAD_END:

.include "good_job.inc"

# ---- the scene ----
.kick 0, BAD, BAD_END
.include "good_job_run.inc"
