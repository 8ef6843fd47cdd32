/* radeon family: the Linux radeon debugfs ring dump as a capture format of
 * the family (include/cmdgpu/family.h, docs/captures.md): its signature,
 * its listing and its replay, over the parser in text/ringdump.c. */
#include <inttypes.h>
#include <string.h>
#include "cmdgpu/fault.h"
#include "core/json.h"
#include "scene.h"


/* ---- replay (the parser is text/ringdump.c) ---------------------------------- */

int cg_radeon_ringdump_replay(const cg_radeon_ringdump *d, cg_device *dev, cg_radeon_gen gen,
                              cg_radeon_ringdump_result *res, cg_radeon **out)
{
    if (!d || !dev || !res || gen >= CG_RADEON_R500 || d->ring_dw < 2 || d->ring_dw > RINGDUMP_MAX_DW)
        return CG_ERR_INVAL;
    if (out)
        *out = NULL;
    memset(res, 0, sizeof *res);
    if (d->rptr_entry >= d->nentries)
        return CG_ERR_NOENT; /* no dword at rptr: nothing to replay */
    uint64_t ring_bytes = 4ull * d->ring_dw;
    cg_radeon_config c = {.gen = gen, .manual = true};
    if (ring_bytes > (16ull << 20))
        c.gtt_size = (ring_bytes + CG_PAGE_SIZE - 1) & ~(uint64_t)(CG_PAGE_SIZE - 1);
    cg_radeon *rd;
    size_t faults0 = cg_fault_count(dev);
    int rc = cg_radeon_create(dev, &c, &rd);
    if (rc != 0)
        return rc;
    uint64_t base = CG_RADEON_GTT_BASE;
    for (size_t i = 0; i < d->nentries && rc == 0; i++)
        rc = cg_radeon_cpu_write32(rd, base + 4ull * d->entries[i].index, d->entries[i].value);
    /* the live region ends at wptr, or after the last dumped dword */
    size_t end = rd_ringdump_live_end(d);
    uint32_t wptr = end < d->nentries ? d->entries[end].index
                                      : (d->entries[d->nentries - 1].index + 1) & (d->ring_dw - 1);
    if (d->wptr_entry < d->nentries)
        wptr = d->wptr;
    uint32_t bufsz = 0;
    while ((2u << bufsz) < d->ring_dw)
        bufsz++;
    /* r600_cp_resume: RB_BUFSZ = log2(bytes / 8); no rptr writeback (the
     * dump has no writeback page); rptr set through CP_RB_RPTR_WR. */
    uint32_t cntl = RPUT(CP_RB_CNTL, RB_BUFSZ, bufsz) | RPUT(CP_RB_CNTL, RB_NO_UPDATE, 1);
    if (rc == 0)
        rc = cg_radeon_reg_write(rd, REG_CP_RB_BASE, (uint32_t)(base >> 8));
    if (rc == 0)
        rc = cg_radeon_reg_write(rd, REG_CP_RB_CNTL, cntl | RPUT(CP_RB_CNTL, RB_RPTR_WR_ENA, 1));
    if (rc == 0)
        rc = cg_radeon_reg_write(rd, REG_CP_RB_RPTR_WR, d->entries[d->rptr_entry].index);
    if (rc == 0)
        rc = cg_radeon_reg_write(rd, REG_CP_RB_CNTL, cntl);
    if (rc == 0)
        rc = cg_radeon_reg_write(rd, REG_CP_RB_WPTR, wptr);
    if (rc == 0)
        rc = cg_radeon_reg_write(rd, REG_CP_ME_CNTL, 0);
    if (rc != 0) {
        cg_radeon_destroy(rd);
        return rc;
    }
    /* Run until idle or stopped; a wait nothing in the dump can satisfy is
     * polled until the radeon.wait-polls watchdog ends it as a hang. */
    uint64_t polls = cg_device_budget(dev, CG_BUDGET_RADEON_WAIT_POLLS) + 2;
    for (int busy = 0; busy < 1024;) {
        int r = cg_radeon_run(rd);
        cg_radeon_cp_get_status(rd, &res->status);
        if (r == CG_ERR_BUSY)
            busy++;
        else if (res->status.state != CG_RADEON_CP_WAITING || polls-- == 0)
            break;
    }
    cg_radeon_cp_get_status(rd, &res->status);
    for (int k = 0; k < 8; k++)
        cg_radeon_reg_read(rd, REG_SCRATCH_REG0 + 4u * k, &res->scratch[k]);
    res->faults = cg_fault_count(dev) - faults0;
    res->ring_addr = base;
    if (out)
        *out = rd;
    else
        cg_radeon_destroy(rd);
    return 0;
}

