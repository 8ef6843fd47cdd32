# hostile: EVENT_WRITE_EOP with the reserved DATA_SEL 5
# fault: kind=bad-state unit=cp channel=0 gpu_addr=0x1800 stream_addr=0x100000 words=0xc0044700,0x00000514,0x00001800,0xa0000000
#
# DATA_SEL 0-3 are none, 32-bit, 64-bit and the 64-bit GPU clock
# (research/radeon.md, r600d.h DATA_SEL); 5 << 29 = 0xA0000000 is reserved.
# gpu_addr is the EOP address 0x1800; nothing is written.
#
# Recovery: the CP stops (docs/radeon.md "Every fault ... the CP stops"), the
# fence after the IB never lands, the fence wait sees rptr stuck and declares
# a lockup, and the GPU reset replays the ring from the next-rptr record (the
# fence only: the hung IB is dropped, as radeon_gpu_reset does). A later IB
# then writes a scratch register and memory and its fence signals.
        .gen r600

        .section bad, 0x100000
        EVENT_WRITE_EOP 0x514, 0x1800, 5 << 29, 0xBAD, 0

        .section good, 0x200000                        # the later submission
        SET_CONFIG_REG SCRATCH_REG5, 0x600D
        MEM_WRITE 0x1000, 1 << 18, 0x600D0001, 0       # DATA32 write to VRAM

        .ib bad
        .recover
        .ib good
        .wait
        .expect_reg SCRATCH_REG5, 0x600D
        .expect32 0x1000, 0x600D0001
