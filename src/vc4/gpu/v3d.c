/* vc4 family: the device (bus memory with its aliases; the ARM's view of it
 * is driver/arm.c), the V3D register block and the mailbox property
 * interface.
 *
 * Registers: research/vc4.md section 2 (torvalds/linux vc4_regs.h, widths
 * from brcm_usrlib_dag v3d.h). Mailbox: research/vc4.md section 5 (Linux
 * bcm2835-mailbox.c, the firmware wiki's property interface, tag ids from
 * include/soc/bcm2835/raspberrypi-firmware.h). */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "vc4/vc4_internal.h"
#include "vc4/qpu.h"
#include "vc4/scene.h"
#include "gpgpu.h"

#define SDRAM_DEFAULT (64u << 20)

int cg_vc4_create(cg_device *dev, const cg_vc4_config *cfg, cg_vc4 **out)
{
    if (!dev || !out)
        return CG_ERR_INVAL;
    *out = NULL;
    cg_vc4_config c = cfg ? *cfg : (cg_vc4_config){0};
    if (!c.sdram_size)
        c.sdram_size = SDRAM_DEFAULT;
    if (c.sdram_size % CG_PAGE_SIZE || c.sdram_size > (1u << 30) || c.sdram_size < (1u << 20))
        return CG_ERR_INVAL;
    /* unset budgets come from the device (device.h CG_BUDGET_TABLE) */
    if (!c.record_budget)
        c.record_budget = cg_device_budget(dev, CG_BUDGET_VC4_THREAD_UNITS);
    if (!c.qpu_budget)
        c.qpu_budget = cg_device_budget(dev, CG_BUDGET_VC4_QPU_INSNS);
    if (!c.fw_heap)
        c.fw_heap = c.sdram_size / 2;
    if (!c.render_threads) {
        /* the device's setting, capped at the host's CPUs */
        uint64_t n = cg_device_budget(dev, CG_BUDGET_VC4_RENDER_THREADS);
        long cpus = sysconf(_SC_NPROCESSORS_ONLN);
        if (cpus >= 1 && n > (uint64_t)cpus)
            n = (uint64_t)cpus;
        c.render_threads = n < 1 ? 1 : n > 64 ? 64 : (uint32_t)n;
    }
    const char *env = getenv("CMDGPU_VC4_RENDER_THREADS");
    if (env && *env) {
        long n = strtol(env, NULL, 10);
        if (n >= 1 && n <= 64)
            c.render_threads = (uint32_t)n;
    }
    const char *es = getenv("CMDGPU_VC4_EARLY_STORES");
    if (es && (*es == '0' || *es == '1') && !es[1])
        c.no_early_stores = *es == '0';
    const char *once = getenv("CMDGPU_VC4_POOL_AT_ONCE");
    if (once && (*once == '0' || *once == '1') && !once[1])
        c.pool_at_once = *once == '1';
    if (c.fw_heap >= c.sdram_size)
        return CG_ERR_INVAL;
    cg_vc4 *v = calloc(1, sizeof *v);
    if (!v)
        return CG_ERR_NOMEM;
    v->rend = vc4_render_new();
    if (!v->rend) {
        free(v);
        return CG_ERR_NOMEM;
    }
    v->dev = dev;
    v->cfg = c;
    v->render_threads = c.render_threads;
    v->pool_after_ns = c.pool_at_once ? 0 : VC4_POOL_AFTER_NS;
    int rc = cg_mem_create(dev, c.sdram_size, 0, &v->sdram);
    cg_vas_config vc = {.va_bits = 32};
    if (rc == 0)
        rc = cg_vas_create(dev, &vc, &v->bus);
    if (rc == 0)
        rc = cg_vas_create(dev, &vc, &v->arm);
    /* The four bus aliases (research/vc4.md section 5: 0xC... is uncached). */
    for (uint32_t a = 0; rc == 0 && a < 4; a++) {
        cg_map_params mp = {.mem = v->sdram, .va = (uint64_t)a << 30, .flags = CG_MAP_FIXED};
        uint64_t va;
        rc = cg_vas_map(v->bus, &mp, &va);
    }
    if (rc == 0) {
        cg_map_params mp = {.mem = v->sdram, .va = 0,
                            .flags = CG_MAP_FIXED | (c.cpu_cached ? CG_MAP_CPU_CACHED : 0)};
        uint64_t va;
        rc = cg_vas_map(v->arm, &mp, &va);
    }
    if (rc != 0) {
        cg_vc4_destroy(v);
        return rc;
    }
    static const char *units[2] = {"ct0", "ct1"};
    for (int t = 0; t < 2; t++) {
        v->th[t].agent.family = CG_FAMILY_VC4;
        v->th[t].agent.unit = units[t];
        v->th[t].agent.channel = t;
    }
    *out = v;
    return 0;
}

