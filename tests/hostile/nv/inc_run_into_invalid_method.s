# hostile: an INC run that starts on A140's last FALCON method and runs into a method the class does not have; the fault names the data word of the bad method, channel 1 still works
# fault: kind=invalid-method unit=pfifo channel=0 gpu_addr=0 stream_addr=0x100000010 words=0x2002409f,0x00000002
# message: method 0x0280 is not in class A140 (ILLEGAL_MTHD), subchannel 2
#
# SET_OBJECT A140 on subchannel 2 (0x20014000, 0xA140 at +0, +4). INC count
# 2 from SET_FALCON31 (0x27c, index 0x9f): 0x2002409f at +8; word 1
# (at +0xc) goes to 0x27c, word 2 (value 2, at +0x10) to 0x280, which
# cla140.h does not define (i2m_a140.def, tests/data/nv_class_methods.txt):
# ILLEGAL_MTHD at that word.
.buffer pb,  0x100000000, 0x1000
.buffer sem, 0x100010000, 0x1000
.buffer out, 0x100020000, 0x1000
.section pb, pb
bad:
    inc 2, SET_OBJECT, 0xA140
    inc 2, SET_FALCON31, 1, 2
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
