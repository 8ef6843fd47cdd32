# hostile: MEM_SEMAPHORE waits on a semaphore nobody signals
# fault: kind=hang unit=cp channel=0 gpu_addr=0x1800 stream_addr=0x100000 words=0xc0013900,0x00001800,0xe0000000
# message: MEM_SEMAPHORE wait not satisfied
#
# MEM_SEMAPHORE (count 1): dw1 address 0x1800 (8-aligned), dw2 SEL 7 << 29 =
# 0xE0000000 (wait). The 64-bit semaphore is 0 and nothing signals it, so the
# wait blocks until the watchdog (1000 polls) ends it with a hang fault;
# gpu_addr is what it waited on, the semaphore at 0x1800.
# Header PACKET3(0x39, 1) = 0xC0013900.
#
# Recovery: the CP stops (docs/radeon.md "Every fault ... the CP stops"), the
# fence after the IB never lands, the fence wait sees rptr stuck and declares
# a lockup, and the GPU reset replays the ring from the next-rptr record (the
# fence only: the hung IB is dropped, as radeon_gpu_reset does). A later IB
# then writes a scratch register and memory and its fence signals.
        .gen r600

        .section bad, 0x100000
        MEM_SEMAPHORE 0x1800, 7 << 29

        .section good, 0x200000                        # the later submission
        SET_CONFIG_REG SCRATCH_REG5, 0x600D
        MEM_WRITE 0x1000, 1 << 18, 0x600D0001, 0       # DATA32 write to VRAM

        .ib bad
        .recover
        .ib good
        .wait
        .expect_reg SCRATCH_REG5, 0x600D
        .expect32 0x1000, 0x600D0001
