# hostile: a mailbox property buffer whose size word is 8 (less than header + end tag); a valid call then works
# fault: kind=bad-length unit=mailbox channel=8 gpu_addr=0x00020000 stream_addr=0x00020000 words=-
# message: property buffer size 8
#
# A property buffer holds its size, the request code, tags and a 0 end tag:
# at least 12 bytes, a multiple of 4 (research/vc4.md 5, the firmware
# wiki). The firmware leaves the code 0 (not processed); the model reports
# the buffer on the property channel (8) with its address. The seed's
# V3D clock call then succeeds, and the V3D still bins and renders.
.section bad, 0x00020000
MB_BAD:
     .word 8, 0
     .word 0
.align 16
MB_GOOD:                               # Set_Clock_Rate V3D 250 MHz, as seed 003
     .word MB_GOOD_END - MB_GOOD, 0
     .word Set_Clock_Rate, 8, 8, CLK_V3D_ID, 250000000
     .word 0
MB_GOOD_END:

.include "good_job.inc"

# ---- the scene ----
.mailbox MB_BAD, 0
.mailbox MB_GOOD                       # the property interface still answers
.expect32 MB_GOOD + 16, 0x80000008     # the tag's request word: response bit | 8 bytes
.expect32 MB_GOOD + 24, 250000000
.include "good_job_run.inc"
