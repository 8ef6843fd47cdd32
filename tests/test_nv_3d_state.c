/* nv: the MAXWELL_B (B197) 3D engine state of threed.c: render-target and
 * zeta state, CB_BIND snapshots, report semaphores (release one and four
 * words, every reduction, acquire EQ/GE across channels, the watchdog, trap,
 * report counters, CLEAR_REPORT_VALUE), seed 000's fence loop through the
 * driver API, and CLEAR_SURFACE in every modelled format and both layouts,
 * checked byte for byte against a per-pixel reference written here. */
#include <math.h>
#include "nv_testenv.h"
#include "cmdgpu/image.h"
#include "nv/gpu/threed.h"

/* ---- a pushbuffer under construction ----------------------------------- */

typedef struct pb {
    uint32_t w[512];
    size_t n;
} pb;

static void put(pb *p, uint32_t v)
{
    if (p->n < sizeof(p->w) / sizeof(p->w[0]))
        p->w[p->n++] = v;
}

/* INC header on subchannel 0 and its words */
static void inc(pb *p, uint32_t m, size_t n, const uint32_t *v)
{
    put(p, H_INC(0, m, (uint32_t)n));
    for (size_t i = 0; i < n; i++)
        put(p, v[i]);
}

static void one(pb *p, uint32_t m, uint32_t v)
{
    inc(p, m, 1, &v);
}

static void bind3d(pb *p)
{
    put(p, H_INC(0, 0, 1));
    put(p, 0xB197);
}

/* the seed's QUERY_ADDRESS_HIGH/LOW, QUERY_SEQUENCE, QUERY_GET; returns the
 * index of the GET word */
static size_t report(pb *p, uint64_t va, uint32_t payload, uint32_t d)
{
    uint32_t v[4] = {(uint32_t)(va >> 32), (uint32_t)va, payload, d};
    inc(p, NVB197_SET_REPORT_SEMAPHORE_A, 4, v);
    return p->n - 1;
}

static uint64_t submit(nv_env *e, int c, const pb *p)
{
    return env_submit(e, c, p->w, p->n);
}

static nv_obj *obj3d(nv_env *e, int c)
{
    return &e->ch[c]->objs[NV_OBJ_3D];
}

static uint8_t pat(size_t i)
{
    return (uint8_t)(0xA5 ^ (i * 7));
}

static void fill_pattern(nv_env *e, uint64_t va, size_t n)
{
    uint8_t *b = malloc(n);
    for (size_t i = 0; i < n; i++)
        b[i] = pat(i);
    CHECK_EQ(cg_vas_cpu_write(e->vas, va, b, n), 0);
    free(b);
}

static void read_back(nv_env *e, uint64_t va, uint8_t *b, size_t n)
{
    CHECK_EQ(cg_vas_cpu_read(e->vas, va, b, n), 0);
}

/* ---- render-target and zeta state ---------------------------------------- */

static void test_rt_state(void)
{
    nv_env e;
    env_init(&e);
    pb p = {0};
    bind3d(&p);
    uint32_t rt3[6] = {0x12, 0x34567800, 1024, 600, 0xD5, 2u << 4 | 1u << 8};
    inc(&p, NVB197_SET_COLOR_TARGET_A + 3 * 64, 6, rt3);
    uint32_t rt5[6] = {0x01, 0x00100000, 4096, 32, 0xCF, 1u << 12};
    inc(&p, NVB197_SET_COLOR_TARGET_A + 5 * 64, 6, rt5);
    uint32_t zt[5] = {0x7F, 0xABCD0000, 0x14, 3u << 4, 0x100};
    inc(&p, NVB197_SET_ZT_A, 5, zt);
    uint32_t zs[3] = {640, 480, 1};
    inc(&p, NVB197_SET_ZT_SIZE_A, 3, zs);
    one(&p, NVB197_SET_ZT_SELECT, 1);
    submit(&e, 0, &p);
    cg_nv_gpu_run(e.gpu);
    CHECK_EQ(cg_fault_count(e.dev), 0);

    cg_nv_rt_state s;
    nv3d_rt_state(obj3d(&e, 0), 3, &s);
    CHECK_EQ(s.addr, 0x1234567800ull);
    CHECK_EQ(s.width, 1024);
    CHECK_EQ(s.height, 600);
    CHECK_EQ(s.format, 0xD5);
    CHECK_EQ(s.memory, 0x120);
    CHECK(!s.pitch);
    CHECK_EQ(s.block_w, 0);
    CHECK_EQ(s.block_h, 2);
    CHECK_EQ(s.block_d, 1);
    nv3d_rt_state(obj3d(&e, 0), 5, &s);
    CHECK_EQ(s.addr, 0x0100100000ull);
    CHECK_EQ(s.width, 4096);
    CHECK(s.pitch);
    CHECK_EQ(s.format, 0xCF);
    nv3d_rt_state(obj3d(&e, 0), 0, &s);
    CHECK_EQ(s.addr, 0);
    CHECK_EQ(s.format, 0);

    bool en = false;
    nv3d_zeta_state(obj3d(&e, 0), &s, &en);
    CHECK(en);
    CHECK_EQ(s.addr, 0x7FABCD0000ull);
    CHECK_EQ(s.width, 640);
    CHECK_EQ(s.height, 480);
    CHECK_EQ(s.format, 0x14);
    CHECK_EQ(s.memory, 0x30);
    CHECK(!s.pitch);
    CHECK_EQ(s.block_h, 3);
    env_fini(&e);
}

/* ---- CB_BIND -------------------------------------------------------------- */

static void cb_select(pb *p, uint32_t size, uint64_t va)
{
    uint32_t v[3] = {size, (uint32_t)(va >> 32), (uint32_t)va};
    inc(p, NVB197_SET_CONSTANT_BUFFER_SELECTOR_A, 3, v);
}

