/* radeon family: the GPU side. Memory (VRAM + GTT in one 40-bit address
 * space), the register file with its MMIO side effects, the IH ring, and the
 * command processor: ring fetch while rptr != wptr, PM4 decode, IB1/IB2.
 *
 * Facts used here come from research/radeon.md (linux r600d.h, r600.c,
 * r600_cs.c, radeon_ring.c; Mesa sid.h, eg_debug.c, r600_hw_context.c; gem5
 * pm4_packet_processor.cc) and are cited where used. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "radeon_internal.h"

#define DEFAULT_DOMAIN_SIZE (16ull << 20)
#define MAX_RING_BUFSZ 22 /* 8 << 22 bytes = 32 MiB: far above any radeon ring */

static int reg_read_nl(cg_radeon *rd, uint32_t reg, uint32_t *val);
static int run_nl(cg_radeon *rd);
static void *cp_thread(void *arg);

/* Something happened that may let the CP make progress: run it now
 * (deterministic mode) or wake its thread. Called with the lock held. */
static void kick(cg_radeon *rd)
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

static bool is_special(const cg_radeon *rd, uint32_t reg)
{
    return (rd->special[reg >> 5] >> ((reg >> 2) & 7)) & 1;
}

static void mark_special(cg_radeon *rd, uint32_t reg)
{
    rd->special[reg >> 5] |= (uint8_t)(1u << ((reg >> 2) & 7));
}

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
        mark_special(rd, r);
    for (uint32_t r = REG_CP_RB_BASE; r <= REG_CP_RB_WPTR_ADDR_HI; r += 4)
        mark_special(rd, r);
    for (uint32_t r = REG_IH_RB_CNTL; r <= REG_IH_CNTL; r += 4)
        mark_special(rd, r);
    mark_special(rd, REG_CP_INT_STATUS);
    mark_special(rd, REG_CP_ME_CNTL);
    mark_special(rd, REG_CP_RB_RPTR);
    mark_special(rd, REG_GRBM_SOFT_RESET);
    mark_special(rd, REG_GRBM_STATUS);

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
        kick(rd); /* a CPU write may satisfy a wait; faults are logged */
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

