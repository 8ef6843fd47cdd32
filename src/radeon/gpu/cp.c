/* radeon family: the GPU side. Memory (VRAM + GTT in one 40-bit address
 * space) and the command processor: ring fetch while rptr != wptr, PM4
 * decode, IB1/IB2, its thread. The register file, the IH ring and the packet
 * handlers are in cp_*.c (cp_internal.h lists them).
 *
 * Facts used here come from research/radeon.md (linux r600d.h, r600.c,
 * r600_cs.c, radeon_ring.c; Mesa sid.h, eg_debug.c, r600_hw_context.c; gem5
 * pm4_packet_processor.cc) and are cited where used. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "cp_internal.h"

#define DEFAULT_DOMAIN_SIZE (16ull << 20)

static int run_nl(cg_radeon *rd);
static void *cp_thread(void *arg);

/* Something happened that may let the CP make progress: run it now
 * (deterministic mode) or wake its thread. Called with the lock held. */
void rd_kick(cg_radeon *rd)
{
    if (rd->threaded) {
        rd->kicks++;
        pthread_cond_signal(&rd->kick);
    } else if (!rd->cfg.manual && !rd->in_run) {
        run_nl(rd);
    }
}

/* ---------------------------------------------------------------------- */
/* device and memory                                                       */

int cg_radeon_create(cg_device *dev, const cg_radeon_config *cfg, cg_radeon **out)
{
    if (!dev || !out)
        return CG_ERR_INVAL;
    *out = NULL;
    cg_radeon_config c = cfg ? *cfg : (cg_radeon_config){0};
    if ((unsigned)c.gen >= CG_RADEON_GEN_COUNT)
        return CG_ERR_INVAL;
    if (!c.vram_size)
        c.vram_size = DEFAULT_DOMAIN_SIZE;
    if (!c.gtt_size)
        c.gtt_size = DEFAULT_DOMAIN_SIZE;
    if (c.vram_size % CG_PAGE_SIZE || c.gtt_size % CG_PAGE_SIZE ||
        c.vram_size > CG_RADEON_GTT_BASE || c.gtt_size > (1ull << 38))
        return CG_ERR_INVAL;
    /* unset budgets come from the device (device.h CG_BUDGET_TABLE) */
    if (!c.wait_budget) {
        uint64_t polls = cg_device_budget(dev, CG_BUDGET_RADEON_WAIT_POLLS);
        c.wait_budget = polls > UINT32_MAX ? UINT32_MAX : (uint32_t)polls;
    }
    if (!c.run_budget)
        c.run_budget = c.threaded ? 4096 : cg_device_budget(dev, CG_BUDGET_RADEON_RUN_DWORDS);

    cg_radeon *rd = calloc(1, sizeof(*rd));
    if (!rd)
        return CG_ERR_NOMEM;
    atomic_init(&rd->irq_raised, 0);
    rd->dev = dev;
    rd->cfg = c;
    rd->p3 = rd_p3_table(c.gen);
    rd->regs = calloc(CG_RADEON_REG_SPACE / 4, sizeof(uint32_t));
    rd->special = calloc(CG_RADEON_REG_SPACE / 32, 1);
    int rc = CG_ERR_NOMEM;
    if (!rd->regs || !rd->special)
        goto fail;
    for (unsigned op = 0; op < 256; op++)
        rd_window(c.gen, op, &rd->win_start[op], &rd->win_end[op]);

    /* Registers whose writes do more than store the value. */
    for (uint32_t r = REG_SCRATCH_REG0; r <= REG_SCRATCH_REG7; r += 4)
        rd_mark_special(rd, r);
    for (uint32_t r = REG_CP_RB_BASE; r <= REG_CP_RB_WPTR_ADDR_HI; r += 4)
        rd_mark_special(rd, r);
    for (uint32_t r = REG_IH_RB_CNTL; r <= REG_IH_CNTL; r += 4)
        rd_mark_special(rd, r);
    rd_mark_special(rd, REG_CP_INT_STATUS);
    rd_mark_special(rd, REG_CP_ME_CNTL);
    rd_mark_special(rd, REG_CP_RB_RPTR);
    rd_mark_special(rd, REG_GRBM_SOFT_RESET);
    rd_mark_special(rd, REG_GRBM_STATUS);

    cg_vas_config vc = {.va_bits = 40};
    if ((rc = cg_vas_create(dev, &vc, &rd->vas)) != 0)
        goto fail;
    if ((rc = cg_mem_create(dev, c.vram_size, 0, &rd->vram)) != 0 ||
        (rc = cg_mem_create(dev, c.gtt_size, 0, &rd->gtt)) != 0)
        goto fail;
    uint64_t va;
    cg_map_params mv = {.mem = rd->vram, .va = CG_RADEON_VRAM_BASE, .flags = CG_MAP_FIXED};
    cg_map_params mg = {.mem = rd->gtt, .va = CG_RADEON_GTT_BASE, .flags = CG_MAP_FIXED};
    if ((rc = cg_vas_map(rd->vas, &mv, &va)) != 0 || (rc = cg_vas_map(rd->vas, &mg, &va)) != 0)
        goto fail;
    rd->vram_next = CG_RADEON_VRAM_BASE;
    rd->gtt_next = CG_RADEON_GTT_BASE;
    rd->agent = (cg_agent){.family = CG_FAMILY_RADEON, .unit = "cp", .channel = 0};
    /* The CP comes out of reset halted, as r600_cp_start's CP_ME_CNTL write
     * (0xff, halt clear) implies. */
    rd->regs[REG_CP_ME_CNTL / 4] = RPUT(CP_ME_CNTL, ME_HALT, 1);
    if (c.threaded) {
        rd->threaded = true;
        pthread_mutex_init(&rd->lock, NULL);
        pthread_cond_init(&rd->kick, NULL);
        pthread_cond_init(&rd->irq, NULL);
        if (pthread_create(&rd->thread, NULL, cp_thread, rd) != 0) {
            rc = CG_ERR_NOMEM;
            goto fail;
        }
        rd->thread_started = true;
    }
    *out = rd;
    return 0;
fail:
    cg_radeon_destroy(rd);
    return rc;
}