static void test_cb_bind(void)
{
    nv_env e;
    env_init(&e);
    uint64_t d = e.data_va;
    pb p = {0};
    bind3d(&p);
    cb_select(&p, 0x100, d + 0x1000);
    one(&p, NVB197_BIND_GROUP_CONSTANT_BUFFER + 4 * 32, 1 | 3u << 4); /* fragment, slot 3 */
    cb_select(&p, 0x10000, d + 0x2300);
    one(&p, NVB197_BIND_GROUP_CONSTANT_BUFFER, 1 | 17u << 4);         /* vertex, slot 17 */
    one(&p, NVB197_BIND_GROUP_CONSTANT_BUFFER + 2 * 32, 1 | 0u << 4); /* tess eval, slot 0 */
    one(&p, NVB197_BIND_GROUP_CONSTANT_BUFFER + 2 * 32, 0 | 0u << 4); /* ... unbound */
    submit(&e, 0, &p);
    cg_nv_gpu_run(e.gpu);
    CHECK_EQ(cg_fault_count(e.dev), 0);
    nv3d_state *s = e.ch[0]->s3d;
    CHECK(s != NULL);
    if (s) {
        CHECK(s->cb[4][3].valid);
        CHECK_EQ(s->cb[4][3].addr, d + 0x1000);
        CHECK_EQ(s->cb[4][3].size, 0x100);
        CHECK(s->cb[0][17].valid);
        CHECK_EQ(s->cb[0][17].addr, d + 0x2300);
        CHECK_EQ(s->cb[0][17].size, 0x10000);
        CHECK(!s->cb[2][0].valid);
        CHECK_EQ(s->cb[2][0].addr, 0);
        CHECK(!s->cb[4][2].valid);
    }
    /* a later selector change does not touch a snapshot */
    p.n = 0;
    cb_select(&p, 0x40, d + 0x5000);
    submit(&e, 0, &p);
    cg_nv_gpu_run(e.gpu);
    if (s)
        CHECK_EQ(s->cb[4][3].addr, d + 0x1000);
    env_fini(&e);

    /* the rules: slot 18, size over 64 KiB, a misaligned address */
    static const struct {
        uint32_t size, off, bind;
        cg_fault_kind kind;
        const char *msg;
    } bad[] = {
        {0x100, 0, 1 | 18u << 4, CG_FAULT_BAD_STATE,
         "BIND_GROUP_CONSTANT_BUFFER(1): shader slot 18, Maxwell has 18 (0..17)"},
        {0x10010, 0, 1 | 2u << 4, CG_FAULT_BAD_STATE,
         "BIND_GROUP_CONSTANT_BUFFER(1) slot 2: size 0x10010 is over 64 KiB"},
        {0x100, 0x80, 1 | 2u << 4, CG_FAULT_BAD_ALIGN, NULL},
    };
    for (size_t i = 0; i < 3; i++) {
        env_init(&e);
        d = e.data_va;
        p.n = 0;
        bind3d(&p);
        cb_select(&p, bad[i].size, d + bad[i].off);
        one(&p, NVB197_BIND_GROUP_CONSTANT_BUFFER + 32, bad[i].bind);
        uint64_t at = submit(&e, 0, &p);
        cg_nv_gpu_run(e.gpu);
        const cg_fault *f = env_last_fault(&e);
        CHECK(f && f->kind == bad[i].kind);
        if (f) {
            char want[160];
            if (!bad[i].msg)
                snprintf(want, sizeof(want),
                         "BIND_GROUP_CONSTANT_BUFFER(1) slot 2: address 0x%010llx is not "
                         "256-byte aligned", (unsigned long long)(d + 0x80));
            CHECK_STR(f->message, bad[i].msg ? bad[i].msg : want);
            CHECK_STR(f->unit, "3d");
            CHECK_EQ(f->stream_addr, at + 4 * 7); /* bind: 2 words, select: 4, header */
            CHECK_EQ(f->words[1], bad[i].bind);
        }
        CHECK_EQ(env_state(&e, 0), CG_NV_CH_FAULTED);
        env_fini(&e);
    }
}

/* ---- report semaphores ------------------------------------------------------ */

enum { D_ONE_WORD = 1u << 28, D_REDUCE = 1u << 3, D_GE = 1u << 16 };

static void test_release(void)
{
    nv_env e;
    env_init(&e);
    uint64_t d = e.data_va;
    fill_pattern(&e, d, 64);
    pb p = {0};
    bind3d(&p);                                  /* method 1 */
    report(&p, d + 0x10, 0xCAFE0001, D_ONE_WORD); /* methods 2..5 */
    report(&p, d + 0x20, 0xCAFE0002, 0);          /* methods 6..9: four words */
    submit(&e, 0, &p);
    cg_nv_gpu_run(e.gpu);
    CHECK_EQ(cg_fault_count(e.dev), 0);
    uint32_t got[4];
    read_back(&e, d + 0x10, (uint8_t *)got, 8);
    CHECK_EQ(got[0], 0xCAFE0001);
    CHECK_EQ(got[1], (uint32_t)pat(0x14) | (uint32_t)pat(0x15) << 8 | (uint32_t)pat(0x16) << 16 |
                         (uint32_t)pat(0x17) << 24); /* untouched */
    read_back(&e, d + 0x20, (uint8_t *)got, 16);
    CHECK_EQ(got[0], 0xCAFE0002);
    CHECK_EQ(got[1], 0);
    CHECK_EQ(got[2], 9); /* the timestamp: 9 methods executed, the release the 9th */
    CHECK_EQ(got[3], 0);
    CHECK_EQ(cg_nv_gpu_time(e.gpu), 9);

    /* misaligned: 4 for one word, 16 for four words */
    p.n = 0;
    size_t k = report(&p, d + 0x28, 1, 0);
    uint64_t at = submit(&e, 0, &p);
    cg_nv_gpu_run(e.gpu);
    const cg_fault *f = env_last_fault(&e);
    CHECK(f && f->kind == CG_FAULT_BAD_ALIGN);
    if (f) {
        char want[120];
        snprintf(want, sizeof(want),
                 "SET_REPORT_SEMAPHORE_D: address 0x%010llx is not 16-byte aligned",
                 (unsigned long long)(d + 0x28));
        CHECK_STR(f->message, want);
        CHECK_EQ(f->gpu_addr, d + 0x28);
        CHECK_EQ(f->stream_addr, at + 4 * k);
    }
    env_fini(&e);
}

/* the reductions by their clb197.h numbers, written out as the oracle
 * (INC/DEC wrap at the payload as CUDA's atomicInc/atomicDec do) */
static uint32_t ref_reduce(unsigned op, uint32_t old, uint32_t v, bool sgn)
{
    switch (op) {
    case 0: return old + v;
    case 1: return sgn ? (uint32_t)((int32_t)old < (int32_t)v ? (int32_t)old : (int32_t)v)
                       : (old < v ? old : v);
    case 2: return sgn ? (uint32_t)((int32_t)old > (int32_t)v ? (int32_t)old : (int32_t)v)
                       : (old > v ? old : v);
    case 3: return old >= v ? 0 : old + 1;
    case 4: return (old == 0 || old > v) ? v : old - 1;
    case 5: return old & v;
    case 6: return old | v;
    default: return old ^ v;
    }
}

static void test_reductions(void)
{
    static const uint32_t olds[4] = {5, 0xFFFFFFF0, 0, 9};
    static const uint32_t pays[4] = {7, 3, 0x80000001, 9};
    nv_env e;
    env_init(&e);
    uint64_t d = e.data_va;
    pb p = {0};
    bind3d(&p);
    unsigned n = 0;
    for (unsigned sgn = 0; sgn < 2; sgn++)
        for (unsigned op = 0; op < 8; op++)
            for (unsigned k = 0; k < 4; k++, n++) {
                uint64_t va = d + 0x100 + 4 * n;
                CHECK_EQ(cg_vas_cpu_write(e.vas, va, &olds[k], 4), 0);
                report(&p, va, pays[k], D_ONE_WORD | D_REDUCE | op << 9 | sgn << 17);
            }
    submit(&e, 0, &p);
    cg_nv_gpu_run(e.gpu);
    CHECK_EQ(cg_fault_count(e.dev), 0);
    n = 0;
    for (unsigned sgn = 0; sgn < 2; sgn++)
        for (unsigned op = 0; op < 8; op++)
            for (unsigned k = 0; k < 4; k++, n++)
                CHECK_EQ(env_rd32(&e, d + 0x100 + 4 * n), ref_reduce(op, olds[k], pays[k], sgn));
    /* spot checks of the oracle itself */
    CHECK_EQ(ref_reduce(1, 0xFFFFFFF0, 3, true), 0xFFFFFFF0);
    CHECK_EQ(ref_reduce(1, 0xFFFFFFF0, 3, false), 3);
    CHECK_EQ(ref_reduce(3, 9, 9, false), 0);
    CHECK_EQ(ref_reduce(4, 0, 0x80000001, false), 0x80000001);

    /* REDUCTION_FORMAT 2 is not defined; four words with a reduction not supported yet */
    p.n = 0;
    report(&p, d + 0x400, 1, D_ONE_WORD | D_REDUCE | 2u << 17);
    submit(&e, 0, &p);
    cg_nv_gpu_run(e.gpu);
    const cg_fault *f = env_last_fault(&e);
    CHECK(f && f->kind == CG_FAULT_BAD_STATE);
    if (f)
        CHECK_STR(f->message, "SET_REPORT_SEMAPHORE_D: REDUCTION_FORMAT 2 is not defined "
                              "(UNSIGNED_32 0, SIGNED_32 1)");
    p.n = 0;
    bind3d(&p);
    report(&p, d + 0x400, 1, D_REDUCE);
    submit(&e, 1, &p);
    cg_nv_gpu_run(e.gpu);
    f = env_last_fault(&e);
    CHECK(f && f->kind == CG_FAULT_UNSUPPORTED);
    if (f)
        CHECK_STR(f->message, "SET_REPORT_SEMAPHORE_D: reduction with the four-word structure "
                              "not supported yet");
    env_fini(&e);
}

