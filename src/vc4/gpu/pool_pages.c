/* vc4 tile pool: the pages the frame's stores may write (pool.h). The
 * pre-pass sets them aside (holes) for every store it meets; the workers'
 * bus maps SDRAM without them; early stores write only surfaces proven
 * disjoint (es_prepare). What a store writes is render.c's decoder's
 * (vc4_store_decode). */
#include "pool.h"

/* The bus ranges a store record may write with the renderer in state r:
 * up to two [addr, addr + len). A raw dump's range counts even when it
 * writes neither buffer. */
unsigned store_ranges(const vc4_render *r, const uint8_t *rec, uint64_t out[2][2])
{
    if (!r->configured || r->tile_x < 0)
        return 0; /* it faults before writing */
    vc4_store s;
    vc4_store_decode(r, rec, &s);
    out[0][0] = s.addr;
    if (s.raw)
        out[0][1] = VC4_TILE * VC4_TILE * 4;
    else if (s.color)
        out[0][1] = vc4_surface_bytes(s.tiling, r->width, r->height, s.fmt == 2 ? 2 : 4);
    else if (s.zs)
        out[0][1] = vc4_surface_bytes(s.tiling, r->width, r->height, 4);
    else
        return 0;
    return 1;
}

/* What a store record writes with the renderer in state r, as render.c
 * store_tile would: -1 it may fault before writing (need_tile, the
 * decoder's bad cases), 0 nothing, 1 the bytes of r's tile in the surface
 * key (base, width, tiling, bpp or raw, and its bus range lo, hi) when
 * every access is mapped and writable. */
int store_target(const vc4_render *r, const uint8_t *rec, es_group *key)
{
    if (!r->configured || r->tile_x < 0)
        return -1;
    memset(key, 0, offsetof(es_group, tiles));
    vc4_store s;
    vc4_store_decode(r, rec, &s);
    if (s.bad)
        return -1;
    if (!s.color && !s.zs)
        return 0;
    key->base = s.addr;
    key->lo = key->base;
    if (s.raw) {
        key->raw = 1;
        key->hi = key->lo + VC4_TILE * VC4_TILE * 4;
        return 1;
    }
    unsigned bpp = s.color && s.fmt == 2 ? 2 : 4;
    key->width = r->width;
    key->tiling = s.tiling;
    key->bpp = (uint8_t)bpp;
    key->hi = key->lo + vc4_surface_bytes(s.tiling, r->width, r->height, bpp);
    return 1;
}

/* Do g and key name the same surface (base, width, layout)? */
bool same_surface(const es_group *g, const es_group *key)
{
    return g->base == key->base && g->width == key->width && g->tiling == key->tiling &&
           g->bpp == key->bpp && g->raw == key->raw;
}

/* The group of the surface key (added if new; its range grown to cover
 * key's), or -1 when there are too many. */
int group_of(struct vc4_pool *p, const es_group *key)
{
    for (unsigned i = 0; i < p->ngroups; i++) {
        es_group *g = &p->groups[i];
        if (same_surface(g, key)) {
            if (key->hi > g->hi)
                g->hi = key->hi;
            return (int)i;
        }
    }
    if (p->ngroups == ES_MAX_GROUPS)
        return -1;
    es_group *g = &p->groups[p->ngroups];
    memcpy(g, key, offsetof(es_group, tiles));
    memset(g->tiles, 0, sizeof g->tiles);
    g->ok = false;
    return (int)p->ngroups++;
}

/* Call fn(p, lo, hi) for the SDRAM offsets (page-aligned) of the bus range
 * [a, a + len): each 1 GiB alias maps SDRAM from its start; bytes past
 * SDRAM or 4 GiB are unmapped (a store faults there). */
bool for_sdram(struct vc4_pool *p, uint32_t sdram, uint64_t a, uint64_t len,
                      bool (*fn)(struct vc4_pool *, uint64_t, uint64_t))
{
    uint64_t end = a + len;
    if (end > 0x100000000ull)
        end = 0x100000000ull;
    while (a < end) {
        uint64_t base = a & ~0x3FFFFFFFull, stop = base + 0x40000000ull;
        if (stop > end)
            stop = end;
        uint64_t lo = a - base, hi = stop - base;
        if (lo < sdram) {
            if (hi > sdram)
                hi = sdram;
            if (!fn(p, lo & ~4095ull, (hi + 4095) & ~4095ull))
                return false;
        }
        a = stop;
    }
    return true;
}

bool hole_add(struct vc4_pool *p, uint64_t lo, uint64_t hi)
{
    /* merge with every hole it touches */
    for (unsigned i = 0; i < p->nholes;) {
        if (p->holes[i][0] <= hi && lo <= p->holes[i][1]) {
            if (p->holes[i][0] < lo)
                lo = p->holes[i][0];
            if (p->holes[i][1] > hi)
                hi = p->holes[i][1];
            p->holes[i][0] = p->holes[--p->nholes][0];
            p->holes[i][1] = p->holes[p->nholes][1];
            continue;
        }
        i++;
    }
    if (p->nholes == POOL_MAX_HOLES) {
        /* too many: one hole over all of them */
        for (unsigned i = 0; i < p->nholes; i++) {
            if (p->holes[i][0] < lo)
                lo = p->holes[i][0];
            if (p->holes[i][1] > hi)
                hi = p->holes[i][1];
        }
        p->nholes = 0;
    }
    p->holes[p->nholes][0] = lo;
    p->holes[p->nholes++][1] = hi;
    return true;
}

