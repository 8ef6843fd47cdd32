# hostile: a 3D report-semaphore release at an address that is not 4-byte aligned; channel 1 still works
# fault: kind=bad-align unit=3d channel=0 gpu_addr=0x100010102 stream_addr=0x100000018 words=0x200406c0,0x10000000
# message: address 0x0100010102 is not 4-byte aligned
#
# D = 0x10000000: RELEASE of one word (STRUCTURE_SIZE 1), a 32-bit
# semaphore write, to sem + 0x102. The model asks for natural alignment of
# the semaphore word (src/nv/gpu/threed.c; the host SEMAPHOREB field has no bits
# 1:0 at all, clb06f.h OFFSET_LOWER 31:2).
# Words: SET_OBJECT B197 on subchannel 0 (0x20010000, 0xB197) at +0, +4;
# SET_REPORT_SEMAPHORE_A..D (0x1b00.., index 0x6c0) as INC count 4
# (0x200406c0) at +8, A at +0xc, B +0x10, C (payload) +0x14, D +0x18.
# SET_REPORT_SEMAPHORE_D fields (clb197.h): OPERATION 1:0 (RELEASE 0,
# ACQUIRE 1, REPORT_ONLY 2, TRAP 3), COMPARISON 16, STRUCTURE_SIZE 28
# (1 = one word).
.buffer pb,  0x100000000, 0x1000
.buffer sem, 0x100010000, 0x1000
.buffer cb,  0x100020000, 0x1000
.section pb, pb
bad:
    inc 0, SET_OBJECT, 0xB197
    inc 0, SET_REPORT_SEMAPHORE_A, sem >> 32, (sem + 0x102) & 0xffffffff, 5, 0x10000000
bad_end:
good:
    inc 0, SEMAPHOREA, sem >> 32, sem & 0xffffffff, 0x600D, 0x01000002
good_end:
.channel 0
.submit bad, bad_end
.channel 1
.submit good, good_end
.run
.expect32 sem, 0x600D
.expect32 sem + 0x100, 0
