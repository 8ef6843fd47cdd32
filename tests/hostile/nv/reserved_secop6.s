# hostile: a pushbuffer header with the reserved secondary opcode 6; channel 1 still releases its semaphore
# fault: kind=invalid-opcode unit=pfifo channel=0 gpu_addr=0 stream_addr=0x100000000 words=0xc0001234
# message: secondary opcode 6 is reserved
#
# SEC_OP is bits 31:29 of a header (clb06f.h NVB06F_DMA_*, research/nv.md
# section 2): 0xc0001234 >> 29 = 6, which no NVIDIA header defines (yuzu
# ignores it; we follow the headers and fault). The header is the first word
# of the entry (stream_addr = 0x100000000); it has no data word, so the
# record holds the header alone. Nothing was accessed: gpu_addr = 0.
.buffer pb,  0x100000000, 0x1000
.buffer sem, 0x100010000, 0x1000
.section pb, pb
bad:
    .word 0xc0001234
    inc 0, SEMAPHOREA, sem >> 32, (sem + 0x10) & 0xffffffff, 0xBAD, 0x01000002   # never runs
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
.expect32 sem + 0x10, 0
