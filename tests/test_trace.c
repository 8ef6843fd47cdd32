/* Tests for src/core/trace.c (and the JSON writer under it): sinks, every
 * event kind as text and JSON, the FILE writers, fault events, escaping and
 * truncation. */
#include <stdlib.h>
#include "check.h"
#include "cmdgpu/device.h"
#include "cmdgpu/fault.h"
#include "cmdgpu/trace.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* A sink that records the order of calls and formats what it sees (the
 * event, and a fault it points at, live only during the call). */
struct rec {
    int id;
    int *order;
    size_t *norder;
    size_t n;
    cg_trace_kind kind;
    char text[1024], json[2048];
};

static void record(void *user, const cg_trace_event *ev)
{
    struct rec *r = user;
    r->n++;
    r->kind = ev->kind;
    if (r->order)
        r->order[(*r->norder)++] = r->id;
    cg_trace_format_text(ev, r->text, sizeof(r->text));
    cg_trace_format_json(ev, r->json, sizeof(r->json));
}

static void test_sinks(void)
{
    cg_device *dev = NULL;
    CHECK_EQ(cg_device_create(&dev), 0);
    CHECK(!cg_trace_enabled(dev));
    CHECK(!cg_trace_enabled(NULL));

    int order[64];
    size_t norder = 0;
    struct rec r[CG_TRACE_MAX_SINKS + 1];
    memset(r, 0, sizeof(r));
    for (int i = 0; i <= CG_TRACE_MAX_SINKS; i++) {
        r[i].id = i;
        r[i].order = order;
        r[i].norder = &norder;
    }
    for (int i = 0; i < CG_TRACE_MAX_SINKS; i++) {
        CHECK_EQ(cg_trace_add(dev, record, &r[i]), i);
        CHECK(cg_trace_enabled(dev));
    }
    CHECK_EQ(cg_trace_add(dev, record, &r[CG_TRACE_MAX_SINKS]), CG_ERR_NOSPACE);
    CHECK_EQ(cg_trace_add(dev, NULL, NULL), CG_ERR_INVAL);
    CHECK_EQ(cg_trace_add(NULL, record, NULL), CG_ERR_INVAL);

    /* Every sink sees each event, in id order. */
    cg_trace_event ev = {.kind = CG_TRACE_NOTE, .channel = -1, .text = "hi"};
    cg_trace_emit(dev, &ev);
    CHECK_EQ(norder, CG_TRACE_MAX_SINKS);
    for (int i = 0; i < CG_TRACE_MAX_SINKS; i++) {
        CHECK_EQ(order[i], i);
        CHECK_EQ(r[i].n, 1);
        CHECK_STR(r[i].text, "note      none/- hi");
    }
    CHECK_EQ(r[CG_TRACE_MAX_SINKS].n, 0);
    cg_trace_emit(dev, NULL); /* ignored */
    cg_trace_emit(NULL, &ev);
    CHECK_EQ(norder, CG_TRACE_MAX_SINKS);

    /* Remove: bad ids, twice, then the freed slot is reused first. */
    CHECK_EQ(cg_trace_remove(dev, -1), CG_ERR_INVAL);
    CHECK_EQ(cg_trace_remove(dev, CG_TRACE_MAX_SINKS), CG_ERR_INVAL);
    CHECK_EQ(cg_trace_remove(NULL, 0), CG_ERR_INVAL);
    CHECK_EQ(cg_trace_remove(dev, 3), 0);
    CHECK_EQ(cg_trace_remove(dev, 3), CG_ERR_NOENT);
    CHECK_EQ(cg_trace_remove(dev, 5), 0);
    norder = 0;
    cg_trace_emit(dev, &ev);
    CHECK_EQ(norder, CG_TRACE_MAX_SINKS - 2);
    CHECK_EQ(r[3].n, 1);
    CHECK_EQ(r[5].n, 1);
    CHECK_EQ(cg_trace_add(dev, record, &r[CG_TRACE_MAX_SINKS]), 3);
    norder = 0;
    cg_trace_emit(dev, &ev);
    CHECK_EQ(norder, CG_TRACE_MAX_SINKS - 1);
    CHECK_EQ(order[3], CG_TRACE_MAX_SINKS); /* the new sink sits in slot 3 */
    CHECK_EQ(r[CG_TRACE_MAX_SINKS].n, 1);

    /* Removing every sink disables tracing. */
    for (int i = 0; i < CG_TRACE_MAX_SINKS; i++)
        cg_trace_remove(dev, i);
    CHECK(!cg_trace_enabled(dev));
    norder = 0;
    cg_trace_emit(dev, &ev);
    CHECK_EQ(norder, 0);
    cg_device_destroy(dev);
}

