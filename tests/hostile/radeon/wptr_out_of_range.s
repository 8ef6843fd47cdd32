# hostile: the host writes CP_RB_WPTR with bits above the ring size: the CP wraps it to the ring, runs nothing extra, no fault
#
# The ring is 16384 dwords (64 KiB: RB_BUFSZ 13, 2 << 13 dwords). The CP's
# ring pointers are dword offsets modulo the ring size (the ring is "masked
# dword pointers", research/radeon.md section 6; radeon masks wptr with
# ptr_mask before writing it), and the model takes the written wptr modulo the
# ring too: 0x4000 + 16 wraps to 16 = rptr, so the CP has nothing to run.
# CP_RB_WPTR reads back the wrapped 16. The driver's next commit writes wptr 48
# and the submission runs normally. No fault.
        .gen r600

        .section first, 0x100000
        SET_CONFIG_REG SCRATCH_REG6, 0x1E1E

        .section good, 0x200000                        # the later submission
        SET_CONFIG_REG SCRATCH_REG5, 0x600D
        MEM_WRITE 0x1000, 1 << 18, 0x600D0001, 0       # DATA32 write to VRAM

        .reg CP_RB_WPTR, 0x4000 + 16
        .expect_reg CP_RB_WPTR, 16
        .expect_reg CP_RB_RPTR, 16
        .ib first
        .wait
        .expect_reg SCRATCH_REG6, 0x1E1E
        .expect_reg CP_RB_RPTR, 48
        .ib good
        .wait
        .expect_reg SCRATCH_REG5, 0x600D
        .expect32 0x1000, 0x600D0001
