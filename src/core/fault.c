/* cmdgpu core: fault records, the per-device fault log and its callback. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"
#include "json.h"

static const struct {
    const char *name, *desc;
} fault_kinds[] = {
#define CG_X_ROW(id, name, desc) {name, desc},
    CG_FAULT_TABLE(CG_X_ROW)
#undef CG_X_ROW
};

const char *cg_fault_kind_name(cg_fault_kind k)
{
    return (unsigned)k < CG_FAULT_KIND_COUNT ? fault_kinds[k].name : "?";
}

const char *cg_fault_kind_desc(cg_fault_kind k)
{
    return (unsigned)k < CG_FAULT_KIND_COUNT ? fault_kinds[k].desc : "unknown fault kind";
}

cg_fault_kind cg_fault_kind_from_name(const char *name)
{
    for (unsigned k = 0; name && k < CG_FAULT_KIND_COUNT; k++)
        if (strcmp(fault_kinds[k].name, name) == 0)
            return (cg_fault_kind)k;
    return CG_FAULT_NONE;
}

static void fault_vinit(cg_fault *f, const cg_agent *who, cg_fault_kind kind,
                        uint64_t gpu_addr, const char *fmt, va_list ap)
{
    memset(f, 0, sizeof(*f));
    f->kind = kind;
    f->gpu_addr = gpu_addr;
    f->channel = -1;
    if (who) {
        f->family = who->family;
        snprintf(f->unit, sizeof(f->unit), "%s", who->unit ? who->unit : "gpu");
        f->channel = who->channel;
        f->stream_addr = who->stream_addr;
        f->nwords = who->nwords > CG_FAULT_MAX_WORDS ? CG_FAULT_MAX_WORDS : who->nwords;
        memcpy(f->words, who->words, f->nwords * sizeof(f->words[0]));
    } else {
        snprintf(f->unit, sizeof(f->unit), "cpu");
    }
    if (fmt)
        vsnprintf(f->message, sizeof(f->message), fmt, ap);
}

void cg_fault_init(cg_fault *f, const cg_agent *who, cg_fault_kind kind,
                   uint64_t gpu_addr, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fault_vinit(f, who, kind, gpu_addr, fmt, ap);
    va_end(ap);
}

static _Thread_local cg__fault_capture *capture;

void cg__fault_capture_set(cg__fault_capture *c) { capture = c; }

int cg_fault_raise(cg_device *dev, const cg_fault *f_in)
{
    if (!dev || !f_in)
        return CG_ERR_INVAL;
    if (capture) {
        capture->count++;
        return (f_in->flags & CG_FAULT_F_WARNING) ? 0 : CG_ERR_FAULT;
    }
    cg_fault f = *f_in;
    cg_fault_fn fn;
    void *user;
    pthread_mutex_lock(&dev->lock);
    f.seq = dev->fault_seq++;
    cg_fault **chunk = &dev->fault_chunks[dev->nfaults / CG_FAULT_CHUNK];
    if (dev->nfaults < CG_FAULT_LOG_MAX && !*chunk)
        *chunk = malloc(CG_FAULT_CHUNK * sizeof(cg_fault));
    if (dev->nfaults < CG_FAULT_LOG_MAX && *chunk) {
        (*chunk)[dev->nfaults % CG_FAULT_CHUNK] = f;
        dev->nfaults++;
    } else {
        dev->faults_dropped++; /* log full, or no memory for a new chunk */
    }
    fn = dev->fault_fn;
    user = dev->fault_user;
    pthread_mutex_unlock(&dev->lock);

    if (fn)
        fn(user, &f);
    if (cg_trace_enabled(dev)) {
        cg_trace_event ev = {
            .kind = CG_TRACE_FAULT,
            .family = f.family,
            .unit = f.unit,
            .channel = f.channel,
            .stream_addr = f.stream_addr,
            .gpu_addr = f.gpu_addr,
            .name = cg_fault_kind_name(f.kind),
            .text = f.message,
            .fault = &f,
        };
        cg_trace_emit(dev, &ev);
    }
    return (f.flags & CG_FAULT_F_WARNING) ? 0 : CG_ERR_FAULT;
}

int cg_fault_vpost(cg_device *dev, const cg_agent *who, cg_fault_kind kind,
                   uint64_t gpu_addr, const char *fmt, va_list ap)
{
    cg_fault f;
    fault_vinit(&f, who, kind, gpu_addr, fmt, ap);
    return cg_fault_raise(dev, &f);
}

