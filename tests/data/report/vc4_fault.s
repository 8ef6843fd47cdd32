# Hang report test (tests/test_report.sh): the binning thread (ct0) meets an
# unknown opcode (0x1e) after a NOP and an Increment_Semaphore; ct1 waits
# for that increment and finishes.
.section bin, 0x00020000
BIN:
    NOP
    Increment_Semaphore
    .byte 0x1e
BIN_END:
.section rend, 0x00030000
REND:
    Wait_On_Semaphore
    NOP
REND_END:
.kick 0, BIN, BIN_END
.kick 1, REND, REND_END
.wait idle
