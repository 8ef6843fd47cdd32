/* The CMDGPUCAP container (include/cmdgpu/capfile.h, docs/capture-format.md):
 * exact header and record bytes from the writer, the reader's decoded
 * fields, a hand-built radeon capture replayed (the example of
 * docs/capture-format.md "Writing one from another tool"), the end-record
 * check, and hostile input: every truncation, huge declared sizes, a newer
 * major version, actions under the wrong record type; a session as
 * libcmdgpu-drm records one (data records between the actions, buffers
 * checked by hash) replayed, listed and refused when tampered with. */
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "cmdgpu/cmdgpu.h"

static const uint8_t text[12] = {0x00, 0x68, 0x01, 0xc0, 0x40, 0x01, 0, 0, 0x34, 0x12, 0, 0};
static uint64_t end_mem_hash; /* what build() puts in the end record */

static uint64_t fnv(const uint8_t *p, size_t n)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 0x100000001b3ull;
    return h;
}

static uint8_t *build(size_t *size, bool with_end, uint32_t expect)
{
    cg_capfile_writer *w = NULL;
    CHECK_EQ(cg_capfile_writer_create(CG_FAMILY_RADEON, &w), 0);
    cg_capfile_write_config(w, CG_CAPCFG_RADEON_GEN, CG_RADEON_R600);
    cg_capfile_write_name(w, "hand.s");
    cg_capfile_write_memory(w, 0x100000, 0, "text", text, sizeof text);
    cg_capfile_action sub = {.type = CG_CAPREC_SUBMIT, .kind = 1, .str1 = "text", .str1_len = 4};
    cg_capfile_action run = {.type = CG_CAPREC_SYNC, .kind = 5};
    cg_capfile_action chk = {.type = CG_CAPREC_CHECK, .kind = 9, .a = 0x8500, .b = expect};
    cg_capfile_write_action(w, &sub);
    cg_capfile_write_action(w, &run);
    cg_capfile_write_action(w, &chk);
    if (with_end) {
        cg_capfile_end e = {.result = 0, .faults = 0, .fault_hash = cg_capfile_fault_hash(NULL, 0),
                            .mem_hash = end_mem_hash};
        cg_capfile_write_end(w, &e);
    }
    const uint8_t *d;
    CHECK_EQ(cg_capfile_writer_bytes(w, &d, size), 0);
    uint8_t *copy = malloc(*size);
    memcpy(copy, d, *size);
    cg_capfile_writer_destroy(w);
    return copy;
}

static int run_log(const uint8_t *data, size_t size, char **log, size_t *len)
{
    cg_capfile *c = NULL;
    cg_capture_error e = {0};
    int rc = cg_capfile_parse(data, size, &c, &e);
    if (rc)
        return rc;
    cg_device *dev = NULL;
    CHECK_EQ(cg_capfile_device(c, &dev), 0);
    cg_capfile_memhash mh;
    CHECK_EQ(cg_capfile_memhash_init(&mh, c), 0);
    cg_capfile_memhash_attach(dev, &mh);
    FILE *f = open_memstream(log, len);
    rc = cg_capfile_run(c, dev, &(cg_scene_opts){.log = f});
    fclose(f);
    /* the ring never writes the section: its final bytes are the captured ones */
    CHECK(mh.done);
    CHECK_EQ(mh.hash, fnv(text, sizeof text));
    cg_capfile_end got = {.result = rc, .faults = (uint32_t)cg_fault_count(dev),
                          .fault_hash = cg_capfile_fault_hash(dev, 0), .mem_hash = mh.hash};
    cg_capfile_memhash_fini(&mh);
    char msg[256];
    if (rc >= 0 && cg_capfile_verify(c, &got, msg, sizeof msg) != 0)
        rc = 100;
    cg_device_destroy(dev);
    cg_capfile_free(c);
    return rc;
}

/* An nv session as libcmdgpu-drm records it: a buffer, the CPU's words in
 * it as a data record, one GPFIFO entry (a semaphore release of `value`
 * at +0x100), a run, the buffer's final bytes checked by hash. */
