# hostile: a SYNCPOINTB wait for a value syncpoint 5 never reaches; the watchdog ends it as a hang, channel 1 still works
# fault: kind=hang unit=host channel=0 gpu_addr=0 stream_addr=0x100000008 words=0x2002001c,0x00000500
# message: syncpoint 5 wait never satisfied: value 0, waiting for 100
#
# SYNCPOINTA (0x070) = 100 is the payload, SYNCPOINTB (0x074) = 0x500:
# OPERATION 1:0 = 0 WAIT, SYNCPT_INDEX 15:8 = 5 (cla26f.h, host_b06f.def).
# Header: INC, count 2, index 0x070 >> 2 = 0x1c: 0x2002001c; SYNCPOINTB's
# word is at +8. Syncpoint 5 belongs to no channel (the scene's channels
# take 1 and 2) and stays 0; host1x compares wrapping ((int32)(0 - 100) < 0),
# so the wait is never met and the watchdog ends it. No memory is involved:
# gpu_addr = 0.
.buffer pb,  0x100000000, 0x1000
.buffer sem, 0x100010000, 0x1000
.section pb, pb
bad:
    inc 0, SYNCPOINTA, 100, 0x500
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