static void test_kind_names(void)
{
    static const char *const names[] = {
#define X(id, name) name,
        CG_TRACE_TABLE(X)
#undef X
    };
    CHECK_EQ(ARRAY_SIZE(names), CG_TRACE_KIND_COUNT);
    for (unsigned k = 0; k < CG_TRACE_KIND_COUNT; k++)
        CHECK_STR(cg_trace_kind_name((cg_trace_kind)k), names[k]);
    CHECK_STR(cg_trace_kind_name(CG_TRACE_METHOD), "method");
    CHECK_STR(cg_trace_kind_name(CG_TRACE_SPARSE_WRITE), "sparse-write");
    CHECK_STR(cg_trace_kind_name(CG_TRACE_KIND_COUNT), "?");
}

/* Check a formatter at every buffer size: full length returned, a
 * terminated prefix in the buffer, nothing written past it. */
static void check_cuts(int (*fmt)(const cg_trace_event *, char *, size_t),
                       const cg_trace_event *ev, const char *full)
{
    size_t len = strlen(full);
    CHECK_EQ(fmt(ev, NULL, 0), len);
    size_t bad = 0;
    for (size_t cap = 1; cap <= len + 1; cap++) {
        static char buf[4096];
        memset(buf, '#', sizeof(buf));
        if (fmt(ev, buf, cap) != (int)len || strlen(buf) != cap - 1 ||
            strncmp(buf, full, cap - 1) != 0 || buf[cap] != '#')
            bad++;
    }
    CHECK_EQ(bad, 0);
}

static void check_event(int line, const cg_trace_event *ev, const char *text, const char *json)
{
    char buf[4096];
    int n = cg_trace_format_text(ev, buf, sizeof(buf));
    check_count++;
    if (n != (int)strlen(text) || strcmp(buf, text) != 0) {
        check_failures++;
        fprintf(stderr, "%s:%d: text\n  got:  \"%s\" (%d)\n  want: \"%s\"\n", __FILE__, line, buf,
                n, text);
    }
    n = cg_trace_format_json(ev, buf, sizeof(buf));
    check_count++;
    if (n != (int)strlen(json) || strcmp(buf, json) != 0) {
        check_failures++;
        fprintf(stderr, "%s:%d: json\n  got:  %s (%d)\n  want: %s\n", __FILE__, line, buf, n,
                json);
    }
    check_cuts(cg_trace_format_text, ev, text);
    check_cuts(cg_trace_format_json, ev, json);
}

#define CHECK_EVENT(ev, text, json) check_event(__LINE__, ev, text, json)

static cg_trace_event full_event(cg_trace_kind kind)
{
    cg_trace_event ev = {
        .kind = kind,
        .family = CG_FAMILY_NV,
        .unit = "pfifo",
        .channel = 2,
        .stream_addr = 0x1234,
        .reg = 0x100,
        .value = 0xabcd,
        .gpu_addr = 0x10000,
        .size = 0x40,
        .name = "SET_OBJECT",
        .text = "hello",
    };
    return ev;
}

#define COMMON "\"family\":\"nv\",\"unit\":\"pfifo\",\"channel\":2,"
#define TAIL "\"name\":\"SET_OBJECT\",\"text\":\"hello\"}"

