/* Tests for src/core/fault.c: records filled from agents, the log and its cap,
 * sequence numbers, the callback, kind names, text and JSON formatting. */
#include <pthread.h>
#include <stdlib.h>
#include "check.h"
#include "cmdgpu/device.h"
#include "cmdgpu/fault.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* What the callback saw. */
struct seen {
    size_t n;
    cg_fault last;
    uint64_t seq_sum;
};

static void on_fault(void *user, const cg_fault *f)
{
    struct seen *s = user;
    s->n++;
    s->last = *f;
    s->seq_sum += f->seq;
}

static const cg_agent pfifo = {
    .family = CG_FAMILY_NV,
    .unit = "pfifo",
    .channel = 3,
    .stream_addr = 0x1000,
    .words = {1, 2, 3, 0xdeadbeef},
    .nwords = 4,
};

static void test_post_fills_record(void)
{
    cg_device *dev = NULL;
    CHECK_EQ(cg_device_create(&dev), 0);
    struct seen seen = {0};
    cg_fault_set_callback(dev, on_fault, &seen);

    CHECK_EQ(cg_fault_post(dev, &pfifo, CG_FAULT_INVALID_METHOD, 0xfeedface0ull, "method 0x%x on %s",
                           0x123, "3d"),
             CG_ERR_FAULT);
    CHECK_EQ(cg_fault_count(dev), 1);
    const cg_fault *f = cg_fault_get(dev, 0);
    CHECK(f != NULL);
    if (!f)
        return;
    CHECK_EQ(f->seq, 0);
    CHECK_EQ(f->kind, CG_FAULT_INVALID_METHOD);
    CHECK_EQ(f->family, CG_FAMILY_NV);
    CHECK_EQ(f->flags, 0);
    CHECK_STR(f->unit, "pfifo");
    CHECK_EQ(f->channel, 3);
    CHECK_EQ(f->gpu_addr, 0xfeedface0ull);
    CHECK_EQ(f->stream_addr, 0x1000);
    CHECK_EQ(f->nwords, 4);
    CHECK_EQ(f->words[0], 1);
    CHECK_EQ(f->words[1], 2);
    CHECK_EQ(f->words[2], 3);
    CHECK_EQ(f->words[3], 0xdeadbeef);
    CHECK_STR(f->message, "method 0x123 on 3d");
    CHECK_EQ(seen.n, 1);
    CHECK_MEM(&seen.last, f, sizeof(*f));

    /* Fewer words: the rest stay zero. More than CG_FAULT_MAX_WORDS: capped. */
    cg_agent two = pfifo;
    two.nwords = 2;
    CHECK_EQ(cg_fault_post(dev, &two, CG_FAULT_BAD_LENGTH, 0, "two"), CG_ERR_FAULT);
    f = cg_fault_get(dev, 1);
    CHECK_EQ(f->seq, 1);
    CHECK_EQ(f->nwords, 2);
    CHECK_EQ(f->words[1], 2);
    CHECK_EQ(f->words[2], 0);
    CHECK_EQ(f->words[3], 0);
    cg_agent many = pfifo;
    many.nwords = 1000;
    CHECK_EQ(cg_fault_post(dev, &many, CG_FAULT_BAD_LENGTH, 0, "many"), CG_ERR_FAULT);
    f = cg_fault_get(dev, 2);
    CHECK_EQ(f->nwords, CG_FAULT_MAX_WORDS);
    CHECK_EQ(f->words[3], 0xdeadbeef);

    /* A NULL agent is the CPU. */
    CHECK_EQ(cg_fault_post(dev, NULL, CG_FAULT_UNMAPPED, 0x40, "cpu %d", 7), CG_ERR_FAULT);
    f = cg_fault_get(dev, 3);
    CHECK_EQ(f->seq, 3);
    CHECK_EQ(f->family, CG_FAMILY_NONE);
    CHECK_STR(f->unit, "cpu");
    CHECK_EQ(f->channel, -1);
    CHECK_EQ(f->stream_addr, 0);
    CHECK_EQ(f->nwords, 0);
    CHECK_EQ(f->gpu_addr, 0x40);
    CHECK_STR(f->message, "cpu 7");

    /* An agent without a unit name is "gpu"; a long one is cut to fit. */
    cg_agent anon = {.family = CG_FAMILY_VC4, .unit = NULL, .channel = 0};
    CHECK_EQ(cg_fault_post(dev, &anon, CG_FAULT_HANG, 0, "x"), CG_ERR_FAULT);
    CHECK_STR(cg_fault_get(dev, 4)->unit, "gpu");
    CHECK_EQ(cg_fault_get(dev, 4)->channel, 0);
    cg_agent wordy = {.family = CG_FAMILY_RADEON, .unit = "a-very-long-unit-name", .channel = 1};
    CHECK_EQ(cg_fault_post(dev, &wordy, CG_FAULT_HANG, 0, "y"), CG_ERR_FAULT);
    CHECK_STR(cg_fault_get(dev, 5)->unit, "a-very-long-uni"); /* CG_FAULT_UNIT_LEN - 1 */

    /* A long message is cut at CG_FAULT_MSG_LEN - 1 characters. */
    char longmsg[400];
    memset(longmsg, 'm', sizeof(longmsg) - 1);
    longmsg[sizeof(longmsg) - 1] = 0;
    CHECK_EQ(cg_fault_post(dev, NULL, CG_FAULT_TRAP, 0, "%s", longmsg), CG_ERR_FAULT);
    f = cg_fault_get(dev, 6);
    CHECK_EQ(strlen(f->message), CG_FAULT_MSG_LEN - 1);
    CHECK(strncmp(f->message, longmsg, CG_FAULT_MSG_LEN - 1) == 0);

    /* A warning is logged and reported like an error but returns 0. */
    cg_fault w;
    cg_fault_init(&w, &pfifo, CG_FAULT_STALE_GPU_READ, 0x2000, "stale line %u", 5u);
    w.flags |= CG_FAULT_F_WARNING;
    w.seq = 999; /* replaced by the log */
    CHECK_EQ(cg_fault_raise(dev, &w), 0);
    f = cg_fault_get(dev, 7);
    CHECK_EQ(f->seq, 7);
    CHECK_EQ(f->flags, CG_FAULT_F_WARNING);
    CHECK_STR(f->message, "stale line 5");
    CHECK_EQ(w.seq, 999); /* the caller's record is not touched */

    CHECK_EQ(cg_fault_count(dev), 8);
    CHECK(cg_fault_get(dev, 8) == NULL);
    CHECK_EQ(seen.n, 8);
    CHECK_EQ(seen.seq_sum, 0 + 1 + 2 + 3 + 4 + 5 + 6 + 7);
    CHECK_EQ(seen.last.seq, 7);
    CHECK_EQ(cg_fault_dropped(dev), 0);

    /* Without a callback nothing is called; logging goes on. */
    cg_fault_set_callback(dev, NULL, NULL);
    CHECK_EQ(cg_fault_post(dev, NULL, CG_FAULT_TRAP, 0, "quiet"), CG_ERR_FAULT);
    CHECK_EQ(seen.n, 8);
    CHECK_EQ(cg_fault_count(dev), 9);

    /* Clear empties the log and restarts the numbering. */
    cg_fault_clear(dev);
    CHECK_EQ(cg_fault_count(dev), 0);
    CHECK(cg_fault_get(dev, 0) == NULL);
    CHECK_EQ(cg_fault_post(dev, NULL, CG_FAULT_TRAP, 0, "again"), CG_ERR_FAULT);
    CHECK_EQ(cg_fault_get(dev, 0)->seq, 0);
    CHECK_STR(cg_fault_get(dev, 0)->message, "again");
    cg_device_destroy(dev);
}

