# hostile: channel 0 waits on a semaphore that only channel 1 releases, later; the wait is met, no fault
#
# No fault: an acquire blocks its channel, and any channel or the CPU may
# satisfy it (docs/nv.md). Channel 0 runs alone first (.run) and blocks in
# ACQUIRE sem + 0x40 == 0x1234 (memory 0); only then is channel 1's work
# submitted: it releases 0x1234 there and then its own 0x600D; channel 0
# wakes and releases 0xACC at sem + 0x10. The watchdog only fires after
# runs without progress (default 2), so a wait met in time is not a hang.
.buffer pb,  0x100000000, 0x1000
.buffer sem, 0x100010000, 0x1000
.buffer out, 0x100020000, 0x1000
.section pb, pb
bad:
    inc 0, SEMAPHOREA, sem >> 32, (sem + 0x40) & 0xffffffff, 0x1234, 1
    inc 0, SEMAPHOREA, sem >> 32, (sem + 0x10) & 0xffffffff, 0xACC, 0x01000002
bad_end:
good:
    inc 0, SEMAPHOREA, sem >> 32, (sem + 0x40) & 0xffffffff, 0x1234, 0x01000002
    inc 0, SEMAPHOREA, sem >> 32, sem & 0xffffffff, 0x600D, 0x01000002
good_end:
.channel 0
.submit bad, bad_end
.run
.channel 1
.submit good, good_end
.run
.expect32 sem, 0x600D
.expect32 sem + 0x40, 0x1234
.expect32 sem + 0x10, 0xACC
