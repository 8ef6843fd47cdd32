# hostile: GPFIFO control entries with opcode NOP (any operand) between real entries are skipped without a fault
#
# No fault: a LENGTH 0 entry with OPCODE 0 is a NOP control entry
# (clb06f.h, research/nv.md section 1), and yuzu skips every zero-length
# entry. `.submit A, A` with A = 0x12345678 gives E0 = 0x12345678 (the
# operand), E1 = 0 (NOP); A = 0 gives the all-zero entry. Channel 0's real
# entries before and after them both run, and channel 1 works beside it.
.buffer pb,  0x100000000, 0x1000
.buffer sem, 0x100010000, 0x1000
.section pb, pb
first:
    inc 0, SEMAPHOREA, sem >> 32, (sem + 0x10) & 0xffffffff, 0x1111, 0x01000002
first_end:
second:
    inc 0, SEMAPHOREA, sem >> 32, (sem + 0x20) & 0xffffffff, 0x2222, 0x01000002
second_end:
good:
    inc 0, SEMAPHOREA, sem >> 32, sem & 0xffffffff, 0x600D, 0x01000002
good_end:
.channel 0
.submit first, first_end
.submit 0x12345678, 0x12345678
.submit 0, 0
.submit second, second_end
.channel 1
.submit good, good_end
.run
.expect32 sem + 0x10, 0x1111
.expect32 sem + 0x20, 0x2222
.expect32 sem, 0x600D
