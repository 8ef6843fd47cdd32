/* VideoCore IV VPM (vertex pipe memory) and the VCD's DMA as the QPUs see
 * them: general reads and writes through VPMVCD_RD_SETUP / VPMVCD_WR_SETUP,
 * VDR (memory to VPM) and VDW (VPM to memory).
 *
 * Field layouts: VideoCore IV 3D Architecture Reference Guide, section 7
 * ("VPM and VCD": generic block read/write setup, VCD DMA load (VDR) basic
 * and extended setup, VCD DMA store (VDW) basic and stride setup), as
 * maazl/vc4asm share/vc4inc/vc4.qinc encodes them (vpm_setup, h32 h16p h16l
 * h8p h8l v32 v16p v16l v8p v8l, vdr_setup_0/1, vdr_h32/v32, vdw_setup_0/1,
 * dma_h32 ... dma_v8p) and doc/VideoCoreIV-addendum.html (VDW stride is 16
 * bits; a VPM read setup is ignored while more than one vector of the last
 * one is outstanding). Every modelling choice: docs/vc4-gpgpu.md. */
#include <stdio.h>
#include <string.h>
#include "qpu_io.h"

void vc4_v3d_units_init(vc4_v3d_units *u)
{
    memset(u, 0, sizeof *u);
    u->mutex_owner = -1;
}

void vc4_v3d_units_reset(vc4_v3d_units *u)
{
    memset(u->vpm, 0, sizeof u->vpm[0] * u->vpm_dirty);
    memset(&u->sems, 0, sizeof u->sems);
    u->mutex_owner = -1;
    u->vdr_count = u->vdw_count = u->vdr_bytes = u->vdw_bytes = 0;
    u->vpm_dirty = 0;
}

static inline void vpm_wrote(vc4_v3d_units *u, uint32_t word)
{
    if (word >= u->vpm_dirty)
        u->vpm_dirty = word + 1;
}

static int need_units(vc4_qpu_state *s, const char *what)
{
    return vc4__qpu_fault(s, CG_FAULT_UNSUPPORTED, 0,
                          "not supported yet: %s without V3D units (a fragment shader's "
                          "private units have no VPM)", what);
}

/* ---- general access ----
 * A setup word: [23:20] NUM (reads; 0 = 16), [17:12] STRIDE (0 = 64),
 * [11] HORIZ, [10] LANED, [9:8] SIZE (0 8-bit, 1 16-bit, 2 32-bit), [7:0]
 * ADDR. ADDR is Y (32-bit), Y:H (16-bit) or Y:B (8-bit) horizontally; for
 * vertical access Y[5:4]:X[3:0] with H or B below. STRIDE is added to the
 * ADDR counter after each vector. */

/* The VPM word and sub-word position lane `lane` reaches at ADDR counter a
 * under setup `setup`: word index (may be past the VPM), byte shift and
 * width in bits (32: the whole word, packed access). */
static void locate(uint32_t setup, uint32_t a, int lane, uint32_t *word, unsigned *shift,
                   unsigned *bits)
{
    unsigned size = (setup >> 8) & 3, laned = (setup >> 10) & 1, horiz = (setup >> 11) & 1;
    unsigned subbits = size == 0 ? 2 : size == 1 ? 1 : 0; /* sub-word index bits */
    uint32_t sub = a & ((1u << subbits) - 1), y = a >> subbits;
    if (horiz)
        *word = y * 16 + (uint32_t)lane;
    else
        *word = ((y >> 4) * 16 + (uint32_t)lane) * 16 + (y & 15);
    if (laned && subbits) {
        *bits = 32 >> subbits;
        *shift = sub * *bits;
    } else {
        *bits = 32;
        *shift = 0;
    }
}

static int check_vector(vc4_qpu_state *s, uint32_t setup, uint32_t a, const char *what)
{
    uint32_t w0, w15;
    unsigned sh, bits;
    if (((setup >> 8) & 3) == 3)
        return vc4__qpu_fault(s, CG_FAULT_BAD_STATE, 0,
                              "VPM %s with reserved SIZE 3 (setup 0x%08x)", what, setup);
    locate(setup, a, 0, &w0, &sh, &bits);
    locate(setup, a, 15, &w15, &sh, &bits);
    if (w15 >= VC4_VPM_WORDS)
        return vc4__qpu_fault(s, CG_FAULT_ADDR_RANGE, 0,
                              "VPM %s at address counter 0x%x reaches row %u, past the VPM's "
                              "%u rows (setup 0x%08x)", what, a, w15 / 16, VC4_VPM_ROWS, setup);
    (void)w0;
    return 0;
}

