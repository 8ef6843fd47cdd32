# hostile: an IB2 at the top of the 40-bit space whose last packet continues past 2^40
# fault: kind=addr-range unit=cp channel=0 gpu_addr=0x10000000000 stream_addr=0xfffffffff8 words=0xc0016800
#
# The top page 0xFFFFFFF000 is mapped. IB2 is 3 dwords at 0xFF_FFFF_FFF8: a
# SET_CONFIG_REG header (PACKET3(0x68, count 1) = 0xC0016800) and its register
# offset fit below 2^40, its value dword would be at 0x100_0000_0000. Fetching
# it is an addr-range fault there (gpu_addr); stream_addr is the packet's
# header, and the record has only the header because the payload was not
# complete (words=0xc0016800). SCRATCH_REG6 stays unwritten.
#
# Recovery: the CP stops (docs/radeon.md "Every fault ... the CP stops"), the
# fence after the IB never lands, the fence wait sees rptr stuck and declares
# a lockup, and the GPU reset replays the ring from the next-rptr record (the
# fence only: the hung IB is dropped, as radeon_gpu_reset does). A later IB
# then writes a scratch register and memory and its fence signals.
        .gen r600

        .map 0xFFFFFFF000, 0x1000
        .section top, 0xFFFFFFFFF8
        .word 0xC0016800, (SCRATCH_REG6 - 0x8000) >> 2

        .section bad, 0x100000
        INDIRECT_BUFFER 0xFFFFFFF8, 0xFF, 3

        .section good, 0x200000                        # the later submission
        SET_CONFIG_REG SCRATCH_REG5, 0x600D
        MEM_WRITE 0x1000, 1 << 18, 0x600D0001, 0       # DATA32 write to VRAM

        .ib bad
        .expect_reg SCRATCH_REG6, 0
        .recover
        .ib good
        .wait
        .expect_reg SCRATCH_REG5, 0x600D
        .expect32 0x1000, 0x600D0001
