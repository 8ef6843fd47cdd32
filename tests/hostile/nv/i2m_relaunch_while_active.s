# hostile: a second I2M LAUNCH_DMA while the first transfer still waits for data; channel 1 still works
# fault: kind=bad-state unit=i2m channel=0 gpu_addr=0x100020000 stream_addr=0x10000002c words=0x8011406c,0x00000011
# message: while the previous transfer still waits for 4 of 8 bytes
#
# The first transfer (8 bytes to img) gets one word (0xAAAA, NONINC count 1
# 0x6001406d at +0x24, data at +0x28, written at once: pitch) and then a new
# LAUNCH_DMA arrives (IMMD 0x8011406c at +0x2c). The model faults instead of
# dropping the 4 bytes still owed; gpu_addr = the pending transfer's
# destination.
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
    inc 2, LINE_LENGTH_IN, 8, 1, img >> 32, img & 0xffffffff, 8
    mthd 2, LAUNCH_DMA, 0x11
    noninc 2, LOAD_INLINE_DATA, 0xAAAA
    mthd 2, LAUNCH_DMA, 0x11
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
.expect32 img, 0xAAAA
