# hostile: the host points IH_RB_BASE at unmapped memory: the fence interrupt cannot be posted; the reset re-initialises the IH
# fault: kind=unmapped unit=ih channel=0 gpu_addr=0x2000000 stream_addr=0x100000070 words=0xc0044700,0x00000514,0x00010c00,0x22000001
#
# IH_RB_BASE = 0x2000000 >> 8 (a hole). The first fence's EVENT_WRITE_EOP
# (r600_fence_ring_emit: INT_SEL 2, interrupt after the write) writes sequence 1
# to the writeback page, then posts IH source 181 at IH base + wptr 0: the
# write faults at 0x2000000 with unit "ih" (the IH is the writer). The ring:
# ME_INITIALIZE 0-15, the .ib's next-rptr record 16-18, INDIRECT_BUFFER 19-22,
# SURFACE_SYNC 23-27, EVENT_WRITE_EOP at dword 28: stream_addr 0x100000000 +
# 28 * 4 = 0x100000070. words: PACKET3(0x47, 4) = 0xC0044700, event 0x514
# (CACHE_FLUSH_AND_INV_EVENT_TS, index 5), address lo 0x00010C00 (writeback
# page 0x100010000 + 3072), addr hi 1 | DATA_SEL 1 << 29 | INT_SEL 2 << 24 =
# 0x22000001. The fence value did land, so fence 1 signals (only its
# interrupt is lost); the CP stopped, so the second IB hangs: lockup, and the
# reset re-runs r600_irq_init (as radeon_resume does), replays from the first
# IB's next-rptr record (fence 1 again, then the second IB and its fence).
# IH_RB_BASE then reads the driver's IH ring again: ring 64 KiB at
# 0x100000000, writeback page 0x100010000, IH ring 0x100011000 >> 8 =
# 0x1000110.
#
# Recovery: .recover (the fence wait declares a lockup, cg_radeon_gpu_reset
# does the rest as described above); then a later IB writes a scratch
# register and memory and its fence signals.
        .gen r600

        .section first, 0x100000
        SET_CONFIG_REG SCRATCH_REG4, 0x1B1B

        .section second, 0x110000
        SET_CONFIG_REG SCRATCH_REG6, 0x1E1E

        .section good, 0x200000                        # the later submission
        SET_CONFIG_REG SCRATCH_REG5, 0x600D
        MEM_WRITE 0x1000, 1 << 18, 0x600D0001, 0       # DATA32 write to VRAM

        .reg IH_RB_BASE, 0x2000000 >> 8
        .ib first
        .wait
        .expect_reg SCRATCH_REG4, 0x1B1B
        .ib second
        .recover
        .ib good
        .wait
        .expect_reg SCRATCH_REG5, 0x600D
        .expect32 0x1000, 0x600D0001
        .expect_reg SCRATCH_REG6, 0x1E1E
        .expect_reg IH_RB_BASE, 0x1000110
