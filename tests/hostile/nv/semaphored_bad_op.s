# hostile: SEMAPHORED with operation 3, which clb06f.h does not define; channel 1 still works
# fault: kind=bad-state unit=host channel=0 gpu_addr=0x100010100 stream_addr=0x100000010 words=0x20040004,0x00000003
# message: SEMAPHORED: operation 0x3 is not one of
#
# OPERATION (4:0) is ACQUIRE 1, RELEASE 2, ACQ_GEQ 4, ACQ_AND 8 or
# REDUCTION 16 (clb06f.h); 3 is none of them. The record names the
# semaphore address the method would have used, sem + 0x100, and the
# SEMAPHORED word at +0x10 of the INC header 0x20040004.
.buffer pb,  0x100000000, 0x1000
.buffer sem, 0x100010000, 0x1000
.section pb, pb
bad:
    inc 0, SEMAPHOREA, sem >> 32, (sem + 0x100) & 0xffffffff, 7, 3
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
.expect32 sem + 0x100, 0
