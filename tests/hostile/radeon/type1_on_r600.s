# hostile: a type-1 packet (R1xx-R5xx only) in an R600 IB
# fault: kind=invalid-opcode unit=cp channel=0 gpu_addr=0 stream_addr=0x100000 words=0x40000000,0x00000001,0x00000002
#
# Type 1 (two registers, header bits 31:30 = 1) exists only on R1xx-R5xx
# (r100d.h). The kernel's packet parser accepts types 0, 2 and 3 only
# (radeon_cs_packet_parse: anything else is "Unknown packet type"), so a stream
# never holds one; the model treats it as an invalid opcode. The header
# 0x40000000 plus its two data dwords (type 1 is always 3 dwords).
#
# Recovery: the CP stops (docs/radeon.md "Every fault ... the CP stops"), the
# fence after the IB never lands, the fence wait sees rptr stuck and declares
# a lockup, and the GPU reset replays the ring from the next-rptr record (the
# fence only: the hung IB is dropped, as radeon_gpu_reset does). A later IB
# then writes a scratch register and memory and its fence signals.
        .gen r600

        .section bad, 0x100000
        .word 0x40000000, 1, 2

        .section good, 0x200000                        # the later submission
        SET_CONFIG_REG SCRATCH_REG5, 0x600D
        MEM_WRITE 0x1000, 1 << 18, 0x600D0001, 0       # DATA32 write to VRAM

        .ib bad
        .recover
        .ib good
        .wait
        .expect_reg SCRATCH_REG5, 0x600D
        .expect32 0x1000, 0x600D0001
