# hostile: Store_Tile_Buffer_General with the reserved tiling 3; CT1 reset, the next frame renders
# fault: kind=bad-state unit=ct1 channel=1 gpu_addr=0x0002000e stream_addr=0x0002000e words=0x1c,0x00000031
# message: tiling 3 is reserved
#
# The store's tiling field (bits 5:4) is 0 raster, 1 T, 2 LT, as the
# rendering mode's "[7:6] linear/T/LT" (research/vc4.md 1): 3 is reserved.
# The half-word 0x0031 is colour (buffer 1) with tiling 3. The record at 0x2000E follows
# the configuration (11 bytes) and Tile_Coordinates (3); its words: 0x1c,
# then bytes 1-4: 0x31, 0x00 and the two low bytes of the address word
# (0x00600000: 0x00, 0x00).
.section bad, 0x00020000
BAD:
     Tile_Rendering_Mode_Configuration FB, 64, 64, Frame_Buffer_Color_Format_RGBA8888
     Tile_Coordinates 0, 0
     .byte 28
     .half 0x0031
     .word FB
BAD_END:

.include "good_job.inc"

# ---- the scene ----
.kick 1, BAD, BAD_END
.include "good_job_run.inc"
