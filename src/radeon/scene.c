/* radeon family: scenes (cmdgpu run -f radeon) through the core's runner
 * (include/cmdgpu/scene.h): the driver is brought up on a new model, every
 * section is loaded at its GPU address, then the recorded actions play in
 * order, each logging a line. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "scene.h"
#include "cmdgpu/capfile.h"
#include "core/internal.h"

typedef struct rd_run {
    const cg_scene *sc;
    cg_device *dev;
    FILE *log;
    cg_radeon *rd;
    cg_radeon_drv *drv;
    size_t faults_before;
    uint64_t last_fence;
    int fails;
} rd_run;

static uint32_t le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* The section an action names (str1). */
static int find_section(const rd_run *r, const cg_scene_action *a, const char **name,
                        uint64_t *base, const uint8_t **data, size_t *size)
{
    static char sec[RD_SECTION_MAX + 1];
    size_t idx;
    if (!cg_scene_str(a->str1, a->str1_len, sec, sizeof sec))
        return CG_ERR_NOENT;
    *name = sec;
    const cg_asm *as = cg_scene_sections(r->sc);
    if (cg_asm_section_find(as, sec, &idx) != 0)
        return CG_ERR_NOENT;
    const char *nm;
    return cg_asm_section(as, idx, &nm, base, data, size);
}

/* Copy a section's packets into the ring in chunks that end on packet
 * boundaries (commit pads with type-2 NOPs, which must not split a packet). */
static int submit(rd_run *r, const uint8_t *data, size_t size, const char *name)
{
    if (size % 4) {
        fprintf(r->log, "FAIL submit %s: %zu bytes is not a whole number of dwords\n", name, size);
        return 1;
    }
    uint32_t ring_dw;
    cg_radeon_ring_info(r->drv, &ring_dw, NULL, NULL, NULL);
    size_t nw = size / 4, limit = ring_dw / 2, i = 0;
    while (i < nw) {
        size_t j = i;
        while (j < nw) {
            size_t len = rd_packet_dwords(le32(data + 4 * j));
            if (len > nw - j)
                len = nw - j; /* a truncated last packet goes in as it is */
            if (j + len - i > limit) {
                if (j == i) {
                    fprintf(r->log, "FAIL submit %s: a %zu-dword packet does not fit in half the "
                                    "ring (%zu dwords)\n", name, len, limit);
                    return 1;
                }
                break;
            }
            j += len;
        }
        int rc = cg_radeon_ring_lock(r->drv, (unsigned)(j - i));
        if (rc != 0) {
            fprintf(r->log, "FAIL submit %s: ring_lock(%zu): %s\n", name, j - i, cg_strerror(rc));
            return 1;
        }
        for (size_t k = i; k < j; k++)
            cg_radeon_ring_write(r->drv, le32(data + 4 * k));
        if ((rc = cg_radeon_ring_unlock_commit(r->drv)) != 0) {
            fprintf(r->log, "FAIL submit %s: commit: %s\n", name, cg_strerror(rc));
            return 1;
        }
        i = j;
    }
    fprintf(r->log, "submit %s: %zu dwords\n", name, nw);
    return 0;
}

static void status(rd_run *r)
{
    cg_radeon_cp_status st;
    cg_radeon_cp_get_status(r->rd, &st);
    fprintf(r->log, "cp: %s rptr %u wptr %u ib_depth %u packets %" PRIu64 " dwords %" PRIu64,
            cg_radeon_cp_state_name(st.state), st.rptr, st.wptr, st.ib_depth, st.packets,
            st.dwords);
    if (st.trace_valid)
        fprintf(r->log, " last trace point %u", st.last_trace);
    fprintf(r->log, "\n");
}

