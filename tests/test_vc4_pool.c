/* The render thread's tile pool (src/vc4/gpu/pool.c, docs/vc4.md "Tiles on a
 * pool of threads"): every frame rendered with 1, 2 and 4 render threads
 * gives the same bytes in memory, the same statistics, the same fault
 * records (kind, unit, addresses, words, message) and the same trace; and
 * the pool did render tiles where it can. Scenes: many small triangles over
 * a 640x480 frame (each tile stored by Store_Multi_Sample); the budget
 * running out mid-frame; a store to unmapped memory mid-frame (the stores
 * before it land, none after); every tile storing to the same bytes (tile
 * order decides); every tile loading what the previous tile stored (the
 * pool falls back); the frames, the fault and the budget with a trace
 * attached (the same events); the pool's default start after 2 ms alone;
 * and the example scenes (first triangle, GL cube, textured GL, and two
 * whose vertex shaders write memory), traced and not, with their golden
 * hashes. The frame scenes run again with the frame buffer's pages backed
 * before the first frame, and all of them once more with early stores (the
 * default; cg_vc4_config.no_early_stores turns them off for the first
 * round), so that the workers
 * stage their stores (pool.c "early stores"), the render thread has them
 * written as it takes the results and drops those one thread would not
 * have written (budget, fault, loads), and with two surfaces that overlap
 * (no early stores). */
#include <stdlib.h>
#include <sys/stat.h>
#include "check.h"
#include "scene_util.h"
#include "cmdgpu/cmdgpu.h"
#include "vc4/vc4_internal.h"
#include "../bench/cl_buf.h"

enum { BIN_LIST = 0x100000, REND_LIST = 0x200000, NV_REC = 0x300000, FS = 0x300100,
       VERTS = 0x310000, TILES = 0x1000000, TSTATE = 0x1800000, FB = 0x2000000,
       RAW = 0x2800000, ZB = 0x2400000 };
enum { W = 640, H = 480, TW = 10, TH = 8 };
enum { M_MS = 0, M_FAULT, M_SAME, M_LOAD, M_OVER, M_T, M_565, M_RO, M_SHIFT };
#define FAULT_TILE 37 /* (7, 3) */
#define UNMAPPED 0x10000000u
#define RO_ALIAS 0x40000000u /* mapped read-only in M_RO */
#define RO (RO_ALIAS + 0x3000000u)

static void store_general(cl *r, uint32_t buffer, uint32_t addr, bool eof)
{
    uint64_t p = buffer | (uint64_t)eof << 19 | (uint64_t)(addr >> 4) << 20;
    for (int i = 0; i < 6; i++)
        u8(r, (uint8_t)(p >> (8 * i)));
}

/* The scene: `ntri` triangles (random, a few pixels to a few tiles wide,
 * with a constant-colour shader), binned by the model, and a render list of
 * `mode`. */