static void test_acquire(void)
{
    for (int ge = 0; ge < 2; ge++) {
        nv_env e;
        env_init(&e);
        cg_nv_gpu_set_watchdog(e.gpu, 10); /* several runs pass while it waits */
        uint64_t d = e.data_va, sem = d + 0x40, out = d + 0x80;
        pb p = {0};
        bind3d(&p);
        report(&p, sem, 5, 1 | D_ONE_WORD | (ge ? D_GE : 0)); /* ACQUIRE */
        report(&p, out, 0x77, D_ONE_WORD);
        submit(&e, 0, &p);
        cg_nv_gpu_run(e.gpu);
        CHECK_EQ(env_state(&e, 0), CG_NV_CH_BLOCKED);
        CHECK_EQ(env_rd32(&e, out), 0);
        /* another channel writes a value that does not satisfy EQ 5 (6), or
         * GE 5 (4): still blocked */
        p.n = 0;
        bind3d(&p);
        report(&p, sem, ge ? 4 : 6, D_ONE_WORD);
        submit(&e, 1, &p);
        cg_nv_gpu_run(e.gpu);
        CHECK_EQ(env_state(&e, 0), CG_NV_CH_BLOCKED);
        CHECK_EQ(env_rd32(&e, out), 0);
        /* then one that does (5, or 9 >= 5) */
        p.n = 0;
        report(&p, sem, ge ? 9 : 5, D_ONE_WORD);
        submit(&e, 1, &p);
        cg_nv_gpu_run(e.gpu);
        CHECK_EQ(env_rd32(&e, out), 0x77);
        CHECK_EQ(env_state(&e, 0), CG_NV_CH_IDLE);
        CHECK_EQ(cg_fault_count(e.dev), 0);
        env_fini(&e);
    }
}

static void test_watchdog_and_trap(void)
{
    nv_env e;
    env_init(&e);
    uint64_t d = e.data_va, sem = d + 0x40;
    pb p = {0};
    bind3d(&p);
    size_t k = report(&p, sem, 5, 1 | D_ONE_WORD); /* ACQUIRE EQ 5, memory stays 0 */
    uint64_t at = submit(&e, 0, &p);
    cg_nv_gpu_run(e.gpu); /* the watchdog's first run without progress */
    CHECK_EQ(cg_fault_count(e.dev), 0);
    cg_nv_gpu_run(e.gpu); /* the second (cg_nv_gpu_set_watchdog default 2) */
    const cg_fault *f = env_last_fault(&e);
    CHECK(f && f->kind == CG_FAULT_HANG);
    if (f) {
        char want[160];
        snprintf(want, sizeof(want),
                 "budget nv.wait-runs: semaphore acquire at 0x%010llx never satisfied: memory holds "
                 "0x00000000, ACQUIRE (==) 0x00000005", (unsigned long long)sem);
        CHECK_STR(f->message, want);
        CHECK_EQ(f->gpu_addr, sem);
        CHECK_EQ(f->stream_addr, at + 4 * k);
        CHECK_EQ(f->words[0], H_INC(0, NVB197_SET_REPORT_SEMAPHORE_A, 4));
        CHECK_EQ(f->words[1], 1 | D_ONE_WORD);
        CHECK_EQ(f->channel, cg_nv_channel_id(e.ch[0]));
        /* the watchdog names the unit that set the wait */
        CHECK_STR(f->unit, "3d");
    }
    CHECK_EQ(env_state(&e, 0), CG_NV_CH_FAULTED);

    /* TRAP on the second channel: a trap fault with the exact fields */
    p.n = 0;
    bind3d(&p);
    k = report(&p, d + 0x100, 0x1234, 3 | D_ONE_WORD);
    at = submit(&e, 1, &p);
    cg_nv_gpu_run(e.gpu);
    f = env_last_fault(&e);
    CHECK(f && f->kind == CG_FAULT_TRAP);
    if (f) {
        CHECK_STR(f->message, "SET_REPORT_SEMAPHORE_D: OPERATION TRAP (payload 0x00001234)");
        CHECK_STR(f->unit, "3d");
        CHECK_EQ(f->gpu_addr, d + 0x100);
        CHECK_EQ(f->stream_addr, at + 4 * k);
        CHECK_EQ(f->words[1], 3 | D_ONE_WORD);
        CHECK_EQ(f->channel, cg_nv_channel_id(e.ch[1]));
    }
    CHECK_EQ(env_state(&e, 1), CG_NV_CH_FAULTED);
    CHECK_EQ(env_rd32(&e, d + 0x100), 0);
    env_fini(&e);
}

static void test_counters(void)
{
    nv_env e;
    env_init(&e);
    uint64_t d = e.data_va;
    pb p = {0};
    bind3d(&p);
    one(&p, NVB197_SET_STATISTICS_COUNTER, 3); /* DA vertices and primitives */
    one(&p, NVB197_SET_PATCH, 3);
    one(&p, NVB197_BIND_GROUP_CONSTANT_BUFFER, 0); /* any action: the 3D state exists */
    submit(&e, 0, &p);
    cg_nv_gpu_run(e.gpu);
    nv3d_state *s = nv3d_state_get(e.ch[0]);
    CHECK(s != NULL);
    if (!s) {
        env_fini(&e);
        return;
    }
    /* vertices per instance, topology, instances -> primitives per instance */
    static const struct {
        unsigned topo;
        uint64_t n;
        uint32_t inst;
        uint64_t prims;
    } draws[] = {
        {0, 5, 1, 5},   {1, 7, 1, 3},  {2, 4, 1, 4},  {3, 4, 1, 3},  {4, 8, 2, 2},
        {5, 6, 1, 4},   {6, 2, 1, 0},  {7, 9, 1, 2},  {8, 8, 1, 3},  {9, 5, 3, 1},
        {10, 8, 1, 2},  {11, 6, 1, 3}, {12, 13, 1, 2}, {13, 10, 1, 3}, {14, 10, 1, 3},
    };
    uint64_t verts = 0, prims = 0;
    for (size_t i = 0; i < sizeof(draws) / sizeof(draws[0]); i++) {
        nv3d_count_draw(s, draws[i].topo, draws[i].n, draws[i].inst);
        verts += draws[i].n * draws[i].inst;
        prims += draws[i].prims * draws[i].inst;
    }
    CHECK_EQ(verts, 123); /* summed by hand from the table */
    CHECK_EQ(prims, 44);
    p.n = 0;
    report(&p, d + 0x00, 0xAA, 2 | 1u << 23); /* REPORT_ONLY DA_VERTICES_GENERATED, 4 words */
    report(&p, d + 0x10, 0xBB, 2 | 3u << 23); /* DA_PRIMITIVES_GENERATED */
    report(&p, d + 0x20, 0xCC, 2 | 2u << 23); /* ZPASS_PIXEL_CNT: u32 seq, u32 count */
    report(&p, d + 0x30, 0xDD, 2 | 5u << 23 | D_ONE_WORD); /* VS_INVOCATIONS: zero */
    one(&p, NVB197_CLEAR_REPORT_VALUE, 0x12);                /* DA_VERTICES_GENERATED */
    report(&p, d + 0x40, 0xEE, 2 | 1u << 23 | D_ONE_WORD);
    report(&p, d + 0x44, 0xEF, 2 | 3u << 23 | D_ONE_WORD);
    submit(&e, 0, &p);
    uint64_t t0 = cg_nv_gpu_time(e.gpu);
    cg_nv_gpu_run(e.gpu);
    CHECK_EQ(cg_fault_count(e.dev), 0);
    uint32_t w[20];
    read_back(&e, d, (uint8_t *)w, sizeof(w));
    CHECK_EQ(w[0], 123);
    CHECK_EQ(w[1], 0);
    CHECK_EQ(w[2], t0 + 4);
    CHECK_EQ(w[4], 44);
    CHECK_EQ(w[6], t0 + 8);
    CHECK_EQ(w[8], 0xCC);
    CHECK_EQ(w[9], 0);
    CHECK_EQ(w[10], t0 + 12);
    CHECK_EQ(w[12], 0);
    CHECK_EQ(w[16], 0);
    CHECK_EQ(w[17], 44);
    /* counting follows the enable bits */
    p.n = 0;
    one(&p, NVB197_SET_STATISTICS_COUNTER, 2);
    submit(&e, 0, &p);
    cg_nv_gpu_run(e.gpu);
    nv3d_count_draw(s, 4, 3, 1);
    CHECK_EQ(s->counters[1], 0);
    CHECK_EQ(s->counters[3], 45);
    /* an undefined CLEAR_REPORT_VALUE type */
    p.n = 0;
    one(&p, NVB197_CLEAR_REPORT_VALUE, 0x14);
    submit(&e, 0, &p);
    cg_nv_gpu_run(e.gpu);
    const cg_fault *f = env_last_fault(&e);
    CHECK(f && f->kind == CG_FAULT_BAD_STATE);
    if (f)
        CHECK_STR(f->message, "CLEAR_REPORT_VALUE: type 0x14 is not defined in clb197.h");
    env_fini(&e);
}

