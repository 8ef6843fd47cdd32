# hostile: Tile_Rendering_Mode_Configuration with width 0; CT1 reset, the next frame renders
# fault: kind=bad-state unit=ct1 channel=1 gpu_addr=0x00020000 stream_addr=0x00020000 words=0x71,0x00600000
# message: Tile_Rendering_Mode_Configuration 0x64
#
# Width and height are 16-bit pixel counts (research/vc4.md 1); a zero-wide
# frame has no tile. The model takes 1..4096 a side (research/vc4.md 4:
# surfaces are at most 4096 pixels a side). Words: opcode 0x71 and the frame
# buffer address word.
.section bad, 0x00020000
BAD:
     Tile_Rendering_Mode_Configuration FB, 0, 64, Frame_Buffer_Color_Format_RGBA8888
BAD_END:

.include "good_job.inc"

# ---- the scene ----
.kick 1, BAD, BAD_END
.include "good_job_run.inc"
