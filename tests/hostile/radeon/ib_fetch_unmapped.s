# hostile: IB1 calls an IB2 at an unmapped address; the fetch faults and a later IB runs
# fault: kind=unmapped unit=cp channel=0 gpu_addr=0x3000000 stream_addr=0x3000000 words=-
#
# IB1 at 0x100000 sets SCRATCH_REG4 (work before the fault, checked) and
# calls an IB2 at 0x3000000, in the hole between VRAM (16 MiB) and the GTT
# (4 GiB). The CP faults fetching the IB2's first dword: gpu_addr and
# stream_addr are both 0x3000000, and no word was read (words=-).
#
# Recovery: the CP stops (docs/radeon.md "Every fault ... the CP stops"), the
# fence after the IB never lands, the fence wait sees rptr stuck and declares
# a lockup, and the GPU reset replays the ring from the next-rptr record (the
# fence only: the hung IB is dropped, as radeon_gpu_reset does). A later IB
# then writes a scratch register and memory and its fence signals.
        .gen r600

        .section bad, 0x100000
        SET_CONFIG_REG SCRATCH_REG4, 0x1B1B
        INDIRECT_BUFFER 0x3000000, 0, 4

        .section good, 0x200000                        # the later submission
        SET_CONFIG_REG SCRATCH_REG5, 0x600D
        MEM_WRITE 0x1000, 1 << 18, 0x600D0001, 0       # DATA32 write to VRAM

        .ib bad
        .expect_reg SCRATCH_REG4, 0x1B1B
        .recover
        .ib good
        .wait
        .expect_reg SCRATCH_REG5, 0x600D
        .expect32 0x1000, 0x600D0001
