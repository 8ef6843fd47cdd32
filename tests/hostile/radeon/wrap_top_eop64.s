# hostile: EVENT_WRITE_EOP writes 64 bits at the last dword of the 40-bit space; a 32-bit write there works
# fault: kind=addr-range unit=cp channel=0 gpu_addr=0x10000000000 stream_addr=0x100000 words=0xc0044700,0x00000514,0xfffffffc,0x400000ff
#
# R600+ has a 40-bit memory controller ("rdev->mc.mc_mask = 0xffffffffffULL;
# /* 40 bit MC */", radeon_device.c); the scene maps the top page
# 0xFFFFFFF000. EOP DATA_SEL 2 (64-bit) at 0xFF_FFFF_FFFC (dw2 0xFFFFFFFC, dw3
# addr hi 0xFF | DATA_SEL 2 << 29 = 0x400000FF) would write 4 bytes past 2^40:
# an addr-range fault at the first address outside the space, 0x10000000000,
# and nothing is written. The good IB writes a 32-bit EOP value to the same
# address, which fits.
#
# Recovery: the CP stops (docs/radeon.md "Every fault ... the CP stops"), the
# fence after the IB never lands, the fence wait sees rptr stuck and declares
# a lockup, and the GPU reset replays the ring from the next-rptr record (the
# fence only: the hung IB is dropped, as radeon_gpu_reset does). A later IB
# then writes a scratch register and memory and its fence signals.
        .gen r600

        .map 0xFFFFFFF000, 0x1000
        .section bad, 0x100000
        EVENT_WRITE_EOP 0x514, 0xFFFFFFFC, 0xFF | (2 << 29), 0x11111111, 0x22222222

        .section good2, 0x210000
        EVENT_WRITE_EOP 0x514, 0xFFFFFFFC, 0xFF | (1 << 29), 0x600D0002, 0

        .section good, 0x200000                        # the later submission
        SET_CONFIG_REG SCRATCH_REG5, 0x600D
        MEM_WRITE 0x1000, 1 << 18, 0x600D0001, 0       # DATA32 write to VRAM

        .ib bad
        .expect32 0xFFFFFFFFFC, 0
        .recover
        .ib good
        .wait
        .expect_reg SCRATCH_REG5, 0x600D
        .expect32 0x1000, 0x600D0001
        .ib good2
        .wait
        .expect32 0xFFFFFFFFFC, 0x600D0002
