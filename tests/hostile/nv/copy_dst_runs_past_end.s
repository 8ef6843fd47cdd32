# hostile: a DMA copy whose length runs past the end of the destination buffer; channel 1 still works
# fault: kind=unmapped unit=ce channel=0 gpu_addr=0x100031000 stream_addr=0x10000002c words=0x800280c0,0x00000002
# message: no mapping at 0x100031000
#
# 1-D copy of 0x20 bytes from img to out + 0xff0: the destination's last
# 16 bytes would be 0x100031000.., the first byte past the 4 KiB buffer
# out (0x100030000). The engine streams: the 16 bytes that fit in out land
# (checked below: img's first and fourth words at out + 0xff0 and + 0xffc),
# then the write of the next page takes the MMU fault, whose record names
# that first unmapped byte.
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
    .word img >> 32, img & 0xffffffff, out >> 32, (out + 0xff0) & 0xffffffff   # OFFSET_IN/OUT
    .word 0, 0, 0x20, 1                       # PITCH_IN/OUT, LINE_LENGTH_IN, LINE_COUNT
    mthd 4, LAUNCH_DMA, 2
bad_end:
good:
    inc 0, SEMAPHOREA, sem >> 32, sem & 0xffffffff, 0x600D, 0x01000002
good_end:
.cpu_write32 img, 0x11111111
.cpu_write32 img + 12, 0x44444444
.channel 0
.submit bad, bad_end
.channel 1
.submit good, good_end
.run
.expect32 sem, 0x600D
.expect32 out + 0xff0, 0x11111111
.expect32 out + 0xffc, 0x44444444
