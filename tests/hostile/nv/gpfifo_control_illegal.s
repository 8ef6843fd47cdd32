# hostile: a GPFIFO control entry with opcode ILLEGAL; channel 1 still releases its semaphore
# fault: kind=invalid-opcode unit=pfifo channel=0 gpu_addr=0 stream_addr=0 words=0xdeadbeec,0x00000001
# message: control entry ILLEGAL (operand 0xdeadbeec)
#
# A zero-length `.submit A, A` is a GP entry with LENGTH 0, which makes E1
# 7:0 an OPCODE (NOP 0, ILLEGAL 1, GP_CRC 2, PB_CRC 3; clb06f.h via
# research/nv.md section 1). The scene builds E0 = A & 0xfffffffc and
# E1 = (A >> 32) & 0xff (cg_nv_gp_entry), so A = 0x1_dead_beec gives
# E0 = 0xdeadbeec (the operand), E1 = 0x00000001 = ILLEGAL. The fault
# carries the entry's two words in ring order {E0, E1}. The GPFIFO ring of
# the model is kernel memory, not GPU memory, so stream_addr = 0 (as for
# the kernel's fence words, docs/nv.md) and there is no data address.
.buffer pb,  0x100000000, 0x1000
.buffer sem, 0x100010000, 0x1000
.section pb, pb
good:
    inc 0, SEMAPHOREA, sem >> 32, sem & 0xffffffff, 0x600D, 0x01000002
good_end:
.channel 0
.submit 0x1deadbeec, 0x1deadbeec
.channel 1
.submit good, good_end
.run
.expect32 sem, 0x600D
