/* vc4 GL shader mode (src/vc4/gpu/gl.c, clip.c): GL shader records and
 * attribute records, the VCD's fetch into the VPM, coordinate shaders in the
 * binner, vertex shaders in the renderer, the shaded-vertex formats of Mesa's
 * emit_coord_end / emit_vert_end, the clipper's discard, and faults.
 *
 * The shaders here are written in the QPU syntax of docs/vc4-qpu.md and
 * assembled at run time. The reference for the pixels is the interpolation
 * the renderer documents (docs/vc4.md "Renderer"), computed here from the
 * vertex values the shaders pass on, and the same scene in NV shader mode
 * (whose shaded vertices are the vertex shader's outputs, byte for byte). */
#include <math.h>
#include <stdlib.h>
#include "check.h"
#include "vc4_testenv.h"
#include "cmdgpu/cmdgpu.h"
#include "cmdgpu/vc4_qpu.h"

/* Assemble `src` (instructions separated by '\n') to bus address addr. */
static uint32_t put_qpu(cg_vc4 *v, uint32_t addr, const char *src)
{
    char line[256], err[256];
    uint32_t a = addr;
    while (*src) {
        size_t n = strcspn(src, "\n");
        snprintf(line, sizeof line, "%.*s", (int)n, src);
        src += n + (src[n] == '\n');
        uint64_t ins = 0;
        int rc = cg_vc4_qpu_asm(line, a, &ins, err, sizeof err);
        CHECK_EQ(rc, 0);
        if (rc)
            fprintf(stderr, "%s: %s\n", line, err);
        uint32_t w[2] = {(uint32_t)ins, (uint32_t)(ins >> 32)};
        cg_vc4_cpu_write(v, a, w, 8);
        a += 8;
    }
    return a;
}

/* Copy shaders: read N rows of the VPM (horizontal 32-bit, stride 1, from
 * row 0: Mesa's 0x00001a00 | N << 20) and write the first M of them back
 * from row 0 (write setup 0x00001a00). */
static void put_copy_shader(cg_vc4 *v, uint32_t addr, unsigned nread, unsigned nwrite)
{
    char src[2048];
    int k = snprintf(src, sizeof src, "ldi vr_setup, 0x%08x\nldi vw_setup, 0x00001a00\n",
                     0x00001a00u | (nread & 15) << 20);
    for (unsigned i = 0; i < nread; i++)
        k += snprintf(src + k, sizeof src - (size_t)k, i < nwrite ? "mov r0, vpm\nmov vpm, r0\n"
                                                                  : "mov r0, vpm\n");
    snprintf(src + k, sizeof src - (size_t)k, "thrend\nnop\nnop");
    put_qpu(v, addr, src);
}

/* The fragment shader: the colour word is the varying's float bits (as
 * tests/test_vc4_render.c). r5 receives the varying's C value at the end of
 * the reading instruction (docs/vc4-qpu.md), so the add comes after. */
static const char fs_vary[] = "mov r0, vary\nfadd tlbc, r0, r5\nthrend\nnop\nnop";

/* One 64x64 tile; STATE (shader state and primitives) is spliced in. */
static const char *frame =
    ".section t, 0x10000\n"
    "BIN: Tile_Binning_Mode_Configuration 0x400000, 0x1000, 0x500000, 1, 1, "
    "Auto_Init_Tile_State_Data\n"
    "Start_Tile_Binning\nIncrement_Semaphore\nClip_Window 0, 0, 64, 64\n"
    "Viewport_Offset 0, 0\nConfiguration_Bits 3, 0\n"
    "%s\nFlush\nBIN_END:\n"
    "REND: Wait_On_Semaphore\nClear_Colors 0xFF000000, 0xFFFFFF, 0, 0\n"
    "Tile_Rendering_Mode_Configuration 0x100000, 64, 64, Frame_Buffer_Color_Format_RGBA8888\n"
    "Tile_Coordinates 0, 0\nStore_Tile_Buffer_General 0, 0, 0\n"
    "Tile_Coordinates 0, 0\nBranch_To_Sub_List 0x400000\nStore_Multi_Sample_End\n"
    "REND_END:\n";

#define FS_ADDR 0x30000u
#define CS_ADDR 0x30100u
#define VS_ADDR 0x30200u

/* Run a frame; returns the hard faults. */
static size_t run_frame(cg_device *dev, cg_vc4 *v, const char *state, const char *data,
                        bool print)
{
    char src[8192];
    snprintf(src, sizeof src, frame, state);
    strcat(src, data);
    put_qpu(v, FS_ADDR, fs_vary);
    size_t before = cg_fault_count(dev);
    cg_asm *as = load(v, src);
    kick(v, 0, sym(as, "BIN"), sym(as, "BIN_END"));
    kick(v, 1, sym(as, "REND"), sym(as, "REND_END"));
    cg_vc4_wait_idle(v);
    cg_asm_destroy(as);
    return vc4_hard_faults(dev, before, print);
}

static void read_fb(cg_vc4 *v, uint32_t *px)
{
    for (int i = 0; i < 64 * 64; i++)
        cg_vc4_cpu_read32(v, 0x100000 + (uint32_t)i * 4, &px[i]);
}

/* The GL record of the tests: FS varyings 1, the CS reads attributes 0 and
 * 1 (rows 0-3 clip coordinates, rows 4-7 Xs|Ys, Zs, 1/Wc, varying) and
 * writes rows 0-6; the VS reads attribute 1 at row 0 and writes rows 0-3. */
#define GL_RECORD(flags, nattr)                                                          \
    ".align 16\nGL: .byte " flags ", 0, 0, 1\n.word 0x30000, 0\n"                        \
    ".half 0\n.byte 2, 16\n.word 0x30200, 0\n"                                           \
    ".half 0\n.byte 3, 32\n.word 0x30100, 0\n"                                           \
    ".word CLIPC\n.byte 15, 16, 0, 0\n"                                                  \
    ".word SHADED\n.byte 15, 16, 0, 16\n"

/* the vertices of tests/test_vc4_render.c test_varyings */
static const char shaded_data[] =
    ".align 16\nSHADED: .half 0, 0\n.float 0.5, 1.0, 0.0\n"
    ".half 64*16, 0\n.float 0.5, 0.5, 1.0\n"
    ".half 0, 64*16\n.float 0.5, 0.25, 2.0\n"
    ".align 16\nCLIPC: .float 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1\n";

