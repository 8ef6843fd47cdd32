# hostile: EVENT_WRITE with count 1 (neither the plain nor the address form)
# fault: kind=bad-length unit=cp channel=0 gpu_addr=0 stream_addr=0x100000 words=0xc0014600,0x00000016,0x00000000
#
# EVENT_WRITE has count 0 (event only) or 2 (event + address lo/hi) (r600_cs.c
# "if (pkt->count != 2 && pkt->count != 0)"); count 1 is neither. Header
# PACKET3(0x46, 1) = 0xC0014600, event CACHE_FLUSH_AND_INV_EVENT 0x16, 0.
#
# Recovery: the CP stops (docs/radeon.md "Every fault ... the CP stops"), the
# fence after the IB never lands, the fence wait sees rptr stuck and declares
# a lockup, and the GPU reset replays the ring from the next-rptr record (the
# fence only: the hung IB is dropped, as radeon_gpu_reset does). A later IB
# then writes a scratch register and memory and its fence signals.
        .gen r600

        .section bad, 0x100000
        EVENT_WRITE 0x16, 0

        .section good, 0x200000                        # the later submission
        SET_CONFIG_REG SCRATCH_REG5, 0x600D
        MEM_WRITE 0x1000, 1 << 18, 0x600D0001, 0       # DATA32 write to VRAM

        .ib bad
        .recover
        .ib good
        .wait
        .expect_reg SCRATCH_REG5, 0x600D
        .expect32 0x1000, 0x600D0001
