/* The radeon debugfs ring dump loader (src/radeon/text/ringdump.c): the hand-made
 * dumps in tests/data/captures/ (current form with the * and # marks, the
 * oldest form without marks, an IB the dump does not hold) parse to exact
 * fields, disassemble resynchronised at rptr, and replay to exact scratch
 * and fence values; corrupt dumps give a syntax or range error naming the
 * byte offset. */
#include <stdlib.h>
#include "check.h"
#include "cmdgpu/cmdgpu.h"
#include "cmdgpu/capture.h"

#define DATA CMDGPU_SOURCE_DIR "/tests/data/captures/"

static uint8_t *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    uint8_t *b = malloc(1 << 16);
    *n = b ? fread(b, 1, 1 << 16, f) : 0;
    fclose(f);
    return b;
}

static char *listing(const cg_radeon_ringdump *d)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    cg_radeon_disasm_opts o = {.gen = CG_RADEON_R600};
    CHECK_EQ(cg_radeon_ringdump_disasm(d, &o, f), 0);
    fclose(f);
    return buf;
}

static void check_bad(const char *text, int want_rc, size_t want_off, const char *want_msg)
{
    cg_radeon_ringdump *d = NULL;
    cg_capture_error e = {0};
    int rc = cg_radeon_ringdump_parse((const uint8_t *)text, strlen(text), &d, &e);
    CHECK_EQ(rc, want_rc);
    CHECK(d == NULL);
    CHECK_EQ(e.offset, want_off);
    if (!strstr(e.msg, want_msg))
        fprintf(stderr, "message '%s' lacks '%s'\n", e.msg, want_msg);
    CHECK(strstr(e.msg, want_msg) != NULL);
}

