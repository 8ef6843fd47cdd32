.buffer pb,  0x100000000, 0x1000
.buffer sem, 0x100010000, 0x1000
.section pb, pb
start:
    immd 5, 0x0200, 1
    .word 0xC0000000
    immd 1, SET_OBJECT, 0x1234
    immd 0, SEMAPHOREA, sem >> 32
    mthd 0, SEMAPHOREB, (sem + 0xff8) & 0xffffffff
    immd 0, SEMAPHORED, 2
    hdr inc 0, NOP, 3
    .word 0
end:
.submit start, end
