/* nv: MAXWELL_DMA_COPY_A (B0B5), the copy engine.
 *
 * Everything happens at LAUNCH_DMA (clb0b5.h fields; yuzu maxwell_dma.cpp
 * executes the same way): with MULTI_LINE_ENABLE off the copy is 1-D,
 * LINE_LENGTH_IN bytes (pixels with remap) from OFFSET_IN to OFFSET_OUT; with
 * it on, LINE_COUNT lines, each side pitch (PITCH_IN/OUT apart) or
 * block-linear (SET_*_BLOCK_SIZE, WIDTH, HEIGHT, DEPTH, LAYER, ORIGIN; GOB
 * layout of blocklinear.c). With REMAP_ENABLE each pixel is NUM_SRC_COMPONENTS
 * components of COMPONENT_SIZE bytes in and NUM_DST_COMPONENTS out, every
 * destination component taken from a source component, CONST_A/B, or left
 * untouched (NO_WRITE). Block-linear widths and origins count pixels (bytes
 * without remap), as in yuzu. LAYER selects the z slice (or the array layer
 * of a depth-1 surface, which lands at the same place). Then the semaphore
 * release and the interrupt, reported as a trace event. */
#include <stdlib.h>
#include <string.h>
#include "nv/tables/fields.h"
#include "nv/nv_internal.h"

/* The DST block size and origin read with the SRC methods' fields. */
NV_SAME_FIELD(NVB0B5, SET_SRC_BLOCK_SIZE, WIDTH, SET_DST_BLOCK_SIZE, WIDTH);
NV_SAME_FIELD(NVB0B5, SET_SRC_BLOCK_SIZE, HEIGHT, SET_DST_BLOCK_SIZE, HEIGHT);
NV_SAME_FIELD(NVB0B5, SET_SRC_BLOCK_SIZE, DEPTH, SET_DST_BLOCK_SIZE, DEPTH);
NV_SAME_FIELD(NVB0B5, SET_SRC_BLOCK_SIZE, GOB_HEIGHT, SET_DST_BLOCK_SIZE, GOB_HEIGHT);
NV_SAME_FIELD(NVB0B5, SET_SRC_ORIGIN, X, SET_DST_ORIGIN, X);
NV_SAME_FIELD(NVB0B5, SET_SRC_ORIGIN, Y, SET_DST_ORIGIN, Y);


typedef struct side {
    bool pitch;
    uint64_t base;
    uint32_t pitch_bytes;
    nv_bl bl;
    uint32_t ox, oy, z; /* origin in bytes / rows */
} side;

static int side_setup(cg_nv_channel *ch, const uint32_t *r, bool is_src, bool pitch, uint32_t bpp,
                      side *s, const cg_agent *ag)
{
    memset(s, 0, sizeof(*s));
    s->pitch = pitch;
    s->base = nv_addr40(r[(is_src ? NVB0B5_OFFSET_IN_UPPER : NVB0B5_OFFSET_OUT_UPPER) >> 2],
                        r[(is_src ? NVB0B5_OFFSET_IN_LOWER : NVB0B5_OFFSET_OUT_LOWER) >> 2]);
    s->pitch_bytes = r[(is_src ? NVB0B5_PITCH_IN : NVB0B5_PITCH_OUT) >> 2];
    if (pitch)
        return 0;
    uint32_t bs = r[(is_src ? NVB0B5_SET_SRC_BLOCK_SIZE : NVB0B5_SET_DST_BLOCK_SIZE) >> 2];
    const char *which = is_src ? "SRC" : "DST";
    /* SET_DST_BLOCK_SIZE has SET_SRC_BLOCK_SIZE's layout (asserted above) */
    uint32_t bw = NV_VAL(NVB0B5, SET_SRC_BLOCK_SIZE, WIDTH, bs);
    uint32_t bh = NV_VAL(NVB0B5, SET_SRC_BLOCK_SIZE, HEIGHT, bs);
    uint32_t bd = NV_VAL(NVB0B5, SET_SRC_BLOCK_SIZE, DEPTH, bs);
    uint32_t gh = NV_VAL(NVB0B5, SET_SRC_BLOCK_SIZE, GOB_HEIGHT, bs);
    if (bw != NVB0B5_SET_SRC_BLOCK_SIZE_WIDTH_ONE_GOB)
        return nv_fault(ch, ag, CG_FAULT_UNSUPPORTED, s->base,
                        "B0B5 SET_%s_BLOCK_SIZE width %u (QUARTER_GOB) not supported yet", which,
                        bw);
    if (gh != NVB0B5_SET_SRC_BLOCK_SIZE_GOB_HEIGHT_GOB_HEIGHT_FERMI_8)
        return nv_fault(ch, ag, CG_FAULT_UNSUPPORTED, s->base,
                        "B0B5 SET_%s_BLOCK_SIZE GOB_HEIGHT %u: only FERMI_8 (1) is supported",
                        which, gh);
    if (bh > 5 || bd > 5)
        return nv_fault(ch, ag, CG_FAULT_BAD_STATE, s->base,
                        "B0B5 SET_%s_BLOCK_SIZE height %u / depth %u: at most 5 (32 GOBs)", which,
                        bh, bd);
    uint32_t base = is_src ? NVB0B5_SET_SRC_WIDTH : NVB0B5_SET_DST_WIDTH;
    uint64_t width = (uint64_t)r[base >> 2] * bpp;
    s->bl.width = width > 0xFFFFFFFFu ? 0xFFFFFFFFu : (uint32_t)width;
    s->bl.height = r[(base + 4) >> 2];
    s->bl.depth = r[(base + 8) >> 2];
    s->z = r[(base + 12) >> 2];
    s->bl.bh = bh;
    s->bl.bd = bd;
    uint32_t org = r[(is_src ? NVB0B5_SET_SRC_ORIGIN : NVB0B5_SET_DST_ORIGIN) >> 2];
    s->ox = NV_VAL(NVB0B5, SET_SRC_ORIGIN, X, org) * bpp;
    s->oy = NV_VAL(NVB0B5, SET_SRC_ORIGIN, Y, org);
    return 0;
}

