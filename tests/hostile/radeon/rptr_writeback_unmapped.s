# hostile: CP_RB_RPTR_ADDR points at unmapped memory: the rptr write-back faults after the submission ran
# fault: kind=unmapped unit=cp channel=0 gpu_addr=0x2000000 stream_addr=0x1000000bc words=0x80000000
#
# The host points CP_RB_RPTR_ADDR (and _HI = 0) at 0x2000000 (a hole). The CP writes rptr back
# every RB_BLKSZ block and when it runs dry (docs/radeon.md; the writeback page
# copy is what radeon_ring_free_size reads). The .ib submission (next-rptr
# record at dword 16, INDIRECT_BUFFER, fence, PACKET2 padding to dword 48) runs
# completely, fence 1 included, then the write-back at idle faults. The record
# names the last packet executed: the PACKET2 0x80000000 at dword 47,
# 0x100000000 + 47 * 4 = 0x1000000BC. The CP stops, so fence 2 (the second
# IB) never lands: lockup, reset (r600_cp_resume programs CP_RB_RPTR_ADDR
# again), and the replay from the last next-rptr record (dword 23, fence 1's
# packets, then the second IB and its fence) runs the second IB.
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

        .reg CP_RB_RPTR_ADDR, 0x2000000
        .reg CP_RB_RPTR_ADDR_HI, 0
        .ib first
        .wait
        .expect_reg SCRATCH_REG4, 0x1B1B
        .ib second
        .recover
        .ib good
        .wait
        .expect_reg SCRATCH_REG5, 0x600D
        .expect32 0x1000, 0x600D0001
        .expect_reg SCRATCH_REG6, 0x1E1E                # the replay ran the IB
