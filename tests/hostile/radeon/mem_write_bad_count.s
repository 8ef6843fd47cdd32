# hostile: MEM_WRITE with count 1 instead of 3
# fault: kind=bad-length unit=cp channel=0 gpu_addr=0 stream_addr=0x100000 words=0xc0013d00,0x00001000,0x00040000
# message: MEM_WRITE with count 1 (takes 3..3)
#
# MEM_WRITE always has 4 payload dwords, count 3 (r600_cs.c "if (pkt->count !=
# 3)"). Header PACKET3(0x3D, 1) = 0xC0013D00 with 2 payload dwords. 0x1000
# keeps its value (the good IB writes it later).
#
# Recovery: the CP stops (docs/radeon.md "Every fault ... the CP stops"), the
# fence after the IB never lands, the fence wait sees rptr stuck and declares
# a lockup, and the GPU reset replays the ring from the next-rptr record (the
# fence only: the hung IB is dropped, as radeon_gpu_reset does). A later IB
# then writes a scratch register and memory and its fence signals.
        .gen r600

        .section bad, 0x100000
        packet3 0x3D, 0x1000, 1 << 18

        .section good, 0x200000                        # the later submission
        SET_CONFIG_REG SCRATCH_REG5, 0x600D
        MEM_WRITE 0x1000, 1 << 18, 0x600D0001, 0       # DATA32 write to VRAM

        .ib bad
        .recover
        .ib good
        .wait
        .expect_reg SCRATCH_REG5, 0x600D
        .expect32 0x1000, 0x600D0001
