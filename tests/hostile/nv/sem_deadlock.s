# hostile: two channels each acquire a semaphore only the other releases afterwards (a deadlock); both end in watchdog hangs, channel 2 still works
# fault: kind=hang unit=host channel=0 gpu_addr=0x100010040 stream_addr=0x100000010 words=0x20040004,0x00000001
# fault: kind=hang unit=host channel=1 gpu_addr=0x100010050 stream_addr=0x100000038 words=0x20040004,0x00000001
# message: semaphore acquire at 0x0100010040 never satisfied
#
# Channel 0: ACQUIRE sem + 0x40 == 1, then RELEASE 1 at sem + 0x50.
# Channel 1: ACQUIRE sem + 0x50 == 1, then RELEASE 1 at sem + 0x40.
# Each release sits behind the other channel's acquire: neither can move.
# Each channel's code is two INC count 4 headers (0x20040004, 5 words, 0x14
# bytes each); channel 0's acquire SEMAPHORED word is at bad + 0x10 =
# 0x100000010, channel 1's block starts at bad + 0x28, its SEMAPHORED at
# 0x100000038. After the watchdog's runs without progress both hang, in
# channel order (docs/nv.md); channel 2 releases its semaphore beside them.
.buffer pb,  0x100000000, 0x1000
.buffer sem, 0x100010000, 0x1000
.section pb, pb
bad:
    inc 0, SEMAPHOREA, sem >> 32, (sem + 0x40) & 0xffffffff, 1, 1
    inc 0, SEMAPHOREA, sem >> 32, (sem + 0x50) & 0xffffffff, 1, 0x01000002
bad_end:
bad1:
    inc 0, SEMAPHOREA, sem >> 32, (sem + 0x50) & 0xffffffff, 1, 1
    inc 0, SEMAPHOREA, sem >> 32, (sem + 0x40) & 0xffffffff, 1, 0x01000002
bad1_end:
good:
    inc 0, SEMAPHOREA, sem >> 32, sem & 0xffffffff, 0x600D, 0x01000002
good_end:
.channel 0
.submit bad, bad_end
.channel 1
.submit bad1, bad1_end
.channel 2
.submit good, good_end
.run
.expect32 sem, 0x600D
.expect32 sem + 0x40, 0
.expect32 sem + 0x50, 0
