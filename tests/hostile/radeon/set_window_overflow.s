# hostile: SET_CONFIG_REG starts inside its window and runs past its end
# fault: kind=invalid-method unit=cp channel=0 gpu_addr=0xabfc stream_addr=0x100000 words=0xc0026800,0x00000aff,0x00000001,0x00000002
# message: outside its window
#
# The SET_CONFIG_REG window is [0x8000, 0xAC00) (r600d.h
# PACKET3_SET_CONFIG_REG_OFFSET/END). Offset (0xABFC - 0x8000) / 4 = 0xAFF
# with two values writes 0xABFC and 0xAC00: the second has nothing behind it
# in this window. gpu_addr names the first register of the packet (0xABFC);
# nothing is written, not even the in-window register. Header PACKET3(0x68,
# count 2) = 0xC0026800.
#
# Recovery: the CP stops (docs/radeon.md "Every fault ... the CP stops"), the
# fence after the IB never lands, the fence wait sees rptr stuck and declares
# a lockup, and the GPU reset replays the ring from the next-rptr record (the
# fence only: the hung IB is dropped, as radeon_gpu_reset does). A later IB
# then writes a scratch register and memory and its fence signals.
        .gen r600

        .section bad, 0x100000
        SET_CONFIG_REG 0xABFC, 1, 2

        .section good, 0x200000                        # the later submission
        SET_CONFIG_REG SCRATCH_REG5, 0x600D
        MEM_WRITE 0x1000, 1 << 18, 0x600D0001, 0       # DATA32 write to VRAM

        .ib bad
        .expect_reg 0xABFC, 0
        .recover
        .ib good
        .wait
        .expect_reg SCRATCH_REG5, 0x600D
        .expect32 0x1000, 0x600D0001
