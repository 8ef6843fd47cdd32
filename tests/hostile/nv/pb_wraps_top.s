# hostile: a pushbuffer entry in the last page of the 40-bit GPU address space that runs past its top; channel 1 still works
# fault: kind=addr-range unit=pfifo channel=0 gpu_addr=0x10000000000 stream_addr=0x10000000000 words=-
# message: leaves the 40-bit address space
#
# GP entries carry a 40-bit address (GET 31:2 + GET_HI 7:0, clb06f.h;
# research/nv.md section 1) and the address space is 40 bits (yuzu
# nvhost_as_gpu, src/nv/driver/driver.c). The entry starts at 0xFF_FFFF_FFEC, 5
# words before the top, and claims 8: the 5 words run (a release of 0xA2),
# the 6th would be at 2^40 = 0x100_0000_0000, outside the address space.
# The model reports the first address past the top (addr-range at
# 0x10000000000, where the fetch stopped; hardware would wrap to VA 0, which
# is never mapped, and take an MMU fault: a fault either way).
.buffer pb,  0x100000000, 0x1000
.buffer sem, 0x100010000, 0x1000
.buffer top, 0xfffffff000, 0x1000
.section pb, pb
good:
    inc 0, SEMAPHOREA, sem >> 32, sem & 0xffffffff, 0x600D, 0x01000002
good_end:
.section topsec, top + 0xfec
bad:
    inc 0, SEMAPHOREA, sem >> 32, (sem + 0x10) & 0xffffffff, 0xA2, 0x01000002   # ends at 2^40
.channel 0
.submit bad, bad + 8 * 4
.channel 1
.submit good, good_end
.run
.expect32 sem, 0x600D
.expect32 sem + 0x10, 0xA2
