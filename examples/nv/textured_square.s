# Seed 000's textured square, as a Switch game (Puyo Puyo Tetris) sends it
# (seed 000 "Vertex Data Submission", "Texture View", "TIC Structure", "Macro",
# "Fences"), drawn by a vertex and a pixel shader written in nv-sass
# assembly (the `.sass` .. `.endsass` blocks below), plus clears of the
# block-linear render target.
#
# 1. Upload macro 13 (CALL_MME_MACRO(13) is the seed's method 0xE1A): it sets
#    CB_SIZE/CB_ADDRESS_HIGH/LOW from its parameters and binds that buffer to
#    the fragment stage (CB_BIND(4)) in the slot held by register 0x982 (the
#    texture constant buffer index, SET_BINDLESS_TEXTURE).
# 2. Upload an 8x8 A8B8G8R8 texture block-linear through the 3D class's
#    inline-to-memory methods; the TIC entry 1 and the TSC entry 2 describe it.
# 3. The macro binds the texture constant buffer; CB_POS 0x20 / CB_DATA(0)
#    write the handle (TIC index 1 in 19:0, TSC index 2 in 31:20) at index 8,
#    the index the pixel shader's TEXS names.
# 4. Vertex attributes 0-15 (0: position R32_G32_B32 float, 1: texture
#    coordinate R32_G32 float, 2: colour R8_G8_B8_A8 unorm, 3-15 "float, Size
#    = 1, offset 0" as the seed says), VERTEX_ARRAY_FETCH(0) stride 0x1C
#    enabled, START/LIMIT; the programs (program region, pipeline slots 1
#    vertex and 5 pixel), viewport 0 (scale 32, offset 32: NDC -0.5..0.5 is
#    pixels 16..48).
# 5. Clear render target 0 (64x64 A8B8G8R8, block linear, 8-GOB blocks) to
#    (0.2, 0.4, 0.8, 1.0), then R and A only inside scissor 0; scissor off,
#    TRIANGLE_STRIP, FIRST 0, COUNT 4, END; copy the target to pitch with
#    the copy engine, and release the seed's fence
#    (QUERY_ADDRESS / QUERY_SEQUENCE / QUERY_GET).
#
# The square covers pixels 16..47 in x and y; texture coordinate (0, 1) is
# at its top left, so pixel (x, y) shows texel (floor((x - 16) / 4),
# 7 - floor((y - 16) / 4)) (NEAREST, 4x4 pixels a texel): the 2x2 white
# marker of the texture's top left lands at the square's bottom left.
# Run:  cmdgpu run -f nv examples/nv/textured_square.s --out DIR -o DIR/rt0.png \
#           --draws DIR/square_draws.json --dump-textures DIR
.buffer pb,    0x100000000, 0x10000
.buffer vtx,   0x100010000, 0x1000
.buffer tex,   0x100020000, 0x1000
.buffer tic,   0x100030000, 0x1000
.buffer tsc,   0x100031000, 0x1000
.buffer cb,    0x100040000, 0x1000
.buffer rt,    0x100050000, 0x4000
.buffer lin,   0x100060000, 0x4000
.buffer fence, 0x100070000, 0x1000
.buffer prog,  0x100080000, 0x1000

# The CPU writes the vertex data and the pools, as the game does.
.section vtx, vtx
    .word 0xbf000000, 0xbf000000, 0x00000000, 0x00000000, 0x3f800000, 0xff0000ff, 0x00000000   # vertex 0
    .word 0x3f000000, 0xbf000000, 0x00000000, 0x3f800000, 0x3f800000, 0xff00ff00, 0x00000000   # vertex 1
    .word 0xbf000000, 0x3f000000, 0x00000000, 0x00000000, 0x00000000, 0xffff0000, 0x00000000   # vertex 2
    .word 0x3f000000, 0x3f000000, 0x00000000, 0x3f800000, 0x00000000, 0xffffffff, 0x00000000   # vertex 3
