# hostile: a 2D blit (SRCCOPY) whose source surface is unmapped; channel 1 still releases its semaphore
# fault: kind=unmapped unit=2d channel=0 gpu_addr=0x200000000 stream_addr=0x100000098 words=0x200c622c,0x00000000
# message: no mapping at 0x200000000
#
# FERMI_TWOD_A on subchannel 3 (0x20016000, 0x902D at +0, +4). Source:
# SET_SRC_FORMAT..DEPTH (0x230, index 0x8c; INC count 4, 0x2004608c at +8)
# = A8B8G8R8 0xd5, pitch layout; SET_SRC_PITCH..OFFSET_LOWER (0x244, index
# 0x91; INC count 5 at +0x1c) = pitch 64, 16x16, at 0x2_0000_0000 (nothing
# mapped). SET_OPERATION 3 SRCCOPY (IMMD at +0x34). Destination
# SET_DST_FORMAT..OFFSET_LOWER (0x200; INC count 10 at +0x38, data to
# +0x60): 4x4 pitch 16 at out. SAMPLE_MODE 0 (CENTER, POINT; IMMD +0x64).
# SET_PIXELS_FROM_MEMORY_DST_X0 (0x8b0, index 0x22c) .. SRC_Y0_INT (0x8dc)
# as INC count 12 (0x200c622c) at +0x68, data +0x6c..+0x98: a 4x4 blit, DU_DX
# = DV_DY = 1.0 (32.32: INT 1, FRAC 0), source origin 0. Writing SRC_Y0_INT
# (0, the word at +0x98) starts the blit (clb902d.h). Destination pixel
# (0, 0) samples the source at (0 + 0.5) * 1.0 -> texel (0, 0), at the
# source base 0x2_0000_0000: the read takes the MMU fault there, before
# any destination pixel is written (out + 0 keeps its 0x77).
.buffer pb,  0x100000000, 0x1000
.buffer sem, 0x100010000, 0x1000
.buffer out, 0x100020000, 0x1000
.section pb, pb
bad:
    inc 3, SET_OBJECT, 0x902D
    inc 3, SET_SRC_FORMAT, 0xD5, 1, 0, 1
    inc 3, SET_SRC_PITCH, 64, 16, 16, 2, 0
    mthd 3, SET_OPERATION, 3
    inc 3, SET_DST_FORMAT, 0xD5, 1, 0, 1, 0, 16, 4, 4, out >> 32, out & 0xffffffff
    mthd 3, SET_PIXELS_FROM_MEMORY_SAMPLE_MODE, 0
    inc 3, SET_PIXELS_FROM_MEMORY_DST_X0, 0, 0, 4, 4, 0, 1, 0, 1, 0, 0, 0, 0
bad_end:
good:
    inc 0, SEMAPHOREA, sem >> 32, sem & 0xffffffff, 0x600D, 0x01000002
good_end:
.cpu_write32 out, 0x77
.channel 0
.submit bad, bad_end
.channel 1
.submit good, good_end
.run
.expect32 sem, 0x600D
.expect32 out, 0x77