/* radeon_debugfs_ring_info: the first line is the wptr, in either form. */
static bool detect(const uint8_t *data, size_t size)
{
    return (size >= 8 && memcmp(data, "wptr: 0x", 8) == 0) ||
           (size >= 7 && memcmp(data, "wptr(0x", 7) == 0);
}

static int disasm(const cg_text_opts *o, const uint8_t *data, size_t size, FILE *out,
                  cg_capture_error *err)
{
    char msg[128];
    cg_radeon_gen g;
    if (rd_gen_of(o, &g, msg, sizeof msg) != 0)
        return CG_ERR_INVAL;
    cg_radeon_ringdump *d;
    int rc = cg_radeon_ringdump_parse(data, size, &d, err);
    if (rc)
        return rc;
    cg_radeon_disasm_opts dop = {.gen = g, .json = o->json, .c_name = o->c_name, .c_num = o->c_num,
                                 .c_addr = o->c_addr, .c_err = o->c_err,
                                 .c_comment = o->c_comment, .c_reset = o->c_reset};
    rc = cg_radeon_ringdump_disasm(d, &dop, out);
    cg_radeon_ringdump_free(d);
    return rc;
}

static void print_faults(cg_device *dev, bool json, const char *c_err, const char *c_reset,
                         FILE *out)
{
    char line[512];
    for (size_t i = 0; i < cg_fault_count(dev); i++) {
        const cg_fault *f = cg_fault_get(dev, i);
        if (json) {
            cg_fault_format_json(f, line, sizeof line);
            fprintf(out, "%s%s", i ? "," : "", line);
        } else {
            cg_fault_format(f, line, sizeof line);
            fprintf(out, "%s%s%s\n", c_err, line, c_reset);
        }
    }
}

static bool any_unmapped(cg_device *dev)
{
    for (size_t i = 0; i < cg_fault_count(dev); i++)
        if (cg_fault_get(dev, i)->kind == CG_FAULT_UNMAPPED)
            return true;
    return false;
}

static void print_json(const cg_text_opts *o, const cg_radeon_ringdump *d, const cg_radeon_ringdump_result *res,
                       cg_device *dev, const cg_radeon_hang_recorder *hr, bool failed, FILE *out)
{
    const cg_radeon_cp_status *st = &res->status;
    fputs("{\"capture\":", out);
    cg_json_fput(out, o->name ? o->name : "");
    fprintf(out, ",\"format\":\"radeon-ring-dump\",\"ring_addr\":\"0x%" PRIx64 "\",\"ring_dw\":%u,"
            "\"cp\":{\"state\":\"%s\",\"rptr\":%u,\"wptr\":%u,\"ib_depth\":%u,\"packets\":%" PRIu64
            ",\"dwords\":%" PRIu64 "},\"scratch\":[",
            res->ring_addr, d->ring_dw, cg_radeon_cp_state_name(st->state), st->rptr, st->wptr,
            st->ib_depth, st->packets, st->dwords);
    for (int k = 0; k < 8; k++)
        fprintf(out, "%s\"0x%08x\"", k ? "," : "", res->scratch[k]);
    fprintf(out, "],\"faults\":[");
    print_faults(dev, true, "", "", out);
    fprintf(out, "]");
    if (failed && hr) {
        fprintf(out, ",\"report\":");
        if (cg_radeon_hang_report(hr, true, out) != 1)
            fprintf(out, "null\n");
    }
    fprintf(out, ",\"result\":\"%s\"}\n", failed ? "failed" : "ok");
}

