# Inline upload, then DMA copies pitch -> block linear -> pitch.
#
# 1. KEPLER_INLINE_TO_MEMORY_B (subchannel 2) writes a 16x16 RGBA8 gradient
#    (64-byte lines) into `img`, pitch 64, with LOAD_INLINE_DATA.
# 2. MAXWELL_DMA_COPY_A (subchannel 4) swizzles it into `tiled`, block linear
#    with 2-GOB blocks (research/nv.md section 7), then copies it back into
#    `back` as pitch, and releases a semaphore.
# 3. The CPU waits for the fence, checks words, writes PNGs.
# Run:  cmdgpu run -f nv examples/nv/upload_copy.s --out DIR
.buffer pb,    0x100000000, 0x10000
.buffer img,   0x100100000, 0x1000
.buffer tiled, 0x100200000, 0x1000
.buffer back,  0x100300000, 0x1000
.buffer sem,   0x100400000, 0x1000

.section pb, pb
start:
    inc 2, SET_OBJECT, 0xA140
    inc 4, SET_OBJECT, 0xB0B5
    # inline upload: 64 bytes x 16 lines, pitch 64
    inc 2, LINE_LENGTH_IN, 64, 16, img >> 32, img & 0xffffffff, 64
    mthd 2, LAUNCH_DMA, 0x11          # PITCH, FLUSH_ONLY
    hdr noninc 2, LOAD_INLINE_DATA, 256
    .include "gradient16.inc"
    # pitch -> block linear: 64 bytes x 16 lines, 2-GOB blocks
    inc 4, OFFSET_IN_UPPER, img >> 32, img & 0xffffffff, tiled >> 32, tiled & 0xffffffff, 64, 0, 64, 16
    inc 4, SET_DST_BLOCK_SIZE, 0x1010, 64, 16, 1, 0, 0
    mthd 4, LAUNCH_DMA, 0x282         # NON_PIPELINED, SRC pitch, DST block linear, MULTI_LINE
    # block linear -> pitch
    inc 4, OFFSET_IN_UPPER, tiled >> 32, tiled & 0xffffffff, back >> 32, back & 0xffffffff, 0, 64, 64, 16
    inc 4, SET_SRC_BLOCK_SIZE, 0x1010, 64, 16, 1, 0, 0
    inc 4, SET_SEMAPHORE_A, sem >> 32, sem & 0xffffffff, 0xC0FFEE
    mthd 4, LAUNCH_DMA, 0x30a         # NON_PIPELINED, one-word semaphore, SRC BL, DST pitch, MULTI_LINE
end:

.submit start, end, fence=0
.wait 0
.expect32 sem, 0xC0FFEE
.expect32 img, 0xffff0000                     # pixel (0,0): r=0 g=0 b=255 a=255
.expect32 back + 64 * 5 + 4 * 3, 0xff000000 | (255 - 48) << 16 | 80 << 8 | 48
.expect32 tiled + 16, 0xff000000 | 255 << 16 | 16 << 8 | 0     # GOB: bytes 16..31 are row 1
.png img, 16, 16, 64, "rgba8888", "upload.png"
.png back, 16, 16, 64, "rgba8888", "roundtrip.png"
.dump tiled, 512, "tiled.bin"
