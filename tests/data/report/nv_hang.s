# Hang report test (tests/test_report.sh): channel 0 releases the semaphore
# with 1; channel 1 acquires it for 2, which nothing ever writes, so the
# nv.wait-runs watchdog ends channel 1 as a hang.
.buffer pb,  0x100000000, 0x1000
.buffer sem, 0x100010000, 0x1000
.section pb, pb
rel:
    mthd 0, SEMAPHOREA, sem >> 32
    mthd 0, SEMAPHOREB, sem & 0xffffffff
    mthd 0, SEMAPHOREC, 1
    mthd 0, SEMAPHORED, 0x01000002   # RELEASE, 4 bytes
rel_end:
acq:
    mthd 0, SET_REFERENCE, 7
    mthd 0, SEMAPHOREA, sem >> 32
    mthd 0, SEMAPHOREB, sem & 0xffffffff
    mthd 0, SEMAPHOREC, 2
    mthd 0, SEMAPHORED, 0x01000001   # ACQUIRE (==), 4 bytes
acq_end:
.channel 0
.submit rel, rel_end
.channel 1
.submit acq, acq_end
.run
