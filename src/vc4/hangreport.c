/* vc4 family: the hang report (docs/captures.md, "Hang report"), after
 * src/radeon/hangreport.c. A trace sink records the control-list records
 * each thread executes (CG_TRACE_PACKET with the record's bytes: ct0 the
 * binning thread, ct1 the rendering thread) and counts the semaphore
 * records; the report reads, for each thread, its first fault since the
 * recorder was made: the record at CTnCA decoded as the disassembler prints
 * it, the thread's records before it, and what a Wait_on_Semaphore or Flush
 * waited on. The engines are not touched. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "vc4_internal.h"
#include "cmdgpu/capture.h"
#include "core/hangrec.h"
#include "core/json.h"

#define SLOTS (CG_VC4_HANG_HISTORY + 1)

typedef struct hr_rec {
    uint32_t addr;
    uint8_t bytes[16];
    uint8_t nbytes;
} hr_rec;

typedef struct hr_thread {
    hr_rec rec[SLOTS];
    size_t n;
    uint32_t incs, waits, flushes; /* Increment_Semaphore, Wait_on_Semaphore, Flush* records */
} hr_thread;

struct cg_vc4_hang_recorder {
    cg_hang_base base; /* first: the device, the sink, the faults before */
    hr_thread th[2];
};

static void sink(void *user, const cg_trace_event *ev)
{
    cg_vc4_hang_recorder *r = user;
    if (ev->family != CG_FAMILY_VC4 || ev->kind != CG_TRACE_PACKET || ev->channel < 0 ||
        ev->channel > 1)
        return;
    hr_thread *t = &r->th[ev->channel];
    uint8_t op = (uint8_t)ev->reg;
    /* a blocked record is fetched again on every retry: record it once */
    const hr_rec *prev = t->n ? &t->rec[(t->n - 1) % SLOTS] : NULL;
    if (prev && prev->addr == (uint32_t)ev->stream_addr && prev->bytes[0] == op &&
        op == VC4_OP_Wait_on_Semaphore)
        return;
    hr_rec *p = &t->rec[t->n++ % SLOTS];
    p->addr = (uint32_t)ev->stream_addr;
    size_t nb = ev->bytes ? ev->nbytes : 0;
    if (nb > sizeof p->bytes)
        nb = sizeof p->bytes;
    if (nb)
        memcpy(p->bytes, ev->bytes, nb);
    else
        p->bytes[0] = op, nb = 1;
    p->nbytes = (uint8_t)nb;
    if (op == VC4_OP_Increment_Semaphore)
        t->incs++;
    else if (op == VC4_OP_Wait_on_Semaphore)
        t->waits++;
    else if (op == VC4_OP_Flush || op == VC4_OP_Flush_All_State)
        t->flushes++;
}

int cg_vc4_hang_recorder_create(cg_device *dev, cg_vc4_hang_recorder **out)
{
    void *r = NULL;
    int rc = out ? cg__hang_recorder_new(dev, sizeof **out, sink, &r) : CG_ERR_INVAL;
    if (rc == 0)
        *out = r;
    return rc;
}

void cg_vc4_hang_recorder_destroy(cg_vc4_hang_recorder *r)
{
    cg__hang_recorder_free(r ? &r->base : NULL);
}

static const cg_fault *thread_fault(const cg_vc4_hang_recorder *r, int t)
{
    return cg__hang_first_fault(&r->base, CG_FAMILY_VC4, t, NULL);
}

/* The record as the disassembler prints it: its statement lines, without
 * the comments, joined by "; ". */
static void decode(const hr_rec *p, char *buf, size_t cap)
{
    buf[0] = 0;
    char *text = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&text, &len);
    if (!m)
        return;
    cg_vc4_disasm_opts o = {.base = p->addr, .prim_format = 0x12, .c_name = "", .c_num = "",
                            .c_addr = "", .c_err = "", .c_comment = "", .c_reset = ""};
    cg_vc4_cl_disasm(&o, p->bytes, p->nbytes, m);
    fclose(m);
    size_t at = 0;
    for (char *line = text, *next; line && *line; line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = 0;
        if (strncmp(line, "//", 2) == 0 || !*line)
            continue;
        int w = snprintf(buf + at, cap - at, "%s%s", at ? "; " : "", line);
        if (w < 0 || (size_t)w >= cap - at)
            break;
        at += (size_t)w;
    }
    free(text);
}

static const char *rec_name(const hr_rec *p)
{
    const char *n = cg_vc4_cl_name(p->bytes[0]);
    return n ? n : "?";
}

