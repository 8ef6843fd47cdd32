# hostile: Store_Multi_Sample with no Tile_Coordinates before it; CT1 reset, the next frame renders
# fault: kind=bad-state unit=ct1 channel=1 gpu_addr=0x0002000b stream_addr=0x0002000b words=0x18
# message: before Tile_Coordinates
#
# A store writes the current tile, which Tile_Coordinates selects
# (research/vc4.md 2: per tile the kernel's render list has loads, Tile
# Coordinates, the tile list, then stores); on a fresh device none is
# selected. The 1-byte store (opcode 0x18) follows the 11-byte
# configuration.
.section bad, 0x00020000
BAD:
     Tile_Rendering_Mode_Configuration FB, 64, 64, Frame_Buffer_Color_Format_RGBA8888
     Store_Multi_Sample
BAD_END:

.include "good_job.inc"

# ---- the scene ----
.kick 1, BAD, BAD_END
.include "good_job_run.inc"