static int rd_open(const cg_scene *sc, cg_device *dev, const cg_scene_opts *o, void **out)
{
    uint64_t gen = CG_RADEON_R600, lenient = 0, ring = 0;
    cg_scene_config(sc, RD_CFG_GEN, &gen);
    cg_scene_config(sc, RD_CFG_LENIENT, &lenient);
    cg_scene_config(sc, RD_CFG_RING_BYTES, &ring);
    FILE *log = o->log ? o->log : stderr;
    if (gen >= CG_RADEON_GEN_COUNT || ring > UINT32_MAX)
        return CG_ERR_INVAL;
    if (gen == CG_RADEON_R500) {
        fprintf(log, "FAIL scenes need r600, r700 or evergreen: the driver side speaks the R600 "
                     "register map (r500 is disassembly and packet decoding only)\n");
        return 1;
    }
    rd_run *r = calloc(1, sizeof *r);
    if (!r)
        return CG_ERR_NOMEM;
    *r = (rd_run){.sc = sc, .dev = dev, .log = log, .faults_before = cg_fault_count(dev)};
    cg_radeon_config c = {.gen = (cg_radeon_gen)gen, .lenient = lenient != 0};
    int rc = cg_radeon_create(dev, &c, &r->rd);
    cg_radeon_drv_config dc = {.ring_bytes = (uint32_t)ring};
    if (rc == 0 && (rc = cg_radeon_drv_create(r->rd, &dc, &r->drv)) != 0)
        cg_radeon_destroy(r->rd);
    if (rc) {
        free(r);
        return rc;
    }
    *out = r;
    return 0;
}

/* .map / .map_ro: a buffer object placed anywhere in the 40-bit MC space
 * ("rdev->mc.mc_mask = 0xffffffffffULL; 40 bit MC", radeon_device.c),
 * read-only as a GART page without R600_PTE_WRITEABLE (a read-only
 * userptr). They exist from the start, so sections can be loaded there. */
static int rd_map(void *run, const cg_scene_action *a)
{
    rd_run *r = run;
    cg_mem *m = NULL;
    uint64_t va;
    cg_map_params mp = {.va = (uint64_t)a->a, .flags = CG_MAP_FIXED};
    if (a->kind == ACT_MAP_RO)
        mp.flags |= CG_MAP_READ_ONLY;
    int rc = cg_mem_create(r->dev, (uint64_t)a->b, 0, &m);
    if (rc == 0) {
        mp.mem = m;
        rc = cg_vas_map(r->rd->vas, &mp, &va);
        cg_mem_unref(m); /* the mapping holds its own reference */
    }
    if (rc == 0)
        return 0;
    fprintf(r->log, "FAIL map 0x%" PRIx64 " (0x%" PRIx64 " bytes): %s\n", (uint64_t)a->a,
            (uint64_t)a->b, cg_strerror(rc));
    r->fails++;
    return 1;
}

/* A section, anywhere but the start of the GTT, which the driver owns. */
static int rd_place(void *run, const char *name, uint64_t base, const uint8_t *data, size_t size)
{
    rd_run *r = run;
    if (base < r->rd->gtt_next && base + size > CG_RADEON_GTT_BASE) {
        fprintf(r->log, "FAIL section %s at 0x%" PRIx64 " overlaps the driver's ring/writeback "
                        "area [0x%" PRIx64 ", 0x%" PRIx64 ")\n", name, base,
                (uint64_t)CG_RADEON_GTT_BASE, r->rd->gtt_next);
    } else if (cg_vas_cpu_write(r->rd->vas, base, data, size) != 0) {
        fprintf(r->log, "FAIL section %s at 0x%" PRIx64 " (%zu bytes) is not in VRAM [0, 0x%" PRIx64
                        ") or the GTT [0x%" PRIx64 ", 0x%" PRIx64 ")\n", name, base, size,
                r->rd->cfg.vram_size, (uint64_t)CG_RADEON_GTT_BASE,
                (uint64_t)(CG_RADEON_GTT_BASE + r->rd->cfg.gtt_size));
    } else {
        return 0;
    }
    r->fails++;
    return 1;
}

/* .ib: INDIRECT_BUFFER to the section at its base, then a fence. */
static int act_ib(rd_run *r, const cg_scene_action *a)
{
    const char *sec;
    uint64_t base;
    const uint8_t *data;
    size_t size;
    int rc;
    if (find_section(r, a, &sec, &base, &data, &size) != 0) {
        fprintf(r->log, "FAIL ib: no section '%s'\n", sec);
        return 1;
    }
    if ((base & 3) || (base >> 40)) {
        fprintf(r->log, "FAIL ib %s: base 0x%" PRIx64 " is not a 4-aligned 40-bit address\n", sec,
                base);
        return 1;
    }
    if (size % 4 || size == 0 || size / 4 > 0xFFFFF) {
        fprintf(r->log, "FAIL ib %s: %zu bytes is not 1..2^20-1 dwords\n", sec, size);
        return 1;
    }
    if ((rc = cg_radeon_ring_lock(r->drv, 32)) != 0) {
        fprintf(r->log, "FAIL ib %s: ring_lock: %s\n", sec, cg_strerror(rc));
        return 1;
    }
    rd_ring_ib_execute(r->drv, base, (uint32_t)(size / 4));
    cg_radeon_fence_emit(r->drv, &r->last_fence);
    cg_radeon_ring_unlock_commit(r->drv);
    fprintf(r->log, "ib %s at 0x%" PRIx64 ": %zu dwords, fence %" PRIu64 "\n", sec, base, size / 4,
            r->last_fence);
    return 0;
}

