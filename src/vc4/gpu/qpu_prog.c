/* vc4 QPU: decoding instructions (once, into vc4_qpu_dins) and the program
 * cache (decoded programs by start address, compared with memory before
 * use), shared by every vector level's kernels (qpu_run.c). */
#include "qpu_int.h"


/* What FRAG_FN may run (see there), for the first pg->n instructions: the
 * number of instructions of a run from the start, 0 if it is not one
 * straight run. */
uint32_t vc4__qpu_straight(vc4_qpu_prog *pg)
{
    pg->st_n = pg->n;
    pg->straight = 0;
    uint64_t prevw = 0; /* the registers the instruction before may write */
    for (uint32_t i = 0; i < pg->n; i++) {
        const vc4_qpu_dins *d = &pg->d[i];
        if ((d->flags & (D_FAST | D_ENDX)) != D_FAST || (d->rd & prevw))
            return 0;
        prevw = d->pw[0] | d->pw[1];
        if (d->flags & D_END) { /* two delay slots, without another end */
            for (uint32_t k = i + 1; k <= i + 2; k++) {
                if (k >= pg->n)
                    return 0;
                d = &pg->d[k];
                if ((d->flags & (D_FAST | D_ENDX | D_END)) != D_FAST || (d->rd & prevw))
                    return 0;
                prevw = d->pw[0] | d->pw[1];
            }
            pg->work = i + 3;
            while (pg->work > 0 && pg->d[pg->work - 1].shape == SH_NOP)
                pg->work--;
            pg->pay15 = false;
            for (uint32_t k = 0; k < i + 3; k++) /* (reads as the ports do) */
                pg->pay15 |= (pg->d[k].rd & (1ull << 15 | 1ull << (32 + 15))) != 0;
            return pg->straight = i + 3;
        }
    }
    return 0;
}

static uint8_t classify(uint64_t ins)
{
    uint32_t sig = VC4_QPU_GET(ins, ALU, sig);
    if (sig == VC4_QPU_SIG_LOAD_IMMEDIATE)
        return K_LDI;
    if (sig == VC4_QPU_SIG_BRANCH)
        return K_BRANCH;
    /* both ops nop and nothing read: only the signal matters */
    if (VC4_QPU_GET(ins, ALU, op_mul) || VC4_QPU_GET(ins, ALU, op_add) ||
        VC4_QPU_GET(ins, ALU, pm) ||
        VC4_QPU_GET(ins, ALU, raddr_a) != VC4_QPU_R_NOP ||
        (sig != VC4_QPU_SIG_SMALL_IMMEDIATE && VC4_QPU_GET(ins, ALU, raddr_b) != VC4_QPU_R_NOP))
        return K_ALU;
    return K_SIGNAL;
}

static bool is_float_add(uint32_t op)
{
    return op >= VC4_QPU_A_FADD && op <= VC4_QPU_A_FTOI; /* float inputs */
}

static bool io_kind_is(uint32_t kind, bool write)
{
    return kind == VC4_QPU_IO_MUTEX || kind == VC4_QPU_IO_VPM ||
           (write && kind == VC4_QPU_IO_HOSTINT);
}

/* the bits a write to waddr of `file` sets in the physical-write sets */
static void write_bits(uint32_t waddr, int file, uint32_t *pa, uint32_t *pb, uint8_t *acc)
{
    if (waddr == VC4_QPU_W_NOP)
        return;
    if (waddr < 32)
        *(file ? pb : pa) |= 1u << waddr;
    else if (waddr <= 35)
        *acc |= (uint8_t)(1u << (waddr - 32));
    else if (waddr == 37)
        *acc |= 1u << 5;
}

/* The handler of a D_FAST ALU instruction (enum shape). A side (add, mul)
 * with an op is idle when its result goes nowhere: condition never or no
 * write, and no setf. */
