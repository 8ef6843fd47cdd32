# hostile: INDIRECT_BUFFER with bits set above the 20-bit IB_SIZE field
# fault: kind=bad-state unit=cp channel=0 gpu_addr=0x110000 stream_addr=0x100000 words=0xc0023200,0x00110000,0x00000000,0x00100004
#
# IB_SIZE is bits 19:0 of the size dword (src/radeon/tables/pm4_fields.def,
# research/radeon.md); 0x100004 sets bit 20, which r600_ring_ib_execute never
# sets (it writes ib->length_dw; Cayman's VMID in bits 31:24 is not modelled).
# The model refuses it rather than silently calling a 4-dword IB; gpu_addr is
# the IB base 0x110000, which is never fetched (SCRATCH_REG6 stays 0).
#
# Recovery: the CP stops (docs/radeon.md "Every fault ... the CP stops"), the
# fence after the IB never lands, the fence wait sees rptr stuck and declares
# a lockup, and the GPU reset replays the ring from the next-rptr record (the
# fence only: the hung IB is dropped, as radeon_gpu_reset does). A later IB
# then writes a scratch register and memory and its fence signals.
        .gen r600

        .section ib2, 0x110000
        SET_CONFIG_REG SCRATCH_REG6, 0xBAD

        .section bad, 0x100000
        INDIRECT_BUFFER 0x110000, 0, 0x100004

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
