# hostile: tile allocation memory at an address that is not 32-byte aligned; then a good job bins and renders
# fault: kind=bad-align unit=ct0 channel=0 gpu_addr=0x00480010 stream_addr=0x00020000 words=0x70,0x00480010
# message: not 32-byte aligned
#
# Tile lists are made of 32-byte units (the relative branch 0x82 counts
# 32-byte units, docs/vc4.md "Binner"; the blob aligns binner memory to 256,
# research/vc4.md 1.2, khrn_prod_4.h); the model requires the 32 bytes the
# list format needs. 0x480010 is 16 mod 32. Words: opcode 0x70 and the
# first payload word, the tile allocation address.
.section bad, 0x00020000
BAD:
     Tile_Binning_Mode_Configuration 0x00480010, 0x1000, 0x00490000, 1, 1, Auto_Init_Tile_State_Data
BAD_END:

.include "good_job.inc"

# ---- the scene ----
.kick 0, BAD, BAD_END
.include "good_job_run.inc"
