/* radeon family: the hang report (docs/captures.md, "Hang report"). A trace
 * sink records the packets the CP executes (CG_TRACE_PACKET: stream
 * address, header, name) and the GPU's memory writes (CG_TRACE_MEM_WRITE,
 * CG_TRACE_FENCE with the value); the report reads the first CP fault of the
 * device's log since the recorder was made: the packet it names (its
 * stream address and words), the packets before it, and for waits
 * (WAIT_REG_MEM, MEM_SEMAPHORE) what was waited on. cp.c is not touched:
 * everything comes from its trace events and fault records. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "radeon_internal.h"
#include "cmdgpu/capture.h"
#include "core/hangrec.h"

#define NWRITES 16

typedef struct hr_packet {
    uint64_t addr;
    uint32_t header;
    const char *name;
} hr_packet;

typedef struct hr_write {
    uint64_t addr, size, by;
    uint64_t value;
    bool has_value;
} hr_write;

struct cg_radeon_hang_recorder {
    cg_hang_base base; /* first: the device, the sink, the faults before */
    hr_packet pk[CG_RADEON_HANG_HISTORY + 1];
    size_t npk;               /* packets seen (ring index = npk % size) */
    hr_write wr[NWRITES];
    size_t nwr;
};

#define PK_SLOTS (CG_RADEON_HANG_HISTORY + 1)

static void sink(void *user, const cg_trace_event *ev)
{
    cg_radeon_hang_recorder *r = user;
    if (ev->family != CG_FAMILY_RADEON)
        return;
    if (ev->kind == CG_TRACE_PACKET) {
        if (((uint32_t)ev->value >> 30) == 2)
            return; /* type-2 fillers (ring padding) are not worth a history slot */
        /* a blocked wait is fetched again on every poll: record it once */
        const hr_packet *prev = r->npk ? &r->pk[(r->npk - 1) % PK_SLOTS] : NULL;
        if (prev && prev->addr == ev->stream_addr && prev->header == (uint32_t)ev->value)
            return;
        hr_packet *p = &r->pk[r->npk++ % PK_SLOTS];
        p->addr = ev->stream_addr;
        p->header = (uint32_t)ev->value;
        p->name = ev->name;
    } else if (ev->kind == CG_TRACE_MEM_WRITE || ev->kind == CG_TRACE_FENCE) {
        /* a FENCE event follows the MEM_WRITE of the same value: merge */
        hr_write *last = r->nwr ? &r->wr[(r->nwr - 1) % NWRITES] : NULL;
        if (ev->kind == CG_TRACE_FENCE && last && last->addr == ev->gpu_addr) {
            last->value = ev->value;
            last->has_value = true;
            return;
        }
        hr_write *w = &r->wr[r->nwr++ % NWRITES];
        *w = (hr_write){.addr = ev->gpu_addr, .size = ev->size ? ev->size : 4, .by = ev->stream_addr,
                        .value = ev->value, .has_value = ev->kind == CG_TRACE_FENCE};
    }
}

int cg_radeon_hang_recorder_create(cg_device *dev, cg_radeon_hang_recorder **out)
{
    void *r = NULL;
    int rc = out ? cg__hang_recorder_new(dev, sizeof **out, sink, &r) : CG_ERR_INVAL;
    if (rc == 0)
        *out = r;
    return rc;
}

void cg_radeon_hang_recorder_destroy(cg_radeon_hang_recorder *r)
{
    cg__hang_recorder_free(r ? &r->base : NULL);
}

static const cg_fault *first_cp_fault(const cg_radeon_hang_recorder *r)
{
    return cg__hang_first_fault(&r->base, CG_FAMILY_RADEON, -1, "cp");
}

/* What a wait packet waited on: text into buf; false if not a wait. */
static bool waited_on(const cg_fault *f, const char *name, char *kind, size_t kcap, uint64_t *addr)
{
    if (!name || f->nwords < 2)
        return false;
    if (strcmp(name, "WAIT_REG_MEM") == 0) {
        bool mem = PGET(f->words[1], WAIT_REG_MEM_DW1, WRM_MEM_SPACE);
        snprintf(kind, kcap, "%s", mem ? "memory" : "register");
        *addr = f->gpu_addr;
        return true;
    }
    if (strcmp(name, "MEM_SEMAPHORE") == 0) {
        snprintf(kind, kcap, "semaphore");
        *addr = f->gpu_addr;
        return true;
    }
    return false;
}

static const hr_write *last_write(const cg_radeon_hang_recorder *r, uint64_t addr)
{
    size_t n = r->nwr < NWRITES ? r->nwr : NWRITES;
    for (size_t k = 0; k < n; k++) {
        const hr_write *w = &r->wr[(r->nwr - 1 - k) % NWRITES];
        if (addr >= w->addr && addr - w->addr < w->size)
            return w;
    }
    return NULL;
}