void cg_radeon_destroy(cg_radeon *rd)
{
    if (!rd)
        return;
    if (rd->threaded) {
        if (rd->thread_started) {
            pthread_mutex_lock(&rd->lock);
            rd->quit = true;
            pthread_cond_broadcast(&rd->kick);
            pthread_cond_broadcast(&rd->irq);
            pthread_mutex_unlock(&rd->lock);
            pthread_join(rd->thread, NULL);
        }
        pthread_cond_destroy(&rd->kick);
        pthread_cond_destroy(&rd->irq);
        pthread_mutex_destroy(&rd->lock);
    }
    cg_vas_destroy(rd->vas);
    cg_mem_unref(rd->vram);
    cg_mem_unref(rd->gtt);
    free(rd->regs);
    free(rd->special);
    free(rd->draws);
    free(rd);
}

cg_device *cg_radeon_device(const cg_radeon *rd) { return rd ? rd->dev : NULL; }
cg_vas *cg_radeon_vas(const cg_radeon *rd) { return rd ? rd->vas : NULL; }
cg_radeon_gen cg_radeon_generation(const cg_radeon *rd) { return rd->cfg.gen; }

int cg_radeon_alloc(cg_radeon *rd, cg_radeon_domain d, uint64_t size, uint64_t align,
                    uint64_t *gpu_addr)
{
    if (!rd || !gpu_addr || size == 0 || (d != CG_RADEON_VRAM && d != CG_RADEON_GTT))
        return CG_ERR_INVAL;
    if (!align)
        align = 256;
    if (align & (align - 1) || align > (1ull << 30))
        return CG_ERR_INVAL;
    rd_lock(rd);
    uint64_t *next = d == CG_RADEON_VRAM ? &rd->vram_next : &rd->gtt_next;
    uint64_t end = d == CG_RADEON_VRAM ? CG_RADEON_VRAM_BASE + rd->cfg.vram_size
                                       : CG_RADEON_GTT_BASE + rd->cfg.gtt_size;
    uint64_t a = (*next + align - 1) & ~(align - 1);
    size = (size + 255) & ~255ull;
    int rc = 0;
    if (a > end || size > end - a) {
        rc = CG_ERR_NOSPACE;
    } else {
        *gpu_addr = a;
        *next = a + size;
    }
    rd_unlock(rd);
    return rc;
}

