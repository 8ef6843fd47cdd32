/* vc4 family: the Primitive Tile Binner (PTB), the binning thread's engine.
 *
 * Tile Binning Mode Configuration (record 112) sets the tile allocation
 * memory, the tile state array, the tile counts and the block sizes
 * (research/vc4.md 1, 1.2); Start Tile Binning (6) opens every tile's list
 * in its initial block at tile_alloc + (y * tiles_x + x) * initial_size
 * (research/vc4.md 1.2, and seed 003: the render list branches to
 * BIN_ADDRESS + ((y * 10 + x) * 32)).
 *
 * Tile-list format, matching seed 003's dump of a binner-written list:
 *   - a list starts inside a compressed primitive list: its first byte is
 *     0x30 (the dump shows 0x30 at the start of the block, then the 0x80
 *     escape before the first state record);
 *   - before a primitive, the state it needs that the list does not have
 *     yet is written, in the order the dump shows: Primitive_List_Format,
 *     NV_Shader_State, Configuration_Bits, Viewport_Offset, Clip_Window (then
 *     Flat_Shade_Flags, which the dump does not show), each preceded by the
 *     0x80 escape if a compressed list is open; then 0x30 opens a list;
 *   - triangles are 16-bit index codings (cl_defs.c); the first triangle
 *     after a 0x30 uses an absolute coding (2 or 3), as in the dump;
 *   - a block ends with a relative branch 0x82 s16 to a new block from the
 *     pool. The dump has the branch at 0x0040021C with n = 0x45 and the next
 *     item at 0x00400AC0 = 0x00400220 + 0x45 * 32: the target is counted
 *     from the 32-byte unit after the one holding the 0x82 byte. Outside a
 *     compressed list the binner writes 0x30 then the branch. An item goes
 *     into the current block only if 3 bytes (4 outside a compressed list)
 *     stay free behind it for that branch, which reproduces the dump's
 *     layout (the 4-byte coding 2 did not go into the last 4 bytes);
 *   - Flush (4) ends every list with the 0x80 escape and Return (18).
 *
 * Pool: extra blocks come from the tile allocation memory after the initial
 * blocks rounded up to 256 bytes (research/vc4.md 1.2); BPCA/BPCS show the
 * current pool. When it runs out the overspill block BPOA/BPOS is taken
 * (SPILLUSE); without one the binner raises OUTOMEM and PCS.BMOOM and waits
 * for the CPU to write BPOA/BPOS. A (triangle, tile) entry is written only
 * once the pool holds enough blocks for all of it, so the binner resumes
 * exactly where it stopped.
 *
 * Coverage: a triangle is listed in a tile when the tile's pixel-centre
 * rectangle meets the triangle's bounding box clipped to the clip window and
 * the frame of tiles, and no single edge has all four corners of that
 * rectangle strictly outside it. This is conservative (a tile may get a
 * triangle that covers none of its pixels), never misses a covered pixel.
 * Degenerate (zero-area) and culled triangles are not listed. */
#include <stdlib.h>
#include "gl.h"
#include "prim_encode.h"

#if defined(__GNUC__)
#define BIN_INLINE static inline __attribute__((always_inline))
#else
#define BIN_INLINE static inline
#endif

#define TILE_STATE_BYTES 48 /* research/vc4.md 1.2 (khrn_prod_4.h) */

void vc4_bin_reset(cg_vc4 *v)
{
    free(v->bin.tiles);
    vc4_gl_cache_free(v->bin.glc);
    memset(&v->bin, 0, sizeof v->bin);
}

static int wr(cg_vc4 *v, vc4_thread *t, uint32_t addr, const void *p, size_t n)
{
    return vc4_bus_write(v->bus, addr, p, n, &t->agent) == 0 ? 0 : CG_ERR_FAULT;
}

/* Write to a tile list. The list remembers the host bytes behind the rest of
 * the page it last wrote (cg__vas_span: plain memory the model needs nothing
 * else for), so the binner's many small writes skip the address translation.
 * Those pointers are only trusted within one binning record (gen): between
 * records the CPU may act (cached lines, coherency) and the model must see
 * every access again. */
static int tl_write(cg_vc4 *v, vc4_thread *t, vc4_tile_list *tl, uint32_t addr, const void *p,
                    size_t n)
{
    if (tl->hp_gen == v->bin.gen && addr >= tl->hp_lo && (uint64_t)addr + n <= tl->hp_hi) {
        memcpy(tl->hp + (addr - tl->hp_lo), p, n);
        return 0;
    }
    uint8_t *hp;
    size_t rest = 4096 - (addr & 4095);
    size_t got = rest >= n ? cg__vas_span(v->bus, addr, rest, true, &hp) : 0;
    if (got < n)
        return wr(v, t, addr, p, n);
    memcpy(hp, p, n);
    tl->hp = hp;
    tl->hp_lo = addr;
    tl->hp_hi = addr + (uint32_t)got;
    tl->hp_gen = v->bin.gen;
    return 0;
}

/* Take a block from the pool: 0 and its address, 1 when out of memory. */
static int take_block(cg_vc4 *v, uint32_t *addr)
{
    vc4_binner *b = &v->bin;
    if (v->bpcs < b->block) {
        if (v->bpos >= b->block) {
            v->bpca = v->bpoa;
            v->bpcs = v->bpos;
            v->bpos = 0; /* reads 0 once taken (research/vc4.md 1.2) */
            vc4_raise_int(v, CG_VC4_INT_SPILLUSE);
        } else {
            return 1;
        }
    }
    *addr = v->bpca;
    v->bpca += b->block;
    v->bpcs -= b->block;
    v->stats.blocks++;
    return 0;
}

/* Bytes of whole blocks the pool and the overspill area can still give. */
static uint64_t pool_bytes(const cg_vc4 *v)
{
    uint32_t blk = v->bin.block;
    return (uint64_t)(v->bpcs / blk) * blk + (uint64_t)(v->bpos / blk) * blk;
}

/* Append bytes to a tile list; `compressed_after` says whether a compressed
 * list is open after them (it decides the branch reserve). */
static int put(cg_vc4 *v, vc4_thread *t, vc4_tile_list *tl, const uint8_t *p, size_t n,
               bool compressed_after)
{
    unsigned reserve_after = compressed_after ? 3 : 4;
    if ((uint64_t)tl->cur + n + reserve_after > tl->end) {
        uint32_t blk;
        if (take_block(v, &blk) != 0)
            return 1; /* cannot happen: the caller checked the pool */
        uint32_t unit_next = (tl->cur & ~31u) + 32;
        int64_t units = ((int64_t)blk - (int64_t)unit_next);
        if (!tl->in_compressed)
            units = ((int64_t)blk - (int64_t)(((tl->cur + 1) & ~31u) + 32));
        if (units % 32 || units / 32 < -32768 || units / 32 > 32767)
            return vc4_fault(v, t, CG_FAULT_UNSUPPORTED, blk,
                             "binner: new block 0x%08x is out of relative branch range of the "
                             "tile list at 0x%08x: not supported yet", blk, tl->cur);
        uint8_t br[4];
        size_t k = 0;
        if (!tl->in_compressed)
            br[k++] = 0x30;
        br[k++] = 0x82;
        br[k++] = (uint8_t)((units / 32) & 0xFF);
        br[k++] = (uint8_t)(((units / 32) >> 8) & 0xFF);
        if (tl_write(v, t, tl, tl->cur, br, k) != 0)
            return CG_ERR_FAULT;
        tl->in_compressed = true;
        tl->cur = blk;
        tl->end = blk + v->bin.block;
        if (!compressed_after && p[0] != 0x80) {
            /* a state record in the new block needs the list closed */
            static const uint8_t esc = 0x80;
            if (tl_write(v, t, tl, tl->cur, &esc, 1) != 0)
                return CG_ERR_FAULT;
            tl->cur++;
            tl->in_compressed = false;
        }
    }
    if (tl_write(v, t, tl, tl->cur, p, n) != 0)
        return CG_ERR_FAULT;
    tl->cur += (uint32_t)n;
    tl->in_compressed = compressed_after;
    return 0;
}

static int put_state(cg_vc4 *v, vc4_thread *t, vc4_tile_list *tl, const uint8_t *p, size_t n)
{
    if (tl->in_compressed) {
        static const uint8_t esc = 0x80;
        int rc = put(v, t, tl, &esc, 1, false);
        if (rc)
            return rc;
    }
    return put(v, t, tl, p, n, false);
}

/* Bytes of state a tile would need now (upper bound, with escapes). */
static unsigned state_need(const vc4_binner *b, const vc4_tile_list *tl)
{
    unsigned n = 0;
    if (tl->ver_fmt != b->ver_fmt) n += 3;
    if (tl->ver_nv != b->ver_nv && b->st.nv_valid) n += 6;
    if (tl->ver_cfg != b->ver_cfg && b->st.config_valid) n += 5;
    if (tl->ver_vp != b->ver_vp && b->st.vp_valid) n += 6;
    if (tl->ver_clip != b->ver_clip && b->st.clip_valid) n += 10;
    if (tl->ver_flat != b->ver_flat && b->st.flat_valid) n += 6;
    return n;
}

