# hostile: copy_op_limit.s with the budget nv.op-bytes lowered to 4096 on the device: a copy of 64 bytes x 128 lines (8192) is over it
# fault: kind=hang unit=ce channel=0 gpu_addr=0 stream_addr=0x10000002c words=0x838280c0,0x00000382
# message: budget nv.op-bytes: B0B5 LAUNCH_DMA of 8192 bytes is over the limit of 4096
# budget: nv.op-bytes=4096
#
# The GPU reads the budget from the device when it is created (device.h
# CG_BUDGET_TABLE). LINE_LENGTH_IN 64 x LINE_COUNT 128 = 8192 bytes; LAUNCH_DMA 0x382
# = NON_PIPELINED (2) | SRC pitch (0x80) | DST pitch (0x100) | MULTI_LINE
# (0x200), IMMD 0x80000000 | 0x382 << 16 | 0x80c0 = 0x838280c0. The model
# bounds one engine operation (budget nv.op-bytes, here 4096; docs/faults.md) and faults before touching memory.
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
    hdr inc 4, OFFSET_IN_UPPER, 8
    .word img >> 32, img & 0xffffffff, out >> 32, out & 0xffffffff   # OFFSET_IN/OUT
    .word 64, 64, 64, 128           # PITCH_IN/OUT, LINE_LENGTH_IN, LINE_COUNT
    mthd 4, LAUNCH_DMA, 0x382
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