static void bytes_json(FILE *out, const hr_rec *p)
{
    fputc('"', out);
    for (unsigned i = 0; i < p->nbytes; i++)
        fprintf(out, "%02x", p->bytes[i]);
    fputc('"', out);
}

int cg_vc4_hang_report(const cg_vc4_hang_recorder *r, bool json, FILE *out)
{
    if (!r || !out)
        return CG_ERR_INVAL;
    const cg_fault *f[2] = {thread_fault(r, 0), thread_fault(r, 1)};
    if (!f[0] && !f[1])
        return 0;
    if (json)
        fprintf(out, "{\"hang\":{\"threads\":[");
    bool first = true;
    for (int t = 0; t < 2; t++) {
        if (!f[t])
            continue;
        const hr_thread *th = &r->th[t];
        size_t n = th->n < SLOTS ? th->n : SLOTS;
        /* the record at CTnCA: the newest one at the fault's address */
        const hr_rec *at = NULL;
        size_t from = 0;
        if (n && th->rec[(th->n - 1) % SLOTS].addr == (uint32_t)f[t]->stream_addr) {
            at = &th->rec[(th->n - 1) % SLOTS];
            from = 1;
        }
        char dec[256] = "";
        if (at)
            decode(at, dec, sizeof dec);
        uint8_t op = at ? at->bytes[0] : 0xff;
        bool sem = at && op == VC4_OP_Wait_on_Semaphore;
        bool flush = at && (op == VC4_OP_Flush || op == VC4_OP_Flush_All_State);
        const hr_thread *other = &r->th[1 - t];
        if (json) {
            fprintf(out, "%s{\"thread\":\"ct%d\",\"role\":\"%s\",\"kind\":\"%s\",\"ca\":\"0x%08" PRIx64
                         "\",",
                    first ? "" : ",", t, t ? "render" : "bin", cg_fault_kind_name(f[t]->kind),
                    f[t]->stream_addr);
            if (at) {
                fprintf(out, "\"record\":{\"name\":\"%s\",\"bytes\":", rec_name(at));
                bytes_json(out, at);
                fprintf(out, ",\"decode\":");
                cg_json_fput(out, dec);
                fprintf(out, "},");
            }
            fprintf(out, "\"message\":");
            cg_json_fput(out, f[t]->message);
            if (sem)
                fprintf(out, ",\"waited_on\":{\"what\":\"semaphore\",\"increments_by_ct%d\":%u,"
                             "\"flushes_by_ct%d\":%u,\"waits_by_ct%d\":%u}",
                        1 - t, other->incs, 1 - t, other->flushes, t, th->waits);
            else if (flush)
                fprintf(out, ",\"waited_on\":{\"what\":\"flush\",\"flushes\":%u}", th->flushes);
            fprintf(out, ",\"before\":[");
            for (size_t k = n; k-- > from;) {
                const hr_rec *p = &th->rec[(th->n - 1 - k) % SLOTS];
                char d[256];
                decode(p, d, sizeof d);
                fprintf(out, "{\"addr\":\"0x%08x\",\"name\":\"%s\",\"decode\":", p->addr,
                        rec_name(p));
                cg_json_fput(out, d);
                fprintf(out, "}%s", k > from ? "," : "");
            }
            fprintf(out, "]}");
            first = false;
            continue;
        }
        char none[64] = "(no record decoded there)";
        if (!at && f[t]->nwords)
            snprintf(none, sizeof none, "(no record decoded there: byte 0x%02x)",
                     f[t]->words[0] & 0xff);
        fprintf(out, "hang report: thread ct%d (%s) stood at CT%dCA 0x%08" PRIx64 " %s when a fault "
                     "(%s) ended it: %s\n",
                t, t ? "render" : "bin", t, f[t]->stream_addr,
                at ? dec : none, cg_fault_kind_name(f[t]->kind),
                f[t]->message);
        if (sem)
            fprintf(out, "  it waited on the semaphore: ct%d ran %u Increment_Semaphore and %u "
                         "Flush (the binning thread's increments wait for a Flush), ct%d ran %u "
                         "Wait_on_Semaphore\n",
                    1 - t, other->incs, other->flushes, t, th->waits);
        else if (flush)
            fprintf(out, "  it stood at a flush (%u Flush records on this thread)\n",
                    th->flushes);
        if (n > from) {
            fprintf(out, "  the records before it (oldest first):\n");
            for (size_t k = n; k-- > from;) {
                const hr_rec *p = &th->rec[(th->n - 1 - k) % SLOTS];
                char d[256];
                decode(p, d, sizeof d);
                fprintf(out, "    0x%08x %s\n", p->addr, d);
            }
        }
    }
    if (json)
        fprintf(out, "]}}\n");
    return 1;
}
