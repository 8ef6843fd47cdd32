/* cmdgpu report: run a scene with a trace recorder and write one
 * self-contained HTML page about the run (tools/report_html.c,
 * docs/report.md). The images are the PNG files the run writes, into a
 * temporary directory of its own. */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cli.h"
#include "cmdgpu/cmdgpu.h"
#include "cmdgpu/capture.h"
#include "cmdgpu/nv3d.h"
#include "report.h"

/* ---- the recorder: a trace sink --------------------------------------- */

typedef struct recorder {
    rp_run *r;
    size_t cap_items, cap_marks;
} recorder;

static void copy_str(char *dst, size_t cap, const char *s)
{
    snprintf(dst, cap, "%s", s ? s : "");
}

static void fill(rp_item *it, const cg_trace_event *ev, uint64_t seq)
{
    memset(it, 0, sizeof *it);
    it->kind = ev->kind;
    it->channel = ev->channel;
    it->seq = seq;
    it->stream_addr = ev->stream_addr;
    it->gpu_addr = ev->gpu_addr;
    it->value = ev->value;
    it->reg = ev->reg;
    it->entry = ev->entry;
    it->entry_va = ev->entry_va;
    it->entry_len = ev->entry_len;
    it->fault = -1;
    copy_str(it->unit, sizeof it->unit, ev->unit);
    copy_str(it->name, sizeof it->name, ev->name);
    copy_str(it->text, sizeof it->text, ev->text);
    if (ev->bytes && ev->nbytes) {
        it->nbytes = (uint8_t)(ev->nbytes < sizeof it->bytes ? ev->nbytes : sizeof it->bytes);
        memcpy(it->bytes, ev->bytes, it->nbytes);
    }
}

static bool grow(rp_item **v, size_t n, size_t *cap, size_t max)
{
    if (n < *cap)
        return true;
    size_t nc = *cap ? 2 * *cap : 256;
    if (nc > max)
        nc = max;
    if (nc <= n)
        return false;
    rp_item *nv = realloc(*v, nc * sizeof **v);
    if (!nv)
        return false;
    *v = nv;
    *cap = nc;
    return true;
}

static void sink(void *user, const cg_trace_event *ev)
{
    recorder *rc = user;
    rp_run *r = rc->r;
    uint64_t seq = r->nevents++;
    switch (ev->kind) {
    case CG_TRACE_METHOD:
    case CG_TRACE_PACKET:
        /* a blocked record or wait fetched again on every poll counts once */
        if (r->nitems) {
            const rp_item *p = &r->items[r->nitems - 1];
            if (p->kind == ev->kind && p->channel == ev->channel &&
                p->stream_addr == ev->stream_addr && p->value == ev->value &&
                p->reg == ev->reg && ev->kind == CG_TRACE_PACKET)
                return;
        }
        if (!grow(&r->items, r->nitems, &rc->cap_items, RP_MAX_ITEMS)) {
            r->items_more++;
            return;
        }
        fill(&r->items[r->nitems++], ev, seq);
        /* semaphores and waits of the stream go on the timeline too */
        if (ev->kind == CG_TRACE_PACKET && ev->name &&
            (strcmp(ev->name, "Increment_Semaphore") == 0 ||
             strcmp(ev->name, "Wait_on_Semaphore") == 0 ||
             strcmp(ev->name, "MEM_SEMAPHORE") == 0 || strcmp(ev->name, "WAIT_REG_MEM") == 0)) {
            if (!grow(&r->marks, r->nmarks, &rc->cap_marks, RP_MAX_MARKS)) {
                r->marks_more++;
                return;
            }
            rp_item *m = &r->marks[r->nmarks++];
            fill(m, ev, seq);
            m->kind = CG_TRACE_NOTE;
            snprintf(m->text, sizeof m->text, "semaphore: %s at 0x%llx", ev->name,
                     (unsigned long long)ev->stream_addr);
        }
        return;
    case CG_TRACE_FENCE:
    case CG_TRACE_INTERRUPT:
    case CG_TRACE_NOTE:
        if (!grow(&r->marks, r->nmarks, &rc->cap_marks, RP_MAX_MARKS)) {
            r->marks_more++;
            return;
        }
        fill(&r->marks[r->nmarks++], ev, seq);
        return;
    case CG_TRACE_FAULT: {
        /* the item the fault points at: the newest on its channel at its
         * stream address, among the last few */
        const cg_fault *f = ev->fault;
        if (!f || f->seq >= RP_MAX_FAULTS)
            return;
        int at = -1;
        for (size_t k = 0; k < r->nitems && k < 256; k++) {
            const rp_item *p = &r->items[r->nitems - 1 - k];
            if (p->channel == f->channel && p->stream_addr == f->stream_addr) {
                at = (int)(r->nitems - 1 - k);
                break;
            }
        }
        r->fault_item[f->seq] = at;
        if (at >= 0 && r->items[at].fault < 0)
            r->items[at].fault = (int)f->seq;
        return;
    }
    default:
        return;
    }
}

