# hostile: an IB writes CP_RB_WPTR with PACKET0: the stream may not move its own ring
# fault: kind=invalid-method unit=cp channel=0 gpu_addr=0xc114 stream_addr=0x100000 words=0x00003045,0x00000040
# message: CP_RB_WPTR
#
# CP_RB_WPTR (0xC114) belongs to the host (docs/radeon.md: the stream may not
# write the host-owned ring, IH and reset registers; on CIK and later the CP
# reports this as "Illegal register access in command stream", IH source 184,
# research/radeon.md). Header (0xC114 >> 2) = 0x3045, count 0; value 0x40.
# gpu_addr is the register, 0xC114, as for the other register faults.
#
# Recovery: the CP stops (docs/radeon.md "Every fault ... the CP stops"), the
# fence after the IB never lands, the fence wait sees rptr stuck and declares
# a lockup, and the GPU reset replays the ring from the next-rptr record (the
# fence only: the hung IB is dropped, as radeon_gpu_reset does). A later IB
# then writes a scratch register and memory and its fence signals.
        .gen r600

        .section bad, 0x100000
        packet0 CP_RB_WPTR, 0x40

        .section good, 0x200000                        # the later submission
        SET_CONFIG_REG SCRATCH_REG5, 0x600D
        MEM_WRITE 0x1000, 1 << 18, 0x600D0001, 0       # DATA32 write to VRAM

        .ib bad
        .recover
        .ib good
        .wait
        .expect_reg SCRATCH_REG5, 0x600D
        .expect32 0x1000, 0x600D0001