/* Move n bytes between host buf and line y of side s, from byte x0 of it. */
static int side_io(cg_nv_channel *ch, const side *s, uint32_t y, uint64_t x0, uint8_t *buf,
                   uint64_t n, bool write, const cg_agent *ag)
{
    if (s->pitch) {
        /* Page by page, as the engine streams: the part of a line before a
         * page that faults is moved, and the fault names that page's first
         * bad byte (nv_mem_rw checks the whole range it is given first). */
        uint64_t va = s->base + (uint64_t)y * s->pitch_bytes + x0;
        while (n) {
            uint64_t k = CG_PAGE_SIZE - (va & (CG_PAGE_SIZE - 1));
            if (k > n)
                k = n;
            int rc = nv_mem_rw(ch->vas, va, buf, k, write, ag);
            if (rc != 0)
                return rc;
            va += k;
            buf += k;
            n -= k;
        }
        return 0;
    }
    uint64_t x = 0;
    while (x < n) {
        uint64_t bx = s->ox + x0 + x;
        uint64_t k = 16 - (bx % 16);
        if (k > n - x)
            k = n - x;
        uint64_t va = s->base + nv_bl_offset(&s->bl, (uint32_t)bx, s->oy + y, s->z);
        int rc = nv_mem_rw(ch->vas, va, buf + x, k, write, ag);
        if (rc != 0)
            return rc;
        x += k;
    }
    return 0;
}

/* SET_REMAP_COMPONENTS DST_X, DST_Y, DST_Z, DST_W: 3-bit fields 4 bits apart;
 * destination component c is DST_X of the word shifted right by 4 * c. */
#define REMAP_STRIDE (NV_FLD_LO(NVB0B5_SET_REMAP_COMPONENTS_DST_Y) - \
                      NV_FLD_LO(NVB0B5_SET_REMAP_COMPONENTS_DST_X))
_Static_assert(NV_MASK(NVB0B5, SET_REMAP_COMPONENTS, DST_Z) ==
                       NV_MASK(NVB0B5, SET_REMAP_COMPONENTS, DST_X) << (2 * REMAP_STRIDE) &&
                   NV_MASK(NVB0B5, SET_REMAP_COMPONENTS, DST_W) ==
                       NV_MASK(NVB0B5, SET_REMAP_COMPONENTS, DST_X) << (3 * REMAP_STRIDE),
               "SET_REMAP_COMPONENTS DST_X..W sit REMAP_STRIDE apart");
#define REMAP(e) NVB0B5_SET_REMAP_COMPONENTS_DST_X_##e

static unsigned remap_sel(uint32_t comp, unsigned c)
{
    return NV_VAL(NVB0B5, SET_REMAP_COMPONENTS, DST_X, comp >> (REMAP_STRIDE * c));
}

