/* core: listing a CMDGPUCAP capture (cg_capfile_disasm): the header, the
 * configuration, the memory ranges and every action in order, each
 * submission's stream decoded with its family's disassembler from the bytes
 * the memory records hold (docs/capture-format.md). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "cmdgpu/capfile.h"
#include "cmdgpu/family.h"
#include "internal.h"

static const char *S(const char *s) { return s ? s : ""; }

static const char *act_name(const cg_capfile *c, uint32_t kind)
{
    const cg_scene_kind *k = cg_scene_kind_of(cg_family_get(c->family), kind);
    return k ? k->name : "?";
}

static const char *config_name(const cg_capfile *c, uint32_t key)
{
#define CG_X_NAME(id, code, name, what) if (key == code) return name;
    CG_CAPFILE_CONFIG_TABLE(CG_X_NAME)
#undef CG_X_NAME
    if (key >= CG_CAPCFG_BUDGET && key - CG_CAPCFG_BUDGET < CG_BUDGET_COUNT)
        return cg_budget_name((cg_budget)(key - CG_CAPCFG_BUDGET));
    const cg_family_desc *fam = cg_family_get(c->family);
    for (size_t i = 0; fam && fam->scene && i < fam->scene->nconfig; i++)
        if (fam->scene->config[i].key == key)
            return fam->scene->config[i].name;
    return "?";
}

static void json_str(FILE *out, const char *s, size_t n)
{
    fputc('"', out);
    for (size_t i = 0; i < n; i++) {
        unsigned char ch = (unsigned char)s[i];
        if (ch == '"' || ch == '\\')
            fprintf(out, "\\%c", ch);
        else if (ch < 0x20 || ch >= 0x7f)
            fprintf(out, "\\u%04x", ch);
        else
            fputc(ch, out);
    }
    fputc('"', out);
}

/* The bytes of [lo, hi) as the CPU had written them before action `upto`:
 * the newest data records first, then the memory records, then zeros
 * where a mapping holds them. *work counts the bytes looked at over the
 * whole listing: a hostile file of many records and submissions over the
 * same range would otherwise take hours; when it is spent, nothing more is
 * gathered. In *buf
 * (malloc'd) when every byte is found; NULL when one is not, or the range
 * is larger than any stream (64 MiB) or the search too long (a hostile
 * file: 65536 data records back at most). Each record visited counts one
 * unit of *work, each byte looked at one more. */
enum { GATHER_MAX = 64u << 20, GATHER_BACK = 65536 };
#define GATHER_WORK (1ull << 30) /* units per listing: about a second */

/* Take n from the work left: false when it is spent. */
static bool spend(uint64_t *work, uint64_t n)
{
    if (*work < n)
        return false;
    *work -= n;
    return true;
}

static uint8_t *gather(const cg_capfile *c, size_t upto, uint64_t lo, uint64_t hi,
                       uint64_t *work)
{
    size_t n = (size_t)(hi - lo);
    if (hi - lo > GATHER_MAX)
        return NULL;
    uint8_t *buf = malloc(n ? n : 1), *have = calloc(n ? n : 1, 1);
    size_t left = n, back = 0;
    for (size_t j = upto; buf && have && left && j-- > 0 && back < GATHER_BACK;) {
        const cg_scene_action *d = &c->act[j];
        if (!spend(work, 1))
            break;
        if (d->type != CG_CAPREC_DATA)
            continue;
        back++;
        uint64_t a = (uint64_t)d->a, e = a + d->data_len;
        uint64_t x0 = a > lo ? a : lo, x1 = e < hi ? e : hi;
        if (x0 < x1 && !spend(work, x1 - x0))
            break;
        for (uint64_t x = x0; x < x1; x++)
            if (!have[x - lo]) {
                have[x - lo] = 1, buf[x - lo] = d->data[x - a];
                left--;
            }
    }
    for (size_t j = 0; buf && have && left && j < c->nmem; j++) {
        const cg_capfile_mem *m = &c->mem[j];
        if (!spend(work, 1))
            break;
        uint64_t e = m->addr + m->size;
        uint64_t x0 = m->addr > lo ? m->addr : lo, x1 = e < hi ? e : hi;
        if (x0 < x1 && !spend(work, x1 - x0))
            break;
        for (uint64_t x = x0; x < x1; x++)
            if (!have[x - lo]) {
                have[x - lo] = 1, buf[x - lo] = m->data[x - m->addr];
                left--;
            }
    }
    /* bytes nobody wrote inside a mapping made before: zero, as in a
     * fresh model (a MAPPING action's a and b are its address and size) */
    for (size_t j = 0; buf && have && left && j < upto; j++) {
        const cg_scene_action *m = &c->act[j];
        if (!spend(work, 1))
            break;
        uint64_t a = (uint64_t)m->a, e = a + (uint64_t)m->b;
        if (m->type != CG_CAPREC_MAPPING || e < a)
            continue;
        uint64_t x0 = a > lo ? a : lo, x1 = e < hi ? e : hi;
        if (x0 < x1 && !spend(work, x1 - x0))
            break;
        for (uint64_t x = x0; x < x1; x++)
            if (!have[x - lo]) {
                have[x - lo] = 1, buf[x - lo] = 0;
                left--;
            }
    }
    bool ok = buf && have && !left;
    free(have);
    if (!ok) {
        free(buf);
        return NULL;
    }
    return buf;
}

