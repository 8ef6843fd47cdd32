/* VideoCore IV QPU interpreter, exhaustive lane checks: every add and mul op
 * over edge-case and pseudo-random operands (results, Z/N/C flags,
 * conditional writes) against a plain scalar reference written here from
 * the rules of docs/vc4-qpu.md, and pseudo-random instruction words run on
 * pseudo-random states whose every outcome (registers, flags, pc, faults)
 * goes into one hash with a fixed value; fragment shaders run through
 * distinct caches from several threads at once (the renderer's tile
 * workers) give the one-thread results. ctest runs this under every vector
 * level (CMDGPU_SIMD=base, avx2, avx512): each must give the same bits. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "qpu_text.h"
#include "cmdgpu/cmdgpu.h"
#include "core/simd.h"
#include "vc4/qpu.h"
#include "vc4_qpu_env.h"

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint32_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)(rng >> 16);
}

/* operand values: float and integer edge cases */
static const uint32_t edges[] = {
    0x00000000, 0x80000000, 0x00000001, 0x80000001, 0x007fffff, 0x807fffff, 0x00800000,
    0x80800000, 0x3f800000, 0xbf800000, 0x3f000000, 0x40000000, 0xc0400000, 0x7f7fffff,
    0xff7fffff, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc00000, 0x7f800001, 0xff800001,
    0x7fffffff, 0xffffffff, 0x4f000000, 0xcf000000, 0x4effffff, 0xceffffff, 0x4f000001,
    0xcf000001, 0x00000002, 0x0000001f, 0x00000020, 0x00ffffff, 0x01000000, 0x12345678,
    0x80ff7f01, 0xfefefefe, 0x01010101, 0x0000ffff, 0x3effffff, 0x33800000, 0xb3800000,
};
#define NEDGES (sizeof edges / sizeof edges[0])

/* Rows a, b: the edge-value pairs k .. k + 15 (pair p = (edges[p / NEDGES],
 * edges[p % NEDGES]), wrapping). */
static void edge_rows(size_t k, uint32_t a[16], uint32_t b[16])
{
    for (int i = 0; i < 16; i++) {
        size_t p = (k + (size_t)i) % (NEDGES * NEDGES);
        a[i] = edges[p / NEDGES];
        b[i] = edges[p % NEDGES];
    }
}

/* a random operand: often a float with an edge exponent */
static uint32_t rnd_operand(void)
{
    uint32_t r = rnd();
    switch (rnd() & 7) {
    case 0: return edges[r % NEDGES];
    case 1: return (r & 0x807fffffu);              /* exponent 0 */
    case 2: return (r | 0x7f800000u);              /* exponent 255 */
    case 3: return (r & 0x80ffffffu) | 0x3f000000u; /* near 1 */
    case 4: return r & 0xffu;                      /* small integers */
    case 5: return (uint32_t)(int32_t)(int8_t)r;
    default: return r;
    }
}

/* ---- the reference: one lane, the rules of docs/vc4-qpu.md ---- */

static float uf(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}
static uint32_t fu(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}
static uint32_t r_ftz(uint32_t u) { return (u & 0x7f800000u) == 0 ? u & 0x80000000u : u; }
static int r_isnan(uint32_t u) { return (u & 0x7fffffffu) > 0x7f800000u; }
/* a float operand: denormals flushed, NaN -> the infinity of its sign */
static float r_fin(uint32_t u)
{
    u = r_ftz(u);
    if ((u & 0x7f800000u) == 0x7f800000u)
        u &= 0xff800000u;
    return uf(u);
}
/* sign-magnitude order */
static int r_greater(uint32_t x, uint32_t y)
{
    int64_t kx = (x >> 31) ? -(int64_t)(x & 0x7fffffffu) - 1 : (int64_t)x;
    int64_t ky = (y >> 31) ? -(int64_t)(y & 0x7fffffffu) - 1 : (int64_t)y;
    return kx > ky;
}

