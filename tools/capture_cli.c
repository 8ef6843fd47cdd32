/* cmdgpu command: captures that real systems write (docs/captures.md),
 * chosen with --input-format or detected (cg_capture_detect), for
 * `cmdgpu disasm` and `cmdgpu run`. The loaders are library functions
 * (include/cmdgpu/capture.h); this file only wires them to the command. */
#define _GNU_SOURCE /* fopencookie: the progress of a listing (glibc) */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "cli.h"
#include "cmdgpu/cmdgpu.h"
#include "cmdgpu/capture.h"

static int load_error(const char *path, cg_capture_format f, int rc, const cg_capture_error *e)
{
    if (rc == CG_ERR_SYNTAX || rc == CG_ERR_RANGE || (rc == CG_ERR_UNSUPPORTED && f == CG_CAPTURE_CMDGPU))
        return cli_error(EXIT_INPUT, "%s: %s at offset %zu (0x%zx): %s", path, cg_capture_format_name(f),
                         e->offset, e->offset, e->msg);
    return cli_error(EXIT_INPUT, "%s: %s: %s", path, cg_capture_format_name(f), cg_strerror(rc));
}

static const char *format_names(void)
{
    static char buf[256];
    size_t len = 0;
    for (unsigned i = 0; i < CG_CAPTURE_FORMAT_COUNT && len < sizeof buf; i++) {
        int w = snprintf(buf + len, sizeof buf - len, "%s%s", i ? ", " : "",
                         cg_capture_format_name((cg_capture_format)i));
        if (w < 0)
            break;
        len += (size_t)w;
    }
    return buf;
}

/* The family a -f name belongs to ("vc4-cl" is vc4). */
static cg_family family_of(const char *name)
{
    if (!name)
        return CG_FAMILY_NONE;
    if (strncmp(name, "vc4", 3) == 0 && (!name[3] || strcmp(name + 3, "-cl") == 0))
        return CG_FAMILY_VC4;
    if (strcmp(name, "nv") == 0)
        return CG_FAMILY_NV;
    if (strcmp(name, "radeon") == 0)
        return CG_FAMILY_RADEON;
    return CG_FAMILY_NONE;
}

/* Which format to load `data` as: NATIVE when the family's own loader
 * should take it. Returns -1 to go on, or an exit code. */
static int choose(const cli_opts *o, const char *path, const uint8_t *data, size_t size,
                  cg_capture_format *f)
{
    *f = CG_CAPTURE_NATIVE;
    cg_family fam = family_of(o->family);
    if (o->input_format && strcmp(o->input_format, "auto") != 0) {
        if (cg_capture_format_from_name(o->input_format, f) != 0)
            return cli_error(EXIT_USAGE, "--input-format: unknown format '%s' (auto, %s)", o->input_format,
                             format_names());
        cg_family want = cg_capture_format_family(*f);
        if (want != CG_FAMILY_NONE && want != fam)
            return cli_error(EXIT_USAGE, "--input-format %s is a %s capture: use -f %s", o->input_format,
                             cg_family_name(want), cg_family_name(want));
        return -1;
    }
    if (!data)
        return -1;
    cg_capture_format d = cg_capture_detect(data, size);
    if (d == CG_CAPTURE_NATIVE)
        return -1;
    if (d == CG_CAPTURE_CMDGPU) {
        cg_family cf = cg_capfile_peek_family(data, size);
        if (cf != CG_FAMILY_NONE && cf != fam)
            return cli_error(EXIT_USAGE, "%s is a cmdgpu capture of family %s, not %s: leave -f out or "
                             "use -f %s", path, cg_family_name(cf), o->family ? o->family : "?",
                             cg_family_name(cf));
        *f = d;
        return -1;
    }
    if (cg_capture_format_family(d) != fam)
        return cli_error(EXIT_INPUT, "%s looks like a %s capture (%s), not %s input: use -f %s, or "
                         "--input-format native to read its bytes as they are", path,
                         cg_capture_format_name(d), cg_capture_format_description(d),
                         o->family ? o->family : "?", cg_family_name(cg_capture_format_family(d)));
    *f = d;
    return -1;
}