/* The stream an action (the i-th) submits: [addr, addr + size) and where
 * its bytes are (the family's action table says where it is; *owned when
 * they were gathered from data records: free it). false when it submits
 * nothing or its bytes are not in the file. */
static bool stream_of(const cg_capfile *c, size_t i, uint64_t *addr, const uint8_t **data,
                      size_t *size, uint8_t **owned, uint64_t *work, const char **why)
{
    const cg_scene_action *a = &c->act[i];
    const cg_scene_kind *k = cg_scene_kind_of(cg_family_get(c->family), a->kind);
    const cg_capfile_mem *m = NULL;
    uint64_t lo = 0, hi = 0;
    *why = NULL;
    *owned = NULL;
    if (a->type != CG_CAPREC_SUBMIT)
        return false;
    cg_scene_stream where = k ? k->stream : CG_STREAM_NONE;
    if (where == CG_STREAM_SECTION) {
        char name[256];
        if (!cg_scene_str(a->str1, a->str1_len, name, sizeof name) ||
            !(m = cg_capfile_mem_named(c, name))) {
            *why = "its section is not in the capture";
            return false;
        }
        *addr = m->addr, *data = m->data, *size = m->size;
        return true;
    }
    if (where == CG_STREAM_A_B)
        lo = (uint64_t)a->a, hi = (uint64_t)a->b;
    else if (where == CG_STREAM_B_C)
        lo = (uint32_t)a->b, hi = (uint32_t)a->c;
    if (where == CG_STREAM_NONE || hi < lo || !(*owned = gather(c, i, lo, hi, work))) {
        *why = "the stream is not in the captured memory (the GPU or a later CPU write made it)";
        return false;
    }
    *addr = lo, *data = *owned, *size = (size_t)(hi - lo);
    return true;
}

static int decode(const cg_capfile *c, const cg_capfile_disasm_opts *o, uint64_t addr,
                  const uint8_t *data, size_t size, FILE *out)
{
    const cg_family_desc *fam = cg_family_get(c->family);
    if (!fam || !fam->scene || !fam->scene->disasm_stream)
        return 0;
    cg_text_opts t = {.json = o->json, .c_name = o->c_name, .c_num = o->c_num,
                      .c_addr = o->c_addr, .c_err = o->c_err, .c_comment = o->c_comment,
                      .c_reset = o->c_reset};
    return fam->scene->disasm_stream(c, &t, addr, data, size, out);
}

/* The listing's head: the header, the configuration, the memory ranges
 * (with json, the object up to the opening of "actions"). */