static void test_init(void)
{
    cg_fault f;
    memset(&f, 0x5a, sizeof(f));
    cg_fault_init(&f, NULL, CG_FAULT_READ_ONLY, 0x1234, "w %s", "ro");
    cg_fault want;
    memset(&want, 0, sizeof(want));
    want.kind = CG_FAULT_READ_ONLY;
    want.gpu_addr = 0x1234;
    want.channel = -1;
    strcpy(want.unit, "cpu");
    strcpy(want.message, "w ro");
    /* Every byte is defined, padding included (records are compared and
     * copied whole). */
    CHECK_MEM(&f, &want, sizeof(f));
}

static void test_null_device(void)
{
    cg_fault f;
    cg_fault_init(&f, NULL, CG_FAULT_TRAP, 0, "x");
    CHECK_EQ(cg_fault_raise(NULL, &f), CG_ERR_INVAL);
    CHECK_EQ(cg_fault_post(NULL, NULL, CG_FAULT_TRAP, 0, "x"), CG_ERR_INVAL);
    CHECK_EQ(cg_fault_count(NULL), 0);
    CHECK(cg_fault_get(NULL, 0) == NULL);
    CHECK_EQ(cg_fault_dropped(NULL), 0);
    cg_fault_clear(NULL);
    cg_fault_set_callback(NULL, on_fault, NULL);
    cg_device *dev = NULL;
    CHECK_EQ(cg_device_create(&dev), 0);
    CHECK_EQ(cg_fault_raise(dev, NULL), CG_ERR_INVAL);
    CHECK_EQ(cg_fault_count(dev), 0);
    cg_device_destroy(dev);
}