static void test_gl_equals_nv(void)
{
    cg_device *dev;
    cg_vc4 *v;
    CHECK_EQ(cg_device_create(&dev), 0);
    CHECK_EQ(cg_vc4_create(dev, NULL, &v), 0);
    put_copy_shader(v, CS_ADDR, 8, 7);
    put_copy_shader(v, VS_ADDR, 4, 4);
    char data[2048];
    snprintf(data, sizeof data, "%s%s", GL_RECORD("1", 2), shaded_data);
    CHECK_EQ(run_frame(dev, v, "GL_Shader_State GL, 2\nVertex_Array_Primitives 4, 3, 0", data,
                       true), 0);
    static uint32_t gl[64 * 64], nv[64 * 64];
    read_fb(v, gl);
    /* the reference formula (docs/vc4.md): barycentrics from the 12.4 edge
     * functions, W = 1 / sum(w_i / W_i), V = W * sum(w_i (V_i - V_0) / W_i) + V_0 */
    int checked = 0, bad = 0;
    for (int y = 0; y < 64; y++)
        for (int x = 0; x < 64; x++) {
            uint32_t px = gl[y * 64 + x];
            long sx = x * 16 + 8, sy = y * 16 + 8;
            long e1 = sx * 1024, e2 = sy * 1024, area = 1024L * 1024;
            long e0 = area - e1 - e2;
            bool in = e0 > 0 && e1 >= 0 && e2 >= 0;
            if (!in) {
                bad += px != 0xFF000000;
                continue;
            }
            double ia = 1.0 / (double)area;
            double w0 = (double)e0 * ia, w1 = (double)e1 * ia, w2 = (double)e2 * ia;
            double q = w0 * 1.0 + w1 * 0.5 + w2 * 0.25;
            float want = (float)((1.0 / q) * (w1 * 1.0 * 0.5 + w2 * 2.0 * 0.25));
            uint32_t wb;
            memcpy(&wb, &want, 4);
            bad += px != wb;
            checked++;
        }
    CHECK_EQ(bad, 0);
    CHECK_EQ(checked, 64 * 63 / 2);
    /* the same vertices as an NV shaded vertex array */
    CHECK_EQ(run_frame(dev, v, "NV_Shader_State NV\nVertex_Array_Primitives 4, 3, 0",
                       ".align 16\nNV: .byte 0, 16, 0, 1\n.word 0x30000, 0, SHADED\n"
                       ".align 16\nSHADED: .half 0, 0\n.float 0.5, 1.0, 0.0\n"
                       ".half 64*16, 0\n.float 0.5, 0.5, 1.0\n"
                       ".half 0, 64*16\n.float 0.5, 0.25, 2.0\n", true), 0);
    read_fb(v, nv);
    CHECK(memcmp(gl, nv, sizeof gl) == 0);
    cg_vc4_destroy(v);
    cg_device_destroy(dev);
}

/* Indexed lists reuse shaded vertices; the extended record's stride bits;
 * clipping enabled: a triangle outside Xc <= Wc is discarded, one inside
 * drawn. */
static void test_gl_indexed_clip(void)
{
    cg_device *dev;
    cg_vc4 *v;
    CHECK_EQ(cg_device_create(&dev), 0);
    CHECK_EQ(cg_vc4_create(dev, NULL, &v), 0);
    put_copy_shader(v, CS_ADDR, 8, 7);
    put_copy_shader(v, VS_ADDR, 4, 4);
    /* vertices 0-3: a quad covering the tile as two triangles (0,1,2) and
     * (2,1,3), varying 1.0 (colour word 0x3F800000); vertices 4-6: a
     * triangle with clip X > W at every vertex (discarded), varying 2.0.
     * Extended record (GL_Shader_State bit 3): each attribute's stride is
     * 16 | (word & ~0xFF) = 16 + 256 = 272 bytes, so vertex i is at
     * base + 272 * i. */
    const char *state =
        "GL_Shader_State GLX, 8 + 2\n"
        "Indexed_Primitive_List Index_Type_16 + Mode_Triangles, 9, IDX, 6";
    char data[8192];
    int k = snprintf(data, sizeof data,
                     ".align 16\nGLX: .byte 5, 0, 0, 1\n.word 0x30000, 0\n"
                     ".half 0\n.byte 2, 16\n.word 0x30200, 0\n"
                     ".half 0\n.byte 3, 32\n.word 0x30100, 0\n"
                     ".word CLIPC\n.byte 15, 16, 0, 0\n"
                     ".word SHADED\n.byte 15, 16, 0, 16\n"
                     ".org GLX + 100\n.word 0x100, 0x100\n"
                     ".align 16\nIDX: .half 0, 1, 2, 2, 1, 3, 4, 5, 6\n");
    static const int xy[7][2] = {{0, 0}, {64, 0}, {0, 64}, {64, 64}, {0, 0}, {64, 0}, {0, 64}};
    k += snprintf(data + k, sizeof data - (size_t)k, ".align 16\nSHADED:\n");
    for (int i = 0; i < 7; i++)
        k += snprintf(data + k, sizeof data - (size_t)k,
                      ".org SHADED + %d\n.half %d, %d\n.float 0.5, 1.0, %s\n", 272 * i,
                      xy[i][0] * 16, xy[i][1] * 16, i < 4 ? "1.0" : "2.0");
    k += snprintf(data + k, sizeof data - (size_t)k, ".align 16\nCLIPC:\n");
    for (int i = 0; i < 7; i++)
        k += snprintf(data + k, sizeof data - (size_t)k, ".org CLIPC + %d\n.float %s, 0, 0, 1\n",
                      272 * i, i < 4 ? "0" : "2");
    CHECK_EQ(run_frame(dev, v, state, data, true), 0);
    static uint32_t px[64 * 64];
    read_fb(v, px);
    int ones = 0;
    for (int i = 0; i < 64 * 64; i++)
        ones += px[i] == 0x3F800000;
    CHECK_EQ(ones, 64 * 64);
    if (ones != 64 * 64)
        fprintf(stderr, "px[0] 0x%08x px[2080] 0x%08x\n", px[0], px[2080]);
    /* the discarded triangle reached no tile list: one tile, 2 entries */
    cg_vc4_stats st;
    cg_vc4_get_stats(v, &st);
    CHECK_EQ(st.tile_prims, 2);
    cg_vc4_destroy(v);
    cg_device_destroy(dev);
}

/* Faults: a triangle crossing the near plane needs the clipper's scaling
 * (Clipper_XY_Scaling, Clipper_Z_Scale_and_Offset): without them the
 * binner stops with a bad-state fault; the thread resets and the next
 * frame renders. */
static void test_gl_faults(void)
{
    cg_device *dev;
    cg_vc4 *v;
    CHECK_EQ(cg_device_create(&dev), 0);
    CHECK_EQ(cg_vc4_create(dev, NULL, &v), 0);
    put_copy_shader(v, CS_ADDR, 8, 7);
    put_copy_shader(v, VS_ADDR, 4, 4);
    char data[2048];
    snprintf(data, sizeof data, "%s%s", GL_RECORD("5", 2),
             ".align 16\nSHADED: .half 0, 0\n.float 0.5, 1.0, 0.0\n"
             ".half 64*16, 0\n.float 0.5, 0.5, 1.0\n"
             ".half 0, 64*16\n.float 0.5, 0.25, 2.0\n"
             ".align 16\nCLIPC: .float 0, 0, -2, 1, 0, 0, 0, 1, 0, 0, 0, 1\n");
    CHECK_EQ(run_frame(dev, v, "GL_Shader_State GL, 2\nVertex_Array_Primitives 4, 3, 0", data,
                       false), 2);
    /* the binner's fault, then the watchdog ends the render thread, which
     * waits for a Flush that never came */
    const cg_fault *f = cg_fault_get(dev, cg_fault_count(dev) - 2);
    CHECK_EQ(f->kind, CG_FAULT_BAD_STATE);
    CHECK_STR(f->message, "triangle 0 crosses the near or far plane: clipping needs "
                          "Clipper_XY_Scaling and Clipper_Z_Scale_and_Offset first");
    /* reset both threads; the same scene with the vertex inside renders */
    cg_vc4_reg_write(v, CG_VC4_CT0CS, 0x8000);
    cg_vc4_reg_write(v, CG_VC4_CT1CS, 0x8000);
    snprintf(data, sizeof data, "%s%s", GL_RECORD("5", 2), shaded_data);
    CHECK_EQ(run_frame(dev, v, "GL_Shader_State GL, 2\nVertex_Array_Primitives 4, 3, 0", data,
                       true), 0);
    uint32_t px;
    cg_vc4_cpu_read32(v, 0x100000 + (10 * 64 + 10) * 4, &px);
    CHECK(px != 0xFF000000);
    cg_vc4_destroy(v);
    cg_device_destroy(dev);
}

