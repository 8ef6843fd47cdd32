/* OpenGL ES programs nobody wrote for cmdgpu: each case renders one small
 * scene through whatever driver EGL loads and writes what glReadPixels
 * returns. tests/gl/gl_vs_llvmpipe.sh runs a case through `cmdgpu exec`
 * (Mesa's nouveau on the model) and through `cmdgpu exec --reference`
 * (llvmpipe), and tests/gl/imgcmp.c compares the two.
 *
 *   gles_cases CASE OUT.pam     render CASE, write OUT (PAM, RGBA, top row first)
 *   gles_cases list             the cases
 *
 * The first line printed is "renderer: GL_RENDERER": Mesa falls back to
 * llvmpipe silently when the driver does not load, so callers check it.
 * Plain GL ES and EGL only (EGL_MESA_platform_surfaceless): what any
 * program would do. */
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES3/gl3.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define W 64
#define H 64

static EGLDisplay dpy;
static EGLSurface pbuffer = EGL_NO_SURFACE;

static void die(const char *what)
{
    fprintf(stderr, "gles_cases: %s (GL error 0x%x, EGL error 0x%x)\n", what, glGetError(),
            eglGetError());
    exit(2);
}

/* ---- set-up ------------------------------------------------------------------ */

/* A context of version major; with a pbuffer when asked, else surfaceless
 * (the case renders into a framebuffer object). */
static void context(int major, bool with_pbuffer)
{
    PFNEGLGETPLATFORMDISPLAYEXTPROC get_display =
        (PFNEGLGETPLATFORMDISPLAYEXTPROC)eglGetProcAddress("eglGetPlatformDisplayEXT");
    if (!get_display)
        die("no eglGetPlatformDisplayEXT");
    dpy = get_display(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
    if (dpy == EGL_NO_DISPLAY || !eglInitialize(dpy, NULL, NULL))
        die("eglInitialize");
    if (!eglBindAPI(EGL_OPENGL_ES_API))
        die("eglBindAPI");
    EGLConfig cfg = EGL_NO_CONFIG_KHR;
    if (with_pbuffer) {
        const EGLint want[] = {EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RED_SIZE, 8,
                               EGL_GREEN_SIZE, 8, EGL_BLUE_SIZE, 8, EGL_ALPHA_SIZE, 8,
                               EGL_RENDERABLE_TYPE, EGL_OPENGL_ES2_BIT, EGL_NONE};
        EGLint n = 0;
        if (!eglChooseConfig(dpy, want, &cfg, 1, &n) || n < 1)
            die("no RGBA8 pbuffer config");
        const EGLint size[] = {EGL_WIDTH, W, EGL_HEIGHT, H, EGL_NONE};
        pbuffer = eglCreatePbufferSurface(dpy, cfg, size);
        if (pbuffer == EGL_NO_SURFACE)
            die("eglCreatePbufferSurface");
    }
    const EGLint attrs[] = {EGL_CONTEXT_MAJOR_VERSION, major, EGL_NONE};
    EGLContext ctx = eglCreateContext(dpy, cfg, EGL_NO_CONTEXT, attrs);
    if (ctx == EGL_NO_CONTEXT || !eglMakeCurrent(dpy, pbuffer, pbuffer, ctx))
        die("eglCreateContext");
    printf("renderer: %s\n", (const char *)glGetString(GL_RENDERER));
    fflush(stdout);
}

/* An RGBA8 colour target (and a 24-bit depth buffer when asked) W x H. */
static void fbo(bool depth)
{
    GLuint tex, fb;
    glGenTextures(1, &tex);
    glBindTexture(GL_TEXTURE_2D, tex);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, W, H, 0, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glGenFramebuffers(1, &fb);
    glBindFramebuffer(GL_FRAMEBUFFER, fb);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, tex, 0);
    if (depth) {
        GLuint rb;
        glGenRenderbuffers(1, &rb);
        glBindRenderbuffer(GL_RENDERBUFFER, rb);
        glRenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH_COMPONENT24, W, H);
        glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, rb);
    }
    if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE)
        die("framebuffer incomplete");
    glViewport(0, 0, W, H);
}

static GLuint shader(GLenum kind, const char *src)
{
    GLuint s = glCreateShader(kind);
    glShaderSource(s, 1, &src, NULL);
    glCompileShader(s);
    GLint ok = 0;
    glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        char log[1024];
        glGetShaderInfoLog(s, sizeof log, NULL, log);
        fprintf(stderr, "%s\n", log);
        die("shader compile");
    }
    return s;
}

