# hostile: opcode 255 in the render list; after a CT1 reset the binner and the renderer draw a frame
# fault: kind=invalid-opcode unit=ct1 channel=1 gpu_addr=0x00020002 stream_addr=0x00020002 words=0xff
#
# 255 is not a record (research/vc4.md 1: the table ends with 254, the
# software-only GEM handles). Two No_Ops run, the byte at 0x20002 faults.
# CT0's state is untouched by it: CT1 is reset (CT1CS bit 15, which also
# drops CT1's semaphore count, so it is done before the binner increments),
# CT0 bins the good frame (BFC = 1) and CT1 renders it.
.section bad, 0x00020000
BAD:
     No_Op
     No_Op
     .byte 0xFF
BAD_END:

.include "good_job.inc"

# ---- the scene ----
.kick 1, BAD, BAD_END
.expect_reg CT1CS, 0x00000008          # stopped with the error bit
.reg CT1CS, 0x8000
.expect_reg CT1CS, 0
.kick 0, GOOD_BIN, GOOD_BIN_END
.wait bfc, 1
.kick 1, GOOD_REND, GOOD_REND_END
.wait rfc, 1
.expect32 FB + 4 * (64 * 2 + 2), 0xFFFFFFFF
.expect32 FB + 4 * (64 * 60 + 60), 0xFF0000FF
# NO_GOOD_RUN