/* Near-plane clipping: a triangle with one vertex in front of the near
 * plane... two in front and one behind (Zc < -Wc), different Wc, one
 * varying. The reference solves, per pixel centre, the homogeneous
 * barycentrics b = M^-1 (X, Y, 1) (M: the vertices' Xc, Yc, Wc as
 * columns): the pixel is drawn when every b_i >= 0 and the point is in
 * front of the near plane (sum b_i (Zc_i + Wc_i) >= 0), with the varying
 * sum b_i V_i / sum b_i (perspective-correct, computed in clip space).
 * Pixels within 1.5 pixels of an edge or of the clip line are left out. */
static void test_gl_clip_near(void)
{
    cg_device *dev;
    cg_vc4 *v;
    CHECK_EQ(cg_device_create(&dev), 0);
    CHECK_EQ(cg_vc4_create(dev, NULL, &v), 0);
    put_copy_shader(v, CS_ADDR, 8, 7);
    put_copy_shader(v, VS_ADDR, 4, 4);
    /* clip coordinates; screen = Xc / Wc * 512 + 512 (12.4, the viewport
     * offset 32 pixels, the clipper's half size 32 pixels) */
    static const double V[3][4] = {{-0.625, -0.75, 0.0, 1.0}, {1.25, -1.0, 0.5, 2.0},
                                   {0.0, 1.2, -3.0, 1.5}};
    static const double vary[3] = {0.0, 1.0, 2.0};
    char data[4096];
    int k = snprintf(data, sizeof data, "%s.align 16\nSHADED:\n", GL_RECORD("5", 2));
    for (int i = 0; i < 3; i++)
        k += snprintf(data + k, sizeof data - (size_t)k, ".half %d, %d\n.float 0.5, %.17g, %g\n",
                      (int)(V[i][0] / V[i][3] * 512), (int)(V[i][1] / V[i][3] * 512),
                      1.0 / V[i][3], vary[i]);
    k += snprintf(data + k, sizeof data - (size_t)k, ".align 16\nCLIPC:\n");
    for (int i = 0; i < 3; i++)
        k += snprintf(data + k, sizeof data - (size_t)k, ".float %g, %g, %g, %g\n", V[i][0],
                      V[i][1], V[i][2], V[i][3]);
    CHECK_EQ(run_frame(dev, v,
                       "Viewport_Offset 512, 512\nClipper_XY_Scaling 0x44000000, 0x44000000\n"
                       "Clipper_Z_Scale_Offset 0x3f000000, 0x3f000000\n"
                       "GL_Shader_State GL, 2\nVertex_Array_Primitives 4, 3, 0",
                       data, true), 0);
    /* M^-1 by cofactors */
    double m[3][3] = {{V[0][0], V[1][0], V[2][0]}, {V[0][1], V[1][1], V[2][1]},
                      {V[0][3], V[1][3], V[2][3]}};
    double inv[3][3], det = 0;
    for (int i = 0; i < 3; i++)
        det += m[0][i] * (m[1][(i + 1) % 3] * m[2][(i + 2) % 3] -
                          m[1][(i + 2) % 3] * m[2][(i + 1) % 3]);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            inv[j][i] = (m[(i + 1) % 3][(j + 1) % 3] * m[(i + 2) % 3][(j + 2) % 3] -
                         m[(i + 1) % 3][(j + 2) % 3] * m[(i + 2) % 3][(j + 1) % 3]) / det;
    int checked = 0, bad = 0, drawn = 0;
    double maxerr = 0;
    for (int y = 0; y < 64; y++)
        for (int x = 0; x < 64; x++) {
            /* the pixel centre in normalised device coordinates */
            double X = ((x + 0.5) * 16 - 512) / 512, Y = ((y + 0.5) * 16 - 512) / 512;
            double b[3], near = 0, sum = 0, val = 0, margin = 1e30;
            for (int i = 0; i < 3; i++) {
                b[i] = inv[i][0] * X + inv[i][1] * Y + inv[i][2];
                /* the distance in pixels to the line b_i = 0 (b_i / W is
                 * linear on the screen): |b_i| / |grad b_i| with the
                 * gradient of the linear function inv[i] . (X, Y, 1) */
                double g = hypot(inv[i][0], inv[i][1]) * 16.0 / 512.0;
                margin = fmin(margin, fabs(b[i]) / g);
                near += b[i] * (V[i][2] + V[i][3]);
                sum += b[i];
                val += b[i] * vary[i];
            }
            double gn[2] = {0, 0};
            for (int i = 0; i < 3; i++)
                gn[0] += inv[i][0] * (V[i][2] + V[i][3]), gn[1] += inv[i][1] * (V[i][2] + V[i][3]);
            margin = fmin(margin, fabs(near) / (hypot(gn[0], gn[1]) * 16.0 / 512.0));
            if (margin < 1.5)
                continue;
            bool in = b[0] > 0 && b[1] > 0 && b[2] > 0 && near > 0;
            uint32_t got;
            cg_vc4_cpu_read32(v, 0x100000 + (uint32_t)(y * 64 + x) * 4, &got);
            checked++;
            if (!in) {
                bad += got != 0xFF000000;
                continue;
            }
            drawn++;
            float g;
            memcpy(&g, &got, 4);
            /* the clipped vertices' positions are 12.4 fixed point (cut
             * towards zero, up to 1/16 pixel off in x and y): the tolerance
             * is what 2/16 pixel in each direction changes the value by
             * (the reference's gradient, from its values a pixel away) */
            double ref = val / sum, dx = 0, dy = 0;
            for (int d = 0; d < 2; d++) {
                double X2 = X + (d == 0 ? 16.0 / 512 : 0), Y2 = Y + (d == 1 ? 16.0 / 512 : 0);
                double s2 = 0, v2 = 0;
                for (int i = 0; i < 3; i++) {
                    double bi = inv[i][0] * X2 + inv[i][1] * Y2 + inv[i][2];
                    s2 += bi, v2 += bi * vary[i];
                }
                *(d == 0 ? &dx : &dy) = fabs(v2 / s2 - ref);
            }
            double err = fabs(g - ref), tol = (dx + dy) * 2.0 / 16.0 + 1e-5;
            maxerr = fmax(maxerr, err / tol);
            if (err > tol && bad++ < 5)
                fprintf(stderr, "clip pixel %d,%d: %.6f, reference %.6f\n", x, y, g, val / sum);
        }
    CHECK_EQ(bad, 0);
    CHECK_EQ(drawn, 550);    /* of the pixels the reference decides: */
    CHECK_EQ(checked, 3319); /* all but those near an edge or the clip line */
    CHECK(maxerr < 0.25);    /* measured 0.230 of the tolerance */
    /* the clipped triangle went into the tile list as one Clipped_Primitive */
    cg_vc4_stats st;
    cg_vc4_get_stats(v, &st);
    CHECK_EQ(st.tile_prims, 1);
    cg_vc4_destroy(v);
    cg_device_destroy(dev);
}

/* Points and lines (GL ES 2.0 rules, docs/vc4.md "Points and lines"): a
 * point covers the pixels whose centres lie in the square of its size
 * centred on it, a line those in the parallelogram of its width offset in
 * the minor direction, both half-open (left and top boundaries in, right
 * and bottom out). NV mode, Point_size / Line_width records; then GL mode
 * with per-vertex point sizes from the shaders. Every pixel of the frame is
 * compared with that rule. */
static bool in_point(double px, double py, double cx, double cy, double size)
{
    return px >= cx - size / 2 && px < cx + size / 2 && py >= cy - size / 2 &&
           py < cy + size / 2;
}

/* x-major line from (x0, y0) to (x1, y1), x0 < x1, width w */
static bool in_xline(double px, double py, double x0, double y0, double x1, double y1, double w)
{
    if (px < x0 || px >= x1)
        return false;
    double yl = y0 + (y1 - y0) * (px - x0) / (x1 - x0);
    return py >= yl - w / 2 && py < yl + w / 2;
}

