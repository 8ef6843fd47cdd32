# hostile: CALL_MME_DATA(0) with no call of macro 0 in progress; channel 1 still works
# fault: kind=bad-state unit=mme channel=0 gpu_addr=0 stream_addr=0x100000008 words=0x80050e01,0x00000005
# message: CALL_MME_DATA(0) without a call of macro 0 in progress
#
# CALL_MME_DATA(n) (0x3804 + 8n, index 0xe01 + 2n) appends a parameter to
# the call CALL_MME_MACRO(n) started (docs/nv-macro.md "Calls"); here none
# did. IMMD 0x80000000 | 5 << 16 | 0xe01 = 0x80050e01 at +8, after
# SET_OBJECT B197 (0x20010000, 0xB197).
.buffer pb,  0x100000000, 0x1000
.buffer sem, 0x100010000, 0x1000
.buffer cb,  0x100020000, 0x1000
.section pb, pb
bad:
    inc 0, SET_OBJECT, 0xB197
    mthd 0, CALL_MME_DATA(0), 5
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
