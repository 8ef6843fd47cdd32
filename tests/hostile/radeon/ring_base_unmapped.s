# hostile: the host points CP_RB_BASE at unmapped memory; the fetch faults and the reset restores the ring
# fault: kind=unmapped unit=cp channel=0 gpu_addr=0x2000040 stream_addr=0x2000040 words=-
#
# CP_RB_BASE = 0x2000000 >> 8 (a hole). rptr is 16 (after ME_INITIALIZE), so
# the next fetch, at 0x2000000 + 16 * 4 = 0x2000040, faults before reading a
# word. The reset programs CP_RB_BASE again and replays dwords 0-47 (no
# next-rptr record was executed), so the IB runs after all.
#
# Recovery: .recover (the fence wait declares a lockup, cg_radeon_gpu_reset
# does the rest as described above); then a later IB writes a scratch
# register and memory and its fence signals.
        .gen r600

        .section first, 0x100000
        SET_CONFIG_REG SCRATCH_REG6, 0x1E1E

        .section good, 0x200000                        # the later submission
        SET_CONFIG_REG SCRATCH_REG5, 0x600D
        MEM_WRITE 0x1000, 1 << 18, 0x600D0001, 0       # DATA32 write to VRAM

        .reg CP_RB_BASE, 0x2000000 >> 8
        .ib first
        .expect_reg SCRATCH_REG6, 0
        .recover
        .ib good
        .wait
        .expect_reg SCRATCH_REG5, 0x600D
        .expect32 0x1000, 0x600D0001
        .expect_reg SCRATCH_REG6, 0x1E1E                # the replay ran the IB
