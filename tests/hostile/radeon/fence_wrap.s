# hostile: fence sequence numbers cross 2^32: the 32-bit value wraps and the driver extends it to 64 bits; no fault
#
# The fence driver starts at 0xFFFFFFFE (.fence_seq, as
# radeon_fence_driver_start_ring writes last_seq to the fence location).
# Three IBs get fences 0xFFFFFFFF, 0x100000000 and 0x100000001: the EOP packet
# writes the low 32 bits (DATA_SEL 1), so the fence location (writeback page
# 0x100010000 + 3072: the 64 KiB ring is at 0x100000000, then the 4 KiB-aligned
# writeback page) reads 0xFFFFFFFF, then 0, then 1. radeon_fence_activity
# extends the value: below last_seq's low half it takes the emitted sequence's
# upper half, so each .wait sees its fence signalled. A wrap is legal: no fault.
        .gen r600

        .section a, 0x100000
        SET_CONFIG_REG SCRATCH_REG4, 0xA
        .section b, 0x110000
        SET_CONFIG_REG SCRATCH_REG5, 0xB
        .section c, 0x120000
        SET_CONFIG_REG SCRATCH_REG6, 0xC

        .fence_seq 0xFFFFFFFE
        .expect32 0x100010C00, 0xFFFFFFFE
        .ib a
        .wait
        .expect32 0x100010C00, 0xFFFFFFFF
        .ib b
        .wait
        .expect32 0x100010C00, 0
        .ib c
        .wait
        .expect32 0x100010C00, 1
        .expect_reg SCRATCH_REG4, 0xA
        .expect_reg SCRATCH_REG5, 0xB
        .expect_reg SCRATCH_REG6, 0xC
