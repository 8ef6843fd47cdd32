/* MAXWELL_B draws (src/nv/gpu/draw.c): BEGIN/END, the draw methods, vertex and
 * index fetch, every attribute format, instancing, limits, faults, textures
 * reachable through the texture constant buffer, and the JSON record. */
#define _GNU_SOURCE /* open_memstream */
#include <math.h>
#include <stdio.h>
#include "cmdgpu/nv3d.h"
#include "nv_testenv.h"

/* ---- draw recorder ------------------------------------------------------- */

#define MAXD 16
#define MAXV 16
#define MAXT 8
static struct {
    int n;
    cg_nv_draw d[MAXD];
    cg_nv_vertex v[MAXD][MAXV];
    cg_nv_tex_binding t[MAXD][MAXT];
    char *json[MAXD];
} rec;

static void on_draw(void *user, const cg_nv_draw *d)
{
    (void)user;
    if (rec.n >= MAXD)
        return;
    int i = rec.n++;
    rec.d[i] = *d;
    for (size_t k = 0; k < d->nvertices && k < MAXV; k++)
        rec.v[i][k] = d->vertices[k];
    for (size_t k = 0; k < d->ntextures && k < MAXT; k++)
        rec.t[i][k] = d->textures[k];
    size_t len;
    FILE *f = open_memstream(&rec.json[i], &len);
    cg_nv_draw_print_json(f, d);
    fclose(f);
}

static void rec_reset(void)
{
    for (int i = 0; i < rec.n; i++)
        free(rec.json[i]);
    memset(&rec, 0, sizeof(rec));
}

/* ---- pushbuffer building ------------------------------------------------- */

typedef struct pb {
    uint32_t w[2048];
    size_t n;
} pb;

static void mth(pb *p, uint32_t m, uint32_t v)
{
    p->w[p->n++] = H_INC(0, m, 1);
    p->w[p->n++] = v;
}

static void start(pb *p)
{
    p->n = 0;
    mth(p, 0, 0xB197);
}

/* Run the words on channel 0 of a fresh-callback environment. */
static void run(nv_env *e, pb *p)
{
    env_submit(e, 0, p->w, p->n);
    cg_nv_gpu_run(e->gpu);
}

static void env_up(nv_env *e)
{
    env_init(e);
    rec_reset();
    cg_nv_gpu_set_draw_callback(e->gpu, on_draw, NULL);
}

static void put(nv_env *e, uint64_t va, const void *p, size_t n)
{
    CHECK_EQ(cg_vas_cpu_write(e->vas, va, p, n), 0);
}

static uint32_t fmt(unsigned stream, unsigned offset, unsigned size, unsigned type, bool bgra)
{
    return stream | offset << 7 | size << 21 | type << 27 | (uint32_t)bgra << 31;
}

/* stream j: stride, enable, start, limit */
static void stream(pb *p, unsigned j, uint32_t stride, uint64_t va, uint64_t limit)
{
    mth(p, NVB197_SET_VERTEX_STREAM_A_FORMAT + 16 * j, stride | 1u << 12);
    mth(p, NVB197_SET_VERTEX_STREAM_A_LOCATION_A + 16 * j, (uint32_t)(va >> 32));
    mth(p, NVB197_SET_VERTEX_STREAM_A_LOCATION_B + 16 * j, (uint32_t)va);
    mth(p, NVB197_SET_VERTEX_STREAM_LIMIT_A_A + 8 * j, (uint32_t)(limit >> 32));
    mth(p, NVB197_SET_VERTEX_STREAM_LIMIT_A_B + 8 * j, (uint32_t)limit);
}

static uint32_t fbits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

static bool feq(float a, float b)
{
    return memcmp(&a, &b, 4) == 0 || (isnan(a) && isnan(b));
}
#define CHECK_F(a, b) CHECK(feq((a), (b)))

/* ---- the seed-000 textured square ---------------------------------------- */