void cg_vc4_destroy(cg_vc4 *v)
{
    if (!v)
        return;
    vc4_pool_destroy(v);
    free(v->bin.tiles);
    vc4_gl_cache_free(v->bin.glc);
    if (v->rend) {
        vc4_gl_cache_free(v->rend->glc);
        free(v->rend->batch);
        vc4_qpu_cache_destroy(v->rend->qcache);
    }
    vc4_render_free(v->rend);
    vc4_gpgpu_destroy(v);
    cg_vas_destroy(v->bus);
    cg_vas_destroy(v->arm);
    cg_mem_unref(v->sdram);
    free(v->allocs);
    free(v);
}

cg_device *cg_vc4_device(const cg_vc4 *v) { return v ? v->dev : NULL; }
cg_vas *cg_vc4_bus(const cg_vc4 *v) { return v ? v->bus : NULL; }
cg_mem *cg_vc4_sdram(const cg_vc4 *v) { return v ? v->sdram : NULL; }

/* ---- registers ---- */

static const struct {
    const char *name;
    uint32_t off;
} reg_names[] = {
#define CG_X_NAME(name, off) {#name, off},
    CG_VC4_REG_TABLE(CG_X_NAME)
#undef CG_X_NAME
};

const char *cg_vc4_reg_name(uint32_t off)
{
    for (size_t i = 0; i < CG_ARRAY_SIZE(reg_names); i++)
        if (reg_names[i].off == off)
            return reg_names[i].name;
    return NULL;
}

int cg_vc4_reg_from_name(const char *name, uint32_t *off)
{
    for (size_t i = 0; name && i < CG_ARRAY_SIZE(reg_names); i++)
        if (strcmp(reg_names[i].name, name) == 0) {
            *off = reg_names[i].off;
            return 0;
        }
    return CG_ERR_NOENT;
}

static uint32_t thread_cs(const cg_vc4 *v, int t)
{
    const vc4_thread *th = &v->th[t];
    uint32_t cs = th->cs & (CG_VC4_CS_ERR | CG_VC4_CS_MODE);
    if (th->running)
        cs |= CG_VC4_CS_RUN;
    cs |= (uint32_t)(th->depth & 3) << 8;
    if (th->waiting_sem)
        cs |= CG_VC4_CS_SEMA;
    return cs;
}

