# hostile: the CPU patches a word of a CPU-cached pushbuffer and never flushes it (the seeds' missing-flush bug); the GPU runs the old word, a stale-read diagnostic names it, both channels keep working
# fault: kind=stale-gpu-read unit=pfifo channel=0 gpu_addr=0x10003000c stream_addr=0x100030000 words=-
# message: still dirty in the CPU cache (missing flush)
#
# pbc is mapped CPU-cached (.buffer ..., kind 0, cached 1: the handle is
# CACHEABLE, docs/nv.md). The scene places the section and flushes it; then
# .cpu_write32 changes the release payload (SEMAPHOREC, the word at
# pbc + 0xc: header +0, A +4, B +8, C +0xc) from 0x01D to 0x0EE in the CPU
# cache only. The GPU's pushbuffer fetch (the whole 5-word entry from
# 0x100030000, words=-: a fetch has no header yet) reads memory, which
# still holds 0x01D: the model logs stale-gpu-read at the first dirty byte,
# 0x10003000c, as a diagnostic (a warning by default: the read goes
# ahead, as on hardware) and the release writes the old payload, 0x01D.
.buffer pb,  0x100000000, 0x1000
.buffer sem, 0x100010000, 0x1000
.buffer pbc, 0x100030000, 0x1000, 0, 1
.section pb, pb
good:
    inc 0, SEMAPHOREA, sem >> 32, sem & 0xffffffff, 0x600D, 0x01000002
good_end:
.section pbcsec, pbc
bad:
    inc 0, SEMAPHOREA, sem >> 32, (sem + 0x10) & 0xffffffff, 0x01D, 0x01000002
bad_end:
.cpu_write32 pbc + 0xc, 0x0EE
.channel 0
.submit bad, bad_end
.channel 1
.submit good, good_end
.run
.expect32 sem, 0x600D
.expect32 sem + 0x10, 0x01D
