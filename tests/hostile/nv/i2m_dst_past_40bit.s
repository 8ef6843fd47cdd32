# hostile: an I2M destination above the 40-bit GPU address space (OFFSET_OUT_UPPER 0x100); channel 1 still works
# fault: kind=addr-range unit=i2m channel=0 gpu_addr=0x10000000000 stream_addr=0x100000028 words=0x6001406d,0x5a5a5a5a
# message: leaves the 40-bit address space
#
# cla140.h gives OFFSET_OUT_UPPER 25 bits (24:0, i2m_common.def), more than
# the 40-bit address space (research/nv.md section 1; yuzu nvhost_as_gpu):
# upper 0x100, lower 0 is 2^40 = 0x100_0000_0000, the first address past the
# space. The data word (0x5a5a5a5a at +0x28, NONINC count 1 0x6001406d at
# +0x24) faults there.
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
    inc 2, LINE_LENGTH_IN, 4, 1, 0x100, 0, 4
    mthd 2, LAUNCH_DMA, 0x11
    noninc 2, LOAD_INLINE_DATA, 0x5a5a5a5a
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
