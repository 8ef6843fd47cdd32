# hostile: an IB that calls itself (a branch loop in the IB chain) ends at the depth limit, not in a hang
# fault: kind=depth unit=cp channel=0 gpu_addr=0 stream_addr=0x10000c words=0xc0023200,0x00100000,0x00000000,0x00000007
#
# The IB at 0x100000 is 7 dwords: SET_CONFIG_REG SCRATCH_REG4 (3 dwords) that
# counts nothing but shows it ran, then INDIRECT_BUFFER to itself, size 7, at
# 0x10000C. From the ring it runs as IB1, calls itself as IB2, and the IB2's
# INDIRECT_BUFFER (again at 0x10000C) would be a third level: a depth fault.
# A chain of IBs cannot loop on this CP: every call goes one level deeper.
#
# Recovery: the CP stops (docs/radeon.md "Every fault ... the CP stops"), the
# fence after the IB never lands, the fence wait sees rptr stuck and declares
# a lockup, and the GPU reset replays the ring from the next-rptr record (the
# fence only: the hung IB is dropped, as radeon_gpu_reset does). A later IB
# then writes a scratch register and memory and its fence signals.
        .gen r600

        .section bad, 0x100000
        SET_CONFIG_REG SCRATCH_REG4, 0x1B1B
        INDIRECT_BUFFER 0x100000, 0, 7

        .section good, 0x200000                        # the later submission
        SET_CONFIG_REG SCRATCH_REG5, 0x600D
        MEM_WRITE 0x1000, 1 << 18, 0x600D0001, 0       # DATA32 write to VRAM

        .ib bad
        .expect_reg SCRATCH_REG4, 0x1B1B
        .recover
        .ib good
        .wait
        .expect_reg SCRATCH_REG5, 0x600D
        .expect32 0x1000, 0x600D0001
