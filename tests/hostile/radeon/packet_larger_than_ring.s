# hostile: a packet longer than the whole ring: the CP faults at once; the replay faults again and the second reset drops it
# fault: kind=bad-length unit=cp channel=0 gpu_addr=0 stream_addr=0x100000040 words=0xffff1000
# fault: kind=bad-length unit=cp channel=0 gpu_addr=0 stream_addr=0x100000080 words=0xffff1000
# message: packet of 16385 dwords runs past the end of the ring (1023 left)
#
# .ring 4096: 1024 dwords, of which 1023 can ever be committed (one slot stays
# empty). NOP with count 0x3FFF (0xC0000000 | 0x3FFF << 16 | 0x10 << 8 =
# 0xFFFF1000) is 16385 dwords: it can never be complete, so unlike a truncated
# packet it faults at once (bad-length, header only). It sits at ring dword 16,
# 0x100000040. The reset replays dwords 0-47 (no next-rptr record was
# executed) at 16-63, so the header is at dword 32, 0x100000080, and faults
# again; the ring test fails and the reset is repeated without the saved
# commands, completing the fences (radeon would return -EAGAIN and reset
# again; see docs/radeon.md "Lockup detection and reset").
#
# Recovery: .recover (the fence wait declares a lockup, cg_radeon_gpu_reset
# does the rest as described above); then a later IB writes a scratch
# register and memory and its fence signals.
        .gen r600

        .ring 4096
        .section huge, 0x100000
        .word 0xFFFF1000

        .section good, 0x200000                        # the later submission
        SET_CONFIG_REG SCRATCH_REG5, 0x600D
        MEM_WRITE 0x1000, 1 << 18, 0x600D0001, 0       # DATA32 write to VRAM

        .submit huge
        .fence
        .recover
        .ib good
        .wait
        .expect_reg SCRATCH_REG5, 0x600D
        .expect32 0x1000, 0x600D0001
