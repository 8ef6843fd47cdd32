# a little stream
        SET_CONFIG_REG SCRATCH_REG1, 0xdeadbeef
        SET_CONTEXT_REG CB_COLOR0_BASE+8, 0x100, 0x200
        packet0 CP_INT_STATUS, 0x80000000
        packet2
        NOP 0xCAFE0003
        MEM_WRITE 0x1000, 0x40000, 0x11, 0
        EVENT_WRITE_EOP 0x514, 0x2000, 0x44000000, 5, 0
        INDIRECT_BUFFER 0x3000, 1, 16
        packet3 0x99, 1, 2
        WAIT_REG_MEM 0x13, 0x2000, 0, 5, 0xffffffff, 10
        CP_DMA 0, 0, 0x100, 0, 64