/* A program from two sources; attribute 0 is "pos", 1 "attr". */
static GLuint program(const char *vs, const char *fs)
{
    GLuint p = glCreateProgram();
    glAttachShader(p, shader(GL_VERTEX_SHADER, vs));
    glAttachShader(p, shader(GL_FRAGMENT_SHADER, fs));
    glBindAttribLocation(p, 0, "pos");
    glBindAttribLocation(p, 1, "attr");
    glLinkProgram(p);
    GLint ok = 0;
    glGetProgramiv(p, GL_LINK_STATUS, &ok);
    if (!ok)
        die("program link");
    glUseProgram(p);
    return p;
}

static void attribs(const float *pos, int npos, const float *attr, int nattr)
{
    glVertexAttribPointer(0, npos, GL_FLOAT, GL_FALSE, 0, pos);
    glEnableVertexAttribArray(0);
    if (attr) {
        glVertexAttribPointer(1, nattr, GL_FLOAT, GL_FALSE, 0, attr);
        glEnableVertexAttribArray(1);
    }
}

static const char VS_COLOUR[] = "attribute vec4 pos; attribute vec4 attr; varying vec4 c;\n"
                                "void main() { gl_Position = pos; c = attr; }\n";
static const char FS_COLOUR[] = "precision mediump float; varying vec4 c;\n"
                                "void main() { gl_FragColor = c; }\n";
static const char VS_FLAT[] = "attribute vec4 pos; void main() { gl_Position = pos; }\n";
static const char FS_UNIFORM[] = "precision mediump float; uniform vec4 colour;\n"
                                 "void main() { gl_FragColor = colour; }\n";

/* ---- the cases --------------------------------------------------------------------- */

