# hostile: wait_reg_mem_never.s with the budget radeon.wait-polls lowered to 7 on the device: the same record after 7 polls
# fault: kind=hang unit=cp channel=0 gpu_addr=0x1800 stream_addr=0x100000 words=0xc0053c00,0x00000013,0x00001800,0x00000000
# message: budget radeon.wait-polls: WAIT_REG_MEM not satisfied after 7 polls
# budget: radeon.wait-polls=7
#
# The scene is wait_reg_mem_never.s's, unchanged (its comments derive the record).
# The model reads the budget from the device when it is created
# (cg_radeon_config.wait_budget 0 = the device's budget).
.include "wait_reg_mem_never.s"