int cg_radeon_cpu_write(cg_radeon *rd, uint64_t addr, const void *src, size_t n)
{
    if (!rd)
        return CG_ERR_INVAL;
    rd_lock(rd);
    int rc = cg_vas_cpu_write(rd->vas, addr, src, n);
    if (rc == 0 && rd->waiting)
        rd_kick(rd); /* a CPU write may satisfy a wait; faults are logged */
    rd_unlock(rd);
    return rc;
}

int rd_cpu_write_quiet(cg_radeon *rd, uint64_t addr, const void *src, size_t n)
{
    rd_lock(rd);
    int rc = cg_vas_cpu_write(rd->vas, addr, src, n);
    rd_unlock(rd);
    return rc;
}

int cg_radeon_cpu_read(cg_radeon *rd, uint64_t addr, void *dst, size_t n)
{
    if (!rd)
        return CG_ERR_INVAL;
    rd_lock(rd);
    int rc = cg_vas_cpu_read(rd->vas, addr, dst, n);
    rd_unlock(rd);
    return rc;
}

int cg_radeon_cpu_write32(cg_radeon *rd, uint64_t addr, uint32_t v)
{
    uint8_t b[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
    return cg_radeon_cpu_write(rd, addr, b, 4);
}

int cg_radeon_cpu_read32(cg_radeon *rd, uint64_t addr, uint32_t *v)
{
    uint8_t b[4];
    int rc = cg_radeon_cpu_read(rd, addr, b, 4);
    if (rc == 0)
        *v = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
    return rc;
}

int rd_gpu_write(cg_radeon *rd, uint64_t va, const void *src, size_t n)
{
    uint64_t fend = rd->fbuf_va + 4ull * rd->fbuf_n;
    if (rd->fbuf_n && va < fend && va + n > rd->fbuf_va)
        rd->fbuf_n = 0; /* the stream wrote memory the CP had prefetched */
    int rc = cg_vas_write(rd->vas, va, src, n, &rd->agent);
    if (rc == 0 && cg_trace_enabled(rd->dev)) {
        cg_trace_event ev = {.kind = CG_TRACE_MEM_WRITE, .family = CG_FAMILY_RADEON,
                             .unit = "cp", .channel = 0, .stream_addr = rd->agent.stream_addr,
                             .gpu_addr = va, .size = n};
        cg_trace_emit(rd->dev, &ev);
    }
    return rc;
}

int rd_gpu_write32(cg_radeon *rd, uint64_t va, uint32_t v)
{
    uint8_t b[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
    return rd_gpu_write(rd, va, b, 4);
}

int rd_gpu_write64(cg_radeon *rd, uint64_t va, uint64_t v)
{
    uint8_t b[8];
    for (int i = 0; i < 8; i++)
        b[i] = (uint8_t)(v >> (8 * i));
    return rd_gpu_write(rd, va, b, 8);
}

/* ---------------------------------------------------------------------- */
/* faults                                                                  */

static const char *where(const cg_radeon *rd)
{
    static const char *const names[3] = {"ring", "IB1", "IB2"};
    return names[rd->depth < 3 ? rd->depth : 0];
}

/* Post a fault from the CP with the current agent (stream address and
 * words) and stop the CP unless it is a warning. */
int rd_cp_fault(cg_radeon *rd, cg_fault_kind kind, uint64_t addr, bool warning,
                       const char *fmt, ...)
{
    cg_fault f;
    char msg[CG_FAULT_MSG_LEN];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    cg_fault_init(&f, &rd->agent, kind, addr, "%s: %s", where(rd), msg);
    if (warning)
        f.flags |= CG_FAULT_F_WARNING;
    else
        rd->stopped = true;
    return cg_fault_raise(rd->dev, &f);
}

/* Refill the fetch buffer at va: up to RD_FBUF_DW dwords, no further than
 * `limit` dwords (the end of the ring or IB) or the first unmapped byte. */
static int refill(cg_radeon *rd, uint64_t va, uint32_t limit)
{
    uint32_t n = limit < RD_FBUF_DW ? limit : RD_FBUF_DW;
    uint64_t bad = 0;
    if (cg_vas_check(rd->vas, va, 4ull * n, false, &bad) != CG_FAULT_NONE) {
        if (bad <= va)
            n = 1; /* let the read below raise the fault */
        else
            n = (uint32_t)((bad - va) / 4);
        if (n == 0)
            n = 1;
    }
    rd->fbuf_n = 0;
    uint8_t *tmp = (uint8_t *)rd->fbuf;
    int rc = cg_vas_read(rd->vas, va, tmp, 4ull * n, &rd->agent);
    if (rc != 0) {
        rd->stopped = true;
        return rc;
    }
#if !(defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__)
    /* Memory is little-endian; big-endian hosts convert. */
    for (uint32_t i = 0; i < n; i++)
        rd->fbuf[i] = (uint32_t)tmp[4 * i] | (uint32_t)tmp[4 * i + 1] << 8 |
                      (uint32_t)tmp[4 * i + 2] << 16 | (uint32_t)tmp[4 * i + 3] << 24;
#endif
    rd->fbuf_va = va;
    rd->fbuf_n = n;
    return 0;
}

/* Contiguous dwords k.. of the stream that the buffer holds (refilling it):
 * *p points at them, the return value is how many (>= 1), or a negative
 * error with the CP stopped. */
long rd_fetch_span(cg_radeon *rd, const cpstream *s, uint32_t k, const uint32_t **p)
{
    uint64_t va = rd_s_va(s, k);
    if (!(rd->fbuf_n && va >= rd->fbuf_va && va < rd->fbuf_va + 4ull * rd->fbuf_n)) {
        uint32_t idx = s->ring ? ((s->pos + k) & s->mask) : s->pos + k;
        int rc = refill(rd, va, s->size - idx);
        if (rc != 0)
            return rc;
    }
    uint32_t off = (uint32_t)((va - rd->fbuf_va) / 4);
    *p = &rd->fbuf[off];
    long n = (long)(rd->fbuf_n - off);
    if (s->ring) {
        uint32_t idx = (s->pos + k) & s->mask;
        if ((long)(s->size - idx) < n)
            n = (long)(s->size - idx);
    }
    return n;
}


/* the fetch/execute loop                                                  */

static const char *const state_names[] = {"idle", "busy", "waiting", "halted", "stopped"};
const char *cg_radeon_cp_state_name(cg_radeon_cp_state s)
{
    return (unsigned)s < 5 ? state_names[s] : "?";
}

int cg_radeon_cp_get_status(const cg_radeon *crd, cg_radeon_cp_status *st)
{
    if (!crd || !st)
        return CG_ERR_INVAL;
    cg_radeon *rd = (cg_radeon *)crd; /* the lock is not part of the value */
    rd_lock(rd);
    memset(st, 0, sizeof(*st));
    if (rd->stopped)
        st->state = CG_RADEON_CP_STOPPED;
    else if (RGET(rd->regs[REG_CP_ME_CNTL / 4], CP_ME_CNTL, ME_HALT))
        st->state = CG_RADEON_CP_HALTED;
    else if (rd->waiting)
        st->state = CG_RADEON_CP_WAITING;
    else if (rd->depth > 0 || rd->rptr != rd->wptr)
        st->state = CG_RADEON_CP_BUSY;
    else
        st->state = CG_RADEON_CP_IDLE;
    st->rptr = rd->rptr;
    st->wptr = rd->wptr;
    st->ring_dw = rd_ring_dw(rd);
    st->ib_depth = rd->depth;
    for (int i = 0; i < 2; i++) {
        st->ib_addr[i] = rd->ib[i].base;
        st->ib_pos[i] = rd->ib[i].pos;
        st->ib_size[i] = rd->ib[i].size;
    }
    st->packets = rd->packets;
    st->dwords = rd->dwords;
    st->clock = rd->clock;
    st->trace_valid = rd->trace_valid;
    st->last_trace = rd->last_trace;
    st->wait_polls = rd->wait_polls;
    st->warnings = rd->warnings;
    rd_unlock(rd);
    return 0;
}

static int run_loop(cg_radeon *rd)
{
    uint32_t rdw = rd_ring_dw(rd);
    if (!rdw) {
        /* No packet is involved: the record must not carry the last one's. */
        rd->agent.stream_addr = rd_ring_base(rd);
        rd->agent.nwords = 0;
        return rd_cp_fault(rd, CG_FAULT_BAD_STATE, 0, false,
                           "CP_RB_CNTL.RB_BUFSZ %u is larger than the model allows (%u)",
                           RGET(rd->regs[REG_CP_RB_CNTL / 4], CP_RB_CNTL, RB_BUFSZ), MAX_RING_BUFSZ);
    }
    uint32_t mask = rdw - 1;
    rd->rptr &= mask;
    rd->wptr &= mask;
    /* rptr is written back every RB_BLKSZ block: 8 << RB_BLKSZ bytes (r600
     * programs log2(GPU_PAGE/8), i.e. every 4 KiB) and when the CP idles. */
    uint32_t blk = RGET(rd->regs[REG_CP_RB_CNTL / 4], CP_RB_CNTL, RB_BLKSZ);
    uint32_t blk_dw_shift = blk + 1 > 31 ? 31 : blk + 1;
    uint64_t budget = rd->cfg.run_budget;
    bool is_r500 = rd->cfg.gen == CG_RADEON_R500;
    int result = 0;

    for (;;) {
        cpstream s;
        if (rd->depth > 0) {
            rd_ib *ib = &rd->ib[rd->depth - 1];
            if (ib->pos >= ib->size) {
                rd->depth--; /* return to the level that called it */
                continue;
            }
            s = (cpstream){.base = ib->base, .size = ib->size, .mask = 0, .pos = ib->pos, .ring = false};
        } else {
            if (rd->rptr == rd->wptr)
                break;
            s = (cpstream){.base = rd_ring_base(rd), .size = rdw, .mask = mask, .pos = rd->rptr, .ring = true};
        }
        uint32_t avail = rd->depth ? s.size - s.pos : ((rd->wptr - rd->rptr) & mask);
        rd->agent.stream_addr = rd_s_va(&s, 0);
        rd->agent.nwords = 0;

        uint32_t need;
        uint32_t hdr = 0;
        if (rd->pending_skip) {
            need = rd->pending_skip < avail ? rd->pending_skip : avail;
            if (rd->depth && rd->pending_skip > avail) {
                result = rd_cp_fault(rd, CG_FAULT_BAD_LENGTH, 0, false,
                                     "COND_EXEC skips %u dwords past the end of the IB (%u left)",
                                     rd->pending_skip, avail);
                break;
            }
            rd->pending_skip -= need;
        } else {
            if (rd_fetch(rd, &s, 0, &hdr) != 0) {
                result = CG_ERR_FAULT;
                break;
            }
            rd->agent.words[0] = hdr;
            rd->agent.nwords = 1;
            need = rd_packet_dwords(hdr);
            uint32_t type = RD_PKT_TYPE(hdr);
            if (need > avail) {
                if (rd->depth || need > rdw - 1) {
                    result = rd_cp_fault(rd, CG_FAULT_BAD_LENGTH, 0, false,
                                         "packet of %u dwords runs past the end of the %s (%u left)",
                                         need, rd->depth ? "IB" : "ring", rd->depth ? avail : rdw - 1);
                    break;
                }
                /* The rest of the packet is not committed yet: wait for it. */
                int w = rd_wait_more(rd, "incomplete packet", 0);
                result = w == EXEC_BLOCK ? 0 : w;
                break;
            }
            /* Fixed-size payload for the executors. */
            uint32_t p[8] = {hdr};
            uint32_t np = need < 8 ? need : 8;
            for (uint32_t i = 1; i < np; i++)
                if (rd_fetch(rd, &s, i, &p[i]) != 0) {
                    result = CG_ERR_FAULT;
                    goto out;
                }
            for (uint32_t i = 1; i < np && i < CG_FAULT_MAX_WORDS; i++)
                rd->agent.words[rd->agent.nwords++] = p[i];
            if (cg_trace_enabled(rd->dev)) {
                cg_trace_event ev = {.kind = CG_TRACE_PACKET, .family = CG_FAMILY_RADEON,
                                     .unit = "cp", .channel = 0, .stream_addr = rd->agent.stream_addr,
                                     .reg = type == 3 ? RD_PKT3_OPCODE(hdr) : 0, .value = hdr,
                                     .name = type == 3   ? rd->p3[RD_PKT3_OPCODE(hdr)].name
                                             : type == 2 ? "PACKET2"
                                             : type == 1 ? "PACKET1"
                                                         : "PACKET0"};
                /* the whole packet, little-endian, when it fits p[] */
                uint8_t le[sizeof p];
                if (need <= np) {
                    for (uint32_t i = 0; i < np; i++)
                        for (int b = 0; b < 4; b++)
                            le[4 * i + b] = (uint8_t)(p[i] >> (8 * b));
                    ev.bytes = le;
                    ev.nbytes = 4 * np;
                }
                cg_trace_emit(rd->dev, &ev);
            }
            int ex = EXEC_OK;
            uint32_t count = RD_PKT_COUNT(hdr);
            if (type == 0) {
                uint32_t reg;
                bool one = false;
                if (is_r500) {
                    /* R1xx-R5xx: 13-bit index, ONE_REG_WR bit 15 (r100d.h). */
                    reg = PGET(hdr, PM4_TYPE0_R500, BASE_INDEX) << 2;
                    one = PGET(hdr, PM4_TYPE0_R500, ONE_REG_WR);
                } else {
                    reg = PGET(hdr, PM4_TYPE0, BASE_INDEX) << 2; /* R600: 16-bit index (r600d.h) */
                }
                if (!one && (uint64_t)reg + 4ull * count >= CG_RADEON_REG_SPACE)
                    ex = rd_cp_fault(rd, CG_FAULT_INVALID_METHOD, reg, false,
                                     "type-0 write 0x%x..0x%llx leaves the register space", reg,
                                     (unsigned long long)reg + 4ull * count);
                else
                    ex = rd_set_regs(rd, &s, 1, reg, count + 1, !one) ? CG_ERR_FAULT : EXEC_OK;
            } else if (type == 1) {
                if (!is_r500) {
                    ex = rd_cp_fault(rd, CG_FAULT_INVALID_OPCODE, 0, false,
                                     "type-1 packet 0x%08x: type 1 exists only on R1xx-R5xx", hdr);
                } else {
                    /* REG0 bits 10:0, REG1 bits 21:11, dword indices. */
                    if (rd_cp_reg_write(rd, (hdr & 0x7FF) << 2, p[1]) != 0 ||
                        rd_cp_reg_write(rd, ((hdr >> 11) & 0x7FF) << 2, p[2]) != 0)
                        ex = CG_ERR_FAULT;
                }
            } else if (type == 3) {
                unsigned op = RD_PKT3_OPCODE(hdr);
                const p3_desc *d = &rd->p3[op];
                if (!d->name) {
                    if (!rd->cfg.lenient) {
                        ex = rd_cp_fault(rd, CG_FAULT_INVALID_OPCODE, 0, false,
                                         "unknown type-3 opcode 0x%02x (header 0x%08x) for %s", op,
                                         hdr, cg_radeon_gen_name(rd->cfg.gen));
                    } else {
                        /* gem5: warn and skip count + 1 payload dwords. */
                        rd->warnings++;
                        rd_cp_fault(rd, CG_FAULT_INVALID_OPCODE, 0, true,
                                    "unknown type-3 opcode 0x%02x skipped (%u dwords)", op, need);
                    }
                } else if (count < d->min_count || count > d->max_count) {
                    ex = rd_cp_fault(rd, CG_FAULT_BAD_LENGTH, 0, false,
                                     "%s with count %u (takes %u..%u)", d->name, count, d->min_count,
                                     d->max_count);
                } else {
                    ex = rd_exec_type3(rd, &s, hdr, p, count);
                }
            }
            /* type 2: one-dword filler */
            if (ex == EXEC_BLOCK)
                break; /* waiting: the packet runs again on the next poll */
            if (ex < 0 || rd->stopped) {
                result = CG_ERR_FAULT;
                break;
            }
            rd->wait_polls = 0;
            rd->waiting = false;
            rd->packets++;
            if (ex == EXEC_PUSH) {
                /* Advance past INDIRECT_BUFFER first: the IB returns here. */
                if (rd->depth)
                    rd->ib[rd->depth - 1].pos += need;
                else {
                    uint32_t old = rd->rptr;
                    rd->rptr = (rd->rptr + need) & mask;
                    if ((old >> blk_dw_shift) != (rd->rptr >> blk_dw_shift) && rd_rptr_writeback(rd)) {
                        result = CG_ERR_FAULT;
                        break;
                    }
                }
                rd->depth++;
                rd->dwords += need;
                rd->clock += need;
                if (budget <= need) {
                    rd->budget_hit = true;
                    break;
                }
                budget -= need;
                continue;
            }
        }
        rd->dwords += need;
        rd->clock += need;
        if (rd->depth)
            rd->ib[rd->depth - 1].pos += need;
        else {
            uint32_t old = rd->rptr;
            rd->rptr = (rd->rptr + need) & mask;
            if ((old >> blk_dw_shift) != (rd->rptr >> blk_dw_shift) && rd_rptr_writeback(rd)) {
                result = CG_ERR_FAULT;
                break;
            }
        }
        if (budget <= need) {
            rd->budget_hit = true;
            break;
        }
        budget -= need;
    }
out:
    if (!rd->stopped && rd_rptr_writeback(rd) != 0)
        result = CG_ERR_FAULT;
    return rd->stopped ? CG_ERR_FAULT : result;
}

int cg_radeon_run(cg_radeon *rd)
{
    if (!rd)
        return CG_ERR_INVAL;
    rd_lock(rd);
    int rc;
    if (rd->threaded) {
        /* The CP thread runs by itself; this is a wake-up (a new poll). */
        rc = rd->stopped ? CG_ERR_FAULT : 0;
        if (!rd->stopped)
            rd_kick(rd);
    } else {
        rc = run_nl(rd);
    }
    rd_unlock(rd);
    return rc;
}

static int run_nl(cg_radeon *rd)
{
    if (rd->stopped)
        return CG_ERR_FAULT;
    if (RGET(rd->regs[REG_CP_ME_CNTL / 4], CP_ME_CNTL, ME_HALT) || rd->in_run)
        return 0;
    rd->in_run = true;
    rd->budget_hit = false;
    rd->fbuf_n = 0; /* the CPU may have rewritten memory since the last run */
    int rc = run_loop(rd);
    rd->in_run = false;
    if (rc == 0 && rd->budget_hit && (rd->depth > 0 || rd->rptr != rd->wptr))
        return CG_ERR_BUSY;
    return rc;
}

/* ---------------------------------------------------------------------- */
/* threaded mode                                                           */

/* The CP thread: run while there is work; a blocked wait is polled again
 * only after a kick (a CPU write, register write or wptr publish); between
 * slices of run_budget dwords the lock is released so the CPU side can
 * write the ring and publish wptr concurrently. */
static void *cp_thread(void *arg)
{
    cg_radeon *rd = arg;
    uint64_t seen = 0;
    pthread_mutex_lock(&rd->lock);
    while (!rd->quit) {
        bool halted = RGET(rd->regs[REG_CP_ME_CNTL / 4], CP_ME_CNTL, ME_HALT);
        bool work = rd->depth > 0 || rd->rptr != rd->wptr || rd->pending_skip;
        bool go = !rd->stopped && !halted && work && (!rd->waiting || rd->kicks != seen);
        if (!go) {
            pthread_cond_wait(&rd->kick, &rd->lock);
            continue;
        }
        seen = rd->kicks;
        rd->in_run = true;
        rd->budget_hit = false;
        rd->fbuf_n = 0;
        run_loop(rd);
        rd->in_run = false;
        if (rd->budget_hit) {
            /* let the CPU side in between slices */
            pthread_mutex_unlock(&rd->lock);
            pthread_mutex_lock(&rd->lock);
        }
    }
    pthread_mutex_unlock(&rd->lock);
    return NULL;
}

bool rd_irq_wait(cg_radeon *rd, uint64_t *seen, const bool *stop)
{
    pthread_mutex_lock(&rd->lock);
    while (rd->irq_seq == *seen && !*stop && !rd->quit)
        pthread_cond_wait(&rd->irq, &rd->lock);
    *seen = rd->irq_seq;
    bool st = *stop || rd->quit;
    pthread_mutex_unlock(&rd->lock);
    return st;
}

void rd_irq_wake(cg_radeon *rd, bool *stop)
{
    pthread_mutex_lock(&rd->lock);
    *stop = true;
    pthread_cond_broadcast(&rd->irq);
    pthread_mutex_unlock(&rd->lock);
}