static int write_state(cg_vc4 *v, vc4_thread *t, vc4_tile_list *tl, bool all)
{
    vc4_binner *b = &v->bin;
    uint8_t r[10];
    int rc;
    if (tl->ver_fmt != b->ver_fmt || all) {
        r[0] = VC4_OP_Primitive_List_Format;
        r[1] = b->st.prim_format;
        if ((rc = put_state(v, t, tl, r, 2)))
            return rc;
        tl->ver_fmt = b->ver_fmt;
    }
    if ((tl->ver_nv != b->ver_nv || all) && b->st.nv_valid) {
        r[0] = b->st.gl ? VC4_OP_GL_Shader_State : VC4_OP_NV_Shader_State;
        for (int k = 0; k < 4; k++)
            r[1 + k] = (uint8_t)(b->st.nv_record >> (8 * k));
        if ((rc = put_state(v, t, tl, r, 5)))
            return rc;
        tl->ver_nv = b->ver_nv;
    }
    if ((tl->ver_cfg != b->ver_cfg || all) && b->st.config_valid) {
        r[0] = VC4_OP_Configuration_Bits;
        memcpy(r + 1, b->st.config, 3);
        if ((rc = put_state(v, t, tl, r, 4)))
            return rc;
        tl->ver_cfg = b->ver_cfg;
    }
    if ((tl->ver_vp != b->ver_vp || all) && b->st.vp_valid) {
        r[0] = VC4_OP_Viewport_Offset;
        r[1] = (uint8_t)b->st.vp_x, r[2] = (uint8_t)((uint16_t)b->st.vp_x >> 8);
        r[3] = (uint8_t)b->st.vp_y, r[4] = (uint8_t)((uint16_t)b->st.vp_y >> 8);
        if ((rc = put_state(v, t, tl, r, 5)))
            return rc;
        tl->ver_vp = b->ver_vp;
    }
    if ((tl->ver_clip != b->ver_clip || all) && b->st.clip_valid) {
        r[0] = VC4_OP_Clip_Window;
        for (int k = 0; k < 4; k++)
            r[1 + 2 * k] = (uint8_t)b->st.clip[k], r[2 + 2 * k] = (uint8_t)(b->st.clip[k] >> 8);
        if ((rc = put_state(v, t, tl, r, 9)))
            return rc;
        tl->ver_clip = b->ver_clip;
    }
    if ((tl->ver_flat != b->ver_flat || all) && b->st.flat_valid) {
        r[0] = VC4_OP_Flat_Shade_Flags;
        for (int k = 0; k < 4; k++)
            r[1 + k] = (uint8_t)(b->st.flat_flags >> (8 * k));
        if ((rc = put_state(v, t, tl, r, 5)))
            return rc;
        tl->ver_flat = b->ver_flat;
    }
    tl->ver_all = b->ver_all;
    return 0;
}

/* Blocks an entry of `need` bytes may take in the worst case. */
static uint32_t blocks_for(const vc4_binner *b, const vc4_tile_list *tl, unsigned need)
{
    uint32_t room = tl->end - tl->cur;
    if (need + 4 <= room)
        return 0;
    return need / (b->block - 8) + 1;
}

static int bin_tri_tile_slow(cg_vc4 *v, vc4_thread *t, vc4_tile_list *tl, const uint32_t tri[3],
                             bool current);

/* One triangle into one tile: 0, 1 (out of memory, nothing written).
 * Inline in the one-tile path of bin_tri, called (bin_tri_tile) from its
 * tile loop. */
BIN_INLINE int bin_tri_tile_inl(cg_vc4 *v, vc4_thread *t, vc4_tile_list *tl,
                                const uint32_t tri[3])
{
    vc4_binner *b = &v->bin;
    bool current = tl->ver_all == b->ver_all; /* the list has all the state */
    if (current && tl->in_compressed && tl->cur <= tl->end && tl->end - tl->cur >= 2 + 7 + 1 + 4 &&
        tl->hp_gen == b->gen && tl->cur >= tl->hp_lo && tl->cur + 7 <= tl->hp_hi) {
        /* the common case: an open compressed list with its state, room for
         * the item without a new block (what the path below would decide)
         * and its bytes in the page the list last wrote: the coding goes
         * straight there (the encoder writes exactly its n bytes, none when
         * it fails) */
        unsigned n = vc4_prim_encode(tl->prev, tri, tl->first, tl->hp + (tl->cur - tl->hp_lo));
        if (n != 0) {
            tl->cur += n;
            memcpy(tl->prev, tri, sizeof tl->prev);
            tl->first = false;
            tl->written = true;
            v->stats.tile_prims++;
            return 0;
        }
    }
    return bin_tri_tile_slow(v, t, tl, tri, current);
}

static int bin_tri_tile(cg_vc4 *v, vc4_thread *t, vc4_tile_list *tl, const uint32_t tri[3])
{
    return bin_tri_tile_inl(v, t, tl, tri);
}

/* bin_tri_tile's general path: state, blocks, the pool. */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static int bin_tri_tile_slow(cg_vc4 *v, vc4_thread *t, vc4_tile_list *tl, const uint32_t tri[3],
                             bool current)
{
    vc4_binner *b = &v->bin;
    unsigned need = (current ? 0 : state_need(b, tl)) + 2 + 7 + 1;
    uint32_t nb = blocks_for(b, tl, need);
    if (nb && pool_bytes(v) < (uint64_t)nb * b->block)
        return 1;
    int rc = current ? 0 : write_state(v, t, tl, false);
    if (rc)
        return rc;
    if (!tl->in_compressed) {
        static const uint8_t open = VC4_OP_Compressed_Primitive_List;
        if ((rc = put(v, t, tl, &open, 1, true)))
            return rc;
        tl->first = true;
    }
    uint8_t code[7];
    unsigned n = vc4_prim_encode(tl->prev, tri, tl->first, code);
    if (n == 0)
        return vc4_fault(v, t, CG_FAULT_UNSUPPORTED, 0,
                         "binner: vertex index above 65535 needs 32-bit index lists: not "
                         "supported yet");
    if ((rc = put(v, t, tl, code, n, true)))
        return rc;
    memcpy(tl->prev, tri, sizeof tl->prev);
    tl->first = false;
    tl->written = true;
    v->stats.tile_prims++;
    return 0;
}

/* The thread budget: one unit per primitive and per tile entry. True (and
 * nothing taken) when it is spent; bin_budget_fault then ends the thread. */
static inline bool bin_budget_spent(cg_vc4 *v)
{
    if (v->budget[0] == 0)
        return true;
    v->budget[0]--;
    return false;
}

static int bin_budget_fault(cg_vc4 *v, vc4_thread *t, uint32_t addr)
{
    return vc4_fault(v, t, CG_FAULT_HANG, addr, "budget %s ran out while binning primitives",
                     cg_budget_name(CG_BUDGET_VC4_THREAD_UNITS));
}

/* Binning memory ran out at primitive k of the record at addr, before tile
 * entry `tile`: remember where to resume once the CPU gives more memory,
 * raise OUTOMEM. Returns 1 (the binner waits). */
static int bin_oom(cg_vc4 *v, uint32_t addr, uint32_t k, uint32_t tile)
{
    vc4_binner *b = &v->bin;
    b->oom = true;
    b->resume_addr = addr;
    b->resume_prim = k;
    b->resume_tile = tile;
    v->bmoom = true;
    vc4_raise_int(v, CG_VC4_INT_OUTOMEM);
    return 1;
}

/* Whether a list lacks the current Point_size (points) / Line_width
 * (lines), which the binner writes before the primitive. */
static bool size_new(const vc4_binner *b, const vc4_tile_list *tl, bool line)
{
    return line ? tl->ver_lw != b->ver_lw && b->st.lw_valid
                : tl->ver_ps != b->ver_ps && b->st.ps_valid;
}

static int put_size(cg_vc4 *v, vc4_thread *t, vc4_tile_list *tl, bool line)
{
    vc4_binner *b = &v->bin;
    uint8_t r[5];
    r[0] = line ? VC4_OP_Line_width : VC4_OP_Point_size;
    uint32_t bits = line ? b->st.lw_bits : b->st.ps_bits;
    for (int k = 0; k < 4; k++)
        r[1 + k] = (uint8_t)(bits >> (8 * k));
    int rc = put_state(v, t, tl, r, 5);
    if (rc)
        return rc;
    if (line)
        tl->ver_lw = b->ver_lw;
    else
        tl->ver_ps = b->ver_ps;
    return 0;
}

/* A clipped triangle or line into one tile: Clipped_Primitive_With_
 * Compressed_Primitive_List naming its block, which opens a compressed
 * list (a line: Line_width first when the list lacks it). 0, 1 (out of
 * memory, nothing written). */