/* ---- the run ------------------------------------------------------------- */

typedef struct hang_rec {
    cg_nv_hang_recorder *nv;
    cg_vc4_hang_recorder *vc4;
    cg_radeon_hang_recorder *radeon;
} hang_rec;

/* A capture a real system wrote (docs/captures.md) that `report` can
 * replay: a radeon ring dump or a vc4 hang state, parsed before the run. */
typedef struct real_dump {
    cg_capture_format fmt; /* CG_CAPTURE_NATIVE: none */
    uint8_t *data;         /* the file (the hang state's BOs point into it) */
    cg_radeon_ringdump *ring;
    cg_vc4_hang_state *hang;
} real_dump;

/* Replay a real dump as `cmdgpu run FILE` does (tools/capture_cli.c): the
 * log gets the lines run prints about the replay; a vc4 frame that can be
 * read as an image becomes framebuffer.png. 0, 1 (the replay faulted or
 * stopped short) or a negative cg_err. */
static int run_real(const real_dump *rd, cg_radeon_gen gen, cg_device *dev, const char *png,
                    FILE *log)
{
    if (rd->ring) {
        cg_radeon_ringdump_result res;
        int r = cg_radeon_ringdump_replay(rd->ring, dev, gen, &res, NULL);
        if (r == CG_ERR_NOENT) {
            fprintf(log, "rptr %u is not in the dump: nothing to replay\n", rd->ring->rptr);
            return 1;
        }
        if (r != 0)
            return r;
        const cg_radeon_cp_status *st = &res.status;
        fprintf(log, "ring of %u dwords at 0x%llx, replayed from rptr %u to wptr %u\n",
                rd->ring->ring_dw, (unsigned long long)res.ring_addr, rd->ring->rptr,
                rd->ring->wptr);
        fprintf(log, "cp: %s rptr %u wptr %u ib_depth %u packets %llu dwords %llu\n",
                cg_radeon_cp_state_name(st->state), st->rptr, st->wptr, st->ib_depth,
                (unsigned long long)st->packets, (unsigned long long)st->dwords);
        for (int k = 0; k < 8; k++)
            fprintf(log, "SCRATCH_REG%d = 0x%08x\n", k, res.scratch[k]);
        return res.faults > 0 || st->state == CG_RADEON_CP_STOPPED ||
                       st->state == CG_RADEON_CP_WAITING
                   ? 1
                   : 0;
    }
    cg_vc4_hang_result res;
    cg_vc4 *v = NULL;
    int r = cg_vc4_hang_replay(rd->hang, dev, &res, &v);
    if (r != 0)
        return r;
    fprintf(log, "%u BOs re-run; CT0CA 0x%08x (captured 0x%08x), CT1CA 0x%08x (captured 0x%08x)\n",
            rd->hang->bo_count, res.ct0ca, rd->hang->ct0ca, res.ct1ca, rd->hang->ct1ca);
    uint64_t hash;
    if (res.have_frame && res.fb_linear &&
        cg_vc4_fb_hash(v, res.fb_addr, res.fb_width, res.fb_height, res.fb_pitch, res.fb_depth,
                       &hash) == 0) {
        fprintf(log, "frame 0x%08x %ux%ux%u: pixel hash %016llx\n", res.fb_addr, res.fb_width,
                res.fb_height, res.fb_depth, (unsigned long long)hash);
        if (cg_vc4_fb_png(v, res.fb_addr, res.fb_width, res.fb_height, res.fb_pitch,
                          res.fb_depth, png) != 0)
            fprintf(log, "the frame could not be written as an image\n");
    } else if (res.have_frame) {
        fprintf(log, "frame 0x%08x %ux%u: not readable as a linear image\n", res.fb_addr,
                res.fb_width, res.fb_height);
    }
    cg_vc4_destroy(v);
    return res.faults > 0 || res.wait_rc != 0 ? 1 : 0;
}

