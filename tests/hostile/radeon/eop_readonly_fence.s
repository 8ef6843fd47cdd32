# hostile: EVENT_WRITE_EOP writes its fence value into a read-only page; a later IB runs
# fault: kind=read-only unit=cp channel=0 gpu_addr=0x4000100 stream_addr=0x100000 words=0xc0044700,0x00000514,0x04000100,0x20000000
#
# EVENT_WRITE_EOP (count 4): dw1 event CACHE_FLUSH_AND_INV_EVENT_TS 0x14 |
# EVENT_INDEX 5 << 8 = 0x514 (as r600_fence_ring_emit), dw2 address lo, dw3
# addr hi 0 | DATA_SEL 1 << 29 (32-bit data) = 0x20000000, dw4 data. The write
# lands in the read-only page at 0x4000100 (gpu_addr). Header PACKET3(0x47, 4) =
# 0xC0044700; the record keeps the header and three payload dwords.
#
# Recovery: the CP stops (docs/radeon.md "Every fault ... the CP stops"), the
# fence after the IB never lands, the fence wait sees rptr stuck and declares
# a lockup, and the GPU reset replays the ring from the next-rptr record (the
# fence only: the hung IB is dropped, as radeon_gpu_reset does). A later IB
# then writes a scratch register and memory and its fence signals.
        .gen r600

        .map_ro 0x4000000, 0x1000
        .section bad, 0x100000
        EVENT_WRITE_EOP 0x514, 0x4000100, 1 << 29, 0xF00D, 0

        .section good, 0x200000                        # the later submission
        SET_CONFIG_REG SCRATCH_REG5, 0x600D
        MEM_WRITE 0x1000, 1 << 18, 0x600D0001, 0       # DATA32 write to VRAM

        .ib bad
        .recover
        .ib good
        .wait
        .expect_reg SCRATCH_REG5, 0x600D
        .expect32 0x1000, 0x600D0001
