# hostile: a method to a subchannel with no object bound; channel 1 still releases its semaphore
# fault: kind=unbound-subchannel unit=pfifo channel=0 gpu_addr=0 stream_addr=0x100000000 words=0x8001a080,0x00000001
.buffer pb,  0x100000000, 0x1000
.buffer sem, 0x100010000, 0x1000
.section pb, pb
bad:
    immd 5, 0x0200, 1               # subchannel 5: nothing bound
bad_end:
good:
    mthd 0, SEMAPHOREA, sem >> 32
    mthd 0, SEMAPHOREB, sem & 0xffffffff
    mthd 0, SEMAPHOREC, 0x600D
    mthd 0, SEMAPHORED, 0x01000002
good_end:
.channel 0
.submit bad, bad_end
.channel 1
.submit good, good_end
.run
.expect32 sem, 0x600D