static int gen_of(const cli_opts *o, cg_radeon_gen *g)
{
    *g = CG_RADEON_R600;
    if (o->gen && cg_radeon_gen_from_name(o->gen, g) != 0)
        return cli_error(EXIT_USAGE, "--gen: unknown radeon generation '%s' (r600, r700, evergreen, r500)",
                         o->gen);
    return EXIT_OK;
}

static void disasm_progress(void *user, size_t done, size_t total)
{
    (void)user;
    cli_progress_set(done, total, "submissions");
}

int capture_disasm(const cli_opts *o, const cli_family *fam, const char *path, const uint8_t *data,
                   size_t size, FILE *out)
{
    cg_capture_format f;
    int rc = choose(o, path, data, size, &f);
    if (rc >= 0)
        return rc;
    const cli_colors *c = o->color;
    cg_capture_error e = {0};
    switch (f) {
    case CG_CAPTURE_RADEON_RING_DUMP: {
        cg_radeon_gen g;
        if ((rc = gen_of(o, &g)) != EXIT_OK)
            return rc;
        cg_radeon_ringdump *d;
        if ((rc = cg_radeon_ringdump_parse(data, size, &d, &e)) != 0)
            return load_error(path, f, rc, &e);
        cg_radeon_disasm_opts dop = {.gen = g, .json = o->json, .c_name = c->name, .c_num = c->num,
                                     .c_addr = c->addr, .c_err = c->err, .c_comment = c->comment,
                                     .c_reset = c->reset};
        rc = cg_radeon_ringdump_disasm(d, &dop, out);
        cg_radeon_ringdump_free(d);
        return rc < 0 ? cli_error(EXIT_INPUT, "disasm: %s", cg_strerror(rc)) : EXIT_OK;
    }
    case CG_CAPTURE_VC4_HANG_STATE: {
        cg_vc4_hang_state *h;
        if ((rc = cg_vc4_hang_parse(data, size, &h, &e)) != 0)
            return load_error(path, f, rc, &e);
        cg_vc4_disasm_opts dop = {.prim_format = 0x12, .json = o->json, .c_name = c->name,
                                  .c_num = c->num, .c_addr = c->addr, .c_err = c->err,
                                  .c_comment = c->comment, .c_reset = c->reset};
        rc = cg_vc4_hang_disasm(h, &dop, out);
        cg_vc4_hang_free(h);
        return rc < 0 ? cli_error(EXIT_INPUT, "disasm: %s", cg_strerror(rc)) : EXIT_OK;
    }
    case CG_CAPTURE_VC4_CL_DUMP: {
        cg_vc4_cl_textdump *t;
        if ((rc = cg_vc4_cl_textdump_parse(data, size, &t, &e)) != 0)
            return load_error(path, f, rc, &e);
        if (!o->json)
            fprintf(out, "%s// VC4_DEBUG=cl dump: %zu packets rebuilt, %zu bytes (hardware offsets)%s\n",
                    c->comment, t->npackets, t->size, c->reset);
        if (t->more_lists && !o->json)
            fprintf(out, "%s// %zu more list(s) follow in the file: only the first is decoded%s\n", c->comment,
                    t->more_lists, c->reset);
        if (t->unknown_at != SIZE_MAX && !o->json)
            fprintf(out, "%s// the dump stopped at an unknown packet at hardware offset 0x%zx%s\n", c->err,
                    t->unknown_at, c->reset);
        rc = fam->disasm(o, t->bytes, t->size, out);
        cg_vc4_cl_textdump_free(t);
        return rc;
    }
    case CG_CAPTURE_CMDGPU: {
        cg_capfile *cap;
        if ((rc = cg_capfile_parse(data, size, &cap, &e)) != 0)
            return load_error(path, f, rc, &e);
        cg_capfile_disasm_opts dop = {.json = o->json, .c_name = c->name, .c_num = c->num,
                                      .c_addr = c->addr, .c_err = c->err, .c_comment = c->comment,
                                      .c_reset = c->reset, .progress = disasm_progress};
        rc = cg_capfile_disasm(cap, &dop, out);
        cg_capfile_free(cap);
        return rc < 0 ? cli_error(EXIT_INPUT, "disasm: %s", cg_strerror(rc)) : EXIT_OK;
    }
    case CG_CAPTURE_NV_PUSH_RAW: {
        uint32_t *w;
        size_t n;
        if ((rc = cg_nv_pushdump_load(data, size, &w, &n, &e)) != 0)
            return load_error(path, f, rc, &e);
        free(w);
        return fam->disasm(o, data, size, out);
    }
    default:
        return -1;
    }
}