static void test_kind_names(void)
{
    static const struct {
        cg_fault_kind k;
        const char *name, *desc;
    } table[] = {
#define X(id, name, desc) {CG_FAULT_##id, name, desc},
        CG_FAULT_TABLE(X)
#undef X
    };
    CHECK_EQ(ARRAY_SIZE(table), CG_FAULT_KIND_COUNT);
    for (size_t i = 0; i < ARRAY_SIZE(table); i++) {
        CHECK_EQ(table[i].k, i);
        CHECK_STR(cg_fault_kind_name(table[i].k), table[i].name);
        CHECK_STR(cg_fault_kind_desc(table[i].k), table[i].desc);
        CHECK_EQ(cg_fault_kind_from_name(table[i].name), table[i].k);
        /* Names are unique. */
        for (size_t j = 0; j < i; j++)
            CHECK(strcmp(table[i].name, table[j].name) != 0);
    }
    CHECK_STR(cg_fault_kind_name(CG_FAULT_UNMAPPED), "unmapped");
    CHECK_STR(cg_fault_kind_name(CG_FAULT_KIND_COUNT), "?");
    CHECK_STR(cg_fault_kind_name((cg_fault_kind)-1), "?");
    CHECK_STR(cg_fault_kind_desc(CG_FAULT_KIND_COUNT), "unknown fault kind");
    CHECK_EQ(cg_fault_kind_from_name("no-such-kind"), CG_FAULT_NONE);
    CHECK_EQ(cg_fault_kind_from_name("Unmapped"), CG_FAULT_NONE);
    CHECK_EQ(cg_fault_kind_from_name(""), CG_FAULT_NONE);
    CHECK_EQ(cg_fault_kind_from_name(NULL), CG_FAULT_NONE);
}

/* Check a formatter at every buffer size up to the full length: it returns
 * the full length each time, and the buffer holds a terminated prefix. */
static void check_cuts(int (*fmt)(const cg_fault *, char *, size_t), const cg_fault *f,
                       const char *full)
{
    size_t len = strlen(full);
    CHECK_EQ(fmt(f, NULL, 0), len);
    for (size_t cap = 1; cap <= len + 1; cap++) {
        char buf[1024];
        memset(buf, '#', sizeof(buf));
        CHECK_EQ(fmt(f, buf, cap), len);
        CHECK_EQ(strlen(buf), cap - 1);
        CHECK(strncmp(buf, full, cap - 1) == 0);
        CHECK_EQ(buf[cap], '#');
    }
}

