# hostile: the host halts the CP (CP_ME_CNTL.ME_HALT) under a submission: a lockup with no fault, and the reset runs the submission
#
# CP_ME_CNTL bit 28 halts the micro engine (r600d.h CP_ME_HALT; r600_cp_stop).
# The .ib submission is committed but never fetched: rptr stays at 16, the
# fence wait sees no progress and declares a lockup, although nothing faulted
# (no record). The reset's r600_cp_start writes CP_ME_CNTL = 0xff (halt clear);
# no next-rptr record was executed, so the replay is dwords 0-47 and runs the IB
# (SCRATCH_REG6) and its fence.
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

        .reg CP_ME_CNTL, 1 << 28
        .ib first
        .expect_reg CP_RB_RPTR, 16
        .expect_reg SCRATCH_REG6, 0
        .recover
        .ib good
        .wait
        .expect_reg SCRATCH_REG5, 0x600D
        .expect32 0x1000, 0x600D0001
        .expect_reg SCRATCH_REG6, 0x1E1E