static void test_seed_square(void)
{
    nv_env e;
    env_up(&e);
    uint64_t vb = e.data_va + 0x1000;
    /* 4 vertices of 0x1C bytes: position xyz (floats), uv (floats), colour
     * as four halves: 1.0 = 0x3C00, 0.5 = 0x3800, 0.25 = 0x3400, -2.0 =
     * 0xC000, 65504 = 0x7BFF (IEEE 754 binary16) */
    static const float pos[4][3] = {{-1, -1, 0}, {1, -1, 0}, {-1, 1, 0}, {1, 1, 0}};
    static const float uv[4][2] = {{0, 0}, {1, 0}, {0, 1}, {1, 1}};
    static const uint16_t col[4][4] = {{0x3C00, 0, 0, 0x3C00},
                                       {0, 0x3C00, 0, 0x3C00},
                                       {0, 0, 0x3C00, 0x3C00},
                                       {0x3800, 0x3400, 0xC000, 0x7BFF}};
    static const float colf[4][4] = {{1, 0, 0, 1}, {0, 1, 0, 1}, {0, 0, 1, 1},
                                     {0.5f, 0.25f, -2.0f, 65504.0f}};
    uint8_t buf[4 * 0x1C];
    for (int i = 0; i < 4; i++) {
        memcpy(buf + 0x1C * i, pos[i], 12);
        memcpy(buf + 0x1C * i + 12, uv[i], 8);
        memcpy(buf + 0x1C * i + 20, col[i], 8);
    }
    put(&e, vb, buf, sizeof(buf));
    pb p;
    start(&p);
    /* seed 000 "Vertex Data Submission", step by step */
    p.w[p.n++] = H_INC(0, NVB197_VERTEX_ATTRIB_FORMAT, 16);
    p.w[p.n++] = fmt(0, 0, 0x02, 7, false);  /* R32_G32_B32 FLOAT: position */
    p.w[p.n++] = fmt(0, 12, 0x04, 7, false); /* R32_G32 FLOAT: uv */
    p.w[p.n++] = fmt(0, 20, 0x03, 7, false); /* R16_G16_B16_A16 FLOAT: colour */
    for (int i = 3; i < 16; i++)
        p.w[p.n++] = fmt(0, 0, 0x01, 7, false); /* "set float, with Size = 1 and offset at 0" */
    mth(&p, NVB197_VERTEX_ARRAY_FETCH, 0x1C | 1u << 12);
    mth(&p, NVB197_VERTEX_ARRAY_START_HIGH, (uint32_t)(vb >> 32));
    mth(&p, NVB197_VERTEX_ARRAY_START_LOW, (uint32_t)vb);
    mth(&p, NVB197_VERTEX_ARRAY_LIMIT_HIGH, (uint32_t)((vb + sizeof(buf) - 1) >> 32));
    mth(&p, NVB197_VERTEX_ARRAY_LIMIT_LOW, (uint32_t)(vb + sizeof(buf) - 1));
    mth(&p, NVB197_VERTEX_BEGIN_GL, 5); /* TRIANGLE_STRIP */
    mth(&p, NVB197_VERTEX_BUFFER_FIRST, 0);
    size_t count_at = p.n + 1;
    mth(&p, NVB197_VERTEX_BUFFER_COUNT, 4);
    mth(&p, NVB197_VERTEX_END_GL, 0);
    uint64_t at = env_submit(&e, 0, p.w, p.n);
    cg_nv_gpu_run(e.gpu);
    CHECK_EQ(cg_fault_count(e.dev), 0);
    CHECK_EQ(rec.n, 1);
    const cg_nv_draw *d = &rec.d[0];
    CHECK_EQ(d->channel, 0);
    CHECK_EQ(d->stream_addr, at + 4 * count_at);
    CHECK_EQ(d->seq, 0);
    CHECK_EQ(d->topology, 5);
    CHECK_EQ(d->begin, 5);
    CHECK(!d->indexed);
    CHECK_EQ(d->first, 0);
    CHECK_EQ(d->count, 4);
    CHECK_EQ(d->instance, 0);
    CHECK_EQ(d->nvertices, 4);
    CHECK(d->streams[0].enabled);
    CHECK_EQ(d->streams[0].stride, 0x1C);
    CHECK_EQ(d->streams[0].start, vb);
    CHECK_EQ(d->streams[0].limit, vb + 4 * 0x1C - 1);
    CHECK_EQ(d->attribs[0].components, 3);
    CHECK_EQ(d->attribs[1].components, 2);
    CHECK_EQ(d->attribs[1].offset, 12);
    CHECK_EQ(d->attribs[2].components, 4);
    CHECK_EQ(d->attribs[2].offset, 20);
    CHECK_EQ(d->attribs[15].components, 4);
    CHECK_EQ(d->attribs[16].raw, 0);
    CHECK_EQ(d->attribs[16].components, 0);
    for (int i = 0; i < 4; i++) {
        const cg_nv_vertex *v = &rec.v[0][i];
        CHECK_EQ(v->index, i);
        CHECK_EQ(v->instance, 0);
        CHECK(!v->attr[0].is_int && !v->attr[0].out_of_range);
        for (int k = 0; k < 3; k++)
            CHECK_F(v->attr[0].f[k], pos[i][k]);
        CHECK_F(v->attr[0].f[3], 1.0f);
        CHECK_F(v->attr[1].f[0], uv[i][0]);
        CHECK_F(v->attr[1].f[1], uv[i][1]);
        CHECK_F(v->attr[1].f[2], 0.0f);
        CHECK_F(v->attr[1].f[3], 1.0f);
        for (int k = 0; k < 4; k++)
            CHECK_F(v->attr[2].f[k], colf[i][k]);
        /* attributes 3..15: R32_G32_B32_A32 at offset 0 = x, y, z, u */
        for (int a = 3; a < 16; a++) {
            CHECK_F(v->attr[a].f[0], pos[i][0]);
            CHECK_F(v->attr[a].f[1], pos[i][1]);
            CHECK_F(v->attr[a].f[2], pos[i][2]);
            CHECK_F(v->attr[a].f[3], uv[i][0]);
        }
    }
    CHECK(env_state(&e, 0) != CG_NV_CH_FAULTED);
    env_fini(&e);
}

/* ---- every size x type ----------------------------------------------------- */

typedef struct size_desc {
    unsigned code, n, bits[4], bytes, dst;
} size_desc;

/* clb197.h codes; layouts: components from bit 0 up (research in draw.c) */
static const size_desc sizes[] = {
    {0x01, 4, {32, 32, 32, 32}, 16, 0}, {0x02, 3, {32, 32, 32}, 12, 0},
    {0x03, 4, {16, 16, 16, 16}, 8, 0},  {0x04, 2, {32, 32}, 8, 0},
    {0x05, 3, {16, 16, 16}, 6, 0},      {0x0A, 4, {8, 8, 8, 8}, 4, 0},
    {0x0F, 2, {16, 16}, 4, 0},          {0x12, 1, {32}, 4, 0},
    {0x13, 3, {8, 8, 8}, 3, 0},         {0x18, 2, {8, 8}, 2, 0},
    {0x1B, 1, {16}, 2, 0},              {0x1D, 1, {8}, 1, 0},
    {0x2F, 4, {8, 8, 8, 8}, 4, 0},      {0x30, 4, {10, 10, 10, 2}, 4, 0},
    {0x31, 3, {11, 11, 10}, 4, 0},      {0x32, 2, {8, 8}, 2, 0},
    {0x33, 3, {8, 8, 8}, 4, 0},         {0x34, 1, {8}, 1, 3},
};

/* raw component values that exercise the sign bit and both ends */
static uint32_t raw_value(unsigned w, unsigned k)
{
    uint32_t top = w == 32 ? 0x80000000u : 1u << (w - 1);
    uint32_t all = w == 32 ? 0xFFFFFFFFu : (1u << w) - 1;
    const uint32_t v[4] = {top, top - 1, all, 1};
    return v[k];
}

static void pack(uint8_t *b, unsigned off, unsigned w, uint32_t v)
{
    for (unsigned i = 0; i < w; i++)
        if ((v >> i) & 1)
            b[(off + i) / 8] |= (uint8_t)(1u << ((off + i) % 8));
}

/* One vertex of attribute 0 with format word f from bytes b; returns the
 * number of faults. */
static size_t draw_one(uint32_t f, const uint8_t *b, size_t n, cg_nv_vertex *out,
                       cg_nv_attrib_fmt *fo)
{
    nv_env e;
    env_up(&e);
    uint64_t vb = e.data_va + 0x1000;
    put(&e, vb, b, n);
    pb p;
    start(&p);
    stream(&p, 0, 16, vb, vb + 15);
    mth(&p, NVB197_SET_VERTEX_ATTRIBUTE_A, f);
    /* POINTS, count 1, start 0 */
    mth(&p, NVB197_DRAW_VERTEX_ARRAY_BEGIN_END_INSTANCE_FIRST, 1u << 16);
    run(&e, &p);
    size_t nf = cg_fault_count(e.dev);
    if (rec.n == 1) {
        *out = rec.v[0][0];
        *fo = rec.d[0].attribs[0];
    }
    env_fini(&e);
    return nf;
}

