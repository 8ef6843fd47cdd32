# hostile: LOAD_INLINE_DATA sends more words than the LAUNCH_DMA transfer holds; the transfer completes, the extra word faults, channel 1 still works
# fault: kind=bad-length unit=i2m channel=0 gpu_addr=0x100020000 stream_addr=0x100000030 words=0x6003406d,0x33333333
# message: word 2 runs past its end
#
# The transfer is 8 bytes x 1 line = 2 words; the NONINC header (count 3,
# 0x6003406d) brings 3. Words 0 and 1 complete the transfer (checked below);
# word 2 (0x33333333 at +0x28 + 8 = +0x30) has no transfer to go to: the
# count runs past the end of the transfer. gpu_addr = the transfer's
# destination, img.
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
    noninc 2, LOAD_INLINE_DATA, 0x11111111, 0x22222222, 0x33333333
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
.expect32 img + 8, 0