static int act_fence(rd_run *r)
{
    int rc = cg_radeon_ring_lock(r->drv, 16);
    if (rc == 0) {
        cg_radeon_fence_emit(r->drv, &r->last_fence);
        rc = cg_radeon_ring_unlock_commit(r->drv);
    }
    if (rc != 0) {
        fprintf(r->log, "FAIL fence: %s\n", cg_strerror(rc));
        return 1;
    }
    fprintf(r->log, "fence %" PRIu64 " emitted\n", r->last_fence);
    return 0;
}

static int act_wait(rd_run *r)
{
    int rc = cg_radeon_fence_wait(r->drv, r->last_fence, 100000);
    cg_radeon_irq_process(r->drv);
    if (rc != 0) {
        fprintf(r->log, "FAIL wait fence %" PRIu64 ": %s (last signalled %" PRIu64 ")\n",
                r->last_fence, cg_strerror(rc), cg_radeon_fence_last(r->drv));
        return 1;
    }
    fprintf(r->log, "fence %" PRIu64 " signalled (EOP interrupts %" PRIu64 ")\n", r->last_fence,
            cg_radeon_irq_count(r->drv, CG_RADEON_IH_CP_EOP));
    return 0;
}

/* What radeon does when a submission hangs: the fence wait sees rptr stuck
 * and declares a lockup, then radeon_gpu_reset. */
static int act_recover(rd_run *r)
{
    int rc = cg_radeon_fence_wait(r->drv, r->last_fence, 100000);
    if (rc != CG_ERR_BUSY) {
        fprintf(r->log, "FAIL recover: waiting for fence %" PRIu64 " gave '%s', not a lockup\n",
                r->last_fence, rc ? cg_strerror(rc) : "signalled");
        return 1;
    }
    rc = cg_radeon_gpu_reset(r->drv, NULL); /* the log says how much it saved */
    cg_radeon_irq_process(r->drv);
    fprintf(r->log, "%s", cg_radeon_lockup_log(r->drv));
    bool done = cg_radeon_fence_signaled(r->drv, r->last_fence);
    if (rc != 0 || !done) {
        fprintf(r->log, "FAIL recover: GPU reset: %s, fence %" PRIu64 " %ssignalled\n",
                rc ? cg_strerror(rc) : "ok", r->last_fence, done ? "" : "not ");
        return 1;
    }
    fprintf(r->log, "recovered: fence %" PRIu64 " signalled\n", r->last_fence);
    return 0;
}

/* .expect32 / .expect_reg: a failed check is logged and counted; the scene
 * goes on. */
static int act_expect(rd_run *r, const cg_scene_action *a)
{
    bool isreg = a->kind == ACT_EXPECT_REG;
    uint32_t v;
    int rc = isreg ? (a->a < 0 || a->a >= CG_RADEON_REG_SPACE
                          ? CG_ERR_RANGE
                          : cg_radeon_reg_read(r->rd, (uint32_t)a->a, &v))
                   : cg_radeon_cpu_read32(r->rd, (uint64_t)a->a, &v);
    const char *what = isreg ? "reg" : "mem";
    if (rc != 0) {
        fprintf(r->log, "FAIL expect %s 0x%" PRIx64 ": cannot read it\n", what, (uint64_t)a->a);
        return 1;
    }
    if (v != (uint32_t)a->b) {
        fprintf(r->log, "FAIL expect %s 0x%" PRIx64 ": got 0x%08x, want 0x%08x\n", what,
                (uint64_t)a->a, v, (uint32_t)a->b);
        return 1;
    }
    fprintf(r->log, "expect %s 0x%" PRIx64 " == 0x%08x: ok\n", what, (uint64_t)a->a, v);
    return 0;
}

