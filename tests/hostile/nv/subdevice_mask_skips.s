# hostile: methods that would fault (unbound subchannel, ILLEGAL, a release) under a sub-device mask that excludes this GPU are skipped, no fault
#
# No fault: SET_SUB_DEVICE_MASK (SEC_OP 0, TERT_OP 1, mask 15:4; clb06f.h,
# research/nv.md section 2) = 0x2 leaves out sub-device 0, the only GPU of
# the X1, so the methods that follow are dropped unexecuted: an IMMD to the
# unbound subchannel 5, the host ILLEGAL method, and a release of 0xBAD at
# sem + 0x20 (left 0). Mask 0xfff takes everything again, and the release of
# 0x5EE at sem + 0x10 runs.
.buffer pb,  0x100000000, 0x1000
.buffer sem, 0x100010000, 0x1000
.section pb, pb
bad:
    set_subdevice_mask 0x2
    immd 5, 0x0200, 1
    mthd 0, ILLEGAL, 1
    inc 0, SEMAPHOREA, sem >> 32, (sem + 0x20) & 0xffffffff, 0xBAD, 0x01000002
    set_subdevice_mask 0xfff
    inc 0, SEMAPHOREA, sem >> 32, (sem + 0x10) & 0xffffffff, 0x5EE, 0x01000002
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
.expect32 sem + 0x10, 0x5EE
.expect32 sem + 0x20, 0
