# hostile: a 16-byte semaphore release at the last 8 bytes of the 40-bit address space, running past its top; channel 1 still works
# fault: kind=addr-range unit=host channel=0 gpu_addr=0x10000000000 stream_addr=0x100000010 words=0x20040004,0x00000002
# message: leaves the 40-bit address space at 0x10000000000
#
# SEMAPHOREA = 0xff (OFFSET_UPPER 7:0), SEMAPHOREB = 0xfffffff8: address
# 0xff_ffff_fff8, in the mapped last page. SEMAPHORED = 2: RELEASE with
# RELEASE_SIZE 16BYTE (bit 24 clear), which writes {payload, 0, timestamp}
# (clb06f.h; Ryujinx GPFifoClass.cs): 16 bytes, 8 of them past 2^40. The
# model faults at the first address past the top (0x100_0000_0000) and
# writes nothing; hardware would wrap to VA 0 (never mapped) and fault.
.buffer pb,  0x100000000, 0x1000
.buffer sem, 0x100010000, 0x1000
.buffer top, 0xfffffff000, 0x1000
.section pb, pb
bad:
    inc 0, SEMAPHOREA, 0xff, 0xfffffff8, 0x1234, 0x00000002
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