static uint32_t r_add(uint32_t op, uint32_t a, uint32_t b, uint32_t *c, int *fl)
{
    *c = 0;
    *fl = 0;
    uint32_t r;
    switch (op) {
    case VC4_QPU_A_FADD:
    case VC4_QPU_A_FSUB:
        r = fu(op == VC4_QPU_A_FADD ? r_fin(a) + r_fin(b) : r_fin(a) - r_fin(b));
        r = r_isnan(r) ? 0xff800000u : r_ftz(r);
        *c = !(r >> 31) && (r & 0x7fffffffu);
        *fl = 1;
        return r;
    case VC4_QPU_A_FMIN: case VC4_QPU_A_FMAX: case VC4_QPU_A_FMINABS:
    case VC4_QPU_A_FMAXABS: {
        uint32_t x = r_ftz(a), y = r_ftz(b);
        if (op >= VC4_QPU_A_FMINABS)
            x &= 0x7fffffffu, y &= 0x7fffffffu;
        int gt = r_greater(x, y);
        *c = (uint32_t)gt;
        *fl = 1;
        if (op == VC4_QPU_A_FMIN || op == VC4_QPU_A_FMINABS)
            return gt ? y : x;
        return gt ? x : y;
    }
    case VC4_QPU_A_FTOI: {
        float x = r_fin(a);
        if (!(x >= -2147483648.0f && x < 2147483648.0f))
            return 0;
        return (uint32_t)(int32_t)x;
    }
    case VC4_QPU_A_ITOF:
        *fl = 1;
        return r_ftz(fu((float)(int32_t)a));
    case VC4_QPU_A_ADD: r = a + b; *c = r < a; return r;
    case VC4_QPU_A_SUB: *c = a < b; return a - b;
    case VC4_QPU_A_SHR: {
        uint32_t s = b & 31;
        *c = s && (a << (32 - s)) != 0;
        return a >> s;
    }
    case VC4_QPU_A_ASR: {
        uint32_t s = b & 31;
        *c = s && (a << (32 - s)) != 0;
        return (uint32_t)((int64_t)(int32_t)a >> s);
    }
    case VC4_QPU_A_ROR: {
        uint32_t s = b & 31;
        return s ? (a >> s) | (a << (32 - s)) : a;
    }
    case VC4_QPU_A_SHL: {
        uint32_t s = b & 31;
        *c = s && (a >> (32 - s)) != 0;
        return a << s;
    }
    case VC4_QPU_A_MIN: *c = (int32_t)a > (int32_t)b; return *c ? b : a;
    case VC4_QPU_A_MAX: *c = (int32_t)a > (int32_t)b; return *c ? a : b;
    case VC4_QPU_A_AND: return a & b;
    case VC4_QPU_A_OR: return a | b;
    case VC4_QPU_A_XOR: return a ^ b;
    case VC4_QPU_A_NOT: return ~a;
    case VC4_QPU_A_CLZ: {
        uint32_t n = 0;
        while (n < 32 && !(a & (0x80000000u >> n)))
            n++;
        return n;
    }
    case VC4_QPU_A_V8ADDS:
    case VC4_QPU_A_V8SUBS:
        r = 0;
        for (int k = 0; k < 4; k++) {
            int x = (int)(a >> 8 * k & 255), y = (int)(b >> 8 * k & 255);
            int t = op == VC4_QPU_A_V8ADDS ? x + y : x - y;
            r |= (uint32_t)(t < 0 ? 0 : t > 255 ? 255 : t) << 8 * k;
        }
        return r;
    default:
        return 0;
    }
}

static uint32_t r_mul(uint32_t op, uint32_t a, uint32_t b, uint32_t *c, int *fl)
{
    *c = 0;
    *fl = 0;
    uint32_t r = 0;
    switch (op) {
    case VC4_QPU_M_FMUL:
        *fl = 1;
        r = fu(r_fin(a) * r_fin(b));
        return r_isnan(r) ? 0x7fc00000u : r_ftz(r);
    case VC4_QPU_M_MUL24: {
        uint64_t p = (uint64_t)(a & 0xffffffu) * (b & 0xffffffu);
        *c = (p >> 32) != 0;
        return (uint32_t)p;
    }
    default:
        for (int k = 0; k < 4; k++) {
            int x = (int)(a >> 8 * k & 255), y = (int)(b >> 8 * k & 255), t;
            switch (op) {
            case VC4_QPU_M_V8MULD: t = (x * y + 127) / 255; break;
            case VC4_QPU_M_V8MIN: t = x < y ? x : y; break;
            case VC4_QPU_M_V8MAX: t = x > y ? x : y; break;
            case VC4_QPU_M_V8ADDS: t = x + y > 255 ? 255 : x + y; break;
            default: t = x - y < 0 ? 0 : x - y; break;
            }
            r |= (uint32_t)t << 8 * k;
        }
        return r;
    }
}

