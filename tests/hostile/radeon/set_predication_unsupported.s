# hostile: SET_PREDICATION with a ZPASS operation, which the model cannot evaluate
# fault: kind=unsupported unit=cp channel=0 gpu_addr=0 stream_addr=0x100000 words=0xc0012000,0x00001800,0x00010000
# message: not supported yet
#
# PRED_OP 1 (ZPASS, bits 18:16 of dw2 = 0x10000) predicates on occlusion
# results that only shader/DB execution produces; the model has none
# (docs/radeon.md, "not supported yet" list). Header PACKET3(0x20, 1) =
# 0xC0012000.
#
# Recovery: the CP stops (docs/radeon.md "Every fault ... the CP stops"), the
# fence after the IB never lands, the fence wait sees rptr stuck and declares
# a lockup, and the GPU reset replays the ring from the next-rptr record (the
# fence only: the hung IB is dropped, as radeon_gpu_reset does). A later IB
# then writes a scratch register and memory and its fence signals.
        .gen r600

        .section bad, 0x100000
        SET_PREDICATION 0x1800, 1 << 16

        .section good, 0x200000                        # the later submission
        SET_CONFIG_REG SCRATCH_REG5, 0x600D
        MEM_WRITE 0x1000, 1 << 18, 0x600D0001, 0       # DATA32 write to VRAM

        .ib bad
        .recover
        .ib good
        .wait
        .expect_reg SCRATCH_REG5, 0x600D
        .expect32 0x1000, 0x600D0001
