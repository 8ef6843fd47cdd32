# hostile: a method MAXWELL_DMA_COPY_A does not define (0x0500), sent to a bound B0B5; channel 1 still works
# fault: kind=invalid-method unit=pfifo channel=0 gpu_addr=0 stream_addr=0x10000000c words=0x20018140,0x00000007
# message: method 0x0500 is not in class B0B5 (ILLEGAL_MTHD), subchannel 4
#
# clb0b5.h defines nothing at 0x0500 (between LINE_COUNT 0x041C and
# SET_REMAP_CONST_A 0x0700; dma_b0b5.def lists the class): ILLEGAL_MTHD.
# Words: SET_OBJECT header 0x20018000 (INC, count 1, subchannel 4 << 13 =
# 0x8000) and 0xB0B5 at +0, +4; then INC
# count 1, subchannel 4, index 0x500 >> 2 = 0x140: 0x20018140 at +8, its
# data 7 at +0xc.
.buffer pb,  0x100000000, 0x1000
.buffer sem, 0x100010000, 0x1000
.section pb, pb
bad:
    inc 4, SET_OBJECT, 0xB0B5
    inc 4, 0x0500, 7
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