int cg_vc4_reg_read(cg_vc4 *v, uint32_t off, uint32_t *val)
{
    if (!v || !val)
        return CG_ERR_INVAL;
    if (off >= 0x1000 || (off & 3))
        return CG_ERR_RANGE;
    uint32_t r = 0;
    if (vc4_gpgpu_reg_read(v, off, val))
        return 0;
    switch (off) {
    case CG_VC4_IDENT0: r = 0x02443356u; break; /* "V3D" + version 2 */
    /* IDENT1 (research/vc4.md 2): 3 slices x 4 QPUs (the 12 QPUs of
     * research/vc4.md 6), 2 TMUs per slice (tmu0 and tmu1, section 3), 16
     * semaphores (section 3: "the 16 hardware semaphores"), revision 1. The
     * VPM size field [31:28] reads 0: the VPM arrives with the GL pipeline. */
    case CG_VC4_IDENT1: r = 0u << 28 | 16u << 16 | 2u << 12 | 4u << 8 | 3u << 4 | 1u; break;
    case CG_VC4_IDENT2: r = 0x00000111u; break;
    case CG_VC4_SCRATCH: r = v->scratch; break;
    case CG_VC4_L2CACTL: r = v->l2cactl & 1; break;
    case CG_VC4_SLCACTL: r = 0; break;
    case CG_VC4_INTCTL: r = v->intctl; break;
    case CG_VC4_INTENA:
    case CG_VC4_INTDIS: r = v->intena; break;
    case CG_VC4_CT0CS: r = thread_cs(v, 0); break;
    case CG_VC4_CT1CS: r = thread_cs(v, 1); break;
    case CG_VC4_CT0EA: r = v->th[0].ea; break;
    case CG_VC4_CT1EA: r = v->th[1].ea; break;
    case CG_VC4_CT0CA: r = v->th[0].ca; break;
    case CG_VC4_CT1CA: r = v->th[1].ca; break;
    case CG_VC4_CT00RA0: r = v->th[0].depth ? v->th[0].ret[v->th[0].depth - 1] : 0; break;
    case CG_VC4_CT01RA0: r = v->th[1].depth ? v->th[1].ret[v->th[1].depth - 1] : 0; break;
    case CG_VC4_CT0LC: r = v->th[0].lc; break;
    case CG_VC4_CT1LC: r = v->th[1].lc; break;
    case CG_VC4_CT0PC: r = v->th[0].pc; break;
    case CG_VC4_CT1PC: r = v->th[1].pc; break;
    case CG_VC4_PCS:
        r = (v->th[0].running ? CG_VC4_PCS_BMACTIVE | CG_VC4_PCS_BMBUSY : 0) |
            (v->th[1].running ? CG_VC4_PCS_RMACTIVE | CG_VC4_PCS_RMBUSY : 0) |
            (v->bmoom ? CG_VC4_PCS_BMOOM : 0);
        break;
    case CG_VC4_BFC: r = v->bfc & 0xFF; break;
    case CG_VC4_RFC: r = v->rfc & 0xFF; break;
    case CG_VC4_BPCA: r = v->bpca; break;
    case CG_VC4_BPCS: r = v->bpcs; break;
    case CG_VC4_BPOA: r = v->bpoa; break;
    case CG_VC4_BPOS: r = v->bpos; break;
    default: r = 0; break;
    }
    *val = r;
    return 0;
}

static void thread_reset(cg_vc4 *v, int t)
{
    vc4_thread *th = &v->th[t];
    th->running = th->waiting_sem = th->faulted = false;
    th->cs = 0;
    th->depth = 0;
    th->sem = th->pending_inc = 0;
    if (t == 0) {
        v->bin.oom = false;
        v->bmoom = false;
    }
}

int cg_vc4_reg_write(cg_vc4 *v, uint32_t off, uint32_t val)
{
    if (!v)
        return CG_ERR_INVAL;
    if (off >= 0x1000 || (off & 3))
        return CG_ERR_RANGE;
    if (cg_trace_enabled(v->dev)) {
        cg_trace_event ev = {.kind = CG_TRACE_REG_WRITE, .family = CG_FAMILY_VC4, .unit = "v3d",
                             .channel = -1, .reg = off, .value = val, .name = cg_vc4_reg_name(off)};
        cg_trace_emit(v->dev, &ev);
    }
    int grc;
    if (vc4_gpgpu_reg_write(v, off, val, &grc))
        return grc;
    switch (off) {
    case CG_VC4_SCRATCH: v->scratch = val; break;
    case CG_VC4_L2CACTL:
        /* [0] enable, [1] disable, [2] clear. The model's L2 holds no data
         * (GPU accesses through every alias reach SDRAM), so clear is a no-op. */
        if (val & 2)
            v->l2cactl = 0;
        else if (val & 1)
            v->l2cactl = 1;
        break;
    case CG_VC4_SLCACTL: v->slcactl = val; break;
    case CG_VC4_INTCTL:
        /* write 1 to acknowledge; OUTOMEM stays high while the binner is
         * still out of memory (research/vc4.md section 2) */
        v->intctl &= ~val;
        if (v->bin.oom)
            v->intctl |= CG_VC4_INT_OUTOMEM;
        break;
    case CG_VC4_INTENA: v->intena |= val & 0xF; break;
    case CG_VC4_INTDIS: v->intena &= ~(val & 0xF); break;
    case CG_VC4_CT0CS:
    case CG_VC4_CT1CS: {
        int t = off == CG_VC4_CT1CS;
        if (val & CG_VC4_CS_RESET)
            thread_reset(v, t);
        else if ((val & CG_VC4_CS_RUN) == 0 && (val & CG_VC4_CS_ERR))
            v->th[t].cs &= ~CG_VC4_CS_ERR;
        break;
    }
    case CG_VC4_CT0CA:
    case CG_VC4_CT1CA: v->th[off == CG_VC4_CT1CA].ca = val; break;
    case CG_VC4_CT0EA:
    case CG_VC4_CT1EA: {
        int t = off == CG_VC4_CT1EA;
        v->th[t].ea = val;
        return vc4_thread_kick(v, t);
    }
    case CG_VC4_BFC:
        if (val & 1)
            v->bfc = 0;
        break;
    case CG_VC4_RFC:
        if (val & 1)
            v->rfc = 0;
        break;
    case CG_VC4_BPOA: v->bpoa = val; break;
    case CG_VC4_BPOS:
        v->bpos = val;
        /* the driver writes BPOA then BPOS: a waiting binner retries */
        if (v->bin.oom && val)
            return vc4_run_threads(v);
        break;
    default: break;
    }
    return 0;
}

