# hostile: a GPFIFO control entry with an opcode clb06f.h does not define (7); channel 1 still works
# fault: kind=invalid-opcode unit=pfifo channel=0 gpu_addr=0 stream_addr=0 words=0x000000f0,0x00000007
# message: unknown opcode 0x07
#
# `.submit A, A` (LENGTH 0) with A = 0x7_0000_00f0: E0 = 0x000000f0,
# E1 = 0x00000007, OPCODE 7. clb06f.h defines opcodes 0..3 only
# (research/nv.md section 1), so this is an invalid opcode; the record holds
# {E0, E1}, stream address 0 (the ring is kernel memory).
.buffer pb,  0x100000000, 0x1000
.buffer sem, 0x100010000, 0x1000
.section pb, pb
good:
    inc 0, SEMAPHOREA, sem >> 32, sem & 0xffffffff, 0x600D, 0x01000002
good_end:
.channel 0
.submit 0x7000000f0, 0x7000000f0
.channel 1
.submit good, good_end
.run
.expect32 sem, 0x600D
