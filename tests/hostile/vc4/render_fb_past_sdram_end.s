# hostile: a 64x64 frame buffer whose rows run past the end of the 0xC alias; row 16 faults, then a frame renders
# fault: kind=unmapped unit=ct1 channel=1 gpu_addr=0xc4000000 stream_addr=0x00020026 words=0x19
# message: write of 0x100 bytes at 0xc4000000
#
# The frame buffer starts 4 KiB before the end of the 0xC0000000 alias
# (64 MiB SDRAM ends at 0xC3FFFFFF there). Linear rows of 64 x 4 = 256
# bytes: rows 0-15 fill 0xC3FFF000..0xC3FFFFFF, row 16 starts at
# 0xC4000000, which nothing maps. The tile buffer is first cleared to
# 0x12345678 (a store of buffer 0 only clears, as the seed's dummy store);
# the final store (0x20026: Clear_Colors 14 bytes, configuration 11,
# Tile_Coordinates 3, the dummy store 7, Tile_Coordinates 3) writes rows
# 0-15, as a DMA would, and faults on row 16.
.section bad, 0x00020000
BAD:
     Clear_Colors 0x12345678, 0, 0, 0
     Tile_Rendering_Mode_Configuration 0xC3FFF000, 64, 64, Frame_Buffer_Color_Format_RGBA8888
     Tile_Coordinates 0, 0
     Store_Tile_Buffer_General 0, 0, 0
     Tile_Coordinates 0, 0
     Store_Multi_Sample_End
BAD_END:

.include "good_job.inc"

# ---- the scene ----
.kick 1, BAD, BAD_END
.expect32 0xC3FFF000, 0x12345678        # row 0, pixel 0
.expect32 0xC3FFFFFC, 0x12345678        # row 15, pixel 63: the last byte of SDRAM
.expect_reg RFC, 0
.include "good_job_run.inc"