static void print_text(const cg_text_opts *o, const cg_radeon_ringdump *d,
                       const cg_radeon_ringdump_result *res, cg_device *dev,
                       const cg_radeon_hang_recorder *hr, bool failed, FILE *out)
{
    const cg_radeon_cp_status *st = &res->status;
    fprintf(out, "ring dump %s: ring of %u dwords at 0x%" PRIx64 ", replaying from rptr %u to "
            "wptr %u\n", o->name ? o->name : "", d->ring_dw, res->ring_addr,
            d->rptr_entry < d->nentries ? d->entries[d->rptr_entry].index : 0, d->wptr);
    print_faults(dev, false, o->c_err ? o->c_err : "", o->c_reset ? o->c_reset : "", out);
    if (any_unmapped(dev))
        fprintf(out, "note: a ring dump holds only the ring: the memory its packets refer to (IBs, "
                "fences, semaphores) was not captured, so those accesses fault as unmapped\n");
    fprintf(out, "cp: %s rptr %u wptr %u ib_depth %u packets %" PRIu64 " dwords %" PRIu64 "\n",
            cg_radeon_cp_state_name(st->state), st->rptr, st->wptr, st->ib_depth, st->packets,
            st->dwords);
    for (int k = 0; k < 8; k++)
        fprintf(out, "SCRATCH_REG%d = 0x%08x\n", k, res->scratch[k]);
    if (failed && hr)
        cg_radeon_hang_report(hr, false, out);
    fprintf(out, "replay: %s, %zu fault(s)\n", failed ? "failed" : "ok", res->faults);
}

/* Replay the live region (cg_radeon_ringdump_replay) and say what ran. */
static int run(const cg_text_opts *o, const uint8_t *data, size_t size, cg_device *dev,
               const char *png, FILE *out, cg_capture_error *err)
{
    (void)png; /* the CP writes no frame */
    char msg[128];
    cg_radeon_gen g;
    if (rd_gen_of(o, &g, msg, sizeof msg) != 0)
        return CG_ERR_INVAL;
    if (g == CG_RADEON_R500) {
        snprintf(err->msg, sizeof err->msg, "ring dumps replay on r600, r700 or evergreen");
        return CG_ERR_UNSUPPORTED;
    }
    cg_radeon_ringdump *d;
    int rc = cg_radeon_ringdump_parse(data, size, &d, err);
    if (rc)
        return rc;
    cg_radeon_hang_recorder *hr = NULL;
    cg_radeon_hang_recorder_create(dev, &hr); /* without it: no hang report */
    cg_radeon_ringdump_result res;
    rc = cg_radeon_ringdump_replay(d, dev, g, &res, NULL);
    if (rc == CG_ERR_NOENT) {
        err->offset = 0;
        snprintf(err->msg, sizeof err->msg, "rptr %u is not in the dump: nothing to replay",
                 d->rptr);
    } else if (rc == 0) {
        const cg_radeon_cp_status *st = &res.status;
        bool failed = res.faults > 0 || st->state == CG_RADEON_CP_STOPPED ||
                      st->state == CG_RADEON_CP_WAITING;
        if (o->json)
            print_json(o, d, &res, dev, hr, failed, out);
        else
            print_text(o, d, &res, dev, hr, failed, out);
        rc = failed ? 1 : 0;
    }
    cg_radeon_hang_recorder_destroy(hr);
    cg_radeon_ringdump_free(d);
    return rc;
}

const cg_capture_desc rd_ringdump_capture = {
    .name = "radeon-ring-dump",
    .description = "Linux radeon debugfs ring file (radeon_ring_gfx, ...)",
    .family = &cg_radeon_family,
    .detect = detect,
    .disasm = disasm,
    .run = run,
};