static void test_format(void)
{
    cg_fault f;
    char buf[1024];
    cg_fault_init(&f, &pfifo, CG_FAULT_INVALID_METHOD, 0xfeedface0ull, "method 0x%x", 0x123);
    f.seq = 12;
    const char *text = "fault #12 invalid-method nv/pfifo ch 3 addr 0xfeedface0 stream 0x1000 "
                       "words 0x00000001 0x00000002 0x00000003 0xdeadbeef: method 0x123";
    CHECK_EQ(cg_fault_format(&f, buf, sizeof(buf)), strlen(text));
    CHECK_STR(buf, text);
    check_cuts(cg_fault_format, &f, text);
    const char *json =
        "{\"seq\":12,\"kind\":\"invalid-method\",\"warning\":false,\"family\":\"nv\","
        "\"unit\":\"pfifo\",\"channel\":3,\"gpu_addr\":\"0xfeedface0\",\"stream_addr\":\"0x1000\","
        "\"words\":[\"0x00000001\",\"0x00000002\",\"0x00000003\",\"0xdeadbeef\"],"
        "\"message\":\"method 0x123\"}";
    CHECK_EQ(cg_fault_format_json(&f, buf, sizeof(buf)), strlen(json));
    CHECK_STR(buf, json);
    check_cuts(cg_fault_format_json, &f, json);

    /* A CPU-side warning: no channel, no words. */
    cg_fault_init(&f, NULL, CG_FAULT_STALE_CPU_READ, 0x40, "line 0x%x", 0x40);
    f.flags = CG_FAULT_F_WARNING;
    f.seq = 0;
    text = "warning #0 stale-cpu-read none/cpu addr 0x40 stream 0x0: line 0x40";
    CHECK_EQ(cg_fault_format(&f, buf, sizeof(buf)), strlen(text));
    CHECK_STR(buf, text);
    json = "{\"seq\":0,\"kind\":\"stale-cpu-read\",\"warning\":true,\"family\":\"none\","
           "\"unit\":\"cpu\",\"channel\":-1,\"gpu_addr\":\"0x40\",\"stream_addr\":\"0x0\","
           "\"words\":[],\"message\":\"line 0x40\"}";
    CHECK_EQ(cg_fault_format_json(&f, buf, sizeof(buf)), strlen(json));
    CHECK_STR(buf, json);
    check_cuts(cg_fault_format_json, &f, json);

    /* One word, an empty message, the largest values. */
    cg_agent one = {.family = CG_FAMILY_RADEON, .unit = "cp", .channel = 2147483647,
                    .stream_addr = UINT64_MAX, .words = {0xc0001000}, .nwords = 1};
    cg_fault_init(&f, &one, CG_FAULT_INVALID_OPCODE, UINT64_MAX, "%s", "");
    f.seq = UINT64_MAX;
    text = "fault #18446744073709551615 invalid-opcode radeon/cp ch 2147483647 addr "
           "0xffffffffffffffff stream 0xffffffffffffffff words 0xc0001000: ";
    CHECK_EQ(cg_fault_format(&f, buf, sizeof(buf)), strlen(text));
    CHECK_STR(buf, text);
    json = "{\"seq\":18446744073709551615,\"kind\":\"invalid-opcode\",\"warning\":false,"
           "\"family\":\"radeon\",\"unit\":\"cp\",\"channel\":2147483647,"
           "\"gpu_addr\":\"0xffffffffffffffff\",\"stream_addr\":\"0xffffffffffffffff\","
           "\"words\":[\"0xc0001000\"],\"message\":\"\"}";
    CHECK_EQ(cg_fault_format_json(&f, buf, sizeof(buf)), strlen(json));
    CHECK_STR(buf, json);

    /* JSON escapes quotes, backslashes, newlines, tabs and control bytes. */
    cg_fault_init(&f, NULL, CG_FAULT_TRAP, 0, "a \"q\" b\\c\nd\te\x01" "f\x1f" "g\r");
    json = "{\"seq\":0,\"kind\":\"trap\",\"warning\":false,\"family\":\"none\",\"unit\":\"cpu\","
           "\"channel\":-1,\"gpu_addr\":\"0x0\",\"stream_addr\":\"0x0\",\"words\":[],"
           "\"message\":\"a \\\"q\\\" b\\\\c\\nd\\te\\u0001f\\u001fg\\u000d\"}";
    CHECK_EQ(cg_fault_format_json(&f, buf, sizeof(buf)), strlen(json));
    CHECK_STR(buf, json);
    check_cuts(cg_fault_format_json, &f, json);
}

/* The log keeps CG_FAULT_LOG_MAX records; later ones are counted as dropped
 * but still reach the callback. */
