# hostile: MEM_OP_D with operation 1, which clb06f.h does not define; channel 1 still works
# fault: kind=bad-state unit=host channel=0 gpu_addr=0 stream_addr=0x100000004 words=0x2001000d,0x08000000
# message: MEM_OP_D: operation 0x1 is not defined in clb06f.h
#
# MEM_OP_D (0x034) OPERATION is 31:27: MEMBAR 5, MMU_TLB_INVALIDATE 9,
# L2_* 13..16 (clb06f.h, host_b06f.def); 0x08000000 >> 27 = 1 is none.
# Header: INC count 1, index 0x034 >> 2 = 0xd: 0x2001000d, data at +4.
.buffer pb,  0x100000000, 0x1000
.buffer sem, 0x100010000, 0x1000
.section pb, pb
bad:
    inc 0, MEM_OP_D, 0x08000000
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
