# hostile: a mailbox property call on a bus address no alias maps; a valid call then works
# fault: kind=unmapped unit=mailbox channel=8 gpu_addr=0x10000000 stream_addr=0x10000000 words=-
# message: read of 0x4 bytes at 0x10000000
#
# The firmware reads the buffer through the GPU's bus view (docs/vc4.md
# "Mailbox"); its size word at 0x10000000 lies in the hole after the first
# SDRAM alias. Nothing is written back (the ARM cannot read there either:
# code 0).
.section bad, 0x00020000
.align 16
MB_GOOD:                               # Set_Clock_Rate V3D 250 MHz, as seed 003
     .word MB_GOOD_END - MB_GOOD, 0
     .word Set_Clock_Rate, 8, 8, CLK_V3D_ID, 250000000
     .word 0
MB_GOOD_END:

.include "good_job.inc"

# ---- the scene ----
.mailbox 0x10000000, 0
.mailbox MB_GOOD                       # the property interface still answers
.expect32 MB_GOOD + 16, 0x80000008     # the tag's request word: response bit | 8 bytes
.expect32 MB_GOOD + 24, 250000000
.include "good_job_run.inc"
