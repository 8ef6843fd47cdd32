/* radeon family: running an assembled scene (cmdgpu run -f radeon): load
 * every section at its GPU address, bring the driver up, then play the
 * recorded actions in order, logging each. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "scene.h"

static uint32_t le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static int find_section(const cg_asm *as, const char *name, uint64_t *base, const uint8_t **data,
                        size_t *size)
{
    size_t idx;
    const char *nm;
    if (cg_asm_section_find(as, name, &idx) != 0)
        return CG_ERR_NOENT;
    return cg_asm_section(as, idx, &nm, base, data, size);
}

/* Copy a section's packets into the ring in chunks that end on packet
 * boundaries (commit pads with type-2 NOPs, which must not split a packet). */
static int submit(cg_radeon_drv *drv, const uint8_t *data, size_t size, FILE *log, const char *name)
{
    if (size % 4) {
        fprintf(log, "FAIL submit %s: %zu bytes is not a whole number of dwords\n", name, size);
        return 1;
    }
    uint32_t ring_dw;
    cg_radeon_ring_info(drv, &ring_dw, NULL, NULL, NULL);
    size_t nw = size / 4, limit = ring_dw / 2, i = 0;
    while (i < nw) {
        size_t j = i;
        while (j < nw) {
            uint32_t h = le32(data + 4 * j);
            size_t len = (h >> 30) == 2 ? 1 : (h >> 30) == 1 ? 3 : ((h >> 16) & 0x3FFF) + 2;
            if (len > nw - j)
                len = nw - j; /* a truncated last packet goes in as it is */
            if (j + len - i > limit) {
                if (j == i) {
                    fprintf(log, "FAIL submit %s: a %zu-dword packet does not fit in half the "
                                 "ring (%zu dwords)\n", name, len, limit);
                    return 1;
                }
                break;
            }
            j += len;
        }
        int rc = cg_radeon_ring_lock(drv, (unsigned)(j - i));
        if (rc != 0) {
            fprintf(log, "FAIL submit %s: ring_lock(%zu): %s\n", name, j - i, cg_strerror(rc));
            return 1;
        }
        for (size_t k = i; k < j; k++)
            cg_radeon_ring_write(drv, le32(data + 4 * k));
        if ((rc = cg_radeon_ring_unlock_commit(drv)) != 0) {
            fprintf(log, "FAIL submit %s: commit: %s\n", name, cg_strerror(rc));
            return 1;
        }
        i = j;
    }
    fprintf(log, "submit %s: %zu dwords\n", name, nw);
    return 0;
}

static void status(cg_radeon *rd, FILE *log)
{
    cg_radeon_cp_status st;
    cg_radeon_cp_get_status(rd, &st);
    fprintf(log, "cp: %s rptr %u wptr %u ib_depth %u packets %" PRIu64 " dwords %" PRIu64,
            cg_radeon_cp_state_name(st.state), st.rptr, st.wptr, st.ib_depth, st.packets, st.dwords);
    if (st.trace_valid)
        fprintf(log, " last trace point %u", st.last_trace);
    fprintf(log, "\n");
}