static int gpu_write32(cg_radeon *rd, uint64_t va, uint32_t v)
{
    uint8_t b[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
    return rd_gpu_write(rd, va, b, 4);
}

static int gpu_write64(cg_radeon *rd, uint64_t va, uint64_t v)
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
static int cp_fault(cg_radeon *rd, cg_fault_kind kind, uint64_t addr, bool warning,
                    const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;
static int cp_fault(cg_radeon *rd, cg_fault_kind kind, uint64_t addr, bool warning,
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

/* ---------------------------------------------------------------------- */
/* interrupts (IH ring)                                                    */

/* Post one IH entry: 16 bytes, dw0 = source id, dw1 = source data (linux
 * r600.c r600_irq_process reads `ring[i] & 0xff` and `ring[i+1] &
 * 0xfffffff`). The ring is IH_RB_BASE << 8, 4 << IH_IB_SIZE bytes (IH_IB_SIZE
 * is log2 of the size in dwords, r600_ih_ring_init); pointers are bytes.
 * When full the entry is dropped and RB_OVERFLOW set in IH_RB_WPTR (with
 * IH_WPTR_OVERFLOW_ENABLE), which the driver clears via
 * IH_RB_CNTL.IH_WPTR_OVERFLOW_CLEAR (r600_get_ih_wptr). */
static int post_irq(cg_radeon *rd, unsigned src_id, uint32_t src_data)
{
    uint32_t cntl = rd->regs[REG_IH_RB_CNTL / 4];
    if (cg_trace_enabled(rd->dev)) {
        cg_trace_event ev = {.kind = CG_TRACE_INTERRUPT, .family = CG_FAMILY_RADEON,
                             .unit = "ih", .channel = 0, .reg = src_id, .value = src_data,
                             .stream_addr = rd->agent.stream_addr};
        cg_trace_emit(rd->dev, &ev);
    }
    if (!RGET(cntl, IH_RB_CNTL, IH_RB_ENABLE)) {
        rd->counters.irqs_dropped++;
        return 0;
    }
    uint32_t size = 4u << RGET(cntl, IH_RB_CNTL, IH_IB_SIZE);
    if (size < 16 || size > (1u << 18)) /* WPTR_OFFSET_MASK is 0x3fffc */
        size = size < 16 ? 16 : (1u << 18);
    uint32_t mask = size - 1;
    uint32_t wreg = rd->regs[REG_IH_RB_WPTR / 4];
    uint32_t wptr = wreg & 0x3fffc & mask;
    uint32_t rptr = rd->regs[REG_IH_RB_RPTR / 4] & 0x3fffc & mask;
    if (((wptr + 16) & mask) == rptr) {
        rd->counters.irqs_dropped++;
        rd->counters.ih_overflows++;
        if (RGET(cntl, IH_RB_CNTL, IH_WPTR_OVERFLOW_ENABLE))
            rd->regs[REG_IH_RB_WPTR / 4] = wreg | RPUT(IH_RB_WPTR, RB_OVERFLOW, 1);
        return 0;
    }
    uint64_t base = (uint64_t)rd->regs[REG_IH_RB_BASE / 4] << 8;
    uint32_t e[4] = {src_id & 0xff, src_data & 0xfffffff, 0, 0};
    uint8_t b[16];
    for (int i = 0; i < 16; i++)
        b[i] = (uint8_t)(e[i / 4] >> (8 * (i % 4)));
    cg_agent save = rd->agent;
    rd->agent.unit = "ih";
    int rc = rd_gpu_write(rd, base + wptr, b, 16);
    rd->agent = save;
    if (rc != 0)
        return rc;
    wptr = (wptr + 16) & mask;
    rd->regs[REG_IH_RB_WPTR / 4] = (wreg & 1u) | wptr;
    rd->counters.irqs_posted++;
    rd->irq_seq++;
    if (rd->threaded)
        pthread_cond_broadcast(&rd->irq);
    if (RGET(cntl, IH_RB_CNTL, IH_WPTR_WRITEBACK_ENABLE)) {
        uint64_t wb = ((uint64_t)(rd->regs[REG_IH_RB_WPTR_ADDR_HI / 4] & 0xff) << 32) |
                      (rd->regs[REG_IH_RB_WPTR_ADDR_LO / 4] & ~3u);
        rd->agent.unit = "ih";
        rc = gpu_write32(rd, wb, rd->regs[REG_IH_RB_WPTR / 4]);
        rd->agent = save;
    }
    return rc;
}

/* A CP interrupt: set the status bit; post to the IH if enabled. */
static int cp_interrupt(cg_radeon *rd, uint32_t stat_bit, uint32_t enable_bit, unsigned src)
{
    rd->regs[REG_CP_INT_STATUS / 4] |= stat_bit;
    if (!(rd->regs[REG_CP_INT_CNTL / 4] & enable_bit)) {
        rd->counters.irqs_dropped++;
        return 0;
    }
    return post_irq(rd, src, 0);
}

/* ---------------------------------------------------------------------- */
/* registers                                                               */

static void scratch_writeback(cg_radeon *rd, uint32_t reg, uint32_t v, bool *fault)
{
    /* SCRATCH_UMSK bit i mirrors SCRATCH_REGi to (SCRATCH_ADDR << 8) + 4i
     * (r600_cp_resume: SCRATCH_ADDR = wb >> 8, SCRATCH_UMSK = 0xff). */
    unsigned i = (reg - REG_SCRATCH_REG0) / 4;
    uint32_t umsk = rd->regs[REG_SCRATCH_UMSK / 4];
    if (!((RGET(umsk, SCRATCH_UMSK, SCRATCH_UMSK_MASK) >> i) & 1))
        return;
    uint64_t va = ((uint64_t)rd->regs[REG_SCRATCH_ADDR / 4] << 8) + 4 * i;
    if (gpu_write32(rd, va, v) != 0) {
        rd->stopped = true;
        *fault = true;
    }
}

/* A register write from the command stream (type 0, SET_*, COPY_DW, CP_DMA).
 * Returns 0 or CG_ERR_FAULT (the CP stopped). */
static int cp_reg_write(cg_radeon *rd, uint32_t reg, uint32_t v)
{
    if (cg_trace_enabled(rd->dev)) {
        char nb[48];
        cg_trace_event ev = {.kind = CG_TRACE_REG_WRITE, .family = CG_FAMILY_RADEON,
                             .unit = "cp", .channel = 0, .stream_addr = rd->agent.stream_addr,
                             .reg = reg, .value = v,
                             .name = rd_reg_str(rd->cfg.gen, reg, nb, sizeof(nb))};
        cg_trace_emit(rd->dev, &ev);
    }
    if (!is_special(rd, reg)) {
        rd->regs[reg / 4] = v;
        return 0;
    }
    if (reg >= REG_SCRATCH_REG0 && reg <= REG_SCRATCH_REG7) {
        bool fault = false;
        rd->regs[reg / 4] = v;
        scratch_writeback(rd, reg, v, &fault);
        return fault ? CG_ERR_FAULT : 0;
    }
    if (reg == REG_CP_INT_STATUS) {
        /* "CP_INTERRUPT packet 3 no longer exists, use packet 0"
         * (r600_fence_ring_emit): writing RB_INT_STAT from the stream raises
         * the CP interrupt of the current level, IH source 176/177/178. */
        int rc = 0;
        if (RGET(v, CP_INT_STATUS, RB_INT_STAT)) {
            if (rd->depth == 0)
                rc = cp_interrupt(rd, RPUT(CP_INT_STATUS, RB_INT_STAT, 1),
                                  RPUT(CP_INT_CNTL, RB_INT_ENABLE, 1), CG_RADEON_IH_CP_RB);
            else if (rd->depth == 1)
                rc = cp_interrupt(rd, RPUT(CP_INT_STATUS, IB1_INT_STAT, 1),
                                  RPUT(CP_INT_CNTL, IB1_INT_ENABLE, 1), CG_RADEON_IH_CP_IB1);
            else
                rc = cp_interrupt(rd, RPUT(CP_INT_STATUS, IB2_INT_STAT, 1),
                                  RPUT(CP_INT_CNTL, IB2_INT_ENABLE, 1), CG_RADEON_IH_CP_IB2);
        }
        if (rc != 0)
            rd->stopped = true;
        return rc;
    }
    /* The ring, IH and reset registers belong to the host: the model does
     * not let the stream reprogram the CP it runs on. */
    char nb[48];
    return cp_fault(rd, CG_FAULT_INVALID_METHOD, reg, false,
                    "register %s (0x%x) cannot be written from the command stream",
                    rd_reg_str(rd->cfg.gen, reg, nb, sizeof(nb)), reg);
}

static uint32_t ring_dw(const cg_radeon *rd)
{
    uint32_t bufsz = RGET(rd->regs[REG_CP_RB_CNTL / 4], CP_RB_CNTL, RB_BUFSZ);
    if (bufsz > MAX_RING_BUFSZ)
        return 0;
    /* RB_BUFSZ = log2(ring bytes / 8) (r600_cp_resume), so 2 << RB_BUFSZ dwords. */
    return 2u << bufsz;
}

static uint64_t ring_base(const cg_radeon *rd)
{
    return (uint64_t)rd->regs[REG_CP_RB_BASE / 4] << 8;
}

static bool cp_busy(const cg_radeon *rd)
{
    return !rd->stopped && (rd->depth > 0 || rd->rptr != rd->wptr || rd->waiting);
}

static int rptr_writeback(cg_radeon *rd)
{
    uint32_t cntl = rd->regs[REG_CP_RB_CNTL / 4];
    if (RGET(cntl, CP_RB_CNTL, RB_NO_UPDATE))
        return 0;
    uint64_t va = ((uint64_t)(rd->regs[REG_CP_RB_RPTR_ADDR_HI / 4] & 0xff) << 32) |
                  (rd->regs[REG_CP_RB_RPTR_ADDR / 4] & ~3u);
    int rc = gpu_write32(rd, va, rd->rptr);
    if (rc != 0)
        rd->stopped = true;
    return rc;
}

void cg_radeon_counters_get(const cg_radeon *rd, cg_radeon_counters *c)
{
    cg_radeon *m = (cg_radeon *)rd; /* the lock is not part of the value */
    rd_lock(m);
    *c = rd->counters;
    rd_unlock(m);
}

static void cp_reset_nl(cg_radeon *rd)
{
    rd->rptr = rd->wptr = 0;
    rd->depth = 0;
    rd->stopped = rd->waiting = false;
    rd->wait_polls = 0;
    rd->pending_skip = 0;
    rd->fbuf_n = 0;
    rd->regs[REG_CP_RB_WPTR / 4] = 0;
}

int cg_radeon_cp_reset(cg_radeon *rd)
{
    if (!rd)
        return CG_ERR_INVAL;
    rd_lock(rd);
    cp_reset_nl(rd);
    rd_unlock(rd);
    return 0;
}

int cg_radeon_reg_read(cg_radeon *rd, uint32_t reg, uint32_t *val)
{
    if (!rd || !val)
        return CG_ERR_INVAL;
    if (reg & 3)
        return CG_ERR_ALIGN;
    if (reg >= CG_RADEON_REG_SPACE)
        return CG_ERR_RANGE;
    rd_lock(rd);
    int rc = reg_read_nl(rd, reg, val);
    rd_unlock(rd);
    return rc;
}

static int reg_write_nl(cg_radeon *rd, uint32_t reg, uint32_t v);

int cg_radeon_reg_write(cg_radeon *rd, uint32_t reg, uint32_t v)
{
    if (!rd)
        return CG_ERR_INVAL;
    if (reg & 3)
        return CG_ERR_ALIGN;
    if (reg >= CG_RADEON_REG_SPACE)
        return CG_ERR_RANGE;
    rd_lock(rd);
    int rc = reg_write_nl(rd, reg, v);
    rd_unlock(rd);
    return rc;
}

static int reg_read_nl(cg_radeon *rd, uint32_t reg, uint32_t *val)
{
    switch (reg) {
    case REG_CP_RB_RPTR: *val = rd->rptr; return 0;
    case REG_CP_RB_WPTR: *val = rd->wptr; return 0;
    case REG_GRBM_STATUS:
        *val = cp_busy(rd) ? RPUT(GRBM_STATUS, CP_BUSY, 1) | RPUT(GRBM_STATUS, GUI_ACTIVE, 1) : 0;
        return 0;
    default: *val = rd->regs[reg / 4]; return 0;
    }
}

static int reg_write_nl(cg_radeon *rd, uint32_t reg, uint32_t v)
{
    switch (reg) {
    case REG_CP_RB_WPTR: {
        uint32_t n = ring_dw(rd);
        rd->regs[reg / 4] = v;
        rd->wptr = n ? v & (n - 1) : 0;
        kick(rd);
        return 0;
    }
    case REG_CP_RB_RPTR_WR:
        rd->regs[reg / 4] = v;
        if (RGET(rd->regs[REG_CP_RB_CNTL / 4], CP_RB_CNTL, RB_RPTR_WR_ENA)) {
            uint32_t n = ring_dw(rd);
            rd->rptr = n ? v & (n - 1) : 0;
        }
        return 0;
    case REG_CP_RB_RPTR:
    case REG_GRBM_STATUS:
        return 0; /* read-only */
    case REG_CP_RB_CNTL:
    case REG_CP_RB_BASE:
        rd->regs[reg / 4] = v;
        rd->fbuf_n = 0;
        return 0;
    case REG_CP_INT_STATUS:
        rd->regs[reg / 4] &= ~v; /* acknowledge: clear the bits written as 1 (model) */
        return 0;
    case REG_GRBM_SOFT_RESET:
        rd->regs[reg / 4] = v;
        if (RGET(v, GRBM_SOFT_RESET, SOFT_RESET_CP))
            cp_reset_nl(rd);
        return 0;
    case REG_CP_ME_CNTL: {
        bool was_halted = RGET(rd->regs[reg / 4], CP_ME_CNTL, ME_HALT);
        rd->regs[reg / 4] = v;
        if (was_halted && !RGET(v, CP_ME_CNTL, ME_HALT))
            kick(rd);
        return 0;
    }
    case REG_IH_RB_CNTL:
        if (RGET(v, IH_RB_CNTL, IH_WPTR_OVERFLOW_CLEAR))
            rd->regs[REG_IH_RB_WPTR / 4] &= ~RPUT(IH_RB_WPTR, RB_OVERFLOW, 1);
        rd->regs[reg / 4] = v & ~RPUT(IH_RB_CNTL, IH_WPTR_OVERFLOW_CLEAR, 1);
        return 0;
    default:
        rd->regs[reg / 4] = v;
        if (reg >= REG_SCRATCH_REG0 && reg <= REG_SCRATCH_REG7 && rd->waiting)
            kick(rd); /* WAIT_REG_MEM on a register wakes on CPU writes */
        return 0;
    }
}

/* ---------------------------------------------------------------------- */
/* fetch                                                                   */

/* The current stream: the ring (masked dword index) or an IB. */
typedef struct cpstream {
    uint64_t base;
    uint32_t size, mask, pos;
    bool ring;
} cpstream;

static inline uint64_t s_va(const cpstream *s, uint32_t k)
{
    return s->base + 4ull * (s->ring ? ((s->pos + k) & s->mask) : (uint64_t)s->pos + k);
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
static long fetch_span(cg_radeon *rd, const cpstream *s, uint32_t k, const uint32_t **p)
{
    uint64_t va = s_va(s, k);
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

static inline int fetch(cg_radeon *rd, const cpstream *s, uint32_t k, uint32_t *v)
{
    const uint32_t *p;
    long n = fetch_span(rd, s, k, &p);
    if (n < 0)
        return (int)n;
    *v = *p;
    return 0;
}

/* ---------------------------------------------------------------------- */
/* packets                                                                 */

enum { EXEC_OK = 0, EXEC_BLOCK = 1, EXEC_PUSH = 2 };

static void record_draw(cg_radeon *rd, unsigned op, uint32_t count, const uint32_t *dw, unsigned n)
{
    if (rd->ndraws >= CG_RADEON_DRAW_LOG_MAX)
        return;
    if (!rd->draws) {
        rd->draws = calloc(CG_RADEON_DRAW_LOG_MAX, sizeof(*rd->draws));
        if (!rd->draws)
            return;
    }
    cg_radeon_draw *d = &rd->draws[rd->ndraws++];
    d->opcode = op;
    d->name = rd->p3[op].name;
    d->stream_addr = rd->agent.stream_addr;
    d->count = count;
    for (unsigned i = 0; i < n && i < 6; i++)
        d->dw[i] = dw[i];
}

size_t cg_radeon_draw_count(const cg_radeon *rd)
{
    cg_radeon *m = (cg_radeon *)rd;
    rd_lock(m);
    size_t n = rd->ndraws;
    rd_unlock(m);
    return n;
}
/* Entries never change once recorded; the log array is allocated once. */
const cg_radeon_draw *cg_radeon_draw_get(const cg_radeon *rd, size_t i)
{
    return i < cg_radeon_draw_count(rd) ? &rd->draws[i] : NULL;
}

static uint64_t addr40(uint32_t lo, uint32_t hi) { return ((uint64_t)(hi & 0xff) << 32) | lo; }

/* Write `n` registers starting at `reg` (inc: step 4, else the same one),
 * taking values from the stream at dword k. Plain registers go in bulk. */
static int set_regs(cg_radeon *rd, const cpstream *s, uint32_t k, uint32_t reg, uint32_t n, bool inc)
{
    bool trace = cg_trace_enabled(rd->dev);
    while (n) {
        const uint32_t *p;
        long got = fetch_span(rd, s, k, &p);
        if (got < 0)
            return (int)got;
        uint32_t m = (uint32_t)got < n ? (uint32_t)got : n;
        if (inc && !trace) {
            /* Fast path: copy runs of plain registers. */
            uint32_t i = 0;
            while (i < m) {
                uint32_t r = reg + 4 * i;
                if (is_special(rd, r)) {
                    int rc = cp_reg_write(rd, r, p[i]);
                    if (rc != 0)
                        return rc;
                    if (rd->fbuf_n == 0 && i + 1 < m) { /* a writeback hit the buffer */
                        m = i + 1;
                        break;
                    }
                    i++;
                    continue;
                }
                /* Extend the run; whole bitmap bytes (8 registers) at a time. */
                uint32_t j = i + 1;
                while (j < m) {
                    uint32_t rj = reg + 4 * j;
                    if ((rj & 31) == 0 && j + 8 <= m && rd->special[rj >> 5] == 0) {
                        j += 8;
                        continue;
                    }
                    if (is_special(rd, rj))
                        break;
                    j++;
                }
                memcpy(&rd->regs[r / 4], p + i, 4 * (size_t)(j - i));
                i = j;
            }
        } else {
            for (uint32_t i = 0; i < m; i++) {
                int rc = cp_reg_write(rd, inc ? reg + 4 * i : reg, p[i]);
                if (rc != 0)
                    return rc;
                if (rd->fbuf_n == 0 && i + 1 < m) {
                    m = i + 1;
                    break;
                }
            }
        }
        if (inc)
            reg += 4 * m;
        k += m;
        n -= m;
    }
    return 0;
}

static bool compare(unsigned fn, uint32_t v, uint32_t ref)
{
    /* WAIT_REG_MEM FUNCTION: 0 always, 1 <, 2 <=, 3 ==, 4 !=, 5 >=, 6 >
     * (research/radeon.md, Mesa r600_hw_context.c). */
    switch (fn) {
    case 0: return true;
    case 1: return v < ref;
    case 2: return v <= ref;
    case 3: return v == ref;
    case 4: return v != ref;
    case 5: return v >= ref;
    case 6: return v > ref;
    default: return false;
    }
}

static int mem_read32(cg_radeon *rd, uint64_t va, uint32_t *v)
{
    int rc = cg_vas_read32(rd->vas, va, v, &rd->agent);
    if (rc != 0)
        rd->stopped = true;
    return rc;
}

static int check_reg(cg_radeon *rd, uint32_t reg, const char *what)
{
    if (reg >= CG_RADEON_REG_SPACE || (reg & 3))
        return cp_fault(rd, CG_FAULT_INVALID_METHOD, reg, false,
                        "%s register 0x%x outside the register space", what, reg);
    return 0;
}

/* Registers first .. first + span (bytes): each inside the register space;
 * the fault names the first one outside it. */
static int check_reg_span(cg_radeon *rd, uint64_t first, uint64_t span, const char *what)
{
    if (first >= CG_RADEON_REG_SPACE || (first & 3))
        return check_reg(rd, (uint32_t)first, what); /* under 4 GiB: checked above */
    if (first + span >= CG_RADEON_REG_SPACE)
        return check_reg(rd, CG_RADEON_REG_SPACE, what);
    return 0;
}

/* A wait that did not succeed: block, or end it as a hang past the budget.
 * `addr` is what it waits on (memory address or register), 0 if nothing. */
static int wait_more(cg_radeon *rd, const char *what, uint64_t addr)
{
    rd->wait_polls++;
    if (rd->wait_polls > rd->cfg.wait_budget)
        return cp_fault(rd, CG_FAULT_HANG, addr, false,
                        "budget %s: %s not satisfied after %u polls (watchdog)",
                        cg_budget_name(CG_BUDGET_RADEON_WAIT_POLLS), what, rd->cfg.wait_budget);
    rd->waiting = true;
    return EXEC_BLOCK;
}

static int exec_cp_dma(cg_radeon *rd, const uint32_t *p)
{
    /* CP_DMA (research/radeon.md; Mesa r600_hw_context.c): dw1 src lo or
     * data, dw2 CP_SYNC/SRC_SEL/ENGINE/DST_SEL/src hi, dw3 dst lo, dw4 dst
     * hi, dw5 BYTE_COUNT and SAS/DAS (register spaces), SAIC/DAIC (no
     * increment). */
    uint32_t srcsel = PGET(p[2], CP_DMA_DW2, DMA_SRC_SEL);
    uint32_t dstsel = PGET(p[2], CP_DMA_DW2, DMA_DST_SEL);
    uint32_t bytes = PGET(p[5], CP_DMA_DW5, BYTE_COUNT);
    bool sas = PGET(p[5], CP_DMA_DW5, SAS), das = PGET(p[5], CP_DMA_DW5, DAS);
    bool saic = PGET(p[5], CP_DMA_DW5, SAIC), daic = PGET(p[5], CP_DMA_DW5, DAIC);
    uint64_t src = addr40(p[1], PGET(p[2], CP_DMA_DW2, DMA_SRC_HI));
    uint64_t dst = addr40(p[3], PGET(p[4], CP_DMA_DW4, DMA_DST_HI));
    if (srcsel == 1 || dstsel != 0)
        return cp_fault(rd, CG_FAULT_UNSUPPORTED, 0, false,
                        "CP_DMA to or from GDS is not supported yet");
    if (srcsel == 3)
        return cp_fault(rd, CG_FAULT_BAD_STATE, 0, false, "CP_DMA SRC_SEL 3 is reserved");
    if (PGET(p[5], CP_DMA_DW5, SRC_SWAP) || PGET(p[5], CP_DMA_DW5, DST_SWAP))
        return cp_fault(rd, CG_FAULT_UNSUPPORTED, 0, false,
                        "CP_DMA byte swapping (big-endian) is not supported yet");
    if (bytes == 0)
        return EXEC_OK;
    bool data = srcsel == 2;
    bool simple = !sas && !das && !saic && !daic && !data;
    if (simple) {
        if (cg_vas_copy(rd->vas, dst, src, bytes, &rd->agent) != 0) {
            rd->stopped = true;
            return CG_ERR_FAULT;
        }
        uint64_t fend = rd->fbuf_va + 4ull * rd->fbuf_n;
        if (rd->fbuf_n && dst < fend && dst + bytes > rd->fbuf_va)
            rd->fbuf_n = 0;
        return EXEC_OK;
    }
    /* Dword-wise forms: registers, data fill, or a fixed address. */
    if (bytes % 4 || (!sas && !data && (src & 3)) || (!das && (dst & 3)))
        return cp_fault(rd, CG_FAULT_BAD_ALIGN, dst, false,
                        "CP_DMA with registers, data or no-increment needs dword sizes and "
                        "addresses (%u bytes)", bytes);
    uint32_t n = bytes / 4;
    if (sas && (src > 0xFFFFFFFF))
        return cp_fault(rd, CG_FAULT_INVALID_METHOD, src, false,
                        "CP_DMA source register above 4 GiB");
    if (das && (dst > 0xFFFFFFFF))
        return cp_fault(rd, CG_FAULT_INVALID_METHOD, dst, false,
                        "CP_DMA destination register above 4 GiB");
    /* every register the copy touches, first to last, in 64 bits: a 32-bit
     * sum could wrap and let a register past the space through (found by
     * fuzz_radeon_pm4, corpus cp_dma_reg_wrap) */
    if (sas && check_reg_span(rd, src, saic ? 0 : 4ull * (n - 1), "CP_DMA source"))
        return CG_ERR_FAULT;
    if (das && check_reg_span(rd, dst, daic ? 0 : 4ull * (n - 1), "CP_DMA destination"))
        return CG_ERR_FAULT;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t v;
        uint64_t s = src + (saic ? 0 : 4ull * i), d = dst + (daic ? 0 : 4ull * i);
        if (data)
            v = p[1];
        else if (sas)
            v = rd->regs[(uint32_t)s / 4];
        else if (mem_read32(rd, s, &v) != 0)
            return CG_ERR_FAULT;
        int rc = das ? cp_reg_write(rd, (uint32_t)d, v) : gpu_write32(rd, d, v);
        if (rc != 0) {
            rd->stopped = true;
            return rc;
        }
    }
    return EXEC_OK;
}

/* Execute a type-3 packet whose count+2 dwords are available. p[] holds the
 * header and up to 7 payload dwords (the fixed-size packets). */
static int exec_type3(cg_radeon *rd, const cpstream *s, uint32_t hdr, const uint32_t *p,
                      uint32_t count)
{
    unsigned op = (hdr >> 8) & 0xff;
    const p3_desc *d = &rd->p3[op];
    switch ((p3_kind)d->kind) {
    case P3K_NOP:
        /* Trace point: NOP with count 0 and 0xCAFE0000 | id (Mesa ac_debug.c,
         * "the last trace point that was reached by the CP"). */
        if (count == 0 && (p[1] & 0xFFFF0000u) == 0xCAFE0000u) {
            rd->trace_valid = true;
            rd->last_trace = p[1] & 0xFFFF;
        }
        return EXEC_OK;
    case P3K_ACCEPT:
        return EXEC_OK;
    case P3K_DRAW:
        record_draw(rd, op, count, p + 1, count + 1 < 6 ? count + 1 : 6);
        return EXEC_OK;
    case P3K_UNSUPP:
    case P3K_NONE:
        return cp_fault(rd, CG_FAULT_UNSUPPORTED, 0, false,
                        "packet %s is decoded but not supported yet", d->name);
    case P3K_ME_INIT:
        rd->me_initialized = true;
        return EXEC_OK;
    case P3K_SET: {
        uint32_t start = rd->win_start[op], end = rd->win_end[op];
        uint64_t reg = (uint64_t)start + 4ull * p[1];
        uint64_t last = reg + 4ull * count; /* count registers: payload - 1 */
        if (count == 0 || reg >= end || last > end)
            return cp_fault(rd, CG_FAULT_INVALID_METHOD, reg, false,
                            "%s writes 0x%llx..0x%llx outside its window [0x%x, 0x%x)", d->name,
                            (unsigned long long)reg, (unsigned long long)(last - 4), start, end);
        return set_regs(rd, s, 2, (uint32_t)reg, count, true) ? CG_ERR_FAULT : EXEC_OK;
    }
    case P3K_IB: {
        if (rd->depth >= 2)
            return cp_fault(rd, CG_FAULT_DEPTH, 0, false,
                            "INDIRECT_BUFFER inside IB2: the CP has two IB levels");
        uint32_t swap = PGET(p[1], INDIRECT_BUFFER_DW1, IB_SWAP);
        if (swap)
            return cp_fault(rd, CG_FAULT_UNSUPPORTED, 0, false,
                            "INDIRECT_BUFFER swap mode %u (big-endian) is not supported yet", swap);
        uint64_t base = addr40(p[1] & ~3u, PGET(p[2], INDIRECT_BUFFER_DW2, IB_BASE_HI));
        uint32_t size = PGET(p[3], INDIRECT_BUFFER_DW3, IB_SIZE);
        if (p[3] & ~0xFFFFFu)
            return cp_fault(rd, CG_FAULT_BAD_STATE, base, false,
                            "INDIRECT_BUFFER size dword 0x%08x has bits above IB_SIZE", p[3]);
        if (size == 0)
            return EXEC_OK;
        rd->ib[rd->depth] = (rd_ib){.base = base, .size = size, .pos = 0};
        return EXEC_PUSH;
    }
    case P3K_MEM_WRITE: {
        uint64_t va = addr40(p[1], PGET(p[2], MEM_WRITE_DW2, MW_ADDR_HI));
        bool d32 = PGET(p[2], MEM_WRITE_DW2, MW_DATA32);
        /* r600_cs.c requires 8-byte alignment; DATA32 writes need 4. */
        if (va & (d32 ? 3 : 7))
            return cp_fault(rd, CG_FAULT_BAD_ALIGN, va, false, "MEM_WRITE address 0x%llx misaligned",
                            (unsigned long long)va);
        int rc = d32 ? gpu_write32(rd, va, p[3]) : gpu_write64(rd, va, (uint64_t)p[4] << 32 | p[3]);
        if (rc != 0)
            rd->stopped = true;
        return rc ? rc : EXEC_OK;
    }
    case P3K_EVENT:
        if (count == 1)
            return cp_fault(rd, CG_FAULT_BAD_LENGTH, 0, false, "EVENT_WRITE count 1 (takes 0 or 2)");
        rd->counters.events++;
        if (count == 2)
            return cp_fault(rd, CG_FAULT_UNSUPPORTED, 0, false,
                            "EVENT_WRITE with an address (sample events, index %u) is not "
                            "supported yet", PGET(p[1], EVENT_WRITE_DW1, EVENT_INDEX));
        return EXEC_OK; /* flush/invalidate events: no GPU caches in the model */
    case P3K_EOP: {
        uint32_t dsel = PGET(p[3], EVENT_WRITE_EOP_DW3, DATA_SEL);
        uint32_t isel = PGET(p[3], EVENT_WRITE_EOP_DW3, INT_SEL);
        uint64_t va = addr40(p[2], PGET(p[3], EVENT_WRITE_EOP_DW3, EOP_ADDR_HI));
        if (dsel > 3 || isel > 2)
            return cp_fault(rd, CG_FAULT_BAD_STATE, va, false,
                            "EVENT_WRITE_EOP DATA_SEL %u / INT_SEL %u reserved", dsel, isel);
        if (dsel && (va & 3))
            return cp_fault(rd, CG_FAULT_BAD_ALIGN, va, false,
                            "EVENT_WRITE_EOP address 0x%llx not 4-byte aligned",
                            (unsigned long long)va);
        rd->counters.eops++;
        int rc = 0;
        if (dsel == 1)
            rc = gpu_write32(rd, va, p[4]);
        else if (dsel == 2)
            rc = gpu_write64(rd, va, (uint64_t)p[5] << 32 | p[4]);
        else if (dsel == 3)
            rc = gpu_write64(rd, va, rd->clock);
        if (rc != 0) {
            rd->stopped = true;
            return rc;
        }
        if (cg_trace_enabled(rd->dev) && dsel) {
            cg_trace_event ev = {.kind = CG_TRACE_FENCE, .family = CG_FAMILY_RADEON, .unit = "cp",
                                 .channel = 0, .stream_addr = rd->agent.stream_addr,
                                 .gpu_addr = va, .value = dsel == 3 ? rd->clock : p[4]};
            cg_trace_emit(rd->dev, &ev);
        }
        if (isel) { /* 1: interrupt only, 2: after the write is confirmed */
            rc = cp_interrupt(rd, RPUT(CP_INT_STATUS, TIME_STAMP_INT_STAT, 1),
                              RPUT(CP_INT_CNTL, TIME_STAMP_INT_ENABLE, 1), CG_RADEON_IH_CP_EOP);
            if (rc != 0) {
                rd->stopped = true;
                return rc;
            }
        }
        return EXEC_OK;
    }
    case P3K_WAIT: {
        uint32_t fn = PGET(p[1], WAIT_REG_MEM_DW1, WRM_FUNCTION);
        bool mem = PGET(p[1], WAIT_REG_MEM_DW1, WRM_MEM_SPACE);
        if (fn == 7)
            return cp_fault(rd, CG_FAULT_BAD_STATE, 0, false, "WAIT_REG_MEM function 7 reserved");
        uint32_t v;
        uint64_t at; /* what the wait polls: the memory address or the register */
        if (mem) {
            if (PGET(p[2], WAIT_REG_MEM_DW2, WRM_SWAP))
                return cp_fault(rd, CG_FAULT_UNSUPPORTED, 0, false,
                                "WAIT_REG_MEM swap mode (big-endian) is not supported yet");
            at = addr40(p[2] & ~3u, PGET(p[3], WAIT_REG_MEM_DW3, WRM_ADDR_HI));
            if (mem_read32(rd, at, &v) != 0)
                return CG_ERR_FAULT;
        } else {
            /* A register as a dword offset (Mesa r600_hw_context.c). */
            at = 4ull * p[2];
            if (at >= CG_RADEON_REG_SPACE)
                return cp_fault(rd, CG_FAULT_INVALID_METHOD, at, false,
                                "WAIT_REG_MEM register 0x%llx outside the register space",
                                (unsigned long long)at);
            reg_read_nl(rd, (uint32_t)at, &v);
        }
        if (compare(fn, v & p[5], p[4]))
            return EXEC_OK;
        return wait_more(rd, "WAIT_REG_MEM", at);
    }
    case P3K_SURF_SYNC:
        /* CP_COHER_CNTL/SIZE/BASE (r600_fence_ring_emit). The model has no
         * GPU-side caches, so the sync completes at once. */
        rd->regs[REG_CP_COHER_CNTL / 4] = p[1];
        rd->regs[REG_CP_COHER_SIZE / 4] = p[2];
        rd->regs[REG_CP_COHER_BASE / 4] = p[3];
        rd->counters.surface_syncs++;
        return EXEC_OK;
    case P3K_CP_DMA:
        return exec_cp_dma(rd, p);
    case P3K_SEMAPHORE: {
        /* 64-bit semaphore in memory (radeon_semaphore.c allocates 8 bytes and
         * zeroes them); signal increments, wait blocks while it is zero and
         * then decrements (model semantics). SEL 6 signal, 7 wait. */
        uint64_t va = addr40(p[1], PGET(p[2], MEM_SEMAPHORE_DW2, SEM_ADDR_HI));
        uint32_t sel = PGET(p[2], MEM_SEMAPHORE_DW2, SEM_SEL);
        if (sel != 6 && sel != 7)
            return cp_fault(rd, CG_FAULT_BAD_STATE, va, false, "MEM_SEMAPHORE SEL %u reserved", sel);
        if (va & 7)
            return cp_fault(rd, CG_FAULT_BAD_ALIGN, va, false,
                            "MEM_SEMAPHORE address 0x%llx not 8-byte aligned",
                            (unsigned long long)va);
        uint64_t v;
        if (cg_vas_read64(rd->vas, va, &v, &rd->agent) != 0) {
            rd->stopped = true;
            return CG_ERR_FAULT;
        }
        if (sel == 7 && v == 0)
            return wait_more(rd, "MEM_SEMAPHORE wait", va);
        int rc = gpu_write64(rd, va, sel == 6 ? v + 1 : v - 1);
        if (rc != 0)
            rd->stopped = true;
        return rc ? rc : EXEC_OK;
    }
    case P3K_COPY_DW: {
        /* r600_cs.c: dw1 bit0 source is memory, bit1 destination is memory;
         * dw2/dw3 source (lo, hi or register dword offset), dw4/dw5 dest. */
        uint32_t v;
        if (PGET(p[1], COPY_DW_DW1, COPY_SRC_MEM)) {
            uint64_t va = addr40(p[2], p[3]);
            if (va & 3)
                return cp_fault(rd, CG_FAULT_BAD_ALIGN, va, false, "COPY_DW source misaligned");
            if (mem_read32(rd, va, &v) != 0)
                return CG_ERR_FAULT;
        } else {
            uint64_t reg = 4ull * p[2];
            if (reg >= CG_RADEON_REG_SPACE)
                return cp_fault(rd, CG_FAULT_INVALID_METHOD, reg, false,
                                "COPY_DW source register outside the register space");
            reg_read_nl(rd, (uint32_t)reg, &v);
        }
        if (PGET(p[1], COPY_DW_DW1, COPY_DST_MEM)) {
            uint64_t va = addr40(p[4], p[5]);
            if (va & 3)
                return cp_fault(rd, CG_FAULT_BAD_ALIGN, va, false, "COPY_DW destination misaligned");
            int rc = gpu_write32(rd, va, v);
            if (rc != 0)
                rd->stopped = true;
            return rc ? rc : EXEC_OK;
        }
        uint64_t reg = 4ull * p[4];
        if (reg >= CG_RADEON_REG_SPACE)
            return cp_fault(rd, CG_FAULT_INVALID_METHOD, reg, false,
                            "COPY_DW destination register outside the register space");
        return cp_reg_write(rd, (uint32_t)reg, v) ? CG_ERR_FAULT : EXEC_OK;
    }
    case P3K_SET_PRED: {
        uint32_t pop = PGET(p[2], SET_PREDICATION_DW2, PRED_OP);
        if (pop == 0)
            return EXEC_OK; /* clear: every packet executes (the model's only state) */
        return cp_fault(rd, CG_FAULT_UNSUPPORTED, 0, false,
                        "SET_PREDICATION op %u (ZPASS/PRIMCOUNT results) is not supported yet", pop);
    }
    case P3K_COND_EXEC: {
        /* Layout as the SI PM4 definitions give it (addr lo, addr hi,
         * [reserved,] exec count): if the 32-bit value at addr is 0, skip the
         * next exec-count dwords. Not confirmed for R600 microcode. */
        uint64_t va = addr40(p[1] & ~3u, PGET(p[2], COND_EXEC_DW2, COND_ADDR_HI));
        uint32_t n = count == 2 ? p[3] : p[4];
        uint32_t v;
        if (mem_read32(rd, va, &v) != 0)
            return CG_ERR_FAULT;
        if (v == 0)
            rd->pending_skip = n;
        return EXEC_OK;
    }
    }
    return cp_fault(rd, CG_FAULT_INVALID_OPCODE, 0, false, "opcode 0x%02x", op);
}

/* ---------------------------------------------------------------------- */
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
    st->ring_dw = ring_dw(rd);
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

/* Decode the header at dword 0 of s: total packet size in dwords. */
static uint32_t packet_size(const cg_radeon *rd, uint32_t hdr)
{
    uint32_t count = (hdr >> 16) & 0x3FFF;
    switch (hdr >> 30) {
    case 2: return 1;
    case 1: return 3; /* R1xx-R5xx: exactly two data dwords */
    default: return count + 2;
    }
}

static int run_loop(cg_radeon *rd)
{
    uint32_t rdw = ring_dw(rd);
    if (!rdw) {
        /* No packet is involved: the record must not carry the last one's. */
        rd->agent.stream_addr = ring_base(rd);
        rd->agent.nwords = 0;
        return cp_fault(rd, CG_FAULT_BAD_STATE, 0, false,
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
            s = (cpstream){.base = ring_base(rd), .size = rdw, .mask = mask, .pos = rd->rptr, .ring = true};
        }
        uint32_t avail = rd->depth ? s.size - s.pos : ((rd->wptr - rd->rptr) & mask);
        rd->agent.stream_addr = s_va(&s, 0);
        rd->agent.nwords = 0;

        uint32_t need;
        uint32_t hdr = 0;
        if (rd->pending_skip) {
            need = rd->pending_skip < avail ? rd->pending_skip : avail;
            if (rd->depth && rd->pending_skip > avail) {
                result = cp_fault(rd, CG_FAULT_BAD_LENGTH, 0, false,
                                  "COND_EXEC skips %u dwords past the end of the IB (%u left)",
                                  rd->pending_skip, avail);
                break;
            }
            rd->pending_skip -= need;
        } else {
            if (fetch(rd, &s, 0, &hdr) != 0) {
                result = CG_ERR_FAULT;
                break;
            }
            rd->agent.words[0] = hdr;
            rd->agent.nwords = 1;
            need = packet_size(rd, hdr);
            uint32_t type = hdr >> 30;
            if (need > avail) {
                if (rd->depth || need > rdw - 1) {
                    result = cp_fault(rd, CG_FAULT_BAD_LENGTH, 0, false,
                                      "packet of %u dwords runs past the end of the %s (%u left)",
                                      need, rd->depth ? "IB" : "ring", rd->depth ? avail : rdw - 1);
                    break;
                }
                /* The rest of the packet is not committed yet: wait for it. */
                int w = wait_more(rd, "incomplete packet", 0);
                result = w == EXEC_BLOCK ? 0 : w;
                break;
            }
            /* Fixed-size payload for the executors. */
            uint32_t p[8] = {hdr};
            uint32_t np = need < 8 ? need : 8;
            for (uint32_t i = 1; i < np; i++)
                if (fetch(rd, &s, i, &p[i]) != 0) {
                    result = CG_ERR_FAULT;
                    goto out;
                }
            for (uint32_t i = 1; i < np && i < CG_FAULT_MAX_WORDS; i++)
                rd->agent.words[rd->agent.nwords++] = p[i];
            if (cg_trace_enabled(rd->dev)) {
                cg_trace_event ev = {.kind = CG_TRACE_PACKET, .family = CG_FAMILY_RADEON,
                                     .unit = "cp", .channel = 0, .stream_addr = rd->agent.stream_addr,
                                     .reg = type == 3 ? (hdr >> 8) & 0xff : 0, .value = hdr,
                                     .name = type == 3   ? rd->p3[(hdr >> 8) & 0xff].name
                                             : type == 2 ? "PACKET2"
                                             : type == 1 ? "PACKET1"
                                                         : "PACKET0"};
                cg_trace_emit(rd->dev, &ev);
            }
            int ex = EXEC_OK;
            uint32_t count = (hdr >> 16) & 0x3FFF;
            if (type == 0) {
                uint32_t reg;
                bool one = false;
                if (is_r500) {
                    /* R1xx-R5xx: 13-bit index, ONE_REG_WR bit 15 (r100d.h). */
                    reg = (hdr & 0x1FFF) << 2;
                    one = (hdr >> 15) & 1;
                } else {
                    reg = (hdr & 0xFFFF) << 2; /* R600: 16-bit index (r600d.h) */
                }
                if (!one && (uint64_t)reg + 4ull * count >= CG_RADEON_REG_SPACE)
                    ex = cp_fault(rd, CG_FAULT_INVALID_METHOD, reg, false,
                                  "type-0 write 0x%x..0x%llx leaves the register space", reg,
                                  (unsigned long long)reg + 4ull * count);
                else
                    ex = set_regs(rd, &s, 1, reg, count + 1, !one) ? CG_ERR_FAULT : EXEC_OK;
            } else if (type == 1) {
                if (!is_r500) {
                    ex = cp_fault(rd, CG_FAULT_INVALID_OPCODE, 0, false,
                                  "type-1 packet 0x%08x: type 1 exists only on R1xx-R5xx", hdr);
                } else {
                    /* REG0 bits 10:0, REG1 bits 21:11, dword indices. */
                    if (cp_reg_write(rd, (hdr & 0x7FF) << 2, p[1]) != 0 ||
                        cp_reg_write(rd, ((hdr >> 11) & 0x7FF) << 2, p[2]) != 0)
                        ex = CG_ERR_FAULT;
                }
            } else if (type == 3) {
                unsigned op = (hdr >> 8) & 0xff;
                const p3_desc *d = &rd->p3[op];
                if (!d->name) {
                    if (!rd->cfg.lenient) {
                        ex = cp_fault(rd, CG_FAULT_INVALID_OPCODE, 0, false,
                                      "unknown type-3 opcode 0x%02x (header 0x%08x) for %s", op,
                                      hdr, cg_radeon_gen_name(rd->cfg.gen));
                    } else {
                        /* gem5: warn and skip count + 1 payload dwords. */
                        rd->warnings++;
                        cp_fault(rd, CG_FAULT_INVALID_OPCODE, 0, true,
                                 "unknown type-3 opcode 0x%02x skipped (%u dwords)", op, need);
                    }
                } else if (count < d->min_count || count > d->max_count) {
                    ex = cp_fault(rd, CG_FAULT_BAD_LENGTH, 0, false,
                                  "%s with count %u (takes %u..%u)", d->name, count, d->min_count,
                                  d->max_count);
                } else {
                    ex = exec_type3(rd, &s, hdr, p, count);
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
                    if ((old >> blk_dw_shift) != (rd->rptr >> blk_dw_shift) && rptr_writeback(rd)) {
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
            if ((old >> blk_dw_shift) != (rd->rptr >> blk_dw_shift) && rptr_writeback(rd)) {
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
    if (!rd->stopped && rptr_writeback(rd) != 0)
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
            kick(rd);
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
