/* VideoCore IV QPU interpreter, its kernels: 16 lanes, register files A and B,
 * accumulators r0-r5, flags, pack/unpack, signals, load immediate,
 * semaphores, branches, SFU, TLB and fragment I/O.
 *
 * Facts: research/vc4.md section 3 (encodings, registers, restrictions);
 * maazl/vc4asm doc/VideoCoreIV-addendum.html ("addendum": flags only where
 * the condition holds and from the mul ALU only when the add op is nop,
 * denormals flushed to zero, r5quad/r5rep, branch register from element 15,
 * branch link and flags only when taken, rotation within quads unless both
 * mul inputs are r0-r3); anholt/mesa vc4_program.c (C flag = carry of add,
 * borrow of sub: nir_op_uadd_carry / nir_op_usub_borrow); doe300/VC4C
 * src/asm/OpCodes.h (C flag per op, float edge cases, ftoi range, and the
 * Guide on semaphores: stall below 0 and above 15, otherwise "behaves like
 * a 32-bit load immediate"). Every other modelling choice is listed in
 * docs/vc4-qpu.md. */
#include "qpu_alu.h"

/* This file is built once per vector level (src/core/simd.h,
 * cmdgpu_simd_variants in CMakeLists.txt): what runs instructions (the ALUs
 * of qpu_alu.h, register reads and writes, one step, the slice loop
 * vc4__qpu_slice_<level> and the fragment run vc4__qpu_frag_<level>). What
 * needs no vector level is compiled once: the entry points (qpu_core.c),
 * decoding and the program cache (qpu_prog.c), faults (qpu_fault.c). */
#define SLICE_FN CG_SIMD_FN(vc4__qpu_slice)
#define FRAG_FN CG_SIMD_FN(vc4__qpu_frag)

static const uint32_t zero_lanes[LANES];

/* ---- register reads ---- */

typedef struct rd {
    uint32_t v[LANES];
    bool r5_pending;
    uint32_t r5[LANES];
} rd;

/* Read regfile `file` address n into out (I/O side effects included). */
static int read_reg(vc4_qpu_state *s, int file, uint32_t n, rd *r, uint32_t *out)
{
    int rc;
    if (n < 32) {
        if ((s->prev_phys >> (32 * file + n)) & 1) {
            rc = diag(s, "reads r%c%u, written by the previous instruction", file ? 'b' : 'a', n);
            if (rc)
                return rc;
        }
        memcpy(out, file ? s->rb[n] : s->ra[n], sizeof(uint32_t) * LANES);
        return 0;
    }
    const vc4_qpu_reginfo *ri = &vc4_qpu_raddrs[n];
    vc4_frag_batch *fb = s->frag;
    switch (ri->kind[file]) {
    case VC4_QPU_IO_NOP:
        memset(out, 0, sizeof(uint32_t) * LANES);
        return 0;
    case VC4_QPU_IO_UNIF:
        return read_uniform(s, out);
    case VC4_QPU_IO_VARY: {
        uint32_t k = s->nvary_read++;
        if (!fb || k >= fb->nvary || k >= VC4_QPU_MAX_VARYINGS) {
            memset(out, 0, sizeof(uint32_t) * LANES);
            memset(r->r5, 0, sizeof r->r5);
            r->r5_pending = true;
            return diag(s, "varying read %u but only %u varyings are available", k,
                        fb ? fb->nvary : 0);
        }
        for (int i = 0; i < LANES; i++) {
            out[i] = ftz(f2u(fb->vary[k][i]));
            r->r5[i] = ftz(f2u(fb->vary_c[k][i]));
        }
        r->r5_pending = true;
        return 0;
    }
    case VC4_QPU_IO_ELEM:
        for (int i = 0; i < LANES; i++)
            out[i] = (uint32_t)i;
        return 0;
    case VC4_QPU_IO_QPUNUM:
        for (int i = 0; i < LANES; i++)
            out[i] = s->qpu_num; /* 0 unless vc4_qpu_set_units named another */
        return 0;
    case VC4_QPU_IO_XCOORD:
    case VC4_QPU_IO_YCOORD:
        for (int i = 0; i < LANES; i++)
            out[i] = fb ? (ri->kind[file] == VC4_QPU_IO_XCOORD ? fb->x[i] : fb->y[i]) : 0;
        return 0;
    case VC4_QPU_IO_MSFLAGS:
        for (int i = 0; i < LANES; i++)
            out[i] = fb ? fb->ms_flags[i] : 0;
        return 0;
    case VC4_QPU_IO_REVFLAG:
        for (int i = 0; i < LANES; i++)
            out[i] = fb ? (fb->rev_flag & 1) : 0;
        return 0;
    case VC4_QPU_IO_MUTEX:
        if (s->mutex_held) /* nothing else can release it: the QPU stalls for good */
            return fault(s, CG_FAULT_HANG, "mutex acquire while this QPU holds the mutex");
        /* another holder was caught before the instruction issued (blocked) */
        s->mutex_held = true;
        if (s->units)
            s->units->mutex_owner = (int)s->qpu_num;
        memset(out, 0, sizeof(uint32_t) * LANES);
        return 0;
    case VC4_QPU_IO_VPM:
        if (n == VC4_QPU_R_VPM_READ)
            return vc4__vpm_read(s, out);
        /* VPM_LD_BUSY / VPM_ST_BUSY, VPM_LD_WAIT / VPM_ST_WAIT: a DMA
         * completes when it starts, so never busy and nothing to wait for */
        memset(out, 0, sizeof(uint32_t) * LANES);
        return 0;
    default:
        memset(out, 0, sizeof(uint32_t) * LANES);
        return diag(s, "read of reserved register r%c%u", file ? 'b' : 'a', n);
    }
}

/* ---- register writes ---- */

/* dst[i] = v[i] for the lanes of m: one select per lane (vectorised) */
typedef struct wr {
    bool add;       /* add side (else mul) */
    uint32_t waddr;
    int file;       /* 0 A, 1 B */
    uint16_t mask;  /* lanes written */
    const uint32_t *v;
} wr;

/* A TLB colour, Z or alpha-mask write (enum tlbw) of the lanes of m: the
 * lanes of a covered pixel are written (last write wins). */
static inline __attribute__((always_inline)) void tlb_write(vc4_frag_batch *fb, uint32_t t,
                                                            row v, uint16_t m)
{
    uint16_t lanes = m & fb->mask;
    uint32_t *dst;
    uint16_t *written;
    switch (t) {
    case TLBW_Z: dst = fb->z_out, written = &fb->z_mask; break;
    case TLBW_AMASK: dst = fb->alpha_mask, written = &fb->alpha_mask_written; break;
    default: dst = fb->color, written = &fb->color_mask; break;
    }
    if (lanes)
        blend(dst, v, lanes);
    *written |= lanes;
}

/* A write to the SFU (recip, recipsqrt, exp, log): its result lands in r4
 * after the next two instructions. */
