/* nv macro (MME) interpreter benchmark: macro instructions and sends per
 * second on two representative macros, each run as MME code (assembled from
 * text with our assembler, uploaded through INSTRUCTION_RAM and called with
 * nv_mme_call, as the pushbuffer executor does) and as the same logic
 * written directly in C, in the same run, through the same io callbacks
 * (called through a pointer the compiler cannot see through, as the
 * interpreter calls them):
 *   (a) cb_fill: LOAD_CONSTANT_BUFFER_OFFSET, then a counted loop sending one
 *       parameter per iteration to LOAD_CONSTANT_BUFFER (CB_DATA), 64 words
 *       a call;
 *   (b) draw_instanced: reads BEGIN from the 3D register file, unpacks a
 *       packed draw word into its OP / PRIMITIVE_ID / SPLIT_MODE fields with
 *       EXTRACT_INSERT and EXTRACT_SHL_IMM/REG, then per instance sends
 *       BEGIN (INSTANCE_ID FIRST, then SUBSEQUENT), SET_VERTEX_ARRAY_START,
 *       DRAW_VERTEX_ARRAY and END; 8 instances a call.
 * Both versions must produce the same sends (every method and value, in
 * order: a running hash and count, and the final register file); the
 * program aborts if not. Prints instructions/s, sends/s and the ratio
 * macro time / C time (target: within 3x). Times are this thread's CPU time,
 * best of 5. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "cmdgpu/asm.h"
#include "cmdgpu/cmdgpu.h"
#include "summary.h"
#include "nv/gpu/macro.h"

#define REPS 5

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The 3D side of the io: a register file the sends write and READ reads,
 * and a running hash of every send (method, value) in order. */
typedef struct sink {
    uint32_t reg[NV_MME_METHODS];
    uint64_t hash, sends;
} sink;

static int sink_send(void *user, uint32_t method, uint32_t value)
{
    sink *s = user;
    s->reg[method & (NV_MME_METHODS - 1)] = value;
    s->hash = (s->hash ^ ((uint64_t)method << 32 | value)) * 0x100000001B3ull;
    s->sends++;
    return 0;
}

static int sink_read(void *user, uint32_t method, uint32_t *value)
{
    sink *s = user;
    *value = s->reg[method & (NV_MME_METHODS - 1)];
    return 0;
}

static void sink_reset(sink *s)
{
    memset(s, 0, sizeof *s);
    s->hash = 0xCBF29CE484222325ull;
    s->reg[0x586] = 0x12340000u; /* BEGIN's other bits, kept by the draw macro */
}

/* The C versions reach the callbacks through this pointer, so, like the
 * interpreter in the library, they make real indirect calls. */
static const nv_mme_io *volatile io_ptr;

/* Method indices (byte offset / 4), src/nv/tables/threed_b197.def. */
enum {
    M_LOAD_CONSTANT_BUFFER_OFFSET = 0x238C / 4,
    M_LOAD_CONSTANT_BUFFER = 0x2390 / 4,
    M_SET_VERTEX_ARRAY_START = 0x0D74 / 4,
    M_DRAW_VERTEX_ARRAY = 0x0D78 / 4,
    M_END = 0x1614 / 4,
    M_BEGIN = 0x1618 / 4,
};

/* (a) cb_fill(offset, n, data[n]) */
static const char cb_fill_src[] =
    "    parm r2                     # n\n"
    "    addi.movm r0, r0, 0x8e3     # LOAD_CONSTANT_BUFFER_OFFSET\n"
    "    add.movsend r0, r1, r0      # = offset\n"
    "    addi.movm r0, r0, 0x8e4     # LOAD_CONSTANT_BUFFER(0), increment 0\n"
    "loop:\n"
    "    parm r3\n"
    "    addi.mov r2, r2, -1\n"
    "    bra.nz r2, loop\n"
    "    add.movsend r0, r3, r0      # delay slot (and the last one, not taken)\n"
    "    exit\n"
    "    nop\n";

static void cb_fill_c(const uint32_t *p, size_t np)
{
    const nv_mme_io *io = io_ptr;
    (void)np;
    io->send(io->user, M_LOAD_CONSTANT_BUFFER_OFFSET, p[0]);
    uint32_t n = p[1];
    const uint32_t *d = p + 2;
    do
        io->send(io->user, M_LOAD_CONSTANT_BUFFER, *d++);
    while (--n);
}

