# hostile: a reserved type-3 opcode (0xFF) in strict mode
# fault: kind=invalid-opcode unit=cp channel=0 gpu_addr=0 stream_addr=0x100000 words=0xc001ff00,0x00000001,0x00000002
#
# 0xFF is in no R600 opcode list (r600d.h; src/radeon/tables/pm4_r600.def), and the
# kernel's checker refuses such packets (r600_packet3_check: "Packet3 opcode
# %x not supported"). What the microcode would do is unknown, so strict mode
# (the default) stops the CP. Header PACKET3(0xFF, count 1) = 0xC001FF00 and
# its two payload dwords.
#
# Recovery: the CP stops (docs/radeon.md "Every fault ... the CP stops"), the
# fence after the IB never lands, the fence wait sees rptr stuck and declares
# a lockup, and the GPU reset replays the ring from the next-rptr record (the
# fence only: the hung IB is dropped, as radeon_gpu_reset does). A later IB
# then writes a scratch register and memory and its fence signals.
        .gen r600

        .section bad, 0x100000
        packet3 0xFF, 1, 2

        .section good, 0x200000                        # the later submission
        SET_CONFIG_REG SCRATCH_REG5, 0x600D
        MEM_WRITE 0x1000, 1 << 18, 0x600D0001, 0       # DATA32 write to VRAM

        .ib bad
        .recover
        .ib good
        .wait
        .expect_reg SCRATCH_REG5, 0x600D
        .expect32 0x1000, 0x600D0001
