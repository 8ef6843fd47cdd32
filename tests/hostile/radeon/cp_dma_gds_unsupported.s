# hostile: CP_DMA from GDS (SRC_SEL 1)
# fault: kind=unsupported unit=cp channel=0 gpu_addr=0 stream_addr=0x100000 words=0xc0044100,0x00001000,0x20000000,0x00001100
# message: not supported yet
#
# SRC_SEL (dw2 bits 30:29) 1 is GDS (Mesa r600_hw_context.c / sid.h); the model
# has no GDS. dw2 = 1 << 29 = 0x20000000.
#
# Recovery: the CP stops (docs/radeon.md "Every fault ... the CP stops"), the
# fence after the IB never lands, the fence wait sees rptr stuck and declares
# a lockup, and the GPU reset replays the ring from the next-rptr record (the
# fence only: the hung IB is dropped, as radeon_gpu_reset does). A later IB
# then writes a scratch register and memory and its fence signals.
        .gen r600

        .section bad, 0x100000
        CP_DMA 0x1000, 1 << 29, 0x1100, 0, 4

        .section good, 0x200000                        # the later submission
        SET_CONFIG_REG SCRATCH_REG5, 0x600D
        MEM_WRITE 0x1000, 1 << 18, 0x600D0001, 0       # DATA32 write to VRAM

        .ib bad
        .recover
        .ib good
        .wait
        .expect_reg SCRATCH_REG5, 0x600D
        .expect32 0x1000, 0x600D0001