int cg_radeon_hang_report(const cg_radeon_hang_recorder *r, bool json, FILE *out)
{
    if (!r || !out)
        return CG_ERR_INVAL;
    const cg_fault *f = first_cp_fault(r);
    if (!f)
        return 0;
    /* the packet the fault names: the last recorded packet at its stream
     * address (faults while fetching a header name no packet yet) */
    size_t n = r->npk < PK_SLOTS ? r->npk : PK_SLOTS;
    const hr_packet *at = NULL;
    size_t at_k = n;
    for (size_t k = 0; k < n; k++) {
        const hr_packet *p = &r->pk[(r->npk - 1 - k) % PK_SLOTS];
        if (p->addr == f->stream_addr) {
            at = p;
            at_k = k;
            break;
        }
    }
    const char *name = at ? at->name : NULL;
    char kind[16];
    uint64_t waddr = 0;
    bool wait = at && waited_on(f, name, kind, sizeof kind, &waddr);
    const hr_write *lw = wait && strcmp(kind, "register") != 0 ? last_write(r, waddr) : NULL;
    char regname[48] = "";
    if (wait && strcmp(kind, "register") == 0) {
        const char *rn = cg_radeon_reg_name(CG_RADEON_R600, (uint32_t)waddr);
        snprintf(regname, sizeof regname, "%s", rn ? rn : "");
    }
    /* packets before it: older than `at` (or all when the fault names none) */
    size_t from = at ? at_k + 1 : 0;
    if (json) {
        fprintf(out, "{\"hang\":{\"kind\":\"%s\",\"unit\":\"%s\",\"stream_addr\":\"0x%" PRIx64 "\",",
                cg_fault_kind_name(f->kind), f->unit, f->stream_addr);
        if (name)
            fprintf(out, "\"packet\":\"%s\",", name);
        fprintf(out, "\"words\":[");
        for (uint32_t i = 0; i < f->nwords; i++)
            fprintf(out, "%s\"0x%08x\"", i ? "," : "", f->words[i]);
        fprintf(out, "],\"message\":\"");
        for (const char *m = f->message; *m; m++)
            fprintf(out, *m == '"' || *m == '\\' ? "\\%c" : "%c", *m);
        fprintf(out, "\"");
        if (wait) {
            fprintf(out, ",\"waited_on\":{\"what\":\"%s\",\"addr\":\"0x%" PRIx64 "\"", kind, waddr);
            if (regname[0])
                fprintf(out, ",\"register\":\"%s\"", regname);
            if (lw) {
                fprintf(out, ",\"last_write_by\":\"0x%" PRIx64 "\"", lw->by);
                if (lw->has_value)
                    fprintf(out, ",\"last_value\":\"0x%" PRIx64 "\"", lw->value);
            }
            fprintf(out, "}");
        }
        fprintf(out, ",\"before\":[");
        for (size_t k = n; k-- > from;) {
            const hr_packet *p = &r->pk[(r->npk - 1 - k) % PK_SLOTS];
            fprintf(out, "%s{\"stream_addr\":\"0x%" PRIx64 "\",\"packet\":\"%s\",\"header\":\"0x%08x\"}",
                    k == n - 1 ? "" : ",", p->addr, p->name ? p->name : "?", p->header);
        }
        fprintf(out, "]}}\n");
        return 1;
    }
    fprintf(out, "hang report: the CP stood at 0x%" PRIx64 " %s [", f->stream_addr,
            name ? name : "(no packet decoded there)");
    for (uint32_t i = 0; i < f->nwords; i++)
        fprintf(out, "%s%08x", i ? " " : "", f->words[i]);
    fprintf(out, "] when a fault (%s) ended the run: %s\n", cg_fault_kind_name(f->kind), f->message);
    if (wait) {
        fprintf(out, "  it waited on %s 0x%" PRIx64 "%s%s%s", kind, waddr, regname[0] ? " (" : "", regname,
                regname[0] ? ")" : "");
        if (lw && lw->has_value)
            fprintf(out, "; the GPU last wrote 0x%" PRIx64 " there (packet at 0x%" PRIx64 ")", lw->value, lw->by);
        else if (lw)
            fprintf(out, "; the GPU last wrote there from the packet at 0x%" PRIx64, lw->by);
        else if (strcmp(kind, "register") != 0)
            fprintf(out, "; no GPU write there in this run");
        fprintf(out, "\n");
    }
    if (n > from) {
        fprintf(out, "  the packets before it (oldest first):\n");
        for (size_t k = n; k-- > from;) {
            const hr_packet *p = &r->pk[(r->npk - 1 - k) % PK_SLOTS];
            fprintf(out, "    0x%" PRIx64 " %s (header 0x%08x)\n", p->addr, p->name ? p->name : "?", p->header);
        }
    }
    return 1;
}
