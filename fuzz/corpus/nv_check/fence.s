# fence round trip: a semaphore release the CPU waits for
.buffer pb, 0x100000000, 0x10000
.buffer sem, 0x100010000, 0x1000
.section pb, pb
start:
    mthd 0, SEMAPHOREA, sem >> 32
    mthd 0, SEMAPHOREB, sem & 0xffffffff
    mthd 0, SEMAPHOREC, 0x1234
    mthd 0, SEMAPHORED, 0x01000002
end:
.submit start, end, fence=0
.wait 0
.expect32 sem, 0x1234
.dump sem, 16, "sem.bin"
