# hostile: a host-class method (0x040) that B06F/A26F do not define; channel 1 still releases its semaphore
# fault: kind=invalid-method unit=host channel=0 gpu_addr=0 stream_addr=0x100000000 words=0x80050010,0x00000005
# message: host method 0x040 is not in MAXWELL_CHANNEL_GPFIFO_A/A26F (ILLEGAL_MTHD)
#
# Methods below 0x100 go to the host whatever the subchannel (yuzu
# dma_pusher.cpp: idx < 0x40 -> puller). clb06f.h and cla26f.h define
# nothing at 0x040 (host_b06f.def: 0x030 MEM_OP_C, 0x034 MEM_OP_D, then
# 0x050 SET_REFERENCE), so the puller raises ILLEGAL_MTHD. The header is
# IMMD (SEC_OP 4 << 29 = 0x80000000), value 5 in 28:16 (0x00050000),
# subchannel 0, method index 0x040 >> 2 = 0x10: 0x80050010; an IMMD header
# is its own data word, so stream_addr is its address and the data is 5.
.buffer pb,  0x100000000, 0x1000
.buffer sem, 0x100010000, 0x1000
.section pb, pb
bad:
    immd 0, 0x0040, 5
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
