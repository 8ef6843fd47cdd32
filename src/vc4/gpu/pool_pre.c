/* vc4 tile pool: the pre-pass (pool.h, pool.c's header comment). */
#include "pool.h"

/* A list page the render thread reads (early stores must not change it):
 * remembered once (a hash set of bus page numbers, tagged with the
 * pre-pass's generation so it needs no clearing). */
static void pre_touch(struct vc4_pool *pl, uint64_t pg)
{
    uint64_t tag = (uint64_t)pl->touch_gen << 32;
    unsigned h = (unsigned)(((uint32_t)pg * 0x9E3779B1u) >> (32 - ES_TOUCH_BITS));
    for (;; h = (h + 1) & ((1u << ES_TOUCH_BITS) - 1)) {
        uint64_t e = pl->touch_set[h];
        if (e == (tag | pg))
            return;
        if ((e >> 32) != pl->touch_gen)
            break;
    }
    if (pl->ntouch == ES_MAX_TOUCH) {
        pl->frame_es = false;
        return;
    }
    pl->touch_set[h] = tag | pg;
    pl->touch[pl->ntouch++] = (uint32_t)pg;
}

/* Bytes through the bus's plain-memory path only (no fault, no trace):
 * false where the render thread itself would have to look closer. The
 * pages last read are kept (nothing writes memory during the pre-pass). */
static bool pre_read(struct vc4_pool *pl, cg_vas *bus, uint64_t a, uint8_t *dst, size_t n)
{
    if (a + n > 0x100000000ull)
        return false;
    while (n) {
        uint64_t pg = a >> 12;
        if (!pl->pre_page || pg != pl->pre_pg) {
            unsigned c = 0;
            while (c < 4 && pl->pre_cache[c].pg != pg)
                c++;
            if (c == 4) {
                uint8_t *p;
                if (cg__vas_span(bus, pg << 12, 4096, false, &p) != 4096)
                    return false;
                if (pl->frame_es)
                    pre_touch(pl, pg);
                c = pl->pre_victim;
                pl->pre_victim = (c + 1) & 3;
                pl->pre_cache[c].pg = pg, pl->pre_cache[c].p = p;
            }
            pl->pre_page = pl->pre_cache[c].p, pl->pre_pg = pg;
        }
        size_t in = (size_t)(a & 4095), got = 4096 - in < n ? 4096 - in : n;
        memcpy(dst, pl->pre_page + in, got);
        dst += got, a += got, n -= got;
    }
    return true;
}

/* Compressed primitive list items (pre_skip_list): their size by first
 * byte, for formats 0x10, 0x11, 0x12 and any other; 0: faults. Filled
 * with rec_sizes. */
enum { ITEM_END = 0xFE, ITEM_BRANCH = 0xFF };
static uint8_t item_size[4][256];

/* The n bytes at a (n <= 16): where they lie in pre_read's page, a pointer
 * into it (no copy: most records do), else copied to buf; NULL where
 * pre_read fails. */
static inline const uint8_t *pre_ptr(struct vc4_pool *pl, cg_vas *bus, uint64_t a, size_t n,
                                     uint8_t *buf)
{
    if (pl->pre_page && (a >> 12) == pl->pre_pg && (a & 4095) + n <= 4096)
        return pl->pre_page + (a & 4095);
    return pre_read(pl, bus, a, buf, n) ? buf : NULL;
}

/* Skip a compressed primitive list from p (after its record) as render.c
 * compressed_list walks it; *next: the address after its escape. False where
 * that walk would fault or the pre-pass gives up. */
