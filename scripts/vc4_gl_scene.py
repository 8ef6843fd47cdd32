#!/usr/bin/env python3
"""Generate examples/vc4/gl_cube.s and gl_textured.s: GL-shader-mode scenes (coordinate and
vertex shaders on the QPU, attributes through the VCD, depth test); and two
test scenes whose vertex shaders write memory: tests/data/vc4_gl_vdw.s,
gl_cube with such a vertex shader, and tests/data/vc4_gl_fence.s, where
such a shader in the first tile changes the vertices later tiles draw.

usage: scripts/vc4_gl_scene.py CMDGPU > examples/vc4/gl_cube.s
       scripts/vc4_gl_scene.py CMDGPU textured > examples/vc4/gl_textured.s
       scripts/vc4_gl_scene.py CMDGPU vdw > tests/data/vc4_gl_vdw.s
       scripts/vc4_gl_scene.py CMDGPU fence > tests/data/vc4_gl_fence.s

CMDGPU is a built `cmdgpu` binary: the QPU programs below are assembled with
`cmdgpu asm -f vc4-qpu` and written as .word lines with their text as
comments. The matrix and vertex values are computed here (plain float
arithmetic, printed with repr so the .s holds the exact single-precision
values the script chose)."""
import math, struct, subprocess, sys, tempfile, os

W = H = 256          # frame, pixels (4 x 4 tiles)
TILES = W // 64

VS = """ldi vr_setup, 0x00601a00
ldi vw_setup, 0x00001a00
mov ra0, vpm
mov ra1, vpm
mov ra2, vpm
mov ra3, vpm
mov ra4, vpm
mov ra5, vpm
{xform}
nop
mov sfu_recip, ra9
nop
nop
mov ra10, r4
fmul r0, ra6, unif
fmul r0, r0, ra10
ftoi ra11, r0
fmul r0, ra7, unif
fmul r0, r0, ra10
ftoi r1, r0
shl r0, ra11, -16
shr r0, r0, -16
shl r1, r1, -16
or vpm, r0, r1
fmul r0, ra8, unif
fmul r0, r0, ra10
fadd vpm, r0, unif
mov vpm, ra10
mov vpm, ra3
mov vpm, ra4
mov vpm, ra5{vdw}
nop;  thrend
nop
nop"""

# the vdw scene's vertex shader, after its outputs: DMA VPM row 0 (the packed
# Xs, Ys of the batch's lanes: VDW basic setup, 1 unit of 16 32-bit words,
# horizontal, Y 0) over the ground plane's first vertices (VERTS + 576), then
# wait for it; no VPM access in the last three instructions before thrend
VDW = """
ldi vw_setup, 0x80904000
ldi vw_addr, 0
mov -, vw_wait
nop
nop
nop"""

CS = """ldi vr_setup, 0x00301a00
ldi vw_setup, 0x00001a00
mov ra0, vpm
mov ra1, vpm
mov ra2, vpm
{xform}
nop
mov sfu_recip, ra9
mov vpm, ra6
mov vpm, ra7
mov ra10, r4
mov vpm, ra8
mov vpm, ra9
fmul r0, ra6, unif
fmul r0, r0, ra10
ftoi ra11, r0
fmul r0, ra7, unif
fmul r0, r0, ra10
ftoi r1, r0
shl r0, ra11, -16
shr r0, r0, -16
shl r1, r1, -16
or vpm, r0, r1
fmul r0, ra8, unif
fmul r0, r0, ra10
fadd vpm, r0, unif
mov vpm, ra10
nop;  thrend
nop
nop"""

# one clip coordinate per matrix row: ra6..ra9 = row . (x, y, z, 1)
XFORM = "\n".join(
    "fmul r0, ra0, unif\nfmul r1, ra1, unif\nfadd r0, r0, r1\nfmul r1, ra2, unif\n"
    "fadd r0, r0, r1\nfadd ra%d, r0, unif" % (6 + i) for i in range(4))