static void decode_shape(vc4_qpu_dins *d)
{
    d->shape = SH_GEN;
    if (d->sf)
        return;
    uint32_t op[2] = {d->op_add, d->op_mul}, cond[2] = {d->cond_add, d->cond_mul};
    bool on[2];
    for (int k = 0; k < 2; k++) {
        on[k] = op[k] && cond[k] != VC4_QPU_COND_NEVER && (d->wrow[k] != 0xff || d->tlb[k]);
        if (on[k] && (cond[k] != VC4_QPU_COND_ALWAYS || d->tlb[k]))
            return; /* a condition on the flags, a TLB write: alu_fast */
        if (on[k]) {
            d->shape_phys |= d->pw[k];
            d->shape_acc |= d->acc[k];
        }
    }
    uint32_t a = on[0] ? op[0] : 0, m = on[1] ? op[1] : 0;
    uint8_t sh = SH_GEN;
    /* the operand form of a single op (its operands k, k + 1): 0 _R, 1 _I,
     * 2 _G (the enum's order) */
    int k = a ? 0 : 2;
    int form = d->src[k] == SRC_IMM ? 2 : d->src[k + 1] == SRC_IMM ? 1 : 0;
    if (!a && !m)
        sh = SH_NOP;
    else if (!m)
        switch (a) {
#define X(o) case VC4_QPU_A_##o: sh = (uint8_t)(SH_A_##o##_R + form); break;
            SHAPE_ADD(X)
#undef X
        default: break;
        }
    else if (!a)
        switch (m) {
#define X(o) case VC4_QPU_M_##o: sh = (uint8_t)(SH_M_##o##_R + form); break;
            SHAPE_MUL(X)
#undef X
        default: break;
        }
    else {
#define X(oa, om) \
        if (a == VC4_QPU_A_##oa && m == VC4_QPU_M_##om) \
            sh = SH_AM_##oa##_##om;
        SHAPE_PAIR(X)
#undef X
    }
    d->shape = sh;
    if (sh == SH_GEN)
        d->shape_phys = 0, d->shape_acc = 0;
}

/* The rows (wrow) and TLB writes (tlb) of an ALU or load-immediate
 * instruction's two writes; *plain false unless both go to plain rows or
 * nowhere, not to one row. True if the writes suit D_FAST: plain, or TLB
 * colour, Z or alpha-mask writes (not both to one of them). */
static bool fast_writes(vc4_qpu_dins *d, int fa, int fm, bool *plain)
{
    bool fastw = *plain;
    for (int k = 0; k < 2; k++) {
        uint32_t wa = k ? d->waddr_mul : d->waddr_add;
        int file = k ? fm : fa;
        d->wrow[k] = 0xff;
        if (wa < 32) {
            d->wrow[k] = (uint8_t)(file * 32 + wa);
        } else if (wa <= 35) {
            d->wrow[k] = (uint8_t)(64 + wa - 32);
        } else if (wa != VC4_QPU_W_NOP) {
            *plain = false;
            d->tlb[k] = (uint8_t)tlbw_of(vc4_qpu_waddrs[wa].kind[file]);
            if (!d->tlb[k])
                fastw = false;
        }
    }
    if (d->wrow[0] != 0xff && d->wrow[0] == d->wrow[1])
        *plain = false, fastw = false; /* both write one row: the diagnostic path */
    if (d->tlb[0] && d->tlb[1] && d->waddr_add == d->waddr_mul)
        fastw = false; /* likewise */
    return fastw;
}

/* The ALU instruction word's fields (the load immediate and branch words
 * share some of their positions: decode_ldi and decode_branch read theirs). */
static void decode_fields(uint64_t ins, uint32_t sig, vc4_qpu_dins *d)
{
    d->sig = (uint8_t)sig;
    d->cond_add = (uint8_t)VC4_QPU_GET(ins, ALU, cond_add);
    d->cond_mul = (uint8_t)VC4_QPU_GET(ins, ALU, cond_mul);
    d->waddr_add = (uint8_t)VC4_QPU_GET(ins, ALU, waddr_add);
    d->waddr_mul = (uint8_t)VC4_QPU_GET(ins, ALU, waddr_mul);
    d->ws = (uint8_t)VC4_QPU_GET(ins, ALU, ws);
    d->sf = (uint8_t)VC4_QPU_GET(ins, ALU, sf);
    d->pm = (uint8_t)VC4_QPU_GET(ins, ALU, pm);
    d->pack = (uint8_t)VC4_QPU_GET(ins, ALU, pack);
    d->unpack = (uint8_t)VC4_QPU_GET(ins, ALU, unpack);
    d->op_add = (uint8_t)VC4_QPU_GET(ins, ALU, op_add);
    d->op_mul = (uint8_t)VC4_QPU_GET(ins, ALU, op_mul);
    d->raddr_a = (uint8_t)VC4_QPU_GET(ins, ALU, raddr_a);
    d->raddr_b = (uint8_t)VC4_QPU_GET(ins, ALU, raddr_b);
    d->mux[0] = (uint8_t)VC4_QPU_GET(ins, ALU, add_a);
    d->mux[1] = (uint8_t)VC4_QPU_GET(ins, ALU, add_b);
    d->mux[2] = (uint8_t)VC4_QPU_GET(ins, ALU, mul_a);
    d->mux[3] = (uint8_t)VC4_QPU_GET(ins, ALU, mul_b);
}

/* What the signal does (D_SIGFX, D_END), and the rules of the last three
 * instructions (see the step): uniform and varying reads, VPM access. */
static uint32_t decode_rules(const vc4_qpu_dins *d, uint32_t sig, bool simm, bool ldi, bool br)
{
    uint32_t f = 0;
    switch (sig) {
    case VC4_QPU_SIG_SOFTWARE_BREAKPOINT:
    case VC4_QPU_SIG_ALPHA_MASK_LOAD:
    case VC4_QPU_SIG_WAIT_FOR_SCOREBOARD:
    case VC4_QPU_SIG_COVERAGE_LOAD:
    case VC4_QPU_SIG_COLOUR_LOAD:
    case VC4_QPU_SIG_LOAD_TMU0:
    case VC4_QPU_SIG_LOAD_TMU1:
        f |= D_SIGFX;
        break;
    case VC4_QPU_SIG_PROGRAM_END:
    case VC4_QPU_SIG_COLOUR_LOAD_AND_PROGRAM_END:
        f |= D_SIGFX | D_END;
        break;
    default:
        break;
    }
    if (!ldi && !br) {
        uint32_t ra = d->raddr_a, rb = d->raddr_b;
        if (ra == VC4_QPU_R_UNIFORM_READ || ra == VC4_QPU_R_VARYING_READ ||
            (!simm && (rb == VC4_QPU_R_UNIFORM_READ || rb == VC4_QPU_R_VARYING_READ)))
            f |= D_UVREAD;
    }
    if (!br) {
        uint32_t wa = d->waddr_add, wm = d->waddr_mul;
        bool vpm = (wa >= VC4_QPU_W_VPM_WRITE && wa <= VC4_QPU_W_VPM_LD_ADDR) ||
                   (wm >= VC4_QPU_W_VPM_WRITE && wm <= VC4_QPU_W_VPM_LD_ADDR);
        if (!ldi) {
            uint32_t ra = d->raddr_a, rb = d->raddr_b;
            vpm |= ra >= VC4_QPU_R_VPM_READ && ra <= VC4_QPU_R_VPM_LD_WAIT;
            vpm |= !simm && rb >= VC4_QPU_R_VPM_READ && rb <= VC4_QPU_R_VPM_LD_WAIT;
        }
        if (vpm)
            f |= D_VPMRULE;
    }
    return f;
}

/* A load immediate: its value per element, semaphores; fa, fm: the files of
 * the add and mul writes; f: the flags so far. */
static uint32_t decode_ldi(uint64_t ins, vc4_qpu_dins *d, int fa, int fm, uint32_t f)
{
    d->imm = VC4_QPU_GET(ins, LDI, imm);
    d->ldi_mode = (uint8_t)VC4_QPU_GET(ins, LDI, unpack);
    if (d->ldi_mode == VC4_QPU_LDI_SEMAPHORE) {
        f |= D_SEM | D_SHARED;
        if (d->imm & 16)
            f |= D_BLOCK;
    }
    if (d->pack)
        f |= D_PACK;
    if (d->ldi_mode != VC4_QPU_LDI_SEMAPHORE && vc4_qpu_ldis[d->ldi_mode].name) {
        /* the value per element (exec_ldi's and SH_LDI's) */
        for (int i = 0; i < LANES; i++) {
            uint32_t x = d->imm;
            if (d->ldi_mode != VC4_QPU_LDI_LOAD_32) {
                /* element i: LSB from bit i, MSB from bit 16+i (vc4asm
                 * Disassembler.cpp) */
                x = ((d->imm >> i) & 1) | (((d->imm >> (16 + i)) & 1) << 1);
                if (d->ldi_mode == VC4_QPU_LDI_PER_ELEMENT_SIGNED && (x & 2))
                    x |= 0xfffffffcu;
            }
            d->immv[i] = x;
        }
        bool plain = !d->pack;
        if (fast_writes(d, fa, fm, &plain) && !d->pack && !d->sf) {
            f |= D_FAST | (d->tlb[0] | d->tlb[1] ? D_TLBW : 0);
            d->shape = SH_LDI;
            if (d->cond_add == VC4_QPU_COND_ALWAYS && d->wrow[0] == 0xff && d->tlb[0] &&
                ((d->wrow[1] == 0xff && !d->tlb[1]) || d->cond_mul == VC4_QPU_COND_NEVER))
                d->shape = SH_LDI_TLB;
        }
    }
    return f;
}

/* A branch: its fields; the branches the slice loop runs itself (D_FASTBR). */
static uint32_t decode_branch(uint64_t ins, vc4_qpu_dins *d, uint32_t f)
{
    d->imm = VC4_QPU_GET(ins, BRANCH, imm);
    d->bcond = (uint8_t)VC4_QPU_GET(ins, BRANCH, cond_br);
    d->brel = (uint8_t)VC4_QPU_GET(ins, BRANCH, rel);
    d->breg = (uint8_t)VC4_QPU_GET(ins, BRANCH, reg);
    d->braddr = (uint8_t)VC4_QPU_GET(ins, BRANCH, raddr_a);
    d->ws = (uint8_t)VC4_QPU_GET(ins, BRANCH, ws);
    if (!vc4_qpu_bconds[d->bcond].name)
        f |= D_BAD;
    else if (d->waddr_add == VC4_QPU_W_NOP && d->waddr_mul == VC4_QPU_W_NOP &&
             !d->breg && !(d->braddr & 1) && !(f & (D_SIGFX | D_SHARED)))
        f |= D_FASTBR;
    return f;
}

/* An ALU instruction: its reads, what makes it slow or bad, and whether it
 * is of the common shape (D_FAST: its operand rows, decode_shape). */
static uint32_t decode_alu(vc4_qpu_dins *d, uint32_t sig, bool simm, int fa, int fm, uint32_t f)
{
    uint32_t op_add = d->op_add, op_mul = d->op_mul;
    if (simm) {
        f |= D_SIMM;
        d->imm = vc4_qpu_smallimm_bits[d->raddr_b];
    }
    if (d->raddr_a < 32)
        d->rd_a = 1u << d->raddr_a;
    else if (vc4_qpu_raddrs[d->raddr_a].kind[0] == VC4_QPU_IO_NOP)
        f |= D_ZA;
    else if (io_kind_is(vc4_qpu_raddrs[d->raddr_a].kind[0], false))
        f |= D_SHARED;
    if (!simm && d->raddr_b < 32)
        d->rd_b = 1u << d->raddr_b;
    else if (!simm && vc4_qpu_raddrs[d->raddr_b].kind[1] == VC4_QPU_IO_NOP)
        f |= D_ZB;
    else if (!simm && io_kind_is(vc4_qpu_raddrs[d->raddr_b].kind[1], false))
        f |= D_SHARED;
    if (d->raddr_a == VC4_QPU_R_MUTEX_ACQUIRE ||
        (!simm && d->raddr_b == VC4_QPU_R_MUTEX_ACQUIRE))
        f |= D_MUTEXRD | D_BLOCK;
    d->add_fl = is_float_add(op_add);
    d->add_rfl = (d->add_fl && op_add != VC4_QPU_A_FTOI) || op_add == VC4_QPU_A_ITOF;
    d->mul_fl = op_mul == VC4_QPU_M_FMUL;
    for (int k = 0; k < 4; k++) {
        bool used = k < 2 ? op_add != 0 : op_mul != 0;
        if (used && d->mux[k] == 4)
            f |= D_R4;
        if (used && d->unpack &&
            ((d->mux[k] == 4 && d->pm) || (d->mux[k] == 6 && !d->pm)))
            f |= D_SLOW;
    }
    if (simm && d->raddr_b >= 48 && op_mul)
        f |= D_SLOW;
    if ((op_add && !vc4_qpu_add_ops[op_add].name) ||
        (d->pm && d->pack && !vc4_qpu_packm[d->pack].name))
        f |= D_BAD;
    if (d->pack)
        f |= D_PACK;
    bool plain = !(f & D_PACK);
    bool fastw = fast_writes(d, fa, fm, &plain);
    if (plain)
        f |= D_PLAINW;
    d->rd = (uint64_t)d->rd_b << 32 | d->rd_a;
    bool rows = (d->raddr_a < 32 || (f & D_ZA)) &&
                (simm || d->raddr_b < 32 || (f & D_ZB));
    /* program end (thrend) has nothing of its own at the end of the
     * instruction; the slice loop keeps the end's count */
    bool sigok = !(f & D_SIGFX) || sig == VC4_QPU_SIG_PROGRAM_END;
    if (fastw && rows && sigok &&
        !(f & (D_BAD | D_SLOW | D_PACK | D_BLOCK | D_SHARED | D_UVREAD | D_VPMRULE |
               D_MUTEXRD))) {
        f |= D_FAST | (d->tlb[0] | d->tlb[1] ? D_TLBW : 0);
        for (int k = 0; k < 4; k++) {
            uint32_t m = d->mux[k];
            if (m < 6)
                d->src[k] = (uint8_t)(64 + m);
            else if (m == 6)
                d->src[k] = d->raddr_a < 32 ? d->raddr_a : SRC_ZERO;
            else
                d->src[k] = simm ? SRC_IMM : d->raddr_b < 32 ? (uint8_t)(32 + d->raddr_b)
                                                             : SRC_ZERO;
        }
        if (simm)
            for (int i = 0; i < LANES; i++)
                d->immv[i] = d->imm;
        decode_shape(d);
    }
    return f;
}

static void decode(uint64_t ins, vc4_qpu_dins *d)
{
    memset(d, 0, sizeof *d);
    d->ins = ins;
    d->kind = classify(ins);
    uint32_t sig = VC4_QPU_GET(ins, ALU, sig);
    decode_fields(ins, sig, d);
    int fa = d->ws ? 1 : 0, fm = d->ws ? 0 : 1; /* files of the add and mul writes */
    bool simm = sig == VC4_QPU_SIG_SMALL_IMMEDIATE;
    bool ldi = d->kind == K_LDI, br = d->kind == K_BRANCH;
    uint32_t f = decode_rules(d, sig, simm, ldi, br);
    /* writes: physical registers, shared units */
    write_bits(d->waddr_add, fa, &d->pa[0], &d->pb[0], &d->acc[0]);
    write_bits(d->waddr_mul, fm, &d->pa[1], &d->pb[1], &d->acc[1]);
    for (int k = 0; k < 2; k++)
        d->pw[k] = (uint64_t)d->pb[k] << 32 | d->pa[k];
    if ((d->waddr_add >= 32 && io_kind_is(vc4_qpu_waddrs[d->waddr_add].kind[fa], true)) ||
        (d->waddr_mul >= 32 && io_kind_is(vc4_qpu_waddrs[d->waddr_mul].kind[fm], true)))
        f |= D_SHARED;
    if (ldi)
        f = decode_ldi(ins, d, fa, fm, f);
    else if (br)
        f = decode_branch(ins, d, f);
    else if (d->kind == K_ALU)
        f = decode_alu(d, sig, simm, fa, fm, f);
    if (d->kind == K_SIGNAL && !(f & (D_BLOCK | D_SHARED)) &&
        (!(f & D_SIGFX) || sig == VC4_QPU_SIG_PROGRAM_END))
        f |= D_FAST; /* nothing but the step itself (both ops nop: no write):
                      * SH_NOP (0 after the memset is SH_GEN: set below) */
    if (d->kind == K_SIGNAL) {
        d->shape = SH_NOP;
        d->wrow[0] = d->wrow[1] = 0xff; /* (no row: none is marked dirty) */
    }
    if ((f & D_END) && !((f & D_FAST) && d->shape == SH_NOP))
        f |= D_ENDX;
    d->flags = f;
}

/* Compare the cached code with memory: the program keeps the instructions
 * before the first changed byte. False (and nothing kept) when some page
 * cannot be read directly (unmapped, or with CPU-cached lines the coherency
 * model must check at every fetch): then this run must not use the cache. */
static bool prog_validate(vc4_qpu_prog *pg, cg_vas *bus)
{
    uint64_t len = 8ull * pg->n, off = 0;
    while (off < len) {
        uint8_t *p;
        size_t got = cg__vas_span(bus, (uint64_t)pg->start + off, (size_t)(len - off), false, &p);
        if (got == 0) {
            pg->n = 0;
            pg->vpm = false;
            pg->use_n = pg->st_n = UINT32_MAX;
            return false;
        }
        if (memcmp(p, pg->bytes + off, got) != 0) {
            size_t i = 0;
            while (p[i] == pg->bytes[off + i])
                i++;
            pg->n = (uint32_t)((off + i) / 8);
            pg->use_n = pg->st_n = UINT32_MAX;
            return true;
        }
        off += got;
    }
    return true;
}


vc4_qpu_prog *vc4__qpu_prog_find(vc4_qpu_cache *c, cg_vas *bus, uint32_t start)
{
    vc4_qpu_prog *pg = c->mru, *lru = &c->prog[0];
    if (!(pg && pg->cap && pg->start == start)) { /* the renderer: batch after batch */
        pg = NULL;
        for (int i = 0; i < CACHE_PROGS; i++) {
            vc4_qpu_prog *q = &c->prog[i];
            if (q->cap && q->start == start) {
                pg = q;
                break;
            }
            if (q->last_use < lru->last_use)
                lru = q;
        }
        if (!pg) {
            pg = lru;
            pg->start = start;
            pg->n = 0;
            pg->wdirty[0] = pg->wdirty[1] = 0;
            pg->use_n = pg->st_n = UINT32_MAX;
            pg->vpm = false;
            pg->held = 0;
        }
        c->mru = pg;
        if (!pg->cap) {
            pg->cap = 64;
            pg->bytes = malloc(8 * pg->cap);
            pg->d = malloc(sizeof *pg->d * pg->cap);
            if (!pg->bytes || !pg->d) {
                free(pg->bytes), free(pg->d);
                pg->bytes = NULL, pg->d = NULL;
                pg->cap = 0;
                pg->last_use = ++c->tick;
                return NULL;
            }
        }
    }
    pg->last_use = ++c->tick;
    if (c->hold && pg->held == c->hold)
        return pg;
    if (!prog_validate(pg, bus))
        return NULL;
    if (c->hold && !pg->vpm)
        pg->held = c->hold;
    return pg;
}

void vc4_qpu_cache_hold(vc4_qpu_cache *c, bool on)
{
    if (c)
        c->hold = on ? ++c->holds : 0;
}

/* Does the instruction name ra15 (file 0) or rb15 (file 1) as a read, a
 * write or a pack destination? */
static bool names_15(uint64_t ins, uint8_t kind, int file)
{
    uint32_t sig = VC4_QPU_GET(ins, ALU, sig);
    bool ws = VC4_QPU_GET(ins, ALU, ws);
    uint32_t wa = VC4_QPU_GET(ins, ALU, waddr_add), wm = VC4_QPU_GET(ins, ALU, waddr_mul);
    /* the add result goes to file A unless ws, the mul result the other way */
    if ((wa == 15 && (int)ws == file) || (wm == 15 && (int)!ws == file))
        return true;
    if (kind != K_ALU) /* ldi reads nothing; a branch ends the analysis */
        return false;
    if (file == 0)
        return VC4_QPU_GET(ins, ALU, raddr_a) == 15;
    return sig != VC4_QPU_SIG_SMALL_IMMEDIATE && VC4_QPU_GET(ins, ALU, raddr_b) == 15;
}

void vc4_qpu_cache_payload_use(vc4_qpu_cache *c, cg_vas *bus, uint32_t code_addr, bool *w,
                               bool *z)
{
    *w = *z = true;
    vc4_qpu_prog *pg = c ? prog_for(c, bus, code_addr) : NULL;
    if (!pg || pg->n == 0)
        return;
    if (pg->use_n != pg->n) {
        pg->use_w = pg->use_z = true;
        pg->use_n = pg->n;
        bool w15 = false, z15 = false;
        for (uint32_t i = 0; i < pg->n; i++) {
            if (pg->d[i].kind == K_BRANCH)
                break; /* control flow: not followed */
            w15 |= names_15(pg->d[i].ins, pg->d[i].kind, 0);
            z15 |= names_15(pg->d[i].ins, pg->d[i].kind, 1);
            uint32_t sig = pg->d[i].sig;
            if (sig == VC4_QPU_SIG_PROGRAM_END || sig == VC4_QPU_SIG_COLOUR_LOAD_AND_PROGRAM_END) {
                /* the program ends after two delay slots */
                if (i + 2 >= pg->n)
                    break;
                bool br = false;
                for (uint32_t k = i + 1; k <= i + 2; k++) {
                    br |= pg->d[k].kind == K_BRANCH;
                    w15 |= names_15(pg->d[k].ins, pg->d[k].kind, 0);
                    z15 |= names_15(pg->d[k].ins, pg->d[k].kind, 1);
                }
                if (!br) {
                    pg->use_w = w15;
                    pg->use_z = z15;
                }
                break;
            }
        }
    }
    *w = pg->use_w;
    *z = pg->use_z;
}

/* Append the instruction fetched at start + 8n (if there is room and the
 * model need not watch its memory: a word the coherency model checks is
 * fetched through the bus every time, as without a cache). */
static void prog_append(vc4_qpu_prog *pg, cg_vas *bus, uint32_t addr, const uint32_t wv[2],
                        const vc4_qpu_dins *d)
{
    uint8_t *p;
    if (pg->n >= PROG_MAX_INS || (uint64_t)pg->start + 8ull * (pg->n + 1) > 0x100000000ull ||
        cg__vas_span(bus, addr, 8, false, &p) != 8)
        return;
    if (pg->n == pg->cap) {
        uint32_t cap = pg->cap * 2;
        uint8_t *b = realloc(pg->bytes, 8 * (size_t)cap);
        if (b)
            pg->bytes = b;
        vc4_qpu_dins *nd = realloc(pg->d, sizeof *nd * cap);
        if (nd)
            pg->d = nd;
        if (!b || !nd)
            return;
        pg->cap = cap;
    }
    for (int k = 0; k < 8; k++)
        pg->bytes[8 * pg->n + k] = (uint8_t)(wv[k >> 2] >> (8 * (k & 3)));
    pg->d[pg->n] = *d;
    pg->n++;
    if (d->flags & D_VPMRULE) { /* from now on compared at every run */
        pg->vpm = true;
        pg->held = 0;
    }
    if (d->flags & D_FAST)
        for (int k = 0; k < 2; k++)
            if (d->wrow[k] != 0xff)
                pg->wdirty[d->wrow[k] >> 6] |= 1ull << (d->wrow[k] & 63);
}

/* The decoded instruction at addr: from the program cache, or fetched from
 * memory (faults as the bus decides) and decoded into *tmp. NULL: fault. */
/* The instruction at addr fetched from memory (faults as the bus decides)
 * and decoded into *tmp (appended to the program in use when it continues
 * it); sets the agent's words. NULL: fault. */
const vc4_qpu_dins *vc4__qpu_fetch(vc4_qpu_state *s, uint32_t addr, vc4_qpu_dins *tmp)
{
    vc4_qpu_prog *pg = s->prog;
    uint32_t off = addr - (pg ? pg->start : 0);
    uint32_t wv[2];
    if (cg_vas_read(s->bus, addr, wv, 8, &s->agent) != 0) {
        s->ended = true;
        return NULL;
    }
    /* bus memory is little-endian */
    uint8_t *b = (uint8_t *)wv;
    uint32_t lo = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 |
                  (uint32_t)b[3] << 24;
    uint32_t hi = (uint32_t)b[4] | (uint32_t)b[5] << 8 | (uint32_t)b[6] << 16 |
                  (uint32_t)b[7] << 24;
    wv[0] = lo, wv[1] = hi;
    decode((uint64_t)hi << 32 | lo, tmp);
    if (pg && off == 8 * pg->n && addr >= pg->start)
        prog_append(pg, s->bus, addr, wv, tmp);
    s->agent.words[0] = lo;
    s->agent.words[1] = hi;
    s->agent.nwords = 2;
    return tmp;
}

void vc4_qpu_cache_revalidate(vc4_qpu_cache *c, cg_vas *bus)
{
    if (!c)
        return;
    for (int i = 0; i < CACHE_PROGS; i++)
        if (c->prog[i].cap && c->prog[i].n)
            prog_validate(&c->prog[i], bus);
}

