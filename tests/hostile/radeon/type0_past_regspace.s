# hostile: a type-0 register write that runs off the end of the register space
# fault: kind=invalid-method unit=cp channel=0 gpu_addr=0x3fffc stream_addr=0x100000 words=0x0001ffff,0x00000001,0x00000002
#
# PACKET0 at register 0x3FFFC (index 0xFFFF, R600's 16-bit field) with count 1
# writes 0x3FFFC and 0x40000; the MMIO register space ends at 0x40000
# (CG_RADEON_REG_SPACE). Header (0x3FFFC >> 2) | 1 << 16 = 0x0001FFFF; gpu_addr
# is the first register. Nothing is written.
#
# Recovery: the CP stops (docs/radeon.md "Every fault ... the CP stops"), the
# fence after the IB never lands, the fence wait sees rptr stuck and declares
# a lockup, and the GPU reset replays the ring from the next-rptr record (the
# fence only: the hung IB is dropped, as radeon_gpu_reset does). A later IB
# then writes a scratch register and memory and its fence signals.
        .gen r600

        .section bad, 0x100000
        packet0 0x3FFFC, 1, 2

        .section good, 0x200000                        # the later submission
        SET_CONFIG_REG SCRATCH_REG5, 0x600D
        MEM_WRITE 0x1000, 1 << 18, 0x600D0001, 0       # DATA32 write to VRAM

        .ib bad
        .expect_reg 0x3FFFC, 0
        .recover
        .ib good
        .wait
        .expect_reg SCRATCH_REG5, 0x600D
        .expect32 0x1000, 0x600D0001