static void print_faults(const cli_opts *o, cg_device *dev, size_t from, FILE *out)
{
    char line[512];
    for (size_t i = from; i < cg_fault_count(dev); i++) {
        const cg_fault *f = cg_fault_get(dev, i);
        if (o->json) {
            cg_fault_format_json(f, line, sizeof line);
            fprintf(out, "%s%s", i > from ? "," : "", line);
        } else {
            cg_fault_format(f, line, sizeof line);
            fprintf(out, "%s%s%s\n", o->color->err, line, o->color->reset);
        }
    }
}

static bool any_unmapped(cg_device *dev)
{
    for (size_t i = 0; i < cg_fault_count(dev); i++)
        if (cg_fault_get(dev, i)->kind == CG_FAULT_UNMAPPED)
            return true;
    return false;
}

static int run_ringdump(const cli_opts *o, const char *path, const uint8_t *data, size_t size)
{
    cg_radeon_gen g;
    int rc = gen_of(o, &g);
    if (rc != EXIT_OK)
        return rc;
    if (g == CG_RADEON_R500)
        return cli_error(EXIT_USAGE, "run: ring dumps replay on r600, r700 or evergreen");
    cg_capture_error e = {0};
    cg_radeon_ringdump *d;
    if ((rc = cg_radeon_ringdump_parse(data, size, &d, &e)) != 0)
        return load_error(path, CG_CAPTURE_RADEON_RING_DUMP, rc, &e);
    cg_device *dev = cli_device_create(o);
    if (!dev) {
        cg_radeon_ringdump_free(d);
        return EXIT_INPUT;
    }
    if (o->trace)
        cg_trace_add(dev, o->json ? cg_trace_write_json : cg_trace_write_text, stdout);
    cg_radeon_hang_recorder *hr = NULL;
    cg_radeon_hang_recorder_create(dev, &hr); /* without it: no hang report */
    cg_radeon_ringdump_result res;
    int r = cg_radeon_ringdump_replay(d, dev, g, &res, NULL);
    if (r == CG_ERR_NOENT) {
        rc = cli_error(EXIT_INPUT, "%s: rptr %u is not in the dump: nothing to replay", path, d->rptr);
    } else if (r != 0) {
        rc = cli_error(EXIT_INPUT, "run: cannot set up the radeon model: %s", cg_strerror(r));
    } else {
        const cg_radeon_cp_status *st = &res.status;
        bool failed = res.faults > 0 || st->state == CG_RADEON_CP_STOPPED || st->state == CG_RADEON_CP_WAITING;
        if (o->json) {
            printf("{\"capture\":\"%s\",\"format\":\"radeon-ring-dump\",\"ring_addr\":\"0x%" PRIx64 "\","
                   "\"ring_dw\":%u,\"cp\":{\"state\":\"%s\",\"rptr\":%u,\"wptr\":%u,\"ib_depth\":%u,"
                   "\"packets\":%" PRIu64 ",\"dwords\":%" PRIu64 "},\"scratch\":[",
                   path, res.ring_addr, d->ring_dw, cg_radeon_cp_state_name(st->state), st->rptr, st->wptr,
                   st->ib_depth, st->packets, st->dwords);
            for (int k = 0; k < 8; k++)
                printf("%s\"0x%08x\"", k ? "," : "", res.scratch[k]);
            printf("],\"faults\":[");
            print_faults(o, dev, 0, stdout);
            printf("]");
            if (failed && hr) {
                printf(",\"report\":");
                if (cg_radeon_hang_report(hr, true, stdout) != 1)
                    printf("null\n");
            }
            printf(",\"result\":\"%s\"}\n", failed ? "failed" : "ok");
        } else {
            printf("ring dump %s: ring of %u dwords at 0x%" PRIx64 ", replaying from rptr %u to wptr %u\n", path,
                   d->ring_dw, res.ring_addr, d->rptr_entry < d->nentries ? d->entries[d->rptr_entry].index : 0,
                   d->wptr);
            print_faults(o, dev, 0, stdout);
            if (any_unmapped(dev))
                printf("note: a ring dump holds only the ring: the memory its packets refer to (IBs, fences, "
                       "semaphores) was not captured, so those accesses fault as unmapped\n");
            printf("cp: %s rptr %u wptr %u ib_depth %u packets %" PRIu64 " dwords %" PRIu64 "\n",
                   cg_radeon_cp_state_name(st->state), st->rptr, st->wptr, st->ib_depth, st->packets, st->dwords);
            for (int k = 0; k < 8; k++)
                printf("SCRATCH_REG%d = 0x%08x\n", k, res.scratch[k]);
            if (failed && hr)
                cg_radeon_hang_report(hr, false, stdout);
            printf("replay: %s, %zu fault(s)\n", failed ? "failed" : "ok", res.faults);
        }
        rc = failed ? EXIT_FAULT : EXIT_OK;
    }
    cg_radeon_hang_recorder_destroy(hr);
    cg_device_destroy(dev);
    cg_radeon_ringdump_free(d);
    return rc;
}

