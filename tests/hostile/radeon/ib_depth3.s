# hostile: IB2 calls a third IB level; IB1's work before the call stays done and a later IB runs
# fault: kind=depth unit=cp channel=0 gpu_addr=0 stream_addr=0x110000 words=0xc0023200,0x00120000,0x00000000,0x00000002
#
# The CP has two IB levels (ring -> IB1 -> IB2; research/radeon.md, docs/
# radeon.md): IB1 (0x100000) writes SCRATCH_REG4 and calls IB2 (0x110000),
# whose first packet, at 0x110000 (stream_addr), is INDIRECT_BUFFER 0x120000,
# size 2: a third level. words: PACKET3(INDIRECT_BUFFER 0x32, count 2) =
# 0xC0023200, base lo 0x120000, base hi 0, size 2. No memory address is
# involved (gpu_addr 0). IB1's SET_CONFIG_REG SCRATCH_REG6 after the call
# never runs (the CP stopped), so SCRATCH_REG6 stays 0.
#
# Recovery: the CP stops (docs/radeon.md "Every fault ... the CP stops"), the
# fence after the IB never lands, the fence wait sees rptr stuck and declares
# a lockup, and the GPU reset replays the ring from the next-rptr record (the
# fence only: the hung IB is dropped, as radeon_gpu_reset does). A later IB
# then writes a scratch register and memory and its fence signals.
        .gen r600

        .section ib3, 0x120000
        packet2
        packet2

        .section ib2, 0x110000
        INDIRECT_BUFFER 0x120000, 0, 2

        .section bad, 0x100000
        SET_CONFIG_REG SCRATCH_REG4, 0x1B1B
        INDIRECT_BUFFER 0x110000, 0, 4
        SET_CONFIG_REG SCRATCH_REG6, 0xBAD

        .section good, 0x200000                        # the later submission
        SET_CONFIG_REG SCRATCH_REG5, 0x600D
        MEM_WRITE 0x1000, 1 << 18, 0x600D0001, 0       # DATA32 write to VRAM

        .ib bad
        .expect_reg SCRATCH_REG4, 0x1B1B
        .expect_reg SCRATCH_REG6, 0
        .recover
        .ib good
        .wait
        .expect_reg SCRATCH_REG5, 0x600D
        .expect32 0x1000, 0x600D0001
