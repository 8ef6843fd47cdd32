# An IB chain as a scene (cmdgpu run -f radeon examples/radeon/ib_chain.s):
# the ring calls IB1, IB1 calls IB2; each writes a scratch register, and
# IB2 leaves a trace point. Sections are loaded at their GPU addresses.
        .gen r600

        .section ib2, 0x300000
        SET_CONFIG_REG SCRATCH_REG5, 0x2B2B
        NOP 0xCAFE0002                        # trace point 2
ib2_end:

        .section ib1, 0x200000
        SET_CONFIG_REG SCRATCH_REG4, 0x1B1B
        INDIRECT_BUFFER 0x300000, 0, (ib2_end - 0x300000) / 4
        SET_CONFIG_REG SCRATCH_REG6, 0x1C1C

        .ib ib1                                # INDIRECT_BUFFER + fence
        .wait
        .expect_reg SCRATCH_REG4, 0x1B1B
        .expect_reg SCRATCH_REG5, 0x2B2B
        .expect_reg SCRATCH_REG6, 0x1C1C
        .ring_test
        .ib_test