static int run_hang(const cli_opts *o, const char *path, const uint8_t *data, size_t size)
{
    cg_capture_error e = {0};
    cg_vc4_hang_state *h;
    int rc = cg_vc4_hang_parse(data, size, &h, &e);
    if (rc != 0)
        return load_error(path, CG_CAPTURE_VC4_HANG_STATE, rc, &e);
    cg_device *dev = cli_device_create(o);
    if (!dev) {
        cg_vc4_hang_free(h);
        return EXIT_INPUT;
    }
    if (o->trace)
        cg_trace_add(dev, o->json ? cg_trace_write_json : cg_trace_write_text, stdout);
    cg_vc4_hang_result res;
    cg_vc4 *v = NULL;
    int r = cg_vc4_hang_replay(h, dev, &res, &v);
    if (r != 0) {
        rc = cli_error(EXIT_INPUT, "run: cannot set up the vc4 model: %s", cg_strerror(r));
        goto out;
    }
    uint64_t hash = 0;
    int hr = CG_ERR_NOENT, pr = 0;
    if (res.have_frame && res.fb_linear)
        hr = cg_vc4_fb_hash(v, res.fb_addr, res.fb_width, res.fb_height, res.fb_pitch, res.fb_depth, &hash);
    if (o->output && hr == 0)
        pr = cg_vc4_fb_png(v, res.fb_addr, res.fb_width, res.fb_height, res.fb_pitch, res.fb_depth, o->output);
    bool failed = res.faults > 0 || res.wait_rc != 0;
    if (o->json) {
        printf("{\"capture\":\"%s\",\"format\":\"vc4-hang-state\",\"CT0CA\":\"0x%08x\",\"CT1CA\":\"0x%08x\","
               "\"CT0CS\":\"0x%08x\",\"CT1CS\":\"0x%08x\",\"faults\":[", path, res.ct0ca, res.ct1ca, res.ct0cs,
               res.ct1cs);
        print_faults(o, dev, 0, stdout);
        printf("]");
        if (hr == 0)
            printf(",\"frame\":{\"addr\":\"0x%08x\",\"width\":%u,\"height\":%u,\"depth\":%u,\"hash\":\"%016" PRIx64
                   "\"}", res.fb_addr, res.fb_width, res.fb_height, res.fb_depth, hash);
        printf(",\"result\":\"%s\"}\n", failed ? "failed" : "ok");
    } else {
        printf("hang state %s: %u BOs re-run (bin 0x%08x..0x%08x, render 0x%08x..0x%08x)\n", path, h->bo_count,
               h->start_bin, h->ct0ea, h->start_render, h->ct1ea);
        print_faults(o, dev, 0, stdout);
        printf("CT0CA 0x%08x (captured 0x%08x)  CT1CA 0x%08x (captured 0x%08x)\n", res.ct0ca, h->ct0ca, res.ct1ca,
               h->ct1ca);
        if (hr == 0)
            printf("frame 0x%08x %ux%ux%u: pixel hash %016" PRIx64 "\n", res.fb_addr, res.fb_width, res.fb_height,
                   res.fb_depth, hash);
        else if (res.have_frame)
            printf("frame 0x%08x %ux%u: not readable as a linear image (%s)\n", res.fb_addr, res.fb_width,
                   res.fb_height, res.fb_linear ? cg_strerror(hr) : "T or LT tiled");
        else
            printf("no Tile_Rendering_Mode_Configuration in the render list: no frame\n");
        if (o->output && hr == 0)
            printf("%swrote %s\n", pr ? "FAIL " : "", o->output);
        printf("re-run: %s, %zu fault(s)\n", failed ? "failed" : "ok", res.faults);
    }
    if (o->output && hr != 0)
        rc = cli_error(EXIT_FAULT, "run -o %s: there is no linear frame to write", o->output);
    else
        rc = (failed || pr) ? EXIT_FAULT : EXIT_OK;
out:
    cg_vc4_destroy(v);
    cg_device_destroy(dev);
    cg_vc4_hang_free(h);
    return rc;
}