static bool pre_skip_list(struct vc4_pool *pool, cg_vas *bus, uint8_t fmt, uint32_t p,
                          uint32_t *next, uint64_t *work, uint64_t limit)
{
    const uint8_t *tab = item_size[fmt == 0x10 ? 0 : fmt == 0x11 ? 1 : fmt == 0x12 ? 2 : 3];
    uint64_t w = *work;
    bool ok = false;
    while (++w < limit) { /* one unit per item, as before */
        if (!pool->pre_page || (p >> 12) != pool->pre_pg) {
            uint8_t b;
            if (!pre_read(pool, bus, p, &b, 1))
                break;
        }
        /* the items that follow in pre_read's page, without leaving it */
        const uint8_t *page = pool->pre_page;
        uint32_t in = p & 4095;
        uint8_t s = tab[page[in]];
        while (s != 0 && s < ITEM_END) {
            in += s;
            if (in >= 4096 || ++w >= limit)
                break;
            s = tab[page[in]];
        }
        p = (p & ~4095u) + in; /* (wraps as p += size did) */
        if (in >= 4096)
            continue; /* the next item is on another page */
        if (w >= limit || s == 0)
            break; /* the render thread faults (or the pre-pass gives up) */
        if (s == ITEM_END) {
            *next = p + 1;
            ok = true;
            break;
        }
        uint8_t it[2]; /* ITEM_BRANCH: its 16-bit offset in 32-byte units */
        if (!pre_read(pool, bus, (uint64_t)p + 1, it, 2))
            break;
        p = (p & ~31u) + 32 + (uint32_t)((int32_t)(int16_t)vc4_le16(it) * 32);
    }
    *work = w;
    return ok;
}

static pool_seg *seg_new(struct vc4_pool *p)
{
    if (p->nsegs == POOL_MAX_SEGS)
        return NULL;
    if (p->nsegs == p->cap) {
        unsigned c = p->cap ? p->cap * 2 : 64;
        pool_seg *s = realloc(p->segs, c * sizeof *s);
        if (!s)
            return NULL;
        p->segs = s, p->cap = c;
    }
    pool_seg *s = &p->segs[p->nsegs++];
    memset(s, 0, offsetof(pool_seg, state));
    s->es_group = -1;
    return s;
}

/* Each opcode's record size (cl.def), 0: unknown, and its list (where);
 * filled once. */
static uint8_t rec_sizes[256], rec_where[256];
static pthread_once_t rec_sizes_once = PTHREAD_ONCE_INIT;

static void rec_sizes_init(void)
{
    for (unsigned op = 0; op < 256; op++) {
        vc4_record rr;
        rec_sizes[op] = vc4_record_get((uint8_t)op, &rr) ? (uint8_t)rr.size : 0;
        rec_where[op] = rec_sizes[op] ? rr.where : VC4_ANY;
    }
    /* compressed primitive list items by their first byte (render.c
     * compressed_list): escapes 0x80 (end) and 0x82 (branch) in every
     * format; format 0x10/0x11 (points, lines) items 0x81 of 3/5 bytes;
     * format 0x12 (triangles) items of 1, 2, 4 or 7 bytes; anything
     * else (other formats too) faults there */
    for (unsigned b = 0; b < 256; b++) {
        uint8_t tri = b == 0x81 ? 7 : (b & 0xF) == 0xF ? 4 : (b & 3) == 3 ? 2 : 1;
        item_size[0][b] = b == 0x81 ? 3 : 0;
        item_size[1][b] = b == 0x81 ? 5 : 0;
        item_size[2][b] = tri;
        item_size[3][b] = 0;
        for (unsigned f = 0; f < 4; f++)
            if (b == 0x80 || b == 0x82)
                item_size[f][b] = b == 0x80 ? ITEM_END : ITEM_BRANCH;
    }
}

/* The pre-pass's walk: the device and renderer copies it latches state
 * into, the tile buffer as far as it is known (ck, zk: each buffer holds
 * cval, zval in every word), the segment open (cur) and whether it draws. */
typedef struct pre_walk {
    cg_vc4 *v, *d;
    struct vc4_pool *p;
    vc4_render *r;
    vc4_thread *th;
    bool ck, zk;
    uint32_t cval, zval;
    pool_seg *cur;
    bool draws;
    uint64_t work, limit; /* records and items followed, and the most */
    cg__fault_capture cap;
} pre_walk;

/* The thread's own records (roles HALT to RETURN), as cl.c runs them;
 * false: the render thread stops here (or would fault). */
static bool pre_flow(pre_walk *w, uint8_t role, const uint8_t *rec, uint32_t *next)
{
    vc4_thread *th = w->th;
    switch (role) {
    case VC4_RL_SEM_INC:
    case VC4_RL_NOP:
        return true; /* (a render increment counts for the binning thread, which
                      * does not run meanwhile) */
    case VC4_RL_SEM_WAIT:
        if (th->sem == 0)
            return false; /* the render thread blocks here */
        th->sem--;
        return true;
    case VC4_RL_BRANCH:
        *next = VC4_ADDR(rec + 1, Branch, Address);
        return true;
    case VC4_RL_CALL:
        if (th->depth >= 2)
            return false;
        th->ret[th->depth++] = *next;
        *next = VC4_ADDR(rec + 1, Branch_to_sub_list, Address);
        return true;
    case VC4_RL_RETURN:
        if (th->depth)
            *next = th->ret[--th->depth];
        return true;
    default: /* HALT */
        return false;
    }
}