int main(void)
{
    size_t n;
    uint8_t *text = slurp(DATA "radeon_ring_gfx.txt", &n);
    CHECK(text != NULL);
    CHECK(cg_capture_detect(text, n) == cg_capture_find("radeon-ring-dump"));
    cg_radeon_ringdump *d = NULL;
    cg_capture_error e = {0};
    CHECK_EQ(cg_radeon_ringdump_parse(text, n, &d, &e), 0);
    if (!d)
        return check_report("test_capture_radeon");
    CHECK(!d->old_form);
    CHECK_EQ(d->wptr, 48);
    CHECK_EQ(d->rptr, 36);
    CHECK(d->has_rptr_next);
    CHECK_EQ(d->rptr_next, 45);
    CHECK_EQ(d->rptr_next_reg, 0x8504);
    CHECK_EQ(d->ring_dw, 64);
    CHECK_EQ(d->nentries, 45);
    CHECK_EQ(d->rptr_entry, 32);
    CHECK_EQ(d->wptr_entry, 44);
    CHECK_EQ(d->entries[32].marks, CG_RINGDUMP_MARK_RPTR);
    CHECK_EQ(d->entries[41].marks, CG_RINGDUMP_MARK_RPTR_NEXT);
    char *l = listing(d);
    CHECK(strstr(l, "# ---- history r[4]..r[35]: before rptr") != NULL);
    CHECK(strstr(l, ".word 0x0000dead  # r[   35]\n# ---- live r[36]..r[47]: rptr to wptr, decoded from rptr ----\n"
                    "# r[   36] *  rptr: the CP fetches this packet next\n"
                    "SET_CONFIG_REG SCRATCH_REG0, 0x1234  # 0x0090 c0016800 type 3, count 1\n") != NULL);
    CHECK(strstr(l, "EVENT_WRITE_EOP 0x514, 0x2000, 0x20000001, 0xf00d, 0x0  # 0x009c c0044700") != NULL);
    CHECK(strstr(l, "# r[   45] #  rptr next (saved): this packet\npacket2  # 0x00b4 80000000") != NULL);
    CHECK(strstr(l, "# ---- after wptr r[48]..r[48]: not committed") != NULL);
    CHECK(strstr(l, ".word 0xc0012800  # r[   48]\n") != NULL);
    free(l);

    /* replay: SCRATCH_REG0 and the EOP fence at GTT + 0x2000 */
    cg_device *dev;
    CHECK_EQ(cg_device_create(&dev), 0);
    cg_radeon_ringdump_result res;
    cg_radeon *rd = NULL;
    CHECK_EQ(cg_radeon_ringdump_replay(d, dev, CG_RADEON_R600, &res, &rd), 0);
    CHECK_EQ(res.status.state, CG_RADEON_CP_IDLE);
    CHECK_EQ(res.status.rptr, 48);
    CHECK_EQ(res.status.packets, 5);
    CHECK_EQ(res.status.dwords, 12);
    CHECK_EQ(res.scratch[0], 0x1234);
    CHECK_EQ(res.scratch[1], 0); /* r[33..35] is history: not replayed */
    CHECK_EQ(res.faults, 0);
    uint32_t fence = 0;
    CHECK_EQ(cg_radeon_cpu_read32(rd, CG_RADEON_GTT_BASE + 0x2000, &fence), 0);
    CHECK_EQ(fence, 0xf00d);
    cg_radeon_destroy(rd);
    cg_radeon_ringdump_free(d);
    free(text);

    /* the oldest form: no marks, resynchronised at the rptr register */
    text = slurp(DATA "radeon_ring_gfx_old.txt", &n);
    CHECK(cg_capture_detect(text, n) == cg_capture_find("radeon-ring-dump"));
    CHECK_EQ(cg_radeon_ringdump_parse(text, n, &d, &e), 0);
    CHECK(d && d->old_form);
    CHECK_EQ(d->wptr_reg, 0x8714);
    CHECK_EQ(d->rptr_reg, 0x8710);
    CHECK(d->has_driver_rptr);
    CHECK_EQ(d->rptr_entry, 0);
    CHECK_EQ(d->wptr_entry, 12);
    l = listing(d);
    CHECK(strstr(l, "# radeon ring dump (old form): ring 64 dwords, rptr 36, wptr 48") != NULL);
    CHECK(strstr(l, "# r[   36] *  rptr: the CP fetches this packet next\nSET_CONFIG_REG SCRATCH_REG0") != NULL);
    free(l);
    CHECK_EQ(cg_radeon_ringdump_replay(d, dev, CG_RADEON_R600, &res, NULL), 0);
    CHECK_EQ(res.scratch[0], 0x1234);
    cg_radeon_ringdump_free(d);
    free(text);

    /* an IB the dump does not hold: the CP faults on the unmapped IB */
    text = slurp(DATA "radeon_ring_ib.txt", &n);
    CHECK_EQ(cg_radeon_ringdump_parse(text, n, &d, &e), 0);
    CHECK(d != NULL);
    CHECK_EQ(d->rptr_entry, 32);
    size_t f0 = cg_fault_count(dev);
    CHECK_EQ(cg_radeon_ringdump_replay(d, dev, CG_RADEON_R600, &res, NULL), 0);
    CHECK_EQ(res.faults, 1);
    CHECK_EQ(res.status.state, CG_RADEON_CP_STOPPED);
    const cg_fault *f = cg_fault_get(dev, f0);
    CHECK(f != NULL);
    if (f) {
        CHECK_EQ(f->kind, CG_FAULT_UNMAPPED);
        CHECK_EQ(f->gpu_addr, 0x80000000);
    }
    CHECK_EQ(res.scratch[2], 0); /* the packet after the IB never ran */
    cg_radeon_ringdump_free(d);
    free(text);
    cg_device_destroy(dev);

    /* the hang report: a WAIT_REG_MEM on a fence the dump never writes */
    text = slurp(DATA "radeon_ring_wait.txt", &n);
    CHECK_EQ(cg_radeon_ringdump_parse(text, n, &d, &e), 0);
    CHECK_EQ(cg_device_create(&dev), 0);
    cg_device_set_budget(dev, CG_BUDGET_RADEON_WAIT_POLLS, 5);
    cg_radeon_hang_recorder *hr = NULL;
    CHECK_EQ(cg_radeon_hang_recorder_create(dev, &hr), 0);
    CHECK_EQ(cg_radeon_ringdump_replay(d, dev, CG_RADEON_R600, &res, NULL), 0);
    CHECK_EQ(res.faults, 1);
    CHECK_EQ(res.status.rptr, 9);
    char *rep = NULL;
    size_t replen = 0;
    FILE *rf = open_memstream(&rep, &replen);
    CHECK_EQ(cg_radeon_hang_report(hr, false, rf), 1);
    fclose(rf);
    CHECK_STR(rep, "hang report: the CP stood at 0x100000024 WAIT_REG_MEM [c0053c00 00000013 00003000 00000001] "
                   "when a fault (hang) ended the run: ring: budget radeon.wait-polls: WAIT_REG_MEM not satisfied "
                   "after 5 polls (watchdog)\n"
                   "  it waited on memory 0x100003000; the GPU last wrote 0x4 there (packet at 0x10000000c)\n"
                   "  the packets before it (oldest first):\n"
                   "    0x100000000 SET_CONFIG_REG (header 0xc0016800)\n"
                   "    0x10000000c EVENT_WRITE_EOP (header 0xc0044700)\n");
    free(rep);
    rf = open_memstream(&rep, &replen);
    CHECK_EQ(cg_radeon_hang_report(hr, true, rf), 1);
    fclose(rf);
    CHECK(strstr(rep, "\"waited_on\":{\"what\":\"memory\",\"addr\":\"0x100003000\",\"last_write_by\":"
                      "\"0x10000000c\",\"last_value\":\"0x4\"}") != NULL);
    free(rep);
    cg_radeon_hang_recorder_destroy(hr);
    cg_device_destroy(dev);
    cg_radeon_ringdump_free(d);
    free(text);
    /* no fault, no report */
    CHECK_EQ(cg_device_create(&dev), 0);
    CHECK_EQ(cg_radeon_hang_recorder_create(dev, &hr), 0);
    CHECK_EQ(cg_radeon_hang_report(hr, false, stderr), 0);
    cg_radeon_hang_recorder_destroy(hr);
    cg_device_destroy(dev);

    /* corrupt dumps */
    check_bad("wptr: 0x00000010 [   16]\nrptr: 0x00000000 [    0]\nr[    0]=0x8000\nr[    2]=0x1\n",
              CG_ERR_SYNTAX, 66, "r[2] does not follow r[0]");
    check_bad("wptr: 0x00000010 [   17]\n", CG_ERR_SYNTAX, 0, "not a radeon ring dump line");
    check_bad("wptr: 0x00000010 [   16]\nrptr: 0x00000000 [    0]\n16777216 free dwords in ring\n0 dwords in ring\n",
              CG_ERR_RANGE, 79, "larger than the model's 8388608");
    check_bad("wptr: 0x00000010 [   16]\nrptr: 0x00000000 [    0]\n40 free dwords in ring\n2 dwords in ring\n",
              CG_ERR_SYNTAX, 73, "not a ring size");
    check_bad("wptr: 0x00000010 [   16]\nrptr: 0x00000000 [    0]\n62 free dwords in ring\n2 dwords in ring\n"
              "r[   64]=0x80000000\n", CG_ERR_RANGE, 90, "ring index 64 is outside the ring of 64 dwords");
    check_bad("wptr: 0x00000010 [   16]\nrptr: 0x00000000 [    0]\nr[    0]=0x8000000\nr[    1]=0x\n",
              CG_ERR_SYNTAX, 69, "malformed ring line");
    check_bad("wptr: 0x00000010 [   16]\n", CG_ERR_SYNTAX, 0, "no rptr line");
    /* a wrap that is not at the ring size */
    check_bad("wptr: 0x00000001 [    1]\nrptr: 0x00000000 [    0]\n60 free dwords in ring\n4 dwords in ring\n"
              "r[    5]=0x80000000\nr[    0]=0x80000000\n", CG_ERR_SYNTAX, 110, "r[0] does not follow r[5] in a ring of 64");
    check_bad("wptr: 0x00000041 [   65]\nrptr: 0x00000000 [    0]\n60 free dwords in ring\n4 dwords in ring\n",
              CG_ERR_RANGE, 0, "wptr 65 is outside the ring of 64 dwords");
    check_bad("rptr: 0x00000000 [    0]\nr[    0]=0x80000000\nwptr: 0x00000010 [   16]\n", CG_ERR_SYNTAX, 45,
              "header line 'wptr: 0x00000010 [   16]' after the ring lines");
    return check_report("test_capture_radeon");
}
