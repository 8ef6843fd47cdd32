/* cmdgpu core: trace sinks and the text / JSON Lines writers. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"
#include "json.h"

static const char *const trace_names[] = {
#define CG_X_ROW(id, name) name,
    CG_TRACE_TABLE(CG_X_ROW)
#undef CG_X_ROW
};

const char *cg_trace_kind_name(cg_trace_kind k)
{
    return (unsigned)k < CG_TRACE_KIND_COUNT ? trace_names[k] : "?";
}

int cg_trace_add(cg_device *dev, cg_trace_fn fn, void *user)
{
    if (!dev || !fn)
        return CG_ERR_INVAL;
    int id = CG_ERR_NOSPACE;
    pthread_mutex_lock(&dev->lock);
    for (int i = 0; i < CG_TRACE_MAX_SINKS; i++) {
        if (!dev->sinks[i].fn) {
            dev->sinks[i].fn = fn;
            dev->sinks[i].user = user;
            atomic_fetch_add(&dev->nsinks, 1);
            id = i;
            break;
        }
    }
    pthread_mutex_unlock(&dev->lock);
    return id;
}

int cg_trace_remove(cg_device *dev, int id)
{
    if (!dev || id < 0 || id >= CG_TRACE_MAX_SINKS)
        return CG_ERR_INVAL;
    int rc = CG_ERR_NOENT;
    pthread_mutex_lock(&dev->lock);
    if (dev->sinks[id].fn) {
        dev->sinks[id].fn = NULL;
        dev->sinks[id].user = NULL;
        atomic_fetch_sub(&dev->nsinks, 1);
        rc = 0;
    }
    pthread_mutex_unlock(&dev->lock);
    return rc;
}

bool cg_trace_enabled(const cg_device *dev)
{
    return dev && atomic_load_explicit(&((cg_device *)dev)->nsinks, memory_order_relaxed) > 0;
}

void cg_trace_emit(cg_device *dev, const cg_trace_event *ev)
{
    if (!cg_trace_enabled(dev) || !ev)
        return;
    /* Sinks run under the lock so events from several threads do not
     * interleave inside one sink; a sink must not call back into the trace
     * or fault API. */
    pthread_mutex_lock(&dev->lock);
    for (int i = 0; i < CG_TRACE_MAX_SINKS; i++)
        if (dev->sinks[i].fn)
            dev->sinks[i].fn(dev->sinks[i].user, ev);
    pthread_mutex_unlock(&dev->lock);
}

/* Every text line names its place as "family/unit" and " chN" if any; the
 * three strings go to a "%s/%s%s" conversion. */
#define WHERE "%s/%s%s"
#define WHERE_ARGS cg_family_name(ev->family), ev->unit ? ev->unit : "-", chan

int cg_trace_format_text(const cg_trace_event *ev, char *buf, size_t cap)
{
    char chan[24] = "";
    if (ev->channel >= 0)
        snprintf(chan, sizeof(chan), " ch%d", (int)ev->channel);

    const char *name = ev->name ? ev->name : "";
    switch (ev->kind) {
    case CG_TRACE_METHOD:
    case CG_TRACE_REG_WRITE:
        return snprintf(buf, cap, "%-9s " WHERE " @0x%llx %s [0x%04x] = 0x%08llx",
                        cg_trace_kind_name(ev->kind), WHERE_ARGS,
                        (unsigned long long)ev->stream_addr, name, ev->reg,
                        (unsigned long long)ev->value);
    case CG_TRACE_PACKET:
        return snprintf(buf, cap, "%-9s " WHERE " @0x%llx %s op 0x%02x header 0x%08llx%s%s",
                        "packet", WHERE_ARGS, (unsigned long long)ev->stream_addr, name,
                        ev->reg, (unsigned long long)ev->value, ev->text ? " " : "",
                        ev->text ? ev->text : "");
    case CG_TRACE_MEM_WRITE:
    case CG_TRACE_SPARSE_WRITE:
        return snprintf(buf, cap, "%-9s " WHERE " 0x%llx +0x%llx",
                        cg_trace_kind_name(ev->kind), WHERE_ARGS,
                        (unsigned long long)ev->gpu_addr, (unsigned long long)ev->size);
    case CG_TRACE_FENCE:
        return snprintf(buf, cap, "%-9s " WHERE " %s addr 0x%llx value 0x%llx", "fence",
                        WHERE_ARGS, name, (unsigned long long)ev->gpu_addr,
                        (unsigned long long)ev->value);
    case CG_TRACE_INTERRUPT:
        return snprintf(buf, cap, "%-9s " WHERE " %s source %u status 0x%llx", "interrupt",
                        WHERE_ARGS, name, ev->reg, (unsigned long long)ev->value);
    case CG_TRACE_FAULT:
        if (ev->fault) {
            /* The fault's own line goes straight after the prefix, so the
             * length returned is exact however long the message. */
            int n = snprintf(buf, cap, "%-9s ", "fault");
            if (n < 0)
                return n;
            size_t at = (size_t)n;
            int m = at < cap ? cg_fault_format(ev->fault, buf + at, cap - at)
                             : cg_fault_format(ev->fault, NULL, 0);
            return m < 0 ? m : n + m;
        }
        return snprintf(buf, cap, "%-9s " WHERE " %s", "fault", WHERE_ARGS,
                        ev->text ? ev->text : "");
    case CG_TRACE_NOTE:
    default:
        return snprintf(buf, cap, "%-9s " WHERE " %s", cg_trace_kind_name(ev->kind),
                        WHERE_ARGS, ev->text ? ev->text : "");
    }
}