static void build(cg_vc4 *v, int mode, uint32_t *bin_end, uint32_t *rend_end)
{
    enum { N = 400 };
    cl b = {0}, r = {0}, vd = {0};
    u8(&b, 112); u32(&b, TILES); u32(&b, 0x800000); u32(&b, TSTATE);
    u8(&b, TW); u8(&b, TH); u8(&b, 0x04 | 0x60);
    u8(&b, 6); u8(&b, 7);
    u8(&b, 102); u16(&b, 0); u16(&b, 0); u16(&b, W); u16(&b, H);
    u8(&b, 96); u8(&b, 3); u16(&b, 0);
    u8(&b, 103); u16(&b, 0); u16(&b, 0);
    u8(&b, 65); u32(&b, NV_REC);
    u8(&b, 33); u8(&b, 4); u32(&b, 3 * N); u32(&b, 0);
    u8(&b, 4);
    u8(&r, 8);
    u8(&r, 114); u32(&r, 0xFF203040); u32(&r, 0xFF203040); u32(&r, 0); u8(&r, 0);
    u8(&r, 113); u32(&r, FB); u16(&r, W); u16(&r, H); u16(&r, 4);
    u8(&r, 115); u8(&r, 0); u8(&r, 0);
    u8(&r, 28); store_general(&r, 0, 0, false);
    for (int y = 0; y < TH; y++)
        for (int x = 0; x < TW; x++) {
            int i = y * TW + x;
            bool last = i == TW * TH - 1;
            if (mode == M_LOAD && i > 0) {
                /* this tile's pixels of the surface one tile to the left:
                 * the previous tile's stored pixels (the last one of the
                 * row before for x == 0) */
                u8(&r, 29); store_general(&r, 1, FB - 256, false);
            }
            u8(&r, 115); u8(&r, (uint8_t)x); u8(&r, (uint8_t)y);
            u8(&r, 17); u32(&r, TILES + (uint32_t)i * 32);
            if ((mode == M_FAULT || mode == M_RO) && i == FAULT_TILE) {
                u8(&r, 28); store_general(&r, 1, mode == M_RO ? RO : UNMAPPED, false);
            } else if (mode == M_T) {
                /* colour in T format keeping Z/S, then Z/S in LT format to
                 * a second surface (on the render thread) */
                u8(&r, 28); store_general(&r, 1 | 1u << 4 | 1u << 14, FB, false);
                u8(&r, 28); store_general(&r, 2 | 2u << 4, ZB, last);
            } else if (mode == M_565) {
                /* BGR565 in LT format */
                u8(&r, 28); store_general(&r, 1 | 2u << 4 | 2u << 8, FB, last);
            } else if (mode == M_SHIFT) {
                /* RGBA8888, linear, 128 bytes past a page's start: one
                 * tile row in 16 crosses a page boundary */
                u8(&r, 28); store_general(&r, 1, FB + 128, last);
            } else if (mode == M_OVER) {
                /* a second surface over the first, one tile to the right:
                 * store order decides the bytes both write */
                u8(&r, 28); store_general(&r, 1, FB + 256, false);
                u8(&r, last ? 25 : 24);
            } else if (mode == M_SAME) {
                /* colour, clear, last tile: EOF */
                u8(&r, 26); u32(&r, RAW | 2u | (last ? 8u : 0u));
            } else {
                u8(&r, last ? 25 : 24);
            }
        }
    uint32_t seed = 777;
    for (int i = 0; i < N; i++) {
        seed = seed * 1103515245u + 12345u;
        int x = (int)((seed >> 8) % 600), y = (int)((seed >> 4) % 440);
        int s = i % 50 == 0 ? 150 : 6 + (int)(seed >> 24) % 20;
        int16_t t[6] = {(int16_t)(x * 16), (int16_t)(y * 16), (int16_t)((x + s) * 16 + 5),
                        (int16_t)(y * 16 + 3), (int16_t)(x * 16 + 7), (int16_t)((y + s) * 16)};
        for (int k = 0; k < 3; k++) {
            u16(&vd, (uint16_t)t[2 * k]); u16(&vd, (uint16_t)t[2 * k + 1]);
            u32(&vd, 0x3f000000); u32(&vd, 0x3f800000);
        }
    }
    /* ldi tlbc, colour; thrend; two nops (the bench's shader) */
    static const uint32_t shader[] = {0x00FF8000, 0xE0020BA7, 0x009E7000, 0x300009E7,
                                      0x009E7000, 0x100009E7, 0x009E7000, 0x100009E7};
    uint8_t nv[16] = {0, 12, 0, 0};
    uint32_t a = FS, d = VERTS;
    memcpy(nv + 4, &a, 4);
    memcpy(nv + 12, &d, 4);
    cg_vc4_cpu_write(v, BIN_LIST, b.b, b.n);
    cg_vc4_cpu_write(v, REND_LIST, r.b, r.n);
    cg_vc4_cpu_write(v, NV_REC, nv, 16);
    cg_vc4_cpu_write(v, FS, shader, sizeof shader);
    cg_vc4_cpu_write(v, VERTS, vd.b, vd.n);
    *bin_end = BIN_LIST + (uint32_t)b.n;
    *rend_end = REND_LIST + (uint32_t)r.n;
    free(b.b);
    free(r.b);
    free(vd.b);
}

static void kick(cg_vc4 *v, int t, uint32_t s, uint32_t e)
{
    cg_vc4_reg_write(v, t ? CG_VC4_CT1CA : CG_VC4_CT0CA, s);
    cg_vc4_reg_write(v, t ? CG_VC4_CT1EA : CG_VC4_CT0EA, e);
}

static uint64_t fnv(uint64_t h, const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 0x100000001b3ull;
    return h;
}

