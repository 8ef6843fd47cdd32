/* nv: block-linear (GOB) addressing.
 *
 * research/nv.md section 7 (yuzu textures/decoders.cpp, citing the Tegra X1
 * TRM pp. 1187-1188): a GOB is 64 bytes x 8 rows = 512 bytes and byte (x, y)
 * inside it sits at
 *     ((x%64)/32)*256 + ((y%8)/2)*64 + ((x%32)/16)*32 + (y%2)*16 + x%16.
 * A block is 1 GOB wide, 2^bh GOBs tall and 2^bd GOBs deep; inside a block the
 * GOBs are stacked vertically, then by depth slice; blocks are in row-major
 * order, the row of blocks being ceil(width/64) blocks wide, then plane after
 * plane of ceil(height/(8<<bh)) rows. */
#include "nv/nv_internal.h"

static inline uint32_t gob_offset(uint32_t x, uint32_t y)
{
    return ((x % 64) / 32) * 256 + ((y % 8) / 2) * 64 + ((x % 32) / 16) * 32 + (y % 2) * 16 +
           x % 16;
}

uint64_t nv_bl_offset(const nv_bl *s, uint32_t x, uint32_t y, uint32_t z)
{
    uint64_t blocks_x = ((uint64_t)s->width + 63) / 64;
    uint64_t block_rows = 8u << s->bh;
    uint64_t blocks_y = ((uint64_t)s->height + block_rows - 1) / block_rows;
    uint64_t block_bytes = 512ull << (s->bh + s->bd);
    uint64_t bx = x / 64, by = y / block_rows, bz = z >> s->bd;
    uint64_t block = (bz * blocks_y + by) * blocks_x + bx;
    uint64_t gob_in_block = ((uint64_t)(z & ((1u << s->bd) - 1)) << s->bh) +
                            ((y % block_rows) / 8);
    return block * block_bytes + gob_in_block * 512 + gob_offset(x, y);
}

uint64_t nv_bl_size(const nv_bl *s)
{
    uint64_t blocks_x = ((uint64_t)s->width + 63) / 64;
    uint64_t block_rows = 8u << s->bh;
    uint64_t blocks_y = ((uint64_t)s->height + block_rows - 1) / block_rows;
    uint64_t depth = s->depth ? s->depth : 1;
    uint64_t blocks_z = (depth + (1u << s->bd) - 1) >> s->bd;
    return blocks_x * blocks_y * blocks_z * (512ull << (s->bh + s->bd));
}