static int sfu_write(vc4_qpu_state *s, const wr *w, bool *sfu_started)
{
    if (*sfu_started) {
        int rc = diag(s, "both ALUs write the SFU in one instruction");
        if (rc)
            return rc;
    }
    *sfu_started = true;
    for (int i = 0; i < LANES; i++) {
        float x = fin(w->v[i]);
        float r;
        switch (w->waddr) {
        case VC4_QPU_W_SFU_RECIP: r = 1.0f / x; break;
        case VC4_QPU_W_SFU_RECIPSQRT: r = 1.0f / sqrtf(x); break;
        case VC4_QPU_W_SFU_EXP: r = exp2f(x); break;
        default: r = log2f(x); break;
        }
        s->sfu_result[i] = fres(r);
    }
    s->sfu_wait = 3; /* lands in r4 after the next two instructions */
    return 0;
}

static int write_reg(vc4_qpu_state *s, const wr *w, bool *sfu_started)
{
    uint32_t n = w->waddr;
    uint16_t m = w->mask;
    if (n < 32) {
        dirty_ab(s, w->file, n);
        blend(w->file ? s->rb[n] : s->ra[n], vload(w->v), m);
        return 0;
    }
    const vc4_qpu_reginfo *ri = &vc4_qpu_waddrs[n];
    vc4_frag_batch *fb = s->frag;
    uint32_t addr = (uint32_t)s->agent.stream_addr;
    switch (ri->kind[w->file]) {
    case VC4_QPU_IO_NOP:
        return 0;
    case VC4_QPU_IO_ACC:
        dirty_acc(s, n - 32);
        blend(s->acc[n - 32], vload(w->v), m);
        return 0;
    case VC4_QPU_IO_R5QUAD: /* element 0/4/8/12 to its quad (addendum) */
        dirty_acc(s, 5);
        for (int i = 0; i < LANES; i++)
            if ((m >> i) & 1)
                s->acc[5][i] = w->v[i & ~3];
        return 0;
    case VC4_QPU_IO_R5REP: /* element 0 to every element (addendum) */
        dirty_acc(s, 5);
        for (int i = 0; i < LANES; i++)
            if ((m >> i) & 1)
                s->acc[5][i] = w->v[0];
        return 0;
    case VC4_QPU_IO_HOSTINT:
        if ((m & 1) && w->v[0]) /* a non-zero value interrupts (addendum) */
            s->host_int = w->v[0];
        return 0;
    case VC4_QPU_IO_UNIFADDR:
        if (m & 1)
            s->unif = w->v[0];
        return 0;
    case VC4_QPU_IO_MSFLAGS:
        if (fb)
            for (int i = 0; i < LANES; i++)
                if ((m >> i) & 1 & (fb->mask >> i)) {
                    fb->ms_flags[i] = w->v[i] & 15;
                    fb->ms_mask_written |= (uint16_t)(1u << i);
                }
        return 0;
    case VC4_QPU_IO_TLBS:
        if (fb && (m & 1)) {
            fb->stencil_setup = w->v[0];
            fb->stencil_writes++;
        }
        return 0;
    case VC4_QPU_IO_TLBZ:
    case VC4_QPU_IO_TLBC:
    case VC4_QPU_IO_TLBM:
    case VC4_QPU_IO_TLBAM:
        if (!fb)
            return diag(s, "TLB write (%s) outside a fragment shader", ri->name[w->file]);
        tlb_write(fb, tlbw_of(ri->kind[w->file]), vload(w->v), m);
        return 0;
    case VC4_QPU_IO_MUTEX:
        if (!s->mutex_held)
            return diag(s, "mutex release while the mutex is not held");
        s->mutex_held = false;
        if (s->units && s->units->mutex_owner == (int)s->qpu_num)
            s->units->mutex_owner = -1;
        return 0;
    case VC4_QPU_IO_SFU:
        return sfu_write(s, w, sfu_started);
    case VC4_QPU_IO_QUAD:
    case VC4_QPU_IO_REVFLAG:
        return fault(s, CG_FAULT_UNSUPPORTED, "not supported yet: write to %s at 0x%08x",
                     ri->name[w->file], addr);
    case VC4_QPU_IO_TMU:
        return vc4__tmu_write(s, n, w->v, m);
    case VC4_QPU_IO_VPM:
        if (n == VC4_QPU_W_VPM_WRITE)
            return vc4__vpm_write(s, w->v, m);
        /* setups and DMA addresses take element 0 */
        if (!(m & 1))
            return 0;
        if (n == VC4_QPU_W_VPMVCD_RD_SETUP)
            return vc4__vpm_setup(s, w->file, w->v[0]);
        return vc4__vpm_dma(s, w->file, w->v[0]);
    default:
        return fault(s, CG_FAULT_UNSUPPORTED, "not supported yet: write to %s at 0x%08x",
                     ri->name[w->file], addr);
    }
}

/* Two writes of one instruction to the same place? */
static bool same_target(const wr *a, const wr *b)
{
    if (a->waddr == VC4_QPU_W_NOP || b->waddr == VC4_QPU_W_NOP)
        return false;
    if (a->waddr < 32 || b->waddr < 32)
        return a->waddr == b->waddr && a->file == b->file;
    return a->waddr == b->waddr;
}

/* Z, N, C of the lanes of `lanes` from 16 results and carries (0/1): the
 * three masks are built from the lane values, then merged. */
static int exec_writes(vc4_qpu_state *s, wr *w, uint32_t *phys_a, uint32_t *phys_b,
                       uint8_t *accw)
{
    bool sfu = false;
    if ((w[0].mask & w[1].mask) && same_target(&w[0], &w[1])) {
        int rc = diag(s, "both ALUs write %s in one instruction",
                      w[0].waddr < 32 ? (w[0].file ? "the same rb register" : "the same ra register")
                                      : vc4_qpu_waddrs[w[0].waddr].name[w[0].file]);
        if (rc)
            return rc;
    }
    for (int k = 0; k < 2; k++) {
        if (w[k].waddr == VC4_QPU_W_NOP || !w[k].mask)
            continue;
        if (w[k].waddr < 32) {
            if (w[k].file)
                *phys_b |= 1u << w[k].waddr;
            else
                *phys_a |= 1u << w[k].waddr;
        } else if (w[k].waddr <= 35) {
            *accw |= (uint8_t)(1u << (w[k].waddr - 32));
        } else if (w[k].waddr == 37) {
            *accw |= 1u << 5;
        }
        if (w[k].waddr < 32) { /* a plain row: no I/O */
            dirty_ab(s, w[k].file, w[k].waddr);
            blend(w[k].file ? s->rb[w[k].waddr] : s->ra[w[k].waddr], vload(w[k].v), w[k].mask);
            continue;
        }
        if (w[k].waddr <= 35) { /* r0-r3 (both files) */
            dirty_acc(s, w[k].waddr - 32);
            blend(s->acc[w[k].waddr - 32], vload(w[k].v), w[k].mask);
            continue;
        }
        int rc = write_reg(s, &w[k], &sfu);
        if (rc)
            return rc;
    }
    return 0;
}

/* Pack the writes of w (pm=0: regfile A writes; pm=1: the mul result) into
 * buf; ovf: the add op is add/sub (32-bit saturate needs its overflow). */
