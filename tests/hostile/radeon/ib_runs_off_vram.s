# hostile: an IB2 whose size runs past the end of VRAM: its two mapped dwords run, the third fetch faults
# fault: kind=unmapped unit=cp channel=0 gpu_addr=0x1000000 stream_addr=0x1000000 words=-
#
# The IB2 starts 8 bytes below the end of VRAM (0xFFFFF8; VRAM is 16 MiB) and
# says it is 4 dwords long. Its two mapped dwords are PACKET2 fillers and run;
# the third dword is at 0x1000000, past VRAM: fetching it faults with
# gpu_addr = stream_addr = 0x1000000 and no word read (words=-). The length is
# not refused up front: the CP fetches as it goes (the model prefetches only
# what is mapped).
#
# Recovery: the CP stops (docs/radeon.md "Every fault ... the CP stops"), the
# fence after the IB never lands, the fence wait sees rptr stuck and declares
# a lockup, and the GPU reset replays the ring from the next-rptr record (the
# fence only: the hung IB is dropped, as radeon_gpu_reset does). A later IB
# then writes a scratch register and memory and its fence signals.
        .gen r600

        .section tail, 0xFFFFF8
        packet2
        packet2

        .section bad, 0x100000
        INDIRECT_BUFFER 0xFFFFF8, 0, 4

        .section good, 0x200000                        # the later submission
        SET_CONFIG_REG SCRATCH_REG5, 0x600D
        MEM_WRITE 0x1000, 1 << 18, 0x600D0001, 0       # DATA32 write to VRAM

        .ib bad
        .recover
        .ib good
        .wait
        .expect_reg SCRATCH_REG5, 0x600D
        .expect32 0x1000, 0x600D0001
