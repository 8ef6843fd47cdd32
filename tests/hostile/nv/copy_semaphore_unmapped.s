# hostile: a DMA copy semaphore release to an unmapped address; channel 1 still works
# fault: kind=unmapped unit=ce channel=0 gpu_addr=0x200000010 stream_addr=0x100000018 words=0x800880c0,0x00000008
# message: write of 0x4 bytes at 0x200000010: no mapping
#
# SET_SEMAPHORE_A/B/PAYLOAD (0x240.., index 0x90) as INC count 3: 0x20038090
# at +8, data +0xc..+0x14: address 0x2_0000_0010, payload 0x55. LAUNCH_DMA
# 0x08: DATA_TRANSFER_TYPE NONE, SEMAPHORE_TYPE (4:3) = 1, RELEASE_ONE_WORD
# (clb0b5.h), IMMD 0x800880c0 at +0x18: a 4-byte write, MMU fault at its
# first byte.
.buffer pb,  0x100000000, 0x1000
.buffer sem, 0x100010000, 0x1000
.buffer img, 0x100020000, 0x1000
.buffer out, 0x100030000, 0x1000
.section pb, pb
bad:
    inc 4, SET_OBJECT, 0xB0B5
    inc 4, SET_SEMAPHORE_A, 2, 0x10, 0x55
    mthd 4, LAUNCH_DMA, 0x08
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