static int run_family(const cli_opts *o, const char *fam, const cg_capfile *cap,
                      const real_dump *rd, cg_device *dev, const char *dir, FILE *log)
{
    const char *path = o->args[0];
    char png[4096];
    snprintf(png, sizeof png, "%s/framebuffer.png", dir);
    if (rd->fmt != CG_CAPTURE_NATIVE) {
        cg_radeon_gen g = CG_RADEON_R600;
        if (o->gen && cg_radeon_gen_from_name(o->gen, &g) != 0)
            return CG_ERR_INVAL;
        return run_real(rd, g, dev, png, log);
    }
    if (strcmp(fam, "nv") == 0) {
        cg_nv_scene_opts so = {.log = log, .out_dir = dir};
        int rc = cap ? cg_nv_capfile_run(cap, dev, &so, NULL, NULL)
                     : cg_nv_scene_run_draws(dev, path, NULL, 0, &so, NULL, NULL);
        return rc == 0 ? 0 : rc == CG_ERR_FAULT ? 1 : rc;
    }
    if (cap && strcmp(fam, "vc4") == 0) {
        cg_vc4_scene_opts so = {.png = png, .out_dir = dir, .png_optional = true};
        return cg_vc4_capfile_run(cap, dev, &so, log);
    }
    if (cap)
        return cg_radeon_capfile_run(cap, dev, log);
    if (strcmp(fam, "vc4") == 0 || strcmp(fam, "vc4-cl") == 0) {
        cg_vc4_asm *st = NULL;
        cg_asm *as = NULL;
        int rc = cg_vc4_asm_create(&st);
        if (rc == 0 && (rc = cli_asm_load(path, cg_vc4_asm_family(), st, &as)) != EXIT_OK) {
            cg_vc4_asm_destroy(st);
            return CG_ERR_SYNTAX;
        }
        cg_vc4_scene_opts so = {.png = png, .out_dir = dir, .png_optional = true};
        if (rc == 0)
            rc = cg_vc4_scene_run(st, as, dev, &so, log);
        cg_asm_destroy(as);
        cg_vc4_asm_destroy(st);
        return rc;
    }
    /* radeon */
    cg_radeon_gen g = CG_RADEON_R600;
    if (o->gen && cg_radeon_gen_from_name(o->gen, &g) != 0)
        return CG_ERR_INVAL;
    cg_radeon_asm *st = NULL;
    cg_asm *as = NULL;
    int rc = cg_radeon_asm_create(g, &st);
    if (rc == 0 && (rc = cli_asm_load(path, cg_radeon_asm_family(), st, &as)) != EXIT_OK) {
        cg_radeon_asm_destroy(st);
        return CG_ERR_SYNTAX;
    }
    if (rc == 0)
        rc = cg_radeon_scene_run(st, as, dev, log);
    cg_asm_destroy(as);
    cg_radeon_asm_destroy(st);
    return rc;
}

static int cmp_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The PNG files the run wrote into dir, by name; the files are removed. */
static void collect_images(rp_run *r, const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    char *names[256];
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        if (n < 256 && (names[n] = strdup(e->d_name)) != NULL)
            n++;
    }
    closedir(d);
    qsort(names, n, sizeof names[0], cmp_names);
    for (size_t i = 0; i < n; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        size_t len = strlen(names[i]);
        bool png = len > 4 && strcmp(names[i] + len - 4, ".png") == 0;
        struct stat st;
        if (png && stat(path, &st) == 0 && S_ISREG(st.st_mode) &&
            (uint64_t)st.st_size <= RP_MAX_IMAGE_BYTES && r->nimages < RP_MAX_IMAGES) {
            FILE *f = fopen(path, "rb");
            uint8_t *buf = f ? malloc((size_t)st.st_size + 1) : NULL;
            size_t got = buf ? fread(buf, 1, (size_t)st.st_size, f) : 0;
            if (f)
                fclose(f);
            if (buf && got == (size_t)st.st_size) {
                rp_image *im = &r->images[r->nimages++];
                copy_str(im->name, sizeof im->name, names[i]);
                im->png = buf;
                im->size = got;
            } else {
                free(buf);
            }
        } else if (png) {
            r->images_more++;
        }
        remove(path);
        free(names[i]);
    }
}