/* What one run leaves: memory, statistics, faults, registers, trace. */
typedef struct outcome {
    uint64_t fb, zb, raw, faults, trace;
    size_t nfaults;
    cg_vc4_stats st;
    uint32_t ct1cs, ct1ca, rfc, ct1lc;
    uint64_t left; /* budget left after the render kick */
    vc4_pool_counts pc;
    uint64_t alone_ns; /* the render thread's time alone (v->alone_ns) */
    cg_fault first; /* the first fault, if any */
    /* what ran (printed when two outcomes differ), and the colour
     * surface's bytes hashed per 64x64 block of its first W*H*4 bytes (in
     * raster order: which tile differs, for linear surfaces) */
    int mode, frames;
    unsigned threads;
    uint64_t budget;
    uint64_t fbt[TW * TH];
} outcome;

static void trace_hash(void *user, const cg_trace_event *ev)
{
    uint64_t *h = user;
    uint64_t f[7] = {ev->kind,     ev->family,   (uint64_t)(int64_t)ev->channel,
                     ev->stream_addr, ev->reg,   ev->value, ev->gpu_addr};
    *h = fnv(*h, (const uint8_t *)f, sizeof f);
    if (ev->bytes)
        *h = fnv(*h, ev->bytes, ev->nbytes);
    const char *s[3] = {ev->unit, ev->name, ev->text};
    for (int i = 0; i < 3; i++)
        if (s[i])
            *h = fnv(*h, (const uint8_t *)s[i], strlen(s[i]) + 1);
}

/* back the frame buffer's pages (a pattern) before the first frame */
static bool prefill;
/* early stores (the default); off: cg_vc4_config.no_early_stores, every
 * store runs on the render thread */
static bool early;
#define ES(n) (early ? (n) : 0)
/* the pool starts as by default, once the render thread has rendered
 * alone for VC4_POOL_AFTER_NS (else from the first frame) */
static bool lazy;

static outcome run(int mode, unsigned threads, uint64_t budget, bool trace, int frames)
{
    outcome o;
    memset(&o, 0, sizeof o);
    o.mode = mode;
    o.frames = frames;
    o.threads = threads;
    o.budget = budget;
    cg_device *dev;
    cg_vc4 *v;
    cg_vc4_config cfg = {.render_threads = threads, .record_budget = budget,
                         .no_early_stores = !early, .pool_at_once = !lazy};
    CHECK_EQ(cg_device_create(&dev), 0);
    CHECK_EQ(cg_vc4_create(dev, &cfg, &v), 0);
    o.trace = 0xcbf29ce484222325ull;
    if (trace)
        CHECK(cg_trace_add(dev, trace_hash, &o.trace) >= 0);
    uint32_t be, re;
    build(v, mode, &be, &re);
    if (mode == M_RO) {
        /* the second bus alias read-only */
        cg_vas *bus = cg_vc4_bus(v);
        CHECK_EQ(cg_vas_unmap(bus, RO_ALIAS), 0);
        cg_map_params mp = {.mem = cg_vc4_sdram(v), .va = RO_ALIAS,
                            .flags = CG_MAP_FIXED | CG_MAP_READ_ONLY};
        uint64_t va;
        CHECK_EQ(cg_vas_map(bus, &mp, &va), 0);
    }
    if (prefill) {
        uint8_t *fill = malloc(W * H * 4 + 4096);
        for (size_t i = 0; i < W * H * 4 + 4096; i++)
            fill[i] = (uint8_t)(i * 7 + 3);
        CHECK_EQ(cg_vc4_cpu_write(v, FB, fill, W * H * 4 + 4096), 0);
        CHECK_EQ(cg_vc4_cpu_write(v, ZB, fill, W * H * 4 + 4096), 0);
        free(fill);
    }
    for (int f = 0; f < frames; f++) {
        kick(v, 0, BIN_LIST, be);
        kick(v, 1, REND_LIST, re);
        o.left = v->budget[1];
        if (v->th[1].faulted)
            cg_vc4_reg_write(v, CG_VC4_CT1CS, 1u << 15); /* reset for the next frame */
    }
    /* the surface and the 256 bytes past it (M_SHIFT's starts 128 in) */
    uint8_t *buf = malloc(W * H * 4 + 256);
    CHECK_EQ(cg_vc4_cpu_read(v, FB, buf, W * H * 4 + 256), 0);
    o.fb = fnv(0xcbf29ce484222325ull, buf, W * H * 4 + 256);
    for (int t = 0; t < TW * TH; t++) {
        o.fbt[t] = 0xcbf29ce484222325ull;
        for (int y = 0; y < 64 && (t / TW) * 64 + y < H; y++)
            o.fbt[t] = fnv(o.fbt[t], buf + ((size_t)((t / TW) * 64 + y) * W + (t % TW) * 64) * 4,
                           64 * 4);
    }
    CHECK_EQ(cg_vc4_cpu_read(v, ZB, buf, W * H * 4), 0);
    o.zb = fnv(0xcbf29ce484222325ull, buf, W * H * 4);
    CHECK_EQ(cg_vc4_cpu_read(v, RAW, buf, 64 * 64 * 4), 0);
    o.raw = fnv(0xcbf29ce484222325ull, buf, 64 * 64 * 4);
    free(buf);
    o.nfaults = cg_fault_count(dev);
    o.faults = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < o.nfaults; i++) {
        cg_fault f = *cg_fault_get(dev, i);
        if (i == 0)
            o.first = f;
        o.faults = fnv(o.faults, (const uint8_t *)&f, sizeof f);
    }
    cg_vc4_get_stats(v, &o.st);
    CHECK_EQ(cg_vc4_reg_read(v, CG_VC4_CT1CS, &o.ct1cs), 0);
    CHECK_EQ(cg_vc4_reg_read(v, CG_VC4_CT1CA, &o.ct1ca), 0);
    CHECK_EQ(cg_vc4_reg_read(v, CG_VC4_RFC, &o.rfc), 0);
    CHECK_EQ(cg_vc4_reg_read(v, CG_VC4_CT1LC, &o.ct1lc), 0);
    vc4_pool_get_counts(v, &o.pc);
    o.alone_ns = v->alone_ns;
    cg_vc4_destroy(v);
    cg_device_destroy(dev);
    return o;
}