static int bin_clip_tile(cg_vc4 *v, vc4_thread *t, vc4_tile_list *tl, uint32_t block, bool line)
{
    vc4_binner *b = &v->bin;
    bool current = tl->ver_all == b->ver_all;
    bool sz = line && size_new(b, tl, true);
    unsigned need = (current ? 0 : state_need(b, tl)) + (sz ? 6 : 0) + 1 + 5 + 1;
    uint32_t nb = blocks_for(b, tl, need);
    if (nb && pool_bytes(v) < (uint64_t)nb * b->block)
        return 1;
    int rc = current ? 0 : write_state(v, t, tl, false);
    if (rc == 0 && sz)
        rc = put_size(v, t, tl, true);
    if (rc)
        return rc;
    uint8_t r[5] = {VC4_OP_Clipped_Primitive_With_Compressed_Primitive_List, (uint8_t)block,
                    (uint8_t)(block >> 8), (uint8_t)(block >> 16), (uint8_t)(block >> 24)};
    if ((rc = put_state(v, t, tl, r, 5)))
        return rc;
    tl->in_compressed = true; /* the record opens a compressed list */
    tl->first = true;
    tl->written = true;
    v->stats.tile_prims++;
    return 0;
}

/* Room for a clipped-primitive block of n bytes: its address, 0 when the
 * pool is out (nothing taken that is not kept for the next block). */
static uint32_t clip_alloc(cg_vc4 *v, uint32_t n)
{
    vc4_binner *b = &v->bin;
    n = (n + 31) & ~31u;
    while (b->clip_end - b->clip_cur < n) {
        uint32_t blk;
        if (take_block(v, &blk) != 0)
            return 0;
        if (blk != b->clip_end)
            b->clip_cur = blk; /* not contiguous (overspill): start again there */
        b->clip_end = blk + b->block;
    }
    uint32_t a = b->clip_cur;
    b->clip_cur += n;
    return a;
}

static int bin_config(cg_vc4 *v, vc4_thread *t, uint32_t addr, const uint8_t *rec)
{
    vc4_binner *b = &v->bin;
    const uint8_t *pl = rec + 1;
#define TBMC(field) VC4_GET(pl, Tile_Binning_Mode_Configuration, field)
    b->alloc_addr = VC4_ADDR(pl, Tile_Binning_Mode_Configuration, Tile_Allocation_memory_address);
    b->alloc_size = (uint32_t)TBMC(Tile_Allocation_memory_size);
    b->state_addr = VC4_ADDR(pl, Tile_Binning_Mode_Configuration, Tile_State_Data_Array_Address);
    b->tw = (unsigned)TBMC(Width_in_tiles);
    b->th = (unsigned)TBMC(Height_in_tiles);
    b->flags = rec[15];
    b->started = false;
    b->configured = false;
    if (b->tw == 0 || b->th == 0)
        return vc4_fault(v, t, CG_FAULT_BAD_STATE, addr,
                         "Tile_Binning_Mode_Configuration: %u x %u tiles", b->tw, b->th);
    if (b->tw > VC4_MAX_TILES_X || b->th > VC4_MAX_TILES_Y)
        return vc4_fault(v, t, CG_FAULT_UNSUPPORTED, addr,
                         "Tile_Binning_Mode_Configuration: %u x %u tiles is more than the "
                         "model's %u x %u: not supported yet", b->tw, b->th, VC4_MAX_TILES_X,
                         VC4_MAX_TILES_Y);
    if (TBMC(Multisample_Mode_4x) || TBMC(Tile_Buffer_64_bit_Color_Depth))
        return vc4_fault(v, t, CG_FAULT_UNSUPPORTED, addr,
                         "Tile_Binning_Mode_Configuration: multisample / 64-bit colour "
                         "binning: not supported yet");
    if (!TBMC(Auto_initialise_Tile_State_Data_Array))
        return vc4_fault(v, t, CG_FAULT_UNSUPPORTED, addr,
                         "Tile_Binning_Mode_Configuration without Auto_Initialise_Tile_State_"
                         "Data_Array (a CPU-initialised tile state array): not supported yet");
    if (b->alloc_addr & 31)
        return vc4_fault(v, t, CG_FAULT_BAD_ALIGN, b->alloc_addr,
                         "tile allocation address 0x%08x is not 32-byte aligned", b->alloc_addr);
    b->init_block = 32u << TBMC(Tile_Allocation_Initial_Block_Size);
    b->block = 32u << TBMC(Tile_Allocation_Block_Size);
#undef TBMC
    uint64_t init = (uint64_t)b->tw * b->th * b->init_block;
    uint64_t init_r = (init + 255) & ~255ull;
    if (b->alloc_size < init_r)
        return vc4_fault(v, t, CG_FAULT_OUT_OF_MEMORY, b->alloc_addr,
                         "tile allocation memory of %u bytes is smaller than the %llu bytes of "
                         "initial blocks", b->alloc_size, (unsigned long long)init_r);
    uint64_t ts = (uint64_t)b->tw * b->th * TILE_STATE_BYTES;
    uint64_t bad;
    if (cg_vas_check(v->bus, b->state_addr, ts, true, &bad) != CG_FAULT_NONE)
        return vc4_fault(v, t, CG_FAULT_UNMAPPED, (uint32_t)bad,
                         "tile state data array [0x%08x, +%llu) is not in memory",
                         b->state_addr, (unsigned long long)ts);
    v->bpca = b->alloc_addr + (uint32_t)init_r;
    v->bpcs = b->alloc_size - (uint32_t)init_r;
    b->configured = true;
    return 0;
}

static int bin_start(cg_vc4 *v, vc4_thread *t, uint32_t addr)
{
    vc4_binner *b = &v->bin;
    if (!b->configured)
        return vc4_fault(v, t, CG_FAULT_BAD_STATE, addr,
                         "Start_Tile_Binning without Tile_Binning_Mode_Configuration");
    size_t n = (size_t)b->tw * b->th;
    vc4_tile_list *tiles = calloc(n, sizeof *tiles);
    if (!tiles)
        return CG_ERR_NOMEM;
    free(b->tiles);
    b->tiles = tiles;
    /* State set before Start_Tile_Binning still reaches the lists: every
     * version starts one ahead of the tiles'. */
    b->ver_fmt = b->ver_nv = b->ver_cfg = b->ver_vp = b->ver_clip = b->ver_flat = 1;
    b->ver_all = 1;
    b->st.prim_format = 0x12;
    b->clip_cur = b->clip_end = 0;
    for (size_t i = 0; i < n; i++) {
        vc4_tile_list *tl = &tiles[i];
        tl->cur = b->alloc_addr + (uint32_t)i * b->init_block;
        tl->end = tl->cur + b->init_block;
        static const uint8_t open = VC4_OP_Compressed_Primitive_List;
        if (tl_write(v, t, tl, tl->cur, &open, 1) != 0)
            return CG_ERR_FAULT;
        tl->cur++;
        tl->in_compressed = true;
        tl->first = true;
    }
    b->started = true;
    return 0;
}

int vc4_bin_flush(cg_vc4 *v, vc4_thread *t, bool all_state)
{
    vc4_binner *b = &v->bin;
    if (!b->started)
        return vc4_fault(v, t, CG_FAULT_BAD_STATE, t->ca, "Flush before Start_Tile_Binning");
    size_t n = (size_t)b->tw * b->th;
    if (all_state) {
        /* every list gets all the state (at most 36 bytes with escapes):
         * make sure the pool holds the blocks for all of them first */
        uint64_t need = 0;
        for (size_t i = 0; i < n; i++)
            need += (uint64_t)blocks_for(b, &b->tiles[i], 40) * b->block;
        b->oom = false;
        v->bmoom = false;
        if (need && pool_bytes(v) < need) {
            b->oom = true;
            b->resume_addr = t->ca;
            b->resume_prim = b->resume_tile = 0;
            v->bmoom = true;
            vc4_raise_int(v, CG_VC4_INT_OUTOMEM);
            return 1;
        }
        for (size_t i = 0; i < n; i++) {
            int rc = write_state(v, t, &b->tiles[i], true);
            if (rc)
                return rc;
        }
    }
    for (size_t i = 0; i < n; i++) {
        vc4_tile_list *tl = &b->tiles[i];
        uint8_t end[2];
        size_t k = 0;
        if (tl->in_compressed)
            end[k++] = 0x80;
        end[k++] = VC4_OP_Return_from_sub_list;
        /* the reserve kept behind every item leaves room for these */
        if (tl_write(v, t, tl, tl->cur, end, k) != 0)
            return CG_ERR_FAULT;
        tl->cur += (uint32_t)k;
        tl->in_compressed = false;
    }
    b->started = false;
    v->bfc = (v->bfc + 1) & 0xFF;
    vc4_raise_int(v, CG_VC4_INT_FLDONE);
    v->th[1].sem += t->pending_inc;
    t->pending_inc = 0;
    return 0;
}

/* ---- primitives ---- */