static void pack_writes(vc4_qpu_state *s, const vc4_qpu_dins *d, wr *w, uint32_t buf[2][LANES],
                        const uint32_t *in0, const uint32_t *in1, bool ovf, bool from_alu)
{
    for (int k = 0; k < 2; k++) {
        uint32_t n = w[k].waddr;
        bool pa = !d->pm && d->pack && w[k].file == 0, pmul = d->pm && d->pack && k == 1;
        if (!w[k].mask || n == VC4_QPU_W_NOP || (!pa && !pmul))
            continue;
        bool fl = from_alu && (k == 0 ? d->add_rfl : d->mul_fl);
        for (int i = 0; i < LANES; i++) {
            uint32_t x = w[k].v[i], old;
            if (from_alu)
                old = n < 32 ? (w[k].file ? s->rb[n][i] : s->ra[n][i])
                             : (n <= 35 ? s->acc[n - 32][i] : 0);
            else if (pa)
                old = n < 32 ? s->ra[n][i] : 0;
            else
                old = n < 32 ? (w[k].file ? s->rb[n][i] : s->ra[n][i]) : 0;
            bool ovp = false, ovn = false;
            if (k == 0 && ovf) {
                int64_t a = (int32_t)in0[i], b = (int32_t)in1[i];
                int64_t t = d->op_add == VC4_QPU_A_ADD ? a + b : a - b;
                ovp = t > INT32_MAX;
                ovn = t < INT32_MIN;
            }
            buf[k][i] = pa ? pack_a(d->pack, x, old, fl, ovp, ovn) : pack_m(d->pack, x, old);
        }
        w[k].v = buf[k];
    }
}

/* The register-file ports: read whenever raddr names something, used by
 * a mux or not (the kernel validator counts uniforms this way). Plain rows
 * are used in place (*pva, *pvb), others read into bufa, bufb; the
 * back-to-back and SFU rules are checked here. */
static inline int alu_reads(vc4_qpu_state *s, const vc4_qpu_dins *d, rd *r,
                            uint32_t bufa[LANES], uint32_t bufb[LANES], const uint32_t **pva,
                            const uint32_t **pvb)
{
    int rc;
    const uint32_t *va = bufa, *vb = bufb;
    if (d->raddr_a < 32) {
        if ((s->prev_phys & d->rd_a) &&
            (rc = diag(s, "reads r%c%u, written by the previous instruction", 'a', d->raddr_a)))
            return rc;
        va = s->ra[d->raddr_a];
    } else if (d->flags & D_ZA) {
        va = zero_lanes;
    } else if ((rc = read_reg(s, 0, d->raddr_a, r, bufa))) {
        return rc;
    }
    if (d->flags & D_SIMM) {
        vstore(s->xrow[1], vsplat(d->imm));
        vb = s->xrow[1];
    } else if (d->raddr_b < 32) {
        if (((s->prev_phys >> 32) & d->rd_b) &&
            (rc = diag(s, "reads r%c%u, written by the previous instruction", 'b', d->raddr_b)))
            return rc;
        vb = s->rb[d->raddr_b];
    } else if (d->flags & D_ZB) {
        vb = zero_lanes;
    } else if ((rc = read_reg(s, 1, d->raddr_b, r, bufb))) {
        return rc;
    }
    if ((d->flags & D_R4) && s->sfu_wait > 0 &&
        (rc = diag(s, "reads r4 within two instructions of an SFU write")))
        return rc;
    *pva = va, *pvb = vb;
    return 0;
}

/* D_SLOW operands: unpacked lane by lane (float or int by the consumer),
 * and the mul inputs rotated (small immediates 48-63), into slow[]. */
static int alu_slow_inputs(vc4_qpu_state *s, const vc4_qpu_dins *d, const uint32_t *in[4],
                           uint32_t slow[4][LANES])
{
    uint32_t op_add = d->op_add, op_mul = d->op_mul;
    int rc;
    /* unpack (float or int by the consumer) */
    for (int k = 0; k < 4; k++) {
        if (!(k < 2 ? op_add : op_mul))
            continue;
        bool fl = k < 2 ? d->add_fl : d->mul_fl;
        uint32_t m = d->mux[k];
        if ((m == 4 && d->unpack && d->pm) || (m == 6 && d->unpack && !d->pm)) {
            for (int i = 0; i < LANES; i++)
                slow[k][i] = unpack(d->unpack, in[k][i], fl);
            in[k] = slow[k];
        }
    }
    /* vector rotation of the mul inputs (small immediates 48-63) */
    if ((d->flags & D_SIMM) && d->raddr_b >= 48 && op_mul) {
        uint32_t n = d->raddr_b == 48 ? (s->acc[5][0] & 15) : d->raddr_b - 48u;
        if (d->raddr_b == 48 && (s->prev_acc & (1u << 5)))
            if ((rc = diag(s, "rotates by r5 right after an instruction that writes r5")))
                return rc;
        for (int k = 2; k < 4; k++)
            if (d->mux[k] < 4 && (s->prev_acc & (1u << d->mux[k])))
                if ((rc = diag(s, "rotates r%u right after an instruction that writes it",
                               d->mux[k])))
                    return rc;
        bool full = d->mux[2] < 4 && d->mux[3] < 4;
        for (int k = 2; k < 4; k++) {
            uint32_t t[LANES];
            for (int i = 0; i < LANES; i++) {
                int from = full ? (int)((i - (int)n) & 15) : ((i & ~3) | ((i - (int)n) & 3));
                t[i] = in[k][from];
            }
            memcpy(slow[k], t, sizeof t);
            in[k] = slow[k];
        }
    }
    return 0;
}

