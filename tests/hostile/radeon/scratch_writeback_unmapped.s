# hostile: SCRATCH_ADDR points at unmapped memory: the next-rptr record's scratch write-back faults; the reset reprograms it
# fault: kind=unmapped unit=cp channel=0 gpu_addr=0x2000000 stream_addr=0x100000040 words=0xc0016800,0x00000140,0x00000017
#
# The host points SCRATCH_ADDR at 0x2000000 >> 8 (a hole). With SCRATCH_UMSK
# 0xff (r600_cp_resume) every scratch register write is mirrored to
# (SCRATCH_ADDR << 8) + 4 * i. The first scratch write from the CP is the IB's
# next-rptr record (r600_ring_ib_execute: SET_CONFIG_REG rptr_save_reg =
# SCRATCH_REG0, offset (0x8500 - 0x8000) >> 2 = 0x140): its mirror to
# 0x2000000 + 0 faults. The ring is at the GTT base 0x100000000; ME_INITIALIZE
# took dwords 0-15 (7 dwords padded to 16), so the record is dword 16:
# stream_addr 0x100000040. Its value is next_rptr = 16 + 3 + 4 = 23 = 0x17.
# The register itself took the value, so the reset replays from dword 23 (the
# fence): the IB, which would have written SCRATCH_REG6, never runs.
# r600_cp_resume (the reset) programs SCRATCH_ADDR again.
#
# Recovery: .recover (the fence wait declares a lockup, cg_radeon_gpu_reset
# does the rest as described above); then a later IB writes a scratch
# register and memory and its fence signals.
        .gen r600

        .section bad, 0x100000
        SET_CONFIG_REG SCRATCH_REG6, 0xBAD

        .section good, 0x200000                        # the later submission
        SET_CONFIG_REG SCRATCH_REG5, 0x600D
        MEM_WRITE 0x1000, 1 << 18, 0x600D0001, 0       # DATA32 write to VRAM

        .reg SCRATCH_ADDR, 0x2000000 >> 8
        .ib bad
        .expect_reg SCRATCH_REG6, 0
        .recover
        .ib good
        .wait
        .expect_reg SCRATCH_REG5, 0x600D
        .expect32 0x1000, 0x600D0001
        .expect_reg SCRATCH_REG6, 0                     # the hung IB was dropped