static uint16_t r_cond(uint32_t cond, uint16_t z, uint16_t n, uint16_t c)
{
    switch (cond) {
    case 0: return 0;
    case 1: return 0xffff;
    case 2: return z;
    case 3: return (uint16_t)~z;
    case 4: return n;
    case 5: return (uint16_t)~n;
    case 6: return c;
    default: return (uint16_t)~c;
    }
}

#define F(name, v) ((uint64_t)(v) << VC4_QPU_F_ALU_##name##_LO)

static void put_ins(env *e, uint32_t at, uint64_t ins)
{
    uint8_t b[8];
    for (int k = 0; k < 8; k++)
        b[k] = (uint8_t)(ins >> 8 * k);
    CHECK_EQ(cg_vas_cpu_write(e->bus, at, b, 8), 0);
}

static const uint32_t add_ops[] = {1, 2, 3, 4, 5, 6, 7, 8, 12, 13, 14, 15, 16, 17,
                                   18, 19, 20, 21, 22, 23, 24, 30, 31};

/* One instruction: add op `aop` r0, r1 -> r2 (or ra/rb through ws) under
 * cond_add, mul op `mop` r0, r1 -> r3 under cond_mul, .setf; the lanes of
 * r0/r1 from a[], b[]; zf/nf/cf preset. Checked lane by lane against the
 * reference, through the uncached and the cached path. */
static void one_sf(env *e, vc4_qpu_cache *cache, uint32_t aop, uint32_t mop, uint32_t ca,
                   uint32_t cm, const uint32_t *a, const uint32_t *b, uint16_t z0, uint16_t n0,
                   uint16_t c0, int sf, int *bad)
{
    uint64_t ins = F(sig, 1) | F(cond_add, ca) | F(cond_mul, cm) | F(sf, (uint64_t)sf) |
                   F(waddr_add, 34) | F(waddr_mul, 35) | F(op_mul, mop) | F(op_add, aop) |
                   F(raddr_a, 39) | F(raddr_b, 39) | F(add_a, 0) | F(add_b, 1) | F(mul_a, 0) |
                   F(mul_b, 1);
    put_ins(e, CODE, ins);
    uint32_t want2[16], want3[16];
    uint16_t wz = z0, wn = n0, wc = c0;
    uint16_t ma = aop ? r_cond(ca, z0, n0, c0) : 0, mm = mop ? r_cond(cm, z0, n0, c0) : 0;
    for (int i = 0; i < 16; i++) {
        uint32_t c, cmu;
        int fl, flm;
        uint32_t ra = r_add(aop, a[i], b[i], &c, &fl);
        uint32_t rm = r_mul(mop, a[i], b[i], &cmu, &flm);
        want2[i] = (ma >> i & 1) ? ra : 0x5a5a5a5au;
        want3[i] = (mm >> i & 1) ? rm : 0xa5a5a5a5u;
        /* flags from the add op unless it is nop, lanes whose condition holds */
        uint16_t m = aop ? ma : mm;
        if (!sf || !(m >> i & 1))
            continue;
        uint32_t r = aop ? ra : rm, cc = aop ? c : cmu;
        int isfl = aop ? fl : flm;
        uint16_t bit = (uint16_t)(1u << i);
        wz = (uint16_t)((wz & ~bit) | (((r & (isfl ? 0x7fffffffu : ~0u)) == 0) ? bit : 0));
        wn = (uint16_t)((wn & ~bit) | ((r >> 31) ? bit : 0));
        wc = (uint16_t)((wc & ~bit) | (cc ? bit : 0));
    }
    for (int pass = 0; pass < 2; pass++) {
        vc4_qpu_state s;
        vc4_qpu_init(&s, e->dev, e->bus, NULL, CODE, UNIF, false);
        if (pass)
            vc4_qpu_use_cache(&s, cache);
        memcpy(s.acc[0], a, 64);
        memcpy(s.acc[1], b, 64);
        for (int i = 0; i < 16; i++)
            s.acc[2][i] = 0x5a5a5a5au, s.acc[3][i] = 0xa5a5a5a5u;
        s.zf = z0, s.nf = n0, s.cf = c0;
        CHECK_EQ(vc4_qpu_step(&s), 0);
        int ok = !memcmp(s.acc[2], want2, 64) && !memcmp(s.acc[3], want3, 64) && s.zf == wz &&
                 s.nf == wn && s.cf == wc;
        if (!ok && (*bad)++ < 10) {
            for (int i = 0; i < 16; i++)
                if (s.acc[2][i] != want2[i] || s.acc[3][i] != want3[i])
                    fprintf(stderr, "add %u mul %u lane %d a 0x%08x b 0x%08x: r2 0x%08x want "
                            "0x%08x, r3 0x%08x want 0x%08x\n", aop, mop, i, a[i], b[i],
                            s.acc[2][i], want2[i], s.acc[3][i], want3[i]);
            fprintf(stderr, "add %u mul %u: flags z %04x n %04x c %04x, want %04x %04x %04x\n",
                    aop, mop, s.zf, s.nf, s.cf, wz, wn, wc);
        }
        check_count++;
        if (!ok)
            check_failures++;
    }
}