static void test_formats(void)
{
    cg_trace_event ev = full_event(CG_TRACE_METHOD);
    CHECK_EVENT(&ev, "method    nv/pfifo ch2 @0x1234 SET_OBJECT [0x0100] = 0x0000abcd",
                "{\"kind\":\"method\"," COMMON
                "\"stream_addr\":\"0x1234\",\"reg\":\"0x100\",\"value\":\"0xabcd\"," TAIL);
    ev = full_event(CG_TRACE_REG_WRITE);
    CHECK_EVENT(&ev, "reg       nv/pfifo ch2 @0x1234 SET_OBJECT [0x0100] = 0x0000abcd",
                "{\"kind\":\"reg\"," COMMON
                "\"stream_addr\":\"0x1234\",\"reg\":\"0x100\",\"value\":\"0xabcd\"," TAIL);
    ev = full_event(CG_TRACE_PACKET);
    ev.reg = 0x1c;
    ev.value = 0xc0001c00;
    CHECK_EVENT(&ev, "packet    nv/pfifo ch2 @0x1234 SET_OBJECT op 0x1c header 0xc0001c00 hello",
                "{\"kind\":\"packet\"," COMMON
                "\"stream_addr\":\"0x1234\",\"reg\":\"0x1c\",\"value\":\"0xc0001c00\"," TAIL);
    ev.text = NULL;
    CHECK_EVENT(&ev, "packet    nv/pfifo ch2 @0x1234 SET_OBJECT op 0x1c header 0xc0001c00",
                "{\"kind\":\"packet\"," COMMON
                "\"stream_addr\":\"0x1234\",\"reg\":\"0x1c\",\"value\":\"0xc0001c00\","
                "\"name\":\"SET_OBJECT\"}");
    ev = full_event(CG_TRACE_MEM_WRITE);
    CHECK_EVENT(&ev, "mem-write nv/pfifo ch2 0x10000 +0x40",
                "{\"kind\":\"mem-write\"," COMMON "\"gpu_addr\":\"0x10000\",\"size\":64," TAIL);
    ev = full_event(CG_TRACE_SPARSE_WRITE);
    CHECK_EVENT(&ev, "sparse-write nv/pfifo ch2 0x10000 +0x40",
                "{\"kind\":\"sparse-write\"," COMMON "\"gpu_addr\":\"0x10000\",\"size\":64," TAIL);
    ev = full_event(CG_TRACE_FENCE);
    CHECK_EVENT(&ev, "fence     nv/pfifo ch2 SET_OBJECT addr 0x10000 value 0xabcd",
                "{\"kind\":\"fence\"," COMMON "\"gpu_addr\":\"0x10000\",\"value\":\"0xabcd\"," TAIL);
    ev = full_event(CG_TRACE_INTERRUPT);
    CHECK_EVENT(&ev, "interrupt nv/pfifo ch2 SET_OBJECT source 256 status 0xabcd",
                "{\"kind\":\"interrupt\"," COMMON "\"reg\":256,\"value\":\"0xabcd\"," TAIL);
    ev = full_event(CG_TRACE_NOTE);
    CHECK_EVENT(&ev, "note      nv/pfifo ch2 hello", "{\"kind\":\"note\"," COMMON TAIL);
    /* A fault event without a record keeps its text in both forms. */
    ev = full_event(CG_TRACE_FAULT);
    CHECK_EVENT(&ev, "fault     nv/pfifo ch2 hello", "{\"kind\":\"fault\"," COMMON TAIL);

    /* The least an event can hold. */
    cg_trace_event bare = {.kind = CG_TRACE_NOTE, .channel = -1};
    CHECK_EVENT(&bare, "note      none/- ", "{\"kind\":\"note\",\"family\":\"none\"}");
    bare.kind = CG_TRACE_METHOD;
    bare.family = CG_FAMILY_VC4;
    CHECK_EVENT(&bare, "method    vc4/- @0x0  [0x0000] = 0x00000000",
                "{\"kind\":\"method\",\"family\":\"vc4\",\"stream_addr\":\"0x0\",\"reg\":\"0x0\","
                "\"value\":\"0x0\"}");
    bare.kind = CG_TRACE_INTERRUPT;
    bare.family = CG_FAMILY_RADEON;
    bare.channel = 0;
    CHECK_EVENT(&bare, "interrupt radeon/- ch0  source 0 status 0x0",
                "{\"kind\":\"interrupt\",\"family\":\"radeon\",\"channel\":0,\"reg\":0,"
                "\"value\":\"0x0\"}");
    /* An unknown kind is shown as a note would be, named "?". */
    bare.kind = CG_TRACE_KIND_COUNT;
    bare.text = "t";
    CHECK_EVENT(&bare, "?         radeon/- ch0 t",
                "{\"kind\":\"?\",\"family\":\"radeon\",\"channel\":0,\"text\":\"t\"}");
}

