# hostile: wait_reg_mem_never.s with the budget radeon.wait-polls lowered to 7 on the device: the same record after 7 polls
# fault: kind=hang unit=cp channel=0 gpu_addr=0x1800 stream_addr=0x100000 words=0xc0053c00,0x00000013,0x00001800,0x00000000
# message: budget radeon.wait-polls: WAIT_REG_MEM not satisfied after 7 polls
# budget: radeon.wait-polls=7
#
# The model reads the budget from the device when it is created (device.h
# CG_BUDGET_TABLE; cg_radeon_config.wait_budget 0 = the device's budget).
#
# WAIT_REG_MEM (count 5): dw1 FUNCTION 3 (equal) | MEM_SPACE 1 << 4 = 0x13,
# dw2 address 0x1800, dw3 hi 0, reference 0x42, mask 0xFF, poll interval 10.
# 0x1800 stays 0, so the wait can never end. Every poll (each CP run the fence
# wait makes) fails; after wait_budget (here 7) polls the model's watchdog ends
# the wait with a hang fault naming the packet (header PACKET3(0x3C, 5) =
# 0xC0053C00 and the first three payload dwords) and what it polled
# (gpu_addr 0x1800).
#
# Recovery: the CP stops (docs/radeon.md "Every fault ... the CP stops"), the
# fence after the IB never lands, the fence wait sees rptr stuck and declares
# a lockup, and the GPU reset replays the ring from the next-rptr record (the
# fence only: the hung IB is dropped, as radeon_gpu_reset does). A later IB
# then writes a scratch register and memory and its fence signals.
        .gen r600

        .section bad, 0x100000
        WAIT_REG_MEM 0x13, 0x1800, 0, 0x42, 0xFF, 10

        .section good, 0x200000                        # the later submission
        SET_CONFIG_REG SCRATCH_REG5, 0x600D
        MEM_WRITE 0x1000, 1 << 18, 0x600D0001, 0       # DATA32 write to VRAM

        .ib bad
        .recover
        .ib good
        .wait
        .expect_reg SCRATCH_REG5, 0x600D
        .expect32 0x1000, 0x600D0001
