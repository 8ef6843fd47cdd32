# Hang report test (tests/test_report.sh): the rendering thread (ct1) waits
# on its semaphore, which the binning thread (ct0) never increments: it runs
# two NOPs and an Increment_Semaphore-free list, so the watchdog ends ct1.
.section bin, 0x00020000
BIN:
    NOP
    NOP
BIN_END:
.section rend, 0x00030000
REND:
    NOP
    Wait_On_Semaphore
    Halt
REND_END:
.kick 0, BIN, BIN_END
.kick 1, REND, REND_END
.wait idle
