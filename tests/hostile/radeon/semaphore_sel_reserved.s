# hostile: MEM_SEMAPHORE with a reserved SEL value
# fault: kind=bad-state unit=cp channel=0 gpu_addr=0x1800 stream_addr=0x100000 words=0xc0013900,0x00001800,0xa0000000
#
# SEL 6 signals and 7 waits (r600d.h PACKET3_SEM_SEL_SIGNAL / _WAIT,
# research/radeon.md); SEL 5 << 29 = 0xA0000000 is neither. gpu_addr is the
# semaphore address 0x1800.
#
# Recovery: the CP stops (docs/radeon.md "Every fault ... the CP stops"), the
# fence after the IB never lands, the fence wait sees rptr stuck and declares
# a lockup, and the GPU reset replays the ring from the next-rptr record (the
# fence only: the hung IB is dropped, as radeon_gpu_reset does). A later IB
# then writes a scratch register and memory and its fence signals.
        .gen r600

        .section bad, 0x100000
        MEM_SEMAPHORE 0x1800, 5 << 29

        .section good, 0x200000                        # the later submission
        SET_CONFIG_REG SCRATCH_REG5, 0x600D
        MEM_WRITE 0x1000, 1 << 18, 0x600D0001, 0       # DATA32 write to VRAM

        .ib bad
        .recover
        .ib good
        .wait
        .expect_reg SCRATCH_REG5, 0x600D
        .expect32 0x1000, 0x600D0001
