# hostile: the host writes CP_RB_CNTL.RB_BUFSZ 23 (a 64 MiB ring); the CP refuses to run and the reset restores the ring
# fault: kind=bad-state unit=cp channel=0 gpu_addr=0 stream_addr=0x100000000 words=-
#
# RB_BUFSZ = log2(ring bytes / 8) (r600_cp_resume); 23 means 2 << 23 dwords,
# 64 MiB, above anything radeon allocates and above the model's limit (22).
# The next wptr write (the .ib commit) runs the CP, which faults before any
# fetch: no packet is involved (words=-, gpu_addr 0) and stream_addr is the
# ring base 0x100000000 (the model's regression: the record used to carry the
# previous packet's address and words). The wptr write itself could not be
# taken modulo a ring size, so the CP rptr/wptr stay where they were. The reset
# (r600_cp_resume) programs CP_RB_CNTL again; nothing ever wrote the next-rptr
# register, so radeon_ring_backup saves dwords 0-47 (ME_INITIALIZE, the IB
# call and its fence) and the replay runs the IB: SCRATCH_REG6 is written.
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

        .reg CP_RB_CNTL, 23
        .ib first
        .expect_reg SCRATCH_REG6, 0
        .recover
        .ib good
        .wait
        .expect_reg SCRATCH_REG5, 0x600D
        .expect32 0x1000, 0x600D0001
        .expect_reg SCRATCH_REG6, 0x1E1E                # the replay ran the IB