static void test_formats(void)
{
    int supported = 0, unsupported = 0;
    for (size_t si = 0; si < sizeof(sizes) / sizeof(sizes[0]); si++) {
        const size_desc *z = &sizes[si];
        for (unsigned type = 1; type <= 7; type++) {
            uint8_t b[16] = {0};
            uint32_t raw[4] = {0};
            unsigned off = 0;
            for (unsigned k = 0; k < z->n; k++) {
                unsigned w = z->bits[k];
                raw[k] = raw_value(w, k);
                if (type == 7 && w == 16) /* halves: 1, -2, 0x3555, 65504 */
                    raw[k] = (const uint32_t[]){0x3C00, 0xC000, 0x3555, 0x7BFF}[k];
                if (type == 7 && w == 32)
                    raw[k] = fbits((const float[]){1.5f, -0.0f, 3.0e38f, 1e-45f}[k]);
                if (type == 7 && z->code == 0x31) /* 1.0, +inf, 0.75 */
                    raw[k] = (const uint32_t[]){15u << 6, 31u << 6, 14u << 5 | 16}[k];
                pack(b, off, w, raw[k]);
                off += w;
            }
            bool ok = type == 7 ? (z->code == 0x31 || z->bits[0] == 16 || z->bits[0] == 32)
                                : z->code != 0x31 &&
                                      (z->bits[0] != 32 || type == 3 || type == 4);
            cg_nv_vertex v;
            cg_nv_attrib_fmt fo = {0};
            memset(&v, 0, sizeof(v));
            size_t nf = draw_one(fmt(0, 0, z->code, type, false), b, sizeof(b), &v, &fo);
            if (!ok) {
                CHECK_EQ(nf, 1);
                unsupported++;
                continue;
            }
            supported++;
            CHECK_EQ(nf, 0);
            CHECK_EQ(fo.components, z->n);
            double fe[4] = {0, 0, 0, 1};
            int64_t ie[4] = {0, 0, 0, 1};
            for (unsigned k = 0; k < z->n; k++) {
                unsigned w = z->bits[k], d = z->dst + k;
                int64_t s = (int64_t)raw[k] - (((raw[k] >> (w - 1)) & 1) ? (int64_t)1 << w : 0);
                switch (type) {
                case 1: fe[d] = fmax((double)s / (double)((1ll << (w - 1)) - 1), -1.0); break;
                case 2: fe[d] = (double)raw[k] / (double)((1ull << w) - 1); break;
                case 3: ie[d] = s; break;
                case 4: ie[d] = raw[k]; break;
                case 5: fe[d] = raw[k]; break;
                case 6: fe[d] = (double)s; break;
                }
            }
            if (type == 7) {
                static const float half[4] = {1.0f, -2.0f, 0.333251953125f, 65504.0f};
                static const float f32[4] = {1.5f, -0.0f, 3.0e38f, 1e-45f};
                static const float p11[3] = {1.0f, INFINITY, 0.75f};
                for (unsigned k = 0; k < z->n; k++)
                    fe[k] = z->code == 0x31 ? p11[k] : z->bits[0] == 16 ? half[k] : f32[k];
            }
            bool is_int = type == 3 || type == 4;
            CHECK_EQ(v.attr[0].is_int, is_int);
            for (unsigned k = 0; k < 4; k++) {
                if (is_int) {
                    CHECK_EQ(v.attr[0].i[k], ie[k]);
                } else if (!feq(v.attr[0].f[k], (float)fe[k])) {
                    fprintf(stderr, "size 0x%02x type %u component %u: %.9g != %.9g\n", z->code,
                            type, k, (double)v.attr[0].f[k], fe[k]);
                    CHECK(0);
                }
            }
        }
    }
    /* 18 sizes x 7 types: the 8 sizes of 8-bit components and A2B10G10R10
     * lose FLOAT, the 4 of 16-bit keep all 7, the 4 of 32-bit keep SINT, UINT
     * and FLOAT, B10G11R11 is only FLOAT */
    CHECK_EQ(supported, 8 * 6 + 6 + 4 * 7 + 4 * 3 + 1);
    CHECK_EQ(unsupported, 18 * 7 - supported);

    /* hand-computed spot checks */
    cg_nv_vertex v;
    cg_nv_attrib_fmt fo;
    const uint8_t rgba[4] = {0xFF, 0x00, 0x80, 0x40};
    CHECK_EQ(draw_one(fmt(0, 0, 0x0A, 2, false), rgba, 4, &v, &fo), 0);
    CHECK_F(v.attr[0].f[0], 1.0f);
    CHECK_F(v.attr[0].f[1], 0.0f);
    CHECK_F(v.attr[0].f[2], (float)(128.0 / 255.0));
    CHECK_F(v.attr[0].f[3], (float)(64.0 / 255.0));
    const uint8_t sn[4] = {0x80, 0x81, 0x7F, 0x00};
    CHECK_EQ(draw_one(fmt(0, 0, 0x0A, 1, false), sn, 4, &v, &fo), 0);
    CHECK_F(v.attr[0].f[0], -1.0f);
    CHECK_F(v.attr[0].f[1], -1.0f);
    CHECK_F(v.attr[0].f[2], 1.0f);
    CHECK_F(v.attr[0].f[3], 0.0f);
    const uint8_t a2[4] = {0xFF, 0x03, 0x00, 0xC0}; /* R = 0x3FF, A = 3 */
    CHECK_EQ(draw_one(fmt(0, 0, 0x30, 2, false), a2, 4, &v, &fo), 0);
    CHECK_F(v.attr[0].f[0], 1.0f);
    CHECK_F(v.attr[0].f[1], 0.0f);
    CHECK_F(v.attr[0].f[2], 0.0f);
    CHECK_F(v.attr[0].f[3], 1.0f);
    const uint8_t a8[1] = {0xFF};
    CHECK_EQ(draw_one(fmt(0, 0, 0x34, 4, false), a8, 1, &v, &fo), 0);
    CHECK_EQ(v.attr[0].i[0], 0);
    CHECK_EQ(v.attr[0].i[3], 255);
    const uint8_t x8[4] = {1, 2, 3, 99}; /* X8: the fourth byte is dropped */
    CHECK_EQ(draw_one(fmt(0, 0, 0x33, 4, false), x8, 4, &v, &fo), 0);
    CHECK_EQ(v.attr[0].i[0], 1);
    CHECK_EQ(v.attr[0].i[2], 3);
    CHECK_EQ(v.attr[0].i[3], 1);
    /* bad codes: size 0x06 is not in clb197.h, NUMERICAL_TYPE 0 */
    CHECK_EQ(draw_one(fmt(0, 0, 0x06, 7, false), rgba, 4, &v, &fo), 1);
    CHECK_EQ(draw_one(fmt(0, 0, 0x12, 0, false), rgba, 4, &v, &fo), 1);
}