/* Pixels of the 64x64 frame (white where want(pixel centre) is true,
 * else the clear colour) that differ; the first five are printed. *lit
 * counts the pixels want lights. */
static int lit_mismatches(cg_vc4 *v, const char *what, bool (*want)(double px, double py),
                          int *lit)
{
    int bad = 0;
    for (int y = 0; y < 64; y++)
        for (int x = 0; x < 64; x++) {
            bool on = want(x + 0.5, y + 0.5);
            uint32_t got;
            cg_vc4_cpu_read32(v, 0x100000 + (uint32_t)(y * 64 + x) * 4, &got);
            if (got != (on ? 0xFFFFFFFFu : 0xFF000000u) && bad++ < 5)
                fprintf(stderr, "%s pixel %d,%d: 0x%08x, want %s\n", what, x, y, got,
                        on ? "lit" : "clear");
            *lit += on;
        }
    return bad;
}

/* test_points_lines's two points and two lines */
static bool want_points_lines(double px, double py)
{
    return in_point(px, py, 10.5, 10.5, 4) || in_point(px, py, 30.25, 50.75, 5) ||
           in_xline(px, py, 4, 20.5, 40, 20.5, 1) || in_xline(px, py, 10, 40, 50, 60, 3);
}

/* test_points_lines_near's clipped line and kept point */
static bool want_near(double px, double py)
{
    return in_xline(px, py, 16, 24, 26.6875, 32, 1) || in_point(px, py, 40, 40, 4);
}

static void test_points_lines(void)
{
    cg_device *dev;
    cg_vc4 *v;
    CHECK_EQ(cg_device_create(&dev), 0);
    CHECK_EQ(cg_vc4_create(dev, NULL, &v), 0);
    /* ldi tlbc, 0xFFFFFFFF; thrend; nop; nop */
    put_qpu(v, 0x30300, "ldi tlbc, 0xffffffff\nthrend\nnop\nnop");
    /* points at pixel centres (10.5, 10.5) size 4 and (30.25, 50.75) size 5;
     * then a line of width 1 from (4, 20.5) to (40, 20.5) and one of width 3
     * from (10, 40) to (50, 60) */
    const char *state =
        "NV_Shader_State NVP\nPoint_Size 0x40800000\nVertex_Array_Primitives 0, 1, 0\n"
        "Point_Size 0x40a00000\nVertex_Array_Primitives 0, 1, 1\n"
        "Line_Width 0x3f800000\nVertex_Array_Primitives 1, 2, 2\n"
        "Line_Width 0x40400000\nVertex_Array_Primitives 3, 2, 4";
    const char *data =
        ".align 16\nNVP: .byte 0, 12, 0, 0\n.word 0x30300, 0, VD\n"
        ".align 16\nVD: .half 168, 168\n.float 0.5, 1\n"
        ".half 484, 812\n.float 0.5, 1\n"
        ".half 64, 328\n.float 0.5, 1\n.half 640, 328\n.float 0.5, 1\n"
        ".half 160, 640\n.float 0.5, 1\n.half 800, 960\n.float 0.5, 1\n";
    CHECK_EQ(run_frame(dev, v, state, data, true), 0);
    int lit = 0;
    CHECK_EQ(lit_mismatches(v, "points/lines", want_points_lines, &lit), 0);
    /* 16 + 25 (the second point's square [27.75, 32.75) x [48.25, 53.25)
     * holds centres 28..32 x 48..52) + 36 + 40 columns of 3, less the 15
     * pixels where the wide line crosses the second point */
    CHECK_EQ(lit, 16 + 25 + 36 + 120 - 15);
    /* GL mode, point size in the shaded vertex (record flag bit 1): the
     * coordinate shader copies Xc..Wc, Xs|Ys, Zs, 1/Wc, size; the vertex
     * shader Xs|Ys, Zs, 1/Wc, size, varying. A point's fragment shader gets
     * the sprite coordinates s, t as its first two varyings
     * (test_point_sprite): this one reads the third, the record's. */
    put_copy_shader(v, CS_ADDR, 8, 8);
    put_copy_shader(v, VS_ADDR, 5, 5);
    put_qpu(v, 0x30400, "mov r0, vary\nmov r0, vary\nmov r0, vary\nfadd tlbc, r0, r5\n"
                        "thrend\nnop\nnop");
    cg_vc4_reg_write(v, CG_VC4_CT0CS, 0x8000);
    cg_vc4_reg_write(v, CG_VC4_CT1CS, 0x8000);
    CHECK_EQ(run_frame(dev, v, "GL_Shader_State GLP, 2\nVertex_Array_Primitives 0, 2, 0",
                       ".align 16\nGLP: .byte 3, 0, 0, 1\n.word 0x30400, 0\n"
                       ".half 0\n.byte 2, 20\n.word 0x30200, 0\n"
                       ".half 0\n.byte 3, 32\n.word 0x30100, 0\n"
                       ".word CLP\n.byte 15, 16, 0, 0\n"
                       ".word SHP\n.byte 19, 20, 0, 16\n"
                       ".align 16\nCLP: .float 0, 0, 0, 1, 0, 0, 0, 1\n"
                       ".align 16\nSHP: .half 168, 168\n.float 0.5, 1, 3, 1\n"
                       ".half 648, 648\n.float 0.5, 1, 6, 1\n", true), 0);
    int bad = 0;
    lit = 0;
    for (int y = 0; y < 64; y++)
        for (int x = 0; x < 64; x++) {
            double px = x + 0.5, py = y + 0.5;
            bool want = in_point(px, py, 10.5, 10.5, 3) || in_point(px, py, 40.5, 40.5, 6);
            uint32_t got;
            cg_vc4_cpu_read32(v, 0x100000 + (uint32_t)(y * 64 + x) * 4, &got);
            /* the varying is 1.0: colour word 0x3F800000 */
            bad += got != (want ? 0x3F800000u : 0xFF000000u);
            lit += want;
        }
    CHECK_EQ(bad, 0);
    CHECK_EQ(lit, 9 + 36);
    cg_vc4_destroy(v);
    cg_device_destroy(dev);
}

/* A quad of two triangles over the 64x64 tile, s, t = 0..1 at its corners,
 * whose fragment shader samples TMU0 (texture parameters p0, p1) at the
 * pixel centre; returns run_frame's hard faults. */
static size_t textured_quad(cg_device *dev, cg_vc4 *v, uint32_t p0, uint32_t p1)
{
    put_qpu(v, 0x30400,
            "mov r0, vary\nfadd r0, r0, r5\nmov r1, vary\nfadd r1, r1, r5\n"
            "mov t0t, r1\nmov t0s, r0\nnop; ldtmu0\nnop\nmov tlbc, r4; thrend\nnop\nnop");
    char data[1024];
    snprintf(data, sizeof data,
             ".align 16\nNVT: .byte 0, 20, 0, 2\n.word 0x30400, TU, VT\n"
             "TU: .word 0x%08x, 0x%08x\n"
             ".align 16\nVT: .half 0, 0\n.float 0.5, 1, 0, 0\n"
             ".half 1024, 0\n.float 0.5, 1, 1, 0\n"
             ".half 0, 1024\n.float 0.5, 1, 0, 1\n"
             ".half 1024, 0\n.float 0.5, 1, 1, 0\n"
             ".half 1024, 1024\n.float 0.5, 1, 1, 1\n"
             ".half 0, 1024\n.float 0.5, 1, 0, 1\n",
             p0, p1);
    return run_frame(dev, v, "NV_Shader_State NVT\nVertex_Array_Primitives 4, 6, 0", data, true);
}

