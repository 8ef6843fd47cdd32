# hostile: a host semaphore RELEASE to an unmapped address; channel 1 still works
# fault: kind=unmapped unit=host channel=0 gpu_addr=0x200000040 stream_addr=0x100000010 words=0x20040004,0x01000002
# message: write of 0x4 bytes at 0x200000040: no mapping
#
# SEMAPHOREA = 2, SEMAPHOREB = 0x40: address 0x2_0000_0040, where nothing is
# mapped. SEMAPHORED = 0x01000002: RELEASE (2) with RELEASE_SIZE 4BYTE (bit
# 24), a 4-byte write that takes an MMU fault at its first byte. The
# record points at the SEMAPHORED word (+0x10 of INC header 0x20040004).
.buffer pb,  0x100000000, 0x1000
.buffer sem, 0x100010000, 0x1000
.section pb, pb
bad:
    inc 0, SEMAPHOREA, 2, 0x40, 0x1234, 0x01000002
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