static uint32_t stride_of(uint32_t setup)
{
    uint32_t st = (setup >> 12) & 63;
    return st ? st : 64;
}

int vc4__vpm_read(vc4_qpu_state *s, uint32_t out[16])
{
    if (!s->units)
        return need_units(s, "VPM read");
    if (s->vpm_rd_left == 0)
        return vc4__qpu_fault(s, CG_FAULT_HANG, 0,
                              "VPM read with no vector left from the read setup (setup 0x%08x): "
                              "the QPU would wait forever", s->vpm_rd_setup);
    uint32_t setup = s->vpm_rd_setup, a = s->vpm_rd_addr;
    int rc = check_vector(s, setup, a, "read");
    if (rc)
        return rc;
    for (int i = 0; i < 16; i++) {
        uint32_t w;
        unsigned sh, bits;
        locate(setup, a, i, &w, &sh, &bits);
        uint32_t v = s->units->vpm[w];
        out[i] = bits == 32 ? v : (v >> sh) & ((1u << bits) - 1); /* laned: zero-extended */
    }
    s->vpm_rd_addr = a + stride_of(setup);
    s->vpm_rd_left--;
    return 0;
}

int vc4__vpm_write(vc4_qpu_state *s, const uint32_t v[16], uint16_t mask)
{
    if (!s->units)
        return need_units(s, "VPM write");
    uint32_t setup = s->vpm_wr_setup, a = s->vpm_wr_addr;
    int rc = check_vector(s, setup, a, "write");
    if (rc)
        return rc;
    if (mask != 0xffffu && (rc = vc4__qpu_diag(s, "conditional VPM write (lanes 0x%04x): the "
                                                  "hardware writes every lane", mask)))
        return rc;
    for (int i = 0; i < 16; i++) {
        if (!((mask >> i) & 1))
            continue;
        uint32_t w;
        unsigned sh, bits;
        locate(setup, a, i, &w, &sh, &bits);
        uint32_t *p = &s->units->vpm[w];
        vpm_wrote(s->units, w);
        if (bits == 32) {
            *p = v[i];
        } else {
            uint32_t m = ((1u << bits) - 1) << sh;
            *p = (*p & ~m) | ((v[i] << sh) & m);
        }
    }
    s->vpm_wr_addr = a + stride_of(setup);
    return 0;
}

int vc4__vpm_setup(vc4_qpu_state *s, int file, uint32_t v)
{
    if (!s->units)
        return need_units(s, file ? "VPM write setup" : "VPM read setup");
    uint32_t id = v >> 30;
    if (file == 0) { /* VPMVCD_RD_SETUP */
        if (id == 0) {
            if (s->vpm_rd_left > 1) { /* addendum: not queued, ignored */
                return vc4__qpu_diag(s, "VPM read setup 0x%08x ignored: %u vectors of the last "
                                        "one are still outstanding", v, s->vpm_rd_left);
            }
            s->vpm_rd_setup = v;
            s->vpm_rd_addr = v & 0xff;
            s->vpm_rd_left = ((v >> 20) & 15) ? (v >> 20) & 15 : 16;
            return 0;
        }
        if (id == 1)
            return vc4__qpu_fault(s, CG_FAULT_BAD_STATE, 0,
                                  "VPM read setup 0x%08x: reserved ID 1 (bits 31:30)", v);
        if (((v >> 28) & 7) == 1) /* ID 9 in bits 31:28: VDR extended memory pitch */
            s->vdr_stride = v & 0x1fff;
        else
            s->vdr_setup = v;
        return 0;
    }
    switch (id) { /* VPMVCD_WR_SETUP */
    case 0:
        s->vpm_wr_setup = v;
        s->vpm_wr_addr = v & 0xff;
        return 0;
    case 2: s->vdw_setup = v; return 0;
    case 3: s->vdw_stride = v; return 0;
    default:
        return vc4__qpu_fault(s, CG_FAULT_BAD_STATE, 0,
                              "VPM write setup 0x%08x: reserved ID 1 (bits 31:30)", v);
    }
}

/* ---- VCD DMA ---- */

