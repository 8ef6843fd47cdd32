# Three depth-tested, blended triangles drawn by a vertex and a pixel shader
# written in nv-sass assembly (the `.sass` .. `.endsass` block), rasterised
# into a 64x64 A8B8G8R8 pitch render target with a ZF32 depth buffer.
#
# Vertices are clip positions (w = 1) and RGBA colours; viewport 0 maps NDC
# [-1, 1] to pixels [0, 64] (scale 32, offset 32; y grows down) and z to
# 0.5 z + 0.5. Depth test LESS with writes, blending SRC_ALPHA,
# ONE_MINUS_SRC_ALPHA (ADD) for colour and alpha alike. Clear: colour
# (0, 0, 0, 0), depth 1.0. Draw order:
#   A  red (1, 0, 0, 1) at z 0.5: (-0.75, -0.75) (0.5, -0.75) (-0.75, 0.5)
#   B  green (0, 1, 0, 0.5) at z 0.25: (-0.25, -0.25) (0.75, -0.25) (-0.25, 0.75)
#   C  blue (0, 0, 1, 1) at z 0.75: the whole target (a triangle strip)
# Expected pixels (RGBA bytes at lin + 4 * (64 * y + x)):
#   (10, 10)  A only: red, C fails the depth test          ff 00 00 ff
#   (26, 26)  B over A: 0.5 green + 0.5 red, alpha 0.75    80 80 00 bf
#   (44, 24)  B over the clear colour, C hidden behind B   00 80 00 40
#   (60, 60)  C over the clear colour                      00 00 ff ff
# Run:  cmdgpu run -f nv examples/nv/depth_blend.s -o depth_blend.png
.buffer pb,    0x100000000, 0x10000
.buffer vtx,   0x100010000, 0x1000
.buffer prog,  0x100020000, 0x1000
.buffer rt,    0x100050000, 0x4000
.buffer zt,    0x100060000, 0x4000

# 10 vertices, 32 bytes each: x y z w, r g b a
.section vtx, vtx
    .float -0.75, -0.75, 0.0, 1.0,   1.0, 0.0, 0.0, 1.0
    .float  0.5,  -0.75, 0.0, 1.0,   1.0, 0.0, 0.0, 1.0
    .float -0.75,  0.5,  0.0, 1.0,   1.0, 0.0, 0.0, 1.0
    .float -0.25, -0.25, -0.5, 1.0,  0.0, 1.0, 0.0, 0.5
    .float  0.75, -0.25, -0.5, 1.0,  0.0, 1.0, 0.0, 0.5
    .float -0.25,  0.75, -0.5, 1.0,  0.0, 1.0, 0.0, 0.5
    .float -1.0,  -1.0,  0.5, 1.0,   0.0, 0.0, 1.0, 1.0
    .float  1.0,  -1.0,  0.5, 1.0,   0.0, 0.0, 1.0, 1.0
    .float -1.0,   1.0,  0.5, 1.0,   0.0, 0.0, 1.0, 1.0
    .float  1.0,   1.0,  0.5, 1.0,   0.0, 0.0, 1.0, 1.0

# The programs: SPH (0x50 bytes, open-gpu-doc cla097sph.h) then code.
.section prog, prog
vs:
    # SPH type 1 (VTG), version 3, shader type VERTEX; imap: generic 0 and 1
    # (x y z w); omap: position x y z w and generic 0
    .word 0x00000461, 0, 0, 0, 0, 0, 0x000000ff, 0, 0, 0
    .word 0, 0, 0, 0x000ff000, 0, 0, 0, 0, 0, 0
.sass
    ALD.128 R0, a[0x80], RZ;          # attribute 0: the position
    ALD.128 R4, a[0x90], RZ;          # attribute 1: the colour
    AST.128 a[0x70], R0, RZ;          # position out
    AST.128 a[0x80], R4, RZ;          # generic 0 out
    EXIT;
.endsass
    .org prog + 0x100
ps:
    # SPH type 2 (PS), version 3, shader type PIXEL; imap: position w,
    # generic 0 x y z w perspective; omap: target 0 R G B A
    .word 0x00001462, 0, 0, 0, 0, 0x80000000, 0x000000aa, 0, 0, 0
    .word 0, 0, 0, 0, 0, 0, 0, 0, 0x0000000f, 0
