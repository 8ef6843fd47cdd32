# hostile: constant-buffer upload (LOAD_CONSTANT_BUFFER) past the selected buffer's size; the word inside lands, channel 1 still works
# fault: kind=bad-state unit=3d channel=0 gpu_addr=0x100020010 stream_addr=0x100000024 words=0x600208e4,0x22222222
# message: LOAD_CONSTANT_BUFFER: offset 0x10 past the buffer size 0x10
#
# SET_CONSTANT_BUFFER_SELECTOR_A = 0x10 (SIZE 16:0: a 16-byte buffer), B/C =
# cb, LOAD_CONSTANT_BUFFER_OFFSET (CB_POS) = 0xc: INC count 4 at index
# 0x2380 >> 2 = 0x8e0 (0x200408e0) at +8, data +0xc..+0x18. Then
# LOAD_CONSTANT_BUFFER(0) (CB_DATA, 0x2390, index 0x8e4) NONINC count 2
# (0x600208e4) at +0x1c: the first word goes to cb + 0xc and CB_POS
# becomes 0x10 (research/nv.md section 5); the second (0x22222222 at +0x24)
# would land at cb + 0x10, past the 16-byte buffer.
.buffer pb,  0x100000000, 0x1000
.buffer sem, 0x100010000, 0x1000
.buffer cb,  0x100020000, 0x1000
.section pb, pb
bad:
    inc 0, SET_OBJECT, 0xB197
    inc 0, SET_CONSTANT_BUFFER_SELECTOR_A, 0x10, cb >> 32, cb & 0xffffffff, 0xc
    noninc 0, LOAD_CONSTANT_BUFFER(0), 0x11111111, 0x22222222
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
.expect32 cb + 0xc, 0x11111111
.expect32 cb + 0x10, 0
