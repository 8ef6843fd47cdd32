# hostile: a SYNCPOINTB increment of syncpoint 200, past the 192 the Tegra X1 has; channel 1 still works
# fault: kind=bad-state unit=host channel=0 gpu_addr=0 stream_addr=0x100000004 words=0x2001001d,0x0000c801
# message: SYNCPOINTB: syncpoint 200 does not exist
#
# SYNCPOINTB = 0xc801: OPERATION INCR (1), SYNCPT_INDEX 15:8 = 0xc8 = 200
# (cla26f.h). The field is 8 bits but host1x on the X1 has 192 syncpoints
# (yuzu host1x/syncpoint_manager.h, CG_NV_NUM_SYNCPTS). Header: INC count 1,
# index 0x074 >> 2 = 0x1d: 0x2001001d, data at +4.
.buffer pb,  0x100000000, 0x1000
.buffer sem, 0x100010000, 0x1000
.section pb, pb
bad:
    inc 0, SYNCPOINTB, 0xc801
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
