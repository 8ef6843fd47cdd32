# hostile: LOAD_INLINE_DATA with no LAUNCH_DMA transfer pending; channel 1 still works
# fault: kind=bad-state unit=i2m channel=0 gpu_addr=0 stream_addr=0x10000000c words=0x6001406d,0x00001234
# message: with no LAUNCH_DMA transfer pending
#
# Inline data only has a meaning inside a transfer (cla140.h: LAUNCH_DMA
# starts it, LOAD_INLINE_DATA feeds it). SET_OBJECT A140 (0x20014000,
# 0xA140) at +0, +4; NONINC count 1 header 0x6001406d at +8, data 0x1234 at
# +0xc. No destination exists yet: gpu_addr = 0.
.buffer pb,  0x100000000, 0x1000
.buffer sem, 0x100010000, 0x1000
.buffer img, 0x100020000, 0x1000
.section pb, pb
bad:
    inc 2, SET_OBJECT, 0xA140
    noninc 2, LOAD_INLINE_DATA, 0x1234
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
