# hostile: a 64-bit MEM_WRITE to an address that is only 4-byte aligned
# fault: kind=bad-align unit=cp channel=0 gpu_addr=0x1004 stream_addr=0x100000 words=0xc0033d00,0x00001004,0x00000000,0x00000001
#
# Without DATA32 MEM_WRITE writes 64 bits and needs an 8-byte aligned address
# (r600_cs.c checks "(offset & 0x7)"); 0x1004 is not. dw2 = 0 (addr hi 0, no
# DATA32). Nothing is written.
#
# Recovery: the CP stops (docs/radeon.md "Every fault ... the CP stops"), the
# fence after the IB never lands, the fence wait sees rptr stuck and declares
# a lockup, and the GPU reset replays the ring from the next-rptr record (the
# fence only: the hung IB is dropped, as radeon_gpu_reset does). A later IB
# then writes a scratch register and memory and its fence signals.
        .gen r600

        .section bad, 0x100000
        MEM_WRITE 0x1004, 0, 1, 2

        .section good, 0x200000                        # the later submission
        SET_CONFIG_REG SCRATCH_REG5, 0x600D
        MEM_WRITE 0x1000, 1 << 18, 0x600D0001, 0       # DATA32 write to VRAM

        .ib bad
        .expect32 0x1004, 0
        .recover
        .ib good
        .wait
        .expect_reg SCRATCH_REG5, 0x600D
        .expect32 0x1000, 0x600D0001