static void print_head(const cg_capfile *c, const cg_capfile_disasm_opts *o, FILE *out)
{
    const char *cc = S(o->c_comment), *cr = S(o->c_reset);
    if (o->json) {
        fprintf(out, "{\"format\":\"cmdgpu-capture\",\"version\":\"%u.%u\",\"family\":\"%s\",\"scene\":",
                c->major, c->minor, cg_family_name(c->family));
        json_str(out, S(c->name), c->name ? c->name_len : 0);
        fprintf(out, ",\"config\":[");
        for (size_t i = 0; i < c->ncfg; i++) {
            uint32_t key = (uint32_t)c->config[20 * i] | (uint32_t)c->config[20 * i + 1] << 8 |
                           (uint32_t)c->config[20 * i + 2] << 16 | (uint32_t)c->config[20 * i + 3] << 24;
            uint64_t v = 0;
            cg_capfile_config(c, key, &v);
            fprintf(out, "%s{\"key\":%u,\"name\":\"%s\",\"value\":%" PRIu64 "}", i ? "," : "", key,
                    config_name(c, key), v);
        }
        fprintf(out, "],\"memory\":[");
        for (size_t i = 0; i < c->nmem; i++) {
            fprintf(out, "%s{\"name\":", i ? "," : "");
            json_str(out, c->mem[i].name, c->mem[i].name_len);
            fprintf(out, ",\"addr\":\"0x%" PRIx64 "\",\"space\":%u,\"size\":%zu}", c->mem[i].addr,
                    c->mem[i].space, c->mem[i].size);
        }
        fprintf(out, "],\"actions\":[");
    } else {
        fprintf(out, "%s# cmdgpu capture %u.%u, family %s, scene \"%.*s\": %zu memory range(s), %zu "
                "action(s), %zu submission(s)%s\n", cc, c->major, c->minor, cg_family_name(c->family),
                c->name ? (int)c->name_len : 0, S(c->name), c->nmem, c->nact, c->submissions, cr);
        for (size_t i = 0; i < c->ncfg; i++) {
            uint32_t key = (uint32_t)c->config[20 * i] | (uint32_t)c->config[20 * i + 1] << 8 |
                           (uint32_t)c->config[20 * i + 2] << 16 | (uint32_t)c->config[20 * i + 3] << 24;
            uint64_t v = 0;
            cg_capfile_config(c, key, &v);
            fprintf(out, "%s# config %s = %" PRIu64 "%s\n", cc, config_name(c, key), v, cr);
        }
        for (size_t i = 0; i < c->nmem; i++)
            fprintf(out, "%s# memory %.*s at 0x%" PRIx64 ": %zu bytes%s\n", cc, (int)c->mem[i].name_len,
                    c->mem[i].name, c->mem[i].addr, c->mem[i].size, cr);
    }
}

