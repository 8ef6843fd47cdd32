# hostile: INDIRECT_BUFFER with a big-endian swap mode
# fault: kind=unsupported unit=cp channel=0 gpu_addr=0 stream_addr=0x100000 words=0xc0023200,0x00110002,0x00000000,0x00000004
# message: not supported yet
#
# Bits 1:0 of the base-lo dword are the IB swap mode (src/radeon/
# pm4_fields.def IB_SWAP; big-endian hosts use it); the model is little-endian
# only. dw1 = 0x110000 | 2.
#
# Recovery: the CP stops (docs/radeon.md "Every fault ... the CP stops"), the
# fence after the IB never lands, the fence wait sees rptr stuck and declares
# a lockup, and the GPU reset replays the ring from the next-rptr record (the
# fence only: the hung IB is dropped, as radeon_gpu_reset does). A later IB
# then writes a scratch register and memory and its fence signals.
        .gen r600

        .section ib2, 0x110000
        packet2

        .section bad, 0x100000
        INDIRECT_BUFFER 0x110002, 0, 4

        .section good, 0x200000                        # the later submission
        SET_CONFIG_REG SCRATCH_REG5, 0x600D
        MEM_WRITE 0x1000, 1 << 18, 0x600D0001, 0       # DATA32 write to VRAM

        .ib bad
        .recover
        .ib good
        .wait
        .expect_reg SCRATCH_REG5, 0x600D
        .expect32 0x1000, 0x600D0001