static int exec_alu(vc4_qpu_state *s, const vc4_qpu_dins *d, uint32_t *phys_a,
                    uint32_t *phys_b, uint8_t *accw, rd *r)
{
    uint32_t op_add = d->op_add, op_mul = d->op_mul;
    int rc;

    if (d->flags & D_BAD) {
        if (op_add && !vc4_qpu_add_ops[op_add].name)
            return fault(s, CG_FAULT_INVALID_OPCODE, "reserved add op %u", op_add);
        if (d->pm && d->pack && !vc4_qpu_packm[d->pack].name)
            return fault(s, CG_FAULT_INVALID_OPCODE, "reserved mul pack %u", d->pack);
    }

    uint32_t bufa[LANES], bufb[LANES];
    const uint32_t *va, *vb;
    if ((rc = alu_reads(s, d, r, bufa, bufb, &va, &vb)))
        return rc;

    /* Operands per consumer; inactive sides (nop) compute nothing. */
    const uint32_t *in[4];
    for (int k = 0; k < 4; k++) {
        uint32_t m = d->mux[k];
        in[k] = !(k < 2 ? op_add : op_mul) ? zero_lanes
              : m < 6 ? s->acc[m] : m == 6 ? va : vb;
    }
    uint32_t slow[4][LANES];
    if ((d->flags & D_SLOW) && (rc = alu_slow_inputs(s, d, in, slow)))
        return rc;

    row a0 = vsplat(0), a1 = a0, m0 = a0, m1 = a0, res_a = a0, res_m = a0;
    if (op_add) {
        a0 = vload(in[0]), a1 = vload(in[1]);
        res_a = add_op(op_add, a0, a1);
    }
    if (op_mul) {
        m0 = vload(in[2]), m1 = vload(in[3]);
        res_m = mul_op(op_mul, m0, m1);
    }

    uint16_t madd = op_add ? cond_mask(s, d->cond_add) : 0;
    uint16_t mmul = op_mul ? cond_mask(s, d->cond_mul) : 0;

    if (d->flags & D_PLAINW) {
        /* what exec_writes does for plain rows, with the rows decoded */
        if (madd && d->wrow[0] != 0xff) {
            blend(row_ptr(s, d->wrow[0]), res_a, madd);
            dirty_row(s, d->wrow[0]);
            *phys_a |= d->pa[0], *phys_b |= d->pb[0], *accw |= d->acc[0];
        }
        if (mmul && d->wrow[1] != 0xff) {
            blend(row_ptr(s, d->wrow[1]), res_m, mmul);
            dirty_row(s, d->wrow[1]);
            *phys_a |= d->pa[1], *phys_b |= d->pb[1], *accw |= d->acc[1];
        }
        goto flags;
    }
    uint32_t ra_res[LANES], rm_res[LANES];
    vstore(ra_res, res_a);
    vstore(rm_res, res_m);
    wr w[2];
    w[0].add = true;
    w[0].waddr = d->waddr_add;
    w[0].file = d->ws ? 1 : 0;
    w[0].mask = madd;
    w[0].v = ra_res;
    w[1].add = false;
    w[1].waddr = d->waddr_mul;
    w[1].file = d->ws ? 0 : 1;
    w[1].mask = mmul;
    w[1].v = rm_res;
    uint32_t pbuf[2][LANES];
    if (d->flags & D_PACK) {
        pack_writes(s, d, w, pbuf, in[0], in[1],
                    op_add == VC4_QPU_A_ADD || op_add == VC4_QPU_A_SUB, true);
        if (d->pm && d->pack >= 4 && mmul && d->waddr_mul >= 36 &&
            d->waddr_mul != VC4_QPU_W_NOP && d->waddr_mul != VC4_QPU_W_ACC5_QUAD)
            if ((rc = diag(s, "byte pack of the mul result into I/O register %s",
                           vc4_qpu_waddrs[d->waddr_mul].name[w[1].file])))
                return rc;
    }

    if ((rc = exec_writes(s, w, phys_a, phys_b, accw)))
        return rc;

flags:
    if (d->sf) {
        /* flags from the add ALU unless it is a nop, then from the mul ALU;
         * only lanes whose condition holds (addendum) */
        if (op_add)
            set_flags(s, res_a, add_carry(op_add, a0, a1, res_a), madd, d->add_rfl);
        else if (op_mul)
            set_flags(s, res_m, mul_carry(op_mul, m0, m1, res_m), mmul, d->mul_fl);
    }
    return 0;
}

static int exec_ldi(vc4_qpu_state *s, const vc4_qpu_dins *d, uint32_t *phys_a,
                    uint32_t *phys_b, uint8_t *accw, bool *stalled)
{
    uint32_t imm = d->imm, mode = d->ldi_mode;
    uint32_t v[LANES];
    switch (mode) {
    case VC4_QPU_LDI_LOAD_32:
    case VC4_QPU_LDI_PER_ELEMENT_SIGNED:
    case VC4_QPU_LDI_PER_ELEMENT_UNSIGNED:
        memcpy(v, d->immv, sizeof v); /* decoded */
        break;
    case VC4_QPU_LDI_SEMAPHORE: {
        int rc;
        uint32_t n = imm & 15;
        uint8_t *cnt = &s->sems->count[n];
        if (imm & 16) { /* acquire: waits while the count is 0 */
            if (*cnt == 0) {
                *stalled = true;
                return 0;
            }
            (*cnt)--;
        } else { /* release: a 4-bit counter; past 15 is a fault (the Guide
                  * stalls; nothing in the model could then release it) */
            if (*cnt == 15)
                return fault(s, CG_FAULT_BAD_STATE, "semaphore %u release past 15", n);
            (*cnt)++;
        }
        if ((imm & ~0x1fu) && (rc = diag(s, "semaphore instruction immediate 0x%08x: bits 31:5 "
                                            "are not 0", imm)))
            return rc;
        /* "otherwise behaves like a 32-bit load immediate" (Guide, quoted
         * in VC4C OpCodes.h) */
        for (int i = 0; i < LANES; i++)
            v[i] = imm;
        break;
    }
    default:
        return fault(s, CG_FAULT_INVALID_OPCODE, "reserved load-immediate mode %u", mode);
    }
    if (d->pm && d->pack && !vc4_qpu_packm[d->pack].name)
        return fault(s, CG_FAULT_INVALID_OPCODE, "reserved mul pack %u", d->pack);
    wr w[2];
    w[0].add = true;
    w[1].add = false;
    w[0].waddr = d->waddr_add;
    w[0].file = d->ws ? 1 : 0;
    w[0].mask = cond_mask(s, d->cond_add);
    w[0].v = v;
    w[1].waddr = d->waddr_mul;
    w[1].file = d->ws ? 0 : 1;
    w[1].mask = cond_mask(s, d->cond_mul);
    w[1].v = v;
    uint32_t pbuf[2][LANES];
    if (d->flags & D_PACK)
        pack_writes(s, d, w, pbuf, v, v, false, false);
    int rc = exec_writes(s, w, phys_a, phys_b, accw);
    if (rc)
        return rc;
    if (d->sf)
        set_flags(s, vload(v), vsplat(0), w[0].mask, false);
    return 0;
}

static int exec_branch(vc4_qpu_state *s, const vc4_qpu_dins *d, uint32_t addr,
                       uint32_t *phys_a, uint32_t *phys_b, uint8_t *accw)
{
    uint32_t c = d->bcond, raddr = d->braddr;
    int rc;
    if (d->flags & D_BAD)
        return fault(s, CG_FAULT_INVALID_OPCODE, "reserved branch condition %u", c);
    if (s->since_branch < 3)
        if ((rc = diag(s, "branch within two instructions of another branch")))
            return rc;
    if (s->end_wait >= 0)
        if ((rc = diag(s, "branch in the delay slots of a program end")))
            return rc;
    uint16_t f = 0;
    bool any = false, all = false;
    switch (c >> 2) {
    case 0: f = s->zf; break;
    case 1: f = s->nf; break;
    default: f = s->cf; break;
    }
    if (c != 15) {
        if (c & 1)
            f = (uint16_t)~f;
        any = f != 0;
        all = f == ALL_LANES;
    }
    bool taken = c == 15 || ((c & 2) ? any : all);
    s->since_branch = 0;
    if (!taken)
        return 0;
    uint32_t target = d->brel ? addr + 32 + d->imm : d->imm;
    if (d->breg) {
        if ((s->prev_phys >> raddr) & 1)
            if ((rc = diag(s, "branch reads ra%u, written by the previous instruction", raddr)))
                return rc;
        target += s->ra[raddr][15]; /* element 15 (addendum) */
    }
    /* link: the return address, after the three delay slots */
    uint32_t link[LANES];
    for (int i = 0; i < LANES; i++)
        link[i] = addr + 32;
    wr w[2];
    memset(w, 0, sizeof w);
    w[0].waddr = d->waddr_add;
    w[0].file = d->ws ? 1 : 0;
    w[1].waddr = d->waddr_mul;
    w[1].file = d->ws ? 0 : 1;
    for (int k = 0; k < 2; k++) {
        w[k].mask = ALL_LANES;
        w[k].v = link;
    }
    if ((rc = exec_writes(s, w, phys_a, phys_b, accw)))
        return rc;
    if (raddr & 1) /* an odd raddr_a sets the flags from the link value (addendum) */
        set_flags(s, vload(link), vsplat(0), ALL_LANES, false);
    s->branch_wait = 4; /* counts this instruction and its three delay slots */
    s->branch_target = target;
    return 0;
}