/* Triangles of a primitive run: the k-th triangle's vertex numbers. */
BIN_INLINE void tri_of(unsigned mode, uint32_t k, uint32_t out[3])
{
    if (mode == 4) {
        out[0] = 3 * k, out[1] = 3 * k + 1, out[2] = 3 * k + 2;
    } else if (mode == 5) { /* strip: odd triangles swap to keep the winding */
        if (k & 1)
            out[0] = k + 1, out[1] = k, out[2] = k + 2;
        else
            out[0] = k, out[1] = k + 1, out[2] = k + 2;
    } else { /* fan */
        out[0] = 0, out[1] = k + 1, out[2] = k + 2;
    }
}

static uint32_t tri_count(unsigned mode, uint32_t n)
{
    if (mode == 4)
        return n / 3;
    return n >= 3 ? n - 2 : 0;
}

/* Points and lines (modes 0-3, GL's): the k-th primitive's vertex numbers. */
static void pl_of(unsigned mode, uint32_t k, uint32_t count, uint32_t out[3])
{
    if (mode == 0)
        out[0] = k, out[1] = k;
    else if (mode == 1)
        out[0] = 2 * k, out[1] = 2 * k + 1;
    else if (mode == 2) /* loop: the last segment closes it */
        out[0] = k, out[1] = k + 1 < count ? k + 1 : 0;
    else
        out[0] = k, out[1] = k + 1;
    out[2] = out[1];
}

static uint32_t pl_count(unsigned mode, uint32_t n)
{
    if (mode == 0)
        return n;
    if (mode == 1)
        return n / 2;
    if (mode == 2)
        return n >= 2 ? n : 0;
    return n >= 2 ? n - 1 : 0;
}

/* One point or line into one tile, in the absolute coding 0x81 + u16 per
 * vertex; Point_size / Line_width first when the list lacks them. 0, 1 (out
 * of memory, nothing written). */
static int bin_pl_tile(cg_vc4 *v, vc4_thread *t, vc4_tile_list *tl, bool line,
                       const uint32_t idx[2])
{
    vc4_binner *b = &v->bin;
    bool sz = size_new(b, tl, line);
    bool current = tl->ver_all == b->ver_all;
    unsigned need = (current ? 0 : state_need(b, tl)) + (sz ? 6 : 0) + 2 + 5 + 1;
    uint32_t nb = blocks_for(b, tl, need);
    if (nb && pool_bytes(v) < (uint64_t)nb * b->block)
        return 1;
    int rc = current ? 0 : write_state(v, t, tl, false);
    if (rc)
        return rc;
    if (sz && (rc = put_size(v, t, tl, line)))
        return rc;
    if (!tl->in_compressed) {
        static const uint8_t open = VC4_OP_Compressed_Primitive_List;
        if ((rc = put(v, t, tl, &open, 1, true)))
            return rc;
        tl->first = true;
    }
    if (idx[0] > 0xFFFF || (line && idx[1] > 0xFFFF))
        return vc4_fault(v, t, CG_FAULT_UNSUPPORTED, 0,
                         "binner: vertex index above 65535 needs 32-bit index lists: not "
                         "supported yet");
    uint8_t code[5] = {0x81, (uint8_t)idx[0], (uint8_t)(idx[0] >> 8), (uint8_t)idx[1],
                       (uint8_t)(idx[1] >> 8)};
    if ((rc = put(v, t, tl, code, line ? 5 : 3, true)))
        return rc;
    tl->written = true;
    v->stats.tile_prims++;
    return 0;
}

/* Facing and culling from Configuration_Bits (research/vc4.md 1: [0] front,
 * [1] back, [2] clockwise). Screen Y grows downwards (the seed's triangle
 * has its apex at y = 32); area2 < 0 is counter-clockwise as seen, which is
 * forward-facing unless Clockwise_Primitives is set. */
bool vc4_tri_culled(const uint8_t cfg[3], int64_t area2)
{
    bool ccw = area2 < 0;
    bool front = (cfg[0] & 4) ? !ccw : ccw;
    return front ? !(cfg[0] & 1) : !(cfg[0] & 2);
}

typedef struct xy32 {
    int32_t x, y; /* 12.4, viewport offset applied */
} xy32;

/* The tile-coverage function of the edge a -> c of a triangle of winding
 * `pos` (area2 > 0), signed so that the inside is E >= 0: E = sdx * (py -
 * ay) - sdy * (px - ax) at the corner of a tile's pixel-centre rectangle
 * where E is largest (right column, + 1016, when sdy < 0, else left, + 8;
 * bottom row when sdx > 0): at tile (tx, ty), E = ec + ex * tx + ey * ty. */
BIN_INLINE void bin_edge(int32_t ax, int32_t ay, int32_t cx, int32_t cy, bool pos,
                         int64_t *ex, int64_t *ey, int64_t *ec)
{
    int64_t sdx = pos ? cx - ax : ax - cx, sdy = pos ? cy - ay : ay - cy;
    int64_t ox = sdy < 0 ? 1016 : 8, oy = sdx > 0 ? 1016 : 8;
    *ex = -sdy * 1024;
    *ey = sdx * 1024;
    *ec = sdx * (oy - ay) - sdy * (ox - ax);
}

/* The vertex page cache (vc4_page_cache) of bin_prims, kept in locals that
 * never have their address taken, so they stay in registers: va is
 * VA_NONE when no page is cached. */
typedef struct bin_vcache {
    const uint8_t *page;
    uint64_t va;
} bin_vcache;
#define VA_NONE (1ull << 63)

/* Xs, Ys of NV shaded vertex idx (the 4 bytes at offset off), the viewport
 * offset added. vc4_vertex_bytes with its page test folded into one
 * compare: the cached page (va page-aligned, below 2^32, or VA_NONE) holds
 * the bytes exactly when a - va <= 4092 as unsigned; otherwise the miss
 * path reads (or faults) and caches the new page. */
BIN_INLINE int bin_vertex_xy(cg_vc4 *v, vc4_thread *t, const vc4_nv_record *nvr, uint32_t off,
                             uint64_t base, uint32_t stride, uint32_t idx, bin_vcache *vc,
                             int32_t vpx, int32_t vpy, xy32 *o)
{
    uint64_t a = base + (uint64_t)idx * stride; /* base = nvr->vdata + off */
    if (__builtin_expect(a - vc->va <= 4096 - 4, 1)) {
        const uint8_t *p = vc->page + (a - vc->va);
        o->x = (int16_t)vc4_le16(p) + vpx;
        o->y = (int16_t)vc4_le16(p + 2) + vpy;
        return 0;
    }
    uint8_t xy[4];
    vc4_page_cache pc = {NULL, 0};
    int rc = vc4_vertex_bytes_miss(v, &t->agent, nvr, idx, off, xy, 4, &pc);
    vc->page = pc.page;
    vc->va = pc.page ? pc.va : VA_NONE;
    if (rc)
        return rc;
    o->x = (int16_t)vc4_le16(xy) + vpx;
    o->y = (int16_t)vc4_le16(xy + 2) + vpy;
    return 0;
}

/* A triangle or a line crossing the near or far plane: cut in clip space
 * (vc4_clip_near_far, vc4_clip_line), the polygon or segment placed on
 * screen with the clipper's scaling, written once as a clipped-primitive
 * block (gl.h) and listed with Clipped_Primitive records in every tile its
 * box (a line's widened by half its width, as bin_pl) meets. 0, 1 (out of
 * memory: resume state set), or a fault. */