static void test_bgra_and_constant(void)
{
    cg_nv_vertex v;
    cg_nv_attrib_fmt fo;
    /* B8G8R8A8 in memory, R8_G8_B8_A8 + SWAP_R_AND_B (nvk_format.c) */
    const uint8_t bgra[4] = {0x10, 0x20, 0xFF, 0x40};
    CHECK_EQ(draw_one(fmt(0, 0, 0x0A, 2, true), bgra, 4, &v, &fo), 0);
    CHECK(fo.bgra);
    CHECK_F(v.attr[0].f[0], 1.0f);
    CHECK_F(v.attr[0].f[1], (float)(32.0 / 255.0));
    CHECK_F(v.attr[0].f[2], (float)(16.0 / 255.0));
    CHECK_F(v.attr[0].f[3], (float)(64.0 / 255.0));
    const uint8_t ints[4] = {5, 6, 7, 8};
    CHECK_EQ(draw_one(fmt(0, 0, 0x0A, 4, true), ints, 4, &v, &fo), 0);
    CHECK_EQ(v.attr[0].i[0], 7);
    CHECK_EQ(v.attr[0].i[2], 5);

    /* constant (INACTIVE) attribute from an unmapped stream: nothing read */
    nv_env e;
    env_up(&e);
    uint64_t hole = e.data_va + ENV_DATA_SIZE + 0x10000000;
    CHECK_EQ(cg_vas_check(e.vas, hole, 16, false, NULL), CG_FAULT_UNMAPPED);
    pb p;
    start(&p);
    stream(&p, 3, 16, hole, hole + 0xFFFF);
    mth(&p, NVB197_SET_VERTEX_ATTRIBUTE_A + 4 * 5, fmt(3, 0, 0x01, 7, false) | 1u << 6);
    mth(&p, NVB197_DRAW_VERTEX_ARRAY_BEGIN_END_INSTANCE_FIRST, 2u << 16);
    run(&e, &p);
    CHECK_EQ(cg_fault_count(e.dev), 0);
    CHECK_EQ(rec.n, 1);
    CHECK(rec.d[0].attribs[5].constant);
    CHECK_EQ(rec.d[0].attribs[5].stream, 3);
    CHECK_F(rec.v[0][1].attr[5].f[0], 0.0f);
    CHECK_F(rec.v[0][1].attr[5].f[3], 1.0f);
    env_fini(&e);
}

/* ---- indexed, one-word, instanced ------------------------------------------- */

/* attribute 0: R32 UINT from stream 0 (stride 4) = 100 * element + 7;
 * attribute 1: R32 UINT from stream 1 (stride 4) = 1000 + element */
static void setup_ids(nv_env *e, pb *p)
{
    uint32_t a[16], b[16];
    for (int i = 0; i < 16; i++)
        a[i] = 100 * (uint32_t)i + 7, b[i] = 1000 + (uint32_t)i;
    uint64_t va = e->data_va + 0x1000, vb = e->data_va + 0x1800;
    put(e, va, a, sizeof(a));
    put(e, vb, b, sizeof(b));
    start(p);
    stream(p, 0, 4, va, va + sizeof(a) - 1);
    stream(p, 1, 4, vb, vb + sizeof(b) - 1);
    mth(p, NVB197_SET_VERTEX_ATTRIBUTE_A, fmt(0, 0, 0x12, 4, false));
    mth(p, NVB197_SET_VERTEX_ATTRIBUTE_A + 4, fmt(1, 0, 0x12, 4, false));
}

static void index_buffer(nv_env *e, pb *p, const void *data, size_t n, unsigned size_code,
                         uint32_t first, uint64_t limit_adj)
{
    uint64_t ib = e->data_va + 0x2000, lim = ib + n - 1 - limit_adj;
    put(e, ib, data, n);
    mth(p, NVB197_SET_INDEX_BUFFER_A, (uint32_t)(ib >> 32));
    mth(p, NVB197_SET_INDEX_BUFFER_B, (uint32_t)ib);
    mth(p, NVB197_SET_INDEX_BUFFER_C, (uint32_t)(lim >> 32));
    mth(p, NVB197_SET_INDEX_BUFFER_D, (uint32_t)lim);
    mth(p, NVB197_SET_INDEX_BUFFER_E, size_code);
    mth(p, NVB197_SET_INDEX_BUFFER_F, first);
}

static void test_indexed(void)
{
    static const uint8_t i8[5] = {9, 3, 1, 2, 0};
    static const uint16_t i16[5] = {9, 3, 1, 2, 0};
    static const uint32_t i32[5] = {9, 3, 1, 2, 0};
    const void *data[3] = {i8, i16, i32};
    for (unsigned sc = 0; sc < 3; sc++) {
        nv_env e;
        env_up(&e);
        pb p;
        setup_ids(&e, &p);
        index_buffer(&e, &p, data[sc], 5u << sc, sc, 1, 0);
        mth(&p, NVB197_BEGIN, 4); /* TRIANGLES */
        mth(&p, NVB197_DRAW_INDEX_BUFFER, 3);
        mth(&p, NVB197_END, 0);
        run(&e, &p);
        CHECK_EQ(cg_fault_count(e.dev), 0);
        CHECK_EQ(rec.n, 1);
        const cg_nv_draw *d = &rec.d[0];
        CHECK(d->indexed);
        CHECK_EQ(d->index_size, 1u << sc);
        CHECK_EQ(d->index_addr, e.data_va + 0x2000);
        CHECK_EQ(d->index_limit, e.data_va + 0x2000 + (5u << sc) - 1);
        CHECK_EQ(d->first, 1);
        CHECK_EQ(d->count, 3);
        static const uint32_t want[3] = {3, 1, 2};
        for (int i = 0; i < 3; i++) {
            CHECK_EQ(rec.v[0][i].index, want[i]);
            CHECK(!rec.v[0][i].index_out_of_range);
            CHECK(rec.v[0][i].attr[0].is_int);
            CHECK_EQ(rec.v[0][i].attr[0].i[0], 100 * want[i] + 7);
            CHECK_EQ(rec.v[0][i].attr[1].i[0], 1000 + want[i]);
        }
        env_fini(&e);
    }
    /* INDEX_SIZE 3 is not a size */
    nv_env e;
    env_up(&e);
    pb p;
    setup_ids(&e, &p);
    index_buffer(&e, &p, i8, 5, 3, 0, 0);
    mth(&p, NVB197_BEGIN, 4);
    mth(&p, NVB197_DRAW_INDEX_BUFFER, 3);
    run(&e, &p);
    CHECK_EQ(cg_fault_count(e.dev), 1);
    CHECK_EQ(env_last_fault(&e)->kind, CG_FAULT_BAD_STATE);
    CHECK_STR(env_last_fault(&e)->message,
              "DRAW_INDEX_BUFFER: INDEX_SIZE 3 is not ONE_BYTE, TWO_BYTES or FOUR_BYTES");
    CHECK_EQ(rec.n, 0);
    env_fini(&e);
}

