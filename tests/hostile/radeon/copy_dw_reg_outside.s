# hostile: COPY_DW reads a register index past the register space
# fault: kind=invalid-method unit=cp channel=0 gpu_addr=0x40000 stream_addr=0x100000 words=0xc0043b00,0x00000000,0x00010000,0x00000000
#
# COPY_DW (count 4): dw1 bit 0 source is memory, bit 1 destination is memory
# (r600_cs.c); 0 = register to register. Source register dword offset
# 0x10000 -> 0x40000, past the register space; gpu_addr names it, as for
# SET_* and type-0 register faults. Header PACKET3(0x3B, 4) =
# 0xC0043B00.
#
# Recovery: the CP stops (docs/radeon.md "Every fault ... the CP stops"), the
# fence after the IB never lands, the fence wait sees rptr stuck and declares
# a lockup, and the GPU reset replays the ring from the next-rptr record (the
# fence only: the hung IB is dropped, as radeon_gpu_reset does). A later IB
# then writes a scratch register and memory and its fence signals.
        .gen r600

        .section bad, 0x100000
        COPY_DW 0, 0x10000, 0, (SCRATCH_REG6 >> 2), 0

        .section good, 0x200000                        # the later submission
        SET_CONFIG_REG SCRATCH_REG5, 0x600D
        MEM_WRITE 0x1000, 1 << 18, 0x600D0001, 0       # DATA32 write to VRAM

        .ib bad
        .expect_reg SCRATCH_REG6, 0
        .recover
        .ib good
        .wait
        .expect_reg SCRATCH_REG5, 0x600D
        .expect32 0x1000, 0x600D0001