int cg_radeon_scene_run(const cg_radeon_asm *st, const cg_asm *as, cg_device *dev, FILE *log)
{
    if (!st || !as || !dev || !log)
        return CG_ERR_INVAL;
    if (st->final_gen == CG_RADEON_R500) {
        fprintf(log, "FAIL scenes need r600, r700 or evergreen: the driver side speaks the R600 "
                     "register map (r500 is disassembly and packet decoding only)\n");
        return 1;
    }
    cg_radeon_config c = {.gen = st->final_gen, .lenient = st->lenient};
    cg_radeon *rd = NULL;
    cg_radeon_drv *drv = NULL;
    int rc = cg_radeon_create(dev, &c, &rd);
    if (rc != 0)
        return rc;
    cg_radeon_drv_config dc = {.ring_bytes = st->ring_bytes};
    if ((rc = cg_radeon_drv_create(rd, &dc, &drv)) != 0) {
        cg_radeon_destroy(rd);
        return rc;
    }
    int fails = 0;
    size_t faults_before = cg_fault_count(dev);
    /* Extra mappings (.map, .map_ro) exist from the start, so sections can
     * be loaded into them: a buffer object placed anywhere in the 40-bit MC
     * space ("rdev->mc.mc_mask = 0xffffffffffULL; 40 bit MC", radeon_device.c),
     * read-only as a GART page without R600_PTE_WRITEABLE (a read-only userptr). */
    for (size_t i = 0; i < st->nactions; i++) {
        const rd_action *a = &st->actions[i];
        if (a->kind != ACT_MAP && a->kind != ACT_MAP_RO)
            continue;
        cg_mem *m = NULL;
        uint64_t va;
        cg_map_params mp = {.va = (uint64_t)a->a, .flags = CG_MAP_FIXED};
        if (a->kind == ACT_MAP_RO)
            mp.flags |= CG_MAP_READ_ONLY;
        rc = cg_mem_create(dev, (uint64_t)a->b, 0, &m);
        if (rc == 0) {
            mp.mem = m;
            rc = cg_vas_map(rd->vas, &mp, &va);
            cg_mem_unref(m); /* the mapping holds its own reference */
        }
        if (rc != 0) {
            fprintf(log, "FAIL map 0x%" PRIx64 " (0x%" PRIx64 " bytes): %s\n", (uint64_t)a->a,
                    (uint64_t)a->b, cg_strerror(rc));
            fails++;
        }
    }
    /* Load sections; the driver owns the start of the GTT. */
    for (size_t i = 0; i < cg_asm_section_count(as); i++) {
        const char *name;
        uint64_t base;
        const uint8_t *data;
        size_t size;
        cg_asm_section(as, i, &name, &base, &data, &size);
        if (!size)
            continue;
        if (base < rd->gtt_next && base + size > CG_RADEON_GTT_BASE) {
            fprintf(log, "FAIL section %s at 0x%" PRIx64 " overlaps the driver's ring/writeback "
                         "area [0x%" PRIx64 ", 0x%" PRIx64 ")\n", name, base,
                    (uint64_t)CG_RADEON_GTT_BASE, rd->gtt_next);
            fails++;
            continue;
        }
        if (cg_vas_cpu_write(rd->vas, base, data, size) != 0) {
            fprintf(log, "FAIL section %s at 0x%" PRIx64 " (%zu bytes) is not in VRAM [0, 0x%" PRIx64
                         ") or the GTT [0x%" PRIx64 ", 0x%" PRIx64 ")\n", name, base, size,
                    rd->cfg.vram_size, (uint64_t)CG_RADEON_GTT_BASE,
                    (uint64_t)(CG_RADEON_GTT_BASE + rd->cfg.gtt_size));
            fails++;
        }
    }
    uint64_t last_fence = 0;
    size_t nact = st->nactions;
    rd_action deflt = {.kind = ACT_SUBMIT};
    const rd_action *acts = st->actions;
    if (nact == 0 && cg_asm_section_count(as) > 0) {
        const char *name;
        uint64_t b;
        const uint8_t *d;
        size_t s;
        size_t idx = 0;
        if (cg_asm_section_find(as, "text", &idx) != 0)
            idx = 0;
        cg_asm_section(as, idx, &name, &b, &d, &s);
        snprintf(deflt.section, sizeof deflt.section, "%s", name);
        acts = &deflt;
        nact = 1;
    }
    for (size_t i = 0; i < nact && !fails; i++) {
        const rd_action *a = &acts[i];
        uint64_t base;
        const uint8_t *data;
        size_t size;
        uint32_t v;
        char msg[160];
        switch (a->kind) {
        case ACT_SUBMIT:
            if (find_section(as, a->section, &base, &data, &size) != 0) {
                fprintf(log, "FAIL submit: no section '%s'\n", a->section);
                fails++;
                break;
            }
            fails += submit(drv, data, size, log, a->section);
            break;
        case ACT_IB: {
            if (find_section(as, a->section, &base, &data, &size) != 0) {
                fprintf(log, "FAIL ib: no section '%s'\n", a->section);
                fails++;
                break;
            }
            if ((base & 3) || (base >> 40)) {
                fprintf(log, "FAIL ib %s: base 0x%" PRIx64 " is not a 4-aligned 40-bit address\n",
                        a->section, base);
                fails++;
                break;
            }
            if (size % 4 || size == 0 || size / 4 > 0xFFFFF) {
                fprintf(log, "FAIL ib %s: %zu bytes is not 1..2^20-1 dwords\n", a->section, size);
                fails++;
                break;
            }
            if ((rc = cg_radeon_ring_lock(drv, 32)) != 0) {
                fprintf(log, "FAIL ib %s: ring_lock: %s\n", a->section, cg_strerror(rc));
                fails++;
                break;
            }
            rd_ring_ib_execute(drv, base, (uint32_t)(size / 4));
            cg_radeon_fence_emit(drv, &last_fence);
            cg_radeon_ring_unlock_commit(drv);
            fprintf(log, "ib %s at 0x%" PRIx64 ": %zu dwords, fence %" PRIu64 "\n", a->section, base,
                    size / 4, last_fence);
            break;
        }
        case ACT_FENCE:
            if ((rc = cg_radeon_ring_lock(drv, 16)) == 0) {
                cg_radeon_fence_emit(drv, &last_fence);
                rc = cg_radeon_ring_unlock_commit(drv);
            }
            if (rc != 0) {
                fprintf(log, "FAIL fence: %s\n", cg_strerror(rc));
                fails++;
            } else {
                fprintf(log, "fence %" PRIu64 " emitted\n", last_fence);
            }
            break;
        case ACT_WAIT:
            rc = cg_radeon_fence_wait(drv, last_fence, 100000);
            cg_radeon_irq_process(drv);
            if (rc != 0) {
                fprintf(log, "FAIL wait fence %" PRIu64 ": %s (last signalled %" PRIu64 ")\n",
                        last_fence, cg_strerror(rc), cg_radeon_fence_last(drv));
                fails++;
            } else {
                fprintf(log, "fence %" PRIu64 " signalled (EOP interrupts %" PRIu64 ")\n", last_fence,
                        cg_radeon_irq_count(drv, CG_RADEON_IH_CP_EOP));
            }
            break;
        case ACT_RECOVER: {
            /* What radeon does when a submission hangs: the fence wait sees
             * rptr stuck and declares a lockup, then radeon_gpu_reset. */
            rc = cg_radeon_fence_wait(drv, last_fence, 100000);
            if (rc != CG_ERR_BUSY) {
                fprintf(log, "FAIL recover: waiting for fence %" PRIu64 " gave '%s', not a "
                             "lockup\n", last_fence, rc ? cg_strerror(rc) : "signalled");
                fails++;
                break;
            }
            rc = cg_radeon_gpu_reset(drv, NULL); /* the log says how much it saved */
            cg_radeon_irq_process(drv);
            fprintf(log, "%s", cg_radeon_lockup_log(drv));
            if (rc != 0 || !cg_radeon_fence_signaled(drv, last_fence)) {
                fprintf(log, "FAIL recover: GPU reset: %s, fence %" PRIu64 " %ssignalled\n",
                        rc ? cg_strerror(rc) : "ok", last_fence,
                        cg_radeon_fence_signaled(drv, last_fence) ? "" : "not ");
                fails++;
            } else {
                fprintf(log, "recovered: fence %" PRIu64 " signalled\n", last_fence);
            }
            break;
        }
        case ACT_FENCE_SEQ:
            if (rd_fence_driver_start(drv, (uint64_t)a->a) != 0) {
                fprintf(log, "FAIL fence_seq: fences are pending\n");
                fails++;
            } else {
                last_fence = (uint64_t)a->a;
                fprintf(log, "fence driver starts at %" PRIu64 "\n", last_fence);
            }
            break;
        case ACT_MAP:
        case ACT_MAP_RO:
            fprintf(log, "map 0x%" PRIx64 " (0x%" PRIx64 " bytes%s)\n", (uint64_t)a->a,
                    (uint64_t)a->b, a->kind == ACT_MAP_RO ? ", read-only" : "");
            break;
        case ACT_RUN:
            rc = cg_radeon_run(rd);
            fprintf(log, "run: %s\n", rc == 0 ? "ok" : cg_strerror(rc));
            break;
        case ACT_WRITE32:
            if (cg_radeon_cpu_write32(rd, (uint64_t)a->a, (uint32_t)a->b) != 0) {
                fprintf(log, "FAIL write32 0x%" PRIx64 ": not mapped\n", (uint64_t)a->a);
                fails++;
            } else {
                fprintf(log, "write32 0x%" PRIx64 " = 0x%08x\n", (uint64_t)a->a, (uint32_t)a->b);
            }
            break;
        case ACT_REG:
            if (cg_radeon_reg_write(rd, (uint32_t)a->a, (uint32_t)a->b) != 0 || a->a < 0 ||
                a->a >= CG_RADEON_REG_SPACE) {
                fprintf(log, "FAIL reg 0x%" PRIx64 ": not a register\n", (uint64_t)a->a);
                fails++;
            } else {
                fprintf(log, "reg 0x%04x = 0x%08x\n", (uint32_t)a->a, (uint32_t)a->b);
            }
            break;
        case ACT_EXPECT32:
        case ACT_EXPECT_REG: {
            bool isreg = a->kind == ACT_EXPECT_REG;
            int r = isreg ? (a->a < 0 || a->a >= CG_RADEON_REG_SPACE
                                 ? CG_ERR_RANGE
                                 : cg_radeon_reg_read(rd, (uint32_t)a->a, &v))
                          : cg_radeon_cpu_read32(rd, (uint64_t)a->a, &v);
            if (r != 0) {
                fprintf(log, "FAIL expect %s 0x%" PRIx64 ": cannot read it\n", isreg ? "reg" : "mem",
                        (uint64_t)a->a);
                fails++;
            } else if (v != (uint32_t)a->b) {
                fprintf(log, "FAIL expect %s 0x%" PRIx64 ": got 0x%08x, want 0x%08x\n",
                        isreg ? "reg" : "mem", (uint64_t)a->a, v, (uint32_t)a->b);
                fails++;
            } else {
                fprintf(log, "expect %s 0x%" PRIx64 " == 0x%08x: ok\n", isreg ? "reg" : "mem",
                        (uint64_t)a->a, v);
            }
            break;
        }
        case ACT_DUMP:
            for (int64_t k = 0; k < a->b; k++) {
                if (k % 8 == 0)
                    fprintf(log, "%s0x%010" PRIx64 ":", k ? "\n" : "", (uint64_t)a->a + 4 * (uint64_t)k);
                if (cg_radeon_cpu_read32(rd, (uint64_t)a->a + 4 * (uint64_t)k, &v) != 0) {
                    fprintf(log, " (unmapped)");
                    break;
                }
                fprintf(log, " %08x", v);
            }
            fprintf(log, "\n");
            break;
        case ACT_RING_TEST:
        case ACT_IB_TEST:
            rc = a->kind == ACT_RING_TEST ? cg_radeon_ring_test(drv, msg, sizeof msg)
                                          : cg_radeon_ib_test(drv, msg, sizeof msg);
            fprintf(log, "%s%s\n", rc ? "FAIL " : "", msg);
            fails += rc != 0;
            break;
        case ACT_STATUS:
            status(rd, log);
            break;
        default:
            break;
        }
    }
    status(rd, log);
    for (size_t i = faults_before; i < cg_fault_count(dev); i++) {
        const cg_fault *f = cg_fault_get(dev, i);
        char line[512];
        cg_fault_format(f, line, sizeof line);
        fprintf(log, "%s\n", line);
        if (!(f->flags & CG_FAULT_F_WARNING))
            fails++;
    }
    cg__scene_end(dev, cg__vas_peek, rd->vas); /* a capture hashes the final memory */
    cg_radeon_drv_destroy(drv);
    cg_radeon_destroy(rd);
    return fails ? 1 : 0;
}
