# hostile: CP_DMA copies 256 bytes into a read-only page; nothing is written and a later IB runs
# fault: kind=read-only unit=cp channel=0 gpu_addr=0x4000800 stream_addr=0x100000 words=0xc0044100,0x00001000,0x00000000,0x04000800
#
# CP_DMA (count 4): dw1 src lo 0x1000, dw2 src hi 0 / SRC_SEL 0 (memory),
# dw3 dst lo 0x4000800, dw4 dst hi 0, dw5 BYTE_COUNT 0x100. The destination's
# first byte 0x4000800 is in the read-only page (gpu_addr). Header
# PACKET3(CP_DMA 0x41, 4) = 0xC0044100. The copy is all-or-nothing (the vas
# checks the whole range first), so the page still reads 0.
#
# Recovery: the CP stops (docs/radeon.md "Every fault ... the CP stops"), the
# fence after the IB never lands, the fence wait sees rptr stuck and declares
# a lockup, and the GPU reset replays the ring from the next-rptr record (the
# fence only: the hung IB is dropped, as radeon_gpu_reset does). A later IB
# then writes a scratch register and memory and its fence signals.
        .gen r600

        .map_ro 0x4000000, 0x1000
        .section bad, 0x100000
        CP_DMA 0x1000, 0, 0x4000800, 0, 0x100

        .section good, 0x200000                        # the later submission
        SET_CONFIG_REG SCRATCH_REG5, 0x600D
        MEM_WRITE 0x1000, 1 << 18, 0x600D0001, 0       # DATA32 write to VRAM

        .ib bad
        .expect32 0x4000800, 0
        .recover
        .ib good
        .wait
        .expect_reg SCRATCH_REG5, 0x600D
        .expect32 0x1000, 0x600D0001