/* `cmdgpu run FILE.cap`: the family's own run, with the scene taken from
 * the capture (o->replay) and named as the original run named it, so the
 * output is the original's; then the results are checked against the end
 * record. */
static int run_capfile(const cli_opts *o, const cli_family *fam, const char *path, const uint8_t *data,
                       size_t size)
{
    cg_capture_error e = {0};
    cg_capfile *cap;
    int rc = cg_capfile_parse(data, size, &cap, &e);
    if (rc != 0)
        return load_error(path, CG_CAPTURE_CMDGPU, rc, &e);
    if (o->capture) {
        cg_capfile_free(cap);
        return cli_error(EXIT_USAGE, "run %s: it is a capture already: --capture records scenes", path);
    }
    char *name = cap->name ? strndup(cap->name, cap->name_len) : strdup(path);
    if (!name) {
        cg_capfile_free(cap);
        return cli_error(EXIT_INPUT, "out of memory");
    }
    cli_opts ro = *o;
    char *args[1] = {name};
    ro.args = args;
    ro.nargs = 1;
    ro.replay = cap;
    rc = fam->run(&ro);
    free(name);
    cg_capfile_free(cap);
    return rc;
}

const char *capture_family_of(const cli_opts *o)
{
    if (o->nargs != 1 || strcmp(o->args[0], "-") == 0)
        return NULL;
    FILE *f = fopen(o->args[0], "rb");
    if (!f)
        return NULL;
    uint8_t h[16];
    size_t n = fread(h, 1, sizeof h, f);
    fclose(f);
    cg_family fam = cg_capfile_peek_family(h, n);
    return fam == CG_FAMILY_NONE ? NULL : cg_family_name(fam);
}

