# hostile: BIND_GROUP_CONSTANT_BUFFER of a constant buffer whose address is not 256-byte aligned; channel 1 still works
# fault: kind=bad-align unit=3d channel=0 gpu_addr=0x100020040 stream_addr=0x100000018 words=0x80110904,0x00000011
# message: is not 256-byte aligned
#
# SELECTOR_A/B/C = 0x100 bytes at cb + 0x40 (INC count 3, 0x200308e0, at
# +8). BIND_GROUP_CONSTANT_BUFFER(0) (0x2410, index 0x904) = 0x11: VALID,
# SHADER_SLOT 1 (clb197.h), as IMMD 0x80000000 | 0x11 << 16 | 0x904 =
# 0x80110904 at +0x18. Constant buffers are 256-byte aligned before Turing
# (NVK nvk_min_cbuf_alignment: 256 below TURING_A; src/nv/gpu/threed.c), and
# cb + 0x40 is not.
.buffer pb,  0x100000000, 0x1000
.buffer sem, 0x100010000, 0x1000
.buffer cb,  0x100020000, 0x1000
.section pb, pb
bad:
    inc 0, SET_OBJECT, 0xB197
    inc 0, SET_CONSTANT_BUFFER_SELECTOR_A, 0x100, cb >> 32, (cb + 0x40) & 0xffffffff
    mthd 0, BIND_GROUP_CONSTANT_BUFFER(0), 0x11
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