static void test_one_word(void)
{
    nv_env e;
    env_up(&e);
    pb p;
    setup_ids(&e, &p);
    static const uint16_t i16[6] = {5, 4, 3, 2, 1, 0};
    index_buffer(&e, &p, i16, sizeof(i16), 0 /* E is ignored by the one-word forms */, 0, 0);
    /* start 2, count 3, TRIANGLES */
    mth(&p, NVB197_DRAW_VERTEX_ARRAY_BEGIN_END_INSTANCE_FIRST, 4u << 28 | 3u << 16 | 2);
    mth(&p, NVB197_DRAW_VERTEX_ARRAY_BEGIN_END_INSTANCE_SUBSEQUENT, 1u << 28 | 2u << 16 | 0);
    mth(&p, NVB197_DRAW_INDEX_BUFFER16_BEGIN_END_INSTANCE_SUBSEQUENT, 0u << 28 | 2u << 16 | 1);
    mth(&p, NVB197_DRAW_INDEX_BUFFER16_BEGIN_END_INSTANCE_FIRST, 6u << 28 | 1u << 16 | 4);
    run(&e, &p);
    CHECK_EQ(cg_fault_count(e.dev), 0);
    CHECK_EQ(rec.n, 4);
    CHECK_EQ(rec.d[0].topology, 4);
    CHECK_EQ(rec.d[0].begin, 4);
    CHECK_EQ(rec.d[0].first, 2);
    CHECK_EQ(rec.d[0].count, 3);
    CHECK_EQ(rec.d[0].instance, 0);
    CHECK_EQ(rec.v[0][0].index, 2);
    CHECK_EQ(rec.v[0][2].index, 4);
    CHECK_EQ(rec.v[0][2].attr[0].i[0], 407);
    CHECK_EQ(rec.d[1].topology, 1);
    CHECK_EQ(rec.d[1].begin, 1u | 1u << 26);
    CHECK_EQ(rec.d[1].instance, 1);
    CHECK_EQ(rec.v[1][1].index, 1);
    CHECK_EQ(rec.v[1][1].instance, 1);
    CHECK(rec.d[2].indexed);
    CHECK_EQ(rec.d[2].index_size, 2);
    CHECK_EQ(rec.d[2].instance, 2);
    CHECK_EQ(rec.v[2][0].index, 4); /* i16[1] */
    CHECK_EQ(rec.v[2][1].index, 3);
    CHECK_EQ(rec.v[2][1].attr[0].i[0], 307);
    CHECK_EQ(rec.d[3].instance, 0);
    CHECK_EQ(rec.d[3].topology, 6);
    CHECK_EQ(rec.v[3][0].index, 1); /* i16[4] */
    for (int i = 0; i < 4; i++)
        CHECK_EQ(rec.d[i].seq, i);
    env_fini(&e);

    /* 32- and 8-bit one-word forms */
    static const uint32_t i32[3] = {7, 8, 9};
    static const uint8_t i8[3] = {11, 12, 13};
    env_up(&e);
    setup_ids(&e, &p);
    index_buffer(&e, &p, i32, sizeof(i32), 2, 0, 0);
    mth(&p, NVB197_DRAW_INDEX_BUFFER32_BEGIN_END_INSTANCE_FIRST, 1u << 16 | 2);
    mth(&p, NVB197_DRAW_INDEX_BUFFER32_BEGIN_END_INSTANCE_SUBSEQUENT, 1u << 16 | 1);
    run(&e, &p);
    p.n = 0;
    index_buffer(&e, &p, i8, sizeof(i8), 0, 0, 0);
    mth(&p, NVB197_DRAW_INDEX_BUFFER8_BEGIN_END_INSTANCE_SUBSEQUENT, 1u << 16 | 1);
    mth(&p, NVB197_DRAW_INDEX_BUFFER8_BEGIN_END_INSTANCE_FIRST, 2u << 16 | 1);
    run(&e, &p);
    CHECK_EQ(cg_fault_count(e.dev), 0);
    CHECK_EQ(rec.n, 4);
    CHECK_EQ(rec.d[0].index_size, 4);
    CHECK_EQ(rec.v[0][0].index, 9);
    CHECK_EQ(rec.d[0].instance, 0);
    CHECK_EQ(rec.d[1].index_size, 4);
    CHECK_EQ(rec.v[1][0].index, 8);
    CHECK_EQ(rec.d[1].instance, 1);
    CHECK_EQ(rec.d[2].index_size, 1);
    CHECK_EQ(rec.v[2][0].index, 12);
    CHECK_EQ(rec.v[2][0].instance, 2);
    CHECK_EQ(rec.d[3].index_size, 1);
    CHECK_EQ(rec.d[3].count, 2);
    CHECK_EQ(rec.v[3][0].index, 12);
    CHECK_EQ(rec.v[3][1].index, 13);
    CHECK_EQ(rec.v[3][1].instance, 0);
    CHECK_EQ(rec.v[3][1].attr[0].i[0], 1307);
    env_fini(&e);
}