/* Tile_Coordinates at addr: a segment starts here. */
static bool pre_tile(pre_walk *w, uint32_t addr, const uint8_t *rec)
{
    vc4_render *r = w->r;
    unsigned x = (unsigned)VC4_GET(rec + 1, Tile_Coordinates, Tile_Column_Number);
    unsigned y = (unsigned)VC4_GET(rec + 1, Tile_Coordinates, Tile_Row_Number);
    if (!r->configured || x * VC4_TILE >= r->width || y * VC4_TILE >= r->height)
        return false; /* it faults */
    pool_seg *cur = w->cur = seg_new(w->p);
    if (!cur)
        return false;
    cur->addr = addr;
    cur->depth = w->th->depth;
    memcpy(cur->ret, w->th->ret, sizeof cur->ret);
    cur->color = w->cval, cur->zs = w->zval;
    cur->spec = w->ck && w->zk;
    memcpy(cur->state, (const uint8_t *)r + VC4_RSTATE_OFF, VC4_RSTATE_LEN);
    w->draws = false;
    r->tile_x = (int)x, r->tile_y = (int)y;
    if (r->load_pending) {
        r->load_pending = false;
        w->ck = w->zk = false; /* what a load leaves is not known here */
    }
    return true;
}

/* A store, which ends segment `ended` (NULL: none): the pages it may write
 * are set aside; early stores: what it writes (every store of the frame
 * writes bytes no other store writes, or none is early); what it leaves in
 * the tile buffer. */
static bool pre_store(pre_walk *w, const uint8_t *rec, pool_seg *ended)
{
    struct vc4_pool *p = w->p;
    vc4_render *r = w->r;
    if (!r->configured || r->tile_x < 0)
        return false; /* it faults */
    uint64_t rg[2][2];
    unsigned nr = store_ranges(r, rec, rg);
    for (unsigned i = 0; i < nr; i++)
        for_sdram(p, w->v->cfg.sdram_size, rg[i][0], rg[i][1], hole_add);
    es_group key;
    int tg = p->frame_es ? store_target(r, rec, &key) : -1, gi = -1;
    if (tg == 1) {
        gi = group_of(p, &key);
        unsigned bit = (unsigned)r->tile_y * 64 + (unsigned)r->tile_x;
        if (key.raw)
            bit = 0; /* one dump per address */
        if (gi < 0 || (p->groups[gi].tiles[bit >> 3] >> (bit & 7) & 1))
            p->frame_es = false;
        else
            p->groups[gi].tiles[bit >> 3] |= (uint8_t)(1u << (bit & 7));
    }
    if (ended) {
        ended->es_ok = (tg == 0 || (tg == 1 && !key.raw)) && ended->spec;
        ended->es_group = (int8_t)gi;
    }
    vc4_store st;
    vc4_store_decode(r, rec, &st);
    if (!st.keep_color)
        w->ck = true, w->cval = r->clear_color[0];
    if (!st.keep_zs)
        w->zk = true, w->zval = vc4_clear_zs_word(r);
    if (ended) {
        ended->end_fill = !st.keep_color && !st.keep_zs;
        ended->end_c = w->cval, ended->end_z = w->zval;
    }
    return true;
}

/* A state record (roles LATCH, STATE, LOAD): the renderer's own handler on
 * the copy. */
static bool pre_state(pre_walk *w, uint8_t role, uint32_t addr, const uint8_t *rec,
                      unsigned size, uint32_t *next)
{
    struct vc4_pool *p = w->p;
    uint8_t op = rec[0];
    if (role != VC4_RL_LATCH) {
        /* (not the binner's state records: they fault there) */
        return rec_where[op] != VC4_BIN &&
               vc4_render_record(w->d, w->th, addr, rec, next) == 0 && !w->cap.count &&
               !w->th->faulted;
    }
    /* render.c h_latch: vc4_latch_state sets fields of the bin state from
     * the record's bytes alone, and no other record sets them (NV and GL
     * shader state share theirs): the same bytes as the last such record
     * latched change nothing (each tile list repeats its state records) */
    unsigned g = op == VC4_OP_GL_Shader_State ? VC4_OP_NV_Shader_State : op;
    if (p->latch_gen[g] == p->touch_gen && p->latch_op[g] == op &&
        memcmp(p->latch_rec[g], rec + 1, size - 1) == 0)
        return true;
    if (vc4_render_record(w->d, w->th, addr, rec, next) != 0 || w->cap.count || w->th->faulted)
        return false;
    p->latch_gen[g] = p->touch_gen;
    p->latch_op[g] = op;
    memcpy(p->latch_rec[g], rec + 1, size - 1);
    return true;
}

