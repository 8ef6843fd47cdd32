# hostile: an IB's MEM_WRITE targets a hole between VRAM and the GTT; after the lockup reset a later IB writes memory and a scratch register
# fault: kind=unmapped unit=cp channel=0 gpu_addr=0x2000000 stream_addr=0x100000 words=0xc0033d00,0x02000000,0x00040000,0x0bad0001
# message: no mapping at 0x2000000
#
# Why each field: VRAM is [0, 16 MiB) and the GTT starts at 4 GiB (docs/radeon.md),
# so 0x2000000 (32 MiB) has no mapping: the write faults there (gpu_addr). The
# packet is the first of the IB at 0x100000 (stream_addr). words = the header
# PACKET3(MEM_WRITE 0x3D, count 3) = 0xC0000000 | 3 << 16 | 0x3D << 8 = 0xC0033D00,
# then the first three payload dwords: address lo, DATA32 (bit 18) with address
# hi 0, data lo (the record keeps four words). The CP stops, the fence after
# the IB never lands, the driver sees rptr stuck (lockup) and resets; the replay
# from the next-rptr record runs the fence only.
        .gen r600

        .section bad, 0x100000
        MEM_WRITE 0x2000000, 1 << 18, 0x0BAD0001, 0
        SET_CONFIG_REG SCRATCH_REG6, 0xBAD             # never runs: the CP stopped

        .section good, 0x200000
        SET_CONFIG_REG SCRATCH_REG5, 0x600D
        MEM_WRITE 0x2000 - 0x1000, 1 << 18, 0x600D0001, 0

        .ib bad
        .recover
        .expect_reg SCRATCH_REG6, 0
        .ib good
        .wait
        .expect_reg SCRATCH_REG5, 0x600D
        .expect32 0x1000, 0x600D0001
