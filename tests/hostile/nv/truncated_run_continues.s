# hostile: a method header whose count runs past the end of its GPFIFO entry; the run continues in the next entry, no fault
#
# No fault: the pusher's method state (method, subchannel, count left)
# belongs to the channel, not to the entry, so the data of a header may
# continue in the next entry (docs/nv.md "Decoder"; yuzu's DmaPusher keeps
# its DmaState {method, method_count, ...} as a member, across command
# lists, video_core/dma_pusher.h). Entry 1 is an INC
# header for SEMAPHOREA with count 4 (hdr inc 0, SEMAPHOREA, 4 = 0x20040004)
# and only 3 data words (A, B, payload 0x7777); entry 2 is the single word
# 0x01000002, which is SEMAPHORED's data: RELEASE 4 bytes. The release lands
# at sem + 0x10 only if the truncated header was continued.
.buffer pb,  0x100000000, 0x1000
.buffer sem, 0x100010000, 0x1000
.section pb, pb
part1:
    hdr inc 0, SEMAPHOREA, 4
    .word sem >> 32, (sem + 0x10) & 0xffffffff, 0x7777
part1_end:
part2:
    .word 0x01000002
part2_end:
good:
    inc 0, SEMAPHOREA, sem >> 32, sem & 0xffffffff, 0x600D, 0x01000002
good_end:
.channel 0
.submit part1, part1_end
.submit part2, part2_end
.channel 1
.submit good, good_end
.run
.expect32 sem, 0x600D
.expect32 sem + 0x10, 0x7777
