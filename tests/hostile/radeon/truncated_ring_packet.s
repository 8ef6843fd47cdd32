# hostile: a ring packet whose count runs past everything ever committed: the CP waits, the watchdog ends it, the replay hangs again and the second reset drops it
# fault: kind=hang unit=cp channel=0 gpu_addr=0 stream_addr=0x100000040 words=0xc0641000
# fault: kind=hang unit=cp channel=0 gpu_addr=0 stream_addr=0x100000080 words=0xc0641000
#
# A NOP header with count 100 (PACKET3(0x10, 100) = 0xC0641000) is submitted
# alone at ring dword 16 (0x100000040; ME_INITIALIZE took 0-15) and padded
# to dword 32; the fence after it fills 32-47. The packet needs 102 dwords and
# only 32 are committed after its header: in the ring more may still come, so
# the CP waits ("incomplete packet"), polled by each CP run of the fence wait,
# until the 1000-poll watchdog raises the first hang (header only: the payload
# was never complete). Lockup, reset: no next-rptr record was ever executed,
# so radeon_ring_backup saves dwords 0-47 and the replay puts them at 16-63
# (after the new ME_INITIALIZE): the header is now at dword 32, 0x100000080,
# waits again while the ring test's dwords arrive and hangs again (second
# record). The ring test fails, so the reset is repeated without the saved
# commands and the fences are forced complete (radeon would return -EAGAIN
# and reset again; radeon_fence_driver_force_completion is what it does for a
# ring with nothing to restore; docs/radeon.md). The later IB runs.
#
# Recovery: .recover (the fence wait declares a lockup, cg_radeon_gpu_reset
# does the rest as described above); then a later IB writes a scratch
# register and memory and its fence signals.
        .gen r600

        .section trunc, 0x100000
        .word 0xC0641000

        .section good, 0x200000                        # the later submission
        SET_CONFIG_REG SCRATCH_REG5, 0x600D
        MEM_WRITE 0x1000, 1 << 18, 0x600D0001, 0       # DATA32 write to VRAM

        .submit trunc
        .fence
        .recover
        .ib good
        .wait
        .expect_reg SCRATCH_REG5, 0x600D
        .expect32 0x1000, 0x600D0001
