/* The GL side of bench/gl_exec.c: a GL ES program timed inside itself (the
 * process's start-up, EGL's and the driver's initialisation are outside
 * the figures), run through Mesa's nouveau on the model and through
 * llvmpipe by `cmdgpu exec`.
 *
 *   gles_bench small FRAMES   a small scene (64x64: a clear, a coloured
 *                             triangle, two blended quads), glFinish after
 *                             each frame; prints "ms_per_frame X"
 *   gles_bench fill FRAMES    a full-screen textured quad at 1024x1024
 *                             (a 256x256 RGBA8 texture, bilinear), glFinish
 *                             after each; prints "mpx_per_s X"
 * Both print "renderer: GL_RENDERER" first and warm up for 3 frames. */
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES2/gl2.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static void die(const char *what)
{
    fprintf(stderr, "gles_bench: %s (GL 0x%x, EGL 0x%x)\n", what, glGetError(), eglGetError());
    exit(2);
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void context(void)
{
    PFNEGLGETPLATFORMDISPLAYEXTPROC get =
        (PFNEGLGETPLATFORMDISPLAYEXTPROC)eglGetProcAddress("eglGetPlatformDisplayEXT");
    EGLDisplay d = get ? get(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL) : NULL;
    if (!d || !eglInitialize(d, NULL, NULL) || !eglBindAPI(EGL_OPENGL_ES_API))
        die("EGL");
    const EGLint attrs[] = {EGL_CONTEXT_CLIENT_VERSION, 2, EGL_NONE};
    EGLContext c = eglCreateContext(d, EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT, attrs);
    if (c == EGL_NO_CONTEXT || !eglMakeCurrent(d, EGL_NO_SURFACE, EGL_NO_SURFACE, c))
        die("context");
    printf("renderer: %s\n", (const char *)glGetString(GL_RENDERER));
}

static void target(int w, int h)
{
    GLuint t, f;
    glGenTextures(1, &t);
    glBindTexture(GL_TEXTURE_2D, t);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, w, h, 0, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
    glGenFramebuffers(1, &f);
    glBindFramebuffer(GL_FRAMEBUFFER, f);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, t, 0);
    if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE)
        die("framebuffer");
    glViewport(0, 0, w, h);
}

static GLuint program(const char *vs, const char *fs)
{
    GLuint p = glCreateProgram();
    const char *src[2] = {vs, fs};
    for (int i = 0; i < 2; i++) {
        GLuint s = glCreateShader(i ? GL_FRAGMENT_SHADER : GL_VERTEX_SHADER);
        glShaderSource(s, 1, &src[i], NULL);
        glCompileShader(s);
        glAttachShader(p, s);
    }
    glBindAttribLocation(p, 0, "pos");
    glBindAttribLocation(p, 1, "attr");
    glLinkProgram(p);
    GLint ok = 0;
    glGetProgramiv(p, GL_LINK_STATUS, &ok);
    if (!ok)
        die("program");
    return p;
}

static void small_frame(GLuint colour_prog, GLuint flat_prog, GLint colour)
{
    static const float tri[] = {-0.8f, -0.8f, 0.8f, -0.7f, 0.1f, 0.85f};
    static const float col[] = {1, 0, 0, 1, 0, 1, 0, 1, 0, 0, 1, 1};
    static const float q1[] = {-0.8f, -0.8f, 0.4f, -0.8f, -0.8f, 0.4f, 0.4f, 0.4f};
    static const float q2[] = {-0.4f, -0.4f, 0.8f, -0.4f, -0.4f, 0.8f, 0.8f, 0.8f};
    glClearColor(0.2f, 0.2f, 0.2f, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    glUseProgram(colour_prog);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, tri);
    glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, 0, col);
    glEnableVertexAttribArray(0);
    glEnableVertexAttribArray(1);
    glDrawArrays(GL_TRIANGLES, 0, 3);
    glDisableVertexAttribArray(1);
    glUseProgram(flat_prog);
    glEnable(GL_BLEND);
    glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
    glUniform4f(colour, 1, 0, 0, 0.75f);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, q1);
    glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
    glUniform4f(colour, 0, 0, 1, 0.5f);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, q2);
    glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
    glDisable(GL_BLEND);
    glFinish();
}

static void bench_small(int frames)
{
    target(64, 64);
    GLuint cp = program("attribute vec4 pos; attribute vec4 attr; varying vec4 c;\n"
                        "void main() { gl_Position = pos; c = attr; }\n",
                        "precision mediump float; varying vec4 c;\n"
                        "void main() { gl_FragColor = c; }\n");
    GLuint fp = program("attribute vec4 pos; void main() { gl_Position = pos; }\n",
                        "precision mediump float; uniform vec4 colour;\n"
                        "void main() { gl_FragColor = colour; }\n");
    GLint colour = glGetUniformLocation(fp, "colour");
    for (int i = 0; i < 3; i++)
        small_frame(cp, fp, colour);
    double t0 = now();
    for (int i = 0; i < frames; i++)
        small_frame(cp, fp, colour);
    double t = now() - t0;
    printf("ms_per_frame %.4f\n", t * 1e3 / frames);
}

static void bench_fill(int frames)
{
    enum { W = 1024, H = 1024, T = 256 };
    target(W, H);
    static uint8_t tex[T * T * 4];
    for (int i = 0; i < T * T; i++) {
        tex[4 * i] = (uint8_t)i, tex[4 * i + 1] = (uint8_t)(i >> 8);
        tex[4 * i + 2] = (uint8_t)(i * 7), tex[4 * i + 3] = 255;
    }
    GLuint t;
    glGenTextures(1, &t);
    glBindTexture(GL_TEXTURE_2D, t);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, T, T, 0, GL_RGBA, GL_UNSIGNED_BYTE, tex);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    GLuint p = program("attribute vec4 pos; attribute vec2 attr; varying vec2 uv;\n"
                       "void main() { gl_Position = pos; uv = attr; }\n",
                       "precision mediump float; varying vec2 uv; uniform sampler2D s;\n"
                       "void main() { gl_FragColor = texture2D(s, uv); }\n");
    glUseProgram(p);
    static const float quad[] = {-1, -1, 1, -1, -1, 1, 1, 1};
    static const float uv[] = {0, 0, 1, 0, 0, 1, 1, 1};
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, quad);
    glVertexAttribPointer(1, 2, GL_FLOAT, GL_FALSE, 0, uv);
    glEnableVertexAttribArray(0);
    glEnableVertexAttribArray(1);
    for (int i = 0; i < 3; i++) {
        glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
        glFinish();
    }
    double t0 = now();
    for (int i = 0; i < frames; i++) {
        glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
        glFinish();
    }
    double s = now() - t0;
    printf("mpx_per_s %.2f\n", (double)W * H * frames / s / 1e6);
}

int main(int argc, char **argv)
{
    if (argc != 3 || atoi(argv[2]) < 1) {
        fprintf(stderr, "usage: gles_bench small|fill FRAMES\n");
        return 2;
    }
    context();
    if (strcmp(argv[1], "small") == 0)
        bench_small(atoi(argv[2]));
    else if (strcmp(argv[1], "fill") == 0)
        bench_fill(atoi(argv[2]));
    else
        die("no such bench");
    if (glGetError() != GL_NO_ERROR)
        die("GL error");
    return 0;
}