static void act_dump(rd_run *r, const cg_scene_action *a)
{
    uint32_t v;
    for (int64_t k = 0; k < a->b; k++) {
        if (k % 8 == 0)
            fprintf(r->log, "%s0x%010" PRIx64 ":", k ? "\n" : "", (uint64_t)a->a + 4 * (uint64_t)k);
        if (cg_radeon_cpu_read32(r->rd, (uint64_t)a->a + 4 * (uint64_t)k, &v) != 0) {
            fprintf(r->log, " (unmapped)");
            break;
        }
        fprintf(r->log, " %08x", v);
    }
    fprintf(r->log, "\n");
}

/* The CPU's side of each action; 1 when it failed (the runner stops). */
static int do_act(rd_run *r, const cg_scene_action *a)
{
    const char *sec;
    uint64_t base;
    const uint8_t *data;
    size_t size;
    char msg[160];
    int rc;
    switch (a->kind) {
    case ACT_SUBMIT:
        if (find_section(r, a, &sec, &base, &data, &size) != 0) {
            fprintf(r->log, "FAIL submit: no section '%s'\n", sec);
            return 1;
        }
        return submit(r, data, size, sec);
    case ACT_IB: return act_ib(r, a);
    case ACT_FENCE: return act_fence(r);
    case ACT_WAIT: return act_wait(r);
    case ACT_RECOVER: return act_recover(r);
    case ACT_FENCE_SEQ:
        if (rd_fence_driver_start(r->drv, (uint64_t)a->a) != 0) {
            fprintf(r->log, "FAIL fence_seq: fences are pending\n");
            return 1;
        }
        r->last_fence = (uint64_t)a->a;
        fprintf(r->log, "fence driver starts at %" PRIu64 "\n", r->last_fence);
        return 0;
    case ACT_MAP:
    case ACT_MAP_RO: /* made before the sections were placed */
        fprintf(r->log, "map 0x%" PRIx64 " (0x%" PRIx64 " bytes%s)\n", (uint64_t)a->a,
                (uint64_t)a->b, a->kind == ACT_MAP_RO ? ", read-only" : "");
        return 0;
    case ACT_RUN:
        rc = cg_radeon_run(r->rd);
        fprintf(r->log, "run: %s\n", rc == 0 ? "ok" : cg_strerror(rc));
        return 0;
    case ACT_WRITE32:
        if (cg_radeon_cpu_write32(r->rd, (uint64_t)a->a, (uint32_t)a->b) != 0) {
            fprintf(r->log, "FAIL write32 0x%" PRIx64 ": not mapped\n", (uint64_t)a->a);
            return 1;
        }
        fprintf(r->log, "write32 0x%" PRIx64 " = 0x%08x\n", (uint64_t)a->a, (uint32_t)a->b);
        return 0;
    case ACT_REG:
        if (cg_radeon_reg_write(r->rd, (uint32_t)a->a, (uint32_t)a->b) != 0 || a->a < 0 ||
            a->a >= CG_RADEON_REG_SPACE) {
            fprintf(r->log, "FAIL reg 0x%" PRIx64 ": not a register\n", (uint64_t)a->a);
            return 1;
        }
        fprintf(r->log, "reg 0x%04x = 0x%08x\n", (uint32_t)a->a, (uint32_t)a->b);
        return 0;
    case ACT_EXPECT32:
    case ACT_EXPECT_REG: return act_expect(r, a);
    case ACT_DUMP: act_dump(r, a); return 0;
    case ACT_RING_TEST:
    case ACT_IB_TEST:
        rc = a->kind == ACT_RING_TEST ? cg_radeon_ring_test(r->drv, msg, sizeof msg)
                                      : cg_radeon_ib_test(r->drv, msg, sizeof msg);
        fprintf(r->log, "%s%s\n", rc ? "FAIL " : "", msg);
        return rc != 0;
    case ACT_STATUS: status(r); return 0;
    default: return 0;
    }
}

static int rd_act(void *run, const cg_scene_action *a)
{
    rd_run *r = run;
    int rc = do_act(r, a);
    r->fails += rc;
    return rc;
}

/* A scene with sections and no directive submits its "text" section (or
 * its first) to the ring: what `cmdgpu run` of a plain packet file does. */