static void print_summary(FILE *f, const rp_run *r, const char *out, long bytes, size_t nfaults)
{
    fprintf(f, "{\"report\":");
    cli_json_str(f, out);
    fprintf(f, ",\"scene\":");
    cli_json_str(f, r->path);
    fprintf(f, ",\"family\":\"%s\",\"result\":", r->family);
    cli_json_str(f, r->result);
    size_t img = 0;
    for (size_t i = 0; i < r->nimages; i++)
        img += r->images[i].size;
    fprintf(f, ",\"bytes\":%ld,\"events\":%llu,\"items\":%zu,\"items_more\":%zu,\"marks\":%zu,"
           "\"faults\":%zu,\"hang\":%s,\"images\":%zu,\"image_bytes\":%zu}\n",
           bytes, (unsigned long long)r->nevents, r->nitems, r->items_more, r->nmarks, nfaults,
           r->hang ? "true" : "false", r->nimages, img);
}

/* A CMDGPUCAP capture (docs/capture-format.md): parsed into *cap, its
 * family checked against -f. EXIT_OK (also when it is no capture, *cap
 * NULL) or an exit code with the message printed. */
static int load_capture(const cli_opts *o, const char **fam, cg_capfile **cap, uint8_t **data)
{
    *cap = NULL;
    *data = NULL;
    const char *cf = capture_family_of(o);
    if (!cf)
        return EXIT_OK;
    if (*fam && strcmp(*fam, cf) != 0 && !(strcmp(*fam, "vc4-cl") == 0 && strcmp(cf, "vc4") == 0))
        return cli_error(EXIT_USAGE, "report: '%s' is a %s capture, not %s", o->args[0], cf, *fam);
    *fam = cf;
    size_t size;
    *data = cli_read_file(o->args[0], CLI_MAX_SOURCE, &size);
    if (!*data)
        return EXIT_INPUT;
    cg_capture_error e = {0};
    int rc = cg_capfile_parse(*data, size, cap, &e);
    if (rc != 0) {
        *cap = NULL;
        return cli_error(EXIT_INPUT, "report: '%s': offset %zu: %s", o->args[0], e.offset,
                         e.msg[0] ? e.msg : cg_strerror(rc));
    }
    return EXIT_OK;
}

/* When args[0] is a capture a real system wrote: parse it into *rd and set
 * *fam from it (a different -f is an error). EXIT_OK (also when it is
 * none: rd->fmt NATIVE) or an exit code with the message printed. */
static int load_real(const cli_opts *o, const char **fam, real_dump *rd)
{
    size_t size;
    rd->data = cli_read_file(o->args[0], CLI_MAX_SOURCE, &size);
    if (!rd->data)
        return EXIT_INPUT;
    cg_capture_format f = cg_capture_detect(rd->data, size);
    if (f == CG_CAPTURE_NATIVE || f == CG_CAPTURE_CMDGPU)
        return EXIT_OK;
    const char *ff = cg_family_name(cg_capture_format_family(f));
    if (f != CG_CAPTURE_RADEON_RING_DUMP && f != CG_CAPTURE_VC4_HANG_STATE)
        return cli_error(EXIT_USAGE, "report: '%s' is a %s capture (%s): it holds no memory to "
                         "run; disasm it, or report a capture that runs (docs/captures.md)",
                         o->args[0], cg_capture_format_name(f), cg_capture_format_description(f));
    if (*fam && strcmp(*fam, ff) != 0 && !(strcmp(*fam, "vc4-cl") == 0 && strcmp(ff, "vc4") == 0))
        return cli_error(EXIT_USAGE, "report: '%s' is a %s capture (%s), not %s: leave -f out "
                         "or use -f %s", o->args[0], ff, cg_capture_format_name(f), *fam, ff);
    *fam = ff;
    cg_capture_error e = {0};
    int rc = f == CG_CAPTURE_RADEON_RING_DUMP ? cg_radeon_ringdump_parse(rd->data, size, &rd->ring, &e)
                                              : cg_vc4_hang_parse(rd->data, size, &rd->hang, &e);
    if (rc != 0) {
        rd->ring = NULL;
        rd->hang = NULL;
        return cli_error(EXIT_INPUT, "report: '%s': %s at offset %zu (0x%zx): %s", o->args[0],
                         cg_capture_format_name(f), e.offset, e.offset,
                         e.msg[0] ? e.msg : cg_strerror(rc));
    }
    rd->fmt = f;
    return EXIT_OK;
}