/* The same outcome as one thread gives (the pool's counters aside); `line`:
 * the caller's, printed with the run's settings and the differing blocks
 * when anything differs. */
#define same(a, b) same_at(a, b, __LINE__)
static void same_at(const outcome *a, const outcome *b, int line)
{
    int before = check_failures;
    CHECK_EQ(a->fb, b->fb);
    CHECK_EQ(a->zb, b->zb);
    CHECK_EQ(a->raw, b->raw);
    CHECK_EQ(a->nfaults, b->nfaults);
    CHECK_EQ(a->faults, b->faults);
    CHECK_EQ(a->trace, b->trace);
    CHECK(memcmp(&a->st, &b->st, sizeof a->st) == 0);
    CHECK_EQ(a->ct1cs, b->ct1cs);
    CHECK_EQ(a->ct1ca, b->ct1ca);
    CHECK_EQ(a->rfc, b->rfc);
    CHECK_EQ(a->ct1lc, b->ct1lc);
    CHECK_EQ(a->left, b->left);
    if (check_failures == before)
        return;
    fprintf(stderr, "  differs (called from line %d): mode %d, %d frame(s), %u thread(s) against %u, "
            "budget %llu, early stores %d, prefill %d; pool taken %llu, early %llu\n",
            line, b->mode, b->frames, b->threads, a->threads, (unsigned long long)b->budget,
            early, prefill, (unsigned long long)b->pc.taken, (unsigned long long)b->pc.es_taken);
    for (int t = 0; t < TW * TH; t++)
        if (a->fbt[t] != b->fbt[t])
            fprintf(stderr, "  64x64 block %d (x %d, y %d) of the colour surface differs\n", t,
                    t % TW, t / TW);
}

static const unsigned nthreads[] = {2, 4};

/* traced: with a trace attached (as `cmdgpu run` has, for its hang
 * report): the same events at every thread count, and the same tiles
 * from the pool */