static void submit_default(rd_run *r)
{
    const cg_asm *as = cg_scene_sections(r->sc);
    if (cg_scene_action_count(r->sc) || !cg_asm_section_count(as))
        return;
    size_t idx = 0;
    if (cg_asm_section_find(as, "text", &idx) != 0)
        idx = 0;
    const char *name;
    uint64_t base;
    const uint8_t *data;
    size_t size;
    cg_asm_section(as, idx, &name, &base, &data, &size);
    r->fails += submit(r, data, size, name);
}

/* The status line, then every fault of the run (warnings do not fail it). */
static int rd_finish(void *run, int rc)
{
    rd_run *r = run;
    if (rc == 0)
        submit_default(r);
    status(r);
    for (size_t i = r->faults_before; i < cg_fault_count(r->dev); i++) {
        const cg_fault *f = cg_fault_get(r->dev, i);
        char line[512];
        cg_fault_format(f, line, sizeof line);
        fprintf(r->log, "%s\n", line);
        if (!(f->flags & CG_FAULT_F_WARNING))
            r->fails++;
    }
    return rc < 0 ? rc : r->fails ? 1 : 0;
}

static int rd_peek(void *run, uint64_t addr, void *dst, size_t n)
{
    return cg__vas_peek(((rd_run *)run)->rd->vas, addr, dst, n);
}

static void rd_close(void *run)
{
    rd_run *r = run;
    cg_radeon_drv_destroy(r->drv);
    cg_radeon_destroy(r->rd);
    free(r);
}

/* A dump prints at most the model's VRAM (4 Mi dwords). */
static bool sane_dump(const cg_scene_action *a) { return a->b >= 0 && a->b <= (1 << 22); }

static const cg_scene_kind rd_kinds[] = {
#define RD_X_KIND(name, code, dir, role, nargs, sane)                                   \
    {code, "ACT_" #name, CG_SCENE_##role,                                              \
     CG_SCENE_##role == CG_SCENE_SUBMIT ? CG_STREAM_SECTION : CG_STREAM_NONE, RD_SECTION_MAX, \
     UINT32_MAX, sane},
    RD_SCENE_ACTIONS(RD_X_KIND)
#undef RD_X_KIND
};

/* A section a .submit or .ib hands the CP, for listings of captures: the
 * packets of the scene's generation. */
static int rd_disasm_stream(const cg_capfile *c, const cg_text_opts *o, uint64_t addr,
                            const uint8_t *data, size_t size, FILE *out)
{
    uint64_t gen = CG_RADEON_R600;
    cg_capfile_config(c, RD_CFG_GEN, &gen);
    cg_radeon_disasm_opts d = {.gen = gen < CG_RADEON_GEN_COUNT ? (cg_radeon_gen)gen : CG_RADEON_R600,
                               .base = addr, .json = o->json, .c_name = o->c_name,
                               .c_num = o->c_num, .c_addr = o->c_addr, .c_err = o->c_err,
                               .c_comment = o->c_comment, .c_reset = o->c_reset};
    return cg_radeon_disasm(&d, data, size, out);
}

static void rd_text_opts(const cg_scene *sc, cg_text_opts *o)
{
    uint64_t gen = CG_RADEON_R600;
    cg_scene_config(sc, RD_CFG_GEN, &gen);
    o->gen = gen < CG_RADEON_GEN_COUNT ? cg_radeon_gen_name((cg_radeon_gen)gen) : o->gen;
}

static const cg_scene_config_key rd_config[] = {
    {RD_CFG_GEN, "radeon.gen", "cg_radeon_gen of the scene (.gen)"},
    {RD_CFG_LENIENT, "radeon.lenient", "1: .lenient"},
    {RD_CFG_RING_BYTES, "radeon.ring-bytes", "ring size (.ring), 0: default"},
};

const cg_scene_ops rd_scene_ops = {
    .kinds = rd_kinds,
    .nkinds = CG_ARRAY_SIZE(rd_kinds),
    .config = rd_config,
    .nconfig = CG_ARRAY_SIZE(rd_config),
    .takes = 0,
    .assembler = rd_scene_assembler,
    .open = rd_open,
    .map = rd_map,
    .place = rd_place,
    .act = rd_act,
    .finish = rd_finish,
    .disasm_stream = rd_disasm_stream,
    .text_opts = rd_text_opts,
    .peek = rd_peek,
    .close = rd_close,
};
