/* radeon family: the stream validator (include/cmdgpu/radeon_check.h), after
 * the Linux radeon command-stream checker. Sources (linux, torvalds/linux as
 * stored, v3.x-era r600_cs.c, and radeon_cs.c; research/radeon.md section 2):
 *   radeon_cs.c  radeon_cs_packet_parse (packet bounds, packet types),
 *                radeon_cs_packet_next_reloc (the NOP after a packet and its
 *                index), radeon_cs_parser_relocs (domains)
 *   r600_cs.c    r600_cs_parse (the loop), r600_packet0_check,
 *                r600_packet3_check (allowed packets, counts, windows,
 *                relocations, bounds), r600_cs_check_reg / r600_is_safe_reg
 *                (registers), reg_srcs/r600 (the safe-register list)
 * The kernel stops at the first error; this validator records it and goes on
 * wherever the stream can still be parsed, so one run reports everything.
 * Packet names, sizes, windows and payload fields come from the family's
 * tables (pm4_r600.def, pm4_fields.def, regs.def); the policy below says only
 * which of them a user IB may use. */
#include <stdlib.h>
#include <string.h>
#include "radeon/radeon_internal.h"
#include "cmdgpu/radeon_check.h"

/* ---- policy: packets -------------------------------------------------------
 * The cases of r600_packet3_check, by the table's packet names (resolved to
 * opcodes through the generation's table, so no opcode is written twice).
 * Counts: CNT_TABLE takes the table's accepted counts (which are the exact
 * counts r600_packet3_check demands, pm4_r600.def); others override where
 * the kernel differs from what the executor accepts. */
enum ck_how {
    CK_NONE = 0,
    CK_NOP,          /* NOP: anything (also the relocation carrier) */
    CK_PLAIN,        /* only the count is checked */
    CK_START_3D,     /* R600 only (p->family >= CHIP_RV770 rejected) */
    CK_SET_PRED,
    CK_DRAW_INDEX,   /* index buffer relocation */
    CK_WAIT,
    CK_CP_DMA,
    CK_SURF_SYNC,
    CK_EVENT,
    CK_EOP,
    CK_SET_REGS,     /* SET_CONFIG_REG / SET_CONTEXT_REG: window + each register */
    CK_SET_WINDOW,   /* the other SET_* packets: window only */
    CK_SET_RESOURCE,
    CK_SET_SAMPLER,
    CK_MEM_WRITE,
    CK_COPY_DW,
    CK_STRMOUT,      /* needs streamout state tracking: not supported yet */
    CK_STRMOUT_BASE, /* as CK_STRMOUT, and refused before RS780 (the r600 generation) */
    CK_NEVER,        /* listed but rejected for every modelled chip */
    CK_IB,           /* INDIRECT_BUFFER: the kernel emits the only one */
};

#define CNT_TABLE (-1)
#define CNT_EVENT (-2) /* EVENT_WRITE: 0 or 2, not 1 */

/* The policy of each opcode: the CK lines of pm4_r600.def (the checker
 * runs for R600/R700 only), indexed by opcode. how CK_NONE: refused. */
static const struct {
    uint8_t how;
    int16_t min, max;
} pkt_policy[256] = {
#define P3(name, op, kind, mn, mx)
#define W(name, start, end)
#define CK(name, how, mn, mx) [RD_OP_##name] = {CK_##how, mn, mx},
#include "radeon/tables/pm4_r600.def"
#undef P3
#undef W
#undef CK
};

/* ---- policy: registers --------------------------------------------------
 * For the registers regs.def names (by its REG_ constants; an array entry
 * covers all its elements). SAFE: listed in reg_srcs/r600, so its bit in
 * r600_reg_safe_bm is clear; TRACKED: a case of r600_cs_check_reg that only
 * records the value; RELOC: a case that needs a relocation (the register
 * holds a BO offset in 256-byte units); RELOC_OPT: takes one if the next
 * packet is a NOP (CB_COLORn_INFO, DB_DEPTH_INFO, for tiling flags). Every other register
 * of regs.def falls to r600_cs_check_reg's default: "forbidden register".
 * Registers outside regs.def are outside the model's knowledge: reported as
 * not supported yet, never silently accepted. */
enum ck_reg { RC_FORBIDDEN = 0, RC_SAFE, RC_TRACKED, RC_RELOC, RC_RELOC_OPT };

