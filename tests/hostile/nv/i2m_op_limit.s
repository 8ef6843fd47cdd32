# hostile: an I2M LAUNCH_DMA of 64 KiB x 64 Ki lines (4 GiB), past the model's per-operation budget; channel 1 still works
# fault: kind=hang unit=i2m channel=0 gpu_addr=0x100020000 stream_addr=0x100000020 words=0x8011406c,0x00000011
# message: budget nv.op-bytes: I2M LAUNCH_DMA of 4294967296 bytes is over the limit of 268435456
#
# LINE_LENGTH_IN 0x10000 x LINE_COUNT 0x10000 = 2^32 bytes, each to be fed
# by LOAD_INLINE_DATA. The model bounds one engine operation
# (cg_nv_gpu_set_op_limit, default 256 MiB = 268435456; docs/nv.md) so a
# hostile stream stays cheap; the fault is at the LAUNCH_DMA (IMMD
# 0x8011406c at +0x20), gpu_addr its destination img.
# Words: SET_OBJECT A140 on subchannel 2 (INC count 1, 2 << 13 = 0x4000:
# 0x20014000, 0xA140) at +0, +4; LINE_LENGTH_IN..PITCH_OUT as INC count 5 at
# index 0x180 >> 2 = 0x60 (0x20054060) at +8, data +0xc..+0x1c; LAUNCH_DMA
# 0x11 (DST_MEMORY_LAYOUT PITCH, COMPLETION_TYPE FLUSH_ONLY; cla140.h) as
# IMMD 0x80000000 | 0x11 << 16 | 0x4000 | 0x1b0 >> 2 = 0x8011406c at +0x20;
# LOAD_INLINE_DATA (index 0x6d) NONINC at +0x24, its data from +0x28.
.buffer pb,  0x100000000, 0x1000
.buffer sem, 0x100010000, 0x1000
.buffer img, 0x100020000, 0x1000
.section pb, pb
bad:
    inc 2, SET_OBJECT, 0xA140
    inc 2, LINE_LENGTH_IN, 0x10000, 0x10000, img >> 32, img & 0xffffffff, 0x10000
    mthd 2, LAUNCH_DMA, 0x11
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
