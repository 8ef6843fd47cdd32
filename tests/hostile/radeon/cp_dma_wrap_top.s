# hostile: CP_DMA copies 4 KiB to an address 2 KiB below the top of the 40-bit space
# fault: kind=addr-range unit=cp channel=0 gpu_addr=0x10000000000 stream_addr=0x100000 words=0xc0044100,0x00001000,0x00000000,0xfffff800
#
# The top page 0xFFFFFFF000 is mapped. CP_DMA src 0x1000 (VRAM), dst
# 0xFF_FFFF_F800 (dw3 0xFFFFF800, dw4 hi 0xFF), BYTE_COUNT 0x1000: the
# destination runs 0x800 bytes past 2^40. The first address outside the space,
# 0x10000000000, is the fault address; nothing is copied (the mapped half
# still reads 0).
#
# Recovery: the CP stops (docs/radeon.md "Every fault ... the CP stops"), the
# fence after the IB never lands, the fence wait sees rptr stuck and declares
# a lockup, and the GPU reset replays the ring from the next-rptr record (the
# fence only: the hung IB is dropped, as radeon_gpu_reset does). A later IB
# then writes a scratch register and memory and its fence signals.
        .gen r600

        .map 0xFFFFFFF000, 0x1000
        .section bad, 0x100000
        CP_DMA 0x1000, 0, 0xFFFFF800, 0xFF, 0x1000

        .section good, 0x200000                        # the later submission
        SET_CONFIG_REG SCRATCH_REG5, 0x600D
        MEM_WRITE 0x1000, 1 << 18, 0x600D0001, 0       # DATA32 write to VRAM

        .ib bad
        .expect32 0xFFFFFFF800, 0
        .recover
        .ib good
        .wait
        .expect_reg SCRATCH_REG5, 0x600D
        .expect32 0x1000, 0x600D0001