static int bin_clipped(cg_vc4 *v, vc4_thread *t, uint32_t addr, uint32_t k, const uint32_t idx[3],
                       const vc4_gl_coord gc[3], const uint8_t *cfg, int64_t cx0, int64_t cy0,
                       int64_t cx1, int64_t cy1, uint32_t tile0, bool line)
{
    vc4_binner *b = &v->bin;
    vc4_clip_vertex poly[VC4_CLIP_MAX];
    int n = line ? vc4_clip_line(gc, poly) : vc4_clip_near_far(gc, poly);
    if (n == 0)
        return 0;
    if (!b->clip_xy_valid || !b->clip_z_valid)
        return vc4_fault(v, t, CG_FAULT_BAD_STATE, addr,
                         "%s %u crosses the near or far plane: clipping needs "
                         "Clipper_XY_Scaling and Clipper_Z_Scale_and_Offset first",
                         line ? "line" : "triangle", k);
    uint8_t blk[VC4_CLIP_BLOCK(VC4_CLIP_MAX)];
    int64_t sx[VC4_CLIP_MAX] = {0}, sy[VC4_CLIP_MAX] = {0};
    vc4_bits_set(blk, 0, 32, (uint32_t)n);
    for (int j = 0; j < 3; j++)
        vc4_bits_set(blk, 32 + 32 * (unsigned)j, 32, idx[j]);
    for (int j = 0; j < n; j++) {
        float iw = 1.0f / poly[j].c[3];
        float fx = poly[j].c[0] * iw * b->clip_sx, fy = poly[j].c[1] * iw * b->clip_sy;
        /* 12.4 screen coordinates saturate at the 16 bits the shaded vertex
         * format has */
        int32_t x = !(fx > -32768.0f) ? -32768 : fx > 32767.0f ? 32767 : (int32_t)fx;
        int32_t y = !(fy > -32768.0f) ? -32768 : fy > 32767.0f ? 32767 : (int32_t)fy;
        uint32_t w[7] = {(uint32_t)x, (uint32_t)y,
                         vc4_u32f(poly[j].c[2] * iw * b->clip_zs + b->clip_zo), vc4_u32f(iw),
                         vc4_u32f(poly[j].b[0]), vc4_u32f(poly[j].b[1]), vc4_u32f(poly[j].b[2])};
        for (int q = 0; q < 7; q++)
            vc4_bits_set(blk, 128 + 224 * (unsigned)j + 32 * (unsigned)q, 32, w[q]);
        sx[j] = (int64_t)x + b->st.vp_x;
        sy[j] = (int64_t)y + b->st.vp_y;
    }
    int64_t area2 = 0, minx = sx[0], maxx = sx[0], miny = sy[0], maxy = sy[0];
    for (int j = 0; j < n; j++) {
        int q = (j + 1) % n;
        area2 += sx[j] * sy[q] - sx[q] * sy[j];
        minx = sx[j] < minx ? sx[j] : minx, maxx = sx[j] > maxx ? sx[j] : maxx;
        miny = sy[j] < miny ? sy[j] : miny, maxy = sy[j] > maxy ? sy[j] : maxy;
    }
    if (line) {
        /* as bin_pl: the box widened by half the line width */
        float size = b->st.lw_valid ? vc4_f32(b->st.lw_bits) : 1.0f;
        size = !(size >= 1.0f) ? 1.0f : size > 2048.0f ? 2048.0f : size;
        int64_t h = (int64_t)(size * 8.0f + 0.5f);
        minx -= h, maxx += h, miny -= h, maxy += h;
    } else if (area2 == 0 || vc4_tri_culled(cfg, area2)) {
        return 0;
    }
    int64_t px0 = (minx - 8 + 15) >> 4, px1 = (maxx - 8) >> 4;
    int64_t py0 = (miny - 8 + 15) >> 4, py1 = (maxy - 8) >> 4;
    if (px0 < cx0) px0 = cx0;
    if (py0 < cy0) py0 = cy0;
    if (px1 > cx1 - 1) px1 = cx1 - 1;
    if (py1 > cy1 - 1) py1 = cy1 - 1;
    if (px0 > px1 || py0 > py1)
        return 0;
    uint32_t size = VC4_CLIP_BLOCK((uint32_t)n);
    uint32_t ba = clip_alloc(v, size);
    if (ba == 0 || (ba & 7)) {
        return bin_oom(v, addr, k, tile0);
    }
    if (wr(v, t, ba, blk, size) != 0)
        return CG_ERR_FAULT;
    uint32_t tix = 0;
    for (int64_t ty = py0 / VC4_TILE; ty <= py1 / VC4_TILE; ty++)
        for (int64_t tx = px0 / VC4_TILE; tx <= px1 / VC4_TILE; tx++, tix++) {
            if (tix < tile0)
                continue;
            if (bin_budget_spent(v))
                return bin_budget_fault(v, t, addr);
            int rc = bin_clip_tile(v, t, &b->tiles[ty * b->tw + tx], ba, line);
            if (rc == 1)
                return bin_oom(v, addr, k, tix);
            if (rc)
                return rc;
        }
    return 0;
}

/* A point or line: every tile its box meets (the box of the square of the
 * point size, or of the segment widened by half the line width, clipped to
 * the clip window and the frame). 0, 1 (out of memory: resume state set), or
 * a fault. */
static int bin_pl(cg_vc4 *v, vc4_thread *t, uint32_t addr, unsigned mode, uint32_t k,
                  const uint32_t idx[3], const xy32 vx[3], const vc4_gl_record *glr,
                  const vc4_nv_record *nvr, vc4_page_cache *vpc, int64_t cx0, int64_t cy0,
                  int64_t cx1, int64_t cy1, int clip, uint32_t tile0)
{
    vc4_binner *b = &v->bin;
    if (clip == 1)
        return 0;
    bool line = mode != 0;
    float size;
    if (!line && ((glr ? glr->flags : nvr->flags) & 2)) {
        /* the shaded vertex's point size: the coordinate shader's row 7, or
         * the NV shaded vertex's word after 1/Wc */
        if (glr) {
            size = b->pl_psize;
        } else {
            uint8_t w[4];
            int rc = vc4_vertex_bytes(v, &t->agent, nvr, idx[0], ((nvr->flags & 8) ? 16 : 0) + 12,
                                      w, 4, vpc);
            if (rc)
                return rc;
            size = vc4_f32(vc4_le32(w));
        }
    } else {
        size = vc4_f32(line ? b->st.lw_bits : b->st.ps_bits);
        if (line ? !b->st.lw_valid : !b->st.ps_valid)
            size = 1.0f;
    }
    if (!(size >= 1.0f)) /* as the renderer: GL ES 2.0's minimum size 1 */
        size = 1.0f;
    if (size > 2048.0f)
        size = 2048.0f;
    int64_t h = (int64_t)(size * 8.0f + 0.5f); /* half the size, 1/16 pixel */
    int64_t minx = vx[0].x < vx[1].x ? vx[0].x : vx[1].x;
    int64_t maxx = vx[0].x < vx[1].x ? vx[1].x : vx[0].x;
    int64_t miny = vx[0].y < vx[1].y ? vx[0].y : vx[1].y;
    int64_t maxy = vx[0].y < vx[1].y ? vx[1].y : vx[0].y;
    minx -= h, maxx += h, miny -= h, maxy += h;
    int64_t px0 = (minx - 8 + 15) >> 4, px1 = (maxx - 8) >> 4;
    int64_t py0 = (miny - 8 + 15) >> 4, py1 = (maxy - 8) >> 4;
    if (px0 < cx0) px0 = cx0;
    if (py0 < cy0) py0 = cy0;
    if (px1 > cx1 - 1) px1 = cx1 - 1;
    if (py1 > cy1 - 1) py1 = cy1 - 1;
    if (px0 > px1 || py0 > py1)
        return 0;
    uint32_t tix = 0;
    for (int64_t ty = py0 / VC4_TILE; ty <= py1 / VC4_TILE; ty++)
        for (int64_t tx = px0 / VC4_TILE; tx <= px1 / VC4_TILE; tx++, tix++) {
            if (tix < tile0)
                continue;
            if (bin_budget_spent(v))
                return bin_budget_fault(v, t, addr);
            int rc = bin_pl_tile(v, t, &b->tiles[ty * b->tw + tx], line, idx);
            if (rc == 1)
                return bin_oom(v, addr, k, tix);
            if (rc)
                return rc;
        }
    return 0;
}

/* What bin_prims' loops share for one record. */
typedef struct bin_run {
    uint32_t addr;                  /* the record */
    bool cull_neg, cull_pos;        /* culled windings (area2 < 0, > 0) */
    int32_t kx0, ky0, kx1, ky1;     /* clip window and frame, pixels (0 <= x0, x1 <= 2 * 65535) */
    bool indexed;
    unsigned itype;                 /* index type (indexed) */
    uint32_t iaddr, maxi, first;    /* index list, its maximum; first vertex (arrays) */
} bin_run;

/* Triangle k (vertices idx, screen 12.4 with the viewport offset: 16 bits
 * plus the offset, so sums and differences fit 32 bits, products 64) into
 * every tile it may cover, from tile entry tile0 on (a resumed triangle).
 * 0, or what ends the record (a fault, 1 = out of memory with the resume
 * point set). */