static void one(env *e, vc4_qpu_cache *cache, uint32_t aop, uint32_t mop, uint32_t ca,
                uint32_t cm, const uint32_t *a, const uint32_t *b, uint16_t z0, uint16_t n0,
                uint16_t c0, int *bad)
{
    one_sf(e, cache, aop, mop, ca, cm, a, b, z0, n0, c0, 1, bad);
}

/* Without setf under "always" (the decoded plain shapes: one op, or a pair,
 * straight to the rows), and rows of ordinary floats where one lane's
 * result alone is special: the float ops' quick result must give way to
 * the full rules for that lane (docs/vc4-qpu.md, "Decoded shapes"). */
static void test_plain_shapes(void)
{
    env e;
    env_init(&e);
    vc4_qpu_cache *cache = vc4_qpu_cache_create();
    CHECK(cache != NULL);
    int bad = 0;
    uint32_t a[16], b[16];
    /* lane 5 of each row: min normal * 0.5 (a denormal product), 1.5 * 2^-126
     * - 2^-126 (a denormal difference), inf - inf, inf * 0 (NaN), max * 2
     * (overflow: infinity, not special), -2^-126 + 2^-127 (denormal sum) */
    static const uint32_t la[] = {0x00800000, 0x00c00000, 0x7f800000, 0x7f800000, 0x7f7fffff,
                                  0x80800000, 0x3f800000};
    static const uint32_t lb[] = {0x3f000000, 0x00800000, 0x7f800000, 0x00000000, 0x40000000,
                                  0x00400000, 0x40000000};
    static const uint32_t mops[] = {1, 2, 4};
    for (size_t k = 0; k < sizeof la / sizeof la[0]; k++) {
        for (int i = 0; i < 16; i++) {
            a[i] = 0x3f800000u + (uint32_t)i * 0x00012345u; /* ordinary floats */
            b[i] = 0x40400000u - (uint32_t)i * 0x00054321u;
        }
        a[5] = la[k], b[5] = lb[k];
        for (size_t o = 0; o < sizeof add_ops / sizeof add_ops[0]; o++) {
            one_sf(&e, cache, add_ops[o], 0, 1, 1, a, b, 0x1234, 0x5678, 0x9abc, 0, &bad);
            for (size_t m = 0; m < sizeof mops / sizeof mops[0]; m++)
                one_sf(&e, cache, add_ops[o], mops[m], 1, 1, a, b, 0, 0, 0, 0, &bad);
        }
        for (uint32_t m = 1; m < 8; m++)
            one_sf(&e, cache, 0, m, 1, 1, a, b, 0, 0, 0, 0, &bad);
    }
    /* the edge pairs too */
    for (size_t k = 0; k < NEDGES * NEDGES; k += 16) {
        edge_rows(k, a, b);
        for (size_t o = 0; o < sizeof add_ops / sizeof add_ops[0]; o++)
            one_sf(&e, cache, add_ops[o], 1, 1, 1, a, b, 0, 0, 0, 0, &bad);
        for (uint32_t m = 1; m < 8; m++)
            one_sf(&e, cache, 0, m, 1, 1, a, b, 0, 0, 0, 0, &bad);
    }
    CHECK_EQ(bad, 0);
    CHECK_EQ(cg_fault_count(e.dev), 0);
    vc4_qpu_cache_destroy(cache);
    env_fini(&e);
}