/* What cmd_report read before the run, freed by drop(). */
typedef struct report_input {
    cg_capfile *cap;  /* a cmdgpu capture, or NULL */
    uint8_t *capdata; /* its bytes */
    real_dump rd;     /* a real system's capture (rd.fmt NATIVE: none) */
} report_input;

/* Free *in and return rc. */
static int drop(report_input *in, int rc)
{
    cg_capfile_free(in->cap);
    free(in->capdata);
    cg_radeon_ringdump_free(in->rd.ring);
    cg_vc4_hang_free(in->rd.hang);
    free(in->rd.data);
    return rc;
}

/* Drop every "DIR/" from the run's log text (in place): the scene wrote its
 * images into the temporary directory, and the page names them alone, so
 * the same scene gives the same page byte for byte. Returns the new length. */
static size_t strip_dir(char *text, size_t len, const char *dir)
{
    size_t dl = strlen(dir), w = 0;
    for (size_t i = 0; i < len;) {
        if (len - i > dl && memcmp(text + i, dir, dl) == 0 && text[i + dl] == '/') {
            i += dl + 1;
            continue;
        }
        text[w++] = text[i++];
    }
    text[w] = '\0';
    return w;
}

int report_page(const cli_opts *o, FILE *summary)
{
    if (o->nargs != 1)
        return cli_error(EXIT_USAGE, "report: give one scene or capture file");
    if (!o->output || strcmp(o->output, "-") == 0)
        return cli_error(EXIT_USAGE, "report: give the page's file with -o REPORT.html");
    if (strcmp(o->args[0], "-") == 0)
        return cli_error(EXIT_USAGE, "report: the scene must be a file (its .incbin and "
                         ".include paths are relative to it)");
    FILE *probe = fopen(o->args[0], "r");
    if (!probe)
        return cli_error(EXIT_INPUT, "cannot open '%s': %s", o->args[0], strerror(errno));
    fclose(probe);
    const char *fam = o->family;
    report_input in = {.rd = {.fmt = CG_CAPTURE_NATIVE}};
    int lrc = load_capture(o, &fam, &in.cap, &in.capdata);
    if (lrc == EXIT_OK && !in.cap)
        lrc = load_real(o, &fam, &in.rd);
    if (lrc != EXIT_OK)
        return drop(&in, lrc);
    const cg_capfile *cap = in.cap;
    if (!fam)
        return drop(&in, cli_error(EXIT_USAGE, "report: which family? use -f nv, vc4 or radeon "
                                   "(a capture names its own)"));
    if (strcmp(fam, "nv") != 0 && strcmp(fam, "vc4") != 0 && strcmp(fam, "vc4-cl") != 0 &&
        strcmp(fam, "radeon") != 0)
        return drop(&in, cli_error(EXIT_USAGE, "report: family '%s' has no runs (nv, vc4, "
                                   "radeon)", fam));
    cg_radeon_gen g0;
    if (o->gen && cg_radeon_gen_from_name(o->gen, &g0) != 0)
        return drop(&in, cli_error(EXIT_USAGE, "--gen: unknown radeon generation '%s' (r600, "
                                   "r700, evergreen, r500)", o->gen));
    if (in.rd.ring && o->gen && g0 == CG_RADEON_R500)
        return drop(&in, cli_error(EXIT_USAGE, "report: ring dumps replay on r600, r700 or "
                                   "evergreen"));
    /* refuse an unwritable page before running anything */
    FILE *out = cli_open_out(o->output, "w");
    if (!out)
        return drop(&in, EXIT_INPUT);
    char dir[] = "/tmp/cmdgpu-report-XXXXXX";
    if (!mkdtemp(dir)) {
        fclose(out);
        return drop(&in, cli_error(EXIT_INPUT, "report: cannot make a temporary directory: %s",
                                   strerror(errno)));
    }
    static rp_run r; /* large (fault_item, images): not on the stack */
    memset(&r, 0, sizeof r);
    r.path = o->args[0];
    r.family = strcmp(fam, "vc4-cl") == 0 ? "vc4" : fam;
    r.radeon_gen = CG_RADEON_R600;
    uint64_t capgen;
    if (cap && cg_capfile_config(cap, CG_CAPCFG_RADEON_GEN, &capgen) == 0)
        r.radeon_gen = (cg_radeon_gen)capgen;
    else if (o->gen && cg_radeon_gen_from_name(o->gen, &r.radeon_gen) != 0)
        r.radeon_gen = CG_RADEON_R600; /* run_family refuses it */
    for (size_t i = 0; i < RP_MAX_FAULTS; i++)
        r.fault_item[i] = -1;
    int rc = EXIT_OK;
    cg_device *dev = NULL;
    if (cap ? cg_capfile_device(cap, &dev) != 0 : !(dev = cli_device_create(o))) {
        fclose(out);
        rmdir(dir);
        return drop(&in, cli_error(EXIT_INPUT, "out of memory"));
    }
    if (!cap)
        cg_device_set_coherency(dev, CG_COHERENCY_WARN); /* a capture sets its own */
    recorder rec = {.r = &r};
    hang_rec hang = {0};
    if (strcmp(r.family, "nv") == 0)
        cg_nv_hang_recorder_create(dev, &hang.nv);
    else if (strcmp(r.family, "vc4") == 0)
        cg_vc4_hang_recorder_create(dev, &hang.vc4);
    else
        cg_radeon_hang_recorder_create(dev, &hang.radeon);
    char *logbuf = NULL;
    size_t loglen = 0;
    FILE *log = open_memstream(&logbuf, &loglen);
    if (cg_trace_add(dev, sink, &rec) < 0 || !log) {
        rc = cli_error(EXIT_INPUT, "report: cannot attach the recorder");
        goto done;
    }
    int run = run_family(o, r.family, cap, &in.rd, dev, dir, log);
    fclose(log);
    log = NULL;
    if (run == CG_ERR_SYNTAX) {
        if (strcmp(r.family, "nv") == 0 && logbuf)
            fputs(logbuf, stderr); /* nv: the scene runner logs its syntax errors */
        rc = EXIT_INPUT;
        goto done;
    }
    r.result = run == 0 ? "ok" : run > 0 ? "failed" : cg_strerror(run);
    if (logbuf)
        loglen = strip_dir(logbuf, loglen, dir);
    r.log = logbuf;
    r.log_len = loglen > RP_MAX_LOG_BYTES ? RP_MAX_LOG_BYTES : loglen;
    r.dev = dev;
    char *hb = NULL;
    size_t hl = 0;
    FILE *hm = run != 0 ? open_memstream(&hb, &hl) : NULL;
    if (hm) {
        int wrote = hang.nv       ? cg_nv_hang_report(hang.nv, false, hm)
                    : hang.vc4    ? cg_vc4_hang_report(hang.vc4, false, hm)
                    : hang.radeon ? cg_radeon_hang_report(hang.radeon, false, hm)
                                  : 0;
        fclose(hm);
        if (wrote > 0)
            r.hang = hb;
        else
            free(hb);
    }
    collect_images(&r, dir);
    int wr = rp_write_html(&r, out);
    long bytes = ftell(out);
    int crc = cli_close_out(out, o->output);
    out = NULL;
    if (wr != 0 || crc != EXIT_OK) {
        rc = EXIT_INPUT;
        if (crc == EXIT_OK)
            cli_error(EXIT_INPUT, "report: cannot write '%s'", o->output);
        goto done;
    }
    if (summary && o->json)
        print_summary(summary, &r, o->output, bytes, cg_fault_count(dev));
    else if (summary)
        fprintf(summary, "report %s: %s, %s, %zu fault(s), %zu packet(s)%s, %zu image(s)\n", o->output,
               r.path, r.result, cg_fault_count(dev), r.nitems + r.items_more,
               r.items_more ? " (some not shown)" : "", r.nimages);
    rc = run == 0 ? EXIT_OK : run > 0 ? EXIT_FAULT : EXIT_INPUT;
done:
    if (log)
        fclose(log);
    if (out)
        fclose(out);
    cg_nv_hang_recorder_destroy(hang.nv);
    cg_vc4_hang_recorder_destroy(hang.vc4);
    cg_radeon_hang_recorder_destroy(hang.radeon);
    cg_device_destroy(dev);
    collect_images(&r, dir); /* removes what is left */
    rmdir(dir);
    for (size_t i = 0; i < r.nimages; i++)
        free(r.images[i].png);
    free(r.items);
    free(r.marks);
    free(r.hang);
    free(logbuf);
    return drop(&in, rc);
}

int cmd_report(const cli_opts *o)
{
    return report_page(o, stdout);
}