int cg_fault_post(cg_device *dev, const cg_agent *who, cg_fault_kind kind,
                  uint64_t gpu_addr, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = cg_fault_vpost(dev, who, kind, gpu_addr, fmt, ap);
    va_end(ap);
    return rc;
}

size_t cg_fault_count(const cg_device *dev)
{
    if (!dev)
        return 0;
    pthread_mutex_lock((pthread_mutex_t *)&dev->lock);
    size_t n = dev->nfaults;
    pthread_mutex_unlock((pthread_mutex_t *)&dev->lock);
    return n;
}

const cg_fault *cg_fault_get(const cg_device *dev, size_t i)
{
    if (!dev)
        return NULL;
    pthread_mutex_lock((pthread_mutex_t *)&dev->lock);
    const cg_fault *f =
        i < dev->nfaults ? &dev->fault_chunks[i / CG_FAULT_CHUNK][i % CG_FAULT_CHUNK] : NULL;
    pthread_mutex_unlock((pthread_mutex_t *)&dev->lock);
    return f;
}

uint64_t cg_fault_dropped(const cg_device *dev)
{
    if (!dev)
        return 0;
    pthread_mutex_lock((pthread_mutex_t *)&dev->lock);
    uint64_t n = dev->faults_dropped;
    pthread_mutex_unlock((pthread_mutex_t *)&dev->lock);
    return n;
}

void cg_fault_clear(cg_device *dev)
{
    if (!dev)
        return;
    pthread_mutex_lock(&dev->lock);
    /* seq is the position in the log (fault.h), so it restarts with it. */
    dev->nfaults = 0;
    dev->faults_dropped = 0;
    dev->fault_seq = 0;
    pthread_mutex_unlock(&dev->lock);
}

void cg_fault_set_callback(cg_device *dev, cg_fault_fn fn, void *user)
{
    if (!dev)
        return;
    pthread_mutex_lock(&dev->lock);
    dev->fault_fn = fn;
    dev->fault_user = user;
    pthread_mutex_unlock(&dev->lock);
}

/* Append the words as " 0x%08x" each. */
static void words_text(const cg_fault *f, char *buf, size_t cap)
{
    size_t len = 0;
    buf[0] = 0;
    for (uint32_t i = 0; i < f->nwords && len < cap; i++) {
        int w = snprintf(buf + len, cap - len, "%s0x%08x", i ? " " : "", f->words[i]);
        if (w < 0)
            break;
        len += (size_t)w;
    }
}

int cg_fault_format(const cg_fault *f, char *buf, size_t cap)
{
    char words[64], chan[24] = "";
    words_text(f, words, sizeof(words));
    if (f->channel >= 0)
        snprintf(chan, sizeof(chan), " ch %d", f->channel);
    return snprintf(buf, cap,
                    "%s #%llu %s %s/%s%s addr 0x%llx stream 0x%llx%s%s: %s",
                    (f->flags & CG_FAULT_F_WARNING) ? "warning" : "fault",
                    (unsigned long long)f->seq, cg_fault_kind_name(f->kind),
                    cg_family_name(f->family), f->unit, chan,
                    (unsigned long long)f->gpu_addr, (unsigned long long)f->stream_addr,
                    f->nwords ? " words " : "", words, f->message);
}

int cg_fault_format_json(const cg_fault *f, char *buf, size_t cap)
{
    cg_json j;
    cg_json_init(&j, buf, cap);
    cg_json_begin(&j);
    cg_json_u64(&j, "seq", f->seq);
    cg_json_str(&j, "kind", cg_fault_kind_name(f->kind));
    cg_json_bool(&j, "warning", (f->flags & CG_FAULT_F_WARNING) != 0);
    cg_json_str(&j, "family", cg_family_name(f->family));
    cg_json_str(&j, "unit", f->unit);
    cg_json_i64(&j, "channel", f->channel);
    cg_json_hex(&j, "gpu_addr", f->gpu_addr);
    cg_json_hex(&j, "stream_addr", f->stream_addr);
    cg_json_key(&j, "words");
    cg_json_raw(&j, "[");
    for (uint32_t i = 0; i < f->nwords; i++)
        cg_json_rawf(&j, "%s\"0x%08x\"", i ? "," : "", f->words[i]);
    cg_json_raw(&j, "]");
    cg_json_str(&j, "message", f->message);
    cg_json_end(&j);
    return (int)j.len;
}
