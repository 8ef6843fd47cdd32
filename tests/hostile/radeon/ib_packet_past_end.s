# hostile: a SET_CONFIG_REG whose count runs past the end of its IB
# fault: kind=bad-length unit=cp channel=0 gpu_addr=0 stream_addr=0x100000 words=0xc0046800
# message: runs past the end of the IB (3 left)
#
# The IB is 3 dwords; its header PACKET3(SET_CONFIG_REG 0x68, count 4) =
# 0xC0046800 asks for 5 payload dwords (6 in all). An IB's end is final
# (unlike the ring, nothing more will be committed; the kernel refuses such a
# buffer: "Packet (%d:%d:%d) end after CS buffer", radeon_cs_packet_parse),
# so the CP faults at once; only the header was read (words=0xc0046800).
# SCRATCH_REG5's offset 0x145 and one value are in the IB but nothing is
# written.
#
# Recovery: the CP stops (docs/radeon.md "Every fault ... the CP stops"), the
# fence after the IB never lands, the fence wait sees rptr stuck and declares
# a lockup, and the GPU reset replays the ring from the next-rptr record (the
# fence only: the hung IB is dropped, as radeon_gpu_reset does). A later IB
# then writes a scratch register and memory and its fence signals.
        .gen r600

        .section bad, 0x100000
        .word 0xC0046800, (SCRATCH_REG5 - 0x8000) >> 2, 0xBAD

        .section good, 0x200000                        # the later submission
        SET_CONFIG_REG SCRATCH_REG5, 0x600D
        MEM_WRITE 0x1000, 1 << 18, 0x600D0001, 0       # DATA32 write to VRAM

        .ib bad
        .expect_reg SCRATCH_REG5, 0
        .recover
        .ib good
        .wait
        .expect_reg SCRATCH_REG5, 0x600D
        .expect32 0x1000, 0x600D0001
