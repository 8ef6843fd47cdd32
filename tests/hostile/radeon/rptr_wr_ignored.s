# hostile: the host writes CP_RB_RPTR_WR out of range without RB_RPTR_WR_ENA: ignored, no fault, the ring keeps working
#
# r600_cp_resume sets RB_RPTR_WR_ENA only while it zeroes rptr through
# CP_RB_RPTR_WR, then rewrites CP_RB_CNTL without it: the enable gates the
# write. 0x12345 is also far past the 16384-dword ring. The CP's rptr stays at
# 16 (after ME_INITIALIZE, checked through CP_RB_RPTR) and the next
# submission runs: the .ib call occupies dwords 16-47 (next-rptr record 3,
# INDIRECT_BUFFER 4, fence 10, PACKET2 padding to the 16-dword fetch size), so
# rptr is 48 afterwards. No fault.
        .gen r600

        .section first, 0x100000
        SET_CONFIG_REG SCRATCH_REG6, 0x1E1E

        .section good, 0x200000                        # the later submission
        SET_CONFIG_REG SCRATCH_REG5, 0x600D
        MEM_WRITE 0x1000, 1 << 18, 0x600D0001, 0       # DATA32 write to VRAM

        .reg CP_RB_RPTR_WR, 0x12345
        .expect_reg CP_RB_RPTR, 16
        .ib first
        .wait
        .expect_reg SCRATCH_REG6, 0x1E1E
        .expect_reg CP_RB_RPTR, 48
        .ib good
        .wait
        .expect_reg SCRATCH_REG5, 0x600D
        .expect32 0x1000, 0x600D0001
