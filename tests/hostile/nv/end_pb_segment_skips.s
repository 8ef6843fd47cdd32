# hostile: END_PB_SEGMENT followed by garbage (a reserved header, ILLEGAL) in the same entry; the garbage is never decoded, no fault
#
# No fault: SEC_OP 7 END_PB_SEGMENT (0xe0000000; clb06f.h, research/nv.md
# section 2) ends the GP entry's segment, so the words after it in the
# entry (0xc0001234, reserved opcode 6, and an ILLEGAL method) are not
# fetched. The next entry's release (0xE7D at sem + 0x10) runs.
.buffer pb,  0x100000000, 0x1000
.buffer sem, 0x100010000, 0x1000
.section pb, pb
first:
    end_pb_segment
    .word 0xc0001234
    mthd 0, ILLEGAL, 1
first_end:
second:
    inc 0, SEMAPHOREA, sem >> 32, (sem + 0x10) & 0xffffffff, 0xE7D, 0x01000002
second_end:
good:
    inc 0, SEMAPHOREA, sem >> 32, sem & 0xffffffff, 0x600D, 0x01000002
good_end:
.channel 0
.submit first, first_end
.submit second, second_end
.channel 1
.submit good, good_end
.run
.expect32 sem, 0x600D
.expect32 sem + 0x10, 0xE7D