/* Render to texture: a frame stored in T-format by
 * Store_Tile_Buffer_General (and in raster to the frame buffer) is sampled
 * by the next frame's fragment shader through TMU0 at every pixel centre
 * (nearest): the second frame must equal the first word for word, so the
 * renderer's T-format store and the TMU's T-format layout agree. */
static void test_render_to_texture(void)
{
    cg_device *dev;
    cg_vc4 *v;
    CHECK_EQ(cg_device_create(&dev), 0);
    CHECK_EQ(cg_vc4_create(dev, NULL, &v), 0);
    put_copy_shader(v, CS_ADDR, 8, 7);
    put_copy_shader(v, VS_ADDR, 4, 4);
    /* frame 1: the GL triangle of test_gl_equals_nv over a clear colour;
     * Store_Tile_Buffer_General: colour, T-format, keep the buffer (no
     * clear), to 0x200000 */
    char src[8192];
    snprintf(src, sizeof src, "%s%s%s",
             ".section t, 0x10000\n"
             "BIN: Tile_Binning_Mode_Configuration 0x400000, 0x1000, 0x500000, 1, 1, "
             "Auto_Init_Tile_State_Data\nStart_Tile_Binning\nIncrement_Semaphore\n"
             "Clip_Window 0, 0, 64, 64\nViewport_Offset 0, 0\nConfiguration_Bits 3, 0\n"
             "GL_Shader_State GL, 2\nVertex_Array_Primitives 4, 3, 0\nFlush\nBIN_END:\n"
             "REND: Wait_On_Semaphore\nClear_Colors 0xFF3060C0, 0xFFFFFF, 0, 0\n"
             "Tile_Rendering_Mode_Configuration 0x100000, 64, 64, "
             "Frame_Buffer_Color_Format_RGBA8888\n"
             "Tile_Coordinates 0, 0\nStore_Tile_Buffer_General 0, 0, 0\n"
             "Tile_Coordinates 0, 0\nBranch_To_Sub_List 0x400000\n"
             "Store_Tile_Buffer_General 0x6011, 0x00200000, 0\nStore_Multi_Sample_End\n"
             "REND_END:\n",
             GL_RECORD("1", 2), shaded_data);
    put_qpu(v, FS_ADDR, fs_vary);
    cg_asm *as = load(v, src);
    kick(v, 0, sym(as, "BIN"), sym(as, "BIN_END"));
    kick(v, 1, sym(as, "REND"), sym(as, "REND_END"));
    cg_vc4_wait_idle(v);
    cg_asm_destroy(as);
    CHECK_EQ(vc4_hard_faults(dev, 0, true), 0);
    static uint32_t first[64 * 64], second[64 * 64];
    read_fb(v, first);
    /* frame 2: a quad over the tile, varyings s, t = 0..1; the fragment
     * shader samples the 64x64 RGBA8888 T-format texture at 0x200000
     * (P0 = 0x200000, P1 = 64 x 64, nearest / nearest, repeat) */
    CHECK_EQ(textured_quad(dev, v, 0x00200000, 0x04004090), 0);
    read_fb(v, second);
    int diff = 0;
    for (int i = 0; i < 64 * 64; i++)
        if (first[i] != second[i] && diff++ < 5)
            fprintf(stderr, "render to texture: pixel %d,%d 0x%08x, sampled 0x%08x\n", i % 64,
                    i / 64, first[i], second[i]);
    CHECK_EQ(diff, 0);
    cg_vc4_destroy(v);
    cg_device_destroy(dev);
}

/* Helper lanes carry the triangle's varyings. A quad of two triangles over
 * the 64x64 tile samples a 64x64 texture with s, t = 0..1: one texel per
 * pixel, so the level of detail is 0 everywhere and every pixel shows level
 * 0 (solid 0xff2040c0), level 1 (solid 0xff00ff00) none. The TMU takes a
 * quad's derivatives from its four lanes (docs/vc4-tmu.md), so where the
 * diagonal splits a quad the lanes outside the triangle must hold the
 * plane's extrapolated s and t; zeros there gave a large derivative and
 * level 1 along the diagonal. */
static void test_helper_lanes_mip(void)
{
    cg_device *dev;
    cg_vc4 *v;
    CHECK_EQ(cg_device_create(&dev), 0);
    CHECK_EQ(cg_vc4_create(dev, NULL, &v), 0);
    /* RGBA8888 T-format, 2 levels: level 0 at the base (64x64, 16 KiB),
     * level 1 (32x32 T-format, 4 KiB) below it */
    static uint32_t lvl0[64 * 64], lvl1[32 * 32];
    for (int i = 0; i < 64 * 64; i++)
        lvl0[i] = 0xff2040c0u;
    for (int i = 0; i < 32 * 32; i++)
        lvl1[i] = 0xff00ff00u;
    cg_vc4_cpu_write(v, 0x200000, lvl0, sizeof lvl0);
    cg_vc4_cpu_write(v, 0x200000 - sizeof lvl1, lvl1, sizeof lvl1);
    /* P0: base, MIPLVLS 1; P1: 64x64, mag nearest, min NEAR_MIP_NEAR (2), repeat */
    CHECK_EQ(textured_quad(dev, v, 0x00200001, 0x040040a0), 0);
    static uint32_t px[64 * 64];
    read_fb(v, px);
    int wrong = 0;
    for (int i = 0; i < 64 * 64; i++)
        if (px[i] != 0xff2040c0u && wrong++ < 5)
            fprintf(stderr, "helper lanes: pixel %d,%d 0x%08x, want level 0's 0xff2040c0\n",
                    i % 64, i / 64, px[i]);
    CHECK_EQ(wrong, 0);
    cg_vc4_destroy(v);
    cg_device_destroy(dev);
}

/* examples/vc4/gl_cube.s against a reference computed here in double
 * precision from the scene's own uniforms and vertices: project each
 * vertex with the matrix, find per pixel centre the nearest covering
 * triangle (the depth test) and interpolate its colour perspective-
 * correctly. Pixels within 1.5 pixels of an edge, or where two surfaces are
 * within 1/1000 in depth, are left out (rounding decides those); every
 * other pixel must match to 1 in each 8-bit channel. */