static void test_ops(void)
{
    env e;
    env_init(&e);
    vc4_qpu_cache *cache = vc4_qpu_cache_create();
    CHECK(cache != NULL);
    int bad = 0;
    uint32_t a[16], b[16];
    /* every pair of edge values through every op (the add ops with the mul
     * op idle, then the mul ops with the add op idle) */
    for (size_t k = 0; k < NEDGES * NEDGES; k += 16) {
        edge_rows(k, a, b);
        for (size_t o = 0; o < sizeof add_ops / sizeof add_ops[0]; o++)
            one(&e, cache, add_ops[o], 0, 1, 1, a, b, 0, 0, 0, &bad);
        for (uint32_t m = 1; m < 8; m++)
            one(&e, cache, 0, m, 1, 1, a, b, 0, 0, 0, &bad);
    }
    /* random operands, both ALUs at once under random conditions and flags */
    for (int k = 0; k < 3000; k++) {
        for (int i = 0; i < 16; i++)
            a[i] = rnd_operand(), b[i] = rnd_operand();
        uint32_t aop = add_ops[rnd() % (sizeof add_ops / sizeof add_ops[0])];
        uint32_t mop = rnd() % 8;
        if (k % 5 == 0)
            aop = 0;
        one(&e, cache, aop, mop, rnd() % 8, rnd() % 8, a, b, (uint16_t)rnd(), (uint16_t)rnd(),
            (uint16_t)rnd(), &bad);
    }
    CHECK_EQ(bad, 0);
    CHECK_EQ(cg_fault_count(e.dev), 0);
    vc4_qpu_cache_destroy(cache);
    env_fini(&e);
}

/* ---- random instruction words on random states: one hash ---- */

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
    const uint8_t *b = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 0x100000001b3ull;
    return h;
}

/* a random word: mostly ALU instructions (no signal or small immediate),
 * some load immediates, some anything */
static uint64_t rnd_word(void)
{
    uint64_t w = (uint64_t)rnd() << 32 | rnd();
    uint32_t r = rnd() % 16;
    uint64_t sigmask = ~(0xfull << 60);
    if (r < 7)
        w = (w & sigmask) | (1ull << 60);
    else if (r < 11)
        w = (w & sigmask) | (13ull << 60);
    else if (r < 12)
        w = (w & sigmask) | (14ull << 60);
    if ((rnd() & 3) != 0) { /* mostly registers, r0-r5 and plain rows */
        uint32_t wa = rnd() % 40, wm = rnd() % 40;
        w = (w & ~(0xfffull << 32)) | (uint64_t)wa << 38 | (uint64_t)wm << 32;
        if ((rnd() & 3) != 0)
            w &= ~(0xfull << 52) & ~(7ull << 57) & ~(1ull << 56); /* no pack, unpack */
        if ((rnd() & 1) && (w >> 60) != 13) {
            w = (w & ~(0xfffull << 12)) | (uint64_t)(rnd() % 40) << 18 |
                (uint64_t)(rnd() % 40) << 12;
        }
    }
    return w;
}

