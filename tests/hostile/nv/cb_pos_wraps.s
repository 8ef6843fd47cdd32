# hostile: a constant-buffer upload with CB_POS 0xfffffffc, whose offset + 4 wraps 32 bits; it must fault, not write 4 GiB past the buffer
# fault: kind=bad-state unit=3d channel=0 gpu_addr=0x20001fffc stream_addr=0x100000020 words=0x600108e4,0x55555555
# message: LOAD_CONSTANT_BUFFER: offset 0xfffffffc past the buffer size 0x10
#
# SELECTOR_A = 0x10 (a 16-byte buffer at cb), LOAD_CONSTANT_BUFFER_OFFSET
# (CB_POS) = 0xfffffffc: INC count 4 (0x200408e0) at +8, data +0xc..+0x18.
# CB_DATA(0) NONINC count 1 (0x600108e4) at +0x1c, data 0x55555555 at
# +0x20. The offset is far past the 16-byte buffer; in 32-bit arithmetic
# 0xfffffffc + 4 wraps to 0, which once let the write through to
# cb + 0xfffffffc = 0x2_0001_fffc. `far` maps that address so a wrong write
# would land silently (checked: it stays 0). The record names the address
# the write would have hit.
.buffer pb,  0x100000000, 0x1000
.buffer sem, 0x100010000, 0x1000
.buffer cb,  0x100020000, 0x1000
.buffer far, 0x200010000, 0x10000
.section pb, pb
bad:
    inc 0, SET_OBJECT, 0xB197
    inc 0, SET_CONSTANT_BUFFER_SELECTOR_A, 0x10, cb >> 32, cb & 0xffffffff, 0xfffffffc
    noninc 0, LOAD_CONSTANT_BUFFER(0), 0x55555555
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
.expect32 far + 0xfffc, 0
