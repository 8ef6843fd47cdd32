# Solid primitives to PNG: FERMI_TWOD_A fills rectangles, a triangle and a
# polyline in A8R8G8B8 colours on a 64x64 A8B8G8R8 pitch surface.
# Run:  cmdgpu run -f nv examples/nv/rects.s --out DIR
.buffer pb,  0x100000000, 0x1000
.buffer fb,  0x100100000, 0x4000
.section pb, pb
start:
    inc 3, SET_OBJECT, 0x902D
    inc 3, SET_DST_FORMAT, 0xD5, 1, 0, 1, 0, 256, 64, 64, fb >> 32, fb & 0xffffffff
    mthd 3, SET_OPERATION, 3
    inc 3, SET_RENDER_SOLID_PRIM_MODE, 4, 0xCF, 0xff202040          # RECTS, A8R8G8B8, background
    noninc 3, RENDER_SOLID_PRIM_POINT_X_Y, 0 | 0 << 16, 64 | 64 << 16
    mthd 3, SET_RENDER_SOLID_PRIM_COLOR, 0xffe04040
    noninc 3, RENDER_SOLID_PRIM_POINT_X_Y, 4 | 4 << 16, 28 | 20 << 16
    mthd 3, SET_RENDER_SOLID_PRIM_COLOR, 0xff40e040
    noninc 3, RENDER_SOLID_PRIM_POINT_X_Y, 36 | 4 << 16, 60 | 20 << 16
    inc 3, SET_RENDER_SOLID_PRIM_MODE, 3, 0xCF, 0xff4080ff          # TRIANGLES
    noninc 3, RENDER_SOLID_PRIM_POINT_X_Y, 8 | 60 << 16, 32 | 26 << 16, 56 | 60 << 16
    inc 3, SET_RENDER_SOLID_PRIM_MODE, 2, 0xCF, 0xffffffff          # POLYLINE
    noninc 3, RENDER_SOLID_PRIM_POINT_X_Y, 2 | 62 << 16, 2 | 24 << 16, 62 | 24 << 16, 62 | 62 << 16
end:
.submit start, end, fence=0
.wait 0
.expect32 fb + 256 * 10 + 4 * 10, 0xff4040e0    # red rect (bytes R G B A)
.expect32 fb + 256 * 10 + 4 * 40, 0xff40e040    # green rect
.expect32 fb + 256 * 50 + 4 * 32, 0xffff8040    # triangle
.expect32 fb + 256 * 30 + 4 * 2, 0xffffffff     # polyline
.expect32 fb, 0xff402020                        # background
.png fb, 64, 64, 256, "rgba8888", "rects.png"
