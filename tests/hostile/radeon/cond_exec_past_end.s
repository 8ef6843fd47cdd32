# hostile: COND_EXEC on a zero value skips 100 dwords where the IB has 2 left
# fault: kind=bad-length unit=cp channel=0 gpu_addr=0 stream_addr=0x100010 words=-
# message: COND_EXEC skips 100 dwords past the end of the IB (2 left)
#
# COND_EXEC (count 2: addr lo 0x1800, addr hi 0, exec count 100; the SI layout,
# see docs/radeon.md) reads 0 at 0x1800 (VRAM starts zeroed), so the next 100
# dwords are skipped. The IB is 6 dwords: the 4-dword COND_EXEC at 0x100000 and
# two fillers. The skip starts at 0x100010 (stream_addr, no header: words=-)
# and cannot end inside the IB. Model rule: an IB's end is final, so a skip
# past it faults instead of skipping into the caller's stream.
#
# Recovery: the CP stops (docs/radeon.md "Every fault ... the CP stops"), the
# fence after the IB never lands, the fence wait sees rptr stuck and declares
# a lockup, and the GPU reset replays the ring from the next-rptr record (the
# fence only: the hung IB is dropped, as radeon_gpu_reset does). A later IB
# then writes a scratch register and memory and its fence signals.
        .gen r600

        .section bad, 0x100000
        COND_EXEC 0x1800, 0, 100
        packet2
        packet2

        .section good, 0x200000                        # the later submission
        SET_CONFIG_REG SCRATCH_REG5, 0x600D
        MEM_WRITE 0x1000, 1 << 18, 0x600D0001, 0       # DATA32 write to VRAM

        .ib bad
        .recover
        .ib good
        .wait
        .expect_reg SCRATCH_REG5, 0x600D
        .expect32 0x1000, 0x600D0001