BIN_INLINE int bin_tri(cg_vc4 *v, vc4_thread *t, const bin_run *R, uint32_t k,
                       const uint32_t idx[3], int32_t x0, int32_t y0, int32_t x1, int32_t y1,
                       int32_t x2, int32_t y2, uint32_t tile0)
{
    vc4_binner *b = &v->bin;
    /* 12.4 coordinates: 16 bits plus the viewport offset, so sums and
     * differences fit 32 bits, products 64 */
    int64_t area2 = (int64_t)(x1 - x0) * (y2 - y0) - (int64_t)(x2 - x0) * (y1 - y0);
    if (area2 == 0 || (area2 < 0 ? R->cull_neg : R->cull_pos))
        return 0;
    int32_t minx = x0 < x1 ? x0 : x1, maxx = x0 < x1 ? x1 : x0;
    int32_t miny = y0 < y1 ? y0 : y1, maxy = y0 < y1 ? y1 : y0;
    minx = x2 < minx ? x2 : minx, maxx = x2 > maxx ? x2 : maxx;
    miny = y2 < miny ? y2 : miny, maxy = y2 > maxy ? y2 : maxy;
    /* pixel x is sampled at 16x+8 (12.4); covered pixels have centres in
     * [minx, maxx] */
    int32_t px0 = (minx - 8 + 15) >> 4, px1 = (maxx - 8) >> 4;
    int32_t py0 = (miny - 8 + 15) >> 4, py1 = (maxy - 8) >> 4;
    if (px0 < R->kx0) px0 = R->kx0;
    if (py0 < R->ky0) py0 = R->ky0;
    if (px1 > R->kx1 - 1) px1 = R->kx1 - 1;
    if (py1 > R->ky1 - 1) py1 = R->ky1 - 1;
    if (px0 > px1 || py0 > py1)
        return 0;
    /* 0 <= px0 <= px1 (the clip window starts at 0 or later): shifts */
    int32_t tx0 = px0 >> 6, tx1 = px1 >> 6;
    int32_t ty0 = py0 >> 6, ty1 = py1 >> 6;
    _Static_assert(VC4_TILE == 64, "tile shifts");
    if (tx0 == tx1 && ty0 == ty1 && tile0 == 0) {
        /* a box in one tile: the triangle is listed there (the loop
         * below does the same for its one tile) */
        if (bin_budget_spent(v))
            return bin_budget_fault(v, t, R->addr);
        int rc = bin_tri_tile_inl(v, t, &b->tiles[(uint32_t)ty0 * b->tw + (uint32_t)tx0], idx);
        if (rc == 1)
            return bin_oom(v, R->addr, k, 0);
        return rc;
    }
    /* edges e -> e+1, signed so that the inside is E >= 0: E = sdx * (py
     * - ay) - sdy * (px - ax). E is linear, so the four corners of a
     * tile's pixel-centre rectangle are all outside exactly when the
     * corner with the largest E is: px = the right column (+1016) when
     * sdy < 0, else the left (+8), py = the bottom row when sdx > 0.
     * At that corner of tile (tx, ty), E = ec + ex * tx + ey * ty
     * (exact in 64 bits), stepped along the row. Only needed when the
     * box spans tiles (a resumed one-tile triangle: all zero, listed). */
    int64_t ex[3] = {0, 0, 0}, ey[3] = {0, 0, 0}, ec[3] = {0, 0, 0};
    if (tx0 != tx1 || ty0 != ty1) {
        bin_edge(x0, y0, x1, y1, area2 > 0, &ex[0], &ey[0], &ec[0]);
        bin_edge(x1, y1, x2, y2, area2 > 0, &ex[1], &ey[1], &ec[1]);
        bin_edge(x2, y2, x0, y0, area2 > 0, &ex[2], &ey[2], &ec[2]);
    }
    uint32_t tix = 0;
    for (int64_t ty = ty0; ty <= ty1; ty++) {
        int64_t e0 = ec[0] + ey[0] * ty + ex[0] * tx0, e1 = ec[1] + ey[1] * ty + ex[1] * tx0,
                e2 = ec[2] + ey[2] * ty + ex[2] * tx0;
        for (int64_t tx = tx0; tx <= tx1;
             tx++, tix++, e0 += ex[0], e1 += ex[1], e2 += ex[2]) {
            /* in the tile unless an edge has its best corner outside */
            if (tix < tile0 || (e0 | e1 | e2) < 0)
                continue;
            /* every tile entry costs one unit of the budget too */
            if (bin_budget_spent(v))
                return bin_budget_fault(v, t, R->addr);
            vc4_tile_list *tl = &b->tiles[ty * b->tw + tx];
            int rc = bin_tri_tile(v, t, tl, idx);
            if (rc == 1)
                return bin_oom(v, R->addr, k, tix);
            if (rc)
                return rc;
        }
    }
    return 0;
}

/* The vertex numbers of primitive k become indices: the index list's
 * entries (read, checked against the record's maximum) or first + n. */
BIN_INLINE int bin_indices(cg_vc4 *v, vc4_thread *t, const bin_run *R, const uint32_t vn[3],
                           uint32_t idx[3])
{
    if (!R->indexed) {
        idx[0] = R->first + vn[0], idx[1] = R->first + vn[1], idx[2] = R->first + vn[2];
        return 0;
    }
    for (int j = 0; j < 3; j++) {
        uint8_t ib[2] = {0, 0};
        uint64_t ia = (uint64_t)R->iaddr + (uint64_t)vn[j] * (R->itype ? 2 : 1);
        if (ia > 0xFFFFFFFFu)
            return vc4_fault(v, t, CG_FAULT_ADDR_RANGE, R->iaddr,
                             "index %u of the list at 0x%08x lies past the 32-bit bus", vn[j],
                             R->iaddr);
        if (vc4_bus_read(v->bus, ia, ib, R->itype ? 2 : 1, &t->agent) != 0)
            return CG_ERR_FAULT;
        idx[j] = R->itype ? vc4_le16(ib) : ib[0];
        if (idx[j] > R->maxi)
            return vc4_fault(v, t, CG_FAULT_BAD_STATE, R->addr,
                             "index %u above the record's maximum index %u", idx[j], R->maxi);
    }
    return 0;
}

/* Triangles k0 .. ntri - 1 (modes 4-6) of an NV shader state record: the
 * general loop of bin_prims without the GL, point and line cases, so its
 * few live values stay in registers. The same steps in the same order:
 * indices, one budget unit, Xs / Ys, then bin_tri. */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static int bin_nv_tris(cg_vc4 *v, vc4_thread *t, const bin_run *R, const vc4_nv_record *nvr,
                       unsigned mode, uint32_t k0, uint32_t ntri, uint32_t tile0)
{
    vc4_binner *b = &v->bin;
    bin_vcache vc = {NULL, VA_NONE}; /* host page of the last vertex read */
    uint32_t xy_off = (nvr->flags & 8) ? 16 : 0; /* Xs, Ys after a clip header */
    uint64_t vbase = (uint64_t)nvr->vdata + xy_off;
    uint32_t vstride = nvr->stride;
    int32_t vpx = b->st.vp_x, vpy = b->st.vp_y;
    /* a list of vertex arrays: triangle k is vertices first + 3k .. + 2 */
    bool consec = !R->indexed && mode == 4;
    for (uint32_t k = k0; k < ntri; k++) {
        uint32_t vn[3], idx[3];
        tri_of(mode, k, vn);
        int rc = bin_indices(v, t, R, vn, idx);
        if (rc)
            return rc;
        t->pc++;
        if (bin_budget_spent(v))
            return bin_budget_fault(v, t, R->addr);
        /* the binner needs only Xs, Ys of each vertex (the renderer reads
         * the rest when it draws) */
        xy32 q0, q1, q2;
        uint64_t a0 = vbase + (uint64_t)idx[0] * vstride;
        if (consec && a0 - vc.va <= 4096 - 4 - 2 * (uint64_t)vstride) {
            /* three vertices in a row in the cached page: one page test
             * for all three (each would hit it) */
            const uint8_t *p = vc.page + (a0 - vc.va);
            q0.x = (int16_t)vc4_le16(p) + vpx, q0.y = (int16_t)vc4_le16(p + 2) + vpy;
            p += vstride;
            q1.x = (int16_t)vc4_le16(p) + vpx, q1.y = (int16_t)vc4_le16(p + 2) + vpy;
            p += vstride;
            q2.x = (int16_t)vc4_le16(p) + vpx, q2.y = (int16_t)vc4_le16(p + 2) + vpy;
        } else if ((rc = bin_vertex_xy(v, t, nvr, xy_off, vbase, vstride, idx[0], &vc, vpx, vpy,
                                       &q0)) ||
                   (rc = bin_vertex_xy(v, t, nvr, xy_off, vbase, vstride, idx[1], &vc, vpx, vpy,
                                       &q1)) ||
                   (rc = bin_vertex_xy(v, t, nvr, xy_off, vbase, vstride, idx[2], &vc, vpx, vpy,
                                       &q2))) {
            return rc;
        }
        if (tile0 == 0)
            v->stats.prims_binned++;
        if ((rc = bin_tri(v, t, R, k, idx, q0.x, q0.y, q1.x, q1.y, q2.x, q2.y, tile0)))
            return rc;
        tile0 = 0;
    }
    return 0;
}

/* The shader state the primitives of the record at addr are shaded with:
 * GL mode: the GL record (*glr), every selected attribute array checked to
 * hold the vertices the primitives can name (vc4_validate.c); else the NV
 * shader record (*nvr). */
