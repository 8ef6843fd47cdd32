# hostile: an old-format (NV4-era, SEC_OP 0 TERT_OP 0) increasing header to an unbound subchannel; decoded as such and faulted, channel 1 still works
# fault: kind=unbound-subchannel unit=pfifo channel=0 gpu_addr=0 stream_addr=0x10000000c words=0x0004a200,0x00000042
# message: method 0x0200 on subchannel 5, which has no object bound
#
# SEC_OP 0 with TERT_OP 0 is the old method format (clb06f.h
# NVB06F_DMA_METHOD_*; envytools dma-pusher.rst "NV4 method"): COUNT 28:18,
# SUBCHANNEL 15:13, ADDRESS 12:2 as a byte address. yuzu skips such headers
# (research/nv.md section 3); this model decodes them. The entry starts
# with two 0x00000000 words, old-format headers with count 0 (NOPs), then
# 1 << 18 | 5 << 13 | 0x200 = 0x0004a200 at +8: method 0x200 on subchannel
# 5, one word; its data 0x42 at +0xc faults: nothing is bound there.
.buffer pb,  0x100000000, 0x1000
.buffer sem, 0x100010000, 0x1000
.section pb, pb
bad:
    .word 0x00000000, 0x00000000
    hdr old_inc 5, 0x200, 1
    .word 0x42
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