/* Would the instruction wait on another QPU? Checked before it issues, so a
 * blocked instruction has no effect (no uniform read, no write). */
#if defined(__GNUC__)
__attribute__((noinline, cold))
#endif
static bool blocks(vc4_qpu_state *s, const vc4_qpu_dins *d)
{
    if (d->kind == K_LDI) {
        if ((d->flags & D_SEM) && (d->imm & 16) && s->sems->count[d->imm & 15] == 0) {
            s->wait.kind = VC4_QPU_WAIT_SEM_ACQUIRE;
            s->wait.detail = d->imm & 15;
            return true;
        }
        return false;
    }
    if (d->kind != K_ALU || !s->units || s->units->mutex_owner < 0 ||
        s->units->mutex_owner == (int)s->qpu_num)
        return false;
    if (d->flags & D_MUTEXRD) {
        s->wait.kind = VC4_QPU_WAIT_MUTEX;
        s->wait.detail = (uint32_t)s->units->mutex_owner;
        return true;
    }
    return false;
}

#if defined(__GNUC__)
__attribute__((noinline, cold))
#endif
static int sig_effects(vc4_qpu_state *s, const vc4_qpu_dins *d)
{
    int rc = 0;
    uint32_t sig = d->sig;
    vc4_frag_batch *fb = s->frag;
    if (sig == VC4_QPU_SIG_COLOUR_LOAD || sig == VC4_QPU_SIG_COLOUR_LOAD_AND_PROGRAM_END) {
        dirty_acc(s, 4);
        for (int i = 0; i < LANES; i++)
            s->acc[4][i] = fb ? fb->tlb_color_in[i] : 0;
        if (!fb && (rc = diag(s, "colour load outside a fragment shader")))
            return rc;
    } else if (sig == VC4_QPU_SIG_COVERAGE_LOAD) {
        dirty_acc(s, 4);
        for (int i = 0; i < LANES; i++)
            s->acc[4][i] = fb ? fb->coverage_in[i] : 0;
        if (!fb && (rc = diag(s, "coverage load outside a fragment shader")))
            return rc;
    }
    if (sig == VC4_QPU_SIG_LOAD_TMU0 || sig == VC4_QPU_SIG_LOAD_TMU1) {
        /* "Any other instruction that results in r4 being written (that is,
         * TMU read, TLB read, SFU lookup) cannot occur in the two
         * instructions following an SFU lookup" (Guide, quoted in Mesa
         * vc4_qpu_validate.c); sfu_wait is 2 or 1 in those two */
        if (s->sfu_wait > 0 && s->sfu_wait < 3 &&
            (rc = diag(s, "%s writes r4 within two instructions of an SFU write",
                       vc4_qpu_sigs[sig].as)))
            return rc;
        /* the oldest result of that TMU lands in r4 for the next instruction */
        if ((rc = vc4__tmu_pop(s, (int)(sig - VC4_QPU_SIG_LOAD_TMU0), s->acc[4])))
            return rc;
        dirty_acc(s, 4);
    }
    return 0;
}

/* The rules of the last three instructions (thrend and its delay slots). */
#if defined(__GNUC__)
__attribute__((noinline, cold))
#endif
static int end_rules(vc4_qpu_state *s, const vc4_qpu_dins *d, bool is_end, uint32_t phys)
{
    int rc;
    if ((d->flags & D_UVREAD) &&
        (rc = diag(s, "uniform or varying read in the last three instructions")))
        return rc;
    /* ... nor "any kind of VPM, VDR, or VDW read or write" (Guide, quoted
     * in Mesa vc4_qpu_validate.c) */
    if ((d->flags & D_VPMRULE) &&
        (rc = diag(s, "VPM, VDR or VDW access in the last three instructions")))
        return rc;
    if (is_end && phys)
        if ((rc = diag(s, "program end instruction writes a register-file register")))
            return rc;
    return 0;
}

/* Execute the decoded instruction d at addr (one step). */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static int step_d(vc4_qpu_state *s, const vc4_qpu_dins *d, uint32_t addr)
{
    /* only a semaphore acquire, or an ALU read of the mutex while some QPU
     * holds it, can block */
    if ((d->flags & D_BLOCK) && blocks(s, d)) {
        s->stalls++;
        s->executed++; /* a stall cycle */
        return VC4_QPU_BLOCKED;
    }
    if (s->wait.kind) {
        s->wait.kind = VC4_QPU_WAIT_NONE;
        s->wait.detail = 0;
    }
    uint32_t sig = d->sig;
    uint32_t phys_a = 0, phys_b = 0;
    uint8_t accw = 0;
    bool stalled = false;
    rd r;
    r.r5_pending = false;
    int rc = 0;
    s->executed++;

    bool is_end = false;
    if (d->flags & D_SIGFX) {
        /* signals that stop here */
        switch (sig) {
        case VC4_QPU_SIG_SOFTWARE_BREAKPOINT:
            return fault(s, CG_FAULT_TRAP, "software breakpoint at 0x%08x", addr);
        case VC4_QPU_SIG_ALPHA_MASK_LOAD:
            return fault(s, CG_FAULT_UNSUPPORTED,
                         "not supported yet: loadam (alpha-mask load) at 0x%08x", addr);
        case VC4_QPU_SIG_WAIT_FOR_SCOREBOARD:
            if (s->executed <= 2 &&
                (rc = diag(s, "scoreboard wait in the first two instructions")))
                return rc;
            s->sbwait_done = true;
            break;
        default:
            break;
        }
        is_end = d->flags & D_END;
        if (is_end && s->end_wait >= 0 &&
            (rc = diag(s, "program end in the delay slots of a program end")))
            return rc;
        if (is_end && s->branch_wait > 0 &&
            (rc = diag(s, "program end in the delay slots of a branch")))
            return rc;
    }

    if (d->kind == K_ALU)
        rc = exec_alu(s, d, &phys_a, &phys_b, &accw, &r);
    else if (d->kind == K_LDI)
        rc = exec_ldi(s, d, &phys_a, &phys_b, &accw, &stalled);
    else if (d->kind == K_BRANCH)
        rc = exec_branch(s, d, addr, &phys_a, &phys_b, &accw);
    if (rc)
        return rc;
    if (stalled) /* semaphore: the same instruction again next cycle */
        return 0;

    if ((is_end || s->end_wait >= 0) && (rc = end_rules(s, d, is_end, phys_a | phys_b)))
        return rc;

    /* results that land at the end of this instruction */
    if (r.r5_pending) {
        memcpy(s->acc[5], r.r5, sizeof r.r5);
        dirty_acc(s, 5);
    }
    if ((d->flags & D_SIGFX) && (rc = sig_effects(s, d)))
        return rc;
    if (s->sfu_wait > 0 && --s->sfu_wait == 0) {
        memcpy(s->acc[4], s->sfu_result, sizeof s->sfu_result);
        dirty_acc(s, 4);
    }

    s->prev_phys = (uint64_t)phys_b << 32 | phys_a;
    s->prev_acc = accw;
    if (s->since_branch < 100)
        s->since_branch++;

    /* control flow: end after two delay slots, branch after three */
    if (s->end_wait >= 0) {
        if (s->end_wait == 0 || --s->end_wait == 0) {
            s->ended = true;
            return 0;
        }
    }
    if (is_end && s->end_wait < 0)
        s->end_wait = 2;
    if (s->branch_wait > 0 && --s->branch_wait == 0) {
        s->pc = s->branch_target;
        return 0;
    }
    s->pc = addr + 8;
    return 0;
}


