# hostile: a GPFIFO control entry GP_CRC, which the model does not check; it says so plainly, channel 1 still works
# fault: kind=unsupported unit=pfifo channel=0 gpu_addr=0 stream_addr=0 words=0x00001230,0x00000002
# message: GPFIFO control entry GP_CRC not supported yet
#
# `.submit A, A` (LENGTH 0) with A = 0x2_0000_1230: E0 = 0x00001230 (the
# CRC operand), E1 = 2 = GP_CRC (clb06f.h opcodes NOP 0, ILLEGAL 1, GP_CRC 2,
# PB_CRC 3; research/nv.md section 1). The model keeps no GPFIFO CRC, so it
# cannot check it honestly: UNSUPPORTED, "not supported yet" (docs/nv.md).
# Record {E0, E1}, stream address 0 (the ring is kernel memory).
.buffer pb,  0x100000000, 0x1000
.buffer sem, 0x100010000, 0x1000
.section pb, pb
good:
    inc 0, SEMAPHOREA, sem >> 32, sem & 0xffffffff, 0x600D, 0x01000002
good_end:
.channel 0
.submit 0x200001230, 0x200001230
.channel 1
.submit good, good_end
.run
.expect32 sem, 0x600D