static void remap_line(const uint32_t *r, const uint8_t *src, uint8_t *dst, uint32_t pixels)
{
    uint32_t comp = r[NVB0B5_SET_REMAP_COMPONENTS >> 2];
    unsigned cs = NV_VAL(NVB0B5, SET_REMAP_COMPONENTS, COMPONENT_SIZE, comp) + 1;
    unsigned ns = NV_VAL(NVB0B5, SET_REMAP_COMPONENTS, NUM_SRC_COMPONENTS, comp) + 1;
    unsigned nd = NV_VAL(NVB0B5, SET_REMAP_COMPONENTS, NUM_DST_COMPONENTS, comp) + 1;
    uint32_t ca = r[NVB0B5_SET_REMAP_CONST_A >> 2], cb = r[NVB0B5_SET_REMAP_CONST_B >> 2];
    uint8_t a[4], b[4];
    for (unsigned i = 0; i < 4; i++) {
        a[i] = (uint8_t)(ca >> (8 * i));
        b[i] = (uint8_t)(cb >> (8 * i));
    }
    for (uint32_t p = 0; p < pixels; p++) {
        const uint8_t *sp = src + (uint64_t)p * cs * ns;
        uint8_t *dp = dst + (uint64_t)p * cs * nd;
        for (unsigned c = 0; c < nd; c++) {
            unsigned sel = remap_sel(comp, c);
            uint8_t *d = dp + c * cs;
            if (sel <= REMAP(SRC_W)) {
                /* a source component past NUM_SRC_COMPONENTS reads as zero */
                if (sel < ns)
                    memcpy(d, sp + sel * cs, cs);
                else
                    memset(d, 0, cs);
            } else if (sel == REMAP(CONST_A)) {
                memcpy(d, a, cs);
            } else if (sel == REMAP(CONST_B)) {
                memcpy(d, b, cs);
            } /* 6 NO_WRITE, 7 undefined: keep what the destination holds */
        }
    }
}

void nv_copy_elem_bytes(const uint32_t *regs, uint32_t launch, uint32_t *sbpp, uint32_t *dbpp)
{
    *sbpp = *dbpp = 1;
    if (NV_VAL(NVB0B5, LAUNCH_DMA, REMAP_ENABLE, launch)) {
        /* components x their size (all n-1) */
        uint32_t comp = regs[NVB0B5_SET_REMAP_COMPONENTS >> 2];
        unsigned cs = NV_VAL(NVB0B5, SET_REMAP_COMPONENTS, COMPONENT_SIZE, comp) + 1;
        *sbpp = cs * (NV_VAL(NVB0B5, SET_REMAP_COMPONENTS, NUM_SRC_COMPONENTS, comp) + 1);
        *dbpp = cs * (NV_VAL(NVB0B5, SET_REMAP_COMPONENTS, NUM_DST_COMPONENTS, comp) + 1);
    }
}

