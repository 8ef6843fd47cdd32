/* nv family: the hang report (docs/captures.md, "Hang report"), after
 * src/radeon/hangreport.c. A trace sink records the methods the channels
 * execute (CG_TRACE_METHOD: stream address, method, data, name, subchannel
 * and class, and the GPFIFO entry they came from) and the semaphore
 * releases (CG_TRACE_FENCE); the report reads the first nv fault of the
 * device's log since the recorder was made: the method at its stream
 * address on its channel, the methods of that channel before it, and for a
 * semaphore or syncpoint wait what was waited on. The engines are not
 * touched: everything comes from trace events and fault records. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "nv_internal.h"
#include "cmdgpu/capture.h"
#include "core/hangrec.h"
#include "core/json.h"

#define SLOTS 64   /* methods of every channel (the report keeps one channel's) */
#define NWRITES 16

typedef struct hr_method {
    uint64_t addr;
    int32_t channel;
    uint32_t mthd, value;
    uint32_t entry, entry_len; /* GPFIFO entry + 1 (0: none) */
    uint64_t entry_va;
    char name[48];
    char where[24]; /* "subch N class XXXX" */
} hr_method;

typedef struct hr_release {
    uint64_t addr, by;
    uint64_t value;
    int32_t channel;
} hr_release;

struct cg_nv_hang_recorder {
    cg_hang_base base; /* first: the device, the sink, the faults before */
    hr_method m[SLOTS];
    size_t nm;
    hr_release rel[NWRITES];
    size_t nrel;
};

static void sink(void *user, const cg_trace_event *ev)
{
    cg_nv_hang_recorder *r = user;
    if (ev->family != CG_FAMILY_NV)
        return;
    if (ev->kind == CG_TRACE_METHOD) {
        hr_method *p = &r->m[r->nm++ % SLOTS];
        p->addr = ev->stream_addr;
        p->channel = ev->channel;
        p->mthd = ev->reg;
        p->value = (uint32_t)ev->value;
        p->entry = ev->entry;
        p->entry_va = ev->entry_va;
        p->entry_len = ev->entry_len;
        snprintf(p->name, sizeof p->name, "%s", ev->name ? ev->name : "?");
        snprintf(p->where, sizeof p->where, "%s", ev->text ? ev->text : "");
    } else if (ev->kind == CG_TRACE_FENCE && ev->gpu_addr) {
        hr_release *w = &r->rel[r->nrel++ % NWRITES];
        *w = (hr_release){.addr = ev->gpu_addr, .by = ev->stream_addr, .value = ev->value,
                          .channel = ev->channel};
    }
}

int cg_nv_hang_recorder_create(cg_device *dev, cg_nv_hang_recorder **out)
{
    void *r = NULL;
    int rc = out ? cg__hang_recorder_new(dev, sizeof **out, sink, &r) : CG_ERR_INVAL;
    if (rc == 0)
        *out = r;
    return rc;
}

void cg_nv_hang_recorder_destroy(cg_nv_hang_recorder *r)
{
    cg__hang_recorder_free(r ? &r->base : NULL);
}

static const cg_fault *first_fault(const cg_nv_hang_recorder *r)
{
    return cg__hang_first_fault(&r->base, CG_FAMILY_NV, -1, NULL);
}

/* What a wait waited on, read back from the watchdog's fault message
 * (src/nv/gpu/pfifo.c watchdog_fire), the one place that holds the memory
 * value the channel last saw. */
typedef struct hr_wait {
    bool sem, syncpt;
    uint32_t mem, want, id;
    char op[24];
} hr_wait;

static bool parse_wait(const cg_fault *f, hr_wait *w)
{
    *w = (hr_wait){0};
    if (f->kind != CG_FAULT_HANG)
        return false;
    const char *p = strstr(f->message, "memory holds 0x");
    if (p) {
        unsigned mem, want;
        int n = 0;
        if (sscanf(p, "memory holds 0x%x, %n", &mem, &n) != 1 || n == 0)
            return false;
        const char *op = p + n, *last = strrchr(op, ' ');
        if (!last || sscanf(last, " 0x%x", &want) != 1)
            return false;
        size_t len = (size_t)(last - op);
        if (len >= sizeof w->op)
            len = sizeof w->op - 1;
        memcpy(w->op, op, len);
        w->op[len] = 0;
        w->sem = true, w->mem = mem, w->want = want;
        return true;
    }
    unsigned id, cur, want;
    p = strstr(f->message, "syncpoint ");
    if (p && sscanf(p, "syncpoint %u wait never satisfied: value %u, waiting for %u", &id, &cur,
                    &want) == 3) {
        w->syncpt = true, w->id = id, w->mem = cur, w->want = want;
        return true;
    }
    return false;
}

static const hr_release *last_release(const cg_nv_hang_recorder *r, uint64_t addr)
{
    size_t n = r->nrel < NWRITES ? r->nrel : NWRITES;
    for (size_t k = 0; k < n; k++) {
        const hr_release *w = &r->rel[(r->nrel - 1 - k) % NWRITES];
        if (w->addr == addr)
            return w;
    }
    return NULL;
}

static void method_json(FILE *out, const hr_method *p)
{
    fprintf(out, "{\"stream_addr\":\"0x%" PRIx64 "\",\"method\":\"0x%04x\",\"name\":", p->addr,
            p->mthd);
    cg_json_fput(out, p->name);
    fprintf(out, ",\"where\":");
    cg_json_fput(out, p->where);
    fprintf(out, ",\"data\":\"0x%08x\"", p->value);
    if (p->entry)
        fprintf(out, ",\"gpfifo_entry\":%u", p->entry - 1);
    fprintf(out, "}");
}

