# hostile: a property tag whose value size runs past the end of its buffer: error code, no fault; a valid call works
#
# The tag's value buffer size (0x1000) is larger than the 32-byte buffer
# holds. The firmware answers 0x80000001, "error parsing request buffer"
# (research/vc4.md 5: code 0x80000001 is the error response), and leaves
# the tag unanswered; that is the whole report, so no fault is logged. The
# next call and the V3D work as before.
.section bad, 0x00020000
MB_BAD:
     .word MB_BAD_END - MB_BAD, 0
     .word Get_Board_Revision, 0x1000, 0
     .word 0, 0, 0
MB_BAD_END:
.align 16
MB_GOOD:                               # Set_Clock_Rate V3D 250 MHz, as seed 003
     .word MB_GOOD_END - MB_GOOD, 0
     .word Set_Clock_Rate, 8, 8, CLK_V3D_ID, 250000000
     .word 0
MB_GOOD_END:

.include "good_job.inc"

# ---- the scene ----
.mailbox MB_BAD, 0x80000001
.expect32 MB_BAD + 16, 0               # the tag was not answered
.mailbox MB_GOOD                       # the property interface still answers
.expect32 MB_GOOD + 16, 0x80000008     # the tag's request word: response bit | 8 bytes
.expect32 MB_GOOD + 24, 250000000
.include "good_job_run.inc"
