# hostile: tile allocation memory smaller than the initial blocks of its tiles; then a good job works
# fault: kind=out-of-memory unit=ct0 channel=0 gpu_addr=0x00480000 stream_addr=0x00020000 words=0x70,0x00480000
# message: smaller than the 256 bytes
#
# 1 x 1 tiles with 32-byte initial blocks need 32 bytes, rounded up to 256
# (the pool starts on a 256-byte boundary: research/vc4.md 1.2); 0x80 bytes
# cannot hold them. The data address is the tile allocation memory.
.section bad, 0x00020000
BAD:
     Tile_Binning_Mode_Configuration 0x00480000, 0x80, 0x00490000, 1, 1, Auto_Init_Tile_State_Data
BAD_END:

.include "good_job.inc"

# ---- the scene ----
.kick 0, BAD, BAD_END
.include "good_job_run.inc"
