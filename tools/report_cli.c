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

static int run_family(const cli_opts *o, const char *fam, const cg_capfile *cap, cg_device *dev,
                      const char *dir, FILE *log)
{
    const char *path = o->args[0];
    char png[4096];
    snprintf(png, sizeof png, "%s/framebuffer.png", dir);
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

static void print_summary(const rp_run *r, const char *out, long bytes, size_t nfaults)
{
    printf("{\"report\":");
    cli_json_str(stdout, out);
    printf(",\"scene\":");
    cli_json_str(stdout, r->path);
    printf(",\"family\":\"%s\",\"result\":", r->family);
    cli_json_str(stdout, r->result);
    size_t img = 0;
    for (size_t i = 0; i < r->nimages; i++)
        img += r->images[i].size;
    printf(",\"bytes\":%ld,\"events\":%llu,\"items\":%zu,\"items_more\":%zu,\"marks\":%zu,"
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

int cmd_report(const cli_opts *o)
{
    if (o->nargs != 1)
        return cli_error(EXIT_USAGE, "report: give one scene or capture file");
    if (!o->output || strcmp(o->output, "-") == 0)
        return cli_error(EXIT_USAGE, "report: give the page's file with -o REPORT.html");
    if (strcmp(o->args[0], "-") == 0)
        return cli_error(EXIT_USAGE, "report: the scene must be a file (its .incbin and "
                         ".include paths are relative to it)");
    FILE *in = fopen(o->args[0], "r");
    if (!in)
        return cli_error(EXIT_INPUT, "cannot open '%s': %s", o->args[0], strerror(errno));
    fclose(in);
    const char *fam = o->family;
    cg_capfile *cap = NULL;
    uint8_t *capdata = NULL;
    int lrc = load_capture(o, &fam, &cap, &capdata);
    if (lrc != EXIT_OK) {
        free(capdata);
        return lrc;
    }
    if (!fam)
        return cli_error(EXIT_USAGE, "report: which family? use -f nv, vc4 or radeon (a "
                         "capture names its own)");
    if (strcmp(fam, "nv") != 0 && strcmp(fam, "vc4") != 0 && strcmp(fam, "vc4-cl") != 0 &&
        strcmp(fam, "radeon") != 0) {
        cg_capfile_free(cap);
        free(capdata);
        return cli_error(EXIT_USAGE, "report: family '%s' has no runs (nv, vc4, radeon)", fam);
    }
    cg_radeon_gen g0;
    if (o->gen && cg_radeon_gen_from_name(o->gen, &g0) != 0) {
        cg_capfile_free(cap);
        free(capdata);
        return cli_error(EXIT_USAGE, "--gen: unknown radeon generation '%s' (r600, r700, "
                         "evergreen, r500)", o->gen);
    }
    /* refuse an unwritable page before running anything */
    FILE *out = cli_open_out(o->output, "w");
    if (!out) {
        cg_capfile_free(cap);
        free(capdata);
        return EXIT_INPUT;
    }
    char dir[] = "/tmp/cmdgpu-report-XXXXXX";
    if (!mkdtemp(dir)) {
        fclose(out);
        cg_capfile_free(cap);
        free(capdata);
        return cli_error(EXIT_INPUT, "report: cannot make a temporary directory: %s",
                         strerror(errno));
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
        cg_capfile_free(cap);
        free(capdata);
        return cli_error(EXIT_INPUT, "out of memory");
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
    int run = run_family(o, r.family, cap, dev, dir, log);
    fclose(log);
    log = NULL;
    if (run == CG_ERR_SYNTAX) {
        if (strcmp(r.family, "nv") == 0 && logbuf)
            fputs(logbuf, stderr); /* nv: the scene runner logs its syntax errors */
        rc = EXIT_INPUT;
        goto done;
    }
    r.result = run == 0 ? "ok" : run > 0 ? "failed" : cg_strerror(run);
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
    if (o->json)
        print_summary(&r, o->output, bytes, cg_fault_count(dev));
    else
        printf("report %s: %s, %s, %zu fault(s), %zu packet(s)%s, %zu image(s)\n", o->output,
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
    cg_capfile_free(cap);
    free(capdata);
    return rc;
}