static void test_random_words(void)
{
    env e;
    env_init(&e);
    vc4_qpu_cache *cache = vc4_qpu_cache_create();
    uint32_t unif[64];
    for (int i = 0; i < 64; i++)
        unif[i] = rnd_operand();
    CHECK_EQ(cg_vas_cpu_write(e.bus, UNIF, unif, sizeof unif), 0);
    uint64_t h = 0xcbf29ce484222325ull;
    uint64_t faults = 0, hp0 = 0;
    static vc4_qpu_state s;
    for (int k = 0; k < 4000; k++) {
        for (int j = 0; j < 4; j++)
            put_ins(&e, CODE + 8u * j, rnd_word());
        for (int pass = 0; pass < 2; pass++) {
            uint64_t save = rng;
            vc4_qpu_init(&s, e.dev, e.bus, NULL, CODE, UNIF, (k & 7) == 7);
            if (pass)
                vc4_qpu_use_cache(&s, cache);
            for (int r = 0; r < 32; r++)
                for (int i = 0; i < 16; i++)
                    s.ra[r][i] = rnd_operand(), s.rb[r][i] = rnd_operand();
            for (int r = 0; r < 6; r++)
                for (int i = 0; i < 16; i++)
                    s.acc[r][i] = rnd_operand();
            s.zf = (uint16_t)rnd(), s.nf = (uint16_t)rnd(), s.cf = (uint16_t)rnd();
            int rc[4];
            for (int j = 0; j < 4; j++)
                rc[j] = s.ended ? 99 : vc4_qpu_step(&s);
            uint64_t hp = fnv(0xcbf29ce484222325ull, s.ra, sizeof s.ra);
            hp = fnv(hp, s.rb, sizeof s.rb);
            hp = fnv(hp, s.acc, sizeof s.acc);
            uint32_t misc[] = {s.zf, s.nf, s.cf, s.pc, s.unif, (uint32_t)s.ended,
                               (uint32_t)s.sfu_wait, (uint32_t)s.branch_wait, s.branch_target,
                               (uint32_t)s.end_wait, s.host_int, (uint32_t)rc[0],
                               (uint32_t)rc[1], (uint32_t)rc[2], (uint32_t)rc[3],
                               (uint32_t)s.executed};
            hp = fnv(hp, misc, sizeof misc);
            hp = fnv(hp, s.sfu_result, sizeof s.sfu_result);
            /* the cached pass starts from the same state and must give the
             * same outcome and as many faults */
            uint64_t nf = cg_fault_count(e.dev);
            faults += nf;
            hp = fnv(hp, &nf, sizeof nf);
            for (size_t i = 0; i < nf; i++) {
                const cg_fault *f = cg_fault_get(e.dev, i);
                uint32_t fk[] = {(uint32_t)f->kind, f->flags, (uint32_t)f->stream_addr,
                                 (uint32_t)f->gpu_addr, f->nwords, f->words[0], f->words[1]};
                hp = fnv(hp, fk, sizeof fk);
                hp = fnv(hp, f->message, strlen(f->message));
            }
            cg_fault_clear(e.dev);
            if (pass == 0) {
                h = fnv(h, &hp, sizeof hp);
                hp0 = hp;
                rng = save;
            } else {
                CHECK_EQ(hp, hp0);
            }
        }
    }
    printf("random words: hash 0x%016llx, %llu faults (level %s)\n", (unsigned long long)h,
           (unsigned long long)faults, cg__simd_name(cg__simd_level()));
    CHECK_EQ(h, 0xc2b5665689f1ca54ull); /* the interpreter before the vector rewrite */
    vc4_qpu_cache_destroy(cache);
    env_fini(&e);
}

/* ---- fragment shaders through distinct caches on several threads ---- */

static int bus_put(void *ctx, uint32_t at, const void *p, size_t n)
{
    return cg_vas_cpu_write(((env *)ctx)->bus, at, p, n);
}

#define NTHREADS 4
#define NBATCH 64

typedef struct frag_job {
    env *e;
    int first;             /* the job's first batch */
    uint32_t color[NBATCH][16];
    uint16_t mask[NBATCH];
    int rc;
} frag_job;