static void test_gl_cube_example(void)
{
    char path[1024];
    snprintf(path, sizeof path, "%s", __FILE__);
    char *slash = strstr(path, "tests/test_vc4_gl.c");
    CHECK(slash != NULL);
    if (!slash)
        return;
    strcpy(slash, "examples/vc4/gl_cube.s");
    FILE *f = fopen(path, "rb");
    CHECK(f != NULL);
    if (!f)
        return;
    static char src[65536];
    size_t n = fread(src, 1, sizeof src - 1, f);
    fclose(f);
    src[n] = 0;
    cg_device *dev;
    cg_vc4 *v;
    CHECK_EQ(cg_device_create(&dev), 0);
    CHECK_EQ(cg_vc4_create(dev, NULL, &v), 0);
    cg_asm *as = load(v, src);
    kick(v, 0, sym(as, "BIN"), sym(as, "BIN_END"));
    kick(v, 1, sym(as, "REND"), sym(as, "REND_END"));
    cg_vc4_wait_idle(v);
    CHECK_EQ(vc4_hard_faults(dev, 0, true), 0);
    CHECK_EQ(cg_fault_count(dev), 0); /* no restriction diagnostic either */
    uint32_t ua = sym(as, "UNIF"), va = sym(as, "VERTS"), ia = sym(as, "IDX");
    float u[20];
    for (int i = 0; i < 20; i++) {
        uint32_t w;
        cg_vc4_cpu_read32(v, ua + 4 * (uint32_t)i, &w);
        memcpy(&u[i], &w, 4);
    }
    enum { NV = 28, NI = 42 };
    double sx[NV], sy[NV], sz[NV], iw[NV], col[NV][3];
    for (int k = 0; k < NV; k++) {
        float a[6];
        for (int i = 0; i < 6; i++) {
            uint32_t w;
            cg_vc4_cpu_read32(v, va + (uint32_t)(24 * k + 4 * i), &w);
            memcpy(&a[i], &w, 4);
        }
        double c[4];
        for (int r = 0; r < 4; r++)
            c[r] = u[4 * r] * a[0] + u[4 * r + 1] * a[1] + u[4 * r + 2] * a[2] + u[4 * r + 3];
        iw[k] = 1.0 / c[3];
        sx[k] = (c[0] * u[16] * iw[k] + 128 * 16) / 16.0; /* pixels */
        sy[k] = (c[1] * u[17] * iw[k] + 128 * 16) / 16.0;
        sz[k] = c[2] * u[18] * iw[k] + u[19];
        for (int i = 0; i < 3; i++)
            col[k][i] = a[3 + i];
    }
    uint16_t idx[NI];
    for (int i = 0; i < NI; i++) {
        uint32_t w;
        cg_vc4_cpu_read32(v, ia + (uint32_t)(2 * (i & ~1)), &w);
        idx[i] = (uint16_t)(i & 1 ? w >> 16 : w);
    }
    int checked = 0, bad = 0;
    for (int y = 0; y < 256; y++)
        for (int x = 0; x < 256; x++) {
            double px = x + 0.5, py = y + 0.5, best = 2.0, best2 = 2.0, rgb[3] = {0, 0, 0};
            bool skip = false;
            for (int t = 0; t < NI / 3 && !skip; t++) {
                const uint16_t *tv = &idx[3 * t];
                double e[3], len[3];
                for (int i = 0; i < 3; i++) {
                    int a = tv[(i + 1) % 3], b = tv[(i + 2) % 3];
                    double dx = sx[b] - sx[a], dy = sy[b] - sy[a];
                    e[i] = dx * (py - sy[a]) - dy * (px - sx[a]);
                    len[i] = sqrt(dx * dx + dy * dy);
                }
                double area = e[0] + e[1] + e[2];
                if (fabs(area) < 1e-9)
                    continue;
                /* the smallest signed distance to an edge's line (inside > 0):
                 * over 1.5 inside, under -1.5 outside, else too close */
                double mind = 1e30;
                for (int i = 0; i < 3; i++) {
                    double d = e[i] / len[i] * (area > 0 ? 1 : -1);
                    mind = d < mind ? d : mind;
                }
                if (mind >= -1.5 && mind <= 1.5)
                    skip = true;
                if (mind < 1.5)
                    continue;
                double b[3] = {e[0] / area, e[1] / area, e[2] / area};
                double z = b[0] * sz[tv[0]] + b[1] * sz[tv[1]] + b[2] * sz[tv[2]];
                if (z < best) {
                    best2 = best;
                    best = z;
                    double q = b[0] * iw[tv[0]] + b[1] * iw[tv[1]] + b[2] * iw[tv[2]];
                    for (int c = 0; c < 3; c++)
                        rgb[c] = (b[0] * iw[tv[0]] * col[tv[0]][c] +
                                  b[1] * iw[tv[1]] * col[tv[1]][c] +
                                  b[2] * iw[tv[2]] * col[tv[2]][c]) / q;
                } else if (z < best2) {
                    best2 = z;
                }
            }
            if (skip || best2 - best < 1e-3)
                continue;
            uint32_t want = 0xFF202830, got;
            if (best < 2.0) {
                want = 0xFF000000;
                for (int c = 0; c < 3; c++) {
                    double ch = rgb[c] < 0 ? 0 : rgb[c] > 1 ? 1 : rgb[c];
                    want |= (uint32_t)(ch * 255 + 0.5) << (16 - 8 * c);
                }
            }
            cg_vc4_cpu_read32(v, 0x100000 + (uint32_t)(y * 256 + x) * 4, &got);
            for (int c = 0; c < 4; c++) {
                int d = (int)(got >> 8 * c & 255) - (int)(want >> 8 * c & 255);
                if (d > 1 || d < -1) {
                    if (bad++ < 5)
                        fprintf(stderr, "gl_cube pixel %d,%d: 0x%08x, reference 0x%08x\n", x, y,
                                got, want);
                    break;
                }
            }
            checked++;
        }
    CHECK_EQ(bad, 0);
    CHECK_EQ(checked, 37426); /* the pixels the reference decides (of 65536) */
    cg_asm_destroy(as);
    cg_vc4_destroy(v);
    cg_device_destroy(dev);
}

