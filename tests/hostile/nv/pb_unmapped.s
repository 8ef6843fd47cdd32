# hostile: a GPFIFO entry whose pushbuffer lies in unmapped memory; channel 1 still releases its semaphore
# fault: kind=unmapped unit=pfifo channel=0 gpu_addr=0x200000000 stream_addr=0x200000000 words=-
# message: no mapping at 0x200000000
#
# Channel 0's only entry points at 0x2_0000_0000, where nothing is mapped:
# the DMA pusher's fetch of its first word takes an MMU fault (docs/nv.md
# "Fetch": an unmapped pushbuffer faults as UNMAPPED, unit pfifo). The fault
# is at the first byte fetched, so gpu_addr = stream_addr = the entry's
# address; no word was fetched, so words=- (the fetch has no header yet).
.buffer pb,  0x100000000, 0x1000
.buffer sem, 0x100010000, 0x1000
.section pb, pb
good:
    inc 0, SEMAPHOREA, sem >> 32, sem & 0xffffffff, 0x600D, 0x01000002   # RELEASE, 4 bytes
good_end:
.channel 0
.submit 0x200000000, 0x200000010        # 4 words at an unmapped address
.channel 1
.submit good, good_end
.run
.expect32 sem, 0x600D
