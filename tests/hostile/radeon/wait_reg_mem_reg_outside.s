# hostile: WAIT_REG_MEM polls a register index outside the register space
# fault: kind=invalid-method unit=cp channel=0 gpu_addr=0x40000 stream_addr=0x100000 words=0xc0053c00,0x00000003,0x00010000,0x00000000
#
# Register space (MEM_SPACE 0), FUNCTION 3: dw1 = 3. dw2 is a register dword
# offset (Mesa r600_hw_context.c); 0x10000 * 4 = 0x40000 is past the register
# space, so there is nothing to poll; gpu_addr names that register offset.
#
# Recovery: the CP stops (docs/radeon.md "Every fault ... the CP stops"), the
# fence after the IB never lands, the fence wait sees rptr stuck and declares
# a lockup, and the GPU reset replays the ring from the next-rptr record (the
# fence only: the hung IB is dropped, as radeon_gpu_reset does). A later IB
# then writes a scratch register and memory and its fence signals.
        .gen r600

        .section bad, 0x100000
        WAIT_REG_MEM 3, 0x10000, 0, 0, 0xFFFFFFFF, 10

        .section good, 0x200000                        # the later submission
        SET_CONFIG_REG SCRATCH_REG5, 0x600D
        MEM_WRITE 0x1000, 1 << 18, 0x600D0001, 0       # DATA32 write to VRAM

        .ib bad
        .recover
        .ib good
        .wait
        .expect_reg SCRATCH_REG5, 0x600D
        .expect32 0x1000, 0x600D0001