.sass
    IPA.PASS R4, a[0x7c], RZ, RZ, PT; # 1 / w
    MUFU.RCP R4, R4;                  # w
    IPA R0, a[0x80], R4, RZ, PT;      # colour (perspective: (c / w) * w)
    IPA R1, a[0x84], R4, RZ, PT;
    IPA R2, a[0x88], R4, RZ, PT;
    IPA R3, a[0x8c], R4, RZ, PT;
    EXIT;
.endsass

.section pb, pb
start:
    inc 0, SET_OBJECT, 0xB197
    # programs: region, vertex B (slot 1) and pixel (slot 5)
    inc 0, SET_PROGRAM_REGION_A, prog >> 32, prog & 0xffffffff
    inc 0, SET_PIPELINE_SHADER(1), 0x11, vs - prog
    inc 0, SET_PIPELINE_SHADER(5), 0x51, ps - prog
    mthd 0, SET_PIPELINE_REGISTER_COUNT(5), 8
    # render target 0: 64x64 A8B8G8R8, pitch 256 (LAYOUT PITCH); zeta ZF32
    inc 0, SET_COLOR_TARGET_A(0), rt >> 32, rt & 0xffffffff, 256, 64, 0xd5, 0x1000, 1, 0
    mthd 0, RT_CONTROL, 0x1
    mthd 0, SET_CT_WRITE(0), 0x1111
    inc 0, SET_ZT_A, zt >> 32, zt & 0xffffffff, 0x0a, 0, 0
    inc 0, SET_ZT_SIZE_A, 64, 64, 0x10001
    mthd 0, SET_ZT_SELECT, 1
    inc 0, SET_SURFACE_CLIP_HORIZONTAL, 64 << 16, 64 << 16
    # viewport 0: x, y scale 32 offset 32; z scale 0.5 offset 0.5
    inc 0, SET_VIEWPORT_SCALE_X(0), 0x42000000, 0x42000000, 0x3f000000, 0x42000000, 0x42000000, 0x3f000000
    mthd 0, SET_VIEWPORT_SCALE_OFFSET, 1
    # depth LESS with writes; blend SRC_ALPHA, ONE_MINUS_SRC_ALPHA
    mthd 0, SET_DEPTH_TEST, 1
    mthd 0, SET_DEPTH_FUNC, 0x201
    mthd 0, SET_DEPTH_WRITE, 1
    mthd 0, SET_BLEND(0), 1
    inc 0, SET_BLEND_COLOR_OP, 0x8006, 0x4302, 0x4303
    # clears: colour (0, 0, 0, 0), depth 1.0
    inc 0, SET_COLOR_CLEAR_VALUE(0), 0, 0, 0, 0
    mthd 0, SET_Z_CLEAR_VALUE, 0x3f800000
    mthd 0, CLEAR_SURFACE, 0x3d
    # vertex attributes 0 and 1: R32_G32_B32_A32 float at 0 and 16; stream 0
    inc 0, VERTEX_ATTRIB_FORMAT(0), 0x38200000, 0x38200800
    inc 0, VERTEX_ARRAY_FETCH(0), 0x1020, vtx >> 32, vtx & 0xffffffff
    inc 0, VERTEX_ARRAY_LIMIT_HIGH(0), (vtx + 10 * 32 - 1) >> 32, (vtx + 10 * 32 - 1) & 0xffffffff
    # A and B: TRIANGLES, vertices 0-5; C: TRIANGLE_STRIP, vertices 6-9
    mthd 0, VERTEX_BEGIN_GL, 4
    mthd 0, VERTEX_BUFFER_FIRST, 0
    mthd 0, VERTEX_BUFFER_COUNT, 6
    mthd 0, VERTEX_END_GL, 0
    mthd 0, VERTEX_BEGIN_GL, 5
    mthd 0, VERTEX_BUFFER_FIRST, 6
    mthd 0, VERTEX_BUFFER_COUNT, 4
    mthd 0, VERTEX_END_GL, 0
end:

.submit start, end
.finish
.expect32 rt + 4 * (64 * 10 + 10), 0xff0000ff   # A only
.expect32 rt + 4 * (64 * 26 + 26), 0xbf008080   # B over A
.expect32 rt + 4 * (64 * 24 + 44), 0x40008000   # B over the clear colour
.expect32 rt + 4 * (64 * 60 + 60), 0xffff0000   # C
.png rt, 64, 64, 256, "rgba8888", "depth_blend.png"
