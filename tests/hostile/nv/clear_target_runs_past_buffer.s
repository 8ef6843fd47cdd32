# hostile: a colour clear of a 64x64 pitch target whose rows run past the end of its 4 KiB buffer; the rows inside land, channel 1 still works
# fault: kind=unmapped unit=3d channel=0 gpu_addr=0x100021000 stream_addr=0x100000050 words=0x803c0674,0x0000003c
# message: no mapping at 0x100021000
#
# Colour target 0 (SET_COLOR_TARGET_A..(0), 0x800.., INC count 8, 0x20080200
# at +8, data +0xc..+0x28): address rt, WIDTH 256 (a pitch target's row
# pitch in bytes, docs/nv-3d.md), HEIGHT 64, FORMAT 0xd5 A8B8G8R8 (4 bytes),
# MEMORY 0x1000 (LAYOUT 12 = PITCH, clb197.h), one layer. RT_CONTROL = 1
# (IMMD at +0x2c); surface clip 64 x 64 (+0x30..+0x38); clear value
# (1.0, 0, 0, 1.0) (+0x3c..+0x4c). CLEAR_SURFACE 0x3c (R, G, B, A of target
# 0; 0x19d0, index 0x674) as IMMD 0x803c0674 at +0x50. The target needs
# 64 rows x 256 bytes = 16 KiB but rt holds 4 KiB: rows 0..15 fill it (checked:
# A8B8G8R8 of (1, 0, 0, 1) is 0xff0000ff), row 16 starts at rt + 0x1000 =
# 0x100021000, unmapped: the row write takes the MMU fault there.
.buffer pb,  0x100000000, 0x1000
.buffer sem, 0x100010000, 0x1000
.buffer rt,  0x100020000, 0x1000
.section pb, pb
bad:
    inc 0, SET_OBJECT, 0xB197
    inc 0, SET_COLOR_TARGET_A(0), rt >> 32, rt & 0xffffffff, 256, 64, 0xd5, 0x1000, 1, 0
    mthd 0, RT_CONTROL, 0x1
    inc 0, SET_SURFACE_CLIP_HORIZONTAL, 64 << 16, 64 << 16
    inc 0, SET_COLOR_CLEAR_VALUE(0), 0x3f800000, 0, 0, 0x3f800000
    mthd 0, CLEAR_SURFACE, 0x3c
bad_end:
good:
    inc 0, SEMAPHOREA, sem >> 32, sem & 0xffffffff, 0x600D, 0x01000002
good_end:
.channel 0
.submit bad, bad_end
.channel 1
.submit good, good_end
.run
.expect32 sem, 0x600D
.expect32 rt, 0xff0000ff
.expect32 rt + 0xffc, 0xff0000ff