static void scene_examples(bool traced)
{
    /* first_triangle's golden hash is test_vc4_first_triangle's; the GL
     * scenes write a PNG of their 256x256 surface (hashed here: its pixels) */
    static const struct {
        const char *file, *png; /* png: in vc4_pool_out */
        uint64_t hash;
        uint64_t tiles; /* tiles the pool renders (the frames' drawn tiles) */
    } ex[] = {
        {CMDGPU_SOURCE_DIR "/examples/vc4/first_triangle.s", NULL, 0xab4e631d2f5d14c4ull, 80},
        {CMDGPU_SOURCE_DIR "/examples/vc4/gl_cube.s", "vc4_pool_out/gl_cube.png",
         0xbe73625c1774eb4bull, 16},
        {CMDGPU_SOURCE_DIR "/examples/vc4/gl_textured.s", "vc4_pool_out/gl_textured.png",
         0x45b4793864b9fb7full, 16},
        /* a vertex shader that writes memory (VDW): no tile on the pool */
        {CMDGPU_SOURCE_DIR "/tests/data/vc4_gl_vdw.s", "vc4_pool_out/gl_vdw.png",
         0x469cdbb7cfc8fee6ull, 0},
        /* the render thread's VDW changes what later tiles draw: no tile
         * the workers rendered before it may be taken (vc4_pool_fence) */
        {CMDGPU_SOURCE_DIR "/tests/data/vc4_gl_fence.s", "vc4_pool_out/gl_fence.png",
         0xa84ecd46498c6d3aull, 0},
    };
    for (size_t e = 0; e < sizeof ex / sizeof ex[0]; e++) {
        uint64_t h[3] = {0};
        size_t nf[3] = {0};
        uint64_t taken[3] = {0};
        uint64_t tr[3] = {0};
        for (int k = 0; k < 3; k++) {
            setenv("CMDGPU_VC4_RENDER_THREADS", k == 0 ? "1" : k == 1 ? "2" : "4", 1);
            setenv("CMDGPU_VC4_POOL_AT_ONCE", "1", 1);
            cg_device *dev;
            CHECK_EQ(cg_device_create(&dev), 0);
            tr[k] = 0xcbf29ce484222325ull;
            if (traced)
                CHECK(cg_trace_add(dev, trace_hash, &tr[k]) >= 0);
            FILE *log = tmpfile();
            /* the PNGs in a directory of this test's (others run the same
             * scenes at the same time) */
            mkdir("vc4_pool_out", 0777);
            cg_scene_opts so = {.log = log, .frame_hash = &h[k], .frame_optional = true,
                                .out_dir = "vc4_pool_out"};
            uint64_t t0 = vc4_pool_taken_total();
            CHECK_EQ(test_scene_run(CG_FAMILY_VC4, ex[e].file, NULL, 0, dev, &so), 0);
            taken[k] = vc4_pool_taken_total() - t0;
            if (ex[e].png) {
                uint8_t *rgba = NULL;
                uint32_t w = 0, hh = 0;
                CHECK_EQ(cg_image_read_png(ex[e].png, &rgba, &w, &hh), 0);
                CHECK_EQ(w, 256);
                CHECK_EQ(hh, 256);
                h[k] = rgba ? fnv(0xcbf29ce484222325ull, rgba, (size_t)w * hh * 4) : 0;
                free(rgba);
            }
            nf[k] = cg_fault_count(dev);
            fclose(log);
            cg_device_destroy(dev);
        }
        unsetenv("CMDGPU_VC4_RENDER_THREADS");
        unsetenv("CMDGPU_VC4_POOL_AT_ONCE");
        CHECK_EQ(h[0], ex[e].hash);
        CHECK_EQ(taken[1], ex[e].tiles);
        CHECK_EQ(taken[2], ex[e].tiles);
        CHECK_EQ(h[1], h[0]);
        CHECK_EQ(h[2], h[0]);
        CHECK_EQ(nf[1], nf[0]);
        CHECK_EQ(nf[2], nf[0]);
        CHECK_EQ(taken[0], 0);
        CHECK_EQ(tr[1], tr[0]);
        CHECK_EQ(tr[2], tr[0]);
        CHECK_EQ(traced, tr[0] != 0xcbf29ce484222325ull);
        fprintf(stderr, "%s%s: hash 0x%016llx, tiles from the pool %llu (2 threads), %llu (4)\n",
                ex[e].file, traced ? " (traced)" : "", (unsigned long long)h[0],
                (unsigned long long)taken[1], (unsigned long long)taken[2]);
    }
}

/* A frame whose store at tile FAULT_TILE faults (kind, at surface base +
 * that tile's first byte): tiles before it stored, none after, at every
 * thread count; with backed pages, the tiles before it staged by the
 * workers and written as taken, the ones after dropped (early stores on). */
