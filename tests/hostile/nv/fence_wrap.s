# hostile: fence values that wrap 32 bits: a syncpoint wait for 0xfffffff0 while the counter is 0, and a semaphore ADD across 2^32; both legal, no fault
#
# No fault. host1x compares syncpoints modulo 2^32: a threshold is reached
# when (int32)(value - threshold) >= 0 (Linux host1x syncpt.c
# host1x_syncpt_is_expired; src/nv/gpu/pfifo.c syncpt_reached), so a fence
# value that wrapped past 0 is not a hang: with syncpoint 5 at 0,
# (int32)(0 - 0xfffffff0) = 16 >= 0 and the wait (SYNCPOINTA 0xfffffff0,
# SYNCPOINTB 0x500: WAIT on syncpoint 5) passes at once. A semaphore
# REDUCTION ADD (SEMAPHORED 0xa8000010: REDUCTION 16, ADD 5 << 27, FORMAT
# UNSIGNED bit 31) of 2 onto 0xffffffff wraps to 1, 32-bit arithmetic
# (clb06f.h). Channel 0 then releases 0xD0E at sem + 0x10 to show it got
# past both; channel 1 works beside it.
.buffer pb,  0x100000000, 0x1000
.buffer sem, 0x100010000, 0x1000
.section pb, pb
bad:
    inc 0, SYNCPOINTA, 0xfffffff0, 0x500
    inc 0, SEMAPHOREA, sem >> 32, (sem + 0x20) & 0xffffffff, 2, 0xa8000010
    inc 0, SEMAPHOREA, sem >> 32, (sem + 0x10) & 0xffffffff, 0xD0E, 0x01000002
bad_end:
good:
    inc 0, SEMAPHOREA, sem >> 32, sem & 0xffffffff, 0x600D, 0x01000002
good_end:
.cpu_write32 sem + 0x20, 0xffffffff
.channel 0
.submit bad, bad_end
.channel 1
.submit good, good_end
.run
.expect32 sem, 0x600D
.expect32 sem + 0x20, 1
.expect32 sem + 0x10, 0xD0E
