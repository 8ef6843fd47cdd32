# hostile: the GPU releases a semaphore into a CPU-cached line the CPU holds dirty; a diagnostic says the CPU's flush will undo the write, both channels keep working
# fault: kind=stale-gpu-write unit=host channel=0 gpu_addr=0x100030010 stream_addr=0x100000010 words=0x20040004,0x01000002
# message: its flush will undo this write
#
# csem is mapped CPU-cached (.buffer ..., kind 0, cached 1). The CPU writes
# 0x1 at csem + 0x10 and does not flush: the line is dirty in the CPU
# cache. Channel 0 then releases 0xB0B at csem + 0x10 (INC 0x20040004,
# SEMAPHORED 0x01000002 at +0x10). The GPU write reaches memory, but the
# dirty line will overwrite it when the CPU flushes (the seeds' flush
# rules): the model logs stale-gpu-write at the first dirty byte as a
# diagnostic (a warning by default). The CPU still sees its own cached 0x1.
.buffer pb,   0x100000000, 0x1000
.buffer sem,  0x100010000, 0x1000
.buffer csem, 0x100030000, 0x1000, 0, 1
.section pb, pb
bad:
    inc 0, SEMAPHOREA, csem >> 32, (csem + 0x10) & 0xffffffff, 0xB0B, 0x01000002
bad_end:
good:
    inc 0, SEMAPHOREA, sem >> 32, sem & 0xffffffff, 0x600D, 0x01000002
good_end:
.cpu_write32 csem + 0x10, 1
.channel 0
.submit bad, bad_end
.channel 1
.submit good, good_end
.run
.expect32 sem, 0x600D
.expect32 csem + 0x10, 1