/* Write k (add 0, mul 1) of a D_FAST instruction: v to the lanes of m of
 * its row or the TLB; the registers written go to *phys and *acc. */
static inline __attribute__((always_inline)) void fast_write(vc4_qpu_state *s,
                                                            const vc4_qpu_dins *d, int k,
                                                            row v, uint16_t m, uint64_t *phys,
                                                            uint8_t *acc)
{
    if (!m)
        return;
    if (d->wrow[k] != 0xff) {
        blend(row_ptr(s, d->wrow[k]), v, m);
        *phys |= d->pw[k];
        *acc |= d->acc[k];
    } else if (d->tlb[k]) {
        tlb_write(s->frag, d->tlb[k], v, m);
    }
}

/* Operand k (add a, add b, mul a, mul b) of a D_FAST instruction: a row of
 * the state, or the decoded small immediate. */
static inline __attribute__((always_inline)) row opnd(const uint32_t *rows,
                                                      const vc4_qpu_dins *d, int k)
{
    return vload(d->src[k] == SRC_IMM ? d->immv : rows + 16 * d->src[k]);
}

/* An instruction of the common shape (D_FAST): operands straight from the
 * rows, both ALUs, writes to plain rows, flags: what exec_alu does for it,
 * without the cases it cannot have. Returns the physical registers written
 * (prev_phys's layout) and the accumulators in *accw. The rows it may write
 * are already in s->dirty (vc4_qpu_prog.wdirty). */
static inline __attribute__((always_inline)) uint64_t alu_fast(vc4_qpu_state *s,
                                                               const vc4_qpu_dins *d,
                                                               uint8_t *accw)
{
    uint32_t op_add = d->op_add, op_mul = d->op_mul;
    uint32_t *rows = row_ptr(s, 0); /* rows 0-69, then zeros (70) */
    /* conditions from the flags before this instruction's */
    uint16_t madd = op_add ? cond_mask(s, d->cond_add) : 0;
    uint16_t mmul = op_mul ? cond_mask(s, d->cond_mul) : 0;
    row res_a, res_m;
    if (op_add) {
        row a = opnd(rows, d, 0), b = opnd(rows, d, 1);
        res_a = add_op(op_add, a, b);
        if (d->sf) /* flags from the add ALU unless it is nop (addendum) */
            set_flags(s, res_a, add_carry(op_add, a, b, res_a), madd, d->add_rfl);
    } else {
        res_a = vsplat(0);
    }
    if (op_mul) {
        row a = opnd(rows, d, 2), b = opnd(rows, d, 3);
        res_m = mul_op(op_mul, a, b);
        if (d->sf && !op_add)
            set_flags(s, res_m, mul_carry(op_mul, a, b, res_m), mmul, d->mul_fl);
    } else {
        res_m = vsplat(0);
    }
    uint64_t phys = 0;
    uint8_t acc = 0;
    fast_write(s, d, 0, res_a, madd, &phys, &acc);
    fast_write(s, d, 1, res_m, mmul, &phys, &acc);
    *accw = acc;
    return phys;
}

/* A D_FAST instruction by its shape (decoded): what alu_fast does, with
 * the ops, conditions and written registers of the plain shapes fixed at
 * decode. Returns the physical registers written, *accw the accumulators.
 * Both ALUs read their operands before either writes. */
