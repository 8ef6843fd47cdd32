# hostile: a semaphore REDUCTION with reduction code 8, past the eight clb06f.h defines; channel 1 still works
# fault: kind=bad-state unit=host channel=0 gpu_addr=0x100010100 stream_addr=0x100000010 words=0x20040004,0x40000010
# message: SEMAPHORED: reduction 8 is not defined
#
# SEMAPHORED = 0x40000010: OPERATION 16 REDUCTION, REDUCTION (30:27) = 8
# (0x40000000 >> 27); clb06f.h defines MIN..DEC = 0..7. The semaphore word
# (sem + 0x100, set to 0x77 by the CPU) is left as it was.
.buffer pb,  0x100000000, 0x1000
.buffer sem, 0x100010000, 0x1000
.section pb, pb
bad:
    inc 0, SEMAPHOREA, sem >> 32, (sem + 0x100) & 0xffffffff, 1, 0x40000010
bad_end:
good:
    inc 0, SEMAPHOREA, sem >> 32, sem & 0xffffffff, 0x600D, 0x01000002
good_end:
.cpu_write32 sem + 0x100, 0x77
.channel 0
.submit bad, bad_end
.channel 1
.submit good, good_end
.run
.expect32 sem, 0x600D
.expect32 sem + 0x100, 0x77