static const struct {
    uint32_t reg;
    uint8_t cls;
} reg_policy[] = {
    {REG_WAIT_UNTIL, RC_SAFE},
    {REG_VGT_PRIMITIVE_TYPE, RC_SAFE},
    {REG_PA_SC_SCREEN_SCISSOR_TL, RC_SAFE},
    {REG_PA_SC_SCREEN_SCISSOR_BR, RC_SAFE},
    {REG_CB_COLOR0_VIEW, RC_SAFE},
    {REG_SQ_CONFIG, RC_TRACKED},
    {REG_DB_DEPTH_SIZE, RC_TRACKED},
    {REG_DB_DEPTH_VIEW, RC_TRACKED},
    {REG_CB_COLOR0_SIZE, RC_TRACKED},
    {REG_CB_TARGET_MASK, RC_TRACKED},
    {REG_CB_SHADER_MASK, RC_TRACKED},
    {REG_CB_COLOR0_INFO, RC_RELOC_OPT},
    {REG_DB_DEPTH_INFO, RC_RELOC_OPT}, /* case R_028010_DB_DEPTH_INFO: tiling reloc if a NOP follows */
    {REG_CB_COLOR0_BASE, RC_RELOC},
    {REG_DB_DEPTH_BASE, RC_RELOC},
    {REG_CP_COHER_BASE, RC_RELOC},
};

/* r600_reg_safe_bm covers registers below 0x40000 ("i >= ARRAY_SIZE" is
 * forbidden); the model's register space has the same bound. */
static int reg_class(uint32_t reg, bool *known)
{
    rd_reg_info ri;
    *known = reg < CG_RADEON_REG_SPACE && rd_reg_lookup(reg, &ri);
    if (!*known)
        return RC_FORBIDDEN;
    for (size_t i = 0; i < CG_ARRAY_SIZE(reg_policy); i++)
        if (reg_policy[i].reg == ri.e->offset)
            return reg_policy[i].cls;
    return RC_FORBIDDEN;
}

/* ---- the checker ------------------------------------------------------- */

typedef struct ck {
    const cg_radeon_check_opts *o;
    const p3_desc *p3;
    const uint8_t *ib;
    size_t ndw;
    size_t cur;       /* next dword to parse (the kernel's p->idx) */
    cg_check_report *r;
} ck;

