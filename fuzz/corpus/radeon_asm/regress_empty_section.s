# WAIT_REG_MEM handshake between the CPU and the CP (cmdgpu run -f radeon).
# The CP waits until the CPU writes 0x42 to a flag in VRAM, then writes a
# result; the scene checks that nothing happens before the CPU's write.
        .gen r600
        .equ FLAG, 0x1000
        .equ RESULT, 0x1008

        .section strLAG, 0x42           # the CPU r#leases the CP
        .expect32 RESULT, 0x600D
        .fence
        .wait