static inline __attribute__((always_inline)) uint64_t run_shape(vc4_qpu_state *s,
                                                                const vc4_qpu_dins *d,
                                                                uint8_t *accw)
{
    uint32_t *rows = row_ptr(s, 0);
    switch (d->shape) {
    case SH_GEN:
        return alu_fast(s, d, accw);
    case SH_LDI: { /* both writes take the value, each under its condition */
        row v = vload(d->immv);
        uint64_t phys = 0;
        uint8_t acc = 0;
        fast_write(s, d, 0, v, cond_mask(s, d->cond_add), &phys, &acc);
        fast_write(s, d, 1, v, cond_mask(s, d->cond_mul), &phys, &acc);
        *accw = acc;
        return phys;
    }
    case SH_LDI_TLB: /* SH_LDI with the one write fixed at decode */
        tlb_write(s->frag, d->tlb[0], vload(d->immv), ALL_LANES);
        *accw = 0;
        return 0;
#define ONE(sh, fn, op, w, k)                                                             \
    case sh##_R:                                                                          \
        vstore(rows + 16 * d->wrow[w], fn(op, vload(rows + 16 * d->src[k]),               \
                                          vload(rows + 16 * d->src[k + 1])));             \
        break;                                                                            \
    case sh##_I:                                                                          \
        vstore(rows + 16 * d->wrow[w], fn(op, vload(rows + 16 * d->src[k]),               \
                                          vsplat(d->imm)));                               \
        break;                                                                            \
    case sh##_G:                                                                          \
        vstore(rows + 16 * d->wrow[w], fn(op, opnd(rows, d, k), opnd(rows, d, k + 1)));   \
        break;
#define X(a) ONE(SH_A_##a, add_op, VC4_QPU_A_##a, 0, 0)
        SHAPE_ADD(X)
#undef X
#define X(m) ONE(SH_M_##m, mul_op, VC4_QPU_M_##m, 1, 2)
        SHAPE_MUL(X)
#undef X
#undef ONE
#define X(a, m)                                                                           \
    case SH_AM_##a##_##m: {                                                               \
        row ra_ = add_op(VC4_QPU_A_##a, opnd(rows, d, 0), opnd(rows, d, 1));              \
        row rm_ = mul_op(VC4_QPU_M_##m, opnd(rows, d, 2), opnd(rows, d, 3));              \
        vstore(rows + 16 * d->wrow[0], ra_);                                              \
        vstore(rows + 16 * d->wrow[1], rm_);                                              \
        break;                                                                            \
    }
        SHAPE_PAIR(X)
#undef X
    default: /* SH_NOP */
        break;
    }
    *accw = d->shape_acc;
    return d->shape_phys;
}

#if defined(__GNUC__)
__attribute__((noinline))
#endif
static uint64_t run_shape_call(vc4_qpu_state *s, const vc4_qpu_dins *d, uint8_t *accw)
{
    return run_shape(s, d, accw);
}

/* The back-to-back read rule for a D_FAST instruction (the diagnostics
 * exec_alu gives, in its order). */
#if defined(__GNUC__)
__attribute__((noinline, cold))
#endif
static int fast_rules(vc4_qpu_state *s, const vc4_qpu_dins *d)
{
    int rc;
    if ((s->prev_phys & d->rd_a) &&
        (rc = diag(s, "reads r%c%u, written by the previous instruction", 'a', d->raddr_a)))
        return rc;
    if (((s->prev_phys >> 32) & d->rd_b) &&
        (rc = diag(s, "reads r%c%u, written by the previous instruction", 'b', d->raddr_b)))
        return rc;
    return 0;
}

/* Run up to max instructions (vc4_qpu_run_slice), this level's build.
 *
 * Kept as one function of more than 100 lines, against the rule for
 * src/vc4/gpu: it is the interpreter's hot loop, its locals (pc, the counts,
 * prev_phys, land, end_wait, quiet, last) live in registers across its
 * three fast paths and the slow step, and every split tried cost
 * instructions. Issue 28 split it into always-inline paths over a struct of
 * those locals (slice_straight, slice_fast_one, slice_branch, slice_slow):
 * bench_vc4_qpu_compute then ran 1.221 G host instructions under callgrind
 * instead of 1.138 G (GCC 12 stopped inlining row_special); with
 * row_special forced inline, 1.149 G, and with the straight run left here,
 * 1.149 G still. */
int SLICE_FN(vc4_qpu_state *s, uint64_t max, uint64_t *insns)
{
    uint64_t n = 0;
    int rc = 0;
    vc4_qpu_dins tmp;
    /* the decoded program in use (none: start 0, n 0); a fetch from memory
     * may append to it. The fast path writes only rows its instructions
     * name: they are marked dirty once here (and after an append). */
    vc4_qpu_prog *pg = s->prog;
    const vc4_qpu_dins *pd = pg ? pg->d : NULL;
    uint32_t pstart = pg ? pg->start : 0, pn = pg ? pg->n : 0;
    if (pg) { /* (one word at a time: see FRAG_FN) */
        s->dirty[0] |= pg->wdirty[0];
        if (pg->wdirty[1])
            s->dirty[1] |= pg->wdirty[1];
    }
    if (s->ended)
        goto out;
    /* What the fast path changes besides the rows and flags, kept in locals
     * between the slow steps (step_d sees and changes the state). Counts
     * are kept as instruction numbers of this slice (n) so a straight run
     * does not update them: executed = e0 + n; since_branch = n - sb_n
     * (saturated at 100); a pending branch lands when n reaches `land`
     * (NOLAND: none; branch_wait = land - n). */
#define NOLAND UINT64_MAX
    uint32_t pc = s->pc;
    uint64_t e0 = s->executed, prev_phys = s->prev_phys;
    int64_t sb_n = -(int64_t)s->since_branch;
    uint64_t land = s->branch_wait > 0 ? (uint64_t)s->branch_wait : NOLAND;
    int end_wait = s->end_wait;
    uint8_t prev_acc = s->prev_acc;
#define SYNC_OUT()                                                                      \
    (s->pc = pc, s->executed = e0 + n, s->prev_phys = prev_phys,                        \
     s->since_branch = (int)((int64_t)n - sb_n < 100 ? (int64_t)n - sb_n : 100),        \
     s->branch_wait = land == NOLAND ? 0 : (int)(land - n), s->prev_acc = prev_acc,     \
     s->end_wait = end_wait)
#define SYNC_IN()                                                                       \
    (pc = s->pc, e0 = s->executed - n, prev_phys = s->prev_phys,                        \
     sb_n = (int64_t)n - s->since_branch,                                               \
     land = s->branch_wait > 0 ? n + (uint64_t)s->branch_wait : NOLAND,                 \
     prev_acc = s->prev_acc, end_wait = s->end_wait)
    /* nothing pending that the fast path does not handle: no SFU result or
     * program end on the way, no wait (these change only in step_d and
     * around a program end) */
    bool quiet = !(s->sfu_wait | s->wait.kind) && end_wait < 0;
    /* TLB writes are fast in a fragment shader only */
    uint32_t tlbx = s->frag ? 0 : D_TLBW;
    /* The agent (fault records: address and words of the instruction) is
     * set before anything that may raise a fault or read memory; after the
     * fast path it is set at the end (`last`, the last instruction it ran),
     * so it reads as if set at every fetch. */
    const vc4_qpu_dins *last = NULL;
    uint32_t last_addr = 0;
#define AGENT(d_, addr_)                                                                \
    (s->agent.stream_addr = (addr_), memcpy(s->agent.words, &(d_)->ins, 8),          \
     s->agent.nwords = 2, last = NULL) /* little-endian: low word first */
    while (n < max) {
        uint32_t addr = pc, off = addr - pstart;
        const vc4_qpu_dins *d, *dend;
        /* (off rotated: an unaligned offset is out of range) */
        if ((off >> 3 | off << 29) < pn) {
            d = &pd[off >> 3];
            dend = pd + pn;
        } else {
            s->agent.stream_addr = addr;
            s->agent.nwords = 0;
            last = NULL;
            d = vc4__qpu_fetch(s, addr, &tmp); /* sets the words */
            if (!d) {
                rc = CG_ERR_FAULT;
                break;
            }
            dend = d + 1; /* this one only */
            if (pg && pg->n != pn) {
                pd = pg->d, pn = pg->n;
                s->dirty[0] |= pg->wdirty[0], s->dirty[1] |= pg->wdirty[1];
            }
            if (d->flags & D_FAST) /* perhaps not in the program: its rows */
                for (int k = 0; k < 2; k++)
                    if (d->wrow[k] != 0xff)
                        dirty_row(s, d->wrow[k]);
        }
        uint32_t fl = d->flags;
        /* the common case: a straight run of ALU instructions of the common
         * shape while nothing is pending, up to the end of the decoded
         * code, a pending branch's landing or the slice's end; a program
         * end that writes nothing (not in a branch's delay slots) and its
         * two delay slots too */
        uint32_t im = D_FAST | D_ENDX | tlbx | (land == NOLAND ? 0 : D_END);
        if ((fl & im) == D_FAST && quiet) {
            const vc4_qpu_dins *d0 = d;
            uint64_t lim = land < max ? land : max, end_n = NOLAND;
            for (;;) {
                if (UNLIKELY(prev_phys & d->rd)) {
                    pc = addr + 8 * (uint32_t)(d - d0);
                    e0++; /* this instruction counts (executed) */
                    SYNC_OUT();
                    e0--;
                    AGENT(d, pc);
                    if ((rc = fast_rules(s, d))) {
                        e0++;
                        goto done;
                    }
                }
                prev_phys = run_shape(s, d, &prev_acc);
                n++, d++;
                if (UNLIKELY(fl & D_END)) { /* ends after two delay slots */
                    end_n = n + 2;
                    lim = end_n < lim ? end_n : lim;
                    im |= D_END; /* no end in them */
                }
                if (n >= lim || d >= dend || ((fl = d->flags) & im) != D_FAST)
                    break;
            }
            pc = addr + 8 * (uint32_t)(d - d0);
            last = d - 1, last_addr = pc - 8;
            if (end_n != NOLAND) {
                if (n == end_n) { /* pc stays at the last instruction */
                    pc -= 8;
                    s->ended = true;
                    break;
                }
                end_wait = (int)(end_n - n);
                quiet = false;
            }
            if (n == land) {
                pc = s->branch_target;
                land = NOLAND;
            }
            continue;
        }
        /* the same around a program end: the end itself (not in the delay
         * slots of a branch or of another end: step_d's diagnostics) and
         * its delay slots */
        if ((fl & (D_FAST | tlbx)) == D_FAST && !(s->sfu_wait | s->wait.kind) &&
            (!(fl & D_END) || (end_wait < 0 && land == NOLAND))) {
            AGENT(d, addr);
            if (prev_phys & d->rd) {
                e0++;
                SYNC_OUT();
                e0--;
                if ((rc = fast_rules(s, d))) {
                    e0++;
                    break;
                }
            }
            uint8_t accw;
            uint64_t phys = run_shape_call(s, d, &accw);
            if ((fl & D_END) && phys) { /* end_rules' one case here */
                e0++;
                SYNC_OUT();
                e0--;
                if ((rc = diag(s, "program end instruction writes a register-file register"))) {
                    e0++;
                    break;
                }
            }
            prev_phys = phys;
            prev_acc = accw;
            n++;
            /* control flow: end after two delay slots, branch after three */
            if (end_wait >= 0 && (end_wait == 0 || --end_wait == 0)) {
                s->ended = true;
                break;
            }
            if (fl & D_END)
                end_wait = 2;
            quiet = !(s->sfu_wait | s->wait.kind) && end_wait < 0;
            if (n == land) {
                pc = s->branch_target;
                land = NOLAND;
            } else {
                pc = addr + 8;
            }
            continue;
        }
        /* a branch without link, register or flags, away from other
         * branches (exec_branch's work) */
        if ((fl & D_FASTBR) && quiet && (int64_t)n - sb_n >= 3 && end_wait < 0) {
            last = d, last_addr = addr;
            uint32_t c = d->bcond;
            uint16_t f = c < 4 ? s->zf : c < 8 ? s->nf : s->cf;
            f = (uint16_t)(f ^ (0u - (c & 1)));
            bool taken = c == 15 || ((c & 2) ? f != 0 : f == ALL_LANES);
            prev_phys = 0;
            prev_acc = 0;
            sb_n = (int64_t)n; /* since_branch 1 after this one */
            n++;
            pc = addr + 8;
            if (taken) {
                s->branch_target = d->brel ? addr + 32 + d->imm : d->imm;
                land = n + 3; /* after the three delay slots */
            } else if (n == land) { /* in the last delay slot of another branch */
                pc = s->branch_target;
                land = NOLAND;
            }
            continue;
        }
        SYNC_OUT();
        AGENT(d, addr);
        s->slow = true; /* any field may change: reinit clears them all */
        rc = step_d(s, d, addr);
        SYNC_IN();
        if (rc)
            break;
        /* step_d counted this instruction in s->executed and since_branch */
        n++;
        e0--;
        sb_n++;
        if (land != NOLAND)
            land++;
        if ((d->flags & D_SHARED) || s->ended)
            break;
        quiet = !(s->sfu_wait | s->wait.kind) && end_wait < 0;
    }
done:
    SYNC_OUT();
    if (last)
        AGENT(last, last_addr);
#undef SYNC_OUT
#undef SYNC_IN
#undef AGENT
#undef NOLAND
out:
    *insns = n;
    return rc;
}

/* A fragment batch's start: the payload and outputs of b (for a state
 * just reset: reinit or vc4_qpu_init), then, when the program in use
 * (s->prog) is one that vc4__qpu_straight finds to be one straight run
 * (every instruction from the start D_FAST, the program end (SH_NOP) and
 * its two delay slots among them, no instruction reading a register the one
 * before it may write), the run itself. SLICE_FN would run such a program
 * from such a state (nothing pending, no branch, end or SFU result on the
 * way, prev_phys 0, pc at the program's start, s->frag set) as one
 * straight run of its inner loop and leave the state as below; this is
 * that run without the slice's set-up and exit (its locals, the outer loop,
 * SYNC_OUT's arithmetic) and without the back-to-back read test, which the
 * analysis did once. The instructions run through run_shape, the one
 * handler of each shape; the SH_NOP ones after the last that is not (the
 * end and its delay slots, usually) do nothing there but count. False: the
 * payload is set, the program is not run (no such program, or the budget
 * ends before the program does: the slices then run it and report the
 * hang). */
bool FRAG_FN(vc4_qpu_state *s, vc4_frag_batch *b, uint64_t budget)
{
    vc4_qpu_prog *pg = s->prog;
    uint32_t n = 0;
    if (pg) {
        n = pg->st_n == pg->n ? pg->straight : vc4__qpu_straight(pg);
        if (budget < n)
            n = 0;
    }
    s->frag = b;
    if (b->sems)
        s->sems = b->sems;
    /* the fragment payload: ra15 = W, rb15 = Z (research/vc4.md section 3);
     * not for a straight program that reads neither (nothing else can see
     * them: the state is the cache's, and any run that may read them gets
     * them here; reinit leaves them alone) */
    if (n == 0 || pg->pay15) {
        vstore(s->ra[15], vload(b->frag_w));
        vstore(s->rb[15], vload(b->frag_z));
    }
    /* the dirty rows: ra15, rb15 and the program's (below), in scalar
     * stores one word at a time (a 16-byte load of dirty[] right after an
     * 8-byte store to it cannot be forwarded: it stalled here) */
    uint64_t dirty0 = s->dirty[0] | 1ull << 15 | 1ull << (32 + 15);
    vstore(b->ms_flags, vsplat(0));
    blend(b->ms_flags, vsplat(15), b->mask);
    /* outputs start empty for each batch */
    b->color_mask = b->z_mask = b->ms_mask_written = b->alpha_mask_written = 0;
    b->stencil_writes = 0;
    if (n == 0) {
        s->dirty[0] = dirty0;
        return false;
    }
    s->dirty[0] = dirty0 | pg->wdirty[0];
    if (pg->wdirty[1])
        s->dirty[1] |= pg->wdirty[1];
    const vc4_qpu_dins *d = pg->d, *work = d + pg->work, *end = d + n;
    uint64_t phys = end[-1].shape_phys; /* an SH_NOP's (run_shape) */
    uint8_t acc = end[-1].shape_acc;
    for (; d < work; d++)
        phys = run_shape(s, d, &acc);
    /* SLICE_FN's state after the run: pc at the last delay slot, counts */
    s->pc = pg->start + 8 * (n - 1);
    s->executed += n;
    s->prev_phys = phys;
    s->prev_acc = acc;
    s->since_branch = s->since_branch + (int)n < 100 ? s->since_branch + (int)n : 100;
    s->ended = true;
    s->agent.stream_addr = s->pc;
    s->agent.words[0] = (uint32_t)end[-1].ins; /* the low word first, as fetched */
    s->agent.words[1] = (uint32_t)(end[-1].ins >> 32);
    s->agent.nwords = 2;
    return true;
}