static void test_escaping(void)
{
    cg_trace_event ev = {
        .kind = CG_TRACE_NOTE,
        .family = CG_FAMILY_NV,
        .unit = "u\"1",
        .channel = -1,
        .name = "back\\slash",
        .text = "say \"hi\"\nnext\tline\x01\x1f\x7f end",
    };
    CHECK_EVENT(&ev, "note      nv/u\"1 say \"hi\"\nnext\tline\x01\x1f\x7f end",
                "{\"kind\":\"note\",\"family\":\"nv\",\"unit\":\"u\\\"1\","
                "\"name\":\"back\\\\slash\","
                "\"text\":\"say \\\"hi\\\"\\nnext\\tline\\u0001\\u001f\\u007f end\"}");

    /* Valid UTF-8 passes through; stray bytes become U+FFFD, so the JSON
     * stays valid whatever bytes a message quotes. */
    char json[256];
    cg_trace_event u = {.kind = CG_TRACE_NOTE, .channel = -1,
                        .text = "ok \xc3\xa9 \xe2\x82\xac bad \xff \xc3 \xed\xa0\x80 \xc0\xaf"};
    cg_trace_format_json(&u, json, sizeof(json));
    CHECK_STR(json, "{\"kind\":\"note\",\"family\":\"none\",\"text\":\"ok \xc3\xa9 \xe2\x82\xac bad "
                    "\\ufffd \\ufffd \\ufffd\\ufffd\\ufffd \\ufffd\\ufffd\"}");
}

/* A fault raised while a sink is attached reaches it as a "fault" event. */
static void test_fault_event(void)
{
    cg_device *dev = NULL;
    CHECK_EQ(cg_device_create(&dev), 0);
    struct rec r = {0};
    CHECK_EQ(cg_trace_add(dev, record, &r), 0);
    cg_agent ce = {.family = CG_FAMILY_NV, .unit = "ce", .channel = 1, .stream_addr = 0x2000,
                   .words = {0x20018000, 0x5}, .nwords = 2};
    CHECK_EQ(cg_fault_post(dev, &ce, CG_FAULT_UNMAPPED, 0x7000, "read of %u bytes", 16u),
             CG_ERR_FAULT);
    CHECK_EQ(r.n, 1);
    CHECK_EQ(r.kind, CG_TRACE_FAULT);
    CHECK_STR(r.text, "fault     fault #0 unmapped nv/ce ch 1 addr 0x7000 stream 0x2000 words "
                      "0x20018000 0x00000005: read of 16 bytes");
    CHECK_STR(r.json,
              "{\"kind\":\"fault\",\"family\":\"nv\",\"unit\":\"ce\",\"channel\":1,"
              "\"name\":\"unmapped\",\"fault\":{\"seq\":0,\"kind\":\"unmapped\",\"warning\":false,"
              "\"family\":\"nv\",\"unit\":\"ce\",\"channel\":1,\"gpu_addr\":\"0x7000\","
              "\"stream_addr\":\"0x2000\",\"words\":[\"0x20018000\",\"0x00000005\"],"
              "\"message\":\"read of 16 bytes\"}}");

    /* A warning from the CPU side. */
    cg_fault w;
    cg_fault_init(&w, NULL, CG_FAULT_STALE_GPU_READ, 0x40, "dirty");
    w.flags = CG_FAULT_F_WARNING;
    CHECK_EQ(cg_fault_raise(dev, &w), 0);
    CHECK_EQ(r.n, 2);
    CHECK_STR(r.text, "fault     warning #1 stale-gpu-read none/cpu addr 0x40 stream 0x0: dirty");

    /* No sink: no event, the fault is still logged. */
    CHECK_EQ(cg_trace_remove(dev, 0), 0);
    CHECK_EQ(cg_fault_post(dev, NULL, CG_FAULT_TRAP, 0, "quiet"), CG_ERR_FAULT);
    CHECK_EQ(r.n, 2);
    CHECK_EQ(cg_fault_count(dev), 3);
    cg_device_destroy(dev);
}