static void case_clear(void)
{
    context(2, false);
    fbo(false);
    glClearColor(0.25f, 0.5f, 0.75f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    glEnable(GL_SCISSOR_TEST); /* a second, partial clear */
    glScissor(8, 16, 24, 20);
    glClearColor(1.0f, 0.0f, 0.5f, 0.5f);
    glClear(GL_COLOR_BUFFER_BIT);
    glDisable(GL_SCISSOR_TEST);
}

static void case_triangle(void)
{
    context(2, false);
    fbo(false);
    glClearColor(0.2f, 0.2f, 0.2f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    program(VS_COLOUR, FS_COLOUR);
    static const float pos[] = {-0.8f, -0.8f, 0.8f, -0.7f, 0.1f, 0.85f};
    static const float col[] = {1, 0, 0, 1, 0, 1, 0, 1, 0, 0, 1, 1};
    attribs(pos, 2, col, 4);
    glDrawArrays(GL_TRIANGLES, 0, 3);
}

/* A 32x32 checkerboard texture with mipmaps (glGenerateMipmap: the driver
 * renders each level from the one above), drawn minified (level 2, 8x8
 * pixels) and magnified 2x (24 texels over 48 pixels). The sample points
 * stay off texel edges: NEAREST at an exact edge may take either texel, and
 * llvmpipe and the model interpolate the coordinate differently in the
 * last bit. */
static void case_texture(void)
{
    context(2, false);
    fbo(false);
    glClearColor(0, 0, 0, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    static uint8_t tex[32 * 32 * 4];
    for (int y = 0; y < 32; y++)
        for (int x = 0; x < 32; x++) {
            uint8_t *t = tex + (y * 32 + x) * 4;
            bool on = ((x >> 2) ^ (y >> 2)) & 1;
            t[0] = on ? 255 : (uint8_t)(x * 8);
            t[1] = on ? 255 : (uint8_t)(y * 8);
            t[2] = on ? 0 : 128;
            t[3] = 255;
        }
    GLuint t;
    glGenTextures(1, &t);
    glBindTexture(GL_TEXTURE_2D, t);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, 32, 32, 0, GL_RGBA, GL_UNSIGNED_BYTE, tex);
    glGenerateMipmap(GL_TEXTURE_2D);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST_MIPMAP_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    program("attribute vec4 pos; attribute vec2 attr; varying vec2 uv;\n"
            "void main() { gl_Position = pos; uv = attr; }\n",
            "precision mediump float; varying vec2 uv; uniform sampler2D s;\n"
            "void main() { gl_FragColor = texture2D(s, uv); }\n");
    /* left: 8x8 pixels for the 32x32 texture (level 2); right: 48x48 (level 0) */
    static const float small[] = {-0.9f, -0.9f, -0.65f, -0.9f, -0.9f, -0.65f, -0.65f, -0.65f};
    static const float big[] = {-0.5f, -0.5f, 1.0f, -0.5f, -0.5f, 1.0f, 1.0f, 1.0f};
    static const float uv[] = {0, 0, 1, 0, 0, 1, 1, 1};
    static const float uv_part[] = {0, 0, 0.75f, 0, 0, 0.75f, 0.75f, 0.75f};
    attribs(small, 2, uv, 2);
    glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
    attribs(big, 2, uv_part, 2);
    glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
}

/* Two triangles that cross in depth: each wins on one side. */
static void case_depth(void)
{
    context(2, false);
    fbo(true);
    glClearColor(0, 0, 0, 1);
    glClearDepthf(1.0f);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    glEnable(GL_DEPTH_TEST);
    glDepthFunc(GL_LESS);
    program(VS_COLOUR, FS_COLOUR);
    static const float a[] = {-0.9f, -0.8f, -0.5f, 0.9f, -0.8f, 0.5f, 0.0f, 0.9f, 0.0f};
    static const float b[] = {-0.9f, 0.8f, 0.5f, 0.9f, 0.8f, -0.5f, 0.0f, -0.9f, 0.0f};
    static const float red[] = {1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1};
    static const float blue[] = {0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1};
    attribs(a, 3, red, 4);
    glDrawArrays(GL_TRIANGLES, 0, 3);
    attribs(b, 3, blue, 4);
    glDrawArrays(GL_TRIANGLES, 0, 3);
}

/* Alpha blending, and an additive pass. */
static void case_blend(void)
{
    context(2, false);
    fbo(false);
    glClearColor(0.1f, 0.1f, 0.1f, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    GLuint p = program(VS_FLAT, FS_UNIFORM);
    GLint colour = glGetUniformLocation(p, "colour");
    static const float q1[] = {-0.8f, -0.8f, 0.4f, -0.8f, -0.8f, 0.4f, 0.4f, 0.4f};
    static const float q2[] = {-0.4f, -0.4f, 0.8f, -0.4f, -0.4f, 0.8f, 0.8f, 0.8f};
    glEnable(GL_BLEND);
    glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
    glUniform4f(colour, 1.0f, 0.0f, 0.0f, 0.75f);
    attribs(q1, 2, NULL, 0);
    glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
    glUniform4f(colour, 0.0f, 0.0f, 1.0f, 0.5f);
    attribs(q2, 2, NULL, 0);
    glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
    glBlendFunc(GL_ONE, GL_ONE);
    glUniform4f(colour, 0.0f, 0.25f, 0.0f, 0.0f);
    attribs(q1, 2, NULL, 0);
    glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
}

/* 256 draws, one small quad each, each its own colour. */
static void case_draws(void)
{
    context(2, false);
    fbo(false);
    glClearColor(0, 0, 0, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    GLuint p = program(VS_FLAT, FS_UNIFORM);
    GLint colour = glGetUniformLocation(p, "colour");
    for (int i = 0; i < 256; i++) {
        float x = -1.0f + (float)(i % 16) * 0.125f, y = -1.0f + (float)(i / 16) * 0.125f;
        float q[] = {x, y, x + 0.1f, y, x, y + 0.1f, x + 0.1f, y + 0.1f};
        glUniform4f(colour, (float)(i % 16) / 15.0f, (float)(i / 16) / 15.0f,
                    (float)(i % 7) / 6.0f, 1.0f);
        attribs(q, 2, NULL, 0);
        glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
    }
}

/* The window-system framebuffer: a pbuffer (read back with the driver's
 * flipped blit on nvc0). */
static void case_pbuffer(void)
{
    context(2, true);
    glViewport(0, 0, W, H);
    glClearColor(0.0f, 0.0f, 0.3f, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    program(VS_COLOUR, FS_COLOUR);
    static const float pos[] = {-0.9f, -0.9f, 0.9f, -0.9f, -0.9f, 0.5f};
    static const float col[] = {1, 1, 0, 1, 0, 1, 1, 1, 1, 0, 1, 1};
    attribs(pos, 2, col, 4);
    glDrawArrays(GL_TRIANGLES, 0, 3);
}

/* glFinish between frames: the driver waits on its fence. */
static void case_finish(void)
{
    context(2, false);
    fbo(false);
    GLuint p = program(VS_FLAT, FS_UNIFORM);
    GLint colour = glGetUniformLocation(p, "colour");
    for (int frame = 0; frame < 4; frame++) {
        glClearColor(0, 0, (float)frame / 4.0f, 1);
        glClear(GL_COLOR_BUFFER_BIT);
        float s = 0.2f * (float)(frame + 1);
        float q[] = {-s, -s, s, -s, -s, s, s, s};
        glUniform4f(colour, 1.0f, (float)frame / 3.0f, 0.0f, 1.0f);
        attribs(q, 2, NULL, 0);
        glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
        glFinish();
    }
}

/* GLES 3: instancing, gl_InstanceID, flat integer varyings, texelFetch. */
static void case_es3(void)
{
    context(3, false);
    fbo(false);
    glClearColor(0, 0, 0, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    static const uint8_t lut[4 * 4] = {255, 0, 0, 255, 0, 255, 0, 255,
                                       0, 0, 255, 255, 255, 255, 255, 255};
    GLuint t;
    glGenTextures(1, &t);
    glBindTexture(GL_TEXTURE_2D, t);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 4, 1, 0, GL_RGBA, GL_UNSIGNED_BYTE, lut);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    program("#version 300 es\n"
            "layout(location = 0) in vec2 pos; flat out int id;\n"
            "void main() { id = gl_InstanceID;\n"
            "  vec2 o = vec2(float(gl_InstanceID % 4), float(gl_InstanceID / 4)) * 0.5 - 0.9;\n"
            "  gl_Position = vec4(pos * 0.4 + o, 0.0, 1.0); }\n",
            "#version 300 es\n"
            "precision mediump float; flat in int id; uniform sampler2D lut; out vec4 o;\n"
            "void main() { o = texelFetch(lut, ivec2(id & 3, 0), 0) * (float(id / 4 + 1) / 4.0); }\n");
    static const float tri[] = {0, 0, 1, 0, 0, 1};
    attribs(tri, 2, NULL, 0);
    glDrawArraysInstanced(GL_TRIANGLES, 0, 3, 16);
}

static const struct {
    const char *name;
    void (*run)(void);
    const char *what;
} cases[] = {
    {"clear", case_clear, "a full clear and a scissored one"},
    {"triangle", case_triangle, "one triangle, colours interpolated"},
    {"texture", case_texture, "a mipmapped texture, minified and magnified"},
    {"depth", case_depth, "two triangles crossing in depth"},
    {"blend", case_blend, "alpha and additive blending"},
    {"draws", case_draws, "256 draws, a uniform each"},
    {"pbuffer", case_pbuffer, "a pbuffer surface read back"},
    {"finish", case_finish, "four frames, glFinish after each"},
    {"es3", case_es3, "GLES 3: instancing, flat ints, texelFetch"},
};

/* ---- the output -------------------------------------------------------------------- */

static void write_pam(const char *path)
{
    static uint8_t px[W * H * 4];
    glReadPixels(0, 0, W, H, GL_RGBA, GL_UNSIGNED_BYTE, px);
    GLenum err = glGetError();
    if (err != GL_NO_ERROR) {
        fprintf(stderr, "gles_cases: GL error 0x%x\n", err);
        exit(2);
    }
    FILE *f = fopen(path, "wb");
    if (!f)
        die("cannot write the image");
    fprintf(f, "P7\nWIDTH %d\nHEIGHT %d\nDEPTH 4\nMAXVAL 255\nTUPLTYPE RGB_ALPHA\nENDHDR\n", W, H);
    for (int y = H - 1; y >= 0; y--) /* GL's rows are bottom first */
        fwrite(px + (size_t)y * W * 4, 1, W * 4, f);
    if (fclose(f) != 0)
        die("cannot write the image");
}

int main(int argc, char **argv)
{
    size_t n = sizeof cases / sizeof cases[0];
    if (argc == 2 && strcmp(argv[1], "list") == 0) {
        for (size_t i = 0; i < n; i++)
            printf("%-10s %s\n", cases[i].name, cases[i].what);
        return 0;
    }
    if (argc != 3) {
        fprintf(stderr, "usage: gles_cases CASE OUT.pam | gles_cases list\n");
        return 2;
    }
    for (size_t i = 0; i < n; i++)
        if (strcmp(argv[1], cases[i].name) == 0) {
            cases[i].run();
            write_pam(argv[2]);
            eglTerminate(dpy);
            return 0;
        }
    fprintf(stderr, "gles_cases: no case '%s'\n", argv[1]);
    return 2;
}
