# hostile: a host semaphore ACQUIRE on an unmapped address; channel 1 still works
# fault: kind=unmapped unit=host channel=0 gpu_addr=0x200000000 stream_addr=0x100000010 words=0x20040004,0x00000001
# message: read of 0x4 bytes at 0x200000000: no mapping
#
# SEMAPHOREA/B = 2, 0: address 0x2_0000_0000, nothing mapped; SEMAPHORED = 1
# (ACQUIRE) at +0x10 of INC header 0x20040004. Checking the acquire reads
# the semaphore: MMU fault at its first byte, blamed on the SEMAPHORED word.
.buffer pb,  0x100000000, 0x1000
.buffer sem, 0x100010000, 0x1000
.buffer out, 0x100020000, 0x1000
.section pb, pb
bad:
    inc 0, SEMAPHOREA, 2, 0, 1, 1
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