static int prims_shader(cg_vc4 *v, vc4_thread *t, uint32_t addr, bool indexed, uint32_t count,
                        uint32_t first, uint32_t maxi, vc4_nv_record *nvr,
                        const vc4_gl_record **glr)
{
    vc4_binner *b = &v->bin;
    if (b->st.gl) {
        if (vc4_gl_cache_reset(&b->glc) != 0)
            return CG_ERR_NOMEM;
        if (vc4_gl_cached_record(v, t, b->glc, b->st.nv_record, glr) != 0)
            return CG_ERR_FAULT;
        uint64_t last = indexed ? maxi : (uint64_t)first + count - 1;
        if (count && last > 0xFFFFFFFFu)
            return vc4_fault(v, t, CG_FAULT_ADDR_RANGE, addr,
                             "vertex index %llu does not fit 32 bits", (unsigned long long)last);
        if (count && vc4_gl_check_attrs(v, t, *glr, (uint32_t)last, addr) != 0)
            return CG_ERR_FAULT;
        if (!indexed && count) {
            /* a vertex array: batches run ahead over its next vertices */
            b->glc->ahead = true;
            b->glc->ahead_lo = first;
            b->glc->ahead_hi = (uint32_t)last;
        }
    } else if (vc4_read_nv_record(v, &t->agent, b->st.nv_record, nvr) != 0) {
        return CG_ERR_FAULT;
    }
    return 0;
}

/* The primitives k0.. of ntri (from tile entry tile0 of the first) of a
 * record with the GL shader state glr (any primitive) or NV points and
 * lines (nvr): each one's screen coordinates (the coordinate shader's, or
 * the shaded vertex's), then its tiles. */
static int bin_shaded(cg_vc4 *v, vc4_thread *t, const bin_run *R, unsigned mode, uint32_t count,
                      const vc4_gl_record *glr, const vc4_nv_record *nvr, const uint8_t *cfg,
                      uint32_t k0, uint32_t ntri, uint32_t tile0)
{
    vc4_binner *b = &v->bin;
    uint32_t addr = R->addr;
    bool ptl = mode < 4; /* points or lines */
    int64_t cx0 = R->kx0, cy0 = R->ky0, cx1 = R->kx1, cy1 = R->ky1;
    vc4_page_cache vpc = {NULL, 0}; /* host page of the last vertex read */
    for (uint32_t k = k0; k < ntri; k++) {
        uint32_t vn[3], idx[3];
        if (ptl)
            pl_of(mode, k, count, vn);
        else
            tri_of(mode, k, vn);
        int rc = bin_indices(v, t, R, vn, idx);
        if (rc)
            return rc;
        t->pc++;
        if (bin_budget_spent(v))
            return bin_budget_fault(v, t, addr);
        xy32 vx[3];
        int clip = 0;
        vc4_gl_coord gc[3];
        if (glr) {
            /* the coordinate shader's Xs, Ys; the clipper's decision */
            rc = vc4_gl_coords(v, t, glr, idx, b->st.vp_x, b->st.vp_y, b->glc, gc);
            if (rc)
                return rc;
            for (int j = 0; j < 3; j++)
                vx[j].x = gc[j].x, vx[j].y = gc[j].y;
            b->pl_psize = gc[0].psize;
            if (glr->flags & 4)
                clip = vc4_clip_classify(gc);
            if (clip == 2 && mode == 0)
                clip = 1; /* a point outside the near or far plane (or at Wc
                           * <= 0) is discarded (GL ES 2.0 section 2.13) */
        }
        for (int j = 0; j < 3 && !glr; j++) {
            uint8_t xy[4];
            rc = vc4_vertex_bytes(v, &t->agent, nvr, idx[j], (nvr->flags & 8) ? 16 : 0, xy, 4,
                                  &vpc);
            if (rc)
                return rc;
            vx[j].x = (int16_t)vc4_le16(xy) + b->st.vp_x;
            vx[j].y = (int16_t)vc4_le16(xy + 2) + b->st.vp_y;
        }
        if (tile0 == 0)
            v->stats.prims_binned++;
        rc = 0;
        if (clip == 2)
            rc = bin_clipped(v, t, addr, k, idx, gc, cfg, cx0, cy0, cx1, cy1, tile0, ptl);
        else if (ptl)
            rc = bin_pl(v, t, addr, mode, k, idx, vx, glr, nvr, &vpc, cx0, cy0, cx1, cy1, clip,
                        tile0);
        else if (clip != 1)
            rc = bin_tri(v, t, R, k, idx, vx[0].x, vx[0].y, vx[1].x, vx[1].y, vx[2].x, vx[2].y,
                         tile0);
        if (rc)
            return rc;
        tile0 = 0;
    }
    return 0;
}

static int bin_prims(cg_vc4 *v, vc4_thread *t, uint32_t addr, const uint8_t *rec)
{
    vc4_binner *b = &v->bin;
    if (!b->started)
        return vc4_fault(v, t, CG_FAULT_BAD_STATE, addr,
                         "primitives before Start_Tile_Binning");
    if (!b->st.nv_valid)
        return vc4_fault(v, t, CG_FAULT_BAD_STATE, addr,
                         "primitives without a shader state (NV_Shader_State)");
    bool indexed = rec[0] == VC4_OP_Indexed_Primitive_List;
    const uint8_t *pl = rec + 1;
    /* Vertex_Array_Primitives: the whole first byte is taken as the mode
     * (the XML's field is bits [3:0]; set bits [7:4] give an invalid mode) */
    unsigned mode = indexed ? (unsigned)VC4_GET(pl, Indexed_Primitive_List, Primitive_mode)
                            : pl[0];
    unsigned itype = indexed ? (unsigned)VC4_GET(pl, Indexed_Primitive_List, Index_type) : 0;
    uint32_t count = indexed ? (uint32_t)VC4_GET(pl, Indexed_Primitive_List, Length)
                             : (uint32_t)VC4_GET(pl, Vertex_Array_Primitives, Length);
    uint32_t first =
        indexed ? 0 : (uint32_t)VC4_GET(pl, Vertex_Array_Primitives, Index_of_First_Vertex);
    uint32_t iaddr =
        indexed ? VC4_ADDR(pl, Indexed_Primitive_List, Address_of_Indices_List) : 0;
    uint32_t maxi = indexed ? (uint32_t)VC4_GET(pl, Indexed_Primitive_List, Maximum_Index) : 0;
    if (mode > 6)
        return vc4_fault(v, t, CG_FAULT_UNSUPPORTED, addr,
                         "primitive mode %u (0-3 points and lines, 4-6 triangles): not supported "
                         "yet (and not a valid mode)", mode);
    /* the tile lists' format follows the primitives: 16-bit index points
     * (0x10), lines (0x11) or triangles (0x12) */
    uint8_t fmt = mode == 0 ? 0x10 : mode < 4 ? 0x11 : 0x12;
    if (b->st.prim_format != fmt) {
        b->st.prim_format = fmt;
        b->ver_fmt++;
        b->ver_all++;
    }
    if (indexed && itype > 1)
        return vc4_fault(v, t, CG_FAULT_BAD_STATE, addr, "index type %u (0 = 8-bit, 1 = 16-bit)",
                         itype);
    vc4_nv_record nvr = {0};
    const vc4_gl_record *glr = NULL;
    int rc = prims_shader(v, t, addr, indexed, count, first, maxi, &nvr, &glr);
    if (rc)
        return rc;
    if (!glr && (nvr.flags & 4))
        return vc4_fault(v, t, CG_FAULT_UNSUPPORTED, b->st.nv_record,
                         "NV shader record with clipping enabled (flag bit 2): not supported yet");
    bool ptl = mode < 4; /* points or lines */
    uint32_t ntri = ptl ? pl_count(mode, count) : tri_count(mode, count);
    uint32_t k0 = 0, tile0 = 0;
    if (b->oom && b->resume_addr == addr) {
        k0 = b->resume_prim;
        tile0 = b->resume_tile;
    }
    b->oom = false;
    v->bmoom = false;
    /* clip window in pixels, and the frame of tiles */
    int64_t cx0 = 0, cy0 = 0, cx1 = (int64_t)b->tw * VC4_TILE, cy1 = (int64_t)b->th * VC4_TILE;
    if (b->st.clip_valid) {
        int64_t l = b->st.clip[0], btm = b->st.clip[1];
        if (l > cx0) cx0 = l;
        if (btm > cy0) cy0 = btm;
        if (l + b->st.clip[2] < cx1) cx1 = l + b->st.clip[2];
        if (btm + b->st.clip[3] < cy1) cy1 = btm + b->st.clip[3];
    }
    static const uint8_t no_cfg[3] = {3, 0, 0};
    const uint8_t *cfg = b->st.config_valid ? b->st.config : no_cfg;
    bin_run R = {addr, vc4_tri_culled(cfg, -1), vc4_tri_culled(cfg, 1), (int32_t)cx0,
                 (int32_t)cy0, (int32_t)cx1, (int32_t)cy1, indexed, itype, iaddr, maxi, first};
    if (!glr && !ptl)
        return bin_nv_tris(v, t, &R, &nvr, mode, k0, ntri, tile0);
    return bin_shaded(v, t, &R, mode, count, glr, &nvr, cfg, k0, ntri, tile0);
}

/* A render-only record in the binning list goes into every tile list
 * (research/vc4.md section 1: "R records in a bin list are copied into tile
 * lists"), after the state the lists are missing. */
