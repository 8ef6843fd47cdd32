# hostile: macro_infinite_loop.s with the budget nv.macro-insns lowered to 100 on the device: the same record, after 100 instructions
# fault: kind=hang unit=mme channel=0 gpu_addr=0 stream_addr=0x10000001c words=0x00000027,0x00000000
# message: macro 0 pc 0x0: budget nv.macro-insns: instruction budget of 100 ran out
# budget: nv.macro-insns=100
#
# The scene is macro_infinite_loop.s's, unchanged (its comments derive the record).
# The loop is one instruction at PC 0, so only the message's count differs.
.include "macro_infinite_loop.s"