static void test_instancing(void)
{
    nv_env e;
    env_up(&e);
    pb p;
    setup_ids(&e, &p);
    mth(&p, NVB197_SET_VERTEX_STREAM_INSTANCE_A + 4, 1); /* stream 1 per instance */
    mth(&p, NVB197_SET_VERTEX_STREAM_A_FREQUENCY + 16, 2);
    static const uint32_t begins[5] = {0, 1u << 26, 1u << 26, 2u << 26, 1u << 26};
    for (int i = 0; i < 5; i++) {
        mth(&p, NVB197_BEGIN, begins[i]); /* POINTS, FIRST/SUBSEQUENT/UNCHANGED */
        mth(&p, NVB197_SET_VERTEX_ARRAY_START, 1);
        mth(&p, NVB197_DRAW_VERTEX_ARRAY, 2);
        mth(&p, NVB197_END, 0);
    }
    run(&e, &p);
    CHECK_EQ(cg_fault_count(e.dev), 0);
    CHECK_EQ(rec.n, 5);
    static const uint32_t inst[5] = {0, 1, 2, 2, 3};
    for (int i = 0; i < 5; i++) {
        CHECK_EQ(rec.d[i].instance, inst[i]);
        CHECK(rec.d[i].streams[1].instanced);
        CHECK_EQ(rec.d[i].streams[1].frequency, 2);
        for (int k = 0; k < 2; k++) {
            CHECK_EQ(rec.v[i][k].instance, inst[i]);
            CHECK_EQ(rec.v[i][k].attr[0].i[0], 100 * (1 + k) + 7); /* per vertex */
            CHECK_EQ(rec.v[i][k].attr[1].i[0], 1000 + inst[i] / 2); /* per 2 instances */
        }
    }
    env_fini(&e);
}

/* ---- limits and faults ---------------------------------------------------------- */

static void test_limits(void)
{
    nv_env e;
    env_up(&e);
    /* the stream ends at the end of the data mapping; its limit excludes
     * vertex 2, which would be unmapped: nothing is read, zeros */
    uint64_t vb = e.data_va + ENV_DATA_SIZE - 8;
    uint32_t vals[2] = {11, 22};
    put(&e, vb, vals, 8);
    CHECK_EQ(cg_vas_check(e.vas, vb + 8, 4, false, NULL), CG_FAULT_UNMAPPED);
    pb p;
    start(&p);
    stream(&p, 0, 4, vb, vb + 7);
    mth(&p, NVB197_SET_VERTEX_ATTRIBUTE_A, fmt(0, 0, 0x12, 4, false));
    mth(&p, NVB197_SET_VERTEX_ATTRIBUTE_A + 4, fmt(0, 2, 0x12, 7, false)); /* straddles */
    mth(&p, NVB197_DRAW_VERTEX_ARRAY_BEGIN_END_INSTANCE_FIRST, 3u << 16);
    run(&e, &p);
    CHECK_EQ(cg_fault_count(e.dev), 0);
    CHECK_EQ(rec.n, 1);
    CHECK_EQ(rec.v[0][0].attr[0].i[0], 11);
    CHECK(!rec.v[0][0].attr[0].out_of_range);
    CHECK_EQ(rec.v[0][1].attr[0].i[0], 22);
    CHECK(rec.v[0][2].attr[0].out_of_range);
    CHECK_EQ(rec.v[0][2].attr[0].i[0], 0);
    CHECK_EQ(rec.v[0][2].attr[0].i[3], 1);
    CHECK(!rec.v[0][0].attr[1].out_of_range); /* bytes 2..5 */
    CHECK(rec.v[0][1].attr[1].out_of_range);  /* bytes 6..9: 8, 9 past the limit */
    CHECK_F(rec.v[0][1].attr[1].f[0], 0.0f);
    env_fini(&e);

    /* index buffer limit: the last index lies past it and reads 0; a
     * disabled stream reads zeros */
    env_up(&e);
    setup_ids(&e, &p);
    static const uint16_t i16[3] = {4, 5, 6};
    index_buffer(&e, &p, i16, sizeof(i16), 1, 0, 1);
    mth(&p, NVB197_SET_VERTEX_STREAM_A_FORMAT + 16, 4); /* stream 1 off */
    mth(&p, NVB197_BEGIN, 0);
    mth(&p, NVB197_DRAW_INDEX_BUFFER, 3);
    mth(&p, NVB197_END, 0);
    run(&e, &p);
    CHECK_EQ(cg_fault_count(e.dev), 0);
    CHECK_EQ(rec.v[0][1].index, 5);
    CHECK(!rec.v[0][1].index_out_of_range);
    CHECK_EQ(rec.v[0][2].index, 0);
    CHECK(rec.v[0][2].index_out_of_range);
    CHECK_EQ(rec.v[0][2].attr[0].i[0], 7);
    CHECK(rec.v[0][0].attr[1].out_of_range);
    CHECK(!rec.d[0].streams[1].enabled);
    env_fini(&e);
}

static void expect(nv_env *e, cg_fault_kind kind, uint64_t gpu_addr, uint64_t stream_addr,
                   uint32_t w0, uint32_t w1, const char *msg)
{
    const cg_fault *f = env_last_fault(e);
    CHECK(f != NULL);
    if (!f)
        return;
    CHECK_EQ(f->kind, kind);
    CHECK_STR(f->unit, "3d");
    CHECK_EQ(f->channel, 0);
    CHECK_EQ(f->gpu_addr, gpu_addr);
    CHECK_EQ(f->stream_addr, stream_addr);
    CHECK_EQ(f->nwords, 2);
    CHECK_EQ(f->words[0], w0);
    CHECK_EQ(f->words[1], w1);
    if (msg)
        CHECK_STR(f->message, msg);
    CHECK_EQ(env_state(e, 0), CG_NV_CH_FAULTED);
}

