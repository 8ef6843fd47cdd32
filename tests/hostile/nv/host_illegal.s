# hostile: the host ILLEGAL method, a deliberate illegal-method interrupt; channel 1 still works
# fault: kind=invalid-method unit=host channel=0 gpu_addr=0 stream_addr=0x100000000 words=0x8bad0001,0x00000bad
# message: deliberate illegal-method interrupt
#
# B06F ILLEGAL (0x004, clb06f.h) exists to raise the ILLEGAL_MTHD interrupt.
# `mthd` picks IMMD since 0xBAD fits 13 bits: 0x80000000 | 0xBAD << 16 |
# 0x004 >> 2 = 0x8bad0001, data 0xbad, the header is at the entry's start.
.buffer pb,  0x100000000, 0x1000
.buffer sem, 0x100010000, 0x1000
.section pb, pb
bad:
    mthd 0, ILLEGAL, 0xBAD
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