static void fill_batch(vc4_frag_batch *b, int k)
{
    memset(b, 0, sizeof *b);
    b->mask = (uint16_t)(0xffffu >> (k % 7));
    b->nvary = 1;
    for (int i = 0; i < 16; i++) {
        b->vary[0][i] = 0.25f * (float)(i + k);
        b->vary_c[0][i] = (float)k;
        b->frag_w[i] = 0x40000000u; /* 2.0 */
        b->x[i] = (uint32_t)(16 * k + i);
    }
}

static void *frag_worker(void *arg)
{
    frag_job *j = arg;
    vc4_qpu_cache *c = vc4_qpu_cache_create();
    vc4_frag_batch *b = malloc(sizeof *b);
    j->rc = c && b ? 0 : -1;
    for (int n = 0; n < 200 && !j->rc; n++)
        for (int k = 0; k < NBATCH; k++) {
            fill_batch(b, j->first + k);
            int rc = vc4_qpu_run_fragment_cached(c, j->e->dev, j->e->bus, NULL, CODE, UNIF, b,
                                                 100, true);
            if (rc)
                j->rc = rc;
            memcpy(j->color[k], b->color, sizeof b->color);
            j->mask[k] = b->color_mask;
        }
    free(b);
    vc4_qpu_cache_destroy(c);
    return NULL;
}

static void test_threads(void)
{
    env e;
    env_init(&e);
    /* (vary * W + r5) * x, through both ALUs, a small immediate and a
     * conditional write */
    qpu_text_load(CODE,
                  "nop : fmul r0, ra15, vary\n"
                  "fadd r0, r0, r5 : nop\n"
                  "itof r1, x_coord : nop\n"
                  "fmul.setf r2, r0, r1 : nop\n"
                  "fsub.ifnz r2, r2, f1.0 : fmul r3, r2, r0\n"
                  "ftoi r2, r2 : nop\n"
                  "add tlbc, r2, r3 : nop : thrend\n"
                  "nop\n"
                  "nop\n",
                  NULL, bus_put, &e);
    /* one thread, uncached: the expected colours */
    vc4_frag_batch *b = malloc(sizeof *b);
    static uint32_t want[NTHREADS * NBATCH][16];
    static uint16_t want_mask[NTHREADS * NBATCH];
    for (int k = 0; k < NTHREADS * NBATCH; k++) {
        fill_batch(b, k);
        CHECK_EQ(vc4_qpu_run_fragment(e.dev, e.bus, NULL, CODE, UNIF, b, 100, true), 0);
        memcpy(want[k], b->color, sizeof b->color);
        want_mask[k] = b->color_mask;
    }
    /* lane 5 of batch 3: vary 2.0 * W 2.0 + r5 3.0 = 7.0; x 53: 371.0 - 1.0
     * = 370; mul side 371 * 7 = 2597.0 (bits 0x45225000) */
    CHECK_EQ(want[3][5], 370u + 0x45225000u);
    CHECK_EQ(want_mask[3], 0xffffu >> 3);
    frag_job *jobs = calloc(NTHREADS, sizeof *jobs);
    pthread_t th[NTHREADS];
    for (int t = 0; t < NTHREADS; t++) {
        jobs[t].e = &e;
        jobs[t].first = t * NBATCH;
        CHECK_EQ(pthread_create(&th[t], NULL, frag_worker, &jobs[t]), 0);
    }
    for (int t = 0; t < NTHREADS; t++)
        pthread_join(th[t], NULL);
    for (int t = 0; t < NTHREADS; t++) {
        CHECK_EQ(jobs[t].rc, 0);
        CHECK_MEM(jobs[t].color, want[t * NBATCH], sizeof jobs[t].color);
        for (int k = 0; k < NBATCH; k++)
            CHECK_EQ(jobs[t].mask[k], want_mask[t * NBATCH + k]);
    }
    CHECK_EQ(cg_fault_count(e.dev), 0);
    free(jobs);
    free(b);
    env_fini(&e);
}

int main(void)
{
    test_ops();
    test_plain_shapes();
    test_random_words();
    test_threads();
    return check_report("test_vc4_qpu_lanes");
}