static int copy_data(cg_nv_channel *ch, nv_obj *o, uint32_t l, const cg_agent *ag)
{
    const uint32_t *r = o->regs;
    bool multi = NV_VAL(NVB0B5, LAUNCH_DMA, MULTI_LINE_ENABLE, l);
    bool remap = NV_VAL(NVB0B5, LAUNCH_DMA, REMAP_ENABLE, l);
    uint32_t comp = r[NVB0B5_SET_REMAP_COMPONENTS >> 2];
    if (NV_VAL(NVB0B5, LAUNCH_DMA, SRC_TYPE, l) || NV_VAL(NVB0B5, LAUNCH_DMA, DST_TYPE, l))
        return nv_fault(ch, ag, CG_FAULT_UNSUPPORTED, 0,
                        "B0B5 LAUNCH_DMA: physical SRC_TYPE/DST_TYPE not supported yet");
    uint32_t sbpp, dbpp;
    nv_copy_elem_bytes(r, l, &sbpp, &dbpp);
    uint32_t len = r[NVB0B5_LINE_LENGTH_IN >> 2];
    uint32_t count = multi ? r[NVB0B5_LINE_COUNT >> 2] : 1;
    uint64_t sbytes = (uint64_t)len * sbpp, dbytes = (uint64_t)len * dbpp;
    uint64_t total = (sbytes > dbytes ? sbytes : dbytes) * count;
    if (total > ch->gpu->op_limit)
        return nv_fault(ch, ag, CG_FAULT_HANG, 0,
                        "budget %s: B0B5 LAUNCH_DMA of %llu bytes is over the limit of %llu",
                        cg_budget_name(CG_BUDGET_NV_OP_BYTES), (unsigned long long)total,
                        (unsigned long long)ch->gpu->op_limit);
    if (total == 0)
        return 0;
    side s, d;
    /* 1-D copies ignore the layouts (yuzu maxwell_dma.cpp) */
    bool spitch = !multi || NV_VAL(NVB0B5, LAUNCH_DMA, SRC_MEMORY_LAYOUT, l);
    bool dpitch = !multi || NV_VAL(NVB0B5, LAUNCH_DMA, DST_MEMORY_LAYOUT, l);
    if (side_setup(ch, r, true, spitch, sbpp, &s, ag) || side_setup(ch, r, false, dpitch, dbpp, &d, ag))
        return CG_ERR_FAULT;
    bool keep = false;
    if (remap)
        for (unsigned c = 0; c < NV_VAL(NVB0B5, SET_REMAP_COMPONENTS, NUM_DST_COMPONENTS, comp) + 1u;
             c++)
            keep |= remap_sel(comp, c) >= REMAP(NO_WRITE);
    /* Lines go through in pieces of at most COPY_PIECE pixels, so host memory
     * stays small whatever the registers say. */
    enum { COPY_PIECE = 1024 };
    uint8_t sb[COPY_PIECE * 16], db[COPY_PIECE * 16];
    int rc = 0;
    for (uint32_t y = 0; y < count && rc == 0; y++) {
        for (uint64_t px = 0; px < len && rc == 0; px += COPY_PIECE) {
            uint64_t k = len - px < COPY_PIECE ? len - px : COPY_PIECE;
            rc = side_io(ch, &s, y, px * sbpp, sb, k * sbpp, false, ag);
            if (rc == 0 && keep)
                rc = side_io(ch, &d, y, px * dbpp, db, k * dbpp, false, ag);
            if (rc == 0 && remap)
                remap_line(r, sb, db, (uint32_t)k);
            if (rc == 0)
                rc = side_io(ch, &d, y, px * dbpp, remap ? db : sb, k * dbpp, true, ag);
        }
    }
    if (rc == 0)
        return 0;
    ch->state = CG_NV_CH_FAULTED;
    return CG_ERR_FAULT;
}

_Static_assert(NVB0B5_LAUNCH_DMA_SEMAPHORE_REDUCTION_IMIN == NVB06F_SEMAPHORED_REDUCTION_MIN &&
                   NVB0B5_LAUNCH_DMA_SEMAPHORE_REDUCTION_IMAX == NVB06F_SEMAPHORED_REDUCTION_MAX &&
                   NVB0B5_LAUNCH_DMA_SEMAPHORE_REDUCTION_IXOR == NVB06F_SEMAPHORED_REDUCTION_XOR &&
                   NVB0B5_LAUNCH_DMA_SEMAPHORE_REDUCTION_IAND == NVB06F_SEMAPHORED_REDUCTION_AND &&
                   NVB0B5_LAUNCH_DMA_SEMAPHORE_REDUCTION_IOR == NVB06F_SEMAPHORED_REDUCTION_OR &&
                   NVB0B5_LAUNCH_DMA_SEMAPHORE_REDUCTION_IADD == NVB06F_SEMAPHORED_REDUCTION_ADD &&
                   NVB0B5_LAUNCH_DMA_SEMAPHORE_REDUCTION_INC == NVB06F_SEMAPHORED_REDUCTION_INC &&
                   NVB0B5_LAUNCH_DMA_SEMAPHORE_REDUCTION_DEC == NVB06F_SEMAPHORED_REDUCTION_DEC,
               "B0B5 SEMAPHORE_REDUCTION IMIN..DEC number as the host's REDUCTION (nv_reduce)");

