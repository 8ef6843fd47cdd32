# hostile: a DMA copy whose source is unmapped; channel 1 still releases its semaphore
# fault: kind=unmapped unit=ce channel=0 gpu_addr=0x200000000 stream_addr=0x10000002c words=0x800280c0,0x00000002
# message: no mapping at 0x200000000
#
# 1-D copy of 16 bytes from 0x2_0000_0000 (nothing mapped) to out:
# LAUNCH_DMA 2 (NON_PIPELINED) = IMMD 0x800280c0. The source read takes the
# MMU fault at its first byte; the destination is untouched.
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
    inc 4, OFFSET_IN_UPPER, 2, 0, out >> 32, out & 0xffffffff, 0, 0, 16, 1
    mthd 4, LAUNCH_DMA, 2
bad_end:
good:
    inc 0, SEMAPHOREA, sem >> 32, sem & 0xffffffff, 0x600D, 0x01000002
good_end:
.cpu_write32 out, 0x77
.channel 0
.submit bad, bad_end
.channel 1
.submit good, good_end
.run
.expect32 sem, 0x600D
.expect32 out, 0x77
