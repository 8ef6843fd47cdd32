# hostile: COPY_DW copies a register into a read-only page
# fault: kind=read-only unit=cp channel=0 gpu_addr=0x4000040 stream_addr=0x100000 words=0xc0043b00,0x00000002,0x00002141,0x00000000
#
# COPY_DW (count 4): dw1 = 2 (source a register, destination memory:
# r600_cs.c, bit 0 source is memory, bit 1 destination is memory), dw2 the
# source register as a dword offset, SCRATCH_REG1 0x8504 >> 2 = 0x2141, dw3 0,
# dw4/dw5 the destination 0x4000040, in the read-only page (gpu_addr).
# Header PACKET3(0x3B, 4) = 0xC0043B00. Nothing is written.
#
# Recovery: the CP stops (docs/radeon.md "Every fault ... the CP stops"), the
# fence after the IB never lands, the fence wait sees rptr stuck and declares
# a lockup, and the GPU reset replays the ring from the next-rptr record (the
# fence only: the hung IB is dropped, as radeon_gpu_reset does). A later IB
# then writes a scratch register and memory and its fence signals.
        .gen r600

        .map_ro 0x4000000, 0x1000
        .section bad, 0x100000
        COPY_DW 2, SCRATCH_REG1 >> 2, 0, 0x4000040, 0

        .section good, 0x200000                        # the later submission
        SET_CONFIG_REG SCRATCH_REG5, 0x600D
        MEM_WRITE 0x1000, 1 << 18, 0x600D0001, 0       # DATA32 write to VRAM

        .ib bad
        .expect32 0x4000040, 0
        .recover
        .ib good
        .wait
        .expect_reg SCRATCH_REG5, 0x600D
        .expect32 0x1000, 0x600D0001