#undef WHERE
#undef WHERE_ARGS

int cg_trace_format_json(const cg_trace_event *ev, char *buf, size_t cap)
{
    cg_json j;
    cg_json_init(&j, buf, cap);
    cg_json_begin(&j);
    cg_json_str(&j, "kind", cg_trace_kind_name(ev->kind));
    cg_json_str(&j, "family", cg_family_name(ev->family));
    if (ev->unit)
        cg_json_str(&j, "unit", ev->unit);
    if (ev->channel >= 0)
        cg_json_i64(&j, "channel", ev->channel);
    switch (ev->kind) {
    case CG_TRACE_METHOD:
    case CG_TRACE_REG_WRITE:
    case CG_TRACE_PACKET:
        cg_json_hex(&j, "stream_addr", ev->stream_addr);
        cg_json_hex(&j, "reg", ev->reg);
        cg_json_hex(&j, "value", ev->value);
        break;
    case CG_TRACE_MEM_WRITE:
    case CG_TRACE_SPARSE_WRITE:
        cg_json_hex(&j, "gpu_addr", ev->gpu_addr);
        cg_json_u64(&j, "size", ev->size);
        break;
    case CG_TRACE_FENCE:
        cg_json_hex(&j, "gpu_addr", ev->gpu_addr);
        cg_json_hex(&j, "value", ev->value);
        break;
    case CG_TRACE_INTERRUPT:
        cg_json_u64(&j, "reg", ev->reg);
        cg_json_hex(&j, "value", ev->value);
        break;
    default:
        break;
    }
    if (ev->name)
        cg_json_str(&j, "name", ev->name);
    bool fault = ev->kind == CG_TRACE_FAULT && ev->fault;
    /* A fault record carries the text itself (its message). */
    if (ev->text && !fault)
        cg_json_str(&j, "text", ev->text);
    if (fault) {
        /* Nest the fault object in place, with the writer's own semantics:
         * cut to the room left, j.len counting the full length. */
        cg_json_key(&j, "fault");
        bool room = j.len < j.cap;
        int n = cg_fault_format_json(ev->fault, room ? j.buf + j.len : NULL,
                                     room ? j.cap - j.len : 0);
        if (n > 0)
            j.len += (size_t)n;
    }
    cg_json_end(&j);
    return (int)j.len;
}

static void write_line(FILE *f, int (*fmt)(const cg_trace_event *, char *, size_t),
                       const cg_trace_event *ev)
{
    char line[1024];
    int n = fmt(ev, line, sizeof(line));
    if (n < 0)
        return;
    char *big = NULL;
    if ((size_t)n >= sizeof(line)) {
        /* A long text or name: format again into a buffer that fits, or
         * write the cut line if there is no memory for one. */
        big = malloc((size_t)n + 1);
        if (big)
            fmt(ev, big, (size_t)n + 1);
    }
    /* One event, one line: a newline or other control character inside a
     * message or name would break line-based readers (JSON output has them
     * escaped already, so this only touches text). */
    for (char *p = big ? big : line; *p; p++)
        if ((unsigned char)*p < 0x20)
            *p = ' ';
    fputs(big ? big : line, f);
    fputc('\n', f);
    free(big);
}

void cg_trace_write_text(void *file, const cg_trace_event *ev)
{
    write_line(file ? (FILE *)file : stdout, cg_trace_format_text, ev);
}

void cg_trace_write_json(void *file, const cg_trace_event *ev)
{
    write_line(file ? (FILE *)file : stdout, cg_trace_format_json, ev);
}