static void store_fault(int mode, cg_fault_kind kind, uint64_t base)
{
    outcome one = run(mode, 1, 0, false, 1);
    CHECK_EQ(one.nfaults, 1);
    CHECK_EQ(one.first.kind, kind);
    CHECK_EQ(one.first.gpu_addr, base + (uint64_t)3 * 64 * W * 4 + 7 * 64 * 4);
    CHECK_EQ(one.st.tiles_rendered, FAULT_TILE);
    for (size_t i = 0; i < 2; i++) {
        outcome m = run(mode, nthreads[i], 0, false, 1);
        same(&one, &m);
        CHECK(m.pc.taken >= FAULT_TILE);
        CHECK_EQ(m.pc.es_taken, ES(prefill ? FAULT_TILE : 0));
    }
}

static void frames(void)
{
    /* many small triangles, two frames */
    outcome one = run(M_MS, 1, 0, false, 2);
    CHECK_EQ(one.nfaults, 0);
    CHECK_EQ(one.st.tiles_rendered, 2 * TW * TH);
    CHECK_EQ(one.rfc, 2);
    CHECK_EQ(one.pc.taken, 0);
    for (size_t i = 0; i < 2; i++) {
        outcome m = run(M_MS, nthreads[i], 0, false, 2);
        same(&one, &m);
        /* every tile of both frames comes from the pool; the stores of
         * those whose pages are backed (the second frame's) staged */
        CHECK_EQ(m.pc.taken, 2 * TW * TH);
        CHECK_EQ(m.pc.es_taken, ES(prefill ? 2 * TW * TH : TW * TH));
    }

    /* the budget runs out mid-frame: one frame uses (2^24 - left) units */
    uint64_t used = (1ull << 24) - one.left; /* the second frame's kick: as the first's */
    uint64_t half = used / 2;
    one = run(M_MS, 1, half, false, 1);
    CHECK_EQ(one.nfaults, 1);
    CHECK_EQ(one.first.kind, CG_FAULT_HANG);
    CHECK_STR(one.first.unit, "ct1");
    CHECK(one.st.tiles_rendered > 10 && one.st.tiles_rendered < TW * TH - 10);
    for (size_t i = 0; i < 2; i++) {
        outcome m = run(M_MS, nthreads[i], half, false, 1);
        same(&one, &m);
        CHECK(m.pc.taken > 0);
        CHECK_EQ(m.pc.es_taken, ES(prefill ? m.pc.taken : 0));
    }
    /* ... at every cut from the first tile's units to the last's */
    for (uint64_t b = 20; b < used; b += used / 7) {
        one = run(M_MS, 1, b, false, 1);
        outcome m = run(M_MS, 2, b, false, 1);
        same(&one, &m);
    }

    /* a store to unmapped memory at tile 37: tiles 0..36 stored, none
     * after; and the same through a read-only bus alias */
    store_fault(M_FAULT, CG_FAULT_UNMAPPED, UNMAPPED);
    store_fault(M_RO, CG_FAULT_READ_ONLY, RO);

    /* every tile stores its raw buffer to RAW: the last tile's wins */
    one = run(M_SAME, 1, 0, false, 1);
    CHECK_EQ(one.nfaults, 0);
    for (size_t i = 0; i < 2; i++) {
        outcome m = run(M_SAME, nthreads[i], 0, false, 1);
        same(&one, &m);
        CHECK_EQ(m.pc.taken, TW * TH);
    }

    /* every tile loads the previous tile's stored pixels: the workers may
     * not read them (they fall back to the render thread) */
    one = run(M_LOAD, 1, 0, false, 1);
    CHECK_EQ(one.nfaults, 0);
    for (size_t i = 0; i < 2; i++) {
        outcome m = run(M_LOAD, nthreads[i], 0, false, 1);
        same(&one, &m);
        CHECK_EQ(m.pc.taken, 1); /* the first tile: it loads nothing */
        CHECK_EQ(m.pc.es_taken, ES(prefill ? 1 : 0));
    }

    /* T format colour and LT Z/S (two surfaces), LT BGR565: early in the
     * second frame (or both, backed) */
    for (int mode = M_T; mode <= M_565; mode++) {
        one = run(mode, 1, 0, false, 2);
        CHECK_EQ(one.nfaults, 0);
        CHECK_EQ(one.rfc, 2);
        CHECK_EQ(one.st.tiles_rendered, (mode == M_T ? 2 : 1) * 2 * TW * TH);
        for (size_t i = 0; i < 2; i++) {
            outcome m = run(mode, nthreads[i], 0, false, 2);
            same(&one, &m);
            CHECK_EQ(m.pc.taken, 2 * TW * TH);
            CHECK_EQ(m.pc.es_taken, ES(prefill ? 2 * TW * TH : TW * TH));
        }
    }

    /* rows that cross pages: every store staged (the runs split at the
     * page boundary, the tile buffer's rows staged as they are) */
    one = run(M_SHIFT, 1, 0, false, 2);
    CHECK_EQ(one.nfaults, 0);
    CHECK_EQ(one.rfc, 2);
    CHECK_EQ(one.st.tiles_rendered, 2 * TW * TH);
    for (size_t i = 0; i < 2; i++) {
        outcome m = run(M_SHIFT, nthreads[i], 0, false, 2);
        same(&one, &m);
        CHECK_EQ(m.pc.taken, 2 * TW * TH);
        CHECK_EQ(m.pc.es_taken, ES(prefill ? 2 * TW * TH : TW * TH));
    }

    /* two surfaces overlap: no store is written early */
    one = run(M_OVER, 1, 0, false, 2);
    CHECK_EQ(one.nfaults, 0);
    CHECK_EQ(one.st.tiles_rendered, 2 * 2 * TW * TH);
    for (size_t i = 0; i < 2; i++) {
        outcome m = run(M_OVER, nthreads[i], 0, false, 2);
        same(&one, &m);
        CHECK_EQ(m.pc.taken, 2 * TW * TH);
        CHECK_EQ(m.pc.es_taken, 0);
    }

    /* with a trace: the same events in the same order (the render thread
     * emits a taken segment's records as it takes it, then its end of
     * frame), and the pool still renders; also with a fault mid-frame and
     * with the budget running out */
    one = run(M_MS, 1, 0, true, 2);
    CHECK(one.trace != 0xcbf29ce484222325ull);
    for (size_t i = 0; i < 2; i++) {
        outcome m = run(M_MS, nthreads[i], 0, true, 2);
        same(&one, &m);
        CHECK_EQ(m.pc.taken, 2 * TW * TH);
    }
    one = run(M_FAULT, 1, 0, true, 1);
    CHECK_EQ(one.nfaults, 1);
    for (size_t i = 0; i < 2; i++) {
        outcome m = run(M_FAULT, nthreads[i], 0, true, 1);
        same(&one, &m);
        CHECK(m.pc.taken >= FAULT_TILE);
    }
    one = run(M_MS, 1, half, true, 1);
    CHECK_EQ(one.first.kind, CG_FAULT_HANG);
    for (size_t i = 0; i < 2; i++) {
        outcome m = run(M_MS, nthreads[i], half, true, 1);
        same(&one, &m);
        CHECK(m.pc.taken > 0);
    }
}

