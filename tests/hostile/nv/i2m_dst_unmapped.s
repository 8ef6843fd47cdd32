# hostile: an inline-to-memory upload to an unmapped destination; channel 1 still releases its semaphore
# fault: kind=unmapped unit=i2m channel=0 gpu_addr=0x200000000 stream_addr=0x100000028 words=0x6002406d,0x11111111
# message: no mapping at 0x200000000
#
# 8 bytes x 1 line to OFFSET_OUT 0x2_0000_0000 (nothing mapped). A pitch
# destination is written as the data arrives (docs/nv.md), so the first
# data word (0x11111111 at +0x28, NONINC count 2 header 0x6002406d) takes
# the MMU fault at the destination's first byte.
# Words: SET_OBJECT A140 on subchannel 2 (INC count 1, 2 << 13 = 0x4000:
# 0x20014000, 0xA140) at +0, +4; LINE_LENGTH_IN..PITCH_OUT as INC count 5 at
# index 0x180 >> 2 = 0x60 (0x20054060) at +8, data +0xc..+0x1c; LAUNCH_DMA
# 0x11 (DST_MEMORY_LAYOUT PITCH, COMPLETION_TYPE FLUSH_ONLY; cla140.h) as
# IMMD 0x80000000 | 0x11 << 16 | 0x4000 | 0x1b0 >> 2 = 0x8011406c at +0x20;
# LOAD_INLINE_DATA (index 0x6d) NONINC at +0x24, its data from +0x28.
.buffer pb,  0x100000000, 0x1000
.buffer sem, 0x100010000, 0x1000
.buffer img, 0x100020000, 0x1000
.section pb, pb
bad:
    inc 2, SET_OBJECT, 0xA140
    inc 2, LINE_LENGTH_IN, 8, 1, 2, 0, 8
    mthd 2, LAUNCH_DMA, 0x11
    noninc 2, LOAD_INLINE_DATA, 0x11111111, 0x22222222
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