static void test_compute_report(void)
{
    nv_env e;
    env_init(&e);
    uint64_t d = e.data_va;
    uint32_t w[] = {H_INC(1, 0, 1), 0xB1C0,
                    H_INC(1, NVB1C0_SET_REPORT_SEMAPHORE_A, 4), (uint32_t)(d >> 32),
                    (uint32_t)d + 0x60, 0x600D, D_ONE_WORD,
                    H_INC(1, NVB1C0_SET_REPORT_SEMAPHORE_D, 1), 2 | D_ONE_WORD};
    env_submit(&e, 0, w, sizeof(w) / 4);
    cg_nv_gpu_run(e.gpu);
    CHECK_EQ(env_rd32(&e, d + 0x60), 0x600D);
    const cg_fault *f = env_last_fault(&e);
    CHECK(f && f->kind == CG_FAULT_UNSUPPORTED);
    if (f) {
        CHECK_STR(f->message, "SET_REPORT_SEMAPHORE_D: MAXWELL_COMPUTE_B report counters not "
                              "supported yet");
        CHECK_STR(f->unit, "compute");
    }
    env_fini(&e);
}

/* Seed 000 "Fences": QUERY_ADDRESS, QUERY_SEQUENCE = 1, 2, 3 ..., QUERY_GET
 * with Operation 0, bit 4, Unit 0xF, OneWord; the CPU waits until the word
 * is >= the last value written, through the driver API. */
static void test_seed_fences(void)
{
    nv_env e;
    env_init(&e);
    uint64_t fence = e.data_va + 0x3000;
    uint32_t seq = 0;
    for (int list = 0; list < 3; list++) {
        uint32_t w[16];
        size_t n = 0;
        if (list == 0) {
            w[n++] = H_INC(0, 0, 1);
            w[n++] = 0xB197;
        }
        w[n++] = H_INC(0, NVB197_SET_REPORT_SEMAPHORE_A, 4);
        w[n++] = (uint32_t)(fence >> 32);
        w[n++] = (uint32_t)fence;
        w[n++] = ++seq;
        w[n++] = 0u | 1u << 4 | 0xFu << 12 | 1u << 28;
        uint64_t va = env_put(&e, w, n);
        uint64_t ent = cg_nv_gp_entry(va, (uint32_t)n, 0);
        CHECK_EQ(cg_nv_channel_submit_gpfifo(e.ch[0], &ent, 1, 0, NULL), 0);
        /* the CPU's loop: nothing runs until the GPU is asked to */
        uint32_t v = 0xFFFFFFFF;
        CHECK_EQ(cg_vas_cpu_read(e.vas, fence, &v, 4), 0);
        CHECK_EQ(v, seq - 1);
        int spins = 0;
        while (v < seq && spins < 8) {
            cg_nv_gpu_run(e.gpu);
            CHECK_EQ(cg_vas_cpu_read(e.vas, fence, &v, 4), 0);
            spins++;
        }
        CHECK_EQ(v, seq);
        CHECK_EQ(spins, 1);
    }
    CHECK_EQ(cg_fault_count(e.dev), 0);
    env_fini(&e);
}

/* ---- clears ----------------------------------------------------------------- */

/* The clear colour and its conversions, derived by hand:
 * R 0.2f (0x3E4CCCCD): 8 bits 51.0000008 -> 51, 5 bits 6.2 -> 6, 10 bits
 *   204.6 -> 205, 16 bits 13107.0002 -> 13107, half 1.6 * 2^-3 -> 0x3266;
 * G 0.5: 8 bits 127.5 -> 128, 5 bits 15.5 -> 16, 6 bits 31.5 -> 32, 10 bits
 *   511.5 -> 512, 16 bits 32767.5 -> 32768, half 0x3800;
 * B 1.5: clamps to the maximum, half 0x3E00;
 * A 0.75: 8 bits 191.25 -> 191, 2 bits 2.25 -> 2, 1 bit 0.75 -> 1, half 0x3A00. */
static const uint32_t CLR[4] = {0x3E4CCCCD, 0x3F000000, 0x3FC00000, 0x3F400000};

typedef struct ref_px {
    unsigned bpp;
    uint8_t val[16], msk[16];
} ref_px;

static void ref_bits(ref_px *r, unsigned off, unsigned bits, uint64_t v, bool on)
{
    if (!on)
        return;
    for (unsigned i = 0; i < bits; i++) {
        unsigned b = off + i;
        r->msk[b / 8] |= (uint8_t)(1u << (b % 8));
        if ((v >> i) & 1)
            r->val[b / 8] |= (uint8_t)(1u << (b % 8));
    }
}

/* en: R G B A enables in bits 0..3 */
static bool ref_color(uint32_t fmt, unsigned en, ref_px *r)
{
    memset(r, 0, sizeof(*r));
    bool R = en & 1, G = en & 2, B = en & 4, A = en & 8;
    switch (fmt) {
    case 0xCF: r->bpp = 4; ref_bits(r, 0, 8, 255, B); ref_bits(r, 8, 8, 128, G);
               ref_bits(r, 16, 8, 51, R); ref_bits(r, 24, 8, 191, A); return true;
    case 0xD5: r->bpp = 4; ref_bits(r, 0, 8, 51, R); ref_bits(r, 8, 8, 128, G);
               ref_bits(r, 16, 8, 255, B); ref_bits(r, 24, 8, 191, A); return true;
    case 0xD1: r->bpp = 4; ref_bits(r, 0, 10, 205, R); ref_bits(r, 10, 10, 512, G);
               ref_bits(r, 20, 10, 1023, B); ref_bits(r, 30, 2, 2, A); return true;
    case 0xDA: r->bpp = 4; ref_bits(r, 0, 16, 13107, R); ref_bits(r, 16, 16, 32768, G);
               return true;
    case 0xE8: r->bpp = 2; ref_bits(r, 11, 5, 6, R); ref_bits(r, 5, 6, 32, G);
               ref_bits(r, 0, 5, 31, B); return true;
    case 0xE9: r->bpp = 2; ref_bits(r, 10, 5, 6, R); ref_bits(r, 5, 5, 16, G);
               ref_bits(r, 0, 5, 31, B); ref_bits(r, 15, 1, 1, A); return true;
    case 0xEA: r->bpp = 2; ref_bits(r, 0, 8, 51, R); ref_bits(r, 8, 8, 128, G); return true;
    case 0xEE: r->bpp = 2; ref_bits(r, 0, 16, 13107, R); return true;
    case 0xF3: r->bpp = 1; ref_bits(r, 0, 8, 51, R); return true;
    case 0xE5: r->bpp = 4; ref_bits(r, 0, 32, CLR[0], R); return true;
    case 0xCB: r->bpp = 8; ref_bits(r, 0, 32, CLR[0], R); ref_bits(r, 32, 32, CLR[1], G);
               return true;
    case 0xC0: r->bpp = 16;
        for (unsigned c = 0; c < 4; c++)
            ref_bits(r, 32 * c, 32, CLR[c], (en >> c) & 1);
        return true;
    case 0xF2: r->bpp = 2; ref_bits(r, 0, 16, 0x3266, R); return true;
    case 0xDE: r->bpp = 4; ref_bits(r, 0, 16, 0x3266, R); ref_bits(r, 16, 16, 0x3800, G);
               return true;
    case 0xCA: r->bpp = 8; ref_bits(r, 0, 16, 0x3266, R); ref_bits(r, 16, 16, 0x3800, G);
               ref_bits(r, 32, 16, 0x3E00, B); ref_bits(r, 48, 16, 0x3A00, A); return true;
    default: return false;
    }
}

