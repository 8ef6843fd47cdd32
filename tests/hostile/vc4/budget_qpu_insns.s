# hostile: qpu_never_ends.s with the budget vc4.qpu-insns lowered to 1000 on the device; the good frame's shader still fits
# fault: kind=hang unit=qpu channel=1 gpu_addr=0 stream_addr=0x00020030 words=-
# message: budget vc4.qpu-insns: QPU program did not end within 1000 instructions
# budget: vc4.qpu-insns=1000
#
# The scene is qpu_never_ends.s's, unchanged (its comments derive the record).
# One turn of its loop is 4 instructions and 1000 is a multiple of 4, so the
# run stops at the branch at 0x20030 as with the default budget.
.include "qpu_never_ends.s"