int cg_capfile_disasm(const cg_capfile *c, const cg_capfile_disasm_opts *o, FILE *out)
{
    if (!c || !o || !out)
        return CG_ERR_INVAL;
    const char *cc = S(o->c_comment), *cr = S(o->c_reset), *ce = S(o->c_err);
    int bad = 0;
    uint64_t work = GATHER_WORK; /* gather: the bytes it may still look at */
    size_t done = 0;
    print_head(c, o, out);
    for (size_t i = 0; i < c->nact; i++) {
        const cg_scene_action *a = &c->act[i];
        uint64_t addr = 0;
        const uint8_t *data = NULL;
        size_t size = 0;
        const char *why;
        uint8_t *owned = NULL;
        bool has = stream_of(c, i, &addr, &data, &size, &owned, &work, &why);
        if (a->type == CG_CAPREC_DATA) {
            if (o->json)
                fprintf(out, "%s{\"offset\":%zu,\"record\":\"data\",\"addr\":\"0x%" PRIx64
                        "\",\"size\":%zu}", i ? "," : "", a->offset, (uint64_t)a->a, a->data_len);
            else
                fprintf(out, "%s# #%zu data: %zu bytes at 0x%" PRIx64 " (record at offset %zu)%s\n",
                        cc, i, a->data_len, (uint64_t)a->a, a->offset, cr);
            continue;
        }
        if (o->json) {
            fprintf(out, "%s{\"offset\":%zu,\"record\":\"%s\",\"kind\":%u,\"name\":\"%s\",\"a\":%" PRId64
                    ",\"b\":%" PRId64 ",\"c\":%" PRId64 ",\"d\":%" PRId64 ",\"e\":%" PRId64
                    ",\"n\":%d,\"s1\":%d,\"s2\":%d,\"str1\":", i ? "," : "", a->offset,
                    cg_capfile_record_name(a->type), a->kind, act_name(c, a->kind), a->a, a->b, a->c,
                    a->d, a->e, a->n, a->s1, a->s2);
            json_str(out, a->str1, a->str1_len);
            fprintf(out, ",\"str2\":");
            json_str(out, a->str2, a->str2_len);
        } else {
            fprintf(out, "%s# #%zu %s %s a=0x%" PRIx64 " b=0x%" PRIx64 " c=0x%" PRIx64 " d=0x%" PRIx64
                    " e=0x%" PRIx64 " n=%d s1=%d s2=%d%s%.*s%s%s%.*s%s (record at offset %zu)%s\n", cc, i,
                    cg_capfile_record_name(a->type), act_name(c, a->kind), (uint64_t)a->a,
                    (uint64_t)a->b, (uint64_t)a->c, (uint64_t)a->d, (uint64_t)a->e, a->n, a->s1, a->s2,
                    a->str1_len ? " \"" : "", (int)a->str1_len, a->str1, a->str1_len ? "\"" : "",
                    a->str2_len ? " \"" : "", (int)a->str2_len, a->str2, a->str2_len ? "\"" : "",
                    a->offset, cr);
        }
        if (a->type == CG_CAPREC_SUBMIT) {
            if (has) {
                if (o->json)
                    fprintf(out, ",\"stream\":{\"addr\":\"0x%" PRIx64 "\",\"size\":%zu,\"listing\":", addr,
                            size);
                else
                    fprintf(out, "%s# submission %zu: %zu bytes at 0x%" PRIx64 "%s\n", cc, done, size,
                            addr, cr);
                int r = decode(c, o, addr, data, size, out);
                free(owned);
                if (r < 0)
                    return r;
                bad += r;
                if (o->json)
                    fprintf(out, "}");
            } else if (o->json) {
                fprintf(out, ",\"stream\":null,\"why\":\"%s\"", why ? why : "");
            } else {
                fprintf(out, "%s# submission %zu: not decoded: %s%s\n", ce, done, why ? why : "", cr);
            }
            done++;
            if (o->progress)
                o->progress(o->user, done, c->submissions);
        }
        if (o->json)
            fprintf(out, "}");
    }
    if (o->json) {
        fprintf(out, "]");
        if (c->has_end)
            fprintf(out, ",\"end\":{\"result\":%d,\"faults\":%u,\"fault_hash\":\"%016" PRIx64
                    "\",\"mem_hash\":\"%016" PRIx64 "\"}", c->end.result, c->end.faults, c->end.fault_hash,
                    c->end.mem_hash);
        fprintf(out, ",\"bad\":%d}\n", bad);
    } else if (c->has_end) {
        fprintf(out, "%s# end: result %d, %u fault(s), fault hash %016" PRIx64 ", memory hash %016" PRIx64
                "%s\n", cc, c->end.result, c->end.faults, c->end.fault_hash, c->end.mem_hash, cr);
    } else {
        fprintf(out, "%s# no end record: the run that wrote it did not finish%s\n", ce, cr);
    }
    return bad;
}

/* ---- the container as a capture format (include/cmdgpu/capture.h) -------- */

static int capture_disasm(const cg_text_opts *o, const uint8_t *data, size_t size, FILE *out,
                          cg_capture_error *err)
{
    cg_capfile *cap;
    int rc = cg_capfile_parse(data, size, &cap, err);
    if (rc)
        return rc;
    cg_capfile_disasm_opts d = {.json = o->json, .c_name = o->c_name, .c_num = o->c_num,
                                .c_addr = o->c_addr, .c_err = o->c_err,
                                .c_comment = o->c_comment, .c_reset = o->c_reset};
    rc = cg_capfile_disasm(cap, &d, out);
    cg_capfile_free(cap);
    return rc;
}

/* Its family is the file's (family NULL here); a replay is a run of the
 * scene it holds (cg_capfile_run), which the command does itself. */
const cg_capture_desc cg_capfile_capture = {
    .name = "cmdgpu-capture",
    .description = "cmdgpu's own capture container (CMDGPUCAP, docs/capture-format.md)",
    .detect = cg_capfile_detect,
    .disasm = capture_disasm,
};