/* Element width in bytes and first sub-word index of a MODEW field (VDR
 * bits 30:28, VDW bits 2:0): 0 32-bit; 2-3 16-bit, half = bit 0; 4-7
 * 8-bit, byte = bits 1:0. -1 for the reserved 1. */
static int modew(uint32_t m, unsigned *w, unsigned *off)
{
    if (m == 0) {
        *w = 4, *off = 0;
    } else if (m >= 4) {
        *w = 1, *off = m & 3;
    } else if (m >= 2) {
        *w = 2, *off = m & 1;
    } else {
        return -1;
    }
    return 0;
}

/* VPM word and shift of element e of unit/row u of a DMA block: horizontal
 * blocks run along row y + u*upitch from column x, vertical ones down column
 * x + u*upitch from row y; 8- and 16-bit elements pack into the words in
 * order from sub-word `off` (horizontal) or sit at sub-word `off` of each
 * row (vertical). False if the element is outside a row or the VPM. */
static bool dma_locate(bool horiz, uint32_t y, uint32_t x, uint32_t u, uint32_t upitch,
                       uint32_t e, unsigned w, unsigned off, uint32_t *word, unsigned *shift)
{
    unsigned per = 4 / w;
    uint32_t row, col, sub;
    if (horiz) {
        uint32_t k = off + e;
        row = y + u * upitch;
        col = x + k / per;
        sub = k % per;
    } else {
        row = y + e;
        col = x + u * upitch;
        sub = off;
    }
    if (col >= 16 || row >= VC4_VPM_ROWS)
        return false;
    *word = row * 16 + col;
    *shift = sub * 8 * w;
    return true;
}

static int dma_range_fault(vc4_qpu_state *s, const char *what, uint32_t setup, uint32_t u,
                           uint32_t e)
{
    return vc4__qpu_fault(s, CG_FAULT_ADDR_RANGE, 0,
                          "%s (setup 0x%08x): row/unit %u element %u lies outside the VPM "
                          "(past column 15 or row %u)", what, setup, u, e, VC4_VPM_ROWS - 1);
}

/* VDR: memory to VPM. Basic setup (bit 31 = 1): [30:28] MODEW, [27:24]
 * MPITCH (pitch 8 << MPITCH bytes; 0: the extended setup's 13-bit pitch),
 * [23:20] ROWLEN (0 = 16), [19:16] NROWS (0 = 16), [15:12] VPITCH (0 = 16),
 * [11] VERT, [10:4] ADDRY, [3:0] ADDRX. */
static int vdr(vc4_qpu_state *s, uint32_t addr)
{
    uint32_t v = s->vdr_setup;
    if (!(v >> 31))
        return vc4__qpu_fault(s, CG_FAULT_BAD_STATE, 0,
                              "VDR started (VPM_LD_ADDR = 0x%08x) with no VDR setup", addr);
    unsigned w = 4, off = 0;
    modew((v >> 28) & 7, &w, &off); /* 1 is the extended setup, never stored here */
    uint32_t mp = (v >> 24) & 15;
    uint32_t pitch = mp ? 8u << mp : s->vdr_stride;
    uint32_t rowlen = (v >> 20) & 15 ? (v >> 20) & 15 : 16;
    uint32_t nrows = (v >> 16) & 15 ? (v >> 16) & 15 : 16;
    uint32_t vpitch = (v >> 12) & 15 ? (v >> 12) & 15 : 16;
    bool horiz = !((v >> 11) & 1);
    uint32_t y = (v >> 4) & 127, x = v & 15;
    for (uint32_t r = 0; r < nrows; r++)
        for (uint32_t e = 0; e < rowlen; e++) {
            uint32_t wd = 0;
            unsigned sh = 0;
            if (!dma_locate(horiz, y, x, r, vpitch, e, w, off, &wd, &sh))
                return dma_range_fault(s, "VDR", v, r, e);
        }
    uint8_t buf[16][64];
    for (uint32_t r = 0; r < nrows; r++)
        if (cg_vas_read(s->bus, (uint64_t)addr + (uint64_t)r * pitch, buf[r], rowlen * w,
                        &s->agent) != 0) {
            s->ended = true;
            return CG_ERR_FAULT;
        }
    for (uint32_t r = 0; r < nrows; r++)
        for (uint32_t e = 0; e < rowlen; e++) {
            uint32_t wd = 0, val = 0;
            unsigned sh = 0;
            dma_locate(horiz, y, x, r, vpitch, e, w, off, &wd, &sh);
            for (unsigned b = 0; b < w; b++)
                val |= (uint32_t)buf[r][e * w + b] << (8 * b);
            uint32_t m = w == 4 ? 0xffffffffu : ((1u << (8 * w)) - 1) << sh;
            s->units->vpm[wd] = (s->units->vpm[wd] & ~m) | ((val << sh) & m);
            vpm_wrote(s->units, wd);
        }
    s->units->vdr_count++;
    s->units->vdr_bytes += (uint64_t)nrows * rowlen * w;
    return 0;
}