.section tic, tic + 0x20
    # TIC 1: format A8B8G8R8 (0x08), R/G/B/A UNORM, swizzle R G B A; address;
    # HEADER_VERSION 3 (block linear); 1-GOB blocks; width 8; 2D; height 8,
    # normalized coordinates
    .word 0x58d24908, 0x00020000, 0x00600001, 0x00000000, 0x00800007, 0x80000007, 0x00000000, 0x00000000
.section tsc, tsc + 0x40
    # TSC 2: CLAMP_TO_EDGE in u, v, p; NEAREST mag/min, no mipmaps
    .word 0x00000092, 0x00000051, 0x00000000, 0x00000000, 0, 0, 0, 0

# The programs: SPH (0x50 bytes, open-gpu-doc cla097sph.h), then the code.
.section prog, prog
vs:
    # VTG header, version 3, VERTEX; imap: generic 0 x y z, generic 1 x y;
    # omap: position x y z w, generic 0 x y
    .word 0x00000461, 0, 0, 0, 0, 0, 0x00000037, 0, 0, 0
    .word 0, 0, 0, 0x0003f000, 0, 0, 0, 0, 0, 0
.sass
    ALD.96 R0, a[0x80], RZ;           # position x y z
    MOV32I R3, 0x3f800000;            # w = 1.0
    ALD.64 R4, a[0x90], RZ;           # texture coordinate
    AST.128 a[0x70], R0, RZ;          # position out
    AST.64 a[0x80], R4, RZ;           # generic 0 out
    EXIT;
.endsass
    .org prog + 0x100
ps:
    # PS header, version 3, PIXEL; imap: position w, generic 0 x y
    # perspective; omap: target 0 R G B A
    .word 0x00001462, 0, 0, 0, 0, 0x80000000, 0x0000000a, 0, 0, 0
    .word 0, 0, 0, 0, 0, 0, 0, 0, 0x0000000f, 0
.sass
    IPA.PASS R4, a[0x7c], RZ, RZ, PT; # 1 / w
    MUFU.RCP R4, R4;                  # w
    IPA R0, a[0x80], R4, RZ, PT;      # u
    IPA R1, a[0x84], R4, RZ, PT;      # v
    TEXS.2D R2, R0, R0, R1, 0x8, 0x4; # RGBA of the texture whose handle is c[2][8 * 4]
    EXIT;                             #   into R0 R1 (Rd) and R2 R3 (Rd2)
.endsass