/* (b) draw_instanced(packed, first, count, instances): packed bits 3:0 =
 * topology (BEGIN.OP), bit 4 = PRIMITIVE_ID (BEGIN bit 24), bits 6:5 =
 * SPLIT_MODE (BEGIN bits 30:29); the other BEGIN bits come from the
 * register file. INSTANCE_ID (BEGIN bits 27:26) is FIRST (0) for the first
 * instance and SUBSEQUENT (1) after. */
static const char draw_src[] =
    "    parm r2                     # first\n"
    "    parm r3                     # count\n"
    "    parm r4                     # instances\n"
    "    read.mov r5, r0, 0x586      # BEGIN as last set\n"
    "    bfins.mov r5, r5, r1, 0, 4, 0    # OP <- packed 3:0\n"
    "    bfins.mov r5, r5, r1, 4, 1, 24   # PRIMITIVE_ID <- packed 4\n"
    "    addi.mov r7, r0, 5\n"
    "    bfshl.mov r7, r7, r1, 2, 29      # (packed >> 5 & 3) << 29\n"
    "    bfins.mov r5, r5, r7, 29, 2, 29  # SPLIT_MODE\n"
    "    bfins.mov r5, r5, r0, 0, 2, 26   # INSTANCE_ID <- FIRST\n"
    "    addi.mov r6, r0, 26\n"
    "    addi.mov r7, r0, 1\n"
    "    bfshlr.mov r6, r6, r7, 0, 2      # SUBSEQUENT << 26\n"
    "loop:\n"
    "    addi.movm r0, r0, 0x586          # BEGIN\n"
    "    add.movsend r0, r5, r0\n"
    "    addi.movm r0, r0, 0x135d         # SET_VERTEX_ARRAY_START, increment 1\n"
    "    add.movsend r0, r2, r0           # first\n"
    "    add.movsend r0, r3, r0           # DRAW_VERTEX_ARRAY = count\n"
    "    bfins.mov r5, r5, r6, 26, 2, 26  # INSTANCE_ID <- SUBSEQUENT\n"
    "    addi.mov r4, r4, -1\n"
    "    bra.nz r4, loop\n"
    "    addi.movmsendhi r0, r0, 0x585    # END = bits 17:12 of 0x585 = 0\n"
    "    exit\n"
    "    nop\n";

static void draw_c(const uint32_t *p, size_t np)
{
    const nv_mme_io *io = io_ptr;
    (void)np;
    uint32_t packed = p[0], first = p[1], count = p[2], n = p[3], begin;
    io->read(io->user, M_BEGIN, &begin);
    begin = (begin & ~0xFu) | (packed & 0xFu);
    begin = (begin & ~(1u << 24)) | ((packed >> 4) & 1u) << 24;
    begin = (begin & ~(3u << 29)) | ((packed >> 5) & 3u) << 29;
    begin &= ~(3u << 26);
    do {
        io->send(io->user, M_BEGIN, begin);
        io->send(io->user, M_SET_VERTEX_ARRAY_START, first);
        io->send(io->user, M_DRAW_VERTEX_ARRAY, count);
        begin = (begin & ~(3u << 26)) | 1u << 26;
        io->send(io->user, M_END, 0);
    } while (--n);
}

static void die(const char *what)
{
    fprintf(stderr, "bench_nv_macro: %s\n", what);
    exit(1);
}

/* Assemble text and upload it at `at` as macro `macro`. */
static void upload(nv_mme_state *st, const char *text, uint32_t at, uint32_t macro)
{
    cg_asm *as;
    if (cg_asm_create(nv_mme_asm_family(), NULL, &as))
        die("assembler");
    cg_asm_add_source(as, "bench.s", text, strlen(text));
    if (cg_asm_assemble(as) != 0 || cg_asm_section_count(as) != 1) {
        fprintf(stderr, "%s", cg_asm_errors(as));
        die("assembly failed");
    }
    const char *name;
    uint64_t base;
    const uint8_t *data;
    size_t size;
    cg_asm_section(as, 0, &name, &base, &data, &size);
    nv_mme_method(st, NV_MME_M_INSTRUCTION_RAM_POINTER, at);
    for (size_t i = 0; i + 4 <= size; i += 4)
        nv_mme_method(st, NV_MME_M_INSTRUCTION_RAM,
                      (uint32_t)data[i] | (uint32_t)data[i + 1] << 8 |
                          (uint32_t)data[i + 2] << 16 | (uint32_t)data[i + 3] << 24);
    nv_mme_method(st, NV_MME_M_START_ADDRESS_RAM_POINTER, macro);
    nv_mme_method(st, NV_MME_M_START_ADDRESS_RAM, at);
    cg_asm_destroy(as);
}

