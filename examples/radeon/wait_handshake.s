# WAIT_REG_MEM handshake between the CPU and the CP (cmdgpu run -f radeon).
# The CP waits until the CPU writes 0x42 to a flag in VRAM, then writes a
# result; the scene checks that nothing happens before the CPU's write.
        .gen r600
        .equ FLAG, 0x1000
        .equ RESULT, 0x1008

        .section stream, 0x200000
        WAIT_REG_MEM 0x13, FLAG, 0, 0x42, 0xff, 10     # memory, equal, mask 0xff
        MEM_WRITE RESULT, 1 << 18, 0x600D, 0           # DATA32
        NOP 0xCAFE0001                                 # trace point 1

        .submit stream
        .status                       # waiting on the flag
        .expect32 RESULT, 0
        .write32 FLAG, 0x42           # the CPU releases the CP
        .expect32 RESULT, 0x600D
        .fence
        .wait