/* Depth 0.75 and stencil 0x15A (& 0xFF = 0x5A): Z16 49151.25 -> 49151,
 * Z24 12582911.25 -> 0xBFFFFF, ZF32 0x3F400000. */
static bool ref_zeta(uint32_t fmt, bool z, bool s, ref_px *r)
{
    memset(r, 0, sizeof(*r));
    switch (fmt) {
    case 0x13: r->bpp = 2; ref_bits(r, 0, 16, 49151, z); return true;
    case 0x14: r->bpp = 4; ref_bits(r, 8, 24, 0xBFFFFF, z); ref_bits(r, 0, 8, 0x5A, s);
               return true;
    case 0x15: r->bpp = 4; ref_bits(r, 0, 24, 0xBFFFFF, z); return true;
    case 0x16: r->bpp = 4; ref_bits(r, 0, 24, 0xBFFFFF, z); ref_bits(r, 24, 8, 0x5A, s);
               return true;
    case 0x17: r->bpp = 1; ref_bits(r, 0, 8, 0x5A, s); return true;
    case 0x0A: r->bpp = 4; ref_bits(r, 0, 32, 0x3F400000, z); return true;
    case 0x19: r->bpp = 8; ref_bits(r, 0, 32, 0x3F400000, z); ref_bits(r, 32, 8, 0x5A, s);
               return true;
    default: return false;
    }
}

/* The GOB formula of research/nv.md section 7 written out (depth 1). */
static uint64_t gob_addr(uint64_t xb, uint32_t y, uint32_t width_bytes, unsigned bh)
{
    uint64_t blocks_x = (width_bytes + 63) / 64;
    uint32_t gob_y = y / 8, block_h = 1u << bh;
    uint64_t block = (uint64_t)(gob_y / block_h) * blocks_x + xb / 64;
    return block * (512u << bh) + (gob_y % block_h) * 512 + ((xb % 64) / 32) * 256 +
           ((y % 8) / 2) * 64 + ((xb % 32) / 16) * 32 + (y % 2) * 16 + xb % 16;
}

typedef struct tgt {
    bool pitch;
    unsigned bh;
    uint32_t w, h, pitch_bytes;
    uint64_t layer_bytes;
} tgt;

static uint64_t tgt_layer_bytes(const tgt *t, unsigned bpp)
{
    if (t->pitch)
        return (uint64_t)t->pitch_bytes * t->h;
    uint64_t rows = 8u << t->bh;
    return ((t->w * bpp + 63) / 64) * ((t->h + rows - 1) / rows) * (512u << t->bh);
}

/* Apply the reference pixel to [x0,x1) x [y0,y1) of a host copy of a layer. */
static void ref_fill(uint8_t *mem, const tgt *t, const ref_px *r, uint32_t x0, uint32_t x1,
                     uint32_t y0, uint32_t y1)
{
    for (uint32_t y = y0; y < y1; y++)
        for (uint32_t x = x0; x < x1; x++)
            for (unsigned b = 0; b < r->bpp; b++) {
                uint64_t xb = (uint64_t)x * r->bpp + b;
                uint64_t off = t->pitch ? (uint64_t)y * t->pitch_bytes + xb
                                        : gob_addr(xb, y, t->w * r->bpp, t->bh);
                mem[off] = (uint8_t)((mem[off] & ~r->msk[b]) | (r->val[b] & r->msk[b]));
            }
}

/* RT 0 (or zeta) set-up of a w x h target at va */
static void rt_setup(pb *p, unsigned i, uint64_t va, const tgt *t, uint32_t fmt, unsigned bpp,
                     uint32_t third, uint32_t layer)
{
    uint32_t v[9] = {(uint32_t)(va >> 32), (uint32_t)va, t->pitch ? t->pitch_bytes : t->w, t->h,
                     fmt, t->pitch ? 1u << 12 : t->bh << 4, third,
                     (uint32_t)(tgt_layer_bytes(t, bpp) / 4), layer};
    inc(p, NVB197_SET_COLOR_TARGET_A + 64 * i, 9, v);
}

static void zt_setup(pb *p, uint64_t va, const tgt *t, uint32_t fmt, unsigned bpp,
                     uint32_t third, uint32_t layer)
{
    uint32_t a[5] = {(uint32_t)(va >> 32), (uint32_t)va, fmt, t->bh << 4,
                     (uint32_t)(tgt_layer_bytes(t, bpp) / 4)};
    inc(p, NVB197_SET_ZT_A, 5, a);
    uint32_t sz[3] = {t->w, t->h, third};
    inc(p, NVB197_SET_ZT_SIZE_A, 3, sz);
    one(p, NVB197_SET_ZT_SELECT, 1);
    one(p, NVB197_SET_ZT_LAYER, layer);
}

static void clear_values(pb *p)
{
    inc(p, NVB197_SET_COLOR_CLEAR_VALUE, 4, CLR);
    one(p, NVB197_SET_Z_CLEAR_VALUE, 0x3F400000);
    one(p, NVB197_SET_STENCIL_CLEAR_VALUE, 0x15A);
}

static void surface_clip(pb *p, uint32_t x, uint32_t w, uint32_t y, uint32_t h)
{
    uint32_t v[2] = {x | w << 16, y | h << 16};
    inc(p, NVB197_SET_SURFACE_CLIP_HORIZONTAL, 2, v);
}

static const uint32_t color_fmts[] = {0xC0, 0xCA, 0xCB, 0xCF, 0xD1, 0xD5, 0xDA, 0xDE,
                                      0xE5, 0xE8, 0xE9, 0xEA, 0xEE, 0xF2, 0xF3};
static const uint32_t zeta_fmts[] = {0x0A, 0x13, 0x14, 0x15, 0x16, 0x17, 0x19};

/* One clear of RT 0 or zeta in a fresh environment; compares the whole
 * layer (and the next) with the reference. Returns false on a setup error. */
