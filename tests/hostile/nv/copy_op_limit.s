# hostile: a multi-line DMA copy of 1 MiB x 4096 lines (4 GiB), past the model's per-operation budget; channel 1 still works
# fault: kind=hang unit=ce channel=0 gpu_addr=0 stream_addr=0x10000002c words=0x838280c0,0x00000382
# message: budget nv.op-bytes: B0B5 LAUNCH_DMA of 4294967296 bytes is over the limit of 268435456
#
# LINE_LENGTH_IN 0x100000 x LINE_COUNT 0x1000 = 2^32 bytes; LAUNCH_DMA 0x382
# = NON_PIPELINED (2) | SRC pitch (0x80) | DST pitch (0x100) | MULTI_LINE
# (0x200), IMMD 0x80000000 | 0x382 << 16 | 0x80c0 = 0x838280c0. The model
# bounds one engine operation (cg_nv_gpu_set_op_limit, default 256 MiB =
# 268435456; docs/nv.md) and faults before touching memory.
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
    .word 0x100000, 0x100000, 0x100000, 0x1000   # PITCH_IN/OUT, LINE_LENGTH_IN, LINE_COUNT
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
