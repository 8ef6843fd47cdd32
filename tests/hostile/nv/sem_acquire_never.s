# hostile: a host semaphore ACQUIRE of a value no one ever writes; the watchdog ends it as a hang, channel 1 still works
# fault: kind=hang unit=host channel=0 gpu_addr=0x100010100 stream_addr=0x100000010 words=0x20040004,0x00000001
# message: never satisfied: memory holds 0x00000000, ACQUIRE (==) 0x00000001
#
# SEMAPHOREA-D as one INC header: SEC_OP 1, count 4, index 0x010 >> 2 = 4:
# 0x20040004 at 0x100000000, data at +4..+0x10; SEMAPHORED = 1 (ACQUIRE,
# clb06f.h) is the word at 0x100000010. The semaphore at sem + 0x100 =
# 0x100010100 holds 0 (fresh buffer) and nothing writes it, so the channel
# blocks for good; after the watchdog's runs without progress (docs/nv.md:
# default 2) the model posts a hang naming the address, the value and the
# operation, pointing at the SEMAPHORED word. On hardware the channel would
# sit in the acquire until the kernel's timeout.
.buffer pb,  0x100000000, 0x1000
.buffer sem, 0x100010000, 0x1000
.section pb, pb
bad:
    inc 0, SEMAPHOREA, sem >> 32, (sem + 0x100) & 0xffffffff, 1, 1
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