static void run_clear(bool zeta, uint32_t fmt, const tgt *t0, uint32_t clear_word,
                      unsigned en_rgba, bool z, bool s)
{
    nv_env e;
    env_init(&e);
    ref_px r;
    bool ok = zeta ? ref_zeta(fmt, z, s, &r) : ref_color(fmt, en_rgba, &r);
    CHECK(ok);
    tgt t = *t0;
    if (t.pitch)
        t.pitch_bytes = (t.w * r.bpp + 63) & ~63u;
    uint64_t lb = tgt_layer_bytes(&t, r.bpp);
    uint64_t va = e.data_va + 0x10000;
    size_t total = (size_t)(2 * lb);
    fill_pattern(&e, va, total);
    uint8_t *want = malloc(total), *got = malloc(total);
    read_back(&e, va, want, total);
    pb p = {0};
    bind3d(&p);
    if (zeta)
        zt_setup(&p, va, &t, fmt, r.bpp, 2, 0);
    else
        rt_setup(&p, 0, va, &t, fmt, r.bpp, 2, 0);
    clear_values(&p);
    surface_clip(&p, 2, t.w - 5, 1, t.h - 3); /* [2, w-3) x [1, h-2) */
    one(&p, NVB197_CLEAR_SURFACE, clear_word);
    submit(&e, 0, &p);
    cg_nv_gpu_run(e.gpu);
    CHECK_EQ(cg_fault_count(e.dev), 0);
    ref_fill(want, &t, &r, 2, t.w - 3, 1, t.h - 2);
    read_back(&e, va, got, total);
    CHECK_MEM(got, want, total);
    if (memcmp(got, want, total) != 0)
        fprintf(stderr, "  (%s format 0x%02x, %s, enables 0x%x)\n", zeta ? "zeta" : "color",
                fmt, t.pitch ? "pitch" : "block linear", zeta ? (unsigned)(z | s << 1) : en_rgba);
    free(want);
    free(got);
    env_fini(&e);
}

static void test_clear_formats(void)
{
    tgt pitch = {true, 0, 70, 19, 0, 0};
    tgt bl = {false, 1, 70, 19, 0, 0};
    for (size_t i = 0; i < sizeof(color_fmts) / sizeof(color_fmts[0]); i++) {
        run_clear(false, color_fmts[i], &pitch, 0x3C, 15, false, false);
        run_clear(false, color_fmts[i], &bl, 0x3C, 15, false, false);
        /* masks: G and A only (a masked channel keeps its bits) */
        run_clear(false, color_fmts[i], &bl, 0x28, 10, false, false);
        run_clear(false, color_fmts[i], &pitch, 0x14, 5, false, false);
    }
    /* rows longer than the engine's 4 KiB access: 295 x 16 bytes */
    tgt wide = {true, 0, 300, 4, 0, 0};
    run_clear(false, 0xC0, &wide, 0x3C, 15, false, false);
    run_clear(false, 0xC0, &wide, 0x24, 9, false, false);
    for (size_t i = 0; i < sizeof(zeta_fmts) / sizeof(zeta_fmts[0]); i++) {
        run_clear(true, zeta_fmts[i], &bl, 3, 0, true, true);
        run_clear(true, zeta_fmts[i], &bl, 1, 0, true, false);
        run_clear(true, zeta_fmts[i], &bl, 2, 0, false, true);
    }
}

/* The same picture through cg_image_hash: memory of a pitch RGBA8 clear and
 * the reference image built here hash alike, and the hash is the FNV-1a of
 * the reference bytes written out independently. */
static void test_clear_hash(void)
{
    nv_env e;
    env_init(&e);
    uint64_t va = e.data_va;
    tgt t = {true, 0, 16, 4, 64, 0};
    fill_pattern(&e, va, 64 * 4);
    pb p = {0};
    bind3d(&p);
    rt_setup(&p, 0, va, &t, 0xD5, 4, 1, 0);
    clear_values(&p);
    surface_clip(&p, 0, 16, 0, 4);
    put(&p, H_IMMD(0, NVB197_CLEAR_SURFACE, 0x3C)); /* Mesa's IMMED_NVC0 form */
    submit(&e, 0, &p);
    cg_nv_gpu_run(e.gpu);
    uint8_t mem[256], ref[256];
    read_back(&e, va, mem, 256);
    for (int i = 0; i < 64; i++) {
        ref[4 * i] = 51, ref[4 * i + 1] = 128, ref[4 * i + 2] = 255, ref[4 * i + 3] = 191;
    }
    cg_image a = {16, 4, 64, CG_FORMAT_RGBA8888, mem};
    cg_image b = {16, 4, 64, CG_FORMAT_RGBA8888, ref};
    uint64_t h = 0xcbf29ce484222325ull;
    uint8_t hdr[8] = {16, 0, 0, 0, 4, 0, 0, 0};
    for (int i = 0; i < 8; i++)
        h = (h ^ hdr[i]) * 0x100000001b3ull;
    for (int i = 0; i < 256; i++)
        h = (h ^ ref[i]) * 0x100000001b3ull;
    CHECK_EQ(cg_image_hash(&a), h);
    CHECK_EQ(cg_image_hash(&b), h);
    CHECK_MEM(mem, ref, 256);
    env_fini(&e);
}

static void test_clear_layers_scissor(void)
{
    /* layers: THIRD_DIMENSION 3, base LAYER 1; RT_ARRAY_INDEX 1 writes layer
     * 2 only; RT_ARRAY_INDEX 2 is layer 3, past the count: nothing */
    nv_env e;
    env_init(&e);
    tgt t = {false, 0, 20, 10, 0, 0};
    uint64_t lb = tgt_layer_bytes(&t, 4), va = e.data_va + 0x20000;
    fill_pattern(&e, va, 4 * lb);
    uint8_t *want = malloc(4 * lb), *got = malloc(4 * lb);
    read_back(&e, va, want, 4 * lb);
    pb p = {0};
    bind3d(&p);
    rt_setup(&p, 2, va, &t, 0xCF, 4, 3, 1);
    clear_values(&p);
    surface_clip(&p, 0, 20, 0, 10);
    one(&p, NVB197_CLEAR_SURFACE, 0x3C | 2u << 6 | 1u << 10);
    one(&p, NVB197_CLEAR_SURFACE, 0x3C | 2u << 6 | 2u << 10);
    submit(&e, 0, &p);
    cg_nv_gpu_run(e.gpu);
    CHECK_EQ(cg_fault_count(e.dev), 0);
    ref_px r;
    ref_color(0xCF, 15, &r);
    ref_fill(want + 2 * lb, &t, &r, 0, 20, 0, 10);
    read_back(&e, va, got, 4 * lb);
    CHECK_MEM(got, want, 4 * lb);

    /* scissor 0 applies with USE_SCISSOR0 and SET_SCISSOR_ENABLE(0) both on */
    fill_pattern(&e, va, 4 * lb);
    read_back(&e, va, want, 4 * lb);
    p.n = 0;
    one(&p, NVB197_SET_SCISSOR_ENABLE, 1);
    uint32_t sc[2] = {5 | 9u << 16, 2 | 4u << 16};
    inc(&p, NVB197_SET_SCISSOR_HORIZONTAL, 2, sc);
    one(&p, NVB197_SET_CLEAR_SURFACE_CONTROL, 1u << 8);
    one(&p, NVB197_CLEAR_SURFACE, 0x3C | 2u << 6); /* layer 1 */
    /* clear rect too: [1, 3) x [7, 10), scissor off in the control */
    uint32_t cr[2] = {1 | 3u << 16, 7 | 10u << 16};
    inc(&p, NVB197_SET_CLEAR_RECT_HORIZONTAL, 2, cr);
    one(&p, NVB197_SET_CLEAR_SURFACE_CONTROL, 1u << 4);
    one(&p, NVB197_CLEAR_SURFACE, 0x3C | 2u << 6 | 1u << 10); /* layer 2 */
    /* control bit on, scissor enable off: the whole target of layer 0 ... */
    one(&p, NVB197_SET_SCISSOR_ENABLE, 0);
    one(&p, NVB197_SET_CLEAR_SURFACE_CONTROL, 1u << 8);
    one(&p, NVB197_SET_COLOR_TARGET_LAYER + 2 * 64, 0);
    one(&p, NVB197_CLEAR_SURFACE, 0x3C | 2u << 6);
    submit(&e, 0, &p);
    cg_nv_gpu_run(e.gpu);
    CHECK_EQ(cg_fault_count(e.dev), 0);
    ref_fill(want + 1 * lb, &t, &r, 5, 9, 2, 4);
    ref_fill(want + 2 * lb, &t, &r, 1, 3, 7, 10);
    ref_fill(want + 0 * lb, &t, &r, 0, 20, 0, 10);
    read_back(&e, va, got, 4 * lb);
    CHECK_MEM(got, want, 4 * lb);
    free(want);
    free(got);
    env_fini(&e);
}