/* A fault whose text and JSON are as long as a record allows: the event
 * formats keep all of it, and cut it like any other text. */
static void test_long_fault(void)
{
    cg_agent a = {.family = CG_FAMILY_RADEON, .unit = "abcdefghijklmnopq", .channel = 2147483647,
                  .stream_addr = UINT64_MAX, .words = {1, 2, 3, 4}, .nwords = 4};
    char msg[CG_FAULT_MSG_LEN];
    memset(msg, '"', sizeof(msg) - 1); /* escapes to twice its length */
    msg[sizeof(msg) - 1] = 0;
    cg_fault f;
    cg_fault_init(&f, &a, CG_FAULT_UNBOUND_SUBCHANNEL, UINT64_MAX, "%s", msg);
    f.seq = UINT64_MAX;
    f.flags = CG_FAULT_F_WARNING;

    char ftext[1024], fjson[2048], want[4096];
    int nt = cg_fault_format(&f, ftext, sizeof(ftext));
    int nj = cg_fault_format_json(&f, fjson, sizeof(fjson));
    CHECK(nt > 320 && nt < (int)sizeof(ftext));
    CHECK(nj > 512 && nj < (int)sizeof(fjson));

    cg_trace_event ev = {.kind = CG_TRACE_FAULT, .family = f.family, .unit = f.unit,
                         .channel = f.channel, .name = "unbound-subchannel", .text = f.message,
                         .fault = &f};
    snprintf(want, sizeof(want), "fault     %s", ftext);
    char buf[4096];
    CHECK_EQ(cg_trace_format_text(&ev, buf, sizeof(buf)), strlen(want));
    CHECK_STR(buf, want);
    check_cuts(cg_trace_format_text, &ev, want);
    snprintf(want, sizeof(want),
             "{\"kind\":\"fault\",\"family\":\"radeon\",\"unit\":\"abcdefghijklmno\","
             "\"channel\":2147483647,\"name\":\"unbound-subchannel\",\"fault\":%s}",
             fjson);
    CHECK_EQ(cg_trace_format_json(&ev, buf, sizeof(buf)), strlen(want));
    CHECK_STR(buf, want);
    check_cuts(cg_trace_format_json, &ev, want);
}

/* Read a whole stream back from the start. */
static size_t slurp(FILE *f, char *buf, size_t cap)
{
    rewind(f);
    size_t n = fread(buf, 1, cap - 1, f);
    buf[n] = 0;
    return n;
}