int nv_copy_launch(cg_nv_channel *ch, nv_obj *o, const cg_agent *ag)
{
    const uint32_t *r = o->regs;
    uint32_t l = r[NVB0B5_LAUNCH_DMA >> 2];
    unsigned xfer = NV_VAL(NVB0B5, LAUNCH_DMA, DATA_TRANSFER_TYPE, l);
    unsigned semt = NV_VAL(NVB0B5, LAUNCH_DMA, SEMAPHORE_TYPE, l);
    unsigned intr = NV_VAL(NVB0B5, LAUNCH_DMA, INTERRUPT_TYPE, l);
    if (xfer == 3 || semt == 3 || intr == 3)
        return nv_fault(ch, ag, CG_FAULT_BAD_STATE, 0,
                        "B0B5 LAUNCH_DMA 0x%08x: value 3 in DATA_TRANSFER_TYPE, SEMAPHORE_TYPE or "
                        "INTERRUPT_TYPE is not defined", l);
    if (xfer) {
        int rc = copy_data(ch, o, l, ag);
        if (rc)
            return rc;
        if (cg_trace_enabled(ch->gpu->dev)) {
            cg_trace_event ev = {.kind = CG_TRACE_MEM_WRITE, .family = CG_FAMILY_NV, .unit = "ce",
                                 .channel = ch->id, .stream_addr = ag->stream_addr,
                                 .gpu_addr = nv_addr40(r[NVB0B5_OFFSET_OUT_UPPER >> 2],
                                                       r[NVB0B5_OFFSET_OUT_LOWER >> 2]),
                                 .reg = NVB0B5_LAUNCH_DMA, .value = l, .text = "copy"};
            cg_trace_emit(ch->gpu->dev, &ev);
        }
    }
    if (semt) {
        uint64_t va =
            (uint64_t)NV_VAL(NVB0B5, SET_SEMAPHORE_A, UPPER, r[NVB0B5_SET_SEMAPHORE_A >> 2]) << 32 |
            r[NVB0B5_SET_SEMAPHORE_B >> 2];
        uint32_t payload = r[NVB0B5_SET_SEMAPHORE_PAYLOAD >> 2];
        if (NV_VAL(NVB0B5, LAUNCH_DMA, SEMAPHORE_REDUCTION_ENABLE, l)) {
            unsigned op = NV_VAL(NVB0B5, LAUNCH_DMA, SEMAPHORE_REDUCTION, l);
            if (op > NVB0B5_LAUNCH_DMA_SEMAPHORE_REDUCTION_DEC)
                return nv_fault(ch, ag, CG_FAULT_UNSUPPORTED, va,
                                "B0B5 semaphore reduction %u (FADD) not supported yet", op);
            uint32_t old;
            if (cg_vas_read32(ch->vas, va, &old, ag) != 0)
                goto memfault;
            /* IMIN..DEC share nv_reduce's numbering (host SEMAPHORED
             * REDUCTION, asserted below); SIGN 0 = signed */
            payload = nv_reduce(old, payload, op, !NV_VAL(NVB0B5, LAUNCH_DMA, SEMAPHORE_REDUCTION_SIGN, l));
        }
        int rc;
        if (semt == NVB0B5_LAUNCH_DMA_SEMAPHORE_TYPE_RELEASE_ONE_WORD_SEMAPHORE) {
            rc = cg_vas_write32(ch->vas, va, payload, ag);
        } else {
            uint64_t t = ch->gpu->time;
            uint32_t rec[4] = {payload, 0, (uint32_t)t, (uint32_t)(t >> 32)};
            rc = cg_vas_write(ch->vas, va, rec, sizeof(rec), ag);
        }
        if (rc)
            goto memfault;
        if (cg_trace_enabled(ch->gpu->dev)) {
            cg_trace_event ev = {.kind = CG_TRACE_FENCE, .family = CG_FAMILY_NV, .unit = "ce",
                                 .channel = ch->id, .stream_addr = ag->stream_addr,
                                 .gpu_addr = va, .value = payload, .size = semt == NVB0B5_LAUNCH_DMA_SEMAPHORE_TYPE_RELEASE_ONE_WORD_SEMAPHORE ? 4 : 16,
                                 .text = "copy semaphore release"};
            cg_trace_emit(ch->gpu->dev, &ev);
        }
    }
    if (intr && cg_trace_enabled(ch->gpu->dev)) {
        cg_trace_event ev = {.kind = CG_TRACE_INTERRUPT, .family = CG_FAMILY_NV, .unit = "ce",
                             .channel = ch->id, .stream_addr = ag->stream_addr,
                             .reg = NVB0B5_LAUNCH_DMA, .value = l,
                             .text = intr == 1 ? "copy interrupt (blocking)"
                                               : "copy interrupt (non-blocking)"};
        cg_trace_emit(ch->gpu->dev, &ev);
    }
    return 0;
memfault:
    ch->state = CG_NV_CH_FAULTED;
    return CG_ERR_FAULT;
}
