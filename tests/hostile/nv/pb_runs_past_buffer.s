# hostile: a GPFIFO entry whose LENGTH runs past the end of its buffer; the words inside still execute, channel 1 still works
# fault: kind=unmapped unit=pfifo channel=0 gpu_addr=0x100021000 stream_addr=0x100021000 words=-
# message: no mapping at 0x100021000
#
# The entry starts 20 bytes before the end of the 4 KiB buffer `tail`
# (0x100020fec) and claims 9 words: the first 5 (a complete semaphore
# release, payload 0xA1) lie in the buffer and run; the 6th word would be
# at 0x100021000, the first byte past the buffer, where nothing is mapped.
# The fetch of that word faults (MMU fault on the pushbuffer read), so
# gpu_addr = stream_addr = 0x100021000, and no header word is involved
# (words=-). The release before the fault is visible: the pusher executes
# words as it fetches them (envytools dma-pusher.rst).
.buffer pb,   0x100000000, 0x1000
.buffer sem,  0x100010000, 0x1000
.buffer tail, 0x100020000, 0x1000
.section pb, pb
good:
    inc 0, SEMAPHOREA, sem >> 32, sem & 0xffffffff, 0x600D, 0x01000002
good_end:
.section tailsec, tail + 0xfec
bad:
    # 5 words: they end at 0x100021000
    inc 0, SEMAPHOREA, sem >> 32, (sem + 0x10) & 0xffffffff, 0xA1, 0x01000002
.channel 0
.submit bad, bad + 9 * 4
.channel 1
.submit good, good_end
.run
.expect32 sem, 0x600D
.expect32 sem + 0x10, 0xA1
