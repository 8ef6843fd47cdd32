# hostile: a compressed list whose 7-byte coding-3 item starts on the last byte of SDRAM; then a frame renders
# fault: kind=unmapped unit=ct1 channel=1 gpu_addr=0x04000000 stream_addr=0x03ffffff words=0x81
# message: read of 0x6 bytes at 0x4000000
#
# The render list branches to 0x03FFFFFE, where 0x30 opens a compressed
# list and 0x81 (coding 3: three u16 indices follow, research/vc4.md 1.3)
# is the last byte of the 64 MiB SDRAM. Its 6 index bytes would be read at
# 0x04000000: the fault names the item (0x03FFFFFF) and the one byte of it
# that was read.
.section bad, 0x00020000
BAD:
     Tile_Rendering_Mode_Configuration FB, 64, 64, Frame_Buffer_Color_Format_RGBA8888
     Tile_Coordinates 0, 0
     Branch 0x03FFFFFE
BAD_END:
.section tail, 0x03FFFFFE
     .byte 0x30, 0x81

.include "good_job.inc"

# ---- the scene ----
.kick 1, BAD, BAD_END
.include "good_job_run.inc"