cg_capfile_writer *cli_capture_begin(const cli_opts *o, cg_family fam, cg_device *dev, int *rc)
{
    *rc = EXIT_OK;
    if (!o->capture)
        return NULL;
    /* refuse a path that cannot be created before running anything */
    FILE *f = fopen(o->capture, "wb");
    if (!f || fclose(f) != 0) {
        *rc = cli_error(EXIT_INPUT, "--capture: cannot create '%s': %s", o->capture, strerror(errno));
        return NULL;
    }
    cg_capfile_writer *w = NULL;
    if (cg_capfile_writer_create(fam, &w) != 0) {
        *rc = cli_error(EXIT_INPUT, "out of memory");
        return NULL;
    }
    cg_capfile_writer_attach(w, dev); /* the final memory's hash for the end record */
    cg_capfile_write_name(w, o->args[0]);
    cg_capfile_write_config(w, CG_CAPCFG_COHERENCY, (uint64_t)cg_device_coherency(dev));
    for (int b = 0; b < CG_BUDGET_COUNT; b++)
        if (cg_device_budget(dev, (cg_budget)b) != cg_budget_default((cg_budget)b))
            cg_capfile_write_config(w, CG_CAPCFG_BUDGET + (uint32_t)b, cg_device_budget(dev, (cg_budget)b));
    return w;
}

int cli_capture_end(const cli_opts *o, cg_capfile_writer *w, int result, cg_device *dev, int rc)
{
    if (!w)
        return rc;
    cg_capfile_end end = {.result = result, .faults = (uint32_t)cg_fault_count(dev),
                          .fault_hash = cg_capfile_fault_hash(dev, 0)};
    cg_capfile_write_end(w, &end);
    cg_capfile_memhash_attach(dev, NULL);
    int r = cg_capfile_writer_save(w, o->capture);
    cg_capfile_writer_destroy(w);
    if (r != 0)
        return cli_error(EXIT_INPUT, "--capture: cannot write '%s': %s", o->capture, cg_strerror(r));
    return rc;
}

static cg_capfile_memhash replay_mh;

void cli_replay_attach(const cli_opts *o, cg_device *dev)
{
    cg_capfile_memhash_fini(&replay_mh);
    if (o->replay && cg_capfile_memhash_init(&replay_mh, o->replay) == 0)
        cg_capfile_memhash_attach(dev, &replay_mh);
}

int cli_replay_check(const cli_opts *o, int result, cg_device *dev, int rc)
{
    if (!o->replay)
        return rc;
    cg_capfile_end got = {.result = result, .faults = (uint32_t)cg_fault_count(dev),
                          .fault_hash = cg_capfile_fault_hash(dev, 0),
                          .mem_hash = replay_mh.done ? replay_mh.hash : 0};
    cg_capfile_memhash_attach(dev, NULL);
    cg_capfile_memhash_fini(&replay_mh);
    if (!o->replay->has_end) /* docs/capture-format.md: the end record is optional */
        fprintf(stderr, "cmdgpu: replay: the capture has no end record (cut short, or written "
                "without results): its results were not checked\n");
    char msg[256];
    if (cg_capfile_verify(o->replay, &got, msg, sizeof msg) != 0) {
        cli_error(EXIT_FAULT, "replay: %s", msg);
        return rc == EXIT_OK ? EXIT_FAULT : rc;
    }
    return rc;
}

/* ---- progress on stderr (a terminal only) -------------------------------- */

static struct {
    bool on, shown;
    const char *what;
    double t0, last;
} prog;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void cli_progress_start(const char *what)
{
    prog.on = isatty(STDERR_FILENO) != 0;
    prog.shown = false;
    prog.what = what;
    prog.t0 = prog.last = prog.on ? now_s() : 0;
}

void cli_progress_set(uint64_t done, uint64_t total, const char *unit)
{
    if (!prog.on)
        return;
    double t = now_s();
    if (t - prog.t0 < 1.0 || (prog.shown && t - prog.last < 0.1))
        return;
    prog.last = t;
    prog.shown = true;
    char tot[32] = "";
    if (total)
        snprintf(tot, sizeof tot, "/%" PRIu64, total);
    fprintf(stderr, "\r\033[Kcmdgpu %s: %" PRIu64 "%s %s, %.0f/s, %.0f s", prog.what, done, tot, unit,
            (double)done / (t - prog.t0), t - prog.t0);
    fflush(stderr);
}