int cg_nv_hang_report(const cg_nv_hang_recorder *r, bool json, FILE *out)
{
    if (!r || !out)
        return CG_ERR_INVAL;
    const cg_fault *f = first_fault(r);
    if (!f)
        return 0;
    /* this channel's recorded methods, newest first; the one at the fault */
    size_t n = r->nm < SLOTS ? r->nm : SLOTS;
    const hr_method *hist[CG_NV_HANG_HISTORY + 1];
    size_t nh = 0;
    const hr_method *at = NULL;
    for (size_t k = 0; k < n; k++) {
        const hr_method *p = &r->m[(r->nm - 1 - k) % SLOTS];
        if (p->channel != f->channel)
            continue;
        if (!at && nh == 0 && p->addr == f->stream_addr && f->stream_addr) {
            at = p;
            continue;
        }
        if (nh < CG_NV_HANG_HISTORY)
            hist[nh++] = p;
    }
    hr_wait w;
    bool wait = parse_wait(f, &w);
    const hr_release *lr = wait && w.sem ? last_release(r, f->gpu_addr) : NULL;
    if (json) {
        fprintf(out, "{\"hang\":{\"kind\":\"%s\",\"unit\":", cg_fault_kind_name(f->kind));
        cg_json_fput(out, f->unit);
        fprintf(out, ",\"channel\":%d,\"stream_addr\":\"0x%" PRIx64 "\",", (int)f->channel,
                f->stream_addr);
        if (at) {
            if (at->entry)
                fprintf(out, "\"gpfifo_entry\":{\"index\":%u,\"va\":\"0x%" PRIx64
                             "\",\"words\":%u},",
                        at->entry - 1, at->entry_va, at->entry_len);
            fprintf(out, "\"method\":");
            method_json(out, at);
            fprintf(out, ",");
        }
        fprintf(out, "\"words\":[");
        for (uint32_t i = 0; i < f->nwords; i++)
            fprintf(out, "%s\"0x%08x\"", i ? "," : "", f->words[i]);
        fprintf(out, "],\"message\":");
        cg_json_fput(out, f->message);
        if (wait && w.sem) {
            fprintf(out, ",\"waited_on\":{\"what\":\"semaphore\",\"addr\":\"0x%" PRIx64
                         "\",\"operation\":",
                    f->gpu_addr);
            cg_json_fput(out, w.op);
            fprintf(out, ",\"value\":\"0x%08x\",\"memory\":\"0x%08x\"", w.want, w.mem);
            if (lr)
                fprintf(out, ",\"last_release\":\"0x%08" PRIx64 "\",\"last_release_by\":\"0x%" PRIx64
                             "\",\"last_release_channel\":%d",
                        lr->value, lr->by, (int)lr->channel);
            fprintf(out, "}");
        } else if (wait) {
            fprintf(out, ",\"waited_on\":{\"what\":\"syncpoint\",\"id\":%u,\"value\":%u,"
                         "\"current\":%u}", w.id, w.want, w.mem);
        }
        fprintf(out, ",\"before\":[");
        for (size_t k = nh; k-- > 0;) {
            method_json(out, hist[k]);
            if (k)
                fputc(',', out);
        }
        fprintf(out, "]}}\n");
        return 1;
    }
    fprintf(out, "hang report: channel %d stood at 0x%" PRIx64, (int)f->channel, f->stream_addr);
    if (at) {
        if (at->entry)
            fprintf(out, " (GPFIFO entry %u: pushbuffer 0x%" PRIx64 ", %u words)", at->entry - 1,
                    at->entry_va, at->entry_len);
        fprintf(out, " %s %s = 0x%08x", at->where, at->name, at->value);
    } else {
        fprintf(out, " (no method decoded there)");
    }
    fprintf(out, " [");
    for (uint32_t i = 0; i < f->nwords; i++)
        fprintf(out, "%s%08x", i ? " " : "", f->words[i]);
    fprintf(out, "] when a fault (%s, %s) ended the run: %s\n", cg_fault_kind_name(f->kind),
            f->unit, f->message);
    if (wait && w.sem) {
        fprintf(out, "  it waited on semaphore 0x%" PRIx64 ": %s 0x%08x, memory holds 0x%08x",
                f->gpu_addr, w.op, w.want, w.mem);
        if (lr)
            fprintf(out, "; the GPU last released 0x%08" PRIx64 " there (channel %d at 0x%" PRIx64
                         ")",
                    lr->value, (int)lr->channel, lr->by);
        else
            fprintf(out, "; no GPU release there in this run");
        fprintf(out, "\n");
    } else if (wait) {
        fprintf(out, "  it waited on syncpoint %u for %u; it holds %u\n", w.id, w.want, w.mem);
    }
    if (nh) {
        fprintf(out, "  the methods before it on channel %d (oldest first):\n", (int)f->channel);
        for (size_t k = nh; k-- > 0;) {
            const hr_method *p = hist[k];
            fprintf(out, "    0x%" PRIx64 " %s %s = 0x%08x", p->addr, p->where, p->name, p->value);
            if (p->entry)
                fprintf(out, " (GPFIFO entry %u)", p->entry - 1);
            fprintf(out, "\n");
        }
    }
    return 1;
}