typedef struct workload {
    const char *name;
    uint32_t macro;
    void (*c)(const uint32_t *p, size_t np);
    uint32_t *params; /* ncalls calls, np words each */
    size_t np, ncalls;
} workload;

static void bench(cg_device *dev, nv_mme_state *st, const workload *w)
{
    static sink s_macro, s_c;
    nv_mme_io io = {NULL, sink_send, sink_read};
    double tm = 1e9, tc = 1e9;
    uint64_t steps = 0;
    for (int rep = 0; rep < REPS; rep++) {
        sink_reset(&s_macro);
        io.user = &s_macro;
        steps = 0;
        double t0 = now();
        for (size_t i = 0; i < w->ncalls; i++) {
            nv_mme_result r;
            if (nv_mme_call(st, w->macro, w->params + i * w->np, w->np, &io, 1u << 20, NULL,
                            dev, &r) != 0)
                die("the macro faulted");
            steps += r.steps;
        }
        double t = now() - t0;
        if (t < tm)
            tm = t;

        sink_reset(&s_c);
        io.user = &s_c;
        io_ptr = &io;
        t0 = now();
        for (size_t i = 0; i < w->ncalls; i++)
            w->c(w->params + i * w->np, w->np);
        t = now() - t0;
        if (t < tc)
            tc = t;
        if (s_macro.sends != s_c.sends || s_macro.hash != s_c.hash ||
            memcmp(s_macro.reg, s_c.reg, sizeof s_c.reg) != 0) {
            fprintf(stderr, "bench_nv_macro: %s: macro and C sends differ (%llu / %llu)\n",
                    w->name, (unsigned long long)s_macro.sends, (unsigned long long)s_c.sends);
            abort();
        }
    }
    printf("nv macro %-15s %zu calls, %llu instructions, %llu sends: macro %.3f ms, "
           "%.1f M instructions/s, %.1f M sends/s; C %.3f ms, %.1f M sends/s; "
           "macro/C time %.2fx\n",
           w->name, w->ncalls, (unsigned long long)steps, (unsigned long long)s_c.sends,
           tm * 1e3, steps / tm / 1e6, s_c.sends / tm / 1e6, tc * 1e3, s_c.sends / tc / 1e6,
           tm / tc);
    char measure[64], cmp[64];
    snprintf(measure, sizeof measure, "nv macro %s", w->name);
    snprintf(cmp, sizeof cmp, "C %.2f ms", tc * 1e3);
    bench_summary(measure, tm * 1e3, "ms", cmp, tm / tc, "<= 3x C", tm / tc <= 3.0);
}

static uint64_t rng = 0x9E3779B97F4A7C15ull;
static uint32_t rnd(void)
{
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return (uint32_t)rng;
}

int main(void)
{
    cg_device *dev;
    nv_mme_state *st = malloc(sizeof *st);
    if (!st || cg_device_create(&dev) != 0)
        die("setup");
    nv_mme_state_init(st);
    upload(st, cb_fill_src, 0x000, 1);
    upload(st, draw_src, 0x040, 2);

    enum { CB_WORDS = 64, CB_CALLS = 100000, DRAW_CALLS = 300000, DRAW_INSTANCES = 8 };
    workload cb = {"cb_fill", 1, cb_fill_c, NULL, 2 + CB_WORDS, CB_CALLS};
    workload draw = {"draw_instanced", 2, draw_c, NULL, 4, DRAW_CALLS};
    cb.params = malloc(cb.np * cb.ncalls * 4);
    draw.params = malloc(draw.np * draw.ncalls * 4);
    if (!cb.params || !draw.params)
        die("malloc");
    for (size_t i = 0; i < cb.ncalls; i++) {
        uint32_t *p = cb.params + i * cb.np;
        p[0] = 4 * (rnd() % 1024); /* offset */
        p[1] = CB_WORDS;
        for (size_t k = 0; k < CB_WORDS; k++)
            p[2 + k] = rnd();
    }
    for (size_t i = 0; i < draw.ncalls; i++) {
        uint32_t *p = draw.params + i * draw.np;
        p[0] = rnd() & 0x7F;
        p[1] = rnd() % 65536;
        p[2] = 3 + rnd() % 3000;
        p[3] = DRAW_INSTANCES;
    }
    bench(dev, st, &cb);
    bench(dev, st, &draw);
    free(cb.params);
    free(draw.params);
    free(st);
    cg_device_destroy(dev);
    return 0;
}
