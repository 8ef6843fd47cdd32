# hostile: in lenient mode a reserved opcode is skipped with a warning and the rest of the IB runs
# fault: kind=invalid-opcode unit=cp channel=0 gpu_addr=0 stream_addr=0x100000 words=0xc0017f00,0x0000000a,0x0000000b
#
# .lenient: unknown opcodes are skipped (count + 1 payload dwords) with a
# warning record, as gem5's PM4 processor does ("unknown opcode => warn + skip",
# research/radeon.md). 0x7F is not in the R600 table. The record is the warning
# (header PACKET3(0x7F, 1) = 0xC0017F00 and the payload 0xA, 0xB); the CP does
# not stop, so the SET_CONFIG_REG after it and the fence run and no recovery is
# needed.
        .gen r600

        .lenient
        .section bad, 0x100000
        packet3 0x7F, 0xA, 0xB
        SET_CONFIG_REG SCRATCH_REG6, 0x1E1E

        .section good, 0x200000                        # the later submission
        SET_CONFIG_REG SCRATCH_REG5, 0x600D
        MEM_WRITE 0x1000, 1 << 18, 0x600D0001, 0       # DATA32 write to VRAM

        .ib bad
        .wait
        .expect_reg SCRATCH_REG6, 0x1E1E
        .ib good
        .wait
        .expect_reg SCRATCH_REG5, 0x600D
        .expect32 0x1000, 0x600D0001