static uint8_t *session(size_t *size, uint32_t value, uint32_t space)
{
    const uint64_t va = 0x100000000ull;
    uint32_t push[5] = {0x20040004, (uint32_t)(va >> 32), (uint32_t)va + 0x100, value,
                        2u | 1u << 24};
    uint8_t final[0x1000] = {0};
    memcpy(final, push, sizeof push);
    memcpy(final + 0x100, &value, 4);
    cg_capfile_writer *w = NULL;
    CHECK_EQ(cg_capfile_writer_create(CG_FAMILY_NV, &w), 0);
    cg_capfile_write_config(w, 24, 1); /* nv.nvsw */
    cg_capfile_action buf = {.type = CG_CAPREC_MAPPING, .kind = 0, .a = (int64_t)va,
                             .b = 0x1000, .s1 = -1, .s2 = -1, .str1 = "gem1", .str1_len = 4};
    cg_capfile_write_action(w, &buf);
    /* the last word, 0x01000002, and a zero word the pushbuffer does not
     * hold: the listing finds the rest of the entry in the zeroed buffer */
    cg_capfile_write_data(w, va, space, (const uint8_t *)push, 16);
    cg_capfile_write_data(w, va + 16, 0, (const uint8_t *)&push[4], 4);
    cg_capfile_action sub = {.type = CG_CAPREC_SUBMIT, .kind = 2, .a = (int64_t)va,
                             .b = (int64_t)va + 24, .s1 = -1, .s2 = -1};
    cg_capfile_action run = {.type = CG_CAPREC_SYNC, .kind = 3, .s1 = -1, .s2 = -1};
    cg_capfile_action chk = {.type = CG_CAPREC_CHECK, .kind = 12, .a = (int64_t)va, .b = 0x1000,
                             .c = (int64_t)fnv(final, sizeof final), .s1 = -1, .s2 = -1};
    cg_capfile_write_action(w, &sub);
    cg_capfile_write_action(w, &run);
    cg_capfile_write_action(w, &chk);
    cg_capfile_end e = {.result = 0, .faults = 0, .fault_hash = cg_capfile_fault_hash(NULL, 0)};
    cg_capfile_write_end(w, &e);
    const uint8_t *d;
    CHECK_EQ(cg_capfile_writer_bytes(w, &d, size), 0);
    uint8_t *copy = malloc(*size);
    memcpy(copy, d, *size);
    cg_capfile_writer_destroy(w);
    return copy;
}

/* Replay: 0 ok, 1 a check failed; *log its lines. */
static int session_run(const uint8_t *d, size_t size, char **log)
{
    cg_capfile *c = NULL;
    cg_capture_error e = {0};
    int rc = cg_capfile_parse(d, size, &c, &e);
    if (rc)
        return rc;
    cg_device *dev = NULL;
    CHECK_EQ(cg_capfile_device(c, &dev), 0);
    size_t len;
    FILE *f = open_memstream(log, &len);
    rc = cg_capfile_run(c, dev, &(cg_scene_opts){.log = f});
    fclose(f);
    cg_capfile_end got = {.result = rc, .faults = (uint32_t)cg_fault_count(dev),
                          .fault_hash = cg_capfile_fault_hash(dev, 0)};
    if (rc >= 0 && cg_capfile_verify(c, &got, NULL, 0) != 0)
        rc = 100;
    cg_device_destroy(dev);
    cg_capfile_free(c);
    return rc;
}