/* VDW: VPM to memory. Basic setup (bits 31:30 = 2): [29:23] UNITS (0 =
 * 128), [22:16] DEPTH (0 = 128), [14] HORIZ, [13:7] VPMBASE Y, [6:3] X,
 * [2:0] MODEW. Stride setup (bits 31:30 = 3): [16] BLOCKMODE, [15:0]
 * STRIDE (bytes from the end of one unit to the start of the next). */
static int vdw(vc4_qpu_state *s, uint32_t addr)
{
    uint32_t v = s->vdw_setup;
    if ((v >> 30) != 2)
        return vc4__qpu_fault(s, CG_FAULT_BAD_STATE, 0,
                              "VDW started (VPM_ST_ADDR = 0x%08x) with no VDW setup", addr);
    unsigned w = 4, off = 0;
    if (modew(v & 7, &w, &off) != 0)
        return vc4__qpu_fault(s, CG_FAULT_BAD_STATE, 0, "VDW setup 0x%08x: reserved MODEW 1", v);
    if ((s->vdw_stride >> 16) & 1)
        return vc4__qpu_fault(s, CG_FAULT_UNSUPPORTED, 0,
                              "not supported yet: VDW BLOCKMODE (stride setup 0x%08x)",
                              s->vdw_stride);
    uint32_t units = (v >> 23) & 127 ? (v >> 23) & 127 : 128;
    uint32_t depth = (v >> 16) & 127 ? (v >> 16) & 127 : 128;
    bool horiz = (v >> 14) & 1;
    uint32_t y = (v >> 7) & 127, x = (v >> 3) & 15;
    uint64_t step = (uint64_t)depth * w + (s->vdw_stride & 0xffff);
    for (uint32_t u = 0; u < units; u++)
        for (uint32_t e = 0; e < depth; e++) {
            uint32_t wd = 0;
            unsigned sh = 0;
            if (!dma_locate(horiz, y, x, u, 1, e, w, off, &wd, &sh))
                return dma_range_fault(s, "VDW", v, u, e);
        }
    /* every unit's memory must take the write before any byte is written */
    for (uint32_t u = 0; u < units; u++) {
        uint64_t bad, a = (uint64_t)addr + u * step;
        if (cg_vas_check(s->bus, a, (uint64_t)depth * w, true, &bad) != CG_FAULT_NONE) {
            uint8_t zero[512] = {0};
            cg_vas_write(s->bus, a, zero, depth * w, &s->agent); /* raises the fault */
            s->ended = true;
            return CG_ERR_FAULT;
        }
    }
    if (s->before_write)
        s->before_write(s->before_write_ctx);
    for (uint32_t u = 0; u < units; u++) {
        uint8_t buf[512];
        for (uint32_t e = 0; e < depth; e++) {
            uint32_t wd = 0;
            unsigned sh = 0;
            dma_locate(horiz, y, x, u, 1, e, w, off, &wd, &sh);
            uint32_t val = s->units->vpm[wd] >> sh;
            for (unsigned b = 0; b < w; b++)
                buf[e * w + b] = (uint8_t)(val >> (8 * b));
        }
        if (cg_vas_write(s->bus, (uint64_t)addr + u * step, buf, depth * w, &s->agent) != 0) {
            s->ended = true;
            return CG_ERR_FAULT;
        }
    }
    s->units->vdw_count++;
    s->units->vdw_bytes += (uint64_t)units * depth * w;
    return 0;
}

int vc4__vpm_dma(vc4_qpu_state *s, int file, uint32_t addr)
{
    if (!s->units)
        return need_units(s, file ? "VDW (VPM_ST_ADDR write)" : "VDR (VPM_LD_ADDR write)");
    return file ? vdw(s, addr) : vdr(s, addr);
}