.section pb, pb
start:
    inc 0, SET_OBJECT, 0xB197
    inc 4, SET_OBJECT, 0xB0B5
    # 1. macro 13 (source in the comments; `cmdgpu disasm -f nv-macro` prints it)
    mthd 0, LOAD_MME_INSTRUCTION_RAM_POINTER, 0
    hdr noninc 0, LOAD_MME_INSTRUCTION_RAM, 11
    .word 0x06380021   # addi.movm r0, r0, 0x18e0    method CB_SIZE (0x8e0), increment 1
    .word 0x00000840   # add.movsend r0, r1, r0      CB_SIZE = the first parameter
    .word 0x00000201   # parm r2
    .word 0x00001040   # add.movsend r0, r2, r0      CB_ADDRESS_HIGH
    .word 0x00000301   # parm r3
    .word 0x00001840   # add.movsend r0, r3, r0      CB_ADDRESS_LOW
    .word 0x02608415   # read r4, r0, 0x982          the texture constant buffer slot
    .word 0x02490021   # addi.movm r0, r0, 0x924     method CB_BIND(4): fragment stage
    .word 0x21410512   # bfins r5, r0, r4, 0, 5, 4   r5 = slot << 4
    .word 0x000068c1   # addi.movsend.exit r0, r5, 1 CB_BIND(4) = slot << 4 | VALID
    .word 0x00000011   # nop                         (the exit's delay slot)
    mthd 0, LOAD_MME_START_ADDRESS_RAM_POINTER, 13
    mthd 0, LOAD_MME_START_ADDRESS_RAM, 0
    # 2. the texture: 32 bytes x 8 lines, block linear (1-GOB blocks), inline
    inc 0, LINE_LENGTH_IN, 32, 8, tex >> 32, tex & 0xffffffff, 0, 0, 32, 8, 1, 0, 0, 0
    mthd 0, LAUNCH_DMA, 0x10           # DST_LAYOUT block linear, FLUSH_ONLY
    hdr noninc 0, LOAD_INLINE_DATA, 64
    .word 0xffffffff, 0xffffffff, 0xff808000, 0xff808000, 0xff0080ff, 0xff0080ff, 0xff808000, 0xff808000
    .word 0xffffffff, 0xffffffff, 0xff808000, 0xff808000, 0xff0080ff, 0xff0080ff, 0xff808000, 0xff808000
    .word 0xff808000, 0xff808000, 0xff0080ff, 0xff0080ff, 0xff808000, 0xff808000, 0xff0080ff, 0xff0080ff
    .word 0xff808000, 0xff808000, 0xff0080ff, 0xff0080ff, 0xff808000, 0xff808000, 0xff0080ff, 0xff0080ff
    .word 0xff0080ff, 0xff0080ff, 0xff808000, 0xff808000, 0xff0080ff, 0xff0080ff, 0xff808000, 0xff808000
    .word 0xff0080ff, 0xff0080ff, 0xff808000, 0xff808000, 0xff0080ff, 0xff0080ff, 0xff808000, 0xff808000
    .word 0xff808000, 0xff808000, 0xff0080ff, 0xff0080ff, 0xff808000, 0xff808000, 0xff0080ff, 0xff0080ff
    .word 0xff808000, 0xff808000, 0xff0080ff, 0xff0080ff, 0xff808000, 0xff808000, 0xff0080ff, 0xff0080ff
    inc 0, TSC_ADDRESS_HIGH, tsc >> 32, tsc & 0xffffffff, 15
    inc 0, TIC_ADDRESS_HIGH, tic >> 32, tic & 0xffffffff, 15
    # 3. the texture constant buffer: slot 2 of the fragment stage, 256 bytes
    mthd 0, TEX_CB_INDEX, 2
    oneinc 0, CALL_MME_MACRO(13), 0x100, cb >> 32, cb & 0xffffffff
    mthd 0, CB_POS, 0x20
    mthd 0, CB_DATA(0), (2 << 20) | 1
    # 4. vertex formats, stream 0, the render target, the draw
    inc 0, VERTEX_ATTRIB_FORMAT(0), 0x38400000, 0x38800600, 0x11400a00, 0x38200000, 0x38200000, 0x38200000, 0x38200000, 0x38200000, 0x38200000, 0x38200000, 0x38200000, 0x38200000, 0x38200000, 0x38200000, 0x38200000, 0x38200000
    inc 0, VERTEX_ARRAY_FETCH(0), 0x101c, vtx >> 32, vtx & 0xffffffff
    inc 0, VERTEX_ARRAY_LIMIT_HIGH(0), (vtx + 4 * 0x1c - 1) >> 32, (vtx + 4 * 0x1c - 1) & 0xffffffff
    inc 0, SET_COLOR_TARGET_A(0), rt >> 32, rt & 0xffffffff, 64, 64, 0xd5, 0x30, 1, 0
    mthd 0, RT_CONTROL, 0x1            # one target: RT 0
    inc 0, SET_SURFACE_CLIP_HORIZONTAL, 64 << 16, 64 << 16
    # 5. clear to (0.2, 0.4, 0.8, 1.0), then draw
    inc 0, SET_COLOR_CLEAR_VALUE(0), 0x3e4ccccd, 0x3ecccccd, 0x3f4ccccd, 0x3f800000
    mthd 0, CLEAR_SURFACE, 0x3c        # R G B A of RT 0, layer 0
    # a second clear inside scissor 0 (x 16..47, y 8..23) of only R and A to
    # (1.0, -, -, 0.5): those pixels become R=0xff G=0x66 B=0xcc A=0x80
    mthd 0, SET_CLEAR_SURFACE_CONTROL, 0x100   # USE_SCISSOR0
    inc 0, SET_SCISSOR_ENABLE(0), 1, (48 << 16) | 16, (24 << 16) | 8
    inc 0, SET_COLOR_CLEAR_VALUE(0), 0x3f800000, 0, 0, 0x3f000000
    mthd 0, CLEAR_SURFACE, 0x24        # R and A of RT 0, layer 0
    # the programs, the viewport, the draw (scissor off: the square is whole)
    mthd 0, SET_SCISSOR_ENABLE(0), 0
    inc 0, SET_PROGRAM_REGION_A, prog >> 32, prog & 0xffffffff
    inc 0, SET_PIPELINE_SHADER(1), 0x11, vs - prog
    inc 0, SET_PIPELINE_SHADER(5), 0x51, ps - prog
    mthd 0, SET_PIPELINE_REGISTER_COUNT(5), 8
    inc 0, SET_VIEWPORT_SCALE_X(0), 0x42000000, 0x42000000, 0x3f000000, 0x42000000, 0x42000000, 0x3f000000
    mthd 0, SET_VIEWPORT_SCALE_OFFSET, 1
    mthd 0, SET_CT_WRITE(0), 0x1111
    mthd 0, VERTEX_BEGIN_GL, 5         # TRIANGLE_STRIP
    mthd 0, VERTEX_BUFFER_FIRST, 0
    mthd 0, VERTEX_BUFFER_COUNT, 4
    mthd 0, VERTEX_END_GL, 0
    # the render target to pitch (256-byte lines, 64 lines, 8-GOB source blocks)
    inc 4, OFFSET_IN_UPPER, rt >> 32, rt & 0xffffffff, lin >> 32, lin & 0xffffffff, 0, 256, 256, 64
    inc 4, SET_SRC_BLOCK_SIZE, 0x1030, 256, 64, 1, 0, 0
    mthd 4, LAUNCH_DMA, 0x302          # NON_PIPELINED, SRC block linear, DST pitch, MULTI_LINE
    # the seed's fence: RELEASE, bit 4, unit 0xF, one word
    inc 0, QUERY_ADDRESS_HIGH, fence >> 32, fence & 0xffffffff, 1, 0x1000f010
end:

.submit start, end, fence=0
.wait 0
.expect32 fence, 1
.expect32 cb + 0x20, 0x00200001
.expect32 lin, 0xffcc6633              # the clear: A=255 B=0xcc G=0x66 R=0x33
.expect32 lin + 8 * 256 + 16 * 4, 0x80cc66ff   # (16, 8): inside the scissor
.expect32 lin + 8 * 256 + 48 * 4, 0xffcc6633   # (48, 8): the scissor's max is exclusive
.expect32 lin + 24 * 256 + 8 * 4, 0xffcc6633   # (8, 24): likewise
.expect32 lin + 16 * 256 + 16 * 4, 0xff808000  # (16, 16): texel (0, 7), teal
.expect32 lin + 16 * 256 + 24 * 4, 0xff0080ff  # (24, 16): texel (2, 7), orange
.expect32 lin + 47 * 256 + 16 * 4, 0xffffffff  # (16, 47): texel (0, 0), the white marker
.expect32 lin + 47 * 256 + 47 * 4, 0xff808000  # (47, 47): texel (7, 0), teal
.expect32 lin + 48 * 256 + 47 * 4, 0xffcc6633  # (47, 48): below the square, the clear
.png lin, 64, 64, 256, "rgba8888", "square_rt.png"
