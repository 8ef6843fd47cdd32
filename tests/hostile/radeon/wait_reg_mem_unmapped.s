# hostile: WAIT_REG_MEM polls an unmapped memory address
# fault: kind=unmapped unit=cp channel=0 gpu_addr=0x2000000 stream_addr=0x100000 words=0xc0053c00,0x00000013,0x02000000,0x00000000
#
# The poll reads 0x2000000, in the hole between VRAM and the GTT: the first
# read faults (gpu_addr 0x2000000) instead of waiting.
#
# Recovery: the CP stops (docs/radeon.md "Every fault ... the CP stops"), the
# fence after the IB never lands, the fence wait sees rptr stuck and declares
# a lockup, and the GPU reset replays the ring from the next-rptr record (the
# fence only: the hung IB is dropped, as radeon_gpu_reset does). A later IB
# then writes a scratch register and memory and its fence signals.
        .gen r600

        .section bad, 0x100000
        WAIT_REG_MEM 0x13, 0x2000000, 0, 1, 1, 10

        .section good, 0x200000                        # the later submission
        SET_CONFIG_REG SCRATCH_REG5, 0x600D
        MEM_WRITE 0x1000, 1 << 18, 0x600D0001, 0       # DATA32 write to VRAM

        .ib bad
        .recover
        .ib good
        .wait
        .expect_reg SCRATCH_REG5, 0x600D
        .expect32 0x1000, 0x600D0001