static void test_faults(void)
{
    /* unmapped vertex memory: the engine read faults and stops the channel */
    nv_env e;
    env_up(&e);
    uint64_t hole = e.data_va + ENV_DATA_SIZE + 0x10000000;
    pb p;
    start(&p);
    stream(&p, 2, 8, hole, hole + 0xFFFF);
    mth(&p, NVB197_SET_VERTEX_ATTRIBUTE_A + 4 * 7, fmt(2, 4, 0x12, 7, false));
    mth(&p, NVB197_BEGIN, 4);
    mth(&p, NVB197_SET_VERTEX_ARRAY_START, 3);
    size_t at = p.n + 1;
    mth(&p, NVB197_DRAW_VERTEX_ARRAY, 3);
    mth(&p, NVB197_END, 0);
    uint64_t va = env_submit(&e, 0, p.w, p.n);
    cg_nv_gpu_run(e.gpu);
    CHECK_EQ(cg_fault_count(e.dev), 1);
    char um[128];
    snprintf(um, sizeof(um), "read of 0x4 bytes at 0x%llx: no mapping at 0x%llx",
             (unsigned long long)(hole + 3 * 8 + 4), (unsigned long long)(hole + 3 * 8 + 4));
    expect(&e, CG_FAULT_UNMAPPED, hole + 3 * 8 + 4, va + 4 * at,
           H_INC(0, NVB197_DRAW_VERTEX_ARRAY, 1), 3, um);
    CHECK_EQ(rec.n, 0);
    env_fini(&e);

    /* bracket rules and the budget */
    struct {
        uint32_t m1, v1, m2, v2;
        cg_fault_kind kind;
        const char *msg;
    } cases[] = {
        {NVB197_BEGIN, 4, NVB197_BEGIN, 4, CG_FAULT_BAD_STATE,
         "BEGIN while a BEGIN .. END is open (BEGIN_END_ACTIVE)"},
        {NVB197_NO_OPERATION, 0, NVB197_END, 0, CG_FAULT_BAD_STATE, "END without a BEGIN"},
        {NVB197_NO_OPERATION, 0, NVB197_DRAW_INDEX_BUFFER, 3, CG_FAULT_BAD_STATE,
         "DRAW_INDEX_BUFFER outside BEGIN .. END"},
        {NVB197_BEGIN, 0, NVB197_DRAW_VERTEX_ARRAY_BEGIN_END_INSTANCE_FIRST, 1u << 16,
         CG_FAULT_BAD_STATE,
         "DRAW_VERTEX_ARRAY_BEGIN_END_INSTANCE_FIRST inside BEGIN .. END (BEGIN_END_ACTIVE)"},
        {NVB197_NO_OPERATION, 0, NVB197_BEGIN, 15, CG_FAULT_BAD_STATE,
         "BEGIN: OP 0xf is not a topology of clb197.h (POINTS 0 .. PATCH 14)"},
        {NVB197_NO_OPERATION, 0, NVB197_BEGIN, 3u << 26, CG_FAULT_BAD_STATE,
         "BEGIN: INSTANCE_ID 3 is not FIRST, SUBSEQUENT or UNCHANGED"},
        {NVB197_NO_OPERATION, 0, NVB197_DRAW_INDEX_BUFFER8_BEGIN_END_INSTANCE_FIRST, 0xF0010000,
         CG_FAULT_BAD_STATE,
         "DRAW_INDEX_BUFFER8_BEGIN_END_INSTANCE_FIRST: TOPOLOGY 0xf is not a topology of "
         "clb197.h"},
        {NVB197_BEGIN, 0, NVB197_DRAW_VERTEX_ARRAY, 3, CG_FAULT_HANG, NULL},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        env_up(&e);
        char msg[200];
        const char *want = cases[i].msg;
        if (cases[i].kind == CG_FAULT_HANG) {
            uint64_t lim = 2 * sizeof(cg_nv_vertex);
            cg_nv_gpu_set_op_limit(e.gpu, lim);
            snprintf(msg, sizeof(msg),
                     "budget nv.op-bytes: DRAW_VERTEX_ARRAY: 3 vertices need a 0x%llx-byte "
                     "draw record, over the limit 0x%llx",
                     (unsigned long long)(3 * sizeof(cg_nv_vertex)), (unsigned long long)lim);
            want = msg;
        }
        start(&p);
        mth(&p, cases[i].m1, cases[i].v1);
        size_t bad = p.n + 1;
        mth(&p, cases[i].m2, cases[i].v2);
        uint64_t at2 = env_submit(&e, 0, p.w, p.n);
        cg_nv_gpu_run(e.gpu);
        CHECK_EQ(cg_fault_count(e.dev), 1);
        expect(&e, cases[i].kind, 0, at2 + 4 * bad, H_INC(0, cases[i].m2, 1), cases[i].v2, want);
        CHECK_EQ(rec.n, 0);
        env_fini(&e);
    }
}

/* ---- textures through the texture constant buffer ------------------------------ */

static void test_textures(void)
{
    nv_env e;
    env_up(&e);
    uint64_t cb = e.data_va + 0x3000, tic = e.data_va + 0x4000, tsc = e.data_va + 0x5000;
    /* handles at words 8, 9, 10; word 11 is 0 and ends the list */
    uint32_t words[16] = {0};
    words[8] = 2u << 20 | 5;  /* TIC 5, TSC 2 */
    words[9] = 4u << 20 | 7;  /* TIC 7 (past the TIC limit 6), TSC 4 (past 3) */
    words[10] = 1u << 20 | 0; /* TIC 0, TSC 1 */
    words[12] = 3;            /* after the zero word: not a handle */
    put(&e, cb, words, sizeof(words));
    /* TIC 5: pitch header (version 2), A8B8G8R8, 0x1234567800 address, 16 x 8 */
    uint32_t t5[8] = {0x08 | 2u << 7 | 2u << 10 | 2u << 13 | 2u << 16, 0x34567800, 0x12 | 2u << 21,
                      0, 16 - 1, 8 - 1, 0, 0};
    uint32_t s2[8] = {0x11111111, 0x22222222, 0x33333333, 0x44444444,
                      0x55555555, 0x66666666, 0x77777777, 0x88888888};
    put(&e, tic + 32 * 5, t5, sizeof(t5));
    put(&e, tsc + 32 * 2, s2, sizeof(s2));
    pb p;
    start(&p);
    mth(&p, NVB197_SET_TEX_HEADER_POOL_A, (uint32_t)(tic >> 32));
    mth(&p, NVB197_SET_TEX_HEADER_POOL_B, (uint32_t)tic);
    mth(&p, NVB197_SET_TEX_HEADER_POOL_C, 6);
    mth(&p, NVB197_SET_TEX_SAMPLER_POOL_A, (uint32_t)(tsc >> 32));
    mth(&p, NVB197_SET_TEX_SAMPLER_POOL_B, (uint32_t)tsc);
    mth(&p, NVB197_SET_TEX_SAMPLER_POOL_C, 3);
    mth(&p, NVB197_SET_CONSTANT_BUFFER_SELECTOR_A, 0x100);
    mth(&p, NVB197_SET_CONSTANT_BUFFER_SELECTOR_B, (uint32_t)(cb >> 32));
    mth(&p, NVB197_SET_CONSTANT_BUFFER_SELECTOR_C, (uint32_t)cb);
    mth(&p, NVB197_BIND_GROUP_CONSTANT_BUFFER + 32 * 4, 1 | 3u << 4); /* fragment, slot 3 */
    mth(&p, NVB197_SET_BINDLESS_TEXTURE, 3);
    mth(&p, NVB197_DRAW_VERTEX_ARRAY_BEGIN_END_INSTANCE_FIRST, 1u << 16);
    run(&e, &p);
    CHECK_EQ(cg_fault_count(e.dev), 0);
    CHECK_EQ(rec.n, 1);
    const cg_nv_draw *d = &rec.d[0];
    CHECK_EQ(d->tex_cb_slot, 3);
    CHECK(d->cb[4][3].valid);
    CHECK_EQ(d->cb[4][3].addr, cb);
    CHECK_EQ(d->cb[4][3].size, 0x100);
    CHECK_EQ(d->ntextures, 3);
    const cg_nv_tex_binding *t = rec.t[0];
    CHECK_EQ(t[0].stage, 4);
    CHECK_EQ(t[0].slot, 8);
    CHECK_EQ(t[0].handle, 2u << 20 | 5);
    CHECK_EQ(t[0].tic_index, 5);
    CHECK_EQ(t[0].tsc_index, 2);
    CHECK(t[0].tic_ok);
    CHECK(t[0].tsc_ok);
    CHECK_MEM(t[0].tic.raw, t5, 32);
    CHECK_EQ(t[0].tic.format, 0x08);
    CHECK_EQ(t[0].tic.address, 0x1234567800ull);
    CHECK_EQ(t[0].tic.width, 16);
    CHECK_EQ(t[0].tic.height, 8);
    CHECK_MEM(t[0].tsc.raw, s2, 32);
    CHECK_EQ(t[1].slot, 9);
    CHECK_EQ(t[1].tic_index, 7);
    CHECK(!t[1].tic_ok);
    CHECK(!t[1].tsc_ok);
    CHECK_EQ(t[2].slot, 10);
    CHECK_EQ(t[2].tic_index, 0);
    CHECK_EQ(t[2].tsc_index, 1);
    CHECK(t[2].tic_ok);
    CHECK(t[2].tsc_ok);
    env_fini(&e);
}