static void test_session(void)
{
    size_t size;
    uint8_t *d = session(&size, 0xCAFE, 0);
    /* the first data record: type 10, 16 + 16 bytes, at 0x100000000, space 0 */
    size_t at = 24 + 20 + 72;
    static const uint8_t rec[24] = {10, 0, 0, 0, 32, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0,
                                    0, 0, 0, 0, 0, 0, 0, 0};
    CHECK_MEM(d + at, rec, 24);
    CHECK_MEM(d + at + 24, "\x04\x00\x04\x20", 4);
    cg_capfile *c = NULL;
    cg_capture_error e = {0};
    CHECK_EQ(cg_capfile_parse(d, size, &c, &e), 0);
    if (c) {
        CHECK_EQ(c->nact, 6);
        CHECK_EQ(c->act[1].type, CG_CAPREC_DATA);
        CHECK_EQ((uint64_t)c->act[1].a, 0x100000000ull);
        CHECK_EQ(c->act[1].data_len, 16);
        CHECK_EQ(c->end.actions, 6);
        char *txt = NULL;
        size_t len;
        FILE *f = open_memstream(&txt, &len);
        cg_capfile_disasm_opts o = {0};
        CHECK_EQ(cg_capfile_disasm(c, &o, f), 0);
        fclose(f);
        CHECK(txt && strstr(txt, "# #1 data: 16 bytes at 0x100000000 (record at offset 116)\n"));
        CHECK(txt && strstr(txt, "# submission 0: 24 bytes at 0x100000000\n"));
        CHECK(txt && strstr(txt, "0x100000010: 01000002"));
        CHECK(txt && strstr(txt, "0x100000014: 00000000"));
        CHECK(txt && !strstr(txt, "not decoded"));
        free(txt);
        cg_capfile_free(c);
    }
    char *log = NULL;
    CHECK_EQ(session_run(d, size, &log), 0);
    CHECK(log && !strstr(log, "FAIL"));
    free(log);
    /* the CPU wrote another value: the GPU releases it, the hash differs */
    uint32_t v = 0xBEEF;
    memcpy(d + at + 24 + 12, &v, 4);
    log = NULL;
    CHECK_EQ(session_run(d, size, &log), 100);
    CHECK(log && strstr(log, "FAIL expect_hash 0x0100000000 +0x1000: "));
    free(log);
    free(d);
    /* hostile data records: another address space, too short, wrapping */
    d = session(&size, 0xCAFE, 3);
    CHECK_EQ(cg_capfile_parse(d, size, &c, &e), CG_ERR_UNSUPPORTED);
    CHECK_EQ(e.offset, at + 16);
    d[at + 16] = 0;
    uint8_t shortrec[24 + 20 + 72 + 8 + 15] = {0};
    memcpy(shortrec, d, at);
    shortrec[at] = 10, shortrec[at + 4] = 15;
    CHECK_EQ(cg_capfile_parse(shortrec, sizeof shortrec, &c, &e), CG_ERR_SYNTAX);
    CHECK_EQ(e.offset, at + 4);
    CHECK_STR(e.msg, "data record of 15 bytes, less than 16");
    memset(d + at + 8, 0xff, 8);
    CHECK_EQ(cg_capfile_parse(d, size, &c, &e), CG_ERR_RANGE);
    CHECK_EQ(e.offset, at + 8);
    free(d);
}

/* A capture's file names are data (docs/capture-format.md, "Captures are
 * data"): under confine_outputs only a safe base name under out_dir. */
static void test_out_path(void)
{
    char buf[64];
    const char *why;
    cg_scene_opts o = {.out_dir = "D", .confine_outputs = true};
    static const struct { const char *name, *want; } ok[] = {
        {"x.png", "D/x.png"}, {"/etc/passwd", "D/passwd"}, {"../../a.bin", "D/a.bin"},
        {"a/b/.hidden", "D/.hidden"}, {"-", "-"},
    };
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        CHECK_EQ(cg_scene_out_path(&o, ok[i].name, buf, sizeof buf, &why), 0);
        CHECK_STR(buf, ok[i].want);
    }
    static const char *const refused[] = {"", "..", "a/..", "a/.", "dir/", "x\x1b[2J.png",
                                          "a\\b", "x\x7f"};
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        CHECK_EQ(cg_scene_out_path(&o, refused[i], buf, sizeof buf, &why), 1);
        CHECK(why && strstr(why, "no safe file name"));
        CHECK(!strchr(buf, 0x1b) && !strchr(buf, 0x7f));
    }
    /* too long for buf under the directory: not written either */
    CHECK_EQ(cg_scene_out_path(&o, "0123456789012345678901234567890123456789012345678901234567890.png",
                               buf, sizeof buf, &why), 1);
    o.out_dir = NULL; /* no directory: nothing is written */
    CHECK_EQ(cg_scene_out_path(&o, "x.png", buf, sizeof buf, &why), 1);
    CHECK_STR(why, "not written: a recorded output (--out DIR writes it there)");
    CHECK_STR(buf, "x.png");
    o.confine_outputs = false; /* a scene's own names: as given, under out_dir */
    CHECK_EQ(cg_scene_out_path(&o, "../x.png", buf, sizeof buf, &why), 0);
    CHECK_STR(buf, "../x.png");
    o.out_dir = "D";
    CHECK_EQ(cg_scene_out_path(&o, "s/x.png", buf, sizeof buf, &why), 0);
    CHECK_STR(buf, "D/s/x.png");
    CHECK_EQ(cg_scene_out_path(&o, "/abs.png", buf, sizeof buf, &why), 0);
    CHECK_STR(buf, "/abs.png");
}

