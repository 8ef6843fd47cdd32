# hostile: SET_REPORT_SEMAPHORE_D with OPERATION TRAP, which asks the GPU to trap; channel 1 still works
# fault: kind=trap unit=3d channel=0 gpu_addr=0x100010100 stream_addr=0x100000018 words=0x200406c0,0x00000003
# message: OPERATION TRAP (payload 0x00000005)
#
# OPERATION 3 = TRAP (clb197.h): the stream asks for a trap; the record
# carries the semaphore address (sem + 0x100) and the payload in its message.
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
    inc 0, SET_REPORT_SEMAPHORE_A, sem >> 32, (sem + 0x100) & 0xffffffff, 5, 3
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
