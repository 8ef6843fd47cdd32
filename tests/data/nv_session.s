# A session's actions written by hand (what `cmdgpu exec --capture` records):
# the kernel's software object, a hash check of a buffer the GPU wrote (FNV-1a
# 64 of 0x1234 and 4092 zero bytes, computed outside cmdgpu), an unmap.
.nvsw
.buffer pb, 0x100000000, 0x1000
.buffer sem, 0x100010000, 0x1000
.section pb, pb
start:
    mthd 0, SEMAPHOREA, sem >> 32
    mthd 0, SEMAPHOREB, sem & 0xffffffff
    mthd 0, SEMAPHOREC, 0x1234
    mthd 0, SEMAPHORED, 0x01000002
    mthd 7, 0x0500, 1
    mthd 7, 0x0600, 5
end:
.submit start, end
.run
.expect_hash sem, 0x1000, 0x05b334f6f5410fcb
.unmap sem
.close_channel 0