int main(void)
{
    test_out_path();
    test_session();
    size_t size;
    uint8_t *d = build(&size, true, 0x1234);
    /* header: magic, version 1.0, family radeon (3), header size 24, flags 0 */
    static const uint8_t hdr[24] = {'C', 'M', 'D', 'G', 'P', 'U', 'C', 'A', 'P', 0, 1, 0, 1, 0, 3, 0,
                                    24, 0, 0, 0, 0, 0, 0, 0};
    CHECK_MEM(d, hdr, 24);
    /* the first record: config, 12 bytes, key 1 (radeon.gen) = 0 */
    static const uint8_t cfg[20] = {1, 0, 0, 0, 12, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    CHECK_MEM(d + 24, cfg, 20);
    /* name (8 + 6), memory (8 + 18 + 4 + 12), 3 actions (8 + 60 [+ 4]), end (8 + 32) */
    CHECK_EQ(size, 24 + 20 + 14 + 42 + 72 + 68 + 68 + 40);
    CHECK(cg_capfile_detect(d, size));
    CHECK_EQ(cg_capfile_peek_family(d, size), CG_FAMILY_RADEON);
    CHECK(cg_capture_detect(d, size) == cg_capture_find("cmdgpu-capture"));
    CHECK(cg_capture_detect(d, size) != NULL);
    CHECK_STR(cg_capture_detect(d, size)->name, "cmdgpu-capture");

    cg_capfile *c = NULL;
    cg_capture_error e = {0};
    CHECK_EQ(cg_capfile_parse(d, size, &c, &e), 0);
    if (c) {
        CHECK_EQ(c->major, 1);
        CHECK_EQ(c->minor, 1);
        CHECK_EQ(c->family, CG_FAMILY_RADEON);
        CHECK_EQ(c->ncfg, 1);
        CHECK_EQ(c->name_len, 6);
        CHECK(c->name && memcmp(c->name, "hand.s", 6) == 0);
        CHECK_EQ(c->nmem, 1);
        CHECK_EQ(c->mem[0].addr, 0x100000);
        CHECK_EQ(c->mem[0].size, 12);
        CHECK_EQ(c->mem[0].offset, 58);
        CHECK_EQ(c->nact, 3);
        CHECK_EQ(c->submissions, 1);
        CHECK_EQ(c->act[0].type, CG_CAPREC_SUBMIT);
        CHECK_EQ(c->act[0].str1_len, 4);
        CHECK_EQ(c->act[2].a, 0x8500);
        CHECK_EQ(c->act[2].b, 0x1234);
        CHECK_EQ(c->act[2].offset, 24 + 20 + 14 + 42 + 72 + 68);
        CHECK(c->has_end);
        CHECK_EQ(c->end.actions, 3);
        uint64_t v = 99;
        CHECK_EQ(cg_capfile_config(c, CG_CAPCFG_RADEON_GEN, &v), 0);
        CHECK_EQ(v, 0);
        CHECK_EQ(cg_capfile_config(c, CG_CAPCFG_RADEON_LENIENT, &v), CG_ERR_NOENT);
        CHECK(cg_capfile_mem_at(c, 0x100004, 8) == &c->mem[0]);
        CHECK(cg_capfile_mem_at(c, 0x100004, 9) == NULL);
        CHECK(cg_capfile_mem_named(c, "text") == &c->mem[0]);
        /* the listing decodes the submission from the memory record */
        char *txt = NULL;
        size_t tl = 0;
        FILE *f = open_memstream(&txt, &tl);
        cg_capfile_disasm_opts dop = {0};
        CHECK_EQ(cg_capfile_disasm(c, &dop, f), 0);
        fclose(f);
        CHECK(txt && strstr(txt, "# submission 0: 12 bytes at 0x100000\n"));
        CHECK(txt && strstr(txt, "SET_CONFIG_REG SCRATCH_REG0, 0x1234"));
        CHECK(txt && strstr(txt, "# #2 check ACT_EXPECT_REG a=0x8500 b=0x1234"));
        free(txt);
        cg_capfile_free(c);
    }

    /* replay: the expectation holds, and the results match the end record */
    char *log = NULL;
    size_t len = 0;
    CHECK_EQ(run_log(d, size, &log, &len), 0);
    CHECK(log && strstr(log, "submit text: 3 dwords\n"));
    CHECK(log && strstr(log, "expect reg 0x8500 == 0x00001234: ok\n"));
    free(log);
    free(d);
    /* an expectation that fails: the runner says 1 (no end record: no check) */
    d = build(&size, false, 0x9999);
    CHECK_EQ(run_log(d, size, &log, &len), 1);
    CHECK(log && strstr(log, "FAIL expect reg 0x8500: got 0x00001234, want 0x00009999\n"));
    free(log);
    free(d);
    {
        d = build(&size, true, 0x9999); /* the end record says 0, the replay gives 1 */
        CHECK_EQ(run_log(d, size, &log, &len), 100);
        free(log);
        free(d);
        end_mem_hash = fnv(text, sizeof text); /* the right final memory hash */
        d = build(&size, true, 0x1234);
        CHECK_EQ(run_log(d, size, &log, &len), 0);
        free(log);
        free(d);
        end_mem_hash = 12345; /* another one: the replay differs */
        d = build(&size, true, 0x1234);
        CHECK_EQ(run_log(d, size, &log, &len), 100);
        free(log);
        free(d);
        end_mem_hash = 0;
    }

    /* hostile input */
    d = build(&size, true, 0x1234);
    for (size_t n = 0; n < size; n++) {
        cg_capfile *t = NULL;
        int rc = cg_capfile_parse(d, n, &t, &e);
        /* a cut between records parses (no end record); inside one it does not */
        if (rc == 0) {
            CHECK(!t->has_end);
            cg_capfile_free(t);
        } else {
            CHECK(rc == CG_ERR_SYNTAX || rc == CG_ERR_RANGE);
            CHECK(e.offset <= n);
        }
    }
    uint8_t *h = malloc(size);
    memcpy(h, d, size);
    h[48] = h[49] = h[50] = h[51] = 0xff; /* the name record's length */
    CHECK_EQ(cg_capfile_parse(h, size, &c, &e), CG_ERR_RANGE);
    CHECK_EQ(e.offset, 48);
    CHECK_STR(e.msg, "record of 4294967295 bytes runs past the end of the file (296 bytes left)");
    memcpy(h, d, size);
    h[10] = 2; /* major version 2 */
    CHECK_EQ(cg_capfile_parse(h, size, &c, &e), CG_ERR_UNSUPPORTED);
    CHECK_EQ(e.offset, 10);
    CHECK_STR(e.msg, "format version 2.1 is newer than this reader's 1.1: use a newer cmdgpu");
    memcpy(h, d, size);
    h[0] = 'X';
    CHECK_EQ(cg_capfile_parse(h, size, &c, &e), CG_ERR_SYNTAX);
    CHECK(cg_capture_detect(h, size) == NULL);
    memcpy(h, d, size);
    h[58 + 8 + 16] = 0xff; /* the memory record's name length */
    CHECK_EQ(cg_capfile_parse(h, size, &c, &e), CG_ERR_RANGE);
    CHECK_EQ(e.offset, 58 + 24);
    memcpy(h, d, size);
    h[100] = CG_CAPREC_CHECK; /* the submit action stored as a check record */
    CHECK_EQ(cg_capfile_parse(h, size, &c, &e), 0);
    if (c) {
        cg_device *dev = NULL;
        cg_device_create(&dev);
        FILE *f = fopen("/dev/null", "w");
        CHECK_EQ(cg_capfile_run(c, dev, &(cg_scene_opts){.log = f}), CG_ERR_SYNTAX);
        cg_scene *sc = NULL;
        CHECK_EQ(cg_scene_from_capfile(c, &sc), CG_ERR_SYNTAX);
        CHECK(sc == NULL);
        fclose(f);
        cg_device_destroy(dev);
        cg_capfile_free(c);
    }
    memcpy(h, d, size);
    h[size - 16] = 7; /* the end record's action count */
    CHECK_EQ(cg_capfile_parse(h, size, &c, &e), CG_ERR_SYNTAX);
    CHECK_EQ(e.offset, size - 16);
    free(h);
    free(d);
    return check_report("test_capfile");
}