static uint32_t dw(const ck *c, size_t i)
{
    const uint8_t *p = c->ib + 4 * i;
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static const char *gen_name(const ck *c) { return cg_radeon_gen_name(c->o->gen); }

static int how_of(const ck *c, unsigned op)
{
    (void)c;
    return op < 256 ? pkt_policy[op].how : CK_NONE;
}

/* A PACKET3 NOP header (the relocation carrier). */
static bool is_nop(const ck *c, uint32_t h)
{
    return RD_PKT_TYPE(h) == 3 && how_of(c, RD_PKT3_OPCODE(h)) == CK_NOP;
}

static const char *bo_name(const ck *c, size_t i, char *buf, size_t cap)
{
    if (c->o->bos[i].name)
        return c->o->bos[i].name;
    snprintf(buf, cap, "bo%zu", i);
    return buf;
}

/* Packet length in dwords at dword i, or 0 if it does not fit in the IB
 * (radeon_cs_packet_parse: "Packet (%d:%d:%d) end after CS buffer (%d) !").
 * Type 1 gives 0 as well: on R600 its length is unknown. */
static size_t pkt_len(const ck *c, size_t i)
{
    uint32_t h = dw(c, i);
    if (RD_PKT_TYPE(h) == 1)
        return 0;
    size_t n = rd_packet_dwords(h);
    return n <= c->ndw - i ? n : 0;
}

/* radeon_cs_packet_next_reloc: the packet at c->cur must be a PACKET3 NOP
 * whose first payload dword is below the relocation chunk's length in dwords
 * (4 per relocation); it selects relocation idx / 4. A missing NOP is not
 * consumed (the packet there is checked as itself). */
static bool next_reloc(ck *c, size_t pkt, const char *what, size_t *bo)
{
    size_t at = c->cur;
    size_t n = at < c->ndw ? pkt_len(c, at) : 0;
    uint32_t h = at < c->ndw ? dw(c, at) : 0;
    if (n == 0 || !is_nop(c, h)) {
        cg_check_add(c->r, "reloc-missing", 4 * (uint64_t)at, h,
                     "%s of the packet at 0x%zx needs a relocation: a PACKET3 NOP must follow, "
                     "found %s", what, 4 * pkt,
                     at >= c->ndw ? "the end of the IB" : n == 0 ? "a packet past the IB end"
                                                                 : "another packet");
        return false;
    }
    c->cur += n;
    c->r->checked++;
    uint32_t idx = dw(c, at + 1);
    if ((uint64_t)idx >= 4 * (uint64_t)c->o->nbos) {
        if (c->o->nbos == 0)
            cg_check_add(c->r, "reloc-index", 4 * (uint64_t)(at + 1), idx,
                         "relocation %u for %s: there is no relocation chunk (no .bo declared)",
                         idx, what);
        else
            cg_check_add(c->r, "reloc-index", 4 * (uint64_t)(at + 1), idx,
                         "relocation %u for %s is past the relocation chunk end (%zu dwords, "
                         "4 per buffer)", idx, what, 4 * c->o->nbos);
        return false;
    }
    *bo = idx / 4;
    return true;
}

/* A 40-bit address as lo + hi[7:0] (research/radeon.md section 1). */
static uint64_t addr40(uint32_t lo, uint32_t hi)
{
    return (uint64_t)lo | (uint64_t)(hi & 0xFF) << 32;
}

/* offset + len must lie inside the BO. word_at: the address dword. */
static void check_bounds(ck *c, size_t word_at, size_t bo, uint64_t offset, uint64_t len,
                         const char *what)
{
    const cg_radeon_check_bo *b = &c->o->bos[bo];
    if (offset <= b->size && len <= b->size - offset)
        return;
    char nb[32], gpu[48] = "";
    if (b->has_gpu_addr)
        snprintf(gpu, sizeof(gpu), " (GPU 0x%llx)", (unsigned long long)(b->gpu_addr + offset));
    cg_check_add(c->r, "bo-bounds", 4 * (uint64_t)word_at, dw(c, word_at),
                 "%s: offset 0x%llx%s + %llu bytes is past the end of %s (%llu bytes)", what,
                 (unsigned long long)offset, gpu, (unsigned long long)len,
                 bo_name(c, bo, nb, sizeof(nb)), (unsigned long long)b->size);
}

static void check_align(ck *c, size_t word_at, uint64_t offset, unsigned align, bool masked,
                        const char *what)
{
    if (offset % align == 0)
        return;
    cg_check_add(c->r, "addr-align", 4 * (uint64_t)word_at, dw(c, word_at),
                 masked ? "%s: address 0x%llx is not %u-byte aligned (the kernel drops the low "
                          "bits: the GPU would use another address)"
                        : "%s: address 0x%llx is not %u-byte aligned",
                 what, (unsigned long long)offset, align);
}

/* A relocated memory operand: NOP, alignment, bounds (len 0: no bounds). */
static void mem_operand(ck *c, size_t pkt, size_t lo_at, uint64_t offset, unsigned align,
                        bool masked, uint64_t len, const char *what)
{
    size_t bo;
    if (!next_reloc(c, pkt, what, &bo))
        return;
    if (align > 1)
        check_align(c, lo_at, offset, align, masked, what);
    if (len)
        check_bounds(c, lo_at, bo, offset, len, what);
}

/* One register written by a SET_CONFIG_REG / SET_CONTEXT_REG (or read or
 * written by COPY_DW when `safe_only`: r600_is_safe_reg, no special cases). */
static void check_reg(ck *c, size_t pkt, size_t at, uint32_t reg, bool safe_only)
{
    bool known;
    int cls = reg_class(reg, &known);
    char name[48];
    if (!known) {
        cg_check_add(c->r, "reg-safe", 4 * (uint64_t)at, reg,
                     "register 0x%05x is not in the model's register table: checking it is "
                     "not supported yet", reg);
        return;
    }
    rd_reg_str(c->o->gen, reg, name, sizeof(name));
    if (cls == RC_FORBIDDEN || (safe_only && cls != RC_SAFE)) {
        cg_check_add(c->r, "reg-safe", 4 * (uint64_t)at, reg,
                     "forbidden register %s (0x%05x)%s", name, reg,
                     cls == RC_FORBIDDEN ? "" : ": only plain safe registers here");
        return;
    }
    size_t bo;
    if (cls == RC_RELOC) {
        next_reloc(c, pkt, name, &bo);
    } else if (cls == RC_RELOC_OPT && c->cur < c->ndw && pkt_len(c, c->cur) &&
               is_nop(c, dw(c, c->cur))) {
        /* radeon_cs_packet_next_is_pkt3_nop, then next_reloc. */
        next_reloc(c, pkt, name, &bo);
    }
}

/* SET_*: [start, last] inside the window (r600_packet3_check: start_reg =
 * (idx_value << 2) + OFFSET, end_reg = 4 * count + start_reg - 4). The
 * offset is taken in 64 bits: a huge offset is outside, never wrapped. */
static bool check_window(ck *c, size_t pkt, unsigned op, uint32_t count, uint64_t *start)
{
    uint32_t ws, we;
    if (!rd_window(c->o->gen, op, &ws, &we)) /* every SET_* of r600/r700 has one */
        return false;
    uint64_t s = ws + 4 * (uint64_t)dw(c, pkt + 1);
    uint64_t last = s + 4 * (uint64_t)count; /* one past the last register */
    *start = s;
    if (s < we && last <= we)
        return true;
    cg_check_add(c->r, "set-window", 4 * (uint64_t)(pkt + 1), dw(c, pkt + 1),
                 "%s registers 0x%llx..0x%llx are outside its window [0x%x, 0x%x)",
                 c->p3[op].name, (unsigned long long)s,
                 (unsigned long long)(count ? last - 4 : s), ws, we);
    return false;
}

static bool count_ok(ck *c, size_t pkt, unsigned op, int pmin, int pmax, uint32_t count)
{
    const p3_desc *d = &c->p3[op];
    if (pmin == CNT_EVENT) {
        if (count == 0 || count == 2)
            return true;
        cg_check_add(c->r, "packet3-count", 4 * (uint64_t)pkt, dw(c, pkt),
                     "%s: count %u, the checker takes 0 or 2", d->name, count);
        return false;
    }
    uint32_t mn = pmin == CNT_TABLE ? d->min_count : (uint32_t)pmin;
    uint32_t mx = pmax == CNT_TABLE ? d->max_count : (uint32_t)pmax;
    if (count >= mn && count <= mx)
        return true;
    if (mn == mx)
        cg_check_add(c->r, "packet3-count", 4 * (uint64_t)pkt, dw(c, pkt),
                     "%s: count %u, the checker takes exactly %u", d->name, count, mn);
    else
        cg_check_add(c->r, "packet3-count", 4 * (uint64_t)pkt, dw(c, pkt),
                     "%s: count %u, the checker takes at least %u", d->name, count, mn);
    return false;
}

static void check_packet3(ck *c, size_t pkt, uint32_t h)
{
    unsigned op = RD_PKT3_OPCODE(h);
    uint32_t count = RD_PKT_COUNT(h);
    const p3_desc *d = &c->p3[op];
    if (!d->name) {
        cg_check_add(c->r, "packet3-allowed", 4 * (uint64_t)pkt, h,
                     "unknown opcode 0x%02x for %s", op, gen_name(c));
        return;
    }
    int how = how_of(c, op);
    bool r600 = c->o->gen == CG_RADEON_R600;
    if (how == CK_NONE || how == CK_NEVER || (how == CK_START_3D && !r600) ||
        (how == CK_STRMOUT_BASE && r600)) {
        cg_check_add(c->r, "packet3-allowed", 4 * (uint64_t)pkt, h,
                     "%s (opcode 0x%02x) is not allowed in a user IB on %s", d->name, op,
                     gen_name(c));
        return;
    }
    if (how == CK_IB) {
        cg_check_add(c->r, "indirect-buffer", 4 * (uint64_t)pkt, h,
                     "INDIRECT_BUFFER in a user IB: only the kernel chains IBs");
        return;
    }
    if (!count_ok(c, pkt, op, pkt_policy[op].min, pkt_policy[op].max,
                  count))
        return;
    /* The payload: dword pkt + 1 is the first after the header; the count
     * is checked, so every dword read below is inside the packet. */
    switch (how) {
    case CK_SET_PRED: {
        uint32_t pred = PGET(dw(c, pkt + 2), SET_PREDICATION_DW2, PRED_OP);
        if (pred == 0)
            break;
        if (pred > 2) {
            cg_check_add(c->r, "set-predication-op", 4 * (uint64_t)(pkt + 2), dw(c, pkt + 2),
                         "SET_PREDICATION operation %u (the checker takes 0 to 2)", pred);
            break;
        }
        mem_operand(c, pkt, pkt + 1,
                    addr40(dw(c, pkt + 1), PGET(dw(c, pkt + 2), SET_PREDICATION_DW2, PRED_ADDR_HI)),
                    16, true, 0, "SET_PREDICATION");
        break;
    }
    case CK_DRAW_INDEX:
        /* The index buffer's size is VGT_DMA_SIZE state the checker does not
         * track (nor does r600_packet3_check): relocation only. */
        mem_operand(c, pkt, pkt + 1, addr40(dw(c, pkt + 1), dw(c, pkt + 2)), 1, false, 0,
                    "DRAW_INDEX index buffer");
        break;
    case CK_WAIT: {
        uint32_t info = dw(c, pkt + 1);
        if (PGET(info, WAIT_REG_MEM_DW1, WRM_MEM_SPACE)) {
            /* The kernel keeps SWAP (bits 1:0) and masks the address to 16
             * bytes; the CP reads one dword. */
            uint64_t a = addr40(dw(c, pkt + 2) & ~3u,
                                PGET(dw(c, pkt + 3), WAIT_REG_MEM_DW3, WRM_ADDR_HI));
            mem_operand(c, pkt, pkt + 2, a, 16, true, 4, "WAIT_REG_MEM");
        } else if (PGET(info, WAIT_REG_MEM_DW1, WRM_ENGINE)) {
            cg_check_add(c->r, "wait-reg-pfp", 4 * (uint64_t)(pkt + 1), info,
                         "WAIT_REG_MEM on a register from the PFP (ENGINE=1)");
        }
        break;
    }
    case CK_CP_DMA: {
        uint32_t cmd = dw(c, pkt + 5);
        uint32_t bytes = PGET(cmd, CP_DMA_DW5, BYTE_COUNT);
        if (PGET(cmd, CP_DMA_DW5, SAS))
            cg_check_add(c->r, "cp-dma-space", 4 * (uint64_t)(pkt + 5), cmd,
                         "CP_DMA source in register space (SAS)");
        else if (PGET(cmd, CP_DMA_DW5, SAIC))
            cg_check_add(c->r, "cp-dma-space", 4 * (uint64_t)(pkt + 5), cmd,
                         "CP_DMA SAIC (no source increment) is for registers only");
        else
            mem_operand(c, pkt, pkt + 1,
                        addr40(dw(c, pkt + 1), PGET(dw(c, pkt + 2), CP_DMA_DW2, DMA_SRC_HI)), 1,
                        false, bytes, "CP_DMA source");
        if (PGET(cmd, CP_DMA_DW5, DAS))
            cg_check_add(c->r, "cp-dma-space", 4 * (uint64_t)(pkt + 5), cmd,
                         "CP_DMA destination in register space (DAS)");
        else if (PGET(cmd, CP_DMA_DW5, DAIC))
            cg_check_add(c->r, "cp-dma-space", 4 * (uint64_t)(pkt + 5), cmd,
                         "CP_DMA DAIC (no destination increment) is for registers only");
        else
            mem_operand(c, pkt, pkt + 3,
                        addr40(dw(c, pkt + 3), PGET(dw(c, pkt + 4), CP_DMA_DW4, DMA_DST_HI)), 1,
                        false, bytes, "CP_DMA destination");
        break;
    }
    case CK_SURF_SYNC:
        /* CP_COHER_SIZE 0xFFFFFFFF with CP_COHER_BASE 0 is "flush all";
         * anything else names a BO range (base in 256-byte units). */
        if (dw(c, pkt + 2) != 0xFFFFFFFFu || dw(c, pkt + 3) != 0) {
            size_t bo;
            next_reloc(c, pkt, "SURFACE_SYNC", &bo);
        }
        break;
    case CK_EVENT:
        /* With an address the event writes a 64-bit value (ZPASS_DONE,
         * timestamps); the kernel masks the address to 8 bytes and does not
         * check the size: this validator does (stricter). */
        if (count == 2)
            mem_operand(c, pkt, pkt + 2, addr40(dw(c, pkt + 2), dw(c, pkt + 3)), 8, true, 8,
                        "EVENT_WRITE");
        break;
    case CK_EOP: {
        uint32_t d3 = dw(c, pkt + 3);
        uint32_t sel = PGET(d3, EVENT_WRITE_EOP_DW3, DATA_SEL);
        /* DATA_SEL 0 discards, 1 writes 32 bits, 2 and 3 write 64 (research
         * section 1); the kernel masks to 4 bytes and checks no size. */
        uint64_t len = sel == 0 ? 0 : sel == 1 ? 4 : 8;
        mem_operand(c, pkt, pkt + 2,
                    addr40(dw(c, pkt + 2), PGET(d3, EVENT_WRITE_EOP_DW3, EOP_ADDR_HI)), 4, true,
                    len, "EVENT_WRITE_EOP");
        break;
    }
    case CK_SET_REGS: {
        uint64_t start;
        if (!check_window(c, pkt, op, count, &start))
            break;
        for (uint32_t i = 0; i < count; i++)
            check_reg(c, pkt, pkt + 2 + i, (uint32_t)(start + 4 * (uint64_t)i), false);
        break;
    }
    case CK_SET_SAMPLER:
    case CK_SET_RESOURCE: {
        /* SET_RESOURCE: 7 dwords per resource, SET_SAMPLER 3 (r600d.h). */
        unsigned per = how == CK_SET_RESOURCE ? 7 : 3;
        if (count % per) {
            cg_check_add(c->r, "set-multiple", 4 * (uint64_t)pkt, h,
                         "%s: count %u is not a multiple of %u", d->name, count, per);
            break;
        }
        uint64_t start;
        if (!check_window(c, pkt, op, count, &start) || how == CK_SET_SAMPLER)
            break;
        if (count)
            cg_check_add(c->r, "unsupported", 4 * (uint64_t)pkt, h,
                         "SET_RESOURCE: checking texture and vertex resources (their "
                         "relocations and sizes) is not supported yet");
        break;
    }
    case CK_SET_WINDOW: {
        /* SET_ALU_CONST: checked only in DX9 constant mode (SQ_CONFIG), the
         * mode r600_cs_track_init assumes; checked always here. */
        uint64_t start;
        check_window(c, pkt, op, count, &start);
        break;
    }
    case CK_MEM_WRITE:
        mem_operand(c, pkt, pkt + 1,
                    addr40(dw(c, pkt + 1), PGET(dw(c, pkt + 2), MEM_WRITE_DW2, MW_ADDR_HI)), 8,
                    false, 8, "MEM_WRITE");
        break;
    case CK_COPY_DW: {
        uint32_t sel = dw(c, pkt + 1);
        if (PGET(sel, COPY_DW_DW1, COPY_SRC_MEM))
            mem_operand(c, pkt, pkt + 2, addr40(dw(c, pkt + 2), dw(c, pkt + 3)), 1, false, 4,
                        "COPY_DW source");
        else
            check_reg(c, pkt, pkt + 2, dw(c, pkt + 2) << 2, true);
        if (PGET(sel, COPY_DW_DW1, COPY_DST_MEM))
            mem_operand(c, pkt, pkt + 4, addr40(dw(c, pkt + 4), dw(c, pkt + 5)), 1, false, 4,
                        "COPY_DW destination");
        else
            check_reg(c, pkt, pkt + 4, dw(c, pkt + 4) << 2, true);
        break;
    }
    case CK_STRMOUT:
    case CK_STRMOUT_BASE:
        cg_check_add(c->r, "unsupported", 4 * (uint64_t)pkt, h,
                     "%s: streamout buffers are tracked state; checking them is not "
                     "supported yet", d->name);
        break;
    default: /* CK_NOP, CK_PLAIN, CK_START_3D: the count was all */
        break;
    }
}

/* AVIVO_D1MODE_VLINE_START_END (linux avivod.h): the one register a type-0
 * packet may write, as the start of the vline wait sequence. */
#define AVIVO_D1MODE_VLINE_START_END 0x6538u

static void check_packet0(ck *c, size_t pkt, uint32_t h)
{
    uint32_t reg = PGET(h, PM4_TYPE0, BASE_INDEX) << 2;
    char name[48];
    if (reg == AVIVO_D1MODE_VLINE_START_END) {
        cg_check_add(c->r, "unsupported", 4 * (uint64_t)pkt, h,
                     "PACKET0 to D1MODE_VLINE_START_END: the vline wait sequence is not "
                     "supported yet");
        return;
    }
    cg_check_add(c->r, "packet0-forbidden", 4 * (uint64_t)pkt, h,
                 "PACKET0 to %s (0x%04x): type-0 register writes are forbidden in a user IB",
                 rd_reg_str(c->o->gen, reg, name, sizeof(name)), reg);
}

int cg_radeon_check(const cg_radeon_check_opts *o, const uint8_t *ib, size_t size,
                    cg_check_report *r)
{
    if (!o || !r || (!ib && size) || (!o->bos && o->nbos) || o->nbos > CG_RADEON_CHECK_MAX_BOS ||
        (unsigned)o->gen >= CG_RADEON_GEN_COUNT)
        return CG_ERR_INVAL;
    if (o->gen != CG_RADEON_R600 && o->gen != CG_RADEON_R700)
        return CG_ERR_UNSUPPORTED;
    ck c = {.o = o, .p3 = rd_p3_table(o->gen), .ib = ib, .ndw = size / 4, .r = r};

    /* radeon_cs_parser_relocs runs before the IB is parsed. */
    for (size_t i = 0; i < o->nbos; i++)
        if (o->bos[i].domains & CG_RADEON_DOMAIN_CPU) {
            char nb[32];
            cg_check_add(r, "reloc-domain", 16 * (uint64_t)i, o->bos[i].domains,
                         "%s: the CPU domain is not valid for command submission",
                         bo_name(&c, i, nb, sizeof(nb)));
        }

    /* The IB chunk is counted in dwords, and an empty one is refused. */
    if (size == 0 || size % 4)
        cg_check_add(r, "ib-size", size & ~(size_t)3, 0,
                     size ? "IB of %zu bytes: not a whole number of dwords"
                          : "empty IB (%zu bytes)", size);

    while (c.cur < c.ndw) {
        size_t at = c.cur;
        uint32_t h = dw(&c, at);
        size_t n = pkt_len(&c, at);
        if (RD_PKT_TYPE(h) == 1) {
            cg_check_add(r, "packet-type", 4 * (uint64_t)at, h,
                         "type-1 packet: not an R600 packet (checking stops: its length is "
                         "unknown)");
            break;
        }
        if (n == 0) {
            cg_check_add(r, "packet-bounds", 4 * (uint64_t)at, h,
                         "packet of %u dwords ends past the IB end (%zu dwords; checking "
                         "stops)", rd_packet_dwords(h), c.ndw - at);
            break;
        }
        r->checked++;
        c.cur = at + n;
        if (RD_PKT_TYPE(h) == 3)
            check_packet3(&c, at, h);
        else if (RD_PKT_TYPE(h) == 0)
            check_packet0(&c, at, h);
    }
    return 0;
}

/* ---- assembler source: the .bo directive ------------------------------- */

struct cg_radeon_check_src {
    cg_radeon_asm *rasm;
    cg_radeon_check_bo *bos;
    char (*names)[64];
    size_t nbos;
};

int cg_radeon_check_src_create(cg_radeon_gen gen, cg_radeon_check_src **out)
{
    if (!out)
        return CG_ERR_INVAL;
    *out = NULL;
    cg_radeon_check_src *s = calloc(1, sizeof(*s));
    if (!s)
        return CG_ERR_NOMEM;
    int rc = cg_radeon_asm_create(gen, &s->rasm);
    if (rc) {
        free(s);
        return rc;
    }
    *out = s;
    return 0;
}

void cg_radeon_check_src_destroy(cg_radeon_check_src *s)
{
    if (!s)
        return;
    cg_radeon_asm_destroy(s->rasm);
    free(s->bos);
    free(s->names);
    free(s);
}

size_t cg_radeon_check_src_bo_count(const cg_radeon_check_src *s) { return s ? s->nbos : 0; }

static void src_begin_pass(cg_asm *as, void *user, int pass, bool final)
{
    cg_radeon_check_src *s = user;
    s->nbos = 0;
    cg_radeon_asm_family()->begin_pass(as, s->rasm, pass, final);
}

/* .bo NAME, SIZE, DOMAIN [, GPU_ADDR] */
static int bo_directive(cg_asm *as, cg_radeon_check_src *s)
{
    char name[64], dom[16];
    int rc = cg_asm_ident(as, name, sizeof(name));
    if (rc)
        return rc;
    int64_t size, domains = 0, gpu = 0;
    if ((rc = cg_asm_expect(as, ',')) || (rc = cg_asm_expr(as, &size)) ||
        (rc = cg_asm_expect(as, ',')))
        return rc;
    static const struct { const char *name; int64_t bits; } doms[] = {
        {"cpu", CG_RADEON_DOMAIN_CPU}, {"gtt", CG_RADEON_DOMAIN_GTT},
        {"vram", CG_RADEON_DOMAIN_VRAM}};
    bool named = false;
    if (cg_asm_peek_ident(as, dom, sizeof(dom)))
        for (size_t i = 0; i < CG_ARRAY_SIZE(doms); i++)
            if (strcmp(dom, doms[i].name) == 0) {
                cg_asm_ident(as, dom, sizeof(dom));
                domains = doms[i].bits;
                named = true;
            }
    if (!named && (rc = cg_asm_expr(as, &domains)))
        return rc;
    bool has_gpu = cg_asm_accept(as, ',');
    if (has_gpu && (rc = cg_asm_expr(as, &gpu)))
        return rc;
    /* A BO lives in the 40-bit GPU address space. */
    if (size <= 0 || size > (1ll << 40))
        return cg_asm_error(as, ".bo: size must be 1 byte to 1 TiB");
    if (domains <= 0 || domains > 7)
        return cg_asm_error(as, ".bo: domain must be vram, gtt, cpu or a mask of 1 (cpu), "
                                "2 (gtt), 4 (vram)");
    if (has_gpu && (gpu < 0 || gpu > (1ll << 40) - size))
        return cg_asm_error(as, ".bo: GPU address 0x%llx + size is outside the 40-bit "
                                "address space", (unsigned long long)gpu);
    if (s->nbos == CG_RADEON_CHECK_MAX_BOS)
        return cg_asm_error(as, ".bo: at most %d buffers", CG_RADEON_CHECK_MAX_BOS);
    if (!s->bos) {
        s->bos = calloc(CG_RADEON_CHECK_MAX_BOS, sizeof(*s->bos));
        s->names = calloc(CG_RADEON_CHECK_MAX_BOS, sizeof(*s->names));
        if (!s->bos || !s->names)
            return cg_asm_error(as, "out of memory");
    }
    if ((rc = cg_asm_define(as, name, 4 * (int64_t)s->nbos)))
        return rc;
    cg_radeon_check_bo *b = &s->bos[s->nbos];
    memcpy(s->names[s->nbos], name, sizeof(name));
    b->name = s->names[s->nbos];
    b->size = (uint64_t)size;
    b->domains = (uint32_t)domains;
    b->has_gpu_addr = has_gpu;
    b->gpu_addr = (uint64_t)gpu;
    s->nbos++;
    return 0;
}

static int src_statement(cg_asm *as, void *user, const char *name)
{
    cg_radeon_check_src *s = user;
    if (strcmp(name, ".bo") == 0)
        return bo_directive(as, s);
    return cg_radeon_asm_family()->statement(as, s->rasm, name);
}

const cg_asm_family *cg_radeon_check_asm_family(void)
{
    static const cg_asm_family fam = {
        .name = "radeon-check",
        .statement = src_statement,
        .begin_pass = src_begin_pass,
    };
    return &fam;
}

int cg_radeon_check_src_run(const cg_radeon_check_src *s, const cg_asm *as, const char *section,
                            cg_check_report *r)
{
    if (!s || !as || !r)
        return CG_ERR_INVAL;
    size_t idx = 0;
    if (section ? cg_asm_section_find(as, section, &idx) != 0 : cg_asm_section_count(as) == 0)
        return CG_ERR_NOENT;
    const char *name;
    uint64_t base;
    const uint8_t *data;
    size_t size;
    int rc = cg_asm_section(as, idx, &name, &base, &data, &size);
    if (rc)
        return rc;
    cg_radeon_check_opts o = {.gen = cg_radeon_asm_gen(s->rasm), .bos = s->bos, .nbos = s->nbos};
    return cg_radeon_check(&o, data, size, r);
}