FS = """mov r0, vary
fadd r0, r0, r5
mov r1, vary
fadd r1, r1, r5
mov r2, vary
fadd r2, r2, r5
ldi r3, 0xff000000
fmul r3.8csf, r0, f1.0
fmul r3.8bsf, r1, f1.0
fmul r3.8asf, r2, f1.0
mov tlbz, rb15
mov tlbc, r3;  thrend
nop
nop"""


FS_TEX = """mov r0, vary
fadd r0, r0, r5
mov r1, vary
fadd r1, r1, r5
mov t0t, r1
mov t0s, r0
nop;  ldtmu0
mov tlbz, rb15
mov tlbc, r4;  thrend
nop
nop"""


def t_offset(x, y, w):
    """Byte of texel (x, y) in a 32-bpp T-format level w texels wide
    (padded to 32-texel tiles): Mesa vc4_tiling.c t_utile_address()."""
    tiles_x = (w + 31) // 32
    tx, ty = x // 32, y // 32
    tile = ty * tiles_x + (tiles_x - 1 - tx if ty & 1 else tx)
    sx, sy = (x // 16) & 1, (y // 16) & 1
    sub = ((2, 1, 3, 0) if ty & 1 else (0, 3, 1, 2))[sy * 2 + sx]
    ut = ((y // 4) & 3) * 4 + ((x // 4) & 3)
    return tile * 4096 + sub * 1024 + ut * 64 + ((y & 3) * 4 + (x & 3)) * 4


def lt_offset(x, y, w):
    """Byte of texel (x, y) in a 32-bpp LT level: 4x4 micro-tiles in raster
    order, the width padded to whole micro-tiles."""
    uw = (w + 3) // 4
    return ((y // 4) * uw + x // 4) * 64 + ((y & 3) * 4 + (x & 3)) * 4


def level_bytes(w, h, t):
    if t:
        return ((w + 31) // 32 * 32) * ((h + 31) // 32 * 32) * 4
    return ((w + 3) // 4 * 4) * ((h + 3) // 4 * 4) * 4


def bgra(c):
    """A texel whose r4 word is 0xAARRGGBB (the TLB's colour word): bytes B,
    G, R, A in memory, read by the TMU as R, G, B, A."""
    r, g, b = (max(0, min(255, int(round(x * 255)))) for x in c)
    return b | g << 8 | r << 16 | 0xFF << 24


def mip_texture(size, base):
    """A size x size RGBA8888 checkerboard and its box-filtered mip chain:
    (words by address, bytes below base, number of the last level)."""
    img = [[(1.0, 0.55, 0.1) if ((x // 8) + (y // 8)) & 1 else (0.95, 0.95, 0.9)
            for x in range(size)] for y in range(size)]
    levels = [img]
    while len(levels[-1]) > 1:
        p = levels[-1]
        n = len(p) // 2
        levels.append([[tuple(sum(p[2 * y + dy][2 * x + dx][c] for dy in (0, 1) for dx in (0, 1))
                               / 4 for c in range(3)) for x in range(n)] for y in range(n)])
    mem = {}
    off = base
    for i, lv in enumerate(levels):
        n = len(lv)
        tformat = not (n <= 16 or n <= 16)   # size_is_lt: 4 micro-tiles of 4 texels
        if i > 0:
            off -= level_bytes(n, n, tformat)
        for y in range(n):
            for x in range(n):
                a = off + (t_offset(x, y, n) if tformat else lt_offset(x, y, n))
                mem[a] = bgra(lv[y][x])
    return mem, base - off, len(levels) - 1


def raster_texture(size):
    """A size x size RGBA32R (raster) texture: rows of size texels."""
    words = []
    for y in range(size):
        for x in range(size):
            d = math.hypot(x - size / 2 + 0.5, y - size / 2 + 0.5)
            ring = (int(d) // 3) & 1
            words.append(bgra((0.2, 0.45 + 0.3 * ring, 0.35 + 0.5 * ring)))
    return words


def qpu(cmdgpu, text):
    with tempfile.TemporaryDirectory() as d:
        src, out = os.path.join(d, "p.s"), os.path.join(d, "p.bin")
        with open(src, "w") as f:
            f.write(text + "\n")
        subprocess.run([cmdgpu, "asm", "-f", "vc4-qpu", src, "-o", out], check=True)
        data = open(out, "rb").read()
    lines = text.split("\n")
    assert len(data) == 8 * len(lines)
    res = []
    for i, l in enumerate(lines):
        lo, hi = struct.unpack_from("<II", data, 8 * i)
        res.append("     .word 0x%08x, 0x%08x    // %s" % (lo, hi, l))
    return "\n".join(res)


def f32(x):
    return struct.unpack("<f", struct.pack("<f", x))[0]


def matmul(a, b):
    return [[sum(a[i][k] * b[k][j] for k in range(4)) for j in range(4)] for i in range(4)]


TEX0 = 0x00203000   # level 0 of the mipmapped T-format texture (4 KiB aligned)
TEX1 = 0x00210000   # the raster texture


def bin_head(o, depth):
    """The binning list up to its draws: the tile state for TILES x TILES
    tiles, the clip window and the viewport over the frame, both faces
    drawn with the depth test and Z updates `depth`."""
    o(".section text, 0x00010000")
    o("BIN:")
    o("     Tile_Binning_Mode_Configuration 0x00400000, 0x8000, 0x00500000, %d, %d, "
      "Auto_Init_Tile_State_Data" % (TILES, TILES))
    o("     Start_Tile_Binning")
    o("     Increment_Semaphore")
    o("     Clip_Window 0, 0, %d, %d" % (W, H))
    o("     Configuration_Bits Enable_Forward_Facing_Primitive + "
      "Enable_Reverse_Facing_Primitive, " + depth)
    o("     Viewport_Offset %d, %d    // the frame's centre, 12.4" % (W / 2 * 16, H / 2 * 16))


def render_list(o):
    """The binning list's end and the render list: clear, then each tile's
    list from the binner's tile allocation, stored multisample-resolved
    (the last with end of frame)."""
    o("     Flush")
    o("BIN_END:")
    o("REND:")
    o("     Wait_On_Semaphore")
    o("     Clear_Colors 0xFF202830, 0xFFFFFF, 0, 0")
    o("     Tile_Rendering_Mode_Configuration 0x00100000, %d, %d, "
      "Frame_Buffer_Color_Format_RGBA8888" % (W, H))
    o("     Tile_Coordinates 0, 0")
    o("     Store_Tile_Buffer_General 0, 0, 0")
    for y in range(TILES):
        for x in range(TILES):
            o("     Tile_Coordinates %d, %d" % (x, y))
            o("     Branch_To_Sub_List 0x%08x" % (0x400000 + (y * TILES + x) * 32))
            last = x == TILES - 1 and y == TILES - 1
            o("     Store_Multi_Sample%s" % ("_End" if last else ""))
    o("REND_END:")
    o("")


def run_scene(o, name):
    """The scene's directives: both lists kicked, both frame counts waited
    for, the frame written to name.png."""
    o("")
    o("// ---- the scene ----")
    o(".kick 0, BIN, BIN_END")
    o(".kick 1, REND, REND_END")
    o(".wait bfc, 1")
    o(".wait rfc, 1")
    o(".png \"%s.png\", 0x00100000, %d, %d, %d, 32" % (name, W, H, W * 4))


def vs_vdw(cmdgpu, addr):
    """The vertex shader with the VDW (VS + VDW), its DMA address the
    scene's symbol addr: the ldi's low word."""
    code = qpu(cmdgpu, VS.format(xform=XFORM, vdw=VDW))
    zero = ".word 0x00000000,"
    at = code.index(zero, code.index("ldi vw_setup"))
    return (code[:at] + ".word %s," % addr + code[at + len(zero):]).replace(
        "// ldi vw_addr, 0", "// ldi vw_addr, " + addr)


# the fence scene's work before its VDW: this many copies of a square that
# covers tile (0, 0) alone
FENCE_COPIES = 48


def fence_scene(cmdgpu):
    """tests/data/vc4_gl_fence.s: three GL draws through an identity matrix
    (x, y in -1..1 across the frame, y up). Tile (0, 0) holds FENCE_COPIES
    squares (draw C), then a small triangle whose vertex shader DMAs VPM row
    0 over the vertices of draw B (draw A); B is a triangle over tiles of
    columns 1-3 only, so the list draws it after A's write."""
    unif = [1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0]
    unif += [W / 2 * 16.0, -H / 2 * 16.0, 0.5, 0.5]
    e = -0.52    # tile (0, 0)'s inner edge, short of pixel 64 (x = -0.5)
    draws = [
        ("C", [[-1.0, 1.0, 0.5, 0.9, 0.5, 0.2], [e, 1.0, 0.5, 0.9, 0.6, 0.2],
               [-1.0, -e, 0.5, 0.8, 0.5, 0.3], [e, -e, 0.5, 0.7, 0.4, 0.2]],
         [0, 1, 2, 2, 1, 3] * FENCE_COPIES),
        ("A", [[-0.9, 0.9, 0.4, 1.0, 1.0, 1.0], [-0.7, 0.9, 0.4, 1.0, 1.0, 1.0],
               [-0.9, 0.7, 0.4, 1.0, 1.0, 1.0]], [0, 1, 2]),
        ("B", [[-0.45, 0.95, 0.5, 0.2, 0.4, 1.0], [0.95, 0.95, 0.5, 0.2, 0.9, 0.4],
               [0.95, -0.95, 0.5, 1.0, 0.3, 0.3]], [0, 1, 2]),
    ]
    out = []
    o = out.append
    o("// GENERATED by scripts/vc4_gl_scene.py CMDGPU fence (see docs/vc4.md \"GL shader mode\"):")
    o("// a vertex shader that writes memory in the first tile, and a later")
    o("// tile that draws what it writes. Three GL draws through an identity")
    o("// matrix, no depth test: C, %d copies of a square over tile (0, 0) alone;" % FENCE_COPIES)
    o("// A, a small white triangle there whose vertex shader (gl_cube's, then")
    o("// a VDW of VPM row 0, the packed screen X, Y of its lanes) writes 64")
    o("// bytes over the vertices of B; B, a triangle over tiles of columns 1-3.")
    o("// The binner placed B by its vertices as loaded; when the render thread")
    o("// reaches B's tiles, A has overwritten them (the first far off, the other")
    o("// two both at 0, 0, 0: no area), so B draws nothing. The tile pool's")
    o("// workers render B's tiles while the render thread is still on C; A's")
    o("// write first stops them (vc4_pool_fence), so no tile rendered from the")
    o("// old vertices is taken")
    o("// (test_vc4_pool scene_examples checks the pixels, the tiles taken and")
    o("// the words below). %dx%d, RGBA8888 at 0x00100000." % (W, H))
    o("//   cmdgpu run -f vc4 tests/data/vc4_gl_fence.s -o gl_fence.png")
    bin_head(o, "Depth_Test_Function_Always")
    for nm, verts, idx in draws:
        o("     GL_Shader_State GL_%s, 2" % nm)
        o("     Indexed_Primitive_List Index_Type_16 + Mode_Triangles, %d, IDX_%s, %d"
          % (len(idx), nm, len(verts) - 1))
    render_list(o)
    for nm, _, _ in draws:
        o(".align 16")
        o("GL_%s:  // flags: FS single-threaded, clipping enabled; FS varyings 3" % nm)
        o("     .byte 5, 0, 0, 3")
        o("     .word FS, 0")
        o("     .half 0")
        o("     .byte 3, 24    // VS: attributes 0 and 1, 24 bytes")
        o("     .word %s, UNIF" % ("VS_VDW" if nm == "A" else "VS"))
        o("     .half 0")
        o("     .byte 1, 12    // CS: attribute 0, 12 bytes")
        o("     .word CS, UNIF")
        o("     .word VERTS_" + nm)
        o("     .byte 11, 24, 0, 0     // position: 12 bytes, stride 24, VPM rows 0-2")
        o("     .word VERTS_%s + 12" % nm)
        o("     .byte 11, 24, 12, 0    // colour: 12 bytes, VS VPM rows 3-5")
    o(".align 16")
    o("UNIF:  // the identity matrix row by row, then Xs, Ys scale (1/16 pixel), Zs scale, offset")
    for i in range(0, len(unif), 4):
        o("     .float " + ", ".join(repr(x) for x in unif[i:i + 4]))
    for nm, verts, idx in draws:
        o(".align 16")
        o("VERTS_%s:  // x, y, z, r, g, b" % nm)
        for vv in verts:
            o("     .float " + ", ".join(repr(f32(x)) for x in vv))
        o("IDX_%s:" % nm)
        for i in range(0, len(idx), 6):
            o("     .half " + ", ".join(str(x) for x in idx[i:i + 6]))
    for nm, code in (("VS", qpu(cmdgpu, VS.format(xform=XFORM, vdw=""))),
                     ("VS_VDW", vs_vdw(cmdgpu, "VERTS_B")),
                     ("CS", qpu(cmdgpu, CS.format(xform=XFORM))), ("FS", qpu(cmdgpu, FS))):
        o(".align 16")
        o(nm + ":")
        o(code)
    run_scene(o, "gl_fence")
    # the words one render thread leaves there: A's three lanes' packed
    # screen X, Y (-0.9 and -0.7 at 128 pixels a unit, 12.4), then zeros
    o(".dump VERTS_B, 64")
    for i, w in enumerate((0xf8cdf8cd, 0xf8cdfa67, 0xfa67f8cd, 0)):
        o(".expect32 VERTS_B + %d, 0x%08x" % (4 * i, w))
    return out


def main():
    cmdgpu = sys.argv[1]
    mode = sys.argv[2] if len(sys.argv) > 2 else ""
    if mode == "fence":
        print("\n".join(fence_scene(cmdgpu)))
        return
    textured, vdw = mode == "textured", mode == "vdw"
    name = "gl_textured" if textured else "gl_vdw" if vdw else "gl_cube"
    ax, ay = math.radians(25.0), math.radians(35.0)
    rx = [[1, 0, 0, 0], [0, math.cos(ax), -math.sin(ax), 0], [0, math.sin(ax), math.cos(ax), 0],
          [0, 0, 0, 1]]
    ry = [[math.cos(ay), 0, math.sin(ay), 0], [0, 1, 0, 0], [-math.sin(ay), 0, math.cos(ay), 0],
          [0, 0, 0, 1]]
    view = [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, -5.0], [0, 0, 0, 1]]
    n, fa, fov = 1.0, 10.0, math.radians(45.0)
    t = 1.0 / math.tan(fov / 2)
    proj = [[t, 0, 0, 0], [0, t, 0, 0], [0, 0, (fa + n) / (n - fa), 2 * fa * n / (n - fa)],
            [0, 0, -1, 0]]
    mvp = matmul(proj, matmul(view, matmul(rx, ry)))
    unif = [f32(mvp[i][j]) for i in range(4) for j in range(4)]
    unif += [W / 2 * 16.0, -H / 2 * 16.0, 0.5, 0.5]  # Xs, Ys scale; Zs scale, offset

    # cube: 6 faces x 4 corners, per-face colours shaded by corner (or
    # texture coordinates 0..2: the checkerboard repeats twice per face)
    faces = [((1, 0, 0), (0, 1, 0), (0, 0, 1), (1.0, 0.25, 0.2)),
             ((-1, 0, 0), (0, 1, 0), (0, 0, 1), (0.2, 0.8, 0.3)),
             ((0, 1, 0), (1, 0, 0), (0, 0, 1), (0.25, 0.45, 1.0)),
             ((0, -1, 0), (1, 0, 0), (0, 0, 1), (1.0, 0.85, 0.2)),
             ((0, 0, 1), (1, 0, 0), (0, 1, 0), (0.9, 0.3, 0.9)),
             ((0, 0, -1), (1, 0, 0), (0, 1, 0), (0.2, 0.9, 0.9))]
    corners = ((-1, -1), (1, -1), (-1, 1), (1, 1))
    verts, idx = [], []
    for nrm, u, v, col in faces:
        base = len(verts)
        for k, (su, sv) in enumerate(corners):
            p = [nrm[i] + su * u[i] + sv * v[i] for i in range(3)]
            if textured:
                verts.append(p + [su + 1.0, sv + 1.0, 0.0])
            else:
                shade = 0.55 + 0.15 * k
                verts.append(p + [min(1.0, c * shade) for c in col])
        idx += [base, base + 1, base + 2, base + 2, base + 1, base + 3]
    # a ground plane through the cube (y = -0.3): the depth test cuts the
    # cube where the plane passes through it
    base = len(verts)
    for k, (x, z) in enumerate(((-2.2, -2.2), (2.2, -2.2), (-2.2, 2.2), (2.2, 2.2))):
        if textured:
            verts.append([x, -0.3, z, (x + 2.2) / 4.4, (z + 2.2) / 4.4, 0.0])
        else:
            g = 0.35 + 0.2 * k
            verts.append([x, -0.3, z, g, g, g])
    pidx = [base, base + 1, base + 2, base + 2, base + 1, base + 3]
    if not textured:
        idx += pidx
    nverts = len(verts)

    out = []
    o = out.append
    o("// GENERATED by scripts/vc4_gl_scene.py%s (see docs/vc4.md \"GL shader mode\"):"
      % (" CMDGPU " + mode if mode else ""))
    if vdw:
        o("// examples/vc4/gl_cube.s with a vertex shader that also writes memory:")
        o("// after its VPM outputs it DMAs VPM row 0 (the packed screen X, Y of the")
        o("// batch's lanes) with a VDW over the ground plane's first vertices")
        o("// (VERTS + 576), in every batch of every tile, so later batches shade")
        o("// what earlier ones wrote: the ground is gone. The tile pool's workers")
        o("// must not run it ahead of the render thread (their bus is read-only:")
        o("// the VDW faults there and the segment has no result); with any number")
        o("// of render threads the tiles render as with one, in list order")
        o("// (test_vc4_pool scene_examples checks the pixels and the words below).")
        o("// As gl_cube:")
    o("// a cube and a ground plane through it, drawn in GL shader mode. Each")
    o("// vertex is a model position (x, y, z) and %s; the"
      % ("texture coordinates (s, t, unused)" if textured else "a colour (r, g, b)"))
    o("// coordinate shader (binner) and the vertex shader (renderer) multiply")
    o("// the position by a model-view-projection matrix from their uniforms")
    o("// (rotate X 25 deg * rotate Y 35 deg, move 5 back, 45 deg perspective,")
    o("// near 1, far 10), divide by Wc (SFU recip) and write the shaded vertex")
    o("// Mesa's emit_coord_end / emit_vert_end write; the fragment shader")
    if textured:
        o("// samples a texture through TMU0 (t then s; P0, P1 from its uniforms)")
        o("// and writes Z: the cube has a 64x64 RGBA8888 T-format checkerboard with")
        o("// its 6 mip levels below it (linear, mip-linear, repeat), the plane a")
        o("// 32x32 RGBA32R raster texture (nearest, repeat). The depth test (LT)")
        o("// hides what lies behind. %dx%d, RGBA8888 at 0x00100000." % (W, H))
    else:
        o("// packs the interpolated colour and writes Z: the depth test (LT) hides")
        o("// what lies behind. %dx%d, RGBA8888 at 0x00100000." % (W, H))
    where = ("tests/data", "vc4_gl_vdw") if vdw else ("examples/vc4", name)
    o("//   cmdgpu run -f vc4 %s/%s.s -o %s.png" % (where + (name,)))
    bin_head(o, "Depth_Test_Function_LT + Z_Updates_Enable")
    o("     GL_Shader_State GL_REC, 2")
    o("     Indexed_Primitive_List Index_Type_16 + Mode_Triangles, %d, IDX, %d"
      % (len(idx), nverts - 1))
    if textured:
        o("     GL_Shader_State GL_REC1, 2")
        o("     Indexed_Primitive_List Index_Type_16 + Mode_Triangles, %d, IDX1, %d"
          % (len(pidx), nverts - 1))
    render_list(o)
    recs = [("GL_REC", "FS_UNIF0" if textured else "0")]
    if textured:
        recs.append(("GL_REC1", "FS_UNIF1"))
    for rec, fsu in recs:
        o(".align 16")
        o(rec + ":  // flags: FS single-threaded, clipping enabled; FS varyings 3")
        o("     .byte 5, 0, 0, 3")
        o("     .word FS, " + fsu)
        o("     .half 0")
        o("     .byte 3, 24    // VS: attributes 0 and 1, 24 bytes")
        o("     .word VS, UNIF")
        o("     .half 0")
        o("     .byte 1, 12    // CS: attribute 0, 12 bytes")
        o("     .word CS, UNIF")
        o("     .word VERTS")
        o("     .byte 11, 24, 0, 0     // position: 12 bytes, stride 24, VPM rows 0-2")
        o("     .word VERTS + 12")
        o("     .byte 11, 24, 12, 0    // %s: 12 bytes, VS VPM rows 3-5"
          % ("s, t" if textured else "colour"))
    o(".align 16")
    o("UNIF:  // the matrix row by row, then Xs, Ys scale (1/16 pixel), Zs scale, offset")
    for i in range(0, len(unif), 4):
        o("     .float " + ", ".join(repr(x) for x in unif[i:i + 4]))
    if textured:
        mem, below, last = mip_texture(64, TEX0)
        # p0: base | type 0 (RGBA8888) | last mip level; p1: 64x64,
        # magfilt linear, minfilt lin_mip_lin (5), wrap repeat
        o("FS_UNIF0:  // P0, P1 of the T-format texture")
        o("     .word 0x%08x, 0x%08x" % (TEX0 | last, 64 << 20 | 64 << 8 | 5 << 4))
        # RGBA32R is type 16: type bits 3:0 = 0 in p0, bit 4 in p1 bit 31;
        # magfilt nearest (1 << 7), minfilt nearest (1 << 4), repeat
        o("FS_UNIF1:  // P0, P1 of the raster texture (RGBA32R: type bit 4 in P1)")
        o("     .word 0x%08x, 0x%08x" % (TEX1, 1 << 31 | 32 << 20 | 32 << 8 | 1 << 7 | 1 << 4))
    o(".align 16")
    o("VERTS:  // x, y, z, %s" % ("s, t, 0" if textured else "r, g, b"))
    for vv in verts:
        o("     .float " + ", ".join(repr(f32(x)) for x in vv))
    o(".align 16")
    o("IDX:")
    for i in range(0, len(idx), 6):
        o("     .half " + ", ".join(str(x) for x in idx[i:i + 6]))
    if textured:
        o("IDX1:")
        o("     .half " + ", ".join(str(x) for x in pidx))
    for nm, text in (("VS", VS.format(xform=XFORM, vdw=VDW if vdw else "")),
                     ("CS", CS.format(xform=XFORM)), ("FS", FS_TEX if textured else FS)):
        o(".align 16")
        o(nm + ":")
        # the DMA's address is the scene's symbol
        o(vs_vdw(cmdgpu, "VERTS + 576") if vdw and nm == "VS" else qpu(cmdgpu, text))
    if textured:
        o("")
        o(".section tex0, 0x%08x  // mip levels 6..1 (smallest first), then level 0"
          % (TEX0 - below))
        addrs = sorted(mem)
        assert addrs[0] == TEX0 - below and addrs[-1] == TEX0 + 64 * 64 * 4 - 4
        words = [mem.get(a, 0) for a in range(TEX0 - below, TEX0 + 64 * 64 * 4, 4)]
        for i in range(0, len(words), 8):
            o("     .word " + ", ".join("0x%08x" % w for w in words[i:i + 8]))
        o(".section tex1, 0x%08x  // 32x32 raster, rows of 32 texels" % TEX1)
        words = raster_texture(32)
        for i in range(0, len(words), 8):
            o("     .word " + ", ".join("0x%08x" % w for w in words[i:i + 8]))
    run_scene(o, name)
    if vdw:
        # the words one render thread leaves there (the last batch's row 0,
        # as the model batches vertices: docs/vc4.md "GL shader mode")
        o(".dump VERTS + 576, 64")
        for i, w in enumerate((0, 0, 0x02150cc2, 0)):
            o(".expect32 VERTS + %d, 0x%08x" % (576 + 4 * i, w))
    print("\n".join(out))


if __name__ == "__main__":
    main()