/* The default start: the render thread renders alone (the pool cuts no
 * segment) while its time alone is under VC4_POOL_AFTER_NS, then the pool
 * starts, within a frame or at the next; the frames are one thread's
 * either way. The many small triangles' frame takes well over 100 us, so
 * 32 frames are past the 2 ms. */
static void lazy_start(void)
{
    lazy = true;
    bool started = false;
    for (int frames = 1; frames <= 32 && !started; frames *= 2) {
        outcome one = run(M_MS, 1, 0, false, frames);
        CHECK_EQ(one.alone_ns, 0); /* (one thread: no pool to start) */
        outcome m = run(M_MS, 2, 0, false, frames);
        same(&one, &m);
        if (m.alone_ns < VC4_POOL_AFTER_NS)
            CHECK_EQ(m.pc.segs, 0);
        started = m.pc.taken > 0;
    }
    CHECK(started);
    lazy = false;
}

int main(void)
{
    /* the environment must not choose for the runs below */
    unsetenv("CMDGPU_VC4_RENDER_THREADS");
    unsetenv("CMDGPU_VC4_EARLY_STORES");
    unsetenv("CMDGPU_VC4_POOL_AT_ONCE");
    for (int e = 0; e < 2; e++) {
        early = e == 1;
        prefill = false;
        frames();
        prefill = true;
        frames();
    }
    scene_examples(false);
    scene_examples(true);
    lazy_start();
    return check_report("test_vc4_pool");
}
