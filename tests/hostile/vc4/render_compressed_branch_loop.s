# hostile: a compressed primitive list whose relative branch targets itself; the budget ends it, then a frame renders
# fault: kind=hang unit=ct1 channel=1 gpu_addr=0x00020020 stream_addr=0x00020020 words=0x00ffff82
# message: relative-branch loop
#
# The 0x30 record at 0x2001F opens a compressed list; its first item, at the
# 32-byte boundary 0x20020, is the relative branch 0x82 with s16 -1. The
# target is counted in 32-byte units from the unit after the one holding
# the 0x82: 0x20020 + 32 - 32 = 0x20020. (research/vc4.md 1.3 writes
# "(addr & ~31) + n*32"; the model follows seed 003's own dump, where the
# branch at 0x0040021C with n = 0x45 leads to 0x00400AC0 = 0x00400220 +
# 0x45 * 32: docs/vc4.md "Binner and tile lists".) Every branch costs a
# unit of the 2^24 budget; the fault names the item: its address and its
# three bytes 82 FF FF as a little-endian word.
.section bad, 0x00020000
BAD:
     Tile_Rendering_Mode_Configuration FB, 64, 64, Frame_Buffer_Color_Format_RGBA8888
     Tile_Coordinates 0, 0
     Branch LIST                       # over the padding (zero bytes are Halt)
.org 0x2001F
LIST:
     .byte 0x30                        # Compressed_Primitive_List
     .byte 0x82, 0xFF, 0xFF            # Relative_Branch -1: itself
BAD_END:

.include "good_job.inc"

# ---- the scene ----
.kick 1, BAD, BAD_END
.include "good_job_run.inc"