/* Draws reach the report counters (threed.c nv3d_count_draw): 4 + 3
 * vertices; TRIANGLE_STRIP of 4 is 2 primitives, TRIANGLES of 3 is 1. */
static void test_counters(void)
{
    nv_env e;
    env_up(&e);
    pb p;
    setup_ids(&e, &p);
    uint64_t rep = e.data_va + 0x3000;
    mth(&p, NVB197_SET_STATISTICS_COUNTER, 3); /* DA vertices and primitives */
    mth(&p, NVB197_DRAW_VERTEX_ARRAY_BEGIN_END_INSTANCE_FIRST, 5u << 28 | 4u << 16);
    mth(&p, NVB197_BEGIN, 4);
    mth(&p, NVB197_DRAW_VERTEX_ARRAY, 3);
    mth(&p, NVB197_END, 0);
    for (unsigned k = 0; k < 2; k++) {
        mth(&p, NVB197_SET_REPORT_SEMAPHORE_A, (uint32_t)((rep + 16 * k) >> 32));
        mth(&p, NVB197_SET_REPORT_SEMAPHORE_B, (uint32_t)(rep + 16 * k));
        mth(&p, NVB197_SET_REPORT_SEMAPHORE_D, (k ? 3u : 1u) << 23 | 2); /* REPORT_ONLY */
    }
    run(&e, &p);
    CHECK_EQ(cg_fault_count(e.dev), 0);
    CHECK_EQ(rec.n, 2);
    CHECK_EQ(env_rd32(&e, rep), 7);
    CHECK_EQ(env_rd32(&e, rep + 4), 0);
    CHECK_EQ(env_rd32(&e, rep + 16), 3);
    env_fini(&e);
}

/* ---- JSON ---------------------------------------------------------------------- */

static void test_json(void)
{
    nv_env e;
    env_up(&e);
    uint64_t vb = e.data_va + 0x1000;
    float xy[2] = {0.1f, -3.0f};
    put(&e, vb, xy, 8);
    pb p;
    start(&p);
    stream(&p, 0, 8, vb, vb + 7);
    mth(&p, NVB197_SET_VERTEX_ATTRIBUTE_A, fmt(0, 0, 0x04, 7, false));
    size_t at = p.n + 1;
    mth(&p, NVB197_DRAW_VERTEX_ARRAY_BEGIN_END_INSTANCE_FIRST, 1u << 16);
    uint64_t va = env_submit(&e, 0, p.w, p.n);
    cg_nv_gpu_run(e.gpu);
    CHECK_EQ(rec.n, 1);
    char want[2048];
    snprintf(want, sizeof(want),
             "{\"channel\":0,\"stream_addr\":\"0x%llx\",\"seq\":0,\"topology\":\"POINTS\","
             "\"begin\":\"0x00000000\",\"indexed\":false,\"first\":0,\"count\":1,\"instance\":0,"
             "\"attribs\":[{\"attrib\":0,\"raw\":\"0x%08x\",\"stream\":0,\"offset\":0,"
             "\"constant\":false,\"size\":\"R32_G32\",\"size_code\":4,\"type\":\"FLOAT\","
             "\"bgra\":false,\"components\":2}],"
             "\"streams\":[{\"stream\":0,\"enabled\":true,\"stride\":8,\"start\":\"0x%llx\","
             "\"limit\":\"0x%llx\",\"frequency\":0,\"instanced\":false}],"
             "\"vertices\":[{\"index\":0,\"instance\":0,\"attribs\":[{\"attrib\":0,"
             "\"f\":[0.100000001,-3,0,1]}]}],"
             "\"constant_buffers\":[],\"tex_cb_slot\":0,\"textures\":[],\"rt_count\":0,"
             "\"rt_map\":[0,0,0,0,0,0,0,0],\"rt\":[],\"zeta_enabled\":false,"
             "\"zeta\":{\"addr\":\"0x0\",\"width\":0,\"height\":0,\"format\":\"0x0\","
             "\"memory\":\"0x0\",\"pitch\":false,\"block_w\":0,\"block_h\":0,\"block_d\":0}}",
             (unsigned long long)(va + 4 * at), fmt(0, 0, 0x04, 7, false),
             (unsigned long long)vb, (unsigned long long)(vb + 7));
    CHECK_STR(rec.json[0], want);
    /* %.9g reads back to the same float */
    CHECK_F(strtof("0.100000001", NULL), 0.1f);
    env_fini(&e);
    rec_reset();
}

int main(void)
{
    test_seed_square();
    test_formats();
    test_bgra_and_constant();
    test_indexed();
    test_one_word();
    test_instancing();
    test_limits();
    test_faults();
    test_textures();
    test_counters();
    test_json();
    return check_report("test_nv_3d_draw");
}