/* The GOB formula with depth (research/nv.md section 7): blocks of 1 x 2^bh
 * x 2^bd GOBs, GOBs stacked by y, then by z slice, inside a block; blocks row
 * by row, then plane by plane. */
static uint64_t gob_addr3(uint64_t xb, uint32_t y, uint32_t z, uint32_t width_bytes,
                          uint32_t height, unsigned bh, unsigned bd)
{
    uint64_t blocks_x = (width_bytes + 63) / 64, rows = 8u << bh;
    uint64_t blocks_y = (height + rows - 1) / rows;
    uint64_t block = ((z >> bd) * blocks_y + y / rows) * blocks_x + xb / 64;
    uint64_t gob = ((uint64_t)(z & ((1u << bd) - 1)) << bh) + (y % rows) / 8;
    return block * (512u << (bh + bd)) + gob * 512 + ((xb % 64) / 32) * 256 +
           ((y % 8) / 2) * 64 + ((xb % 32) / 16) * 32 + (y % 2) * 16 + xb % 16;
}

/* A 3-D block-linear target (MEMORY THIRD_DIMENSION_CONTROL = depth): the
 * clear's layer is a depth slice; a disabled target and a disabled zeta
 * write nothing and do not fault. */
static void test_clear_3d_and_disabled(void)
{
    nv_env e;
    env_init(&e);
    const uint32_t w = 40, h = 12, depth = 5;
    const unsigned bh = 1, bd = 1, bpp = 2;
    uint64_t blocks = ((w * bpp + 63) / 64) * ((h + 15) / 16) * ((depth + 1) / 2);
    size_t total = (size_t)(blocks * (512u << (bh + bd)));
    uint64_t va = e.data_va + 0x40000;
    fill_pattern(&e, va, total);
    uint8_t *want = malloc(total), *got = malloc(total);
    read_back(&e, va, want, total);
    pb p = {0};
    bind3d(&p);
    uint32_t rt[9] = {(uint32_t)(va >> 32), (uint32_t)va, w, h, 0xE8,
                      bh << 4 | bd << 8 | 1u << 16, depth, 0, 1};
    inc(&p, NVB197_SET_COLOR_TARGET_A, 9, rt);
    clear_values(&p);
    surface_clip(&p, 0, w, 0, h);
    one(&p, NVB197_CLEAR_SURFACE, 0x3C | 2u << 10); /* slice 1 + 2 = 3 */
    one(&p, NVB197_CLEAR_SURFACE, 0x3C | 4u << 10); /* slice 5: past the depth */
    /* disabled colour target 1 and zeta: nothing, no fault */
    one(&p, NVB197_SET_COLOR_TARGET_A + 64, (uint32_t)(va >> 32));
    one(&p, NVB197_SET_COLOR_TARGET_B + 64, (uint32_t)va);
    one(&p, NVB197_CLEAR_SURFACE, 0x3C | 1u << 6);
    uint32_t zt[5] = {(uint32_t)(va >> 32), (uint32_t)va, 0x13, 0, 0};
    inc(&p, NVB197_SET_ZT_A, 5, zt);
    uint32_t zs[3] = {w, h, 1};
    inc(&p, NVB197_SET_ZT_SIZE_A, 3, zs);
    one(&p, NVB197_SET_ZT_SELECT, 0);
    one(&p, NVB197_CLEAR_SURFACE, 3);
    submit(&e, 0, &p);
    cg_nv_gpu_run(e.gpu);
    CHECK_EQ(cg_fault_count(e.dev), 0);
    CHECK_EQ(env_state(&e, 0), CG_NV_CH_IDLE);
    /* R5G6B5 of (0.2, 0.5, 1.5): 6 << 11 | 32 << 5 | 31 = 0x341F */
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++) {
            uint64_t off = gob_addr3(2ull * x, y, 3, w * bpp, h, bh, bd);
            want[off] = 0x1F;
            want[off + 1] = 0x34;
        }
    read_back(&e, va, got, total);
    CHECK_MEM(got, want, total);
    free(want);
    free(got);
    env_fini(&e);
}

typedef struct trace_count {
    int clears, releases;
    uint64_t clear_bytes, release_addr;
} trace_count;

static void count_events(void *user, const cg_trace_event *ev)
{
    trace_count *c = user;
    if (ev->kind == CG_TRACE_MEM_WRITE && ev->reg == NVB197_CLEAR_SURFACE) {
        c->clears++;
        c->clear_bytes += ev->size;
    }
    if (ev->kind == CG_TRACE_FENCE && ev->reg == NVB197_SET_REPORT_SEMAPHORE_D) {
        c->releases++;
        c->release_addr = ev->gpu_addr;
    }
}

