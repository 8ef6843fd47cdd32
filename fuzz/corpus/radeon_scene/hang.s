        .section s, 0x4000
        WAIT_REG_MEM 0x13, 0x100, 0, 1, 0, 10
        SET_CONFIG_REG SCRATCH_REG5, 1
        .submit s
        .fence
        .wait
        .dump 0x100, 4
        .status
