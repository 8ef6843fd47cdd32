# hostile: Evergreen: an R600 opcode (INDIRECT_BUFFER_MP 0x38) that Evergreen does not have
# fault: kind=invalid-opcode unit=cp channel=0 gpu_addr=0 stream_addr=0x100000 words=0xc0003800,0x00000000
#
# evergreend.h has no 0x38 (r600d.h's INDIRECT_BUFFER_MP; src/radeon/
# pm4_evergreen.def), so on Evergreen it is an unknown opcode. Header
# PACKET3(0x38, count 0) = 0xC0003800 and one payload dword. The scene runs on
# Evergreen: .ib adds MODE_CONTROL before the next-rptr record, as
# evergreen_ring_ib_execute does, and the recovery works the same.
#
# Recovery: the CP stops (docs/radeon.md "Every fault ... the CP stops"), the
# fence after the IB never lands, the fence wait sees rptr stuck and declares
# a lockup, and the GPU reset replays the ring from the next-rptr record (the
# fence only: the hung IB is dropped, as radeon_gpu_reset does). A later IB
# then writes a scratch register and memory and its fence signals.
        .gen evergreen

        .section bad, 0x100000
        packet3 0x38, 0

        .section good, 0x200000                        # the later submission
        SET_CONFIG_REG SCRATCH_REG5, 0x600D
        MEM_WRITE 0x1000, 1 << 18, 0x600D0001, 0       # DATA32 write to VRAM

        .ib bad
        .recover
        .ib good
        .wait
        .expect_reg SCRATCH_REG5, 0x600D
        .expect32 0x1000, 0x600D0001