/* ---- mailbox property interface ---- */

enum {
    TAG_FW_REV = 0x1, TAG_BOARD_MODEL = 0x10001, TAG_BOARD_REV = 0x10002,
    TAG_ALLOC_MEM = 0x3000C, TAG_LOCK_MEM = 0x3000D, TAG_UNLOCK_MEM = 0x3000E,
    TAG_RELEASE_MEM = 0x3000F, TAG_EXEC_QPU = 0x30011, TAG_ENABLE_QPU = 0x30012,
    TAG_GET_CLOCK = 0x30002, TAG_SET_CLOCK = 0x38002, TAG_ALLOC_FB = 0x40001,
    TAG_GET_PHYS = 0x40003, TAG_GET_VIRT = 0x40004, TAG_GET_DEPTH = 0x40005,
    TAG_GET_PITCH = 0x40008, TAG_GET_VOFF = 0x40009, TAG_RELEASE_FB = 0x48001,
    TAG_SET_PHYS = 0x48003, TAG_SET_VIRT = 0x48004, TAG_SET_DEPTH = 0x48005,
    TAG_SET_VOFF = 0x48009,
};

typedef struct fw_block {
    uint64_t addr, end;
} fw_block;

static int cmp_block(const void *a, const void *b)
{
    const fw_block *x = a, *y = b;
    return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* A block of the firmware heap: the lowest address, aligned, where size
 * bytes fit between the live blocks (first fit: freed blocks are reused,
 * and free neighbours are one gap). 0 when none fits. */
static uint32_t fw_alloc(cg_vc4 *v, uint32_t size, uint32_t align)
{
    if (align < 16)
        align = 16;
    if (align & (align - 1) || !size)
        return 0;
    fw_block *live = malloc(((size_t)v->nallocs + 1) * sizeof *live);
    if (!live)
        return 0;
    size_t n = 0;
    for (unsigned i = 0; i < v->nallocs; i++)
        if (v->allocs[i].size)
            live[n++] = (fw_block){v->allocs[i].addr, (uint64_t)v->allocs[i].addr + v->allocs[i].size};
    if (v->fb_valid && v->fb_size)
        live[n++] = (fw_block){v->fb_addr, (uint64_t)v->fb_addr + v->fb_size};
    qsort(live, n, sizeof *live, cmp_block);
    uint64_t a = ((uint64_t)v->cfg.fw_heap + align - 1) & ~(uint64_t)(align - 1);
    for (size_t i = 0; i < n && live[i].addr < a + size; i++)
        if (live[i].end > a)
            a = (live[i].end + align - 1) & ~(uint64_t)(align - 1);
    free(live);
    return a + size > v->cfg.sdram_size ? 0 : (uint32_t)a;
}

/* One tag: val points at its value buffer (cap bytes). Returns the response
 * length, or -1 for an unknown tag (left untouched, as the firmware does). */
/* Allocate framebuffer (in[0]: alignment) -> bus address, size. */
static void mbox_alloc_fb(cg_vc4 *v, const uint32_t in[4], uint32_t outv[4])
{
    /* sizes the firmware could not scan out allocate nothing */
    uint32_t size = v->virt_w && v->virt_h && v->virt_w <= 8192 && v->virt_h <= 8192
                        ? v->virt_w * v->virt_h * (v->depth / 8) : 0;
    if (!v->fb_valid || v->fb_size != size) {
        uint32_t a = size ? fw_alloc(v, size, in[0] ? in[0] : 4096) : 0;
        v->fb_addr = a;
        v->fb_size = a ? size : 0;
        v->fb_valid = a != 0;
    }
    /* a bus address in the uncached 0xC... alias (research/vc4.md 5) */
    outv[0] = v->fb_valid ? (0xC0000000u | v->fb_addr) : 0;
    outv[1] = v->fb_size;
}

/* The GPU memory tags: allocate (size, alignment, flags -> handle, 0 on
 * failure), lock (handle -> bus address), unlock and release (handle ->
 * status, nonzero = error). */
static uint32_t mbox_mem(cg_vc4 *v, uint32_t id, const uint32_t in[4])
{
    if (id == TAG_ALLOC_MEM) {
        uint32_t a = fw_alloc(v, in[0], in[1]);
        if (!a)
            return 0;
        unsigned slot = 0; /* a released slot, else a new one */
        while (slot < v->nallocs && v->allocs[slot].size)
            slot++;
        if (slot == v->cap_allocs) {
            unsigned nc = v->cap_allocs ? 2 * v->cap_allocs : 16;
            vc4_fw_alloc *na = realloc(v->allocs, nc * sizeof *na);
            if (!na)
                return 0;
            v->allocs = na, v->cap_allocs = nc;
        }
        if (slot == v->nallocs)
            v->nallocs++;
        vc4_fw_alloc *al = &v->allocs[slot];
        /* handles grow (1, 2, ...: a stale handle never names a newer
         * block), without a limit; 0 is never one */
        if (++v->next_handle == 0)
            v->next_handle = 1;
        *al = (vc4_fw_alloc){.handle = v->next_handle, .addr = a, .size = in[0], .flags = in[2]};
        return al->handle;
    }
    uint32_t out = id == TAG_LOCK_MEM ? 0 : 1;
    for (unsigned i = 0; i < v->nallocs; i++)
        if (v->allocs[i].handle == in[0] && v->allocs[i].size) {
            vc4_fw_alloc *al = &v->allocs[i];
            if (id == TAG_LOCK_MEM) {
                /* firmware wiki, MEM_FLAG_*: bits 3:2 pick the alias:
                 * 0 NORMAL (0x0), 1 DIRECT (0xC, uncached), 2 COHERENT
                 * (0x8, L2 non-allocating), 3 L1_NONALLOCATING (0x4) */
                static const uint32_t alias_of[4] = {0x00000000u, 0xC0000000u, 0x80000000u,
                                                     0x40000000u};
                uint32_t alias = alias_of[(al->flags >> 2) & 3];
                al->locked = true;
                out = alias | al->addr;
            } else if (id == TAG_UNLOCK_MEM) {
                al->locked = false;
                out = 0;
            } else {
                al->size = 0;
                out = 0;
            }
        }
    return out;
}

static int mbox_tag(cg_vc4 *v, uint32_t id, uint32_t *val, uint32_t cap_words)
{
    uint32_t in[4] = {0};
    for (uint32_t i = 0; i < 4 && i < cap_words; i++)
        in[i] = val[i];
    uint32_t outv[4] = {0};
    int len;
    switch (id) {
    /* The seed: "Firmware revision and board model both come back as 0". */
    case TAG_FW_REV: outv[0] = 0; len = 4; break;
    case TAG_BOARD_MODEL: outv[0] = 0; len = 4; break;
    case TAG_BOARD_REV: outv[0] = 0x0010; len = 4; break; /* a Pi 1 model B+ */
    case TAG_SET_PHYS: v->phys_w = in[0], v->phys_h = in[1]; /* fall through */
    case TAG_GET_PHYS: outv[0] = v->phys_w, outv[1] = v->phys_h; len = 8; break;
    case TAG_SET_VIRT: v->virt_w = in[0], v->virt_h = in[1]; /* fall through */
    case TAG_GET_VIRT: outv[0] = v->virt_w, outv[1] = v->virt_h; len = 8; break;
    case TAG_SET_DEPTH:
        if (in[0] == 16 || in[0] == 24 || in[0] == 32 || in[0] == 8)
            v->depth = in[0];
        /* fall through */
    case TAG_GET_DEPTH: outv[0] = v->depth; len = 4; break;
    case TAG_SET_VOFF: v->virt_x = in[0], v->virt_y = in[1]; /* fall through */
    case TAG_GET_VOFF: outv[0] = v->virt_x, outv[1] = v->virt_y; len = 8; break;
    case TAG_GET_PITCH: outv[0] = v->virt_w * (v->depth / 8); len = 4; break;
    case TAG_ALLOC_FB: mbox_alloc_fb(v, in, outv); len = 8; break;
    case TAG_RELEASE_FB: v->fb_valid = false; len = 0; break;
    case TAG_SET_CLOCK:
        if (in[0] == 5) /* V3D clock id (research/vc4.md section 5) */
            v->clock_v3d = in[1];
        outv[0] = in[0], outv[1] = in[1];
        len = 8;
        break;
    case TAG_GET_CLOCK:
        outv[0] = in[0], outv[1] = in[0] == 5 ? (v->clock_v3d ? v->clock_v3d : 250000000u) : 0;
        len = 8;
        break;
    case TAG_ENABLE_QPU: v->qpu_enabled = in[0] != 0; outv[0] = 0; len = 4; break;
    case TAG_ALLOC_MEM:
    case TAG_LOCK_MEM:
    case TAG_UNLOCK_MEM:
    case TAG_RELEASE_MEM: outv[0] = mbox_mem(v, id, in); len = 4; break;
    case TAG_EXEC_QPU:
        /* num_qpus, control, noflush, timeout (ms) -> 0 or 0x80000000 */
        outv[0] = vc4_gpgpu_exec_qpu(v, in[0], in[1], in[2], in[3]);
        len = 4;
        break;
    default: return -1;
    }
    for (int i = 0; i < len / 4 && (uint32_t)i < cap_words; i++)
        val[i] = outv[i];
    return len;
}

/* Process the property buffer at bus address `addr`. The firmware reads it
 * through the GPU's view, so a buffer the ARM has not flushed is reported by
 * the coherency model. */
static int mbox_property(cg_vc4 *v, uint32_t addr)
{
    cg_agent who = {.family = CG_FAMILY_VC4, .unit = "mailbox", .channel = 8, .stream_addr = addr};
    uint32_t size, code;
    if (cg_vas_read32(v->bus, addr, &size, &who) != 0)
        return CG_ERR_FAULT;
    if (size < 12 || size > 65536 || (size & 3)) {
        cg_fault_post(v->dev, &who, CG_FAULT_BAD_LENGTH, addr,
                      "mailbox: property buffer size %u is not 12..65536 and a multiple of 4", size);
        return CG_ERR_FAULT;
    }
    uint32_t *buf = malloc(size);
    if (!buf)
        return CG_ERR_NOMEM;
    int rc = cg_vas_read(v->bus, addr, buf, size, &who);
    if (rc != 0) {
        free(buf);
        return rc;
    }
    code = buf[1];
    (void)code;
    uint32_t nw = size / 4, i = 2;
    bool ok = true;
    while (i < nw && buf[i] != 0) {
        if (i + 3 > nw) {
            ok = false;
            break;
        }
        uint32_t id = buf[i], vsize = buf[i + 1];
        uint32_t vwords = (vsize + 3) / 4;
        if (vwords > nw - i - 3) {
            ok = false;
            break;
        }
        int len = mbox_tag(v, id, &buf[i + 3], vwords);
        if (len >= 0)
            buf[i + 2] = 0x80000000u | (uint32_t)len;
        i += 3 + vwords;
    }
    buf[1] = ok ? 0x80000000u : 0x80000001u;
    rc = cg_vas_write(v->bus, addr, buf, size, &who);
    free(buf);
    return rc;
}

int cg_vc4_mbox_write(cg_vc4 *v, uint32_t msg)
{
    if (!v)
        return CG_ERR_INVAL;
    if (v->mbox_n >= CG_ARRAY_SIZE(v->mbox_q))
        return CG_ERR_BUSY;
    uint32_t ch = msg & 0xF;
    if (ch == CG_VC4_MBOX_CH_PROPERTY) {
        int rc = mbox_property(v, msg & ~0xFu);
        if (rc == CG_ERR_NOMEM)
            return rc;
    } else if (ch == 1) {
        /* the old framebuffer channel: not modelled */
        vc4_fault(v, NULL, CG_FAULT_UNSUPPORTED, msg & ~0xFu,
                  "mailbox channel 1 (framebuffer): not supported yet, use channel 8");
    }
    v->mbox_q[v->mbox_n++] = msg;
    return 0;
}

int cg_vc4_mbox_read(cg_vc4 *v, uint32_t *msg)
{
    if (!v || !msg)
        return CG_ERR_INVAL;
    if (!v->mbox_n)
        return CG_ERR_BUSY;
    *msg = v->mbox_q[0];
    memmove(v->mbox_q, v->mbox_q + 1, (v->mbox_n - 1) * sizeof v->mbox_q[0]);
    v->mbox_n--;
    return 0;
}

uint32_t cg_vc4_mbox_status(const cg_vc4 *v)
{
    if (!v)
        return 0;
    uint32_t s = 0;
    if (v->mbox_n == 0)
        s |= CG_VC4_MBOX_EMPTY;
    if (v->mbox_n >= CG_ARRAY_SIZE(v->mbox_q))
        s |= CG_VC4_MBOX_FULL;
    return s;
}

int cg_vc4_mmio_read(cg_vc4 *v, uint32_t off, uint32_t *val)
{
    if (!v || !val)
        return CG_ERR_INVAL;
    if (off >= CG_VC4_V3D_BASE && off < CG_VC4_V3D_BASE + 0x1000)
        return cg_vc4_reg_read(v, off - CG_VC4_V3D_BASE, val);
    if (off == CG_VC4_MBOX_BASE + CG_VC4_MBOX_READ) {
        int rc = cg_vc4_mbox_read(v, val);
        if (rc == CG_ERR_BUSY)
            *val = 0;
        return 0;
    }
    if (off == CG_VC4_MBOX_BASE + CG_VC4_MBOX_STATUS) {
        *val = cg_vc4_mbox_status(v);
        return 0;
    }
    return CG_ERR_NOENT;
}

int cg_vc4_mmio_write(cg_vc4 *v, uint32_t off, uint32_t val)
{
    if (!v)
        return CG_ERR_INVAL;
    if (off >= CG_VC4_V3D_BASE && off < CG_VC4_V3D_BASE + 0x1000)
        return cg_vc4_reg_write(v, off - CG_VC4_V3D_BASE, val);
    if (off == CG_VC4_MBOX_BASE + CG_VC4_MBOX_WRITE)
        return cg_vc4_mbox_write(v, val);
    return CG_ERR_NOENT;
}

int cg_vc4_framebuffer(const cg_vc4 *v, cg_vc4_fb *out)
{
    if (!v || !out)
        return CG_ERR_INVAL;
    if (!v->fb_valid)
        return CG_ERR_NOENT;
    out->bus_addr = 0xC0000000u | v->fb_addr;
    out->size = v->fb_size;
    out->width = v->virt_w;
    out->height = v->virt_h;
    out->depth = v->depth;
    out->pitch = v->virt_w * (v->depth / 8);
    return 0;
}

void cg_vc4_get_stats(const cg_vc4 *v, cg_vc4_stats *out)
{
    if (v && out)
        *out = v->stats;
}

int cg_vc4_run(cg_vc4 *v)
{
    if (!v)
        return CG_ERR_INVAL;
    int rc = vc4_run_threads(v);
    if (rc == 0 && v->gp)
        rc = vc4_gpgpu_run(v);
    return rc;
}

int cg_vc4_wait_idle(cg_vc4 *v)
{
    if (!v)
        return CG_ERR_INVAL;
    int rc = vc4_run_threads(v);
    if (rc == CG_ERR_NOMEM)
        return rc;
    bool hang = false, fault = false;
    /* user programs: run what can run, then end every blocked QPU */
    if (v->gp && (vc4_gpgpu_run(v) == CG_ERR_NOMEM))
        return CG_ERR_NOMEM;
    if (vc4_gpgpu_watchdog(v))
        hang = true;
    for (int t = 0; t < 2; t++) {
        vc4_thread *th = &v->th[t];
        if (th->faulted)
            fault = true;
        if (!th->running)
            continue;
        hang = true;
        th->agent.stream_addr = th->ca;
        if (t == 0 && v->bin.oom)
            /* the binner would wait for BPOA/BPOS forever: the watchdog
             * ends it as a hang (issue 5), the message says why */
            vc4_fault(v, th, CG_FAULT_HANG, th->ca,
                      "watchdog: binner out of memory (OUTOMEM) and no overspill memory "
                      "was supplied through BPOA/BPOS");
        else if (th->waiting_sem)
            vc4_fault(v, th, CG_FAULT_HANG, th->ca,
                      "watchdog: %s at 0x%08x never satisfied (the other thread "
                      "never increments)", cg_vc4_cl_name(VC4_OP_Wait_on_Semaphore), th->ca);
        else
            vc4_fault(v, th, CG_FAULT_HANG, th->ca, "watchdog: thread %d cannot progress", t);
        if (t == 0) {
            v->bin.oom = false;
            v->bmoom = false;
        }
    }
    return hang ? CG_ERR_TIMEOUT : fault ? CG_ERR_FAULT : 0;
}

/* ---- framebuffer images ---- */

/* One copy of the frame buffer out of SDRAM (the memory the display reads,
 * not the ARM's cache); the scene runner reads it once and hashes and
 * encodes that copy (scene.h). */
int vc4_fb_image(cg_vc4 *v, uint32_t addr, uint32_t w, uint32_t h, uint32_t pitch,
                 uint32_t depth, cg_image *img, uint8_t **buf)
{
    if (!v || !w || !h || w > 65535 || h > 65535)
        return CG_ERR_INVAL;
    cg_format f;
    unsigned bpp;
    if (depth == 32)
        f = CG_FORMAT_BGRA8888, bpp = 4;
    else if (depth == 16)
        f = CG_FORMAT_RGB565, bpp = 2;
    else
        return CG_ERR_UNSUPPORTED;
    if (pitch < w * bpp)
        return CG_ERR_INVAL;
    size_t n = (size_t)pitch * (h - 1) + (size_t)w * bpp;
    *buf = malloc(n);
    if (!*buf)
        return CG_ERR_NOMEM;
    uint32_t p = addr & 0x3FFFFFFFu;
    if ((uint64_t)p + n > v->cfg.sdram_size) {
        free(*buf);
        *buf = NULL;
        return CG_ERR_RANGE;
    }
    cg_mem_read(v->sdram, p, *buf, n);
    *img = (cg_image){w, h, pitch, f, *buf};
    return 0;
}

int cg_vc4_fb_hash(cg_vc4 *v, uint32_t addr, uint32_t w, uint32_t h, uint32_t pitch,
                   uint32_t depth, uint64_t *hash)
{
    cg_image img;
    uint8_t *buf = NULL;
    int rc = vc4_fb_image(v, addr, w, h, pitch, depth, &img, &buf);
    if (rc == 0)
        *hash = cg_image_hash(&img);
    free(buf);
    return rc;
}

int cg_vc4_fb_png(cg_vc4 *v, uint32_t addr, uint32_t w, uint32_t h, uint32_t pitch,
                  uint32_t depth, const char *path)
{
    cg_image img;
    uint8_t *buf = NULL;
    int rc = vc4_fb_image(v, addr, w, h, pitch, depth, &img, &buf);
    if (rc == 0)
        rc = cg_image_write_png(path, &img);
    free(buf);
    return rc;
}
