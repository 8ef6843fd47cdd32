# hostile: an inline upload whose second line falls outside the destination buffer; line 0 lands, the word of line 1 faults, channel 1 still works
# fault: kind=unmapped unit=i2m channel=0 gpu_addr=0x100021000 stream_addr=0x100000030 words=0x6004406d,0x33333333
# message: no mapping at 0x100021000
#
# 8-byte lines x 2, PITCH_OUT 0x1000, to img (0x100020000, one 4 KiB page):
# line 0 is img + 0..7, line 1 is img + 0x1000 = 0x100021000, past the
# buffer. The 4 data words are line 0 = words 0, 1 and line 1 = words 2, 3;
# the first byte of line 1 is in word 2 (0x33333333, at +0x28 + 2 * 4 =
# +0x30), the word the record names; the NONINC header has count 4
# (0x6004406d). Line 0 was written before (checked below).
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
    inc 2, LINE_LENGTH_IN, 8, 2, img >> 32, img & 0xffffffff, 0x1000
    mthd 2, LAUNCH_DMA, 0x11
    noninc 2, LOAD_INLINE_DATA, 0x11111111, 0x22222222, 0x33333333, 0x44444444
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
.expect32 img, 0x11111111
.expect32 img + 4, 0x22222222
