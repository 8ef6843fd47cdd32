# A scaled 2D blit to PNG: a 16x16 RGBA8 gradient uploaded inline, then
# FERMI_TWOD_A (subchannel 3) scales it 4x with bilinear filtering into a
# 64x64 A8B8G8R8 block-linear surface, and once more, point-sampled, into a
# pitch surface; DU_DX/DV_DY are 32.32 fixed point (0.25 = 0x40000000).
# Run:  cmdgpu run -f nv examples/nv/blit.s --out DIR
.buffer pb,    0x100000000, 0x10000
.buffer img,   0x100100000, 0x1000
.buffer big,   0x100200000, 0x10000
.buffer near,  0x100300000, 0x10000
.buffer flat,  0x100400000, 0x10000

.section pb, pb
start:
    inc 2, SET_OBJECT, 0xA140
    inc 3, SET_OBJECT, 0x902D
    inc 2, LINE_LENGTH_IN, 64, 16, img >> 32, img & 0xffffffff, 64
    mthd 2, LAUNCH_DMA, 0x11
    hdr noninc 2, LOAD_INLINE_DATA, 256
    .include "gradient16.inc"
    # source: 16x16 A8B8G8R8, pitch 64
    inc 3, SET_SRC_FORMAT, 0xD5, 1, 0, 1
    inc 3, SET_SRC_PITCH, 64, 16, 16, img >> 32, img & 0xffffffff
    mthd 3, SET_OPERATION, 3                       # SRCCOPY
    # destination 1: 64x64 block linear (2-GOB blocks), bilinear
    inc 3, SET_DST_FORMAT, 0xD5, 0, 0x10, 1, 0, 0, 64, 64, big >> 32, big & 0xffffffff
    mthd 3, SET_PIXELS_FROM_MEMORY_SAMPLE_MODE, 0x10   # CENTER, BILINEAR
    inc 3, SET_PIXELS_FROM_MEMORY_DST_X0, 0, 0, 64, 64, 0x40000000, 0, 0x40000000, 0, 0, 0, 0, 0
    # destination 2: 64x64 pitch, point sampled
    inc 3, SET_DST_FORMAT, 0xD5, 1, 0, 1, 0, 256, 64, 64, near >> 32, near & 0xffffffff
    mthd 3, SET_PIXELS_FROM_MEMORY_SAMPLE_MODE, 0      # CENTER, POINT
    inc 3, SET_PIXELS_FROM_MEMORY_DST_X0, 0, 0, 64, 64, 0x40000000, 0, 0x40000000, 0, 0, 0, 0, 0
    # copy the block-linear result to pitch for the PNG (2D, 1:1)
    inc 3, SET_SRC_FORMAT, 0xD5, 0, 0x10, 1
    inc 3, SET_SRC_PITCH, 0, 64, 64, big >> 32, big & 0xffffffff
    inc 3, SET_DST_FORMAT, 0xD5, 1, 0, 1, 0, 256, 64, 64, flat >> 32, flat & 0xffffffff
    inc 3, SET_PIXELS_FROM_MEMORY_DST_X0, 0, 0, 64, 64, 0, 1, 0, 1, 0, 0, 0, 0
end:
.submit start, end, fence=0
.wait 0
.expect32 near, 0xffff0000                # top-left texel, point sampled
.expect32 near + 256 * 63 + 4 * 63, 0xff0ff0f0   # bottom-right texel: r=g=240 b=15
.png near, 64, 64, 256, "rgba8888", "blit_point.png"
.png flat, 64, 64, 256, "rgba8888", "blit_bilinear.png"