bool hole_has(struct vc4_pool *p, uint64_t lo, uint64_t hi)
{
    for (unsigned i = 0; i < p->nholes; i++)
        if (p->holes[i][0] <= lo && hi <= p->holes[i][1])
            return true;
    return false;
}

static int hole_cmp(const void *a, const void *b)
{
    uint64_t x = ((const uint64_t *)a)[0], y = ((const uint64_t *)b)[0];
    return x < y ? -1 : x > y;
}

/* The workers' bus: the four aliases of SDRAM without the holes (the last
 * run's, when its holes were the same). */
int make_bus(cg_vc4 *v, struct vc4_pool *p)
{
    qsort(p->holes, p->nholes, sizeof p->holes[0], hole_cmp);
    if (p->bus && p->bus_mem == v->sdram && p->bus_size == v->cfg.sdram_size &&
        p->bus_nholes == p->nholes &&
        memcmp(p->bus_holes, p->holes, p->nholes * sizeof p->holes[0]) == 0)
        return 0;
    if (p->bus)
        cg_vas_destroy(p->bus);
    p->bus = NULL;
    cg_vas_config vc = {.va_bits = 32};
    int rc = cg_vas_create(v->dev, &vc, &p->bus);
    if (rc) {
        p->bus = NULL;
        return rc;
    }
    for (uint64_t a = 0; a < 4 && rc == 0; a++) {
        uint64_t at = 0;
        for (unsigned i = 0; i <= p->nholes && rc == 0; i++) {
            uint64_t lo = i < p->nholes ? p->holes[i][0] : v->cfg.sdram_size;
            if (lo > at) {
                cg_map_params mp = {.mem = v->sdram, .offset = at, .size = lo - at,
                                    .va = (a << 30) + at,
                                    .flags = CG_MAP_FIXED | CG_MAP_READ_ONLY};
                uint64_t va;
                rc = cg_vas_map(p->bus, &mp, &va);
            }
            if (i < p->nholes)
                at = p->holes[i][1];
        }
    }
    if (rc) {
        cg_vas_destroy(p->bus);
        p->bus = NULL;
        return rc;
    }
    memcpy(p->bus_holes, p->holes, p->nholes * sizeof p->holes[0]);
    p->bus_nholes = p->nholes;
    p->bus_mem = v->sdram;
    p->bus_size = v->cfg.sdram_size;
    return 0;
}

static bool hole_hit(const struct vc4_pool *p, uint64_t lo, uint64_t hi)
{
    for (unsigned i = 0; i < p->nholes; i++)
        if (p->holes[i][0] < hi && lo < p->holes[i][1])
            return true;
    return false;
}

/* After the pre-pass: may this run write stores early, and which surfaces. */
void es_prepare(cg_vc4 *v, struct vc4_pool *p)
{
    p->es_on = p->es_begun = false;
    if (!p->frame_es)
        return;
    for (unsigned i = 0; i < p->ngroups; i++)
        for (unsigned j = i + 1; j < p->ngroups; j++)
            if (p->groups[i].lo < p->groups[j].hi && p->groups[j].lo < p->groups[i].hi)
                return; /* two surfaces overlap: store order matters */
    for (unsigned i = 0; i < p->ntouch; i++) {
        uint64_t a = (uint64_t)p->touch[i] << 12, off = a & 0x3FFFFFFFull;
        if (off < v->cfg.sdram_size && hole_hit(p, off, off + 4096))
            return; /* a list page a store may write */
    }
    bool any = false;
    uint64_t epoch = cg__vas_epoch(v->bus);
    for (unsigned i = 0; i < p->ngroups; i++) {
        es_group *g = &p->groups[i];
        g->ok = false;
        if (g->hi > 0x100000000ull)
            continue;
        size_t n = (size_t)(((g->hi + 4095) >> 12) - (g->lo >> 12));
        if (g->res_ok && g->res_epoch == epoch && g->res_first == g->lo >> 12 && g->res_n == n) {
            g->npages = n; /* the pages of the last run, and the bus unchanged */
            g->ok = true;
            continue;
        }
        g->res_ok = false;
        if (n > g->cap) {
            uint8_t **h = realloc(g->host, n * sizeof *h);
            if (!h)
                continue;
            g->host = h, g->cap = n;
        }
        g->npages = n;
        bool ok = true;
        for (size_t k = 0; k < n && ok; k++) {
            uint64_t a = ((g->lo >> 12) + k) << 12;
            uint8_t *r = NULL, *w = NULL;
            /* backed (a write would not allocate it) and writable */
            ok = cg__vas_span(v->bus, a, 4096, false, &r) == 4096 && r != cg__zero_page &&
                 cg__vas_span(v->bus, a, 4096, true, &w) == 4096 && w == r;
            g->host[k] = w;
        }
        g->ok = ok;
        g->res_ok = ok;
        g->res_epoch = epoch, g->res_first = g->lo >> 12, g->res_n = n;
    }
    for (unsigned i = 0; i < p->nsegs; i++) {
        pool_seg *s = &p->segs[i];
        s->es_ok = s->es_ok && (s->es_group < 0 || p->groups[s->es_group].ok);
        any |= s->es_ok;
    }
    p->es_on = p->es_begun = any;
}
