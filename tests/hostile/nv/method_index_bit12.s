# hostile: a MAXWELL_B method at byte 0x4000 (method index bit 12), past every class method; channel 1 still works
# fault: kind=invalid-method unit=pfifo channel=0 gpu_addr=0 stream_addr=0x10000000c words=0x20011000,0x00000001
# message: method 0x4000 is not in class B197
#
# METHOD_ADDRESS is 13 bits (12:0, clb06f.h), so a header can name indices
# up to 0x1fff, but MAXWELL_B's methods end at CALL_MME_DATA(127) = 0x3bfc
# (clb197.h; threed_b197.def). B197 keeps every method below index 0x1000;
# index 0x1000 (byte 0x4000) has nothing behind it: ILLEGAL_MTHD. Words:
# SET_OBJECT B197 on subchannel 0 (0x20010000, 0xB197), then INC count 1,
# index 0x1000: 0x20011000 at +8, data 1 at +0xc.
.buffer pb,  0x100000000, 0x1000
.buffer sem, 0x100010000, 0x1000
.section pb, pb
bad:
    inc 0, SET_OBJECT, 0xB197
    inc 0, 0x4000, 1
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
