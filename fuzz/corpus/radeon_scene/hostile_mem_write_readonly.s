# hostile: an IB writes a read-only GTT page (a read-only userptr BO); the page stays readable by CP_DMA and a later IB runs
# fault: kind=read-only unit=cp channel=0 gpu_addr=0x4000010 stream_addr=0x100000 words=0xc0033d00,0x04000010,0x00040000,0x0bad0002
#
# .map_ro maps a page at 0x4000000 with no GPU write permission (a GART
# page without R600_PTE_WRITEABLE, as radeon_gart_bind leaves a read-only
# userptr). MEM_WRITE DATA32 at 0x4000010 hits it: gpu_addr 0x4000010, the first
# packet of the IB at 0x100000. words: PACKET3(MEM_WRITE 0x3D, count 3) =
# 0xC0033D00, address lo 0x04000010, DATA32 (1 << 18 = 0x40000) | addr hi 0,
# data lo 0x0BAD0002. The page keeps its CPU-loaded value (checked), and the
# good IB copies it out with CP_DMA (GPU reads of a read-only page are fine).
#
# Recovery: the CP stops (docs/radeon.md "Every fault ... the CP stops"), the
# fence after the IB never lands, the fence wait sees rptr stuck and declares
# a lockup, and the GPU reset replays the ring from the next-rptr record (the
# fence only: the hung IB is dropped, as radeon_gpu_reset does). A later IB
# then writes a scratch register and memory and its fence signals.
        .gen r600

        .map_ro 0x4000000, 0x1000
        .section rodata, 0x4000000
        .word 0x12345678

        .section bad, 0x100000
        MEM_WRITE 0x4000010, 1 << 18, 0x0BAD0002, 0

        .section good2, 0x210000
        CP_DMA 0x4000000, 0, 0x1100, 0, 4              # read the read-only page

        .section good, 0x200000                        # the later submission
        SET_CONFIG_REG SCRATCH_REG5, 0x600D
        MEM_WRITE 0x1000, 1 << 18, 0x600D0001, 0       # DATA32 write to VRAM

        .ib bad
        .recover
        .ib good
        .wait
        .expect_reg SCRATCH_REG5, 0x600D
        .expect32 0x1000, 0x600D0001
        .ib good2
        .wait
        .expect32 0x1100, 0x12345678
        .expect32 0x4000010, 0