static uint64_t prog_events, prog_bytes;

static void progress_sink(void *user, const cg_trace_event *ev)
{
    (void)user;
    if (ev->kind == CG_TRACE_MEM_WRITE)
        prog_bytes += ev->size;
    else if (ev->kind == CG_TRACE_PACKET || ev->kind == CG_TRACE_METHOD)
        prog_events++;
    else
        return;
    if ((prog_events & 1023) == 0 && prog.on) {
        char unit[64];
        snprintf(unit, sizeof unit, "packets/methods, %" PRIu64 " KiB written by the GPU", prog_bytes >> 10);
        cli_progress_set(prog_events, 0, unit);
    }
}

/* A listing's progress: the bytes written so far, counted by a stream that
 * passes everything on to the real one. */
#if defined(__GLIBC__)
static ssize_t count_write(void *cookie, const char *buf, size_t n)
{
    static uint64_t total;
    size_t w = fwrite(buf, 1, n, (FILE *)cookie);
    total += w;
    cli_progress_set(total, 0, "bytes of listing");
    return w == n ? (ssize_t)n : -1;
}

FILE *cli_progress_wrap(FILE *out)
{
    if (!prog.on || !out)
        return out;
    cookie_io_functions_t io = {.write = count_write};
    FILE *f = fopencookie(out, "w", io);
    return f ? f : out;
}
#else
FILE *cli_progress_wrap(FILE *out) { return out; }
#endif

void cli_progress_unwrap(FILE *wrapped, FILE *out)
{
    if (wrapped != out)
        fclose(wrapped); /* flushes into out; errors show on out */
}

void cli_progress_attach(cg_device *dev)
{
    if (prog.on && dev)
        cg_trace_add(dev, progress_sink, NULL);
}

void cli_progress_stop(void)
{
    if (prog.on && prog.shown) {
        fputs("\r\033[K", stderr);
        fflush(stderr);
    }
    prog.on = prog.shown = false;
}

int capture_run(const cli_opts *o, const cli_family *fam)
{
    if (o->nargs != 1)
        return -1;
    const char *path = o->args[0];
    bool explicit_fmt = o->input_format && strcmp(o->input_format, "auto") != 0;
    if (!explicit_fmt && strcmp(path, "-") == 0)
        return -1; /* stdin cannot be read twice: detection needs --input-format */
    cg_capture_format f;
    int rc;
    if (explicit_fmt) {
        if ((rc = choose(o, path, NULL, 0, &f)) >= 0)
            return rc;
        if (f == CG_CAPTURE_NATIVE)
            return -1;
    }
    size_t size;
    uint8_t *data = cli_read_file(path, CLI_MAX_SOURCE, &size);
    if (!data)
        return EXIT_INPUT;
    if ((rc = choose(o, path, data, size, &f)) >= 0 || f == CG_CAPTURE_NATIVE) {
        free(data);
        return rc;
    }
    if (o->capture && f != CG_CAPTURE_CMDGPU) {
        free(data);
        return cli_error(EXIT_USAGE, "run --capture: %s is a %s capture: --capture records scenes", path,
                         cg_capture_format_name(f));
    }
    switch (f) {
    case CG_CAPTURE_CMDGPU: rc = run_capfile(o, fam, path, data, size); break;
    case CG_CAPTURE_RADEON_RING_DUMP: rc = run_ringdump(o, path, data, size); break;
    case CG_CAPTURE_VC4_HANG_STATE: rc = run_hang(o, path, data, size); break;
    case CG_CAPTURE_VC4_CL_DUMP:
        rc = cli_error(EXIT_USAGE, "run: a VC4_DEBUG=cl dump holds one control list and none of the memory "
                       "it refers to: it cannot be run (disasm it, or capture a hang state)");
        break;
    default:
        rc = cli_error(EXIT_USAGE, "run: raw pushbuffer words hold no GPFIFO, channel or memory: they cannot "
                       "be run alone (write an nv scene that .incbin's them)");
        break;
    }
    free(data);
    return rc;
}
