# hostile: a DMA copy LAUNCH_DMA with DATA_TRANSFER_TYPE 3, which clb0b5.h does not define; channel 1 still works
# fault: kind=bad-state unit=ce channel=0 gpu_addr=0 stream_addr=0x10000002c words=0x800380c0,0x00000003
# message: value 3 in DATA_TRANSFER_TYPE, SEMAPHORE_TYPE or INTERRUPT_TYPE is not defined
#
# DATA_TRANSFER_TYPE (1:0) is NONE 0, PIPELINED 1, NON_PIPELINED 2
# (clb0b5.h); 3 is reserved. LAUNCH_DMA 3 = IMMD 0x800380c0. Nothing moves
# (out keeps its value) and no address is involved.
# Words: SET_OBJECT B0B5 on subchannel 4 (INC count 1, 4 << 13 = 0x8000:
# 0x20018000, 0xB0B5) at +0, +4; OFFSET_IN_UPPER..LINE_COUNT (0x400..0x41c)
# as INC count 8 at index 0x100 (0x20088100) at +8, data +0xc..+0x28;
# LAUNCH_DMA (0x300, index 0xc0) as IMMD 0x80000000 | value << 16 | 0x8000 |
# 0xc0 at +0x2c. LAUNCH_DMA fields (clb0b5.h): DATA_TRANSFER_TYPE 1:0 (2 =
# NON_PIPELINED), SEMAPHORE_TYPE 4:3, SRC/DST_MEMORY_LAYOUT 7/8 (1 = pitch),
# MULTI_LINE_ENABLE 9; a copy without MULTI_LINE is 1-D, LINE_LENGTH_IN
# bytes.
.buffer pb,  0x100000000, 0x1000
.buffer sem, 0x100010000, 0x1000
.buffer img, 0x100020000, 0x1000
.buffer out, 0x100030000, 0x1000
.section pb, pb
bad:
    inc 4, SET_OBJECT, 0xB0B5
    inc 4, OFFSET_IN_UPPER, img >> 32, img & 0xffffffff, out >> 32, out & 0xffffffff, 0, 0, 16, 1
    mthd 4, LAUNCH_DMA, 3
bad_end:
good:
    inc 0, SEMAPHOREA, sem >> 32, sem & 0xffffffff, 0x600D, 0x01000002
good_end:
.cpu_write32 img, 0x12345678
.cpu_write32 out, 0x77
.channel 0
.submit bad, bad_end
.channel 1
.submit good, good_end
.run
.expect32 sem, 0x600D
.expect32 out, 0x77