static void test_clear_faults_and_trace(void)
{
    nv_env e;
    env_init(&e);
    trace_count tc = {0};
    CHECK(cg_trace_add(e.dev, count_events, &tc) >= 0);
    uint64_t va = e.data_va;
    tgt t = {true, 0, 8, 4, 64, 0};
    pb p = {0};
    bind3d(&p);
    rt_setup(&p, 0, va, &t, 0xD5, 4, 1, 0);
    clear_values(&p);
    surface_clip(&p, 0, 8, 0, 4);
    one(&p, NVB197_CLEAR_SURFACE, 0x3C);
    report(&p, va + 0x400, 1, D_ONE_WORD);
    submit(&e, 0, &p);
    cg_nv_gpu_run(e.gpu);
    CHECK_EQ(tc.clears, 1);
    CHECK_EQ(tc.clear_bytes, 8 * 4 * 4);
    CHECK_EQ(tc.releases, 1);
    CHECK_EQ(tc.release_addr, va + 0x400);

    /* a format this model does not write */
    p.n = 0;
    one(&p, NVB197_SET_COLOR_TARGET_FORMAT, 0xF9);
    one(&p, NVB197_CLEAR_SURFACE, 0x3C);
    uint64_t at = submit(&e, 0, &p);
    cg_nv_gpu_run(e.gpu);
    const cg_fault *f = env_last_fault(&e);
    CHECK(f && f->kind == CG_FAULT_UNSUPPORTED);
    if (f) {
        CHECK_STR(f->message, "CLEAR_SURFACE: color target 0 format 0xf9 not supported yet");
        CHECK_EQ(f->gpu_addr, va);
        CHECK_EQ(f->stream_addr, at + 12);
        CHECK_EQ(f->words[1], 0x3C);
    }
    CHECK_EQ(env_state(&e, 0), CG_NV_CH_FAULTED);

    /* the second channel keeps working: zero size, then unmapped */
    p.n = 0;
    bind3d(&p);
    tgt z = {true, 0, 0, 4, 0, 0};
    rt_setup(&p, 1, va, &z, 0xD5, 4, 1, 0);
    one(&p, NVB197_CLEAR_SURFACE, 0x3C | 1u << 6);
    submit(&e, 1, &p);
    cg_nv_gpu_run(e.gpu);
    f = env_last_fault(&e);
    CHECK(f && f->kind == CG_FAULT_BAD_STATE);
    if (f)
        CHECK_STR(f->message, "CLEAR_SURFACE: color target 1 has zero size (0 x 4, width is "
                              "the pitch in bytes)");
    env_fini(&e);

    env_init(&e);
    uint64_t hole = 0x8000000000ull; /* nothing is mapped at 512 GiB */
    p.n = 0;
    bind3d(&p);
    tgt b = {false, 0, 64, 16, 0, 0};
    rt_setup(&p, 0, hole, &b, 0xCF, 4, 1, 0);
    clear_values(&p);
    surface_clip(&p, 0, 64, 0, 16);
    one(&p, NVB197_CLEAR_SURFACE, 0x3C);
    at = submit(&e, 0, &p);
    cg_nv_gpu_run(e.gpu);
    f = env_last_fault(&e);
    CHECK(f && f->kind == CG_FAULT_UNMAPPED);
    if (f) {
        CHECK_EQ(f->gpu_addr, hole);
        CHECK_STR(f->unit, "3d");
        CHECK_EQ(f->stream_addr, at + 4 * (p.n - 1));
        CHECK_EQ(f->words[0], H_INC(0, NVB197_CLEAR_SURFACE, 1));
        CHECK_EQ(f->words[1], 0x3C);
    }
    CHECK_EQ(env_state(&e, 0), CG_NV_CH_FAULTED);
    p.n = 0;
    bind3d(&p);
    report(&p, e.data_va + 0x10, 0x5EC0, D_ONE_WORD);
    submit(&e, 1, &p);
    cg_nv_gpu_run(e.gpu);
    CHECK_EQ(env_rd32(&e, e.data_va + 0x10), 0x5EC0);
    CHECK_EQ(env_state(&e, 1), CG_NV_CH_IDLE);

    /* past the top of the 40-bit address space: a target in the last 64 KiB,
     * 16 KiB rows: rows 0..3 are written, row 4 starts at 2^40 */
    uint32_t top_h;
    uint64_t top = (1ull << 40) - 0x10000;
    CHECK_EQ(cg_nv_as_alloc_space(e.as, 16, 4096, CG_NV_AS_FIXED, &top), 0);
    CHECK_EQ(cg_nv_nvmap_create(e.gpu, 0x10000, &top_h), 0);
    CHECK_EQ(cg_nv_nvmap_alloc(e.gpu, top_h, CG_NV_NVMAP_HEAP_IOVMM, 0, 0x1000, 0), 0);
    CHECK_EQ(cg_nv_as_map_buffer_ex(e.as, CG_NV_AS_FIXED, -1, top_h, 0, 0, 0, &top), 0);
    p.n = 0;
    tgt row = {true, 0, 16, 8, 0x4000, 0};
    rt_setup(&p, 3, top, &row, 0xD5, 4, 1, 0);
    clear_values(&p);
    surface_clip(&p, 0, 16, 0, 8);
    put(&p, H_IMMD(0, NVB197_CLEAR_SURFACE, 0x3C | 3u << 6));
    at = submit(&e, 1, &p);
    cg_nv_gpu_run(e.gpu);
    f = env_last_fault(&e);
    CHECK(f && f->kind == CG_FAULT_ADDR_RANGE);
    if (f) {
        CHECK_EQ(f->gpu_addr, 1ull << 40);
        CHECK_EQ(f->stream_addr, at + 4 * (p.n - 1));
        CHECK_EQ(f->words[0], H_IMMD(0, NVB197_CLEAR_SURFACE, 0x3C | 3u << 6));
        CHECK_EQ(f->words[1], 0x3C | 3u << 6);
    }
    CHECK_EQ(env_rd32(&e, top + 3 * 0x4000 + 60), 0xBFFF8033); /* A B G R = 191 255 128 51 */
    CHECK_EQ(env_state(&e, 1), CG_NV_CH_FAULTED);
    env_fini(&e);
    env_init(&e);

    /* the operation limit: a 65535 x 65535 RGBA32F layer of 2048 */
    cg_nv_gpu_set_op_limit(e.gpu, 1u << 20);
    p.n = 0;
    bind3d(&p);
    tgt huge = {false, 5, 65535, 65535, 0, 0};
    rt_setup(&p, 0, e.data_va, &huge, 0xC0, 16, 2048, 0);
    surface_clip(&p, 0, 65535, 0, 65535);
    one(&p, NVB197_CLEAR_SURFACE, 0x3C | 2047u << 10);
    submit(&e, 1, &p);
    cg_nv_gpu_run(e.gpu);
    f = env_last_fault(&e);
    CHECK(f && f->kind == CG_FAULT_HANG);
    if (f) {
        char want[160];
        snprintf(want, sizeof(want),
                 "budget nv.op-bytes: CLEAR_SURFACE: color target 0: %llu bytes is over the "
                 "limit of %u", 65535ull * 65535 * 16, 1u << 20);
        CHECK_STR(f->message, want);
    }
    /* a stencil clear with RESPECT_STENCIL_MASK */
    env_fini(&e);
    env_init(&e);
    p.n = 0;
    bind3d(&p);
    tgt zt = {false, 0, 16, 8, 0, 0};
    zt_setup(&p, e.data_va, &zt, 0x14, 4, 1, 0);
    surface_clip(&p, 0, 16, 0, 8);
    one(&p, NVB197_SET_CLEAR_SURFACE_CONTROL, 1);
    one(&p, NVB197_CLEAR_SURFACE, 1); /* depth only: fine */
    one(&p, NVB197_CLEAR_SURFACE, 2);
    submit(&e, 0, &p);
    cg_nv_gpu_run(e.gpu);
    f = env_last_fault(&e);
    CHECK(f && f->kind == CG_FAULT_UNSUPPORTED);
    if (f)
        CHECK_STR(f->message, "CLEAR_SURFACE: stencil clear with RESPECT_STENCIL_MASK not "
                              "supported yet");
    CHECK_EQ(cg_fault_count(e.dev), 1);
    env_fini(&e);
}

/* Float to UNORM as Direct3D spells it, in single precision: the product
 * f * 255 rounded to a float, + 0.5f, the fraction dropped. 0x3f010101
 * (0.50392157f) times 255 is 128.49999994 exactly but 128.5f as a float:
 * 129, where exact arithmetic gives 128. Halves round up; 24-bit depth
 * stays exact. */
static void test_unorm_rounding(void)
{
    CHECK_EQ(nv3d_chan_value(NV3D_CH_UNORM, 8, 0x3f010101u), 129u);
    CHECK_EQ(nv3d_chan_value(NV3D_CH_UNORM, 8, 0x3e99999au), 77u);  /* 0.3f: 76.5f */
    CHECK_EQ(nv3d_chan_value(NV3D_CH_UNORM, 8, 0x3f000000u), 128u); /* 0.5: 127.5 up */
    CHECK_EQ(nv3d_chan_value(NV3D_CH_UNORM, 8, 0x7fc00000u), 0u);   /* NaN */
    CHECK_EQ(nv3d_chan_value(NV3D_CH_UNORM, 8, 0xbf800000u), 0u);   /* -1 */
    CHECK_EQ(nv3d_chan_value(NV3D_CH_UNORM, 8, 0x40000000u), 255u); /* 2 */
    CHECK_EQ(nv3d_chan_value(NV3D_CH_UNORM, 5, 0x3f000000u), 16u);  /* 15.5 up */
    CHECK_EQ(nv3d_chan_value(NV3D_CH_UNORM, 24, 0x3f000000u), 8388608u); /* exact 8388607.5 up */
}

int main(void)
{
    test_unorm_rounding();
    test_rt_state();
    test_cb_bind();
    test_release();
    test_reductions();
    test_acquire();
    test_watchdog_and_trap();
    test_counters();
    test_compute_report();
    test_seed_fences();
    test_clear_formats();
    test_clear_hash();
    test_clear_layers_scissor();
    test_clear_3d_and_disabled();
    test_clear_faults_and_trace();
    return check_report("test_nv_3d_state");
}
