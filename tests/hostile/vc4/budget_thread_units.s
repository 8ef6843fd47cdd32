# hostile: cl_branch_loop_bin.s with the budget vc4.thread-units lowered to 1000 on the device; a new job still fits
# fault: kind=hang unit=ct0 channel=0 gpu_addr=0x00020000 stream_addr=0x00020000 words=-
# message: budget vc4.thread-units: 1000 units ran out
# budget: vc4.thread-units=1000
#
# The scene is cl_branch_loop_bin.s's, unchanged (its comments derive the record).
# The loop runs two records per turn and 1000 is even, so the thread stops
# on the No_Op at 0x20000 as with the default budget; the good job needs
# far fewer units (a few records, one triangle, about 130 fragment batches).
.include "cl_branch_loop_bin.s"