static int copy_to_lists(cg_vc4 *v, vc4_thread *t, uint32_t addr, const uint8_t *rec,
                         unsigned size)
{
    vc4_binner *b = &v->bin;
    if (!b->started)
        return vc4_fault(v, t, CG_FAULT_BAD_STATE, addr,
                         "render-only record %u in the binning list before Start_Tile_Binning",
                         rec[0]);
    size_t n = (size_t)b->tw * b->th;
    uint64_t need = 0;
    for (size_t i = 0; i < n; i++)
        need += (uint64_t)blocks_for(b, &b->tiles[i], size + 1) * b->block;
    b->oom = false;
    v->bmoom = false;
    if (need && pool_bytes(v) < need) {
        b->oom = true;
        b->resume_addr = addr;
        b->resume_prim = b->resume_tile = 0;
        v->bmoom = true;
        vc4_raise_int(v, CG_VC4_INT_OUTOMEM);
        return 1;
    }
    for (size_t i = 0; i < n; i++) {
        int rc = put_state(v, t, &b->tiles[i], rec, size);
        if (rc)
            return rc;
    }
    return 0;
}

/* ---- the binning thread's records: an opcode-indexed handler table ----
 * (as Linux vc4_validate.c cmd_info[]); records without a handler are
 * render-list records (copied into every tile list) or not supported. */
/* h_config_bits copies the Configuration_Bits payload as bytes */
_Static_assert(VC4_SIZE_Configuration_Bits == 4, "Configuration_Bits payload is 3 bytes");

typedef int (*vc4_bin_fn)(cg_vc4 *v, vc4_thread *t, uint32_t addr, const uint8_t *rec);

static int h_flush(cg_vc4 *v, vc4_thread *t, uint32_t addr, const uint8_t *rec)
{
    (void)addr, (void)rec;
    return vc4_bin_flush(v, t, false);
}

static int h_flush_all(cg_vc4 *v, vc4_thread *t, uint32_t addr, const uint8_t *rec)
{
    (void)addr, (void)rec;
    return vc4_bin_flush(v, t, true);
}

static int h_start(cg_vc4 *v, vc4_thread *t, uint32_t addr, const uint8_t *rec)
{
    (void)rec;
    return bin_start(v, t, addr);
}

static int h_nv_state(cg_vc4 *v, vc4_thread *t, uint32_t addr, const uint8_t *rec)
{
    (void)addr;
    vc4_binner *b = &v->bin;
    uint32_t a = VC4_ADDR(rec + 1, NV_Shader_State, Shader_Record_Address);
    if ((a & 15) != 0) {
        b->st.nv_record = a;
        return vc4_fault(v, t, CG_FAULT_BAD_ALIGN, a,
                         "NV shader record at 0x%08x is not 16-byte aligned", a);
    }
    vc4_latch_state(&b->st, rec);
    b->ver_nv++;
    b->ver_all++;
    return 0;
}

static int h_config_bits(cg_vc4 *v, vc4_thread *t, uint32_t addr, const uint8_t *rec)
{
    (void)t, (void)addr;
    vc4_binner *b = &v->bin;
    memcpy(b->st.config, rec + 1, VC4_SIZE_Configuration_Bits - 1);
    b->st.config_valid = true;
    b->ver_cfg++;
    b->ver_all++;
    return 0;
}

/* Viewport, clip window, flat shading: latched as the renderer latches them
 * (state.c); the tile lists get them again when their version changes. */
static int h_latch(cg_vc4 *v, vc4_thread *t, uint32_t addr, const uint8_t *rec)
{
    (void)t, (void)addr;
    vc4_binner *b = &v->bin;
    vc4_latch_state(&b->st, rec);
    uint32_t *ver = rec[0] == VC4_OP_Viewport_Offset ? &b->ver_vp
                    : rec[0] == VC4_OP_Clip_Window  ? &b->ver_clip
                                                    : &b->ver_flat;
    (*ver)++;
    b->ver_all++;
    return 0;
}

/* Primitive_List_Format: the binner writes its own format for the lists it
 * emits. RHT boundary: accepted (nothing in the model uses it). */
static int h_accept(cg_vc4 *v, vc4_thread *t, uint32_t addr, const uint8_t *rec)
{
    (void)v, (void)t, (void)addr, (void)rec;
    return 0;
}

/* Depth_Offset, Z_min_and_max_clipping_planes: state the renderer applies
 * (clip.c vc4_depth_setup), passed on into every tile list where it stands
 * in the binning list, like a render-only record */
static int h_pass_on(cg_vc4 *v, vc4_thread *t, uint32_t addr, const uint8_t *rec)
{
    vc4_latch_state(&v->bin.st, rec);
    return copy_to_lists(v, t, addr, rec,
                         rec[0] == VC4_OP_Depth_Offset ? VC4_SIZE_Depth_Offset
                                                       : VC4_SIZE_Z_min_and_max_clipping_planes);
}

/* GL_Shader_State: latched like NV_Shader_State (the record is read when
 * primitives use it: gl.c) */
/* Clipper_XY_Scaling, Clipper_Z_Scale_and_Offset: what the clipper needs
 * to place the vertices it makes (the shaders scale their own) */
static int h_clipper(cg_vc4 *v, vc4_thread *t, uint32_t addr, const uint8_t *rec)
{
    (void)t, (void)addr;
    vc4_binner *b = &v->bin;
    float a = vc4_f32(vc4_le32(rec + 1)), c = vc4_f32(vc4_le32(rec + 5));
    if (rec[0] == VC4_OP_Clipper_XY_Scaling) {
        b->clip_sx = a, b->clip_sy = c;
        b->clip_xy_valid = true;
    } else {
        b->clip_zs = a, b->clip_zo = c;
        b->clip_z_valid = true;
    }
    return 0;
}

/* Point_size / Line_width: state the tile lists get before points / lines */
static int h_size(cg_vc4 *v, vc4_thread *t, uint32_t addr, const uint8_t *rec)
{
    (void)t, (void)addr;
    vc4_binner *b = &v->bin;
    if (rec[0] == VC4_OP_Point_size) {
        b->st.ps_bits = vc4_le32(rec + 1);
        b->st.ps_valid = true;
        b->ver_ps++;
    } else {
        b->st.lw_bits = vc4_le32(rec + 1);
        b->st.lw_valid = true;
        b->ver_lw++;
    }
    return 0;
}

static int h_gl_state(cg_vc4 *v, vc4_thread *t, uint32_t addr, const uint8_t *rec)
{
    (void)t, (void)addr;
    vc4_binner *b = &v->bin;
    vc4_latch_state(&b->st, rec);
    b->ver_nv++;
    b->ver_all++;
    return 0;
}

static int h_config(cg_vc4 *v, vc4_thread *t, uint32_t addr, const uint8_t *rec)
{
    return bin_config(v, t, addr, rec);
}

static int h_prims(cg_vc4 *v, vc4_thread *t, uint32_t addr, const uint8_t *rec)
{
    return bin_prims(v, t, addr, rec);
}

static const vc4_bin_fn bin_handlers[256] = {
    [VC4_OP_Flush] = h_flush,
    [VC4_OP_Flush_All_State] = h_flush_all,
    [VC4_OP_Start_Tile_Binning] = h_start,
    [VC4_OP_Tile_Binning_Mode_Configuration] = h_config,
    [VC4_OP_Indexed_Primitive_List] = h_prims,
    [VC4_OP_Vertex_Array_Primitives] = h_prims,
    [VC4_OP_NV_Shader_State] = h_nv_state,
    [VC4_OP_Configuration_Bits] = h_config_bits,
    [VC4_OP_Viewport_Offset] = h_latch,
    [VC4_OP_Clip_Window] = h_latch,
    [VC4_OP_Flat_Shade_Flags] = h_latch,
    [VC4_OP_Primitive_List_Format] = h_accept,
    [VC4_OP_Point_size] = h_size,
    [VC4_OP_Line_width] = h_size,
    [VC4_OP_RHT_X_boundary] = h_accept,
    [VC4_OP_Depth_Offset] = h_pass_on,
    [VC4_OP_Z_min_and_max_clipping_planes] = h_pass_on,
    [VC4_OP_Clipper_XY_Scaling] = h_clipper,
    [VC4_OP_Clipper_Z_Scale_and_Offset] = h_clipper,
    [VC4_OP_GL_Shader_State] = h_gl_state,
};

int vc4_bin_record(cg_vc4 *v, vc4_thread *t, uint32_t addr, const uint8_t *rec)
{
    v->bin.gen++;
    if (bin_handlers[rec[0]])
        return bin_handlers[rec[0]](v, t, addr, rec);
    vc4_record r;
    vc4_record_get(rec[0], &r);
    if (r.where == VC4_REND && r.role != VC4_RL_DRAW)
        return copy_to_lists(v, t, addr, rec, r.size);
    return vc4_fault(v, t, CG_FAULT_UNSUPPORTED, addr,
                     "%s (opcode %u) in the binning list: not supported yet", r.name, rec[0]);
}
