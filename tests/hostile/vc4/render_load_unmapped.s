# hostile: Load_Tile_Buffer_General from unmapped memory: it faults at the next Tile_Coordinates; then a frame renders
# fault: kind=unmapped unit=ct1 channel=1 gpu_addr=0x10000000 stream_addr=0x00020012 words=0x73
# message: read of 0x100 bytes at 0x10000000
#
# A load is performed when the next Tile_Coordinates selects the tile
# (research/vc4.md 2: "A load runs when the next Tile Coordinates is
# processed"). The load (colour, raster, RGBA8888) of 0x10000000 at
# 0x2000B is only recorded; Tile_Coordinates at 0x20012 (after the 7-byte
# load) reads the first 256-byte row from the hole at 0x10000000 and is the
# record the fault names (its only word: opcode 0x73).
.section bad, 0x00020000
BAD:
     Tile_Rendering_Mode_Configuration FB, 64, 64, Frame_Buffer_Color_Format_RGBA8888
     .byte 29                          # Load_Tile_Buffer_General
     .half 0x0001                      # colour, raster, RGBA8888
     .word 0x10000000
     Tile_Coordinates 0, 0
     Store_Multi_Sample_End
BAD_END:

.include "good_job.inc"

# ---- the scene ----
.kick 1, BAD, BAD_END
.include "good_job_run.inc"