/* One record at addr (size bytes); false: the pre-pass ends before it. */
static bool pre_record(pre_walk *w, uint32_t addr, const uint8_t *rec, unsigned size,
                       uint32_t *next)
{
    uint8_t role = vc4_cl_role[rec[0]];
    pool_seg *ended = NULL; /* the segment this record ends */
    if ((role == VC4_RL_TILE || role == VC4_RL_STORE) && w->cur) {
        w->cur->spec = w->draws && w->cur->spec;
        ended = w->cur;
        w->cur = NULL;
    }
    switch (role) {
    case VC4_RL_HALT:
    case VC4_RL_NOP:
    case VC4_RL_SEM_INC:
    case VC4_RL_SEM_WAIT:
    case VC4_RL_BRANCH:
    case VC4_RL_CALL:
    case VC4_RL_RETURN:
        return pre_flow(w, role, rec, next);
    case VC4_RL_TILE:
        return pre_tile(w, addr, rec);
    case VC4_RL_STORE:
        return pre_store(w, rec, ended);
    case VC4_RL_DRAW:
        if (!w->r->configured || w->r->tile_x < 0)
            return false; /* it faults */
        w->draws = true;
        return pre_skip_list(w->p, w->v->bus, w->r->st.prim_format,
                             addr + (rec[0] == VC4_OP_Compressed_Primitive_List ? 1 : 5), next,
                             &w->work, w->limit);
    case VC4_RL_LATCH:
    case VC4_RL_STATE:
    case VC4_RL_LOAD:
        return pre_state(w, role, addr, rec, size, next);
    default:
        return false; /* it faults */
    }
}

/* Follow the render list from CA (pool.c's header comment); fills segs and
 * holes. */
void pre_pass(cg_vc4 *v, struct vc4_pool *p)
{
    pre_walk w = {.v = v, .d = &p->pre, .p = p, .r = p->pre_r};
    cg_vc4 *d = w.d;
    *d = *v;
    d->rend = p->pre_r;
    d->seg = true;
    d->pool = NULL;
    memcpy((uint8_t *)p->pre_r + VC4_RSTATE_OFF, (const uint8_t *)v->rend + VC4_RSTATE_OFF,
           VC4_RSTATE_LEN);
    vc4_thread *th = w.th = &d->th[1];
    /* the tile buffer: each buffer's one value, when it holds one */
    w.ck = buf_all(v->rend->color, v->rend->color[0]);
    w.zk = buf_all(v->rend->zs, v->rend->zs[0]);
    w.cval = v->rend->color[0], w.zval = v->rend->zs[0];
    /* records and items followed: no more than the thread could run (each
     * costs it a unit of its budget), so hostile loops end here as soon */
    w.limit = v->budget[1] < PRE_MAX_WORK ? v->budget[1] : PRE_MAX_WORK;
    cg__fault_capture_set(&w.cap); /* a state record that would fault ends the pre-pass */
    pthread_once(&rec_sizes_once, rec_sizes_init);
    while (++w.work < w.limit) {
        if (th->ca == th->ea)
            break;
        uint32_t addr = th->ca;
        uint8_t buf[16];
        const uint8_t *rec = pre_ptr(p, v->bus, addr, 1, buf);
        if (!rec)
            break;
        unsigned size = rec_sizes[rec[0]];
        if (size == 0 || size > sizeof buf || !(rec = pre_ptr(p, v->bus, addr, size, buf)))
            break;
        uint32_t next = addr + size;
        if (!pre_record(&w, addr, rec, size, &next))
            break;
        th->ca = next;
    }
    if (w.cur)
        w.cur->spec = w.draws && w.cur->spec;
    cg__fault_capture_set(NULL);
}
