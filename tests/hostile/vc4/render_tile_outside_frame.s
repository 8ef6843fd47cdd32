# hostile: Tile_Coordinates of a tile outside the configured 64x64 frame; CT1 reset, the next frame renders
# fault: kind=bad-state unit=ct1 channel=1 gpu_addr=0x0002000b stream_addr=0x0002000b words=0x73
# message: Tile_Coordinates 1, 0 outside the 64x64 frame
#
# A 64x64 frame has one 64x64 tile (research/vc4.md 1.2: tiles are 64x64
# without multisampling); column 1 starts at x = 64. The record follows the
# 11-byte Tile_Rendering_Mode_Configuration; it is 3 bytes long, so the only
# word is the opcode 0x73.
.section bad, 0x00020000
BAD:
     Tile_Rendering_Mode_Configuration FB, 64, 64, Frame_Buffer_Color_Format_RGBA8888
     Tile_Coordinates 1, 0
     Store_Multi_Sample_End
BAD_END:

.include "good_job.inc"

# ---- the scene ----
.kick 1, BAD, BAD_END
.expect_reg RFC, 0
.include "good_job_run.inc"
