# hostile: a frame buffer in unmapped bus space: the end-of-frame store faults; CT1 reset, the next frame renders
# fault: kind=unmapped unit=ct1 channel=1 gpu_addr=0x10000000 stream_addr=0x0002000e words=0x19
# message: write of 0x100 bytes at 0x10000000
#
# Store_Multi_Sample_End (0x2000E, after the 11-byte configuration and the
# 3-byte Tile_Coordinates) writes the tile to the configured frame buffer,
# row by row (64 pixels x 4 bytes = 0x100); the first row lands in the hole
# at 0x10000000. RFC stays 0: the frame did not end.
.section bad, 0x00020000
BAD:
     Tile_Rendering_Mode_Configuration 0x10000000, 64, 64, Frame_Buffer_Color_Format_RGBA8888
     Tile_Coordinates 0, 0
     Store_Multi_Sample_End
BAD_END:

.include "good_job.inc"

# ---- the scene ----
.kick 1, BAD, BAD_END
.expect_reg RFC, 0
.include "good_job_run.inc"
