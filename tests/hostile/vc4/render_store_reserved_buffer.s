# hostile: Store_Tile_Buffer_General with the reserved buffer number 6; CT1 reset, the next frame renders
# fault: kind=bad-state unit=ct1 channel=1 gpu_addr=0x0002000e stream_addr=0x0002000e words=0x1c,0x00000006
# message: store buffer 6 is reserved
#
# Buffer to store (bits 2:0): 0 none, 1 colour, 2 Z/stencil, 3 Z, 4 VG
# mask, 5 full dump (research/vc4.md 1, records 28/29: "u16 [2:0]
# none/colour/ZS/Z/VG mask/full"); 6 and 7 are reserved.
.section bad, 0x00020000
BAD:
     Tile_Rendering_Mode_Configuration FB, 64, 64, Frame_Buffer_Color_Format_RGBA8888
     Tile_Coordinates 0, 0
     .byte 28
     .half 0x0006
     .word FB
BAD_END:

.include "good_job.inc"

# ---- the scene ----
.kick 1, BAD, BAD_END
.include "good_job_run.inc"