/* The bits of a float */
static uint32_t vc4_u32(double d)
{
    float f = (float)d;
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

/* The renderer's Z step (render.c z24): round(z x (2^24 - 1)) in float,
 * clamped to [0, 1]. */
static uint32_t ref_z24(float z)
{
    if (!(z > 0.0f))
        return 0;
    if (z >= 1.0f)
        return 0xFFFFFF;
    return (uint32_t)(z * 16777215.0f + 0.5f);
}

/* Depth offset (Configuration_Bits bit 3 and Depth_Offset, GL ES 2.0
 * section 3.5.5) and the Z clipping planes (Z_min_and_max_clipping_planes,
 * with the GL record's clipping flag), docs/vc4.md "GL shader mode". Two
 * triangles cover the tile in one plane Zs = 0.25 + x / 256 + y / 512
 * (pixels); the fragment shader writes the Z it receives (rb15, the 24-bit
 * integer) as its colour, so every pixel shows the Z the rasteriser gave it.
 * The reference is computed per pixel centre from the plane: the offset is
 * factor x max(|dZ/dx|, |dZ/dy|) + units / (2^24 - 1) = 2 / 256 + 16 /
 * (2^24 - 1); the planes keep Zs (before the offset) in [zmin, zmax]. */
static void test_depth_offset_zplanes(void)
{
    cg_device *dev;
    cg_vc4 *v;
    CHECK_EQ(cg_device_create(&dev), 0);
    CHECK_EQ(cg_vc4_create(dev, NULL, &v), 0);
    put_copy_shader(v, CS_ADDR, 8, 7);
    put_copy_shader(v, VS_ADDR, 4, 4);
    put_qpu(v, 0x30300, "mov tlbc, rb15\nthrend\nnop\nnop");
    static const int xy[4][2] = {{0, 0}, {64, 0}, {0, 64}, {64, 64}};
    static const struct {
        const char *flags, *state;
        bool offset; /* the offset applies */
        double zmin, zmax; /* kept range (planes applied), else all */
        bool planes;
    } runs[] = {
        /* offset on; planes given but the record does not enable clipping */
        {"0", "Configuration_Bits 3 + 8, 0\nDepth_Offset 0x4000, 0x4180\n"
              "Z_Min_Max_Clipping_Planes 0x3e99999a, 0x3ee66666",
         true, 0, 0, false},
        /* clipping enabled: planes 0.3 .. 0.45 (the f32 nearest) */
        {"4", "Configuration_Bits 3 + 8, 0\nDepth_Offset 0x4000, 0x4180\n"
              "Z_Min_Max_Clipping_Planes 0x3e99999a, 0x3ee66666",
         true, 0.300000011920928955, 0.449999988079071045, true},
        /* Depth_Offset given, Configuration_Bits bit 3 clear: no offset;
         * zmin > zmax keeps nothing */
        {"4", "Depth_Offset 0x4000, 0x4180\n"
              "Z_Min_Max_Clipping_Planes 0x3ee66666, 0x3e99999a",
         false, 1, 0, true},
        /* a NaN factor: no offset; NaN planes keep nothing */
        {"4", "Configuration_Bits 3 + 8, 0\nDepth_Offset 0x7fc0, 0x4180\n"
              "Z_Min_Max_Clipping_Planes 0x7fc00000, 0x3f800000",
         false, 1, 0, true},
        /* a NaN factor, clipping off: every pixel, no offset */
        {"0", "Configuration_Bits 3 + 8, 0\nDepth_Offset 0x7fc0, 0x4180",
         false, 0, 0, false},
    };
    static const int want_kept[] = {4096, 2071, 0, 0, 4096};
    for (size_t r = 0; r < sizeof runs / sizeof runs[0]; r++) {
        char data[4096], state[512];
        int k = snprintf(data, sizeof data,
                         ".align 16\nGLZ: .byte %s, 0, 0, 1\n.word 0x30300, 0\n"
                         ".half 0\n.byte 2, 16\n.word 0x30200, 0\n"
                         ".half 0\n.byte 3, 32\n.word 0x30100, 0\n"
                         ".word CLIPC\n.byte 15, 16, 0, 0\n"
                         ".word SHADED\n.byte 15, 16, 0, 16\n.align 16\nSHADED:\n",
                         runs[r].flags);
        for (int i = 0; i < 4; i++)
            k += snprintf(data + k, sizeof data - (size_t)k, ".half %d, %d\n.float %.17g, 1, 0\n",
                          xy[i][0] * 16, xy[i][1] * 16,
                          0.25 + xy[i][0] / 256.0 + xy[i][1] / 512.0);
        snprintf(data + k, sizeof data - (size_t)k,
                 ".align 16\nCLIPC: .float 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1\n"
                 ".align 16\nIDX: .half 0, 1, 2, 2, 1, 3\n");
        snprintf(state, sizeof state,
                 "%s\nGL_Shader_State GLZ, 2\n"
                 "Indexed_Primitive_List Index_Type_16 + Mode_Triangles, 6, IDX, 3",
                 runs[r].state);
        CHECK_EQ(run_frame(dev, v, state, data, true), 0);
        double o = runs[r].offset ? 2.0 / 256.0 + 16.0 / 16777215.0 : 0.0;
        int bad = 0, kept = 0;
        for (int y = 0; y < 64; y++)
            for (int x = 0; x < 64; x++) {
                double z = 0.25 + (x + 0.5) / 256.0 + (y + 0.5) / 512.0;
                bool keep = !runs[r].planes || (z >= runs[r].zmin && z <= runs[r].zmax);
                uint32_t want = keep ? ref_z24((float)(z + o)) : 0xFF000000u, got;
                cg_vc4_cpu_read32(v, 0x100000 + (uint32_t)(y * 64 + x) * 4, &got);
                kept += keep;
                if (got != want && bad++ < 5)
                    fprintf(stderr, "depth run %zu pixel %d,%d: 0x%08x, want 0x%08x\n", r, x, y,
                            got, want);
            }
        CHECK_EQ(bad, 0);
        CHECK_EQ(kept, want_kept[r]);
        cg_vc4_reg_write(v, CG_VC4_CT0CS, 0x8000);
        cg_vc4_reg_write(v, CG_VC4_CT1CS, 0x8000);
    }
    /* one pixel by hand: (10, 20) has Zs = 0.25 + 10.5 / 256 + 20.5 / 512 =
     * 339 / 1024; plus 2 / 256 = 347 / 1024, which the Z buffer holds as
     * 347 / 1024 x (2^24 - 1) = 5685247.66; plus the 16 units: 5685263.66,
     * rounded 5685264 = 0x56C010 (runs 0 and 1 show it at that pixel) */
    CHECK_EQ(ref_z24((float)(0.25 + 10.5 / 256 + 20.5 / 512 + 2.0 / 256 + 16.0 / 16777215)),
             0x56C010u);
    cg_vc4_destroy(v);
    cg_device_destroy(dev);
}

/* Points and lines crossing the near plane (GL ES 2.0 section 2.13): a
 * line is cut at the plane, a point whose centre is outside is discarded.
 * Clip coordinates (Wc = 1; screen = 32 + 32 Xc pixels, the viewport offset
 * and the clipper's half size 32 pixels): line A (-0.5, -0.25, 0) to B (0.5,
 * 0.5, -3) crosses Zc = -Wc at t = 1/3, so it ends at (-1/6, 0): Xs = -1/6
 * x 512 = -85.33, cut to -85 (1/16 pixel), i.e. the line runs from (16, 24)
 * to (26.6875, 32); line E..F lies behind the plane (discarded); point P1
 * (0.25, 0.25, 0) is drawn at (40, 40), size 4; point P2 (Zc = -2) is
 * discarded. Every pixel is compared with the ES rules (in_point,
 * in_xline). */
static void test_points_lines_near(void)
{
    cg_device *dev;
    cg_vc4 *v;
    CHECK_EQ(cg_device_create(&dev), 0);
    CHECK_EQ(cg_vc4_create(dev, NULL, &v), 0);
    put_copy_shader(v, CS_ADDR, 8, 7);
    put_copy_shader(v, VS_ADDR, 4, 4);
    put_qpu(v, 0x30300, "ldi tlbc, 0xffffffff\nthrend\nnop\nnop");
    static const float C[6][4] = {{-0.5f, -0.25f, 0, 1}, {0.5f, 0.5f, -3, 1}, {0, 0, -5, 1},
                                  {0.5f, 0, -4, 1},      {0.25f, 0.25f, 0, 1}, {0.5f, 0.5f, -2, 1}};
    char data[4096];
    int k = snprintf(data, sizeof data,
                     ".align 16\nGLL: .byte 4, 0, 0, 1\n.word 0x30300, 0\n"
                     ".half 0\n.byte 2, 16\n.word 0x30200, 0\n"
                     ".half 0\n.byte 3, 32\n.word 0x30100, 0\n"
                     ".word CLIPC\n.byte 15, 16, 0, 0\n"
                     ".word SHADED\n.byte 15, 16, 0, 16\n.align 16\nSHADED:\n");
    for (int i = 0; i < 6; i++)
        k += snprintf(data + k, sizeof data - (size_t)k, ".half %d, %d\n.float %g, 1, 0\n",
                      (int)(C[i][0] * 512), (int)(C[i][1] * 512), C[i][2] * 0.5 + 0.5);
    k += snprintf(data + k, sizeof data - (size_t)k, ".align 16\nCLIPC:\n");
    for (int i = 0; i < 6; i++)
        k += snprintf(data + k, sizeof data - (size_t)k, ".float %g, %g, %g, %g\n", C[i][0],
                      C[i][1], C[i][2], C[i][3]);
    CHECK_EQ(run_frame(dev, v,
                       "Viewport_Offset 512, 512\nClipper_XY_Scaling 0x44000000, 0x44000000\n"
                       "Clipper_Z_Scale_Offset 0x3f000000, 0x3f000000\n"
                       "Point_Size 0x40800000\nLine_Width 0x3f800000\n"
                       "GL_Shader_State GLL, 2\nVertex_Array_Primitives 1, 4, 0\n"
                       "Vertex_Array_Primitives 0, 2, 4",
                       data, true), 0);
    int lit = 0;
    CHECK_EQ(lit_mismatches(v, "near", want_near, &lit), 0);
    CHECK_EQ(lit, 11 + 16); /* the line's columns 16..26, the point's 4x4 */
    /* the clipped line as one Clipped_Primitive entry, the point as one item */
    cg_vc4_stats st;
    cg_vc4_get_stats(v, &st);
    CHECK_EQ(st.tile_prims, 2);
    /* the clipped line's block (gl.h VC4_CLIP_BLOCK), the first thing in the
     * pool (initial blocks 0x400000 + 32, rounded up to 256): n = 2,
     * indices 0, 1, 1; A at (-256, -128), Zs 0.5, 1/Wc 1, weights (1, 0, 0);
     * the cut end at (-85, 0), Zs 0, weights (2/3, 1/3, 0) */
    uint32_t blk[18];
    for (int i = 0; i < 18; i++)
        cg_vc4_cpu_read32(v, 0x400100 + 4 * (uint32_t)i, &blk[i]);
    static const uint32_t want_blk[18] = {
        2, 0, 1, 1,                                                   /* n, indices */
        (uint32_t)-256, (uint32_t)-128, 0x3f000000, 0x3f800000,       /* A: Xs Ys Zs 1/Wc */
        0x3f800000, 0, 0,                                             /* weights 1, 0, 0 */
        (uint32_t)-85, 0, 0, 0x3f800000,                              /* the cut end */
        0x3f2aaaab, 0x3eaaaaab, 0};                                   /* 2/3, 1/3, 0 */
    for (int i = 0; i < 18; i++)
        CHECK_EQ(blk[i], want_blk[i]);
    cg_vc4_destroy(v);
    cg_device_destroy(dev);
}

/* Point sprite coordinates and the line coordinate (clip.c
 * vc4_pse_varyings): a point's fragment shader reads s, t as its first two
 * varyings, then the record's; a line's reads one value across its width
 * first. GL mode, sizes from the shaded vertex: a point of size 4 at (40,
 * 40) and one of size 8 at (20, 12). Each frame's fragment shader writes one
 * of the values as its colour word (the float's bits). Reference per pixel
 * centre (px, py) of a point at (cx, cy) of size S: s = 1/2 + (px - cx) / S,
 * t = 1/2 - (py - cy) / S (t is 1 at the top edge, screen Y growing
 * downwards); all exact in binary here. Then an NV line of width 4 from (8,
 * 40) to (40, 40): its value is (py - 38) / 4, 0 on the top side. */
static void test_point_sprite(void)
{
    cg_device *dev;
    cg_vc4 *v;
    CHECK_EQ(cg_device_create(&dev), 0);
    CHECK_EQ(cg_vc4_create(dev, NULL, &v), 0);
    put_copy_shader(v, CS_ADDR, 8, 8);
    put_copy_shader(v, VS_ADDR, 5, 5);
    static const char *fs[3] = {
        "mov r0, vary\nfadd tlbc, r0, r5\nthrend\nnop\nnop",                          /* s */
        "mov r0, vary\nmov r0, vary\nfadd tlbc, r0, r5\nthrend\nnop\nnop",            /* t */
        "mov r0, vary\nmov r0, vary\nmov r0, vary\nfadd tlbc, r0, r5\nthrend\nnop\nnop"}; /* V */
    static const double pts[2][3] = {{40, 40, 4}, {20, 12, 8}}; /* cx, cy, size */
    for (int f = 0; f < 3; f++) {
        put_qpu(v, 0x30500, fs[f]);
        char data[2048];
        int k = snprintf(data, sizeof data,
                         ".align 16\nGLS: .byte 2, 0, 0, 1\n.word 0x30500, 0\n"
                         ".half 0\n.byte 2, 20\n.word 0x30200, 0\n"
                         ".half 0\n.byte 3, 32\n.word 0x30100, 0\n"
                         ".word CLS\n.byte 15, 16, 0, 0\n"
                         ".word SHS\n.byte 19, 20, 0, 16\n"
                         ".align 16\nCLS: .float 0, 0, 0, 1, 0, 0, 0, 1\n.align 16\nSHS:\n");
        for (int i = 0; i < 2; i++)
            k += snprintf(data + k, sizeof data - (size_t)k, ".half %d, %d\n.float 0.5, 1, %g, 5\n",
                          (int)pts[i][0] * 16, (int)pts[i][1] * 16, pts[i][2]);
        CHECK_EQ(run_frame(dev, v, "GL_Shader_State GLS, 2\nVertex_Array_Primitives 0, 2, 0",
                           data, true), 0);
        int bad = 0, lit = 0;
        for (int y = 0; y < 64; y++)
            for (int x = 0; x < 64; x++) {
                double px = x + 0.5, py = y + 0.5;
                uint32_t want = 0xFF000000u, got;
                for (int i = 0; i < 2; i++) {
                    if (!in_point(px, py, pts[i][0], pts[i][1], pts[i][2]))
                        continue;
                    float val = f == 0   ? (float)(0.5 + (px - pts[i][0]) / pts[i][2])
                                : f == 1 ? (float)(0.5 - (py - pts[i][1]) / pts[i][2])
                                         : 5.0f;
                    memcpy(&want, &val, 4);
                    lit++;
                }
                cg_vc4_cpu_read32(v, 0x100000 + (uint32_t)(y * 64 + x) * 4, &got);
                if (got != want && bad++ < 5)
                    fprintf(stderr, "sprite frame %d pixel %d,%d: 0x%08x, want 0x%08x\n", f, x,
                            y, got, want);
            }
        CHECK_EQ(bad, 0);
        CHECK_EQ(lit, 16 + 64);
        cg_vc4_reg_write(v, CG_VC4_CT0CS, 0x8000);
        cg_vc4_reg_write(v, CG_VC4_CT1CS, 0x8000);
    }
    /* two values by hand: the size-8 point's top-left pixel (16, 8) has s =
     * 1/2 + (16.5 - 20) / 8 = 0.0625 (0x3d800000), t = 1/2 - (8.5 - 12) / 8 =
     * 0.9375 (0x3f700000) */
    CHECK_EQ(vc4_u32(0.5 + (16.5 - 20) / 8), 0x3d800000u);
    CHECK_EQ(vc4_u32(0.5 - (8.5 - 12) / 8), 0x3f700000u);
    /* the line: NV mode, its value across the width */
    put_qpu(v, 0x30500, fs[0]);
    CHECK_EQ(run_frame(dev, v,
                       "NV_Shader_State NVL\nLine_Width 0x40800000\nVertex_Array_Primitives 1, 2, 0",
                       ".align 16\nNVL: .byte 0, 16, 0, 1\n.word 0x30500, 0, VL\n"
                       ".align 16\nVL: .half 128, 640\n.float 0.5, 1, 7\n"
                       ".half 640, 640\n.float 0.5, 1, 7\n",
                       true), 0);
    int bad = 0, lit = 0;
    for (int y = 0; y < 64; y++)
        for (int x = 0; x < 64; x++) {
            double px = x + 0.5, py = y + 0.5;
            uint32_t want = 0xFF000000u, got;
            if (in_xline(px, py, 8, 40, 40, 40, 4)) {
                float val = (float)((py - 38) / 4);
                memcpy(&want, &val, 4);
                lit++;
            }
            cg_vc4_cpu_read32(v, 0x100000 + (uint32_t)(y * 64 + x) * 4, &got);
            if (got != want && bad++ < 5)
                fprintf(stderr, "line pixel %d,%d: 0x%08x, want 0x%08x\n", x, y, got, want);
        }
    CHECK_EQ(bad, 0);
    CHECK_EQ(lit, 32 * 4);
    cg_vc4_destroy(v);
    cg_device_destroy(dev);
}

int main(void)
{
    test_gl_equals_nv();
    test_gl_indexed_clip();
    test_gl_faults();
    test_points_lines();
    test_gl_clip_near();
    test_depth_offset_zplanes();
    test_points_lines_near();
    test_point_sprite();
    test_render_to_texture();
    test_helper_lanes_mip();
    test_gl_cube_example();
    return check_report("test_vc4_gl");
}