static void test_writers(void)
{
    FILE *t = tmpfile(), *j = tmpfile();
    CHECK(t && j);
    if (!t || !j)
        return;
    cg_trace_event a = full_event(CG_TRACE_MEM_WRITE);
    cg_trace_event b = {.kind = CG_TRACE_NOTE, .channel = -1, .text = "two"};
    cg_trace_write_text(t, &a);
    cg_trace_write_text(t, &b);
    cg_trace_write_json(j, &a);
    cg_trace_write_json(j, &b);
    static char buf[8192];
    slurp(t, buf, sizeof(buf));
    CHECK_STR(buf, "mem-write nv/pfifo ch2 0x10000 +0x40\n"
                   "note      none/- two\n");
    slurp(j, buf, sizeof(buf));
    CHECK_STR(buf, "{\"kind\":\"mem-write\"," COMMON "\"gpu_addr\":\"0x10000\",\"size\":64," TAIL "\n"
                   "{\"kind\":\"note\",\"family\":\"none\",\"text\":\"two\"}\n");

    /* Lines longer than the writers' stack buffer come out whole. */
    char longtext[3000];
    memset(longtext, 'L', sizeof(longtext) - 1);
    longtext[sizeof(longtext) - 1] = 0;
    b.text = longtext;
    rewind(t);
    rewind(j);
    cg_trace_write_text(t, &b);
    cg_trace_write_json(j, &b);
    static char want[8192];
    size_t n = slurp(t, buf, sizeof(buf));
    snprintf(want, sizeof(want), "note      none/- %s\n", longtext);
    CHECK_EQ(n, strlen(want));
    CHECK(strncmp(buf, want, strlen(want)) == 0);
    n = slurp(j, buf, sizeof(buf));
    snprintf(want, sizeof(want), "{\"kind\":\"note\",\"family\":\"none\",\"text\":\"%s\"}\n",
             longtext);
    CHECK_EQ(n, strlen(want));
    CHECK(strncmp(buf, want, strlen(want)) == 0);
    fclose(t);
    fclose(j);

    /* The text writer keeps one event on one line. */
    t = tmpfile();
    b.text = "first\nsecond\rthird";
    cg_trace_write_text(t, &b);
    slurp(t, buf, sizeof(buf));
    CHECK_STR(buf, "note      none/- first second third\n");
    fclose(t);

    /* The writers as sinks, attached to a device. */
    cg_device *dev = NULL;
    CHECK_EQ(cg_device_create(&dev), 0);
    t = tmpfile();
    j = tmpfile();
    CHECK_EQ(cg_trace_add(dev, cg_trace_write_text, t), 0);
    CHECK_EQ(cg_trace_add(dev, cg_trace_write_json, j), 1);
    cg_trace_event c = {.kind = CG_TRACE_FENCE, .family = CG_FAMILY_VC4, .unit = "binner",
                        .channel = 0, .gpu_addr = 0x80, .value = 7, .name = "SEMAPHORE"};
    cg_trace_emit(dev, &c);
    cg_fault_post(dev, NULL, CG_FAULT_TRAP, 0, "stop");
    slurp(t, buf, sizeof(buf));
    CHECK_STR(buf, "fence     vc4/binner ch0 SEMAPHORE addr 0x80 value 0x7\n"
                   "fault     fault #0 trap none/cpu addr 0x0 stream 0x0: stop\n");
    slurp(j, buf, sizeof(buf));
    CHECK_STR(buf, "{\"kind\":\"fence\",\"family\":\"vc4\",\"unit\":\"binner\",\"channel\":0,"
                   "\"gpu_addr\":\"0x80\",\"value\":\"0x7\",\"name\":\"SEMAPHORE\"}\n"
                   "{\"kind\":\"fault\",\"family\":\"none\",\"unit\":\"cpu\",\"name\":\"trap\","
                   "\"fault\":{\"seq\":0,\"kind\":\"trap\",\"warning\":false,\"family\":\"none\","
                   "\"unit\":\"cpu\",\"channel\":-1,\"gpu_addr\":\"0x0\",\"stream_addr\":\"0x0\","
                   "\"words\":[],\"message\":\"stop\"}}\n");
    cg_device_destroy(dev);
    fclose(t);
    fclose(j);
}

int main(void)
{
    test_sinks();
    test_kind_names();
    test_formats();
    test_escaping();
    test_fault_event();
    test_long_fault();
    test_writers();
    return check_report("test_trace");
}