static void test_log_cap(void)
{
    cg_device *dev = NULL;
    CHECK_EQ(cg_device_create(&dev), 0);
    struct seen seen = {0};
    cg_fault_set_callback(dev, on_fault, &seen);
    const size_t extra = 10;
    for (size_t i = 0; i < CG_FAULT_LOG_MAX + extra; i++)
        CHECK_EQ(cg_fault_post(dev, &pfifo, CG_FAULT_UNMAPPED, i, "f%zu", i), CG_ERR_FAULT);
    CHECK_EQ(cg_fault_count(dev), CG_FAULT_LOG_MAX);
    CHECK_EQ(cg_fault_dropped(dev), extra);
    CHECK_EQ(seen.n, CG_FAULT_LOG_MAX + extra);
    CHECK_EQ(seen.last.seq, CG_FAULT_LOG_MAX + extra - 1);
    CHECK_STR(seen.last.message, "f4105");
    CHECK(cg_fault_get(dev, CG_FAULT_LOG_MAX) == NULL);
    const cg_fault *last = cg_fault_get(dev, CG_FAULT_LOG_MAX - 1);
    CHECK_EQ(last->seq, CG_FAULT_LOG_MAX - 1);
    CHECK_EQ(last->gpu_addr, CG_FAULT_LOG_MAX - 1);
    CHECK_STR(last->message, "f4095");
    for (size_t i = 0; i < CG_FAULT_LOG_MAX; i += 511)
        CHECK_EQ(cg_fault_get(dev, i)->seq, i);

    /* Clear resets both figures; the log fills again. */
    cg_fault_clear(dev);
    CHECK_EQ(cg_fault_count(dev), 0);
    CHECK_EQ(cg_fault_dropped(dev), 0);
    CHECK_EQ(cg_fault_post(dev, NULL, CG_FAULT_TRAP, 0, "after"), CG_ERR_FAULT);
    CHECK_EQ(cg_fault_count(dev), 1);
    CHECK_EQ(cg_fault_get(dev, 0)->seq, 0);
    cg_device_destroy(dev);
}

/* Several threads posting at once: every fault is logged once, with distinct
 * sequence numbers 0..N-1. */
enum { THREADS = 4, PER_THREAD = 300 };

static void *poster(void *arg)
{
    cg_device *dev = arg;
    for (int i = 0; i < PER_THREAD; i++)
        cg_fault_post(dev, NULL, CG_FAULT_HANG, (uint64_t)i, "t");
    return NULL;
}

static void test_threads(void)
{
    cg_device *dev = NULL;
    CHECK_EQ(cg_device_create(&dev), 0);
    pthread_t t[THREADS];
    for (int i = 0; i < THREADS; i++)
        CHECK_EQ(pthread_create(&t[i], NULL, poster, dev), 0);
    for (int i = 0; i < THREADS; i++)
        pthread_join(t[i], NULL);
    CHECK_EQ(cg_fault_count(dev), THREADS * PER_THREAD);
    static bool seen[THREADS * PER_THREAD];
    size_t bad = 0;
    for (size_t i = 0; i < THREADS * PER_THREAD; i++) {
        const cg_fault *f = cg_fault_get(dev, i);
        if (!f || f->seq != i || seen[f->seq])
            bad++;
        else
            seen[f->seq] = true;
    }
    CHECK_EQ(bad, 0);
    cg_device_destroy(dev);
}

/* docs/faults.md names every fault kind and every budget (the tables in
 * fault.h and device.h are the source; the page must not drift from them). */
static void test_faults_doc(void)
{
    FILE *f = fopen(CMDGPU_SOURCE_DIR "/docs/faults.md", "r");
    CHECK(f != NULL);
    if (!f)
        return;
    static char doc[1 << 16];
    size_t n = fread(doc, 1, sizeof(doc) - 1, f);
    fclose(f);
    doc[n] = 0;
    char want[96];
    for (int k = 1; k < CG_FAULT_KIND_COUNT; k++) {
        snprintf(want, sizeof(want), "| `%s` |", cg_fault_kind_name((cg_fault_kind)k));
        if (!strstr(doc, want))
            fprintf(stderr, "docs/faults.md: no row for fault kind %s\n", want);
        CHECK(strstr(doc, want) != NULL);
    }
    for (int b = 0; b < CG_BUDGET_COUNT; b++) {
        snprintf(want, sizeof(want), "| `%s` |", cg_budget_name((cg_budget)b));
        if (!strstr(doc, want))
            fprintf(stderr, "docs/faults.md: no row for budget %s\n", want);
        CHECK(strstr(doc, want) != NULL);
    }
}

int main(void)
{
    test_post_fills_record();
    test_init();
    test_null_device();
    test_kind_names();
    test_format();
    test_log_cap();
    test_threads();
    test_faults_doc();
    return check_report("test_fault");
}
